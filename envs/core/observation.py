"""Observation vectors built from one named list of pieces.

Each ruleset lists its observation as ``(name, size, meaning)`` pieces; the spec gives
every piece its slice of a flat float32 vector and renders the table that the
environment's docstring shows, so a test can check that the two never drift apart.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["ObservationSpec", "situation_pieces", "encode_situation"]


def situation_pieces(decision_kinds: Sequence[str]) -> list[tuple[str, int, str]]:
    """The pieces every two-manager ruleset starts its observation with: who is looking,
    what he must decide, and the situation (inning, half, outs, runners, score)."""
    return [
        ("seat", 2, "one-hot seat of the observing manager: away, home"),
        ("batting", 1, "1 if the observing manager's team is batting"),
        ("decision", len(decision_kinds),
         "one-hot kind of the observing manager's pending decision: "
         + ", ".join(decision_kinds) + " (all 0 when not to act)"),
        ("inning", 10, "one-hot inning: 1st to 9th, then index 9 for any extra inning"),
        ("half", 2, "one-hot half: top, bottom"),
        ("outs", 3, "one-hot outs: 0, 1, 2"),
        ("runners", 3, "1 for a runner on first, second, third"),
        ("score", 2, "runs of own team, of the opponent, each divided by 10"),
        ("run_diff", 1, "(own runs - opponent runs) / 10, clipped to [-1, 1]"),
    ]


def encode_situation(obs: np.ndarray, offset: dict[str, int], seat: int, decision: int | None,
                     inning: int, half: int, outs: int, runners: Sequence, runs: Sequence[int]) -> None:
    """Fill the :func:`situation_pieces` of ``obs``; ``decision`` is the kind's index or None,
    ``runners`` anything whose items are truthy (or not None) for an occupied base."""
    obs[offset["seat"] + seat] = 1.0
    obs[offset["batting"]] = float(half == seat)
    if decision is not None:
        obs[offset["decision"] + decision] = 1.0
    obs[offset["inning"] + min(inning, 10) - 1] = 1.0
    obs[offset["half"] + half] = 1.0
    if outs < 3:
        obs[offset["outs"] + outs] = 1.0
    for i in range(3):
        if runners[i] is not None and runners[i] is not False:
            obs[offset["runners"] + i] = 1.0
    own, opp = runs[seat], runs[1 - seat]
    obs[offset["score"]] = own / 10.0
    obs[offset["score"] + 1] = opp / 10.0
    obs[offset["run_diff"]] = max(-1.0, min(1.0, (own - opp) / 10.0))


class ObservationSpec:
    def __init__(self, pieces: Sequence[tuple[str, int, str]]):
        self.pieces = tuple(pieces)
        self.offset: dict[str, int] = {}
        self.sizes: dict[str, int] = {}
        at = 0
        for name, size, _ in self.pieces:
            if name in self.offset:
                raise ValueError(f"observation piece {name!r} is listed twice")
            if size < 1:
                raise ValueError(f"observation piece {name!r} needs a positive size, got {size}")
            self.offset[name] = at
            self.sizes[name] = size
            at += size
        self.size = at

    def slice(self, name: str) -> slice:
        start = self.offset[name]
        return slice(start, start + self.sizes[name])

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def unpack(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The vector split into its named pieces (for debugging and tests)."""
        if vector.shape != (self.size,):
            raise ValueError(f"expected an observation of shape ({self.size},), got {vector.shape}")
        return {name: vector[self.slice(name)] for name, _, _ in self.pieces}

    def table(self) -> str:
        """The Markdown table the environment's docstring must contain verbatim."""
        rows = ["| Index | Piece | Meaning |", "|---|---|---|"]
        for name, size, meaning in self.pieces:
            start = self.offset[name]
            index = f"{start}" if size == 1 else f"{start}-{start + size - 1}"
            rows.append(f"| {index} | `{name}` | {meaning} |")
        return "\n".join(rows)
