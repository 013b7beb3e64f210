"""Harry's Grand Slam Baseball, PettingZoo-style entry point.

    from dugout.envs import grand_slam_v0
    env = grand_slam_v0.env()          # illegal action: -1 and the game ends
    raw = grand_slam_v0.raw_env()      # illegal action: IllegalActionError

The full documentation (agents, actions, observation table, rewards) is the
docstring of :mod:`dugout.envs.grand_slam.env`.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from .grand_slam.env import GrandSlamEnv
from .grand_slam.env import __doc__ as _env_doc
from .grand_slam.view import GrandSlamView

__doc__ = _env_doc
__all__ = ["env", "raw_env", "GrandSlamEnv", "GrandSlamView"]


def raw_env(**options: Any) -> GrandSlamEnv:
    """The bare environment; an illegal action raises ``IllegalActionError``."""
    return GrandSlamEnv(**options)


def env(**options: Any) -> wrappers.OrderEnforcingWrapper:
    """The environment for agents: an illegal action loses the game (-1) and ``infos`` say why."""
    options.setdefault("illegal_action", "lose")
    return wrappers.OrderEnforcingWrapper(GrandSlamEnv(**options))
