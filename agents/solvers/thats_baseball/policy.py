"""Other managers as policy tables: ask an agent at every decision state of its seat.

A view (:class:`~dugout.envs.thats_baseball.view.ThatsBaseballView`) is built for each
decision state of the seat; the agent's answer fills a :class:`PolicyTable` indexed
like :attr:`~.solution.Solution.policy`, which :func:`~.evaluation.evaluate` plays
exactly. How each kind of agent is asked, and the two readings that make the table
finite, are in the package's docstring (Policy evaluation).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ....envs.core.decisions import Decision, action_mask
from ....envs.thats_baseball import rules
from ....envs.thats_baseball.cards import lineup_team
from ....envs.thats_baseball.env import encode_view, option_labels
from ....envs.thats_baseball.sample import Setup
from ....envs.thats_baseball.view import ThatsBaseballView
from ...random_agent import RandomAgent
from ..asking import prepare
from .graph import GRAPH, KIND_OF, N_ACTIONS, N_DECISIONS
from .induction import d_orders
from .solution import Solution

__all__ = ["PolicyTable", "policy_table", "public_setup", "table_shape"]


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


def public_setup(solution: Solution) -> Setup:
    """The public set-up of the solved game, as a manager that asks for it is told
    (:func:`dugout.envs.thats_baseball.sample.public_setup`): teams known by their lineups'
    adjusted averages (:func:`~dugout.envs.thats_baseball.cards.lineup_team`), the solved
    innings, extra innings until a winner (the solver's game)."""
    return Setup((lineup_team("away", solution.lineups[0]), lineup_team("home", solution.lineups[1])),
                 solution.innings, None)


def table_shape(solution: Solution) -> tuple[int, ...]:
    """The shape of an action table (and of a mask of states): (layer, half, score
    difference, decision node, batting team's place, fielding team's place)."""
    return (solution.innings + 1, 2, 2 * solution.bound + 1, N_DECISIONS, 9, 9)


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
                 base: PolicyTable | None = None, states: np.ndarray | None = None) -> PolicyTable:
    """Ask ``agent`` at every decision state of ``seat`` (0 away, 1 home).

    With ``kinds``, only decisions of those kinds are asked and the rest is copied from
    ``base`` (for an agent known to play like ``base`` elsewhere: an always/never
    baseline is the heuristic except at its own decision). With ``states`` (a boolean
    array of :func:`table_shape`), only those states are asked and the rest is copied from
    ``base`` (a search manager asked where games go, :mod:`.reached`).

    A manager that asks for the game's public set-up is told it (:func:`public_setup`);
    a search manager is reseeded at every state from the state's view
    (:mod:`dugout.agents.solvers.asking`), so its table does not depend on the order of
    the questions.
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
    if kinds is not None or states is not None:
        if base is None or base.seat != seat or base.actions is None:
            raise ValueError("asking only some kinds or states needs a deterministic base table "
                             "of the same seat")
    if states is not None and (states.shape != table_shape(solution) or states.dtype != bool):
        raise ValueError(f"states must be a boolean array of shape {table_shape(solution)}, got "
                         f"{states.dtype} {states.shape}")
    t0 = time.perf_counter()
    if isinstance(agent, RandomAgent) and not hasattr(agent, "action_probabilities"):
        return PolicyTable(name, seat, uniform=True)
    # agents that say how they play use that; a deterministic one (a trained policy played
    # greedily) still fills an action table, from its batched answers when it has them
    deterministic = bool(getattr(agent, "deterministic", False))
    stochastic = hasattr(agent, "action_probabilities") and not deterministic
    if stochastic and states is not None:
        raise ValueError(f"{name!r} plays mixed strategies (action_probabilities): asking it at "
                         f"some states only needs a deterministic manager")
    s = solution
    shape = table_shape(s)
    actions = None if stochastic else (base.actions.copy() if base is not None else np.full(shape, -1, np.int8))
    probs = np.zeros(shape[:4] + (N_ACTIONS, 9, 9), dtype=np.float32) if stochastic else None
    agent = prepare(agent, public_setup(s))
    needs_view = getattr(agent, "needs_view", True)
    batched = hasattr(agent, "action_probabilities_batch") and not needs_view and states is None
    queries = 0
    if callable(getattr(agent, "reset", None)):
        agent.reset(0)
    for layer in range(s.innings + 1):
        inning = layer + 1
        for half in (0, 1):
            last, extra = layer >= s.innings - 1, layer >= s.innings
            ds = sorted(d_orders(s.bound, half, extra, last))
            for j in _seat_nodes(seat, half):
                kind, subject, legal, options, outs, bases, tried = _view_parts(j)
                if kinds is not None and kind not in kinds:
                    continue
                if not stochastic and states is None:
                    actions[layer, half, :, j] = -1
                mask = action_mask(N_ACTIONS, legal)
                if batched:
                    queries += _ask_batch(agent, s, layer, half, j, ds, view_parts=(
                        seat, kind, subject, legal, options, inning, outs, bases, tried),
                        mask=mask, actions=actions, probs=probs)
                    continue
                for (di, ob, of), view in _node_views(s, half, ds, (
                        seat, kind, subject, legal, options, inning, outs, bases, tried),
                        None if states is None else states[layer, half, :, j]):
                    queries += 1
                    obs = {"observation": None if needs_view else encode_view(view),
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


def _node_views(s: Solution, half: int, ds: list[int], view_parts: tuple,
                only: np.ndarray | None = None):
    """The view at one decision node for every score difference ``di`` in ``ds`` and pair of
    batting-order places (those ``only[di, ob, of]`` marks, if given): yields
    ``((di, batting place, fielding place), view)``."""
    seat, kind, subject, legal, options, inning, outs, bases, tried = view_parts
    for di in ds:
        d = di - s.bound
        score = (max(0, -d), max(0, d))
        for ob in range(9):
            for of in range(9):
                if only is not None and not only[di, ob, of]:
                    continue
                order = (ob, of) if half == 0 else (of, ob)
                yield (di, ob, of), ThatsBaseballView(seat, kind, subject, legal, options, inning, half,
                                                      s.innings, outs, bases, score, s.lineups, order,
                                                      tried, False, False, pending=kind,
                                                      pending_subject=subject)


def _ask_batch(agent: Any, s: Solution, layer: int, half: int, j: int, ds: list[int],
               view_parts: tuple, mask: np.ndarray, actions: np.ndarray | None,
               probs: np.ndarray | None) -> int:
    """Ask an agent with ``action_probabilities_batch`` about one decision node at every
    score difference and pair of batting-order places at once."""
    kind, legal = view_parts[1], view_parts[3]
    rows, where = [], []
    for place, view in _node_views(s, half, ds, view_parts):
        rows.append(encode_view(view))
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
