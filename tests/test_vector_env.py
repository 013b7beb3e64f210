"""The Gymnasium VectorEnv over batched That's Baseball games (``dugout.vector.env``) and the
masked PPO that trains on it (``dugout.train.vector_ppo``).

* a game of the vector env, replayed in the AEC env (``thats_baseball_v0``) with the same
  seed, the learner's recorded actions and the same opponent (the rulebook heuristic, a
  policy network), is the same game: the learner's observation and mask at every one of
  his decisions, and the reward at the end;
* the autoreset conventions (next step, same step), seats, seeds and reproducibility;
* bad input fails with a clear error;
* PPO on a tiny budget is reproducible with a fixed seed, and its checkpoint loads as a
  ``PolicyAgent`` that plays the AEC env.
"""

from __future__ import annotations

import numpy as np
import pytest

from dugout.agents.policy import PolicyAgent, build_actor
from dugout.agents.thats_baseball import ThatsBaseballHeuristic
from dugout.envs import thats_baseball_v0
from dugout.envs.core.errors import IllegalActionError
from dugout.envs.thats_baseball.env import OBS
from dugout.vector import ThatsBaseballVectorEnv

AGENTS = ("away", "home")


def play_vector(env: ThatsBaseballVectorEnv, seed: int, rng: np.random.Generator):
    """Play every sub-env's first game with random learner actions; record per game its
    seed, the learner's seat, (observation, mask, action) at each decision and the reward."""
    obs, infos = env.reset(seed=seed)
    n = env.num_envs
    records = [{"seed": int(infos["seed"][i]), "seat": int(infos["seat"][i]), "steps": [],
                "reward": None} for i in range(n)]
    done = np.zeros(n, dtype=bool)
    masks = infos["action_mask"]
    while not done.all():
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        actions = keys.argmax(axis=1)
        for i in np.flatnonzero(~done):
            records[i]["steps"].append((obs[i].copy(), masks[i].copy(), int(actions[i])))
        obs, rewards, term, trunc, infos = env.step(actions)
        masks = infos["action_mask"]
        for i in np.flatnonzero((term | trunc) & ~done):
            records[i]["reward"] = float(rewards[i])
            records[i]["truncated"] = bool(trunc[i])
        done |= term | trunc
    return records


def replay_aec(record, opponent, innings=9, max_innings=None):
    """The same game through the AEC env: the learner plays his recorded actions, the
    opponent agent the other seat; checks the learner's observations on the way."""
    env = thats_baseball_v0.env(innings=innings, max_innings=max_innings)
    env.reset(seed=record["seed"])
    learner = AGENTS[record["seat"]]
    steps = iter(record["steps"])
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            if agent == learner:
                assert reward == record["reward"]
                assert trunc == record.get("truncated", False)
            env.step(None)
            continue
        if agent == learner:
            o, mask, action = next(steps)
            assert np.array_equal(obs["observation"], o)
            assert np.array_equal(obs["action_mask"].astype(bool), mask)
            env.step(action)
        else:
            env.step(opponent.act(obs, env.unwrapped.view(agent)))
    assert next(steps, None) is None, "the vector env's game had more learner decisions"


def test_a_vector_game_is_the_aec_game_against_the_heuristic():
    env = ThatsBaseballVectorEnv(48, opponent="heuristic")
    records = play_vector(env, seed=11, rng=np.random.default_rng(5))
    assert {r["seat"] for r in records} == {0, 1}
    for r in records:
        replay_aec(r, ThatsBaseballHeuristic())


def test_a_vector_game_is_the_aec_game_against_a_policy_network():
    import torch
    torch.manual_seed(3)
    actor = build_actor(OBS.size, [16], "Tanh", 5)
    env = ThatsBaseballVectorEnv(24, opponent=actor, seat=1)
    records = play_vector(env, seed=100, rng=np.random.default_rng(6))
    agent = PolicyAgent(actor, {"env_id": "thats_baseball_v0", "obs_size": OBS.size, "n_actions": 5,
                                "net_arch": [16], "activation": "Tanh"})
    for r in records:
        assert r["seat"] == 1
        replay_aec(r, agent)


def test_truncated_games_reward_zero_and_match_the_aec_env():
    env = ThatsBaseballVectorEnv(64, innings=1, max_innings=1, opponent="random", seat=0)
    records = play_vector(env, seed=0, rng=np.random.default_rng(0))
    cut = [r for r in records if r["truncated"]]
    assert cut and all(r["reward"] == 0.0 for r in cut)
    assert all(r["reward"] in (-1.0, 1.0) for r in records if not r["truncated"])


def test_next_step_autoreset_ignores_the_action_and_starts_a_new_game():
    env = ThatsBaseballVectorEnv(32, opponent="random", seed=1)
    obs, infos = env.reset(seed=1)
    rng = np.random.default_rng(1)
    seen_done = False
    for _ in range(400):
        masks = env.action_masks()
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        obs, rewards, term, trunc, infos = env.step(keys.argmax(axis=1))
        done = term | trunc
        if done.any():
            i = int(np.flatnonzero(done)[0])
            seed = infos["seed"][i]
            assert not env.action_masks()[i].any(), "a finished game waits for its reset"
            # any action (even an illegal one) is ignored at the reset step
            actions = np.zeros(env.num_envs, dtype=np.int64)
            masks = env.action_masks()
            live = np.flatnonzero(masks.any(axis=1))
            actions[live] = masks[live].argmax(axis=1)
            actions[i] = 4
            obs2, rewards2, term2, trunc2, infos2 = env.step(actions)
            assert rewards2[i] == 0 and not term2[i] and not trunc2[i]
            assert infos2["seed"][i] != seed
            assert env.action_masks()[i].any()
            seen_done = True
            break
    assert seen_done


def test_same_step_autoreset_returns_the_new_game_and_the_final_observation():
    env = ThatsBaseballVectorEnv(32, opponent="random", autoreset_mode="same_step")
    obs, infos = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(400):
        masks = infos["action_mask"]
        assert masks.any(axis=1).all(), "with same-step autoreset every game waits on the learner"
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        obs, rewards, term, trunc, infos = env.step(keys.argmax(axis=1))
        done = term | trunc
        if done.any():
            assert np.array_equal(infos["_final_obs"], done)
            for i in np.flatnonzero(done):
                final = infos["final_obs"][i]
                assert final.shape == (OBS.size,) and not np.array_equal(final, obs[i])
            return
    pytest.fail("no game ended")


def test_reset_with_a_seed_reproduces_the_run_and_numbers_the_games():
    def run(seed):
        env = ThatsBaseballVectorEnv(16, opponent=["random", "heuristic"], seed=seed)
        return play_vector(env, seed, np.random.default_rng(0))
    a, b = run(7), run(7)
    assert [r["seed"] for r in a] == list(range(7, 23))
    for x, y in zip(a, b):
        assert x["seat"] == y["seat"] and x["reward"] == y["reward"]
        assert all(np.array_equal(p[0], q[0]) and p[2] == q[2] for p, q in zip(x["steps"], y["steps"]))


def test_spaces_hold_the_observations():
    env = ThatsBaseballVectorEnv(8)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert env.single_action_space.n == 5 and env.action_space.shape == (8,)
    assert env.metadata["autoreset_mode"].value == "NextStep"


@pytest.mark.parametrize("kwargs, words", [
    ({"num_envs": 0}, "num_envs"),
    ({"num_envs": 4, "seat": 2}, "seat"),
    ({"num_envs": 4, "opponent": "nobody"}, "unknown opponent"),
    ({"num_envs": 4, "opponent": ["random", "heuristic"], "opponent_weights": [1.0]}, "opponent_weights"),
    ({"num_envs": 4, "autoreset_mode": "never"}, "autoreset_mode"),
    ({"num_envs": 4, "teams": ("sample", "nowhere")}, "nowhere"),
])
def test_bad_options_fail_naming_the_problem(kwargs, words):
    with pytest.raises(Exception, match=words):
        ThatsBaseballVectorEnv(**kwargs)


def test_illegal_or_malformed_actions_are_refused():
    env = ThatsBaseballVectorEnv(4, opponent="random")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="4 integers"):
        env.step(np.zeros(3, dtype=np.int64))
    masks = env.action_masks()
    actions = masks.argmax(axis=1)
    i = 0
    actions[i] = int(np.flatnonzero(~masks[i])[0])
    with pytest.raises(IllegalActionError, match=f"game {i}"):
        env.step(actions)
    with pytest.raises(RuntimeError, match="reset"):
        ThatsBaseballVectorEnv(2).step(np.zeros(2, dtype=np.int64))


# -- the trainer --------------------------------------------------------------------------------
def _tiny(tmp_path, name, **kw):
    from dugout.train.vector_ppo import VectorSettings
    return VectorSettings(total_timesteps=2 * 64 * 8, num_envs=64, num_steps=8, num_minibatches=4,
                          update_epochs=2, pool_every=64 * 8, pool_size=2, eval_every=10**9,
                          eval_games=32, net_arch=(16,), out=str(tmp_path / name), **kw)


def test_vector_ppo_is_reproducible_and_its_checkpoint_plays_the_aec_env(tmp_path):
    import torch
    from dugout.agents.play import play_game
    from dugout.train.vector_ppo import train
    a = train(_tiny(tmp_path, "a"), log=lambda _: None)
    b = train(_tiny(tmp_path, "b"), log=lambda _: None)
    wa, wb = (torch.load(p / "model" / "policy.pt", weights_only=True) for p in (a, b))
    assert wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)
    init = build_actor(OBS.size, [16], "Tanh", 5).state_dict()
    assert any(not torch.equal(wa[k], init[k]) for k in wa)       # it learned something
    agent = PolicyAgent.load(a / "model", env_id="thats_baseball_v0")
    assert agent.meta["timesteps"] == 2 * 64 * 8 and agent.meta["trainer"] == "vector_ppo"
    env = thats_baseball_v0.env()
    result = play_game(env, {"away": agent, "home": ThatsBaseballHeuristic()}, seed=0)
    assert result is not None
    assert (a / "eval.csv").is_file() and (a / "summary.json").is_file()


def test_vector_ppo_refuses_bad_settings(tmp_path):
    from dugout.train.vector_ppo import VectorSettings
    with pytest.raises(ValueError, match="num_minibatches"):
        VectorSettings(num_envs=10, num_steps=3, num_minibatches=4)
    with pytest.raises(ValueError, match="opponent"):
        VectorSettings(opponent="everyone")
    with pytest.raises(ValueError, match="p_random"):
        VectorSettings(p_random=0.8, p_heuristic=0.5)
