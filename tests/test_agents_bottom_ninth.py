"""Bottom of the 9th's managers: the win table against the engine, the exact matrix-game
solver, the heuristic's mixed stare-down, and the heuristic against random from both seats."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from dugout.agents import agent_names, make_agent
from dugout.agents.bottom_ninth import (MAX_RUNS, BottomNinthHeuristic, game_tables, game_win_expectancy,
                                       run_distribution, win_expectancy, win_table)
from dugout.agents.matrix_game import solve_games
from dugout.agents.play import play_game
from dugout.agents.random_agent import RandomAgent
from dugout.envs import make
from dugout.envs.bottom_ninth import rules

from test_bottom_ninth_cards import blank_cards
from test_bottom_ninth_game import blank_data

ENV = "bottom_ninth_v0"


def test_the_managers_are_registered():
    names = agent_names(ENV)
    for name in ("random", "heuristic", "always-pitching_change", "never-pitching_change",
                 "always-pinch_hit", "never-pinch_hit", "always-double_switch", "never-double_switch",
                 "solver"):
        assert name in names
        assert make_agent(ENV, name, seed=1) is not None


# -- the win table ----------------------------------------------------------------------------
def test_win_table_bounds_and_order():
    w = win_table()
    assert w.shape == (3, 8, 4, 3)
    assert ((0 < w) & (w < 1)).all()
    # more outs hurt the batting side, runners and balls help it, strikes hurt it
    assert (w[0] > w[1]).all() and (w[1] > w[2]).all()
    assert (w[:, 7] > w[:, 0]).all()
    assert (w[:, :, 3] > w[:, :, 0]).all() and (w[:, :, :, 0] > w[:, :, :, 2]).all()


def test_win_table_is_the_blank_card_game():
    """With blank cards nothing a manager chooses changes a plate appearance, so random
    managers play the table's Markov chain: the batting side's share of 4,000 games agrees
    with the table's start value within four standard errors."""
    env = make(ENV, cards=blank_cards(), teams="default")
    agents = {"away": RandomAgent(1), "home": RandomAgent(2)}
    n = 4000
    wins = sum(play_game(env, agents, seed).winner == "home" for seed in range(n))
    p = float(win_table()[0, 0, 0, 0])
    se = math.sqrt(p * (1 - p) / n)
    assert abs(wins / n - p) < 4 * se, (wins / n, p)


def test_the_out_rule_changes_the_table():
    lead, batter = win_table(out_rule="lead_runner"), win_table(out_rule="batter")
    assert np.allclose(lead[:, 0], batter[:, 0], atol=0.02)       # bases empty: nearly alike
    assert not np.allclose(lead, batter)


def test_win_expectancy_is_the_viewing_managers():
    env = make(ENV)
    env.reset(seed=3)
    a, h = env.unwrapped.view("away"), env.unwrapped.view("home")
    assert win_expectancy(a) == pytest.approx(1 - win_expectancy(h))
    assert win_expectancy(h) == pytest.approx(float(win_table()[0, 0, 0, 0]))


# -- the Longer Game's table --------------------------------------------------------------------
def test_run_distribution_is_the_win_tables_chain_with_the_runs_counted():
    d = run_distribution()
    assert d.shape == (3, 8, 4, 3, MAX_RUNS) and (d >= 0).all()
    assert np.allclose(d.sum(axis=-1), 1.0, atol=1e-12)
    assert np.allclose(1.0 - d[..., 0], win_table(), atol=1e-12)       # a run at all: the duel's table
    assert d[..., -1].max() < 1e-6                                     # the open-ended last bin is dust
    runs = (d * np.arange(MAX_RUNS)).sum(axis=-1)
    assert (runs[0] > runs[1]).all() and (runs[1] > runs[2]).all()    # outs cost runs
    assert (runs[:, 7] > runs[:, 0]).all()                             # runners bring them in
    assert not np.allclose(run_distribution(out_rule="batter"), d)


def test_the_game_tables_are_the_regulation_game_of_that_distribution():
    """Both teams draw their runs from the same distribution, so the game is even at the
    start and a tied extra inning is even; a lead is worth more the later it is held; in the
    bottom of the last inning, home behind by one with the bases loaded and two out has the
    chance of two runs or more, and of exactly one times a tied extra inning's value."""
    t = game_tables(innings=3)
    assert t.win_expectancy(1, 0, 0, 0, 0) == pytest.approx(0.5, abs=1e-9)
    assert t.extra_tie == pytest.approx(0.5, abs=1e-9)
    assert t.win_expectancy(3, 0, 0, 0, 1) > t.win_expectancy(2, 0, 0, 0, 1) > t.win_expectancy(1, 0, 0, 0, 1) > 0.5
    d = run_distribution()[2, 7, 0, 0]
    expect = d[2:].sum() + d[1] * t.extra_tie
    assert t.win_expectancy(3, 1, 2, 7, -1) == pytest.approx(expect, abs=1e-9)


def test_game_win_expectancy_reads_the_count_and_the_viewing_seat():
    env = make(ENV, mode="game")
    env.reset(seed=3)
    home, away = env.unwrapped.view("home"), env.unwrapped.view("away")
    assert win_expectancy(home) == pytest.approx(0.5, abs=1e-9)
    assert win_expectancy(home) + win_expectancy(away) == pytest.approx(1.0)
    assert game_win_expectancy(home) == game_win_expectancy(away)
    ahead = dataclasses.replace(home, runs=(0, 2), inning=2)                 # top of the 2nd
    loaded = dataclasses.replace(ahead, runners=(True, True, True))
    three_balls = dataclasses.replace(loaded, balls=3)                      # a walk scores one
    assert win_expectancy(ahead) > win_expectancy(loaded) > win_expectancy(three_balls)
    assert win_expectancy(ahead) > 0.5


@pytest.mark.full
@pytest.mark.parametrize("options", [dict(mode="game"), dict(extra_innings=True, teams="default")],
                         ids=["longer_game", "duel_with_its_tenth"])
def test_game_win_expectancy_predicts_blank_card_games(options):
    """With blank cards nothing a manager chooses changes a pitch, so random managers play
    the tables' game, and the home side's win expectancy W at a decision predicts the result
    R (1 a home win, 1/2 a tie cut off after the duel's tenth, 0 a loss) without bias:
    E[R - W] = 0 at every decision, so each game's sum of R - W over the decisions it
    samples (1 in 20, a coin that does not look ahead), below and above W = 1/2 apart, has
    mean 0: within four standard errors over 3,000 games (a sum, not a mean: a game's
    number of samples depends on how it goes, and a mean over them would be biased)."""
    env = make(ENV, cards=blank_data(), **options)        # the built-in set, blank
    n = 3000
    sums = np.zeros((n, 2))
    for seed in range(n):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        seen: list[float] = []
        for name in env.agent_iter():
            _, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                if name == "home":
                    result = (reward + 1) / 2
                env.step(None)
                continue
            if rng.random() < 0.05:
                seen.append(game_win_expectancy(env.unwrapped.view(name)))
            env.step(int(rng.choice(np.flatnonzero(env.observe(name)["action_mask"]))))
        for w in seen:
            sums[seed, int(w >= 0.5)] += result - w
    for high in (0, 1):
        g = sums[:, high]
        assert np.count_nonzero(g) > n // 10
        assert abs(g.mean()) < 4 * g.std(ddof=1) / math.sqrt(n), (high, g.mean())

# -- the matrix game ----------------------------------------------------------------------------
def solve_matrix_game(m, rows):
    """Both mixes of one game with the legal ``rows`` (:func:`solve_games`, as the heuristic
    asks it)."""
    legal = np.zeros(4, dtype=bool)
    legal[rows] = True
    _, x, y = solve_games(np.asarray(m, float)[None], legal[None])
    return x[0], y[0]


def _is_equilibrium(m, rows, x, y, tol=1e-7):
    v = x @ m @ y
    return (m[rows] @ y >= v - tol).all() and (x @ m <= v + tol).all()


def test_matrix_game_solutions_are_equilibria():
    rng = np.random.default_rng(0)
    for t in range(300):
        m = rng.normal(size=(4, 4))
        rows = [0, 1, 2, 3] if t % 3 else [1, 3]
        x, y = solve_matrix_game(m, rows)
        assert x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1)
        assert all(x[r] == 0 for r in range(4) if r not in rows)
        assert _is_equilibrium(m, rows, x, y), t


def test_matching_pennies_is_mixed_and_a_blank_game_uniform():
    m = np.array([[1, -1, 0, 0], [-1, 1, 0, 0], [0, 0, 3, -3], [0, 0, -3, 3]], float)
    x, y = solve_matrix_game(m, [0, 1, 2, 3])
    assert _is_equilibrium(m, [0, 1, 2, 3], x, y)
    assert x @ m @ y == pytest.approx(0, abs=1e-9)
    assert max(y) < 1 and max(x) < 1                  # nobody plays a pure strategy
    x, y = solve_matrix_game(np.zeros((4, 4)), [0, 2, 3])
    assert x.tolist() == [1 / 3, 0, 1 / 3, 1 / 3] and y.tolist() == [0.25] * 4


def test_the_heuristic_mixes_its_stare_down():
    """The heuristic draws its pitch and its guess from a mix: over games with different
    manager seeds, the first pitch and the first guess of the same game state vary."""
    env = make(ENV)
    pitches, guesses = set(), set()
    for seed in range(40):
        h = BottomNinthHeuristic(seed)
        env.reset(seed=0)
        pitches.add(h.act(env.observe("away"), env.unwrapped.view("away")))
        env.step(rules.THROW)
        guesses.add(h.act(env.observe("home"), env.unwrapped.view("home")))
    assert len(pitches) >= 2 and len(guesses) >= 2


def test_the_heuristic_replays_a_game_for_a_seed():
    env = make(ENV)
    runs = []
    for _ in range(2):
        agents = {"away": make_agent(ENV, "heuristic", seed=5), "home": make_agent(ENV, "heuristic", seed=6)}
        r = play_game(env, agents, seed=11, agent_seeds={"away": 5, "home": 6})
        runs.append((r.score, r.decisions, r.winner))
    assert runs[0] == runs[1]


def test_the_baselines_differ_only_at_their_decision():
    """never-pinch_hit passes at every pinch-hit decision, always-pinch_hit sends one up
    whenever it may; in a game they differ there, and (with the same seeds) nowhere before."""
    env = make(ENV, mode="game", batters=10)
    seen = {True: 0, False: 0}
    for always in (True, False):
        agent = make_agent(ENV, f"{'always' if always else 'never'}-pinch_hit", seed=1)
        for seed in range(6):
            env.reset(seed=seed)
            for name in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                view = env.unwrapped.view(name)
                action = agent.act(obs, view)
                if view.decision == "pinch_hit" and len(view.legal) > 1:
                    assert (action != rules.PASS) == always
                    seen[always] += 1
                env.step(action)
    assert seen[True] > 0 and seen[False] > 0


def test_abilities_are_used_when_they_help():
    """With two strikes, a batter who shows a Strike on a Corner (swing one below control)
    and holds a +1 makes the swing equal the control: Contact instead of the third strike."""
    env = make(ENV, raw=True)
    h = BottomNinthHeuristic(0)
    used = 0
    for seed in range(600):
        env.reset(seed=seed)
        while not env.game.over:
            d = env.game.pending
            v = env.view(("away", "home")[d.actor])
            a = h.decide(v) if len(v.legal) > 1 else v.legal[0]
            if v.decision == "batter_ability" and v.face == "C" and v.swing == v.control - 1 \
                    and v.strikes == 2 and rules.SWING_UP in v.legal:
                assert a == rules.SWING_UP
                used += 1
            env.step(a)
    assert used > 0


def test_the_remembered_prices_are_the_card_sets_own():
    """The heuristic remembers a stare-down's matrix and a card's power by the card set's
    identity: served again, the same read-only matrix; an equal set that is another object
    is priced afresh, to the same figures; a set with the same card numbers but no
    abilities is never served the first set's prices."""
    import json

    from dugout.agents import bottom_ninth as bn
    from dugout.envs.bottom_ninth.cards import parse_cards
    env = make(ENV)
    env.reset(seed=3)
    view = env.unwrapped.view("away")
    cards = view.cards
    assert view.decision == "pitch" and view.batter_card >= 0 and view.pitcher_card >= 0
    data = json.loads(cards.source)
    for card in data["batters"] + data["pitchers"]:
        card["stare_down"] = {"direction": [], "location": [], "both": []}
    for batter in data["batters"]:
        batter["mvp"] = []
    for pitcher in data["pitchers"]:
        pitcher["ace"]["ability"] = []
    twin, blank = parse_cards(json.loads(cards.source), "twin"), parse_cards(data, "blank")
    m = bn.stare_down_matrix(view, cards)
    assert not m.flags.writeable and bn.stare_down_matrix(view, cards) is m
    assert np.array_equal(m, bn._stare_down_matrix(view, cards, bn.situation(view, cards)))
    again = bn.stare_down_matrix(view, twin)
    assert again is not m and np.array_equal(again, m)
    flat = bn.stare_down_matrix(view, blank)
    assert np.array_equal(flat, bn._stare_down_matrix(view, blank, bn.situation(view, blank)))
    assert np.abs(m).max() > 0.01 > np.abs(flat).max()          # only the Ace's fatigue is left
    for i in (view.batter_card, view.pitcher_card):
        assert bn.card_power(cards, i) == bn._power(cards, i) == bn.card_power(twin, i)
        assert bn.card_power(blank, i) == bn._power(blank, i) != bn.card_power(cards, i)


# -- the heuristic against random, from each seat ------------------------------------------------
@pytest.mark.full
@pytest.mark.parametrize("mode, n", [("duel", 600), ("game", 120)])
@pytest.mark.parametrize("seat", ["away", "home"])
def test_the_heuristic_beats_random_from_each_seat(seat, mode, n):
    """On the same seeds (the dice are keyed), the heuristic in ``seat`` against random
    wins clearly more often than random in that seat against random: the paired
    difference is more than four standard errors above zero. In the duel and in the
    longer game (three innings, both managers bat and pitch)."""
    env = make(ENV, mode=mode)
    other = "home" if seat == "away" else "away"
    diffs = []
    for seed in range(n):
        h = {seat: make_agent(ENV, "heuristic", seed=seed), other: RandomAgent(seed + 1)}
        r = {seat: RandomAgent(seed + 2), other: RandomAgent(seed + 1)}
        won_h = play_game(env, h, seed).winner == seat
        won_r = play_game(env, r, seed).winner == seat
        diffs.append(float(won_h) - float(won_r))
    d = np.array(diffs)
    se = d.std(ddof=1) / math.sqrt(n)
    assert d.mean() > 4 * se, (d.mean(), se)


def test_the_batter_never_guesses_a_pitch_the_pitcher_cannot_throw():
    """With both Ace tokens at the bottom of the track the pitcher can throw only the pitch
    opposite his Ace (the engine commits it); the heuristic's guess mix puts nothing on the
    pitches he cannot throw, so it guesses the one he must."""
    env = make(ENV, raw=True)
    env.reset(seed=0)
    assert env.game.pending.kind == "pitch"
    state = env.game.clone()
    state.fatigue = [state.fatigue_rows - 1, state.fatigue_rows - 1]
    env.restore(state)
    opposite = 3 - env.view("away").ace        # the other direction and the other location
    env.step(rules.THROW + opposite)
    assert env.game.pending.kind == "guess"
    view = env.view("home")
    pitcher_mix, batter_mix = BottomNinthHeuristic(0).mix(view)
    assert batter_mix[opposite] == pytest.approx(1.0) and pitcher_mix[opposite] == pytest.approx(1.0)
    assert BottomNinthHeuristic(1).decide(view) == rules.GUESS + opposite
