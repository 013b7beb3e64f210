"""MLB Showdown series play (``series=N``): the rotation across games, reliever rest, the
box score per game and per series, saving, the observation and the sampler.

The rulebook: "When you play a series of games, your starters take turns pitching ... If
your fourth pitcher starts a game, your first pitcher will start the next game" (Building
Your Own Team), and Expert Innings Pitched: "If a reliever or closer pitches 2 games in a
row, his IP starts at 0 the next game. This means you subtract 1 from his pitches right
away. One game of rest is all a reliever or closer needs to get back to his full IP."
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import helpers
from dugout import envs
from dugout.agents import make_agent
from dugout.envs.core.dice import Dice
from dugout.envs.core.engine import play_out
from dugout.envs.core.errors import DataError, OptionError
from dugout.envs.core.series import SeriesGame
from dugout.envs.core.state import SaveError
from dugout.envs.showdown import rules
from dugout.envs.showdown.cards import load_team
from dugout.envs.showdown.sample import public_setup, sample_state
from dugout.envs.showdown.state import GameState
from dugout.envs.showdown.view import view_of

ENV_ID = "showdown_v0"
#: the series option sets (for the contract suite's OPTION_SETS)
SERIES_SETS = ({"level": "advanced", "series": 3}, {"level": "expert", "series": {"games": 3}},
               {"level": "expert", "decks": "default", "series": 3})


def _spot(state: GameState, t: int) -> int:
    return state.teams[t].rotation.index(state.card(t, state.starter[t]).key) + 1


def _play_series(options: dict, seed: int, policy=None):
    """A seeded series played to the end; yields (env, state) at every decision."""
    env = envs.make(ENV_ID, raw=True, **options)
    game = env.unwrapped
    env.reset(seed=seed)
    rng = random.Random(seed)
    while game.state_.pending is not None:
        yield env, game.state_
        d = game.state_.pending
        env.step(policy(game.state_, d, rng) if policy else rng.choice(d.legal))


def _games(options: dict, seed: int, policy=None) -> list[GameState]:
    """The first decision's state of each game of a series (clones)."""
    firsts, last = [], 0
    for env, state in _play_series(options, seed, policy):
        if env.unwrapped.series_.game != last:
            last = env.unwrapped.series_.game
            firsts.append(state.clone())
    return firsts


def test_the_rotation_goes_round_from_game_to_game():
    """Starting at the rotation's third spot, five games: 3, 4, then the first again."""
    firsts = _games({"level": "advanced", "series": {"games": 5}, "starter": 3}, seed=1)
    assert [[_spot(s, t) for t in (0, 1)] for s in firsts] == [[3, 3], [4, 4], [1, 1], [2, 2],
                                                              [3, 3]]


def test_the_rolled_spot_starts_the_rotation():
    """Without ``starter`` game 1's spot is the home team's roll (Advanced Game Setup 2), and
    the next game follows on from each team's own spot."""
    firsts = _games({"level": "advanced", "series": {"games": 2}}, seed=5)
    single = envs.make(ENV_ID, raw=True, level="advanced")
    single.reset(seed=5)
    assert _spot(firsts[0], 0) == _spot(single.unwrapped.state_, 0)
    assert [_spot(firsts[1], t) for t in (0, 1)] == [_spot(firsts[0], t) % 4 + 1 for t in (0, 1)]


def _reliever(team, k: int = 0) -> int:
    relief = [i for i, c in enumerate(team.players) if c.kind == "pitcher" and c.role != "starter"]
    return relief[k]


def test_a_reliever_who_pitched_two_games_in_a_row_starts_at_ip_0():
    """Setup: an expert game of a series whose reliever pitched in each of the last two
    games. Decision: he comes in. Expected: -1 on his first pitch ("subtract 1 from his
    pitches right away"); after one game of rest, his full IP again; never in the advanced
    game, whose rules do not rest relievers."""
    teams = (load_team("nya2004"), load_team("bos2004"))
    k = _reliever(teams[1])
    assert teams[1].players[k].ip >= 1
    for streak, level, want in ((2, "expert", 1), (1, "expert", 0), (0, "expert", 0),
                                (3, "expert", 1), (2, "advanced", 0)):
        streaks = [[0] * 25, [0] * 25]
        streaks[1][k] = streak
        state = rules.new_game(teams, Dice(0), level=level, starter=1, play=False,
                               relief_streak=streaks)
        state.board.inning = 6
        assert rules.fatigue(state, 1, k) == want, (streak, level)
        assert rules.rested_out(state, 1, k) == (streak >= 2 and level == "expert")
        assert rules.rested_out(view_of(state, 0), 1, k) == rules.rested_out(state, 1, k)


def test_the_carry_counts_games_in_a_row_and_a_rest_resets_it():
    teams = (load_team("nya2004"), load_team("bos2004"))
    a, b = _reliever(teams[0]), _reliever(teams[0], 1)
    streaks = [[0] * 25, [0] * 25]
    streaks[0][a], streaks[0][b] = 1, 2
    state = rules.new_game(teams, Dice(3), level="expert", starter=4, play=False,
                           relief_streak=streaks)
    state.used[0][a] = True                  # a pitched in this game, b rested
    carry = rules.series_carry(state)
    assert carry["rotation"] == [1, 1]       # "your first pitcher will start the next game"
    assert carry["relief_streak"][0][a] == 2 and carry["relief_streak"][0][b] == 0
    assert not any(carry["relief_streak"][1])
    starter = state.starter[0]
    assert carry["relief_streak"][0][starter] == 0      # starters never count


@pytest.mark.parametrize("options", SERIES_SETS, ids=[helpers.case_id(ENV_ID, o) for o in SERIES_SETS])
def test_random_series_carry_what_the_last_game_left(options):
    """Over random series: each game's streaks follow from the last game's relievers, the
    observation is inside its space and shows them, and the series box score adds up."""
    env = envs.make(ENV_ID, raw=True, **options)
    game = env.unwrapped
    rest = game.obs_spec.offset["relief_rest"]
    for seed in range(helpers.games(6, 2)):
        env.reset(seed=seed)
        rng = random.Random(seed)
        previous, last = None, 0
        while game.state_.pending is not None:
            s = game.state_
            if game.series_.game != last:
                if previous is not None:
                    assert s.relief_streak == rules.series_carry(previous)["relief_streak"]
                last = game.series_.game
            previous = s
            for agent in ("away", "home"):
                obs = env.observe(agent)["observation"]
                assert env.observation_space(agent)["observation"].contains(obs)
                seat = ("away", "home").index(agent)
                shown = obs[rest:rest + 2 * 25]          # own team's 25 first
                assert [min(n, 2) / 2 for n in s.relief_streak[seat]] == list(shown[:25])
                assert [min(n, 2) / 2 for n in s.relief_streak[1 - seat]] == list(shown[25:])
            env.step(rng.choice(s.pending.legal))
        boxes = game.series_box_scores()
        assert len(boxes["games"]) == len(game.series_.results)
        assert boxes["totals"]["runs"] == [sum(r["away"] for r in game.series_.results),
                                           sum(r["home"] for r in game.series_.results)]
        for t in (0, 1):
            assert sum(line["R"] for line in boxes["totals"]["batting"][t]) == \
                boxes["totals"]["runs"][t]


def test_save_and_restore_in_the_middle_of_a_series():
    options = {"level": "expert", "series": {"games": 3}}
    env = envs.make(ENV_ID, raw=True, **options)
    game = env.unwrapped
    env.reset(seed=2)
    rng = random.Random(2)
    while game.series_.game < 2 or game.state_.board.inning < 3:
        env.step(rng.choice(game.state_.pending.legal))
    saved = json.loads(json.dumps(game.save().to_dict()))
    loaded = SeriesGame.from_dict(saved, GameState.from_dict)
    assert loaded.game.relief_streak == game.state_.relief_streak
    other = envs.make(ENV_ID, raw=True, **options)
    other.reset(seed=0)
    other.unwrapped.restore(loaded)
    rng_a, rng_b = random.Random(9), random.Random(9)
    while game.state_.pending is not None:
        a = rng_a.choice(game.state_.pending.legal)
        assert rng_b.choice(other.unwrapped.state_.pending.legal) == a
        env.step(a)
        other.step(a)
    assert other.unwrapped.series_.results == game.series_.results
    assert other.unwrapped.series_box_scores() == game.series_box_scores()
    bad = json.loads(json.dumps(saved))
    bad["series"]["carry"]["rotation"][0] = bad["series"]["carry"]["rotation"][0] % 4 + 1
    with pytest.raises(SaveError, match="rotation"):
        SeriesGame.from_dict(bad, GameState.from_dict)
    bad = json.loads(json.dumps(saved))
    bad["game"]["relief_streak"][0][0] = 1            # a hitter has no relief streak
    with pytest.raises(SaveError, match="relief_streak"):
        SeriesGame.from_dict(bad, GameState.from_dict)


def test_series_options_and_single_games_unchanged():
    with pytest.raises(OptionError, match="advanced and expert"):
        envs.make(ENV_ID, raw=True, level="basic", series=3)
    with pytest.raises(OptionError, match="odd"):
        envs.make(ENV_ID, raw=True, series=2)
    single = envs.make(ENV_ID, raw=True)
    single.reset(seed=0)
    assert single.unwrapped.state_.relief_streak == [[], []]
    assert single.unwrapped.series_box_scores() is None


@pytest.mark.parametrize("options", SERIES_SETS[:2], ids=[helpers.case_id(ENV_ID, o)
                                                          for o in SERIES_SETS[:2]])
def test_the_sampler_rebuilds_series_games(options):
    """Samples of later games' views hold the relief streaks and play on."""
    n = 0
    env = None
    for env, state in _play_series(options, seed=4):
        if env.unwrapped.series_.game < 2 or n >= helpers.games(400, 40):
            continue
        for seat in (0, 1):
            view = view_of(state, seat)
            sample = sample_state(view, random.Random(n), public_setup(env))
            assert view_of(sample, seat) == view and sample.relief_streak == state.relief_streak
            rng = random.Random(n)
            play_out(sample, rules, lambda s, d: rng.choice(d.legal), check=True)
        n += 1
    assert n


def test_the_heuristic_prefers_a_rested_reliever():
    """Two relievers alike but for rest: the heuristic values the one at IP 0 lower."""
    env = envs.make(ENV_ID, raw=True, level="expert", series={"games": 3})
    game = env.unwrapped
    h = make_agent(ENV_ID, "heuristic")
    env.reset(seed=0)
    rng = random.Random(0)
    while not (game.state_.pending.kind == "pitching_change"
               and len(game.state_.pending.legal) > 2):
        env.step(rng.choice(game.state_.pending.legal))
    view = game.view(env.agent_selection)
    t = view.seat
    k = view.legal[1] - rules.PLAYER
    fresh = h._value_pitching_change(view)
    streak = [list(view.relief_streak[0]), list(view.relief_streak[1])]
    streak[t][k] = 2
    tired = h._value_pitching_change(dataclasses.replace(
        view, relief_streak=(tuple(streak[0]), tuple(streak[1]))))
    assert tired[view.legal[1]] < fresh[view.legal[1]]
    assert tired[view.legal[0]] == fresh[view.legal[0]]


def _at_game(options: dict, seed: int, game_number: int) -> tuple:
    """A seeded random series at the first decision of game ``game_number``: the env and
    its save as JSON data."""
    env = envs.make(ENV_ID, raw=True, **options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    while env.unwrapped.series_.game < game_number:
        env.step(rng.choice(env.unwrapped.state_.pending.legal))
    return env, json.loads(json.dumps(env.unwrapped.save().to_dict()))


def _load_into(env, data: dict) -> None:
    env.unwrapped.restore(SeriesGame.from_dict(data, GameState.from_dict))


def test_the_carried_box_scores_are_checked_on_load():
    """Setup: a series saved at game 2. Expected: a carry whose box scores are not one well-
    formed box score a game played is refused, naming ``box_scores`` (and where in it),
    before ``series_box_scores()`` could add up a broken or missing game."""
    env, saved = _at_game({"level": "expert", "series": {"games": 3}}, seed=3, game_number=2)
    _load_into(env, saved)                                  # as saved: restores
    assert len(env.unwrapped.series_box_scores()["games"]) == 2
    box = saved["series"]["carry"]["box_scores"][0]
    bad_boxes = [
        ([1, "x"], r"box_scores\[0\]"),
        ([], "box_scores"),
        ([{**box, "runs": [1]}], r"box_scores\[0\]\.runs"),
        ([{**box, "teams": box["teams"][::-1]}], r"box_scores\[0\]\.teams"),
        ([{**box, "batting": [box["batting"][0][:1] + [{"name": "X"}], box["batting"][1]]}],
         r"box_scores\[0\]\.batting\[0\]\[1\]"),
        ([{**box, "pitching": [[{**box["pitching"][0][0], "IP": "6.3"}], box["pitching"][1]]}],
         r"box_scores\[0\]\.pitching\[0\]\[0\]\.IP"),
        ([{**box, "hits": [-1, 0]}], r"box_scores\[0\]\.hits"),
    ]
    for boxes, where in bad_boxes:
        bad = json.loads(json.dumps(saved))
        bad["series"]["carry"]["box_scores"] = boxes
        with pytest.raises(SaveError, match=where):
            SeriesGame.from_dict(bad, GameState.from_dict)
    bad = json.loads(json.dumps(saved))
    bad["series"]["carry"]["box_scores"] = [box, box]       # two games' worth at game 2
    with pytest.raises(DataError, match="box score"):
        _load_into(env, bad)


def test_a_streak_longer_than_the_series_so_far_is_refused():
    """At game 2 one game was played: a reliever has pitched at most 1 game in a row (2 or
    99 refused); in game 1 nobody has (a streak there is refused when restored)."""
    env, saved = _at_game({"level": "expert", "series": {"games": 3}}, seed=3, game_number=2)
    k = _reliever(env.unwrapped.teams[0])
    for n in (2, 99):
        bad = json.loads(json.dumps(saved))
        bad["series"]["carry"]["relief_streak"][0][k] = n
        bad["game"]["relief_streak"][0][k] = n
        with pytest.raises(SaveError, match=r"relief_streak\[0\]"):
            SeriesGame.from_dict(bad, GameState.from_dict)
    first, saved = _at_game({"level": "expert", "series": {"games": 3}}, seed=3, game_number=1)
    _load_into(first, saved)
    for n in (1, 5):
        bad = json.loads(json.dumps(saved))
        bad["game"]["relief_streak"][0][k] = n
        with pytest.raises(DataError, match="game 1.*relief_streak"):
            _load_into(first, bad)
    assert not any(first.unwrapped.state_.relief_streak[0])


def test_a_reliever_who_pitched_games_1_and_2_comes_in_at_ip_0_in_game_3():
    """Setup: an expert series of three games; the home manager brings reliever R in at his
    first chance (the top of the 5th, when the starter may leave) in each game, and
    otherwise passes. Decision: R comes in. Expected ("If a reliever or closer pitches 2
    games in a row, his IP starts at 0 the next game. This means you subtract 1 from his
    pitches right away"): on his first pitch of games 1 and 2 his fatigue is 0 (his IP
    covers his first inning), in game 3 it is 1 (-1 on his pitches), which the home
    manager's observation shows (the pitcher piece's fatigue / 5)."""
    env = envs.make(ENV_ID, raw=True, level="expert", series={"games": 3})
    game = env.unwrapped
    k = _reliever(game.teams[1])
    card = game.teams[1].players[k]
    assert card.ip >= 1
    fatigue_at = {}                                       # game -> his fatigue, first pitch
    env.reset(seed=7)
    while game.state_.pending is not None:
        s, d = game.state_, game.state_.pending
        g = game.series_.game
        if s.pitcher[1] == k and g not in fatigue_at:
            assert s.relief_streak[1][k] == g - 1 and s.innings_pitched[1][k] == [s.board.inning]
            fatigue_at[g] = rules.fatigue(s, 1, k)
            obs = env.observe("home")["observation"]
            assert obs[game.obs_spec.offset["pitcher"] + 2] == pytest.approx(fatigue_at[g] / 5)
        if d.kind == "pitching_change" and d.actor == 1 and rules.PLAYER + k in d.legal:
            env.step(rules.PLAYER + k)
        else:
            env.step(0 if 0 in d.legal else d.legal[0])
    assert fatigue_at == {1: 0, 2: 0, 3: 1}
