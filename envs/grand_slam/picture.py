"""The picture of a Harry's Grand Slam Baseball game (``render_mode="rgb_array"``): see
:mod:`dugout.envs.core.picture`.

Like the text render it shows the game to a spectator: the line score, each runner with
the card that put him on base, the inning and outs, the batter, both managers' hands
and PH/RP stacks (hidden from the other manager, shown to the spectator), the draw pile
and discards, who is to decide what, and the last play with who played its card.
"""

from __future__ import annotations

from ..core.picture import Scene, board_scene, half_name
from ..core.scorebook import ordinal
from . import rules
from .cards import CARD_TYPES, N_HAND_TYPES

__all__ = ["scene"]

_SIDES = ("away", "home")


def _hand(counts) -> str:
    return ", ".join(CARD_TYPES[c].label for c in range(N_HAND_TYPES)
                     for _ in range(counts[c])) or "no cards"


def scene(env, describe_play) -> Scene:
    """The scene of ``env``'s game now (read only: nothing in ``env`` changes);
    ``describe_play`` is the env module's sentence for a play (passed in, so that this
    module and the env's do not import each other)."""

    s = env.state_
    b = s.board
    runners = tuple(
        None if r is None else f"{rules.BATTER_NAMES[r]} ({_card(s.runner_cards[r])})"
        for r in b.bases)
    at_bat, hand, notes = "", "", ()
    if not b.over:
        at_bat = f"At bat for the {rules.TEAM_NAMES[b.half]}: {rules.BATTER_NAMES[s.batter]}"
        hand = "\n".join(
            f"{_SIDES[seat]} hand: {_hand(s.hands[seat])}; PH/RP stacks: {len(s.stacks[seat])}"
            for seat in (0, 1))
        shuffle = ordinal(b.inning + rules.innings_to_shuffle(b.inning) - 1)
        notes = (f"Draw pile: {len(s.deck)} cards; discards: {sum(s.discards)}; "
                 f"shuffle after the {shuffle}",)
    last = ""
    if s.log.plays:
        i = len(s.log.plays) - 1
        p = s.log.plays[i]
        last = f"{half_name(p.inning, p.half)}: {describe_play(p, s.played_by[i])}"
    return board_scene(env, rules.TEAM_NAMES, runners=runners, last_play=last,
                       at_bat=at_bat, hand=hand, notes=notes)


def _card(code) -> str:
    return "?" if code is None else CARD_TYPES[code].label
