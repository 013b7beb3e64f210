"""The picture of a Harry's Grand Slam Baseball game (``render_mode="rgb_array"``): see
:mod:`dugout.envs.core.picture`.

Like the text render it shows what its viewer may know (the env's ``render_agent``: by
default the manager to act): the line score, each runner with the card that put him on
base, the inning and outs, the batter, the viewer's hand and the size of the other (both
hands only for ``render_agent="spectator"``), each manager's PH/RP stacks, the draw pile
and discards, who is to decide what (the options only for the viewer who decides, or the
spectator), and the last play with who played its card.
"""

from __future__ import annotations

import dataclasses

from ..core.picture import Scene, board_scene, half_name
from ..core.scorebook import ordinal
from . import rules
from .cards import CARD_TYPES

__all__ = ["scene"]


def scene(env, describe_play, hand_line) -> Scene:
    """The scene of ``env``'s game now, as its ``render_agent`` may see it (read only:
    nothing in ``env`` changes); ``describe_play`` and ``hand_line`` are the env module's
    sentence for a play and line for a hand (passed in, so that this module and the env's
    do not import each other)."""

    s = env.state_
    b = s.board
    runners = tuple(
        None if r is None else f"{rules.BATTER_NAMES[r]} ({_card(s.runner_cards[r])})"
        for r in b.bases)
    seats = env.render_seats()
    at_bat, hand, notes = "", "", ()
    if not b.over:
        at_bat = f"At bat for the {rules.TEAM_NAMES[b.half]}: {rules.BATTER_NAMES[s.batter]}"
        hand = "\n".join(hand_line(s, seat, seat in seats) for seat in (0, 1))
        shuffle = ordinal(b.inning + rules.innings_to_shuffle(b.inning) - 1)
        notes = (f"Draw pile: {len(s.deck)} cards; discards: {sum(s.discards)}; "
                 f"shuffle after the {shuffle}",)
    last = ""
    if s.log.plays:
        i = len(s.log.plays) - 1
        p = s.log.plays[i]
        last = f"{half_name(p.inning, p.half)}: {describe_play(p, s.played_by[i])}"
    out = board_scene(env, rules.TEAM_NAMES, runners=runners, last_play=last,
                      at_bat=at_bat, hand=hand, notes=notes)
    if out.options and not env._shows_options(seats):
        # the options of a decision the viewer does not make name the other hand's cards
        out = dataclasses.replace(out, options=())
    return out


def _card(code) -> str:
    return "?" if code is None else CARD_TYPES[code].label
