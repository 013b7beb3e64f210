"""The PettingZoo-style entry points every ruleset's ``<ruleset>_v0`` module exposes.

    raw_env, env = entry_points(ThatsBaseballEnv)

``raw_env(**options)`` is the bare environment (an illegal action raises
``IllegalActionError``); ``env(**options)`` wraps it in PettingZoo's order-enforcing
wrapper and makes an illegal action lose the game (-1, PettingZoo classic convention).
"""

from __future__ import annotations

from typing import Any, Callable

from pettingzoo.utils import wrappers

__all__ = ["entry_points"]


def entry_points(env_class: type) -> tuple[Callable[..., Any], Callable[..., Any]]:
    name = env_class.metadata["name"]

    def raw_env(**options: Any):
        return env_class(**options)

    def env(**options: Any) -> wrappers.OrderEnforcingWrapper:
        options.setdefault("illegal_action", "lose")
        return wrappers.OrderEnforcingWrapper(env_class(**options))

    raw_env.env_class = env.env_class = env_class
    raw_env.__doc__ = f"The bare {name} environment; an illegal action raises ``IllegalActionError``."
    env.__doc__ = (f"The {name} environment for agents: an illegal action loses the game (-1) "
                   f"and ``infos`` say why.")
    return raw_env, env
