"""Harry's Grand Slam Baseball cards: the card types and the deck.

Every card type of the Card Reference, in its order, with the number of copies it
lists. A card is its type code (an int); a deck is a list of codes. The reference
deck sums to 55 cards although the box says 54 (RULES.md, "The deck").

A different card set (say a 54-card box missing one card) is given as counts per
card name, as a dict or a JSON file holding that dict::

    {"single": 6, "double": 3, ..., "pinch_hitter": 4}

Names missing from it count 0. A card type has at most ``MAX_COPIES`` (99) copies and
the deck at most ``MAX_DECK_CARDS`` (999) cards, ten times the Card Reference's largest
count and eighteen times its deck (a shuffle and a game stay quick); ``pinch_hitter`` is
at most ``MAX_STACKS`` (4). Counts may be Python or numpy ints. A file is read with the
limits of ``dugout.envs.core.read_json_file`` (at most 1 MiB of UTF-8 JSON). Bad data
fails with :class:`~dugout.envs.core.DataError` naming the source, the card and what was
wrong.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..core.datafile import read_json_file
from ..core.errors import DataError, as_int, show, show_list

__all__ = [
    "CardType", "CARD_TYPES", "CARD_NAMES", "N_TYPES", "N_HAND_TYPES", "REFERENCE_COUNTS",
    "BOX_CARD_COUNT", "MAX_STACKS", "MAX_COPIES", "MAX_DECK_CARDS", "SINGLE", "DOUBLE", "TRIPLE", "HOME_RUN", "WALK",
    "HIT_BY_PITCH", "ERROR", "GROUND_OUT", "STRIKE_OUT", "FLY_OUT", "SACRIFICE_BUNT",
    "DOUBLE_PLAY", "WILD_PITCH", "PASSED_BALL", "STOLEN_BASE", "BALK", "PINCH_HITTER",
    "OUT_CARDS", "RUNNER_CARDS", "ON_BASE_CARDS", "load_deck", "deck_from_counts",
]


@dataclass(frozen=True)
class CardType:
    code: int
    name: str           # the key in a deck file: "single", "pinch_hitter", ...
    label: str          # as printed on the card
    group: str          # "on_base", "out", "runner" or "substitute"
    count: int          # copies in the Card Reference


# The Card Reference, in its order: ON-BASE, OUT, PINCH HITTER/RELIEF PITCHER, RUNNER.
# (PH/RP comes last here so that codes 0-15 are exactly the cards a hand can hold.)
CARD_TYPES: tuple[CardType, ...] = (
    CardType(0, "single", "Single", "on_base", 6),
    CardType(1, "double", "Double", "on_base", 3),
    CardType(2, "triple", "Triple", "on_base", 2),
    CardType(3, "home_run", "Home Run", "on_base", 2),
    CardType(4, "walk", "Walk", "on_base", 3),
    CardType(5, "hit_by_pitch", "Hit by Pitch", "on_base", 1),
    CardType(6, "error", "Error", "on_base", 2),
    CardType(7, "ground_out", "Ground Out", "out", 10),
    CardType(8, "strike_out", "Strike Out", "out", 11),
    CardType(9, "fly_out", "Fly Out", "out", 3),
    CardType(10, "sacrifice_bunt", "Sacrifice Bunt", "out", 2),
    CardType(11, "double_play", "Double Play", "out", 2),
    CardType(12, "wild_pitch", "Wild Pitch", "runner", 1),
    CardType(13, "passed_ball", "Passed Ball", "runner", 1),
    CardType(14, "stolen_base", "Stolen Base", "runner", 1),
    CardType(15, "balk", "Pitcher Balk", "runner", 1),
    CardType(16, "pinch_hitter", "Pinch Hitter/Relief Pitcher", "substitute", 4),
)

(SINGLE, DOUBLE, TRIPLE, HOME_RUN, WALK, HIT_BY_PITCH, ERROR, GROUND_OUT, STRIKE_OUT, FLY_OUT,
 SACRIFICE_BUNT, DOUBLE_PLAY, WILD_PITCH, PASSED_BALL, STOLEN_BASE, BALK,
 PINCH_HITTER) = range(17)

CARD_NAMES: tuple[str, ...] = tuple(c.name for c in CARD_TYPES)
N_TYPES = len(CARD_TYPES)
#: a hand never holds a PH/RP card (it goes on the table when drawn): codes 0-15
N_HAND_TYPES = PINCH_HITTER
REFERENCE_COUNTS: tuple[int, ...] = tuple(c.count for c in CARD_TYPES)
#: "WHAT'S IN THE BOX: ... 54 cards" (the reference's counts add up to 55)
BOX_CARD_COUNT = 54
#: a manager can hold at most this many PH/RP stacks (one per PH/RP card in the deck)
MAX_STACKS = 4

ON_BASE_CARDS = frozenset(c.code for c in CARD_TYPES if c.group == "on_base")
OUT_CARDS = frozenset(c.code for c in CARD_TYPES if c.group == "out")
RUNNER_CARDS = frozenset(c.code for c in CARD_TYPES if c.group == "runner")

#: the most copies of one card type in a deck (the Card Reference's most is 11)
MAX_COPIES = 99
#: the most cards in a deck (the Card Reference's deck has 55)
MAX_DECK_CARDS = 999
#: see ``check_counts``: enough cards that the draw pile and the discards never both run dry
SPARE_CARDS = 20


def deck_from_counts(counts: tuple[int, ...] | list[int]) -> list[int]:
    """The cards of a deck in code order (the order a fresh box is shuffled from)."""
    return [code for code, n in enumerate(counts) for _ in range(n)]


def check_counts(counts: tuple[int, ...], source: str) -> tuple[int, ...]:
    """Whole-deck checks: the game must be able to end and never run out of cards.

    A manager's hand, both hands, every PH/RP stack (two cards each), the bases and the
    cards behind home plate hold at most ``12 + 2 * PH/RP`` cards; a deck with
    ``SPARE_CARDS`` more non-PH/RP cards than twice its PH/RP cards always has cards in
    the draw pile or the discards when a manager draws.
    """
    if len(counts) != N_TYPES:
        raise DataError(f"{source}: a deck has a count for each of the {N_TYPES} card types, "
                        f"got {len(counts)} counts")
    for name, n in zip(CARD_NAMES, counts):
        if not 0 <= n <= MAX_COPIES:
            raise DataError(f"{source}: card {name!r}: the count must be 0 to {MAX_COPIES} "
                            f"(MAX_COPIES), got {show(n)}")
    if sum(counts) > MAX_DECK_CARDS:
        raise DataError(f"{source}: the deck has {sum(counts):,} cards; at most {MAX_DECK_CARDS} "
                        f"(MAX_DECK_CARDS)")
    ph = counts[PINCH_HITTER]
    if ph > MAX_STACKS:
        raise DataError(f"{source}: 'pinch_hitter' may be at most {MAX_STACKS} (the action space "
                        f"has one action per PH/RP stack), got {ph}")
    if not any(counts[c] for c in OUT_CARDS):
        raise DataError(f"{source}: the deck needs at least one out card "
                        f"({', '.join(CARD_NAMES[c] for c in sorted(OUT_CARDS))}) or no inning ends")
    others = sum(counts) - ph
    if others < 2 * ph + SPARE_CARDS:
        raise DataError(f"{source}: the deck needs at least {2 * ph + SPARE_CARDS} cards other than "
                        f"pinch_hitter (twice the PH/RP cards plus {SPARE_CARDS}), got {others}")
    return counts


def counts_from_dict(data: Any, source: str) -> tuple[int, ...]:
    if not isinstance(data, dict):
        raise DataError(f"{source}: a deck is an object of counts per card name "
                        f"({', '.join(CARD_NAMES)}), got {type(data).__name__}")
    unknown = [k for k in data if k not in CARD_NAMES]
    if unknown:
        raise DataError(f"{source}: unknown card name(s) {show_list(unknown)}; card names are "
                        f"{', '.join(CARD_NAMES)}")
    counts = []
    for name in CARD_NAMES:
        raw = data.get(name, 0)
        n = as_int(raw)
        if n is None or n < 0:
            raise DataError(f"{source}: card {name!r}: the count must be a non-negative int, "
                            f"got {show(raw)}")
        if n > MAX_COPIES:
            raise DataError(f"{source}: card {name!r}: the count must be at most {MAX_COPIES} "
                            f"(MAX_COPIES), got {show(raw)}")
        counts.append(n)
    return check_counts(tuple(counts), source)


def load_deck(spec: Any = None) -> tuple[int, ...]:
    """Counts per card type: ``None`` or ``"reference"`` for the Card Reference's deck,
    a dict of counts per card name, or a path to a JSON file holding one."""
    if spec is None or (isinstance(spec, str) and spec == "reference"):
        return REFERENCE_COUNTS
    if isinstance(spec, dict):
        return counts_from_dict(spec, "deck")
    if isinstance(spec, (str, os.PathLike)):
        path = os.fsdecode(spec)
        if not os.path.lexists(path):
            raise DataError(f"deck file {path!r} does not exist (use 'reference', a dict of "
                            f"counts or a JSON file)")
        return counts_from_dict(read_json_file(path, "deck"), path)
    raise DataError(f"deck must be 'reference', a dict of counts per card name or a path to a "
                    f"JSON file, got {type(spec).__name__} {show(spec)}")


def _check_reference() -> None:
    """The Card Reference's counts, as printed (checked on import)."""
    assert [c.code for c in CARD_TYPES] == list(range(len(CARD_TYPES)))
    assert sum(REFERENCE_COUNTS) == 55, sum(REFERENCE_COUNTS)
    check_counts(REFERENCE_COUNTS, "the Card Reference")


_check_reference()
