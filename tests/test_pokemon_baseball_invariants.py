"""Invariants of Pokemon Baseball over thousands of random games and hundreds of random
series, checked after every decision, at the end of every game and between the games of
a series.

The contract suite's random games (``test_contract.py``, ``test_invariants_over_random_games``)
run this ruleset's checks through :func:`random_game_checks`; this module also plays its own
games: single games over every pair of built-in teams, with and without the DH, both edge
readings, managed at random or passing most substitutions (so that games go deep, benches
stay full and injuries need replacing), and series (``{"games": 5}`` and best of 3).

What must hold (the rulebook and RULES.md's readings):

* outs are 0-2 whenever a decision is pending; no runner is on two bases; runners are
  creatures of the batting team, in its lineup, in the game (PLAYING), never the batter at
  the plate;
* no creature appears twice in a team's field or lineup; once play has begun everyone in
  the field and the lineup is PLAYING and nobody else is; a creature's status only moves
  BENCH -> PLAYING -> GONE (GONE creatures never come back, except with re-entry, the
  ``used_twice`` reading without "reentry", one not hurt in this game); a creature with ``resting > 0``
  is never PLAYING and is never a legal choice (lineup, batting_order, substitute,
  replace_injured);
* with ``dh=False`` the nine who bat are exactly the nine in the field; with ``dh=True`` the
  ten placed creatures are the pitcher and the nine who bat, and the pitcher does not bat;
* effective HP (``state.hp(t, k)``) is at least 10, and base HP - losses when that is 10 or
  more; every game of a series starts with no HP lost, nobody hurt, no innings pitched;
* runs agree: line score, score, the batters' R in the box score, the play log; the home
  team never bats in the bottom of the last scheduled inning or later while ahead; a
  walk-off wins by exactly one run unless the winning play is a home run; extra innings
  only after a tie;
* innings pitched are the innings in which the creature faced a batter (recorded at every
  roll and bunt by wrapping the engine's at-bat rule), and between the games of a series
  the next game's ``resting`` is ``rules.games_to_rest`` of the finished game, which is
  ``max(owed - 1, rest for innings pitched, injury games)``: starters rest at least one
  game, a creature with 6+ innings rests 3; a team short of rested creatures forfeits 9-0;
* every decision is the one the readings describe, its legal actions are sorted and
  distinct, and the acting manager's mask is exactly them.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Any, Callable

import numpy as np

import dugout.envs as envs
from dugout.envs.core import Dice
from dugout.envs.pokemon_baseball import rules
from dugout.envs.pokemon_baseball.cards import BUILTIN_TEAMS, load_team

from helpers import AGENTS, GameChecks, check_final as contract_final, check_invariants, games, \
    check_live_infos

ENV_ID = "pokemon_baseball_v0"
BENCH, PLAYING, GONE = rules.BENCH, rules.PLAYING, rules.GONE
PASS, YES, RUNNER, PINCH_HIT = rules.PASS, rules.YES, rules.RUNNER, rules.PINCH_HIT
POSITION, CREATURE = rules.POSITION, rules.CREATURE
PAIRS = [(a, h) for a in BUILTIN_TEAMS for h in BUILTIN_TEAMS if a != h]
TEAMS = {name: load_team(name) for name in BUILTIN_TEAMS}
SUB_KINDS = ("offense_sub", "defense_sub")
HIT_CODES = {"1B", "2B", "3B", "HR"}
#: decisions that come after a batter's injury replacement was offered
AFTER_INJURIES = {"offense_sub", "defense_sub", "substitute", "steal", "bunt", "tag_up"}


# -- managing styles -----------------------------------------------------------------------------
def chooser(style: str, rng: random.Random) -> Callable[[Any], int]:
    """``random``: uniform; ``pass``: substitutions passed 97% of the time (games go deep,
    benches stay full), the rest uniform; ``bold``: substitutions passed 80% of the time,
    always steal / bunt / tag up when offered."""
    def choose(state) -> int:
        d = state.pending
        legal = d.legal
        if style == "pass" and d.kind in SUB_KINDS and rng.random() < 0.97:
            return PASS
        if style == "bold":
            if d.kind in SUB_KINDS:
                return PASS if rng.random() < 0.8 else rng.choice(legal)
            if d.kind in ("steal", "bunt", "tag_up"):
                return legal[-1]
        return rng.choice(legal)
    return choose


# -- who faced which batter: a wrapper on the engine's at-bat rule and bunt choice -----------------
class PitchRecorder:
    """Records, for every plate appearance (a roll on the batting chart or a bunt), the
    fielding team's pitcher and the half inning, and checks the men involved: the batter
    and pitcher are in the game, the batter is not on base. ``games[id(state)]`` holds
    ``(state, halves)`` with ``halves[team][creature]`` the set of half-inning indexes in
    which he faced a batter."""

    def __init__(self, monkeypatch):
        self.games: dict[int, tuple[Any, list]] = {}
        self.count = 0
        at_bat, bunt = rules.RULES["at_bat"], rules.CHOICES["bunt"]

        def wrapped_at_bat(state):
            self.note(state)
            at_bat(state)

        def wrapped_bunt(state, decision, action):
            if action == YES:
                self.note(state)
            bunt(state, decision, action)

        monkeypatch.setitem(rules.RULES, "at_bat", wrapped_at_bat)
        monkeypatch.setitem(rules.CHOICES, "bunt", wrapped_bunt)

    def note(self, state) -> None:
        b = state.board
        f, t = b.fielding, b.batting
        pitcher, batter = state.pitcher(f), state.batter_creature()
        assert state.started and not b.over and 0 <= b.outs < 3
        assert state.status[f][pitcher] == PLAYING and state.resting[f][pitcher] == 0
        assert state.status[t][batter] == PLAYING and state.resting[t][batter] == 0
        assert batter not in b.bases, f"the batter {batter} is on base: {b.bases}"
        assert all(state.status[t][r] == PLAYING for r in b.bases if r is not None)
        entry = self.games.get(id(state))
        if entry is None or entry[0] is not state:
            entry = self.games[id(state)] = (state, [defaultdict(set), defaultdict(set)])
        entry[1][f][pitcher].add(b.half_index)
        self.count += 1

    def innings(self, state) -> list[list[int]]:
        """Innings pitched per creature in ``state``'s game, from the recorded appearances
        (forgets the game)."""
        entry = self.games.pop(id(state), None)
        halves = entry[1] if entry is not None and entry[0] is state else [{}, {}]
        return [[len(halves[t].get(k, ())) for k in range(len(state.teams[t].roster))]
                for t in (0, 1)]


# -- checks after every decision -------------------------------------------------------------------
class GameTrack:
    """What one game's checks remember from decision to decision."""

    def __init__(self, state):
        self.state = state
        self.status = [list(s) for s in state.status]
        self.resting = [list(r) for r in state.resting]
        self.gone: list[set] = [set(), set()]
        self.hp_checked = [False, False]
        self.reentries = 0                  # creatures back in after leaving (re-entry)


def tried_this_batter(state) -> set:
    """Runners who tried to steal since the last plate appearance of this half inning."""
    b = state.board
    tried = set()
    for p in reversed(state.log.plays):
        if p.inning != b.inning or p.half != b.half or p.kind == "pa":
            break
        if p.kind in ("steal", "caught_stealing"):
            tried.add(p.actor)
    return tried


def check_hp(state, t: int, only_losses: bool = False) -> None:
    """Effective HP of team ``t``'s creatures: at least 10, and base HP - losses when that
    is 10 or more. ``only_losses``: just the creatures that lost HP in this game (the HP of
    the others is a function of their base HP alone, checked in full once per game)."""
    for k, loss in enumerate(state.hp_loss[t]):
        if loss or not only_losses:
            base, hp = state.creature(t, k).hp, state.hp(t, k)
            assert loss >= 0 and hp >= 10, (t, k, hp)
            assert hp == (base - loss if base - loss >= 10 else 10), (t, k, base, loss, hp)


def check_decision(state, track: GameTrack | None = None) -> None:
    b = state.board
    d = state.pending
    assert d is not None and not b.over and state.forfeited == -1
    assert 0 <= b.outs <= 2, f"{b.outs} outs with a {d.kind} decision pending"
    bat, fld = b.batting, b.fielding
    sizes = [len(t.roster) for t in state.teams]
    runners = [r for r in b.bases if r is not None]
    assert len(runners) == len(set(runners)), f"a runner on two bases: {b.bases}"
    if not state.started:
        assert (b.inning, b.half, b.outs, list(b.runs)) == (1, 0, 0, [0, 0]) and not runners
        assert not state.log.plays
    else:
        batter = state.batter_creature()
        for r in runners:
            assert isinstance(r, int) and 0 <= r < sizes[bat], b.bases
            assert state.status[bat][r] == PLAYING, f"runner {r} is not in the game"
            assert r in state.lineup[bat], f"runner {r} is not in the lineup"
            assert r != batter, f"the batter {batter} is also on base: {b.bases}"
    # -- the teams
    for t in (0, 1):
        n = sizes[t]
        status, resting = state.status[t], state.resting[t]
        for name in ("status", "resting", "hp_loss", "injured", "innings_pitched", "line_of"):
            assert len(getattr(state, name)[t]) == n, name
        assert len(state.fielders[t]) == 10 and len(state.lineup[t]) == 9
        placed = [k for k in state.fielders[t] if k >= 0]
        batters = [k for k in state.lineup[t] if k >= 0]
        assert len(placed) == len(set(placed)), f"team {t} fields a creature twice: {state.fielders[t]}"
        assert len(batters) == len(set(batters)), f"team {t} bats a creature twice: {state.lineup[t]}"
        assert min(placed + batters, default=0) >= 0 and max(placed + batters, default=0) < n
        if not state.dh:
            assert state.fielders[t][9] == -1, "a DH without the DH rule"
        check_hp(state, t, only_losses=track is not None and track.hp_checked[t])
        if track is not None:
            track.hp_checked[t] = True
        for k, r in enumerate(resting):
            if r > 0:
                assert status[k] != PLAYING, f"resting creature {k} of team {t} plays"
                assert k not in placed and k not in batters
        assert set(state.injured[t]) <= {0, 1, 2, 3}
        if state.started:
            assert -1 not in state.fielders[t][:10 if state.dh else 9] and -1 not in state.lineup[t]
            playing = {k for k in range(n) if status[k] == PLAYING}
            assert playing == set(placed) | set(batters), (t, playing, placed, batters)
            if state.dh:
                assert set(batters) == set(state.fielders[t][1:10]), (state.fielders[t], batters)
                assert state.pitcher(t) not in batters and len(playing) == 10
            else:
                assert set(batters) == set(state.fielders[t][:9]), (state.fielders[t], batters)
                assert len(playing) == 9
        else:
            assert all(s == BENCH for s in status)
        if track is not None and status != track.status[t]:
            # a creature's status only moves on: BENCH -> PLAYING -> GONE, never back; with
            # re-entry (used_twice without "reentry") GONE -> PLAYING, unless hurt in this game
            for k, (was, now) in enumerate(zip(track.status[t], status)):
                back = state.reentry and (was, now) == (GONE, PLAYING) and not state.injured[t][k]
                assert was <= now or back, f"team {t} creature {k} went from status {was} to {now}"
                track.reentries += back
            if not state.reentry:
                assert all(status[k] == GONE for k in track.gone[t]), "a GONE creature came back"
            track.gone[t].update(k for k in range(n) if status[k] == GONE)
            track.status[t] = list(status)
        if track is not None:
            assert resting == track.resting[t], "resting changed during a game"
    # -- runs
    for t in (0, 1):
        assert sum(b.line[t]) == b.runs[t], f"line score {b.line} vs {b.runs}"
        assert sum(x.r for x in state.box.lines[t]) == b.runs[t], "box score runs vs the score"
    assert tuple(state.score) == (b.runs[0], b.runs[1])
    assert len(b.line[0]) == b.inning and len(b.line[1]) == b.inning - 1 + b.half
    if b.half == 1 and b.inning >= b.innings:
        assert b.runs[1] <= b.runs[0], f"home bats ahead {b.runs} in inning {b.inning}"
    # -- the decision
    legal = d.legal
    assert legal and list(legal) == sorted(set(legal)), f"{d.kind}: legal {legal} not sorted"
    assert all(0 <= a < rules.N_ACTIONS for a in legal)
    assert d.kind in rules.DECISION_KINDS
    actor = d.actor
    picks = [a - CREATURE for a in legal if a >= CREATURE]
    for k in picks:
        assert k < sizes[actor] and state.resting[actor][k] == 0, \
            f"{d.kind}: resting or unknown creature {k} offered to team {actor}"
    # who may come in: on the bench and rested; with re-entry also one who left, not hurt here
    available = tuple(CREATURE + k for k in range(sizes[actor])
                      if state.resting[actor][k] == 0 and (
                          state.status[actor][k] == BENCH or state.reentry
                          and state.status[actor][k] == GONE and not state.injured[actor][k]))
    if d.kind == "lineup":
        assert not state.started and actor == state.setup_team
        order = tuple(range(1, 11 if state.dh else 10))
        assert d.subject in order
        assert all(state.at(actor, p) >= 0 for p in order[:order.index(d.subject)])
        assert all(state.at(actor, p) < 0 for p in order[order.index(d.subject):])
        placed = set(state.fielders[actor])
        assert legal == tuple(CREATURE + k for k in range(sizes[actor])
                              if state.resting[actor][k] == 0 and k not in placed)
        if actor == 1:
            assert -1 not in state.lineup[0], "home sets his lineup before away is done"
        else:
            assert all(k < 0 for k in state.fielders[1])
        assert len(legal) >= 2
    elif d.kind == "batting_order":
        assert not state.started and actor == state.setup_team
        assert -1 not in state.fielders[actor][:10 if state.dh else 9]
        slot = d.subject
        assert 0 <= slot <= 7, "the last batting slot is filled by the engine"
        assert state.lineup[actor][slot] == -1 and -1 not in state.lineup[actor][:slot]
        bats = set(state.fielders[actor][1:10] if state.dh else state.fielders[actor][:9])
        assert set(picks) == bats - set(state.lineup[actor]) and len(legal) == len(picks) >= 2
    elif d.kind == "offense_sub":
        assert state.started and actor == bat and len(available) >= 1
        assert legal == (PASS,) + tuple(RUNNER + i for i in range(3) if b.bases[i] is not None) \
            + (PINCH_HIT,)
    elif d.kind == "defense_sub":
        assert state.started and actor == fld and len(available) >= 1
        assert legal == (PASS,) + tuple(POSITION + p for p in range(9))
    elif d.kind in ("substitute", "replace_injured"):
        assert state.started and legal == available and len(legal) >= 2
        assert state.status[actor][d.subject] == PLAYING
        if d.kind == "replace_injured":
            assert state.injured[actor][d.subject] > 0
            assert any(p.kind == "injury" and p.actor == d.subject and p.half == actor
                       and p.detail.startswith("games") for p in state.log.plays)
    elif d.kind == "steal":
        assert state.started and actor == bat
        tried = tried_this_batter(state)
        expect = tuple(RUNNER + i for i in (0, 1) if b.bases[i] is not None
                       and b.bases[i + 1] is None and b.bases[i] not in tried)
        assert expect and legal == (PASS,) + expect, (legal, b.bases, tried)
    elif d.kind == "bunt":
        assert state.started and actor == bat and legal == (PASS, YES)
        assert b.bases[2] is None and (b.bases[0] is not None or b.bases[1] is not None)
    elif d.kind == "tag_up":
        assert state.started and actor == bat and legal == (PASS, YES) and d.subject == 2
        assert b.bases[2] is not None
        last = state.log.plays[-1]
        assert last.kind == "pa" and last.detail == "FO" and last.base in (7, 8, 9), last
        assert last.actor == state.batter_creature()
    if state.started and d.kind in AFTER_INJURIES:
        # an injured creature still in the game stays only when nobody can replace him
        for t in (0, 1):
            hurt = [k for k in range(sizes[t]) if state.injured[t][k] and state.status[t][k] == PLAYING]
            assert not hurt or not state.available(t), \
                f"team {t}'s injured {hurt} were not replaced before the batter"


# -- checks at the end of a game -------------------------------------------------------------------
def check_game_final(state, tally: Counter, innings: list[list[int]] | None = None) -> None:
    b = state.board
    assert b.over and state.pending is None
    assert 0 <= b.outs <= 3
    need = 10 if state.dh else 9
    short = [t for t in (0, 1) if sum(r == 0 for r in state.resting[t]) < need]
    if not state.started and len(short) == 2:       # neither side can play: no game
        assert b.truncated and state.winner is None and b.runs == [0, 0] and state.forfeited == -1
        assert not state.log.plays
        tally["no_game"] += 1
        return
    if state.forfeited >= 0:
        assert short == [state.forfeited]
        loser = state.forfeited
        assert state.winner == 1 - loser and b.winner == 1 - loser and not b.truncated
        assert b.runs[1 - loser] == rules.FORFEIT_SCORE and b.runs[loser] == 0
        assert [sum(x) for x in b.line] == list(b.runs)
        assert not state.started and not state.log.plays
        tally["forfeit"] += 1
        return
    if b.truncated:
        assert b.max_innings is not None and b.inning == b.max_innings and b.runs[0] == b.runs[1]
        tally["truncated"] += 1
    else:
        assert b.winner in (0, 1) and b.runs[b.winner] > b.runs[1 - b.winner]
        assert b.max_innings is None or b.inning <= b.max_innings
    assert state.started and not short
    for t in (0, 1):
        check_hp(state, t)
    line, log = b.line, state.log.plays
    assert len(line[0]) == b.inning >= b.innings
    assert len(line[1]) in (b.inning - 1, b.inning)
    for t in (0, 1):
        runs = b.runs[t]
        assert sum(line[t]) == runs
        assert sum(x.r for x in state.box.lines[t]) == runs, "the batters' R vs the score"
        assert state.box.summary(b)["runs"][t] == runs
        assert sum(len(p.scored) for p in log if p.half == t) == runs, "the play log vs the score"
        for inning, r in enumerate(line[t], start=1):
            assert sum(len(p.scored) for p in log if p.half == t and p.inning == inning) == r
        for x in state.box.lines[t]:
            assert x.pa == len(x.marks)
        # the box score against the play log: plate appearances, hits, pitchers' lines
        pas = [p for p in log if p.kind == "pa" and p.half == t]
        assert sum(x.pa for x in state.box.lines[t]) == len(pas)
        assert state.box.hits[t] == sum(p.detail in HIT_CODES for p in pas)
        pitching = state.box.pitching[1 - t]
        assert sum(x.bf for x in pitching) == len(pas)
        assert sum(x.r for x in pitching) == runs, "runs charged to the pitchers vs the score"
        walkoff = t == 1 and not b.truncated and b.winner == 1 and len(line[1]) == b.inning
        outs = 3 * (len(line[t]) - 1) + b.outs if walkoff else 3 * len(line[t])
        assert sum(x.outs for x in pitching) == outs, "outs charged to the pitchers"
    # the home team never batted in the last inning or later while ahead
    for k in range(b.innings, len(line[1]) + 1):
        assert sum(line[0][:k]) >= sum(line[1][:k - 1]), f"home batted ahead in inning {k}: {line}"
    if b.inning > b.innings:
        assert sum(line[0][:-1]) == sum(line[1][:-1]), f"extra innings after no tie: {line}"
        tally["extra"] += 1
    if not b.truncated:
        w = b.winner
        lead = b.runs[w] - b.runs[1 - w]
        if w == 0:
            assert len(line[1]) == b.inning and b.outs == 0     # home made three outs
            tally["away"] += 1
        elif len(line[1]) == b.inning - 1:
            assert b.inning == b.innings, "home skips its half only in the last scheduled inning"
            tally["home_no_bottom"] += 1
        else:                                               # a walk-off
            assert b.outs < 3 and b.inning >= b.innings
            last = [p for p in log if p.scored][-1]
            assert last.half == 1 and last.inning == b.inning, last
            if last.kind == "pa" and last.detail == "HR":
                assert 1 <= lead <= 4
                tally["walkoff_hr"] += 1
                tally["walkoff_hr_big"] += lead > 1
            else:
                assert lead == 1, f"a walk-off by {last.kind}/{last.detail} won by {lead}"
                tally["walkoff"] += 1
    # innings pitched: the innings in which the creature faced a batter
    if innings is not None:
        assert [list(x) for x in state.innings_pitched] == innings, \
            f"innings pitched {state.innings_pitched} vs faced batters in {innings}"
    for t in (0, 1):
        assert state.starter[t] >= 0      # (he may be relieved before facing a batter)
        tally["six_innings"] += sum(ip >= 6 for ip in state.innings_pitched[t])
    for p in log:
        if p.kind == "injury":
            tally["injury_" + p.detail.split("-")[0]] += 1
        elif p.kind in ("tag_up", "tag_out", "steal_error", "caught_stealing"):
            tally[p.kind] += 1


# -- between the games of a series -----------------------------------------------------------------
def expected_rest(state, innings: list[list[int]]) -> list[list[int]]:
    """The readings' rest after a game, from its own counts: the longest of the games
    still owed less this one, the rest for the innings pitched (2+: 1, 4+: 2, 6+: 3; a
    starter at least 1) and the injury games."""
    out = []
    for t in (0, 1):
        team = []
        for k in range(len(state.teams[t].roster)):
            ip = innings[t][k]
            pitched = 3 if ip >= 6 else 2 if ip >= 4 else 1 if ip >= 2 else 0
            if state.starter[t] == k:
                pitched = max(pitched, 1)
            team.append(max(state.resting[t][k] - 1, 0, pitched, state.injured[t][k]))
        out.append(team)
    return out


def check_fresh_game(state) -> None:
    """A new game of a series: nothing of the last game but ``resting`` carries."""
    for t in (0, 1):
        n = len(state.teams[t].roster)
        assert state.hp_loss[t] == [0] * n, "HP lost in an earlier game did not come back"
        assert state.injured[t] == [0] * n and state.innings_pitched[t] == [0] * n
        if state.forfeited < 0:
            assert state.status[t] == [BENCH] * n
        assert all(state.hp(t, k) == max(10, state.creature(t, k).hp) for k in range(n))
    assert state.board.runs == [0, 0] or state.forfeited >= 0


def check_between(prev, new, series, skipped: list[dict], prev_innings, tally: Counter) -> None:
    """``new`` follows the finished game ``prev`` (after the forfeits in ``skipped``, games
    that were over before a pitch): its ``resting`` is ``games_to_rest`` of the chain."""
    rest = rules.games_to_rest(prev)
    assert rest == expected_rest(prev, prev_innings), (rest, expected_rest(prev, prev_innings))
    if prev.forfeited < 0:
        for t in (0, 1):
            assert rest[t][prev.starter[t]] >= 1, "the starting pitcher does not rest"
            for k, ip in enumerate(prev_innings[t]):
                if ip >= 6:
                    assert rest[t][k] == 3, f"{ip} innings pitched but rests {rest[t][k]}"
                    tally["rest_3"] += 1
                if prev.injured[t][k]:
                    assert rest[t][k] >= prev.injured[t][k]
                    tally["injury_carried"] += 1
    need = 10 if new.dh else 9
    for result in skipped:          # a game forfeited before it began: rest goes down by one
        short = [t for t in (0, 1) if sum(r == 0 for r in rest[t]) < need]
        assert short, f"a game {result} skipped with both teams able to play"
        if len(short) == 2:
            assert result == {"away": 0, "home": 0, "winner": None}
            tally["no_game"] += 1
        else:
            loser = short[0]
            assert result["winner"] == AGENTS[1 - loser]
            assert result[AGENTS[1 - loser]] == rules.FORFEIT_SCORE and result[AGENTS[loser]] == 0
            tally["forfeit"] += 1
        rest = [[max(r - 1, 0) for r in team] for team in rest]
    assert new.resting == rest, f"resting {new.resting} != games_to_rest {rest}"
    assert series.carry["resting"] == rest
    check_fresh_game(new)
    tally["next_game"] += 1
    tally["resting_creatures"] += sum(r > 0 for team in rest for r in team)


# -- one driver for single games and series --------------------------------------------------------
def play_checked(env, seed: int, choose: Callable[[Any], int], recorder: PitchRecorder,
                 tally: Counter, mask_every: int = 10) -> list:
    """Reset ``env`` (a raw env) with ``seed`` and play it out with ``choose``, checking every
    decision, every finished game and every switch to the next game of a series; every
    ``mask_every``-th decision also checks the mask and infos. Returns the finished games'
    states as ``(index in the series' results, state)`` (index 0 for a single game)."""
    game = env.unwrapped
    env.reset(seed=seed)
    series = game.series
    finished = []
    state = game.state_
    if series is not None:
        check_fresh_game(state)
    track = GameTrack(state)
    n = 0
    while state.pending is not None:
        check_invariants(state)
        check_decision(state, track)
        d = state.pending
        tally["kind_" + d.kind] += 1
        if n % mask_every == 0:
            mask = game.observe(AGENTS[d.actor])["action_mask"]
            assert tuple(np.flatnonzero(mask).tolist()) == d.legal
            assert not game.observe(AGENTS[1 - d.actor])["action_mask"].any()
            check_live_infos(env)
            for agent in AGENTS:
                obs = game.observe(agent)
                assert game.observation_space(agent).contains(obs), f"{agent}: out of bounds"
                view = game.view(agent)
                assert view.resting == tuple(tuple(r) for r in state.resting)
                assert view.hp == tuple(tuple(state.hp(t, k) for k in range(len(view.hp[t])))
                                        for t in (0, 1))
        results = 0 if series is None else len(series.results)
        env.step(choose(state))
        n += 1
        assert n < 20000, f"seed {seed}: a series that never ends"
        new = game.state_
        if new is not state or state.over:
            innings = recorder.innings(state)
            check_game_final(state, tally, innings)
            finished.append((results, state))
            tally["games"] += 1
            if new is not state:
                skipped = series.results[results + 1:]
                if new.over:        # the series ended on a game over before a pitch
                    skipped = skipped[:-1]
                    check_game_final(new, tally)
                    finished.append((len(series.results) - 1, new))
                check_between(state, new, series, skipped, innings, tally)
            state = new
            track = GameTrack(state)
    if series is None:
        contract_final(env)
    else:
        assert series.over and series.game == len(series.results)
        wins = series.wins
        for i, st in finished:
            result = series.results[i]
            assert [result["away"], result["home"]] == list(st.score)
            assert result["winner"] == (None if st.winner is None else AGENTS[st.winner])
        assert game.infos["away"]["series"]["over"] and game.infos["away"]["series"]["wins"] == \
            {"away": wins[0], "home": wins[1]}
        if series.best_of:
            assert max(wins) == series.length // 2 + 1
        else:
            assert len(series.results) == series.length
        winner = series.winner
        if winner is None:
            assert all(game.truncations.values()) and game.rewards == {"away": 0, "home": 0}
        else:
            assert game.rewards == {AGENTS[winner]: 1, AGENTS[1 - winner]: -1}
            assert all(game.terminations.values())
        tally["series"] += 1
    return finished


# -- the contract suite's random games -------------------------------------------------------------
STYLES = ("random", "pass", "random", "bold", "pass")


def random_game_checks(options, monkeypatch):
    """This ruleset's checks in the contract's random games (``test_contract.py``,
    ``test_invariants_over_random_games``): games between the case's teams, managed at
    random, passing most substitutions or boldly, under all the case's options (a saved game
    restores only into an env of its options; every pair of built-in teams plays in this
    module's own games); every decision checked by
    :func:`check_decision` and every game by :func:`check_game_final`, innings pitched
    against the batters each creature faced. Every decision kind, each way a game ends and
    games ending on either manager's move must come up."""
    recorder = PitchRecorder(monkeypatch)
    tally: Counter = Counter()
    kinds: Counter = Counter()
    last_movers, mover = set(), [None]
    track: list[GameTrack | None] = [None]
    # the env's own teams and options: a game restores only into an env of its options
    env = envs.make(ENV_ID, raw=True, **options)
    env.reset(seed=0)
    # with re-entry, managers who substitute at random never run out of substitutions (a
    # median of 1,852 decisions a game): these games pass most substitutions or play boldly
    reentry = env.game.reentry
    styles = ("pass", "bold") if reentry else STYLES

    def start(seed):
        rng = random.Random(seed)
        state = rules.new_game(*env.teams, Dice(seed), innings=env.innings,
                               max_innings=env.max_innings, dh=env.dh, edge=env.edge,
                               rest_by=env.rest_by, bench=env.bench, used_twice=env.used_twice)
        track[0] = GameTrack(state)
        return state, chooser(styles[seed % len(styles)], rng)

    def decision(state):
        if track[0] is None or track[0].state is not state:
            track[0] = GameTrack(state)
        check_decision(state, track[0])
        kinds[state.pending.kind] += 1
        mover[0] = state.pending.actor

    def final(state, info):
        check_game_final(state, tally, recorder.innings(state))
        if track[0] is not None and track[0].state is state:
            tally["reentry"] += track[0].reentries
        last_movers.add(mover[0])
        tally["games"] += 1

    def done():
        assert set(kinds) == set(rules.DECISION_KINDS), kinds
        assert last_movers == {0, 1}
        assert recorder.count > 40 * tally["games"]
        for k in ("away", "home_no_bottom", "walkoff", "walkoff_hr", "extra", "six_innings",
                  "injury_games", "injury_hp", "tag_up", "tag_out", "caught_stealing"):
            assert tally[k] > 0, (k, tally)
        if reentry and options.get("series") is None:
            assert tally["reentry"] > 0, tally

    # a series env restores SeriesGames, not game states: its games are the env's own
    return GameChecks(start=None if options.get("series") is not None else start,
                      decision=decision, final=final, done=done)


# -- this module's own games -------------------------------------------------------------------------
def test_thousand_random_games_keep_the_invariants(monkeypatch):
    """1,000 single games: every ordered pair of built-in teams, DH on and off, both edge
    readings, random, passing and bold managers; every decision, every game end and
    innings pitched checked."""
    recorder = PitchRecorder(monkeypatch)
    tally: Counter = Counter()
    configs = [(pair, dh, edge) for pair in PAIRS for dh in (False, True)
               for edge in ("ge", "gt")]
    env_of = {}
    n_games = games(1000, 300)
    for seed in range(n_games):
        pair, dh, edge = configs[seed % len(configs)]
        key = (pair, dh, edge)
        if key not in env_of:
            env_of[key] = envs.make(ENV_ID, raw=True, teams=pair, dh=dh, edge=edge)
        rng = random.Random(7919 * seed + 1)
        play_checked(env_of[key], seed, chooser(STYLES[seed % len(STYLES)], rng), recorder, tally)
    assert tally["games"] == n_games
    assert recorder.count > 50 * n_games
    for kind in rules.DECISION_KINDS:
        assert tally["kind_" + kind] > 0, (kind, tally)
    for k in ("away", "home_no_bottom", "walkoff", "walkoff_hr", "walkoff_hr_big", "extra",
              "six_innings", "injury_games", "injury_hp", "injury_none", "tag_up", "tag_out",
              "steal_error", "caught_stealing"):
        assert tally[k] > 0, (k, tally)


def test_random_series_keep_the_invariants(monkeypatch):
    """150 series (exactly five games, and best of three), DH on and off, random, passing
    and bold managers: every decision and game checked, and between games the rest each
    creature carries (``games_to_rest``, recomputed from the innings each creature was seen
    pitching), HP and injuries reset, rewards only at the series' end."""
    recorder = PitchRecorder(monkeypatch)
    tally: Counter = Counter()
    configs = [(series, dh) for series in ({"games": 5}, 3) for dh in (False, True)]
    envs_ = [envs.make(ENV_ID, raw=True, teams=PAIRS[i % len(PAIRS)], series=s, dh=dh)
             for i, (s, dh) in enumerate(configs)]
    n_series = games(150, 50)
    for seed in range(n_series):
        env = envs_[seed % len(envs_)]
        rng = random.Random(104729 * seed + 3)
        play_checked(env, seed, chooser(STYLES[seed % len(STYLES)], rng), recorder, tally,
                     mask_every=4)
    assert tally["series"] == n_series
    assert tally["next_game"] >= 2 * n_series
    for k in ("rest_3", "injury_carried", "resting_creatures", "six_innings", "injury_games",
              "kind_replace_injured"):
        assert tally[k] > 0, (k, tally)


def _small_team(name: str, size: int) -> dict:
    """A built-in team cut down to its first ``size`` creatures (lineup and rotation drawn
    from them)."""
    team = TEAMS[name].to_dict()
    keep = team["roster"][:size]
    return {"name": f"{team['name']} {size}", "roster": keep,
            "lineup": [{"creature": cid, "position": p}
                       for cid, p in zip(keep, ("P", "C", "1B", "2B", "3B", "SS", "LF", "CF", "RF"))],
            "rotation": keep[:1],
            "creatures": [c for c in team["creatures"] if c["id"] in keep]}


def test_series_with_short_rosters_forfeit_and_carry_rest(monkeypatch):
    """Nine- and ten-creature rosters cannot field nine rested creatures after a game in
    which their starter (or two pitchers) pitched: such a game is forfeited 9-0 by the short
    side, before a pitch, and rest keeps counting down through it."""
    recorder = PitchRecorder(monkeypatch)
    tally: Counter = Counter()
    for i, (sizes, dh) in enumerate((((9, 17), False), ((17, 10), False), ((10, 11), True),
                                     ((9, 9), False))):
        teams = (_small_team("harbor", sizes[0]), _small_team("summit", sizes[1]))
        env = envs.make(ENV_ID, raw=True, teams=teams, series={"games": 5}, dh=dh)
        for seed in range(6):
            rng = random.Random(seed)
            play_checked(env, 100 * i + seed, chooser(("pass", "random")[seed % 2], rng),
                         recorder, tally, mask_every=1)
    assert tally["forfeit"] > 0 and tally["series"] == 24, tally
