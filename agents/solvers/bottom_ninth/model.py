"""The duel as a finite game: its teams and options, its states, and what follows a pitch.

A **stare-down state** is where a pitch begins: ``(pit, slot, outs, bases, balls, strikes,
direction row, location row)``; ``pit`` is 0 while the starter pitches (the substitute
may still come in) and 1 once the substitute has (a reliever's rows are never above 1).
Nothing else of the engine's state changes what can happen: the runs are 0-0 until the
game ends, the plate appearance and pitch numbers only key the dice, the removed pitcher
never returns. A **clean-up state** ``(pit, slot, outs, bases, rows)`` is the break
after a plate appearance, the next batter ``slot`` due: the relief split, then the
pitching change, then his first pitch.

Every rule is the engine's, applied to a small probe (:class:`_Table`): the fatigue of a
thrown pitch (``fatigue_ace``), the legal pitches (``legal_pitches``), the relief points,
splits and their effects, the substitute's entry (rows 1, ceiling 1). The base running
after a result is :func:`dugout.agents.bottom_ninth.outcomes` (the core's bases functions,
as the engine moves them) with the run phase's odds from
:func:`~dugout.agents.bottom_ninth.p_safe` for the batter's Speed and the pitcher's Fielding.

**Order.** A plate appearance that ends without ending the game adds an out or a runner
(a walk, a single or a double with nobody scoring adds a runner; every out, the fielder's
choice included, adds an out), so ``outs + runners`` grows from one plate appearance to the
next; within one, the count only grows, except a foul with two strikes, which leaves it;
and the rows only go down the track (relief comes between batters). States are solved in
layers of equal ``(outs + runners, balls + strikes, rows)``, latest first: a layer's
successors are all solved, but for the two-strike foul that returns a state to itself,
which the layer's fixed-point iteration takes care of.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from types import SimpleNamespace
from typing import Any

import numpy as np

from ....envs.bottom_ninth import rules
from ....envs.bottom_ninth.cards import CardSet
from ...bottom_ninth import outcomes as _outcomes, p_safe
from .pitch import BALL, CRUSH, FOUL, HBP, RUN, STRIKE, PitchGraph, build

__all__ = ["Duel", "Layer"]

_RESULTS = {BALL: "ball", STRIKE: "strike", FOUL: "foul"}


@lru_cache(maxsize=None)
def outcomes(*args) -> tuple:
    """:func:`dugout.agents.bottom_ninth.outcomes`, kept (the layers ask the same often)."""
    return tuple(_outcomes(*args))


class _Table:
    """The fields of a game state that fatigue, the legal pitches and relief read."""
    rows_exhausted = rules.GameState.rows_exhausted

    def __init__(self, duel: "Duel", pit: int, fatigue: tuple[int, int], bases: int = 0):
        self.cards = duel.cards
        self.pitcher = duel.staff[pit]
        self.fatigue = list(fatigue)
        self.fatigue_rows = duel.rows
        self.ceiling = pit
        self.thrown = -1
        self.board = SimpleNamespace(bases=tuple("r" if bases >> i & 1 else None for i in range(3)))


@dataclass(frozen=True)
class Layer:
    """States solved together: flat stare-down indices, their legal pitches, and the leaf
    references of each (what every result of every pitch is worth, as a weighted sum of
    solved values: ``refs``/``weights``, states x 4 pitches x 6 classes x terms)."""
    states: np.ndarray
    legal: np.ndarray
    refs: np.ndarray
    weights: np.ndarray
    groups: tuple[tuple[int, int, np.ndarray], ...]      # (pit, slot, rows of this layer)
    loops: bool                                           # a two-strike foul can return here
    measure: int                                          # outs + runners of its states


#: Why a duel with the tenth inning is refused: the solved game is one sudden-death half
#: inning (the pitcher wins at the third out), its values the batting side's chance of one run.
EXTRA_INNINGS_REFUSED = (
    "the Bottom of the 9th solver covers the sudden-death duel: with extra_innings=True a tie "
    "at the third out goes on to the tenth inning (both teams bat and pitch), which its "
    "values (one half inning, the pitcher winning at the third out) do not cover")
#: Why a duel with a Condition Card is refused: its start (a deficit) and abilities are not
#: in the solved game.
CONDITION_REFUSED = (
    "the Bottom of the 9th solver does not cover Condition Cards (condition=...): the visitors' "
    "lead and the card's once-a-game ability are not part of its state")
#: Why a duel with support cards is refused: a once-a-game card is state its tables lack.
SUPPORT_REFUSED = (
    "the Bottom of the 9th solver does not cover support cards (support=True or 'shared'): "
    "whether each once-a-game card is still unused is not part of its state")


@dataclass(frozen=True)
class Duel:
    """The two teams and the options that shape the duel's game tree."""
    cards: CardSet
    lineup: tuple[int, ...]
    staff: tuple[int, int]
    faces: tuple[str, ...]
    rows: int = 4
    out_rule: str = "lead_runner"

    # -- making one ------------------------------------------------------------------------
    @classmethod
    def from_env(cls, env) -> "Duel":
        """The duel an env plays (its teams must be known: ``teams="default"`` or a dict)."""
        env = getattr(env, "unwrapped", env)
        if getattr(env, "mode", "duel") != "duel":
            raise ValueError("the Bottom of the 9th solver covers the duel (mode='duel') only: "
                             "the longer game's state space (score, innings, both lineups, "
                             "benches, four pitchers each) is far too large to enumerate")
        if getattr(env, "extra_innings", False):
            raise ValueError(EXTRA_INNINGS_REFUSED)
        if env.support:
            raise ValueError(SUPPORT_REFUSED)
        if getattr(env, "conditions", ()):
            raise ValueError(CONDITION_REFUSED)
        if env.lineup is None or env.staff is None:
            raise ValueError("the solver needs the teams: teams='default' or a dict of batters and "
                             "pitchers (with teams='choose' or a draft they are decisions, and "
                             "the set-up is not solved)")
        faces = tuple(f for f in ("B", "S", "C") for _ in range(env.pitch_faces.get(f, 0)))
        return cls(env.cardset, tuple(env.lineup), tuple(env.staff), faces, env.fatigue_rows,
                   env.out_rule)

    @classmethod
    def from_options(cls, **options: Any) -> "Duel":
        """The duel of ``bottom_ninth_v0`` with these options (checked by the env itself)."""
        from ....envs.bottom_ninth.env import BottomNinthEnv
        return cls.from_env(BottomNinthEnv(**options))

    @classmethod
    def from_view(cls, view) -> "Duel":
        """The duel a manager's view shows (the duel's view names every card in play)."""
        if view.mode != "duel":
            raise ValueError("the Bottom of the 9th solver covers the duel (mode='duel') only")
        if view.extra_innings:
            raise ValueError(EXTRA_INNINGS_REFUSED)
        if view.support_names:
            raise ValueError(SUPPORT_REFUSED)
        if view.condition >= 0:
            raise ValueError(CONDITION_REFUSED)
        faces = tuple(f for f, n in view.pitch_faces for _ in range(n))
        return cls(view.cards, tuple(view.lineups[1]), tuple(view.staff), faces,
                   view.fatigue_rows, view.out_rule)

    # -- identity ----------------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        """What the solution depends on, as JSON-able data (card ids, not indices)."""
        cs = self.cards.cards
        return {"cards": hashlib.sha256(self.cards.source.encode()).hexdigest()[:16],
                "card_set": self.cards.name, "lineup": [cs[i].id for i in self.lineup],
                "staff": [cs[i].id for i in self.staff], "faces": "".join(self.faces),
                "fatigue_rows": self.rows, "out_rule": self.out_rule}

    @cached_property
    def key(self) -> str:
        return json.dumps(self.describe(), sort_keys=True)

    # -- the state space ---------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return (2, 6, 3, 8, 4, 3, self.rows, self.rows)

    @property
    def cu_shape(self) -> tuple[int, ...]:
        return (2, 6, 3, 8, self.rows, self.rows)

    def valid(self, pit: int, fatigue: tuple[int, int]) -> bool:
        return min(fatigue) >= pit           # a reliever never rises above row 1

    @cached_property
    def n_states(self) -> int:
        return int(np.prod(self.shape))

    @cached_property
    def n_cleanups(self) -> int:
        return int(np.prod(self.cu_shape))

    def index(self, pit, slot, outs, bases, balls, strikes, fd, fl) -> int:
        """The flat index of a stare-down state (C order over :attr:`shape`)."""
        R = self.rows
        return ((((((pit * 6 + slot) * 3 + outs) * 8 + bases) * 4 + balls) * 3 + strikes) * R + fd) * R + fl

    def cu_index(self, pit, slot, outs, bases, fd, fl) -> int:
        """The reference of a clean-up state: after the stare-down states."""
        R = self.rows
        return self.n_states + ((((pit * 6 + slot) * 3 + outs) * 8 + bases) * R + fd) * R + fl

    def state_of(self, index: int) -> tuple[int, ...]:
        """The stare-down state of a flat index."""
        return tuple(int(i) for i in np.unravel_index(index, self.shape))

    @property
    def zero(self) -> int:                      # the reference of a lost game (third out)
        return self.n_states + self.n_cleanups

    @property
    def one(self) -> int:                       # a won game (the run)
        return self.zero + 1

    # -- the engine's rules on a probe -----------------------------------------------------
    def fatigue_after(self, pit: int, fatigue: tuple[int, int], p: int) -> tuple[int, int]:
        """The rows after throwing ``p`` (the Ace's fatigue, engine ``fatigue_ace``)."""
        t = _Table(self, pit, fatigue)
        t.thrown = p
        rules.fatigue_ace(t)
        return t.fatigue[0], t.fatigue[1]

    def legal_pitches(self, pit: int, fatigue: tuple[int, int]) -> tuple[int, ...]:
        return rules.legal_pitches(_Table(self, pit, fatigue))

    def relief_options(self, pit: int, bases: int, fatigue: tuple[int, int]
                       ) -> tuple[tuple[int, tuple[int, int]], ...]:
        """The clean-up's relief: ``((action, rows after), ...)`` for each legal split, or one
        entry with action -1 when the engine applies it without asking (one effect)."""
        t = _Table(self, pit, fatigue, bases)
        k = rules.relief_points(t)
        if not k:
            return ((-1, tuple(fatigue)),)
        splits = rules.relief_splits(t)
        effects = [rules.relief_effect(t, k, d) for d in splits]
        if len(set(effects)) <= 1:
            return ((-1, effects[0]),)
        return tuple((rules.RELIEF + d, e) for d, e in zip(splits, effects))

    def can_change(self, pit: int) -> bool:
        """The substitute may come in (engine ``substitute``: not yet used, able to relieve)."""
        return pit == 0 and self.cards.card(self.staff[1]).can_relieve

    @cached_property
    def safe(self) -> dict[tuple[int, int], float]:
        """The runner's chance in the Run! phase, per (slot, pit)."""
        return {(s, q): p_safe(self.cards.trait_by(b, "speed"), self.cards.trait_by(self.staff[q], "fielding"))
                for s, b in enumerate(self.lineup) for q in (0, 1)}

    @cached_property
    def graphs(self) -> dict[tuple[int, int], PitchGraph]:
        """The pitch graph of each (slot, pit): one per pair of cards."""
        by_cards: dict[tuple[int, int], PitchGraph] = {}
        out = {}
        for s, b in enumerate(self.lineup):
            for q in (0, 1):
                pair = (b, self.staff[q])
                if pair not in by_cards:
                    by_cards[pair] = build(self.cards, b, self.staff[q], self.faces)
                out[s, q] = by_cards[pair]
        return out

    # -- what each result is worth ---------------------------------------------------------
    def _pa_end(self, pit, slot, outs, bases, fatigue, after) -> list[tuple[float, int]]:
        """References of a plate appearance's end: a run wins, the third out loses, else the
        clean-up before the next batter."""
        out = []
        for prob, o, b, _, _, run in after:
            ref = self.one if run else self.zero if o >= 3 else self.cu_index(
                pit, (slot + 1) % 6, o, b, *fatigue)
            out.append((prob, ref))
        return out

    def result_terms(self, pit, slot, outs, bases, balls, strikes, fatigue
                     ) -> list[list[tuple[float, int]]]:
        """For each result class, its value as ``[(probability, reference), ...]`` with the
        rows ``fatigue`` after the pitch."""
        safe = self.safe[slot, pit]
        rule = self.out_rule
        terms: list[list[tuple[float, int]]] = [[] for _ in range(6)]
        for cls, name in _RESULTS.items():
            after = outcomes(outs, bases, balls, strikes, name, False, safe, rule)
            if after[0][3:5] == (0, 0):                     # the plate appearance ended
                terms[cls] = self._pa_end(pit, slot, outs, bases, fatigue, after)
            else:
                terms[cls] = [(pr, self.index(pit, slot, o, b, bl, st, *fatigue))
                              for pr, o, b, bl, st, _ in after]
        walk = outcomes(outs, bases, 3, strikes, "ball", False, safe, rule)
        terms[HBP] = self._pa_end(pit, slot, outs, bases, fatigue, walk)
        terms[RUN] = self._pa_end(pit, slot, outs, bases, fatigue,
                                  outcomes(outs, bases, balls, strikes, "contact", False, safe, rule))
        terms[CRUSH] = self._pa_end(pit, slot, outs, bases, fatigue,
                                    outcomes(outs, bases, balls, strikes, "contact", True, safe, rule))
        return terms

    # -- the layers ------------------------------------------------------------------------
    @cached_property
    def layers(self) -> list[Layer]:
        """Every stare-down state in solving order (see the module docstring)."""
        R = self.rows
        buckets: dict[tuple[int, int, int], list[tuple]] = {}
        for pit in (0, 1):
            for fd in range(R):
                for fl in range(R):
                    if not self.valid(pit, (fd, fl)):
                        continue
                    for outs in range(3):
                        for bases in range(8):
                            m = outs + bin(bases).count("1")
                            for balls in range(4):
                                for strikes in range(3):
                                    for slot in range(6):
                                        buckets.setdefault((m, balls + strikes, fd + fl), []).append(
                                            (pit, slot, outs, bases, balls, strikes, fd, fl))
        layers = []
        for key in sorted(buckets, reverse=True):
            layers.append(self._layer(buckets[key], key[0]))
        return layers

    def _layer(self, states: list[tuple], measure: int) -> Layer:
        states.sort(key=lambda s: (s[0], s[1]))
        n = len(states)
        width = 4
        refs = np.full((n, 4, 6, width), self.zero, dtype=np.int64)
        weights = np.zeros((n, 4, 6, width))
        legal = np.zeros((n, 4), dtype=bool)
        loops = False
        cache: dict[tuple, list] = {}
        for i, (pit, slot, outs, bases, balls, strikes, fd, fl) in enumerate(states):
            for p in self.legal_pitches(pit, (fd, fl)):
                legal[i, p] = True
            for p in range(4):
                after = self.fatigue_after(pit, (fd, fl), p)
                key = (pit, slot, outs, bases, balls, strikes, after)
                terms = cache.get(key)
                if terms is None:
                    terms = cache[key] = self.result_terms(pit, slot, outs, bases, balls, strikes, after)
                for cls, items in enumerate(terms):
                    for k, (w, ref) in enumerate(items):
                        refs[i, p, cls, k] = ref
                        weights[i, p, cls, k] = w
                if strikes == 2 and after == (fd, fl):
                    loops = True
        flat = np.array([self.index(*s) for s in states], dtype=np.int64)
        groups = []
        start = 0
        for i in range(1, n + 1):
            if i == n or states[i][:2] != states[start][:2]:
                groups.append((states[start][0], states[start][1], np.arange(start, i)))
                start = i
        return Layer(flat, legal, refs, weights, tuple(groups), loops, measure)

    def cleanup_states(self, measure: int) -> list[tuple]:
        """Clean-up states whose next batter faces ``outs + runners == measure``."""
        out = []
        for pit in (0, 1):
            for outs in range(3):
                for bases in range(8):
                    if outs + bin(bases).count("1") != measure:
                        continue
                    for slot in range(6):
                        for fd in range(self.rows):
                            for fl in range(self.rows):
                                if self.valid(pit, (fd, fl)):
                                    out.append((pit, slot, outs, bases, fd, fl))
        return out
