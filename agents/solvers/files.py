"""Solved tables on disk, for every solver: one compressed ``.npz`` with a JSON ``meta``.

``meta`` carries at least ``format`` and ``rules_version``; a file of another format or
rules version is refused, as is a file that is no solution at all. Files are written
atomically (a temporary file, then a rename), so a cache never holds half a solution.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, TypeVar

import numpy as np

__all__ = ["write_npz", "read_npz", "load_or_solve"]

T = TypeVar("T")


def write_npz(path: str | os.PathLike, meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
    """Write ``meta`` (as JSON) and ``arrays`` to ``path`` (compressed npz), atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(meta)), **arrays)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)          # no half-written file left behind
        raise


def read_npz(path: str | os.PathLike, names: Sequence[str], what: str, format_version: int,
             rules_version: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """``(meta, arrays)`` of a saved solution (``what``: "That's Baseball", ...); a
    ``ValueError`` naming the file for a damaged file, another format or rules version."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {k: data[k] for k in names}
    except (OSError, KeyError, ValueError) as e:
        raise ValueError(f"{path}: not a saved {what} solution ({e})") from None
    if meta.get("format") != format_version:
        raise ValueError(f"{path}: solution format {meta.get('format')!r}, this version reads "
                         f"{format_version}")
    if meta.get("rules_version") != rules_version:
        raise ValueError(f"{path}: solved under rules {meta.get('rules_version')!r}, the engine "
                         f"is {rules_version!r}; solve again")
    return meta, arrays


def load_or_solve(path: Path, load: Callable[[Path], T], solve: Callable[[], T],
                  save: Callable[[T, Path], None], use_disk: bool = True) -> T:
    """The cached solution at ``path`` if it loads, else a fresh one, saved there (a stale
    or damaged file is solved again; a cache that cannot be written is skipped)."""
    if use_disk and path.exists():
        try:
            return load(path)
        except ValueError:
            pass
    solution = solve()
    if use_disk:
        try:
            save(solution, path)
        except OSError:
            pass
    return solution
