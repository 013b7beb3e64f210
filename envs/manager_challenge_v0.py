"""The Manager Challenge (Bottom of the 9th's solo campaign), a single-agent Gymnasium env.

``env(**options)``, ``dugout.envs.make("manager_challenge_v0", **options)`` or
``gymnasium.make("dugout/ManagerChallenge-v0", **options)`` (after ``import dugout.envs``)
gives a :class:`ManagerChallengeEnv`. The full documentation
(options, decisions, rewards, infos, the observation table) is the docstring of
:mod:`dugout.envs.bottom_ninth.challenge`, which this module shows as its own.
"""

from __future__ import annotations

from typing import Any

from .bottom_ninth.challenge import ChallengeView, ManagerChallengeEnv
from .bottom_ninth.challenge import __doc__ as _env_doc

__doc__ = _env_doc
__all__ = ["env", "ManagerChallengeEnv", "ChallengeView", "GYM_ID"]

GYM_ID = "dugout/ManagerChallenge-v0"


def env(**options: Any) -> ManagerChallengeEnv:
    """A Manager Challenge environment (see the module docstring for the options)."""
    return ManagerChallengeEnv(**options)


#: the env's class, as ``raw_env.env_class`` of an AEC ruleset (``dugout.envs.spec``)
env.env_class = ManagerChallengeEnv
