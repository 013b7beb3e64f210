"""MLB Showdown's card hooks (the ``hooks`` card set and deck): each effect, condition and
duration the 44 original cards could not express, with the original card that uses it,
replayed with scripted dice; the hooks deck as an env option (the default games untouched),
save and restore, the sampler and the heuristic."""

from __future__ import annotations

import random

import pytest

import helpers
from dugout import envs
from dugout.agents.play import head_to_head
from dugout.envs.core.dice import ScriptedDice
from dugout.envs.showdown import cardplay, rules
from dugout.envs.showdown.cards import load_team, speed_letter, team_from_dict
from dugout.envs.showdown.sample import public_setup, sample_state
from dugout.envs.showdown.state import new_at_bat
from dugout.envs.showdown.strategy import card_set_from_dict, load_card_set, load_deck
from dugout.envs.showdown.view import view_of
from showdown_scripts import go, idx, plays, situation, team_dict

NYY, BOS = 0, 1
CS = load_card_set("hooks")
DECK = load_deck("hooks", CS)
C = {name: i for i, name in enumerate(CS.names)}
TEAMS = (load_team("nya2004"), load_team("bos2004"))
HOOKS = {"level": "expert", "decks": "hooks"}


def game(script, nyy=None, bos=None):
    teams = TEAMS if nyy is None and bos is None else (
        team_from_dict(nyy or team_dict("nya2004"), "nyy", point_cap=None),
        team_from_dict(bos or team_dict("bos2004"), "bos", point_cap=None))
    return rules.new_game(teams, ScriptedDice(script), level="expert", starter=1, dh=True,
                          play=False, decks=(DECK, DECK), card_set=CS)


def deal(state, away=(), home=()):
    state.hands = [[C[n] for n in away], [C[n] for n in home]]
    state.decks = [[], []]
    state.discards = [[], []]
    return state


def offered(state):
    """Pass until a card is offered (or the game stops); the cards offered."""
    go(state)
    while state.pending is not None and not (
            state.pending.kind == "play_card" and len(state.pending.legal) > 1):
        if state.pending.kind != "play_card" and rules.PASS not in state.pending.legal:
            return []
        go(state, rules.PASS)
    if state.pending is None:
        return []
    return sorted(CS.names[a - rules.CARD] for a in state.pending.legal if a >= rules.CARD)


def play(state, name):
    return go(state, rules.CARD + C[name])


def chart_swing(chart, result):
    return next(r for r in range(1, 21) if chart.result(r) == result)


# ================================================================== the card set and deck

def test_the_hooks_set_keeps_the_44_cards_in_order_and_the_default_game_its_set():
    """The hook cards come after the 44 (whose indices, and so actions, are unchanged); the
    default deck still plays the 44-card set, the hooks deck the larger one."""
    base = load_card_set()
    assert CS.names[:len(base.names)] == base.names and len(CS.names) == len(base.names) + 7
    assert len(DECK.cards()) == 60 and max(n for _, n in DECK.counts) <= 4
    env = envs.make("showdown_v0", level="expert", decks="default")
    assert env.unwrapped.card_set.names == base.names
    env = envs.make("showdown_v0", **HOOKS)
    assert env.unwrapped.card_set.names == CS.names
    with pytest.raises(Exception, match="card_set"):
        from dugout.envs.showdown.strategy import deck_from_dict
        deck_from_dict({"name": "x", "card_set": "nope", "cards": dict(DECK.counts)}, CS)


@pytest.mark.parametrize("key, value, words", [
    ("innings", [0], "must be one of"),
    ("natural_20", "yes", "true or false"),
    ("runs_allowed", -1, "from 0 to 99"),
])
def test_bad_hook_conditions_name_the_field(key, value, words):
    card = {"name": "T", "color": "offense", "timing": "on_result", "text": "t",
            "requires": {key: value}, "effect": [{"do": "reroll_swing"}]}
    with pytest.raises(Exception, match=words) as e:
        card_set_from_dict({"cards": [card]}, "my-set")
    assert key in str(e.value) and "my-set" in str(e.value)


# ================================================================== each hook, scripted

def test_chase_the_starter_forces_him_out_and_a_reliever_comes_in_now():
    """Glossary, IP: "You can't take your starter out of the game until after the 4th inning,
    unless he's given up 10 runs or a strategy card forces him out." Chase the Starter: "if
    the opposing starter is on the mound and has given up 4 or more runs: he leaves the
    game; the defense brings in a reliever or closer now." In the 2nd, Pedro has given up 4
    (not offered at 3); the Red Sox must bring in a reliever (no pass), who faces A-Rod."""
    for runs, ok in ((3, False), (4, True)):
        state = game([])
        situation(state, inning=2, batter="Alex Rodriguez")
        pedro = idx(state, BOS, "Pedro Martinez")
        state.runs_charged[BOS][pedro] = runs
        deal(state, away=["Chase the Starter"])
        assert offered(state) == (["Chase the Starter"] if ok else [])
        if not ok:
            continue
        play(state, "Chase the Starter")
        d = state.pending
        assert (d.kind, d.actor, d.subject) == ("pitching_change", BOS, 2)
        assert rules.PASS not in d.legal and d.legal
        timlin = idx(state, BOS, "Mike Timlin")
        assert rules.PLAYER + timlin in d.legal
        go(state, rules.PLAYER + timlin)
        assert state.pitcher[BOS] == timlin and state.used[BOS][pedro]
        assert plays(state, "pitching_change")[-1].actor == timlin
        while state.pending is not None and state.pending.kind == "play_card":
            go(state, rules.PASS)
        assert state.pitcher[BOS] == timlin


@pytest.mark.parametrize("result, scores", [("GB", True), ("PU", False)])
def test_squeeze_play_bunts_the_runner_in_from_third(result, scores):
    """Expert Managerial Options: "You can't sacrifice bunt if you have a runner on third ...
    (Note: Some strategy cards may allow you to bunt a runner in from third base.)" and "If
    the result is a pop-up out (PU), the batter is out and the runners don't advance. On any
    other result, the batter is out and all runners advance 1 base." Squeeze Play with
    Jeter on third, one out: a GB on Pedro's chart scores him; a PU holds him."""
    pedro_chart = TEAMS[BOS].players[13].chart
    state = game([("swing", chart_swing(pedro_chart, result))])
    situation(state, outs=1, bases=(None, None, "Derek Jeter"), batter="Alex Rodriguez")
    deal(state, away=["Squeeze Play"])
    seen = []
    go(state)
    while state.pending.kind != "play_card" or len(state.pending.legal) == 1:
        seen.append(state.pending.kind)
        go(state, rules.PASS)
    assert "sacrifice_bunt" not in seen             # no bunt offered with a runner on third
    play(state, "Squeeze Play")
    while state.pending is not None:
        go(state, rules.PASS)
    jeter = idx(state, NYY, "Derek Jeter")
    assert state.dice.log == [("swing", chart_swing(pedro_chart, result))]   # no pitch
    assert state.board.outs == 2
    assert state.board.runs == ([1, 0] if scores else [0, 0])
    assert state.board.bases == ((None, None, None) if scores else (None, None, jeter))


def test_squeeze_needs_fewer_than_two_outs_and_a_runner_on_third():
    state = game([])
    situation(state, outs=2, bases=(None, None, "Derek Jeter"), batter="Alex Rodriguez")
    deal(state, away=["Squeeze Play", "Sit on the Fastball"])
    assert offered(state) == ["Sit on the Fastball"]


@pytest.mark.parametrize("roll, out", [(11, False), (12, True)])
def test_steal_of_home_the_catcher_throws_at_plus_five(roll, out):
    """Strategy Cards: "you can't try to steal home"; Glossary, Steal: "A runner can't steal
    home without strategy cards." Steal of Home: "Play before the pitch with a Speed A
    runner on third: he steals home; the catcher may throw at him, at +5." Jeter (made Speed
    18, A) on third; Varitek (Arm +2) throws: 11 + 2 + 5 = 18 does not beat 18 (he scores),
    12 + 2 + 5 = 19 does (out)."""
    nyy = team_dict("nya2004")
    next(c for c in nyy["players"] if c["name"] == "Derek Jeter")["speed"] = 18
    assert speed_letter(18) == "A"
    state = game([("catcher", roll)], nyy=nyy)
    situation(state, bases=(None, None, "Derek Jeter"), batter="Alex Rodriguez")
    deal(state, away=["Steal of Home"])
    assert offered(state) == ["Steal of Home"]
    play(state, "Steal of Home")
    d = state.pending
    assert (d.kind, d.actor, d.legal) == ("catcher_throw", BOS, (rules.PASS, rules.YES))
    go(state, rules.YES)
    jeter = idx(state, NYY, "Derek Jeter")
    assert state.board.bases == (None, None, None)
    if out:
        assert state.board.outs == 1 and state.board.runs == [0, 0]
        assert plays(state, "caught_stealing")[-1].detail == "19"
    else:
        assert state.board.outs == 0 and state.board.runs == [1, 0]
        assert plays(state, "steal")[-1].scored == (jeter,)


def test_a_walk_off_steal_of_home_ends_the_game_with_its_outs_on_the_board():
    """A card's run before the pitch can win the game: Steal of Home by the Red Sox in the
    bottom of the 9th, tied, one out, Damon (made Speed 18, A) on third; Posada's throw (a
    1) is too late. The game ends there as a walk-off at the plate does: the out made stays
    on the board (the pitchers' lines count it) and no half inning is closed after it."""
    bos = team_dict("bos2004")
    next(c for c in bos["players"] if c["name"] == "Johnny Damon")["speed"] = 18
    state = game([("catcher", 1)], bos=bos)
    situation(state, inning=9, half=1, outs=1, bases=(None, None, "Johnny Damon"),
              batter="Manny Ramirez")
    deal(state, home=["Steal of Home"])
    assert offered(state) == ["Steal of Home"]
    play(state, "Steal of Home")
    go(state, rules.YES)                                      # the Yankees throw
    b = state.board
    assert b.over and b.winner == BOS and b.runs == [0, 1]
    assert state.pending is None and state.step == "over"
    assert b.outs == 1 and (b.inning, b.half) == (9, 1) and b.line[1][-1] == 1
    assert plays(state, "steal")[-1].scored == (idx(state, BOS, "Johnny Damon"),)


def test_steal_of_home_needs_a_speed_a_runner_on_third():
    state = game([])
    situation(state, bases=(None, None, "Derek Jeter"), batter="Alex Rodriguez")
    deal(state, away=["Steal of Home", "Sit on the Fastball"])
    assert offered(state) == ["Sit on the Fastball"]          # Jeter is Speed 16 (B)


@pytest.mark.parametrize("swing, ok", [(20, True), (19, False)])
def test_barrel_it_up_is_a_natural_20_trigger(swing, ok):
    """Barrel It Up: "Play on a result read on the pitcher's chart when the swing's die shows
    a natural 20: it becomes an HR." Pedro's pitch (20 + Control) wins the advantage; A-Rod
    rolls 20 (offered: the HR stands) or 19 (not offered)."""
    state = game([("pitch", 20), ("swing", swing)])
    situation(state, batter="Alex Rodriguez")
    deal(state, away=["Barrel It Up"])
    cards = offered(state)
    assert state.ab.chart == "P" if ok else True
    if not ok:
        assert cards == []
        return
    assert cards == ["Barrel It Up"] and state.ab.swing == 20
    play(state, "Barrel It Up")
    while state.pending is not None:
        go(state, rules.PASS)
    assert plays(state, "pa")[0].detail == "HR" and state.board.runs == [1, 0]


@pytest.mark.parametrize("inning, ok", [(1, True), (3, True), (4, False)])
def test_early_command_only_in_the_first_three_innings(inning, ok):
    """Early Command: "Play before the pitch in the 1st, 2nd or 3rd inning: +3 to the pitch."
    (the ``innings`` condition)."""
    state = game([("pitch", 5)])
    situation(state, inning=inning, batter="Alex Rodriguez")
    deal(state, home=["Early Command"])
    cards = offered(state)
    assert cards == (["Early Command"] if ok else [])
    if ok:
        play(state, "Early Command")
        while state.pending is not None:
            go(state, rules.PASS)
        assert state.ab.pitch == 5 + 2 + 3                     # Pedro: Control 2


def test_infield_drills_stays_in_play_for_the_game_in_force_only_in_the_field():
    """Strategy Cards 4: "Once a strategy card is played, it goes to your discard pile unless
    the card says it should stay in play." Infield Drills: "+3 to the double-play roll
    whenever your team is in the field, for the rest of the game (the card stays in play)."
    Played by the Red Sox in the top of the 1st: at the end of the half it stays in play
    (In the Zone, for the half inning, would go); with the Red Sox at bat its bonus is not
    in force; with them back in the field it is."""
    state = game([])
    situation(state, bases=("Derek Jeter", None, None), batter="Alex Rodriguez")
    deal(state, home=["Infield Drills", "In the Zone"])
    assert "Infield Drills" in offered(state)
    play(state, "Infield Drills")
    assert cardplay.bonus(state, "dp_bonus") == 3
    state.played[BOS].append(C["In the Zone"])       # (as if played in the same half)
    cardplay.end_of_at_bat(state)
    cardplay.end_of_half(state)
    assert state.in_play[BOS] == [C["Infield Drills"]]
    assert state.discards[BOS] == [C["In the Zone"]]
    state.ab = new_at_bat()                            # (a new at-bat: nothing of this one)
    state.board.half = 1                               # the Red Sox bat
    assert cardplay.bonus(state, "dp_bonus") == 0
    state.board.half, state.board.inning = 0, 2        # back in the field
    assert cardplay.bonus(state, "dp_bonus") == 3


def test_all_or_nothing_discards_from_your_own_hand():
    """Glossary, Discard: "Strategy cards can also force you or your opponent to discard
    cards directly from your hand." All or Nothing: "Play before the pitch while you hold
    another card: discard a card from your hand at random; +4 to the swing." The Yankees
    hold it alone (not offered), then with Sit on the Fastball (discarded: it goes face up
    on their discard pile), and A-Rod's swing gets +4."""
    state = game([])
    situation(state, batter="Alex Rodriguez")
    deal(state, away=["All or Nothing"])
    assert offered(state) == []
    state = game([("discard", 0), ("pitch", 1), ("swing", 10)])
    situation(state, batter="Alex Rodriguez")
    deal(state, away=["All or Nothing", "Sit on the Fastball"])
    assert offered(state) == ["All or Nothing", "Sit on the Fastball"]
    play(state, "All or Nothing")
    while state.pending is not None:
        go(state, rules.PASS)
    assert state.dice.log[0] == ("discard", 0)
    assert state.hands[NYY] == []
    assert state.discards[NYY] == [C["Sit on the Fastball"], C["All or Nothing"]]
    pa = plays(state, "pa")[0]
    extra = state.log_extra[state.log.plays.index(pa)]
    assert extra[1:3] == ("B", 10)
    assert extra[3] == TEAMS[NYY].players[1].chart.result(10 + 4)      # read at 10 + 4


# ================================================================== env, sampler, heuristic

def _states(games: int, every: int):
    env = envs.make("showdown_v0", raw=True, **HOOKS)
    g = env.unwrapped
    for seed in range(games):
        env.reset(seed=seed)
        rng = random.Random(seed)
        n = 0
        while g.state_.pending is not None:
            d = g.state_.pending
            if n % every == 0 or (d.kind == "pitching_change" and d.subject == 2) \
                    or d.kind == "catcher_throw" or g.state_.ab.bunt:
                yield env, g.state_
            cards = [a for a in d.legal if a >= rules.CARD]
            env.step(rng.choice(cards) if cards and rng.random() < 0.7 else rng.choice(d.legal))
            n += 1


def test_hooks_games_save_restore_and_sample_at_every_kind_of_state():
    """Random hooks games (cards played when offered): every state saved and restored
    equal; samples of both seats' views show exactly the view, round-trip and play on."""
    from dugout.envs.core.engine import play_out
    kinds = set()
    for env, state in _states(helpers.games(6, 2), 15):
        d = state.pending
        kinds.add((d.kind, d.subject) if d.kind == "pitching_change" else d.kind)
        again = helpers.roundtrip(state)
        assert helpers.dumps(again) == helpers.dumps(state)
        for seat in (0, 1):
            view = view_of(state, seat)
            sample = sample_state(view, random.Random(seat), public_setup(env.unwrapped))
            assert view_of(sample, seat) == view
            rng = random.Random(seat)
            play_out(sample, rules, lambda s, dd: rng.choice(dd.legal), check=True)
            assert sample.over
    assert "catcher_throw" in kinds and "play_card" in kinds


def test_sampler_twins_differ_only_in_the_opponents_hand():
    """Two hooks games that differ only in the hidden cards give a manager the same samples."""
    env = envs.make("showdown_v0", raw=True, **HOOKS)
    env.reset(seed=4)
    g = env.unwrapped
    rng = random.Random(4)
    for _ in range(40):
        env.step(rng.choice(g.state_.pending.legal))
    state = g.state_
    seat = state.pending.actor
    twin = helpers.roundtrip(state)
    opp = 1 - seat
    pool = twin.hands[opp] + twin.decks[opp]
    random.Random(9).shuffle(pool)
    k = len(twin.hands[opp])
    twin.hands[opp], twin.decks[opp] = sorted(pool[:k]), pool[k:]
    assert view_of(twin, seat) == view_of(state, seat)
    a = sample_state(view_of(state, seat), random.Random(1), public_setup(g))
    b = sample_state(view_of(twin, seat), random.Random(1), public_setup(g))
    assert helpers.dumps(a) == helpers.dumps(b)


def test_the_heuristic_plays_the_hook_cards_and_beats_random():
    """A short seat-swapped match with the hooks deck: the heuristic beats random."""
    r = head_to_head("showdown_v0", "heuristic", "random", helpers.games(24, 8), seed=0,
                     env_kwargs=HOOKS)
    assert r.score > 0.6, r


def test_default_deck_games_still_play_the_44_cards():
    env = envs.make("showdown_v0", level="expert", decks="default")
    env.reset(seed=0)
    assert len(env.unwrapped.card_set.cards) == 44
