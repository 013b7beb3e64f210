"""Series: several games in a row, with explicit state carried from one game to the next.

A ruleset whose games leave something behind (Pokemon Baseball's pitcher rest and
injuries, Showdown's reliever rest) plays a series through the ``series`` option of
:class:`~dugout.envs.core.aec.BaseballAECEnv`. The AEC base class does the series
bookkeeping; the ruleset only says what carries over.

The option
----------

* ``series=None`` (the default): a single game, exactly as without this layer (same
  observations, spaces, rewards and infos).
* ``series=N`` or ``series={"best_of": N}``, ``N`` odd: best of ``N``. The series ends as
  soon as one side has won ``N // 2 + 1`` games, or once ``N`` games are played.
* ``series={"games": N}``, any ``N >= 1``: exactly ``N`` games (a campaign such as the
  Manager Challenge's six games), played out even once one side can no longer be caught.
* Either way ``N`` is at most :data:`MAX_SERIES_GAMES` (99): best of 99, or exactly 99
  games (the observation shows the game's number and the wins as fractions of ``N``).
  A longer series raises :class:`~dugout.envs.core.errors.OptionError` naming the limit.

A game with no winner (cut off by ``max_innings``) counts as played and won by nobody.
The series winner is the side with more wins when the series ends; with equal wins
(possible only after such games) the series is drawn.

What the env does in a series
-----------------------------

* **Games follow each other inside one episode.** When a game ends and the series is not
  decided, the env records the result, asks the ruleset for the carried state and starts
  the next game itself; the next ``agent_selection`` is that game's first decision.
* **Seeds.** ``reset(seed=s)`` seeds the series. Game 1 plays seed ``s`` itself (so it
  deals the same dice as a single game with seed ``s``); game ``g >= 2`` plays
  :func:`game_seed` ``(s, g)``, a SplitMix64 hash of ``s`` and ``g`` (63 bits). The same
  ``reset(seed)`` and actions give the same series; every game has its own dice. Scripted
  dice (the ``dice`` option of tests) start over from the top of the script each game.
* **Rewards** are 0 until the series ends, then +1 / -1 to the series winner and loser
  (``terminations``), or 0 each for a drawn series (``truncations``). An illegal action
  under ``env()`` still ends the episode at once with -1 to the offender.
* **Infos.** ``infos[agent]["series"]`` is present for both agents at every step, with
  one structure: ``{"length": N, "best_of": bool, "game": int, "wins": {"away": int,
  "home": int}, "over": bool}`` (``game``: the number of the game being played, or of the
  last one once the series is over). The single-game keys (``"decision"``, ``"score"``,
  ``"illegal_action"``) are as in a single game; ``"winner"`` is the series' winner.
  Every finished game's score is in ``env.unwrapped.series.results``.
* **Observation.** :data:`SERIES_PIECES` follow the ruleset's own pieces, from index
  ``OBS.size`` on (``env.unwrapped.obs_spec`` is ``with_series_pieces(OBS)``, whose
  ``table()`` the env's docstring shows). What the ruleset carries must be visible
  through its own pieces.
* **Saving.** ``env.unwrapped.save()`` returns a :class:`SeriesGame` (the :class:`Series`
  record and a clone of the current game's engine state); ``env.unwrapped.restore(saved)``
  continues the series; ``SeriesGame.to_dict()`` / ``from_dict()`` round-trip through JSON.

Opting in (what a ruleset implements)
-------------------------------------

1. ``PLAYS_SERIES = True`` on the env class (any other env rejects ``series`` with
   :class:`~dugout.envs.core.errors.OptionError`); take ``series`` as an option and pass it
   to ``BaseballAECEnv.__init__``.
2. ``_new_game(seed, carry=None)``: ``carry`` is ``None`` for a single game and the first
   game of a series, otherwise what ``_carry_over`` returned after the previous game (a
   copy: the game may change it).
3. ``_carry_over(finished, series) -> carry``: from the finished game's engine state (and
   the :class:`Series` record, which already counts that game), what the next game
   starts with. A carry is plain JSON data (dicts, lists, numbers, strings), or an
   object with ``clone()``, ``to_dict()`` and a ``from_dict()`` classmethod (then pass
   its class to ``SeriesGame.from_dict`` when loading a saved series).
4. Show the carry in the observation and the view, save it with the engine state (the
   game started from it should hold it), and document it in the env's docstring.

::

    class MyEnv(BaseballAECEnv):
        PLAYS_SERIES = True

        def __init__(self, series=None, render_mode=None, illegal_action="raise", dice=None):
            super().__init__(render_mode=render_mode, illegal_action=illegal_action,
                             dice=dice, series=series)

        def _new_game(self, seed, carry=None):
            rest = carry["rest"] if carry is not None else [[0] * ROSTER, [0] * ROSTER]
            return rules.new_game(self._dice(seed), rest=rest)

        def _carry_over(self, finished, series):
            return {"rest": rules.rest_after(finished)}
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .dice import _mix64
from .errors import OptionError, show
from .observation import ObservationSpec
from .state import SaveError, check_choice, check_int, decode_as, describe, saved_keys

__all__ = ["Series", "SeriesGame", "SERIES_PIECES", "MAX_SERIES_GAMES", "check_series",
           "game_seed", "with_series_pieces"]

_SIDES = ("away", "home")

#: The longest series the ``series`` option takes: best of 99, or exactly 99 games.
MAX_SERIES_GAMES = 99

#: The observation pieces a series appends to the ruleset's own, from the observer's side.
SERIES_PIECES = [
    ("series_game", 1, "number of the game being played in the series / N (N: the series length)"),
    ("series_wins", 2, "games won in the series by own team, by the opponent, each / N"),
]


def with_series_pieces(spec: ObservationSpec) -> ObservationSpec:
    """``spec`` with :data:`SERIES_PIECES` appended: the observation of a series env."""
    return ObservationSpec(list(spec.declared) + SERIES_PIECES)


def game_seed(seed: int, game: int) -> int:
    """The dice seed of game ``game`` (1-based) of a series reset with ``seed``."""
    if game == 1:
        return seed
    return _mix64(_mix64(seed & 0xFFFFFFFFFFFFFFFF) ^ game) >> 1


def check_series(env_name: str, value: Any) -> tuple[int, bool] | None:
    """The ``series`` option as ``(length, best_of)``, or None for a single game; a length
    above :data:`MAX_SERIES_GAMES` is refused."""
    if value is None:
        return None
    if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("best_of", "games"):
        (kind, n), = value.items()
        best_of = kind == "best_of"
        given = f"{{{kind!r}: {show(n)}}}"      # (show() of the dict fails on a huge int)
    else:
        n, best_of, given = value, True, show(value)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise OptionError(
            f"{env_name}: series must be None (one game), an odd int N or {{'best_of': N}} "
            f"(best of N), or {{'games': N}} (exactly N games), with N >= 1; got {given}")
    if n > MAX_SERIES_GAMES:
        raise OptionError(
            f"{env_name}: series may be at most {MAX_SERIES_GAMES} games (MAX_SERIES_GAMES: best "
            f"of {MAX_SERIES_GAMES} or {{'games': {MAX_SERIES_GAMES}}}), got {given}")
    if best_of and n % 2 == 0:
        raise OptionError(
            f"{env_name}: a best-of series needs an odd number of games, got {show(value)}; "
            f"for exactly {n} games use series={{'games': {n}}}")
    return int(n), best_of


def _copy_carry(carry: Any) -> Any:
    return carry.clone() if hasattr(carry, "clone") else copy.deepcopy(carry)


@dataclass
class Series:
    """The record of a series: its format, seed, finished games and the carried state.

    ``game`` is the number (1-based) of the game in progress, or of the last game once
    the series is over; ``results`` holds each finished game as ``{"away": runs, "home":
    runs, "winner": "away" | "home" | None}``; ``carry`` is what the ruleset carried into
    game ``game`` (None in game 1).
    """
    length: int
    best_of: bool = True
    seed: int = 0
    game: int = 1
    results: list[dict[str, Any]] = field(default_factory=list)
    carry: Any = None

    # -- standings ----------------------------------------------------------------------
    @property
    def wins(self) -> tuple[int, int]:
        w = [r["winner"] for r in self.results]
        return w.count("away"), w.count("home")

    @property
    def over(self) -> bool:
        if len(self.results) >= self.length:
            return True
        return self.best_of and max(self.wins) > self.length // 2

    @property
    def winner(self) -> int | None:
        """0 (away) or 1 (home) once the series is over and not drawn, else None."""
        away, home = self.wins
        if not self.over or away == home:
            return None
        return 0 if away > home else 1

    @property
    def game_seed(self) -> int:
        """The dice seed of the current game."""
        return game_seed(self.seed, self.game)

    # -- moving on ------------------------------------------------------------------------
    def record(self, finished: Any) -> None:
        """Count a finished game (an engine state with ``score`` and ``winner``)."""
        away, home = finished.score
        winner = None if finished.truncated or finished.winner is None else _SIDES[finished.winner]
        self.results.append({"away": int(away), "home": int(home), "winner": winner})

    def carry_copy(self) -> Any:
        """A copy of ``carry`` for a new game to start from (and change)."""
        return _copy_carry(self.carry)

    def advance(self, carry: Any) -> None:
        """Move on to the next game, which starts from ``carry``."""
        self.game += 1
        self.carry = carry

    # -- what the managers see ------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        away, home = self.wins
        return {"length": self.length, "best_of": self.best_of, "game": self.game,
                "wins": {"away": away, "home": home}, "over": self.over}

    def encode(self, seat: int) -> np.ndarray:
        """The :data:`SERIES_PIECES` for the manager in ``seat``."""
        wins = self.wins
        n = float(self.length)
        return np.array([self.game / n, wins[seat] / n, wins[1 - seat] / n], dtype=np.float32)

    def describe(self) -> str:
        away, home = self.wins
        kind = f"best-of-{self.length}" if self.best_of else f"{self.length}-game"
        state = "final" if self.over else f"game {self.game}"
        return f"{kind.capitalize()} series, {state}: away {away}, home {home}."

    # -- copying and saving ---------------------------------------------------------------
    def clone(self) -> Series:
        return Series(self.length, self.best_of, self.seed, self.game,
                      [dict(r) for r in self.results], _copy_carry(self.carry))

    def to_dict(self) -> dict[str, Any]:
        carry = self.carry.to_dict() if hasattr(self.carry, "to_dict") else copy.deepcopy(self.carry)
        return {"length": self.length, "best_of": self.best_of, "seed": self.seed,
                "game": self.game, "results": [dict(r) for r in self.results], "carry": carry}

    @classmethod
    def from_dict(cls, data: dict[str, Any], carry_type: type | None = None) -> Series:
        """Rebuild a saved record; ``carry_type.from_dict`` rebuilds a carry object.

        The record is checked (a :class:`~.state.SaveError` names the key): a length from 1
        to :data:`MAX_SERIES_GAMES` (odd for a best-of series), a game from 1 to the length, one result for each
        game before it (and for it too once the series is over, never before), each result
        two scores and a winner, and a carry of plain JSON data (or ``carry_type``'s)."""
        saved_keys(data, (), ("length", "best_of", "seed", "game", "results", "carry"))
        length = check_int(data["length"], ("length",), 1, MAX_SERIES_GAMES)
        best_of = decode_as(bool, data["best_of"], ("best_of",))
        if best_of and length % 2 == 0:
            raise SaveError(f"a best-of series has an odd length, got {length}", ("length",))
        seed = check_int(data["seed"], ("seed",), 0)
        game = check_int(data["game"], ("game",), 1, length)
        if type(data["results"]) is not list:
            raise SaveError(f"expected a list, got {describe(data['results'])}", ("results",))
        for i, r in enumerate(data["results"]):
            saved_keys(r, ("results", i), ("away", "home", "winner"))
            check_int(r["away"], ("results", i, "away"), 0)
            check_int(r["home"], ("results", i, "home"), 0)
            if r["winner"] is not None:
                check_choice(r["winner"], _SIDES, ("results", i, "winner"))
        results = [dict(r) for r in data["results"]]
        carry = data["carry"]
        if carry_type is not None and carry is not None:
            try:
                carry = carry_type.from_dict(carry)
            except SaveError as e:
                raise e.within("carry") from None
            except (KeyError, IndexError, TypeError, ValueError, AttributeError,
                    RecursionError) as e:
                raise SaveError(str(e), ("carry",)) from e
        else:
            _check_plain(carry, ("carry",))
            carry = copy.deepcopy(carry)
        series = cls(length, best_of, seed, game, results, carry)
        # one result per game played before this one; this one's too once the series is over
        # (when a game decides the series, the next one is never started)
        played_before = len(results) - (1 if series.over and len(results) == game else 0)
        if played_before != game - 1:
            raise SaveError(f"game {game} of the series follows {game - 1} finished game(s), "
                            f"but {len(results)} result(s) are saved", ("results",))
        if len(results) == game - 1 and len(results) >= 1:
            before = cls(length, best_of, seed, game - 1, results[:-1])
            if before.over:
                raise SaveError(f"the series was over after game {game - 2}, yet game {game} "
                                f"is saved", ("game",))
        if (game == 1) != (carry is None):
            raise SaveError("the first game of a series starts from nothing carried (null), "
                            "a later one from what the last game left", ("carry",))
        return series


@dataclass
class SeriesGame:
    """A saved position in a series: the record and the current game's engine state.

    ``env.unwrapped.save()`` returns one and ``env.unwrapped.restore()`` takes one.
    """
    series: Series
    game: Any

    def clone(self) -> SeriesGame:
        return SeriesGame(self.series.clone(), self.game.clone())

    def to_dict(self) -> dict[str, Any]:
        return {"series": self.series.to_dict(), "game": self.game.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any], game_from_dict: Callable[[dict[str, Any]], Any],
                  carry_type: type | None = None) -> SeriesGame:
        """Rebuild a saved series; ``game_from_dict`` is the ruleset's ``GameState.from_dict``.

        Both parts are checked (a :class:`~.state.SaveError` names the key); a game state with
        a ``validate_carry(carry)`` method checks the series' carry against it (what a ruleset
        carries only it knows), and a series that is over needs a finished game."""
        try:
            saved_keys(data, (), ("series", "game"))
        except SaveError as e:
            raise e.within(what="series") from None
        try:
            series = Series.from_dict(data["series"], carry_type)
        except SaveError as e:
            raise e.within("series", what="series") from None
        try:
            game = game_from_dict(data["game"])
        except SaveError as e:
            raise SaveError(str(e), ("game",), "series") from None
        if series.carry is not None and hasattr(game, "validate_carry"):
            try:
                game.validate_carry(series.carry)
            except SaveError as e:
                raise e.within("series", "carry", what="series") from None
        if len(series.results) == series.game and not game.over:
            raise SaveError(f"game {series.game} has a result but is not over", ("series", "results"),
                            "series")
        return cls(series, game)


def _check_plain(value: Any, path: tuple, depth: int = 0) -> None:
    """``value`` is plain JSON data (objects with string keys, lists, strings, finite numbers,
    booleans, null) at most 32 levels deep, else a SaveError naming where."""
    if depth > 32:
        raise SaveError("nested too deeply", path)
    if isinstance(value, dict):
        for k, v in value.items():
            if type(k) is not str:
                raise SaveError(f"expected a string key, got {describe(k)}", path)
            _check_plain(v, path + (f"[{k!r}]",), depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_plain(v, path + (i,), depth + 1)
    elif not (value is None or type(value) in (str, int, bool)
              or (type(value) is float and math.isfinite(value))):
        raise SaveError(f"expected plain JSON data, got {describe(value)}", path)
