"""MLB Showdown's expert game (without strategy cards), replayed with scripted dice.

Each test sets a rulebook situation on the board of a freshly set-up expert game (the 2004
Yankees at the 2004 Red Sox, with cards edited where the rule needs a number), then plays
it with ScriptedDice whose every roll names its purpose, so a script that drifts from the
rules fails at the first wrong roll. Play stops where the script runs out (the next roll
the engine asks for). Each test's docstring quotes the passage of
``mlb-showdown-2004.txt`` it replays ("Expert Game Rules" and the Glossary).
"""

from __future__ import annotations

import random

from dugout.envs.core.dice import Dice, ScriptedDice
from dugout.envs.showdown import rules
from dugout.envs.showdown.cards import FIELD_POSITIONS, load_team, team_from_dict
from showdown_scripts import batting_line, card, extra, go, idx, pitching_line, plays, situation, team_dict

NYY, BOS = 0, 1
INFIELD = ("1B", "2B", "3B", "SS")
#: the advanced game's icon decisions ("DO NOT USE THESE SPECIAL ABILITIES" at expert)
ICON_KINDS = {"relief_ace", "twenty_game", "stolen_base", "strikeout", "reroll_out",
              "silver_slugger", "home_run_icon", "gold_glove"}


# ---------------------------------------------------------------- set-up helpers

def game(script, nyy=None, bos=None, *, level="expert", starter=1, dh=True):
    """A set-up game (top of the 1st, nobody up yet) with scripted dice."""
    nyy = nyy or team_dict("nya2004")
    bos = bos or team_dict("bos2004")
    teams = (team_from_dict(nyy, "nyy", point_cap=None), team_from_dict(bos, "bos", point_cap=None))
    return rules.new_game(teams, ScriptedDice(script), level=level, starter=starter, dh=dh,
                          play=False)


def play_until(state, kind, answers=None, seen=None):
    """Run, answering decisions from ``answers`` (kind -> action, default: pass) until
    ``kind`` is asked (``None``: until the script runs out); the kinds asked on the way
    are appended to ``seen``."""
    answers = answers or {}
    go(state)
    while state.pending is not None and state.pending.kind != kind:
        if seen is not None:
            seen.append(state.pending.kind)
        go(state, answers.get(state.pending.kind, rules.PASS))
    return state


def pass_until(state, kind, actor, subject=None, seen=None):
    """Pass every decision until ``actor`` is asked ``kind`` (about ``subject``, if given),
    or the script runs out (then ``state.pending`` is None)."""
    def wanted(d):
        return d.kind == kind and d.actor == actor and subject in (None, d.subject)
    while state.pending is not None and not wanted(state.pending):
        if seen is not None:
            seen.append(state.pending.kind)
        go(state, rules.PASS)
    return state


def offered(state):
    """The players the pending decision offers (roster indices)."""
    return {a - rules.PLAYER for a in state.pending.legal if rules.PLAYER <= a < rules.SEND_LEAD}


def field_is_full(state, team):
    pos = state.pos[team]
    return all(pos.count(p) == 1 for p in FIELD_POSITIONS)


# ---------------------------------------------------------------- Expert Innings Pitched

def ip7_mussina():
    nyy = team_dict("nya2004")
    card(nyy, "Mike Mussina")["ip"] = 7
    return nyy


def test_ip_7_pitcher_with_12_runs_in_the_5th_pitches_at_minus_2():
    """Expert Innings Pitched: "for every 3 runs charged to a pitcher, his IP goes down by 1
    ... For example, if an IP 7 pitcher has given up 12 runs and is pitching in the 5th
    inning, his pitches are made at -2 (7-4 = 3; IP 3 pitcher pitching in the 5th inning =
    -2)." The advanced game has no such penalty."""
    def mussina_in_the_5th(script, level):
        state = game(script, nyy=ip7_mussina(), level=level)
        situation(state, half=1, inning=5, batter="Johnny Damon")
        mussina = idx(state, NYY, "Mike Mussina")
        state.innings_pitched[NYY][mussina] = [1, 2, 3, 4]
        state.runs_charged[NYY][mussina] = 12
        return state, mussina

    state, mussina = mussina_in_the_5th([], "advanced")
    assert rules.fatigue(state, NYY, mussina) == 0
    # Mussina (Control 2) rolls 13: 15 would beat Damon's On-Base 14, but 15 - 2 = 13 does
    # not; the swing (1) is read on Damon's chart: a strikeout
    state, mussina = mussina_in_the_5th([("pitch", 13), ("swing", 1)], "expert")
    assert state.card(NYY, mussina).ip == 7
    assert rules.fatigue(state, NYY, mussina) == 2
    play_until(state, None)
    pa = plays(state, "pa")[0]
    assert extra(state, pa)[:2] == (13, "B")          # d20 + Control - 2 = 13 + 2 - 2
    assert pa.detail == "SO"
    assert state.card(NYY, mussina).control == 2


def test_expert_ip_penalty_applies_as_soon_as_the_run_is_charged():
    """Expert Innings Pitched: "This penalty applies as soon as the run is charged to him,
    even if it's the middle of the inning." Mussina (IP 7, 11 runs: IP 4) is at -1 in the
    5th; Damon homers (the 12th run): Bellhorn, the next batter, faces him at -2."""
    # pitch 1: 1 + 2 - 1 = 2, Damon's chart; swing 20 is his home run. Then pitch 12:
    # 12 + 2 - 2 = 12 (at -1 it would be 13); swing 1 is Bellhorn's strikeout.
    state = game([("pitch", 1), ("swing", 20), ("pitch", 12), ("swing", 1)], nyy=ip7_mussina())
    situation(state, half=1, inning=5, batter="Johnny Damon")
    mussina = idx(state, NYY, "Mike Mussina")
    state.innings_pitched[NYY][mussina] = [1, 2, 3, 4]
    state.runs_charged[NYY][mussina] = 11
    assert rules.fatigue(state, NYY, mussina) == 1
    play_until(state, None)
    first, second = plays(state, "pa")[:2]
    assert first.detail == "HR" and first.actor == idx(state, BOS, "Johnny Damon")
    assert state.runs_charged[NYY][mussina] == 12
    assert rules.fatigue(state, NYY, mussina) == 2
    assert extra(state, first)[:2] == (2, "B")            # 1 + 2 - 1
    assert second.actor == idx(state, BOS, "Mark Bellhorn")
    assert extra(state, second)[:2] == (12, "B")          # 12 + 2 - 2, in the same inning
    assert second.inning == first.inning == 5


def test_ip_below_zero_does_nothing_more():
    """Glossary, IP: "In the expert game, a pitcher gets -1 IP for every 3 runs he's given
    up. If a pitcher's IP is already 0, it can go below 0, but this doesn't do anything
    except make it harder to raise his IP back to 1." (reading (a): an IP 1 reliever who
    has given up 6 runs in his first inning is at IP 0, not -1: his pitches are at -1)."""
    # Rivera (Control 5, IP 1) comes in for Mussina in the 5th; before his first pitch he
    # has been charged 6 runs. He rolls 10: 10 + 5 - 1 = 14 ties Damon's On-Base 14.
    state = game([("pitch", 10), ("swing", 1)])
    situation(state, half=1, inning=5, batter="Johnny Damon")
    rivera = idx(state, NYY, "Mariano Rivera")
    play_until(state, "pitching_change")
    go(state, rules.PLAYER + rivera)
    play_until(state, "intentional_walk")
    assert state.pitcher[NYY] == rivera and state.card(NYY, rivera).ip == 1
    for runs, want in ((0, 0), (2, 0), (3, 1), (5, 1), (6, 1), (9, 1)):
        state.runs_charged[NYY][rivera] = runs
        assert rules.fatigue(state, NYY, rivera) == want, runs
    state.runs_charged[NYY][rivera] = 6
    play_until(state, None)
    pa = plays(state, "pa")[0]
    assert extra(state, pa)[:2] == (14, "B")              # -1, not -2 (that would be 13)


# ---------------------------------------------------------------- Expert Managerial Options

def test_intentional_walk_with_the_bases_loaded_forces_in_a_run_without_a_pitch_or_swing():
    """Expert Managerial Options: "If the defense calls for an intentional walk, the batter
    simply walks. This is not a "walk result" for purposes of the strategy cards, but
    otherwise it works the same way." "If either one is called, there's no pitch and no
    swing." "You can't sacrifice bunt ... if the batter was intentionally walked." Glossary,
    Walk: "If you also had someone on third, he scores." (the forced run)."""
    state = game([])                           # no dice at all: none may be asked for
    situation(state, bases=("Derek Jeter", "Jorge Posada", "Miguel Cairo"),
              batter="Alex Rodriguez")
    play_until(state, "intentional_walk")
    assert state.pending.actor == BOS and state.pending.legal == (rules.PASS, rules.YES)
    go(state, rules.YES)
    seen = []
    # on to the next batter's intentional-walk question, without rolling a die
    while state.pending is not None and state.pending.kind != "intentional_walk":
        seen.append(state.pending.kind)
        go(state, rules.PASS)
    assert state.pending is not None and state.dice.log == [], \
        f"a die was asked for after the intentional walk (step {state.step!r})"
    assert "sacrifice_bunt" not in seen
    arod, jeter, posada, cairo = (idx(state, NYY, n) for n in (
        "Alex Rodriguez", "Derek Jeter", "Jorge Posada", "Miguel Cairo"))
    pedro = idx(state, BOS, "Pedro Martinez")
    pa = plays(state, "pa")[0]
    assert pa.actor == arod and pa.detail == "IBB"
    assert pa.before == (jeter, posada, cairo) and pa.after == (arod, jeter, posada)
    assert pa.scored == (cairo,) and state.board.runs[NYY] == 1 and state.board.outs == 0
    assert extra(state, pa) == ("IBB", None, None, None)
    line = batting_line(state, NYY, arod)
    assert (line.pa, line.ab, line.bb, line.h) == (1, 0, 1, 0)
    assert line.marks == [(1, "IBB")]
    assert rules.OUTCOMES["IBB"].walk and not rules.OUTCOMES["IBB"].at_bat
    pl = pitching_line(state, BOS, pedro)
    assert (pl.bb, pl.bf, pl.h, pl.r) == (1, 1, 0, 1)
    assert state.runs_charged[BOS][pedro] == 1
    assert state.batter_index == idx(state, NYY, "Gary Sheffield")


def bunt_game(script, bases=("Derek Jeter", "Jorge Posada", None)):
    state = game(script)
    situation(state, bases=bases, batter="Alex Rodriguez")
    return state


def test_sacrifice_bunt_popped_up_moves_nobody():
    """Expert Managerial Options: "If the offense calls for a sacrifice bunt, roll for the
    swing on the pitcher's chart. If the result is a pop-up out (PU), the batter is out and
    the runners don't advance." There is "no pitch": a swing of 1 is Pedro's PU (on
    A-Rod's own chart it would be a strikeout)."""
    state = bunt_game([("swing", 1)])
    play_until(state, "sacrifice_bunt")
    assert state.pending.actor == NYY and state.pending.legal == (rules.PASS, rules.YES)
    go(state, rules.YES)
    play_until(state, None)
    assert state.dice.log == [("swing", 1)]                # no pitch was rolled
    arod, jeter, posada = (idx(state, NYY, n) for n in ("Alex Rodriguez", "Derek Jeter",
                                                        "Jorge Posada"))
    pa = plays(state, "pa")[0]
    assert pa.actor == arod and pa.detail == "PU"
    assert pa.after == (jeter, posada, None) and state.board.outs == 1
    assert extra(state, pa) == ("bunt", "P", 1, "PU")


def test_sacrifice_bunt_advances_every_runner_and_is_not_an_at_bat():
    """Expert Managerial Options: "On any other result, the batter is out and all runners
    advance 1 base." Glossary, Sacrifice Bunt: "Your batter is out, but all runners advance
    1 base." The roll reads the pitcher's chart even where the batter would have had the
    advantage: 12 is Pedro's GB (A-Rod's own chart would walk him)."""
    state = bunt_game([("swing", 12)])
    play_until(state, "sacrifice_bunt")
    go(state, rules.YES)
    play_until(state, None)
    assert state.dice.log == [("swing", 12)]
    arod, jeter, posada = (idx(state, NYY, n) for n in ("Alex Rodriguez", "Derek Jeter",
                                                        "Jorge Posada"))
    pedro = idx(state, BOS, "Pedro Martinez")
    pa = plays(state, "pa")[0]
    assert pa.actor == arod and pa.detail == "SH"
    assert pa.before == (jeter, posada, None) and pa.after == (None, jeter, posada)
    assert pa.scored == () and state.board.outs == 1
    assert extra(state, pa) == ("bunt", "P", 12, "GB")
    line = batting_line(state, NYY, arod)
    assert (line.pa, line.ab, line.h, line.rbi) == (1, 0, 0, 0)
    assert line.marks == [(1, "SH")]
    pl = pitching_line(state, BOS, pedro)
    assert (pl.outs, pl.bf, pl.h) == (1, 1, 0)


def test_no_sacrifice_bunt_with_a_runner_on_third():
    """Expert Managerial Options: "You can't sacrifice bunt if you have a runner on third"
    (the engine goes straight on to the pitch)."""
    for bases in ((None, None, "Miguel Cairo"), ("Derek Jeter", None, "Miguel Cairo"),
                  ("Derek Jeter", "Jorge Posada", "Miguel Cairo")):
        state = bunt_game([("pitch", 20), ("swing", 3)], bases=bases)
        seen = []
        play_until(state, None, seen=seen)
        assert "intentional_walk" in seen and "sacrifice_bunt" not in seen, (bases, seen)
        assert state.dice.log == [("pitch", 20), ("swing", 3)]
        assert plays(state, "pa")[0].detail == "SO"
    # without a runner on third it is offered (the control)
    state = bunt_game([("pitch", 20), ("swing", 3)], bases=("Derek Jeter", None, None))
    seen = []
    play_until(state, None, seen=seen)
    assert "sacrifice_bunt" in seen


# ---------------------------------------------------------------- Expert Substitutions

def test_double_switch_new_pitcher_bats_in_the_replaced_fielders_spot():
    """Expert Substitutions: "You can also combine 2 or more defensive replacements and
    pitching changes into a single substitution. If you do, the new players can take the
    old players' batting spots in any order. For example, if you bring in a new shortstop
    and a new pitcher at the same time, the new shortstop can take the old pitcher's spot
    in the order while the new pitcher takes the old shortstop's spot. (This is called a
    double-switch.)" NL rules, bottom of the 5th: Rivera for Mussina and Lofton for
    Williams (CF, batting 3rd); Rivera bats 3rd, Lofton 9th."""
    state = game([("pitch", 20), ("swing", 3)], dh=False)
    situation(state, half=1, inning=5, batter="Johnny Damon")
    mussina, rivera, bernie, lofton = (idx(state, NYY, n) for n in (
        "Mike Mussina", "Mariano Rivera", "Bernie Williams", "Kenny Lofton"))
    lineup = state.lineup[NYY]
    assert lineup[2] == bernie and lineup[8] == mussina and state.pitcher_slot[NYY] == 8
    play_until(state, "pitching_change")
    assert state.pending.actor == NYY and rules.PASS in state.pending.legal
    go(state, rules.PLAYER + rivera)
    assert state.pending.kind == "defensive_replacement" and state.pending.actor == NYY
    assert lofton in offered(state)
    go(state, rules.PLAYER + lofton)
    assert state.pending.kind == "replaced_player" and state.pending.subject == lofton
    assert bernie in offered(state)
    go(state, rules.PLAYER + bernie)
    assert state.pending.kind == "defensive_replacement"
    go(state, rules.PASS)                        # that is the whole substitution
    assert state.pending.kind == "batting_slot" and state.pending.actor == NYY
    assert state.pending.subject == rivera       # the new pitcher chooses first
    assert offered(state) == {mussina, bernie}
    go(state, rules.PLAYER + bernie)             # Rivera bats in Williams' spot
    lineup, pos = state.lineup[NYY], state.pos[NYY]
    assert lineup[2] == rivera and pos[2] == "P"
    assert lineup[8] == lofton and pos[8] == "CF"
    assert state.pitcher[NYY] == rivera and state.pitcher_slot[NYY] == 2
    assert field_is_full(state, NYY) and pos.count("P") == 1 and "PH" not in pos
    for old in (mussina, bernie):
        assert state.used[NYY][old] and old not in lineup
    assert state.used[NYY][rivera] and state.used[NYY][lofton]
    assert [(p.kind, p.actor, p.detail) for p in state.log.plays] == [
        ("pitching_change", rivera, str(mussina)),
        ("defensive_replacement", lofton, str(bernie))]
    # and the game goes on: Rivera pitches to Damon
    play_until(state, None)
    pa = plays(state, "pa")[0]
    assert extra(state, pa)[:2] == (25, "P") and pa.detail == "SO"     # 20 + Rivera's 5
    assert pitching_line(state, NYY, rivera).bf == 1
    assert pitching_line(state, NYY, mussina).bf == 0


def test_double_switch_only_the_players_who_stay_in_choose_their_spots():
    """Expert Substitutions: "If you do, the new players can take the old players' batting
    spots in any order." Batting Order: "When you make a substitution, the new player takes
    over the old one's spot in the batting order." In one substitution the Yankees bring in
    Rivera for Mussina, Giambi for Clark (1B, batting 8th), then Olerud for Giambi: the new
    players are Rivera and Olerud, the open spots Mussina's (9th) and Clark's (8th). Rivera
    takes Clark's spot; that choice stands, and nobody who has left the game (Giambi) is
    asked where he bats."""
    state = game([("pitch", 20), ("swing", 3)], dh=False)
    situation(state, half=1, inning=5, batter="Johnny Damon")
    mussina, rivera, clark, giambi, olerud = (idx(state, NYY, n) for n in (
        "Mike Mussina", "Mariano Rivera", "Tony Clark", "Jason Giambi", "John Olerud"))
    assert state.lineup[NYY][7] == clark and state.lineup[NYY][8] == mussina
    play_until(state, "pitching_change")
    go(state, rules.PLAYER + rivera)
    go(state, rules.PLAYER + giambi)
    assert state.pending.kind == "replaced_player" and clark in offered(state)
    go(state, rules.PLAYER + clark)
    go(state, rules.PLAYER + olerud)
    assert state.pending.kind == "replaced_player" and giambi in offered(state)
    go(state, rules.PLAYER + giambi)             # Giambi, in a moment ago, makes way
    assert state.lineup[NYY][7] == olerud and giambi not in state.lineup[NYY]
    go(state, rules.PASS)
    assert state.pending.kind == "batting_slot" and state.pending.subject == rivera
    assert mussina in offered(state)
    # Rivera bats in the 8th spot (the one Clark, then Giambi, left)
    eighth = clark if clark in offered(state) else giambi
    go(state, rules.PLAYER + eighth)
    asked = []
    while state.pending is not None and state.pending.kind == "batting_slot":
        asked.append(state.pending.subject)
        go(state, state.pending.legal[0])
    assert all(k in state.lineup[NYY] for k in asked), \
        f"batting_slot asked about {asked}, who left the game ({state.lineup[NYY]})"
    assert state.lineup[NYY][7] == rivera and state.pos[NYY][7] == "P"
    assert state.lineup[NYY][8] == olerud and state.pos[NYY][8] == "1B"
    assert state.pitcher_slot[NYY] == 7 and field_is_full(state, NYY)


def test_dh_takes_the_field_and_the_pitcher_bats_then_a_pinch_hitter_forces_a_change():
    """Setup: "If the player you're using as designated hitter takes the field, your team
    loses its designated hitter for the rest of the game. That means your pitchers have to
    bat in your lineup, just like in National League games." Glossary, Designated Hitter:
    "If you send your designated hitter into the field, your team loses its designated
    hitter position for the rest of the game. This means your pitchers go into your lineup
    instead." Glossary, Pitching Change: "If you take your pitcher out of the game when
    you're at the plate, you must bring a new one in when your team takes the field."
    The Yankees take the field in the bottom of the 5th with Sierra (their DH, RF) in right
    in place of Sheffield (batting 2nd): Mussina bats 2nd."""
    # Mussina strikes Damon out (3rd out); Pedro strikes out the 6th's first three Yankees
    state = game([("pitch", 20), ("swing", 3)] * 4)
    situation(state, half=1, inning=5, outs=2, batter="Johnny Damon")
    mussina, sierra, sheffield, lofton, rivera = (idx(state, NYY, n) for n in (
        "Mike Mussina", "Ruben Sierra", "Gary Sheffield", "Kenny Lofton", "Mariano Rivera"))
    assert state.pitcher_slot[NYY] == -1 and state.pos[NYY][3] == "DH"
    go(state)
    assert state.pending.kind == "defensive_replacement" and state.pending.actor == NYY
    assert sierra in offered(state)                       # the DH himself
    go(state, rules.PLAYER + sierra)
    assert state.pending.kind == "replaced_player" and state.pending.subject == sierra
    assert sheffield in offered(state)
    go(state, rules.PLAYER + sheffield)
    assert state.pending.kind == "defensive_replacement"
    go(state, rules.PASS)
    lineup, pos = state.lineup[NYY], state.pos[NYY]
    assert lineup[3] == sierra and pos[3] == "RF"
    assert lineup[1] == mussina and pos[1] == "P" and state.pitcher_slot[NYY] == 1
    assert "DH" not in pos and field_is_full(state, NYY)
    assert sheffield not in lineup and state.used[NYY][sheffield]
    note = plays(state, "dh_to_field")
    assert [(p.actor, p.detail) for p in note] == [(sierra, str(sheffield))]
    # the 3rd out, then the Yankees bat in the 6th: Mussina (who has batted) is due up
    state.order[NYY] = 1
    state.batted[NYY][mussina] = True
    pass_until(go(state), "pinch_hitter", NYY)
    assert state.board.inning == 6 and state.board.half == 0
    assert state.pending.subject == 1
    assert lofton in offered(state)
    go(state, rules.PLAYER + lofton)
    assert state.lineup[NYY][1] == lofton and state.pos[NYY][1] == "PH"
    # three outs; the Yankees take the field and must bring in a reliever: no pass
    pass_until(go(state, rules.PASS), "pitching_change", NYY, subject=1)
    assert state.board.half == 1 and state.board.inning == 6
    assert rules.PASS not in state.pending.legal
    go(state, rules.PLAYER + rivera)
    assert state.lineup[NYY][1] == rivera and state.pos[NYY][1] == "P"
    assert state.pitcher[NYY] == rivera and state.pitcher_slot[NYY] == 1
    assert lofton not in state.lineup[NYY] and mussina not in state.lineup[NYY]
    assert "DH" not in state.pos[NYY]


def test_a_reliever_who_did_not_start_the_game_may_be_hit_for_before_he_bats():
    """Setup (the DH paragraph): "all players who start the game must bat at least once
    before a pinch hitter can bat for them" -- the players who start the game, not those
    who come in later. Glossary, Pinch Hitter: "When you send a batter to the plate, you
    can send a pinch hitter instead." NL rules: Rivera relieves Mussina in the bottom of the
    5th and is due up first in the 6th; the Yankees may send Lofton to bat for him (they
    have relievers left to pitch the bottom of the 6th)."""
    # Rivera strikes Damon out for the 3rd out (pitch 20 + 5: his chart, SO at 3)
    state = game([("pitch", 20), ("swing", 3)], dh=False)
    situation(state, half=1, inning=5, outs=2, batter="Johnny Damon")
    rivera, lofton = idx(state, NYY, "Mariano Rivera"), idx(state, NYY, "Kenny Lofton")
    play_until(state, "pitching_change")
    go(state, rules.PLAYER + rivera)
    assert state.lineup[NYY][8] == rivera and not state.batted[NYY][rivera]
    state.order[NYY] = 8                          # Rivera leads off the 6th
    seen = []
    pass_until(go(state), "pinch_hitter", NYY, seen=seen)
    assert state.board.inning == 6 and state.board.half == 0
    assert state.batter_index == rivera
    assert state.pending is not None and state.pending.kind == "pinch_hitter", \
        f"no pinch hitter offered for Rivera (decisions asked: {seen})"
    assert state.pending.actor == NYY and lofton in offered(state)


def test_pinch_runner_takes_the_base_and_the_batting_spot_and_his_run_is_the_old_pitchers():
    """Expert Substitutions: "When you send in a pinch runner, he goes to the base where
    the old runner was and takes the old runner's spot in the batting order." Expert
    Innings Pitched: "when a run is scored, it's charged to the player who was pitching
    when that batter reached base." Clark reached first against Pedro; Lofton runs for him;
    Foulke relieves and A-Rod homers: Lofton's run is Pedro's, A-Rod's is Foulke's."""
    # Foulke (Control 7) rolls 1: 8, A-Rod's chart; 20 is his home run
    state = game([("pitch", 1), ("swing", 20)])
    situation(state, inning=7, bases=("Tony Clark", None, None), batter="Alex Rodriguez")
    clark, lofton, arod = (idx(state, NYY, n) for n in ("Tony Clark", "Kenny Lofton",
                                                        "Alex Rodriguez"))
    pedro, foulke = idx(state, BOS, "Pedro Martinez"), idx(state, BOS, "Keith Foulke")
    slot = state.lineup[NYY].index(clark)
    play_until(state, "pinch_runner")
    assert state.pending.actor == NYY and state.pending.subject == 0
    assert rules.PASS in state.pending.legal and lofton in offered(state)
    go(state, rules.PLAYER + lofton)
    assert state.board.bases == (lofton, None, None)
    assert state.lineup[NYY][slot] == lofton and clark not in state.lineup[NYY]
    assert state.used[NYY][clark] and state.used[NYY][lofton]
    assert [(p.actor, p.detail) for p in plays(state, "pinch_runner")] == [(lofton, str(clark))]
    play_until(state, "pitching_change")
    go(state, rules.PLAYER + foulke)
    play_until(state, None)
    pa = plays(state, "pa")[0]
    assert pa.actor == arod and pa.detail == "HR" and pa.before == (lofton, None, None)
    assert pa.scored == (lofton, arod) and state.board.runs[NYY] == 2
    assert state.runs_charged[BOS][pedro] == 1 and state.runs_charged[BOS][foulke] == 1
    assert pitching_line(state, BOS, pedro).r == 1
    assert pitching_line(state, BOS, foulke).r == 1
    assert batting_line(state, NYY, lofton).r == 1 and batting_line(state, NYY, clark).r == 0
    assert batting_line(state, NYY, lofton).pa == 0
    assert batting_line(state, NYY, arod).rbi == 2


# ------------------------------------------------ Playing First Base Out of Position

def first_base_game(pinch_hitter, nyy, dp_roll):
    """The Yankees hit ``pinch_hitter`` for Clark (1B) with two outs in the top of the 5th
    (Pedro strikes him out), so he plays first in the bottom; Bellhorn (Speed 16) then
    grounds to Mussina's GB (8) with Varitek on first, and the infield tries to turn two."""
    state = game([("pitch", 20), ("swing", 3), ("pitch", 20), ("swing", 8),
                  ("double_play", dp_roll)], nyy=nyy)
    situation(state, inning=5, outs=2, batter="Tony Clark")
    ph, clark = idx(state, NYY, pinch_hitter), idx(state, NYY, "Tony Clark")
    play_until(state, "pinch_hitter")
    go(state, rules.PLAYER + ph)
    play_until(state, "defensive_replacement")
    assert state.board.half == 1 and state.pending.actor == NYY
    assert rules.PASS in state.pending.legal
    # the Red Sox's situation: Varitek on first, Bellhorn up
    varitek, bellhorn = idx(state, BOS, "Jason Varitek"), idx(state, BOS, "Mark Bellhorn")
    state.board.bases = (varitek, None, None)
    state.responsible[varitek] = state.pitcher[NYY]
    state.order[BOS] = state.lineup[BOS].index(bellhorn)
    go(state, rules.PASS)
    slot = state.lineup[NYY].index(ph)
    assert state.pos[NYY][slot] == "1B" and clark not in state.lineup[NYY]
    assert field_is_full(state, NYY)
    return state


def test_first_base_out_of_position_has_fielding_minus_1_in_the_double_play_roll():
    """Playing First Base Out of Position: "In the expert rules, you can have any of your
    fielders (or other hitters) play first base (1B), but if that player doesn't qualify
    there, he'll have terrible Fielding. If someone who doesn't qualify at first base plays
    there, his Fielding becomes -1 (instead of whatever it says on his card)". Wilson
    (2B +2, SS +3) at first: the infield is -1 + 3 + 1 + 3 = +6. The roll 10 + 6 = 16 does
    not beat Bellhorn's Speed 16 (with Clark's printed 0 at first, 17 would)."""
    state = first_base_game("Enrique Wilson", None, 10)
    assert state.fielding(NYY, ("1B",)) == -1
    assert state.fielding(NYY, INFIELD) == 6
    play_until(state, "double_play")
    assert state.pending.actor == NYY
    go(state, rules.YES)
    play_until(state, None)
    pa = plays(state, "pa")[-1]                  # (the first was the pinch hitter's)
    bellhorn = idx(state, BOS, "Mark Bellhorn")
    assert pa.actor == bellhorn and pa.detail == "FC" and pa.after == (bellhorn, None, None)
    assert state.board.outs == 1


def test_first_base_with_no_position_has_fielding_minus_2():
    """Playing First Base Out of Position: "... unless he doesn't qualify at any position,
    in which case his Fielding becomes -2." Glossary, Out of Position: "A player with no
    positions listed has -2 Fielding at first." Giambi's card edited to list no position:
    the infield is -2 + 3 + 1 + 3 = +5; 11 + 5 = 16 does not beat Speed 16, where his
    printed 1B +0 would make it 18: a double play."""
    nyy = team_dict("nya2004")
    card(nyy, "Jason Giambi")["positions"] = {}
    state = first_base_game("Jason Giambi", nyy, 11)
    assert state.fielding(NYY, ("1B",)) == -2
    assert state.fielding(NYY, INFIELD) == 5
    play_until(state, "double_play")
    go(state, rules.YES)
    play_until(state, None)
    pa = plays(state, "pa")[-1]
    assert pa.detail == "FC" and state.board.outs == 1


# ---------------------------------------------------------------- Expert Icons

def test_icons_are_off_in_the_expert_game():
    """Player Special Ability Icons: "If you play by the expert rules and use strategy
    cards, DO NOT USE THESE SPECIAL ABILITIES!" Glossary, Expert Game: "This level of play
    uses the advanced rules, except for player special ability icons". Glossary, Player
    Icons: "In the expert rules, the special abilities of players ARE NOT USED". Random
    games between teams carrying every icon: no icon is offered or logged (the same games
    at the advanced level do offer them)."""
    pairs = (("min2004", "sfn2004"), ("tba2004", "lan2004"), ("ana2004", "mil2004"),
             ("bos2004", "ari2004"), ("hou2004", "nya2004"))
    teams = {n: load_team(n) for pair in pairs for n in pair}
    icons = {i for t in teams.values() for c in t.players for i in c.icons}
    assert {"K", "G", "HR", "V", "SB", "20", "CY", "RP", "S"} <= icons

    def play(level, seed, pair, dh):
        state = rules.new_game((teams[pair[0]], teams[pair[1]]), Dice(seed), level=level, dh=dh)
        rng = random.Random(seed)
        kinds = set()
        while state.pending is not None:
            kinds.add(state.pending.kind)
            rules.apply_action(state, rng.choice(state.pending.legal))
        assert state.step == "over"
        return state, kinds

    expert_kinds, advanced_kinds = set(), set()
    for seed in range(60):
        pair = pairs[seed % len(pairs)]
        dh = seed % 2 == 0
        state, kinds = play("expert", seed, pair, dh)
        expert_kinds |= kinds
        assert not kinds & ICON_KINDS, (seed, kinds & ICON_KINDS)
        icon_plays = [p for p in state.log.plays
                      if p.kind.startswith("icon_") or p.kind == "cy_young"]
        assert not icon_plays, (seed, icon_plays)
        assert state.ip_bonus == [[0] * 25, [0] * 25]
        assert all(not left for team in state.icons_left for left in team)
        _, kinds = play("advanced", seed, pair, dh)
        advanced_kinds |= kinds
    assert ICON_KINDS <= advanced_kinds                     # the control: they do come up
    assert set(rules.EXPERT_KINDS) - {"play_card", "catcher_throw"} <= expert_kinds
