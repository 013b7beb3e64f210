"""Decisions: where a rulebook gives a manager a choice, and which actions it allows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import IllegalActionError
from .state import SaveError, check_int, decode_as, saved_keys

__all__ = ["Decision", "action_mask", "take_decision"]


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
        """Rebuild a saved decision, checked: a kind, a seat (0 or 1), one or more distinct
        non-negative actions and an int subject (a :class:`~.state.SaveError` names the key)."""
        saved_keys(d, (), ("kind", "actor", "legal", "subject"))
        kind = decode_as(str, d["kind"], ("kind",))
        actor = check_int(d["actor"], ("actor",), 0, 1)
        legal = decode_as(tuple[int, ...], d["legal"], ("legal",))
        if not legal:
            raise SaveError("a pending decision needs at least one legal action", ("legal",))
        for i, a in enumerate(legal):
            check_int(a, ("legal", i), 0)
        if len(set(legal)) != len(legal):
            raise SaveError(f"an action is listed twice in {list(legal)}", ("legal",))
        return cls(kind, actor, legal, check_int(d["subject"], ("subject",)))


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


def take_decision(state: Any, action: int, labels: tuple[str, ...]) -> Decision:
    """Check ``action`` against ``state.pending``, clear it and return the decision taken.

    Raises :class:`~dugout.envs.core.errors.IllegalActionError` naming the decision and
    its legal actions (labelled from ``labels``) when the game is over or the action is
    not legal.
    """
    decision = state.pending
    if decision is None:
        raise IllegalActionError("the game is over: there is no decision to make")
    if action not in decision.legal:
        raise IllegalActionError(
            f"action {action!r} is not legal at a {decision.kind!r} decision; legal actions: "
            + ", ".join(f"{a} ({labels[a]})" for a in decision.legal))
    state.pending = None
    return decision
