"""Reading the JSON files users hand to dugout (teams, decks, card sets), safely.

Every loader reads through :func:`read_json_file` and checks a dict or list it is given
directly with :func:`check_plain_data`, so a hostile or careless input fails with a
:class:`~dugout.envs.core.DataError` naming the file, never with ``RecursionError``,
``MemoryError``, ``IsADirectoryError`` or ``UnicodeDecodeError``, and never hangs. The
limits:

* a file is at most :data:`MAX_FILE_BYTES` (1 MiB; the largest built-in team is 17 KB);
* it is UTF-8 text (a byte-order mark is allowed) holding standard JSON (no ``NaN`` or
  ``Infinity``; integers of at most 4,300 digits, Python's own limit);
* containers nest at most :data:`MAX_DEPTH` deep (32; a team file nests 5 deep);
* a dict or list given directly holds at most :data:`MAX_NODES` values in all
  (200,000; a team holds about 1,000), and no container inside itself.
"""

from __future__ import annotations

import json
import os
import re
import stat
from itertools import accumulate
from typing import Any

from .errors import DataError

__all__ = ["MAX_FILE_BYTES", "MAX_DEPTH", "MAX_NODES", "read_json_file", "check_plain_data",
           "describe_path"]

#: the largest data file read (bytes)
MAX_FILE_BYTES = 1 << 20
#: the deepest nesting of objects and arrays (``[[1]]`` nests 2 deep)
MAX_DEPTH = 32
#: the most values (containers, keys' values and items, all counted) in a dict or list given directly
MAX_NODES = 200_000

# a JSON string literal, escapes included (the unrolled loop is linear, never backtracks)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def describe_path(path: Any) -> str:
    """A path as text for a message (bytes paths decoded the way the OS does)."""
    try:
        return os.fsdecode(path)
    except (TypeError, ValueError):
        return repr(path)


def _nesting_depth(text: str) -> int:
    """How deep the brackets outside string literals nest, without recursion."""
    skeleton = _STRING.sub("", text)
    steps = [_STEP[b] for b in _BRACKET.findall(skeleton)]
    return max(accumulate(steps), default=0)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not standard JSON (write a number)")


def read_json_file(path: Any, what: str = "data") -> Any:
    """The parsed JSON value of the file at ``path``.

    ``what`` names the kind of file in messages (``"team"``, ``"deck"``, ``"card"``).
    Raises :class:`DataError` naming the file when it is missing, not a regular file (a
    directory, a pipe, a device), unreadable, larger than :data:`MAX_FILE_BYTES`, not
    UTF-8, not JSON, or nested deeper than :data:`MAX_DEPTH`.
    """
    name = describe_path(path)
    label = f"{what} file {name!r}"
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise DataError(f"{label} does not exist") from None
    except (OSError, ValueError, TypeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise DataError(f"{label} cannot be read: {reason}") from None
    if stat.S_ISDIR(info.st_mode):
        raise DataError(f"{label} is a directory, not a JSON file")
    if not stat.S_ISREG(info.st_mode):
        raise DataError(f"{label} is not a regular file (a pipe, socket or device?)")
    if info.st_size > MAX_FILE_BYTES:
        raise DataError(f"{label} is {info.st_size:,} bytes; a data file may be at most "
                        f"{MAX_FILE_BYTES:,} bytes (MAX_FILE_BYTES)")
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise DataError(f"{label} cannot be read: {e.strerror or e}") from None
    if len(raw) > MAX_FILE_BYTES:   # a file that grew, or one whose size stat does not know
        raise DataError(f"{label} is larger than {MAX_FILE_BYTES:,} bytes, the most a data file "
                        f"may hold (MAX_FILE_BYTES)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DataError(f"{label}: not UTF-8 text ({e.reason} at byte {e.start}); save the file "
                        f"as UTF-8") from None
    depth = _nesting_depth(text)
    if depth > MAX_DEPTH:
        raise DataError(f"{label}: objects and arrays nest {depth} deep; at most {MAX_DEPTH} "
                        f"(MAX_DEPTH) is allowed")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise DataError(f"{label}: not valid JSON ({e})") from None
    except RecursionError:   # not expected after the depth check; kept as a guard
        raise DataError(f"{label}: objects and arrays nest too deep (at most {MAX_DEPTH})") from None
    except ValueError as e:  # NaN/Infinity, or an integer over Python's digit limit
        raise DataError(f"{label}: not valid JSON ({e})") from None


def check_plain_data(value: Any, source: str) -> None:
    """Refuse a dict or list nested deeper than :data:`MAX_DEPTH`, holding more than
    :data:`MAX_NODES` values, or holding itself; walks without recursion.

    Loaders call it on data given directly (not read from a file); ``source`` names the
    input in the :class:`DataError`.
    """
    stack = [(value, 0)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise DataError(f"{source}: holds more than {MAX_NODES:,} values (MAX_NODES)")
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        depth += 1
        if nodes + len(stack) + len(children) > MAX_NODES:
            raise DataError(f"{source}: holds more than {MAX_NODES:,} values (MAX_NODES)")
        if depth > MAX_DEPTH:
            raise DataError(f"{source}: objects and lists nest deeper than {MAX_DEPTH} "
                            f"(MAX_DEPTH), or one holds itself")
        stack.extend((child, depth) for child in children)
