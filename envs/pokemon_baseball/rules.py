"""The Pokemon Baseball engine (Rule 2.3E): dice charts over the creatures' four stats.

The engine rolls every die and makes every forced play itself, and stops only where a
manager has a choice. A game runs::

    before the first pitch  (each team in turn, away first)
      "lineup"          a creature for each position, pitcher first (the starting pitcher)
      "batting_order"   the batting order of the nine who bat
    before each batter
      "replace_injured" forced: a bench creature for a creature injured on the last play
      "offense_sub"     batting side: pinch hitter, pinch runner, or play on  -> "substitute"
      "defense_sub"     fielding side: replace a fielder (the pitcher: a pitching change)
                                                                              -> "substitute"
      "steal"           batting side, repeated: a runner on first or second tries for the next base
      "bunt"            batting side, with a runner on first or second and third base empty
    the pitcher's die and the batter's two dice on the batting chart          (automatic)
      "tag_up"          batting side: the runner on third after an outfield fly out

It is a plain state machine: ``GameState.step`` names the next rule, ``run`` applies
rules until a manager must decide or the game is over. What carries from one game to the
next of a series (pitcher rest, injuries) is ``GameState.resting`` going in and
:func:`games_to_rest` coming out. Every reading of an unclear passage is in RULES.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..core.bases import (EMPTY_BASES, advance_all, advance_runner, force_advance,
                          remove_runner)
from ..core.decisions import Decision
from ..core.errors import DataError
from ..core.dice import DICE, Dice, ScriptedDice
from ..core.engine import apply_choice, legal_actions, run_rules, set_situation
from ..core.scoreboard import Scoreboard, ScoreboardGame
from ..core import scorebook as sb
from ..core.scorebook import BoxScore, Outcome, PLAY_LOG, PlayLog, log_play, outcome_codec
from ..core.state import (SavedAs, SaveError, check_choice, check_index, check_indexes,
                          check_int, check_ints, check_len, decode_as, saved_keys)
from . import charts as ch
from .cards import (BENCH_READINGS, POSITIONS, SAVED_TEAMS, USED_TWICE_DEFAULT, Team,
                    check_teams_apart, check_used_twice, load_team, max_roster, readings)

__all__ = [
    "GameState", "new_game", "apply_action", "legal_actions", "games_to_rest", "ACTIONS",
    "N_ACTIONS", "DECISION_KINDS", "PASS", "YES", "RUNNER", "PINCH_HIT", "POSITION", "CREATURE",
    "MAX_ROSTER", "OUTCOMES", "DH", "BENCH", "PLAYING", "GONE", "FORFEIT_SCORE",
    "effective_hp", "rest_for_innings", "REST_BY", "start_half_inning", "action_labels",
    "may_come_in",
]

# -- actions: one Discrete space for every decision --------------------------------------------
#: the roster rows the actions name (creatures 0-16); ``bench="reserves"`` names more
#: (:func:`~.cards.max_roster`, :func:`action_labels`)
MAX_ROSTER = 17
PASS = 0                  # no substitution / no steal / swing away / the runner holds
YES = 1                   # bunt / tag up
RUNNER = 2                # 2-4: the runner on first, second, third (steals, pinch runners)
PINCH_HIT = 5             # a pinch hitter for the batter
POSITION = 6              # 6-15: the creature at position 1-9 (P ... RF), 10 = DH, is replaced
CREATURE = 16             # 16-32: roster creature k (k = 0..16)
N_ACTIONS = CREATURE + MAX_ROSTER
DH = 10                   # the designated hitter's "position" (dh=True)
_POSITION_NAMES = POSITIONS + ("DH",)


def action_labels(width: int = MAX_ROSTER) -> tuple[str, ...]:
    """One label per action of a game whose rosters name ``width`` creatures."""
    return (("pass / no / swing away / hold", "yes: bunt / tag up")
            + tuple(f"runner on {b}" for b in ("first", "second", "third"))
            + ("pinch hitter",)
            + tuple(f"replace the {p}" for p in _POSITION_NAMES)
            + tuple(f"creature {k}" for k in range(width)))


ACTIONS = action_labels(MAX_ROSTER)
assert len(ACTIONS) == N_ACTIONS

DECISION_KINDS = ("lineup", "batting_order", "offense_sub", "defense_sub", "substitute",
                  "replace_injured", "steal", "bunt", "tag_up")
#: the kinds whose only legal choice the engine makes by itself
_PICKS = frozenset({"lineup", "batting_order", "substitute", "replace_injured"})

# a creature's place in this game
BENCH, PLAYING, GONE = 0, 1, 2
#: MLB rule 7.03: a team that cannot field nine creatures forfeits, 9-0.
FORFEIT_SCORE = 9

# -- outcomes beyond the core's ------------------------------------------------------------------
LINE_OUT = Outcome("LO", "lined out")
POP_OUT = Outcome("PO", "popped out")
SAC_BUNT = Outcome("SH", "sacrificed", at_bat=False)
FIELDERS_CHOICE = Outcome("FC", "reached on a fielder's choice")
OUTCOMES: dict[str, Outcome] = {**sb.OUTCOMES, "LO": LINE_OUT, "PO": POP_OUT, "SH": SAC_BUNT,
                                "FC": FIELDERS_CHOICE}
_HITS = {ch.SINGLE: sb.SINGLE, ch.DOUBLE: sb.DOUBLE, ch.TRIPLE: sb.TRIPLE,
         ch.HOMERUN: sb.HOME_RUN}


@dataclass
class GameState(ScoreboardGame):
    """Everything about a game in progress; plain data, cloned and saved as such.

    Creatures are roster indices (0-16) of their team; runners on the bases are the
    batting team's roster indices.
    """

    SAVED_AS = SavedAs("ruleset", "pokemon_baseball", "Pokemon Baseball game")

    teams: tuple[Team, Team] = field(metadata=SAVED_TEAMS)
    board: Scoreboard
    dice: Dice | ScriptedDice = field(metadata=DICE)
    box: BoxScore
    log: PlayLog = field(metadata=PLAY_LOG)
    order: list[int]                     # each team's batting slot at the plate or due up, 0-8
    dh: bool = False
    edge: str = "ge"
    #: games each creature must still sit out, this one included (carried in a series)
    resting: list[list[int]] = field(default_factory=lambda: [[], []])
    #: BENCH, PLAYING or GONE (left the game: no re-entry) for each creature
    status: list[list[int]] = field(default_factory=lambda: [[], []])
    #: field[team][p - 1]: the creature at position p (1 = P ... 9 = RF, 10 = DH), -1 if none
    fielders: list[list[int]] = field(default_factory=lambda: [[-1] * 10, [-1] * 10])
    #: the nine who bat, in order (creatures; -1 while the order is being set)
    lineup: list[list[int]] = field(default_factory=lambda: [[-1] * 9, [-1] * 9])
    hp_loss: list[list[int]] = field(default_factory=lambda: [[], []])
    #: games to sit out after this one for an injury suffered in it (One/Two/Three Games)
    injured: list[list[int]] = field(default_factory=lambda: [[], []])
    #: innings pitched in this game, as the rest rule counts them (``rest_by``): innings in
    #: which the creature faced a batter, or the outs he recorded / 3 (the box score's IP)
    innings_pitched: list[list[int]] = field(default_factory=lambda: [[], []])
    last_half_pitched: list[list[int]] = field(default_factory=lambda: [[], []])
    outs_pitched: list[list[int]] = field(default_factory=lambda: [[], []])
    rest_by: str = "innings"
    #: P-1: "roster" (17 is the whole game roster) or "reserves" (17 beside the starters)
    bench: str = "roster"
    #: P-2: the readings of "The same monster cannot be used twice" ("roster", "reentry",
    #: "teams", joined by "+"); without "reentry" a creature who left may come back
    used_twice: str = USED_TWICE_DEFAULT
    starter: list[int] = field(default_factory=lambda: [-1, -1])
    line_of: list[list[int]] = field(default_factory=lambda: [[], []])    # batting line per creature
    pitching_line: list[int] = field(default_factory=lambda: [-1, -1])    # the pitcher's line
    started: bool = False                # the lineups are set and play has begun
    forfeited: int = -1                  # the team that could not field nine, or -1
    setup_team: int = 0
    pa: int = 0                          # plate appearances begun in this half inning
    step: str = "setup"
    pending: Decision | None = None
    tried_steal: tuple[int, ...] = ()    # runners who tried to steal during this plate appearance
    sub_for: int = -1                    # the creature a pending "substitute" replaces
    sub_team: int = -1
    outs_before: int = 0                 # outs when the batter came up (the two-out rule)
    at_bat: int = -1                     # the creature whose plate appearance this is
    fielder: int = 0                     # the fielder (1-9) the result is hit to, 0 if none
    outcome: Outcome | None = field(default=None, metadata=outcome_codec(OUTCOMES))
    rbi: int = 0
    roll: int = 0                        # the log's roll: 10 x the batter's dice + the pitcher's die (a bunt: its dice)
    injury_check: bool = False           # the play ended in an injury roll (error chart 12)

    # -- who is where --------------------------------------------------------------------
    def creature(self, team: int, k: int):
        return self.teams[team].roster[k]

    def at(self, team: int, position: int) -> int:
        """The creature at ``position`` (1-9, 10 = DH) of ``team``, or -1."""
        return self.fielders[team][position - 1]

    def pitcher(self, team: int) -> int:
        return self.fielders[team][0]

    def batter_creature(self) -> int:
        return self.lineup[self.board.half][self.order[self.board.half]]

    def hp(self, team: int, k: int) -> int:
        return effective_hp(self.creature(team, k).hp, self.hp_loss[team][k])

    @property
    def reentry(self) -> bool:
        """Whether a creature who left the game may come back (``used_twice`` without
        "reentry", RULES.md P-2)."""
        return "reentry" not in readings(self.used_twice)

    def available(self, team: int) -> list[int]:
        """Creatures of ``team`` who may come in (:func:`may_come_in`)."""
        return list(may_come_in(self.status[team], self.resting[team], self.injured[team],
                                self.reentry))

    def has_bench(self, team: int) -> bool:
        """Whether any bench creature may come in (what a substitution offer needs)."""
        return next(may_come_in(self.status[team], self.resting[team], self.injured[team],
                                self.reentry), None) is not None


    def validate(self) -> None:
        """A loaded game is one the rules could reach (see :func:`validate_game`)."""
        validate_game(self)

    def validate_carry(self, carry: object) -> None:
        """What a series carries into this game (see :func:`validate_carry`)."""
        validate_carry(self, carry)


def may_come_in(status, resting, injured, reentry: bool):
    """The creatures (roster indices, in order) of one team's ``status``, ``resting`` and
    ``injured`` lists who may come in: not resting, never in this game; with re-entry
    (``reentry``: RULES.md P-2) not in the game now and not hurt in it. The engine's offers
    and the view's ``available`` both read it."""
    if reentry:
        return (k for k, s in enumerate(status) if s != PLAYING and not resting[k]
                and not injured[k])
    return (k for k, s in enumerate(status) if s == BENCH and not resting[k])


def effective_hp(hp: int, loss: int) -> int:
    """HP after this game's injuries: reductions stack, never below 10 (RULES.md)."""
    return max(10, hp - loss)


def rest_for_innings(innings: int, starter: bool) -> int:
    """B.1: 2+ innings pitched rest 1 game, 4+ rest 2, 6+ rest 3; a starter always rests 1."""
    games = 3 if innings >= 6 else 2 if innings >= 4 else 1 if innings >= 2 else 0
    return max(games, 1) if starter else games


def games_to_rest(state: GameState) -> list[list[int]]:
    """What a finished game leaves for the next one: the games each creature must sit out,
    counted from the next game (the longest of rest, injury and what was still owed)."""
    out = []
    for t in (0, 1):
        team = []
        for k in range(len(state.teams[t].roster)):
            owed = max(state.resting[t][k] - 1, 0)
            pitched = rest_for_innings(state.innings_pitched[t][k], state.starter[t] == k)
            team.append(max(owed, pitched, state.injured[t][k]))
        out.append(team)
    return out


#: How the rest rule counts "pitches 2 or more innings" (P-6): "innings", an inning in which
#: the creature faced a batter; "outs", the outs he recorded / 3, rounded down.
REST_BY = ("innings", "outs")


def new_game(away: Team, home: Team, dice: Dice | ScriptedDice, innings: int = 9,
             max_innings: int | None = None, dh: bool = False, edge: str = "ge",
             resting: list[list[int]] | None = None, rest_by: str = "innings",
             bench: str = "roster", used_twice: str = USED_TWICE_DEFAULT) -> GameState:
    """A game at its first decision: the away manager's starting pitcher. ``bench`` and
    ``used_twice`` are the roster rules (RULES.md, P-1 and P-2); teams that break them
    raise ``DataError``."""
    ch.check_edge(edge)
    if rest_by not in REST_BY:
        raise ValueError(f"rest_by must be one of {REST_BY}, got {rest_by!r}")
    if bench not in BENCH_READINGS:
        raise ValueError(f"bench must be one of {BENCH_READINGS}, got {bench!r}")
    used_twice = check_used_twice(used_twice)
    teams = (away, home)
    check_roster_rules(teams, bench, dh, used_twice)
    sizes = [len(t.roster) for t in teams]
    if resting is None:
        resting = [[0] * n for n in sizes]
    if [len(r) for r in resting] != sizes:
        raise ValueError(f"resting must hold one count per roster creature {sizes}, "
                         f"got {[len(r) for r in resting]}")
    board = Scoreboard(innings=innings, max_innings=max_innings)
    box = BoxScore([away.name, home.name], [[], []])
    state = GameState(teams=teams, board=board, dice=dice, box=box, log=PlayLog(),
                      order=[0, 0], dh=dh, edge=edge,
                      resting=[list(r) for r in resting],
                      status=[[BENCH] * n for n in sizes],
                      hp_loss=[[0] * n for n in sizes], injured=[[0] * n for n in sizes],
                      innings_pitched=[[0] * n for n in sizes],
                      last_half_pitched=[[-1] * n for n in sizes],
                      outs_pitched=[[0] * n for n in sizes], rest_by=rest_by,
                      bench=bench, used_twice=used_twice,
                      line_of=[[-1] * n for n in sizes])
    run(state)
    return state


def check_roster_rules(teams: tuple[Team, Team], bench: str, dh: bool, used_twice: str) -> None:
    """Both teams obey the roster rules (P-1's size, P-2's readings); ``DataError`` if not."""
    for team in teams:
        load_team(team, bench=bench, dh=dh, used_twice=used_twice)
    check_teams_apart(teams, used_twice)


def apply_action(state: GameState, action: int) -> None:
    """Apply the pending decision's choice, then play on to the next decision."""
    apply_choice(state, action, ACTIONS if state.bench == "roster" else
                 _wide_actions(max_roster(state.bench, state.dh)), CHOICES)
    run(state)


_WIDE_ACTIONS: dict[int, tuple[str, ...]] = {}


def _wide_actions(width: int) -> tuple[str, ...]:
    if width not in _WIDE_ACTIONS:
        _WIDE_ACTIONS[width] = action_labels(width)
    return _WIDE_ACTIONS[width]


def run(state: GameState) -> None:
    """Apply rules until a manager must decide or the game is over; a walk-off still rolls
    its injury and scores its plate appearance."""
    run_rules(state, RULES)
    if state.pending is None:                   # the game is over
        if state.injury_check:
            injury_roll(state)
        if state.outcome is not None:
            record_plate_appearance(state)


def ask(state: GameState, kind: str, actor: int, legal: tuple[int, ...], subject: int = -1) -> None:
    """A decision for ``actor``; a pick with one legal choice is made by the engine."""
    if kind in _PICKS and len(legal) == 1:
        CHOICES[kind](state, Decision(kind, actor, legal, subject), legal[0])
        return
    state.pending = Decision(kind, actor, legal, subject)


# ==================================================================== checking a loaded game
#: Per-creature lists of a team and the least value each holds (status: BENCH to GONE).
_PER_CREATURE = {"resting": 0, "status": BENCH, "hp_loss": 0, "injured": 0, "innings_pitched": 0,
                 "last_half_pitched": -1, "outs_pitched": 0, "line_of": -1}
#: Who decides each kind once play has begun (1 the batting side, 0 the fielding side) and
#: the step it is asked at; "replace_injured" may be either side's.
_DECIDES = {"offense_sub": (1, "offense_sub"), "defense_sub": (0, "defense_sub"),
            "steal": (1, "steal"), "bunt": (1, "bunt"), "tag_up": (1, "end_pa"),
            "replace_injured": (None, "injuries")}


def validate_game(state: GameState) -> None:
    """Check a loaded game (``GameState.from_dict``) for what its types cannot say: a
    :class:`~dugout.envs.core.state.SaveError` names the field.

    Every creature a field holds is one of its team's roster (the per-creature lists one
    entry per creature); the lineups and the field hold no creature twice; once play has
    begun each team has a full lineup of creatures in the game, every batter a batting
    line and the pitcher a pitching line, and the runners are the batting side's batters;
    the result of a plate appearance is known only while it is scored ("end_pa"); and the
    pending decision is the one the rules offer in this situation, with these legal actions
    (a game not over always waits on one)."""
    b = state.board
    check_choice(state.edge, ch.EDGES, ("edge",))
    check_choice(state.rest_by, REST_BY, ("rest_by",))
    check_choice(state.bench, BENCH_READINGS, ("bench",))
    try:
        written = check_used_twice(state.used_twice)
    except ValueError as e:
        raise SaveError(str(e), ("used_twice",)) from None
    if written != state.used_twice:
        raise SaveError(f"used_twice is written {written!r}, got {state.used_twice!r}",
                        ("used_twice",))
    try:
        check_roster_rules(state.teams, state.bench, state.dh, state.used_twice)
    except DataError as e:
        raise SaveError(str(e), ("teams",)) from None
    sizes = [len(t.roster) for t in state.teams]
    for key, least in _PER_CREATURE.items():
        lists = check_len(getattr(state, key), 2, (key,))
        for t in (0, 1):
            check_len(lists[t], sizes[t], (key, t))
            check_ints(lists[t], (key, t), least, GONE if key == "status" else None)
    for key, size in (("fielders", 10), ("lineup", 9)):
        lists = check_len(getattr(state, key), 2, (key,))
        for t in (0, 1):
            check_len(lists[t], size, (key, t))
            check_indexes(lists[t], sizes[t], (key, t), "the roster", none=-1)
            placed = [k for k in lists[t] if k >= 0]
            if len(set(placed)) != len(placed):
                raise SaveError(f"a creature is placed twice: {lists[t]}", (key, t))
    for key in ("order", "starter", "pitching_line"):
        check_len(getattr(state, key), 2, (key,))
    check_len(state.box.lines, 2, ("box", "lines"))
    for t in (0, 1):
        check_index(state.order[t], 9, ("order", t), "the batting order")
        check_index(state.starter[t], sizes[t], ("starter", t), "the roster", none=-1)
        check_index(state.pitching_line[t], len(state.box.pitching[t]), ("pitching_line", t),
                    "the pitching lines", none=-1)
        check_indexes(state.line_of[t], len(state.box.lines[t]), ("line_of", t),
                      "the batting lines", none=-1)
        if not state.dh and state.fielders[t][DH - 1] >= 0:
            raise SaveError("a game without the DH has no creature at DH", ("fielders", t, DH - 1))
    check_int(state.forfeited, ("forfeited",), -1, 1)
    check_int(state.setup_team, ("setup_team",), 0, 1)
    check_int(state.pa, ("pa",), 0)
    check_int(state.outs_before, ("outs_before",), 0, 2)
    check_int(state.fielder, ("fielder",), 0, 9)
    check_int(state.rbi, ("rbi",), 0)
    check_int(state.roll, ("roll",), 0)
    check_int(state.sub_team, ("sub_team",), -1, 1)
    check_choice(state.step, RULES, ("step",))
    _validate_log(state, sizes)
    if state.forfeited >= 0 and not b.over:
        raise SaveError("a forfeited game is over", ("forfeited",))
    if b.over:
        if state.pending is not None:
            raise SaveError("a game that is over has no pending decision", ("pending",))
        if state.outcome is not None or state.injury_check:
            raise SaveError("a game that is over has scored its last plate appearance", ("outcome",))
        return
    d = state.pending
    if d is None:
        raise SaveError("a game that is not over waits on a decision", ("pending",))
    if not state.started:
        _validate_setup(state, d, sizes)
    else:
        _validate_play(state, d, sizes)


def _validate_log(state: GameState, sizes: list[int]) -> None:
    """The play log as the play-by-play reads it: creatures of the team at bat (a
    substitution names its own team in ``detail``), a plate appearance's result and
    fielder, an injury's effect, a base."""
    for i, p in enumerate(state.log.plays):
        where = ("log", i)
        team = p.half
        if p.kind == "sub":
            parts = p.detail.split(":")
            if len(parts) != 2 or parts[0] not in ("0", "1") or not parts[1].isdigit() or \
                    int(parts[1]) >= sizes[int(parts[0])]:
                raise SaveError(f"a substitution's detail is 'team:creature', got {p.detail!r}",
                                where + (9,))
            team = int(parts[0])
        check_index(p.actor, sizes[team], where + (3,), "the roster")
        for column, group in ((6, p.before), (7, p.after), (8, p.scored)):
            check_indexes(group, sizes[p.half], where + (column,), "the roster", nulls=True)
        if p.kind == "pa":
            check_choice(p.detail, OUTCOMES, where + (9,))
            check_int(p.base, where + (4,), 0, DH)
        elif p.kind == "injury":
            if not (p.detail in ("none", "games-1", "games-2", "games-3") or (
                    p.detail.startswith("hp-") and p.detail[3:].isdigit())):
                raise SaveError(f"an injury's detail is none, hp-N or games-1 to 3, got "
                                f"{p.detail!r}", where + (9,))
        else:
            check_int(p.base, where + (4,), -1, 3)


def _validate_setup(state: GameState, d: Decision, sizes: list[int]) -> None:
    """Before the first pitch: the teams set their lineups in turn (away first), each
    position from the pitcher on, then the batting order slot by slot."""
    b = state.board
    if (b.inning, b.half, b.outs, b.bases, b.runs) != (1, 0, 0, EMPTY_BASES, [0, 0]):
        raise SaveError("before the first pitch the board is at the top of the 1st, empty",
                        ("board",))
    t = state.setup_team
    positions = lineup_positions(state)
    other = 1 - t
    if t == 1:      # the away team is done: its whole field and batting order
        done = all(state.fielders[0][p - 1] >= 0 for p in positions) and -1 not in state.lineup[0]
    else:           # the home team has not begun
        done = all(k < 0 for k in state.fielders[1]) and all(k < 0 for k in state.lineup[1])
    if not done:
        raise SaveError(f"team {other}'s lineup is {'set' if t else 'not begun'} while team {t} "
                        f"sets its own", ("lineup", other))
    placed = state.fielders[t]
    if any(s != BENCH for team in state.status for s in team):
        raise SaveError("before the first pitch every creature is on the bench", ("status",))
    if d.actor != t:
        raise SaveError(f"team {t} sets its lineup now, got a decision for {d.actor}",
                        ("pending", "actor"))
    open_positions = [p for p in positions if placed[p - 1] < 0]
    if d.kind == "lineup" and state.step == "lineup" and open_positions:
        if any(k >= 0 for k in state.lineup[t]):
            raise SaveError("the batting order is set after the field", ("lineup", t))
        taken = set(placed)
        offer = tuple(CREATURE + k for k, r in enumerate(state.resting[t])
                      if r == 0 and k not in taken)
        subject = open_positions[0]
    elif d.kind == "batting_order" and state.step == "batting_order" and not open_positions:
        order = state.lineup[t]
        batters = batters_of(state, t)
        if -1 not in order or any(k >= 0 and k not in batters for k in order):
            raise SaveError(f"the batting order holds the fielders who bat {sorted(batters)}, "
                            f"got {order}", ("lineup", t))
        offer = tuple(CREATURE + k for k in sorted(batters) if k not in order)
        subject = order.index(-1)
    else:
        raise SaveError(f"a {d.kind!r} decision at step {state.step!r} is not one of setting a "
                        f"lineup (open positions {open_positions})", ("pending", "kind"))
    if d.subject != subject or len(offer) < 2 or d.legal != offer:
        raise SaveError(f"the {d.kind!r} decision here is for {subject} among {list(offer)}, got "
                        f"{d.subject} among {list(d.legal)}", ("pending",))


def _validate_play(state: GameState, d: Decision, sizes: list[int]) -> None:
    """Once play has begun: full lineups in the game, and the pending decision."""
    b = state.board
    if state.step not in ("start_pa", "injuries", "offense_sub", "defense_sub", "steal", "bunt",
                          "at_bat", "end_pa"):
        raise SaveError(f"step {state.step!r} comes before the first pitch", ("step",))
    for t in (0, 1):
        field = [k for p, k in enumerate(state.fielders[t]) if p < 9 or state.dh]
        if -1 in field or -1 in state.lineup[t]:
            raise SaveError("once play has begun every position and batting slot is filled",
                            ("fielders" if -1 in field else "lineup", t))
        playing = {k for k, s in enumerate(state.status[t]) if s == PLAYING}
        if set(field) != playing or sorted(batters_of(state, t)) != sorted(state.lineup[t]):
            raise SaveError(f"the creatures in the game {sorted(playing)} are the fielders "
                            f"{sorted(field)}, and those who bat are in the batting order",
                            ("status", t))
        for k in state.lineup[t]:
            if state.line_of[t][k] < 0:
                raise SaveError(f"batter {k} has no batting line", ("line_of", t, k))
        if state.pitching_line[t] < 0:
            raise SaveError("the pitcher has a pitching line", ("pitching_line", t))
    for i, r in enumerate(b.bases):
        if r is not None and r not in state.lineup[b.batting]:
            raise SaveError(f"a runner is one of the batting side's batters, got {r}",
                            ("board", "bases", i))
    for i, r in enumerate(state.tried_steal):
        check_index(r, sizes[b.batting], ("tried_steal", i), "the roster")
    scoring = state.step == "end_pa"
    if (state.outcome is not None) != scoring or (state.injury_check and not scoring):
        raise SaveError(f"the batter's result is known at step 'end_pa' and only there; step "
                        f"{state.step!r} has {state.outcome and state.outcome.code!r}",
                        ("outcome",))
    if scoring and state.at_bat != state.batter_creature():
        raise SaveError(f"the plate appearance being scored is the batter's "
                        f"({state.batter_creature()}), got {state.at_bat}", ("at_bat",))
    if b.outs == 3 and not scoring:
        raise SaveError(f"three outs are made only during a plate appearance, not at step "
                        f"{state.step!r}", ("board", "outs"))
    check_choice(d.kind, list(_DECIDES) + ["substitute"], ("pending", "kind"))
    side, step = _DECIDES.get(d.kind, (None, None))
    if d.kind == "substitute":          # asked at the step of the side substituting
        t = state.sub_team
        side, step = (1, "offense_sub") if t == b.batting else (0, "defense_sub")
        old = d.subject
        if t != d.actor or old != state.sub_for or not 0 <= old < sizes[t] or \
                state.status[t][old] != PLAYING:
            raise SaveError(f"a substitution replaces a creature in the game of the team "
                            f"deciding (sub_team {t}, sub_for {state.sub_for}), got {old} for "
                            f"{d.actor}", ("pending", "subject"))
        offer, subject = tuple(CREATURE + k for k in state.available(t)), old
    elif d.kind == "replace_injured":
        offer, subject = (), -1
        for t in (b.batting, b.fielding):
            hurt = [k for k, g in enumerate(state.injured[t])
                    if g and state.status[t][k] == PLAYING and state.has_bench(t)]
            if hurt:
                offer, subject = tuple(CREATURE + j for j in state.available(t)), hurt[0]
                side = 1 if t == b.batting else 0
                break
    elif d.kind == "offense_sub":
        offer = (PASS,) + tuple(RUNNER + i for i in range(3) if b.bases[i] is not None) + (
            PINCH_HIT,) if state.has_bench(b.batting) else ()
        subject = -1
    elif d.kind == "defense_sub":
        offer = (PASS,) + tuple(POSITION + p for p in range(9)) if state.has_bench(
            b.fielding) else ()
        subject = -1
    elif d.kind == "steal":
        candidates = steal_candidates(state)
        offer = (PASS,) + tuple(RUNNER + i for i in candidates) if candidates else ()
        subject = -1
    elif d.kind == "bunt":
        offer, subject = ((PASS, YES) if bunt_legal(state) else ()), -1
    else:                                                       # tag_up
        ok = (b.bases[2] is not None and state.fielder >= 7 and b.outs < 3
              and state.outcome is sb.FLY_OUT)
        offer, subject = ((PASS, YES) if ok else ()), 2
    if side is not None and d.actor != (b.batting if side else b.fielding):
        raise SaveError(f"a {d.kind!r} decision is the {('fielding', 'batting')[side]} side's, "
                        f"got {d.actor}", ("pending", "actor"))
    if state.step != step:
        raise SaveError(f"a {d.kind!r} decision is made at step {step!r}, got {state.step!r}",
                        ("step",))
    if d.subject != subject or not offer or d.legal != offer or (
            d.kind in _PICKS and len(offer) < 2):
        raise SaveError(f"the {d.kind!r} decision here is for {subject} among "
                        f"{list(offer) or 'nothing'}, got {d.subject} among {list(d.legal)}",
                        ("pending",))


def validate_carry(state: GameState, carry: object) -> None:
    """What a series carried into this game: ``{"resting": [[games, ...], [games, ...]]}``,
    games to sit out from 0 for each creature of each team (:func:`games_to_rest`)."""
    saved_keys(carry, (), ("resting",))
    resting = decode_as(tuple[list[int], list[int]], carry["resting"], ("resting",))
    for t in (0, 1):
        check_len(resting[t], len(state.teams[t].roster), ("resting", t))
        for k, n in enumerate(resting[t]):
            check_int(n, ("resting", t, k), 0)


# ==================================================================== before the game
def lineup_positions_for(dh: bool) -> tuple[int, ...]:
    """The positions a team fills, the pitcher first: P, C, 1B ... RF, and the DH."""
    return tuple(range(1, 10)) + ((DH,) if dh else ())


def lineup_positions(state: GameState) -> tuple[int, ...]:
    return lineup_positions_for(state.dh)


def setup_game(state: GameState) -> None:
    """A team that cannot field its lineup from rested, healthy creatures forfeits."""
    need = len(lineup_positions(state))
    short = [t for t in (0, 1) if sum(r == 0 for r in state.resting[t]) < need]
    if short:
        forfeit(state, short)
        return
    state.setup_team = 0
    state.step = "lineup"


def forfeit(state: GameState, short: list[int]) -> None:
    """MLB rule 7.03: the side that cannot play loses 9-0; if neither can, no game."""
    b = state.board
    if len(short) == 2:
        b.over = b.truncated = True
        return
    loser = short[0]
    state.forfeited = loser
    b.runs[1 - loser] = FORFEIT_SCORE
    if loser == 1:
        b.line[0][0] = FORFEIT_SCORE
    else:                       # the home team's runs go in its first inning
        b.line[1].append(FORFEIT_SCORE)
    b.finish(1 - loser)


def offer_lineup(state: GameState) -> None:
    """Each position in turn, the pitcher first: a rested creature not yet placed."""
    t = state.setup_team
    placed = state.fielders[t]
    for p in lineup_positions(state):
        if placed[p - 1] < 0:
            taken = set(placed)
            legal = tuple(CREATURE + k for k, r in enumerate(state.resting[t])
                          if r == 0 and k not in taken)
            ask(state, "lineup", t, legal, subject=p)
            return
    state.step = "batting_order"


def choose_lineup(state: GameState, decision: Decision, action: int) -> None:
    state.fielders[decision.actor][decision.subject - 1] = action - CREATURE


def batters_of(state: GameState, team: int) -> list[int]:
    """The nine who bat: every fielder, or with the DH everyone placed but the pitcher."""
    placed = state.fielders[team]
    return [k for p, k in enumerate(placed) if k >= 0 and not (state.dh and p == 0)]


def offer_batting_order(state: GameState) -> None:
    t = state.setup_team
    order = state.lineup[t]
    if -1 in order:
        slot = order.index(-1)
        legal = tuple(CREATURE + k for k in sorted(batters_of(state, t)) if k not in order)
        ask(state, "batting_order", t, legal, subject=slot)
        return
    if t == 0:
        state.setup_team = 1
        state.step = "lineup"
    else:
        state.step = "play_ball"


def choose_batting_order(state: GameState, decision: Decision, action: int) -> None:
    state.lineup[decision.actor][decision.subject] = action - CREATURE


def play_ball(state: GameState) -> None:
    """Both lineups are set: everyone placed is in the game, the starters on the mound."""
    for t in (0, 1):
        for k in state.fielders[t]:
            if k >= 0:
                state.status[t][k] = PLAYING
        for k in state.lineup[t]:
            state.line_of[t][k] = state.box.add_line(t, state.creature(t, k).name)
        state.starter[t] = state.pitcher(t)
        state.pitching_line[t] = state.box.add_pitcher(t, state.creature(t, state.pitcher(t)).name)
    state.started = True
    state.step = "start_pa"


# ==================================================================== substitutions
def substitute(state: GameState, team: int, old: int, new: int) -> None:
    """``new`` takes ``old``'s batting slot, position and base; ``old`` may not come back."""
    state.status[team][old] = GONE
    state.status[team][new] = PLAYING
    placed = state.fielders[team]
    if old in placed:
        p = placed.index(old)
        placed[p] = new
        if p == 0:          # a new pitcher
            state.pitching_line[team] = state.box.add_pitcher(team, state.creature(team, new).name)
    order = state.lineup[team]
    if old in order:
        order[order.index(old)] = new
        if state.line_of[team][new] < 0:        # (a creature back in the game keeps his line)
            state.line_of[team][new] = state.box.add_line(team, state.creature(team, new).name)
    b = state.board
    if team == b.batting and old in b.bases:
        b.bases = tuple(new if r == old else r for r in b.bases)
    log_play(state, "sub", new, -1, None, b.bases, detail=f"{team}:{old}")


def offer_offense_sub(state: GameState) -> None:
    """Before a batter: a pinch hitter, or a pinch runner for any runner (P-5)."""
    b = state.board
    t = b.batting
    if state.has_bench(t):
        legal = (PASS,) + tuple(RUNNER + i for i in range(3) if b.bases[i] is not None) + (PINCH_HIT,)
        ask(state, "offense_sub", t, legal)
    else:
        state.step = "defense_sub"


def choose_offense_sub(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        state.step = "defense_sub"
        return
    b = state.board
    old = state.batter_creature() if action == PINCH_HIT else b.bases[action - RUNNER]
    offer_substitute(state, b.batting, old)


def offer_defense_sub(state: GameState) -> None:
    """Before a batter: the fielding side may replace any fielder (the pitcher: a change)."""
    t = state.board.fielding
    if state.has_bench(t):
        ask(state, "defense_sub", t, (PASS,) + tuple(POSITION + p for p in range(9)))
    else:
        state.step = "steal"


def choose_defense_sub(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        state.step = "steal"
        return
    t = decision.actor
    offer_substitute(state, t, state.at(t, action - POSITION + 1))


def offer_substitute(state: GameState, team: int, old: int) -> None:
    state.sub_for, state.sub_team = old, team
    ask(state, "substitute", team, tuple(CREATURE + k for k in state.available(team)), subject=old)


def choose_substitute(state: GameState, decision: Decision, action: int) -> None:
    substitute(state, decision.actor, decision.subject, action - CREATURE)
    state.sub_for = state.sub_team = -1
    # the same side may make another change before the batter
    state.step = "offense_sub" if decision.actor == state.board.batting else "defense_sub"


# ==================================================================== the plate appearance
def start_plate_appearance(state: GameState) -> None:
    state.dice.set_stream(state.board.half_index, state.pa)
    state.tried_steal = ()
    state.step = "injuries"


# -- steals (P-21) ------------------------------------------------------------------------------
def steal_candidates(state: GameState) -> tuple[int, ...]:
    """A runner on first or second with the next base open, once per batter."""
    bases = state.board.bases
    return tuple(i for i in (0, 1) if bases[i] is not None and bases[i + 1] is None
                 and bases[i] not in state.tried_steal)


def offer_steal(state: GameState) -> None:
    candidates = steal_candidates(state)
    if candidates:
        ask(state, "steal", state.board.batting, (PASS,) + tuple(RUNNER + i for i in candidates))
    else:
        state.step = "bunt"


def choose_steal(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        state.step = "bunt"
    else:
        attempt_steal(state, action - RUNNER)


def attempt_steal(state: GameState, base: int) -> None:
    """Steal chart: two dice in the range safe; a 12 also checks the catcher for an error,
    and on an error every runner advances one more base."""
    b = state.board
    t, f = b.batting, b.fielding
    runner = b.bases[base]
    state.tried_steal += (runner,)
    catcher, pitcher = state.creature(f, state.at(f, 2)), state.creature(f, state.pitcher(f))
    column = ch.steal_column(catcher.retreat, pitcher.retreat, base + 1)
    need = ch.steal_needs(state.creature(t, runner).retreat, column)
    before = b.bases
    roll = state.dice.roll("steal", dice=2)
    if roll < need:
        b.bases = remove_runner(before, base)
        state.box.caught_stealing(t, state.line_of[t][runner])
        log_play(state, "caught_stealing", runner, base + 1, roll, before)
        if add_outs(state, 1):
            retire_side(state)
        return
    b.bases, scored = advance_runner(before, base, 1)
    state.box.stolen_base(t, state.line_of[t][runner])
    log_play(state, "steal", runner, base + 1, roll, before)
    if roll == 12 and error_check(state, catcher.level, "steal_error") == ch.ERR:
        state.box.error(f)
        before = b.bases
        b.bases, scored = advance_all(before, 1)
        log_play(state, "steal_error", runner, -1, None, before, scored)
        score_runs(state, scored, rbi=False)


def error_check(state: GameState, level: int, purpose: str) -> str:
    """Two dice on the error chart for a fielder of ``level``; only "error" matters (P-13)."""
    return ch.ERROR[state.dice.roll(purpose, dice=2)][ch.error_column(level)]


# -- the bunt (P-18 to P-20) ------------------------------------------------------------------
def bunt_legal(state: GameState) -> bool:
    bases = state.board.bases
    return bases[2] is None and (bases[0] is not None or bases[1] is not None)


def offer_bunt(state: GameState) -> None:
    if bunt_legal(state):
        ask(state, "bunt", state.board.batting, (PASS, YES))
    else:
        state.step = "at_bat"


def choose_bunt(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        state.step = "at_bat"
    else:
        bunt(state)


def begin_batter(state: GameState) -> None:
    """The batter is at the plate: the pitcher has faced a batter in this inning (P-6)."""
    b = state.board
    f = b.fielding
    k = state.pitcher(f)
    if state.last_half_pitched[f][k] != b.half_index:
        state.last_half_pitched[f][k] = b.half_index
        if state.rest_by == "innings":
            state.innings_pitched[f][k] += 1
    state.at_bat = state.batter_creature()
    state.outs_before = b.outs
    state.outcome = None
    state.rbi = 0
    state.fielder = 0
    state.injury_check = False
    state.step = "end_pa"


def bunt(state: GameState) -> None:
    """Bunt chart: two dice by the batter's level, under the lead runner's column."""
    begin_batter(state)
    b = state.board
    lead = 1 if b.bases[1] is not None else 0
    batter = state.creature(b.batting, state.at_bat)
    roll = state.dice.roll("bunt", dice=2)
    state.roll = roll
    result = ch.BUNT[roll][ch.bunt_column(batter.level, lead)]
    before = b.bases
    if result == ch.SINGLE:
        hit(state, 1)
    elif result == ch.WALK:
        walk(state, sb.WALK)
    elif result == ch.SUCCESS:
        sacrifice(state, SAC_BUNT)
    elif result == ch.SUCCESS_ERROR:
        pitcher = state.creature(b.fielding, state.pitcher(b.fielding))
        if error_check(state, pitcher.level, "bunt_error") == ch.ERR:
            state.box.error(b.fielding)
            state.outcome = sb.REACHED_ON_ERROR
            b.bases, scored = advance_all(before, 1, state.at_bat)
            _log_batter(state, before, score_runs(state, scored, rbi=False))
        else:
            sacrifice(state, SAC_BUNT)
    elif result == ch.OUT:
        lead_runner_out(state)
    elif result == ch.DOUBLE_PLAY:
        bunt_double_play(state, lead)
    elif result == ch.STRIKEOUT:
        batter_out(state, sb.STRIKEOUT)
    else:                                       # fly out: "Batter is out (2)"
        batter_out(state, POP_OUT)


def sacrifice(state: GameState, outcome: Outcome) -> None:
    """Bunt "Success": the runners advance, the batter is out (1-4)."""
    b = state.board
    state.outcome = outcome
    before = b.bases
    if add_outs(state, 1):
        _log_batter(state, before)
        return
    b.bases, scored = advance_all(before, 1)
    _log_batter(state, before, score_runs(state, scored, rbi=False))


def lead_runner_out(state: GameState) -> None:
    """Bunt "Out": the lead runner is out (1-6), the batter is safe at first (P-19)."""
    b = state.board
    state.outcome = FIELDERS_CHOICE
    before = b.bases
    lead = 1 if before[1] is not None else 0
    retired = add_outs(state, 1)
    if not retired:
        b.bases, _ = force_advance(remove_runner(before, lead), state.at_bat)
    _log_batter(state, before)


def bunt_double_play(state: GameState, lead: int) -> None:
    """Bunt "Double Play": the lead runner and the batter are out (1-6-4); a runner behind
    the lead runner moves up on the force."""
    b = state.board
    n = min(2, 3 - b.outs)
    state.outcome = sb.DOUBLE_PLAY if n == 2 else sb.GROUND_OUT
    before = b.bases
    if not add_outs(state, n):
        left = remove_runner(before, lead)
        b.bases = (None, left[0], None) if left[0] is not None else EMPTY_BASES
    _log_batter(state, before)


# -- the batting chart --------------------------------------------------------------------
def roll_for_batter(state: GameState) -> None:
    """Basic rules: the pitcher rolls one die (the column), the batter two dice (the row)."""
    begin_batter(state)
    column = state.dice.roll("pitcher")
    row = state.dice.roll("batter", dice=2)
    state.roll = 10 * row + column
    result, fielder = ch.BATTING[row][column - 1]
    state.fielder = fielder
    RESULTS[result](state)


def result_hit_chart(state: GameState) -> None:
    """Hit: one die on the hit chart, by the batter's HP."""
    b = state.board
    hp = state.hp(b.batting, state.at_bat)
    result = ch.HIT[state.dice.roll("chart")][ch.hit_column(hp, state.edge)]
    hit(state, _HITS[result].bases)


def result_hit_liner(state: GameState) -> None:
    """Hit/Liner: one die, by the batter's HP - the pitcher's HP; "No runners advance on an Out"."""
    b = state.board
    diff = state.hp(b.batting, state.at_bat) - state.hp(b.fielding, state.pitcher(b.fielding))
    result = ch.HIT_LINER[state.dice.roll("chart")][ch.hit_liner_column(diff, state.edge)]
    if result == ch.OUT:
        batter_out(state, LINE_OUT)
    elif result == ch.SAC_FLY:
        sacrifice_fly(state)
    else:
        hit(state, _HITS[result].bases)


def result_hit_grounder(state: GameState) -> None:
    """Hit/Grounder: one die, by the pitcher's level + the fielder's level - the batter's level."""
    b = state.board
    f = b.fielding
    value = (state.creature(f, state.pitcher(f)).level + state.creature(f, state.at(f, state.fielder)).level
             - state.creature(b.batting, state.at_bat).level)
    result = ch.HIT_GROUNDER[state.dice.roll("chart")][ch.hit_grounder_column(value, state.edge)]
    if result == ch.OUT:
        infield_out(state)
    else:
        hit(state, _HITS[result].bases)


def result_strikeout_walk(state: GameState) -> None:
    """Strikeout/Walk: one die, by the batter's attack - the pitcher's attack."""
    b = state.board
    diff = (state.creature(b.batting, state.at_bat).attack
            - state.creature(b.fielding, state.pitcher(b.fielding)).attack)
    result = ch.STRIKEOUT_WALK[state.dice.roll("chart")][ch.strikeout_walk_column(diff, state.edge)]
    if result == ch.STRIKEOUT:
        batter_out(state, sb.STRIKEOUT)
    elif result == ch.WALK:
        walk(state, sb.WALK)
    else:
        wild_pitch_walk(state)


def result_homerun_double(state: GameState) -> None:
    """Special rule: one die; 10 x the die + the batter's HP > the pitcher's HP: a homerun."""
    b = state.board
    die = state.dice.roll("chart")
    homer = 10 * die + state.hp(b.batting, state.at_bat) > state.hp(b.fielding, state.pitcher(b.fielding))
    hit(state, 4 if homer else 2)


def result_error_chart(state: GameState) -> None:
    """Error: two dice on the error chart, by the fielder's level."""
    b = state.board
    f = b.fielding
    level = state.creature(f, state.at(f, state.fielder)).level
    result = ch.ERROR[state.dice.roll("error", dice=2)][ch.error_column(level)]
    if result == ch.ERR:
        reached_on_error(state)
    elif result == ch.HIT_:
        result_hit_chart(state)
    elif result == ch.OUT:
        fielded_out(state)
    else:                                           # row 12: out, then the batter is hurt
        state.injury_check = True
        fielded_out(state)


def fielded_out(state: GameState) -> None:
    """An out on the error chart: infield, the double-play rule; outfield, a fly ball."""
    if state.fielder <= 6:
        infield_out(state)
    else:
        fly_out(state)


def result_fly_out(state: GameState) -> None:
    fly_out(state)


def result_ground_out(state: GameState) -> None:
    """"On Ground Out, all runners advance one base.\""""
    b = state.board
    state.outcome = sb.GROUND_OUT
    before = b.bases
    if add_outs(state, 1):
        _log_batter(state, before)
        return
    b.bases, scored = advance_all(before, 1) if any(r is not None for r in before) else (before, [])
    _log_batter(state, before, score_runs(state, scored, rbi=True))


RESULTS: dict[str, Callable[[GameState], None]] = {
    ch.HOMERUN_DOUBLE: result_homerun_double,
    ch.ERR: result_error_chart,
    ch.HIT_LINER_: result_hit_liner,
    ch.HIT_GROUNDER_: result_hit_grounder,
    ch.HIT_: result_hit_chart,
    ch.K_OR_BB: result_strikeout_walk,
    ch.SINGLE: lambda s: hit(s, 1),
    ch.DOUBLE: lambda s: hit(s, 2),
    ch.TRIPLE: lambda s: hit(s, 3),
    ch.HOMERUN: lambda s: hit(s, 4),
    ch.WALK: lambda s: walk(s, sb.WALK),
    ch.STRIKEOUT: lambda s: batter_out(s, sb.STRIKEOUT),
    ch.SAC_FLY: lambda s: sacrifice_fly(s),
    ch.FLY_OUT: result_fly_out,
    ch.GROUND_OUT: result_ground_out,
}


# -- what the results do to the batter and the runners ----------------------------------------
def _log_batter(state: GameState, before: tuple, scored: list | tuple = ()) -> None:
    log_play(state, "pa", state.at_bat, state.fielder, state.roll, before, scored, state.outcome.code)


def score_runs(state: GameState, runners: list, rbi: bool, home_run: bool = False) -> list:
    """Runners cross the plate: runs for the team, the box score and the pitcher."""
    if not runners:
        return runners
    b = state.board
    t = b.batting
    counted = b.score(runners, home_run=home_run)
    state.box.runs_scored(t, [state.line_of[t][r] for r in counted])
    state.box.pitching[b.fielding][state.pitching_line[b.fielding]].r += len(counted)
    if rbi:
        state.rbi += len(counted)
    return counted


def add_outs(state: GameState, n: int) -> bool:
    """Record outs (charged to the pitcher); True when the side is retired."""
    b = state.board
    f = b.fielding
    state.box.pitching[f][state.pitching_line[f]].outs += n
    if state.rest_by == "outs":
        k = state.pitcher(f)
        state.outs_pitched[f][k] += n
        state.innings_pitched[f][k] = state.outs_pitched[f][k] // 3
    return b.add_outs(n)


def hit(state: GameState, bases: int) -> None:
    """A hit: the batter takes ``bases`` bases and the runners as many; with two out when
    the batter came up, every runner one more ("All hits", P-17)."""
    b = state.board
    outcome = _HITS[(ch.SINGLE, ch.DOUBLE, ch.TRIPLE, ch.HOMERUN)[bases - 1]]
    state.outcome = outcome
    before = b.bases
    extra = 1 if state.outs_before == 2 else 0
    runners, scored = advance_all(before, bases + extra) if any(r is not None for r in before) \
        else (EMPTY_BASES, [])
    if bases == 4:
        scored.append(state.at_bat)
    else:
        runners = tuple(state.at_bat if i == bases - 1 else r for i, r in enumerate(runners))
    b.bases = runners
    _log_batter(state, before, score_runs(state, scored, rbi=True, home_run=bases == 4))


def walk(state: GameState, outcome: Outcome) -> None:
    b = state.board
    state.outcome = outcome
    before = b.bases
    b.bases, scored = force_advance(before, state.at_bat)
    _log_batter(state, before, score_runs(state, scored, rbi=True))


def wild_pitch_walk(state: GameState) -> None:
    """"Wild Pitch Walk": the batter walks and every runner advances one base."""
    b = state.board
    state.outcome = sb.WALK
    before = b.bases
    b.bases, scored = advance_all(before, 1, state.at_bat)
    _log_batter(state, before, score_runs(state, scored, rbi=False))


def reached_on_error(state: GameState) -> None:
    """"Infield errors are one base errors. Outfield errors are two base errors.\""""
    b = state.board
    state.box.error(b.fielding)
    state.outcome = sb.REACHED_ON_ERROR
    before = b.bases
    b.bases, scored = advance_all(before, 1 if state.fielder <= 6 else 2, state.at_bat)
    _log_batter(state, before, score_runs(state, scored, rbi=False))


def batter_out(state: GameState, outcome: Outcome) -> None:
    """The batter is out and nobody moves."""
    before = state.board.bases
    state.outcome = outcome
    add_outs(state, 1)
    _log_batter(state, before)


def infield_out(state: GameState) -> None:
    """"If there is a runner on first, double play. All other runners advance one base."
    (P-14): the batter and the runner from first are out; no run scores on the third out."""
    b = state.board
    before = b.bases
    if before[0] is not None:
        n = min(2, 3 - b.outs)
        state.outcome = sb.DOUBLE_PLAY if n == 2 else sb.GROUND_OUT
        retired = add_outs(state, n)
        rest = remove_runner(before, 0)
    else:
        state.outcome = sb.GROUND_OUT
        retired = add_outs(state, 1)
        rest = before
    scored = []
    if not retired and any(r is not None for r in rest):
        b.bases, scored = advance_all(rest, 1)
    elif not retired:
        b.bases = rest
    _log_batter(state, before, score_runs(state, scored, rbi=state.outcome is sb.GROUND_OUT))


def sacrifice_fly(state: GameState) -> None:
    """"On Sacrifice Fly, if there is a runner on third, he scores" (not on the third out)."""
    b = state.board
    before = b.bases
    state.outcome = sb.FLY_OUT
    if add_outs(state, 1) or before[2] is None:
        _log_batter(state, before)
        return
    state.outcome = sb.SACRIFICE_FLY
    b.bases, scored = advance_runner(before, 2, 1)
    _log_batter(state, before, score_runs(state, scored, rbi=True))


def fly_out(state: GameState) -> None:
    """A fly out; to the outfield (7-9) with a runner on third and fewer than three out,
    the runner may tag up."""
    b = state.board
    before = b.bases
    state.outcome = sb.FLY_OUT
    retired = add_outs(state, 1)
    _log_batter(state, before)
    if not retired and state.fielder >= 7 and before[2] is not None:
        ask(state, "tag_up", b.batting, (PASS, YES), subject=2)


def choose_tag_up(state: GameState, decision: Decision, action: int) -> None:
    if action == YES:
        tag_up(state)


def tag_up(state: GameState) -> None:
    """Special rule: one die greater than the runner's retreat + the outfielder's retreat:
    safe at home; otherwise out at home. All other runners advance one base (P-16)."""
    b = state.board
    t, f = b.batting, b.fielding
    runner = b.bases[2]
    needs = state.creature(t, runner).retreat + state.creature(f, state.at(f, state.fielder)).retreat
    roll = state.dice.roll("tag_up")
    before = b.bases
    others = (before[0], before[1], None)
    moved, _ = advance_all(others, 1) if any(r is not None for r in others) else (others, [])
    if roll > needs:
        b.bases = moved
        scored = score_runs(state, [runner], rbi=True)
        if scored:
            state.outcome = sb.SACRIFICE_FLY
        log_play(state, "tag_up", runner, 3, roll, before, scored)
    else:
        if not add_outs(state, 1):
            b.bases = moved
        log_play(state, "tag_out", runner, 3, roll, before)


# -- injuries (error chart row 12) ------------------------------------------------------------
def injury_roll(state: GameState) -> None:
    """Injury chart: one die by the batter's level; out for games, or HP reduced."""
    b = state.board
    t = b.batting
    k = state.at_bat
    effect = ch.INJURY[state.dice.roll("injury")][ch.injury_column(state.creature(t, k).level)]
    state.injury_check = False
    if effect is None:
        log_play(state, "injury", k, -1, None, b.bases, detail="none")
        return
    kind, n = effect
    if kind == "hp":
        state.hp_loss[t][k] += n
        log_play(state, "injury", k, -1, None, b.bases, detail=f"hp-{n}")
        return
    state.injured[t][k] = max(state.injured[t][k], n)
    log_play(state, "injury", k, -1, None, b.bases, detail=f"games-{n}")


def offer_injury_replacement(state: GameState) -> None:
    """Before the next batter (after the side is retired, if the play was the third out):
    an injured creature still in the game is replaced from the bench, if anyone is left."""
    for t in (state.board.batting, state.board.fielding):
        if not any(state.injured[t]):
            continue
        for k, games in enumerate(state.injured[t]):
            if games and state.status[t][k] == PLAYING and state.has_bench(t):
                ask(state, "replace_injured", t, tuple(CREATURE + j for j in state.available(t)),
                    subject=k)
                return
    state.step = "offense_sub"


def choose_replace_injured(state: GameState, decision: Decision, action: int) -> None:
    substitute(state, decision.actor, decision.subject, action - CREATURE)


# ==================================================================== after the batter
def record_plate_appearance(state: GameState) -> None:
    b = state.board
    t, f = state.board.batting, state.board.fielding
    outcome = state.outcome
    state.box.plate_appearance(t, state.line_of[t][state.at_bat], b.inning, outcome, state.rbi)
    state.box.pitching[f][state.pitching_line[f]].batter_faced(outcome)
    state.outcome = None
    state.rbi = 0


def end_plate_appearance(state: GameState) -> None:
    """Score the plate appearance, roll for an injury if one is due, then the next batter."""
    if state.injury_check:
        injury_roll(state)
    b = state.board
    if state.outcome is not None:
        record_plate_appearance(state)
    state.order[b.half] = (state.order[b.half] + 1) % 9
    state.pa += 1
    state.step = "start_pa"
    if b.outs == 3:
        retire_side(state)


def retire_side(state: GameState) -> None:
    """Three outs end the half inning."""
    state.board.end_half()
    state.pa = 0
    state.step = "start_pa"


# ==================================================================== a situation, from outside
def start_half_inning(state: GameState, *, inning: int, half: int, outs: int = 0,
                      bases: tuple = EMPTY_BASES, leadoff: int = 0) -> GameState:
    """Put a game whose lineups are set at the start of a plate appearance in a situation of
    a half inning that never ends the game, for outside code that plays an engine on
    (:func:`dugout.envs.core.engine.play_out`; the value tables' sampler): ``inning`` (it
    keys the dice streams), ``half`` (0: the away team bats), ``outs`` (0-2), ``bases`` (the
    batting team's creatures on first, second, third, or None; each in its batting order)
    and ``leadoff``, the batting slot (0-8) due up. The scoreboard is set by
    :func:`~dugout.envs.core.engine.set_situation` (no runs yet); no decision is pending and
    no plate appearance of the half has begun. Everything else (who plays where, HP, rest)
    is the game's own. Returns ``state``; bad input raises ``ValueError``."""
    if not state.started:
        raise ValueError("start_half_inning: the lineups are not set yet (play the game's "
                         "lineup and batting-order decisions first)")
    if half not in (0, 1):
        raise ValueError(f"start_half_inning: half must be 0 (top) or 1 (bottom), got {half!r}")
    if not (isinstance(inning, int) and inning >= 1):
        raise ValueError(f"start_half_inning: inning must be an int from 1, got {inning!r}")
    if outs not in (0, 1, 2):
        raise ValueError(f"start_half_inning: outs must be 0, 1 or 2, got {outs!r}")
    if leadoff not in range(9):
        raise ValueError(f"start_half_inning: leadoff must be a batting slot 0-8, got {leadoff!r}")
    bases = tuple(bases)
    order = state.lineup[half]
    runners = [r for r in bases if r is not None]
    if (len(bases) != 3 or any(r not in order for r in runners) or len(set(runners)) != len(runners)
            or order[leadoff] in runners):
        raise ValueError(f"start_half_inning: bases must be three of the batting team's batters "
                         f"(its order {order}) or None, each once and not the leadoff batter "
                         f"{order[leadoff]}, got {bases!r}")
    set_situation(state.board, inning=inning, half=half, outs=outs, bases=bases)
    state.order[half] = leadoff
    state.pending, state.step, state.pa = None, "start_pa", 0
    state.sub_for = state.sub_team = -1
    return state


RULES: dict[str, Callable[[GameState], None]] = {
    "setup": setup_game,
    "lineup": offer_lineup,
    "batting_order": offer_batting_order,
    "play_ball": play_ball,
    "start_pa": start_plate_appearance,
    "injuries": offer_injury_replacement,
    "offense_sub": offer_offense_sub,
    "defense_sub": offer_defense_sub,
    "steal": offer_steal,
    "bunt": offer_bunt,
    "at_bat": roll_for_batter,
    "end_pa": end_plate_appearance,
}

CHOICES: dict[str, Callable[[GameState, Decision, int], None]] = {
    "lineup": choose_lineup,
    "batting_order": choose_batting_order,
    "offense_sub": choose_offense_sub,
    "defense_sub": choose_defense_sub,
    "substitute": choose_substitute,
    "replace_injured": choose_replace_injured,
    "steal": choose_steal,
    "bunt": choose_bunt,
    "tag_up": choose_tag_up,
}
