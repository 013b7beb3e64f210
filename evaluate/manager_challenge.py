"""Managers in the Manager Challenge: mean Manager Points and the result bands over many
campaigns, every manager on the same seeds (common random numbers: campaign ``k`` starts
from seed ``seed + k`` for each).

    dugout challenge --campaigns 10000 --agents random heuristic
    dugout challenge --agents heuristic ppo:runs/manager_challenge_v0/model \\
        --env-option level=veteran --workers 2 --json results.json

(``python -m dugout.evaluate.manager_challenge`` is the same.) An agent is ``random``,
``heuristic``, the search manager ``search`` or ``search:key=value,...``
(:mod:`dugout.agents.challenge_search`; each campaign hands it the env's public set-up) or
a trained manager's checkpoint folder, ``ppo:PATH`` (a bare folder that exists is read as
one too), which must have been trained on the Manager Challenge with
observations and actions of the env so built (``PolicyAgent.load``). ``--env-option
KEY=VALUE`` (repeat it) sets one of the env's options (``level=veteran``, ``reward=win``);
the env is built once with them before any campaign, and ``render_mode``,
``illegal_action`` and ``dice`` are the harness's own and refused. Intervals are 95%:
normal for the mean MP (from the sample's standard deviation), Wilson for each band's
share; each manager after the first is also compared with the first on the same campaigns,
its Manager Points a campaign minus the first's with a normal 95% interval over campaigns
(paired, so much narrower than the two means' intervals).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any, Sequence

from ..agents.ref import AgentRef
from ..agents.registry import agent_names, check_agents, make_agent
from ..cli import args
from ..envs import make
from ..envs.core.errors import DugoutError
from .backends import Backend, make_backend
from .stats import mean_interval, wilson_interval

__all__ = ["play_campaigns", "play_chunk", "agent_ref", "summarize", "paired_difference",
           "paired_verdict", "table", "differences", "configure", "check", "run", "main"]

ENV_ID = "manager_challenge_v0"

BANDS = ("fired", "playoffs", "true_victory", "carried_off")


def agent_ref(name: str | AgentRef) -> AgentRef:
    """The manager ``name`` names, as the registry takes it: a registered name
    (``random``, ``heuristic``), a trained manager's checkpoint folder ``ppo:PATH``, or a
    bare name that is no manager's but an existing folder, read as ``ppo:`` that folder."""
    ref = AgentRef.parse(name)
    if (not ref.is_checkpoint and ref.name not in agent_names(ENV_ID)
            and Path(ref.name).is_dir()):
        return AgentRef("ppo", arg=ref.name)
    return ref


def play_chunk(name: str, options: dict[str, Any], seeds: Sequence[int]) -> list[dict[str, Any]]:
    """The campaigns of manager ``name`` (made by the registry) from each of ``seeds``, on
    one env built with ``options``: what one worker plays (``play_campaign`` hands each
    campaign's public set-up to a manager that asks for it, the search)."""
    from ..agents.manager_challenge import play_campaign
    env = make(ENV_ID, **options)
    agent = make_agent(ENV_ID, agent_ref(name))
    return [dict(play_campaign(env, agent, s)) for s in seeds]


def play_campaigns(name: str, campaigns: int, seed: int = 0, options: dict | None = None,
                   workers: int = 1, chunk: int | None = None,
                   backend: "str | Backend" = "process") -> list[dict[str, Any]]:
    """``campaigns`` campaigns of manager ``name`` from seeds ``seed``, ``seed + 1``, ...,
    in chunks of ``chunk`` seeds (by default four chunks a worker, at most 250 seeds each)
    played on ``workers`` workers of ``backend`` (``"process"`` or ``"ray"``,
    :meth:`dugout.evaluate.backends.Backend.map`; or a backend object of the caller's, used
    as it is and left open, its own ``slots`` the workers); in seed order and the same
    whatever ``workers`` is (each campaign is played from its own seed)."""
    options = dict(options or {})
    seeds = list(range(seed, seed + campaigns))
    given = isinstance(backend, Backend)
    if chunk is None:
        slots = backend.slots if given else workers
        chunk = min(250, max(1, math.ceil(campaigns / (4 * (slots or 1)))))
    parts = [(name, options, seeds[i:i + chunk]) for i in range(0, len(seeds), chunk)]
    with nullcontext(backend) if given else make_backend(backend, workers) as pool:
        rows = pool.map(play_chunk, parts,
                        describe=lambda i: f"{name}'s campaigns from seed {parts[i][2][0]}")
    return [r for part in rows for r in part]


def paired_difference(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> dict[str, float]:
    """A's Manager Points a campaign minus B's, over campaigns played from the same seeds
    (``a[k]`` and ``b[k]`` from one seed: common random numbers), with its normal 95%
    interval over the campaigns: ``{"mp": mean, "mp_low": low, "mp_high": high}``."""
    if len(a) != len(b) or not a:
        raise ValueError(f"paired campaigns: {len(a)} and {len(b)} campaigns; the same seeds, "
                         f"at least one, are needed")
    mean, low, high = mean_interval([x["mp"] - y["mp"] for x, y in zip(a, b)])
    return {"mp": mean, "mp_low": low, "mp_high": high}


def paired_verdict(d: dict[str, float], a: str, b: str) -> str:
    """What a :func:`paired_difference` ``d`` of ``a`` minus ``b`` says: ``a`` or ``b``
    better when its interval leaves 0, else no significant difference."""
    if d["mp_low"] > 0:
        return f"{a} better"
    if d["mp_high"] < 0:
        return f"{b} better"
    return "no significant difference"


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
                        help="managers: random, heuristic, search[:key=value,...] or "
                             "ppo:CHECKPOINT_FOLDER (default random heuristic)")
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
    try:
        make(ENV_ID, **options)
    except (DugoutError, ValueError, TypeError) as error:
        raise args.UsageError("--env-option", str(error)) from None
    ns.options = options
    ns.agents = [_checked_agent(ref, options) for ref in ns.agents]
    twice = sorted({a for a in ns.agents if ns.agents.count(a) > 1})
    if twice:
        raise args.UsageError("--agents", f"{', '.join(twice)} given twice; each manager plays once")


def _checked_agent(ref: Any, options: dict[str, Any]) -> str:
    """``ref``'s name as given, once the registry knows the manager it names or its
    checkpoint loads and takes the observations and actions of the env built with
    ``options`` (:func:`dugout.agents.registry.check_agents`); a ``UsageError`` naming
    ``--agents`` if not."""
    name = str(AgentRef.parse(ref))
    try:
        check_agents(ENV_ID, [agent_ref(name)], options)
    except (DugoutError, ValueError, OSError, ImportError) as error:
        raise args.UsageError("--agents", str(error)) from None
    return name


def differences(results: dict[str, dict[str, Any]]) -> str:
    """A line per manager after the first (its summary's ``minus_first``, from
    :func:`paired_difference`): its Manager Points a campaign minus the first manager's on
    the same campaigns, and whether the interval leaves 0; empty for one manager."""
    first, *others = results
    lines = []
    for name in others:
        d = results[name]["minus_first"]
        lines.append(f"{name} minus {first}: {d['mp']:+.2f} MP a campaign "
                     f"({d['mp_low']:+.2f} to {d['mp_high']:+.2f}) on the same campaigns: "
                     f"{paired_verdict(d, name, first)}")
    return "\n".join(lines)


def run(ns: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Every manager's campaigns; print the table and each manager's paired difference from
    the first (and write ``--json``); the summaries, each after the first with its
    ``minus_first`` difference."""
    results, rows = {}, {}
    for name in ns.agents:
        t = time.perf_counter()
        rows[name] = play_campaigns(name, ns.campaigns, ns.seed, ns.options, ns.workers)
        results[name] = summarize(rows[name])
        results[name]["seconds"] = round(time.perf_counter() - t, 1)
        print(f"{name}: {ns.campaigns} campaigns in {results[name]['seconds']} s", file=sys.stderr)
    for name in ns.agents[1:]:
        results[name]["minus_first"] = paired_difference(rows[name], rows[ns.agents[0]])
    print(table(results))
    if len(results) > 1:
        print(differences(results))
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
