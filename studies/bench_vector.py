"""How fast :class:`~dugout.vector.BatchedGames` plays: decisions per second on one core.

Random legal play (uniform over each game's legal actions, from a seeded numpy generator);
a finished game is reset at once with a new seed, as a training loop does, so the batch
stays full. The count is decisions taken (one per live game per ``step``); the time covers
``step``, the resets and drawing the actions (and, reported apart, ``step`` and ``reset``
alone), not ``observe``, which is timed apart, per call of the whole batch.

    OMP_NUM_THREADS=1 dugout bench vector            # B = 1,024, 4,096, 16,384
    OMP_NUM_THREADS=1 dugout bench vector --sizes 4096 --seconds 10

(``python -m dugout.studies.bench_vector`` is the same.)

Run it alone: numpy ops on one core are what it measures. ``bench`` returns the numbers
for a script.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from typing import Sequence

import numpy as np

from ..cli import args
from ..vector.thats_baseball import BatchedGames

__all__ = ["bench", "random_actions", "configure", "run", "main"]

#: The largest batch a run may time: about a million games at once.
MAX_SIZE = 2**20
#: The longest a size may be timed: an hour.
MAX_SECONDS = 3600.0


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (0 for a row with none)."""
    return np.argmax(mask * rng.random(mask.shape, dtype=np.float32), axis=1)


def bench(num_games: int, seconds: float | None = 3.0, seed: int = 0, observe: bool = True,
          decisions: int | None = None, min_finished: int = 0, **options) -> dict[str, float]:
    """Play at random (after a warm-up step) on a full batch, finished games restarting at
    once with the next seeds (``seed``, ``seed + 1``, ...), until about ``seconds`` have
    passed or ``decisions`` have been taken (whichever is given and comes first), and at
    least ``min_finished`` games have finished. Returns the counts (``decisions``,
    ``games`` finished, ``seconds``), decisions per second (``decisions_per_s``, the time of
    ``step``, ``reset`` and drawing the actions; ``engine_decisions_per_s``, ``step`` and
    ``reset`` alone), games finished per second, decisions per finished game, batch steps per
    second and, if ``observe``, the seconds one ``observe`` of the whole batch takes."""
    if seconds is None and decisions is None:
        raise ValueError("bench: give seconds, decisions or both")
    rng = np.random.default_rng(seed)
    games = BatchedGames(num_games, **options)
    next_seed = seed + num_games
    games.reset(np.arange(seed, next_seed))
    games.step(random_actions(games.mask, rng))
    if observe:
        games.observe(0)                # builds the observation tables once
    taken = finished = finished_decisions = steps = 0
    engine = 0.0
    clock = time.perf_counter
    start = clock()
    while True:
        actions = random_actions(games.mask, rng)
        t = clock()
        taken += num_games - int(np.count_nonzero(games.over))
        games.step(actions)
        steps += 1
        done = np.flatnonzero(games.over)
        if done.size:
            finished += done.size
            finished_decisions += int(games.decisions[done].sum())
            games.reset(np.arange(next_seed, next_seed + done.size), done)
            next_seed += done.size
        engine += clock() - t
        elapsed = clock() - start
        if finished >= min_finished and ((seconds is not None and elapsed >= seconds)
                                         or (decisions is not None and taken >= decisions)):
            break
    decisions = taken
    out = {"num_games": num_games, "decisions": decisions, "games": finished, "seconds": elapsed,
           "decisions_per_s": decisions / elapsed,
           "engine_decisions_per_s": decisions / engine, "games_per_s": finished / elapsed,
           "decisions_per_game": finished_decisions / max(finished, 1),
           "steps_per_s": steps / elapsed}
    if observe:
        n = 20
        t = clock()
        for i in range(n):
            games.observe(i & 1)
        out["observe_s"] = (clock() - t) / n
    return out


def configure(parser: args.Parser) -> None:
    """``dugout bench vector``'s flags."""
    parser.add_argument("--sizes", type=args.count(1, MAX_SIZE, "games in a batch"), nargs="+",
                        default=[1024, 4096, 16384], metavar="B",
                        help=f"batch sizes to time, each from 1 to {MAX_SIZE:,} games "
                             f"(default 1024 4096 16384)")
    parser.add_argument("--seconds", type=args.real(0, MAX_SECONDS, lo_open=True,
                                                    what="seconds a size"),
                        default=5.0, metavar="S",
                        help=f"seconds to time each size, more than 0 and at most "
                             f"{MAX_SECONDS:g} (default 5)")


def run(ns: argparse.Namespace) -> list[dict[str, float]]:
    """Time each size; print a line for each and return the figures."""
    print(f"numpy {np.__version__}, Python {platform.python_version()}, "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")
    results = []
    for size in ns.sizes:
        r = bench(size, ns.seconds)
        results.append(r)
        print(f"B={size:>6,}: {r['decisions_per_s']:>10,.0f} decisions/s "
              f"(engine alone {r['engine_decisions_per_s']:>10,.0f})  "
              f"{r['games_per_s']:>7,.0f} games/s  {r['decisions_per_game']:.1f} decisions/game  "
              f"{r['steps_per_s']:>6,.1f} steps/s  observe {r['observe_s'] * 1e3:.2f} ms")
    return results


def main(argv: Sequence[str] | None = None) -> list[dict[str, float]]:
    """``python -m dugout.studies.bench_vector``: the same as ``dugout bench vector``."""
    return args.invoke("dugout bench vector", configure, None, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
