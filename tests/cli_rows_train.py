"""The bad-argument table's explicit rows for the trainers: ``dugout train``, ``train
vector``, ``train challenge``, ``train rllib`` and ``bench train``.

What the types cannot generate: a value a type's own ``bad`` texts leave out (a negative
layer size or learning rate), an opponent the env does not know or a checkpoint that is
missing, made for another env, of other sizes or poisoned (a pickle that would run code:
refused unread, so the work folder stays empty), an output folder that already holds a
run or an empty one to ``--resume``, and flags that do not go together.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

from cli_table import Row


def _meta(folder: Path, env_id: str, obs_size: int, n_actions: int = 5, **more) -> None:
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps({
        "env_id": env_id, "obs_size": obs_size, "n_actions": n_actions, "net_arch": [4],
        "activation": "Tanh", **more}))


def _tb_obs() -> int:
    from dugout.envs.thats_baseball.env import OBS
    return OBS.size


def other_env(tmp: Path) -> None:
    """A checkpoint made for Grand Slam."""
    _meta(tmp / "other", "grand_slam_v0", 50)


class _Pwned:
    """Unpickled, it would leave a file named ``pwned`` in the working folder."""

    def __reduce__(self):
        import os
        return os.system, ("touch pwned",)


def poisoned(tmp: Path) -> None:
    """A That's Baseball checkpoint whose weights file is a pickle that runs code."""
    _meta(tmp / "poisoned", "thats_baseball_v0", _tb_obs())
    (tmp / "poisoned" / "policy.pt").write_bytes(pickle.dumps({"0.weight": _Pwned()}, protocol=2))


def small(tmp: Path) -> None:
    """A whole, loadable checkpoint for That's Baseball, of observations of size 7."""
    import torch
    from dugout.agents.policy import build_actor
    _meta(tmp / "small", "thats_baseball_v0", 7)
    torch.save(build_actor(7, [4], "Tanh", 5).state_dict(), tmp / "small" / "policy.pt")


def empty(tmp: Path) -> None:
    (tmp / "empty").mkdir()


def a_run(tmp: Path) -> None:
    """A folder holding a run (its latest checkpoint)."""
    _meta(tmp / "run" / "model", "thats_baseball_v0", _tb_obs())


def a_grand_slam_run(tmp: Path) -> None:
    _meta(tmp / "gs" / "model", "grand_slam_v0", 50, settings={"teacher": "none"})
    (tmp / "gs" / "model" / "model.zip").write_bytes(b"")


def a_rllib_run(tmp: Path) -> None:
    (tmp / "run").mkdir()
    (tmp / "run" / "settings.json").write_text("{}")


DEEP = [str(4)] * 17

ROWS = [
    # dugout train
    Row("train", ("--net-arch", "-5"), "--net-arch", "from 1 to 4096"),
    Row("train", ("--net-arch", *DEEP), "--net-arch", "1 to 16 hidden layer sizes"),
    Row("train", ("--learning-rate", "-1"), "--learning-rate", "more than 0 and at most 1"),
    Row("train", ("--gamma", "-1"), "--gamma", "more than 0 and at most 1"),
    Row("train", ("--opponent", "bogus"), "--opponent", "unknown opponent 'bogus'"),
    Row("train", ("--opponent", "ppo:{tmp}/missing"), "--opponent", "no checkpoint"),
    Row("train", ("--opponent", "ppo:{tmp}/other"), "--opponent", "trained on grand_slam_v0",
        other_env),
    Row("train", ("--opponent", "ppo:{tmp}/poisoned"), "--opponent", "not a tensors-only",
        poisoned),
    Row("train", ("--opponent", "ppo:{tmp}/small"), "--opponent", "observations of size 7",
        small),
    Row("train", ("--resume", "--out", "{tmp}/empty"), "--resume", "holds no run", empty),
    Row("train", ("--resume", "--out", "{tmp}/gs"), "--resume", "a run on grand_slam_v0",
        a_grand_slam_run),
    Row("train", ("--out", "{tmp}/run"), "--out", "already holds a run", a_run),
    Row("train", ("--p-random", "0.8", "--p-heuristic", "0.5"), "--p-random", "more than 1"),
    Row("train", ("--env", "pokemon_baseball_v0", "--teacher", "solver"), "--teacher",
        "no manager 'solver'"),
    Row("train", ("--n-steps", "1", "--n-envs", "1"), "--n-steps", "at least 2 decisions"),
    Row("train", ("--teams", "sample", "nobody"), "--teams", "unknown team 'nobody'"),
    Row("train", ("--env-option", "innings=12"), "--env-option", "innings"),
    Row("train", ("--env", "manager_challenge_v0"), "--env", "dugout train challenge"),
    # dugout train vector
    Row("train vector", ("--teams", "nope", "nope"), "--teams", "unknown team 'nope'"),
    Row("train vector", ("--opponent", "bogus"), "--opponent", "unknown opponent 'bogus'"),
    Row("train vector", ("--opponent", "never-steal"), "--opponent", "known: self-play"),
    Row("train vector", ("--opponent", "ppo:{tmp}/other"), "--opponent",
        "trained on grand_slam_v0", other_env),
    Row("train vector", ("--opponent", "ppo:{tmp}/poisoned"), "--opponent", "not a tensors-only",
        poisoned),
    Row("train vector", ("--opponent", "ppo:{tmp}/small"), "--opponent", "observations of size 7",
        small),
    Row("train vector", ("--num-minibatches", "3"), "--num-minibatches", "equal minibatches"),
    Row("train vector", ("--num-envs", "2", "--num-steps", "1", "--num-minibatches", "2"),
        "--num-minibatches", "at least 2 decisions"),
    Row("train vector", ("--p-random", "0.8", "--p-heuristic", "0.5"), "--p-random",
        "more than 1"),
    Row("train vector", ("--out", "{tmp}/run"), "--out", "already holds a run", a_run),
    Row("train vector", ("--net-arch", "-5"), "--net-arch", "from 1 to 4096"),
    Row("train vector", ("--gamma", "-1"), "--gamma", "more than 0"),
    # dugout train challenge
    Row("train challenge", ("--env-option", "level=rookie"), "--env-option", "level"),
    Row("train challenge", ("--env-option", "level=veteran", "--env-option", "level=rookie"),
        "--env-option", "given twice"),
    Row("train challenge", ("--out", "{tmp}/run"), "--out", "already holds a run", a_run),
    Row("train challenge", ("--n-steps", "1", "--n-envs", "1"), "--n-steps", "at least 2"),
    Row("train challenge", ("--net-arch", "-5"), "--net-arch", "from 1 to 4096"),
    Row("train challenge", ("--learning-rate", "-1"), "--learning-rate", "more than 0"),
    Row("train challenge", ("--teacher", "solver"), "--teacher", "invalid choice: 'solver'"),
    Row("train challenge", ("--teacher-coef", "-1"), "--teacher-coef", "at least 0"),
    Row("train challenge", ("--teacher-fraction", "0"), "--teacher-fraction", "more than 0"),
    # dugout train rllib
    Row("train rllib", ("--eval-pairs", "1"), "--eval-pairs", "at least 2"),
    Row("train rllib", ("--minibatch", "5000"), "--minibatch", "from 1 to --batch"),
    Row("train rllib", ("--address", "nowhere"), "--address", "expected HOST:PORT"),
    Row("train rllib", ("--address", "10.0.0.5:6379", "--cpus", "2"), "--cpus",
        "the Ray instance started here"),
    Row("train rllib", ("--resume", "--out", "{tmp}/empty"), "--resume", "no RLlib run", empty),
    Row("train rllib", ("--out", "{tmp}/run"), "--out", "already holds a run", a_rllib_run),
    Row("train rllib", ("--hidden", "-5"), "--hidden", "from 1 to 4096"),
    Row("train rllib", ("--teams", "nope", "nope"), "--teams", "unknown team 'nope'"),
    # dugout bench train
    Row("bench train", ("--env-cost",), "--rounds", "without --env-cost"),
    Row("bench train", ("--sizes", "16"), "--sizes", "with --env-cost"),
]
