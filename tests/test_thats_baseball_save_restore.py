"""Common random numbers in That's Baseball: the dice of a plate appearance depend only on
(seed, half inning, plate appearance), not on what the managers decided earlier.

Saving, copying and restoring games (clones that share nothing, JSON round trips that
continue like the original, in the env too) is the contract suite's (``test_contract.py``),
for every ruleset; the dice themselves are tested in ``test_core.py``.
"""

from __future__ import annotations

import random

from dugout.envs.core import Dice
from dugout.envs.thats_baseball import rules
from dugout.envs.thats_baseball.cards import load_team

from helpers import dumps, play_engine

TEAMS = (load_team("sample"), load_team("reds"))


# -- common random numbers --------------------------------------------------------------------
def _pa_dice(state):
    """Two-dice at-bat roll of each plate appearance, keyed by (half index, PA in the half)."""
    out = {}
    count = {}
    for p in state.log.plays:
        if p.kind != "pa":
            continue
        half_index = 2 * (p.inning - 1) + p.half
        k = count.get(half_index, 0)
        count[half_index] = k + 1
        aa = state.teams[p.half].batters[p.actor].aa
        out[(half_index, k)] = (p.roll - aa, p.actor)
    return out


def _play(seed, style):
    rng = random.Random(seed)
    state = rules.new_game(TEAMS[0], TEAMS[1], Dice(seed))
    play_engine(state, rules.apply_action,
                lambda s: s.pending.legal[0] if style == "pass" else rng.choice(s.pending.legal))
    return state


def test_common_random_numbers_across_different_decisions():
    first_pa_checked = different_batter = common_total = 0
    for seed in range(30):
        passive, busy = _play(seed, "pass"), _play(seed, "random")
        assert passive.log.plays != busy.log.plays, "the managers' choices changed nothing"
        a, b = _pa_dice(passive), _pa_dice(busy)
        common = set(a) & set(b)
        assert common
        for key in common:
            assert a[key][0] == b[key][0], f"seed {seed}: at-bat dice differ at {key}"
            assert 2 <= a[key][0] <= 12
        common_total += len(common)
        # the first plate appearance of each later half inning (from the 3rd inning on)
        for half_index in range(4, 17):
            key = (half_index, 0)
            assert key in a and key in b, f"seed {seed}: no first PA in half {half_index}"
            assert a[key][0] == b[key][0]
            first_pa_checked += 1
            different_batter += a[key][1] != b[key][1]
    assert first_pa_checked == 30 * 13
    # the dice stay common even when different batters lead off
    assert different_batter > 0
    assert common_total > 30 * 40


def test_same_seed_same_decisions_same_game():
    assert dumps(_play(8, "random")) == dumps(_play(8, "random"))
    assert dumps(_play(8, "random")) != dumps(_play(9, "random"))
