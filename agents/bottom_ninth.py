"""Managers for Bottom of the 9th: the rulebook heuristic, its always/never baselines, and
the win-expectancy table they price decisions with.

**The table.** In the duel the batting side needs one run before three outs. With no card
in play (no ability, no trait) every pitch is a lottery with known odds: the Pitch die's
faces, two fair d6, the swing table, Crushed, the base-path run phase. The chance that
the batting side scores from each situation (outs, runners, balls, strikes) follows
exactly from a linear system over the 288 situations (:func:`win_table`). It is what a
Ball, a Strike, a Foul or Contact is worth now, and so what every ability use is worth.

**The game's table.** The same chain with the runs counted gives the whole distribution of
a half inning's runs from each situation (:func:`run_distribution`), and from it the
Longer Game's chance of winning by inning, half, outs, runners, count and score, with
walk-offs and extra innings (:func:`game_tables`, :func:`game_win_expectancy`; the duel's
tenth inning likewise). It is what :func:`win_expectancy` reads outside the plain duel: the
search scores a cut-off rollout by it, and reward shaping uses it as its potential.

**The heuristic** (:class:`BottomNinthHeuristic`) reads only its manager's view:

* **Stare-down.** The pitch and the guess are a simultaneous 4 x 4 matrix game (the
  pitcher's commitment is secret until the guess). A deterministic choice is exploitable,
  so the heuristic plays the game's **mixed** equilibrium, drawn with its own seeded
  generator. Each cell is priced from the abilities at stake: what each side wins from its
  card's stare-down table (one token, or the "both" entry), the batter's MVP on an exact
  guess, the pitcher's Ace when he throws it and the guess misses it, and the fatigue an
  Ace component costs; an ability is worth what it can do to the swing table at this
  count (:func:`grant_value`). The equilibrium of that priced game is exact
  (:func:`dugout.agents.matrix_game.solve_games`, the exact solver's too); the prices are
  the heuristic part.
* **Abilities**, one at a time after the roll they modify (the FAQ): each legal use is
  priced by the expected win probability after it (a reroll averages over the new roll;
  the batter's swing still to come is averaged for the pitcher), and the best one is used
  while it helps; else ``done``. Natural-roll rules are the engine's (a Crushed ball needs
  the natural 6 still showing).
* **Relief** goes to the more tired token first; **pitching change**: bring in the
  substitute once a token is one row from exhausted and the substitute would start fresher.
* **Set-up and draft**: the cards with the most ability value, keeping the lineup legal
  (the mask does that).
* **The Longer Game** uses the same table as the price of a pitch (the chance of a run this
  half inning, a proxy there: the score and the innings left are not in it); fatigue
  points go to the less tired token; a pinch hitter comes in when the best bench card has
  more ability value than the weakest batter he may replace, into that batter's slot.

Baselines (:class:`BottomNinthAlwaysNever`): always or never make the pitching change, send
up a pinch hitter, or make a double switch; the heuristic decides everything else.

The exact play of the duel is the ``solver`` manager,
:class:`dugout.agents.solvers.bottom_ninth.EquilibriumAgent` (the whole duel solved as a
stochastic game, continuation values and all, where the heuristic prices a stare-down by
the abilities at stake on one pitch); its command line reports how much a best response
gains against the heuristic and against random.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

import numpy as np

from ..envs.bottom_ninth import rules
from ..envs.bottom_ninth.cards import Effect, PitcherCard, load_cards
from ..envs.bottom_ninth.support import load_support
from ..envs.bottom_ninth.view import BottomNinthView, view_of
from ..envs.core.bases import advance_all, force_advance, occupied, remove_runner
from .search import SearchSettings, SearchSpec, Simultaneous
from .base import AlwaysNever, Managers, ViewAgent
from .value_tables import ValueTables
from .matrix_game import solve_games

__all__ = ["BottomNinthHeuristic", "BottomNinthAlwaysNever", "win_table", "win_expectancy",
           "run_distribution", "game_tables", "game_win_expectancy", "outcomes_runs", "MAX_RUNS",
           "grant_value", "stare_down_matrix", "YES_NO_KINDS", "MANAGERS"]

#: The yes/no decisions of the baselines: change the pitcher (or keep him), and in the longer
#: game send up a pinch hitter or make a double switch (or pass).
YES_NO_KINDS = ("pitching_change", "pinch_hit", "double_switch")
#: the "no" action of each yes/no decision
_NO = {"pitching_change": rules.KEEP, "pinch_hit": rules.PASS, "double_switch": rules.PASS}

_FACES = ("B", "S", "C")
_SIDES = range(1, 7)


# -- the win-expectancy table -----------------------------------------------------------------
def _index(outs: int, bases: int, balls: int, strikes: int) -> int:
    return ((outs * 8 + bases) * 4 + balls) * 3 + strikes


_RUNNERS = ("on first", "on second", "on third")


def _move_n(bases: int, play) -> tuple[int, int]:
    """Base running on a bitmask (the core's rules): the runners left and the runs scored."""
    after, scored = play(tuple(_RUNNERS[i] if bases >> i & 1 else None for i in range(3)))
    return sum(1 << i for i, r in enumerate(after) if r is not None), len(scored)


def outcomes_runs(outs: int, bases: int, balls: int, strikes: int, result: str, crushed: bool,
                  safe: float, out_rule: str) -> list[tuple[float, int, int, int, int, int]]:
    """What the engine does after a pitch's result (blank cards): ``(probability, outs,
    bases, balls, strikes, runs scored)`` for each way it can go (Crushed and the run phase
    are chance; ``safe`` is the runner's chance in the run phase; all runs score on a home
    run, where a walk-off counts only what it needs: the tables' "at least" reads it so)."""
    if result == "ball":
        if balls < 3:
            return [(1.0, outs, bases, balls + 1, strikes, 0)]
        walked, runs = _move_n(bases, lambda b: force_advance(b, "batter"))
        return [(1.0, outs, walked, 0, 0, runs)]
    if result == "strike":
        return ([(1.0, outs, bases, balls, strikes + 1, 0)] if strikes < 2
                else [(1.0, outs + 1, bases, 0, 0, 0)])
    if result == "foul":
        return [(1.0, outs, bases, balls, min(strikes + 1, 2), 0)]
    single = _move_n(bases, lambda b: advance_all(b, 1, "batter"))
    if crushed:
        double = _move_n(bases, lambda b: advance_all(b, 2, "batter"))
        homer = 1 + bin(bases).count("1")
        return [(4 / 6, outs, single[0], 0, 0, single[1]), (1 / 6, outs, double[0], 0, 0, double[1]),
                (5 / 36, outs, 0, 0, 0, homer), (1 / 36, outs + 1, bases, 0, 0, 0)]
    if out_rule == "batter" or bases == 0:
        out = (outs + 1, bases, 0)
    else:
        lead = _move_n(bases, lambda b: advance_all(remove_runner(b, occupied(b)[-1]), 1, "batter"))
        out = (outs + 1, lead[0], lead[1])
    return [(safe, outs, single[0], 0, 0, single[1]), (1 - safe, out[0], out[1], 0, 0, out[2])]


def outcomes(outs: int, bases: int, balls: int, strikes: int, result: str, crushed: bool,
             safe: float, out_rule: str) -> list[tuple[float, int, int, int, int, bool]]:
    """:func:`outcomes_runs` with whether a run scored in place of how many (the duel's
    one-run table)."""
    return [(p, o, bs, bl, st, runs > 0)
            for p, o, bs, bl, st, runs in outcomes_runs(outs, bases, balls, strikes, result, crushed,
                                                        safe, out_rule)]


def p_safe(speed: int = 0, fielding: int = 0) -> float:
    """The base-path run phase: rounds of one roll each (Swing + Speed, Control + Fielding,
    shown 1-6), 5 or 6 a success; one success wins, both the higher (ties to the runner),
    neither rolls again. The runner's chance."""
    def shown(roll: int, by: int) -> int:
        return max(1, min(6, roll + by))
    win = lose = 0
    for b in _SIDES:
        for p in _SIDES:
            sb, sp = shown(b, speed), shown(p, fielding)
            ok_b, ok_p = sb >= 5, sp >= 5
            if ok_b and (not ok_p or sb >= sp):
                win += 1
            elif ok_p:
                lose += 1
    return win / (win + lose) if win + lose else 0.5


@lru_cache(maxsize=1024)
def _chain(faces: tuple, out_rule: str, safe: float, crush: tuple) -> tuple[np.ndarray, list]:
    """The pitch-by-pitch chain of one half inning (blank cards but for ``safe`` and
    ``crush``): the inverse of ``I - P`` over the moves that score no run and leave the inning
    on (the same whatever the runs needed), and every other move ``(state, probability, outs,
    bases, balls, strikes, runs)``."""
    total = sum(c for _, c in faces)
    ev: dict[tuple[str, bool], float] = {}
    for f, c in faces:
        for control in _SIDES:
            for swing in _SIDES:
                r = rules.swing_result(f, swing, control)
                key = (r, r == "contact" and f == "S" and swing in crush)
                ev[key] = ev.get(key, 0.0) + c / total / 36
    n = 3 * 8 * 4 * 3
    a = np.eye(n)
    moves = []
    for outs in range(3):
        for bases in range(8):
            for balls in range(4):
                for strikes in range(3):
                    i = _index(outs, bases, balls, strikes)
                    for (result, crushed), w in ev.items():
                        for p, o, bs, bl, st, runs in outcomes_runs(outs, bases, balls, strikes, result,
                                                                    crushed, safe, out_rule):
                            if runs == 0 and o < 3:
                                a[i, _index(o, bs, bl, st)] -= w * p
                            else:
                                moves.append((i, w * p, o, bs, bl, st, runs))
    return np.linalg.inv(a), moves


@lru_cache(maxsize=16)
def win_table(faces: tuple[tuple[str, int], ...] = tuple(rules.DEFAULT_FACES.items()),
              out_rule: str = "lead_runner") -> np.ndarray:
    """The batting side's chance of scoring a run before the third out, with blank cards,
    by ``[outs, bases, balls, strikes]`` (bases: bit 0 first, bit 1 second, bit 2 third):
    the exact solution of the linear system of the pitch-by-pitch Markov chain."""
    n = 3 * 8 * 4 * 3
    total = sum(c for _, c in faces)
    face_p = {f: c / total for f, c in faces}
    pairs = [(c, s) for c in _SIDES for s in _SIDES]
    safe = p_safe()
    # event probabilities per face: ball, strike, foul, crushed, run contact
    ev = {"ball": 0.0, "strike": 0.0, "foul": 0.0, "crushed": 0.0, "contact": 0.0}
    for f, pf in face_p.items():
        for c, s in pairs:
            r = rules.swing_result(f, s, c)
            if r == "contact":
                r = "crushed" if f == "S" and s == 6 else "contact"
            ev[r] += pf / 36
    a = np.eye(n)
    b = np.zeros(n)
    events = (("ball", False), ("strike", False), ("foul", False), ("contact", True),
              ("contact", False))
    weights = (ev["ball"], ev["strike"], ev["foul"], ev["crushed"], ev["contact"])
    for outs in range(3):
        for bases in range(8):
            for balls in range(4):
                for strikes in range(3):
                    i = _index(outs, bases, balls, strikes)
                    for (result, crushed), w in zip(events, weights):
                        for p, o, bs, bl, st, run in outcomes(outs, bases, balls, strikes, result,
                                                              crushed, safe, out_rule):
                            if run:
                                b[i] += w * p
                            elif o < 3:
                                a[i, _index(o, bs, bl, st)] -= w * p
    return np.linalg.solve(a, b).reshape(3, 8, 4, 3)


# -- the Longer Game's table: the runs of a half inning, and the game's win expectancy --------
#: run counts a half inning's distribution tells apart (the last bin: this many less one, or more)
MAX_RUNS = 24
_RUN_COUNTS = np.arange(MAX_RUNS)


@lru_cache(maxsize=16)
def run_distribution(faces: tuple[tuple[str, int], ...] = tuple(rules.DEFAULT_FACES.items()),
                     out_rule: str = "lead_runner") -> np.ndarray:
    """``P[outs, bases, balls, strikes, r]``: the chance that the batting side scores exactly
    ``r`` more runs before the third out (the last bin ``MAX_RUNS - 1`` or more), blank cards:
    the exact solution of :func:`win_table`'s chain with the runs counted (``1 - P[..., 0]``
    is that table)."""
    inv, moves = _chain(faces, out_rule, p_safe(), (6,))
    dist = np.zeros((inv.shape[0], MAX_RUNS))
    for r in range(MAX_RUNS - 1):
        b = np.zeros(inv.shape[0])
        for i, wp, o, bs, bl, st, runs in moves:
            if runs <= r:                   # the half ends on this play, or goes on with r - runs to score
                b[i] += wp * (runs == r) if o >= 3 else wp * dist[_index(o, bs, bl, st), r - runs]
        dist[:, r] = inv @ b
    dist[:, -1] = np.maximum(1.0 - dist[:, :-1].sum(axis=1), 0.0)
    return dist.reshape(3, 8, 4, 3, MAX_RUNS)


@lru_cache(maxsize=64)
def game_tables(faces: tuple[tuple[str, int], ...] = tuple(rules.DEFAULT_FACES.items()),
                out_rule: str = "lead_runner", innings: int = 3) -> ValueTables:
    """The Longer Game's win expectancy by inning, half, outs, bases and score, blank cards:
    :class:`~dugout.agents.value_tables.ValueTables` (regulation innings, walk-offs, extra
    innings until decided) solved from :func:`run_distribution` at the start of a plate
    appearance, the same for both teams."""
    start = run_distribution(faces, out_rule)[:, :, 0, 0]
    inputs = {"ruleset": "bottom_ninth", "mode": "game", "cards": "blank",
              "faces": [list(f) for f in faces], "out_rule": out_rule}
    return ValueTables.from_probabilities(inputs, np.stack([start, start]), innings)


def _half_over(view: BottomNinthView, home_leads: np.ndarray) -> np.ndarray:
    """Home's chance of winning once the view's half inning is over, by the home lead it
    ends with: the Longer Game's tables; the duel's tenth inning (option ``extra_innings``)
    is played once, a tie after it cut off (worth 1/2, as the search scores a game without
    a winner)."""
    faces, out_rule = _faces(view), getattr(view, "out_rule", "lead_runner")
    if view.mode == "game":
        return game_tables(faces, out_rule, view.innings).win_expectancies(
            view.inning, view.half, 3, 0, home_leads)
    start = run_distribution(faces, out_rule)[0, 0, 0, 0]

    def after_tenth(leads):
        return np.where(leads > 0, 1.0, np.where(leads < 0, 0.0, 0.5))

    def after_top(leads):                   # home bats the bottom of the tenth
        return after_tenth(leads[:, None] + _RUN_COUNTS[None, :]) @ start
    if view.inning > view.innings:
        return after_tenth(home_leads) if view.half == 1 else after_top(home_leads)
    tie = float(start @ after_top(-_RUN_COUNTS))             # the tenth from a tied start
    return np.where(home_leads > 0, 1.0, np.where(home_leads < 0, 0.0, tie))


def game_win_expectancy(view: BottomNinthView) -> float:
    """Home's chance of winning a Longer Game, or a duel with its tenth inning, from the
    view's situation, blank cards: the runs still to score this half inning
    (:func:`run_distribution` at the outs, runners and count) and what each final lead of
    the half is worth (:func:`game_tables`)."""
    dist = run_distribution(_faces(view), getattr(view, "out_rule", "lead_runner"))[
        min(view.outs, 2), _bases(view.runners), view.balls, view.strikes]
    lead = view.runs[1] - view.runs[0]
    leads = lead + _RUN_COUNTS if view.half == 1 else lead - _RUN_COUNTS
    return float(dist @ _half_over(view, leads))


def _bases(runners) -> int:
    return sum(1 << i for i, r in enumerate(runners) if r)


def _faces(view: BottomNinthView) -> tuple[tuple[str, int], ...]:
    faces = getattr(view, "pitch_faces", None)
    return tuple(rules.DEFAULT_FACES.items()) if faces is None else tuple(faces)


def _table_for(view: BottomNinthView) -> np.ndarray:
    return win_table(_faces(view), getattr(view, "out_rule", "lead_runner"))


def win_expectancy(view: BottomNinthView) -> float:
    """The viewing manager's chance of winning at the view's situation, blank cards: in the
    duel the batting side's chance of the run it needs (:func:`win_table`); in the Longer
    Game, and in a duel that plays its tenth inning, the game's (:func:`game_win_expectancy`).
    What the search scores a cut-off rollout by, and a potential for reward shaping."""
    if view.over:
        raise ValueError("win_expectancy of a finished game: read the result instead")
    if view.mode == "game" or view.extra_innings:
        home = game_win_expectancy(view)
        return home if view.seat == 1 else 1.0 - home
    batting = float(_table_for(view)[min(view.outs, 2), _bases(view.runners), view.balls,
                                     view.strikes])
    return batting if view.batting else 1.0 - batting


# -- what a pitch is worth --------------------------------------------------------------------
def _after(table: np.ndarray, outs: int, bases: int, balls: int, strikes: int, result: str,
           crushed: bool, safe: float, out_rule: str) -> float:
    """The batting side's win chance after a pitch's result (what the engine does next)."""
    return sum(p * (1.0 if run else 0.0 if o >= 3 else float(table[o, bs, bl, st]))
               for p, o, bs, bl, st, run in outcomes(outs, bases, balls, strikes, result, crushed,
                                                     safe, out_rule))


def situation(view: BottomNinthView, cards=None) -> tuple:
    """What prices a pitch: the die faces, the out rule, outs, runners, count, and the
    batter's Speed and Crushed values and the pitcher's Fielding (hashable, for caching)."""
    faces = getattr(view, "pitch_faces", None)
    faces = tuple(rules.DEFAULT_FACES.items()) if faces is None else tuple(faces)
    speed, fielding, crush = 0, 0, (6,)
    if cards is not None and view.batter_card >= 0 and view.pitcher_card >= 0:
        speed, fielding, crush = _remembered(_TRAITS, cards, (view.batter_card, view.pitcher_card),
                                             50_000, lambda: _pitch_traits(cards, view.batter_card,
                                                                           view.pitcher_card))
    return (faces, getattr(view, "out_rule", "lead_runner"), min(view.outs, 2),
            _bases(view.runners), view.balls, view.strikes, speed, fielding, crush)


def _pitch_traits(cards, batter: int, pitcher: int) -> tuple[int, int, tuple[int, ...]]:
    """The batter's Speed and Crushed values and the pitcher's Fielding (:func:`situation`)."""
    extra = [v for t in cards.trait(batter, "crush_on") for v in t.values]
    return (cards.trait_by(batter, "speed"), cards.trait_by(pitcher, "fielding"),
            tuple(sorted({6, *extra})))


@lru_cache(maxsize=4096)
def _pitch(key: tuple) -> "_Pitch":
    return _Pitch(key)


class _Pitch:
    """The situation of one pitch, for pricing (see :func:`situation`); values are cached."""

    def __init__(self, key: tuple):
        faces, self.out_rule, self.outs, self.bases, self.balls, self.strikes, speed, fielding, \
            self.crush = key
        self.faces = faces
        self.table = win_table(faces, self.out_rule)
        self.safe = p_safe(speed, fielding)
        self._values: dict[tuple, float] = {}

    def value(self, face: str, control: int, swing: int, swing_natural: int) -> float:
        """The batting side's win chance once these dice stand."""
        key = (face, control, swing, swing_natural)
        v = self._values.get(key)
        if v is None:
            result = rules.swing_result(face, swing, control)
            crushed = (result == "contact" and face == "S" and swing == swing_natural
                       and swing_natural in self.crush)
            v = self._values[key] = _after(self.table, self.outs, self.bases, self.balls,
                                           self.strikes, result, crushed, self.safe, self.out_rule)
        return v

    def before_swing(self, face: str, control: int) -> float:
        """Averaged over the swing still to come (natural: no ability counted)."""
        key = (face, control)
        v = self._values.get(key)
        if v is None:
            v = self._values[key] = sum(self.value(face, control, s, s) for s in _SIDES) / 6
        return v

    def face_odds(self, faces) -> dict[str, float]:
        total = sum(c for _, c in faces)
        return {f: c / total for f, c in faces}


# -- pricing abilities for the stare-down ----------------------------------------------------
def grant_value(effect: Effect, key: tuple, pitcher: bool) -> float:
    """What one grant is worth to its holder on a typical pitch in situation ``key``
    (:func:`situation`): the gain in win chance (for the pitcher: the loss he inflicts)
    from using it at its best, averaged over the dice it would be used after. A choose-n
    grant is worth its best use n times, a little less each."""
    return _grant_value(effect, key, pitcher)


@lru_cache(maxsize=65536)
def _grant_value(effect: Effect, key: tuple, pitcher: bool) -> float:
    pitch = _pitch(key)
    faces = pitch.faces
    if effect.kind == "choose":
        best = max(_grant_value(o, key, pitcher) for o in effect.options)
        return best * min(effect.n, 2) * 0.9
    odds = pitch.face_odds(faces)
    total = 0.0
    for f, pf in odds.items():
        for c in _SIDES:
            if pitcher:
                base = pitch.before_swing(f, c)
                if effect.if_natural and effect.die == "control" and c not in effect.if_natural:
                    continue                       # a natural-roll grant the roll misses
                best = base
                for alt in _uses(effect, f, c, None):
                    best = min(best, alt(pitch))
                total += pf / 6 * (base - best)
            else:
                for s in _SIDES:
                    base = pitch.value(f, c, s, s)
                    if effect.if_natural and s not in effect.if_natural:
                        continue
                    best = base
                    for alt in _uses(effect, f, c, s):
                        best = max(best, alt(pitch))
                    total += pf / 36 * (best - base)
    return total


def _uses(effect: Effect, face: str, control: int, swing: int | None):
    """The ways a primitive effect can be used on these dice, as functions of the pitch."""
    if effect.kind == "reroll":
        if effect.die == "control":
            yield lambda p: sum(p.before_swing(face, c) for c in _SIDES) / 6
        elif effect.die == "pitch":
            yield lambda p: sum(w * p.before_swing(f, control)
                                for f, w in p.face_odds(p.faces).items())
        else:
            yield lambda p: sum(p.value(face, control, s, s) for s in _SIDES) / 6
    elif effect.kind == "modify":
        for by in ((1, -1) if effect.by == 0 else (effect.by,)):
            if effect.die == "control" and 1 <= control + by <= 6:
                yield lambda p, by=by: p.before_swing(face, control + by)
            elif effect.die == "swing" and swing is not None and 1 <= swing + by <= 6:
                yield lambda p, by=by: p.value(face, control, swing + by, swing)
    elif effect.kind == "face" and (not effect.from_faces or face in effect.from_faces) \
            and effect.to != face:
        if swing is None:
            yield lambda p: p.before_swing(effect.to, control)
        else:
            yield lambda p: p.value(effect.to, control, swing, swing)


# -- prices remembered by the identity of the cards they are made from -----------------------
#: Each maps ``(id(owner), *inputs)`` to ``(owner, price)``; keeping the owner (a card set,
#: a card's effects tuple) alive means an id is never reused while its entry stands. Hashing
#: the frozen cards themselves for a cache was most of a rollout's pricing.
_GRANTS: dict[tuple, tuple[Any, float]] = {}
_MATRICES: dict[tuple, tuple[Any, np.ndarray]] = {}
_MIXES: dict[tuple, tuple[Any, tuple[np.ndarray, np.ndarray]]] = {}
_TRAITS: dict[tuple, tuple[Any, tuple[int, int, tuple[int, ...]]]] = {}
_POWERS: dict[tuple, tuple[Any, float]] = {}


def _remembered(memo: dict, owner: Any, inputs: tuple, limit: int, make: Callable[[], Any]) -> Any:
    """``make()``, remembered in ``memo`` for ``owner`` (compared by identity) and
    ``inputs``; the memo is emptied when it holds more than ``limit`` entries."""
    key = (id(owner), *inputs)
    hit = memo.get(key)
    if hit is None or hit[0] is not owner:
        if len(memo) > limit:
            memo.clear()
        hit = memo[key] = (owner, make())
    return hit[1]


def _grants_value(effects, key: tuple, pitcher: bool) -> float:
    """The sum of :func:`grant_value` over ``effects`` (a card's own tuple), remembered."""
    return _remembered(_GRANTS, effects, (key, pitcher), 200_000,
                       lambda: sum(_grant_value(e, key, pitcher) for e in effects))


def stare_down_matrix(view: BottomNinthView, cards) -> np.ndarray:
    """``M[pitch, guess]``: the batting side's gain in win chance from the abilities each
    pair would award (the batter's table and MVP, less the pitcher's table and Ace), less
    the fatigue an Ace component costs the pitcher. Read-only: the same cards, situation
    and fatigue give the same matrix, remembered."""
    key = situation(view, cards)
    return _remembered(_MATRICES, cards, (key, view.batter_card, view.pitcher_card, view.ace,
                                          view.fatigue, view.fatigue_rows), 50_000,
                       lambda: _stare_down_matrix(view, cards, key))


def _stare_down_matrix(view: BottomNinthView, cards, key: tuple) -> np.ndarray:
    """:func:`stare_down_matrix` computed (read-only)."""
    batter = cards.card(view.batter_card)
    pitcher = cards.card(view.pitcher_card)
    if isinstance(batter, PitcherCard):     # a pitcher at bat: his batting table, no MVP
        b_table, mvp = batter.batting, ()
    else:
        b_table, mvp = batter.stare_down, batter.mvp
    ace = view.ace
    m = np.zeros((4, 4))
    for p in range(4):
        for g in range(4):
            dir_ok = (p & 1) == (g & 1)
            loc_ok = (p >> 1) == (g >> 1)
            gain = _grants_value(b_table.for_tokens(dir_ok, loc_ok), key, False)
            if dir_ok and loc_ok:
                gain += _grants_value(mvp, key, False)
            gain -= _grants_value(pitcher.stare_down.for_tokens(not dir_ok, not loc_ok), key, True)
            if p == ace and g != ace:
                gain -= _grants_value(pitcher.ace_ability, key, True)
            m[p, g] = gain + _fatigue_cost(view, p)
    m.flags.writeable = False
    return m


def _fatigue_cost(view: BottomNinthView, pitch: int) -> float:
    """Throwing a part of the Ace moves its token down: a small cost, larger near the bottom."""
    if view.ace < 0:
        return 0.0
    cost = 0.0
    rows = max(view.fatigue_rows - 1, 1)
    for part, row in ((pitch & 1 == view.ace & 1, view.fatigue[0]),
                      (pitch >> 1 == view.ace >> 1, view.fatigue[1])):
        if part:
            cost += 0.004 * (1 + row) / rows
    return cost


# -- the heuristic -----------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _builtin_cards():
    return load_cards("builtin")


def _builtin_support():
    """The support set the env plays with (``data/support.json``: the view names its cards)."""
    return load_support()


class BottomNinthHeuristic(ViewAgent):
    """The rulebook heuristic (see the module docstring). It draws its stare-down mix from a
    generator seeded by ``reset(seed)``, so a game replays exactly."""

    name = "heuristic"
    VIEW = BottomNinthView
    #: an ability is used only when it gains at least this much win chance
    min_gain = 1e-9

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def cards(self, view: BottomNinthView):
        """The card set the view's card indices index (the game's own: ``view.cards``)."""
        return view.cards if view.cards is not None else _builtin_cards()

    def decide(self, view: BottomNinthView) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        kind = view.decision
        if kind in ("pitch", "guess"):
            return self.stare_down(view)
        if kind in ("pitcher_ability", "batter_ability"):
            values = self.ability_values(view)
            return max(legal, key=lambda a: (values[a], a == rules.DONE, -a))
        if kind == "relief":
            return self.relief(view)
        if kind == "draft_pick" and legal[0] >= rules.SUPPORT:   # the draft's support pick
            return self.pick_support(view) if view.mode == "duel" else legal[0]
        if kind in ("select_batter", "select_pitcher", "draft_pick"):
            return self.pick_card(view)
        if kind == "draft_order":
            return rules.PICK_FIRST if rules.PICK_FIRST in legal else legal[0]
        if kind == "fatigue_split":            # keep the two tokens level
            tired = rules.FATIGUE_DIR if view.fatigue[0] <= view.fatigue[1] else rules.FATIGUE_LOC
            return tired if tired in legal else legal[0]
        if kind in ("pinch_slot", "double_switch_slot"):
            return self.weakest_slot(view)
        if kind == "select_support":
            return self.pick_support(view) if view.mode == "duel" else legal[0]
        values = self.option_values(view)
        return max(legal, key=lambda a: (values[a], -a))

    def action_probabilities(self, observation: Any, view: BottomNinthView) -> dict[int, float]:
        """How this manager plays a decision: its equilibrium mix at the stare-down (what
        :meth:`decide` draws from), the one action it takes anywhere else (exact
        evaluators use it)."""
        if view.decision in ("pitch", "guess") and len(view.legal) > 1:
            pitcher_mix, batter_mix = self.mix(view)
            mix, base = (pitcher_mix, rules.THROW) if view.decision == "pitch" else (batter_mix, rules.GUESS)
            probs = {a: float(mix[a - base]) for a in view.legal}
            total = sum(probs.values())
            if total > 0:
                return {a: q / total for a, q in probs.items()}
            return {view.legal[0]: 1.0}
        return {self.decide(view): 1.0}

    # -- the stare-down ------------------------------------------------------------------
    def mix(self, view: BottomNinthView) -> tuple[np.ndarray, np.ndarray]:
        """Both sides' equilibrium mixes over HI, HA, LI, LA at this stare-down (cached:
        the same cards, situation and fatigue give the same game)."""
        cards = self.cards(view)
        rows = tuple(p for p in range(4) if not _exhausted(view, p))

        def solve() -> tuple[np.ndarray, np.ndarray]:
            legal = np.zeros(4, dtype=bool)
            legal[list(rows)] = True
            _, x, y = solve_games(stare_down_matrix(view, cards)[None], legal[None])
            return x[0], y[0]

        return _remembered(_MIXES, cards, (situation(view, cards), view.batter_card,
                                           view.pitcher_card, view.ace, view.fatigue,
                                           view.fatigue_rows, rows), 50_000, solve)

    def stare_down(self, view: BottomNinthView) -> int:
        pitcher_mix, batter_mix = self.mix(view)
        if view.decision == "pitch":
            probs = np.array([pitcher_mix[a - rules.THROW] if a in view.legal else 0.0
                              for a in range(rules.THROW, rules.THROW + 4)])
            base = rules.THROW
        else:
            probs = np.array([batter_mix[a - rules.GUESS] if a in view.legal else 0.0
                              for a in range(rules.GUESS, rules.GUESS + 4)])
            base = rules.GUESS
        if probs.sum() <= 0:
            return view.legal[0]
        probs = probs / probs.sum()
        return base + int(self.rng.choice(4, p=probs))

    # -- abilities -----------------------------------------------------------------------
    def pitch(self, view: BottomNinthView) -> "_Pitch":
        """What the dice of this pitch are worth (the one-run table at the view's situation)."""
        return _pitch(situation(view, self.cards(view)))

    def ability_values(self, view: BottomNinthView) -> dict[int, float]:
        """Each legal action's value to the deciding side: its expected win chance after
        the use (``done``: as the dice stand)."""
        pitch = self.pitch(view)
        faces = pitch.faces
        pitcher = view.decision == "pitcher_ability"
        face, control = view.face, view.control
        swing, natural = view.swing, view.swing_natural

        def now(f=face, c=control, s=swing, n=natural) -> float:
            return pitch.before_swing(f, c) if pitcher else pitch.value(f, c, s, n)

        out = {}
        for a in view.legal:
            if a == rules.DONE:
                v = now()
            elif a == rules.REROLL_PITCH:
                v = sum(w * now(f=f) for f, w in pitch.face_odds(faces).items())
            elif a == rules.REROLL_CONTROL:
                v = sum(now(c=c) for c in _SIDES) / 6
            elif a in (rules.CONTROL_UP, rules.CONTROL_DOWN):
                v = now(c=control + (1 if a == rules.CONTROL_UP else -1))
            elif a in (rules.FACE_B, rules.FACE_S, rules.FACE_C):
                v = now(f=_FACES[a - rules.FACE_B])
            elif a == rules.REROLL_SWING:
                v = sum(now(s=s, n=s) for s in _SIDES) / 6
            elif a in (rules.SWING_UP, rules.SWING_DOWN):
                v = now(s=swing + (1 if a == rules.SWING_UP else -1))
            else:
                v = now()
            out[a] = -v if pitcher else v
        done = out.get(rules.DONE)
        if done is not None:       # use an ability only when it clearly helps
            for a in out:
                if a != rules.DONE and out[a] < done + self.min_gain:
                    out[a] = done - 1.0
        return out

    # -- clean up and the bullpen --------------------------------------------------------------
    def relief(self, view: BottomNinthView) -> int:
        """Relief to the more tired token first: the split leaving the lower worst row, then
        the lower rows in all."""
        points = 3 - sum(view.runners) + self.cards(view).trait_by(view.pitcher_card, "stamina")

        def rows(a: int) -> tuple[int, int]:
            k = a - rules.RELIEF
            d = max(view.ceiling, view.fatigue[0] - k)
            loc = max(view.ceiling, view.fatigue[1] - (points - k))
            return max(d, loc), d + loc

        return min(view.legal, key=lambda a: (rows(a), a))

    def option_values(self, view: BottomNinthView) -> dict[int, float]:
        """The yes/no decisions. A pitching change is worth making once a token is (or, with
        the runs he allowed placed, will be) one row from exhausted and a new pitcher would
        start fresher, the best bullpen card first; a pinch
        hitter when the best bench batter has more ability value than the weakest batter
        he may replace; a double switch never (the heuristic keeps its lineup)."""
        cards = self.cards(view)
        no = _NO.get(view.decision)
        values = {a: (0.0 if a == no else -1.0) for a in view.legal}
        if view.decision == "pitching_change":
            # at a half's start the runs he allowed are still to be placed (fatigue_left)
            worst = max(view.fatigue) + (view.fatigue_left + 1) // 2
            # a reliever starts at row 1 at worst: change only for a pitcher worse than that
            tired = worst >= view.fatigue_rows - 2 and worst > 1
            for a in view.legal:
                if a == rules.BRING_IN:
                    values[a] = 1.0 if tired else -1.0
                elif rules.CARD <= a < rules.SLOT:
                    values[a] = (1.0 if tired else -1.0) + card_power(cards, a - rules.CARD)
        elif view.decision == "pinch_hit":
            team = view.seat
            lineup = [c for k, c in enumerate(view.lineups[team])
                      if c >= 0 and k != view.pitcher_slots[team]]
            weakest = min((card_power(cards, c) for c in lineup), default=0.0)
            for a in view.legal:
                if rules.CARD <= a < rules.SLOT:
                    values[a] = card_power(cards, a - rules.CARD) - weakest - 0.01
        return values

    def weakest_slot(self, view: BottomNinthView) -> int:
        """The lineup slot (among the legal) whose batter has the least ability value."""
        cards = self.cards(view)
        lineup = view.lineups[view.seat]

        def power(a: int) -> float:
            k = a - rules.SLOT
            c = lineup[k] if 0 <= k < len(lineup) else -1
            return card_power(cards, c) if c >= 0 else 0.0
        return min(view.legal, key=lambda a: (power(a), a))

    # -- set-up --------------------------------------------------------------------------
    def pick_support(self, view: BottomNinthView) -> int:
        """The duel's support card: one for the side this manager plays in the ninth (away
        pitches, home bats: a card of the other side would never be used there), the one
        whose grant is worth most at a neutral count; the first legal when none fits."""
        side = "batting" if view.seat == 1 else "pitching"
        key = (tuple(rules.DEFAULT_FACES.items()), "lead_runner", 0, 0, 0, 0, 0, 0, (6,))

        def value(a: int) -> tuple:
            card = _builtin_support().cards[a - rules.SUPPORT]
            return (card.side == side, _grants_value(card.grant, key, side == "pitching"), -a)
        return max(view.legal, key=value)

    def pick_card(self, view: BottomNinthView) -> int:
        cards = self.cards(view)
        return max(view.legal, key=lambda a: (card_power(cards, a - rules.CARD), -a))


def _exhausted(view: BottomNinthView, pitch: int) -> bool:
    """Whether ``pitch`` uses an Ace component whose token is at the bottom of the track
    (the pitcher cannot throw it: both sides see that, so the batter never guesses on it)."""
    if view.ace < 0:
        return False
    bottom = view.fatigue_rows - 1
    return ((view.fatigue[0] >= bottom and (pitch & 1) == (view.ace & 1))
            or (view.fatigue[1] >= bottom and (pitch >> 1) == (view.ace >> 1)))


def _power(cards, index: int) -> float:
    """A card's ability value at a neutral count (0-0, nobody on, no outs), for picking."""
    key = (tuple(rules.DEFAULT_FACES.items()), "lead_runner", 0, 0, 0, 0, 0, 0, (6,))
    card = cards.card(index)
    if cards.is_batter(index):
        t = card.stare_down
        value = sum(_grants_value(x, key, False) for x in (t.direction, t.location, t.both))
        value += _grants_value(card.mvp, key, False) / 4
        value += 0.01 * cards.trait_by(index, "speed")
        value += 0.01 * len([v for tr in cards.trait(index, "crush_on") for v in tr.values])
        return value
    t = card.stare_down
    value = sum(_grants_value(x, key, True) for x in (t.direction, t.location, t.both))
    value += _grants_value(card.ace_ability, key, True) / 4
    value += 0.01 * (cards.trait_by(index, "fielding") + cards.trait_by(index, "stamina")
                     - cards.trait_by(index, "tires"))
    return value


def card_power(cards, index: int) -> float:
    """:func:`_power`, remembered for the card set (hashing a whole frozen card set for a
    cache, at every pick of a rollout, was a third of the Manager Challenge search's time)."""
    return _remembered(_POWERS, cards, (index,), 100_000, lambda: _power(cards, index))


class BottomNinthAlwaysNever(AlwaysNever, BottomNinthHeuristic):
    """Baseline: always (or never) change the pitcher when the rules allow (or, in the
    longer game, send up a pinch hitter, or make a double switch); the heuristic decides
    everything else."""
    KINDS, RULESET = YES_NO_KINDS, "Bottom of the 9th"

    @property
    def PASS(self) -> int:                    # the "no" of this baseline's decision
        return _NO[self.kind]


def _no_value_tables(teams, innings):
    raise ValueError("bottom_ninth_v0 has no run-expectancy tables of its teams: its tables are "
                     "blank-card ones, the duel's win chance by outs, runners and count "
                     "(dugout.agents.bottom_ninth.win_table()) and the Longer Game's "
                     "(dugout.agents.bottom_ninth.game_tables())")


def _search_budget(setup: dict) -> dict | None:
    """The search's default budget for a Longer Game: its rollouts are cut off two half
    innings on and scored by the game's table (:func:`game_win_expectancy`); the stare-down
    is left to the heuristic's mix (``simultaneous=rollout``: a matrix game of 16 cells a
    world was four fifths of the search's time, and in the duel it gained nothing
    significant while it made the search far more exploitable); and it overrules the
    heuristic only at 3 standard errors (``z=3``): the paired differences of one pitch's
    options spread 0.07 to 0.17 a standard error over 8 to 16 worlds, and at 2 it overruled
    the heuristic's exactly priced ability uses on noise (44.0% against the heuristic in
    100 games, 57.0% at 3 on the same seeds). About half a minute a game on one core. The
    duel keeps the ruleset's settings: 16 worlds played to the end (one half inning, or two
    with its tenth), its stare-down searched as a matrix game."""
    if setup.get("mode") == "game":
        return {"sims": 16, "batch": 8, "horizon": 2, "simultaneous": "rollout", "z": 3.0}
    return None


def _search_view(state, seat: int, root: BottomNinthView) -> BottomNinthView:
    """A rollout's view for the search manager."""
    return view_of(state, seat)


# -- the stare-down as the search plays it: a matrix game ---------------------------------------
def _guesses(view: BottomNinthView) -> tuple[int, ...]:
    """The batter's answers to the pitch being committed: any of the four guesses."""
    return tuple(rules.GUESS + g for g in range(4))


def _pitches(view: BottomNinthView) -> tuple[int, ...]:
    """The pitches the pitcher may have committed before this guess: those his Fatigue
    Track leaves him (both sides see it)."""
    return tuple(rules.THROW + p for p in range(4) if not _exhausted(view, p))


def _throw_then_guess(state, pitch: int, guess: int) -> None:
    """The pitcher's manager commits ``pitch``; the batter's answers ``guess``."""
    rules.apply_action(state, pitch)
    if state.pending is None or state.pending.kind != "guess":
        raise ValueError(f"the stare-down: no guess follows the pitch (pending {state.pending})")
    rules.apply_action(state, guess)


def _guess_against(state, guess: int, pitch: int) -> None:
    """The batter's manager guesses ``guess`` against the committed ``pitch`` (the world's
    secret, drawn by ``sample_state``, replaced)."""
    if pitch - rules.THROW not in rules.legal_pitches(state):
        raise ValueError(f"the stare-down: pitch {pitch} cannot be thrown here "
                         f"(legal {rules.legal_pitches(state)})")
    state.secret = pitch - rules.THROW
    rules.apply_action(state, guess)


#: The stare-down's two decisions, for the search (:class:`dugout.agents.search.Simultaneous`):
#: the pitcher's commitment against each guess, the batter's guess against each pitch.
STARE_DOWN = {"pitch": Simultaneous(_guesses, _throw_then_guess),
              "guess": Simultaneous(_pitches, _guess_against)}


MANAGERS = Managers(
    heuristic=BottomNinthHeuristic, always_never=BottomNinthAlwaysNever, yes_no_kinds=YES_NO_KINDS,
    value_tables=_no_value_tables, win_expectancy=win_expectancy,
    extra={"solver": "dugout.agents.solvers.bottom_ninth:EquilibriumAgent"},
    search=SearchSpec("dugout.envs.bottom_ninth.sample", "dugout.envs.bottom_ninth.rules", _search_view,
                      SearchSettings(sims=16, batch=8, horizon=0), budget=_search_budget, simultaneous=STARE_DOWN,
                      kinds=rules.DECISION_KINDS))
