"""The README's table of rulesets: each env id's observation size, action count and
decisions per game, measured over random games with the env's default options.

    .venv/bin/python docs/scripts/env_sizes.py            # 200 games (campaigns) per env id
    .venv/bin/python docs/scripts/env_sizes.py --games 20

A random manager picks uniformly among the legal actions (the action mask); game ``i`` is
``reset(seed=i)``. A decision is a step with an action (not the ``step(None)`` that retires
a manager once the game is over). For the Manager Challenge, a single-agent env, a "game"
is its episode: a campaign of six games. Prints one markdown table row per env id.
"""

from __future__ import annotations

import random
import statistics
import time

import numpy as np

from dugout.agents.policy import env_sizes
from dugout.cli import args
from dugout.envs import env_ids, make
from dugout.studies.bench import pick, play_aec_game


def single_agent_game(env, rng: random.Random, seed: int) -> int:
    """One episode of a single-agent env (the Manager Challenge's campaign), as
    :func:`dugout.studies.bench.play_aec_game` plays an AEC game; its decisions."""
    _obs, info = env.reset(seed=seed)
    decisions = 0
    while True:
        _obs, _reward, terminated, truncated, info = env.step(
            pick(rng, np.flatnonzero(info["action_mask"])))
        decisions += 1
        if terminated or truncated:
            return decisions


def measure(env_id: str, games: int) -> dict:
    env = make(env_id)
    rng = random.Random(0)
    obs_size, actions = env_sizes(env)
    play = play_aec_game if env_id in env_ids("aec") else single_agent_game
    start = time.perf_counter()
    counts = [play(env, rng, seed) for seed in range(games)]
    return {"env_id": env_id, "obs": obs_size, "actions": actions,
            "median": statistics.median(counts), "mean": statistics.fmean(counts),
            "low": min(counts), "high": max(counts),
            "seconds": time.perf_counter() - start}


def main() -> None:
    parser = args.Parser(prog="env_sizes.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=args.count(1, 10**6, "games per env id"), default=200,
                        help="games per env id, 1 to 1,000,000 (default 200)")
    ns = parser.parse_args()
    print("| env id | observation | actions | decisions per game: median (mean; range) |")
    print("|---|---:|---:|---|")
    for env_id in env_ids("all"):
        r = measure(env_id, ns.games)
        print(f"| `{r['env_id']}` | {r['obs']} | {r['actions']} | {r['median']:g} "
              f"({r['mean']:.0f}; {r['low']}-{r['high']}) |", flush=True)


if __name__ == "__main__":
    main()
