"""MLB Showdown through the PettingZoo AEC API, basic and advanced games: what only
Showdown's tests need.

The API and seed tests, rewards and dead steps, decision infos against masks, views and
observations, illegal actions, the docstring's observation table and shapes, and the
rendering modes are the contract suite's (``test_contract.py``), for every ruleset and both
levels; the pitching lines of the final infos are checked in its random games
(``test_showdown_invariants.py``). Here: the cut-off game against the same game played out,
every decision, view field and observation piece over teams with every icon, subjects and
value ranges, the basic game's one decision, every decision kind's illegal action, options
and team data, the decision table of the docstring, and the text of the render.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from pathlib import Path

import numpy as np
import pytest

from dugout.envs import showdown_v0
from dugout.envs.core import DataError, IllegalActionError, OptionError
from dugout.envs.showdown import rules
from dugout.envs.showdown import env as sd_env_module
from dugout.envs.showdown.cards import (FIELD_POSITIONS, RESULTS, HitterCard, PitcherCard,
                                        load_team)
from dugout.envs.showdown.env import OBS, encode_view
from dugout.envs.showdown.view import ShowdownView

from helpers import AGENTS, option_labels, play_out

N_ACTIONS = rules.N_ACTIONS
LEVELS = rules.LEVELS
OBS_LEVELS = sd_env_module.OBS_LEVELS
BATTING_KINDS = {"pinch_hitter", "stolen_base", "reroll_out", "silver_slugger",
                 "home_run_icon", "send_runners", "pinch_runner", "sacrifice_bunt"}
#: the decisions of the strategy cards (the expert game with decks)
CARD_KINDS = {"play_card", "catcher_throw"}
#: the advanced game's decisions the expert game keeps (its icons are off)
EXPERT_KEEPS = {"pinch_hitter", "pitching_change", "double_play", "send_runners", "throw_at"}
#: pairs of 2004 teams whose cards carry every icon (K, V, SB, RP, 20, HR, S, G) between them
ICON_PAIRS = (("min2004", "sfn2004"), ("tba2004", "lan2004"), ("ana2004", "mil2004"),
              ("bos2004", "ari2004"))
BEFORE_THE_SWING = {"pinch_hitter", "pitching_change", "relief_ace", "twenty_game",
                    "stolen_base"}


def illegal_for(decision):
    return next(a for a in range(N_ACTIONS) if a not in decision.legal)


def chart_vector(card):
    return np.array(card.chart.counts, dtype=np.float32) / 20


# -- the end of the game ------------------------------------------------------------------------
def tied_seed(level, limit=300):
    """A seed whose one-inning game (random agents) is tied after the 1st."""
    env = showdown_v0.env(level=level, innings=1, max_innings=1)
    for seed in range(limit):
        _, final = play_out(env, seed)
        score = final["away"][3]["score"]
        if score["away"] == score["home"]:
            return seed
    raise AssertionError(f"no tied one-inning {level} game in {limit} seeds")


@pytest.mark.parametrize("level", LEVELS)
def test_max_innings_truncates_a_tied_game(level):
    seed = tied_seed(level)
    env = showdown_v0.env(level=level, innings=1, max_innings=1, render_mode="ansi")
    _, final = play_out(env, seed)
    score = final["away"][3]["score"]
    for agent in AGENTS:
        reward, term, trunc, info = final[agent]
        assert trunc is True and term is False and reward == 0
        assert info["winner"] == "" and info["score"] == score
    assert "pitching" in env.unwrapped.box_score()
    b = env.unwrapped.game.board
    assert b.truncated and b.inning == 1 and b.winner is None
    assert "cut off" in env.render()
    # the same game without the cut-off goes to extra innings and has a winner
    env = showdown_v0.env(level=level, innings=1)
    _, final = play_out(env, seed)
    assert env.unwrapped.game.board.inning > 1
    assert sorted(final[a][0] for a in AGENTS) == [-1, 1]


# -- decisions, masks, the view and the observation -------------------------------------------
def check_live_step(env, agent, obs, info, kinds):
    game = env.unwrapped.game
    b = game.board
    d = game.pending
    seat = AGENTS.index(agent)
    mask = obs["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (N_ACTIONS,)
    legal = tuple(np.flatnonzero(mask).tolist())
    assert legal == d.legal and d.actor == seat
    decision = info["decision"]
    assert decision["kind"] == d.kind in (rules.ALL_KINDS if game.level == "expert"
                                          else rules.DECISION_KINDS)
    assert list(option_labels(decision)) == list(legal)
    labels = option_labels(decision)
    assert all(isinstance(v, str) and v for v in labels.values())
    assert len(set(labels.values())) == len(labels), "labels must differ"
    # labels name the players an option brings in
    for a in legal:
        if rules.PLAYER <= a < rules.SEND_LEAD:
            assert game.card(seat, a - rules.PLAYER).name in labels[a]
    if d.kind != "starting_pitcher":
        assert (d.kind in BATTING_KINDS) == (b.half == seat)
    kinds.add(d.kind)
    other = AGENTS[1 - seat]
    assert not env.observe(other)["action_mask"].any()
    assert env.infos[other]["decision"]["kind"] == "" and not any(env.infos[other]["decision"]["labels"])
    bt, ft = b.half, 1 - b.half
    for s, name in enumerate(AGENTS):
        view = env.unwrapped.view(name)
        assert isinstance(view, ShowdownView)
        o = env.observe(name)["observation"]
        spec = sd_env_module.OBS_EXPERT if game.level == "expert" else OBS
        assert o.dtype == np.float32 and o.shape == (spec.size,)
        assert np.array_equal(o, encode_view(view))
        acting = s == seat
        # the view is the game
        assert view.seat == s and view.batting == (b.half == s) and view.level == game.level
        assert view.decision == (d.kind if acting else None)
        assert view.legal == (d.legal if acting else ())
        assert view.subject == (d.subject if acting else -1)
        assert (view.inning, view.half, view.outs) == (b.inning, b.half, b.outs)
        assert view.runs == tuple(b.runs) and view.bases == b.bases
        assert view.batter == game.batter_index and view.pitcher == game.pitcher[ft]
        assert view.lineups == tuple(tuple(x) for x in game.lineup)
        assert view.positions == tuple(tuple(x) for x in game.pos)
        assert view.starters == tuple(game.starter)
        # ... and the vector is the view, piece by piece
        v = spec.unpack(o)
        if game.level == "expert":
            check_expert_pieces(game, view, v, s, d if acting else None)
        assert v["seat"].tolist() == [float(s == 0), float(s == 1)]
        assert v["batting"][0] == float(b.half == s)
        assert v["decision"].tolist() == [float(acting and k == d.kind)
                                          for k in rules.DECISION_KINDS]
        assert v["level"].tolist() == [float(game.level == lv) for lv in OBS_LEVELS]
        assert v["dh"][0] == float(game.dh)
        assert v["inning"].tolist() == [float(i == min(b.inning, 10) - 1) for i in range(10)]
        assert v["half"].tolist() == [float(b.half == 0), float(b.half == 1)]
        assert v["outs"].tolist() == [float(b.outs == i) for i in range(3)]
        assert v["runners"].tolist() == [float(r is not None) for r in b.bases]
        speeds = [0 if r is None else game.card(bt, r).speed / 25 for r in b.bases]
        assert np.allclose(v["runner_speed"], speeds)
        own, opp = b.runs[s], b.runs[1 - s]
        assert np.allclose(v["score"], [own / 10, opp / 10])
        assert np.isclose(v["run_diff"][0], max(-1, min(1, (own - opp) / 10)))
        batter = game.card(bt, game.batter_index)
        if isinstance(batter, PitcherCard):
            assert v["batter"].tolist() == [0.0, pytest.approx(8 / 25), 1.0]
            assert not v["batter_chart"].any()
        else:
            assert np.allclose(v["batter"], [batter.on_base / 20, batter.speed / 25, 0])
            assert np.allclose(v["batter_chart"], chart_vector(batter))
        p = game.pitcher[ft]
        if p < 0:       # the managers are still choosing their starters
            assert not v["pitcher"].any() and not v["pitcher_chart"].any()
        else:
            pitcher = game.card(ft, p)
            assert np.isclose(v["pitcher"][0], pitcher.control / 10)
            assert np.isclose(v["pitcher"][2], rules.fatigue(game, ft, p) / 5)
            assert v["pitcher"][6] == float(p == game.starter[ft])
            assert np.allclose(v["pitcher_chart"], chart_vector(pitcher))
            assert np.isclose(v["advantage"][0], view.pitcher_advantage())
            assert np.isclose(v["pitcher_icons"][0], game.icons_left[ft][p].get("K", 0))
        assert v["can_remove"].tolist() == [float(rules.can_remove_starter(game, s)),
                                            float(rules.can_remove_starter(game, 1 - s))]
        for piece, team in (("own_roster", s), ("opp_roster", 1 - s)):
            roster = v[piece].reshape(25, 3)
            players = game.teams[team].players
            assert len(players) == 25
            assert roster[:, 0].tolist() == [float(k in game.lineup[team] or k == game.pitcher[team])
                                            for k in range(25)]
            assert roster[:, 1].tolist() == [float(k in view.bench[team] or k in view.bullpen[team])
                                            for k in range(25)]
            assert np.allclose(roster[:, 2], [card.on_base / 20 if isinstance(card, HitterCard)
                                              else card.control / 10 for card in players])
        assert v["result"].tolist() == [float(r == view.result) for r in RESULTS]


def check_expert_pieces(game, view, v, s, d):
    """The expert game's pieces (EXPERT_PIECES) and its icons switched off."""
    assert v["expert"][0] == 1 and not v["level"].any()
    assert not v["pitcher_icons"].any() and not v["batter_icons"].any()
    assert v["defense"][3] == 0                      # no Gold Gloves to use
    assert v["expert_decision"].tolist() == [float(d is not None and d.kind == k)
                                             for k in rules.EXPERT_KINDS]
    assert v["dh_in_use"].tolist() == [float(game.pitcher_slot[s] < 0),
                                       float(game.pitcher_slot[1 - s] < 0)]
    p = game.pitcher[1 - game.board.half]
    assert np.isclose(v["ip_lost"][0] * 9, game.runs_charged[1 - game.board.half][p] // 3)
    assert v["walk_or_bunt"].tolist() == [float(game.ab.ibb), float(game.ab.bunt)]
    subject = [0.0] * 3
    if d is not None and d.kind == "pinch_runner":
        subject[d.subject] = 1.0
    assert v["runner_subject"].tolist() == subject
    incoming = [0.0] * 25
    if d is not None and d.kind in ("replaced_player", "batting_slot"):
        incoming[d.subject] = 1.0
    assert v["incoming"].tolist() == incoming
    fielding = [0.0] * 25
    for slot, pos in enumerate(game.pos[s]):
        if pos in FIELD_POSITIONS:
            card = game.card(s, game.lineup[s][slot])
            value = card.fielding(pos)
            if value is None:           # first base out of position
                assert pos == "1B"
                value = -1 if card.positions else -2
            fielding[game.lineup[s][slot]] = value / 5
    assert np.allclose(v["own_fielding"], fielding)
    assert view.ip_lost == game.runs_charged[1 - game.board.half][p] // 3


@pytest.mark.parametrize("level, seeds", [("basic", range(8)), ("advanced", range(48)),
                                          ("expert", range(24))])
def test_decision_info_mask_view_and_observation_agree(level, seeds):
    """At every decision of many games (teams with every icon, AL and NL rules)."""
    envs = [showdown_v0.env(level=level, teams=pair, dh=dh)
            for pair in ICON_PAIRS for dh in (True, False)]
    kinds = set()
    for seed in seeds:
        env = envs[seed % len(envs)]
        play_out(env, seed, on_live_step=functools.partial(check_live_step, kinds=kinds))
    if level == "basic":
        assert kinds == {"starting_pitcher"}
    elif level == "expert":
        assert kinds == EXPERT_KEEPS | set(rules.EXPERT_KINDS) - CARD_KINDS, kinds
    else:
        assert kinds == set(rules.DECISION_KINDS) - {"starting_pitcher"}


def test_observation_is_blank_on_the_swing_before_it_is_rolled():
    """The ``result`` and ``chart_read`` pieces (and the view's pitch, chart, swing and
    result) belong to "this at-bat": before its swing they are empty, including at the
    forced pitching change that opens a half inning after the team hit for its pitcher."""
    env = showdown_v0.env(level="advanced", dh=False)
    stale = []
    checked = 0

    def check(env, agent, obs, info):
        nonlocal checked
        d = env.unwrapped.game.pending
        if d.kind not in BEFORE_THE_SWING:
            return
        checked += 1
        view = env.unwrapped.view(agent)
        v = OBS.unpack(obs["observation"])
        if (view.pitch, view.chart, view.swing, view.result) != (None, None, None, None) \
                or v["result"].any() or v["chart_read"].any():
            stale.append((d.kind, d.subject, view.result, view.chart))

    for seed in range(40):
        play_out(env, seed, on_live_step=check)
    assert checked > 500
    assert not stale, f"{len(stale)} decisions before the swing show an old swing, e.g. {stale[:3]}"


def test_decision_subjects_are_as_documented():
    """The docstring's decisions table: ``pitching_change`` has subject 0 at the start of an
    at-bat and 1 when forced; ``pinch_hitter`` the batting slot; ``stolen_base`` the base;
    ``gold_glove`` the position index."""
    env = showdown_v0.env(level="advanced", dh=False)
    seen = {}

    def check(env, agent, obs, info):
        game = env.unwrapped.game
        d = game.pending
        subject = d.subject
        if d.kind == "pitching_change":
            forced = rules.PASS not in d.legal
            assert subject == (1 if forced else 0), f"pitching_change subject {subject}"
        elif d.kind == "pinch_hitter":
            assert subject == game.order[game.board.half]
        elif d.kind == "stolen_base":
            assert subject in (0, 1) and game.board.bases[subject] is not None
        elif d.kind == "gold_glove":
            assert 0 <= subject < len(FIELD_POSITIONS)
        seen[d.kind] = seen.get(d.kind, 0) + 1

    for seed in range(10):
        play_out(env, seed, on_live_step=check)
    assert seen.get("pitching_change") and seen.get("pinch_hitter")


def test_observation_values_are_in_the_documented_range():
    """"mostly [0, 1]; scaled but not clipped: scores, Control (-0.5 to 2), On-Base, fatigue,
    innings and runs charged". The 2004 Rockies' closer has Control -2 (-0.2), the 2004
    Braves' J. D. Drew On-Base 21 (1.05): only the pieces that carry those may leave [0, 1]."""
    env = showdown_v0.env(teams=("col2004", "atl2004"))
    unclipped = {"score", "run_diff", "batter", "pitcher", "own_roster", "opp_roster"}
    out, seen = {}, {}

    def check(env, agent, obs, info):
        for name in AGENTS:
            v = OBS.unpack(env.observe(name)["observation"])
            for piece, values in v.items():
                if values.min() < 0 or values.max() > 1:
                    seen.setdefault(piece, (float(values.min()), float(values.max())))
                    if piece not in unclipped:
                        out.setdefault(piece, (float(values.min()), float(values.max())))
                if piece == "run_diff":
                    assert -1 <= values.min() and values.max() <= 1
                if piece != "score":
                    assert values.min() >= -0.5, (piece, values.min())

    play_out(env, 0, on_live_step=check)
    assert not out, f"pieces outside [0, 1] that the table says are not: {out}"
    assert seen, "the Rockies' Control -2 card never showed: the test lost its point"


def test_view_documents_every_field_by_name():
    """(The contract checks that the view is a frozen dataclass whose docstring names each
    field; Showdown's documents each as ``name``.)"""
    doc = ShowdownView.__doc__
    missing = [f.name for f in dataclasses.fields(ShowdownView) if f"``{f.name}``" not in doc]
    assert not missing, f"view fields not documented: {missing}"


# -- the basic game's one decision -----------------------------------------------------------
def test_basic_game_asks_each_manager_for_his_starter_away_first():
    env = showdown_v0.env(level="basic")
    env.reset(seed=7)
    game = env.unwrapped.game
    chosen = []
    for agent in AGENTS:
        assert env.agent_selection == agent
        decision = env.infos[agent]["decision"]
        assert decision["kind"] == "starting_pitcher"
        seat = AGENTS.index(agent)
        team = env.unwrapped.teams[seat]
        starters = [k for k, c in enumerate(team.players)
                    if isinstance(c, PitcherCard) and c.role == "starter"]
        assert list(option_labels(decision)) == [rules.PLAYER + k for k in starters]
        for a, label in option_labels(decision).items():
            card = team.players[a - rules.PLAYER]
            assert card.name in label and "start" in label
        assert env.unwrapped.view(agent).pitcher == -1     # nobody on the mound yet
        action = rules.PLAYER + starters[seat + 1]
        chosen.append(starters[seat + 1])
        env.step(action)
    assert game.over and all(env.terminations.values())
    assert game.starter == chosen
    for t in (0, 1):
        assert game.box.pitching[t][0].name == env.unwrapped.teams[t].players[chosen[t]].name
        assert len(game.box.pitching[t]) == 1        # the basic game never changes pitchers


def test_basic_game_with_a_starter_has_no_decision():
    env = showdown_v0.env(level="basic", starter=2)
    env.reset(seed=0)
    game = env.unwrapped.game
    assert game.over and game.pending is None
    assert all(env.terminations.values()) or all(env.truncations.values())
    for t, team in enumerate(env.unwrapped.teams):
        assert team.players[game.starter[t]].key == team.rotation[1]
    dead = []
    for agent in env.agent_iter():
        _, reward, term, trunc, info = env.last()
        assert term or trunc
        dead.append((agent, reward))
        env.step(None)
    assert sorted(a for a, _ in dead) == sorted(AGENTS) and sum(r for _, r in dead) == 0


def test_advanced_starter_option_fixes_the_rotation_spot():
    for spot in (1, 4):
        env = showdown_v0.raw_env(starter=spot)
        env.reset(seed=1)
        for t, team in enumerate(env.teams):
            assert team.players[env.game.starter[t]].key == team.rotation[spot - 1]


# -- illegal actions ----------------------------------------------------------------------------
def test_illegal_action_raw_env_for_every_decision_kind():
    envs = [showdown_v0.raw_env(teams=pair) for pair in ICON_PAIRS]
    rng = np.random.default_rng(0)
    seen = set()
    for seed in range(40):
        env = envs[seed % len(envs)]
        env.reset(seed=seed)
        while not env.game.over:
            d = env.game.pending
            if d.kind not in seen:
                with pytest.raises(IllegalActionError, match=re.escape(repr(d.kind))):
                    env.step(illegal_for(d))
                seen.add(d.kind)
            env.step(int(rng.choice(d.legal)))
    assert seen == set(rules.DECISION_KINDS) - {"starting_pitcher"}


# -- options and team data ---------------------------------------------------------------------
def test_unknown_option_lists_the_known_ones():
    with pytest.raises(OptionError, match="'deck'") as err:
        showdown_v0.raw_env(deck=55)
    assert "point_cap" in str(err.value)       # and lists the known ones


def test_decks_and_levels_options():
    """The expert game plays without strategy cards (``decks=None``) or with a deck for each
    manager, which grows both spaces by the card set; decks belong to the expert game
    only, and a card set needs decks."""
    from dugout.envs.showdown.strategy import load_card_set
    env = showdown_v0.env(level="expert", decks=None)
    assert env.observation_space("away")["observation"].shape == (sd_env_module.OBS_EXPERT.size,)
    k = len(load_card_set().cards)
    env = showdown_v0.env(level="expert", decks="default")
    assert env.action_space("away").n == N_ACTIONS + k
    assert env.observation_space("home")["observation"].shape == (
        sd_env_module.OBS_EXPERT.size + 7 * k + 9,)
    # (the decks' and card set's option errors: test_showdown_strategy.py)
    with pytest.raises(OptionError) as err:
        showdown_v0.env(level="pro")
    msg = str(err.value)
    assert "'pro'" in msg and "basic" in msg and "advanced" in msg and "expert" in msg


@pytest.mark.parametrize("kwargs, words", [
    (dict(dh="yes"), "dh"),
    (dict(dh=1), "dh"),
    (dict(starter=0), "starter"),
    (dict(starter=5), "starter"),
    (dict(starter=True), "starter"),
    (dict(starter="1"), "starter"),
    (dict(starter=2.0), "starter"),
    (dict(point_cap="5000"), "point_cap"),
    (dict(point_cap=True), "point_cap"),
    (dict(point_cap=5000.0), "point_cap"),
    (dict(teams="nya2004"), "teams"),
    (dict(teams=("nya2004",)), "teams"),
    (dict(teams=("nya2004", "bos2004", "nyn2004")), "teams"),
])
def test_bad_option_values_fail_loudly(kwargs, words):
    with pytest.raises(OptionError, match=words) as err:
        showdown_v0.env(**kwargs)
    assert "showdown_v0" in str(err.value)


def bos2004_dict():
    """The built-in 2004 Red Sox file, as a dict to break."""
    return json.loads((Path(sd_env_module.__file__).parent / "data" / "bos2004.json")
                      .read_text(encoding="utf-8"))


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d["players"].pop(), ["exactly 25 players"]),
    (lambda d: d.pop("rotation"), ["missing field 'rotation'"]),
    (lambda d: d.update(manager="Terry"), ["unknown field", "manager"]),
    (lambda d: d["players"][0].update(on_base="twelve"), ["players[0]", "on_base"]),
    (lambda d: d["lineups"]["dh"].pop(), ["batting order", "9"]),
    (lambda d: d.update(rotation=d["rotation"][:3]), ["rotation", "4 starters"]),
])
def test_malformed_team_raises_data_error_naming_the_problem(mutate, words):
    team = bos2004_dict()
    mutate(team)
    with pytest.raises(DataError) as err:
        showdown_v0.env(teams=("nya2004", team))
    for w in words:
        assert w in str(err.value), f"{w!r} not in {str(err.value)!r}"


def test_unknown_team_name_missing_file_and_wrong_type(tmp_path):
    with pytest.raises(DataError, match="unknown team 'nya2005'") as err:
        showdown_v0.env(teams=("nya2005", "bos2004"))
    assert "bos2004" in str(err.value) and "nya2004" in str(err.value)
    missing = tmp_path / "nope.json"
    with pytest.raises(DataError, match="does not exist"):
        showdown_v0.env(teams=(str(missing), "bos2004"))
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "Broken", "players": [', encoding="utf-8")
    with pytest.raises(DataError, match="not valid JSON") as err:
        showdown_v0.env(teams=(str(broken), "bos2004"))
    assert str(broken) in str(err.value)
    with pytest.raises(DataError, match="a team must be"):
        showdown_v0.env(teams=(42, "bos2004"))


def test_teams_from_a_file_a_dict_and_a_team_object(tmp_path):
    path = tmp_path / "boston.json"
    path.write_text(json.dumps(bos2004_dict()), encoding="utf-8")
    for spec in (str(path), bos2004_dict(), load_team("bos2004")):
        env = showdown_v0.env(teams=(spec, "nya2004"))
        assert env.unwrapped.teams[0] == load_team("bos2004")
        _, final = play_out(env, seed=1)
        assert env.unwrapped.box_score()["teams"][0] == "2004 Boston Red Sox"


def test_point_cap_none_lets_an_over_cap_team_play():
    with pytest.raises(DataError, match="5,000") as err:
        showdown_v0.env(teams=("nya1927", "bos2004"))
    assert "point_cap=None" in str(err.value)
    env = showdown_v0.env(teams=("nya1927", "bos2004"), point_cap=None)
    assert env.unwrapped.teams[0].total_points > 5000
    _, final = play_out(env, seed=0)
    assert sorted(final[a][0] for a in AGENTS) == [-1, 1]


def test_dh_follows_the_home_team_unless_forced():
    nl, al = "nyn2004", "nya2004"
    assert load_team(nl).dh is False and load_team(al).dh is True
    for teams, dh, expect in (((al, nl), None, False), ((nl, al), None, True),
                              ((al, nl), True, True), ((nl, al), False, False)):
        env = showdown_v0.raw_env(teams=teams, dh=dh)
        env.reset(seed=0)
        assert env.game.dh is expect
        assert env.view("away").dh is expect
        assert ("DH" in env.game.pos[0]) is expect


# -- documentation ------------------------------------------------------------------------------
def test_action_values_table_lists_every_decision_kind():
    """(The contract checks that the table covers every action.)"""
    doc = sd_env_module.__doc__
    table = doc[doc.index("## Action Values"):doc.index("## Observation Space")]
    kinds = set(re.findall(r"^\| `(\w+)` \| (?:batting|fielding|each)", table, re.M))
    assert kinds == set(rules.ALL_KINDS), set(rules.ALL_KINDS) ^ kinds


# -- rendering ------------------------------------------------------------------------------------
def test_ansi_render_line_score_situation_and_final():
    env = showdown_v0.env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    assert "R  H  E" in text and "Top of the 1st" in text
    game = env.unwrapped.game
    assert game.pending.kind in text
    assert game.card(0, game.batter_index).name in text
    assert game.card(1, game.pitcher[1]).name in text
    play_out(env, seed=2)
    text = env.render()
    away, home = env.unwrapped.game.score
    assert "Final" in text and f"{max(away, home)}-{min(away, home)}" in text


@pytest.mark.parametrize("level", LEVELS)
def test_scorecard_has_both_pitching_tables_and_play_by_play(level):
    env = showdown_v0.env(level=level, render_mode="ansi")
    play_out(env, seed=4)
    game = env.unwrapped.game
    card = env.unwrapped.scorecard()
    assert card.startswith(game.box.render_line_score(game.board))
    header = re.compile(r"PITCHING\s+IP\s+BF\s+H\s+R\s+BB\s+SO\s+HR")
    assert len(header.findall(card)) == 2
    for t, team in enumerate(game.teams):
        assert f"{team.name.upper()} PITCHING" in card
        for p in game.box.pitching[t]:
            assert p.name in card
        assert f"{team.name} 1st." in card            # the play-by-play, by half inning
    assert "pitch" in card and "swing" in card and "chart" in card
    assert len(env.unwrapped.play_by_play().splitlines()) > 50


# -- the expert game's spaces and trained checkpoints ---------------------------------------------
def test_basic_and_advanced_spaces_are_unchanged_and_expert_checkpoints_do_not_cross():
    """The expert game appends its pieces after the advanced game's 256, so checkpoints
    trained on the basic or advanced game keep their spaces; one of them is refused in the
    expert game (and an expert one in the advanced game) with an error naming both sizes,
    never run on a vector it was not trained on."""
    from dugout.agents.policy import CheckpointError, PolicyAgent, build_actor
    sizes = {level: showdown_v0.env(level=level).observation_space("away")["observation"].shape[0]
             for level in LEVELS}
    assert sizes == {"basic": 256, "advanced": 256, "expert": 256 + 67}
    assert sd_env_module.OBS_EXPERT.pieces[:len(OBS.pieces)] == OBS.pieces
    for trained, played in (("advanced", "expert"), ("expert", "advanced")):
        actor = build_actor(sizes[trained], [8], "Tanh", N_ACTIONS)
        agent = PolicyAgent(actor, {"env_id": "showdown_v0", "obs_size": sizes[trained],
                                    "n_actions": N_ACTIONS})
        env = showdown_v0.env(level=played)
        env.reset(seed=0)
        obs = env.observe(env.agent_selection)
        with pytest.raises(CheckpointError, match=f"size {sizes[trained]}.*size {sizes[played]}"):
            agent.act(obs)


def test_the_render_names_no_pitcher_before_the_starters_are_chosen():
    """While the basic game's managers choose their starters no one is pitching: the render
    says so instead of reading the roster's last card as the pitcher (a team listing a
    hitter last crashed it)."""
    import dugout.envs as envs
    env = envs.make("showdown_v0", raw=True, level="basic", render_mode="ansi")
    env.reset(seed=1)
    assert env.game.pending.kind == "starting_pitcher" and env.game.pitcher == [-1, -1]
    text = env.render()
    last = env.game.teams[1].players[-1].name
    assert "have not named their starting pitcher yet" in text and f"faces {last}" not in text


# -- a half inning set up for outside code (the value tables' samples) -------------------------
def _set_up_game(seed: int = 0):
    from dugout.envs.core import Dice
    from dugout.envs.showdown.cards import load_team
    teams = (load_team("nya2004"), load_team("bos2004"))
    return rules.new_game(teams, Dice(seed), starter=2, dh=True, play=False)


def test_start_half_inning_sets_the_situation_and_play_out_plays_that_half():
    from dugout.envs.core.engine import play_out as engine_play_out
    state = _set_up_game()
    lineup = list(state.lineup[1])
    runners = (lineup[3], None, lineup[1])
    assert rules.start_half_inning(state, inning=5, half=1, outs=2, runners=runners,
                                   leadoff=4) is state
    b = state.board
    assert (b.inning, b.half, b.outs, b.bases, b.runs) == (5, 1, 2, runners, [0, 0])
    assert state.order[1] == 4 and state.pending is None
    engine_play_out(state, rules, lambda s, d: rules.PASS if rules.PASS in d.legal else d.legal[0],
                    stop=lambda s: s.board.half != 1, check=True)
    assert not b.over and (b.inning, b.half) == (6, 0)      # the half ended; the game goes on
    plays = [p for p in state.log.plays if p.kind == "pa"]
    assert plays and plays[0].actor == lineup[4] and plays[0].before == runners


@pytest.mark.parametrize("change, message", [
    ({"outs": 3}, "outs must be"), ({"half": 2}, "half must be"), ({"inning": 0}, "inning must"),
    ({"leadoff": 9}, "leadoff must"), ({"runners": (99, None, None)}, "runners are three"),
    ({"runners": "leadoff"}, "runners are three"), ({"runners": (None, None)}, "runners are three")])
def test_start_half_inning_rejects_a_situation_the_game_cannot_be_in(change, message):
    state = _set_up_game()
    lineup = state.lineup[0]
    if change.get("runners") == "leadoff":
        change = {"runners": (lineup[0], None, None)}
    args = {"inning": 3, "half": 0, "outs": 0, "runners": (None, None, None), "leadoff": 0,
            **change}
    with pytest.raises(ValueError, match=message):
        rules.start_half_inning(state, **args)


def test_start_half_inning_needs_a_game_set_up_and_not_yet_played():
    from dugout.envs.core import Dice
    from dugout.envs.showdown.cards import load_team
    played = rules.new_game((load_team("nya2004"), load_team("bos2004")), Dice(0), starter=1)
    with pytest.raises(ValueError, match="set up and not yet played"):
        rules.start_half_inning(played, inning=1, half=0)
