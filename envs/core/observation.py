"""Observation vectors built from one named list of pieces.

Each ruleset lists its observation as ``(name, size, meaning)`` pieces; the spec gives
every piece its slice of a flat float32 vector and renders the table that the
environment's docstring shows, so a test can check that the two never drift apart.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["ObservationSpec"]


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
