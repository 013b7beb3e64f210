"""The argument types and checks every ``dugout`` subcommand shares.

Each flag of each subcommand is read by one of these types, so a seed, a count, a rate
or an output path means the same and is refused the same way everywhere::

    from dugout.cli import args

    def configure(parser: args.Parser) -> None:
        parser.add_argument("--games", type=args.count(4, args.MAX_GAMES, even=True), default=1000)
        parser.add_argument("--seed", type=args.seed, default=0)
        parser.add_argument("--out", type=args.out_dir)

A type is a callable that turns the flag's text into its value or raises
:class:`argparse.ArgumentTypeError` with the rule it broke and the limit (``must be a
whole number from 1 to 1000000, got '0'``); argparse adds the flag's name. Checks that
need more than one flag (``--p0`` with ``--p1``) or that read files (a checkpoint made for
another env) go in the subcommand's ``check(args)`` and raise :class:`UsageError` naming
the flag. Every check runs before any game, solve or training step, and none of them
writes anything: an output path is checked for being writable, not made.

:class:`Parser` prints any failure as one line, ``dugout SUBCOMMAND: error: ...``, and
exits with status 2.

Every type carries ``bad``: texts it must refuse. The bad-argument test table
(``tests/test_cli.py``) is generated from them, over every flag of every subcommand.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import threading
from pathlib import Path
from typing import Any, Callable, Iterator, NoReturn, Sequence

from ..envs.core.errors import DugoutError

__all__ = ["Parser", "UsageError", "build", "parse", "invoke", "terminate_as_exit", "Terminated",
           "TERMINATED_STATUS", "ArgType", "integer", "count", "games_or_none", "seed", "workers",
           "real", "probability", "innings", "out_dir", "out_file", "in_file", "in_dir", "agent_ref",
           "env_id", "env_or_challenge", "CHALLENGE_ID", "env_option", "env_options", "check_out_dir", "check_out_file", "write_json",
           "MAX_SEED", "MAX_GAMES",
           "MAX_WORKERS", "MAX_TIMESTEPS", "MAX_INNINGS", "MAX_LAYER", "MAX_RESAMPLES"]

#: Seeds are what numpy's and Gymnasium's seeding take: 0 to 2**32 - 1.
MAX_SEED = 2**32 - 1
#: The most games one run may ask for (a matchup, a calibration, a check): a billion.
MAX_GAMES = 10**9
#: The most worker processes or Ray tasks at once.
MAX_WORKERS = 1024
#: The most environment steps one training run may ask for.
MAX_TIMESTEPS = 10**12
#: The longest scheduled game any ruleset plays (``innings``): a regulation game.
MAX_INNINGS = 9
#: The widest hidden layer of a trained manager's network.
MAX_LAYER = 4096
#: The most bootstrap resamples.
MAX_RESAMPLES = 10**6


class UsageError(ValueError):
    """A flag (or a combination of flags) that cannot be used; the message names the flag."""

    def __init__(self, flag: str, message: str):
        named = not flag or message.startswith(flag)
        super().__init__(message if named else f"{flag}: {message}")
        self.flag = flag


class Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (``PROG: error: MESSAGE``) and exit 2,
    without the usage block, and which takes no abbreviated flags (``--seed`` is never
    ``--se``)."""

    def __init__(self, *a: Any, **kw: Any):
        kw.setdefault("allow_abbrev", False)
        kw.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*a, **kw)

    def error(self, message: str) -> NoReturn:
        line = " ".join(str(message).split())
        self.exit(2, f"{self.prog}: error: {line}\n")


# -- the types ----------------------------------------------------------------------------------
class ArgType:
    """A flag's type: ``convert(text)`` or an ``ArgumentTypeError`` with the rule broken.

    ``name`` is what argparse and the help call it; ``limit`` what it takes, for the help;
    ``bad`` are texts it refuses (the test table's rows); ``paths`` marks a path type, whose bad cases the test table builds on disk
    (a file where a folder is wanted, a folder where a file is wanted, a path under a file).
    """

    def __init__(self, name: str, convert: Callable[[str], Any], bad: Sequence[str] = (),
                 paths: str | None = None, limit: str = ""):
        self.__name__ = name
        self.convert, self.bad, self.paths = convert, tuple(bad), paths
        #: what it takes, as a flag's help shows it ("1 to 1,024", "more than 0 and at most 1")
        self.limit = limit

    def __call__(self, text: str) -> Any:
        return self.convert(text)

    def __repr__(self) -> str:
        return f"<dugout argument type {self.__name__}>"


def _refuse(rule: str, text: str) -> NoReturn:
    raise argparse.ArgumentTypeError(f"must be {rule}, got {text!r}")


def _whole(text: str, rule: str) -> int:
    value = text.strip()
    digits = value[1:] if value[:1] in "+-" else value
    if not digits.replace("_", "").isdigit():
        _refuse(rule, text)
    return int(value)


def integer(lo: int, hi: int, what: str = "a whole number", even: bool = False) -> ArgType:
    """A whole number from ``lo`` to ``hi`` (even ones only with ``even``)."""
    rule = f"{'an even' if even else 'a whole'} number from {lo} to {hi}" + \
        ("" if what == "a whole number" else f" ({what})")

    def convert(text: str) -> int:
        value = _whole(text, rule)
        if not lo <= value <= hi or (even and value % 2):
            _refuse(rule, text)
        return value

    bad = ["x", "1.5", "", str(lo - 1), str(hi + 1)] + ([str(lo + 1)] if even else [])
    limit = f"{'an even number, ' if even else ''}{lo:,} to {hi:,}"
    return ArgType("even number" if even else "whole number", convert, bad, limit=limit)


def count(lo: int = 1, hi: int = MAX_GAMES, what: str = "a whole number",
          even: bool = False) -> ArgType:
    """A positive count with a documented limit: games, resamples, iterations."""
    return integer(lo, hi, what, even)


def games_or_none(what: str, hi: int = MAX_GAMES) -> ArgType:
    """Games of an optional match: 0 (none) or an even number from 4 (two seat-swapped
    pairs, a tournament's least) to ``hi``."""
    rule = f"0 (none) or an even number from 4 to {hi} ({what})"

    def convert(text: str) -> int:
        value = _whole(text, rule)
        if value != 0 and not (4 <= value <= hi and value % 2 == 0):
            _refuse(rule, text)
        return value

    return ArgType("even number", convert, ["x", "1.5", "", "-1", "2", "5", str(hi + 2)],
                   limit=f"0, or an even number, 4 to {hi:,}")


#: A seed: 0 to 2**32 - 1.
seed = integer(0, MAX_SEED, "a seed")
seed.__name__ = "seed"
#: Worker processes (or Ray tasks at once).
workers = integer(1, MAX_WORKERS, "worker processes")
workers.__name__ = "workers"
#: The innings of a scheduled game.
innings = integer(1, MAX_INNINGS, "innings of a game")
innings.__name__ = "innings"


def real(lo: float = -math.inf, hi: float = math.inf, lo_open: bool = False,
         hi_open: bool = False, what: str = "") -> ArgType:
    """A finite number in a range (``lo_open``/``hi_open``: the end itself is out)."""
    left = "more than" if lo_open else "at least"
    right = "less than" if hi_open else "at most"
    parts = ([f"{left} {lo:g}"] if lo > -math.inf else []) + \
            ([f"{right} {hi:g}"] if hi < math.inf else [])
    limit = " and ".join(parts) or "a finite number"
    rule = "a finite number" + (f" {' and '.join(parts)}" if parts else "") + \
        (f" ({what})" if what else "")

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            _refuse(rule, text)
        if not math.isfinite(value) or value < lo or value > hi or \
                (lo_open and value == lo) or (hi_open and value == hi):
            _refuse(rule, text)
        return value

    bad = ["x", "nan", "inf", "-inf"]
    if lo > -math.inf:
        bad.append(f"{lo:g}" if lo_open else f"{lo - max(1.0, abs(lo)):g}")
    if hi < math.inf:
        bad.append(f"{hi:g}" if hi_open else f"{hi + max(1.0, abs(hi)):g}")
    return ArgType("number", convert, bad, limit=limit)


#: A probability strictly between 0 and 1.
probability = real(0.0, 1.0, lo_open=True, hi_open=True, what="a probability")
probability.__name__ = "probability"


# -- paths --------------------------------------------------------------------------------------
def _first_existing(path: Path) -> Path:
    """The path itself or its nearest ancestor that exists."""
    for part in (path, *path.parents):
        if part.exists():
            return part
    return Path(".")


def _check_under(path: Path, rule: str, text: str) -> None:
    """Every existing ancestor is a folder we may write in."""
    base = _first_existing(path.parent if path != path.parent else path)
    if not base.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: {base} is a file, not a folder ({rule})")
    if not os.access(base, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{text}: cannot write in {base} ({rule})")


def check_out_dir(text: str) -> Path:
    """An output folder: a folder that exists and can be written in, or one that can be made
    (no file on its path, the nearest existing folder writable). Nothing is made here."""
    rule = "an output folder"
    if not str(text).strip():
        _refuse(rule, text)
    path = Path(text)
    if path.exists():
        if not path.is_dir():
            raise argparse.ArgumentTypeError(f"{text}: is a file, not a folder ({rule})")
        if not os.access(path, os.W_OK | os.X_OK):
            raise argparse.ArgumentTypeError(f"{text}: the folder is not writable ({rule})")
        return path
    _check_under(path, rule, text)
    return path


def check_out_file(text: str) -> Path:
    """An output file: not a folder, its folder writable or makeable. Nothing is made here."""
    rule = "an output file"
    if not str(text).strip():
        _refuse(rule, text)
    path = Path(text)
    if path.is_dir() or str(text).endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"{text}: is a folder; give a file name ({rule})")
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"{text}: the file is not writable ({rule})")
    _check_under(path, rule, text)
    return path


#: How to get matplotlib, which every ``--plot`` needs.
PLOT_HINT = "pip install 'dugout-baseball[plots]'"


def check_plot_file(path: str | os.PathLike, flag: str = "--plot") -> None:
    """A plot's output file (``flag``): matplotlib is installed and draws the format of the
    file's suffix (no suffix: PNG), else a :class:`UsageError` naming the flag."""
    import importlib.util
    path = Path(path)
    if importlib.util.find_spec("matplotlib") is None:
        raise UsageError(flag, f"{flag} needs matplotlib, which is not installed here: {PLOT_HINT}")
    suffix = path.suffix.lstrip(".").lower()
    if suffix:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        formats = FigureCanvasAgg.get_supported_filetypes()
        if suffix not in formats:
            raise UsageError(flag, f"{path}: matplotlib draws no {suffix!r} files; give "
                                   f"one of {', '.join(sorted(formats))}")


def _existing(text: str, kind: str) -> Path:
    """``text`` as a path that exists and is a ``kind`` ("file" or "folder")."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text}: no such {kind}")
    if not (path.is_dir() if kind == "folder" else path.is_file()):
        other = "file" if kind == "folder" else "folder"
        raise argparse.ArgumentTypeError(f"{text}: is a {other}, not a {kind}")
    return path


def write_json(path: str | os.PathLike, data: Any) -> Path:
    """Write ``data`` as indented JSON (and a newline) to the output file a command was given
    (``--json``, checked by :data:`out_file`), its folder made first; the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    return path


def _in_file(text: str) -> Path:
    path = _existing(text, "file")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"{text}: the file is not readable")
    return path


def _in_dir(text: str) -> Path:
    return _existing(text, "folder")


#: A folder to write into (made when the work starts, never by the check).
out_dir = ArgType("folder", check_out_dir, paths="out_dir", limit="a folder")
#: A file to write.
out_file = ArgType("file", check_out_file, paths="out_file", limit="a file")
#: A file to read.
in_file = ArgType("file", _in_file, paths="in_file", limit="a file")
#: A folder to read.
in_dir = ArgType("folder", _in_dir, paths="in_dir", limit="a folder")


# -- what the games are played with -------------------------------------------------------------
def _agent_ref(text: str) -> Any:
    from ..agents.ref import AgentRef
    try:
        return AgentRef.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


#: A manager: a name (``random``, ``heuristic``, ``search``, ...), ``search:key=value,...``
#: or ``ppo:PATH``; parsed into an :class:`~dugout.agents.ref.AgentRef`. Whether the env
#: knows the name or the search's settings, and whether a checkpoint loads and fits the env,
#: are checked by the subcommand (it knows the env).
agent_ref = ArgType("agent", _agent_ref, bad=["", "ppo:", "nope:x", "a b", "search:", "search:sims",
                                              "search:sims=1,sims=2"],
                    limit="a name, search:key=value,... or ppo:PATH")


def _env_id(text: str) -> str:
    from ..envs import ENV_IDS
    if text not in ENV_IDS:
        raise argparse.ArgumentTypeError(f"unknown environment {text!r}; known: {', '.join(ENV_IDS)}")
    return text


#: An environment id from ``dugout.envs.ENV_IDS``.
env_id = ArgType("environment", _env_id, bad=["nope_v0", ""],
                 limit="an id of dugout.envs.ENV_IDS")

#: The Manager Challenge's id, beside the two-manager rulesets' where a command plays both.
CHALLENGE_ID = "manager_challenge_v0"


def _env_or_challenge(text: str) -> str:
    from ..envs import ENV_IDS
    if text not in ENV_IDS and text != CHALLENGE_ID:
        raise argparse.ArgumentTypeError(f"unknown environment {text!r}; known: "
                                         f"{', '.join((*ENV_IDS, CHALLENGE_ID))}")
    return text


#: An environment id from ``dugout.envs.ENV_IDS``, or the Manager Challenge's.
env_or_challenge = ArgType("environment", _env_or_challenge, bad=["nope_v0", "", "ManagerChallenge"],
                           limit=f"an id of dugout.envs.ENV_IDS or {CHALLENGE_ID}")


def _env_option(text: str) -> str:
    from ..envs.options import RESERVED_OPTIONS, parse_env_option
    try:
        key, _ = parse_env_option(text)
    except Exception as error:                 # OptionError: one line naming the text
        raise argparse.ArgumentTypeError(str(error).removeprefix("--env-option ")) from None
    if key in RESERVED_OPTIONS:
        raise argparse.ArgumentTypeError(f"{key}: {RESERVED_OPTIONS[key]}; it cannot be given")
    return text


#: ``KEY=VALUE``: one env option (the env itself checks the key and value, once, in ``check``).
env_option = ArgType("KEY=VALUE", _env_option,
                     bad=["novalue", "=3", "illegal_action=raise", "render_mode=human"],
                     limit="KEY=VALUE")


def env_options(texts: Sequence[str], flag: str = "--env-option") -> dict[str, Any]:
    """The options of repeated ``--env-option KEY=VALUE`` flags as a dict (values read as
    JSON where they parse); a :class:`UsageError` for a key given twice. For an env outside
    the AEC registry (the Manager Challenge); the AEC envs' flags go through
    :func:`dugout.envs.options.env_options_from_flags`, which also builds the env."""
    from ..envs.options import parse_env_option
    out: dict[str, Any] = {}
    for text in texts:
        key, value = parse_env_option(text)
        if key in out:
            raise UsageError(flag, f"{flag} {key}: given twice")
        out[key] = value
    return out


# -- running a subcommand -----------------------------------------------------------------------
def build(prog: str, configure: Callable[[Parser], None], description: str | None = None) -> Parser:
    """A subcommand's parser, with the flags ``configure`` adds."""
    parser = Parser(prog=prog, description=description)
    configure(parser)
    return parser


def parse(prog: str, configure: Callable[[Parser], None], check: Callable[[Any], None] | None,
          argv: Sequence[str], description: str | None = None) -> tuple[Parser, Any]:
    """Parse ``argv`` with the flags ``configure`` adds, then ``check`` them: the parser and
    the checked arguments. Any failure is the parser's one line and exit status 2
    (``SystemExit``), before any work."""
    parser = build(prog, configure, description)
    args = parser.parse_args(list(argv))
    if check is not None:
        try:
            check(args)
        except (ValueError, DugoutError) as error:   # UsageError, OptionError, CheckpointError...
            parser.error(str(error))
    return parser, args


def invoke(prog: str, configure: Callable[[Parser], None], check: Callable[[Any], None] | None,
           run: Callable[[Any], Any], argv: Sequence[str] | None = None,
           description: str | None = None) -> Any:
    """A subcommand end to end: parse and check ``argv`` (default ``sys.argv[1:]``), then
    ``run`` the checked arguments and return what it returns. A ``DugoutError`` the work
    itself meets (a cluster lost mid-run) is one line too, exit status 2. SIGTERM during
    ``run`` stops it as an exception (:func:`terminate_as_exit`): one line, exit status 143."""
    import sys
    parser, args = parse(prog, configure, check, sys.argv[1:] if argv is None else argv,
                         description)
    try:
        with terminate_as_exit():
            return run(args)
    except DugoutError as error:
        parser.error(str(error))
    except Terminated:
        sys.stderr.write(f"{prog}: terminated (SIGTERM): the work in progress was stopped\n")
        raise


#: The exit status of a command stopped by SIGTERM, as a shell reports one killed by it.
TERMINATED_STATUS = 128 + signal.SIGTERM


class Terminated(SystemExit):
    """Raised in the main thread when this process is sent SIGTERM inside
    :func:`terminate_as_exit` (exit status :data:`TERMINATED_STATUS`)."""


@contextlib.contextmanager
def terminate_as_exit() -> Iterator[None]:
    """Inside, SIGTERM (a job scheduler's time limit, ``timeout``, ``kill``) stops this
    process as an exception does, not at once: :class:`Terminated` is raised in the main
    thread, so ``with`` blocks and ``finally`` clauses run and stop what the work started (a
    process pool's workers, vector envs' subprocesses), where the signal's default would
    leave them running on as orphans. A process forked inside (a pool's worker) that is sent
    SIGTERM dies of it as by default. Outside the main thread (where Python takes no signal
    handlers) it does nothing; the handler before is put back on leaving."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()

    def stop(signum, frame) -> None:
        if os.getpid() != owner:                 # a forked child: die of it, as by default
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise Terminated(TERMINATED_STATUS)

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
