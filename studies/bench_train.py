"""How much faster the batched trainer learns than the scalar one: timesteps per second of
``dugout.train.ppo`` (sb3-contrib's MaskablePPO over AEC envs) and ``dugout.train.vector_ppo``
(masked PPO over :class:`dugout.vector.ThatsBaseballVectorEnv`), That's Baseball self-play
with each trainer's defaults, measured in the same process in interleaved rounds.

    dugout bench train                      # 3 rounds
    dugout bench train --rounds 5 --threads 2
    dugout bench train --env-cost           # the vector env's cost per timestep

(``python -m dugout.studies.bench_train`` is the same command.) A bad flag is one line naming it,
exit status 2, before anything is timed: each number against its limit (``--help`` shows
them), and the rounds' flags without ``--env-cost``, its ``--sizes`` and ``--seconds``
only with it.

Each round trains the scalar trainer for ``--scalar-steps`` and the batched one for
``--vector-steps`` timesteps from scratch, without evaluations, and reads each run's
timesteps per second while learning (its ``summary.json``), and the share of the batched
trainer's learning time spent in the vector env's ``step`` (``env_share``: the engine and
the opponents' moves). The ratio is taken per round; the median and the range are
printed. Speed depends on the machine and what else runs on it: compare figures from one
run only.

Each round also trains sb3-contrib's MaskablePPO, with the scalar trainer's settings (envs,
rollout, minibatch, epochs, network), for ``--scalar-steps`` on :class:`TrivialMaskedEnv`:
an env of the same observation and action sizes that costs next to nothing (a fixed
observation, a fixed mask, a game of That's Baseball's mean length). That is SB3's own
ceiling on this machine: the scalar trainer's rate over it is the share of SB3's time our
env, its opponents and the adapter leave to learning.

``--env-cost`` times the vector env alone, as the batched trainer steps it (same-step
autoreset; the trainer's default self-play league: random 10%, the rulebook heuristic 30%,
two sampling snapshots of a freshly initialised trainer network), the learner playing at
random: microseconds of ``step`` per learner timestep at each ``--sizes`` batch size,
after a warm-up as long as the timing (``--seconds``) that fills the heuristic's table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from ..cli import args

__all__ = ["main", "TrivialMaskedEnv", "trivial_rate", "env_cost"]

#: Learner decisions in a That's Baseball game early in training: a random learner makes
#: 49 a game against random and 60 against the heuristic (300 games each, measured).
TRIVIAL_EPISODE = 50


class TrivialMaskedEnv(gym.Env):
    """An env with the sizes of a dugout env and no game: the observation is fixed, the mask
    is fixed (about half the actions legal), the episode ends after ``length`` steps with
    reward +1 or -1 by the parity of the action sum. Its cost is SB3's floor."""

    def __init__(self, obs_size: int, n_actions: int, length: int = TRIVIAL_EPISODE, seed: int = 0):
        self.observation_space = gym.spaces.Box(0.0, 1.0, (obs_size,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(n_actions)
        rng = np.random.default_rng(seed)
        self._obs = rng.random(obs_size, dtype=np.float32)
        self._mask = rng.random(n_actions) < 0.5
        self._mask[0] = True
        self.length, self._t, self._sum = length, 0, 0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._t = self._sum = 0
        return self._obs.copy(), {}

    def step(self, action):
        self._t += 1
        self._sum += int(action)
        done = self._t >= self.length
        reward = (1.0 if self._sum % 2 else -1.0) if done else 0.0
        return self._obs.copy(), reward, done, False, {}

    def action_masks(self):
        return self._mask.copy()


def trivial_rate(steps: int, seed: int, env: str = "thats_baseball_v0") -> float:
    """Timesteps per second of MaskablePPO, with the scalar trainer's settings for ``env``,
    on :class:`TrivialMaskedEnv` of ``env``'s sizes."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import set_random_seed
    from stable_baselines3.common.vec_env import DummyVecEnv

    from ..envs.registry import make
    from ..train.ppo import Settings
    s = Settings.for_env(env, seed=seed)
    raw = make(env, raw=True, **s.env_options)
    obs_size = raw.observation_space(raw.possible_agents[0])["observation"].shape[0]
    n_actions = raw.action_space(raw.possible_agents[0]).n
    torch.set_num_threads(1)
    set_random_seed(seed)
    venv = DummyVecEnv([lambda i=i: TrivialMaskedEnv(obs_size, n_actions, seed=seed * 1000 + i)
                        for i in range(s.n_envs)])
    model = MaskablePPO("MlpPolicy", venv, learning_rate=s.learning_rate, n_steps=s.n_steps,
                        batch_size=s.batch_size, n_epochs=s.n_epochs, gamma=s.gamma,
                        gae_lambda=s.gae_lambda, ent_coef=s.ent_coef,
                        policy_kwargs={"net_arch": list(s.net_arch)}, seed=seed, device="cpu",
                        verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    return model.num_timesteps / (time.perf_counter() - start)


def env_cost(num_envs: int, seconds: float = 5.0, seed: int = 0, warmup: float | None = None
             ) -> dict[str, Any]:
    """Microseconds of ``ThatsBaseballVectorEnv.step`` per learner timestep in the batched
    trainer's self-play (see the module docstring): steps for ``warmup`` seconds (default
    ``seconds``), then times steps for about ``seconds`` (at least three). Sets torch to
    one thread, as the trainer's default."""
    import torch

    from ..envs.thats_baseball.env import OBS
    from ..vector import ThatsBaseballVectorEnv
    from .bench_vector import random_actions
    from ..train.vector_ppo import N_ACTIONS, VectorSettings, draw_opponents, actor_critic
    settings = VectorSettings(seed=seed)                 # the trainer's self-play league
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    model = actor_critic(OBS.size, N_ACTIONS, settings.net_arch)
    opponents, weights = draw_opponents(settings, model)
    env = ThatsBaseballVectorEnv(num_envs, opponent=opponents, opponent_weights=weights,
                                 autoreset_mode="same_step", seed=seed)
    rng = np.random.default_rng(seed)
    _, infos = env.reset(seed=seed)
    clock = time.perf_counter
    start = clock()
    while clock() - start < (seconds if warmup is None else warmup):
        _, _, _, _, infos = env.step(random_actions(infos["action_mask"], rng))
    spent, steps = 0.0, 0
    while spent < seconds or steps < 3:
        actions = random_actions(infos["action_mask"], rng)
        t = clock()
        _, _, _, _, infos = env.step(actions)
        spent += clock() - t
        steps += 1
    return {"num_envs": num_envs, "timesteps": steps * num_envs, "seconds": spent,
            "us_per_timestep": 1e6 * spent / (steps * num_envs),
            "ms_per_step": 1e3 * spent / steps}


def one_round(scalar_steps: int, vector_steps: int, threads: int, seed: int, folder: Path
              ) -> tuple[float, float, float, float]:
    from ..train.ppo import Settings, train as train_scalar
    from ..train.vector_ppo import VectorSettings, train as train_vector
    scalar = Settings.for_env("thats_baseball_v0", total_timesteps=scalar_steps, seed=seed,
                              eval_every=10**12, pool_every=max(1, scalar_steps // 2),
                              progress=False, out=str(folder / f"scalar{seed}"))
    out = train_scalar(scalar)
    s_rate = json.loads((out / "summary.json").read_text())["timesteps_per_second"]
    vector = VectorSettings(total_timesteps=vector_steps, seed=seed, eval_every=10**12,
                            eval_games=64, threads=threads, out=str(folder / f"vector{seed}"))
    out = train_vector(vector, log=lambda _text: None)
    summary = json.loads((out / "summary.json").read_text())
    return (s_rate, summary["timesteps_per_second"], trivial_rate(scalar_steps, seed),
            summary["env_share"])


# -- the command line: dugout bench train -------------------------------------------------------
PROG = "dugout bench train"
#: the rounds' flags and their defaults, and --env-cost's
_ROUNDS = {"rounds": 3, "scalar_steps": 16_384, "vector_steps": 1_048_576, "threads": 1}
_ENV_COST = {"sizes": [4096, 16384], "seconds": 5.0}


def configure(parser: args.Parser) -> None:
    """``dugout bench train``'s flags: the rounds', or ``--env-cost``'s."""
    from ..train import flags
    rounds = parser.add_argument_group("the rounds (without --env-cost)")
    for flag, kind, text in (
            ("--rounds", flags.count(1, 1000, "rounds"), "interleaved rounds"),
            ("--scalar-steps", flags.TIMESTEPS, "timesteps the scalar trainer trains a round"),
            ("--vector-steps", flags.TIMESTEPS, "timesteps the batched trainer trains a round"),
            ("--threads", flags.THREADS, "torch threads of the batched trainer (the scalar "
                                         "trainer always uses one)")):
        name = flag[2:].replace("-", "_")
        rounds.add_argument(flag, type=kind, help=flags.help_for(text, kind, _ROUNDS[name]))
    parser.add_argument("--env-cost", action="store_true", help="time the vector env alone, as "
                        "the batched trainer steps it: microseconds per learner timestep")
    cost = parser.add_argument_group("--env-cost")
    cost.add_argument("--sizes", type=flags.GAMES_AT_ONCE, nargs="+",
                      help=flags.help_for("numbers of games", flags.GAMES_AT_ONCE,
                                          _ENV_COST["sizes"]))
    seconds = flags.real(0, 3600, what="seconds")
    cost.add_argument("--seconds", type=seconds,
                      help=flags.help_for("seconds of timing (and of warm-up) per size", seconds,
                                          _ENV_COST["seconds"]))


def check(ns: argparse.Namespace) -> None:
    """The rounds' flags go without ``--env-cost``, its own with it; the defaults of the
    others filled in."""
    mine, others = (_ENV_COST, _ROUNDS) if ns.env_cost else (_ROUNDS, _ENV_COST)
    for name in others:
        if getattr(ns, name) is not None:
            flag = "--" + name.replace("_", "-")
            raise args.UsageError(flag, f"{flag} goes {'without' if ns.env_cost else 'with'} "
                                        f"--env-cost")
    for name, default in mine.items():
        if getattr(ns, name) is None:
            setattr(ns, name, default)


def run(ns: argparse.Namespace) -> dict:
    """The benchmark: ``--env-cost``'s timings, or the rounds' figures."""
    if ns.env_cost:
        costs = []
        for size in ns.sizes:
            c = env_cost(size, ns.seconds)
            costs.append(c)
            print(f"num_envs={c['num_envs']:>6,}: {c['us_per_timestep']:.2f} us per learner "
                  f"timestep ({c['ms_per_step']:.1f} ms a step, {c['timesteps']:,} timesteps)",
                  flush=True)
        return {"env_cost": costs}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(ns.rounds):
            s_rate, v_rate, t_rate, share = one_round(ns.scalar_steps, ns.vector_steps,
                                                      ns.threads, r, Path(tmp))
            rows.append((s_rate, v_rate, v_rate / s_rate, t_rate, share))
            print(f"round {r + 1}: scalar {s_rate:,.0f} timesteps/s, batched {v_rate:,.0f} "
                  f"timesteps/s (the env {100 * share:.0f}% of its time): {v_rate / s_rate:.1f}x; "
                  f"MaskablePPO on a trivial env "
                  f"{t_rate:,.0f} timesteps/s (scalar / trivial {s_rate / t_rate:.2f})",
                  flush=True)
    ratios = [row[2] for row in rows]
    kept = [row[0] / row[3] for row in rows]
    print(f"batched / scalar trainer: median {statistics.median(ratios):.1f}x "
          f"(range {min(ratios):.1f}-{max(ratios):.1f}x) over {ns.rounds} rounds; scalar "
          f"median {statistics.median(r[0] for r in rows):,.0f}, batched "
          f"{statistics.median(r[1] for r in rows):,.0f} timesteps/s (torch threads: scalar 1, "
          f"batched {ns.threads}); the env's share of the batched trainer's time: median "
          f"{100 * statistics.median(r[4] for r in rows):.0f}%")
    print(f"scalar trainer / MaskablePPO on a trivial env of the same sizes: median "
          f"{statistics.median(kept):.2f} (range {min(kept):.2f}-{max(kept):.2f}); trivial "
          f"median {statistics.median(r[3] for r in rows):,.0f} timesteps/s")
    return {"rounds": [{"scalar": a, "batched": b, "ratio": c, "trivial": d, "env_share": e}
                       for a, b, c, d, e in rows],
            "median_ratio": statistics.median(ratios),
            "median_scalar_over_trivial": statistics.median(kept)}


def main(argv: list[str] | None = None) -> dict:
    """``python -m dugout.studies.bench_train``: the same as ``dugout bench train``."""
    return args.invoke(PROG, configure, check, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
