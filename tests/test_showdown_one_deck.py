"""MLB Showdown: a strategy deck on one side only.

The rulebook (Strategy Cards, 1): "When you build a team, you may build a deck of 60 strategy
cards to go with it. ... Strategy cards are used only if you and your opponent both have
strategy decks." With one deck and None the expert game is played without cards.
"""

from __future__ import annotations

import random

import pytest

from dugout import envs
from dugout.envs.core.errors import DataError, OptionError

def _play(env, seed: int) -> list:
    """A seeded random game's decisions, actions and final score."""
    game = env.unwrapped
    env.reset(seed=seed)
    rng = random.Random(seed)
    trail = []
    while game.state_.pending is not None:
        d = game.state_.pending
        a = rng.choice(d.legal)
        trail.append((d.kind, d.actor, d.legal, a))
        env.step(a)
    return trail + [tuple(game.state_.board.runs)]


@pytest.mark.parametrize("pair", [("default", None), (None, "small_ball")])
def test_one_deck_plays_the_expert_game_without_cards(pair):
    """Setup: the expert game, one manager with a deck. Expected: no card window, no hand,
    the action and observation spaces of the expert game without cards, and the same game
    as ``decks=None`` under the same seed and actions."""
    one = envs.make("showdown_v0", raw=True, level="expert", decks=pair)
    none = envs.make("showdown_v0", raw=True, level="expert")
    assert one.unwrapped.decks is None and one.unwrapped.card_set is None
    assert one.action_space("away") == none.action_space("away")
    assert one.observation_space("home") == none.observation_space("home")
    for seed in range(2):
        a, b = _play(one, seed), _play(none, seed)
        assert a == b
        assert "play_card" not in {kind for kind, *_ in a[:-1]}
    state = one.unwrapped.state_
    assert state.hands == [[], []] and state.card_set is None


def test_the_one_deck_is_still_checked_and_both_decks_still_play_cards():
    with pytest.raises(DataError):
        envs.make("showdown_v0", raw=True, level="expert", decks=("no_such_deck", None))
    with pytest.raises(OptionError):        # a deck is still the expert game's only
        envs.make("showdown_v0", raw=True, level="advanced", decks=("default", None))
    both = envs.make("showdown_v0", raw=True, level="expert", decks=("default", "small_ball"))
    assert both.unwrapped.decks is not None
    both.reset(seed=0)
    assert len(both.unwrapped.state_.hands[0]) == 3
