"""MLB Showdown's ``sample_state``: a full game drawn from one manager's view (envs/showdown/sample.py).

* consistency: at states of seeded random and heuristic games, for both seats and every
  option set, the sample's view is the view, it round-trips through ``to_dict``/``from_dict``
  (the state's own checks) and plays on to the end;
* twin: two games differing only in what a manager cannot see (the opponent's hand, the
  decks' order, the dice) give him the same samples, and the samples do not copy the live
  game's hidden cards;
* spread: each hidden piece takes several values over rng seeds.
"""

from __future__ import annotations

import random

import pytest

import helpers
from dugout import envs
from dugout.agents import make_agent
from dugout.envs.core.engine import play_out
from dugout.envs.showdown import rules
from dugout.envs.showdown.sample import public_setup, sample_state
from dugout.envs.showdown.state import GameState
from dugout.envs.showdown.view import view_of

ENV_ID = "showdown_v0"
OPTION_SETS = helpers.OPTION_SETS[ENV_ID]
DECKS = {"level": "expert", "decks": "default"}


def _random_policy(seed: int):
    rng = random.Random(seed)
    return lambda state, decision: rng.choice(decision.legal)


def _check_sample(state: GameState, seat: int, setup: dict, seed: int) -> GameState:
    view = view_of(state, seat)
    sample = sample_state(view, random.Random(seed), setup)
    assert sample is not state
    assert view_of(sample, seat) == view
    again = helpers.roundtrip(sample)
    assert helpers.dumps(again) == helpers.dumps(sample)
    play_out(sample, rules, _random_policy(seed), check=True)
    assert sample.pending is None and sample.over
    return sample


def _random_states(options: dict, games: int, every: int):
    """Live states of seeded random games, every ``every``-th decision."""
    env = envs.make(ENV_ID, raw=True, **options)
    game = env.unwrapped
    for seed in range(games):
        env.reset(seed=seed)
        rng = random.Random(seed)
        n = 0
        while game.state_.pending is not None:
            if n % every == 0:
                yield env, game.state_
            env.step(rng.choice(game.state_.pending.legal))
            n += 1


@pytest.mark.parametrize("options", OPTION_SETS, ids=[helpers.case_id(ENV_ID, o) for o in OPTION_SETS])
def test_sample_matches_the_view_and_plays_on(options):
    seen_kinds = set()
    checked = 0
    for env, state in _random_states(options, helpers.games(12, 2), every=helpers.games(2, 7)):
        if checked == helpers.games(10_000, 20):
            break
        checked += 1
        setup = public_setup(env)
        seen_kinds.add(state.pending.kind)
        for seat in (0, 1):
            _check_sample(state, seat, setup, seed=len(seen_kinds) + seat)
    assert len(seen_kinds) >= (1 if options.get("level") == "basic" else 3)


#: the expert game's heuristic manager first builds the expert value tables (about ten
#: seconds): its games run in the full tier only
HEURISTIC_CASES = [pytest.param(o, id=helpers.case_id(ENV_ID, o),
                                marks=[pytest.mark.full] if o.get("level") == "expert" else [])
                   for o in OPTION_SETS]


@pytest.mark.parametrize("options", HEURISTIC_CASES)
def test_sample_in_heuristic_games(options):
    """The heuristic managers' games (agents.play.play_game's protocol for views)."""
    env = envs.make(ENV_ID, **options)
    game = env.unwrapped
    setup = public_setup(env)
    checked = 0
    for seed in range(helpers.games(4, 1)):
        agents = {name: make_agent(ENV_ID, "heuristic") for name in helpers.AGENTS}
        for i, name in enumerate(helpers.AGENTS):
            agents[name].reset(seed=2 * seed + i)
        env.reset(seed=seed)
        n = 0
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = game.view(agent)
            if n % helpers.games(3, 11) == 0 and checked < helpers.games(10_000, 5):
                for seat in (0, 1):
                    _check_sample(game.state_, seat, setup, seed=n)
                checked += 1
            act = agents[agent]
            env.step(act.act(obs, view if getattr(act, "needs_view", False) else None))
            n += 1
    assert checked > 0


def _hide_differently(state: GameState, viewer: int, rng: random.Random) -> GameState:
    """A copy of a Showdown game with strategy decks that differs only in what ``viewer``
    cannot see: the opponent's hand (swapped with cards of his deck), both decks' order and
    the dice seed."""
    from dugout.envs.core.dice import Dice
    other = state.clone()
    opp = 1 - viewer
    hand, deck = other.hands[opp], other.decks[opp]
    for i in range(len(hand)):
        swap = [j for j, c in enumerate(deck) if c != hand[i]]
        if swap:
            j = rng.choice(swap)
            hand[i], deck[j] = deck[j], hand[i]
    for t in (0, 1):
        rng.shuffle(other.decks[t])
    other.dice = Dice(rng.getrandbits(62))
    return other


def _card_states(games: int):
    """States of decks games where both hands and decks hold cards (something to hide)."""
    for env, state in _random_states(DECKS, games, every=4):
        if all(len(state.hands[t]) >= 2 and len(state.decks[t]) >= 2 for t in (0, 1)):
            yield env, state


def test_twins_give_the_same_samples():
    rng = random.Random(7)
    differ = checked = 0
    for env, state in _card_states(helpers.games(6, 1)):
        setup = public_setup(env)
        for seat in (0, 1):
            twin = _hide_differently(state, seat, rng)
            assert view_of(twin, seat) == view_of(state, seat)
            differ += helpers.dumps(twin) != helpers.dumps(state)
            for seed in (0, 1):
                a = sample_state(view_of(state, seat), random.Random(seed), setup)
                b = sample_state(view_of(twin, seat), random.Random(seed), setup)
                assert helpers.dumps(a) == helpers.dumps(b)
            checked += 1
        if checked >= helpers.games(40, 8):
            break
    assert checked and differ == checked


def test_samples_do_not_copy_the_hidden_cards():
    """Over rng seeds the sampled opponent hands vary, and the live hand and deck order are
    not what every sample holds."""
    env, state = next(_card_states(1))
    setup = public_setup(env)
    for seat in (0, 1):
        opp = 1 - seat
        view = view_of(state, seat)
        hands = {tuple(sorted(sample_state(view, random.Random(s), setup).hands[opp]))
                 for s in range(30)}
        assert len(hands) > 1
        decks = [sample_state(view, random.Random(s), setup).decks[opp] for s in range(30)]
        assert sum(d == state.decks[opp] for d in decks) < 30


def test_every_hidden_piece_spreads():
    """At one state: the opponent's hand, both decks' order and the dice each take more
    than one value over rng seeds; everything the view shows stays put."""
    env, state = next(_card_states(1))
    setup = public_setup(env)
    seat = state.pending.actor
    opp = 1 - seat
    samples = [sample_state(view_of(state, seat), random.Random(s), setup) for s in range(25)]
    pieces = {
        "opponent's hand": lambda s: tuple(sorted(s.hands[opp])),
        "own deck order": lambda s: tuple(s.decks[seat]),
        "opponent's deck order": lambda s: tuple(s.decks[opp]),
        "dice": lambda s: s.dice.seed,
    }
    for name, piece in pieces.items():
        assert len({piece(s) for s in samples}) > 1, f"the {name} never varies"
    assert {tuple(sorted(s.hands[seat])) for s in samples} == {tuple(sorted(state.hands[seat]))}
    assert all(s.dice.seed != state.dice.seed for s in samples)


def test_public_setup_and_bad_input():
    env = envs.make(ENV_ID, raw=True, level="expert", decks="default", max_innings=12)
    env.reset(seed=3)
    setup = public_setup(env)
    assert setup["max_innings"] == 12 and setup["decks"] is env.unwrapped.decks
    sample = sample_state(env.unwrapped.view("away"), random.Random(0), setup)
    assert sample.board.max_innings == 12
    with pytest.raises(TypeError):
        sample_state(env.unwrapped.state_, random.Random(0), setup)


def test_only_no_decision_fitting_rebuilds_the_batted(monkeypatch):
    """The sampler rebuilds who has batted only when no decision of the other manager fits
    the view (``NoDecisionFits``); any other error, here a ValueError that a bug raises once
    while the rules are asked, is raised as it is instead of being retried away."""
    from dugout.envs.showdown import sample as sample_module
    env = envs.make(ENV_ID, raw=True, level="advanced", starter=1)
    env.reset(seed=0)
    state = env.unwrapped.state_
    watcher = 1 - state.pending.actor              # his view names no decision
    view = view_of(state, watcher)
    assert view.decision is None and not state.batted[view.half][view.batter]
    sample_state(view, random.Random(0), public_setup(env))     # samples as it is
    candidates, calls = sample_module._candidates, []

    def a_bug_once(*args):
        calls.append(1)
        if len(calls) == 1:
            raise ValueError("a bug in a rule")
        return candidates(*args)

    monkeypatch.setattr(sample_module, "_candidates", a_bug_once)
    with pytest.raises(ValueError, match="a bug in a rule"):
        sample_state(view, random.Random(0), public_setup(env))
    assert calls == [1]
    assert issubclass(sample_module.NoDecisionFits, ValueError)
