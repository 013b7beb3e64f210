"""Building an MLB Showdown team and a strategy deck: legal by the loaders' own checks.

The rulebook's "Building Your Own Team" says what a team must be (25 players, at least 9
fielders and other hitters, a starting lineup that fills every fielding position, exactly 4
starters, nobody twice, a full-cost designated hitter, 5,000 points or less with backups at
one fifth), and "Strategy Cards" 1 what a deck must be (60 cards, no more than 4 with the
same name). It leaves the choosing to the player. This module chooses::

    from dugout.envs.showdown.build import build_team, build_deck
    team = build_team(2004, seed=3)            # a dict, as a team file holds it
    deck = build_deck(seed=3)                  # {"name": ..., "cards": {name: copies}}
    env = make("showdown_v0", level="expert", teams=(team, "bos2004"), decks=(deck, "default"))

Both return the data the ``teams`` and ``decks`` options (and the loaders,
:func:`~dugout.envs.showdown.cards.load_team`, :func:`~dugout.envs.showdown.strategy.load_deck`)
take, after passing it through those loaders: a built team or deck is legal because the
loader that checks every file said so, not because this module restates the rules. A request
that cannot be met raises :class:`~dugout.envs.core.errors.DataError` (the cards cannot make
a legal team or deck: too few starters, nobody at a position, a cap below the cheapest
roster, too few strategy cards) or :class:`~dugout.envs.core.errors.OptionError` (an
argument of the wrong kind, an unknown season or strategy), each naming what was wrong.

**The team** (``strategy="balanced"``) is a knapsack: every card gets a value in the place
it would fill, every card its cost (its points, one fifth for a backup), and the builder
finds the roster worth the most within the cap. The roster's shape is a real team's, as the
built-in teams have it: 13 hitters (a starting nine, the four others on the bench as
backups), 4 starters, a closer and 7 relievers (``hitters=`` and ``closers=`` change it; a
closer may fill a reliever's place). The values are the builder's model, not the rulebook's.
A card's worth, in points, is its printed points (a season's runs above replacement on the
cards' own scale) plus half an estimate of the same from its card against the pool:

* a swing's result is worth its linear weight in runs (``dugout.envs.realstats.build``'s
  weights; 1B+ a tenth of a run more than 1B for its free steal);
* a hitter's plate appearance is the d20 pitch against every pitcher of the pool (weighted
  by IP): his chart read on ``clamp(On-Base - Control, 0, 20)`` rolls of 20, the pitcher's
  on the rest, over a season of 650; a pitcher's batter faced is the same against every
  hitter of the pool, over 32 starts of his IP, against a replacement 0.025 runs a batter
  worse than the pool's average pitcher; a starting fielder adds 2 runs a point of Fielding
  at his spot (1 for a catcher's Arm);
* then the place's share of a season's play: the starting nine and the rotation all of it,
  the closer half, a reliever a quarter, a bench hitter a tenth. So the points go to the
  players who play, and the bullpen and bench are cheap.

The search is Lagrangian: for a price ``lam`` on a point, each part of the roster takes the
cards with the most ``value - lam * cost`` (the starting nine as an exact assignment of
hitters to the nine spots, C to DH), and ``lam`` is the smallest that fits the cap; then the
points left over buy the best single upgrades that still fit, one at a time. The rotation
is in point order, the highest first (the rulebook's "tournament style" rotation); the
batting orders follow "Creating a Team Batting Order" (``cards.batting_order``),
the pitcher batting ninth without the DH.

``seed`` adds variety: each card's value moves by a normal draw of ``variety`` times the
spread of values in its role, so different seeds give different sensible teams and one seed
always the same team; ``seed=None`` is no noise, the one best team. ``strategy="random"``
gives every card a random value instead: a random legal roster of the same shape under the
same cap (the baseline a built team should beat).

**The deck** (``strategy="balanced"``) takes copies of the card set's cards by a score, the
chance the card can be played (its conditions: the results, runners, outs, innings it
needs) times what it does (a rough value in runs of each effect), each further copy of a
name worth 0.7 of the one before ("You can't play 2 strategy cards with the same name in the
same at-bat"), up to 4. The colours are balanced: as many offense (red) as defense (blue)
cards, a fifth utility, since a red card is played only at bat and a blue one only in the
field (``"offense"`` and ``"defense"`` lean 3 to 1 the other way; a colour the set is short
of leaves its share to the others). ``seed`` moves the scores as for teams;
``strategy="random"`` is a random legal deck. The loader checks no colour balance, so
neither is a rule: a deck of one colour is legal.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ..core.errors import DataError, OptionError, as_int, show
from .cards import (FIELD_POSITIONS, POINT_CAP, ROSTER_SIZE, Card, HitterCard, PitcherCard, Team,
                    batting_order, builtin_team_names, card_to_dict, load_cards, load_team,
                    team_from_dict)
from .strategy import (COLORS, DECK_SIZE, MAX_COPIES, CardSet, StrategyCard, deck_from_dict,
                       load_card_set)

__all__ = ["build_team", "build_deck", "season_cards", "builtin_seasons", "team_cost",
           "TEAM_STRATEGIES", "DECK_STRATEGIES", "LINEUP_SPOTS"]

TEAM_STRATEGIES = ("balanced", "random")
DECK_STRATEGIES = ("balanced", "offense", "defense", "random")
#: The starting nine's spots: the eight fielding positions and the designated hitter.
LINEUP_SPOTS = FIELD_POSITIONS + ("DH",)

# -- the team's value model (points; see the module docstring) ---------------------------
_WEIGHTS = {"PU": -0.26, "SO": -0.28, "GB": -0.26, "FB": -0.26, "BB": 0.32, "1B": 0.47,
            "1B+": 0.57, "2B": 0.77, "3B": 1.04, "HR": 1.40}
#: how much of a full season's play each place on the roster sees, for a card's points
_PLAYS = {"lineup": 1.0, "starter": 1.0, "closer": 0.5, "reliever": 0.25, "bench": 0.1}
#: the share of a card's value that is its own matchup estimate (the rest: its points)
_MATCHUP_WEIGHT = 0.5
#: realstats' scale: points a run above replacement over a season
_POINTS_PER_RUN = 6.85
_SEASON_PA = 650
_STARTS = 32
_BATTERS_PER_INNING = 4.3
_REPLACEMENT_MARGIN = 0.025
#: runs a season per point of Fielding at the position played (half for a catcher's Arm)
_FIELDING_RUNS_SEASON = 2.0
#: a backup's share of his points ("one-fifth of his normal point value")
_BACKUP_SHARE = 0.2
#: a price of a point at which only the cost counts (values are a few runs, costs hundreds)
_CHEAPEST = 1e4


# ================================================================ the cards to build from

def builtin_seasons() -> dict[int, list[str]]:
    """The seasons of the built-in teams: season -> its team names (``bos2004``, ...)."""
    out: dict[int, list[str]] = {}
    for name in builtin_team_names():
        season = load_team(name, point_cap=None).season
        if season is not None:
            out.setdefault(season, []).append(name)
    return dict(sorted(out.items()))


def season_cards(season: int) -> tuple[Card, ...]:
    """Every card of a season's built-in teams, each player once (by his card's ``id``; a
    player traded during the season keeps his first team's card, in team-name order) and
    each name once (two players of one name would be ambiguous in a batting order)."""
    seasons = builtin_seasons()
    year = as_int(season)
    if year is None or isinstance(season, bool):
        raise OptionError(f"build_team: a season must be a whole number, got {show(season)}")
    if year not in seasons:
        raise OptionError(f"build_team: no built-in cards for season {year}; the seasons are "
                          f"{', '.join(map(str, seasons))} (or give a card collection)")
    cards: list[Card] = []
    for name in seasons[year]:
        cards += load_team(name, point_cap=None).players
    return _distinct(cards)


def _distinct(cards: Iterable[Card]) -> tuple[Card, ...]:
    seen_keys: set[str] = set()
    seen_names: set[str] = set()
    out = []
    for c in cards:
        if c.key in seen_keys or c.name in seen_names:
            continue
        seen_keys.add(c.key)
        seen_names.add(c.name)
        out.append(c)
    return tuple(out)


def _pool(season_or_cards: Any) -> tuple[tuple[Card, ...], int | None, str]:
    """The cards to build from, the season (if one) and how to name the source."""
    if isinstance(season_or_cards, bool):
        raise OptionError(f"build_team: give a season or a card collection, got {show(season_or_cards)}")
    if as_int(season_or_cards) is not None:
        year = int(season_or_cards)
        return season_cards(year), year, f"the built-in {year} cards"
    if isinstance(season_or_cards, Team):
        return _distinct(season_or_cards.players), season_or_cards.season, season_or_cards.name
    if isinstance(season_or_cards, (list, tuple)) and season_or_cards and all(
            isinstance(c, (HitterCard, PitcherCard)) for c in season_or_cards):
        return _distinct(season_or_cards), None, "the cards given"
    if isinstance(season_or_cards, (str, os.PathLike, list, dict)):
        source = os.fsdecode(season_or_cards) if isinstance(season_or_cards, (str, os.PathLike)) \
            else "the cards given"
        return _distinct(load_cards(season_or_cards)), None, source
    raise OptionError(f"build_team: give a season (2004), a card file, a list of cards or a Team, "
                      f"got {type(season_or_cards).__name__}")


# ================================================================ values

def _chart_value(card: Card) -> float:
    return sum(_WEIGHTS[r] * n for r, n in card.chart.as_dict().items()) / 20


def _matchups(hitters: Sequence[HitterCard], pitchers: Sequence[PitcherCard]
              ) -> tuple[np.ndarray, np.ndarray]:
    """Runs per plate appearance of each hitter against the pool's pitchers (by IP), and
    runs per batter each pitcher allows against the pool's hitters."""
    ob = np.array([h.on_base for h in hitters], dtype=float)[:, None]
    control = np.array([p.control for p in pitchers], dtype=float)[None, :]
    batter_chart = np.clip(ob - control, 0, 20) / 20        # the rolls the batter's chart gets
    hv = np.array([_chart_value(h) for h in hitters])[:, None]
    pv = np.array([_chart_value(p) for p in pitchers])[None, :]
    runs = batter_chart * hv + (1 - batter_chart) * pv
    ip = np.array([max(p.ip, 1) for p in pitchers], dtype=float)
    return runs @ (ip / ip.sum()), runs.mean(axis=0)


@dataclass
class _Values:
    lineup: dict[tuple[int, str], float]      # (hitter index, spot) -> value (points)
    bench: list[float]                        # hitter index -> value on the bench
    pitcher: list[float]                      # pitcher index -> value in his role


def _values(hitters: Sequence[HitterCard], pitchers: Sequence[PitcherCard], strategy: str,
            seed: int | None, variety: float) -> _Values:
    per_pa, allowed = _matchups(hitters, pitchers)
    replacement = float(np.average(allowed, weights=[max(p.ip, 1) for p in pitchers])) \
        + _REPLACEMENT_MARGIN
    lineup: dict[tuple[int, str], float] = {}
    for i, h in enumerate(hitters):
        bat = _PLAYS["lineup"] * (h.points + _MATCHUP_WEIGHT * _POINTS_PER_RUN * _SEASON_PA * per_pa[i])
        for spot in LINEUP_SPOTS:
            f = 0 if spot == "DH" else h.fielding(spot)
            if f is not None:
                lineup[i, spot] = bat + _POINTS_PER_RUN * _FIELDING_RUNS_SEASON * f * (
                    0.5 if spot == "C" else 1)
    bench = [_PLAYS["bench"] * (h.points + _MATCHUP_WEIGHT * _POINTS_PER_RUN * _SEASON_PA * per_pa[i])
             for i, h in enumerate(hitters)]
    pitcher = []
    for j, p in enumerate(pitchers):
        saved = _POINTS_PER_RUN * _BATTERS_PER_INNING * min(p.ip, 9) * _STARTS * (replacement - allowed[j])
        pitcher.append(_PLAYS[p.role] * (p.points + _MATCHUP_WEIGHT * saved))
    if strategy == "random":
        rng = np.random.default_rng(seed)
        hit, pit = rng.random(len(hitters)), rng.random(len(pitchers))
        lineup = {(i, s): float(hit[i]) for (i, s) in lineup}
        bench = [0.1 * float(x) for x in hit]
        pitcher = [float(x) for x in pit]
    elif seed is not None and variety > 0:
        rng = np.random.default_rng(seed)
        hit, pit = rng.standard_normal(len(hitters)), rng.standard_normal(len(pitchers))
        spread_h = float(np.std([lineup[k] for k in lineup])) * variety
        spread_p = float(np.std(pitcher)) * variety
        lineup = {(i, s): v + spread_h * hit[i] for (i, s), v in lineup.items()}
        bench = [v + _PLAYS["bench"] * spread_h * hit[i] for i, v in enumerate(bench)]
        pitcher = [v + spread_p * pit[j] for j, v in enumerate(pitcher)]
    return _Values(lineup, bench, [float(v) for v in pitcher])


# ================================================================ the assignment

def _hungarian(score: list[list[float]]) -> list[int] | None:
    """Rows (the nine spots) to distinct columns (hitters) with the most total ``score``
    (None where a hitter cannot play a spot); None when no assignment fills every row.
    The classic O(rows^2 * columns) Hungarian method on costs."""
    n, m = len(score), len(score[0]) if score else 0
    if m < n:
        return None
    big = 1e12                      # no edge: far above any real cost (|score| < 1e9)
    cost = [[big if s is None else -s for s in row] for row in score]
    u, v = [0.0] * (n + 1), [0.0] * (m + 1)
    p, way = [0] * (m + 1), [0] * (m + 1)
    for i in range(1, n + 1):
        p[0], j0 = i, 0
        minv, used = [math.inf] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], math.inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    rows = [0] * n
    for j in range(1, m + 1):
        if p[j]:
            rows[p[j] - 1] = j - 1
    if any(cost[r][rows[r]] >= big / 2 for r in range(n)):
        return None
    return rows


# ================================================================ the knapsack

@dataclass
class _Roster:
    lineup: dict[str, int]          # spot -> hitter index
    bench: list[int]                # hitter indices (backups)
    starters: list[int]             # pitcher indices
    closers: list[int]
    relievers: list[int]


class _Builder:
    """The roster of most value within the cap, for one set of values (module docstring)."""

    def __init__(self, hitters, pitchers, values: _Values, n_bench: int, n_closers: int,
                 n_relievers: int, backups: bool):
        self.h, self.p, self.val = hitters, pitchers, values
        self.n_bench, self.n_closers, self.n_relievers = n_bench, n_closers, n_relievers
        self.bench_share = _BACKUP_SHARE if backups else 1
        self.role = {r: [j for j, c in enumerate(pitchers) if c.role == r]
                     for r in ("starter", "closer", "reliever")}

    # the cost of each part
    def h_cost(self, i: int, bench: bool = False) -> float:
        return self.h[i].points * (self.bench_share if bench else 1)

    def total(self, r: _Roster) -> float:
        return (sum(self.h_cost(i) for i in r.lineup.values())
                + sum(self.h_cost(i, True) for i in r.bench)
                + sum(self.p[j].points for j in r.starters + r.closers + r.relievers))

    def value(self, r: _Roster) -> float:
        return (sum(self.val.lineup[i, s] for s, i in r.lineup.items())
                + sum(self.val.bench[i] for i in r.bench)
                + sum(self.val.pitcher[j] for j in r.starters + r.closers + r.relievers))

    # the best roster at a price lam for a point
    def _top(self, pool: Iterable[int], k: int, score) -> list[int]:
        return sorted(pool, key=lambda x: (-score(x), x))[:k]

    def at_price(self, lam: float) -> _Roster | None:
        lineup = self._lineup(lam)
        if lineup is None:
            return None
        taken = set(lineup.values())
        bench = self._top((i for i in range(len(self.h)) if i not in taken), self.n_bench,
                          lambda i: self.val.bench[i] - lam * self.h_cost(i, True))
        pscore = lambda j: self.val.pitcher[j] - lam * self.p[j].points  # noqa: E731
        starters = self._top(self.role["starter"], 4, pscore)
        closers = self._top(self.role["closer"], self.n_closers, pscore)
        pen = [j for j in self.role["reliever"] + self.role["closer"] if j not in closers]
        relievers = self._top(pen, self.n_relievers, pscore)
        return _Roster(lineup, sorted(bench), sorted(starters), sorted(closers), sorted(relievers))

    def _lineup(self, lam: float) -> dict[str, int] | None:
        # the candidates: the best dozen at each spot by value less price (an exact
        # assignment over them is the exact one over all, but for ties)
        cands: set[int] = set()
        for spot in LINEUP_SPOTS:
            at = [i for i in range(len(self.h)) if (i, spot) in self.val.lineup]
            cands.update(self._top(at, 12, lambda i: self.val.lineup[i, spot] - lam * self.h_cost(i)))
        cols = sorted(cands)
        score = [[None if (i, spot) not in self.val.lineup
                  else self.val.lineup[i, spot] - lam * self.h_cost(i) for i in cols]
                 for spot in LINEUP_SPOTS]
        rows = _hungarian(score)
        if rows is None:
            return None
        return {spot: cols[rows[k]] for k, spot in enumerate(LINEUP_SPOTS)}

    def best(self, cap: float) -> _Roster:
        free = self.at_price(0.0)
        if self.total(free) <= cap:
            return free
        lo, hi = 0.0, 1.0
        while self.total(self.at_price(hi)) > cap and hi < _CHEAPEST:
            hi *= 4
        for _ in range(40):
            mid = (lo + hi) / 2
            if self.total(self.at_price(mid)) > cap:
                lo = mid
            else:
                hi = mid
        return self.upgrade(self.at_price(hi), cap)

    # the points left over: the best single upgrades that fit, one at a time
    def upgrade(self, r: _Roster, cap: float) -> _Roster:
        for _ in range(200):
            left = cap - self.total(r)
            move = self._best_move(r, left)
            if move is None:
                return r
            r = move
        return r

    def _best_move(self, r: _Roster, left: float) -> _Roster | None:
        """The upgrade that fits in ``left`` points with the most value a point (one that
        saves points or costs none first, by value)."""
        used_h = set(r.lineup.values()) | set(r.bench)
        used_p = set(r.starters + r.closers + r.relievers)
        best, rank = None, (0, 0.0)

        def consider(move, gain: float, extra: float) -> None:
            nonlocal best, rank
            if gain <= 1e-9 or extra > left:
                return
            key = (1, gain) if extra <= 0 else (0, gain / extra)
            if key > rank:
                best, rank = move, key

        for spot, old in r.lineup.items():
            for i in range(len(self.h)):
                if i not in used_h and (i, spot) in self.val.lineup:
                    consider(("lineup", spot, i), self.val.lineup[i, spot] - self.val.lineup[old, spot],
                             self.h_cost(i) - self.h_cost(old))
        for k, old in enumerate(r.bench):
            for i in range(len(self.h)):
                if i not in used_h:
                    consider(("bench", k, i), self.val.bench[i] - self.val.bench[old],
                             self.h_cost(i, True) - self.h_cost(old, True))
        for part, pool in (("starters", self.role["starter"]), ("closers", self.role["closer"]),
                           ("relievers", self.role["reliever"] + self.role["closer"])):
            for k, old in enumerate(getattr(r, part)):
                for j in pool:
                    if j not in used_p:
                        consider((part, k, j), self.val.pitcher[j] - self.val.pitcher[old],
                                 self.p[j].points - self.p[old].points)
        if best is None:
            return None
        part, where, new = best
        out = _Roster(dict(r.lineup), list(r.bench), list(r.starters), list(r.closers),
                      list(r.relievers))
        if part == "lineup":
            out.lineup[where] = new
        else:
            getattr(out, part)[where] = new
        return out



# ================================================================ build_team

def _batting_orders(nine: list[tuple[str, HitterCard]]) -> dict[str, list[dict[str, str]]]:
    order = batting_order(nine, on_base=lambda x: x[1].on_base, speed=lambda x: x[1].speed,
                          power=lambda x: x[1].chart.count("HR"), value=lambda x: x[1].points)
    dh = [{"player": c.name, "position": pos} for pos, c in order]
    no_dh = [e for e in dh if e["position"] != "DH"] + [{"player": "P", "position": "P"}]
    return {"dh": dh, "no_dh": no_dh}


def _card_entry(card: Card, backup: bool) -> dict[str, Any]:
    d = card_to_dict(card)
    d.pop("fit", None)                  # the generator's record; the game ignores it
    if backup:
        d["backup"] = True
    return d


def _check_shape(hitters: Any, closers: Any) -> tuple[int, int]:
    h, c = as_int(hitters), as_int(closers)
    if h is None or isinstance(hitters, bool) or not 9 <= h <= ROSTER_SIZE - 4:
        raise OptionError(f"build_team: hitters must be a whole number from 9 (\"at least 9 "
                          f"fielders and other hitters\") to {ROSTER_SIZE - 4} (the rest are the 4 "
                          f"starters), got {show(hitters)}")
    if c is None or isinstance(closers, bool) or not 0 <= c <= ROSTER_SIZE - 4 - h:
        raise OptionError(f"build_team: closers must be a whole number from 0 to "
                          f"{ROSTER_SIZE - 4 - h} (the pitchers left after the 4 starters), "
                          f"got {show(closers)}")
    return h, c


def _check_seed(where: str, seed: Any) -> int | None:
    if seed is None:
        return None
    value = as_int(seed)
    if value is None or isinstance(seed, bool) or not 0 <= value < 2 ** 32:
        raise OptionError(f"{where}: seed must be None or a whole number from 0 to 2**32 - 1, "
                          f"got {show(seed)}")
    return value


def _check_short(hitters, pitchers, n_hitters: int, n_closers: int, n_relievers: int,
                 source: str) -> None:
    """Too few cards of a kind for the roster's shape: a DataError naming the kind."""
    need = {"hitters": (len(hitters), n_hitters),
            "starters": (sum(p.role == "starter" for p in pitchers), 4),
            "closers": (sum(p.role == "closer" for p in pitchers), n_closers),
            "relievers and closers": (sum(p.role != "starter" for p in pitchers),
                                      n_closers + n_relievers)}
    for kind, (have, want) in need.items():
        if have < want:
            raise DataError(f"build_team: {source} hold {have} {kind}; the team needs {want} "
                            f"(25 players: {n_hitters} hitters, 4 starters, {n_closers} closer(s), "
                            f"{n_relievers} relievers)")
    for spot in FIELD_POSITIONS:
        if not any(h.fielding(spot) is not None for h in hitters):
            raise DataError(f"build_team: nobody in {source} qualifies at {spot}; \"Your starting "
                            f"lineup fills all the fielding positions\"")


def team_cost(team: Mapping[str, Any] | Team) -> float:
    """A team's points as the loader counts them (backups at one fifth)."""
    loaded = team if isinstance(team, Team) else team_from_dict(team, "team", point_cap=None)
    return float(loaded.total_points)


def build_team(season_or_cards: Any = 2004, *, points: int = POINT_CAP, seed: int | None = None,
               strategy: str = "balanced", hitters: int = 13, closers: int = 1,
               backups: bool = True, dh: bool = True, name: str | None = None,
               variety: float = 0.25) -> dict[str, Any]:
    """A legal 25-player team from a season's cards (an int: the built-in teams of that
    season) or a card collection (a JSON path, a list of card dicts or cards, or a Team).

    ``points``: the cap the team must fit (the rulebook's 5,000; a team over 5,000 needs
    the env's ``point_cap`` to play). ``strategy``: ``"balanced"`` (the most value within
    the cap) or ``"random"`` (a random legal roster of the same shape). ``seed``: variety
    (see the module docstring); None is the single best team, or for ``"random"`` fresh
    randomness. ``hitters`` (9 to 21) and ``closers`` shape the roster: the starting nine
    and ``hitters - 9`` on the bench (backups at one fifth of their points when ``backups``),
    4 starters, ``closers`` closers and the rest relievers. ``dh``: whether the team plays
    AL rules at home (its league). ``variety``: how far a seed moves the values.

    Returns the team as a dict, the format of a team file and of the ``teams`` option,
    already loaded and checked by :func:`~dugout.envs.showdown.cards.team_from_dict` with
    ``point_cap=points``. Raises ``OptionError`` for a bad argument and ``DataError`` when
    the cards cannot make the team (too few of a kind, nobody at a position, a cap below
    the cheapest roster).
    """
    if strategy not in TEAM_STRATEGIES:
        raise OptionError(f"build_team: unknown strategy {show(strategy)}; use one of "
                          f"{', '.join(TEAM_STRATEGIES)}")
    cap = as_int(points)
    if cap is None or isinstance(points, bool) or cap < 0:
        raise OptionError(f"build_team: points must be a non-negative whole number (the point "
                          f"cap), got {show(points)}")
    seed = _check_seed("build_team", seed)
    n_hitters, n_closers = _check_shape(hitters, closers)
    if not isinstance(dh, bool) or not isinstance(backups, bool):
        raise OptionError(f"build_team: dh and backups must be True or False, got "
                          f"{show(dh)} and {show(backups)}")
    if not isinstance(variety, (int, float)) or isinstance(variety, bool) or not 0 <= variety <= 10:
        raise OptionError(f"build_team: variety must be a number from 0 to 10, got {show(variety)}")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise OptionError(f"build_team: name must be a non-empty string, got {show(name)}")
    cards, season, source = _pool(season_or_cards)
    hitter_cards = [c for c in cards if isinstance(c, HitterCard)]
    pitcher_cards = [c for c in cards if isinstance(c, PitcherCard)]
    n_relievers = ROSTER_SIZE - n_hitters - 4 - n_closers
    _check_short(hitter_cards, pitcher_cards, n_hitters, n_closers, n_relievers, source)
    if strategy == "random" and seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    values = _values(hitter_cards, pitcher_cards, strategy, seed, float(variety))
    builder = _Builder(hitter_cards, pitcher_cards, values, n_hitters - 9, n_closers, n_relievers,
                       backups)
    cheapest = builder.at_price(_CHEAPEST)
    if cheapest is None:
        raise DataError(f"build_team: the hitters in {source} cannot fill C, 1B, 2B, 3B, SS, LF, "
                        f"CF, RF and DH at once; \"Your starting lineup fills all the fielding "
                        f"positions\"")
    if builder.total(cheapest) > cap:
        raise DataError(f"build_team: no legal roster from {source} fits under {cap:,} points: the "
                        f"cheapest of this shape costs {builder.total(cheapest):,.1f} (backups at "
                        f"one fifth); \"Your players have a total point value of 5,000 or less\"")
    roster = builder.best(cap)
    data = _team_dict(roster, hitter_cards, pitcher_cards, season, source, strategy, seed, dh,
                      name, backups)
    team_from_dict(data, f"built team {data['name']!r}", point_cap=cap)   # the loader's checks
    return data


def _team_dict(r: _Roster, hitters, pitchers, season, source, strategy, seed, dh, name,
               backups: bool) -> dict[str, Any]:
    nine = [(spot, hitters[i]) for spot, i in r.lineup.items()]
    staff = [pitchers[j] for j in r.starters]
    rotation = sorted(staff, key=lambda c: (-c.points, c.name))   # "tournament style"
    players = [_card_entry(c, False) for _, c in nine]
    players += [_card_entry(hitters[i], backups) for i in r.bench]
    players += [_card_entry(c, False) for c in rotation]
    players += [_card_entry(pitchers[j], False) for j in r.closers + r.relievers]
    label = f"{season} " if season is not None else ""
    out: dict[str, Any] = {
        "name": name.strip() if name else f"Built {label}team ({strategy}"
                                           f"{'' if seed is None else f', seed {seed}'})",
        "league": "AL" if dh else "NL", "dh": dh,
        "notes": f"built by dugout.envs.showdown.build from {source} (strategy {strategy}, seed {seed})",
    }
    if season is not None:
        out["season"] = season
    out["lineups"] = _batting_orders(nine)
    out["rotation"] = [c.name for c in rotation]
    out["players"] = players
    return out


# ================================================================ build_deck

#: How often each result comes up, roughly (a d20 chart's share), for a card needing it.
_RESULT_SHARE = {"PU": 0.08, "SO": 0.2, "GB": 0.17, "FB": 0.17, "BB": 0.1, "1B": 0.18,
                 "1B+": 0.03, "2B": 0.05, "3B": 0.01, "HR": 0.03}
_RUNNER_SHARE = {"none": 0.45, "any": 0.55, "first": 0.3, "second": 0.2, "third": 0.12,
                 "scoring": 0.3, "second_open": 0.75, "third_open": 0.85}
_LETTER_SHARE = {"A": 0.2, "B": 0.45, "C": 0.35}
_ROLE_SHARE = {"starter": 0.7, "reliever": 0.2, "closer": 0.1}
_SCORE_SHARE = {"ahead": 0.4, "behind": 0.4, "tied": 0.2, "close": 0.45}
#: A rough value in runs of each effect (per unit of ``by``/``n``/``bases`` where it has one).
_EFFECT_RUNS = {"pitch": 0.04, "swing": 0.04, "edge": 0.04, "reroll_swing": 0.2, "result": 0.4,
                "advance": 0.2, "runner_out": 0.4, "steal": 0.15, "draw": 0.08, "discard": 0.06,
                "ip": 0.15, "throw_bonus": 0.01, "catcher_bonus": 0.01, "dp_bonus": 0.02,
                "no_double_play": 0.1, "hold_runners": 0.08}


def _playable(card: StrategyCard) -> float:
    """The rough chance a card's conditions hold when its owner might play it."""
    share = 1.0
    for key, want in card.requires:
        if key == "results":
            share *= min(1.0, sum(_RESULT_SHARE.get(r, 0.1) for r in want))
        elif key == "outs":
            share *= len(want) / 3
        elif key == "runners":
            share *= min(1.0, sum(_RUNNER_SHARE.get(r, 0.3) for r in want)) if not isinstance(
                want, str) else _RUNNER_SHARE.get(want, 0.3)
        elif key == "inning_from":
            share *= max(0.1, (10 - int(want)) / 9)
        elif key in ("batter_speed", "runner_speed"):
            share *= min(1.0, sum(_LETTER_SHARE.get(x, 0.3) for x in want)) if not isinstance(
                want, str) else _LETTER_SHARE.get(want, 0.3)
        elif key == "pitcher_role":
            share *= min(1.0, sum(_ROLE_SHARE.get(x, 0.3) for x in want)) if not isinstance(
                want, str) else _ROLE_SHARE.get(want, 0.3)
        elif key == "score":
            share *= _SCORE_SHARE.get(want, 0.4) if isinstance(want, str) else min(
                1.0, sum(_SCORE_SHARE.get(x, 0.4) for x in want))
        else:                           # chart, matchup, home: about half the time
            share *= 0.5
    return share


def _effect_runs(effects) -> float:
    total = 0.0
    for e in effects:
        unit = _EFFECT_RUNS.get(e.do, 0.05)
        if e.do == "check":
            total += 0.5 * _effect_runs(e.then)
        elif e.do in ("pitch", "swing", "edge", "ip", "throw_bonus", "catcher_bonus", "dp_bonus"):
            total += unit * abs(e.by)
        elif e.do in ("draw", "discard"):
            total += unit * e.n
        elif e.do == "advance":
            total += unit * max(e.bases, 1)
        else:
            total += unit
    return total


def _card_score(card: StrategyCard) -> float:
    runs = _effect_runs(card.effect) * (3 if card.lasts == "inning" else 1)
    runs += 0.3 * _effect_runs(card.icon_effect)
    return _playable(card) * runs + 1e-6


def _color_targets(strategy: str) -> dict[str, int]:
    share = {"balanced": (2, 2, 1), "offense": (3, 1, 1), "defense": (1, 3, 1)}[strategy]
    total = sum(share)
    counts = [DECK_SIZE * s // total for s in share]
    counts[0] += DECK_SIZE - sum(counts)
    return dict(zip(COLORS, counts))


def build_deck(cards: Any = None, *, seed: int | None = None, strategy: str = "balanced",
               name: str | None = None, variety: float = 0.25) -> dict[str, Any]:
    """A legal 60-card strategy deck from a card set (``cards``: None or ``"default"`` for
    dugout's own, a JSON path, a dict or a CardSet, as ``card_set`` takes).

    ``strategy``: ``"balanced"``, ``"offense"``, ``"defense"`` (the colours 2:2:1, 3:1:1,
    1:3:1 of offense, defense, utility, as far as the set allows) or ``"random"`` (a random
    legal deck). ``seed``: variety, as for :func:`build_team`. Returns ``{"name": ...,
    "cards": {card name: copies}}``, the ``decks`` option's format, already checked by the
    deck loader (:func:`~dugout.envs.showdown.strategy.deck_from_dict`: 60 cards, at most 4
    of a name). Raises ``DataError`` when the set has too few cards for 60 at 4 a name.
    """
    if strategy not in DECK_STRATEGIES:
        raise OptionError(f"build_deck: unknown strategy {show(strategy)}; use one of "
                          f"{', '.join(DECK_STRATEGIES)}")
    seed = _check_seed("build_deck", seed)
    if not isinstance(variety, (int, float)) or isinstance(variety, bool) or not 0 <= variety <= 10:
        raise OptionError(f"build_deck: variety must be a number from 0 to 10, got {show(variety)}")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise OptionError(f"build_deck: name must be a non-empty string, got {show(name)}")
    card_set: CardSet = load_card_set(cards)
    if len(card_set.cards) * MAX_COPIES < DECK_SIZE:
        raise DataError(f"build_deck: the card set {card_set.name!r} has {len(card_set.cards)} "
                        f"cards; at most {MAX_COPIES} of a name, a deck of {DECK_SIZE} needs at "
                        f"least {-(-DECK_SIZE // MAX_COPIES)} (\"you don't have more than 4 cards "
                        f"with the same name in your deck\")")
    if strategy == "random":
        copies = _random_copies(card_set, seed)
    else:
        copies = _scored_copies(card_set, strategy, seed, float(variety))
    label = name.strip() if name else (f"built {strategy}" + ("" if seed is None else f" {seed}"))
    data = {"name": label, "cards": {c.name: copies[c.name] for c in card_set.cards
                                     if copies.get(c.name)}}
    deck_from_dict(data, card_set, f"built deck {label!r}")        # the loader's checks
    return data


def _random_copies(card_set: CardSet, seed: int | None) -> dict[str, int]:
    rng = random.Random(seed)
    copies = {c.name: 0 for c in card_set.cards}
    for _ in range(DECK_SIZE):
        open_ = [n for n, k in copies.items() if k < MAX_COPIES]
        copies[rng.choice(open_)] += 1
    return copies


def _scored_copies(card_set: CardSet, strategy: str, seed: int | None, variety: float
                   ) -> dict[str, int]:
    rng = np.random.default_rng(seed) if seed is not None and variety > 0 else None
    score = {}
    for c in card_set.cards:
        s = _card_score(c)
        if rng is not None:
            s *= math.exp(variety * float(rng.standard_normal()))
        score[c.name] = s
    color = {c.name: c.color for c in card_set.cards}
    targets = _color_targets(strategy)
    # a colour the set cannot fill gives its share to the others, in order
    room = {k: MAX_COPIES * sum(1 for c in card_set.cards if c.color == k) for k in COLORS}
    spill = sum(max(0, targets[k] - room[k]) for k in COLORS)
    targets = {k: min(targets[k], room[k]) for k in COLORS}
    for k in sorted(COLORS, key=lambda k: -targets[k]):
        extra = min(spill, room[k] - targets[k])
        targets[k] += extra
        spill -= extra
    copies = {c.name: 0 for c in card_set.cards}
    for k in COLORS:
        names = [n for n in copies if color[n] == k]
        for _ in range(targets[k]):
            pick = max((n for n in names if copies[n] < MAX_COPIES),
                       key=lambda n: (score[n] * 0.7 ** copies[n], -card_set.index(n)))
            copies[pick] += 1
    return copies
