"""Pokemon Baseball data: the creatures, the teams, and their loaders.

The rulebook's charts read four stats of a creature: ``hp`` (the Hit chart, Hit/Liner,
Homerun/Double), ``level`` (Error, Hit/Grounder, Injury, Bunt), ``attack``
(Strikeout/Walk) and ``retreat`` (Steal, Tag Up). The rulebook ships no creature data,
so dugout ships an original set (``data/creatures.json``) with exactly these fields::

    {"creatures": [{"id": "emberfin", "name": "Emberfin", "hp": 120, "level": 39,
                    "attack": 110, "retreat": 4, "type": "ember"}, ...]}

``id`` is a lowercase slug (``a-z``, ``0-9``, ``_``, ``-``), unique in a set; ``hp`` and
``attack`` are multiples of 10 (:data:`HP_RANGE`, :data:`ATTACK_RANGE`); ``level`` and
``retreat`` are ints (:data:`LEVEL_RANGE`, :data:`RETREAT_RANGE`: the Steal chart's rows
are retreat 0-4); ``type`` is optional flavour the rules never read. A low retreat is a
fast runner; a high catcher (or catcher + pitcher) retreat makes stealing harder.

A team is the name of a built-in team (:data:`BUILTIN_TEAMS`, ``data/teams/<name>.json``),
a path to a JSON file, or a dict::

    {"name": "Harbor Lights",
     "roster": ["brinehorn", ...],                       (9 to 17 ids: the game roster)
     "lineup": [{"creature": "zapgecko", "position": "CF"}, ...],   (9, in batting order)
     "rotation": ["brinehorn", ...],                     (the starting pitchers, in order)
     "creatures": [{...full creature definitions...}]}   (optional)

Roster ids are looked up first in the team's own ``creatures``, then in the creature set
(the built-in one unless another is given). Positions are ``P C 1B 2B 3B SS LF CF RF``
(exact, uppercase), each once; position ``k`` is fielder number ``POSITIONS.index(k) + 1``.
Every error is a :class:`~dugout.envs.core.DataError` naming the source (the file, ``dict``
or ``built-in team 'harbor'``), the creature or entry, and the field. A file is read with
the limits of ``dugout.envs.core.read_json_file`` (at most 1 MiB of UTF-8 JSON).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.datafile import check_plain_data, describe_path, read_json_file
from ..core.errors import DataError, show, show_list
from ..core.state import pair_codec

__all__ = ["SAVED_TEAMS", "POSITIONS", "HP_RANGE", "LEVEL_RANGE", "ATTACK_RANGE", "RETREAT_RANGE",
           "MAX_ROSTER", "MIN_ROSTER", "Creature", "Team", "load_creatures", "load_team",
           "team_from_dict", "creature_from_dict", "BUILTIN_TEAMS", "DATA_DIR"]

#: the nine positions; fielder number ``n`` (1..9, as in "Fly Out (8)") is ``POSITIONS[n - 1]``
POSITIONS = ("P", "C", "1B", "2B", "3B", "SS", "LF", "CF", "RF")
HP_RANGE = (10, 130)
LEVEL_RANGE = (1, 80)
ATTACK_RANGE = (10, 120)
#: the Steal chart's rows are the runner's retreat 0-4
RETREAT_RANGE = (0, 4)
#: "17 Pokemon can be on the bench in one game": the whole game roster, starters included
MAX_ROSTER = 17
#: a roster must at least fill the nine positions
MIN_ROSTER = 9
LINEUP_SIZE = len(POSITIONS)

DATA_DIR = Path(__file__).parent / "data"
_CREATURES_PATH = DATA_DIR / "creatures.json"
_TEAMS_DIR = DATA_DIR / "teams"
#: the built-in teams (file stems in ``data/teams/``); 17 creatures each, disjoint rosters
BUILTIN_TEAMS = ("harbor", "summit", "grove", "ember")

_CREATURE_FIELDS = ("id", "name", "hp", "level", "attack", "retreat")
_CREATURE_OPTIONAL = ("type",)
_TEAM_FIELDS = ("name", "roster", "lineup", "rotation")
_TEAM_OPTIONAL = ("creatures",)
_ID = re.compile(r"[a-z0-9_-]+")
_MAX_ID = 40
_MAX_NAME = 40
_MAX_TYPE = 20


@dataclass(frozen=True)
class Creature:
    id: str
    name: str
    hp: int
    level: int
    attack: int
    retreat: int
    type: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "hp": self.hp,
                               "level": self.level, "attack": self.attack,
                               "retreat": self.retreat}
        if self.type:
            out["type"] = self.type
        return out


@dataclass(frozen=True)
class Team:
    """``roster[k]`` is the creature that actions name by index ``k``; ``lineup`` holds
    nine roster indices in batting order, ``positions[i]`` the fielder number (1..9) of
    ``lineup[i]``; ``rotation`` the roster indices of the starting pitchers in order."""
    name: str
    roster: tuple[Creature, ...]
    lineup: tuple[int, ...]
    positions: tuple[int, ...]
    rotation: tuple[int, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.roster)

    def to_dict(self) -> dict[str, Any]:
        """The team as JSON-ready data that :func:`team_from_dict` reads back to an equal
        team; self-contained (it carries the roster's full creature definitions)."""
        ids = self.ids
        return {"name": self.name,
                "roster": list(ids),
                "lineup": [{"creature": ids[k], "position": POSITIONS[p - 1]}
                           for k, p in zip(self.lineup, self.positions)],
                "rotation": [ids[k] for k in self.rotation],
                "creatures": [c.to_dict() for c in self.roster]}


# -- field checks -------------------------------------------------------------------------
def _fields(data: Any, where: str, what: str, required: tuple[str, ...],
            optional: tuple[str, ...] = ()) -> dict:
    if not isinstance(data, dict):
        raise DataError(f"{where}: {what} must be an object with {', '.join(required)}"
                        f"{' (and optional ' + ', '.join(optional) + ')' if optional else ''}, "
                        f"got {show(data)}")
    unknown = [k for k in data if k not in required + optional]
    if unknown:
        raise DataError(f"{where}: unknown field(s) {show_list(unknown)}; {what} has "
                        f"{', '.join(required + optional)}")
    missing = [k for k in required if k not in data]
    if missing:
        raise DataError(f"{where}: missing field(s) {', '.join(map(repr, missing))}")
    return data


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _stat(data: dict, key: str, where: str, bounds: tuple[int, int], step: int) -> int:
    value = data[key]
    low, high = bounds
    if not _is_int(value) or not low <= value <= high or value % step:
        kind = "a multiple of 10" if step == 10 else "an int"
        raise DataError(f"{where}: field {key!r} must be {kind} from {low} to {high}, "
                        f"got {show(value)}")
    return value


def _text(value: Any, where: str, key: str, most: int, empty: bool = False) -> str:
    if not isinstance(value, str) or len(value) > most or not (empty or value.strip()):
        need = "a string" if empty else "a non-empty string"
        raise DataError(f"{where}: field {key!r} must be {need} of at most {most} characters, "
                        f"got {show(value)}")
    return value.strip()


def _slug(value: Any, where: str, key: str) -> str:
    if not isinstance(value, str) or len(value) > _MAX_ID or not _ID.fullmatch(value):
        raise DataError(f"{where}: field {key!r} must be a lowercase id of a-z, 0-9, '_' and "
                        f"'-' (at most {_MAX_ID} characters), got {show(value)}")
    return value


def _list(data: dict, key: str, where: str) -> list:
    value = data[key]
    if not isinstance(value, list):
        raise DataError(f"{where}: field {key!r} must be a list, got {show(value)}")
    return value


# -- creatures ----------------------------------------------------------------------------
def creature_from_dict(data: Any, source: str = "dict", index: int | None = None) -> Creature:
    """One creature. Messages start with ``source`` and name the creature by its id (by
    ``creatures[index]`` until the id is known)."""
    where = source if index is None else f"{source}: creatures[{index}]"
    what = "a creature"
    fields = ", ".join(_CREATURE_FIELDS)
    if not isinstance(data, dict):
        raise DataError(f"{where}: {what} must be an object with {fields} (and optional "
                        f"type), got {show(data)}")
    if "id" in data:
        cid = _slug(data["id"], where, "id")
        where = f"{source}: creature {cid!r}"
    data = _fields(data, where, what, _CREATURE_FIELDS, _CREATURE_OPTIONAL)
    name = _text(data["name"], where, "name", _MAX_NAME)
    hp = _stat(data, "hp", where, HP_RANGE, 10)
    level = _stat(data, "level", where, LEVEL_RANGE, 1)
    attack = _stat(data, "attack", where, ATTACK_RANGE, 10)
    retreat = _stat(data, "retreat", where, RETREAT_RANGE, 1)
    ctype = _text(data.get("type", ""), where, "type", _MAX_TYPE, empty=True)
    return Creature(data["id"], name, hp, level, attack, retreat, ctype)


def _creature_list(items: list, source: str) -> dict[str, Creature]:
    out: dict[str, Creature] = {}
    for i, raw in enumerate(items):
        c = creature_from_dict(raw, source, i)
        if c.id in out:
            raise DataError(f"{source}: creature {c.id!r}: field 'id' is used twice in "
                            f"'creatures' (ids must be unique)")
        out[c.id] = c
    return out


def _parse_creatures(data: Any, source: str) -> dict[str, Creature]:
    data = _fields(data, source, "a creature set", ("creatures",))
    items = _list(data, "creatures", source)
    if not items:
        raise DataError(f"{source}: field 'creatures' must list at least one creature")
    return _creature_list(items, source)


_BUILTIN_CREATURES: dict[str, Creature] | None = None


def _builtin_creatures() -> dict[str, Creature]:
    global _BUILTIN_CREATURES
    if _BUILTIN_CREATURES is None:
        _BUILTIN_CREATURES = _parse_creatures(read_json_file(_CREATURES_PATH, "creature"),
                                              "built-in creatures.json")
    return _BUILTIN_CREATURES


def load_creatures(source: Any = None) -> dict[str, Creature]:
    """A creature set as ``{id: Creature}`` in file order: None for the built-in set, a
    path to a JSON file, or a dict ``{"creatures": [...]}``."""
    if source is None:
        return dict(_builtin_creatures())
    if isinstance(source, dict):
        check_plain_data(source, "dict")
        return _parse_creatures(source, "dict")
    if isinstance(source, (str, os.PathLike)):
        return _parse_creatures(read_json_file(source, "creature"), describe_path(source))
    raise DataError(f"creatures must be None (the built-in set), a path to a JSON file or a "
                    f"dict {{'creatures': [...]}}, got {show(source)}")


def _creature_pool(creatures: Any) -> Mapping[str, Creature]:
    if creatures is None:
        return _builtin_creatures()
    if isinstance(creatures, Mapping) and all(isinstance(c, Creature)
                                              for c in creatures.values()):
        return creatures
    return load_creatures(creatures)


# -- teams --------------------------------------------------------------------------------
def _roster_ids(items: list, where: str, key: str) -> list[str]:
    for i, cid in enumerate(items):
        if not isinstance(cid, str):
            raise DataError(f"{where}: {key}[{i}]: must be a creature id (a string), got "
                            f"{show(cid)}")
    return items


def team_from_dict(data: Any, where: str, creatures: Any = None) -> Team:
    """Validate a team dict; ``where`` names it in messages (``"dict"``, a path).
    ``creatures``: ``{id: Creature}``, a creature-set path or dict, or None (built-in)."""
    if not isinstance(data, dict):
        raise DataError(f"{where}: a team must be an object with name, roster, lineup and "
                        f"rotation, got {show(data)}")
    check_plain_data(data, where)
    data = _fields(data, where, "a team", _TEAM_FIELDS, _TEAM_OPTIONAL)
    name = _text(data["name"], where, "name", _MAX_NAME)
    own: dict[str, Creature] = {}
    if "creatures" in data:
        own = _creature_list(_list(data, "creatures", where), where)

    roster_raw = _roster_ids(_list(data, "roster", where), where, "roster")
    if not MIN_ROSTER <= len(roster_raw) <= MAX_ROSTER:
        raise DataError(f"{where}: field 'roster' must list {MIN_ROSTER} to {MAX_ROSTER} "
                        f"creatures (17 can be on the bench in one game), got {len(roster_raw)}")
    twice = sorted(cid for cid, n in Counter(roster_raw).items() if n > 1)
    if twice:
        raise DataError(f"{where}: field 'roster': creature(s) {show_list(twice)} listed twice "
                        f"(the same monster cannot be used twice)")
    pool = None if all(cid in own for cid in roster_raw) else _creature_pool(creatures)
    roster = []
    for i, cid in enumerate(roster_raw):
        if cid in own:
            roster.append(own[cid])
        elif cid in pool:
            if not isinstance(pool[cid], Creature) or pool[cid].id != cid:
                raise DataError(f"{where}: field 'roster': roster[{i}]: the creature set maps "
                                f"{cid!r} to {show(pool[cid])}, not to a creature with that id")
            roster.append(pool[cid])
        else:
            raise DataError(f"{where}: field 'roster': roster[{i}]: unknown creature {cid!r} "
                            f"(neither in the team's 'creatures' nor in the creature set)")
    index = {cid: k for k, cid in enumerate(roster_raw)}

    lineup_raw = _list(data, "lineup", where)
    if len(lineup_raw) != LINEUP_SIZE:
        raise DataError(f"{where}: field 'lineup' must list {LINEUP_SIZE} batters, one per "
                        f"position, got {len(lineup_raw)}")
    lineup, positions = [], []
    for i, entry in enumerate(lineup_raw):
        at = f"{where}: lineup[{i}]"
        entry = _fields(entry, at, "a lineup entry", ("creature", "position"))
        cid = entry["creature"]
        if not isinstance(cid, str) or cid not in index:
            raise DataError(f"{at}: field 'creature' must name a creature on the roster, got "
                            f"{show(cid)}")
        at = f"{at} ({cid!r})"
        if index[cid] in lineup:
            raise DataError(f"{at}: field 'creature': {cid!r} bats twice in the lineup "
                            f"(nine different creatures)")
        pos = entry["position"]
        if not isinstance(pos, str) or pos not in POSITIONS:
            raise DataError(f"{at}: field 'position' must be one of {', '.join(POSITIONS)} "
                            f"(uppercase), got {show(pos)}")
        lineup.append(index[cid])
        positions.append(POSITIONS.index(pos) + 1)
    counts = Counter(POSITIONS[p - 1] for p in positions)
    if len(counts) != LINEUP_SIZE:
        twice = [p for p in POSITIONS if counts[p] > 1]
        missing = [p for p in POSITIONS if not counts[p]]
        raise DataError(f"{where}: field 'lineup': the positions must be {', '.join(POSITIONS)} "
                        f"once each; twice or more: {', '.join(twice)}; missing: "
                        f"{', '.join(missing)}")

    rotation_raw = _roster_ids(_list(data, "rotation", where), where, "rotation")
    if not rotation_raw:
        raise DataError(f"{where}: field 'rotation' must name at least one starting pitcher")
    rotation = []
    for i, cid in enumerate(rotation_raw):
        if cid not in index:
            raise DataError(f"{where}: field 'rotation': rotation[{i}]: creature {cid!r} is "
                            f"not on the roster")
        if index[cid] in rotation:
            raise DataError(f"{where}: field 'rotation': creature {cid!r} is listed twice")
        rotation.append(index[cid])
    return Team(name, tuple(roster), tuple(lineup), tuple(positions), tuple(rotation))


_BUILTIN_TEAM_CACHE: dict[str, Team] = {}


def load_team(source: Any, creatures: Any = None) -> Team:
    """A team from a built-in name (:data:`BUILTIN_TEAMS`), a path to a JSON file, a dict,
    or a :class:`Team` (returned as is). ``creatures`` resolves roster ids the team does
    not define itself: ``{id: Creature}``, a creature-set path or dict, or None (the
    built-in set)."""
    if isinstance(source, Team):
        return source
    if isinstance(source, dict):
        return team_from_dict(source, "dict", creatures)
    if isinstance(source, str) and source in BUILTIN_TEAMS:
        if creatures is None and source in _BUILTIN_TEAM_CACHE:
            return _BUILTIN_TEAM_CACHE[source]
        data = read_json_file(_TEAMS_DIR / f"{source}.json", "team")
        team = team_from_dict(data, f"built-in team {source!r}", creatures)
        if creatures is None:
            _BUILTIN_TEAM_CACHE[source] = team
        return team
    if isinstance(source, (str, os.PathLike)):
        text = describe_path(source)
        if isinstance(source, str) and not text.endswith(".json") and not os.path.exists(text):
            raise DataError(f"unknown team {text!r}: use one of {list(BUILTIN_TEAMS)}, a path "
                            f"to a JSON file or a dict")
        return team_from_dict(read_json_file(source, "team"), text, creatures)
    raise DataError(f"a team must be one of {list(BUILTIN_TEAMS)}, a path to a JSON file or "
                    f"a dict, got {show(source)}")


#: a game's two teams as a saved game holds them (its ``GameState.teams`` field's codec)
SAVED_TEAMS = pair_codec(Team.to_dict, lambda saved, i: team_from_dict(saved, f"saved team {i}"))
