"""Expert iteration (``dugout train exit``, :mod:`dugout.train.exit`) and the trained manager
that reads the view (:class:`dugout.agents.policy.ViewPolicy`), which a search plays its
rollouts with (``search:rollout=ppo:PATH``).

What must hold: the view-reading manager chooses as the trained manager does at the same
decision, on every ruleset (the env's observation is ``encode_view`` of the view); a tiny
run completes on two rulesets and writes its round files; a resumed run repeats no round and
its next round is the uninterrupted run's; the recorded targets are legal actions; the
network learns a problem it can learn; the search with a trained rollout decides; and a
recorded decision is the seat's own (twin games that differ only in what the seat cannot
see record the same sample).
"""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

import helpers
from dugout.agents import make_agent
from dugout.agents.play import tell_setup
from dugout.agents.policy import CheckpointError, PolicyAgent, ViewPolicy, build_actor, env_sizes
from dugout.agents.registry import managers
from dugout.envs import ENV_IDS, make
from dugout.envs.registry import spec
from dugout.train import exit as exit_
from dugout.train.checkpoint import save_actor
from test_search import _decision_points


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """Small networks: one thread (as the trainer runs them), restored afterwards."""
    import torch
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _checkpoint(folder, env_id: str, options=None, layers=(16,), seed: int = 0):
    """A checkpoint of an untrained network for ``env_id`` (its weights drawn with ``seed``)."""
    import torch
    env = make(env_id, **(options or {}))
    obs, n = env_sizes(env)
    torch.manual_seed(seed)
    actor = build_actor(obs, list(layers), "Tanh", n)
    save_actor(actor, {"obs_size": obs, "n_actions": n, "net_arch": list(layers), "activation": "Tanh"},
               folder, {"env_id": env_id, "env_options": options or {}}, 0)
    return folder


# -- the manager that reads the view -------------------------------------------------------------
@pytest.mark.parametrize("case", helpers.cases(), ids=lambda c: helpers.case_id(*c))
def test_the_view_reading_manager_chooses_as_the_trained_manager(case, tmp_path):
    """At every decision of random games: the env's observation is encode_view of the view,
    and ViewPolicy's choice from the view is PolicyAgent's from the observation."""
    env_id, options = case
    folder = _checkpoint(tmp_path / "net", env_id, options, layers=(32, 32))
    policy = PolicyAgent.load(folder, env_id=env_id)
    reader = ViewPolicy.load(folder, env_id=env_id)
    encode = spec(env_id).env_class.encode_view
    env = helpers.make(env_id, options)
    rng = random.Random(3)
    checked = 0
    for seed in range(helpers.games(6, 2)):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = env.unwrapped.view(agent)
            assert np.array_equal(encode(view), obs["observation"])
            if len(view.legal) > 1:
                assert reader.act(obs, view) == policy.act(obs)
                checked += 1
            env.step(rng.choice(list(view.legal)))
    assert checked >= 1


def test_the_view_reading_manager_plays_the_manager_challenge(tmp_path):
    folder = _checkpoint(tmp_path / "net", "manager_challenge_v0", layers=(32,))
    policy = PolicyAgent.load(folder, env_id="manager_challenge_v0")
    reader = ViewPolicy.load(folder, env_id="manager_challenge_v0")
    env = make("manager_challenge_v0")
    obs, _ = env.reset(seed=4)
    rng = random.Random(4)
    checked, done = 0, False
    while not done and checked < 200:
        view = env.unwrapped.view()
        mask = env.unwrapped.action_masks()
        assert np.array_equal(spec("manager_challenge_v0", kind=None).env_class.encode_view(view), obs)
        if len(view.legal) > 1:
            assert reader.decide(view) == policy.act({"observation": obs, "action_mask": mask})
            checked += 1
        obs, _, done, truncated, _ = env.step(rng.choice(list(view.legal)))
        done = done or truncated
    assert checked >= 5


def test_a_search_rolls_out_with_a_trained_manager(tmp_path):
    """search:rollout=ppo:PATH decides, every option evaluated; a checkpoint of another env
    is refused by name."""
    folder = _checkpoint(tmp_path / "net", "grand_slam_v0")
    search = make_agent("grand_slam_v0", f"search:sims=2,batch=2,horizon=0,rollout=ppo:{folder}")
    assert isinstance(search.rollout, ViewPolicy)
    env = make("grand_slam_v0", raw=True)
    rng = random.Random(1)
    for agent, _ in _decision_points(env, 2, 1, rng):
        search.reset(5)
        tell_setup(env, [search])
        view = env.view(agent)
        action = search.act(env.observe(agent), view)
        assert action in view.legal
        assert set(search.last.estimates) == set(view.legal)
        assert search.last.base == search.rollout.decide(view)
    with pytest.raises(ValueError, match="trained on grand_slam_v0, not thats_baseball_v0"):
        make_agent("thats_baseball_v0", f"search:rollout=ppo:{folder}")


# -- the network learns ---------------------------------------------------------------------------
def test_the_network_learns_a_problem_it_can_learn():
    """A linear teacher over random legal subsets of 6 actions: held-out accuracy from about
    chance (a third to a half, by the subset sizes) to above 0.85."""
    rng = np.random.default_rng(0)
    n, width, actions = 1500, 10, 6
    x = rng.normal(size=(n, width)).astype(np.float32)
    masks = (rng.random((n, actions)) < 0.5).astype(np.int8)
    masks[np.arange(n), rng.integers(actions, size=n)] = 1
    masks[np.arange(n), rng.integers(actions, size=n)] = 1
    scores = x @ rng.normal(size=(width, actions))
    scores[~masks.astype(bool)] = -np.inf
    labels = scores.argmax(axis=1)
    target = np.zeros((n, actions), np.float32)
    target[np.arange(n), labels] = 1
    val = np.arange(n) >= 1200
    kwargs = dict(net_arch=[32], batch_size=128, learning_rate=3e-3, seed=1)
    before = exit_.train_network(x, masks, target, labels, val, epochs=0, **kwargs)
    after = exit_.train_network(x, masks, target, labels, val, epochs=20, **kwargs)
    assert before.val_accuracy < 0.6
    assert after.val_accuracy > 0.85, after.val_accuracy
    assert after.losses[-1] < after.losses[0]


def test_targets_are_distributions_over_legal_actions():
    data = {"mask": np.array([[1, 1, 0, 1], [0, 1, 1, 0]], np.int8),
            "choice": np.array([3, 2]),
            "values": np.array([[0.5, 0.6, np.nan, 0.4], [np.nan, 0.3, 0.3, np.nan]], np.float32),
            "mix": np.array([[np.nan] * 4, [np.nan, 0.25, 0.75, np.nan]], np.float32)}
    one_hot = exit_.targets(data, "choice")
    assert one_hot.tolist() == [[0, 0, 0, 1], [0, 0, 1, 0]]
    soft = exit_.targets(data, "soft", 0.05)
    assert np.allclose(soft.sum(axis=1), 1) and soft[0, 2] == 0 and soft[1, 0] == soft[1, 3] == 0
    assert soft[0, 1] > soft[0, 0] > soft[0, 3] > 0                  # by value
    assert np.allclose(soft[1], [0, 0.25, 0.75, 0])                  # the mix at a simultaneous one


# -- the loop ---------------------------------------------------------------------------------------
def _settings(tmp_path, env_id: str, name: str, **more) -> exit_.ExitSettings:
    base = dict(env=env_id, rounds=2, games=2, sims=2, net_arch=(8,), epochs=2, batch_size=64,
                eval_games=4, seed=3, out=str(tmp_path / name))
    if managers(env_id).search.truncates:
        base["horizon"] = 1                # the heuristic's tables are built for the evaluation anyway
    return exit_.ExitSettings(**{**base, **more})


def _same_round(a, b, r: int) -> None:
    """Round ``r`` of runs ``a`` and ``b`` (two folders): the same data, weights and row."""
    import torch
    da, _ = exit_.load_data(exit_.data_file(a, r))
    db, _ = exit_.load_data(exit_.data_file(b, r))
    assert da.keys() == db.keys()
    for key in da:
        assert np.array_equal(da[key], db[key], equal_nan=da[key].dtype.kind == "f"), key
    wa = torch.load(exit_.checkpoint_folder(a, r) / "policy.pt", weights_only=True)
    wb = torch.load(exit_.checkpoint_folder(b, r) / "policy.pt", weights_only=True)
    assert all(torch.equal(wa[k], wb[k]) for k in wa)
    skip = {"data_seconds", "train_seconds", "eval_seconds"}
    ra, rb = exit_.read_curve(a)[r], exit_.read_curve(b)[r]
    assert {k: v for k, v in ra.items() if k not in skip} == {k: v for k, v in rb.items() if k not in skip}


@pytest.mark.parametrize("env_id", ["grand_slam_v0", "thats_baseball_v0"])
def test_a_tiny_run_completes_and_a_resumed_run_repeats_no_round(env_id, tmp_path):
    whole = exit_.train(_settings(tmp_path, env_id, "whole"))
    for r in range(2):
        assert exit_.data_file(whole, r).is_file()
        assert PolicyAgent.load(exit_.checkpoint_folder(whole, r), env_id=env_id)
    assert PolicyAgent.load(whole / "model", env_id=env_id).meta["round"] == 1
    rows = exit_.read_curve(whole)
    assert [row["round"] for row in rows] == ["0", "1"]
    assert "rollout=ppo:<out>/checkpoints/round_000" in rows[1]["expert"]
    assert 0 <= float(rows[1]["vs_heuristic_low"]) <= float(rows[1]["vs_heuristic"]) <= 1
    assert int(rows[1]["eval_games"]) == 4
    data, meta = exit_.load_data(exit_.data_file(whole, 0))
    assert len(data["game"]) > 0 and meta["round"] == 0
    assert np.all(data["mask"][np.arange(len(data["choice"])), data["choice"]] == 1)
    assert np.all(data["mask"][np.arange(len(data["base"])), data["base"]] == 1)
    assert np.all(data["mask"].sum(axis=1) > 1)                   # forced decisions are not recorded
    assert set(np.unique(data["seat"])) == {0, 1}                 # both seats searched (self-play)

    cut = _settings(tmp_path, env_id, "cut", rounds=1)
    exit_.train(cut)
    first = exit_.data_file(tmp_path / "cut", 0)
    stamp = (first.stat().st_mtime_ns, (exit_.checkpoint_folder(tmp_path / "cut", 0) / "policy.pt").read_bytes())
    resumed = exit_.train(dataclasses.replace(cut, rounds=2, resume=True))
    assert (first.stat().st_mtime_ns,
            (exit_.checkpoint_folder(resumed, 0) / "policy.pt").read_bytes()) == stamp
    assert [row["round"] for row in exit_.read_curve(resumed)] == ["0", "1"]
    for r in range(2):
        _same_round(whole, resumed, r)


def test_a_round_cut_off_after_its_games_keeps_them(tmp_path):
    s = _settings(tmp_path, "grand_slam_v0", "run", rounds=1)
    out = exit_.train(s)
    data = exit_.data_file(out, 0)
    stamp = data.stat().st_mtime_ns
    (out / exit_.CURVE).unlink()                               # as if cut off before its row
    exit_.train(dataclasses.replace(s, resume=True))
    assert data.stat().st_mtime_ns == stamp
    assert [row["round"] for row in exit_.read_curve(out)] == ["0"]


def test_a_folder_with_a_run_is_refused_and_a_resume_needs_the_same_settings(tmp_path):
    s = _settings(tmp_path, "grand_slam_v0", "run", rounds=1)
    exit_.train(s)
    with pytest.raises(ValueError, match="already holds a run"):
        exit_.check_run_folder(s)
    with pytest.raises(ValueError, match="--sims 2"):
        exit_.check_run_folder(dataclasses.replace(s, sims=4, resume=True))
    exit_.check_run_folder(dataclasses.replace(s, rounds=5, workers=2, resume=True))
    saved = json.loads((tmp_path / "run" / exit_.SETTINGS).read_text())
    assert saved["algo"] == "exit" and saved["sims"] == 2


def test_two_workers_record_the_same_games(tmp_path):
    from dugout.evaluate.backends import Inline
    s = _settings(tmp_path, "grand_slam_v0", "run", games=3)

    class Two(Inline):
        slots = 2                                                 # smaller chunks, in another order
        def run(self, fn, tasks, accept, describe=str):
            for key, a in reversed(list(tasks)):
                accept(key, fn(*a))

    one, two = exit_.collect(s, 0, Inline()), exit_.collect(s, 0, Two())
    assert all(np.array_equal(one[k], two[k], equal_nan=one[k].dtype.kind == "f") for k in one)


# -- behaviour cloning: --expert heuristic ------------------------------------------------------------
@pytest.mark.parametrize("env_id", ["grand_slam_v0", "bottom_ninth_v0"])
def test_the_heuristic_as_expert_records_its_own_choices(env_id):
    """``--expert heuristic``: the rounds' games are the heuristic's at both seats, and every
    recorded choice is the action the heuristic made at a decision with more than one option
    (replayed here by a loop of its own), with no values and no mix."""
    from dugout.agents.play import turns
    seeds = [5, 6]
    data = exit_.play_games(env_id, {}, "heuristic", "self", seeds)
    env = make(env_id)
    made, where, first = [], [], None
    for seed in seeds:
        agents = {seat: make_agent(env_id, "heuristic") for seat in exit_.SEATS}
        env.reset(seed=seed)
        for i, seat in enumerate(exit_.SEATS):
            agents[seat].reset(seed=2 * seed + i)
        tell_setup(env, agents.values())
        for seat, observation, _ in turns(env):
            action = agents[seat].act(observation, env.unwrapped.view(seat))
            if observation["action_mask"].sum() > 1:
                first = first or (agents[seat], observation, env.unwrapped.view(seat))
                made.append(int(action))
                where.append((seed, exit_.SEATS.index(seat)))
            env.step(action)
    assert len(made) > 10
    assert data["choice"].tolist() == made and data["base"].tolist() == made
    assert list(zip(data["game"].tolist(), data["seat"].tolist())) == where
    assert np.isnan(data["values"]).all() and np.isnan(data["mix"]).all()
    heuristic, observation, view = first
    with pytest.raises(ValueError, match="needs the action it made"):
        exit_.record_decision(heuristic, observation, view)


def test_the_expert_searches_every_kind_of_decision_whatever_the_default(tmp_path):
    """MLB Showdown's expert game with decks searches its card plays only by default; the
    expert of a round searches every decision (each one a target), its card plays as the
    default does."""
    from dugout.agents.play import play_game
    s = _settings(tmp_path, "showdown_v0", "expert", env_options={"level": "expert", "decks": "default"})
    env = make("showdown_v0", **s.env_options)
    expert = make_agent("showdown_v0", exit_.expert_ref(s, 0))
    kinds = []
    original = expert.decide

    def decide(view):
        action = original(view)
        if expert.last is not None:
            kinds.append(view.decision)
        return action

    expert.decide = decide
    play_game(env, {"away": expert, "home": make_agent("showdown_v0", "heuristic")}, 0)
    assert expert.settings.kinds == "all" and "play_card" in kinds and set(kinds) - {"play_card"}


def test_behaviour_cloning_refuses_the_searchs_settings(tmp_path):
    s = _settings(tmp_path, "grand_slam_v0", "clone", expert="heuristic", horizon=None)
    assert exit_.expert_ref(s, 1) == "heuristic"
    for more in ({"target": "soft"}, {"horizon": 2}, {"eval_search_games": 4}):
        with pytest.raises(ValueError, match="the search's.*--expert heuristic plays no search"):
            exit_.ExitSettings(**{**dataclasses.asdict(s), **more})
    with pytest.raises(ValueError, match="expert must be one of search, heuristic"):
        exit_.ExitSettings(**{**dataclasses.asdict(s), "expert": "nobody"})


def test_a_run_written_before_the_expert_setting_resumes_as_a_search_run(tmp_path):
    s = _settings(tmp_path, "grand_slam_v0", "old", rounds=1)
    exit_.train(s)
    path = tmp_path / "old" / exit_.SETTINGS
    saved = json.loads(path.read_text())
    del saved["expert"]
    path.write_text(json.dumps(saved))
    exit_.check_run_folder(dataclasses.replace(s, rounds=2, resume=True))
    with pytest.raises(ValueError, match="--expert search"):
        exit_.check_run_folder(exit_.ExitSettings(**{**dataclasses.asdict(s), "horizon": None,
                                                     "expert": "heuristic", "resume": True}))


# -- what a recorded decision holds ---------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ["grand_slam_v0", "bottom_ninth_v0"] + (["showdown_v0"] if helpers.FULL else []))
def test_twins_record_the_same_sample(env_id):
    """A decision in a live game and in its twin (the same view, other hidden cards, deck
    order, committed choices and dice seed): the search of the same seed records the same
    observation, mask, choice and values."""
    sample = __import__(managers(env_id).search.sample, fromlist=["sample_state"])
    ref = "search:sims=2,batch=2,horizon=0"     # to the end: no win-expectancy table to build
    rng = random.Random(5)
    checked = 0
    for seed in range(helpers.games(4, 2)):
        env = make(env_id, raw=True)
        for agent, actions in _decision_points(env, seed, 2, rng):
            twin = make(env_id, raw=True)
            twin.reset(seed=seed)
            for a in actions:
                twin.step(a)
            twin.state_ = sample.sample_state(env.view(agent), random.Random(900 + seed), twin.public_setup())
            assert helpers.dumps(twin.state_) != helpers.dumps(env.state_)
            samples = []
            for game in (env, twin):
                search = make_agent(env_id, ref)
                search.reset(11)
                tell_setup(game, [search])
                obs, view = game.observe(agent), game.view(agent)
                search.act(obs, view)
                samples.append(exit_.record_decision(search, obs, view))
            mine, theirs = samples
            assert mine is not None
            for key in mine:
                assert np.array_equal(mine[key], theirs[key], equal_nan=isinstance(mine[key], np.ndarray)
                                      and mine[key].dtype.kind == "f"), key
            checked += 1
    assert checked >= 1


# -- the command line --------------------------------------------------------------------------------
def test_train_algo_exit_is_the_exit_trainer(capsys):
    from dugout.cli.main import main
    from dugout.train.__main__ import ALGOS, main as module_main
    assert ALGOS["exit"] == "dugout.train.exit"
    for call in (lambda: main(["train", "--algo", "exit", "--help"]),
                 lambda: main(["train", "--algo=exit", "--help"]),
                 lambda: module_main(["--algo", "exit", "--help"])):
        with pytest.raises(SystemExit) as exit_status:
            call()
        assert exit_status.value.code == 0
        assert capsys.readouterr().out.startswith("usage: dugout train exit")
    with pytest.raises(SystemExit) as exit_status:
        main(["train", "--algo", "nope"])
    assert exit_status.value.code == 2
    assert "--algo must be one of sb3, rllib, exit" in capsys.readouterr().err


def test_the_manager_challenge_is_refused_with_the_reason(capsys):
    from dugout.cli.main import main
    with pytest.raises(SystemExit):
        main(["train", "exit", "--env", "manager_challenge_v0"])
    assert "single-agent game" in capsys.readouterr().err
    assert set(ENV_IDS) >= {"grand_slam_v0"}
