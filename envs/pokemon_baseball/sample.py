"""A Pokemon Baseball game rebuilt from one manager's view, with fresh dice (determinization).

``sample_state(view, rng, setup)`` returns a :class:`~.rules.GameState` ready for
:func:`~.rules.apply_action` and :func:`dugout.envs.core.engine.play_out` whose view for
``view.seat`` (:func:`~.view.make_view` with the env's labels, :func:`~.env.option_labels`,
and the view's ``games_left``) equals ``view`` field for field. It reads only ``view``,
``rng`` and ``setup``.

**What is hidden, and how it is drawn.**

* *The future dice* (every chart is rolled): a new :class:`~dugout.envs.core.dice.Dice`
  seeded ``rng.getrandbits(63)``, never the live game's seed.
* *The opponent's lineup card while the lineups are set* (RULES.md, P-4: the home manager
  does not see the away lineup while setting his; the view shows the opponent's ``field`` and
  ``lineup`` as -1 until play begins). How far the opponent has got is public (the pending
  decision's kind and subject, whoever makes it): the positions he has filled are drawn
  uniformly among his rested creatures, each once (his legal choices, in the rules' order of
  positions), and the batting slots he has filled are drawn uniformly among the placed
  batters, each once. With the home manager to set his lineup the away lineup is whole.
* *Whether the batter is hurt after a tag-up* (``injury_check``, error chart row 12: "Ground
  Out/Fly Out + Batter Injury"). At a ``tag_up`` decision the batter's fly ball to outfielder
  ``f`` came either from the batting chart's Fly Out (f) or from its Error (f) cell and then
  the error chart's Out or row 12; the dice decided which, in the open, but the view does not
  say. It is drawn with the odds the dice give it: P(row 12 | a fly out to f) from the two
  charts, the error chart's column being the fielder's level.
* *The pitchers' counts the rest rule reads* (RULES.md P-6) and the view shows only in part:
  with ``rest_by="innings"``, whether the fielding side's pitcher has already faced a batter in
  this half inning (his next batter adds an inning if not); with ``rest_by="outs"``, each
  pitcher's outs beyond his whole innings. They are exact where the view settles them (at a
  tag-up he has faced the batter; a starter still on the mound has recorded every out his side
  made in the field, and has faced a batter this half once there is an out or a runner; a
  pitcher with no inning has faced no one), and otherwise drawn uniformly among the values the
  view leaves possible. They change nothing in this game: only the rest owed in the next
  games of a series (:func:`~.rules.games_to_rest`).

**Copied from the view.** The board (inning, half, outs, the runners by creature, the score,
over), each team's place in the order, its own lineup (and both once play has begun),
status, resting, injured and innings pitched per creature, HP (the loss is HP at full minus
HP now: a batter floored at 10 HP reads the same whatever more he lost), the starters, who
tried to steal, the fielder the ball went to, a forfeit, and the pending decision (offered
again by the sample's own rules and checked against the view's).

**What ``setup`` holds** (:class:`Setup`, :func:`public_setup` reads it off the env's public
options): the two teams (their creatures' names and stats; the view holds the stats only,
checked against them), ``innings``, ``max_innings`` (not in the view), ``dh``, ``edge``,
``rest_by`` (not in the view; it decides how innings pitched are counted), and the roster
rules ``bench`` and ``used_twice`` (RULES.md P-1, P-2; in the view too, checked against it:
with re-entry allowed the sample's substitutions offer the creatures who left the game). A series's record
(games won) is the series's own, not the game's: the sample is the game being played.

**Rebuilt, not drawn: what the state keeps and the view leaves out**, which decides no
play: the box score (a new one, with a batting line for each batter in the lineup and a
pitching line for each pitcher on the mound: the box's counts are the box score's only), the
play log (empty), the runs by inning (each team's runs in its first column: the game's end
reads the total), the plate-appearance counter (0: it only keys the dice, which are new),
the batter's outs when he came up at a tag-up (the outs before the fly out: read only by a
hit, which cannot follow), his RBIs and the roll's record (0: box and log only), and who won a
game that is over (from the score and the forfeit).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core.sample import check_sample_args, scoreboard_from_view
from ..core.decisions import Decision
from ..core.dice import Dice
from ..core.scoreboard import Scoreboard
from ..core.scorebook import FLY_OUT, BoxScore, PlayLog
from . import charts as ch
from . import rules
from .cards import USED_TWICE_DEFAULT, Team
from .rules import GameState, lineup_positions_for
from .view import PokemonBaseballView, roster_stats

__all__ = ["Setup", "public_setup", "sample_state", "injury_odds"]


@dataclass(frozen=True)
class Setup:
    """A Pokemon Baseball game's public set-up, what every manager knows and the env was
    built with: ``teams`` (away, home), ``innings``, ``max_innings`` (a tie's cut-off, or
    None), ``dh``, ``edge`` ("ge" or "gt"), ``rest_by`` ("innings" or "outs"), ``bench``
    ("roster" or "reserves") and ``used_twice`` (the env's option of that name)."""
    teams: tuple[Team, Team]
    innings: int = 9
    max_innings: int | None = None
    dh: bool = False
    edge: str = "ge"
    rest_by: str = "innings"
    bench: str = "roster"
    used_twice: str = USED_TWICE_DEFAULT


def public_setup(env: Any) -> Setup:
    """The public set-up of a ``pokemon_baseball_v0`` env (wrapped or not): its teams and its
    rule options, nothing of the game being played."""
    env = getattr(env, "unwrapped", env)
    return Setup(teams=tuple(env.teams), innings=env.innings, max_innings=env.max_innings,
                 dh=env.dh, edge=env.edge, rest_by=env.rest_by, bench=env.bench,
                 used_twice=env.used_twice)


def sample_state(view: PokemonBaseballView, rng: random.Random,
                 setup: Setup | None = None) -> GameState:
    """A full game consistent with ``view`` and ``setup`` (see the module docstring), what the
    view hides drawn from ``rng``. ``setup`` is required (the view holds neither the
    creatures' names, ``max_innings`` nor ``rest_by``; :func:`public_setup` builds it). A view
    that no game of this set-up could show raises ``ValueError``."""
    check_sample_args(view, PokemonBaseballView, rng, setup, Setup,
                      lacks="neither the creatures, max_innings nor rest_by")
    _check_setup(view, setup)
    teams = setup.teams
    sizes = [len(t.roster) for t in teams]
    board = _board(view, setup)
    state = GameState(
        teams=teams, board=board, dice=Dice(rng.getrandbits(63), (board.half_index, 0)),
        box=BoxScore([t.name for t in teams], [[], []]), log=PlayLog(), order=list(view.order),
        dh=setup.dh, edge=setup.edge, rest_by=setup.rest_by, bench=setup.bench,
        used_twice=setup.used_twice,
        resting=[list(r) for r in view.resting], status=[list(s) for s in view.status],
        fielders=[list(f) for f in view.field], lineup=[list(x) for x in view.lineup],
        hp_loss=[[c.hp - hp for c, hp in zip(t.roster, now)] for t, now in zip(teams, view.hp)],
        injured=[list(x) for x in view.injured],
        innings_pitched=[list(x) for x in view.innings_pitched],
        last_half_pitched=[[-1] * n for n in sizes],
        outs_pitched=[[3 * ip for ip in x] for x in view.innings_pitched],
        starter=list(view.starters), line_of=[[-1] * n for n in sizes],
        started=view.started, forfeited=view.forfeited)
    board.bases = tuple(None if r < 0 else r for r in view.runners)
    state.tried_steal = tuple(r for r, tried in zip(view.runners, view.tried_steal) if tried)
    if view.over:
        state.step = "start_pa" if view.started else "setup"
        return state
    actor = view.seat if view.decision is not None else 1 - view.seat
    if not view.started:
        _draw_hidden_lineup(state, view, actor, rng)
        state.setup_team = actor
        state.step = view.pending
        rules.RULES[state.step](state)
    else:
        _books(state)
        _pending_play(state, view, actor, rng)
        _pitchers(state, view, rng)
    d = state.pending
    if d is None or (d.kind, d.actor, d.subject) != (view.pending, actor, view.pending_subject) or (
            view.decision is not None and d.legal != view.legal):
        raise ValueError(f"sample_state: the rules do not offer the view's {view.pending!r} "
                         f"decision here (they offer {d})")
    return state


def _check_setup(view: PokemonBaseballView, setup: Setup) -> None:
    stats = roster_stats(setup.teams)
    if view.stats != stats or (view.innings, view.dh, view.edge, view.bench, view.used_twice) != (
            setup.innings, setup.dh, setup.edge, setup.bench, setup.used_twice):
        raise ValueError("sample_state: the view's rosters, innings, dh, edge, bench or "
                         "used_twice are not the set-up's")


def _board(view: PokemonBaseballView, setup: Setup) -> Scoreboard:
    """The scoreboard: the view's situation; each team's runs in its first inning's column
    (a forfeit's runs before the home team batted in a column of their own)."""
    return scoreboard_from_view(inning=view.inning, half=view.half, outs=view.outs,
                                score=view.score, over=view.over, innings=setup.innings,
                                max_innings=setup.max_innings)


def _draw_hidden_lineup(state: GameState, view: PokemonBaseballView, actor: int,
                        rng: random.Random) -> None:
    """The opponent's positions and batting order as far as he has set them, drawn uniformly
    among his legal choices (the view shows them as -1)."""
    other = 1 - view.seat
    positions = lineup_positions_for(state.dh)
    if other == actor:              # he is setting his lineup now
        placed = positions.index(view.pending_subject) if view.pending == "lineup" else len(positions)
        ordered = view.pending_subject if view.pending == "batting_order" else 0
    elif other == 0:                # the away lineup is done before the home manager sets his
        placed, ordered = len(positions), 9
    else:                           # the home manager has not begun
        return
    rested = [k for k, r in enumerate(state.resting[other]) if r == 0]
    field = state.fielders[other]
    for p, k in zip(positions[:placed], rng.sample(rested, placed)):
        field[p - 1] = k
    batters = rules.batters_of(state, other)
    state.lineup[other][:ordered] = rng.sample(batters, ordered)


# -- once play has begun ------------------------------------------------------------------------
def _books(state: GameState) -> None:
    """A new box score: a batting line for each batter in the order, a pitching line for each
    pitcher on the mound."""
    for t in (0, 1):
        roster = state.teams[t].roster
        for k in state.lineup[t]:
            state.line_of[t][k] = state.box.add_line(t, roster[k].name)
        state.pitching_line[t] = state.box.add_pitcher(t, roster[state.pitcher(t)].name)


def _pending_play(state: GameState, view: PokemonBaseballView, actor: int,
                  rng: random.Random) -> None:
    """The rules at the step of the view's pending decision, offering it again."""
    kind, board = view.pending, state.board
    if kind == "substitute":
        state.step = "offense_sub" if actor == board.batting else "defense_sub"
        rules.offer_substitute(state, actor, view.pending_subject)
    elif kind == "tag_up":          # a fly out to the outfield, being scored
        state.step = "end_pa"
        state.at_bat = state.batter_creature()
        state.outs_before = board.outs - 1
        state.fielder = view.fielder
        state.outcome = FLY_OUT
        state.injury_check = rng.random() < injury_odds(state)
        state.pending = Decision("tag_up", board.batting, (rules.PASS, rules.YES), 2)
    elif kind in ("replace_injured", "offense_sub", "defense_sub", "steal", "bunt"):
        state.step = "injuries" if kind == "replace_injured" else kind
        rules.RULES[state.step](state)
    else:
        raise ValueError(f"sample_state: no {kind!r} decision once play has begun")


def injury_odds(state: GameState) -> float:
    """At a tag-up (a fly out to outfielder ``state.fielder``, being scored): the chance the
    ball came off the error chart's row 12 (the batter is hurt), given that it was a fly out
    to him: the batting chart's Fly Out cells against its Error cells followed by the error
    chart's Out or row 12, every cell weighted by its dice."""
    f = state.fielder
    field = state.board.fielding
    column = ch.error_column(state.creature(field, state.at(field, f)).level)
    fly = err = 0
    for row, cells in ch.BATTING.items():
        for result, where in cells:
            if where == f:
                fly += _TWO_DICE[row] * (result == ch.FLY_OUT)
                err += _TWO_DICE[row] * (result == ch.ERR)
    out = sum(_TWO_DICE[r] for r, cells in ch.ERROR.items() if cells[column] == ch.OUT)
    hurt = sum(_TWO_DICE[r] for r, cells in ch.ERROR.items() if cells[column] == ch.INJURY_OUT)
    total = 36 * fly + err * (out + hurt)
    return err * hurt / total if total else 0.0


#: ways two dice roll each total (of 36)
_TWO_DICE = {n: 6 - abs(n - 7) for n in range(2, 13)}


# -- the rest rule's counts (P-6) ---------------------------------------------------------------
def _pitchers(state: GameState, view: PokemonBaseballView, rng: random.Random) -> None:
    """Each pitcher on the mound: with ``rest_by="innings"`` whether the fielding side's has
    faced a batter this half (his ``last_half_pitched``; anyone else's is a past half, which
    the rule reads as -1), with ``rest_by="outs"`` his outs beyond whole innings; exact where
    the view settles them, else uniform among what it leaves possible."""
    board = state.board
    if state.rest_by == "innings":
        f = board.fielding
        k = state.pitcher(f)
        ip = state.innings_pitched[f][k]
        if state.step == "end_pa" or ip == view.inning:
            faced = True
        elif ip == 0:
            faced = False
        elif state.starter[f] == k and (board.outs or any(r is not None for r in board.bases)):
            faced = True
        else:
            faced = rng.random() < 0.5
        if faced:
            state.last_half_pitched[f][k] = board.half_index
        return
    for t in (0, 1):
        k = state.pitcher(t)
        made = 3 * (board.inning - 1 + (board.half if t == 1 else 0)) + (
            board.outs if t == board.fielding else 0)     # outs team t made in the field
        whole = 3 * state.innings_pitched[t][k]
        if state.starter[t] == k and made // 3 == whole // 3:
            state.outs_pitched[t][k] = made
        else:
            state.outs_pitched[t][k] = whole + rng.randrange(max(1, min(3, made - whole + 1)))
