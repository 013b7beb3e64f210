"""Saving, copying and restoring Harry's Grand Slam Baseball games.

A clone or a JSON round trip taken at any decision point continues exactly like the
original under the same later actions (the deck, hands and stacks included); a clone
shares nothing mutable with the original; the env continues from a restored state.
"""

from __future__ import annotations

import json
import random

import pytest

from dugout.envs import grand_slam_v0
from dugout.envs.core import Dice, ScriptedDice
from dugout.envs.grand_slam import rules
from dugout.envs.grand_slam.cards import DOUBLE, SINGLE
from dugout.envs.grand_slam.rules import GameState

AGENTS = ("away", "home")


def dumps(state):
    return json.dumps(state.to_dict(), sort_keys=True)


def roundtrip(state):
    return GameState.from_dict(json.loads(json.dumps(state.to_dict())))


def finish(state, actions):
    for a in actions:
        assert state.pending is not None, "the copy ended before the original"
        rules.apply_action(state, a)
    assert state.pending is None and state.over
    return state


def test_clone_and_json_copies_continue_identically():
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = rules.new_game(Dice(seed))
        snapshots, actions = [], []
        while state.pending is not None:
            if not actions or rng.random() < 0.05:
                clone, copy = state.clone(), roundtrip(state)
                assert dumps(clone) == dumps(state) == dumps(copy)
                assert copy.pending == state.pending
                snapshots.append((len(actions), clone, copy))
            actions.append(rng.choice(state.pending.legal))
            rules.apply_action(state, actions[-1])
        final = dumps(state)
        for k, clone, copy in snapshots:
            for other in (clone, copy):
                finish(other, actions[k:])
                assert dumps(other) == final
                assert other.log.plays == state.log.plays and other.played_by == state.played_by
            checked += 1
    assert checked >= 60


def test_finished_and_scripted_games_round_trip():
    state = rules.new_game(ScriptedDice([], then=Dice(3)))
    fresh = roundtrip(state)
    assert dumps(fresh) == dumps(state)
    rng = random.Random(3)
    actions = []
    while state.pending is not None:
        actions.append(rng.choice(state.pending.legal))
        rules.apply_action(state, actions[-1])
    done = roundtrip(state)
    assert dumps(done) == dumps(state) and done.over and done.winner == state.winner
    assert dumps(finish(fresh, actions)) == dumps(state)


def test_saved_game_from_another_ruleset_is_refused():
    d = rules.new_game(Dice(0)).to_dict()
    d["ruleset"] = "thats_baseball"
    with pytest.raises(ValueError, match="thats_baseball"):
        GameState.from_dict(d)


def test_changing_a_clone_leaves_the_original_alone():
    for seed in range(10):
        rng = random.Random(seed)
        state = rules.new_game(Dice(seed))
        for _ in range(rng.randrange(5, 60)):
            if state.pending is None:
                break
            rules.apply_action(state, rng.choice(state.pending.legal))
        if state.pending is None:
            continue
        before = dumps(state)
        poked = state.clone()
        poked.board.runs[0] += 5
        poked.board.line[1].append(3)
        poked.box.lines[0][0].h += 1
        poked.log.plays.append(state.log.plays[0])
        poked.played_by.append(1)
        poked.deck.insert(0, SINGLE)
        poked.hands[0][DOUBLE] += 1
        poked.hands[1][SINGLE] += 1
        poked.stacks[0].append(SINGLE)
        poked.stacks[1].append(SINGLE)
        poked.discards[SINGLE] += 1
        poked.runner_cards[4] = DOUBLE
        poked.outs_pile.append(SINGLE)
        poked.order[0] = 5
        poked.dice.set_stream(9, 9)
        poked.dice.shuffle("deck", range(10))
        assert dumps(state) == before
        # the original still plays the game a fresh copy plays
        copy = roundtrip(state)
        tail = []
        while state.pending is not None:
            tail.append(rng.choice(state.pending.legal))
            rules.apply_action(state, tail[-1])
        assert dumps(finish(copy, tail)) == dumps(state)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_env_restores_a_cloned_or_saved_state_and_continues(seed):
    rng = random.Random(seed)
    env = grand_slam_v0.raw_env()
    env.reset(seed=seed)
    for _ in range(rng.randrange(10, 60)):
        env.step(rng.choice(env.game.pending.legal))
    clone, saved = env.game.clone(), json.dumps(env.game.to_dict())
    agent_then = env.agent_selection
    obs_then = {a: env.observe(a)["observation"] for a in AGENTS}
    views_then = {a: env.view(a) for a in AGENTS}
    tail = []
    while not any(env.terminations.values()):
        tail.append(rng.choice(env.game.pending.legal))
        env.step(tail[-1])
    final = dumps(env.game)
    for state in (clone, GameState.from_dict(json.loads(saved))):
        other = grand_slam_v0.raw_env()
        other.restore(state)
        assert other.agent_selection == agent_then
        for a in AGENTS:
            assert (other.observe(a)["observation"] == obs_then[a]).all()
            assert other.view(a) == views_then[a]
        for a in tail:
            other.step(a)
        assert dumps(other.game) == final
        assert all(other.terminations.values())
