"""Saving checkpoints of trained managers (the agent that plays one is
:class:`dugout.agents.policy.PolicyAgent`).

A checkpoint is a folder holding

* ``meta.json``: the env id, the spaces, the actor's architecture (``net_arch``,
  ``activation``), the timesteps, the settings and the dugout version;
* ``policy.pt``: the acting policy's weights, a dict of tensors only (``torch.save``;
  ``PolicyAgent.load`` reads it with ``torch.load(weights_only=True)``);
* ``model.zip``: sb3-contrib's MaskablePPO save (cloudpickled: loading it runs code), for
  ``--resume`` of one's own run; ``resumable=False`` (self-play pool snapshots) leaves it out.

``meta.json`` + ``policy.pt`` are safe to load from anyone; ``model.zip`` is not. Each file
is written to a temporary name and then renamed, ``meta.json`` last, so a crash never
leaves half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..agents.policy import META, MODEL, WEIGHTS, actor_from_model

__all__ = ["save_checkpoint", "save_run_checkpoint", "save_actor", "upgrade_checkpoint",
           "atomic_write"]


def atomic_write(path: Path, write) -> None:
    """``write(tmp)`` a temporary file beside ``path``, then rename it to ``path``: a crash
    never leaves half a file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _write_policy(model, folder: Path, meta: dict[str, Any]) -> None:
    """``policy.pt`` (the actor's tensors) and ``meta.json`` (``meta`` and the architecture)."""
    actor, arch = actor_from_model(model)
    _write_actor(actor, arch, folder, meta, int(model.num_timesteps))


def _write_actor(actor, arch: dict[str, Any], folder: Path, meta: dict[str, Any],
                 timesteps: int) -> None:
    import torch
    from .. import __version__
    meta = {**meta, "dugout_version": __version__, **arch, "timesteps": int(timesteps)}
    weights = {k: v.detach().to("cpu", torch.float32).contiguous()
               for k, v in actor.state_dict().items()}
    atomic_write(folder / WEIGHTS, lambda tmp: torch.save(weights, tmp))
    atomic_write(folder / META, lambda tmp: Path(tmp).write_text(json.dumps(meta, indent=2)))


def save_actor(actor, arch: dict[str, Any], folder: str | os.PathLike, meta: dict[str, Any],
               timesteps: int) -> Path:
    """Save a trained actor in :func:`dugout.agents.policy.build_actor`'s layout (a trainer
    other than SB3's: ``dugout.train.vector_ppo``) as ``policy.pt`` + ``meta.json``;
    ``arch`` holds ``obs_size``, ``n_actions``, ``net_arch`` and ``activation``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    _write_actor(actor, arch, folder, meta, timesteps)
    return folder


def save_checkpoint(model, folder: str | os.PathLike, meta: dict[str, Any],
                    resumable: bool = True) -> Path:
    """Save ``model`` and ``meta`` into ``folder`` (created), each file atomically:
    ``policy.pt`` + ``meta.json`` always, ``model.zip`` (for ``--resume``) when ``resumable``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)

    def write_model(tmp: str) -> None:
        model.save(tmp)                          # SB3 appends .zip to a name without it
        if not tmp.endswith(".zip") and os.path.exists(tmp + ".zip"):
            os.replace(tmp + ".zip", tmp)

    if resumable:
        atomic_write(folder / MODEL, write_model)
    _write_policy(model, folder, meta)
    return folder


def save_run_checkpoint(model, out: Path, timesteps: int, meta: dict[str, Any]) -> Path:
    """Save ``model`` as its run's checkpoint after ``timesteps`` (``out/checkpoints/`` and the
    timesteps, ten digits) and as the run's latest (``out/model``, the folder returned)."""
    save_checkpoint(model, out / "checkpoints" / f"{timesteps:010d}", meta)
    return save_checkpoint(model, out / "model", meta)


def upgrade_checkpoint(folder: str | os.PathLike) -> Path:
    """Write ``policy.pt`` and the architecture into ``meta.json`` for a checkpoint made by an
    older dugout (``model.zip`` + ``meta.json`` only).

    **This unpickles ``model.zip``, which runs whatever code it holds: use it only on
    checkpoints you made yourself.**"""
    from sb3_contrib import MaskablePPO
    folder = Path(folder)
    old = json.loads((folder / META).read_text())
    model = MaskablePPO.load(str(folder / MODEL), device="cpu")
    keep = {k: v for k, v in old.items() if k not in ("obs_size", "n_actions", "net_arch",
                                                      "activation", "timesteps", "dugout_version")}
    _write_policy(model, folder, keep)
    return folder
