"""The bad-argument table's explicit rows: what the shared types cannot generate.

``tests/test_cli.py`` generates a row for every flag of every subcommand from its type's
``bad`` texts; the rows here add the defects found by hand (a flag combination, a file
that loads but is wrong, a checkpoint for another env). Each group of subcommands keeps
its rows in a module ``tests/cli_rows_GROUP.py`` defining ``ROWS``, a list of :class:`Row`.

In ``argv``, ``{tmp}`` is a folder of fixtures made for the row (``setup(tmp)`` fills it);
the subcommand runs in another, empty folder, which must still be empty afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable


@dataclass(frozen=True)
class Row:
    """``dugout COMMAND *argv`` must exit 2 with one line naming ``flag`` (and ``says``,
    if given), before any work, leaving no file behind."""

    command: str
    argv: tuple[str, ...]
    flag: str
    says: str = ""
    setup: Callable[[Path], None] | None = field(default=None, compare=False)

    def id(self) -> str:
        return f"{self.command}:{' '.join(self.argv)}"[:90]


def checkpoint(env_id: str, obs_size: int, n_actions: int, name: str = "run"):
    """A row's fixture: ``{tmp}/NAME``, a checkpoint folder trained (so its meta says) on
    ``env_id`` with observations of ``obs_size`` and ``n_actions`` actions, no hidden layer."""
    def setup(tmp: Path) -> None:
        import json
        import torch
        run = tmp / name
        run.mkdir()
        (run / "meta.json").write_text(json.dumps({
            "env_id": env_id, "obs_size": obs_size, "n_actions": n_actions, "net_arch": [],
            "activation": "Tanh"}))
        torch.save({"0.weight": torch.zeros(n_actions, obs_size), "0.bias": torch.zeros(n_actions)},
                   run / "policy.pt")
    return setup
