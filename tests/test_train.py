"""Training: the single-agent adapter, checkpoints and PolicyAgent, a tiny training run."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from dugout.agents import RandomAgent, make_agent
from dugout.envs import thats_baseball_v0
from dugout.envs.thats_baseball.env import OBS
from dugout.agents.play import play_game
from dugout.agents.registry import managers
from dugout.train.adapter import SingleAgentEnv
from dugout.agents.policy import CheckpointError, PolicyAgent, read_meta


class Recorder:
    """An opponent that plays randomly and remembers whether it made the last move."""
    name, needs_view = "recorder", False

    def __init__(self):
        self.inner = RandomAgent(7)
        self.moved_last = False

    def reset(self, seed=None):
        self.inner.reset(seed)

    def act(self, observation, view=None):
        self.moved_last = True
        return self.inner.act(observation)


@pytest.mark.parametrize("env_id", ["thats_baseball_v0", "grand_slam_v0", "showdown_v0"])
def test_adapter_rewards_the_learners_seat_whoever_moves_last(env_id):
    opponent = Recorder()
    env = SingleAgentEnv(env_id, opponent=opponent, seed=3)
    learner = RandomAgent(11)
    seen = {("away", True): 0, ("away", False): 0, ("home", True): 0, ("home", False): 0}
    for _ in range(120):
        obs, info = env.reset()
        seat = info["learner"]
        while True:
            mask = env.action_masks()
            opponent.moved_last = False
            obs, reward, terminated, truncated, info = env.step(
                learner.act({"observation": obs, "action_mask": mask.astype(np.int8)}))
            if terminated or truncated:
                break
            assert reward == 0.0
        score = info["score"]
        other = "home" if seat == "away" else "away"
        assert reward == (1.0 if score[seat] > score[other] else -1.0)
        assert reward == (1.0 if info["winner"] == seat else -1.0) and info["learner"] == seat
        assert not env.action_masks().any()
        seen[(seat, opponent.moved_last)] += 1
    assert all(n > 0 for n in seen.values()), seen       # every seat, either manager last


def test_adapter_observations_and_masks_are_the_learners():
    env = SingleAgentEnv("thats_baseball_v0", opponent="heuristic", seat="home", seed=0)
    seat_at = OBS.offset["seat"]
    for _ in range(5):
        obs, info = env.reset()
        assert info["learner"] == "home"
        done = False
        while not done:
            assert obs[seat_at:seat_at + 2].tolist() == [0.0, 1.0]
            aec_mask = env.aec.observe("home")["action_mask"].astype(bool)
            assert np.array_equal(env.action_masks(), aec_mask) and aec_mask.any()
            obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(aec_mask)[-1]))
            done = terminated or truncated
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_adapter_alternates_seats_and_is_reproducible():
    a = SingleAgentEnv("thats_baseball_v0", seed=5)
    b = SingleAgentEnv("thats_baseball_v0", seed=5)
    seats = []
    for _ in range(4):
        oa, ia = a.reset()
        ob, ib = b.reset()
        assert np.array_equal(oa, ob) and ia == ib
        seats.append(ia["learner"])
    assert seats == ["away", "home", "away", "home"]


@pytest.mark.parametrize("env_id", ["thats_baseball_v0", "grand_slam_v0", "showdown_v0"])
def test_shaped_return_is_the_result_less_the_first_positions_potential(env_id):
    """Potential-based shaping: the rewards of a game add up to its result minus the
    potential where the learner first decided (so the best policy is unchanged)."""
    potential = managers(env_id).win_expectancy
    env = SingleAgentEnv(env_id, opponent="heuristic", seed=2, shaping="win-expectancy")
    plain = SingleAgentEnv(env_id, opponent="heuristic", seed=2)
    learner = RandomAgent(5)
    for _ in range(6):
        obs, info = env.reset()
        plain.reset()
        first = 2 * potential(env.raw.view(info["learner"])) - 1
        total, rewards, done = 0.0, [], False
        while not done:
            a = learner.act({"observation": obs, "action_mask": env.action_masks().astype(np.int8)})
            obs, reward, terminated, truncated, end = env.step(a)
            _, result, *_ = plain.step(a)
            total += reward
            rewards.append(reward)
            done = terminated or truncated
        assert total == pytest.approx(result - first, abs=1e-9)
        assert any(abs(r) > 1e-6 for r in rewards[:-1])          # it does shape


def test_adapter_bad_input():
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv("thats_baseball_v0", seat="visitors")
    with pytest.raises(ValueError, match="unknown environment 'cricket_v0'"):
        SingleAgentEnv("cricket_v0")
    with pytest.raises(TypeError, match="opponent"):
        SingleAgentEnv("thats_baseball_v0", opponent=42)
    with pytest.raises(ValueError, match="shaping"):
        SingleAgentEnv("thats_baseball_v0", shaping="dense")


def test_maskable_ppo_accepts_the_adapter():
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_checker import check_env
    env = SingleAgentEnv("grand_slam_v0", opponent="heuristic")
    check_env(env, warn=True)
    env.reset()
    assert is_masking_supported(env) and get_action_masks(env).any()


# -- a tiny training run, as a user runs it ---------------------------------------------------
TINY = ["--total-timesteps", "256", "--n-steps", "64", "--batch-size", "32", "--n-envs", "2",
        "--eval-every", "128", "--pool-every", "64", "--eval-pairs", "2", "--no-progress"]


def _train(*args):
    return subprocess.run([sys.executable, "-m", "dugout.train", *args], capture_output=True,
                          text=True, timeout=600)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "tb"
    done = _train("--env", "thats_baseball_v0", "--out", str(out), *TINY)
    assert done.returncode == 0, done.stderr
    return out


def test_tiny_run_writes_checkpoints_log_and_curve(tiny_run):
    meta = read_meta(tiny_run / "model")
    assert meta["env_id"] == "thats_baseball_v0" and meta["obs_size"] == OBS.size
    assert meta["n_actions"] == 5 and meta["timesteps"] == 256
    assert meta["settings"]["seed"] == 0 and meta["dugout_version"]
    assert len(list((tiny_run / "checkpoints").iterdir())) >= 2
    assert len(list((tiny_run / "pool").iterdir())) >= 3
    rows = (tiny_run / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,") and len(rows) >= 3
    assert (tiny_run / "learning_curve.png").stat().st_size > 10_000
    assert list((tiny_run / "tb").rglob("events.out.tfevents*"))
    summary = json.loads((tiny_run / "summary.json").read_text())
    assert summary["timesteps"] == 256 and 0 < summary["env_share"] < 1


def test_tiny_run_resumes_and_refuses_to_overwrite(tiny_run):
    again = _train("--env", "thats_baseball_v0", "--out", str(tiny_run), *TINY)
    assert again.returncode != 0 and "--resume" in again.stderr
    more = _train("--env", "thats_baseball_v0", "--out", str(tiny_run), "--resume",
                  *TINY[2:], "--total-timesteps", "512")
    assert more.returncode == 0, more.stderr
    assert read_meta(tiny_run / "model")["timesteps"] == 512
    other = _train("--env", "grand_slam_v0", "--out", str(tiny_run), "--resume", *TINY)
    assert other.returncode != 0 and "thats_baseball_v0" in other.stderr


def test_trained_policy_plays_as_an_agent_and_refuses_other_envs(tiny_run):
    agent = PolicyAgent.load(tiny_run / "model")
    env = thats_baseball_v0.env()
    result = play_game(env, {"away": agent, "home": make_agent("thats_baseball_v0", "heuristic")}, 3)
    assert result.winner in ("away", "home")
    by_name = make_agent("thats_baseball_v0", f"ppo:{tiny_run / 'model'}")
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert by_name.act(obs) == agent.act(obs)
    p = agent.action_probabilities(obs)
    assert p.sum() == pytest.approx(1.0) and (p[obs["action_mask"] == 0] == 0).all()
    # the fast path reads the same distribution the policy samples from in training
    import torch
    mask = obs["action_mask"].astype(bool)
    with torch.no_grad():
        tensor, _ = agent.model.policy.obs_to_tensor(obs["observation"])
        sb3 = agent.model.policy.get_distribution(tensor, action_masks=mask[None]).distribution.probs
    np.testing.assert_allclose(agent.policy_probabilities_batch(obs["observation"], mask)[0],
                               sb3.numpy()[0], atol=1e-6)
    with pytest.raises(CheckpointError, match="trained on thats_baseball_v0, not grand_slam_v0"):
        PolicyAgent.load(tiny_run / "model", env_id="grand_slam_v0")
    with pytest.raises(CheckpointError, match="observations of size 56"):
        agent.act({"observation": np.zeros(81, np.float32), "action_mask": np.ones(20, np.int8)})
    with pytest.raises(CheckpointError, match="no checkpoint"):
        PolicyAgent.load(tiny_run / "nothing-here")


def test_same_seed_same_first_checkpoint(tiny_run, tmp_path):
    import torch
    done = _train("--env", "thats_baseball_v0", "--out", str(tmp_path / "again"), *TINY)
    assert done.returncode == 0, done.stderr
    first = sorted((tiny_run / "checkpoints").iterdir())[0]
    again = sorted((tmp_path / "again" / "checkpoints").iterdir())[0]
    assert first.name == again.name
    a = PolicyAgent.load(first).model.policy.state_dict()
    b = PolicyAgent.load(again).model.policy.state_dict()
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_training_command_line_errors():
    bad = _train("--env", "cricket_v0")
    assert bad.returncode != 0 and "unknown environment 'cricket_v0'" in bad.stderr
    bad = _train("--env", "thats_baseball_v0", "--total-timesteps", "0")
    assert bad.returncode != 0 and "total_timesteps must be at least 1" in bad.stderr
