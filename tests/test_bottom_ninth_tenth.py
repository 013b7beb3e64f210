"""Bottom of the 9th, the duel's tenth inning (option ``extra_innings=True``).

Rulebook, Extra Innings: "If recording three Outs just isn't enough, you may opt to play out
the tenth inning. Decide this beforehand, so that you and your opponent pre-assign or draft
a team of Batters and Pitchers to use." A tie at the third out of the ninth goes on to the
tenth: away bats in the top against home's pitcher, home in the bottom against away's
(a walk-off ends it); a tie after the tenth is cut off (RULES.md).

Scripted rolls per pitch as in test_bottom_ninth_rules.py: a strike is ("pitch", 4) S,
("control", 6), ("swing", 1); a ball ("pitch", 1) B, ("control", 3), ("swing", 2).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from dugout.agents import make_agent
from dugout.agents.play import play_game
from dugout.agents.random_agent import RandomAgent
from dugout.agents.solvers.bottom_ninth import EquilibriumAgent
from dugout.agents.solvers.bottom_ninth.model import Duel
from dugout.envs import bottom_ninth_v0, make as make_env
from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.cards import load_cards
from dugout.envs.bottom_ninth.env import default_team, encode_state, encode_view
from dugout.envs.bottom_ninth.rules import GUESS, KEEP, THROW, apply_action
from dugout.envs.bottom_ninth.sample import public_setup, sample_state
from dugout.envs.bottom_ninth.view import view_of
from dugout.envs.core import OptionError, ScriptedDice

from bottom_ninth_samples import check_samples
from helpers import FULL, dumps, games, random_games, roundtrip
from test_bottom_ninth_cards import blank_cards

HI, HA, LI, LA = range(4)
STRIKE = [("pitch", 4), ("control", 6), ("swing", 1)]
BALL = [("pitch", 1), ("control", 3), ("swing", 2)]
TENTH = ({"extra_innings": True}, {"extra_innings": True, "teams": "choose", "draft": True})


def tenth_game(rolls):
    """A duel with the tenth inning, blank cards (every Ace High & Inside), the default teams
    of both sides."""
    data = blank_cards()
    for p in data["pitchers"]:
        p["ace"] = dict(p["ace"], direction="inside", location="high")
    cs = load_cards(data)
    lineup, staff = default_team(cs)
    away_lineup, home_staff = default_team(cs, exclude=set(lineup) | set(staff))
    return rules.new_game(ScriptedDice(rolls), cs, lineup=lineup, staff=staff, extra_innings=True,
                          away_lineup=away_lineup, home_staff=home_staff)


def pitches(state, thrown: list[int]):
    """Throw each pitch (guessed wrong: Low & Away against High & Inside and the reverse),
    keeping the pitcher between batters."""
    for p in thrown:
        while state.pending.kind != "pitch":
            assert state.pending.kind in ("pitching_change", "relief")
            apply_action(state, KEEP if state.pending.kind == "pitching_change" else state.pending.legal[0])
        apply_action(state, THROW + p)
        apply_action(state, GUESS + (LA if p == HI else HI))


def test_a_tie_at_the_third_out_goes_to_the_tenth():
    """Three strikeouts in the bottom of the 9th: the pitcher does not win 0-0; the top of
    the 10th starts with home's starter on the mound (his tokens at the top), away's first
    batter up, home's manager pitching."""
    state = tenth_game(STRIKE * 9)
    pitches(state, [LA] * 8 + [HI])          # the last pitch is the Ace: fatigue 1, 1
    b = state.board
    assert not b.over and (b.inning, b.half, b.outs) == (10, 0, 0)
    assert state.pitcher == state.staffs[1][0] and state.fatigue == [0, 0] and state.ceiling == 0
    assert state.mound[0] == state.staff[0] and state.ceilings[0] == 0
    assert state.batter_card == state.lineups[0][0]
    assert state.pending.kind == "pitch" and state.pending.actor == 1
    assert state.box.pitching[1][0].name == state.cards.card(state.staffs[1][0]).name
    state.validate()


def test_away_scores_in_the_top_then_its_pitcher_returns_reset():
    """Top of the 10th: four walks force in a run (no walk-off in the top), then three
    strikeouts; the bottom: away's pitcher of the ninth comes back with his tokens reset to
    the top ("reset the Fatigue Track", he allowed no run), home's order goes on (slot 4),
    and three more strikeouts win it for away 1-0."""
    state = tenth_game(STRIKE * 9 + BALL * 16 + STRIKE * 9 + STRIKE * 9)
    pitches(state, [LA] * 8 + [HI] + [LA] * 16 + [LA] * 9)
    b = state.board
    assert b.runs == [1, 0] and (b.inning, b.half) == (10, 1)
    assert state.pitcher == state.staff[0] and state.fatigue == [0, 0]
    assert state.order[1] == 3 and state.batter_card == state.lineup[3]
    assert state.pending.actor == 0
    pitches(state, [LA] * 9)
    assert b.over and b.winner == 0 and not b.truncated


def test_a_tie_after_the_tenth_is_cut_off():
    """The rulebook plays out the tenth inning, no more: tied after it, the game is cut off
    (truncated, 0 to both through the env)."""
    state = tenth_game(STRIKE * 27)
    pitches(state, [LA] * 27)
    assert state.board.over and state.board.truncated and state.board.winner is None


def test_a_walk_off_in_the_bottom_of_the_tenth():
    """Tied after the top, a bases-loaded walk in the bottom of the 10th ends it."""
    state = tenth_game(STRIKE * 18 + BALL * 16)
    pitches(state, [LA] * 18 + [LA] * 16)
    assert state.board.over and state.board.winner == 1 and state.board.runs == [0, 1]


def test_options_are_checked():
    for bad, words in (({"extra_innings": 1}, "True or False"),
                       ({"extra_innings": True, "mode": "game"}, "option of the duel"),
                       ({"extra_innings": True, "teams": "choose"}, "pre-assigned or drafted"),
                       ({"extra_innings": True, "teams": {"batters": [], "pitchers": []}}, r"teams\[.batters.\]|pre-assigned")):
        with pytest.raises(OptionError, match=words):
            bottom_ninth_v0.raw_env(**bad)
    env = bottom_ninth_v0.raw_env(extra_innings=True)
    assert not set(env.lineup + env.staff) & set(env.away_lineup + env.home_staff)


@pytest.mark.parametrize("options", TENTH, ids=str)
def test_random_games_keep_the_contract(options):
    """Random games: the invariants, infos and final rewards (a cut-off tie 0 to both), a
    save that loads and plays the same, observations within the space."""
    env = bottom_ninth_v0.raw_env(**options)
    space = env.observation_space("away")["observation"]
    reached, cut = 0, 0
    for env in random_games("bottom_ninth_v0", range(games(60, 20)), options):
        state = env.unwrapped.state_
        reached += state.board.inning == 10
        cut += state.board.truncated
        assert dumps(roundtrip(state)) == dumps(state)
        for seat in ("away", "home"):
            assert space.contains(env.observe(seat)["observation"])
        for i in (0, 1):                     # the observation read off the state is the view's
            assert (encode_state(state, i) == encode_view(view_of(state, i))).all()
    assert reached > 0 and cut > 0


@pytest.mark.parametrize("options", TENTH, ids=str)
def test_a_sample_shows_the_view_plays_on_and_saves(options):
    """The sampler over both halves of the tenth: every state, both seats."""
    assert public_setup(bottom_ninth_v0.raw_env(**options))["extra_innings"] is True
    tenth = []
    check_samples(options, range(games(12, 4)), play_every=1 if FULL else 6,
                  on_state=lambda state: tenth.append(state.board.inning == 10))
    assert any(tenth)


def test_twins_in_the_top_of_the_tenth_sample_alike():
    """Home pitches in the top of the 10th: away's view (the batter's) does not show his
    committed pitch; two games that differ only in it sample alike for away."""
    env = bottom_ninth_v0.raw_env(extra_innings=True)
    setup = public_setup(env)
    checked = 0
    for seed in range(40):
        env.reset(seed=seed)
        rng = random.Random(seed)
        game = env.unwrapped
        while not game.state_.board.over:
            d = game.state_.pending
            if d.kind == "pitch" and game.state_.board.inning == 10 and game.state_.board.half == 0 \
                    and len(d.legal) > 1:
                assert d.actor == 1
                twins = []
                for a in d.legal[:2]:
                    twin = game.state_.clone()
                    apply_action(twin, a)
                    twins.append(twin)
                views = [view_of(t, 0) for t in twins]
                assert views[0] == views[1]
                samples = [sample_state(v, random.Random(7), setup) for v in views]
                assert dumps(samples[0]) == dumps(samples[1])
                checked += 1
                break
            env.step(rng.choice(d.legal))
        if checked >= 3:
            break
    assert checked >= 3


def test_the_solver_refuses_the_tenth_inning():
    """The exact solver covers the sudden-death half inning only."""
    with pytest.raises(ValueError, match="extra_innings"):
        Duel.from_options(extra_innings=True)
    env = bottom_ninth_v0.raw_env(extra_innings=True)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="extra_innings"):
        EquilibriumAgent().solution_for(env.unwrapped.view("away"))


def _points(winner, seat: str) -> float:
    """A win 1, a tie cut off after the tenth 1/2, a loss 0."""
    return 1.0 if winner == seat else 0.5 if winner is None else 0.0


class _TenthOnly:
    """Random in the ninth, the heuristic in the tenth (the decisions this option adds)."""
    needs_view = True

    def __init__(self, seed: int):
        self.random, self.heuristic = RandomAgent(seed), make_agent("bottom_ninth_v0", "heuristic", seed=seed)

    def reset(self, seed=None):
        self.random.reset(seed)
        self.heuristic.reset(seed)

    def act(self, obs, view=None):
        if view is not None and view.inning == 10:
            return self.heuristic.act(obs, view)
        return self.random.act(obs, view)


@pytest.mark.parametrize("seat", ["away", "home"])
def test_the_heuristic_beats_random_in_the_tenth(seat):
    """On the same seeds (keyed dice), random in the ninth for both and then the heuristic
    in ``seat`` for the tenth wins more often than random all through: the paired difference
    over the games that reach the tenth (a tie after it half a win) is more than three
    standard errors above zero."""
    env = make_env("bottom_ninth_v0", extra_innings=True)
    other = "home" if seat == "away" else "away"
    diffs = []
    for seed in range(games(500, 160)):
        h = {seat: _TenthOnly(seed), other: RandomAgent(seed + 1)}
        r = {seat: RandomAgent(seed), other: RandomAgent(seed + 1)}
        with_h, with_r = play_game(env, h, seed), play_game(env, r, seed)
        if with_r.innings < 10:              # the ninth is the same random play in both
            assert with_h.innings < 10 and with_h.winner == with_r.winner
            continue
        diffs.append(_points(with_h.winner, seat) - _points(with_r.winner, seat))
    d = np.array(diffs)
    se = d.std(ddof=1) / math.sqrt(len(d))
    assert d.mean() > 3 * se, (d.mean(), se, len(d))
