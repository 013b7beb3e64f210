"""What MLB Showdown's speed-ups keep: the same dice, the same charts, and caches that follow
the game.

The engine and the env keep values that change only with the lineup, the bench or the
inning (legal pinch hitters, roster blocks, the defense) and the dice keep the hash of a
stream's leading keys; none of it may change a game. These tests compare the fast paths with
the plain definitions: the keyed dice with the formula in ``core/dice.py``'s docstring, a
chart with reading its counts, the cached pinch hitters with working them out afresh, the
observation with encoding the view, and a game saved and restored with the game played on.
No timings: speed is the benchmark's (``dugout bench``).
"""

from __future__ import annotations

import json
import random
import zlib

import numpy as np
import pytest

from dugout.envs import showdown_v0
from dugout.envs.core.dice import Dice
from dugout.envs.core.errors import DataError
from dugout.envs.showdown import roster, rules, state as sd_state
from dugout.envs.showdown.cards import RESULTS, Chart, load_team
from dugout.envs.showdown.env import encode_view
from dugout.envs.showdown.view import view_of

from .helpers import roundtrip

_MASK = (1 << 64) - 1


def _mix(z: int) -> int:
    z = (z + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _reference_draw(seed: int, stream: tuple[int, ...], purpose: str, n: int) -> int:
    """The n-th draw (from 0) for ``purpose`` in ``stream``, straight from the definition."""
    h = _mix(seed)
    for k in stream:
        h = _mix(h ^ k)
    key = _mix(h ^ _mix(zlib.crc32(purpose.encode("utf-8"))))
    return _mix((key + n) & _MASK)


def test_keyed_dice_draw_the_defined_numbers():
    rng = random.Random(23)
    purposes = ("pitch", "swing", "throw", "double_play", "rotation")
    for _ in range(60):
        seed = rng.randrange(1 << 63)
        dice = Dice(seed)
        for _ in range(40):
            # streams of every length, often sharing their leading keys (the cached prefix)
            stream = tuple(rng.choice((0, 1, 2, rng.randrange(1 << 20)))
                           for _ in range(rng.choice((0, 1, 2, 2, 2, 3))))
            dice.set_stream(*stream)
            counts: dict[str, int] = {}
            for _ in range(rng.randrange(6)):
                purpose = rng.choice(purposes)
                sides = rng.choice((6, 20))
                n = rng.choice((1, 1, 2, 3))
                want = n
                for _ in range(n):
                    want += _reference_draw(seed, stream, purpose, counts.get(purpose, 0)) % sides
                    counts[purpose] = counts.get(purpose, 0) + 1
                assert dice.roll(purpose, dice=n, sides=sides) == want
            assert dice.to_dict()["draws"] == counts
            # a copy and a saved-and-loaded copy go on with the defined numbers, in this
            # stream and in the next ones (which start from the copied prefix hash)
            copy, loaded = dice.clone(), Dice.from_dict(json.loads(json.dumps(dice.to_dict())))
            following = [stream + (5,), stream[:-1] + (9,), (rng.randrange(1 << 20), 3)]
            for other in (copy, loaded):
                want = 1 + _reference_draw(seed, stream, "swing", counts.get("swing", 0)) % 20
                assert other.roll("swing", sides=20) == want
                for nxt in following:
                    other.set_stream(*nxt)
                    assert other.roll("pitch", sides=20) == 1 + _reference_draw(seed, nxt, "pitch", 0) % 20


def test_a_new_at_bat_is_a_fresh_default_at_bat():
    """state.new_at_bat copies AtBat's defaults instead of running its __init__."""
    a, b = sd_state.new_at_bat(), sd_state.new_at_bat()
    assert a == sd_state.AtBat() and a.to_dict() == sd_state.AtBat().to_dict()
    a.card_mods["pitch"] = 1
    assert b.card_mods == {} and sd_state.new_at_bat().card_mods == {}
    for name, value in vars(sd_state.new_at_bat()).items():
        if name != "card_mods":     # the one mutable default; the others may be shared
            hash(value)


def test_chart_results_read_the_counts():
    def read(chart: Chart, roll: int) -> str:
        roll = min(max(roll, 1), 20)
        for result, n in zip(RESULTS, chart.counts):
            if roll <= n:
                return result
            roll -= n
        raise AssertionError

    charts = {card.chart for name in ("nya2004", "bos2004", "lan2024")
              for card in load_team(name, point_cap=None).players}
    rng = random.Random(5)
    for _ in range(300):
        cuts = sorted(rng.randint(0, 20) for _ in range(len(RESULTS) - 1))
        charts.add(Chart(tuple(b - a for a, b in zip([0, *cuts], [*cuts, 20]))))
    for chart in charts:
        for roll in range(-2, 26):
            assert chart.result(roll) == read(chart, roll)
    # the lookup table is no field: charts compare and hash by their counts alone
    a, b = Chart((0, 2, 6, 5, 2, 3, 0, 1, 0, 1)), Chart((0, 2, 6, 5, 2, 3, 0, 1, 0, 1))
    assert a == b and hash(a) == hash(b) and "by_roll" not in repr(a)


def _fresh_pinch_hitters(state, team: int, replaces: bool) -> tuple[int, ...]:
    """The rule worked out afresh, as before the caches: no memo, no early return on an empty
    bench, each position mask read off the cards."""
    from dugout.envs.showdown.cards import PitcherCard
    slot = state.order[team]
    k = state.lineup[team][slot]
    cards = state.teams[team]
    keys = {c.key: i for i, c in enumerate(cards.players)}
    started = {keys[p] for p, _ in cards.lineups["dh" if state.dh else "no_dh"] if p != "P"}
    if not state.batted[team][k] and not replaces and k in started | {state.starter[team]}:
        return ()
    is_pitcher = isinstance(state.card(team, k), PitcherCard)
    if is_pitcher and (not roster.can_remove_starter(state, team) or not roster.bullpen(state, team)):
        return ()
    next_field = state.board.inning + (1 if state.board.half == 1 else 0)
    roster._FACTS.clear()            # the position masks read off the cards again
    return tuple(roster._pinch_candidates(state, team, k, state.pos[team][slot], is_pitcher,
                                          next_field))


def _random_advanced_games(seeds, options=None):
    """Yield (env, state) at every decision of random advanced games."""
    env = showdown_v0.raw_env(level="advanced", **(options or {}))
    for seed in seeds:
        rng = random.Random(seed)
        env.reset(seed=seed)
        while env.game.pending is not None:
            yield env, env.game
            env.step(rng.choice(env.game.pending.legal))


@pytest.mark.parametrize("options", [{}, {"dh": False}])
def test_cached_pinch_hitters_follow_substitutions(options):
    asked = 0
    for _env, state in _random_advanced_games(range(25), options):
        t = state.board.half
        replaces = state.ab.ph_for is not None
        cached = roster.pinch_hitter_options(state, t, replaces)
        assert cached == _fresh_pinch_hitters(state, t, replaces)
        listed = roster.legal_pinch_hitters(state, t, replaces)
        assert listed == list(cached)
        listed.append(99)            # the caller's own list: the memo is untouched
        assert roster.pinch_hitter_options(state, t, replaces) == cached
        if state.pending.kind == "pinch_hitter":
            asked += 1
            assert state.pending.legal == (rules.PASS, *(rules.PLAYER + k for k in cached))
    assert asked > 20


@pytest.mark.parametrize("options", [{}, {"dh": False}])
def test_observation_caches_follow_the_game(options):
    """The observation read off the state (with its cached roster blocks and defense) is the
    view's encoding at every decision, also after going back to an earlier decision."""
    saved = []
    for env, state in _random_advanced_games(range(12), options):
        for seat in (0, 1):
            np.testing.assert_array_equal(env._encode(seat), encode_view(view_of(state, seat)))
        if len(saved) < 40 and random.Random(len(saved) + state.pa_index).random() < 0.1:
            saved.append(state.clone())
    env = showdown_v0.raw_env(level="advanced", **options)
    env.reset(seed=0)
    for state in reversed(saved):         # jumping back and forth between lineups
        env.restore(state.clone())
        for seat in (0, 1):
            np.testing.assert_array_equal(env._encode(seat), encode_view(view_of(state, seat)))


@pytest.mark.parametrize("first, then", [("basic", "advanced"), ("advanced", "basic"),
                                         ("advanced", "expert"), ("expert", "advanced")])
def test_a_game_of_another_level_is_refused_and_the_caches_stay_right(first, then):
    """A game of another level played by the very same team objects is not restored (its
    observation would not fit the env's space: DataError naming ``level``), and the env's
    cached roster blocks and blank observation still encode its own game."""
    env = showdown_v0.raw_env(level=first, starter=1)
    other = showdown_v0.raw_env(level=then, starter=1, teams=env.teams, dh=True)
    env.reset(seed=3)
    other.reset(seed=3)
    env.observe("away"), env.observe("home")
    with pytest.raises(DataError, match=r"\blevel\b"):
        env.restore(other.save())
    for agent in ("away", "home"):
        assert np.array_equal(env.observe(agent)["observation"], encode_view(env.view(agent)))


def test_new_games_get_fresh_icon_uses():
    teams = (load_team("nya2004"), load_team("bos2004"))
    first = rules.new_game(teams, Dice(1), level="advanced")
    for left in first.icons_left[0] + first.icons_left[1]:
        for icon in left:
            left[icon] = 0
    second = rules.new_game(teams, Dice(1), level="advanced")
    assert second.icons_left == [
        [{i: rules.ICON_USES[i] for i in card.icons if i in rules.ICON_USES}
         for card in team.players] for team in teams]


@pytest.mark.parametrize("level", ["advanced", "basic"])
def test_saved_games_go_on_as_played(level):
    """A game saved at a random decision (clone, and to_dict/from_dict) and played on with the
    same actions ends exactly as the game itself."""
    rng = random.Random(level)
    teams = (load_team("nya2004"), load_team("bos2004"))
    for seed in range(15):
        game = rules.new_game(teams, Dice(seed), level=level)
        actions: list[int] = []
        while game.pending is not None:
            actions.append(rng.choice(game.pending.legal))
            rules.apply_action(game, actions[-1])
        at = rng.randrange(len(actions))
        start = rules.new_game(teams, Dice(seed), level=level)
        for a in actions[:at]:
            rules.apply_action(start, a)
        for copy in (start.clone(), roundtrip(start)):
            for a in actions[at:]:
                rules.apply_action(copy, a)
            assert json.dumps(copy.to_dict(), sort_keys=True) == json.dumps(game.to_dict(),
                                                                           sort_keys=True)
