"""Bottom of the 9th's solo campaign, the Manager Challenge: the env's API and options, the
rulebook's solo rules replayed with scripted dice and a stacked Pitcher deck, hidden
information, save/restore, the solo card loader's validation, invariants over random
campaigns and the heuristic manager against random play.

Most tests use the test's own solo set (:func:`solo_data`), not the built-in balance. With
:class:`ScriptedDice` the scripted shuffles keep their order, so the Pitcher deck of the
first game is the set's order less the game's own cards: Situations 1-7 (the Home Opener,
Situation 0, is on the table), then the Effects but the one drawn. The dice calls of a
scripted campaign: ``("effect", k)`` when the first game starts (the Home Opener needs no
draw; a later game draws ``("situation", k)`` first), then per pitch ``("pitch", r)`` (the
default faces: 1-3 B, 4-5 S, 6 C) and ``("control", v)``, the automated pitcher's rerolls,
``("swing", v)``, then ``("crush", v)``/``("catch", v)`` or ``("run_swing", v)``/
``("run_control", v)``.
"""

from __future__ import annotations

import copy
import json
import random
import warnings

import gymnasium
import numpy as np
import pytest

import dugout.envs  # noqa: F401  (registers dugout/ManagerChallenge-v0)
from dugout.agents.manager_challenge import ChallengeHeuristic, ChallengeRandom, play_campaign
from dugout.envs import manager_challenge_v0
from dugout.envs.bottom_ninth import rules, solo
from dugout.envs.bottom_ninth.cards import load_cards
from dugout.envs.bottom_ninth.challenge import (OBS, ManagerChallengeEnv, challenge_view,
                                                encode_challenge)
from dugout.envs.bottom_ninth.rules import FATIGUE_PITCHER, GUESS, MVP
from dugout.envs.bottom_ninth.solo_cards import SOLO_PATH, load_solo, parse_solo
from dugout.envs.core import (DataError, Dice, DiceScriptError, IllegalActionError, OptionError,
                              ScriptedDice)
from dugout.envs.registry import GYM_IDS

from helpers import games
from test_bottom_ninth_cards import blank_cards, sample_cards

HI, HA, LI, LA = range(4)
B, S, C = 1, 4, 6                       # pitch-die rolls giving each face (3 B, 2 S, 1 C)
STANDARD, VETERAN, MOTY, HOF = range(4)
INFO_KEYS = {"decision", "action_mask", "game", "results", "wins", "losses", "mp",
             "illegal_action", "game_result", "band", "score"}

# scripted at-bats of one pitch (after the pitch and control rolls the automaton may add)
BALL = [("pitch", B), ("control", 1), ("swing", 1)]                 # B 1 vs 1: a ball
OUT = [("pitch", S), ("control", 2), ("swing", 5), ("run_swing", 1), ("run_control", 6)]
SAFE = [("pitch", S), ("control", 2), ("swing", 5), ("run_swing", 6), ("run_control", 1)]


# -- the test's own cards -------------------------------------------------------------------------
def table(direction=(), location=(), both=()):
    return {"direction": list(direction), "location": list(location), "both": list(both)}


def solo_data() -> dict:
    """An original solo set of 8 Situations (0 the Home Opener: 0-0, nobody out or on, a
    free choice of lineup, the top pitcher, no extra innings, 2 MP a win and 1 a run) and 8
    Effects, every rule of the schema used somewhere."""
    pitches = ["HI", "HA", "LI", "LA"]
    lineups = [{"rule": "choose", "bench": 0}, {"rule": "random", "bench": 1},
               {"rule": "pick_from", "pool": 8, "bench": 2}, {"rule": "choose", "bench": 1},
               {"rule": "random", "bench": 0}, {"rule": "pick_from", "pool": 7, "bench": 0},
               {"rule": "choose", "bench": 0}, {"rule": "random", "bench": 0}]
    situations = [{
        "id": f"s{i}", "name": f"Situation {i}", "home_opener": i == 0, "pitch": pitches[i % 4],
        "score": {"away": [0, 1, 1, 2, 0, 1, 2, 1][i], "home": [0, 0, 1, 1, 0, 0, 0, 1][i]},
        "outs": [0, 1, 0, 2, 1, 0, 0, 1][i],
        "runners": [[], [1], [2], [1, 3], [], [3], [1, 2], []][i],
        "lineup": lineups[i],
        "pitcher": ["top", "starter", "reliever", "top", "starter", "top", "reliever", "top"][i],
        "extra_innings": [0, 1, 0, 2, 0, 0, 1, 0][i],
        "mp": {"win": [2, 3, 4, 5, 1, 2, 6, 3][i], "run": [1, 0, 2, 1, 0, 1, 2, 0][i]},
        "text": "a test situation"} for i in range(8)]
    ops = [([], []),
           ([{"fatigue": 2}], [{"fatigue": 3}]),
           ([{"mp": 2}], [{"mp": 1}]),
           ([{"runner": 2}], [{"out": 1}]),
           ([{"deficit": 1}], [{"mp": 3}]),
           ([{"trait": "stamina", "by": 1, "side": "pitching"}],
            [{"trait": "speed", "by": 1, "side": "batting"}]),
           ([{"grant": [{"reroll": "swing"}], "side": "batting"}],
            [{"grant": [{"modify": "control", "by": "+-1"}], "side": "pitching"}]),
           ([{"trait": "fielding", "by": 1, "side": "pitching"}], [{"fatigue": 1}])]
    effect_pitches = ["ace", "anti_ace", "HI", "HA", "LI", "LA", "ace", "HA"]
    effects = [{"id": f"e{k}", "name": f"Effect {k}", "pitch": effect_pitches[k], "effect": e,
                "advanced": a} for k, (e, a) in enumerate(ops)]
    return {"set": "test solo", "version": 1,
            "default_chart": {"B": "KKKKKK", "S": "RKKK+K", "C": "K-KK+R"},
            "charts": {"p1": {"B": "PKKKKK", "S": "KKKKKC", "C": "BKKKKK"}},
            "situations": situations, "effects": effects}


def opener(data: dict, **fields) -> dict:
    """``data`` with the Home Opener's fields replaced."""
    data["situations"][0].update(fields)
    return data


def start(rolls, *, effect=0, solo_set=None, cards=None, level=STANDARD, out_rule="lead_runner"):
    """A scripted campaign past its lineup: the first game (the Home Opener) with Effect
    ``effect``; the lineup is batters 0-5 (the first legal pick each time)."""
    dice = ScriptedDice([("effect", effect)] + list(rolls))
    c = solo.new_campaign(dice, load_cards(cards or blank_cards()),
                          load_solo(solo_set or solo_data()), level=level, out_rule=out_rule)
    while c.pending.kind in ("select_batter", "select_bench"):
        c.apply(c.pending.legal[0])
    assert c.game.lineup == [0, 1, 2, 3, 4, 5]
    return c


def top_pitch(c) -> int:
    return solo.deck_pitch(c.game, c.game.deck[0])


def fool(c) -> int:
    """The guess missing both components of the deck's top card: the pitcher wins both tokens."""
    return GUESS + 3 - top_pitch(c)


def purposes(c):
    return [p for p, _ in c.dice.log]


def sources(grants):
    return [(g.source, g.left) for g in grants]


def obs_piece(obs, name):
    return obs[OBS.offset[name]:OBS.offset[name] + OBS.sizes[name]]


def partition_ok(c) -> bool:
    """Deck + discard + this game's Situation and Effect + the earlier games' Situations are
    every solo card once."""
    g = c.game
    n = len(g.solo.situations)
    cards = list(g.deck) + list(g.discard) + [g.situation, n + g.effect] + list(c.played[:-1])
    return sorted(cards) == list(range(g.solo.n_cards))


# -- 1. the API ------------------------------------------------------------------------------------
@pytest.mark.parametrize("own", [False, True], ids=["builtin", "own-set"])
def test_env_checkers_pass(own):
    from gymnasium.utils.env_checker import check_env as gym_check
    from stable_baselines3.common.env_checker import check_env as sb3_check
    kwargs = {"cards": sample_cards(), "solo_cards": solo_data()} if own else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gym_check(ManagerChallengeEnv(**kwargs), skip_render_check=True)
        sb3_check(ManagerChallengeEnv(**kwargs), warn=False)


def test_gymnasium_make_and_registry():
    assert GYM_IDS["dugout/ManagerChallenge-v0"].endswith("challenge:ManagerChallengeEnv")
    env = gymnasium.make("dugout/ManagerChallenge-v0", cards=sample_cards(), solo_cards=solo_data(),
                         level="veteran")
    assert isinstance(env.unwrapped, ManagerChallengeEnv)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert info["decision"]["kind"] == "select_batter"
    assert env.unwrapped.level == VETERAN
    assert isinstance(manager_challenge_v0.env(), ManagerChallengeEnv)
    assert manager_challenge_v0.GYM_ID == "dugout/ManagerChallenge-v0"
    env.close()


@pytest.mark.parametrize("level", solo.LEVELS)
def test_observation_mask_and_infos_over_random_campaigns(level):
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), level=level,
                              render_mode="ansi")
    space = env.observation_space
    for seed in range(20):
        rng = random.Random(seed)
        obs, info = env.reset(seed=seed)
        rewards = 0.0
        while True:
            assert obs.dtype == np.float32 and space.contains(obs), seed
            assert set(info) == INFO_KEYS
            c = env.unwrapped.campaign
            mask = env.action_masks()
            assert mask.dtype == bool and mask.shape == (rules.N_SOLO_ACTIONS,)
            assert np.array_equal(mask, info["action_mask"].astype(bool))
            assert tuple(np.flatnonzero(mask)) == tuple(sorted(c.pending.legal))
            assert info["decision"]["kind"] == c.pending.kind
            labels = info["decision"]["labels"]
            assert all(labels[a] for a in c.pending.legal)
            assert info["game"] == len(c.played) and info["band"] == ""
            obs, reward, terminated, truncated, info = env.step(rng.choice(c.pending.legal))
            rewards += reward
            assert not truncated
            if terminated:
                break
        assert space.contains(obs) and set(info) == INFO_KEYS
        assert not env.action_masks().any() and not info["action_mask"].any()
        assert info["decision"]["kind"] == "" and info["band"] in solo.BANDS
        assert len(info["results"]) == 6 and -1 not in info["results"]
        assert rewards == info["mp"]
        assert env.render().startswith(f"Manager Challenge ({level}): game 6 of 6")
        with pytest.raises(IllegalActionError):
            env.step(rules.GUESS)


def _trajectory(env, seed=None, steps=None, reset=True):
    """(observation, reward) for a campaign played with the first legal action each time."""
    out = []
    if reset:
        obs, _ = env.reset(seed=seed)
        out.append(obs.tobytes())
    n = 0
    while not env.unwrapped.campaign.over and (steps is None or n < steps):
        obs, r, *_ = env.step(env.unwrapped.campaign.pending.legal[-1])
        out.append((obs.tobytes(), r))
        n += 1
    return out


def test_seeding_reproducible_and_different_seeds_differ():
    a = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), first_game="random")
    b = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), first_game="random")
    assert _trajectory(a, 11) == _trajectory(b, 11)
    # a reset without a seed after a seeded one goes on from the seeded generator
    assert _trajectory(a) == _trajectory(b)
    c = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), first_game="random")
    assert _trajectory(c, 11) == _trajectory(a, 11)
    runs = {tuple(map(str, _trajectory(a, s))) for s in range(5)}
    assert len(runs) == 5
    campaigns = set()
    for s in range(5):
        a.reset(seed=s)
        while not a.campaign.over:
            a.step(a.campaign.pending.legal[0])
        campaigns.add((tuple(a.campaign.played), tuple(a.campaign.drawn)))
    assert len(campaigns) > 1


# -- 2. options ------------------------------------------------------------------------------------
@pytest.mark.parametrize("options, word", [
    ({"colour": "red"}, "colour"), ({"level": "expert"}, "level"), ({"reward": "runs"}, "reward"),
    ({"first_game": "last"}, "first_game"), ({"illegal_action": "ignore"}, "illegal_action"),
    ({"level": 1}, "level")])
def test_bad_options_raise_option_error(options, word):
    with pytest.raises(OptionError, match=word):
        ManagerChallengeEnv(solo_cards=solo_data(), **options)


def test_reset_takes_no_options():
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data())
    with pytest.raises(OptionError):
        env.reset(seed=0, options={"level": "veteran"})


def test_illegal_action_raise_names_the_decision():
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), illegal_action="raise")
    env.reset(seed=1)
    c = env.campaign
    while c.pending.kind != "guess":
        env.step(c.pending.legal[0])
    with pytest.raises(IllegalActionError, match="'guess'"):
        env.step(rules.DONE)
    assert not c.over and c.pending.kind == "guess"          # nothing changed


def test_illegal_action_lose_ends_the_campaign():
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data())
    env.reset(seed=4)
    c = env.campaign
    rng = random.Random(4)
    while len(c.results) < 2:
        env.step(rng.choice(c.pending.legal))
    kept = list(c.results)
    illegal = next(a for a in range(rules.N_SOLO_ACTIONS) if a not in c.pending.legal)
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and terminated and not truncated
    assert info["illegal_action"] and c.pending is None and c.over
    assert info["results"] == kept + [0, 0, 0, 0]
    assert info["losses"] == 6 - sum(kept) and info["wins"] == sum(kept)
    assert info["band"] == "fired"
    assert env.observation_space.contains(obs) and set(info) == INFO_KEYS


# -- 3. the rulebook, replayed ------------------------------------------------------------------------
def test_first_game_set_up_and_deck_order():
    """The Home Opener first; the Effect drawn with randbelow("effect"); the deck is the other
    Situations and Effects; the top pitcher of the pile is on the mound."""
    c = start([], effect=3)
    g = c.game
    assert (g.situation, g.effect, c.played, c.drawn) == (0, 3, [0], [3])
    assert g.deck == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15] and g.discard == []
    assert g.pitcher == 14 and c.pile == list(range(14, 21)) and g.pile == list(range(15, 21))
    assert g.board.bases == (None, 5, None)          # Effect 3: a runner on second
    assert c.pending.kind == "guess" and c.dice.remaining == 0


def wake_cards() -> dict:
    """The rulebook's Wake: an Ace (High & Away here) of "choose 2: Control +1 on a natural
    1-5, or reroll the Control die", and Control +1 when he wins both tokens."""
    data = blank_cards()
    wake = data["pitchers"][0]
    wake.update(id="wake", name="Test Wake", role="starter")
    wake["ace"] = {"direction": "away", "location": "high", "ability": [
        {"choose": 2, "of": [{"modify": "control", "by": 1, "if_natural": [1, 2, 3, 4, 5]},
                             {"reroll": "control"}]}]}
    wake["stare_down"] = table(both=[{"modify": "control", "by": 1}])
    return data


def wake_solo() -> dict:
    data = solo_data()
    data["charts"]["wake"] = {"B": "KKKKKK", "S": "RKKK+K", "C": "KKKKKK"}   # S: 5 "+", 6 keep
    return data


@pytest.mark.parametrize("controls, shown, grants_left", [
    ([5], (6, 5), [("ace", 2)]),                       # natural 5: the token's +1, Ace unused
    ([6, 3], (3, 3), [("both", 1), ("ace", 1)]),        # natural 6: the Ace's reroll, kept
    ([6, 1, 4], (4, 4), [("both", 1)]),                 # rerolled to 1 (chart R): again
    ([6, 1, 1], (1, 1), [("both", 1)]),                 # never a third time
], ids=["natural-5", "natural-6", "reroll-twice", "at-most-twice"])
def test_example_of_pitching_in_solo_play(controls, shown, grants_left):
    """"Wake throws his Ace pitch, then rolls a natural 5. Wake would keep the result, and use
    the red ability to make the pitch a 6. ... rolls a natural 6. According to the Solo Pitch
    chart Wake would keep the result, but Pitchers will always use their Ace pitch, if able.
    With this result, Wake would reroll the Control die up to two times.\""""
    rolls = [("pitch", S)] + [("control", v) for v in controls] + [("swing", 1)]
    # Effect 6: a batting reroll, so the pitch pauses at the batter's abilities
    c = start(rolls, effect=6, cards=wake_cards(), solo_set=wake_solo())
    g = c.game
    assert g.cards.card(g.pitcher).id == "wake" and top_pitch(c) == HA      # the Ace is on top
    c.apply(GUESS + LI)                        # not guessed: both tokens to the pitcher
    assert g.thrown == HA and g.tokens == [0, 0]
    assert c.pending.kind == "batter_ability"
    assert g.face == "S" and (g.control, g.control_natural) == shown
    assert sources(g.grants[0]) == grants_left
    assert purposes(c) == ["effect", "pitch"] + ["control"] * len(controls) + ["swing"]
    assert c.dice.remaining == 0


def test_automaton_action_ace_rule_directly():
    """automaton_action: the chart first, paid by a grant other than the Ace; the Ace anyway
    when nothing else modified the pitch."""
    c = start([("pitch", S), ("control", 6), ("control", 3), ("swing", 1)], effect=6,
              cards=wake_cards(), solo_set=wake_solo())
    c.apply(GUESS + LI)
    g = c.game
    # replay the decision on the state as rolled: S 6, grants both (+1) and the Ace
    g2 = g.clone()
    g2.control = g2.control_natural = 6
    g2.grants = [[rules.Grant("both", g.cards.card(g.pitcher).stare_down.both[0], 1),
                  rules.Grant("ace", g.cards.card(g.pitcher).ace_ability[0], 2)], g2.grants[1]]
    assert solo.automaton_action(g2, False, False) == (rules.REROLL_CONTROL, True)
    assert solo.automaton_action(g2, True, False) is None      # something else modified it
    assert solo.automaton_action(g2, False, True) is None      # the Ace was used
    g2.control = g2.control_natural = 5
    assert solo.automaton_action(g2, False, False) == (rules.CONTROL_UP, False)


def test_deck_running_out_anti_ace_then_a_new_pitcher_fatigued_three():
    """"If the Pitcher deck is ever depleted, finish the at-bat as normal, with the Pitcher
    selecting tokens opposite of the Ace pitch ... Following the at-bat, select another
    Pitcher ... Shuffle the Pitcher discard pile to form the new deck, and then immediately
    Fatigue the Pitcher 3 (discard 3 cards)." (The deck is cut to one card by hand.)"""
    c = start(BALL + BALL + OUT)
    g = c.game
    ace = solo.ace_pitch(g.cards.card(g.pitcher))
    assert ace == HI and g.pitcher == 14
    g.discard += g.deck[:-1]
    g.deck = g.deck[-1:]
    last = g.deck[0]
    c.apply(GUESS + HI)                             # the last card
    assert g.deck == [] and g.discard[-1] == last and g.depleted     # depleted from now
    assert g.last.startswith(f"{'HI HA LI LA'.split()[solo.deck_pitch(g, last)]} (guess")
    pile = list(g.discard)
    c.apply(GUESS + HI)                             # the deck is out: the anti-Ace
    assert g.depleted and g.last.startswith("LA (guess HI)") and g.revealed == -1
    assert g.discard == pile and (g.balls, g.strikes) == (2, 0)
    view = challenge_view(c)
    assert view.depleted and view.deck_size == 0
    assert obs_piece(encode_challenge(view), "depleted")[0] == 1.0
    assert len(g.box.pitching[0]) == 1
    c.apply(GUESS + HA)                             # still the anti-Ace; the batter is out
    assert g.board.outs == 1 and c.pending.kind == "guess"
    assert not g.depleted
    assert g.pitcher == 15 and 14 in g.removed
    assert len(g.box.pitching[0]) == 2
    assert [p.kind for p in g.log.plays].count("pitching_change") == 1
    assert g.deck == pile[3:] and g.discard == pile[:3]       # fatigue 3, no relief
    assert c.dice.remaining == 0 and partition_ok(c)


def pitch_reroll_cards() -> dict:
    data = blank_cards()
    data["pitchers"][0]["stare_down"] = table(
        [{"reroll": "pitch"}], [{"modify": "control", "by": 1}],
        [{"reroll": "pitch"}, {"modify": "control", "by": 1}])
    return data


@pytest.mark.parametrize("balls", [2, 3])
def test_natural_ball_with_three_balls_must_reroll_the_pitch_die(balls):
    """"If a natural 1 is rolled with 3 balls in the count and the Pitcher has an available
    reroll, the Pitcher must reroll the Pitch die": first, before the chart (which says "+"
    for B 3). With two balls the chart rules: Control +1."""
    data = solo_data()
    data["charts"]["p0"] = {"B": "KK+KKK", "S": "KKKKKK", "C": "KKKKKK"}
    last = [("pitch", B), ("control", 3)] + ([("pitch", S)] if balls == 3 else []) + [("swing", 1)]
    c = start(BALL * balls + last, cards=pitch_reroll_cards(), solo_set=data)
    g = c.game
    for _ in range(balls):
        c.apply(fool(c))
    assert (g.balls, g.strikes) == (balls, 0)
    c.apply(fool(c))
    if balls == 3:
        assert "S 3 vs swing 1: strike" in g.last and (g.balls, g.strikes) == (3, 1)
        assert purposes(c)[-4:] == ["pitch", "control", "pitch", "swing"]
    else:
        assert "B 4 vs swing 1: ball" in g.last and g.balls == 3
        assert purposes(c)[-3:] == ["pitch", "control", "swing"]
    assert c.dice.remaining == 0


@pytest.mark.parametrize("trait, effect_stamina, at_bat, relief", [
    (None, 0, OUT, 3), (None, 0, SAFE, 2),
    ({"trait": "stamina", "by": 1}, 0, OUT, 4),
    ({"trait": "tires", "by": 2}, 0, SAFE, 3),        # "1 extra Relief", whatever the number
    (None, 2, OUT, 5), ({"trait": "stamina", "by": 3}, 1, SAFE, 4)])
def test_relief_returns_cards_from_the_bottom_of_the_discard_pile(trait, effect_stamina, at_bat, relief):
    """"Between At-Bats, the Pitcher gains Relief as normal" (one per empty base); "Any Pitcher
    with an Ability that mentions Fatigue or Relief receives 1 extra Relief"; "Relief"
    returns a card from the bottom of the discard pile to the deck"."""
    cards = blank_cards()
    if trait:
        cards["pitchers"][0]["traits"] = [trait]
    data = solo_data()
    data["effects"][0]["effect"] = [{"fatigue": 5}] + (
        [{"trait": "stamina", "by": effect_stamina, "side": "pitching"}] if effect_stamina else [])
    c = start(at_bat, cards=cards, solo_set=data)
    g = c.game
    deck, discard = list(g.deck), list(g.discard)
    assert len(discard) == 5 and g.stamina == effect_stamina
    assert solo.relief_points(g) == 3 + bool(trait) + effect_stamina
    c.apply(GUESS + HI)
    assert c.pending.kind == "guess" and g.pa == 1
    pile = discard + [deck[0]]                      # bottom first
    assert g.discard == pile[relief:]
    assert g.deck == deck[1:] + pile[:relief]
    assert c.dice.remaining == 0 and partition_ok(c)


def mvp_cards() -> dict:
    data = blank_cards()
    for b in data["batters"]:
        b["stare_down"] = table([{"reroll": "swing"}], [{"reroll": "swing"}], [{"reroll": "swing"}])
        b["mvp"] = [{"modify": "swing", "by": 1}]
    return data


@pytest.mark.parametrize("choice", [MVP, FATIGUE_PITCHER])
def test_mvp_or_fatigue_after_an_exact_guess(choice):
    """"If you correctly guess both Direction and Location, you may choose to Fatigue the
    Pitcher 1 instead of using your MVP Ability. This must be selected before the Swing"."""
    assert (MVP, FATIGUE_PITCHER) == (114, 115)
    c = start([("pitch", S), ("control", 3), ("swing", 2)], cards=mvp_cards())
    g = c.game
    deck = list(g.deck)
    c.apply(GUESS + top_pitch(c))                  # exact
    assert c.pending.kind == "mvp_or_fatigue" and c.pending.legal == (MVP, FATIGUE_PITCHER)
    assert sources(g.grants[1]) == [("both", 1), ("mvp", 1)]
    assert purposes(c) == ["effect", "pitch", "control"]          # before the Swing roll
    c.apply(choice)
    assert c.pending.kind == "batter_ability" and g.swing == 2
    if choice == FATIGUE_PITCHER:
        assert sources(g.grants[1]) == [("both", 1)]
        assert g.discard == deck[:2] and g.deck == deck[2:]
        assert rules.SWING_UP not in c.pending.legal
    else:
        assert sources(g.grants[1]) == [("both", 1), ("mvp", 1)]
        assert g.discard == deck[:1] and g.deck == deck[1:]
        assert rules.SWING_UP in c.pending.legal


def test_no_mvp_or_fatigue_when_the_guess_is_not_exact():
    c = start([("pitch", S), ("control", 3), ("swing", 2)], cards=mvp_cards())
    g = c.game
    assert top_pitch(c) == HA
    c.apply(GUESS + HI)                            # the location only
    assert c.pending.kind == "batter_ability"
    assert sources(g.grants[1]) == [("location", 1)]
    assert len(g.discard) == 1


def test_effect_pitching_grant_is_used_by_the_chart_once_a_game():
    """The Effect's abilities count for the automated pitcher ("possibly the Situation or
    Effect cards"): Effect 6's advanced pitching grant (Control +-1, once a game) pays for the
    chart's "+" on S 5, once; the next S 5 stays a 5."""
    c = start([("pitch", S), ("control", 5), ("swing", 1)] * 2, effect=6, level=VETERAN)
    g = c.game
    c.apply(fool(c))
    assert c.pending.kind == "batter_ability"                  # Effect 6's batting reroll
    assert (g.face, g.control, g.control_natural) == ("S", 6, 5)
    assert g.support_used == [True, False]
    c.apply(rules.DONE)
    assert "S 6 vs swing 1: strike" in g.last
    c.apply(fool(c))
    assert (g.control, g.control_natural) == (5, 5)
    c.apply(rules.DONE)
    assert "S 5 vs swing 1: strike" in g.last and g.strikes == 2
    assert g.support_used == [True, False] and c.dice.remaining == 0


def test_bench_and_pinch_hitter():
    """A Situation's bench: a pinch hitter may bat for the batter due up (who leaves)."""
    data = opener(solo_data(), lineup={"rule": "choose", "bench": 1})
    c = start([], solo_set=data)
    g = c.game
    assert g.bench == [6] and c.pending.kind == "pinch_hit"
    assert c.pending.legal == (rules.CARD + 6, rules.PASS)
    c.apply(rules.CARD + 6)
    assert g.lineup == [6, 1, 2, 3, 4, 5] and g.bench == [] and c.pending.kind == "guess"
    assert g.log.plays[-1].kind == "substitution"
    assert g.box.lines[1][g.slot_lines[1][0]].name == g.cards.card(6).name


def test_manager_of_the_year_may_not_repeat_the_guess():
    for level, legal in ((STANDARD, (4, 5, 6, 7)), (VETERAN, (4, 5, 6, 7)), (MOTY, (5, 6, 7)),
                         (HOF, (5, 6, 7))):
        c = start(BALL + OUT, level=level)
        assert c.pending.legal == (4, 5, 6, 7)
        c.apply(GUESS + HI)
        assert c.pending.kind == "guess" and c.pending.legal == legal, level
        c.apply(GUESS + LA)                        # the at-bat ends: still not the same guess
        assert c.game.pa == 1
        assert c.pending.legal == ((4, 5, 6, 7) if level < MOTY else (4, 5, 6)), level


@pytest.mark.parametrize("level", [STANDARD, MOTY])
def test_manager_of_the_year_hides_the_discard_pile(level):
    c = start(BALL, effect=1, level=level)
    c.apply(GUESS + LA)
    g = c.game
    assert len(g.discard) == (3 if level == STANDARD else 6)
    view = challenge_view(c)
    obs = encode_challenge(view)
    assert view.deck_size == len(g.deck) and view.discard_size == len(g.discard)
    if level == STANDARD:
        assert view.deck_known and view.discard == tuple(g.discard)
        assert sum(view.deck_pitches) == len(g.deck)
        assert view.deck_pitches == tuple(
            sum(solo.deck_pitch(g, x) == p for x in g.deck) for p in range(4))
        assert obs_piece(obs, "deck_known")[0] == 1.0
        assert obs_piece(obs, "discard_cards").sum() == len(g.discard)
        assert obs_piece(obs, "deck_pitches").sum() > 0
    else:
        assert not view.deck_known and view.discard == ()
        assert view.deck_pitches == (-1, -1, -1, -1)
        for name in ("deck_known", "discard_cards", "deck_pitches"):
            assert not obs_piece(obs, name).any(), name


@pytest.mark.parametrize("level, bases, outs", [
    (STANDARD, (5, 4, 3), 0), (VETERAN, (5, 4, 3), 1), (MOTY, (5, 4, 3), 1), (HOF, (None,) * 3, 1)])
def test_hall_of_fame_starts_with_the_bases_empty(level, bases, outs):
    """Hall of Fame: "There are never any runners placed on base to start a game, regardless
    of the scenario description" (the Situation's runners on first and third, the Effect's
    on second); the Veteran's advanced Effect (one more out) counts from level 1."""
    c = start([], effect=3, solo_set=opener(solo_data(), runners=[1, 3]), level=level)
    assert c.game.board.bases == bases and c.game.board.outs == outs


@pytest.mark.parametrize("level, fatigued", [(STANDARD, 2), (VETERAN, 5), (HOF, 5)])
def test_veteran_applies_the_advanced_effect(level, fatigued):
    """Veteran: "Observe the Advanced Effect on the Effect Cards, in addition to the first"
    (Effect 1: fatigue 2, advanced fatigue 3)."""
    c = start([], effect=1, level=level)
    g = c.game
    full = [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15]
    assert g.discard == full[:fatigued] and g.deck == full[fatigued:]


def extra_innings_set(extra):
    return opener(solo_data(), score={"away": 1, "home": 0}, outs=2, runners=[3],
                  extra_innings=extra)


def test_extra_innings_reshuffle_and_fatigue_per_run_allowed():
    """"Some scenarios allow for extra innings. In those cases, shuffle the Pitcher discard
    pile into the deck and fatigue the Pitcher 1 for each run they have allowed": a tie at
    the third out goes to the 10th, nobody out, the bases empty."""
    c = start(SAFE + OUT, effect=1, solo_set=extra_innings_set(1))
    g = c.game
    assert g.board.bases == (None, None, 5) and g.board.outs == 2
    c.apply(GUESS + HI)                         # the tying run scores, the batter on first
    assert g.board.runs == [1, 1] and not g.board.over and g.board.bases == (0, None, None)
    deck, discard = list(g.deck), list(g.discard)
    c.apply(fool(c))                            # the lead runner out: three out, tied
    b = g.board
    assert not b.over and b.inning == 10 and b.outs == 0 and b.bases == (None, None, None)
    assert b.runs == [1, 1] and b.extra == 0 and c.pending.kind == "guess"
    assert g.box.pitching[0][-1].r == 1
    reshuffled = deck[1:] + discard + deck[:1]
    assert g.deck == reshuffled[1:] and g.discard == reshuffled[:1]      # fatigue 1 for 1 run
    assert c.results == [] and partition_ok(c)
    view = challenge_view(c)
    assert view.inning == 10 and view.extra_left == 0


def test_a_tie_without_extra_innings_is_a_loss():
    c = start(SAFE + OUT + [("situation", 0), ("effect", 0)], effect=1,
              solo_set=extra_innings_set(0))
    g = c.game
    c.apply(GUESS + HI)
    assert g.board.runs == [1, 1] and not g.board.over
    earned = c.apply(fool(c))
    assert g.board.over and g.board.winner == 0
    assert c.results == [0] and c.points == [1] and earned == 1      # 1 MP a run, no win
    assert c.game is not g and c.played == [0, 1] and c.dice.remaining == 0


def scoring_set():
    data = opener(solo_data(), score={"away": 1, "home": 0}, runners=[3], mp={"win": 3, "run": 2})
    return data


HOME_RUN = [("pitch", S), ("control", 1), ("swing", 6), ("crush", 6), ("catch", 1)]


@pytest.mark.parametrize("level, points", [("standard", 2 * 2 + 3 + 2 + 5), ("veteran", 2 * 2 + 3 + 3 + 5)])
def test_game_points_through_the_env(level, points):
    """A game's Manager Points: the Situation's per run scored and for a win, the Effect's for
    a win (Effect 2: 2, and 1 more at Veteran), and "5 MP for a win"."""
    script = ScriptedDice([("effect", 2)] + HOME_RUN + [("situation", 0), ("effect", 0)])
    for reward_kind, want in (("mp", points), ("win", 1.0)):
        env = ManagerChallengeEnv(cards=blank_cards(), solo_cards=scoring_set(), level=level,
                                  reward=reward_kind, dice=script)
        obs, info = env.reset()
        c = env.campaign
        total = 0.0
        while c.pending.kind != "guess":
            total += env.step(c.pending.legal[0])[1]
        g = c.game
        obs, reward, terminated, truncated, info = env.step(GUESS + HI)
        assert g.board.winner == 1 and g.board.runs == [1, 2]         # a two-run homer
        assert total == 0 and reward == want and not terminated
        assert info["game_result"] == "win" and info["results"][:2] == [1, -1]
        assert info["mp"] == points and c.points == [points] and c.game_points(g) == points
        assert info["game"] == 2 and info["score"] == {"away": c.game.board.runs[0],
                                                       "home": c.game.board.runs[1]}
        obs, reward, *_ , info = env.step(c.pending.legal[0])
        assert reward == 0 and info["game_result"] == ""


@pytest.mark.parametrize("before, sweep", [([1] * 5, True), ([1, 1, 0, 1, 1], False)])
def test_a_six_and_oh_campaign_earns_twelve_more(before, sweep):
    c = start(HOME_RUN, effect=2, solo_set=scoring_set())
    c.results, c.points = list(before), [5] * 5
    earned = c.apply(GUESS + HI)
    assert c.over and c.pending is None and len(c.results) == 6
    assert earned == 14 + (12 if sweep else 0)
    assert c.mp == 25 + 14 + (12 if sweep else 0)
    assert c.band == ("carried_off" if sweep else "true_victory")
    with pytest.raises(IllegalActionError):
        c.apply(GUESS)


@pytest.mark.parametrize("wins, mp, want", [
    (3, 60, "fired"), (0, 0, "fired"), (4, 24, "playoffs"), (4, 25, "true_victory"),
    (5, 40, "carried_off"), (4, 45, "true_victory"), (5, 20, "playoffs"), (5, 39, "true_victory"),
    (6, 100, "carried_off"), (4, 40, "true_victory")])
def test_band_boundaries(wins, mp, want):
    assert solo.band(wins, mp) == want


@pytest.mark.parametrize("reward_kind", ["mp", "win"])
def test_episode_return_is_mp_or_wins_minus_losses(reward_kind):
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), reward=reward_kind)
    for seed in range(15):
        rng = random.Random(seed)
        env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, r, done, _, info = env.step(rng.choice(env.campaign.pending.legal))
            total += r
        want = info["mp"] if reward_kind == "mp" else info["wins"] - info["losses"]
        assert total == want and info["wins"] + info["losses"] == 6


# -- 4. hidden information ---------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["standard", "manager_of_the_year"])
def test_the_deck_order_never_reaches_the_observation(level):
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), level=level)
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        env.reset(seed=seed)
        c = env.campaign
        for _ in range(rng.randrange(8, 120)):
            env.step(rng.choice(c.pending.legal))
            if c.over:
                break
        while not c.over and c.pending.kind != "guess":
            env.step(rng.choice(c.pending.legal))
        if c.over or len(c.game.deck) < 2:
            continue
        twin = c.clone()
        order = list(twin.game.deck)
        while order == twin.game.deck:
            rng.shuffle(order)
        twin.game.deck = order
        assert twin.game.deck != c.game.deck and sorted(twin.game.deck) == sorted(c.game.deck)
        a, b = challenge_view(c), challenge_view(twin)
        assert a == b
        assert np.array_equal(encode_challenge(a), encode_challenge(b))
        # but the deck's composition is public below Manager of the Year
        if env.level < MOTY and c.game.discard:
            other = c.clone()
            g = other.game
            i = next((k for k, x in enumerate(g.deck) if solo.deck_pitch(g, x) != solo.deck_pitch(g, g.discard[0])), None)
            if i is not None:
                g.deck[i], g.discard[0] = g.discard[0], g.deck[i]
                assert not np.array_equal(encode_challenge(challenge_view(other)), encode_challenge(a))
        checked += 1
    assert checked >= 6


# -- 5. save and restore ------------------------------------------------------------------------------
def _dumps(c):
    return json.dumps(c.to_dict(), sort_keys=True)


def test_campaign_round_trips_and_clones_are_independent():
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), level="veteran")
    for seed in (2, 5):
        rng = random.Random(seed)
        env.reset(seed=seed)
        c = env.campaign
        while len(c.results) < 2 or c.pending.kind != "guess":      # mid-game, game 3
            c.apply(rng.choice(c.pending.legal))
        saved = _dumps(c)
        back = solo.Campaign.from_dict(json.loads(saved))
        assert _dumps(back) == saved
        assert back.game.deck == c.game.deck and back.pile == c.pile and back.mp == c.mp
        assert np.array_equal(encode_challenge(challenge_view(back)), encode_challenge(challenge_view(c)))
        clone = c.clone()
        assert _dumps(clone) == saved
        moves = random.Random(seed + 100)
        actions = []
        while not clone.over:
            a = moves.choice(clone.pending.legal)
            actions.append(a)
            clone.apply(a)
        assert _dumps(c) == saved                          # the original did not move
        for a in actions:                                  # the restored copy plays the same
            back.apply(a)
        assert _dumps(back) == _dumps(clone) and back.over and back.mp == clone.mp


def test_a_scripted_campaign_clone_or_restore_keeps_playing_the_script():
    """With ScriptedDice the campaign and its games share one script (Campaign.start_game:
    "self.dice if self.dice.scripted"); a clone and a restored copy must go on with the same
    script into the next game, as the original does."""
    rolls = SAFE + OUT + [("situation", 0), ("effect", 0)]
    c = start(rolls, effect=1, solo_set=extra_innings_set(0))
    copies = (("original", c), ("clone", c.clone()),
              ("restored", solo.Campaign.from_dict(json.loads(_dumps(c)))))
    for name, x in copies:
        try:
            x.apply(fool(x))
            x.apply(fool(x))                       # the game is lost; game 2 draws its cards
        except DiceScriptError as e:
            pytest.fail(f"{name}: {e}")
        assert x.results == [0] and x.played == [0, 1] and x.dice.remaining == 0, name


# -- 6. validation ------------------------------------------------------------------------------------
def _set_grants(d):
    d["effects"][1]["effect"] = [{"grant": [{"reroll": "swing"}], "side": "batting"}]
    d["effects"][1]["advanced"] = [{"grant": [{"modify": "swing", "by": 1}], "side": "batting"}]


@pytest.mark.parametrize("change, words", [
    (lambda d: d["default_chart"].update(S="KKKKK"), ["default_chart.S", "six of the letters"]),
    (lambda d: d["charts"]["p1"].update(B="KKKKKX"), ["charts['p1'].B", "'KKKKKX'"]),
    (lambda d: d["situations"][2].update(score={"away": 0, "home": 1}),
     ["situations[2] ('s2').score", "must not lead"]),
    (lambda d: d["situations"][4].update(home_opener=True),
     ["situations", "exactly one must be the home opener", "'s0'", "'s4'"]),
    (lambda d: d["effects"][3]["effect"].append({"bogus": 1}),
     ["effects[3] ('e3').effect[1]", "unknown op", "bogus"]),
    (lambda d: d["effects"][2]["advanced"].append(
        {"grant": [{"reroll": "control"}], "side": "batting"}),
     ["effects[2] ('e2').advanced[1].grant[0]", "only target swing"]),
    (_set_grants, ["effects[1] ('e1')", "at most one batting grant"]),
    (lambda d: d["situations"].__delitem__(slice(1, 3)), ["situations", "7 to 24", "got 6"]),
    (lambda d: d["situations"][5].update(hat="red"), ["situations[5] ('s5')", "unknown field", "'hat'"]),
    (lambda d: d["effects"][0].update(colour="red"), ["effects[0] ('e0')", "unknown field", "'colour'"]),
    (lambda d: d.update(extra=1), ["unknown field", "'extra'"]),
    (lambda d: d["effects"][4]["effect"].append({"fatigue": 6}), ["effects[4] ('e4').effect[1].fatigue"]),
    (lambda d: d["situations"][1]["lineup"].update(pool=9), ["situations[1] ('s1').lineup.pool"]),
], ids=["chart-length", "chart-letter", "home-leads", "two-openers", "unknown-op",
        "batting-grant-control", "two-batting-grants", "too-few-situations", "unknown-field",
        "unknown-effect-field", "unknown-top-field", "fatigue-range", "pool-without-pick-from"])
def test_solo_set_errors_name_file_card_and_field(tmp_path, change, words):
    data = solo_data()
    change(data)
    path = tmp_path / "my-solo.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataError) as err:
        load_solo(str(path))
    message = str(err.value)
    assert "my-solo.json" in message
    for w in words:
        assert w in message, (w, message)
    with pytest.raises(DataError, match="my set"):
        parse_solo(copy.deepcopy(data), "my set")
    with pytest.raises(DataError):
        ManagerChallengeEnv(solo_cards=data)


def test_the_own_set_and_the_builtin_file_load():
    own = load_solo(solo_data())
    assert len(own.situations) == 8 and len(own.effects) == 8 and own.n_cards == 16
    assert [s.home_opener for s in own.situations].count(True) == 1
    assert type(own).from_dict(json.loads(json.dumps(own.to_dict()))) == own
    assert SOLO_PATH.exists()
    builtin = load_solo("builtin")
    assert 7 <= len(builtin.situations) <= 24 and 7 <= len(builtin.effects) <= 24
    assert sum(s.home_opener for s in builtin.situations) == 1
    assert load_solo(str(SOLO_PATH)).source == builtin.source
    cards = load_cards("builtin")
    for chart in list(builtin.charts.values()) + [builtin.default_chart]:
        assert all(len(chart[f]) == 6 for f in "BSC")
    assert set(builtin.charts) <= {c.id for c in cards.pitchers}


# -- 7. invariants over random campaigns ---------------------------------------------------------------
def _random_campaigns(cards, solo_set, level, seeds):
    for seed in seeds:
        rng = random.Random(seed)
        c = solo.new_campaign(Dice(seed), cards, solo_set, level=level,
                              first="random" if seed % 3 == 0 else "home_opener")
        games = []
        while not c.over:
            g = c.game
            assert g.pending is not None and partition_ok(c), seed
            assert g.board.outs <= 2 and not g.board.over
            assert len(set(g.deck) | set(g.discard)) == len(g.deck) + len(g.discard)
            assert len(g.lineup) <= 6 and g.pitcher >= len(cards.batters)
            if g.pending.kind == "guess" and level >= MOTY:
                assert GUESS + g.prev_guess not in g.pending.legal
            if not games or games[-1] is not g:
                games.append(g)
            c.apply(rng.choice(c.pending.legal))
        assert len(c.results) == 6 == len(c.points) == len(games) == len(c.played)
        assert len(set(c.played)) == 6 and len(c.drawn) == 6
        for g, won, pts in zip(games, c.results, c.points):
            assert g.board.over and won == int(g.board.winner == 1)
            assert pts == c.game_points(g)
            assert g.level == level
        sweep = 12 if c.results == [1] * 6 else 0
        assert sum(c.points) + sweep == c.mp
        assert c.band == solo.band(c.wins, c.mp)
        yield c


@pytest.mark.parametrize("level", range(4), ids=solo.LEVELS)
@pytest.mark.parametrize("which", ["own", "builtin"])
def test_invariants_over_random_campaigns(which, level):
    if which == "own":
        cards, solo_set = load_cards(sample_cards()), load_solo(solo_data())
    else:
        cards, solo_set = load_cards("builtin"), load_solo("builtin")
    bands = set()
    wins, n = 0, games(150, 50)
    for c in _random_campaigns(cards, solo_set, level, range(1000 * level, 1000 * level + n)):
        bands.add(c.band)
        wins += c.wins
    assert 0 < wins < 6 * n
    assert "fired" in bands


# -- 8. the heuristic against random play ----------------------------------------------------------------
@pytest.mark.full
def test_heuristic_beats_random_with_significance():
    env = ManagerChallengeEnv()
    n = 120
    mp = {}
    for name, agent in (("heuristic", ChallengeHeuristic()), ("random", ChallengeRandom())):
        results = [play_campaign(env, agent, 7000 + s) for s in range(n)]
        assert not any(r["illegal"] for r in results)
        mp[name] = np.array([r["mp"] for r in results], dtype=float)
    diff = mp["heuristic"].mean() - mp["random"].mean()
    se = np.sqrt(mp["heuristic"].var(ddof=1) / n + mp["random"].var(ddof=1) / n)
    assert diff > 3 * se, (mp["heuristic"].mean(), mp["random"].mean(), se)


# -- the heuristic's table, the docs, training and evaluation ------------------------------------
def test_need_table_is_the_duels_win_table_for_one_run_and_ties_are_priced_by_extra_innings():
    """need_table at one run needed and no extra innings is the duel's exact win table; a
    tie is worth the next inning (T(e) = t + (1 - t) T(e - 1) from a tied, empty start);
    needing more runs is worth less."""
    from dugout.agents.bottom_ninth import p_safe, win_table
    from dugout.agents.manager_challenge import need_table
    faces = (("B", 3), ("S", 2), ("C", 1))
    t0 = need_table(faces, "lead_runner", p_safe(), (6,), 0)
    assert np.allclose(t0[0], win_table(faces, "lead_runner"), atol=1e-12)
    first = float(t0[0, 0, 0, 0, 0])
    for e in (1, 2):
        te = need_table(faces, "lead_runner", p_safe(), (6,), e)
        expect = 1 - (1 - first) ** (e + 1)
        assert float(te[0, 0, 0, 0, 0]) == pytest.approx(expect, abs=1e-9)
    assert (np.diff(t0[:, 0, 0, 0, 0]) < 0).all()          # more runs needed, less chance
    assert t0[1, 0, 7, 3, 0] > t0[1, 0, 0, 0, 0]              # bases loaded, 3-0, down one


def test_docstring_holds_the_observation_table():
    from dugout.envs.bottom_ninth.challenge import OBS as CHALLENGE_OBS
    assert CHALLENGE_OBS.table() in manager_challenge_v0.__doc__
    assert CHALLENGE_OBS.size == ManagerChallengeEnv().observation_space.shape[0]


def test_training_path_on_a_tiny_budget_is_reproducible(tmp_path):
    """``python -m dugout.train --env manager_challenge_v0`` trains MaskablePPO on the env, saves
    a checkpoint PolicyAgent loads, and two runs with the same seed learn the same policy."""
    from dugout.agents.policy import PolicyAgent
    from dugout.train.ppo import main
    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        main(["--env", "manager_challenge_v0", "--total-timesteps", "256", "--n-envs", "2",
              "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--eval-every", "128",
              "--eval-campaigns", "2", "--out", str(out), "--no-progress"])
        runs.append(out)
        rows = (out / "eval.csv").read_text().splitlines()
        assert rows[0].startswith("timesteps,") and len(rows) >= 3
    agents = [PolicyAgent.load(r / "model", "manager_challenge_v0") for r in runs]
    env = ManagerChallengeEnv()
    obs, info = env.reset(seed=5)
    for _ in range(40):
        o = {"observation": obs, "action_mask": info["action_mask"]}
        a, b = agents[0].act(o), agents[1].act(o)
        assert a == b and info["action_mask"][a]
        obs, _, term, _, info = env.step(a)
        if term:
            break
    with pytest.raises(SystemExit):
        main(["--env", "manager_challenge_v0", "--env-option", "level=rookie", "--out", str(tmp_path / "c")])


def test_evaluation_cli_same_numbers_with_workers(tmp_path):
    from dugout.evaluate import manager_challenge as mc
    one = mc.play_campaigns("heuristic", 6, seed=3, workers=1, chunk=2)
    two = mc.play_campaigns("heuristic", 6, seed=3, workers=2, chunk=2)
    assert one == two and len(one) == 6
    out = tmp_path / "r.json"
    results = mc.main(["--agents", "random", "heuristic", "--campaigns", "4", "--json", str(out)])
    assert set(results) == {"random", "heuristic"}
    assert abs(sum(b["share"] for b in results["random"]["bands"].values()) - 1) < 1e-9
    assert json.loads(out.read_text())["results"]["heuristic"]["campaigns"] == 4
    with pytest.raises(SystemExit):
        mc.main(["--agents", "nobody", "--campaigns", "2"])


def test_campaigns_spread_over_every_worker(monkeypatch):
    """By default each worker gets four chunks (at most 250 seeds each): 8 campaigns on two
    workers are not played by one process alone; the campaigns are those of one worker."""
    from dugout.evaluate import manager_challenge as mc
    chunks = []

    class Pool:
        def __init__(self, backend, workers):
            assert (backend, workers) == ("process", 2)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map(self, fn, parts, describe):
            chunks.extend(len(p[2]) for p in parts)
            return [fn(*p) for p in parts]

    monkeypatch.setattr(mc, "make_backend", Pool)
    two = mc.play_campaigns("heuristic", 8, seed=1, workers=2)
    monkeypatch.undo()
    assert chunks == [1] * 8
    assert two == mc.play_campaigns("heuristic", 8, seed=1, workers=1)


def test_managers_are_compared_on_the_same_campaigns(capsys):
    """``dugout challenge`` prints each manager's Manager Points minus the first's, paired
    over the same seeds: the mean of the campaign-by-campaign differences (so the
    difference of the two means) with the interval of those differences, narrower than
    either mean's; a manager against itself differs by exactly 0."""
    from dugout.evaluate import manager_challenge as mc
    from dugout.evaluate.stats import mean_interval
    results = mc.main(["--agents", "heuristic", "random", "--campaigns", "40", "--seed", "7"])
    out = capsys.readouterr().out
    heuristic = mc.play_campaigns("heuristic", 40, seed=7)
    random = mc.play_campaigns("random", 40, seed=7)
    mean, low, high = mean_interval([r["mp"] - h["mp"] for r, h in zip(random, heuristic)])
    d = results["random"]["minus_first"]
    assert (d["mp"], d["mp_low"], d["mp_high"]) == (mean, low, high)
    assert d["mp"] == pytest.approx(results["random"]["mp"] - results["heuristic"]["mp"])
    assert "minus_first" not in results["heuristic"]
    assert d["mp_high"] < 0 and f"random minus heuristic: {mean:+.2f} MP a campaign" in out
    assert out.rstrip().endswith("on the same campaigns: heuristic better")
    assert mc.paired_difference(heuristic, heuristic) == {"mp": 0.0, "mp_low": 0.0, "mp_high": 0.0}
    with pytest.raises(ValueError, match="40 and 39 campaigns; the same seeds"):
        mc.paired_difference(heuristic, random[:39])
    assert mc.paired_verdict({"mp": 0.4, "mp_low": 0.1, "mp_high": 0.7}, "a", "b") == "a better"
    assert mc.paired_verdict({"mp": 0.1, "mp_low": -0.2, "mp_high": 0.4}, "a", "b") == \
        "no significant difference"


def test_the_agent_registry_serves_the_challenge():
    """``make_agent``, ``agent_names`` and ``check_agents`` know the challenge's managers as
    they know a ruleset's (``random`` is the challenge's own); an unknown name says which
    are known, and a checkpoint is checked against the challenge's env."""
    from dugout.agents.registry import SOLO_MANAGER_MODULES, agent_names, check_agents, make_agent
    assert SOLO_MANAGER_MODULES == {"manager_challenge_v0": "dugout.agents.manager_challenge"}
    assert agent_names("manager_challenge_v0") == ["heuristic", "pretrained", "random", "search"]
    assert isinstance(make_agent("manager_challenge_v0", "heuristic"), ChallengeHeuristic)
    assert isinstance(make_agent("manager_challenge_v0", "random", seed=4), ChallengeRandom)
    assert check_agents("manager_challenge_v0", ["random", "heuristic"]) == {}
    with pytest.raises(ValueError, match=r"unknown agent 'steal' for manager_challenge_v0; "
                                         r"known: heuristic, pretrained, random, search, or ppo:PATH"):
        check_agents("manager_challenge_v0", ["heuristic", "steal"])
    with pytest.raises(ValueError, match=r"unknown agent 'never-steal' for manager_challenge_v0"):
        make_agent("manager_challenge_v0", "never-steal")
    with pytest.raises(ValueError, match=r"unknown environment 'manager_challenge_v9'.*"
                                         r"manager_challenge_v0"):
        make_agent("manager_challenge_v9", "heuristic")


def test_the_registrys_managers_play_the_campaigns_the_classes_play():
    """The evaluation makes its managers through the registry: the same campaigns, seed for
    seed, as the challenge's classes made directly."""
    from dugout.agents.manager_challenge import MANAGERS
    from dugout.evaluate import manager_challenge as mc
    for name in ("random", "heuristic"):
        env, agent = ManagerChallengeEnv(level="veteran"), MANAGERS[name]()
        direct = [dict(play_campaign(env, agent, s)) for s in (11, 12)]
        assert mc.play_chunk(name, {"level": "veteran"}, [11, 12]) == direct


def test_a_bare_checkpoint_folder_is_read_as_ppo(tmp_path):
    from dugout.agents.ref import AgentRef
    from dugout.evaluate import manager_challenge as mc
    assert mc.agent_ref("heuristic") == AgentRef("name", "heuristic")
    assert mc.agent_ref(str(tmp_path)) == AgentRef("ppo", arg=str(tmp_path))
    assert mc.agent_ref(f"ppo:{tmp_path}") == AgentRef("ppo", arg=str(tmp_path))
    assert mc.agent_ref(str(tmp_path / "none")) == AgentRef("name", str(tmp_path / "none"))


def test_evaluation_cli_plays_a_checkpoint_named_either_way(tmp_path, capsys):
    """A trained manager is ``ppo:PATH`` (a bare checkpoint folder is read as one too); its
    sizes are checked against the env before any campaign."""
    import torch
    from dugout.envs.bottom_ninth.challenge import ManagerChallengeEnv
    from dugout.evaluate import manager_challenge as mc
    env = ManagerChallengeEnv()
    obs, actions = int(env.observation_space.shape[0]), int(env.action_space.n)
    run = tmp_path / "run"
    run.mkdir()
    (run / "meta.json").write_text(json.dumps({"env_id": "manager_challenge_v0", "obs_size": obs,
                                               "n_actions": actions, "net_arch": [],
                                               "activation": "Tanh"}))
    torch.save({"0.weight": torch.zeros(actions, obs), "0.bias": torch.zeros(actions)},
               run / "policy.pt")
    results = mc.main(["--agents", f"ppo:{run}", str(run), "--campaigns", "1"])
    assert set(results) == {f"ppo:{run}", str(run)}
    assert results[f"ppo:{run}"]["mp"] == results[str(run)]["mp"]
    with pytest.raises(SystemExit) as exit_:
        mc.main(["--agents", f"ppo:{run}", "--env-option", "level=rookie"])
    assert exit_.value.code == 2
    assert "--env-option" in capsys.readouterr().err


# -- review follow-ups --------------------------------------------------------------------------------
def test_only_face_one_of_the_pitch_die_forces_the_reroll():
    """"a natural 1": the Pitch die's face number 1 as rolled. Face 2 is a Ball too, but not a
    1: with three balls the chart rules (B 3: Control +1, then a ball: the walk)."""
    data = solo_data()
    data["charts"]["p0"] = {"B": "KK+KKK", "S": "KKKKKK", "C": "KKKKKK"}
    c = start(BALL * 3 + [("pitch", 2), ("control", 3), ("swing", 1)], cards=pitch_reroll_cards(),
              solo_set=data)
    g = c.game
    for _ in range(3):
        c.apply(fool(c))
    c.apply(fool(c))
    assert purposes(c)[-3:] == ["pitch", "control", "swing"]        # no Pitch-die reroll
    assert "B 4 vs swing 1: ball" in g.last and g.board.bases[0] is not None
    assert c.dice.remaining == 0


def test_deck_out_on_the_third_out_of_a_tied_inning_keeps_the_new_pitchers_fatigue():
    """The deck runs out in the at-bat that ends a tied inning with extra innings left: the new
    pitcher's deck is the discard pile less 3 ("immediately Fatigue the Pitcher 3"), not
    reshuffled again; he is one who may relieve."""
    c = start(SAFE + OUT, effect=1, solo_set=extra_innings_set(1))
    g = c.game
    c.apply(GUESS + HI)                         # the tying run scores
    assert g.board.runs == [1, 1]
    g.discard += g.deck[:-1]
    g.deck = g.deck[-1:]
    c.apply(fool(c))                            # the last card: three out, tied, the deck out
    b = g.board
    assert b.inning == 10 and not b.over
    assert len(g.box.pitching[0]) == 2 and g.cards.card(g.pitcher).can_relieve
    assert len(g.discard) == 3 and len(g.deck) == g.solo.n_cards - 2 - 3
    assert partition_ok(c)


@pytest.mark.parametrize("face, row", [("S", "KKKKKS"), ("B", "KKKKK+"), ("C", "-KKKKK")])
def test_a_chart_letter_that_can_never_act_is_refused(face, row):
    data = solo_data()
    data["default_chart"][face] = row
    with pytest.raises(DataError, match=rf"default_chart\.{face}: letter"):
        load_solo(data)


def test_a_chart_for_an_unknown_pitcher_is_refused():
    data = solo_data()
    data["charts"]["P01"] = data["default_chart"]
    with pytest.raises(DataError, match="'P01'"):
        ManagerChallengeEnv(solo_cards=data)


@pytest.mark.parametrize("level", ["standard", "manager_of_the_year"])
def test_the_deck_order_reaches_no_observation_info_or_render(level):
    """At every decision of two campaigns, a twin whose deck is in another order gives the
    same observation, infos and render."""
    env = ManagerChallengeEnv(level=level, render_mode="ansi")
    twin = ManagerChallengeEnv(level=level, render_mode="ansi")
    rng = np.random.default_rng(7)
    checked = set()
    for seed in (1, 2):
        obs, info = env.reset(seed=seed)
        twin.reset(seed=seed)
        while True:
            saved = env.save()
            saved.game.deck = list(reversed(saved.game.deck))
            twin.restore(saved)
            o2, i2 = twin._obs(), twin._info()
            assert np.array_equal(obs, o2)
            step_only = ("action_mask", "game_result")     # game_result: the step's, not the state's
            assert {k: v for k, v in info.items() if k not in step_only} == \
                {k: v for k, v in i2.items() if k not in step_only}
            assert np.array_equal(info["action_mask"], i2["action_mask"])
            assert env.render_text() == twin.render_text()
            checked.add(info["decision"]["kind"])
            obs, _, term, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
            if term:
                break
    assert {"guess", "batter_ability", "select_batter"} <= checked


# -- the registry, pictures and seeds -------------------------------------------------------------------
def test_made_by_its_id_in_the_one_registry():
    """The README's id makes the env through ``dugout.envs.make``; the registry says it is a
    single-agent Gymnasium env, so what expects the AEC API (``ENV_IDS``, ``env_ids()``,
    ``spec()``) never sees it."""
    import dugout.envs as envs
    from dugout.envs.core.errors import UnknownEnvError
    env = envs.make("manager_challenge_v0", cards=sample_cards(), solo_cards=solo_data(),
                    level="veteran", reward="win")
    assert isinstance(env, ManagerChallengeEnv) and env.level == VETERAN and env.reward_kind == "win"
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs) and info["decision"]["kind"] == "select_batter"
    assert "manager_challenge_v0" in envs.SINGLE_AGENT_IDS
    assert "manager_challenge_v0" in envs.env_ids("gymnasium") and "manager_challenge_v0" in envs.env_ids("all")
    assert "manager_challenge_v0" not in envs.ENV_IDS and "manager_challenge_v0" not in envs.env_ids()
    assert envs.env_ids() == envs.ENV_IDS and set(envs.env_ids("all")) == set(envs.ENV_IDS) | {"manager_challenge_v0"}
    found = envs.spec("manager_challenge_v0", kind=None)
    assert found.kind == "gymnasium" and found.env_class is ManagerChallengeEnv
    assert envs.spec("manager_challenge_v0", kind="gymnasium") is found
    assert GYM_IDS[manager_challenge_v0.GYM_ID].endswith(":" + found.env_class.__name__)
    with pytest.raises(UnknownEnvError, match="single-agent Gymnasium"):
        envs.spec("manager_challenge_v0")                 # the AEC lookup refuses it, by name
    with pytest.raises(UnknownEnvError, match="AEC"):
        envs.spec("showdown_v0", kind="gymnasium")
    with pytest.raises(OptionError, match="raw"):
        envs.make("manager_challenge_v0", raw=True)
    with pytest.raises(OptionError, match="'colour'"):
        envs.make("manager_challenge_v0", colour="red")
    with pytest.raises(UnknownEnvError, match="manager_challenge_v0"):
        envs.make("manager_challenge_v1")                 # the known ids include it
    with pytest.raises(OptionError, match="kind"):
        envs.env_ids("solo")


def test_a_single_agent_env_can_be_registered():
    import dugout.envs as envs
    from dugout.envs import registry
    try:
        envs.register_env("my_challenge_v0", "dugout.envs.manager_challenge_v0", kind="gymnasium")
        assert envs.env_ids("gymnasium")[-1] == "my_challenge_v0"
        assert "my_challenge_v0" not in envs.env_ids()
        assert isinstance(envs.make("my_challenge_v0"), ManagerChallengeEnv)
        with pytest.raises(OptionError, match="kind"):
            envs.register_env("my_challenge_v0", "dugout.envs.manager_challenge_v0", kind="solo")
    finally:
        registry._SPECS.pop("my_challenge_v0", None)


def _frames(env, steps, seed):
    rng = random.Random(seed)
    env.reset(seed=seed)
    frames = [env.render()]
    c = env.campaign
    for _ in range(steps):
        env.step(rng.choice(c.pending.legal))
        frames.append(env.render())
        if c.over:
            break
    return frames


def test_rgb_array_draws_a_picture_at_every_step():
    pytest.importorskip("matplotlib")
    from dugout.envs.core.picture import DEFAULT_SIZE
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    frames = _frames(env, 12, seed=2)
    for f in frames:
        assert isinstance(f, np.ndarray) and f.dtype == np.uint8
        assert f.shape == (DEFAULT_SIZE[1], DEFAULT_SIZE[0], 3)
    assert sum(not np.array_equal(a, b) for a, b in zip(frames, frames[1:])) >= len(frames) // 2
    # the scene is the text's: the campaign, the situation, the decision and its options
    scene = env._scene()
    text = env.render_text()
    assert scene.title in text and scene.notes[0] in text
    c = env.campaign
    if not c.over:
        assert scene.to_act == f"home to decide: {c.pending.kind}"
        assert len(scene.options) == len(c.pending.legal)
    # and the end of a campaign
    while not c.over:
        env.step(c.pending.legal[-1])
    assert env._scene().final.endswith(f"{c.mp} MP ({c.band}).")
    assert env.render().shape == frames[0].shape
    with pytest.raises(OptionError, match="render_mode"):
        ManagerChallengeEnv(render_mode="rgb")


def test_the_picture_never_shows_the_deck_order_or_a_hidden_discard_pile():
    """Twins whose Pitcher deck is in another order (and at Manager of the Year, whose
    discard pile holds other cards) draw the same pixels."""
    pytest.importorskip("matplotlib")
    for level in ("standard", "manager_of_the_year"):
        env = ManagerChallengeEnv(level=level, render_mode="rgb_array")
        twin = ManagerChallengeEnv(level=level, render_mode="rgb_array")
        env.reset(seed=4)
        twin.reset(seed=4)
        rng = random.Random(4)
        c = env.campaign
        checked = 0
        while checked < 3:
            env.step(rng.choice(c.pending.legal))
            if c.pending is None or c.pending.kind != "guess" or len(c.game.deck) < 2:
                continue
            saved = env.save()
            g = saved.game
            g.deck = list(reversed(g.deck))
            if level == "manager_of_the_year" and g.discard:
                g.deck[0], g.discard[-1] = g.discard[-1], g.deck[0]
            twin.restore(saved)
            assert np.array_equal(env.render(), twin.render())
            checked += 1


class _StubClip:
    """moviepy's ImageSequenceClip, as RecordVideo calls it, keeping the frames."""
    clips: list = []

    def __init__(self, frames, fps):
        self.frames, self.fps = list(frames), fps
        _StubClip.clips.append(self)

    def write_videofile(self, path, logger=None):
        with open(path, "wb") as f:
            f.write(b"stub video")


def test_record_video_films_a_campaign(tmp_path, monkeypatch):
    """Gymnasium's RecordVideo takes the env (its render_mode check passes) and films it:
    with moviepy when installed, else with a stand-in for moviepy's clip writer that keeps
    the frames it is given."""
    pytest.importorskip("matplotlib")
    import importlib.util
    import sys
    import types
    from gymnasium.wrappers import RecordVideo
    with pytest.raises(ValueError, match="Render mode"):
        RecordVideo(ManagerChallengeEnv(render_mode="ansi"), str(tmp_path / "no"))
    real = importlib.util.find_spec("moviepy") is not None
    if not real:
        from gymnasium.error import DependencyNotInstalled
        with pytest.raises(DependencyNotInstalled):     # past the render_mode check
            RecordVideo(ManagerChallengeEnv(render_mode="rgb_array"), str(tmp_path / "no"))
        module = types.ModuleType("moviepy.video.io.ImageSequenceClip")
        module.ImageSequenceClip = _StubClip
        for name in ("moviepy", "moviepy.video", "moviepy.video.io"):
            monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
        monkeypatch.setitem(sys.modules, module.__name__, module)
        _StubClip.clips = []
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), render_mode="rgb_array")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda k: True,
                          video_length=8, name_prefix="challenge")
        env.reset(seed=1)
        for _ in range(10):
            env.step(env.unwrapped.campaign.pending.legal[0])
        env.close()
    videos = sorted((tmp_path / "videos").glob("challenge-episode-0*.mp4"))
    assert videos and videos[0].stat().st_size > 0
    if not real:
        (clip,) = _StubClip.clips
        assert clip.fps == env.unwrapped.metadata["render_fps"]
        assert len(clip.frames) == 9                       # the reset's and 8 steps' frames
        assert all(f.dtype == np.uint8 and f.shape == clip.frames[0].shape and f.ndim == 3
                   for f in clip.frames)


@pytest.mark.parametrize("seed", [-1, 1.5, "1", True, False, 2**32, 10**30,
                                  np.int64(-1), np.uint64(2**32), np.float64(3.0), [1], object()])
def test_a_bad_seed_raises_the_projects_error_naming_it_and_the_range(seed):
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data())
    with pytest.raises(OptionError, match=r"reset\(seed=\.\.\.\).*0 to 2\*\*32-1") as caught:
        env.reset(seed=seed)
    from dugout.envs.core.errors import show
    assert show(seed) in str(caught.value)
    assert env.campaign is None                            # nothing was set up


def test_seeds_in_range_numpy_integers_included():
    env = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), first_game="random")
    twin = ManagerChallengeEnv(cards=sample_cards(), solo_cards=solo_data(), first_game="random")
    for seed, same in ((7, np.int64(7)), (0, np.uint8(0)), (2**32 - 1, np.uint32(2**32 - 1)),
                       (12, np.array(12)[()])):
        assert _trajectory(env, seed, steps=20) == _trajectory(twin, same, steps=20)
    env.reset(seed=None)                                   # None goes on from the generator
