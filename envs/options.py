"""An env's options given by name: what the command lines' ``--env-option KEY=VALUE`` and
``--teams AWAY HOME`` flags become, and the one check every caller makes before a game.

Used by ``python -m dugout.evaluate`` (tournament, replay, crn), ``python -m dugout.train``
and the main job, so the flags mean the same everywhere:

* ``--env-option KEY=VALUE`` (repeatable) sets one option; VALUE is read as JSON when it
  parses (``innings=7``, ``dh=true``, ``max_innings=null``, ``teams='["sample", "reds"]'``,
  ``point_cap='"5000"'`` for a string of digits) and as a plain string otherwise
  (``level=basic``);
* ``--teams AWAY HOME`` is the ``teams`` option (rulesets with teams only);
* the env checks the options itself, by being built once: a bad one is an
  :class:`~dugout.envs.core.errors.OptionError` naming the flag;
* :data:`RESERVED_OPTIONS` are the harness's own (``render_mode``, ``illegal_action``,
  ``dice``) and are refused.
"""

from __future__ import annotations

import inspect
import json
from typing import Any, Sequence

from .core.errors import DugoutError, OptionError
from .registry import ENV_IDS, make, spec

__all__ = ["RESERVED_OPTIONS", "option_names", "parse_env_option", "describe_options",
           "jsonable_options", "check_env_options", "env_options_from_flags"]

#: Options the harness sets itself, never given by a user: why, by option.
RESERVED_OPTIONS: dict[str, str] = {
    "render_mode": "the harness sets it itself (games are played undrawn; replay --gif draws one)",
    "illegal_action": "the harness sets it itself (an illegal action loses the game, as env() has it)",
    "dice": "the harness sets it itself (each game's dice come from its seed: common random numbers)",
}


def _known(env_id: str) -> None:
    if env_id not in ENV_IDS:
        raise OptionError(f"unknown environment {env_id!r}; known: {', '.join(ENV_IDS)}")


def option_names(env_id: str) -> tuple[str, ...] | None:
    """The options a user may give ``env_id``: the named parameters of its env class, less
    :data:`RESERVED_OPTIONS`; None for an env whose class takes only ``**options``."""
    _known(env_id)
    params = inspect.signature(spec(env_id).env_class.__init__).parameters
    names = tuple(n for n, p in params.items() if n != "self" and p.kind in
                  (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
    return tuple(n for n in names if n not in RESERVED_OPTIONS) if names else None


def parse_env_option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` as (key, value): the value is parsed as JSON when it parses (``9``,
    ``true``, ``null``, ``["sample", "reds"]``, ``"9"`` for the string 9), else taken as a
    plain string (``level=basic``); the first ``=`` splits."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise OptionError(f"--env-option {text!r}: expected KEY=VALUE (e.g. level=basic, "
                          f"innings=7, teams='[\"sample\", \"reds\"]')")
    if not key.isidentifier():
        raise OptionError(f"--env-option {text!r}: {key!r} is not an option name")
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        value = raw
    return key, value


def describe_options(options: dict[str, Any] | None) -> str:
    """``level=basic, teams=["nya2004", "bos2004"]``; "default options" for none."""
    if not options:
        return "default options"
    return ", ".join(f"{k}={v if isinstance(v, str) else json.dumps(v, default=str)}"
                     for k, v in options.items())


def jsonable_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """``options`` as plain JSON values (tuples as lists; anything else by its text)."""
    return json.loads(json.dumps(dict(options or {}), default=str))


def _check_keys(env_id: str, options: dict[str, Any], flag: str) -> None:
    for key in options:
        if key in RESERVED_OPTIONS:
            raise OptionError(f"{flag} {key}: {RESERVED_OPTIONS[key]}; it cannot be given")
    allowed = option_names(env_id)
    for key in options:
        if allowed is not None and key not in allowed:
            raise OptionError(f"{flag} {key}: {env_id} has no option {key!r}; its options: "
                              f"{', '.join(allowed)}")


def _make(env_id: str, options: dict[str, Any]):
    return make(env_id, **options)


def check_env_options(env_id: str, options: dict[str, Any] | None, flag: str = "env_kwargs",
                      build=_make):
    """Build ``env_id`` with ``options`` (``build(env_id, options)``, by default
    ``make(env_id, **options)``) and return it;
    an :class:`OptionError` naming ``flag`` for an unknown env, a reserved or unknown
    option, or a value the env's own check refuses (``OptionError``, ``DataError``)."""
    _known(env_id)
    options = dict(options or {})
    _check_keys(env_id, options, flag)
    try:
        return build(env_id, options)
    except (DugoutError, ValueError, TypeError) as error:
        raise OptionError(f"{flag}: {error}") from None


def env_options_from_flags(env_id: str, options: Sequence[str] | None = None,
                           teams: Sequence[str] | None = None) -> dict[str, Any]:
    """The env options of ``--env-option KEY=VALUE`` (repeatable) and ``--teams AWAY HOME``,
    checked by building the env once; an :class:`OptionError` naming the flag."""
    _known(env_id)
    out: dict[str, Any] = {}
    for text in options or ():
        key, value = parse_env_option(text)
        if key in out:
            raise OptionError(f"--env-option {key}: given twice")
        out[key] = value
    _check_keys(env_id, out, "--env-option")
    if teams is not None:
        if "teams" in out:
            raise OptionError("--teams and --env-option teams=... both give the teams; give one")
        allowed = option_names(env_id)
        if allowed is not None and "teams" not in allowed:
            raise OptionError(f"--teams: {env_id} has no teams to choose (its options: "
                              f"{', '.join(allowed)})")
        out["teams"] = list(teams)
    flag = ("--env-option" if teams is None else "--teams" if len(out) == 1 else
            "--env-option/--teams")
    check_env_options(env_id, out, flag)
    return out
