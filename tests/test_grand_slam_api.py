"""Harry's Grand Slam Baseball through the PettingZoo AEC API: what only Grand Slam's tests
need.

The API and seed tests, rewards, dead steps and max_innings truncation, decision infos
against masks, views and observations, illegal actions, the docstring's tables and the
rendering modes are the contract suite's (``test_contract.py``), for every ruleset. Here:
the view holds exactly the game a manager may see, hidden cards stay hidden, options and the
deck, and the scorecard.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from dugout.envs import grand_slam_v0
from dugout.envs.core import DataError, OptionError
from dugout.envs.grand_slam import GrandSlamView, rules
from dugout.envs.grand_slam.cards import CARD_NAMES, N_HAND_TYPES, N_TYPES
from dugout.envs.grand_slam.env import OBS, encode_view

from helpers import AGENTS, option_labels, play_out

N_ACTIONS = rules.N_ACTIONS


# -- decisions, masks and the view -------------------------------------------------------------------
def test_decision_info_mask_view_and_observation_agree():
    env = grand_slam_v0.env()
    kinds = set()

    def check(env, agent, obs, info):
        game = env.unwrapped.game
        b = game.board
        pending = game.pending
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (N_ACTIONS,)
        legal = tuple(np.flatnonzero(mask).tolist())
        assert legal == pending.legal and AGENTS[pending.actor] == agent
        assert info["decision"]["kind"] == pending.kind
        assert list(option_labels(info["decision"])) == list(legal)
        assert (pending.kind == "batting_play") == (AGENTS[b.half] == agent)
        kinds.add(pending.kind)
        for seat, name in enumerate(AGENTS):
            view = env.unwrapped.view(name)
            assert isinstance(view, GrandSlamView)
            o = env.observe(name)["observation"]
            assert np.array_equal(o, encode_view(view))
            v = OBS.unpack(o)
            acting = name == agent
            assert view.seat == seat and view.batting == (b.half == seat)
            assert view.decision == (pending.kind if acting else None)
            assert view.legal == (pending.legal if acting else ())
            assert view.labels == (tuple(option_labels(info["decision"])[a] for a in legal) if acting else ())
            assert (view.inning, view.half, view.outs) == (b.inning, b.half, b.outs)
            assert view.runs == tuple(b.runs)
            assert view.runners == tuple(r is not None for r in b.bases)
            assert list(view.hand) == game.hands[seat][:N_HAND_TYPES]
            assert sum(view.hand) == 3 and view.opp_hand_size == 3
            assert view.own_stacks == len(game.stacks[seat])
            assert view.opp_stacks == len(game.stacks[1 - seat])
            assert list(view.discards) == game.discards
            assert list(view.in_play) == game.in_play()[:N_HAND_TYPES]
            assert view.deck_left == len(game.deck) and view.deck_size == 55
            assert view.innings_to_shuffle == 3 - (b.inning - 1) % 3
            assert len(view.hand_cards) == 3 and all(c in CARD_NAMES for c in view.hand_cards)
            # the unseen cards are exactly the draw pile, the other hand and the face-down cards
            unseen = [0] * N_TYPES
            for c in game.deck:
                unseen[c] += 1
            for c in range(N_TYPES):
                unseen[c] += game.hands[1 - seat][c]
            for s in game.stacks:
                for c in s:
                    unseen[c] += 1
            assert list(view.unseen()) == unseen
            # a few pieces of the vector, decoded
            assert v["seat"].tolist() == [float(seat == 0), float(seat == 1)]
            assert v["decision"].sum() == float(acting)
            assert np.allclose(v["hand"] * 3, view.hand)
            assert np.isclose(v["deck_left"][0], len(game.deck) / 55)
            assert np.isclose(v["own_stacks"][0], view.own_stacks / 4)
        other = AGENTS[1 - AGENTS.index(agent)]
        assert not env.observe(other)["action_mask"].any()

    for seed in range(15):
        play_out(env, seed, on_live_step=check)
    assert kinds == set(rules.DECISION_KINDS)


def test_view_documents_every_field_by_name():
    """(The contract checks that the view is a frozen dataclass whose docstring names each
    field; Grand Slam's documents each as ``name``.)"""
    doc = GrandSlamView.__doc__
    for f in dataclasses.fields(GrandSlamView):
        assert f"``{f.name}``" in doc, f"field {f.name} is not documented"


# -- hidden information -----------------------------------------------------------------------------
def test_hidden_cards_never_reach_the_acting_managers_observation_or_view(hidden_variants):
    rng = random.Random(0)
    checked = with_stacks = 0
    for a_env, b_env, state, other in hidden_variants(range(40), rng):
        viewer = state.pending.actor
        assert other.card_census() == state.card_census()
        assert other.hands[1 - viewer] != state.hands[1 - viewer] or other.deck != state.deck
        agent = AGENTS[viewer]
        oa, ob = a_env.observe(agent), b_env.observe(agent)
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        assert a_env.view(agent) == b_env.view(agent)
        assert a_env.infos[agent] == b_env.infos[agent]
        # the test is not vacuous: the opponent, who does see his own hand, sees a change
        opp = AGENTS[1 - viewer]
        if other.hands[1 - viewer] != state.hands[1 - viewer]:
            assert a_env.view(opp) != b_env.view(opp)
            assert not np.array_equal(a_env.observe(opp)["observation"],
                                      b_env.observe(opp)["observation"])
        checked += 1
        with_stacks += bool(state.stacks[0] or state.stacks[1])
    assert checked >= 30 and with_stacks > 0


# -- options ------------------------------------------------------------------------------------
def test_teams_is_not_an_option():
    with pytest.raises(OptionError, match="'teams'"):
        grand_slam_v0.env(teams=("a", "b"))


def test_bad_deck_option_raises_data_error():
    with pytest.raises(DataError, match="homer"):
        grand_slam_v0.env(deck={"homer": 3})
    with pytest.raises(DataError, match="deck"):
        grand_slam_v0.env(deck=54)


def test_a_54_card_deck_plays():
    counts = {"single": 6, "double": 3, "triple": 2, "home_run": 2, "walk": 3, "hit_by_pitch": 1,
              "error": 2, "ground_out": 10, "strike_out": 10, "fly_out": 3, "sacrifice_bunt": 2,
              "double_play": 2, "wild_pitch": 1, "passed_ball": 1, "stolen_base": 1, "balk": 1,
              "pinch_hitter": 4}
    env = grand_slam_v0.env(deck=counts, innings=3)
    _, final = play_out(env, 1)
    assert env.unwrapped.game.card_census() == list(env.unwrapped.counts)
    assert sum(env.unwrapped.counts) == 54
    assert env.unwrapped.view("away").deck_size == 54


# -- rendering ------------------------------------------------------------------------------------
def test_ansi_render_scorecard_and_play_by_play():
    env = grand_slam_v0.env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "Visitors" in text and "R  H  E" in text and "Top of the 1st" in text
    assert "away hand:" in text and env.unwrapped.game.pending.kind in text
    play_out(env, seed=2)
    text = env.render()
    away, home = env.unwrapped.game.score
    assert "Final" in text and f"{max(away, home)}-{min(away, home)}" in text
    card = env.unwrapped.scorecard()
    assert "VISITORS" in card and "HOME" in card and "Visitors 1st." in card
    assert "played by" in card
    quiet = grand_slam_v0.raw_env()
    quiet.reset(seed=2)
    assert quiet.render() is None
