"""That's Baseball teams: nine batters with positions and career batting averages.

A team is given as the name of a built-in team (``"sample"``, ``"reds"``), a path to a
JSON file, a dict, or a plain list of nine batter dicts. The JSON format::

    {"name": "Sample",
     "lineup": [{"name": "A. J. Pierzynski", "position": "C", "average": 0.301}, ...],
     "pitchers": [{"name": "Bret Saberhagen", "role": "P", "era": 3.21}]}

``lineup`` is the batting order. ``average`` is a number in [0, 1] or a string like
``".301"``. ``pitchers`` is optional and only shown (the rulebook's pitchers do not
change the dice). Bad data fails with :class:`~dugout.envs.core.DataError` naming the
source, the batter and the field. A file is read with the limits of
``dugout.envs.core.read_json_file`` (at most 1 MiB of UTF-8 JSON nested at most 32 deep).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from importlib import resources
from typing import Any

from ..core.datafile import check_plain_data, read_json_file
from ..core.errors import DataError, show as _show, show_list
from ..core.state import pair_codec

__all__ = ["SAVED_TEAMS", "Batter", "Pitcher", "Team", "adjusted_average", "load_team", "lineup_team",
           "BUILTIN_TEAMS", "AA_MIN", "AA_MAX"]

AA_MIN, AA_MAX = 24, 32
#: Rule 1a: C, 1B, 2B, 3B, SS, three outfielders and a designated hitter.
LINEUP_POSITIONS = Counter({"C": 1, "1B": 1, "2B": 1, "3B": 1, "SS": 1, "OF": 3, "DH": 1})
_OUTFIELD = {"LF", "CF", "RF", "OF"}
#: Teams shipped in data/: the rulebook's sample team, the "Reds" of its sample game, and
#: real team-seasons generated from the Lahman database (``dugout.envs.realstats``).
BUILTIN_TEAMS = ("sample", "reds", "bos2004", "nya2004", "nya1927", "cin1975", "chn2016",
                 "lan2024")


def adjusted_average(average: float | str | Decimal) -> int:
    """Rule 1b: the career average rounded to two digits, then held to 24..32.

    .301 -> 30, .273 -> 27, .287 -> 29, .257 -> 26 (the rulebook's sample team);
    .234 -> 24, .340 -> 32. Rounding is half up on the exact decimal (.285 -> 29).
    """
    value = Decimal(str(average)) if not isinstance(average, Decimal) else average
    two_digits = int((value * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return max(AA_MIN, min(AA_MAX, two_digits))


@dataclass(frozen=True)
class Batter:
    name: str
    position: str
    average: float
    aa: int


@dataclass(frozen=True)
class Pitcher:
    name: str
    role: str
    era: float | None


@dataclass(frozen=True)
class Team:
    name: str
    batters: tuple[Batter, ...]
    pitchers: tuple[Pitcher, ...] = ()

    @property
    def aas(self) -> tuple[int, ...]:
        return tuple(b.aa for b in self.batters)

    def rules_key(self) -> tuple[int, ...]:
        """What the rules read of a team: its batters' adjusted averages in batting order
        (names, positions and pitchers only label the box score). Teams with the same key
        play the same game, e.g. a named team and the solver's :func:`lineup_team` of it."""
        return self.aas

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name,
                "lineup": [{"name": b.name, "position": b.position, "average": b.average}
                           for b in self.batters],
                "pitchers": [{"name": p.name, "role": p.role, "era": p.era} for p in self.pitchers]}


def lineup_team(name: str, aas) -> Team:
    """A team known only by its nine adjusted averages (the solver's and the value tables'
    lineups): batters ``#1`` to ``#9``, each a DH with the average ``aa / 100``."""
    return Team(name, tuple(Batter(f"#{i + 1}", "DH", aa / 100, int(aa)) for i, aa in enumerate(aas)))


def _parse_average(raw: Any, where: str) -> tuple[float, Decimal]:
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise DataError(f"{where}: 'average' must be a number like 0.301 or a string like '.301', "
                        f"got {_show(raw)}")
    if isinstance(raw, int) and not 0 <= raw <= 1:
        raise DataError(f"{where}: 'average' must be between 0 and 1 (a batting average such "
                        f"as .301), got {_show(raw)}")
    if isinstance(raw, str) and len(raw) > 40:
        raise DataError(f"{where}: 'average' {_show(raw)} is not a batting average such as .301")
    try:
        value = Decimal(str(raw).strip())
    except InvalidOperation:
        raise DataError(f"{where}: 'average' {_show(raw)} is not a number") from None
    if not value.is_finite() or not (0 <= value <= 1):
        raise DataError(f"{where}: 'average' must be between 0 and 1 (a batting average such "
                        f"as .301), got {_show(raw)}")
    return float(value), value


def _parse_batter(raw: Any, i: int, source: str) -> Batter:
    where = f"{source}: lineup[{i}]"
    if not isinstance(raw, dict):
        raise DataError(f"{where}: each batter must be an object with name, position and "
                        f"average, got {type(raw).__name__}")
    unknown = set(raw) - {"name", "position", "average"}
    if unknown:
        raise DataError(f"{where}: unknown field(s) {show_list(unknown)}; a batter has name, "
                        f"position and average")
    for key in ("name", "position", "average"):
        if key not in raw:
            raise DataError(f"{where}: missing field {key!r}")
    name = raw["name"]
    if not isinstance(name, str) or not name.strip():
        raise DataError(f"{where}: 'name' must be a non-empty string, got {_show(name)}")
    where = f"{source}: lineup[{i}] ({name})"
    position = raw["position"]
    if not isinstance(position, str):
        raise DataError(f"{where}: 'position' must be a string, got {_show(position)}")
    position = position.strip().upper()
    if position not in LINEUP_POSITIONS and position not in _OUTFIELD:
        raise DataError(f"{where}: 'position' {raw['position']!r} is not one of C, 1B, 2B, 3B, "
                        f"SS, OF (or LF, CF, RF), DH")
    average, exact = _parse_average(raw["average"], where)
    return Batter(name.strip(), position, average, adjusted_average(exact))


def _parse_pitcher(raw: Any, i: int, source: str) -> Pitcher:
    where = f"{source}: pitchers[{i}]"
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"].strip():
        raise DataError(f"{where}: a pitcher must be an object with a non-empty 'name'")
    unknown = set(raw) - {"name", "role", "era"}
    if unknown:
        raise DataError(f"{where}: unknown field(s) {show_list(unknown)}; a pitcher has name, role, era")
    role = raw.get("role", "P")
    if role not in ("P", "RP"):
        raise DataError(f"{where} ({raw['name']}): 'role' must be 'P' or 'RP', got {_show(role)}")
    era = raw.get("era")
    if era is not None and (isinstance(era, bool) or not isinstance(era, (int, float))
                            or not 0 <= era <= 999):
        raise DataError(f"{where} ({raw['name']}): 'era' must be a number from 0 to 999, got {_show(era)}")
    return Pitcher(raw["name"].strip(), role, None if era is None else float(era))


def team_from_dict(data: Any, source: str = "team") -> Team:
    """Validate a team given as a dict (or a bare list of nine batters)."""
    if isinstance(data, list):
        data = {"name": "Custom", "lineup": data}
    if not isinstance(data, dict):
        raise DataError(f"{source}: a team must be an object with 'name' and 'lineup', "
                        f"got {type(data).__name__}")
    check_plain_data(data, source)
    unknown = set(data) - {"name", "lineup", "pitchers"}
    if unknown:
        raise DataError(f"{source}: unknown field(s) {show_list(unknown)}; a team has name, lineup, "
                        f"pitchers")
    name = data.get("name", "Custom")
    if not isinstance(name, str) or not name.strip():
        raise DataError(f"{source}: 'name' must be a non-empty string, got {_show(name)}")
    lineup = data.get("lineup")
    if not isinstance(lineup, list):
        raise DataError(f"{source}: 'lineup' must be a list of nine batters")
    if len(lineup) != 9:
        raise DataError(f"{source}: the lineup must have exactly nine batters (rule 1a), "
                        f"got {len(lineup)}")
    batters = tuple(_parse_batter(b, i, source) for i, b in enumerate(lineup))
    counts = Counter("OF" if b.position in _OUTFIELD else b.position for b in batters)
    if counts != LINEUP_POSITIONS:
        missing = LINEUP_POSITIONS - counts
        extra = counts - LINEUP_POSITIONS
        parts = []
        if missing:
            parts.append("missing " + ", ".join(f"{n}x {p}" for p, n in sorted(missing.items())))
        if extra:
            parts.append("too many " + ", ".join(f"{n}x {p}" for p, n in sorted(extra.items())))
        raise DataError(f"{source}: the lineup needs C, 1B, 2B, 3B, SS, three OF and a DH "
                        f"(rule 1a): {'; '.join(parts)}")
    names = [b.name for b in batters]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise DataError(f"{source}: batter(s) listed twice: {dupes}")
    pitchers_raw = data.get("pitchers", [])
    if not isinstance(pitchers_raw, list):
        raise DataError(f"{source}: 'pitchers' must be a list")
    pitchers = tuple(_parse_pitcher(p, i, source) for i, p in enumerate(pitchers_raw))
    return Team(name.strip(), batters, pitchers)


def load_team(spec: Any) -> Team:
    """A team from a built-in name, a JSON file path, a dict, a list of batters, or a Team."""
    if isinstance(spec, Team):
        return spec
    if isinstance(spec, (str, os.PathLike)):
        text_spec = os.fsdecode(spec)
        if text_spec in BUILTIN_TEAMS:
            raw = resources.files(__package__).joinpath(f"data/{text_spec}.json").read_text("utf-8")
            return team_from_dict(json.loads(raw), f"built-in team {text_spec!r}")
        if not text_spec.endswith(".json") and not os.path.exists(text_spec):
            raise DataError(f"unknown team {text_spec!r}: use one of {list(BUILTIN_TEAMS)}, a path "
                            f"to a JSON file, a dict or a list of batters")
        return team_from_dict(read_json_file(text_spec, "team"), text_spec)
    return team_from_dict(spec, "team")


#: a game's two teams as a saved game holds them (its ``GameState.teams`` field's codec)
SAVED_TEAMS = pair_codec(Team.to_dict, lambda saved, i: team_from_dict(saved, f"saved team {i}"))
