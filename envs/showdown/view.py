"""What an MLB Showdown manager may know: everything on the table.

Showdown's basic, advanced and expert games have no hidden information but the strategy
cards: both teams' player cards are face up, and so are the score, the bases, who has used
which icon, the discard piles ("always face up") and the cards on the table. A manager's
hand is his own ("held in your hand so that your opponent can't see them"): the view
holds the observing manager's hand and only the size of the other's, and neither deck's
order. The view decodes
all of it (the observation vector is built from it), and never holds the dice to come.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..core.view import HalfInningView, build_view
from . import roster, rules
from .cards import INFIELD, OUTFIELD, HitterCard, PitcherCard, Team, fielding_at
from .state import GameState

__all__ = ["ShowdownView", "view_of"]


@dataclass(frozen=True)
class ShowdownView(HalfInningView):
    """A manager's view of an MLB Showdown game.

    ``own`` and ``opp`` index per team (0 away, 1 home) are decoded for the observing
    ``seat``. Players are roster indices into ``teams[t].players``.

    * ``seat``, ``level`` ("basic", "advanced" or "expert"), ``dh`` (the game's rules),
      ``innings`` (scheduled); ``dh_in_use``: per team, whether it still has its DH (the
      expert game loses it when the DH takes the field)
    * ``decision``, ``subject``, ``legal``: the observing manager's pending decision
      (kind, what it is about, legal actions) or None when he is not to act
    * ``inning``, ``half`` (0 top, 1 bottom), ``outs``, ``runs`` (away, home)
    * ``bases``: roster index of the runner on first, second, third (or None); the
      runners belong to the batting team ``half``
    * ``batter``, ``pitcher``: roster indices of the batter and the pitcher (-1 while the
      managers choose their starters, before the first pitch);
      ``pitchers``: each team's pitcher (the batting team's takes the mound next half)
    * ``lineups``, ``positions``: each team's batting order and where each plays
    * ``order``: each team's next batting slot
    * ``fatigue``: the pitcher's penalty on the pitch now; ``control_bonus`` the +3s
      (20 icon this pitch, RP icon this inning) in force; ``starters``: each team's
      starting pitcher (the one the starter rules protect)
    * ``innings_pitched``: innings the pitcher has pitched in; ``runs_charged`` to him;
      ``ip_bonus`` from Cy Young 1-2-3 innings; ``can_remove_starter`` per team
    * ``used``: per team, who has entered the game; ``bench`` and ``bullpen``: per team,
      who may still come in
    * ``icons_left``: per team and player, uses left of each icon (K, G, HR, V, SB, RP, S),
      as read-only mappings;
      ``twenty_used``: per team, whether the 20 icon was used this inning
    * ``pitch``, ``chart``, ``swing``, ``result``: this at-bat's pitch total (None if a
      pitcher bats), whose chart is read ("P" or "B"), the swing and its result (None
      before the swing)
    * ``outs_before``: outs when the swing was rolled (the +5 for two outs)
    * ``eligible``, ``sent``, ``thrown``: runners who may try for an extra base, those
      sent, and the one the defense throws at (-1 before it has chosen)
    * ``ibb``, ``bunt``: this at-bat is an intentional walk, a sacrifice bunt (expert)
    * ``incoming``: the defensive replacement waiting to learn whom he replaces (-1)
    * ``open_spots``: in a double switch, (player who left, batting slot) for each spot
      still to be given out (``batting_slot`` decisions)
    * strategy cards (the expert game with decks; all empty without): ``card_set`` (the
      cards' texts and effects, public; None without decks), ``card_names`` (the card
      set, in action order), ``hand`` (the observing manager's own hand: copies of
      each name), ``hand_sizes`` and ``deck_sizes`` per team, ``discards``, ``in_play``
      (cards staying in play) and ``played`` (cards played this at-bat) per team as copies
      of each name, ``window`` (the card window open: "before_pitch", "on_result",
      "after_result" or ""), ``stealers`` (runners a card sends, lead first, while the
      catcher decides)
    * ``ip_lost``: IP the pitcher has lost to runs charged (expert: one per 3 runs)
    * ``pitcher_slots``: per team, the batting slot its pitcher bats in (-1 with a DH); a
      pinch hitter or runner who took the pitcher's spot holds it until a new pitcher comes
      in, so the positions alone do not always say which spot it is
    * ``relief_streak``: in a series, per team and roster player, the games in a row he
      pitched in relief just before this one (at two, his IP starts at 0 in the expert
      game); empty in a single game
    * ``lineup_setting``: who set the starting lineups, "file" (the team files) or
      "manager" (the managers, ``lineups="manager"``); ``lineup_picks``: per team, the
      lineup picks (lineup.py: the players at C ... RF, the DH, the batting order): the
      observing manager's own always, the other's only once both lineups are set (empty
      with the files' lineups). While the lineups are set ``lineups`` and ``positions``
      are empty and ``batter`` is -1.
    * ``teams``: both teams' cards
    """

    seat: int
    level: str
    dh: bool
    innings: int
    decision: str | None
    subject: int
    legal: tuple[int, ...]
    inning: int
    half: int
    outs: int
    runs: tuple[int, int]
    bases: tuple[int | None, int | None, int | None]
    batter: int
    pitcher: int
    pitchers: tuple[int, int]
    lineups: tuple[tuple[int, ...], tuple[int, ...]]
    positions: tuple[tuple[str, ...], tuple[str, ...]]
    order: tuple[int, int]
    fatigue: int
    control_bonus: int
    innings_pitched: int
    runs_charged: int
    ip_bonus: int
    can_remove_starter: tuple[bool, bool]
    starters: tuple[int, int]
    used: tuple[tuple[bool, ...], tuple[bool, ...]]
    bench: tuple[tuple[int, ...], tuple[int, ...]]
    bullpen: tuple[tuple[int, ...], tuple[int, ...]]
    icons_left: tuple[tuple[dict, ...], tuple[dict, ...]]
    twenty_used: tuple[bool, bool]
    pitch: int | None
    chart: str | None
    swing: int | None
    result: str | None
    outs_before: int
    eligible: tuple[int, ...]
    sent: tuple[int, ...]
    thrown: int
    teams: tuple[Team, Team]
    dh_in_use: tuple[bool, bool] = (False, False)
    ibb: bool = False
    bunt: bool = False
    incoming: int = -1
    ip_lost: int = 0
    open_spots: tuple[tuple[int, int], ...] = ()
    card_set: Any = None
    card_names: tuple[str, ...] = ()
    hand: tuple[int, ...] = ()
    hand_sizes: tuple[int, int] = (0, 0)
    deck_sizes: tuple[int, int] = (0, 0)
    discards: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    in_play: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    played: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    window: str = ""
    stealers: tuple[int, ...] = ()
    pitcher_slots: tuple[int, int] = (-1, -1)
    relief_streak: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    lineup_setting: str = "file"
    lineup_picks: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())

    # -- conveniences (batting, batting_team, fielding_team: HalfInningView) ------------
    def card(self, team: int, k: int) -> HitterCard | PitcherCard:
        return self.teams[team].players[k]

    @property
    def batter_card(self) -> HitterCard | PitcherCard:
        return self.card(self.half, self.batter)

    @property
    def pitcher_card(self) -> PitcherCard | None:
        return None if self.pitcher < 0 else self.card(1 - self.half, self.pitcher)

    def fielding(self, positions: tuple[str, ...]) -> int:
        """Total Fielding of the fielding team at these positions."""
        t = 1 - self.half
        expert = self.level == "expert"
        total = 0
        for slot, pos in enumerate(self.positions[t]):
            if pos in positions:
                total += fielding_at(self.card(t, self.lineups[t][slot]), pos, expert)
        return total

    @property
    def infield(self) -> int:
        return self.fielding(INFIELD)

    @property
    def outfield(self) -> int:
        return self.fielding(OUTFIELD)

    def pitcher_advantage(self, on_base: int | None = None) -> float:
        """P(the pitcher has the advantage) on this pitch (1 when a pitcher bats)."""
        batter = self.batter_card
        if isinstance(batter, PitcherCard):
            return 1.0
        if self.pitcher < 0:
            return 0.0
        return rules.pitcher_advantage_probability(
            self.pitcher_card.control + self.control_bonus, self.fatigue,
            batter.on_base if on_base is None else on_base)

    @property
    def runner_speeds(self) -> tuple[int, int, int]:
        return tuple(0 if r is None else self.card(self.half, r).speed for r in self.bases)


_NO_ICONS = MappingProxyType({})


def _frozen_icons(per_player: list[dict]) -> tuple:
    """A read-only copy of each player's icons left (most players have none)."""
    return tuple(MappingProxyType(dict(d)) if d else _NO_ICONS for d in per_player)


def _copies(indices: list[int], k: int) -> tuple[int, ...]:
    out = [0] * k
    for i in indices:
        out[i] += 1
    return tuple(out)


def _card_fields(state: GameState, seat: int) -> dict:
    """The strategy cards a manager may see: his hand, the face-up piles, the sizes."""
    cs = state.card_set
    if cs is None:
        return {}
    k = len(cs.cards)
    return dict(card_set=cs, card_names=cs.names, hand=_copies(state.hands[seat], k),
                hand_sizes=(len(state.hands[0]), len(state.hands[1])),
                deck_sizes=(len(state.decks[0]), len(state.decks[1])),
                discards=(_copies(state.discards[0], k), _copies(state.discards[1], k)),
                in_play=(_copies(state.in_play[0], k), _copies(state.in_play[1], k)),
                played=(_copies(state.played[0], k), _copies(state.played[1], k)),
                window=state.window, stealers=state.ab.stealers)


def _lineup_picks(state: GameState, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Own lineup picks; the other manager's once both lineups are set (Advanced Game Setup
    5, "Tell your opponent what your starting lineup is": not before)."""
    picks = state.lineup_picks
    if not (picks[0] or picks[1]):
        return ((), ())
    hidden = state.step == "set_lineups"
    return tuple(tuple(picks[t]) if t == seat or not hidden else () for t in (0, 1))


def view_of(state: GameState, seat: int) -> ShowdownView:
    b = state.board
    pending = state.pending
    mine = pending is not None and pending.actor == seat and not b.over
    ft = 1 - b.half
    p = state.pitcher[ft]
    ab = state.ab
    started = p >= 0            # before Basic Setup 6 no pitcher is on the mound yet
    bonus = rules.effective_control(state, ft, p) - state.card(ft, p).control if started else 0
    return build_view(ShowdownView, dict(
        seat=seat, level=state.level, dh=state.dh, innings=b.innings,
        decision=pending.kind if mine else None, subject=pending.subject if mine else -1,
        legal=pending.legal if mine else (),
        inning=b.inning, half=b.half, outs=b.outs, runs=(b.runs[0], b.runs[1]),
        bases=b.bases, batter=state.batter_index if state.lineup[b.half] else -1, pitcher=p,
        pitchers=(state.pitcher[0], state.pitcher[1]),
        lineups=(tuple(state.lineup[0]), tuple(state.lineup[1])),
        positions=(tuple(state.pos[0]), tuple(state.pos[1])),
        order=(state.order[0], state.order[1]),
        fatigue=rules.fatigue(state, ft, p) if started else 0, control_bonus=bonus,
        innings_pitched=len(state.innings_pitched[ft][p]) if started else 0,
        runs_charged=state.runs_charged[ft][p] if started else 0,
        ip_bonus=state.ip_bonus[ft][p] if started else 0,
        can_remove_starter=(roster.can_remove_starter(state, 0),
                            roster.can_remove_starter(state, 1)),
        starters=(state.starter[0], state.starter[1]),
        used=(tuple(state.used[0]), tuple(state.used[1])),
        bench=(tuple(roster.bench(state, 0)), tuple(roster.bench(state, 1))),
        bullpen=(tuple(roster.bullpen(state, 0)), tuple(roster.bullpen(state, 1))),
        icons_left=(_frozen_icons(state.icons_left[0]), _frozen_icons(state.icons_left[1])),
        twenty_used=(state.twenty_inning[0] == b.inning, state.twenty_inning[1] == b.inning),
        pitch=ab.pitch, chart=ab.chart, swing=ab.swing, result=ab.result,
        outs_before=b.outs if ab.outs_before is None else ab.outs_before,
        eligible=ab.eligible, sent=ab.sent, thrown=ab.thrown,
        teams=state.teams,
        dh_in_use=(state.pitcher_slot[0] < 0, state.pitcher_slot[1] < 0),
        ibb=ab.ibb, bunt=ab.bunt, incoming=ab.incoming,
        open_spots=tuple(zip(ab.sub_old[ab.slots_placed:], ab.sub_slots[ab.slots_placed:])),
        **_card_fields(state, seat),
        pitcher_slots=(state.pitcher_slot[0], state.pitcher_slot[1]),
        relief_streak=(tuple(state.relief_streak[0]), tuple(state.relief_streak[1])),
        lineup_setting=state.lineup_setting, lineup_picks=_lineup_picks(state, seat),
        ip_lost=(state.runs_charged[ft][p] // 3 if started and state.level == "expert" else 0)))
