"""Invariants of That's Baseball over thousands of random games, checked after every
decision and at the end of each game, and properties of the pure base-running functions.

The thousands of games are the contract suite's random games (``test_contract.py``,
``test_invariants_over_random_games``), which also check what every ruleset must keep; this
module adds That's Baseball's own checks to them through :func:`random_game_checks`.

What must hold, from the rulebook and official scoring (see envs/core/scoreboard.py):

* outs never reach 3 while a manager has a decision pending (three outs end the half);
* each base holds at most one runner, no runner is on two bases, runners are lineup
  slots 0-8 of the batting team and never the batter at the plate (nine men cannot
  bat around while one of them stays on base: at most two outs fall before he is up
  again, so at least six men reach behind him, and three bases hold only three);
* runs agree everywhere: line score, scoreboard, the batters' R, the play log;
* every game under the default options ends with a winner who has more runs;
* the home team never bats in the bottom of the last (or an extra) inning while ahead;
* a walk-off ends the game at once: only the runs needed count, so the home team wins
  by exactly one run unless the winning hit is a home run (then by one to four);
* extra innings are played only after a tie;
* every plate appearance is an at-bat, a walk, a hit batsman or a sacrifice fly.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from dugout.envs.core import Dice
from dugout.envs.core.bases import (advance_all, advance_runner, force_advance, occupied,
                                    push_runner, remove_runner, runner_count)
from dugout.envs.core.scorebook import OUTCOMES
from dugout.envs.thats_baseball import rules
from dugout.envs.thats_baseball.cards import load_team

from helpers import GameChecks, play_engine

TEAMS = (load_team("sample"), load_team("reds"))
HIT_CODES = {"1B", "2B", "3B", "HR"}
BATTING_DECIDES = {"steal", "error_roll", "tag_up"}


PICKOFF_PLAYS = {"picked_off", "pickoff_safe", "pickoff_error"}


def plays_since_last_batter(state):
    """Plays of this half inning after the last plate appearance (the current batter's
    steals and pickoffs, or the current batter's own play and its tag-ups)."""
    b = state.board
    out = []
    for p in reversed(state.log.plays):
        if p.inning != b.inning or p.half != b.half or p.kind == "pa":
            break
        out.append(p)
    return out


# -- checks after every decision ---------------------------------------------------------------
def check_decision_point(state):
    b = state.board
    d = state.pending
    assert d is not None and not b.over
    assert 0 <= b.outs < 3, f"{b.outs} outs with a {d.kind} decision pending"
    assert b.half in (0, 1) and b.inning >= 1
    # bases
    runners = [r for r in b.bases if r is not None]
    assert len(runners) == len(set(runners)), f"a runner on two bases: {b.bases}"
    assert all(isinstance(r, int) and 0 <= r <= 8 for r in runners), b.bases
    assert state.batter not in runners, f"batter {state.batter} is also on base: {b.bases}"
    assert all(0 <= o <= 8 for o in state.order)
    # scores agree
    for team in (0, 1):
        assert sum(b.line[team]) == b.runs[team]
        assert sum(line.r for line in state.box.lines[team]) == b.runs[team]
    assert len(b.line[0]) == b.inning and len(b.line[1]) == b.inning - 1 + b.half
    # no bottom of the last inning (or later) is played with the home team ahead
    if b.half == 1 and b.inning >= b.innings:
        assert b.runs[1] <= b.runs[0], f"home bats ahead {b.runs} in inning {b.inning}"
    # the decision itself
    assert d.kind in rules.DECISION_KINDS
    assert d.legal and len(set(d.legal)) == len(d.legal)
    assert all(0 <= a < len(rules.ACTIONS) for a in d.legal)
    assert d.actor == (b.batting if d.kind in BATTING_DECIDES else b.fielding)
    occ = occupied(b.bases)
    # what happened since this batter came up, read from the play log
    this_pa = plays_since_last_batter(state)
    tried = {p.actor for p in this_pa if p.kind in ("steal", "caught_stealing")}
    pickoffs = [p for p in this_pa if p.kind in PICKOFF_PLAYS]
    if d.kind == "steal":
        # each runner may try once per batter; steals come before the pickoff
        assert not pickoffs, "a steal offered after this batter's pickoff throw"
        expect = {0} | {i + 1 for i in occ
                        if (i == 2 or b.bases[i + 1] is None) and b.bases[i] not in tried}
        assert set(d.legal) == expect and len(expect) > 1
    elif d.kind == "pickoff":
        assert not pickoffs and not state.pickoff_tried, "a second pickoff throw before this batter"
        assert set(d.legal) == {0} | {i + 1 for i in occ} and occ
    elif d.kind in ("error_roll", "double_play"):
        assert d.legal == (rules.PASS, rules.ROLL)
        if d.kind == "double_play":
            assert b.bases[0] is not None and b.outs < 3
    elif d.kind == "dp_runner":
        assert set(d.legal) == {i + 1 for i in occ} and len(occ) >= 2
    elif d.kind == "tag_up":
        assert d.legal == (rules.PASS, rules.ROLL)
        s = d.subject
        assert b.bases[s] is not None and (s == 2 or b.bases[s + 1] is None)


def check_final(state, tally):
    b = state.board
    assert b.over and state.pending is None
    assert not b.truncated, "a default game was cut off"
    assert b.winner in (0, 1), "a finished game has a winner"
    w = b.winner
    assert b.runs[w] > b.runs[1 - w], f"winner {w} does not lead: {b.runs}"
    assert b.outs <= 3
    line = b.line
    assert len(line[0]) == b.inning >= b.innings
    assert len(line[1]) in (b.inning - 1, b.inning)
    log = state.log.plays
    for team in (0, 1):
        runs = b.runs[team]
        assert sum(line[team]) == runs
        lines = state.box.lines[team]
        assert sum(x.r for x in lines) == runs
        assert state.box.hits[team] == sum(x.h for x in lines)
        assert state.box.summary(b)["runs"][team] == runs
        # the play log agrees with the box score
        assert sum(len(p.scored) for p in log if p.half == team) == runs
        for inning, r in enumerate(line[team], start=1):
            assert sum(len(p.scored) for p in log if p.half == team and p.inning == inning) == r
        pas = [p for p in log if p.kind == "pa" and p.half == team]
        assert sum(p.detail in HIT_CODES for p in pas) == state.box.hits[team]
        for slot, x in enumerate(lines):
            assert x.ab + x.bb + x.hbp + x.sf == x.pa, f"{x.name}: {x.to_dict()}"
            assert x.pa == len(x.marks) == sum(p.actor == slot for p in pas)
            assert x.h == x.doubles + x.triples + x.hr + sum(1 for _, c in x.marks if c == "1B")
            assert x.rbi <= x.pa * 4
    # the home team never batted in the last inning or later while ahead
    for k in range(b.innings, len(line[1]) + 1):
        assert sum(line[0][:k]) >= sum(line[1][:k - 1]), f"home batted ahead in inning {k}: {line}"
    # extra innings only after a tie
    if b.inning > b.innings:
        assert sum(line[0][:-1]) == sum(line[1][:-1]), f"extra innings after no tie: {line}"
        tally["extra"] += 1
    lead = b.runs[w] - b.runs[1 - w]
    if w == 0:
        assert len(line[1]) == b.inning and b.outs == 0      # the home team made three outs
        tally["away"] += 1
    elif len(line[1]) == b.inning - 1:
        assert b.inning == b.innings, "home skips its half only in the last scheduled inning"
        tally["home_no_bottom"] += 1
    else:                                                     # a walk-off
        assert b.outs < 3
        last = log[-1]
        assert last.half == 1 and last.inning == b.inning and last.scored, last
        if last.kind == "pa" and last.detail == "HR":
            assert 1 <= lead <= 4
            tally["walkoff_hr"] += 1
            if lead > 1:
                tally["walkoff_hr_big"] += 1
        else:
            assert lead == 1, f"a walk-off by {last.kind}/{last.detail} won by {lead}"
            tally["walkoff"] += 1


def check_log(state):
    for p in state.log.plays:
        before = {r for r in p.before if r is not None}
        after = [r for r in p.after if r is not None]
        assert len(after) == len(set(after))
        assert set(after) <= before | {p.actor}, p
        assert set(p.scored) <= before | {p.actor}, p
        assert not set(p.scored) & set(after), p
        if p.kind == "pa":
            aa = state.teams[p.half].batters[p.actor].aa
            assert aa + 2 <= p.roll <= aa + 12
            chart = rules.RESULT_CHART[p.roll]
            if chart == rules.XBH:
                assert p.detail in ("2B", "3B", "HR")
            elif chart.code == "GO":
                assert p.detail in ("GO", "E", "DP")
            elif chart.code == "FO":
                assert p.detail in ("FO", "SF")
            else:
                assert p.detail == chart.code
            assert p.detail in OUTCOMES


def choose(rng, legal, style):
    if style == "pass":
        return legal[0]
    if style == "bold":
        return legal[-1]
    if style == "mixed":
        return rng.choice((legal[0], legal[-1], rng.choice(legal)))
    return rng.choice(legal)


TALLY_KEYS = ("away", "home_no_bottom", "walkoff", "walkoff_hr", "walkoff_hr_big", "extra")


def random_game_checks(options, monkeypatch):
    """This ruleset's checks in the contract's random games (``test_contract.py``,
    ``test_invariants_over_random_games``): N games between the sample team and the Reds,
    each team away in every other game, managed at random, always passing, always bold or a
    mix; every decision checked by :func:`check_decision_point`, every game by
    :func:`check_final` and :func:`check_log`; each decision kind, each way a game ends
    (away win, home win without its last at-bat, walk-off, walk-off home run, extra innings)
    and games ending on either manager's move must come up."""
    tally = {k: 0 for k in TALLY_KEYS}
    kinds, last_movers, mover = set(), set(), [None]
    styles = ("random", "random", "mixed", "pass", "bold")

    def start(seed):
        rng = random.Random(seed)
        style = styles[seed % len(styles)]
        state = rules.new_game(TEAMS[seed % 2], TEAMS[1 - seed % 2], Dice(seed))
        return state, lambda state: choose(rng, state.pending.legal, style)

    def decision(state):
        check_decision_point(state)
        kinds.add(state.pending.kind)
        mover[0] = state.pending.actor

    def final(state, info):
        check_final(state, tally)
        check_log(state)
        last_movers.add(mover[0])

    def done():
        assert kinds == set(rules.DECISION_KINDS)
        # a game ends on either manager's move (the contract checks who is asked first then)
        assert last_movers == {0, 1}
        # the end-of-game checks were not vacuous
        for k in ("away", "home_no_bottom", "walkoff", "walkoff_hr", "extra"):
            assert tally[k] > 0, tally

    return GameChecks(start=start, decision=decision, final=final, done=done)


def test_big_walkoff_home_runs_happen():
    """A walk-off home run can win by more than one run (every runner scores)."""
    tally = {k: 0 for k in TALLY_KEYS}
    seed = 0
    while tally["walkoff_hr_big"] == 0 and seed < 20000:
        rng = random.Random(seed)
        state = rules.new_game(TEAMS[0], TEAMS[1], Dice(seed), innings=1)
        play_engine(state, rules.apply_action, lambda s: rng.choice(s.pending.legal))
        check_final(state, tally)
        seed += 1
    assert tally["walkoff_hr_big"] > 0


@pytest.mark.parametrize("innings, max_innings", [(1, 1), (2, 3), (3, None)])
def test_invariants_short_games(innings, max_innings):
    truncated = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = rules.new_game(TEAMS[0], TEAMS[1], Dice(seed), innings=innings,
                               max_innings=max_innings)
        play_engine(state, rules.apply_action, lambda s: rng.choice(s.pending.legal),
                    on_decision=check_decision_point)
        b = state.board
        if b.truncated:
            truncated += 1
            assert max_innings is not None and b.inning == max_innings
            assert b.winner is None and b.runs[0] == b.runs[1]
            assert len(b.line[0]) == len(b.line[1]) == max_innings
        else:
            check_final(state, {k: 0 for k in TALLY_KEYS})
        if max_innings is not None:
            assert b.inning <= max_innings
        check_log(state)
    if max_innings is not None:
        assert truncated > 0


# -- the pure base-running functions --------------------------------------------------------------
@st.composite
def bases_st(draw):
    """Bases holding distinct runner ids (ints 0-98), some empty."""
    ids = draw(st.lists(st.integers(0, 98), min_size=3, max_size=3, unique=True))
    filled = draw(st.tuples(st.booleans(), st.booleans(), st.booleans()))
    return tuple(r if f else None for r, f in zip(ids, filled))


NEW = 99   # a runner id no base holds


def lead_first(bases):
    """Runners from third down to first: the order they must keep."""
    return [bases[i] for i in (2, 1, 0) if bases[i] is not None]


def positions(bases):
    return {r: i for i, r in enumerate(bases) if r is not None}


@settings(max_examples=300, deadline=None, derandomize=True)
@given(bases_st(), st.integers(0, 3))
def test_push_runner_conserves_and_orders(bases, base):
    new, scored = push_runner(bases, base, NEW)
    assert len(new) == 3
    assert sorted(lead_first(new) + scored) == sorted(lead_first(bases) + [NEW])
    assert len(scored) <= 1
    # the new runner goes in behind everyone at or past his base
    ahead = [bases[i] for i in (2, 1, 0) if i >= base and bases[i] is not None]
    behind = [bases[i] for i in (2, 1, 0) if i < base and bases[i] is not None]
    assert scored + lead_first(new) == ahead + [NEW] + behind
    # nobody moves backwards; runners behind the base do not move; forced runners move one base
    old, now = positions(bases), positions(new)
    for r, i in old.items():
        if r in scored:
            continue
        assert now[r] >= i
        if i < base:
            assert now[r] == i
        assert now[r] - i <= 1
    if base < 3:
        assert new[base] == NEW
    else:
        assert scored == [NEW] and new == bases


@settings(max_examples=300, deadline=None, derandomize=True)
@given(bases_st())
def test_force_advance_moves_only_forced_runners(bases):
    new, scored = force_advance(bases, NEW)
    assert new[0] == NEW
    assert sorted(lead_first(new) + scored) == sorted(lead_first(bases) + [NEW])
    assert scored + lead_first(new) == lead_first(bases) + [NEW]
    # a runner moves only if every base behind him is occupied
    old, now = positions(bases), positions(new)
    for r, i in old.items():
        forced = all(bases[j] is not None for j in range(i))
        if r in scored:
            assert forced and i == 2
        else:
            assert now[r] == (i + 1 if forced else i)
    assert scored == ([bases[2]] if runner_count(bases) == 3 else [])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(bases_st(), st.integers(1, 4), st.booleans())
def test_advance_all_conserves_and_orders(bases, n, with_batter):
    batter = NEW if with_batter else None
    new, scored = advance_all(bases, n, batter)
    extra = [NEW] if with_batter else []
    assert sorted(lead_first(new) + scored) == sorted(lead_first(bases) + extra)
    assert scored + lead_first(new) == lead_first(bases) + extra
    old, now = positions(bases), positions(new)
    for r, i in old.items():
        if i + n >= 3:
            assert r in scored
        else:
            assert now[r] == i + n
    if with_batter:
        assert (NEW in scored) if n == 4 else (now[NEW] == n - 1)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(bases_st(), st.integers(0, 2), st.integers(1, 3))
def test_advance_runner_moves_one_runner_on_a_clear_path(bases, base, n):
    if bases[base] is None:
        with pytest.raises(ValueError):
            advance_runner(bases, base, n)
        return
    blocked = any(bases[i] is not None for i in range(base + 1, min(base + n + 1, 3)))
    if blocked:
        with pytest.raises(ValueError):
            advance_runner(bases, base, n)
        return
    runner = bases[base]
    new, scored = advance_runner(bases, base, n)
    assert sorted(lead_first(new) + scored) == sorted(lead_first(bases))
    assert scored + lead_first(new) == lead_first(bases)
    for i in range(3):
        if i != base and i != base + n:
            assert new[i] == bases[i]
    if base + n >= 3:
        assert scored == [runner] and new[base] is None
    else:
        assert scored == [] and new[base + n] == runner and new[base] is None


@settings(max_examples=200, deadline=None, derandomize=True)
@given(bases_st(), st.integers(0, 2))
def test_remove_runner_removes_exactly_one(bases, base):
    if bases[base] is None:
        with pytest.raises(ValueError):
            remove_runner(bases, base)
        return
    new = remove_runner(bases, base)
    assert new[base] is None
    assert lead_first(new) == [r for r in lead_first(bases) if r != bases[base]]
    assert runner_count(new) == runner_count(bases) - 1


def test_advance_all_needs_a_positive_distance():
    with pytest.raises(ValueError):
        advance_all((1, None, None), 0)
