"""A Grand Slam game drawn from one manager's view: :func:`sample_state` (determinization).

A search manager plays copies of the game built from what it may know, never from the live
game. ``sample_state(view, rng, setup)`` builds one such copy: a full
:class:`~.rules.GameState` at the view's decision, ready for ``rules.apply_action`` and
``dugout.envs.core.engine.play_out``, whose ``view_of(state, view.seat)`` equals ``view``
field for field. It reads only the view, ``rng`` and ``setup``.

**Copied from the view** (the table, and the viewer's own cards): the inning, half, outs,
which bases are occupied, the score, the scheduled innings, the card set, the viewer's hand,
how many PH/RP stacks each manager has, how many cards the opponent holds, the discards, the
cards in play (on the bases and behind home plate) and the size of the draw pile. The
pending decision is the viewer's when the view names one (its legal actions must be those
of his hand and stacks); otherwise the opponent's, a ``batting_play`` or ``fielding_play``
by whether his team bats.

**Drawn from** ``rng`` (the hidden pieces; RULES.md, "What a manager sees"):

* the opponent's hand ("Managers may look at their cards": only their own), the face-down
  card under every PH/RP card ("drawn, but not viewed": hidden from its owner too) and the
  order of the draw pile (face down). These are the cards the viewer cannot see
  (``view.unseen()``), dealt as a shuffle deals them: a uniform permutation of them, the
  opponent's hand first, then one face-down card under each stack (the viewer's, oldest
  first, then the opponent's), the rest the draw pile, top card first. A hand never holds a
  PH/RP card (one drawn goes face up on the table), so the opponent's hand is drawn from
  the unseen cards that are not PH/RP cards: a uniform permutation conditioned on that.
  When the opponent is the one to decide and has no PH/RP stack, his hand holds two card
  types or more (else the engine would have played his only card for him), and hands of a
  single type are drawn again. Nothing else conditions the draw: what the opponent chose
  to play earlier may hint at his hand, but the view holds no history to read it from.
* which card lies under each runner. The view counts the cards in play but does not say
  which are under the runners and which behind home plate (runners put out on a double
  play lie there with their cards). Each runner's card is drawn from the on-base cards in
  play, every such card equally likely, among the assignments the bases allow (a card
  carries its batter as far as it sends him and runners only move forward: a Double's
  runner is on second or third, a Triple's on third; a Home Run never stays on base); the
  rest are behind home plate.
* the dice: a fresh :class:`~dugout.envs.core.dice.Dice` seeded from ``rng`` (the live
  game's seed is never read), so the shuffles after every third inning and the rebuilds
  of the draw pile come out fresh.

**Made up, consistently** (public, but not in the view, and without effect on play): the
batting order (each team's batter 1 is up; the runners are the batters just before him,
the one on first the latest), a line score that adds up to the score and never says the
game should have ended (the runs the two teams have in common in the 1st inning, the leader's
margin in his latest half inning), an empty box score and play log (the sample starts its
own books), the scheduled shuffles made (``(inning - 1) // 3``, which the view's inning
gives) and no rebuild of the draw pile in this stretch (its count only keys the fresh
dice).

**setup** (:class:`GrandSlamSetup`, built from an env by :func:`public_setup`): the game's
public options every manager knows: ``innings``, ``max_innings`` and the card set
(``counts``). The view holds the innings and the card set but not ``max_innings``, which
decides whether a tie is cut off; ``setup=None`` means the env's defaults (no
``max_innings``) with the view's innings and card set. A setup that contradicts the view
raises ``ValueError``.

A view of a finished game, or of a moment that is no decision, has nothing to search and
raises ``ValueError``; so does a view no game could show (cards that do not add up).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import product
from typing import Any

from ..core.sample import check_sample_args
from ..core.decisions import Decision
from ..core.dice import Dice
from ..core.scoreboard import Scoreboard
from ..core.scorebook import BoxScore, PlayLog
from .cards import (DOUBLE, ERROR, HIT_BY_PITCH, N_HAND_TYPES, N_TYPES, REFERENCE_COUNTS,
                    SINGLE, TRIPLE, WALK, check_counts)
from .rules import BATTER_NAMES, HAND_SIZE, STACK_ACTION, TEAM_NAMES, GameState
from .view import GrandSlamView

__all__ = ["GrandSlamSetup", "public_setup", "sample_state"]

#: How far each card that puts a batter on base sends him: his runner stands on that base
#: or a later one (ERROR, WALK, HIT BY PITCH and SINGLE: first; DOUBLE: second; TRIPLE:
#: third). A Home Run never leaves a runner on base.
REACH = {SINGLE: 1, WALK: 1, HIT_BY_PITCH: 1, ERROR: 1, DOUBLE: 2, TRIPLE: 3}


@dataclass(frozen=True)
class GrandSlamSetup:
    """The public set-up of a Grand Slam game: the env's options every manager knows.

    * ``innings``: the scheduled length (the view holds it too);
    * ``max_innings``: the inning after which a tie is cut off, or None (not in the view);
    * ``counts``: copies of each card type in the deck (17 entries; the view's
      ``card_counts``).
    """
    innings: int = 9
    max_innings: int | None = None
    counts: tuple[int, ...] = REFERENCE_COUNTS


def public_setup(env: Any) -> GrandSlamSetup:
    """The public set-up of a ``grand_slam_v0`` env (wrapped or raw): its ``innings``,
    ``max_innings`` and card set, the options it was built with. Reads nothing of the game."""
    from .env import GrandSlamEnv
    game = getattr(env, "unwrapped", env)
    if not isinstance(game, GrandSlamEnv):
        raise TypeError(f"public_setup: expected a grand_slam_v0 env, got {type(game).__name__}")
    return GrandSlamSetup(game.innings, game.max_innings, tuple(game.counts))


def sample_state(view: GrandSlamView, rng: random.Random,
                 setup: GrandSlamSetup | None = None) -> GameState:
    """A full game consistent with ``view``: the hidden cards and the dice drawn from
    ``rng``, the rest copied from the view or ``setup`` (see the module docstring)."""
    check_sample_args(view, GrandSlamView, rng)
    if view.over:
        raise ValueError("sample_state: the game is over, there is nothing to sample")
    setup = _check_setup(view, setup)
    seat = view.seat
    actor, kind = _pending_turn(view)
    runner_cards, outs_pile = _cards_in_play(view, rng)
    opp_hand, beneath, deck = _deal_unseen(view, actor != seat, rng)
    hands: list[list[int]] = [[], []]
    hands[seat] = list(view.hand) + [0] * (N_TYPES - N_HAND_TYPES)
    hands[1 - seat] = opp_hand
    stacks: list[list[int]] = [[], []]
    stacks[seat] = beneath[:view.own_stacks]
    stacks[1 - seat] = beneath[view.own_stacks:]
    stretch = (view.inning - 1) // 3
    dice = Dice(rng.getrandbits(64), (stretch, 0))
    board, order, runner_slots = _scoreboard(view, setup)
    slot_cards: list[int | None] = [None] * 9
    for slot, card in zip(runner_slots, runner_cards):
        slot_cards[slot] = card
    names = [(n, str(i + 1)) for i, n in enumerate(BATTER_NAMES)]
    state = GameState(board=board, dice=dice, box=BoxScore(list(TEAM_NAMES), [names, names]),
                      log=PlayLog(), counts=tuple(view.card_counts), deck=deck, hands=hands,
                      stacks=stacks, discards=list(view.discards), runner_cards=slot_cards,
                      outs_pile=outs_pile, played_by=[], order=order, stretch=stretch,
                      refills=0, step="bat" if kind == "batting_play" else "field")
    legal = _offer(state, actor)
    if actor == seat and legal != tuple(view.legal):
        raise ValueError(f"sample_state: the view's legal actions {list(view.legal)} are not "
                         f"those of its hand and stacks {list(legal)}")
    state.pending = Decision(kind, actor, legal)
    return state


# -- what is copied -------------------------------------------------------------------------
def _check_setup(view: GrandSlamView, setup: GrandSlamSetup | None) -> GrandSlamSetup:
    """The setup to use: the given one, which must agree with the view, or the defaults."""
    if setup is None:
        setup = GrandSlamSetup(view.innings, None, tuple(view.card_counts))
    elif not isinstance(setup, GrandSlamSetup):
        raise TypeError(f"sample_state: setup must be a GrandSlamSetup (public_setup(env)) or "
                        f"None, got {type(setup).__name__}")
    if setup.innings != view.innings:
        raise ValueError(f"sample_state: the setup's innings {setup.innings} are not the "
                         f"view's {view.innings}")
    if tuple(setup.counts) != tuple(view.card_counts):
        raise ValueError(f"sample_state: the setup's card set {list(setup.counts)} is not the "
                         f"view's {list(view.card_counts)}")
    check_counts(tuple(setup.counts), "the setup's card set")
    if setup.max_innings is not None and view.inning > setup.max_innings:
        raise ValueError(f"sample_state: inning {view.inning} is past the setup's max_innings "
                         f"{setup.max_innings}")
    return setup


def _pending_turn(view: GrandSlamView) -> tuple[int, str]:
    """Who decides and what: the viewer when the view names his decision, else the
    opponent (a game not over always waits on a decision), batting or fielding."""
    if view.decision is not None:
        actor = view.seat
    else:
        actor = 1 - view.seat
        if view.legal:
            raise ValueError("sample_state: a view with legal actions names its decision")
    kind = "batting_play" if actor == view.half else "fielding_play"
    if view.decision is not None and view.decision != kind:
        raise ValueError(f"sample_state: seat {actor} cannot face a {view.decision!r} decision "
                         f"in the {('top', 'bottom')[view.half]} half")
    if view.opp_hand_size != HAND_SIZE or sum(view.hand) != HAND_SIZE:
        raise ValueError(f"sample_state: at a decision each hand holds {HAND_SIZE} cards, the "
                         f"view shows {sum(view.hand)} and {view.opp_hand_size}")
    return actor, kind


def _offer(state: GameState, seat: int) -> tuple[int, ...]:
    """The turn's legal actions, as the rules offer them: each hand card type, each stack."""
    return tuple(c for c in range(N_HAND_TYPES) if state.hands[seat][c]) + tuple(
        STACK_ACTION + i for i in range(len(state.stacks[seat])))


def _scoreboard(view: GrandSlamView, setup: GrandSlamSetup
                ) -> tuple[Scoreboard, list[int], list[int]]:
    """The scoreboard of the view's situation, the batting order (batter 1 up for both
    teams) and the lineup slots of the runners on first, second and third that stand (the
    batters just before, the runner on first the latest)."""
    if not 0 <= view.outs <= 2:
        raise ValueError(f"sample_state: a decision comes with 0-2 outs, the view shows "
                         f"{view.outs}")
    half, inning = view.half, view.inning
    line = _line_score(view)
    slots, bases = [], []
    for on in view.runners:
        if on:
            slot = 8 - len(slots)
            slots.append(slot)
            bases.append(slot)
        else:
            bases.append(None)
    board = Scoreboard(innings=setup.innings, max_innings=setup.max_innings, inning=inning,
                       half=half, outs=view.outs, bases=(bases[0], bases[1], bases[2]),
                       runs=list(view.runs), line=line)
    return board, [0, 0], slots


def _line_score(view: GrandSlamView) -> list[list[int]]:
    """A line score that adds up to the view's score and never ends the game early: the
    runs the two teams have in common go in the 1st inning, the leader's margin in his latest half
    inning (the one being played when his team bats, else the one before it)."""
    inning, half = view.inning, view.half
    columns = (inning, inning - 1 + half)
    line = [[0] * n for n in columns]
    away, home = view.runs
    if home and not columns[1]:
        raise ValueError(f"sample_state: the home team has {home} runs before batting")
    tied = min(away, home)
    if tied:
        line[0][0] = line[1][0] = tied
    leader = 0 if away > home else 1
    if away != home:
        line[leader][-1] += abs(away - home)
    return line


# -- what is drawn ----------------------------------------------------------------------------
def _cards_in_play(view: GrandSlamView, rng: random.Random) -> tuple[list[int], list[int]]:
    """The cards under the runners (first to third, occupied bases only) and the cards
    behind home plate: each runner's card drawn among the on-base cards in play, each such
    card equally likely, among the assignments the bases allow."""
    bases = [b for b in range(3) if view.runners[b]]
    cards = list(view.in_play)
    if sum(cards) != view.outs + len(bases):
        raise ValueError(f"sample_state: {sum(cards)} cards in play for {view.outs} outs and "
                         f"{len(bases)} runners (one card each)")
    options = []
    weights = []
    for choice in product(sorted(REACH), repeat=len(bases)):
        weight, left = 1, list(cards)
        for base, card in zip(bases, choice):
            if REACH[card] > base + 1 or not left[card]:
                weight = 0
                break
            weight *= left[card]
            left[card] -= 1
        if weight:
            options.append(choice)
            weights.append(weight)
    if not options:
        raise ValueError(f"sample_state: no on-base cards in play {list(cards)} fit the runners "
                         f"on {[b + 1 for b in bases]}")
    chosen = options[0] if len(options) == 1 else rng.choices(options, weights)[0]
    for card in chosen:
        cards[card] -= 1
    outs_pile = [c for c in range(N_HAND_TYPES) for _ in range(cards[c])]
    return list(chosen), outs_pile


def _deal_unseen(view: GrandSlamView, opponent_decides: bool, rng: random.Random
                 ) -> tuple[list[int], list[int], list[int]]:
    """The cards the viewer cannot see, dealt as a uniform shuffle: the opponent's hand
    (never a PH/RP card; two types or more when he decides without a stack), one face-down
    card under each stack (the viewer's first), and the draw pile, top card first."""
    unseen = view.unseen()
    stacks = view.own_stacks + view.opp_stacks
    if min(unseen) < 0 or sum(unseen) != view.opp_hand_size + stacks + view.deck_left:
        raise ValueError(f"sample_state: the unseen cards {list(unseen)} are not the opponent's "
                         f"{view.opp_hand_size} cards, {stacks} face-down cards and a draw pile "
                         f"of {view.deck_left}")
    playable = [c for c in range(N_HAND_TYPES) for _ in range(unseen[c])]
    need_choice = opponent_decides and view.opp_stacks == 0
    if len(playable) < view.opp_hand_size or (need_choice and len(set(playable)) < 2):
        raise ValueError(f"sample_state: the unseen cards {list(unseen)} cannot make the "
                         f"opponent's hand")
    while True:
        held = rng.sample(playable, view.opp_hand_size)
        if not need_choice or len(set(held)) > 1:
            break
    hand = [0] * N_TYPES
    for c in held:
        hand[c] += 1
    rest = [c for c in range(N_TYPES) for _ in range(unseen[c] - hand[c])]
    rng.shuffle(rest)
    return hand, rest[:stacks], rest[stacks:]
