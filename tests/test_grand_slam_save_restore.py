"""Saving and restoring Harry's Grand Slam Baseball games with scripted dice.

Clones that share nothing, JSON round trips that continue like the original and the env
continuing from a restored state are the contract suite's (``test_contract.py``), for every
ruleset; here, what only Grand Slam's tests need: a game dealt with scripted dice (a stacked
deck) survives the round trip, fresh and finished.
"""

from __future__ import annotations

import functools
import random

from dugout.envs.core import Dice, ScriptedDice
from dugout.envs.grand_slam import rules

from helpers import dumps, play_engine, roundtrip
from helpers import finish as _finish

finish = functools.partial(_finish, apply=rules.apply_action)


def test_finished_and_scripted_games_round_trip():
    state = rules.new_game(ScriptedDice([], then=Dice(3)))
    fresh = roundtrip(state)
    assert dumps(fresh) == dumps(state)
    rng = random.Random(3)
    actions = play_engine(state, rules.apply_action, lambda s: rng.choice(s.pending.legal))
    done = roundtrip(state)
    assert dumps(done) == dumps(state) and done.over and done.winner == state.winner
    assert dumps(finish(fresh, actions)) == dumps(state)
