"""Driving an engine from outside (``dugout.envs.core.engine``): ``play_out`` plays a game
exactly as the engine's own ``apply_action`` does, to the end (a walk-off's last play and its
books included) or to a stop, for every registered env id and option set."""

from __future__ import annotations

import importlib
import random

import pytest

import helpers
from dugout.envs.core.engine import play_out

CASES = [pytest.param(env_id, options, id=helpers.case_id(env_id, options))
         for env_id, options in helpers.cases()]
SEEDS = range(helpers.games(30, 8))


def rules_of(env) -> object:
    """The rules module of an env's ruleset (``dugout.envs.<ruleset>.rules``)."""
    package = type(env.unwrapped).__module__.rsplit(".", 1)[0]
    return importlib.import_module(package + ".rules")


def random_policy(seed: int):
    rng = random.Random(seed)
    return lambda state, decision: rng.choice(decision.legal)


@pytest.mark.parametrize("env_id, options", CASES)
def test_play_out_plays_the_game_apply_action_plays(env_id, options):
    env = helpers.make(env_id, options, raw=True)
    rules = rules_of(env)
    for seed in SEEDS:
        env.reset(seed=seed)
        by_engine, by_play_out = env.game.clone(), env.game.clone()
        policy = random_policy(seed)
        while by_engine.pending is not None:
            rules.apply_action(by_engine, policy(by_engine, by_engine.pending))
        play_out(by_play_out, rules, random_policy(seed), check=True)
        assert helpers.dumps(by_play_out) == helpers.dumps(by_engine), f"seed {seed}"


@pytest.mark.parametrize("env_id, options", CASES)
def test_play_out_stops_where_asked_and_plays_on_from_there(env_id, options):
    """Stopped at the end of the half inning under way, then played on: the same game."""
    env = helpers.make(env_id, options, raw=True)
    rules = rules_of(env)
    for seed in SEEDS:
        env.reset(seed=seed)
        whole, halves = env.game.clone(), env.game.clone()
        play_out(whole, rules, random_policy(seed))
        policy = random_policy(seed)
        start = (halves.board.inning, halves.board.half)
        play_out(halves, rules, policy,
                 stop=lambda s: (s.board.inning, s.board.half) != start)
        assert halves.board.over or (halves.board.inning, halves.board.half) != start
        play_out(halves, rules, policy)
        assert helpers.dumps(halves) == helpers.dumps(whole), f"seed {seed}"


def test_a_policy_outside_the_legal_actions_is_refused_when_checked():
    env = helpers.make("thats_baseball_v0", {}, raw=True)
    env.reset(seed=1)
    state = env.game.clone()
    with pytest.raises(ValueError, match="policy chose -1 at a"):
        play_out(state, rules_of(env), lambda state, decision: -1, check=True)
