"""The games. Each ruleset has a PettingZoo-style entry module, e.g.
``from dugout.envs import thats_baseball_v0; env = thats_baseball_v0.env()``, and every one
is registered by id: ``dugout.envs.ENV_IDS`` and ``dugout.envs.make(env_id, **options)``
(see :mod:`dugout.envs.registry`).

The single-agent Manager Challenge (Bottom of the 9th's solo campaign) is a Gymnasium env:
``from dugout.envs import manager_challenge_v0``, ``dugout.envs.make("manager_challenge_v0")``
or, once this package is imported, ``gymnasium.make("dugout/ManagerChallenge-v0")``
(registered here; the module itself is imported only when the env is made). ``ENV_IDS``
lists the two-manager AEC envs, ``SINGLE_AGENT_IDS`` the single-agent ones."""

from .registry import (ENV_IDS, GYM_IDS, SINGLE_AGENT_IDS, EnvSpec, env_ids, make, register_env,
                       spec)

__all__ = ["ENV_IDS", "GYM_IDS", "SINGLE_AGENT_IDS", "EnvSpec", "env_ids", "make", "register_env",
           "spec"]


def _register_gymnasium() -> None:
    import gymnasium
    for gym_id, entry in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point=entry)


_register_gymnasium()
