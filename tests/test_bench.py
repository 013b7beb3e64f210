"""Smoke tests of the benchmark, ``python -m dugout.evaluate.bench``.

They check that a tiny run completes and reports sensible figures. Speed itself is never
asserted: it depends on the machine.
"""

from __future__ import annotations

import importlib
import json
import math
import sys

from dugout.evaluate import bench

RATES = ("decisions_per_s", "plate_appearances_per_s", "games_per_s")


def _classic_installed() -> bool:
    """Whether PettingZoo's classic envs import here (checked apart from the benchmark)."""
    try:
        importlib.import_module("pettingzoo.classic.tictactoe.tictactoe")
        importlib.import_module("pettingzoo.classic.rlcard_envs.texas_holdem")
    except ImportError:
        return False
    return True


def _positive(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0


DUGOUT = ("thats_baseball_v0", "thats_baseball_engine", "grand_slam_v0", "grand_slam_engine")


def _check_dugout_figures(results: dict) -> None:
    for key in DUGOUT:
        figures = results[key]
        assert figures["games"] == 3
        for name in ("decisions", "plate_appearances", "seconds") + RATES:
            assert _positive(figures[name]), (key, name, figures[name])
    # Same seeds, same picker: the AEC env and the engine play the very same games.
    aec, engine = results["thats_baseball_v0"], results["thats_baseball_engine"]
    assert aec["decisions"] == engine["decisions"]
    assert aec["plate_appearances"] == engine["plate_appearances"]
    # Nine innings a side, three outs an inning: at least 51 plate appearances a game.
    assert aec["plate_appearances"] >= 3 * 51
    gs, gs_engine = results["grand_slam_v0"], results["grand_slam_engine"]
    assert gs["decisions"] == gs_engine["decisions"]
    assert gs["plate_appearances"] == gs_engine["plate_appearances"]
    # a double play makes two outs, but the runner doubled up came to the plate too
    assert gs["plate_appearances"] >= 3 * 51


def test_small_run_reports_all_figures(capsys, tmp_path):
    out_file = tmp_path / "bench.json"
    figures = bench.main(["--games", "3", "--seed", "7", "--json", str(out_file)])
    printed = capsys.readouterr().out

    for name in ("thats_baseball_v0", "grand_slam_v0", "tictactoe_v3", "texas_holdem_v4"):
        assert name in printed
    _check_dugout_figures(figures["results"])

    if _classic_installed():
        assert figures["comparison_missing"] is None
        assert set(figures["ratios"]) == {"tictactoe_v3", "texas_holdem_v4"}
        assert set(figures["grand_slam_ratios"]) == {"tictactoe_v3", "texas_holdem_v4"}
        for key, ratio in figures["grand_slam_ratios"].items():
            assert _positive(ratio), key
            # the ratio is grand_slam_v0's decision rate over the peer's, from the same run
            gs_rate = figures["results"]["grand_slam_v0"]["decisions_per_s"]
            assert math.isclose(ratio, gs_rate / figures["results"][key]["decisions_per_s"])
        assert "grand_slam_v0 decisions/s:" in printed
        for key, ratio in figures["ratios"].items():
            assert _positive(ratio), key
            peer = figures["results"][key]
            assert peer["plate_appearances"] is None
            for name in ("games", "decisions", "seconds", "decisions_per_s", "games_per_s"):
                assert _positive(peer[name]), (key, name)
            # with --games, each peer plays at least as many decisions as each dugout AEC run
            assert peer["decisions"] >= figures["results"]["thats_baseball_v0"]["decisions"]
            assert peer["decisions"] >= figures["results"]["grand_slam_v0"]["decisions"]
            assert f"x {key}" in printed
    else:
        assert "pip install -e .[bench]" in printed
        assert figures["ratios"] == {} and figures["grand_slam_ratios"] == {}

    assert json.loads(out_file.read_text(encoding="utf-8")) == figures


def test_without_classic_envs_dugout_figures_still_print(capsys, monkeypatch):
    # A None entry in sys.modules makes an import of that module fail with ImportError;
    # the submodules an earlier test imported are blocked too.
    for name in [m for m in sys.modules if m.startswith("pettingzoo.classic.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "pettingzoo.classic", None)
    figures = bench.main(["--games", "3"])
    printed = capsys.readouterr().out

    assert "pip install -e .[bench]" in printed
    for name in ("thats_baseball_v0", "grand_slam_v0", "tictactoe_v3", "texas_holdem_v4"):
        assert name in printed
    assert figures["ratios"] == {} and figures["grand_slam_ratios"] == {}
    assert set(figures["results"]) == set(DUGOUT)
    _check_dugout_figures(figures["results"])


def test_seconds_option_runs_by_time(capsys):
    figures = bench.main(["--seconds", "0.05"])
    capsys.readouterr()
    assert figures["settings"]["games"] is None
    for key, result in figures["results"].items():
        assert result["games"] >= 1, key
        assert _positive(result["decisions_per_s"]), key
