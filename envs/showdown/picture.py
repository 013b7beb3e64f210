"""The picture of an MLB Showdown game (``render_mode="rgb_array"``): see
:mod:`dugout.envs.core.picture`.

Like the text render it shows the line score, each runner with his Speed, the inning and
outs, the batter (On-Base) against the pitcher (Control, IP, fatigue), who is to decide
what, and the last play. Showdown has no balls and strikes: its "count" is the at-bat
so far, the pitch total and whose chart the swing reads, then the swing and its result.
"""

from __future__ import annotations

from ..core.picture import Scene, board_scene, half_name
from . import rules
from .cards import PitcherCard

__all__ = ["scene"]


def scene(env, describe_play) -> Scene:
    """The scene of ``env``'s game now (read only: nothing in ``env`` changes);
    ``describe_play`` is the env module's sentence for a play (passed in, so that this
    module and the env's do not import each other)."""

    s = env.state_
    b = s.board
    bt, ft = b.half, 1 - b.half
    runners = tuple(None if r is None else f"{s.card(bt, r).name} (Spd {s.card(bt, r).speed})"
                    for r in b.bases)
    at_bat = count = ""
    notes: tuple[str, ...] = ()
    if not b.over and s.step == "set_lineups":     # no lineup is shown until both are set
        at_bat = "The managers are setting their starting lineups"
        notes = (f"{s.level.capitalize()} game, {'DH' if s.dh else 'no DH'}",)
    elif not b.over:
        batter = s.card(bt, s.batter_index)
        ob = "a pitcher batting" if isinstance(batter, PitcherCard) else f"On-Base {batter.on_base}"
        p = s.pitcher[ft]
        if p is None or p < 0:
            at_bat = f"{batter.name} ({ob}); no pitcher chosen yet"
        else:
            pitcher = s.card(ft, p)
            at_bat = (f"{batter.name} ({ob}) faces {pitcher.name} (Control {pitcher.control}, "
                      f"IP {pitcher.ip}, fatigue -{rules.fatigue(s, ft, p)})")
        count = _count(s.ab)
        notes = (f"{s.level.capitalize()} game, {'DH' if s.dh else 'no DH'}",)
    last = ""
    if s.log.plays:
        i = len(s.log.plays) - 1
        p = s.log.plays[i]
        last = f"{half_name(p.inning, p.half)}: {describe_play(s, p, s.log_extra[i])}"
    return board_scene(env, [t.name for t in s.teams], runners=runners, last_play=last,
                       at_bat=at_bat, count=count, notes=notes)


def _count(ab) -> str:
    """The at-bat so far: the pitch and whose chart, then the swing and its result."""
    if ab.chart is None:
        return ""
    chart = "pitcher's chart" if ab.chart == "P" else "batter's chart"
    words = ["a pitcher bats: no pitch" if ab.pitch is None else f"pitch {ab.pitch}", chart]
    if ab.swing is not None:
        words.append(f"swing {ab.swing}" + (f": {ab.result}" if ab.result else ""))
    return "At-bat: " + ", ".join(words)
