"""The bad-argument table's explicit rows for ``dugout analyze`` (what the shared types
cannot generate: flags that go together, a search reference that is not the search manager
or has a bad setting, a plot format matplotlib does not draw, a saved game that does not
load or has nothing to analyse)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from cli_table import Row


def _saved(content: bytes):
    """A fixture: ``{tmp}/game.json`` holding ``content``."""
    def setup(tmp: Path) -> None:
        (tmp / "game.json").write_bytes(content)
    return setup


def _saved_game(env_id: str, steps: int | None):
    """A fixture: ``{tmp}/game.json``, a save of a ``env_id`` game after ``steps`` random
    legal actions (None: played to the end)."""
    def setup(tmp: Path) -> None:
        from dugout.envs import make
        env = make(env_id, raw=True)
        env.reset(seed=3)
        rng = random.Random(1)
        game = env.unwrapped
        done = 0
        while game.state_.pending is not None and (steps is None or done < steps):
            env.step(rng.choice(game.state_.pending.legal))
            done += 1
        (tmp / "game.json").write_text(json.dumps(game.save().to_dict()), encoding="utf-8")
    return setup


def _saved_campaign(steps: int | None):
    """A fixture: ``{tmp}/game.json``, a save of a Manager Challenge campaign after ``steps``
    random legal actions (None: played to the end)."""
    def setup(tmp: Path) -> None:
        from dugout.envs import make
        env = make("manager_challenge_v0")
        env.reset(seed=3)
        rng = random.Random(1)
        done = 0
        while not env.unwrapped.campaign.over and (steps is None or done < steps):
            env.step(rng.choice(env.unwrapped.view().legal))
            done += 1
        (tmp / "game.json").write_text(json.dumps(env.unwrapped.save().to_dict()), encoding="utf-8")
    return setup


MC = ("--env", "manager_challenge_v0")

ROWS: list[Row] = [
    # the search that prices the options
    Row("analyze", ("--search", "heuristic"), "--search", "needs the search manager"),
    Row("analyze", ("--search", "search:sims=0"), "--search", "sims must be a positive integer"),
    Row("analyze", ("--search", "search:nope=1"), "--search", "unknown option 'nope'"),
    Row("analyze", ("--search", "search:sims=4,batch=8"), "--search", "at most sims"),
    Row("analyze", ("--search", "search:rollout=search"), "--search", "rollout"),
    # the managers and the rules
    Row("analyze", ("--agents", "nobody", "heuristic"), "--agents", "unknown agent 'nobody'"),
    Row("analyze", ("--env-option", "nope=1"), "--env-option", "no option 'nope'"),
    Row("analyze", ("--teams", "sample", "sample"), "--teams", "no teams"),
    # flags that go together
    Row("analyze", ("--workers", "2"), "--workers", "--report"),
    Row("analyze", ("--held-out",), "--held-out", "give --report GAMES"),
    Row("analyze", ("--held-out", "--saved", "{tmp}/game.json"), "--held-out", "--report",
        _saved_game("grand_slam_v0", 10)),
    Row("analyze", ("--report", "4", "--seat", "away"), "--seat", "one game's analysis"),
    Row("analyze", ("--report", "4", "--plot", "{tmp}/win.png"), "--plot", "one game's analysis"),
    Row("analyze", ("--report", "4", "--saved", "{tmp}/game.json"), "--saved",
        "one game's analysis", _saved_game("grand_slam_v0", 10)),
    Row("analyze", ("--saved", "{tmp}/game.json", "--plot", "{tmp}/win.png"), "--plot",
        "one decision", _saved_game("grand_slam_v0", 10)),
    # the plot's format
    Row("analyze", ("--plot", "{tmp}/win.xyz"), "--plot", "matplotlib draws no 'xyz'"),
    # the saved game: JSON, a save of this ruleset, a game with a decision to analyse
    Row("analyze", ("--saved", "{tmp}/game.json"), "--saved", "not valid JSON",
        _saved(b'{"ruleset": ')),
    Row("analyze", ("--saved", "{tmp}/game.json"), "--saved", "a saved game is a JSON object",
        _saved(b"[1, 2]")),
    Row("analyze", ("--saved", "{tmp}/game.json"), "--saved", "not a saved Grand Slam game",
        _saved_game("thats_baseball_v0", 10)),
    Row("analyze", ("--saved", "{tmp}/game.json"), "--saved", "the game is over",
        _saved_game("grand_slam_v0", None)),
    # how many managers: two for a game, one for the Manager Challenge
    Row("analyze", ("--agents", "heuristic"), "--agents", "two managers"),
    Row("analyze", ("--report", "3"), "--report", "an even number of games"),
    Row("analyze", (*MC, "--agents", "heuristic", "heuristic"), "--agents", "one manager"),
    # the Manager Challenge: one manager at home, its options, its seeds, its search, its saves
    Row("analyze", (*MC, "--agents", "nobody"), "--agents", "unknown agent 'nobody'"),
    Row("analyze", (*MC, "--seat", "home"), "--seat", "always at home"),
    Row("analyze", (*MC, "--teams", "a", "b"), "--teams", "no teams option"),
    Row("analyze", (*MC, "--env-option", "level=nope"), "--env-option", "level must be one of"),
    Row("analyze", (*MC, "--seed", "4294967295", "--report", "2"), "--seed", "at most 4294967295"),
    Row("analyze", (*MC, "--search", "search:horizon=2"), "--search", "horizon must be 0"),
    Row("analyze", (*MC, "--search", "random"), "--search", "needs the search manager"),
    Row("analyze", (*MC, "--held-out"), "--held-out", "give --report GAMES"),
    Row("analyze", (*MC, "--saved", "{tmp}/game.json"), "--saved", "the campaign is over",
        _saved_campaign(None)),
    Row("analyze", (*MC, "--saved", "{tmp}/game.json"), "--saved", "Manager Challenge",
        _saved_game("grand_slam_v0", 10)),
    Row("analyze", (*MC, "--saved", "{tmp}/game.json"), "--saved", "a saved campaign is a JSON object",
        _saved(b"[1, 2]")),
    Row("analyze", ("--saved", "{tmp}/game.json"), "--saved", "not a saved Grand Slam game",
        _saved_campaign(10)),
]
