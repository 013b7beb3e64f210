"""Setting up a situation in the engine and playing it out (simulations that check the
solved values against the engine itself). The situation is the engine's own
(``rules.start_half_inning``)."""

from __future__ import annotations

from typing import Any, Sequence

from ....envs.core.dice import Dice
from ....envs.thats_baseball import rules
from ....envs.thats_baseball.cards import lineup_team
from ....envs.thats_baseball.view import make_view
from .chart import check_innings

__all__ = ["situation", "play_out"]


def situation(lineups: Sequence[Sequence[int]], seed: int, *, innings: int = 9, inning: int = 1,
              half: int = 0, outs: int = 0, bases: int = 0, score: tuple[int, int] = (0, 0),
              order: tuple[int, int] = (0, 0)) -> rules.GameState:
    """An engine game at the start of a plate appearance in the given situation, with
    dice ``Dice(seed)``, played on to its first decision; ``innings`` is 1 to 9 (MAX_INNINGS)."""
    innings = check_innings(innings)
    teams = (lineup_team("away", lineups[0]), lineup_team("home", lineups[1]))
    at = order[half]
    state = rules.start_half_inning(teams, Dice(seed), inning=inning, half=half, outs=outs,
                                    runners=rules.runners_before(at, bases), leadoff=at,
                                    fielding_next=order[1 - half], innings=innings, score=score)
    rules.run(state)
    return state


def play_out(state: rules.GameState, managers: Sequence[Any]) -> int | None:
    """Play an engine game to its end with ``managers[seat]`` (agents reading views)."""
    while not state.over:
        d = state.pending
        rules.apply_action(state, managers[d.actor].act(None, make_view(state, d.actor)))
    return state.winner
