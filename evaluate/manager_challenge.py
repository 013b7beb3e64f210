"""Managers in the Manager Challenge: mean Manager Points and the result bands over many
campaigns, every manager on the same seeds (common random numbers: campaign ``k`` starts
from seed ``seed + k`` for each).

    python -m dugout.evaluate.manager_challenge --campaigns 10000 --agents random heuristic
    python -m dugout.evaluate.manager_challenge --agents heuristic runs/manager_challenge_v0/model \\
        --env-option level=veteran --workers 2 --json results.json

An agent is ``random``, ``heuristic`` or the folder of a trained checkpoint
(``PolicyAgent.load``). Intervals are 95%: normal for the mean MP (from the sample's standard
deviation), Wilson for each band's share.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..envs.options import parse_env_option
from .stats import wilson_interval

__all__ = ["run", "summarize", "main"]

BANDS = ("fired", "playoffs", "true_victory", "carried_off")


def _agent(name: str):
    from ..agents.manager_challenge import MANAGERS
    if name in MANAGERS:
        return MANAGERS[name]()
    from ..agents.policy import PolicyAgent
    return PolicyAgent.load(name, "manager_challenge_v0")


def _chunk(args: tuple) -> list[dict[str, Any]]:
    name, options, seeds = args
    from ..agents.manager_challenge import play_campaign
    from ..envs.bottom_ninth.challenge import ManagerChallengeEnv
    env = ManagerChallengeEnv(**options)
    agent = _agent(name)
    return [dict(play_campaign(env, agent, s)) for s in seeds]


def run(name: str, campaigns: int, seed: int = 0, options: dict | None = None,
        workers: int = 1, chunk: int = 250) -> list[dict[str, Any]]:
    """``campaigns`` campaigns of manager ``name`` from seeds ``seed``, ``seed + 1``, ...,
    in seed order whatever ``workers`` is."""
    options = dict(options or {})
    seeds = list(range(seed, seed + campaigns))
    parts = [(name, options, seeds[i:i + chunk]) for i in range(0, len(seeds), chunk)]
    if workers <= 1:
        return [r for p in parts for r in _chunk(p)]
    import multiprocessing
    from .tournament import _start_method            # forkserver once torch is loaded
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(_start_method())) as pool:
        return [r for rows in pool.map(_chunk, parts) for r in rows]


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    mp = [r["mp"] for r in rows]
    mean = sum(mp) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in mp) / max(n - 1, 1))
    out = {"campaigns": n, "mp": mean, "mp_low": mean - 1.96 * sd / math.sqrt(n),
           "mp_high": mean + 1.96 * sd / math.sqrt(n), "mp_sd": sd,
           "wins": sum(r["wins"] for r in rows) / n,
           "game_win_rate": sum(r["wins"] for r in rows) / (6 * n), "bands": {}}
    for b in BANDS:
        k = sum(r["band"] == b for r in rows)
        lo, hi = wilson_interval(k, n)
        out["bands"][b] = {"share": k / n, "low": lo, "high": hi}
    return out


def table(results: dict[str, dict[str, Any]]) -> str:
    head = ("| manager | campaigns | mean MP (95% CI) | wins / 6 | "
            + " | ".join(BANDS) + " |")
    lines = [head, "|" + "---|" * (4 + len(BANDS))]
    for name, r in results.items():
        bands = " | ".join(f"{100 * r['bands'][b]['share']:.1f}%" for b in BANDS)
        lines.append(f"| {name} | {r['campaigns']} | {r['mp']:.2f} ({r['mp_low']:.2f}-{r['mp_high']:.2f}) "
                     f"| {r['wins']:.2f} | {bands} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    parser = argparse.ArgumentParser(prog="python -m dugout.evaluate.manager_challenge", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--json", default="", help="write the summaries to this file")
    args = parser.parse_args(argv)
    if args.campaigns < 1:
        parser.error(f"--campaigns must be at least 1, got {args.campaigns}")
    try:
        options = dict(parse_env_option(t) for t in args.env_option)
        from ..envs.bottom_ninth.challenge import ManagerChallengeEnv
        ManagerChallengeEnv(**options)
        for name in args.agents:
            _agent(name)
    except (ValueError, TypeError) as e:
        parser.error(str(e))
    results = {}
    for name in args.agents:
        t = time.perf_counter()
        results[name] = summarize(run(name, args.campaigns, args.seed, options, args.workers))
        results[name]["seconds"] = round(time.perf_counter() - t, 1)
        print(f"{name}: {args.campaigns} campaigns in {results[name]['seconds']} s", file=sys.stderr)
    print(table(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"options": options, "seed": args.seed, "results": results}, f, indent=2)
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
