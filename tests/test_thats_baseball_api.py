"""That's Baseball through the PettingZoo AEC API: the API and seed tests, reward
attribution, decision infos and masks, illegal actions, options, team data, the
docstring's observation table, rendering and max_innings truncation."""

from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from dugout.agents import RandomAgent
from dugout.envs import thats_baseball_v0
from dugout.envs.core import DataError, IllegalActionError, OptionError
from dugout.envs.thats_baseball import env as tb_env_module
from dugout.envs.thats_baseball import rules
from dugout.envs.thats_baseball.cards import load_team
from dugout.envs.thats_baseball.env import OBS

AGENTS = ("away", "home")
N_ACTIONS = len(rules.ACTIONS)


# -- helpers ---------------------------------------------------------------------------------
def play_out(env, seed, agents=None, on_live_step=None):
    """Play a seeded game with random agents; return (last live actor, final steps).

    ``final`` maps each agent to what ``env.last()`` gave at its dead step.
    """
    if agents is None:
        agents = {a: RandomAgent(seed=1000 * seed + i) for i, a in enumerate(AGENTS)}
    env.reset(seed=seed)
    last_actor = None
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, term, trunc, info)
            env.step(None)
            continue
        assert not final, "a live step after an agent's dead step"
        if on_live_step is not None:
            on_live_step(env, agent, obs, reward, info)
        action = agents[agent].act(obs)
        last_actor = agent
        env.step(action)
    return last_actor, final


def first_decision(env, seed):
    env.reset(seed=seed)
    return env.unwrapped.game.pending


def illegal_for(decision):
    return next(a for a in range(N_ACTIONS) if a not in decision.legal)


# -- PettingZoo's own tests --------------------------------------------------------------------
def test_pettingzoo_api_test():
    with warnings.catch_warnings():
        # api_test hands reset() a dummy options dict; the env warns that it ignores it.
        warnings.filterwarnings("ignore", message=r".*reset\(\) ignores options.*")
        api_test(thats_baseball_v0.env(), num_cycles=300)


def test_reset_warns_about_ignored_options():
    env = thats_baseball_v0.env()
    with pytest.warns(UserWarning, match="ignores options"):
        env.reset(seed=0, options={"innings": 3})


def test_pettingzoo_seed_test():
    seed_test(thats_baseball_v0.env, num_cycles=300)


def test_same_seed_same_game_different_seed_different_game():
    def transcript(seed):
        env = thats_baseball_v0.env()
        agents = {a: RandomAgent(seed=7) for a in AGENTS}
        _, final = play_out(env, seed, agents)
        return json.dumps(env.unwrapped.game.to_dict(), sort_keys=True), final["away"][3]["score"]

    a1, s1 = transcript(11)
    a2, s2 = transcript(11)
    assert a1 == a2 and s1 == s2
    assert transcript(12)[0] != a1


# -- rewards -----------------------------------------------------------------------------------
def test_reward_attribution_follows_the_score():
    env = thats_baseball_v0.env()
    last_actors = {"away": 0, "home": 0}
    for seed in range(250):
        last_actor, final = play_out(env, seed)
        assert set(final) == set(AGENTS), f"seed {seed}: not every agent got a dead step"
        assert env.agents == []
        score = final["away"][3]["score"]
        assert final["home"][3]["score"] == score
        assert set(score) == {"away", "home"}
        assert score["away"] != score["home"], f"seed {seed}: default game ended tied {score}"
        winner = max(score, key=score.get)
        loser = "home" if winner == "away" else "away"
        assert final[winner][0] == 1, f"seed {seed}: winner {winner} got {final[winner][0]}"
        assert final[loser][0] == -1, f"seed {seed}: loser {loser} got {final[loser][0]}"
        for agent in AGENTS:
            reward, term, trunc, info = final[agent]
            assert term is True and trunc is False
            assert info["winner"] == winner
            assert info["box_score"]["runs"] == [score["away"], score["home"]]
        last_actors[last_actor] += 1
    # the game must have ended on each manager's move at least once
    assert last_actors["away"] > 0 and last_actors["home"] > 0, last_actors


def test_dead_step_order_and_cumulative_rewards_match_last():
    env = thats_baseball_v0.env()
    seen_first_dead = set()
    for seed in range(40):
        env.reset(seed=seed)
        rng = RandomAgent(seed=seed)
        last_actor = None
        dead_order = []
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            assert reward == env.unwrapped._cumulative_rewards[agent]
            if term or trunc:
                dead_order.append(agent)
                env.step(None)
                continue
            assert reward == 0, "no reward before the end of the game"
            last_actor = agent
            env.step(rng.act(obs))
        assert len(dead_order) == 2
        # the manager who did not make the last move is asked first
        assert dead_order[0] != last_actor
        seen_first_dead.add(dead_order[0])
    assert seen_first_dead == set(AGENTS)


# -- decisions and masks ---------------------------------------------------------------------
def test_decision_info_matches_mask_and_other_mask_is_zero():
    env = thats_baseball_v0.env()
    kinds_seen = set()

    def check(env, agent, obs, reward, info):
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
        assert set(decision["options"]) == legal
        assert all(isinstance(v, str) and v for v in decision["options"].values())
        assert len(set(decision["options"].values())) == len(legal), "labels must differ"
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
        assert "decision" not in env.infos[other]
        kinds_seen.add(pending.kind)

    for seed in range(30):
        play_out(env, seed, on_live_step=check)
    assert kinds_seen == set(rules.DECISION_KINDS)


def test_observation_pieces_describe_the_game():
    """Every piece of the observation says what the docstring's table says it does."""
    env = thats_baseball_v0.env(innings=3)
    pickoff_plays = {"picked_off", "pickoff_safe", "pickoff_error"}
    seen = {"pickoff_tried": 0, "tried_steal": 0, "subject": 0, "extra": 0}

    def check(env, agent, obs, reward, info):
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
@pytest.mark.parametrize("bad", ["unlisted", 5, 99, -1, None, "np_out_of_range"])
def test_illegal_action_in_env_loses_the_game(bad):
    env = thats_baseball_v0.env()
    decision = first_decision(env, seed=3)
    offender = env.agent_selection
    opponent = AGENTS[1 - AGENTS.index(offender)]
    action = {"unlisted": illegal_for(decision), "np_out_of_range": np.int64(N_ACTIONS)}.get(bad, bad)
    env.step(action)
    assert all(env.terminations.values()) and len(env.terminations) == 2
    assert not any(env.truncations.values())
    for agent in AGENTS:
        why = env.infos[agent]["illegal_action"]
        assert why["agent"] == offender
        assert repr(decision.kind) in why["reason"]
        assert "legal actions" in why["reason"]
        assert all(f"{a} (" in why["reason"] for a in decision.legal)
    finals = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert term
        finals[agent] = reward
        env.step(None)
    assert finals == {offender: -1, opponent: 0}
    assert list(finals)[0] == opponent, "the opponent is asked first after the offence"


@pytest.mark.parametrize("bad", ["unlisted", 5, -1, None])
def test_illegal_action_in_raw_env_raises_naming_decision_and_legal_actions(bad):
    env = thats_baseball_v0.raw_env()
    decision = first_decision(env, seed=3)
    before = json.dumps(env.game.to_dict(), sort_keys=True)
    action = illegal_for(decision) if bad == "unlisted" else bad
    with pytest.raises(IllegalActionError) as err:
        env.step(action)
    msg = str(err.value)
    assert decision.kind in msg
    labels = tb_env_module.option_labels(decision)
    for a in decision.legal:
        assert f"{a} ({labels[a]})" in msg
    # nothing changed: the game goes on with a legal action
    assert json.dumps(env.game.to_dict(), sort_keys=True) == before
    assert not any(env.terminations.values())
    env.step(decision.legal[0])


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
def test_unknown_option_names_it():
    with pytest.raises(OptionError, match="'foo'"):
        thats_baseball_v0.env(foo=1)
    with pytest.raises(OptionError, match="'foo'"):
        thats_baseball_v0.raw_env(foo=1)


@pytest.mark.parametrize("kwargs, words", [
    (dict(innings=0), "innings"),
    (dict(innings=-3), "innings"),
    (dict(innings="9"), "innings"),
    (dict(innings=True), "innings"),
    (dict(innings=9.0), "innings"),
    (dict(innings=9, max_innings=8), "max_innings"),
    (dict(innings=3, max_innings=2), "max_innings"),
    (dict(max_innings="12"), "max_innings"),
    (dict(teams="sample"), "teams"),
    (dict(teams=("sample",)), "teams"),
    (dict(teams=("sample", "reds", "sample")), "teams"),
    (dict(render_mode="rgb_array"), "render_mode"),
    (dict(render_mode="ANSI"), "render_mode"),
    (dict(illegal_action="ignore"), "illegal_action"),
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
        assert final["away"][3]["box_score"]["teams"][0] == name


def test_adjusted_averages_are_clamped_and_strings_accepted():
    lineup = valid_lineup()
    lineup[0]["average"] = ".199"
    lineup[1]["average"] = "0.400"
    lineup[2]["average"] = " .285 "
    lineup[3]["position"] = "3b"
    lineup[5]["position"] = "LF"
    t = load_team(lineup)
    assert [b.aa for b in t.batters][:4] == [24, 32, 29, 27]


# -- documentation ------------------------------------------------------------------------------
def test_docstring_observation_table_matches_pieces():
    doc = tb_env_module.__doc__
    assert OBS.table() in doc
    assert thats_baseball_v0.__doc__ == doc
    shape = re.search(r"Observation shape \| \((\d+),\)", doc)
    assert shape, "the docstring must state the observation shape"
    env = thats_baseball_v0.env()
    for agent in AGENTS:
        space = env.observation_space(agent)["observation"]
        assert int(shape.group(1)) == OBS.size == space.shape[0]
    # the table's last index is the vector's last index
    assert f"| {OBS.size - 1} |" in OBS.table() or f"-{OBS.size - 1} |" in OBS.table()
    env.reset(seed=0)
    assert env.observe("away")["observation"].shape == (OBS.size,)


def test_action_meanings_one_label_per_action():
    env = thats_baseball_v0.env()
    meanings = env.unwrapped.get_action_meanings()
    n = env.action_space("away").n
    assert len(meanings) == n == env.action_space("home").n
    assert len(set(meanings)) == n and all(isinstance(m, str) and m for m in meanings)
    doc = tb_env_module.__doc__
    assert f"Discrete({n})" in doc
    assert env.observation_space("away")["action_mask"].shape == (n,)
    for a in range(n):
        assert re.search(rf"^\| {a} \| ", doc, re.M), f"action {a} missing from the docstring table"


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


def test_render_without_mode_returns_none():
    env = thats_baseball_v0.env()
    env.reset(seed=0)
    assert env.render() is None


def test_human_render_prints(capsys):
    env = thats_baseball_v0.env(render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "Top of the 1st" in capsys.readouterr().out


# -- truncation --------------------------------------------------------------------------------
def test_max_innings_truncates_a_tied_game():
    env = thats_baseball_v0.env(innings=1, max_innings=1)
    found = decided = 0
    for seed in range(60):
        _, final = play_out(env, seed)
        score = final["away"][3]["score"]
        if score["away"] == score["home"]:
            found += 1
            for agent in AGENTS:
                reward, term, trunc, info = final[agent]
                assert trunc is True and term is False
                assert reward == 0
                assert info["score"] == score
                assert info["winner"] is None
                assert "box_score" in info
            assert env.unwrapped.game.board.inning == 1
        else:
            decided += 1
            winner = max(score, key=score.get)
            assert final[winner][0] == 1 and final[winner][1] is True
    assert found > 0 and decided > 0


def test_reset_accepts_numpy_seeds_and_rejects_bad_ones():
    a, b = thats_baseball_v0.raw_env(), thats_baseball_v0.raw_env()
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert a.game.to_dict() == b.game.to_dict()
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(OptionError, match="seed"):
            a.reset(seed=bad)
