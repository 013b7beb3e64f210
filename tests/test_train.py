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


@pytest.mark.parametrize("env_id", ["thats_baseball_v0", "grand_slam_v0", "showdown_v0",
                                    "pokemon_baseball_v0"])
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


@pytest.mark.parametrize("env_id", ["thats_baseball_v0", "grand_slam_v0", "showdown_v0",
                                    "pokemon_baseball_v0"])
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
    with pytest.raises(ValueError, match="forced must be 'ask' or 'play', got 'skip'"):
        SingleAgentEnv("thats_baseball_v0", forced="skip")


def test_forced_decisions_are_played_for_the_learner_and_change_nothing_else():
    """MLB Showdown's expert game with decks asks a manager holding cards at every card
    window, even when he can only pass. With ``forced="play"`` the learner is shown only
    decisions with a choice; the games (seeded learner, the same opponent) end exactly as
    with ``forced="ask"`` and a learner who takes the lone action itself, so what the
    opponent sees is unchanged."""
    options = {"level": "expert", "decks": "default"}
    ask = SingleAgentEnv("showdown_v0", opponent="heuristic", seed=3, env_kwargs=options)
    play = SingleAgentEnv("showdown_v0", opponent="heuristic", seed=3, env_kwargs=options,
                          forced="play")
    shown = {"ask": 0, "play": 0}
    lone = 0
    for _ in range(2):
        finals = {}
        for name, env in (("ask", ask), ("play", play)):
            rng = np.random.default_rng(11)
            env.reset()
            done = False
            while not done:
                mask = env.action_masks()
                legal = np.flatnonzero(mask)
                shown[name] += 1
                if name == "play":
                    assert len(legal) > 1
                elif len(legal) == 1:
                    lone += 1
                a = int(legal[0]) if len(legal) == 1 else int(rng.choice(legal))
                _, reward, terminated, truncated, _ = env.step(a)
                done = terminated or truncated
            finals[name] = (reward, env.raw.state_.to_dict())
        assert finals["ask"] == finals["play"]
    assert lone > 50 and play.forced_played == lone
    assert shown["play"] == shown["ask"] - lone


def test_the_trainer_plays_forced_decisions_unless_asked():
    from dugout.train.ppo import Settings
    assert Settings().forced == "play"
    assert Settings(forced="ask").forced == "ask"
    with pytest.raises(ValueError, match="forced must be ask or play"):
        Settings(forced="sometimes")


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


def _timesteps(run):
    """The timesteps of the run's evaluations, in eval.csv's order."""
    return [int(row.split(",")[0]) for row in (run / "eval.csv").read_text().splitlines()[1:]]


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
    # an evaluation every 128 timesteps and one at the end, after the last update: the
    # last rollout's step is not evaluated before it as well
    assert rows[0].startswith("timesteps,") and _timesteps(tiny_run) == [128, 256]
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
    assert _timesteps(tiny_run) == [128, 256, 384, 512]
    other = _train("--env", "grand_slam_v0", "--out", str(tiny_run), "--resume", *TINY)
    assert other.returncode != 0 and "thats_baseball_v0" in other.stderr


def _sb3(folder):
    """The SB3 model of one of our own checkpoints (unpickling model.zip: trusted here)."""
    from sb3_contrib import MaskablePPO
    return MaskablePPO.load(str(folder / "model.zip"), device="cpu")


def _real_observations(env_id="thats_baseball_v0", games=6):
    """Observations and masks the learner meets, from a few random games."""
    env = SingleAgentEnv(env_id, opponent="heuristic", seed=4)
    player, obs_list, masks = RandomAgent(9), [], []
    for _ in range(games):
        obs, _ = env.reset()
        done = False
        while not done:
            mask = env.action_masks()
            obs_list.append(obs)
            masks.append(mask)
            obs, _, terminated, truncated, _ = env.step(
                player.act({"observation": obs, "action_mask": mask.astype(np.int8)}))
            done = terminated or truncated
    return np.array(obs_list, dtype=np.float32), np.array(masks, dtype=bool)


def test_trained_policy_plays_as_an_agent_and_refuses_other_envs(tiny_run):
    agent = PolicyAgent.load(tiny_run / "model")
    env = thats_baseball_v0.env()
    result = play_game(env, {"away": agent, "home": make_agent("thats_baseball_v0", "heuristic")}, 3)
    assert result.winner in ("away", "home")
    by_name = make_agent("thats_baseball_v0", f"ppo:{tiny_run / 'model'}")
    assert isinstance(by_name, PolicyAgent) and by_name.name == f"ppo:{tiny_run / 'model'}"
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert by_name.act(obs) == agent.act(obs)
    p = agent.action_probabilities(obs)
    assert p.sum() == pytest.approx(1.0) and (p[obs["action_mask"] == 0] == 0).all()
    with pytest.raises(CheckpointError, match="trained on thats_baseball_v0, not grand_slam_v0"):
        PolicyAgent.load(tiny_run / "model", env_id="grand_slam_v0")
    with pytest.raises(CheckpointError, match="observations of size 56"):
        agent.act({"observation": np.zeros(81, np.float32), "action_mask": np.ones(20, np.int8)})
    with pytest.raises(CheckpointError, match="no checkpoint"):
        PolicyAgent.load(tiny_run / "nothing-here")
    sampler, again = (PolicyAgent.load(tiny_run / "model", deterministic=False, seed=5) for _ in range(2))
    assert [sampler.act(obs) for _ in range(30)] == [again.act(obs) for _ in range(30)]
    assert PolicyAgent.needs_view is False


def test_checkpoint_layout_is_json_and_tensors(tiny_run):
    import torch
    for folder in (tiny_run / "model", *(tiny_run / "checkpoints").iterdir()):
        assert {p.name for p in folder.iterdir()} == {"meta.json", "policy.pt", "model.zip"}
    for folder in (tiny_run / "pool").iterdir():          # opponents need only the policy
        assert {p.name for p in folder.iterdir()} == {"meta.json", "policy.pt"}
    meta = read_meta(tiny_run / "model")
    assert meta["net_arch"] == meta["settings"]["net_arch"] == [64, 64]
    assert meta["activation"] == "Tanh"
    weights = torch.load(tiny_run / "model" / "policy.pt", weights_only=True)
    assert {k: tuple(v.shape) for k, v in weights.items()} == {
        "0.weight": (64, OBS.size), "0.bias": (64,), "2.weight": (64, 64), "2.bias": (64,),
        "4.weight": (5, 64), "4.bias": (5,)}


def test_loaded_policy_equals_the_sb3_model(tiny_run):
    """The plain-torch actor rebuilt from meta.json + policy.pt gives SB3's distributions."""
    import torch
    model = _sb3(tiny_run / "model")
    obs, masks = _real_observations()
    assert len(obs) > 100 and (~masks).any()
    with torch.no_grad():
        tensor, _ = model.policy.obs_to_tensor(obs)
        sb3 = model.policy.get_distribution(tensor, action_masks=masks).distribution.probs.numpy()
    sb3_greedy, _ = model.predict(obs, action_masks=masks, deterministic=True)
    for agent in (PolicyAgent.load(tiny_run / "model"), PolicyAgent.from_model(model, {"env_id": "x"})):
        probs = agent.policy_probabilities_batch(obs, masks)
        np.testing.assert_allclose(probs, sb3, atol=1e-6)
        assert (probs[~masks] == 0).all()
        greedy = agent.action_probabilities_batch(obs, masks)
        assert np.array_equal(greedy.argmax(axis=1), sb3_greedy) and (greedy.sum(axis=1) == 1).all()
        assert [agent.act({"observation": o, "action_mask": m.astype(np.int8)})
                for o, m in zip(obs[:50], masks[:50])] == sb3_greedy[:50].tolist()
    sampling = PolicyAgent.load(tiny_run / "model", deterministic=False)
    np.testing.assert_allclose(sampling.action_probabilities_batch(obs, masks), sb3, atol=1e-6)
    with pytest.raises(TypeError, match="from_model"):
        PolicyAgent(model, {"env_id": "thats_baseball_v0"})


# -- loading a stranger's checkpoint runs no code -------------------------------------------
class Planted:
    """Unpickled, it writes the file ``marker``."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return exec, (f"open({self.marker!r}, 'w').write('code ran')",)


@pytest.fixture
def copy_of(tiny_run, tmp_path):
    import shutil
    folder = tmp_path / "stranger"
    shutil.copytree(tiny_run / "model", folder)
    return folder


def test_planted_pickles_never_run(copy_of, tmp_path):
    import base64
    import pickle
    import zipfile
    import torch
    import re
    folder, marker = copy_of, tmp_path / "marker"
    weights_file = re.escape(str(folder / "policy.pt"))
    # model.zip: its lr_schedule entry replaced by a payload (which SB3 does run: control below)
    with zipfile.ZipFile(folder / "model.zip") as z:
        entries = {name: z.read(name) for name in z.namelist()}
    data = json.loads(entries["data"])
    data["lr_schedule"][":serialized:"] = base64.b64encode(pickle.dumps(Planted(marker))).decode()
    entries["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(folder / "model.zip", "w") as z:
        for name, content in entries.items():
            z.writestr(name, content)
    agent = PolicyAgent.load(folder, env_id="thats_baseball_v0")
    agent = make_agent("thats_baseball_v0", f"ppo:{folder}")
    obs, masks = _real_observations(games=1)
    assert agent.policy_probabilities_batch(obs, masks).shape == masks.shape
    assert not marker.exists()
    try:                                        # the control: SB3's loader runs the payload
        _sb3(folder)
    except Exception:
        pass
    assert marker.read_text() == "code ran"
    marker.unlink()
    # policy.pt: a pickled object inside torch's format, and a bare pickle
    good = torch.load(folder / "policy.pt", weights_only=True)
    torch.save({**good, "0.weight": Planted(marker)}, folder / "policy.pt")
    with pytest.raises(CheckpointError, match=weights_file + ".*not a tensors-only"):
        PolicyAgent.load(folder)
    assert not marker.exists()
    torch.load(folder / "policy.pt", weights_only=False)          # the control: it is live
    assert marker.exists()
    marker.unlink()
    (folder / "policy.pt").write_bytes(pickle.dumps(Planted(marker)))
    with pytest.raises(CheckpointError, match=weights_file + ".*not a tensors-only"):
        make_agent("thats_baseball_v0", f"ppo:{folder}")
    assert not marker.exists()
    # other bad weights files
    for bad, says in ((b"", "not a tensors-only"), (b"PK\x03\x04junk", "not a tensors-only"),
                      ([good["0.weight"]], "dict of named tensors"),
                      ({**good, "0.weight": 3}, "dict of named tensors"),
                      ({k: v for k, v in good.items() if k != "4.bias"}, "no tensor '4.bias'"),
                      ({**good, "6.weight": good["4.weight"]}, "unexpected tensor '6.weight'"),
                      ({**good, "2.weight": good["2.weight"][:, :10]}, "tensor '2.weight' has shape"),
                      ({**good, "4.bias": good["4.bias"].long()}, "not floating point")):
        if isinstance(bad, bytes):
            (folder / "policy.pt").write_bytes(bad)
        else:
            torch.save(bad, folder / "policy.pt")
        with pytest.raises(CheckpointError, match=weights_file + f".*{says}"):
            PolicyAgent.load(folder)
    (folder / "policy.pt").unlink()
    with pytest.raises(CheckpointError, match=weights_file + ": missing"):
        PolicyAgent.load(folder)
    # and the safe files alone are a whole checkpoint
    torch.save(good, folder / "policy.pt")
    (folder / "model.zip").unlink()
    assert PolicyAgent.load(folder).act({"observation": obs[0], "action_mask": masks[0].astype(np.int8)}) \
        == agent.act({"observation": obs[0], "action_mask": masks[0].astype(np.int8)})
    assert not marker.exists()


def _edit(**changes):
    return lambda meta: {**{k: v for k, v in meta.items() if k not in changes},
                         **{k: v for k, v in changes.items() if v is not DROP}}


DROP = object()
BAD_META = [                      # (what meta.json holds, the error's words after the file name)
    (b"42", "must hold a JSON object, not int"),
    (b"[1, 2]", "must hold a JSON object, not list"),
    (b'"meta"', "must hold a JSON object, not str"),
    (b"null", "must hold a JSON object, not NoneType"),
    (b"\xff\xfe{\x00}", "not UTF-8"),
    (b"{not json", "not valid JSON"),
    (b"[" * 100_000, "objects and arrays nest 100000 deep; at most 32"),
    (_edit(env_id=DROP), "missing field 'env_id'"),
    (_edit(env_id=7), "field 'env_id' must be a non-empty string"),
    (_edit(obs_size=DROP), "missing field 'obs_size'"),
    (_edit(obs_size="56"), "field 'obs_size' must be a positive integer"),
    (_edit(obs_size=56.0), "field 'obs_size' must be a positive integer"),
    (_edit(obs_size=True), "field 'obs_size' must be a positive integer"),
    (_edit(obs_size=0), "field 'obs_size' must be a positive integer"),
    (_edit(n_actions=-5), "field 'n_actions' must be a positive integer"),
    (_edit(n_actions=None), "field 'n_actions' must be a positive integer"),
    (_edit(net_arch=DROP), "missing field 'net_arch'"),
    (_edit(net_arch="64,64"), "field 'net_arch' must be a list of positive integers"),
    (_edit(net_arch=[64, "64"]), "field 'net_arch' must be a list of positive integers"),
    (_edit(net_arch=[64, 0]), "field 'net_arch' must be a list of positive integers"),
    (_edit(net_arch={"pi": [64, 64]}), "field 'net_arch' must be a list of positive integers"),
    (_edit(activation=DROP), "missing field 'activation'"),
    (_edit(activation="os.system"), "field 'activation' must be one of Tanh"),
    (_edit(activation="tanh"), "field 'activation' must be one of Tanh"),
    (_edit(activation=["Tanh"]), "field 'activation' must be one of Tanh"),
    # sizes that do not match the weights: the weights file is named, with meta.json's sizes
    (_edit(obs_size=57), "tensor '0.weight' has shape \\(64, 56\\), but meta.json"),
    (_edit(n_actions=6), "tensor '4.weight' has shape \\(5, 64\\), but meta.json"),
    (_edit(net_arch=[64, 32]), "tensor '2.weight' has shape \\(64, 64\\), but meta.json"),
    (_edit(net_arch=[64]), "unexpected tensor '4.bias' for net_arch \\[64\\] in meta.json"),
    (_edit(net_arch=[64, 64, 64]), "no tensor '6.bias'"),
]


@pytest.mark.parametrize("content, says", BAD_META, ids=range(len(BAD_META)))
def test_bad_meta_json_is_a_checkpoint_error_naming_the_file(copy_of, content, says):
    import re
    meta_file = copy_of / "meta.json"
    if callable(content):
        content = json.dumps(content(json.loads(meta_file.read_text()))).encode()
    meta_file.write_bytes(content)
    file = "policy.pt" if ("tensor" in says) else "meta.json"
    with pytest.raises(CheckpointError, match=re.escape(str(copy_of / file)) + "'?: " + says):
        PolicyAgent.load(copy_of)
    with pytest.raises(CheckpointError, match=re.escape(str(copy_of / file))):
        make_agent("thats_baseball_v0", f"ppo:{copy_of}")


def test_upgrading_an_old_checkpoint_of_ones_own(copy_of):
    """A checkpoint from before policy.pt (model.zip + meta.json) is refused with a pointer to
    upgrade_checkpoint, which (trusting its own model.zip) writes the safe files."""
    from dugout.train.checkpoint import upgrade_checkpoint
    meta = json.loads((copy_of / "meta.json").read_text())
    expected = PolicyAgent.load(copy_of)
    (copy_of / "policy.pt").unlink()
    old = {k: v for k, v in meta.items() if k not in ("net_arch", "activation")}
    (copy_of / "meta.json").write_text(json.dumps(old))
    with pytest.raises(CheckpointError, match="policy.pt: missing.*upgrade_checkpoint"):
        PolicyAgent.load(copy_of)
    with pytest.raises(CheckpointError, match="meta.json: missing field 'net_arch'"):
        read_meta(copy_of)
    assert read_meta(copy_of, policy=False)["obs_size"] == OBS.size        # what --resume reads
    upgrade_checkpoint(copy_of)
    assert json.loads((copy_of / "meta.json").read_text()) == meta
    obs, masks = _real_observations(games=1)
    np.testing.assert_array_equal(PolicyAgent.load(copy_of).policy_probabilities_batch(obs, masks),
                                  expected.policy_probabilities_batch(obs, masks))


def test_same_seed_same_first_checkpoint(tiny_run, tmp_path):
    import torch
    done = _train("--env", "thats_baseball_v0", "--out", str(tmp_path / "again"), *TINY)
    assert done.returncode == 0, done.stderr
    first = sorted((tiny_run / "checkpoints").iterdir())[0]
    again = sorted((tmp_path / "again" / "checkpoints").iterdir())[0]
    assert first.name == again.name
    a = PolicyAgent.load(first).actor.state_dict()
    b = PolicyAgent.load(again).actor.state_dict()
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_training_command_line_errors():
    bad = _train("--env", "cricket_v0")
    assert bad.returncode != 0 and "unknown environment 'cricket_v0'" in bad.stderr
    bad = _train("--env", "thats_baseball_v0", "--total-timesteps", "0")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "--total-timesteps: must be a whole number from 1 to" in bad.stderr


# -- the rules: --env-option and --teams ----------------------------------------------------------
def test_env_options_parse_into_the_settings():
    from dugout.train.ppo import Settings, parse
    s = parse(["--env", "showdown_v0", "--env-option", "level=basic", "--teams", "sln2004",
               "bos2004", "--env-option", "innings=7", "--env-option", "dh=true"])
    assert s.env_options == {"level": "basic", "innings": 7, "dh": True,
                             "teams": ["sln2004", "bos2004"]}
    assert parse(["--env", "thats_baseball_v0"]).env_options == {}
    assert Settings(env_options={"innings": 5}).env_options == {"innings": 5}
    with pytest.raises(ValueError, match="env_options render_mode: the harness sets it"):
        Settings(env_options={"render_mode": "human"})
    with pytest.raises(ValueError, match="innings must be an int"):
        Settings(env_options={"innings": 0})


@pytest.mark.parametrize("argv, says", [
    (["--env-option", "innings"], "--env-option: 'innings': expected KEY=VALUE"),
    (["--env-option", "colour=red"], "--env-option colour: thats_baseball_v0 has no option 'colour'"),
    (["--env-option", "innings=12"], "--env-option: thats_baseball_v0: innings must be an int"),
    (["--env-option", "illegal_action=raise"], "--env-option: illegal_action: the harness sets it"),
    (["--env", "grand_slam_v0", "--teams", "a", "b"], "--teams: grand_slam_v0 has no teams"),
    (["--teams", "sample", "reds", "--env-option", "teams=null"], "give one"),
    (["--teams", "sample", "nobody"], "--teams: "),
])
def test_bad_env_options_are_refused_before_training(argv, says, capsys):
    from dugout.train.ppo import parse
    with pytest.raises(SystemExit) as exit_info:
        parse(argv)
    assert exit_info.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert says in last, last


def test_training_envs_are_built_with_the_options(tmp_path):
    from dugout.train.ppo import Settings, make_envs
    s = Settings(env_options={"teams": ["reds", "sample"], "max_innings": 12}, n_envs=2,
                 opponent="random", out=str(tmp_path))
    venv = make_envs(s, tmp_path / "pool")
    for env in venv.envs:
        assert env.raw.max_innings == 12 and [t.name for t in env.raw.teams] == ["Reds", "Sample"]


def test_a_run_with_options_records_them_and_resumes_only_under_them(tmp_path, capsys):
    out = tmp_path / "run"
    rules = ["--teams", "sample", "reds", "--env-option", "max_innings=12"]
    done = _train("--env", "thats_baseball_v0", "--out", str(out), *TINY, *rules)
    assert done.returncode == 0, done.stderr
    options = {"max_innings": 12, "teams": ["sample", "reds"]}
    for folder in (out / "model", *(out / "pool").iterdir()):
        assert read_meta(folder, policy=False)["env_options"] == options
    assert read_meta(out / "model")["settings"]["env_options"] == options
    assert json.loads((out / "settings.json").read_text())["env_options"] == options
    other = _train("--env", "thats_baseball_v0", "--out", str(out), "--resume", *TINY[2:],
                   "--total-timesteps", "320")
    assert other.returncode != 0 and "same --env-option/--teams" in other.stderr
    # a tournament may play it under other options of the same sizes
    from dugout.evaluate import cli
    result = cli.main(["tournament", "--agents", "random", f"ppo:{out / 'model'}", "--games", "4",
                       "--teams", "reds", "sample", "--quiet", "--bootstrap", "10"])
    assert result.games == 4 and result.env_options == {"teams": ["reds", "sample"]}


