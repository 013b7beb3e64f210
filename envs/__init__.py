"""The games. Each ruleset has a PettingZoo-style entry module, e.g.
``from dugout.envs import thats_baseball_v0; env = thats_baseball_v0.env()``, and every one
is registered by id: ``dugout.envs.ENV_IDS`` and ``dugout.envs.make(env_id, **options)``
(see :mod:`dugout.envs.registry`)."""

from .registry import ENV_IDS, EnvSpec, env_ids, make, register_env, spec

__all__ = ["ENV_IDS", "EnvSpec", "env_ids", "make", "register_env", "spec"]
