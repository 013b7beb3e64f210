"""What the solvers' evaluators do alike before asking a manager: tell it the game's public
set-up, and give a searching manager a seed of its own at every state.

The exact evaluators (:func:`~.thats_baseball.policy.policy_table`,
:func:`~.bottom_ninth.policy.policy_table`) ask a manager at many states, in an order of
their own. A manager that draws random numbers at each decision (the search manager,
:class:`dugout.agents.search.SearchAgent`, draws its worlds from one generator) would answer
a state differently depending on which states were asked before it. :func:`prepare` wraps
such a manager in :class:`SeededPerState`, which reseeds it before every question with
:func:`view_seed` (a hash of the view's fields, the evaluator's seed and the manager's own
``seed``, the one it was made or last reset with): its answer at a state is then a function
of the state and of that seed alone, the same in any order, in any process. A manager that
says how it plays (``action_probabilities``: the search at a simultaneous decision plays a
mix) is asked so, reseeded alike.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any, Mapping

__all__ = ["view_seed", "SeededPerState", "prepare", "searches"]


def _plain(value: Any) -> Any:
    """``value`` if it is made of numbers, strings, booleans and None (in tuples or lists),
    else None: the fields of a view that have a stable text in any process."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        items = [_plain(v) for v in value]
        return tuple(items) if all(i is not None or v is None for i, v in zip(items, value)) else None
    return None


def view_seed(seed: int, view: Any, own: int = 0) -> int:
    """A 63-bit seed from ``seed``, the plain fields of ``view`` (a dataclass) and the
    manager's own seed ``own`` (0 leaves the seed as ``seed`` and the view alone make it),
    the same in every process (no Python ``hash``)."""
    if not dataclasses.is_dataclass(view):
        raise TypeError(f"view_seed needs a view (a dataclass), got {type(view).__name__}")
    fields = tuple((f.name, _plain(getattr(view, f.name))) for f in dataclasses.fields(view))
    key = (int(seed), type(view).__name__, fields) + ((int(own),) if own else ())
    digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class SeededPerState:
    """A manager asked as the evaluators ask it, reseeded at every state:
    ``reset(view_seed(seed, view, own))`` before each question, where ``own`` is the
    manager's own seed (its ``seed`` attribute, 0 for None: two search managers made with
    different seeds are two draws; one of seed 0 is reseeded as before managers told their
    seed), and ``reset(own)`` after it. ``reset(seed)`` sets the evaluator's seed it mixes
    in. ``act`` is offered, and ``action_probabilities`` where the manager has it."""

    needs_view = True

    def __init__(self, agent: Any, seed: int = 0):
        self.agent, self.seed = agent, int(seed)
        #: the manager's own seed, given back to it after every question
        self.own = getattr(agent, "seed", None)
        self.name = getattr(agent, "name", type(agent).__name__)
        if callable(getattr(agent, "action_probabilities", None)):
            self.action_probabilities = self._action_probabilities

    def reset(self, seed: int | None = None) -> None:
        self.seed = 0 if seed is None else int(seed)

    def _ask(self, how: Any, observation: Mapping[str, Any], view: Any, what: str) -> Any:
        """``how(observation, view)`` with the manager reseeded from the view, and reset to
        its own seed after (so wrapping it again finds that seed, whatever was asked)."""
        if view is None:
            raise ValueError(f"{self.name}: {what}() needs the manager's view")
        self.agent.reset(view_seed(self.seed, view, self.own or 0))
        try:
            return how(observation, view)
        finally:
            self.agent.reset(self.own)

    def act(self, observation: Mapping[str, Any], view: Any = None) -> int:
        return self._ask(self.agent.act, observation, view, "act")

    def _action_probabilities(self, observation: Mapping[str, Any], view: Any = None):
        """The wrapped manager's ``action_probabilities``, reseeded from the view."""
        return self._ask(self.agent.action_probabilities, observation, view, "action_probabilities")


def searches(agent: Any) -> bool:
    """Whether ``agent`` is a search manager (it draws random worlds at each decision)."""
    from ..search import SearchAgent
    return isinstance(agent, SearchAgent)


def prepare(agent: Any, setup: Any) -> Any:
    """``agent`` ready to be asked by an evaluator: told the game's public ``setup`` when it
    asks for one (``observe_setup``), and a search manager wrapped in
    :class:`SeededPerState` (which mixes in its own seed); any other manager is returned as
    it is."""
    if isinstance(agent, SeededPerState):
        agent = agent.agent
    if callable(getattr(agent, "observe_setup", None)):
        agent.observe_setup(setup)
    return SeededPerState(agent) if searches(agent) else agent
