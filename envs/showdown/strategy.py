"""MLB Showdown's strategy cards: an original card set as data, and the decks built from it.

The rulebook gives the deck rules and the moments cards are played, but prints no card
("Strategy Cards" and "Complete At-Bat Sequence"). dugout ships its own set, written in the
rulebook's spirit (``data/strategy/cards.json``, listed in ``data/strategy/CARDS.md``), in
a small effect vocabulary the engine interprets. A card::

    {"name": "Paint the Corner", "color": "defense", "timing": "before_pitch",
     "text": "Play before the pitch: +2 to the pitch.",
     "requires": {"outs": [0, 1, 2]},
     "effect": [{"do": "pitch", "by": 2}],
     "icon_bonus": {"icon": "K", "player": "pitcher", "effect": [{"do": "pitch", "by": 1}]},
     "lasts": "at_bat"}

* ``color``: ``offense`` (red: "only when your team is at the plate"), ``defense`` (blue:
  "only when your team is in the field") or ``utility`` (either).
* ``timing``: ``before_pitch`` (At-Bat Sequence 5), ``on_result`` ("usable only between
  rolling for the swing and applying the result", step 7) or ``after_result`` ("usable only
  after carrying out that kind of result", step 9).
* ``requires`` (optional; every condition must hold, for the card's owner):
  ``results`` (the swing's result: on_result, after_result), ``outs`` (list),
  ``runners`` (list of: none, any, first, second, third, scoring, second_open,
  third_open), ``inning_from``, ``chart`` (P or B: whose chart the swing was read on),
  ``matchup`` (same or opposite: how the batter bats against how the pitcher throws,
  "A switch-hitter bats lefty against right-handed pitchers"), ``batter_speed`` and
  ``runner_speed`` (Speed letters of the batter, of the lead runner), ``pitcher_role``
  (starter, reliever, closer), ``score`` (ahead, behind, tied or close: within one run),
  ``home`` (true or false: the owner is the home team), ``innings`` (a list of innings:
  the card is played only in them), ``natural_20`` (true: the swing's die shows a natural
  20; on_result, after_result) and ``runs_allowed`` (the pitcher on the mound has been
  charged at least this many runs).
* ``effect``: what the card does, in order (``EFFECTS`` lists each with its fields and
  timings): ``pitch``/``swing``/``edge`` (+-N to the pitch total, to the swing's roll, to
  the owner's own roll), ``reroll_swing``, ``result`` (change the result), ``check`` (a
  Fielding check, "the defense rolls a die and adds the requested players' total
  Fielding to the roll. If the total is 21 or more, the check passes": ``positions``
  infield, outfield or first, plus ``bonus``; then ``then``'s effects on a pass, or on a
  fail with ``"on": "fail"``), ``advance`` (``runners`` all, lead or third move up
  ``bases``), ``runner_out`` (the runner on first, or the lead runner), ``steal`` (the lead
  runner, or all who can, or ``home``: the runner on third steals home, "A runner can't
  steal home without strategy cards"; with or without the catcher's ``throw``), ``draw``,
  ``discard`` (the opponent discards at random), ``discard_own`` (the owner discards ``n``
  other cards from his hand at random: a card with it is playable only while he holds
  them), ``starter_out`` (the opposing starter leaves the game and the defense brings in
  a reliever or closer at once: "a strategy card forces him out"), ``squeeze`` (the batter
  bunts with the runner on third: "Some strategy cards may allow you to bunt a runner in
  from third base"), ``ip`` (the pitcher's IP for the rest of the game),
  ``throw_bonus``, ``dp_bonus`` and ``catcher_bonus`` (+-N to the outfield's throws, to
  the double-play roll, to the catcher's throws at stealing runners), ``no_double_play``,
  and ``hold_runners`` (no extra-base tries on this play). After a result, "runners" are
  those on base before it, never the batter.
* ``icon_bonus`` (optional): "Strategy cards with the special ability icons have an extra
  bonus in addition to the normal bonus": its effects are carried out after the card's own
  (before a closing steal, so a bonus to the catcher's throw is in force for it; a result
  change in the bonus has the last word) when ``player`` (pitcher,
  batter, lead_runner, catcher, or own: the owner's batter on offense, pitcher on defense)
  has the ``icon``.
* ``lasts``: ``at_bat`` (the default: "discarded at the end of each at-bat") or ``inning``
  (the card stays in play, its pitch, swing, edge and bonus effects in force for every
  at-bat, until the half inning ends) or ``game`` (the card stays in play for the rest of
  the game; its effects are in force in every at-bat in which its owner could play it: a
  defense card while he is in the field, an offense card while he bats).

A deck: ``{"name": "...", "cards": {"Paint the Corner": 4, ...}}``, 60 cards ("you may
build a deck of 60 strategy cards"), at most 4 of a name ("you don't have more than 4 cards
with the same name in your deck"); ``"card_set"`` (optional) names the built-in card set
its cards come from (``hooks``: the 44 cards and the hook cards of
``data/strategy/hook_cards.json``; a game given no card set plays the set its decks name).
``load_deck("default")`` is the built-in deck; ``load_card_set("hooks")`` the larger set.
Every problem is a :class:`DataError` naming the file, the card and the field.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any, Mapping

from ..core.datafile import check_plain_data, read_json_file
from ..core.errors import DataError, show
from .cards import RESULTS

__all__ = ["StrategyCard", "Effect", "CardSet", "Deck", "load_card_set", "load_deck",
           "COLORS", "TIMINGS", "EFFECTS", "DECK_SIZE", "MAX_COPIES", "builtin_deck_names",
           "cards_markdown", "CARD_SETS", "deck_card_set", "card_list_markdown"]

COLORS = ("offense", "defense", "utility")
TIMINGS = ("before_pitch", "on_result", "after_result")
DECK_SIZE = 60
MAX_COPIES = 4
LASTS = ("at_bat", "inning", "game")
#: the built-in card sets: the 44 original cards, and those with the hook cards after them
CARD_SETS = ("default", "hooks")
RUNNER_TOKENS = ("none", "any", "first", "second", "third", "scoring", "second_open", "third_open")
SCORES = ("ahead", "behind", "tied", "close")
ROLES = ("starter", "reliever", "closer")
LETTERS = ("A", "B", "C")
POSITION_GROUPS = ("infield", "outfield", "first")    # (catchers have +0 Fielding)
RUNNER_GROUPS = ("all", "lead", "third", "first")
#: the runners each effect may name
_RUNNERS_OF = {"steal": ("lead", "all", "home"), "advance": ("all", "lead", "third"),
               "runner_out": ("first", "lead")}
ICON_PLAYERS = ("pitcher", "batter", "lead_runner", "catcher", "own")

_ANY = TIMINGS
#: effect -> (its fields: name -> kind, the timings it may be played at)
EFFECTS: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "pitch": ({"by": "int"}, ("before_pitch",)),
    "swing": ({"by": "int"}, ("before_pitch",)),
    "edge": ({"by": "int"}, ("before_pitch",)),
    "reroll_swing": ({}, ("on_result",)),
    "result": ({"to": "result"}, ("on_result",)),
    "check": ({"positions": "positions", "bonus": "int?", "on": "pass_fail?", "then": "effects"},
              _ANY),
    "advance": ({"runners": "runners", "bases": "int"}, ("after_result", "before_pitch")),
    "runner_out": ({"runners": "runners"}, ("before_pitch", "after_result")),
    "steal": ({"runners": "runners", "throw": "bool"}, ("before_pitch",)),
    "draw": ({"n": "int"}, _ANY),
    "discard": ({"n": "int"}, _ANY),
    "discard_own": ({"n": "int"}, _ANY),
    "starter_out": ({}, ("before_pitch",)),
    "squeeze": ({}, ("before_pitch",)),
    "ip": ({"by": "int"}, _ANY),
    "throw_bonus": ({"by": "int"}, ("before_pitch", "on_result")),
    "catcher_bonus": ({"by": "int"}, ("before_pitch",)),
    "dp_bonus": ({"by": "int"}, ("before_pitch", "on_result")),
    "no_double_play": ({}, ("before_pitch", "on_result")),
    "hold_runners": ({}, ("on_result",)),
}
_REQUIRES = ("results", "outs", "runners", "inning_from", "chart", "matchup", "batter_speed",
             "runner_speed", "pitcher_role", "score", "home", "innings", "natural_20",
             "runs_allowed")
_CARD_FIELDS = {"name", "color", "timing", "text", "requires", "effect", "icon_bonus", "lasts", "id"}
_INT_LIMIT = 10


@dataclass(frozen=True)
class Effect:
    """One step of a card: ``do`` and its fields (``then``: the effects of a check)."""
    do: str
    by: int = 0
    to: str = ""
    positions: str = ""
    bonus: int = 0
    on: str = "pass"
    then: tuple["Effect", ...] = ()
    runners: str = ""
    bases: int = 0
    throw: bool = False
    n: int = 0


@dataclass(frozen=True)
class StrategyCard:
    name: str
    color: str
    timing: str
    text: str
    requires: tuple[tuple[str, Any], ...]
    effect: tuple[Effect, ...]
    icon: str = ""                       # icon_bonus: the icon,
    icon_player: str = ""                # whose card must show it,
    icon_effect: tuple[Effect, ...] = ()  # and what it adds
    lasts: str = "at_bat"

    def condition(self, key: str, default: Any = None) -> Any:
        for k, v in self.requires:
            if k == key:
                return v
        return default


@dataclass(frozen=True)
class CardSet:
    """A set of strategy cards, one per name; ``names`` orders them (the action space)."""
    name: str
    cards: tuple[StrategyCard, ...]
    raw: Any = field(default=None, compare=False, repr=False)   # the data it was read from

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.cards)

    @cached_property
    def _indices(self) -> dict[str, int]:
        """Each name's (first) index, looked up at every card played."""
        indices: dict[str, int] = {}
        for i, name in enumerate(self.names):
            indices.setdefault(name, i)
        return indices

    def card(self, name: str) -> StrategyCard:
        i = self._indices.get(name)
        if i is None:
            raise KeyError(name)
        return self.cards[i]

    def index(self, name: str) -> int:
        i = self._indices.get(name)
        if i is None:
            raise ValueError(f"{name!r} is not a card of the set {self.name!r}")
        return i


@dataclass(frozen=True)
class Deck:
    """A 60-card deck: (name, copies) in the card set's order."""
    name: str
    counts: tuple[tuple[str, int], ...]

    def cards(self) -> list[str]:
        """Every card of the deck, unshuffled, in the card set's order."""
        return [name for name, n in self.counts for _ in range(n)]


# ================================================================== loading

def _fail(where: str, message: str) -> DataError:
    return DataError(f"{where}: {message}")


def _int(value: Any, where: str, lo: int = -_INT_LIMIT, hi: int = _INT_LIMIT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(where, f"must be an integer from {lo} to {hi}, got {show(value)}")
    return value


def _choice(value: Any, allowed: tuple[str, ...], where: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise _fail(where, f"must be one of {', '.join(allowed)}, got {show(value)}")
    return value


def _choices(value: Any, allowed: tuple, where: str) -> tuple:
    if not isinstance(value, list) or not value:
        raise _fail(where, f"must be a non-empty list of {', '.join(map(str, allowed))}, "
                           f"got {show(value)}")
    for i, v in enumerate(value):
        if isinstance(v, bool) or v not in allowed:
            raise _fail(f"{where}[{i}]", f"must be one of {', '.join(map(str, allowed))}, "
                                         f"got {show(v)}")
    return tuple(value)


def _effects(raw: Any, timing: str, where: str) -> tuple[Effect, ...]:
    if not isinstance(raw, list) or not raw:
        raise _fail(where, f"must be a non-empty list of effects, got {show(raw)}")
    return tuple(_effect(e, timing, f"{where}[{i}]") for i, e in enumerate(raw))


def _effect(raw: Any, timing: str, where: str) -> Effect:
    if not isinstance(raw, dict):
        raise _fail(where, f"an effect must be an object with 'do', got {show(raw)}")
    do = raw.get("do")
    if do not in EFFECTS:
        raise _fail(f"{where}.do", f"must be one of {', '.join(EFFECTS)}, got {show(do)}")
    fields, timings = EFFECTS[do]
    if timing not in timings:
        raise _fail(f"{where}.do", f"{do!r} cannot be played {timing} (only {', '.join(timings)})")
    unknown = set(raw) - set(fields) - {"do"}
    if unknown:
        raise _fail(where, f"unknown field(s) {sorted(unknown)} for {do!r}; its fields are "
                           f"{sorted(f.rstrip('?') for f in fields) or 'none'}")
    out: dict[str, Any] = {"do": do}
    for name, kind in fields.items():
        optional = kind.endswith("?")
        kind = kind.rstrip("?")
        here = f"{where}.{name}"
        if name not in raw:
            if optional:
                continue
            raise _fail(where, f"missing field {name!r} for {do!r}")
        value = raw[name]
        if kind == "int":
            out[name] = _int(value, here, *((1, 3) if name in ("n", "bases") else ()))
        elif kind == "result":
            out[name] = _choice(value, RESULTS, here)
        elif kind == "positions":
            out[name] = _choice(value, POSITION_GROUPS, here)
        elif kind == "pass_fail":
            out[name] = _choice(value, ("pass", "fail"), here)
        elif kind == "runners":
            out[name] = _choice(value, _RUNNERS_OF[do], here)
        elif kind == "bool":
            if not isinstance(value, bool):
                raise _fail(here, f"must be true or false, got {show(value)}")
            out[name] = value
        elif kind == "effects":
            out[name] = _effects(value, timing, here)
    return Effect(**out)


def _requires(raw: Any, timing: str, where: str) -> tuple[tuple[str, Any], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise _fail(where, f"must be an object of conditions, got {show(raw)}")
    out = []
    for key, value in raw.items():
        here = f"{where}.{key}"
        if key not in _REQUIRES:
            raise _fail(here, f"unknown condition; the conditions are {', '.join(_REQUIRES)}")
        if key == "results":
            if timing == "before_pitch":
                raise _fail(here, "a card played before the pitch has no result to require")
            value = _choices(value, RESULTS, here)
        elif key == "outs":
            value = _choices(value, (0, 1, 2), here)
        elif key == "runners":
            value = _choices(value, RUNNER_TOKENS, here)
        elif key == "inning_from":
            value = _int(value, here, 1, 99)
        elif key == "chart":
            if timing == "before_pitch":
                raise _fail(here, "a card played before the pitch has no chart to require")
            value = _choice(value, ("P", "B"), here)
        elif key == "matchup":
            value = _choice(value, ("same", "opposite"), here)
        elif key in ("batter_speed", "runner_speed"):
            value = _choices(value, LETTERS, here)
        elif key == "pitcher_role":
            value = _choices(value, ROLES, here)
        elif key == "score":
            value = _choice(value, SCORES, here)
        elif key == "innings":
            value = _choices(value, tuple(range(1, 100)), here)
        elif key == "runs_allowed":
            value = _int(value, here, 0, 99)
        elif key in ("home", "natural_20"):
            if key == "natural_20" and timing == "before_pitch":
                raise _fail(here, "a card played before the pitch has no swing to require")
            if not isinstance(value, bool):
                raise _fail(here, f"must be true or false, got {show(value)}")
        out.append((key, value))
    return tuple(out)


def _throw_last(effects: tuple[Effect, ...], where: str, last_allowed: bool) -> None:
    """The catcher's decision ends a card: a steal he may throw at must be the last effect
    of the card's own list (never in an icon bonus or a check)."""
    for i, e in enumerate(effects):
        if e.do == "steal" and e.throw and not (last_allowed and i == len(effects) - 1):
            raise _fail(f"{where}[{i}]", "a steal the catcher may throw at must be the card's "
                                         "last effect (not in an icon bonus or a check)")
        if e.then:
            _throw_last(e.then, f"{where}[{i}].then", last_allowed=False)


def card_from_dict(raw: Any, where: str) -> StrategyCard:
    if not isinstance(raw, dict):
        raise _fail(where, f"a card must be an object, got {show(raw)}")
    unknown = set(raw) - _CARD_FIELDS
    if unknown:
        raise _fail(where, f"unknown field(s) {sorted(unknown)}; a card's fields are "
                           f"{', '.join(sorted(_CARD_FIELDS))}")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        raise _fail(f"{where}.name", f"must be a non-empty string of at most 40 characters, "
                                     f"got {show(name)}")
    where = f"{where} ({name!r})"
    color = _choice(raw.get("color"), COLORS, f"{where}.color")
    timing = _choice(raw.get("timing"), TIMINGS, f"{where}.timing")
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip():
        raise _fail(f"{where}.text", f"must be the card's rules text, got {show(text)}")
    requires = _requires(raw.get("requires"), timing, f"{where}.requires")
    if "effect" not in raw:
        raise _fail(where, "missing field 'effect'")
    effect = _effects(raw["effect"], timing, f"{where}.effect")
    _throw_last(effect, f"{where}.effect", last_allowed=True)
    icon = player = ""
    icon_effect: tuple[Effect, ...] = ()
    if "icon_bonus" in raw:
        bonus = raw["icon_bonus"]
        here = f"{where}.icon_bonus"
        if not isinstance(bonus, dict) or set(bonus) != {"icon", "player", "effect"}:
            raise _fail(here, f"must be an object with icon, player and effect, got {show(bonus)}")
        from .cards import HITTER_ICONS, PITCHER_ICONS
        icon = _choice(bonus["icon"], tuple(dict.fromkeys(HITTER_ICONS + PITCHER_ICONS)),
                       f"{here}.icon")
        player = _choice(bonus["player"], ICON_PLAYERS, f"{here}.player")
        icon_effect = _effects(bonus["effect"], timing, f"{here}.effect")
        _throw_last(icon_effect, f"{here}.effect", last_allowed=False)
    lasts = _choice(raw.get("lasts", "at_bat"), LASTS, f"{where}.lasts")
    return StrategyCard(name, color, timing, text, requires, effect, icon, player, icon_effect,
                        lasts)


def card_set_from_dict(raw: Any, source: str = "card set") -> CardSet:
    check_plain_data(raw, source)
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list) or not raw["cards"]:
        raise _fail(source, "must be an object with a non-empty 'cards' list")
    name = raw.get("name", "card set")
    if not isinstance(name, str):
        raise _fail(f"{source}.name", f"must be a string, got {show(name)}")
    cards = tuple(card_from_dict(c, f"{source}: cards[{i}]") for i, c in enumerate(raw["cards"]))
    seen: set[str] = set()
    for i, c in enumerate(cards):
        if c.name in seen:
            raise _fail(f"{source}: cards[{i}].name", f"{c.name!r} is listed twice")
        seen.add(c.name)
    return CardSet(name, cards, raw)


_BUILTIN: dict[str, CardSet] = {}


def _builtin_card_set(name: str) -> CardSet:
    """``default``: the 44 cards of ``cards.json``; ``hooks``: those, then the hook cards of
    ``hook_cards.json`` (the default set's indices unchanged)."""
    if name not in _BUILTIN:
        folder = resources.files(__package__).joinpath("data/strategy")
        raw = json.loads(folder.joinpath("cards.json").read_text("utf-8"))
        if name == "hooks":
            hooks = json.loads(folder.joinpath("hook_cards.json").read_text("utf-8"))
            raw = {"name": hooks["name"], "cards": raw["cards"] + hooks["cards"]}
        _BUILTIN[name] = card_set_from_dict(raw, f"built-in card set {name!r}"
                                            if name != "default" else "built-in card set")
    return _BUILTIN[name]


def load_card_set(spec: Any = None) -> CardSet:
    """A card set: None or ``"default"`` for dugout's own, ``"hooks"`` for it with the hook
    cards, a JSON path (a ``str`` or an ``os.PathLike`` such as a ``pathlib.Path``), a dict
    or a CardSet."""
    if isinstance(spec, CardSet):
        return spec
    if spec is None or spec in CARD_SETS:
        return _builtin_card_set(spec or "default")
    if isinstance(spec, dict):
        return card_set_from_dict(spec)
    if isinstance(spec, (str, os.PathLike)):
        return card_set_from_dict(read_json_file(spec, "card set"), repr(os.fsdecode(spec)))
    raise DataError(f"a card set must be None, 'default', a JSON path, a dict or a CardSet, "
                    f"got {type(spec).__name__}")


def cards_markdown(card_set: CardSet, deck: Deck | None = None) -> str:
    """The card set as a Markdown table (name, colour, timing, text, and the copies in
    ``deck``): ``data/strategy/CARDS.md`` is this of the built-in set and deck."""
    copies = dict(deck.counts) if deck is not None else {}
    head = "| card | colour | played | text |" + (" copies |" if deck else "")
    rows = [f"# {card_set.name}", "",
            f"{len(card_set.cards)} cards" + (f"; the {deck.name!r} deck's copies of each "
                                             f"({sum(copies.values())} cards)" if deck else "")
            + ". Generated from cards.json by `dugout.envs.showdown.strategy.cards_markdown`.",
            "", head, "|---|---|---|---|" + ("---|" if deck else "")]
    for c in card_set.cards:
        row = f"| {c.name} | {c.color} | {c.timing.replace('_', ' ')} | {c.text} |"
        rows.append(row + (f" {copies.get(c.name, 0)} |" if deck else ""))
    return "\n".join(rows) + "\n"


def card_list_markdown() -> str:
    """``data/strategy/CARDS.md``: the built-in set with the default deck's copies, then the
    hook cards with the ``hooks`` deck's."""
    base = load_card_set("default")
    hooks = load_card_set("hooks")
    extra = CardSet("Hook cards", hooks.cards[len(base.cards):])
    deck = load_deck("hooks", hooks)
    in_extra = set(extra.names)
    hook_deck = Deck("hooks", tuple((n, k) for n, k in deck.counts if n in in_extra))
    intro = ("The `hooks` deck (`decks=\"hooks\"`, with the card set `hooks`: the 44 cards "
             "above, then these) uses them; the copies are that deck's, which fills the "
             "rest of its 60 cards from the cards above.\n\n")
    part = cards_markdown(extra, hook_deck).replace("# Hook cards\n\n", "## Hook cards\n\n" + intro)
    part = part.replace("Generated from cards.json", "Generated from hook_cards.json")
    return cards_markdown(base, load_deck("default", base)) + "\n" + part


def _effect_to_dict(e: Effect) -> dict[str, Any]:
    out: dict[str, Any] = {"do": e.do}
    for name in EFFECTS[e.do][0]:
        value = getattr(e, name)
        if name == "then":
            out[name] = [_effect_to_dict(t) for t in value]
        elif name in ("bonus", "on") and value == Effect.__dataclass_fields__[name].default:
            continue
        else:
            out[name] = value
    return out


def card_set_to_dict(card_set: CardSet) -> dict[str, Any]:
    """A card set as the JSON data :func:`card_set_from_dict` reads back."""
    cards = []
    for c in card_set.cards:
        d: dict[str, Any] = {"name": c.name, "color": c.color, "timing": c.timing, "text": c.text}
        if c.requires:
            d["requires"] = {k: list(v) if isinstance(v, tuple) else v for k, v in c.requires}
        d["effect"] = [_effect_to_dict(e) for e in c.effect]
        if c.icon:
            d["icon_bonus"] = {"icon": c.icon, "player": c.icon_player,
                               "effect": [_effect_to_dict(e) for e in c.icon_effect]}
        if c.lasts != "at_bat":
            d["lasts"] = c.lasts
        cards.append(d)
    return {"name": card_set.name, "cards": cards}


def builtin_deck_names() -> list[str]:
    folder = resources.files(__package__).joinpath("data/strategy/decks")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def deck_card_set(spec: Any) -> str:
    """The built-in card set a deck names (``"card_set"``; ``default`` when it names none):
    a game given decks and no card set plays this set."""
    raw = spec
    if isinstance(spec, str) and not spec.endswith(".json") and spec in builtin_deck_names():
        raw = json.loads(resources.files(__package__).joinpath(
            f"data/strategy/decks/{spec}.json").read_text("utf-8"))
    if isinstance(raw, Mapping):
        name = raw.get("card_set", "default")
        return _choice(name, CARD_SETS, f"deck {raw.get('name', 'deck')!r}.card_set")
    return "default"


def deck_from_dict(raw: Any, card_set: CardSet, source: str = "deck") -> Deck:
    check_plain_data(raw, source)
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), dict):
        raise _fail(source, "must be an object with a 'cards' object (card name -> copies)")
    if "card_set" in raw:
        _choice(raw["card_set"], CARD_SETS, f"{source}.card_set")
    name = raw.get("name", "deck")
    if not isinstance(name, str):
        raise _fail(f"{source}.name", f"must be a string, got {show(name)}")
    counts = {}
    for card, n in raw["cards"].items():
        here = f"{source}: cards[{card!r}]"
        if card not in card_set.names:
            raise _fail(here, f"no card of that name in {card_set.name!r}")
        counts[card] = _int(n, here, 1, MAX_COPIES)
    total = sum(counts.values())
    if total != DECK_SIZE:
        raise _fail(source, f"a deck holds {DECK_SIZE} strategy cards, this one {total}")
    return Deck(name, tuple((c, counts[c]) for c in card_set.names if c in counts))


def load_deck(spec: Any, card_set: CardSet) -> Deck:
    """A deck: a built-in name (``"default"``), a JSON path (a ``str`` ending in ``.json``,
    or any ``os.PathLike`` such as a ``pathlib.Path``), a dict or a Deck."""
    if isinstance(spec, Deck):                  # the same rules as a file's
        return deck_from_dict({"name": spec.name, "cards": dict(spec.counts)}, card_set,
                              f"deck {spec.name!r}")
    if isinstance(spec, str) and not spec.endswith(".json"):
        if spec not in builtin_deck_names():
            raise DataError(f"unknown deck {spec!r}: use a built-in deck "
                            f"({', '.join(builtin_deck_names())}), a JSON path or a dict")
        raw = resources.files(__package__).joinpath(f"data/strategy/decks/{spec}.json")
        return deck_from_dict(json.loads(raw.read_text("utf-8")), card_set, f"built-in deck {spec!r}")
    if isinstance(spec, (str, os.PathLike)):
        return deck_from_dict(read_json_file(spec, "deck"), card_set, repr(os.fsdecode(spec)))
    if isinstance(spec, Mapping):
        return deck_from_dict(dict(spec), card_set)
    raise DataError(f"a deck must be a built-in name, a JSON path, a dict or a Deck, "
                    f"got {type(spec).__name__}")
