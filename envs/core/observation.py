"""Observation vectors built from one named list of pieces.

Each ruleset lists its observation as ``(name, size, meaning)`` pieces, or
``(name, size, meaning, bounds)`` for a piece whose values leave [0, 1]; ``bounds`` is a
``(low, high)`` pair for the whole piece or a list of pairs, one per element. The spec
gives every piece its slice of a flat float32 vector and its bounds (``low``, ``high``:
the observation space's Box), and renders the table that the environment's docstring
shows, so a test can check that the two never drift apart.

Counts that no rule bounds (runs, runs charged to a pitcher) saturate at
:data:`MAX_COUNTED` (99) so that the declared bounds hold in every game.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["ObservationSpec", "SITUATION_PIECE", "situation_pieces", "encode_situation",
           "MAX_COUNTED", "counted"]

#: Where an observation stops counting runs (and other counts no rule bounds): 99.
MAX_COUNTED = 99


def counted(n: int) -> int:
    """``n`` saturated at :data:`MAX_COUNTED`, for an observation with finite bounds."""
    return n if n < MAX_COUNTED else MAX_COUNTED


#: The situation's pieces by name (the decision's, whose size is the ruleset's, aside): who is
#: looking, the inning, half, outs, runners and score, and the scheduled innings left.
#: :func:`situation_pieces` lists the first ones in the order :func:`encode_situation` writes;
#: a ruleset picks the others (or all, in an order of its own) here.
SITUATION_PIECE: dict[str, tuple] = {piece[0]: piece for piece in [
    ("seat", 2, "one-hot seat of the observing manager: away, home"),
    ("batting", 1, "1 if the observing manager's team is batting"),
    ("inning", 10, "one-hot inning: 1st to 9th, then index 9 for any extra inning"),
    ("half", 2, "one-hot half: top, bottom"),
    ("outs", 3, "one-hot outs: 0, 1, 2"),
    ("runners", 3, "1 for a runner on first, second, third"),
    ("score", 2, f"runs of own team, of the opponent (at most {MAX_COUNTED}), each divided by 10",
     (0.0, MAX_COUNTED / 10)),
    ("run_diff", 1, "(own runs - opponent runs) / 10, clipped to [-1, 1]", (-1.0, 1.0)),
    ("innings_left", 1, "scheduled innings still to start after this one / 9, 0 in extra innings"),
]}


def situation_pieces(decision_kinds: Sequence[str]) -> list[tuple]:
    """The pieces every two-manager ruleset starts its observation with: who is looking,
    what he must decide, and the situation (inning, half, outs, runners, score)."""
    decision = ("decision", len(decision_kinds),
                "one-hot kind of the observing manager's pending decision: "
                + ", ".join(decision_kinds) + " (all 0 when not to act)")
    after = ("inning", "half", "outs", "runners", "score", "run_diff")
    return [SITUATION_PIECE["seat"], SITUATION_PIECE["batting"], decision,
            *(SITUATION_PIECE[name] for name in after)]


def encode_situation(obs: np.ndarray, offset: dict[str, int], seat: int, decision: int | None,
                     inning: int, half: int, outs: int, runners: Sequence, runs: Sequence[int]) -> None:
    """Fill the :func:`situation_pieces` of ``obs`` (zeros there); ``decision`` is the kind's
    index or None, ``runners`` the three bases, first to third, each empty when None or
    False (a runner may be a roster index, 0 included, or True). The pieces lie in
    :func:`situation_pieces`' order, so two offsets place them all: the others are fixed
    distances after ``seat`` and ``inning`` (an observation is encoded on every step)."""
    at = offset["seat"]
    obs[at + seat] = 1.0
    obs[at + _BATTING] = float(half == seat)
    if decision is not None:
        obs[at + _DECISION + decision] = 1.0
    at = offset["inning"]               # after the decision one-hot, the ruleset's own size
    obs[at + min(inning, 10) - 1] = 1.0
    obs[at + _HALF + half] = 1.0
    if outs < 3:
        obs[at + _OUTS + outs] = 1.0
    first, second, third = runners
    if first is not None and first is not False:
        obs[at + _RUNNERS] = 1.0
    if second is not None and second is not False:
        obs[at + _RUNNERS + 1] = 1.0
    if third is not None and third is not False:
        obs[at + _RUNNERS + 2] = 1.0
    own, opp = runs[seat], runs[1 - seat]
    obs[at + _SCORE] = (own if own < MAX_COUNTED else MAX_COUNTED) / 10.0       # counted()
    obs[at + _SCORE + 1] = (opp if opp < MAX_COUNTED else MAX_COUNTED) / 10.0
    diff = (own - opp) / 10.0
    obs[at + _RUN_DIFF] = 1.0 if diff > 1.0 else -1.0 if diff < -1.0 else diff


def _piece_bounds(name: str, size: int, bounds) -> list[tuple[float, float]]:
    """A piece's (low, high) per element, from one pair or a pair per element."""
    if bounds is None:
        return [(0.0, 1.0)] * size
    one_pair = len(bounds) == 2 and not isinstance(bounds[0], (tuple, list))
    pairs = [bounds] * size if one_pair else list(bounds)
    if len(pairs) != size:
        raise ValueError(f"observation piece {name!r} has {size} elements but {len(pairs)} bounds")
    out = []
    for pair in pairs:
        low, high = (float(v) for v in pair)
        if not (np.isfinite(low) and np.isfinite(high) and low <= high):
            raise ValueError(f"observation piece {name!r}: bounds must be finite with low <= high, "
                             f"got {pair}")
        out.append((low, high))
    return out


class ObservationSpec:
    def __init__(self, pieces: Sequence[tuple]):
        self.offset: dict[str, int] = {}
        self.sizes: dict[str, int] = {}
        lows: list[float] = []
        highs: list[float] = []
        self._ranges: dict[str, str] = {}
        at = 0
        for piece in pieces:
            if len(piece) not in (3, 4):
                raise ValueError(f"an observation piece is (name, size, meaning[, bounds]), "
                                 f"got {piece!r}")
            name, size = piece[0], piece[1]
            if name in self.offset:
                raise ValueError(f"observation piece {name!r} is listed twice")
            if size < 1:
                raise ValueError(f"observation piece {name!r} needs a positive size, got {size}")
            bounds = _piece_bounds(name, size, piece[3] if len(piece) == 4 else None)
            lows += [lo for lo, _ in bounds]
            highs += [hi for _, hi in bounds]
            self._ranges[name] = _range_text(bounds)
            self.offset[name] = at
            self.sizes[name] = size
            at += size
        self.size = at
        #: (name, size, meaning) of every piece, in order
        self.pieces = tuple((p[0], p[1], p[2]) for p in pieces)
        #: the pieces as declared (bounds included), to extend a spec
        self.declared = tuple(tuple(p) for p in pieces)
        #: the lowest and highest value of every element: the observation space's Box
        self.low = np.array(lows, dtype=np.float32)
        self.high = np.array(highs, dtype=np.float32)

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
        rows = ["| Index | Piece | Range | Meaning |", "|---|---|---|---|"]
        for name, size, meaning in self.pieces:
            start = self.offset[name]
            index = f"{start}" if size == 1 else f"{start}-{start + size - 1}"
            rows.append(f"| {index} | `{name}` | {self._ranges[name]} | {meaning} |")
        return "\n".join(rows)


def _range_text(bounds: list[tuple[float, float]]) -> str:
    """The table's Range column: one interval, or each element's in order."""
    texts = [f"[{lo:g}, {hi:g}]" for lo, hi in bounds]
    return texts[0] if len(set(texts)) == 1 else ", ".join(texts)


# Where encode_situation writes: the batting flag and the decision one-hot after ``seat``,
# the rest after ``inning`` (read off a spec of situation_pieces, so they cannot drift).
_SITUATION = ObservationSpec(situation_pieces(("any",))).offset
_BATTING, _DECISION = _SITUATION["batting"], _SITUATION["decision"]
_HALF, _OUTS, _RUNNERS, _SCORE, _RUN_DIFF = (
    _SITUATION[name] - _SITUATION["inning"] for name in ("half", "outs", "runners", "score", "run_diff"))
