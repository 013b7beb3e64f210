"""Learning managers: MaskablePPO with self-play (:mod:`dugout.train.ppo`), the
single-agent adapter (:mod:`dugout.train.adapter`), checkpoints and the trained-policy
agent (:mod:`dugout.train.checkpoint`). Needs the ``train`` extra (torch, sb3-contrib)."""
