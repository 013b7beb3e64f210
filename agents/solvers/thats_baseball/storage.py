"""Solved tables on disk: the file format, the rules version, the cache.

A solution is a compressed ``.npz`` holding a JSON ``meta`` (format, rules version,
lineups, innings, bound, seconds, iterations) and the arrays ``start``, ``values``,
``policy`` and ``extra_tie``; it is written atomically. Tables made under another rules
version or format are refused. :func:`cache_path` names a solution's file under
``$DUGOUT_CACHE/solver`` (``~/.cache/dugout`` by default), keyed by everything that
changes the tables.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from ...value_tables import cache_dir
from ..files import read_npz, write_npz
from .chart import check_lineup

__all__ = ["RULES_VERSION", "FORMAT_VERSION", "TABLES", "write_tables", "read_tables", "cache_path"]

#: The engine whose rules the solver follows; tables made under another are refused.
RULES_VERSION = "thats_baseball-1"
FORMAT_VERSION = 1
#: The arrays of a saved solution, in the file's order.
TABLES = ("start", "values", "policy", "extra_tie")


def write_tables(path: str | os.PathLike, meta: Mapping[str, Any],
                 tables: Mapping[str, np.ndarray]) -> None:
    """Write ``meta`` and the arrays of :data:`TABLES` to ``path`` (compressed npz), atomically."""
    write_npz(path, meta, {k: tables[k] for k in TABLES})


def read_tables(path: str | os.PathLike, lineups: Sequence[Sequence[int]] | None = None,
                innings: int | None = None, bound: int | None = None
                ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """``(meta, arrays)`` of a saved solution; refuse those of another format or rules
    version or, when given, other lineups, innings or bound."""
    meta, arrays = read_npz(path, TABLES, "That's Baseball", FORMAT_VERSION, RULES_VERSION)
    saved = tuple(tuple(x) for x in meta["lineups"])
    if lineups is not None:
        wanted = (check_lineup(lineups[0], "away"), check_lineup(lineups[1], "home"))
        if wanted != saved:
            raise ValueError(f"{path}: solved for lineups {saved}, not {wanted}")
    if innings is not None and innings != meta["innings"]:
        raise ValueError(f"{path}: solved for {meta['innings']} innings, not {innings}")
    if bound is not None and bound != meta["bound"]:
        raise ValueError(f"{path}: solved with score bound {meta['bound']}, not {bound}")
    return meta, arrays


def cache_path(lineups: Sequence[Sequence[int]], innings: int, bound: int) -> Path:
    """Where the cache keeps the solution of these lineups (lists of ints), innings and bound."""
    key = json.dumps({"lineups": lineups, "innings": innings, "bound": bound,
                      "rules": RULES_VERSION, "format": FORMAT_VERSION}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / "solver" / f"thats_baseball-{digest}.npz"
