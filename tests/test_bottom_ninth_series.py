"""Bottom of the 9th, a series of games (option ``series``, ``dugout.envs.core.series``).

Rulebook, Player Draft: "Pitcher and Batter Cards may be allocated randomly if you are going
to play a multiple-inning game or a series of several games." A series keeps the teams it
sets up in its first game (chosen, drafted or dealt); nothing else carries (RULES.md).
"""

from __future__ import annotations

import json
import random

import pytest

from dugout.envs import bottom_ninth_v0
from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.sample import public_setup, sample_state
from dugout.envs.bottom_ninth.state import GameState
from dugout.envs.bottom_ninth.view import view_of
from dugout.envs.core.state import SaveError
from dugout.envs.core.series import SeriesGame

from helpers import games

SERIES = ({"series": 3},
          {"series": {"games": 3}, "teams": "choose", "draft": True, "support": True},
          {"series": {"games": 2}, "teams": "choose", "draft": "random", "extra_innings": True},
          {"series": {"games": 2}, "mode": "game", "teams": "choose", "batters": 10, "innings": 2})


def _play(env, seed: int, on_state=None):
    """A random series; ``on_state(state, info)`` at every decision. The games' teams."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    game = env.unwrapped
    teams, asked = {}, {}
    while True:
        _, _, term, trunc, info = env.last()
        if term or trunc:
            return teams, asked, info
        s = game.state_
        g = info["series"]["game"]
        if s.pending.kind in ("draft_order", "draft_pick", "select_batter", "select_pitcher",
                              "select_support"):
            asked[g] = asked.get(g, 0) + 1
        if s.pitcher >= 0 and g not in teams:
            teams[g] = json.dumps(rules.teams_of(s), sort_keys=True)
        if on_state is not None:
            on_state(s, info)
        env.step(rng.choice(s.pending.legal))


@pytest.mark.parametrize("options", SERIES, ids=str)
def test_the_teams_are_set_up_once_and_kept(options):
    """Set-up decisions in the first game only (none with given teams); every later game
    opens with the first game's teams."""
    env = bottom_ninth_v0.raw_env(**options)
    later = 0
    for seed in range(games(6, 3)):
        teams, asked, info = _play(env, seed)
        assert set(asked) <= {1}
        assert bool(asked) == (options.get("teams") == "choose")     # (dealt: the lineups still)
        assert len(set(teams.values())) == 1
        later += len(teams) - 1
        assert info["series"]["over"]
    assert later > 0


def test_the_longer_games_teams_are_those_that_took_the_field():
    """With benches, pinch hitters change a game's lineup; the next game opens with the
    lineups and benches as they took the field in the first (``opening``), not as they
    ended."""
    env = bottom_ninth_v0.raw_env(**SERIES[3])
    carried, substituted = 0, 0
    for seed in range(games(8, 4)):
        firsts, lasts = {}, {}

        def seen(state, info):
            g = info["series"]["game"]
            if state.pitcher >= 0:
                now = ([x[:8] for x in state.lineups], [list(x) for x in state.benches])
                firsts.setdefault(g, now)
                lasts[g] = now
        _play(env, seed, seen)
        if len(firsts) > 1:
            assert firsts[2] == firsts[1]
            carried += 1
            substituted += lasts[1] != firsts[1]
    assert carried > 0 and substituted > 0


def test_a_series_saves_and_loads_with_its_carry():
    """Mid-series saves round-trip through JSON; a carry that is not the game's teams is
    refused, naming the key."""
    env = bottom_ninth_v0.raw_env(**SERIES[1])
    checked = []

    def check(state, info):
        if info["series"]["game"] >= 2 and len(checked) < 5:
            data = json.loads(json.dumps(env.unwrapped.save().to_dict()))
            back = SeriesGame.from_dict(data, GameState.from_dict)
            assert json.dumps(back.to_dict(), sort_keys=True) == json.dumps(data, sort_keys=True)
            data["series"]["carry"]["support"] = [5, 5]
            with pytest.raises(SaveError, match="support"):
                SeriesGame.from_dict(data, GameState.from_dict)
            checked.append(1)
    for seed in range(6):
        _play(env, seed, check)
        if checked:
            break
    assert checked


@pytest.mark.parametrize("options", SERIES[:3], ids=str)
def test_a_later_games_view_samples(options):
    """A view of a later game is a view of a game past its set-up: the sampler rebuilds it."""
    env = bottom_ninth_v0.raw_env(**options)
    setup = public_setup(env)
    n = [0]

    def check(state, info):
        if info["series"]["game"] >= 2:
            for seat in (0, 1):
                n[0] += 1
                view = view_of(state, seat)
                assert view_of(sample_state(view, random.Random(n[0]), setup), seat) == view
    for seed in range(games(4, 2)):
        _play(env, seed, check)
    assert n[0] > 0
