"""MLB Showdown's two observation encoders agree byte for byte.

The env encodes an observation straight off the game (``ShowdownEnv._encode``, with its
per-team caches) for speed; what a manager may know is the view (``view_of``), and
``encode_view`` encodes a view alone. The promise that an observation holds nothing the
manager may not know rests on the two being the same function of the game. This test plays
seeded games at every level (the expert game with and without strategy decks) with random
managers (over team pairs that hold every icon between them) and with the rulebook
heuristic, through the engine's rules, and compares both seats' observations byte for byte
before every rule, at every decision and at the end; it also checks that the games met every
decision kind the level asks and set every piece of the observation (a piece never set would
be compared only as zeros).
"""

from __future__ import annotations

import random

import pytest

from dugout.agents.showdown import ShowdownHeuristic, showdown_tables
from dugout.envs import showdown_v0
from dugout.envs.showdown import rules
from dugout.envs.showdown.env import encode_view
from dugout.envs.showdown.view import view_of
from helpers import EncoderComparison, games, play_comparing

#: (options, the decision kinds the level asks, pieces its games cannot set)
LEVELS = [
    pytest.param({"level": "basic"}, {"starting_pitcher"},
                 # the basic game: no icons, no extra bases, no pitching changes
                 {"batter_icons", "pitcher_icons", "extra_base", "can_remove"}, id="basic"),
    pytest.param({"level": "advanced"}, set(rules.DECISION_KINDS) - {"starting_pitcher"}, set(),
                 id="advanced"),
    pytest.param({"level": "expert"},
                 {"pinch_hitter", "pitching_change", "double_play", "send_runners", "throw_at",
                  "pinch_runner", "defensive_replacement", "replaced_player", "batting_slot",
                  "intentional_walk", "sacrifice_bunt"},
                 # "DO NOT USE THESE SPECIAL ABILITIES": no icon uses; no level one-hot
                 {"batter_icons", "pitcher_icons", "level"}, id="expert"),
    pytest.param({"level": "expert", "decks": "default"},
                 {"pinch_hitter", "pitching_change", "double_play", "send_runners", "throw_at",
                  "pinch_runner", "defensive_replacement", "replaced_player",
                  "intentional_walk", "sacrifice_bunt", "play_card", "catcher_throw"},
                 {"batter_icons", "pitcher_icons", "level"}, id="expert-decks"),
]


#: team pairs for the random games: between them every icon is on some card
PAIRS = [("nya2004", "bos2004"), ("min2004", "tba2004"), ("ari2004", "ana2004"),
         ("mil2004", "sfn2004"), ("nya1927", "cin1975")]
#: random games a pair, heuristic games (the quick tier's sizes still meet every decision
#: kind and set every piece: the test checks that in both tiers)
RANDOM_GAMES, HEURISTIC_GAMES = games(6, 2), games(6, 2)


@pytest.fixture(scope="module")
def heuristic():
    env = showdown_v0.raw_env()
    return ShowdownHeuristic(tables=showdown_tables(env.teams))


def _comparison() -> EncoderComparison:
    return EncoderComparison(lambda env, seat: env._encode(seat),
                             lambda state, seat: encode_view(view_of(state, seat)))


@pytest.mark.parametrize("options, kinds, never_set", LEVELS)
def test_the_fast_encoder_is_encode_view_of_the_view(options, kinds, never_set, heuristic):
    compare = _comparison()
    for i, pair in enumerate(PAIRS):
        env = showdown_v0.raw_env(teams=pair, point_cap=None, **options)
        for seed in range(6 * i, 6 * i + RANDOM_GAMES):
            rng = random.Random(seed)
            play_comparing(env, rules, seed, lambda state, decision: rng.choice(decision.legal), compare)
    env = showdown_v0.raw_env(**options)               # the heuristic's tables: these teams

    def managed(state, decision):
        agent = "away" if decision.actor == 0 else "home"
        return heuristic.act(env.observe(agent), env.view(agent))

    for seed in range(100, 100 + HEURISTIC_GAMES):
        play_comparing(env, rules, seed, managed, compare)
    assert kinds <= compare.kinds, f"decision kinds never met: {sorted(kinds - compare.kinds)}"
    unset = compare.unset_pieces(env.obs_spec)
    assert unset <= never_set, f"observation pieces never set: {sorted(unset - never_set)}"
