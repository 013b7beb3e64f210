"""Bottom of the 9th, the Longer Game's team selection without a draft (``teams="choose"``):
a pitcher picked must be able to fill the staff slot he is picked for.

Rulebook, Setup, Pitcher: "A Pitcher with the designation of Starting Pitcher can only be
played as your initial Pitcher and may not be used for relief. A Pitcher with the
designation of Relief Pitcher can only be used to replace a Pitcher (can not start a game)."
"""

from __future__ import annotations

import random

import pytest

from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.cards import load_cards
from dugout.envs.bottom_ninth.rules import CARD, apply_action
from dugout.envs.bottom_ninth.sample import public_setup, sample_state
from dugout.envs.bottom_ninth.view import view_of
from dugout.envs.core import IllegalActionError
from dugout.envs.core.dice import Dice

from helpers import games, make

CARDS = load_cards("builtin")


def _to_pitcher_pick(state: rules.GameState, staff_size: int) -> None:
    """Play the first legal picks until away has picked ``staff_size`` pitchers."""
    while not (state.pending.kind == "select_pitcher" and len(state.staffs[0]) == staff_size):
        apply_action(state, state.pending.legal[0])


def test_a_relief_pitcher_cannot_be_picked_to_start():
    """Setup: away picks its starter; a Relief Pitcher (p06 Tobias Lund) is not offered and
    is refused; the starters and the either-role pitchers are."""
    state = rules.new_game(Dice(1), CARDS, mode="game", teams="choose", innings=3)
    _to_pitcher_pick(state, 0)
    d = state.pending
    offered = {CARDS.card(a - CARD).role for a in d.legal}
    assert offered == {"starter", "either"}
    lund = next(i for i, c in enumerate(CARDS.cards) if c.id == "p06")
    assert CARDS.card(lund).role == "reliever" and CARD + lund not in d.legal
    with pytest.raises(IllegalActionError):
        apply_action(state, CARD + lund)


def test_a_starting_pitcher_cannot_be_picked_for_the_bullpen():
    """After the starter, the bullpen picks: Starting Pitchers "may not be used for relief",
    so only relief-capable pitchers are offered."""
    state = rules.new_game(Dice(1), CARDS, mode="game", teams="choose", innings=3)
    _to_pitcher_pick(state, 1)
    assert CARDS.card(state.staffs[0][0]).can_start
    offered = {CARDS.card(a - CARD).role for a in state.pending.legal}
    assert offered == {"reliever", "either"}
    voss = next(i for i, c in enumerate(CARDS.cards) if c.id == "p01")
    with pytest.raises(IllegalActionError):
        apply_action(state, CARD + voss)


@pytest.mark.parametrize("pitchers", [2, 4])
def test_random_selections_give_legal_staffs(pitchers):
    """Over random selections every staff is a starter who may start and a bullpen who may
    relieve, for both teams, and the games play on to the end."""
    for seed in range(games(30, 8)):
        rng = random.Random(seed)
        state = rules.new_game(Dice(seed), CARDS, mode="game", teams="choose", innings=1,
                               pitchers=pitchers)
        while state.step != "half_start" and state.pending is not None and \
                state.pending.kind.startswith("select"):
            apply_action(state, rng.choice(state.pending.legal))
        for staff in state.staffs:
            assert len(staff) == pitchers
            assert CARDS.card(staff[0]).can_start
            assert all(CARDS.card(c).can_relieve for c in staff[1:])


def test_the_sampler_draws_legal_staff_orders_during_the_set_up():
    """While away's staff is being picked the view shows his pitchers in index order; the
    sample's order has a starter first and relievers after (the mask's rule), shows the
    view and plays on."""
    env = make("bottom_ninth_v0", {"mode": "game", "teams": "choose"}, raw=True)
    env.reset(seed=3)
    game = env.unwrapped
    while not (game.state_.pending.kind == "select_pitcher" and len(game.state_.staffs[0]) == 2):
        env.step(game.state_.pending.legal[-1])
    setup = public_setup(env)
    for seat in (0, 1):
        view = view_of(game.state_, seat)
        for k in range(10):
            sample = sample_state(view, random.Random(k), setup)
            assert view_of(sample, seat) == view
            staff = sample.staffs[0]
            assert CARDS.card(staff[0]).can_start and all(CARDS.card(c).can_relieve for c in staff[1:])


def test_the_default_presets_are_unchanged():
    """``teams="default"`` keeps the presets it shipped with (picked before the mask checked
    a pitcher's role; RULES.md), so every default game stays the same: away's bullpen is the
    next three cards of the set, Starting Pitchers who never come in."""
    state = rules.new_game(Dice(1), CARDS, mode="game", teams="default", innings=3)
    assert state.staffs == [[20, 21, 22, 23], [24, 25, 26, 27]]
