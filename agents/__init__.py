"""Managers: random, the rulebook heuristics and their always/never baselines, value tables.

The agent protocol (see :mod:`dugout.agents.base`): ``act(observation, view) -> int``
and ``reset(seed)``; ``observation`` is ``env.observe(agent)`` and ``view`` is
``env.unwrapped.view(agent)``, what that manager may know as a structured object.
Agents are made by name with :func:`make_agent`.
"""

from .base import Agent, ViewAgent, choose, legal_actions
from .random_agent import RandomAgent
from .registry import agent_names, make_agent, managers, register

__all__ = ["Agent", "RandomAgent", "ViewAgent", "agent_names", "choose", "legal_actions",
           "make_agent", "managers", "register"]
