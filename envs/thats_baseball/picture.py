"""The picture of a That's Baseball game (``render_mode="rgb_array"``): see
:mod:`dugout.envs.core.picture`.

It shows what the text render shows: the line score, the runners by name, the inning
and outs, the batter at the plate with his adjusted average, who is to decide what,
and the last play. The game has no count and no cards.
"""

from __future__ import annotations

from ..core.picture import Scene, board_scene, half_name
from ..core.scorebook import describe_play

__all__ = ["scene"]


def scene(env) -> Scene:
    """The scene of ``env``'s game now (read only: nothing in ``env`` changes)."""
    s = env.state_
    b = s.board
    teams = s.teams
    names = [[p.name.split()[-1] for p in t.batters] for t in teams]
    runners = tuple(None if r is None else names[b.half][r] for r in b.bases)
    at_bat = ""
    if not b.over:
        batter = teams[b.half].batters[s.order[b.half]]
        at_bat = f"At bat for the {teams[b.half].name}: {batter.name} (AA {batter.aa})"
    last = ""
    if s.log.plays:
        p = s.log.plays[-1]
        last = f"{half_name(p.inning, p.half)}: {describe_play(p, names[p.half])}"
    return board_scene(env, [t.name for t in teams], runners=runners, last_play=last,
                       at_bat=at_bat)
