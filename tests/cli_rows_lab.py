"""The bad-argument table's explicit rows for the evaluation lab: ``dugout pipeline``,
``challenge``, ``bench``, ``bench vector``, ``bench scaling``, ``cards``, ``calibrate`` and
``runs-fit`` (what the shared types cannot generate: flags that go together, files that
load but are wrong, agents the env does not know)."""

from __future__ import annotations

from pathlib import Path

from cli_table import Row
from dugout.evaluate.backends import ray_installed


ROWS: list[Row] = [
    # bench: --split times the rounds of --rounds
    Row("bench", ("--split",), "--split", "needs --rounds"),
    # bench scaling: the round robin's managers, checked against the env before Ray
    Row("bench scaling", ("--agents", "random"), "--agents", "two managers or more"),
    Row("bench scaling", ("--agents", "random", "random"), "--agents", "given twice"),
    Row("bench scaling", ("--agents", "random", "nobody"), "--agents", "unknown agent"),
    Row("bench scaling", ("--env", "grand_slam_v0", "--agents", "random", "never-steal"),
        "--agents", "never-steal"),
    Row("bench scaling", ("--agents", "random", "ppo:{tmp}/no-such-run"), "--agents",
        "no-such-run"),
]

if not ray_installed():            # where Ray is installed, the check lets the run start
    ROWS.append(Row("bench scaling", (), "", "needs Ray, which is not installed"))
