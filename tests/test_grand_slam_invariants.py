"""Invariants of Harry's Grand Slam Baseball over thousands of random games, checked after
every decision and at the end of each game. The thousands of games are the contract suite's
random games (``test_contract.py``), to which :func:`random_game_checks` adds these checks.

What must hold:

* every card is somewhere: draw pile + both hands + PH/RP stacks (the face-up card and the
  one beneath) + bases + behind home plate + discards is the whole deck, card for card;
* hands hold three cards at every decision; a manager has at most four stacks;
* outs stay below 3 while a decision is pending; each base holds one runner at most, a
  runner stands on one base, is never the batter at the plate, and has his card;
* the cards behind home plate are the outs of this half inning (a runner doubled up
  brings his own card);
* runs agree everywhere: scoreboard, line score, the batters' R, the play log;
* the decision is the batting manager's or the fielding manager's play, its legal actions
  exactly the card types in his hand and his stacks, with at least two of them;
* the draw pile is rebuilt from the discards only between shuffles, and every game ends
  with a winner who has more runs (walk-offs by one run unless on a home run).
"""

from __future__ import annotations

import random

import pytest

from dugout.envs.core import Dice
from dugout.envs.grand_slam import rules
from dugout.envs.grand_slam.cards import MAX_STACKS, N_HAND_TYPES, PINCH_HITTER, REFERENCE_COUNTS

from helpers import GameChecks, play_engine

HIT_CODES = {"1B", "2B", "3B", "HR"}


_LOG_RUNS: dict = {"plays": None, "seen": 0, "runs": [0, 0]}


def runs_in_log(plays) -> list[int]:
    """Runs scored in the play log, per team: added up as the log grows (it only grows
    during a game), so a check at every decision stays linear; :func:`check_final` adds the
    whole log up again at the end."""
    memo = _LOG_RUNS
    if memo["plays"] is not plays or memo["seen"] > len(plays):
        memo.update(plays=plays, seen=0, runs=[0, 0])
    runs = memo["runs"]
    for p in plays[memo["seen"]:]:
        runs[p.half] += len(p.scored)
    memo["seen"] = len(plays)
    return runs


def check_decision_point(state):
    b = state.board
    d = state.pending
    assert d is not None and not b.over
    assert state.card_census() == list(state.counts), "cards went missing or were doubled"
    assert 0 <= b.outs < 3
    # hands and stacks
    for seat in (0, 1):
        assert sum(state.hands[seat]) == rules.HAND_SIZE
        assert state.hands[seat][PINCH_HITTER] == 0, "a PH/RP card in a hand"
        assert len(state.stacks[seat]) <= MAX_STACKS
    # bases
    runners = [r for r in b.bases if r is not None]
    assert len(runners) == len(set(runners)), f"a runner on two bases: {b.bases}"
    assert state.batter not in runners
    carded = {slot for slot, c in enumerate(state.runner_cards) if c is not None}
    assert carded == set(runners), "every runner, and only a runner, has a card on base"
    assert all(state.runner_cards[r] != PINCH_HITTER for r in runners)
    # the cards behind home plate: one per out (a runner doubled up brings his own card)
    assert len(state.outs_pile) == b.outs
    # runs
    for team in (0, 1):
        assert sum(b.line[team]) == b.runs[team]
        assert sum(x.r for x in state.box.lines[team]) == b.runs[team]
    assert runs_in_log(state.log.plays) == b.runs
    assert len(b.line[0]) == b.inning and len(b.line[1]) == b.inning - 1 + b.half
    if b.half == 1 and b.inning >= b.innings:
        assert b.runs[1] <= b.runs[0]
    # the decision
    expected_kind = "batting_play" if d.actor == b.batting else "fielding_play"
    assert d.kind == expected_kind
    hand = state.hands[d.actor]
    legal = tuple(c for c in range(N_HAND_TYPES) if hand[c]) + tuple(
        rules.STACK_ACTION + i for i in range(len(state.stacks[d.actor])))
    assert d.legal == legal and len(legal) >= 2
    # the shuffle schedule
    assert state.stretch == (b.inning - 1) // 3


def check_final(state, tally):
    b = state.board
    assert b.over and state.pending is None and not b.truncated
    assert state.card_census() == list(state.counts)
    w = b.winner
    assert w in (0, 1) and b.runs[w] > b.runs[1 - w]
    assert b.outs < 3
    log = state.log.plays
    for team in (0, 1):
        assert sum(b.line[team]) == b.runs[team]
        lines = state.box.lines[team]
        assert sum(x.r for x in lines) == b.runs[team]
        assert state.box.summary(b)["runs"][team] == b.runs[team]
        assert sum(len(p.scored) for p in log if p.half == team) == b.runs[team]
        pas = [p for p in log if p.kind == "pa" and p.half == team]
        assert sum(p.detail in HIT_CODES for p in pas) == state.box.hits[team]
        for slot, x in enumerate(lines):
            sh = sum(1 for _, code in x.marks if code == "SH")
            assert x.ab + x.bb + x.hbp + x.sf + sh == x.pa
            assert x.pa == sum(p.actor == slot for p in pas)
    assert len(state.played_by) == len(log)
    if b.inning > b.innings:
        assert sum(b.line[0][:-1]) == sum(b.line[1][:-1])
        tally["extra"] += 1
    if w == 1 and len(b.line[1]) == b.inning:
        # the home team won in its own half: a walk-off, the game ended on the winning play
        last = log[-1]
        assert last.half == 1 and last.inning == b.inning >= b.innings and last.scored
        if last.kind == "pa" and last.detail == "HR":
            assert 1 <= b.runs[1] - b.runs[0] <= 4
        else:
            assert b.runs[1] - b.runs[0] == 1
        tally["walkoff"] += 1
    tally[("away", "home")[w]] += 1


def random_game_checks(options, monkeypatch):
    """This ruleset's checks in the contract's random games (``test_contract.py``,
    ``test_invariants_over_random_games``): random play that prefers a PH/RP stack now and
    then, so stacks are played often enough to check; every decision checked by
    :func:`check_decision_point`, every game by :func:`check_final`; wins for both sides,
    extra innings, walk-offs, stack plays, a second PH/RP, double plays, runner cards,
    stacks on the table at a shuffle and games ending on either manager's card must all come
    up."""
    tally = {"away": 0, "home": 0, "extra": 0, "walkoff": 0}
    seen = {"stack_play": 0, "second_ph": 0, "dp": 0, "runner_card": 0, "stacks_at_shuffle": 0}
    stretch, decisions, mover, last_movers = [0], [0], [None], set()

    def start(seed):
        rng = random.Random(seed)
        stretch[0] = decisions[0] = 0

        def choose(state):
            legal = state.pending.legal
            stack_moves = [a for a in legal if a >= rules.STACK_ACTION]
            return rng.choice(stack_moves) if stack_moves and rng.random() < 0.3 else rng.choice(legal)

        return rules.new_game(Dice(seed)), choose

    def shuffled(state):
        if state.stretch != stretch[0]:
            stretch[0] = state.stretch
            seen["stacks_at_shuffle"] += bool(state.stacks[0] or state.stacks[1])

    def decision(state):
        shuffled(state)
        check_decision_point(state)
        decisions[0] += 1
        assert decisions[0] < 2000, "a game that never ends"
        mover[0] = state.pending.actor

    def final(state, info):
        shuffled(state)
        check_final(state, tally)
        last_movers.add(mover[0])
        for p in state.log.plays:
            seen["stack_play"] += p.kind in ("pinch_hitter", "relief_pitcher")
            seen["second_ph"] += p.kind in ("pinch_hitter", "relief_pitcher") and p.roll == PINCH_HITTER
            seen["dp"] += p.detail == "DP"
            seen["runner_card"] += p.kind in ("wild_pitch", "passed_ball", "stolen_base", "balk")

    def done():
        assert all(tally.values()), tally
        assert all(seen.values()), seen
        # a game ends on either manager's card (the contract checks who is asked first then)
        assert last_movers == {0, 1}

    return GameChecks(start=start, decision=decision, final=final, done=done)


@pytest.mark.parametrize("innings, max_innings", [(1, 1), (2, 4)])
def test_invariants_short_games_and_truncation(innings, max_innings):
    truncated = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = rules.new_game(Dice(seed), innings=innings, max_innings=max_innings)
        play_engine(state, rules.apply_action, lambda s: rng.choice(s.pending.legal),
                    on_decision=check_decision_point)
        b = state.board
        assert b.inning <= max_innings
        assert state.card_census() == list(REFERENCE_COUNTS)
        if b.truncated:
            truncated += 1
            assert b.winner is None and b.runs[0] == b.runs[1] and b.inning == max_innings
    assert truncated > 0
