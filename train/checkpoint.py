"""Saving checkpoints of trained managers (the agent that plays one is
:class:`dugout.agents.policy.PolicyAgent`).

A checkpoint is a folder holding ``model.zip`` (an sb3-contrib MaskablePPO save) and
``meta.json``. Both files are written to a temporary name and then renamed, so a crash
never leaves half a checkpoint.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..agents.policy import META, MODEL

__all__ = ["save_checkpoint"]


def _atomic_write(path: Path, write) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def save_checkpoint(model, folder: str | os.PathLike, meta: dict[str, Any]) -> Path:
    """Save ``model`` and ``meta`` into ``folder`` (created), each file atomically."""
    from .. import __version__
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    meta = {**meta, "dugout_version": __version__,
            "obs_size": int(model.observation_space.shape[0]),
            "n_actions": int(model.action_space.n), "timesteps": int(model.num_timesteps)}

    def write_model(tmp: str) -> None:
        model.save(tmp)                          # SB3 appends .zip to a name without it
        if not tmp.endswith(".zip") and os.path.exists(tmp + ".zip"):
            os.replace(tmp + ".zip", tmp)

    _atomic_write(folder / MODEL, write_model)
    _atomic_write(folder / META, lambda tmp: Path(tmp).write_text(json.dumps(meta, indent=2)))
    return folder


