"""Train a manager for a single-agent env (the Manager Challenge) with sb3-contrib's
MaskablePPO: no opponent, the env's own reward. ``python -m dugout.train --env
manager_challenge_v0 ...`` comes here (the two-player rulesets go to :mod:`.ppo`).

    dugout train challenge --timesteps 200000
    dugout train challenge --env-option level=veteran --env-option reward=win
    dugout train challenge --teacher heuristic --teacher-coef 10 --teacher-fraction 10

(``python -m dugout.train --env manager_challenge_v0 ...`` is the same command.) Every flag
is checked before anything is trained, a bad one is one line naming it, exit status 2:
each number against its limit (``--help`` shows them), the options by building the env,
``--out`` a folder that can be written and holds no run.

``--teacher heuristic`` makes the challenge's rulebook heuristic a teacher, as in the
two-player trainer (:func:`dugout.train.teacher.taught_ppo`): at each decision of the rollout
the heuristic's choice from the same observation and view is kept (:class:`Taught`), and
each update ends with an epoch that lowers ``-weight * log pi(heuristic's choice)``, the
weight falling linearly from ``--teacher-coef`` to 0 at ``--teacher-fraction`` of the run.
The teacher never plays: the campaigns are the policy's.

A run writes into ``--out`` (``runs/manager_challenge_v0`` by default): ``settings.json``,
``model/`` (meta.json + policy.pt + model.zip; ``PolicyAgent.load`` it), ``checkpoints/<steps>/``,
``eval.csv`` (every ``--eval-every`` timesteps: the greedy policy's mean Manager Points and
wins over ``--eval-campaigns`` fixed-seed campaigns, beside the heuristic's and random's on
the same seeds, measured once) and ``learning_curve.png``.

Measured defaults (seed 0, 4 envs, 128x128, this machine's 2 cores): 500,000 timesteps take
about 12 minutes; the greedy policy's mean Manager Points over 200 campaigns climb from 17.4
(100,000 timesteps) to 19.6 (500,000), still slowly rising, against the heuristic's 29.1 and
random's 14.9 on the same campaigns; over 10,000 campaigns the 500,000-timestep policy makes
19.2 MP (2.47 wins) where the heuristic makes 29.1 (3.61) and random 14.1 (1.82).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym

from ..cli import args
from ..envs.core.errors import DugoutError
from . import flags
from .curves import append_eval_row, new_figure, save_curve

__all__ = ["SingleSettings", "train_single", "main", "SINGLE_AGENT_ENVS", "evaluate_manager"]

#: The largest ``--seed``: the env of stream ``i`` is reset with ``seed * 1000 + i``, and the
#: Manager Challenge takes seeds up to 2**32 - 1.
MAX_SEED = (args.MAX_SEED - (flags.MAX_ENVS - 1)) // 1000
#: single-agent env id -> the Gymnasium class path
SINGLE_AGENT_ENVS = {"manager_challenge_v0": "dugout.envs.bottom_ninth.challenge:ManagerChallengeEnv"}
_RESERVED = ("render_mode", "illegal_action", "dice")
#: the single-agent trainer's teachers (the env's rulebook heuristic, or none)
TEACHERS = ("none", "heuristic")


@dataclass
class SingleSettings:
    env: str = "manager_challenge_v0"
    total_timesteps: int = 500_000
    seed: int = 0
    n_envs: int = 4
    out: str = ""
    env_options: dict = field(default_factory=dict)
    net_arch: tuple[int, ...] = (128, 128)
    learning_rate: float = 3e-4
    n_steps: int = 1024
    batch_size: int = 256
    n_epochs: int = 10
    gamma: float = 1.0
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    eval_every: int = 25_000
    eval_campaigns: int = 200
    teacher: str = "none"
    teacher_coef: float = 1.0
    teacher_fraction: float = 1.0
    progress: bool = True

    def __post_init__(self) -> None:
        if self.env not in SINGLE_AGENT_ENVS:
            raise ValueError(f"unknown single-agent environment {self.env!r}; known: {', '.join(SINGLE_AGENT_ENVS)}")
        for name in ("total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "eval_every",
                     "eval_campaigns"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.teacher not in TEACHERS:
            raise ValueError(f"teacher must be one of {', '.join(TEACHERS)}, got {self.teacher!r}")
        from .teacher import check_teacher
        check_teacher("heuristic", self.teacher_fraction, self.teacher_coef)
        for key in self.env_options:
            if key in _RESERVED:
                raise ValueError(f"env option {key!r} cannot be given for training")
        make_env(self)                       # the options checked before anything is trained
        self.net_arch = tuple(int(n) for n in self.net_arch)
        if not self.out:
            self.out = str(Path("runs") / self.env)


def _build(env_id: str, env_options: dict[str, Any]):
    import importlib
    module, name = SINGLE_AGENT_ENVS[env_id].split(":")
    return getattr(importlib.import_module(module), name)(**env_options)


def make_env(s: SingleSettings):
    return _build(s.env, s.env_options)


class Taught(gym.Wrapper):
    """A single-agent env with its teacher beside it: :meth:`teacher_action` is the
    teacher's choice for the observation the policy is about to act on (what
    :func:`dugout.train.teacher.taught_ppo` records), from the manager's own observation and
    view; -1 once the campaign is over. The teacher never plays a move."""

    def __init__(self, env: gym.Env, teacher) -> None:
        super().__init__(env)
        self.teacher = teacher
        self._last: tuple[Any, dict] | None = None
        self._over = False

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self.teacher.reset(kwargs.get("seed"))
        self._last, self._over = (obs, info), False
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._last, self._over = (obs, info), terminated or truncated
        return obs, reward, terminated, truncated, info

    def teacher_action(self) -> int:
        if self._last is None:
            raise RuntimeError("teacher_action() before reset()")
        if self._over:
            return -1
        obs, info = self._last
        view = self.env.unwrapped.view() if getattr(self.teacher, "needs_view", False) else None
        return int(self.teacher.act({"observation": obs, "action_mask": info["action_mask"]}, view))


def evaluate_manager(s: SingleSettings, agent, campaigns: int, seed: int = 10_000_000) -> dict[str, float]:
    """Mean Manager Points (and its standard error), wins and the share of kept jobs (a true
    victory or better) of ``agent`` over ``campaigns`` campaigns seeded ``seed``, ``seed+1``, ..."""
    from ..agents.manager_challenge import play_campaign
    env = make_env(s)
    rows = [play_campaign(env, agent, seed + k) for k in range(campaigns)]
    mp = [r["mp"] for r in rows]
    mean = sum(mp) / len(mp)
    sd = math.sqrt(sum((x - mean) ** 2 for x in mp) / max(len(mp) - 1, 1))
    return {"mp": mean, "mp_se": sd / math.sqrt(len(mp)), "wins": sum(r["wins"] for r in rows) / len(rows),
            "kept": sum(r["band"] in ("true_victory", "carried_off") for r in rows) / len(rows)}


def train_single(s: SingleSettings) -> Path:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.utils import set_random_seed
    from stable_baselines3.common.vec_env import DummyVecEnv

    from ..agents.manager_challenge import ChallengeHeuristic, ChallengeRandom
    from ..agents.policy import PolicyAgent
    from .checkpoint import save_run_checkpoint

    out = Path(s.out)
    if (out / "model").exists():
        raise ValueError(f"{out} already holds a run; choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    settings = {**asdict(s), "net_arch": list(s.net_arch)}
    (out / "settings.json").write_text(json.dumps(settings, indent=2))
    torch.set_num_threads(1)
    set_random_seed(s.seed)
    started = time.perf_counter()
    baselines = {name: evaluate_manager(s, agent, s.eval_campaigns)
                 for name, agent in (("heuristic", ChallengeHeuristic()), ("random", ChallengeRandom()))}
    (out / "baselines.json").write_text(json.dumps(baselines, indent=2))

    def one(i: int):
        def build():
            env = Monitor(make_env(s))
            if s.teacher != "none":
                env = Taught(env, ChallengeHeuristic())
            env.reset(seed=s.seed * 1000 + i)
            return env
        return build

    vec = DummyVecEnv([one(i) for i in range(s.n_envs)])
    algo = MaskablePPO
    if s.teacher != "none":
        from .teacher import taught_ppo
        algo = taught_ppo()
    model = algo("MlpPolicy", vec, learning_rate=s.learning_rate, n_steps=s.n_steps,
                 batch_size=s.batch_size, n_epochs=s.n_epochs, gamma=s.gamma,
                 gae_lambda=s.gae_lambda, ent_coef=s.ent_coef,
                 policy_kwargs={"net_arch": list(s.net_arch)}, seed=s.seed, device="cpu", verbose=0)
    if s.teacher != "none":
        model.teacher_coef, model.teacher_fraction = s.teacher_coef, s.teacher_fraction
        model.teacher_total = s.total_timesteps
    meta = {"env_id": s.env, "env_options": s.env_options, "run": str(out), "settings": settings,
            "trainer": "challenge"}

    def checkpoint(n: int) -> None:
        agent = PolicyAgent.from_model(model, {"env_id": s.env}, name="learner")
        r = evaluate_manager(s, agent, s.eval_campaigns)
        save_run_checkpoint(model, out, n, meta)
        append_eval_row(out, ["timesteps", "wall_seconds", "mp", "mp_se", "wins", "kept", "heuristic_mp",
                              "random_mp"],
                        [n, round(time.perf_counter() - started, 1), round(r["mp"], 3), round(r["mp_se"], 3),
                         round(r["wins"], 3), round(r["kept"], 3), round(baselines["heuristic"]["mp"], 3),
                         round(baselines["random"]["mp"], 3)])
        print(f"[{n:>9} steps] {r['mp']:.1f} MP (+-{1.96 * r['mp_se']:.1f}), {r['wins']:.2f} wins; heuristic "
              f"{baselines['heuristic']['mp']:.1f}, random {baselines['random']['mp']:.1f}", file=sys.stderr, flush=True)

    class Progress(BaseCallback):
        def __init__(self):
            super().__init__()
            self.next_eval = s.eval_every

        def _on_step(self) -> bool:
            # the run's last step is followed by its last update: the end's checkpoint has it
            if s.total_timesteps > self.num_timesteps >= self.next_eval:
                checkpoint(self.num_timesteps)
                self.next_eval += s.eval_every
            return True

        def _on_training_end(self) -> None:
            checkpoint(self.num_timesteps)

    model.learn(total_timesteps=s.total_timesteps, callback=Progress(), progress_bar=s.progress)
    plot_learning_curve(out)
    print(f"trained {model.num_timesteps} timesteps in {time.perf_counter() - started:.0f} s; "
          f"checkpoint in {out / 'model'}", file=sys.stderr)
    return out


def plot_learning_curve(out: Path) -> Path | None:
    """learning_curve.png from eval.csv: mean Manager Points with its 95% interval, and the
    heuristic's and random's on the same campaigns."""
    rows = list(csv.DictReader(open(out / "eval.csv")))
    figure = new_figure() if rows else None
    if figure is None:
        return None
    fig, ax = figure
    steps = [int(r["timesteps"]) for r in rows]
    mp = [float(r["mp"]) for r in rows]
    half = [1.96 * float(r["mp_se"]) for r in rows]
    ax.plot(steps, mp, marker="o", color="tab:blue", label="trained (greedy)")
    ax.fill_between(steps, [m - h for m, h in zip(mp, half)], [m + h for m, h in zip(mp, half)],
                    color="tab:blue", alpha=0.2)
    levels = []
    for key, colour, label in (("heuristic_mp", "tab:green", "heuristic"), ("random_mp", "tab:grey", "random")):
        levels.append(float(rows[0][key]))
        ax.axhline(levels[-1], color=colour, ls="--", label=label)
    low = min(levels + [m - h for m, h in zip(mp, half)])
    high = max(levels + [m + h for m, h in zip(mp, half)])
    ax.set_ylim(low - 0.05 * (high - low) - 0.5, high + 0.05 * (high - low) + 0.5)
    return save_curve(fig, ax, out, xlabel="timesteps (decisions)",
                      ylabel="mean Manager Points per campaign",
                      title=f"{out.name}: Manager Challenge campaigns")


# -- the command line: dugout train challenge ------------------------------------------------------
PROG = "dugout train challenge"

#: each setting's flag: (type, help); the types and limits are the other trainers' own
_FLAGS: dict[str, tuple[Any, str]] = {
    "total_timesteps": (flags.TIMESTEPS, "decisions to train for"),
    "seed": (flags.count(0, MAX_SEED, "a seed: campaign stream i starts at seed x 1000 + i"),
             "seed of the run (campaigns, network, sampling)"),
    "n_envs": (flags.ENVS, "campaigns played side by side"),
    "n_steps": (flags.STEPS, "steps per env between updates"),
    "batch_size": (flags.BATCH, "minibatch size"),
    "n_epochs": (flags.EPOCHS, "passes over each rollout"),
    "eval_every": (flags.TIMESTEPS, "timesteps between evaluations and checkpoints"),
    "eval_campaigns": (flags.count(1, 10**6, "campaigns"),
                       "fixed-seed campaigns per evaluation"),
    "learning_rate": (flags.LEARNING_RATE, "Adam learning rate"),
    "gamma": (flags.GAMMA, "discount"),
    "gae_lambda": (flags.GAE_LAMBDA, "GAE lambda"),
    "ent_coef": (flags.ENTROPY, "entropy bonus"),
    "teacher_coef": (flags.TEACHER_COEF, flags.TEACHER_COEF_HELP),
    "teacher_fraction": (flags.TEACHER_FRACTION, flags.TEACHER_FRACTION_HELP),
    "net_arch": (flags.LAYER, f"hidden layer sizes of policy and value nets, 1 to "
                              f"{flags.MAX_LAYERS} of them"),
    "out": (args.out_dir, "output folder"),
}


def configure(parser: args.Parser) -> None:
    """``dugout train challenge``'s flags."""
    d = SingleSettings.__dataclass_fields__
    parser.add_argument("--env", choices=tuple(SINGLE_AGENT_ENVS), default="manager_challenge_v0",
                        help="the single-agent env (default manager_challenge_v0)")
    parser.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE",
                        type=args.env_option,
                        help="an env option, repeatable (level=veteran, reward=win, ...)")
    for name, (kind, text) in _FLAGS.items():
        names = ("--timesteps", "--total-timesteps") if name == "total_timesteps" else \
            ("--" + name.replace("_", "-"),)
        shown = "runs/<env>" if name == "out" else d[name].default
        parser.add_argument(*names, dest=name, type=kind,
                            default=None if name == "out" else d[name].default,
                            nargs="+" if name == "net_arch" else None,
                            metavar="N" if name == "total_timesteps" else None,
                            help=flags.help_for(text, kind, shown))
    parser.add_argument("--teacher", choices=TEACHERS, default=d["teacher"].default,
                        help="a manager whose choices the network also learns, with a weight "
                             "falling from --teacher-coef to 0 at --teacher-fraction of the run "
                             "(default none)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                        help="show a progress bar (default: shown)")


def check(ns: argparse.Namespace) -> None:
    """Every flag, checked before anything is trained: the env built once with its options,
    the rollout, and the output folder (no run in it). Sets ``ns.settings``; writes nothing."""
    options = args.env_options(ns.env_option)
    values = {name: getattr(ns, name) for name in _FLAGS}
    values["net_arch"] = flags.check_net_arch(values["net_arch"])
    values["out"] = str(values["out"] or "")
    flags.check_rollout(values["n_steps"], values["n_envs"])
    try:
        _build(ns.env, options)
    except (DugoutError, ValueError, TypeError) as error:
        raise args.UsageError("--env-option", f"--env-option: {error}") from None
    settings = SingleSettings(env=ns.env, env_options=options, progress=ns.progress,
                              teacher=ns.teacher, **values)
    out = flags.check_out(settings.out)
    if (out / "model").exists():
        raise args.UsageError("--out", f"{out} already holds a run; choose another --out")
    ns.settings = settings


def run(ns: argparse.Namespace) -> Path:
    """Train as the checked flags say; the output folder."""
    return train_single(ns.settings)


def parse(argv: list[str]) -> SingleSettings:
    """The checked :class:`SingleSettings` of ``argv`` (a bad flag: the one-line error and
    exit status 2)."""
    return args.parse(PROG, configure, check, argv, __doc__)[1].settings


def main(argv: list[str] | None = None) -> Path:
    """``python -m dugout.train --env manager_challenge_v0 ...``: the same as ``dugout train
    challenge ...``."""
    return args.invoke(PROG, configure, check, run, argv, __doc__)
