"""Pokemon Baseball through the PettingZoo AEC API: what only Pokemon Baseball's tests need.

The contract suite (``test_contract.py``) runs its generic checks on the default options;
here: PettingZoo's ``api_test`` and ``seed_test`` with the DH and in a series too; every
option, good and bad, and team data; the docstring's tables; the opponent's lineup hidden
before the first pitch; saving and restoring a game and a series through JSON; engine
clones; the text and pictures; rewards in a series; illegal actions.
"""

from __future__ import annotations

import functools
import json
import random
import re
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import dugout.envs as envs
from dugout.envs import pokemon_baseball_v0
from dugout.envs.core import DataError, Dice, IllegalActionError, OptionError
from dugout.envs.core.dice import ScriptedDice
from dugout.envs.core.series import SERIES_PIECES, SeriesGame
from dugout.envs.pokemon_baseball import env as pk_env_module
from dugout.envs.pokemon_baseball import rules
from dugout.envs.pokemon_baseball.cards import BUILTIN_TEAMS, DATA_DIR, POSITIONS, load_team
from dugout.envs.pokemon_baseball.env import OBS, encode_view
from dugout.envs.pokemon_baseball.rules import GameState
from dugout.envs.pokemon_baseball.view import PokemonBaseballView

from helpers import AGENTS, dumps, play_out, roundtrip

N_ACTIONS = rules.N_ACTIONS
TEAMS = {name: load_team(name) for name in BUILTIN_TEAMS}


def illegal_for(decision):
    return next(a for a in range(N_ACTIONS) if a not in decision.legal)


def team_names(state):
    return [t.name for t in state.teams]


# -- PettingZoo's own tests ----------------------------------------------------------------------
OPTION_CASES = [pytest.param({}, id="defaults"), pytest.param({"dh": True}, id="dh"),
                pytest.param({"series": 3}, id="series3")]


@pytest.mark.parametrize("options", OPTION_CASES)
def test_pettingzoo_api_test(options):
    with warnings.catch_warnings():
        # api_test hands reset() a dummy options dict; the env warns that it ignores it.
        warnings.filterwarnings("ignore", message=r".*reset\(\) ignores options.*")
        api_test(pokemon_baseball_v0.env(**options), num_cycles=400)


@pytest.mark.parametrize("options", OPTION_CASES)
def test_pettingzoo_seed_test(options):
    seed_test(functools.partial(pokemon_baseball_v0.env, **options), num_cycles=400)


def test_aec_only_no_parallel_api():
    """The docstring says "Parallel API | No": the module offers no parallel_env."""
    assert not hasattr(pokemon_baseball_v0, "parallel_env")
    assert re.search(r"^\| Parallel API \| No \|$", pokemon_baseball_v0.__doc__, re.M)
    assert set(pokemon_baseball_v0.__all__) >= {"env", "raw_env"}
    assert type(envs.make("pokemon_baseball_v0", raw=True)) is pokemon_baseball_v0.PokemonBaseballEnv


# -- options ---------------------------------------------------------------------------------------
def test_every_option_is_accepted(tmp_path):
    creatures = DATA_DIR / "creatures.json"
    team_file = tmp_path / "grove.json"
    team_file.write_text(json.dumps(TEAMS["grove"].to_dict()), encoding="utf-8")
    script = ScriptedDice([("pitcher", 1), ("batter", 12)], then=Dice(0))
    env = pokemon_baseball_v0.env(
        teams=(str(team_file), TEAMS["ember"].to_dict()), creatures=str(creatures), innings=3,
        max_innings=4, dh=np.bool_(True), edge="gt", series={"games": 2}, render_mode="ansi",
        illegal_action="lose", dice=script)
    game = env.unwrapped
    assert (game.innings, game.max_innings, game.dh, game.edge) == (3, 4, True, "gt")
    assert game.series_format == (2, False) and game.illegal_action == "lose"
    assert [t.name for t in game.teams] == [TEAMS["grove"].name, TEAMS["ember"].name]
    _, final = play_out(env, 0)
    assert set(final) == set(AGENTS) and len(game.series.results) == 2
    assert isinstance(env.render(), str)
    for options in ({"creatures": json.loads(creatures.read_text(encoding="utf-8"))},
                    {"teams": ["summit", "harbor"]}, {"series": {"best_of": 5}},
                    {"series": 1}, {"series": 99}, {"series": {"games": 99}},
                    {"edge": "ge", "dh": False}, {"max_innings": None},
                    {"render_mode": "rgb_array"}, {"render_mode": None},
                    {"illegal_action": "raise", "innings": np.int64(9)}):
        env = pokemon_baseball_v0.env(**options)
        env.reset(seed=1)
        assert env.unwrapped.game.pending.kind == "lineup"


@pytest.mark.parametrize("raw", [False, True])
def test_unknown_option_is_named(raw):
    make = pokemon_baseball_v0.raw_env if raw else pokemon_baseball_v0.env
    with pytest.raises(OptionError, match="'designated_hitter'"):
        make(designated_hitter=True)
    with pytest.raises(OptionError, match="'rosters'"):
        make(teams=("harbor", "summit"), rosters=17)


@pytest.mark.parametrize("kwargs, words", [
    (dict(teams="harbor"), "teams"),
    (dict(teams=("harbor",)), "teams"),
    (dict(teams=("harbor", "summit", "grove")), "teams"),
    (dict(teams=None), "teams"),
    (dict(teams={"away": "harbor", "home": "summit"}), "teams"),
    (dict(dh="yes"), "dh"),
    (dict(dh=1), "dh"),
    (dict(dh=None), "dh"),
    (dict(edge="GE"), "edge"),
    (dict(edge=">="), "edge"),
    (dict(edge=None), "edge"),
    (dict(innings=0), "innings"),
    (dict(innings=10), "innings"),
    (dict(innings="9"), "innings"),
    (dict(innings=True), "innings"),
    (dict(innings=5, max_innings=4), "max_innings"),
    (dict(max_innings=8), "max_innings"),
    (dict(max_innings=100), "max_innings"),
    (dict(max_innings=12.0), "max_innings"),
    (dict(series=2), "series"),
    (dict(series=0), "series"),
    (dict(series="3"), "series"),
    (dict(series={"games": 0}), "series"),
    (dict(series={"matches": 3}), "series"),
    (dict(series=101), r"series may be at most 99 games"),
    (dict(series=10**100 + 1), r"series may be at most 99 games"),
    (dict(series={"games": 100}), r"series may be at most 99 games.*got \{'games': 100\}"),
    (dict(series={"best_of": 10**5000 + 1}), r"series may be at most 99 games"),
    (dict(render_mode="text"), "render_mode"),
    (dict(illegal_action="ignore"), "illegal_action"),
    (dict(dice=Dice(3)), "ScriptedDice"),
])
def test_bad_option_values_raise_option_error_naming_the_option(kwargs, words):
    for make in (pokemon_baseball_v0.env, pokemon_baseball_v0.raw_env):
        with pytest.raises(OptionError, match=words):
            make(**kwargs)


def test_bad_team_files_raise_data_error(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(DataError) as err:
        pokemon_baseball_v0.env(teams=(str(missing), "summit"))
    assert str(missing) in str(err.value)
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "Broken", "roster": [', encoding="utf-8")
    with pytest.raises(DataError) as err:
        pokemon_baseball_v0.env(teams=("harbor", str(broken)))
    assert str(broken) in str(err.value)
    with pytest.raises(DataError, match="harbor"):
        pokemon_baseball_v0.env(teams=("harbour", "summit"))
    short = TEAMS["harbor"].to_dict()
    short["roster"] = short["roster"][:8]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(short), encoding="utf-8")
    with pytest.raises(DataError) as err:
        pokemon_baseball_v0.env(teams=(str(path), "summit"))
    assert str(path) in str(err.value) and "roster" in str(err.value)
    unknown = TEAMS["harbor"].to_dict()
    del unknown["creatures"]
    unknown["roster"][3] = "nosuchmon"
    with pytest.raises(DataError, match="nosuchmon"):
        pokemon_baseball_v0.env(teams=(unknown, "summit"))
    with pytest.raises(DataError):
        pokemon_baseball_v0.env(teams=(42, "summit"))


def user_team() -> dict:
    """A ten-creature team of its own creatures, none of them in the built-in set."""
    stats = [(130, 60, 110, 0), (10, 1, 10, 4), (70, 25, 50, 2), (100, 45, 90, 1),
             (40, 80, 120, 3), (90, 15, 30, 0), (60, 33, 70, 2), (120, 51, 100, 4),
             (20, 8, 20, 1), (110, 40, 60, 3)]
    creatures = [{"id": f"tester{i}", "name": f"Tester {i}", "hp": hp, "level": lv,
                  "attack": at, "retreat": rt} for i, (hp, lv, at, rt) in enumerate(stats)]
    ids = [c["id"] for c in creatures]
    return {"name": "Test Nine", "roster": ids,
            "lineup": [{"creature": cid, "position": p} for cid, p in zip(ids, POSITIONS)],
            "rotation": ids[:2], "creatures": creatures}


def test_a_user_team_dict_plays():
    team = user_team()
    for dh in (False, True):
        env = pokemon_baseball_v0.env(teams=(team, "summit"), dh=dh, render_mode="ansi")
        _, final = play_out(env, 3)
        state = env.unwrapped.game
        assert state.teams[0].name == "Test Nine" and len(state.teams[0].roster) == 10
        assert state.started and state.over
        assert sorted(final[a][0] for a in AGENTS) == [-1, 1]
        box = env.unwrapped.box_score()
        assert box["teams"][0] == "Test Nine" and box["runs"] == list(state.score)
        assert {line["name"] for line in box["batting"][0]} <= {f"Tester {i}" for i in range(10)}


def test_text_of_a_game_between_rosters_of_different_sizes():
    """The render and the scorecard of a game between a ten-creature team and a
    seventeen-creature one, with substitutions on both sides, name every play."""
    for seed in range(4):
        env = pokemon_baseball_v0.env(teams=(user_team(), "summit"), render_mode="ansi")
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.unwrapped.game.pending is not None:
            env.step(rng.choice(env.unwrapped.game.pending.legal))
            assert isinstance(env.render(), str)
        card = env.unwrapped.scorecard()
        assert "Test Nine" in card and "Summit" in card and "PITCHING" in card


def test_a_short_roster_forfeits_in_a_series():
    """A ten-creature team whose starter (and a reliever or two) must rest cannot field
    nine rested creatures: it forfeits the next game 9-0 before a pitch."""
    env = pokemon_baseball_v0.raw_env(teams=("summit", user_team()), series={"games": 3},
                                      render_mode="ansi")
    env.reset(seed=4)
    rng = random.Random(4)
    forfeits = 0
    texts = []
    while env.game.pending is not None:
        d = env.game.pending
        env.step(rules.PASS if d.kind in ("offense_sub", "defense_sub") else rng.choice(d.legal))
        if env.game.forfeited >= 0:
            texts.append(env.render())
    results = env.series.results
    forfeits = [r for r in results if r == {"away": 9, "home": 0, "winner": "away"}]
    assert len(results) == 3 and forfeits, results
    if texts:
        assert "forfeit" in texts[-1] and "Test Nine" in texts[-1]


# -- the docstring ------------------------------------------------------------------------------------
def observation_table(doc: str) -> str:
    """The Markdown table of the "Observation Space" section."""
    section = doc[doc.index("## Observation Space"):doc.index("## Agent view")]
    rows = [line for line in section.splitlines() if line.startswith("| ")
            or line.startswith("|---")]
    return "\n".join(rows)


def test_docstring_observation_table_is_obs_table_and_actions_are_named():
    doc = pokemon_baseball_v0.__doc__
    assert doc == pk_env_module.__doc__
    assert observation_table(doc) == OBS.table()
    assert f"| Observation shape | ({OBS.size},) float32 (+3 in a series)" in doc
    assert f"Discrete({N_ACTIONS})" in doc and f"action mask of shape ({N_ACTIONS},)" in doc
    assert "{" not in observation_table(doc)
    # the Action Values table names every action, once
    section = doc[doc.index("## Action Values"):doc.index("| Kind | Who |")]
    covered = []
    for m in re.finditer(r"^\| (\d+)(?:-(\d+))? \| ", section, re.M):
        covered += range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1)
    assert sorted(covered) == list(range(N_ACTIONS))
    # the decisions table names every decision kind
    decisions = doc[doc.index("| Kind | Who |"):doc.index("## Observation Space")]
    assert {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", decisions, re.M)} == \
        set(rules.DECISION_KINDS)
    for team in BUILTIN_TEAMS:
        assert f'`"{team}"`' in doc


def test_series_observation_has_three_more_elements():
    single, series = pokemon_baseball_v0.env(), pokemon_baseball_v0.env(series=3)
    single.reset(seed=2)
    series.reset(seed=2)
    assert len(SERIES_PIECES) == 2 and sum(size for _, size, _ in SERIES_PIECES) == 3
    for agent in AGENTS:
        a, b = single.observe(agent)["observation"], series.observe(agent)["observation"]
        assert a.shape == (OBS.size,) and b.shape == (OBS.size + 3,)
        assert series.observation_space(agent)["observation"].shape == (OBS.size + 3,)
        assert np.array_equal(a, b[:OBS.size])        # game 1 plays the single game's seed
        assert b[OBS.size:].tolist() == [pytest.approx(1 / 3), 0.0, 0.0]
    assert series.unwrapped.obs_spec.size == OBS.size + 3


# -- the lineup card is secret until the first pitch -----------------------------------------------
def twin_games(seed: int, away_choices, home_rng_seed: int = 99):
    """A raw env reset with ``seed`` where the away manager makes his pregame choices with
    ``away_choices(legal) -> action``; yields ``(env, state)`` at each of home's pregame
    decisions, home choosing with its own seeded generator."""
    env = pokemon_baseball_v0.raw_env()
    env.reset(seed=seed)
    rng = random.Random(home_rng_seed)
    while not env.game.started:
        d = env.game.pending
        if d.actor == 0:
            env.step(away_choices(d.legal))
        else:
            yield env
            env.step(rng.choice(d.legal))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_home_cannot_see_the_away_lineup_before_the_first_pitch(seed):
    """Two games, same seed, the away manager setting different lineups (first legal pick
    against last, so the pitchers and the orders differ): at each of the home manager's
    pregame decisions his observation, view and infos are identical in both."""
    first = twin_games(seed, lambda legal: legal[0])
    last = twin_games(seed, lambda legal: legal[-1])
    compared = 0
    for a, b in zip(first, last):
        assert a.game.fielders[0] != b.game.fielders[0] and a.game.lineup[0] != b.game.lineup[0]
        assert a.game.pending == b.game.pending and a.game.pending.actor == 1
        assert np.array_equal(a.observe("home")["observation"], b.observe("home")["observation"])
        assert np.array_equal(a.observe("home")["action_mask"], b.observe("home")["action_mask"])
        va, vb = a.view("home"), b.view("home")
        assert isinstance(va, PokemonBaseballView) and va == vb
        assert np.array_equal(encode_view(va), a.observe("home")["observation"])
        assert va.field[0] == (-1,) * 10 and va.lineup[0] == (-1,) * 9 and not va.started
        assert a.infos["home"] == b.infos["home"]
        # the away manager's view of the same moment is not secret from himself
        assert a.view("away").field[0] == tuple(a.game.fielders[0])
        compared += 1
    assert compared == 9 + 8         # nine positions, then batting slots 0-7


def test_the_first_lineup_pick_is_the_starting_pitcher_and_views_hide_nothing_after():
    env = pokemon_baseball_v0.raw_env(dh=True)
    env.reset(seed=5)
    d = env.game.pending
    assert (d.kind, d.actor, d.subject) == ("lineup", 0, 1)
    rng = random.Random(5)
    while not env.game.started:
        env.step(rng.choice(env.game.pending.legal))
    state = env.game
    for agent in AGENTS:
        view = env.view(agent)
        assert view.started and view.field == tuple(tuple(f) for f in state.fielders)
        assert view.lineup == tuple(tuple(x) for x in state.lineup)
        for t in (0, 1):
            assert view.pitcher(t) == state.starter[t] and view.pitcher(t) not in view.lineup[t]


# -- saving and restoring ------------------------------------------------------------------------------
def snapshot(env) -> tuple:
    """Everything both managers see now, comparable."""
    game = env.unwrapped
    out = [game.agent_selection, json.dumps(game.infos, sort_keys=True, default=list),
           json.dumps(game.rewards, sort_keys=True), dumps(game.game)]
    for agent in AGENTS:
        o = game.observe(agent)
        out += [o["observation"].tobytes(), o["action_mask"].tobytes(), game.view(agent)]
    return tuple(out)


def continue_both(a, b, rng) -> int:
    """Step raw envs ``a`` and ``b`` with the same random actions to the end, comparing
    everything at every step; returns the number of steps."""
    steps = 0
    assert snapshot(a) == snapshot(b)
    while a.game.pending is not None:
        action = rng.choice(a.game.pending.legal)
        a.step(action)
        b.step(action)
        assert snapshot(a) == snapshot(b)
        steps += 1
    assert b.game.pending is None
    assert a.box_score() == b.box_score()
    assert a.rewards == b.rewards and a.terminations == b.terminations
    assert a.truncations == b.truncations
    return steps


@pytest.mark.parametrize("dh", [False, True])
def test_save_and_restore_mid_game_through_json(dh):
    rng = random.Random(11)
    for seed in range(6):
        a = pokemon_baseball_v0.raw_env(dh=dh)
        a.reset(seed=seed)
        for _ in range(rng.randrange(5, 200)):
            if a.game.pending is None:
                break
            a.step(rng.choice(a.game.pending.legal))
        if a.game.pending is None:
            continue
        saved = a.save()
        data = json.loads(json.dumps(saved.to_dict()))
        b = pokemon_baseball_v0.raw_env(dh=dh)
        b.reset(seed=seed + 1000)             # another game first: restore replaces it
        b.restore(GameState.from_dict(data))
        assert dumps(b.game) == dumps(a.game)
        continue_both(a, b, random.Random(seed))


@pytest.mark.parametrize("series", [3, {"games": 4}])
def test_save_and_restore_mid_series_through_json(series):
    rng = random.Random(5)
    restored_in_later_game = 0
    for seed in range(5):
        a = pokemon_baseball_v0.raw_env(series=series)
        a.reset(seed=seed)
        target = rng.randrange(1, 3)
        while a.game.pending is not None and (a.series.game < target or rng.random() > 0.01):
            a.step(rng.choice(a.game.pending.legal))
        if a.game.pending is None:
            continue
        restored_in_later_game += a.series.game > 1
        saved = a.save()
        assert isinstance(saved, SeriesGame)
        data = json.loads(json.dumps(saved.to_dict()))
        rebuilt = SeriesGame.from_dict(data, GameState.from_dict)
        assert rebuilt.series.results == a.series.results
        assert rebuilt.game.resting == a.game.resting
        b = pokemon_baseball_v0.raw_env(series=series)
        b.reset(seed=77)
        b.restore(rebuilt)
        assert b.series.game == a.series.game and b.series.carry == a.series.carry
        continue_both(a, b, random.Random(seed))
        assert a.series.results == b.series.results and a.series.over
    assert restored_in_later_game > 0


def test_restore_mid_series_through_the_wrapped_env_keeps_the_rewards():
    """Through ``env()``: reset once, restore a saved series, and the episode ends with the
    same rewards as the original's."""
    a = pokemon_baseball_v0.env(series=3)
    a.reset(seed=8)
    rng = random.Random(8)
    while a.unwrapped.series.game < 2:
        a.step(rng.choice(a.unwrapped.game.pending.legal))
    data = json.loads(json.dumps(a.unwrapped.save().to_dict()))
    b = pokemon_baseball_v0.env(series=3)
    b.reset(seed=1)
    b.unwrapped.restore(SeriesGame.from_dict(data, GameState.from_dict))
    finals = []
    for env in (a, b):
        rewards = {}
        actions = random.Random(3)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                rewards[agent] = (reward, term, trunc, info["winner"], json.dumps(info["series"]))
                env.step(None)
            else:
                assert reward == 0
                env.step(actions.choice(list(np.flatnonzero(obs["action_mask"]))))
        finals.append(rewards)
    assert finals[0] == finals[1]
    assert sorted(r[0] for r in finals[0].values()) == [-1, 1]


def test_restore_refuses_the_wrong_kind_of_save():
    single, series = pokemon_baseball_v0.raw_env(), pokemon_baseball_v0.raw_env(series=3)
    single.reset(seed=0)
    series.reset(seed=0)
    with pytest.raises(ValueError, match="SeriesGame"):
        series.restore(single.save())
    with pytest.raises(ValueError, match="SeriesGame"):
        single.restore(series.save())
    with pytest.raises(ValueError, match="series"):
        pokemon_baseball_v0.raw_env(series=5).restore(series.save())


def test_clone_and_dict_round_trip_continue_identically():
    """At random decision points of random games (DH on and off, in a series' later game),
    ``clone()`` and ``from_dict(to_dict())`` through JSON continue exactly like the original
    under the same actions."""
    rng = random.Random(21)
    checked = 0
    for seed in range(16):
        env = pokemon_baseball_v0.raw_env(dh=seed % 2 == 1, series=3 if seed % 4 == 0 else None)
        env.reset(seed=seed)
        while env.game.pending is not None and (
                env.series is not None and env.series.game < 2 or rng.random() > 0.02):
            env.step(rng.choice(env.game.pending.legal))
        state = env.game
        if state.pending is None:
            continue
        clone, copy = state.clone(), roundtrip(state)
        assert dumps(clone) == dumps(copy) == dumps(state)
        assert type(copy) is GameState and copy.pending == state.pending
        actions = random.Random(seed)
        original = state.clone()          # leave the env's own state alone
        while original.pending is not None:
            a = actions.choice(original.pending.legal)
            for s in (original, clone, copy):
                rules.apply_action(s, a)
            assert dumps(original) == dumps(clone) == dumps(copy)
        assert clone.pending is None and copy.pending is None
        assert original.score == clone.score == copy.score
        checked += 1
    assert checked >= 10


# -- text and pictures ------------------------------------------------------------------------------------
def test_render_ansi_at_every_kind_of_decision_and_the_final_scorecard():
    kinds = set()
    for seed in range(20):
        env = pokemon_baseball_v0.raw_env(render_mode="ansi", teams=("grove", "ember"),
                                          dh=seed % 2 == 1)
        env.reset(seed=seed)
        rng = random.Random(seed)
        names = team_names(env.game)
        while env.game.pending is not None:
            d = env.game.pending
            if d.kind not in kinds or rng.random() < 0.02:
                kinds.add(d.kind)
                text = env.render()
                assert all(n in text for n in names), text
                assert "R  H  E" in text
                assert f"{AGENTS[d.actor]} to decide ({d.kind})" in text
                labels = env.unwrapped._option_labels(d)
                assert all(f"{a} = {labels[a]}" in text for a in d.legal)
                if env.game.started:
                    assert re.search(r"(Top|Bottom) of the \d+(st|nd|rd|th), \d out", text)
                    batter = env.game.teams[env.game.board.half].roster[env.game.batter_creature()]
                    assert f"At bat: {batter.name}" in text
                else:
                    assert "before the first pitch" in text
            choice = (rules.PASS if d.kind in ("offense_sub", "defense_sub") and rng.random() < 0.9
                      else rng.choice(d.legal))
            env.step(choice)
        text = env.render()
        assert "Final" in text and all(n in text for n in names)
        card = env.scorecard()
        state = env.game
        for t, name in enumerate(names):
            assert name in card
            assert f"{name.upper()} PITCHING" in card
            for line in state.box.pitching[t]:
                assert re.search(rf"^{re.escape(line.name)}\s+\d+\.\d", card, re.M), line.name
        assert re.search(r"IP\s+BF\s+H\s+R\s+BB\s+SO\s+HR", card)
    assert kinds == set(rules.DECISION_KINDS), kinds


def test_plays_name_the_creatures_of_the_team_that_made_them():
    """The play-by-play (the ansi render's last plays, the scorecard) names a creature from
    the roster of the team he plays for: a defensive substitution made by the fielding team
    ("X comes in for Y") names two of the fielding team's creatures, not the batting team's
    creatures with the same roster indices."""
    env = pokemon_baseball_v0.raw_env(render_mode="ansi")       # harbor v summit: disjoint
    checked = 0
    for seed in range(6):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.game.pending is not None and checked < 20:
            d = env.game.pending
            action = rng.choice(d.legal)
            at = len(env.game.log.plays)
            env.step(action)
            if d.kind != "substitute" or d.actor != env.game.log.plays[at].half ^ 1:
                continue            # not a substitution by the fielding team
            team = env.game.teams[d.actor]
            expected = (f"{team.roster[action - rules.CREATURE].name} comes in for "
                        f"{team.roster[d.subject].name}")
            assert expected in env.scorecard(), expected
            if len(env.game.log.plays) - at <= 5:          # still among the last plays shown
                assert expected in env.render(), (expected, env.render())
            checked += 1
    assert checked >= 20


def test_rgb_array_returns_an_image():
    env = pokemon_baseball_v0.env(render_mode="rgb_array", series=3)
    env.reset(seed=0)
    frames = [env.render()]
    rng = random.Random(0)
    for _ in range(40):
        env.step(rng.choice(env.unwrapped.game.pending.legal))
    frames.append(env.render())
    for frame in frames:
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.shape[0] > 100
        assert frame.std() > 0
    assert not np.array_equal(frames[0], frames[1])


# -- rewards in a series --------------------------------------------------------------------------------------
def play_series_aec(env, seed):
    """Play a series through ``agent_iter`` with random legal actions; returns the rewards
    seen at every live step, the games' ends (the game number when it changed) and the
    dead steps' ``(reward, term, trunc, winner)``."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    live_rewards, final = [], {}
    game = env.unwrapped
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, term, trunc, info["winner"])
            env.step(None)
            continue
        live_rewards.append((reward, dict(game.rewards), dict(game._cumulative_rewards)))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return live_rewards, final


@pytest.mark.parametrize("series", [3, {"games": 5}])
def test_series_rewards_go_to_the_series_winner_at_the_end_only(series):
    env = pokemon_baseball_v0.env(series=series)
    last_game_lost_by_series_winner = 0
    for seed in range(12):
        live, final = play_series_aec(env, seed)
        assert all(r == 0 and rewards == {"away": 0, "home": 0} == cumulative
                   for r, rewards, cumulative in live), "a reward before the series ended"
        s = env.unwrapped.series
        assert s.over and len(s.results) >= 2
        wins = s.wins
        if wins[0] == wins[1]:
            assert all(v[0] == 0 and v[2] for v in final.values())
            continue
        winner = AGENTS[0 if wins[0] > wins[1] else 1]
        loser = AGENTS[1 - AGENTS.index(winner)]
        assert final[winner] == (1, True, False, winner)
        assert final[loser] == (-1, True, False, winner)
        last_game_lost_by_series_winner += s.results[-1]["winner"] == loser
    if series == {"games": 5}:
        # the series winner lost the last game: the reward follows the series, not the game
        assert last_game_lost_by_series_winner > 0


# -- illegal actions -------------------------------------------------------------------------------------------
def test_raw_env_raises_naming_the_decision_for_every_kind():
    seen = set()
    for seed in range(30):
        env = pokemon_baseball_v0.raw_env()
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.game.pending is not None:
            d = env.game.pending
            if d.kind not in seen:
                before = dumps(env.game)
                with pytest.raises(IllegalActionError, match=re.escape(repr(d.kind))) as err:
                    env.step(illegal_for(d))
                assert "legal actions" in str(err.value) and AGENTS[d.actor] in str(err.value)
                assert dumps(env.game) == before
                seen.add(d.kind)
            choice = (rules.PASS if d.kind in ("offense_sub", "defense_sub") and rng.random() < 0.9
                      else rng.choice(d.legal))
            env.step(choice)
        if seen == set(rules.DECISION_KINDS):
            break
    assert seen == set(rules.DECISION_KINDS)
    # the engine itself refuses too
    state = rules.new_game(TEAMS["harbor"], TEAMS["summit"], Dice(0))
    with pytest.raises(IllegalActionError, match="'lineup'"):
        rules.apply_action(state, rules.PASS)


@pytest.mark.parametrize("options, steps", [({}, 0), ({}, 60), ({"series": 3}, 200),
                                            ({"dh": True}, 30)])
def test_env_ends_with_minus_one_for_the_offender(options, steps):
    env = pokemon_baseball_v0.env(**options)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(steps):
        env.step(rng.choice(env.unwrapped.game.pending.legal))
    d = env.unwrapped.game.pending
    offender = env.agent_selection
    other = AGENTS[1 - AGENTS.index(offender)]
    env.step(illegal_for(d))
    info = env.infos[offender]
    assert repr(d.kind) in info["illegal_action"] and info["illegal_action"].startswith(offender)
    assert info["winner"] == ""
    rewards = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term and not trunc
        rewards[agent] = reward
        env.step(None)
    assert rewards == {offender: -1, other: 0}


def test_rest_by_option():
    """rest_by names the two readings of "pitches 2 or more innings"; anything else is refused."""
    for rest_by in ("innings", "outs"):
        env = pokemon_baseball_v0.env(rest_by=rest_by)
        env.reset(seed=1)
        assert env.unwrapped.game.rest_by == rest_by
    with pytest.raises(OptionError, match="rest_by must be one of"):
        pokemon_baseball_v0.env(rest_by="pitches")


def test_a_roster_too_small_for_a_lineup_is_refused():
    """Nine creatures field a team without the DH, not with it: the env says so at once rather
    than forfeiting every game at reset."""
    nine = TEAMS["harbor"].to_dict()
    starters = [entry["creature"] for entry in nine["lineup"]]
    nine["roster"] = starters
    nine["rotation"] = [e["creature"] for e in nine["lineup"] if e["position"] == "P"]
    pokemon_baseball_v0.env(teams=(nine, "summit")).reset(seed=0)       # fine without the DH
    with pytest.raises(OptionError, match="away team .* has 9 creatures; a game with the DH needs 10"):
        pokemon_baseball_v0.env(teams=(nine, "summit"), dh=True)


# -- observe() is encode_view(view) -------------------------------------------------------------
#: Option sets the equivalence below is checked with: every option of the env in one at least.
EQUIVALENCE_OPTIONS = [
    {}, {"dh": True}, {"edge": "gt"}, {"rest_by": "outs"}, {"innings": 3, "max_innings": 4},
    {"series": 3},
    {"series": {"games": 3}, "teams": ("grove", "ember"), "dh": True, "edge": "gt", "rest_by": "outs"},
]


@functools.lru_cache(maxsize=1)
def _heuristic():
    from dugout.agents.pokemon_baseball import MANAGERS, PokemonBaseballHeuristic
    return PokemonBaseballHeuristic(tables=MANAGERS.value_tables(None, 9))   # one table for all


@pytest.mark.parametrize("options", EQUIVALENCE_OPTIONS,
                         ids=["-".join(f"{k}={v}" for k, v in o.items()) or "defaults"
                              for o in EQUIVALENCE_OPTIONS])
def test_the_fast_observation_is_the_views_encoding(options):
    """observe() encodes without building the view (``env._encode``, for speed); at every
    step of seeded games it must equal ``encode_view(env.view(agent))`` for both managers,
    compared piece by piece of the observation table. The games alternate: random managers
    (even seeds), the heuristic against random (odd seeds: the heuristic keeps a bench, so
    injured creatures get replaced). They are played until every decision kind has come up
    and every piece the options allow has been nonzero (so none is compared only as zeros)."""
    env = pokemon_baseball_v0.raw_env(**options)
    size = env.OBS.size
    want_pieces = set(OBS.offset) - (set() if options.get("dh") else {"dh"})
    kinds, pieces = set(), set()
    seed = 0
    while seed < 4 or (kinds != set(rules.DECISION_KINDS) or pieces != want_pieces) and seed < 40:
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.game.pending is not None and not env.truncations["away"]:
            decision = env.game.pending
            for agent in AGENTS:
                fast = env.observe(agent)["observation"][:size]
                view = env.view(agent)
                slow = OBS.unpack(encode_view(view))
                for name, got in OBS.unpack(fast).items():
                    assert np.array_equal(got, slow[name]), (
                        f"{name} differs for {agent} at a {decision.kind!r} decision "
                        f"(seed {seed}, {options}): observe {got}, encode_view {slow[name]}")
                    if got.any():
                        pieces.add(name)
            kinds.add(decision.kind)
            if seed % 2 and decision.actor == seed // 2 % 2:
                action = _heuristic().act({}, env.view(AGENTS[decision.actor]))
            else:
                action = rng.choice(decision.legal)
            env.step(action)
        seed += 1
    assert kinds == set(rules.DECISION_KINDS), f"never reached: {set(rules.DECISION_KINDS) - kinds}"
    assert pieces == want_pieces, f"always zero: {want_pieces - pieces}"


def test_the_fast_observation_follows_restored_games():
    """The roster blocks are kept between decisions and brought up to date column group by
    column group: jumping back and forth between saved decisions of different games (other
    lineups, HP, innings pitched, runners) must still give the view's encoding."""
    import random

    from dugout.envs.pokemon_baseball.env import encode_view
    env = pokemon_baseball_v0.raw_env()
    rng = random.Random(11)
    saved = []
    for seed in range(4):
        env.reset(seed=seed)
        while env.game.pending is not None:
            if rng.random() < 0.05:
                saved.append(env.save())
            legal = env.game.pending.legal
            env.step(legal[rng.randrange(len(legal))])
    assert len(saved) > 20
    rng.shuffle(saved)
    for state in saved:
        env.restore(state.clone())
        for agent in ("away", "home"):
            assert np.array_equal(env.observe(agent)["observation"],
                                  encode_view(env.view(agent))), agent
