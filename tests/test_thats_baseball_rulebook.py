"""The rulebook's worked examples, replayed with scripted dice.

The sample game's notes give each batter's total (adjusted average + two dice); the
scripts below roll ``total - AA``. Lineups are nine-man versions of the scorecard's Reds
and Blues with the card's adjusted averages (see RULES.md, "The rulebook's sample game").
"""

from __future__ import annotations

import pytest

from dugout.envs.core import Dice, DiceScriptError, IllegalActionError, ScriptedDice
from dugout.envs.thats_baseball import adjusted_average, load_team
from dugout.envs.thats_baseball.cards import team_from_dict
from dugout.envs.thats_baseball.rules import (PASS, ROLL, RUNNER_ON_FIRST, RUNNER_ON_SECOND,
                                              RUNNER_ON_THIRD, apply_action, new_game)


def _team(name, rows):
    positions = ["SS", "2B", "3B", "C", "1B", "OF", "OF", "DH", "OF"]
    return team_from_dict({"name": name, "lineup": [
        {"name": n, "position": p, "average": f".{aa}0"} for (n, aa), p in zip(rows, positions)]})


REDS = _team("Reds", [("Encarnacion", 27), ("Soriano", 28), ("Boggs", 32), ("Piazza", 32),
                      ("Helton", 32), ("Bichette", 29), ("Mondesi", 28), ("Conine", 29),
                      ("Beltran", 29)])
BLUES = _team("Blues", [("Martinez", 28), ("Biggio", 28), ("Walker", 32), ("Murphy", 28),
                        ("Bonilla", 28), ("Rolen", 28), ("Grudzielanek", 29), ("Clayton", 26),
                        ("Molitor", 30)])
AWAY, HOME = 0, 1


def at_bat(team, slot, total):
    """The scripted two-dice roll that gives this batter the noted total."""
    roll = total - team.batters[slot].aa
    assert 2 <= roll <= 12, f"{team.batters[slot].name} cannot reach {total}"
    return ("at_bat", roll)


def script(*rolls):
    """Scripted dice for the example, then seeded dice for the rest of the game."""
    return ScriptedDice(rolls, then=Dice(0))


def decide(state, kind, action, actor=None):
    d = state.pending
    assert d is not None, f"expected a {kind} decision, the game is over"
    assert d.kind == kind, f"expected a {kind} decision, got {d.kind} ({d})"
    if actor is not None:
        assert d.actor == actor, f"{kind} decided by seat {d.actor}, expected {actor}"
    apply_action(state, action)


def line(state, team, slot):
    return state.box.lines[team][slot]


def test_sample_team_adjusted_averages():
    team = load_team("sample")
    assert [(b.name.split()[-1], b.aa) for b in team.batters] == [
        ("Pierzynski", 30), ("Martinez", 27), ("Grudzielanek", 29), ("Rolen", 28),
        ("Clayton", 26), ("Murphy", 28), ("Walker", 32), ("Bonilla", 28), ("Teixeira", 27)]


@pytest.mark.parametrize("average, aa", [
    (".311", 31), (".318", 32), (".255", 26), (".254", 25), (".250", 25), (".249", 25),
    (".235", 24), (".234", 24), (".100", 24), (".325", 32), (".366", 32), (0.285, 29), (0.245, 25),
])
def test_adjusted_average_rounds_half_up_and_clamps(average, aa):
    assert adjusted_average(average) == aa


def test_chart_examples_from_rule_1e():
    # Grudzielanek (AA 29) rolls 2: 31, a walk. Martinez (AA 27) rolls 5: 32, which the
    # chart reads as a single (the example's "fly out" contradicts the chart; RULES.md).
    team = _team("T", [("Martinez", 27), ("Grudzielanek", 29), ("C", 24), ("D", 24), ("E", 24),
                       ("F", 24), ("G", 24), ("H", 24), ("I", 24)])
    dice = ScriptedDice([("at_bat", 5), ("at_bat", 2)])
    state = new_game(team, BLUES, dice)
    assert state.log.plays[0].detail == "1B" and state.log.plays[0].roll == 32
    decide(state, "steal", PASS)
    decide(state, "pickoff", PASS)
    assert state.log.plays[1].detail == "BB" and state.log.plays[1].roll == 31
    assert state.board.bases[:2] == (1, 0)      # Grudzielanek on first, Martinez forced to second


def test_reds_first_inning_walk_forces_a_run_and_a_pickoff_ends_the_inning():
    """Reds 1st: 1B, FO, 1B, BB, SO, BB (Encarnacion scores), Bichette picked off first."""
    dice = script(
        at_bat(REDS, 0, 37),          # Encarnacion singles
        at_bat(REDS, 1, 35),          # Soriano flies out
        at_bat(REDS, 2, 37),          # Boggs singles, Encarnacion to second
        at_bat(REDS, 3, 40),          # Piazza walks: bases loaded
        at_bat(REDS, 4, 34),          # Helton strikes out
        at_bat(REDS, 5, 40),          # Bichette walks, Encarnacion scores
        ("pickoff", 12),              # Bichette picked off first
    )
    s = new_game(REDS, BLUES, dice)
    decide(s, "steal", PASS, AWAY)                   # before Soriano
    decide(s, "pickoff", PASS, HOME)
    decide(s, "tag_up", PASS, AWAY)                  # Soriano's fly out; Encarnacion on first
    decide(s, "steal", PASS)                         # before Boggs
    decide(s, "pickoff", PASS)
    assert s.pending.legal == (PASS, RUNNER_ON_SECOND)  # before Piazza: first is blocked
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    assert s.pending.legal == (PASS, RUNNER_ON_THIRD)   # before Helton: bases loaded
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    decide(s, "steal", PASS)                         # before Bichette
    decide(s, "pickoff", PASS)
    assert s.score == (1, 0)
    assert line(s, AWAY, 5).rbi == 1 and line(s, AWAY, 0).r == 1
    assert s.board.bases == (5, 3, 2)                # Bichette, Piazza, Boggs
    decide(s, "steal", PASS)                         # before Mondesi
    decide(s, "pickoff", RUNNER_ON_FIRST, HOME)
    assert s.board.half == 1 and s.board.inning == 1
    assert s.order[AWAY] == 6                        # Mondesi, at the plate, leads off the 2nd
    assert s.board.line[AWAY] == [1]
    assert dice.remaining == 0
    top_first = [p for p in s.log.plays if (p.inning, p.half) == (1, 0)]
    assert top_first[-1].kind == "picked_off" and top_first[-1].after == (None, 3, 2)


def test_pickoff_error_steal_and_pickoff_out():
    """Blues 2nd: Bonilla singles, to second on a pickoff error, steals third, scores."""
    dice = script(
        # Reds go down in order
        at_bat(REDS, 0, 34), at_bat(REDS, 1, 39), at_bat(REDS, 2, 39),
        # Blues: Martinez singles (plays Bonilla's part), pickoff error
        at_bat(BLUES, 0, 30), ("pickoff", 2),
        at_bat(BLUES, 1, 34),                  # SO
        at_bat(BLUES, 2, 39),                  # SO
        ("steal", 5),                          # steals third
        at_bat(BLUES, 3, 31),                  # walk
        at_bat(BLUES, 4, 37),                  # single: runner scores, walker to second
        ("pickoff", 12),                       # batter picked off first
    )
    s = new_game(REDS, BLUES, dice)
    decide(s, "steal", PASS, HOME)
    decide(s, "pickoff", RUNNER_ON_FIRST, AWAY)
    assert s.board.bases == (None, 0, None) and s.box.errors[AWAY] == 1
    decide(s, "steal", PASS)                   # Biggio struck out; before Walker
    decide(s, "pickoff", PASS)
    decide(s, "steal", RUNNER_ON_SECOND, HOME)  # Walker struck out; before Murphy
    assert s.board.bases == (None, None, 0) and line(s, HOME, 0).sb == 1
    decide(s, "pickoff", PASS)                 # no second steal for the same runner
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)                 # before the single
    assert s.score == (0, 1) and line(s, HOME, 4).rbi == 1
    assert s.board.bases == (4, 3, None)
    decide(s, "steal", PASS)
    decide(s, "pickoff", RUNNER_ON_FIRST)
    assert s.board.inning == 2 and s.board.half == 0
    assert dice.remaining == 0
    text = "\n".join(str(p) for p in s.log.plays)
    assert "pickoff_error" in text and "picked_off" in text


def test_fly_out_tag_up_from_second():
    """Reds 3rd: 1B, BB, FO, FO and Encarnacion tags up to third, 2B scores him."""
    dice = script(
        at_bat(REDS, 0, 37), at_bat(REDS, 1, 40),
        at_bat(REDS, 2, 41),                   # Boggs flies out
        at_bat(REDS, 3, 35),                   # Piazza flies out
        ("tag_up", 5),                         # Encarnacion tags up, to third
        at_bat(REDS, 4, 38), ("extra_base_hit", 2),   # Helton doubles
        at_bat(REDS, 5, 36),                   # Bichette grounds out
    )
    s = new_game(REDS, BLUES, dice)
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    assert s.board.bases == (1, 0, None)
    assert s.pending is not None
    decide(s, "tag_up", PASS)                  # runner on second holds after Boggs's fly out
    assert s.pending.kind == "steal"           # runner on first was never asked: second occupied
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    assert s.pending.kind == "tag_up" and s.pending.subject == 1
    decide(s, "tag_up", ROLL)
    assert s.board.bases == (1, None, 0)
    assert s.pending.kind == "tag_up" and s.pending.subject == 0   # second is open now
    decide(s, "tag_up", PASS)
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    assert s.score == (1, 0) and s.board.bases == (None, 4, 1)
    assert line(s, AWAY, 4).doubles == 1 and line(s, AWAY, 4).rbi == 1
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    decide(s, "error_roll", PASS)             # ground out is the third out: no double play
    assert s.board.half == 1 and dice.remaining == 0
    assert line(s, AWAY, 3).ab == 1 and line(s, AWAY, 3).rbi == 0


def test_sacrifice_fly_scores_from_third_and_is_not_an_at_bat():
    dice = script(at_bat(REDS, 0, 29), ("extra_base_hit", 5),   # triple
                         at_bat(REDS, 1, 35), ("tag_up", 6))
    s = new_game(REDS, BLUES, dice)
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    decide(s, "tag_up", ROLL)
    assert s.score == (1, 0)
    soriano = line(s, AWAY, 1)
    assert (soriano.ab, soriano.sf, soriano.rbi, soriano.pa) == (0, 1, 1, 1)
    assert soriano.marks == [(1, "SF")]


def test_extra_base_hit_home_run_scores_everyone():
    """Reds 2nd: Beltran 38, extra-base hit, the die says home run."""
    dice = script(at_bat(REDS, 0, 30), at_bat(REDS, 1, 31),
                         at_bat(REDS, 2, 38), ("extra_base_hit", 6))
    s = new_game(REDS, BLUES, dice)
    for _ in range(2):
        decide(s, "steal", PASS)
        decide(s, "pickoff", PASS)
    assert s.score == (3, 0) and s.board.bases == (None, None, None)
    boggs = line(s, AWAY, 2)
    assert (boggs.hr, boggs.rbi, boggs.r, boggs.h) == (1, 3, 1, 1)


@pytest.mark.parametrize("roll, hit", [(1, "2B"), (4, "2B"), (5, "3B"), (6, "HR")])
def test_extra_base_hit_die(roll, hit):
    dice = script(at_bat(REDS, 0, 38), ("extra_base_hit", roll))
    s = new_game(REDS, BLUES, dice)
    assert s.log.plays[0].detail == hit


def _corners_one_ground_ball(dp_roll):
    """Runner on third (triple), runner on first (walk), then Boggs grounds out."""
    dice = script(at_bat(REDS, 0, 29), ("extra_base_hit", 5), at_bat(REDS, 1, 31),
                         at_bat(REDS, 2, 36), ("error", 7), ("double_play", dp_roll))
    s = new_game(REDS, BLUES, dice)
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    assert s.board.bases == (1, None, 0)
    decide(s, "error_roll", ROLL, AWAY)
    decide(s, "double_play", ROLL, HOME)
    return s


def test_double_play_fielding_manager_chooses_the_runner_on_third():
    s = _corners_one_ground_ball(5)
    assert s.pending.kind == "dp_runner" and s.pending.actor == HOME
    assert s.pending.legal == (RUNNER_ON_FIRST, RUNNER_ON_THIRD)
    apply_action(s, RUNNER_ON_THIRD)
    assert s.board.outs == 2 and s.score == (0, 0)
    assert s.board.bases == (None, 1, None)        # Soriano advances one base
    assert line(s, AWAY, 2).marks == [(1, "DP")]


def test_double_play_on_the_runner_from_first_lets_the_run_score_without_rbi():
    s = _corners_one_ground_ball(4)
    apply_action(s, RUNNER_ON_FIRST)
    assert s.board.outs == 2 and s.score == (1, 0)
    assert s.board.bases == (None, None, None)
    assert line(s, AWAY, 2).rbi == 0 and line(s, AWAY, 0).r == 1


def test_missed_double_play_runner_takes_second():
    s = _corners_one_ground_ball(3)
    assert s.board.outs == 1 and s.board.bases == (None, 1, 0) and s.score == (0, 0)
    assert line(s, AWAY, 2).marks == [(1, "GO")]


def test_missed_double_play_with_bases_loaded_forces_a_run_with_rbi():
    dice = script(at_bat(REDS, 0, 31), at_bat(REDS, 1, 31), at_bat(REDS, 2, 40),
                         at_bat(REDS, 3, 36), ("double_play", 1))
    s = new_game(REDS, BLUES, dice)
    for _ in range(3):
        while s.pending.kind in ("steal", "pickoff"):
            apply_action(s, PASS)
    assert s.board.bases == (2, 1, 0)
    decide(s, "error_roll", PASS)
    decide(s, "double_play", ROLL)
    assert s.score == (1, 0) and s.board.bases == (None, 2, 1) and s.board.outs == 1
    assert line(s, AWAY, 3).rbi == 1


def test_double_play_for_the_third_out_scores_no_run():
    dice = script(at_bat(REDS, 0, 34),                        # strikeout
                         at_bat(REDS, 1, 38), ("extra_base_hit", 5),  # triple
                         at_bat(REDS, 2, 40),                         # walk
                         at_bat(REDS, 3, 36), ("double_play", 6))
    s = new_game(REDS, BLUES, dice)
    for _ in range(2):
        while s.pending.kind in ("steal", "pickoff"):
            apply_action(s, PASS)
    decide(s, "error_roll", PASS)
    decide(s, "double_play", ROLL)
    decide(s, "dp_runner", RUNNER_ON_FIRST)
    assert s.score == (0, 0) and s.board.half == 1


def test_error_on_a_ground_out_puts_the_batter_on_and_moves_every_runner():
    dice = script(at_bat(REDS, 0, 29), ("extra_base_hit", 1),   # double
                         at_bat(REDS, 1, 33), ("error", 12))
    s = new_game(REDS, BLUES, dice)
    decide(s, "steal", PASS)
    decide(s, "pickoff", PASS)
    decide(s, "error_roll", ROLL)
    assert s.board.bases == (1, None, 0) and s.board.outs == 0
    assert s.box.errors[HOME] == 1 and line(s, AWAY, 1).marks == [(1, "E")]
    assert line(s, AWAY, 1).ab == 1 and line(s, AWAY, 1).h == 0


def test_caught_stealing_and_steal_of_home():
    dice = script(at_bat(REDS, 0, 29), ("extra_base_hit", 5), ("steal", 4),
                         at_bat(REDS, 1, 30), ("steal", 3))
    s = new_game(REDS, BLUES, dice)
    decide(s, "steal", RUNNER_ON_THIRD)
    assert s.score == (1, 0) and line(s, AWAY, 0).sb == 1 and line(s, AWAY, 1).rbi == 0
    decide(s, "steal", RUNNER_ON_FIRST)        # Soriano singled; before Boggs
    caught = [p for p in s.log.plays if p.kind == "caught_stealing"]
    assert len(caught) == 1 and caught[0].actor == 1 and caught[0].after == (None, None, None)
    assert line(s, AWAY, 1).cs == 1 and line(s, AWAY, 1).sb == 0
    assert s.board.outs >= 1


def test_walk_off_counts_only_the_winning_run():
    """innings=1, bottom of the 1st, tied, bases loaded: a double wins it 1-0."""
    dice = script(at_bat(REDS, 0, 34), at_bat(REDS, 1, 34), at_bat(REDS, 2, 39),
                         at_bat(BLUES, 0, 31), at_bat(BLUES, 1, 31), at_bat(BLUES, 2, 40),
                         at_bat(BLUES, 3, 38), ("extra_base_hit", 1))
    s = new_game(REDS, BLUES, dice, innings=1)
    while s.pending is not None:
        assert s.pending.kind in ("steal", "pickoff")
        apply_action(s, PASS)
    assert s.over and s.winner == HOME and s.score == (0, 1)
    murphy = line(s, HOME, 3)
    assert (murphy.rbi, murphy.doubles, murphy.pa) == (1, 1, 1)
    assert sum(x.r for x in s.box.lines[HOME]) == 1


def test_walk_off_grand_slam_counts_every_run():
    dice = script(at_bat(REDS, 0, 34), at_bat(REDS, 1, 34), at_bat(REDS, 2, 39),
                         at_bat(BLUES, 0, 31), at_bat(BLUES, 1, 31), at_bat(BLUES, 2, 40),
                         at_bat(BLUES, 3, 38), ("extra_base_hit", 6))
    s = new_game(REDS, BLUES, dice, innings=1)
    while s.pending is not None:
        apply_action(s, PASS)
    assert s.over and s.score == (0, 4) and line(s, HOME, 3).rbi == 4


def test_home_team_does_not_bat_when_ahead_after_the_top_of_the_last_inning():
    dice = script(
        at_bat(REDS, 0, 34), at_bat(REDS, 1, 34), at_bat(REDS, 2, 39),          # top 1st
        at_bat(BLUES, 0, 38), ("extra_base_hit", 6), at_bat(BLUES, 1, 34), at_bat(BLUES, 2, 39), at_bat(BLUES, 3, 34),
        at_bat(REDS, 3, 34), at_bat(REDS, 4, 34), at_bat(REDS, 5, 39),          # top 2nd
    )
    s = new_game(REDS, BLUES, dice, innings=2)
    assert s.over and s.winner == HOME and s.score == (0, 1)
    assert s.board.line == [[0, 0], [1]]
    assert dice.remaining == 0
    assert " x" in s.box.render_line_score(s.board)


def test_illegal_action_and_script_drift_are_reported():
    s = new_game(REDS, BLUES, ScriptedDice([at_bat(REDS, 0, 30)]))
    with pytest.raises(IllegalActionError, match="steal"):
        apply_action(s, ROLL)
    apply_action(s, PASS)
    with pytest.raises(DiceScriptError, match="ran out"):
        apply_action(s, PASS)
    with pytest.raises(DiceScriptError, match="'steal' but the game asked for a 'at_bat'"):
        new_game(REDS, BLUES, ScriptedDice([("steal", 3)]))
