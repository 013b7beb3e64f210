"""The SB3 trainer's teacher (dugout.train.ppo --teacher heuristic): the adapter's
teacher_action, the recorded choices aligned with the rollout buffer, the weight schedule,
bad settings, and a taught tiny run that plays like its teacher; the same for the Manager
Challenge's trainer (dugout.train.single --teacher heuristic)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from dugout.agents import make_agent  # noqa: E402
from dugout.train.adapter import SingleAgentEnv  # noqa: E402
from dugout.train.ppo import Settings, taught_ppo, teacher_weight, train  # noqa: E402


class FirstLegal:
    """A teacher whose choice can be read off the mask: the lowest legal action."""
    name, needs_view = "first-legal", False

    def reset(self, seed=None):
        pass

    def act(self, observation, view=None):
        return int(np.flatnonzero(observation["action_mask"])[0])


@pytest.mark.parametrize("env_id, name", [("thats_baseball_v0", "heuristic"), ("showdown_v0", "heuristic"),
                                          ("thats_baseball_v0", "solver")])
def test_teacher_action_is_the_managers_choice_from_the_learners_view(env_id, name):
    env = SingleAgentEnv(env_id, opponent="random", seed=3, teacher=name)
    heuristic = make_agent(env_id, name)
    rng = np.random.default_rng(0)
    for _ in range(3):
        _, info = env.reset()
        heuristic.reset(info["game_seed"])
        done, asked = False, 0
        while not done:
            view = env.raw.view(env.learner)
            want = heuristic.act(env.aec.observe(env.learner), view)
            got = env.teacher_action()
            assert got == want and env.action_masks()[got]
            asked += 1
            _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = term or trunc
        assert asked > 0 and env.teacher_action() == -1        # the game is over


def test_teacher_errors():
    with pytest.raises(RuntimeError, match="no teacher"):
        SingleAgentEnv("thats_baseball_v0").teacher_action()
    with pytest.raises(TypeError, match="teacher must be an agent name or an agent"):
        SingleAgentEnv("thats_baseball_v0", teacher=7)
    with pytest.raises(ValueError, match="unknown"):
        SingleAgentEnv("thats_baseball_v0", teacher="oracle")


@pytest.mark.parametrize("field, value, says", [
    ("teacher", "oracle", "teacher must be one of none, heuristic, solver"),
    ("teacher_fraction", 0.0, "teacher_fraction must be a positive number"),
    ("teacher_fraction", -0.5, "teacher_fraction must be a positive number"),
    ("teacher_fraction", float("nan"), "teacher_fraction must be a positive number"),
    ("teacher_fraction", float("inf"), "teacher_fraction must be a positive number"),   # not JSON
    ("teacher_coef", -1.0, "teacher_coef must be a non-negative number"),
    ("teacher_coef", float("inf"), "teacher_coef must be a non-negative number"),
])
def test_bad_teacher_settings(field, value, says):
    with pytest.raises(ValueError) as error:
        Settings(**{field: value})
    assert says in str(error.value)


def test_a_teacher_the_ruleset_lacks_is_refused():
    with pytest.raises(ValueError, match="teacher 'solver': pokemon_baseball_v0 has no such manager"):
        Settings(env="pokemon_baseball_v0", teacher="solver")
    assert Settings(env="bottom_ninth_v0", teacher="solver").teacher == "solver"


def test_teacher_weight_falls_linearly_to_zero_at_the_fraction():
    assert teacher_weight(2.0, 0.5, 0.0) == 2.0
    assert teacher_weight(2.0, 0.5, 0.25) == pytest.approx(1.0)
    assert teacher_weight(2.0, 0.5, 0.5) == 0.0 and teacher_weight(2.0, 0.5, 0.9) == 0.0
    assert teacher_weight(1.0, 1.0, 1.0) == 0.0
    assert teacher_weight(1.0, 2.0, 1.0) == pytest.approx(0.5)     # above 1: never 0 in the run


def test_the_recorded_choices_are_the_teachers_at_the_buffers_observations():
    """Each stored teacher's choice belongs to the observation stored beside it: with a
    teacher that takes the lowest legal action, it is the lowest legal action of the mask
    in the same slot of the rollout buffer, across episode ends."""
    from stable_baselines3.common.vec_env import DummyVecEnv
    n_envs, n_steps = 3, 96
    venv = DummyVecEnv([lambda i=i: SingleAgentEnv("thats_baseball_v0", opponent="random",
                                                   seed=i, teacher=FirstLegal())
                        for i in range(n_envs)])
    model = taught_ppo()("MlpPolicy", venv, n_steps=n_steps, batch_size=48, n_epochs=1,
                         seed=0, device="cpu")
    model.teacher_total = n_steps * n_envs
    model.learn(total_timesteps=n_steps * n_envs)
    masks = model.rollout_buffer.action_masks.reshape(n_envs, n_steps, -1).swapaxes(0, 1)
    want = np.argmax(masks > 0, axis=2)
    assert model.teacher_actions.shape == (n_steps, n_envs)
    assert (model.teacher_actions == want).all()
    assert model.rollout_buffer.episode_starts.sum() > n_envs   # games ended within it


def _agreement(path: str, games: int = 20) -> float:
    """How often the trained policy chooses what the heuristic would, at its own decisions
    in games against the heuristic."""
    from dugout.agents.policy import PolicyAgent
    from dugout.envs import make
    policy = PolicyAgent.load(path, "thats_baseball_v0", deterministic=True)
    heuristic = make_agent("thats_baseball_v0", "heuristic")
    env = make("thats_baseball_v0")
    agree = total = 0
    for game in range(games):
        env.reset(seed=game)
        heuristic.reset(game)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = env.unwrapped.view(agent)
            mine, its = policy.act(obs, view), heuristic.act(obs, view)
            agree += mine == its
            total += 1
            env.step(mine)
    return agree / total


def test_a_taught_tiny_run_plays_like_its_teacher(tmp_path):
    """8,192 timesteps: taught, the policy picks the heuristic's choice far more often than
    untaught from the same seed (measured 0.83 against 0.39)."""
    rates = {}
    for teacher in ("none", "heuristic"):
        s = Settings.for_env("thats_baseball_v0", total_timesteps=8192, n_steps=256,
                             teacher=teacher, eval_every=10**9, eval_pairs=2, progress=False,
                             out=str(tmp_path / teacher))
        rates[teacher] = _agreement(str(train(s) / "model"))
    assert rates["heuristic"] > 0.7 and rates["heuristic"] > rates["none"] + 0.2, rates


def test_a_taught_run_resumes_taught_on_its_own_schedule(tmp_path):
    """A resumed run is still a taught one (its updates log the teacher's weight; a plain
    MaskablePPO logs none) and keeps the schedule of the run as first started: resumed
    past its first 256 timesteps, the weight stays 0."""
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    common = dict(n_steps=64, batch_size=32, n_envs=2, teacher="heuristic", eval_every=10**9,
                  eval_pairs=2, progress=False, out=str(tmp_path / "run"))
    train(Settings.for_env("thats_baseball_v0", total_timesteps=256, **common))
    out = train(Settings.for_env("thats_baseball_v0", total_timesteps=512, resume=True, **common))
    weights = {}
    for events in (out / "tb").rglob("events*"):
        acc = EventAccumulator(str(events))
        acc.Reload()
        if "train/teacher_weight" in acc.Tags()["scalars"]:
            weights.update({e.step: e.value for e in acc.Scalars("train/teacher_weight")})
    assert set(weights) == {256, 512} and weights[512] == 0.0
    model = taught_ppo().load(str(out / "model" / "model.zip"), device="cpu")
    assert model.teacher_total == 256 and model.num_timesteps == 512


def test_a_resumed_run_records_its_own_network_and_schedule(tmp_path):
    """Resumed under other defaults (a later version's net or teacher weights), the run
    keeps the model's own and writes those into settings.json and its checkpoints."""
    import json
    common = dict(n_steps=64, batch_size=32, n_envs=2, teacher="heuristic", eval_every=10**9,
                  eval_pairs=2, progress=False, out=str(tmp_path / "run"))
    train(Settings.for_env("thats_baseball_v0", total_timesteps=128, net_arch=(16,), teacher_coef=2.0,
                           teacher_fraction=3.0, **common))
    out = train(Settings.for_env("thats_baseball_v0", total_timesteps=256, resume=True, net_arch=(64, 64),
                                 teacher_coef=5.0, teacher_fraction=10.0, **common))
    for settings in (json.loads((out / "settings.json").read_text()),
                     json.loads((out / "model" / "meta.json").read_text())["settings"]):
        assert settings["net_arch"] == [16]
        assert settings["teacher_coef"] == 2.0 and settings["teacher_fraction"] == 3.0


@pytest.mark.parametrize("first, then, says", [
    ({"teacher": "none"}, {"teacher": "heuristic"}, "--teacher none"),
    ({"teacher": "heuristic"}, {"teacher": "none"}, "--teacher heuristic"),
    ({"teacher": "none"}, {"teacher": "none", "shaping": "win-expectancy"}, "--shaping none"),
])
def test_resume_refuses_another_teacher_or_shaping(tmp_path, first, then, says):
    common = dict(n_steps=64, batch_size=32, n_envs=2, eval_every=10**9, eval_pairs=2,
                  progress=False, out=str(tmp_path / "run"))
    train(Settings.for_env("thats_baseball_v0", total_timesteps=128, **common, **first))
    with pytest.raises(ValueError, match=f"trained with {says}"):
        train(Settings.for_env("thats_baseball_v0", total_timesteps=256, resume=True, **common,
                               **then))


# -- the Manager Challenge's trainer (dugout train challenge --teacher heuristic) -----------------
def test_the_challenge_teacher_is_the_heuristics_choice_from_the_managers_view():
    """Taught's teacher_action is the challenge heuristic's choice for the observation about
    to be acted on, whatever the policy then plays, and -1 once the campaign is over."""
    from dugout.agents.manager_challenge import ChallengeHeuristic
    from dugout.envs.bottom_ninth.challenge import ManagerChallengeEnv
    from dugout.train.single import Taught
    env = Taught(ManagerChallengeEnv(), ChallengeHeuristic())
    with pytest.raises(RuntimeError, match="before reset"):
        env.teacher_action()
    heuristic = ChallengeHeuristic()
    rng = np.random.default_rng(1)
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        asked, done = 0, False
        while not done:
            want = heuristic.act({"observation": obs, "action_mask": info["action_mask"]},
                                 env.unwrapped.view())
            assert env.teacher_action() == want and info["action_mask"][want]
            asked += 1
            legal = np.flatnonzero(info["action_mask"])
            obs, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
            done = terminated or truncated
        assert asked > 20 and env.teacher_action() == -1


@pytest.mark.parametrize("field, value, says", [
    ("teacher", "solver", "teacher must be one of none, heuristic"),
    ("teacher_fraction", 0.0, "teacher_fraction must be a positive number"),
    ("teacher_coef", float("inf"), "teacher_coef must be a non-negative number"),
])
def test_bad_challenge_teacher_settings(field, value, says):
    from dugout.train.single import SingleSettings
    with pytest.raises(ValueError) as error:
        SingleSettings(**{field: value})
    assert says in str(error.value)


def _challenge_agreement(path: str, campaigns: int = 4) -> float:
    """How often the trained policy chooses what the challenge heuristic would, at the
    decisions with a choice of its own campaigns."""
    from dugout.agents.manager_challenge import ChallengeHeuristic
    from dugout.agents.policy import PolicyAgent
    from dugout.envs.bottom_ninth.challenge import ManagerChallengeEnv
    policy = PolicyAgent.load(path, "manager_challenge_v0", deterministic=True)
    heuristic, env = ChallengeHeuristic(), ManagerChallengeEnv()
    agree = total = 0
    for seed in range(campaigns):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            o = {"observation": obs, "action_mask": info["action_mask"]}
            mine = policy.act(o, None)
            if info["action_mask"].sum() > 1:
                agree += mine == heuristic.act(o, env.view())
                total += 1
            obs, _, terminated, truncated, info = env.step(mine)
            done = terminated or truncated
    return agree / total


def test_a_taught_tiny_challenge_run_plays_like_its_teacher(tmp_path):
    """8,192 timesteps of the Manager Challenge: taught, the policy picks the heuristic's
    choice far more often than untaught from the same seed (measured 0.65 against 0.23)."""
    from dugout.train.single import SingleSettings, train_single
    rates = {}
    for teacher in ("none", "heuristic"):
        s = SingleSettings(total_timesteps=8192, n_steps=256, teacher=teacher, teacher_coef=5.0,
                           eval_every=10**9, eval_campaigns=2, progress=False,
                           out=str(tmp_path / teacher))
        rates[teacher] = _challenge_agreement(str(train_single(s) / "model"))
    assert rates["heuristic"] > 0.5 and rates["heuristic"] > rates["none"] + 0.25, rates
