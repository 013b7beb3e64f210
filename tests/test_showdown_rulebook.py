"""MLB Showdown's rulebook examples and rules, replayed with scripted dice.

Each test sets the rulebook's situation on the board of a freshly set-up game (the 2004
Yankees at the 2004 Red Sox, with the cards edited where the example names a number),
then plays it with ScriptedDice whose every roll names its purpose, so a script that
drifts from the rules fails at the first wrong roll. Play stops where the script runs
out (the next roll the engine asks for), and the checks read the play log, the line
score and the box score.
"""

from __future__ import annotations



from dugout.envs.core.dice import ScriptedDice
from dugout.envs.showdown import rules
from dugout.envs.showdown.cards import team_from_dict
from showdown_scripts import card, go, idx, plays, situation, team_dict

NYY, BOS = 0, 1


def game(script, nyy=None, bos=None, *, starter=1, dh=True):
    """A set-up game (top of the 1st, nobody up yet) with scripted dice, then keyed dice."""
    nyy = nyy or team_dict("nya2004")
    bos = bos or team_dict("bos2004")
    teams = (team_from_dict(nyy, "nyy", point_cap=None), team_from_dict(bos, "bos", point_cap=None))
    return rules.new_game(teams, ScriptedDice(script), level="advanced",
                          starter=starter, dh=dh, play=False)


def play_until(state, kind: str | None, answers: dict[str, int]):
    """Run, answering decisions from ``answers`` (kind -> action, default: pass) until
    ``kind`` is asked (``None``: until the script runs out)."""
    go(state)
    while state.pending is not None and state.pending.kind != kind:
        go(state, answers.get(state.pending.kind, rules.PASS))
    return state


# ---------------------------------------------------------------- Extra Bases: the Giambi example

def giambi_teams():
    """The example's men: Soriano on third, Jeter on second, Giambi (Speed C (12)) on first,
    Matsui at bat; the home outfield's Fielding totals +5."""
    nyy = team_dict("nya2004")
    card(nyy, "Ruben Sierra")["name"] = "Alfonso Soriano"
    for entry in nyy["lineups"]["dh"] + nyy["lineups"]["no_dh"]:
        if entry["player"] == "Ruben Sierra":
            entry["player"] = "Alfonso Soriano"
        if entry["player"] == "Tony Clark":
            entry["player"] = "Jason Giambi"
    card(nyy, "Jason Giambi")["speed"] = 12
    bos = team_dict("bos2004")
    card(bos, "Johnny Damon")["positions"] = {"CF": 3}
    card(bos, "Gabe Kapler")["positions"] = {"RF": 2}     # LF Manny Ramirez +0: total +5
    return nyy, bos


def test_giambi_example_run_scores_despite_the_third_out():
    nyy, bos = giambi_teams()
    # Pedro (Control 2) pitches 5: 7 is not above Matsui's On-Base 10, batter's chart;
    # swing 12 is a single on Matsui's chart; the outfield throw is the example's 13.
    state = game([("pitch", 5), ("swing", 12), ("throw", 13)], nyy, bos)
    situation(state, outs=2, bases=("Jason Giambi", "Derek Jeter", "Alfonso Soriano"),
              batter="Hideki Matsui")
    assert state.fielding(BOS, ("LF", "CF", "RF")) == 5
    play_until(state, "send_runners", {})
    assert state.pending.actor == NYY
    assert state.pending.legal == (rules.PASS, rules.SEND_LEAD, rules.SEND_BOTH)
    go(state, rules.SEND_BOTH)
    assert state.pending.kind == "throw_at" and state.pending.actor == BOS
    go(state, rules.THROW_TRAIL)        # throw Giambi out at third
    pa, throw = [p for p in state.log.plays if p.kind in ("pa", "thrown_out", "extra_base")][:2]
    soriano, jeter, giambi = (idx(state, NYY, n) for n in ("Alfonso Soriano", "Derek Jeter",
                                                           "Jason Giambi"))
    assert pa.detail == "1B" and pa.scored == (soriano,)              # Soriano scores on the hit
    assert throw.kind == "thrown_out" and throw.actor == giambi and throw.base == 2
    assert throw.detail == "18>17"                                      # 13 + 5 beats 12 + 5
    assert throw.scored == (jeter,)                                     # "doesn't stop Jeter's run"
    assert state.board.line[0][0] == 2 and state.board.runs[0] == 2
    assert state.board.half == 1                                        # Giambi's out was the third
    rbi = state.box.lines[NYY][state.box_line[NYY][idx(state, NYY, "Hideki Matsui")]].rbi
    assert rbi == 2


def test_runner_is_safe_on_a_tie_and_without_two_outs_no_bonus():
    nyy, bos = giambi_teams()
    # one out: Giambi's target is 12 (no two-out bonus); 7 + 5 = 12 ties: safe at third
    state = game([("pitch", 5), ("swing", 12), ("throw", 7)], nyy, bos)
    situation(state, outs=1, bases=("Jason Giambi", None, None), batter="Hideki Matsui")
    play_until(state, "send_runners", {})
    assert state.pending.legal == (rules.PASS, rules.SEND_LEAD)       # one runner, no choice to throw
    go(state, rules.SEND_LEAD)
    throw = plays(state, "extra_base")[0]
    assert throw.detail == "12<=12" and throw.after[2] == idx(state, NYY, "Jason Giambi")


def test_going_home_adds_five():
    nyy, bos = giambi_teams()
    # a double (17) with Giambi on first: he reaches third and may try for home, target
    # 12 + 5 = 17; the throw 12 + 5 = 17 does not beat it
    state = game([("pitch", 5), ("swing", 17), ("throw", 12)], nyy, bos)
    situation(state, outs=0, bases=("Jason Giambi", None, None), batter="Hideki Matsui")
    play_until(state, "send_runners", {})
    go(state, rules.SEND_LEAD)
    throw = [p for p in state.log.plays if p.kind in ("thrown_out", "extra_base")][0]
    assert throw.kind == "extra_base" and throw.base == 3 and throw.detail == "17<=17"
    assert throw.scored == (idx(state, NYY, "Jason Giambi"),)


def test_fly_ball_tag_up_is_a_sacrifice_fly_and_third_out_fly_ball_moves_nobody():
    nyy, bos = giambi_teams()
    # FB with Jeter on third, one out: he tags; throw 2 + 5 = 7 against 16 + 5: safe, SF
    state = game([("pitch", 5), ("swing", 6), ("throw", 2)], nyy, bos)
    situation(state, outs=1, bases=(None, None, "Derek Jeter"), batter="Hideki Matsui")
    play_until(state, "send_runners", {})
    go(state, rules.SEND_LEAD)
    pa = plays(state, "pa")[0]
    assert pa.detail == "SF"
    assert state.board.runs[0] == 1
    # the same fly ball with two outs is the third out: no tag-up is offered
    state = game([("pitch", 5), ("swing", 6)], nyy, bos)
    situation(state, outs=2, bases=(None, None, "Derek Jeter"), batter="Hideki Matsui")
    play_until(state, None, {})
    assert not plays(state, "extra_base") and state.board.runs[0] == 0
    assert plays(state, "pa")[0].detail == "FO"


# ---------------------------------------------------------------- Innings Pitched: fatigue

def test_ip_6_starter_pitches_at_minus_3_in_the_9th():
    """"a starter with IP 6 subtracts 3 from every pitch he rolls in the 9th inning"."""
    bos = team_dict("bos2004")
    card(bos, "Pedro Martinez")["ip"] = 6
    # Pedro (Control 2) rolls 12: 14 would beat A-Rod's On-Base 12, but 14 - 3 = 11 does not
    state = game([("pitch", 12), ("swing", 1)], bos=bos)
    situation(state, inning=9, batter="Alex Rodriguez")
    pedro = idx(state, BOS, "Pedro Martinez")
    state.innings_pitched[BOS][pedro] = list(range(1, 9))
    play_until(state, None, {})
    pa = plays(state, "pa")[0]
    assert state.log_extra[state.log.plays.index(pa)][:2] == (11, "B")
    assert rules.fatigue(state, BOS, pedro) == 3
    assert state.card(BOS, pedro).control == 2           # tiredness never touches Control


def test_fatigue_grows_one_per_extra_inning_and_a_mid_inning_reliever_is_charged_the_inning():
    bos = team_dict("bos2004")
    card(bos, "Pedro Martinez")["ip"] = 6
    state = game([], bos=bos)
    pedro = idx(state, BOS, "Pedro Martinez")
    for innings, want in ((6, 0), (7, 1), (8, 2), (9, 3), (10, 4)):
        state.board.inning = innings               # his next pitch is in his latest inning
        state.innings_pitched[BOS][pedro] = list(range(1, innings + 1))
        assert rules.fatigue(state, BOS, pedro) == want
        # before his first pitch of the next inning, that inning already counts
        state.board.inning = innings + 1
        assert rules.fatigue(state, BOS, pedro) == want + 1
        state.board.inning = innings
        assert rules.fatigue(state, BOS, pedro) == want
    # Foulke (IP 1) comes in with two outs in the 8th: the 8th counts, so he is tired in the 9th
    state = game([("pitch", 20), ("swing", 3), ("pitch", 20), ("swing", 3)], bos=bos)
    situation(state, inning=8, outs=2, batter="Alex Rodriguez")
    state.runs_charged[BOS][pedro] = 0
    foulke = idx(state, BOS, "Keith Foulke")
    play_until(state, "pitching_change", {})
    go(state, rules.PLAYER + foulke)
    assert state.innings_pitched[BOS][foulke] == [8]
    assert rules.fatigue(state, BOS, foulke) == 0


def test_cy_young_one_two_three_inning_adds_an_inning():
    bos = team_dict("bos2004")
    card(bos, "Pedro Martinez")["icons"] = ["CY"]
    # three strikeouts on Pedro's chart (pitch 20 always beats On-Base; SO is 3-7)
    script = [("pitch", 20), ("swing", 3)] * 3
    state = game(script, bos=bos)
    situation(state, batter="Alex Rodriguez")
    pedro = idx(state, BOS, "Pedro Martinez")
    play_until(state, None, {})
    while state.board.half == 0:
        go(state, rules.PASS)
    assert state.ip_bonus[BOS][pedro] == 1
    assert any(p.kind == "cy_young" for p in state.log.plays)


# ---------------------------------------------------------------- Different Kinds of Outs: the double play

def test_double_play_runner_out_batter_out_run_scores_with_no_outs():
    # A-Rod grounds out on Pedro's chart (GB 8-13) with Jeter on first and Cairo on third;
    # the infield (Millar 0 + Bellhorn 2 + Mueller 1 + Reese 3 = +6) rolls 10: 16 beats 16? no
    state = game([("pitch", 20), ("swing", 8), ("double_play", 11)])
    situation(state, bases=("Derek Jeter", None, "Miguel Cairo"), batter="Alex Rodriguez")
    assert state.fielding(BOS, ("1B", "2B", "3B", "SS")) == 6
    play_until(state, "double_play", {})
    assert state.pending.actor == BOS
    go(state, rules.YES)
    pa = plays(state, "pa")[0]
    # 11 + 6 = 17 beats A-Rod's Speed 16: both out; Cairo scores (not the third out)
    assert pa.detail == "DP" and pa.after == (None, None, None)
    assert pa.scored == (idx(state, NYY, "Miguel Cairo"),)
    assert state.board.runs[0] == 1
    line = state.box.lines[NYY][state.box_line[NYY][idx(state, NYY, "Alex Rodriguez")]]
    assert line.rbi == 0                                   # no RBI on a double play


def test_double_play_that_makes_the_third_out_scores_nobody_and_a_failed_one_leaves_the_batter_on():
    state = game([("pitch", 20), ("swing", 8), ("double_play", 11)])
    situation(state, outs=1, bases=("Derek Jeter", "Jorge Posada", "Miguel Cairo"),
              batter="Alex Rodriguez")
    play_until(state, "double_play", {})
    go(state, rules.YES)
    pa = plays(state, "pa")[0]
    assert pa.detail == "DP" and pa.scored == () and state.board.line[0][0] == 0
    # 10 + 6 = 16 does not beat Speed 16: the runner from first is out, A-Rod safe at first,
    # Posada to third and Cairo home
    state = game([("pitch", 20), ("swing", 8), ("double_play", 10)])
    situation(state, bases=("Derek Jeter", "Jorge Posada", "Miguel Cairo"), batter="Alex Rodriguez")
    play_until(state, "double_play", {})
    go(state, rules.YES)
    pa = plays(state, "pa")[0]
    arod, posada = idx(state, NYY, "Alex Rodriguez"), idx(state, NYY, "Jorge Posada")
    assert pa.detail == "FC" and pa.after == (arod, None, posada)
    assert state.board.runs[0] == 1


def test_ground_ball_with_first_base_empty_advances_second_and_third():
    state = game([("pitch", 20), ("swing", 8)])
    situation(state, bases=(None, "Jorge Posada", None), batter="Alex Rodriguez")
    play_until(state, None, {})
    pa = plays(state, "pa")[0]
    assert pa.detail == "GO" and pa.after == (None, None, idx(state, NYY, "Jorge Posada"))


def test_gold_glove_adds_ten_to_the_double_play_roll():
    nyy = team_dict("nya2004")
    # the Yankees in the field: Jeter (SS +3, G) and the infield total +4 (Clark 0, Cairo 3,
    # A-Rod 1); Damon (Speed 17) grounds into a double play only with the Gold Glove
    state = game([("pitch", 20), ("swing", 6), ("double_play", 5)], nyy=nyy)
    situation(state, half=1, bases=("Mark Bellhorn", None, None), batter="Johnny Damon")
    assert state.fielding(NYY, ("1B", "2B", "3B", "SS")) == 7
    play_until(state, "double_play", {})
    go(state, rules.YES)
    assert state.pending.kind == "gold_glove" and state.pending.actor == NYY
    go(state, rules.YES)
    pa = plays(state, "pa")[0]
    assert pa.detail == "DP"                                  # 5 + 7 + 10 = 22 beats 17
    assert state.icons_left[NYY][idx(state, NYY, "Derek Jeter")]["G"] == 0


# ---------------------------------------------------------------- Single+

def test_single_plus_steals_second_before_the_next_pitch():
    # Damon's 1B+ is 18 on his chart; Pedro's... the Yankees bat: Cairo's 1B+ is 17-18
    state = game([("pitch", 1), ("swing", 17), ("pitch", 20), ("swing", 3)])
    situation(state, batter="Miguel Cairo")
    play_until(state, None, {})
    cairo = idx(state, NYY, "Miguel Cairo")
    kinds = [(p.kind, p.actor, p.detail) for p in state.log.plays[:3]]
    assert kinds[0] == ("pa", cairo, "1B+")
    assert kinds[1] == ("steal", cairo, "1B+")          # before the next pitch
    assert kinds[2][0] == "pa"
    assert state.log.plays[1].after[1] == cairo
    assert state.box.lines[NYY][state.box_line[NYY][cairo]].sb == 1


def test_single_plus_does_not_steal_an_occupied_second():
    state = game([("pitch", 1), ("swing", 17), ("pitch", 20), ("swing", 3)])
    situation(state, bases=("Derek Jeter", "Jorge Posada", None), batter="Miguel Cairo")
    play_until(state, "send_runners", {})
    go(state, rules.PASS)                  # hold: Jeter stays on second
    assert not plays(state, "steal")


# ---------------------------------------------------------------- the pitch

def test_pitcher_batting_never_has_the_advantage():
    # NL rules: Pedro bats ninth; there is no pitch, the swing reads Mussina's chart
    state = game([("swing", 20)], dh=False)
    situation(state, half=1, batter="Pedro Martinez")
    play_until(state, None, {})
    pa = plays(state, "pa")[0]
    assert state.log_extra[0][:2] == (None, "P")
    assert pa.detail == "2B"                               # Mussina's 2B is 20


def test_a_tie_goes_to_the_batter():
    # Pedro's 8 + 2 = 10 ties Matsui's On-Base 10: the batter's chart (12 is a single)
    state = game([("pitch", 8), ("swing", 12)])
    situation(state, batter="Hideki Matsui")
    play_until(state, None, {})
    assert state.log_extra[0][:2] == (10, "B") and plays(state, "pa")[0].detail == "1B"


# ---------------------------------------------------------------- substitutions

def test_starter_stays_in_through_the_4th_unless_he_gives_up_ten():
    state = game([("pitch", 20), ("swing", 3)])
    situation(state, inning=4, batter="Alex Rodriguez")
    play_until(state, None, {})
    assert state.pending is None or state.pending.kind != "pitching_change"
    state = game([("pitch", 20), ("swing", 3)])
    situation(state, inning=5, batter="Alex Rodriguez")
    play_until(state, "pitching_change", {})
    assert state.pending is not None and state.pending.kind == "pitching_change"
    bullpen = {k for k, c in enumerate(state.teams[BOS].players)
               if c.kind == "pitcher" and c.role != "starter"}
    assert {a - rules.PLAYER for a in state.pending.legal if a != rules.PASS} == bullpen
    state = game([("pitch", 20), ("swing", 3)])
    situation(state, inning=2, batter="Alex Rodriguez")
    state.runs_charged[BOS][state.pitcher[BOS]] = 10
    play_until(state, "pitching_change", {})
    assert state.pending is not None and state.pending.kind == "pitching_change"


def full_cost(data: dict) -> dict:
    """The team with no backups (the shipped 2004 Red Sox carry their bench as backups)."""
    for c in data["players"]:
        c.pop("backup", None)
    return data


def test_pinch_hitter_only_for_a_starter_who_has_batted_and_backups_only_late():
    bos = full_cost(team_dict("bos2004"))
    card(bos, "Nomar Garciaparra")["backup"] = True
    state = game([("pitch", 20), ("swing", 3)], bos=bos)
    situation(state, half=1, inning=5, batter="Pokey Reese")
    state.batted[BOS][idx(state, BOS, "Pokey Reese")] = False
    go(state)                         # the pinch hitter is the at-bat's first question
    assert state.pending is None or state.pending.kind != "pinch_hitter"
    # he has batted: Cabrera (SS) may bat for the shortstop; Nomar (SS) is a backup, and
    # the Red Sox next take the field in the 6th
    state = game([("pitch", 20), ("swing", 3)], bos=bos)
    situation(state, half=1, inning=5, batter="Pokey Reese")
    play_until(state, "pinch_hitter", {})
    offered = {state.teams[BOS].players[a - rules.PLAYER].name for a in state.pending.legal
               if a != rules.PASS}
    assert "Orlando Cabrera" in offered and "Nomar Garciaparra" not in offered
    # in the bottom of the 6th the home team next takes the field in the 7th: backups may hit
    state = game([("pitch", 20), ("swing", 3)], bos=bos)
    situation(state, half=1, inning=6, batter="Pokey Reese")
    play_until(state, "pinch_hitter", {})
    offered = {state.teams[BOS].players[a - rules.PLAYER].name for a in state.pending.legal
               if a != rules.PASS}
    assert "Nomar Garciaparra" in offered


def test_pinch_hitter_must_leave_a_team_that_can_take_the_field():
    # nobody on the Red Sox bench plays CF, and no juggling frees it (Kapler in RF could
    # move, but then RF is empty): no pinch hitter for Damon
    state = game([("pitch", 20), ("swing", 3)])
    situation(state, half=1, inning=5, batter="Johnny Damon")
    go(state)
    assert state.pending is None or state.pending.kind != "pinch_hitter"
    # Youkilis (3B) may bat for Bellhorn (2B): Mueller moves from third to second, and the
    # positions are settled when the Red Sox take the field
    state = game([("pitch", 20), ("swing", 3)] * 3, bos=full_cost(team_dict("bos2004")))
    situation(state, half=1, inning=5, outs=2, batter="Mark Bellhorn")
    play_until(state, "pinch_hitter", {})
    youk = idx(state, BOS, "Kevin Youkilis")
    assert rules.PLAYER + youk in state.pending.legal
    go(state, rules.PLAYER + youk)
    play_until(state, None, {})
    assert state.board.half == 0 and state.board.inning == 6
    where = dict(zip(state.lineup[BOS], state.pos[BOS]))
    assert where[youk] == "3B" and where[idx(state, BOS, "Bill Mueller")] == "2B"


def test_hitting_for_the_pitcher_forces_a_reliever_into_his_spot():
    state = game([("pitch", 20), ("swing", 3)] * 3, dh=False)
    situation(state, half=1, inning=6, outs=2, batter="Pedro Martinez")
    play_until(state, "pinch_hitter", {})
    nomar = idx(state, BOS, "Nomar Garciaparra")
    slot = state.order[BOS]
    go(state, rules.PLAYER + nomar)
    # Nomar strikes out for the third out; the Red Sox take the field and must bring a
    # reliever into the pitcher's spot: no pass
    while state.pending is not None and not (state.pending.kind == "pitching_change"
                                             and state.pending.subject == 1):
        go(state, rules.PASS)
    assert rules.PASS not in state.pending.legal and state.pending.actor == BOS
    foulke = idx(state, BOS, "Keith Foulke")
    go(state, rules.PLAYER + foulke)
    assert state.lineup[BOS][slot] == foulke and state.pos[BOS][slot] == "P"
    assert state.pitcher[BOS] == foulke


def test_after_a_pitching_change_the_pinch_hitter_may_be_batted_for():
    """At-Bat Sequence 3: "If the defense does bring in a pitcher, the offense may send in
    another pinch hitter, even if one was already sent up in step 1"; without a change, no
    second pinch hitter. The at-bat's record starts afresh with the next at-bat."""
    def to_step_two():
        state = game([("pitch", 20), ("swing", 3)] * 2, bos=full_cost(team_dict("bos2004")))
        situation(state, half=1, inning=6, batter="Pokey Reese")
        play_until(state, "pinch_hitter", {})
        go(state, rules.PLAYER + idx(state, BOS, "Orlando Cabrera"))
        assert state.ab.ph_for == state.order[BOS] and not state.ab.change
        assert state.pending.kind == "pitching_change" and state.pending.actor == NYY
        return state

    state = go(to_step_two(), rules.PASS)             # no change: Cabrera bats
    assert len(plays(state, "pinch_hitter")) == 1
    assert plays(state, "pa")[0].actor == idx(state, BOS, "Orlando Cabrera")
    state = to_step_two()
    go(state, state.pending.legal[1])
    assert state.ab.change and state.pending.kind == "pinch_hitter"
    reese, cabrera = idx(state, BOS, "Pokey Reese"), idx(state, BOS, "Orlando Cabrera")
    offered = [a - rules.PLAYER for a in state.pending.legal if a != rules.PASS]
    assert offered and cabrera not in offered
    slot = state.order[BOS]
    go(state, rules.PLAYER + offered[0])
    assert [(p.actor, p.detail) for p in plays(state, "pinch_hitter")] == [
        (cabrera, str(reese)), (offered[0], str(cabrera))]
    assert state.lineup[BOS][slot] == offered[0] and plays(state, "pa")[-1].actor == offered[0]
    assert state.order[BOS] == (slot + 1) % 9                  # the next at-bat, afresh
    assert state.ab.ph_for is None and not state.ab.change and state.ab.result is None


# ---------------------------------------------------------------- icons

def test_k_icon_then_v_reroll():
    nyy = team_dict("nya2004")
    card(nyy, "Derek Jeter")["icons"] = ["G", "V"]
    bos = team_dict("bos2004")
    card(bos, "Pedro Martinez")["icons"] = ["K"]
    # Jeter singles on his chart (13); Pedro turns it into a strikeout; Jeter's V rerolls
    # the out on the same chart: 20 is a home run
    state = game([("pitch", 1), ("swing", 13), ("swing", 20)], nyy, bos)
    situation(state, batter="Derek Jeter")
    play_until(state, "strikeout", {})
    assert state.pending.actor == BOS
    go(state, rules.YES)
    assert state.pending.kind == "reroll_out" and state.pending.actor == NYY
    go(state, rules.YES)
    pa = plays(state, "pa")[0]
    assert pa.detail == "HR" and state.board.runs[0] == 1
    jeter, pedro = idx(state, NYY, "Derek Jeter"), idx(state, BOS, "Pedro Martinez")
    assert state.icons_left[NYY][jeter]["V"] == 1 and state.icons_left[BOS][pedro]["K"] == 0


def test_silver_slugger_and_home_run_icons():
    # Manny (S, HR) at bat for Boston: a single becomes a double; later a double a homer
    state = game([("pitch", 1), ("swing", 14), ("pitch", 1), ("swing", 17)])
    situation(state, half=1, batter="Manny Ramirez")
    play_until(state, "silver_slugger", {})
    go(state, rules.YES)
    # the single is now a double, which the HR icon may turn into a home run
    assert state.pending.kind == "home_run_icon"
    play_until(state, None, {})
    assert plays(state, "pa")[0].detail == "2B"
    manny = idx(state, BOS, "Manny Ramirez")
    assert state.icons_left[BOS][manny] == {"S": 0, "HR": 1}
    # Manny's next double (17) becomes a home run
    state = game([("pitch", 1), ("swing", 17)])
    situation(state, half=1, batter="Manny Ramirez")
    play_until(state, "home_run_icon", {})
    go(state, rules.YES)
    play_until(state, None, {})
    assert plays(state, "pa")[0].detail == "HR" and state.board.runs[1] == 1


def test_twenty_icon_adds_three_to_one_pitch_an_inning():
    # Schilling (Control 4, 20 icon) rolls 6: 10 does not beat A-Rod's 12; 13 does
    state = game([("pitch", 6), ("swing", 3)], starter=2)
    situation(state, batter="Alex Rodriguez")
    play_until(state, "twenty_game", {})
    go(state, rules.YES)
    assert state.log_extra[-1][:2] == (13, "P")
