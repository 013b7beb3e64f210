"""Exact evaluation: any two managers' win probability, the gap to optimal, the score
bound's effect, and the expected runs of the chain under a fixed policy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ....envs.thats_baseball import rules
from .chart import check_lineup, lineup_probabilities
from .graph import GRAPH, PASS, ROLL
from .induction import Optimal, Plan, Rule, TableChooser, Uniform, game_pass, half_pass
from .policy import PolicyTable, policy_table
from .solution import DEFAULT_BOUND, Solution, solve

__all__ = ["Side", "evaluate", "Gap", "gap_to_optimal", "bound_effect", "expected_runs",
           "REFERENCE_RULE"]

#: The issue's fixed policy: no steals, no pickoffs, no double-play rolls, always roll for
#: errors and tag-ups (``dp_runner`` never arises under it).
REFERENCE_RULE = {"steal": PASS, "pickoff": PASS, "double_play": PASS, "error_roll": ROLL,
                  "tag_up": ROLL, "dp_runner": rules.RUNNER_ON_THIRD}


# -- evaluating pairs of managers ------------------------------------------------------------------
Side = Any     # "optimal" (the solver's policy), "best-response", a PolicyTable, or an agent


def _chooser(side: Side, seat: int, solution: Solution):
    if isinstance(side, str):
        if side == "optimal":
            return TableChooser(PolicyTable("optimal", seat, actions=solution.policy))
        if side == "best-response":
            return Optimal(seat)
        raise ValueError(f"unknown side {side!r}: use 'optimal', 'best-response', a PolicyTable "
                         f"or an agent")
    if isinstance(side, PolicyTable):
        if side.seat != seat:
            raise ValueError(f"the policy table of {side.name!r} is for seat {side.seat}, not {seat}")
        return Uniform() if side.uniform else TableChooser(side)
    if isinstance(side, Mapping):
        return Rule(side)
    return _chooser(policy_table(side, solution, seat), seat, solution)


def evaluate(solution: Solution, away: Side = "optimal", home: Side = "optimal",
             keep_start: bool = False) -> float | tuple[float, np.ndarray]:
    """The home team's exact chance of winning when ``away`` and ``home`` manage.

    Each side is ``"optimal"`` (the solved policy), ``"best-response"`` (the best reply
    to the other side), a :class:`PolicyTable`, a dict decision kind -> action (a fixed
    rule), or an agent (asked at every decision state of its seat). With
    ``keep_start``, also the start values of every plate appearance (as
    :attr:`Solution.start`).
    """
    s = solution
    choosers = (_chooser(away, 0, s), _chooser(home, 1, s))
    start = np.full((s.innings + 1, 2, 2 * s.bound + 1, 3, 8, 9, 9), np.nan) if keep_start else None

    def keep(layer: int, half: int, V: np.ndarray) -> None:
        if start is not None:
            start[layer, half] = V[:, GRAPH.start]

    top, _ = game_pass(Plan(s.lineups, s.innings, s.bound, choosers), keep)
    value = float(top[s.bound, 0, 0])
    return (value, start) if keep_start else value


@dataclass
class Gap:
    """How much win probability a manager gives away against the optimal manager."""
    name: str
    away: float          # its win probability as away vs the optimal home manager
    home: float
    gap_away: float      # the optimal away manager's win probability minus ``away``
    gap_home: float

    @property
    def gap(self) -> float:
        return (self.gap_away + self.gap_home) / 2


def gap_to_optimal(solution: Solution, agent: Any = None, tables: tuple | None = None) -> Gap:
    """The agent's gap to optimal in each seat (``tables``: its two PolicyTables, if made)."""
    if tables is None:
        tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
    v = solution.game_value
    as_away = 1.0 - evaluate(solution, tables[0], "optimal")
    as_home = evaluate(solution, "optimal", tables[1])
    return Gap(tables[0].name, as_away, as_home, (1.0 - v) - as_away, v - as_home)


def bound_effect(away: Any, home: Any, innings: int = 9, bounds: tuple[int, int] = (DEFAULT_BOUND, 30)
                 ) -> dict[str, float]:
    """How much the score bound moves the values: solve with two bounds and compare.

    Returns the change of the game value and the largest change over every start state
    whose difference is within half the smaller bound.
    """
    small, large = (solve(away, home, innings, b) for b in sorted(bounds))
    k = small.bound // 2
    a = small.start[:, :, small.bound - k:small.bound + k + 1]
    b = large.start[:, :, large.bound - k:large.bound + k + 1]
    both = ~(np.isnan(a) | np.isnan(b))
    return {"game_value": abs(small.game_value - large.game_value),
            "max_within_half_bound": float(np.abs(a - b)[both].max()),
            "bounds": tuple(sorted(bounds))}


# -- expected runs under a fixed policy (the test of the chain) -------------------------------------
def expected_runs(lineup: Sequence[int], leadoff: int = 0, rule: Mapping[str, int] = REFERENCE_RULE,
                  max_runs: int = 60) -> float:
    """Mean runs in a half inning from its start, the solver's chain with both managers
    following ``rule``: the chain's end value is the number of runs scored."""
    lineup = check_lineup(lineup, "batting")
    if not 0 <= leadoff <= 8:
        raise ValueError(f"leadoff must be a lineup slot 0..8, got {leadoff!r}")
    nd = max_runs + 1
    end = np.broadcast_to(np.arange(nd, dtype=float)[:, None, None], (nd, 9, 9))
    choosers = (Rule(rule), Rule(rule))
    V = half_pass(0, 1, lineup_probabilities(lineup), +1, end, lambda dj: float(dj),
                  list(range(nd - 1, -1, -1)), choosers)
    return float(V[0, GRAPH.start[0, 0], leadoff, 0])
