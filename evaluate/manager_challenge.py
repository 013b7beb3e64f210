"""Managers in the Manager Challenge: mean Manager Points and the result bands over many
campaigns, every manager on the same seeds (common random numbers: campaign ``k`` starts
from seed ``seed + k`` for each).

    dugout challenge --campaigns 10000 --agents random heuristic
    dugout challenge --agents heuristic ppo:runs/manager_challenge_v0/model \\
        --env-option level=veteran --workers 2 --json results.json

(``python -m dugout.evaluate.manager_challenge`` is the same.) An agent is ``random``,
``heuristic`` or a trained manager's checkpoint folder, ``ppo:PATH`` (a bare folder that
exists is read as one too), which must have been trained on the Manager Challenge with
observations and actions of the env so built (``PolicyAgent.load``). ``--env-option
KEY=VALUE`` (repeat it) sets one of the env's options (``level=veteran``, ``reward=win``);
the env is built once with them before any campaign, and ``render_mode``,
``illegal_action`` and ``dice`` are the harness's own and refused. Intervals are 95%:
normal for the mean MP (from the sample's standard deviation), Wilson for each band's
share.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Sequence

from ..cli import args
from ..envs.core.errors import DugoutError
from .stats import wilson_interval

__all__ = ["play_campaigns", "summarize", "table", "configure", "check", "run", "main"]

ENV_ID = "manager_challenge_v0"

BANDS = ("fired", "playoffs", "true_victory", "carried_off")


def _agent(name: str):
    """The manager ``name`` names: a built-in one, or a checkpoint folder (``ppo:PATH`` or
    the bare folder)."""
    from ..agents.manager_challenge import MANAGERS
    if name in MANAGERS:
        return MANAGERS[name]()
    from ..agents.policy import PolicyAgent
    return PolicyAgent.load(name.removeprefix("ppo:"), ENV_ID)


def _chunk(args: tuple) -> list[dict[str, Any]]:
    name, options, seeds = args
    from ..agents.manager_challenge import play_campaign
    from ..envs.bottom_ninth.challenge import ManagerChallengeEnv
    env = ManagerChallengeEnv(**options)
    agent = _agent(name)
    return [dict(play_campaign(env, agent, s)) for s in seeds]


def play_campaigns(name: str, campaigns: int, seed: int = 0, options: dict | None = None,
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


def configure(parser: args.Parser) -> None:
    """``dugout challenge``'s flags."""
    parser.add_argument("--agents", nargs="+", type=args.agent_ref, default=["random", "heuristic"],
                        help="managers: random, heuristic or ppo:CHECKPOINT_FOLDER (default "
                             "random heuristic)")
    parser.add_argument("--campaigns", type=args.count(1, args.MAX_GAMES, "campaigns"),
                        default=1000, help=f"campaigns a manager, from 1 to {args.MAX_GAMES:,} "
                                           f"(default 1000)")
    parser.add_argument("--seed", type=args.seed, default=0,
                        help="the first campaign's seed; campaign k plays seed + k, and the last "
                             f"must be at most {args.MAX_SEED} (default 0)")
    parser.add_argument("--workers", type=args.workers, default=1,
                        help=f"worker processes, from 1 to {args.MAX_WORKERS} (default 1)")
    parser.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE",
                        type=args.env_option,
                        help="an env option, repeatable (level=veteran, reward=win, ...); VALUE is "
                             "read as JSON when it parses, else as a plain string")
    parser.add_argument("--json", metavar="FILE", type=args.out_file,
                        help="write the summaries to this file")


def check(ns: argparse.Namespace) -> None:
    """The seeds, the env built once with ``--env-option``, and each manager (known, or a
    checkpoint that loads and fits the env), before any campaign. Sets ``ns.options`` (the
    env's options) and ``ns.agents`` (the managers' names as given)."""
    last = ns.seed + ns.campaigns - 1
    if last > args.MAX_SEED:
        raise args.UsageError("--seed", f"campaigns play seeds {ns.seed} to {last}; the last must "
                                        f"be at most {args.MAX_SEED}: lower --seed or --campaigns")
    options = args.env_options(ns.env_option)
    from ..envs.bottom_ninth.challenge import ManagerChallengeEnv
    try:
        env = ManagerChallengeEnv(**options)
    except (DugoutError, ValueError, TypeError) as error:
        raise args.UsageError("--env-option", str(error)) from None
    ns.options = options
    ns.agents = [_checked_agent(ref, env, options) for ref in ns.agents]
    twice = sorted({a for a in ns.agents if ns.agents.count(a) > 1})
    if twice:
        raise args.UsageError("--agents", f"{', '.join(twice)} given twice; each manager plays once")


def _checked_agent(ref: Any, env: Any, options: dict[str, Any]) -> str:
    """``ref``'s name, once the manager it names is known or its checkpoint loads and takes
    ``env``'s observations and actions; a ``UsageError`` naming ``--agents`` if not."""
    from ..agents.manager_challenge import MANAGERS
    from ..agents.policy import CheckpointError, check_fits
    from ..agents.ref import AgentRef
    ref = AgentRef.parse(ref)
    name = str(ref)
    if not ref.is_checkpoint:
        if ref.name in MANAGERS:
            return name
        if not Path(ref.name).is_dir():
            raise args.UsageError("--agents", f"unknown manager {name!r} for {ENV_ID}; known: "
                                              f"{', '.join(sorted(MANAGERS))}, or ppo:PATH for a "
                                              f"trained manager's checkpoint folder")
    try:
        agent = _agent(name)
    except (DugoutError, ValueError, OSError) as error:
        raise args.UsageError("--agents", f"{name}: {error}") from None
    try:
        check_fits(agent, name, ENV_ID, env, options)
    except CheckpointError as error:
        raise args.UsageError("--agents", str(error)) from None
    return name


def run(ns: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Every manager's campaigns; print the table (and write ``--json``); the summaries."""
    results = {}
    for name in ns.agents:
        t = time.perf_counter()
        results[name] = summarize(play_campaigns(name, ns.campaigns, ns.seed, ns.options,
                                                 ns.workers))
        results[name]["seconds"] = round(time.perf_counter() - t, 1)
        print(f"{name}: {ns.campaigns} campaigns in {results[name]['seconds']} s", file=sys.stderr)
    print(table(results))
    if ns.json:
        Path(ns.json).parent.mkdir(parents=True, exist_ok=True)
        with open(ns.json, "w", encoding="utf-8") as f:
            json.dump({"options": ns.options, "seed": ns.seed, "results": results}, f, indent=2)
    return results


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """``python -m dugout.evaluate.manager_challenge``: the same as ``dugout challenge``."""
    return args.invoke("dugout challenge", configure, check, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
