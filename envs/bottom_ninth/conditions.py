"""Condition Cards in the two-player duel (option ``condition``; RULES.md).

Rulebook, Condition Cards: "Condition Cards are global effects that can change the feel of a
game. The Condition Cards from the solo game may also be used in a two-player game, but it
should be noted that these are typically not balanced, providing one player with a handicap
that must be overcome!" The solo game's global cards are its Effect cards
(``data/solo.json``); a duel played with one applies the card's effect (its ``effect`` ops;
the Veteran ``advanced`` ops are the solo levels' and are not used) as the duel's meaning of
each op:

* ``trait``: a game-long trait of every card of its side (batting: every batter card,
  pitching: every pitcher card), written onto the game's copy of the card set;
* ``grant``: an ability usable once in the game by whoever plays its side, played as a
  shared support card (each manager may use it once while he plays that side);
* ``fatigue`` n: the starting pitcher's tokens start n rows down in all, the direction
  token first, alternately (the solo deck's cards are the Fatigue Track's rows here);
* ``runner`` b: a runner on base b at the first pitch (the batter before the first one up);
* ``out``: one more out at the start (at most 2); ``deficit`` n: the visitors lead by n;
* ``mp``: Manager Points, which the duel has not: no effect.

A card whose traits would take a card past the vocabulary's bounds (Speed or Fielding
outside -1..3, more than 3 stamina) cannot be played with a card set: :func:`playable`.
"""

from __future__ import annotations


from ..core.errors import DataError
from .cards import CardSet, with_traits
from .solo_cards import SoloSet, load_solo
from .support import SupportSet, parse_support

__all__ = ["condition_cards", "condition_supports", "playable", "condition_ops", "load_solo"]


def condition_ops(solo: SoloSet, index: int):
    """The ops a duel plays of Effect card ``index`` (its ``effect``, not ``advanced``)."""
    return solo.effects[index].ops(False)


def condition_cards(cards: CardSet, ops) -> CardSet:
    """The game's card set: the card's game-long traits on every card of their side. A
    :class:`DataError` when a card would go past the vocabulary's bounds."""
    traits = [o for o in ops if o.kind == "trait"]
    if not traits:
        return cards
    game = with_traits(cards, traits, "a Condition Card's traits")
    for i in range(len(game.cards)):
        for kind, low, high in (("speed", -1, 3), ("fielding", -1, 3), ("stamina", 0, 3)):
            if not low <= game.trait_by(i, kind) <= high:
                raise DataError(f"card {game.card(i).id!r} would have {kind} "
                                f"{game.trait_by(i, kind)} (the vocabulary's {low}..{high})")
    return game


def condition_supports(ops) -> SupportSet | None:
    """The card's once-a-game abilities as a support set (one card per grant), or None."""
    grants = [o for o in ops if o.kind == "grant"]
    if not grants:
        return None
    data = {"set": "condition card", "version": 1,
            "support": [{"id": f"condition-{o.side}", "name": f"Condition card ({o.side})",
                         "side": o.side, "grant": [e.to_dict() for e in o.grant]} for o in grants]}
    return parse_support(data, "the Condition Card's grants", least=1)


def playable(cards: CardSet, solo: SoloSet) -> tuple[int, ...]:
    """The Effect cards a duel with ``cards`` can be played with (traits within bounds, at
    most one grant)."""
    out = []
    for k in range(len(solo.effects)):
        ops = condition_ops(solo, k)
        if sum(o.kind == "grant" for o in ops) > 1:
            continue
        try:
            condition_cards(cards, ops)
        except DataError:
            continue
        out.append(k)
    return tuple(out)
