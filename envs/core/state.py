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

Loading checks every value against its declared type, at every depth: an ``int`` is an int
and not a bool, a ``float`` a finite number, a ``bool`` a bool, a ``str`` a string, a list
or tuple holds items of its declared type (``tuple[T, T, T]``: exactly three), a
``dict[int, V]`` has int keys, a NamedTuple has its number of fields, and ``T | None`` is
``null`` or a ``T``. What a type cannot say (outs 0 to 3, an index into a lineup, the
pending decision's options) a class checks in a ``validate()`` hook, which ``from_dict``
calls once the fields are loaded (nested states first). Either way a damaged save is
refused with a :class:`SaveError` (a ``ValueError``) naming the value's path::

    saved That's Baseball game: board.bases[2]: expected an int, a string or null, got a list of 1
    saved That's Baseball game: board.outs: expected 0 to 3, got 4

``clone()`` checks nothing: it copies a state that was valid already.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import math
import types
import typing
from operator import methodcaller
from typing import Any, Callable, ClassVar, Iterable, NamedTuple

from .errors import DataError

__all__ = ["PlainState", "SavedAs", "Codec", "codec", "pair_codec", "state_from_dict",
           "SaveError", "decode_as", "describe", "check_int", "check_ints", "check_index",
           "check_indexes", "check_len", "check_choice", "saved_keys"]


# -- errors ---------------------------------------------------------------------------------------
class SaveError(DataError):
    """A saved state that cannot be loaded. ``path`` names the bad value from the saved
    state down (``("board", "bases", 2)`` reads ``board.bases[2]``), ``problem`` says what
    is wrong with it and ``what`` which kind of save it is (``"That's Baseball game"``)."""

    def __init__(self, problem: str, path: Iterable[str | int] = (), what: str | None = None):
        self.problem = problem
        self.path = tuple(path)
        self.what = what
        super().__init__(self._message())

    def _message(self) -> str:
        where = path_text(self.path)
        return ("" if self.what is None else f"saved {self.what}: ") + (
            f"{where}: " if where else "") + self.problem

    def within(self, *outer: str | int, what: str | None = None) -> SaveError:
        """The same error seen from a state holding this value at ``outer``."""
        return SaveError(self.problem, outer + self.path, what or self.what)


def path_text(path: Iterable[str | int]) -> str:
    """``("board", "bases", 2)`` as ``board.bases[2]``."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        elif isinstance(p, str) and p.startswith("["):
            out += p
        else:
            out += f".{p}" if out else str(p)
    return out


def describe(value: Any) -> str:
    """A value for an error message: a scalar's repr (cut short), a container's kind (a
    damaged save may nest lists too deep for ``repr``)."""
    if value is None:
        return "null"
    if isinstance(value, (bool, float, str)) or type(value) is int:
        text = repr(value) if not isinstance(value, int) or value.bit_length() < 200 else \
            f"an int of {value.bit_length()} bits"
        return text if len(text) <= 60 else text[:57] + "..."
    if isinstance(value, int):
        return f"{type(value).__name__} {int(value)}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"an object of {len(value)} keys"
    return f"a {type(value).__name__}"


# -- checks a validate() hook uses ------------------------------------------------------------------
def check_int(value: Any, path: Iterable[str | int], low: int | None = None,
              high: int | None = None) -> int:
    """``value`` if it is an int (not a bool) from ``low`` to ``high``, else a SaveError."""
    if type(value) is not int:
        raise SaveError(f"expected an int, got {describe(value)}", path)
    if (low is not None and value < low) or (high is not None and value > high):
        span = (f"{low} to {high}" if low is not None and high is not None
                else f"at least {low}" if low is not None else f"at most {high}")
        raise SaveError(f"expected {span}, got {describe(value)}", path)
    return value


def check_index(value: Any, size: int, path: Iterable[str | int], what: str = "",
                none: int | None = None) -> int:
    """``value`` if it indexes a sequence of ``size`` (or equals ``none``, the "nobody"
    value such as -1), else a SaveError naming ``what`` it indexes."""
    if value == none and type(value) is int:
        return value
    if type(value) is not int or not 0 <= value < size:
        into = f" into {what}" if what else ""
        extra = f" (or {none})" if none is not None else ""
        raise SaveError(f"expected an index 0 to {size - 1}{extra}{into}, got {describe(value)}",
                        path)
    return value


def check_ints(values: Any, path: Iterable[str | int], low: int | None = None,
               high: int | None = None) -> None:
    """Each of ``values`` (a list or tuple) passes :func:`check_int` (checked in one pass;
    item by item only to name a bad one)."""
    if values and not (_INTS.issuperset(map(type, values))
                       and (low is None or min(values) >= low)
                       and (high is None or max(values) <= high)):
        path = tuple(path)
        for i, v in enumerate(values):
            check_int(v, path + (i,), low, high)


def check_indexes(values: Any, size: int, path: Iterable[str | int], what: str = "",
                  none: int | None = None, nulls: bool = False) -> None:
    """Each of ``values`` (a list or tuple) passes :func:`check_index` (``nulls``: or is None,
    an empty place), checked in one pass; item by item only to name a bad one."""
    present = [v for v in values if v is not None] if nulls else values
    if not present or (_INTS.issuperset(map(type, present))
                       and 0 <= min(present) and max(present) < size):
        return
    path = tuple(path)
    for i, v in enumerate(values):
        if not (nulls and v is None):
            check_index(v, size, path + (i,), what, none)


_INTS = frozenset({int})


def check_len(seq: Any, size: int, path: Iterable[str | int]) -> Any:
    """``seq`` if it has ``size`` items, else a SaveError."""
    if len(seq) != size:
        raise SaveError(f"expected {size} items, got {len(seq)}", path)
    return seq


def check_choice(value: Any, choices: Iterable[Any], path: Iterable[str | int]) -> Any:
    """``value`` if it is one of ``choices`` (compared by type too: ``True`` is not 1)."""
    choices = tuple(choices)
    if not any(type(value) is type(c) and value == c for c in choices):
        shown = ", ".join(describe(c) for c in choices[:12]) + (", ..." if len(choices) > 12 else "")
        raise SaveError(f"expected one of {shown}, got {describe(value)}", path)
    return value


def saved_keys(data: Any, path: Iterable[str | int], required: Iterable[str],
               optional: Iterable[str] = ()) -> dict[str, Any]:
    """``data`` if it is an object with the ``required`` keys and no keys but those and
    ``optional`` (for a ``from_dict`` written by hand), else a SaveError."""
    if not isinstance(data, dict):
        raise SaveError(f"expected an object, got {describe(data)}", path)
    missing = [k for k in required if k not in data]
    if missing:
        raise SaveError(f"missing key(s) {missing}", path)
    known = set(required) | set(optional)
    unknown = [k for k in data if k not in known]
    if unknown:
        raise SaveError(f"unknown key(s) {sorted(map(str, unknown))}", path)
    return data


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

    def validate(self) -> None:
        """Check what the field types cannot say (ranges, indexes, consistency); raise a
        :class:`SaveError` naming the field path. ``from_dict`` calls it on a loaded state."""


# -- per-class plans ------------------------------------------------------------------------
class _Plan(NamedTuple):
    copies: tuple[tuple[str, Callable[[Any], Any]], ...]    # the fields clone must copy
    fields: tuple[tuple[str, Codec, bool], ...]              # every field, required or not
    names: frozenset[str]                                    # the keys a saved dict may have


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
                if c.decode is None:
                    c = c._replace(decode=_same)
            except TypeError as e:
                raise TypeError(f"{cls.__qualname__}.{f.name}: {e}; declare "
                                f"field(metadata=codec(encode, decode, copy))") from None
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            fields.append((f.name, c, required))
        tag = cls.SAVED_AS
        names = frozenset([n for n, _, _ in fields] + ([tag.key] if tag else []))
        plan = _PLANS[cls] = _Plan(tuple((n, c.copy) for n, c, _ in fields if c.copy),
                                   tuple(fields), names)
    return plan


#: What a decoder or a validate() hook may raise on a damaged value (a RecursionError: a
#: value nested too deep), turned into a SaveError naming the field.
_DAMAGE = (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError)


def _reason(e: BaseException) -> str:
    if isinstance(e, RecursionError):
        return "nested too deeply"
    text = str(e) if not isinstance(e, KeyError) else f"no such key {e}"
    return text or type(e).__name__


def state_from_dict(cls: type[PlainState], data: Any) -> Any:
    """Rebuild a ``cls`` saved with its ``to_dict``, checking every field against its
    declared type and then the class's ``validate()``; a :class:`SaveError` (a
    ``ValueError``) names what is wrong with a dict that is not one (another kind of save,
    a missing or unknown field, a value of the wrong type or out of range)."""
    tag = cls.SAVED_AS
    what = cls.__qualname__ if tag is None else tag.what
    if not isinstance(data, dict):
        raise SaveError(f"a saved {what} is an object, got {describe(data)}")
    if tag is not None and data.get(tag.key) != tag.name:
        value = data.get(tag.key)
        shown = repr(value) if value is None or isinstance(value, str) else describe(value)
        raise SaveError(f"not a saved {what} ({tag.key} {shown})")
    plan = _plan(cls)
    if not plan.names.issuperset(data):
        unknown = set(map(str, data)) - plan.names
        raise SaveError(f"unknown field(s) {sorted(unknown)}", (), what)
    values = {}
    for name, c, required in plan.fields:
        if name not in data:
            if required:
                raise SaveError(f"field {name!r} is missing", (), what)
            continue
        try:
            values[name] = c.decode(data[name])
        except SaveError as e:
            raise e.within(name, what=what) from None
        except _DAMAGE as e:
            raise SaveError(_reason(e), (name,), what) from e
    try:
        state = cls(**values)
        state.validate()
    except SaveError as e:
        raise e.within(what=what) from None
    except _DAMAGE as e:
        raise SaveError(_reason(e), (), what) from e
    return state


def decode_as(tp: Any, value: Any, path: Iterable[str | int] = ()) -> Any:
    """``value`` (saved JSON data) read back as the declared type ``tp``, checked as
    :func:`state_from_dict` checks a field of that type (for a ``from_dict`` written by
    hand); a :class:`SaveError` names ``path`` and what is wrong."""
    decode = _DECODERS.get(tp)
    if decode is None:
        c = _type_codec(tp)
        decode = _DECODERS[tp] = c.decode or _same
    try:
        return decode(value)
    except SaveError as e:
        raise e.within(*path) from None


_DECODERS: dict[Any, Callable[[Any], Any]] = {}


# -- codecs from declared types -----------------------------------------------------------------
# Each decoder checks the saved value against the declared type and raises a SaveError whose
# path runs from the value down (containers prefix the index or key of a bad item).


def _same(x: Any) -> Any:
    return x


def _expected(kind: str, value: Any) -> SaveError:
    return SaveError(f"expected {kind}, got {describe(value)}")


def _decode_int(x: Any) -> int:
    if type(x) is not int:
        raise _expected("an int", x)
    return x


def _decode_float(x: Any) -> float:
    if (type(x) is not float and type(x) is not int) or not math.isfinite(x):
        raise _expected("a finite number", x)
    return x


def _decode_str(x: Any) -> str:
    if type(x) is not str:
        raise _expected("a string", x)
    return x


def _decode_bool(x: Any) -> bool:
    if type(x) is not bool:
        raise _expected("true or false", x)
    return x


def _decode_none(x: Any) -> None:
    if x is not None:
        raise _expected("null", x)
    return x


def _decode_key(x: Any) -> Any:
    """A Hashable value (a runner on a base): an int or a string."""
    if type(x) is not int and type(x) is not str:
        raise _expected("an int or a string", x)
    return x


def _is_plain(x: Any) -> bool:
    return x is None or type(x) in (int, str, bool) or (type(x) is float and math.isfinite(x))


def _decode_plain_tuple(xs: Any) -> tuple:
    """A bare ``tuple``: a list of plain values (numbers, strings, booleans, null)."""
    if type(xs) is not list:
        raise _expected("a list", xs)
    for i, x in enumerate(xs):
        if not _is_plain(x):
            raise _expected("a number, a string, true, false or null", x).within(i)
    return tuple(xs)


_SCALAR_DECODERS: dict[Any, Callable[[Any], Any]] = {
    int: _decode_int, float: _decode_float, str: _decode_str, bool: _decode_bool,
    type(None): _decode_none, typing.Hashable: _decode_key, collections.abc.Hashable: _decode_key,
}
#: what each scalar decoder expects, for an optional's message ("an int or null")
_KINDS = {_decode_int: "an int", _decode_float: "a finite number", _decode_str: "a string",
          _decode_bool: "true or false", _decode_key: "an int, a string"}


#: The decoders that accept a value as it is when its type is one of these (the exact types,
#: no bool for an int): a list of such values is checked in one pass, and only a list with a
#: bad item goes item by item (to say which).
_EXACT: dict[Callable[[Any], Any], frozenset[type]] = {
    _decode_int: frozenset({int}), _decode_str: frozenset({str}), _decode_bool: frozenset({bool}),
    _decode_key: frozenset({int, str}), _decode_none: frozenset({type(None)})}


def _type_codec(tp: Any) -> Codec:
    """The codec the module docstring's table gives a declared type."""
    scalar = _SCALAR_DECODERS.get(tp)
    if scalar is not None:
        return Codec(None, None, scalar)
    if tp is tuple:
        return Codec(None, list, _decode_plain_tuple)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        return _optional_codec(tp, args)
    if origin is list:
        return _list_codec(_type_codec(args[0]))
    if origin is tuple:
        if len(set(args) - {Ellipsis}) != 1:
            raise TypeError(f"a tuple of mixed types ({tp}) has no codec")
        return _tuple_codec(_type_codec(args[0]), None if Ellipsis in args else len(args))
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

    kind = _KINDS.get(decode)
    if kind is not None:
        def decode_optional(x: Any) -> Any:
            if x is None:
                return None
            try:
                return decode(x)
            except SaveError:
                raise _expected(f"{kind} or null", x) from None
        exact = _EXACT.get(decode)
        if exact is not None:
            _EXACT[decode_optional] = exact | {type(None)}
        return Codec(maybe(copy), maybe(encode), decode_optional)
    return Codec(maybe(copy), maybe(encode), maybe(decode))


def _decode_each(decode: Callable[[Any], Any], xs: Any, size: int | None) -> list:
    if type(xs) is not list:
        raise _expected("a list" if size is None else f"a list of {size}", xs)
    if size is not None and len(xs) != size:
        raise SaveError(f"expected a list of {size}, got {len(xs)} items")
    out = []
    for i, x in enumerate(xs):
        try:
            out.append(decode(x))
        except SaveError as e:
            raise e.within(i) from None
        except _DAMAGE as e:
            raise SaveError(_reason(e), (i,)) from e
    return out


def _each(f: Callable) -> Callable:
    return lambda xs: [f(x) for x in xs]


def _each_into_tuple(f: Callable) -> Callable:
    return lambda xs: tuple([f(x) for x in xs])


def _decode_list(decode: Callable[[Any], Any], size: int | None) -> Callable[[Any], list]:
    """A list's decoder: items of an exact type checked in one pass (see ``_EXACT``)."""
    exact = _EXACT.get(decode)
    if exact is None:
        return lambda xs: _decode_each(decode, xs, size)

    def decode_plain(xs: Any) -> list:
        if type(xs) is list and (size is None or len(xs) == size) and all(
                type(x) in exact for x in xs):
            return xs.copy()
        return _decode_each(decode, xs, size)
    return decode_plain


def _list_codec(item: Codec) -> Codec:
    copy, encode, decode = item
    return Codec(list.copy if copy is None else _each(copy),
                 list if encode is None else _each(encode),
                 _decode_list(decode, None))


def _tuple_codec(item: Codec, size: int | None) -> Codec:
    copy, encode, decode = item
    decode_items = _decode_list(decode, size)
    return Codec(None if copy is None else _each_into_tuple(copy),
                 list if encode is None else _each(encode),
                 lambda xs: tuple(decode_items(xs)))


def _dict_codec(key: Any, value: Codec) -> Codec:
    copy_v, encode_v, decode_v = value
    copy = dict.copy if copy_v is None else (lambda d: {k: copy_v(v) for k, v in d.items()})
    if key is str:
        def decode_str_keys(d: Any) -> dict:
            if type(d) is not dict:
                raise _expected("an object", d)
            out = {}
            for k, v in d.items():
                if type(k) is not str:
                    raise _expected("a string key", k)
                try:
                    out[k] = decode_v(v)
                except SaveError as e:
                    raise e.within(f"[{k!r}]") from None
            return out

        return Codec(copy,
                     dict if encode_v is None else (lambda d: {k: encode_v(v) for k, v in d.items()}),
                     decode_str_keys)
    if key is int:                      # JSON keys are strings: saved as [key, value] pairs
        encode = encode_v or _same

        def decode_int_keys(pairs: Any) -> dict:
            if type(pairs) is not list:
                raise _expected("a list of [key, value] pairs", pairs)
            out = {}
            for i, pair in enumerate(pairs):
                if type(pair) is not list or len(pair) != 2:
                    raise _expected("a [key, value] pair", pair).within(i)
                k, v = pair
                if type(k) is not int:
                    raise _expected("an int key", k).within(i, 0)
                if k in out:
                    raise SaveError(f"key {k} is saved twice", (i, 0))
                try:
                    out[k] = decode_v(v)
                except SaveError as e:
                    raise e.within(i, 1) from None
            return out

        return Codec(copy, lambda d: [[k, encode(v)] for k, v in d.items()], decode_int_keys)
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
    size = len(decoders)

    def decode(xs: Any) -> Any:
        if type(xs) is not list or len(xs) != size:
            raise _expected(f"a list of {size} ({', '.join(cls._fields)})", xs)
        values = []
        for i, (f, v) in enumerate(zip(decoders, xs)):
            try:
                values.append(f(v))
            except SaveError as e:
                raise e.within(i) from None
        return cls(*values)

    return Codec(None, lambda t: [f(v) for f, v in zip(encoders, t, strict=True)], decode)
