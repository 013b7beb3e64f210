"""Innings, outs, bases and score: the part of a baseball game every ruleset shares.

The scoreboard knows when a game ends:

* the home team bats last; once it leads after the top of the last scheduled inning
  (or any extra inning), the bottom half is not played;
* a game tied after the last scheduled inning goes to extra innings until a winner;
* in the bottom of the last inning or later the game ends the moment the home team
  takes the lead (walk-off). Only the runs needed to win count, unless the winning
  hit is a home run, on which every runner and the batter score (official scoring,
  MLB rule 9.06(f) and 5.08(b));
* an optional ``max_innings`` cuts off a game still tied after that inning: the game
  is *truncated* and has no winner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .bases import EMPTY_BASES, Bases

__all__ = ["Scoreboard", "ScoreboardGame", "AWAY", "HOME"]

AWAY, HOME = 0, 1


@dataclass
class Scoreboard:
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
    def walkoff_possible(self) -> bool:
        return self.half == 1 and self.inning >= self.innings

    def score(self, runners: list, home_run: bool = False) -> list:
        """Score ``runners`` (lead runner first) for the batting side; return those who count.

        In a walk-off only the runs needed to win count, except on a home run.
        """
        if not runners:
            return runners
        if self.walkoff_possible():
            need = self.runs[0] - self.runs[1] + 1
            if not home_run and len(runners) > need:
                runners = runners[:need]
        n = len(runners)
        self.runs[self.half] += n
        self.line[self.half][-1] += n
        if self.walkoff_possible() and self.runs[1] > self.runs[0]:
            self.over = True
            self.winner = 1
        return runners

    # -- end of a half inning --------------------------------------------------------
    def end_half(self) -> None:
        """The side is retired: clear the bases and move on, or end the game."""
        self.outs = 0
        self.bases = EMPTY_BASES
        last = self.inning >= self.innings
        if self.half == 0:
            if last and self.runs[1] > self.runs[0]:
                self.over, self.winner = True, 1      # home team need not bat
                return
            self.half = 1
            self.line[1].append(0)
            return
        if last and self.runs[0] != self.runs[1]:
            self.over = True
            self.winner = 0 if self.runs[0] > self.runs[1] else 1
            return
        if self.max_innings is not None and self.inning >= self.max_innings:
            self.over = True
            self.truncated = True
            return
        self.inning += 1
        self.half = 0
        self.line[0].append(0)

    # -- copying and saving ----------------------------------------------------------
    def clone(self) -> Scoreboard:
        new = Scoreboard.__new__(Scoreboard)
        new.__dict__.update(self.__dict__)
        new.runs = list(self.runs)
        new.line = [list(self.line[0]), list(self.line[1])]
        return new

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["bases"] = list(self.bases)
        d["runs"] = list(self.runs)
        d["line"] = [list(self.line[0]), list(self.line[1])]
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scoreboard:
        d = dict(data)
        d["bases"] = tuple(d["bases"])
        return cls(**d)


class ScoreboardGame:
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

    def _copy_shared(self):
        """A copy sharing nothing mutable that every ruleset keeps alike (scoreboard, dice,
        box score, play log, batting order); a ruleset's ``clone`` copies its own lists."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.board = self.board.clone()
        new.dice = self.dice.clone()
        new.box = self.box.clone()
        new.log = self.log.clone()
        new.order = list(self.order)
        return new
