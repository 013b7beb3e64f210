"""Setting up a situation in the engine and playing it out (simulations that check the
solved values against the engine itself)."""

from __future__ import annotations

from typing import Any, Sequence

from ....envs.core.dice import Dice
from ....envs.core.scoreboard import Scoreboard
from ....envs.core.scorebook import BoxScore, PlayLog
from ....envs.thats_baseball import rules
from ....envs.thats_baseball.cards import Batter, Team
from ....envs.thats_baseball.view import make_view
from .chart import check_innings

__all__ = ["situation", "play_out"]


def _team(name: str, lineup: Sequence[int]) -> Team:
    return Team(name, tuple(Batter(f"#{i + 1}", "DH", aa / 100, int(aa)) for i, aa in enumerate(lineup)))


def situation(lineups: Sequence[Sequence[int]], seed: int, *, innings: int = 9, inning: int = 1,
              half: int = 0, outs: int = 0, bases: int = 0, score: tuple[int, int] = (0, 0),
              order: tuple[int, int] = (0, 0)) -> rules.GameState:
    """An engine game at the start of a plate appearance in the given situation, with
    dice ``Dice(seed)``, played on to its first decision; ``innings`` is 1 to 9 (MAX_INNINGS)."""
    innings = check_innings(innings)
    teams = (_team("away", lineups[0]), _team("home", lineups[1]))
    board = Scoreboard(innings=innings)
    board.inning, board.half, board.outs = inning, half, outs
    board.runs = list(score)
    board.line = [[0] * inning, [0] * (inning - 1 + half)]     # the line score, for show
    board.line[0][0] = score[0]
    if board.line[1]:
        board.line[1][0] = score[1]
    at = order[half]
    board.bases = tuple((at + 8 - i) % 9 if bases >> i & 1 else None for i in range(3))
    box = BoxScore(["away", "home"], [[(b.name, str(b.aa)) for b in t.batters] for t in teams])
    state = rules.GameState(teams=teams, board=board, dice=Dice(seed), box=box, log=PlayLog(),
                            order=list(order))
    rules.run(state)
    return state


def play_out(state: rules.GameState, managers: Sequence[Any]) -> int | None:
    """Play an engine game to its end with ``managers[seat]`` (agents reading views)."""
    while not state.over:
        d = state.pending
        rules.apply_action(state, managers[d.actor].act(None, make_view(state, d.actor)))
    return state.winner
