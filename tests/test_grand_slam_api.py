"""Harry's Grand Slam Baseball through the PettingZoo AEC API: what only Grand Slam's tests
need.

The API and seed tests, rewards, dead steps and max_innings truncation, decision infos
against masks, views and observations, illegal actions, the docstring's tables and the
rendering modes are the contract suite's (``test_contract.py``), for every ruleset. Here:
the view holds exactly the game a manager may see, hidden cards stay hidden (from the
observation, the view and the render: ``render_agent``), options and the deck, and the
scorecard.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from dugout.envs import grand_slam_v0
from dugout.envs.core import DataError, OptionError
from dugout.envs.grand_slam import GrandSlamView, rules
from dugout.envs.grand_slam.cards import CARD_NAMES, CARD_TYPES, N_HAND_TYPES, N_TYPES
from dugout.envs.core.decisions import Decision
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


# -- what a render shows ----------------------------------------------------------------------------
def _render(env, state):
    """``env``'s render of ``state`` (a copy is restored: ``state`` stays as it is)."""
    env.restore(state.clone())
    return env.render()


def _renderers(mode):
    """Raw envs rendering in ``mode`` for each viewer: None (the manager to act), the two
    managers and the spectator."""
    out = {}
    for viewer in (None, "away", "home", "spectator"):
        env = grand_slam_v0.raw_env(render_mode=mode, render_agent=viewer)
        env.reset(seed=0)
        out[viewer] = env
    return out


def _hand_text(state, seat):
    held = [CARD_TYPES[c].label for c in range(N_HAND_TYPES) for _ in range(state.hands[seat][c])]
    return f"{AGENTS[seat]} hand: {', '.join(held) or 'no cards'};"


def _hidden_text(state, seat):
    n = sum(state.hands[seat])
    return f"{AGENTS[seat]} hand: {n} card{'' if n == 1 else 's'}, hidden;"


def test_the_render_shows_the_manager_to_act_only_what_he_may_see(hidden_variants):
    """DESIGN contracts 5 and 13: a render shows what its viewer may see, by default the
    manager to act. Two games that differ only in what he cannot see (the other hand, the
    draw pile's order, the face-down cards) render the same text for him, and the same for
    the other manager made the viewer only when his own hand is the same; the spectator,
    who asked to see both hands, sees the difference."""
    text = _renderers("ansi")
    checked = differs = 0
    for _, _, state, other in hidden_variants(range(40), random.Random(1)):
        actor = state.pending.actor
        agent, opp = AGENTS[actor], AGENTS[1 - actor]
        for viewer in (None, agent):
            a, b = _render(text[viewer], state), _render(text[viewer], other)
            assert a == b, (viewer, a, b)
            assert _hand_text(state, actor) in a
            assert _hand_text(state, 1 - actor) not in a
            assert _hidden_text(state, 1 - actor) in a
            assert f"{agent} to decide ({state.pending.kind}): " in a       # his options
        spectator = _render(text["spectator"], state)
        assert _hand_text(state, 0) in spectator and _hand_text(state, 1) in spectator
        if other.hands[1 - actor] != state.hands[1 - actor]:
            assert spectator != _render(text["spectator"], other)
            assert _render(text[opp], state) != _render(text[opp], other)
            differs += 1
        checked += 1
    assert checked >= 30 and differs >= 20


def _hide_the_deciders_hand(state, rng):
    """A copy of ``state`` whose deciding manager holds other cards (swapped with cards of
    the draw pile, whose order is shuffled), with his pending decision offered from that
    hand: what the other manager cannot see. None where the new hand leaves no choice."""
    actor = state.pending.actor
    other = state.clone()
    hand = other.hands[actor]
    for _ in range(2):
        held = [c for c in range(N_HAND_TYPES) if hand[c]]
        card = rng.choice(held)
        swap = [i for i, c in enumerate(other.deck) if c != card and c < N_HAND_TYPES]
        i = rng.choice(swap)
        hand[card] -= 1
        hand[other.deck[i]] += 1
        other.deck[i] = card
    rng.shuffle(other.deck)
    assert other.card_census() == state.card_census()
    legal = tuple(c for c in range(N_HAND_TYPES) if other.hands[actor][c]) + tuple(
        rules.STACK_ACTION + i for i in range(len(other.stacks[actor])))
    if len(legal) < 2:
        return None
    other.pending = Decision(state.pending.kind, actor, legal)
    return other


def test_a_fixed_viewer_sees_neither_the_hand_nor_the_options_of_the_manager_to_act(hidden_variants):
    """``render_agent="away"`` (or ``"home"``): a person playing one seat sees his own hand
    at every step, and of the other manager's decision only who makes it and its kind (its
    options would name the cards in his hand)."""
    text = _renderers("ansi")
    rng = random.Random(2)
    checked = 0
    for _, _, state, _ in hidden_variants(range(40), random.Random(3)):
        other = _hide_the_deciders_hand(state, rng)
        if other is None or other.hands[state.pending.actor] == state.hands[state.pending.actor]:
            continue
        actor = state.pending.actor
        viewer = AGENTS[1 - actor]
        a, b = _render(text[viewer], state), _render(text[viewer], other)
        assert a == b, (a, b)
        assert _hand_text(state, 1 - actor) in a
        assert f"{AGENTS[actor]} to decide ({state.pending.kind}).\n" in a + "\n"
        assert _hidden_text(state, actor) in a and _hand_text(state, actor) not in a
        # the manager to act and the spectator see the change
        for seen_by in (None, AGENTS[actor], "spectator"):
            assert _render(text[seen_by], state) != _render(text[seen_by], other), seen_by
        checked += 1
    assert checked >= 20


def test_the_picture_shows_what_the_viewer_may_see(hidden_variants):
    """The same for ``render_mode="rgb_array"``: the twins' pictures are the same pixels for
    the manager to act (by default and by name) and for the other manager when only the
    decider's hand differs; the spectator's pictures differ."""
    pytest.importorskip("matplotlib")
    picture = _renderers("rgb_array")
    rng = random.Random(4)
    shown = hidden = 0
    for _, _, state, other in hidden_variants(range(12), random.Random(5)):
        actor = state.pending.actor
        if other.hands[1 - actor] == state.hands[1 - actor]:
            continue
        for viewer in (None, AGENTS[actor]):
            a, b = _render(picture[viewer], state), _render(picture[viewer], other)
            assert a.dtype == np.uint8 and a.ndim == 3
            assert np.array_equal(a, b), viewer
        assert not np.array_equal(_render(picture["spectator"], state),
                                  _render(picture["spectator"], other))
        shown += 1
        twin = _hide_the_deciders_hand(state, rng)
        if twin is not None and twin.hands[actor] != state.hands[actor]:
            viewer = AGENTS[1 - actor]
            assert np.array_equal(_render(picture[viewer], state), _render(picture[viewer], twin))
            assert not np.array_equal(_render(picture[None], state), _render(picture[None], twin))
            hidden += 1
        if shown >= 6 and hidden >= 3:
            break
    assert shown >= 6 and hidden >= 3


def test_the_scene_holds_the_viewers_hand_and_options():
    """What the picture is drawn from: the viewer's hand, the other's size; the options
    only for the viewer who decides; both hands and the options for the spectator."""
    env = grand_slam_v0.raw_env(render_mode="rgb_array")
    env.reset(seed=2)
    state = env.game
    actor = state.pending.actor
    scene = env._scene()
    assert _hand_text(state, actor) in scene.hand
    assert _hidden_text(state, 1 - actor) in scene.hand
    assert len(scene.options) == len(state.pending.legal)
    env.render_agent = AGENTS[1 - actor]
    scene = env._scene()
    assert _hand_text(state, 1 - actor) in scene.hand and _hand_text(state, actor) not in scene.hand
    assert scene.options == () and scene.to_act.startswith(AGENTS[actor])
    env.render_agent = "spectator"
    scene = env._scene()
    assert _hand_text(state, 0) in scene.hand and _hand_text(state, 1) in scene.hand
    assert len(scene.options) == len(state.pending.legal)


def test_render_agent_by_default_follows_the_manager_to_act(capsys):
    """``render_mode="human"`` prints after every step for the manager to act next; a
    finished game shows no hand, whoever looks."""
    env = grand_slam_v0.env(render_mode="human", innings=1)
    env.reset(seed=5)
    capsys.readouterr()
    seen = set()
    for _ in range(40):
        game = env.unwrapped.game
        if game.pending is None:
            break
        env.step(game.pending.legal[0])
        out = capsys.readouterr().out
        game = env.unwrapped.game
        if game.pending is not None:
            actor = game.pending.actor
            assert _hand_text(game, actor) in out
            assert _hidden_text(game, 1 - actor) in out
            seen.add(actor)
    assert seen == {0, 1}
    play_out(env, seed=5)
    capsys.readouterr()
    env.unwrapped.render_agent = "spectator"
    env.render()
    assert " hand: " not in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["Away", "both", "", 0, 1, True, ["home"], ("away",)])
def test_a_bad_render_agent_fails_loudly(bad):
    with pytest.raises(OptionError, match="render_agent"):
        grand_slam_v0.env(render_agent=bad)
    env = grand_slam_v0.raw_env(render_agent="home")
    with pytest.raises(OptionError, match="render_agent"):
        env.render_agent = bad
    assert env.render_agent == "home"
