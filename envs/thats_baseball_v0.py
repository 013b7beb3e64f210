"""That's Baseball, PettingZoo-style entry point: ``env()`` and ``raw_env()``.

The full documentation (agents, actions, observation table, rewards) is the
docstring of :mod:`dugout.envs.thats_baseball.env`, which this module shows as its own.
"""

from __future__ import annotations

from .core.entry import entry_points
from .thats_baseball.env import ThatsBaseballEnv
from .thats_baseball.env import __doc__ as _env_doc
from .thats_baseball.view import ThatsBaseballView

__doc__ = _env_doc
__all__ = ["env", "raw_env", "ThatsBaseballEnv", "ThatsBaseballView"]

raw_env, env = entry_points(ThatsBaseballEnv)
