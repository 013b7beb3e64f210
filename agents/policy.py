"""A trained manager: the policy of a checkpoint, as an agent.

A checkpoint is a folder holding ``model.zip`` (an sb3-contrib MaskablePPO save) and
``meta.json``: the env id, the observation and action space sizes, the timesteps
trained, the settings and the dugout version that made it (written by
:func:`dugout.train.checkpoint.save_checkpoint`).

    agent = PolicyAgent.load("runs/thats_baseball/model")            # a checkpoint folder
    agent = PolicyAgent.load("runs/thats_baseball/model", env_id="thats_baseball_v0")

``load`` refuses, with a clear error, a checkpoint made for another env (when
``env_id`` is given) and a missing or damaged one; ``act`` refuses an observation of
another size. Importing this module needs neither torch nor sb3-contrib; loading a
checkpoint does.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping

import numpy as np

__all__ = ["PolicyAgent", "read_meta", "CheckpointError", "META", "MODEL"]

META = "meta.json"
MODEL = "model.zip"


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: missing, damaged, or made for another env."""


def _folder(path: str | os.PathLike) -> Path:
    path = Path(path)
    return path.parent if path.name == MODEL else path


def read_meta(path: str | os.PathLike) -> dict[str, Any]:
    folder = _folder(path)
    if not (folder / META).is_file() or not (folder / MODEL).is_file():
        raise CheckpointError(f"no checkpoint at {str(path)!r}: expected a folder with {MODEL} "
                              f"and {META} (as `python -m dugout.train` writes)")
    try:
        meta = json.loads((folder / META).read_text())
    except json.JSONDecodeError as e:
        raise CheckpointError(f"{folder / META}: not valid JSON ({e})") from None
    for key in ("env_id", "obs_size", "n_actions"):
        if key not in meta:
            raise CheckpointError(f"{folder / META}: missing {key!r}")
    return meta


class PolicyAgent:
    """A trained manager: the policy of a checkpoint, masks honoured.

    ``deterministic=True`` (the default) plays the most likely legal action;
    ``False`` samples from the policy with the agent's own seeded generator.
    """

    needs_view = False

    def __init__(self, model, meta: dict[str, Any], deterministic: bool = True,
                 seed: int | None = None, name: str | None = None):
        self.model = model
        self.meta = meta
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.name = name or f"ppo:{meta.get('run', 'policy')}"

    @classmethod
    def load(cls, path: str | os.PathLike, env_id: str | None = None, deterministic: bool = True,
             seed: int | None = None) -> PolicyAgent:
        meta = read_meta(path)
        if env_id is not None and meta["env_id"] != env_id:
            raise CheckpointError(f"{str(path)!r} was trained on {meta['env_id']}, not {env_id}")
        from sb3_contrib import MaskablePPO
        try:
            model = MaskablePPO.load(str(_folder(path) / MODEL), device="cpu")
        except Exception as e:                         # a damaged zip
            raise CheckpointError(f"{_folder(path) / MODEL}: cannot be loaded ({e})") from None
        if model.observation_space.shape[0] != meta["obs_size"] or model.action_space.n != meta["n_actions"]:
            raise CheckpointError(f"{str(path)!r}: the model's spaces do not match its {META}")
        return cls(model, meta, deterministic, seed, name=f"ppo:{_folder(path)}")

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def _check(self, obs: np.ndarray, mask: np.ndarray) -> None:
        if obs.shape[-1] != self.meta["obs_size"] or mask.shape[-1] != self.meta["n_actions"]:
            raise CheckpointError(
                f"{self.name} was trained on {self.meta['env_id']} with observations of size "
                f"{self.meta['obs_size']} and {self.meta['n_actions']} actions; got an observation "
                f"of size {obs.shape[-1]} and {mask.shape[-1]} actions")

    def policy_probabilities_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The policy's distributions for a batch: ``(N, obs)`` observations, ``(N, n)`` masks."""
        import torch
        obs = np.atleast_2d(np.asarray(observations, dtype=np.float32))
        masks = np.atleast_2d(np.asarray(masks)).astype(bool)
        self._check(obs, masks)
        policy = self.model.policy
        logits = np.empty(masks.shape, dtype=np.float64)
        with torch.no_grad():          # the policy's logits (what its masked Categorical samples)
            for i in range(0, obs.shape[0], 65_536):
                features = policy.extract_features(torch.as_tensor(obs[i:i + 65_536]),
                                                   policy.pi_features_extractor)
                latent = policy.mlp_extractor.forward_actor(features)
                logits[i:i + 65_536] = policy.action_net(latent).numpy()
        logits[~masks] = -np.inf
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        return probs / probs.sum(axis=1, keepdims=True)

    def action_probabilities_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """How this agent plays a batch of decisions: one-hot on the policy's most likely legal
        action when deterministic, the policy's distribution otherwise (exact evaluators use it)."""
        probs = self.policy_probabilities_batch(observations, masks)
        if not self.deterministic:
            return probs
        onehot = np.zeros_like(probs)
        onehot[np.arange(len(probs)), probs.argmax(axis=1)] = 1.0
        return onehot

    def action_probabilities(self, observation: Mapping[str, Any], view: Any = None) -> np.ndarray:
        """How this agent plays one decision (see :meth:`action_probabilities_batch`)."""
        return self.action_probabilities_batch(observation["observation"][None, :],
                                               np.asarray(observation["action_mask"])[None, :])[0]

    def act(self, observation: Mapping[str, Any], view: Any = None) -> int:
        probs = self.action_probabilities(observation)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(self.rng.choice(probs.size, p=probs))
