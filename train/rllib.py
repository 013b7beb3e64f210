"""Self-play training at scale with Ray RLlib: multi-agent PPO with action masking against a
league of past snapshots, on any registered ruleset, on one machine or a Ray cluster.

    dugout train rllib --env showdown_v0 --env-option level=basic --iterations 200
    dugout train rllib --env thats_baseball_v0 --env-runners 30 --address 10.0.0.5:6379
    dugout tournament --env thats_baseball_v0 \\
        --agents random heuristic ppo:runs/thats_baseball_v0-rllib/model

(``python -m dugout.train --algo rllib ...`` is the same command.) Every flag is checked
before Ray is even looked for, a bad one is one line naming it, exit status 2: each number
against its limit (``--help`` shows them), the options by building the env, ``--out`` a
folder that can be written (holding no run, or with ``--resume`` one of the same env and
network), ``--address`` in a form Ray takes. Ray missing, or no cluster answering at the
address, is one line too, when the run starts.

Needs the ``rllib`` extra in a venv of its own (RLlib pins its own Gymnasium; see
``scripts/test_rllib.sh``, which makes ``.venv-rllib``).

What is trained
---------------
Both seats are played by RLlib modules (:func:`dugout.integrations.rllib.league_ppo_config`):
``main``, the one trained, and ``--league-size`` frozen *league* slots. Each game puts
``main`` in both seats (a ``--self-play`` share of the games: it learns from both sides)
or in one seat, either as often, against a league slot. The slots start as copies of
``main``'s first weights, and every ``--snapshot-every`` iterations the oldest slot gets
``main``'s current weights, so ``main`` keeps meeting the managers it used to be (a
league of past snapshots keeps self-play from cycling). Illegal actions are masked in the
module, so none is ever sampled.

What a run writes (``--out``, default ``runs/<env>-rllib``)
-----------------------------------------------------------
::

    settings.json      the settings of the run
    model/             main's acting policy as a dugout checkpoint (meta.json + policy.pt):
                       PolicyAgent.load() it, or play it in a tournament as ppo:<out>/model
    league/<iter>/     every snapshot put in the league, as a dugout checkpoint too
    progress.csv       per iteration: env steps, games, seconds, main's mean return against
                       the league slots (+1 a win), and the evaluation at the end
    rllib/             RLlib's own checkpoint of the algorithm, for --resume only (it holds
                       pickled objects: resume only runs you made), saved at every league
                       snapshot (every --snapshot-every iterations) and at the end

``--resume`` continues the run in ``--out`` from its last RLlib checkpoint, a finished run
or one that stopped: the iterations after that checkpoint are played again (their rows
of ``progress.csv`` and their league snapshots are dropped first), up to ``--iterations``
in all. A run without ``--resume`` refuses an ``--out`` that already holds a run.

The dugout checkpoints are written by :func:`dugout.integrations.rllib.export_weights`:
the module's actor (an MLP encoder and a linear pi head) is the network
:class:`dugout.agents.policy.PolicyAgent` builds, so loading one is as safe as any
dugout checkpoint (JSON and tensors only) and needs neither Ray nor RLlib.

Where it runs
-------------
``--env-runners N`` remote env runners play the games (``0``: in this process), each with
``--envs-per-runner`` games side by side; one learner updates in this process. Without
``--address`` a new Ray instance starts here with ``--cpus`` CPUs (default all), whatever
``RAY_ADDRESS`` says and whatever cluster already runs on this machine; with ``--address``
the run joins that cluster (``auto``: the one ``RAY_ADDRESS`` names, else the one started
on this machine) and its env runners spread over its nodes. An env runner takes one CPU.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..cli import args
from ..envs import env_ids
from ..envs.core.errors import DugoutError, OptionError
from ..envs.options import check_env_options, describe_options, env_options_from_flags
from ..integrations.ray_cluster import check_reachable
from . import flags

__all__ = ["RLlibSettings", "SetupError", "train_rllib", "main"]


class SetupError(DugoutError, ValueError):
    """A run that cannot start: a bad setting, Ray missing, a cluster that does not answer,
    nothing to resume. The command line prints it as a one-line error (exit status 2)."""


@dataclass
class RLlibSettings:
    env: str = "thats_baseball_v0"
    env_options: dict = field(default_factory=dict)
    iterations: int = 50
    seed: int = 0
    out: str = ""
    # the league
    league_size: int = 4
    snapshot_every: int = 5
    self_play: float = 0.5
    # PPO
    batch: int = 4000                     # env steps per iteration (train_batch_size_per_learner)
    minibatch: int = 256
    epochs: int = 4
    lr: float = 3e-4
    entropy: float = 0.01
    gamma: float = 1.0                    # the only reward comes at the end of a game
    hidden: tuple[int, ...] = (128, 128)
    activation: str = "tanh"
    # resources
    env_runners: int = 0
    envs_per_runner: int = 1
    cpus: int | None = None
    address: str | None = None
    # the end
    eval_pairs: int = 100
    resume: bool = False

    def model_config(self) -> dict[str, Any]:
        """The RLModule's model: an MLP encoder for the actor and one for the critic, pi a
        linear head on the actor's (what a dugout checkpoint holds)."""
        return {"fcnet_hiddens": list(self.hidden), "fcnet_activation": self.activation,
                "head_fcnet_hiddens": [], "vf_share_layers": False}

    def folder(self) -> Path:
        return Path(self.out or f"runs/{self.env}-rllib")


def _check(s: RLlibSettings) -> None:
    """Every setting, before Ray starts: a :class:`SetupError` naming the flag."""
    def need(ok: bool, flag: str, what: str, value: Any) -> None:
        if not ok:
            raise SetupError(f"{flag} must be {what}, got {value}")

    if s.env not in env_ids():
        raise SetupError(f"--env: unknown environment {s.env!r}; known: {', '.join(env_ids())}")
    need(s.iterations >= 1, "--iterations", "at least 1", s.iterations)
    need(s.league_size >= 1, "--league-size", "at least 1", s.league_size)
    need(s.snapshot_every >= 1, "--snapshot-every", "at least 1", s.snapshot_every)
    need(0.0 <= s.self_play <= 1.0, "--self-play", "a share of the games, from 0 to 1", s.self_play)
    need(s.batch >= 2, "--batch", "at least 2 env steps", s.batch)
    need(1 <= s.minibatch <= s.batch, "--minibatch", f"from 1 to --batch ({s.batch})", s.minibatch)
    need(s.epochs >= 1, "--epochs", "at least 1", s.epochs)
    need(s.lr > 0, "--lr", "positive", s.lr)
    need(all(h >= 1 for h in s.hidden) and len(s.hidden) >= 1, "--hidden",
         "one or more positive layer sizes", list(s.hidden))
    need(s.env_runners >= 0, "--env-runners", "0 (this process) or more", s.env_runners)
    need(s.envs_per_runner >= 1, "--envs-per-runner", "at least 1", s.envs_per_runner)
    need(s.cpus is None or s.cpus >= 1, "--cpus", "at least 1", s.cpus)
    need(s.eval_pairs >= 0, "--eval-pairs", "0 (none) or more", s.eval_pairs)
    if s.cpus is not None and s.address is not None:
        raise SetupError("--cpus is for the Ray instance started here; a cluster (--address) "
                         "has its own CPUs")
    try:
        check_env_options(s.env, s.env_options, "--env-option")
    except OptionError as error:
        raise SetupError(str(error)) from None


# -- Ray ------------------------------------------------------------------------------------------
def _first_line(error: BaseException) -> str:
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    return lines[0][:300] if lines else type(error).__name__


def _check_reachable(address: str) -> None:
    check_reachable(address, 10.0, SetupError, what="--address")


def _connect(s: RLlibSettings) -> bool:
    """Start or join Ray; True when this run did (and so shuts it down at the end). Without
    ``--address``, a new instance on this machine (``address="local"``: never the cluster
    ``RAY_ADDRESS`` names or one already running here, which a bare ``ray.init()`` joins)."""
    try:
        import ray
    except ImportError as error:
        raise SetupError(f"--algo rllib needs Ray RLlib ({error}): pip install 'dugout-baseball[rllib]', "
                         f"in a venv of its own (scripts/test_rllib.sh makes .venv-rllib)") from None
    if ray.is_initialized():
        return False
    if s.address is None:
        try:
            ray.init(address="local", num_cpus=s.cpus, include_dashboard=False,
                     log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError, OSError) as error:
            raise SetupError(f"cannot start Ray on this machine: {_first_line(error)}") from None
        return True
    _check_reachable(s.address)
    try:
        ray.init(address=s.address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise SetupError(f"--address: cannot connect to the Ray cluster at {s.address}: "
                         f"{_first_line(error)}") from None
    return True


# -- the run ---------------------------------------------------------------------------------------
def _config(s: RLlibSettings):
    from ..integrations.rllib import league_ppo_config
    config = league_ppo_config(
        s.env, league_size=s.league_size, self_play=s.self_play, env_options=s.env_options,
        model_config=s.model_config(), seed=s.seed, train_batch_size_per_learner=s.batch,
        minibatch_size=s.minibatch, num_epochs=s.epochs, lr=s.lr, entropy_coeff=s.entropy,
        gamma=s.gamma)
    config.env_runners(num_env_runners=s.env_runners, num_envs_per_env_runner=s.envs_per_runner)
    config.learners(num_learners=0)
    return config


def _jsonable(s: RLlibSettings) -> dict[str, Any]:
    d = asdict(s)
    d["hidden"] = list(s.hidden)
    d["env_options"] = json.loads(json.dumps(s.env_options, default=str))
    return d


def _meta(s: RLlibSettings, iteration: int, steps: int, out: Path) -> dict[str, Any]:
    return {"env_options": _jsonable(s)["env_options"], "settings": _jsonable(s), "run": str(out),
            "algo": "rllib-ppo-league", "module": "main", "iteration": iteration,
            "timesteps": steps}


def _export(algo, s: RLlibSettings, folder: Path, iteration: int, steps: int, out: Path,
            module_id: str) -> Path:
    from ..integrations.rllib import export_weights, module_weights
    return export_weights(module_weights(algo, module_id), folder, s.env,
                          env_options=s.env_options, model_config=s.model_config(),
                          meta=_meta(s, iteration, steps, out))


#: what a run writes into its folder: one that holds any of them holds a run
_RUN_FILES = ("settings.json", "progress.csv", "rllib", "model", "league")


def _check_out(s: RLlibSettings, out: Path) -> None:
    """A run without ``--resume`` must not overwrite another: a :class:`SetupError` when
    ``out`` already holds one (what :mod:`dugout.train.ppo` does too)."""
    found = [name for name in _RUN_FILES if (out / name).exists()]
    if found:
        raise SetupError(f"--out {out} already holds a run ({', '.join(found)}); pass --resume "
                         f"to continue it or choose another --out")


def _checkpoint(out: Path) -> Path | None:
    """The run's last RLlib checkpoint: ``rllib/`` (or ``rllib.old/``, if a run stopped
    while it swapped a new one in), None when it has none."""
    for name in ("rllib", "rllib.old"):
        if (out / name).is_dir():
            return out / name
    return None


def _check_resume(s: RLlibSettings, out: Path) -> None:
    saved = out / "settings.json"
    if not saved.is_file():
        raise SetupError(f"--resume: {out} holds no RLlib run to resume (no settings.json)")
    if _checkpoint(out) is None:
        raise SetupError(f"--resume: {out} holds no RLlib checkpoint yet (rllib/ is saved at "
                         f"every league snapshot, every --snapshot-every iterations, and the run "
                         f"stopped before its first): remove the folder or choose another --out")
    before = json.loads(saved.read_text())
    for key in ("env", "env_options", "league_size", "hidden", "activation"):
        if before.get(key) != _jsonable(s)[key]:
            raise SetupError(f"--resume: the run in {out} has {key} {before.get(key)!r}, not "
                             f"{_jsonable(s)[key]!r}")


def _save(algo, out: Path) -> None:
    """RLlib's checkpoint into ``out/rllib``; the last one is replaced only once the new
    one is whole (a run killed while saving keeps the last)."""
    final, new, old = out / "rllib", out / "rllib.new", out / "rllib.old"
    shutil.rmtree(new, ignore_errors=True)
    algo.save_to_path(str(new.resolve()))
    if final.is_dir():
        shutil.rmtree(old, ignore_errors=True)
        final.rename(old)
    new.rename(final)
    shutil.rmtree(old, ignore_errors=True)


def _rewind(out: Path, iteration: int) -> int:
    """Forget what a stopped run wrote after its last checkpoint (at ``iteration``): its
    rows of ``progress.csv`` and its league snapshots. Returns the env steps at
    ``iteration`` (from its row; 0 when there is none)."""
    path = out / "progress.csv"
    steps = 0
    if path.is_file():
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        kept = rows[:1] + [r for r in rows[1:] if r and r[0].isdigit() and int(r[0]) <= iteration]
        if len(kept) != len(rows):
            with open(path, "w", newline="") as f:
                csv.writer(f).writerows(kept)
        for row in kept[1:]:
            if int(row[0]) == iteration and len(row) > 1 and row[1].isdigit():
                steps = int(row[1])
    league = out / "league"
    if league.is_dir():
        for folder in league.iterdir():
            if folder.name.isdigit() and int(folder.name) > iteration:
                shutil.rmtree(folder, ignore_errors=True)
    return steps


def _restored_steps(algo) -> int:
    """The env steps the restored algorithm has sampled, from its metrics (0 if absent)."""
    try:
        from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME
        value = algo.metrics.peek((ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME), default=0)
        return int(value or 0)
    except Exception:                         # not in this RLlib's metrics
        return 0


def train_rllib(s: RLlibSettings, log=print) -> Path:
    """Train ``main`` for ``s.iterations`` iterations (in all, with ``--resume``), export it
    and the league snapshots as dugout checkpoints, and return the output folder."""
    _check(s)
    out = s.folder()
    if s.resume:
        _check_resume(s, out)
    else:
        _check_out(s, out)
    owned = _connect(s)
    try:
        out.mkdir(parents=True, exist_ok=True)
        return _train(s, out, log)
    finally:
        if owned:
            import ray
            ray.shutdown()


def _train(s: RLlibSettings, out: Path, log) -> Path:
    from ..integrations.rllib import league_ids, snapshot_to_league
    slots = league_ids(s.league_size)
    algo = _config(s).build_algo()
    try:
        steps = 0
        if s.resume:
            checkpoint = _checkpoint(out)
            algo.restore_from_path(str(checkpoint.resolve()))
            steps = _rewind(out, algo.iteration) or _restored_steps(algo)
            log(f"resumed {out} at iteration {algo.iteration} ({steps:,} env steps)")
        else:
            snapshot_to_league(algo, slots)          # the league starts as main's first weights
            (out / "settings.json").write_text(json.dumps(_jsonable(s), indent=2))
            with open(out / "progress.csv", "w", newline="") as f:
                csv.writer(f).writerow(["iteration", "env_steps", "games", "seconds",
                                        "main_vs_league", "snapshot"])
        rules = f" ({describe_options(s.env_options)})" if s.env_options else ""
        log(f"RLlib league self-play on {s.env}{rules}: main + {s.league_size} league slot(s), "
            f"{s.batch} env steps an iteration, {s.env_runners} remote env runner(s)")
        while algo.iteration < s.iterations:
            started = time.perf_counter()
            result = algo.train()
            runners = result["env_runners"]
            steps = int(runners.get("num_env_steps_sampled_lifetime", 0))
            games = int(runners.get("num_episodes_lifetime", 0))
            vs_league = runners.get("main_vs_league", float("nan"))
            n = algo.iteration
            snapshot = ""
            if n % s.snapshot_every == 0:
                slot = slots[(n // s.snapshot_every - 1) % len(slots)]
                snapshot_to_league(algo, slot)
                _export(algo, s, out / "league" / f"{n:06d}", n, steps, out, "main")
                snapshot = slot
            seconds = time.perf_counter() - started
            with open(out / "progress.csv", "a", newline="") as f:
                csv.writer(f).writerow([n, steps, games, f"{seconds:.2f}", f"{vs_league:.4f}",
                                        snapshot])
            if snapshot and n < s.iterations:
                _save(algo, out)                     # a point --resume can start from
            log(f"iteration {n}: {steps:,} env steps, {games:,} games, {seconds:.1f} s, main's "
                f"return against the league {vs_league:+.3f}"
                + (f"; main copied into {snapshot}" if snapshot else ""))
        model = _export(algo, s, out / "model", algo.iteration, steps, out, "main")
        _save(algo, out)
    finally:
        algo.stop()
    _evaluate(s, model, out, log)
    return out


def _evaluate(s: RLlibSettings, model: Path, out: Path, log) -> None:
    """main (as the dugout checkpoint) against random and the heuristic, seat-swapped pairs."""
    if not s.eval_pairs:
        return
    from ..agents.play import head_to_head
    from ..agents.policy import PolicyAgent
    agent = PolicyAgent.load(model, env_id=s.env)
    scores = {}
    for opponent in ("random", "heuristic"):
        h = head_to_head(s.env, agent, opponent, s.eval_pairs, seed=10_000_000,
                         env_kwargs=s.env_options)
        scores[opponent] = {"score": h.score, "low": h.low, "high": h.high, "pairs": s.eval_pairs}
        log(f"main against {opponent}: score {h.score:.3f} ({h.low:.3f}-{h.high:.3f}) over "
            f"{s.eval_pairs} seat-swapped pairs")
    (out / "eval.json").write_text(json.dumps(scores, indent=2))


# -- the command line: dugout train rllib -----------------------------------------------------------
PROG = "dugout train rllib"


def configure(p: args.Parser) -> None:
    """``dugout train rllib``'s flags (the types and limits are the other trainers' own)."""
    d = RLlibSettings()

    def add(group, flag: str, kind: Any, text: str, default: Any = None, **kw: Any) -> None:
        group.add_argument(flag, type=kind, default=default, **kw,
                           help=flags.help_for(text, kind, default))

    add(p, "--env", args.env_id, "environment id", d.env)
    add(p, "--iterations", flags.count(1, 10**6, "PPO iterations"), "PPO iterations in all",
        d.iterations)
    add(p, "--seed", flags.SEED, "seed of the run", d.seed)
    p.add_argument("--out", type=args.out_dir,
                   help=flags.help_for("output folder", args.out_dir, "runs/<env>-rllib"))
    p.add_argument("--resume", action="store_true",
                   help="continue the run in --out from its last RLlib checkpoint (saved at every "
                        "league snapshot and at the end; your own runs only)")
    g = p.add_argument_group("rules (the env's options)")
    g.add_argument("--teams", nargs=2, metavar=("AWAY", "HOME"), help="the env's teams option")
    g.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE",
                   type=args.env_option,
                   help="an env option, repeatable (VALUE is read as JSON when it parses)")
    g = p.add_argument_group("the league")
    add(g, "--league-size", flags.count(1, 100, "frozen snapshot slots"), "frozen snapshot slots",
        d.league_size)
    add(g, "--snapshot-every", flags.count(1, 10**6, "iterations"),
        "iterations between snapshots of main into the league", d.snapshot_every)
    add(g, "--self-play", flags.SHARE,
        "share of the games main plays against itself (the rest: against the league)", d.self_play)
    g = p.add_argument_group("PPO")
    add(g, "--batch", flags.count(2, 10**8, "env steps an iteration"), "env steps per iteration",
        d.batch)
    add(g, "--minibatch", flags.count(1, 10**8, "env steps a minibatch"),
        "env steps a minibatch, at most --batch", d.minibatch)
    add(g, "--epochs", flags.EPOCHS, "passes over each batch", d.epochs)
    add(g, "--lr", flags.LEARNING_RATE, "learning rate", d.lr)
    add(g, "--entropy", flags.ENTROPY, "entropy bonus", d.entropy)
    add(g, "--hidden", flags.LAYER, f"hidden layer sizes, 1 to {flags.MAX_LAYERS} of them",
        list(d.hidden), nargs="+")
    g = p.add_argument_group("where it runs")
    add(g, "--env-runners", flags.count(0, args.MAX_WORKERS, "remote env runners"),
        "remote env runners playing the games (0: this process)", d.env_runners)
    add(g, "--envs-per-runner", flags.ENVS, "games side by side in each env runner",
        d.envs_per_runner)
    add(g, "--cpus", args.workers, "CPUs of the Ray instance started here (default all)")
    g.add_argument("--address", metavar="ADDR",
                   help="join the Ray cluster at HOST:PORT (ray start --head prints it), "
                        "ray://HOST:PORT or auto")
    add(p, "--eval-pairs", flags.count(0, 10**6, "seat-swapped pairs; 0: none, else 2 or more"),
        "seat-swapped pairs against random and the heuristic at the end (0: none, else 2 or "
        "more)", d.eval_pairs)


def check(ns: argparse.Namespace) -> None:
    """Every flag, checked before Ray is looked for (none of this needs Ray): the settings
    (:func:`_check`), the rules (the env built once with them), the cluster's address (its
    form; whether a cluster answers there is checked when the run starts), and the output
    folder (a new run's holds no run; ``--resume`` needs one of the same env and network).
    Sets ``ns.settings``; writes nothing."""
    from ..integrations.ray_cluster import host_port
    options = env_options_from_flags(ns.env, ns.env_option, ns.teams)   # OptionError names it
    if ns.eval_pairs == 1:
        raise args.UsageError("--eval-pairs", "must be 0 (no evaluation) or at least 2 (an "
                                              "interval needs two pairs), got 1")
    hidden = flags.check_net_arch(ns.hidden, "--hidden")
    if ns.address is not None:
        host_port(ns.address, SetupError, "--address")
    s = RLlibSettings(env=ns.env, env_options=options, iterations=ns.iterations, seed=ns.seed,
                      out="" if ns.out is None else str(ns.out), league_size=ns.league_size,
                      snapshot_every=ns.snapshot_every, self_play=ns.self_play, batch=ns.batch,
                      minibatch=ns.minibatch, epochs=ns.epochs, lr=ns.lr, entropy=ns.entropy,
                      hidden=hidden, env_runners=ns.env_runners,
                      envs_per_runner=ns.envs_per_runner, cpus=ns.cpus, address=ns.address,
                      eval_pairs=ns.eval_pairs, resume=ns.resume)
    _check(s)
    out = flags.check_out(s.folder())
    if s.resume:
        _check_resume(s, out)
    else:
        _check_out(s, out)
    ns.settings = s


def run(ns: argparse.Namespace) -> Path:
    """Start or join Ray (a :class:`SetupError` when it is missing or the cluster does not
    answer: one line, exit status 2) and train."""
    return train_rllib(ns.settings)


def parse(argv: Sequence[str] | None = None) -> RLlibSettings:
    """The checked :class:`RLlibSettings` of ``argv`` (a bad flag: the one-line error and
    exit status 2)."""
    return args.parse(PROG, configure, check, sys.argv[1:] if argv is None else argv,
                      __doc__.split("\n\n")[0])[1].settings


def main(argv: Sequence[str] | None = None) -> Path:
    """``python -m dugout.train --algo rllib ...``: the same as ``dugout train rllib ...``."""
    return args.invoke(PROG, configure, check, run, argv, __doc__.split("\n\n")[0])
