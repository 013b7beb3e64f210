"""Tests of the MLB Showdown calibration, ``python -m dugout.evaluate.calibrate_showdown``.

A tiny run completes and prints its table; results do not depend on the number of
workers; the pitcher drawn from the league pool is the one who pitches; the pool is the
team's own league without the team itself.
"""

from __future__ import annotations

import json
import math
import random

import pytest

from dugout.envs.core.dice import Dice
from dugout.envs.showdown import rules
from dugout.envs.showdown.cards import PitcherCard
from dugout.evaluate import calibrate_showdown as cal

SMALL = ["--teams", "bos2004", "sln2004", "--games", "20", "--seed", "3"]


@pytest.fixture(scope="module")
def season():
    return cal.load_season()


def test_the_season_has_thirty_teams_with_stats(season):
    assert len(season) == 30
    assert sum(t.league == "AL" for t in season.values()) == 14
    for name, team in season.items():
        assert name.endswith("2004")
        assert team.stats["games"] > 150 and team.stats["runs"] > 0, name


@pytest.mark.parametrize("name", ["bos2004", "sln2004"])
def test_league_pool_is_the_rest_of_the_league_by_batters_faced(season, name):
    pool = cal.league_pool(name, season)
    league = season[name].league
    assert pool.league == league
    others = [n for n, t in season.items() if t.league == league and n != name]
    assert {team for team, _, _ in pool.entries} == set(others)
    assert name not in {team for team, _, _ in pool.entries}
    # every pitcher of every other team in the league, weighted by his real batters faced
    expected = [(n, k, c.fit["bf"]) for n in sorted(others)
                for k, c in enumerate(season[n].players) if isinstance(c, PitcherCard)]
    assert list(pool.entries) == expected
    assert pool.cum_weights[-1] == sum(bf for _, _, bf in expected)
    # draws follow the weights (roughly) and never leave the pool
    rng = random.Random(0)
    draws = [pool.draw(rng) for _ in range(20_000)]
    assert {opp for opp, _ in draws} <= set(others)
    heavy = max(pool.entries, key=lambda e: e[2])
    share = sum(d == heavy[:2] for d in draws) / len(draws)
    assert math.isclose(share, heavy[2] / pool.cum_weights[-1], abs_tol=0.005)


def _reliever(team):
    return next(k for k, c in enumerate(team.players)
                if isinstance(c, PitcherCard) and c.role != "starter")


def _starters(team):
    return [k for k, c in enumerate(team.players)
            if isinstance(c, PitcherCard) and c.role == "starter"]


@pytest.mark.parametrize("away,home,dh", [("bos2004", "nya2004", True),
                                          ("sln2004", "chn2004", False)])
def test_the_drawn_pitcher_pitches_the_whole_game(season, away, home, dh):
    a, h = season[away], season[home]
    k = _reliever(h)                       # a reliever: not a legal basic-game starter
    x = _starters(a)[2]
    state = cal.setup_game(a, h, k, x, dice_seed=11, dh=dh)
    rules.run(state)
    assert state.pending is None and state.board.over
    assert state.pitcher[1] == k and state.starter[1] == k
    assert state.dh is dh
    # the box score: the drawn pitcher is the home team's only pitcher and faced every
    # away batter
    (line,) = state.box.pitching[1]
    assert line.name == h.players[k].name
    away_pa = sum(b.pa for b in state.box.lines[0])
    assert line.bf == away_pa and line.outs >= 27
    assert line.r == sum(state.board.line[0])
    # and the away team's starter is the one chosen
    (away_line,) = state.box.pitching[0]
    assert away_line.name == a.players[x].name
    if not dh:   # NL rules: the pitchers bat in their teams' pitcher spots
        assert state.lineup[1][state.pitcher_slot[1]] == k
        assert state.lineup[0][state.pitcher_slot[0]] == x
    else:
        assert state.pitcher_slot == [-1, -1]
    assert cal.away_runs(state) == sum(state.board.line[0][:9])


def test_setting_the_starter_is_the_engines_own_choice(season):
    # For a starter, the patched choice plays the very same game as the legal action.
    a, h = season["nya2004"], season["bos2004"]
    k, x = _starters(h)[1], _starters(a)[0]
    patched = cal.setup_game(a, h, k, x, dice_seed=5, dh=True)
    rules.run(patched)
    legal = rules.new_game((a, h), Dice(5), level="basic", dh=True)
    rules.apply_action(legal, rules.PLAYER + x)
    rules.apply_action(legal, rules.PLAYER + k)
    assert legal.pending is None
    assert patched.board.line == legal.board.line
    assert patched.box.to_dict() == legal.box.to_dict()


def test_play_game_uses_the_drawn_pitcher(season):
    pool = cal.league_pool("sea2004", season)
    for game in range(5):
        runs, state, (opp, k) = cal.play_game("sea2004", game, 0, season, pool)
        assert state.teams[1] is season[opp]
        assert season[opp].league == "AL" and opp != "sea2004"
        assert state.pitcher[1] == k
        assert [p.name for p in state.box.pitching[1]] == [season[opp].players[k].name]
        assert runs == sum(state.board.line[0][:9])
        assert state.dh


def test_game_seeds_are_fixed_and_distinct():
    assert cal.game_seeds(0, "bos2004", 0) == cal.game_seeds(0, "bos2004", 0)
    seeds = {cal.game_seeds(s, t, g) for s in (0, 1) for t in ("bos2004", "sea2004")
             for g in range(50)}
    assert len(seeds) == 200
    assert all(0 <= d < 2 ** 63 and 0 <= r < 2 ** 63 for d, r in seeds)


def test_small_run_prints_the_table_and_the_correlation(capsys, tmp_path):
    out = tmp_path / "cal.json"
    figures = cal.main(SMALL + ["--json", str(out)])
    printed = capsys.readouterr().out
    for text in ("bos2004", "sln2004", "actual R/G", "sim R/9", "95% interval",
                 "Pearson correlation", "mean absolute difference"):
        assert text in printed, text
    teams = figures["teams"]
    assert [t["team"] for t in teams] == ["bos2004", "sln2004"]
    assert [t["league"] for t in teams] == ["AL", "NL"]
    for t in teams:
        assert t["games"] == 20
        assert sum(t["runs_histogram"]) == 20
        mean = sum(r * n for r, n in enumerate(t["runs_histogram"])) / 20
        assert math.isclose(mean, t["simulated_runs_per_9"])
        assert t["actual_runs_per_game"] == t["actual_runs"] / t["actual_games"]
        assert math.isclose(t["difference"], t["simulated_runs_per_9"] - t["actual_runs_per_game"])
        low, high = t["interval_95"]
        assert low < t["simulated_runs_per_9"] < high
    assert figures["teams"][0]["actual_runs_per_game"] == pytest.approx(949 / 162)
    summary = figures["summary"]
    assert summary["teams"] == 2 and summary["games"] == 40
    assert summary["correlation"] in (pytest.approx(1.0), pytest.approx(-1.0))
    assert summary["mean_absolute_error"] >= abs(summary["mean_difference"])
    assert json.loads(out.read_text(encoding="utf-8")) == figures


def test_results_do_not_depend_on_workers(capsys):
    one = cal.main(SMALL + ["--workers", "1"])
    two = cal.main(SMALL + ["--workers", "2"])
    capsys.readouterr()
    assert one["teams"] == two["teams"]
    assert one["summary"] == two["summary"]
    # a team's games do not depend on which other teams are in the run
    alone = cal.main(["--teams", "sln2004", "--games", "20", "--seed", "3"])
    capsys.readouterr()
    assert alone["teams"][0] == one["teams"][1]
    other_seed = cal.main(["--teams", "sln2004", "--games", "20", "--seed", "4"])
    capsys.readouterr()
    assert other_seed["teams"][0]["runs_histogram"] != alone["teams"][0]["runs_histogram"]


def test_default_size_reaches_the_half_width(monkeypatch, capsys):
    # with a loose target the pilot may already be enough; the interval always meets it
    monkeypatch.setattr(cal, "PILOT", 50)
    monkeypatch.setattr(cal, "MIN_STEP", 10)
    figures = cal.main(["--teams", "tba2004", "--half-width", "0.5"])
    capsys.readouterr()
    (team,) = figures["teams"]
    assert team["half_width_95"] <= 0.5
    assert team["games"] >= 50
    assert team["games"] >= cal.games_needed(team["sd"], 0.5)


def test_bad_options_are_refused(capsys):
    with pytest.raises(SystemExit):
        cal.main(["--teams", "bos1999"])
    with pytest.raises(SystemExit):
        cal.main(["--games", "1"])
    assert "unknown team" in capsys.readouterr().err
