"""``dugout tables``: print a ruleset's RE24 table beside MLB's, and win expectancy at a few
moments.

    dugout tables --env thats_baseball_v0 --teams sample sample
    dugout tables --env grand_slam_v0 --innings 7
    dugout tables --env showdown_v0 --teams nya2004 bos2004
    python -m dugout.agents.value_tables --env grand_slam_v0   (the same)

``--innings`` is the scheduled length, 1 to 9. ``--teams`` are the ruleset's team names or
files (a ruleset without teams, Grand Slam, takes none); they are loaded, and the env built
with them, before any half inning is sampled. The tables are sampled once and cached on
disk (``$DUGOUT_CACHE``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from ...cli import args
from ...envs.core.errors import DugoutError
from ...envs.options import check_env_options, option_names
from ..registry import MANAGER_MODULES, managers
from . import MLB_RE24_2010_2015, ValueTables, format_re24

__all__ = ["main", "configure", "check", "run"]

#: Rulesets whose managers have no run-expectancy tables by inning (their record's
#: ``value_tables`` refuses at once, saying what they have instead): refused in ``check``.
NO_TABLES = ("bottom_ninth_v0",)


def configure(parser: args.Parser) -> None:
    """``dugout tables``' flags."""
    have = ", ".join(e for e in MANAGER_MODULES if e not in NO_TABLES)
    parser.add_argument("--env", type=args.env_id, default="thats_baseball_v0",
                        help=f"the ruleset: {have} (default thats_baseball_v0)")
    parser.add_argument("--teams", nargs=2, default=None, metavar=("AWAY", "HOME"),
                        help="teams (built-in names or JSON files): That's Baseball's default "
                             "sample sample, MLB Showdown's nya2004 bos2004; Harry's Grand Slam "
                             "has no teams")
    parser.add_argument("--innings", type=args.innings, default=9,
                        help=f"scheduled innings, 1 to {args.MAX_INNINGS} (default 9)")


def check(ns: argparse.Namespace) -> None:
    """The ruleset has value tables, and the teams load: the env is built once with them and
    the innings (``ns.record``, ``ns.teams``)."""
    if ns.env not in MANAGER_MODULES:
        raise args.UsageError("--env", f"--env {ns.env}: no managers, so no value tables; rulesets "
                                       f"with them: {', '.join(MANAGER_MODULES)}")
    record = managers(ns.env)
    if ns.env in NO_TABLES:
        try:
            record.value_tables(ns.teams, ns.innings)      # refuses at once, saying why
        except ValueError as error:
            raise args.UsageError("--env", f"--env {ns.env}: {error}") from None
    if record.default_teams is None and ns.teams is not None:
        raise args.UsageError("--teams", f"--teams: {ns.env} has no teams")
    ns.record = record
    ns.teams = list(ns.teams) if ns.teams is not None else record.default_teams
    options: dict = {"innings": ns.innings}
    flag = "--innings"
    if ns.teams is not None:
        options["teams"] = list(ns.teams)
        flag = "--teams"
        # the tables price every team, as the value tables' loaders do (no point cap)
        if "point_cap" in (option_names(ns.env) or ()):
            options["point_cap"] = None
    try:
        check_env_options(ns.env, options, flag)
    except DugoutError as error:
        raise args.UsageError(flag, str(error)) from None


def run(ns: argparse.Namespace) -> ValueTables:
    teams = ns.teams
    tables = ns.record.value_tables(teams, ns.innings)
    for team, side in enumerate(("away", "home")):
        who = f"{teams[team]} ({side})" if teams is not None else side
        print(f"Run expectancy of {ns.env}, {who} batting, beside MLB 2010-2015:")
        print(format_re24(tables.re24(team), MLB_RE24_2010_2015, names=("dugout", "MLB")))
        print()
    print("Home win expectancy at the start of each half, by home lead:")
    leads = range(-3, 4)
    print("inning half " + "".join(f"{d:>7}" for d in leads))
    for inning in range(1, ns.innings + 2):
        for half in (0, 1):
            label = f"{inning}" if inning <= ns.innings else "extra"
            print(f"{label:>6} {'top' if half == 0 else 'bot':>4} " + "".join(
                f"{tables.win_expectancy(inning, half, 0, 0, d):7.3f}" for d in leads))
    return tables


def main(argv: Sequence[str] | None = None) -> ValueTables:
    """``python -m dugout.agents.value_tables``: the same as ``dugout tables``."""
    return args.invoke("dugout tables", configure, check, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
