"""What a play does to the board and the books, shared by every step of the at-bat
(``rules.py``, ``windows.py``, ``expert.py``): runs scored and charged, the pitcher facing
the batter, the walk, the swing read on a chart, and the play log.
"""

from __future__ import annotations

from ..core.bases import force_advance
from ..core.scorebook import Play
from . import cardplay
from .state import GameState

__all__ = ["score_runs", "charge_runs", "charge_inning", "face_batter", "walk", "roll_swing",
           "log_play", "note_play"]


def score_runs(state: GameState, runners: list[int], home_run: bool = False) -> None:
    """``runners`` score on the at-bat's play: the runs the scoreboard counts are the
    at-bat's (``ab.scored``)."""
    counted = state.board.score(list(runners), home_run=home_run)
    state.ab.scored += tuple(counted)


def charge_runs(state: GameState, scored) -> None:
    """Runs scored (on a play or off a card): the runners' batting lines, and each run
    charged "to the player who was pitching when that batter reached base"."""
    if not scored:
        return
    bt = state.board.half
    ft = 1 - bt
    p = state.pitcher[ft]
    state.box.runs_scored(bt, [state.box_line[bt][r] for r in scored])
    for r in scored:
        charged = state.responsible.pop(r, p)
        state.runs_charged[ft][charged] += 1
        state.box.pitching[ft][state.pitch_line[ft][charged]].r += 1


def charge_inning(state: GameState, team: int, k: int) -> None:
    """The inning now counts against pitcher ``k``'s IP (once)."""
    innings = state.innings_pitched[team][k]
    if not innings or innings[-1] != state.board.inning:
        innings.append(state.board.inning)


def face_batter(state: GameState) -> int:
    """The pitcher faces the batter (a pitch, an intentional walk or a bunt): he is charged
    the inning; returns him."""
    b = state.board
    ft = 1 - b.half
    k = state.pitcher[ft]
    charge_inning(state, ft, k)           # a pitcher who pitches in an inning is charged it
    track = state.half_track
    if track.get("pitcher", -1) == -1:
        track["pitcher"] = k
    state.ab.outs_before = b.outs
    return k


def walk(state: GameState, k: int) -> None:
    """BB: the batter to first; only forced runners move."""
    b = state.board
    b.bases, scored = force_advance(b.bases, k)
    state.half_track["reached"] = 1
    state.responsible[k] = state.pitcher[state.fielding_team]
    score_runs(state, scored)


def roll_swing(state: GameState) -> None:
    """The swing on the chart the pitch chose, read with the cards' swing bonus."""
    roll = state.dice.roll("swing", sides=20)
    ab = state.ab
    bt = state.board.half
    if ab.chart == "P":
        chart = state.card(1 - bt, state.pitcher[1 - bt]).chart
    else:
        chart = state.card(bt, state.batter_index).chart
    ab.swing = roll
    ab.result = chart.result(cardplay.chart_roll(roll, cardplay.swing_bonus(state))
                             if state.cards_on else roll)


def log_play(state: GameState, kind: str, actor: int, base: int, roll: int | None, before: tuple,
         scored: tuple, detail: str = "", extra: tuple = ()) -> None:
    """A play for the log, and what the play-by-play says of it beyond the Play
    (``log_extra``: a plate appearance's pitch, chart, swing and result)."""
    b = state.board
    state.log.add(Play(b.inning, b.half, kind, actor, base, roll, before, b.bases, scored, detail))
    state.log_extra.append(extra)


def note_play(state: GameState, kind: str, actor: int, detail: str = "") -> None:
    """A play that moves nobody: substitutions and icons."""
    b = state.board
    log_play(state, kind, actor, -1, None, b.bases, (), detail)

