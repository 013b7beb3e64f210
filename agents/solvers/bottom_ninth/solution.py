"""The solved duel: :class:`Solution`, :func:`solve`, :func:`cached_solution`, and the file format."""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ....envs.bottom_ninth import rules
from ...value_tables import cache_dir
from ..files import load_or_solve, read_npz, write_npz
from .induction import Play, backward_pass, cleanup_options
from .model import Duel
from .pitch import batter_key, pitcher_key, probe_for_view

__all__ = ["Solution", "solve", "cached_solution", "RULES_VERSION", "FORMAT_VERSION", "TOLERANCE"]

#: The engine whose rules the solver follows; tables made under another are refused.
RULES_VERSION = "bottom_ninth-1"
FORMAT_VERSION = 1
#: How far a two-strike fixed point may still move when the iteration stops.
TOLERANCE = 1e-13


@dataclass
class Solution:
    """The duel solved: the batting side's win probability at every state under optimal
    play by both managers, and both managers' optimal mixes at every stare-down.

    ``values`` holds every stare-down state (flat index :meth:`Duel.index`), then every
    clean-up state (:meth:`Duel.cu_index`), then a lost (0) and a won (1) game; NaN
    where a state cannot occur. ``x[i]`` and ``y[i]`` are the pitcher's and the
    batter's mixes over HI, HA, LI, LA at stare-down state ``i``."""
    duel: Duel
    values: np.ndarray
    x: np.ndarray
    y: np.ndarray
    seconds: float = 0.0
    iterations: int = 0
    rules_version: str = RULES_VERSION

    @property
    def game_value(self) -> float:
        """The batting side's chance of winning from the first pitch (0-0, nobody on, no
        outs, the starter fresh, the leadoff man up), both managers optimal."""
        return self.value_at()

    @property
    def state_count(self) -> int:
        return int(np.isfinite(self.values[:self.duel.n_states]).sum())

    @property
    def nbytes(self) -> int:
        return self.values.nbytes + self.x.nbytes + self.y.nbytes

    def value_at(self, outs: int = 0, bases: int | Sequence[bool] = 0, balls: int = 0,
                 strikes: int = 0, slot: int = 0, fatigue: tuple[int, int] = (0, 0),
                 relieved: bool = False) -> float:
        """The batting side's win probability at a stare-down (before the pitch)."""
        return float(self.values[self.locate(outs, bases, balls, strikes, slot, fatigue, relieved)])

    def mix_at(self, outs: int = 0, bases: int | Sequence[bool] = 0, balls: int = 0,
               strikes: int = 0, slot: int = 0, fatigue: tuple[int, int] = (0, 0),
               relieved: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Both managers' equilibrium mixes over HI, HA, LI, LA at a stare-down."""
        i = self.locate(outs, bases, balls, strikes, slot, fatigue, relieved)
        return self.x[i].copy(), self.y[i].copy()

    def locate(self, outs, bases, balls, strikes, slot, fatigue, relieved) -> int:
        b = bases if isinstance(bases, (int, np.integer)) else sum(1 << i for i in range(3) if bases[i])
        pit = int(bool(relieved))
        fd, fl = (int(f) for f in fatigue)
        d = self.duel
        if not (0 <= outs <= 2 and 0 <= b <= 7 and 0 <= balls <= 3 and 0 <= strikes <= 2
                and 0 <= slot <= 5 and pit <= fd < d.rows and pit <= fl < d.rows):
            raise ValueError(f"no such stare-down: {outs} out, bases {b}, count {balls}-{strikes}, "
                             f"slot {slot}, rows {fatigue} ({'reliever' if relieved else 'starter'}; "
                             f"{d.rows} rows)")
        return d.index(pit, slot, outs, b, balls, strikes, fd, fl)

    # -- reading a view ------------------------------------------------------------------------
    def check_view(self, view) -> None:
        if Duel.from_view(view).key != self.duel.key:
            raise ValueError("this solution is for another duel (cards, teams or options): "
                             f"{self.duel.describe()}")

    def view_state(self, view) -> tuple[int, ...]:
        """The stare-down state of a view (its rows as shown: after the reveal's fatigue
        once the pitch is thrown)."""
        pit = 0 if view.pitcher_card == self.duel.staff[0] else 1
        return (pit, view.batter_slot, view.outs, sum(1 << i for i in range(3) if view.runners[i]),
                view.balls, view.strikes, view.fatigue[0], view.fatigue[1])

    def leaf_values(self, state: tuple[int, ...], values: np.ndarray | None = None) -> np.ndarray:
        """What each result of each pitch is worth at a stare-down state (1 x 4 x 6), with
        the rows after each pitch's fatigue."""
        d = self.duel
        values = self.values if values is None else values
        pit, slot, outs, bases, balls, strikes, fd, fl = state
        w = np.zeros((1, 4, 6))
        for p in range(4):
            after = d.fatigue_after(pit, (fd, fl), p)
            for cls, terms in enumerate(d.result_terms(pit, slot, outs, bases, balls, strikes, after)):
                w[0, p, cls] = _weighted(terms, values)
        return w

    def ability_values(self, view) -> dict[int, float]:
        """At an ability decision: the batting side's win probability after each legal
        action (``done`` included), both managers optimal from there."""
        d = self.duel
        pit, slot, outs, bases, balls, strikes, fd, fl = self.view_state(view)
        p = view.thrown
        g = d.graphs[slot, pit]
        grants = view.grants
        if view.decision == "pitcher_ability":
            key = pitcher_key(p, view.face, view.face_natural, view.control, view.control_natural, grants)
        else:
            hbp = rules.hit_by_pitch(probe_for_view(view, d.cards))
            key = batter_key(p, view.face, view.control, hbp, view.swing, view.swing_natural, grants[1])
        node = g.decisions.get(key)
        if node is None:
            raise RuntimeError(f"the solver's pitch graph has no {view.decision!r} decision at {key}: "
                               f"engine and solver disagree")
        # one evaluation per pitch serves all its decisions: keep the values of the
        # decision nodes' children (a pitch has several decisions, a game a few pitches)
        memo = self.__dict__.setdefault("_pitch_values", {})
        at = (slot, pit, outs, bases, balls, strikes, fd, fl, p)
        v = memo.get(at)
        if v is None:
            if len(memo) >= 20_000:
                memo.clear()
            # the rows shown are after this pitch's fatigue; leaf values read them as they are
            w = np.zeros((1, 4, 6))
            for cls, terms in enumerate(d.result_terms(pit, slot, outs, bases, balls, strikes, (fd, fl))):
                w[0, p, cls] = _weighted(terms, self.values)
            v = memo[at] = g.evaluate(w)[g.choice_nodes, 0]
        where = g.choice_position
        out = {a: float(v[where[c]]) for a, c in zip(g.actions[node], g.children[node])}
        if set(out) != set(view.legal):
            raise RuntimeError(f"the solver's {view.decision!r} decision allows {sorted(out)}, the "
                               f"engine {sorted(view.legal)}: engine and solver disagree")
        return out

    def cleanup_values(self, view) -> dict[int, float]:
        """At a relief or pitching-change decision: the batting side's win probability
        after each legal action, optimal play from there (the pitcher takes the least)."""
        d = self.duel
        pit, slot, outs, bases, _, _, fd, fl = self.view_state(view)
        if view.decision == "relief":
            out = {}
            for action, refs in cleanup_options(d, (pit, slot, outs, bases, fd, fl)):
                out[action] = min(float(self.values[r]) for r in refs) if len(refs) > 1 else \
                    float(self.values[refs[0]])
            return out
        keep = d.index(pit, slot, outs, bases, 0, 0, fd, fl)
        bring = d.index(1, slot, outs, bases, 0, 0, 1, 1)
        return {rules.KEEP: float(self.values[keep]), rules.BRING_IN: float(self.values[bring])}

    # -- saving ---------------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        return {"format": FORMAT_VERSION, "rules_version": self.rules_version,
                "duel": self.duel.describe(), "cards_source": self.duel.cards.source,
                "lineup": list(self.duel.lineup), "staff": list(self.duel.staff),
                "seconds": self.seconds, "iterations": self.iterations}

    def save(self, path: str | os.PathLike) -> None:
        """Write the solution (compressed npz with its duel and rules version), atomically."""
        write_npz(path, self.meta(), {"values": self.values, "x": self.x, "y": self.y})

    @classmethod
    def load(cls, path: str | os.PathLike, duel: Duel | None = None) -> "Solution":
        """Read a saved solution; refuse one of another format or rules version or, when
        ``duel`` is given, of another duel."""
        from ....envs.bottom_ninth.cards import parse_cards
        meta, arrays = read_npz(path, ("values", "x", "y"), "Bottom of the 9th", FORMAT_VERSION,
                                RULES_VERSION)
        saved = meta["duel"]
        if duel is not None and json.loads(duel.key) != saved:
            raise ValueError(f"{path}: solved for {saved}, not {duel.describe()}")
        if duel is None:
            cards = parse_cards(json.loads(meta["cards_source"]), f"{path}: card set")
            duel = Duel(cards, tuple(meta["lineup"]), tuple(meta["staff"]), tuple(saved["faces"]),
                        saved["fatigue_rows"], saved["out_rule"])
        if arrays["values"].shape != (duel.one + 1,):
            raise ValueError(f"{path}: its tables do not match its duel's state space")
        return cls(duel, arrays["values"], arrays["x"], arrays["y"], meta["seconds"],
                   meta["iterations"])


def _weighted(terms: list[tuple[float, int]], values: np.ndarray) -> float:
    """A result's value as the layers compute it (the same terms, padded to the same width,
    summed in the same order), so that ties break alike in the pass and at the table."""
    refs = np.zeros((1, 4), dtype=np.int64)
    weights = np.zeros((1, 4))
    for k, (prob, ref) in enumerate(terms):
        refs[0, k], weights[0, k] = ref, prob
    return float((values[refs] * weights).sum(axis=-1)[0])


def solve(duel: Duel | None = None, tol: float = TOLERANCE, **options: Any) -> Solution:
    """Solve a duel (or the duel of ``bottom_ninth_v0(**options)``, the default teams by
    default): every state's value and both managers' equilibrium mixes."""
    if duel is None:
        duel = Duel.from_options(**options)
    elif options:
        raise TypeError("give a Duel or env options, not both")
    t0 = time.perf_counter()
    result = backward_pass(duel, Play("optimal"), Play("optimal"), tol=tol, keep=True)
    return Solution(duel, result.values, result.x, result.y, time.perf_counter() - t0,
                    result.iterations)


def cache_path(duel: Duel) -> Path:
    """Where the cache keeps the solution of a duel."""
    key = json.dumps({"duel": duel.key, "rules": RULES_VERSION, "format": FORMAT_VERSION},
                     sort_keys=True)
    return cache_dir() / "solver" / f"bottom_ninth-{hashlib.sha256(key.encode()).hexdigest()[:20]}.npz"


@lru_cache(maxsize=4)
def cached_solution(duel: Duel, use_disk: bool = True) -> Solution:
    """The solution of a duel, kept in memory and on disk (``$DUGOUT_CACHE``)."""
    return load_or_solve(cache_path(duel), lambda path: Solution.load(path, duel), lambda: solve(duel),
                         lambda solution, path: solution.save(path), use_disk)
