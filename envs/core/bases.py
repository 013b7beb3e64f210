"""Base running as pure functions over a ``(first, second, third)`` tuple.

A base holds a runner id (whatever the ruleset uses: a lineup slot, a card id) or
``None``. Every function returns the new bases and the runners who scored, lead
runner first, and leaves its input untouched.
"""

from __future__ import annotations

from typing import Hashable, Optional

__all__ = [
    "EMPTY_BASES", "BASE_NAMES", "Bases", "occupied", "runner_count",
    "force_advance", "push_runner", "advance_all", "advance_runner", "remove_runner",
]

Runner = Hashable
Bases = tuple[Optional[Runner], Optional[Runner], Optional[Runner]]

EMPTY_BASES: Bases = (None, None, None)
#: ``BASE_NAMES[i]`` is the base with index ``i``; index 3 is home.
BASE_NAMES = ("first", "second", "third", "home")


def occupied(bases: Bases) -> tuple[int, ...]:
    """Indices of the occupied bases, first base first."""
    return tuple(i for i in range(3) if bases[i] is not None)


def runner_count(bases: Bases) -> int:
    return (bases[0] is not None) + (bases[1] is not None) + (bases[2] is not None)


def push_runner(bases: Bases, base: int, runner: Runner) -> tuple[Bases, list[Runner]]:
    """Put ``runner`` on ``base`` (3 = home); each runner in the way is forced up one base."""
    new = list(bases)
    scored: list[Runner] = []
    mover = runner
    for i in range(base, 3):
        if new[i] is None:
            new[i] = mover
            return (new[0], new[1], new[2]), scored
        new[i], mover = mover, new[i]
    scored.append(mover)
    return (new[0], new[1], new[2]), scored


def force_advance(bases: Bases, batter: Runner) -> tuple[Bases, list[Runner]]:
    """Walk or hit by pitch: the batter takes first and only forced runners move."""
    return push_runner(bases, 0, batter)


def advance_all(bases: Bases, n: int, batter: Runner | None = None) -> tuple[Bases, list[Runner]]:
    """Every runner advances ``n`` bases; the batter, if given, reaches base ``n``.

    ``advance_all(bases, 1, batter)`` is a single, ``advance_all(bases, 4, batter)`` a
    home run; ``advance_all(bases, 1)`` moves the runners alone up one base.
    """
    if n < 1:
        raise ValueError(f"runners advance at least one base, got {n}")
    new: list[Runner | None] = [None, None, None]
    scored: list[Runner] = []
    for i in (2, 1, 0):
        r = bases[i]
        if r is not None:
            if i + n >= 3:
                scored.append(r)
            else:
                new[i + n] = r
    if batter is not None:
        if n >= 4:
            scored.append(batter)
        else:
            new[n - 1] = batter
    return (new[0], new[1], new[2]), scored


def advance_runner(bases: Bases, base: int, n: int = 1) -> tuple[Bases, list[Runner]]:
    """The runner on ``base`` alone moves ``n`` bases (a steal, a tag-up); the path must be clear."""
    runner = bases[base]
    if runner is None:
        raise ValueError(f"no runner on {BASE_NAMES[base]}")
    target = base + n
    for i in range(base + 1, min(target + 1, 3)):  # home is never occupied
        if bases[i] is not None:
            raise ValueError(f"runner on {BASE_NAMES[base]} cannot pass the runner on {BASE_NAMES[i]}")
    new = list(bases)
    new[base] = None
    if target >= 3:
        return (new[0], new[1], new[2]), [runner]
    new[target] = runner
    return (new[0], new[1], new[2]), []


def remove_runner(bases: Bases, base: int) -> Bases:
    """The runner on ``base`` is out (caught stealing, picked off, doubled up)."""
    if bases[base] is None:
        raise ValueError(f"no runner on {BASE_NAMES[base]}")
    new = list(bases)
    new[base] = None
    return (new[0], new[1], new[2])
