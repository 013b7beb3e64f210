"""Game states as plain data, copied and saved from their dataclass fields.

A ruleset's ``GameState`` (and the core's ``Scoreboard``) is a dataclass deriving from
:class:`PlainState`, which gives it ``clone()``, ``to_dict()`` and ``from_dict()``. What
they do with a field follows from its declared type, worked out once per class::

    declared type                          clone()                      to_dict() writes
    int, float, str, bool, None, Hashable  shared                       the value
    tuple (bare: of plain values)          shared                       a list
    tuple[T, ...], tuple[T, T]             shared if T is immutable     a list
    list[T]                                a new list, items copied     a list
    dict[str, V]                           a new dict, values copied    an object
    dict[int, V]                           a new dict, values copied    [[key, value], ...]
    T | None                               as T                         as T, or null
    a NamedTuple (of immutable fields)     shared                       the list of its fields
    a frozen dataclass with to_dict()      shared                       its to_dict()
      and from_dict() (Decision)
    a class with clone(), to_dict() and    its clone()                  its to_dict()
      from_dict() (BoxScore, Scoreboard)

Anything else (a union of classes, an immutable object the ruleset saves its own way)
declares its codec: ``field(metadata=codec(encode, decode, copy=None))``.

A class may name itself in what it saves: ``SAVED_AS = SavedAs("ruleset", "showdown",
"MLB Showdown game")`` writes ``"ruleset": "showdown"``. ``from_dict`` refuses, with a
``ValueError`` that says which, a dict that names something else, lacks a field without
a default, or has a field the class does not know; a field with a default may be missing
(a save from before the field existed).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from operator import methodcaller
from typing import Any, Callable, ClassVar, NamedTuple

__all__ = ["PlainState", "SavedAs", "Codec", "codec", "pair_codec", "state_from_dict"]


class Codec(NamedTuple):
    """How one field is copied and saved; ``None`` parts mean "as it is" (an immutable value
    shared by clones, written and read back unchanged)."""
    copy: Callable[[Any], Any] | None
    encode: Callable[[Any], Any] | None
    decode: Callable[[Any], Any] | None


def codec(encode: Callable[[Any], Any], decode: Callable[[Any], Any],
          copy: Callable[[Any], Any] | None = None) -> dict[str, Codec]:
    """``field(metadata=...)`` for a field its type cannot describe: saved with ``encode``,
    read back with ``decode``, copied with ``copy`` (default: shared, for immutable values)."""
    return {"codec": Codec(copy, encode, decode)}


def pair_codec(encode: Callable[[Any], Any], decode: Callable[[Any, int], Any]) -> dict[str, Codec]:
    """``field(metadata=...)`` for an (away, home) pair of immutable objects (two teams),
    each saved with ``encode`` and read back with ``decode(saved, index)``."""
    def load(saved: Any) -> tuple:
        if not isinstance(saved, list) or len(saved) != 2:
            raise ValueError(f"an (away, home) pair is a list of two, got {type(saved).__name__}"
                             + (f" of {len(saved)}" if isinstance(saved, list) else ""))
        return decode(saved[0], 0), decode(saved[1], 1)

    return codec(lambda pair: [encode(x) for x in pair], load)


class SavedAs(NamedTuple):
    """The name a class writes into its saved dicts and checks when reading one."""
    key: str        # the saved dict's key for it: "ruleset", "variant"
    name: str       # this class's name under that key: "showdown", "regulation"
    what: str       # what the class is, for errors: "MLB Showdown game"


class PlainState:
    """Mixin for dataclass states: ``clone()``, ``to_dict()`` and ``from_dict()`` from the
    declared field types (see the module docstring)."""

    SAVED_AS: ClassVar[SavedAs | None] = None

    def clone(self) -> typing.Self:
        """A copy sharing nothing mutable with this state: immutable fields are shared,
        the rest copied (this is on the hot path of search: one dict copy and a call
        per mutable field)."""
        cls = type(self)
        values = self.__dict__.copy()
        for name, copy in (_PLANS.get(cls) or _plan(cls)).copies:
            values[name] = copy(values[name])
        new = object.__new__(cls)
        new.__dict__ = values
        return new

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready data (its ``SAVED_AS`` name first, if it has one)."""
        cls = type(self)
        out = {} if cls.SAVED_AS is None else {cls.SAVED_AS.key: cls.SAVED_AS.name}
        values = self.__dict__
        for name, c, _ in _plan(cls).fields:
            value = values[name]
            out[name] = value if c.encode is None else c.encode(value)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> typing.Self:
        """Rebuild a state saved with ``to_dict``."""
        return state_from_dict(cls, data)


# -- per-class plans ------------------------------------------------------------------------
class _Plan(NamedTuple):
    copies: tuple[tuple[str, Callable[[Any], Any]], ...]    # the fields clone must copy
    fields: tuple[tuple[str, Codec, bool], ...]              # every field, required or not


_PLANS: dict[type, _Plan] = {}


def _plan(cls: type) -> _Plan:
    """The class's plan, worked out from its fields the first time it is asked for."""
    plan = _PLANS.get(cls)
    if plan is None:
        hints = typing.get_type_hints(cls)
        fields = []
        for f in dataclasses.fields(cls):
            try:
                c = f.metadata.get("codec") or _type_codec(hints[f.name])
            except TypeError as e:
                raise TypeError(f"{cls.__qualname__}.{f.name}: {e}; declare "
                                f"field(metadata=codec(encode, decode, copy))") from None
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            fields.append((f.name, c, required))
        plan = _PLANS[cls] = _Plan(tuple((n, c.copy) for n, c, _ in fields if c.copy),
                                   tuple(fields))
    return plan


def state_from_dict(cls: type[PlainState], data: Any) -> Any:
    """Rebuild a ``cls`` saved with its ``to_dict``; a ``ValueError`` names what is wrong
    with a dict that is not one (another kind of save, a missing or unknown field)."""
    tag = cls.SAVED_AS
    what = cls.__qualname__ if tag is None else tag.what
    if not isinstance(data, dict):
        raise ValueError(f"a saved {what} is a dict, got {type(data).__name__}")
    if tag is not None and data.get(tag.key) != tag.name:
        raise ValueError(f"not a saved {what} ({tag.key} {data.get(tag.key)!r})")
    plan = _plan(cls)
    unknown = set(data) - {name for name, _, _ in plan.fields} - ({tag.key} if tag else set())
    if unknown:
        raise ValueError(f"saved {what}: unknown field(s) {sorted(unknown)}")
    values = {}
    for name, c, required in plan.fields:
        if name not in data:
            if required:
                raise ValueError(f"saved {what}: field {name!r} is missing")
            continue
        try:
            values[name] = data[name] if c.decode is None else c.decode(data[name])
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"saved {what}: field {name!r}: {e}") from e
    return cls(**values)


# -- codecs from declared types -----------------------------------------------------------------
_PLAIN = Codec(None, None, None)
_SCALARS = (int, float, str, bool, type(None), typing.Hashable, collections.abc.Hashable)


def _same(x: Any) -> Any:
    return x


def _type_codec(tp: Any) -> Codec:
    """The codec the module docstring's table gives a declared type."""
    if tp in _SCALARS:
        return _PLAIN
    if tp is tuple:
        return Codec(None, list, tuple)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        return _optional_codec(tp, args)
    if origin is list:
        return _list_codec(_type_codec(args[0]))
    if origin is tuple:
        if len(set(args) - {Ellipsis}) != 1:
            raise TypeError(f"a tuple of mixed types ({tp}) has no codec")
        return _tuple_codec(_type_codec(args[0]))
    if origin is dict:
        return _dict_codec(args[0], _type_codec(args[1]))
    if isinstance(tp, type):
        return _class_codec(tp)
    raise TypeError(f"no codec for {tp!r}")


def _optional_codec(tp: Any, args: tuple) -> Codec:
    inner = [a for a in args if a is not type(None)]
    if len(inner) != 1 or len(args) != 2:
        raise TypeError(f"a union of types ({tp}) has no codec")
    copy, encode, decode = _type_codec(inner[0])

    def maybe(f):
        return None if f is None else (lambda x: None if x is None else f(x))

    return Codec(maybe(copy), maybe(encode), maybe(decode))


def _each(f: Callable) -> Callable:
    return lambda xs: [f(x) for x in xs]


def _each_into_tuple(f: Callable) -> Callable:
    return lambda xs: tuple([f(x) for x in xs])


def _list_codec(item: Codec) -> Codec:
    copy, encode, decode = item
    return Codec(list.copy if copy is None else _each(copy),
                 list if encode is None else _each(encode),
                 list if decode is None else _each(decode))


def _tuple_codec(item: Codec) -> Codec:
    copy, encode, decode = item
    return Codec(None if copy is None else _each_into_tuple(copy),
                 list if encode is None else _each(encode),
                 tuple if decode is None else _each_into_tuple(decode))


def _dict_codec(key: Any, value: Codec) -> Codec:
    copy_v, encode_v, decode_v = value
    copy = dict.copy if copy_v is None else (lambda d: {k: copy_v(v) for k, v in d.items()})
    if key is str:
        return Codec(copy,
                     dict if encode_v is None else (lambda d: {k: encode_v(v) for k, v in d.items()}),
                     dict if decode_v is None else (lambda d: {k: decode_v(v) for k, v in d.items()}))
    if key is int:                      # JSON keys are strings: saved as [key, value] pairs
        encode = encode_v or _same
        decode = decode_v or _same
        return Codec(copy, lambda d: [[k, encode(v)] for k, v in d.items()],
                     lambda pairs: {int(k): decode(v) for k, v in pairs})
    raise TypeError(f"dict keys must be str or int, got {key!r}")


def _class_codec(cls: type) -> Codec:
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return _named_tuple_codec(cls)
    frozen = dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    if not (hasattr(cls, "to_dict") and hasattr(cls, "from_dict")
            and (frozen or hasattr(cls, "clone"))):
        raise TypeError(f"{cls.__qualname__} has no clone(), to_dict() and from_dict()")
    return Codec(None if frozen else methodcaller("clone"), methodcaller("to_dict"),
                 cls.from_dict)


def _named_tuple_codec(cls: type) -> Codec:
    """A NamedTuple of immutable fields: shared, saved as the list of its fields."""
    hints = typing.get_type_hints(cls)
    parts = [_type_codec(hints[name]) for name in cls._fields]
    if any(p.copy is not None for p in parts):
        raise TypeError(f"NamedTuple {cls.__qualname__} holds a mutable field")
    encoders = [p.encode or _same for p in parts]
    decoders = [p.decode or _same for p in parts]
    return Codec(None, lambda t: [f(v) for f, v in zip(encoders, t, strict=True)],
                 lambda xs: cls(*[f(v) for f, v in zip(decoders, xs, strict=True)]))
