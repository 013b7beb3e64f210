"""The training speed benchmark's trivial env (dugout.studies.bench_train): a valid Gymnasium env of a
dugout env's sizes that MaskablePPO learns on."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")


def test_the_trivial_env_is_a_valid_masked_gymnasium_env():
    from gymnasium.utils.env_checker import check_env
    from dugout.studies.bench_train import TrivialMaskedEnv
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
    from dugout.studies import bench_train as speed
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


def test_env_cost_times_the_vector_env_with_the_trainers_opponents(monkeypatch, capsys):
    """``--env-cost``: the vector env stepped as the batched trainer steps it (its own
    network class as the snapshots, with the numpy Tanh), timed per learner timestep."""
    from dugout.studies import bench_train as speed
    from dugout.train.tanh import Tanh
    from dugout.vector import env as venv
    made = []
    real = venv.ThatsBaseballVectorEnv

    def spy(*args, **kw):
        made.append(real(*args, **kw))
        return made[-1]

    monkeypatch.setattr(venv, "ThatsBaseballVectorEnv", spy)
    monkeypatch.setattr("dugout.vector.ThatsBaseballVectorEnv", spy)
    r = speed.env_cost(32, seconds=0.0, warmup=0.01)
    assert r["num_envs"] == 32 and r["timesteps"] == 3 * 32          # at least three steps
    assert 0 < r["seconds"] and r["us_per_timestep"] == pytest.approx(1e6 * r["seconds"] / 96)
    env = made[-1]
    assert env.metadata["autoreset_mode"].name == "SAME_STEP"
    assert [o.name for o in env.opponents[:2]] == ["random", "heuristic"]
    assert all(isinstance(o.actor[1], Tanh) and not o.deterministic for o in env.opponents[2:])
    assert list(env.opponent_weights) == pytest.approx([0.1, 0.3, 0.3, 0.3])
    out = speed.main(["--env-cost", "--sizes", "16", "32", "--seconds", "0.05"])
    assert [c["num_envs"] for c in out["env_cost"]] == [16, 32]
    lines = [line for line in capsys.readouterr().out.splitlines() if "per learner timestep" in line]
    assert [line.split(":")[0] for line in lines] == ["num_envs=    16", "num_envs=    32"]
    for bad in (["--seconds", "inf"], ["--sizes", "0"]):
        with pytest.raises(SystemExit):
            speed.main(["--env-cost", *bad])
        assert "must be" in capsys.readouterr().err


def test_the_speed_rounds_report_ratios_and_the_env_share(monkeypatch, capsys):
    """The figures of each round, and their medians, from the trainers' summaries (the
    trainers themselves faked: what is checked is the arithmetic and what is printed)."""
    from dugout.studies import bench_train as speed
    figures = iter([(1000.0, 30_000.0, 2000.0, 0.2), (2000.0, 50_000.0, 4000.0, 0.1),
                    (1000.0, 40_000.0, 2500.0, 0.3)])
    monkeypatch.setattr(speed, "one_round", lambda *args: next(figures))
    out = speed.main(["--rounds", "3"])
    assert [r["ratio"] for r in out["rounds"]] == [30.0, 25.0, 40.0]
    assert out["median_ratio"] == 30.0 and out["median_scalar_over_trivial"] == 0.5
    assert [r["env_share"] for r in out["rounds"]] == [0.2, 0.1, 0.3]
    printed = capsys.readouterr().out
    assert "(the env 20% of its time): 30.0x" in printed
    assert "median 30.0x (range 25.0-40.0x)" in printed and "median 20%" in printed
