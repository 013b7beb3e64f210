"""Value tables: run expectancy by base-out state and win expectancy by game state.

For a ruleset and a pair of teams, :func:`value_tables` estimates

* **run expectancy** (RE24): the mean runs a team scores from each of the 24
  base-out states to the end of the half inning, and the whole distribution of those
  runs;
* **win expectancy**: the home team's chance of winning from every (inning, half,
  outs, bases, score difference), extra innings and walk-offs included.

Method (Tango, Lichtman and Dolphin, *The Book*, ch. 1; Tom Tango's "Win Expectancy
Finder" uses the same idea):

1. *Run distributions by simulation with the engine.* Each team bats many half
   innings through the ruleset's own engine, with the leadoff man cycling through the
   whole order, and every plate appearance is a sample: the base-out state at its start
   and the runs scored from then to the end of the half inning (the "visits" method
   real RE24 tables are computed with from play-by-play). States seen fewer than
   ``min_visits`` times are topped up with half innings started in them. Decisions met
   on the way are made by a documented reference policy of the ruleset.
2. *Win expectancy exactly from the run distributions.* Treating each half inning's
   runs as drawn from the batting team's distribution for its starting state, the
   home team's win probability follows by backward induction from the last inning:
   the home team does not bat when ahead after the top of the last scheduled inning;
   in the bottom of the last inning or later it wins as soon as it leads (walk-off);
   a tie goes to extra innings, which repeat, so their value is the fixed point of a
   linear equation solved in closed form.

Approximations (each one's size can be checked against the exact solver where a
ruleset has one): the batting order's position is averaged over (every half inning
is treated as starting at a random point of the order); score differences are held
to ``+-max_diff`` runs (a lead of 20 runs is treated as a lead of 20); a game is never
cut off by ``max_innings``.

The sampling loop is shared by every ruleset (:func:`sample_run_counts`,
:func:`play_half_inning`): a ruleset gives a function that sets up a half inning in its
engine, the name of its engine's plate-appearance step and its reference policy.
``python -m dugout.agents.value_tables --env ENV`` prints a ruleset's tables.

Tables are cached on disk as JSON with the inputs that made them, under
``$DUGOUT_CACHE`` or ``~/.cache/dugout``; the same inputs load the cached file. A
damaged cache file (not UTF-8, not JSON, truncated, nested too deep, or JSON that is not
the tables) is made again and rewritten; a directory in the file's place is left alone
and the tables are made in memory, with one warning.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ...envs.core.engine import Policy, play_out
from ...envs.core.errors import check_innings

__all__ = ["ValueTables", "bases_index", "inning_row", "lead_index", "BASE_STATES", "value_tables",
           "cache_dir", "MLB_RE24_2010_2015", "format_re24", "sample_run_counts", "play_half_inning"]

#: The eight base states, indexed by bits (1 = first, 2 = second, 4 = third).
BASE_STATES = ("___", "1__", "_2_", "12_", "__3", "1_3", "_23", "123")

#: MLB run expectancy, 2010-2015 (FanGraphs / Tango's RE24 table), rows = outs.
MLB_RE24_2010_2015 = np.array([
    # ___    1__    _2_    12_    __3    1_3    _23    123
    [0.481, 0.859, 1.100, 1.437, 1.350, 1.784, 1.964, 2.292],
    [0.254, 0.509, 0.664, 0.884, 0.950, 1.130, 1.376, 1.541],
    [0.098, 0.224, 0.319, 0.429, 0.353, 0.478, 0.580, 0.752],
])

FORMAT_VERSION = 1


def _on(x) -> bool:
    return x is not None and x is not False


def bases_index(bases) -> int:
    """The index in :data:`BASE_STATES` of (first, second, third): occupied flags, or an
    engine's bases tuple of runner ids (``None`` empty; runner 0 is a runner)."""
    return (1 if _on(bases[0]) else 0) | (2 if _on(bases[1]) else 0) | (4 if _on(bases[2]) else 0)


def inning_row(inning: int, innings: int) -> int:
    """The row of ``inning`` in a table by inning of a game of ``innings`` (this module's
    and the That's Baseball solver's): innings 1 to ``innings`` are rows 0 to ``innings - 1``,
    and every extra inning is row ``innings``. A ``ValueError`` for an inning below 1."""
    if inning < 1:
        raise ValueError(f"inning must be 1 or more, got {inning}")
    return min(inning, innings + 1) - 1


def lead_index(lead: int, bound: int) -> int:
    """The index of a lead in a table of leads ``-bound`` to ``bound``: ``lead + bound``,
    a larger lead counted as ``bound`` (and a larger deficit as ``-bound``)."""
    return max(-bound, min(bound, int(lead))) + bound


def cache_dir() -> Path:
    root = os.environ.get("DUGOUT_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "dugout"


class ValueTables:
    """Run distributions per team and base-out state, and the win expectancy built on them.

    ``counts[team, outs, bases, r]`` is the number of sampled plate appearances that
    began in that state and saw ``r`` more runs score in the half inning (the last bin
    holds ``max_runs`` or more).

    ``phases`` names run counts of the same shape for other moments of a turn, where a
    ruleset's turn has several (Harry's game: ``"field"``, after the batting manager's
    card and before the fielding manager's). They give win expectancy at that moment
    (``win_expectancy(..., phase="field")``); the game itself is solved with ``counts``.

    A ruleset whose half inning is a small Markov chain computes the distributions exactly
    instead (:meth:`from_probabilities`; Bottom of the 9th's Longer Game).
    """

    def __init__(self, inputs: dict[str, Any], counts: np.ndarray, innings: int = 9,
                 max_diff: int = 20, phases: dict[str, np.ndarray] | None = None):
        innings = _innings(innings)                      # checked before the counts
        self.counts = self._check(counts, "counts")
        self.phases = {k: self._check(v, f"phase {k!r}") for k, v in (phases or {}).items()}
        self._start(inputs, self._probs(self.counts), innings, max_diff)

    @classmethod
    def from_probabilities(cls, inputs: dict[str, Any], probs: np.ndarray, innings: int = 9,
                           max_diff: int = 20) -> ValueTables:
        """Tables from exact run distributions, for a ruleset that computes them rather than
        samples them: ``probs[team, outs, bases, r]``, each (team, outs, bases) summing to 1
        (the last bin holds that many runs or more). They hold no samples: :meth:`visits`
        and saving refuse them; a ``ValueError`` names a shape or a distribution that is
        wrong."""
        innings = _innings(innings)
        probs = np.asarray(probs, dtype=float)
        if probs.ndim != 4 or probs.shape[:3] != (2, 3, 8):
            raise ValueError(f"probs must have shape (2, 3, 8, runs), got {probs.shape}")
        if not np.isfinite(probs).all() or (probs < 0).any() \
                or not np.allclose(probs.sum(axis=-1), 1.0, rtol=0.0, atol=1e-9):
            raise ValueError("probs must be run distributions: finite, from 0, each (team, outs, "
                             "bases) summing to 1")
        tables = cls.__new__(cls)
        tables.counts, tables.phases = None, {}
        tables._start(inputs, probs, innings, max_diff)
        return tables

    def _start(self, inputs: dict[str, Any], probs: np.ndarray, innings: int, max_diff: int) -> None:
        """Set the tables up from run distributions (``innings`` already checked) and solve."""
        self.innings = innings
        self.inputs = dict(inputs)
        self.max_diff = int(max_diff)
        self.probs = probs
        runs = np.arange(probs.shape[-1])
        self.re = (self.probs * runs).sum(axis=-1)          # (team, outs, bases)
        self._solve()

    def _sampled(self, what: str) -> np.ndarray:
        if self.counts is None:
            raise ValueError(f"{what}: these tables come from exact run distributions "
                             f"(ValueTables.from_probabilities), not from samples")
        return self.counts

    @staticmethod
    def _check(counts, what: str) -> np.ndarray:
        counts = np.asarray(counts, dtype=np.int64)
        if counts.ndim != 4 or counts.shape[:3] != (2, 3, 8):
            raise ValueError(f"{what} must have shape (2, 3, 8, runs), got {counts.shape}")
        totals = counts.sum(axis=-1)
        if (totals == 0).any():
            team, outs, bases = (int(i[0]) for i in np.nonzero(totals == 0))
            raise ValueError(f"{what}: no samples for team {team}, {outs} out, bases "
                             f"{BASE_STATES[bases]}")
        return counts

    @staticmethod
    def _probs(counts: np.ndarray) -> np.ndarray:
        return counts / counts.sum(axis=-1)[..., None]

    # -- run expectancy ----------------------------------------------------------------
    def run_expectancy(self, team: int, outs: int, bases) -> float:
        """Mean runs ``team`` (0 away, 1 home) scores from here to the end of the half."""
        if outs >= 3:
            return 0.0
        b = bases if isinstance(bases, int) else bases_index(bases)
        return float(self.re[team, outs, b])

    def re24(self, team: int) -> np.ndarray:
        """The 3 x 8 run-expectancy table (rows outs, columns :data:`BASE_STATES`)."""
        return self.re[team].copy()

    def visits(self, team: int) -> np.ndarray:
        """Samples behind each cell of :meth:`re24`."""
        return self._sampled("visits")[team].sum(axis=-1)

    # -- win expectancy ----------------------------------------------------------------
    def _solve(self) -> None:
        n, dmax = self.innings, self.max_diff
        diffs = np.arange(-dmax, dmax + 1)
        nd = diffs.size
        runs = np.arange(self.probs.shape[-1])
        p = [self.probs[t].reshape(24, -1) for t in (0, 1)]
        # where the home lead lands after r runs, for the away (-) and home (+) halves
        land = {0: np.clip(diffs[:, None] - runs[None, :], -dmax, dmax) + dmax,
                1: np.clip(diffs[:, None] + runs[None, :], -dmax, dmax) + dmax}

        def half(team: int, end: np.ndarray, probs=p) -> np.ndarray:
            """Home win probability at every (outs, bases, lead) of a half, given its end values."""
            return (probs[team] @ end[land[team]].T).reshape(3, 8, nd)

        def last_bottom_end(x: float) -> np.ndarray:
            return np.where(diffs > 0, 1.0, np.where(diffs < 0, 0.0, x))

        def extra(x: float):
            bottom = half(1, last_bottom_end(x))
            top_end = np.where(diffs > 0, 1.0, bottom[0, 0])
            return half(0, top_end), bottom, top_end

        # extra innings repeat: the value x of a tied extra inning solves x = a + b x
        a = extra(0.0)[0][0, 0, dmax]
        b = extra(1.0)[0][0, 0, dmax] - a
        x = a / (1.0 - b)
        self.extra_tie = float(x)

        rows = n + 1                          # innings 1..n, then one row for any extra inning
        we = np.zeros((rows, 2, 3, 8, nd))
        end = np.zeros((rows, 2, nd))         # home win probability once the half is over
        top, bottom, top_end = extra(x)
        we[n, 0], we[n, 1] = top, bottom
        end[n, 0], end[n, 1] = top_end, last_bottom_end(x)
        for i in range(n, 0, -1):             # inning i is row i - 1
            r = i - 1
            end[r, 1] = last_bottom_end(x) if i >= n else we[r + 1, 0, 0, 0]
            we[r, 1] = half(1, end[r, 1])
            end[r, 0] = np.where(diffs > 0, 1.0, we[r, 1, 0, 0]) if i >= n else we[r, 1, 0, 0]
            we[r, 0] = half(0, end[r, 0])
        self.we = we
        self._end = end
        self._phase_we = {}
        for name, counts in self.phases.items():
            q = [self._probs(counts)[t].reshape(24, -1) for t in (0, 1)]
            self._phase_we[name] = np.stack([
                np.stack([half(h, end[r, h], q) for h in (0, 1)]) for r in range(rows)])

    def win_expectancy(self, inning: int, half: int, outs: int, bases, home_lead: int,
                       phase: str | None = None) -> float:
        """The home team's chance of winning from a situation at the start of a plate appearance
        (or at the moment ``phase`` names).

        ``outs`` may be 3: the half inning is then over (the next half's start, or the
        end of the game). ``home_lead`` is home runs minus away runs.
        """
        row = inning_row(inning, self.innings)
        if half == 1 and inning >= self.innings and home_lead > 0:
            return 1.0                                   # walk-off: the game is over
        d = lead_index(home_lead, self.max_diff)
        if outs >= 3:
            return float(self._end[row, half, d])
        b = bases if isinstance(bases, int) else bases_index(bases)
        table = self.we if phase is None else self._phase_table(phase)
        return float(table[row, half, outs, b, d])

    def _phase_table(self, phase: str) -> np.ndarray:
        try:
            return self._phase_we[phase]
        except KeyError:
            raise ValueError(f"no phase {phase!r} in these tables; phases: "
                             f"{sorted(self._phase_we) or 'none'}") from None

    def batting_win_expectancy(self, inning: int, half: int, outs: int, bases, lead: int,
                               phase: str | None = None) -> float:
        """The batting team's chance of winning; ``lead`` is its runs minus the other's."""
        home_lead = lead if half == 1 else -lead
        we = self.win_expectancy(inning, half, outs, bases, home_lead, phase)
        return we if half == 1 else 1.0 - we

    def batting_win_expectancies(self, inning: int, half: int, outs: np.ndarray, bases: np.ndarray,
                                 lead: np.ndarray, phase: str | None = None) -> np.ndarray:
        """:meth:`batting_win_expectancy` for arrays of outs, bases indices and leads at once."""
        row = inning_row(inning, self.innings)
        outs, bases, lead = np.asarray(outs), np.asarray(bases), np.asarray(lead)
        home_lead = lead if half == 1 else -lead
        d = np.clip(home_lead, -self.max_diff, self.max_diff) + self.max_diff
        table = self.we if phase is None else self._phase_table(phase)
        we = np.where(outs >= 3, self._end[row, half, d],
                      table[row, half, np.minimum(outs, 2), bases, d])
        if half == 1 and inning >= self.innings:
            we = np.where(home_lead > 0, 1.0, we)           # walk-off
        return we if half == 1 else 1.0 - we

    def win_expectancies(self, inning, half, outs, bases, home_lead) -> np.ndarray:
        """:meth:`win_expectancy` over arrays, one situation per element (numpy broadcasts
        them): innings, halves, outs (3: the half inning is over), bases indices and home
        leads. The home team's chance of winning, float64."""
        inning, half, outs, bases, home_lead = np.broadcast_arrays(
            *(np.asarray(x).astype(np.intp) for x in (inning, half, outs, bases, home_lead)))
        if inning.size and inning.min() < 1:
            raise ValueError(f"inning must be 1 or more, got {int(inning.min())}")
        row = np.minimum(inning, self.innings + 1) - 1
        d = np.clip(home_lead, -self.max_diff, self.max_diff) + self.max_diff
        we = np.where(outs >= 3, self._end[row, half, d],
                      self.we[row, half, np.minimum(outs, 2), bases, d])
        return np.where((half == 1) & (inning >= self.innings) & (home_lead > 0), 1.0, we)

    # -- saving ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT_VERSION, "inputs": self.inputs, "innings": self.innings,
                "max_diff": self.max_diff, "counts": self._sampled("saving").tolist(),
                "phases": {k: v.tolist() for k, v in self.phases.items()}}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ValueTables:
        """Tables saved with :meth:`to_dict`; anything else (another format, a field
        missing or of the wrong type, counts that are not whole numbers from 0) raises a
        ``ValueError`` saying what."""
        if not isinstance(d, dict):
            raise ValueError(f"value tables are a JSON object, got {type(d).__name__}")
        if d.get("format") != FORMAT_VERSION:
            raise ValueError(f"value tables of format {d.get('format')!r}; this version reads "
                             f"format {FORMAT_VERSION}")
        missing = [k for k in ("inputs", "counts", "innings", "max_diff") if k not in d]
        if missing:
            raise ValueError(f"value tables lack {missing}")
        if not isinstance(d["inputs"], dict):
            raise ValueError(f"value tables' inputs are an object, got {type(d['inputs']).__name__}")
        for key in ("innings", "max_diff"):
            if type(d[key]) is not int or d[key] < (1 if key == "innings" else 0):
                raise ValueError(f"value tables' {key} must be a whole number, got {d[key]!r}")
        phases = d.get("phases", {})
        if not isinstance(phases, dict):
            raise ValueError(f"value tables' phases are an object, got {type(phases).__name__}")
        return cls(d["inputs"], _saved_counts(d["counts"], "counts"), d["innings"], d["max_diff"],
                   {k: _saved_counts(v, f"phase {k!r}") for k, v in phases.items()})

    def save(self, path: str | os.PathLike) -> None:
        """Write the tables as JSON, atomically (a crash never leaves half a file, and a
        failed write leaves no temporary file behind)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.to_dict(), f)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    @classmethod
    def load(cls, path: str | os.PathLike) -> ValueTables:
        with open(path, encoding="utf-8") as f:
            return cls.from_dict(json.load(f))


def _saved_counts(value: Any, what: str) -> np.ndarray:
    """Run counts read from a file: an array of whole numbers from 0 (not floats, booleans
    or strings), else a ``ValueError``."""
    try:
        counts = np.array(value)
    except (ValueError, TypeError, OverflowError, RecursionError) as e:
        raise ValueError(f"{what}: not an array of counts ({type(e).__name__})") from None
    if counts.dtype.kind not in "iu" or (counts.size and counts.min() < 0):
        raise ValueError(f"{what}: the counts must be whole numbers from 0")
    return counts


def format_re24(table: np.ndarray, other: np.ndarray | None = None, names=("dugout", "MLB")) -> str:
    """RE24 as text, rows = base states, columns = outs; ``other`` adds a column per out beside it."""
    width = 16 if other is not None else 8
    lines = ["      " + "".join(f"{f'{o} out':^{width}}" for o in range(3)),
             "bases " + "".join(f"{names[0]:>8}" + (f"{names[1]:>8}" if other is not None else "")
                                for _ in range(3))]
    for b, label in enumerate(BASE_STATES):
        row = f"{label:6}"
        for o in range(3):
            row += f"{table[o, b]:8.3f}" + (f"{other[o, b]:8.3f}" if other is not None else "")
        lines.append(row)
    return "\n".join(lines)


# -- building and caching -----------------------------------------------------------------
def _key(inputs: dict[str, Any]) -> str:
    text = json.dumps({"format": FORMAT_VERSION, **inputs}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _innings(innings: Any) -> int:
    """A game's scheduled innings, 1 to :data:`MAX_INNINGS` (9) as every ruleset takes them;
    an ``OptionError`` naming the limit otherwise (a million innings would never finish)."""
    return check_innings("value tables", innings, None)[0]


def value_tables(ruleset: str, inputs: dict[str, Any],
                 sampler: Callable[[], np.ndarray | tuple[np.ndarray, dict[str, np.ndarray]]],
                 innings: int = 9, use_cache: bool = True, directory: str | os.PathLike | None = None
                 ) -> ValueTables:
    """Load the tables made from ``inputs`` from the cache, or sample them and cache them.

    ``sampler()`` returns the run counts, or the run counts and a dict of phase counts;
    ``inputs`` must describe everything it depends on.
    """
    innings = _innings(innings)                   # before any half inning is sampled
    inputs = {"ruleset": ruleset, **inputs}
    path = Path(directory) if directory is not None else cache_dir()
    path = path / "value_tables" / f"{ruleset}-{_key({**inputs, 'innings': innings})}.json"
    if use_cache:
        cached = _read_cache(path, json.loads(json.dumps(inputs)), innings)
        if cached is not None:
            return cached
    sampled = sampler()
    counts, phases = sampled if isinstance(sampled, tuple) else (sampled, None)
    tables = ValueTables(inputs, counts, innings=innings, max_diff=_MAX_DIFF, phases=phases)
    if use_cache and not path.is_dir():
        try:
            tables.save(path)                     # a damaged file is replaced
        except OSError:
            pass                                  # a read-only home: the tables still work
    return tables


#: The score differences the cached tables hold (ValueTables' ``max_diff``).
_MAX_DIFF = 20
#: Cache paths already warned about (a directory in the way), so each warns once.
_WARNED: set[str] = set()


def _read_cache(path: Path, inputs: Any, innings: int) -> ValueTables | None:
    """The tables cached at ``path`` if they were made from ``inputs`` and ``innings``,
    else None: no file, another's tables, or a damaged file (not UTF-8, not JSON, nested
    too deep, not the tables' object, counts of the wrong kind) is made again. A directory
    at the path is left alone: the tables are made in memory (not cached), with one warning."""
    if path.is_dir():
        if str(path) not in _WARNED:
            _WARNED.add(str(path))
            warnings.warn(f"value tables cache: {path} is a directory, not a cached file; the "
                          f"tables are made in memory and not cached (move the directory away "
                          f"to cache them)", RuntimeWarning, stacklevel=3)
        return None
    try:
        with open(path, encoding="utf-8") as f:
            saved = json.load(f)
        if not (isinstance(saved, dict) and saved.get("inputs") == inputs
                and type(saved.get("innings")) is int and saved["innings"] == innings
                and saved.get("max_diff") == _MAX_DIFF):
            return None                           # another's tables (or stale): make them
        return ValueTables.from_dict(saved)
    except (OSError, ValueError, RecursionError):
        return None                               # missing, unreadable or damaged: make it again


# -- sampling run distributions with a ruleset's engine ----------------------------------
def play_half_inning(state, team: int, engine, at_bat_step: str, reference_action: Policy,
                     counts: np.ndarray, max_runs: int) -> None:
    """Play ``state`` to the end of ``team``'s half inning through the engine's own rules
    (:func:`~dugout.envs.core.engine.play_out` with ``engine``, a rules module), deciding by
    ``reference_action(state, decision)``; add each plate appearance (a visit of
    ``at_bat_step``) to ``counts[team, outs, bases, runs to the end of the half]``."""
    board = state.board
    visits = []

    def visit(state) -> None:
        if state.step == at_bat_step:
            visits.append((board.outs, bases_index(board.bases), board.runs[team]))

    play_out(state, engine, reference_action, stop=lambda s: board.half != team, on_rule=visit)
    total = board.runs[team]
    for outs, bases, before in visits:
        if outs < 3:
            counts[team, outs, bases, min(total - before, max_runs)] += 1


def sample_run_counts(bat_half_inning: Callable[[int, int, int, int, np.ndarray], None],
                      half_innings: int, min_visits: int, max_runs: int = 20) -> np.ndarray:
    """Run distributions ``(team, outs, bases, runs)`` by the visits method.

    ``bat_half_inning(team, k, outs, bases, counts)`` plays the ``k``-th half inning of
    ``team`` (its own dice: inning ``k + 1``; leadoff man ``k % 9``) from ``outs`` and the
    base state ``bases`` (bits: 1 first, 2 second, 4 third) and records it in ``counts``,
    usually with :func:`play_half_inning`. Each team bats ``half_innings`` half innings
    from the start; then states with fewer than ``min_visits`` visits get half innings
    started in them until they have enough.
    """
    counts = np.zeros((2, 3, 8, max_runs + 1), dtype=np.int64)
    for team in (0, 1):
        k = 0
        for k in range(half_innings):
            bat_half_inning(team, k, 0, 0, counts)
        for outs in range(3):
            for bases in range(8):
                while counts[team, outs, bases].sum() < min_visits:
                    k += 1
                    bat_half_inning(team, k, outs, bases, counts)
    return counts
