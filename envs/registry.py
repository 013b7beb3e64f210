"""Every environment id, registered in one place.

    import dugout.envs as envs
    envs.ENV_IDS                                   # ('thats_baseball_v0', 'grand_slam_v0', ...)
    env = envs.make("showdown_v0", level="advanced")      # what <module>.env(**options) gives
    raw = envs.make("showdown_v0", raw=True)             # what <module>.raw_env(**options) gives
    envs.spec("showdown_v0").env_class               # ShowdownEnv (its OBS, VIEW, ACTION_MEANINGS)
    solo = envs.make("manager_challenge_v0", level="veteran")   # a single-agent Gymnasium env

A ruleset is registered by one :class:`EnvSpec`: its id, the module of its entry and its
kind. Most are two-manager PettingZoo AEC envs (``kind="aec"``: the module has ``env()``
and ``raw_env()``); the Manager Challenge is a single-agent Gymnasium env
(``kind="gymnasium"``: the module has ``env()`` alone, and the env is also registered with
Gymnasium as ``dugout/ManagerChallenge-v0``, :data:`GYM_IDS`). :func:`make` makes either
kind. What iterates the ids or looks a spec up expects the AEC API (the contract suite,
tournaments, the RLlib recipe), so :data:`ENV_IDS`, :func:`env_ids` and :func:`spec` give
the AEC envs unless asked for another kind: ``env_ids("gymnasium")``, ``env_ids("all")``,
``spec(env_id, kind=None)``.

Whatever needs every env id reads it here, never a list of its own: :data:`ENV_IDS` (or
``env_ids()``) for the two-manager rulesets, :data:`SINGLE_AGENT_IDS` for the single-agent
envs, ``env_ids("all")`` for both, a user's registered ones included (the contract suite,
the import checks, the benchmark's coverage and the docs' tables do so).

The module is imported only when the env is made, so importing :mod:`dugout.envs` stays
cheap. The managers of every env id, the Manager Challenge's too, and a ruleset's value
tables and solvers are registered on the agents' floor (:mod:`dugout.agents.registry`),
which reads this table; nothing here imports it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .core.errors import OptionError, UnknownEnvError, show

__all__ = ["EnvSpec", "ENV_IDS", "SINGLE_AGENT_IDS", "GYM_IDS", "KINDS", "make", "spec",
           "register_env", "env_ids"]

#: The kinds of env: a two-manager PettingZoo AEC env, or a single-agent Gymnasium env.
KINDS = ("aec", "gymnasium")


@dataclass(frozen=True)
class EnvSpec:
    """One registered ruleset: ``env_id``, its entry module and its ``kind``: ``"aec"`` (the
    module has ``env()`` and ``raw_env()``) or ``"gymnasium"`` (the module has ``env()``,
    a single-agent Gymnasium env)."""
    env_id: str
    entry: str
    title: str
    kind: str = "aec"

    def module(self) -> ModuleType:
        return importlib.import_module(self.entry)

    @property
    def env_class(self) -> type:
        """The env class (``OBS``, ``VIEW``, ``ACTION_MEANINGS``, ``encode_view``): the AEC
        env's, or the Gymnasium env's."""
        module = self.module()
        return module.raw_env.env_class if self.kind == "aec" else module.env.env_class

    def make(self, raw: bool = False, **options: Any):
        module = self.module()
        if self.kind == "aec":
            return module.raw_env(**options) if raw else module.env(**options)
        if raw is not False:
            raise OptionError(f"{self.env_id} is a single-agent Gymnasium env with one form, the "
                              f"bare env, so raw=True means nothing; an illegal action raises with "
                              f"illegal_action='raise', got raw={show(raw)}")
        return module.env(**options)


_SPECS: dict[str, EnvSpec] = {}


def register_env(env_id: str, entry: str, title: str = "", kind: str = "aec") -> EnvSpec:
    """Register a ruleset (a user's own, too); an id already known is replaced. ``kind`` is
    ``"aec"`` (``entry`` has ``env()`` and ``raw_env()``) or ``"gymnasium"`` (``entry`` has
    ``env()``, whose ``env_class`` is the single-agent env's class)."""
    if not isinstance(env_id, str) or not env_id:
        raise OptionError(f"an env id must be a non-empty string, got {show(env_id)}")
    if not isinstance(kind, str) or kind not in KINDS:
        raise OptionError(f"register_env({env_id!r}): kind must be one of "
                          f"{', '.join(map(repr, KINDS))}, got {show(kind)}")
    _SPECS[env_id] = EnvSpec(env_id, entry, title or env_id, kind)
    return _SPECS[env_id]


register_env("thats_baseball_v0", "dugout.envs.thats_baseball_v0", "That's Baseball")
register_env("grand_slam_v0", "dugout.envs.grand_slam_v0", "Harry's Grand Slam Baseball")
register_env("showdown_v0", "dugout.envs.showdown_v0", "MLB Showdown 2004")
register_env("bottom_ninth_v0", "dugout.envs.bottom_ninth_v0", "Bottom of the 9th")
register_env("pokemon_baseball_v0", "dugout.envs.pokemon_baseball_v0", "Pokemon Baseball")
register_env("manager_challenge_v0", "dugout.envs.manager_challenge_v0",
             "Bottom of the 9th: the Manager Challenge (solo)", kind="gymnasium")

#: The built-in two-manager (AEC) rulesets' ids: what the contract suite, tournaments and
#: the RLlib recipe play (see :func:`env_ids` for every registered one).
ENV_IDS: tuple[str, ...] = tuple(k for k, s in _SPECS.items() if s.kind == "aec")

#: The built-in single-agent Gymnasium envs' ids (``make()`` makes them too).
SINGLE_AGENT_IDS: tuple[str, ...] = tuple(k for k, s in _SPECS.items() if s.kind == "gymnasium")

#: The single-agent Gymnasium envs: Gymnasium id -> entry point (registered with Gymnasium
#: when :mod:`dugout.envs` is imported; ``manager_challenge_v0`` is the dugout id).
GYM_IDS: dict[str, str] = {
    "dugout/ManagerChallenge-v0": "dugout.envs.bottom_ninth.challenge:ManagerChallengeEnv"}


def _check_kind(kind: str | None, allowed: tuple) -> None:
    if kind not in allowed:
        raise OptionError(f"kind must be one of {', '.join(map(repr, allowed))}, got {show(kind)}")


def env_ids(kind: str = "aec") -> tuple[str, ...]:
    """Every registered env id of ``kind``, the built-in ones first, then any a user
    registered: ``"aec"`` (the default: the two-manager PettingZoo envs), ``"gymnasium"``
    (the single-agent envs) or ``"all"``."""
    _check_kind(kind, KINDS + ("all",))
    return tuple(k for k, s in _SPECS.items() if kind == "all" or s.kind == kind)


def spec(env_id: str, kind: str | None = "aec") -> EnvSpec:
    """The spec of ``env_id``, which must be of ``kind`` (``"aec"`` by default, as the code
    that looks specs up expects the AEC API; ``kind=None`` for any). An unknown id, or one of
    another kind, raises :class:`~dugout.envs.core.errors.UnknownEnvError` naming the known
    ids of that kind."""
    _check_kind(kind, KINDS + (None,))
    try:
        found = _SPECS[env_id]
    except (KeyError, TypeError):
        known = env_ids("all" if kind is None else kind)
        raise UnknownEnvError(f"unknown environment {show(env_id)}; known: {', '.join(known)}") from None
    if kind is not None and found.kind != kind:
        known = env_ids(kind)
        what = {"aec": "a two-manager PettingZoo AEC env",
                "gymnasium": "a single-agent Gymnasium env"}
        raise UnknownEnvError(
            f"{env_id} is {what[found.kind]}, not {what[kind]} (make it with "
            f"dugout.envs.make({env_id!r}, ...)); known {kind} envs: {', '.join(known)}")
    return found


def make(env_id: str, raw: bool = False, **options: Any):
    """A new environment of any kind: ``env(**options)`` of the ruleset, or for an AEC env
    ``raw_env(**options)`` with ``raw=True``. A single-agent env has one form: ``raw=True``
    raises ``OptionError`` for it.

    An unknown ``env_id`` raises :class:`~dugout.envs.core.errors.UnknownEnvError` (a
    ``ValueError``), an unknown option :class:`~dugout.envs.core.errors.OptionError`.
    """
    return spec(env_id, kind=None).make(raw=raw, **options)
