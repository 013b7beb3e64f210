"""Bottom of the 9th's two observation encoders agree byte for byte.

The env encodes an observation straight off the game (``env.encode_state``) for speed; what
a manager may know is the view (``view_of``: the opponent's committed stare-down pitch is in
the pitcher's view only), and ``encode_view`` encodes a view alone. The promise that an
observation holds nothing its manager may not know rests on the two being the same function
of the game. This test plays seeded games with random managers and with the rulebook
heuristic in every option set the contract suite runs, through the engine's rules, and
compares both seats' observations byte for byte before every rule, at every decision and at
the end; it also checks that the games met every decision kind of their mode and set every
piece of the observation (a piece never set would be compared only as zeros).

(The Manager Challenge has one encoder: its observation is ``encode_challenge`` of its view.)
"""

from __future__ import annotations

import random

import pytest

from dugout.agents.bottom_ninth import BottomNinthHeuristic
from dugout.envs import bottom_ninth_v0
from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.env import OBS, encode_state, encode_view
from dugout.envs.bottom_ninth.view import view_of
from helpers import OPTION_SETS, EncoderComparison, play_comparing

_DUEL_KINDS = {"pitch", "guess", "pitcher_ability", "batter_ability", "relief", "pitching_change"}
_GAME_KINDS = _DUEL_KINDS | {"fatigue_split", "pinch_hit", "pinch_slot", "double_switch",
                             "double_switch_slot"}
_SETUP = {"draft_order", "draft_pick", "select_batter", "select_pitcher"}
_DRAFT = {"draft_order", "draft_pick"}
#: pieces a game's seeds may leave unset by chance: the Longer Game's extra innings need a tie
_BY_CHANCE = {"extra_innings"}
#: the longer game's pieces (0 in the duel) and those its options cannot set
_GAME_PIECES = {"game", "scheduled", "extra_innings", "own_lineup", "opp_lineup", "own_bench",
                "opp_bench", "own_bullpen", "opp_bullpen", "own_mound", "opp_mound", "game_slot",
                "own_pitcher_slot", "opp_pitcher_slot", "orders", "runs_allowed", "relievers_used",
                "ceilings", "support", "own_support", "opp_support", "fatigue_left", "sub_card",
                "sub_slot"}
_SUPPORT_PIECES = {"support", "own_support", "opp_support"}


def _expected(options: dict) -> tuple[set[str], set[str]]:
    """(the decision kinds an option set's games must meet, the pieces they cannot set)."""
    game = options.get("mode") == "game"
    kinds = set(_GAME_KINDS if game else _DUEL_KINDS)
    never = {"batter_slot"} if game else set(_GAME_PIECES)
    if options.get("teams") == "choose":
        kinds |= _SETUP if options.get("draft") is True else _SETUP - _DRAFT
    if not game:
        if options.get("extra_innings"):
            never -= {"extra_innings"}    # the tenth inning
        if options.get("support") or options.get("condition"):
            never -= _SUPPORT_PIECES      # a support card (a condition's grant is a shared one)
    if game and not options.get("support"):
        never |= _SUPPORT_PIECES
    if game and options.get("batters", 8) == 8:
        kinds -= {"pinch_hit", "pinch_slot", "double_switch", "double_switch_slot"}
        never |= {"own_bench", "opp_bench", "sub_card", "sub_slot"}
    return kinds, never


def _comparison() -> EncoderComparison:
    return EncoderComparison(lambda env, seat: encode_state(env.game, seat),
                             lambda state, seat: encode_view(view_of(state, seat)))


@pytest.mark.parametrize("options", OPTION_SETS["bottom_ninth_v0"],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_the_fast_encoder_is_encode_view_of_the_view(options):
    kinds, never_set = _expected(options)
    compare = _comparison()
    env = bottom_ninth_v0.raw_env(**options)
    games = 6 if options.get("mode") == "game" else 30
    for seed in range(games):
        rng = random.Random(seed)
        play_comparing(env, rules, seed, lambda state, decision: rng.choice(decision.legal), compare)
    heuristic = BottomNinthHeuristic()

    def managed(state, decision):
        agent = "away" if decision.actor == 0 else "home"
        return heuristic.act(env.observe(agent), env.view(agent))

    for seed in range(100, 100 + games // 3):
        heuristic.reset(seed)
        play_comparing(env, rules, seed, managed, compare)
    assert kinds <= compare.kinds, f"decision kinds never met: {sorted(kinds - compare.kinds)}"
    unset = compare.unset_pieces(OBS)
    chance = _BY_CHANCE if options.get("mode") == "game" else set()
    assert never_set <= unset <= never_set | chance, \
        f"observation pieces never set: {sorted(unset)}, expected {sorted(never_set)}"
