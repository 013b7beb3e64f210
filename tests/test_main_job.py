"""The main job's first version: a batch of games, a scorecard and a summary."""

from __future__ import annotations

import json

import pytest

from dugout.evaluate.main import main, wilson_interval


def test_main_job_prints_scorecard_and_summary(tmp_path, capsys):
    out_file = tmp_path / "summary.json"
    summary = main(["--games", "20", "--seed", "3", "--json", str(out_file)])
    printed = capsys.readouterr().out
    assert "R  H  E" in printed and "SAMPLE" in printed and "home win rate" in printed
    assert summary["games"] == 20
    assert summary["away"]["wins"] + summary["home"]["wins"] + summary["truncated"] == 20
    assert json.loads(out_file.read_text()) == summary
    # the same seeds give the same batch
    assert main(["--games", "20", "--seed", "3"]) == summary


def test_wilson_interval_matches_known_values():
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0


def test_main_job_rejects_unknown_agent():
    with pytest.raises(SystemExit):
        main(["--away", "genius"])
