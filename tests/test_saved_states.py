"""Damaged saved games are refused when loaded, or play on: never a crash later (property-based).

A saved game is JSON (``env.unwrapped.save().to_dict()``). Loading it (``GameState.from_dict``,
``SeriesGame.from_dict``, ``Campaign.from_dict``) checks every value against its declared type
and each ruleset's ``validate()`` hook checks what the types cannot say. These tests take saves
from random mid-game points of every env, damage them (a value of another type, an int out of
range or off by a little, list items deleted, duplicated or added, strings swapped in, a value
nested deep, a key removed or added) and check that each damaged save is either refused with a
:class:`~dugout.envs.core.state.SaveError` (a ``ValueError``) naming the damaged value, or
restored and played on with random legal actions (observations, renders and box scores too)
without any exception. Valid saves load as they were written.
"""

from __future__ import annotations

import copy
import json
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dugout.envs as envs
from dugout.envs.core.series import SeriesGame
from dugout.envs.core.state import SaveError

#: (case id, env id, options): every ruleset, the Showdown levels with their own state, Bottom of
#: the 9th's longer game, a Pokemon Baseball series and the Manager Challenge's campaign.
CASES = [
    ("thats_baseball", "thats_baseball_v0", {}),
    ("grand_slam", "grand_slam_v0", {}),
    ("showdown-advanced", "showdown_v0", {"level": "advanced"}),
    ("showdown-expert-decks", "showdown_v0", {"level": "expert", "decks": "default"}),
    ("bottom_ninth-duel", "bottom_ninth_v0", {"teams": "choose", "draft": True}),
    ("bottom_ninth-game", "bottom_ninth_v0", {"mode": "game"}),
    ("pokemon-series", "pokemon_baseball_v0", {"series": 3}),
    ("manager_challenge", "manager_challenge", {}),
]
STEPS = 200                 # random actions played on after a damaged save is accepted
SAVES_PER_CASE = 6

#: Reproducible runs of a modest size (each example loads one save and may play 200 actions).
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# -- the envs and their saves --------------------------------------------------------------------
def make_env(env_id, options):
    if env_id == "manager_challenge":
        from dugout.envs.bottom_ninth.challenge import ManagerChallengeEnv
        return ManagerChallengeEnv(render_mode="ansi")
    return envs.make(env_id, raw=True, render_mode="ansi", **options)


def pending(env, env_id):
    return env.campaign.pending if env_id == "manager_challenge" else env.unwrapped.game.pending


def loader(env, env_id):
    """The ``from_dict`` that reads this env's saves."""
    if env_id == "manager_challenge":
        from dugout.envs.bottom_ninth.solo import Campaign
        return Campaign.from_dict
    if env.unwrapped.game is None:
        env.reset(seed=0)
    cls = type(env.unwrapped.game)
    if env.unwrapped.series_format is not None:
        return lambda data: SeriesGame.from_dict(data, cls.from_dict)
    return cls.from_dict


_SAVES: dict[str, list] = {}
_ENVS: dict[str, tuple] = {}


def env_of(case):
    """The case's env (one per case: ``restore`` replaces its game) and its loader."""
    if case not in _ENVS:
        _, env_id, options = next(c for c in CASES if c[0] == case)
        env = make_env(env_id, options)
        _ENVS[case] = (env, env_id, loader(env, env_id))
    return _ENVS[case]


def saves(case):
    """JSON saves of the case's env at random mid-game decisions (fixed seeds)."""
    if case not in _SAVES:
        _, env_id, options = next(c for c in CASES if c[0] == case)
        env = make_env(env_id, options)
        rng = random.Random(case)
        out = []
        seed = 0
        while len(out) < SAVES_PER_CASE:
            seed += 1
            env.reset(seed=seed)
            for _ in range(rng.randrange(1 + 40 * len(out))):
                d = pending(env, env_id)
                if d is None:
                    break
                env.step(rng.choice(d.legal))
            if pending(env, env_id) is not None:
                out.append(json.loads(json.dumps(env.save().to_dict())))
        _SAVES[case] = out
    return _SAVES[case]


def play_on(env, env_id, rng):
    """Random legal actions, reading what a client reads at each step, and a render."""
    env.render()
    if env_id == "manager_challenge":
        env.scorecard()
        for _ in range(STEPS):
            if env.campaign.over:
                break
            env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        env.render()
        return
    for _ in range(STEPS):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    env.render()
    if env.unwrapped.game.over:
        env.unwrapped.box_score()


# -- damage ------------------------------------------------------------------------------------------
SWAPS = ["x", "", 1.5, math.nan, math.inf, True, False, None, [], {}, 0, -1, 7, 10 ** 6, 2 ** 70,
         "0", "steal", "P", "DH"]


def get(tree, path):
    for k in path:
        tree = tree[k]
    return tree


def draw_path(data, tree) -> tuple:
    """A value in the save: a random key or index at each level, stopping anywhere."""
    path = ()
    node = tree
    while isinstance(node, (dict, list)) and node:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        k = data.draw(st.sampled_from(keys))
        path += (k,)
        node = node[k]
        if data.draw(st.integers(0, 2)) == 0:
            break
    return path


def damage(data, tree) -> str:
    """One damage somewhere in ``tree`` (in place); what it was, for the failure message."""
    path = draw_path(data, tree)
    if not path:
        return "none"
    parent, key = get(tree, path[:-1]), path[-1]
    value = parent[key]
    op = data.draw(st.sampled_from(["swap", "int", "int", "list", "string", "nest", "key"]))
    if op == "swap":
        parent[key] = data.draw(st.sampled_from(SWAPS))
    elif op == "int":
        base = value if type(value) is int else 0
        parent[key] = base + data.draw(st.sampled_from([-3, -2, -1, 1, 2, 3, 9, -100, 1000]))
    elif op == "list":
        target = value if isinstance(value, list) else parent if isinstance(parent, list) else None
        how = data.draw(st.sampled_from(["delete", "duplicate", "append", "clear"]))
        if target is None:
            parent[key] = [value]
        elif how == "delete" and target:
            del target[data.draw(st.integers(0, len(target) - 1))]
        elif how == "duplicate" and target:
            i = data.draw(st.integers(0, len(target) - 1))
            target.insert(i, copy.deepcopy(target[i]))
        elif how == "append":
            target.append(data.draw(st.sampled_from(SWAPS)))
        else:
            target.clear()
    elif op == "string":
        parent[key] = data.draw(st.sampled_from(["x", "end_pa", "pitch", "HR", str(value)[:20]]))
    elif op == "nest":
        for _ in range(data.draw(st.sampled_from([1, 3, 40, 5000]))):
            value = [value]
        parent[key] = value
    elif isinstance(parent, dict):
        if data.draw(st.booleans()):
            del parent[key]
        else:
            parent["unknown_field"] = 1
    else:
        parent[key] = {"a": value}
    return f"{op} at {list(path)}"


@pytest.mark.parametrize("case", [c[0] for c in CASES])
@SETTINGS
@given(data=st.data())
def test_damaged_saves_are_refused_or_play_on(case, data):
    env, env_id, load = env_of(case)
    saved = data.draw(st.sampled_from(saves(case)))
    damaged = copy.deepcopy(saved)
    done = [damage(data, damaged) for _ in range(data.draw(st.integers(1, 3)))]
    try:
        state = load(damaged)
    except SaveError as e:
        assert "saved " in str(e), e                   # names the save (and the value's path)
        return
    try:
        env.restore(state)
    except ValueError as e:                            # restore()'s own refusal (a series format)
        assert "series" in str(e), (done, e)
        return
    try:
        play_on(env, env_id, random.Random(data.draw(st.integers(0, 2 ** 32))))
    except Exception as e:                             # the damage slipped through: a crash
        raise AssertionError(f"{case}: a save damaged by {done} loaded, then crashed: "
                             f"{type(e).__name__}: {e}") from e


@pytest.mark.parametrize("case", [c[0] for c in CASES])
def test_valid_saves_load_as_they_were_written(case):
    """Every decision of a seeded game, saved through JSON, loads back (as the same JSON)."""
    env, env_id, load = env_of(case)
    rng = random.Random(1)
    env.reset(seed=11)
    for _ in range(60):
        text = json.dumps(env.save().to_dict())
        assert json.dumps(load(json.loads(text)).to_dict()) == text
        d = pending(env, env_id)
        if d is None:
            break
        env.step(rng.choice(d.legal))


@pytest.mark.parametrize("env_id, options", [
    ("thats_baseball_v0", {"innings": 2}), ("grand_slam_v0", {"innings": 2}),
    ("showdown_v0", {"innings": 2}), ("bottom_ninth_v0", {"mode": "game", "innings": 1}),
    ("bottom_ninth_v0", {}), ("pokemon_baseball_v0", {"innings": 1, "max_innings": 1}),
], ids=lambda x: x if isinstance(x, str) else "-".join(f"{k}={v}" for k, v in x.items()))
def test_finished_games_load(env_id, options):
    """A game's last state (walk-offs and cut-off games among them) loads as it was written."""
    env = make_env(env_id, options)
    load = loader(env, env_id)
    for seed in range(8):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.unwrapped.game.pending is not None:
            env.step(rng.choice(env.unwrapped.game.pending.legal))
        text = json.dumps(env.save().to_dict())
        assert json.dumps(load(json.loads(text)).to_dict()) == text


# -- refusals name the field -------------------------------------------------------------------------
def tb_save():
    env = envs.make("thats_baseball_v0", raw=True)
    env.reset(seed=4)
    rng = random.Random(4)
    while env.game.board.bases == (None, None, None) or env.game.pending.kind != "steal":
        env.step(rng.choice(env.game.pending.legal))
    return type(env.game), env.game.to_dict()


@pytest.mark.parametrize("where, value, message", [
    (("board", "bases", 2), "x", r"board\.bases\[2\]: expected an index 0 to 8 into the batting "
                                 r"team's lineup, got 'x'"),
    (("board", "bases", 2), [1], r"board\.bases\[2\]: expected an int, a string or null, got a list"),
    (("board", "outs"), 4, r"board\.outs: expected 0 to 3, got 4"),
    (("board", "outs"), True, r"board\.outs: expected an int, got True"),
    (("board", "inning"), 0, r"board\.inning: expected at least 1, got 0"),
    (("board", "runs", 0), -1, r"board\.runs\[0\]: expected at least 0, got -1"),
    (("order", 1), 9, r"order\[1\]: expected an index 0 to 8 into the lineup, got 9"),
    (("order",), [0], r"order: expected 2 items, got 1"),
    (("step",), "nowhere", r"step: expected one of"),
    (("pending", "legal"), [0, 2, 3], r"pending\.legal: a 'steal' decision here offers"),
    (("pending", "actor"), 2, r"pending\.actor: expected 0 to 1, got 2"),
    (("pending", "legal"), [], r"pending\.legal: a pending decision needs at least one"),
    (("dice", "seed"), -5, r"dice\.seed: expected 0 to"),
    (("pa_roll",), math.nan, r"pa_roll: expected an int, got nan"),
    (("tried_steal",), [[[[1]]]], r"tried_steal\[0\]: expected an int, got a list"),
])
def test_a_refused_save_names_the_value(where, value, message):
    cls, saved = tb_save()
    get(saved, where[:-1])[where[-1]] = value
    with pytest.raises(SaveError, match=r"^saved That's Baseball game: " + message):
        cls.from_dict(saved)


def test_a_save_nested_too_deep_is_refused():
    cls, saved = tb_save()
    deep = 0
    for _ in range(100_000):
        deep = [deep]
    saved["board"]["line"] = deep
    with pytest.raises(SaveError, match=r"board\.line"):
        cls.from_dict(saved)


def test_a_damaged_series_record_is_refused():
    env = envs.make("pokemon_baseball_v0", raw=True, series=3)
    env.reset(seed=2)
    saved = env.save().to_dict()
    cls = type(env.game)
    for key, value, message in [("game", 0, r"series\.game: expected 1 to 3"),
                                ("best_of", 1, r"series\.best_of: expected true or false"),
                                ("results", [{"away": 1}], r"series\.results\[0\]: missing key"),
                                ("carry", {"resting": 1}, r"series\.carry"),
                                ("length", 4, r"series\.length: a best-of series has an odd")]:
        bad = copy.deepcopy(saved)
        bad["series"][key] = value
        with pytest.raises(SaveError, match=r"^saved series: " + message):
            SeriesGame.from_dict(bad, cls.from_dict)
