"""Turning a team-season into That's Baseball and MLB Showdown cards.

Every estimate is documented in ``METHOD.md``; the function named there does it here.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterable

from ..core.errors import DataError
from ..showdown import cards as sd
from ..showdown.cards import batting_order
from ..thats_baseball import cards as tb
from . import fit as fitting
from .lahman import LahmanData, PlayerSeason, TeamSeason, career_batting, career_pitching, \
    default_data, load_team_season

__all__ = ["team", "outcome_rates", "pitcher_outcome_rates", "speed_rating", "fielding_ratings",
           "hitter_icons", "pitcher_icons", "select_roster", "showdown_team", "thats_baseball_team",
           "thats_baseball_payload",
           "Roster", "RESULT_LINEAR_WEIGHTS", "POINTS_PER_RUN", "MIN_SAMPLE", "HITTERS", "PITCHERS"]

#: A 25-man roster: 13 hitters and 12 pitchers (4 starters, 8 in the bullpen), MLB's usual split.
HITTERS, PITCHERS = 13, 12
#: Below this many PA (batters faced), league-average PAs fill the sample up to it.
MIN_SAMPLE = 100
#: Fielding range per position (catchers: Arm); see METHOD.md, "Fielding".
FIELDING_RANGE = {"C": (0, 10), "1B": (0, 1), "2B": (0, 5), "3B": (0, 3), "SS": (0, 5),
                  "LF": (0, 2), "CF": (0, 3), "RF": (0, 2)}
#: Runs each outcome is worth above an average plate appearance (linear weights).
RESULT_LINEAR_WEIGHTS = {"BB": 0.32, "1B": 0.47, "2B": 0.77, "3B": 1.04, "HR": 1.40,
                         "SO": -0.28, "OUT": -0.26}
#: Points per run above replacement; set so the median 2004 roster costs about 5,000.
POINTS_PER_RUN = 6.85
MIN_POINTS = 10


# ---------------------------------------------------------------- rates

def _league_rates(ts: TeamSeason) -> dict[str, float]:
    return _counts_to_rates(ts.league_batting, "the league")


def _counts_to_rates(b: dict[str, float], who: str) -> dict[str, float]:
    pa = b["AB"] + b["BB"] + b["HBP"] + b["SH"] + b["SF"]
    if pa <= 0:
        raise DataError(f"{who} has no plate appearances")
    singles = b["H"] - b["2B"] - b["3B"] - b["HR"]
    counts = {"BB": b["BB"] + b["HBP"], "1B": singles, "2B": b["2B"], "3B": b["3B"],
              "HR": b["HR"], "SO": b["SO"]}
    counts["OUT"] = pa - sum(counts.values())
    if min(counts.values()) < 0:
        raise DataError(f"{who}: inconsistent batting line {b}")
    return {o: counts[o] / pa for o in fitting.OUTCOMES}


def _shrink(rates: dict[str, float], n: float, league: dict[str, float]) -> dict[str, float]:
    """Fill a sample below MIN_SAMPLE with league-average plate appearances."""
    if n >= MIN_SAMPLE:
        return rates
    w = n / MIN_SAMPLE
    return {o: w * rates[o] + (1 - w) * league[o] for o in fitting.OUTCOMES}


def outcome_rates(player: PlayerSeason, league: dict[str, float]) -> tuple[dict[str, float], dict[str, float]]:
    """(actual, target) per-PA rates for a hitter; target fills a thin sample (METHOD.md)."""
    if player.pa <= 0:
        return dict(league), dict(league)
    actual = _counts_to_rates(player.batting, player.name)
    return actual, _shrink(actual, player.pa, league)


def pitcher_outcome_rates(player: PlayerSeason, league: dict[str, float]
                          ) -> tuple[dict[str, float], dict[str, float]]:
    """(actual, target) per-batter-faced rates; hits split into 1B/2B/3B in league proportions."""
    p = player.pitching or {}
    hits, hr = p.get("H", 0.0), p.get("HR", 0.0)
    bb = p.get("BB", 0.0) + p.get("HBP", 0.0)
    bf = p.get("BFP", 0.0) or (p.get("IPouts", 0.0) + hits + bb)
    if bf <= 0:
        return dict(league), dict(league)
    non_hr = max(hits - hr, 0.0)
    lg_non_hr = league["1B"] + league["2B"] + league["3B"]
    counts = {"BB": bb, "HR": hr, "SO": p.get("SO", 0.0)}
    for o in ("1B", "2B", "3B"):
        counts[o] = non_hr * league[o] / lg_non_hr
    counts["OUT"] = max(bf - sum(counts.values()), 0.0)
    total = sum(counts.values())
    actual = {o: counts[o] / total for o in fitting.OUTCOMES}
    return actual, _shrink(actual, total, league)


# ---------------------------------------------------------------- speed and fielding

def _clip(x: float, low: float = 0.0, high: float = 10.0) -> float:
    return min(max(x, low), high)


def speed_rating(player: PlayerSeason) -> int:
    """Speed from a simplified Bill James Speed Score (METHOD.md, "Speed")."""
    b = player.batting
    singles = b["H"] - b["2B"] - b["3B"] - b["HR"]
    on_first = singles + b["BB"] + b["HBP"]
    balls_in_play = max(b["AB"] - b["HR"] - b["SO"], 1.0)
    factors = []
    if b["SB"] + b["CS"] > 0 or b["CS"] == 0:
        factors.append(_clip(((b["SB"] + 3) / (b["SB"] + b["CS"] + 7) - 0.4) * 20))
    if on_first > 0:
        factors.append(_clip(math.sqrt((b["SB"] + b["CS"]) / on_first) / 0.07))
    factors.append(_clip(b["3B"] / balls_in_play / 0.002))
    reached = b["H"] + b["BB"] + b["HBP"] - b["HR"]
    if reached > 0:
        factors.append(_clip(((b["R"] - b["HR"]) / reached - 0.1) / 0.04))
    if b["GIDP"] > 0 or b["AB"] >= 300:
        factors.append(_clip((0.063 - b["GIDP"] / balls_in_play) / 0.007))
    score = sum(factors) / len(factors)
    weight = player.pa / (player.pa + 100)
    score = 4.5 + (score - 4.5) * weight
    return int(_clip(round(9 + 1.4 * score), 8, 25))


def _percentile(values: list[float], x: float) -> float:
    if not values:
        return 0.5
    below = sum(v < x for v in values)
    equal = sum(v == x for v in values)
    return (below + 0.5 * equal) / len(values)


def _fielding_rating(ts: TeamSeason, player: PlayerSeason, pos: str) -> float:
    """A 0..1 rating at a Lahman fielding position against the league's regulars there."""
    lahman_pos = "OF" if pos in ("LF", "CF", "RF") else pos
    mine = player.fielding.get(lahman_pos)
    if not mine or mine["G"] <= 0:
        return 0.5
    league = ts.league_fielding
    if league is None or league.empty:
        return 0.5
    rows = league[league.POS.isin(["LF", "CF", "RF", "OF"] if lahman_pos == "OF" else [lahman_pos])]
    rows = rows.fillna(0).groupby("playerID")[["G", "InnOuts", "PO", "A", "E", "SB", "CS"]].sum()
    rows = rows[rows.G >= 20]

    def per_game(r):
        inn = r["InnOuts"] / 27 if r["InnOuts"] > 0 else r["G"]
        return (r["PO"] + r["A"]) / max(inn, 1e-9)

    def pct(r):
        chances = r["PO"] + r["A"] + r["E"]
        return (r["PO"] + r["A"]) / chances if chances > 0 else 1.0

    if lahman_pos == "C":
        attempts = rows.SB + rows.CS
        pool = [float(cs / att) for cs, att in zip(rows.CS, attempts) if att > 0]
        my_att = mine["SB"] + mine["CS"]
        if pool and my_att > 0:
            rating = _percentile(pool, mine["CS"] / my_att)
        else:
            rating = _percentile([pct(r) for _, r in rows.iterrows()], pct(mine))
    else:
        range_pool = [per_game(r) for _, r in rows.iterrows()]
        pct_pool = [pct(r) for _, r in rows.iterrows()]
        rating = (2 * _percentile(range_pool, per_game(mine)) + _percentile(pct_pool, pct(mine))) / 3
    games = mine["G"]
    return 0.5 + (rating - 0.5) * games / (games + 30)


def card_positions(player: PlayerSeason) -> list[str]:
    """Field positions for the card: 10+ games there, or his most-played one; at most 3."""
    played = {p: g for p, g in player.games_at.items() if p != "DH" and g > 0}
    if not played:
        return []
    most = max(played.values())
    keep = [p for p, g in sorted(played.items(), key=lambda kv: -kv[1]) if g >= 10 or g == most]
    return keep[:3]


def fielding_ratings(ts: TeamSeason, player: PlayerSeason) -> dict[str, int]:
    """Position -> Fielding (catchers: Arm), in the card's order."""
    out = {}
    for pos in sorted(card_positions(player), key=sd.FIELD_POSITIONS.index):
        low, high = FIELDING_RANGE[pos]
        out[pos] = int(round(low + (high - low) * _fielding_rating(ts, player, pos)))
    return out


# ---------------------------------------------------------------- icons

def hitter_icons(player: PlayerSeason, season: int) -> list[str]:
    """Icons from that season's awards and league leadership (METHOD.md, "Icons")."""
    a, icons = player.awards, []
    if "Gold Glove" in a:
        icons.append("G")
    if "Silver Slugger" in a or "SIlver Slugger" in a:
        icons.append("S")
    if "Most Valuable Player" in a:
        icons.append("V")
    if "HR" in player.league_leader:
        icons.append("HR")
    if "SB" in player.league_leader:
        icons.append("SB")
    icons.extend(_rookie_icons(player, season))
    return icons


def pitcher_icons(player: PlayerSeason, season: int, role: str) -> list[str]:
    a, p, icons = player.awards, player.pitching or {}, []
    if "SO" in player.league_leader:
        icons.append("K")
    if p.get("W", 0) >= 20:
        icons.append("20")
    if "Cy Young Award" in a:
        icons.append("CY")
    if role != "starter" and ("SV" in player.league_leader or a & {
            "Reliever of the Year Award", "Reliever of the Year", "TSN Fireman of the Year",
            "TSN Reliever of the Year"}):
        icons.append("RP")
    icons.extend(_rookie_icons(player, season))
    return icons


def _rookie_icons(player: PlayerSeason, season: int) -> list[str]:
    icons = []
    if player.debut_year == season:
        icons.append("R")
    if "Rookie of the Year" in player.awards:
        icons.append("RY")
    return icons


# ---------------------------------------------------------------- roster

@dataclass
class Roster:
    """The 25 players a manager would carry, with the starting lineup."""

    ts: TeamSeason
    hitters: list[PlayerSeason]
    starters: list[PlayerSeason]
    bullpen: list[PlayerSeason]
    closer: PlayerSeason | None
    fielders: dict[str, PlayerSeason]   # position -> starter there
    dh: PlayerSeason


def _assign_positions(hitters: list[PlayerSeason]) -> dict[str, PlayerSeason] | None:
    """The eight fielders, maximising games played at their positions (exact)."""
    quals = {id(h): set(card_positions(h)) for h in hitters}
    return sd.best_assignment(hitters, sd.FIELD_POSITIONS,
                              lambda h, pos: h.games_at.get(pos, 0) if pos in quals[id(h)] else None)


def select_roster(ts: TeamSeason, *, hitters: int = HITTERS, pitchers: int = PITCHERS,
                  require_full: bool = True) -> Roster:
    """Choose 25 players the way a manager would (METHOD.md, "Roster")."""
    where = f"{ts.team_id} {ts.season}"
    pool = sorted(ts.hitters, key=lambda p: (-p.pa, p.player_id))
    if len(pool) < 9:
        raise DataError(f"{where}: only {len(pool)} hitters played for the team; a lineup needs 9")
    arms = ts.pitchers
    if require_full and len(arms) < 4:
        raise DataError(f"{where}: only {len(arms)} pitchers played for the team; a Showdown "
                        f"team needs exactly 4 starters")
    by_starts = sorted(arms, key=lambda p: (-p.pitching["GS"], -p.pitching["IPouts"], p.player_id))
    starters = by_starts[:4]
    rest = [p for p in arms if p not in starters]
    closer = max(rest, key=lambda p: (p.pitching["SV"], p.pitching["G"]), default=None)
    if closer is not None and closer.pitching["SV"] <= 0:
        closer = None
    relief = sorted((p for p in rest if p is not closer),
                    key=lambda p: (-(p.pitching["G"] - p.pitching["GS"]), -p.pitching["IPouts"],
                                   p.player_id))
    pen_size = pitchers - 4
    bullpen = ([closer] if closer else []) + relief[:pen_size - (1 if closer else 0)]
    n_hitters = hitters + max(0, pitchers - 4 - len(bullpen))  # a short staff leaves room for hitters
    chosen = pool[:n_hitters]
    fielders = _assign_positions(chosen)
    if fielders is None:
        # Bring in the most-used player at each position nobody chosen covers.
        for pos in sd.FIELD_POSITIONS:
            if any(pos in card_positions(h) for h in chosen):
                continue
            cover = [h for h in pool if pos in card_positions(h) and h not in chosen]
            if not cover:
                raise DataError(f"{where}: nobody on the team played {pos}; the lineup cannot "
                                f"fill the field")
            best = max(cover, key=lambda h: (h.games_at[pos], h.pa))
            # drop the least-used chosen hitter whose positions someone else still covers
            for drop in sorted(chosen, key=lambda h: h.pa):
                trial = [h for h in chosen if h is not drop] + [best]
                if len(trial) < 9:
                    continue
                if all(any(q in card_positions(h) for h in trial) for q in sd.FIELD_POSITIONS
                       if any(q in card_positions(h) for h in chosen) or q == pos):
                    chosen = trial
                    break
            else:
                chosen.append(best)
        fielders = _assign_positions(chosen)
        if fielders is None:
            raise DataError(f"{where}: the team's hitters cannot fill every position")
    dh = max((h for h in chosen if h not in fielders.values()), key=lambda h: (h.pa, h.player_id),
             default=None)
    if dh is None:
        raise DataError(f"{where}: only {len(chosen)} hitters; a lineup needs 9 (8 fielders and a DH)")
    total = len(chosen) + len(starters) + len(bullpen)
    if require_full and total != sd.ROSTER_SIZE:
        raise DataError(f"{where}: only {total} players played for the team; a Showdown team "
                        f"has exactly 25 (\"Your team has exactly 25 players\")")
    chosen.sort(key=lambda p: (-p.pa, p.player_id))
    return Roster(ts, chosen, starters, bullpen, closer, fielders, dh)


# ---------------------------------------------------------------- batting order

# ---------------------------------------------------------------- cards

def _source(ts: TeamSeason) -> str:
    return f"Lahman Baseball Database (CC BY-SA 3.0), {ts.season} {ts.team_id}"


def _rates_dict(r: dict[str, float]) -> dict[str, float]:
    return {o: round(r[o], 4) for o in fitting.OUTCOMES}


def _split(n: int, share: float) -> tuple[int, int]:
    first = int(round(n * share))
    return first, n - first


def _hitter_chart(counts: dict[str, int], speed: int) -> sd.Chart:
    """Singles split into 1B and 1B+ by Speed; other outs into GB and FB (METHOD.md)."""
    plus = int(round(counts["1B"] * _clip((speed - 12) / 20, 0, 0.5)))
    gb, fb = _split(counts["OUT"], 0.5)
    return sd.Chart.from_counts({"SO": counts["SO"], "GB": gb, "FB": fb, "BB": counts["BB"],
                                 "1B": counts["1B"] - plus, "1B+": plus, "2B": counts["2B"],
                                 "3B": counts["3B"], "HR": counts["HR"]})


def _pitcher_chart(counts: dict[str, int]) -> sd.Chart:
    pu = int(round(counts["OUT"] * 0.15))
    gb, fb = _split(counts["OUT"] - pu, 0.5)
    return sd.Chart.from_counts({"PU": pu, "SO": counts["SO"], "GB": gb, "FB": fb,
                                 "BB": counts["BB"], "1B": counts["1B"], "2B": counts["2B"],
                                 "HR": counts["HR"]})


def _run_value(rates: dict[str, float]) -> float:
    return sum(RESULT_LINEAR_WEIGHTS[o] * rates[o] for o in fitting.OUTCOMES)


def hitter_points(fitted: dict[str, float], league: dict[str, float], fielding: dict[str, int],
                  speed: int) -> int:
    """Runs above replacement per 650 PA, fielding and speed included (METHOD.md, "Points")."""
    runs = 650 * (_run_value(fitted) - _run_value(league)) + 20
    if fielding:
        best = max(v if pos != "C" else v / 2 for pos, v in fielding.items())
        runs += 2.0 * best + (5 if "C" in fielding or "SS" in fielding else 0)
    runs += 0.5 * (speed - 14)
    return max(MIN_POINTS, int(round(POINTS_PER_RUN * runs)))


def pitcher_points(fitted: dict[str, float], league: dict[str, float], ip: int, role: str) -> int:
    """Runs above replacement over a season of his role at his IP (METHOD.md, "Points")."""
    innings = ip * 32 if role == "starter" else ip * 65
    batters = innings * 4.3
    leverage = 1.5 if role == "closer" else 1.0
    runs = batters * (_run_value(league) - _run_value(fitted) + 0.025) * leverage
    return max(MIN_POINTS, int(round(POINTS_PER_RUN * runs)))


def _innings(player: PlayerSeason, role: str) -> int:
    p = player.pitching
    innings = p["IPouts"] / 3
    if role == "starter":
        starts = max(p["GS"], 1)
        per_start = (innings - (p["G"] - p["GS"]) * 1.0) / starts
        return int(_clip(round(per_start), 1, 9))
    return int(_clip(round(innings / max(p["G"], 1)), 1, 3))


def _bats(player: PlayerSeason) -> str:
    return {"B": "S", "S": "S", "L": "L", "R": "R"}.get(player.bats or "R", "R")


def make_hitter_card(ts: TeamSeason, player: PlayerSeason, opponent: fitting.LeagueOpponent,
                     boost: float = 0.0) -> sd.HitterCard:
    """A hitter's card. ``boost`` (the runs fit; 0 for the rates fit) raises his on-base
    rates before the chart is fitted (:func:`fit.raise_on_base`); his points stay the rates
    fit's, so a team costs the same under both fits (METHOD.md, "The runs fit")."""
    actual, target = outcome_rates(player, opponent.rates)
    priced = fitting.fit_hitter(target, opponent)
    result = priced
    if boost != 0:
        try:
            raised = fitting.raise_on_base(target, boost)
        except ValueError as e:
            raise DataError(f"{ts.team_id} {ts.season}: {player.name}: runs fit: {e}") from None
        result = fitting.fit_hitter(raised, opponent)
    speed = speed_rating(player)
    positions = fielding_ratings(ts, player)
    chart = _hitter_chart(result.counts, speed)
    points = hitter_points(priced.fitted, opponent.rates, positions, speed)
    notes = []
    if player.pa < MIN_SAMPLE:
        notes.append(f"{player.pa:.0f} PA: filled to {MIN_SAMPLE} with league-average PAs")
    if player.bats is None:
        notes.append("bats unknown in Lahman: R assumed")
    fit = {"pa": int(player.pa), "actual": _rates_dict(actual), "fitted": _rates_dict(result.fitted),
           "max_error": round(max(abs(result.fitted[o] - actual[o]) for o in fitting.OUTCOMES), 4)}
    if boost != 0:
        fit["runs_fit"] = {"boost": round(boost, 4), "priced_as": _rates_dict(priced.fitted)}
    if notes:
        fit["notes"] = notes
    return sd.HitterCard(name=player.name, points=points, on_base=result.value, speed=speed,
                         positions=tuple(positions.items()), bats=_bats(player),
                         icons=tuple(hitter_icons(player, ts.season)), chart=chart,
                         id=player.player_id, team=ts.team_id, year=ts.season, fit=fit)


def make_pitcher_card(ts: TeamSeason, player: PlayerSeason, opponent: fitting.LeagueOpponent,
                      role: str) -> sd.PitcherCard:
    actual, target = pitcher_outcome_rates(player, opponent.rates)
    result = fitting.fit_pitcher(target, opponent)
    ip = _innings(player, role)
    points = pitcher_points(result.fitted, opponent.rates, ip, role)
    bf = int(player.pitching.get("BFP", 0) or 0)
    fit = {"bf": bf, "actual": _rates_dict(actual), "fitted": _rates_dict(result.fitted),
           "max_error": round(max(abs(result.fitted[o] - actual[o]) for o in fitting.OUTCOMES), 4),
           "notes": ["doubles and triples allowed are estimated from the league's split of hits"]}
    if bf < MIN_SAMPLE:
        fit["notes"].append(f"{bf} batters faced: filled to {MIN_SAMPLE} with league-average PAs")
    throws = player.throws if player.throws in ("L", "R") else "R"
    return sd.PitcherCard(name=player.name, points=points, control=result.value, ip=ip, role=role,
                          throws=throws, icons=tuple(pitcher_icons(player, ts.season, role)),
                          chart=_pitcher_chart(result.counts), id=player.player_id,
                          team=ts.team_id, year=ts.season, fit=fit)


def _unique_names(cards: Iterable[Any]) -> list[Any]:
    """Two players with one name on a team get their Lahman id in brackets."""
    cards = list(cards)
    names = [c.name for c in cards]
    out = []
    for c in cards:
        if names.count(c.name) > 1:
            c = dataclasses.replace(c, name=f"{c.name} ({c.id})")
        out.append(c)
    return out


def showdown_team(ts: TeamSeason, roster: Roster | None = None, *, boost: float = 0.0
                  ) -> tuple[sd.Team, dict[str, Any]]:
    """A validated Showdown team for the team-season, plus notes on how it was made.

    ``boost`` is the runs fit's (:mod:`dugout.envs.realstats.runs_fit`): every hitter's
    on-base rates times ``1 + boost`` before his card is fitted. 0, the default, is the
    rates fit."""
    roster = roster or select_roster(ts)
    opponent = fitting.league_opponent(_league_rates(ts))
    hitters = {p.player_id: make_hitter_card(ts, p, opponent, boost) for p in roster.hitters}
    pitchers = [make_pitcher_card(ts, p, opponent, "starter") for p in roster.starters]
    pitchers += [make_pitcher_card(ts, p, opponent, "closer" if p is roster.closer else "reliever")
                 for p in roster.bullpen]
    cards = _unique_names(list(hitters.values()) + pitchers)
    by_id = {c.id: c for c in cards}
    nine = [(pos, by_id[p.player_id]) for pos, p in roster.fielders.items()]
    nine.append(("DH", by_id[roster.dh.player_id]))
    order = batting_order(nine, on_base=lambda x: x[1].on_base, speed=lambda x: x[1].speed,
                          power=lambda x: x[1].chart.count("HR"), value=lambda x: x[1].points)
    dh_lineup = tuple((c.id, pos) for pos, c in order)
    no_dh = [(c.id, pos) for pos, c in order if pos != "DH"] + [("P", "P")]
    rotation = tuple(c.id for c in sorted(cards[len(hitters):len(hitters) + 4],
                                          key=lambda c: -c.points))
    # Backups: bench hitters, cheapest last, only as many as the 5,000-point cap needs.
    backups: set[str] = set()
    total = sum(c.points for c in cards)
    starters_ids = {c.id for _, c in order}
    bench = sorted((c for c in cards if isinstance(c, sd.HitterCard) and c.id not in starters_ids),
                   key=lambda c: -c.points)
    for c in bench:
        if total <= sd.POINT_CAP:
            break
        backups.add(c.id)
        total -= c.points - c.points / 5
    team = sd.Team(name=f"{ts.season} {ts.name}", league=ts.league if ts.league in ("AL", "NL") else "NL",
                   dh=ts.league == "AL" and ts.season >= 1973, players=tuple(cards),
                   backups=frozenset(backups), lineups={"dh": dh_lineup, "no_dh": tuple(no_dh)},
                   rotation=rotation, season=ts.season, team_id=ts.team_id,
                   source=_source(ts) + (f"; runs fit, hitters' on-base rates x{1 + boost:.4f}"
                                         if boost else ""),
                   stats={"games": ts.games, "runs": ts.runs, "runs_allowed": ts.runs_allowed})
    over = float(team.total_points) > sd.POINT_CAP
    # Round-trip through the card file format, so what we write is what loads.
    team = sd.team_from_dict(sd.team_to_dict(team), f"{ts.team_id} {ts.season}",
                             point_cap=None if over else sd.POINT_CAP)
    return team, {"over_cap": over, "total_points": float(team.total_points), "boost": boost}


def thats_baseball_team(ts: TeamSeason, data: LahmanData, roster: Roster | None = None) -> tb.Team:
    """Nine batters with career averages through the season, and the staff's career ERAs."""
    roster = roster or select_roster(ts, require_full=False)
    league = _league_rates(ts)
    nine = [(pos, p) for pos, p in roster.fielders.items()] + [("DH", roster.dh)]

    def obp(x):
        return sum(outcome_rates(x[1], league)[0][o] for o in fitting.ON_BASE_OUTCOMES)

    def slug(x):
        r = outcome_rates(x[1], league)[0]
        return r["1B"] + 2 * r["2B"] + 3 * r["3B"] + 4 * r["HR"]

    order = batting_order(nine, on_base=obp, speed=lambda x: speed_rating(x[1]) / 20,
                          power=lambda x: x[1].batting["HR"], value=lambda x: obp(x) + slug(x))
    lineup = []
    for pos, p in order:
        career = career_batting(data, p.player_id, ts.season)
        if career["AB"] <= 0:
            raise DataError(f"{ts.team_id} {ts.season}: {p.name} has no at-bats through {ts.season}")
        avg = Decimal(career["H"]) / Decimal(career["AB"])
        text = str(avg.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))
        lineup.append({"name": p.name, "position": pos, "average": text.lstrip("0") or ".000"})
    pitchers = []
    staff = list(roster.starters) + ([roster.closer] if roster.closer else [])
    for p in staff:
        career = career_pitching(data, p.player_id, ts.season)
        era = round(27 * career["ER"] / career["IPouts"], 2) if career["IPouts"] > 0 else None
        pitchers.append({"name": p.name, "role": "RP" if p is roster.closer else "P", "era": era})
    return tb.team_from_dict({"name": f"{ts.season} {ts.name}", "lineup": lineup,
                              "pitchers": pitchers}, f"{ts.team_id} {ts.season}")


def thats_baseball_payload(team_: tb.Team) -> dict[str, Any]:
    """The That's Baseball team file, averages printed as a card prints them (".301")."""
    out = team_.to_dict()
    for b in out["lineup"]:
        b["average"] = f"{b['average']:.3f}".lstrip("0")
    return out


def team(team_id: str, season: int, data: LahmanData | None = None) -> Roster:
    """The 25-man roster of a team-season: ``team("BOS", 2004)``."""
    data = data or default_data()
    return select_roster(load_team_season(team_id, season, data))
