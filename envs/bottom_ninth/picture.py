"""The picture of a Bottom of the 9th game (``render_mode="rgb_array"``): see
:mod:`dugout.envs.core.picture`. It shows what the text render shows (never the committed
pitch before the reveal): the board, the count, the pitcher's fatigue, the dice and the
last pitch."""

from __future__ import annotations

from ..core.picture import Scene, board_scene
from .cards import PITCHES

__all__ = ["scene"]


def scene(env, describe_play, team_names) -> Scene:
    """The scene of ``env``'s game now (read only); ``describe_play`` and ``team_names`` are
    the env module's (passed in, so that this module and the env's do not import each other)."""
    s = env.state_
    b = s.board
    cs = s.cards
    names = env._names()
    runners = tuple(None if r is None else names[r] for r in b.bases)
    at_bat = count = hand = ""
    notes: tuple[str, ...] = ()
    if not b.over and s.pitcher >= 0:
        at_bat = f"At bat: {cs.card(s.batter_card).name}"
        if s.mode == "game":
            at_bat = f"{'Top' if b.half == 0 else 'Bottom'} {b.inning}: " + at_bat
        count = f"{s.balls}-{s.strikes}"
        hand = (f"Pitching: {cs.card(s.pitcher).name}; fatigue rows {s.fatigue[0]}/{s.fatigue[1]} "
                f"of {s.fatigue_rows}")
        if s.thrown >= 0:
            dice = f"Threw {PITCHES[s.thrown]}, guessed {PITCHES[s.guess]}"
            if s.face:
                dice += f"; Pitch {s.face}, Control {s.control}"
            if s.swing:
                dice += f", Swing {s.swing}"
            notes = (dice,)
    last = s.last
    if s.log.plays:
        last = describe_play(s, s.log.plays[-1]) + (f" ({s.last})" if s.last else "")
    return board_scene(env, team_names(s), runners=runners, last_play=last, at_bat=at_bat,
                       count=count, hand=hand, notes=notes)
