"""A stare-down state set up in the engine and played out: the solver's values against play."""

from __future__ import annotations

from typing import Any, Sequence

from ....envs.bottom_ninth import rules
from ....envs.bottom_ninth.env import encode_view
from ....envs.bottom_ninth.view import view_of
from ....envs.core.decisions import action_mask
from ....envs.core.dice import Dice
from .model import Duel

__all__ = ["start_state", "play_out"]


def start_state(duel: Duel, seed: int, outs: int = 0, bases: int = 0, balls: int = 0,
                strikes: int = 0, slot: int = 0, fatigue: tuple[int, int] = (0, 0),
                relieved: bool = False):
    """An engine game of ``duel`` (dice seeded by ``seed``) at a stare-down: the state the
    solver calls ``(relieved, slot, outs, bases, balls, strikes, *fatigue)``."""
    from .policy import _place, _table_state
    pit = int(bool(relieved))
    if not duel.valid(pit, fatigue) or max(fatigue) >= duel.rows:
        raise ValueError(f"rows {fatigue} are not possible for the "
                         f"{'reliever' if relieved else 'starter'} on a {duel.rows}-row track")
    state = _table_state(duel)
    state.dice = Dice(seed)
    _place(state, duel, pit, slot, outs, bases, balls, strikes, *fatigue)
    if relieved:
        state.box.add_pitcher(0, duel.cards.card(duel.staff[1]).name)
    rules.run(state)
    return state


def play_out(state, managers: Sequence[Any]) -> int:
    """Play a game to its end with ``managers`` (away, home) deciding; 1 if the batting
    side won, else 0. Managers are asked as in the env: ``act(observation, view)``."""
    n = rules.N_ACTIONS
    while not state.board.over:
        d = state.pending
        agent = managers[d.actor]
        view = view_of(state, d.actor)
        needs_view = getattr(agent, "needs_view", True)
        obs = {"observation": None if needs_view else encode_view(view),
               "action_mask": action_mask(n, d.legal)}
        rules.apply_action(state, agent.act(obs, view if needs_view else None))
    return int(state.board.runs[1] > state.board.runs[0])
