"""The keyed dice of :mod:`dugout.envs.core.dice`, over numpy arrays of games.

:class:`~dugout.envs.core.dice.Dice` draws ``mix64(mix64(stream_hash ^ purpose_code) + n)``:
``stream_hash`` is ``mix64(seed)`` hashed with each key of the stream (``set_stream(half_index,
pa)`` for That's Baseball), ``purpose_code`` is ``mix64(crc32(purpose))`` and ``n`` counts the
purpose's draws in the stream; a die is ``value % sides + 1``. This module does the same
arithmetic over ``uint64`` arrays, so that game ``i`` of a batch draws exactly the numbers
``Dice(seed_i)`` draws.

numpy's ``uint64`` multiplication and addition wrap modulo 2**64, which is exactly
SplitMix64's ``& _MASK64``. Every constant is an ``np.uint64`` (numpy promotes ``uint64``
with a signed integer to ``float64``), and the hashes run in place on arrays (a numpy scalar
warns when it wraps; an array does not).

>>> d = BatchedDice(2, ("at_bat",))
>>> d.seed([0, 1], [7, 8])
>>> d.set_stream([0, 1], [0, 0], [0, 0])
>>> d.roll(np.array([0, 1]), "at_bat", dice=2).tolist() == [
...     _scalar_roll(7, "at_bat"), _scalar_roll(8, "at_bat")]
True
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np

__all__ = ["mix64", "purpose_code", "seed_hash", "BatchedDice"]

U64 = np.uint64
GOLDEN = U64(0x9E3779B97F4A7C15)
_M1 = U64(0xBF58476D1CE4E5B9)
_M2 = U64(0x94D049BB133111EB)
_S30, _S27, _S31 = U64(30), U64(27), U64(31)
_MASK64 = (1 << 64) - 1


def mix64(z: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """SplitMix64's output function over a ``uint64`` array: into a new array, or in place
    into ``out`` (which may be ``z`` itself)."""
    if out is None:
        out = np.array(z, dtype=U64)
        z = out
    z = np.add(z, GOLDEN, out=out)
    t = np.right_shift(z, _S30, out=np.empty(z.shape, dtype=U64))
    z ^= t
    z *= _M1
    np.right_shift(z, _S27, out=t)
    z ^= t
    z *= _M2
    np.right_shift(z, _S31, out=t)
    z ^= t
    return z


def _mix64_int(z: int) -> int:
    return int(mix64(np.array([z & _MASK64], dtype=U64))[0])


_OFFSETS = np.arange(8, dtype=U64)


def purpose_code(purpose: str) -> np.uint64:
    """The stable code of a purpose name, as ``Dice`` keys it: ``mix64(crc32(name))``."""
    if not isinstance(purpose, str) or not purpose:
        raise ValueError(f"dice purpose must be a non-empty string, got {purpose!r}")
    return U64(_mix64_int(zlib.crc32(purpose.encode("utf-8"))))


def _as_seeds(seeds) -> np.ndarray:
    """Game seeds as ``uint64`` (non-negative ints; larger than 64 bits keep their low bits,
    as ``Dice`` does)."""
    raw = np.asarray(seeds)
    if raw.dtype == object or raw.dtype.kind not in "iu":
        values = [s for s in np.ravel(raw)]
        bad = [(i, s) for i, s in enumerate(values)
               if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)) or s < 0]
        if bad:
            raise ValueError("seeds must be non-negative ints; got " + ", ".join(
                f"{s!r} at {i}" for i, s in bad[:5]) + (" ..." if len(bad) > 5 else ""))
        return np.array([int(s) & _MASK64 for s in values], dtype=U64).reshape(raw.shape)
    if raw.dtype.kind == "i" and raw.size and raw.min() < 0:
        where = np.flatnonzero(np.ravel(raw) < 0)
        raise ValueError("seeds must be non-negative ints; got " + ", ".join(
            f"{int(np.ravel(raw)[i])} at {i}" for i in where[:5]) + (" ..." if where.size > 5 else ""))
    return raw.astype(U64)


def seed_hash(seeds) -> np.ndarray:
    """``mix64(seed)`` of each seed: a stream's starting hash."""
    return mix64(_as_seeds(seeds))


def _scalar_roll(seed: int, purpose: str, dice: int = 2) -> int:
    """A doctest helper: the scalar engine's roll in stream (0, 0)."""
    from ..envs.core.dice import Dice
    d = Dice(seed)
    d.set_stream(0, 0)
    return d.roll(purpose, dice=dice)


class BatchedDice:
    """``Dice`` for ``num_games`` games: each game's seed hash, its stream's hash and how many
    draws each purpose has made in the stream (``draws[purpose_index, game]``). Methods take
    ``idx``, the games concerned (an int array), and act on those alone.

    ``purposes`` are fixed up front; ``roll(idx, purpose)`` is ``Dice.roll(purpose)`` of
    each game in ``idx``.

    A stream's hash is built key by key, so the hash of its leading keys can be kept and
    reused: ``set_prefix(idx, h)`` then ``set_stream_after_prefix(idx, pa)`` enters the same
    stream as ``set_stream(idx, h, pa)``, with one hash fewer for each later ``pa``.
    """

    def __init__(self, num_games: int, purposes: Sequence[str]):
        self.purposes = tuple(purposes)
        if len(set(self.purposes)) != len(self.purposes):
            raise ValueError(f"dice purposes are listed twice: {self.purposes}")
        self.index = {p: i for i, p in enumerate(self.purposes)}
        self.codes = np.array([purpose_code(p) for p in self.purposes], dtype=U64)
        self.seed_hash = np.zeros(num_games, dtype=U64)
        self.stream_hash = np.zeros(num_games, dtype=U64)
        self.prefix_hash = np.zeros(num_games, dtype=U64)
        self.draws = np.zeros((len(self.purposes), num_games), dtype=np.int32)

    def seed(self, idx, seeds) -> None:
        """New seeds for games ``idx`` (their stream is the empty key, as ``Dice(seed)``)."""
        h = seed_hash(seeds)
        self.seed_hash[idx] = h
        self.stream_hash[idx] = h
        self.prefix_hash[idx] = h
        self.draws[:, idx] = 0

    @staticmethod
    def _extend(h: np.ndarray, keys) -> np.ndarray:
        for k in keys:
            h ^= np.asarray(k).astype(U64)
            mix64(h, out=h)
        return h

    def set_stream(self, idx, *keys) -> None:
        """Games ``idx`` enter stream ``keys`` (``Dice.set_stream``; each key an int or an
        array of non-negative ints, one per game): draw counts restart."""
        self.stream_hash[idx] = self._extend(self.seed_hash[idx], keys)
        self.draws[:, idx] = 0

    def set_prefix(self, idx, *keys) -> None:
        """Keep the hash of the leading stream keys ``keys`` for games ``idx``."""
        self.prefix_hash[idx] = self._extend(self.seed_hash[idx], keys)

    def set_stream_after_prefix(self, idx, *keys) -> None:
        """Games ``idx`` enter the stream of their prefix's keys followed by ``keys``."""
        self.stream_hash[idx] = self._extend(self.prefix_hash[idx], keys)
        self.draws[:, idx] = 0

    def draw(self, idx: np.ndarray, purpose: str, count: int = 1) -> np.ndarray:
        """The next ``count`` draws of ``purpose`` for games ``idx``: (len(idx), count) uint64."""
        p = self.index[purpose]
        counter = self.draws[p]
        n = counter[idx]
        counter[idx] = n + count
        key = self.stream_hash[idx]
        key ^= self.codes[p]
        mix64(key, out=key)              # the purpose's key in the stream
        key += n.astype(U64)
        z = np.add(key[:, None], _OFFSETS[:count])
        return mix64(z, out=z)

    def roll(self, idx: np.ndarray, purpose: str, dice: int = 1, sides: int = 6) -> np.ndarray:
        """The total of ``dice`` dice with ``sides`` faces for each game in ``idx`` (int16)."""
        faces = (self.draw(idx, purpose, dice) % U64(sides)).astype(np.int16)
        total = faces[:, 0] + 1
        for j in range(1, dice):
            total += faces[:, j] + 1
        return total

    def copy(self) -> BatchedDice:
        new = BatchedDice.__new__(BatchedDice)
        new.purposes, new.index, new.codes = self.purposes, self.index, self.codes
        new.seed_hash = self.seed_hash.copy()
        new.stream_hash = self.stream_hash.copy()
        new.prefix_hash = self.prefix_hash.copy()
        new.draws = self.draws.copy()
        return new
