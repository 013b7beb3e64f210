"""Agents by name, per environment.

    from dugout.agents import make_agent, agent_names
    agent_names("thats_baseball_v0")   # ['always-double_play', ..., 'heuristic', 'random']
    make_agent("thats_baseball_v0", "heuristic")

Names: ``random`` (every env), ``heuristic`` (the ruleset's rulebook heuristic), for each
yes/no decision kind K of the ruleset ``always-K`` and ``never-K``, and ``ppo:PATH`` (a
trained manager's checkpoint folder); ``solver``
(That's Baseball's exact optimal manager, :mod:`dugout.agents.solvers.thats_baseball`).
"""

from __future__ import annotations

from typing import Any, Callable

from .random_agent import RandomAgent

__all__ = ["make_agent", "agent_names", "register", "ENV_IDS"]

Factory = Callable[[int | None], Any]
_REGISTRY: dict[str, dict[str, Factory]] = {}
_BUILT_IN_LOADED: set[str] = set()
ENV_IDS = ("thats_baseball_v0", "grand_slam_v0", "showdown_v0")


def register(env_id: str, name: str, factory: Factory) -> None:
    """Add an agent ``name`` for ``env_id``; ``factory(seed)`` makes one.

    A name already known for that environment is replaced.
    """
    if env_id in ENV_IDS:
        _load(env_id)          # the built-ins first, so a user's agent of the same name wins
    _REGISTRY.setdefault(env_id, {})[name] = factory


def _load(env_id: str) -> dict[str, Factory]:
    if env_id not in ENV_IDS and env_id not in _REGISTRY:
        raise ValueError(f"unknown environment {env_id!r}; known: {sorted(set(ENV_IDS) | set(_REGISTRY))}")
    if env_id not in _BUILT_IN_LOADED:
        _BUILT_IN_LOADED.add(env_id)
        _REGISTRY.setdefault(env_id, {})
        register(env_id, "random", lambda seed: RandomAgent(seed))
        if env_id == "thats_baseball_v0":
            from . import thats_baseball as ruleset
            _register_ruleset(env_id, ruleset.ThatsBaseballHeuristic, ruleset.ThatsBaseballAlwaysNever,
                              ruleset.YES_NO_KINDS)
            register(env_id, "solver", lambda seed: _solver_agent())
        elif env_id == "grand_slam_v0":
            from . import grand_slam as ruleset
            _register_ruleset(env_id, ruleset.GrandSlamHeuristic, ruleset.GrandSlamAlwaysNever,
                              ruleset.YES_NO_KINDS)
        elif env_id == "showdown_v0":
            from . import showdown as ruleset
            _register_ruleset(env_id, ruleset.ShowdownHeuristic, ruleset.ShowdownAlwaysNever,
                              ruleset.YES_NO_KINDS)
    return _REGISTRY.setdefault(env_id, {})


def _solver_agent():
    from .solvers.thats_baseball import SolverAgent
    return SolverAgent()


def _register_ruleset(env_id: str, heuristic, always_never, kinds) -> None:
    """A ruleset's heuristic and its always/never baseline for each yes/no decision kind."""
    register(env_id, "heuristic", lambda seed: heuristic())
    for kind in kinds:
        for always in (True, False):
            register(env_id, f"{'always' if always else 'never'}-{kind}",
                     lambda seed, k=kind, a=always: always_never(k, a))


def agent_names(env_id: str) -> list[str]:
    """The agent names known for ``env_id``."""
    return sorted(_load(env_id))


def make_agent(env_id: str, name: str, seed: int | None = None):
    """A new agent ``name`` for ``env_id`` (seeded where it draws random numbers).

    ``ppo:PATH`` loads a trained manager from a checkpoint folder
    (:class:`dugout.train.checkpoint.PolicyAgent`); it must have been trained on ``env_id``.
    """
    factories = _load(env_id)
    if isinstance(name, str) and name.startswith("ppo:"):
        from ..train.checkpoint import PolicyAgent
        return PolicyAgent.load(name[4:], env_id=env_id, seed=seed)
    try:
        factory = factories[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r} for {env_id}; known agents: "
                         f"{', '.join(sorted(factories))}") from None
    return factory(seed)
