"""Backward induction: one half inning at a time, then the whole game.

A pass walks the game backwards from the extra innings to the first pitch. Each half
inning is solved for one score difference at a time, most runs scored first, and
within one difference in the run-free topological order of :data:`~.graph.GRAPH`
(:func:`half_pass`). The extra inning is the fixed point ``X = T(X)`` of one inning
whose tied end is worth ``X`` again, found by value iteration from ``X = 1/2``
(:func:`game_pass`). At a decision node a *chooser* per seat combines the values of
the legal actions: :class:`Optimal` (max for home, min for away, recording the choice),
:class:`Rule` (one action per decision kind), :class:`Uniform` (a random manager) and
:class:`TableChooser` (an agent's :class:`~.policy.PolicyTable`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np

from .chart import OUTCOME_INDEX, lineup_probabilities
from .graph import END, GRAPH, KIND_OF

__all__ = ["Optimal", "Rule", "Uniform", "TableChooser", "Plan", "half_pass", "game_pass",
           "d_orders", "EPS"]

NEXT = np.roll(np.arange(9), -1)          # x[NEXT][o] = x[o + 1]: the next batter up
EPS = 1e-12                                # ties within EPS go to pass, then the lowest action


# -- choosing at decision nodes ------------------------------------------------------------------
# A chooser's pick(layer, half, di, j, legal, values) returns the value of decision node
# ``j`` (9 x 9, over the batting places) from ``values``, one per action of ``legal``.
class Optimal:
    """Max for the home manager, min for the away manager; records the choice."""

    def __init__(self, seat: int, policy: np.ndarray | None = None):
        self.seat, self.policy = seat, policy

    def pick(self, layer: int, half: int, di: int, j: int, legal: tuple, values: list) -> np.ndarray:
        stack = np.stack(np.broadcast_arrays(*values)) if len(values) > 1 else None
        if stack is None:
            best, choice = values[0], np.zeros((9, 9), dtype=np.int64)
        elif self.seat == 1:
            best = stack.max(axis=0)
            choice = np.argmax(stack >= best - EPS, axis=0)
        else:
            best = stack.min(axis=0)
            choice = np.argmax(stack <= best + EPS, axis=0)
        if self.policy is not None:
            self.policy[layer, half, di, j] = np.asarray(legal, dtype=np.int8)[choice]
        return best


class Rule:
    """One action per decision kind, everywhere (the fixed policies of the tests)."""

    def __init__(self, rule: Mapping[str, int]):
        self.rule = rule

    def pick(self, layer, half, di, j, legal, values):
        kind = KIND_OF[GRAPH.keys[GRAPH.decisions[j]][0]]
        a = self.rule[kind]
        if a not in legal:
            a = max(legal) if kind == "dp_runner" else legal[0]
        return values[legal.index(a)]


class Uniform:
    """Every legal action alike (a random manager)."""

    def pick(self, layer, half, di, j, legal, values):
        return sum(values) / len(values)


class TableChooser:
    """An agent's policy table (a :class:`~.policy.PolicyTable`)."""

    def __init__(self, table):
        self.table = table

    def pick(self, layer, half, di, j, legal, values):
        t = self.table
        if t.probs is not None:
            p = t.probs[layer, half, di, j]
            return sum(p[a] * v for a, v in zip(legal, values))
        a = t.actions[layer, half, di, j]
        out = np.zeros((9, 9))
        for action, v in zip(legal, values):
            out = out + np.where(a == action, v, 0.0)
        return out


# -- one half inning ------------------------------------------------------------------------------
def half_pass(layer: int, half: int, probs: np.ndarray, sign: int, end: np.ndarray,
              beyond: Callable[[int], float], d_order: Sequence[int], choosers: Sequence,
              prefill: Mapping[int, float] | None = None) -> np.ndarray:
    """Values of every node of one half inning, (d, node, batter, fielding team's next batter).

    ``end[d, next batter, fielding's batter]``: the value once the side is retired;
    ``beyond(d)``: the value of a difference outside the table; ``d_order``: the
    differences to solve, most runs scored first; ``prefill``: differences whose every
    node has a fixed value (the walk-off); ``choosers[seat]`` decides for that seat.
    """
    nd = end.shape[0]
    V = np.full((nd, len(GRAPH.keys), 9, 9), np.nan)
    for di, value in (prefill or {}).items():
        V[di] = value
    branches, actors, decision_of = GRAPH.branches, GRAPH.actor, GRAPH.decision_index_by_node
    batting = half
    for di in d_order:
        Vd = V[di]
        for n in GRAPH.order:
            actor = actors[n]
            if actor is None:
                total = 0.0
                for p, target, r, shift in branches[n][0][1]:
                    total = total + probs[OUTCOME_INDEX[p]] * _fetch(V, end, beyond, di, sign, target, r, shift)
                Vd[n] = total
                continue
            values = []
            for _, terms in branches[n]:
                v = 0.0
                for p, target, r, shift in terms:
                    v = v + p * _fetch(V, end, beyond, di, sign, target, r, shift)
                values.append(v)
            seat = batting if actor == "bat" else 1 - batting
            j = decision_of[n]
            Vd[n] = choosers[seat].pick(layer, half, di, j, GRAPH.legal[j], values)
    return V


def _fetch(V: np.ndarray, end: np.ndarray, beyond, di: int, sign: int, target: int, r: int,
           shift: int):
    dj = di + sign * r
    if dj < 0 or dj >= V.shape[0]:
        return beyond(dj)
    x = end[dj] if target == END else V[dj, target]
    return x[NEXT] if shift else x


# -- the whole game ---------------------------------------------------------------------------------
@dataclass
class Plan:
    """What a game pass needs: lineups, innings, bound and a chooser per seat."""
    lineups: tuple[tuple[int, ...], tuple[int, ...]]
    innings: int
    bound: int
    choosers: tuple
    tol: float = 1e-13
    max_iterations: int = 500


def d_orders(bound: int, half: int, extra: bool, last: bool) -> list[int]:
    """The score differences (``d + bound``) a half inning can reach, in solving order."""
    nd = 2 * bound + 1
    hi = bound if (extra or (last and half == 1)) else nd - 1     # extra and walk-off: d <= 0
    ds = list(range(0, hi + 1))
    return ds[::-1] if half == 1 else ds                 # home scores up, away scores down


def _beyond(bound: int) -> Callable[[int], float]:
    return lambda dj: 1.0 if dj > 2 * bound else 0.0       # the team ahead by more wins


def _transpose(start: np.ndarray) -> np.ndarray:
    """A half's start values as the previous half's end values (roles swap)."""
    return np.ascontiguousarray(start.transpose(0, 2, 1))


def _walkoff(bound: int) -> dict[int, float]:
    return {di: 1.0 for di in range(bound + 1, 2 * bound + 1)}


def _last_end(bound: int, x: np.ndarray) -> np.ndarray:
    """End of the bottom of the last (or an extra) inning: decided, or tied into X."""
    nd = 2 * bound + 1
    end = np.zeros((nd, 9, 9))
    end[bound + 1:] = 1.0
    end[bound] = x.T                     # end[d, home next, away next] = X[away, home]
    return end


def game_pass(plan: Plan, on_half: Callable[[int, int, np.ndarray], None]) -> tuple[np.ndarray, int]:
    """Backward induction over the game; ``on_half(layer, half, V)`` sees every half's values.

    Returns the start values of the first inning's top half (d, away, home) and the
    number of extra-inning iterations.
    """
    n, bound = plan.innings, plan.bound
    probs = [lineup_probabilities(plan.lineups[0]), lineup_probabilities(plan.lineups[1])]
    beyond = _beyond(bound)
    start = GRAPH.start[0, 0]

    def inning(layer: int, bottom_end: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        extra, last = layer >= n, layer >= n - 1
        prefill = _walkoff(bound) if last else None
        vb = half_pass(layer, 1, probs[1], +1, bottom_end, beyond, d_orders(bound, 1, extra, last),
                       plan.choosers, prefill)
        vt = half_pass(layer, 0, probs[0], -1, _transpose(vb[:, start]), beyond,
                       d_orders(bound, 0, extra, last), plan.choosers)
        return vt, vb, vt[:, start]

    x = np.full((9, 9), 0.5)
    iterations = 0
    while True:
        iterations += 1
        vt, vb, top = inning(n, _last_end(bound, x))
        new = top[bound]
        change = np.abs(new - x).max()
        x = new
        if change < plan.tol:
            break
        if iterations >= plan.max_iterations:
            raise RuntimeError(f"extra innings did not converge in {iterations} iterations "
                               f"(last change {change:.3g})")
    vt, vb, top = inning(n, _last_end(bound, x))      # once more with the converged X
    on_half(n, 1, vb)
    on_half(n, 0, vt)
    for layer in range(n - 1, -1, -1):
        end = _last_end(bound, x) if layer == n - 1 else _transpose(top)
        vt, vb, top = inning(layer, end)
        on_half(layer, 1, vb)
        on_half(layer, 0, vt)
    return top, iterations
