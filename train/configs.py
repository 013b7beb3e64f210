"""Default training settings per ruleset, chosen from measured runs.

Every field is a :class:`dugout.train.ppo.Settings` field; the command line overrides any.
The measurements behind each choice (seed 0, self-play, 4 envs, this machine's 2 cores):

That's Baseball (sample at reds). Against the heuristic the greedy policy plateaus by
25,000 timesteps (45-49% in 200-game evaluations); the exact gap to the optimal manager
(``dugout.agents.solvers.thats_baseball``) keeps shrinking slowly: 2.87 points at
300,000 timesteps, 2.64 at 600,000. At 300,000 timesteps other settings were worse:
no entropy bonus 3.96, no entropy bonus with learning rate 1e-4, n_steps 2048 and batch
512 3.57, win-expectancy shaping 4.50. Most of what is left is pickoffs: the policy
rarely throws over, and a pickoff's worth (about 0.1 point a throw) is too small for
the game's final reward to teach quickly.

Harry's Grand Slam. Against the heuristic: 50% at 100,000 timesteps, 64% at 300,000,
still climbing slowly to 72% at 600,000 (200-game evaluations); 61.8% (60.4-63.1%) in
4,000 seat-swapped games at 600,000.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CONFIGS", "defaults_for"]

CONFIGS: dict[str, dict[str, Any]] = {
    "thats_baseball_v0": dict(
        total_timesteps=600_000, net_arch=(64, 64), learning_rate=3e-4, n_steps=1024,
        batch_size=256, n_epochs=10, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
    ),
    "grand_slam_v0": dict(
        total_timesteps=600_000, net_arch=(128, 128), learning_rate=3e-4, n_steps=1024,
        batch_size=256, n_epochs=10, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
    ),
}


def defaults_for(env_id: str) -> dict[str, Any]:
    return dict(CONFIGS.get(env_id, {}))
