"""Managers. An agent has ``act(observation, info=None) -> int``, where ``observation`` is
what ``env.observe(agent)`` returns (a dict with ``"observation"`` and ``"action_mask"``),
and ``reset(seed=None)`` between games."""

from .random_agent import RandomAgent

__all__ = ["RandomAgent"]
