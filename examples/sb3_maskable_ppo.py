"""sb3-contrib: MaskablePPO on one seat of a dugout game, through ``SingleAgentEnv``.

``dugout.train.adapter.SingleAgentEnv`` turns the two-manager AEC game into a Gymnasium
env for one learner: the opponent (here a named agent, ``random`` or ``heuristic``) plays
the other seat inside ``step()``, the learner's seat alternates from game to game, the
observation is the learner's own vector and ``action_masks()`` its legal actions (the
method MaskablePPO and ``MaskableEvalCallback`` look for). The reward is the learner's
game result (+1 / -1) read for the learner's seat, whoever made the last move.

    .venv/bin/python examples/sb3_maskable_ppo.py --env thats_baseball_v0 --steps 4096

Rewards come only at the end of a game, so a few thousand steps show the recipe working;
``python -m dugout.train`` is the full trainer (self-play, shaping, checkpoints).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import dugout.envs
from dugout.train.adapter import SingleAgentEnv


def make_env(env_id: str, opponent: str = "random", seed: int = 0, env_options: dict | None = None):
    """A Monitor-wrapped single-agent view of ``env_id`` (the learner's seat alternates)."""
    return Monitor(SingleAgentEnv(env_id, opponent=opponent, seat="alternate", seed=seed,
                                  env_kwargs=env_options))


@dataclass
class Result:
    model: MaskablePPO
    callback: MaskableEvalCallback
    mean_reward: float      # the final evaluation: the learner's mean game result
    std_reward: float


def train(env_id: str = "thats_baseball_v0", steps: int = 4096, opponent: str = "random",
          n_envs: int = 2, n_steps: int = 256, batch_size: int = 64, n_epochs: int = 4,
          eval_freq: int = 512, eval_episodes: int = 4, final_episodes: int = 10,
          seed: int = 0, env_options: dict | None = None, verbose: int = 0) -> Result:
    """Learn for ``steps`` steps, evaluating every ``eval_freq`` steps, then evaluate."""
    train_env = DummyVecEnv([lambda i=i: make_env(env_id, opponent, seed * 100 + i, env_options)
                             for i in range(n_envs)])
    eval_env = DummyVecEnv([lambda: make_env(env_id, opponent, seed * 100 + 99, env_options)])
    model = MaskablePPO("MlpPolicy", train_env, n_steps=n_steps, batch_size=batch_size,
                        n_epochs=n_epochs, seed=seed, verbose=verbose, device="cpu")
    callback = MaskableEvalCallback(eval_env, eval_freq=max(eval_freq // n_envs, 1),
                                    n_eval_episodes=eval_episodes, deterministic=True,
                                    verbose=verbose)
    model.learn(total_timesteps=steps, callback=callback)
    mean, std = evaluate_policy(model, eval_env, n_eval_episodes=final_episodes,
                                deterministic=True, use_masking=True)
    return Result(model, callback, float(mean), float(std))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="thats_baseball_v0", choices=dugout.envs.ENV_IDS)
    parser.add_argument("--steps", type=int, default=4096, help="learner steps of training")
    parser.add_argument("--opponent", default="random", help="random, heuristic, ...")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = train(args.env, steps=args.steps, opponent=args.opponent, seed=args.seed,
                   final_episodes=20, verbose=1)
    print(f"{args.env}: learner's mean result over 20 games against {args.opponent}: "
          f"{result.mean_reward:+.2f} (± {result.std_reward:.2f}); "
          f"last evaluation during training: {result.callback.last_mean_reward:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
