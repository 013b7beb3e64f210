"""That's Baseball through the PettingZoo AEC API: what only That's Baseball's tests need.

The API and seed tests, rewards and dead steps, decision infos against masks and views,
illegal actions, the docstring's tables, rendering modes and max_innings truncation are the
contract suite's (``test_contract.py``), for every ruleset. Here: who decides what, every
observation piece, every decision kind's illegal action, the engine's own refusals, options
and team data, and the text of the render.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from dugout.envs import thats_baseball_v0
from dugout.envs.core import DataError, IllegalActionError, OptionError
from dugout.envs.thats_baseball import rules
from dugout.envs.thats_baseball.cards import load_team
from dugout.envs.thats_baseball.env import OBS

from helpers import AGENTS, option_labels, play_out

N_ACTIONS = len(rules.ACTIONS)


def illegal_for(decision):
    return next(a for a in range(N_ACTIONS) if a not in decision.legal)


# -- decisions and masks ---------------------------------------------------------------------
def test_decision_info_matches_mask_and_other_mask_is_zero():
    env = thats_baseball_v0.env()
    kinds_seen = set()

    def check(env, agent, obs, info):
        other = AGENTS[1 - AGENTS.index(agent)]
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (N_ACTIONS,)
        legal = set(np.flatnonzero(mask).tolist())
        assert legal, "the acting agent must have a legal action"
        pending = env.unwrapped.game.pending
        assert AGENTS[pending.actor] == agent
        assert legal == set(pending.legal)
        decision = info["decision"]
        assert decision["kind"] == pending.kind in rules.DECISION_KINDS
        assert set(option_labels(decision)) == legal
        assert all(isinstance(v, str) and v for v in option_labels(decision).values())
        assert len(set(option_labels(decision).values())) == len(legal), "labels must differ"
        # who decides follows the half inning
        batting = AGENTS[env.unwrapped.game.board.half]
        if pending.kind in ("steal", "error_roll", "tag_up"):
            assert agent == batting
        else:
            assert agent != batting
        # the observation's one-hot decision kind
        one_hot = obs["observation"][OBS.slice("decision")]
        assert one_hot.sum() == 1 and one_hot[rules.DECISION_KINDS.index(pending.kind)] == 1
        other_obs = env.observe(other)
        assert not other_obs["action_mask"].any(), "the non-acting agent's mask must be all zeros"
        assert env.infos[other]["decision"]["kind"] == "" and not any(env.infos[other]["decision"]["labels"])
        kinds_seen.add(pending.kind)

    for seed in range(30):
        play_out(env, seed, on_live_step=check)
    assert kinds_seen == set(rules.DECISION_KINDS)


def test_observation_pieces_describe_the_game():
    """Every piece of the observation says what the docstring's table says it does."""
    env = thats_baseball_v0.env(innings=3)
    pickoff_plays = {"picked_off", "pickoff_safe", "pickoff_error"}
    seen = {"pickoff_tried": 0, "tried_steal": 0, "subject": 0, "extra": 0}

    def check(env, agent, obs, info):
        game = env.unwrapped.game
        b = game.board
        # the plays of the plate appearance in progress; at a tag-up decision the batter's
        # fly out is already logged and belongs to it
        this_pa = []
        own_pa = game.pending.kind == "tag_up"
        for p in reversed(game.log.plays):
            if p.inning != b.inning or p.half != b.half:
                break
            if p.kind == "pa":
                if not own_pa:
                    break
                assert p.actor == game.batter and p.detail in ("FO", "SF")
                own_pa = False
            this_pa.append(p)
        tried = {p.actor for p in this_pa if p.kind in ("steal", "caught_stealing")}
        for seat, name in enumerate(AGENTS):
            v = OBS.unpack(env.observe(name)["observation"])
            assert v["inning"].tolist() == [float(i == min(b.inning, 10) - 1) for i in range(10)]
            assert v["half"].tolist() == [float(b.half == 0), float(b.half == 1)]
            assert v["seat"].tolist() == [float(seat == 0), float(seat == 1)]
            assert v["batting"][0] == float(seat == b.half)
            assert v["outs"].tolist() == [float(b.outs == i) for i in range(3)]
            assert v["runners"].tolist() == [float(r is not None) for r in b.bases]
            own, opp = b.runs[seat], b.runs[1 - seat]
            assert np.allclose(v["score"], [own / 10, opp / 10])
            assert np.isclose(v["run_diff"][0], max(-1, min(1, (own - opp) / 10)))
            batting, fielding = env.unwrapped.teams[b.half], env.unwrapped.teams[1 - b.half]
            due = [batting.batters[(game.order[b.half] + k) % 9].aa for k in range(9)]
            assert np.allclose(v["due_up_batting"], [(aa - 24) / 8 for aa in due])
            nxt = [fielding.batters[(game.order[1 - b.half] + k) % 9].aa for k in range(9)]
            assert np.allclose(v["due_up_fielding"], [(aa - 24) / 8 for aa in nxt])
            kind = game.pending.kind
            assert v["decision"].tolist() == [float(k == kind) for k in rules.DECISION_KINDS]
            subject = game.pending.subject if kind == "tag_up" else -1
            assert v["subject"].tolist() == [float(i == subject) for i in range(3)]
            assert v["tried_steal"].tolist() == [float(r is not None and r in tried) for r in b.bases]
            assert v["pickoff_tried"][0] == float(any(p.kind in pickoff_plays for p in this_pa))
            assert np.isclose(v["innings_left"][0], max(0, b.innings - b.inning) / 9)
            assert ((v["due_up_batting"] >= 0) & (v["due_up_batting"] <= 1)).all()
        seen["pickoff_tried"] += any(p.kind in pickoff_plays for p in this_pa)
        seen["tried_steal"] += any(r is not None and r in tried for r in b.bases)
        seen["subject"] += game.pending.kind == "tag_up"
        seen["extra"] += b.inning > b.innings

    for seed in range(25):
        play_out(env, seed, on_live_step=check)
    assert all(seen.values()), seen


# -- illegal actions ------------------------------------------------------------------------
def test_illegal_action_raw_env_for_every_decision_kind():
    env = thats_baseball_v0.raw_env()
    rng = np.random.default_rng(0)
    seen = set()
    for seed in range(10):
        env.reset(seed=seed)
        while env.agents and not any(env.terminations.values()) and not any(env.truncations.values()):
            d = env.game.pending
            if d.kind not in seen and len(d.legal) < N_ACTIONS:
                with pytest.raises(IllegalActionError, match=re.escape(repr(d.kind))):
                    env.step(illegal_for(d))
                seen.add(d.kind)
            env.step(int(rng.choice(d.legal)))
    assert seen == set(rules.DECISION_KINDS)


def test_engine_rejects_actions_after_the_game_and_illegal_ones():
    env = thats_baseball_v0.raw_env()
    env.reset(seed=5)
    state = env.game.clone()
    d = state.pending
    with pytest.raises(IllegalActionError, match=d.kind):
        rules.apply_action(state, illegal_for(d))
    while state.pending is not None:
        rules.apply_action(state, state.pending.legal[0])
    with pytest.raises(IllegalActionError, match="over"):
        rules.apply_action(state, 0)


# -- options ------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, words", [
    (dict(teams="sample"), "teams"),
    (dict(teams=("sample",)), "teams"),
    (dict(teams=("sample", "reds", "sample")), "teams"),
])
def test_bad_option_values_fail_loudly(kwargs, words):
    with pytest.raises(OptionError, match=words):
        thats_baseball_v0.env(**kwargs)


def test_good_options_are_accepted():
    env = thats_baseball_v0.env(teams=["reds", "sample"], innings=3, max_innings=3,
                                render_mode="ansi")
    env.reset(seed=0)
    assert env.unwrapped.teams[0].name == "Reds"
    assert env.unwrapped.game.board.innings == 3


# -- team data -------------------------------------------------------------------------------
def valid_lineup():
    positions = ["C", "1B", "2B", "3B", "SS", "OF", "OF", "OF", "DH"]
    return [{"name": f"Player {i}", "position": p, "average": 0.240 + 0.01 * i}
            for i, p in enumerate(positions)]


def _mutated(fn):
    lineup = valid_lineup()
    fn(lineup)
    return {"name": "Testers", "lineup": lineup}


@pytest.mark.parametrize("team, words", [
    ({"name": "Short", "lineup": valid_lineup()[:8]}, [r"nine batters", r"\b8\b"]),
    ({"name": "Long", "lineup": valid_lineup() + [
        {"name": "Extra", "position": "DH", "average": .250}]}, [r"nine batters", r"\b10\b"]),
    (_mutated(lambda l: l[4].update(position="C")), [r"missing 1x SS", r"too many 1x C"]),
    (_mutated(lambda l: l[8].update(position="P")), [r"lineup\[8\]", "Player 8", "position", "'P'"]),
    (_mutated(lambda l: l[3].update(average=1.5)), [r"lineup\[3\]", "Player 3", "average", "1.5"]),
    (_mutated(lambda l: l[3].update(average=-0.2)), [r"lineup\[3\]", "average", r"-0\.2"]),
    (_mutated(lambda l: l[2].update(average="three hundred")), [r"lineup\[2\]", "average",
                                                                "three hundred"]),
    (_mutated(lambda l: l[2].update(average=None)), [r"lineup\[2\]", "average", "None"]),
    (_mutated(lambda l: l[2].update(average=True)), [r"lineup\[2\]", "average"]),
    (_mutated(lambda l: l[5].update(average="nan")), [r"lineup\[5\]", "average"]),
    (_mutated(lambda l: l[6].pop("position")), [r"lineup\[6\]", "missing field 'position'"]),
    (_mutated(lambda l: l[6].pop("average")), [r"lineup\[6\]", "missing field 'average'"]),
    (_mutated(lambda l: l[0].pop("name")), [r"lineup\[0\]", "missing field 'name'"]),
    (_mutated(lambda l: l[1].update(speed=5)), [r"lineup\[1\]", "unknown field", "speed"]),
    (_mutated(lambda l: l[7].update(name="Player 0")), ["listed twice", "Player 0"]),
    (_mutated(lambda l: l[7].update(name="  ")), [r"lineup\[7\]", "name"]),
    ({"name": "X", "lineup": valid_lineup(), "manager": "Casey"}, ["unknown field", "manager"]),
    ({"name": "X", "lineup": "nine guys"}, ["lineup"]),
    ({"name": "X"}, ["lineup"]),
    ({"name": "X", "lineup": valid_lineup()[:8] + ["Player 8"]}, [r"lineup\[8\]", "object"]),
    (42, ["team"]),
])
def test_bad_team_data_raises_data_error_naming_the_problem(team, words):
    with pytest.raises(DataError) as err:
        thats_baseball_v0.env(teams=(team, "reds"))
    for w in words:
        assert re.search(w, str(err.value)), f"{w!r} not in {str(err.value)!r}"


def test_bad_json_file_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"name": "Broken", "lineup": [', encoding="utf-8")
    with pytest.raises(DataError) as err:
        thats_baseball_v0.env(teams=(str(path), "reds"))
    assert str(path) in str(err.value) and "JSON" in str(err.value)


def test_bad_field_in_json_file_names_file_batter_and_field(tmp_path):
    lineup = valid_lineup()
    lineup[4]["average"] = "x.301"
    path = tmp_path / "team.json"
    path.write_text(json.dumps({"name": "Bad", "lineup": lineup}), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_team(path)
    msg = str(err.value)
    assert str(path) in msg and "Player 4" in msg and "average" in msg


def test_missing_file_and_unknown_builtin_team(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(DataError, match="does not exist") as err:
        thats_baseball_v0.env(teams=(str(missing), "reds"))
    assert str(missing) in str(err.value)
    with pytest.raises(DataError, match="yankees") as err:
        thats_baseball_v0.env(teams=("sample", "yankees"))
    assert "sample" in str(err.value) and "reds" in str(err.value)


def test_valid_custom_teams_from_file_dict_and_list(tmp_path):
    team = {"name": "Testers", "lineup": valid_lineup(),
            "pitchers": [{"name": "Ace", "role": "P", "era": 2.5}]}
    path = tmp_path / "testers.json"
    path.write_text(json.dumps(team), encoding="utf-8")
    expected_aa = [24, 25, 26, 27, 28, 29, 30, 31, 32]
    for spec, name in ((str(path), "Testers"), (path, "Testers"), (team, "Testers"),
                       (valid_lineup(), "Custom")):
        env = thats_baseball_v0.env(teams=(spec, "reds"))
        t = env.unwrapped.teams[0]
        assert t.name == name
        assert [b.aa for b in t.batters] == expected_aa
        assert [b.name for b in t.batters] == [f"Player {i}" for i in range(9)]
        _, final = play_out(env, seed=1)
        assert env.unwrapped.box_score()["teams"][0] == name


def test_adjusted_averages_are_clamped_and_strings_accepted():
    lineup = valid_lineup()
    lineup[0]["average"] = ".199"
    lineup[1]["average"] = "0.400"
    lineup[2]["average"] = " .285 "
    lineup[3]["position"] = "3b"
    lineup[5]["position"] = "LF"
    t = load_team(lineup)
    assert [b.aa for b in t.batters][:4] == [24, 32, 29, 27]


# -- rendering ------------------------------------------------------------------------------------
def test_ansi_render_shows_line_score_and_situation():
    env = thats_baseball_v0.env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    assert "Sample" in text and "Reds" in text
    assert "R  H  E" in text
    assert "Top of the 1st" in text and "out" in text
    kind = env.unwrapped.game.pending.kind
    assert kind in text
    play_out(env, seed=2)
    text = env.render()
    away, home = env.unwrapped.game.score
    assert "Final" in text and f"{max(away, home)}-{min(away, home)}" in text
