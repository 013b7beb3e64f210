"""The exact solver's policy as supervised data: what ``dugout train distill`` teaches a network.

Every decision state the gap evaluator asks about (:func:`.policy.policy_table`: the env's
default game, ``sample`` at ``reds`` over nine innings, score bound 20; about 3.1 million
states a seat) is one row, built by the same walk (:func:`.policy._node_views`): the same
view, encoded by the env's own ``encode_view``, so ``obs`` is exactly the vector the network
is fed there, by :class:`~dugout.agents.policy.PolicyAgent` in play and by the exact
evaluation. Its two readings hold here too: the score is shown as ``(max(0, -d), max(0, d))``
and the steal flags are shown as False after the steal phase.

The target and the weight come from one backward pass of the solver's own induction
(:func:`.induction.game_pass`) whose chooser, besides choosing as :class:`.induction.Optimal`
does, keeps the values of every legal action at every state:

* ``target``: the optimal action, one-hot, or spread equally over the actions whose value is
  within :data:`TIE` (1e-9 of win probability) of the best;
* the *regret* of a state: what the cheapest mistake there costs, the best value minus the
  best value of an action not tied with it (0 where every action is worth the same);
* the *reach* of a state: its probability of occurring in a game of the optimal manager
  against the optimal manager (every extra inning's added into the extra-inning layer), from
  a forward pass over the same graph; it is checked by the home team's winning mass it ends
  with, which is the game value;
* ``weight``: the regret alone and the regret times the reach, each normalised to mean 1,
  mixed ``1 - REACH_SHARE`` to ``REACH_SHARE`` (one half each): a mistake costs a game
  ``reach x regret`` of win probability (the exact gap adds these up), so half the weight
  goes where games go; the other half keeps every state that can cost anything in the data,
  since a manager that deviates reaches states optimal play never does. Rows are then
  normalised to mean 1; a state where every action is worth the same weighs 0.

**Scores seen in play.** The game depends on the score difference alone, and the evaluator
shows a difference as a one-sided score; but a game's observation shows both teams' runs (a
network that only ever saw one-sided scores gave away 0.002 of win probability a game at
states where both teams had scored, a hundred times its loss elsewhere). So each state
comes a second time with both teams' runs raised alike by 1 to :data:`RAISE_MAX` (drawn at
random, ``seed``), with the same target and weight (``raised``: the runs added; 0 on the
evaluator's rows). ``raise_copies=False`` leaves them out.

``dataset(sample=N)`` draws ``N`` rows at random (seeded) instead of every state, and
``dataset(states=mask)`` builds the rows of the states a mask marks (the tests' small slices).
Every state takes about a minute and 2 GB (``obs`` is 6.3 million x 56 float32).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ....envs.core.decisions import action_mask
from ....envs.thats_baseball.env import encode_view
from .chart import OUTCOME_INDEX, lineup_probabilities, lineups_of
from .graph import END, GRAPH, N_ACTIONS, N_DECISIONS
from .induction import Optimal, Plan, d_orders, game_pass
from .policy import _node_views, _seat_nodes, _view_parts
from .solution import DEFAULT_BOUND

__all__ = ["ENV_ID", "PLAY", "TEAMS", "INNINGS", "TIE", "REACH_SHARE", "Tables", "solve_tables",
           "dataset", "describe"]

ENV_ID = "thats_baseball_v0"
PLAY = "greedy"
#: the env's default game: its teams and innings (``thats_baseball_v0.env()``)
TEAMS = ("sample", "reds")
INNINGS = 9
#: actions within this much win probability of the best are all optimal
TIE = 1e-9
#: the share of the weight that follows how often optimal play reaches a state
REACH_SHARE = 0.5
#: each state once more with both teams' runs raised alike by 1 to RAISE_MAX (drawn at random):
#: the game shows the total runs, the evaluator only the difference
RAISE_MAX = 10


class _Keeping(Optimal):
    """The optimal chooser (max for home, min for away, its choice recorded) that also keeps
    each state's target (the actions tied for best, spread equally) and regret."""

    def __init__(self, seat: int, tables: "Tables"):
        super().__init__(seat, tables.policy)
        self.tables = tables

    def pick(self, layer, half, di, j, legal, values):
        best = super().pick(layer, half, di, j, legal, values)
        stack = np.stack(np.broadcast_arrays(*values))             # (actions, 9, 9)
        own = stack if self.seat == 1 else -stack                   # larger is better for the seat
        top = own.max(axis=0)
        tied = own >= top - TIE
        rest = np.where(tied, -np.inf, own).max(axis=0)
        self.tables.regret[layer, half, di, j] = np.where(np.isfinite(rest), top - rest, 0.0)
        share = tied / tied.sum(axis=0)
        cost = np.where(tied, 0.0, top - own)
        for k, a in enumerate(legal):
            self.tables.target[layer, half, di, j, a] = share[k]
            self.tables.cost[layer, half, di, j, a] = cost[k]
        return best


@dataclass
class Tables:
    """The solved game's tables a dataset is made of, indexed like
    :attr:`.solution.Solution.policy` (``target`` with the action before the batting places)."""
    lineups: tuple[tuple[int, ...], tuple[int, ...]]
    innings: int
    bound: int
    policy: np.ndarray          # int8, the solver's action (-1: not a state)
    target: np.ndarray          # float32 (..., N_ACTIONS, 9, 9)
    cost: np.ndarray            # float32 (..., N_ACTIONS, 9, 9): the best value minus the action's
    regret: np.ndarray          # float64
    reach: np.ndarray           # float64
    game_value: float = float("nan")
    home_wins: float = float("nan")     # the forward pass's winning mass (= game_value)
    lost_mass: float = 0.0              # what the forward pass left in unfinished extra innings


def solve_tables(teams: tuple[Any, Any] = TEAMS, innings: int = INNINGS,
                 bound: int = DEFAULT_BOUND) -> Tables:
    """Solve the game (the solver's induction) keeping every state's target and regret, then
    the forward pass of every state's reach."""
    lineups = lineups_of(*teams)
    shape = (innings + 1, 2, 2 * bound + 1, N_DECISIONS)
    t = Tables(lineups, innings, bound, np.full(shape + (9, 9), -1, np.int8),
               np.zeros(shape + (N_ACTIONS, 9, 9), np.float32),
               np.zeros(shape + (N_ACTIONS, 9, 9), np.float32), np.zeros(shape + (9, 9)),
               np.zeros(shape + (9, 9)))
    top, _ = game_pass(Plan(lineups, innings, bound, (_Keeping(0, t), _Keeping(1, t))),
                       lambda layer, half, V: None)
    t.game_value = float(top[bound, 0, 0])
    _forward(t)
    return t


# -- how often optimal play reaches each state ---------------------------------------------------
def _forward_half(t: Tables, layer: int, half: int, start: np.ndarray, probs: np.ndarray,
                  won: list[float]) -> np.ndarray:
    """Push the probability mass ``start[d, batter, fielding's next]`` at the half inning's first
    node through it under the solver's policy, adding each decision state's mass to
    ``t.reach``; the mass of a decided game into ``won`` (away, home). Returns the mass at the
    half's end ``[d, batting team's next, fielding team's next]``."""
    nd = 2 * t.bound + 1
    extra, last = layer >= t.innings, layer >= t.innings - 1
    walkoff = last and half == 1
    sign = -1 if half == 0 else +1
    M = np.zeros((nd, len(GRAPH.keys), 9, 9))
    M[:, GRAPH.start[0, 0]] = start
    end = np.zeros((nd, 9, 9))

    def push(x: np.ndarray, di: int, target: int, r: int, shift: int) -> None:
        dj = di + sign * r
        if shift:
            x = np.roll(x, 1, axis=0)                  # the next batter comes up
        if dj < 0 or dj >= nd:
            won[int(dj >= nd)] += x.sum()
        elif walkoff and dj > t.bound:
            won[1] += x.sum()
        elif target == END:
            end[dj] += x
        else:
            M[dj, target] += x

    for di in reversed(d_orders(t.bound, half, extra, last)):
        for n in reversed(GRAPH.order):
            m = M[di, n]
            if not m.any():
                continue
            if GRAPH.actor[n] is None:                 # the batter's roll
                for name, target, r, shift in GRAPH.branches[n][0][1]:
                    push(probs[OUTCOME_INDEX[name]] * m, di, target, r, shift)
                continue
            j = GRAPH.decision_index_by_node[n]
            t.reach[layer, half, di, j] += m
            chosen = t.policy[layer, half, di, j]
            for a, terms in GRAPH.branches[n]:
                part = np.where(chosen == a, m, 0.0)
                if part.any():
                    for p, target, r, shift in terms:
                        push(p * part, di, target, r, shift)
    return end


def _forward(t: Tables, tol: float = 1e-12) -> None:
    """Every decision state's probability under optimal play by both managers (``t.reach``)."""
    probs = [lineup_probabilities(t.lineups[0]), lineup_probabilities(t.lineups[1])]
    b, won = t.bound, [0.0, 0.0]

    def inning(layer: int, top_start: np.ndarray) -> np.ndarray | None:
        end_top = _forward_half(t, layer, 0, top_start, probs[0], won)
        bottom = end_top.transpose(0, 2, 1).copy()           # roles swap: [d, home, away next]
        if layer >= t.innings - 1:                           # home ahead: no bottom half
            won[1] += bottom[b + 1:].sum()
            bottom[b + 1:] = 0.0
        end = _forward_half(t, layer, 1, bottom, probs[1], won)
        if layer < t.innings - 1:
            return end.transpose(0, 2, 1).copy()
        won[0] += end[:b].sum()
        won[1] += end[b + 1:].sum()
        tied = np.zeros_like(end)
        tied[b] = end[b].T
        return tied

    start = np.zeros((2 * b + 1, 9, 9))
    start[b, 0, 0] = 1.0
    for layer in range(t.innings):
        start = inning(layer, start)
    while start.sum() > tol:                                  # every extra inning, alike
        start = inning(t.innings, start)
    t.home_wins, t.lost_mass = won[1], float(start.sum())


# -- the rows ----------------------------------------------------------------------------------------
def _states(t: Tables) -> list[tuple[int, int, int, int, list[int]]]:
    """(layer, half, decision j, seat, score differences) of every decision node, as the gap
    evaluator walks them."""
    out = []
    for layer in range(t.innings + 1):
        for half in (0, 1):
            last, extra = layer >= t.innings - 1, layer >= t.innings
            ds = sorted(d_orders(t.bound, half, extra, last))
            for seat in (0, 1):
                for j in _seat_nodes(seat, half):
                    out.append((layer, half, j, seat, ds))
    return out


def _weights(regret: np.ndarray, reach: np.ndarray) -> np.ndarray:
    w = np.zeros(len(regret))
    for part, share in ((regret, 1.0 - REACH_SHARE), (regret * reach, REACH_SHARE)):
        if part.sum() > 0:
            w += share * part / part.mean()
    return (w / w.mean() if w.sum() > 0 else w).astype(np.float32)


def dataset(*, seed: int = 0, progress: bool = False, sample: int | None = None,
            tables: Tables | None = None, states: np.ndarray | None = None,
            raise_copies: bool = True) -> dict[str, np.ndarray]:
    """The exact solver's policy as supervised data for ``thats_baseball_v0``'s default game
    (the module docstring): ``obs``, ``mask``, ``target``, ``weight``, ``seat``, and the
    state's ``cost`` of each action (the best value minus its value, for the deciding seat;
    0 for the optimal ones and the illegal ones), ``regret``, ``reach`` and ``index`` (its
    place in the solver's tables: layer, half, difference, decision, batting places) and
    ``raised`` (the runs added to both scores: 0 on the evaluator's own rows; each state's
    raised copy follows them, with ``raise_copies``).

    Every decision state; or ``sample`` of them drawn at random (``seed``); or those
    ``states`` marks (a boolean array shaped like the tables' policy). ``tables``: a
    :func:`solve_tables` already made (another game's: the rows are then that game's). The
    weights are normalised over the rows built."""
    t0 = time.perf_counter()
    t = tables if tables is not None else solve_tables()
    if progress:
        print(f"solved with every action's value and every state's reach in "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    nodes = _states(t)
    count = sum(len(ds) for *_, ds in nodes) * 81
    if states is not None and states.shape != t.policy.shape:
        raise ValueError(f"states must be shaped like the tables' policy {t.policy.shape}, got "
                         f"{states.shape}")
    if sample is not None:
        if states is not None:
            raise ValueError("give sample or states, not both")
        if not 1 <= sample <= count:
            raise ValueError(f"sample must be 1 to {count} rows, got {sample!r}")
        drawn = np.zeros(count, bool)
        drawn[np.random.default_rng(seed).choice(count, size=sample, replace=False)] = True
        states, k = np.zeros(t.policy.shape, bool), 0
        for layer, half, j, seat, ds in nodes:
            states[layer, half, ds, j] = drawn[k:k + len(ds) * 81].reshape(len(ds), 9, 9)
            k += len(ds) * 81
    n = count if states is None else int(states.sum())
    rng = np.random.default_rng([seed, 2])
    copies = 2 if raise_copies else 1
    n *= copies
    raised = np.zeros(n, np.int8)
    obs = np.zeros((n, encode_view_size()), np.float32)
    mask = np.zeros((n, N_ACTIONS), bool)
    target = np.zeros((n, N_ACTIONS), np.float32)
    cost = np.zeros((n, N_ACTIONS), np.float32)
    seat_of = np.zeros(n, np.int8)
    regret, reach = np.zeros(n), np.zeros(n)
    index = np.zeros((n, 6), np.int16)
    row = 0
    for layer, half, j, seat, ds in nodes:
        only = None if states is None else states[layer, half, :, j]
        if only is not None and not only[ds].any():
            continue
        kind, subject, legal, options, outs, bases, tried = _view_parts(j)
        parts = (seat, kind, subject, legal, options, layer + 1, outs, bases, tried)
        legal_mask = action_mask(N_ACTIONS, legal).astype(bool)
        for (di, ob, of), view in _node_views(t, half, ds, parts, only):
            for copy in range(copies):
                if copy:
                    k = int(rng.integers(1, RAISE_MAX + 1))
                    view = replace(view, score=(view.score[0] + k, view.score[1] + k))
                    raised[row] = k
                obs[row] = encode_view(view)
                mask[row] = legal_mask
                target[row] = t.target[layer, half, di, j, :, ob, of]
                cost[row] = t.cost[layer, half, di, j, :, ob, of]
                seat_of[row] = seat
                regret[row] = t.regret[layer, half, di, j, ob, of]
                reach[row] = t.reach[layer, half, di, j, ob, of]
                index[row] = (layer, half, di, j, ob, of)
                row += 1
        if progress and seat == 1 and half == 1 and j == _seat_nodes(1, 1)[-1]:
            print(f"  layer {layer}: {row:,} rows", flush=True)
    if row != n:
        raise ValueError(f"states marks {n - row} state(s) the game does not have (no decision, "
                         f"or a difference its half inning cannot reach)")
    return {"obs": obs, "mask": mask, "target": target, "weight": _weights(regret, reach),
            "seat": seat_of, "cost": cost, "regret": regret.astype(np.float32),
            "reach": reach.astype(np.float32), "index": index, "raised": raised}


def encode_view_size() -> int:
    """The env's observation length."""
    from ....envs.thats_baseball.env import OBS
    return OBS.size


def describe() -> dict:
    """What :func:`dataset` is, for the model card."""
    return {"env_id": ENV_ID, "game": {"teams": list(TEAMS), "innings": INNINGS,
                                       "score_bound": DEFAULT_BOUND},
            "rows": "every decision state of both seats the exact gap evaluator asks about "
                    "(about 6.3 million; the solver's tables), and each once more with both "
                    f"teams' runs raised alike by 1 to {RAISE_MAX} (random)",
            "obs": "the env's observation vector of the state's view (encode_view), as the "
                   "evaluator builds it: the score as the difference alone, steal flags off "
                   "after the steal phase",
            "target": f"the optimal action, spread equally over actions within {TIE:g} of the "
                      f"best value",
            "weight": f"regret (best value minus the best value of a non-tied action, in win "
                      f"probability) normalised to mean 1, mixed {1 - REACH_SHARE:g}:"
                      f"{REACH_SHARE:g} with regret x reach (the state's probability in a game "
                      f"of the optimal manager against itself) normalised to mean 1; the rows "
                      f"then normalised to mean 1",
            "play": PLAY}
