"""Bottom of the 9th, PettingZoo-style entry point: ``env()`` and ``raw_env()``.

The full documentation (agents, actions, observation table, rewards) is the docstring
of :mod:`dugout.envs.bottom_ninth.env`, which this module shows as its own.
"""

from __future__ import annotations

from .bottom_ninth.env import BottomNinthEnv
from .bottom_ninth.env import __doc__ as _env_doc
from .bottom_ninth.view import BottomNinthView
from .core.entry import entry_points

__doc__ = _env_doc
__all__ = ["env", "raw_env", "BottomNinthEnv", "BottomNinthView"]

raw_env, env = entry_points(BottomNinthEnv)
