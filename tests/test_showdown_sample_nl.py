"""MLB Showdown's sampler in games without the designated hitter (NL rules).

Without a DH the pitcher bats, and a pinch hitter or runner may take his spot: the spot
must be told apart from another pinch hitter's (the view's ``pitcher_slots``), and a batter
offered a pinch hitter must have batted even when the order has come round in one half
inning. At every decision of seeded NL games (``dh=False``, and a home team whose file
plays by NL rules), for both seats, with random and heuristic managers, the sample's view
is the view and the sample plays on to the end.
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
from dugout.envs.showdown.view import view_of

ENV_ID = "showdown_v0"
#: the NL option sets: the DH turned off at each level, and a home team that plays by NL
#: rules (Atlanta's file) with the default ``dh=None``
NL_SETS = ({"level": "advanced", "dh": False}, {"level": "expert", "dh": False},
           {"level": "expert", "dh": False, "decks": "default"},
           {"level": "advanced", "teams": ("nya2004", "atl2004")})
RANDOM_GAMES = {0: helpers.games(30, 5), 1: helpers.games(10, 2), 2: helpers.games(6, 1),
                3: helpers.games(30, 4)}


def _check(env, seat: int, seed: int) -> None:
    state = env.unwrapped.state_
    view = view_of(state, seat)
    sample = sample_state(view, random.Random(seed), public_setup(env))
    assert view_of(sample, seat) == view
    rng = random.Random(seed)
    play_out(sample, rules, lambda s, d: rng.choice(d.legal), check=True)
    assert sample.over and sample.pending is None


@pytest.mark.parametrize("i", range(len(NL_SETS)),
                         ids=[helpers.case_id(ENV_ID, o) for o in NL_SETS])
def test_every_nl_view_of_random_games_is_rebuilt_and_plays_on(i):
    options = NL_SETS[i]
    env = envs.make(ENV_ID, raw=True, **options)
    game = env.unwrapped
    kinds, n = set(), 0
    for seed in range(RANDOM_GAMES[i]):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while game.state_.pending is not None:
            kinds.add(game.state_.pending.kind)
            for seat in (0, 1):
                _check(env, seat, n)
                n += 1
            env.step(rng.choice(game.state_.pending.legal))
    assert {"pinch_hitter", "pitching_change"} <= kinds


#: the expert heuristic builds its value tables first (about ten seconds): full tier only
HEURISTIC_CASES = [pytest.param(o, id=helpers.case_id(ENV_ID, o),
                                marks=[pytest.mark.full] if o.get("level") == "expert" else [])
                   for o in NL_SETS]


@pytest.mark.parametrize("options", HEURISTIC_CASES)
def test_every_nl_view_of_heuristic_games_is_rebuilt_and_plays_on(options):
    env = envs.make(ENV_ID, **options)
    game = env.unwrapped
    n = 0
    for seed in range(helpers.games(6, 1)):
        agents = {name: make_agent(ENV_ID, "heuristic") for name in helpers.AGENTS}
        for i, name in enumerate(helpers.AGENTS):
            agents[name].reset(seed=2 * seed + i)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            for seat in (0, 1):
                _check(env, seat, n)
                n += 1
            act = agents[agent]
            env.step(act.act(obs, game.view(agent) if getattr(act, "needs_view", False) else None))
    assert n > 100


def _two_pinch_hitters():
    """A live NL game in which the batting team has hit for its pitcher and for a fielder
    in the same half (two "PH" in its positions), at the defense's pitching change."""
    env = envs.make(ENV_ID, raw=True, level="advanced", dh=False)
    game = env.unwrapped
    for seed in range(40):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while game.state_.pending is not None:
            s = game.state_
            t = s.board.half
            pos = s.pos[t]
            if pos.count("PH") >= 2 and pos[s.pitcher_slot[t]] == "PH":
                return env
            d = s.pending          # pinch-hit whenever the rules allow, else play at random
            env.step(max(d.legal) if d.kind == "pinch_hitter" else rng.choice(d.legal))
    raise AssertionError("no seeded game hit for its pitcher and a fielder in one half")


def test_the_pitchers_spot_is_public_and_rebuilt():
    """Substitutions: "the new player takes the old one's spot in the batting order" and the
    new pitcher "must" come in when the team takes the field: his spot is the pitcher's, which
    the positions ("PH", "PH") do not tell apart; the view names it and the sample keeps it."""
    env = _two_pinch_hitters()
    state = env.unwrapped.state_
    t = state.board.half
    for seat in (0, 1):
        view = view_of(state, seat)
        assert view.pitcher_slots == (state.pitcher_slot[0], state.pitcher_slot[1])
        sample = sample_state(view, random.Random(seat), public_setup(env))
        assert sample.pitcher_slot[t] == state.pitcher_slot[t]
        assert sample.needs_pitcher[t] and sample.needs_positions[t]


def test_a_batter_due_up_after_the_order_came_round_has_batted():
    """Bottom of the first, the order back at its leadoff man with runners on: he has batted
    ("all players who start the game must bat at least once before a pinch hitter can bat for
    them"), so the offense's pinch hitter is rebuilt from either seat's view."""
    env = envs.make(ENV_ID, raw=True, level="advanced", dh=False)
    game = env.unwrapped
    found = 0
    for seed in range(60):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while game.state_.pending is not None and not found:
            s = game.state_
            d = s.pending
            if (d.kind == "pinch_hitter" and s.board.inning == 1 and s.order[d.actor] == 0
                    and s.board.half == d.actor):
                for seat in (0, 1):
                    sample = sample_state(view_of(s, seat), random.Random(seat), public_setup(env))
                    assert sample.pending.kind == "pinch_hitter"
                    assert sample.batted[d.actor][s.batter_index]
                found += 1
            env.step(rng.choice(s.pending.legal))
    assert found
