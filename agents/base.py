"""The agent protocol: what a dugout manager is given and what it returns.

An agent is any object with::

    name: str
    needs_view: bool                      # True if act() needs the view
    reset(seed: int | None = None) -> None
    act(observation: dict, view=None) -> int

``observation`` is what ``env.observe(agent)`` returns: ``{"observation": float32
vector, "action_mask": int8 vector}``. ``view`` is ``env.unwrapped.view(agent)``: the
same information as a structured, read-only object (each ruleset documents its view
class, e.g. :class:`dugout.envs.thats_baseball.ThatsBaseballView`). It holds only what
that manager may know, so a heuristic that reads it can never see hidden cards or the
dice to come. ``act`` returns a legal action; ``reset(seed)`` is called between games
so that a run can be reproduced game by game.

Optional, for exact evaluators (:mod:`dugout.agents.solvers.thats_baseball`):

* ``action_probabilities(observation, view=None)``: how the agent plays this decision,
  as probabilities over the actions (a sequence, or a mapping action -> probability);
* ``action_probabilities_batch(observations, masks)``: the same for an ``(N, obs)``
  array of observation vectors and an ``(N, actions)`` array of masks, for agents that
  read only the vector (a trained policy answers millions of states this way);
* ``deterministic = True``: the agent always plays its most likely action.

Playing a turn by hand::

    agent = make_agent("thats_baseball_v0", "heuristic")
    for name in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(agent.act(obs, env.unwrapped.view(name)))

:func:`choose` does the same for one decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from .value_tables import ValueTables

__all__ = ["Agent", "AlwaysNever", "ViewAgent", "TablesHeuristic", "Managers", "choose",
           "legal_actions"]


@runtime_checkable
class Agent(Protocol):
    name: str
    needs_view: bool

    def reset(self, seed: int | None = None) -> None: ...

    def act(self, observation: Mapping[str, Any], view: Any = None) -> int: ...


def legal_actions(observation: Mapping[str, Any]) -> tuple[int, ...]:
    """The legal action indices of an observation's mask."""
    return tuple(int(a) for a in np.flatnonzero(observation["action_mask"]))


def choose(env, agent: Agent, name: str | None = None) -> int:
    """Ask ``agent`` for the acting manager's (or ``name``'s) action in ``env`` (an AEC env)."""
    name = env.agent_selection if name is None else name
    view = env.unwrapped.view(name) if getattr(agent, "needs_view", False) else None
    return agent.act(env.observe(name), view)


class ViewAgent:
    """Base class for managers that decide from the view.

    Subclasses set ``VIEW`` (the ruleset's view class) and implement
    ``decide(view) -> int``. ``act`` checks that a view of the right class was given
    and that the answer is legal, so a heuristic's bug shows up as a clear error at the
    decision that caused it rather than as a lost game.
    """

    name = "view-agent"
    needs_view = True
    VIEW: type | None = None

    def reset(self, seed: int | None = None) -> None:
        """Heuristics are deterministic; nothing to reseed."""

    def act(self, observation: Mapping[str, Any], view: Any = None) -> int:
        if view is None:
            raise ValueError(f"{self.name}: act() needs the manager's view "
                             f"(env.unwrapped.view(agent)) as its second argument")
        if self.VIEW is not None and not isinstance(view, self.VIEW):
            raise TypeError(f"{self.name}: expected a {self.VIEW.__name__}, got "
                            f"{type(view).__name__}; is this agent meant for another ruleset?")
        if view.decision is None:
            raise ValueError(f"{self.name}: act() called for a manager who is not to act")
        action = self.decide(view)
        if action not in view.legal:
            raise RuntimeError(f"{self.name} chose illegal action {action} at a "
                               f"{view.decision!r} decision (legal: {view.legal})")
        return action

    def decide(self, view: Any) -> int:
        raise NotImplementedError


class TablesHeuristic(ViewAgent):
    """Base class for heuristics that price decisions by win expectancy: the value tables
    given as ``tables``, else the ruleset's own for the game in view, which the subclass's
    :meth:`build_tables` makes (or finds in its cache) with ``table_options``.

    A heuristic prices every option of every decision, so finding the tables must be cheap:
    it keeps the last tables it built with the view fields they were built from
    (:meth:`table_inputs`) and reuses them while a view brings the same objects (or equal
    ones), as every view of one game does."""

    def __init__(self, tables: ValueTables | None = None, **table_options: Any):
        self._fixed = tables
        self._table_options = table_options
        self._last: tuple[tuple, ValueTables] | None = None

    def tables(self, view: Any) -> ValueTables:
        """The value tables that price the decisions of the game in ``view``."""
        if self._fixed is not None:
            return self._fixed
        inputs = self.table_inputs(view)
        last = self._last
        if last is not None and inputs and inputs == last[0]:     # each field: the same object, or equal
            return last[1]
        tables = self.build_tables(view, **self._table_options)
        self._last = (inputs, tables)
        return tables

    def table_inputs(self, view: Any) -> tuple:
        """The fields of ``view`` the tables are built from (all of them, in a fixed order;
        ``()``: build the tables for every view)."""
        return ()

    def build_tables(self, view: Any, **table_options: Any) -> ValueTables:
        """The ruleset's value tables for the game in ``view``."""
        raise NotImplementedError


class AlwaysNever:
    """A baseline mixin: always (or never) take one yes/no decision kind; the ruleset's
    heuristic (the next class in the method order) decides everything else.

        class ThatsBaseballAlwaysNever(AlwaysNever, ThatsBaseballHeuristic):
            KINDS, RULESET = YES_NO_KINDS, "That's Baseball"

    "Never" passes; "always" takes the option the heuristic values most among the others
    (``option_values(view)``, ties to the lowest action). Where passing is not allowed the
    heuristic decides. Holding every other decision equal, the difference between the two
    and the heuristic is what that one decision is worth.
    """
    KINDS: tuple[str, ...] = ()
    RULESET = ""
    PASS = 0

    def __init__(self, kind: str, always: bool, *args: Any, **options: Any):
        if kind not in self.KINDS:
            raise ValueError(f"unknown yes/no decision {kind!r}; {self.RULESET}'s are {self.KINDS}")
        super().__init__(*args, **options)
        self.kind = kind
        self.always = bool(always)
        self.name = f"{'always' if always else 'never'}-{kind}"

    def decide(self, view: Any) -> int:
        if view.decision != self.kind or self.PASS not in view.legal:
            return super().decide(view)
        if not self.always or len(view.legal) == 1:     # (nothing but the pass)
            return self.PASS
        values = self.option_values(view)
        return max((a for a in view.legal if a != self.PASS), key=lambda a: (values[a], -a))


@dataclass(frozen=True)
class Managers:
    """What the agents' floor provides for one ruleset.

    * ``heuristic()``: the rulebook heuristic;
    * ``always_never(kind, always)``: the heuristic with one yes/no decision kind fixed;
    * ``yes_no_kinds``: those kinds;
    * ``value_tables(teams, innings)``: the ruleset's value tables for two teams given as
      names or files (``teams`` is None for a ruleset without teams), and
      ``default_teams`` (what the value-table command line uses when none are given);
    * ``win_expectancy(view)``: the moving manager's win expectancy (reward shaping);
    * ``extra``: more managers by name, as ``"module:attribute"`` of a class or factory
      called with no argument (imported only when made);
    * ``search``: what the search manager needs of the ruleset
      (:class:`dugout.agents.search.SearchSpec`), or None for a ruleset it cannot search.
    """
    heuristic: Callable[[], Any]
    always_never: Callable[[str, bool], Any]
    yes_no_kinds: tuple[str, ...]
    value_tables: Callable[[Sequence[str] | None, int], Any]
    win_expectancy: Callable[[Any], float]
    default_teams: tuple[str, str] | None = None
    extra: dict[str, str] = field(default_factory=dict)
    search: Any = None
