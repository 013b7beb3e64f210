"""Other managers as policy tables: ask an agent at every stare-down, relief and
pitching-change decision of its seat.

Each decision is set up in a real engine state (:func:`dugout.envs.bottom_ninth.rules.new_game`
with the duel's teams, moved to the situation) and offered by the engine's own rules
(``stare_down``, ``offer_guess``, ``clean_up``, ``offer_pitching_change``), so the agent sees
exactly the view and the mask it would see in play (a test compares the observations
with those met in played games). One field is read canonically: the last pitch in words
(``last``, empty; not in the observation). The plate appearances so far (``pa``) are the
runners plus the outs, as in play: every plate appearance adds one or ends the game.

The agent is asked through ``action_probabilities(observation, view)`` when it has one
(a mapping or a sequence over the actions; ``action_probabilities_batch`` for a trained
policy, all of one decision kind in one call), through ``act`` otherwise (taken as
deterministic); a :class:`~dugout.agents.RandomAgent` is known to be uniform.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from ....envs.bottom_ninth import rules
from ....envs.bottom_ninth.env import encode_view
from ....envs.bottom_ninth.view import view_of
from ....envs.core.decisions import action_mask
from ....envs.core.dice import Dice
from ...random_agent import RandomAgent
from ..asking import prepare
from .model import Duel

__all__ = ["PolicyTable", "policy_table", "PUBLIC_SETUP", "where_of"]

#: The public set-up of a solved duel, as a manager that asks for it is told
#: (:func:`dugout.envs.bottom_ninth.sample.public_setup`, every part of it: a pretrained
#: manager compares them all with its game's): the duel, its teams given, no draft, no
#: tenth inning, no support cards, not dealt.
PUBLIC_SETUP = {"mode": "duel", "teams": "given", "draft": False, "extra_innings": False,
                "support": False, "dealt": False}


@dataclass
class PolicyTable:
    """One seat's play at its stare-down, relief and pitching-change decisions.

    ``stare_down[i]``: the distribution over the four pitches (seat 0) or guesses
    (seat 1) at stare-down state ``i``; ``relief[c]``: over the splits (0-6 points to the
    direction token) at clean-up state ``c`` (its index less ``Duel.n_states``);
    ``change[i]``: the chance of bringing in the substitute before the stare-down state
    ``i`` of the starter at 0-0. Entries never asked are NaN."""
    name: str
    seat: int
    stare_down: np.ndarray
    relief: np.ndarray | None = None
    change: np.ndarray | None = None
    queries: int = 0
    seconds: float = 0.0


class _Asker:
    """Asks an agent, one view at a time or a kind at a time."""

    def __init__(self, agent: Any, seat: int, only: set | None = None):
        self.name = getattr(agent, "name", type(agent).__name__)
        if not callable(getattr(agent, "act", None)) and not hasattr(agent, "action_probabilities"):
            raise TypeError(f"{self.name!r} is not an agent: it has neither act() nor "
                            f"action_probabilities()")
        agent = prepare(agent, dict(PUBLIC_SETUP))
        self.agent, self.seat, self.only = agent, seat, only
        self.uniform = isinstance(agent, RandomAgent) and not hasattr(agent, "action_probabilities")
        self.needs_view = getattr(agent, "needs_view", True)
        self.batched = hasattr(agent, "action_probabilities_batch") and not self.needs_view
        self.has_probs = hasattr(agent, "action_probabilities")
        self.queries = 0
        self.pending: list[tuple[Any, Any]] = []       # (where, view)

    def ask(self, where: Any, view) -> None:
        if self.only is None or where in self.only:
            self.pending.append((where, view))

    def answers(self):
        """(where, distribution over all actions) for every pending view."""
        pending, self.pending = self.pending, []
        if not pending:
            return []
        self.queries += len(pending)
        n = rules.N_ACTIONS
        masks = np.stack([action_mask(n, v.legal) for _, v in pending])
        if self.uniform:
            probs = masks / masks.sum(axis=1, keepdims=True)
        elif self.batched:
            obs = np.stack([encode_view(v) for _, v in pending])
            probs = np.asarray(self.agent.action_probabilities_batch(obs, masks), dtype=float)
        else:
            probs = np.zeros((len(pending), n))
            for k, (_, v) in enumerate(pending):
                obs = {"observation": None if self.needs_view else encode_view(v),
                       "action_mask": masks[k]}
                shown = v if self.needs_view else None
                if self.has_probs:
                    raw = self.agent.action_probabilities(obs, shown)
                    items = raw.items() if isinstance(raw, Mapping) else enumerate(raw)
                    for a, q in items:
                        if not 0 <= int(a) < n:
                            raise ValueError(f"{self.name}: action_probabilities gave action {a}")
                        probs[k, int(a)] = float(q)
                else:
                    a = self.agent.act(obs, shown)
                    if a not in v.legal:
                        raise RuntimeError(f"{self.name} chose illegal action {a!r} at a "
                                           f"{v.decision!r} decision (legal: {v.legal})")
                    probs[k, int(a)] = 1.0
        for (_, v), p in zip(pending, probs):
            illegal = [a for a in range(n) if p[a] > 1e-12 and a not in v.legal]
            if illegal or (p < -1e-12).any() or abs(p.sum() - 1.0) > 1e-6:
                raise ValueError(f"{self.name}: action_probabilities at a {v.decision!r} decision "
                                 f"(legal {v.legal}) must be a distribution over the legal "
                                 f"actions, got {np.round(p, 6).tolist()}")
        return [(where, p) for (where, _), p in zip(pending, probs)]


def _table_state(duel: Duel):
    """An engine state of the duel to move from situation to situation."""
    state = rules.new_game(Dice(0), duel.cards, lineup=list(duel.lineup), staff=list(duel.staff),
                           fatigue_rows=duel.rows, faces={f: duel.faces.count(f) for f in "BSC"},
                           out_rule=duel.out_rule)
    return state


def _place(state, duel: Duel, pit, slot, outs, bases, balls, strikes, fd, fl) -> None:
    """Move the engine state to a situation (canonical ``pa``, no last pitch, nothing
    pending; the next rule the stare-down)."""
    # runners are earlier batters (their lineup slots: the box score credits their runs)
    runners = tuple((slot - 1 - i) % 6 if bases >> i & 1 else None for i in range(3))
    rules.set_at_bat(state, slot=slot, outs=outs, bases=runners, balls=balls, strikes=strikes,
                     pitcher=duel.staff[pit], removed=[duel.staff[0]] if pit else [],
                     fatigue=(fd, fl), ceiling=pit, pa=outs + bin(bases).count("1"))


def _to_guess(state) -> None:
    """From a placed situation to the batter's guess: the stare-down, the pitcher's commit
    (any pitch: nothing of it shows in the batter's view), the rules played on to the guess."""
    rules.stare_down(state)
    if state.pending is not None:
        rules.apply_action(state, state.pending.legal[0])
    else:
        rules.run(state)


def where_of(solution, view) -> tuple[str, int]:
    """Where :func:`policy_table` files the answer at a decision view: ``("stare", i)`` at a
    pitch or guess (stare-down state ``i``), ``("relief", c)`` (clean-up state ``c`` less
    ``Duel.n_states``), ``("change", i)`` (the starter's 0-0 stare-down state ``i``)."""
    duel = solution.duel
    pit, slot, outs, bases, balls, strikes, fd, fl = solution.view_state(view)
    if view.decision in ("pitch", "guess"):
        return "stare", duel.index(pit, slot, outs, bases, balls, strikes, fd, fl)
    if view.decision == "relief":
        return "relief", duel.cu_index(pit, slot, outs, bases, fd, fl) - duel.n_states
    if view.decision == "pitching_change":
        return "change", duel.index(0, slot, outs, bases, 0, 0, fd, fl)
    raise ValueError(f"no table entry for a {view.decision!r} decision")


def policy_table(agent: Any, solution, seat: int, base: PolicyTable | None = None,
                 states: set | None = None) -> PolicyTable:
    """Ask ``agent`` at every stare-down (and for the pitcher, relief and pitching-change)
    decision of ``seat`` (0 the pitcher's manager, 1 the batter's) of the solved duel.

    With ``states`` (a set of :func:`where_of` keys), only those decisions are asked and
    the rest is copied from ``base`` (a search manager asked where games go, :mod:`.reached`).
    A manager that asks for the public set-up is told it (:data:`PUBLIC_SETUP`); a search
    manager is reseeded at every state from the state's view
    (:mod:`dugout.agents.solvers.asking`), so its table does not depend on the order of the
    questions."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 (the pitcher's manager) or 1 (the batter's), got {seat!r}")
    if states is not None and (base is None or base.seat != seat):
        raise ValueError("asking only some states needs a base table of the same seat")
    t0 = time.perf_counter()
    duel: Duel = solution.duel
    asker = _Asker(agent, seat, states)
    if callable(getattr(asker.agent, "reset", None)):
        asker.agent.reset(0)
    stare = np.full((duel.n_states, 4), np.nan)
    relief = np.full((duel.n_cleanups, rules.MAX_RELIEF + 1), np.nan) if seat == 0 else None
    change = np.full(duel.n_states, np.nan) if seat == 0 else None
    if base is not None and states is not None:
        stare = base.stare_down.copy()
        relief = None if base.relief is None else base.relief.copy()
        change = None if base.change is None else base.change.copy()
    state = _table_state(duel)
    for layer in duel.layers:
        for i in layer.states:
            s = duel.state_of(int(i))
            _place(state, duel, *s)
            if states is not None and ("stare", int(i)) not in states:
                continue
            if seat == 0:
                rules.stare_down(state)
                if state.pending is None:                  # one legal pitch: committed for him
                    stare[i] = np.eye(4)[state.secret]
                    continue
            else:
                _to_guess(state)
            asker.ask(("stare", int(i)), view_of(state, seat))      # pitch (seat 0) or guess
        _collect(asker, stare, relief, change)
    if seat == 0:
        for measure in range(5, 0, -1):
            for c in duel.cleanup_states(measure):
                pit, slot, outs, bases, fd, fl = c
                _place(state, duel, pit, slot, outs, bases, 0, 0, fd, fl)
                rules.clean_up(state)
                if state.pending is not None:
                    asker.ask(("relief", duel.cu_index(*c) - duel.n_states), view_of(state, 0))
                if pit == 0 and duel.can_change(0):
                    _place(state, duel, pit, slot, outs, bases, 0, 0, fd, fl)
                    rules.offer_pitching_change(state)
                    if state.pending is not None:
                        asker.ask(("change", duel.index(0, slot, outs, bases, 0, 0, fd, fl)),
                                  view_of(state, 0))
            _collect(asker, stare, relief, change)
    return PolicyTable(asker.name, seat, stare, relief, change, asker.queries,
                       time.perf_counter() - t0)


def _collect(asker: _Asker, stare, relief, change) -> None:
    for (what, i), p in asker.answers():
        if what == "stare":
            base = rules.THROW if asker.seat == 0 else rules.GUESS
            stare[i] = p[base:base + 4]
        elif what == "relief":
            relief[i] = p[rules.RELIEF:rules.RELIEF + rules.MAX_RELIEF + 1]
        else:
            change[i] = p[rules.BRING_IN]
