"""A search manager's exact exploitability, asked where duels go.

:func:`~.policy.policy_table` asks a manager at about 43,000 decisions of each seat (the
default teams), which a search manager answers at about a tenth of a second each (over two
hours on one core at ``sims=16``). So a search is asked at the decisions that duels reach
(:func:`reached_states`: every stare-down, relief and pitching-change decision of its seat
met in ``games`` seeded duels of the heuristic, the search's own fallback, against the
equilibrium manager) and plays as the heuristic everywhere else (:func:`reached_table`).
The table is then evaluated exactly like any other: the numbers reported are the exact
values of *that* manager, the search where duels go and the heuristic elsewhere. How often
the two could differ is measured on ``holdout`` further duels (their seeds follow the first
ones'): the share of the seat's asked-kind decisions in them that fall on a state not asked
(:attr:`Reached.holdout_missed`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ....envs.bottom_ninth import rules
from ....envs.bottom_ninth.view import view_of
from .agent import EquilibriumAgent
from .evaluation import ASKED_KINDS
from .policy import PolicyTable, policy_table, where_of
from .situation import start_state

__all__ = ["Reached", "reached_states", "reached_table"]


@dataclass
class Reached:
    """The decisions of ``seat`` met in ``games`` duels (``states``: :func:`~.policy.where_of`
    keys), and the share of ``seat``'s decisions in ``holdout`` further duels that fell
    outside them."""
    seat: int
    games: int
    states: set = field(default_factory=set)
    holdout: int = 0
    holdout_missed: float = float("nan")

    @property
    def count(self) -> int:
        return len(self.states)


def _play(solution, seat: int, managers, seed: int, on_state) -> None:
    """One duel from its first pitch (dice ``seed``); ``on_state(where)`` at each of
    ``seat``'s asked decisions."""
    state = start_state(solution.duel, seed)
    while not state.board.over:
        d = state.pending
        view = view_of(state, d.actor)
        if d.actor == seat and view.decision in ASKED_KINDS:
            on_state(where_of(solution, view))
        rules.apply_action(state, managers[d.actor].act(None, view))


def reached_states(solution, seat: int, games: int = 1000, holdout: int = 1000, seed: int = 0,
                   manager: Any = None) -> Reached:
    """The asked decisions of ``seat`` met in ``games`` duels of ``manager`` (default the
    heuristic) in that seat against the equilibrium manager, dice seeded ``seed``,
    ``seed + 1``, ...; and the share of the seat's decisions in the next ``holdout`` duels
    that fell on another."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 (the pitcher's manager) or 1 (the batter's), got {seat!r}")
    if games < 1 or holdout < 0:
        raise ValueError(f"games must be positive and holdout at least 0, got {games}, {holdout}")
    if manager is None:
        from ...bottom_ninth import BottomNinthHeuristic
        manager = BottomNinthHeuristic()
    equilibrium = EquilibriumAgent(solution, seed=seed)
    managers = (manager, equilibrium) if seat == 0 else (equilibrium, manager)
    for m in managers:
        m.reset(seed)
    states: set = set()
    for g in range(games):
        _play(solution, seat, managers, seed + g, states.add)
    met: list[bool] = []
    for g in range(games, games + holdout):
        _play(solution, seat, managers, seed + g, lambda where: met.append(where not in states))
    return Reached(seat, games, states, holdout, float(np.mean(met)) if met else float("nan"))


def reached_table(agent: Any, solution, base: PolicyTable, reached: Reached) -> PolicyTable:
    """``agent``'s table: asked at ``reached``'s decisions, ``base`` (the heuristic's table
    of the same seat) everywhere else."""
    if base.seat != reached.seat:
        raise ValueError(f"the base table is for seat {base.seat}, the states for seat {reached.seat}")
    return policy_table(agent, solution, reached.seat, base=base, states=reached.states)
