"""How a tournament scales: games per second on one worker, on a pool of worker processes and on
Ray, the Ray overhead per chunk, and a projection of a large tournament over N machines.

    dugout bench scaling                      # That's Baseball, three managers
    dugout bench scaling --games 2000 --json scaling.json
    dugout bench scaling --env showdown_v0 --agents random heuristic --games 400

(``python -m dugout.studies.bench_scaling`` is the same.) Needs Ray (the ray extra; without it
the command stops before any game with a one-line error saying so). Everything is measured
in this one run, on this machine, one thing at a time:

1. **Games per second** of the same round robin (``--agents``, ``--games`` a matchup, chunks of
   ``--chunk`` seed pairs) played inline (``--workers 1``), by a pool of ``--cpus`` worker
   processes, and as Ray tasks on a Ray instance started here with ``--cpus`` CPUs. The
   three results must be identical (the run stops if not). Ray's start-up is timed apart
   and left out of its games per second: ``ray.init`` and a few one-pair chunks that make
   every worker import dugout and build its managers (what a long run pays once; the
   pool's forked workers inherit them from this process).
2. **Ray's overhead per chunk**: the same round robin with one seed pair a chunk
   (``--overhead-games`` a matchup) inline and on a one-CPU Ray instance (two chunks in
   flight, so the worker never waits): the extra seconds on Ray divided by the chunks are
   what each task costs beyond its games (sending it, the result back, bookkeeping).
   Also the round trip of one empty task, and how many empty tasks a second the driver
   dispatches with four in flight (the most chunks a second one driver can feed a cluster).
3. **The projection**: a ``--project``-game tournament (default 1,000,000) in chunks of
   ``--chunk`` pairs on N machines of ``--cores`` cores each, from the per-game cost
   measured inline (c), the overhead per chunk (o) and Ray's start-up (S)::

       wall(N) = S + (games * c + chunks * o) / (N * cores)

   and never less than ``chunks / dispatch rate`` (one driver feeds every task). It
   assumes the cluster's cores are as fast as this machine's and that each core plays
   one task at a time; the measured efficiency of Ray on this machine (inline seconds over
   CPUs x Ray seconds) is printed next to it, since here the driver and Ray's own
   processes share the cores with the workers.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import Any, Sequence

from ..cli import args
from ..envs.core.errors import DugoutError
from ..evaluate.backends import INSTALL_HINT, RayCluster, ray_installed
from ..evaluate.tournament import check_agents, run_tournament

__all__ = ["measure", "projection", "configure", "check", "run", "main"]

#: The most games a projection may be made for.
MAX_PROJECT = 10**12
#: The most seed pairs a chunk.
MAX_CHUNK = 10**6


def _noop(i: int) -> int:
    """An empty task: what a chunk costs with no games in it."""
    return i


def _same(a, b) -> bool:
    drop = ("seconds", "games_per_second", "workers")
    return ({k: v for k, v in a.to_dict().items() if k not in drop}
            == {k: v for k, v in b.to_dict().items() if k not in drop})


def _timed(label: str, run) -> tuple[Any, float]:
    print(f"  {label} ...", flush=True)
    start = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - start
    print(f"  {label}: {seconds:.2f} s", flush=True)
    return result, seconds


def _empty_tasks(backend: RayCluster, n: int) -> tuple[float, float]:
    """(seconds a round trip of one empty task, empty tasks a second with the backend's
    usual number in flight)."""
    got: list[int] = []
    backend.run(_noop, iter([(-1, (-1,))]), lambda k, r: got.append(r))     # warm a worker
    start = time.perf_counter()
    for i in range(n):
        backend.run(_noop, iter([(i, (i,))]), lambda k, r: got.append(r))
    latency = (time.perf_counter() - start) / n
    start = time.perf_counter()
    backend.run(_noop, ((i, (i,)) for i in range(4 * n)), lambda k, r: got.append(r))
    rate = 4 * n / (time.perf_counter() - start)
    return latency, rate


def _warm(env_id: str, agents: Sequence[str], backend: RayCluster, quiet: dict) -> None:
    """A few one-pair chunks on every worker, so the timed runs find the workers' imports
    done and their managers built (as a long run does after its first chunks)."""
    run_tournament(env_id, agents, 4 * backend.slots, chunk=1, backend=backend, **quiet)


def measure(env_id: str, agents: Sequence[str], games: int, chunk: int = 25, cpus: int = 2,
            overhead_games: int = 200, seed: int = 0, empty: int = 200) -> dict[str, Any]:
    """Every figure of the module docstring, as a dict (the projection is apart)."""
    quiet = dict(bootstrap=20, seed=seed, env_kwargs={})
    k = len(agents)
    matchups = k * (k - 1) // 2
    total = games * matchups
    chunks = matchups * math.ceil(games // 2 / chunk)
    print(f"{total:,} games ({matchups} matchups of {games:,}) on {env_id}: "
          f"{', '.join(agents)}; {chunks} chunks of {chunk} pairs", flush=True)
    inline, t_inline = _timed("1 worker (inline)", lambda: run_tournament(
        env_id, agents, games, workers=1, chunk=chunk, **quiet))
    pool, t_pool = _timed(f"{cpus} process-pool workers", lambda: run_tournament(
        env_id, agents, games, workers=cpus, chunk=chunk, **quiet))
    with RayCluster(workers=cpus, log=lambda line: print("  " + line)) as ray_n:
        _, startup = _timed(f"Ray start-up ({cpus} CPUs)", ray_n.connect)
        _, warm = _timed("Ray workers' first games (imports, building the managers)",
                         lambda: _warm(env_id, agents, ray_n, quiet))
        on_ray, t_ray = _timed(f"Ray, {cpus} CPUs", lambda: run_tournament(
            env_id, agents, games, chunk=chunk, backend=ray_n, **quiet))
        (latency, rate), _ = _timed(f"{empty} + {4 * empty} empty tasks",
                                    lambda: _empty_tasks(ray_n, empty))
    if not (_same(inline, pool) and _same(inline, on_ray)):
        raise RuntimeError("the three backends gave different results: a bug to report")

    small_chunks = matchups * (overhead_games // 2)
    inline_1, t_inline_1 = _timed(f"1 worker, one pair a chunk ({small_chunks} chunks)",
                                  lambda: run_tournament(env_id, agents, overhead_games,
                                                         workers=1, chunk=1, **quiet))
    with RayCluster(workers=1, log=lambda line: print("  " + line)) as ray_1:
        ray_1.connect()
        _warm(env_id, agents, ray_1, quiet)
        on_ray_1, t_ray_1 = _timed(f"Ray, 1 CPU, one pair a chunk ({small_chunks} chunks)",
                                   lambda: run_tournament(env_id, agents, overhead_games, chunk=1,
                                                          backend=ray_1, **quiet))
    if not _same(inline_1, on_ray_1):
        raise RuntimeError("Ray with one pair a chunk gave other results: a bug to report")
    return {
        "env": env_id, "agents": list(agents), "games_per_matchup": games, "games": total,
        "chunk": chunk, "chunks": chunks, "cpus": cpus, "machine_cores": os.cpu_count(),
        "load_average_before_and_after": None,
        "seconds": {"inline": t_inline, "process_pool": t_pool, "ray": t_ray,
                    "ray_startup": startup + warm, "ray_init": startup, "ray_warm_up": warm},
        "games_per_second": {"inline": total / t_inline, "process_pool": total / t_pool,
                             "ray": total / t_ray},
        "seconds_per_game_inline": t_inline / total,
        "ray_efficiency": t_inline / (cpus * t_ray),
        "overhead": {"games": overhead_games * matchups, "chunks": small_chunks,
                     "inline_seconds": t_inline_1, "ray_1cpu_seconds": t_ray_1,
                     "seconds_per_chunk": (t_ray_1 - t_inline_1) / small_chunks,
                     "empty_task_round_trip_seconds": latency,
                     "empty_tasks_per_second": rate},
        "identical_results": True,
    }


def projection(figures: dict[str, Any], games: int = 1_000_000, cores: int = 2,
               machines: Sequence[int] = (1, 2, 4, 8, 16, 32, 64)) -> list[dict[str, float]]:
    """Wall seconds of a ``games``-game tournament on N machines of ``cores`` cores (the
    module docstring's formula), from the measured figures."""
    c = figures["seconds_per_game_inline"]
    o = max(0.0, figures["overhead"]["seconds_per_chunk"])
    start = figures["seconds"]["ray_startup"]
    chunks = math.ceil(games / (2 * figures["chunk"]))
    floor = chunks / figures["overhead"]["empty_tasks_per_second"]
    rows = []
    for n in machines:
        compute = (games * c + chunks * o) / (n * cores)
        wall = start + max(compute, floor)
        rows.append({"machines": n, "cores": n * cores, "wall_seconds": wall,
                     "games_per_second": games / wall, "overhead_share": chunks * o / (games * c + chunks * o)})
    return rows


def _report(f: dict[str, Any], rows: list[dict[str, float]], games: int, cores: int) -> str:
    g, s, o = f["games_per_second"], f["seconds"], f["overhead"]
    lines = [
        "",
        f"{f['games']:,} games on {f['env']} ({', '.join(f['agents'])}), chunks of {f['chunk']} pairs, "
        f"this machine: {f['machine_cores']} cores",
        f"  1 worker (inline)         {g['inline']:8.1f} games/s  ({s['inline']:.1f} s)",
        f"  {f['cpus']} process-pool workers    {g['process_pool']:8.1f} games/s  ({s['process_pool']:.1f} s)",
        f"  Ray, {f['cpus']} CPUs               {g['ray']:8.1f} games/s  ({s['ray']:.1f} s; efficiency "
        f"{100 * f['ray_efficiency']:.0f}% of {f['cpus']} CPUs)",
        f"  Ray start-up, apart: {s['ray_startup']:.1f} s (ray.init {s['ray_init']:.1f} s, the workers' "
        f"first games {s['ray_warm_up']:.1f} s)",
        "  results identical on the three: yes",
        f"Ray overhead per chunk: {1000 * o['seconds_per_chunk']:.1f} ms ({o['chunks']} one-pair chunks: "
        f"{o['ray_1cpu_seconds']:.1f} s on a 1-CPU Ray, {o['inline_seconds']:.1f} s inline); an empty "
        f"task's round trip {1000 * o['empty_task_round_trip_seconds']:.1f} ms; the driver dispatches "
        f"{o['empty_tasks_per_second']:.0f} empty tasks/s",
        f"Projection: {games:,} games in chunks of {f['chunk']} pairs "
        f"({math.ceil(games / (2 * f['chunk'])):,} tasks) on N machines of {cores} cores, from "
        f"{1000 * f['seconds_per_game_inline']:.2f} ms a game and "
        f"{1000 * max(0.0, o['seconds_per_chunk']):.1f} ms a chunk:",
        "  machines   cores   wall          games/s   overhead share",
    ]
    for r in rows:
        lines.append(f"  {r['machines']:8d} {r['cores']:7d}   {_duration(r['wall_seconds']):>10}  "
                     f"{r['games_per_second']:9.0f}   {100 * r['overhead_share']:5.1f}%")
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds:.0f} s"


def configure(parser: args.Parser) -> None:
    """``dugout bench scaling``'s flags."""
    parser.add_argument("--env", type=args.env_id, default="thats_baseball_v0",
                        help="environment id (default thats_baseball_v0)")
    parser.add_argument("--agents", nargs="+", type=args.agent_ref,
                        default=["random", "heuristic", "never-steal"],
                        help="two or more managers the env knows, or ppo:CHECKPOINT_FOLDER "
                             "(default random heuristic never-steal)")
    games = args.count(4, args.MAX_GAMES, "games a matchup", even=True)
    parser.add_argument("--games", type=games, default=600,
                        help=f"games a matchup, even, from 4 to {args.MAX_GAMES:,} (default 600)")
    parser.add_argument("--chunk", type=args.count(1, MAX_CHUNK, "seed pairs a chunk"), default=25,
                        help=f"seed pairs a chunk, from 1 to {MAX_CHUNK:,} (default 25)")
    parser.add_argument("--cpus", type=args.workers, default=2,
                        help=f"process-pool workers and Ray CPUs, from 1 to {args.MAX_WORKERS} "
                             f"(default 2)")
    parser.add_argument("--overhead-games", type=games, default=200,
                        help="games a matchup for the overhead measurement, even, from 4 to "
                             f"{args.MAX_GAMES:,} (default 200)")
    parser.add_argument("--project", type=args.count(1, MAX_PROJECT, "games to project"),
                        default=1_000_000,
                        help=f"games to project, from 1 to {MAX_PROJECT:,} (default 1,000,000)")
    parser.add_argument("--cores", type=args.count(1, args.MAX_WORKERS, "cores a machine"),
                        default=os.cpu_count() or 2,
                        help=f"cores per machine in the projection, from 1 to {args.MAX_WORKERS} "
                             f"(default: this machine's)")
    parser.add_argument("--json", metavar="PATH", type=args.out_file,
                        help="also write the figures there")


def check(ns: argparse.Namespace) -> None:
    """The managers (two or more, each known to the env; a checkpoint loads and fits it),
    then Ray, before any game."""
    ns.agents = [str(a) for a in ns.agents]
    if len(ns.agents) < 2:
        raise args.UsageError("--agents", f"a round robin needs two managers or more, got "
                                          f"{' '.join(ns.agents)}")
    twice = sorted({a for a in ns.agents if ns.agents.count(a) > 1})
    if twice:
        raise args.UsageError("--agents", f"{', '.join(twice)} given twice; each manager plays once")
    try:
        check_agents(ns.env, ns.agents, {})
    except (ValueError, DugoutError) as error:
        raise args.UsageError("--agents", str(error)) from None
    if not ray_installed():
        raise args.UsageError("", f"the scaling measurement needs Ray, which is not installed "
                                  f"here: {INSTALL_HINT}")


def run(ns: argparse.Namespace) -> dict[str, Any]:
    """Measure, project, print the report; the figures (written to ``--json`` too)."""
    load = os.getloadavg()
    figures = measure(ns.env, ns.agents, ns.games, ns.chunk, ns.cpus, ns.overhead_games)
    figures["load_average_before_and_after"] = [load[0], os.getloadavg()[0]]
    rows = projection(figures, ns.project, ns.cores)
    figures["projection"] = {"games": ns.project, "cores_per_machine": ns.cores, "rows": rows}
    print(_report(figures, rows, ns.project, ns.cores))
    print(f"(load average {load[0]:.2f} before, {os.getloadavg()[0]:.2f} after: other work on this "
          f"machine slows every figure)")
    if ns.json:
        args.write_json(ns.json, figures)
    return figures


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """``python -m dugout.studies.bench_scaling``: the same as ``dugout bench scaling``."""
    return args.invoke("dugout bench scaling", configure, check, run, argv,
                       __doc__.split("\n\n")[0])


if __name__ == "__main__":
    main(sys.argv[1:])
