"""``python -m dugout.train --algo {sb3,rllib,exit,distill}``: the switch between MaskablePPO (the
default), RLlib league self-play (:mod:`dugout.train.rllib`), expert iteration and distillation, and the RLlib path's errors where
Ray is not installed (the main venv; RLlib training itself is tested in tests/test_rllib.py,
in .venv-rllib)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _train(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dugout.train", *argv], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_algo_sb3_is_the_default_trainer():
    default, sb3 = _train("--help"), _train("--algo", "sb3", "--help")
    assert default.returncode == sb3.returncode == 0
    assert default.stdout == sb3.stdout and "--total-timesteps" in sb3.stdout
    rllib = _train("--algo=rllib", "--help")
    assert rllib.returncode == 0 and "--league-size" in rllib.stdout and "--snapshot-every" in rllib.stdout
    distill = _train("--algo", "distill", "--help")
    assert distill.returncode == 0 and "--val-share" in distill.stdout


@pytest.mark.parametrize("argv, says", [
    (("--algo", "tianshou"), "--algo must be one of sb3, rllib, exit, distill, got 'tianshou'"),
    (("--algo",), "--algo needs a value"),
    (("--algo", "rllib", "--league-size", "0"),
     "--league-size: must be a whole number from 1 to 100 (frozen snapshot slots), got '0'"),
    (("--algo", "rllib", "--self-play", "2"),
     "--self-play: must be a finite number at least 0 and at most 1 (a share of the games)"),
    (("--algo", "rllib", "--env", "chess_v0"), "--env: unknown environment 'chess_v0'"),
    (("--algo", "rllib", "--env-option", "innings=12"), "innings must be an int from 1 to 9"),
    (("--algo", "rllib", "--address", "10.0.0.5:6379", "--cpus", "2"), "--cpus is for the Ray"),
])
def test_bad_rllib_settings_are_one_line_before_ray_starts(argv, says):
    done = _train(*argv)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dugout train"), done.stderr
    assert says in lines[0], done.stderr


def test_rllib_without_ray_says_how_to_install_it():
    import importlib.util
    assert importlib.util.find_spec("ray") is None, "the main test venv must not hold Ray"
    done = _train("--algo", "rllib", "--iterations", "1", "--out", "unused")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "pip install 'dugout-baseball[rllib]'" in done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("left", ["settings.json", "progress.csv", "rllib", "model"])
def test_rllib_refuses_an_out_that_holds_a_run_without_resume(tmp_path, left):
    """A fresh run would overwrite settings.json and progress.csv, and a later --resume would
    restore the old run's RLlib checkpoint: refused before Ray is even looked for."""
    out = tmp_path / "run"
    out.mkdir()
    (out / left).mkdir() if left in ("rllib", "model") else (out / left).write_text("{}")
    done = _train("--algo", "rllib", "--iterations", "1", "--out", str(out))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert f"--out {out} already holds a run ({left})" in last and "pass --resume" in last, last
    assert (out / left).exists() and sorted(p.name for p in out.iterdir()) == [left]
    # an empty folder holds no run: the run goes on (here to Ray, which is missing)
    (out / left).rmdir() if left in ("rllib", "model") else (out / left).unlink()
    done = _train("--algo", "rllib", "--iterations", "1", "--out", str(out))
    assert "pip install 'dugout-baseball[rllib]'" in done.stderr.strip().splitlines()[-1]
