"""Determinization for the Manager Challenge (``manager_challenge_v0``): :func:`sample_state`
builds a full :class:`~.solo.Campaign` from the manager's view (``env.unwrapped.view()``, a
:class:`~.challenge.ChallengeView`, what the heuristic ``dugout.agents.manager_challenge``
reads), drawing what the view does not show from ``rng``; ``challenge_view(sample) == view``.

**Playing a sample on.** The game in progress is ``sample.game`` (a ``mode="solo"``
:class:`~.state.GameState`). ``rules.apply_action(sample.game, action)`` plays a decision
(:mod:`.rules` plays every mode by ``state.mode``), and
``dugout.envs.core.engine.play_out(sample.game, SOLO_RULES, policy)`` plays the game to its end
(:data:`SOLO_RULES` holds the solo rule tables; ``play_out`` with the ``rules`` or ``solo``
module itself would play the duel's tables). The manager's result is :func:`game_result`:
the Manager Points the game earns (its Situation's per run scored and, on a win, for the win,
the Effect's and 5) and whether home won (``sample.game.board.winner == 1``), what the env
pays at the game's end (``reward="mp"`` or ``"win"``). ``sample.apply(action)`` plays on
through the campaign instead: its later games are drawn from the sample's own campaign dice.

**Copied from the view**: the level, the games' results, the Situations played, this game's
Situation and Effect, the game's cards (the Effect's traits written on), the score, inning,
outs and the bases taken, the extra innings left, the count, the lineup, the order, the
bench, the pitcher on the mound and those removed, the revealed card, the deck having run
out, the last guess, the tokens, the grants, the dice shown and as rolled, ``pa``, ``last``,
the pending decision, and (while it is viewable, below Manager of the Year) the discard pile
in its order.

**Drawn** (each with ``rng``):

* the Pitcher deck's order ("Shuffle the remaining Situation and Effect cards to form the
  Pitcher deck"; relief shuffles it again): a uniform permutation of the game's deck cards
  not in the discard pile. At Manager of the Year and above ("The Pitcher discard pile is no
  longer viewable") the split is hidden too: the game's deck cards but the revealed one,
  uniformly shuffled, the first ``deck_size`` the deck, the rest the discard pile (in that
  drawn order), with the revealed card on top of it;
* the dice of the game: a fresh :class:`~dugout.envs.core.dice.Dice` seeded from ``rng``, on
  the stream the engine would be on (they give the pitches' dice, the automated pitcher's
  rerolls and the deck's reshuffles), and the campaign's: a fresh ``Dice`` too (its later
  games' Situations, Effects and dice);
* the Pitch die's face number as rolled (``pitch_roll``, which the automated pitcher's
  "natural 1 with 3 balls" rule reads): uniform over the faces showing the natural face;
* the pitcher pile ("shuffle all available Pitchers together to form a card pile", face
  down): a uniform draw, in uniform order, of pitchers not in this game, as many as the
  campaign's draws would leave if each earlier game drew one pitcher (the pitchers drawn in
  earlier games and their number are public but not in the view: see below).

**Not in the view, rebuilt by a stated rule** (public at the table; the view lacks them):

* the earlier games' Effect cards (no rule reads them): uniform, as the campaign draws them;
* the earlier games' Manager Points one by one (only their sum, shown, is read): all on the
  first game;
* the runs the pitcher on the mound has allowed (read at an extra inning's start: "fatigue
  the Pitcher 1 for each run they have allowed"): every home run of this game (exact while
  no pitcher has been removed);
* whether the Effect card's once-a-game ability is spent: spent when a pitch is revealed
  and its grant is not among the grants, else unspent;
* which batter stands on which base (no solo rule reads it): the batters before the one due,
  the lead runner the earliest; the box score's statistics and the play log (fresh).

``setup`` is the campaign's public set-up, what the env was built with:
``{"cards": CardSet, "first_game": "home_opener" | "random"}``, the duel's card set the
campaign deals its games from (the view's ``cards`` carry this game's Effect traits) and the
first-game option. :func:`public_setup` builds it from the env's public options; None reads
the built-in cards and the Home Opener.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from ..core.dice import Dice
from ..core.engine import run_rules
from ..core.sample import check_sample_args
from ..core.scorebook import BoxScore, PlayLog
from . import rules, solo
from .cards import CardSet, load_cards
from .challenge import ChallengeView, challenge_view
from .sample import runner_slots
from .rules import LINEUP_SIZE, TEAM_NAMES
from .state import MODES

__all__ = ["sample_state", "public_setup", "game_result", "SOLO_RULES", "MANAGER_KINDS"]

#: The Manager Challenge's rule tables as a rules module for ``core.engine.play_out``
#: (``RULES``, ``CHOICES``, ``run``) and for callers of ``apply_action``.
SOLO_RULES = SimpleNamespace(CHOICES=MODES["solo"][0], RULES=MODES["solo"][1], run=rules.run,
                             apply_action=rules.apply_action)

_SEED_BITS = 63
#: The step that asks each decision of the manager.
_ASKED_BY = {"select_batter": "solo_lineup", "select_bench": "solo_bench", "pinch_hit": "new_batter",
             "guess": "guess", "mvp_or_fatigue": "mvp_or_fatigue", "batter_ability": "batter_ability"}
#: The decisions a campaign asks its manager, who bats (the opponent's pitches come off its
#: deck): of the Manager Challenge's kinds, those a ``kinds`` setting of a search may name.
MANAGER_KINDS = tuple(_ASKED_BY)


def public_setup(env: Any) -> dict[str, Any]:
    """The public set-up of a Manager Challenge env (``manager_challenge_v0``, wrapped or
    not): its card set and its first-game option. Reads only the env's options."""
    return getattr(env, "unwrapped", env).public_setup()


def game_result(campaign: solo.Campaign) -> tuple[int, bool]:
    """The game in progress's result for the manager: the Manager Points it earns (so far,
    while it goes on) and whether home has won it."""
    game = campaign.game
    return campaign.game_points(game), game.board.winner == 1


def sample_state(view: ChallengeView, rng: random.Random,
                 setup: dict[str, Any] | None = None) -> solo.Campaign:
    """A full campaign consistent with ``view`` (``challenge_view(sample) == view``), what
    the view does not show drawn from ``rng`` (the module docstring says how)."""
    check_sample_args(view, ChallengeView, rng)
    setup = _check_setup(setup)
    game = _game(view, rng, setup["cards"])
    campaign = _campaign(view, rng, setup, game)
    if challenge_view(campaign) != view:
        raise ValueError("no Manager Challenge state of these rules shows this view (a view "
                         "of another set-up, or one changed by hand?)")
    return campaign


def _check_setup(setup: dict[str, Any] | None) -> dict[str, Any]:
    if setup is None:
        return {"cards": load_cards("builtin"), "first_game": "home_opener"}
    if not isinstance(setup, dict) or not isinstance(setup.get("cards"), CardSet) or \
            setup.get("first_game") not in ("home_opener", "random"):
        raise ValueError(f"setup must be public_setup's dict for a Manager Challenge (its card "
                         f"set and first_game), got {setup!r}")
    return setup


# -- the Pitcher deck and the pile ------------------------------------------------------------------
def _deck_and_discard(view: ChallengeView, rng: random.Random) -> tuple[list[int], list[int]]:
    """The deck (top first, shuffled) and the discard pile (bottom first)."""
    n_sit = len(view.solo.situations)
    played = set(view.played) | {view.situation}
    cards = [c for c in range(n_sit) if c not in played] + \
        [n_sit + k for k in range(len(view.solo.effects)) if k != view.effect]
    if view.deck_known:
        discard = list(view.discard)
        deck = [c for c in cards if c not in discard]
        rng.shuffle(deck)
    else:
        hidden = [c for c in cards if c != view.revealed]
        rng.shuffle(hidden)
        deck = hidden[:view.deck_size]
        discard = hidden[view.deck_size:] + ([view.revealed] if view.revealed >= 0 else [])
    if len(deck) != view.deck_size or len(discard) != view.discard_size:
        raise ValueError(f"the view's deck ({view.deck_size}) and discard pile "
                         f"({view.discard_size}) are not this game's {len(cards)} deck cards")
    return deck, discard


def _pile(view: ChallengeView, rng: random.Random, cards: CardSet) -> list[int]:
    """The pitcher pile: pitchers not in this game, as many as one draw per earlier game and
    one per pitcher in this game leave of the whole staff, in a uniform order."""
    pitchers = list(range(len(cards.batters), len(cards.cards)))
    in_game = {view.pitcher_card, *view.removed}
    others = [p for p in pitchers if p not in in_game]
    size = min(len(others), max(0, len(pitchers) - view.game_no - len(in_game)))
    return rng.sample(others, size)


# -- the game ---------------------------------------------------------------------------------------
def _board(view: ChallengeView) -> solo.ChallengeScoreboard:
    runs = list(view.runs)
    winner = (1 if runs[1] > runs[0] else 0) if view.over else None
    return solo.ChallengeScoreboard(innings=9, inning=view.inning, half=1, runs=runs,
                                    outs=view.outs, bases=runner_slots(view),
                                    extra=view.extra_left, over=view.over, winner=winner)


def _box(view: ChallengeView) -> BoxScore:
    """Fresh lines: the lineup's names once set, a pitching line for each pitcher who has
    taken the mound, the one on it charged with every home run of this game."""
    cs = view.cards
    lineup = view.lineups[1]
    if len(lineup) == LINEUP_SIZE:
        names = [(cs.card(i).name, cs.card(i).position) for i in lineup]
    else:
        names = [(f"Batter {i + 1}", "") for i in range(LINEUP_SIZE)]
    box = BoxScore(list(TEAM_NAMES), [[], names])
    for p in list(view.removed) + [view.pitcher_card]:
        box.add_pitcher(0, cs.card(p).name)
    start = view.solo.situations[view.situation].score[1]
    box.pitching[0][-1].r = view.runs[1] - start
    return box


def _pool(view: ChallengeView) -> list[int]:
    """The batters the lineup is picked from: the view's while the lineup is being set; during
    the bench's picks the lineup, the bench and the batters still offered; afterwards (no
    rule reads it) the lineup and the bench."""
    lineup = set(view.lineups[1])
    if len(lineup) < LINEUP_SIZE:
        return sorted(lineup | set(view.pool))
    offered = {a - rules.CARD for a in view.legal} if view.decision == "select_bench" else set()
    return sorted(lineup | set(view.bench) | offered)


def _game(view: ChallengeView, rng: random.Random, cards: CardSet):
    """The game in progress: set up by the solo rules from its Situation and Effect (the
    Effect's traits, stamina and once-a-game ability), then everything the view shows put in
    place, and the decision asked again."""
    deck, discard = _deck_and_discard(view, rng)
    pile = _pile(view, rng, cards)
    faces = tuple(f for f, n in view.pitch_faces for _ in range(n))
    game = solo.new_solo_game(Dice(rng.getrandbits(_SEED_BITS)), cards, view.solo, view.situation,
                              view.effect, list(view.played), list(pile), view.level, faces,
                              view.out_rule)
    game.cards = view.cards
    game.board, game.box, game.log = _board(view), _box(view), PlayLog()
    game.lineup, game.order = list(view.lineups[1]), list(view.orders)
    game.slot_lines = [[], list(range(LINEUP_SIZE))]
    game.pitcher, game.staff, game.removed = view.pitcher_card, [view.pitcher_card], list(view.removed)
    game.bench, game.pool, game.pile = list(view.bench), _pool(view), pile
    game.deck, game.discard = deck, discard
    game.revealed, game.depleted, game.prev_guess = view.revealed, view.depleted, view.prev_guess
    game.pa, game.balls, game.strikes = view.pa, view.balls, view.strikes
    game.fatigue, game.ceiling = list(view.fatigue), view.ceiling
    game.secret, game.thrown, game.guess = -1, view.thrown, view.guess
    game.tokens = list(view.tokens)
    game.grants = [list(view.grants[0]), list(view.grants[1])]
    game.face, game.face_natural = view.face, view.face_natural
    game.control, game.control_natural = view.control, view.control_natural
    game.swing, game.swing_natural = view.swing, view.swing_natural
    game.last, game.solo_inning = view.last, view.inning
    game.support_used = _support_used(game, view)
    if view.face_natural:
        same = [i + 1 for i, f in enumerate(faces) if f == view.face_natural]
        game.pitch_roll = same[rng.randrange(len(same))]
    else:
        game.pitch_roll = 0
    game.pitch_no = view.balls + view.strikes + (1 if view.face_natural or view.decision == "guess" else 0)
    game.dice = Dice(rng.getrandbits(_SEED_BITS), (game.board.half_index, game.pa, game.pitch_no))
    game.pending = None
    if view.over:
        game.step = "clean_up"
    elif view.decision in _ASKED_BY:
        game.step = _ASKED_BY[view.decision]
        run_rules(game, MODES["solo"][1])
    else:
        raise ValueError(f"a Manager Challenge game that goes on waits on the manager; the view "
                         f"shows {view.decision!r}")
    return game


def _support_used(game, view: ChallengeView) -> list[bool]:
    """The Effect card's once-a-game ability (a support card of its side): spent when a pitch
    is revealed and its grant is not among that side's grants; unspent otherwise (the view
    does not say)."""
    used = [False, False]
    if view.thrown < 0:
        return used
    for team in (0, 1):
        k = game.support[team]
        if k >= 0 and game.supports.cards[k].role == team:
            used[team] = not any(g.source == "support" for g in view.grants[team])
    return used


# -- the campaign -----------------------------------------------------------------------------------
def _campaign(view: ChallengeView, rng: random.Random, setup: dict[str, Any], game) -> solo.Campaign:
    results = list(view.results)
    swept = len(results) == solo.GAMES and all(results)
    earned = view.mp - (solo.SWEEP_MP if swept else 0)
    points = [earned] + [0] * (len(results) - 1) if results else []
    n_effects = len(view.solo.effects)
    drawn = [rng.randrange(n_effects) for _ in view.played] + [view.effect]
    return solo.Campaign(cards=setup["cards"], solo=view.solo, dice=Dice(rng.getrandbits(_SEED_BITS)),
                         level=view.level, first=setup["first_game"], faces=game.faces,
                         out_rule=view.out_rule, played=list(view.played) + [view.situation],
                         drawn=drawn, results=results, points=points, pile=list(game.pile),
                         game=game, over=view.campaign_over)
