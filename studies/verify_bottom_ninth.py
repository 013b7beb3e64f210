"""``dugout verify bottom_ninth``: check the Bottom of the 9th solver against simulation,
games from several stare-down states, the EquilibriumAgent managing both sides through the
engine itself.

    dugout verify bottom_ninth --games 100000 --workers 4
    python -m dugout.studies.verify_bottom_ninth --games 100000 --workers 4   (the same)

For each state it prints the solved value (the batting side's win probability), the
simulated rate with its 99.9% normal interval (rate +- 3.29 sd / sqrt(games)), and whether
the value lies inside. Game ``k`` uses seed ``k`` for the dice and both managers, so a run
is the same for any number of workers. ``--games`` is 100 to a billion a state,
``--workers`` 1 to 1024.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Sequence

from ..agents.solvers.bottom_ninth.agent import EquilibriumAgent
from ..agents.solvers.bottom_ninth.model import Duel
from ..agents.solvers.bottom_ninth.situation import play_out, start_state
from ..agents.solvers.bottom_ninth.solution import cached_solution
from ..agents.solvers.flags import add_games
from ..agents.solvers.report import simulated_row
from ..cli import args
from ..evaluate.backends import make_backend

__all__ = ["verify", "STATES", "main", "configure", "run"]

#: (label, stare-down keywords of :func:`start_state`)
STATES = [
    ("first pitch (0-0, nobody on, no outs)", dict()),
    ("full count, bases loaded, 1 out", dict(outs=1, bases=7, balls=3, strikes=2, slot=3)),
    ("tired starter (rows 2 and 2), runner on 2nd, 2 outs", dict(outs=2, bases=2, slot=4,
                                                                fatigue=(2, 2))),
    ("the reliever in (rows 1 and 2), 1-1, runner on 1st, 1 out", dict(
        outs=1, bases=1, balls=1, strikes=1, slot=1, fatigue=(1, 2), relieved=True)),
]


def _chunk(options: dict[str, Any], where: dict[str, Any], seeds: range) -> int:
    """The batting side's wins in the games of ``seeds`` from ``where`` (a backend's task)."""
    solution = cached_solution(Duel.from_options(**options))
    wins = 0
    for seed in seeds:
        managers = (EquilibriumAgent(solution, seed=2 * seed), EquilibriumAgent(solution, seed=2 * seed + 1))
        wins += play_out(start_state(solution.duel, seed, **where), managers)
    return wins


def verify(games: int = 100_000, workers: int = 1, options: dict[str, Any] | None = None,
           states=STATES, out=sys.stdout) -> list[dict]:
    """The solved value of each state beside the rate of ``games`` simulated games from it,
    played by ``workers`` processes, in the duel of ``bottom_ninth_v0`` with ``options``."""
    for name, value in (("games", games), ("workers", workers)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    options = dict(options or {})
    solution = cached_solution(Duel.from_options(**options))     # solved (or loaded) once here
    rows = []
    with make_backend("process", workers) as backend:              # dugout.evaluate.backends
        for label, where in states:
            t0 = time.perf_counter()
            value = solution.value_at(**where)
            step = max(1, games // (8 * workers))
            chunks = [(options, where, range(s, min(s + step, games)))
                      for s in range(0, games, step)]
            wins = sum(backend.map(_chunk, chunks))
            rows.append(simulated_row(label, value, wins, games, time.perf_counter() - t0,
                                      width=58, out=out))
    return rows


def configure(parser: args.Parser) -> None:
    """``dugout verify bottom_ninth``'s flags."""
    add_games(parser)
    parser.add_argument("--workers", type=args.workers, default=1,
                        help=f"worker processes, 1 to {args.MAX_WORKERS} (default 1)")


def run(ns: argparse.Namespace) -> list[dict]:
    return verify(ns.games, ns.workers)


def main(argv: Sequence[str] | None = None) -> list[dict]:
    """``python -m dugout.studies.verify_bottom_ninth``: the same as ``dugout verify
    bottom_ninth``."""
    return args.invoke("dugout verify bottom_ninth", configure, None, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
