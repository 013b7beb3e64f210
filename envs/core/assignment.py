"""The best assignment of players to positions: an exact search for small rosters."""

from __future__ import annotations

from typing import Any, Callable, Sequence

__all__ = ["best_assignment"]


def best_assignment(players: Sequence[Any], positions: Sequence[Any],
                    score: Callable[[Any, Any], float | None]) -> dict[Any, Any] | None:
    """The players to put at ``positions``, one each, with the highest total ``score``.

    ``score(player, position)`` is None where the player cannot play. Exact (dynamic
    programming over positions and the set of players used); None when no assignment
    fills every position. Ties go to the earlier player in ``players``.
    """
    best: dict[tuple[int, int], tuple[float, tuple[int, ...]] | None] = {}

    def solve(i: int, used: int):
        if i == len(positions):
            return (0.0, ())
        key = (i, used)
        if key in best:
            return best[key]
        out = None
        for j, player in enumerate(players):
            if used >> j & 1:
                continue
            value = score(player, positions[i])
            if value is None:
                continue
            rest = solve(i + 1, used | 1 << j)
            if rest is not None and (out is None or value + rest[0] > out[0]):
                out = (value + rest[0], (j,) + rest[1])
        best[key] = out
        return out

    result = solve(0, 0)
    if result is None:
        return None
    return {pos: players[j] for pos, j in zip(positions, result[1])}
