"""The exact Bottom of the 9th duel solver (``dugout.agents.solvers.bottom_ninth``) on small duels.

What is covered here, each on a duel built for the test (six batters at C, 1B, 2B, 3B, SS,
LF, a starter and a reliever, ``fatigue_rows=3``, so that a solve takes seconds, not the
default duel's ~40 s):

* the batched 4 x 4 matrix games (``solve_games``) against linear programming (scipy) and
  the equilibrium conditions, degenerate games included;
* **blank cards** (no abilities, no traits): the solved value equals the plain Markov chain
  of the pitch, Crushed and the Run! phase, computed independently below (fractions, no
  solver or heuristic helper), at the first pitch and other states; nothing is at stake in
  a stare-down, so even a random manager is unexploitable;
* **thin cards** (a few abilities and traits): the equilibrium manager's exploitability is
  zero in both seats, random's and the heuristic's are positive, and the equilibrium is never
  beaten; simulation through the engine agrees with the solved values and with the exact
  evaluation of a non-equilibrium manager (99.9% normal intervals);
* saving and loading (and refusing another duel, format or rules version); the agent reads
  only its view (the pitcher's secret changes nothing it does), plays whole seeded games
  through ``bottom_ninth_v0`` from both seats reproducibly, and refuses the longer game;
  the command line on a saved solution; the errors of the public API.

The long checks (the default duel solved, 100,000-game simulations, every manager's
exploitability) are ``dugout verify bottom_ninth``.
"""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
from scipy.optimize import linprog

from dugout.agents import RandomAgent, make_agent
from dugout.agents.solvers.bottom_ninth import (RULES_VERSION, Duel, EquilibriumAgent,
                                                PolicyTable, Solution, cached_solution, evaluate,
                                                exploitability, play_out, policy_table,
                                                solve, solve_games, start_state)
from dugout.envs import bottom_ninth_v0
from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.view import view_of

ENV = "bottom_ninth_v0"
Z999 = 3.2905                      # two-sided 99.9% normal quantile
POSITIONS = ("C", "1B", "2B", "3B", "SS", "LF")
EMPTY_TABLE = {"direction": [], "location": [], "both": []}
STARE_KINDS = ("pitch", "guess", "relief", "pitching_change")


# -- the card sets --------------------------------------------------------------------------------
def blank_cards() -> dict:
    """Six batters and two pitchers with nothing on their cards but the Aces."""
    batters = [{"id": f"bb{i}", "name": f"Blank batter {i}", "position": pos,
                "stare_down": copy.deepcopy(EMPTY_TABLE), "mvp": []}
               for i, pos in enumerate(POSITIONS)]
    pitchers = [{"id": "bs", "name": "Blank starter", "role": "starter",
                 "ace": {"direction": "away", "location": "low", "ability": []},
                 "stare_down": copy.deepcopy(EMPTY_TABLE)},
                {"id": "br", "name": "Blank reliever", "role": "reliever",
                 "ace": {"direction": "inside", "location": "high", "ability": []},
                 "stare_down": copy.deepcopy(EMPTY_TABLE)}]
    return {"set": "blank", "version": 1, "batters": batters, "pitchers": pitchers}


def thin_cards() -> dict:
    """A few abilities and traits. The leadoff batter (C) rerolls the Swing for the direction
    token, +-1 for the location token, one of those for both, +1 as his MVP; the 1B is fast
    (Speed +2), the 3B crushes on a natural 5 too; the others are blank. The starter is
    blank but for Fielding +1; the reliever has +-1 on the Control for the direction token
    or both, and an Ace (high inside) that turns a Strike face into a Corner. (Abilities
    grow the pitch graphs and with them every pass: these keep a solve near ten seconds,
    an exact evaluation near two, and a heuristic's policy table near ten.)"""
    batters = [{"id": f"tb{i}", "name": f"Thin batter {i}", "position": pos,
                "stare_down": copy.deepcopy(EMPTY_TABLE), "mvp": [], "traits": []}
               for i, pos in enumerate(POSITIONS)]
    reroll, nudge = {"reroll": "swing"}, {"modify": "swing", "by": "+-1"}
    batters[0]["stare_down"] = {"direction": [reroll], "location": [nudge],
                                "both": [{"choose": 1, "of": [reroll, nudge]}]}
    batters[0]["mvp"] = [{"modify": "swing", "by": 1}]
    batters[1]["traits"] = [{"trait": "speed", "by": 2}]
    batters[3]["traits"] = [{"trait": "crush_on", "values": [5]}]
    control = {"modify": "control", "by": "+-1"}
    pitchers = [{"id": "ts", "name": "Thin starter", "role": "starter",
                 "ace": {"direction": "away", "location": "low", "ability": []},
                 "stare_down": copy.deepcopy(EMPTY_TABLE),
                 "traits": [{"trait": "fielding", "by": 1}]},
                {"id": "tr", "name": "Thin reliever", "role": "reliever",
                 "ace": {"direction": "inside", "location": "high",
                         "ability": [{"face": "pitch", "to": "C", "from": ["S"]}]},
                 "stare_down": {"direction": [control], "location": [], "both": [control]}}]
    return {"set": "thin", "version": 1, "batters": batters, "pitchers": pitchers}


BLANK, THIN = blank_cards(), thin_cards()
THIN_TEAMS = {"batters": [f"tb{i}" for i in range(6)], "pitchers": ["ts", "tr"]}


@pytest.fixture(scope="module")
def blank_duel() -> Duel:
    return Duel.from_options(cards=BLANK, teams="default", fatigue_rows=3)


@pytest.fixture(scope="module")
def blank(blank_duel) -> Solution:
    return solve(blank_duel)


@pytest.fixture(scope="module")
def thin_duel() -> Duel:
    return Duel.from_options(cards=THIN, teams=THIN_TEAMS, fatigue_rows=3)


@pytest.fixture(scope="module")
def thin(thin_duel) -> Solution:
    # through the cache, so that the registered ``solver`` agent (which solves the duel its
    # view shows) finds this solution instead of solving again
    return cached_solution(thin_duel)


@pytest.fixture(scope="module")
def eq_pitcher_table(thin) -> PolicyTable:
    return policy_table(EquilibriumAgent(thin), thin, 0)


# -- a. the matrix games ---------------------------------------------------------------------------
def lp_value(a: np.ndarray, legal: np.ndarray) -> float:
    """The row player's (minimiser's) value by linear programming: min t subject to
    x @ a[:, g] <= t for every column g, x a distribution on the legal rows."""
    rows = np.flatnonzero(legal)
    k = len(rows)
    c = np.r_[np.zeros(k), 1.0]
    a_ub = np.c_[a[rows].T, -np.ones(a.shape[1])]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(a.shape[1]), A_eq=np.r_[np.ones(k), 0.0][None],
                  b_eq=[1.0], bounds=[(0, None)] * k + [(None, None)], method="highs")
    assert res.success
    return float(res.x[-1])


def check_equilibrium(a, legal, v, x, y, tol=1e-9):
    assert np.all(x >= -tol) and np.all(y >= -tol)
    assert abs(x.sum() - 1) < tol and abs(y.sum() - 1) < tol
    assert np.all(x[~legal] == 0), "the pitcher mixes in an illegal pitch"
    # neither side gains by a pure deviation
    assert (x @ a).max() == pytest.approx(v, abs=tol)                  # the batter's best reply
    assert (a @ y)[legal].min() == pytest.approx(v, abs=tol)           # the pitcher's best reply


def test_solve_games_matches_linear_programming():
    rng = np.random.default_rng(2024)
    n = 300
    a = rng.random((n, 4, 4))
    a[::7] = np.round(a[::7] * 3) / 3                     # ties and saddle points
    a[1::11, 2] = a[1::11, 0]                              # duplicated rows
    a[2::13, :, 3] = a[2::13, :, 1]                        # duplicated columns
    legal = np.ones((n, 4), dtype=bool)
    for i in range(0, n, 3):                               # fatigued pitchers: 1-3 rows masked
        drop = rng.choice(4, size=rng.integers(1, 4), replace=False)
        legal[i, drop] = False
    v, x, y = solve_games(a, legal)
    assert v.shape == (n,) and x.shape == (n, 4) and y.shape == (n, 4)
    for i in range(n):
        assert v[i] == pytest.approx(lp_value(a[i], legal[i]), abs=1e-9), i
        check_equilibrium(a[i], legal[i], v[i], x[i], y[i])


def test_solve_games_degenerate():
    const = np.full((4, 4), 0.3)
    dup = np.array([[0.2, 0.8, 0.5, 0.1]] * 4)             # every row the same: a pure column
    rps = np.array([[0.5, 1, 0, 0.5], [0, 0.5, 1, 0.5], [1, 0, 0.5, 0.5], [1, 0, 0.5, 0.5]])
    a = np.stack([const, const, dup, rps])
    legal = np.array([[1, 1, 1, 1], [0, 1, 0, 1], [1, 1, 1, 1], [1, 1, 1, 0]], dtype=bool)
    v, x, y = solve_games(a, legal)
    # nothing at stake: both mix uniformly (the pitcher over his legal rows)
    np.testing.assert_allclose(x[0], [0.25] * 4)
    np.testing.assert_allclose(y[0], [0.25] * 4)
    np.testing.assert_allclose(x[1], [0, 0.5, 0, 0.5])
    np.testing.assert_allclose(y[1], [0.25] * 4)
    assert v[0] == v[1] == pytest.approx(0.3)
    assert v[2] == pytest.approx(0.8)
    np.testing.assert_allclose(y[2], [0, 1, 0, 0], atol=1e-12)
    for i in range(4):
        assert v[i] == pytest.approx(lp_value(a[i], legal[i]), abs=1e-12)
        check_equilibrium(a[i], legal[i], v[i], x[i], y[i])
    with pytest.raises(ValueError, match="legal row"):
        solve_games(a[:1], np.zeros((1, 4), dtype=bool))


# -- b. blank cards against an independent chain ---------------------------------------------------
def _pitch_odds(faces: str = "BBBSSC") -> dict[str, Fraction]:
    """One pitch with blank cards: the Pitch die, Control and Swing d6 and the swing table."""
    out = dict.fromkeys(("ball", "strike", "foul", "run", "crush"), Fraction(0))
    for face in faces:
        for control in range(1, 7):
            for swing in range(1, 7):
                if face == "B":
                    r = "strike" if swing > control else "ball"
                elif face == "S":
                    r = ("strike" if swing < control else "foul" if swing == control
                         else "crush" if swing == 6 else "run")
                else:
                    r = "run" if swing == control else "strike"
                out[r] += Fraction(1, 36 * len(faces))
    return out


def _safe() -> Fraction:
    """The Run! phase with no traits: rounds of two d6 until one shows 5 or 6; the runner
    wins when he succeeds and rolls at least the fielder."""
    pairs = [(r, f) for r in range(1, 7) for f in range(1, 7) if r >= 5 or f >= 5]
    return Fraction(sum(r >= f for r, f in pairs), len(pairs))


def _advance(bases: int, n: int) -> tuple[bool, int]:
    """Every runner and the batter ``n`` bases: (a run scored, the bases after)."""
    scored = any(bases >> i & 1 and i + n >= 3 for i in range(3))
    return scored, ((bases << n) & 7) | (1 << (n - 1))


def _forced(bases: int) -> tuple[bool, int]:
    """A walk: the batter to first, forced runners one base."""
    if bases == 7:
        return True, 7
    for i in range(3):
        if not bases >> i & 1:
            return False, bases | 1 << i
    raise AssertionError


def chain_value(outs: int, bases: int, balls: int, strikes: int, faces: str = "BBBSSC",
                out_rule: str = "lead_runner") -> Fraction:
    """The batting side's chance of a run before the third out with blank cards, computed
    on its own: no solver, engine or heuristic code."""
    odds, safe = _pitch_odds(faces), _safe()

    @lru_cache(maxsize=None)
    def pa(o: int, b: int) -> Fraction:                   # a new batter, count 0-0
        return Fraction(0) if o == 3 else value(o, b, 0, 0)

    def reach(o: int, b: int, n: int) -> Fraction:
        scored, after = _advance(b, n)
        return Fraction(1) if scored else pa(o, after)

    def thrown_out(o: int, b: int) -> Fraction:           # the fielder wins the Run! phase
        if b == 0 or out_rule == "batter":                # the batter out, runners stay
            return pa(o + 1, b)
        lead = b.bit_length() - 1
        rest = b & ~(1 << lead)
        return pa(o + 1, ((rest << 1) & 7) | 1)          # the lead runner out, the rest
                                                          # one base (pa() is 0 at 3 outs)

    @lru_cache(maxsize=None)
    def value(o: int, b: int, bl: int, st: int) -> Fraction:
        if bl == 3:
            scored, after = _forced(b)
            ball = Fraction(1) if scored else pa(o, after)
        else:
            ball = value(o, b, bl + 1, st)
        strike = pa(o + 1, b) if st == 2 else value(o, b, bl, st + 1)
        run = safe * reach(o, b, 1) + (1 - safe) * thrown_out(o, b)
        crush = (Fraction(4, 6) * reach(o, b, 1) + Fraction(1, 6) * reach(o, b, 2)
                 + Fraction(1, 6) * (Fraction(5, 6) + Fraction(1, 6) * pa(o + 1, b)))
        rest = (odds["ball"] * ball + odds["strike"] * strike + odds["run"] * run
                + odds["crush"] * crush)
        if st == 2:                                       # a foul with two strikes: again
            return rest / (1 - odds["foul"])
        return rest + odds["foul"] * value(o, b, bl, st + 1)

    return value(outs, bases, balls, strikes)


def test_chain_sanity():
    """The hand-made chain's own pieces, against numbers worked out on paper."""
    odds = _pitch_odds()
    assert sum(odds.values()) == 1
    assert odds["ball"] == Fraction(21, 72) and odds["foul"] == Fraction(6, 108)
    assert odds["crush"] == Fraction(5, 108)
    assert _safe() == Fraction(11, 20)
    assert _advance(0b001, 2) == (False, 0b110) and _advance(0b100, 1)[0]
    assert _forced(0b010) == (False, 0b011) and _forced(0b011) == (False, 0b111)
    assert chain_value(2, 7, 3, 0) > chain_value(2, 0, 0, 0)


BLANK_STATES = [dict(), dict(outs=1, bases=5, balls=2, strikes=1, slot=3),
                dict(outs=2, bases=7, balls=3, strikes=2, fatigue=(2, 1)),
                dict(outs=0, bases=2, strikes=2, slot=5, fatigue=(1, 1), relieved=True),
                dict(outs=2, bases=0, balls=1, slot=1, fatigue=(2, 2))]


@pytest.mark.parametrize("where", BLANK_STATES, ids=lambda w: ",".join(f"{k}={v}" for k, v in w.items()) or "first pitch")
def test_blank_cards_match_the_independent_chain(blank, where):
    expected = float(chain_value(where.get("outs", 0), where.get("bases", 0),
                                 where.get("balls", 0), where.get("strikes", 0)))
    assert blank.value_at(**where) == pytest.approx(expected, abs=1e-10)


def test_blank_cards_other_options_match_the_chain():
    """``pitch_faces`` and ``out_rule`` reach the solver: another die and the Run! text's
    out rule (the batter out, the runners stay)."""
    sol = solve(cards=BLANK, teams="default", fatigue_rows=3, out_rule="batter",
                pitch_faces={"B": 2, "S": 2, "C": 2})
    assert sol.duel.faces == tuple("BBSSCC") and sol.duel.out_rule == "batter"
    for outs, bases, balls, strikes in [(0, 0, 0, 0), (1, 4, 0, 2), (2, 6, 3, 1)]:
        expected = chain_value(outs, bases, balls, strikes, faces="BBSSCC", out_rule="batter")
        assert sol.value_at(outs, bases, balls, strikes) == pytest.approx(float(expected), abs=1e-10)
    # the rule matters where a runner is on: the lead-runner rule's value differs there
    assert chain_value(1, 4, 0, 2, "BBSSCC") != chain_value(1, 4, 0, 2, "BBSSCC", "batter")


def test_blank_game_value_and_flat_stare_downs(blank):
    assert blank.game_value == pytest.approx(float(chain_value(0, 0, 0, 0)), abs=1e-10)
    x, y = blank.mix_at()
    np.testing.assert_allclose(x, [0.25] * 4)
    np.testing.assert_allclose(y, [0.25] * 4)
    # with the starter's away token at the bottom, only his inside pitches are left
    x, _ = blank.mix_at(fatigue=(2, 0))
    np.testing.assert_allclose(x, [0.5, 0, 0.5, 0])


def test_blank_cards_random_manager_is_unexploitable(blank):
    e = exploitability(blank, RandomAgent(0))
    assert e.game_value == blank.game_value
    for v in (e.pitcher_vs_equilibrium, e.pitcher_vs_best, e.batter_vs_equilibrium, e.batter_vs_best):
        assert v == pytest.approx(blank.game_value, abs=1e-9)
    assert abs(e.as_pitcher) <= 1e-9 and abs(e.as_batter) <= 1e-9


# -- c. thin cards: exploitability -------------------------------------------------------------------
def test_thin_equilibrium_manager_is_unexploitable(thin, eq_pitcher_table):
    assert 0.05 < thin.game_value < 0.95
    x, y = thin.mix_at()
    assert np.count_nonzero(x > 1e-9) > 1 and np.count_nonzero(y > 1e-9) > 1   # a mixed game
    e = exploitability(thin, EquilibriumAgent(thin))
    assert e.as_pitcher == pytest.approx(0, abs=1e-9) and e.as_batter == pytest.approx(0, abs=1e-9)
    assert e.pitcher_vs_equilibrium == pytest.approx(thin.game_value, abs=1e-9)
    assert e.batter_vs_equilibrium == pytest.approx(thin.game_value, abs=1e-9)
    # the agent's table is the solution's mixes wherever it chooses
    asked = ~np.isnan(eq_pitcher_table.stare_down[:, 0])
    np.testing.assert_allclose(eq_pitcher_table.stare_down[asked], thin.x[asked], atol=1e-12)


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_thin_other_managers_are_exploitable(thin, name):
    e = exploitability(thin, make_agent(ENV, name, 0))
    v = thin.game_value
    assert max(e.as_pitcher, e.as_batter) > 1e-4, e
    # the equilibrium is never beaten ...
    assert e.pitcher_vs_equilibrium >= v - 1e-9
    assert e.batter_vs_equilibrium <= v + 1e-9
    # ... and a best response does at least as well as the equilibrium against the manager
    assert e.pitcher_vs_best >= e.pitcher_vs_equilibrium - 1e-9
    assert e.batter_vs_best <= e.batter_vs_equilibrium + 1e-9
    assert e.as_pitcher >= -1e-9 and e.as_batter >= -1e-9


def test_the_verification_is_the_same_on_one_worker_or_two(thin):
    """``dugout verify bottom_ninth`` plays its games on the evaluation backends: game ``k``
    has seed ``k`` whatever the workers, so two processes count the very wins one does."""
    from dugout.studies.verify_bottom_ninth import verify
    options = {"cards": THIN, "teams": THIN_TEAMS, "fatigue_rows": 3}
    states = [("first pitch", {}), ("runner on 2nd, 1 out", {"outs": 1, "bases": 2})]
    one, two = (verify(games=60, workers=w, options=options, states=states, out=io.StringIO())
                for w in (1, 2))
    assert [r["rate"] for r in one] == [r["rate"] for r in two]
    assert [r["value"] for r in one] == [thin.value_at(**where) for _, where in states]


# -- d. simulation against the solution ----------------------------------------------------------------
def simulated(duel, managers, games: int, **where) -> float:
    for seat, m in enumerate(managers):
        m.reset(1000 + seat)
    return sum(play_out(start_state(duel, seed, **where), managers) for seed in range(games)) / games


def assert_inside(value: float, rate: float, games: int):
    half = Z999 * math.sqrt(max(rate * (1 - rate), 1e-4) / games)
    assert abs(rate - value) <= half, f"exact {value:.4f}, simulated {rate:.4f} +- {half:.4f} ({games} games)"


@pytest.mark.parametrize("where,games", [(dict(), 1500),
                                         (dict(outs=1, bases=7, balls=3, strikes=2), 1500)],
                         ids=["first pitch", "bases loaded full count"])
def test_thin_simulation_matches_value(thin, thin_duel, where, games):
    managers = (EquilibriumAgent(thin), EquilibriumAgent(thin))
    assert_inside(thin.value_at(**where), simulated(thin_duel, managers, games, **where), games)


class RandomStareDowns:
    """Uniform at the stare-down, relief and pitching-change decisions (seeded), the
    equilibrium manager at ability decisions: the manager exact evaluation describes."""
    name = "random-stare-downs"
    needs_view = True

    def __init__(self, solution: Solution, seed: int = 0):
        self.eq = EquilibriumAgent(solution, seed)
        self.rng = np.random.default_rng(seed)

    def reset(self, seed=None):
        self.rng = np.random.default_rng(seed)
        self.eq.reset(seed)

    def act(self, observation, view) -> int:
        if view.decision in STARE_KINDS:
            return int(view.legal[self.rng.integers(len(view.legal))])
        return self.eq.act(observation, view)

    def action_probabilities(self, observation, view) -> dict[int, float]:
        if view.decision in STARE_KINDS:
            return {a: 1 / len(view.legal) for a in view.legal}
        return self.eq.probabilities(view)


@pytest.mark.parametrize("seat", [0, 1], ids=["pitching", "batting"])
def test_thin_exact_evaluation_matches_simulation(thin, thin_duel, eq_pitcher_table, seat):
    """A non-equilibrium manager's exact value (its policy table: stare-downs, and as the
    pitcher, relief and pitching changes) against its simulated rate."""
    other = RandomStareDowns(thin)
    if seat == 0:
        exact = evaluate(thin, pitcher=policy_table(other, thin, 0), batter="equilibrium")
        managers = (other, EquilibriumAgent(thin))
    else:
        exact = evaluate(thin, pitcher=eq_pitcher_table, batter=policy_table(other, thin, 1))
        managers = (EquilibriumAgent(thin), other)
    assert abs(exact - thin.game_value) > 1e-3        # the manager matters
    games = 1500
    assert_inside(exact, simulated(thin_duel, managers, games), games)


# -- e. saving and loading ---------------------------------------------------------------------------
def test_save_load_round_trip(thin, thin_duel, tmp_path):
    path = tmp_path / "thin.npz"
    thin.save(path)
    for loaded in (Solution.load(path), Solution.load(path, thin_duel)):
        assert loaded.duel.key == thin_duel.key
        np.testing.assert_array_equal(loaded.values, thin.values)
        np.testing.assert_array_equal(loaded.x, thin.x)
        np.testing.assert_array_equal(loaded.y, thin.y)
        assert loaded.game_value == thin.game_value
        assert loaded.value_at(outs=2, bases=3, balls=1, strikes=2, slot=4) == \
            thin.value_at(outs=2, bases=3, balls=1, strikes=2, slot=4)
    # another duel: the same cards with four fatigue rows
    other = Duel.from_options(cards=THIN, teams=THIN_TEAMS, fatigue_rows=4)
    with pytest.raises(ValueError) as err:
        Solution.load(path, other)
    assert "'fatigue_rows': 3" in str(err.value) and "'fatigue_rows': 4" in str(err.value)


def _rewrite_meta(src, dst, **changes):
    with np.load(src) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta.update(changes)
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(dst, **arrays)


def test_load_refuses_other_rules_format_or_file(blank, blank_duel, tmp_path):
    path = tmp_path / "blank.npz"
    blank.save(path)
    _rewrite_meta(path, tmp_path / "same.npz")             # the rewrite itself keeps it loadable
    assert Solution.load(tmp_path / "same.npz", blank_duel).game_value == blank.game_value
    _rewrite_meta(path, tmp_path / "rules.npz", rules_version=RULES_VERSION + "-old")
    with pytest.raises(ValueError, match="rules"):
        Solution.load(tmp_path / "rules.npz", blank_duel)
    _rewrite_meta(path, tmp_path / "format.npz", format=999)
    with pytest.raises(ValueError, match="format"):
        Solution.load(tmp_path / "format.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a solution")
    with pytest.raises(ValueError, match="not a saved"):
        Solution.load(tmp_path / "junk.npz")


# -- f. the agent reads its view only ----------------------------------------------------------------
@pytest.mark.parametrize("where", [dict(), dict(outs=1, bases=3, balls=2, strikes=1),
                                   dict(outs=2, bases=4, strikes=2, slot=4, fatigue=(1, 1),
                                        relieved=True)])
def test_agent_does_not_read_the_secret(thin, thin_duel, where):
    agent = EquilibriumAgent(thin)
    probs, secrets = [], []
    for pitch in range(4):
        state = start_state(thin_duel, 7, **where)
        assert state.pending.kind == "pitch"
        rules.apply_action(state, rules.THROW + pitch)
        assert state.pending.kind == "guess" and state.secret == pitch
        view = view_of(state, 1)
        assert view.committed == -1
        probs.append(agent.probabilities(view))
        secrets.append(state.secret)
    assert len(set(secrets)) == 4
    assert all(p == probs[0] for p in probs)
    # and it is the equilibrium's guess mix, here not a flat one
    _, y = thin.mix_at(**where)
    assert np.abs(y - 0.25).max() > 1e-3
    assert probs[0] == pytest.approx({rules.GUESS + g: y[g] for g in range(4)}, abs=1e-12)


def _env_game(seed: int):
    env = bottom_ninth_v0.env(teams=THIN_TEAMS, cards=THIN, fatigue_rows=3)
    agents = {"away": make_agent(ENV, "solver"), "home": make_agent(ENV, "solver")}
    env.reset(seed=seed)
    for i, name in enumerate(("away", "home")):
        agents[name].reset(seed=10 * seed + i)
    played, rewards = [], {}
    for name in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            rewards[name] = reward
            env.step(None)
            continue
        view = env.unwrapped.view(name)
        action = agents[name].act(obs, view)
        played.append((name, view.decision, action))
        env.step(action)
    return played, rewards, agents


def test_registered_solver_plays_seeded_games(thin):
    for seed in (3, 4):
        first, rewards, agents = _env_game(seed)
        again, rewards_again, _ = _env_game(seed)
        assert first == again and rewards == rewards_again
        assert {"away", "home"} <= {who for who, _, _ in first}
        assert {"pitch", "guess"} <= {kind for _, kind, _ in first}
        assert sorted(rewards.values()) == [-1, 1]
        for agent in agents.values():                       # it found the solved duel
            assert agent.solution.game_value == thin.game_value


def test_agent_refuses_the_longer_game_and_other_duels(thin, blank, thin_duel):
    env = bottom_ninth_v0.env(mode="game")
    env.reset(seed=0)
    view = env.unwrapped.view(env.agent_selection)
    assert view.decision == "pitch"
    with pytest.raises(ValueError, match="duel"):
        EquilibriumAgent().probabilities(view)
    thin_view = view_of(start_state(thin_duel, 0), 0)
    with pytest.raises(ValueError, match="another duel"):
        EquilibriumAgent(blank).probabilities(thin_view)


# -- g. errors ------------------------------------------------------------------------------------------
def test_errors(thin, eq_pitcher_table):
    with pytest.raises(ValueError, match="teams"):
        Duel.from_options(teams="choose")
    with pytest.raises(ValueError, match="duel"):
        Duel.from_options(mode="game")
    with pytest.raises(ValueError, match="no such stare-down"):
        thin.value_at(outs=3)
    with pytest.raises(ValueError, match="no such stare-down"):
        thin.mix_at(fatigue=(0, 3))
    with pytest.raises(ValueError, match="no such stare-down"):
        thin.value_at(fatigue=(0, 1), relieved=True)       # a reliever is never above row 1
    with pytest.raises(ValueError, match="rows"):
        start_state(thin.duel, 0, fatigue=(0, 0), relieved=True)
    with pytest.raises(ValueError, match="unknown side"):
        evaluate(thin, pitcher="nobody")
    with pytest.raises(ValueError, match="seat"):
        evaluate(thin, pitcher="equilibrium", batter=eq_pitcher_table)
    with pytest.raises(TypeError):
        solve(thin.duel, cards=BLANK)
    with pytest.raises(TypeError):
        EquilibriumAgent(solution="not a solution")


# -- the command line -----------------------------------------------------------------------------------
def test_cli_loads_and_reports(blank, tmp_path, capsys):
    from dugout.agents.solvers.bottom_ninth.cli import main
    cards = tmp_path / "blank.json"
    cards.write_text(json.dumps(BLANK))
    saved, again = tmp_path / "blank.npz", tmp_path / "again.npz"
    blank.save(saved)
    out = main(["--away", "bs,br", "--home", ",".join(f"bb{i}" for i in range(6)),
                "--env-option", f"cards={cards}", "--env-option", "fatigue_rows=3",
                "--load", str(saved), "--save", str(again), "--agents"])
    assert out.game_value == blank.game_value
    text = capsys.readouterr().out
    assert f"{blank.game_value:.6f}" in text
    np.testing.assert_array_equal(Solution.load(again, blank.duel).values, blank.values)
    with pytest.raises(SystemExit):                          # a solution of another duel
        main(["--away", "bs,br", "--home", ",".join(f"bb{i}" for i in range(6)),
              "--env-option", f"cards={cards}", "--env-option", "fatigue_rows=4",
              "--load", str(saved), "--agents"])
    assert f"--load {saved}: {saved}: solved for" in capsys.readouterr().err


@pytest.mark.parametrize("meta, says", [
    ({"env_id": "thats_baseball_v0", "obs_size": 10, "n_actions": 5}, "trained on thats_baseball_v0"),
    (None, "expected a folder with meta.json"),
])
def test_cli_checks_each_manager_before_the_solve(tmp_path, monkeypatch, capsys, meta, says):
    """A checkpoint of another env (or none at all) once failed only after the whole solve:
    each manager is checked first, and nothing is solved or written."""
    from dugout.agents.solvers.bottom_ninth import cli
    monkeypatch.setattr(cli, "solve", lambda duel: pytest.fail("solved before checking --agents"))
    run = tmp_path / "run"
    run.mkdir()
    if meta is not None:
        (run / "meta.json").write_text(json.dumps({**meta, "net_arch": [], "activation": "Tanh"}))
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--agents", "random", f"ppo:{run}", "--save", str(tmp_path / "new" / "s.npz")])
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and len(err) == 1
    assert err[0].startswith("dugout solve bottom_ninth: error: --agents") and says in err[0]
    assert not (tmp_path / "new").exists()                   # --save's folder is made by the run


def test_solve_games_near_ties():
    """Games within rounding of a pure saddle point (what a fixed point stopped at 1e-13
    hands over): solved, and neither side gains more than rounding by a deviation."""
    rng = np.random.default_rng(7)
    for noise in (5e-16, 2e-15, 1e-13, 2e-12):
        a = rng.integers(0, 5, (4000, 4, 4)) * 0.25 + rng.integers(-2, 3, (4000, 4, 4)) * noise
        legal = rng.random((4000, 4)) < 0.7
        legal[~legal.any(axis=1), 0] = True
        v, x, y = solve_games(a, legal)
        assert (x[~legal] == 0).all()
        assert np.abs(np.einsum("np,npg->ng", x, a).max(axis=1) - v).max() < 1e-11
        assert np.abs(np.where(legal, np.einsum("npg,ng->np", a, y), np.inf).min(axis=1) - v).max() < 1e-11


def test_policy_tables_ask_with_the_views_of_play(thin, thin_duel):
    """Every stare-down, relief and pitching-change decision met in play shows the same
    observation and mask as the one the policy table sets up for its state (the finished
    pitch is cleared between batters, so nothing of it is left to differ)."""
    from dugout.agents.solvers.bottom_ninth.policy import _place, _table_state, _to_guess
    from dugout.envs.bottom_ninth.env import encode_view
    table = _table_state(thin_duel)
    seen = {"pitch": 0, "guess": 0, "relief": 0, "pitching_change": 0}
    for seed in range(40):
        state = start_state(thin_duel, seed)
        rng = np.random.default_rng(seed)
        while not state.board.over:
            d = state.pending
            if d.kind in seen:
                pit = int(state.pitcher != thin_duel.staff[0])
                bases = sum(1 << i for i in range(3) if state.board.bases[i] is not None)
                where = (pit, state.order[1], state.board.outs, bases, state.balls, state.strikes,
                         *state.fatigue)
                _place(table, thin_duel, *where)
                if d.kind == "relief":
                    rules.clean_up(table)
                elif d.kind == "pitching_change":
                    rules.offer_pitching_change(table)
                elif d.kind == "guess":
                    _to_guess(table)
                else:
                    rules.stare_down(table)
                assert table.pending == d, (d, table.pending)
                np.testing.assert_array_equal(encode_view(view_of(table, d.actor)),
                                              encode_view(view_of(state, d.actor)))
                seen[d.kind] += 1
            rules.apply_action(state, int(rng.choice(d.legal)))
    assert min(seen.values()) > 0, seen


# -- the search manager, asked where duels go (tests/test_search_exact.py: That's Baseball) ------
def _search_exploitability(blank, agent=None):
    from dugout.agents.solvers.bottom_ninth.reached import reached_states, reached_table
    agent = agent or make_agent("bottom_ninth_v0", "search:sims=2,batch=2", 0)
    heuristic = make_agent("bottom_ninth_v0", "heuristic")
    tables, counts = [], []
    for seat in (0, 1):
        reached = reached_states(blank, seat, games=3, holdout=2)
        tables.append(reached_table(agent, blank, policy_table(heuristic, blank, seat), reached))
        counts.append(reached.count)
    return tables, counts, exploitability(blank, tables=tuple(tables))


def test_a_tiny_search_is_evaluated_where_duels_go_the_same_twice(blank):
    agent = make_agent("bottom_ninth_v0", "search:sims=2,batch=2", 0)
    first_tables, counts, first = _search_exploitability(blank, agent)
    assert agent.setup == {"mode": "duel", "teams": "given", "draft": False, "extra_innings": False,
                           "support": False, "dealt": False}
    for table, count in zip(first_tables, counts):
        assert 0 < table.queries <= count                # a forced pitch is not asked
    second_tables, _, second = _search_exploitability(blank)
    for a, b in zip(first_tables, second_tables):
        np.testing.assert_array_equal(a.stare_down, b.stare_down)
    assert dataclasses.astuple(first) == dataclasses.astuple(second)
    assert first.as_pitcher >= -1e-12 and first.as_batter >= -1e-12


def test_where_of_files_each_view_where_the_table_does(blank):
    from dugout.agents.solvers.bottom_ninth.policy import where_of
    seen = []

    class First:
        name, needs_view = "first", True

        def reset(self, seed=None):
            pass

        def act(self, observation, view):
            seen.append((view.decision, where_of(blank, view)))
            return view.legal[0]

    table = policy_table(First(), blank, 0)
    stares = [i for kind, (what, i) in seen if kind == "pitch"]
    assert len(set(stares)) == len(stares)               # one view per state
    for i in stares:
        assert table.stare_down[i].max() == 1.0
