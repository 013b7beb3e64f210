"""The Manager Challenge's cards: Situations, Effects and the pitchers' Solo Pitch charts.

The rulebook names Situation and Effect cards and a "Solo Pitch reference chart printed on
the card" of each pitcher, and prints none of them: the built-in set (``data/solo.json``,
designed in ``data/SOLO_CARDS.md``) is original. A solo set is JSON::

    {"set": str, "version": 1,
     "default_chart": CHART, "charts": {pitcher id: CHART},
     "situations": [{"id", "name", "home_opener": bool, "pitch": "HI"|"HA"|"LI"|"LA",
                     "score": {"away": 0-9, "home": 0-9}, "outs": 0-2, "runners": [1, 2, 3],
                     "lineup": {"rule": "choose"|"random"|"pick_from", "pool": 7-20, "bench": 0-3},
                     "pitcher": "top"|"starter"|"reliever", "extra_innings": 0-3,
                     "mp": {"win": 0-10, "run": 0-3}, "text"}],
     "effects": [{"id", "name", "pitch": "HI"|"HA"|"LI"|"LA"|"ace"|"anti_ace",
                  "effect": [OP], "advanced": [OP], "text"}]}

A CHART gives, for the Pitch die face shown (``"B"``, ``"S"``, ``"C"``), six letters: what
the automated pitcher does when the Control die shows 1..6: ``K`` keep, ``+``/``-`` Control
+1/-1, ``R`` reroll Control, ``P`` reroll the Pitch die, ``B``/``S``/``C`` turn the face.
A pitcher without a chart of his own uses ``default_chart``.

An OP (what the game's Effect card does; ``advanced`` ops count from the Veteran level)::

    {"fatigue": 1-5}            discard that many cards from the Pitcher deck at the start
    {"runner": 1|2|3}           a runner on that base at the start (none at Hall of Fame)
    {"out": 1}                  one more out at the start (at most 2)
    {"deficit": 1-3}            the visitors add runs before the bottom of the 9th
    {"mp": 1-5}                 Manager Points more if the game is won
    {"trait": kind, "side": "batting"|"pitching", ...}   a game-long trait of every card of
                                the side, in the card set's trait vocabulary (batting: speed,
                                crush_on, hit_by_pitch; pitching: fielding, stamina, hit_by_pitch)
    {"grant": [effect], "side": "batting"|"pitching"}    an ability usable once this game (at
                                most one per side on a card), in the card effect vocabulary

Every error is a :class:`~dugout.envs.core.errors.DataError` naming the file, the card and
the field.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.datafile import check_plain_data, read_json_file
from ..core.errors import DataError, show
from .cards import PITCHES, Effect, _int, _keys, _list, _text, _traits
from .support import side_grant

__all__ = ["SoloSet", "Situation", "EffectCard", "Op", "load_solo", "parse_solo", "SOLO_PATH",
           "CHART_LETTERS", "EFFECT_PITCHES", "LINEUP_RULES", "PITCHER_DRAWS", "MAX_SOLO_CARDS"]

SOLO_PATH = Path(__file__).parent / "data" / "solo.json"
#: what a chart letter tells the automated pitcher to do
CHART_LETTERS = {"K": "keep", "+": "Control +1", "-": "Control -1", "R": "reroll Control",
                 "P": "reroll the Pitch die", "B": "turn the face to B", "S": "turn the face to S",
                 "C": "turn the face to C"}
EFFECT_PITCHES = PITCHES + ("ace", "anti_ace")
LINEUP_RULES = ("choose", "random", "pick_from")
PITCHER_DRAWS = ("top", "starter", "reliever")
#: the most Situation or Effect cards a set may hold (the observation's one-hots)
MAX_SOLO_CARDS = 24
_SIDE_TRAITS = {"batting": ("speed", "crush_on", "hit_by_pitch"),
                "pitching": ("fielding", "stamina", "hit_by_pitch")}


@dataclass(frozen=True)
class Op:
    """One thing an Effect card does: ``kind`` (fatigue, runner, out, deficit, mp, trait,
    grant), ``n`` its number, ``side`` batting/pitching, ``trait`` the trait as card data
    (a dict in the card set's vocabulary), ``grant`` the effects."""
    kind: str
    n: int = 0
    side: str = ""
    trait: tuple = ()               # ((key, value), ...): the trait's JSON, frozen
    grant: tuple[Effect, ...] = ()

    def trait_data(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.trait}

    def describe(self) -> str:
        if self.kind == "fatigue":
            return f"the pitcher starts {self.n} card{'s' * (self.n > 1)} down"
        if self.kind == "runner":
            return f"a runner on {('first', 'second', 'third')[self.n - 1]}"
        if self.kind == "out":
            return "one more out"
        if self.kind == "deficit":
            return f"the visitors add {self.n} run{'s' * (self.n > 1)}"
        if self.kind == "mp":
            return f"{self.n} MP more for a win"
        if self.kind == "trait":
            t = self.trait_data()
            what = t.get("by", t.get("values", t.get("control")))
            return f"{self.side}: {t['trait']} {what}"
        return f"{self.side}, once: " + "; ".join(e.describe() for e in self.grant)


@dataclass(frozen=True)
class Situation:
    id: str
    name: str
    home_opener: bool
    pitch: int                      # 0-3: HI, HA, LI, LA
    score: tuple[int, int]          # (away, home)
    outs: int
    runners: tuple[int, ...]        # bases 1-3
    lineup_rule: str
    pool: int
    bench: int
    pitcher: str
    extra_innings: int
    mp_win: int
    mp_run: int
    text: str = ""


@dataclass(frozen=True)
class EffectCard:
    id: str
    name: str
    pitch: str                      # HI, HA, LI, LA, ace, anti_ace
    effect: tuple[Op, ...]
    advanced: tuple[Op, ...]
    text: str = ""

    def ops(self, veteran: bool) -> tuple[Op, ...]:
        return self.effect + self.advanced if veteran else self.effect


@dataclass(frozen=True)
class SoloSet:
    """A validated solo set. Deck cards are numbered situations first, then effects."""
    name: str
    situations: tuple[Situation, ...]
    effects: tuple[EffectCard, ...]
    charts: dict[str, dict[str, str]]
    default_chart: dict[str, str]
    source: str

    def __hash__(self) -> int:
        return hash(self.source)

    def check_charts(self, pitcher_ids) -> None:
        """A chart for a pitcher the card set does not have is a mistake (a misspelt id would
        silently play the default chart): a DataError naming it and the known ids."""
        unknown = sorted(set(self.charts) - set(pitcher_ids))
        if unknown:
            raise DataError(f"solo set {self.name!r}: charts: no pitcher with id {', '.join(map(repr, unknown))} "
                            f"in the card set; its pitchers: {', '.join(pitcher_ids)}")

    def chart(self, pitcher_id: str) -> dict[str, str]:
        return self.charts.get(pitcher_id, self.default_chart)

    def is_situation(self, card: int) -> bool:
        return card < len(self.situations)

    def card(self, card: int) -> Situation | EffectCard:
        n = len(self.situations)
        return self.situations[card] if card < n else self.effects[card - n]

    @property
    def n_cards(self) -> int:
        return len(self.situations) + len(self.effects)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "SoloSet":
        return parse_solo(json.loads(data["source"]), "saved solo set")


def _chart(data: Any, where: str) -> dict[str, str]:
    _keys(data, where, ("B", "S", "C"))
    out = {}
    for face in ("B", "S", "C"):
        row = data[face]
        if not isinstance(row, str) or len(row) != 6 or not set(row) <= set(CHART_LETTERS):
            raise DataError(f"{where}.{face}: must be six of the letters {''.join(CHART_LETTERS)} "
                            f"(one per Control value 1-6), got {show(row)}")
        for k, letter in enumerate(row):
            if letter == face or (letter == "+" and k == 5) or (letter == "-" and k == 0):
                raise DataError(f"{where}.{face}: letter {letter!r} for Control {k + 1} can do nothing "
                                f"(a face to itself, Control above 6 or below 1); write K to keep")
        out[face] = row
    return out


def _op(data: Any, where: str) -> Op:
    if not isinstance(data, dict) or not data:
        raise DataError(f"{where}: an op is an object such as {{'fatigue': 2}}, got {show(data)}")
    if "trait" in data:
        _keys(data, where, ("trait", "side"), ("by", "values", "control"))
        side = data["side"]
        if side not in _SIDE_TRAITS:
            raise DataError(f"{where}.side: must be 'batting' or 'pitching', got {show(side)}")
        trait = {k: v for k, v in data.items() if k != "side"}
        _traits([trait], where, _SIDE_TRAITS[side])           # validated as card data
        frozen = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(trait.items()))
        return Op("trait", side=side, trait=frozen)
    if "grant" in data:
        _keys(data, where, ("grant", "side"))
        side, grant = side_grant(data, where)
        return Op("grant", side=side, grant=grant)
    bounds = {"fatigue": (1, 5), "runner": (1, 3), "out": (1, 1), "deficit": (1, 3), "mp": (1, 5)}
    kind = next(iter(data))
    if len(data) != 1 or kind not in bounds:
        raise DataError(f"{where}: unknown op {show(data)}; an op is one of "
                        f"{', '.join(bounds)}, trait (with side) or grant (with side)")
    return Op(kind, n=_int(data[kind], f"{where}.{kind}", *bounds[kind]))


def _situation(data: Any, where: str) -> Situation:
    _keys(data, where, ("id", "name", "home_opener", "pitch", "score", "outs", "runners", "lineup",
                        "pitcher", "extra_innings", "mp"), ("text",))
    if not isinstance(data["home_opener"], bool):
        raise DataError(f"{where}.home_opener: must be true or false, got {show(data['home_opener'])}")
    if data["pitch"] not in PITCHES:
        raise DataError(f"{where}.pitch: must be one of {', '.join(PITCHES)}, got {show(data['pitch'])}")
    score = _keys(data["score"], f"{where}.score", ("away", "home"))
    away = _int(score["away"], f"{where}.score.away", 0, 9)
    home = _int(score["home"], f"{where}.score.home", 0, 9)
    if home > away:
        raise DataError(f"{where}.score: the home team (batting) must not lead, got {away}-{home}")
    runners = _list(data["runners"], f"{where}.runners")
    for r in runners:
        _int(r, f"{where}.runners", 1, 3)
    if len(set(runners)) != len(runners):
        raise DataError(f"{where}.runners: a base is listed twice: {show(runners)}")
    lineup = _keys(data["lineup"], f"{where}.lineup", ("rule", "bench"), ("pool",))
    rule = lineup["rule"]
    if rule not in LINEUP_RULES:
        raise DataError(f"{where}.lineup.rule: must be one of {', '.join(LINEUP_RULES)}, got {show(rule)}")
    if (rule == "pick_from") != ("pool" in lineup):
        raise DataError(f"{where}.lineup.pool: given exactly when the rule is 'pick_from'")
    pool = _int(lineup["pool"], f"{where}.lineup.pool", 7, 20) if "pool" in lineup else 0
    if data["pitcher"] not in PITCHER_DRAWS:
        raise DataError(f"{where}.pitcher: must be one of {', '.join(PITCHER_DRAWS)}, got {show(data['pitcher'])}")
    mp = _keys(data["mp"], f"{where}.mp", ("win", "run"))
    return Situation(
        data["id"], _text(data["name"], f"{where}.name"), data["home_opener"],
        PITCHES.index(data["pitch"]), (away, home), _int(data["outs"], f"{where}.outs", 0, 2),
        tuple(sorted(runners)), rule, pool, _int(lineup["bench"], f"{where}.lineup.bench", 0, 3),
        data["pitcher"], _int(data["extra_innings"], f"{where}.extra_innings", 0, 3),
        _int(mp["win"], f"{where}.mp.win", 0, 10), _int(mp["run"], f"{where}.mp.run", 0, 3),
        _text(data["text"], f"{where}.text", 400) if "text" in data else "")


def _effect_card(data: Any, where: str) -> EffectCard:
    _keys(data, where, ("id", "name", "pitch", "effect", "advanced"), ("text",))
    if data["pitch"] not in EFFECT_PITCHES:
        raise DataError(f"{where}.pitch: must be one of {', '.join(EFFECT_PITCHES)}, got {show(data['pitch'])}")
    effect = tuple(_op(o, f"{where}.effect[{i}]") for i, o in enumerate(_list(data["effect"], f"{where}.effect")))
    advanced = tuple(_op(o, f"{where}.advanced[{i}]")
                     for i, o in enumerate(_list(data["advanced"], f"{where}.advanced")))
    for side in ("batting", "pitching"):
        if sum(o.kind == "grant" and o.side == side for o in effect + advanced) > 1:
            raise DataError(f"{where}: at most one {side} grant per card (effect and advanced together)")
    return EffectCard(data["id"], _text(data["name"], f"{where}.name"), data["pitch"], effect, advanced,
                      _text(data["text"], f"{where}.text", 400) if "text" in data else "")


def parse_solo(data: Any, source: str) -> SoloSet:
    """Validate a solo set's data; ``source`` names it in every error (file, card, field)."""
    check_plain_data(data, source)
    _keys(data, source, ("set", "version", "default_chart", "charts", "situations", "effects"))
    name = _text(data["set"], f"{source}: set")
    if data["version"] != 1 or isinstance(data["version"], bool):
        raise DataError(f"{source}: version: must be 1, got {show(data['version'])}")
    default = _chart(data["default_chart"], f"{source}: default_chart")
    if not isinstance(data["charts"], dict):
        raise DataError(f"{source}: charts: must be an object of pitcher id: chart, got {show(data['charts'])}")
    charts = {str(k): _chart(v, f"{source}: charts[{k!r}]") for k, v in data["charts"].items()}
    ids: set[str] = set()
    parsed: dict[str, list] = {"situations": [], "effects": []}
    for kind, parse in (("situations", _situation), ("effects", _effect_card)):
        cards = _list(data[kind], f"{source}: {kind}")
        if not 7 <= len(cards) <= MAX_SOLO_CARDS:
            raise DataError(f"{source}: {kind}: must hold 7 to {MAX_SOLO_CARDS} cards (six games "
                            f"draw one each), got {len(cards)}")
        for i, card in enumerate(cards):
            cid = card.get("id") if isinstance(card, dict) else None
            label = f"{source}: {kind}[{i}]" + (f" ({cid!r})" if isinstance(cid, str) else "")
            if isinstance(card, dict) and "id" in card:
                _text(cid, f"{label}.id", 40)
                if cid in ids:
                    raise DataError(f"{label}.id: card id {cid!r} is used twice")
                ids.add(cid)
            parsed[kind].append(parse(card, label))
    openers = [s.id for s in parsed["situations"] if s.home_opener]
    if len(openers) != 1:
        raise DataError(f"{source}: situations: exactly one must be the home opener "
                        f"(home_opener true), got {len(openers)}: {show(openers)}")
    return SoloSet(name, tuple(parsed["situations"]), tuple(parsed["effects"]), charts, default,
                   json.dumps(data, sort_keys=True))


_CACHE: list[SoloSet] = []


def load_solo(solo: Any = "builtin") -> SoloSet:
    """The solo set: ``"builtin"`` (``data/solo.json``), a path to a JSON file, or a dict."""
    if isinstance(solo, SoloSet):
        return solo
    if isinstance(solo, dict):
        return parse_solo(solo, "solo set")
    if isinstance(solo, str) and solo == "builtin":
        if not _CACHE:
            _CACHE.append(parse_solo(read_json_file(SOLO_PATH, "solo card"),
                                     f"solo card file {str(SOLO_PATH.name)!r}"))
        return _CACHE[0]
    if isinstance(solo, (str, os.PathLike)):
        key = os.fsdecode(solo)
        return parse_solo(read_json_file(Path(solo), "solo card"), f"solo card file {key!r}")
    raise DataError(f"solo cards must be 'builtin', a path to a JSON file or a dict, got {show(solo)}")
