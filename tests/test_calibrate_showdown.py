"""Tests of the MLB Showdown calibration, ``python -m dugout.studies.calibrate_showdown``.

A tiny run completes and prints its table; results do not depend on the number of
workers; the pitcher drawn from the league pool is the one who pitches; the pool is the
team's own league without the team itself; the basic level's figures are the ones it
always gave. At the advanced and expert levels the games are played through the engine
with the heuristic deciding for both sides, against every other team of the league in
balanced blocks, reproducibly and whatever the workers; ``--level`` is checked and
``--plot`` draws its file.

The managers' value tables are sampled small here (``TABLE_OPTIONS``) to keep the tests
fast; the sampling is the same code at any size.
"""

from __future__ import annotations

import json
import math
import random

import pytest

from dugout.envs.core.dice import Dice
from dugout.envs.showdown import rules
from dugout.agents.showdown import ShowdownHeuristic
from dugout.envs.showdown.cards import PitcherCard
from dugout.studies import calibrate_showdown as cal

SMALL = ["--teams", "bos2004", "sln2004", "--games", "20", "--seed", "3"]
ICON_KINDS = {"strikeout", "reroll_out", "silver_slugger", "home_run_icon", "stolen_base",
              "gold_glove", "relief_ace", "twenty_game"}


@pytest.fixture(autouse=True, scope="module")
def _small_tables():
    """Value tables from a few hundred half innings each (a fraction of a second)."""
    mp = pytest.MonkeyPatch()
    mp.setattr(cal, "TABLE_OPTIONS", {"half_innings": 150, "min_visits": 8})
    yield
    mp.undo()


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
    out = tmp_path / "figures" / "cal.json"                    # the run makes its folder
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


def test_bad_options_are_refused(capsys, tmp_path):
    with pytest.raises(SystemExit):
        cal.main(["--teams", "bos1999"])
    assert "unknown team" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cal.main(["--games", "1"])
    assert "--games: must be a whole number from 2 to 200000" in capsys.readouterr().err
    # --plot: a folder that cannot be made (a file on its way) or is a folder, a format
    # matplotlib does not draw; all refused before any game
    (tmp_path / "a-file").write_text("")
    with pytest.raises(SystemExit):
        cal.main(["--plot", str(tmp_path / "a-file" / "cal.png")])
    assert "is a file, not a folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cal.main(["--plot", str(tmp_path)])
    assert "is a folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cal.main(["--plot", str(tmp_path / "cal.xyz")])
    assert "matplotlib draws no 'xyz' files" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


# -- the basic level: the figures it always gave ----------------------------------------------
def test_the_basic_figures_are_unchanged(capsys):
    """The basic level (the default, or --level basic) plays the very games it played before
    the other levels came: these figures were taken from the code before ``--level``."""
    for argv in (SMALL, SMALL + ["--level", "basic"]):
        figures = cal.main(argv)
        capsys.readouterr()
        assert figures["settings"]["level"] == "basic"
        bos, sln = figures["teams"]
        assert bos["runs_histogram"] == [2, 0, 3, 7, 1, 0, 1, 2, 0, 2, 2]
        assert sln["runs_histogram"] == [0, 3, 1, 5, 2, 2, 4, 0, 1, 2]
        assert bos["simulated_runs_per_9"] == pytest.approx(4.45)
        assert bos["sd"] == pytest.approx(3.1701734968294715)
        assert sln["simulated_runs_per_9"] == pytest.approx(4.4)
        assert sln["sd"] == pytest.approx(2.479388719231543)
        assert "level" not in bos and "decisions" not in bos     # the same keys as before
        summary = figures["summary"]
        assert summary["mean_difference"] == pytest.approx(-1.1429012345679008)
        assert summary["mean_absolute_error"] == pytest.approx(1.1429012345679008)
        assert summary["rmse"] == pytest.approx(1.1732491974500456)
    # game by game, as simulate_team played them
    assert cal.simulate_team("sea2004", 7, games=15).runs == [
        4, 4, 0, 5, 6, 2, 6, 6, 0, 6, 7, 2, 2, 3, 0]
    assert cal.simulate_team("nyn2004", 7, games=15, level="basic").runs == [
        0, 4, 12, 0, 1, 3, 0, 1, 0, 4, 3, 2, 0, 2, 4]


# -- the level option ---------------------------------------------------------------------------
def test_the_level_option_is_checked(capsys):
    with pytest.raises(SystemExit):
        cal.main(["--teams", "bos2004", "--games", "4", "--level", "pro"])
    err = capsys.readouterr().err
    assert "--level" in err and "invalid choice" in err and "'pro'" in err
    for level in ("basic", "advanced", "expert"):
        assert level in err                     # the choices are named
    with pytest.raises(ValueError, match="level must be one of basic, advanced, expert"):
        cal.simulate_team("bos2004", 0, games=2, level="Expert")
    with pytest.raises(ValueError, match="level must be one of advanced, expert"):
        cal.managed_tables("bos2004", "basic", cal.load_season())


# -- the advanced and expert levels ------------------------------------------------------------
class Recorder:
    """A manager that lets the heuristic decide and notes each decision it was asked."""

    def __init__(self, inner, seat, log):
        self.inner, self.seat, self.log = inner, seat, log

    def act(self, observation, view):
        assert view.seat == self.seat and view.decision is not None
        action = self.inner.act(observation, view)           # refuses an illegal action
        self.log.append((self.seat, view.decision, view.half, action))
        return action


def _managers(name, level, season, log):
    tables = cal.managed_tables(name, level, season)
    return [Recorder(ShowdownHeuristic(tables=tables), seat, log) for seat in (0, 1)]


@pytest.mark.parametrize("name,level", [("bos2004", "advanced"), ("sln2004", "expert")])
def test_managed_games_are_played_by_both_managers(season, name, level):
    opponents = cal.league_opponents(name, season)
    log: list = []
    managers = _managers(name, level, season, log)
    kinds = set()
    for game in range(3):
        log.clear()
        runs, state, opp = cal.play_managed_game(name, game, 0, level, season, opponents,
                                                 managers)
        assert state.step == "over" and state.pending is None and state.board.over
        assert state.level == level and state.dh is (season[name].league == "AL")
        assert state.teams[0] is season[name] and state.teams[1] is season[opp]
        assert opp in opponents and season[opp].league == season[name].league
        assert runs == cal.away_runs(state) == sum(state.board.line[0][:9])
        # both managers decided, each only when it was its turn: the batting team on the
        # offense's choices, the fielding team on the defense's
        assert {seat for seat, *_ in log} == {0, 1}
        for seat, kind, half, _ in log:
            if kind in ("pinch_hitter", "send_runners", "sacrifice_bunt", "pinch_runner"):
                assert seat == half, (kind, seat, half)
            if kind in ("pitching_change", "throw_at", "intentional_walk", "double_play"):
                assert seat == 1 - half, (kind, seat, half)
        kinds |= {kind for _, kind, *_ in log}
        # the starters come from one rotation spot, the engine's roll
        spots = [season[t].rotation.index(state.card(i, state.starter[i]).key)
                 for i, t in enumerate((name, opp))]
        assert spots[0] == spots[1]
        assert state.box.pitching[1][0].name == season[opp].players[state.starter[1]].name
    assert "pitching_change" in kinds and "pinch_hitter" in kinds
    if level == "expert":
        assert not kinds & ICON_KINDS
        assert {"intentional_walk", "sacrifice_bunt"} <= kinds
    else:
        assert not kinds & set(rules.EXPERT_KINDS)


def test_the_tables_are_the_teams_own_with_it_away(season):
    """Both managers read the tables of X (away, as in the game) against X's reference
    opponent: the other team of the league closest to the league's average runs scored
    and allowed."""
    for name in ("bos2004", "sln2004"):
        ref = cal.table_opponent(name, season)
        others = cal.league_opponents(name, season)
        assert ref in others and ref != name

        def distance(o):
            r = [season[t].stats["runs"] / season[t].stats["games"] for t in others]
            ra = [season[t].stats["runs_allowed"] / season[t].stats["games"] for t in others]
            team = season[o].stats
            return ((team["runs"] / team["games"] - sum(r) / len(r)) ** 2
                    + (team["runs_allowed"] / team["games"] - sum(ra) / len(ra)) ** 2)

        assert distance(ref) == min(distance(o) for o in others)
        for level in cal.MANAGED_LEVELS:
            tables = cal.managed_tables(name, level, season)
            assert tables.inputs["names"] == [season[name].name, season[ref].name]
            assert tables.inputs["level"] == level


def test_opponents_come_in_balanced_blocks(season):
    others = cal.league_opponents("sea2004", season)
    assert len(others) == 13 and "sea2004" not in others
    assert {season[o].league for o in others} == {"AL"}
    games = [cal.opponent_of("sea2004", g, 5, "expert", others) for g in range(3 * 13)]
    for block in range(3):
        assert sorted(games[13 * block:13 * (block + 1)]) == sorted(others)
    assert games[:13] != games[13:26]                       # shuffled anew each block
    assert games == [cal.opponent_of("sea2004", g, 5, "expert", others) for g in range(39)]
    assert games != [cal.opponent_of("sea2004", g, 6, "expert", others) for g in range(39)]
    assert len(cal.league_opponents("sln2004", season)) == 15


def test_a_managed_game_is_reproducible(season):
    name, level = "mon2004", "expert"
    opponents = cal.league_opponents(name, season)
    first = cal.play_managed_game(name, 4, 9, level, season, opponents,
                                  _managers(name, level, season, []))
    again = cal.play_managed_game(name, 4, 9, level, season, opponents,
                                  _managers(name, level, season, []))
    assert first[0] == again[0] and first[2] == again[2]
    assert first[1].box.to_dict() == again[1].box.to_dict()
    assert first[1].board.line == again[1].board.line
    assert cal.game_seeds(9, name, 4, level) != cal.game_seeds(9, name, 4)      # not basic's
    assert cal.game_seeds(9, name, 4, "advanced") != cal.game_seeds(9, name, 4, level)


@pytest.mark.parametrize("level", cal.MANAGED_LEVELS)
def test_managed_results_do_not_depend_on_workers(capsys, level):
    small = ["--teams", "bos2004", "sln2004", "--games", "8", "--seed", "2", "--level", level]
    one = cal.main(small + ["--workers", "1"])
    two = cal.main(small + ["--workers", "2"])
    printed = capsys.readouterr().out
    assert f"{level} level:" in printed and "Pearson correlation" in printed
    assert one["teams"] == two["teams"] and one["summary"] == two["summary"]
    assert one["settings"]["level"] == level
    for team in one["teams"]:
        assert team["level"] == level and team["games"] == 8
        assert sum(team["opponents"].values()) == 8
        assert max(team["opponents"].values()) == 1            # 8 games: 8 opponents once
        assert team["table_opponent"] == cal.table_opponent(team["team"], cal.load_season())
        assert team["opponent_pitchers_per_game"] >= 1
        assert set(team["decisions"]) == {"team", "opponent"}
    alone = cal.main(["--teams", "sln2004", "--games", "8", "--seed", "2", "--level", level])
    capsys.readouterr()
    assert alone["teams"][0] == one["teams"][1]


def test_the_plot_is_written(capsys, tmp_path):
    path = tmp_path / "new folder" / "calibration.png"         # the run makes its folder
    figures = cal.main(["--teams", "bos2004", "sln2004", "sea2004", "--games", "6",
                        "--plot", str(path)])
    assert f"Plot written to {path}" in capsys.readouterr().out
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000
    assert figures["summary"]["teams"] == 3
    svg = tmp_path / "calibration.svg"
    results = [cal.simulate_team("tba2004", 1, games=4, level="advanced")]
    assert cal.plot_calibration(results, svg, "one team") == svg
    assert "<svg" in svg.read_text(encoding="utf-8")
