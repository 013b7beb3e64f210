"""The main job: train a manager, a tournament on every ruleset, the report (tiny sizes here)."""

from __future__ import annotations

import json

import pytest

from dugout.studies.pipeline import MARKER, main

QUICK = ["--timesteps", "128", "--games", "4", "--crn-games", "4", "--workers", "1",
         "--bootstrap", "20", "--seed", "3", "--search-games", "4"]


@pytest.fixture(scope="module")
def main_job(tmp_path_factory):
    out = tmp_path_factory.mktemp("main-job") / "report"
    return out, main([*QUICK, "--out", str(out)])


def test_main_job_trains_then_plays_every_ruleset(main_job, capsys):
    out, summary = main_job
    assert summary["training"]["timesteps"] >= 128
    assert (out / "training" / "model" / "policy.pt").exists()      # the vector trainer's
    assert (out / "training" / "learning_curve.png").exists()
    assert "Masked PPO self-play on batched games" in (out / "summary.md").read_text()
    tb = summary["tournaments"]["thats_baseball_v0"]
    assert tb["labels"] == ["random", "heuristic", "ppo:training", "pretrained", "solver"]
    assert len(tb["matchups"]) == 10 and all(m["games"] == 4 for m in tb["matchups"])
    assert tb["crn"]["a"] == "ppo:training" and tb["crn"]["b"] == "heuristic"
    for env_id in ("grand_slam_v0", "showdown_v0", "bottom_ninth_v0", "pokemon_baseball_v0"):
        d = summary["tournaments"][env_id]
        assert d["labels"] == ["random", "heuristic", "pretrained"], env_id
        assert len(d["matchups"]) == 3 and all(m["games"] == 4 for m in d["matchups"])


def test_main_job_plays_the_search_manager_against_the_heuristic(main_job):
    """Beside each round robin, ``--search-games`` games of ``search`` against ``heuristic``,
    with their report and a line each in the summary."""
    from dugout.studies.pipeline import LINEUPS
    out, summary = main_job
    assert set(summary["search"]) == set(LINEUPS)
    for env_id, m in summary["search"].items():
        assert (m["a"], m["b"], m["games"]) == ("search", "heuristic", 4)
        assert 0 <= m["a_score_low"] <= m["a_score"] <= m["a_score_high"] <= 1
        assert (out / env_id / "search" / "summary.md").exists()
    top = (out / "summary.md").read_text()
    assert "## The search manager" in top and "showdown_v0/search/summary.md" in top


def test_main_job_records_the_rules_it_played_and_trained_under(main_job):
    from dugout.agents.policy import read_meta
    from dugout.studies.pipeline import ENV_OPTIONS
    out, summary = main_job
    assert ENV_OPTIONS["showdown_v0"] == {"level": "advanced", "teams": ["nya2004", "bos2004"]}
    for env_id, options in ENV_OPTIONS.items():
        assert summary["tournaments"][env_id]["env_options"] == options
        assert "Rules: `" + env_id in (out / env_id / "summary.md").read_text()
    assert summary["tournaments"]["thats_baseball_v0"]["crn"]["env_options"] == {"teams": ["sample", "reds"]}
    assert read_meta(out / "training" / "model")["env_options"] == {"teams": ["sample", "reds"]}
    assert 'level=advanced, teams=["nya2004", "bos2004"]' in (out / "summary.md").read_text()


def test_main_job_writes_the_report(main_job):
    out, _ = main_job
    top = (out / "summary.md").read_text()
    assert "thats_baseball_v0/summary.md" in top and "grand_slam_v0/summary.md" in top
    assert "showdown_v0/summary.md" in top and "bottom_ninth_v0/summary.md" in top
    for env_id in ("thats_baseball_v0", "grand_slam_v0", "showdown_v0", "bottom_ninth_v0",
                   "pokemon_baseball_v0"):
        for name in ("results.json", "matchups.csv", "ratings.csv", "pairs.csv", "summary.md",
                     "winrate_matrix.png", "ratings.png"):
            assert (out / env_id / name).stat().st_size > 0, (env_id, name)
    assert (out / "thats_baseball_v0" / "learning_curve.png").exists()
    assert json.loads((out / "main_job.json").read_text())["tournaments"].keys() == {
        "thats_baseball_v0", "grand_slam_v0", "showdown_v0", "bottom_ninth_v0", "pokemon_baseball_v0"}


def test_main_job_prints_the_tables(tmp_path, capsys):
    out = tmp_path / "again"
    main([*QUICK, "--timesteps", "0", "--envs", "grand_slam_v0", "--out", str(out)])
    printed = capsys.readouterr().out
    assert "Elo (Bradley-Terry)" in printed and "A run diff/game" in printed
    assert "home advantage" in printed and "No manager" in (out / "summary.md").read_text()
    # a second run replaces the folder an earlier main job made ...
    main([*QUICK, "--timesteps", "0", "--envs", "grand_slam_v0", "--out", str(out)])
    assert (out / MARKER).exists()


def test_main_job_refuses_a_foreign_folder_and_bad_sizes(tmp_path, capsys):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(SystemExit) as exit_:
        main([*QUICK, "--timesteps", "0", "--out", str(tmp_path)])
    assert exit_.value.code == 2
    assert "--out" in (err := capsys.readouterr().err) and "not made by the main job" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]
    for bad, says in ((["--games", "0"], "--games: must be an even number from 4"),
                      (["--games", "5"], "--games: must be an even number from 4"),
                      (["--timesteps", "-1"], "--timesteps: must be a whole number from 0"),
                      (["--crn-games", "3"], "--crn-games: must be an even number from 0"),
                      (["--workers", "0"], "--workers: must be a whole number from 1"),
                      (["--seed", "-1"], "--seed: must be a whole number from 0 to 4294967295"),
                      (["--bootstrap", "0"], "--bootstrap: must be a whole number from 1")):
        with pytest.raises(SystemExit) as exit_:
            main([*bad, "--out", str(tmp_path / "x")])
        assert exit_.value.code == 2 and says in capsys.readouterr().err
    assert not (tmp_path / "x").exists()



def test_main_job_can_train_with_the_sb3_trainer(tmp_path):
    out = tmp_path / "sb3"
    summary = main([*QUICK, "--trainer", "sb3", "--envs", "thats_baseball_v0", "--crn-games", "0",
                    "--out", str(out)])
    assert summary["training"]["timesteps"] >= 128
    assert (out / "training" / "model" / "model.zip").exists()        # SB3's own save
    assert "MaskablePPO self-play (`dugout.train.ppo`)" in (out / "summary.md").read_text()
    assert summary["tournaments"]["thats_baseball_v0"]["labels"][2] == "ppo:training"
