"""The bad-argument table's rows for ``dugout train distill`` (a network learns an exact
solver's policy): what its types cannot generate. An env whose solver has no dataset module
(named, with the envs that have one), Bottom of the 9th while its module is not there yet, a
network too deep, and an output folder that already holds files.
"""

from __future__ import annotations

from pathlib import Path

from cli_table import Row

from dugout.train.distill import dataset_module


def a_full_folder(tmp: Path) -> None:
    """A folder holding a file (an earlier fit's, or anything)."""
    (tmp / "full").mkdir()
    (tmp / "full" / "meta.json").write_text("{}")


ROWS = [
    Row("train distill", ("--env", "grand_slam_v0"), "--env",
        "grand_slam_v0 has no distillation data"),
    Row("train distill", ("--env", "manager_challenge_v0"), "--env", "thats_baseball_v0"),
    Row("train distill", ("--net-arch", *["4"] * 17), "--net-arch", "1 to 16 hidden layer sizes"),
    Row("train distill", ("--out", "{tmp}/full"), "--out", "already holds files", a_full_folder),
    Row("train distill", ("--activation", "Softmax"), "--activation"),
]

if dataset_module("bottom_ninth_v0") is None:
    ROWS.append(Row("train distill", ("--env", "bottom_ninth_v0"), "--env",
                    "agents/solvers/bottom_ninth/distill.py does not exist yet"))
