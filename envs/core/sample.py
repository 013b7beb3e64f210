"""What every ruleset's ``sample_state(view, rng, setup)`` shares: a game rebuilt from one
manager's view for search, with what the view hides drawn afresh (each ruleset's
``sample.py`` says what that is).

* :func:`check_sample_args`: the arguments checked, each refusal naming what was wrong;
* :func:`scoreboard_from_view`: the scoreboard of a view's situation (inning, half, outs,
  score, and the result of a finished game), each team's runs in its first inning's column
  (a view shows the score, not the line; no rule reads the line's columns).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from .scoreboard import Scoreboard

__all__ = ["check_sample_args", "scoreboard_from_view"]


def check_sample_args(view: Any, view_type: type, rng: Any, setup: Any = None,
                      setup_type: type | None = None, lacks: str = "") -> None:
    """A ``TypeError`` for a view not of ``view_type`` or an ``rng`` that is not a
    ``random.Random``; a ``ValueError`` for a seat other than 0 or 1, and, where the ruleset
    needs its public set-up (``setup_type`` given), for a ``setup`` that is not one, saying
    what the view ``lacks`` that the set-up holds."""
    if not isinstance(view, view_type):
        raise TypeError(f"sample_state: expected a {view_type.__name__}, got "
                        f"{type(view).__name__}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"sample_state: rng must be a random.Random, got {type(rng).__name__}")
    if view.seat not in (0, 1):
        raise ValueError(f"sample_state: the view's seat is 0 or 1, got {view.seat!r}")
    if setup_type is not None and not isinstance(setup, setup_type):
        raise ValueError(f"sample_state: pass the game's public set-up (public_setup(env)); the "
                         f"view holds {lacks}")


def scoreboard_from_view(*, inning: int, half: int, outs: int, score: Sequence[int],
                         over: bool, innings: int, max_innings: int | None) -> Scoreboard:
    """A scoreboard at a view's situation: ``inning``, ``half``, ``outs`` and ``score``
    (away, home); the line has a column for every inning each team has started, its runs in
    the first (a team that has not batted yet and has runs, by a forfeit, gets one column);
    a game ``over`` is won by the side ahead, a tie is one ``max_innings`` cut off."""
    board = Scoreboard(innings=innings, max_innings=max_innings)
    board.inning, board.half, board.outs = inning, half, outs
    board.runs = list(score)
    board.line = [[0] * inning, [0] * (inning - 1 + half)]
    for team in (0, 1):
        if board.line[team]:
            board.line[team][0] = score[team]
        elif score[team]:
            board.line[team].append(score[team])
    if over:
        away, home = score
        board.over = True
        board.truncated = away == home
        board.winner = None if away == home else int(home > away)
    return board
