"""The bad-argument table's explicit rows for the evaluation lab: ``dugout pipeline``,
``challenge``, ``bench``, ``bench vector``, ``bench scaling``, ``cards``, ``calibrate`` and
``runs-fit`` (what the shared types cannot generate: flags that go together, files that
load but are wrong, agents the env does not know)."""

from __future__ import annotations

from pathlib import Path

from cli_table import Row


ROWS: list[Row] = [
    # bench: --split times the rounds of --rounds
    Row("bench", ("--split",), "--split", "needs --rounds"),
]
