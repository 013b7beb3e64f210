"""Helpers for MLB Showdown tests that replay rulebook situations with scripted dice: a
set-up game of the 2004 Yankees at the 2004 Red Sox (cards editable as dicts), a situation
put on the board, play until the script runs out, and the box score's lines."""

from __future__ import annotations

from typing import Any

from dugout.envs.core.dice import DiceScriptError, ScriptedDice
from dugout.envs.showdown import rules
from dugout.envs.showdown.cards import load_team, team_from_dict, team_to_dict

NYY, BOS = 0, 1


def team_dict(name: str) -> dict:
    """A built-in team as a dict (edit its cards, then pass it to :func:`scripted_game`)."""
    return team_to_dict(load_team(name))


def card(data: dict, name: str) -> dict:
    return next(c for c in data["players"] if c["name"] == name)


def idx(state, team: int, name: str) -> int:
    return next(k for k, c in enumerate(state.teams[team].players) if c.name == name)


def scripted_game(script, nyy=None, bos=None, *, level: str = "advanced", starter: int = 1,
                  dh: bool = True, **options: Any):
    """A set-up game (top of the 1st, nobody up yet) with scripted dice; ``nyy``/``bos``
    are edited team dicts (default: the built-in teams); ``options`` go to ``new_game``."""
    nyy = nyy or team_dict("nya2004")
    bos = bos or team_dict("bos2004")
    teams = (team_from_dict(nyy, "nyy", point_cap=None), team_from_dict(bos, "bos", point_cap=None))
    return rules.new_game(teams, ScriptedDice(script), level=level, starter=starter, dh=dh,
                          play=False, **options)


def go(state, action=None):
    """Apply ``action`` (or just run) until a decision, or until the script runs out (any
    other dice error, such as a roll for the wrong purpose, fails the test)."""
    try:
        if action is None:
            rules.run(state)
        else:
            rules.apply_action(state, action)
    except DiceScriptError as e:
        if "ran out" not in str(e):
            raise
    return state


def situation(state, *, outs=0, bases=(None, None, None), batter=None, inning=1, half=0,
              runs=(0, 0)):
    """Put the board in a rulebook situation (``runs`` away, home) and bring ``batter`` (a
    name) to the plate; the runners were let on by the pitcher now on the mound."""
    b = state.board
    b.inning, b.half, b.outs = inning, half, outs
    b.line = [[0] * inning, [0] * (inning - 1 + half)]
    b.runs = list(runs)
    b.line[0][0] = runs[0]
    if runs[1]:
        b.line[1][0] = runs[1]
    t = half
    b.bases = tuple(None if n is None else idx(state, t, n) for n in bases)
    for n in bases:
        if n is not None:
            state.responsible[idx(state, t, n)] = state.pitcher[1 - t]
    if batter is not None:
        k = idx(state, t, batter)
        state.order[t] = state.lineup[t].index(k)
        state.batted[t][k] = True
    return state


def plays(state, kind=None):
    return [p for p in state.log.plays if kind is None or p.kind == kind]


def extra(state, play):
    """The pitch total, chart, swing and result logged with a plate appearance."""
    return state.log_extra[state.log.plays.index(play)]


def batting_line(state, team, k):
    return state.box.lines[team][state.box_line[team][k]]


def pitching_line(state, team, k):
    return state.box.pitching[team][state.pitch_line[team][k]]
