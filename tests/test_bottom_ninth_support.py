"""Bottom of the 9th, support characters in the duel (option ``support``).

Rulebook, Support Characters: "During setup, you may put one character into play. Both you
and your opponent can use the Abilities described throughout the game. Alternatively, you
may assign or draft support characters that may only be used by the player that controls
them. We recommend that a player only have one active support character at a time."
``support=True``: one card each (assigned, picked, or drafted last); ``support="shared"``:
one card for both, each manager using it once (RULES.md).

Scripted rolls per pitch as in test_bottom_ninth_rules.py: a strike is ("pitch", 4) S,
("control", 6), ("swing", 1).
"""

from __future__ import annotations


import pytest

from dugout.agents import make_agent
from dugout.agents.play import play_game
from dugout.agents.solvers.bottom_ninth import EquilibriumAgent
from dugout.agents.solvers.bottom_ninth.model import Duel
from dugout.envs import bottom_ninth_v0, make as make_env
from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.cards import load_cards
from dugout.envs.bottom_ninth.env import default_team, encode_state, encode_view
from dugout.envs.bottom_ninth.rules import (DONE, GUESS, KEEP, REROLL_SWING, SUPPORT, THROW,
                                            apply_action)
from dugout.envs.bottom_ninth.sample import public_setup
from dugout.envs.bottom_ninth.support import load_support
from dugout.envs.bottom_ninth.view import view_of
from dugout.envs.core import OptionError, ScriptedDice

from bottom_ninth_samples import check_samples
from helpers import FULL, dumps, games, random_games, roundtrip
from test_bottom_ninth_cards import blank_cards

LA, HI = 3, 0
STRIKE = [("pitch", 4), ("control", 6), ("swing", 1)]
SUPPORT_SETS = ({"support": True}, {"support": "shared"}, {"support": True, "teams": "choose"},
                {"support": True, "teams": "choose", "draft": True},
                {"support": "shared", "extra_innings": True},
                {"mode": "game", "support": "shared"})


def duel(rolls, support, extra_innings=False):
    """A duel with blank cards and the default teams (both sides' with the tenth inning)."""
    cs = load_cards(blank_cards())
    lineup, staff = default_team(cs)
    more = {}
    if extra_innings:
        away_lineup, home_staff = default_team(cs, exclude=set(lineup) | set(staff))
        more = dict(extra_innings=True, away_lineup=away_lineup, home_staff=home_staff)
    return rules.new_game(ScriptedDice(rolls), cs, lineup=lineup, staff=staff, support=support,
                          supports=load_support(), **more)


def throw(state, n=1):
    """``n`` pitches, Low & Away guessed High & Inside (a blank card's pitch: no grants)."""
    for _ in range(n):
        while state.pending.kind in ("pitching_change", "relief"):
            apply_action(state, KEEP if state.pending.kind == "pitching_change" else state.pending.legal[0])
        apply_action(state, THROW + LA)
        apply_action(state, GUESS + HI)
        if state.pending.kind == "pitcher_ability":      # away keeps its card for later
            assert state.pending.legal[0] == DONE
            apply_action(state, DONE)


def test_assigned_cards_are_used_once_by_their_owner():
    """support=True with given teams: away (who pitches) holds the first pitching card, home
    the first batting card (Marisol Dunne: reroll the Swing die, once per game). Home rerolls
    a swing of 1 with it; it is spent and never offered again."""
    state = duel(STRIKE + [("swing", 1)] + STRIKE, support=True)
    cards = state.supports.cards
    assert cards[state.support[0]].side == "pitching" and cards[state.support[1]].side == "batting"
    assert cards[state.support[1]].id == "s01"
    throw(state)
    d = state.pending
    assert d.kind == "batter_ability" and d.actor == 1 and d.legal == (DONE, REROLL_SWING)
    assert [g.source for g in state.grants[1]] == ["support"]
    apply_action(state, REROLL_SWING)
    assert state.support_used == [False, True] and state.strikes == 1
    throw(state)                             # the next pitch: no support left, nothing asked
    assert state.strikes == 2 and state.pending.kind == "pitch"


def test_a_shared_card_is_used_by_both_managers():
    """support="shared" ("Both you and your opponent can use the Abilities"): one card in
    play for both. With the batting card and the tenth inning, home rerolls a swing with it
    in the ninth, then away, batting in the top of the 10th, with the same card."""
    rolls = [("support", 0)] + STRIKE + [("swing", 1)] + STRIKE * 8 + STRIKE + [("swing", 1)]
    state = duel(rolls, support="shared", extra_innings=True)
    assert state.support == [0, 0]           # the die drew the batting card s01
    throw(state)
    assert state.pending.kind == "batter_ability" and state.pending.actor == 1
    apply_action(state, REROLL_SWING)
    assert state.support_used == [False, True]
    throw(state, 8)                          # the ninth's three outs, no card left for home
    assert (state.board.inning, state.board.half) == (10, 0)
    throw(state)
    d = state.pending
    assert d.kind == "batter_ability" and d.actor == 0 and REROLL_SWING in d.legal
    apply_action(state, REROLL_SWING)
    assert state.support_used == [True, True] and state.support == [0, 0]


def test_the_shared_card_is_drawn_by_a_die_and_public():
    """Who puts the one character into play is not said: a die draws it at set-up, the same
    for both, shown in both views; across seeds every card of the set comes up."""
    env = bottom_ninth_v0.raw_env(support="shared")
    drawn = set()
    for seed in range(60):
        env.reset(seed=seed)
        s = env.unwrapped.state_
        assert s.support[0] == s.support[1] >= 0 and s.shared_support
        assert env.unwrapped.view("away").support == env.unwrapped.view("home").support == tuple(s.support)
        drawn.add(s.support[0])
    assert drawn == set(range(len(load_support().cards)))


def test_choose_and_draft_give_each_manager_a_card():
    """teams="choose": away picks a support card, then home, one the other does not hold
    (select_support); with the draft the support cards are drafted last ("Optionally, draft
    an equal number of support cards last"), the first picker first."""
    env = bottom_ninth_v0.raw_env(support=True, teams="choose")
    env.reset(seed=1)
    game = env.unwrapped
    while game.state_.pending.kind != "select_support":
        env.step(game.state_.pending.legal[0])
    d = game.state_.pending
    assert d.actor == 0 and d.legal == tuple(SUPPORT + k for k in range(6))
    env.step(SUPPORT + 2)
    d = game.state_.pending
    assert d.kind == "select_support" and d.actor == 1 and SUPPORT + 2 not in d.legal
    env = bottom_ninth_v0.raw_env(support=True, teams="choose", draft=True)
    env.reset(seed=1)
    game = env.unwrapped
    while not (game.state_.pending.kind == "draft_pick" and game.state_.pending.legal[0] >= SUPPORT):
        env.step(game.state_.pending.legal[0])
    s = game.state_
    assert len(s.drafted[0]) == len(s.drafted[1]) == 9 and s.pending.actor == s.draft_first


def test_options_are_checked():
    with pytest.raises(OptionError, match="support must be"):
        bottom_ninth_v0.raw_env(support="both")
    with pytest.raises(OptionError, match="batters and pitchers"):
        bottom_ninth_v0.raw_env(batters=9)


@pytest.mark.parametrize("options", SUPPORT_SETS, ids=str)
def test_random_games_keep_the_contract(options):
    """Random games: the invariants, infos and rewards; saves that load the same; the
    observation within its space and equal to the view's encoding."""
    env = bottom_ninth_v0.raw_env(**options)
    space = env.observation_space("away")["observation"]
    used = 0
    for env in random_games("bottom_ninth_v0", range(games(40, 10) if options.get("mode") != "game" else games(6, 2)),
                            options):
        state = env.unwrapped.state_
        used += sum(state.support_used)
        assert dumps(roundtrip(state)) == dumps(state)
        for i, seat in enumerate(("away", "home")):
            assert space.contains(env.observe(seat)["observation"])
            assert (encode_state(state, i) == encode_view(view_of(state, i))).all()
    assert used > 0


@pytest.mark.parametrize("options", SUPPORT_SETS[:5], ids=str)
def test_a_sample_shows_the_view_plays_on_and_saves(options):
    assert public_setup(bottom_ninth_v0.raw_env(**options))["support"] == options["support"]

    def same_support(state, sample):
        assert sample.support == state.support and sample.support_used == state.support_used
    check_samples(options, range(games(8, 3)), play_every=1 if FULL else 8, extra=same_support)


def test_the_solver_refuses_support_cards():
    with pytest.raises(ValueError, match="support"):
        Duel.from_options(support=True)
    env = bottom_ninth_v0.raw_env(support="shared")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="support"):
        EquilibriumAgent().solution_for(env.unwrapped.view("home"))


def test_the_heuristic_picks_a_card_it_can_use_and_uses_it():
    """The heuristic picks a card of the side it plays in the duel (away pitching cards, home
    batting cards; a random pick is of the wrong side about half the time and can never be
    used) and uses its card in most games."""
    env = make_env("bottom_ninth_v0", support=True, teams="choose")
    n, used = games(60, 20), [0, 0]
    for seed in range(n):
        managers = {s: make_agent("bottom_ninth_v0", "heuristic") for s in ("away", "home")}
        play_game(env, managers, seed)
        s = env.unwrapped.state_
        cards = s.supports.cards
        assert cards[s.support[0]].side == "pitching" and cards[s.support[1]].side == "batting"
        for t in (0, 1):
            used[t] += s.support_used[t]
    assert min(used) >= 0.6 * n, used
