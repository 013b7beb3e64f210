"""Saving, copying and restoring That's Baseball games, and common random numbers.

A clone or a JSON round trip taken at any decision point must continue exactly like
the original under the same later actions; a clone must share nothing mutable with
the original; the env must continue from a restored state; and the dice of a plate
appearance depend only on (seed, half inning, plate appearance), not on what the
managers decided earlier.
"""

from __future__ import annotations

import json
import random

import pytest

from dugout.envs import thats_baseball_v0
from dugout.envs.core import Dice, ScriptedDice, make_dice
from dugout.envs.core.scorebook import Play
from dugout.envs.thats_baseball import rules
from dugout.envs.thats_baseball.cards import load_team
from dugout.envs.thats_baseball.rules import GameState

TEAMS = (load_team("sample"), load_team("reds"))
AGENTS = ("away", "home")


def dumps(state):
    return json.dumps(state.to_dict(), sort_keys=True)


def roundtrip(state):
    return GameState.from_dict(json.loads(json.dumps(state.to_dict())))


def finish(state, actions):
    """Apply ``actions`` in order; the game must end exactly when they run out."""
    for a in actions:
        assert state.pending is not None, "the copy ended before the original"
        rules.apply_action(state, a)
    assert state.pending is None and state.over, "the copy did not end with the original"
    return state


# -- clone and JSON round trip -------------------------------------------------------------
@pytest.mark.parametrize("innings", [9, 2])
def test_clone_and_json_copies_continue_identically(innings):
    checked = 0
    kinds = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = rules.new_game(TEAMS[0], TEAMS[1], Dice(seed), innings=innings)
        snapshots = []          # (decision index, clone, json copy)
        actions = []
        while state.pending is not None:
            kind = state.pending.kind
            if not actions or kind not in kinds or rng.random() < 0.3 / innings:
                kinds.add(kind)
                clone, copy = state.clone(), roundtrip(state)
                assert dumps(clone) == dumps(state) == dumps(copy)
                assert copy.pending == state.pending
                snapshots.append((len(actions), clone, copy))
            a = rng.choice(state.pending.legal)
            actions.append(a)
            rules.apply_action(state, a)
        final = dumps(state)
        for k, clone, copy in snapshots:
            for other in (clone, copy):
                finish(other, actions[k:])
                assert dumps(other) == final
                assert other.log.plays == state.log.plays
                assert other.score == state.score and other.winner == state.winner
            checked += 1
    assert checked >= 40
    assert kinds == set(rules.DECISION_KINDS), "snapshots at every kind of decision"


def test_json_copy_of_a_finished_game_and_of_a_fresh_one():
    state = rules.new_game(TEAMS[0], TEAMS[1], Dice(3))
    fresh = roundtrip(state)
    assert dumps(fresh) == dumps(state)
    rng = random.Random(3)
    actions = []
    while state.pending is not None:
        actions.append(rng.choice(state.pending.legal))
        rules.apply_action(state, actions[-1])
    done = roundtrip(state)
    assert dumps(done) == dumps(state) and done.over and done.pending is None
    assert done.winner == state.winner
    assert dumps(finish(fresh, actions)) == dumps(state)


def test_saved_game_from_another_ruleset_is_refused():
    d = rules.new_game(TEAMS[0], TEAMS[1], Dice(0)).to_dict()
    d["ruleset"] = "showdown"
    with pytest.raises(ValueError, match="showdown"):
        GameState.from_dict(d)


def test_scripted_dice_survive_a_round_trip():
    script = [("at_bat", 5), 3, ("steal", 6), 2]
    dice = ScriptedDice(script)
    assert dice.roll("at_bat", dice=2) == 5
    copy = make_dice(json.loads(json.dumps(dice.to_dict())))
    clone = dice.clone()
    for d in (dice, copy, clone):
        assert d.remaining == 3
        assert d.roll("extra_base_hit") == 3 and d.roll("steal") == 6 and d.roll("tag_up") == 2
    assert copy.remaining == 0 and dice.remaining == 0 and clone.remaining == 0


# -- clones share nothing -------------------------------------------------------------------
def test_changing_a_clone_leaves_the_original_alone():
    for seed in range(15):
        rng = random.Random(seed)
        state = rules.new_game(TEAMS[0], TEAMS[1], Dice(seed))
        for _ in range(rng.randrange(5, 60)):
            if state.pending is None:
                break
            rules.apply_action(state, rng.choice(state.pending.legal))
        if state.pending is None:
            continue
        before = dumps(state)
        plays = list(state.log.plays)
        # play the clone to the end
        clone = state.clone()
        while clone.pending is not None:
            rules.apply_action(clone, rng.choice(clone.pending.legal))
        # and poke at every mutable part of another clone
        poked = state.clone()
        poked.board.runs[0] += 5
        poked.board.line[0].append(7)
        poked.board.line[1].append(7)
        poked.board.outs = 2
        poked.box.lines[0][0].h += 1
        poked.box.lines[1][3].marks.append((9, "HR"))
        poked.box.hits[1] += 3
        poked.box.errors[0] += 1
        poked.log.plays.append(Play(1, 0, "pa", 0, -1, 30, (None,) * 3, (None,) * 3, ()))
        poked.order[0] = (poked.order[0] + 4) % 9
        poked.order[1] = (poked.order[1] + 4) % 9
        poked.dice.set_stream(77, 77)
        poked.dice.roll("at_bat", dice=2)
        poked.pa += 3
        assert dumps(state) == before
        assert state.log.plays == plays
        # the original still plays the game a fresh replay plays
        copy = roundtrip(state)
        tail_rng = random.Random(seed + 1000)
        tail = []
        while state.pending is not None:
            tail.append(tail_rng.choice(state.pending.legal))
            rules.apply_action(state, tail[-1])
        assert dumps(finish(copy, tail)) == dumps(state)


# -- the env continues from a restored state -----------------------------------------------
def _play_env(env, rng, limit=None):
    """Step the env with random legal actions; return the actions taken."""
    actions = []
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        if limit is not None and len(actions) >= limit:
            break
        a = rng.choice(env.game.pending.legal)
        actions.append(a)
        env.step(a)
    return actions


def _final_steps(env):
    out = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, info = env.last()
        assert term or trunc
        out[agent] = (reward, term, trunc, json.dumps(info, sort_keys=True))
        env.step(None)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_env_restores_a_cloned_or_saved_state_and_continues(seed):
    rng = random.Random(seed)
    env = thats_baseball_v0.raw_env()
    env.reset(seed=seed)
    _play_env(env, rng, limit=rng.randrange(10, 80))
    assert env.game.pending is not None
    clone, saved = env.game.clone(), json.dumps(env.game.to_dict())
    agent_then = env.agent_selection
    obs_then = {a: env.observe(a) for a in AGENTS}
    tail = _play_env(env, rng)
    final_state = dumps(env.game)
    final_steps = _final_steps(env)

    for state in (clone, GameState.from_dict(json.loads(saved))):
        other = thats_baseball_v0.raw_env()
        other.restore(state)
        assert other.agent_selection == agent_then
        assert other.agents == list(AGENTS)
        assert not any(other.terminations.values())
        for a in AGENTS:
            o = other.observe(a)
            assert (o["observation"] == obs_then[a]["observation"]).all()
            assert (o["action_mask"] == obs_then[a]["action_mask"]).all()
        assert other.infos[agent_then]["decision"]["kind"] == state.pending.kind
        for a in tail:
            assert not any(other.terminations.values())
            other.step(a)
        assert dumps(other.game) == final_state
        assert _final_steps(other) == final_steps


def test_wrapped_env_restores_after_reset():
    rng = random.Random(9)
    env = thats_baseball_v0.env()
    env.reset(seed=9)
    _play_env(env.unwrapped, rng, limit=30)
    saved = env.unwrapped.game.clone()
    tail = _play_env(env.unwrapped, rng)
    final = dumps(env.unwrapped.game)
    env.reset(seed=123)
    env.unwrapped.restore(saved)
    for a in tail:
        env.step(a)
    assert dumps(env.unwrapped.game) == final


def test_env_restores_a_finished_game():
    env = thats_baseball_v0.raw_env()
    env.reset(seed=4)
    _play_env(env, random.Random(4))
    done = env.game.clone()
    expected = _final_steps(env)
    other = thats_baseball_v0.raw_env()
    other.restore(done)
    assert all(other.terminations.values())
    assert _final_steps(other) == expected
    winner = AGENTS[done.winner]
    assert expected[winner][0] == 1 and expected[AGENTS[1 - done.winner]][0] == -1


# -- common random numbers --------------------------------------------------------------------
def test_dice_depend_only_on_seed_stream_purpose_and_count():
    ref = Dice(5)
    ref.set_stream(3, 0)
    at_bat = [ref.roll("at_bat", dice=2) for _ in range(3)]
    xbh = ref.roll("extra_base_hit")

    other = Dice(5)
    other.set_stream(0, 0)
    for _ in range(10):
        other.roll("at_bat", dice=2)
    other.set_stream(3, 0)
    other.roll("steal")               # other purposes do not shift the at-bat rolls
    other.roll("pickoff", dice=2)
    other.roll("steal")
    assert [other.roll("at_bat", dice=2) for _ in range(3)] == at_bat
    assert other.roll("extra_base_hit") == xbh

    # re-entering a stream starts it over
    other.set_stream(3, 0)
    assert other.roll("at_bat", dice=2) == at_bat[0]

    # a copy continues where the original is
    mid = Dice(5)
    mid.set_stream(3, 0)
    mid.roll("at_bat", dice=2)
    for copy in (mid.clone(), Dice.from_dict(json.loads(json.dumps(mid.to_dict())))):
        assert [copy.roll("at_bat", dice=2) for _ in range(2)] == at_bat[1:]
    assert [mid.roll("at_bat", dice=2) for _ in range(2)] == at_bat[1:]


def test_dice_streams_and_seeds_differ():
    def seq(seed, *stream):
        d = Dice(seed)
        d.set_stream(*stream)
        return [d.roll("at_bat", dice=2) for _ in range(40)]

    base = seq(5, 3, 0)
    assert seq(5, 3, 1) != base
    assert seq(5, 4, 0) != base
    assert seq(6, 3, 0) != base
    assert seq(5, 0, 3) != base


def test_dice_are_fair():
    """Each face of a die comes up 1/6 of the time (fixed seed; 5-sigma tolerance)."""
    d = Dice(2024)
    n = 0
    counts = [0] * 7
    for half in range(200):
        d.set_stream(half, 0)
        for _ in range(300):
            counts[d.roll("steal")] += 1
            n += 1
    assert counts[0] == 0
    p = 1 / 6
    sigma = (n * p * (1 - p)) ** 0.5
    for face in range(1, 7):
        assert abs(counts[face] - n * p) < 5 * sigma, counts
    two = [0] * 13
    m = 0
    for half in range(100):
        d.set_stream(half, 1)
        for _ in range(360):
            two[d.roll("at_bat", dice=2)] += 1
            m += 1
    assert two[0] == two[1] == 0
    for total in range(2, 13):
        q = (6 - abs(total - 7)) / 36
        assert abs(two[total] - m * q) < 5 * (m * q * (1 - q)) ** 0.5, two


def _pa_dice(state):
    """Two-dice at-bat roll of each plate appearance, keyed by (half index, PA in the half)."""
    out = {}
    count = {}
    for p in state.log.plays:
        if p.kind != "pa":
            continue
        half_index = 2 * (p.inning - 1) + p.half
        k = count.get(half_index, 0)
        count[half_index] = k + 1
        aa = state.teams[p.half].batters[p.actor].aa
        out[(half_index, k)] = (p.roll - aa, p.actor)
    return out


def _play(seed, style):
    rng = random.Random(seed)
    state = rules.new_game(TEAMS[0], TEAMS[1], Dice(seed))
    while state.pending is not None:
        legal = state.pending.legal
        rules.apply_action(state, legal[0] if style == "pass" else rng.choice(legal))
    return state


def test_common_random_numbers_across_different_decisions():
    first_pa_checked = different_batter = common_total = 0
    for seed in range(30):
        passive, busy = _play(seed, "pass"), _play(seed, "random")
        assert passive.log.plays != busy.log.plays, "the managers' choices changed nothing"
        a, b = _pa_dice(passive), _pa_dice(busy)
        common = set(a) & set(b)
        assert common
        for key in common:
            assert a[key][0] == b[key][0], f"seed {seed}: at-bat dice differ at {key}"
            assert 2 <= a[key][0] <= 12
        common_total += len(common)
        # the first plate appearance of each later half inning (from the 3rd inning on)
        for half_index in range(4, 17):
            key = (half_index, 0)
            assert key in a and key in b, f"seed {seed}: no first PA in half {half_index}"
            assert a[key][0] == b[key][0]
            first_pa_checked += 1
            different_batter += a[key][1] != b[key][1]
    assert first_pa_checked == 30 * 13
    # the dice stay common even when different batters lead off
    assert different_batter > 0
    assert common_total > 30 * 40


def test_same_seed_same_decisions_same_game():
    assert dumps(_play(8, "random")) == dumps(_play(8, "random"))
    assert dumps(_play(8, "random")) != dumps(_play(9, "random"))
