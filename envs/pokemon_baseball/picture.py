"""The picture of a Pokemon Baseball game (``render_mode="rgb_array"``): see
:mod:`dugout.envs.core.picture`.

It shows what the text render shows: the line score, each runner by name with his retreat
(what a steal and a tag-up roll against), the inning and outs, the creature at bat (HP now,
level, attack, retreat) and the one pitching (HP now, level, attack), who is to decide what,
and the last play. Before the first pitch it says the managers are setting their lineups;
a game forfeited for want of rested creatures says who could not field a team. Pokemon
Baseball has no count and no cards.
"""

from __future__ import annotations

from typing import Callable

from ..core.picture import Scene, board_scene, half_name
from . import rules

__all__ = ["scene"]


def scene(env, describe_play: Callable) -> Scene:
    """The scene of ``env``'s game now (read only: nothing in ``env`` changes);
    ``describe_play(play, team_names)`` is the env module's sentence for a play (passed in,
    so that this module and the env's do not import each other)."""
    s = env.state_
    b = s.board
    names = [[c.name for c in t.roster] for t in s.teams]
    runners = tuple(None if r is None else f"{names[b.half][r]} (Ret {s.creature(b.half, r).retreat})"
                    for r in b.bases)
    at_bat = ""
    notes: tuple[str, ...] = ()
    if s.forfeited >= 0:
        need = "ten" if s.dh else "nine"
        notes = (f"{s.teams[s.forfeited].name} cannot field {need} rested creatures and "
                 f"forfeit, {rules.FORFEIT_SCORE}-0.",)
    elif not s.started and not b.over:
        notes = ("Before the first pitch: the managers set their lineups.",)
    elif not b.over:
        at_bat = f"At bat for the {s.teams[b.half].name}: {_batter(s)}"
        notes = (f"Pitching for the {s.teams[b.fielding].name}: {_pitcher(s)}",)
    last = ""
    if s.log.plays:
        p = s.log.plays[-1]
        last = f"{half_name(p.inning, p.half)}: {describe_play(p, names)}"
    return board_scene(env, [t.name for t in s.teams], runners=runners, last_play=last,
                       at_bat=at_bat, notes=notes)


def _batter(s: rules.GameState) -> str:
    """The creature at the plate, as the text render names him."""
    t, k = s.board.half, s.batter_creature()
    c = s.creature(t, k)
    return f"{c.name} (HP {s.hp(t, k)}, level {c.level}, attack {c.attack}, retreat {c.retreat})"


def _pitcher(s: rules.GameState) -> str:
    """The creature on the mound, as the text render names him."""
    t = s.board.fielding
    k = s.pitcher(t)
    c = s.creature(t, k)
    return f"{c.name} (HP {s.hp(t, k)}, level {c.level}, attack {c.attack})"
