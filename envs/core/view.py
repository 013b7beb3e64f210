"""What the rulesets' views share: the seat, the half inning, and who is at bat.

Each ruleset's view (``envs/<ruleset>/view.py``) is a frozen dataclass that names every field
it holds. Two pieces here spare them restating the same things:

* :class:`HalfInningView`, a mixin for a view with ``seat`` and ``half`` fields: which team is
  at bat and which is in the field, read off ``half`` exactly as the
  :class:`~dugout.envs.core.scoreboard.Scoreboard` reads them, and whether it is this
  manager's team that bats.
* :class:`LabelledView`, the fields a view opens with when its manager's options come as
  legal actions and their labels: the seat, whether his team bats, his pending decision, the
  inning and the half. A ruleset's view extends it with its own fields (after these).
"""

from __future__ import annotations

from dataclasses import dataclass

from .scoreboard import Scoreboard

__all__ = ["HalfInningView", "LabelledView"]


class HalfInningView:
    """For a view dataclass with the fields ``seat`` (0 away, 1 home) and ``half`` (0 top,
    1 bottom): the team at bat (``batting_team``, also ``batting_seat``: seat and team
    share their numbers), the team in the field (``fielding_team``) and whether this
    manager's team bats (``batting``). It adds no field and no slot."""

    __slots__ = ()

    # the scoreboard's rule, in one place: the away team (0) bats in the top, the home team
    # (1) in the bottom
    batting_team = Scoreboard.batting
    batting_seat = Scoreboard.batting
    fielding_team = Scoreboard.fielding

    @property
    def batting(self) -> bool:
        """Whether this manager's team is at bat."""
        return self.half == self.seat


@dataclass(frozen=True)
class LabelledView:
    """The first fields of a view whose manager's options are legal actions with labels.

    * ``seat``: 0 for the away manager, 1 for the home manager.
    * ``batting``: True while this manager's team is at bat.
    * ``decision``: the pending decision's kind when this manager is to act, else None.
    * ``legal``: the legal actions when this manager is to act, else ``()``.
    * ``labels``: one label per legal action, in the same order.
    * ``inning``, ``half``: the inning being played and its half (0 top, 1 bottom).

    A ruleset's view subclasses it (frozen too) and names these fields again in its own
    docstring, with what they mean in its game.
    """
    seat: int
    batting: bool
    decision: str | None
    legal: tuple[int, ...]
    labels: tuple[str, ...]
    inning: int
    half: int
