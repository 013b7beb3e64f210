"""Tournaments: seat balance, determinism across workers, statistics, SPRT, reports, errors."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

from dugout.evaluate import cli, report, stats
from dugout.evaluate.tournament import (TournamentError, crn_check, labels_for, play_pairs,
                                        run_tournament)

TB = "thats_baseball_v0"


def _without_timing(d):
    d = dict(d)
    for key in ("seconds", "games_per_second", "workers"):
        d.pop(key)
    return d


# -- the harness has no seat bias ----------------------------------------------------------------
@pytest.fixture(scope="module")
def random_vs_random():
    return run_tournament(TB, ["random", "random"], games=600, seed=11, bootstrap=200)


def test_random_against_itself_is_even_in_both_seat_orders(random_vs_random):
    m = random_vs_random.matchups[0].summary()
    assert (m["a"], m["b"]) == ("random", "random#2")
    assert m["a_score_low"] < 0.5 < m["a_score_high"]
    assert m["a_score_high"] - m["a_score_low"] < 0.15          # 300 pairs: a real interval
    # A away against B home, and B away against A home: the same seat wins as often
    a_away, b_away = m["a_away_win_rate"], 1 - m["a_home_win_rate"]
    lo_a, hi_a = m["a_away_wilson"]
    lo_b, hi_b = (1 - m["a_home_wilson"][1], 1 - m["a_home_wilson"][0])
    assert lo_a < b_away < hi_a and lo_b < a_away < hi_b
    # the two seat-swapped games of a pair are not mirror images (each manager keeps its own
    # random numbers in both seats), so pairs do not all split
    assert sum(p.score != 0.5 for p in random_vs_random.matchups[0].pairs) > 50


def test_home_advantage_is_reported_apart(random_vs_random):
    d = random_vs_random.to_dict()
    m = d["matchups"][0]
    pairs = random_vs_random.matchups[0].pairs
    home = sum(p.home_wins for p in pairs) / (2 * len(pairs))
    assert m["home_win_rate"] == pytest.approx(home)
    assert m["home_win_rate_low"] < home < m["home_win_rate_high"]
    assert d["home_advantage"]["home_win_rate"] == pytest.approx(home)
    assert d["home_advantage"]["games"] == 600
    # the home win rate is what separates the two seat rates, not the managers
    assert m["a_home_win_rate"] - m["a_away_win_rate"] == pytest.approx(2 * home - 1)
    assert "home advantage: the home team won" in report.home_line(d)


def test_pair_scores_count_both_games():
    (p,) = play_pairs(TB, "heuristic", "random", [5])
    assert p.a_wins + p.b_wins == 2
    assert p.score == p.a_wins / 2
    assert p.run_diff == pytest.approx(((p.a_away[0] - p.a_away[1]) + (p.a_home[1] - p.a_home[0])) / 2)


# -- determinism --------------------------------------------------------------------------------
def test_one_and_two_workers_give_identical_results():
    agents = ["random", "heuristic", "never-steal"]
    one = run_tournament(TB, agents, games=40, seed=3, workers=1, chunk=4, bootstrap=100)
    two = run_tournament(TB, agents, games=40, seed=3, workers=2, chunk=4, bootstrap=100)
    assert _without_timing(one.to_dict()) == _without_timing(two.to_dict())
    assert [m.pairs for m in one.matchups] == [m.pairs for m in two.matchups]


def test_sprt_stops_at_the_same_pair_for_any_number_of_workers():
    sprt = stats.SPRT.from_elo(0, 100, min_pairs=5)
    one = run_tournament(TB, ["heuristic", "random"], games=400, seed=1, workers=1, chunk=3, sprt=sprt,
                         bootstrap=50)
    two = run_tournament(TB, ["heuristic", "random"], games=400, seed=1, workers=2, chunk=3, sprt=sprt,
                         bootstrap=50)
    assert one.matchups[0].sprt == two.matchups[0].sprt
    assert one.matchups[0].pairs == two.matchups[0].pairs
    assert one.matchups[0].sprt.decision == "A better"
    assert one.matchups[0].n_pairs < 200                      # stopped early


def test_a_chunk_counts_once():
    """Whichever copy of a chunk arrives first counts (a Ray chunk may be played again when
    its worker dies); a second copy changes nothing."""
    from dugout.evaluate.backends import Inline
    from dugout.evaluate.tournament import _Runner, play_chunk
    runner = _Runner(TB, [("heuristic", "random")], 6, 0, Inline(), 3, None, {})
    first = play_chunk(TB, "heuristic", "random", [0, 1, 2])
    assert runner._accept(0, 0, first) is False and runner.games_done == 6
    assert runner._accept(0, 0, first) is False and runner.games_done == 6
    assert runner.records(0) == first
    assert runner._accept(0, 1, play_chunk(TB, "heuristic", "random", [3, 4, 5])) is True
    assert [p.seed for p in runner.records(0)] == list(range(6)) and runner.games_done == 12


def test_process_pool_and_chunk_size_change_nothing():
    agents = ["random", "heuristic"]
    one = run_tournament(TB, agents, games=24, seed=4, bootstrap=50)
    for workers, chunk in ((2, 5), (1, 1)):
        other = run_tournament(TB, agents, games=24, seed=4, workers=workers, chunk=chunk, bootstrap=50)
        assert _without_timing(one.to_dict()) == _without_timing(other.to_dict())
    assert one.workers == 1


def test_a_short_tournament_gives_every_worker_a_chunk():
    """With no chunk named, a matchup too short for 25 pairs a task on every worker is split
    among them (16 pairs on two workers: two tasks of 8, not one task and an idle worker),
    and the figures are the ones of any other chunk."""
    from dugout.evaluate.backends import Inline
    from dugout.evaluate.tournament import CHUNK, default_chunk
    assert (default_chunk(16, 2), default_chunk(100, 2), default_chunk(3, 4), CHUNK) == (8, 25, 1, 25)

    class Counted(Inline):              # plays inline, but counts as two workers, and notes the tasks
        slots = 2

        def __init__(self):
            self.tasks = []

        def run(self, fn, tasks, accept, describe=str):
            for key, args in tasks:
                self.tasks.append(list(args[3]))
                accept(key, fn(*args))

    counted = Counted()
    split = run_tournament(TB, ["random", "heuristic"], games=32, seed=5, backend=counted, bootstrap=20)
    assert counted.tasks == [list(range(5, 13)), list(range(13, 21))]
    whole = run_tournament(TB, ["random", "heuristic"], games=32, seed=5, chunk=25, bootstrap=20)
    assert [m.pairs for m in split.matchups] == [m.pairs for m in whole.matchups]


def test_a_process_pool_keeps_its_workers_until_it_is_closed():
    """A ProcessPool's workers serve every run (their envs, agents and caches built once)
    until close(), after which a run starts new ones."""
    import os
    from dugout.evaluate.backends import ProcessPool
    with ProcessPool(2) as pool:
        first = set(pool.map(os.getpid, [()] * 8))
        second = set(pool.map(os.getpid, [()] * 8))
        assert os.getpid() not in first and first & second, (first, second)
        pool.close()
        third = set(pool.map(os.getpid, [()] * 8))
        assert not third & (first | second), (first, second, third)


def test_a_process_pool_starts_afresh_after_a_run_that_failed(monkeypatch):
    """A task that raised (or a worker that died) ends the run with its error and stops the
    workers; the next run starts new ones and plays. A process that has loaded torch since
    the pool forked its workers starts new ones the other way (forkserver)."""
    import os
    from dugout.evaluate import backends
    with backends.ProcessPool(2) as pool:
        before = set(pool.map(os.getpid, [()] * 4))
        with pytest.raises(ValueError, match="invalid literal"):
            pool.map(int, [("7",), ("x",)])
        after = set(pool.map(os.getpid, [()] * 4))
        assert after and not after & before
        assert pool.map(int, [("7",)]) == [7]
        monkeypatch.setattr(backends, "start_method",
                            lambda: "fork" if pool._method == "forkserver" else "forkserver")
        other = set(pool.map(os.getpid, [()] * 4))
        assert other and not other & after


# -- where the games are played: --backend, --address --------------------------------------------
def test_the_ray_backend_without_ray_says_how_to_install_it(capsys):
    """The main venv holds no Ray (tests/test_imports.py): asking for it is a one-line error."""
    from dugout.evaluate.backends import BackendError, make_backend
    err = _fails(capsys, *_T, "--backend", "ray")
    assert "--backend ray needs Ray" in err and "pip install 'dugout-baseball[ray]'" in err
    err = _fails(capsys, "crn", "--agents", "random", "heuristic", "--backend", "ray")
    assert "pip install 'dugout-baseball[ray]'" in err
    with pytest.raises(TournamentError, match=r"pip install 'dugout-baseball\[ray\]'"):
        run_tournament(TB, ["random", "heuristic"], games=4, backend="ray")
    with pytest.raises(BackendError, match="needs Ray"):
        make_backend("ray")


def test_backend_flags_that_do_not_fit_are_named(capsys):
    err = _fails(capsys, *_T, "--address", "10.0.0.5:6379")
    assert "--address 10.0.0.5:6379" in err and "--backend ray" in err
    assert "--backend ray" in _fails(capsys, "crn", "--agents", "random", "heuristic",
                                     "--address", "auto")
    assert "invalid choice: 'dask'" in _fails(capsys, *_T, "--backend", "dask")
    assert "--checkpoints shared" in _fails(capsys, *_T, "--checkpoints", "shared")
    assert "--chunk: must be a whole number from 1" in _fails(capsys, *_T, "--chunk", "0")
    with pytest.raises(TournamentError, match="unknown backend 'dask'; known: process, ray"):
        run_tournament(TB, ["random", "heuristic"], games=4, backend="dask")
    with pytest.raises(TournamentError, match="needs the ray backend"):
        crn_check(TB, "random", "heuristic", 4, address="10.0.0.5:6379")


def test_a_backend_object_refuses_workers_and_address_alike():
    """A Backend object carries where the games are played: workers= beside it is refused as
    address= is, not silently ignored."""
    from dugout.evaluate.backends import Inline, ProcessPool
    for call in (lambda **kw: run_tournament(TB, ["random", "heuristic"], games=4, **kw),
                 lambda **kw: crn_check(TB, "random", "heuristic", 4, **kw)):
        with pytest.raises(TournamentError, match=r"workers=2: .*backend object"):
            call(backend=Inline(), workers=2)
        with pytest.raises(TournamentError, match=r"address='auto': .*backend object"):
            call(backend=ProcessPool(2), address="auto")
        with pytest.raises(TournamentError, match=r"workers=1 and address='auto'"):
            call(backend=Inline(), workers=1, address="auto")
    assert run_tournament(TB, ["random", "heuristic"], games=4, backend=Inline()).workers == 1


def test_the_calibration_names_its_backend_flags(capsys):
    from dugout.studies import calibrate_showdown as cal
    with pytest.raises(SystemExit):
        cal.main(["--teams", "bos2004", "--games", "4", "--address", "10.0.0.5:6379"])
    assert "--backend ray" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cal.main(["--teams", "bos2004", "--games", "4", "--backend", "ray"])
    assert "pip install 'dugout-baseball[ray]'" in capsys.readouterr().err


# -- statistics -----------------------------------------------------------------------------------
def test_wilson_interval_known_values():
    low, high = stats.wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert stats.wilson_interval(0, 10)[0] == 0.0 and stats.wilson_interval(10, 10)[1] == 1.0


def test_mean_interval_is_the_normal_interval():
    x = [0, 0.5, 1, 1, 0.5, 0.5]
    mean, low, high = stats.mean_interval(x)
    half = stats.Z95 * np.std(x, ddof=1) / math.sqrt(len(x))
    assert mean == pytest.approx(0.5833333) and high - mean == pytest.approx(half)
    assert low == pytest.approx(mean - half)


def test_bradley_terry_recovers_known_strengths():
    g = np.array([1.0, 2.0, 8.0])                # P(i beats j) = g_i / (g_i + g_j)
    n = 1000
    wins = n * g[:, None] / (g[:, None] + g[None, :])
    np.fill_diagonal(wins, 0)
    ratings = stats.bradley_terry(wins, prior=0.0, anchor=0)
    assert ratings == pytest.approx(400 * np.log10(g), abs=1e-6)
    # anchoring only shifts; the mean-centred fit has the same gaps
    centred = stats.bradley_terry(wins, prior=0.0)
    assert centred.mean() == pytest.approx(0.0, abs=1e-9)
    assert centred[2] - centred[0] == pytest.approx(ratings[2], abs=1e-6)
    # Elo scale: a 100-point gap is a 64% expected score
    assert stats.elo_to_score(100) == pytest.approx(0.6401, abs=1e-4)
    assert stats.score_to_elo(stats.elo_to_score(123.0)) == pytest.approx(123.0)


def test_bradley_terry_prior_keeps_a_clean_sweep_finite():
    wins = np.array([[0, 50], [0, 0]])
    ratings = stats.bradley_terry(wins)                    # one virtual draw
    assert np.all(np.isfinite(ratings)) and ratings[0] > ratings[1] + 500
    with pytest.raises(ValueError, match="no games"):
        stats.bradley_terry(np.zeros((2, 2)))


def test_bootstrap_interval_covers_the_truth_on_synthetic_pairs():
    rng = np.random.default_rng(0)
    p = stats.elo_to_score(150)                            # manager 1 is 150 Elo better
    wins_1 = rng.binomial(2, p, size=2000).astype(float)
    ratings, low, high = stats.bootstrap_ratings([(0, 1, 2 - wins_1, wins_1)], 2, samples=300,
                                                 seed=1, anchor=0)
    assert low[1] < 150 < high[1]
    assert high[1] - low[1] < 60
    assert low[0] == high[0] == 0.0                          # the anchor


def test_sprt_on_clear_and_equal_cases():
    rng = np.random.default_rng(4)
    sprt = stats.SPRT.from_elo(0, 30)
    strong = rng.binomial(2, 0.7, size=2000) / 2            # A clearly better
    result = sprt.run(strong)
    assert result.decision == "A better" and result.pairs < 300
    assert sprt.run(1 - strong).decision == "B better"
    # equal managers: a winner is named in about 2 alpha = 10% of runs (two one-sided tests);
    # 200 runs: sd 2.1 points, so 15% is a 2.4-sd margin
    named = sum(sprt.run(np.random.default_rng(seed).binomial(2, 0.5, size=3000) / 2).decision
                in ("A better", "B better") for seed in range(200))
    assert named <= 30
    # at exactly the H1 margin, A is shown better in about 1 - beta = 95% of runs
    p1 = stats.elo_to_score(30)
    found = sum(sprt.run(np.random.default_rng(seed).binomial(2, p1, size=6000) / 2).decision
                == "A better" for seed in range(100))
    assert found >= 88
    lower, upper = sprt.bounds
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))


def test_sprt_on_random_against_itself_names_no_winner():
    sprt = stats.SPRT.from_elo(0, 60)
    result = run_tournament(TB, ["random", "random"], games=600, seed=2, sprt=sprt, bootstrap=50)
    assert result.matchups[0].sprt.decision in ("neither better by the margin", "continue")
    assert "better (SPRT)" not in result.matchups[0].summary()["verdict"].replace("neither better", "")


def test_sprt_rejects_bad_margins():
    with pytest.raises(ValueError, match="p0 < p1"):
        stats.SPRT(0.6, 0.55)
    with pytest.raises(ValueError, match="alpha"):
        stats.SPRT(0.5, 0.55, alpha=0.7)


# -- common random numbers -----------------------------------------------------------------------
def test_crn_check_compares_same_seed_and_independent_dice():
    c = crn_check(TB, "heuristic", "never-steal", games=60, seed=0)
    for design in ("paired", "independent"):
        x = c[design]
        assert 0 <= x["low"] <= x["a_score"] <= x["high"] <= 1 and x["half_width"] >= 0
    assert c["width_ratio"] == pytest.approx(
        math.sqrt(c["paired"]["pair_variance"] / c["independent"]["pair_variance"]))
    (p,) = play_pairs(TB, "heuristic", "random", [4], independent=True)
    assert p.second_seed is not None and p.second_seed != p.seed


# -- reports -----------------------------------------------------------------------------------
def test_report_folder_has_json_csv_markdown_and_plots(tmp_path):
    result = run_tournament(TB, ["random", "heuristic", "never-steal"], games=20, seed=0, bootstrap=50)
    curve = tmp_path / "curve.png"
    curve.write_bytes(b"\x89PNG fake")
    folder = report.write_report(result, tmp_path / "r", {"crn": crn_check(TB, "heuristic", "random", 8)},
                                 learning_curve=curve)
    d = json.loads((folder / "results.json").read_text())
    assert d["labels"] == ["random", "heuristic", "never-steal"] and len(d["matchups"]) == 3
    assert [r["agent"] for r in d["ratings"]] == d["labels"] and d["rating_anchor"] == "random"
    rows = list(csv.DictReader(open(folder / "matchups.csv")))
    assert len(rows) == 3 and float(rows[0]["a_score"]) == pytest.approx(d["matchups"][0]["a_score"])
    assert len(list(csv.DictReader(open(folder / "pairs.csv")))) == 30
    assert len(list(csv.DictReader(open(folder / "ratings.csv")))) == 3
    md = (folder / "summary.md").read_text()
    assert "## Ratings" in md and "## Matchups" in md and "Common random numbers" in md
    for png in ("winrate_matrix.png", "ratings.png", "learning_curve.png"):
        assert (folder / png).stat().st_size > 0 and f"]({png})" in md
    assert (folder / "winrate_matrix.png").read_bytes()[:4] == b"\x89PNG"


def test_labels_tell_repeats_and_checkpoints_apart():
    assert labels_for(["random", "random", "heuristic"]) == ["random", "random#2", "heuristic"]
    assert labels_for(["ppo:runs/a/model"]) == ["ppo:a"]
    assert labels_for(["ppo:x/a/model", "ppo:y/a/model"]) == ["ppo:x/a/model", "ppo:y/a/model"]


# -- the command line ------------------------------------------------------------------------------
def test_command_line_tournament_prints_tables_and_writes_report(tmp_path, capsys):
    result = cli.main(["tournament", "--env", TB, "--agents", "random", "heuristic", "--games", "8",
                       "--out", str(tmp_path / "cli"), "--bootstrap", "20"])
    out = capsys.readouterr().out
    assert "Elo (Bradley-Terry)" in out and "A score" in out and "home advantage" in out
    assert result.games == 8 and (tmp_path / "cli" / "summary.md").exists()


def test_command_line_sprt_options(capsys):
    result = cli.main(["tournament", "--agents", "heuristic", "random", "--games", "600", "--sprt",
                       "--p0", "0.5", "--p1", "0.6", "--quiet", "--bootstrap", "20"])
    assert result.sprt.mu1 == 0.6 and result.matchups[0].sprt.decision == "A better"


@pytest.mark.parametrize("env_id", [TB, "grand_slam_v0"])
def test_replay_prints_box_score_and_play_by_play(env_id, capsys):
    text = cli.main(["replay", "--env", env_id, "--seed", "7", "--agents", "random", "heuristic"])
    assert capsys.readouterr().out.strip() == text.strip()
    assert "seed 7: random (away) at heuristic (home)" in text
    assert "R  H  E" in text and "1st." in text
    assert text == cli.replay(env_id, 7, "random", "heuristic")          # the same game again


def _fails(capsys, *argv) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(list(argv))
    assert exit_info.value.code == 2
    return capsys.readouterr().err


def test_bad_input_fails_clearly(tmp_path, capsys):
    assert "unknown environment 'chess_v0'" in _fails(
        capsys, "tournament", "--env", "chess_v0", "--agents", "random", "heuristic")
    assert "unknown agent 'genius' for thats_baseball_v0" in _fails(
        capsys, "tournament", "--agents", "random", "genius")
    missing = tmp_path / "nowhere"
    assert f"no checkpoint at '{missing}'" in _fails(
        capsys, "tournament", "--agents", "random", f"ppo:{missing}")
    other = tmp_path / "gs_model"                    # a checkpoint made for Grand Slam
    other.mkdir()
    (other / "model.zip").write_bytes(b"")
    (other / "meta.json").write_text(json.dumps({"env_id": "grand_slam_v0", "obs_size": 1,
                                                 "n_actions": 20}))
    assert "was trained on grand_slam_v0, not thats_baseball_v0" in _fails(
        capsys, "tournament", "--agents", "random", f"ppo:{other}")
    assert "--games: must be an even number from 4" in _fails(
        capsys, "tournament", "--agents", "random", "heuristic", "--games", "0")
    assert "even number" in _fails(capsys, "tournament", "--agents", "random", "heuristic", "--games", "7")
    assert "unknown agent 'genius'" in _fails(capsys, "replay", "--seed", "1", "--agents", "genius", "random")
    assert "add --sprt" in _fails(capsys, "tournament", "--agents", "random", "heuristic", "--elo1", "5")
    with pytest.raises(TournamentError, match="at least two agents"):
        run_tournament(TB, ["random"], games=10)
    with pytest.raises(TournamentError, match="even number"):
        run_tournament(TB, ["random", "heuristic"], games=0)


_T = ("tournament", "--agents", "random", "heuristic", "--games", "4")


@pytest.mark.parametrize("argv, flag", [
    (_T + ("--seed", "-1"), "--seed"),
    (_T[:-1] + ("7",), "--games"),
    (_T[:-1] + ("2",), "--games"),
    (_T + ("--workers", "0"), "--workers"),
    (_T + ("--bootstrap", "0"), "--bootstrap"),
    (_T + ("--bootstrap", "-1"), "--bootstrap"),
    (_T + ("--crn-check", "3"), "--crn-check"),
    (_T + ("--crn-check", "-2"), "--crn-check"),
    (_T + ("--sprt", "--alpha", "0"), "--alpha"),
    (_T + ("--sprt", "--beta", "1.5"), "--beta"),
    (_T + ("--sprt", "--p0", "0.5", "--p1", "1"), "--p1"),
    (_T + ("--learning-curve", "no-such-curve.png"), "--learning-curve"),
    (("replay", "--seed", "-1", "--agents", "random", "heuristic"), "--seed"),
    (("crn", "--agents", "random", "heuristic", "--workers", "0"), "--workers"),
    (("crn", "--agents", "random", "heuristic", "--games", "5"), "--games"),
    (("crn", "--agents", "random", "heuristic", "--seed", "-3"), "--seed"),
])
def test_each_bad_flag_is_one_line_naming_it_before_any_game(argv, flag, capsys, monkeypatch):
    """Exit status 2 and one line of error that names the flag, with no game played."""
    def no_games(*args, **kwargs):
        raise AssertionError("a game was played before the flags were checked")
    monkeypatch.setattr("dugout.agents.play.play_game", no_games)
    monkeypatch.setattr("dugout.evaluate.tournament._play_pairs", no_games)
    err = _fails(capsys, *argv)
    last = err.strip().splitlines()[-1]
    assert flag in last and "Traceback" not in err, err


@pytest.mark.parametrize("where", ["file", "under_file"])
def test_out_that_cannot_be_a_folder_fails_before_any_game(where, tmp_path, capsys, monkeypatch):
    blocker = tmp_path / "report.txt"
    blocker.write_text("not a folder")
    out = blocker if where == "file" else blocker / "sub" / "dir"
    monkeypatch.setattr("dugout.evaluate.tournament._play_pairs",
                        lambda *a, **k: pytest.fail("played before checking --out"))
    err = _fails(capsys, *_T, "--out", str(out))
    assert "--out" in err.strip().splitlines()[-1] and "is a file" in err


# -- the rules: --env-option and --teams ---------------------------------------------------------
_GS = ("tournament", "--env", "grand_slam_v0", "--agents", "random", "heuristic", "--games", "4")


@pytest.mark.parametrize("argv, flag, says", [
    (_T + ("--env-option", "innings"), "--env-option", "expected KEY=VALUE"),
    (_T + ("--env-option", "=7"), "--env-option", "expected KEY=VALUE"),
    (_T + ("--env-option", "colour=red"), "--env-option", "has no option 'colour'"),
    (_T + ("--env-option", "innings=12"), "--env-option", "innings must be an int from 1 to 9"),
    (_T + ("--env-option", "innings=seven"), "--env-option", "innings must be an int"),
    (_T + ("--env-option", "innings=3", "--env-option", "innings=4"), "--env-option", "given twice"),
    (_GS + ("--teams", "sample", "reds"), "--teams", "grand_slam_v0 has no teams"),
    (_T + ("--teams", "sample", "reds", "--env-option", 'teams=["sample", "reds"]'), "--teams",
     "give one"),
    (_T + ("--teams", "sample", "no-such-team"), "--teams", "no-such-team"),
    (_T + ("--env-option", "render_mode=human"), "--env-option", "cannot be given"),
    (_T + ("--env-option", "illegal_action=raise"), "--env-option", "cannot be given"),
    (_T + ("--env-option", "dice=null"), "--env-option", "cannot be given"),
    (("tournament", "--env", "showdown_v0", "--agents", "random", "heuristic", "--games", "4",
      "--env-option", "level=pro"), "--env-option", "level must be one of"),
    (("tournament", "--env", "showdown_v0", "--agents", "random", "heuristic", "--games", "4",
      "--env-option", "level=advanced", "--env-option", "decks=default"), "--env-option",
     "level='expert'"),
    (("replay", "--seed", "1", "--agents", "random", "random", "--teams", "sample"), "--teams", ""),
    (("replay", "--seed", "1", "--agents", "random", "random", "--env-option", "max_innings=2"),
     "--env-option", "max_innings"),
    (("replay", "--seed", "1", "--agents", "random", "random", "--gif", "x.gif", "--fps", "0"),
     "--fps", ""),
    (("replay", "--seed", "1", "--agents", "random", "random", "--gif", "."), "--gif", "is a folder"),
    (("crn", "--agents", "random", "heuristic", "--env-option", "deck=reference"), "--env-option",
     "has no option 'deck'"),
    (("crn", "--env", "grand_slam_v0", "--agents", "random", "heuristic", "--teams", "a", "b"),
     "--teams", "no teams"),
])
def test_each_bad_rule_is_one_line_naming_the_flag_before_any_game(argv, flag, says, capsys,
                                                                    monkeypatch):
    """--env-option and --teams are checked by the env itself, once, before any game."""
    def no_games(*args, **kwargs):
        raise AssertionError("a game was played before the flags were checked")
    monkeypatch.setattr("dugout.agents.play.play_game", no_games)
    monkeypatch.setattr("dugout.evaluate.tournament._play_pairs", no_games)
    monkeypatch.setattr("dugout.evaluate.cli.play_game", no_games)
    err = _fails(capsys, *argv)
    last = err.strip().splitlines()[-1]
    assert flag in last and says in last and "Traceback" not in err, err


def test_a_bad_rule_leaves_no_report_folder(tmp_path, capsys):
    err = _fails(capsys, *_T, "--env-option", "innings=0", "--out", str(tmp_path / "r"))
    assert "--env-option" in err and not (tmp_path / "r").exists()


def test_env_option_values_are_json_when_they_parse_else_strings():
    from dugout.envs.options import parse_env_option
    assert parse_env_option("innings=7") == ("innings", 7)
    assert parse_env_option("dh=true") == ("dh", True)
    assert parse_env_option("max_innings=null") == ("max_innings", None)
    assert parse_env_option('teams=["sample", "reds"]') == ("teams", ["sample", "reds"])
    assert parse_env_option("level=basic") == ("level", "basic")
    assert parse_env_option('point_cap="5000"') == ("point_cap", "5000")
    assert parse_env_option("deck=a=b.json") == ("deck", "a=b.json")     # the first = splits
    assert parse_env_option("level=") == ("level", "")


def test_python_api_refuses_reserved_and_unknown_options():
    with pytest.raises(TournamentError, match="render_mode: the harness sets it"):
        run_tournament(TB, ["random", "heuristic"], games=4, env_kwargs={"render_mode": "human"})
    with pytest.raises(TournamentError, match="has no option 'level'"):
        crn_check(TB, "random", "heuristic", 4, env_kwargs={"level": "basic"})


def _recording_pairs(monkeypatch):
    """Record the env every pair of games is played on."""
    import dugout.evaluate.tournament as t
    seen, real = [], t._play_pairs

    def record(env, a, b, seeds, independent=False):
        seen.append(env.unwrapped)
        return real(env, a, b, seeds, independent)
    monkeypatch.setattr(t, "_play_pairs", record)
    return seen


def test_tournament_on_showdown_plays_under_the_options_and_reports_them(tmp_path, capsys,
                                                                         monkeypatch):
    seen = _recording_pairs(monkeypatch)
    result = cli.main(["tournament", "--env", "showdown_v0", "--env-option", "level=basic",
                       "--teams", "sln2004", "bos2004", "--agents", "random", "heuristic",
                       "--games", "4", "--bootstrap", "10", "--out", str(tmp_path / "r")])
    out = capsys.readouterr().out
    assert 'level=basic, teams=["sln2004", "bos2004"]' in out
    assert result.games == 4 and seen
    for env in seen:                       # every game on the env built with the options
        assert env.level == "basic"
        assert [t.name for t in env.teams] == ["2004 St. Louis Cardinals", "2004 Boston Red Sox"]
    assert env.game is not None and env.game.level == "basic"
    options = {"level": "basic", "teams": ["sln2004", "bos2004"]}
    assert result.env_options == options and result.to_dict()["env_options"] == options
    assert json.loads((tmp_path / "r" / "results.json").read_text())["env_options"] == options
    md = (tmp_path / "r" / "summary.md").read_text()
    assert 'Rules: `showdown_v0` with `level=basic`, `teams=["sln2004", "bos2004"]`' in md


def test_tournament_without_options_says_default_rules(tmp_path, capsys):
    result = cli.main(["tournament", "--agents", "random", "heuristic", "--games", "4",
                       "--bootstrap", "10", "--out", str(tmp_path / "r"), "--quiet"])
    assert result.env_options == {}
    assert "Rules: `thats_baseball_v0` with its default options." in (
        tmp_path / "r" / "summary.md").read_text()


def test_replay_of_thats_baseball_with_teams(capsys):
    text = cli.main(["replay", "--seed", "3", "--agents", "random", "random",
                     "--teams", "reds", "sample", "--env-option", "innings=3"])
    assert 'thats_baseball_v0 (innings=3, teams=["reds", "sample"]), seed 3' in text
    assert "Reds" in text and "Sample" in text
    assert text == cli.replay(TB, 3, "random", "random", {"innings": 3, "teams": ["reds", "sample"]})
    assert text != cli.replay(TB, 3, "random", "random")


def test_crn_check_with_an_option(capsys, monkeypatch):
    seen = _recording_pairs(monkeypatch)
    result = cli.main(["crn", "--agents", "random", "random", "--games", "8",
                       "--env-option", "innings=3"])
    assert result["env_options"] == {"innings": 3}
    assert seen and all(env.innings == 3 for env in seen)
    assert "on thats_baseball_v0 (innings=3)" in capsys.readouterr().out


def _fake_checkpoint(folder, obs_size, n_actions=5):
    torch = pytest.importorskip("torch")
    from dugout.agents.policy import build_actor
    folder.mkdir()
    actor = build_actor(obs_size, [8], "Tanh", n_actions)
    torch.save(actor.state_dict(), folder / "policy.pt")
    (folder / "meta.json").write_text(json.dumps({
        "env_id": TB, "obs_size": obs_size, "n_actions": n_actions, "net_arch": [8],
        "activation": "Tanh", "env_options": {"teams": ["sample", "reds"]}}))
    return folder


def test_a_checkpoint_rewritten_in_place_is_loaded_again(tmp_path):
    """The agents a process keeps between runs are keyed by the checkpoint's content: one
    rewritten at the same path is played as it is now, not as it was first loaded."""
    torch = pytest.importorskip("torch")
    from dugout.envs.thats_baseball.env import OBS
    from dugout.evaluate import tournament
    torch.manual_seed(0)
    folder = _fake_checkpoint(tmp_path / "ckpt", OBS.size)
    name = f"ppo:{folder}"
    first = run_tournament(TB, ["heuristic", name], games=40, seed=2, bootstrap=20)
    loaded = tournament._agent(TB, name, "b")
    assert tournament._agent(TB, name, "b") is loaded              # unchanged: kept
    # another policy written over the same files
    torch.manual_seed(7)
    other = _fake_checkpoint(tmp_path / "other", OBS.size)
    weights = torch.load(other / "policy.pt")
    weights = {k: v * 5 for k, v in weights.items()}             # far from the first
    torch.save(weights, other / "policy.pt")
    reference = run_tournament(TB, ["heuristic", f"ppo:{other}"], games=40, seed=2, bootstrap=20)
    assert [m.pairs for m in reference.matchups] != [m.pairs for m in first.matchups]
    for file in ("policy.pt", "meta.json"):
        (folder / file).write_bytes((other / file).read_bytes())
    again = run_tournament(TB, ["heuristic", name], games=40, seed=2, bootstrap=20)
    assert tournament._agent(TB, name, "b") is not loaded
    assert [m.pairs for m in again.matchups] == [m.pairs for m in reference.matchups]


def test_a_trained_manager_must_fit_the_env_of_the_options(tmp_path, capsys):
    from dugout.envs.thats_baseball.env import OBS
    from dugout.evaluate.tournament import check_agents
    good = _fake_checkpoint(tmp_path / "good", OBS.size)
    check_agents(TB, [f"ppo:{good}"], {"teams": ["reds", "sample"]})      # other teams, same sizes
    bad = _fake_checkpoint(tmp_path / "bad", OBS.size + 1)
    from dugout.agents.policy import CheckpointError
    with pytest.raises(CheckpointError, match=f"observations of size {OBS.size + 1}"):
        check_agents(TB, [f"ppo:{bad}"], {"innings": 5})
    err = _fails(capsys, "tournament", "--agents", "random", f"ppo:{bad}", "--games", "4",
                 "--env-option", "innings=5")
    assert f"observations of size {OBS.size}" in err and "innings=5" in err


# -- replay --gif ---------------------------------------------------------------------------------
def test_replay_gif_draws_a_frame_after_the_reset_and_every_step(tmp_path, capsys, monkeypatch):
    """Against the contract of dugout.envs.core.picture.write_gif(frames, path, fps) -> Path
    and render_mode="rgb_array" (env.render() an HxWx3 uint8 array), both stood in for here."""
    import sys
    import types
    from dugout.envs.thats_baseball.env import ThatsBaseballEnv
    written = {}

    def write_gif(frames, path, fps=2.0):
        written.update(frames=list(frames), path=path, fps=fps)
        return tmp_path / "game.gif"
    fake = types.ModuleType("dugout.envs.core.picture")
    fake.write_gif = write_gif
    monkeypatch.setitem(sys.modules, "dugout.envs.core.picture", fake)
    import dugout.envs.core as core
    monkeypatch.setattr(core, "picture", fake, raising=False)
    modes = ThatsBaseballEnv.metadata["render_modes"]
    monkeypatch.setitem(ThatsBaseballEnv.metadata, "render_modes", [*modes, "rgb_array"])
    steps = []
    real_step = ThatsBaseballEnv.step

    def step(self, action):
        steps.append(action)
        return real_step(self, action)

    def render(self):
        assert self.render_mode == "rgb_array"
        return np.full((4, 6, 3), len(steps) % 256, np.uint8)
    monkeypatch.setattr(ThatsBaseballEnv, "step", step)
    monkeypatch.setattr(ThatsBaseballEnv, "render", render)
    text = cli.main(["replay", "--seed", "2", "--agents", "random", "random", "--env-option",
                     "innings=3", "--gif", str(tmp_path / "game.gif"), "--fps", "4"])
    assert written["fps"] == 4.0 and str(written["path"]) == str(tmp_path / "game.gif")
    frames = written["frames"]
    assert len(frames) == 1 + len(steps) and len(steps) > 10
    assert [int(f[0, 0, 0]) for f in frames] == [n % 256 for n in range(len(frames))]
    assert f"{len(frames)} frames drawn into {tmp_path / 'game.gif'}" in text
    # the game is the one replayed without drawing
    assert text.split("\n\n")[0] == cli.replay(TB, 2, "random", "random",
                                                {"innings": 3}).split("\n\n")[0]


def test_replay_gif_writes_a_gif_file(tmp_path, capsys):
    """The real thing, once dugout.envs.core.picture and render_mode="rgb_array" are there."""
    pytest.importorskip("dugout.envs.core.picture")
    from dugout.envs import spec
    if "rgb_array" not in spec(TB).env_class.metadata["render_modes"]:
        pytest.skip("thats_baseball_v0 has no render_mode='rgb_array' yet")
    path = tmp_path / "game.gif"
    text = cli.main(["replay", "--seed", "2", "--agents", "random", "random", "--teams", "reds",
                     "sample", "--env-option", "innings=1", "--gif", str(path), "--fps", "5"])
    assert path.read_bytes()[:4] == b"GIF8" and "frames drawn into" in text
    PIL = pytest.importorskip("PIL.Image")
    with PIL.open(path) as gif:
        assert gif.n_frames > 2 and gif.info["duration"] == 200


@pytest.mark.parametrize("name, one_thread", [
    ("pretrained", True),
    ("search:sims=2,rollout=ppo:{shipped}", True),
    ("random", False),
])
def test_a_manager_with_a_network_plays_on_one_torch_thread(name, one_thread, monkeypatch):
    """A tournament's worker that makes a manager deciding with a torch network (a shipped
    one, a search rolling out with one, ``ppo:PATH``) plays it on one thread: two workers on
    two cores each spinning two threads slowed a 4,000-game tournament about eightfold."""
    import torch
    from dugout.agents import pretrained
    from dugout.evaluate import tournament
    from pathlib import Path
    shipped = Path(pretrained.__file__).resolve().parent / "grand_slam"
    monkeypatch.setattr(tournament, "_AGENTS", {})
    before = torch.get_num_threads()
    torch.set_num_threads(3)
    try:
        tournament._agent("grand_slam_v0", name.format(shipped=shipped), "a")
        assert (torch.get_num_threads() == 1) == one_thread
    finally:
        torch.set_num_threads(before)
