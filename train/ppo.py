"""Train a dugout manager with sb3-contrib's MaskablePPO, against a fixed opponent or by
self-play. Read it top to bottom: settings, environments, opponents, the learning loop
with its evaluation and checkpoints, the end of the run.

    dugout train --env thats_baseball_v0 --timesteps 300000 --opponent self-play
    dugout train --env thats_baseball_v0 --teams my_team.json reds --env-option innings=7
    dugout train --env showdown_v0 --env-option level=basic --teams nya2004 bos2004

(``python -m dugout.train`` is the same command, and ``dugout.train.ppo.main(argv)``.)
Every flag is checked before anything is trained, and a bad one is one line naming it,
exit status 2: each number against its limit (``--help`` shows them), ``--opponent`` a
manager the env knows or ``ppo:PATH``, a checkpoint that loads (``meta.json`` and tensors
only) and takes the env's observations and actions, ``--out`` a folder that can be
written, with no run in it unless ``--resume`` (which needs one of the same env, options,
teacher and shaping).

``--env-option KEY=VALUE`` (repeatable) sets one of the env's options, the rules the
manager learns under (VALUE is read as JSON when it parses: ``innings=7``, ``dh=true``,
``max_innings=null``, ``teams='["sample", "reds"]'``; else as a plain string:
``level=basic``); ``--teams AWAY HOME`` is the ``teams`` option. The env checks them
before anything is trained; ``render_mode``, ``illegal_action`` and ``dice`` are refused.
They are the ``env_options`` of the settings, saved in ``settings.json`` and in every
checkpoint's ``meta.json`` (``env_options``, and ``settings``); the evaluation games
during training are played under them, and ``--resume`` must give the same ones.

``--teacher heuristic`` makes the rulebook heuristic a teacher (:func:`taught_ppo`): each
update, after PPO's epochs, runs one more epoch that raises the log-probability of the
heuristic's choice at the learner's decisions of the rollout (read from the learner's own
observation and view), with a weight falling linearly from ``--teacher-coef`` to 0 at
``--teacher-fraction`` of the run (at the default 1, at its end; below 1, the updates after
that point are PPO's alone; above 1 the weight never reaches 0 in the run: 10 ends it at
0.9 of its start). ``--teacher solver`` teaches That's Baseball's optimal manager or
Bottom of the 9th's equilibrium manager the same way; a ruleset without that manager is
refused. The teacher never plays a move for the learner and the trained network plays
from its observation alone. ``--resume`` keeps the run's teacher, its schedule (the
weight of the run as first started, reaching 0 at ``teacher_fraction`` times the first
total) and its network, writes them into the settings whatever the command line's
defaults, and refuses another ``--teacher`` or ``--shaping``. The teacher's own time is
not in the run's ``env_share``.

A run writes into its output folder (``runs/<env>`` by default)::

    settings.json        the settings of the run
    model/               the latest checkpoint (meta.json + policy.pt, and model.zip for
                         --resume); PolicyAgent.load() it
    checkpoints/<steps>/ every checkpoint, kept
    pool/<steps>/        self-play snapshots the opponents are drawn from (meta.json + policy.pt)
    eval.csv             win rates against random and the heuristic over timesteps
    learning_curve.png   the same, as a plot
    tb/                  TensorBoard logs (SB3's metrics and eval/*)

``--resume`` continues a run from its latest checkpoint up to ``--timesteps``: it
unpickles ``model/model.zip`` (SB3's format, which can run code), so resume only runs you
made. ``PolicyAgent.load`` reads only ``meta.json`` and ``policy.pt`` (tensors), safe from anyone.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..cli import args
from ..envs.core.errors import OptionError
from ..envs.options import check_env_options, describe_options, env_options_from_flags
from . import flags
from .curves import append_eval_row, new_figure, save_curve
from .adapter import FORCED
from .configs import CONFIGS, defaults_for
from .teacher import TEACHERS, check_teacher, taught_ppo, teacher_weight

__all__ = ["Settings", "train", "main", "teacher_weight", "taught_ppo", "check_teacher"]


# -- 1. settings ------------------------------------------------------------------------------
#: the reward shapings
SHAPINGS = ("none", "win-expectancy")
SHAPING_HELP = ("reward shaping: none, or win-expectancy (potential-based, from the value tables; "
                "the best policy is unchanged)")


def _two_player_env(text: str) -> str:
    from .single import SINGLE_AGENT_ENVS
    if text in SINGLE_AGENT_ENVS:
        raise argparse.ArgumentTypeError(f"{text} is a single-agent env: train it with dugout "
                                         f"train challenge")
    return args.env_id(text)


#: ``--env``: a two-manager env of ``dugout.envs.ENV_IDS`` (the Manager Challenge, a
#: single-agent env, is ``dugout train challenge``'s)
TWO_PLAYER_ENV = args.ArgType("environment", _two_player_env,
                              bad=[*args.env_id.bad, "manager_challenge_v0"])


@dataclass
class Settings:
    """A run's settings. Each field's ``metadata`` holds its help and its command-line type
    (:mod:`dugout.train.flags`, with its limit); the command line is made from them."""

    env: str = field(default="thats_baseball_v0", metadata={
        "help": "environment, an id of dugout.envs.ENV_IDS", "type": TWO_PLAYER_ENV})
    total_timesteps: int = field(default=300_000, metadata={
        "help": "learner decisions to train for", "type": flags.TIMESTEPS,
        "flags": ("--timesteps", "--total-timesteps"), "metavar": "N"})
    opponent: str = field(default="self-play", metadata={
        "help": "who plays the other seat: self-play, an agent name (random, heuristic, ...) or "
                "ppo:PATH, a trained manager's checkpoint for the env", "type": args.agent_ref})
    seed: int = field(default=0, metadata={
        "help": "seed of the run (games, network, sampling)", "type": flags.SEED})
    n_envs: int = field(default=4, metadata={"help": "games played side by side", "type": flags.ENVS})
    out: str = field(default="", metadata={
        "help": "output folder", "type": args.out_dir, "shown": "runs/<env>"})
    env_options: dict = field(default_factory=dict, metadata={
        "help": "the env's options (--env-option KEY=VALUE, --teams AWAY HOME)"})
    resume: bool = field(default=False, metadata={"help": "continue the run in --out from its latest checkpoint"})
    # the network and PPO (defaults per ruleset in dugout.train.configs)
    net_arch: tuple[int, ...] = field(default=(64, 64), metadata={
        "help": f"hidden layer sizes of policy and value nets, 1 to {flags.MAX_LAYERS} of them",
        "type": flags.LAYER})
    learning_rate: float = field(default=3e-4, metadata={"help": "Adam learning rate", "type": flags.LEARNING_RATE})
    n_steps: int = field(default=1024, metadata={"help": "steps per env between updates", "type": flags.STEPS})
    batch_size: int = field(default=256, metadata={"help": "minibatch size", "type": flags.BATCH})
    n_epochs: int = field(default=10, metadata={"help": "passes over each rollout", "type": flags.EPOCHS})
    gamma: float = field(default=1.0, metadata={
        "help": "discount (the only reward comes at the end of a game)", "type": flags.GAMMA})
    gae_lambda: float = field(default=0.95, metadata={"help": "GAE lambda", "type": flags.GAE_LAMBDA})
    ent_coef: float = field(default=0.01, metadata={"help": "entropy bonus", "type": flags.ENTROPY})
    shaping: str = field(default="none", metadata={"help": SHAPING_HELP, "choices": SHAPINGS})
    forced: str = field(default="play", metadata={
        "help": "the learner's single-option decisions: play (made for it, not learned from: "
                "MLB Showdown's card windows where it can only pass) or ask (shown like any "
                "other); the opponent sees the same either way", "choices": FORCED})
    teacher: str = field(default="none", metadata={
        "help": "none, heuristic or solver: after each update's PPO epochs, one epoch also raises "
                "the log-probability of that manager's choice at the learner's decisions (solver: "
                "That's Baseball's optimal manager, Bottom of the 9th's equilibrium manager), "
                "with a weight that falls linearly to 0 at teacher_fraction of the run",
        "choices": TEACHERS})
    teacher_coef: float = field(default=1.0, metadata={
        "help": flags.TEACHER_COEF_HELP, "type": flags.TEACHER_COEF})
    teacher_fraction: float = field(default=1.0, metadata={
        "help": flags.TEACHER_FRACTION_HELP, "type": flags.TEACHER_FRACTION})
    # self-play
    pool_every: int = field(default=25_000, metadata={
        "help": "timesteps between snapshots added to the self-play pool", "type": flags.TIMESTEPS})
    pool_size: int = field(default=10, metadata={
        "help": "most recent snapshots opponents are drawn from", "type": flags.POOL_SIZE})
    p_random: float = field(default=0.1, metadata={
        "help": "self-play: chance the opponent of a game is random", "type": flags.SHARE})
    p_heuristic: float = field(default=0.3, metadata={
        "help": "self-play: chance it is the rulebook heuristic (the rest: the pool; with "
                "--p-random at most 1)", "type": flags.SHARE})
    # evaluation and checkpoints
    eval_every: int = field(default=25_000, metadata={
        "help": "timesteps between evaluations and checkpoints", "type": flags.TIMESTEPS})
    eval_pairs: int = field(default=100, metadata={
        "help": "seat-swapped pairs of games per evaluation and opponent", "type": flags.EVAL_PAIRS})
    progress: bool = field(default=True, metadata={"help": "show a progress bar"})

    @classmethod
    def for_env(cls, env: str, **overrides: Any) -> Settings:
        """The ruleset's defaults (:mod:`dugout.train.configs`), then ``overrides``."""
        return cls(env=env, **{**defaults_for(env), **overrides})

    def __post_init__(self) -> None:
        from ..agents.registry import MANAGER_MODULES
        if self.env not in MANAGER_MODULES:
            raise ValueError(f"unknown environment {self.env!r}; known: {', '.join(MANAGER_MODULES)}")
        for name in ("total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "pool_every",
                     "pool_size", "eval_every", "eval_pairs"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.shaping not in SHAPINGS:
            raise ValueError(f"shaping must be none or win-expectancy, got {self.shaping!r}")
        if self.forced not in FORCED:
            raise ValueError(f"forced must be ask or play, got {self.forced!r}")
        check_teacher(self.teacher, self.teacher_fraction, self.teacher_coef)
        if self.teacher != "none":
            from ..agents.registry import agent_names
            if self.teacher not in agent_names(self.env):
                raise ValueError(f"teacher {self.teacher!r}: {self.env} has no such manager (the "
                                 f"solver teaches thats_baseball_v0 and bottom_ninth_v0 only)")
        if not (0 <= self.p_random and 0 <= self.p_heuristic and self.p_random + self.p_heuristic <= 1):
            raise ValueError("p_random and p_heuristic must be non-negative and add up to at most 1")
        if self.opponent != "self-play":
            from ..agents.ref import AgentRef
            from ..agents.registry import agent_names
            ref = AgentRef.parse(self.opponent)            # a checkpoint is loaded by make_envs
            if not ref.is_checkpoint and ref.name not in agent_names(self.env):
                raise ValueError(f"opponent {ref.name!r}: {self.env} has no such manager; known: "
                                 f"self-play, {', '.join(agent_names(self.env))}, or ppo:PATH")
        self.net_arch = tuple(int(n) for n in self.net_arch)
        if not self.net_arch or min(self.net_arch) < 1:
            raise ValueError(f"net_arch must be one or more positive layer sizes, got {self.net_arch}")
        if not isinstance(self.env_options, dict):
            raise ValueError(f"env_options must be a dict of the env's options, got {self.env_options!r}")
        self.env_options = dict(self.env_options)
        try:                                                           # the env built once
            check_env_options(self.env, self.env_options, "env_options")
        except OptionError as error:
            raise ValueError(str(error)) from None
        if not self.out:
            self.out = str(Path("runs") / self.env)


# -- 2. opponents -------------------------------------------------------------------------------
class OpponentMix:
    """Self-play opponents: random with ``p_random``, the heuristic with ``p_heuristic``,
    otherwise one of the last ``pool_size`` snapshots in ``pool`` (sampling its policy),
    or the heuristic while the pool is empty."""

    def __init__(self, env_id: str, pool: Path, p_random: float, p_heuristic: float, pool_size: int):
        self.env_id, self.pool = env_id, pool
        self.p_random, self.p_heuristic, self.pool_size = p_random, p_heuristic, pool_size
        self._loaded: dict[str, Any] = {}

    def __call__(self, rng: np.random.Generator):
        from ..agents import make_agent
        from ..agents.policy import META, WEIGHTS, PolicyAgent
        u = rng.random()
        if u < self.p_random:
            return make_agent(self.env_id, "random", int(rng.integers(2**31)))
        snapshots = sorted(p for p in self.pool.glob(f"*/{META}") if (p.parent / WEIGHTS).is_file())
        snapshots = snapshots[-self.pool_size:]
        if u < self.p_random + self.p_heuristic or not snapshots:
            return make_agent(self.env_id, "heuristic")
        path = str(snapshots[int(rng.integers(len(snapshots)))].parent)
        if path not in self._loaded:
            self._loaded[path] = PolicyAgent.load(path, self.env_id, deterministic=False)
        return self._loaded[path]


# -- 3. environments -----------------------------------------------------------------------------
class TimedEnv:
    """Adds up the seconds spent inside the env (and the opponent it runs), and in evaluations."""
    seconds = 0.0
    eval_seconds = 0.0


def make_envs(s: Settings, pool: Path, first_episode: int = 0):
    from stable_baselines3.common.vec_env import DummyVecEnv
    from ..agents import make_agent
    from ..agents.ref import AgentRef
    from .adapter import SingleAgentEnv

    def one(i: int):
        def build():
            if s.opponent == "self-play":
                opponent = OpponentMix(s.env, pool, s.p_random, s.p_heuristic, s.pool_size)
            elif AgentRef.parse(s.opponent).is_checkpoint:      # loaded once, not every game
                opponent = make_agent(s.env, s.opponent)
            else:
                opponent = s.opponent
            env = SingleAgentEnv(s.env, opponent=opponent, seat="alternate", seed=s.seed * 1000 + i,
                                 env_kwargs=s.env_options, shaping=s.shaping,
                                 teacher=None if s.teacher == "none" else s.teacher,
                                 forced=s.forced)
            env._episode = first_episode
            step, reset = env.step, env.reset

            def timed_step(action):
                t = time.perf_counter()
                try:
                    return step(action)
                finally:
                    TimedEnv.seconds += time.perf_counter() - t

            def timed_reset(**kw):
                t = time.perf_counter()
                try:
                    return reset(**kw)
                finally:
                    TimedEnv.seconds += time.perf_counter() - t
            env.step, env.reset = timed_step, timed_reset
            return env
        return build
    return DummyVecEnv([one(i) for i in range(s.n_envs)])


# -- 3b. the teacher: dugout.train.teacher (TEACHERS, check_teacher, teacher_weight, taught_ppo)


# -- 4. evaluation, checkpoints and the self-play pool during learning -------------------------
def evaluate_policy(model, s: Settings, opponent: str, seed: int) -> tuple[float, float, float]:
    """Win rate (and 95% interval) of the deterministic policy in seat-swapped pairs."""
    from ..agents.play import head_to_head
    from ..agents.policy import PolicyAgent
    agent = PolicyAgent.from_model(model, {"env_id": s.env}, name="learner")
    r = head_to_head(s.env, agent, opponent, pairs=s.eval_pairs, seed=seed, env_kwargs=s.env_options)
    return r.score, r.low, r.high


def make_callback(s: Settings, out: Path, started: float, start_steps: int):
    from stable_baselines3.common.callbacks import BaseCallback
    from .checkpoint import save_checkpoint, save_run_checkpoint

    class Progress(BaseCallback):
        """Every ``eval_every`` steps: evaluate, log, checkpoint; every ``pool_every``: snapshot."""

        def __init__(self):
            super().__init__()
            self.next_eval = (start_steps // s.eval_every + 1) * s.eval_every
            self.next_pool = (start_steps // s.pool_every + 1) * s.pool_every

        def _on_step(self) -> bool:
            n = self.num_timesteps
            if s.opponent == "self-play" and n >= self.next_pool:
                save_checkpoint(self.model, out / "pool" / f"{n:010d}",
                                {"env_id": s.env, "env_options": s.env_options, "run": str(out)},
                                resumable=False)       # opponents need only the policy
                self.next_pool += s.pool_every
            # the run's last step comes before its last update: the end's checkpoint has it
            if s.total_timesteps > n >= self.next_eval:
                checkpoint(self.model, n)
                self.next_eval += s.eval_every
            return True

        def _on_training_end(self) -> None:
            checkpoint(self.model, self.num_timesteps)

    def checkpoint(model, n: int) -> None:
        t = time.perf_counter()
        rates = {}
        for k, opp in enumerate(("random", "heuristic")):
            rates[opp] = evaluate_policy(model, s, opp, seed=10_000_000 + k * 100_000)
            model.logger.record(f"eval/win_rate_vs_{opp}", rates[opp][0])
        TimedEnv.eval_seconds += time.perf_counter() - t
        env_share = TimedEnv.seconds / max(1e-9, time.perf_counter() - started - TimedEnv.eval_seconds)
        model.logger.record("time/env_share", env_share)
        model.logger.dump(n)
        meta = {"env_id": s.env, "env_options": _jsonable(s)["env_options"], "run": str(out),
                "settings": _jsonable(s)}
        save_run_checkpoint(model, out, n, meta)
        append_eval_row(out, ["timesteps", "wall_seconds", "env_share", "vs_random", "vs_random_low",
                              "vs_random_high", "vs_heuristic", "vs_heuristic_low", "vs_heuristic_high"],
                        [n, round(time.perf_counter() - started, 1), round(env_share, 3),
                         *(round(x, 4) for x in rates["random"]), *(round(x, 4) for x in rates["heuristic"])])
        print(f"[{n:>9} steps] vs random {100 * rates['random'][0]:.1f}%, vs heuristic "
              f"{100 * rates['heuristic'][0]:.1f}% ({100 * rates['heuristic'][1]:.1f}-"
              f"{100 * rates['heuristic'][2]:.1f}%)", file=sys.stderr, flush=True)

    return Progress()


def _jsonable(s: Settings) -> dict[str, Any]:
    d = dataclasses.asdict(s)
    d["net_arch"] = list(s.net_arch)
    d["env_options"] = json.loads(json.dumps(s.env_options, default=str))
    return d


def plot_learning_curve(out: Path) -> Path | None:
    """learning_curve.png from eval.csv (needs matplotlib)."""
    figure = new_figure()
    if figure is None:
        return None
    fig, ax = figure
    rows = list(csv.DictReader(open(out / "eval.csv")))
    steps = [int(r["timesteps"]) for r in rows]
    for opp, colour in (("heuristic", "tab:blue"), ("random", "tab:grey")):
        mid = [100 * float(r[f"vs_{opp}"]) for r in rows]
        lo = [100 * float(r[f"vs_{opp}_low"]) for r in rows]
        hi = [100 * float(r[f"vs_{opp}_high"]) for r in rows]
        ax.plot(steps, mid, marker="o", color=colour, label=f"vs {opp}")
        ax.fill_between(steps, lo, hi, color=colour, alpha=0.2)
    ax.axhline(50, color="black", lw=0.8, ls="--")
    ax.set_ylim(0, 100)
    env = json.loads((out / "settings.json").read_text()).get("env", out.name)
    return save_curve(fig, ax, out, xlabel="timesteps (learner decisions)",
                      ylabel="win rate, % (95% interval)",
                      title=f"{env}: the trained manager in seat-swapped games ({out.name})")


# -- 5. the run ----------------------------------------------------------------------------------
def check_run_folder(s: Settings) -> Path:
    """The run's output folder, checked before anything is trained (by the command line's
    ``check`` and by :func:`train`): a new run's must not hold a run already; ``--resume``
    needs one made by this trainer on the same env under the same options, teacher and
    shaping (a ``ValueError`` naming the flag otherwise). Reads ``meta.json`` only."""
    from ..agents.policy import MODEL, CheckpointError, read_meta
    out = Path(s.out)
    if not s.resume:
        if (out / "model").exists():
            raise ValueError(f"--out {out} already holds a run; pass --resume to continue it or "
                             f"choose another --out")
        return out
    try:
        meta = read_meta(out / "model", policy=False)      # model.zip holds the architecture
    except CheckpointError as error:
        raise ValueError(f"--resume: {out} holds no run to resume ({error})") from None
    if not (out / "model" / MODEL).is_file():
        raise ValueError(f"--resume: {out / 'model'} has no {MODEL} (SB3's save, which --resume "
                         f"continues from): it is not a run of this trainer")
    if meta["env_id"] != s.env:
        raise ValueError(f"--resume: {out} holds a run on {meta['env_id']}, not {s.env}")
    before = meta.get("env_options", (meta.get("settings") or {}).get("env_options")) or {}
    if before != _jsonable(s)["env_options"]:
        raise ValueError(f"--resume: {out} holds a run under {describe_options(before)}; --resume "
                         f"it with the same --env-option/--teams (got "
                         f"{describe_options(s.env_options)})")
    saved = meta.get("settings") or {}
    for name in ("teacher", "shaping"):        # what the run learns from may not change midway
        was = saved.get(name, "none")
        if was != getattr(s, name):
            raise ValueError(f"--resume: {out} holds a run trained with --{name} {was}; --resume "
                             f"it with --{name} {was} (got {getattr(s, name)})")
    return out


def train(s: Settings) -> Path:
    """Train as ``s`` says; returns the output folder."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import set_random_seed

    out = check_run_folder(s)
    out.mkdir(parents=True, exist_ok=True)
    (out / "settings.json").write_text(json.dumps(_jsonable(s), indent=2))
    torch.set_num_threads(1)                  # small networks: one thread is fastest and repeatable
    set_random_seed(s.seed)
    started = time.perf_counter()
    TimedEnv.seconds = TimedEnv.eval_seconds = 0.0

    algo = MaskablePPO if s.teacher == "none" else taught_ppo()
    if s.resume:
        model = algo.load(str(out / "model" / "model.zip"), device="cpu")
        # the run's network and teacher schedule are the model's, whatever today's defaults
        # say: the settings written are what the run trains with
        s.net_arch = tuple(model.policy_kwargs.get("net_arch", s.net_arch))
        if s.teacher != "none":
            s.teacher_coef, s.teacher_fraction = model.teacher_coef, model.teacher_fraction
        (out / "settings.json").write_text(json.dumps(_jsonable(s), indent=2))
        # later episodes get new game seeds: continue the episode count past the first run's
        model.set_env(make_envs(s, out / "pool", first_episode=1_000_000 + model.num_timesteps))
        model.tensorboard_log = str(out / "tb")
    else:
        model = algo(
            "MlpPolicy", make_envs(s, out / "pool"), learning_rate=s.learning_rate, n_steps=s.n_steps,
            batch_size=s.batch_size, n_epochs=s.n_epochs, gamma=s.gamma, gae_lambda=s.gae_lambda,
            ent_coef=s.ent_coef, policy_kwargs={"net_arch": list(s.net_arch)}, seed=s.seed,
            device="cpu", tensorboard_log=str(out / "tb"), verbose=0)
    if s.teacher != "none" and not s.resume:
        # the teacher's schedule is the run's as first started: a resumed run keeps it (its
        # weight reaches 0 at teacher_fraction x the first total; past that, PPO alone)
        model.teacher_coef, model.teacher_fraction = s.teacher_coef, s.teacher_fraction
        model.teacher_total = s.total_timesteps
    remaining = s.total_timesteps - model.num_timesteps
    if remaining > 0:
        model.learn(total_timesteps=remaining,
                    callback=make_callback(s, out, started, start_steps=model.num_timesteps),
                    reset_num_timesteps=not s.resume, progress_bar=s.progress, tb_log_name="ppo")
    seconds = time.perf_counter() - started
    learning = max(seconds - TimedEnv.eval_seconds, 1e-9)
    summary = {"timesteps": int(model.num_timesteps), "wall_seconds": round(seconds, 1),
               "eval_seconds": round(TimedEnv.eval_seconds, 1),
               "timesteps_per_second": round(max(remaining, 0) / learning, 1),
               "env_share": round(TimedEnv.seconds / learning, 3)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    plot_learning_curve(out)
    print(f"trained {summary['timesteps']} timesteps in {seconds:.0f} s, {TimedEnv.eval_seconds:.0f} s "
          f"of them evaluating ({summary['timesteps_per_second']:.0f} timesteps/s while learning, the "
          f"env {100 * summary['env_share']:.0f}% of that); checkpoint in {out / 'model'}", file=sys.stderr)
    return out


# -- 6. the command line: dugout train -------------------------------------------------------------
PROG = "dugout train"


def _defaults_by_ruleset(name: str, default: Any) -> dict[str, Any] | None:
    """A setting's default on each ruleset, where some ruleset's configuration sets it."""
    if not any(name in config for config in CONFIGS.values()):
        return None
    from ..envs import ENV_IDS
    return {env: defaults_for(env).get(name, default) for env in ENV_IDS}


def configure(parser: args.Parser) -> None:
    """``dugout train``'s flags, one per field of :class:`Settings`, each typed by its
    ``metadata``. The ruleset's defaults (:mod:`dugout.train.configs`) are filled in by
    :func:`check`, once ``--env`` is known: a flag not given is None here."""
    for f in dataclasses.fields(Settings):
        if f.name == "env_options":
            g = parser.add_argument_group("rules (the env's options)")
            g.add_argument("--teams", nargs=2, metavar=("AWAY", "HOME"),
                           help="the env's teams option: two team names or files (That's Baseball, "
                                "Showdown)")
            g.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE",
                           type=args.env_option,
                           help="an env option, repeatable (e.g. level=basic, innings=7, dh=true); "
                                "VALUE is read as JSON when it parses, else as a plain string")
            continue
        names = f.metadata.get("flags", ("--" + f.name.replace("_", "-"),))
        default = f.default if f.default is not dataclasses.MISSING else None
        kind = f.metadata.get("type")
        help_ = flags.help_for(f.metadata["help"], kind, f.metadata.get("shown", default),
                               _defaults_by_ruleset(f.name, default))
        if f.type in ("bool", bool):
            parser.add_argument(*names, dest=f.name, action=argparse.BooleanOptionalAction,
                                default=default, help=help_)
        elif "choices" in f.metadata:
            parser.add_argument(*names, dest=f.name, choices=f.metadata["choices"], help=help_)
        else:
            parser.add_argument(*names, dest=f.name, type=kind, help=help_,
                                default=default if f.name == "env" else None,
                                metavar=f.metadata.get("metavar"),
                                nargs="+" if f.name == "net_arch" else None)


def check(ns: argparse.Namespace) -> None:
    """Every flag of ``dugout train``, checked before anything is trained: the rules (the env
    built once with them), the opponent (a manager the env knows, or a checkpoint that loads
    and fits it), flags that must agree, and the output folder (a new run's must not hold
    one; ``--resume`` needs one of the same env, options, teacher and shaping). Sets
    ``ns.settings``; writes nothing."""
    from ..agents.registry import agent_names
    env = ns.env
    options = env_options_from_flags(env, ns.env_option, ns.teams)     # OptionError names the flag
    given = {f.name: getattr(ns, f.name) for f in dataclasses.fields(Settings)
             if f.name not in ("env", "env_options") and getattr(ns, f.name, None) is not None}
    merged = {**{f.name: f.default for f in dataclasses.fields(Settings)
                 if f.default is not dataclasses.MISSING}, **defaults_for(env), **given}
    if "net_arch" in given:
        given["net_arch"] = flags.check_net_arch(given["net_arch"])
    flags.check_rollout(merged["n_steps"], merged["n_envs"])
    if merged["p_random"] + merged["p_heuristic"] > 1:
        raise args.UsageError("--p-random", f"--p-random ({merged['p_random']:g}) and --p-heuristic "
                                            f"({merged['p_heuristic']:g}) add up to more than 1")
    if merged["teacher"] != "none" and merged["teacher"] not in agent_names(env):
        raise args.UsageError("--teacher", f"{env} has no manager {merged['teacher']!r} to teach "
                                           f"(the solver teaches thats_baseball_v0 and "
                                           f"bottom_ninth_v0 only)")
    if "opponent" in given:
        given["opponent"] = flags.check_opponent(env, given["opponent"],
                                                 ["self-play", *agent_names(env)], "--opponent",
                                                 options)
    if "out" in given:
        given["out"] = str(given["out"])
    settings = Settings.for_env(env, env_options=options, **given)
    flags.check_out(settings.out)
    check_run_folder(settings)
    ns.settings = settings


def run(ns: argparse.Namespace) -> Path:
    """Train as the checked flags say; the output folder."""
    return train(ns.settings)


def parse(argv: list[str] | None = None) -> Settings:
    """The checked :class:`Settings` of ``dugout train``'s flags ``argv`` (a bad one: the
    one-line error and exit status 2)."""
    return args.parse(PROG, configure, check, sys.argv[1:] if argv is None else argv,
                      __doc__)[1].settings


def _env_of(argv: list[str]) -> str | None:
    pre = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    pre.add_argument("--env")
    return pre.parse_known_args(argv)[0].env


def main(argv: list[str] | None = None) -> Path:
    """``python -m dugout.train``: ``dugout train``, or ``dugout train challenge`` for a
    single-agent env (``--env manager_challenge_v0``)."""
    from .single import SINGLE_AGENT_ENVS, main as main_single
    argv = list(sys.argv[1:] if argv is None else argv)
    if _env_of(argv) in SINGLE_AGENT_ENVS:
        return main_single(argv)                        # dugout.train.single
    return args.invoke(PROG, configure, check, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
