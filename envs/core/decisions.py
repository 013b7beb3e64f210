"""Decisions: where a rulebook gives a manager a choice, and which actions it allows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Decision", "action_mask"]


@dataclass(frozen=True, slots=True)
class Decision:
    """A pending choice.

    ``kind`` names the rule ("steal", "pickoff", ...), ``actor`` is the seat that
    chooses (0 = away, 1 = home), ``legal`` the allowed action indices, and
    ``subject`` what the choice is about when the kind alone does not say (for
    example the base of the runner deciding whether to tag up), or -1.
    """
    kind: str
    actor: int
    legal: tuple[int, ...]
    subject: int = -1

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "actor": self.actor, "legal": list(self.legal),
                "subject": self.subject}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Decision:
        return cls(d["kind"], int(d["actor"]), tuple(int(a) for a in d["legal"]),
                   int(d["subject"]))


_MASKS: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}


def action_mask(n_actions: int, legal: tuple[int, ...]) -> np.ndarray:
    """An int8 mask with ones at ``legal``; a fresh array the caller may keep."""
    key = (n_actions, legal)
    mask = _MASKS.get(key)
    if mask is None:
        mask = np.zeros(n_actions, dtype=np.int8)
        mask[list(legal)] = 1
        _MASKS[key] = mask
    return mask.copy()
