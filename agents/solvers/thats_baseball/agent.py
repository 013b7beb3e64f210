"""The optimal manager: :class:`SolverAgent` looks each view up in the solved tables."""

from __future__ import annotations

from ....envs.thats_baseball.view import ThatsBaseballView
from ...base import ViewAgent
from .chart import check_game
from .solution import DEFAULT_BOUND, Solution, cached_solution

__all__ = ["SolverAgent"]


class SolverAgent(ViewAgent):
    """Plays optimally by looking the view up in the solved tables; either seat.

    Without a ``solution`` it solves (or loads from the cache) the game of the view's
    lineups and innings at its first decision, and again for another game; a given
    ``solution`` is kept and a view of another game is refused. A lead beyond the
    table's bound is read at the bound.
    """

    name = "solver"
    VIEW = ThatsBaseballView

    def __init__(self, solution: Solution | None = None, bound: int = DEFAULT_BOUND):
        if solution is not None and not isinstance(solution, Solution):
            raise TypeError(f"solution must be a Solution, got {type(solution).__name__}")
        check_game(1, bound)
        self.solution = solution
        self.fixed = solution is not None
        self.bound = solution.bound if solution is not None else bound

    def solution_for(self, view: ThatsBaseballView) -> Solution:
        s = self.solution
        if self.fixed:
            return s
        if s is None or s.lineups != tuple(map(tuple, view.lineups)) or s.innings != view.innings:
            s = cached_solution(tuple(map(tuple, view.lineups)), view.innings, self.bound)
            self.solution = s
        return s

    def decide(self, view: ThatsBaseballView) -> int:
        return self.solution_for(view).action(view)
