"""Innings, outs, bases and score: the part of a baseball game every ruleset shares.

The scoreboard knows when a game ends. Regulation rules (:class:`Scoreboard`):

* the home team bats last; once it leads after the top of the last scheduled inning
  (or any extra inning), the bottom half is not played;
* a game tied after the last scheduled inning goes to extra innings until a winner;
* in the bottom of the last inning or later the game ends the moment the home team
  takes the lead (walk-off). Only the runs needed to win count, unless the winning
  hit is a home run, on which every runner and the batter score (official scoring,
  MLB rule 9.06(f) and 5.08(b));
* an optional ``max_innings`` cuts off a game still tied after that inning: the game
  is *truncated* and has no winner.

Variants, in the manner of python-chess's: a subclass overrides the small, named rule
methods (:meth:`Scoreboard.walkoff_possible`, :meth:`Scoreboard.after_runs`,
:meth:`Scoreboard.after_half`) and keeps everything else. :class:`SuddenDeathScoreboard`
is Bottom of the 9th's one half inning. A saved scoreboard names its variant
(``"variant"``); ``Scoreboard.from_dict`` rebuilds that class, core's or one a ruleset
registers with :func:`register_scoreboard` (the Manager Challenge's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .bases import EMPTY_BASES, Bases
from .errors import MAX_GAME_INNINGS, MAX_INNINGS
from .state import PlainState, SavedAs, SaveError, check_int, check_len, describe, state_from_dict

__all__ = ["Scoreboard", "SuddenDeathScoreboard", "ScoreboardGame", "VARIANTS", "register_scoreboard",
           "AWAY", "HOME"]

AWAY, HOME = 0, 1


@dataclass
class Scoreboard(PlainState):
    """Regulation rules: ``innings`` scheduled, extra innings to a winner (or to
    ``max_innings``, which truncates a tie)."""

    SAVED_AS = SavedAs("variant", "regulation", "regulation scoreboard")

    innings: int = 9
    max_innings: int | None = None
    inning: int = 1
    half: int = 0                     # 0 = top (away bats), 1 = bottom (home bats)
    outs: int = 0
    bases: Bases = EMPTY_BASES
    runs: list[int] = field(default_factory=lambda: [0, 0])
    #: runs per inning for each team; the home list is one shorter while the top is played
    line: list[list[int]] = field(default_factory=lambda: [[0], []])
    over: bool = False
    truncated: bool = False
    winner: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.innings, bool) or not isinstance(self.innings, int) or self.innings < 1:
            raise ValueError(f"innings must be a positive int, got {self.innings!r}")
        if self.max_innings is not None:
            if isinstance(self.max_innings, bool) or not isinstance(self.max_innings, int):
                raise ValueError(f"max_innings must be an int or None, got {self.max_innings!r}")
            if self.max_innings < self.innings:
                raise ValueError(
                    f"max_innings ({self.max_innings}) must be at least innings ({self.innings})")

    # -- who is where -----------------------------------------------------------------
    @property
    def batting(self) -> int:
        return self.half

    @property
    def fielding(self) -> int:
        return 1 - self.half

    @property
    def half_index(self) -> int:
        """0 for the top of the 1st, 1 for its bottom, 2 for the top of the 2nd, ..."""
        return 2 * (self.inning - 1) + self.half

    # -- outs ---------------------------------------------------------------------------
    def add_outs(self, n: int = 1) -> bool:
        """Record ``n`` outs; True when the side is retired."""
        if self.outs + n > 3:
            raise ValueError(f"cannot record {n} outs with {self.outs} already made")
        self.outs += n
        return self.outs == 3

    # -- runs ---------------------------------------------------------------------------
    def score(self, runners: list, home_run: bool = False) -> list:
        """Score ``runners`` (lead runner first) for the batting side; return those who count.

        When the go-ahead run ends the game (:meth:`walkoff_possible`) only the runs needed
        to win count, except on a home run.
        """
        if not runners:
            return runners
        if self.walkoff_possible():
            need = self.runs[self.fielding] - self.runs[self.batting] + 1
            if not home_run and len(runners) > need:
                runners = runners[:need]
        n = len(runners)
        self.runs[self.half] += n
        self.line[self.half][-1] += n
        self.after_runs()
        return runners

    # -- end of a half inning --------------------------------------------------------
    def end_half(self) -> None:
        """The side is retired: clear the bases, then end the game or move on."""
        self.outs = 0
        self.bases = EMPTY_BASES
        self.after_half()

    def finish(self, winner: int) -> None:
        """The game is over: ``winner`` (AWAY or HOME) has won."""
        self.over = True
        self.winner = winner

    def next_half(self) -> None:
        """The other side comes to bat: the bottom of this inning or the top of the next."""
        if self.half == 0:
            self.half = 1
            self.line[1].append(0)
        else:
            self.inning += 1
            self.half = 0
            self.line[0].append(0)

    # -- the game-end rules a variant overrides ----------------------------------------
    def walkoff_possible(self) -> bool:
        """Whether the batting side's go-ahead run ends the game at once: the home team's
        in the bottom of the last scheduled inning or later."""
        return self.half == 1 and self.inning >= self.innings

    def after_runs(self) -> None:
        """Runs have scored: a walk-off ends the game."""
        if self.walkoff_possible() and self.runs[self.batting] > self.runs[self.fielding]:
            self.finish(self.batting)

    def after_half(self) -> None:
        """The side is retired (bases cleared): end the game, or play the next half."""
        away, home = self.runs
        last = self.inning >= self.innings
        if self.half == 0:
            if last and home > away:
                self.finish(HOME)                     # the home team need not bat
            else:
                self.next_half()
        elif last and away != home:
            self.finish(AWAY if away > home else HOME)
        elif self.max_innings is not None and self.inning >= self.max_innings:
            self.over = self.truncated = True
        else:
            self.next_half()

    # -- saving ------------------------------------------------------------------------
    def validate(self) -> None:
        """A loaded scoreboard's situation is one a game can be in: an inning from 1 (not
        past ``max_innings`` while the game goes on), a half 0 or 1, 0 to 3 outs, no runner
        on two bases, runs from 0, a scheduled length and cut-off the options allow, and while the game goes on a line score with a column for
        each half inning begun whose runs add up to the score; a winner only once it is over
        (not when truncated)."""
        check_int(self.innings, ("innings",), 1, MAX_INNINGS)
        if self.max_innings is not None:
            check_int(self.max_innings, ("max_innings",), self.innings, MAX_GAME_INNINGS)
        check_int(self.inning, ("inning",), 1)
        check_int(self.half, ("half",), 0, 1)
        check_int(self.outs, ("outs",), 0, 3)
        runners = [r for r in self.bases if r is not None]
        if len(set(runners)) != len(runners):
            raise SaveError(f"a runner is on two bases: {list(self.bases)}", ("bases",))
        check_len(self.runs, 2, ("runs",))
        check_len(self.line, 2, ("line",))
        for team in (0, 1):
            check_int(self.runs[team], ("runs", team), 0)
            for i, n in enumerate(self.line[team]):
                check_int(n, ("line", team, i), 0)
        if self.winner is not None:
            check_int(self.winner, ("winner",), 0, 1)
        if self.over:
            if self.truncated and self.winner is not None:
                raise SaveError("a truncated game has no winner", ("winner",))
            if not self.truncated and self.winner is None:
                raise SaveError("a game over and not truncated has a winner", ("winner",))
            return
        if self.truncated or self.winner is not None:
            raise SaveError("a game that is not over has no winner and is not truncated",
                            ("winner" if self.winner is not None else "truncated",))
        if self.max_innings is not None and self.inning > self.max_innings:
            raise SaveError(f"inning {self.inning} is past max_innings {self.max_innings}",
                            ("inning",))
        for team, columns in enumerate((self.inning, self.inning - 1 + self.half)):
            if len(self.line[team]) != columns:
                raise SaveError(f"in the {('top', 'bottom')[self.half]} of inning {self.inning} "
                                f"the line has {columns} column(s) for this team, got "
                                f"{len(self.line[team])}", ("line", team))
            if sum(self.line[team]) != self.runs[team]:
                raise SaveError(f"the line's runs add up to {sum(self.line[team])}, the score "
                                f"says {self.runs[team]}", ("line", team))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scoreboard:
        """Rebuild a saved scoreboard as the variant it names (one saved before variants
        were named is a regulation one)."""
        if not isinstance(data, dict):
            raise SaveError(f"a saved scoreboard is an object, got {describe(data)}")
        name = data.get("variant", "regulation")
        variant = VARIANTS.get(name) if isinstance(name, str) else None
        if variant is None:
            raise SaveError(f"unknown scoreboard variant {describe(name)} in saved game "
                            f"(known: {', '.join(VARIANTS)})")
        return state_from_dict(variant, {**data, "variant": name})


@dataclass
class SuddenDeathScoreboard(Scoreboard):
    """One half inning decides the game (Bottom of the 9th: "If you are the Home Team
    (Batting) you will win by ... scoring 1 Run. If you are the Visiting Team (Pitching)
    you will win by gaining 3 Outs").

    It starts in the bottom of the 9th, tied, with nobody out, unless ``inning``, ``half``,
    ``runs``, ``outs`` and ``bases`` set another situation (a Manager Challenge situation
    card). The batting side wins the moment it takes the lead (only the runs needed count,
    except on a home run); the fielding side wins at the third out, a tie included: there
    are no extra innings. The batting side must not lead at the start. The line score has
    a column per inning up to this one, with the runs already on the board in the first.
    """

    SAVED_AS = SavedAs("variant", "sudden_death", "sudden-death scoreboard")

    inning: int = 9
    half: int = 1
    line: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.over and self.runs[self.batting] > self.runs[self.fielding]:
            raise ValueError(f"the batting side already leads {self.runs}: nothing to decide")
        if not self.line:
            columns = (self.inning, self.inning - 1 + self.half)
            self.line = [[0] * n for n in columns]
            for team in (AWAY, HOME):
                if self.runs[team]:
                    if not self.line[team]:
                        raise ValueError(f"the home team has {self.runs[team]} runs before "
                                         "its first turn at bat")
                    self.line[team][0] = self.runs[team]

    def walkoff_possible(self) -> bool:
        return True

    def after_half(self) -> None:
        self.finish(self.fielding)


#: Every scoreboard variant by the name it is saved under: core's, and those a ruleset
#: registers (:func:`register_scoreboard`).
VARIANTS: dict[str, type[Scoreboard]] = {
    c.SAVED_AS.name: c for c in (Scoreboard, SuddenDeathScoreboard)}


def register_scoreboard(cls: type[Scoreboard]) -> type[Scoreboard]:
    """Make a ruleset's scoreboard variant loadable: ``Scoreboard.from_dict`` rebuilds a
    saved scoreboard naming ``cls.SAVED_AS.name`` as ``cls``. Called where the class is
    defined (usable as a class decorator; returns ``cls``). Registering the same class
    again does nothing; a name taken by another class, or a class that is not a
    :class:`Scoreboard` saved as a ``"variant"``, raises ``ValueError``."""
    if not (isinstance(cls, type) and issubclass(cls, Scoreboard)) or \
            cls.SAVED_AS.key != "variant" or "SAVED_AS" not in vars(cls):
        raise ValueError(f"register_scoreboard: {cls!r} is not a Scoreboard subclass with its "
                         f"own SAVED_AS = SavedAs('variant', name, ...)")
    known = VARIANTS.get(cls.SAVED_AS.name)
    if known is not None and known is not cls:
        raise ValueError(f"register_scoreboard: the variant name {cls.SAVED_AS.name!r} is "
                         f"{known.__qualname__}'s")
    VARIANTS[cls.SAVED_AS.name] = cls
    return cls


class ScoreboardGame(PlainState):
    """What the AEC base class and agents read of a ruleset's game state, for states that
    keep their :class:`Scoreboard` in ``board`` and each team's place in its batting order
    in ``order`` (a mixin for the rulesets' ``GameState`` dataclasses)."""

    board: Scoreboard
    order: list[int]

    @property
    def over(self) -> bool:
        return self.board.over

    @property
    def winner(self) -> int | None:
        return self.board.winner

    @property
    def truncated(self) -> bool:
        return self.board.truncated

    @property
    def score(self) -> tuple[int, int]:
        return self.board.runs[0], self.board.runs[1]

    @property
    def batter(self) -> int:
        """Lineup slot of the batting team's batter at the plate."""
        return self.order[self.board.half]
