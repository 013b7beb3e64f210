"""Seeded dice with common random numbers, and scripted dice for tests.

Every roll is a pure function of four things: the game seed, the *stream* the engine
is in (for baseball games: the half-inning and the plate appearance within it), the
*purpose* of the roll ("at_bat", "steal", ...) and how many rolls of that purpose the
stream has already made. Nothing else feeds it, so two managers playing the same seed
see the same dice for the same plate appearance even after their earlier decisions
differ (common random numbers: the evaluation harness compares managers on fewer
games that way).

The generator is counter based: a SplitMix64 hash of the key, in the spirit of
Philox and Threefry. Its whole state is the seed, the stream key and a few counters,
so it copies and round-trips through JSON for free. A die is ``value % sides`` of a
64-bit hash; the modulo bias is below 1e-18.

Tests replace :class:`Dice` with :class:`ScriptedDice`, which hands out the rolls
it was given, in order, and checks their purpose when the script names one.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from operator import methodcaller
from typing import Any

from .state import SaveError, check_int, codec, decode_as, describe, saved_keys

__all__ = ["Dice", "ScriptedDice", "DiceScriptError", "make_dice", "chance_d20_beats", "DICE"]

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix64(z: int) -> int:
    """SplitMix64's output function: a bijective, well-avalanching 64-bit hash."""
    z = (z + _GOLDEN) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


_PURPOSE_CODES: dict[str, int] = {}


def _purpose_code(purpose: str) -> int:
    """A stable integer for a purpose name (Python's own str hash changes per process)."""
    code = _PURPOSE_CODES.get(purpose)
    if code is None:
        if not isinstance(purpose, str) or not purpose:
            raise ValueError(f"dice purpose must be a non-empty string, got {purpose!r}")
        code = _mix64(zlib.crc32(purpose.encode("utf-8")))
        _PURPOSE_CODES[purpose] = code
    return code


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"dice seed must be an int, got {type(seed).__name__} {seed!r}")
    if seed < 0:
        raise ValueError(f"dice seed must be non-negative, got {seed}")
    return seed & _MASK64


def chance_d20_beats(bonus: int, target: int) -> float:
    """P(d20 + bonus > target) for a fair d20 and whole numbers (ties fail)."""
    return min(max((20 + bonus - target) / 20, 0.0), 1.0)


class Dice:
    """Keyed dice: ``roll(purpose)`` depends only on (seed, stream, purpose, draw count).

    >>> d = Dice(seed=7)
    >>> d.set_stream(0, 0)          # top of the 1st, first plate appearance
    >>> a = d.roll("at_bat", dice=2)
    >>> d.set_stream(0, 0)
    >>> a == d.roll("at_bat", dice=2)
    True
    """

    scripted = False

    __slots__ = ("seed", "stream", "_seed_hash", "_stream_hash", "_draws", "_keys", "_prefix")

    def __init__(self, seed: int, stream: Sequence[int] = ()):
        self.seed = _check_seed(seed)
        self._seed_hash = _mix64(self.seed)
        self._draws: dict[str, int] = {}
        # (all keys of the last stream but its last, their hash): the next stream of the
        # same half inning starts from it (the same numbers as hashing every key again)
        self._prefix: tuple[tuple[int, ...], int] = ((), self._seed_hash)
        self.set_stream(*stream)

    def set_stream(self, *key: int) -> None:
        """Enter a new stream (e.g. ``half_inning, plate_appearance``); resets draw counts."""
        for k in key:
            if k.__class__ is not int or k < 0:
                if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                    raise ValueError(f"stream keys must be non-negative ints, got {key!r}")
        head = key[:-1]
        prefix, h = self._prefix
        if head != prefix:
            h = self._seed_hash
            for k in head:
                h = _mix64(h ^ k)
            self._prefix = (head, h)
        if key:
            z = ((h ^ key[-1]) + _GOLDEN) & _MASK64         # _mix64(h ^ last key), inlined
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            h = z ^ (z >> 31)
        self.stream = key
        self._stream_hash = h
        self._draws = {}
        self._keys: dict[str, int] = {}

    def _draw(self, purpose: str) -> int:
        draws = self._draws
        n = draws.get(purpose, 0)
        draws[purpose] = n + 1
        # the purpose's key in this stream, hashed once per stream (the same numbers as
        # hashing it on every draw); most purposes are drawn once a stream, so the two
        # mixes are written out here (_mix64's lines: a call costs as much as a line)
        key = self._keys.get(purpose)
        if key is None:
            code = _PURPOSE_CODES.get(purpose)
            if code is None:
                code = _purpose_code(purpose)
            z = ((self._stream_hash ^ code) + _GOLDEN) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            key = self._keys[purpose] = z ^ (z >> 31)
        z = (key + n + _GOLDEN) & _MASK64             # _mix64(key + n)
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def randbelow(self, purpose: str, n: int) -> int:
        """A uniform integer in ``[0, n)`` from the stream's next draw for ``purpose``."""
        if n <= 0:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        return self._draw(purpose) % n

    def roll(self, purpose: str, dice: int = 1, sides: int = 6) -> int:
        """The total of ``dice`` fair dice with ``sides`` faces each."""
        if dice == 1:
            return 1 + self._draw(purpose) % sides
        total = dice
        for _ in range(dice):
            total += self._draw(purpose) % sides
        return total

    def shuffle(self, purpose: str, items: Iterable[Any]) -> list[Any]:
        """A new list with ``items`` in a uniformly random order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(purpose, i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    # -- copying and saving ---------------------------------------------------------
    def clone(self) -> Dice:
        new = Dice.__new__(Dice)
        new.seed = self.seed
        new._seed_hash = self._seed_hash
        new.stream = self.stream
        new._stream_hash = self._stream_hash
        new._draws = dict(self._draws)
        new._keys = self._keys.copy()
        new._prefix = self._prefix
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"type": "keyed", "seed": self.seed, "stream": list(self.stream),
                "draws": dict(self._draws)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Dice:
        """Rebuild saved dice, checked (a :class:`~.state.SaveError` names the key): a seed
        of 64 bits, a stream of non-negative ints, draw counts per purpose."""
        saved_keys(data, (), ("seed", "stream", "draws"), ("type",))
        seed = check_int(data["seed"], ("seed",), 0, _MASK64)
        stream = decode_as(tuple[int, ...], data["stream"], ("stream",))
        for i, k in enumerate(stream):
            check_int(k, ("stream", i), 0)
        draws = decode_as(dict[str, int], data["draws"], ("draws",))
        for purpose, n in draws.items():
            if not purpose:
                raise SaveError("a dice purpose is a non-empty string", ("draws",))
            check_int(n, ("draws", f"[{purpose!r}]"), 0)
        new = cls(seed, stream)
        new._draws = draws
        return new


class DiceScriptError(RuntimeError):
    """A scripted roll was missing, out of range, or made for another purpose."""


class ScriptedDice:
    """Dice that hand out prepared totals, for replaying a rulebook example exactly.

    Each entry is either a total (``7``) or ``(purpose, total)``; a named purpose is
    checked against the roll the engine asks for, so a script that drifts from the
    game fails at the first wrong roll instead of silently playing another game.
    When the script runs out the game stops with :class:`DiceScriptError`, unless
    ``then`` gives dice to go on with (set up a situation, then play it out).

    >>> d = ScriptedDice([("at_bat", 5), 3])
    >>> d.roll("at_bat", dice=2), d.roll("steal")
    (5, 3)
    """

    scripted = True

    def __init__(self, rolls: Iterable[int | tuple[str, int]], then: Dice | None = None):
        self.then = then
        self.script: list[tuple[str | None, int]] = []
        for i, entry in enumerate(rolls):
            if isinstance(entry, tuple):
                if len(entry) != 2:
                    raise DiceScriptError(f"script entry {i} must be (purpose, total), got {entry!r}")
                purpose, total = entry
            else:
                purpose, total = None, entry
            if isinstance(total, bool) or not isinstance(total, int):
                raise DiceScriptError(f"script entry {i}: total must be an int, got {total!r}")
            self.script.append((purpose, total))
        self.position = 0
        self.stream: tuple[int, ...] = ()
        self.log: list[tuple[str, int]] = []

    @property
    def remaining(self) -> int:
        return len(self.script) - self.position

    def set_stream(self, *key: int) -> None:
        self.stream = tuple(key)
        if self.then is not None:
            self.then.set_stream(*key)

    def _next(self, purpose: str, low: int, high: int) -> int:
        if self.position >= len(self.script):
            raise DiceScriptError(
                f"scripted dice ran out: the game asked for a {purpose!r} roll after "
                f"{len(self.script)} scripted rolls")
        want, total = self.script[self.position]
        if want is not None and want != purpose:
            raise DiceScriptError(
                f"scripted roll {self.position} is for {want!r} but the game asked for "
                f"a {purpose!r} roll")
        if not low <= total <= high:
            raise DiceScriptError(
                f"scripted roll {self.position} ({purpose!r}) is {total}, outside {low}..{high}")
        self.position += 1
        self.log.append((purpose, total))
        return total

    def roll(self, purpose: str, dice: int = 1, sides: int = 6) -> int:
        if self.then is not None and self.position >= len(self.script):
            return self.then.roll(purpose, dice, sides)
        return self._next(purpose, dice, dice * sides)

    def randbelow(self, purpose: str, n: int) -> int:
        if self.then is not None and self.position >= len(self.script):
            return self.then.randbelow(purpose, n)
        return self._next(purpose, 0, n - 1)

    def shuffle(self, purpose: str, items: Iterable[Any]) -> list[Any]:
        """Scripted shuffles keep the given order: tests stack the deck themselves."""
        return list(items)

    def clone(self) -> ScriptedDice:
        new = ScriptedDice([], None if self.then is None else self.then.clone())
        new.script = list(self.script)
        new.position = self.position
        new.stream = self.stream
        new.log = list(self.log)
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"type": "scripted", "script": [list(e) for e in self.script],
                "position": self.position, "stream": list(self.stream),
                "then": None if self.then is None else self.then.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScriptedDice:
        """Rebuild saved scripted dice, checked (a :class:`~.state.SaveError` names the key)."""
        saved_keys(data, (), ("script", "position", "stream"), ("type", "then"))
        script = decode_as(list[tuple], data["script"], ("script",))
        rolls: list[int | tuple[str, int]] = []
        for i, entry in enumerate(script):
            if len(entry) != 2 or not (entry[0] is None or type(entry[0]) is str):
                raise SaveError("expected [purpose or null, total]", ("script", i))
            total = check_int(entry[1], ("script", i, 1))
            rolls.append(total if entry[0] is None else (entry[0], total))
        then = data.get("then")
        try:
            then = None if then is None else Dice.from_dict(then)
        except SaveError as e:
            raise e.within("then") from None
        new = cls(rolls, then)
        new.position = check_int(data["position"], ("position",), 0, len(rolls))
        stream = decode_as(tuple[int, ...], data["stream"], ("stream",))
        for i, k in enumerate(stream):
            check_int(k, ("stream", i), 0)
        new.stream = stream
        return new


def make_dice(data: dict[str, Any]) -> Dice | ScriptedDice:
    """Rebuild dice saved with ``to_dict``."""
    if not isinstance(data, dict):
        raise SaveError(f"saved dice are an object, got {describe(data)}")
    kind = data.get("type")
    if kind == "keyed":
        return Dice.from_dict(data)
    if kind == "scripted":
        return ScriptedDice.from_dict(data)
    raise SaveError(f"unknown dice type {describe(kind)} in saved game (expected 'keyed' or "
                    f"'scripted')")


#: ``field(metadata=DICE)``: how a game state copies and saves its dice, keyed or scripted.
DICE = codec(methodcaller("to_dict"), make_dice, copy=methodcaller("clone"))
