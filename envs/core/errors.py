"""The errors dugout raises on bad input, each naming what was wrong."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

__all__ = ["DugoutError", "IllegalActionError", "DataError", "OptionError", "UnknownEnvError",
           "check_options",
           "check_innings", "check_pair"]


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


def check_options(env_name: str, options: Mapping[str, Any], allowed: Iterable[str]) -> None:
    """Fail loudly on an option the environment does not know."""
    allowed = sorted(allowed)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise OptionError(
            f"{env_name}: unknown option(s) {', '.join(map(repr, unknown))}; "
            f"known options are {', '.join(allowed)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_innings(env_name: str, innings: Any, max_innings: Any) -> None:
    """The scheduled length and the optional cut-off every ruleset takes."""
    if not _is_int(innings) or innings < 1:
        raise OptionError(f"{env_name}: innings must be a positive int, got {innings!r}")
    if max_innings is not None and (not _is_int(max_innings) or max_innings < innings):
        raise OptionError(f"{env_name}: max_innings must be None or an int of at least "
                          f"innings ({innings}), got {max_innings!r}")


def check_pair(env_name: str, option: str, value: Any) -> None:
    """An (away, home) option such as ``teams``."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise OptionError(f"{env_name}: {option} must be a pair (away, home), got {value!r}")
