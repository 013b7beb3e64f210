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

A view is built at every decision, a search's rollouts' included, so :func:`build_view` makes
one without the frozen dataclass's ``__init__``, which sets each field through
``object.__setattr__`` (half the time MLB Showdown took to build its view of 59 fields), as
strictly.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields as dataclass_fields
from typing import Any, Callable, Mapping, TypeVar

from .scoreboard import Scoreboard

__all__ = ["HalfInningView", "LabelledView", "build_view"]

V = TypeVar("V")
#: per view class: its field names, those without a default, and the default factories
_SHAPES: dict[type, tuple[frozenset[str], frozenset[str], tuple[tuple[str, Callable[[], Any]], ...]]] = {}


def _shape(cls: type) -> tuple[frozenset[str], frozenset[str], tuple[tuple[str, Callable[[], Any]], ...]]:
    shape = _SHAPES.get(cls)
    if shape is None:
        if hasattr(cls, "__post_init__") or "__slots__" in vars(cls):
            raise TypeError(f"{cls.__name__} has a __post_init__ or slots: build it with its __init__")
        every = dataclass_fields(cls)
        shape = _SHAPES[cls] = (
            frozenset(f.name for f in every),
            frozenset(f.name for f in every if f.default is MISSING and f.default_factory is MISSING),
            tuple((f.name, f.default_factory) for f in every if f.default_factory is not MISSING))
    return shape


def build_view(cls: type[V], values: Mapping[str, Any]) -> V:
    """The frozen view dataclass ``cls`` holding ``values`` (field name to value), equal to
    ``cls(**values)`` and as strict (an unknown field, or a missing one without a default, is a
    ``TypeError``; one left out takes its default), built without the generated ``__init__``'s
    ``object.__setattr__`` per field. It stays frozen: setting a field raises. A class with a
    ``__post_init__`` (it would not run) or slots (no ``__dict__`` to fill) is refused."""
    names, required, factories = _shape(cls)
    keys = values.keys()
    if not (keys <= names and required <= keys):
        unknown, missing = sorted(keys - names), sorted(required - keys)
        raise TypeError(f"{cls.__name__}: " + "; ".join(
            part for part in (unknown and f"unknown field(s) {', '.join(unknown)}",
                              missing and f"missing field(s) {', '.join(missing)}") if part))
    view = object.__new__(cls)
    held = view.__dict__
    held.update(values)
    for name, factory in factories:
        if name not in held:
            held[name] = factory()
    return view


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
