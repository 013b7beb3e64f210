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

import argparse
import statistics
import time

import numpy as np

from dugout.envs import env_ids, make


def aec_game(env, rng: np.random.Generator, seed: int) -> int:
    env.reset(seed=seed)
    decisions = 0
    for agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    return decisions


def single_agent_game(env, rng: np.random.Generator, seed: int) -> int:
    _obs, info = env.reset(seed=seed)
    decisions = 0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, _reward, terminated, truncated, info = env.step(action)
        decisions += 1
        if terminated or truncated:
            return decisions


def measure(env_id: str, games: int) -> dict:
    env = make(env_id)
    rng = np.random.default_rng(0)
    if env_id in env_ids("aec"):
        obs_size = env.observation_space("away")["observation"].shape[0]
        actions = env.action_space("away").n
        play = aec_game
    else:
        obs_size = env.observation_space.shape[0]
        actions = env.action_space.n
        play = single_agent_game
    start = time.perf_counter()
    counts = [play(env, rng, seed) for seed in range(games)]
    return {"env_id": env_id, "obs": obs_size, "actions": actions,
            "median": statistics.median(counts), "mean": statistics.fmean(counts),
            "low": min(counts), "high": max(counts),
            "seconds": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per env id (default 200)")
    ns = parser.parse_args()
    print("| env id | observation | actions | decisions per game: median (mean; range) |")
    print("|---|---:|---:|---|")
    for env_id in env_ids("all"):
        r = measure(env_id, ns.games)
        print(f"| `{r['env_id']}` | {r['obs']} | {r['actions']} | {r['median']:g} "
              f"({r['mean']:.0f}; {r['low']}-{r['high']}) |", flush=True)


if __name__ == "__main__":
    main()
