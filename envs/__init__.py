"""The games. Each ruleset has a PettingZoo-style entry module, e.g.
``from dugout.envs import thats_baseball_v0; env = thats_baseball_v0.env()``."""
