"""MLB Showdown (2004 rules), PettingZoo-style entry point: ``env()`` and ``raw_env()``.

The full documentation (agents, actions, observation table, rewards) is the
docstring of :mod:`dugout.envs.showdown.env`, which this module shows as its own.
"""

from __future__ import annotations

from .core.entry import entry_points
from .showdown.env import ShowdownEnv
from .showdown.env import __doc__ as _env_doc
from .showdown.view import ShowdownView

__doc__ = _env_doc
__all__ = ["env", "raw_env", "ShowdownEnv", "ShowdownView"]

raw_env, env = entry_points(ShowdownEnv)
