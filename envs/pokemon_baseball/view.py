"""What a Pokemon Baseball manager knows, as a structured, read-only view.

Pokemon Baseball has no hidden cards: both rosters, their stats, who is resting and
who is hurt are public. The one secret is the lineup card before the first pitch: while
the lineups are being set, a manager sees only his own (the opponent's ``field`` and
``lineup`` are all -1 until play begins, so the home manager never sees the away
lineup before setting his). The view never holds the dice.

What the view holds beyond the plain board is decided by one small function per rule
(:func:`decision_shown`, :func:`places_shown`, :func:`bases_shown`,
:func:`fielder_shown`). :func:`make_view` builds the view with them; the env's observation
is ``dugout.envs.pokemon_baseball.env.encode_view`` of the view, which ``observe()``
computes without building the view by reading the state through the same functions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.decisions import Decision
from ..core.view import HalfInningView
from .cards import USED_TWICE_DEFAULT, max_roster, readings
from .rules import MAX_ROSTER, GameState, effective_hp, may_come_in

__all__ = ["PokemonBaseballView", "make_view", "option_pairs", "decision_shown", "places_shown",
           "bases_shown", "fielder_shown", "Stats"]

#: (hp, level, attack, retreat) of a roster creature
Stats = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class PokemonBaseballView(HalfInningView):
    """One manager's view of a Pokemon Baseball game. Team-indexed fields are
    ``(away, home)``; creatures are roster indices of their team.

    Attributes:
        seat: 0 for the away manager, 1 for the home manager.
        decision, subject, legal, options: this manager's pending decision (kind, its
            subject, the legal actions, ``(action, label)`` pairs), or None / -1 / ().
            ``subject`` is the position (1-9, 10 = DH) of a "lineup" decision, the
            batting slot (0-8) of a "batting_order" one, the creature leaving the game in
            "substitute" and "replace_injured", the base (2 = third) of a "tag_up".
        pending, pending_subject: the pending decision's kind and subject, whoever makes it.
        inning, half, innings, outs, score, over: the situation.
        runners: the batting team's creature on first, second, third, or -1.
        order: each team's batting slot at the plate or due up (0-8).
        started: whether the lineups are set and play has begun.
        dh: whether the designated-hitter rule is on.
        stats: each team's roster as (hp, level, attack, retreat) per creature.
        hp: each creature's HP now (after injuries in this game).
        status: 0 on the bench, 1 in the game, 2 gone (left the game), per creature.
        resting: games each creature sits out, this one included (pitcher rest and injuries
            from earlier games of a series); a resting creature cannot play.
        injured: games to sit out after this game for an injury suffered in it.
        innings_pitched: innings pitched in this game per creature, as the rest rule
            counts them (the env's ``rest_by``).
        starters: each team's starting pitcher (who rests at least one game), -1 before
            play begins.
        field: each team's creature at positions 1-9 and DH (index 9), or -1; the
            opponent's is all -1 until ``started``.
        lineup: each team's nine batters in order (-1 where not set; the opponent's all
            -1 until ``started``).
        tried_steal: whether the runner on first, second, third already tried to steal
            during this plate appearance.
        fielder: the position (1-9) the batter's ball went to in this plate appearance
            (whose retreat a tag-up runs against), 0 before the roll or when none.
        forfeited: the team that could not field nine and lost, or -1.
        edge: how a stat exactly on an open chart heading reads ("ge" or "gt").
        games_left: games still to play after this one in a series (0 in a single game, and
            in the last game of a series that far): what rest for the next game is worth.
        bench: how "17 Pokemon can be on the bench in one game" reads (RULES.md P-1):
            "roster" (the whole game roster) or "reserves" (17 beside the starters).
        used_twice: how "The same monster cannot be used twice" reads (P-2): "roster",
            "reentry", "teams" joined by "+"; without "reentry" a creature who left the game
            may come back (:meth:`available`).
        roster_width: the roster rows the actions and the observation name (17, or the
            starters and 17 with ``bench="reserves"``).
    """
    seat: int
    decision: str | None
    subject: int
    legal: tuple[int, ...]
    options: tuple[tuple[int, str], ...]
    pending: str | None
    pending_subject: int
    inning: int
    half: int
    innings: int
    outs: int
    score: tuple[int, int]
    over: bool
    runners: tuple[int, int, int]
    order: tuple[int, int]
    started: bool
    dh: bool
    stats: tuple[tuple[Stats, ...], tuple[Stats, ...]]
    hp: tuple[tuple[int, ...], tuple[int, ...]]
    status: tuple[tuple[int, ...], tuple[int, ...]]
    resting: tuple[tuple[int, ...], tuple[int, ...]]
    injured: tuple[tuple[int, ...], tuple[int, ...]]
    innings_pitched: tuple[tuple[int, ...], tuple[int, ...]]
    starters: tuple[int, int]
    field: tuple[tuple[int, ...], tuple[int, ...]]
    lineup: tuple[tuple[int, ...], tuple[int, ...]]
    tried_steal: tuple[bool, bool, bool]
    fielder: int = 0
    forfeited: int = -1
    edge: str = "ge"
    games_left: int = 0
    bench: str = "roster"
    used_twice: str = USED_TWICE_DEFAULT
    roster_width: int = MAX_ROSTER

    # -- what managers ask first (batting, batting_seat: HalfInningView) -------------------
    @property
    def bases(self) -> tuple[bool, bool, bool]:
        return tuple(r >= 0 for r in self.runners)

    @property
    def lead(self) -> int:
        """The batting team's runs minus the fielding team's."""
        return self.score[self.half] - self.score[1 - self.half]

    @property
    def batter(self) -> int:
        """The batting team's creature at the plate (-1 before play begins)."""
        return self.lineup[self.half][self.order[self.half]] if self.started else -1

    def at(self, team: int, position: int) -> int:
        """The creature at ``position`` (1-9, 10 = DH) of ``team``, or -1."""
        return self.field[team][position - 1]

    def pitcher(self, team: int) -> int:
        return self.field[team][0]

    @property
    def reentry(self) -> bool:
        """Whether a creature who left the game may come back (``used_twice``, P-2)."""
        return "reentry" not in readings(self.used_twice)

    def available(self, team: int) -> tuple[int, ...]:
        """Creatures of ``team`` who may come in: on the bench and not resting (with re-entry
        allowed, also those gone from the game and not hurt in it): the engine's rule,
        :func:`~.rules.may_come_in`."""
        return tuple(may_come_in(self.status[team], self.resting[team], self.injured[team],
                                 self.reentry))


# -- what a manager is shown -----------------------------------------------------------------
# One function per rule of what the view holds beyond the plain board: make_view builds the
# view with them, and the env's observe() (dugout.envs.pokemon_baseball.env) reads the state
# through the same functions to encode what encode_view makes of the view.
HIDDEN_FIELD, HIDDEN_LINEUP = (-1,) * 10, (-1,) * 9


def decision_shown(state: GameState, seat: int) -> Decision | None:
    """The pending decision if ``seat`` is to make it (None once the game is over)."""
    d = state.pending
    return d if d is not None and d.actor == seat and not state.board.over else None


def places_shown(state: GameState, seat: int, team: int) -> tuple:
    """``team``'s positions and batting order as ``seat`` sees them (the state's lists, not
    copied): the opponent's are hidden (all -1) until both lineups are set."""
    if team == seat or state.started:
        return state.fielders[team], state.lineup[team]
    return HIDDEN_FIELD, HIDDEN_LINEUP


def bases_shown(state: GameState) -> tuple[tuple[int, int, int], tuple[bool, bool, bool]]:
    """The batting team's creature on first, second, third (-1 for an empty base) and
    whether each already tried to steal during this plate appearance."""
    first, second, third = state.board.bases
    tried = state.tried_steal
    return ((-1 if first is None else first, -1 if second is None else second,
             -1 if third is None else third),
            (first is not None and first in tried, second is not None and second in tried,
             third is not None and third in tried))


def fielder_shown(state: GameState) -> int:
    """The position (1-9) the batter's ball went to, from the roll to the next batter (what a
    tag-up runs against), 0 otherwise."""
    return state.fielder if state.step == "end_pa" else 0


def make_view(state: GameState, seat: int, labels: dict[int, str] | None = None,
              stats: tuple | None = None, games_left: int = 0,
              options: tuple | None = None) -> PokemonBaseballView:
    """The view of ``state`` for ``seat``; ``labels`` names the pending decision's options
    (or ``options`` gives them made already: :func:`option_pairs`), ``stats`` (if given) are
    the rosters' stats of ``state.teams``, ``games_left`` the games of a series still to come
    after this one."""
    b = state.board
    d = state.pending
    mine = decision_shown(state, seat)
    if stats is None:
        stats = roster_stats(state.teams)
    if mine is not None and options is None:
        options = option_pairs(mine.legal, labels)
    places = places_shown(state, seat, 0), places_shown(state, seat, 1)
    runners, tried = bases_shown(state)
    status, resting, injured, pitched = (state.status, state.resting, state.injured,
                                         state.innings_pitched)
    return PokemonBaseballView(
        seat=seat,
        decision=None if mine is None else mine.kind,
        subject=-1 if mine is None else mine.subject,
        legal=() if mine is None else mine.legal,
        options=() if mine is None else options,
        pending=None if d is None else d.kind,
        pending_subject=-1 if d is None else d.subject,
        inning=b.inning, half=b.half, innings=b.innings, outs=b.outs,
        score=(b.runs[0], b.runs[1]), over=b.over,
        runners=runners,
        order=(state.order[0], state.order[1]),
        started=state.started, dh=state.dh,
        stats=stats,
        hp=(hp_now(stats[0], state.hp_loss[0]), hp_now(stats[1], state.hp_loss[1])),
        status=(tuple(status[0]), tuple(status[1])),
        resting=(tuple(resting[0]), tuple(resting[1])),
        injured=(tuple(injured[0]), tuple(injured[1])),
        innings_pitched=(tuple(pitched[0]), tuple(pitched[1])),
        starters=(state.starter[0], state.starter[1]),
        field=(tuple(places[0][0]), tuple(places[1][0])),
        lineup=(tuple(places[0][1]), tuple(places[1][1])),
        tried_steal=tried,
        fielder=fielder_shown(state),
        forfeited=state.forfeited,
        edge=state.edge,
        games_left=games_left,
        bench=state.bench,
        used_twice=state.used_twice,
        roster_width=max_roster(state.bench, state.dh),
    )


def option_pairs(legal: tuple[int, ...], labels: dict[int, str] | None) -> tuple:
    """The view's ``options``: ``(action, label)`` for each legal action, in order ("" where
    ``labels`` has none)."""
    labels = labels or {}
    return tuple((a, labels.get(a, "")) for a in legal)


def hp_now(stats: tuple, loss: list[int]) -> tuple[int, ...]:
    """Each creature's HP now (``rules.effective_hp``), from his stats and this game's losses."""
    if not any(loss):
        return full_hp(stats)
    return tuple(effective_hp(s[0], x) for s, x in zip(stats, loss))


_FULL_HP: dict[int, tuple[tuple, tuple[int, ...]]] = {}


def full_hp(stats: tuple) -> tuple[int, ...]:
    """The roster's HP at full strength (the same tuple for the same ``stats`` object)."""
    cached = _FULL_HP.get(id(stats))
    if cached is None or cached[0] is not stats:
        cached = _FULL_HP[id(stats)] = (stats, tuple(s[0] for s in stats))
        if len(_FULL_HP) > 256:
            _FULL_HP.pop(next(iter(_FULL_HP)))
    return cached[1]


def roster_stats(teams) -> tuple:
    return tuple(tuple((c.hp, c.level, c.attack, c.retreat) for c in t.roster) for t in teams)
