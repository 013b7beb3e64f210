"""The main job: train a manager, then a tournament on every ruleset, with a report.

    python -m dugout.evaluate.main                       # what scripts/main.sh runs
    python -m dugout.evaluate.main --timesteps 20000 --games 400 --out reports/quick

1. **Training.** Self-play on That's Baseball for ``--timesteps`` learner decisions, into
   ``OUT/training`` (checkpoint in ``OUT/training/model``, ``eval.csv``,
   ``learning_curve.png``): with ``--trainer vector`` (the default) masked PPO on 16,384
   batched games at once (:mod:`dugout.train.vector_ppo`, 4,000,000 timesteps by default,
   about a minute and a half), with ``--trainer sb3`` sb3-contrib's MaskablePPO over AEC envs
   (:mod:`dugout.train.ppo`, the ruleset's default settings, 80,000 timesteps by default).
   Without the ``train`` extra (torch, sb3-contrib) it says so and the tournaments run
   without a trained manager; ``--timesteps 0`` skips training.
2. **Tournaments** (:mod:`dugout.evaluate.tournament`), ``--games`` games a matchup in
   seat-swapped pairs on ``--workers`` processes:

   * That's Baseball: random, the rulebook heuristic, the trained manager and the exact
     solver, plus a common-random-numbers check of the trained manager (or random)
     against the heuristic;
   * Harry's Grand Slam Baseball: random, the rulebook heuristic and its always/never
     pinch-hitter baselines (the trained manager plays That's Baseball only);
   * MLB Showdown, advanced game: random, the rulebook heuristic and its always/never
     send-runners baselines;
   * Bottom of the 9th, the duel (one half inning, the built-in cards): random, the
     rulebook heuristic (mixed stare-down) and its always/never pitching-change baselines;
   * Pokemon Baseball, one game of the built-in Harbor Lights at the Summit Rams: random,
     the rulebook heuristic and its always/never steal baselines.

   The rules of each (the env's options, ``ENV_OPTIONS``: the envs' defaults spelt
   out, e.g. Showdown's advanced game with the 2004 Yankees at the Red Sox) go to the
   tournament as ``--env-option``/``--teams`` would and are written in every report.

3. **Report** in ``OUT`` (default ``reports/latest``): ``summary.md`` linking one folder
   per ruleset, each with results JSON and CSVs, a Markdown summary and PNG plots (the
   win-rate matrix, the ratings and, for That's Baseball, the learning curve).

``OUT`` is replaced on each run if an earlier main job made it; any other non-empty
folder is refused. The whole job takes about 8 minutes with 2 workers on a 2-core
machine at the defaults.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["main", "train_manager"]

MARKER = ".dugout-main-job"       # marks a folder the main job may replace
TRAIN_ENV = "thats_baseball_v0"
LINEUPS = {
    "thats_baseball_v0": ["random", "heuristic", "{ppo}", "solver"],
    "grand_slam_v0": ["random", "heuristic", "always-pinch_hitter", "never-pinch_hitter"],
    "showdown_v0": ["random", "heuristic", "always-send_runners", "never-send_runners"],
    "bottom_ninth_v0": ["random", "heuristic", "always-pitching_change", "never-pitching_change"],
    "pokemon_baseball_v0": ["random", "heuristic", "always-steal", "never-steal"],
}
#: The rules each ruleset is played under (the env's options, as ``--env-option`` and
#: ``--teams`` give them to ``python -m dugout.evaluate``): each env's defaults, spelt out
#: so that every report says them.
ENV_OPTIONS: dict[str, dict[str, Any]] = {
    "thats_baseball_v0": {"teams": ["sample", "reds"]},
    "grand_slam_v0": {"deck": "reference"},
    "showdown_v0": {"level": "advanced", "teams": ["nya2004", "bos2004"]},
    "bottom_ninth_v0": {"mode": "duel", "teams": "default"},
    "pokemon_baseball_v0": {"teams": ["harbor", "summit"]},
}
TITLES = {"thats_baseball_v0": "That's Baseball", "grand_slam_v0": "Harry's Grand Slam Baseball",
          "showdown_v0": "MLB Showdown (advanced game, 2004 Yankees at Red Sox)",
          "bottom_ninth_v0": "Bottom of the 9th (the duel, built-in cards)",
          "pokemon_baseball_v0": "Pokemon Baseball (Harbor Lights at Summit Rams)"}


def prepare_folder(out: Path) -> None:
    """Empty ``out`` if an earlier main job made it; refuse a folder holding anything else."""
    if out.exists():
        if (out / MARKER).exists():
            shutil.rmtree(out)
        elif out.is_dir() and any(out.iterdir()):
            raise SystemExit(f"main job: {out} is not empty and was not made by the main job; "
                             f"choose another --out or remove it")
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("made by python -m dugout.evaluate.main; replaced on the next run\n")


TRAINERS = {"vector": 4_000_000, "sb3": 80_000}     # each trainer's default timesteps


def train_manager(timesteps: int, seed: int, out: Path, trainer: str = "vector") -> Path | None:
    """Train That's Baseball's manager; the checkpoint folder, or None without the train extra."""
    try:
        import importlib
        importlib.import_module("sb3_contrib")        # the train extra: torch, sb3, sb3-contrib
        from ..train.configs import defaults_for
        from ..train.ppo import Settings, train
        from ..train.vector_ppo import VectorSettings, train as train_vector
    except ImportError as error:
        print(f"main job: no training ({error}); install the train extra "
              f"(scripts/setup.sh train plots) for a trained manager", file=sys.stderr)
        return None
    if trainer == "vector":
        teams = ENV_OPTIONS[TRAIN_ENV]["teams"]
        # a quick check gets a batch that fits: a number of games whose rollout (num_envs x
        # num_steps) divides into the minibatches
        steps, minibatches = VectorSettings.num_steps, VectorSettings.num_minibatches
        q = minibatches // math.gcd(steps, minibatches)
        envs = min(VectorSettings.num_envs, max(64, timesteps // steps // q * q))
        v = VectorSettings(total_timesteps=timesteps, num_envs=envs, seed=seed, out=str(out),
                           teams=tuple(teams), eval_every=max(timesteps // 4, 1),
                           eval_games=4096 if timesteps >= 1_000_000 else 64)
        print(f"\n== Training a That's Baseball manager: masked PPO self-play on {envs:,} batched "
              f"games, {timesteps:,} timesteps (into {out})", flush=True)
        train_vector(v, log=lambda text: print(text, file=sys.stderr, flush=True))
        return out / "model"
    settings = defaults_for(TRAIN_ENV)
    settings.pop("total_timesteps", None)
    n_envs = 4
    # a short run (a quick check) still needs whole rollouts: shrink them to fit
    settings["n_steps"] = min(settings.get("n_steps", 1024), max(32, timesteps // n_envs))
    settings["batch_size"] = min(settings.get("batch_size", 256), settings["n_steps"] * n_envs)
    big = timesteps >= 20_000
    s = Settings(env=TRAIN_ENV, env_options=dict(ENV_OPTIONS[TRAIN_ENV]), total_timesteps=timesteps,
                 seed=seed, n_envs=n_envs, out=str(out),
                 progress=False, eval_every=max(timesteps // 4, 1), pool_every=max(timesteps // 4, 1),
                 eval_pairs=100 if big else 4, **settings)
    print(f"\n== Training a That's Baseball manager: MaskablePPO self-play, {timesteps:,} timesteps "
          f"(into {out})", flush=True)
    train(s)
    return out / "model"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m dugout.evaluate.main", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trainer", choices=list(TRAINERS), default="vector",
                        help="vector: masked PPO on batched games (dugout.train.vector_ppo); sb3: "
                             "MaskablePPO over AEC envs (dugout.train.ppo) (default vector)")
    parser.add_argument("--timesteps", type=int, default=None,
                        help="training timesteps for That's Baseball's manager; 0: no training "
                             "(default 4000000 with the vector trainer, 80000 with sb3)")
    parser.add_argument("--games", type=int, default=2000,
                        help="games per matchup, even (default 2000)")
    parser.add_argument("--crn-games", type=int, default=2000,
                        help="games per design of the common-random-numbers check; 0: none "
                             "(default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of training and of the first pair")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="worker processes for the tournaments (default: 2, or 1 on one core)")
    parser.add_argument("--out", default=str(Path("reports") / "latest"),
                        help="report folder (default reports/latest)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples for ratings")
    parser.add_argument("--envs", nargs="+", default=list(LINEUPS), choices=list(LINEUPS),
                        help="rulesets to play (default: all)")
    args = parser.parse_args(argv)
    if args.timesteps is None:
        args.timesteps = TRAINERS[args.trainer]
    if args.games < 4 or args.games % 2:
        parser.error(f"--games must be an even number, at least 4, got {args.games}")
    if args.timesteps < 0 or args.crn_games < 0 or args.crn_games % 2:
        parser.error("--timesteps must be non-negative and --crn-games even and non-negative")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.seed < 0:
        parser.error(f"--seed must be a non-negative integer, got {args.seed}")
    if args.bootstrap < 1:
        parser.error(f"--bootstrap must be at least 1, got {args.bootstrap}")

    from .cli import tournament
    from .tournament import check_env_options
    for env_id in args.envs:                  # the rules, checked before anything runs
        try:
            check_env_options(env_id, ENV_OPTIONS[env_id], f"ENV_OPTIONS[{env_id!r}]")
        except ValueError as error:
            parser.error(str(error))
    started = time.perf_counter()
    out = Path(args.out)
    prepare_folder(out)
    checkpoint = (train_manager(args.timesteps, args.seed, out / "training", args.trainer)
                  if args.timesteps else None)
    trained_at = time.perf_counter()

    summary: dict[str, Any] = {"out": str(out), "training": None, "tournaments": {}}
    if checkpoint is not None:
        summary["training"] = json.loads((out / "training" / "summary.json").read_text())
    for env_id in args.envs:
        agents = [a.format(ppo=f"ppo:{checkpoint}") for a in LINEUPS[env_id]
                  if a != "{ppo}" or checkpoint is not None]
        crn = None
        if args.crn_games and env_id == TRAIN_ENV:
            crn = (agents[2] if checkpoint is not None else "random", "heuristic")
        curve = out / "training" / "learning_curve.png" if env_id == TRAIN_ENV else None
        result = tournament(env_id, agents, args.games, seed=args.seed, workers=args.workers,
                            out=out / env_id, crn_games=args.crn_games if crn else 0, crn_agents=crn,
                            bootstrap=args.bootstrap, learning_curve=curve,
                            title=f"{TITLES[env_id]} ({env_id})", env_kwargs=ENV_OPTIONS[env_id])
        summary["tournaments"][env_id] = json.loads((out / env_id / "results.json").read_text())
        summary["tournaments"][env_id]["seconds"] = result.seconds
    seconds = time.perf_counter() - started
    summary["seconds"] = {"training": trained_at - started, "total": seconds}
    (out / "summary.md").write_text(_top_summary(summary, args))
    (out / "main_job.json").write_text(json.dumps(summary, indent=2))
    print(f"\nmain job done in {seconds / 60:.1f} min (training {summary['seconds']['training']:.0f} s); "
          f"report: {out / 'summary.md'}")
    return summary


def _top_summary(summary: dict[str, Any], args: argparse.Namespace) -> str:
    from ..envs.options import describe_options
    lines = ["# The main job", "",
             f"Seed {args.seed}, {args.games:,} games a matchup, {args.workers} worker(s), "
             f"{summary['seconds']['total'] / 60:.1f} minutes in all.", ""]
    t = summary["training"]
    if t:
        how = ("Masked PPO self-play on batched games (`dugout.train.vector_ppo`)"
               if args.trainer == "vector" else "MaskablePPO self-play (`dugout.train.ppo`)")
        lines += ["## Training", "",
                  f"{how} on That's Baseball, {t['timesteps']:,} timesteps in "
                  f"{t['wall_seconds']:.0f} s ({t['timesteps_per_second']:.0f} timesteps/s while "
                  f"learning). Checkpoint: `training/model`; learning curve: "
                  f"[training/learning_curve.png](training/learning_curve.png).", ""]
    else:
        lines += ["No manager was trained (`--timesteps 0` or no `train` extra).", ""]
    lines += ["## Tournaments", ""]
    for env_id, d in summary["tournaments"].items():
        best = max(d["ratings"], key=lambda r: r["elo"])
        rules = describe_options(d.get("env_options"))
        lines.append(f"* [{TITLES[env_id]}]({env_id}/summary.md), {rules}: {', '.join(d['labels'])}; "
                     f"{d['games']:,} games in {d['seconds']:.0f} s; best rated: {best['agent']} "
                     f"({best['elo']:+.0f} Elo, {best['low']:+.0f} to {best['high']:+.0f}).")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main(sys.argv[1:])
