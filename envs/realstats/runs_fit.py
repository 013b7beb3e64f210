"""The runs fit's data: the stored boosts and the teams they make.

The default fit, the *rates fit* (:mod:`.fit`), makes every card reproduce its player's real
per-plate-appearance rates. Played through the rules, those rates score fewer runs than the
real teams did. The *runs fit* changes one number per team-season, its *boost*: every
hitter's on-base rates times ``1 + boost``, his outs scaled to match
(:func:`.fit.raise_on_base`), before his card is fitted exactly as the rates fit fits it
(``build.showdown_team(ts, boost=...)``). Everything else is the rates fit's.

The boosts are found by simulation, in the calibration benchmark's own advanced-level
games, by the lab's search, :mod:`dugout.studies.runs_fit` (``dugout runs-fit --season 2004
--write``), which stores them in ``data/runs_fit.json`` beside this file. This module is
the library's side, and imports nothing of the lab: it reads the stored boosts
(:func:`stored_boosts`) and builds the teams (:func:`league_teams`, :func:`runs_fit_team`),
which is all ``dugout realstats --fit runs`` and the calibration need to play the cards.
The rates fit stays the default everywhere. METHOD.md, "The runs fit", has the method and
the figures.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from ..core.errors import DataError
from ..showdown.cards import Team
from .build import showdown_team
from .lahman import LahmanData, default_data, load_team_season

__all__ = ["stored_boosts", "stored_boost", "league_teams", "league_ids", "runs_fit_team",
           "team_name", "store_path", "STORE"]

STORE = "data/runs_fit.json"


def team_name(team_id: str, season: int) -> str:
    """The calibration's name of a team-season: ``bos2004``."""
    return f"{team_id.lower()}{season}"


def stored_boosts(season: int) -> dict[str, float]:
    """The stored boosts of a season, by Lahman team code (empty when none is stored)."""
    return {t: float(v["boost"]) for t, v in _store().get("seasons", {}).get(str(season), {}).items()}


def stored_boost(team_id: str, season: int) -> float | None:
    """The stored boost of one team-season, or None."""
    return stored_boosts(season).get(team_id.upper())


def store_path() -> Path:
    """The stored boosts' file (package data)."""
    return Path(str(resources.files(__package__).joinpath(STORE)))


def _store() -> dict[str, Any]:
    return json.loads(store_path().read_text("utf-8"))


def league_ids(data: LahmanData, season: int, leagues: set[str]) -> list[str]:
    rows = data.teams[(data.teams.yearID == season) & (data.teams.lgID.isin(sorted(leagues)))]
    return sorted(str(t) for t in rows.teamID)


def league_teams(data: LahmanData, season: int, team_ids: Sequence[str],
                 boosts: dict[str, float] | None = None,
                 loaded: dict[str, Any] | None = None) -> dict[str, Team]:
    """Showdown teams of every team of the leagues of ``team_ids`` (the opponents their
    calibration games need), by calibration name; a team in ``boosts`` gets its boost.
    ``loaded`` (team id -> its season read from the database) keeps the seasons read between
    calls, so a fit's later iterations only rebuild the cards."""
    boosts = boosts or {}
    loaded = {} if loaded is None else loaded
    rows = data.teams[data.teams.yearID == season]
    known = dict(zip((str(t) for t in rows.teamID), (str(lg) for lg in rows.lgID)))
    unknown = [t for t in team_ids if t.upper() not in known]
    if unknown:
        raise DataError(f"unknown team {unknown[0]!r} in {season}; that season's teams are "
                        f"{', '.join(sorted(known)) or 'none (not in the database)'}")
    leagues = {known[t.upper()] for t in team_ids}
    teams = {}
    for t in league_ids(data, season, leagues):
        if t not in loaded:
            loaded[t] = load_team_season(t, season, data)
        teams[team_name(t, season)] = showdown_team(loaded[t], boost=boosts.get(t, 0.0))[0]
    return teams


def runs_fit_team(team_id: str, season: int, data: LahmanData | None = None, *,
                  boost: float | None = None) -> tuple[Team, dict[str, Any]]:
    """The runs fit's Showdown team: the stored boost, or ``boost``; raises DataError when
    neither is there (fit it with ``dugout runs-fit``, :mod:`dugout.studies.runs_fit`)."""
    data = data or default_data()
    if boost is None:
        boost = stored_boost(team_id, season)
    if boost is None:
        raise DataError(f"no stored runs fit for {team_id.upper()} {season} (stored: "
                        f"{', '.join(sorted(_store().get('seasons', {}))) or 'none'}); fit it "
                        f"with `dugout runs-fit --season {season} "
                        f"--teams {team_id.upper()} --write`")
    return showdown_team(load_team_season(team_id, season, data), boost=boost)
