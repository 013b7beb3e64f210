"""Managers by name, per environment, from one record per ruleset.

    from dugout.agents import make_agent, agent_names
    agent_names("thats_baseball_v0")   # ['always-double_play', ..., 'heuristic', 'random', 'solver']
    make_agent("thats_baseball_v0", "heuristic")

Names: ``random`` (every env), ``heuristic`` (the ruleset's rulebook heuristic), for each
yes/no decision kind K of the ruleset ``always-K`` and ``never-K``, the ruleset's own
extra managers (That's Baseball's exact ``solver``), ``pretrained`` (the trained manager
dugout ships for the env, where it ships one: :mod:`dugout.agents.pretrained`), and
``ppo:PATH`` (a trained manager's checkpoint folder, :class:`dugout.agents.policy.PolicyAgent`).

**Adding a ruleset.** Its agents module defines ``MANAGERS``, a :class:`Managers` record
(heuristic, always/never baseline, yes/no kinds, value tables, win expectancy, extra
managers), and :data:`MANAGER_MODULES` names that module under the env id: nothing else
on this floor or above dispatches on env ids. The module is imported only when the env's
managers are first asked for.

**Single-agent envs** (the Manager Challenge, ``manager_challenge_v0``) have no opponent,
no yes/no baselines and no value tables: their agents module defines ``MANAGERS`` as a
plain mapping of name to class (each made with the seed, ``cls(seed)``), and
:data:`SOLO_MANAGER_MODULES` names it. Their ``random`` is the module's own (one manager
for every env id, as for the rulesets), and ``ppo:PATH`` and :func:`check_agents` serve
them as they serve the rulesets::

    make_agent("manager_challenge_v0", "heuristic")      # ChallengeHeuristic
    make_agent("manager_challenge_v0", "search:sims=8")  # ChallengeSearchAgent

A single-agent env's search manager is its ``MANAGERS["search"]``, a class made with
``cls(seed, settings)`` whose ``SETTINGS`` are its defaults (``search:key=value,...`` is
parsed over them, with the same checks as a ruleset's).
"""

from __future__ import annotations

import importlib
import threading
from typing import Any, Callable

from ..envs import env_ids
from .base import Managers
from .ref import AgentRef
from .random_agent import RandomAgent

__all__ = ["make_agent", "agent_names", "check_agents", "register", "managers", "Managers",
           "MANAGER_MODULES", "SOLO_MANAGER_MODULES"]

Factory = Callable[[int | None], Any]


#: The agents module of each built-in ruleset (each defines ``MANAGERS``).
MANAGER_MODULES = {
    "thats_baseball_v0": "dugout.agents.thats_baseball",
    "grand_slam_v0": "dugout.agents.grand_slam",
    "showdown_v0": "dugout.agents.showdown",
    "bottom_ninth_v0": "dugout.agents.bottom_ninth",
    "pokemon_baseball_v0": "dugout.agents.pokemon_baseball",
}

#: The agents module of each built-in single-agent env (each defines ``MANAGERS``, a mapping
#: of name to a class made with the seed).
SOLO_MANAGER_MODULES = {
    "manager_challenge_v0": "dugout.agents.manager_challenge",
}

_REGISTRY: dict[str, dict[str, Factory]] = {}
_BUILT_IN_LOADED: set[str] = set()
#: Held while a ruleset's built-in managers register (reentrant: ``register`` calls back into
#: ``_load``), so another thread asking for them waits until they are all there.
_LOAD_LOCK = threading.RLock()


def managers(env_id: str) -> Managers:
    """The :class:`Managers` record of a built-in ruleset."""
    if env_id not in MANAGER_MODULES:
        raise ValueError(f"no managers are registered for {env_id!r}; known: "
                         f"{', '.join(MANAGER_MODULES)}")
    return importlib.import_module(MANAGER_MODULES[env_id]).MANAGERS


def _load_attribute(path: str):
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


def register(env_id: str, name: str, factory: Factory) -> None:
    """Add an agent ``name`` for ``env_id``; ``factory(seed)`` makes one.

    A name already known for that environment is replaced.
    """
    if env_id in MANAGER_MODULES or env_id in SOLO_MANAGER_MODULES:
        _load(env_id)          # the built-ins first, so a user's agent of the same name wins
    _REGISTRY.setdefault(env_id, {})[name] = factory


def _load(env_id: str) -> dict[str, Factory]:
    if env_id not in env_ids("all") and env_id not in _REGISTRY:
        raise ValueError(f"unknown environment {env_id!r}; known: "
                         f"{', '.join(sorted(set(env_ids('all')) | set(_REGISTRY)))}")
    with _LOAD_LOCK:
        if env_id not in _BUILT_IN_LOADED:
            _BUILT_IN_LOADED.add(env_id)      # first: register() below calls back here
            _REGISTRY.setdefault(env_id, {})
            register(env_id, "random", lambda seed: RandomAgent(seed))
            if env_id in MANAGER_MODULES:
                _register_ruleset(env_id, managers(env_id))
            if env_id in SOLO_MANAGER_MODULES:
                _register_solo(env_id, importlib.import_module(SOLO_MANAGER_MODULES[env_id]).MANAGERS)
            _register_pretrained(env_id)
        return _REGISTRY.setdefault(env_id, {})


def _register_pretrained(env_id: str) -> None:
    """``pretrained``, where dugout ships a trained manager for ``env_id``
    (:mod:`dugout.agents.pretrained`: its folders' meta.json are read, torch is not imported
    until one is made)."""
    from .pretrained import PretrainedAgent, entries_for
    if entries_for(env_id):
        register(env_id, "pretrained", lambda seed: PretrainedAgent(env_id, seed=seed))


def _register_ruleset(env_id: str, record: Managers) -> None:
    """A ruleset's heuristic, its always/never baseline for each yes/no kind, its extras."""
    register(env_id, "heuristic", lambda seed: record.heuristic())
    for kind in record.yes_no_kinds:
        for always in (True, False):
            register(env_id, f"{'always' if always else 'never'}-{kind}",
                     lambda seed, k=kind, a=always: record.always_never(k, a))
    for name, path in record.extra.items():
        register(env_id, name, lambda seed, p=path: _load_attribute(p)())
    if record.search is not None:
        register(env_id, "search", lambda seed: _search(env_id, {}, seed))


def _search(env_id: str, settings: dict[str, str], seed: int | None):
    """The search manager of ``env_id`` with ``settings`` (texts by key) over its defaults:
    a ruleset's :class:`~dugout.agents.search.SearchAgent` (``MANAGERS.search.settings``), or
    a single-agent env's ``MANAGERS["search"]`` class (its ``SETTINGS``, made with
    ``cls(rollout, settings, seed)``); the rollout manager is made here, by its name."""
    from .search import SearchAgent, parse_options
    if env_id in SOLO_MANAGER_MODULES:
        cls = importlib.import_module(SOLO_MANAGER_MODULES[env_id]).MANAGERS.get("search")
        if cls is None:
            raise ValueError(f"unknown agent 'search' for {env_id}: it has no search manager")
        chosen = parse_options(settings, cls.SETTINGS)
        return cls(_rollout_manager(env_id, chosen.rollout, seed), chosen, seed)
    record = managers(env_id)
    chosen = parse_options(settings, record.search.settings)
    return SearchAgent(record.search, _rollout_manager(env_id, chosen.rollout, seed), chosen, seed,
                       given=frozenset(settings), env_id=env_id,
                       win_expectancy=record.win_expectancy)


def _rollout_manager(env_id: str, name: str, seed: int | None):
    """The manager a search plays its rollouts with; its errors say they are the rollout's."""
    try:
        return make_agent(env_id, name, seed)
    except ValueError as error:
        raise ValueError(f"search: rollout: {error}") from None


def _register_solo(env_id: str, classes: dict[str, type]) -> None:
    """A single-agent env's managers: each class of ``classes`` under its name, made with
    the seed (its ``random`` replaces the generic one; its ``search``, made so at its
    default settings, also takes ``search:key=value,...`` through :func:`_search`)."""
    for name, cls in classes.items():
        if name == "search":
            register(env_id, name, lambda seed: _search(env_id, {}, seed))
        else:
            register(env_id, name, lambda seed, c=cls: c(seed))


def agent_names(env_id: str) -> list[str]:
    """The agent names known for ``env_id``."""
    return sorted(_load(env_id))


def make_agent(env_id: str, name: "str | AgentRef", seed: int | None = None):
    """A new agent ``name`` for ``env_id`` (seeded where it draws random numbers).

    ``name`` is a manager's name or an :class:`~dugout.agents.ref.AgentRef` (parsed from
    the name when given as text). ``ppo:PATH`` loads a trained manager from a checkpoint
    folder (:class:`dugout.agents.policy.PolicyAgent`); it must have been trained on
    ``env_id``.
    """
    factories = _load(env_id)
    try:
        ref = AgentRef.parse(name)
    except ValueError as error:
        raise ValueError(f"unknown agent for {env_id}: {error}") from None
    if ref.is_checkpoint:
        from .policy import PolicyAgent
        return PolicyAgent.load(ref.path, env_id=env_id, seed=seed)
    if ref.kind == "search":
        if "search" not in factories:
            raise ValueError(f"unknown agent {str(ref)!r} for {env_id}: it has no search manager; "
                             f"known agents: {', '.join(sorted(factories))}")
        return _search(env_id, ref.settings, seed)
    try:
        factory = factories[ref.name]
    except KeyError:
        raise ValueError(f"unknown agent {ref.name!r} for {env_id}; known agents: "
                         f"{', '.join(sorted(factories))}") from None
    return factory(seed)


#: The named managers that play only some of an env's options and say which
#: (``check_options(env_kwargs)``): pretrained managers (the options they were trained on),
#: the duel's equilibrium manager (the solved duel). Others are not made to be checked.
_CHECKS_OPTIONS = ("pretrained", "solver")


def check_agents(env_id: str, names: Any, env_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """Check each manager of ``names`` (texts or :class:`AgentRef`) for ``env_id`` built with
    ``env_kwargs``, before any game: a ``ValueError`` naming the first that cannot play (an
    unknown name, a malformed reference) or a ``CheckpointError`` (also a ``ValueError``)
    for a checkpoint that is missing, damaged, made for another env, or whose observation
    or action sizes are not the env's. Returns the trained managers, loaded, by their text
    (``ppo:PATH``), so a caller need not load them again."""
    known = agent_names(env_id)
    loaded: dict[str, Any] = {}
    env = None
    for name in names:
        try:
            ref = AgentRef.parse(name)
        except ValueError as error:
            raise ValueError(f"unknown agent for {env_id}: {error}") from None
        text = str(ref)
        if not ref.is_checkpoint:
            if ref.name not in known:
                raise ValueError(f"unknown agent {text!r} for {env_id}; known: "
                                 f"{', '.join(known)}, or ppo:PATH for a trained manager")
            if ref.kind == "search":             # an unknown or bad setting, named; a
                search = make_agent(env_id, ref)     # rollout manager refusing the options
                check = getattr(getattr(search, "rollout", None), "check_options", None)
                if check is not None:
                    check(env_kwargs)
                if search.settings.searched is not None:     # a kind these options never ask
                    from ..envs import make
                    env = env if env is not None else make(env_id, **(env_kwargs or {}))
                    search.observe_setup(env.unwrapped.public_setup())
            if ref.name in _CHECKS_OPTIONS:      # options it does not play, named (the
                check = getattr(make_agent(env_id, ref), "check_options", None)   # duel's
                if check is not None:            # solver; a user's own may not have it)
                    check(env_kwargs)
            continue
        if text not in loaded:
            from ..envs import make
            from .policy import CheckpointError, check_fits
            try:
                agent = make_agent(env_id, ref)      # missing, damaged, or for another env
            except CheckpointError as error:
                raise CheckpointError(f"{text}: {error}") from None
            env = env if env is not None else make(env_id, **(env_kwargs or {}))
            check_fits(agent, text, env_id, env, env_kwargs)
            loaded[text] = agent
    return loaded
