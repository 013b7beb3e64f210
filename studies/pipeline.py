"""The main job: train a manager, then a tournament on every ruleset, with a report.

    dugout pipeline                       # what scripts/main.sh runs
    dugout pipeline --timesteps 20000 --games 400 --out reports/quick

(``python -m dugout.studies.pipeline`` is the same.)

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

   * That's Baseball: random, the rulebook heuristic, the manager trained in step 1, the
     pretrained manager dugout ships and the exact solver, plus a common-random-numbers
     check of the trained manager (or random) against the heuristic;
   * Harry's Grand Slam Baseball, MLB Showdown's advanced game, Bottom of the 9th's duel
     (one half inning, the built-in cards) and Pokemon Baseball (one game of the built-in
     Harbor Lights at the Summit Rams): random, the rulebook heuristic and the pretrained
     manager (``pretrained``, :mod:`dugout.agents.pretrained`; the trained manager plays
     That's Baseball only).

   Beside each round robin, the search manager (``search``, its default budget) plays the
   heuristic for ``--search-games`` games (20 by default: it takes a few seconds a game, so
   this shows it at work rather than measuring it; ``dugout strength`` does that), in
   ``OUT/<env id>/search``.

   The rules of each (the env's options, ``ENV_OPTIONS``: the envs' defaults spelt
   out, e.g. Showdown's advanced game with the 2004 Yankees at the Red Sox) go to the
   tournament as ``--env-option``/``--teams`` would and are written in every report.

3. **Report** in ``OUT`` (default ``reports/latest``): ``summary.md`` linking one folder
   per ruleset, each with results JSON and CSVs, a Markdown summary and PNG plots (the
   win-rate matrix, the ratings and, for That's Baseball, the learning curve).

``OUT`` is replaced on each run if an earlier main job made it; any other non-empty
folder is refused. Every flag is checked before the first training step (the sizes and
their limits, ``--out``, the training settings the sizes make, the rules and managers of
each ruleset): a bad one is a one-line error naming it, and nothing is written. The whole
job takes about 13 minutes with 2 workers on a 2-core machine at the defaults, 9 of them
the search's 100 games (``--search-games 0`` leaves them out).
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
from typing import Any, Sequence

from ..agents.ref import AgentRef
from ..cli import args
from ..envs.core.errors import DugoutError

__all__ = ["main", "configure", "check", "run", "train_manager", "training_settings"]

MARKER = ".dugout-main-job"       # marks a folder the main job may replace
TRAIN_ENV = "thats_baseball_v0"
#: Each ruleset's managers; ``TRAINED`` stands for the manager trained first (left out when
#: none was).
TRAINED = "{ppo}"
LINEUPS = {
    "thats_baseball_v0": ["random", "heuristic", TRAINED, "pretrained", "solver"],
    "grand_slam_v0": ["random", "heuristic", "pretrained"],
    "showdown_v0": ["random", "heuristic", "pretrained"],
    "bottom_ninth_v0": ["random", "heuristic", "pretrained"],
    "pokemon_baseball_v0": ["random", "heuristic", "pretrained"],
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
#: The search manager's match on each ruleset (``--search-games`` games): it plays a few
#: seconds a game, so it meets the heuristic only, beside the round robin.
SEARCH_MATCH = ("search", "heuristic")
SEARCH_GAMES = 20
TITLES = {"thats_baseball_v0": "That's Baseball", "grand_slam_v0": "Harry's Grand Slam Baseball",
          "showdown_v0": "MLB Showdown (advanced game, 2004 Yankees at Red Sox)",
          "bottom_ninth_v0": "Bottom of the 9th (the duel, built-in cards)",
          "pokemon_baseball_v0": "Pokemon Baseball (Harbor Lights at Summit Rams)"}


def foreign_folder(out: Path) -> str | None:
    """Why ``out`` may not be the report folder (a folder holding what no main job made),
    or None."""
    if out.is_dir() and not (out / MARKER).exists() and any(out.iterdir()):
        return (f"{out} is not empty and was not made by the main job; choose another --out or "
                f"remove it")
    return None


def prepare_folder(out: Path) -> None:
    """Empty ``out`` if an earlier main job made it; refuse a folder holding anything else."""
    if out.exists():
        if (out / MARKER).exists():
            shutil.rmtree(out)
        elif foreign_folder(out):
            raise SystemExit(f"main job: {foreign_folder(out)}")
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("made by python -m dugout.studies.pipeline; replaced on the next run\n")


TRAINERS = {"vector": 4_000_000, "sb3": 80_000}     # each trainer's default timesteps


def training_settings(timesteps: int, seed: int, out: Path, trainer: str = "vector") -> Any:
    """The settings ``trainer`` trains That's Baseball's manager with (checked by their own
    constructor: a ``ValueError`` says what is wrong), or None without the train extra."""
    try:
        import importlib
        importlib.import_module("sb3_contrib")        # the train extra: torch, sb3, sb3-contrib
        from ..train.configs import defaults_for
        from ..train.ppo import Settings
        from ..train.vector_ppo import VectorSettings
    except ImportError:
        return None
    if trainer == "vector":
        teams = ENV_OPTIONS[TRAIN_ENV]["teams"]
        # a quick check gets a batch that fits: a number of games whose rollout (num_envs x
        # num_steps) divides into the minibatches
        steps, minibatches = VectorSettings.num_steps, VectorSettings.num_minibatches
        q = minibatches // math.gcd(steps, minibatches)
        envs = min(VectorSettings.num_envs, max(64, timesteps // steps // q * q))
        return VectorSettings(total_timesteps=timesteps, num_envs=envs, seed=seed, out=str(out),
                              teams=tuple(teams), eval_every=max(timesteps // 4, 1),
                              eval_games=4096 if timesteps >= 1_000_000 else 64)
    settings = defaults_for(TRAIN_ENV)
    settings.pop("total_timesteps", None)
    n_envs = 4
    # a short run (a quick check) still needs whole rollouts: shrink them to fit
    settings["n_steps"] = min(settings.get("n_steps", 1024), max(32, timesteps // n_envs))
    settings["batch_size"] = min(settings.get("batch_size", 256), settings["n_steps"] * n_envs)
    big = timesteps >= 20_000
    return Settings(env=TRAIN_ENV, env_options=dict(ENV_OPTIONS[TRAIN_ENV]),
                    total_timesteps=timesteps, seed=seed, n_envs=n_envs, out=str(out),
                    progress=False, eval_every=max(timesteps // 4, 1),
                    pool_every=max(timesteps // 4, 1), eval_pairs=100 if big else 4, **settings)


def train_manager(timesteps: int, seed: int, out: Path, trainer: str = "vector") -> Path | None:
    """Train That's Baseball's manager; the checkpoint folder, or None without the train extra."""
    settings = training_settings(timesteps, seed, out, trainer)
    if settings is None:
        print("main job: no training (the train extra, torch, sb3 and sb3-contrib, is not "
              "installed); install it (scripts/setup.sh train plots) for a trained manager",
              file=sys.stderr)
        return None
    if trainer == "vector":
        from ..train.vector_ppo import train as train_vector
        print(f"\n== Training a That's Baseball manager: masked PPO self-play on "
              f"{settings.num_envs:,} batched games, {timesteps:,} timesteps (into {out})", flush=True)
        train_vector(settings, log=lambda text: print(text, file=sys.stderr, flush=True))
        return out / "model"
    from ..train.ppo import train
    print(f"\n== Training a That's Baseball manager: MaskablePPO self-play, {timesteps:,} timesteps "
          f"(into {out})", flush=True)
    train(settings)
    return out / "model"


def configure(parser: args.Parser) -> None:
    """``dugout pipeline``'s flags."""
    parser.add_argument("--trainer", choices=list(TRAINERS), default="vector",
                        help="vector: masked PPO on batched games (dugout.train.vector_ppo); sb3: "
                             "MaskablePPO over AEC envs (dugout.train.ppo) (default vector)")
    parser.add_argument("--timesteps", type=args.integer(0, args.MAX_TIMESTEPS, "timesteps"),
                        default=None,
                        help=f"training timesteps for That's Baseball's manager, from 0 (no "
                             f"training) to {args.MAX_TIMESTEPS:,} (default 4000000 with the "
                             f"vector trainer, 80000 with sb3)")
    parser.add_argument("--games", type=args.count(4, args.MAX_GAMES, "games a matchup", even=True),
                        default=2000, help=f"games per matchup, even, from 4 to "
                                           f"{args.MAX_GAMES:,} (default 2000)")
    parser.add_argument("--crn-games", type=args.count(0, args.MAX_GAMES, "games a design",
                                                       even=True),
                        default=2000, help=f"games per design of the common-random-numbers check, "
                                           f"even, at most {args.MAX_GAMES:,}; 0: none (default 2000)")
    parser.add_argument("--seed", type=args.seed, default=0,
                        help=f"seed of training and of the first pair, from 0 to {args.MAX_SEED} "
                             f"(default 0)")
    parser.add_argument("--workers", type=args.workers, default=min(2, os.cpu_count() or 1),
                        help=f"worker processes for the tournaments, from 1 to {args.MAX_WORKERS} "
                             f"(default: 2, or 1 on one core)")
    parser.add_argument("--out", type=args.out_dir, default=str(Path("reports") / "latest"),
                        help="report folder (default reports/latest): an earlier main job's is "
                             "replaced, any other folder must be empty")
    parser.add_argument("--bootstrap", type=args.count(1, args.MAX_RESAMPLES, "resamples"),
                        default=1000, help=f"bootstrap resamples for ratings, from 1 to "
                                           f"{args.MAX_RESAMPLES:,} (default 1000)")
    parser.add_argument("--envs", nargs="+", default=list(LINEUPS), choices=list(LINEUPS),
                        help="rulesets to play (default: all)")
    parser.add_argument("--search-games", type=args.games_or_none("games of the search"),
                        default=SEARCH_GAMES,
                        help=f"games of the search manager (its default budget) against the "
                             f"heuristic on each ruleset, 0 or an even number from 4 to "
                             f"{args.MAX_GAMES:,}; 0: none (default {SEARCH_GAMES}: a few seconds a game)"),


def check(ns: argparse.Namespace) -> None:
    """Everything the job needs, before it writes anything: ``--out`` (empty, or an earlier
    main job's), the training settings the sizes make, each ruleset's rules (its env built
    once) and managers."""
    from ..evaluate.tournament import check_agents, check_env_options
    if ns.timesteps is None:
        ns.timesteps = TRAINERS[ns.trainer]
    ns.out = Path(ns.out)
    if foreign_folder(ns.out):
        raise args.UsageError("--out", foreign_folder(ns.out))
    if ns.timesteps:
        try:
            training_settings(ns.timesteps, ns.seed, ns.out / "training", ns.trainer)
        except (ValueError, DugoutError) as error:
            raise args.UsageError("--timesteps", f"training with --trainer {ns.trainer} and "
                                                 f"{ns.timesteps} timesteps: {error}") from None
    for env_id in ns.envs:                    # the rules and the managers, checked before anything
        try:
            check_env_options(env_id, ENV_OPTIONS[env_id], f"ENV_OPTIONS[{env_id!r}]")
            check_agents(env_id, [a for a in LINEUPS[env_id] if a != TRAINED], ENV_OPTIONS[env_id])
            if ns.search_games:
                check_agents(env_id, list(SEARCH_MATCH), ENV_OPTIONS[env_id])
        except (ValueError, DugoutError) as error:
            raise args.UsageError("--envs", f"{env_id}: {error}") from None


def run(ns: argparse.Namespace) -> dict[str, Any]:
    """Train, play every ruleset's tournament, write the report; the job's summary."""
    from ..evaluate.cli import tournament
    started = time.perf_counter()
    out = ns.out
    prepare_folder(out)
    checkpoint = (train_manager(ns.timesteps, ns.seed, out / "training", ns.trainer)
                  if ns.timesteps else None)
    trained_at = time.perf_counter()

    summary: dict[str, Any] = {"out": str(out), "training": None, "tournaments": {},
                               "search": {}}
    if checkpoint is not None:
        summary["training"] = json.loads((out / "training" / "summary.json").read_text())
    trained = None if checkpoint is None else str(AgentRef("ppo", arg=str(checkpoint)))
    for env_id in ns.envs:
        agents = [trained if a == TRAINED else a for a in LINEUPS[env_id]
                  if a != TRAINED or trained is not None]
        crn = None
        if ns.crn_games and env_id == TRAIN_ENV:
            crn = (trained or "random", "heuristic")
        curve = out / "training" / "learning_curve.png" if env_id == TRAIN_ENV else None
        result = tournament(env_id, agents, ns.games, seed=ns.seed, workers=ns.workers,
                            out=out / env_id, crn_games=ns.crn_games if crn else 0, crn_agents=crn,
                            bootstrap=ns.bootstrap, learning_curve=curve,
                            title=f"{TITLES[env_id]} ({env_id})", env_kwargs=ENV_OPTIONS[env_id])
        summary["tournaments"][env_id] = json.loads((out / env_id / "results.json").read_text())
        summary["tournaments"][env_id]["seconds"] = result.seconds
        if ns.search_games:
            result = tournament(env_id, list(SEARCH_MATCH), ns.search_games, seed=ns.seed,
                                workers=ns.workers, out=out / env_id / "search",
                                bootstrap=ns.bootstrap, env_kwargs=ENV_OPTIONS[env_id],
                                title=f"{TITLES[env_id]}: the search manager ({env_id})")
            match = json.loads((out / env_id / "search" / "results.json").read_text())
            summary["search"][env_id] = {**match["matchups"][0], "seconds": result.seconds}
    seconds = time.perf_counter() - started
    summary["seconds"] = {"training": trained_at - started, "total": seconds}
    (out / "summary.md").write_text(_top_summary(summary, ns))
    (out / "main_job.json").write_text(json.dumps(summary, indent=2))
    print(f"\nmain job done in {seconds / 60:.1f} min (training {summary['seconds']['training']:.0f} s); "
          f"report: {out / 'summary.md'}")
    return summary


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """``python -m dugout.studies.pipeline``: the same as ``dugout pipeline``; the job's summary."""
    return args.invoke("dugout pipeline", configure, check, run, argv, __doc__)


def _top_summary(summary: dict[str, Any], ns: argparse.Namespace) -> str:
    from ..envs.options import describe_options
    lines = ["# The main job", "",
             f"Seed {ns.seed}, {ns.games:,} games a matchup, {ns.workers} worker(s), "
             f"{summary['seconds']['total'] / 60:.1f} minutes in all.", ""]
    t = summary["training"]
    if t:
        how = ("Masked PPO self-play on batched games (`dugout.train.vector_ppo`)"
               if ns.trainer == "vector" else "MaskablePPO self-play (`dugout.train.ppo`)")
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
    if summary["search"]:
        lines += ["", "## The search manager", "",
                  f"`search` (its default budget) against `heuristic`, {ns.search_games:,} "
                  f"seat-swapped games a ruleset: its score with a 95% interval. So few games "
                  f"show it playing, not which is stronger; `dugout strength` measures that.", ""]
        for env_id, m in summary["search"].items():
            lines.append(f"* [{TITLES[env_id]}]({env_id}/search/summary.md): "
                         f"{100 * m['a_score']:.1f}% ({100 * m['a_score_low']:.1f}-"
                         f"{100 * m['a_score_high']:.1f}%) in {m['seconds']:.0f} s.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main(sys.argv[1:])
