"""Exact evaluation: any two managers' value, and a manager's exploitability.

A manager is evaluated on its **stare-down, relief and pitching-change** decisions, asked
of it at every such state of its seat (:func:`~.policy.policy_table`); at its ability
decisions it is taken to play as the equilibrium manager does (the choice that is best by
the solved values). Asking an agent at every ability decision would mean every roll of the
dice at every state (about 10^8 decisions for the default teams, over a thousand times the
stare-downs), which no Python agent answers in reasonable time; the ability choices are
tactical (the best use of a die once it shows), the stare-down and the bullpen are where a
manager's strategy lives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .induction import Play, backward_pass
from .policy import PolicyTable, policy_table

__all__ = ["evaluate", "Exploitability", "exploitability", "AsEvaluated", "ASKED_KINDS"]

#: The decisions an evaluated manager is asked at; the others are the equilibrium's.
ASKED_KINDS = ("pitch", "guess", "relief", "pitching_change")

Side = Any        # "equilibrium", "best-response", a PolicyTable, or an agent


def _play(side: Side, seat: int, solution) -> Play:
    if isinstance(side, str):
        if side == "equilibrium":
            return Play("solution")
        if side == "best-response":
            return Play("optimal")
        raise ValueError(f"unknown side {side!r}: use 'equilibrium', 'best-response', a "
                         f"PolicyTable or an agent")
    if isinstance(side, PolicyTable):
        if side.seat != seat:
            raise ValueError(f"the policy table of {side.name!r} is for seat {side.seat}, not {seat}")
        return Play("table", side)
    return Play("table", policy_table(side, solution, seat))


def evaluate(solution, pitcher: Side = "equilibrium", batter: Side = "equilibrium") -> float:
    """The batting side's exact chance of winning the duel from its first pitch when
    ``pitcher`` (away) and ``batter`` (home) manage: each ``"equilibrium"`` (the solved
    managers' play), ``"best-response"`` (the best reply to the other side), a
    :class:`PolicyTable`, or an agent (asked at every decision state of its seat)."""
    plays = (_play(pitcher, 0, solution), _play(batter, 1, solution))
    if plays[0].kind == plays[1].kind == "optimal":
        return solution.game_value
    result = backward_pass(solution.duel, plays[0], plays[1], solution=solution)
    d = solution.duel
    return float(result.values[d.index(0, 0, 0, 0, 0, 0, 0, 0)])


@dataclass
class Exploitability:
    """A manager's exact results in each seat, in the batting side's win probability.

    ``pitcher_vs_equilibrium``/``pitcher_vs_best``: the batting side's chance against
    the manager pitching, when the equilibrium manager bats or a best response does;
    ``batter_vs_equilibrium``/``batter_vs_best`` likewise with the manager batting.
    ``game_value`` is the duel's value. Exploitability in a seat is what a best response
    gains over the game value (never negative)."""
    name: str
    game_value: float
    pitcher_vs_equilibrium: float
    pitcher_vs_best: float
    batter_vs_equilibrium: float
    batter_vs_best: float

    @property
    def as_pitcher(self) -> float:
        return self.pitcher_vs_best - self.game_value

    @property
    def as_batter(self) -> float:
        return self.game_value - self.batter_vs_best

    @property
    def mean(self) -> float:
        return (self.as_pitcher + self.as_batter) / 2


def exploitability(solution, agent: Any = None, tables: tuple[PolicyTable, PolicyTable] | None = None
                   ) -> Exploitability:
    """``agent``'s value against the equilibrium manager and against its best response,
    in both seats (``tables``: its two policy tables, if already made)."""
    if tables is None:
        tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
    return Exploitability(
        tables[0].name, solution.game_value,
        evaluate(solution, tables[0], "equilibrium"), evaluate(solution, tables[0], "best-response"),
        evaluate(solution, "equilibrium", tables[1]), evaluate(solution, "best-response", tables[1]))


class AsEvaluated:
    """The manager that :func:`evaluate` values when given ``agent``: ``agent`` at the
    stare-down, relief and pitching-change decisions (:data:`ASKED_KINDS`), the
    equilibrium manager of ``solution`` at the ability decisions. Play it in games to
    check an exact evaluation against simulation."""

    def __init__(self, agent: Any, solution, seed: int | None = None):
        from .agent import EquilibriumAgent
        self.agent = agent
        self.equilibrium = EquilibriumAgent(solution, seed=seed)
        self.name = f"{getattr(agent, 'name', type(agent).__name__)} (abilities: equilibrium)"
        self.needs_view = True

    def reset(self, seed: int | None = None) -> None:
        self.equilibrium.reset(seed)
        if callable(getattr(self.agent, "reset", None)):
            self.agent.reset(seed)

    def act(self, observation: Mapping[str, Any], view: Any = None) -> int:
        if view is None:
            raise ValueError(f"{self.name}: act() needs the manager's view")
        if view.decision in ASKED_KINDS:
            if getattr(self.agent, "needs_view", True):
                return self.agent.act(observation, view)
            from ....envs.bottom_ninth.env import encode_view
            return self.agent.act({**observation, "observation": encode_view(view)}, None)
        return self.equilibrium.act(observation, view)
