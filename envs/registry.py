"""Every environment id, registered in one place.

    import dugout.envs as envs
    envs.ENV_IDS                                   # ('thats_baseball_v0', 'grand_slam_v0', 'showdown_v0')
    env = envs.make("showdown_v0", level="advanced")      # what <module>.env(**options) gives
    raw = envs.make("showdown_v0", raw=True)             # what <module>.raw_env(**options) gives
    envs.spec("showdown_v0").env_class               # ShowdownEnv (its OBS, VIEW, ACTION_MEANINGS)

A ruleset is registered by one :class:`EnvSpec`: its id and the module of its
PettingZoo-style entry (``env()`` and ``raw_env()``). The module is imported only when
the env is made, so importing :mod:`dugout.envs` stays cheap. Managers, value tables and
solvers for a ruleset are registered on the agents' floor
(:mod:`dugout.agents.registry`), which reads this table; nothing here imports it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .core.errors import OptionError, UnknownEnvError

__all__ = ["EnvSpec", "ENV_IDS", "GYM_IDS", "make", "spec", "register_env", "env_ids"]


@dataclass(frozen=True)
class EnvSpec:
    """One registered ruleset: ``env_id`` and its entry module (``env()``, ``raw_env()``)."""
    env_id: str
    entry: str
    title: str

    def module(self) -> ModuleType:
        return importlib.import_module(self.entry)

    @property
    def env_class(self) -> type:
        """The AEC env class (``OBS``, ``VIEW``, ``ACTION_MEANINGS``, ``encode_view``)."""
        return self.module().raw_env.env_class

    def make(self, raw: bool = False, **options: Any):
        module = self.module()
        return module.raw_env(**options) if raw else module.env(**options)


_SPECS: dict[str, EnvSpec] = {}


def register_env(env_id: str, entry: str, title: str = "") -> EnvSpec:
    """Register a ruleset (a user's own, too); an id already known is replaced."""
    if not isinstance(env_id, str) or not env_id:
        raise OptionError(f"an env id must be a non-empty string, got {env_id!r}")
    _SPECS[env_id] = EnvSpec(env_id, entry, title or env_id)
    return _SPECS[env_id]


register_env("thats_baseball_v0", "dugout.envs.thats_baseball_v0", "That's Baseball")
register_env("grand_slam_v0", "dugout.envs.grand_slam_v0", "Harry's Grand Slam Baseball")
register_env("showdown_v0", "dugout.envs.showdown_v0", "MLB Showdown 2004")
register_env("bottom_ninth_v0", "dugout.envs.bottom_ninth_v0", "Bottom of the 9th")
register_env("pokemon_baseball_v0", "dugout.envs.pokemon_baseball_v0", "Pokemon Baseball")

#: The built-in rulesets' ids (see :func:`env_ids` for every registered one).
ENV_IDS: tuple[str, ...] = tuple(_SPECS)

#: The single-agent Gymnasium envs: Gymnasium id -> entry point (registered with Gymnasium
#: when :mod:`dugout.envs` is imported; ``manager_challenge_v0`` is the module's name).
GYM_IDS: dict[str, str] = {
    "dugout/ManagerChallenge-v0": "dugout.envs.bottom_ninth.challenge:ManagerChallengeEnv"}


def env_ids() -> tuple[str, ...]:
    """Every registered env id: the built-in ones, then any a user registered."""
    return tuple(_SPECS)


def spec(env_id: str) -> EnvSpec:
    try:
        return _SPECS[env_id]
    except (KeyError, TypeError):
        raise UnknownEnvError(f"unknown environment {env_id!r}; known: {', '.join(_SPECS)}") from None


def make(env_id: str, raw: bool = False, **options: Any):
    """A new environment: ``env(**options)`` of the ruleset, or ``raw_env`` with ``raw=True``.

    An unknown ``env_id`` raises :class:`~dugout.envs.core.errors.UnknownEnvError` (a
    ``ValueError``), an unknown option :class:`~dugout.envs.core.errors.OptionError`.
    """
    return spec(env_id).make(raw=raw, **options)
