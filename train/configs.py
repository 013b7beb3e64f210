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
0.01 --teacher none`` gives the generic settings). About 1,400 timesteps/s at the generic settings,
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
37.0%, 1,000 games each.) The default now adds the rulebook heuristic as a teacher
(``--teacher heuristic``: each update also imitates its choices at the learner's
decisions, the weight falling from 1 to 0 over the run; the heuristic never plays): at
600,000 timesteps, 49.5% (48.8-50.1%) against the heuristic in 4,000 seat-swapped games,
no significant difference, and 71.3% (70.2-72.4%) against random; 1,012 timesteps/s, as
fast as without it. ``--teacher none`` gives the 43.9% settings above. The shipped
pretrained manager (``dugout pretrained --entries showdown``) keeps the teacher on at the
duel's default weight (``teacher_coef=10, teacher_fraction=10``; Pokemon's keeps it on at
5), with a (128, 128) net for 1,500,000 timesteps: 50.0% (49.6-50.4%) against the
heuristic and 72.1% (71.0-73.2%) against random in 4,000 seat-swapped games (at 300,000
timesteps with the default settings it was 49.1%, 48.4-49.8%). The expert game with decks
(``dugout pretrained --entries showdown_expert``) on the same recipe for 1,000,000
timesteps: 44.5% (43.5-45.6%) against the heuristic in 4,000 seat-swapped games (at
100,000 timesteps with the default settings, a (64, 64) net and the weight falling from 1
to 0, it was 19.0%, 15.6-22.4%, in 400); its 200-game evaluations during training stay at
42-47% from 100,000 timesteps on. Two changes did not help (evaluations during 300,000-timestep
runs of the same recipe): without shaping (``--shaping none``), 39.0% (34.5-43.5%) at 100,000
timesteps and 37.5% (32.8-42.2%) at 200,000 in 200 games; with the teacher's weight at 100
(``--teacher-coef 100``), 40.5% (37.1-43.9%) at 100,000 in 400. The shipped expert-game
manager is now the heuristic cloned instead (``dugout train exit --expert heuristic``, its
entry in :mod:`dugout.studies.pretrained`): see the managers' docs.

Pokemon Baseball (the env's default teams). The generic settings learn to beat random but
not the heuristic: at 300,000 timesteps, 6.5% (5.8-7.2%) against the heuristic and 77.8%
(76.6-79.0%) against random in 4,000 seat-swapped games (the heuristic beats random
96.1%). With the heuristic as a teacher whose weight falls from 1 to 0 over the run,
46.3% (45.2-47.3%) and 95.2% (94.5-95.8%) at 300,000; longer is not better: at 600,000,
40.5% (39.3-41.6%), because as the weight falls PPO on its own walks away from the
heuristic's choices (as That's Baseball's early-stopping teacher did in the batched
trainer). A teacher that stays on does better: weight 1 all along, 49.5% (48.4-50.6%);
falling from 1 to 0.9 (``teacher_fraction=10``), 48.0% (46.9-49.1%); **falling from 5
to 4.5 (``teacher_coef=5, teacher_fraction=10``), 51.4% (50.5-52.4%) against the
heuristic, significantly better than it, and 95.1% (94.4-95.7%) against random**: the
default.

Bottom of the 9th (the env's default duel). Generic settings at 300,000 timesteps: 40.9%
(39.7-42.1%) against the heuristic, 62.4% (61.2-63.5%) against random (the heuristic:
70.9%); with the heuristic as a teacher whose weight falls from 1 to 0, 44.9%
(43.8-46.1%) and 65.6% (64.5-66.8%). The duel is a simultaneous-move game: a greedy
(deterministic) policy is exploitable, and the exact solver measures it
(``python -m dugout.agents.solvers.bottom_ninth --agents ppo:RUN/model``): the untaught
manager gives a best response 0.35 (pitching) and 0.30 (batting) of win probability over
the game value, against 0.04 and 0.10 for the heuristic. Greedy play itself costs nothing
against the heuristic, whose stare-down mix is an equilibrium: the heuristic playing its
own mix's likeliest pitch and guess scores 50.9% (49.8-52.1%, 2,000 pairs) against it.
What the taught network missed was the heuristic's other choices: at 300,000 timesteps
(weight 1 all along) it took the heuristic's batter-ability choice 78% of the time, its
relief choice 74% and its pitcher-ability choice 89% (400 games). A stronger teacher that
stays on and a larger net close the gap: ``teacher_coef=5, teacher_fraction=2`` 47.8%
(46.7-49.0%); ``teacher_coef=10, teacher_fraction=10``, net (128, 128), 48.5%
(47.4-49.7%) at 300,000 and **50.6% (49.5-51.8%) at 600,000 timesteps, no significant
difference, and 68.6% (67.4-69.8%) against random**: the default. Matching the heuristic
is not being unexploitable: played greedily, as tournaments play it, this manager gives a
best response 0.35 (pitching) and 0.32 (batting), as the untaught one does; played by
sampling its policy (``PolicyAgent.load(..., deterministic=False)``) only 0.07 and 0.16,
close to the heuristic's 0.04 and 0.10, but then it scores 45.0% (43.8-46.2%, 2,000 pairs)
against the heuristic, its sampled ability and relief choices costing more than its mix
at the stare-down gains. Taught by the exact
equilibrium manager instead (``--teacher solver``, coef 5, fraction 10, 300,000) it
scores 47.2% (46.1-48.4%); the equilibrium manager itself scores 53.1% (51.4-54.9%, 1,000
pairs) against the heuristic.
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
        shaping="win-expectancy", teacher="heuristic",
    ),
    "pokemon_baseball_v0": dict(
        total_timesteps=300_000, net_arch=(64, 64), learning_rate=3e-4, n_steps=1024,
        batch_size=256, n_epochs=10, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
        teacher="heuristic", teacher_coef=5.0, teacher_fraction=10.0,
    ),
    "bottom_ninth_v0": dict(
        total_timesteps=600_000, net_arch=(128, 128), learning_rate=3e-4, n_steps=1024,
        batch_size=256, n_epochs=10, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
        teacher="heuristic", teacher_coef=10.0, teacher_fraction=10.0,
    ),
}


def defaults_for(env_id: str) -> dict[str, Any]:
    return dict(CONFIGS.get(env_id, {}))
