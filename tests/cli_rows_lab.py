"""The bad-argument table's explicit rows for the evaluation lab: ``dugout pipeline``,
``challenge``, ``bench``, ``bench vector``, ``bench scaling``, ``cards``, ``calibrate`` and
``runs-fit`` (what the shared types cannot generate: flags that go together, files that
load but are wrong, agents the env does not know)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_table import Row
from cli_table import checkpoint as _checkpoint
from dugout.evaluate.backends import ray_installed


def _damaged_checkpoint(tmp: Path) -> None:
    (tmp / "run").mkdir()
    (tmp / "run" / "meta.json").write_text("{not json")


def _card_file(content: bytes):
    """A fixture: ``{tmp}/cards.json`` holding ``content``."""
    def setup(tmp: Path) -> None:
        (tmp / "cards.json").write_bytes(content)
    return setup


def _builtin_cards_with(change):
    """A fixture: ``{tmp}/cards.json``, the built-in card set changed by ``change(data)``."""
    def setup(tmp: Path) -> None:
        from dugout.envs.bottom_ninth.cards import BUILTIN_PATH
        data = json.loads(BUILTIN_PATH.read_text(encoding="utf-8"))
        change(data)
        (tmp / "cards.json").write_text(json.dumps(data), encoding="utf-8")
    return setup


def _foreign_folder(tmp: Path) -> None:
    (tmp / "mine").mkdir()
    (tmp / "mine" / "keep.txt").write_text("not the main job's")


ROWS: list[Row] = [
    # pipeline: the report folder, empty or an earlier main job's
    Row("pipeline", ("--out", "{tmp}/mine"), "--out", "not made by the main job",
        _foreign_folder),
    # runs-fit: the season and its teams, read off the Lahman database
    Row("runs-fit", ("--season", "1871"), "--season", "season 1871: no team"),
    Row("runs-fit", ("--teams", "BOS", "XYZ"), "--teams", "unknown team 'XYZ' in 2004"),
    # calibrate: the teams, where the games are played, the plot's format
    Row("calibrate", ("--teams", "bos1999"), "--teams", "unknown team(s) 'bos1999'"),
    Row("calibrate", ("--teams", "bos2004", "nope"), "--teams", "'nope'"),
    Row("calibrate", ("--address", "10.0.0.5:6379"), "--address", "goes with --backend ray"),
    Row("calibrate", ("--plot", "{tmp}/calibration.xyz"), "--plot", "matplotlib draws no 'xyz'"),
    # cards: the card file read through the checked loader and validated, the cards chosen
    Row("cards", ("--cards", "{tmp}/cards.json"), "--cards", "nest 5000 deep",
        _card_file(b"[" * 5000 + b"]" * 5000)),
    Row("cards", ("--cards", "{tmp}/cards.json"), "--cards", "not UTF-8",
        _card_file(b'{"set": "\xff"}')),
    Row("cards", ("--cards", "{tmp}/cards.json"), "--cards", "not valid JSON",
        _card_file(b'{"set": ')),
    Row("cards", ("--cards", "{tmp}/cards.json"), "--cards", "must be a JSON object",
        _card_file(b"[1, 2]")),
    Row("cards", ("--cards", "{tmp}/cards.json"), "--cards", "version",
        _builtin_cards_with(lambda d: d.update(version=2))),
    Row("cards", ("--cards", "{tmp}/cards.json"), "--cards", "pitchers[0]",
        _builtin_cards_with(lambda d: d["pitchers"].__setitem__(0, 3))),
    Row("cards", ("--cards", "{tmp}/cards.json"), "--cards", "six batters",
        _builtin_cards_with(lambda d: d.update(batters=d["batters"][:2]))),
    Row("cards", ("--batters", "zz"), "--batters", "'zz' is not a batter card"),
    Row("cards", ("--pitchers", "b01"), "--pitchers", "'b01' is not a pitcher card"),
    Row("cards", ("--batters", "b01", "--pitchers", "p01", "zz"), "--pitchers", "'zz'"),
    # challenge: the seeds, the env's options (the env built once), the managers against it
    Row("challenge", ("--seed", "4294967295", "--campaigns", "2"), "--seed", "at most 4294967295"),
    Row("challenge", ("--env-option", "level=nope"), "--env-option", "level must be one of"),
    Row("challenge", ("--env-option", "nope=1"), "--env-option", "unknown option"),
    Row("challenge", ("--env-option", "level=veteran", "--env-option", "level=rookie"),
        "--env-option", "given twice"),
    Row("challenge", ("--agents", "nobody"), "--agents", "unknown agent 'nobody'"),
    Row("challenge", ("--agents", "random", "random"), "--agents", "given twice"),
    Row("challenge", ("--agents", "ppo:{tmp}/no-such-run"), "--agents", "no-such-run"),
    Row("challenge", ("--agents", "ppo:{tmp}/run"), "--agents", "trained on thats_baseball_v0",
        _checkpoint("thats_baseball_v0", 10, 5)),
    Row("challenge", ("--agents", "ppo:{tmp}/run"), "--agents", "observations of size 7",
        _checkpoint("manager_challenge_v0", 7, 116)),
    Row("challenge", ("--agents", "{tmp}/run"), "--agents", "meta.json", _damaged_checkpoint),
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
    ROWS.append(Row("calibrate", ("--backend", "ray"), "--backend", "needs Ray"))
