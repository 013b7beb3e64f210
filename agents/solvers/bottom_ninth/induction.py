"""The backward pass: Shapley's value iteration over the duel, layer by layer.

One pass computes the batting side's win probability at every stare-down state and every
clean-up state when each seat plays as told by a :class:`Play`:

* ``"optimal"``: the best choice everywhere (the equilibrium when both are optimal, a
  best response when the other seat is fixed): the stare-down's matrix game solved
  exactly, min or max at ability, relief and pitching-change decisions;
* ``"solution"``: the equilibrium manager of a solved game: its stored mixes at the
  stare-down, and elsewhere the choices that are optimal by the solved values;
* ``"table"``: an agent's :class:`~.policy.PolicyTable` at the stare-down, relief and
  pitching-change decisions, and the equilibrium's choices at ability decisions.

A layer whose two-strike foul can return a state to itself is iterated until no value
moves by more than ``tol``: the map is a contraction (its modulus is the chance of that
foul under the play, well below one), so the fixed point is reached geometrically.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ....envs.bottom_ninth import rules
from ...matrix_game import solve_games
from .model import Duel, Layer
from .pitch import MAX, MIN

__all__ = ["Play", "Pass", "backward_pass", "cleanup_options", "MAX_ITERATIONS"]

MAX_ITERATIONS = 10_000


@dataclass(frozen=True)
class Play:
    """How one seat plays in a pass: ``kind`` "optimal", "solution" or "table"."""
    kind: str
    table: Any = None

    def __post_init__(self):
        if self.kind not in ("optimal", "solution", "table"):
            raise ValueError(f"a seat plays 'optimal', 'solution' or 'table', not {self.kind!r}")


@dataclass
class Pass:
    """The values of a pass (``values``: every stare-down state, then every clean-up
    state, then a lost and a won game; NaN where a state cannot occur), and with
    ``keep``, each stare-down state's mixes ``x`` (pitcher) and ``y`` (batter)."""
    values: np.ndarray
    x: np.ndarray | None
    y: np.ndarray | None
    iterations: int


def cleanup_options(duel: Duel, state: tuple) -> list[tuple[int, tuple[int, ...]]]:
    """A clean-up state's choices: for each relief option ``(action, [keep ref, bring-in
    ref])`` (action -1: no relief decision; one ref when no change is possible)."""
    pit, slot, outs, bases, fd, fl = state
    out = []
    for action, after in duel.relief_options(pit, bases, (fd, fl)):
        refs = [duel.index(pit, slot, outs, bases, 0, 0, *after)]
        if duel.can_change(pit):
            refs.append(duel.index(1, slot, outs, bases, 0, 0, 1, 1))
        out.append((action, tuple(refs)))
    return out


def _sides_of_levels(graph, fixed_seats: set[int]) -> set[int]:
    return {li for li, lv in enumerate(graph.levels)
            if (lv.kind == MIN and 0 in fixed_seats) or (lv.kind == MAX and 1 in fixed_seats)}


def backward_pass(duel: Duel, pitcher: Play, batter: Play, solution=None, tol: float = 1e-13,
                  keep: bool = False) -> Pass:
    """Values of every state of ``duel`` with the two seats playing as told."""
    plays = (pitcher, batter)
    fixed_seats = {s for s, p in enumerate(plays) if p.kind != "optimal"}
    if fixed_seats and solution is None:
        raise ValueError("a seat that plays the solution or a table needs the solved game")
    sol_v = solution.values if solution is not None else None
    V = np.full(duel.one + 1, np.nan)
    V[duel.zero], V[duel.one] = 0.0, 1.0
    X = np.full((duel.n_states, 4), np.nan) if keep else None
    Y = np.full((duel.n_states, 4), np.nan) if keep else None
    iterations = 0
    measure = None
    for layer in duel.layers:
        if layer.measure != measure:
            if measure is not None:
                _cleanups(duel, measure, V, plays, sol_v)
            measure = layer.measure
        iterations += _solve_layer(duel, layer, V, plays, fixed_seats, solution, X, Y, tol)
    return Pass(V, X, Y, iterations)


def _follow(duel: Duel, layer: Layer, fixed_seats: set[int], sol_v: np.ndarray) -> dict:
    """The equilibrium's ability choices in this layer, per group (by the solved values)."""
    out = {}
    if not fixed_seats:
        return out
    w = (sol_v[layer.refs] * layer.weights).sum(axis=-1)
    for gi, (pit, slot, rows) in enumerate(layer.groups):
        g = duel.graphs[slot, pit]
        keep = _sides_of_levels(g, fixed_seats)
        _, chosen = g.evaluate(w[rows], record=True)
        out[gi] = {li: c for li, c in chosen.items() if li in keep}
    return out


def layer_matrices(duel: Duel, layer: Layer, V: np.ndarray, follow=None) -> np.ndarray:
    """The payoff matrices of a layer's stare-downs (``states x 4 pitches x 4 guesses``, the
    batting side's win probability after each pair), read off the values ``V`` of the states
    the pitch can lead to; ``follow`` (by group) fixes a seat's later choices in the pitch's
    graph."""
    w = (V[layer.refs] * layer.weights).sum(axis=-1)
    m = np.empty((len(layer.states), 4, 4))
    for gi, (pit, slot, rows) in enumerate(layer.groups):
        g = duel.graphs[slot, pit]
        vals = g.evaluate(w[rows], follow=(follow or {}).get(gi))
        m[rows] = np.transpose(vals[g.roots], (2, 0, 1))
    return m


def _solve_layer(duel: Duel, layer: Layer, V: np.ndarray, plays, fixed_seats, solution,
                 X, Y, tol: float) -> int:
    """Solve one layer; a looping layer by the secant method on ``T(v) - v`` per state (the
    map is piecewise linear with slope in [0, 1), so the secant lands in a few steps),
    falling back to a plain step ``v = T(v)`` wherever the secant's slope is not one a
    contraction can have."""
    idx = layer.states
    follow = _follow(duel, layer, fixed_seats, solution.values) if fixed_seats else {}

    def T(v_now: np.ndarray | None):
        if v_now is not None:
            V[idx] = v_now
        return _stare_down(layer_matrices(duel, layer, V, follow), layer.legal, idx, plays,
                           solution)

    if not layer.loops:
        v, x, y = T(None)
        it = 1
    else:
        v0 = np.full(len(idx), 0.5)
        t0, x, y = T(v0)
        v1 = t0
        t1, x, y = T(v1)
        it = 2
        while np.abs(t1 - v1).max() > tol:
            if it >= MAX_ITERATIONS:
                raise ArithmeticError(
                    f"the two-strike fixed point did not converge in {MAX_ITERATIONS} iterations "
                    f"(last change {np.abs(t1 - v1).max():.3g}): can the cards force a foul?")
            f0, f1 = t0 - v0, t1 - v1
            dv = v1 - v0
            with np.errstate(divide="ignore", invalid="ignore"):
                slope = (f1 - f0) / dv                      # of T(v) - v: in (-1, 0] ideally - 1
                secant = v1 - f1 / slope
            ok = np.isfinite(secant) & (slope <= -1e-6) & (slope >= -1.0 - 1e-9) & (dv != 0)
            v2 = np.where(ok, secant, t1)
            v0, t0 = v1, t1
            v1 = v2
            t1, x, y = T(v1)
            it += 1
        v = t1
    V[idx] = v
    if X is not None:
        X[idx], Y[idx] = x, y
    return it


def _mix(play: Play, seat: int, idx: np.ndarray, solution) -> np.ndarray:
    if play.kind == "solution":
        return (solution.x if seat == 0 else solution.y)[idx]
    return play.table.stare_down[idx]


def _stare_down(m: np.ndarray, legal: np.ndarray, idx: np.ndarray, plays, solution):
    """The stare-down's value under the two seats' play, with the mixes played."""
    p_play, b_play = plays
    if p_play.kind == "optimal" and b_play.kind == "optimal":
        return solve_games(m, legal)
    if p_play.kind == "optimal":
        y = _mix(b_play, 1, idx, solution)
        rows = np.where(legal, np.einsum("npg,ng->np", m, y), np.inf)
        best = rows.argmin(axis=1)
        return rows.min(axis=1), np.eye(4)[best], y
    x = _mix(p_play, 0, idx, solution)
    cols = np.einsum("np,npg->ng", x, m)
    if b_play.kind == "optimal":
        best = cols.argmax(axis=1)
        return cols.max(axis=1), x, np.eye(4)[best]
    y = _mix(b_play, 1, idx, solution)
    return np.einsum("ng,ng->n", cols, y), x, y


def _cleanups(duel: Duel, measure: int, V: np.ndarray, plays, sol_v) -> None:
    """The clean-up states before a batter who faces ``outs + runners == measure``."""
    play = plays[0]
    for state in duel.cleanup_states(measure):
        options = cleanup_options(duel, state)
        ci = duel.cu_index(*state)
        values = []
        for action, refs in options:
            values.append(_change_value(duel, state, refs, V, play, sol_v))
        if play.kind == "optimal":
            V[ci] = min(values)
        elif play.kind == "solution" or options[0][0] < 0:
            sol = [_change_value(duel, state, refs, sol_v, Play("solution"), sol_v)
                   for _, refs in options]
            V[ci] = values[int(np.argmin(sol))]
        else:
            probs = play.table.relief[ci - duel.n_states]
            V[ci] = sum(probs[action - rules.RELIEF] * v for (action, _), v in zip(options, values))


def _change_value(duel: Duel, state: tuple, refs: tuple, V: np.ndarray, play: Play, sol_v) -> float:
    if len(refs) == 1:
        return float(V[refs[0]])
    keep, bring = float(V[refs[0]]), float(V[refs[1]])
    if play.kind == "optimal":
        return min(keep, bring)
    if play.kind == "solution":
        return bring if sol_v[refs[1]] < sol_v[refs[0]] else keep
    q = play.table.change[refs[0]]
    return (1.0 - q) * keep + q * bring
