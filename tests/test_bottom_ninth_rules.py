"""Bottom of the 9th rule by rule, replayed with scripted dice (rulebook examples and FAQ).

Scripted rolls per pitch: ("pitch", r) with the default faces 1-3 B, 4-5 S, 6 C; ("control",
v); ("swing", v); then ("crush", v), ("catch", v) on a crushed ball and ("run_swing", v),
("run_control", v) per round of the Run! phase. Rerolls draw the same purpose again.
"""

from __future__ import annotations

import pytest

from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.cards import load_cards
from dugout.envs.bottom_ninth.env import default_team
from dugout.envs.bottom_ninth.rules import (BRING_IN, CONTROL_UP, DONE, GUESS, KEEP, RELIEF,
                                            REROLL_SWING, SWING_DOWN, SWING_UP, THROW,
                                            apply_action)
from dugout.envs.core import ScriptedDice

from test_bottom_ninth_cards import blank_cards

HI, HA, LI, LA = range(4)
B, S, C = 1, 4, 6                        # pitch-die rolls giving each face (3 B, 2 S, 1 C)


def game(rolls, batter=None, pitcher=None, out_rule="lead_runner", bases=(None, None, None),
         balls=0, strikes=0, fatigue=(0, 0), fatigue_rows=4):
    """A duel at its first pitch with blank cards, except ``batter`` (fields for every
    batter card) and ``pitcher`` (fields for every pitcher card); the starter's Ace is
    High & Inside (like Lesley's in the rulebook)."""
    data = blank_cards()
    for b in data["batters"]:
        b.update(batter or {})
    for p in data["pitchers"]:
        p.update(pitcher or {})
        p["ace"] = dict(p["ace"], direction="inside", location="high")
    cs = load_cards(data)
    lineup, staff = default_team(cs)
    state = rules.new_game(ScriptedDice(rolls), cs, lineup=lineup, staff=staff,
                           fatigue_rows=fatigue_rows, out_rule=out_rule)
    state.board.bases = tuple(bases)
    state.balls, state.strikes = balls, strikes
    state.fatigue = list(fatigue)
    state.pending, state.step, state.pitch_no = None, "stare_down", 0      # offer the pitch again
    rules.run(state)
    return state


def pitch(state, thrown, guess):
    assert state.pending.kind == "pitch"
    apply_action(state, THROW + thrown)
    assert state.pending.kind == "guess"
    apply_action(state, GUESS + guess)


def table(direction=(), location=(), both=()):
    return {"direction": list(direction), "location": list(location), "both": list(both)}


def test_stare_down_example_tokens_and_grants():
    """"The Batter correctly guessed INSIDE ... awarded the ... Token and the Ability. The
    Pitcher successfully fooled the Batter with HIGH ... the Pitcher gains the Ability.\""""
    plus = {"modify": "swing", "by": 1}
    state = game([("pitch", S), ("control", 3)],
                 batter={"stare_down": table([plus], [{"reroll": "swing"}], [])},
                 pitcher={"stare_down": table([{"reroll": "control"}], [{"modify": "control", "by": "+-1"}], [])})
    pitch(state, HI, LI)          # thrown High & Inside, guessed Low & Inside
    assert state.tokens == [1, 0]                  # direction to the batter, location to the pitcher
    assert [g.source for g in state.grants[1]] == ["direction"]
    assert state.grants[1][0].effect.kind == "modify"
    assert [g.source for g in state.grants[0]] == ["location"]
    assert state.pending.kind == "pitcher_ability"
    assert set(state.pending.legal) == {DONE, CONTROL_UP, rules.CONTROL_DOWN}
    # the Ace (High & Inside) was thrown, but not guessed exactly: with no Ace ability nothing more


def test_both_tokens_use_the_both_entry_not_the_sum():
    state = game([("pitch", S), ("control", 3), ("swing", 2)],
                 batter={"stare_down": table([{"modify": "swing", "by": 1}], [{"reroll": "swing"}],
                                             [{"modify": "swing", "by": -1}])})
    pitch(state, LA, LA)
    assert state.tokens == [1, 1]
    assert [(g.source, g.effect.by) for g in state.grants[1]] == [("both", -1)]


def test_faq_choose_any_two_one_at_a_time():
    """FAQ: "if you had 'choose any two' you could reroll first, and then decide if you
    needed another reroll, or the +/-1"; stackable: reroll twice."""
    choose2 = {"choose": 2, "of": [{"reroll": "swing"}, {"modify": "swing", "by": "+-1"}]}
    state = game([("pitch", S), ("control", 4), ("swing", 2), ("swing", 3), ("run_swing", 5),
                  ("run_control", 1)],
                 batter={"stare_down": table([], [choose2], [])})
    pitch(state, HA, HI)                           # location guessed: the batter's location entry
    assert state.pending.kind == "batter_ability"
    assert set(state.pending.legal) == {DONE, REROLL_SWING, SWING_UP, SWING_DOWN}
    apply_action(state, REROLL_SWING)              # 2 -> rerolled 3 (a new natural value)
    assert (state.swing, state.swing_natural) == (3, 3)
    assert state.pending.kind == "batter_ability" and state.grants[1][0].left == 1
    apply_action(state, SWING_UP)                  # 3 -> 4
    # both uses spent: the swing resolves at once (S, 4 vs 4: a foul, strike one)
    assert "swing 4: foul" in state.last
    assert state.strikes == 1 and state.pending.kind == "pitch"


def test_foul_with_two_strikes_is_ignored():
    state = game([("pitch", S), ("control", 4), ("swing", 4)], strikes=2, balls=1)
    pitch(state, LA, HI)
    assert (state.balls, state.strikes) == (1, 2) and state.board.outs == 0
    assert state.pitch_no == 2 and state.pending.kind == "pitch"


@pytest.mark.parametrize("face, control, swing, result", [
    (B, 3, 2, "ball"), (B, 3, 3, "ball"), (B, 3, 4, "strike"),
    (S, 3, 2, "strike"), (S, 3, 3, "foul"), (S, 3, 4, "contact"),
    (C, 3, 2, "strike"), (C, 3, 3, "contact"), (C, 3, 4, "strike")])
def test_swing_table(face, control, swing, result):
    assert rules.swing_result("BBBSSC"[face - 1], swing, control) == result


def test_crushed_home_run_caught_on_a_natural_six():
    """Crushed: a natural 6 on a Strike; a 6 is a Home Run, but the Control die's natural 6
    catches it: "The Batter is out! No base runners advance.\""""
    state = game([("pitch", S), ("control", 3), ("swing", 6), ("crush", 6), ("catch", 6)],
                 bases=(5, None, None))
    pitch(state, LA, HI)
    assert state.board.outs == 1 and state.board.bases == (5, None, None)
    assert state.board.runs == [0, 0]
    assert state.log.plays[-1].detail == "FO"


def test_crushed_home_run_scores_when_not_caught():
    state = game([("pitch", S), ("control", 3), ("swing", 6), ("crush", 6), ("catch", 5)])
    pitch(state, LA, HI)
    assert state.board.over and state.board.winner == 1 and state.board.runs == [0, 1]


@pytest.mark.parametrize("crush, bases, after", [
    (2, (None, 4, None), (0, None, 4)),          # a single: every runner up one
    (5, (4, None, None), (None, 0, 4))])         # a double: up two
def test_crushed_single_and_double(crush, bases, after):
    state = game([("pitch", S), ("control", 3), ("swing", 6), ("crush", crush)], bases=bases)
    pitch(state, LA, HI)
    assert state.board.bases == after and not state.board.over


def test_natural_roll_rule_modify_to_avoid_not_to_gain():
    """Natural Rolls: "You may use a modifier to avoid the Ability, but you cannot use a +1/-1
    modifier to gain" one: a natural 6 turned into 5 is not Crushed; a 5 turned into 6 is not."""
    pm = {"modify": "swing", "by": "+-1"}
    # avoid: natural 6 -> 5, contact but no crush: the Run! phase instead
    state = game([("pitch", S), ("control", 3), ("swing", 6), ("run_swing", 6), ("run_control", 1)],
                 batter={"stare_down": table([pm], [], [])})
    pitch(state, LA, HA)   # the direction token to the batter
    apply_action(state, SWING_DOWN)
    assert state.board.bases[0] == 0 and state.log.plays[-1].detail == "1B"
    # gain: natural 5 -> 6 does not crush either
    state = game([("pitch", S), ("control", 3), ("swing", 5), ("run_swing", 1), ("run_control", 5)],
                 batter={"stare_down": table([pm], [], [])})
    pitch(state, LA, HA)   # the direction token to the batter
    apply_action(state, SWING_UP)
    assert "vs swing 6: contact, run phase" in state.last    # shown 6 (rolled 5): contact
    assert state.board.outs == 1                   # the Run! phase, lost; no crush roll asked


def test_the_finished_pitch_leaves_the_table_with_its_at_bat():
    """RULES.md, Clean Up: between batters the view shows no pitch, guess, tokens, grants
    or dice of the at-bat just ended (``last`` tells it); a finished game keeps its last."""
    pm = {"modify": "swing", "by": "+-1"}
    state = game([("pitch", S), ("control", 3), ("swing", 6), ("run_swing", 6), ("run_control", 1)],
                 batter={"stare_down": table([pm], [], [])})
    pitch(state, LA, HA)   # the direction token to the batter
    apply_action(state, SWING_DOWN)                # contact, the Run! phase won: a single
    assert state.board.bases[0] is not None and not state.board.over
    assert (state.secret, state.thrown, state.guess, state.tokens) == (-1, -1, -1, [-1, -1])
    assert state.grants == [[], []] and state.face == state.face_natural == ""
    assert (state.control, state.control_natural, state.swing, state.swing_natural) == (0, 0, 0, 0)
    assert "vs swing 5: contact" in state.last
    over = game([("pitch", S), ("control", 3), ("swing", 6), ("crush", 6), ("catch", 2)])
    pitch(over, LA, HA)                            # Crushed, a home run: the game is over
    assert over.board.over and over.thrown == LA and over.swing == 6


def test_natural_condition_on_a_grant():
    """A grant with ``if_natural`` reads the natural value and needs it still shown."""
    g = [{"reroll": "swing", "if_natural": [3]}, {"modify": "swing", "by": 1}]
    state = game([("pitch", B), ("control", 5), ("swing", 2)], batter={"stare_down": table(g, [], [])})
    pitch(state, LA, HA)   # the direction token to the batter
    assert set(state.pending.legal) == {DONE, SWING_UP}      # natural 2: no reroll
    apply_action(state, SWING_UP)                            # 3, but not naturally
    assert state.pending is None or REROLL_SWING not in state.pending.legal


def test_clamps_one_to_six():
    """"Players cannot modify a die to be greater than 6, nor less than 1": +1 on a 6 is not
    offered (and with nothing else to do there is no decision)."""
    state = game([("pitch", B), ("control", 6), ("swing", 6)],
                 batter={"stare_down": table([{"modify": "swing", "by": 1}], [], [])})
    pitch(state, LA, HA)   # the direction token to the batter
    assert state.balls == 1 and state.pending.kind == "pitch"    # no batter_ability asked
    assert not rules.changes_something(state, SWING_UP) if state.swing == 6 else True


def test_least_flexible_grant_pays():
    one = {"modify": "swing", "by": 1}
    choose = {"choose": 1, "of": [{"reroll": "swing"}, {"modify": "swing", "by": "+-1"}]}
    state = game([("pitch", B), ("control", 6), ("swing", 2)],
                 batter={"stare_down": table([choose, one], [], [])})
    pitch(state, LA, HA)   # the direction token to the batter
    apply_action(state, SWING_UP)
    assert [g.effect.kind for g in state.grants[1]] == ["choose"]


def test_ace_fatigue_lesley_example():
    """"Lesley Lou's Ace Pitch is High & Inside. If Lesley throws Low & Inside, she must move
    the Inside Token down ... if Lesley threw High & Inside she would Fatigue BOTH tokens."
    Fatigue comes whether or not the batter guessed."""
    state = game([("pitch", B), ("control", 6), ("swing", 1)] * 2)
    pitch(state, LI, LI)
    assert state.fatigue == [1, 0]
    pitch(state, HI, HI)                           # guessed exactly: fatigued all the same
    assert state.fatigue == [2, 1]


def test_ace_activates_only_when_thrown_and_not_guessed():
    ace = {"choose": 1, "of": [{"reroll": "control"}]}
    data_pitcher = {"ace": {"direction": "inside", "location": "high", "ability": [ace]}}
    state = game([("pitch", B), ("control", 2)], pitcher=data_pitcher)
    pitch(state, HI, LA)
    assert [g.source for g in state.grants[0]] == ["ace"]
    state = game([("pitch", B), ("control", 2), ("swing", 1)], pitcher=data_pitcher)
    pitch(state, HI, HI)                           # cancelled by the exact guess
    assert state.grants[0] == []
    state = game([("pitch", B), ("control", 2), ("swing", 1)], pitcher=data_pitcher)
    pitch(state, LI, LA)                           # only part of the Ace: no activation
    assert state.grants[0] == []


def test_exhausted_component_cannot_be_thrown():
    state = game([], fatigue=(3, 0))               # direction (Inside) at the bottom of 4 rows
    assert state.pending.legal == (THROW + HA, THROW + LA)
    state = game([], fatigue=(3, 3))               # both: only the anti-Ace pitch, thrown for him
    assert state.pending.kind == "guess" and state.secret == LA


def test_mvp_once_on_an_exact_guess():
    state = game([("pitch", B), ("control", 5), ("swing", 2)],
                 batter={"mvp": [{"modify": "swing", "by": 1}]})
    pitch(state, LA, LA)
    assert [g.source for g in state.grants[1]] == ["mvp"]
    apply_action(state, SWING_UP)
    assert state.grants[1] == []                   # not stackable: spent


def test_walk_moves_forced_runners_only():
    state = game([("pitch", B), ("control", 5), ("swing", 2)], balls=3, bases=(None, 4, None))
    pitch(state, LA, HI)
    assert state.board.bases == (0, 4, None) and state.log.plays[-1].detail == "BB"
    state = game([("pitch", B), ("control", 5), ("swing", 2)], balls=3, bases=(4, None, 3))
    pitch(state, LA, HI)
    assert state.board.bases == (0, 4, 3)


def test_bases_loaded_walk_wins():
    state = game([("pitch", B), ("control", 5), ("swing", 2)], balls=3, bases=(5, 4, 3))
    pitch(state, LA, HI)
    assert state.board.over and state.board.winner == 1 and state.board.runs == [0, 1]


def test_lead_runner_faq_case():
    """FAQ: runner on second, first empty; "If the pitching player yelled 'Out,' the lead
    runner would be thrown out, and the batter reaches first safely.\""""
    state = game([("pitch", S), ("control", 2), ("swing", 4), ("run_swing", 2), ("run_control", 5)],
                 bases=(None, 4, None))
    pitch(state, LA, HI)
    assert state.board.outs == 1 and state.board.bases == (0, None, None)
    assert state.log.plays[-1].detail == "FC"


def test_batter_out_rule():
    state = game([("pitch", S), ("control", 2), ("swing", 4), ("run_swing", 2), ("run_control", 5)],
                 bases=(None, 4, None), out_rule="batter")
    pitch(state, LA, HI)
    assert state.board.outs == 1 and state.board.bases == (None, 4, None)


def test_run_phase_safe_ties_and_rounds():
    # a round with no success, then both succeed with a tie: to the runner; all runners +1
    state = game([("pitch", C), ("control", 3), ("swing", 3), ("run_swing", 2), ("run_control", 3),
                  ("run_swing", 5), ("run_control", 5)], bases=(4, None, None))
    pitch(state, LA, HI)
    assert state.board.bases == (0, 4, None) and state.board.outs == 0


def test_relief_split_lesley_example_then_pitching_change():
    """Clean Up: "Lesley sees 2 empty bases. She opts to move High up 1 space ... and then
    Inside up 1"; then the change: the reliever's tokens both at 1."""
    state = game([("pitch", S), ("control", 5), ("swing", 2)], strikes=2, bases=(4, None, None),
                 fatigue=(2, 2))
    pitch(state, LA, HI)                                           # struck out
    assert state.board.outs == 1 and state.pending.kind == "relief"
    assert state.pending.legal == (RELIEF + 0, RELIEF + 1, RELIEF + 2)
    apply_action(state, RELIEF + 1)
    assert state.fatigue == [1, 1]
    assert state.pending.kind == "pitching_change" and state.pending.legal == (KEEP, BRING_IN)
    starter = state.pitcher
    apply_action(state, BRING_IN)
    assert state.pitcher != starter and state.fatigue == [1, 1] and state.ceiling == 1
    assert starter in state.removed


def test_relief_waste_is_masked_and_excess_lost():
    state = game([("pitch", S), ("control", 5), ("swing", 2)], strikes=2, fatigue=(1, 0))
    pitch(state, LA, HI)                    # 3 empty bases, room 1 + 0: one effect, applied
    assert state.fatigue == [0, 0] and state.pending.kind == "pitching_change"


def test_reliever_never_above_row_one():
    state = game([("pitch", S), ("control", 5), ("swing", 2)] * 2, strikes=2, fatigue=(2, 2))
    pitch(state, LA, HI)
    apply_action(state, RELIEF + 1)
    apply_action(state, BRING_IN)
    state.strikes = 2
    pitch(state, LA, HI)                    # second strikeout: 3 empty bases, reliever at 1/1
    assert state.fatigue == [1, 1]
    assert state.pending.kind == "pitch"    # no substitute left: no pitching change asked


def test_third_out_ends_the_game():
    state = game([("pitch", S), ("control", 5), ("swing", 2)], strikes=2)
    state.board.outs = 2
    pitch(state, LA, HI)
    assert state.board.over and state.board.winner == 0 and state.pending is None


def test_hit_by_pitch_trait():
    state = game([("pitch", B), ("control", 1), ("swing", 1)],
                 pitcher={"traits": [{"trait": "hit_by_pitch", "control": [1]}]})
    pitch(state, LA, HI)
    assert state.board.bases == (0, None, None) and state.log.plays[-1].detail == "HBP"
