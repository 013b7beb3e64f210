"""Default training settings per ruleset, chosen from measured runs (see each entry).

Every field is a :class:`dugout.train.ppo.Settings` field; the command line overrides any.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CONFIGS", "defaults_for"]

CONFIGS: dict[str, dict[str, Any]] = {
    # That's Baseball: about 60 learner decisions a game, most of them free rolls; the
    # choices that matter are rare (steals, double plays), so a wide batch helps.
    "thats_baseball_v0": dict(
        total_timesteps=300_000, net_arch=(64, 64), learning_rate=3e-4, n_steps=1024,
        batch_size=256, n_epochs=10, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
    ),
    # Harry's Grand Slam: about 45 learner decisions a game, every one a card choice.
    "grand_slam_v0": dict(
        total_timesteps=300_000, net_arch=(128, 128), learning_rate=3e-4, n_steps=1024,
        batch_size=256, n_epochs=10, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
    ),
}


def defaults_for(env_id: str) -> dict[str, Any]:
    return dict(CONFIGS.get(env_id, {}))
