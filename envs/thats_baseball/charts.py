"""The rulebook's charts: every number That's Baseball's dice are read against, in one place.

The engine (:mod:`.rules`) rolls against these tables and nothing else; the batched engine
(:mod:`dugout.vector.thats_baseball`), the exact solver (:mod:`dugout.agents.solvers.thats_baseball`)
and the heuristic's odds (:mod:`dugout.agents.thats_baseball`) read them from here (or, for how
the runners move, run the engine's own functions), so a chart changed here changes every one
of them. ``tests/test_thats_baseball_charts.py`` derives what each of them uses from the
engine's rule functions, die by die, and compares exactly.

* :data:`RESULT_CHART` (1e): the batter's adjusted average plus :data:`AT_BAT_DICE` dice;
  ``XBH`` (29, 38, 43) rolls :data:`EXTRA_BASE_HIT` (1h).
* One :class:`DiceChart` per other roll: :data:`STEAL` (1i), :data:`PICKOFF` (1j),
  :data:`ERROR` (1m), :data:`DOUBLE_PLAY` (1k), :data:`TAG_UP` (1l).

A chart lists its results in a fixed order; the solver sums a roll's results in that order
(its float values depend on it), so reordering a chart changes the solver's last digits.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core.scorebook import (DOUBLE, FLY_OUT, GROUND_OUT, HIT_BY_PITCH, HOME_RUN, SINGLE,
                              STRIKEOUT, TRIPLE, WALK, Outcome)
from .cards import AA_MAX, AA_MIN

__all__ = ["SIDES", "XBH", "RESULT_CHART", "AT_BAT_PURPOSE", "AT_BAT_DICE", "DiceChart",
           "EXTRA_BASE_HIT", "STEAL", "PICKOFF", "ERROR", "DOUBLE_PLAY", "TAG_UP", "CHARTS",
           "PURPOSES", "ways"]

#: Every die has six faces.
SIDES = 6


def ways(dice: int) -> dict[int, int]:
    """How many of the ``SIDES ** dice`` ways ``dice`` dice can fall give each total."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, SIDES + 1), repeat=dice):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return counts


@dataclass(frozen=True)
class DiceChart:
    """A roll of ``dice`` dice for ``purpose`` (its key in the game's dice), read as one of
    ``results``: each result with the totals that give it, in the order listed. Every total
    the dice can make gives exactly one result."""

    purpose: str
    dice: int
    results: tuple[tuple[Any, tuple[int, ...]], ...]
    _by_total: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_total = {t: result for result, totals in self.results for t in totals}
        listed = sum(len(totals) for _, totals in self.results)
        if listed != len(by_total) or set(by_total) != set(ways(self.dice)):
            raise ValueError(f"the {self.purpose!r} chart must give each total of {self.dice} "
                             f"dice exactly one result, got {self.results}")
        object.__setattr__(self, "_by_total", by_total)

    def read(self, total: int) -> Any:
        """The result of a roll totalling ``total``."""
        return self._by_total[total]

    __getitem__ = read

    def roll(self, dice: Any) -> tuple[Any, int]:
        """Roll ``dice`` (the game's :class:`~dugout.envs.core.dice.Dice`) for this chart:
        ``(result, total)``."""
        total = dice.roll(self.purpose, dice=self.dice)
        return self._by_total[total], total

    def totals(self, result: Any) -> tuple[int, ...]:
        """The totals that give ``result``."""
        for r, totals in self.results:
            if r == result:
                return totals
        raise KeyError(f"the {self.purpose!r} chart has no result {result!r}")

    def chance(self, result: Any) -> Fraction:
        """The exact chance of ``result``."""
        w = ways(self.dice)
        return Fraction(sum(w[t] for t in self.totals(result)), SIDES ** self.dice)


XBH = "XBH"
#: 1e: the result chart, read at the batter's adjusted average plus two dice.
RESULT_CHART: dict[int, Outcome | str] = {
    26: HIT_BY_PITCH, 27: STRIKEOUT, 28: FLY_OUT, 29: XBH, 30: SINGLE, 31: WALK, 32: SINGLE,
    33: GROUND_OUT, 34: STRIKEOUT, 35: FLY_OUT, 36: GROUND_OUT, 37: SINGLE, 38: XBH,
    39: STRIKEOUT, 40: WALK, 41: FLY_OUT, 42: HIT_BY_PITCH, 43: XBH, 44: HOME_RUN,
}
AT_BAT_PURPOSE, AT_BAT_DICE = "at_bat", 2
if set(RESULT_CHART) != {aa + t for aa in range(AA_MIN, AA_MAX + 1) for t in ways(AT_BAT_DICE)}:
    raise ValueError("the result chart must cover every adjusted average plus every roll")

#: 1h: one die decides the extra-base hit.
EXTRA_BASE_HIT = DiceChart("extra_base_hit", 1, ((DOUBLE, (1, 2, 3, 4)), (TRIPLE, (5,)),
                                                 (HOME_RUN, (6,))))
#: 1i: a steal is caught on 1-3 (an out) and safe on 4-6 (the runner takes the next base).
STEAL = DiceChart("steal", 1, (("caught", (1, 2, 3)), ("safe", (4, 5, 6))))
#: 1j: a pickoff throw retires the runner on 12 and is thrown away on 2 (the runner moves up).
PICKOFF = DiceChart("pickoff", 2, (("picked_off", (12,)), ("error", (2,)),
                                   ("safe", tuple(range(3, 12)))))
#: 1m: the error roll on a ground out: 12 is an error (the batter on, every runner up one).
ERROR = DiceChart("error", 2, (("error", (12,)), ("no_error", tuple(range(2, 12)))))
#: 1k: the double-play roll: 1-3 missed (the runner from first to second), 4-6 turned.
DOUBLE_PLAY = DiceChart("double_play", 1, (("missed", (1, 2, 3)), ("turned", (4, 5, 6))))
#: 1l: a tag-up: 1-4 the runner holds (he is not out), 5-6 he advances a base.
TAG_UP = DiceChart("tag_up", 1, (("held", (1, 2, 3, 4)), ("advanced", (5, 6))))

#: Every chart but the result chart, by its dice purpose.
CHARTS = {c.purpose: c for c in (EXTRA_BASE_HIT, STEAL, PICKOFF, ERROR, DOUBLE_PLAY, TAG_UP)}
#: Every purpose a That's Baseball die is rolled for (RULES.md, "Dice and seeding").
PURPOSES = (AT_BAT_PURPOSE,) + tuple(CHARTS)
