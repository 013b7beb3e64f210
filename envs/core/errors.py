"""The errors dugout raises on bad input, each naming what was wrong."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

__all__ = ["DugoutError", "IllegalActionError", "DataError", "OptionError", "check_options"]


class DugoutError(Exception):
    """Base class of every error dugout raises on purpose."""


class IllegalActionError(DugoutError, ValueError):
    """An action the pending decision does not allow."""


class DataError(DugoutError, ValueError):
    """A malformed team, lineup, roster or card file; the message names the field."""


class OptionError(DugoutError, TypeError):
    """An unknown environment option, or a known one with a bad value."""


def check_options(env_name: str, options: Mapping[str, Any], allowed: Iterable[str]) -> None:
    """Fail loudly on an option the environment does not know."""
    allowed = sorted(allowed)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise OptionError(
            f"{env_name}: unknown option(s) {', '.join(map(repr, unknown))}; "
            f"known options are {', '.join(allowed)}")
