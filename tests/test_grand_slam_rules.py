"""Harry's Grand Slam Baseball card by card, from set-up situations.

Each test builds a game at a chosen moment (hands, bases, outs, the draw pile stacked
top first), lets a manager play one card through ``apply_action`` and checks what the
Card Reference says happens: runners, runs, outs, where the cards went, the box score.
Also: the deck, dealing, PH/RP stacks, the shuffles, walk-offs and running out of cards.
"""

from __future__ import annotations

import random

import pytest

from dugout.envs.core import Dice, IllegalActionError, Scoreboard, ScriptedDice
from dugout.envs.core.errors import DataError
from dugout.envs.core.scorebook import BoxScore, PlayLog
from dugout.envs.grand_slam import rules
from dugout.envs.grand_slam.cards import (BALK, BOX_CARD_COUNT, CARD_NAMES, CARD_TYPES, DOUBLE,
                                          DOUBLE_PLAY, ERROR, FLY_OUT, GROUND_OUT, HIT_BY_PITCH,
                                          HOME_RUN, N_TYPES, PASSED_BALL, PINCH_HITTER,
                                          REFERENCE_COUNTS, SACRIFICE_BUNT, SINGLE, STOLEN_BASE,
                                          STRIKE_OUT, TRIPLE, WALK, WILD_PITCH, deck_from_counts,
                                          load_deck)
from dugout.envs.grand_slam.rules import STACK_ACTION, apply_action

AWAY, HOME = 0, 1
BATTER = 0                       # the batter at the plate in every situation
RUNNER_SLOTS = (8, 7, 6)         # who stands on first, second, third


# -- building situations ------------------------------------------------------------------
def situation(hand=(SINGLE, STRIKE_OUT, GROUND_OUT), other=(STRIKE_OUT, GROUND_OUT, WALK),
              bases=(None, None, None), outs=0, inning=1, half=0, runs=(0, 0),
              stacks=((), ()), deck_top=(), discards=(), step="bat", innings=9):
    """A game with the manager named by ``step`` to play.

    ``hand`` is the hand of the manager to act (the batting manager when ``step`` is
    "bat", the fielding one when "field"), ``other`` the other manager's; ``bases`` gives
    the card under each runner (or None); ``stacks[seat]`` the face-down cards under that
    manager's PH/RP cards. The draw pile is ``deck_top`` then the rest of the deck in code
    order; ``discards`` go to the discard pile. Shuffles keep their order (scripted dice).
    """
    left = list(REFERENCE_COUNTS)

    def take(card):
        left[card] -= 1
        assert left[card] >= 0, f"no {CARD_NAMES[card]} left to set up"
        return card

    actor = half if step == "bat" else 1 - half
    hands = [[0] * N_TYPES, [0] * N_TYPES]
    for seat, cards in ((actor, hand), (1 - actor, other)):
        for c in cards:
            hands[seat][take(c)] += 1
    stack_lists = [[take(c) for c in stacks[0]], [take(c) for c in stacks[1]]]
    for _ in range(len(stacks[0]) + len(stacks[1])):
        take(PINCH_HITTER)
    runner_cards = [None] * 9
    board_bases = []
    for i, c in enumerate(bases):
        if c is None:
            board_bases.append(None)
        else:
            runner_cards[RUNNER_SLOTS[i]] = take(c)
            board_bases.append(RUNNER_SLOTS[i])
    pile = [0] * N_TYPES
    for c in discards:
        pile[take(c)] += 1
    top = [take(c) for c in deck_top]
    board = Scoreboard(innings=innings)
    board.inning, board.half, board.outs = inning, half, outs
    board.bases = tuple(board_bases)
    board.runs = list(runs)
    board.line = [[0] * (inning - 1) + [runs[0]], [0] * (inning - 1 + half)]
    if half == 1:
        board.line[1][-1] = runs[1]
    elif inning > 1:
        board.line[1][0] = runs[1]
    names = [(n, str(i + 1)) for i, n in enumerate(rules.BATTER_NAMES)]
    state = rules.GameState(
        board=board, dice=ScriptedDice([]), box=BoxScore(list(rules.TEAM_NAMES), [names, names]),
        log=PlayLog(), counts=REFERENCE_COUNTS, deck=top + deck_from_counts(left), hands=hands,
        stacks=stack_lists, discards=pile, runner_cards=runner_cards, order=[BATTER, BATTER],
        step=step)
    assert state.card_census() == list(REFERENCE_COUNTS)
    rules.run(state)
    return state


def play(state, action, actor=None):
    d = state.pending
    assert d is not None, "no decision pending"
    if actor is not None:
        assert d.actor == actor, f"seat {d.actor} is to act, expected {actor}"
    assert action in d.legal, f"{action} not in {d.legal}"
    apply_action(state, action)
    assert state.card_census() == list(REFERENCE_COUNTS), "a card went missing"
    return state


def bases(state):
    return state.board.bases


def batter_line(state, team=AWAY, slot=BATTER):
    return state.box.lines[team][slot]


R1, R2, R3 = RUNNER_SLOTS


# -- the deck ------------------------------------------------------------------------------
def test_deck_is_the_card_reference():
    expected = {"single": 6, "double": 3, "triple": 2, "home_run": 2, "walk": 3,
                "hit_by_pitch": 1, "error": 2, "ground_out": 10, "strike_out": 11, "fly_out": 3,
                "sacrifice_bunt": 2, "double_play": 2, "wild_pitch": 1, "passed_ball": 1,
                "stolen_base": 1, "balk": 1, "pinch_hitter": 4}
    assert dict(zip(CARD_NAMES, REFERENCE_COUNTS)) == expected
    assert sum(REFERENCE_COUNTS) == 55 == BOX_CARD_COUNT + 1     # the box says 54 (RULES.md)
    assert [c.group for c in CARD_TYPES].count("runner") == 4
    assert load_deck() == load_deck("reference") == REFERENCE_COUNTS
    state = rules.new_game(Dice(1))
    assert state.card_census() == list(REFERENCE_COUNTS)


@pytest.mark.parametrize("spec, words", [
    ({"single": -1}, ["'single'", "non-negative", "-1"]),
    ({"single": 2.5}, ["'single'", "2.5"]),
    ({"single": True}, ["'single'", "True"]),
    ({"homer": 2}, ["unknown card", "homer"]),
    ({"pinch_hitter": 5, "single": 40}, ["pinch_hitter", "at most 4"]),
    ({"single": 40}, ["out card"]),
    ({"single": 10, "strike_out": 5}, ["at least 20", "15"]),
    ([1, 2, 3], ["deck", "list"]),
    (42, ["deck", "int"]),
])
def test_bad_decks_raise_data_error_naming_the_problem(spec, words):
    with pytest.raises(DataError) as err:
        load_deck(spec)
    for w in words:
        assert w in str(err.value), (w, str(err.value))


def test_deck_from_a_json_file(tmp_path):
    counts = dict(zip(CARD_NAMES, REFERENCE_COUNTS))
    counts["strike_out"] = 10                  # a 54-card box
    path = tmp_path / "deck.json"
    path.write_text(__import__("json").dumps(counts), encoding="utf-8")
    assert sum(load_deck(str(path))) == 54
    bad = tmp_path / "bad.json"
    bad.write_text('{"single": "six"}', encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_deck(bad)
    assert str(bad) in str(err.value) and "'single'" in str(err.value)
    with pytest.raises(DataError, match="does not exist"):
        load_deck(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(DataError, match="JSON"):
        load_deck(broken)


def test_stacked_deck_must_match_the_card_set():
    with pytest.raises(ValueError, match="card set"):
        rules.new_game(ScriptedDice([]), deck=[SINGLE] * 55)


def test_opening_deal_alternates_and_sets_pinch_hitters_aside():
    # top of the deck: away, home, away, home, away, home (a PH/RP dealt to home is put on
    # the table with the next card face down under it, and home is dealt again)
    top = [SINGLE, STRIKE_OUT, DOUBLE, PINCH_HITTER, HOME_RUN, GROUND_OUT, WALK, FLY_OUT]
    left = list(REFERENCE_COUNTS)
    for c in top:
        left[c] -= 1
    state = rules.new_game(ScriptedDice([]), deck=top + deck_from_counts(left))
    assert state.stacks == [[], [HOME_RUN]]
    away = [c for c in range(N_TYPES) for _ in range(state.hands[AWAY][c])]
    home = [c for c in range(N_TYPES) for _ in range(state.hands[HOME][c])]
    assert sorted(away) == sorted([SINGLE, DOUBLE, WALK])
    assert sorted(home) == sorted([STRIKE_OUT, GROUND_OUT, FLY_OUT])
    assert len(state.deck) == 55 - 8
    assert state.pending.kind == "batting_play" and state.pending.actor == AWAY
    assert state.pending.legal == (SINGLE, DOUBLE, WALK)


# -- ON-BASE CARDS ----------------------------------------------------------------------------
def test_single_moves_every_runner_one_base():
    s = situation(hand=(SINGLE, STRIKE_OUT, GROUND_OUT), bases=(WALK, None, DOUBLE))
    play(s, SINGLE, AWAY)
    assert bases(s) == (BATTER, R1, None)
    assert s.score == (1, 0) and s.board.outs == 0
    assert s.runner_cards[BATTER] == SINGLE and s.runner_cards[R1] == WALK
    assert s.discards[DOUBLE] == 1 and s.runner_cards[R3] is None   # the scoring runner's card
    line = batter_line(s)
    assert (line.h, line.ab, line.rbi) == (1, 1, 1)
    assert s.box.lines[AWAY][R3].r == 1
    assert s.pending.kind == "fielding_play" and s.pending.actor == HOME


def test_double_scores_second_and_third_and_sends_first_to_third():
    s = situation(hand=(DOUBLE, STRIKE_OUT, GROUND_OUT), bases=(SINGLE, WALK, ERROR))
    play(s, DOUBLE)
    assert bases(s) == (None, BATTER, R1)
    assert s.score == (2, 0) and batter_line(s).rbi == 2 and batter_line(s).doubles == 1


def test_triple_scores_every_runner():
    s = situation(hand=(TRIPLE, STRIKE_OUT, GROUND_OUT), bases=(SINGLE, WALK, None))
    play(s, TRIPLE)
    assert bases(s) == (None, None, BATTER) and s.score == (2, 0)
    assert s.runner_cards[BATTER] == TRIPLE


def test_home_run_scores_everyone_and_is_discarded():
    s = situation(hand=(HOME_RUN, STRIKE_OUT, GROUND_OUT), bases=(SINGLE, WALK, ERROR))
    play(s, HOME_RUN)
    assert bases(s) == (None, None, None) and s.score == (4, 0)
    assert s.runner_cards == [None] * 9
    assert s.discards[HOME_RUN] == 1 and s.discards[SINGLE] == 1 and s.discards[ERROR] == 1
    assert batter_line(s).hr == 1 and batter_line(s).rbi == 4 and batter_line(s).r == 1


@pytest.mark.parametrize("card, code", [(WALK, "BB"), (HIT_BY_PITCH, "HBP")])
@pytest.mark.parametrize("before, after, runs", [
    ((None, None, None), (BATTER, None, None), 0),
    ((None, SINGLE, None), (BATTER, R2, None), 0),          # second not forced: stays
    ((None, None, SINGLE), (BATTER, None, R3), 0),
    ((None, SINGLE, SINGLE), (BATTER, R2, R3), 0),
    ((SINGLE, None, SINGLE), (BATTER, R1, R3), 0),          # only the runner on first moves
    ((SINGLE, SINGLE, None), (BATTER, R1, R2), 0),
    ((SINGLE, SINGLE, SINGLE), (BATTER, R1, R2), 1),        # bases loaded: a run is forced in
])
def test_walk_and_hit_by_pitch_move_only_forced_runners(card, code, before, after, runs):
    s = situation(hand=(card, STRIKE_OUT, GROUND_OUT), bases=before)
    play(s, card)
    assert bases(s) == after and s.score == (runs, 0)
    assert s.runner_cards[BATTER] == card
    line = batter_line(s)
    assert line.ab == 0 and line.rbi == runs and line.marks == [(1, code)]


def test_error_moves_every_runner_without_an_rbi():
    s = situation(hand=(ERROR, STRIKE_OUT, GROUND_OUT), bases=(None, WALK, SINGLE))
    play(s, ERROR)
    assert bases(s) == (BATTER, None, R2) and s.score == (1, 0)
    assert s.box.errors == [0, 1] and batter_line(s).rbi == 0 and batter_line(s).ab == 1
    assert batter_line(s).h == 0


# -- OUT CARDS ---------------------------------------------------------------------------------
@pytest.mark.parametrize("card, code", [(GROUND_OUT, "GO"), (STRIKE_OUT, "SO")])
def test_ground_out_and_strike_out_move_nobody(card, code):
    s = situation(hand=(card, WALK, SINGLE), bases=(SINGLE, WALK, DOUBLE), outs=1)
    play(s, card)
    assert bases(s) == (R1, R2, R3) and s.board.outs == 2 and s.score == (0, 0)
    assert s.outs_pile == [card] and batter_line(s).marks == [(1, code)]


@pytest.mark.parametrize("outs", [0, 1])
def test_fly_out_with_a_runner_on_third_and_less_than_two_outs_is_a_sacrifice_fly(outs):
    s = situation(hand=(FLY_OUT, WALK, SINGLE), bases=(SINGLE, None, DOUBLE), outs=outs)
    play(s, FLY_OUT)
    assert bases(s) == (R1, None, None) and s.board.outs == outs + 1 and s.score == (1, 0)
    line = batter_line(s)
    assert line.marks == [(1, "SF")] and line.rbi == 1 and line.ab == 0 and line.sf == 1


def test_fly_out_with_two_outs_ends_the_inning_without_a_run():
    s = situation(hand=(FLY_OUT, WALK, SINGLE), bases=(None, None, DOUBLE), outs=2)
    play(s, FLY_OUT)
    assert s.score == (0, 0) and s.board.half == 1 and s.board.outs == 0
    assert s.discards[DOUBLE] == 1 and s.discards[FLY_OUT] == 1      # all cleared away


def test_fly_out_does_not_move_runners_on_first_or_second():
    s = situation(hand=(FLY_OUT, WALK, SINGLE), bases=(SINGLE, WALK, None))
    play(s, FLY_OUT)
    assert bases(s) == (R1, R2, None) and s.board.outs == 1 and batter_line(s).marks == [(1, "FO")]


@pytest.mark.parametrize("outs", [0, 1])
def test_sacrifice_bunt_with_less_than_two_outs_advances_every_runner(outs):
    s = situation(hand=(SACRIFICE_BUNT, WALK, SINGLE), bases=(SINGLE, None, DOUBLE), outs=outs)
    play(s, SACRIFICE_BUNT)
    assert bases(s) == (None, R1, None) and s.score == (1, 0) and s.board.outs == outs + 1
    assert batter_line(s).marks == [(1, "SH")] and batter_line(s).ab == 0
    assert batter_line(s).rbi == 1


def test_sacrifice_bunt_with_two_outs_ends_the_inning_and_nobody_moves():
    s = situation(hand=(SACRIFICE_BUNT, WALK, SINGLE), bases=(SINGLE, WALK, DOUBLE), outs=2)
    before = len(s.log.plays)
    play(s, SACRIFICE_BUNT)
    p = s.log.plays[before]
    assert p.detail == "BO" and p.scored == () and p.after == p.before
    assert s.score == (0, 0) and s.board.half == 1


# -- DOUBLE PLAY: every case of the Card Reference --------------------------------------------
@pytest.mark.parametrize("before, after, outs_after, runs, runner_out", [
    # no outs and one base-runner: that runner and the batter are both out
    ((SINGLE, None, None), (None, None, None), 2, 0, R1),
    ((None, SINGLE, None), (None, None, None), 2, 0, R2),
    ((None, None, SINGLE), (None, None, None), 2, 0, R3),
    # first and one other base: the runner on first and the batter, the other advances
    ((SINGLE, WALK, None), (None, None, R2), 2, 0, R1),
    ((SINGLE, None, WALK), (None, None, None), 2, 1, R1),
    # second and third: the runner on second and the batter, the runner on third scores
    ((None, SINGLE, WALK), (None, None, None), 2, 1, R2),
    # bases loaded: the runner on first and the batter, the other two advance one base
    ((SINGLE, WALK, ERROR), (None, None, R2), 2, 1, R1),
    # no base-runners: only the batter is out
    ((None, None, None), (None, None, None), 1, 0, None),
])
def test_double_play_with_no_outs(before, after, outs_after, runs, runner_out):
    s = situation(hand=(DOUBLE_PLAY, WALK, SINGLE), bases=before, step="field")
    runner_card = None if runner_out is None else s.runner_cards[runner_out]
    play(s, DOUBLE_PLAY, HOME)
    assert bases(s) == after and s.board.outs == outs_after and s.score == (runs, 0)
    if runner_out is None:
        assert s.outs_pile == [DOUBLE_PLAY] and batter_line(s).marks == [(1, "GO")]
    else:
        # the runner's card is moved behind home plate, where it counts as an out
        assert sorted(s.outs_pile) == sorted([DOUBLE_PLAY, runner_card])
        assert s.runner_cards[runner_out] is None
        assert batter_line(s).marks == [(1, "DP")] and batter_line(s).rbi == 0
    assert s.pending.kind == "batting_play"          # the inning goes on


@pytest.mark.parametrize("before", [
    (SINGLE, None, None), (None, SINGLE, None), (None, None, SINGLE), (SINGLE, WALK, None),
    (None, SINGLE, WALK), (SINGLE, WALK, ERROR)])
def test_double_play_with_one_out_and_runners_makes_three_outs(before):
    s = situation(hand=(DOUBLE_PLAY, WALK, SINGLE), bases=before, outs=1, step="field")
    play(s, DOUBLE_PLAY)
    assert s.score == (0, 0), "no run scores when the inning is over"
    assert s.board.half == 1 and s.board.inning == 1 and s.board.outs == 0
    p = [p for p in s.log.plays if p.kind == "pa"][-1]
    assert p.detail == "DP" and p.scored == ()


def test_double_play_with_one_out_and_nobody_on_is_one_out():
    s = situation(hand=(DOUBLE_PLAY, WALK, SINGLE), outs=1, step="field")
    play(s, DOUBLE_PLAY)
    assert s.board.outs == 2 and s.board.half == 0


@pytest.mark.parametrize("before", [(None, None, None), (SINGLE, WALK, ERROR), (None, None, WALK)])
def test_double_play_with_two_outs_ends_the_inning(before):
    s = situation(hand=(DOUBLE_PLAY, WALK, SINGLE), bases=before, outs=2, step="field")
    play(s, DOUBLE_PLAY)
    assert s.score == (0, 0) and s.board.half == 1


# -- RUNNER CARDS -----------------------------------------------------------------------------
@pytest.mark.parametrize("card", [WILD_PITCH, PASSED_BALL, STOLEN_BASE, BALK])
def test_runner_cards_advance_every_runner_one_base(card):
    s = situation(hand=(card, STRIKE_OUT, GROUND_OUT), bases=(SINGLE, None, WALK), step="field")
    play(s, card, HOME)
    assert bases(s) == (None, R1, None) and s.score == (1, 0)
    assert s.order == [BATTER, BATTER], "a runner card is no plate appearance"
    assert s.discards[card] == 1 and s.discards[WALK] == 1
    assert s.box.lines[AWAY][R3].r == 1 and sum(x.rbi for x in s.box.lines[AWAY]) == 0
    assert s.pending.kind == "batting_play"          # the opposing manager plays next


@pytest.mark.parametrize("card", [WILD_PITCH, PASSED_BALL, STOLEN_BASE, BALK])
def test_runner_card_with_nobody_on_is_simply_discarded(card):
    s = situation(hand=(card, STRIKE_OUT, GROUND_OUT))
    play(s, card)
    assert bases(s) == (None, None, None) and s.discards[card] == 1 and s.board.outs == 0
    assert s.pending.actor == HOME


# -- turns -------------------------------------------------------------------------------------
def test_must_play_even_when_every_card_helps_the_other_side():
    s = situation(hand=(SINGLE, HOME_RUN, WALK), step="field")
    assert s.pending.kind == "fielding_play" and s.pending.legal == (SINGLE, HOME_RUN, WALK)
    with pytest.raises(IllegalActionError, match="fielding_play"):
        apply_action(s, STRIKE_OUT)


def test_a_hand_of_one_card_type_is_played_by_the_engine():
    # the batting manager holds three strike outs and no PH/RP: no choice, no decision
    s = situation(hand=(STRIKE_OUT, STRIKE_OUT, STRIKE_OUT), other=(SINGLE, WALK, GROUND_OUT),
                  deck_top=(GROUND_OUT,))
    assert s.board.outs == 1 and s.log.plays[-1].detail == "SO"
    assert s.pending.actor == HOME and s.pending.kind == "fielding_play"
    assert s.hands[AWAY][STRIKE_OUT] == 2 and s.hands[AWAY][GROUND_OUT] == 1


def test_each_manager_draws_back_to_three_from_the_top():
    s = situation(hand=(SINGLE, WALK, GROUND_OUT), deck_top=(TRIPLE, FLY_OUT))
    play(s, SINGLE, AWAY)
    assert s.hands[AWAY][TRIPLE] == 1 and sum(s.hands[AWAY]) == 3
    play(s, s.pending.legal[0], HOME)
    assert s.hands[HOME][FLY_OUT] >= 1 and sum(s.hands[HOME]) == 3


def test_third_out_on_the_batting_managers_card_ends_the_half_at_once():
    s = situation(hand=(STRIKE_OUT, WALK, SINGLE), outs=2, bases=(SINGLE, None, None))
    play(s, STRIKE_OUT, AWAY)
    assert s.board.half == 1 and s.board.outs == 0 and s.board.bases == (None, None, None)
    assert s.pending.kind == "batting_play" and s.pending.actor == HOME
    assert s.outs_pile == [] and s.runner_cards == [None] * 9
    assert s.order[AWAY] == 1, "the next batter leads off the next inning"


# -- PINCH HITTER/RELIEF PITCHER -----------------------------------------------------------------
def test_drawing_a_pinch_hitter_puts_it_on_the_table_with_a_card_beneath():
    s = situation(hand=(SINGLE, WALK, GROUND_OUT), deck_top=(PINCH_HITTER, TRIPLE, FLY_OUT))
    play(s, SINGLE)
    assert s.stacks[AWAY] == [TRIPLE]                # face down, unseen
    assert s.hands[AWAY][FLY_OUT] == 1 and s.hands[AWAY][TRIPLE] == 0 and sum(s.hands[AWAY]) == 3


def test_playing_a_stack_flips_the_card_beneath_and_draws_nothing():
    s = situation(hand=(STRIKE_OUT, GROUND_OUT, FLY_OUT), stacks=((DOUBLE,), ()),
                  bases=(WALK, None, None))
    assert s.pending.legal == (GROUND_OUT, STRIKE_OUT, FLY_OUT, STACK_ACTION)
    deck = list(s.deck)
    play(s, STACK_ACTION, AWAY)
    assert s.stacks[AWAY] == [] and s.deck == deck, "no card is drawn after a PH/RP play"
    assert sum(s.hands[AWAY]) == 3
    assert bases(s) == (None, BATTER, R1) and s.discards[PINCH_HITTER] == 1
    sub, pa = s.log.plays[-2:]
    assert sub.kind == "pinch_hitter" and sub.roll == DOUBLE
    assert pa.kind == "pa" and pa.detail == "2B" and pa.roll == DOUBLE


def test_relief_pitcher_for_the_fielding_manager():
    s = situation(hand=(SINGLE, WALK, TRIPLE), stacks=((), (DOUBLE_PLAY,)),
                  bases=(WALK, None, None), step="field")
    play(s, STACK_ACTION, HOME)
    assert s.board.outs == 2 and bases(s) == (None, None, None)
    assert s.log.plays[-2].kind == "relief_pitcher"


def test_second_pinch_hitter_beneath_draws_a_new_card_for_the_play():
    s = situation(hand=(STRIKE_OUT, GROUND_OUT, FLY_OUT), stacks=((PINCH_HITTER,), ()),
                  deck_top=(HOME_RUN, SINGLE))
    play(s, STACK_ACTION)
    assert s.score == (1, 0) and s.discards[PINCH_HITTER] == 2 and s.discards[HOME_RUN] == 1
    assert s.stacks[AWAY] == [] and sum(s.hands[AWAY]) == 3 and s.deck[0] == SINGLE
    assert s.log.plays[-2].roll == PINCH_HITTER and s.log.plays[-1].detail == "HR"


def test_second_pinch_hitter_beneath_and_another_drawn_makes_a_new_stack():
    s = situation(hand=(STRIKE_OUT, GROUND_OUT, FLY_OUT), stacks=((PINCH_HITTER,), ()),
                  deck_top=(PINCH_HITTER, WALK, TRIPLE))
    play(s, STACK_ACTION)
    assert s.stacks[AWAY] == [WALK]                  # the drawn PH/RP card, WALK face down
    assert bases(s) == (None, None, BATTER)          # TRIPLE is the play


def test_several_stacks_each_playable_and_the_chosen_one_is_flipped():
    s = situation(hand=(STRIKE_OUT, GROUND_OUT, FLY_OUT), stacks=((WALK, HOME_RUN, SINGLE), (ERROR,)))
    assert s.pending.legal[-3:] == (STACK_ACTION, STACK_ACTION + 1, STACK_ACTION + 2)
    play(s, STACK_ACTION + 1)
    assert s.score == (1, 0) and s.stacks[AWAY] == [WALK, SINGLE] and s.stacks[HOME] == [ERROR]


def test_stacks_stay_on_the_table_between_innings():
    s = situation(hand=(STRIKE_OUT, WALK, SINGLE), outs=2, stacks=((TRIPLE,), (GROUND_OUT,)))
    play(s, STRIKE_OUT)
    assert s.board.half == 1 and s.stacks == [[TRIPLE], [GROUND_OUT]]


def test_a_stack_alone_is_still_a_choice_with_a_hand_card():
    s = situation(hand=(STRIKE_OUT, STRIKE_OUT, STRIKE_OUT), stacks=((TRIPLE,), ()))
    assert s.pending.legal == (STRIKE_OUT, STACK_ACTION)


# -- the shuffles ---------------------------------------------------------------------------------
def test_shuffle_after_the_third_keeps_stacks_and_deals_three_each():
    s = situation(hand=(STRIKE_OUT, WALK, SINGLE), inning=3, half=1, outs=2,
                  stacks=((TRIPLE,), (GROUND_OUT, DOUBLE)), discards=(HOME_RUN, FLY_OUT))
    play(s, STRIKE_OUT, HOME)
    b = s.board
    assert (b.inning, b.half) == (4, 0) and s.stretch == 1
    assert s.stacks == [[TRIPLE], [GROUND_OUT, DOUBLE]]
    assert sum(s.discards) == 0 and sum(s.hands[AWAY]) == 3 and sum(s.hands[HOME]) == 3
    # every card but the stacks and the two new hands is back in the draw pile
    assert len(s.deck) == 55 - 2 * 3 - 2 * 3       # two hands, three stacks of two cards
    assert s.pending.actor == AWAY


def test_no_shuffle_after_the_top_of_the_third_or_other_innings():
    s = situation(hand=(STRIKE_OUT, WALK, SINGLE), inning=3, half=0, outs=2)
    play(s, STRIKE_OUT)
    assert s.stretch == 0 and (s.board.inning, s.board.half) == (3, 1)
    s = situation(hand=(STRIKE_OUT, WALK, SINGLE), inning=4, half=1, outs=2)
    play(s, STRIKE_OUT)
    assert s.stretch == 0 and s.board.inning == 5


def test_shuffles_come_after_the_3rd_6th_9th_and_every_third_extra_inning():
    seen = set()
    extra = 0
    for seed in range(300):
        rng = random.Random(seed)
        s = rules.new_game(Dice(seed))
        stretch = 0
        while s.pending is not None:
            apply_action(s, rng.choice(s.pending.legal))
            if s.stretch != stretch:
                assert s.stretch == stretch + 1
                stretch = s.stretch
                b = s.board
                assert b.half == 0 and b.inning == 3 * stretch + 1, (b.inning, stretch)
                assert sum(s.discards) == 0
                seen.add(b.inning)
        extra += s.board.inning >= 13
        assert s.stretch == (s.board.inning - 1) // 3
    assert {4, 7, 10} <= seen
    if extra:
        assert 13 in seen


def test_shuffles_with_keyed_dice_depend_on_seed_and_shuffle_number():
    a, b = rules.new_game(Dice(5)), rules.new_game(Dice(5))
    assert a.deck == b.deck and a.hands == b.hands
    assert rules.new_game(Dice(6)).deck != a.deck


def test_empty_draw_pile_is_rebuilt_from_the_discards():
    s = situation(hand=(SINGLE, WALK, GROUND_OUT), discards=(TRIPLE, FLY_OUT, FLY_OUT))
    rest = list(s.deck)
    s.deck = []
    s.discards = [0] * N_TYPES
    for c in rest + [TRIPLE, FLY_OUT, FLY_OUT]:
        s.discards[c] += 1
    play(s, SINGLE)
    assert s.refills == 1
    assert sum(s.discards) == 0 and len(s.deck) == len(rest) + 3 - 1
    assert s.dice.stream == (0, 1)


# -- walk-offs and the end ---------------------------------------------------------------------
def test_walk_off_single_counts_only_the_winning_run():
    s = situation(hand=(SINGLE, WALK, GROUND_OUT), inning=9, half=1, runs=(3, 3),
                  bases=(SINGLE, SINGLE, ERROR))
    play(s, SINGLE, HOME)
    assert s.over and s.winner == HOME and s.score == (3, 4) and s.pending is None
    assert s.box.lines[HOME][BATTER].rbi == 1 and sum(s.board.line[1]) == 4
    assert s.log.plays[-1].scored == (R3,)


def test_walk_off_home_run_counts_every_run():
    s = situation(hand=(HOME_RUN, WALK, GROUND_OUT), inning=9, half=1, runs=(3, 3),
                  bases=(SINGLE, SINGLE, ERROR))
    play(s, HOME_RUN)
    assert s.over and s.score == (3, 7)


def test_walk_off_on_the_fielding_managers_card():
    s = situation(hand=(WALK, SINGLE, DOUBLE), inning=10, half=1, runs=(2, 2),
                  bases=(SINGLE, SINGLE, SINGLE), step="field")
    play(s, WALK, AWAY)
    assert s.over and s.winner == HOME and s.score == (2, 3)


def test_home_team_does_not_bat_in_the_ninth_when_ahead():
    s = situation(hand=(STRIKE_OUT, WALK, SINGLE), inning=9, half=0, runs=(1, 2), outs=2)
    play(s, STRIKE_OUT)
    assert s.over and s.winner == HOME and s.board.line[1] == [2] + [0] * 7


def test_engine_rejects_actions_after_the_game():
    s = situation(hand=(HOME_RUN, WALK, GROUND_OUT), inning=9, half=1, runs=(0, 0))
    play(s, HOME_RUN)
    with pytest.raises(IllegalActionError, match="over"):
        apply_action(s, 0)


# -- effect_of_card: what a card does, asked from outside --------------------------------------
@pytest.mark.parametrize("step", ["bat", "field"])
def test_effect_of_card_is_what_playing_the_card_does(step):
    """For every hand card, outs and base state, ``rules.effect_of_card`` gives what the card
    does when a manager (batting or fielding) plays it in a game: the outs, the bases
    occupied and the runs (three outs end the half inning: the board moves on)."""
    from dugout.envs.grand_slam.cards import N_HAND_TYPES
    for card in range(N_HAND_TYPES):
        others = tuple(c for c in (STRIKE_OUT, GROUND_OUT, WALK) if c != card)[:2]
        for outs in range(3):
            for occupied in range(8):
                flags = tuple(bool(occupied >> i & 1) for i in range(3))
                state = situation(hand=(card,) + others, outs=outs, step=step,
                                  bases=tuple(SINGLE if on else None for on in flags))
                play(state, card)
                after_outs, after, runs = rules.effect_of_card(card, outs=outs, bases=flags)
                b = state.board
                assert b.runs[0] == runs, (CARD_NAMES[card], outs, flags)
                if after_outs == 3:
                    assert (b.inning, b.half) == (1, 1), (CARD_NAMES[card], outs, flags)
                else:
                    assert (b.outs, tuple(r is not None for r in b.bases)) == (after_outs, after), \
                        (CARD_NAMES[card], outs, flags)


def test_effect_of_card_follows_the_card_reference_and_refuses_bad_input():
    assert rules.effect_of_card(DOUBLE_PLAY, outs=0, bases=(True, False, True)) == \
        (2, (False, False, False), 1)                      # the runner on third scores
    assert rules.effect_of_card(FLY_OUT, outs=1, bases=(False, False, True)) == \
        (2, (False, False, False), 1)                      # a sacrifice fly
    assert rules.effect_of_card(HOME_RUN, outs=2, bases=(True, True, True)) == \
        (2, (False, False, False), 4)
    assert rules.effect_of_card(WILD_PITCH, outs=0, bases=(False, False, False)) == \
        (0, (False, False, False), 0)
    for kwargs, words in (({"card": 16}, "hand card"), ({"card": True}, "hand card"),
                          ({"outs": 3}, "outs must be"), ({"bases": (True,)}, "three flags")):
        with pytest.raises(ValueError, match=words):
            rules.effect_of_card(**{"card": SINGLE, "outs": 0, "bases": (False,) * 3, **kwargs})
