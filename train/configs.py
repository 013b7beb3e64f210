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

MLB Showdown, advanced game (nya2004 at bos2004, the env's defaults; ``python -m
dugout.train --env showdown_v0`` trains with these defaults, ``--shaping none --ent-coef
0.01`` gives the generic settings). About 1,400 timesteps/s at the generic settings,
1,000-1,150 with shaping (the other core busy). Win-expectancy shaping helps, and without
the entropy bonus it gets there sooner: against the heuristic (200-game evaluations during
training) the generic settings stay at 30-35% up to 300,000 timesteps; with shaping
33-41%, then 40-42% from 500,000 to 900,000; with shaping and no entropy bonus 40-42% from
100,000 on. In 4,000 seat-swapped games (``python -m dugout.evaluate tournament --env
showdown_v0 --games 4000 --agents ppo:RUN/model heuristic random``) at 300,000 the generic
settings score 34.6% (33.5-35.6%) against the heuristic, with shaping 39.8% (38.8-40.8%);
the chosen settings (shaping, no entropy bonus) at 600,000 score 43.9% (42.9-44.8%)
against the heuristic and 66.5% (65.4-67.6%) against random (the heuristic beats random
72.2%, 71.1-73.4%); shaping with ent_coef 0.01 scores 44.6% (43.7-45.6%) at 900,000; with
a (128, 128) net 41.4% (40.4-42.4%) at 600,000. So the trained manager is still
significantly worse than the heuristic, by about 6 points. The measured cause is the
bullpen and the bench (40 games each against the heuristic): from the 5th inning on it
changes pitchers at nearly every chance, 7.8 changes a game against the heuristic's 1.6,
pinch-hits 3.2 times a game against 1.0 and mostly keeps its 20 icon; the shaping
potential (the value tables at the start of an at-bat) does not see who pitches or bats,
so these choices are taught only through later at-bats' outcomes. (For scale: the
heuristic with every pitching change taken scores 30.0% against the heuristic, with none
37.0%, 1,000 games each.)
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
    "showdown_v0": dict(
        total_timesteps=600_000, net_arch=(64, 64), learning_rate=3e-4, n_steps=1024,
        batch_size=256, n_epochs=10, gamma=1.0, gae_lambda=0.95, ent_coef=0.0,
        shaping="win-expectancy",
    ),
}


def defaults_for(env_id: str) -> dict[str, Any]:
    return dict(CONFIGS.get(env_id, {}))
