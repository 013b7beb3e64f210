"""Ray RLlib: multi-agent PPO with action masking on a dugout env (RLlib's new API stack).

The recipe is :mod:`dugout.integrations.rllib`: each env as an RLlib ``MultiAgentEnv``
(registered as ``"dugout/<env_id>"``), a PPO RLModule that masks illegal actions, and
``ppo_config``, whose ``policies`` maps the two seats to one shared module (self-play,
the default) or to one module per seat.

    scripts/test_rllib.sh --co -q        # makes .venv-rllib (Ray RLlib pins its own Gymnasium)
    .venv-rllib/bin/python examples/rllib_ppo.py --env thats_baseball_v0 --iterations 2

``--env`` is any id of ``dugout.envs.ENV_IDS``. Everything runs in this process on
``--cpus`` CPUs (no remote env runners, no dashboard). Rewards come only at the end of a
game (+1 / -1), so a few iterations show the recipe working, not a strong manager.
"""

from __future__ import annotations

import argparse
import sys
import time

import dugout.envs
from dugout.integrations.rllib import POLICY_CHOICES, policy_ids, ppo_config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="thats_baseball_v0", choices=dugout.envs.env_ids(),
                        help="the dugout env id (default: thats_baseball_v0)")
    parser.add_argument("--iterations", type=int, default=1,
                        help="PPO training iterations (default: 1)")
    parser.add_argument("--policies", default="shared", choices=POLICY_CHOICES,
                        help="one module for both seats (self-play) or one per seat")
    parser.add_argument("--batch", type=int, default=1000,
                        help="env steps per iteration (train_batch_size_per_learner)")
    parser.add_argument("--level", choices=("basic", "advanced"),
                        help="showdown_v0's level (default: the env's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpus", type=int, default=2, help="CPUs Ray may use (default: 2)")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.batch < 1:
        parser.error("--iterations and --batch must be positive")
    options = {}
    if args.level is not None:
        if args.env != "showdown_v0":
            parser.error("--level is showdown_v0's option")
        options["level"] = args.level

    import ray

    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    try:
        config = ppo_config(
            args.env, policies=args.policies, env_options=options, seed=args.seed,
            model_config={"fcnet_hiddens": [128, 128]},
            train_batch_size_per_learner=args.batch, minibatch_size=min(128, args.batch),
            num_epochs=4, lr=3e-4)
        config.env_runners(num_env_runners=0).learners(num_learners=0)
        algo = config.build_algo()
        try:
            for iteration in range(1, args.iterations + 1):
                start = time.perf_counter()
                result = algo.train()
                runners, learners = result["env_runners"], result["learners"]
                returns = runners.get("agent_episode_returns_mean", {})
                print(f"iteration {iteration}: {time.perf_counter() - start:.1f}s, "
                      f"{int(runners.get('num_env_steps_sampled', 0))} env steps, "
                      f"{int(runners.get('num_episodes', 0))} games, mean return "
                      + ", ".join(f"{a} {returns[a]:+.2f}" for a in sorted(returns))
                      + (f", game length {runners['episode_len_mean']:.0f}"
                         if "episode_len_mean" in runners else ""))
                for module_id in policy_ids(args.policies):
                    stats = learners[module_id]
                    print(f"  {module_id}: policy loss {float(stats['policy_loss']):+.4f}, "
                          f"value loss {float(stats['vf_loss']):.4f}, "
                          f"entropy {float(stats['entropy']):.3f}")
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
