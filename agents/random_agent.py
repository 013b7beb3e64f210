"""A manager that picks uniformly among the legal actions."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

__all__ = ["RandomAgent"]


class RandomAgent:
    """Uniform over the legal actions of ``observation["action_mask"]``, seeded.

    >>> agent = RandomAgent(seed=0)
    >>> agent.act({"observation": None, "action_mask": np.array([0, 1, 0, 1], np.int8)}) in (1, 3)
    True
    """

    name = "random"
    needs_view = False

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed (between games, when a run must be reproducible game by game)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: Mapping[str, Any], view: Any = None) -> int:
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("RandomAgent.act: the action mask allows no action "
                             "(this manager is not to act)")
        return int(legal[self.rng.integers(legal.size)])
