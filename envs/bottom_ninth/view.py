"""What one manager may know in Bottom of the 9th: :class:`BottomNinthView`.

Everything on the table is public: the count, outs, runners, the Fatigue Track, the cards
in play, the tokens, the grants and the dice once rolled. The one secret is the pitch the
pitcher commits in the Stare-Down: until the reveal (right after the batter's guess) it is
in the pitcher's own view (``committed``) and nowhere else.

``view_of(state, seat)`` builds the view from the engine state; the env's observation is
the view's encoding (``encode_view``), so it cannot hold more than the view does. The env
reads it off the state without building the view (``env.encode_state``);
tests/test_bottom_ninth_observation.py checks the two agree byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..core.view import LabelledView, build_view
from .cards import ace_pitch
from .game import bullpen
from .rules import ABILITY_ACTIONS, GameState, option_labels, substitute

__all__ = ["BottomNinthView", "view_of"]


@dataclass(frozen=True)
class BottomNinthView(LabelledView):
    """One manager's knowledge of the game.

    * ``seat``: 0 for away (the pitcher's manager), 1 for home (the batter's manager).
    * ``batting``: True for home (the batting side).
    * ``decision``: the pending decision's kind when this manager is to act, else None.
    * ``legal``: the legal actions when this manager is to act, else ``()``.
    * ``labels``: one label per legal action, in the same order.
    * ``inning``, ``half``: the half inning played (the bottom of ``innings``).
    * ``outs``: outs so far, 0-2 (0 after the third out ends the game).
    * ``runs``: (away, home) runs.
    * ``runners``: (first, second, third): True where a runner stands.
    * ``balls``, ``strikes``: the count (0-3, 0-2).
    * ``fatigue``: rows of the direction and location tokens (0 = the top).
    * ``fatigue_rows``: rows on the track; the bottom row (``fatigue_rows - 1``) exhausts.
    * ``ceiling``: the highest row relief may reach (0 for the starter, 1 for a reliever).
    * ``ace``: the pitcher on the mound's Ace Pitch (0-3: HI, HA, LI, LA), -1 before play.
    * ``committed``: the pitch this manager committed and has not yet revealed (the
      pitcher only, between his ``pitch`` and the batter's ``guess``), else -1.
    * ``thrown``, ``guess``: the revealed pitch and guess of this pitch (-1 before the reveal).
    * ``tokens``: the seat holding the direction token and the location token (-1 before).
    * ``abilities``: for each ability action (9-18), True where its side may use it now.
    * ``grant_uses``: uses left of the grants won this pitch, (pitcher, batter).
    * ``grants``: the grants themselves, (pitcher's, batter's), each a tuple of
      :class:`~dugout.envs.bottom_ninth.state.Grant` in the order won (empty before the reveal).
    * ``face``, ``face_natural``: the Pitch die shown and as rolled ("" before the roll).
    * ``control``, ``control_natural``, ``swing``, ``swing_natural``: the dice shown and as
      rolled (0 before the roll).
    * ``pitcher_card``, ``batter_card``: card indices of the pitcher on the mound and the
      batter at the plate (-1 during set-up).
    * ``batter_slot``: the batter's place in the lineup (0-5); ``pa``: plate appearances
      so far this half inning.
    * ``substitute``: True while away's substitute may still come in.
    * ``own_cards``, ``opp_cards``: card indices on this manager's team and the other's
      (drafted, or the lineup / the two pitchers); ``removed``: pitchers taken out.
    * ``staff``: the duel's away pitchers, (starter, substitute), once chosen (the longer
      game: empty; see ``bullpens``).
    * ``extra_innings``: the duel plays the tenth inning after a tied ninth (option
      ``extra_innings``); then ``home_staff`` is home's (starter, substitute), ``lineups[0]``
      away's batting order, ``orders`` both teams' slots due, ``mound`` each team's pitcher
      (-1 for home's before the tenth) and ``ceilings`` the reset row of each team's pitcher
      last off the mound.
    * ``condition``: the duel's Condition Card (option ``condition``), an index of the
      built-in solo set's Effect cards, -1 none; ``cards`` is then the game's card set, its
      traits written on.
    * ``n_cards``: cards in the set.
    * ``last``: the last pitch in words ("" before the first).
    * ``over``: True once the game has ended.

    The longer game (``mode="game"``) reads the fields above by the role each team plays
    in the half inning: ``batting`` is True while this manager's team bats (he makes the
    batter's decisions), else he makes the pitcher's; ``committed`` is shown to the
    fielding team's manager only; ``tokens`` name seats (0 away, 1 home);
    ``pitcher_card``/``fatigue``/``ceiling``/``substitute`` are the fielding team's pitcher's;
    ``batter_slot`` is the batting team's slot (0-8); ``pa`` counts this half inning. Added:

    * ``mode``: "duel" or "game"; ``innings``: the scheduled innings (the duel: its inning).
    * ``lineups``: (away, home) card indices in batting order (the game: 9 slots, one the
      team's current pitcher; the duel: away's is empty).
    * ``pitcher_slots``: (away, home) the slot each team's pitcher bats in (-1 in the duel).
    * ``orders``: (away, home) the slot due up next (or at the plate) for each team.
    * ``benches``: (away, home) bench batters (pinch hitters) still available.
    * ``bullpens``: (away, home) pitchers who may still come in.
    * ``mound``: (away, home) each team's current pitcher (-1 before play; the duel: away's only).
    * ``runs_allowed``: (away, home) runs each team's current pitcher has allowed this game.
    * ``relievers_used``: (away, home) relievers each team has brought in.
    * ``ceilings``: (away, home) each current pitcher's reset row (0 top, 1 a rule-following reliever).
    * ``support``: (away, home) support card index (-1 none; the same card for both when
      it is shared); ``support_used``: (away, home). The duel too, with ``support``.
    * ``support_names``: the support cards' names (index order; empty without support).
    * ``fatigue_left``: inning-start fatigue points still to place (``fatigue_split``).
    * ``sub_card``: the substitute chosen and awaiting a slot (-1 none); ``sub_slot``: the
      slot chosen in a double switch (-1 none).

    The public rules of the table (every card's data is public): ``cards``, the card set
    (a :class:`~dugout.envs.bottom_ninth.cards.CardSet`: what each card index is);
    ``pitch_faces``, the Pitch die's faces as ``(face, count)`` pairs; ``out_rule``.
    """
    outs: int
    runs: tuple[int, int]
    runners: tuple[bool, bool, bool]
    balls: int
    strikes: int
    fatigue: tuple[int, int]
    fatigue_rows: int
    ceiling: int
    ace: int
    committed: int
    thrown: int
    guess: int
    tokens: tuple[int, int]
    abilities: tuple[bool, ...]
    grant_uses: tuple[int, int]
    face: str
    face_natural: str
    control: int
    control_natural: int
    swing: int
    swing_natural: int
    pitcher_card: int
    batter_card: int
    batter_slot: int
    pa: int
    substitute: bool
    own_cards: tuple[int, ...]
    opp_cards: tuple[int, ...]
    removed: tuple[int, ...]
    n_cards: int
    last: str
    over: bool
    mode: str = "duel"
    innings: int = 9
    lineups: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    pitcher_slots: tuple[int, int] = (-1, -1)
    orders: tuple[int, int] = (0, 0)
    benches: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    bullpens: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    mound: tuple[int, int] = (-1, -1)
    runs_allowed: tuple[int, int] = (0, 0)
    relievers_used: tuple[int, int] = (0, 0)
    ceilings: tuple[int, int] = (0, 0)
    support: tuple[int, int] = (-1, -1)
    support_used: tuple[bool, bool] = (False, False)
    support_names: tuple[str, ...] = ()
    fatigue_left: int = 0
    sub_card: int = -1
    sub_slot: int = -1
    cards: Any = None
    pitch_faces: tuple[tuple[str, int], ...] = (("B", 3), ("S", 2), ("C", 1))
    out_rule: str = "lead_runner"
    grants: tuple[tuple[Any, ...], tuple[Any, ...]] = ((), ())
    staff: tuple[int, ...] = ()
    home_staff: tuple[int, ...] = ()
    extra_innings: bool = False
    condition: int = -1


def held_cards(state: GameState, seat: int) -> tuple[list[int], ...]:
    """The lists of card indices that make up ``seat``'s team: the longer game's drafted
    cards, lineup, bench and staff (a card may be in more than one), the duel's drafted
    cards, or its lineup (home) / its two pitchers (away). They are the state's own lists:
    read them, never change them."""
    if state.mode == "game":
        return (state.drafted[seat], state.lineups[seat], state.benches[seat], state.staffs[seat])
    if state.draft:
        return (state.drafted[seat],)
    if state.extra_innings:
        return (state.lineup, state.staffs[1]) if seat == 1 else (state.staff, state.lineups[0])
    return (state.lineup,) if seat == 1 else (state.staff,)


def team_cards(state: GameState, seat: int) -> tuple[int, ...]:
    """The card indices on ``seat``'s team (:func:`held_cards`): the longer game's in index
    order, the duel's in the order of their list."""
    held = held_cards(state, seat)
    if state.mode == "game":
        return tuple(sorted(set().union(*held)))
    return tuple(c for cards in held for c in cards)


_ABILITY_KINDS = ("pitcher_ability", "batter_ability")


def _view(**fields: Any) -> BottomNinthView:
    """A view from its fields (:func:`~dugout.envs.core.view.build_view`: without the frozen
    dataclass's per-field ``__setattr__``; the view is built at every observation)."""
    return build_view(BottomNinthView, fields)


@lru_cache(maxsize=64)
def _face_counts(faces: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """The die's faces as (face, count) pairs, in B, S, C order."""
    return tuple((f, faces.count(f)) for f in ("B", "S", "C") if f in faces)


def usable_now(state: GameState) -> frozenset[int] | tuple:
    """The ability actions usable now (either side's): the engine's mask at an ability
    decision (the usable abilities, and done), else none."""
    d = state.pending
    if d is not None and not state.board.over and d.kind in _ABILITY_KINDS:
        return frozenset(d.legal)
    return ()


def relief_ready(state: GameState) -> bool:
    """Whether the fielding team may still bring in a pitcher (the duel: away's substitute;
    the longer game: its bullpen), once play has begun."""
    if state.pitcher < 0:
        return False
    if state.mode == "game":
        return bool(bullpen(state, state.board.fielding))
    return substitute(state) >= 0


def view_of(state: GameState, seat: int) -> BottomNinthView:
    """What the manager in ``seat`` may know of ``state``."""
    b = state.board
    d = state.pending
    if d is not None and d.actor == seat and not b.over:
        decision, legal = d.kind, d.legal
        labels = option_labels(state, d)
        label_list = tuple(labels[a] for a in legal)
    else:
        decision, legal, label_list = None, (), ()
    playing = state.pitcher >= 0
    usable = usable_now(state)
    game = state.mode == "game"
    pair = lambda f: (f(0), f(1))                                    # noqa: E731
    if game:                    # (the pairs written out: a view is built at every rollout step)
        pens = (tuple(bullpen(state, 0)), tuple(bullpen(state, 1))) if playing else ((), ())
        extra = dict(
            mode="game", innings=b.innings,
            lineups=(tuple(state.lineups[0]), tuple(state.lineups[1])),
            pitcher_slots=(state.pslot[0], state.pslot[1]) if playing else (-1, -1),
            orders=(state.order[0], state.order[1]),
            benches=(tuple(state.benches[0]), tuple(state.benches[1])),
            bullpens=pens,
            mound=(state.mound[0], state.mound[1]) if playing else (-1, -1),
            runs_allowed=(state.allowed[0], state.allowed[1]),
            relievers_used=(state.relievers[0], state.relievers[1]),
            ceilings=(state.ceilings[0], state.ceilings[1]),
            support=(state.support[0], state.support[1]),
            support_used=(state.support_used[0], state.support_used[1]),
            support_names=tuple(c.name for c in state.supports.cards) if state.supports else (),
            fatigue_left=state.fatigue_left, sub_card=state.sub_card, sub_slot=state.sub_slot)
    elif state.extra_innings:
        on = lambda t: (state.pitcher if b.fielding == t else state.mound[t]) if playing else -1  # noqa: E731
        extra = dict(mode="duel", innings=b.innings, lineups=(tuple(state.lineups[0]), tuple(state.lineup)),
                     orders=(state.order[0], state.order[1]), mound=(on(0), on(1)),
                     ceilings=pair(lambda t: state.ceilings[t]), staff=tuple(state.staff),
                     home_staff=tuple(state.staffs[1]), extra_innings=True)
    else:
        extra = dict(mode="duel", innings=b.innings, lineups=((), tuple(state.lineup)),
                     orders=(state.order[0], state.order[1]),
                     mound=(state.pitcher if playing else -1, -1), staff=tuple(state.staff))
    if state.condition >= 0:
        extra["condition"] = state.condition
    if state.mode == "duel" and state.use_support:          # the duel's support cards
        extra.update(support=pair(lambda t: state.support[t]),
                     support_used=pair(lambda t: state.support_used[t]),
                     support_names=tuple(c.name for c in state.supports.cards))
    fielding = b.fielding
    return _view(
        **extra, cards=state.cards, pitch_faces=_face_counts(state.faces), out_rule=state.out_rule,
        seat=seat, batting=seat == b.batting, decision=decision, legal=legal, labels=label_list,
        inning=b.inning, half=b.half, outs=b.outs, runs=(b.runs[0], b.runs[1]),
        runners=(b.bases[0] is not None, b.bases[1] is not None, b.bases[2] is not None),
        balls=state.balls, strikes=state.strikes,
        fatigue=(state.fatigue[0], state.fatigue[1]), fatigue_rows=state.fatigue_rows,
        ceiling=state.ceiling,
        ace=ace_pitch(state.cards.card(state.pitcher)) if playing else -1,
        committed=state.secret if seat == fielding else -1,
        thrown=state.thrown, guess=state.guess,
        tokens=tuple(-1 if r < 0 else state.seat_of(r) for r in state.tokens),
        abilities=tuple(a in usable for a in ABILITY_ACTIONS),
        grant_uses=(sum(g.left for g in state.grants[0]), sum(g.left for g in state.grants[1])),
        grants=(tuple(state.grants[0]), tuple(state.grants[1])),
        face=state.face, face_natural=state.face_natural,
        control=state.control, control_natural=state.control_natural,
        swing=state.swing, swing_natural=state.swing_natural,
        pitcher_card=state.pitcher if playing else -1,
        batter_card=state.batter_card if playing else -1,
        batter_slot=state.order[b.batting], pa=state.pa,
        substitute=bool(pens[fielding]) if game else relief_ready(state),
        own_cards=team_cards(state, seat), opp_cards=team_cards(state, 1 - seat),
        removed=tuple(state.removed), n_cards=len(state.cards.cards),
        last=state.last, over=b.over)
