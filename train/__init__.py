"""Learning managers. Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib).

* :mod:`dugout.train.ppo`: MaskablePPO (sb3-contrib) against a fixed opponent or by
  self-play, on any two-manager ruleset (``dugout train``); read it top to bottom;
* :mod:`dugout.train.vector_ppo`: masked PPO on batched That's Baseball games
  (:mod:`dugout.vector`; ``dugout train vector``);
* :mod:`dugout.train.single`: MaskablePPO on a single-agent env, the Manager Challenge
  (``dugout train challenge``);
* :mod:`dugout.train.rllib`: league self-play on Ray RLlib (``dugout train rllib``);
* :mod:`dugout.train.adapter`: the single-agent Gymnasium view of a two-manager game that
  SB3 learns on (the opponent plays inside ``step``);
* :mod:`dugout.train.checkpoint`: saving checkpoints (the agent that plays one is
  :class:`dugout.agents.policy.PolicyAgent`, on the agents' floor);
* :mod:`dugout.train.configs` (each ruleset's default settings), :mod:`dugout.train.flags`
  (the trainers' flags), :mod:`dugout.train.tanh` (the batched trainer's ``Tanh``).

How fast the trainers learn is measured in the lab, :mod:`dugout.studies.bench_train`
(``dugout bench train``).
"""
