"""The batter's roll and the inputs of a solve.

Each outcome's chance for a batter of a given adjusted average, read off the engine's
result chart and extra-base-hit die (:mod:`dugout.envs.thats_baseball.charts`, 1e and 1h)
roll by roll, and the checks on the lineups, innings and score bound a solve takes.
"""

from __future__ import annotations

import itertools
import os
from typing import Any, Sequence

import numpy as np

from ....envs.core.errors import MAX_INNINGS, show
from ....envs.thats_baseball.cards import AA_MAX, AA_MIN, Team, load_team
from ....envs.thats_baseball.charts import AT_BAT_DICE, EXTRA_BASE_HIT, RESULT_CHART, SIDES, XBH

__all__ = ["OUTCOMES", "OUTCOME_INDEX", "ROLLS", "outcome_counts", "outcome_probabilities",
           "lineup_probabilities", "check_lineup", "check_innings", "check_game", "lineups_of", "MAX_BOUND"]

#: The largest score bound a solve takes. The tables grow with it (about 3.4 MiB and as much
#: solve time per run of bound at 9 innings); past 30 the game value moves by less than 1e-7.
MAX_BOUND = 100

OUTCOMES = ("walk", "strikeout", "fly_out", "ground_out", "single", "double", "triple", "home_run")
OUTCOME_INDEX = {name: i for i, name in enumerate(OUTCOMES)}
#: The ways the batter's roll can fall: the at-bat dice, times the extra-base-hit die.
ROLLS = SIDES ** (AT_BAT_DICE + EXTRA_BASE_HIT.dice)
#: The solver's outcome of each of the engine's (a hit batsman plays as a walk).
_CODE = {"BB": "walk", "HBP": "walk", "SO": "strikeout", "FO": "fly_out", "GO": "ground_out",
         "1B": "single", "2B": "double", "3B": "triple", "HR": "home_run"}


def _results(aa: int):
    """Each way the batter's roll can fall for adjusted average ``aa``: ``(outcome code,
    weight)``, dice in order (the engine's result chart and extra-base-hit die, 1e and 1h)."""
    for faces in itertools.product(range(1, SIDES + 1), repeat=AT_BAT_DICE):
        result = RESULT_CHART[int(aa) + sum(faces)]
        if result == XBH:
            for die in itertools.product(range(1, SIDES + 1), repeat=EXTRA_BASE_HIT.dice):
                yield EXTRA_BASE_HIT.read(sum(die)).code, SIDES ** EXTRA_BASE_HIT.dice
        else:
            yield result.code, 1


def _check_aa(aa: Any) -> None:
    if isinstance(aa, bool) or not isinstance(aa, (int, np.integer)) or not AA_MIN <= aa <= AA_MAX:
        raise ValueError(f"adjusted average must be an int from {AA_MIN} to {AA_MAX}, got {aa!r}")


def outcome_counts(aa: int) -> np.ndarray:
    """Exact chances of :data:`OUTCOMES` for a batter of adjusted average ``aa``, as counts
    out of :data:`ROLLS` (1e, 1h)."""
    _check_aa(aa)
    counts = np.zeros(len(OUTCOMES), dtype=np.int64)
    for code, split in _results(aa):
        counts[OUTCOME_INDEX[_CODE[code]]] += ROLLS // SIDES ** AT_BAT_DICE // split
    return counts


def outcome_probabilities(aa: int) -> np.ndarray:
    """Chance of each of :data:`OUTCOMES` for a batter of adjusted average ``aa`` (1e, 1h),
    summed in floats roll by roll (the solver's tables depend on these exact floats)."""
    _check_aa(aa)
    p = np.zeros(len(OUTCOMES))
    weight = 1 / SIDES ** AT_BAT_DICE
    for code, split in _results(aa):
        p[OUTCOME_INDEX[_CODE[code]]] += weight if split == 1 else weight / split
    return p


def lineup_probabilities(lineup: Sequence[int]) -> np.ndarray:
    """(outcome, batter, 1): outcome chances of each batter, ready to scale a 9 x 9 block."""
    return np.stack([outcome_probabilities(aa) for aa in lineup], axis=1)[:, :, None]


def check_lineup(lineup: Any, which: str) -> tuple[int, ...]:
    """Nine adjusted averages as ints, or a ValueError naming ``which`` lineup and batter."""
    try:
        out = tuple(int(a) for a in lineup)
    except (TypeError, ValueError):
        raise ValueError(f"{which} lineup must be nine adjusted averages, got {lineup!r}") from None
    if len(out) != 9:
        raise ValueError(f"{which} lineup must have nine batters, got {len(out)}")
    for i, a in enumerate(out):
        if not AA_MIN <= a <= AA_MAX:
            raise ValueError(f"{which} lineup: batter {i + 1} has adjusted average {a}, "
                             f"outside {AA_MIN}..{AA_MAX}")
    return out


def _whole(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_innings(innings: Any) -> int:
    """The scheduled innings of a game the solver plays: 1 to ``MAX_INNINGS`` (9, as every
    ruleset takes), or a ValueError naming the limit. The tables grow with the innings, so
    an absurd count is refused here rather than met as a huge allocation."""
    if not _whole(innings) or not 1 <= innings <= MAX_INNINGS:
        raise ValueError(f"innings must be an int from 1 to {MAX_INNINGS} (MAX_INNINGS, a "
                         f"regulation game), got {show(innings)}")
    return int(innings)


def check_game(innings: Any, bound: Any) -> None:
    """The scheduled innings (1 to ``MAX_INNINGS``) and the score bound (1 to
    :data:`MAX_BOUND`) of a solve."""
    check_innings(innings)
    if not _whole(bound) or not 1 <= bound <= MAX_BOUND:
        raise ValueError(f"the score bound must be an int from 1 to {MAX_BOUND}, got {show(bound)}")


def lineups_of(away: Any, home: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Lineups from adjusted averages or anything ``load_team`` accepts (a name, a file...)."""
    def one(x: Any, which: str) -> tuple[int, ...]:
        if isinstance(x, (str, os.PathLike, Team, dict)):
            return load_team(x).aas
        return check_lineup(x, which)
    return one(away, "away"), one(home, "home")
