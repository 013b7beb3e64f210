"""Head-to-head matchups between managers: seat-swapped pairs of games, in parallel.

The light-weight head-to-head that training uses to evaluate a policy in memory (it
accepts agent objects as well as names); :mod:`dugout.evaluate.tournament` is the full
harness (round robins, ratings, SPRT, reports) built on the same pairing.

    python -m dugout.evaluate.matchups --env thats_baseball_v0 \\
        --agents heuristic random never-steal always-steal --games 4000 --workers 2

Every seed is played twice, with the seats swapped (A away and B home, then B away and
A home). The dice are keyed by the situation (``dugout.envs.core.dice``), so both games
of a pair meet the same dice wherever the managers' choices leave the game in the same
place: luck that favours a seat cancels inside the pair. The pair is therefore the unit
of analysis: A's score in a pair is 0, 1/2 or 1 (its wins / 2, a truncated game
counting 1/2), and A's win rate is the mean pair score with a 95% normal interval
``mean +- 1.96 sd / sqrt(pairs)`` (pairs are independent; with 2,000 pairs the
normal approximation is sound). A is *significantly better* when the interval lies
above 1/2.

Each game's seed fixes the dice and every manager's own seed, so the results are the
same for any number of workers. ``--mode first`` (default) plays the first agent
against each of the others; ``--mode round-robin`` plays every pair of agents.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any, Sequence

from . import stats

__all__ = ["MatchupResult", "play_matchup", "pair_scores", "main"]


@dataclass
class MatchupResult:
    env: str
    a: str
    b: str
    pairs: int
    games: int
    a_wins: int
    b_wins: int
    draws: int
    a_rate: float            # mean pair score of A
    a_rate_low: float        # 95% interval
    a_rate_high: float
    run_diff: float          # A's mean run differential per game
    seconds: float

    @property
    def verdict(self) -> str:
        if self.a_wins == self.b_wins and self.draws == 0 and self.a_rate_low == self.a_rate_high:
            return "identical play"           # every pair split: the two never chose differently
        if self.a_rate_low > 0.5:
            return "A better"
        if self.a_rate_high < 0.5:
            return "B better"
        return "no significant difference"


def _make_env(env_id: str, env_kwargs: dict[str, Any]):
    import importlib
    module = importlib.import_module(f"dugout.envs.{env_id}")
    return module.env(**env_kwargs)


def pair_scores(env_id: str, a, b, seeds: Sequence[int],
                env_kwargs: dict[str, Any] | None = None) -> list[tuple[float, int, int, int]]:
    """For each seed, (A's pair score, A's wins, B's wins, A's run differential over both games).

    ``a`` and ``b`` are agent names (:func:`dugout.agents.make_agent`) or agents.
    """
    from ..agents import make_agent
    from ..agents.play import play_game
    env = _make_env(env_id, env_kwargs or {})
    agent_a = make_agent(env_id, a) if isinstance(a, str) else a
    agent_b = make_agent(env_id, b) if isinstance(b, str) else b
    out = []
    for seed in seeds:
        wins_a = wins_b = diff = 0
        for a_seat in ("away", "home"):
            b_seat = "home" if a_seat == "away" else "away"
            result = play_game(env, {a_seat: agent_a, b_seat: agent_b}, seed)
            if result.winner == a_seat:
                wins_a += 1
            elif result.winner == b_seat:
                wins_b += 1
            i = 0 if a_seat == "away" else 1
            diff += result.score[i] - result.score[1 - i]
        out.append(((wins_a + (2 - wins_a - wins_b) / 2) / 2, wins_a, wins_b, diff))
    return out


def _name(agent) -> str:
    return agent if isinstance(agent, str) else getattr(agent, "name", type(agent).__name__)


def play_matchup(env_id: str, a, b, pairs: int, seed: int = 0, workers: int = 1,
                 env_kwargs: dict[str, Any] | None = None) -> MatchupResult:
    """``pairs`` seat-swapped pairs of games between agents ``a`` and ``b`` (seeds seed, seed+1, ...).

    ``a`` and ``b`` are agent names or agents (agents only with ``workers=1``).
    """
    if pairs < 2:
        raise ValueError(f"a matchup needs at least 2 pairs of games, got {pairs}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if workers > 1 and not (isinstance(a, str) and isinstance(b, str)):
        raise ValueError("agents given as objects play with workers=1; give names to use workers")
    start = time.perf_counter()
    seeds = list(range(seed, seed + pairs))
    if workers == 1:
        rows = pair_scores(env_id, a, b, seeds, env_kwargs)
    else:
        chunks = [seeds[i::workers * 4] for i in range(workers * 4)]
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(pair_scores, [env_id] * len(chunks), [a] * len(chunks),
                                  [b] * len(chunks), chunks, [env_kwargs] * len(chunks)))
        by_seed = {}
        for chunk, part in zip(chunks, parts):
            by_seed.update(zip(chunk, part))
        rows = [by_seed[s] for s in seeds]
    scores = [r[0] for r in rows]
    mean, low, high = stats.mean_interval(scores)
    a_wins, b_wins = sum(r[1] for r in rows), sum(r[2] for r in rows)
    return MatchupResult(env=env_id, a=_name(a), b=_name(b), pairs=pairs, games=2 * pairs, a_wins=a_wins,
                         b_wins=b_wins, draws=2 * pairs - a_wins - b_wins, a_rate=mean,
                         a_rate_low=max(0.0, low), a_rate_high=min(1.0, high),
                         run_diff=sum(r[3] for r in rows) / (2 * pairs),
                         seconds=time.perf_counter() - start)


def format_table(results: Sequence[MatchupResult]) -> str:
    lines = ["| A | B | games | A win rate | 95% interval | A run diff/game | verdict |",
             "|---|---|---:|---:|---|---:|---|"]
    for r in results:
        lines.append(f"| {r.a} | {r.b} | {r.games} | {100 * r.a_rate:.1f}% | "
                     f"{100 * r.a_rate_low:.1f}-{100 * r.a_rate_high:.1f}% | {r.run_diff:+.2f} | "
                     f"{r.verdict} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[MatchupResult]:
    from ..agents import agent_names
    parser = argparse.ArgumentParser(prog="python -m dugout.evaluate.matchups", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="thats_baseball_v0", help="environment id")
    parser.add_argument("--agents", nargs="+", default=None,
                        help="agent names (default: every agent of the env, heuristic first)")
    parser.add_argument("--games", type=int, default=4000,
                        help="games per matchup, an even number: half as many seat-swapped pairs")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first pair")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--mode", choices=("first", "round-robin"), default="first")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    known = agent_names(args.env)
    agents = args.agents or ["heuristic"] + [n for n in known if n != "heuristic"]
    for name in agents:
        if name not in known and not name.startswith("ppo:"):
            parser.error(f"unknown agent {name!r} for {args.env}; known: {', '.join(known)}")
    if len(agents) < 2:
        parser.error("--agents needs at least two agents")
    if args.games < 4 or args.games % 2:
        parser.error("--games must be an even number, at least 4")
    if args.mode == "first":
        matchups = [(agents[0], b) for b in agents[1:]]
    else:
        matchups = [(a, b) for i, a in enumerate(agents) for b in agents[i + 1:]]
    results = []
    for a, b in matchups:
        r = play_matchup(args.env, a, b, args.games // 2, args.seed, args.workers)
        results.append(r)
        print(f"{a} vs {b}: {100 * r.a_rate:.1f}% ({100 * r.a_rate_low:.1f}-{100 * r.a_rate_high:.1f}%) "
              f"in {r.seconds:.1f} s", file=sys.stderr, flush=True)
    print(format_table(results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([asdict(r) for r in results], f, indent=2)
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
