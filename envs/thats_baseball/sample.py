"""A That's Baseball game rebuilt from one manager's view, with fresh dice (determinization).

``sample_state(view, rng, setup)`` returns a :class:`~.rules.GameState` ready for
:func:`~.rules.apply_action` and :func:`dugout.envs.core.engine.play_out` whose view for
``view.seat`` (:func:`~.view.make_view`, labelled by :func:`~.env.option_labels` as the env
labels it) equals ``view`` field for field. It reads only ``view``, ``rng`` and ``setup``.

**What is hidden.** Nothing but the future dice: the rulebook gives no manager a card, a
hand or a secret choice (RULES.md: every decision is made in the open, and the view shows
the pending decision whoever makes it). So the sample is the view's game, and what it draws
from ``rng`` is only the dice: a new :class:`~dugout.envs.core.dice.Dice` whose seed is
``rng.getrandbits(63)`` (never the live game's seed). Every later die is uniform, as the
rulebook's dice are.

**Copied from the view.** The situation (inning, half, outs, which bases are occupied,
score, scheduled innings, whether the game is over), both teams' places in the batting order,
which runners already tried to steal and whether a pickoff was thrown before this batter, and
the pending decision (its kind, subject, and the legal actions, which the sample's own rules
offer again and which are checked against the view's when the view's manager is to act).

**What ``setup`` holds** (:class:`Setup`, built by :func:`public_setup` from the env's public
options): the two :class:`~.cards.Team` cards (the view holds only their adjusted averages,
checked against the cards), ``innings`` and ``max_innings`` (the cut-off of a tied game, which
the view does not hold and which decides when a tie ends the game).

**Rebuilt, not drawn: what the state keeps and the view leaves out.** None of it is secret;
the view simply does not carry it. None can change how a decision comes out (the dice, the
runners' bases, the outs and the score decide every rule) nor what any later view shows:

* *who the runners are* (lineup slots): the view shows which bases are occupied. The runners
  are put down as the batters just before the one at the plate (:func:`~.rules.runners_before`:
  the last batter on first), never the batter himself. A runner's identity only says who is
  credited in the box score (a run, a stolen base) and which runners ``tried_steal`` names;
  the sample's ``tried_steal`` names exactly the runners the view flags, so the same steals
  are offered.
* *the box score, the play log and the line score by inning*: a new box score and an empty
  log; each team's runs so far are written in its first inning's column (the view gives the
  total only). The game's end reads the runs, never the line or the box.
* *the plate-appearance counter* ``pa`` (it only keys the dice streams, and the dice are
  new): 0.
* *the batter's result while it is being scored* (an ``error_roll``, ``double_play`` or
  ``dp_runner`` decision: a ground out; a ``tag_up``: a fly out, even if a runner already
  scored on an earlier tag-up, which would make it a sacrifice fly), his RBIs so far in the
  plate appearance (0) and the roll that gave it (0): the box score's marks only.
* *who won* a game that is over: read off the score (a tie is a game cut off by
  ``max_innings``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core.sample import check_sample_args, scoreboard_from_view
from ..core.bases import occupied
from ..core.decisions import Decision
from ..core.dice import Dice
from ..core.scoreboard import Scoreboard
from ..core.scorebook import FLY_OUT, GROUND_OUT, BoxScore, PlayLog
from . import rules
from .cards import Team
from .rules import GameState
from .view import ThatsBaseballView

__all__ = ["Setup", "public_setup", "sample_state"]


@dataclass(frozen=True)
class Setup:
    """A That's Baseball game's public set-up: what every manager at the table knows and the
    env was built with. ``teams``: the (away, home) team cards; ``innings``: the scheduled
    innings; ``max_innings``: the inning after which a tie is cut off, or None."""
    teams: tuple[Team, Team]
    innings: int = 9
    max_innings: int | None = None


def public_setup(env: Any) -> Setup:
    """The public set-up of a ``thats_baseball_v0`` env (wrapped or not): its teams and its
    ``innings`` and ``max_innings`` options, nothing of the game being played."""
    env = getattr(env, "unwrapped", env)
    return Setup(teams=tuple(env.teams), innings=env.innings, max_innings=env.max_innings)


#: Each decision: whether the batting side makes it (else the fielding side), and the step
#: the rules are at while it is pending.
_DECIDES = {"steal": (True, "steal"), "pickoff": (False, "pickoff"), "error_roll": (True, "end_pa"),
            "double_play": (False, "end_pa"), "dp_runner": (False, "end_pa"),
            "tag_up": (True, "tag_up")}


def sample_state(view: ThatsBaseballView, rng: random.Random,
                 setup: Setup | None = None) -> GameState:
    """A full game consistent with ``view`` and ``setup`` (see the module docstring), with
    new dice drawn from ``rng``. ``setup`` is required: the view holds neither the team cards
    nor ``max_innings`` (:func:`public_setup` builds it from the env). A view that no game of
    this set-up could show raises ``ValueError``."""
    check_sample_args(view, ThatsBaseballView, rng, setup, Setup,
                      lacks="neither the team cards nor max_innings")
    _check_setup(view, setup)
    board = _board(view, setup)
    half = view.half
    runners = rules.runners_before(view.order[half], sum(1 << i for i in range(3) if view.bases[i]))
    board.bases = runners
    teams = setup.teams
    state = GameState(
        teams=teams, board=board, dice=Dice(rng.getrandbits(63), (board.half_index, 0)),
        box=BoxScore([t.name for t in teams], [[(b.name, str(b.aa)) for b in t.batters]
                                               for t in teams]),
        log=PlayLog(), order=list(view.order), pa=0,
        tried_steal=tuple(r for r, tried in zip(runners, view.tried_steal) if tried),
        pickoff_tried=view.pickoff_tried, step="start_pa")
    if not view.over:
        _pending_decision(state, view)
    return state


def _check_setup(view: ThatsBaseballView, setup: Setup) -> None:
    lineups = (setup.teams[0].aas, setup.teams[1].aas)
    if tuple(map(tuple, view.lineups)) != lineups or view.innings != setup.innings:
        raise ValueError("sample_state: the view's lineups and innings are not the set-up's "
                         f"({lineups}, {setup.innings} innings)")


def _board(view: ThatsBaseballView, setup: Setup) -> Scoreboard:
    """The scoreboard: the view's situation; each team's runs in its first inning's column."""
    return scoreboard_from_view(inning=view.inning, half=view.half, outs=view.outs,
                                score=view.score, over=view.over, innings=setup.innings,
                                max_innings=setup.max_innings)


def _pending_decision(state: GameState, view: ThatsBaseballView) -> None:
    """Put the rules at the step of the view's pending decision and offer it again: the
    steal, pickoff and tag-up offers by the rules' own offer functions, the others (which the
    rules offer in the middle of a play) as the rules make them."""
    kind, board = view.pending, state.board
    if kind not in _DECIDES:
        raise ValueError(f"sample_state: a game that is not over waits on a decision, got "
                         f"{kind!r}")
    batting, state.step = _DECIDES[kind]
    actor = board.batting if batting else board.fielding
    if kind in ("steal", "pickoff", "tag_up"):
        if kind == "tag_up":
            state.outcome, state.tag_base = FLY_OUT, view.pending_subject
        rules.RULES[state.step](state)
    else:                           # on a ground out, before it is scored
        state.outcome = GROUND_OUT
        legal = tuple(b + 1 for b in occupied(board.bases)) if kind == "dp_runner" else (
            rules.PASS, rules.ROLL)
        state.pending = Decision(kind, actor, legal)
    d = state.pending
    if d is None or d.kind != kind or d.actor != actor or d.subject != view.pending_subject or (
            view.decision is not None and d.legal != view.legal):
        raise ValueError(f"sample_state: the rules do not offer the view's {kind!r} decision "
                         f"here (they offer {d})")
