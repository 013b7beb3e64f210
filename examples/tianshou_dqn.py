"""Tianshou 2.0: a masked DQN learner in one seat against a masked random policy in the other.

This follows Tianshou's own PettingZoo recipe (``examples/pettingzoo/tic_tac_toe.py``):
Tianshou's ``PettingZooEnv`` around the AEC env, ``MultiAgentOffPolicyAlgorithm`` with a
``DQN`` for the learner and ``MARLRandomDiscreteMaskedOffPolicyAlgorithm`` for the other
seat, several envs in a ``DummyVectorEnv``, a ``Collector`` into a ``VectorReplayBuffer``,
and ``run_training`` with ``OffPolicyTrainerParams``. The env goes in as it is: no wrapper
strips or rewrites its observations or infos (every info has the same string-keyed tree,
which Tianshou's collector batches into its buffer).

    .venv/bin/python examples/tianshou_dqn.py --env thats_baseball_v0 --steps 2000

``--env`` is any id of ``dugout.envs.ENV_IDS``; ``--seat`` is the learner's seat.
Rewards come only at the end of a game (+1 / -1), so a few thousand steps show the recipe
working, not a strong manager (that takes far more steps, or the SB3 adapter's shaping).

How Tianshou's multi-agent recipe credits the result: every transition in the buffer holds
the rewards of both agents at that env step, and the learner's DQN reads its own column
over its ``n_step`` return, following the buffer (both managers' moves). The end-of-game
reward reaches the learner's last transition only when the game ends within ``n_step``
decisions after it; a manager may decide several times in a row, so with the recipe's
``n_step=3`` the other manager made 3 or more decisions after the learner's last one in
about 5% of random That's Baseball games, 1% of Grand Slam and 13-24% of Showdown games
(use ``--n-step`` to widen it). ``SingleAgentEnv`` (the SB3 recipe) has no such gap.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import dugout.envs

SEATS = ("away", "home")


def get_env(env_id: str = "thats_baseball_v0", **options: Any) -> PettingZooEnv:
    """The registered env, as is, in Tianshou's PettingZoo adapter."""
    return PettingZooEnv(dugout.envs.make(env_id, **options))


def get_agents(env: PettingZooEnv, seat: str = "home", hidden_sizes=(128, 128), lr: float = 1e-3,
               eps_train: float = 0.1, eps_test: float = 0.05, gamma: float = 0.99,
               n_step: int = 3, target_update_freq: int = 100, device: str = "cpu"):
    """The multi-agent algorithm: a masked DQN in ``seat``, a masked random policy in the other.

    DQN masks illegal actions itself: Tianshou's ``PettingZooEnv`` hands it ``obs.mask``
    (from the env's ``action_mask``) and its Q-values of illegal actions are pushed below
    every legal one, in exploration too."""
    observation_space = env.observation_space["observation"]
    net = Net(state_shape=observation_space.shape, action_shape=env.action_space.n,
              hidden_sizes=list(hidden_sizes)).to(device)
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                       eps_training=eps_train, eps_inference=eps_test),
        optim=AdamOptimizerFactory(lr=lr),
        gamma=gamma,
        n_step_return_horizon=n_step,
        target_update_freq=target_update_freq,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    # one algorithm per agent, in the env's agent order ("away", "home")
    algorithms = [learner if agent == seat else opponent for agent in env.agents]
    return MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)


@dataclass
class Result:
    algorithm: MultiAgentOffPolicyAlgorithm
    learner: DQN
    buffer: VectorReplayBuffer
    stats: Any            # tianshou's InfoStats of run_training
    test: CollectStats    # a final evaluation against the random policy
    learner_return: float  # the learner's mean game result (+1 win, -1 loss) in that evaluation


def train(env_id: str = "thats_baseball_v0", steps: int = 2000, seat: str = "home",
          num_envs: int = 4, num_test_envs: int = 2, test_episodes: int = 4,
          buffer_size: int = 20_000, batch_size: int = 64, collect_per_step: int = 10,
          update_per_step: float = 0.1, n_step: int = 3, seed: int = 0,
          env_options: dict | None = None, verbose: bool = False) -> Result:
    """Train the learner for ``steps`` env steps (one epoch), then evaluate it."""
    if seat not in SEATS:
        raise ValueError(f"seat must be one of {SEATS}, got {seat!r}")
    options = dict(env_options or {})
    np.random.seed(seed)
    torch.manual_seed(seed)
    train_envs = DummyVectorEnv([lambda: get_env(env_id, **options) for _ in range(num_envs)])
    test_envs = DummyVectorEnv([lambda: get_env(env_id, **options) for _ in range(num_test_envs)])
    train_envs.seed(seed)          # each env's first reset is seeded; later resets follow it
    test_envs.seed(seed + 10_000)

    env = get_env(env_id, **options)
    algorithm = get_agents(env, seat=seat, n_step=n_step)
    seat_index = env.agents.index(seat)

    buffer = VectorReplayBuffer(buffer_size, len(train_envs))
    train_collector = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=batch_size * num_envs)      # warm-up, as Tianshou's recipe does

    stats = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=1,
            epoch_num_steps=steps,
            collection_step_num_env_steps=collect_per_step,
            test_step_num_episodes=test_episodes,
            batch_size=batch_size,
            update_step_num_gradient_steps_per_sample=update_per_step,
            # the rewards are one column per agent: score the learner's
            multi_agent_return_reduction=lambda rews: rews[:, seat_index],
            verbose=verbose,
            show_progress=verbose,
        )
    )
    test_collector.reset()
    test = test_collector.collect(n_episode=test_episodes)
    # one return column per agent (Tianshou's PettingZooEnv hands out every agent's reward)
    returns = np.asarray(test.returns).reshape(-1, len(env.agents))
    learner_return = float(returns[:, seat_index].mean()) if len(returns) else float("nan")
    return Result(algorithm, algorithm.get_algorithm(seat), buffer, stats, test, learner_return)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="thats_baseball_v0", choices=dugout.envs.ENV_IDS)
    parser.add_argument("--steps", type=int, default=2000, help="env steps of training")
    parser.add_argument("--seat", default="home", choices=SEATS, help="the learner's seat")
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--n-step", type=int, default=3, help="the DQN's n-step return horizon")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = train(args.env, steps=args.steps, seat=args.seat, num_envs=args.num_envs,
                   n_step=args.n_step, seed=args.seed, test_episodes=10, verbose=True)
    print(f"{args.env}: {len(result.buffer)} transitions in the buffer; learner ({args.seat}) "
          f"mean result over {result.test.n_collected_episodes} games against random: "
          f"{result.learner_return:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
