"""The bad-argument table's rows for ``dugout train exit`` (expert iteration): what its
types cannot generate. An env without self-play (the Manager Challenge), flags that do not go together, a
folder that holds another run (this trainer's or ``dugout train``'s), one to ``--resume``
that holds none or holds a run with other settings, and Ray where it is not installed.
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_table import Row

from dugout.evaluate.backends import ray_installed


def an_exit_run(tmp: Path) -> None:
    """A folder holding an expert-iteration run on Grand Slam with 16 worlds a decision (the
    rest as the table's example for dugout train exit)."""
    from dugout.train.exit import ExitSettings
    (tmp / "exit").mkdir()
    settings = ExitSettings(env="grand_slam_v0", games=2, sims=16, eval_games=4, out=str(tmp / "exit"))
    (tmp / "exit" / "settings.json").write_text(json.dumps(settings.jsonable()))


def a_ppo_run(tmp: Path) -> None:
    """A folder holding a run of ``dugout train`` (its latest checkpoint)."""
    (tmp / "ppo" / "model").mkdir(parents=True)
    (tmp / "ppo" / "model" / "meta.json").write_text(json.dumps({"env_id": "grand_slam_v0"}))


def empty(tmp: Path) -> None:
    (tmp / "empty").mkdir()


ROWS = [
    Row("train exit", ("--env", "manager_challenge_v0"), "--env", "single-agent game"),
    Row("train exit", ("--temperature", "0.1"), "--temperature", "--target soft's"),
    Row("train exit", ("--eval-search-games", "2"), "--eval-search-games", "0 or at least 4"),
    Row("train exit", ("--eval-games", "5"), "--eval-games", "an even number"),
    Row("train exit", ("--expert", "random"), "--expert", "invalid choice"),
    Row("train exit", ("--expert", "heuristic", "--target", "soft"), "--target",
        "--expert heuristic plays no search"),
    Row("train exit", ("--expert", "heuristic", "--horizon", "2"), "--horizon",
        "--expert heuristic plays no search"),
    Row("train exit", ("--expert", "heuristic", "--eval-search-games", "4"), "--eval-search-games",
        "--expert heuristic plays no search"),
    Row("train exit", ("--net-arch", *["4"] * 17), "--net-arch", "1 to 16 hidden layer sizes"),
    Row("train exit", ("--env-option", "innings=12"), "--env-option", "innings"),
    Row("train exit", ("--teams", "sample", "nobody"), "--teams"),
    Row("train exit", ("--out", "{tmp}/exit"), "--out", "already holds a run", an_exit_run),
    Row("train exit", ("--out", "{tmp}/ppo"), "--out", "already holds a run", a_ppo_run),
    Row("train exit", ("--resume", "--out", "{tmp}/empty"), "--resume",
        "holds no expert-iteration run", empty),
    Row("train exit", ("--resume", "--out", "{tmp}/ppo"), "--resume",
        "holds no expert-iteration run", a_ppo_run),
    Row("train exit", ("--resume", "--env", "grand_slam_v0", "--out", "{tmp}/exit"), "--resume",
        "--sims 16", an_exit_run),
    Row("train exit", ("--resume", "--env", "thats_baseball_v0", "--sims", "16", "--out", "{tmp}/exit"),
        "--resume", "--env grand_slam_v0", an_exit_run),
]

if not ray_installed():
    ROWS.append(Row("train exit", ("--backend", "ray"), "--backend", "pip install"))
