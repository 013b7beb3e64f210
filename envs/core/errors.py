"""The errors dugout raises on bad input, each naming what was wrong."""

from __future__ import annotations

import numbers
from typing import Any, Iterable, Mapping

__all__ = ["DugoutError", "IllegalActionError", "DataError", "OptionError", "UnknownEnvError",
           "UnknownAgentError", "check_options", "as_int", "show", "show_list",
           "check_innings", "check_pair", "check_max_decisions", "MAX_INNINGS", "MAX_GAME_INNINGS"]

#: The longest scheduled game (``innings``): a regulation game. Every ruleset's observation
#: encodes the inning as a one-hot of the 1st to 9th and "extra", and ``innings_left``
#: (innings still to start / 9) stays within its documented [0, 1] only up to 9 innings.
MAX_INNINGS = 9
#: The latest inning a game may be cut off at (``max_innings``): two digits on a scorecard.
#: (Without ``max_innings`` extra innings go on until a winner, as the rulebooks say.)
MAX_GAME_INNINGS = 99


class DugoutError(Exception):
    """Base class of every error dugout raises on purpose."""


class IllegalActionError(DugoutError, ValueError):
    """An action the pending decision does not allow."""


class DataError(DugoutError, ValueError):
    """A malformed team, lineup, roster or card file; the message names the field."""


class OptionError(DugoutError, TypeError):
    """An unknown environment option, or a known one with a bad value."""


class UnknownEnvError(DugoutError, ValueError):
    """An environment id that is not registered (``dugout.envs.ENV_IDS``)."""


class UnknownAgentError(DugoutError, ValueError):
    """An agent name that is not one of the env's agents (``env.possible_agents``), given
    to ``observe()`` or ``view()``: a ``ValueError``, as PettingZoo's classic envs raise."""


def check_options(env_name: str, options: Mapping[str, Any], allowed: Iterable[str]) -> None:
    """Fail loudly on an option the environment does not know."""
    allowed = sorted(allowed)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise OptionError(
            f"{env_name}: unknown option(s) {', '.join(map(repr, unknown))}; "
            f"known options are {', '.join(allowed)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def as_int(value: Any) -> int | None:
    """``value`` as a Python int if it is a whole number (a Python or numpy integer, not a
    bool and not a float), else None."""
    return int(value) if _is_int(value) else None


def show(value: Any, limit: int = 80) -> str:
    """``repr(value)`` for an error message: cut to ``limit`` characters, and safe for an
    int too long for Python to print."""
    try:
        text = repr(value)
    except ValueError:             # an int (or a container holding one) too long to print
        if isinstance(value, int):
            return f"an int of {value.bit_length():,} bits"
        return f"a {type(value).__name__} holding an int too long to print"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def show_list(items: Iterable[Any], most: int = 10) -> str:
    """Items for an error message, sorted, as a list of :func:`show` texts: at most
    ``most`` of them, then how many more."""
    items = sorted(items, key=show)
    more = f" and {len(items) - most} more" if len(items) > most else ""
    return "[" + ", ".join(map(show, items[:most])) + "]" + more


def check_innings(env_name: str, innings: Any, max_innings: Any) -> tuple[int, int | None]:
    """The scheduled length and the optional cut-off every ruleset takes, as Python ints.

    ``innings`` is 1 to :data:`MAX_INNINGS` (9); ``max_innings`` is None (extra innings
    until a winner) or ``innings`` to :data:`MAX_GAME_INNINGS` (99). Python and numpy
    integers are accepted; anything else raises :class:`OptionError` naming the limit.
    """
    n = as_int(innings)
    if n is None or not 1 <= n <= MAX_INNINGS:
        raise OptionError(f"{env_name}: innings must be an int from 1 to {MAX_INNINGS} "
                          f"(MAX_INNINGS, a regulation game), got {show(innings)}")
    if max_innings is None:
        return n, None
    m = as_int(max_innings)
    if m is None or not n <= m <= MAX_GAME_INNINGS:
        raise OptionError(f"{env_name}: max_innings must be None or an int from innings ({n}) "
                          f"to {MAX_GAME_INNINGS} (MAX_GAME_INNINGS), got {show(max_innings)}")
    return n, m


def check_max_decisions(env_name: str, value: Any) -> int | None:
    """The ``max_decisions`` option as a Python int, or None (the env's default bound).

    It is a positive whole number (a Python or numpy integer, not a bool or a float): the
    most decisions an episode may take before it is cut off (truncated, reward 0). Anything
    else raises :class:`OptionError` naming the option.
    """
    if value is None:
        return None
    n = as_int(value)
    if n is None or n < 1:
        raise OptionError(f"{env_name}: max_decisions must be None (the env's default bound) or "
                          f"an int of at least 1 (the most decisions an episode may take "
                          f"before it is cut off), got {show(value)}")
    return n


def check_pair(env_name: str, option: str, value: Any) -> None:
    """An (away, home) option such as ``teams``."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise OptionError(f"{env_name}: {option} must be a pair (away, home), got {show(value)}")
