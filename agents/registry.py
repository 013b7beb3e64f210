"""Agents by name, per environment.

    from dugout.agents import make_agent, agent_names
    agent_names("thats_baseball_v0")   # ['always-double_play', ..., 'heuristic', 'random']
    make_agent("thats_baseball_v0", "heuristic")

Names: ``random`` (every env), ``heuristic`` (the ruleset's rulebook heuristic) and,
for each yes/no decision kind K of the ruleset, ``always-K`` and ``never-K``.
"""

from __future__ import annotations

from typing import Any, Callable

from .random_agent import RandomAgent

__all__ = ["make_agent", "agent_names", "register", "ENV_IDS"]

Factory = Callable[[int | None], Any]
_REGISTRY: dict[str, dict[str, Factory]] = {}
ENV_IDS = ("thats_baseball_v0",)


def register(env_id: str, name: str, factory: Factory) -> None:
    """Add an agent ``name`` for ``env_id``; ``factory(seed)`` makes one."""
    _REGISTRY.setdefault(env_id, {})[name] = factory


def _load(env_id: str) -> dict[str, Factory]:
    if env_id not in ENV_IDS and env_id not in _REGISTRY:
        raise ValueError(f"unknown environment {env_id!r}; known: {sorted(set(ENV_IDS) | set(_REGISTRY))}")
    if env_id not in _REGISTRY:
        _REGISTRY[env_id] = {"random": lambda seed: RandomAgent(seed)}
        if env_id == "thats_baseball_v0":
            from .thats_baseball import YES_NO_KINDS, ThatsBaseballAlwaysNever, ThatsBaseballHeuristic
            register(env_id, "heuristic", lambda seed: ThatsBaseballHeuristic())
            for kind in YES_NO_KINDS:
                for always in (True, False):
                    register(env_id, f"{'always' if always else 'never'}-{kind}",
                             lambda seed, k=kind, a=always: ThatsBaseballAlwaysNever(k, a))
    return _REGISTRY[env_id]


def agent_names(env_id: str) -> list[str]:
    """The agent names known for ``env_id``."""
    return sorted(_load(env_id))


def make_agent(env_id: str, name: str, seed: int | None = None):
    """A new agent ``name`` for ``env_id`` (seeded where it draws random numbers)."""
    factories = _load(env_id)
    try:
        factory = factories[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r} for {env_id}; known agents: "
                         f"{', '.join(sorted(factories))}") from None
    return factory(seed)
