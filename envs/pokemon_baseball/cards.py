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
**The roster rules** (RULES.md, P-1 and P-2) are options of the loader, as of the env:

* ``bench`` (:data:`BENCH_READINGS`), how "17 Pokemon can be on the bench in one game"
  reads: ``"roster"`` (the default), 17 is the whole game roster, starters included: 9 to
  17 creatures; ``"reserves"``, 17 on the bench beside the starters: 9 to 26 creatures
  (27 with the DH's tenth starter; :func:`max_roster`).
* ``used_twice`` (:func:`check_used_twice`), how "The same monster cannot be used twice"
  reads: readings joined by ``+`` from ``"roster"`` (no creature twice on a roster),
  ``"reentry"`` (no creature back in a game he has left: the engine's) and ``"teams"`` (no
  creature on both teams: the env's check, :func:`check_teams_apart`); the default is
  ``"roster+reentry"``. Without ``"roster"`` a roster may list a creature more than once:
  each listing is a creature of its own (a lineup or rotation entry naming him takes his
  listings in roster order).

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
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.datafile import check_plain_data, describe_path, read_json_file
from ..core.errors import DataError, show, show_list
from ..core.state import pair_codec

__all__ = ["SAVED_TEAMS", "POSITIONS", "HP_RANGE", "LEVEL_RANGE", "ATTACK_RANGE", "RETREAT_RANGE",
           "MAX_ROSTER", "MIN_ROSTER", "Creature", "Team", "load_creatures", "load_team",
           "team_from_dict", "creature_from_dict", "BUILTIN_TEAMS", "DATA_DIR", "BENCH_READINGS",
           "USED_TWICE_READINGS", "USED_TWICE_DEFAULT", "max_roster", "check_bench",
           "check_used_twice", "readings", "check_teams_apart", "BENCH_PASSAGE",
           "USED_TWICE_PASSAGE"]

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

# -- the roster rules (RULES.md, P-1 and P-2) ---------------------------------------------------
BENCH_PASSAGE = '"17 Pokemon can be on the bench in one game."'
USED_TWICE_PASSAGE = '"The same monster cannot be used twice."'
#: P-1's readings: "roster", 17 is the whole game roster (the default); "reserves", 17 on the
#: bench beside the starters
BENCH_READINGS = ("roster", "reserves")
#: P-2's readings, in the order a ``used_twice`` value is written: no creature twice on a
#: roster, no creature back in a game he has left, no creature on both teams
USED_TWICE_READINGS = ("roster", "reentry", "teams")
USED_TWICE_DEFAULT = "roster+reentry"
#: the bench beside the starters under ``bench="reserves"``
BENCH_SIZE = 17


def check_bench(bench: Any, option: str = "bench") -> str:
    """``bench`` if it is one of :data:`BENCH_READINGS`, else a ``ValueError`` naming the option."""
    if not isinstance(bench, str) or bench not in BENCH_READINGS:
        raise ValueError(f"{option} must be one of {BENCH_READINGS} (how {BENCH_PASSAGE} "
                         f"reads), got {show(bench)}")
    return bench


def check_used_twice(value: Any, option: str = "used_twice") -> str:
    """A ``used_twice`` value written the one way (its readings in the order of
    :data:`USED_TWICE_READINGS`, joined by ``+``), else a ``ValueError`` naming the option:
    one or more readings, each once."""
    parts = value.split("+") if isinstance(value, str) else None
    if (not parts or any(p not in USED_TWICE_READINGS for p in parts)
            or len(set(parts)) != len(parts)):
        raise ValueError(f"{option} must join one or more of {USED_TWICE_READINGS} with '+' "
                         f"(how {USED_TWICE_PASSAGE} reads; default {USED_TWICE_DEFAULT!r}), "
                         f"got {show(value)}")
    return "+".join(p for p in USED_TWICE_READINGS if p in parts)


@lru_cache(maxsize=None)
def readings(used_twice: str) -> frozenset[str]:
    """The readings a (checked) ``used_twice`` value joins: ``"roster+reentry"`` ->
    ``{"roster", "reentry"}``. Every rule that reads P-2 asks this, never the string."""
    return frozenset(used_twice.split("+"))


def max_roster(bench: str = "roster", dh: bool = False) -> int:
    """The most creatures a game roster may hold: 17 (``"roster"``), or the starters (nine,
    ten with the DH) and 17 on the bench (``"reserves"``)."""
    return MAX_ROSTER if bench == "roster" else LINEUP_SIZE + bool(dh) + BENCH_SIZE


def check_teams_apart(teams: tuple, used_twice: str) -> None:
    """With the ``"teams"`` reading of P-2, no creature (by id) on both teams: a
    ``DataError`` naming the rule and the creatures otherwise."""
    if "teams" not in readings(used_twice):
        return
    both = sorted(set(teams[0].ids) & set(teams[1].ids))
    if both:
        raise DataError(f"teams {teams[0].name!r} and {teams[1].name!r} both hold "
                        f"{show_list(both)}: with used_twice={used_twice!r} "
                        f"{USED_TWICE_PASSAGE} reads as no creature on both teams")

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
                "creatures": [c.to_dict() for c in dict(zip(ids, self.roster)).values()]}


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


def team_from_dict(data: Any, where: str, creatures: Any = None, *, bench: str = "roster",
                   dh: bool = False, used_twice: str = USED_TWICE_DEFAULT) -> Team:
    """Validate a team dict; ``where`` names it in messages (``"dict"``, a path).
    ``creatures``: ``{id: Creature}``, a creature-set path or dict, or None (built-in).
    ``bench``, ``dh`` and ``used_twice`` are the game's roster rules (the module docstring):
    a roster they refuse is a ``DataError`` naming the rule."""
    check_bench(bench)
    used_twice = check_used_twice(used_twice)
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
    _check_roster_rules(roster_raw, where, bench, dh, used_twice)
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
    listings: dict[str, list[int]] = {}
    for k, cid in enumerate(roster_raw):
        listings.setdefault(cid, []).append(k)

    def listing(cid: str, taken: list[int]) -> int | None:
        """The roster index of ``cid``'s first listing not yet ``taken`` (None: all are)."""
        return next((k for k in listings[cid] if k not in taken), None)

    lineup_raw = _list(data, "lineup", where)
    if len(lineup_raw) != LINEUP_SIZE:
        raise DataError(f"{where}: field 'lineup' must list {LINEUP_SIZE} batters, one per "
                        f"position, got {len(lineup_raw)}")
    lineup, positions = [], []
    for i, entry in enumerate(lineup_raw):
        at = f"{where}: lineup[{i}]"
        entry = _fields(entry, at, "a lineup entry", ("creature", "position"))
        cid = entry["creature"]
        if not isinstance(cid, str) or cid not in listings:
            raise DataError(f"{at}: field 'creature' must name a creature on the roster, got "
                            f"{show(cid)}")
        at = f"{at} ({cid!r})"
        k = listing(cid, lineup)
        if k is None:
            raise DataError(f"{at}: field 'creature': {cid!r} bats twice in the lineup "
                            f"(nine different creatures)")
        pos = entry["position"]
        if not isinstance(pos, str) or pos not in POSITIONS:
            raise DataError(f"{at}: field 'position' must be one of {', '.join(POSITIONS)} "
                            f"(uppercase), got {show(pos)}")
        lineup.append(k)
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
        if cid not in listings:
            raise DataError(f"{where}: field 'rotation': rotation[{i}]: creature {cid!r} is "
                            f"not on the roster")
        k = listing(cid, rotation)
        if k is None:
            raise DataError(f"{where}: field 'rotation': creature {cid!r} is listed twice")
        rotation.append(k)
    return Team(name, tuple(roster), tuple(lineup), tuple(positions), tuple(rotation))


def _check_roster_rules(roster: list[str], where: str, bench: str, dh: bool,
                        used_twice: str) -> None:
    """P-1, the roster's size under ``bench``; P-2, no creature twice on it under the
    ``"roster"`` reading of ``used_twice``."""
    most = max_roster(bench, dh)
    if not MIN_ROSTER <= len(roster) <= most:
        reading = ("the whole game roster, starters included" if bench == "roster" else
                   f"{BENCH_SIZE} on the bench beside the {LINEUP_SIZE + bool(dh)} starters")
        raise DataError(f"{where}: field 'roster' must list {MIN_ROSTER} to {most} creatures "
                        f"(bench={bench!r}: {BENCH_PASSAGE} read as {reading}), got {len(roster)}")
    twice = sorted(cid for cid, n in Counter(roster).items() if n > 1)
    if twice and "roster" in readings(used_twice):
        raise DataError(f"{where}: field 'roster': creature(s) {show_list(twice)} listed twice "
                        f"(used_twice={used_twice!r}: {USED_TWICE_PASSAGE} read as no creature "
                        f"twice on a roster)")


_BUILTIN_TEAM_CACHE: dict[str, Team] = {}


def load_team(source: Any, creatures: Any = None, *, bench: str = "roster", dh: bool = False,
              used_twice: str = USED_TWICE_DEFAULT) -> Team:
    """A team from a built-in name (:data:`BUILTIN_TEAMS`), a path to a JSON file, a dict,
    or a :class:`Team` (checked against the roster rules). ``creatures`` resolves roster ids
    the team does not define itself: ``{id: Creature}``, a creature-set path or dict, or None
    (the built-in set). ``bench``, ``dh`` and ``used_twice`` are the game's roster rules
    (:func:`team_from_dict`)."""
    rules = {"bench": bench, "dh": dh, "used_twice": used_twice}
    if isinstance(source, Team):
        _check_roster_rules(list(source.ids), f"team {source.name!r}", bench, dh,
                            check_used_twice(used_twice))
        return source
    if isinstance(source, dict):
        return team_from_dict(source, "dict", creatures, **rules)
    if isinstance(source, str) and source in BUILTIN_TEAMS:
        if creatures is None and source in _BUILTIN_TEAM_CACHE:
            return load_team(_BUILTIN_TEAM_CACHE[source], **rules)
        data = read_json_file(_TEAMS_DIR / f"{source}.json", "team")
        team = team_from_dict(data, f"built-in team {source!r}", creatures, **rules)
        if creatures is None:
            _BUILTIN_TEAM_CACHE[source] = team
        return team
    if isinstance(source, (str, os.PathLike)):
        text = describe_path(source)
        if isinstance(source, str) and not text.endswith(".json") and not os.path.exists(text):
            raise DataError(f"unknown team {text!r}: use one of {list(BUILTIN_TEAMS)}, a path "
                            f"to a JSON file or a dict")
        return team_from_dict(read_json_file(source, "team"), text, creatures, **rules)
    raise DataError(f"a team must be one of {list(BUILTIN_TEAMS)}, a path to a JSON file or "
                    f"a dict, got {show(source)}")


#: a game's two teams as a saved game holds them (its ``GameState.teams`` field's codec)
#: (read with the widest roster rules; the game checks its own: ``rules.validate_game``)
SAVED_TEAMS = pair_codec(Team.to_dict, lambda saved, i: team_from_dict(
    saved, f"saved team {i}", bench="reserves", dh=True, used_twice="reentry"))
