"""What a That's Baseball manager knows, as a structured, read-only view.

That's Baseball has no hidden information, so the view holds the whole public game:
the situation (inning, half, outs, runners, score), both batting orders as adjusted
averages and where each team is in its order, what has already been tried before this
batter, and the pending decision, whichever manager makes it, with its options for the
manager who makes it. It never holds the dice. The env's observation vector is encoded
from it alone (``dugout.envs.thats_baseball.env.encode_view``).

Agents get it from ``env.unwrapped.view(agent)``; see :mod:`dugout.agents`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.decisions import Decision
from ..core.view import HalfInningView
from .rules import GameState

__all__ = ["ThatsBaseballView", "make_view"]


@dataclass(frozen=True, slots=True)
class ThatsBaseballView(HalfInningView):
    """One manager's view of a That's Baseball game.

    Attributes:
        seat: 0 for the away manager, 1 for the home manager.
        decision: the kind of the decision this manager must make now (``"steal"``,
            ``"pickoff"``, ``"error_roll"``, ``"double_play"``, ``"dp_runner"``,
            ``"tag_up"``), or None when it is not this manager's turn.
        subject: for a ``tag_up`` decision, the base (0-2) of the runner it is about; else -1.
        legal: the legal actions (empty when not to act).
        options: ``(action, label)`` for each legal action.
        inning, half: the inning (1, 2, ...) and half (0 = top, 1 = bottom).
        innings: the scheduled number of innings.
        outs: outs in this half inning (0-3; 3 only in the instant a side is retired).
        bases: a runner on first, second, third (booleans).
        score: runs (away, home).
        lineups: each team's nine adjusted averages in batting order, (away, home).
        order: each team's lineup slot (0-8) at the plate or due up next, (away, home).
        tried_steal: for each base, whether its runner already tried to steal before this batter.
        pickoff_tried: whether the fielding manager already threw over before this batter.
        over: whether the game has ended.
        pending: the kind of the pending decision whichever manager makes it (the
            opponent's too: the game has no hidden information), or None once the game
            is over. Left out, it is ``decision`` (a view built by hand for the manager
            to act).
        pending_subject: the ``subject`` of the pending decision, whoever makes it; -1
            when it has none. Left out with ``pending``, it is ``subject``.
    """
    seat: int
    decision: str | None
    subject: int
    legal: tuple[int, ...]
    options: tuple[tuple[int, str], ...]
    inning: int
    half: int
    innings: int
    outs: int
    bases: tuple[bool, bool, bool]
    score: tuple[int, int]
    lineups: tuple[tuple[int, ...], tuple[int, ...]]
    order: tuple[int, int]
    tried_steal: tuple[bool, bool, bool]
    pickoff_tried: bool
    over: bool
    pending: str | None = None
    pending_subject: int = -1

    def __post_init__(self) -> None:
        if self.pending is None and self.decision is not None:
            object.__setattr__(self, "pending", self.decision)
            object.__setattr__(self, "pending_subject", self.subject)

    # -- what managers ask first (batting, batting_seat: HalfInningView) ---------------
    @property
    def batter_aa(self) -> int:
        """The adjusted average of the batter at the plate."""
        return self.lineups[self.half][self.order[self.half]]

    @property
    def due_up(self) -> tuple[int, ...]:
        """The batting team's adjusted averages from the batter at the plate on, nine of them."""
        lineup, at = self.lineups[self.half], self.order[self.half]
        return lineup[at:] + lineup[:at]

    @property
    def due_up_fielding(self) -> tuple[int, ...]:
        """The fielding team's adjusted averages from its next batter on, nine of them (who
        bat in its next half inning)."""
        lineup, at = self.lineups[1 - self.half], self.order[1 - self.half]
        return lineup[at:] + lineup[:at]

    @property
    def lead(self) -> int:
        """The batting team's runs minus the fielding team's."""
        return self.score[self.half] - self.score[1 - self.half]

    @property
    def run_diff(self) -> int:
        """This manager's runs minus the opponent's."""
        return self.score[self.seat] - self.score[1 - self.seat]


def make_view(state: GameState, seat: int, labels: dict[int, str] | None = None,
              lineups: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> ThatsBaseballView:
    """The view of ``state`` for ``seat``; ``labels`` names the pending decision's options,
    ``lineups`` (if given) are the adjusted averages of ``state.teams``."""
    b = state.board
    d: Decision | None = state.pending
    mine = d is not None and d.actor == seat and not b.over
    bases = b.bases
    return ThatsBaseballView(
        seat=seat,
        decision=d.kind if mine else None,
        subject=d.subject if mine else -1,
        legal=d.legal if mine else (),
        options=tuple((a, (labels or {}).get(a, "")) for a in d.legal) if mine else (),
        inning=b.inning, half=b.half, innings=b.innings, outs=b.outs,
        bases=(bases[0] is not None, bases[1] is not None, bases[2] is not None),
        score=(b.runs[0], b.runs[1]),
        lineups=lineups if lineups is not None else (state.teams[0].aas, state.teams[1].aas),
        order=(state.order[0], state.order[1]),
        tried_steal=tuple(r is not None and r in state.tried_steal for r in bases),
        pickoff_tried=state.pickoff_tried,
        over=b.over,
        pending=None if d is None else d.kind,
        pending_subject=-1 if d is None else d.subject,
    )
