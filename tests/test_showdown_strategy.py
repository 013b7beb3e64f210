"""MLB Showdown's strategy cards (the expert game with decks): the card data, the deck rules,
the card windows, scripted card plays, hidden hands and the conservation of cards.

The scripted tests set a rulebook situation on the board of a freshly set-up expert game
with decks (the 2004 Yankees at the 2004 Red Sox, Pedro Martinez pitching to the Yankees),
deal each manager the hand the test needs (and empty decks, so nothing else is drawn), then
play it with ScriptedDice whose every roll names its purpose; play stops where the script
runs out. Each test's docstring quotes the passage of ``mlb-showdown-2004.txt`` (or of the
card's own text in ``data/strategy/cards.json``) it checks.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import numpy as np
import pytest

from dugout.envs import showdown_v0
from dugout.envs.core import DataError, OptionError
from dugout.envs.core.dice import Dice, ScriptedDice
from dugout.envs.showdown import cardplay, rules
from dugout.envs.showdown.cards import INFIELD, OUTFIELD, load_team, team_from_dict
from dugout.envs.showdown.strategy import (DECK_SIZE, card_set_from_dict, deck_from_dict,
                                           load_card_set, load_deck)
from showdown_scripts import batting_line, extra, go, idx, pitching_line, plays, situation, team_dict

AGENTS = ("away", "home")
NYY, BOS = 0, 1
CS = load_card_set()
DECK = load_deck("default", CS)
#: a card's index in the card set (its action is rules.CARD + index)
C = {name: i for i, name in enumerate(CS.names)}
TEAMS = (load_team("nya2004"), load_team("bos2004"))


# ---------------------------------------------------------------- set-up helpers

def game(script, nyy=None, bos=None, *, starter=1, dh=True):
    """A set-up expert game with decks (top of the 1st, nobody up yet), scripted dice."""
    if nyy is None and bos is None:
        teams = TEAMS
    else:
        teams = (team_from_dict(nyy or team_dict("nya2004"), "nyy", point_cap=None),
                 team_from_dict(bos or team_dict("bos2004"), "bos", point_cap=None))
    return rules.new_game(teams, ScriptedDice(script), level="expert", starter=starter, dh=dh,
                          play=False, decks=(DECK, DECK), card_set=CS)


def deal(state, away=(), home=(), away_deck=(), home_deck=()):
    """The managers' hands and decks (top of the deck last), by card name."""
    state.hands = [[C[n] for n in away], [C[n] for n in home]]
    state.decks = [[C[n] for n in away_deck], [C[n] for n in home_deck]]
    state.discards = [[], []]
    return state


def pass_until_card(state, seen=None):
    """Pass every decision until a ``play_card`` offering a card, or a ``catcher_throw``, is
    asked (or the script runs out: then ``state.pending`` is None)."""
    go(state)
    while state.pending is not None and not (
            state.pending.kind == "catcher_throw"
            or (state.pending.kind == "play_card" and len(state.pending.legal) > 1)):
        if seen is not None:
            seen.append(state.pending.kind)
        go(state, rules.PASS)
    return state


def play(name):
    return rules.CARD + C[name]


def legal_cards(state):
    return sorted(CS.names[a - rules.CARD] for a in state.pending.legal if a >= rules.CARD)


def swing_for(chart, result):
    """The lowest swing that reads ``result`` on ``chart``."""
    return next(r for r in range(1, 21) if chart.result(r) == result)


def card_game(seed, **kw):
    """An expert game with the default deck for both managers, at its first decision."""
    return rules.new_game(TEAMS, Dice(seed), level="expert", decks=(DECK, DECK), card_set=CS, **kw)


def census(state, t):
    return Counter(state.decks[t] + state.hands[t] + state.discards[t] + state.in_play[t]
                   + state.played[t])


DECK_CENSUS = Counter(C[n] for n in DECK.cards())


# ================================================================== 1. validation

def _card(**changes):
    card = {"name": "Test Card", "color": "offense", "timing": "before_pitch",
            "text": "Play before the pitch: +1 to the swing.", "effect": [{"do": "swing", "by": 1}]}
    card.update(changes)
    return card


def _no_text():
    card = _card()
    del card["text"]
    return card


_STEAL = {"do": "steal", "runners": "lead", "throw": True}

BAD_CARD_SETS = {
    "unknown effect": ([_card(effect=[{"do": "teleport"}])],
                       ("'Test Card'", "effect[0].do", "teleport")),
    "effect at a timing it cannot have": ([_card(effect=[{"do": "reroll_swing"}])],
                                          ("'Test Card'", "effect[0].do", "reroll_swing",
                                           "before_pitch")),
    "effect inside a check at the wrong timing": (
        [_card(timing="after_result",
               effect=[{"do": "check", "positions": "infield", "then": [{"do": "pitch", "by": 1}]}])],
        ("'Test Card'", "effect[0].then[0].do", "'pitch'")),
    "bad condition value": ([_card(requires={"outs": [3]})], ("'Test Card'", "requires.outs", "3")),
    "unknown condition": ([_card(requires={"weather": "rain"})],
                          ("'Test Card'", "requires.weather")),
    "result condition before the pitch": ([_card(requires={"results": ["1B"]})],
                                          ("'Test Card'", "requires.results")),
    "duplicate name": ([_card(), _card(text="Another text.")],
                       ("cards[1].name", "'Test Card'", "twice")),
    "empty text": ([_card(text="  ")], ("'Test Card'", ".text")),
    "missing text": ([_no_text()], ("'Test Card'", ".text")),
    "steal with a throw that is not the last effect": (
        [_card(effect=[_STEAL, {"do": "draw", "n": 1}])],
        ("'Test Card'", "effect[0]", "last effect")),
    # the icon's bonus is carried out before the card's own effects ("before the card's own,
    # so a bonus to the catcher's throw is in force for the card's steal"): a steal with a
    # throw there is never the card's last effect
    "steal with a throw in the icon bonus": (
        [_card(effect=[{"do": "draw", "n": 1}],
               icon_bonus={"icon": "G", "player": "batter", "effect": [_STEAL]})],
        ("'Test Card'", "icon_bonus", "last effect")),
    "steal with a throw inside a check, then more": (
        [_card(effect=[{"do": "check", "positions": "infield", "then": [_STEAL]},
                       {"do": "draw", "n": 1}])],
        ("'Test Card'", "effect[0]", "last effect")),
}


@pytest.mark.parametrize("case", sorted(BAD_CARD_SETS))
def test_a_bad_card_set_raises_data_error_naming_the_source_card_and_field(case):
    """strategy.py: "Every problem is a :class:`DataError` naming the file, the card and the
    field." (effects at the timings ``EFFECTS`` lists, the conditions ``requires`` lists,
    one card per name, the card's rules text, and "a steal the catcher may throw at must be
    the card's last effect": Strategy Cards, "If a strategy card lets a runner try to steal,
    the catcher can try to throw him out")."""
    cards, words = BAD_CARD_SETS[case]
    with pytest.raises(DataError) as err:
        card_set_from_dict({"name": "mine", "cards": cards}, "my-set.json")
    message = str(err.value)
    assert message.startswith("my-set.json"), message
    for word in words:
        assert word in message, (word, message)


def test_the_built_in_card_set_and_deck_are_valid():
    """Strategy Cards 1: "you may build a deck of 60 strategy cards ... as long as you don't
    have more than 4 cards with the same name in your deck"."""
    assert len(CS.cards) == 44 and len(set(CS.names)) == 44
    assert len(DECK.cards()) == DECK_SIZE == 60
    assert max(n for _, n in DECK.counts) <= 4
    # a valid custom set round-trips through its data
    again = card_set_from_dict(copy.deepcopy(CS.raw), "copy")
    assert again.cards == CS.cards


@pytest.mark.parametrize("counts, words", [
    ({**dict(DECK.counts), "Paint the Corner": 1}, ("my-deck", "60", "59")),     # 2 -> 1
    ({**dict(DECK.counts), "Paint the Corner": 3}, ("my-deck", "60", "61")),     # 2 -> 3
    ({**dict(DECK.counts), "Paint the Corner": 5}, ("my-deck", "'Paint the Corner'", "5")),
    ({**dict(DECK.counts), "Nope": 1}, ("my-deck", "'Nope'", "no card of that name")),
], ids=["59 cards", "61 cards", "5 copies", "unknown card"])
def test_a_bad_deck_raises_data_error_naming_the_source_and_card(counts, words):
    """Strategy Cards 1: "you may build a deck of 60 strategy cards to go with it. Any
    combination of cards is fine as long as you don't have more than 4 cards with the same
    name in your deck" (and every card of a deck is a card of the set)."""
    with pytest.raises(DataError) as err:
        deck_from_dict({"name": "d", "cards": counts}, CS, "my-deck")
    message = str(err.value)
    for word in words:
        assert word in message, (word, message)


def test_card_set_and_deck_files_with_an_error_name_the_path(tmp_path):
    """strategy.py: "Every problem is a DataError naming the file, the card and the field"
    (a file handed to ``load_card_set``, ``load_deck`` or the env's options)."""
    bad = copy.deepcopy(CS.raw)
    bad["cards"][5]["effect"] = [{"do": "steal", "runners": "lead", "throw": "maybe"}]
    path = tmp_path / "my_cards.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(DataError) as err:
        load_card_set(str(path))
    message = str(err.value)
    assert str(path) in message and "'Green Light'" in message and "effect[0].throw" in message
    with pytest.raises(DataError) as err:
        showdown_v0.env(level="expert", decks="default", card_set=str(path))
    assert str(path) in str(err.value)
    deck = tmp_path / "my_deck.json"
    deck.write_text(json.dumps({"name": "d", "cards": {**dict(DECK.counts), "Brushback": 9}}))
    with pytest.raises(DataError) as err:
        load_deck(str(deck), CS)
    assert str(deck) in str(err.value) and "'Brushback'" in str(err.value)
    with pytest.raises(DataError) as err:
        showdown_v0.env(level="expert", decks=str(deck))
    assert str(deck) in str(err.value)


def test_env_deck_options():
    """Strategy Cards 1: "Strategy cards are used only if you and your opponent both have
    strategy decks"; Glossary, Expert Game: the expert game "adds strategy cards"."""
    with pytest.raises(OptionError, match="expert"):
        showdown_v0.env(level="advanced", decks="default")
    with pytest.raises(OptionError, match="decks"):
        showdown_v0.env(level="expert", card_set="default")
    with pytest.raises(DataError, match="nosuch"):
        showdown_v0.env(level="expert", decks="nosuch")
    env = showdown_v0.env(level="expert", decks=("default", "default"))
    env.reset(seed=1)
    assert env.action_space("away").n == rules.CARD + 44
    assert env.unwrapped.game.cards_on
    assert sum(env.unwrapped.view("away").hand) == 3


# ================================================================== 2. deck rules

def test_the_shuffle_is_the_deck_stream_of_the_game_seed():
    """Strategy Cards 2-3: "Before the game starts, shuffle your deck ... Before the first
    inning, draw the top 3 cards of your deck." The shuffle is ``Dice(seed)`` on the stream
    (DECK_STREAM, team), so it does not depend on the teams, the DH or anything decided."""
    unshuffled = [C[n] for n in DECK.cards()]
    orders = {}
    for seed in (0, 1, 17):
        state = rules.new_game(TEAMS, Dice(seed), level="expert", starter=1, play=False,
                               decks=(DECK, DECK), card_set=CS)
        for t in (0, 1):
            dice = Dice(seed)
            dice.set_stream(cardplay.DECK_STREAM, t)
            order = dice.shuffle("deck", unshuffled)
            # the top of the deck is its end: the 3 drawn are the last 3, top first
            assert state.decks[t] == order[:57]
            assert state.hands[t] == order[57:][::-1]
            orders[seed, t] = order
        # other teams, the other DH rule, another rotation spot: the same decks
        other = rules.new_game((TEAMS[1], load_team("sln2004")), Dice(seed), level="expert",
                               starter=3, dh=False, play=False, decks=(DECK, DECK), card_set=CS)
        assert other.decks == state.decks and other.hands == state.hands
    assert orders[0, 0] != orders[0, 1] and orders[0, 0] != orders[1, 0]


def test_three_cards_before_the_game_and_four_when_the_first_batter_steps_in():
    """Strategy Cards 3-4: "Before the first inning, draw the top 3 cards of your deck ...
    (So by the time the first batter steps into the box, you'll both have 4 cards in your
    hand—3 that were drawn before the game, and another 1 drawn when the first team came
    to the plate.)\""""
    for seed in range(6):
        state = rules.new_game(TEAMS, Dice(seed), level="expert", starter=1 + seed % 4,
                               play=False, decks=(DECK, DECK), card_set=CS)
        assert [len(h) for h in state.hands] == [3, 3]
        assert [len(d) for d in state.decks] == [57, 57]
        go(state)
        while state.pending.kind != "intentional_walk":      # the first batter's step 3
            # the defense sets itself before the draw; the batting team's substitutions after
            drawn = state.ab.sub_then != "draw_cards"
            assert [len(h) for h in state.hands] == ([4, 4] if drawn else [3, 3])
            go(state, state.pending.legal[0])
        assert (state.board.inning, state.board.half, state.pa_index) == (1, 0, 0)
        assert [len(h) for h in state.hands] == [4, 4]
        assert [len(d) for d in state.decks] == [56, 56]


def test_every_half_inning_begun_draws_one_card_each_after_the_defense_is_set():
    """Strategy Cards 4: "Whenever either team comes to the plate each inning (even your
    opponent's), draw the top card of your deck." "When a team's turn at the plate is over,
    the defense first checks to see that it can field all the positions (and makes
    substitutions if it can't), then both managers draw a card, and then the first at-bat
    starts. This means that if you're playing by NL rules and you pinch-hit or pinch-run
    for your pitcher, you have to decide who to put on the mound before drawing your card."
    Random games in which no card is played: at every batter's first decision each hand
    holds 3 + one per half inning begun, the top cards of the shuffled deck in order; at the
    decisions that set the defense before the half's draw, one fewer."""
    before_draw = at_bats = 0
    for seed in range(12):
        state = card_game(seed, dh=seed % 2 == 0)
        rng = random.Random(seed)
        dealt = [state.decks[t] + state.hands[t][::-1] for t in (0, 1)]   # the shuffled decks
        while state.pending is not None:
            d = state.pending
            h = state.board.half_index
            setting_defense = (d.kind in ("defensive_replacement", "replaced_player", "batting_slot")
                               and state.ab.sub_then == "draw_cards") or (
                d.kind == "pitching_change" and d.subject == 1)
            drawn = 3 + h + (0 if setting_defense else 1)
            if setting_defense:
                before_draw += 1
            if d.kind == "intentional_walk":
                at_bats += 1
            for t in (0, 1):
                assert state.hands[t] == dealt[t][::-1][:drawn], (seed, d, t)
                assert state.decks[t] == dealt[t][:60 - drawn]
                assert not state.discards[t] and not state.played[t] and not state.in_play[t]
            options = [a for a in d.legal if a < rules.CARD]         # never play a card
            rules.apply_action(state, rng.choice(options))
        assert state.step == "over"
    assert before_draw > 20 and at_bats > 500


def test_an_empty_deck_draws_nothing():
    """Strategy Cards: "If your deck ever runs out, you don't get to draw any more cards."
    Glossary, Deck: "If your deck ever runs out, you can't draw any more cards." A game in
    which the away manager's deck is empty after the first draws: his hand never grows; the
    home manager still draws at every half inning."""
    state = rules.new_game(TEAMS, Dice(5), level="expert", starter=1, play=False,
                           decks=(DECK, DECK), card_set=CS)
    state.discards[NYY] = state.decks[NYY]          # (the deck's cards, out of the way)
    state.decks[NYY] = []
    rng = random.Random(5)
    go(state)
    while state.pending is not None and state.board.inning < 4:
        d = state.pending
        assert len(state.hands[NYY]) == 3 and state.decks[NYY] == []
        options = [a for a in d.legal if a < rules.CARD]
        go(state, rng.choice(options))
    assert state.board.inning == 4
    assert len(state.hands[BOS]) >= 3 + 6            # six half innings begun at least


@pytest.mark.parametrize("deck, drawn", [(("Paint the Corner",), 1), ((), 0),
                                         (("Brushback", "Paint the Corner", "Robbed"), 2)])
def test_a_draw_card_draws_what_is_left_and_the_rest_of_it_still_happens(deck, drawn):
    """Glossary, Draw: "If a strategy card tells you to draw 1 or more cards, take that many
    cards off the top of your deck. If you can't draw that many cards, draw all that are
    left, then do what the rest of the card says." Strategy Cards: "If you play a strategy
    card that lets you draw cards, ignore that part of the card, but do whatever else the
    card says (if anything)." The Yankees play Scouting Report ("draw 2 cards") with 1, 0
    and 3 cards left; the card is played either way and discarded after the at-bat."""
    pedro_chart = TEAMS[BOS].players[13].chart
    state = game([("pitch", 20), ("swing", swing_for(pedro_chart, "SO"))])
    situation(state, batter="Alex Rodriguez")
    deal(state, away=["Scouting Report"])
    pass_until_card(state)
    assert state.pending.actor == NYY and legal_cards(state) == ["Scouting Report"]
    state.decks[NYY] = [C[n] for n in deck]         # (after the half inning's draw)
    go(state, play("Scouting Report"))
    while state.pending is not None:     # (nothing else to play: every window passed)
        assert state.pending.legal == (rules.PASS,) or state.pending.kind != "play_card"
        go(state, rules.PASS)
    top = [C[n] for n in deck][::-1][:drawn]
    assert state.hands[NYY] == top and len(state.decks[NYY]) == len(deck) - drawn
    assert [(p.kind, p.detail) for p in state.log.plays] == [("card", "Scouting Report"),
                                                             ("pa", "SO")]
    assert state.discards[NYY] == [C["Scouting Report"]] and state.played[NYY] == []


# ================================================================== 3. windows

def test_window_defense_first_then_alternate_until_two_passes_in_a_row():
    """Complete At-Bat Sequence: "When you and the other manager take turns deciding whether
    to do something, the manager on defense has to decide first. On steps 5, 7, and 9, keep
    going back and forth until both of you pass back-to-back." "You can't play 2 strategy
    cards with the same name in the same at-bat." The Red Sox hold two Paint the Corner and
    a Brushback, the Yankees Sit on the Fastball and Work the Count."""
    state = game([("pitch", 10)])
    situation(state, batter="Alex Rodriguez")
    deal(state, away=["Sit on the Fastball", "Work the Count"],
         home=["Paint the Corner", "Paint the Corner", "Brushback"])
    pass_until_card(state)
    d = state.pending
    assert (d.kind, d.actor, d.subject) == ("play_card", BOS, rules.WINDOWS.index("before_pitch"))
    assert d.legal[0] == rules.PASS
    assert legal_cards(state) == ["Brushback", "Paint the Corner"]
    go(state, play("Paint the Corner"))
    assert state.pending.actor == NYY               # after a play, the other manager
    assert legal_cards(state) == ["Sit on the Fastball", "Work the Count"]
    go(state, play("Sit on the Fastball"))
    assert state.pending.actor == BOS
    # a Paint the Corner is still in his hand, but not to be played again this at-bat
    assert state.hands[BOS].count(C["Paint the Corner"]) == 1
    assert legal_cards(state) == ["Brushback"]
    go(state, rules.PASS)
    assert state.pending is not None and state.pending.actor == NYY   # one pass: still open
    assert legal_cards(state) == ["Work the Count"]
    assert state.dice.log == []
    go(state, rules.PASS)                           # two passes in a row: the pitch
    assert state.dice.log == [("pitch", 10)] and state.window == ""
    assert state.ab.pitch == 10 + 2 + 2             # Pedro's Control 2, Paint the Corner's +2
    assert cardplay.swing_bonus(state) == 2         # Sit on the Fastball's +2
    assert state.played == [[C["Sit on the Fastball"]], [C["Paint the Corner"]]]


def test_a_pass_then_a_play_keeps_the_window_open():
    """Complete At-Bat Sequence 5: "keep going back and forth until both of you pass
    back-to-back": the Red Sox pass, the Yankees play, and the Red Sox are asked again."""
    state = game([("pitch", 10)])
    situation(state, batter="Alex Rodriguez")
    deal(state, away=["Work the Count"], home=["Paint the Corner"])
    pass_until_card(state)
    assert state.pending.actor == BOS
    go(state, rules.PASS)
    assert state.pending.actor == NYY
    go(state, play("Work the Count"))
    assert state.pending is not None and state.pending.actor == BOS
    assert legal_cards(state) == ["Paint the Corner"]
    go(state, play("Paint the Corner"))
    # the Yankees have nothing left to play: passed unasked; the Red Sox likewise
    assert state.pending is None and state.dice.log == [("pitch", 10)]
    assert state.ab.pitch == 10 + 2 - 2 + 2


def test_a_manager_holding_cards_is_asked_in_every_window_an_empty_hand_never():
    """Complete At-Bat Sequence 5, 7 and 9 ("Take turns playing a strategy card or
    passing"): a manager holding cards is asked in every window, the defense first, even
    when he may only pass (whether he is asked must not tell his opponent what he holds);
    an empty hand, whose size is public, passes unasked. Glossary, Offense Cards: "You can
    use offensive (red) strategy cards only when your team is at the plate"; Defense Cards:
    "only when your team is in the field". The Yankees, at the plate, hold a defense card
    and Battle Back ("Play on an SO"); the Red Sox Brushback. A-Rod grounds out, Sheffield
    strikes out: Battle Back is offered only on Sheffield's strikeout."""
    arod_chart = TEAMS[NYY].players[1].chart
    sheffield_chart = TEAMS[NYY].players[2].chart
    state = game([("pitch", 1), ("swing", swing_for(arod_chart, "GB")),
                  ("pitch", 1), ("swing", swing_for(sheffield_chart, "SO"))])
    situation(state, batter="Alex Rodriguez")
    deal(state, away=["Paint the Corner", "Battle Back"], home=["Brushback"])
    asked = []
    go(state)
    while state.pending is not None:
        d = state.pending
        if d.kind == "play_card" and state.pa_index < 2:
            asked.append((state.pa_index, d.actor, rules.WINDOWS[d.subject],
                          tuple(legal_cards(state))))
        go(state, rules.PASS)
    assert [extra(state, p)[3] for p in plays(state, "pa")] == ["GB", "SO"]
    windows = ("before_pitch", "on_result", "after_result")
    offered = {(0, BOS, "before_pitch"): ("Brushback",), (1, BOS, "before_pitch"): ("Brushback",),
               (1, NYY, "on_result"): ("Battle Back",)}
    assert asked == [(pa, team, w, offered.get((pa, team, w), ())) for pa in (0, 1)
                     for w in windows for team in (BOS, NYY)]
    # the same at-bats with the Red Sox's hand empty: only the Yankees are asked
    state = game([("pitch", 1), ("swing", swing_for(arod_chart, "GB"))])
    situation(state, batter="Alex Rodriguez")
    deal(state, away=["Paint the Corner", "Battle Back"])
    actors = []
    go(state)
    while state.pending is not None:
        if state.pending.kind == "play_card" and state.pa_index == 0:
            actors.append(state.pending.actor)
        go(state, rules.PASS)
    assert actors == [NYY, NYY, NYY]


def test_offense_cards_only_at_the_plate_defense_cards_only_in_the_field_utility_both():
    """Glossary: "Offense Cards: You can use offensive (red) strategy cards only when your
    team is at the plate." "Defense Cards: You can play defensive (blue) strategy cards only
    when your team is in the field." "Utility Cards: You can use utility cards whether
    you're on offense or defense." Strategy Cards: "You can't play 2 strategy cards with the
    same name in the same at-bat." At every card decision of random games: each card offered
    is in the manager's hand, of his colour, of the window's timing, not yet played by him
    this at-bat, and a manager is asked only when he holds cards."""
    seen = Counter()
    for seed in range(25):
        state = card_game(seed)
        rng = random.Random(seed)
        while state.pending is not None:
            d = state.pending
            if d.kind == "play_card":
                batting = d.actor == state.board.half
                assert d.legal[0] == rules.PASS and state.hands[d.actor], d
                assert rules.WINDOWS[d.subject] == state.window
                for a in d.legal[1:]:
                    i = a - rules.CARD
                    card = CS.cards[i]
                    assert i in state.hands[d.actor] and i not in state.played[d.actor]
                    assert card.timing == state.window
                    assert card.color != ("defense" if batting else "offense"), card.name
                    seen[card.color, batting] += 1
            rules.apply_action(state, rng.choice(d.legal))
    assert seen["utility", True] and seen["utility", False]
    assert seen["offense", True] and seen["defense", False]
    assert not seen["offense", False] and not seen["defense", True]


# ================================================================== 4. scripted examples

@pytest.mark.parametrize("base, roll, out", [
    (0, 10, True),     # 10 + Varitek's Arm 2 = 12 beats Posada's Speed 11
    (0, 9, False),     # 9 + 2 = 11 ties it: "beats" -- he is safe at second
    (1, 5, True),      # stealing third: 5 + 2 + 5 = 12 beats 11
    (1, 4, False),     # 4 + 2 + 5 = 11: safe at third
])
def test_card_steal_the_catchers_throw_must_beat_the_runners_speed(base, roll, out):
    """Strategy Cards: "If a strategy card lets a runner try to steal, the catcher can try
    to throw him out. The catcher's manager rolls a die, adds the catcher's Arm bonus, and
    adds +5 if the runner is trying to steal third. If the total beats the runner's Speed,
    the runner is out." The Yankees play Green Light ("your lead runner steals the next
    base") with Posada (Speed 11, no SB icon) on first or second; Varitek (C +2) throws."""
    bases = [None, None, None]
    bases[base] = "Jorge Posada"
    state = game([("catcher", roll)])
    situation(state, bases=tuple(bases), batter="Alex Rodriguez")
    deal(state, away=["Green Light"])
    posada, pedro = idx(state, NYY, "Jorge Posada"), idx(state, BOS, "Pedro Martinez")
    assert state.card(NYY, posada).speed == 11 and "SB" not in state.card(NYY, posada).icons
    assert state.card(BOS, state.fielder_at(BOS, "C")).fielding("C") == 2
    pass_until_card(state)
    assert state.pending.actor == NYY and legal_cards(state) == ["Green Light"]
    go(state, play("Green Light"))
    d = state.pending
    assert (d.kind, d.actor, d.legal) == ("catcher_throw", BOS, (rules.PASS, rules.YES))
    go(state, rules.YES)
    assert state.dice.log == [("catcher", roll)]
    assert [p.kind for p in state.log.plays][-2:] == ["card", "caught_stealing" if out else "steal"]
    last = state.log.plays[-1]
    assert last.actor == posada and last.base == base + 1
    if out:
        assert state.board.outs == 1 and state.board.bases == (None, None, None)
        assert last.roll == roll and last.detail == str(roll + 2 + (5 if base == 1 else 0))
        assert pitching_line(state, BOS, pedro).outs == 1
    else:
        after = [None, None, None]
        after[base + 1] = posada
        assert state.board.outs == 0 and state.board.bases == tuple(after)
        assert last.detail == "card"


def test_card_steal_without_the_throw_needs_no_roll():
    """Strategy Cards: "the catcher can try to throw him out" (he may let him go): the
    catcher's manager passes, no die is rolled, the runner is safe."""
    state = game([])
    situation(state, bases=("Jorge Posada", None, None), batter="Alex Rodriguez")
    deal(state, away=["Green Light"])
    pass_until_card(state)
    go(state, play("Green Light"))
    assert state.pending.kind == "catcher_throw"
    go(state, rules.PASS)
    posada = idx(state, NYY, "Jorge Posada")
    assert state.board.bases == (None, posada, None) and state.dice.log == []


@pytest.mark.parametrize("short, passes", [(0, True), (1, False)])
def test_diving_stop_fielding_check_passes_at_21(short, passes):
    """Strategy Cards: "To make a Fielding check, the defense rolls a die and adds the
    requested players' total Fielding to the roll. If the total is 21 or more, the check
    passes. If the total is 20 or less, the check fails." Diving Stop: "Play on a 1B read
    on the batter's chart: if the infield passes a Fielding check, it becomes a GB." A-Rod
    singles on his own chart; the Red Sox infield's check totals exactly 21 (a GB: he is
    out) or 20 (the single stands)."""
    arod_chart = TEAMS[NYY].players[1].chart
    probe = game([])
    infield = probe.fielding(BOS, INFIELD)
    check = 21 - infield - short
    assert 1 <= check <= 20
    state = game([("pitch", 1), ("swing", swing_for(arod_chart, "1B")), ("check", check)])
    situation(state, batter="Alex Rodriguez")
    deal(state, home=["Diving Stop"])
    pass_until_card(state)
    d = state.pending
    assert (d.actor, d.subject) == (BOS, rules.WINDOWS.index("on_result"))
    assert state.ab.chart == "B" and state.ab.result == "1B"
    assert legal_cards(state) == ["Diving Stop"]
    go(state, play("Diving Stop"))
    total = check + infield
    fc = plays(state, "fielding_check")[0]
    assert fc.roll == check and fc.detail == f"{total} {'passes' if passes else 'fails'}"
    pa = plays(state, "pa")[0]
    arod = idx(state, NYY, "Alex Rodriguez")
    if passes:
        assert total == 21 and extra(state, pa)[3] == "GB" and pa.detail == "GO"
        assert state.board.outs == 1
        assert state.board.bases == (None, None, None)
    else:
        assert total == 20 and pa.detail == "1B" and state.board.bases == (arod, None, None)


def test_over_the_shoulder_turns_a_double_into_a_fly_ball():
    """Strategy Cards: "If the total is 21 or more, the check passes." Over the Shoulder:
    "Play on a 2B or 3B: if the outfield passes a Fielding check at +4, it becomes an FB."
    Complete At-Bat Sequence: "After the swing, both managers may play strategy cards
    again, including ones that change the result to something else." A-Rod's double is
    caught: an FB, one out, nobody on."""
    arod_chart = TEAMS[NYY].players[1].chart
    probe = game([])
    outfield = probe.fielding(BOS, OUTFIELD)
    check = 21 - 4 - outfield
    state = game([("pitch", 1), ("swing", swing_for(arod_chart, "2B")), ("check", check)])
    situation(state, batter="Alex Rodriguez")
    deal(state, home=["Over the Shoulder"])
    pass_until_card(state)
    assert state.ab.result == "2B" and legal_cards(state) == ["Over the Shoulder"]
    go(state, play("Over the Shoulder"))
    assert plays(state, "fielding_check")[0].detail == "21 passes"
    pa = plays(state, "pa")[0]
    assert extra(state, pa)[3] == "FB" and pa.detail == "FO"
    assert state.board.outs == 1 and state.board.bases == (None, None, None)


def test_paint_the_corner_adds_two_to_the_pitch():
    """Paint the Corner: "Play before the pitch: +2 to the pitch." (Pedro has no K icon.)
    Complete At-Bat Sequence 6: "Roll for the pitch"; the total is the roll, Control and
    the cards' bonus. Without the card the same roll totals 2 less."""
    for hand, bonus in ((["Paint the Corner"], 2), ([], 0)):
        state = game([("pitch", 9)])
        situation(state, batter="Alex Rodriguez")
        deal(state, home=hand)
        pedro = state.card(BOS, idx(state, BOS, "Pedro Martinez"))
        assert "K" not in pedro.icons and pedro.control == 2
        pass_until_card(state)
        if hand:
            go(state, play("Paint the Corner"))
        assert state.dice.log == [("pitch", 9)]
        assert state.ab.pitch == 9 + 2 + bonus
        assert state.ab.chart == ("P" if 9 + 2 + bonus > 12 else "B")      # A-Rod's On-Base 12


def _in_the_zone(pedro_icons):
    """Pedro (with ``pedro_icons``) plays In the Zone to Jeter with one out, then pitches to
    A-Rod (both strike out on his chart); Mussina pitches the bottom's first pitch."""
    bos = team_dict("bos2004")
    next(c for c in bos["players"] if c["name"] == "Pedro Martinez")["icons"] = pedro_icons
    so = swing_for(TEAMS[BOS].players[13].chart, "SO")
    state = game([("pitch", 18), ("swing", so), ("pitch", 17), ("swing", so), ("pitch", 16)],
                 bos=bos)
    situation(state, outs=1, batter="Derek Jeter")
    deal(state, home=["In the Zone"])
    pass_until_card(state)
    assert state.pending.actor == BOS and legal_cards(state) == ["In the Zone"]
    go(state, play("In the Zone"))
    return state


def test_in_the_zone_stays_in_play_for_the_half_inning_then_is_discarded():
    """Strategy Cards 4: "Once a strategy card is played, it goes to your discard pile unless
    the card says it should stay in play." Glossary, Discard: "Strategy cards are discarded
    at the end of each at-bat, unless the card text tells you to leave them in play." In the
    Zone: "+1 to every pitch for the rest of this half inning (the card stays in play)."
    Pedro plays it to Jeter: +1 on Jeter's pitch and on A-Rod's, with no card played in
    A-Rod's at-bat; at the third out it goes to the discard pile, and Mussina's pitch in
    the bottom half has no bonus."""
    state = _in_the_zone([])
    itz = C["In the Zone"]
    seen_in_play = False
    while state.pending is not None:
        if state.board.half == 0 and state.pa_index == 1:
            assert state.in_play[BOS] == [itz] and state.played[BOS] == []
            assert itz not in state.hands[BOS] and itz not in state.discards[BOS]
            seen_in_play = True
        go(state, rules.PASS)
    assert seen_in_play
    jeter, arod = plays(state, "pa")
    assert jeter.detail == arod.detail == "SO"
    assert extra(state, jeter)[0] == 18 + 2 + 1
    assert extra(state, arod)[0] == 17 + 2 + 1
    # the half inning is over: the card went to the discard pile
    assert state.board.half == 1 and state.board.outs == 0
    assert state.in_play == [[], []] and state.discards[BOS] == [itz]
    assert state.ab.pitch == 16 + 2                  # Mussina (Control 2): no bonus
    assert cardplay.pitch_bonus(state) == 0


def test_in_the_zone_20_bonus_stays_in_play_with_the_card():
    """In the Zone (cards.json): "+1 to every pitch for the rest of this half inning (the
    card stays in play). 20 bonus: if the pitcher has the 20 icon, +1 more." Expert Icons:
    "Strategy cards with the special ability icons have an extra bonus in addition to the
    normal bonus." strategy.py: ``lasts: inning`` -- "the card stays in play, its pitch,
    swing, edge and bonus effects in force for every at-bat, until the half inning ends".
    Pedro, given the 20 icon, keeps pitching: the card's +1 and its icon's +1 more are both
    on every pitch of the half inning, A-Rod's as well as Jeter's."""
    state = _in_the_zone(["20"])
    while state.pending is not None:
        go(state, rules.PASS)
    jeter, arod = plays(state, "pa")
    assert extra(state, jeter)[0] == 18 + 2 + 2
    assert extra(state, arod)[0] == 17 + 2 + 2, (
        f"A-Rod's pitch totals {extra(state, arod)[0]}: the 20 bonus of In the Zone, still in "
        f"play, was dropped after the at-bat it was played in")


def test_caught_stealing_for_the_third_out_before_the_pitch_ends_the_half():
    """Strategy Cards: "If the total beats the runner's Speed, the runner is out."
    Glossary, Strategy Cards: "At the end of the at-bat, discard the card." The third out
    comes before the pitch: A-Rod never completes his plate appearance, so he leads off the
    2nd inning (the batting order does not advance); Green Light goes to the discard pile."""
    mussina_chart = TEAMS[NYY].players[15].chart
    pu = swing_for(mussina_chart, "PU")
    state = game([("catcher", 10)] + [("pitch", 20), ("swing", pu)] * 3)
    situation(state, outs=2, bases=("Jorge Posada", None, None), batter="Alex Rodriguez")
    deal(state, away=["Green Light"])
    arod, pedro = idx(state, NYY, "Alex Rodriguez"), idx(state, BOS, "Pedro Martinez")
    slot = state.order[NYY]
    pass_until_card(state)
    go(state, play("Green Light"))
    go(state, rules.YES)
    assert plays(state, "caught_stealing")
    assert state.board.half == 1 and state.board.inning == 1 and state.board.outs == 0
    assert state.order[NYY] == slot
    assert state.discards[NYY] == [C["Green Light"]] and state.played == [[], []]
    assert not plays(state, "pa") and batting_line(state, NYY, arod).pa == 0
    assert pitching_line(state, BOS, pedro).outs == 1
    # the Red Sox go down in order; A-Rod leads off the 2nd
    while state.pending is not None and not (state.board.inning == 2
                                             and state.pending.kind == "intentional_walk"):
        go(state, rules.PASS)
    assert state.board.inning == 2 and state.board.half == 0
    assert state.batter_index == arod and state.pa_index == 0


# ================================================================== 5. hidden information


def _hide_differently(state, viewer, rng):
    """A copy of ``state`` that differs only in what ``viewer`` cannot see: the other
    manager's hand (cards swapped with his deck's, each for another name) and the order of
    both decks."""
    other = state.clone()
    opp = 1 - viewer
    hand, deck = other.hands[opp], other.decks[opp]
    for _ in range(3):
        pairs = [(i, j) for i in range(len(hand)) for j in range(len(deck)) if hand[i] != deck[j]]
        if not pairs:
            break
        i, j = rng.choice(pairs)
        hand[i], deck[j] = deck[j], hand[i]
    for t in (0, 1):
        rng.shuffle(other.decks[t])
    return other


def test_hidden_cards_never_reach_the_deciding_managers_observation_or_view():
    """Strategy Cards 2-3: the deck is put "face down in front of you"; the cards drawn "are
    held in your hand so that your opponent can't see them". Glossary, Discard Pile: "Your
    discard pile is always face up." At many decisions of random card games, a twin state
    whose other hand and deck orders differ gives the deciding manager the same
    observation, mask, view and infos; the other manager (who sees his own hand) sees the
    change. Both managers see both discard piles and the cards in play."""
    rng = random.Random(0)
    a_env = showdown_v0.raw_env(level="expert", decks="default")
    b_env = showdown_v0.raw_env(level="expert", decks="default")
    b_env.reset(seed=0)
    checked = differs = card_decisions = public_checked = in_play_seen = 0
    for seed in range(30):
        a_env.reset(seed=seed)
        n = 0
        while a_env.game.pending is not None:
            n += 1
            state = a_env.game
            d = state.pending
            if n % 6 == 0 or d.kind in ("play_card", "catcher_throw") and n % 2 == 0:
                viewer = d.actor
                opp = 1 - viewer
                agent, opp_agent = AGENTS[viewer], AGENTS[opp]
                twin = _hide_differently(state.clone(), viewer, rng)
                for t in (0, 1):
                    assert Counter(twin.decks[t] + twin.hands[t]) == \
                        Counter(state.decks[t] + state.hands[t])
                    assert twin.hands[t] == state.hands[t] or t == opp
                b_env.restore(twin)
                oa, ob = a_env.observe(agent), b_env.observe(agent)
                assert np.array_equal(oa["observation"], ob["observation"]), (seed, d)
                assert np.array_equal(oa["action_mask"], ob["action_mask"])
                assert a_env.view(agent) == b_env.view(agent), (seed, d)
                ia, ib = dict(a_env.infos[agent]), dict(b_env.infos[agent])
                la, lb = ia.pop("decision")["labels"], ib.pop("decision")["labels"]
                assert ia == ib and a_env.infos[agent]["decision"]["kind"] == d.kind
                assert la == lb, (seed, d)
                # (the labels as the engine gives them now, whatever the env's cache holds)
                assert rules.option_labels(state, d) == rules.option_labels(twin, d)
                if Counter(twin.hands[opp]) != Counter(state.hands[opp]):
                    assert a_env.view(opp_agent) != b_env.view(opp_agent)
                    assert not np.array_equal(a_env.observe(opp_agent)["observation"],
                                              b_env.observe(opp_agent)["observation"])
                    differs += 1
                card_decisions += d.kind == "play_card"
                checked += 1
                # the face-up cards: the same for both managers, and what the state holds
                views = [a_env.view(a) for a in AGENTS]
                for pile in ("discards", "in_play", "played"):
                    want = tuple(tuple(getattr(state, pile)[t].count(i) for i in range(44))
                                 for t in (0, 1))
                    assert getattr(views[0], pile) == getattr(views[1], pile) == want, pile
                assert views[0].hand_sizes == views[1].hand_sizes == \
                    (len(state.hands[0]), len(state.hands[1]))
                in_play_seen += bool(state.in_play[0] or state.in_play[1])
                # ... and a change in the other manager's discard pile reaches the viewer
                if state.discards[opp]:
                    shown = state.clone()
                    shown.decks[opp].append(shown.discards[opp].pop())
                    b_env.restore(shown)
                    assert a_env.view(agent).discards != b_env.view(agent).discards
                    assert not np.array_equal(a_env.observe(agent)["observation"],
                                              b_env.observe(agent)["observation"])
                    public_checked += 1
            a_env.step(rng.choice(d.legal))
    assert checked > 300 and differs > 200 and card_decisions > 50
    assert public_checked > 50 and in_play_seen > 0


# ================================================================== 6. conservation

def test_cards_are_conserved_and_played_only_from_the_hand():
    """Strategy Cards 1-4 and the Glossary (Deck, Draw, Discard, Discard Pile): every card
    of the 60 is in the deck, the hand, the discard pile, in play or on the table for the
    at-bat, at every decision of 50 random card games; and each card logged as played was
    in that manager's hand just before ("You keep your cards in your hand until you want to
    play them")."""
    played = 0
    for seed in range(50):
        state = card_game(seed)
        rng = random.Random(seed)
        while state.pending is not None:
            for t in (0, 1):
                assert census(state, t) == DECK_CENSUS, (seed, t)
            d = state.pending
            hands = [list(h) for h in state.hands]
            n = len(state.log.plays)
            action = rng.choice(d.legal)
            rules.apply_action(state, action)
            new = [p for p in state.log.plays[n:] if p.kind == "card"]
            if d.kind == "play_card" and action != rules.PASS:
                assert len(new) == 1 and new[0].actor == d.actor
                assert new[0].detail == CS.names[action - rules.CARD]
            else:
                assert not new
            for p in new:
                assert C[p.detail] in hands[p.actor], (seed, p)
                played += 1
        for t in (0, 1):
            assert census(state, t) == DECK_CENSUS
    assert played > 500


def test_infos_labels_are_those_of_the_decision_at_hand():
    """Strategy Cards: "If a card lets 2 runners try to steal, the catcher's manager
    chooses who to try to throw out": the labels of a ``catcher_throw`` decision name the
    runners at stake ("throw at <runner>"), and core/aec.py's infos hold "a label for every
    action index" of the agent's pending decision. At every decision of random card games
    the labels in the deciding manager's infos are those ``rules.option_labels`` gives for
    the decision and state at hand."""
    env = showdown_v0.raw_env(level="expert", decks="default")
    rng = random.Random(1)
    wrong, asked = Counter(), Counter()
    example = {}
    for seed in range(20):
        env.reset(seed=seed)
        while env.game.pending is not None:
            state, d = env.game, env.game.pending
            labels = env.infos[AGENTS[d.actor]]["decision"]["labels"]
            fresh = rules.option_labels(state, d)
            asked[d.kind] += 1
            bad = [(labels[a], fresh[a]) for a in d.legal if labels[a] != fresh[a]]
            if bad:
                wrong[d.kind] += 1
                example.setdefault(d.kind, (seed, bad))
            env.step(rng.choice(d.legal))
    assert asked["catcher_throw"] > 10
    assert not wrong, (f"stale labels (decisions with a wrong label / asked): "
                       f"{ {k: (n, asked[k]) for k, n in wrong.items()} }; "
                       f"(infos label, the decision's label): {example}")


def test_the_card_list_matches_the_card_set():
    """``data/strategy/CARDS.md`` (the cards a newcomer reads) is the built-in set and deck."""
    from importlib import resources
    from dugout.envs.showdown.strategy import card_list_markdown, cards_markdown
    text = resources.files("dugout.envs.showdown").joinpath("data/strategy/CARDS.md").read_text("utf-8")
    assert text == card_list_markdown() and text.startswith(cards_markdown(CS, DECK))
    assert all(f"| {name} |" in text for name in CS.names)


def test_off_the_wall_icon_bonus_has_the_last_word():
    """Expert Icons: "Strategy cards with the special ability icons have an extra bonus in
    addition to the normal bonus." Off the Wall: "Play on a 2B by a Speed A or B batter: it
    becomes a 3B. HR bonus: if the batter has the HR icon, it becomes an HR instead." A-Rod
    (Speed B once edited) doubles: a triple without the icon, a home run with it."""
    for icons, result in (([], "3B"), (["HR"], "HR")):
        nyy = team_dict("nya2004")
        arod = next(c for c in nyy["players"] if c["name"] == "Alex Rodriguez")
        arod["icons"], arod["speed"] = icons, 15
        chart = team_from_dict(nyy, "nyy", point_cap=None).players[1].chart
        state = game([("pitch", 1), ("swing", swing_for(chart, "2B"))], nyy=nyy)
        situation(state, batter="Alex Rodriguez")
        deal(state, away=["Off the Wall"])
        pass_until_card(state)
        while state.pending.kind == "play_card" and state.pending.actor != NYY:
            go(state, rules.PASS)           # the defense is asked first
        assert state.ab.result == "2B" and legal_cards(state) == ["Off the Wall"]
        go(state, play("Off the Wall"))
        assert extra(state, plays(state, "pa")[0])[3] == result


# ================================================================== review cases

def test_a_runner_stolen_to_third_after_the_bunt_is_called_scores_on_it():
    """Expert Managerial Options: "On any other result, the batter is out and all runners
    advance 1 base"; "(Note: Some strategy cards may allow you to bunt a runner in from third
    base.)" The Yankees bunt with Posada on second; Green Light (the catcher lets him go)
    puts him on third before the bunt's roll; the bunt (a GB on Pedro's chart) scores him."""
    pedro_chart = TEAMS[BOS].players[13].chart
    state = game([("swing", swing_for(pedro_chart, "GB"))])
    situation(state, bases=(None, "Jorge Posada", None), batter="Alex Rodriguez")
    deal(state, away=["Green Light"])
    go(state)
    while state.pending.kind != "sacrifice_bunt":
        go(state, rules.PASS)
    go(state, rules.YES)
    pass_until_card(state)
    go(state, play("Green Light"))
    go(state, rules.PASS)                       # no throw: he steals third
    while state.pending is not None:
        go(state, rules.PASS)
    posada = idx(state, NYY, "Jorge Posada")
    pa = plays(state, "pa")[0]
    assert pa.detail == "SH" and pa.scored == (posada,)
    assert state.board.runs == [1, 0] and state.board.outs == 1
    assert batting_line(state, NYY, idx(state, NYY, "Alex Rodriguez")).rbi == 1


@pytest.mark.parametrize("card", ["Trap Play", "Aggressive Baserunning"])
def test_after_a_result_the_batter_is_not_a_runner(card):
    """Glossary, Runner: "A runner is any player who was safely on base before the result of
    the current at-bat"; Batter: "considered a runner only after he reaches first base
    safely and his at-bat is over". After a bases-empty single, cards for "runners on base"
    are not playable: the batter on first is not one."""
    arod_chart = TEAMS[NYY].players[1].chart
    away, home = ([card], []) if card == "Aggressive Baserunning" else ([], [card])
    state = game([("pitch", 1), ("swing", swing_for(arod_chart, "1B"))])
    situation(state, batter="Alex Rodriguez")
    deal(state, away=away, home=home)
    offered = []
    go(state)
    while state.pending is not None:
        if state.pending.kind == "play_card":
            offered += legal_cards(state)
        go(state, rules.PASS)
    assert plays(state, "pa")[0].detail == "1B" and offered == []


def test_card_sets_and_decks_given_as_objects_are_checked_and_saved():
    """A ``CardSet`` built in code saves and restores with the game (from its cards, not
    from a file); a ``Deck`` object is held to the deck rules ("you don't have more than 4
    cards with the same name in your deck")."""
    from dugout.envs.showdown.strategy import CardSet, Deck
    built = CardSet("in code", CS.cards)               # no source data
    state = rules.new_game(TEAMS, Dice(3), level="expert", decks=(DECK, DECK), card_set=built)
    copy_ = type(state).from_dict(json.loads(json.dumps(state.to_dict())))
    assert copy_.card_set.cards == CS.cards and copy_.hands == state.hands
    with pytest.raises(DataError, match="at most|from 1 to 4|1 to 4"):
        load_deck(Deck("greedy", (("Paint the Corner", 60),)), CS)


@pytest.mark.parametrize("name", ["default", "small_ball", "power_pitching"])
def test_built_in_decks_keep_the_deck_rules(name):
    """Strategy Cards 1: "you may build a deck of 60 strategy cards ... as long as you don't
    have more than 4 cards with the same name in your deck": each built-in deck loads (the
    loader enforces both) and plays a game."""
    from dugout.envs.showdown.strategy import builtin_deck_names
    assert name in builtin_deck_names()
    deck = load_deck(name, CS)
    assert len(deck.cards()) == DECK_SIZE and max(n for _, n in deck.counts) <= 4
    state = rules.new_game(TEAMS, Dice(5), level="expert", decks=(deck, DECK), card_set=CS)
    rng = random.Random(5)
    while state.pending is not None:
        rules.apply_action(state, rng.choice(state.pending.legal))
    assert state.board.over
