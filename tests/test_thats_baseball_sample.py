"""That's Baseball's determinization: sample_state rebuilds a game from one manager's view
with fresh dice (dugout.envs.thats_baseball.sample). The game hides nothing but the dice, so
a sample is the view's game; these tests check it shows the same view, plays on, loads, reads
nothing but the view, and never carries the live game's dice."""

from __future__ import annotations

import json
import random

import pytest

import helpers
from dugout.agents import make_agent
from dugout.envs.core.engine import play_out
from dugout.envs.core.scorebook import BoxScore, PlayLog
from dugout.envs.thats_baseball import rules
from dugout.envs.thats_baseball.env import option_labels
from dugout.envs.thats_baseball.rules import GameState
from dugout.envs.thats_baseball.sample import Setup, public_setup, sample_state
from dugout.envs.thats_baseball.view import make_view

ENV_ID = "thats_baseball_v0"
SEATS = ("away", "home")
OPTION_SETS = helpers.OPTION_SETS.get(ENV_ID, ({},))
#: and a short game cut off after extra innings (a tied game over: truncated)
CUT_OFF = ({"innings": 2, "max_innings": 3},)


def view_of(state: GameState, seat: int):
    """The view the env would give ``seat`` at ``state`` (its labels included)."""
    d = state.pending
    return make_view(state, seat, None if d is None else option_labels(d))


def dumps(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def random_policy(rng):
    return lambda state, decision: rng.choice(decision.legal)


def check_sample(env, seat: int, rng: random.Random, play: bool) -> GameState:
    """The sample of ``seat``'s view shows that view, loads, and (``play``) plays to the end."""
    view = env.unwrapped.view(SEATS[seat])
    sample = sample_state(view, rng, public_setup(env))
    assert view_of(sample, seat) == view
    assert dumps(GameState.from_dict(json.loads(dumps(sample)))) == dumps(sample)
    assert sample.dice.seed != env.unwrapped.game.dice.seed
    if play:
        play_out(sample, rules, random_policy(rng), check=True)
        assert sample.over and sample.pending is None
    return sample


def random_games(options, n, rng):
    """Yields the env at every decision of ``n`` seeded random games."""
    env = helpers.make(ENV_ID, options, raw=True)
    for seed in range(n):
        env.reset(seed=seed)
        while env.game.pending is not None:
            yield env
            env.step(rng.choice(env.game.pending.legal))
        yield env                                   # the game over, too


@pytest.mark.parametrize("options", OPTION_SETS + CUT_OFF, ids=lambda o: helpers.case_id(ENV_ID, o))
def test_sample_shows_the_view_in_random_games(options):
    rng = random.Random(1)
    decisions = 0
    for i, env in enumerate(random_games(options, helpers.games(40, 6), rng)):
        for seat in (0, 1):
            check_sample(env, seat, rng, play=i % 9 == 0)
        decisions += 1
    assert decisions > 100


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: helpers.case_id(ENV_ID, o))
def test_sample_shows_the_view_in_heuristic_games(options):
    """Heuristic managers, asked as agents.play.play_game asks them (the view when they
    need it), reach the states managers who play well reach (the heuristic builds its value
    tables once per option set: the cut-off set is left to the random games)."""
    env = helpers.make(ENV_ID, options)
    rng = random.Random(2)
    kinds = set()
    agents = {name: make_agent(ENV_ID, "heuristic") for name in SEATS}
    for seed in range(helpers.games(12, 3)):
        env.reset(seed=seed)
        for i, name in enumerate(SEATS):
            agents[name].reset(seed=2 * seed + i)
        for n, agent in enumerate(env.agent_iter()):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            for seat in (0, 1):
                check_sample(env, seat, rng, play=n % 7 == 0)
            kinds.add(env.unwrapped.game.pending.kind)
            a = agents[agent]
            env.step(a.act(obs, env.unwrapped.view(agent) if getattr(a, "needs_view", False)
                           else None))
    assert {"steal", "pickoff", "error_roll", "double_play", "tag_up"} <= kinds


def twin(state: GameState, rng: random.Random) -> GameState:
    """A copy of ``state`` that differs in everything no view shows: the dice seed, the
    box score, the play log, the plate-appearance counter and who the runners are."""
    other = state.clone()
    other.dice = type(state.dice)(state.dice.seed + 1 + rng.randrange(1 << 30), state.dice.stream)
    other.box = BoxScore(["Elsewhere", "Nowhere"], [[(f"x{i}", "") for i in range(9)]] * 2)
    other.log = PlayLog()
    other.pa += 3
    batter = state.order[state.board.half]
    slots = [s for s in range(9) if s != batter]
    rng.shuffle(slots)
    relabel = dict(zip([r for r in state.board.bases if r is not None], slots))
    other.board.bases = tuple(None if r is None else relabel[r] for r in state.board.bases)
    # a runner who tried and is still on base keeps his flag under his new name; one no
    # longer on base (thrown out, or scored) takes a name no runner on base has
    unused = iter(s for s in slots if s not in relabel.values())
    other.tried_steal = tuple(relabel[r] if r in relabel else next(unused)
                              for r in state.tried_steal)
    other.board.line = [[0] * len(c) for c in state.board.line]
    for team in (0, 1):
        if other.board.line[team]:
            other.board.line[team][-1] = state.board.runs[team]
    return other


def test_twins_sample_alike_and_never_copy_the_dice():
    env = helpers.make(ENV_ID, {}, raw=True)
    setup = public_setup(env)
    rng = random.Random(3)
    checked = 0
    for env in random_games({}, helpers.games(20, 4), rng):
        state = env.game
        if state.pending is None or rng.random() > 0.2:
            continue
        other = twin(state, rng)
        GameState.from_dict(json.loads(dumps(other)))            # a game the rules accept
        for seat in (0, 1):
            view = view_of(state, seat)
            assert view_of(other, seat) == view
            a = sample_state(view, random.Random(seat), setup)
            b = sample_state(view_of(other, seat), random.Random(seat), setup)
            assert dumps(a) == dumps(b)
            seeds = {sample_state(view, random.Random(s), setup).dice.seed for s in range(20)}
            assert len(seeds) == 20 and state.dice.seed not in seeds
        checked += 1
    assert checked > 10


def test_samples_spread_over_the_dice():
    """At one state, samples of different rng seeds roll different games: every hidden piece
    (here, only the dice) takes many values."""
    env = helpers.make(ENV_ID, {}, raw=True)
    env.reset(seed=5)
    while env.game.pending.kind != "steal":
        env.step(env.game.pending.legal[0])
    view = env.view("away")
    finals = set()
    for s in range(30):
        sample = sample_state(view, random.Random(s), public_setup(env))
        play_out(sample, rules, lambda state, d: d.legal[0])
        finals.add((tuple(sample.score), len(sample.log.plays)))
    assert len(finals) > 5


def test_bad_input_is_refused():
    env = helpers.make(ENV_ID, {}, raw=True)
    env.reset(seed=1)
    view = env.view("away")
    setup = public_setup(env)
    with pytest.raises(ValueError, match="public set-up"):
        sample_state(view, random.Random(0))
    with pytest.raises(TypeError, match="random.Random"):
        sample_state(view, 0, setup)
    other = Setup(teams=setup.teams[::-1], innings=setup.innings)
    if other.teams[0].aas != setup.teams[0].aas:
        with pytest.raises(ValueError, match="lineups"):
            sample_state(view, random.Random(0), other)
    with pytest.raises(ValueError, match="innings"):
        sample_state(view, random.Random(0), Setup(setup.teams, innings=setup.innings + 1))
