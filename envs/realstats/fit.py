"""Fitting MLB Showdown cards to real per-plate-appearance rates.

The whole method is in ``METHOD.md`` beside this file; in short:

* A plate appearance ends in one of seven **outcomes**: ``BB`` (walks and hit-by-pitch),
  ``1B``, ``2B``, ``3B``, ``HR``, ``SO`` and ``OUT`` (every other out). Card results
  map onto them: PU, GB and FB are ``OUT``, 1B and 1B+ are ``1B``.
* Under the rulebook's pitch and swing, a batter with On-Base ``ob`` facing a pitcher
  with Control ``c`` reads the pitcher's chart with probability
  ``a = P(d20 + c > ob) = clip((20 + c - ob) / 20, 0, 1)`` and his own chart otherwise,
  so his expected outcome rates are ``a * pitcher_chart + (1 - a) * batter_chart``
  (each chart as counts / 20).
* Each season has a **league-average opponent**: a pitcher of Control 3 and a batter of
  On-Base 10 (so the pitcher has the advantage 13 times in 20), with fractional charts
  chosen so that the two together reproduce the league's own rates. Their charts split
  the league's rates as real cards do: the pitcher's chart puts 4.5 of its 20 slots on
  reaching base (walks, singles, doubles and homers in the league's proportions; no
  triples, which a pitcher's chart cannot show), 40% of the strikeouts are his, and the
  batter's chart carries the rest (see :func:`league_opponent`).
* A hitter's card is fitted against the league-average pitcher, a pitcher's card against
  the league-average batter: the chart counts solve ``a * opp + (1 - a) * own = rates``,
  rounded to whole slots that sum to 20 with the smallest largest error. On-Base
  (Control) is the value that keeps the card's chart as on-base-heavy (out-heavy) as the
  league-average card's, moved by at most three if that makes the rounding error smaller
  (METHOD.md gives the exact rule). Control stays within the card format's -5 to 20.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..core.dice import chance_d20_beats

__all__ = ["OUTCOMES", "ON_BASE_OUTCOMES", "LeagueOpponent", "FitResult", "league_opponent",
           "fit_hitter", "fit_pitcher", "advantage", "expected_rates", "round_to_slots",
           "AVERAGE_CONTROL", "AVERAGE_ON_BASE", "PITCHER_ON_BASE_SLOTS", "PITCHER_SO_SHARE",
           "SLOTS", "raise_on_base"]

OUTCOMES = ("BB", "1B", "2B", "3B", "HR", "SO", "OUT")
ON_BASE_OUTCOMES = ("BB", "1B", "2B", "3B", "HR")
SLOTS = 20
#: The league-average opponent's numbers (see the module docstring).
AVERAGE_CONTROL = 3
AVERAGE_ON_BASE = 10
PITCHER_ON_BASE_SLOTS = 4.5
PITCHER_SO_SHARE = 0.4
#: The Controls a card can print (the card format's range).
CONTROL_RANGE = (-5, 20)
#: How far On-Base / Control may move from its natural value to round better.
SEARCH = 3
#: A fit this close is good enough; among such values the natural one wins. A pitcher's
#: chart is read more often than a hitter's, so its slots are coarser and its bar higher.
GOOD_ENOUGH = 0.009
PITCHER_GOOD_ENOUGH = 0.015


def advantage(on_base: int, control: int) -> float:
    """P(pitcher has the advantage) = P(d20 + control > on_base), d20 uniform on 1..20
    (On-Base and Control are whole numbers, as cards print them)."""
    return chance_d20_beats(control, on_base)


def _check_rates(rates: Mapping[str, float], what: str) -> dict[str, float]:
    missing = [o for o in OUTCOMES if o not in rates]
    if missing:
        raise ValueError(f"{what}: missing outcome rate(s) {missing}")
    out = {o: float(rates[o]) for o in OUTCOMES}
    if any(v < 0 or not math.isfinite(v) for v in out.values()):
        raise ValueError(f"{what}: rates must be finite and non-negative, got {out}")
    total = sum(out.values())
    if abs(total - 1) > 1e-6:
        raise ValueError(f"{what}: rates must sum to 1, got {total:.6f}")
    return out


@dataclass(frozen=True)
class LeagueOpponent:
    """The league-average pitcher and batter of one league-season (charts as probabilities)."""

    rates: dict[str, float]
    pitcher_chart: dict[str, float]
    batter_chart: dict[str, float]
    control: int = AVERAGE_CONTROL
    on_base: int = AVERAGE_ON_BASE

    @property
    def advantage(self) -> float:
        return advantage(self.on_base, self.control)


def league_opponent(rates: Mapping[str, float]) -> LeagueOpponent:
    """Split a league's outcome rates into the league-average pitcher and batter charts.

    With ``a`` the average pitcher's advantage, outcome ``r`` comes ``w_r`` from the
    pitcher's chart and ``1 - w_r`` from the batter's: ``a * P_r = w_r * L_r`` and
    ``(1 - a) * B_r = (1 - w_r) * L_r``. Walks, singles, doubles and homers share one
    weight, set so the pitcher's chart has PITCHER_ON_BASE_SLOTS on-base slots; triples
    are all the batter's (a pitcher's chart has none); strikeouts are PITCHER_SO_SHARE the
    pitcher's, so contact hitters and contact pitchers both stay within reach; the other
    outs fill the rest of the pitcher's chart.
    """
    rates = _check_rates(rates, "league rates")
    a = advantage(AVERAGE_ON_BASE, AVERAGE_CONTROL)
    reach = sum(rates[o] for o in ("BB", "1B", "2B", "HR"))
    if reach <= 0 or rates["OUT"] <= 0:
        raise ValueError(f"league rates {rates} have nobody reaching base or no outs in play")
    weight = {o: a * (PITCHER_ON_BASE_SLOTS / SLOTS) / reach for o in ("BB", "1B", "2B", "HR")}
    weight["3B"] = 0.0
    weight["SO"] = PITCHER_SO_SHARE
    used = sum(weight[o] * rates[o] for o in weight)
    weight["OUT"] = (a - used) / rates["OUT"]
    if not all(0 <= w <= 1 for w in weight.values()):
        raise ValueError(f"league rates {rates} cannot be split into average cards "
                         f"(pitcher's shares {weight})")
    pitcher = {o: weight[o] * rates[o] / a for o in OUTCOMES}
    batter = {o: (1 - weight[o]) * rates[o] / (1 - a) for o in OUTCOMES}
    return LeagueOpponent(rates=rates, pitcher_chart=pitcher, batter_chart=batter)


def round_to_slots(exact: Sequence[float], total: int = SLOTS) -> list[int]:
    """Whole non-negative counts summing to ``total`` with the smallest largest |n - x|.

    Greedy from the nearest integers; each step moves the count that is furthest off in
    the needed direction, which is optimal for this separable min-max problem.
    """
    counts = [max(0, int(round(x))) for x in exact]
    while sum(counts) > total:
        i = max((i for i, n in enumerate(counts) if n > 0), key=lambda i: counts[i] - exact[i])
        counts[i] -= 1
    while sum(counts) < total:
        i = min(range(len(counts)), key=lambda i: counts[i] - exact[i])
        counts[i] += 1
    return counts


@dataclass(frozen=True)
class FitResult:
    """A fitted card's number (On-Base or Control), chart counts per outcome, and its error."""

    value: int            # On-Base for a hitter, Control for a pitcher
    natural: float        # the value before rounding (see the module docstring)
    counts: dict[str, int]
    fitted: dict[str, float]
    target: dict[str, float]

    @property
    def errors(self) -> dict[str, float]:
        return {o: self.fitted[o] - self.target[o] for o in OUTCOMES}

    @property
    def max_error(self) -> float:
        return max(abs(e) for e in self.errors.values())


def expected_rates(own: Mapping[str, float], opponent: Mapping[str, float],
                   own_advantage: float) -> dict[str, float]:
    """Outcome rates when ``own`` chart is read with probability ``own_advantage``."""
    return {o: own_advantage * own.get(o, 0.0) + (1 - own_advantage) * opponent.get(o, 0.0)
            for o in OUTCOMES}


def _best(candidates: list[FitResult], natural: float, good_enough: float, *,
          widen: bool) -> FitResult:
    """The value nearest its natural one among good-enough fits within SEARCH of it; when
    none is good enough, the smallest error within SEARCH (or, with ``widen``, over every
    value the dice allow)."""
    near = [c for c in candidates if abs(c.value - natural) <= SEARCH + 0.5]
    good = [c for c in near if c.max_error <= good_enough]
    if good:
        return min(good, key=lambda c: (abs(c.value - natural), c.max_error))
    pool = candidates if widen or not near else near
    return min(pool, key=lambda c: (round(c.max_error, 6), abs(c.value - natural)))


def fit_hitter(rates: Mapping[str, float], league: LeagueOpponent) -> FitResult:
    """On-Base and chart counts (per outcome) for a hitter with these per-PA rates."""
    target = _check_rates(rates, "hitter rates")
    p = league.pitcher_chart
    onbase = sum(target[o] for o in ON_BASE_OUTCOMES)
    p_onbase = sum(p[o] for o in ON_BASE_OUTCOMES)
    b_onbase = sum(league.batter_chart[o] for o in ON_BASE_OUTCOMES)
    own_share = (onbase - p_onbase) / (b_onbase - p_onbase)  # 1 - a at the natural On-Base
    natural = league.control + SLOTS * own_share
    candidates = []
    for ob in range(league.control + 1, league.control + SLOTS + 1):
        own = 1 - advantage(ob, league.control)
        exact = [SLOTS * (target[o] - (1 - own) * p[o]) / own for o in OUTCOMES]
        counts = dict(zip(OUTCOMES, round_to_slots(exact)))
        fitted = expected_rates({o: n / SLOTS for o, n in counts.items()}, p, own)
        candidates.append(FitResult(ob, natural, counts, fitted, target))
    return _best(candidates, natural, GOOD_ENOUGH, widen=True)


def fit_pitcher(rates: Mapping[str, float], league: LeagueOpponent) -> FitResult:
    """Control and chart counts (per outcome, no triples) for a pitcher with these rates.

    A pitcher's chart has no triple, so triples come only from the batter's chart; the
    doubles slot takes the pitcher's doubles and triples beyond those the league-average
    batter's chart already gives.
    """
    target = _check_rates(rates, "pitcher rates")
    b = league.batter_chart
    onbase = sum(target[o] for o in ON_BASE_OUTCOMES)
    p_onbase = sum(league.pitcher_chart[o] for o in ON_BASE_OUTCOMES)
    b_onbase = sum(b[o] for o in ON_BASE_OUTCOMES)
    batter_share = (onbase - p_onbase) / (b_onbase - p_onbase)
    natural = league.on_base - SLOTS + SLOTS * (1 - batter_share)
    outcomes = ("BB", "1B", "2B", "HR", "SO", "OUT")
    candidates = []
    for control in range(max(CONTROL_RANGE[0], league.on_base - SLOTS),
                         min(CONTROL_RANGE[1], league.on_base) + 1):
        own = advantage(league.on_base, control)
        if own <= 0:
            continue
        want = dict(target)
        want["2B"] = target["2B"] + target["3B"] - (1 - own) * b["3B"]
        exact = [SLOTS * (want[o] - (1 - own) * b[o]) / own for o in outcomes]
        counts = dict(zip(outcomes, round_to_slots(exact)))
        counts["3B"] = 0
        counts = {o: counts[o] for o in OUTCOMES}
        fitted = expected_rates({o: n / SLOTS for o, n in counts.items()}, b, own)
        candidates.append(FitResult(control, natural, counts, fitted, target))
    return _best(candidates, natural, PITCHER_GOOD_ENOUGH, widen=False)


def raise_on_base(rates: Mapping[str, float], boost: float) -> dict[str, float]:
    """The runs fit's change to a hitter's rates (METHOD.md, "The runs fit"): every on-base
    outcome times ``1 + boost``, the strikeouts and other outs scaled by one factor so the
    rates still sum to 1. The player's profile (walks against hits, singles against power,
    strikeouts against balls in play) is kept; only how often he reaches base moves."""
    target = _check_rates(rates, "hitter rates")
    if isinstance(boost, bool) or not isinstance(boost, (int, float)):
        raise ValueError(f"boost must be a number, got {boost!r}")
    if not math.isfinite(boost) or boost <= -1:
        raise ValueError(f"boost must be a finite number above -1, got {boost!r}")
    onbase = sum(target[o] for o in ON_BASE_OUTCOMES)
    outs = 1 - onbase
    if boost * onbase >= outs:
        raise ValueError(f"a boost of {boost:+.4f} would take an on-base rate of {onbase:.3f} to "
                         f"{onbase * (1 + boost):.3f}, leaving no outs")
    scale_outs = (outs - boost * onbase) / outs if outs > 0 else 1.0
    return {o: target[o] * ((1 + boost) if o in ON_BASE_OUTCOMES else scale_outs)
            for o in OUTCOMES}
