"""Bottom of the 9th support characters (option ``support=True`` of the longer game).

The rulebook names Support Characters but prints none of their texts ("you may assign or
draft support characters that may only be used by the player that controls them"), so the
built-in set (``data/support.json``) is original: invented names and effects. Each card is
a once-per-game grant for its owner, written in the card set's effect vocabulary
(:mod:`dugout.envs.bottom_ninth.cards`)::

    {"set": str, "version": 1,
     "support": [{"id", "name", "side": "batting"|"pitching", "grant": [effect], "text"?}]}

A ``batting`` card's effects target the swing die and are offered to its owner while his
team bats; a ``pitching`` card's target the pitch and control dice and are offered while his
team pitches. Every error is a :class:`DataError` naming the file, the card and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.datafile import check_plain_data, read_json_file
from ..core.errors import DataError, show
from .cards import Effect, _effects, _keys, _list, _text

__all__ = ["SupportCard", "SupportSet", "load_support", "parse_support", "SUPPORT_PATH", "MAX_SUPPORT"]

SUPPORT_PATH = Path(__file__).parent / "data" / "support.json"
#: the most support cards a set may hold: one action per card
MAX_SUPPORT = 8
#: the dice each side rolls: what a grant of that side's card may change
SIDE_DICE = {"batting": ("swing",), "pitching": ("pitch", "control")}


def side_grant(data: dict, where: str) -> tuple[str, tuple[Effect, ...]]:
    """A card's ``side`` (batting or pitching) and its ``grant``: one or more effects on that
    side's dice (a support card's, and a solo Effect card's grant), checked (a
    :class:`~dugout.envs.core.errors.DataError` names the field)."""
    side = data["side"]
    if side not in SIDE_DICE:
        raise DataError(f"{where}.side: must be 'batting' or 'pitching', got {show(side)}")
    grant = _effects(data["grant"], f"{where}.grant", SIDE_DICE[side])
    if not grant:
        raise DataError(f"{where}.grant: must list at least one effect")
    return side, grant


@dataclass(frozen=True)
class SupportCard:
    id: str
    name: str
    side: str                      # batting / pitching
    grant: tuple[Effect, ...]

    @property
    def role(self) -> int:
        """The role that may use it: 0 pitching, 1 batting (the engine's grant seats)."""
        return 1 if self.side == "batting" else 0


@dataclass(frozen=True)
class SupportSet:
    name: str
    cards: tuple[SupportCard, ...]
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "SupportSet":
        return parse_support(json.loads(data["source"]), "saved support set", least=1)


def parse_support(data: Any, source: str, least: int = 2) -> SupportSet:
    """Validate a support set's data (``least``: the fewest cards it must hold; two for the
    longer game's teams, one for a Manager Challenge Effect card's grants)."""
    check_plain_data(data, source)
    _keys(data, source, ("set", "version", "support"))
    name = _text(data["set"], f"{source}: set")
    if data["version"] != 1 or isinstance(data["version"], bool):
        raise DataError(f"{source}: version: must be 1, got {show(data['version'])}")
    cards, ids = [], set()
    for i, card in enumerate(_list(data["support"], f"{source}: support")):
        where = f"{source}: support[{i}]"
        _keys(card, where, ("id", "name", "side", "grant"), ("text",))
        cid = _text(card["id"], f"{where}.id", 40)
        if cid in ids:
            raise DataError(f"{where}.id: card id {cid!r} is used twice")
        ids.add(cid)
        if "text" in card:
            _text(card["text"], f"{where}.text", 400)
        side, grant = side_grant(card, where)
        cards.append(SupportCard(cid, _text(card["name"], f"{where}.name"), side, grant))
    if not least <= len(cards) <= MAX_SUPPORT:
        raise DataError(f"{source}: support: must hold {least} to {MAX_SUPPORT} cards, got {len(cards)}")
    return SupportSet(name, tuple(cards), json.dumps(data, sort_keys=True))


_BUILTIN: list[SupportSet] = []


def load_support() -> SupportSet:
    """The built-in support set (``data/support.json``)."""
    if not _BUILTIN:
        _BUILTIN.append(parse_support(read_json_file(SUPPORT_PATH, "support"),
                                      f"support file {str(SUPPORT_PATH)!r}"))
    return _BUILTIN[0]
