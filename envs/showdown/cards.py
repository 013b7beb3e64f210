"""MLB Showdown 2004 player cards and teams: the data model, validated on load.

A card set is JSON. A **hitter** card::

    {"kind": "hitter", "name": "Manny Ramirez", "points": 520, "on_base": 11, "speed": 11,
     "positions": {"LF": 0}, "bats": "R", "icons": ["S"],
     "chart": {"SO": "1-2", "GB": "3-4", "FB": "5", "BB": "6-10", "1B": "11-14",
               "1B+": "15", "2B": "16-17", "3B": "-", "HR": "18-20"}}

A **pitcher** card::

    {"kind": "pitcher", "name": "Curt Schilling", "points": 540, "control": 5, "ip": 7,
     "role": "starter", "throws": "R", "icons": ["20"],
     "chart": {"PU": "1-3", "SO": "4-9", "GB": "10-14", "FB": "15-17", "BB": "18",
               "1B": "19-20", "2B": "-", "HR": "-"}}

What each field means, from the rulebook (``shared/rules/mlb-showdown-2004.txt``):

* ``on_base`` (hitters) and ``control`` (pitchers): the pitch is d20 + Control against
  On-Base; a total higher than On-Base gives the pitcher the advantage.
* ``chart``: the swing is a d20 read on the chart of whoever has the advantage. Each
  result gets a range of rolls as the card prints it (``"3-5"``, ``"6"``, ``"-"`` for
  none). The ranges must run in the card's order (hitters SO GB FB BB 1B 1B+ 2B 3B HR,
  pitchers PU SO GB FB BB 1B 2B HR) and cover 1 to 20 with no gap; the last range may be
  written ``"19+"``. A swing above 20 reads the last result, below 1 reads roll 1
  (Glossary, "Swing").
* ``speed``: a number; its letter is A (18 and up), B (13-17) or C (12 and less). All
  pitchers are Speed C (8) and Fielding +0 (rulebook, "Speed" and "Fielding and Arm").
* ``positions``: position -> Fielding (for ``C``, the catcher's Arm). Positions are C, 1B,
  2B, 3B, SS, LF, CF, RF, IF (all four infield spots) and OF (all three outfield spots);
  ``{}`` is the card's "-": he qualifies nowhere and can only hit.
* ``bats`` L, R or S; ``throws`` L or R.
* ``icons``: hitters G, S, V, HR, SB, R, RY; pitchers K, 20, CY, RP, R, RY.
* ``role``: starter, reliever or closer. ``ip``: innings before he tires.
* ``points``: the card's point value.

Optional fields: ``id`` (unique key; defaults to the name), ``team``, ``year`` and
``source`` (where the numbers came from), and ``fit`` (the real-statistics generator's
record of fitted against actual rates; ignored by the game).

A **team** file adds the roster decisions the Team Construction Rules ask for::

    {"name": "2004 Boston Red Sox", "league": "AL", "dh": true,
     "players": [<card>, ... 25 cards; a hitter may carry "backup": true],
     "lineups": {"dh": [{"player": "Johnny Damon", "position": "CF"}, ... 9 entries,
                        one of them "position": "DH"],
                 "no_dh": [... 8 fielders and {"player": "P", "position": "P"} ...]},
     "rotation": ["Curt Schilling", "Pedro Martinez", "Derek Lowe", "Tim Wakefield"]}

:func:`load_team` validates every rule of "Building Your Own Team" and names the rule a
team breaks; :func:`load_cards` loads a bare card collection.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import KW_ONLY, dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any, Iterable, Mapping

from ..core.assignment import best_assignment
from ..core.datafile import check_plain_data, read_json_file
from ..core.errors import DataError, OptionError, as_int, show as _show, show_list

__all__ = [
    "HITTER_RESULTS", "PITCHER_RESULTS", "RESULTS", "FIELD_POSITIONS", "CARD_POSITIONS", "RATING_LIMITS",
    "HITTER_ICONS", "PITCHER_ICONS", "ROLES", "POINT_CAP", "ROSTER_SIZE",
    "Chart", "HitterCard", "PitcherCard", "Team", "speed_letter",
    "card_from_dict", "card_to_dict", "fielding_at", "load_cards", "load_team", "team_from_dict", "team_to_dict",
    "team_to_json", "builtin_team_names", "batting_order",
    "validate_team", "qualifies", "best_assignment", "BUILTIN_TEAMS", "check_point_cap",
]

#: The order results are printed on a card (rulebook, "New Chart Results").
HITTER_RESULTS = ("SO", "GB", "FB", "BB", "1B", "1B+", "2B", "3B", "HR")
PITCHER_RESULTS = ("PU", "SO", "GB", "FB", "BB", "1B", "2B", "HR")
RESULTS = ("PU", "SO", "GB", "FB", "BB", "1B", "1B+", "2B", "3B", "HR")
OUT_RESULTS = frozenset({"PU", "SO", "GB", "FB"})

#: The eight places in the field a team must fill, besides the pitcher ("Player Positions").
FIELD_POSITIONS = ("C", "1B", "2B", "3B", "SS", "LF", "CF", "RF")
#: The lowest and highest rating a card file may give (the observation's bounds follow them).
RATING_LIMITS = {"on_base": (0, 30), "speed": (1, 40), "control": (-5, 20), "ip": (0, 20),
                 "fielding": (-5, 20)}
INFIELD = ("1B", "2B", "3B", "SS")
OUTFIELD = ("LF", "CF", "RF")
CARD_POSITIONS = FIELD_POSITIONS + ("IF", "OF")
HITTER_ICONS = ("G", "S", "V", "HR", "SB", "R", "RY")
PITCHER_ICONS = ("K", "20", "CY", "RP", "R", "RY")
ROLES = ("starter", "reliever", "closer")
POINT_CAP = 5000
ROSTER_SIZE = 25
PITCHER_SPEED = 8
#: The default teams; ``builtin_team_names()`` lists every team in data/ (all thirty 2004
#: teams and a few other seasons, generated from the Lahman database).
BUILTIN_TEAMS = ("bos2004", "nya2004")

_RANGE = re.compile(r"^\s*(\d{1,6})\s*(?:(-)\s*(\d{1,6})|(\+))?\s*$")


def speed_letter(speed: int) -> str:
    """The card's Speed letter: A for 18 and up, B for 13-17, C for 12 and less."""
    return "A" if speed >= 18 else "B" if speed >= 13 else "C"


@dataclass(frozen=True)
class Chart:
    """A 20-slot swing chart: ``counts[i]`` rolls give ``RESULTS[i]``."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != len(RESULTS) or sum(self.counts) != 20 or min(self.counts) < 0:
            raise DataError(f"a chart needs {len(RESULTS)} non-negative counts summing to 20, "
                            f"got {self.counts}")
        # the result of each roll 1-20, read off the counts once (not a field: equality,
        # hashing and the card files see only the counts)
        by_roll = tuple(r for r, n in zip(RESULTS, self.counts) for _ in range(n))
        object.__setattr__(self, "_by_roll", by_roll)

    @classmethod
    def from_counts(cls, counts: Mapping[str, int]) -> "Chart":
        unknown = set(counts) - set(RESULTS)
        if unknown:
            raise DataError(f"chart: unknown result(s) {show_list(unknown)}")
        return cls(tuple(int(counts.get(r, 0)) for r in RESULTS))

    def count(self, result: str) -> int:
        return self.counts[RESULTS.index(result)]

    def as_dict(self) -> dict[str, int]:
        return {r: n for r, n in zip(RESULTS, self.counts) if n}

    def probabilities(self) -> dict[str, float]:
        return {r: n / 20 for r, n in zip(RESULTS, self.counts)}

    def result(self, roll: int) -> str:
        """The result a swing of ``roll`` reads (rolls above 20 read the top result)."""
        return self._by_roll[min(max(roll, 1), 20) - 1]

    def ranges(self, order: Iterable[str]) -> dict[str, str]:
        """The chart as the card prints it, e.g. ``{"SO": "1-2", "3B": "-"}``."""
        out, low = {}, 1
        for r in order:
            n = self.count(r)
            out[r] = "-" if n == 0 else str(low) if n == 1 else f"{low}-{low + n - 1}"
            low += n
        return out


@dataclass(frozen=True)
class _PlayerCard:
    """What every card shows (its player's name and point value) and, keyword-only, where it
    came from: an ``id`` (its key when set; the name otherwise), the ``team`` and ``year``
    of a real season, the ``source`` and the ``fit`` of a card made from statistics."""
    name: str
    points: int
    _: KW_ONLY
    id: str = ""
    team: str | None = None
    year: int | None = None
    source: str | None = None
    fit: dict | None = field(default=None, compare=False)

    @property
    def key(self) -> str:
        return self.id or self.name


@dataclass(frozen=True)
class HitterCard(_PlayerCard):
    on_base: int
    speed: int
    positions: tuple[tuple[str, int], ...]
    bats: str
    icons: tuple[str, ...]
    chart: Chart

    kind = "hitter"

    @property
    def speed_letter(self) -> str:
        return speed_letter(self.speed)

    @property
    def is_position_player(self) -> bool:
        return bool(self.positions)

    def fielding(self, position: str) -> int | None:
        """Fielding (Arm at C) at a field position, or None if he does not qualify there."""
        best = None
        for pos, value in self.positions:
            if pos == position or (pos == "IF" and position in INFIELD) or (
                    pos == "OF" and position in OUTFIELD):
                best = value if best is None else max(best, value)
        return best


@dataclass(frozen=True)
class PitcherCard(_PlayerCard):
    control: int
    ip: int
    role: str
    throws: str
    icons: tuple[str, ...]
    chart: Chart

    kind = "pitcher"
    speed = PITCHER_SPEED


Card = HitterCard | PitcherCard


def qualifies(card: Card, position: str) -> bool:
    """Whether a card may play a position ("Player Positions"): pitchers only at P."""
    if position == "P":
        return isinstance(card, PitcherCard)
    if position == "DH":
        return isinstance(card, HitterCard)
    return isinstance(card, HitterCard) and card.fielding(position) is not None


# ---------------------------------------------------------------------------- parsing

def _int(raw: Any, where: str, name: str, low: int, high: int) -> int:
    value = as_int(raw)
    if value is None:
        raise DataError(f"{where}: {name!r} must be a whole number, got {_show(raw)}")
    if not low <= value <= high:
        raise DataError(f"{where}: {name!r} must be between {low} and {high}, got {_show(value)}")
    return value


def _blank(value: Any) -> bool:
    return isinstance(value, str) and value.strip() in ("-", "—", "")


def check_point_cap(env_name: str, point_cap: Any) -> int | None:
    """``point_cap``: None (no cap) or a non-negative Python or numpy int, as a Python int."""
    if point_cap is None:
        return None
    cap = as_int(point_cap)
    if cap is None or cap < 0:
        raise OptionError(f"{env_name}: point_cap must be a non-negative int or None (no cap), "
                          f"got {_show(point_cap)}")
    return cap


def _parse_chart(raw: Any, order: tuple[str, ...], where: str) -> Chart:
    if not isinstance(raw, dict):
        raise DataError(f"{where}: 'chart' must be an object of result -> range like \"3-5\"")
    unknown = [r for r in raw if r not in order]
    if unknown:
        raise DataError(f"{where}: chart result(s) {show_list(unknown)} are not on this kind of card; "
                        f"the results are {', '.join(order)}")
    counts: dict[str, int] = {}
    expect = 1
    for i, r in enumerate(order):
        text = raw.get(r, "-")
        if as_int(text) is not None and 0 <= text <= 99:
            text = str(int(text))
        if not isinstance(text, str):
            raise DataError(f"{where}: chart {r!r} must be a range string like \"3-5\", got {text!r}")
        if text.strip() in ("-", "—", ""):
            counts[r] = 0
            continue
        m = _RANGE.match(text)
        if not m:
            raise DataError(f"{where}: chart {r!r} range {text!r} is not like \"7\", \"3-5\" or \"19+\"")
        low = int(m.group(1))
        if m.group(4):  # "19+": runs to 20 and beyond; only the last result may say so
            if not all(_blank(raw.get(s, "-")) for s in order[i + 1:]):
                raise DataError(f"{where}: chart {r!r} range {text!r}: only the last result may end in '+'")
            high = 20
        else:
            high = int(m.group(3)) if m.group(2) else low
        if low != expect:
            raise DataError(f"{where}: chart {r!r} range {text!r} should start at {expect} "
                            f"(ranges run 1-20 in card order with no gap or overlap)")
        if high < low:
            raise DataError(f"{where}: chart {r!r} range {text!r} runs backwards")
        counts[r] = high - low + 1
        expect = high + 1
    if expect != 21:
        raise DataError(f"{where}: chart covers rolls 1-{expect - 1}; it must cover 1-20")
    return Chart.from_counts(counts)


def _parse_icons(raw: Any, allowed: tuple[str, ...], where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(i, str) for i in raw):
        raise DataError(f"{where}: 'icons' must be a list of strings")
    bad = [i for i in raw if i not in allowed]
    if bad:
        raise DataError(f"{where}: icon(s) {bad} are not {'hitter' if 'G' in allowed else 'pitcher'} "
                        f"icons; allowed: {', '.join(allowed)}")
    if len(set(raw)) != len(raw):
        raise DataError(f"{where}: an icon is listed twice in {raw}")
    return tuple(raw)


_COMMON = {"kind", "name", "points", "icons", "chart", "id", "team", "year", "source", "fit"}
_HITTER_FIELDS = _COMMON | {"on_base", "speed", "positions", "bats", "backup"}
_PITCHER_FIELDS = _COMMON | {"control", "ip", "role", "throws", "backup"}


def _card_id(raw: Any, where: str) -> str:
    if not isinstance(raw, str):
        raise DataError(f"{where}: 'id' must be a string (a unique key such as a Lahman id), "
                        f"got {raw!r}")
    return raw.strip()


def card_from_dict(raw: Any, where: str = "card") -> Card:
    """Validate one card; errors name ``where``, the card and the field."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: a card must be an object, got {type(raw).__name__}")
    check_plain_data(raw, where)
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DataError(f"{where}: 'name' must be a non-empty string, got {name!r}")
    where = f"{where} ({name})"
    kind = raw.get("kind")
    if kind not in ("hitter", "pitcher"):
        raise DataError(f"{where}: 'kind' must be 'hitter' or 'pitcher', got {kind!r}")
    allowed = _HITTER_FIELDS if kind == "hitter" else _PITCHER_FIELDS
    unknown = set(raw) - allowed
    if unknown:
        raise DataError(f"{where}: unknown field(s) {show_list(unknown)}; a {kind} card has "
                        f"{', '.join(sorted(allowed))}")
    required = ("points", "chart") + (("on_base", "speed", "positions", "bats") if kind == "hitter"
                                      else ("control", "ip", "role", "throws"))
    for key in required:
        if key not in raw:
            raise DataError(f"{where}: missing field {key!r}")
    common = dict(
        name=name.strip(),
        points=_int(raw["points"], where, "points", 0, 10_000),
        id=_card_id(raw.get("id", ""), where),
        team=raw.get("team"),
        year=None if raw.get("year") is None else _int(raw["year"], where, "year", 1800, 2200),
        source=raw.get("source"),
        fit=raw.get("fit"),
    )
    for key in ("team", "source"):
        if common[key] is not None and not isinstance(common[key], str):
            raise DataError(f"{where}: {key!r} must be a string")
    if kind == "hitter":
        positions = raw["positions"]
        if not isinstance(positions, dict):
            raise DataError(f"{where}: 'positions' must be an object of position -> Fielding "
                            f"(use {{}} for a player who qualifies nowhere)")
        parsed = []
        for pos, value in positions.items():
            if pos not in CARD_POSITIONS:
                raise DataError(f"{where}: position {pos!r} is not one of {', '.join(CARD_POSITIONS)}")
            parsed.append((pos, _int(value, where, f"positions[{pos}]", *RATING_LIMITS["fielding"])))
        bats = raw["bats"]
        if bats not in ("L", "R", "S"):
            raise DataError(f"{where}: 'bats' must be L, R or S, got {bats!r}")
        return HitterCard(
            on_base=_int(raw["on_base"], where, "on_base", *RATING_LIMITS["on_base"]),
            speed=_int(raw["speed"], where, "speed", *RATING_LIMITS["speed"]),
            positions=tuple(parsed), bats=bats,
            icons=_parse_icons(raw.get("icons"), HITTER_ICONS, where),
            chart=_parse_chart(raw["chart"], HITTER_RESULTS, where), **common)
    role = raw["role"]
    if role not in ROLES:
        raise DataError(f"{where}: 'role' must be one of {', '.join(ROLES)}, got {role!r}")
    throws = raw["throws"]
    if throws not in ("L", "R"):
        raise DataError(f"{where}: 'throws' must be L or R, got {throws!r}")
    return PitcherCard(
        control=_int(raw["control"], where, "control", *RATING_LIMITS["control"]),
        ip=_int(raw["ip"], where, "ip", *RATING_LIMITS["ip"]), role=role, throws=throws,
        icons=_parse_icons(raw.get("icons"), PITCHER_ICONS, where),
        chart=_parse_chart(raw["chart"], PITCHER_RESULTS, where), **common)


def card_to_dict(card: Card) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": card.kind}
    if card.id:
        out["id"] = card.id
    out["name"] = card.name
    for key in ("team", "year"):
        if getattr(card, key) is not None:
            out[key] = getattr(card, key)
    out["points"] = card.points
    if isinstance(card, HitterCard):
        out.update(on_base=card.on_base, speed=card.speed, positions=dict(card.positions),
                   bats=card.bats, icons=list(card.icons),
                   chart=card.chart.ranges(HITTER_RESULTS))
    else:
        out.update(control=card.control, ip=card.ip, role=card.role, throws=card.throws,
                   icons=list(card.icons), chart=card.chart.ranges(PITCHER_RESULTS))
    if card.source is not None:
        out["source"] = card.source
    if card.fit is not None:
        out["fit"] = card.fit
    return out


def _read_json(spec: str | os.PathLike, what: str) -> tuple[Any, str]:
    """The parsed file and its name (``dugout.envs.core.read_json_file`` does the checks)."""
    return read_json_file(spec, what), os.fsdecode(spec)


def _unique(cards: list[Card], source: str) -> None:
    seen: dict[str, int] = {}
    for i, card in enumerate(cards):
        if card.key in seen:
            raise DataError(f"{source}: {card.name!r} is on the team twice (players[{seen[card.key]}] "
                            f"and players[{i}]); Team Construction Rules: \"You don't have the same "
                            f"player on your team more than once\"")
        seen[card.key] = i


def load_cards(spec: Any) -> tuple[Card, ...]:
    """A card collection from a JSON file (a list of cards, or an object with ``players``)."""
    if isinstance(spec, (str, os.PathLike)):
        data, source = _read_json(spec, "card")
    else:
        data, source = spec, "cards"
        check_plain_data(data, source)
    if isinstance(data, dict):
        data = data.get("players")
    if not isinstance(data, list):
        raise DataError(f"{source}: a card file is a list of cards or an object with 'players'")
    return tuple(card_from_dict(c, f"{source}: players[{i}]") for i, c in enumerate(data))


# ---------------------------------------------------------------------------- teams

@dataclass(frozen=True)
class Team:
    """A validated 25-player team with its lineups and rotation."""

    name: str
    league: str
    dh: bool
    players: tuple[Card, ...]
    backups: frozenset[str]
    lineups: Mapping[str, tuple[tuple[str, str], ...]]
    rotation: tuple[str, ...]
    season: int | None = None
    team_id: str | None = None
    source: str | None = None
    #: the real team's season totals, for calibration: games, runs, runs_allowed
    stats: Mapping[str, int] | None = None

    def card(self, key: str) -> Card:
        for c in self.players:
            if c.key == key or c.name == key:
                return c
        raise KeyError(key)

    @property
    def hitters(self) -> tuple[HitterCard, ...]:
        return tuple(c for c in self.players if isinstance(c, HitterCard))

    @property
    def pitchers(self) -> tuple[PitcherCard, ...]:
        return tuple(c for c in self.players if isinstance(c, PitcherCard))

    def cost(self, card: Card) -> Fraction:
        """A backup costs one fifth of his point value (Building Your Own Team)."""
        return Fraction(card.points, 5) if card.key in self.backups else Fraction(card.points)

    @property
    def total_points(self) -> Fraction:
        return sum((self.cost(c) for c in self.players), Fraction(0))


def _parse_lineup(raw: Any, cards: Mapping[str, Card], use_dh: bool, where: str
                  ) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, list) or len(raw) != 9:
        raise DataError(f"{where}: a batting order must list 9 entries, got "
                        f"{len(raw) if isinstance(raw, list) else type(raw).__name__}")
    out = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict) or set(entry) != {"player", "position"}:
            raise DataError(f"{where}[{i}]: each entry is {{\"player\": name, \"position\": pos}}")
        if not isinstance(entry["player"], str) or not isinstance(entry["position"], str):
            raise DataError(f"{where}[{i}]: 'player' and 'position' must be strings, got "
                            f"{entry['player']!r} and {entry['position']!r}")
        out.append((entry["player"], entry["position"]))
    positions = [p for _, p in out]
    want = sorted(FIELD_POSITIONS + ("DH" if use_dh else "P",))
    if sorted(positions) != want:
        raise DataError(f"{where}: the starting lineup must fill {', '.join(FIELD_POSITIONS)} and "
                        f"{'DH' if use_dh else 'P (the pitcher bats)'} once each, got {positions} "
                        f"(Team Construction Rules: \"Your starting lineup fills all the fielding "
                        f"positions\")")
    for i, (player, pos) in enumerate(out):
        if pos == "P":
            if player != "P":
                raise DataError(f"{where}[{i}]: the pitcher's spot is written "
                                f"{{\"player\": \"P\", \"position\": \"P\"}} (the day's starter bats there)")
            continue
        if player not in cards:
            raise DataError(f"{where}[{i}]: {player!r} is not on the team")
        card = cards[player]
        if not qualifies(card, pos):
            quals = ", ".join(p for p, _ in card.positions) if isinstance(card, HitterCard) else "P"
            raise DataError(f"{where}[{i}]: {player} does not qualify at {pos} (his card lists "
                            f"{quals or '-'}; \"Player Positions\")")
    keys = [cards[p].key for p, _ in out if p != "P"]
    if len(set(keys)) != len(keys):
        twice = sorted({cards[p].name for p, _ in out if p != "P" and keys.count(cards[p].key) > 1})
        raise DataError(f"{where}: a player is in the batting order twice: {twice}")
    return tuple(out)


def validate_team(team: Team, where: str, point_cap: int | None = POINT_CAP) -> None:
    """The Team Construction Rules, "Building Your Own Team"; the error names the rule.

    ``point_cap=None`` waives the 5,000-point cap (for historical teams built from real
    statistics that cost more); every other rule always applies.
    """
    if len(team.players) != ROSTER_SIZE:
        raise DataError(f"{where}: the team has {len(team.players)} players; \"Your team has "
                        f"exactly 25 players\"")
    if len(team.hitters) < 9:
        raise DataError(f"{where}: the team has {len(team.hitters)} fielders and other hitters; "
                        f"\"Your team has at least 9 fielders and other hitters\"")
    starters = [p for p in team.pitchers if p.role == "starter"]
    if len(starters) != 4:
        raise DataError(f"{where}: the team has {len(starters)} starters; \"Your team has exactly "
                        f"4 starters\"")
    for key in team.backups:
        if not isinstance(team.card(key), HitterCard):
            raise DataError(f"{where}: {team.card(key).name} is a pitcher and cannot be a backup; \"Only fielders "
                            f"and other hitters may be designated as backup players\"")
    for name, lineup in team.lineups.items():
        for player, pos in lineup:
            if player in team.backups:
                raise DataError(f"{where}: lineups.{name}: {team.card(player).name} is a backup and starts the game; "
                                f"backups \"can't take the field\" before the 7th inning and the "
                                f"designated hitter \"must be a full-cost player\"")
    if sorted(team.rotation) != sorted(p.key for p in starters) or len(team.rotation) != 4:
        raise DataError(f"{where}: the rotation must list the team's 4 starters once each, got "
                        f"{list(team.rotation)}; starters are {[p.name for p in starters]} "
                        f"(\"Only starters can be in your rotation\")")
    total = team.total_points
    if point_cap is not None and total > point_cap:
        raise DataError(f"{where}: the team costs {float(total):,.1f} points (backups at one fifth); "
                        f"\"Your players have a total point value of {point_cap:,} or less\" "
                        f"(load it with point_cap=None to waive the cap)")


def team_from_dict(data: Any, source: str = "team", point_cap: int | None = POINT_CAP) -> Team:
    if not isinstance(data, dict):
        raise DataError(f"{source}: a team must be an object, got {type(data).__name__}")
    check_plain_data(data, source)
    point_cap = check_point_cap(source, point_cap)
    allowed = {"name", "league", "dh", "players", "lineups", "rotation", "season", "team",
               "source", "stats", "notes"}
    unknown = set(data) - allowed
    if unknown:
        raise DataError(f"{source}: unknown field(s) {show_list(unknown)}; a team has {', '.join(sorted(allowed))}")
    for key in ("name", "players", "lineups", "rotation"):
        if key not in data:
            raise DataError(f"{source}: missing field {key!r}")
    name = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise DataError(f"{source}: 'name' must be a non-empty string")
    league = data.get("league", "AL")
    if league not in ("AL", "NL"):
        raise DataError(f"{source}: 'league' must be 'AL' or 'NL', got {league!r}")
    dh = data.get("dh", league == "AL")
    if not isinstance(dh, bool):
        raise DataError(f"{source}: 'dh' must be true or false (whether the team plays AL rules at home)")
    players_raw = data["players"]
    if not isinstance(players_raw, list):
        raise DataError(f"{source}: 'players' must be a list of cards")
    cards = [card_from_dict(c, f"{source}: players[{i}]") for i, c in enumerate(players_raw)]
    _unique(cards, source)
    backups = set()
    for i, (raw, card) in enumerate(zip(players_raw, cards)):
        flag = raw.get("backup", False)
        if not isinstance(flag, bool):
            raise DataError(f"{source}: players[{i}] ({card.name}): 'backup' must be true or false")
        if flag:
            backups.add(card.key)
    by_key: dict[str, Card] = {}
    for c in cards:
        by_key[c.key] = c
        by_key.setdefault(c.name, c)
    lineups_raw = data["lineups"]
    if not isinstance(lineups_raw, dict) or set(lineups_raw) != {"dh", "no_dh"}:
        raise DataError(f"{source}: 'lineups' must have a 'dh' (AL rules) and a 'no_dh' (NL rules) "
                        f"batting order")
    lineups = {k: _parse_lineup(lineups_raw[k], by_key, k == "dh", f"{source}: lineups.{k}")
               for k in ("dh", "no_dh")}
    lineups = {k: tuple((by_key[p].key if p != "P" else p, pos) for p, pos in v)
               for k, v in lineups.items()}
    rotation = data["rotation"]
    if not isinstance(rotation, list) or not all(isinstance(r, str) for r in rotation):
        raise DataError(f"{source}: 'rotation' must be a list of the 4 starters' names")
    for r in rotation:
        if r not in by_key:
            raise DataError(f"{source}: rotation: {r!r} is not on the team")
        if not isinstance(by_key[r], PitcherCard) or by_key[r].role != "starter":
            raise DataError(f"{source}: rotation: {r} is not a starter (\"Only starters can be "
                            f"in your rotation\")")
    season = data.get("season")
    if season is not None:
        season = _int(season, source, "season", 1800, 2200)
    stats = data.get("stats")
    if stats is not None:
        if not isinstance(stats, dict) or set(stats) - {"games", "runs", "runs_allowed"}:
            raise DataError(f"{source}: 'stats' must be an object with games, runs, runs_allowed")
        stats = {k: _int(v, source, f"stats.{k}", 0, 100_000) for k, v in stats.items()}
    team = Team(name=name.strip(), league=league, dh=dh, players=tuple(cards),
                backups=frozenset(backups), lineups=lineups,
                rotation=tuple(by_key[r].key for r in rotation), season=season,
                team_id=data.get("team"), source=data.get("source"), stats=stats)
    validate_team(team, source, point_cap)
    return team


def team_to_json(team: Team) -> str:
    """The team file's text: the header indented, one card per line (small, diff-friendly)."""
    data = team_to_dict(team)
    players = data.pop("players")
    head = json.dumps(data, indent=1, ensure_ascii=False)
    # one batting-order entry per line
    head = re.sub(r'\{\s*"player": (".*?"),\s*"position": (".*?")\s*\}',
                  r'{"player": \1, "position": \2}', head)
    cards = ",\n  ".join(json.dumps(c, ensure_ascii=False) for c in players)
    return head[:-2] + ',\n "players": [\n  ' + cards + "\n ]\n}\n"


def team_to_dict(team: Team, **extra: Any) -> dict[str, Any]:
    players = []
    for card in team.players:
        d = card_to_dict(card)
        if card.key in team.backups:
            d["backup"] = True
        players.append(d)
    names = {c.key: c.name for c in team.players}
    out: dict[str, Any] = {"name": team.name}
    if team.season is not None:
        out["season"] = team.season
    if team.team_id is not None:
        out["team"] = team.team_id
    out.update(league=team.league, dh=team.dh)
    if team.source is not None:
        out["source"] = team.source
    if team.stats is not None:
        out["stats"] = dict(team.stats)
    out.update(extra)
    out["lineups"] = {k: [{"player": names.get(p, p), "position": pos} for p, pos in v]
                      for k, v in team.lineups.items()}
    out["rotation"] = [names[r] for r in team.rotation]
    out["players"] = players
    return out


def load_team(spec: Any, point_cap: int | None = POINT_CAP) -> Team:
    """A team from a built-in name (``"bos2004"``, ``"nya2004"``), a JSON path, a dict or a Team.

    Every Team Construction Rule is checked; ``point_cap=None`` waives the point cap.
    """
    point_cap = check_point_cap("load_team", point_cap)
    if isinstance(spec, Team):
        validate_team(spec, spec.name, point_cap)
        return spec
    if isinstance(spec, (str, os.PathLike)):
        text = os.fsdecode(spec)
        if text in BUILTIN_TEAMS or (not text.endswith(".json") and text in builtin_team_names()):
            raw = resources.files(__package__).joinpath(f"data/{text}.json").read_text("utf-8")
            return team_from_dict(json.loads(raw), f"built-in team {text!r}", point_cap)
        if not text.endswith(".json") and not os.path.exists(text):
            raise DataError(f"unknown team {text!r}: use a built-in team ({', '.join(builtin_team_names())}), "
                            f"a path to a JSON file, or a dict")
        data, path = _read_json(text, "team")
        return team_from_dict(data, path, point_cap)
    if isinstance(spec, dict):
        return team_from_dict(spec, point_cap=point_cap)
    raise DataError(f"a team must be a name, a JSON path, a dict or a Team, got {type(spec).__name__}")


def builtin_team_names() -> list[str]:
    folder = resources.files(__package__).joinpath("data")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def fielding_at(card: HitterCard | PitcherCard, position: str, expert: bool) -> int:
    """A player's Fielding at a position he plays (0 for pitchers and catchers' non-Arm):
    in the expert game a hitter out of position at first base has -1, or -2 if he
    qualifies nowhere (Playing First Base Out of Position)."""
    if card.kind != "hitter":
        return 0
    value = card.fielding(position)
    if value is None:
        if expert and position == "1B":
            return -1 if card.positions else -2
        return 0
    return value


def batting_order(nine: list[Any], on_base, speed, power, value) -> list[Any]:
    """The rulebook's "Creating a Team Batting Order" advice, spot by spot, for nine players
    read by the four functions given (the team builder and the real-statistics cards use it)."""
    left = list(nine)

    def take(key, pool=None):
        pick = max(pool if pool is not None else left, key=key)
        left.remove(pick)
        return pick

    median_ob = sorted(on_base(x) for x in nine)[len(nine) // 2]
    order = [take(lambda x: (on_base(x) + speed(x) / 3, value(x)))]            # 1: Speed/On-Base
    decent = [x for x in left if on_base(x) >= median_ob] or left
    order.append(take(lambda x: (speed(x), on_base(x)), decent))                 # 2: speed, decent OB
    order.append(take(lambda x: (on_base(x), value(x))))                         # 3: best pure hitter
    order.append(take(lambda x: (power(x), value(x))))                           # 4: home run hitter
    order += sorted(left, key=lambda x: -value(x))                               # 5-9
    return order
