"""The solved game: :class:`Solution`, :func:`solve` and :func:`cached_solution`."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from ....envs.thats_baseball.view import ThatsBaseballView
from ...value_tables import inning_row, lead_index
from .chart import check_game, check_lineup, lineups_of
from .graph import GRAPH, N_DECISIONS, PASS, decision_key
from .induction import Optimal, Plan, d_orders, game_pass
from ..files import load_or_solve
from .storage import FORMAT_VERSION, RULES_VERSION, cache_path, read_tables, write_tables

__all__ = ["Solution", "solve", "cached_solution", "DEFAULT_BOUND"]

DEFAULT_BOUND = 20


@dataclass
class Solution:
    """The solved game for two lineups: values and the optimal policy at every state.

    ``start[layer, half, d + bound, outs, bases, batter, fielding's batter]``: home win
    probability at the start of a plate appearance; ``values`` and ``policy``
    ``[layer, half, d + bound, decision, batter, fielding's batter]``: at each decision
    node (``GRAPH.decisions``), its value and the optimal action (-1 where not solved:
    a difference that cannot occur there). Layer ``innings`` is every extra inning.
    """
    lineups: tuple[tuple[int, ...], tuple[int, ...]]
    innings: int
    bound: int
    start: np.ndarray
    values: np.ndarray
    policy: np.ndarray
    extra_tie: np.ndarray           # X[away batter, home batter]: a tied extra inning
    seconds: float = 0.0
    iterations: int = 0
    rules_version: str = RULES_VERSION

    @property
    def game_value(self) -> float:
        """The home team's chance of winning from the first pitch, both managers optimal."""
        return float(self.start[0, 0, self.bound, 0, 0, 0, 0])

    @property
    def nbytes(self) -> int:
        return self.start.nbytes + self.values.nbytes + self.policy.nbytes + self.extra_tie.nbytes

    @property
    def state_count(self) -> int:
        """Solved states: every (inning layer, half, difference, batters, node) computed."""
        return int(self._solved_nodes() * 81)

    @property
    def decision_state_count(self) -> int:
        return int((self.policy >= 0).sum())

    def _solved_nodes(self) -> int:
        count = 0
        for layer in range(self.innings + 1):
            for half in (0, 1):
                last, extra = layer >= self.innings - 1, layer >= self.innings
                count += len(d_orders(self.bound, half, extra, last)) * len(GRAPH.keys)
        return count

    # -- reading it --------------------------------------------------------------------------
    def value_at(self, inning: int, half: int, outs: int, bases: int | Sequence[bool],
                 score: tuple[int, int], order: tuple[int, int]) -> float:
        """Home win probability at the start of a plate appearance (before any steal)."""
        b = bases if isinstance(bases, (int, np.integer)) else sum(1 << i for i in range(3) if bases[i])
        if half not in (0, 1) or not 0 <= outs <= 2 or not 0 <= b <= 7:
            raise ValueError(f"no such situation: half {half}, {outs} out, bases {b}")
        d = score[1] - score[0]
        if half == 1 and inning >= self.innings and d > 0:
            return 1.0
        if abs(d) > self.bound:
            return 1.0 if d > 0 else 0.0
        row, di = inning_row(inning, self.innings), lead_index(d, self.bound)
        return float(self.start[row, half, di, outs, b, order[half], order[1 - half]])

    def _locate(self, view: ThatsBaseballView) -> tuple:
        if tuple(map(tuple, view.lineups)) != self.lineups or view.innings != self.innings:
            raise ValueError(f"this solution is for lineups {self.lineups} over {self.innings} "
                             f"innings, not {view.lineups} over {view.innings}")
        if view.decision is None:
            raise ValueError("the view has no decision pending for its manager")
        key = decision_key(view)
        j = GRAPH.decision_index.get(key)
        if j is None or GRAPH.legal[j] != tuple(view.legal):
            raise RuntimeError(f"the solver's model has no {view.decision!r} decision with "
                               f"legal actions {view.legal} at {key}: engine and solver disagree")
        h = view.half
        d = view.score[1] - view.score[0]
        return (inning_row(view.inning, self.innings), h, lead_index(d, self.bound), j,
                view.order[h], view.order[1 - h])

    def action(self, view: ThatsBaseballView) -> int:
        """The optimal action at the view's decision."""
        a = int(self.policy[self._locate(view)])
        return a if a >= 0 else (PASS if PASS in view.legal else view.legal[0])

    def decision_value(self, view: ThatsBaseballView) -> float:
        """Home win probability at the view's decision, optimal play from here."""
        return float(self.values[self._locate(view)])

    # -- saving ----------------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        return {"format": FORMAT_VERSION, "rules_version": self.rules_version,
                "lineups": [list(x) for x in self.lineups], "innings": self.innings,
                "bound": self.bound, "seconds": self.seconds, "iterations": self.iterations}

    def save(self, path: str | os.PathLike) -> None:
        """Write the tables (compressed npz with the lineups and rules version), atomically."""
        write_tables(path, self.meta(), {"start": self.start, "values": self.values,
                                         "policy": self.policy, "extra_tie": self.extra_tie})

    @classmethod
    def load(cls, path: str | os.PathLike, lineups: Sequence[Sequence[int]] | None = None,
             innings: int | None = None, bound: int | None = None) -> Solution:
        """Read saved tables; refuse those of another rules version or, when given, other
        lineups, innings or bound."""
        meta, arrays = read_tables(path, lineups, innings, bound)
        return cls(lineups=tuple(tuple(x) for x in meta["lineups"]), innings=meta["innings"],
                   bound=meta["bound"], seconds=meta["seconds"], iterations=meta["iterations"],
                   **arrays)


def _empty_tables(innings: int, bound: int, fill_policy: bool = True):
    shape = (innings + 1, 2, 2 * bound + 1)
    start = np.full(shape + (3, 8, 9, 9), np.nan)
    values = np.full(shape + (N_DECISIONS, 9, 9), np.nan)
    policy = np.full(shape + (N_DECISIONS, 9, 9), -1, dtype=np.int8) if fill_policy else None
    return start, values, policy


def solve(away: Any, home: Any, innings: int = 9, bound: int = DEFAULT_BOUND,
          tol: float = 1e-13) -> Solution:
    """Solve the game between two lineups (adjusted averages, or team names/files)."""
    check_game(innings, bound)
    lineups = lineups_of(away, home)
    t0 = time.perf_counter()
    start, values, policy = _empty_tables(innings, bound)
    choosers = (Optimal(0, policy), Optimal(1, policy))

    def keep(layer: int, half: int, V: np.ndarray) -> None:
        start[layer, half] = V[:, GRAPH.start]
        values[layer, half] = V[:, GRAPH.decisions]

    _, iterations = game_pass(Plan(lineups, innings, bound, choosers, tol), keep)
    x = start[innings, 0, bound, 0, 0]
    return Solution(lineups, innings, bound, start, values, policy, x.copy(),
                    seconds=time.perf_counter() - t0, iterations=iterations)


@lru_cache(maxsize=4)
def cached_solution(lineups: tuple[tuple[int, ...], tuple[int, ...]], innings: int = 9,
                    bound: int = DEFAULT_BOUND, use_disk: bool = True) -> Solution:
    """The solution for two lineups, kept in memory and on disk (``$DUGOUT_CACHE``)."""
    check_game(innings, bound)
    lineups = (check_lineup(lineups[0], "away"), check_lineup(lineups[1], "home"))
    return load_or_solve(cache_path([list(x) for x in lineups], innings, bound),
                         lambda path: Solution.load(path, lineups, innings, bound),
                         lambda: solve(lineups[0], lineups[1], innings, bound),
                         lambda solution, path: solution.save(path), use_disk)
