"""Pokemon Baseball's determinization: sample_state rebuilds a game from one manager's view,
drawing what it hides (the dice, the opponent's lineup card before the first pitch, whether a
tag-up's batter is hurt, the pitchers' counts the view leaves open) afresh
(dugout.envs.pokemon_baseball.sample)."""

from __future__ import annotations

import json
import math
import random

import pytest

import helpers
from dugout.agents import make_agent
from dugout.envs.core.engine import play_out
from dugout.envs.core.scorebook import PlayLog
from dugout.envs.pokemon_baseball import rules
from dugout.envs.pokemon_baseball.env import option_labels
from dugout.envs.pokemon_baseball.rules import GameState
from dugout.envs.pokemon_baseball.sample import (Setup, injury_odds, public_setup,
                                                 sample_state)
from dugout.envs.pokemon_baseball.view import make_view

ENV_ID = "pokemon_baseball_v0"
SEATS = ("away", "home")
OPTION_SETS = helpers.OPTION_SETS.get(ENV_ID, ({},)) + (
    {"series": 3}, {"dh": True, "rest_by": "outs", "edge": "gt", "series": {"games": 2}},
    {"innings": 2, "max_innings": 3})


def view_of(state: GameState, seat: int, games_left: int = 0):
    """The view the env would give ``seat`` at ``state`` (its labels included)."""
    d = state.pending
    return make_view(state, seat, None if d is None else option_labels(state, d),
                     games_left=games_left)


def dumps(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def check_sample(env, seat: int, rng: random.Random, play: bool) -> GameState:
    """The sample of ``seat``'s view shows that view, loads, and (``play``) plays to the end."""
    view = env.unwrapped.view(SEATS[seat])
    sample = sample_state(view, rng, public_setup(env))
    assert view_of(sample, seat, view.games_left) == view
    assert dumps(GameState.from_dict(json.loads(dumps(sample)))) == dumps(sample)
    assert sample.dice.seed != env.unwrapped.game.dice.seed
    if play:
        play_out(sample, rules, lambda s, d: rng.choice(d.legal), check=True)
        assert sample.over and sample.pending is None
    return sample


def live_turns(env, seed, act):
    """Yields at each live turn of the episode (a series: every game) of ``seed``; ``act(agent,
    obs)`` gives the action."""
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield agent
        env.step(act(agent, obs))


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: helpers.case_id(ENV_ID, o))
def test_sample_shows_the_view_in_random_games(options):
    env = helpers.make(ENV_ID, options)
    rng = random.Random(1)
    kinds = set()
    for seed in range(helpers.games(20, 2)):
        for n, _ in enumerate(live_turns(env, seed, lambda a, obs: rng.choice(
                env.unwrapped.game.pending.legal))):
            for seat in (0, 1):
                check_sample(env, seat, rng, play=n % 25 == 0)
            kinds.add(env.unwrapped.game.pending.kind)
    assert {"lineup", "batting_order", "offense_sub", "defense_sub", "substitute"} <= kinds


@pytest.mark.parametrize("options", OPTION_SETS[:2], ids=lambda o: helpers.case_id(ENV_ID, o))
def test_sample_shows_the_view_in_heuristic_games(options):
    """Heuristic managers, asked as agents.play.play_game asks them."""
    env = helpers.make(ENV_ID, options)
    rng = random.Random(2)
    agents = {name: make_agent(ENV_ID, "heuristic") for name in SEATS}
    checked = 0
    for seed in range(helpers.games(6, 1)):
        for i, name in enumerate(SEATS):
            agents[name].reset(seed=2 * seed + i)

        def act(agent, obs):
            a = agents[agent]
            return a.act(obs, env.unwrapped.view(agent) if getattr(a, "needs_view", False) else None)

        for n, _ in enumerate(live_turns(env, seed, act)):
            for seat in (0, 1):
                check_sample(env, seat, rng, play=n % 25 == 0)
            checked += 1
    assert checked > 50


# -- twins: what a seat cannot see changes nothing ------------------------------------------------
def hide_differently(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` that differs only in what ``seat`` cannot see: the dice seed, the
    play log, the plate-appearance counter, whether a tag-up's batter is hurt, and before the
    first pitch the opponent's lineup card (another legal one, as far as he has set it)."""
    other = state.clone()
    other.dice = type(state.dice)(state.dice.seed + 1 + rng.randrange(1 << 30), state.dice.stream)
    other.log = PlayLog()
    other.pa += 2
    if state.pending is not None and state.pending.kind == "tag_up":
        other.injury_check = not state.injury_check
    opp = 1 - seat
    if not state.started:
        field, order = other.fielders[opp], other.lineup[opp]
        filled = [p for p in range(10) if field[p] >= 0]
        rested = [k for k, r in enumerate(other.resting[opp]) if r == 0]
        for p, k in zip(filled, rng.sample(rested, len(filled))):
            field[p] = k
        slots = [i for i in range(9) if order[i] >= 0]
        for i, k in zip(slots, rng.sample(rules.batters_of(other, opp), len(slots))):
            order[i] = k
        if other.pending is not None and other.pending.actor == opp:
            other.pending = None                # he is offered what his new card leaves
            rules.RULES[other.step](other)
    return other


def hidden_states(options, seeds, rng):
    """(state, seat): random games stopped at random decisions, every setup decision among
    them (where the opponent's card is hidden)."""
    env = helpers.make(ENV_ID, options, raw=True)
    for seed in seeds:
        env.reset(seed=seed)
        while env.game.pending is not None:
            state = env.game
            if not state.started or state.pending.kind == "tag_up" or rng.random() < 0.05:
                yield state.clone(), rng.randrange(2)
            env.step(rng.choice(state.pending.legal))


def test_twins_sample_alike_and_never_copy_the_hidden():
    setup = public_setup(helpers.make(ENV_ID, {}, raw=True))
    rng = random.Random(3)
    checked = hidden_cards = 0
    for state, seat in hidden_states({}, range(helpers.games(10, 2)), rng):
        other = hide_differently(state, seat, rng)
        GameState.from_dict(json.loads(dumps(other)))            # a game the rules accept
        view = view_of(state, seat)
        assert view_of(other, seat) == view
        a = sample_state(view, random.Random(7), setup)
        b = sample_state(view_of(other, seat), random.Random(7), setup)
        assert dumps(a) == dumps(b)
        opp = 1 - seat
        samples = [sample_state(view, random.Random(s), setup) for s in range(12)]
        assert state.dice.seed not in {s.dice.seed for s in samples}
        if not state.started and any(k >= 0 for k in state.fielders[opp]):
            cards = {(tuple(s.fielders[opp]), tuple(s.lineup[opp])) for s in samples}
            assert len(cards) > 1           # drawn, not copied
            hidden_cards += 1
        checked += 1
    assert checked > 20 and hidden_cards > 5


# -- spread: each hidden piece takes more than one value ----------------------------------------
def test_the_hidden_away_lineup_spreads_over_every_position_and_slot():
    env = helpers.make(ENV_ID, {}, raw=True)
    env.reset(seed=4)
    rng = random.Random(4)
    while env.game.setup_team == 0:
        env.step(rng.choice(env.game.pending.legal))
    view = env.view("home")
    assert view.decision == "lineup" and set(view.field[0]) == {-1}
    setup = public_setup(env)
    samples = [sample_state(view, random.Random(s), setup) for s in range(60)]
    for p in range(9):
        assert len({s.fielders[0][p] for s in samples}) > 1
    for slot in range(9):
        assert len({s.lineup[0][slot] for s in samples}) > 1
    assert len({s.dice.seed for s in samples}) == 60
    for s in samples:           # each a legal card: rested creatures, the fielders batting
        assert all(s.resting[0][k] == 0 for k in s.fielders[0][:9])
        assert sorted(s.lineup[0]) == sorted(s.fielders[0][:9])


def tag_up_state(seed_from: int = 0):
    env = helpers.make(ENV_ID, {}, raw=True)
    rng = random.Random(5)
    for seed in range(seed_from, seed_from + 200):
        env.reset(seed=seed)
        while env.game.pending is not None:
            if env.game.pending.kind == "tag_up":
                return env
            env.step(rng.choice(env.game.pending.legal))
    raise AssertionError("no tag-up in 200 random games")


def test_a_tag_ups_injury_is_drawn_with_the_dice_odds():
    env = tag_up_state()
    for seat in (0, 1):                 # the sample shows the tag-up, loads and plays on
        check_sample(env, seat, random.Random(seat), play=True)
    view = env.view("away")
    setup = public_setup(env)
    p = injury_odds(env.game)
    assert 0 < p < 0.2
    n = math.ceil(25 / p)
    hurt = sum(sample_state(view, random.Random(s), setup).injury_check for s in range(n))
    assert 0 < hurt < n


def test_injury_odds_read_off_the_charts():
    """The odds by hand for a fly out to right (9): the batting chart's Fly Out (9) is row 8
    (5 ways in 36), its Error (9) row 11 (2 ways); the error chart's row 12 (1 way) hurts, and
    at a fielder of level 1 (column 0) rows 3-11 but 7 (which holds an out in that column too)
    are outs."""
    env = tag_up_state()
    state = env.game.clone()
    state.fielder = 9
    from dugout.envs.pokemon_baseball import charts as ch
    column = ch.error_column(state.creature(state.board.fielding, state.at(state.board.fielding, 9)).level)
    ways = {n: 6 - abs(n - 7) for n in range(2, 13)}
    outs = sum(ways[r] for r, cells in ch.ERROR.items() if cells[column] == ch.OUT)
    assert injury_odds(state) == pytest.approx(2 * 1 / (36 * 5 + 2 * (outs + 1)))


def test_bad_input_is_refused():
    env = helpers.make(ENV_ID, {}, raw=True)
    env.reset(seed=1)
    view = env.view("away")
    setup = public_setup(env)
    with pytest.raises(ValueError, match="public set-up"):
        sample_state(view, random.Random(0))
    with pytest.raises(TypeError, match="random.Random"):
        sample_state(view, 0, setup)
    with pytest.raises(ValueError, match="set-up's"):
        sample_state(view, random.Random(0), Setup(setup.teams[::-1], dh=False))
    with pytest.raises(ValueError, match="set-up's"):
        sample_state(view, random.Random(0), Setup(setup.teams, dh=True))
