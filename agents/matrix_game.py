"""The stare-down's matrix game, for the Bottom of the 9th heuristic and the exact solver
(:mod:`dugout.agents.solvers.bottom_ninth`) alike: zero-sum games solved exactly, many at once.

The pitcher picks a row and minimises, the batter a column and maximises (the entries
are the batting side's win probability). Rows a fatigued pitcher may not throw are left
out. The value and both optimal mixes are found by vertex enumeration of the two linear
programs: the batter's ``max t s.t. A[i] @ y >= t for every legal row i, y in the
simplex`` has an optimal vertex fixed by ``k`` columns in the support and ``k`` tight rows,
so every pair of equal-size column and row sets (69 for a 4 x 4 game) is solved as a
``(k + 1)``-square linear system, batched over all games with numpy; a candidate mix
counts at its true guarantee (the worst legal row against it), and the best candidate is
optimal. The pitcher's side is the same on the transposed game. No perturbation and no
iteration: the values agree to float rounding with any linear-programming solver.

A game whose legal entries are all equal (blank cards: nothing at stake) has every mix
optimal; both sides then mix uniformly (over the legal rows for the pitcher), as the
heuristic does, so that nothing is predictable. A game with a pure saddle point (to
:data:`SADDLE_TOL`) is played pure, without enumeration; the pure strategies are also the
last candidates of the enumeration, so a game within rounding of a saddle point is solved.

Ties (a game with more than one optimal mix) are broken so: a flat game mixes uniformly (the
pitcher over his legal rows, the batter over all four); a pure saddle point plays the first
best row and the first best column (index order); otherwise larger supports come first and,
among equally good candidates of one size, the first in itertools.combinations order
(columns, then rows) is kept (a later one must be better by more than 1e-13). On every
stare-down of the seeded heuristic games this agrees with the support enumeration the
heuristic used before to 1e-7, so those games are unchanged.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np

__all__ = ["solve_games", "game_value", "SADDLE_TOL"]

_BIG = 1e6          # an illegal row as seen by the batter: never the worst
#: A game whose pure maximin and minimax differ by no more is played pure (its value is
#: then exact to this; the two-strike fixed points stop at 1e-13).
SADDLE_TOL = 1e-12


@lru_cache(maxsize=16)
def _pairs(n_rows: int, n_cols: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (support, tight set) pair of size ``k``: two (pairs x k) index arrays."""
    pairs = [(s, t) for s in combinations(range(n_cols), k) for t in combinations(range(n_rows), k)]
    return (np.array([s for s, _ in pairs], dtype=np.int64).reshape(-1, k),
            np.array([t for _, t in pairs], dtype=np.int64).reshape(-1, k))


def _best_mix(a: np.ndarray, usable_rows: np.ndarray, usable_cols: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """The maximiser's optimal mix over columns of ``a`` (games x rows x cols): the worst
    usable row against it is as high as possible. Returns (guarantee, mix). All pairs of
    one size are solved in one batch; larger supports come first and keep ties, the pure
    strategies last (a game that reaches here has no exact saddle point, but a game within
    rounding of one may have no other vertex the determinant test lets through)."""
    n, r, c = a.shape
    worst_seen = np.where(usable_rows[:, :, None], a, _BIG)
    best_val = np.full(n, -np.inf)
    best_mix = np.zeros((n, c))
    for k in range(min(r, c), 0, -1):
        support, tight = _pairs(r, c, k)
        P = len(support)
        ok = usable_cols[:, support].all(axis=2) & usable_rows[:, tight].all(axis=2)   # (n, P)
        m = np.zeros((n, P, k + 1, k + 1))
        m[:, :, :k, :k] = a[:, tight[:, :, None], support[:, None, :]]
        m[:, :, :k, k] = -1.0
        m[:, :, k, :k] = 1.0
        ok &= np.abs(np.linalg.det(m)) > 1e-12
        m[~ok] = np.eye(k + 1)
        rhs = np.zeros((n, P, k + 1, 1))
        rhs[:, :, k, 0] = 1.0
        sol = np.linalg.solve(m, rhs)[:, :, :k, 0]                                     # (n, P, k)
        ok &= (sol >= -1e-12).all(axis=2)
        mix = np.zeros((n, P, c))
        np.put_along_axis(mix, np.broadcast_to(support, (n, P, k)), np.clip(sol, 0.0, None), axis=2)
        total = mix.sum(axis=2, keepdims=True)
        ok &= total[:, :, 0] > 0
        mix /= np.where(total > 0, total, 1.0)
        value = np.einsum("nrc,npc->npr", worst_seen, mix).min(axis=2)                  # (n, P)
        value = np.where(ok, value, -np.inf)
        pick = value.argmax(axis=1)
        top = value[np.arange(n), pick]
        better = top > best_val + 1e-13
        best_val[better] = top[better]
        best_mix[better] = mix[np.arange(n), pick][better]
    return best_val, best_mix


def _saddle(a: np.ndarray, legal_rows: np.ndarray):
    """Games with a pure saddle point: (mask, value, pitch, guess)."""
    rows_max = np.where(legal_rows, a.max(axis=2), np.inf)              # each row's worst for him
    upper = rows_max.min(axis=1)
    p = rows_max.argmin(axis=1)
    cols_min = np.where(legal_rows[:, :, None], a, np.inf).min(axis=1)   # each column's guarantee
    lower = cols_min.max(axis=1)
    g = cols_min.argmax(axis=1)
    return upper - lower <= SADDLE_TOL, upper, p, g


def solve_games(a: np.ndarray, legal_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve ``a[n]`` (games x 4 rows x 4 columns; the row player minimises) with the rows
    ``legal_rows[n]`` (bool, games x 4; at least one per game). Returns ``(value, x, y)``:
    the value, the row player's optimal mix (zero on illegal rows) and the column
    player's, each exact to float rounding. A game whose legal entries are all equal is
    mixed uniformly; one with a pure saddle point is played pure; the others are solved
    by vertex enumeration."""
    a = np.asarray(a, dtype=float)
    legal_rows = np.asarray(legal_rows, dtype=bool)
    n, r, c = a.shape
    if n == 0:
        return np.zeros(0), np.zeros((0, r)), np.zeros((0, c))
    if not legal_rows.any(axis=1).all():
        raise ValueError("every game needs at least one legal row")
    value = np.empty(n)
    x = np.zeros((n, r))
    y = np.zeros((n, c))
    shown = np.where(legal_rows[:, :, None], a, np.nan)
    flat = (np.nanmax(shown, axis=(1, 2)) - np.nanmin(shown, axis=(1, 2))) < 1e-13
    if flat.any():                      # nothing at stake: mix uniformly
        value[flat] = np.nanmax(shown[flat], axis=(1, 2))
        x[flat] = legal_rows[flat] / legal_rows[flat].sum(axis=1, keepdims=True)
        y[flat] = 1.0 / c
    pure, v_pure, p, g = _saddle(a, legal_rows)
    pure &= ~flat
    if pure.any():
        value[pure] = v_pure[pure]
        x[np.flatnonzero(pure), p[pure]] = 1.0
        y[np.flatnonzero(pure), g[pure]] = 1.0
    rest = ~(flat | pure)
    if rest.any():
        ar, lr = a[rest], legal_rows[rest]
        all_cols = np.ones((len(ar), c), dtype=bool)
        v_col, y_rest = _best_mix(ar, lr, all_cols)
        # the row player's game: columns become rows; he maximises -a
        v_row, x_rest = _best_mix(-np.transpose(ar, (0, 2, 1)), all_cols, lr)
        v_row = -v_row
        if not np.isfinite(v_col).all() or np.abs(v_col - v_row).max() > 1e-9:
            worst = int(np.argmax(np.where(np.isfinite(v_col), np.abs(v_col - v_row), np.inf)))
            raise ArithmeticError(f"matrix game: the two sides' values disagree ({v_col[worst]!r} "
                                  f"and {v_row[worst]!r}): {ar[worst].tolist()}")
        value[rest], x[rest], y[rest] = v_col, x_rest, y_rest
    return value, x, y


def game_value(a: np.ndarray, legal_rows: np.ndarray | None = None) -> float:
    """The value of one game (rows minimise), all rows legal unless said."""
    a = np.asarray(a, dtype=float)
    rows = np.ones(a.shape[0], dtype=bool) if legal_rows is None else np.asarray(legal_rows, bool)
    return float(solve_games(a[None], rows[None])[0][0])
