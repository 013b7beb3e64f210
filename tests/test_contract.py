"""The contract every registered environment keeps (docs/architecture.md), checked for each
env id of ``dugout.envs.ENV_IDS`` and each of its option sets (``helpers.OPTION_SETS``): a new
ruleset gets all of this by registering.

* PettingZoo's ``api_test`` and ``seed_test``; seeds and actions of every integer type;
* the module docstring documents the observation table, the shapes and ``Discrete(n)`` the
  spaces have, and every action; one label per action;
* ``clone()`` shares no mutable object with the original, and changing a clone leaves the
  original alone;
* a game saved through JSON at any decision and restored into a second env continues exactly
  like the original (observations, masks, infos, rewards, box score);
* the env itself copied with ``copy.deepcopy`` or through pickle mid-game, ``env()`` and
  ``raw_env()``, continues exactly like the original;
* illegal actions: ``env()`` ends the game with -1 for the offender and says why;
  ``raw_env()`` raises ``IllegalActionError`` naming the decision and the legal actions and
  changes nothing; the steps after the end;
* the manager's view agrees with his observation, mask and decision info;
* invariants over thousands of random games: outs, runners, runs, rewards, infos.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import pickle
import random
import re
import sys
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import dugout.envs as envs
from dugout.envs.core import Dice, IllegalActionError, OptionError

from helpers import (AGENTS, CUT_OFF, case_id, cases, check_final, check_live_infos, games,
                     cuts_off, dumps, final_steps, final_structure, make, play_out, play_random,
                     play_to_random_decision, poke_everything, random_games, roundtrip,
                     ruleset_checks, shared_mutables, step_random, ties_won, ends_tied)

CASES = [pytest.param(env_id, options, id=case_id(env_id, options)) for env_id, options in cases()]
ENV_IDS = [pytest.param(env_id, id=env_id) for env_id in envs.ENV_IDS]

#: random games per case for the invariants (like each ruleset's own invariant run): 2,000 in
#: the full tier, 200 in the quick one
N_GAMES = games(2000, 200)
#: games per case cut off after one inning, to see truncations
N_CUT_OFF = 200
#: games whose clone is walked at the end, and of those, walked every 10 decisions
N_CLONE_GAMES, N_CLONE_WALKED = games(150, 40), 12


def env_class(env_id):
    return envs.spec(env_id).env_class


def n_actions(env_id) -> int:
    return len(env_class(env_id).ACTION_MEANINGS)


# -- PettingZoo's own tests and seeding -------------------------------------------------------------
@pytest.mark.parametrize("env_id, options", CASES)
def test_pettingzoo_api_test(env_id, options):
    with warnings.catch_warnings():
        # api_test hands reset() a dummy options dict; the env warns that it ignores it.
        warnings.filterwarnings("ignore", message=r".*reset\(\) ignores options.*")
        api_test(make(env_id, options), num_cycles=300)


@pytest.mark.parametrize("env_id, options", CASES)
def test_pettingzoo_seed_test(env_id, options):
    seed_test(functools.partial(envs.make, env_id, **options), num_cycles=300)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_reset_warns_about_ignored_options(env_id):
    env = envs.make(env_id)
    with pytest.warns(UserWarning, match="ignores options"):
        env.reset(seed=0, options={"innings": 3})


@pytest.mark.parametrize("env_id, options", CASES)
def test_same_seed_same_game_different_seed_different_game(env_id, options):
    def transcript(seed):
        env = make(env_id, options)
        play_out(env, seed)
        return dumps(env.unwrapped.game)

    assert transcript(4) == transcript(4)
    assert transcript(5) != transcript(4)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_reset_takes_numpy_seeds_and_rejects_bad_ones(env_id):
    a, b = envs.make(env_id, raw=True), envs.make(env_id, raw=True)
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert dumps(a.game) == dumps(b.game)
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(OptionError, match="seed"):
            a.reset(seed=bad)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_unseeded_reset_follows_the_last_seeded_one(env_id):
    """DESIGN contract 7: "a later reset() without a seed draws its game seed from a generator
    seeded by the last seeded reset (Gymnasium's convention)"."""
    games = []
    for _ in range(2):
        env = envs.make(env_id, raw=True)
        env.reset(seed=11)
        env.reset()
        first = dumps(env.game)
        env.reset()
        games.append((first, dumps(env.game)))
    assert games[0] == games[1], "two runs seeded alike played different unseeded games"
    assert games[0][0] != games[0][1]
    # the unseeded games' seeds are the draws of a generator seeded with the last seed
    seeds = np.random.default_rng(11)
    for played in games[0]:
        env = envs.make(env_id, raw=True)
        env.reset(seed=int(seeds.integers(2**63)))
        assert dumps(env.game) == played


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_env_wrapper_enforces_order_like_pettingzoos(env_id):
    """``env()``'s wrapper is PettingZoo's ``OrderEnforcingWrapper`` with fast attribute
    forwarding: the same refusals before ``reset()``, the wrapped env's own objects after."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = envs.make(env_id)
    assert isinstance(env, OrderEnforcingWrapper) and str(env) == env_id
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
        assert not hasattr(env, name)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(AttributeError, match="private attribute"):
        env._skip_agent_selection                      # BaseWrapper's rule still holds
    env.reset(seed=1)
    game = env.unwrapped
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
                 "_cumulative_rewards"):
        assert getattr(env, name) is getattr(game, name)
    obs, reward, term, trunc, info = env.last()
    assert np.array_equal(obs["observation"], game.observe(game.agent_selection)["observation"])
    assert (reward, term, trunc, info) == (0, False, False, game.infos[game.agent_selection])
    assert env.last(observe=False)[0] is None
    mine = {"away": 0, "home": 0}
    env.rewards = mine          # as on PettingZoo's wrapper: kept on the wrapper, not the env
    assert env.rewards is mine and game.rewards is not mine
    del env.rewards
    assert env.rewards is game.rewards
    play_out(env, 1)
    from pettingzoo.utils.env_logger import EnvLogger
    EnvLogger.mqueue.clear()
    env.step(None)                                      # PettingZoo's warning after the end
    assert any("after all agents are terminated" in str(m) for m in EnvLogger.mqueue)


@pytest.mark.parametrize("kind", ["int", "np.int64", "np.int8", "0-d array"])
@pytest.mark.parametrize("env_id, options", CASES)
def test_actions_may_be_python_or_numpy_integers(env_id, options, kind):
    """DESIGN contract 7: "Actions may be Python or numpy integers (0-d arrays included)"."""
    convert = {"int": int, "np.int64": np.int64, "np.int8": np.int8, "0-d array": np.array}[kind]
    env, twin = make(env_id, options, raw=True), make(env_id, options, raw=True)
    env.reset(seed=1)
    twin.reset(seed=1)
    rng = random.Random(1)
    for _ in range(20):
        if env.game.pending is None:
            break
        a = rng.choice(env.game.pending.legal)
        env.step(convert(a))
        twin.step(a)
        assert dumps(env.game) == dumps(twin.game)


# -- documentation --------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_docstring_documents_the_observation_table_and_the_spaces(env_id):
    cls = env_class(env_id)
    doc = sys.modules[cls.__module__].__doc__
    assert envs.spec(env_id).module().__doc__ == doc, "the _v0 module shows the env's docstring"
    assert cls.OBS.table() in doc, "the docstring must hold OBS.table() verbatim"
    for heading in ("Creation", "Agents", "Action Values", "Observation Space", "Rewards",
                    "Version History"):
        assert re.search(rf"^## {heading}$", doc, re.M), f"no '## {heading}' section"
    n = len(cls.ACTION_MEANINGS)
    env = envs.make(env_id)
    shape = re.search(r"^\| Observation shape \| \((\d+),\)", doc, re.M)
    assert shape, "the docstring must state the observation shape"
    actions = re.search(r"^\| Action values \| Discrete\((\d+)\) \|", doc, re.M)
    assert actions, "the docstring must state the action space"
    assert f"action mask of shape ({n},)" in doc
    for agent in AGENTS:
        obs_space = env.observation_space(agent)
        assert int(shape.group(1)) == cls.OBS.size == obs_space["observation"].shape[0]
        assert obs_space["observation"].dtype == np.float32
        assert obs_space["action_mask"].shape == (n,) and obs_space["action_mask"].dtype == np.int8
        assert int(actions.group(1)) == env.action_space(agent).n == n
    env.reset(seed=0)
    for agent in AGENTS:
        assert env.observe(agent)["observation"].shape == (cls.OBS.size,)
    # the Action Values table names every action (a row "| 2-26 | ..." covers a range)
    section = doc[doc.index("## Action Values"):doc.index("## Observation Space")]
    covered = set()
    for m in re.finditer(r"^\| (\d+)(?:-(\d+))? \| ", section, re.M):
        covered.update(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
    assert covered == set(range(n)), f"actions missing from the docstring: {set(range(n)) - covered}"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_action_meanings_one_label_per_action(env_id):
    env = envs.make(env_id)
    meanings = env.unwrapped.get_action_meanings()
    n = env.action_space("away").n
    assert len(meanings) == n == env.action_space("home").n
    assert list(meanings) == list(env_class(env_id).ACTION_MEANINGS)
    assert len(set(meanings)) == n and all(isinstance(m, str) and m for m in meanings)


# -- decisions, masks, the view and the observation ------------------------------------------------
def check_decision_step(env, agent, obs, info):
    """At a live step of ``agent``: the mask is the decision's legal actions (zeros for the
    other agent); the info names the decision; each agent's view is the env's VIEW, agrees
    with the mask and info, and encodes to exactly his observation."""
    game = env.unwrapped
    cls = type(game)
    d = game.game.pending
    n = len(game.ACTION_MEANINGS)
    assert AGENTS[d.actor] == agent == game.agent_selection
    mask = obs["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (n,)
    legal = tuple(np.flatnonzero(mask).tolist())
    assert legal and legal == d.legal, f"mask {legal} vs decision {d.legal}"
    check_live_infos(game)
    assert info == game.infos[agent]
    labels = info["decision"]["labels"]
    options = {a: labels[a] for a in d.legal}
    for name in AGENTS:
        acting = name == agent
        o = game.observe(name)
        assert o["observation"].dtype == np.float32 and o["observation"].shape == (game.obs_spec.size,)
        assert game.observation_space(name).contains(o), \
            f"{name}: observation outside the declared bounds at a {d.kind!r} decision"
        if not acting:
            assert not o["action_mask"].any(), "the non-acting agent's mask must be all zeros"
        else:
            assert np.array_equal(o["action_mask"], mask)
            assert np.array_equal(game.action_mask(), mask)
        view = game.view(name)
        assert isinstance(view, cls.VIEW)
        assert np.array_equal(cls.encode_view(view), o["observation"]), \
            f"{name}: encode_view(view) differs from the observation at a {d.kind!r} decision"
        assert view.seat == AGENTS.index(name)
        assert view.decision == (d.kind if acting else None)
        assert tuple(view.legal) == (legal if acting else ())
        if hasattr(view, "subject") and acting:
            assert view.subject == d.subject
        if hasattr(view, "options"):        # (action, label) pairs
            assert tuple(view.options) == (tuple(options.items()) if acting else ())
        if hasattr(view, "labels"):         # labels in the order of ``legal``
            assert tuple(view.labels) == (tuple(options.values()) if acting else ())


@pytest.mark.parametrize("env_id, options", CASES)
def test_view_observation_mask_and_infos_agree(env_id, options):
    env = make(env_id, options)
    kinds = set()

    def check(env, agent, obs, info):
        check_decision_step(env, agent, obs, info)
        kinds.add(info["decision"]["kind"])

    for seed in range(20):
        play_out(env, seed, on_live_step=check)
    assert kinds


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_view_is_a_frozen_dataclass_naming_every_field(env_id):
    cls = env_class(env_id)
    env = envs.make(env_id, raw=True)
    with pytest.raises(RuntimeError, match="before reset"):
        env.view("away")
    env.reset(seed=0)
    view = env.view("away")
    assert isinstance(view, cls.VIEW) and dataclasses.is_dataclass(view)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(view, dataclasses.fields(view)[0].name, None)
    missing = [f.name for f in dataclasses.fields(cls.VIEW)
               if not re.search(rf"\b{f.name}\b", cls.VIEW.__doc__ or "")]
    assert not missing, f"view fields its docstring does not name: {missing}"
    with pytest.raises(ValueError, match="unknown agent"):
        env.view("umpire")


# -- rewards and the dead steps --------------------------------------------------------------------
@pytest.mark.parametrize("env_id, options", CASES)
def test_rewards_infos_and_dead_steps_through_the_aec_loop(env_id, options):
    """Through ``env()``: no reward before the end, ``last()`` gives the cumulative reward, the
    manager who did not make the last move is asked first at the end, and the final infos and
    rewards follow the score."""
    env = make(env_id, options)
    structures = set()
    for seed in range(40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        last_actor, dead = None, []
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            assert reward == env.unwrapped._cumulative_rewards[agent]
            if term or trunc:
                if not dead:
                    check_final(env)
                dead.append((agent, reward, term, trunc, json.dumps(info, sort_keys=True)))
                env.step(None)
                continue
            assert reward == 0 and not dead, "no reward, and no live step, before the end"
            last_actor = agent
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.agents == [] and sorted(a for a, *_ in dead) == sorted(AGENTS)
        if last_actor is not None:
            assert dead[0][0] != last_actor, "the manager who did not move last is asked first"
        assert dead[0][4] == dead[1][4], "both managers get the same final info"
        info = json.loads(dead[0][4])
        structures.add(final_structure(info))
        rewards = {agent: reward for agent, reward, *_ in dead}
        flags = {(term, trunc) for _, _, term, trunc, _ in dead}
        if info["winner"] == "":
            assert rewards == {"away": 0, "home": 0} and flags == {(False, True)}
        else:
            loser = AGENTS[1 - AGENTS.index(info["winner"])]
            assert rewards == {info["winner"]: 1, loser: -1} and flags == {(True, False)}
            if ties_won(env_id, options):
                assert info["score"][info["winner"]] >= info["score"][loser]
            else:
                assert info["score"][info["winner"]] > info["score"][loser]
    assert len(structures) == 1, f"the final infos change structure: {structures}"


# -- invariants over random games -------------------------------------------------------------------
@pytest.mark.parametrize("env_id, options", CASES)
def test_invariants_over_random_games(env_id, options, monkeypatch):
    """Outs never above 3 (0-2 while a decision is pending), no runner on two bases, the line
    score and (at the end) the box score's runs equal the score, rewards +1 / -1 at the end,
    infos of one structure, at every decision of N_GAMES games (``helpers.random_games``).
    A ruleset adds its own invariants, and its own choice of teams and managing styles, to
    these games with ``random_game_checks`` in its ``test_<ruleset>_invariants.py``."""
    checks = ruleset_checks(env_id, options, monkeypatch)
    winners, structures = set(), set()
    for env in random_games(env_id, range(N_GAMES), options, checks):
        state = env.unwrapped.game
        assert not state.truncated or ends_tied(env_id, options), \
            "a game without max_innings was cut off"
        winners.add(state.winner)
        structures.add(final_structure(env.unwrapped.infos["away"]))
    assert winners - ({None} if ends_tied(env_id, options) else set()) == {0, 1}
    assert len(structures) == 1, f"the final infos change structure: {structures}"
    if checks.done is not None:
        checks.done()


CUT_OFF_CASES = [pytest.param(env_id, options, id=case_id(env_id, options))
                 for env_id, options in cases() if cuts_off(env_id, options)]
NO_TIE_CASES = [pytest.param(env_id, options, id=case_id(env_id, options))
                for env_id, options in cases() if not cuts_off(env_id, options)]


@pytest.mark.parametrize("env_id, options", NO_TIE_CASES)
def test_games_without_ties_refuse_max_innings(env_id, options):
    """A game that cannot end tied (Bottom of the 9th's duel) has nothing for ``max_innings``
    to cut off: the option is refused, naming it."""
    with pytest.raises(OptionError, match="max_innings"):
        make(env_id, {**options, **CUT_OFF})


@pytest.mark.parametrize("env_id, options", CUT_OFF_CASES)
def test_invariants_of_games_cut_off_by_max_innings(env_id, options):
    """With ``max_innings`` a tie after the last inning truncates the game: 0 to each manager,
    ``winner`` "", the same infos as a decided game."""
    truncated = decided = 0
    structures = set()
    for env in random_games(env_id, range(N_CUT_OFF), {**options, **CUT_OFF}):
        state = env.unwrapped.game
        assert state.board.inning == 1
        truncated += state.truncated
        decided += not state.truncated
        structures.add(final_structure(env.unwrapped.infos["away"]))
        if all(env.unwrapped.truncations.values()):    # the episode (a series: drawn) cut off
            final = final_steps(env)
            assert [r for r, *_ in final.values()] == [0, 0]
            assert all(trunc and not term for _, term, trunc, _ in final.values())
    assert truncated and decided
    assert len(structures) == 1, f"the final infos change structure: {structures}"


# -- clones --------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id, options", CASES)
def test_clone_shares_no_mutable_object_with_the_original(env_id, options):
    """Walk both states: no list, dict, set, array or object with attributes is reachable from
    both (frozen team and card data is shared by design). At the end of N_CLONE_GAMES games,
    which end in every way, and every 10 decisions of the first N_CLONE_WALKED of them."""
    env = make(env_id, options, raw=True)
    shared, checked = {}, 0

    def walk(state, seed):
        nonlocal checked
        for path in shared_mutables(state, state.clone()):
            shared.setdefault(path, seed)
        checked += 1

    for seed in range(N_CLONE_GAMES):
        rng = random.Random(seed)
        env.reset(seed=seed)
        n = 0
        while env.game.pending is not None:
            if seed < N_CLONE_WALKED and n % 10 == 0:
                walk(env.game, seed)
            env.step(rng.choice(env.game.pending.legal))
            n += 1
        walk(env.game, seed)
    assert checked >= N_CLONE_GAMES + N_CLONE_WALKED
    assert not shared, f"the clone shares mutable objects with the original: {shared}"


@pytest.mark.parametrize("env_id, options", CASES)
def test_changing_a_clone_leaves_the_original_alone(env_id, options):
    env = make(env_id, options, raw=True)
    poked_objects = 0
    for seed in range(12):
        rng = random.Random(seed)
        play_to_random_decision(env, seed, rng, most=80)     # (or the end of a short game)
        state = env.game
        before, saved = dumps(state), roundtrip(state)
        # play a clone to the end (in another env), and change every mutable part of another
        other = make(env_id, options, raw=True)
        other.restore(state.clone())
        step_random(other, rng)
        poked_objects += poke_everything(state.clone())
        assert dumps(state) == before, "changing a clone changed the original"
        # the original still plays the game its saved copy plays
        if state.pending is None:
            continue
        tail = step_random(env, rng)
        other = make(env_id, options, raw=True)
        other.restore(saved)
        for a in tail:
            other.step(a)
        assert dumps(other.game) == dumps(env.game)
    assert poked_objects > 12 * 5


# -- saving and restoring --------------------------------------------------------------------------
def trace_step(env) -> tuple:
    """Everything a client sees at this step: whose turn, each agent's observation, mask,
    info, reward and flags."""
    game = env.unwrapped
    out = [game.agent_selection, tuple(game.agents)]
    for agent in game.agents:
        o = game.observe(agent)
        out += [agent, o["observation"].tobytes(), o["action_mask"].tobytes(),
                json.dumps(game.infos[agent], sort_keys=True), game.rewards[agent],
                game._cumulative_rewards[agent], game.terminations[agent], game.truncations[agent]]
    return tuple(out)


def play_traced(env, actions):
    """Step ``actions`` through ``env``: the trace of every step, the dead steps, the final state."""
    trace = [trace_step(env)]
    for a in actions:
        env.step(a)
        trace.append(trace_step(env))
    return trace, final_steps(env), dumps(env.unwrapped.game)


#: (seed, extra options) of the games saved and restored, followed step by step: regulation
#: games, then short ones (extra innings come up more often) ...
TRACED_GAMES = ([(seed, {}) for seed in range(games(4, 2))]
                + [(seed, {"innings": 2}) for seed in (4, 5)[:games(2, 1)]])
#: ... and of the games whose copies are only compared at the end (what the managers see last,
#: the dead steps); the quick tier plays the first few of each
ENDED_GAMES = ([(seed, {}) for seed in range(6, 6 + games(20, 6))]
               + [(seed, {"innings": 2}) for seed in range(26, 26 + games(6, 3))])


@pytest.mark.parametrize("env_id, options", CASES)
def test_saved_game_restored_into_another_env_continues_identically(env_id, options):
    """At random decision points (the first one, the first of each kind, then one or two a
    game) the game is saved through JSON and cloned, and each copy is restored into a second
    env with the views of the original. In the TRACED_GAMES the saved copy plays on with the
    same observations, masks, infos, rewards and flags as the original at every step and both
    copies end in the same state (``to_dict``); in all games both copies end with the same
    observations and dead steps (rewards, final infos and box score). A finished game saved
    and restored ends the episode the same way."""
    # ``expected`` is the last game's length: 0 before the first game, which so saves the game
    # at every decision; the quick tier starts from a guess instead, one or two a game
    checked, kinds, expected = 0, set(), games(0, 100)
    traced = {seed for seed, _ in TRACED_GAMES}
    made = {}       # one env per length for the original, one for its replay, one for the copies

    def env_of(role, length):
        key = (role, tuple(length.items()))
        if key not in made:
            made[key] = make(env_id, {**options, **length}, raw=True)
        return made[key]

    for seed, length in TRACED_GAMES + ENDED_GAMES:
        rng = random.Random(seed)
        env = env_of("original", length)
        env.reset(seed=seed)
        snapshots, actions = [], []
        per_game = 2 if seed in traced else 1
        while env.game.pending is not None:
            kind = env.game.pending.kind
            if not actions or kind not in kinds or rng.random() * expected < per_game:
                kinds.add(kind)
                saved = json.dumps(env.game.to_dict())
                copy = type(env.game).from_dict(json.loads(saved))
                assert copy.pending == env.game.pending and copy.to_dict() == json.loads(saved)
                views = [env.view(a) for a in AGENTS]
                snapshots.append((len(actions), copy, env.game.clone(), views))
            actions.append(rng.choice(env.game.pending.legal))
            env.step(actions[-1])
        expected = len(actions)
        last = trace_step(env)
        if seed in traced:
            state = dumps(env.game)
            # replay the original from the start, recording what a client sees at every step
            original = env_of("replay", length)
            original.reset(seed=seed)
            trace, final, replayed = play_traced(original, actions)
            assert final_steps(env) == final and replayed == state and trace[-1] == last
        else:
            final = final_steps(env)
        for k, copy, clone, views in snapshots:
            for restored in (copy, clone):
                other = env_of("copy", length)
                other.restore(restored)
                assert [other.view(a) for a in AGENTS] == views
                if seed in traced and restored is copy:
                    got, got_final, got_state = play_traced(other, actions[k:])
                    assert got == trace[k:], f"seed {seed}: the saved copy from decision {k} drifted"
                    assert got_state == state
                else:
                    for a in actions[k:]:
                        other.step(a)
                    assert trace_step(other) == last
                    if seed in traced:
                        assert dumps(other.game) == state
                    got_final = final_steps(other)
                assert got_final == final, f"seed {seed}: the copy from decision {k} ended differently"
            checked += 1
        # a finished game saved through JSON is the same game, and ends the episode the same way
        done = roundtrip(env.game)
        assert done.over and done.pending is None and done.winner == env.game.winner
        if seed in traced:
            assert dumps(done) == state
        other = env_of("copy", length)
        other.restore(done)
        assert all(other.terminations.values()) or all(other.truncations.values())
        assert final_steps(other) == final
    assert checked >= len(TRACED_GAMES + ENDED_GAMES) + len(kinds)


@pytest.mark.parametrize("env_id, options", CASES)
def test_wrapped_env_restores_after_reset(env_id, options):
    rng = random.Random(9)
    source = make(env_id, options, raw=True)
    if play_to_random_decision(source, 9, rng, most=30) is None:
        source.reset(seed=9)
    saved = json.dumps(source.game.to_dict())
    tail = step_random(source, rng)
    env = make(env_id, options)
    env.reset(seed=123)
    state = type(source.game).from_dict(json.loads(saved))
    env.unwrapped.restore(state)
    for a in tail:
        env.step(a)
    assert dumps(env.unwrapped.game) == dumps(source.game)
    assert final_steps(env) == final_steps(source)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_saved_game_of_another_ruleset_is_refused(env_id):
    env = envs.make(env_id, raw=True)
    env.reset(seed=0)
    cls = type(env.game)
    for other_id in envs.ENV_IDS:
        other = envs.make(other_id, raw=True)
        other.reset(seed=0)
        d = other.game.to_dict()
        if d["ruleset"] == env.game.to_dict()["ruleset"]:
            continue
        with pytest.raises(ValueError, match=f"not a saved .*{d['ruleset']}"):
            cls.from_dict(d)
    d = env.game.to_dict()
    d["ruleset"] = "no_such_game"
    with pytest.raises(ValueError, match="no_such_game"):
        cls.from_dict(d)
    del d["ruleset"]
    with pytest.raises(ValueError, match="not a saved"):
        cls.from_dict(d)


# -- copies of the env itself (copy.deepcopy, pickle) ----------------------------------------------
#: seeds of the games whose env is copied, and how many random decisions of each (besides the
#: first decision and the end)
COPY_SEEDS, COPY_CUTS = range(3), 3
#: the contract's cases, and each that plays series as a short series too (games follow each
#: other inside the episode, with what carries between them)
def _plays_series(env_id: str, options: dict) -> bool:
    """Whether this case's env plays a series (its class does, and its options allow one:
    Showdown's basic game does not)."""
    if not env_class(env_id).PLAYS_SERIES:
        return False
    try:
        make(env_id, {**options, "series": 3, "innings": 2}, raw=True)
    except OptionError:
        return False
    return True


COPY_CASES = CASES + [
    pytest.param(env_id, {**options, "series": 3, "innings": 2},
                 id=case_id(env_id, {**options, "series": 3, "innings": 2}))
    for env_id, options in cases() if _plays_series(env_id, options)]


@pytest.mark.parametrize("raw", [False, True], ids=["env", "raw_env"])
@pytest.mark.parametrize("env_id, options", COPY_CASES)
def test_deepcopied_and_pickled_env_continues_identically(env_id, options, raw):
    """``copy.deepcopy(env)`` and ``pickle.loads(pickle.dumps(env))`` of ``env()`` and of
    ``raw_env()``, taken mid-game after the observations were read (whatever an env keeps
    between observations is in use), at the first decision, at random ones and at the end:
    each copy, given the original's remaining actions, shows the same observations, masks,
    infos, rewards and flags at every step, the same dead steps and the same final state."""
    copies = 0
    for seed in COPY_SEEDS:
        rng = random.Random(seed)
        env = make(env_id, options, raw=raw)
        env.reset(seed=seed)
        n = 0                                   # the game's length, from a first run
        while env.unwrapped.game.pending is not None:
            env.step(rng.choice(env.unwrapped.game.pending.legal))
            n += 1
        cuts = {0, n, *rng.sample(range(n), min(COPY_CUTS, n))}
        env.reset(seed=seed)
        trace, actions, snapshots = [], [], []
        while True:
            trace.append(trace_step(env))       # (reads every observation before a copy)
            if len(actions) in cuts:
                snapshots.append((len(actions), copy.deepcopy(env), "deepcopy"))
                snapshots.append((len(actions), pickle.loads(pickle.dumps(env)), "pickle"))
            if env.unwrapped.game.pending is None:
                break
            actions.append(rng.choice(env.unwrapped.game.pending.legal))
            env.step(actions[-1])
        final, state = final_steps(env), dumps(env.unwrapped.game)
        for k, other, how in snapshots:
            assert type(other) is type(env) and other.unwrapped is not env.unwrapped
            assert trace_step(other) == trace[k]
            for i, a in enumerate(actions[k:], k + 1):
                other.step(a)
                assert trace_step(other) == trace[i], \
                    f"seed {seed}: the {how} copy from decision {k} drifted at decision {i}"
            assert final_steps(other) == final, f"seed {seed}: the {how} copy from {k} ended differently"
            assert dumps(other.unwrapped.game) == state
            copies += 1
    assert copies >= 2 * len(COPY_SEEDS) * 3


# -- illegal actions -----------------------------------------------------------------------------
BAD_ACTIONS = ["unlisted", "out_of_range", "far_out_of_range", "negative", "none",
               "np_out_of_range", "float", "wrong_agent"]


def illegal_point(env_id, options, bad, raw):
    """An env at a decision and an illegal action for it. ``wrong_agent``: an action the other
    manager could play at his last decision but the acting manager may not play now."""
    n = n_actions(env_id)
    env = make(env_id, options, raw=raw)
    if bad != "wrong_agent":
        env.reset(seed=3)
        d = env.unwrapped.game.pending
        action = {"unlisted": next((a for a in range(n) if a not in d.legal), n),
                  "out_of_range": n, "far_out_of_range": 3 * n + 7, "negative": -1, "none": None,
                  "np_out_of_range": np.int64(n), "float": float(d.legal[0])}[bad]
        return env, action
    for seed in range(30):
        rng = random.Random(seed)
        env.reset(seed=seed)
        last_legal: dict[int, tuple] = {}
        while env.unwrapped.game.pending is not None:
            d = env.unwrapped.game.pending
            theirs = [a for a in last_legal.get(1 - d.actor, ()) if a not in d.legal]
            if theirs:
                return env, theirs[0]
            last_legal[d.actor] = d.legal
            env.step(rng.choice(d.legal))
    raise AssertionError(f"{case_id(env_id, options)}: no action one manager may play is illegal "
                         f"for the other in 30 games; list the case in NO_WRONG_AGENT_ACTION")


#: Cases where every action one manager may play is legal for the other too, so there is no
#: wrong-agent action to try: in Showdown's basic game each manager's only decision is his
#: starting pitcher, among the same four rotation actions.
NO_WRONG_AGENT_ACTION = {"showdown_v0-basic"}
ILLEGAL_CASES = [pytest.param(env_id, options, bad, id=f"{case_id(env_id, options)}-{bad}")
                 for env_id, options in cases() for bad in BAD_ACTIONS
                 if not (bad == "wrong_agent" and case_id(env_id, options) in NO_WRONG_AGENT_ACTION)]


@pytest.mark.parametrize("env_id, options, bad", ILLEGAL_CASES)
def test_illegal_action_in_env_loses_the_game(env_id, options, bad):
    env, action = illegal_point(env_id, options, bad, raw=False)
    d = env.unwrapped.game.pending
    offender = env.agent_selection
    opponent = AGENTS[1 - AGENTS.index(offender)]
    labels = env.unwrapped.infos[offender]["decision"]["labels"]
    assert AGENTS[d.actor] == offender
    env.step(action)
    assert all(env.terminations.values()) and len(env.terminations) == 2
    assert not any(env.truncations.values())
    score = {"away": env.unwrapped.game.score[0], "home": env.unwrapped.game.score[1]}
    for agent in AGENTS:
        why = env.infos[agent]["illegal_action"]
        expected = {"decision": {"kind": "", "labels": ("",) * len(labels)},
                    "score": score, "winner": "", "illegal_action": why}
        if options.get("series") is not None:    # a series' infos carry it at every step
            expected["series"] = env.unwrapped.series_.info()
            assert expected["series"]["game"] == 1 and not expected["series"]["over"]
        assert env.infos[agent] == expected
        assert why.startswith(f"{offender} played ")
        assert repr(d.kind) in why and "legal actions" in why
        assert all(f"{a} ({labels[a]})" in why for a in d.legal)
    finals = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term and not trunc
        finals[agent] = reward
        env.step(None)
    assert finals == {offender: -1, opponent: 0}
    assert list(finals)[0] == opponent, "the opponent is asked first after the offence"


@pytest.mark.parametrize("env_id, options, bad", ILLEGAL_CASES)
def test_illegal_action_in_raw_env_raises_and_changes_nothing(env_id, options, bad):
    env, action = illegal_point(env_id, options, bad, raw=True)
    d = env.game.pending
    agent = env.agent_selection
    labels = env.infos[agent]["decision"]["labels"]
    before = (dumps(env.game), trace_step(env))
    with pytest.raises(IllegalActionError) as err:
        env.step(action)
    msg = str(err.value)
    assert repr(d.kind) in msg and "legal actions" in msg
    for a in d.legal:
        assert f"{a} ({labels[a]})" in msg
    assert (dumps(env.game), trace_step(env)) == before, "an illegal action changed the game"
    env.step(d.legal[0])                   # the game goes on


@pytest.mark.parametrize("env_id, options", CASES)
def test_raw_env_steps_after_the_game_ends(env_id, options):
    """After the end: an action raises PettingZoo's dead-step ValueError and changes nothing,
    the engine refuses to act (IllegalActionError, "over"), ``step(None)`` removes the managers
    (the one who did not move last first), and a step once both are gone raises IllegalActionError, saying to reset."""
    env = make(env_id, options, raw=True)
    movers = []
    play_random(env, 5, on_decision=lambda e: movers.append(e.agent_selection))
    state = dumps(env.game)
    first = env.agent_selection
    assert movers and first != movers[-1]
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(env.action_space(first).sample())
    with pytest.raises(IllegalActionError, match="over"):
        env.unwrapped._apply(0)
    assert dumps(env.game) == state and env.agents == list(AGENTS)
    env.step(None)
    assert env.agents == [a for a in AGENTS if a != first]
    env.step(None)
    assert env.agents == []
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(None)
    assert dumps(env.game) == state


# -- options and rendering ----------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_unknown_options_and_bad_common_values_fail_loudly(env_id):
    for raw in (False, True):
        with pytest.raises(OptionError, match="'foo'"):
            envs.make(env_id, raw=raw, foo=1)
    for kwargs, words in ((dict(render_mode="rgb"), "render_mode"),
                          (dict(render_mode="ANSI"), "render_mode"),
                          (dict(illegal_action="ignore"), "illegal_action"),
                          (dict(innings=0), "innings"), (dict(innings=-3), "innings"),
                          (dict(innings="9"), "innings"), (dict(innings=True), "innings"),
                          (dict(innings=9.0), "innings"), (dict(innings=10**5000), "innings"),
                          (dict(render_mode=10**5000), "render_mode"),
                          (dict(innings=9, max_innings=8), "max_innings"),
                          (dict(innings=3, max_innings=2), "max_innings"),
                          (dict(max_innings="12"), "max_innings"),
                          (dict(max_innings=True), "max_innings"),
                          (dict(dice="1 2 3"), "ScriptedDice"),
                          (dict(dice=Dice(0)), "ScriptedDice")):
        with pytest.raises(OptionError, match=words):
            envs.make(env_id, **kwargs)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_render_modes(env_id, capsys):
    env = envs.make(env_id)
    env.reset(seed=0)
    assert env.render() is None
    env = envs.make(env_id, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "R  H  E" in text                  # the line score
    assert re.search(r"(Top|Bottom) of the \d+(st|nd|rd|th)", text)    # the situation
    assert env.unwrapped.game.pending.kind in text
    play_out(env, seed=2)
    text = env.render()
    away, home = env.unwrapped.game.score
    assert "Final" in text and f"{max(away, home)}-{min(away, home)}" in text
    human = envs.make(env_id, render_mode="human")
    human.reset(seed=0)
    capsys.readouterr()
    assert human.render() is None
    env.reset(seed=0)
    assert capsys.readouterr().out == env.render() + "\n", "human prints what ansi returns"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_box_score_is_a_method_not_an_info(env_id):
    """The box score (whose size varies from game to game) comes from ``box_score()`` at any
    time, never in the infos, which keep one shape for Tianshou-like clients."""
    env = envs.make(env_id, raw=True)
    with pytest.raises(RuntimeError, match="before reset"):
        env.box_score()
    env.reset(seed=0)
    box = env.box_score()
    assert box is None or box["runs"] == list(env.game.score)
    assert all("box_score" not in info for info in env.infos.values())
