"""Pokemon Baseball's rules, played out with scripted dice (envs/pokemon_baseball/rules.py).

How these tests drive the engine:

* ``game()`` builds two test teams (``make_team``: 17 creatures with plain stats, HP 50,
  level 20, attack 50, retreat 2, unless a test overrides some) and plays the pregame with
  each team file's lineup (``pregame``): creature ``k`` (0..8) plays position ``k + 1``
  (0 = P, 1 = C, 2 = 1B, ..., 6 = LF, 7 = CF, 8 = RF) and the batting order is creatures
  1, 2, ..., 8, 0 (the pitcher bats ninth). The game then waits at the away team's first
  "offense_sub" decision, before the first pitch of the top of the 1st.
* The state is plain data: at a decision before the roll (``offense_sub``) a test may set
  the board (``setup``: bases, outs, score, the batting slot due up) and the dice
  (``state.dice = ScriptedDice([...])``). Runners on base are the batting team's roster
  indices (the batter at slot 0 is creature 1, so runners are creatures 5, 6, 7).
* ``swing`` passes every manager decision up to the roll (offense_sub, defense_sub, steal,
  bunt) and checks that the script was used up. Scripts name each roll's purpose, so a
  roll the engine makes for another purpose fails the test (``DiceScriptError``).

Expected results are read by hand from the rulebook's charts
(the rulebook, pokemon-baseball.txt); each test names the cell it reads.
Batting chart cells used below ("(pitcher die, batter dice)"):
(3,4) Single(7); (1,4) Double(9); (6,2) Triple(8); (6,12) Homerun; (6,4) Walk;
(6,10) Strikeout; (4,4) Ground Out(3); (5,3) Fly Out(5); (3,11) Fly Out(3); (3,6) Fly Out(7);
(2,3) Sacrifice Fly(9); (2,2) Error(2); (4,3) Error(7); (4,11) Error(9); (2,6) Hit Grounder(4);
(6,6) Hit(8); (1,3) Hit Liner(6); (4,2) Strikeout Walk; (1,2) Homerun Double(8).
"""

from __future__ import annotations

import pytest

from dugout.envs.core import Dice, ScriptedDice
from dugout.envs.pokemon_baseball import cards, rules
from dugout.envs.pokemon_baseball.cards import POSITIONS
from dugout.envs.pokemon_baseball.rules import (CREATURE, GONE, PASS, PINCH_HIT,
                                                PLAYING, POSITION, RUNNER, YES, apply_action,
                                                games_to_rest, rest_for_innings)

AWAY, HOME = 0, 1
P, C, B1, B2, B3, SS, LF, CF, RF = range(9)      # creature index = position - 1
BATTER = 1                                       # the away team's leadoff hitter (slot 0)
EMPTY = (None, None, None)
DEFAULT = {"hp": 50, "level": 20, "attack": 50, "retreat": 2}
BATTING_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 0)
PRE_ROLL = ("offense_sub", "defense_sub", "steal", "bunt")


# ----------------------------------------------------------------------------- helpers
def make_team(tag: str, stats: dict[int, dict] | None = None, size: int = 17) -> cards.Team:
    """A team of ``size`` creatures "<tag>0".."<tag>{size-1}" with DEFAULT stats (``stats``
    overrides some, by roster index); creature k (0..8) plays position k + 1 and the
    batting order is 1, 2, ..., 8, 0."""
    stats = stats or {}
    creatures = []
    for k in range(size):
        c = {"id": f"{tag}{k}", "name": f"{tag.upper()}{k}", **DEFAULT}
        c.update(stats.get(k, {}))
        creatures.append(c)
    return cards.team_from_dict({
        "name": f"Team {tag}", "roster": [c["id"] for c in creatures],
        "lineup": [{"creature": f"{tag}{k}", "position": POSITIONS[k]} for k in BATTING_ORDER],
        "rotation": [f"{tag}0"], "creatures": creatures}, f"test team {tag}")


def team_pick(team: cards.Team, kind: str, subject: int) -> int:
    """The team file's choice: the creature playing position ``subject`` ("lineup") or
    batting in slot ``subject`` ("batting_order")."""
    if kind == "lineup":
        return team.lineup[team.positions.index(subject)]
    return team.lineup[subject]


def pregame(state) -> None:
    """Both lineups from the team files (away first); substitutions are later."""
    while state.pending is not None and state.pending.kind in ("lineup", "batting_order"):
        d = state.pending
        k = team_pick(state.teams[d.actor], d.kind, d.subject)
        assert CREATURE + k in d.legal, (d, k)
        apply_action(state, CREATURE + k)


def game(away: dict | None = None, home: dict | None = None, size: int = 17, **options):
    """A game between two test teams, at the away team's first offense_sub decision."""
    state = rules.new_game(make_team("a", away, size), make_team("h", home, size),
                           ScriptedDice([]), **options)
    pregame(state)
    assert state.started and state.pending.kind == "offense_sub"
    return state


def setup(state, bases=None, outs=None, runs=None, slot=None) -> None:
    """Put the game in a situation at the offense_sub decision before a batter: the bases
    (batting team's creatures), the outs, the score (in the current inning's line) and the
    batting slot due up."""
    assert state.pending is not None and state.pending.kind == "offense_sub", state.pending
    b = state.board
    if bases is not None:
        b.bases = tuple(bases)
    if outs is not None:
        b.outs = outs
    if runs is not None:
        b.runs = list(runs)
        b.line[0][-1] = runs[0]
        if b.line[1]:
            b.line[1][-1] = runs[1]
    if slot is not None:
        state.order[b.half] = slot


def decide(state, kind: str, action: int, actor: int | None = None) -> None:
    d = state.pending
    assert d is not None, f"expected a {kind} decision, the game is over"
    assert d.kind == kind, f"expected a {kind} decision, got {d}"
    if actor is not None:
        assert d.actor == actor, d
    apply_action(state, action)


def pass_to(state, kind: str) -> None:
    """PASS the decisions before the roll until a ``kind`` decision is pending."""
    while state.pending.kind != kind:
        assert state.pending.kind in PRE_ROLL, state.pending
        apply_action(state, PASS)


def swing(state, *rolls) -> None:
    """Script ``rolls`` and PASS every decision before the roll until they are all used."""
    state.dice = ScriptedDice(rolls)
    while state.dice.remaining:
        d = state.pending
        assert d is not None and d.kind in PRE_ROLL, (d, state.dice.remaining)
        apply_action(state, PASS)


def script(state, *rolls) -> ScriptedDice:
    state.dice = ScriptedDice(rolls)
    return state.dice


def bat(col: int, row: int) -> tuple:
    """The batting chart's rolls: the pitcher's die (column), the batter's two dice (row)."""
    return ("pitcher", col), ("batter", row)


def last_pa(state):
    return [p for p in state.log.plays if p.kind == "pa"][-1]


def line(state, team: int, k: int):
    return state.box.lines[team][state.line_of[team][k]]


def pitching(state, team: int):
    return state.box.pitching[team][state.pitching_line[team]]


# ===================================================== the batting chart: hits and walks
@pytest.mark.parametrize("rolls, outs, after, runs, code", [
    # Single: batter to 1st, runners +1; with two out +2 ("All hits")
    (bat(3, 4), 0, (BATTER, 5, 6), 1, "1B"),
    (bat(3, 4), 2, (BATTER, None, 5), 2, "1B"),
    # Double: runners +2 (+3 with two out)
    (bat(1, 4), 0, (None, BATTER, 5), 2, "2B"),
    (bat(1, 4), 2, (None, BATTER, None), 3, "2B"),
    # Triple: everyone scores either way
    (bat(6, 2), 0, (None, None, BATTER), 3, "3B"),
    (bat(6, 2), 2, (None, None, BATTER), 3, "3B"),
    # Homerun: a grand slam either way
    (bat(6, 12), 0, EMPTY, 4, "HR"),
    (bat(6, 12), 2, EMPTY, 4, "HR"),
])
def test_batting_chart_hits_move_the_runners(rolls, outs, after, runs, code):
    s = game()
    setup(s, bases=(5, 6, 7), outs=outs)
    swing(s, *rolls)
    assert s.board.bases == after
    assert s.score == (runs, 0) and s.board.outs == outs
    assert last_pa(s).detail == code and last_pa(s).actor == BATTER
    batter = line(s, AWAY, BATTER)
    assert (batter.h, batter.rbi, batter.ab) == (1, runs, 1)
    assert s.box.hits[AWAY] == 1 and pitching(s, HOME).h == 1 and pitching(s, HOME).r == runs
    assert s.box.errors == [0, 0]


def test_two_out_extra_base_is_for_runners_only():
    """A two-out single with a runner on first: the runner takes third, the batter first."""
    s = game()
    setup(s, bases=(5, None, None), outs=2)
    swing(s, *bat(3, 4))                        # (3,4) Single(7)
    assert s.board.bases == (BATTER, None, 5) and s.score == (0, 0)


@pytest.mark.parametrize("before, after, runs", [
    ((5, 6, 7), (BATTER, 5, 6), 1),             # bases loaded: a run is forced in
    ((None, 6, None), (BATTER, 6, None), 0),    # nobody forced: the runner on 2nd stays
    ((5, None, 7), (BATTER, 5, 7), 0),
])
def test_walk_forces_runners(before, after, runs):
    s = game()
    setup(s, bases=before)
    swing(s, *bat(6, 4))                        # (6,4) Walk
    assert s.board.bases == after and s.score == (runs, 0) and s.board.outs == 0
    assert last_pa(s).detail == "BB"
    b = line(s, AWAY, BATTER)
    assert (b.bb, b.ab, b.rbi) == (1, 0, runs) and pitching(s, HOME).bb == 1


# ========================================================== outs off the batting chart
def test_strikeout_moves_nobody():
    s = game()
    setup(s, bases=(5, 6, 7))
    swing(s, *bat(6, 10))                       # (6,10) Strikeout
    assert s.board.bases == (5, 6, 7) and s.board.outs == 1 and s.score == (0, 0)
    assert last_pa(s).detail == "SO" and pitching(s, HOME).so == 1


def test_ground_out_advances_every_runner():
    s = game()
    setup(s, bases=(5, 6, 7))
    swing(s, *bat(4, 4))                        # (4,4) Ground Out(3): "all runners advance"
    assert s.board.bases == (None, 5, 6) and s.board.outs == 1 and s.score == (1, 0)
    assert last_pa(s).detail == "GO" and last_pa(s).base == 3
    assert line(s, AWAY, BATTER).rbi == 1


def test_ground_out_for_the_third_out_scores_nothing():
    s = game()
    setup(s, bases=(5, 6, 7), outs=2)
    swing(s, *bat(4, 4))                        # (4,4) Ground Out(3)
    assert s.score == (0, 0) and s.board.line[AWAY] == [0]
    assert (s.board.half, s.board.outs, s.board.bases) == (1, 0, EMPTY)
    assert last_pa(s).detail == "GO" and last_pa(s).scored == ()
    assert s.pending.kind == "offense_sub" and s.pending.actor == HOME


@pytest.mark.parametrize("before, outs, after, runs, code", [
    ((None, None, 7), 0, EMPTY, 1, "SF"),       # the runner on third scores
    ((5, 6, 7), 1, (5, 6, None), 1, "SF"),      # the others hold
    ((5, None, None), 0, (5, None, None), 0, "FO"),   # nobody on third: a plain fly out
])
def test_sacrifice_fly(before, outs, after, runs, code):
    s = game()
    setup(s, bases=before, outs=outs)
    swing(s, *bat(2, 3))                        # (2,3) Sacrifice Fly(9)
    assert s.board.bases == after and s.score == (runs, 0) and s.board.outs == outs + 1
    assert last_pa(s).detail == code and last_pa(s).base == 9
    b = line(s, AWAY, BATTER)
    assert (b.rbi, b.sf, b.ab) == (runs, int(code == "SF"), int(code != "SF"))
    assert s.pending.kind == "offense_sub"      # no tag-up decision on a sacrifice fly


def test_sacrifice_fly_for_the_third_out_scores_nothing():
    s = game()
    setup(s, bases=(None, None, 7), outs=2)
    swing(s, *bat(2, 3))                        # (2,3) Sacrifice Fly(9)
    assert s.score == (0, 0) and s.board.half == 1
    assert last_pa(s).detail == "FO" and line(s, AWAY, BATTER).sf == 0


@pytest.mark.parametrize("rolls, fielder", [(bat(5, 3), 5), (bat(3, 11), 3)])
def test_infield_fly_out_gives_no_tag_up(rolls, fielder):
    s = game()
    setup(s, bases=(5, None, 7))
    swing(s, *rolls)                            # (5,3) Fly Out(5) / (3,11) Fly Out(3)
    assert last_pa(s).detail == "FO" and last_pa(s).base == fielder
    assert s.board.bases == (5, None, 7) and s.board.outs == 1 and s.score == (0, 0)
    assert s.pending.kind == "offense_sub"      # the next batter: no "tag_up" was asked


def test_outfield_fly_out_asks_for_a_tag_up_and_holding_keeps_the_bases():
    s = game()
    setup(s, bases=(5, 6, 7))
    swing(s, *bat(3, 6))                        # (3,6) Fly Out(7)
    assert s.pending.kind == "tag_up" and s.pending.actor == AWAY
    assert s.pending.legal == (PASS, YES) and s.pending.subject == 2
    decide(s, "tag_up", PASS)
    assert s.board.bases == (5, 6, 7) and s.board.outs == 1 and s.score == (0, 0)
    assert s.pending.kind == "offense_sub"


def test_outfield_fly_out_for_the_third_out_gives_no_tag_up():
    s = game()
    setup(s, bases=(None, None, 7), outs=2)
    swing(s, *bat(3, 6))                        # (3,6) Fly Out(7)
    assert s.board.half == 1 and s.score == (0, 0) and s.pending.kind == "offense_sub"


def test_outfield_fly_out_with_nobody_on_third_gives_no_tag_up():
    s = game()
    setup(s, bases=(5, 6, None))
    swing(s, *bat(3, 6))                        # (3,6) Fly Out(7)
    assert s.pending.kind == "offense_sub" and s.board.bases == (5, 6, None)


@pytest.mark.parametrize("die, safe", [(5, True), (4, False), (6, True), (1, False)])
def test_tag_up_safe_or_out_at_home_and_the_others_advance(die, safe):
    """Tag Up: the die must be greater than runner's retreat 2 + left fielder's retreat 2."""
    s = game()
    setup(s, bases=(5, 6, 7))
    swing(s, *bat(3, 6))                        # (3,6) Fly Out(7): LF, creature 6 of home
    script(s, ("tag_up", die))
    decide(s, "tag_up", YES, AWAY)
    assert s.dice.remaining == 0
    assert s.board.bases == (None, 5, 6)        # "All other runners advance one base"
    play = [p for p in s.log.plays if p.kind in ("tag_up", "tag_out")][-1]
    assert play.actor == 7 and play.roll == die
    if safe:
        assert play.kind == "tag_up" and play.scored == (7,)
        assert s.score == (1, 0) and s.board.outs == 1
        b = line(s, AWAY, BATTER)
        assert (b.rbi, b.sf, b.ab) == (1, 1, 0)
        assert line(s, AWAY, 7).r == 1
    else:
        assert play.kind == "tag_out"
        assert s.score == (0, 0) and s.board.outs == 2
        assert pitching(s, HOME).outs == 2


def test_tag_up_uses_the_outfielders_retreat():
    """Runner retreat 0 + left fielder retreat 4 = 4: a 4 is out, a 5 would be safe."""
    s = game(away={7: {"retreat": 0}}, home={LF: {"retreat": 4}})
    setup(s, bases=(None, None, 7))
    swing(s, *bat(3, 6))                        # (3,6) Fly Out(7)
    script(s, ("tag_up", 4))
    decide(s, "tag_up", YES)
    assert s.score == (0, 0) and s.board.outs == 2 and s.board.bases == EMPTY


def test_out_at_home_for_the_third_out_ends_the_inning_without_advancing():
    s = game()
    setup(s, bases=(5, None, 7), outs=1)
    swing(s, *bat(3, 6))                        # (3,6) Fly Out(7): two out
    script(s, ("tag_up", 2))                    # 2 <= 2 + 2: out at home, the third out
    decide(s, "tag_up", YES)
    assert s.score == (0, 0) and s.board.half == 1 and s.board.line[AWAY] == [0]
    assert [p for p in s.log.plays if p.kind == "tag_out"][-1].after == (5, None, 7)


# ============================================================ the one-die sub-charts
def test_hit_chart_reads_the_batters_hp():
    """(6,6) Hit(8); Hit chart column "50", row 6: Double; column "> 110", row 6: Homerun."""
    s = game()
    setup(s, bases=(5, None, None))
    swing(s, *bat(6, 6), ("chart", 6))
    assert last_pa(s).detail == "2B" and s.board.bases == (None, BATTER, 5)
    s = game(away={BATTER: {"hp": 120}})
    swing(s, *bat(6, 6), ("chart", 6))
    assert last_pa(s).detail == "HR" and s.score == (1, 0)


def test_hit_liner_out_moves_nobody():
    """(1,3) Hit Liner(6); HP 50 - 50 = 0: column "0", row 2: Out."""
    s = game()
    setup(s, bases=(5, 6, 7))
    swing(s, *bat(1, 3), ("chart", 2))
    assert s.board.bases == (5, 6, 7) and s.board.outs == 1 and s.score == (0, 0)
    assert last_pa(s).detail == "LO" and last_pa(s).base == 6


def test_hit_liner_sacrifice_fly():
    """HP 80 - 50 = 30: column "40, 30", row 1: Sacrifice Fly."""
    s = game(away={BATTER: {"hp": 80}})
    setup(s, bases=(5, None, 7))
    swing(s, *bat(1, 3), ("chart", 1))
    assert s.board.bases == (5, None, None) and s.score == (1, 0) and s.board.outs == 1
    assert last_pa(s).detail == "SF"


@pytest.mark.parametrize("away, home, rolls", [
    ({}, {}, bat(3, 4)),                                   # batting chart Single(7)
    ({}, {}, bat(6, 6) + (("chart", 1),)),                 # Hit chart "50" row 1: Single
    ({}, {}, bat(1, 3) + (("chart", 3),)),                 # Hit/Liner "0" row 3: Single
    ({}, {}, bat(2, 6) + (("chart", 6),)),                 # Hit/Grounder "0-20" row 6: Single
    ({}, {RF: {"level": 55}}, bat(4, 11) + (("error", 7), ("chart", 1))),  # error "Hit"
])
@pytest.mark.parametrize("outs, after", [(0, (BATTER, 5, None)), (2, (BATTER, None, 5))])
def test_every_kind_of_single_gives_the_two_out_extra_base(away, home, rolls, outs, after):
    s = game(away=away, home=home)
    setup(s, bases=(5, None, None), outs=outs)
    swing(s, *rolls)
    assert last_pa(s).detail == "1B"
    assert s.board.bases == after and s.board.outs == outs


def test_hit_grounder_double_play_scores_the_runner_from_third():
    """(2,6) Hit Grounder(4): 20 + 20 - 20 = 20, column "0-20", row 1: Out. A runner on
    first: double play (batter and runner), the runner on third advances and scores."""
    s = game()
    setup(s, bases=(5, None, 7))
    swing(s, *bat(2, 6), ("chart", 1))
    assert s.board.outs == 2 and s.board.bases == EMPTY and s.score == (1, 0)
    pa = last_pa(s)
    assert pa.detail == "DP" and pa.base == 4 and pa.scored == (7,)
    assert line(s, AWAY, BATTER).rbi == 0 and pitching(s, HOME).outs == 2
    assert line(s, AWAY, 7).r == 1


def test_hit_grounder_double_play_moves_the_runner_from_second():
    s = game()
    setup(s, bases=(5, 6, None))
    swing(s, *bat(2, 6), ("chart", 1))
    assert s.board.outs == 2 and s.board.bases == (None, None, 6) and s.score == (0, 0)


def test_hit_grounder_out_with_nobody_on_first_advances_everyone():
    s = game()
    setup(s, bases=(None, 6, 7))
    swing(s, *bat(2, 6), ("chart", 1))
    assert s.board.outs == 1 and s.board.bases == (None, None, 6) and s.score == (1, 0)
    assert last_pa(s).detail == "GO" and last_pa(s).scored == (7,)


@pytest.mark.parametrize("rolls", [
    bat(2, 6) + (("chart", 1),),        # Hit/Grounder "0-20" row 1: Out
    bat(2, 2) + (("error", 8),),        # Error(2), catcher level 20, row 8: Out (infield)
])
def test_ground_out_without_a_double_play_earns_an_rbi(rolls):
    """RULES.md, "Box score": runs on double plays earn no RBI; ground outs do. With
    nobody on first the infield Out is a plain ground out ("GO") and the run from third
    is batted in, as on the batting chart's Ground Out."""
    s = game()
    setup(s, bases=(None, None, 7))
    swing(s, *rolls)
    assert last_pa(s).detail == "GO" and s.score == (1, 0)
    assert line(s, AWAY, BATTER).rbi == 1


def test_double_play_with_one_out_ends_the_inning_and_no_run_scores():
    s = game()
    setup(s, bases=(5, None, 7), outs=1)
    swing(s, *bat(2, 6), ("chart", 1))
    assert s.score == (0, 0) and s.board.half == 1 and last_pa(s).detail == "DP"
    assert pitching(s, HOME).outs == 2


def test_hit_grounder_out_with_two_out_retires_only_the_batter():
    s = game()
    setup(s, bases=(5, None, 7), outs=2)
    swing(s, *bat(2, 6), ("chart", 1))
    assert s.score == (0, 0) and s.board.half == 1 and last_pa(s).detail == "GO"
    assert pitching(s, HOME).outs == 1


def test_hit_grounder_column_uses_the_fielder():
    """Second baseman level 60: 20 + 60 - 20 = 60, column "51-60", row 3: Single."""
    s = game(home={B2: {"level": 60}})
    swing(s, *bat(2, 6), ("chart", 3))
    assert last_pa(s).detail == "1B" and s.board.bases == (BATTER, None, None)


@pytest.mark.parametrize("away, die, after, runs", [
    # attack 80 - 50 = 30: column "30", row 5: Wild Pitch Walk: every runner moves up
    ({BATTER: {"attack": 80}}, 5, (BATTER, None, 6), 0),
    # attack 50 - 50 = 0: column "0", row 5: a plain Walk: the runner on 2nd is not forced
    ({}, 5, (BATTER, 6, None), 0),
    # column "0", row 3: Strikeout
    ({}, 3, (None, 6, None), 0),
])
def test_strikeout_walk_chart(away, die, after, runs):
    s = game(away=away)
    setup(s, bases=(None, 6, None))
    swing(s, *bat(4, 2), ("chart", die))        # (4,2) Strikeout Walk
    assert s.board.bases == after and s.score == (runs, 0)


def test_wild_pitch_walk_scores_the_runner_from_third_without_an_rbi():
    s = game(away={BATTER: {"attack": 80}})
    setup(s, bases=(5, None, 7))
    swing(s, *bat(4, 2), ("chart", 6))          # column "30", row 6: Wild Pitch Walk
    assert s.board.bases == (BATTER, 5, None) and s.score == (1, 0)
    assert last_pa(s).detail == "BB" and line(s, AWAY, BATTER).rbi == 0
    assert line(s, AWAY, BATTER).bb == 1


@pytest.mark.parametrize("die, code", [(3, "2B"), (4, "HR"), (1, "2B"), (6, "HR")])
def test_homerun_double_boundary(die, code):
    """(1,2) Homerun Double(8): 10 x die + batter HP 50 > pitcher HP 80 is a homerun;
    10 x 3 + 50 = 80 is not greater: a double."""
    s = game(home={P: {"hp": 80}})
    swing(s, *bat(1, 2), ("chart", die))
    assert last_pa(s).detail == code


# ============================================================== the error chart
def test_two_base_error_by_an_outfielder():
    """(4,3) Error(7); left fielder level 20: column "16-20", row 3: Error. Outfield
    errors are two base errors: batter to 2nd, runners +2, no RBI."""
    s = game()
    setup(s, bases=(5, None, 7))
    swing(s, *bat(4, 3), ("error", 3))
    assert s.board.bases == (None, BATTER, 5) and s.score == (1, 0) and s.board.outs == 0
    pa = last_pa(s)
    assert pa.detail == "E" and pa.base == 7 and pa.scored == (7,)
    assert s.box.errors == [0, 1]
    b = line(s, AWAY, BATTER)
    assert (b.h, b.ab, b.rbi) == (0, 1, 0) and s.box.hits == [0, 0]


def test_one_base_error_by_an_infielder():
    """(2,2) Error(2); catcher level 20, row 2: Error: batter to 1st, runners +1."""
    s = game()
    setup(s, bases=(5, None, 7))
    swing(s, *bat(2, 2), ("error", 2))
    assert s.board.bases == (BATTER, 5, None) and s.score == (1, 0)
    assert s.box.errors == [0, 1] and line(s, AWAY, BATTER).rbi == 0


@pytest.mark.parametrize("level, error_row, result", [
    (20, 4, "out"),      # column "16-20", row 4: Out
    (21, 4, "error"),    # column "21-25", row 4: Error
    (10, 3, "out"),      # column "1-10", row 3: Out
    (11, 3, "error"),    # column "11-15", row 3: Error
    (25, 11, "error"),   # column "21-25", row 11: Error
    (30, 11, "out"),     # column "26-30", row 11: Out
])
def test_error_chart_column_by_fielder_level(level, error_row, result):
    """(2,2) Error(2): the catcher's level picks the column."""
    s = game(home={C: {"level": level}})
    setup(s, bases=(None, 6, None))
    swing(s, *bat(2, 2), ("error", error_row))
    if result == "error":
        assert last_pa(s).detail == "E" and s.board.bases == (BATTER, None, 6)
        assert s.box.errors == [0, 1]
    else:   # an infield out: nobody on first, the runner advances
        assert last_pa(s).detail == "GO" and s.board.bases == (None, None, 6)
        assert s.board.outs == 1 and s.box.errors == [0, 0]


def test_error_chart_infield_out_is_a_double_play():
    """(2,2) Error(2); row 8: Out; infield with a runner on first: double play."""
    s = game()
    setup(s, bases=(5, 6, None))
    swing(s, *bat(2, 2), ("error", 8))
    assert s.board.outs == 2 and s.board.bases == (None, None, 6) and last_pa(s).detail == "DP"


def test_error_chart_outfield_out_is_a_fly_out_with_a_tag_up():
    """(4,3) Error(7); row 8: Out; outfield: fly out, the runner on third may tag up."""
    s = game()
    setup(s, bases=(None, None, 7))
    swing(s, *bat(4, 3), ("error", 8))
    assert s.pending.kind == "tag_up" and s.board.outs == 1
    assert last_pa(s).detail == "FO" and last_pa(s).base == 7


@pytest.mark.parametrize("level, code", [(55, "2B"), (51, "2B"), (50, "FO")])
def test_error_chart_hit_rolls_the_hit_chart(level, code):
    """(4,11) Error(9); row 7: "Hit" for a fielder of level 51+ (Hit chart, HP 50, row 6:
    Double), "Out" for 41-50 (an outfield fly)."""
    s = game(home={RF: {"level": level}})
    rolls = bat(4, 11) + (("error", 7),) + ((("chart", 6),) if code == "2B" else ())
    swing(s, *rolls)
    assert last_pa(s).detail == code
    if code == "2B":
        assert s.board.bases == (None, BATTER, None) and s.box.errors == [0, 0]
        assert line(s, AWAY, BATTER).h == 1 and line(s, AWAY, BATTER).doubles == 1
    else:
        assert s.board.outs == 1


def test_error_row_12_infield_double_play_then_injury_roll():
    """(2,2) Error(2); row 12: Ground Out + Batter Injury. Runner on first: double play,
    the runner on third scores; then the injury die by the batter's level (45: column
    "41-50", row 1: No Injury)."""
    s = game(away={BATTER: {"level": 45}})
    setup(s, bases=(5, None, 7))
    swing(s, *bat(2, 2), ("error", 12), ("injury", 1))
    assert s.board.outs == 2 and s.board.bases == EMPTY and s.score == (1, 0)
    assert last_pa(s).detail == "DP"
    injury = s.log.plays[-1]
    assert injury.kind == "injury" and injury.actor == BATTER and injury.detail == "none"
    assert s.injured[AWAY][BATTER] == 0 and s.hp(AWAY, BATTER) == 50
    assert s.pending.kind == "offense_sub"      # nothing to replace


def test_error_row_12_outfield_fly_out_tag_up_then_injury():
    """(4,3) Error(7); row 12: Fly Out (outfield, tag-up allowed) + Batter Injury (level
    20: column "11-20", row 5: Two Games)."""
    s = game()
    setup(s, bases=(None, None, 7))
    swing(s, *bat(4, 3), ("error", 12))
    assert s.pending.kind == "tag_up" and last_pa(s).detail == "FO"
    script(s, ("tag_up", 6), ("injury", 5))
    decide(s, "tag_up", YES)                    # 6 > 2 + 2: safe
    assert s.dice.remaining == 0 and s.score == (1, 0)
    assert s.injured[AWAY][BATTER] == 2 and s.log.plays[-1].detail == "games-2"
    d = s.pending                               # the injured batter must be replaced
    assert d.kind == "replace_injured" and d.actor == AWAY and d.subject == BATTER
    assert d.legal == tuple(CREATURE + k for k in range(9, 17))
    assert PASS not in d.legal
    apply_action(s, CREATURE + 12)
    assert s.status[AWAY][BATTER] == GONE and s.status[AWAY][12] == PLAYING
    assert s.lineup[AWAY][0] == 12 and s.at(AWAY, 2) == 12      # his slot and position (C)
    assert s.pending.kind == "offense_sub"


def test_hp_injuries_stack_down_to_a_floor_of_10():
    """Batter HP 80, level 25 (injury column "21-30"): row 1 HP -30, row 2 HP -50.
    80 - 30 - 30 = 20, then - 50 gives 10 (never below 10). The Hit chart then reads
    the "10-40" column: row 6 is a Single (HP 80 would read a Homerun)."""
    s = game(away={BATTER: {"hp": 80, "level": 25}})
    for die, hp in ((1, 50), (1, 20), (2, 10)):
        setup(s, outs=0, slot=0)
        swing(s, *bat(2, 2), ("error", 12), ("injury", die))   # Error(2), row 12
        assert s.log.plays[-1].detail == f"hp-{30 if die == 1 else 50}"
        assert s.hp(AWAY, BATTER) == hp
    assert s.hp_loss[AWAY][BATTER] == 110 and s.injured[AWAY][BATTER] == 0
    assert s.status[AWAY][BATTER] == PLAYING and s.pending.kind == "offense_sub"
    setup(s, outs=0, slot=0)
    swing(s, *bat(6, 6), ("chart", 6))          # (6,6) Hit(8)
    assert last_pa(s).detail == "1B"


# ============================================================================ bunts
def test_bunt_legality():
    s = game()
    setup(s, bases=(5, None, None))
    pass_to(s, "steal")
    decide(s, "steal", PASS)
    assert s.pending.kind == "bunt" and s.pending.legal == (PASS, YES)
    # runner on third: no bunt (the game rolls for the batter at once)
    s = game()
    setup(s, bases=(5, None, 7))
    pass_to(s, "steal")
    script(s, *bat(6, 10))
    decide(s, "steal", PASS)
    assert s.dice.remaining == 0 and last_pa(s).detail == "SO"
    assert all(p.kind != "bunt" for p in s.log.plays)
    # runner on second only, two out: a bunt
    s = game()
    setup(s, bases=(None, 6, None), outs=2)
    pass_to(s, "steal")
    decide(s, "steal", PASS)
    assert s.pending.kind == "bunt"
    # bases empty: no steal, no bunt
    s = game()
    swing(s, *bat(6, 10))
    assert last_pa(s).detail == "SO"


def bunt_with(state, *rolls):
    pass_to(state, "bunt")
    script(state, *rolls)
    decide(state, "bunt", YES, AWAY)
    assert state.dice.remaining == 0


@pytest.mark.parametrize("before, roll, code, after, outs", [
    # level 20: "Runner on First" column 8-20, row 11: Single
    ((5, None, None), 11, "1B", (BATTER, 5, None), 0),
    # runner on 2nd: "Runner on Second" column 16-30, row 11: Fly Out (nobody moves)
    ((None, 6, None), 11, "PO", (None, 6, None), 1),
    # runners on 1st and 2nd: the second group too (row 11: Fly Out)
    ((5, 6, None), 11, "PO", (5, 6, None), 1),
    # column 16-30, row 2: Walk (the runner on 2nd is not forced)
    ((None, 6, None), 2, "BB", (BATTER, 6, None), 0),
    # row 4: Success: the runners advance, the batter is out
    ((5, None, None), 4, "SH", (None, 5, None), 1),
    ((5, 6, None), 4, "SH", (None, 5, 6), 1),
    # column 8-20, row 9: Out: the lead runner out, the batter safe at first
    ((5, None, None), 9, "FC", (BATTER, None, None), 1),
    # column 16-30, row 9: Out: lead runner (2nd) out, the runner from 1st forced to 2nd
    ((5, 6, None), 9, "FC", (BATTER, 5, None), 1),
    # column 16-30, row 10: Strikeout: nobody moves
    ((None, 6, None), 10, "SO", (None, 6, None), 1),
    # column 8-20, row 12: Double Play: the runner and the batter
    ((5, None, None), 12, "DP", EMPTY, 2),
    # column 16-30, row 12: Double Play: lead runner and batter; the runner behind moves up
    ((5, 6, None), 12, "DP", (None, 5, None), 2),
])
def test_bunt_results(before, roll, code, after, outs):
    s = game()
    setup(s, bases=before)
    bunt_with(s, ("bunt", roll))
    pa = last_pa(s)
    assert pa.detail == code and pa.roll == roll and pa.actor == BATTER
    assert s.board.bases == after and s.board.outs == outs and s.score == (0, 0)
    assert s.box.errors == [0, 0]


def test_bunt_single_with_two_out_gives_the_extra_base():
    s = game()
    setup(s, bases=(5, None, None), outs=2)
    bunt_with(s, ("bunt", 11))                  # column 8-20, row 11: Single
    assert s.board.bases == (BATTER, None, 5) and last_pa(s).detail == "1B"


def test_bunt_double_play_with_one_out_ends_the_inning():
    s = game()
    setup(s, bases=(5, None, None), outs=1)
    bunt_with(s, ("bunt", 12))                  # column 8-20, row 12: Double Play
    assert s.board.half == 1 and s.score == (0, 0) and pitching(s, HOME).outs == 2


def test_bunt_column_by_batter_level():
    """Level 7: column "1-7", row 10: Single; level 8: column "8-20", row 10: Out."""
    s = game(away={BATTER: {"level": 7}})
    setup(s, bases=(5, None, None))
    bunt_with(s, ("bunt", 10))
    assert last_pa(s).detail == "1B"
    s = game(away={BATTER: {"level": 8}})
    setup(s, bases=(5, None, None))
    bunt_with(s, ("bunt", 10))
    assert last_pa(s).detail == "FC" and s.board.bases == (BATTER, None, None)


@pytest.mark.parametrize("error_row, code, after, outs, errors", [
    (2, "E", (BATTER, 5, None), 0, 1),      # pitcher level 20, row 2: Error: batter safe
    (4, "SH", (None, 5, None), 1, 0),       # row 4: Out: like Success
    (12, "SH", (None, 5, None), 1, 0),      # row 12 is no error (and no injury roll)
])
def test_bunt_success_error(error_row, code, after, outs, errors):
    """Column 8-20, row 3: Success/Error: two dice on the error chart by the PITCHER's
    level (20: column "16-20")."""
    s = game()
    setup(s, bases=(5, None, None))
    bunt_with(s, ("bunt", 3), ("bunt_error", error_row))
    assert last_pa(s).detail == code and s.board.bases == after and s.board.outs == outs
    assert s.box.errors == [0, errors]


def test_bunt_success_error_reads_the_pitchers_level_not_the_catchers():
    """Pitcher level 10 (column "1-10", row 3: Out); catcher level 20 would read Error."""
    s = game(home={P: {"level": 10}})
    setup(s, bases=(5, None, None))
    bunt_with(s, ("bunt", 3), ("bunt_error", 3))
    assert last_pa(s).detail == "SH" and s.box.errors == [0, 0]


# =========================================================================== steals
def test_steal_on_a_12_with_the_catchers_error_scores_the_runner_from_third():
    """Steal roll 12 is safe; then the catcher's level 20 (column "16-20"), row 2: Error:
    every runner advances one more base."""
    s = game()
    setup(s, bases=(5, None, 7))
    pass_to(s, "steal")
    assert s.pending.legal == (PASS, RUNNER + 0)
    script(s, ("steal", 12), ("steal_error", 2), *bat(6, 10))
    decide(s, "steal", RUNNER + 0, AWAY)        # then no steal, no bunt: the roll (SO)
    assert s.dice.remaining == 0
    kinds = [p.kind for p in s.log.plays[-3:]]
    assert kinds == ["steal", "steal_error", "pa"]
    steal, error = s.log.plays[-3], s.log.plays[-2]
    assert steal.roll == 12 and steal.after == (None, 5, 7)
    assert error.after == (None, None, 5) and error.scored == (7,)
    assert s.board.bases == (None, None, 5) and s.score == (1, 0) and s.board.outs == 1
    assert s.box.errors == [0, 1] and line(s, AWAY, 5).sb == 1 and line(s, AWAY, 7).r == 1


def test_steal_on_a_12_without_the_catchers_error():
    s = game()
    setup(s, bases=(5, None, 7))
    pass_to(s, "steal")
    script(s, ("steal", 12), ("steal_error", 8), *bat(6, 10))   # row 8: Out: no error
    decide(s, "steal", RUNNER + 0)
    assert s.board.bases == (None, 5, 7) and s.score == (0, 0) and s.box.errors == [0, 0]


@pytest.mark.parametrize("roll, safe", [(7, True), (6, False)])
def test_steal_of_second_reads_the_catchers_retreat(roll, safe):
    """Runner retreat 2, catcher retreat 2: row 2, column 2: 7-12."""
    s = game()
    setup(s, bases=(5, None, None))
    pass_to(s, "steal")
    assert s.pending.legal == (PASS, RUNNER + 0)
    # caught: the bases are empty, so no bunt: the batter's roll follows (a strikeout)
    script(s, ("steal", roll), *(() if safe else bat(6, 10)))
    decide(s, "steal", RUNNER + 0, AWAY)
    assert s.dice.remaining == 0
    steal = [p for p in s.log.plays if p.kind in ("steal", "caught_stealing")][-1]
    assert steal.roll == roll and steal.actor == 5
    if safe:
        assert steal.kind == "steal" and s.board.bases == (None, 5, None) and s.board.outs == 0
        assert line(s, AWAY, 5).sb == 1 and s.pending.kind == "bunt"
    else:
        assert steal.kind == "caught_stealing" and steal.after == EMPTY
        assert s.board.bases == EMPTY and s.board.outs == 2     # caught, then the strikeout
        assert line(s, AWAY, 5).cs == 1 and line(s, AWAY, 5).sb == 0


@pytest.mark.parametrize("pitcher_retreat, roll, safe", [
    (2, 8, False),      # column 2 + 2 = 4: row 2 reads 9-12
    (2, 9, True),
    (0, 7, True),       # column 2 + 0 = 2: row 2 reads 7-12
    (0, 6, False),
])
def test_steal_of_third_reads_catcher_plus_pitcher_retreat(pitcher_retreat, roll, safe):
    s = game(home={P: {"retreat": pitcher_retreat}})
    setup(s, bases=(5, 6, None))
    pass_to(s, "steal")
    script(s, ("steal", roll))
    decide(s, "steal", RUNNER + 1, AWAY)
    assert s.dice.remaining == 0
    if safe:
        assert s.board.bases == (5, None, 6) and s.board.outs == 0
        assert s.pending.kind == "steal" and s.pending.legal == (PASS, RUNNER + 0)
    else:   # caught: out; the runner on first may now try for second
        assert s.board.bases == (5, None, None) and s.board.outs == 1
        assert line(s, AWAY, 6).cs == 1 and pitching(s, HOME).outs == 1
        assert s.pending.kind == "steal" and s.pending.legal == (PASS, RUNNER + 0)


def test_caught_stealing_for_the_third_out_ends_the_inning():
    s = game()
    setup(s, bases=(5, None, None), outs=2)
    pass_to(s, "steal")
    script(s, ("steal", 2))
    decide(s, "steal", RUNNER + 0)
    assert s.board.half == 1 and s.pending.actor == HOME and s.order[AWAY] == 0


def test_each_runner_steals_once_per_batter():
    s = game()
    setup(s, bases=(5, None, None))
    pass_to(s, "steal")
    script(s, ("steal", 7))                     # safe at second (7-12)
    decide(s, "steal", RUNNER + 0)
    assert s.board.bases == (None, 5, None) and s.tried_steal == (5,)
    assert s.pending.kind == "bunt"             # no second try for him before this batter
    script(s, *bat(6, 10))
    decide(s, "bunt", PASS)                     # strikeout
    pass_to(s, "steal")                         # the next batter: he may try again
    assert s.pending.legal == (PASS, RUNNER + 1) and s.tried_steal == ()


# ====================================================================== substitutions
def test_no_re_entry_and_a_substitute_takes_slot_position_and_base():
    s = game()
    setup(s, bases=(5, None, None))
    decide(s, "offense_sub", PINCH_HIT, AWAY)
    d = s.pending
    assert d.kind == "substitute" and d.subject == BATTER
    assert d.legal == tuple(CREATURE + k for k in range(9, 17))
    apply_action(s, CREATURE + 9)
    assert s.lineup[AWAY][0] == 9 and s.at(AWAY, 2) == 9 and s.status[AWAY][BATTER] == GONE
    assert s.pending.kind == "offense_sub"      # offered again after a substitution
    decide(s, "offense_sub", RUNNER + 0)        # a pinch runner for creature 5 (the SS)
    assert CREATURE + BATTER not in s.pending.legal and CREATURE + 9 not in s.pending.legal
    apply_action(s, CREATURE + 10)
    assert s.board.bases == (10, None, None) and s.at(AWAY, 6) == 10
    assert s.status[AWAY][5] == GONE and s.lineup[AWAY][4] == 10
    # none of the creatures who left may come back, for the rest of the game
    for _ in range(4):
        decide(s, "offense_sub", PINCH_HIT)
        legal = s.pending.legal
        assert CREATURE + BATTER not in legal and CREATURE + 5 not in legal
        apply_action(s, legal[0])
    assert s.available(AWAY) == [15, 16]
    gone = [k for k in range(17) if s.status[AWAY][k] == GONE]
    assert gone == [BATTER, 5, 9, 11, 12, 13]
    swing(s, *bat(6, 10))
    assert last_pa(s).actor == 14 and line(s, AWAY, 14).so == 1


def test_defensive_substitution_and_the_fielding_side_cannot_bring_back_a_creature():
    s = game()
    decide(s, "offense_sub", PASS)
    decide(s, "defense_sub", POSITION + 1, HOME)     # replace the catcher
    assert s.pending.kind == "substitute" and s.pending.subject == C
    apply_action(s, CREATURE + 16)
    assert s.at(HOME, 2) == 16 and s.status[HOME][C] == GONE
    assert s.lineup[HOME][0] == 16                   # he bats in the catcher's slot
    decide(s, "defense_sub", POSITION + 2)
    assert CREATURE + C not in s.pending.legal and CREATURE + 16 not in s.pending.legal


def test_a_pinch_hitter_for_the_pitcher_becomes_the_pitcher():
    s = game()
    setup(s, outs=2, slot=8)                    # the pitcher (creature 0) is up
    decide(s, "offense_sub", PINCH_HIT)
    decide(s, "substitute", CREATURE + 9)
    assert s.pitcher(AWAY) == 9 and s.lineup[AWAY][8] == 9 and s.status[AWAY][P] == GONE
    assert [p.name for p in s.box.pitching[AWAY]] == ["A0", "A9"]
    swing(s, *bat(6, 10))                       # he strikes out: the bottom of the 1st
    assert s.board.half == 1
    swing(s, *bat(6, 10))                       # and he pitches to the home leadoff man
    assert s.innings_pitched[AWAY][9] == 1 and s.innings_pitched[AWAY][P] == 0
    assert s.box.pitching[AWAY][1].so == 1 and s.box.pitching[AWAY][0].bf == 0
    rest = games_to_rest(s)
    assert rest[AWAY][P] == 1 and rest[AWAY][9] == 0     # the starter always rests a game


# ============================================================= innings pitched and rest
@pytest.mark.parametrize("innings, starter, games", [
    (0, False, 0), (1, False, 0), (2, False, 1), (3, False, 1), (4, False, 2), (5, False, 2),
    (6, False, 3), (9, False, 3), (0, True, 1), (1, True, 1), (2, True, 1), (4, True, 2),
    (6, True, 3),
])
def test_rest_for_innings(innings, starter, games):
    assert rest_for_innings(innings, starter) == games


def test_games_to_rest_takes_the_longest_of_owed_rest_pitching_and_injury():
    s = game()
    s.resting[AWAY][15] = 3                     # owed 3 games, this one included: 2 more
    s.innings_pitched[AWAY][P] = 1              # the starter: 1
    s.innings_pitched[HOME][P] = 6              # the starter, 6 innings: 3
    s.innings_pitched[HOME][9] = 4              # a reliever, 4 innings: 2
    s.innings_pitched[HOME][10] = 2             # 2 innings: 1
    s.innings_pitched[HOME][11] = 1             # 1 inning: 0
    s.injured[AWAY][3] = 2                      # two games injured
    s.injured[AWAY][4] = 1
    s.innings_pitched[AWAY][4] = 4              # and 4 innings: 2
    rest = games_to_rest(s)
    assert rest[AWAY][15] == 2 and rest[AWAY][P] == 1 and rest[AWAY][3] == 2
    assert rest[AWAY][4] == 2 and rest[AWAY][BATTER] == 0
    assert rest[HOME][P] == 3 and rest[HOME][9] == 2 and rest[HOME][10] == 1
    assert rest[HOME][11] == 0 and rest[HOME][BATTER] == 0


def test_innings_pitched_counts_innings_in_which_he_faced_a_batter():
    s = game()
    setup(s, outs=2)
    decide(s, "offense_sub", PASS)
    decide(s, "defense_sub", POSITION + 0, HOME)     # a pitching change before anyone bats
    decide(s, "substitute", CREATURE + 9)
    assert s.pitcher(HOME) == 9 and s.pending.kind == "defense_sub"
    swing(s, *bat(6, 10))                       # top 1st: the reliever strikes out the batter
    assert s.innings_pitched[HOME][P] == 0 and s.innings_pitched[HOME][9] == 1
    setup(s, outs=2)
    swing(s, *bat(6, 10))                       # bottom 1st: the away starter pitches
    assert s.innings_pitched[AWAY][P] == 1
    setup(s, outs=0)
    swing(s, *bat(6, 10))                       # top 2nd: two batters, still one inning
    swing(s, *bat(6, 10))
    assert s.innings_pitched[HOME][9] == 2
    assert pitching(s, HOME).bf == 3 and pitching(s, HOME).so == 3 and pitching(s, HOME).outs == 3
    rest = games_to_rest(s)
    assert rest[HOME][P] == 1                   # the starter who faced nobody still rests one
    assert rest[HOME][9] == 1                   # two innings: one game
    assert rest[AWAY][P] == 1


def test_a_resting_creature_cannot_be_picked():
    away = make_team("a")
    resting = [[0] * 17, [0] * 17]
    resting[AWAY][P] = 1
    resting[AWAY][12] = 2
    s = rules.new_game(away, make_team("h"), ScriptedDice([]), resting=resting)
    assert s.pending.kind == "lineup" and s.pending.subject == 1
    assert s.pending.legal == tuple(CREATURE + k for k in range(17) if k not in (P, 12))
    apply_action(s, CREATURE + 13)              # creature 13 starts on the mound
    for kind in ("lineup",) * 8:
        assert s.pending.kind == kind
        assert CREATURE + P not in s.pending.legal and CREATURE + 12 not in s.pending.legal
        apply_action(s, s.pending.legal[0])
    assert s.pending.kind == "batting_order"
    assert s.fielders[AWAY][:9] == [13, 1, 2, 3, 4, 5, 6, 7, 8]
    while s.pending.actor == AWAY:               # the away batting order, in roster order
        apply_action(s, s.pending.legal[0])
    pregame(s)                                   # the home team from its file
    decide(s, "offense_sub", PINCH_HIT, AWAY)
    assert s.pending.kind == "substitute"
    assert s.pending.legal == tuple(CREATURE + k for k in (9, 10, 11, 14, 15, 16))
    assert s.available(AWAY) == [9, 10, 11, 14, 15, 16]


@pytest.mark.parametrize("dh, rested, forfeit", [(False, 9, False), (True, 9, True),
                                                 (True, 10, False)])
def test_forfeit_counts_the_designated_hitter(dh, rested, forfeit):
    resting = [[0] * 17, [0] * 17]
    for k in range(17 - rested):
        resting[AWAY][k] = 1
    s = rules.new_game(make_team("a"), make_team("h"), ScriptedDice([]), dh=dh,
                       resting=resting)
    if forfeit:
        assert s.forfeited == AWAY and s.score == (0, 9) and s.winner == HOME
    else:
        assert not s.over and s.pending.kind == "lineup" and s.forfeited == -1


# ========================================================================= forfeits
@pytest.mark.parametrize("short, score, winner", [(AWAY, (0, 9), HOME), (HOME, (9, 0), AWAY)])
def test_forfeit_when_a_team_lacks_nine_rested_creatures(short, score, winner):
    resting = [[0] * 17, [0] * 17]
    for k in range(9):                          # 8 rested creatures left
        resting[short][k] = 1
    s = rules.new_game(make_team("a"), make_team("h"), ScriptedDice([]), resting=resting)
    assert s.over and s.forfeited == short and s.score == score and s.winner == winner
    assert not s.truncated and s.pending is None


def test_forfeit_of_a_nine_creature_roster_with_one_resting():
    resting = [[0] * 9, [0] * 9]
    resting[HOME][3] = 1
    s = rules.new_game(make_team("a", size=9), make_team("h", size=9), ScriptedDice([]),
                       resting=resting)
    assert s.forfeited == HOME and s.score == (9, 0) and s.board.line[AWAY] == [9]


def test_no_game_when_both_teams_are_short():
    resting = [[1] * 9 + [0] * 8, [1] * 9 + [0] * 8]
    s = rules.new_game(make_team("a"), make_team("h"), ScriptedDice([]), resting=resting)
    assert s.over and s.truncated and s.forfeited == -1 and s.score == (0, 0)


def test_nine_rested_creatures_are_enough():
    resting = [[1] * 8 + [0] * 9, [0] * 17]
    s = rules.new_game(make_team("a"), make_team("h"), ScriptedDice([]), resting=resting)
    assert not s.over and s.pending.kind == "lineup"
    assert s.pending.legal == tuple(CREATURE + k for k in range(8, 17))


# ========================================================================= walk-offs
def bottom_of_the_last(innings: int = 1):
    """A one-inning game at the home team's first batter, 0-0."""
    s = game(innings=innings)
    setup(s, outs=2)
    swing(s, *bat(6, 10))
    assert s.board.half == 1 and s.pending.actor == HOME
    return s


def test_walk_off_counts_only_the_run_needed():
    s = bottom_of_the_last()
    setup(s, bases=(None, 6, 7))                # home's creatures 6 and 7
    swing(s, *bat(1, 4))                        # (1,4) Double(9): both would score
    assert s.over and s.winner == HOME and s.score == (0, 1)
    assert s.board.line[HOME] == [1]
    pa = last_pa(s)
    assert pa.detail == "2B" and pa.scored == (7,)
    assert line(s, HOME, BATTER).rbi == 1 and line(s, HOME, BATTER).h == 1
    assert line(s, HOME, 7).r == 1 and line(s, HOME, 6).r == 0
    assert s.pending is None


def test_walk_off_walk_forces_in_one_run():
    s = bottom_of_the_last()
    setup(s, bases=(5, 6, 7), runs=(1, 1))
    swing(s, *bat(6, 4))                        # (6,4) Walk
    assert s.over and s.score == (1, 2) and line(s, HOME, BATTER).rbi == 1
    assert line(s, HOME, BATTER).bb == 1


def test_walk_off_home_run_counts_every_run():
    s = bottom_of_the_last()
    setup(s, bases=(5, 6, 7))
    swing(s, *bat(6, 12))                       # (6,12) Homerun
    assert s.over and s.score == (0, 4) and line(s, HOME, BATTER).rbi == 4


def test_home_team_does_not_bat_when_ahead_after_the_top_of_the_last():
    s = game(innings=1)
    s.board.runs = [0, 1]
    s.board.line[HOME] = []
    setup(s, outs=2)
    swing(s, *bat(6, 10))
    assert s.over and s.winner == HOME and s.board.line[HOME] == []


def test_walk_off_on_an_injury_play_still_rolls_the_injury():
    """Bottom of the last, runner on third: Error(2), row 12: infield out (nobody on
    first: the runner scores) + injury (batter level 20, column "11-20", row 1: HP -50)."""
    s = bottom_of_the_last()
    setup(s, bases=(None, None, 7))
    swing(s, *bat(2, 2), ("error", 12), ("injury", 1))
    assert s.over and s.winner == HOME and s.score == (0, 1)
    assert last_pa(s).detail == "GO" and s.log.plays[-1].kind == "injury"
    assert s.log.plays[-1].detail == "hp-50" and s.hp(HOME, BATTER) == 10
    assert line(s, HOME, BATTER).pa == 1


def test_tie_after_regulation_goes_to_extra_innings_or_is_cut_off():
    s = bottom_of_the_last()
    setup(s, outs=2)
    swing(s, *bat(6, 10))
    assert not s.over and (s.board.inning, s.board.half) == (2, 0)
    s = game(innings=1, max_innings=1)
    setup(s, outs=2)
    swing(s, *bat(6, 10))
    setup(s, outs=2)
    swing(s, *bat(6, 10))
    assert s.over and s.truncated and s.winner is None and s.pending is None


# ============================================================== injuries in a game
def test_injury_on_the_third_out_is_replaced_before_the_next_half():
    """Two out: Error(2), row 12: the third out, then injury row 5 (level 20: Two Games).
    The away manager replaces him before the home team's first batter."""
    s = game()
    setup(s, outs=2)
    swing(s, *bat(2, 2), ("error", 12), ("injury", 5))
    assert s.board.half == 1 and s.injured[AWAY][BATTER] == 2
    d = s.pending
    assert d.kind == "replace_injured" and d.actor == AWAY and d.subject == BATTER
    apply_action(s, CREATURE + 16)
    assert s.at(AWAY, 2) == 16 and s.lineup[AWAY][0] == 16
    assert s.pending.kind == "offense_sub" and s.pending.actor == HOME
    assert games_to_rest(s)[AWAY][BATTER] == 2


def test_injured_batter_stays_in_when_nobody_is_left_on_the_bench():
    """Nine-creature rosters: no substitutions at all, so the game rolls for the first
    batter as soon as the lineups are set (the script, then keyed dice)."""
    rolls = [*bat(2, 2), ("error", 12), ("injury", 5)]
    s = rules.new_game(make_team("a", size=9), make_team("h", size=9),
                       ScriptedDice(rolls, then=Dice(0)))
    pregame(s)
    assert s.log.plays[0].kind == "pa" and s.log.plays[0].actor == BATTER
    assert s.log.plays[1].kind == "injury" and s.log.plays[1].detail == "games-2"
    assert s.injured[AWAY][BATTER] == 2 and s.status[AWAY][BATTER] == PLAYING
    assert all(p.kind != "sub" for p in s.log.plays)
    assert s.pending is None or s.pending.kind != "replace_injured"


# ================================================= the series: an injury for two games
def series_pick(team: cards.Team, d, game_number: int) -> int:
    """The team file's lineup where it is legal, else the first legal creature; from game 2
    on the away team leads off with a creature of level 51+ (see the test below)."""
    if d.kind == "batting_order" and d.subject == 0 and game_number > 1 and d.actor == AWAY:
        strong = [a for a in d.legal if team.roster[a - CREATURE].level >= 51]
        return strong[0] if strong else d.legal[0]
    want = CREATURE + team_pick(team, d.kind, d.subject)
    return want if want in d.legal else d.legal[0]


def test_injury_benches_a_batter_for_the_next_two_games_of_a_series():
    """Game 1: Harbor's leadoff man Zapgecko (level 17) hits Error(2) (pitcher die 2,
    batter dice 2), the catcher's error chart row 12 (Ground Out + Batter Injury), and
    rolls injury row 5 in column "11-20": Two Games. He is replaced at once (a forced
    "replace_injured") and may not be picked in games 2 and 3; in game 4 he is back.
    The script restarts every game (then keyed dice play on); from game 2 on a level 51+
    creature leads off, for whom injury row 5 (column "51+") is HP -50, not games."""
    from dugout.envs import pokemon_baseball_v0
    harbor = cards.load_team("harbor")
    zap = harbor.ids.index("zapgecko")
    assert harbor.lineup[0] == zap and harbor.roster[zap].level == 17
    assert harbor.positions[0] == 8                             # he plays CF
    rolls = [("pitcher", 2), ("batter", 2), ("error", 12), ("injury", 5)]
    env = pokemon_baseball_v0.raw_env(teams=("harbor", "summit"), series={"games": 4},
                                      dice=ScriptedDice(rolls, then=Dice(11)))
    env.reset(seed=5)
    u = env.unwrapped
    seen: dict[int, list] = {1: [], 2: [], 3: [], 4: []}
    resting_at_start: dict[int, tuple[int, ...]] = {}
    replacement = None
    for _ in range(20000):
        if u.series.over:
            break
        g, s = u.series.game, u.game
        if g not in resting_at_start:
            resting_at_start[g] = u.view("away").resting[AWAY]
        d = s.pending
        if d.actor == AWAY:
            seen[g].append(d)
        if d.kind in ("lineup", "batting_order"):
            action = series_pick(s.teams[d.actor], d, g)
        elif d.kind in ("substitute", "replace_injured"):
            action = d.legal[0]
        else:
            action = PASS
        if replacement is None and d.kind == "replace_injured":
            # the first replace_injured of the series: game 1, right after the first batter
            replacement = d
            assert g == 1 and d.actor == AWAY and d.subject == zap
            plays = s.log.plays
            assert [p.kind for p in plays] == ["pa", "injury"]
            assert plays[0].actor == zap and plays[0].detail == "GO" and plays[0].base == 2
            assert plays[1].actor == zap and plays[1].detail == "games-2"
            assert s.status[AWAY][zap] == PLAYING and s.injured[AWAY][zap] == 2
            env.step(action)
            assert s.status[AWAY][zap] == GONE and s.status[AWAY][action - CREATURE] == PLAYING
            assert s.at(AWAY, 8) == action - CREATURE and s.lineup[AWAY][0] == action - CREATURE
            continue
        env.step(action)
    assert u.series.over and len(u.series.results) == 4
    # game 1: the forced replacement (no PASS): any rested bench creature
    assert replacement is not None and PASS not in replacement.legal
    bench = [k for k in range(17) if k not in harbor.lineup]
    assert replacement.legal == tuple(CREATURE + k for k in bench)
    # the carried rest: out of games 2 and 3, back for game 4
    assert [resting_at_start[g][zap] for g in (1, 2, 3, 4)] == [0, 2, 1, 0]
    assert resting_at_start[2][harbor.lineup[8]] >= 1          # game 1's starting pitcher
    for g in (2, 3):
        picks = [d for d in seen[g] if d.kind in ("lineup", "batting_order", "substitute",
                                                   "replace_injured")]
        assert sum(d.kind == "lineup" for d in picks) == 9
        for d in picks:
            assert CREATURE + zap not in d.legal, (g, d)
    lineup4 = [d for d in seen[4] if d.kind == "lineup"]
    assert len(lineup4) == 9 and CREATURE + zap in lineup4[0].legal
    assert all(CREATURE + zap in d.legal for d in lineup4 if d.subject <= 8)


def test_rest_by_outs_counts_the_box_scores_innings_pitched():
    """P-6's other reading (rest_by="outs"): innings pitched are the outs a pitcher recorded
    / 3, rounded down, so five outs are one inning (no rest for a reliever) where the
    default counts the two innings he pitched in (one game's rest)."""
    from dugout.envs.pokemon_baseball.cards import load_team
    teams = (load_team("harbor"), load_team("summit"))
    for rest_by, innings in (("innings", 2), ("outs", 1)):
        state = rules.new_game(*teams, Dice(0), rest_by=rest_by)
        while not state.started:
            rules.apply_action(state, state.pending.legal[0])
        k = state.pitcher(1)
        state.starter[1] = -1            # judge him as a reliever: only his innings count
        # he faces batters in the top of the 1st and the 2nd and records five outs
        for half_index, outs in ((0, 3), (2, 2)):
            state.board.inning, state.board.half = half_index // 2 + 1, 0
            state.board.outs = 0
            state.last_half_pitched[1][k] = -1
            rules.begin_batter(state)
            rules.add_outs(state, outs)
        assert state.innings_pitched[1][k] == innings
        assert rules.games_to_rest(state)[1][k] == rules.rest_for_innings(innings, False)
    with pytest.raises(ValueError, match="rest_by"):
        rules.new_game(*teams, Dice(0), rest_by="pitches")


# ===================================================== a situation set from outside the env
def test_start_half_inning_sets_the_situation_and_the_half_plays_from_it():
    """start_half_inning (the value tables' sampler's entry): the situation, the leadoff man,
    no decision pending; play_out then plays that half inning alone, batter by batter from
    the leadoff slot, with the given runners on base."""
    from dugout.envs.core.engine import NEVER_ENDS, play_out
    state = game()
    order = state.lineup[HOME]
    runners = (order[1], None, order[2])
    out = rules.start_half_inning(state.clone(), inning=5, half=HOME, outs=1, bases=runners,
                                  leadoff=3)
    b = out.board
    assert (b.inning, b.half, b.outs, b.bases, b.runs) == (5, HOME, 1, runners, [0, 0])
    assert b.innings == NEVER_ENDS and not b.over
    assert out.pending is None and out.order[HOME] == 3 and out.pa == 0
    out.dice = Dice(1)
    batters = []

    def policy(s, decision):
        return decision.legal[0] if decision.kind in ("substitute", "replace_injured") else PASS

    def on_rule(s):
        if s.step == "at_bat":
            batters.append(s.batter_creature())
            if len(batters) == 1:        # the first batter comes up with the runners given
                assert s.board.bases == runners and s.board.outs == 1

    play_out(out, rules, policy, stop=lambda s: s.board.half != HOME, on_rule=on_rule)
    assert batters and batters == [order[(3 + i) % 9] for i in range(len(batters))]
    assert (out.board.inning, out.board.half) == (6, AWAY)
    assert state.board.inning == 1 and state.order[HOME] == 0      # the original untouched


def test_start_half_inning_keys_the_dice_by_the_inning():
    """Two clones started in the same situation play the same half inning; the inning keys
    the dice streams, so the same situation in another inning plays another."""
    from dugout.envs.core.engine import play_out
    base = game()
    base.dice = Dice(7)

    def half_inning(inning):
        s = rules.start_half_inning(base.clone(), inning=inning, half=AWAY)
        play_out(s, rules, lambda s, d: PASS if PASS in d.legal else d.legal[0],
                 stop=lambda s: s.board.half != AWAY)
        return [(p.kind, p.actor, p.roll, p.after) for p in s.log.plays[len(base.log.plays):]]

    assert half_inning(4) == half_inning(4)
    assert any(half_inning(4) != half_inning(k) for k in (5, 6, 7))


@pytest.mark.parametrize("kwargs, words", [
    ({"half": 2}, "half must be 0"),
    ({"inning": 0}, "inning must be"),
    ({"outs": 3}, "outs must be 0, 1 or 2"),
    ({"leadoff": 9}, "leadoff must be a batting slot"),
    ({"bases": (99, None, None)}, "bases must be three"),
    ({"bases": (2, 2, None)}, "bases must be three"),
    ({"bases": (1, None, None)}, "bases must be three"),           # creature 1 leads off
    ({"bases": (None, None)}, "bases must be three"),
])
def test_start_half_inning_refuses_bad_input(kwargs, words):
    state = game()
    with pytest.raises(ValueError, match=words):
        rules.start_half_inning(state, **{"inning": 1, "half": AWAY, **kwargs})
    before = rules.new_game(make_team("a"), make_team("h"), ScriptedDice([]))
    with pytest.raises(ValueError, match="lineups are not set"):
        rules.start_half_inning(before, inning=1, half=AWAY)
