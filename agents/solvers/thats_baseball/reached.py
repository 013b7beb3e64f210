"""A search manager's exact gap, asked where games go.

:func:`~.policy.policy_table` asks a manager at every decision state of its seat: about 3.2
million for nine innings and bound 20, which a search manager answers at tens of
milliseconds each (days). So a search is asked at the states that games reach
(:func:`reached_states`: every decision state of its seat met in ``games`` seeded games of
the heuristic, the search's own fallback, against the optimal manager) and plays as the
heuristic everywhere else (:func:`reached_table`). The table is then evaluated exactly like
any other: the gap reported is the exact gap of *that* manager, the search where games go
and the heuristic elsewhere. How often the two could differ is measured on ``holdout``
further games (their seeds follow the first ones'): the share of the seat's decisions in
them that fall on a state that was not asked (:attr:`Reached.holdout_missed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ....envs.thats_baseball import rules
from ....envs.thats_baseball.view import ThatsBaseballView, make_view
from .agent import SolverAgent
from .graph import GRAPH, decision_key
from .policy import PolicyTable, policy_table, table_shape
from .situation import situation
from .solution import Solution

__all__ = ["Reached", "reached_states", "reached_table", "state_index"]


@dataclass
class Reached:
    """The decision states of ``seat`` met in ``games`` games (``states``, a mask of
    :func:`~.policy.table_shape`), and the share of ``seat``'s decisions in ``holdout``
    further games that fell outside them."""
    seat: int
    games: int
    states: np.ndarray
    holdout: int = 0
    holdout_missed: float = float("nan")

    @property
    def count(self) -> int:
        return int(self.states.sum())


def state_index(solution: Solution, view: ThatsBaseballView) -> tuple[int, ...] | None:
    """The table index of a decision view (None beyond the score bound): the one
    :func:`~.policy.policy_table` asks with the view's situation (extra innings share the
    last layer)."""
    d = view.score[1] - view.score[0]
    if abs(d) > solution.bound:
        return None
    half = view.half
    return (min(view.inning - 1, solution.innings), half, d + solution.bound,
            GRAPH.decision_index[decision_key(view)], view.order[half], view.order[1 - half])


def _play(solution: Solution, seat: int, managers, seed: int, on_state) -> None:
    """One game from the first pitch (dice ``seed``); ``on_state(index)`` at each of
    ``seat``'s decisions."""
    state = situation(solution.lineups, seed, innings=solution.innings)
    while not state.over:
        d = state.pending
        view = make_view(state, d.actor)
        if d.actor == seat:
            where = state_index(solution, view)
            if where is not None:
                on_state(where)
        rules.apply_action(state, managers[d.actor].act(None, view))


def reached_states(solution: Solution, seat: int, games: int = 200, holdout: int = 200,
                   seed: int = 0, manager: Any = None) -> Reached:
    """The decision states of ``seat`` met in ``games`` games of ``manager`` (default the
    heuristic) in that seat against the optimal manager, dice seeded ``seed``, ``seed + 1``,
    ...; and the share of the seat's decisions in the next ``holdout`` games that fell on
    another."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 (away) or 1 (home), got {seat!r}")
    if games < 1 or holdout < 0:
        raise ValueError(f"games must be positive and holdout at least 0, got {games}, {holdout}")
    if manager is None:
        from ...thats_baseball import ThatsBaseballHeuristic
        manager = ThatsBaseballHeuristic()
    optimal = SolverAgent(solution)
    managers = (manager, optimal) if seat == 0 else (optimal, manager)
    mask = np.zeros(table_shape(solution), dtype=bool)

    def mark(where):
        mask[where] = True

    for g in range(games):
        _play(solution, seat, managers, seed + g, mark)
    met: list[bool] = []
    for g in range(games, games + holdout):
        _play(solution, seat, managers, seed + g, lambda where: met.append(not mask[where]))
    return Reached(seat, games, mask, holdout, float(np.mean(met)) if met else float("nan"))


def reached_table(agent: Any, solution: Solution, base: PolicyTable, reached: Reached) -> PolicyTable:
    """``agent``'s table: asked at ``reached``'s states, ``base`` (the heuristic's table of
    the same seat) everywhere else."""
    if base.seat != reached.seat:
        raise ValueError(f"the base table is for seat {base.seat}, the states for seat {reached.seat}")
    return policy_table(agent, solution, reached.seat, base=base, states=reached.states)
