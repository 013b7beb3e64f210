"""Bottom of the 9th's Longer Game (``mode="game"``), rule by rule with scripted dice.

Cards: the built-in set with every ability and trait removed (blank), every Ace High &
Inside. A strikeout is three pitches of ("pitch", 4) S, ("control", 6), ("swing", 1); a
walk with three balls is ("pitch", 1) B, ("control", 3), ("swing", 2).
"""

from __future__ import annotations

import json

import pytest

from dugout.envs import bottom_ninth_v0
from dugout.envs.bottom_ninth import game, rules
from dugout.envs.bottom_ninth.cards import BUILTIN_PATH, Effect, load_cards
from dugout.envs.bottom_ninth.rules import (CARD, DONE, FATIGUE_DIR, GUESS, KEEP, PASS,
                                            REROLL_CONTROL, REROLL_SWING, SLOT, THROW,
                                            apply_action)
from dugout.envs.bottom_ninth.support import load_support
from dugout.envs.core import IllegalActionError, ScriptedDice

K = [("pitch", 4), ("control", 6), ("swing", 1)] * 3
BALL = [("pitch", 1), ("control", 3), ("swing", 2)]


def table(direction=(), location=(), both=()):
    return {"direction": list(direction), "location": list(location), "both": list(both)}


def blank_data(batting=None, mvp=None) -> dict:
    """The built-in set's data with every ability and trait removed, every Ace High & Inside."""
    data = json.loads(BUILTIN_PATH.read_text())
    for b in data["batters"]:
        b["stare_down"], b["mvp"], b["traits"] = table(), list(mvp or []), []
    for p in data["pitchers"]:
        p["stare_down"], p["traits"] = table(), []
        p["ace"] = {"direction": "inside", "location": "high", "ability": []}
        p["batting"] = batting or table()
    return data


def blank_set(batting=None, mvp=None):
    return load_cards(blank_data(batting, mvp))


def new(rolls, **kw):
    kw.setdefault("innings", 3)
    return rules.new_game(ScriptedDice(rolls), kw.pop("cards", None) or blank_set(), mode="game",
                          supports=load_support(), **kw)


def at(state, inning, half, runs=(0, 0), line=None):
    """Move the game to the start of a half inning (as if the halves before were played)."""
    b = state.board
    b.inning, b.half, b.outs, b.bases = inning, half, 0, (None, None, None)
    b.runs = list(runs)
    b.line = line or [[runs[0]] + [0] * (inning - 1), ([runs[1]] + [0] * (inning - 2 + half)) if inning - 1 + half else []]
    state.pending, state.step = None, "half_start"
    rules.run(state)


def answer(state, stop=None, **choices):
    """Play the pending decisions until a pitch or guess is not scripted: pitch -> the
    first legal, guess -> High & Inside (a miss of the blank cards' pitches), the rest
    by ``choices`` (kind -> action) or the first legal."""
    while state.pending is not None:
        d = state.pending
        if stop is not None and stop(state):
            return
        if d.kind in choices:
            action = choices[d.kind]
            if isinstance(action, list):
                action = action.pop(0) if action else d.legal[0]
        elif d.kind == "guess":
            action = GUESS + 3
        else:
            action = d.legal[0]
        try:
            apply_action(state, action)
        except Exception as e:                               # the script ran out
            if type(e).__name__ == "DiceScriptError":
                return
            raise


def test_sides_switch_at_three_outs_and_roles_follow():
    state = new(K * 3)
    assert (state.board.half, state.pending.kind, state.pending.actor) == (0, "pitch", 1)
    answer(state, stop=lambda s: s.board.half == 1)
    assert state.board.half == 1 and state.board.inning == 1 and state.board.outs == 0
    assert state.pitcher == state.mound[0]                   # away's starter on the mound
    assert state.order == [3, 0]
    assert state.pending.kind == "pitch" and state.pending.actor == 0
    apply_action(state, THROW + 1)
    assert state.pending.kind == "guess" and state.pending.actor == 1


def test_home_does_not_bat_in_the_last_inning_when_ahead():
    state = new(K * 3, innings=2)
    at(state, 2, 0, runs=(0, 1), line=[[0, 0], [1]])
    answer(state)
    b = state.board
    assert b.over and b.winner == 1 and b.line[1] == [1]
    env = bottom_ninth_v0.raw_env(mode="game", render_mode="ansi")
    env.reset(seed=0)
    env.unwrapped.state_ = state
    assert "  x" in state.box.render_line_score(b)


def test_walk_off_ends_the_game():
    state = new(BALL, innings=1)
    at(state, 1, 1, line=[[0], [0]])
    state.board.bases = (0, 1, 2)
    state.balls = 3
    answer(state)
    b = state.board
    assert b.over and b.winner == 1 and b.runs == [0, 1]
    assert state.allowed[0] == 1


def test_extra_innings_then_a_tie_cut_off_by_max_innings():
    state = new(K * 3, innings=1)
    at(state, 1, 1, line=[[0], [0]])
    answer(state, stop=lambda s: s.board.inning == 2)
    assert not state.board.over and (state.board.inning, state.board.half) == (2, 0)
    state = new(K * 3, innings=1, max_innings=1)
    at(state, 1, 1, line=[[0], [0]])
    answer(state)
    assert state.board.over and state.board.truncated and state.board.winner is None


def test_inning_fatigue_reset_then_one_per_run_allowed():
    """"At the start of each Inning, reset the Fatigue Track, then Fatigue the Pitcher 1 for
    each Run they have allowed in the game": the manager places each point."""
    state = new([])
    state.allowed[1] = 2
    state.fatigue = [2, 2]
    state.board.inning = 2
    state.pending, state.step = None, "half_start"
    rules.run(state)
    assert state.pending.kind == "pitching_change"
    # at the change the table already shows this pitcher's own reset tokens and the two
    # points his runs will add, not the tokens of the pitcher who finished the last half
    assert state.fatigue == [0, 0] and state.fatigue_left == 2
    apply_action(state, KEEP)
    assert state.fatigue == [0, 0] and state.pending.kind == "fatigue_split"
    assert state.pending.actor == 1 and state.fatigue_left == 2
    apply_action(state, FATIGUE_DIR)
    apply_action(state, FATIGUE_DIR + 1)
    assert state.fatigue == [1, 1] and state.pending.kind == "pitch"
    # five runs: three to the direction token (its bottom, row 3), the rest go to location
    state = new([])
    state.allowed[1] = 5
    state.board.inning = 2
    state.pending, state.step = None, "half_start"
    rules.run(state)
    apply_action(state, KEEP)
    for _ in range(3):
        assert set(state.pending.legal) == {FATIGUE_DIR, FATIGUE_DIR + 1}
        apply_action(state, FATIGUE_DIR)
    assert state.fatigue == [3, 2] and state.pending.kind == "pitch"


@pytest.mark.parametrize("innings, rows", [(3, [0, 1, 1]), (4, [0, 0, 1])])
def test_first_reliever_at_the_top_the_next_at_row_one(innings, rows):
    """"The first Pitch Reliever ignores the Relief Pitcher rules ... Each consecutive
    Pitcher follows the rule"; "In any game lasting longer than 3 Innings, the first and
    second Reliever used by each team starts at the top"."""
    seen = []
    state = new(BALL * 12, innings=innings)           # three walks: three clean-ups
    while len(seen) < 3 and not state.board.over:
        d = state.pending
        if d is None:
            break
        if d.kind == "pitching_change":
            apply_action(state, d.legal[1])
            seen.append((state.fatigue[:], state.ceiling))
            assert state.lineups[1][state.pslot[1]] == state.pitcher
        elif d.kind == "guess":
            apply_action(state, GUESS + 3)
        else:
            apply_action(state, d.legal[0])
    assert seen == [([r, r], r) for r in rows]
    assert state.relievers[1] == 3 and len(state.removed) == 3
    assert not game.bullpen(state, 1)                # a removed pitcher never returns


def _bench_game(rolls=()):
    state = new(list(rolls), batters=10)
    return state


def test_pinch_hit_into_a_slot_not_due_keeping_positions():
    state = new([], batters=10, teams="default")
    # away bats first: its pinch-hit decision precedes the first pitch
    assert state.pending.kind == "pinch_hit" and state.pending.actor == 0
    assert state.pending.legal[-1] == PASS
    card = max((a - CARD for a in state.pending.legal[:-1]),
               key=lambda c: len(set(game.sub_slots(state, 0, c)) - {0}))
    apply_action(state, CARD + card)
    d = state.pending
    assert d.kind == "pinch_slot" and d.actor == 0
    legal = {a - SLOT for a in d.legal}
    ok = {s for s in range(9) if s != state.pslot[0] and game._fielders(state, 0, s, card)}
    assert legal == ok and 8 not in legal
    bad = [s for s in range(8) if s not in legal]
    assert bad, "some slot would break the one-per-position rule"
    with pytest.raises(IllegalActionError):
        apply_action(state, SLOT + bad[0])
    slot = max(legal - {0})                          # not the batter due up
    out = state.lineups[0][slot]
    apply_action(state, SLOT + slot)
    assert state.lineups[0][slot] == card and card not in state.benches[0]
    assert out not in state.lineups[0] and out not in state.benches[0]
    assert state.order[0] == 0 and state.box.lines[0][state.slot_lines[0][slot]].name == \
        state.cards.card(card).name
    assert state.pending.kind == "pitch"


def test_double_switch():
    """"a Batter and Pitcher may be substituted simultaneously. The new players may be placed
    in either substitute position of the hitting lineup"."""
    state = new(K, batters=10)
    answer(state, stop=lambda s: s.pending.kind == "pitching_change", pinch_hit=[PASS])
    d = state.pending
    assert d.kind == "pitching_change" and d.actor == 1
    new_pitcher = d.legal[1] - CARD
    apply_action(state, d.legal[1])
    assert state.pending.kind == "double_switch" and state.pending.actor == 1
    card = state.pending.legal[0] - CARD
    apply_action(state, CARD + card)
    assert state.pending.kind == "pinch_slot"
    slot = state.pending.legal[0] - SLOT
    replaced = state.lineups[1][slot]
    apply_action(state, SLOT + slot)
    assert state.pending.kind == "double_switch_slot"
    assert set(state.pending.legal) == {SLOT + slot, SLOT + 8}
    apply_action(state, SLOT + slot)                  # the new pitcher bats in the batter's slot
    assert state.pslot[1] == slot and state.lineups[1][slot] == new_pitcher
    assert state.lineups[1][8] == card and replaced not in state.lineups[1]
    assert state.mound[1] == new_pitcher == state.pitcher


def test_batting_pitcher_uses_his_batting_table_and_has_no_mvp():
    """"While batting, a Pitcher has no trait or MVP, and may only gain the Abilities from
    the Stare Down tokens"."""
    plus = {"modify": "swing", "by": 1}
    cs = blank_set(batting=table(both=[plus]), mvp=[{"reroll": "swing"}])
    state = new([("pitch", 4), ("control", 3), ("swing", 2)], cards=cs)
    state.order[0] = 8                                # away's pitcher is up
    state.pending, state.step, state.pitch_no = None, "stare_down", 0
    rules.run(state)
    assert state.batter_card == state.mound[0]
    apply_action(state, THROW + 1)
    apply_action(state, GUESS + 1)                    # exact guess
    apply_action(state, state.pending.legal[0]) if state.pending.kind == "pitcher_ability" else None
    assert [(g.source, g.effect.kind) for g in state.grants[1]] == [("both", "modify")]
    assert state.pending.kind == "batter_ability" and state.pending.actor == 0


def test_support_card_grant_once_per_game():
    """support=True, teams="default": away holds the hitting coach (reroll the Swing die),
    home the pitching coach (reroll the Control die), each usable once per game."""
    state = new([("pitch", 4), ("control", 3), ("swing", 2), ("swing", 3),
                 ("pitch", 4), ("control", 3), ("swing", 2)], support=True)
    assert state.support == [0, 1]
    apply_action(state, THROW + 1)
    apply_action(state, GUESS + 3)
    assert state.pending.kind == "pitcher_ability" and state.pending.actor == 1
    assert state.pending.legal == (DONE, REROLL_CONTROL)
    apply_action(state, DONE)                          # home keeps its coach for later
    assert state.pending.kind == "batter_ability" and state.pending.actor == 0
    assert state.pending.legal == (DONE, REROLL_SWING)
    apply_action(state, REROLL_SWING)
    assert state.support_used == [True, False] and "swing 3" in state.last
    apply_action(state, THROW + 1)
    apply_action(state, GUESS + 3)
    assert state.pending.kind == "pitcher_ability"     # home's coach still there
    apply_action(state, DONE)
    assert state.pending is None or state.pending.kind != "batter_ability"   # away's is spent


@pytest.mark.parametrize("options", [{"mode": "game"}, {"mode": "game", "teams": "choose", "draft": True,
                                                          "batters": 10, "support": True}])
def test_secrecy_in_the_game_both_halves(options):
    import random
    env = bottom_ninth_v0.raw_env(render_mode="ansi", **options)
    halves = set()
    for seed in range(6):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.game.pending is not None:
            d = env.game.pending
            if d.kind == "pitch" and len(d.legal) > 1 and rng.random() < 0.3:
                batter = ("away", "home")[1 - d.actor]
                saved = env.game.clone()
                sides = []
                for a in d.legal:
                    env.restore(saved.clone())
                    env.step(a)
                    g = env.unwrapped
                    o = g.observe(batter)
                    sides.append((o["observation"].tobytes(), o["action_mask"].tobytes(),
                                  json.dumps(g.infos[batter], sort_keys=True), repr(g.view(batter)),
                                  g.render(), json.dumps(g.game.log.to_list())))
                    assert env.view(("away", "home")[d.actor]).committed == a - THROW
                assert all(s == sides[0] for s in sides)
                halves.add(env.game.board.half)
                env.restore(saved)
            env.step(rng.choice(d.legal))
    assert halves == {0, 1}


def test_game_options_and_box_score():
    env = bottom_ninth_v0.raw_env(mode="game", innings=2, max_innings=4)
    env.reset(seed=5)
    assert env.game.board.innings == 2
    import random
    rng = random.Random(5)
    while env.game.pending is not None:
        env.step(rng.choice(env.game.pending.legal))
    box = env.box_score()
    assert box["runs"] == list(env.game.score) and len(box["batting"][0]) >= 9
    from dugout.envs.core import OptionError
    for kw, words in ((dict(mode="game", batters=11), "batters"), (dict(mode="game", pitchers=5), "pitchers"),
                      (dict(batters=10), "mode='game'"), (dict(mode="game", support="yes"), "support"),
                      (dict(mode="game", teams={"batters": []}), "teams")):
        with pytest.raises(OptionError, match=words):
            bottom_ninth_v0.raw_env(**kw)


def test_a_support_card_pays_only_when_no_grant_of_the_pitch_can():
    """A once-a-game support card and a grant won on this pitch both allow a swing reroll:
    the pitch's grant pays, the support card stays for later (RULES.md, "Which grant pays")."""
    state = new([], support=True)
    state.grants[1] = [rules.Grant("support", Effect("reroll", "swing"), 1),
                       rules.Grant("both", Effect("choose", n=1, options=(
                           Effect("reroll", "swing"), Effect("modify", "swing", by=0))), 1)]
    paid = rules.spend_grant(state, 1, REROLL_SWING)
    assert paid.source == "both" and [g.source for g in state.grants[1]] == ["support"]
    assert state.support_used == [False, False]


def test_a_natural_roll_grant_pays_before_an_unconditional_one():
    """Two swing rerolls, one only on a natural 1: on a natural 1 the conditional one pays,
    so the unconditional one is left for the new roll."""
    state = new([])
    state.swing = state.swing_natural = 1
    state.grants[1] = [rules.Grant("both", Effect("reroll", "swing"), 1),
                       rules.Grant("both", Effect("reroll", "swing", if_natural=(1,)), 1)]
    paid = rules.spend_grant(state, 1, REROLL_SWING)
    assert paid.effect.if_natural == (1,)
    assert state.grants[1][0].effect.if_natural == ()


@pytest.mark.parametrize("batters, pitchers, support", [(8, 4, False), (10, 2, True), (9, 3, False)])
def test_default_teams_are_the_first_legal_picks_worked_out_once(batters, pitchers, support):
    """teams="default": the first legal pick at every choice of the "choose" set-up, the
    pitchers' as first shipped (the mask then did not check a pitcher's own designation:
    the set's pitchers in order, away's first; RULES.md). The picks are worked out once per
    card set and team sizes and copied: a later game gets the same teams as one worked out
    afresh, in lists of its own."""
    cards, supports = blank_set(), load_support()

    def new():
        return rules.new_game(ScriptedDice([]), cards, mode="game", innings=3, batters=batters,
                              pitchers=pitchers, support=support, supports=supports)

    def teams(state):
        return state.lineups, state.benches, state.staffs, state.support

    game._PRESETS.clear()
    fresh = new()
    chosen = rules.new_game(ScriptedDice([]), cards, mode="game", innings=3, teams="choose",
                            batters=batters, pitchers=pitchers, support=support, supports=supports)
    while chosen.step != "play_ball" and chosen.pending is not None \
            and chosen.pending.kind.startswith("select"):
        apply_action(chosen, chosen.pending.legal[0])
    assert [x[:8] for x in chosen.lineups] == [x[:8] for x in fresh.lineups]
    assert chosen.benches == fresh.benches
    first = len(cards.batters)
    assert fresh.staffs == [list(range(first, first + pitchers)),
                            list(range(first + pitchers, first + 2 * pitchers))]
    assert len(fresh.lineups[0]) == 9 and len(fresh.benches[1]) == batters - 8
    assert len(fresh.staffs[0]) == pitchers and fresh.support == ([0, 1] if support else [-1, -1])
    fresh.lineups[0].append(99)              # one game's lists are its own
    fresh.benches[1].clear()
    again = new()
    assert teams(again) == teams(new()) and 99 not in again.lineups[0]
    game._PRESETS.clear()
    assert teams(again) == teams(new())
