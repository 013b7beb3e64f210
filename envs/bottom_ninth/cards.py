"""Bottom of the 9th card data: the effect vocabulary, card dataclasses, the loader.

A card set is JSON (``data/cards.json`` for the built-in set, or a user's file or dict)::

    {"set": str, "version": 1,
     "batters":  [{"id", "name", "position": C|1B|2B|3B|SS|LF|CF|RF|IF|OF|UT,
                   "stare_down": {"direction": [effect], "location": [effect], "both": [effect]},
                   "mvp": [effect], "traits": [trait], "text": str (optional)}],
     "pitchers": [{"id", "name", "role": starter|reliever|either,
                   "ace": {"direction": inside|away, "location": high|low, "ability": [effect]},
                   "stare_down": {...}, "traits": [trait], "batting": {...}}]}

An EFFECT is a grant usable once on the pitch it was won (``"if_natural": [values]``
restricts a primitive effect to a die whose natural value is listed and still shown)::

    {"reroll": "pitch"|"control"|"swing"}
    {"modify": "control"|"swing", "by": 1 | -1 | "+-1"}
    {"face": "pitch", "to": "B"|"S"|"C", "from": ["S", ...]}       ("from" optional)
    {"choose": n, "of": [primitive effects]}                          (n uses, 1..4)

A TRAIT is always on: ``{"trait": "speed"|"fielding"|"stamina"|"tires", "by": int}``,
``{"trait": "crush_on", "values": [1..6]}``, ``{"trait": "hit_by_pitch", "control": [1..6]}``.
A pitcher's grants (stare-down table, Ace) target his own dice (pitch, control); a
batter's (stare-down table, MVP, and a pitcher's ``batting`` table) the swing die.
Every error is a :class:`DataError` naming the file, the card and the field.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ..core.datafile import check_plain_data, read_json_file
from ..core.errors import DataError, show

__all__ = ["Effect", "Trait", "Table", "BatterCard", "PitcherCard", "CardSet", "load_cards",
           "parse_cards", "with_traits", "BUILTIN_PATH", "MAX_CARDS", "FIELD_POSITIONS", "ELIGIBLE",
           "matching_size", "can_complete_lineup", "pair_needs", "PITCHES", "PITCH_LABELS",
           "pitch_index", "ace_pitch"]

BUILTIN_PATH = Path(__file__).parent / "data" / "cards.json"
#: the most cards (batters and pitchers together) a set may hold: one action per card
MAX_CARDS = 64
FIELD_POSITIONS = ("C", "1B", "2B", "3B", "SS", "LF", "CF", "RF")
_INFIELD = ("1B", "2B", "3B", "SS", "C")
_OUTFIELD = ("LF", "CF", "RF")
#: the field positions each card position may play (rulebook, Setup: Infield, Outfield, Utility)
ELIGIBLE: dict[str, tuple[int, ...]] = {p: (FIELD_POSITIONS.index(p),) for p in FIELD_POSITIONS}
ELIGIBLE["IF"] = tuple(FIELD_POSITIONS.index(p) for p in _INFIELD)
ELIGIBLE["OF"] = tuple(FIELD_POSITIONS.index(p) for p in _OUTFIELD)
ELIGIBLE["UT"] = tuple(range(len(FIELD_POSITIONS)))
ROLES = ("starter", "reliever", "either")

#: the four pitches (and guesses): index = 2 * location + direction
PITCHES = ("HI", "HA", "LI", "LA")
PITCH_LABELS = ("High & Inside", "High & Away", "Low & Inside", "Low & Away")
DIRECTIONS = ("inside", "away")
LOCATIONS = ("high", "low")
FACES = ("B", "S", "C")
_PITCHER_DICE = ("pitch", "control")
_BATTER_DICE = ("swing",)
MAX_CHOOSE = 4
_TRAIT_BY = {"speed": (-1, 3), "fielding": (-1, 3), "stamina": (0, 3), "tires": (0, 3)}
_BATTER_TRAITS = ("speed", "crush_on", "hit_by_pitch")
_PITCHER_TRAITS = ("fielding", "hit_by_pitch", "stamina", "tires")


def pitch_index(direction: int, location: int) -> int:
    return 2 * location + direction


def ace_pitch(card: "PitcherCard") -> int:
    return pitch_index(card.ace_direction, card.ace_location)


# -- effects -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Effect:
    """One grant. ``kind`` is reroll / modify / face / choose; ``die`` the die it works on
    (None for choose); ``by`` +1, -1 or 0 (either); ``to``/``from_faces`` for a face change;
    ``n`` and ``options`` for choose; ``if_natural`` the natural values it needs."""
    kind: str
    die: str | None = None
    by: int = 0
    to: str = ""
    from_faces: tuple[str, ...] = ()
    n: int = 1
    options: tuple["Effect", ...] = ()
    if_natural: tuple = ()

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "choose":
            return {"choose": self.n, "of": [o.to_dict() for o in self.options]}
        if self.kind == "reroll":
            out: dict[str, Any] = {"reroll": self.die}
        elif self.kind == "modify":
            out = {"modify": self.die, "by": "+-1" if self.by == 0 else self.by}
        else:
            out = {"face": self.die, "to": self.to}
            if self.from_faces:
                out["from"] = list(self.from_faces)
        if self.if_natural:
            out["if_natural"] = list(self.if_natural)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> "Effect":
        return _effect(data, "saved effect", ("pitch", "control", "swing"))

    def describe(self) -> str:
        if self.kind == "choose":
            return f"choose {self.n}: " + " / ".join(o.describe() for o in self.options)
        if self.kind == "reroll":
            text = f"reroll {self.die}"
        elif self.kind == "modify":
            text = f"{self.die} {'+/-1' if self.by == 0 else f'{self.by:+d}'}"
        else:
            text = f"pitch face to {self.to}" + (f" from {'/'.join(self.from_faces)}" if self.from_faces else "")
        if self.if_natural:
            text += f" (natural {'/'.join(map(str, self.if_natural))})"
        return text


@dataclass(frozen=True)
class Trait:
    kind: str
    by: int = 0
    values: tuple[int, ...] = ()


@dataclass(frozen=True)
class Table:
    """A stare-down table: the grants for the direction token, the location token, both."""
    direction: tuple[Effect, ...] = ()
    location: tuple[Effect, ...] = ()
    both: tuple[Effect, ...] = ()

    def for_tokens(self, direction: bool, location: bool) -> tuple[Effect, ...]:
        if direction and location:
            return self.both
        if direction:
            return self.direction
        if location:
            return self.location
        return ()


@dataclass(frozen=True)
class BatterCard:
    id: str
    name: str
    position: str
    stare_down: Table
    mvp: tuple[Effect, ...]
    traits: tuple[Trait, ...]

    @property
    def eligible(self) -> tuple[int, ...]:
        return ELIGIBLE[self.position]


@dataclass(frozen=True)
class PitcherCard:
    id: str
    name: str
    role: str
    ace_direction: int              # 0 inside, 1 away
    ace_location: int               # 0 high, 1 low
    ace_ability: tuple[Effect, ...]
    stare_down: Table
    traits: tuple[Trait, ...]
    batting: Table

    @property
    def can_start(self) -> bool:
        return self.role != "reliever"

    @property
    def can_relieve(self) -> bool:
        return self.role != "starter"


@dataclass(frozen=True)
class CardSet:
    """A validated card set; ``cards`` is batters then pitchers (the card index of the
    actions and observations), ``source`` the raw data (what a saved game keeps)."""
    name: str
    batters: tuple[BatterCard, ...]
    pitchers: tuple[PitcherCard, ...]
    source: str                     # the JSON text of the set (saved with a game)

    @cached_property
    def cards(self) -> tuple:
        """Batters then pitchers (made once: read at every card looked up)."""
        return self.batters + self.pitchers

    def is_batter(self, index: int) -> bool:
        return index < len(self.batters)

    def card(self, index: int):
        return self.cards[index]

    def trait(self, index: int, kind: str) -> tuple[Trait, ...]:
        return tuple(t for t in self.cards[index].traits if t.kind == kind)

    def trait_by(self, index: int, kind: str) -> int:
        return sum(t.by for t in self.trait(index, kind))

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CardSet":
        return parse_cards(json.loads(data["source"]), "saved card set")


# -- matching: one batter per field position -------------------------------------------------
def matching_size(eligibility: list[tuple[int, ...]]) -> int:
    """The most cards that can be put at distinct field positions (a bipartite matching,
    augmenting paths; at most 8 positions)."""
    owner = [-1] * len(FIELD_POSITIONS)

    def augment(i: int, seen: list[bool]) -> bool:
        for p in eligibility[i]:
            if not seen[p]:
                seen[p] = True
                if owner[p] < 0 or augment(owner[p], seen):
                    owner[p] = i
                    return True
        return False

    return sum(augment(i, [False] * len(FIELD_POSITIONS)) for i in range(len(eligibility)))


def can_complete_lineup(chosen: list[tuple[int, ...]], pool: list[tuple[int, ...]],
                        size: int = 6) -> bool:
    """Whether ``chosen`` batters can be completed to ``size`` batters at distinct positions
    with cards from ``pool``: ``chosen`` matchable and the matching of chosen + pool at least
    ``size`` (matchable sets form a transversal matroid, so any matchable set extends)."""
    if len(chosen) > size or matching_size(chosen) < len(chosen):
        return False
    return matching_size(chosen + pool) >= size


def pair_needs(drafted: list[PitcherCard], pool: list[PitcherCard]) -> int | None:
    """How many more pitchers a team holding ``drafted`` needs from ``pool`` to have a
    starter and a different substitute (0, 1, 2), or None when impossible."""
    best = None
    cards = [(c, True) for c in drafted] + [(c, False) for c in pool]
    for i, (s, s_own) in enumerate(cards):
        if not s.can_start:
            continue
        for j, (r, r_own) in enumerate(cards):
            if i == j or not r.can_relieve:
                continue
            need = (not s_own) + (not r_own)
            if best is None or need < best:
                best = need
    return best


# -- parsing ------------------------------------------------------------------------------------
def _fail(where: str, message: str) -> DataError:
    return DataError(f"{where}: {message}")


def _keys(data: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    if not isinstance(data, dict):
        raise _fail(where, f"must be an object, got {show(data)}")
    missing = [k for k in required if k not in data]
    if missing:
        raise _fail(where, f"missing field(s) {', '.join(map(repr, missing))}")
    unknown = sorted(str(k) for k in data if k not in required + optional)
    if unknown:
        raise _fail(where, f"unknown field(s) {', '.join(map(repr, unknown))}; known: "
                           f"{', '.join(required + optional)}")
    return data


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"must be a whole number from {low} to {high}, got {show(value)}")
    return value


def _text(value: Any, where: str, most: int = 60) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > most:
        raise _fail(where, f"must be a non-empty string of at most {most} characters, got {show(value)}")
    return value


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list, got {show(value)}")
    return value


def _naturals(value: Any, where: str, die: str) -> tuple:
    items = _list(value, where)
    if not items:
        raise _fail(where, "must list at least one value")
    if die == "pitch":
        for v in items:
            if v not in FACES:
                raise _fail(where, f"a pitch die's natural value is one of B, S, C, got {show(v)}")
        return tuple(items)
    return tuple(_int(v, where, 1, 6) for v in items)


def _effect(data: Any, where: str, dice: tuple[str, ...], nested: bool = False) -> Effect:
    if not isinstance(data, dict):
        raise _fail(where, f"an effect must be an object, got {show(data)}")
    if "choose" in data:
        if nested:
            raise _fail(where, "a 'choose' effect cannot hold another 'choose'")
        _keys(data, where, ("choose", "of"))
        n = _int(data["choose"], f"{where}.choose", 1, MAX_CHOOSE)
        options = tuple(_effect(o, f"{where}.of[{i}]", dice, nested=True)
                        for i, o in enumerate(_list(data["of"], f"{where}.of")))
        if not options:
            raise _fail(f"{where}.of", "must list at least one effect")
        return Effect("choose", None, n=n, options=options)
    if "reroll" in data:
        _keys(data, where, ("reroll",), ("if_natural",))
        die = data["reroll"]
        kind, by, to, src = "reroll", 0, "", ()
    elif "modify" in data:
        _keys(data, where, ("modify", "by"), ("if_natural",))
        die = data["modify"]
        if die not in ("control", "swing"):
            raise _fail(f"{where}.modify", f"must be 'control' or 'swing', got {show(die)}")
        raw = data["by"]
        if raw == "+-1":
            by = 0
        elif raw in (1, -1) and not isinstance(raw, bool):
            by = raw
        else:
            raise _fail(f"{where}.by", f"must be 1, -1 or '+-1', got {show(raw)}")
        kind, to, src = "modify", "", ()
    elif "face" in data:
        _keys(data, where, ("face", "to"), ("from", "if_natural"))
        die = data["face"]
        if die != "pitch":
            raise _fail(f"{where}.face", f"must be 'pitch', got {show(die)}")
        to = data["to"]
        if to not in FACES:
            raise _fail(f"{where}.to", f"must be one of B, S, C, got {show(to)}")
        src = ()
        if "from" in data:
            src = tuple(data["from"]) if isinstance(data["from"], list) else None
            if not src or any(f not in FACES for f in src):
                raise _fail(f"{where}.from", f"must list faces B, S, C, got {show(data['from'])}")
        kind, by = "face", 0
    else:
        raise _fail(where, f"an effect is one of reroll, modify, face, choose; got fields "
                           f"{sorted(map(str, data))}")
    if die not in ("pitch", "control", "swing"):
        raise _fail(where, f"die must be pitch, control or swing, got {show(die)}")
    if die not in dice:
        side = "a pitcher's" if "pitch" in dice else "a batter's"
        raise _fail(where, f"{side} grants may only target {' or '.join(dice)}, not {die!r} "
                           f"(each side uses its own dice)")
    natural = ()
    if "if_natural" in data:
        natural = _naturals(data["if_natural"], f"{where}.if_natural", die)
    return Effect(kind, die, by=by, to=to, from_faces=src, if_natural=natural)


def _effects(data: Any, where: str, dice: tuple[str, ...]) -> tuple[Effect, ...]:
    return tuple(_effect(e, f"{where}[{i}]", dice) for i, e in enumerate(_list(data, where)))


def _table(data: Any, where: str, dice: tuple[str, ...]) -> Table:
    _keys(data, where, ("direction", "location", "both"))
    return Table(*(_effects(data[k], f"{where}.{k}", dice) for k in ("direction", "location", "both")))


def _traits(data: Any, where: str, allowed: tuple[str, ...]) -> tuple[Trait, ...]:
    out = []
    for i, t in enumerate(_list(data, where)):
        w = f"{where}[{i}]"
        if not isinstance(t, dict) or "trait" not in t:
            raise _fail(w, f"a trait is an object with a 'trait' field, got {show(t)}")
        kind = t["trait"]
        if kind not in allowed:
            raise _fail(f"{w}.trait", f"must be one of {', '.join(allowed)} on this card, got {show(kind)}")
        if kind in _TRAIT_BY:
            _keys(t, w, ("trait", "by"))
            low, high = _TRAIT_BY[kind]
            out.append(Trait(kind, by=_int(t["by"], f"{w}.by", low, high)))
        elif kind == "crush_on":
            _keys(t, w, ("trait", "values"))
            out.append(Trait(kind, values=_naturals(t["values"], f"{w}.values", "swing")))
        else:
            _keys(t, w, ("trait", "control"))
            out.append(Trait(kind, values=_naturals(t["control"], f"{w}.control", "control")))
    return tuple(out)


def _batter(data: Any, where: str) -> BatterCard:
    _keys(data, where, ("id", "name", "position", "stare_down", "mvp"), ("traits", "text"))
    if "text" in data:
        _text(data["text"], f"{where}.text", 400)
    position = data["position"]
    if position not in ELIGIBLE:
        raise _fail(f"{where}.position", f"must be one of {', '.join(ELIGIBLE)}, got {show(position)}")
    return BatterCard(data["id"], _text(data["name"], f"{where}.name"), position,
                      _table(data["stare_down"], f"{where}.stare_down", _BATTER_DICE),
                      _effects(data["mvp"], f"{where}.mvp", _BATTER_DICE),
                      _traits(data.get("traits", []), f"{where}.traits", _BATTER_TRAITS))


def _pitcher(data: Any, where: str) -> PitcherCard:
    _keys(data, where, ("id", "name", "role", "ace", "stare_down"), ("traits", "batting", "text"))
    if "text" in data:
        _text(data["text"], f"{where}.text", 400)
    role = data["role"]
    if role not in ROLES:
        raise _fail(f"{where}.role", f"must be one of {', '.join(ROLES)}, got {show(role)}")
    ace = _keys(data["ace"], f"{where}.ace", ("direction", "location", "ability"))
    if ace["direction"] not in DIRECTIONS:
        raise _fail(f"{where}.ace.direction", f"must be 'inside' or 'away', got {show(ace['direction'])}")
    if ace["location"] not in LOCATIONS:
        raise _fail(f"{where}.ace.location", f"must be 'high' or 'low', got {show(ace['location'])}")
    batting = Table()
    if "batting" in data:
        batting = _table(data["batting"], f"{where}.batting", _BATTER_DICE)
    return PitcherCard(data["id"], _text(data["name"], f"{where}.name"), role,
                       DIRECTIONS.index(ace["direction"]), LOCATIONS.index(ace["location"]),
                       _effects(ace["ability"], f"{where}.ace.ability", _PITCHER_DICE),
                       _table(data["stare_down"], f"{where}.stare_down", _PITCHER_DICE),
                       _traits(data.get("traits", []), f"{where}.traits", _PITCHER_TRAITS),
                       batting)


def parse_cards(data: Any, source: str) -> CardSet:
    """Validate a card set's data; ``source`` names it in every error (file, card, field)."""
    check_plain_data(data, source)
    _keys(data, source, ("set", "version", "batters", "pitchers"))
    name = _text(data["set"], f"{source}: set")
    if data["version"] != 1 or isinstance(data["version"], bool):
        raise _fail(f"{source}: version", f"must be 1, got {show(data['version'])}")
    batters, pitchers, ids = [], [], set()
    for kind, parse, out in (("batters", _batter, batters), ("pitchers", _pitcher, pitchers)):
        for i, card in enumerate(_list(data[kind], f"{source}: {kind}")):
            cid = card.get("id") if isinstance(card, dict) else None
            label = f"{source}: {kind}[{i}]" + (f" ({cid!r})" if isinstance(cid, str) else "")
            if isinstance(card, dict) and "id" in card:
                _text(cid, f"{label}.id", 40)
                if cid in ids:
                    raise _fail(f"{label}.id", f"card id {cid!r} is used twice")
                ids.add(cid)
            out.append(parse(card, label))
    n = len(batters) + len(pitchers)
    if n > MAX_CARDS:
        raise _fail(source, f"holds {n} cards; a set may hold at most {MAX_CARDS} (MAX_CARDS: "
                            f"one action per card)")
    if matching_size([b.eligible for b in batters]) < 6:
        raise _fail(f"{source}: batters", "cannot field six batters at different positions")
    if pair_needs([], pitchers) is None:
        raise _fail(f"{source}: pitchers", "needs a starting pitcher and a different relief-capable "
                                           "substitute (roles starter/either and reliever/either)")
    return CardSet(name, tuple(batters), tuple(pitchers), json.dumps(data, sort_keys=True))


_CACHE: dict[str, CardSet] = {}


def load_cards(cards: Any = "builtin") -> CardSet:
    """The card set: ``"builtin"`` (``data/cards.json``), a path to a JSON file, or a dict."""
    if isinstance(cards, dict):
        return parse_cards(cards, "card set")
    if isinstance(cards, str) and cards == "builtin":
        path = BUILTIN_PATH
    elif isinstance(cards, (str, os.PathLike)):
        path = Path(cards)
    else:
        raise DataError(f"cards must be 'builtin', a path to a JSON file or a dict, got {show(cards)}")
    key = os.fsdecode(path)
    if key in _CACHE and path == BUILTIN_PATH:
        return _CACHE[key]
    what = f"card file {key!r}"
    data = read_json_file(path, "card")
    out = parse_cards(data, what)
    if path == BUILTIN_PATH:
        _CACHE[key] = out
    return out


def with_traits(cards: CardSet, traits, what: str) -> CardSet:
    """``cards`` with each trait op's trait (an Effect or Condition card's game-long
    ``trait``: its ``side`` and ``trait_data()``) written onto every card of its side, parsed
    again (``what`` names the result in a load error); ``cards`` itself when there is none."""
    if not traits:
        return cards
    data = json.loads(cards.source)
    for o in traits:
        for card in data["batters" if o.side == "batting" else "pitchers"]:
            card["traits"] = list(card.get("traits", [])) + [o.trait_data()]
    return parse_cards(data, f"card set {cards.name!r} with {what}")
