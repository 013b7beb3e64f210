"""The Manager Challenge's determinization (``envs/bottom_ninth/challenge_sample.py``): a sampled
campaign shows the manager exactly his view, plays its game on to the end through ``play_out``
(and the campaign on) and saves; what the view hides (the Pitcher deck's order, the discard
pile where it is hidden, the pitcher pile, the dice) is drawn from the rng alone, and varies."""

from __future__ import annotations

import json
import random

import pytest

from dugout.agents import make_agent
from dugout.envs import manager_challenge_v0
from dugout.envs.bottom_ninth import rules, solo
from dugout.envs.bottom_ninth.challenge import challenge_view
from dugout.envs.bottom_ninth.challenge_sample import (SOLO_RULES, game_result, public_setup,
                                                       sample_state)
from dugout.envs.core.dice import Dice
from dugout.envs.core.engine import play_out

from helpers import FULL, dumps, games

ENV_ID = "manager_challenge_v0"
LEVELS = solo.LEVELS


def _states(env, seed: int, managers: str = "random"):
    """Every campaign state of a seeded campaign (the last one over), stepped as
    ``agents.manager_challenge.play_campaign`` steps it."""
    obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    agent = make_agent(ENV_ID, "heuristic") if managers == "heuristic" else None
    if agent is not None:
        agent.reset(seed)
    c = env.unwrapped.campaign
    while True:
        yield env.unwrapped.campaign
        c = env.unwrapped.campaign
        if c.over:
            return
        if agent is None:
            action = rng.choice(c.pending.legal)
        else:
            view = env.unwrapped.view() if getattr(agent, "needs_view", False) else None
            action = agent.act({"observation": obs, "action_mask": info["action_mask"]}, view)
        obs, _, _, _, info = env.step(action)


def _check(campaign, setup: dict, seed: int, play: bool) -> None:
    view = challenge_view(campaign)
    sample = sample_state(view, random.Random(seed), setup)
    assert challenge_view(sample) == view
    if not play:
        return
    assert dumps(solo.Campaign.from_dict(sample.to_dict())) == dumps(sample)
    game = sample.game
    policy_rng = random.Random(seed)
    play_out(game, SOLO_RULES, lambda s, d: policy_rng.choice(d.legal), check=True)
    assert game.board.over
    mp, won = game_result(sample)
    assert won == (game.board.winner == 1) and mp >= 0
    if not sample.over:                       # the campaign plays on from the finished game
        start = len(sample.results)
        assert sample.finish_game() == mp or len(sample.results) == solo.GAMES
        assert len(sample.results) == start + 1


# -- 1. consistency ----------------------------------------------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("managers", ["random", "heuristic"])
def test_a_sample_shows_the_view_plays_on_and_saves(level, managers):
    """Every decision of a campaign: the view shown; every one (every 8th in the quick tier)
    also loads, and its game plays on to the end through play_out."""
    env = manager_challenge_v0.env(level=level, first_game="random")
    setup = public_setup(env)
    n = 0
    for seed in range(games(6, 1)):
        for campaign in _states(env, 100 * LEVELS.index(level) + seed, managers):
            n += 1
            _check(campaign, setup, n, play=FULL or n % 8 == 0)
    assert n > 50


def test_the_home_opener_and_the_default_setup():
    env = manager_challenge_v0.env()
    setup = public_setup(env)
    assert setup == {"cards": env.unwrapped.cardset, "first_game": "home_opener"}
    env.reset(seed=3)
    view = env.unwrapped.view()
    assert challenge_view(sample_state(view, random.Random(0))) == view


def test_bad_input_is_refused():
    env = manager_challenge_v0.env()
    env.reset(seed=0)
    view = env.unwrapped.view()
    with pytest.raises(TypeError):
        sample_state(env.unwrapped.campaign, random.Random(0))
    with pytest.raises(TypeError):
        sample_state(view, 0)
    with pytest.raises(ValueError):
        sample_state(view, random.Random(0), {"cards": "builtin"})


# -- 2. twins -----------------------------------------------------------------------------------------
def _twin(campaign, rng: random.Random):
    """A copy differing only in what the manager cannot see: the deck's order (and, where the
    discard pile is hidden, which cards are in it), the pitcher pile, the Pitch die's face
    number among those of its face, the earlier games' Effects and points, and both dice."""
    other = campaign.clone()
    g = other.game
    rng.shuffle(g.deck)
    if g.level >= 2:
        pool = [c for c in g.deck + g.discard if c != g.revealed]
        rng.shuffle(pool)
        keep = [g.revealed] if g.revealed >= 0 else []
        g.deck, g.discard = pool[:len(g.deck)], pool[len(g.deck):len(g.deck) + len(g.discard) - len(keep)] + keep
    pitchers = [p for p in range(len(g.cards.batters), len(g.cards.cards))
                if p != g.pitcher and p not in g.removed]
    g.pile = rng.sample(pitchers, rng.randrange(len(pitchers) + 1))
    if g.face_natural:
        g.pitch_roll = rng.choice([i + 1 for i, f in enumerate(g.faces) if f == g.face_natural])
    other.drawn = [rng.randrange(len(g.solo.effects)) for _ in other.drawn[:-1]] + [other.drawn[-1]]
    if len(other.points) > 1:
        other.points = [0] * (len(other.points) - 1) + [sum(other.points)]
    g.dice = Dice(rng.getrandbits(40), g.dice.stream)
    other.dice = Dice(rng.getrandbits(40))
    return other


@pytest.mark.parametrize("level", ["standard", "manager_of_the_year"])
def test_twins_that_differ_in_hidden_parts_sample_alike(level):
    rng = random.Random(7)
    env = manager_challenge_v0.env(level=level, first_game="random")
    setup = public_setup(env)
    n = 0
    for seed in range(games(4, 1)):
        for campaign in _states(env, seed):
            other = _twin(campaign, rng)
            view = challenge_view(campaign)
            assert challenge_view(other) == view
            k = rng.getrandbits(32)
            a = sample_state(view, random.Random(k), setup)
            b = sample_state(challenge_view(other), random.Random(k), setup)
            assert json.dumps(a.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True)
            assert a.game.dice.seed != campaign.game.dice.seed
            n += 1
    assert n > 50


# -- 3. spread ----------------------------------------------------------------------------------------
def _guess_with_a_deck(level: str):
    """A live campaign at a guess with several cards in the deck (and in the discard pile)."""
    env = manager_challenge_v0.env(level=level)
    for seed in range(20):
        for campaign in _states(env, seed):
            g = campaign.game
            if campaign.pending is not None and campaign.pending.kind == "guess" and \
                    len(g.deck) > 4 and len(g.discard) > 2 and campaign.results:
                return campaign.clone(), public_setup(env)
    raise AssertionError("no such state")


@pytest.mark.parametrize("level", ["standard", "manager_of_the_year"])
def test_every_hidden_piece_varies(level):
    campaign, setup = _guess_with_a_deck(level)
    view = challenge_view(campaign)
    samples = [sample_state(view, random.Random(k), setup) for k in range(30)]
    assert len({tuple(s.game.deck) for s in samples}) > 1
    assert sum(s.game.deck == campaign.game.deck for s in samples) < 3
    assert len({s.game.dice.seed for s in samples}) == 30
    assert len({s.dice.seed for s in samples}) == 30
    assert len({tuple(s.game.pile) for s in samples}) > 1
    if level == "standard":                  # the discard pile is shown: copied
        assert {tuple(s.game.discard) for s in samples} == {tuple(campaign.game.discard)}
    else:                                    # hidden: which cards are in it is drawn
        assert len({tuple(sorted(s.game.discard)) for s in samples}) > 1


def test_the_pitch_die_face_number_is_drawn():
    env = manager_challenge_v0.env()
    for seed in range(20):
        for campaign in _states(env, seed):
            g = campaign.game
            if campaign.pending is not None and campaign.pending.kind == "batter_ability" \
                    and g.face_natural == "B":
                view = challenge_view(campaign)
                rolls = {sample_state(view, random.Random(k)).game.pitch_roll for k in range(30)}
                assert rolls == {1, 2, 3}
                return
    raise AssertionError("no batter_ability after a natural B")


def test_a_rollout_applies_each_legal_action_to_a_clone():
    """The search's loop: each legal action applied to a clone of one sample (rules'
    apply_action plays the solo game by its mode), then played on to the game's end."""
    campaign, setup = _guess_with_a_deck("standard")
    sample = sample_state(challenge_view(campaign), random.Random(1), setup)
    results = set()
    for action in sample.pending.legal:
        world = sample.clone()
        rules.apply_action(world.game, action)
        rng = random.Random(0)
        play_out(world.game, SOLO_RULES, lambda s, d: rng.choice(d.legal))
        results.add(game_result(world))
    assert results and all(isinstance(mp, int) for mp, _ in results)
