"""``dugout verify thats_baseball``: check the That's Baseball solver against simulation,
100,000 games from each of several states, the SolverAgent managing both teams through
the engine itself.

    dugout verify thats_baseball --games 100000
    python -m dugout.studies.verify_thats_baseball --games 100000   (the same)

For each state it prints the solved home win probability, the simulated rate with its
99.9% normal interval (rate +- 3.29 sd / sqrt(games)), and whether the value lies inside.
``--games`` is 100 to a billion a state; ``--innings`` 1 to 9; ``--away``/``--home`` are
team names or JSON files, checked before the solve.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Sequence

from ..agents.solvers.flags import add_games
from ..agents.solvers.report import simulated_row
from ..agents.solvers.thats_baseball.agent import SolverAgent
from ..agents.solvers.thats_baseball.chart import check_innings
from ..agents.solvers.thats_baseball.situation import play_out, situation
from ..agents.solvers.thats_baseball.solution import DEFAULT_BOUND, cached_solution
from ..cli import args
from ..envs.core.errors import DugoutError
from ..envs.thats_baseball import load_team

__all__ = ["verify", "STATES", "main", "configure", "check", "run"]

#: (label, situation keywords) at the start of a plate appearance.
STATES = [
    ("first pitch", dict(inning=1, half=0, outs=0, bases=0, score=(0, 0), order=(0, 0))),
    ("top 9th, 1 out, runner on 1st, away down 3-4", dict(inning=9, half=0, outs=1, bases=1,
                                                         score=(3, 4), order=(4, 2))),
    ("bottom 9th, 0 out, empty, home down 4-5", dict(inning=9, half=1, outs=0, bases=0,
                                                     score=(5, 4), order=(2, 6))),
    ("bottom 7th, 2 out, 2nd and 3rd, tied 2-2", dict(inning=7, half=1, outs=2, bases=6,
                                                      score=(2, 2), order=(7, 0))),
    ("top 11th, 0 out, empty, tied 3-3", dict(inning=11, half=0, outs=0, bases=0, score=(3, 3),
                                              order=(0, 5))),
]


def verify(away: str = "sample", home: str = "reds", games: int = 100_000, innings: int = 9,
           bound: int = DEFAULT_BOUND, states=STATES, out=sys.stdout) -> list[dict]:
    """The solved value of each state beside the rate of ``games`` simulated games from it
    (``innings`` 1 to 9, MAX_INNINGS; ``games`` at least 1)."""
    check_innings(innings)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    lineups = (load_team(away).aas, load_team(home).aas)
    solution = cached_solution(lineups, innings, bound)
    agent = SolverAgent(solution)
    rows = []
    for label, where in states:
        t0 = time.perf_counter()
        value = solution.value_at(where["inning"], where["half"], where["outs"], where["bases"],
                                  where["score"], where["order"])
        wins = sum(play_out(situation(lineups, seed, innings=innings, **where), (agent, agent)) == 1
                   for seed in range(games))
        rows.append(simulated_row(label, value, wins, games, time.perf_counter() - t0,
                                  width=48, out=out))
    return rows


def configure(parser: args.Parser) -> None:
    """``dugout verify thats_baseball``'s flags."""
    parser.add_argument("--away", default="sample",
                        help="away team: a built-in name or a JSON file (default sample)")
    parser.add_argument("--home", default="reds",
                        help="home team: a built-in name or a JSON file (default reds)")
    add_games(parser)
    parser.add_argument("--innings", type=args.innings, default=9,
                        help=f"scheduled innings, 1 to {args.MAX_INNINGS} (default 9)")


def check(ns: argparse.Namespace) -> None:
    """The teams load (each a name or a JSON file), before the solve."""
    for flag, team in (("--away", ns.away), ("--home", ns.home)):
        try:
            load_team(team)
        except (ValueError, OSError, DugoutError) as error:
            raise args.UsageError(flag, f"{flag} {team}: {error}") from None


def run(ns: argparse.Namespace) -> list[dict]:
    return verify(ns.away, ns.home, ns.games, ns.innings)


def main(argv: Sequence[str] | None = None) -> list[dict]:
    """``python -m dugout.studies.verify_thats_baseball``: the same as ``dugout verify
    thats_baseball``."""
    return args.invoke("dugout verify thats_baseball", configure, check, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
