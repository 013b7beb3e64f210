"""The training speed benchmark's trivial env (dugout.train.speed): a valid Gymnasium env of a
dugout env's sizes that MaskablePPO learns on."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")


def test_the_trivial_env_is_a_valid_masked_gymnasium_env():
    from gymnasium.utils.env_checker import check_env
    from dugout.train.speed import TrivialMaskedEnv
    env = TrivialMaskedEnv(7, 5, length=4, seed=3)
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=0)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.shape == (5,) and mask[0]
    rewards, done = [], False
    while not done:
        obs, r, done, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
        rewards.append(r)
        assert env.observation_space.contains(obs) and not truncated
    assert len(rewards) == 4 and rewards[:-1] == [0.0] * 3 and rewards[-1] in (-1.0, 1.0)


def test_trivial_rate_trains_maskable_ppo_with_the_envs_sizes(monkeypatch):
    from dugout.train import speed
    seen = {}
    real = speed.TrivialMaskedEnv

    def spy(obs_size, n_actions, **kw):
        seen["sizes"] = (obs_size, n_actions)
        return real(obs_size, n_actions, **kw)

    monkeypatch.setattr(speed, "TrivialMaskedEnv", spy)
    from dugout.envs.registry import make
    raw = make("thats_baseball_v0", raw=True)
    agent = raw.possible_agents[0]
    rate = speed.trivial_rate(64, seed=0)
    assert rate > 0
    assert seen["sizes"] == (raw.observation_space(agent)["observation"].shape[0],
                             raw.action_space(agent).n)
