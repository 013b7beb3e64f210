"""MLB Showdown (2004 rules), PettingZoo-style entry point.

    from dugout.envs import showdown_v0
    env = showdown_v0.env(level="advanced")   # illegal action: -1 and the game ends
    raw = showdown_v0.raw_env()               # illegal action: IllegalActionError

The full documentation (levels, agents, actions, observation table, rewards) is the
docstring of :mod:`dugout.envs.showdown.env`.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from .showdown.env import ShowdownEnv
from .showdown.env import __doc__ as _env_doc
from .showdown.view import ShowdownView

__doc__ = _env_doc
__all__ = ["env", "raw_env", "ShowdownEnv", "ShowdownView"]


def raw_env(**options: Any) -> ShowdownEnv:
    """The bare environment; an illegal action raises ``IllegalActionError``."""
    return ShowdownEnv(**options)


def env(**options: Any) -> wrappers.OrderEnforcingWrapper:
    """The environment for agents: an illegal action loses the game (-1) and ``infos`` say why."""
    options.setdefault("illegal_action", "lose")
    return wrappers.OrderEnforcingWrapper(ShowdownEnv(**options))
