"""Saving and restoring MLB Showdown games: what only Showdown's tests need.

Clones that share nothing, JSON round trips at any decision that continue like the original,
a finished game, a wrapped env restored after ``reset()`` and the refusal of another
ruleset's saved game are the contract suite's (``test_contract.py``), for every ruleset and
both levels. Here: copies taken at every kind of decision (over teams with every icon),
scripted dice and over-cap teams in a saved game, the basic game with no decision, every
mutable part of a clone changed by hand, and a state restored into an env of other teams
(the state brings its own).
"""

from __future__ import annotations

import functools
import json
import random

import pytest

from dugout.envs import showdown_v0
from dugout.envs.core import Dice, ScriptedDice
from dugout.envs.core.errors import DataError
from dugout.envs.showdown import rules
from dugout.envs.showdown.cards import load_team
from dugout.envs.showdown.state import GameState

from helpers import dumps, play_engine, roundtrip, step_random
from helpers import finish as _finish

AGENTS = ("away", "home")
TEAM_NAMES = ("nya2004", "bos2004", "min2004", "sfn2004", "tba2004", "lan2004", "ana2004",
              "mil2004", "hou2004", "nyn2004")
TEAMS = {n: load_team(n) for n in TEAM_NAMES}
finish = functools.partial(_finish, apply=rules.apply_action)


def new_game(seed, level="advanced", **kw):
    rng = random.Random(seed)
    teams = (TEAMS[rng.choice(TEAM_NAMES)], TEAMS[rng.choice(TEAM_NAMES)])
    return rules.new_game(teams, Dice(seed), level=level, dh=rng.choice([None, True, False]),
                          **kw), rng


# -- saved games ---------------------------------------------------------------------------------
def test_scripted_dice_and_over_cap_teams_round_trip():
    teams = (load_team("nya1927", point_cap=None), load_team("cin1975", point_cap=None))
    state = rules.new_game(teams, ScriptedDice([("rotation", 20), ("pitch", 1)], then=Dice(3)))
    assert [teams[t].players[state.starter[t]].key for t in (0, 1)] == \
        [teams[0].rotation[3], teams[1].rotation[3]]        # a 16-20: the fourth starters
    fresh = roundtrip(state)
    assert fresh.to_dict() == state.to_dict() and fresh.dice.scripted
    rng = random.Random(3)
    actions = play_engine(state, rules.apply_action, lambda s: rng.choice(s.pending.legal))
    assert dumps(finish(fresh, actions)) == dumps(state)


#: pairs of 2004 teams whose cards carry every icon (K, V, SB, RP, 20, HR, S, G) between them
ICON_PAIRS = (("min2004", "sfn2004"), ("tba2004", "lan2004"), ("ana2004", "mil2004"),
              ("bos2004", "ari2004"))


def test_copies_continue_identically_from_every_decision_kind():
    """(The contract saves and restores games of the default teams, whose cards lack some
    icons, so some decisions never come up there.) Over the pairs of teams with every icon,
    AL and NL rules, a clone and a JSON copy taken at the first decision of each game and the
    first of each kind continue exactly like the original (state, log, box score)."""
    kinds = set()
    for seed in range(40):
        away, home = ICON_PAIRS[seed % len(ICON_PAIRS)]
        state = rules.new_game((load_team(away), load_team(home)), Dice(seed),
                               level="advanced", dh=(None, True, False)[seed % 3])
        rng = random.Random(seed)
        snapshots, actions = [], []
        while state.pending is not None:
            kind = state.pending.kind
            if not actions or kind not in kinds:
                kinds.add(kind)
                clone, copy = state.clone(), roundtrip(state)
                assert copy.to_dict() == state.to_dict() and copy.pending == state.pending
                snapshots.append((len(actions), clone, copy))
            actions.append(rng.choice(state.pending.legal))
            rules.apply_action(state, actions[-1])
        final = dumps(state)
        for k, clone, copy in snapshots:
            for other in (clone, copy):
                finish(other, actions[k:])
                assert other.log.plays == state.log.plays and other.log_extra == state.log_extra
                assert dumps(other) == final
    assert kinds == set(rules.DECISION_KINDS) - {"starting_pitcher"}


def test_the_basic_game_without_decisions_round_trips():
    state = rules.new_game((TEAMS["nya2004"], TEAMS["bos2004"]), Dice(1), level="basic",
                           starter=3)
    assert state.over and state.pending is None
    assert roundtrip(state).to_dict() == state.to_dict()


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
        poked.ab.result = "HR"
        poked.ab.scored += (99,)
        poked.ab.icons_asked += ("K",)
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
def test_env_of_other_teams_restores_a_cloned_or_saved_state_and_continues(seed):
    rng = random.Random(seed)
    env = showdown_v0.raw_env(teams=("min2004", "sfn2004"))
    env.reset(seed=seed)
    step_random(env, rng, limit=rng.randrange(10, 60))
    clone, saved = env.game.clone(), json.dumps(env.game.to_dict())
    agent_then = env.agent_selection
    obs_then = {a: env.observe(a) for a in AGENTS}
    views_then = {a: env.view(a) for a in AGENTS}
    infos_then = {a: env.infos[a] for a in AGENTS}
    tail = step_random(env, rng)
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


# -- a game played under other options -----------------------------------------------------------

#: (the saved game's env options, the restoring env's, the option its refusal names)
OTHER_OPTIONS = [
    ({"level": "expert"}, {"level": "advanced"}, "level"),
    ({"level": "advanced"}, {"level": "basic"}, "level"),
    ({"dh": False}, {"dh": True}, "dh"),
    ({}, {"dh": True}, "dh"),           # sfn2004's own rules (dh=None): no DH
    ({"level": "expert", "decks": "default"}, {"level": "expert"}, "decks"),
    ({"level": "expert"}, {"level": "expert", "decks": "default"}, "decks"),
    ({"level": "expert", "decks": "hooks"}, {"level": "expert", "decks": "default"}, "card_set"),
    ({"innings": 7}, {}, "innings"),
    ({}, {"max_innings": 12}, "max_innings"),
]


@pytest.mark.parametrize("saved_under, restored_under, option", OTHER_OPTIONS,
                         ids=[f"{o}-{i}" for i, (_, _, o) in enumerate(OTHER_OPTIONS)])
def test_a_game_of_other_options_is_refused_naming_the_option(saved_under, restored_under, option):
    """Setup: a game saved under some options, an env of other options. Expected: restore()
    raises DataError naming the option, and the env goes on with its own game (the
    observation the size of its space)."""
    saved = showdown_v0.raw_env(teams=("nya2004", "sfn2004"), **saved_under)
    saved.reset(seed=1)
    step_random(saved, random.Random(1), limit=5)
    env = showdown_v0.raw_env(teams=("nya2004", "sfn2004"), **restored_under)
    env.reset(seed=2)
    before = dumps(env.game)
    for state in (saved.game.clone(), roundtrip(saved.game)):
        with pytest.raises(DataError, match=rf"\b{option}\b"):
            env.restore(state)
        assert dumps(env.game) == before
        for a in AGENTS:
            assert env.observation_space(a)["observation"].contains(env.observe(a)["observation"])


def test_a_series_game_and_a_single_game_are_not_restored_into_each_other():
    """A game of a series (its relief streaks) into a single-game env, and a series whose
    game holds no streaks (a single game's) into a series env: refused, naming ``series``;
    the observation's rest piece goes by the env's series option, never by the state."""
    single = showdown_v0.raw_env(level="expert")
    series = showdown_v0.raw_env(level="expert", series=3)
    single.reset(seed=0)
    series.reset(seed=0)
    with pytest.raises(DataError, match=r"\bseries\b"):
        single.restore(series.save().game)
    streaks = single.save()
    streaks.relief_streak = [[0] * 25, [0] * 25]
    with pytest.raises(DataError, match=r"\bseries\b"):
        single.restore(streaks)
    bare = series.save()
    bare.game.relief_streak = [[], []]
    with pytest.raises(DataError, match=r"\bseries\b"):
        series.restore(bare)
    for env in (single, series):
        for a in AGENTS:
            assert env.observation_space(a)["observation"].contains(env.observe(a)["observation"])
    series.restore(series.save())               # a game of the env's options restores
    assert series.observe("away")["observation"].shape == (376,)
