"""That's Baseball, PettingZoo-style entry point.

    from dugout.envs import thats_baseball_v0
    env = thats_baseball_v0.env()          # illegal action: -1 and the game ends
    raw = thats_baseball_v0.raw_env()      # illegal action: IllegalActionError

The full documentation (agents, actions, observation table, rewards) is the
docstring of :mod:`dugout.envs.thats_baseball.env`.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from .thats_baseball.env import ThatsBaseballEnv
from .thats_baseball.env import __doc__ as _env_doc

__doc__ = _env_doc
__all__ = ["env", "raw_env", "ThatsBaseballEnv"]


def raw_env(**options: Any) -> ThatsBaseballEnv:
    """The bare environment; an illegal action raises ``IllegalActionError``."""
    return ThatsBaseballEnv(**options)


def env(**options: Any) -> wrappers.OrderEnforcingWrapper:
    """The environment for agents: an illegal action loses the game (-1) and ``infos`` say why."""
    options.setdefault("illegal_action", "lose")
    return wrappers.OrderEnforcingWrapper(ThatsBaseballEnv(**options))
