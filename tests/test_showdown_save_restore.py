"""Saving, copying and restoring MLB Showdown games (basic and advanced).

A JSON round trip taken at any decision point gives the same saved dict; a clone or a
saved copy continues exactly like the original under the same later actions (score, play
log, box score, dice); a clone shares nothing mutable with the original; the env
continues from a restored state; a saved game of another ruleset is refused.
"""

from __future__ import annotations

import json
import random

import pytest

from dugout.envs import grand_slam_v0, showdown_v0
from dugout.envs.core import Decision, Dice, ScriptedDice
from dugout.envs.showdown import rules
from dugout.envs.showdown.cards import Chart, HitterCard, PitcherCard, Team, load_team
from dugout.envs.showdown.rules import GameState

AGENTS = ("away", "home")
TEAM_NAMES = ("nya2004", "bos2004", "min2004", "sfn2004", "tba2004", "lan2004", "ana2004",
              "mil2004", "hou2004", "nyn2004")
TEAMS = {n: load_team(n) for n in TEAM_NAMES}


def dumps(state):
    return json.dumps(state.to_dict(), sort_keys=True)


def roundtrip(state):
    return GameState.from_dict(json.loads(json.dumps(state.to_dict())))


def new_game(seed, level="advanced", **kw):
    rng = random.Random(seed)
    teams = (TEAMS[rng.choice(TEAM_NAMES)], TEAMS[rng.choice(TEAM_NAMES)])
    return rules.new_game(teams, Dice(seed), level=level, dh=rng.choice([None, True, False]),
                          **kw), rng


def finish(state, actions):
    for a in actions:
        assert state.pending is not None, "the copy ended before the original"
        rules.apply_action(state, a)
    assert state.pending is None and state.over
    return state


# -- JSON round trips ----------------------------------------------------------------------------
@pytest.mark.parametrize("level", rules.LEVELS)
def test_json_round_trip_at_random_decision_points(level):
    checked = 0
    for seed in range(40):
        state, rng = new_game(seed, level)
        while state.pending is not None:
            if level == "basic" or rng.random() < 0.2:
                saved = state.to_dict()
                copy = GameState.from_dict(json.loads(json.dumps(saved)))
                assert copy.to_dict() == saved
                assert copy.pending == state.pending and copy.teams == state.teams
                assert copy.log.plays == state.log.plays and copy.log_extra == state.log_extra
                checked += 1
            rules.apply_action(state, rng.choice(state.pending.legal))
        done = roundtrip(state)
        assert done.to_dict() == state.to_dict() and done.over and done.winner == state.winner
    assert checked >= 80


def test_scripted_dice_and_over_cap_teams_round_trip():
    teams = (load_team("nya1927", point_cap=None), load_team("cin1975", point_cap=None))
    state = rules.new_game(teams, ScriptedDice([("rotation", 20), ("pitch", 1)], then=Dice(3)))
    assert [teams[t].players[state.starter[t]].key for t in (0, 1)] == \
        [teams[0].rotation[3], teams[1].rotation[3]]        # a 16-20: the fourth starters
    fresh = roundtrip(state)
    assert fresh.to_dict() == state.to_dict() and fresh.dice.scripted
    rng = random.Random(3)
    actions = []
    while state.pending is not None:
        actions.append(rng.choice(state.pending.legal))
        rules.apply_action(state, actions[-1])
    assert dumps(finish(fresh, actions)) == dumps(state)


# -- copies continue like the original -------------------------------------------------------------
@pytest.mark.parametrize("level", rules.LEVELS)
def test_clone_and_saved_copies_continue_identically(level):
    checked = 0
    for seed in range(25):
        state, rng = new_game(seed, level)
        snapshots, actions = [], []
        while state.pending is not None:
            if level == "basic" or not actions or rng.random() < 0.08:
                clone, copy = state.clone(), roundtrip(state)
                assert dumps(clone) == dumps(state) == dumps(copy)
                snapshots.append((len(actions), clone, copy))
            actions.append(rng.choice(state.pending.legal))
            rules.apply_action(state, actions[-1])
        final = dumps(state)
        for k, clone, copy in snapshots:
            for other in (clone, copy):
                finish(other, actions[k:])
                assert other.score == state.score and other.winner == state.winner
                assert other.log.plays == state.log.plays
                assert other.log_extra == state.log_extra
                assert dumps(other) == final
            checked += 1
    assert checked >= 50


def test_the_basic_game_without_decisions_round_trips():
    state = rules.new_game((TEAMS["nya2004"], TEAMS["bos2004"]), Dice(1), level="basic",
                           starter=3)
    assert state.over and state.pending is None
    assert roundtrip(state).to_dict() == state.to_dict()


# -- clones share nothing mutable --------------------------------------------------------------
#: immutable by design: shared between a state and its clones
FROZEN = (Team, HitterCard, PitcherCard, Chart, Decision, str, int, float, bool, type(None))


def mutable_objects(obj, path="state", out=None):
    """Every mutable object reachable from ``obj`` (lists, dicts, sets, objects with
    attributes), by id, with the path that reaches it; tuples are looked into."""
    if out is None:
        out = {}
    if isinstance(obj, FROZEN):
        return out
    if isinstance(obj, tuple):
        for i, x in enumerate(obj):
            mutable_objects(x, f"{path}[{i}]", out)
        return out
    if id(obj) in out:
        return out
    out[id(obj)] = path
    if isinstance(obj, dict):
        for k, v in obj.items():
            mutable_objects(v, f"{path}[{k!r}]", out)
    elif isinstance(obj, (list, set)):
        for i, x in enumerate(obj):
            mutable_objects(x, f"{path}[{i}]", out)
    else:
        names = list(getattr(obj, "__dict__", {}))
        for cls in type(obj).__mro__:
            names += [s for s in getattr(cls, "__slots__", ()) if hasattr(obj, s)]
        for name in names:
            mutable_objects(getattr(obj, name), f"{path}.{name}", out)
    return out


def test_clone_shares_no_mutable_object_with_the_original():
    """Walk both states: no list, dict or object is reachable from both (the teams and
    their cards, frozen, are shared by design). Checked at decision points and at the end of
    the game, over games that end in every way (a throw on the last play included)."""
    shared = {}
    checked = 0
    for seed in range(150):
        state, rng = new_game(seed)
        n = 0
        while True:
            if state.pending is None or n % 10 == 0:
                original = mutable_objects(state)
                for oid, path in mutable_objects(state.clone(), "clone").items():
                    if oid in original:
                        shared.setdefault(original[oid], seed)
                checked += 1
            if state.pending is None:
                break
            rules.apply_action(state, rng.choice(state.pending.legal))
            n += 1
    assert checked > 500
    assert not shared, f"the clone shares mutable objects with the original: {shared}"


def test_changing_a_clone_leaves_the_original_alone():
    for seed in range(12):
        state, rng = new_game(seed)
        for _ in range(rng.randrange(5, 80)):
            if state.pending is None:
                break
            rules.apply_action(state, rng.choice(state.pending.legal))
        if state.pending is None:
            continue
        before = dumps(state)
        poked = state.clone()
        b = poked.board
        b.runs[0] += 5
        b.line[1].append(3)
        b.outs = 2
        b.bases = (1, 2, 3)
        poked.box.lines[0][0].h += 1
        poked.box.lines[1][0].marks.append((1, "HR"))
        poked.box.pitching[0][0].outs += 3
        poked.box.hits[1] += 1
        poked.log.plays.append(state.log.plays[0] if state.log.plays else None)
        poked.log_extra.append(("x",))
        poked.dice.set_stream(9, 9)
        poked.dice.roll("pitch", sides=20)
        for t in (0, 1):
            poked.lineup[t][0] = 24
            poked.pos[t][0] = "PH"
            poked.pitcher[t] = 0
            poked.starter[t] = 0
            poked.used[t][0] = not poked.used[t][0]
            poked.batted[t][0] = not poked.batted[t][0]
            poked.innings_pitched[t][0].append(99)
            poked.runs_charged[t][0] += 10
            poked.ip_bonus[t][0] += 1
            for icons in poked.icons_left[t]:
                icons["K"] = 7
            poked.twenty_inning[t] = 99
            poked.relief_ace_inning[t] = 99
            poked.relief_ace_pitcher[t] = 3
            poked.box_line[t][99] = 1
            poked.pitch_line[t][99] = 1
            poked.needs_positions[t] = True
            poked.needs_pitcher[t] = True
            poked.pitcher_slot[t] = 4
            poked.order[t] = 5
        poked.responsible[42] = 1
        poked.half_track["batters"] = 99
        for key, value in list(poked.ab.items()):
            if isinstance(value, list):
                value.append(99)
        poked.ab["result"] = "HR"
        assert dumps(state) == before
        # the original still plays the game a fresh copy plays
        copy = roundtrip(state)
        tail = []
        while state.pending is not None:
            tail.append(rng.choice(state.pending.legal))
            rules.apply_action(state, tail[-1])
        assert dumps(finish(copy, tail)) == dumps(state)


# -- the env -----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_env_restores_a_cloned_or_saved_state_and_continues(seed):
    rng = random.Random(seed)
    env = showdown_v0.raw_env(teams=("min2004", "sfn2004"))
    env.reset(seed=seed)
    for _ in range(rng.randrange(10, 60)):
        env.step(rng.choice(env.game.pending.legal))
    clone, saved = env.game.clone(), json.dumps(env.game.to_dict())
    agent_then = env.agent_selection
    obs_then = {a: env.observe(a) for a in AGENTS}
    views_then = {a: env.view(a) for a in AGENTS}
    infos_then = {a: env.infos[a] for a in AGENTS}
    tail = []
    while not any(env.terminations.values()):
        tail.append(rng.choice(env.game.pending.legal))
        env.step(tail[-1])
    final = dumps(env.game)
    rewards = dict(env.rewards)
    for state in (clone, GameState.from_dict(json.loads(saved))):
        other = showdown_v0.raw_env()          # other teams: the state brings its own
        other.restore(state)
        assert other.agent_selection == agent_then
        for a in AGENTS:
            assert (other.observe(a)["observation"] == obs_then[a]["observation"]).all()
            assert (other.observe(a)["action_mask"] == obs_then[a]["action_mask"]).all()
            assert other.view(a) == views_then[a]
            assert other.infos[a] == infos_then[a]
        for a in tail:
            other.step(a)
        assert dumps(other.game) == final
        assert all(other.terminations.values()) and other.rewards == rewards


def test_wrapped_env_restores_after_reset_and_plays_to_the_end():
    source = showdown_v0.raw_env(level="basic")
    source.reset(seed=5)
    saved = json.dumps(source.game.to_dict())
    env = showdown_v0.env(level="basic")
    env.reset(seed=99)
    env.unwrapped.restore(GameState.from_dict(json.loads(saved)))
    assert env.agent_selection == "away"
    assert env.infos["away"]["decision"]["kind"] == "starting_pitcher"
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    source.step(source.game.pending.legal[0])
    source.step(source.game.pending.legal[0])
    assert dumps(env.unwrapped.game) == dumps(source.game)


def test_restoring_a_finished_game_ends_the_episode():
    state, rng = new_game(8)
    while state.pending is not None:
        rules.apply_action(state, rng.choice(state.pending.legal))
    env = showdown_v0.raw_env()
    env.restore(roundtrip(state))
    assert all(env.terminations.values())
    winner = AGENTS[state.winner]
    assert env.rewards[winner] == 1 and env.infos[winner]["score"]["away"] == state.score[0]


# -- other rulesets ------------------------------------------------------------------------------
def test_saved_game_from_another_ruleset_is_refused():
    d = rules.new_game((TEAMS["nya2004"], TEAMS["bos2004"]), Dice(0)).to_dict()
    d["ruleset"] = "grand_slam"
    with pytest.raises(ValueError, match="grand_slam"):
        GameState.from_dict(d)
    del d["ruleset"]
    with pytest.raises(ValueError, match="not a saved MLB Showdown game"):
        GameState.from_dict(d)
    gs = grand_slam_v0.raw_env()
    gs.reset(seed=0)
    with pytest.raises(ValueError, match="not a saved MLB Showdown game"):
        GameState.from_dict(gs.game.to_dict())
