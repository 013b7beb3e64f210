"""``python -m dugout.agents.value_tables``: print a ruleset's RE24 table beside MLB's, and
win expectancy at a few moments.

    python -m dugout.agents.value_tables --env thats_baseball_v0 --teams sample sample
    python -m dugout.agents.value_tables --env grand_slam_v0
    python -m dugout.agents.value_tables --env showdown_v0 --teams nya2004 bos2004
"""

from __future__ import annotations

import argparse
import sys

from ..registry import MANAGER_MODULES, managers
from . import MLB_RE24_2010_2015, ValueTables, format_re24


def main(argv: list[str] | None = None) -> ValueTables:
    parser = argparse.ArgumentParser(prog="python -m dugout.agents.value_tables",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="thats_baseball_v0", choices=sorted(MANAGER_MODULES))
    parser.add_argument("--teams", nargs=2, default=None, metavar=("AWAY", "HOME"),
                        help="teams (built-in names or JSON files): That's Baseball's default "
                             "sample sample, MLB Showdown's nya2004 bos2004; Harry's Grand Slam "
                             "has no teams")
    parser.add_argument("--innings", type=int, default=9)
    args = parser.parse_args(argv)
    record = managers(args.env)
    teams = args.teams or record.default_teams
    if record.default_teams is None and args.teams is not None:
        parser.error(f"{args.env} has no teams")
    tables = record.value_tables(teams, args.innings)
    for team, side in enumerate(("away", "home")):
        who = f"{teams[team]} ({side})" if teams is not None else side
        print(f"Run expectancy of {args.env}, {who} batting, beside MLB 2010-2015:")
        print(format_re24(tables.re24(team), MLB_RE24_2010_2015, names=("dugout", "MLB")))
        print()
    print("Home win expectancy at the start of each half, by home lead:")
    leads = range(-3, 4)
    print("inning half " + "".join(f"{d:>7}" for d in leads))
    for inning in range(1, args.innings + 2):
        for half in (0, 1):
            label = f"{inning}" if inning <= args.innings else "extra"
            print(f"{label:>6} {'top' if half == 0 else 'bot':>4} " + "".join(
                f"{tables.win_expectancy(inning, half, 0, 0, d):7.3f}" for d in leads))
    return tables


if __name__ == "__main__":
    main(sys.argv[1:])
