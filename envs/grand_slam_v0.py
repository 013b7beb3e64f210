"""Harry's Grand Slam Baseball, PettingZoo-style entry point: ``env()`` and ``raw_env()``.

The full documentation (agents, actions, observation table, rewards) is the
docstring of :mod:`dugout.envs.grand_slam.env`, which this module shows as its own.
"""

from __future__ import annotations

from .core.entry import entry_points
from .grand_slam.env import GrandSlamEnv
from .grand_slam.env import __doc__ as _env_doc
from .grand_slam.view import GrandSlamView

__doc__ = _env_doc
__all__ = ["env", "raw_env", "GrandSlamEnv", "GrandSlamView"]

raw_env, env = entry_points(GrandSlamEnv)
