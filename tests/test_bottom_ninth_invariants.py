"""Invariants of Bottom of the 9th over thousands of random games, and the blank-cards test.

:func:`random_game_checks` adds these checks to the contract suite's random games
(``test_contract.py``); the tests below run them on the sample set too. What must hold at
every decision: the count within 0-3 balls and 0-2 strikes, outs 0-2, a runner on one base
at most and never the batter at the plate, the fatigue tokens within the track (and below
the ceiling's row never), the committed pitch hidden from home, the decision's actor. At
the end: the game ended exactly at the first run (home) or the third out (away, 0-0).
"""

from __future__ import annotations

import random

import pytest

from dugout.envs import bottom_ninth_v0
from dugout.envs.bottom_ninth import rules

from helpers import GameChecks, games, random_games
from test_bottom_ninth_cards import blank_cards, sample_cards

ACTORS = {"draft_pick": None, "draft_order": None, "select_batter": 1, "select_pitcher": 0,
          "pitch": 0, "guess": 1, "pitcher_ability": 0, "batter_ability": 1, "relief": 0,
          "pitching_change": 0}


def check_decision(state):
    b = state.board
    d = state.pending
    assert not b.over and 0 <= b.outs <= 2
    assert 0 <= state.balls <= 3 and 0 <= state.strikes <= 2
    runners = [r for r in b.bases if r is not None]
    assert len(runners) == len(set(runners))
    if ACTORS[d.kind] is not None:
        assert d.actor == ACTORS[d.kind]
    if state.pitcher >= 0:
        assert state.batter_card == state.lineup[state.order[1]]
        assert state.order[1] not in runners, "the batter at the plate is on base"
        for row in state.fatigue:
            assert state.ceiling <= row <= state.fatigue_rows - 1
        assert b.runs == [0, 0]
    assert (state.secret >= 0) == (d.kind == "guess")
    if d.kind in ("pitcher_ability", "batter_ability"):
        assert rules.DONE in d.legal and len(d.legal) >= 2
    if d.kind == "relief":
        assert len(d.legal) >= 2


def check_end(state, tally):
    b = state.board
    assert b.over and state.pending is None and b.winner in (0, 1)
    outs = sum(p.outs for p in state.box.pitching[0])
    last = state.log.plays[-1]
    if b.winner == 1:
        assert b.runs[1] >= 1 and b.runs[0] == 0 and last.scored and outs <= 2
        assert b.runs[1] == 1 or last.detail == "HR"
    else:
        assert b.runs == [0, 0] and outs == 3
    pas = [p for p in state.log.plays if p.kind == "pa"]
    assert len(pas) == state.pa <= 6
    tally[b.winner] += 1


GAME_ROLES = {"pitch": 0, "guess": 1, "pitcher_ability": 0, "batter_ability": 1, "relief": 0,
              "pitching_change": 0, "fatigue_split": 0, "double_switch": 0, "double_switch_slot": 0,
              "pinch_hit": 1}


def check_game_decision(state):
    """The longer game: roles follow the half inning, the lineups keep one player per
    position (the eight who are not the pitcher), the pitcher bats in his slot, a removed
    pitcher never returns, the fatigue tokens within the track."""
    from dugout.envs.bottom_ninth.cards import matching_size
    b = state.board
    d = state.pending
    cs = state.cards
    assert not b.over and 0 <= b.outs <= 2
    assert 0 <= state.balls <= 3 and 0 <= state.strikes <= 2
    runners = [r for r in b.bases if r is not None]
    assert len(runners) == len(set(runners))
    if d.kind in GAME_ROLES:
        assert d.actor == state.seat_of(GAME_ROLES[d.kind]), d.kind
    if state.pitcher >= 0:
        assert state.pitcher == state.mound[b.fielding]
        assert state.pitcher not in state.removed
        for t in (0, 1):
            lineup = state.lineups[t]
            assert len(lineup) == 9 and lineup[state.pslot[t]] == state.mound[t]
            assert matching_size([cs.card(c).eligible for j, c in enumerate(lineup)
                                  if j != state.pslot[t]]) == 8
            assert not set(lineup) & set(state.benches[t])
        assert state.runner_id() not in runners, "the batter at the plate is on base"
        for row in state.fatigue:
            assert state.ceiling <= row <= state.fatigue_rows - 1
    assert (state.secret >= 0) == (d.kind == "guess")
    if d.kind in ("pitcher_ability", "batter_ability"):
        assert rules.DONE in d.legal and len(d.legal) >= 2


def check_game_end(state, tally):
    b = state.board
    assert b.over and state.pending is None
    if b.truncated:
        assert b.runs[0] == b.runs[1]
        return
    assert b.winner in (0, 1) and b.runs[b.winner] > b.runs[1 - b.winner]
    assert b.inning >= b.innings
    tally[b.winner] += 1


def random_game_checks(options, monkeypatch):
    """The contract's random games: every decision checked by :func:`check_decision`, every
    end by :func:`check_end`; both sides must win some."""
    tally = [0, 0]
    if options.get("extra_innings") or options.get("condition"):
        # the duel's checks below are the sudden-death half inning's (away pitching, 0-0,
        # nobody out): the tenth inning and the Condition Cards change that, and their own
        # tests (test_bottom_ninth_tenth.py, test_bottom_ninth_conditions.py) check them
        return GameChecks()
    if options.get("mode") == "game":
        return GameChecks(decision=check_game_decision, final=lambda s, info: check_game_end(s, tally),
                          done=lambda: min(tally) > 0 or pytest.fail(f"wins {tally}"))
    return GameChecks(decision=check_decision, final=lambda s, info: check_end(s, tally),
                      done=lambda: min(tally) > 0 or pytest.fail(f"wins {tally}"))


@pytest.mark.parametrize("options", [
    {}, {"teams": "choose"}, {"teams": "choose", "draft": True}, {"out_rule": "batter"},
    {"fatigue_rows": 3, "pitch_faces": {"B": 1, "S": 4, "C": 1}}])
def test_invariants_over_random_games_with_the_sample_set(options):
    tally = [0, 0]
    checks = GameChecks(decision=check_decision, final=lambda s, info: check_end(s, tally))
    for _ in random_games("bottom_ninth_v0", range(games(1500, 200)), {"cards": sample_cards(), **options},
                          checks):
        pass
    assert min(tally) > 0


def outcomes(policy, seed, cards):
    """A blank-cards game under ``policy(state, rng) -> action``: the plate appearances."""
    env = bottom_ninth_v0.raw_env(cards=cards)
    env.reset(seed=seed)
    rng = random.Random(seed * 7 + 1)
    while env.game.pending is not None:
        env.step(policy(env.game, rng))
    return [(p.kind, p.detail, p.before, p.after) for p in env.game.log.plays if p.kind == "pa"], \
        env.game.winner


def always_first(state, rng):
    return state.pending.legal[0]


def random_policy(state, rng):
    return rng.choice(state.pending.legal)


def test_blank_cards_outcomes_do_not_depend_on_the_stare_down():
    """With no abilities and no traits the stare-down decides nothing: the dice are keyed by
    (half, at-bat, pitch), so two policies see identical plate appearances, game by game."""
    cards = blank_cards()
    wins = [0, 0]
    for seed in range(400):
        a = outcomes(always_first, seed, cards)
        b = outcomes(random_policy, seed, cards)
        assert a == b, f"seed {seed}"
        wins[a[1]] += 1
    assert min(wins) > 0


def test_out_rules_differ():
    """The same seeds under the two out rules: some game is decided differently."""
    differ = 0
    for seed in range(300):
        runs = []
        for rule in ("lead_runner", "batter"):
            env = bottom_ninth_v0.raw_env(cards=blank_cards(), out_rule=rule)
            env.reset(seed=seed)
            while env.game.pending is not None:
                env.step(env.game.pending.legal[0])
            runs.append([p.detail for p in env.game.log.plays if p.kind == "pa"])
        differ += runs[0] != runs[1]
    assert differ > 0
