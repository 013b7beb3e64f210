"""The client recipes users copy, on every registered env id (read from
``dugout.envs.ENV_IDS`` when the tests are collected, so a new ruleset is covered at once).

* ``examples/tianshou_dqn.py``: Tianshou 2.0's PettingZoo recipe (a masked DQN against a masked
  random policy, a Collector into a VectorReplayBuffer, ``run_training``) runs on the env as it
  is, and the buffer holds the env's infos under string keys; a plain random-vs-random
  collection of several whole games keeps a buffer Tianshou's trainer accepts (no missing
  values, no info whose shape changes from game to game);
* ``examples/sb3_maskable_ppo.py``: MaskablePPO through ``SingleAgentEnv`` with
  ``MaskableEvalCallback`` learns and evaluates;
* ``examples/pettingzoo_tools.py``: PettingZoo's wrappers (the classic chain with
  ``TerminateIllegalWrapper``, ``MultiEpisodeEnv``) and the turn-based parallel conversion
  (PettingZoo's ``api_test``/``seed_test`` on ``env()`` are in ``test_contract.py``);
* what clients hand the env and read from it: actions as one-element arrays and torch
  tensors, clear errors for floats and strings, seeding only the first ``reset()``, infos
  (string keys, one key tree at every step), observations inside their declared spaces.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

import dugout.envs as envs
from dugout.envs.core import IllegalActionError
from helpers import INFO_KEYS

ENV_IDS = [pytest.param(env_id, id=env_id) for env_id in envs.ENV_IDS]
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example(name: str):
    """An example script of ``examples/``, imported as a module."""
    mod = sys.modules.get(f"dugout_example_{name}")
    if mod is None:
        spec = importlib.util.spec_from_file_location(f"dugout_example_{name}", EXAMPLES / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
    return mod


def n_actions(env_id: str) -> int:
    return envs.make(env_id, raw=True).action_space("away").n


def dumps(env) -> str:
    return json.dumps(env.unwrapped.game.to_dict(), sort_keys=True)


def key_tree(value):
    """The key structure of an info: dicts by their keys (recursively), sequences by their
    length and their items' trees, anything else by its type's kind."""
    if isinstance(value, dict):
        return {k: key_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return (len(value), *(key_tree(v) for v in value))
    if value is None:
        return "None"
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, np.integer)):
        return "int"
    if isinstance(value, (float, np.floating)):
        return "float"
    return type(value).__name__


def non_string_keys(value, path="info") -> list[str]:
    if isinstance(value, dict):
        bad = [f"{path}[{k!r}]" for k in value if not isinstance(k, str)]
        for k, v in value.items():
            bad += non_string_keys(v, f"{path}[{k!r}]")
        return bad
    if isinstance(value, (list, tuple)):
        return [b for i, v in enumerate(value) for b in non_string_keys(v, f"{path}[{i}]")]
    return []


def aec_games(env_id: str, seed: int, games: int):
    """Every step of ``games`` games through the AEC loop (random legal actions), seeding
    only the first reset: ``(agent, obs, reward, termination, truncation, info)`` a step."""
    env = envs.make(env_id)
    rng = np.random.default_rng(seed)
    for g in range(games):
        env.reset(seed=seed) if g == 0 else env.reset()
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            yield env, agent, obs, reward, term, trunc, info
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# -- Tianshou ---------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_tianshou_buffer_keeps_whole_games_as_tianshou_needs_them(env_id):
    """The smallest reproduction of what Tianshou's trainer needs: two envs, random masked
    policies in both seats, whole games collected into a VectorReplayBuffer. Every info goes
    into the buffer, stacked key by key: a key whose shape changes from game to game (a line
    score of 9 innings, then one of 10) fails ``buffer.add`` with numpy's "shape mismatch", and a
    key missing at some steps (filled with None) or None itself makes ``buffer.hasnull()``
    true, which ``OffPolicyTrainer`` refuses ("Encountered NaNs in buffer")."""
    from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv

    ts = example("tianshou_dqn")
    env = ts.get_env(env_id)
    random_policy = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
                    for _ in env.agents], env=env)
    venv = DummyVectorEnv([lambda: ts.get_env(env_id) for _ in range(2)])
    venv.seed(0)
    np.random.seed(0)
    buffer = VectorReplayBuffer(5000, 2)
    collector = Collector[CollectStats](random_policy, venv, buffer)
    collector.reset()
    collector.collect(n_episode=6)
    nulls = [k for k, v in flat_batch(buffer[:].info) if pd_isnull(v).any()]
    assert not nulls, f"infos with missing values in Tianshou's buffer: {nulls}"


def flat_batch(batch, path="info"):
    for k in batch.get_keys():
        v = batch[k]
        if hasattr(v, "get_keys"):
            yield from flat_batch(v, f"{path}.{k}")
        else:
            yield f"{path}.{k}", v


def pd_isnull(values):
    import pandas as pd
    return np.asarray(pd.isnull(values))


LONG_GAMES = {"pokemon_baseball_v0": 800}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_tianshou_dqn_recipe_runs_on_the_env_as_is(env_id):
    ts = example("tianshou_dqn")
    n = n_actions(env_id)
    # enough steps for the buffer to hold finished games (a Pokemon Baseball game between
    # random managers is over a hundred decisions: two lineup cards, then every batter's offers)
    steps = LONG_GAMES.get(env_id, 200)
    result = ts.train(env_id, steps=steps, num_envs=2, num_test_envs=1, test_episodes=1,
                      buffer_size=3000, batch_size=16, collect_per_step=10, seed=1)
    buffer = result.buffer
    assert len(buffer) >= steps
    info = buffer[:].info
    assert {"decision"} <= set(info.get_keys())
    assert all(isinstance(k, str) for k, _ in flat_batch(info))
    labels = np.asarray(info.decision.labels)
    assert labels.shape == (len(buffer), n)
    kinds = set(np.asarray(info.decision.kind).tolist())
    assert "" in kinds and len(kinds) > 1, "the buffer should hold decisions of both managers"
    assert -1.0 <= result.learner_return <= 1.0
    assert result.test.n_collected_episodes == 1


# -- SB3 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_sb3_maskable_ppo_recipe_learns_and_evaluates(env_id):
    sb3 = example("sb3_maskable_ppo")
    result = sb3.train(env_id, steps=256, n_envs=1, n_steps=128, batch_size=32, n_epochs=1,
                       eval_freq=128, eval_episodes=1, final_episodes=2, seed=1)
    assert result.model.num_timesteps >= 256
    assert result.callback.n_calls >= 256
    assert -1.0 <= result.callback.last_mean_reward <= 1.0, "the eval callback never evaluated"
    assert -1.0 <= result.mean_reward <= 1.0


# -- PettingZoo's tools -----------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_classic_wrapper_chain(env_id):
    """raw_env() in TerminateIllegalWrapper, AssertOutOfBoundsWrapper, OrderEnforcingWrapper
    (how PettingZoo's classic games build env()): api_test passes, and an illegal action
    ends the game with -1 to the offender."""
    from pettingzoo.test import api_test
    pz = example("pettingzoo_tools")
    pz.quiet(api_test)(pz.classic_chain(env_id), num_cycles=200)
    offender, rewards, terminations = pz.illegal_move_through_the_chain(env_id, seed=2)
    assert rewards[offender] == -1 and all(terminations.values())


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_multi_episode_env_plays_several_games(env_id):
    pz = example("pettingzoo_tools")
    scores = pz.multi_episode(env_id, episodes=3, seed=5)
    assert len(scores) == 3
    assert pz.multi_episode(env_id, episodes=3, seed=5) == scores


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_turn_based_parallel_view(env_id):
    """aec_to_parallel refuses (not parallelizable); turn_based_aec_to_parallel passes
    parallel_api_test."""
    example("pettingzoo_tools").parallel_view(env_id, num_cycles=200)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_wrapper_writing_into_infos_leaves_the_env_alone(env_id):
    """PettingZoo's turn_based_aec_to_parallel (like Tianshou's vector envs, which add
    "env_id") writes a key into each info dict it is handed. That must not change the env's
    own infos of later steps or games."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    env = envs.make(env_id)
    par = turn_based_aec_to_parallel(env)
    obs, _ = par.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        acting = env.unwrapped.agent_selection
        actions = {a: (int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if a == acting else 0)
                   for a in par.agents}
        obs, *_ = par.step(actions)
    env.reset(seed=1)
    for _ in range(10):
        assert all(set(info) == INFO_KEYS for info in env.unwrapped.infos.values()), \
            {a: sorted(info) for a, info in env.unwrapped.infos.items()}
        env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_mask()))))


# -- actions clients hand over ----------------------------------------------------------------
def torch_kinds():
    import torch
    return {"tensor": lambda a: torch.tensor(a), "1-elem tensor": lambda a: torch.tensor([a]),
            "int32 tensor": lambda a: torch.tensor(a, dtype=torch.int32)}


ACTION_KINDS = ["1-elem array", "np.int64", "np.uint8", "tensor", "1-elem tensor", "int32 tensor"]


@pytest.mark.parametrize("kind", ACTION_KINDS)
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_array_and_tensor_actions_play_as_their_integer(env_id, kind):
    convert = {"1-elem array": lambda a: np.array([a]), "np.int64": np.int64,
               "np.uint8": np.uint8}.get(kind) or torch_kinds()[kind]
    env, twin = envs.make(env_id, raw=True), envs.make(env_id, raw=True)
    env.reset(seed=3)
    twin.reset(seed=3)
    rng = random.Random(3)
    for _ in range(25):
        if env.unwrapped.game.pending is None:
            break
        a = rng.choice(env.unwrapped.game.pending.legal)
        env.step(convert(a))
        twin.step(int(a))
        assert dumps(env) == dumps(twin)
        assert env.agent_selection == twin.agent_selection


def bad_actions(a: int):
    import torch
    return {"float": (float(a), "float"), "str": (str(a), "str"),
            "np.float64": (np.float64(a), "float64"), "bool": (True, "bool"),
            "float tensor": (torch.tensor(float(a)), "Tensor"),
            "2-elem array": (np.array([a, a]), "ndarray"), "float array": (np.array([float(a)]), "ndarray")}


@pytest.mark.parametrize("bad", ["float", "str", "np.float64", "bool", "float tensor",
                                 "2-elem array", "float array"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_non_integer_actions_raise_an_error_naming_their_type(env_id, bad):
    env = envs.make(env_id, raw=True)
    env.reset(seed=0)
    legal = env.unwrapped.game.pending.legal
    action, type_name = bad_actions(legal[-1])[bad]
    before = dumps(env)
    with pytest.raises(IllegalActionError) as err:
        env.step(action)
    msg = str(err.value)
    assert f"({type_name})" in msg and "an action is an integer" in msg, msg
    assert dumps(env) == before


# -- seeding once -----------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_seeding_only_the_first_reset_repeats_every_game(env_id):
    """Two runs that seed only the first reset() and choose actions with a seeded RNG play
    the same games: observations, actions and final scores, over several resets."""
    def run():
        record = []
        for env, agent, obs, reward, term, trunc, info in aec_games(env_id, seed=21, games=4):
            record.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                           reward, term, trunc, json.dumps(info.get("score"))))
        return record

    first, second = run(), run()
    assert first == second
    finals = [r[-1] for r in first if r[-1] != "null"]
    assert len(finals) >= 4 * 2


# -- infos and observations -------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_infos_have_string_keys_and_labels_for_every_action(env_id):
    n = n_actions(env_id)
    for env, agent, obs, reward, term, trunc, info in aec_games(env_id, seed=3, games=3):
        for a, each in env.infos.items():
            assert not non_string_keys(each), non_string_keys(each)
            d = each["decision"]
            assert set(d) == {"kind", "labels"} and isinstance(d["kind"], str)
            assert len(d["labels"]) == n and all(isinstance(x, str) for x in d["labels"])


def leaf_paths(tree, path="") -> set[str]:
    """The paths of an info's key tree, each leaf with its kind (``box_score.runs[2]:int``)."""
    if isinstance(tree, dict):
        return {p for k, v in tree.items() for p in leaf_paths(v, f"{path}.{k}" if path else k)}
    if isinstance(tree, tuple):
        return {p for v in tree[1:] for p in leaf_paths(v, f"{path}[{tree[0]}]")} or {f"{path}[0]"}
    return {f"{path}:{tree}"}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_infos_have_one_key_tree_at_every_step(env_id):
    """The info of every agent at every step, the end included, has the same key tree
    (what a client that batches infos, like Tianshou's buffer, needs): no key that appears
    only at the end, no sequence whose length changes from game to game, no None."""
    first = None
    for env, agent, obs, reward, term, trunc, info in aec_games(env_id, seed=4, games=3):
        for a, each in env.infos.items():
            paths = leaf_paths(key_tree(each))
            if first is None:
                first, first_keys = paths, set(each)
            where = "at the end of a game" if term or trunc else "during a game"
            assert paths == first, (
                f"{env_id}: {a}'s info {where} differs from the first step's: top-level keys "
                f"only here: {sorted(set(each) - first_keys)}, only at the first step: "
                f"{sorted(first_keys - set(each))}; paths only here: {sorted(paths - first)[:6]}; "
                f"only at the first step: "
                f"{sorted(first - paths)[:8]}")
            nones = sorted(p for p in paths if p.endswith(":None"))
            assert not nones, f"{env_id}: None in {a}'s info {where}: {nones}"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_observations_lie_within_their_declared_space(env_id):
    env = envs.make(env_id)
    for agent in env.possible_agents:
        box = env.observation_space(agent)["observation"]
        assert np.isfinite(box.low).all() and np.isfinite(box.high).all(), \
            f"{env_id}: the observation Box has infinite bounds"
    for env, agent, obs, reward, term, trunc, info in aec_games(env_id, seed=6, games=3):
        space = env.observation_space(agent)
        if not space.contains(obs):
            box, x = space["observation"], obs["observation"]
            out = np.flatnonzero((x < box.low) | (x > box.high))
            raise AssertionError(f"{env_id}: {agent}'s observation leaves its space at indices "
                                 f"{out.tolist()[:10]}: {x[out][:10]} (bounds {box.low[out][:10]}, "
                                 f"{box.high[out][:10]}); mask {obs['action_mask']}")
