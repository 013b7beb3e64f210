"""Grand Slam's determinization (``envs/grand_slam/sample.py``): a game drawn from one
manager's view shows him that view, plays on to the end and saves; it reads nothing the
view hides (twin games that differ only there give the same samples); and every hidden
piece is drawn afresh, not copied."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import helpers
from dugout.agents import make_agent
from dugout.agents.play import turns
from dugout.envs import grand_slam_v0
from dugout.envs.core.decisions import Decision
from dugout.envs.core.dice import Dice
from dugout.envs.core.engine import play_out
from dugout.envs.grand_slam import rules
from dugout.envs.grand_slam.cards import (ERROR, HIT_BY_PITCH, N_HAND_TYPES, PINCH_HITTER,
                                          SINGLE, WALK, load_deck)
from dugout.envs.grand_slam.sample import GrandSlamSetup, public_setup, sample_state
from dugout.envs.grand_slam.view import view_of

ENV_ID = "grand_slam_v0"
SEATS = ("away", "home")
#: the contract suite's option sets, plus a short game cut off early and a deck of one's own
#: (setup carries max_innings and the card set)
SMALL_DECK = {"single": 8, "double": 2, "walk": 4, "error": 2, "ground_out": 6,
              "strike_out": 6, "fly_out": 2, "double_play": 2, "stolen_base": 1,
              "pinch_hitter": 2}
CASES = [*helpers.OPTION_SETS.get(ENV_ID, ({},)),
         {"innings": 2, "max_innings": 3}, {"deck": SMALL_DECK}]


def check_sample(env, seat: int, rng_seed: int) -> None:
    """The sample of ``seat``'s view: the same view, a saved form its own validation
    accepts, and a game that plays on to its end with random legal actions."""
    view = env.unwrapped.view(SEATS[seat])
    setup = public_setup(env)
    state = sample_state(view, random.Random(rng_seed), setup)
    assert view_of(state, seat) == view
    assert state.board.max_innings == setup.max_innings
    assert helpers.dumps(helpers.roundtrip(state)) == helpers.dumps(state)
    pick = random.Random(rng_seed)
    play_out(state, rules, lambda s, d: pick.choice(d.legal), check=True)
    assert state.over and state.pending is None


@pytest.mark.parametrize("options", CASES, ids=lambda o: "-".join(map(str, o)) or "default")
def test_sample_is_consistent_in_random_games(options):
    env = grand_slam_v0.raw_env(**options)
    for seed in range(helpers.games(150, 6)):
        rng = random.Random(seed)
        env.reset(seed=seed)
        n = 0
        while env.unwrapped.state_.pending is not None:
            for seat in (0, 1):
                check_sample(env, seat, 1000 * seed + 2 * n + seat)
            env.step(rng.choice(env.unwrapped.state_.pending.legal))
            n += 1


def test_sample_is_consistent_in_heuristic_games():
    """Heuristic managers, with views as ``agents.play.play_game`` gives them."""
    env = grand_slam_v0.env()
    agents = {name: make_agent(ENV_ID, "heuristic") for name in SEATS}
    for seed in range(helpers.games(40, 3)):
        env.reset(seed=seed)
        for i, name in enumerate(SEATS):
            agents[name].reset(seed=2 * seed + i)
        for n, (agent, obs, _) in enumerate(turns(env)):
            for seat in (0, 1):
                check_sample(env, seat, 1000 * seed + 2 * n + seat)
            needs_view = getattr(agents[agent], "needs_view", False)
            env.step(agents[agent].act(obs, env.unwrapped.view(agent) if needs_view else None))


# -- twins: what the view hides cannot change the sample ----------------------------------------
def hide_differently(state, viewer: int, rng: random.Random):
    """A copy of a live ``state`` that differs only in what ``viewer`` cannot see: the
    opponent's hand (cards swapped with the draw pile), the face-down cards under every
    stack, the draw pile's order and the dice seed; the opponent's pending decision offers
    his new hand. None when no such game could wait on this decision (tried a few times)."""
    for _ in range(20):
        other = state.clone()
        hand = other.hands[1 - viewer]
        for _ in range(3):
            card = rng.choice([c for c in range(N_HAND_TYPES) if hand[c]])
            swap = [i for i, c in enumerate(other.deck) if c not in (card, PINCH_HITTER)]
            if not swap:
                break
            i = rng.choice(swap)
            hand[card] -= 1
            hand[other.deck[i]] += 1
            other.deck[i] = card
        for seat in (0, 1):
            for k, beneath in enumerate(other.stacks[seat]):
                if other.deck:
                    i = rng.randrange(len(other.deck))
                    other.stacks[seat][k], other.deck[i] = other.deck[i], beneath
        rng.shuffle(other.deck)
        other.dice = Dice(rng.getrandbits(64), state.dice.stream)
        d = other.pending
        if d.actor != viewer:
            hand, stacks = other.hands[d.actor], other.stacks[d.actor]
            offer = tuple(c for c in range(N_HAND_TYPES) if hand[c]) + tuple(
                rules.STACK_ACTION + i for i in range(len(stacks)))
            other.pending = Decision(d.kind, d.actor, offer)
        try:
            other.validate()
        except ValueError:
            continue
        return other
    return None


def test_twins_give_the_same_samples():
    env = grand_slam_v0.raw_env()
    rng = random.Random(7)
    compared = 0
    for seed in range(helpers.games(120, 12)):
        env.reset(seed=seed)
        helpers.step_random(env, rng, limit=rng.randrange(60))
        state = env.unwrapped.state_
        if state.pending is None:
            continue
        for viewer in (0, 1):
            twin = hide_differently(state, viewer, rng)
            if twin is None:
                continue
            view = view_of(state, viewer)
            assert view_of(twin, viewer) == view
            changed = (twin.hands[1 - viewer] != state.hands[1 - viewer]
                       or twin.deck != state.deck or twin.stacks != state.stacks)
            for k in range(3):
                a = sample_state(view, random.Random(k))
                b = sample_state(view_of(twin, viewer), random.Random(k))
                assert helpers.dumps(a) == helpers.dumps(b)
            compared += changed
    assert compared > helpers.games(120, 12) // 2


def test_samples_do_not_copy_the_live_game():
    """Over many rng seeds the sampled opponent hands, face-down cards and decks vary, and
    the live game's are only some of them; the dice are never the live game's."""
    env = grand_slam_v0.raw_env()
    rng = random.Random(3)
    for seed in range(helpers.games(40, 5)):
        env.reset(seed=seed)
        helpers.step_random(env, rng, limit=rng.randrange(1, 40))
        state = env.unwrapped.state_
        if state.pending is None:
            continue
        for viewer in (0, 1):
            view = view_of(state, viewer)
            samples = [sample_state(view, random.Random(k)) for k in range(40)]
            hands = {tuple(s.hands[1 - viewer]) for s in samples}
            decks = {tuple(s.deck) for s in samples}
            assert len(hands) > 1, "the opponent's hand is always the same"
            if len(state.deck) > 1:
                assert len(decks) > 1
            live = sum(tuple(s.hands[1 - viewer]) == tuple(state.hands[1 - viewer])
                       for s in samples)
            assert live < len(samples)
            assert all(s.dice.seed != state.dice.seed for s in samples)


# -- spread: every hidden piece is drawn ---------------------------------------------------
def rich_state():
    """A state of a seeded random game with PH/RP stacks on the table and runners whose
    cards the view leaves open (more than one on-base card in play could be under them)."""
    env = grand_slam_v0.raw_env()
    for seed in range(500):
        rng = random.Random(seed)
        env.reset(seed=seed)
        while env.unwrapped.state_.pending is not None:
            s = env.unwrapped.state_
            in_play = s.in_play()
            first_base_cards = [c for c in (SINGLE, WALK, HIT_BY_PITCH, ERROR) if in_play[c]]
            if (s.stacks[0] and s.stacks[1] and len(s.deck) > 1 and s.board.bases[0] is not None
                    and len(first_base_cards) > 1):
                return s
            env.step(rng.choice(s.pending.legal))
    raise AssertionError("no seeded game reached a state with stacks and open runner cards")


def test_every_hidden_piece_takes_several_values():
    state = rich_state()
    for viewer in (0, 1):
        view = view_of(state, viewer)
        samples = [sample_state(view, random.Random(k)) for k in range(200)]
        pieces = {
            "opponent's hand": lambda s: tuple(s.hands[1 - viewer]),
            "own face-down cards": lambda s: tuple(s.stacks[viewer]),
            "opponent's face-down cards": lambda s: tuple(s.stacks[1 - viewer]),
            "draw pile": lambda s: tuple(s.deck),
            "top card": lambda s: s.deck[0],
            "runners' cards": lambda s: tuple(s.runner_cards),
            "dice": lambda s: s.dice.seed,
        }
        for name, piece in pieces.items():
            assert len({piece(s) for s in samples}) > 1, f"{name} is always the same"
        # a shuffle puts any unseen card anywhere: every type with a few copies unseen
        # turns up on top of the draw pile and under each manager's first stack
        common = {c for c, n in enumerate(view.unseen()) if n >= 3}
        for name, piece in (("top card", lambda s: s.deck[0]),
                            ("own first face-down card", lambda s: s.stacks[viewer][0]),
                            ("opponent's first face-down card", lambda s: s.stacks[1 - viewer][0])):
            assert common <= {piece(s) for s in samples}, name
        for s in samples:
            assert s.hands[1 - viewer][PINCH_HITTER] == 0
            assert s.hands[viewer] == state.hands[viewer]
            assert len(s.stacks[viewer]) == len(state.stacks[viewer])


@pytest.mark.full
def test_opponent_hand_cards_are_drawn_in_proportion():
    """Each non-PH/RP unseen card is as likely as any other to be in the opponent's hand:
    the mean count of each type is 3 * its share of those cards."""
    state = rich_state()
    viewer = state.pending.actor
    view = view_of(state, viewer)
    unseen = view.unseen()
    playable = sum(unseen[:N_HAND_TYPES])
    n = 4000
    counts = Counter()
    for k in range(n):
        hand = sample_state(view, random.Random(k)).hands[1 - viewer]
        counts.update({c: hand[c] for c in range(N_HAND_TYPES)})
    for c in range(N_HAND_TYPES):
        expected = 3 * unseen[c] / playable
        assert abs(counts[c] / n - expected) < 0.06 + 0.1 * expected, (c, counts[c] / n, expected)


# -- the set-up and bad input ------------------------------------------------------------------
def test_public_setup_reads_the_env_options():
    env = grand_slam_v0.env(innings=5, max_innings=7, deck=SMALL_DECK)
    setup = public_setup(env)
    assert setup.innings == 5 and setup.max_innings == 7
    assert setup.counts == env.unwrapped.counts
    assert public_setup(grand_slam_v0.raw_env()) == GrandSlamSetup()
    with pytest.raises(TypeError, match="grand_slam_v0"):
        public_setup(object())


def test_bad_input_is_refused():
    env = grand_slam_v0.raw_env()
    env.reset(seed=1)
    view = env.unwrapped.view("away")
    with pytest.raises(TypeError, match="GrandSlamView"):
        sample_state(json.dumps({}), random.Random(0))
    with pytest.raises(TypeError, match="random.Random"):
        sample_state(view, 0)
    with pytest.raises(ValueError, match="innings"):
        sample_state(view, random.Random(0), GrandSlamSetup(innings=7))
    with pytest.raises(ValueError, match="card set"):
        sample_state(view, random.Random(0), GrandSlamSetup(counts=load_deck(SMALL_DECK)))
    helpers.play_random(env, seed=1)
    with pytest.raises(ValueError, match="over"):
        sample_state(env.unwrapped.view("away"), random.Random(0))
