"""The main job (first version): a batch of That's Baseball games between two managers.

    python -m dugout.evaluate.main --games 200 --away random --home heuristic

It prints the line score and box score of the first game, then a summary of the batch:
each side's wins with a 95% Wilson interval, runs per game, extra-inning games and
decisions per game. ``--json PATH`` also writes the summary as JSON. Later issues grow
this into train-then-tournament.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from typing import Any

from ..envs import thats_baseball_v0
from ..agents import agent_names, make_agent
from .play import play_batch

__all__ = ["main", "summarize", "wilson_interval"]


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (sound near 0 and 1, unlike the normal one)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(results, away: str, home: str) -> dict[str, Any]:
    n = len(results)
    home_wins = sum(r.winner == "home" for r in results)
    away_wins = sum(r.winner == "away" for r in results)
    low, high = wilson_interval(home_wins, home_wins + away_wins)
    runs = [r.score[0] + r.score[1] for r in results]
    return {
        "games": n,
        "away": {"agent": away, "wins": away_wins,
                 "runs_per_game": statistics.fmean(r.score[0] for r in results) if n else 0.0},
        "home": {"agent": home, "wins": home_wins,
                 "runs_per_game": statistics.fmean(r.score[1] for r in results) if n else 0.0},
        "truncated": n - home_wins - away_wins,
        "home_win_rate": home_wins / max(1, home_wins + away_wins),
        "home_win_rate_95ci": [low, high],
        "total_runs_per_game": statistics.fmean(runs) if n else 0.0,
        "extra_inning_games": sum(r.innings > 9 for r in results),
        "decisions_per_game": statistics.fmean(sum(r.decisions.values()) for r in results) if n else 0.0,
    }


def _print_summary(s: dict[str, Any], seconds: float) -> None:
    n = s["games"]
    print(f"\n{n} games in {seconds:.1f} s")
    print(f"{'side':<6}{'manager':<12}{'wins':>6}{'win %':>8}{'runs/game':>11}")
    for side in ("away", "home"):
        d = s[side]
        print(f"{side:<6}{d['agent']:<12}{d['wins']:>6}{100 * d['wins'] / max(1, n):>7.1f}%"
              f"{d['runs_per_game']:>11.2f}")
    lo, hi = s["home_win_rate_95ci"]
    print(f"home win rate {100 * s['home_win_rate']:.1f}% (95% Wilson interval "
          f"{100 * lo:.1f}%-{100 * hi:.1f}%)")
    print(f"runs per game {s['total_runs_per_game']:.2f}, extra-inning games "
          f"{s['extra_inning_games']}, decisions per game {s['decisions_per_game']:.1f}")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m dugout.evaluate.main", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    names = agent_names("thats_baseball_v0")
    parser.add_argument("--away", default="random", choices=names, metavar="AGENT",
                        help=f"away manager (default random): {', '.join(names)}")
    parser.add_argument("--home", default="heuristic", choices=names, metavar="AGENT",
                        help="home manager (default heuristic)")
    parser.add_argument("--teams", nargs=2, default=["sample", "reds"], metavar=("AWAY", "HOME"),
                        help="built-in team names or JSON files (default: sample reds)")
    parser.add_argument("--json", metavar="PATH", help="also write the summary as JSON")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    env = thats_baseball_v0.env(teams=tuple(args.teams))
    agents = {"away": make_agent("thats_baseball_v0", args.away),
              "home": make_agent("thats_baseball_v0", args.home)}
    seeds = range(args.seed, args.seed + args.games)
    start = time.perf_counter()
    results = play_batch(env, agents, seeds[:1])
    scorecard = env.unwrapped.scorecard()          # the first game, shown below
    results += play_batch(env, agents, seeds[1:])
    seconds = time.perf_counter() - start

    print(f"Game 1 (seed {args.seed}): {args.away} ({args.teams[0]}) at {args.home} "
          f"({args.teams[1]})\n")
    print(scorecard)

    summary = summarize(results, args.away, args.home)
    _print_summary(summary, seconds)
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=2)
        print(f"summary written to {args.json}")
    return summary


if __name__ == "__main__":
    main(sys.argv[1:])
