"""The play log and the box score, rendered like the That's Baseball scorecard.

Plays are stored as small tuples (who, what, the roll, the bases before and after)
and turned into words only when someone reads them, so keeping score costs the
engine almost nothing per plate appearance.

Counting follows official scoring: walks, hit batsmen and sacrifice flies are plate
appearances but not at-bats; runs that score on an error, a double play, a steal or a
pickoff error earn no RBI (the engine decides, and passes ``rbi``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any, Hashable, NamedTuple, Sequence

from .bases import BASE_NAMES, Bases
from .scoreboard import Scoreboard
from .state import (SaveError, check_index, check_indexes, check_int, codec, decode_as,
                    describe, saved_keys)

__all__ = [
    "Outcome", "OUTCOMES", "SINGLE", "DOUBLE", "TRIPLE", "HOME_RUN", "WALK", "HIT_BY_PITCH",
    "STRIKEOUT", "FLY_OUT", "GROUND_OUT", "REACHED_ON_ERROR", "DOUBLE_PLAY", "SACRIFICE_FLY",
    "BattingLine", "PitchingLine", "BoxScore", "Play", "PlayLog", "PLAY_LOG", "ordinal",
    "innings_text", "outcome_codec", "check_plays", "log_play",
]


@dataclass(frozen=True)
class Outcome:
    """What a plate appearance comes to, for the scorecard and the counting stats."""
    code: str             # scorecard mark: "1B", "BB", "GO", ...
    verb: str             # play-by-play: "singled", "walked", ...
    bases: int = 0        # bases the hit is worth; 0 = not a hit
    at_bat: bool = True
    walk: bool = False
    hbp: bool = False
    strikeout: bool = False
    sacrifice_fly: bool = False


SINGLE = Outcome("1B", "singled", bases=1)
DOUBLE = Outcome("2B", "hit a double", bases=2)
TRIPLE = Outcome("3B", "hit a triple", bases=3)
HOME_RUN = Outcome("HR", "homered", bases=4)
WALK = Outcome("BB", "walked", at_bat=False, walk=True)
HIT_BY_PITCH = Outcome("HBP", "was hit by a pitch", at_bat=False, hbp=True)
STRIKEOUT = Outcome("SO", "struck out", strikeout=True)
FLY_OUT = Outcome("FO", "flied out")
GROUND_OUT = Outcome("GO", "grounded out")
REACHED_ON_ERROR = Outcome("E", "reached on an error")
DOUBLE_PLAY = Outcome("DP", "grounded into a double play")
SACRIFICE_FLY = Outcome("SF", "hit a sacrifice fly", at_bat=False, sacrifice_fly=True)

OUTCOMES: dict[str, Outcome] = {o.code: o for o in (
    SINGLE, DOUBLE, TRIPLE, HOME_RUN, WALK, HIT_BY_PITCH, STRIKEOUT, FLY_OUT, GROUND_OUT,
    REACHED_ON_ERROR, DOUBLE_PLAY, SACRIFICE_FLY)}

STAT_COLUMNS = ("AB", "H", "R", "RBI", "BB", "SO", "SB", "2B", "3B", "HR")


def outcome_codec(outcomes: dict[str, Outcome] = OUTCOMES) -> dict:
    """``field(metadata=...)`` for an ``Outcome | None`` field, saved as its scorecard code
    and read back from ``outcomes`` (a ruleset's own table when it adds results)."""
    return codec(lambda o: None if o is None else o.code,
                 lambda code: None if code is None else outcomes[code])


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class BattingLine:
    """One batter's row of the scorecard."""

    __slots__ = ("name", "label", "pa", "ab", "h", "r", "rbi", "bb", "hbp", "so", "sb", "cs",
                 "sf", "doubles", "triples", "hr", "marks")
    COUNTERS = ("pa", "ab", "h", "r", "rbi", "bb", "hbp", "so", "sb", "cs", "sf",
                "doubles", "triples", "hr")

    def __init__(self, name: str, label: str = ""):
        self.name = name
        self.label = label
        self.pa = self.ab = self.h = self.r = self.rbi = self.bb = self.hbp = self.so = 0
        self.sb = self.cs = self.sf = self.doubles = self.triples = self.hr = 0    # COUNTERS
        self.marks: list[tuple[int, str]] = []      # (inning, scorecard code)

    def stats(self) -> dict[str, int]:
        return {"AB": self.ab, "H": self.h, "R": self.r, "RBI": self.rbi, "BB": self.bb,
                "SO": self.so, "SB": self.sb, "2B": self.doubles, "3B": self.triples,
                "HR": self.hr}

    def to_dict(self) -> dict[str, Any]:
        d = {s: getattr(self, s) for s in self.__slots__}
        d["marks"] = [list(m) for m in self.marks]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BattingLine:
        """Rebuild a saved line, checked (a :class:`~.state.SaveError` names the key)."""
        if type(d) is not dict or d.keys() != _BATTING_KEYS:
            saved_keys(d, (), cls.__slots__)
        name, label = d["name"], d["label"]
        if type(name) is not str or type(label) is not str:
            decode_as(str, name, ("name",))
            decode_as(str, label, ("label",))
        new = cls(name, label)
        for c in cls.COUNTERS:
            n = d[c]
            if type(n) is not int or n < 0:
                check_int(n, (c,), 0)
            setattr(new, c, n)
        saved_marks = d["marks"]
        if type(saved_marks) is not list:
            decode_as(list[_Mark], saved_marks, ("marks",))         # (raises, saying what)
        marks = []
        for i, m in enumerate(saved_marks):
            if type(m) is not list or len(m) != 2 or type(m[0]) is not int or type(m[1]) is not str:
                decode_as(_Mark, m, ("marks", i))                   # (raises, saying what)
            marks.append((m[0], m[1]))
        new.marks = marks
        return new

    def clone(self) -> BattingLine:
        new = BattingLine.__new__(BattingLine)
        for s in self.__slots__:
            setattr(new, s, getattr(self, s))
        new.marks = list(self.marks)
        return new


_BATTING_KEYS = frozenset(BattingLine.__slots__)


def innings_text(outs: int) -> str:
    """Innings pitched as box scores print them: 20 outs is "6.2"."""
    return f"{outs // 3}.{outs % 3}"


class PitchingLine:
    """One pitcher's row: outs recorded (IP), batters faced, H, R, BB, SO, HR."""

    __slots__ = ("name", "outs", "bf", "h", "r", "bb", "so", "hr")
    COUNTERS = ("outs", "bf", "h", "r", "bb", "so", "hr")

    def __init__(self, name: str):
        self.name = name
        for c in self.COUNTERS:
            setattr(self, c, 0)

    def stats(self) -> dict[str, Any]:
        return {"IP": innings_text(self.outs), "BF": self.bf, "H": self.h, "R": self.r,
                "BB": self.bb, "SO": self.so, "HR": self.hr}

    def to_dict(self) -> dict[str, Any]:
        return {s: getattr(self, s) for s in self.__slots__}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PitchingLine:
        """Rebuild a saved line, checked (a :class:`~.state.SaveError` names the key)."""
        saved_keys(d, (), cls.__slots__)
        new = cls(decode_as(str, d["name"], ("name",)))
        for c in cls.COUNTERS:
            setattr(new, c, check_int(d[c], (c,), 0))
        return new

    def batter_faced(self, outcome: Outcome) -> None:
        """Charge a batter faced and his result: a hit (a home run counted again in HR), a
        walk or a strikeout (a hit by pitch, an out or an error only as BF)."""
        self.bf += 1
        if outcome.bases:
            self.h += 1
            self.hr += outcome.bases == 4
        elif outcome.walk:
            self.bb += 1
        elif outcome.strikeout:
            self.so += 1

    def clone(self) -> PitchingLine:
        new = PitchingLine.__new__(PitchingLine)
        for s in self.__slots__:
            setattr(new, s, getattr(self, s))
        return new


class BoxScore:
    """Both teams' batting lines, hits and errors; the runs come from the scoreboard.

    Rulesets with substitutions add a batting line for each player who enters
    (:meth:`add_line`); rulesets with pitchers keep pitching lines (:meth:`add_pitcher`).
    """

    def __init__(self, team_names: Sequence[str], lineups: Sequence[Sequence[tuple[str, str]]]):
        self.team_names = list(team_names)
        self.lines = [[BattingLine(name, label) for name, label in lineup] for lineup in lineups]
        self.hits = [0, 0]
        self.errors = [0, 0]
        self.pitching: list[list[PitchingLine]] = [[], []]

    def add_line(self, team: int, name: str, label: str = "") -> int:
        """A batting line for a player entering the game; returns its index."""
        self.lines[team].append(BattingLine(name, label))
        return len(self.lines[team]) - 1

    def add_pitcher(self, team: int, name: str) -> int:
        """A pitching line for a pitcher entering the game; returns its index."""
        self.pitching[team].append(PitchingLine(name))
        return len(self.pitching[team]) - 1

    # -- recording -----------------------------------------------------------------
    def plate_appearance(self, team: int, slot: int, inning: int, outcome: Outcome,
                         rbi: int = 0) -> None:
        line = self.lines[team][slot]
        line.pa += 1
        line.marks.append((inning, outcome.code))
        line.rbi += rbi
        if outcome.at_bat:
            line.ab += 1
        if outcome.bases:
            line.h += 1
            self.hits[team] += 1
            if outcome.bases == 2:
                line.doubles += 1
            elif outcome.bases == 3:
                line.triples += 1
            elif outcome.bases == 4:
                line.hr += 1
        elif outcome.walk:
            line.bb += 1
        elif outcome.hbp:
            line.hbp += 1
        elif outcome.strikeout:
            line.so += 1
        elif outcome.sacrifice_fly:
            line.sf += 1

    def runs_scored(self, team: int, runners: Sequence[int]) -> None:
        lines = self.lines[team]
        for slot in runners:
            lines[slot].r += 1

    def stolen_base(self, team: int, slot: int) -> None:
        self.lines[team][slot].sb += 1

    def caught_stealing(self, team: int, slot: int) -> None:
        self.lines[team][slot].cs += 1

    def error(self, fielding_team: int) -> None:
        self.errors[fielding_team] += 1

    def render_pitching(self, team: int) -> str:
        """The pitching lines: IP, BF, H, R, BB, SO, HR."""
        lines = self.pitching[team]
        name_w = max([len(p.name) for p in lines] + [len(self.team_names[team]), 6]) + 2
        cols = ("IP", "BF", "H", "R", "BB", "SO", "HR")
        rows = [f"{self.team_names[team].upper() + ' PITCHING':<{name_w}}"
                + "".join(f"{c:>5}" for c in cols)]
        for p in lines:
            rows.append(f"{p.name:<{name_w}}" + "".join(f"{v:>5}" for v in p.stats().values()))
        return "\n".join(rows)

    def totals(self, team: int) -> dict[str, int]:
        out = {c: 0 for c in STAT_COLUMNS}
        for line in self.lines[team]:
            for k, v in line.stats().items():
                out[k] += v
        return out

    # -- rendering ------------------------------------------------------------------
    def render_line_score(self, board: Scoreboard) -> str:
        n = max(board.innings, len(board.line[0]))
        w = max(12, min(24, max(len(name) for name in self.team_names)))   # names up to 24 wide
        head = f"{'':<{w}}" + "".join(f"{i:>3}" for i in range(1, n + 1)) + "    R  H  E"
        rows = [head]
        for team in (0, 1):
            cells = []
            for i in range(n):
                if i < len(board.line[team]):
                    cells.append(f"{board.line[team][i]:>3}")
                elif board.over and team == 1 and i == len(board.line[1]) and i < len(board.line[0]):
                    cells.append("  x")       # home team did not need its last at-bat
                else:
                    cells.append("   ")
            rows.append(f"{self.team_names[team][:w]:<{w}}" + "".join(cells)
                        + f"  {board.runs[team]:>3}{self.hits[team]:>3}{self.errors[team]:>3}")
        return "\n".join(rows)

    def render_scorecard(self, team: int, innings: int = 9, label_header: str = "AA") -> str:
        """The batting card: a mark per inning (``+`` holds extra innings), then the stats."""
        width = 8
        name_w = max([len(line.name) for line in self.lines[team]] + [len(self.team_names[team]), 6]) + 2
        head = (f"{self.team_names[team].upper():<{name_w}}{label_header:>4}  "
                + "".join(f"{i:<{width}}" for i in range(1, innings + 1)) + f"{'+':<{width}}"
                + "".join(f"{c:>4}" for c in STAT_COLUMNS))
        rows = [head]
        for line in self.lines[team]:
            cells = [[] for _ in range(innings + 1)]
            for inning, code in line.marks:
                cells[min(inning, innings + 1) - 1].append(code)
            marks = "".join(f"{'/'.join(c):<{width}}" for c in cells)
            stats = "".join(f"{v:>4}" for v in line.stats().values())
            rows.append(f"{line.name:<{name_w}}{line.label:>4}  {marks}{stats}")
        tot = self.totals(team)
        rows.append(f"{'Totals':<{name_w}}{'':>4}  {'':<{width * (innings + 1)}}"
                    + "".join(f"{v:>4}" for v in tot.values()))
        return "\n".join(rows)

    # -- copying and saving ---------------------------------------------------------
    def clone(self) -> BoxScore:
        new = BoxScore.__new__(BoxScore)
        new.team_names = list(self.team_names)
        new.lines = [[line.clone() for line in team] for team in self.lines]
        new.hits = list(self.hits)
        new.errors = list(self.errors)
        new.pitching = [[p.clone() for p in team] for team in self.pitching]
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"team_names": list(self.team_names),
                "lines": [[line.to_dict() for line in team] for team in self.lines],
                "hits": list(self.hits), "errors": list(self.errors),
                "pitching": [[p.to_dict() for p in team] for team in self.pitching]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BoxScore:
        """Rebuild a saved box score, checked: two teams' names, batting and pitching lines,
        hits and errors (a :class:`~.state.SaveError` names the key)."""
        saved_keys(d, (), ("team_names", "lines", "hits", "errors"), ("pitching",))
        new = cls.__new__(cls)
        new.team_names = list(decode_as(tuple[str, str], d["team_names"], ("team_names",)))
        new.lines = _teams_lines(BattingLine, d["lines"], "lines")
        for key in ("hits", "errors"):
            counts = decode_as(tuple[int, int], d[key], (key,))
            for team, n in enumerate(counts):
                check_int(n, (key, team), 0)
            setattr(new, key, list(counts))
        new.pitching = _teams_lines(PitchingLine, d.get("pitching", [[], []]), "pitching")
        return new

    def summary(self, board: Scoreboard) -> dict[str, Any]:
        """A JSON-friendly box score (what ``env.unwrapped.box_score()`` returns)."""
        return {
            "teams": list(self.team_names),
            "line_score": [list(board.line[0]), list(board.line[1])],
            "runs": list(board.runs), "hits": list(self.hits), "errors": list(self.errors),
            "batting": [[{"name": line.name, **line.stats()} for line in team]
                        for team in self.lines],
            **({"pitching": [[{"name": p.name, **p.stats()} for p in team]
                             for team in self.pitching]} if any(self.pitching) else {}),
        }


class _Mark(NamedTuple):
    """A scorecard mark as saved: (inning, code)."""
    inning: int
    code: str


def _teams_lines(line: type, saved: Any, key: str) -> list[list]:
    """Both teams' saved batting or pitching lines (a SaveError names a bad one)."""
    if type(saved) is not list or len(saved) != 2 or not all(type(t) is list for t in saved):
        raise SaveError(f"expected a list of two teams' lists, got {describe(saved)}", (key,))
    out = []
    for team, rows in enumerate(saved):
        lines = []
        for i, row in enumerate(rows):
            try:
                lines.append(line.from_dict(row))
            except SaveError as e:
                raise e.within(key, team, i) from None
            except (KeyError, TypeError, ValueError) as e:
                raise SaveError(str(e), (key, team, i)) from e
        out.append(lines)
    return out


class Play(NamedTuple):
    """One entry of the play log."""
    inning: int
    half: int
    kind: str            # "pa", "steal", "caught_stealing", "picked_off", "pickoff_safe",
    #                      "pickoff_error", "tag_up", "tag_held"
    actor: Hashable      # the batter or runner the play is about
    base: int            # the base the play concerns (index into BASE_NAMES), -1 if none
    roll: int | None     # the roll or total that decided it
    before: Bases
    after: Bases
    scored: tuple[Hashable, ...]
    detail: str = ""     # the outcome code of a plate appearance ("1B", "GO", ...)


_PLAY_TEXT = {
    "steal": "{name} stole {base}",
    "caught_stealing": "{name} was caught stealing {base}",
    "picked_off": "{name} was picked off {base}",
    "pickoff_safe": "{name} was safe on a pickoff throw to {base}",
    "pickoff_error": "{name} advanced to {base} on a pickoff error",
    "tag_up": "{name} tagged up and went to {base}",
    "tag_held": "{name} did not tag up",
}


def log_play(state: Any, kind: str, actor: Hashable, base: int, roll: int | None, before: Bases,
             scored: Sequence[Hashable] = (), detail: str = "") -> None:
    """Add a play to ``state.log`` as it stands on ``state.board`` now: its inning and half,
    the bases ``before`` it and as they are after it (see :class:`Play` for the rest)."""
    b = state.board
    state.log.add(Play(b.inning, b.half, kind, actor, base, roll, before, b.bases, tuple(scored),
                       detail))


class PlayLog:
    """Plays in order; text is made on demand from the names of each team's runners."""

    def __init__(self) -> None:
        self.plays: list[Play] = []

    def add(self, play: Play) -> None:
        self.plays.append(play)

    def clone(self) -> PlayLog:
        new = PlayLog()
        new.plays = list(self.plays)            # plays are immutable tuples
        return new

    def to_list(self) -> list[list]:
        """The plays as JSON-friendly lists (what a saved game stores)."""
        return [[p.inning, p.half, p.kind, p.actor, p.base, p.roll, list(p.before),
                 list(p.after), list(p.scored), p.detail] for p in self.plays]

    @classmethod
    def from_list(cls, rows: Sequence[Sequence[Any]]) -> PlayLog:
        """Rebuild a saved log, each play checked against :class:`Play`'s types and for an
        inning of at least 1 and a half 0 or 1 (the play-by-play's headings). A log is
        checked column by column in one pass; only a bad one is read play by play, to say
        which play is wrong."""
        new = cls()
        if _plain_log(rows):
            new.plays = [Play(i, h, k, a, b, r, tuple(bf), tuple(af), tuple(sc), det)
                         for i, h, k, a, b, r, bf, af, sc, det in rows]
            return new
        if type(rows) is not list:
            return decode_as(list[Play], rows)          # (raises, saying what it is)
        plays = new.plays
        for i, row in enumerate(rows):
            play = decode_as(Play, row, (i,))
            if play.inning < 1 or play.half not in (0, 1):
                raise SaveError(f"a play needs an inning from 1 and a half 0 or 1, got "
                                f"{play.inning}, {play.half}", (i,))
            plays.append(play)
        return new

    def render_by_half(self, team_names: Sequence[str], describe, last: int | None = None) -> str:
        """Play-by-play under a heading per half inning; ``describe(i, play)`` words play i."""
        start = 0 if last is None else max(0, len(self.plays) - last)
        out: list[str] = []
        current = None
        for i in range(start, len(self.plays)):
            play = self.plays[i]
            if (play.inning, play.half) != current:
                if out:
                    out.append("")
                out.append(f"{team_names[play.half]} {ordinal(play.inning)}.")
                current = (play.inning, play.half)
            out.append("  " + describe(i, play))
        return "\n".join(out)

    def __len__(self) -> int:
        return len(self.plays)

    def render(self, team_names: Sequence[str], runner_names: Sequence[Sequence[str]],
               last: int | None = None) -> str:
        """Play-by-play by half inning, in the style of the rulebook's sample game."""
        plays = self.plays if last is None else self.plays[-last:]
        out: list[str] = []
        current = None
        for play in plays:
            key = (play.inning, play.half)
            if key != current:
                if out:
                    out.append("")
                out.append(f"{team_names[play.half]} {ordinal(play.inning)}.")
                current = key
            out.append("  " + describe_play(play, runner_names[play.half]))
        return "\n".join(out)


def check_plays(log: PlayLog, runners: int, outcomes: dict[str, Outcome] | None = OUTCOMES,
                actor_none: int | None = None, path: tuple = ("log",)) -> None:
    """Check a loaded log against the game it belongs to, for rendering it: every play's
    actor (or ``actor_none``) and the runners on its bases and scoring are ids below
    ``runners`` (the names the play-by-play looks up), and a plate appearance's detail is
    one of ``outcomes`` (None: any); a :class:`~.state.SaveError` names the play."""
    ids = frozenset(range(runners))             # (a loaded play's runners are ints or strings)
    places = ids | {None}
    actors = ids if actor_none is None else ids | {actor_none}
    plays = log.plays
    if not plays:
        return
    _, _, kind, actor, _, _, before, after, scored, detail = zip(*plays)    # column by column
    if (actors.issuperset(actor) and places.issuperset(chain.from_iterable(before + after))
            and ids.issuperset(chain.from_iterable(scored))
            and (outcomes is None or outcomes.keys() >= {d for k, d in zip(kind, detail)
                                                          if k == "pa"})):
        return
    for i, p in enumerate(plays):              # (says which)
        check_index(p.actor, runners, path + (i, 3), "the runners' names", none=actor_none)
        for column, group in ((6, p.before), (7, p.after), (8, p.scored)):
            check_indexes(group, runners, path + (i, column), "the runners' names", nulls=True)
        if outcomes is not None and p.kind == "pa" and p.detail not in outcomes:
            raise SaveError(f"a plate appearance's result is one of {sorted(outcomes)}, got "
                            f"{p.detail!r}", path + (i, 9))


#: The types a runner (a play's actor, a runner who scored) is saved as, and a place on
#: the bases (a runner or null).
_RUNNER = (int, str)
_RUNNER_SET = frozenset(_RUNNER)
_RUNNERS = frozenset({int, str, type(None)})


_INT = frozenset({int})
_STR = frozenset({str})
_ROLL = frozenset({int, type(None)})
_THREE = frozenset({3})
_TEN = frozenset({10})
_LIST = frozenset({list})
_HALVES = frozenset({0, 1})


def _plain_log(rows: Any) -> bool:
    """Whether ``rows`` is a saved log of well-formed plays (column by column): rows of ten,
    int innings from 1 and halves 0 or 1, str kinds and details, runner actors, int bases,
    int or null rolls, lists of three places for the bases, lists of runners who scored."""
    if type(rows) is not list or not _LIST.issuperset(map(type, rows)) or not _TEN.issuperset(
            map(len, rows)):
        return False
    if not rows:
        return True
    inning, half, kind, actor, base, roll, before, after, scored, detail = zip(*rows)
    return (_INT.issuperset(map(type, inning)) and min(inning) >= 1
            and _INT.issuperset(map(type, half)) and _HALVES.issuperset(half)
            and _STR.issuperset(map(type, kind)) and _STR.issuperset(map(type, detail))
            and _RUNNER_SET.issuperset(map(type, actor)) and _INT.issuperset(map(type, base))
            and _ROLL.issuperset(map(type, roll))
            and _LIST.issuperset(map(type, before + after + scored))
            and _THREE.issuperset(map(len, before + after))
            and _RUNNERS.issuperset(map(type, chain.from_iterable(before + after)))
            and _RUNNER_SET.issuperset(map(type, chain.from_iterable(scored))))


#: ``field(metadata=PLAY_LOG)``: how a game state copies its play log and saves it (as the
#: list of its plays).
PLAY_LOG = codec(PlayLog.to_list, PlayLog.from_list, copy=PlayLog.clone)


def describe_play(play: Play, names: Sequence[str]) -> str:
    """One sentence for a play: what happened, then what every other runner did."""
    name = names[play.actor]
    if play.kind == "pa":
        text = f"{name} {OUTCOMES[play.detail].verb}"
    elif play.kind == "tag_up" and play.base == 3:
        text = f"{name} tagged up and scored"
    elif play.kind == "steal" and play.base == 3:
        text = f"{name} stole home"
    else:
        base = BASE_NAMES[play.base] if play.base >= 0 else ""
        text = _PLAY_TEXT.get(play.kind, "{name}: " + play.kind).format(name=name, base=base)
    return ", ".join([text, *runner_movements(play, names)]) + "."


def runner_movements(play: Play, names: Sequence[str]) -> list[str]:
    """'X scored', 'Y to third', 'Z out' for every runner other than the play's actor."""
    after_pos = {r: i for i, r in enumerate(play.after) if r is not None}
    words = []
    for i in (2, 1, 0):
        r = play.before[i]
        if r is None or r == play.actor:
            continue
        if r in play.scored:
            words.append(f"{names[r]} scored")
        elif r not in after_pos:
            words.append(f"{names[r]} out")
        elif after_pos[r] != i:
            words.append(f"{names[r]} to {BASE_NAMES[after_pos[r]]}")
    return words
