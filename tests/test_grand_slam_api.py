"""Harry's Grand Slam Baseball through the PettingZoo AEC API: the API and seed tests,
reward attribution, decision infos and masks, the manager's view and the observation
built from it, hidden information, illegal actions, options, the docstring's tables and
rendering."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from dugout.agents import RandomAgent
from dugout.envs import grand_slam_v0
from dugout.envs.core import DataError, IllegalActionError, OptionError
from dugout.envs.grand_slam import GrandSlamView, rules
from dugout.envs.grand_slam import env as gs_env_module
from dugout.envs.grand_slam.cards import CARD_NAMES, N_HAND_TYPES, N_TYPES
from dugout.envs.grand_slam.env import OBS, PIECES, encode_view

AGENTS = ("away", "home")
N_ACTIONS = rules.N_ACTIONS


def play_out(env, seed, on_live_step=None):
    """Play a seeded game with random agents; return (last live actor, final steps)."""
    agents = {a: RandomAgent(seed=1000 * seed + i) for i, a in enumerate(AGENTS)}
    env.reset(seed=seed)
    last_actor = None
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, term, trunc, info)
            env.step(None)
            continue
        assert not final
        if on_live_step is not None:
            on_live_step(env, agent, obs, info)
        last_actor = agent
        env.step(agents[agent].act(obs))
    return last_actor, final


# -- PettingZoo's own tests --------------------------------------------------------------------
def test_pettingzoo_api_test():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*reset\(\) ignores options.*")
        api_test(grand_slam_v0.env(), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(grand_slam_v0.env, num_cycles=300)


def test_same_seed_same_game_different_seed_different_game():
    def transcript(seed):
        env = grand_slam_v0.env()
        play_out(env, seed)
        return json.dumps(env.unwrapped.game.to_dict(), sort_keys=True)

    assert transcript(4) == transcript(4)
    assert transcript(5) != transcript(4)


# -- rewards -------------------------------------------------------------------------------------
def test_reward_attribution_follows_the_score():
    env = grand_slam_v0.env()
    last_actors = set()
    for seed in range(120):
        last_actor, final = play_out(env, seed)
        assert set(final) == set(AGENTS)
        score = final["away"][3]["score"]
        assert score["away"] != score["home"]
        winner = max(score, key=score.get)
        loser = "home" if winner == "away" else "away"
        assert final[winner][0] == 1 and final[loser][0] == -1
        for agent in AGENTS:
            reward, term, trunc, info = final[agent]
            assert term is True and trunc is False
            assert info["winner"] == winner
            assert info["box_score"]["runs"] == [score["away"], score["home"]]
        last_actors.add(last_actor)
    assert last_actors == set(AGENTS)


def test_max_innings_truncates_a_tied_game():
    env = grand_slam_v0.env(innings=1, max_innings=1)
    tied = 0
    for seed in range(80):
        _, final = play_out(env, seed)
        score = final["away"][3]["score"]
        if score["away"] == score["home"]:
            tied += 1
            for agent in AGENTS:
                reward, term, trunc, info = final[agent]
                assert trunc is True and term is False and reward == 0 and info["winner"] is None
    assert tied > 0


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
        assert list(info["decision"]["options"]) == list(legal)
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
            assert view.labels == (tuple(info["decision"]["options"][a] for a in legal) if acting else ())
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


def test_view_is_frozen_and_documents_every_field():
    env = grand_slam_v0.raw_env()
    env.reset(seed=0)
    view = env.view("away")
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.outs = 2
    doc = GrandSlamView.__doc__
    for f in dataclasses.fields(GrandSlamView):
        assert f"``{f.name}``" in doc, f"field {f.name} is not documented"
    with pytest.raises(ValueError, match="unknown agent"):
        env.view("umpire")
    with pytest.raises(RuntimeError, match="before reset"):
        grand_slam_v0.raw_env().view("away")


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


# -- illegal actions ----------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["unlisted", N_ACTIONS, -1, None])
def test_illegal_action_in_env_loses_the_game(bad):
    env = grand_slam_v0.env()
    env.reset(seed=3)
    decision = env.unwrapped.game.pending
    offender = env.agent_selection
    action = next(a for a in range(N_ACTIONS) if a not in decision.legal) if bad == "unlisted" else bad
    env.step(action)
    assert all(env.terminations.values())
    for agent in AGENTS:
        why = env.infos[agent]["illegal_action"]
        assert why["agent"] == offender and repr(decision.kind) in why["reason"]
    finals = {}
    for agent in env.agent_iter():
        _, reward, term, _, _ = env.last()
        finals[agent] = reward
        env.step(None)
    assert finals[offender] == -1 and finals[AGENTS[1 - AGENTS.index(offender)]] == 0


def test_illegal_action_in_raw_env_raises_naming_decision_and_legal_actions():
    env = grand_slam_v0.raw_env()
    env.reset(seed=3)
    decision = env.game.pending
    before = json.dumps(env.game.to_dict(), sort_keys=True)
    illegal = next(a for a in range(N_ACTIONS) if a not in decision.legal)
    with pytest.raises(IllegalActionError) as err:
        env.step(illegal)
    msg = str(err.value)
    assert decision.kind in msg
    for a in decision.legal:
        assert f"{a} ({rules.ACTIONS[a]})" in msg
    assert json.dumps(env.game.to_dict(), sort_keys=True) == before
    env.step(decision.legal[0])


# -- options ------------------------------------------------------------------------------------
def test_unknown_option_names_it():
    with pytest.raises(OptionError, match="'teams'"):
        grand_slam_v0.env(teams=("a", "b"))
    with pytest.raises(OptionError, match="'foo'"):
        grand_slam_v0.raw_env(foo=1)


@pytest.mark.parametrize("kwargs, words", [
    (dict(innings=0), "innings"),
    (dict(innings="9"), "innings"),
    (dict(innings=True), "innings"),
    (dict(innings=9, max_innings=8), "max_innings"),
    (dict(max_innings="12"), "max_innings"),
    (dict(render_mode="rgb_array"), "render_mode"),
    (dict(illegal_action="ignore"), "illegal_action"),
    (dict(dice=3), "dice"),
])
def test_bad_option_values_fail_loudly(kwargs, words):
    with pytest.raises(OptionError, match=words):
        grand_slam_v0.env(**kwargs)


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


# -- documentation ------------------------------------------------------------------------------
def test_docstring_observation_table_matches_pieces():
    doc = gs_env_module.__doc__
    assert OBS.table() in doc
    assert grand_slam_v0.__doc__ == doc
    for name, size, meaning in PIECES:
        assert f"`{name}` | {meaning} |" in doc
    shape = re.search(r"Observation shape \| \((\d+),\)", doc)
    assert shape and int(shape.group(1)) == OBS.size
    env = grand_slam_v0.env()
    assert env.observation_space("away")["observation"].shape == (OBS.size,)


def test_action_meanings_one_label_per_action():
    env = grand_slam_v0.env()
    meanings = env.unwrapped.get_action_meanings()
    n = env.action_space("away").n
    assert len(meanings) == n == N_ACTIONS == 20 and len(set(meanings)) == n
    doc = gs_env_module.__doc__
    assert f"Discrete({n})" in doc
    for a in range(n):
        assert re.search(rf"^\| {a} \| ", doc, re.M), f"action {a} missing from the docstring"


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


def test_human_render_prints(capsys):
    env = grand_slam_v0.env(render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "Top of the 1st" in capsys.readouterr().out
