"""The RLlib recipe (:mod:`dugout.integrations.rllib`): the ``MultiAgentEnv`` wrapper against
RLlib's own env pre-check and against direct play of the AEC env, the action-masking RLModule,
and one iteration of multi-agent PPO with action masking on every registered env. Then
self-play against a league (:mod:`dugout.train.rllib`): the seating of main and the league
slots, snapshots that copy main and stay frozen, a module exported as a dugout checkpoint
that plays as the module does, and a few iterations of training whose checkpoint plays in a
tournament on the ray backend with the numbers of ``--workers 1``.

These tests need Ray RLlib, which pins its own Gymnasium, so they run in a venv of their own:
``scripts/test_rllib.sh`` (which runs ``pytest -m rllib tests/test_rllib.py``). The main run
deselects them (``-m "not rllib"``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dugout.envs as envs
from dugout.envs.core.errors import UnknownEnvError
from dugout.integrations import rllib     # imports Ray only when used
from helpers import case_id, cases, ties_won

pytestmark = [
    pytest.mark.rllib,
    # RLlib re-registers its own gymnasium id for every algorithm it builds
    pytest.mark.filterwarnings("ignore:.*Overriding environment rllib-multi-agent-env"),
]

AGENTS = ("away", "home")
#: (env_id, options): every registered env with each of the contract suite's option sets
#: (Showdown at both levels, Bottom of the 9th's duel and longer game, ...)
CASES = cases()
CASE_IDS = [case_id(env_id, options) for env_id, options in CASES]
#: a one-inning game that a tie cuts off (every ruleset takes these options)
CUT_OFF = {"innings": 1, "max_innings": 1}
GAMES = 25


def test_every_registered_env_is_covered():
    assert {env_id for env_id, _ in CASES} == set(envs.ENV_IDS)


# -- the env wrapper ---------------------------------------------------------------------------
@pytest.mark.parametrize("env_id, options", CASES, ids=CASE_IDS)
def test_rllib_env_pre_check(env_id, options):
    """RLlib's own check of a MultiAgentEnv (reset, a step with a sampled action, the dicts)."""
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments
    env = rllib.make_env(env_id, **options)
    check_multiagent_environments(env)


@pytest.mark.parametrize("env_id, options", CASES, ids=CASE_IDS)
def test_spaces_follow_rllibs_action_masking_layout(env_id, options):
    env = rllib.make_env(env_id, **options)
    aec = envs.make(env_id, **options)
    assert env.agents == env.possible_agents == list(AGENTS)
    for agent in AGENTS:
        space = env.get_observation_space(agent)
        assert set(space.spaces) == {"observations", "action_mask"}
        inner = aec.observation_space(agent)["observation"]
        assert space["observations"].shape == inner.shape
        assert space["observations"].dtype == np.float32
        n = aec.action_space(agent).n
        assert env.get_action_space(agent) == aec.action_space(agent)
        assert space["action_mask"].shape == (n,)
        assert space["action_mask"].dtype == np.float32


def _random_legal(rng, mask):
    legal = np.flatnonzero(mask)
    assert legal.size, "the acting manager has no legal action"
    return int(rng.choice(legal))


def _play_direct(env_id, options, seed, rng):
    """A seeded game of the AEC env with random legal actions: each decision's (agent, obs,
    mask), the final score and the rewards."""
    env = envs.make(env_id, **options)
    env.reset(seed=seed)
    trace = []
    rewards = {a: 0.0 for a in AGENTS}
    flags = None
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            if flags is None:       # before the dead steps take the agents out
                flags = (dict(env.unwrapped.terminations), dict(env.unwrapped.truncations))
            env.step(None)
            continue
        trace.append((agent, obs["observation"].copy(), obs["action_mask"].copy()))
        env.step(_random_legal(rng, obs["action_mask"]))
    return trace, tuple(env.unwrapped.game.score), rewards, flags


def _play_wrapped(env, seed, rng):
    """The same through the RLlib wrapper, checking the turn-based protocol on the way."""
    obs, infos = env.reset(seed=seed)
    trace = []
    while True:
        assert len(obs) == 1, f"a live step observes only the manager to act, got {list(obs)}"
        (agent, o), = obs.items()
        assert agent == env.aec_env.agent_selection
        assert env.get_observation_space(agent).contains(o)
        trace.append((agent, o["observations"], o["action_mask"]))
        obs, rewards, terminateds, truncateds, infos = env.step(
            {agent: _random_legal(rng, o["action_mask"])})
        assert agent in rewards, "the manager who acted gets a reward (RLlib requires one)"
        if terminateds["__all__"] or truncateds["__all__"]:
            break
        assert rewards == {agent: 0.0}
        assert not any(v for k, v in terminateds.items()) and not any(truncateds.values())
    # the end: both managers observe, get their reward and their flags
    assert set(obs) == set(rewards) == set(infos) == set(AGENTS)
    for agent in AGENTS:
        assert env.get_observation_space(agent).contains(obs[agent])
        assert not obs[agent]["action_mask"].any()
        assert terminateds[agent] == terminateds["__all__"]
        assert truncateds[agent] == truncateds["__all__"]
    assert terminateds["__all__"] != truncateds["__all__"]
    return trace, rewards, terminateds, truncateds, infos


@pytest.mark.parametrize("env_id, options", CASES, ids=CASE_IDS)
def test_random_play_matches_direct_play(env_id, options):
    """Same seed and same random legal actions: the wrapper's games are the AEC env's games,
    decision by decision (agent, observation, mask), with the same score and rewards."""
    env = rllib.make_env(env_id, **options)
    for seed in range(GAMES):
        direct, score, direct_rewards, (terms, truncs) = _play_direct(
            env_id, options, seed, np.random.default_rng(seed))
        wrapped, rewards, terminateds, truncateds, infos = _play_wrapped(
            env, seed, np.random.default_rng(seed))
        assert len(wrapped) == len(direct)
        for (a, obs_a, mask_a), (b, obs_b, mask_b) in zip(wrapped, direct):
            assert a == b
            np.testing.assert_array_equal(obs_a, obs_b)
            np.testing.assert_array_equal(mask_a, mask_b.astype(np.float32))
        assert tuple(env.aec_env.unwrapped.game.score) == score
        assert infos["away"]["score"] == {"away": score[0], "home": score[1]}
        assert rewards == direct_rewards
        assert sum(rewards.values()) == 0
        for agent in AGENTS:
            assert terminateds[agent] == terms[agent] and truncateds[agent] == truncs[agent]
        if terminateds["__all__"]:
            winner = infos["home"]["winner"]
            seat = AGENTS.index(winner)
            assert rewards[winner] == 1.0
            # the winner has more runs, or won a tie where the rules say so (Bottom of the
            # 9th's pitcher at the third out, 0-0: helpers.ties_won)
            assert score[seat] > score[1 - seat] or (
                ties_won(env_id, options) and score[seat] == score[1 - seat])


def test_cut_off_games_truncate_and_games_over_at_once_are_skipped():
    """A one-inning game cut off tied truncates with 0 each and a last observation for both
    (RLlib needs it to bootstrap); a game over before any decision is skipped by reset()."""
    env = rllib.make_env("thats_baseball_v0", **CUT_OFF)
    rng = np.random.default_rng(0)
    truncated = 0
    for seed in range(40):
        _, rewards, _, truncateds, infos = _play_wrapped(env, seed, rng)
        if truncateds["__all__"]:
            truncated += 1
            assert rewards == {"away": 0.0, "home": 0.0}
            assert infos["away"]["winner"] == ""
    assert truncated > 0
    # seed 5 is over before any decision in a one-inning game: reset() moved on to a live one
    raw = envs.make("thats_baseball_v0", **CUT_OFF)
    raw.reset(seed=5)
    assert all(raw.unwrapped.truncations.values()) or all(raw.unwrapped.terminations.values())
    obs, _ = env.reset(seed=5)
    assert len(obs) == 1 and np.asarray(next(iter(obs.values()))["action_mask"]).any()


def test_illegal_action_loses_the_game():
    env = rllib.make_env("thats_baseball_v0")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    while True:     # play to a decision with an illegal action
        (agent, o), = obs.items()
        if not o["action_mask"].all():
            break
        obs, *_ = env.step({agent: _random_legal(rng, o["action_mask"])})
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    obs, rewards, terminateds, truncateds, infos = env.step({agent: illegal})
    other = AGENTS[1 - AGENTS.index(agent)]
    assert terminateds["__all__"] and not truncateds["__all__"]
    assert rewards[agent] == -1.0 and rewards[other] == 0.0
    assert infos[agent]["illegal_action_by"] == agent
    with pytest.raises(RuntimeError, match="after the game ended"):
        env.step({agent: 0})
    strict = rllib.make_env("thats_baseball_v0", illegal_action="raise")
    obs, _ = strict.reset(seed=3)
    (agent, o), = obs.items()
    with pytest.raises(KeyError, match="turn"):
        strict.step({AGENTS[1 - AGENTS.index(agent)]: 0})


def test_forced_decisions_played_for_the_managers_change_no_game():
    """``"forced": "play"``: no manager is handed a single-option decision (Showdown's card
    windows where a manager holding cards can only pass), and the games are the ones played
    with every decision handed over, the lone actions taken."""
    options = {"level": "expert", "decks": "default"}
    ask = rllib.make_env("showdown_v0", **options)
    play = rllib.make_env("showdown_v0", forced="play", **options)
    lone = 0
    for seed in range(2):
        finals = []
        for env in (ask, play):
            rng = np.random.default_rng(seed)
            obs, _ = env.reset(seed=seed)
            while True:
                (agent, o), = obs.items()
                legal = np.flatnonzero(o["action_mask"])
                if env is play:
                    assert len(legal) > 1
                elif len(legal) == 1:
                    lone += 1
                a = int(legal[0]) if len(legal) == 1 else int(rng.choice(legal))
                obs, rewards, terminateds, _, _ = env.step({agent: a})
                if terminateds["__all__"] or len(obs) == 2:
                    break
            finals.append((rewards, env.aec_env.unwrapped.state_.to_dict()))
        assert finals[0] == finals[1]
    assert lone > 50 and play.forced_played == lone
    with pytest.raises(ValueError, match="forced must be 'ask' or 'play', got 'never'"):
        rllib.make_env("showdown_v0", forced="never")


def test_bad_config_is_named():
    with pytest.raises(ValueError, match="env_id"):
        rllib.DugoutMultiAgentEnv({})
    with pytest.raises(UnknownEnvError):
        rllib.make_env("no_such_game_v0")
    with pytest.raises(ValueError, match="policies"):
        rllib.ppo_config("thats_baseball_v0", policies="everyone")
    with pytest.raises(UnknownEnvError):
        rllib.ppo_config("no_such_game_v0")


def test_register_envs_with_tune():
    from ray.tune.registry import ENV_CREATOR, _global_registry
    names = rllib.register_envs()
    assert names == [f"dugout/{env_id}" for env_id in envs.env_ids()]
    creator = _global_registry.get(ENV_CREATOR, "dugout/showdown_v0")
    env = creator({"level": "advanced"})
    assert isinstance(env, rllib.DugoutMultiAgentEnv)
    assert env.env_id == "showdown_v0"
    obs, _ = env.reset(seed=0)
    assert len(obs) == 1


# -- the action-masking RLModule ---------------------------------------------------------------
def test_masking_module_never_picks_a_masked_action(tmp_path):
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec

    env = rllib.make_env("grand_slam_v0")
    space = env.get_observation_space("away")
    module = RLModuleSpec(module_class=rllib.ActionMaskingTorchRLModule,
                          observation_space=space, action_space=env.get_action_space("away"),
                          model_config={"fcnet_hiddens": [16]}).build()
    assert module.observation_space == space
    rng = np.random.default_rng(0)
    n = space["action_mask"].shape[0]
    masks = np.zeros((64, n), np.float32)
    for row in masks:
        row[rng.choice(n, size=rng.integers(1, 4), replace=False)] = 1.0
    obs = {"observations": torch.as_tensor(rng.normal(size=(64,) + space["observations"].shape),
                                            dtype=torch.float32),
           "action_mask": torch.as_tensor(masks)}
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        out = forward({Columns.OBS: dict(obs)})
        logits = out[Columns.ACTION_DIST_INPUTS]
        dist = module.get_exploration_action_dist_cls().from_logits(logits)
        actions = dist.sample().numpy()
        assert (masks[np.arange(64), actions] == 1).all()
        probs = torch.softmax(logits, -1).detach().numpy()
        assert probs[masks == 0].max() < 1e-6
    values = module.compute_values({Columns.OBS: dict(obs)})
    assert values.shape == (64,) and torch.isfinite(values).all()
    # a checkpoint restores the module with the env's space (mask included)
    module.save_to_path(tmp_path / "module")
    restored = RLModule.from_checkpoint(tmp_path / "module")
    assert type(restored) is rllib.ActionMaskingTorchRLModule
    assert restored.observation_space == space
    logits = [m.forward_inference({Columns.OBS: dict(obs)})[Columns.ACTION_DIST_INPUTS]
              for m in (module, restored)]
    torch.testing.assert_close(*logits)


# -- one iteration of multi-agent PPO on every env ---------------------------------------------
@pytest.fixture(scope="module")
def ray_session():
    import ray
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def _weights(algo, module_id):
    return {k: v.detach().clone() for k, v in algo.get_module(module_id).state_dict().items()}


TRAIN_CASES = [(env_id, options, "shared") for env_id, options in CASES]
TRAIN_CASES += [("thats_baseball_v0", {}, "per_seat"), ("grand_slam_v0", CUT_OFF, "per_seat")]
TRAIN_IDS = [f"{case}-shared" for case in CASE_IDS]
TRAIN_IDS += ["thats_baseball_v0-per_seat", "grand_slam_v0-cut_off-per_seat"]


@pytest.mark.parametrize("env_id, options, policies", TRAIN_CASES, ids=TRAIN_IDS)
def test_one_ppo_iteration(ray_session, env_id, options, policies):
    """A tiny batch of multi-agent PPO with the masking module, in this process (no remote
    env runners or learners). The env raises on an illegal action, so a masked action that
    were sampled would fail the test."""
    config = rllib.ppo_config(
        env_id, policies=policies, env_options={**options, "illegal_action": "raise"}, seed=0,
        model_config={"fcnet_hiddens": [32, 32]},
        train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1, lr=1e-3)
    # RLlib's env pre-check steps an unmasked sampled action, which this strict env would
    # raise on; test_rllib_env_pre_check runs that check on the default (losing) env
    config.environment(disable_env_checking=True)
    config.env_runners(num_env_runners=0, num_envs_per_env_runner=1)
    config.learners(num_learners=0)
    algo = config.build_algo()
    try:
        modules = rllib.policy_ids(policies)
        before = {m: _weights(algo, m) for m in modules}
        result = algo.train()
        learners = result["learners"]
        for module_id in modules:
            assert module_id in learners
            assert math.isfinite(float(learners[module_id]["total_loss"]))
            after = _weights(algo, module_id)
            assert any(not torch_equal(before[module_id][k], after[k]) for k in after), \
                f"{module_id}'s weights did not change"
        runners = result["env_runners"]
        assert runners["num_env_steps_sampled"] >= 256
        if runners.get("num_episodes", 0):
            returns = runners["agent_episode_returns_mean"]
            assert abs(sum(returns.values())) < 1e-6     # +1 / -1 (or 0 / 0): zero-sum
    finally:
        algo.stop()


def torch_equal(a, b) -> bool:
    import torch
    return bool(torch.equal(a, b))


# -- self-play against a league, and its checkpoints in tournaments ------------------------------
def test_league_mapping_seats_main_and_the_slots_evenly():
    mapping = rllib.LeagueMapping(league_size=3, self_play=0.25)
    counts = {"self": 0, "away": 0, "home": 0}
    slots = dict.fromkeys(rllib.league_ids(3), 0)
    for i in range(4000):
        seats = mapping.seats(f"episode-{i}")
        assert seats == mapping.seats(f"episode-{i}")            # the same in any process
        mains = [a for a in AGENTS if seats[a] == rllib.MAIN]
        assert mains, "main plays every game"
        if len(mains) == 2:
            counts["self"] += 1
        else:
            counts[mains[0]] += 1
            slots[seats[AGENTS[1 - AGENTS.index(mains[0])]]] += 1
    # binomial sd is under 30 games: 120 is a 4-sd margin
    assert abs(counts["self"] - 1000) < 120 and abs(counts["away"] - counts["home"]) < 160
    assert all(abs(n - 1000) < 120 for n in slots.values())
    assert rllib.LeagueMapping(2, self_play=1.0).seats("x") == {"away": "main", "home": "main"}
    with pytest.raises(ValueError, match="self_play"):
        rllib.LeagueMapping(2, self_play=1.5)
    with pytest.raises(ValueError, match="league_size"):
        rllib.league_ids(0)


def _module(env_id, share: bool, hidden=(16, 8), **model):
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    env = rllib.make_env(env_id)
    return RLModuleSpec(module_class=rllib.ActionMaskingTorchRLModule,
                        observation_space=env.get_observation_space("away"),
                        action_space=env.get_action_space("away"),
                        model_config={"fcnet_hiddens": list(hidden), "vf_share_layers": share,
                                      **model}).build()


def _decisions(env_id: str, games: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The observations and masks of every decision in a few random games of ``env_id``."""
    env = envs.make(env_id)
    rng = np.random.default_rng(0)
    observations, masks = [], []
    for seed in range(games):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            observations.append(obs["observation"])
            masks.append(obs["action_mask"])
            env.step(_random_legal(rng, obs["action_mask"]))
    return np.array(observations), np.array(masks, dtype=np.float32)


def _module_probabilities(module, observations, masks) -> np.ndarray:
    import torch
    from ray.rllib.core.columns import Columns
    with torch.no_grad():
        logits = module.forward_inference({Columns.OBS: {
            "observations": torch.as_tensor(observations),
            "action_mask": torch.as_tensor(masks)}})[Columns.ACTION_DIST_INPUTS]
    return torch.softmax(logits, -1).numpy()


@pytest.mark.parametrize("share", [True, False], ids=["shared-encoder", "actor-encoder"])
def test_an_exported_module_plays_as_the_module(tmp_path, share):
    """The dugout checkpoint's PolicyAgent gives the module's masked action distribution."""
    import torch
    from dugout.agents.policy import PolicyAgent

    torch.manual_seed(1)
    module = _module("showdown_v0", share)
    folder = rllib.export_policy(module, tmp_path / "ckpt", "showdown_v0", {"run": "test"})
    agent = PolicyAgent.load(folder, env_id="showdown_v0")
    assert agent.meta["net_arch"] == [16, 8] and agent.meta["activation"] == "Tanh"
    # real decisions of random games: their observations and masks
    observations, masks = _decisions("showdown_v0")
    expected = _module_probabilities(module, observations, masks)
    np.testing.assert_allclose(agent.policy_probabilities_batch(observations, masks), expected,
                               atol=1e-5)
    actions = [agent.act({"observation": o, "action_mask": m}) for o, m in zip(observations, masks)]
    assert actions == list(expected.argmax(axis=1))


def test_export_refuses_an_actor_it_cannot_hold(tmp_path):
    module = _module("thats_baseball_v0", False, head_fcnet_hiddens=[8],
                     head_fcnet_activation="relu")
    with pytest.raises(ValueError, match="one activation"):
        rllib.export_policy(module, tmp_path / "x", "thats_baseball_v0")
    assert not (tmp_path / "x" / "meta.json").exists()


def test_league_snapshots_copy_main_and_stay_frozen(ray_session, tmp_path):
    """Snapshots copy main and stay frozen while main learns; and main's learner weights,
    exported as the trainer exports them (export_weights: into an inference-only module),
    give the trained module's very action probabilities on real decisions."""
    from dugout.agents.policy import PolicyAgent
    model_config = {"fcnet_hiddens": [16], "head_fcnet_hiddens": []}
    config = rllib.league_ppo_config(
        "thats_baseball_v0", league_size=2, self_play=0.0, seed=0,
        model_config=model_config,
        train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1, lr=1e-3)
    config.env_runners(num_env_runners=0).learners(num_learners=0)
    algo = config.build_algo()
    try:
        rllib.snapshot_to_league(algo, "league_0")
        main = rllib.module_weights(algo, "main")
        learner = rllib.module_weights(algo, "league_0")
        assert set(learner) == set(main)
        for key, value in learner.items():
            np.testing.assert_array_equal(np.asarray(value), np.asarray(main[key]))
        # the env runner's copy, which plays the games: its acting half (the critic's
        # weights are not sent to env runners)
        runner = algo.get_module("league_0").get_state()
        acting = [k for k in runner if k.startswith(("encoder.actor_encoder.", "pi.net."))]
        assert len(acting) == 4                       # one hidden layer and the pi head
        for key in acting:
            np.testing.assert_array_equal(np.asarray(runner[key]), np.asarray(main[key]))
        result = algo.train()
        after = rllib.module_weights(algo, "main")
        assert any(not np.array_equal(np.asarray(after[k]), np.asarray(main[k])) for k in main)
        frozen = rllib.module_weights(algo, "league_0")
        assert all(np.array_equal(np.asarray(frozen[k]), np.asarray(main[k])) for k in frozen)
        assert math.isfinite(float(result["learners"]["main"]["total_loss"]))
        assert "main_vs_league" in result["env_runners"]        # self_play=0: every game is one
        # the trained main, exported, against the learner's own module (not a fresh one)
        folder = rllib.export_weights(after, tmp_path / "main", "thats_baseball_v0",
                                      model_config=model_config)
        agent = PolicyAgent.load(folder, env_id="thats_baseball_v0")
        observations, masks = _decisions("thats_baseball_v0")
        trained = [r.get() for r in algo.learner_group.foreach_learner(
            lambda learner: _module_probabilities(learner.module["main"], observations, masks))]
        assert len(trained) == 1 and trained[0].shape == (len(observations), masks.shape[1])
        np.testing.assert_allclose(agent.policy_probabilities_batch(observations, masks),
                                   trained[0], atol=1e-5)
        # and the check can fail: the league's frozen copy of the first weights differs
        before = PolicyAgent.load(rllib.export_weights(frozen, tmp_path / "first",
                                                       "thats_baseball_v0",
                                                       model_config=model_config))
        assert np.abs(before.policy_probabilities_batch(observations, masks)
                      - trained[0]).max() > 1e-4
    finally:
        algo.stop()


def test_training_without_an_address_starts_ray_here_whatever_ray_address_says(tmp_path):
    """No --address: a new Ray instance on this machine with --cpus CPUs, not RAY_ADDRESS's
    cluster (one nobody answers at: ray.init() would wait minutes for it); --address auto
    follows RAY_ADDRESS, checked first: a quick one-line error."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "RAY_ADDRESS": "127.0.0.1:1", "RAY_USAGE_STATS_ENABLED": "0"}
    code = ("import ray\n"
            "from dugout.train.rllib import RLlibSettings, _connect\n"
            "assert _connect(RLlibSettings(cpus=1))\n"
            "print('cpus', int(ray.cluster_resources()['CPU']))\n"
            "ray.shutdown()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=root, env=env)
    assert done.returncode == 0 and done.stdout.strip() == "cpus 1", done.stderr
    done = subprocess.run([sys.executable, "-m", "dugout.train", "--algo", "rllib", "--address",
                           "auto", "--out", str(tmp_path / "run")], capture_output=True,
                          text=True, timeout=300, cwd=root, env=env)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "no Ray cluster answers at 127.0.0.1:1 (RAY_ADDRESS" in last, done.stderr


class _Stopped(Exception):
    """The run's death, in a test."""


def test_rllib_training_makes_a_checkpoint_that_plays_in_a_tournament(ray_session, tmp_path,
                                                                     capsys):
    """`python -m dugout.train --algo rllib` that stops in its third iteration, after the
    RLlib checkpoint of its snapshot at the second; a fresh run into the folder is refused;
    --resume goes on from iteration 2 (the third played again, its row replaced) to the end;
    a resume with nothing left to train keeps the run's timesteps. The checkpoint is a
    PolicyAgent and plays a tournament on Ray as on one worker."""
    import torch
    from dugout.agents.policy import PolicyAgent
    from dugout.evaluate.backends import RayCluster
    from dugout.evaluate.tournament import run_tournament
    from dugout.train import rllib as train_rllib

    out = tmp_path / "run"
    argv = ["--env", "thats_baseball_v0", "--iterations", "3", "--batch", "256", "--minibatch",
            "64", "--epochs", "1", "--hidden", "32", "--league-size", "2", "--snapshot-every",
            "2", "--eval-pairs", "4", "--out", str(out)]
    lines: list[str] = []

    def dies_in_iteration_3(line: str) -> None:
        lines.append(line)
        if line.startswith("iteration 3:"):      # its row is written; no checkpoint since 2
            raise _Stopped

    with pytest.raises(_Stopped):
        train_rllib.train_rllib(train_rllib.parse(argv), log=dies_in_iteration_3)
    assert any(line.startswith("iteration 2:") for line in lines)
    assert (out / "rllib").is_dir() and not (out / "model").exists()
    assert sorted(p.name for p in (out / "league").iterdir()) == ["000002"]
    rows = (out / "progress.csv").read_text().splitlines()
    assert rows[0].startswith("iteration,") and [r.split(",")[0] for r in rows[1:]] == [
        "1", "2", "3"]
    steps_at_2 = int(rows[2].split(",")[1])

    # a fresh run into it would overwrite the stopped run's files: refused
    settings = (out / "settings.json").read_text()
    with pytest.raises(SystemExit) as refused:
        train_rllib.main(argv)
    assert refused.value.code == 2
    assert "already holds a run" in capsys.readouterr().err
    assert (out / "settings.json").read_text() == settings

    assert train_rllib.main(argv + ["--resume"]) == out
    printed = capsys.readouterr().out
    assert f"resumed {out} at iteration 2 ({steps_at_2:,} env steps)" in printed
    assert "iteration 3:" in printed and "main against heuristic" in printed
    rows = (out / "progress.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["1", "2", "3"]
    assert int(rows[3].split(",")[1]) > steps_at_2
    agent = PolicyAgent.load(out / "model", env_id="thats_baseball_v0")
    assert agent.meta["algo"] == "rllib-ppo-league" and agent.meta["iteration"] == 3
    assert agent.meta["timesteps"] == int(rows[3].split(",")[1])
    snapshot = torch.load(out / "league" / "000002" / "policy.pt")
    model = torch.load(out / "model" / "policy.pt")
    assert not all(torch.equal(snapshot[k], model[k]) for k in model)    # main learned since

    # nothing left to train: the model is written again with the run's real timesteps
    assert train_rllib.main(argv + ["--resume", "--eval-pairs", "0"]) == out
    assert "resumed" in capsys.readouterr().out
    again = PolicyAgent.load(out / "model")
    assert again.meta["iteration"] == 3 and again.meta["timesteps"] == agent.meta["timesteps"] > 0
    assert (out / "progress.csv").read_text().splitlines() == rows
    assert all(torch.equal(model[k], v) for k, v in torch.load(out / "model" / "policy.pt").items())

    agents = ["random", "heuristic", f"ppo:{out / 'model'}"]
    one = run_tournament("thats_baseball_v0", agents, games=8, seed=0, workers=1, bootstrap=20)
    on_ray = run_tournament("thats_baseball_v0", agents, games=8, seed=0, bootstrap=20, chunk=2,
                            backend=RayCluster(log=lambda line: None))
    drop = ("seconds", "games_per_second", "workers")
    assert ({k: v for k, v in one.to_dict().items() if k not in drop}
            == {k: v for k, v in on_ray.to_dict().items() if k not in drop})
    assert on_ray.games == 24 and on_ray.labels[2] == "ppo:run"
