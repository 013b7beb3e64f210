"""An exact solver for That's Baseball: the optimal manager and exact policy evaluation.

That's Baseball has perfect information and dice as its only chance, so the home team's
chance of winning under optimal play is a number we can compute, from every state, by
backward induction (Zermelo; for the stochastic game, Shapley 1953 "Stochastic games",
PNAS 39: value iteration on a zero-sum game with chance nodes). Each manager maximises
his own team's chance of winning: the home manager maximises the home win
probability, the away manager minimises it, and dice nodes take its expectation.

    python -m dugout.agents.solvers.thats_baseball --away sample --home reds

State space
-----------
A state is (inning, half, score difference ``d`` = home runs - away runs, each team's
place in its batting order, outs, and where the engine is inside the plate appearance).
Inside a plate appearance the engine (``dugout.envs.thats_baseball.rules``) walks
through these nodes, each with its outs and its runners (a 3-bit mask):

========  ========  ==========================================================
node      who       what it is
========  ========  ==========================================================
``S``     batting   steal decision; carries which runners already tried to
                    steal before this batter (a runner tries at most once)
``P``     fielding  pickoff decision (one throw per batter)
``AB``    dice      the batter's roll: adjusted average + 2d6 on the chart, and
                    the extra-base-hit die
``E``     batting   error roll after a ground out (outs before the out)
``D``     fielding  double-play roll (outs after the batter's out)
``R``     fielding  which runner is doubled up (``dp_runner``)
``T``     batting   tag-up of the runner on third, then second, then first
========  ========  ==========================================================

A node with no choice is skipped exactly as the engine skips it (no steal candidate
goes straight to the pickoff, empty bases straight to the roll). The ``S`` nodes' steal
flags are only those the engine can reach (a runner who stole second or third in this
plate appearance); ``pickoff_tried`` needs no node of its own, since the pickoff is
offered exactly once per batter. Rules followed exactly as RULES.md reads them: a
caught stealing or pickoff for the third out ends the half with the batter still due
up; a double play that is the third out scores nobody; tag-ups third to first, each
only to an empty base; the home team does not bat when ahead after the top of the last
inning; in the bottom of the last inning or later the game ends when the home team
leads (the walk-off cap on runs changes the score, never the winner).

The value of a node is an array over (batting team's batter, fielding team's next
batter), 9 x 9: the fielding team's place only matters at the end of the half, but
vectorising over it costs nothing. Within a half inning the score difference only
moves one way (the batting team scores), and with the runs left out every transition
that keeps the outs strictly moves runners forward. So the half is solved for one
``d`` at a time, from the most runs scored back to the fewest, and within one ``d``
in topological order of the run-free transitions (checked when the graph is built).

Extra innings
-------------
Inning ``innings`` and every extra inning have the same rules (walk-off, no bottom
half when the home team leads), and an extra inning always starts tied. Its value
``X[away batter, home batter]`` is therefore the fixed point of one inning whose tied
end is worth ``X`` again: ``X = T(X)``. ``T`` is a contraction with modulus the chance
of a tied inning, so value iteration from ``X = 1/2`` converges geometrically; it
stops when no entry moves by more than ``tol`` (1e-13). Layers ``0 .. innings-1`` are
the scheduled innings and layer ``innings`` stands for every extra inning (agents are
asked with ``inning = innings + 1`` there and assumed to play every extra inning
alike; the solver's own policy is stationary there exactly).

The score bound
---------------
Differences ``|d| <= bound`` (default 20) are solved exactly. A state whose difference
leaves the bound is scored as won by the team ahead (an absorbing approximation, which
keeps the graph acyclic). It can only matter after a team has led by more than
``bound`` runs and then lost; :func:`bound_effect` measures it by solving with two
bounds. Sample at reds, 9 innings, bound 20 against 30: the game value moves by
3.5e-8, start values with ``|d| <= 10`` by at most 5.1e-5, with ``|d| <= 15`` by
5.4e-4, and at the bound itself by 2.6e-3 (bound 10 would move the game value 4.4e-4).

Policy evaluation
-----------------
Any manager following the agent protocol is turned into a policy table by asking it
at every decision state of its seat (:func:`policy_table`): a view
(:class:`~dugout.envs.thats_baseball.view.ThatsBaseballView`) is built for the state
and, if the agent has ``action_probabilities(observation, view)`` (a mapping or sequence
over the five actions; the agent protocol's optional method), that distribution is used,
all of a decision node's states in one call when the agent has
``action_probabilities_batch(observations, masks)`` (a trained policy); an agent whose
``deterministic`` attribute is true is tabled by its most likely action; otherwise
``act(observation, view)`` is taken as deterministic (a
:class:`~dugout.agents.RandomAgent` is known to be uniform). The same
backward pass with the table in place of max/min gives the agent's exact win
probability against the solver's optimal policy, against any other table, or against a
best response (:func:`evaluate`). Two readings make the table finite: the view's score
is given as ``(max(0, -d), max(0, d))`` (the game depends on the difference only), and
after the steal phase ``tried_steal`` and ``pickoff_tried`` are shown as False (they no
longer affect the game). An agent that reads the total runs or those flags is
evaluated as if the game had those values there.

"Gap to optimal" (:func:`gap_to_optimal`) is, for each seat, the optimal manager's win
probability in that seat against the optimal manager minus the agent's win probability
in that seat against the optimal manager; it is never negative, since the optimal
policy guarantees the game value against anybody.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ...envs.core.bases import advance_all, advance_runner, force_advance, push_runner, remove_runner
from ...envs.core.decisions import Decision, action_mask
from ...envs.core.dice import Dice
from ...envs.core.scoreboard import Scoreboard
from ...envs.core.scorebook import BoxScore, PlayLog
from ...envs.thats_baseball import rules
from ...envs.thats_baseball.cards import AA_MAX, AA_MIN, Batter, Team, load_team
from ...envs.thats_baseball.env import OBS, option_labels
from ...envs.thats_baseball.view import ThatsBaseballView
from ..base import ViewAgent
from ..random_agent import RandomAgent

__all__ = ["Solution", "PolicyTable", "SolverAgent", "solve", "cached_solution", "policy_table",
           "evaluate", "gap_to_optimal", "bound_effect", "expected_runs", "outcome_probabilities",
           "situation", "encode_observation", "RULES_VERSION", "DEFAULT_BOUND", "REFERENCE_RULE",
           "main"]

#: The engine whose rules the solver follows; tables made under another are refused.
RULES_VERSION = "thats_baseball-1"
FORMAT_VERSION = 1
DEFAULT_BOUND = 20
PASS, ROLL = rules.PASS, rules.ROLL
N_ACTIONS = len(rules.ACTIONS)
BATTING_KINDS = ("steal", "error_roll", "tag_up")
KIND_OF = {"S": "steal", "P": "pickoff", "E": "error_roll", "D": "double_play", "R": "dp_runner",
           "T": "tag_up"}
NODE_OF = {kind: code for code, kind in KIND_OF.items()}
#: The issue's fixed policy: no steals, no pickoffs, no double-play rolls, always roll for
#: errors and tag-ups (``dp_runner`` never arises under it).
REFERENCE_RULE = {"steal": PASS, "pickoff": PASS, "double_play": PASS, "error_roll": ROLL,
                  "tag_up": ROLL, "dp_runner": rules.RUNNER_ON_THIRD}
NEXT = np.roll(np.arange(9), -1)          # x[NEXT][o] = x[o + 1]: the next batter up
EPS = 1e-12                                # ties within EPS go to pass, then the lowest action
END = -1                                   # target: the half inning is over


# -- the batter's roll ------------------------------------------------------------------------
OUTCOMES = ("walk", "strikeout", "fly_out", "ground_out", "single", "double", "triple", "home_run")
_CODE = {"BB": "walk", "HBP": "walk", "SO": "strikeout", "FO": "fly_out", "GO": "ground_out",
         "1B": "single", "2B": "double", "3B": "triple", "HR": "home_run"}


def outcome_probabilities(aa: int) -> np.ndarray:
    """Chance of each of :data:`OUTCOMES` for a batter of adjusted average ``aa`` (1e, 1h)."""
    if isinstance(aa, bool) or not isinstance(aa, (int, np.integer)) or not AA_MIN <= aa <= AA_MAX:
        raise ValueError(f"adjusted average must be an int from {AA_MIN} to {AA_MAX}, got {aa!r}")
    p = np.zeros(len(OUTCOMES))
    for a in range(1, 7):
        for b in range(1, 7):
            result = rules.RESULT_CHART[int(aa) + a + b]
            if result == rules.XBH:
                for die, hit in rules.EXTRA_BASE_HIT.items():
                    p[OUTCOMES.index(_CODE[hit.code])] += 1 / 36 / 6
            else:
                p[OUTCOMES.index(_CODE[result.code])] += 1 / 36
    return p


def _lineup_probabilities(lineup: Sequence[int]) -> np.ndarray:
    """(outcome, batter, 1): outcome chances of each batter, ready to scale a 9 x 9 block."""
    return np.stack([outcome_probabilities(aa) for aa in lineup], axis=1)[:, :, None]


def _check_lineup(lineup: Any, which: str) -> tuple[int, ...]:
    try:
        out = tuple(int(a) for a in lineup)
    except (TypeError, ValueError):
        raise ValueError(f"{which} lineup must be nine adjusted averages, got {lineup!r}") from None
    if len(out) != 9:
        raise ValueError(f"{which} lineup must have nine batters, got {len(out)}")
    for i, a in enumerate(out):
        if not AA_MIN <= a <= AA_MAX:
            raise ValueError(f"{which} lineup: batter {i + 1} has adjusted average {a}, "
                             f"outside {AA_MIN}..{AA_MAX}")
    return out


# -- the plate appearance as a graph ------------------------------------------------------------
def _tuple(b: int) -> tuple:
    return tuple(i if b >> i & 1 else None for i in range(3))


def _mask(bases: tuple) -> int:
    return sum(1 << i for i in range(3) if bases[i] is not None)


def steal_candidates(b: int, f: int) -> tuple[int, ...]:
    """1i: bases whose runner may still steal: not tried yet, next base empty (home always is)."""
    return tuple(i for i in range(3)
                 if b >> i & 1 and not f >> i & 1 and (i == 2 or not b >> (i + 1) & 1))


def _steal(o: int, b: int, f: int, r: int = 0, shift: int = 0) -> tuple:
    if steal_candidates(b, f):
        return (("S", o, b, f), r, shift)
    return _pickoff(o, b, r, shift)


def _pickoff(o: int, b: int, r: int = 0, shift: int = 0) -> tuple:
    return (("P", o, b), r, shift) if b else (("AB", o, b), r, shift)


def _end_pa(o: int, b: int, r: int = 0) -> tuple:
    """The plate appearance is over: the next batter comes up, or the side is retired."""
    return (END, r, 1) if o == 3 else _steal(o, b, 0, r, 1)


def _after_ground_out(o2: int, b: int) -> tuple:
    """1k: a double-play roll with a runner on first and fewer than three outs."""
    if o2 < 3 and b & 1:
        return (("D", o2, b), 0, 0)
    return _end_pa(o2, b)


def _tag(o2: int, b: int, s: int, r: int = 0) -> tuple:
    """1l: the next runner (third, second, first) with the base ahead empty, or the end."""
    for base in range(s, -1, -1):
        if b >> base & 1 and (base == 2 or not b >> (base + 1) & 1):
            return (("T", o2, b, base), r, 0)
    return _end_pa(o2, b, r)


def _turn_double_play(o2: int, b: int, base: int) -> tuple:
    rest, scored = advance_all(remove_runner(_tuple(b), base), 1)
    if o2 + 1 == 3:
        return (END, 0, 1)                          # no run scores on the third out
    return _end_pa(o2 + 1, _mask(rest), len(scored))


def _program(key: tuple) -> tuple[str | None, list]:
    """(actor, branches): actor "bat"/"field" for a decision (one branch per legal action,
    ``(action, terms)``), None for the dice (one branch); a term is ``(prob, target)`` with
    prob a float or an outcome name (the batter's chance of it)."""
    code, o, b = key[0], key[1], key[2]
    t = _tuple(b)
    if code == "S":
        f = key[3]
        branches = [(PASS, [(1.0, _pickoff(o, b))])]
        for base in steal_candidates(b, f):
            bit = 1 << base
            caught = (END, 0, 0) if o + 1 == 3 else _steal(o + 1, b & ~bit, f & ~bit)
            if base < 2:
                safe = _steal(o, b & ~bit | bit << 1, f & ~bit | bit << 1)
            else:
                safe = _steal(o, b & ~bit, f & ~bit, r=1)
            branches.append((base + 1, [(0.5, caught), (0.5, safe)]))
        return "bat", branches
    if code == "P":
        branches = [(PASS, [(1.0, (("AB", o, b), 0, 0))])]
        for base in range(3):
            if b >> base & 1:
                out = (END, 0, 0) if o + 1 == 3 else (("AB", o + 1, b & ~(1 << base)), 0, 0)
                moved, scored = push_runner(remove_runner(t, base), base + 1, base)
                error = (("AB", o, _mask(moved)), len(scored), 0)
                branches.append((base + 1, [(1 / 36, out), (1 / 36, error),
                                            (34 / 36, (("AB", o, b), 0, 0))]))
        return "field", branches
    if code == "AB":
        terms = []
        for name in OUTCOMES:
            if name == "walk":
                new, scored = force_advance(t, 9)
                target = _end_pa(o, _mask(new), len(scored))
            elif name == "strikeout":
                target = _end_pa(o + 1, b)
            elif name == "fly_out":
                target = _tag(o + 1, b, 2) if o + 1 < 3 and b else _end_pa(o + 1, b)
            elif name == "ground_out":
                target = (("E", o, b), 0, 0)
            else:
                n = ("single", "double", "triple", "home_run").index(name) + 1
                new, scored = advance_all(t, n, 9)
                target = _end_pa(o, _mask(new), len(scored))
            terms.append((name, target))
        return None, [(None, terms)]
    if code == "E":
        on_error, scored = advance_all(t, 1, 9)
        return "bat", [(PASS, [(1.0, _after_ground_out(o + 1, b))]),
                       (ROLL, [(1 / 36, _end_pa(o, _mask(on_error), len(scored))),
                               (35 / 36, _after_ground_out(o + 1, b))])]
    if code == "D":
        missed, scored = push_runner(remove_runner(t, 0), 1, 0)
        turned = (("R", o, b), 0, 0) if bin(b).count("1") > 1 else _turn_double_play(o, b, 0)
        return "field", [(PASS, [(1.0, _end_pa(o, b))]),
                         (ROLL, [(0.5, _end_pa(o, _mask(missed), len(scored))), (0.5, turned)])]
    if code == "R":
        return "field", [(base + 1, [(1.0, _turn_double_play(o, b, base))])
                         for base in range(3) if b >> base & 1]
    if code == "T":
        s = key[3]
        moved, scored = advance_runner(t, s, 1)
        hold = _tag(o, b, s - 1)
        return "bat", [(PASS, [(1.0, hold)]),
                       (ROLL, [(4 / 6, hold), (2 / 6, _tag(o, _mask(moved), s - 1, len(scored)))])]
    raise AssertionError(key)


class _Graph:
    """Every node of a plate appearance, its program, and a run-free topological order."""

    def __init__(self) -> None:
        self.start_keys = [[_steal(o, b, 0)[0] for b in range(8)] for o in range(3)]
        programs: dict[tuple, tuple] = {}
        todo = [k for row in self.start_keys for k in row]
        while todo:
            key = todo.pop()
            if key in programs:
                continue
            programs[key] = _program(key)
            for _, terms in programs[key][1]:
                todo.extend(target for _, (target, _, _) in terms if target != END)
        self.keys = sorted(programs, key=lambda k: (k[0], k[1:]))
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.order = self._topological_order(programs)
        self.actor: list[str | None] = []
        self.branches: list[list] = []
        for key in self.keys:
            actor, branches = programs[key]
            self.actor.append(actor)
            self.branches.append([(a, [(p, self.index[t] if t != END else END, r, s)
                                       for p, (t, r, s) in terms]) for a, terms in branches])
        self.decisions = [i for i, a in enumerate(self.actor) if a is not None]
        self.decision_index = {self.keys[n]: j for j, n in enumerate(self.decisions)}
        self.legal = [tuple(a for a, _ in self.branches[n]) for n in self.decisions]
        self.start = np.array([[self.index[k] for k in row] for row in self.start_keys])

    @staticmethod
    def _topological_order(programs: dict) -> list[int]:
        """Nodes so that every run-free successor comes first; a cycle would be a bug."""
        keys = sorted(programs, key=lambda k: (k[0], k[1:]))
        index = {k: i for i, k in enumerate(keys)}
        deps = {index[k]: {index[t] for _, terms in programs[k][1] for _, (t, r, _) in terms
                           if t != END and r == 0} for k in keys}
        order, state = [], {}

        def visit(n: int) -> None:
            stack = [(n, iter(sorted(deps[n])))]
            state[n] = 1
            while stack:
                node, it = stack[-1]
                for m in it:
                    if state.get(m) == 1:
                        raise AssertionError(f"run-free cycle through {keys[m]}")
                    if m not in state:
                        state[m] = 1
                        stack.append((m, iter(sorted(deps[m]))))
                        break
                else:
                    state[node] = 2
                    order.append(node)
                    stack.pop()

        for n in range(len(keys)):
            if n not in state:
                visit(n)
        return order


GRAPH = _Graph()
N_DECISIONS = len(GRAPH.decisions)


def _decision_key(view: ThatsBaseballView) -> tuple:
    b = sum(1 << i for i in range(3) if view.bases[i])
    code = NODE_OF[view.decision]
    if code == "S":
        return ("S", view.outs, b, sum(1 << i for i in range(3) if view.tried_steal[i] and view.bases[i]))
    if code == "T":
        return ("T", view.outs, b, view.subject)
    return (code, view.outs, b)


# -- choosing at decision nodes ------------------------------------------------------------------
class _Optimal:
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


class _Rule:
    """One action per decision kind, everywhere (the fixed policies of the tests)."""

    def __init__(self, rule: Mapping[str, int]):
        self.rule = rule

    def pick(self, layer, half, di, j, legal, values):
        kind = KIND_OF[GRAPH.keys[GRAPH.decisions[j]][0]]
        a = self.rule[kind]
        if a not in legal:
            a = max(legal) if kind == "dp_runner" else legal[0]
        return values[legal.index(a)]


class _Uniform:
    def pick(self, layer, half, di, j, legal, values):
        return sum(values) / len(values)


class _Table:
    """An agent's policy table."""

    def __init__(self, table: PolicyTable):
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
def _half_pass(layer: int, half: int, probs: np.ndarray, sign: int, end: np.ndarray,
               beyond: Callable[[int], float], d_order: Sequence[int], choosers: Sequence,
               prefill: Mapping[int, float] | None = None, keep: bool = False) -> np.ndarray:
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


OUTCOME_INDEX = {name: i for i, name in enumerate(OUTCOMES)}
GRAPH.decision_index_by_node = {n: j for j, n in enumerate(GRAPH.decisions)}


def _fetch(V: np.ndarray, end: np.ndarray, beyond, di: int, sign: int, target: int, r: int,
           shift: int):
    dj = di + sign * r
    if dj < 0 or dj >= V.shape[0]:
        return beyond(dj)
    x = end[dj] if target == END else V[dj, target]
    return x[NEXT] if shift else x


# -- the whole game ---------------------------------------------------------------------------------
@dataclass
class _Plan:
    """What a game pass needs: lineups, innings, bound and a chooser per seat."""
    lineups: tuple[tuple[int, ...], tuple[int, ...]]
    innings: int
    bound: int
    choosers: tuple
    tol: float = 1e-13
    max_iterations: int = 500


def _d_orders(bound: int, half: int, extra: bool, last: bool) -> list[int]:
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


def _game_pass(plan: _Plan, on_half: Callable[[int, int, np.ndarray], None]) -> tuple[np.ndarray, int]:
    """Backward induction over the game; ``on_half(layer, half, V)`` sees every half's values.

    Returns the start values of the first inning's top half (d, away, home) and the
    number of extra-inning iterations.
    """
    n, bound = plan.innings, plan.bound
    probs = [_lineup_probabilities(plan.lineups[0]), _lineup_probabilities(plan.lineups[1])]
    beyond = _beyond(bound)
    start = GRAPH.start[0, 0]

    def inning(layer: int, bottom_end: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        extra, last = layer >= n, layer >= n - 1
        prefill = _walkoff(bound) if last else None
        vb = _half_pass(layer, 1, probs[1], +1, bottom_end, beyond, _d_orders(bound, 1, extra, last),
                        plan.choosers, prefill)
        vt = _half_pass(layer, 0, probs[0], -1, _transpose(vb[:, start]), beyond,
                        _d_orders(bound, 0, extra, last), plan.choosers)
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


# -- the solution ---------------------------------------------------------------------------------
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
                count += len(_d_orders(self.bound, half, extra, last)) * len(GRAPH.keys)
        return count

    # -- reading it --------------------------------------------------------------------------
    def _layer(self, inning: int) -> int:
        if inning < 1:
            raise ValueError(f"inning must be 1 or more, got {inning}")
        return min(inning, self.innings + 1) - 1

    def _di(self, home_lead: int) -> int:
        return max(-self.bound, min(self.bound, int(home_lead))) + self.bound

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
        o_bat, o_field = order[half], order[1 - half]
        return float(self.start[self._layer(inning), half, self._di(d), outs, b, o_bat, o_field])

    def _locate(self, view: ThatsBaseballView) -> tuple:
        if tuple(map(tuple, view.lineups)) != self.lineups or view.innings != self.innings:
            raise ValueError(f"this solution is for lineups {self.lineups} over {self.innings} "
                             f"innings, not {view.lineups} over {view.innings}")
        if view.decision is None:
            raise ValueError("the view has no decision pending for its manager")
        key = _decision_key(view)
        j = GRAPH.decision_index.get(key)
        if j is None or GRAPH.legal[j] != tuple(view.legal):
            raise RuntimeError(f"the solver's model has no {view.decision!r} decision with "
                               f"legal actions {view.legal} at {key}: engine and solver disagree")
        h = view.half
        d = view.score[1] - view.score[0]
        return (self._layer(view.inning), h, self._di(d), j, view.order[h], view.order[1 - h])

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
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(self.meta())), start=self.start,
                                values=self.values, policy=self.policy, extra_tie=self.extra_tie)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike, lineups: Sequence[Sequence[int]] | None = None,
             innings: int | None = None, bound: int | None = None) -> Solution:
        """Read saved tables; refuse those of another rules version or, when given, other
        lineups, innings or bound."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {k: data[k] for k in ("start", "values", "policy", "extra_tie")}
        except (OSError, KeyError, ValueError) as e:
            raise ValueError(f"{path}: not a saved That's Baseball solution ({e})") from None
        if meta.get("format") != FORMAT_VERSION:
            raise ValueError(f"{path}: solution format {meta.get('format')!r}, this version "
                             f"reads {FORMAT_VERSION}")
        if meta.get("rules_version") != RULES_VERSION:
            raise ValueError(f"{path}: solved under rules {meta.get('rules_version')!r}, the "
                             f"engine is {RULES_VERSION!r}; solve again")
        saved = tuple(tuple(x) for x in meta["lineups"])
        if lineups is not None:
            wanted = (_check_lineup(lineups[0], "away"), _check_lineup(lineups[1], "home"))
            if wanted != saved:
                raise ValueError(f"{path}: solved for lineups {saved}, not {wanted}")
        if innings is not None and innings != meta["innings"]:
            raise ValueError(f"{path}: solved for {meta['innings']} innings, not {innings}")
        if bound is not None and bound != meta["bound"]:
            raise ValueError(f"{path}: solved with score bound {meta['bound']}, not {bound}")
        return cls(lineups=saved, innings=meta["innings"], bound=meta["bound"],
                   seconds=meta["seconds"], iterations=meta["iterations"], **arrays)


def _check_game(innings: Any, bound: Any) -> None:
    if isinstance(innings, bool) or not isinstance(innings, int) or innings < 1:
        raise ValueError(f"innings must be a positive int, got {innings!r}")
    if isinstance(bound, bool) or not isinstance(bound, int) or bound < 1:
        raise ValueError(f"the score bound must be a positive int, got {bound!r}")


def _lineups(away: Any, home: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Lineups from adjusted averages or anything ``load_team`` accepts (a name, a file...)."""
    def one(x: Any, which: str) -> tuple[int, ...]:
        if isinstance(x, (str, os.PathLike, Team, dict)):
            return load_team(x).aas
        return _check_lineup(x, which)
    return one(away, "away"), one(home, "home")


def _empty_tables(innings: int, bound: int, fill_policy: bool = True):
    shape = (innings + 1, 2, 2 * bound + 1)
    start = np.full(shape + (3, 8, 9, 9), np.nan)
    values = np.full(shape + (N_DECISIONS, 9, 9), np.nan)
    policy = np.full(shape + (N_DECISIONS, 9, 9), -1, dtype=np.int8) if fill_policy else None
    return start, values, policy


def solve(away: Any, home: Any, innings: int = 9, bound: int = DEFAULT_BOUND,
          tol: float = 1e-13) -> Solution:
    """Solve the game between two lineups (adjusted averages, or team names/files)."""
    _check_game(innings, bound)
    lineups = _lineups(away, home)
    t0 = time.perf_counter()
    start, values, policy = _empty_tables(innings, bound)
    choosers = (_Optimal(0, policy), _Optimal(1, policy))

    def keep(layer: int, half: int, V: np.ndarray) -> None:
        start[layer, half] = V[:, GRAPH.start]
        values[layer, half] = V[:, GRAPH.decisions]

    _, iterations = _game_pass(_Plan(lineups, innings, bound, choosers, tol), keep)
    x = start[innings, 0, bound, 0, 0]
    return Solution(lineups, innings, bound, start, values, policy, x.copy(),
                    seconds=time.perf_counter() - t0, iterations=iterations)


def _cache_path(lineups, innings: int, bound: int) -> Path:
    from ..value_tables import cache_dir
    key = json.dumps({"lineups": lineups, "innings": innings, "bound": bound,
                      "rules": RULES_VERSION, "format": FORMAT_VERSION}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / "solver" / f"thats_baseball-{digest}.npz"


@lru_cache(maxsize=4)
def cached_solution(lineups: tuple[tuple[int, ...], tuple[int, ...]], innings: int = 9,
                    bound: int = DEFAULT_BOUND, use_disk: bool = True) -> Solution:
    """The solution for two lineups, kept in memory and on disk (``$DUGOUT_CACHE``)."""
    lineups = (_check_lineup(lineups[0], "away"), _check_lineup(lineups[1], "home"))
    path = _cache_path([list(x) for x in lineups], innings, bound)
    if use_disk and path.exists():
        try:
            return Solution.load(path, lineups, innings, bound)
        except ValueError:
            pass                                     # stale or damaged: solve again
    solution = solve(lineups[0], lineups[1], innings, bound)
    if use_disk:
        try:
            solution.save(path)
        except OSError:
            pass
    return solution


# -- the optimal manager --------------------------------------------------------------------------
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
        _check_game(1, bound)
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


# -- other managers as policy tables --------------------------------------------------------------
@dataclass
class PolicyTable:
    """One seat's play at every decision state of that seat: an action (deterministic
    agents) or a distribution over the five actions (agents with
    ``action_probabilities``); ``uniform`` for a random manager. Indexed like
    :attr:`Solution.policy`."""
    name: str
    seat: int
    actions: np.ndarray | None = None
    probs: np.ndarray | None = None
    uniform: bool = False
    queries: int = 0
    seconds: float = 0.0


def _seat_nodes(seat: int, half: int) -> list[int]:
    """Decision indices that ``seat`` decides in ``half``."""
    out = []
    for j, n in enumerate(GRAPH.decisions):
        batting = GRAPH.actor[n] == "bat"
        if (seat == half) == batting:
            out.append(j)
    return out


def _view_parts(j: int) -> tuple:
    key = GRAPH.keys[GRAPH.decisions[j]]
    code, o, b = key[0], key[1], key[2]
    kind = KIND_OF[code]
    legal = GRAPH.legal[j]
    labels = option_labels(Decision(kind, 0, legal, key[3] if code == "T" else -1))
    flags = key[3] if code == "S" else 0
    return (kind, key[3] if code == "T" else -1, legal, tuple((a, labels[a]) for a in legal), o,
            tuple(bool(b >> i & 1) for i in range(3)), tuple(bool(flags >> i & 1) for i in range(3)))


def _probabilities(agent: Any, observation: Mapping[str, Any], view: ThatsBaseballView | None,
                   legal_view: ThatsBaseballView) -> np.ndarray:
    raw = agent.action_probabilities(observation, view)
    p = np.zeros(N_ACTIONS)
    items = raw.items() if isinstance(raw, Mapping) else enumerate(raw)
    for a, q in items:
        if not 0 <= int(a) < N_ACTIONS:
            raise ValueError(f"{getattr(agent, 'name', agent)}: action_probabilities gave action {a}")
        p[int(a)] = float(q)
    _check_distribution(agent, p, legal_view.decision, legal_view.legal)
    return p


def _check_distribution(agent: Any, p: np.ndarray, kind: str, legal: tuple) -> None:
    illegal = [a for a in range(N_ACTIONS) if p[a] > 0 and a not in legal]
    if illegal or (p < 0).any() or abs(p.sum() - 1.0) > 1e-6:
        raise ValueError(f"{getattr(agent, 'name', agent)}: action_probabilities at a "
                         f"{kind!r} decision (legal {legal}) must be a distribution "
                         f"over the legal actions, got {p.tolist()}")


def policy_table(agent: Any, solution: Solution, seat: int, kinds: Sequence[str] | None = None,
                 base: PolicyTable | None = None) -> PolicyTable:
    """Ask ``agent`` at every decision state of ``seat`` (0 away, 1 home).

    With ``kinds``, only decisions of those kinds are asked and the rest is copied from
    ``base`` (for an agent known to play like ``base`` elsewhere: an always/never
    baseline is the heuristic except at its own decision).
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 (away) or 1 (home), got {seat!r}")
    name = getattr(agent, "name", type(agent).__name__)
    if not callable(getattr(agent, "act", None)) and not hasattr(agent, "action_probabilities"):
        raise TypeError(f"{name!r} is not an agent: it has neither act() nor action_probabilities()")
    if kinds is not None:
        unknown = set(kinds) - set(rules.DECISION_KINDS)
        if unknown:
            raise ValueError(f"unknown decision kinds {sorted(unknown)}; known: {rules.DECISION_KINDS}")
        if base is None or base.seat != seat or base.actions is None:
            raise ValueError("asking only some kinds needs a deterministic base table of the same seat")
    t0 = time.perf_counter()
    if isinstance(agent, RandomAgent) and not hasattr(agent, "action_probabilities"):
        return PolicyTable(name, seat, uniform=True)
    # agents that say how they play use that; a deterministic one (a trained policy played
    # greedily) still fills an action table, from its batched answers when it has them
    deterministic = bool(getattr(agent, "deterministic", False))
    stochastic = hasattr(agent, "action_probabilities") and not deterministic
    s = solution
    shape = (s.innings + 1, 2, 2 * s.bound + 1, N_DECISIONS, 9, 9)
    actions = None if stochastic else (base.actions.copy() if base is not None else np.full(shape, -1, np.int8))
    probs = np.zeros(shape[:4] + (N_ACTIONS, 9, 9), dtype=np.float32) if stochastic else None
    needs_view = getattr(agent, "needs_view", True)
    batched = hasattr(agent, "action_probabilities_batch") and not needs_view
    queries = 0
    if callable(getattr(agent, "reset", None)):
        agent.reset(0)
    for layer in range(s.innings + 1):
        inning = layer + 1
        for half in (0, 1):
            last, extra = layer >= s.innings - 1, layer >= s.innings
            ds = sorted(_d_orders(s.bound, half, extra, last))
            for j in _seat_nodes(seat, half):
                kind, subject, legal, options, outs, bases, tried = _view_parts(j)
                if kinds is not None and kind not in kinds:
                    continue
                if not stochastic:
                    actions[layer, half, :, j] = -1
                mask = action_mask(N_ACTIONS, legal)
                if batched:
                    queries += _ask_batch(agent, s, layer, half, j, ds, view_parts=(
                        seat, kind, subject, legal, options, inning, outs, bases, tried),
                        mask=mask, actions=actions, probs=probs)
                    continue
                for (di, ob, of), view in _node_views(s, half, ds, (
                        seat, kind, subject, legal, options, inning, outs, bases, tried)):
                    queries += 1
                    obs = {"observation": None if needs_view else encode_observation(view),
                           "action_mask": mask}
                    if stochastic:
                        probs[layer, half, di, j, :, ob, of] = _probabilities(
                            agent, obs, view if needs_view else None, view)
                        continue
                    a = agent.act(obs, view if needs_view else None)
                    if a not in legal:
                        raise RuntimeError(f"{name} chose illegal action {a!r} at a {kind!r} "
                                           f"decision (legal: {legal})")
                    actions[layer, half, di, j, ob, of] = a
    return PolicyTable(name, seat, actions=actions, probs=probs, queries=queries,
                       seconds=time.perf_counter() - t0)


def _node_views(s: Solution, half: int, ds: list[int], view_parts: tuple):
    """The view at one decision node for every score difference ``di`` in ``ds`` and pair of
    batting-order places: yields ``((di, batting place, fielding place), view)``."""
    seat, kind, subject, legal, options, inning, outs, bases, tried = view_parts
    for di in ds:
        d = di - s.bound
        score = (max(0, -d), max(0, d))
        for ob in range(9):
            for of in range(9):
                order = (ob, of) if half == 0 else (of, ob)
                yield (di, ob, of), ThatsBaseballView(seat, kind, subject, legal, options, inning, half,
                                                      s.innings, outs, bases, score, s.lineups, order,
                                                      tried, False, False)


def _ask_batch(agent: Any, s: Solution, layer: int, half: int, j: int, ds: list[int],
               view_parts: tuple, mask: np.ndarray, actions: np.ndarray | None,
               probs: np.ndarray | None) -> int:
    """Ask an agent with ``action_probabilities_batch`` about one decision node at every
    score difference and pair of batting-order places at once."""
    kind, legal = view_parts[1], view_parts[3]
    rows, where = [], []
    for place, view in _node_views(s, half, ds, view_parts):
        rows.append(encode_observation(view))
        where.append(place)
    p = np.asarray(agent.action_probabilities_batch(np.stack(rows), np.tile(mask, (len(rows), 1))),
                   dtype=np.float64)
    for (di, ob, of), q in zip(where, p):
        _check_distribution(agent, q, kind, legal)
        if probs is not None:
            probs[layer, half, di, j, :, ob, of] = q
        else:
            actions[layer, half, di, j, ob, of] = int(np.argmax(q))
    return len(rows)


def encode_observation(view: ThatsBaseballView) -> np.ndarray:
    """The env's observation vector for the view's manager (the layout of
    ``dugout.envs.thats_baseball.env``), for agents that read the vector."""
    o = OBS.offset
    x = np.zeros(OBS.size, dtype=np.float32)
    seat, half = view.seat, view.half
    x[o["inning"] + min(view.inning, 10) - 1] = 1.0
    x[o["half"] + half] = 1.0
    x[o["seat"] + seat] = 1.0
    x[o["batting"]] = seat == half
    if view.outs < 3:
        x[o["outs"] + view.outs] = 1.0
    x[o["runners"]:o["runners"] + 3] = view.bases
    own, opp = view.score[seat], view.score[1 - seat]
    x[o["score"]], x[o["score"] + 1] = own / 10.0, opp / 10.0
    x[o["run_diff"]] = max(-1.0, min(1.0, (own - opp) / 10.0))
    scale = float(AA_MAX - AA_MIN)
    for piece, team in (("due_up_batting", half), ("due_up_fielding", 1 - half)):
        at, lineup = view.order[team], view.lineups[team]
        x[o[piece]:o[piece] + 9] = [(a - AA_MIN) / scale for a in lineup[at:] + lineup[:at]]
    if view.decision is not None:
        x[o["decision"] + rules.DECISION_KINDS.index(view.decision)] = 1.0
        if view.subject >= 0:
            x[o["subject"] + view.subject] = 1.0
    x[o["tried_steal"]:o["tried_steal"] + 3] = view.tried_steal
    x[o["pickoff_tried"]] = view.pickoff_tried
    x[o["innings_left"]] = max(0, view.innings - view.inning) / 9.0
    return x


# -- evaluating pairs of managers ------------------------------------------------------------------
Side = Any     # "optimal" (the solver's policy), "best-response", a PolicyTable, or an agent


def _chooser(side: Side, seat: int, solution: Solution):
    if isinstance(side, str):
        if side == "optimal":
            return _Table(PolicyTable("optimal", seat, actions=solution.policy))
        if side == "best-response":
            return _Optimal(seat)
        raise ValueError(f"unknown side {side!r}: use 'optimal', 'best-response', a PolicyTable "
                         f"or an agent")
    if isinstance(side, PolicyTable):
        if side.seat != seat:
            raise ValueError(f"the policy table of {side.name!r} is for seat {side.seat}, not {seat}")
        return _Uniform() if side.uniform else _Table(side)
    if isinstance(side, Mapping):
        return _Rule(side)
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

    top, _ = _game_pass(_Plan(s.lineups, s.innings, s.bound, choosers), keep)
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
    lineup = _check_lineup(lineup, "batting")
    if not 0 <= leadoff <= 8:
        raise ValueError(f"leadoff must be a lineup slot 0..8, got {leadoff!r}")
    nd = max_runs + 1
    end = np.broadcast_to(np.arange(nd, dtype=float)[:, None, None], (nd, 9, 9))
    choosers = (_Rule(rule), _Rule(rule))
    V = _half_pass(0, 1, _lineup_probabilities(lineup), +1, end, lambda dj: float(dj),
                   list(range(nd - 1, -1, -1)), choosers)
    return float(V[0, GRAPH.start[0, 0], leadoff, 0])


# -- setting up a situation in the engine (simulations, observations) --------------------------------
def _team(name: str, lineup: Sequence[int]) -> Team:
    return Team(name, tuple(Batter(f"#{i + 1}", "DH", aa / 100, int(aa)) for i, aa in enumerate(lineup)))


def situation(lineups: Sequence[Sequence[int]], seed: int, *, innings: int = 9, inning: int = 1,
              half: int = 0, outs: int = 0, bases: int = 0, score: tuple[int, int] = (0, 0),
              order: tuple[int, int] = (0, 0)) -> rules.GameState:
    """An engine game at the start of a plate appearance in the given situation, with
    dice ``Dice(seed)``, played on to its first decision."""
    teams = (_team("away", lineups[0]), _team("home", lineups[1]))
    board = Scoreboard(innings=innings)
    board.inning, board.half, board.outs = inning, half, outs
    board.runs = list(score)
    board.line = [[0] * inning, [0] * (inning - 1 + half)]     # the line score, for show
    board.line[0][0] = score[0]
    if board.line[1]:
        board.line[1][0] = score[1]
    at = order[half]
    board.bases = tuple((at + 8 - i) % 9 if bases >> i & 1 else None for i in range(3))
    box = BoxScore(["away", "home"], [[(b.name, str(b.aa)) for b in t.batters] for t in teams])
    state = rules.GameState(teams=teams, board=board, dice=Dice(seed), box=box, log=PlayLog(),
                            order=list(order))
    rules.run(state)
    return state


def play_out(state: rules.GameState, managers: Sequence[Any]) -> int | None:
    """Play an engine game to its end with ``managers[seat]`` (agents reading views)."""
    from ...envs.thats_baseball.view import make_view
    while not state.over:
        d = state.pending
        rules.apply_action(state, managers[d.actor].act(None, make_view(state, d.actor)))
    return state.winner


# -- command line ---------------------------------------------------------------------------------
def _baselines(names: Sequence[str]) -> list[tuple[str, tuple[str, ...] | None]]:
    """(agent, kinds to ask) for each agent: an always/never baseline is asked only at its
    own decision, the heuristic's table filling the rest (it plays as the heuristic there)."""
    out = []
    for name in names:
        kind = name.split("-", 1)[1] if name.startswith(("always-", "never-")) else None
        out.append((name, (kind,) if kind else None))
    return out


def _gap_row(solution: Solution, name: str, kinds, heuristic_tables) -> Gap:
    from ..registry import make_agent
    agent = make_agent("thats_baseball_v0", name, 0)
    if kinds is not None and heuristic_tables is not None:
        tables = tuple(policy_table(agent, solution, seat, kinds, heuristic_tables[seat])
                       for seat in (0, 1))
    else:
        tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
    gap = gap_to_optimal(solution, tables=tables)
    gap.name = name
    return gap


def main(argv: list[str] | None = None) -> Solution:
    """Solve a game and report its value, cost, and every manager's gap to optimal."""
    from ..registry import agent_names
    parser = argparse.ArgumentParser(prog="python -m dugout.agents.solvers.thats_baseball",
                                     description=main.__doc__)
    parser.add_argument("--away", default="sample", help="away team: a built-in name or a JSON file")
    parser.add_argument("--home", default="reds", help="home team: a built-in name or a JSON file")
    parser.add_argument("--innings", type=int, default=9)
    parser.add_argument("--bound", type=int, default=DEFAULT_BOUND,
                        help="largest score difference solved exactly")
    parser.add_argument("--agents", nargs="*", default=None,
                        help="managers whose gap to report (default: random, every always/never "
                             "baseline and the heuristic; none with an empty list)")
    parser.add_argument("--save", metavar="PATH", help="write the solved tables here (.npz)")
    args = parser.parse_args(argv)
    try:
        lineups = _lineups(args.away, args.home)
        _check_game(args.innings, args.bound)
    except (ValueError, OSError) as e:
        parser.error(str(e))
    known = agent_names("thats_baseball_v0")
    names = args.agents if args.agents is not None else [n for n in known if n not in ("solver",)]
    for name in names:
        if name not in known:
            parser.error(f"unknown agent {name!r}; known: {', '.join(known)}")
    solution = solve(*lineups, innings=args.innings, bound=args.bound)
    print(f"{args.away} (away) at {args.home} (home), {args.innings} innings")
    print(f"  lineups: away {list(lineups[0])}, home {list(lineups[1])}")
    print(f"game value (home win probability, both optimal): {solution.game_value:.6f}")
    print(f"tied extra inning, leadoff men up: {solution.extra_tie[0, 0]:.6f} "
          f"({solution.iterations} fixed-point iterations)")
    print(f"solve time: {solution.seconds:.1f} s on one core")
    print(f"states: {solution.state_count:,} solved, {solution.decision_state_count:,} decision states "
          f"(score difference within +-{solution.bound})")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: tables {solution.nbytes / 2**20:.1f} MiB, process peak {peak:.0f} MiB")
    if args.save:
        solution.save(args.save)
        print(f"saved to {args.save}")
    if names:
        print("\ngap to optimal (win probability given away against the optimal manager):")
        print(f"{'manager':22} {'as away':>9} {'as home':>9} {'gap away':>9} {'gap home':>9} "
              f"{'mean gap':>9} {'seconds':>8}")
        heuristic_tables = None
        order = sorted(names, key=lambda n: n != "heuristic")
        from ..registry import make_agent
        for name, kinds in _baselines(order):
            t0 = time.perf_counter()
            if name == "heuristic":
                agent = make_agent("thats_baseball_v0", name, 0)
                heuristic_tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
                gap = gap_to_optimal(solution, tables=heuristic_tables)
                gap.name = name
            else:
                gap = _gap_row(solution, name, kinds, heuristic_tables)
            print(f"{name:22} {gap.away:9.5f} {gap.home:9.5f} {gap.gap_away:9.5f} "
                  f"{gap.gap_home:9.5f} {gap.gap:9.5f} {time.perf_counter() - t0:8.1f}", flush=True)
    return solution


if __name__ == "__main__":
    main(sys.argv[1:])
