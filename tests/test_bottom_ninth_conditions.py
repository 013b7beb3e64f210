"""Bottom of the 9th, Condition Cards in the two-player duel (option ``condition``).

Rulebook, Condition Cards: "Condition Cards are global effects that can change the feel of a
game. The Condition Cards from the solo game may also be used in a two-player game, but it
should be noted that these are typically not balanced, providing one player with a handicap
that must be overcome!" The built-in solo Effect cards (``data/solo.json``) played in the
duel (RULES.md; ``envs/bottom_ninth/conditions.py``).

Scripted rolls per pitch as in test_bottom_ninth_rules.py.
"""

from __future__ import annotations


import pytest

from dugout.agents.solvers.bottom_ninth import EquilibriumAgent
from dugout.agents.solvers.bottom_ninth.model import Duel
from dugout.envs import bottom_ninth_v0
from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.conditions import load_solo
from dugout.envs.bottom_ninth.rules import DONE, GUESS, REROLL_SWING, THROW
from dugout.envs.core import OptionError, ScriptedDice

from bottom_ninth_samples import check_samples
from helpers import FULL, dumps, games, random_games, roundtrip
from test_bottom_ninth_cards import blank_cards

HI, LA = 0, 3
IDS = [e.id for e in load_solo().effects]


def duel(condition: str, rolls=(), **options):
    """A duel with blank cards and the condition, its dice scripted."""
    env = bottom_ninth_v0.raw_env(cards=blank_cards(), condition=condition,
                                  dice=ScriptedDice(list(rolls)), **options)
    env.reset(seed=0)
    return env, env.unwrapped.state_


def test_sacrifice_bunt_one_out_and_a_runner_on_second():
    """e14 Sacrifice Bunt ("one out and a runner on second"): the first pitch comes with one
    out and the batter before the first one up on second."""
    env, s = duel("e14")
    assert s.condition == IDS.index("e14")
    assert s.board.outs == 1 and s.board.bases == (None, 5, None) and s.order[1] == 0
    assert env.unwrapped.view("home").runners == (False, True, False)


def test_insurance_run_the_visitors_lead_and_a_tying_run_does_not_win():
    """e11 Insurance Run ("The visitors tacked on a run"): away leads 1-0; a crushed home run
    ties it and the game goes on (home wins only by taking the lead)."""
    rolls = [("pitch", 4), ("control", 5), ("swing", 6), ("crush", 6), ("catch", 1)]
    env, s = duel("e11", rolls)
    assert s.board.runs == [1, 0]
    env.step(THROW + LA)
    env.step(GUESS + HI)
    assert s.board.runs == [1, 1] and not s.board.over


def test_dead_arm_starts_the_pitcher_five_rows_down_and_wild():
    """e01 Dead Arm ("he starts 5 cards down", and a Ball on a natural 1 hits the batter): the
    starter's tokens take five rows, the direction token first (4 rows: 3 and 2, the
    direction exhausted), and every pitcher card has the hit_by_pitch trait."""
    env, s = duel("e01")
    assert s.fatigue == [3, 2]
    assert all(s.cards.trait(i, "hit_by_pitch") for i in range(len(s.cards.batters), len(s.cards.cards)))
    ace_direction = s.cards.card(s.pitcher).ace_direction
    assert all(p % 2 != ace_direction for p in rules.legal_pitches(s))


def test_extra_batting_practice_is_a_once_a_game_ability_for_the_batter():
    """e08 Extra Batting Practice ("twice this game, reroll the Swing die or ..."): a
    choose-2 ability for whoever bats, used once per manager; home uses it on a swing of 1."""
    rolls = [("pitch", 4), ("control", 6), ("swing", 1), ("swing", 2)]
    env, s = duel("e08", rolls)
    assert s.shared_support and s.support == [0, 0] and s.supports.cards[0].side == "batting"
    env.step(THROW + LA)
    env.step(GUESS + HI)
    d = s.pending
    assert d.kind == "batter_ability" and REROLL_SWING in d.legal
    env.step(REROLL_SWING)
    assert s.swing == 2 and s.support_used == [False, True]
    assert s.pending.kind == "batter_ability" and DONE in s.pending.legal     # its second use


def test_green_light_writes_speed_on_every_batter():
    env, s = duel("e05")
    assert all(s.cards.trait_by(i, "speed") == 1 for i in range(len(s.cards.batters)))


def test_options_are_checked():
    for bad, words in (({"condition": "e99"}, "Effect card id"),
                       ({"condition": 5}, "Effect card id"),
                       ({"condition": "e05", "mode": "game"}, "option of the duel"),
                       ({"condition": "e05", "support": True}, "cannot be combined"),
                       ({"condition": "e03"}, "cannot be played")):
        with pytest.raises(OptionError, match=words):
            bottom_ninth_v0.raw_env(**bad)


def test_a_random_condition_is_drawn_each_game_and_public():
    env = bottom_ninth_v0.raw_env(condition="random")
    drawn = set()
    for seed in range(60):
        env.reset(seed=seed)
        s = env.unwrapped.state_
        assert env.unwrapped.view("away").condition == env.unwrapped.view("home").condition == s.condition
        drawn.add(s.condition)
    assert len(drawn) >= 10 and IDS.index("e03") not in drawn


@pytest.mark.parametrize("options", [{"condition": "random"},
                                     {"condition": "e14", "teams": "choose", "draft": True},
                                     {"condition": "e11", "extra_innings": True}], ids=str)
def test_random_games_samples_and_saves(options):
    """Random games keep the contract and save; every state's view samples, plays on and
    saves; the observation is the view's encoding."""
    for env in random_games("bottom_ninth_v0", range(games(30, 8)), options):
        state = env.unwrapped.state_
        assert dumps(roundtrip(state)) == dumps(state)
    check_samples(options, range(games(6, 2)), play_every=1 if FULL else 8)


def test_the_solver_refuses_conditions():
    with pytest.raises(ValueError, match="Condition"):
        Duel.from_options(condition="e05")
    env = bottom_ninth_v0.raw_env(condition="e05")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="Condition"):
        EquilibriumAgent().solution_for(env.unwrapped.view("home"))
