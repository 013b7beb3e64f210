"""That's Baseball for a batch of games at once: :class:`BatchedGames`.

The same game as :mod:`dugout.envs.thats_baseball.rules`, decision for decision and die for
die: game ``i`` of a batch, seeded ``s`` and given the same actions, passes through the same
decisions (kind, actor, subject, legal actions), shows the same observations (the float32
vector of ``thats_baseball.env.encode_view``) and ends with the same score as
``rules.new_game(away, home, Dice(s), innings, max_innings)`` driven by ``rules.apply_action``.
``tests/test_vector_thats_baseball.py`` checks it over thousands of games.

State is a structure of arrays, one row per game (``inning``, ``half``, ``outs``, ``bases``
as the lineup slots of the runners with -1 for an empty base, ``runs``, ``order``, ...).
Gathering and scattering rows of a 2-D array by an index array is numpy's slow path, so the
bases are kept four bytes a game (the fourth always -1) and move as one ``int32``; ``occ``
keeps each game's occupied bases as a 3-bit code (bit ``i``: a runner on base ``i``), and
``order`` and ``runs`` are read through flat views.
Each rule of the scalar engine is a method over an index array of the games it applies to
(``idx``); it reads and writes those rows with masked numpy operations and splits them by
what the dice say. ``step`` applies the managers' choices, then plays every game on: each
pass applies the rules start_pa, steal, pickoff, at_bat, tag_up, end_pa in that order to the
games whose ``rule`` names them, and passes repeat until every game waits on a decision or
is over. Section letters in comments (``# 1i``) are the rulebook's; RULES.md beside the
scalar engine gives every reading.

Nothing here restates a rule's number or base running; it is all read from the scalar
engine when this module is imported:

* the dice: the result chart, the extra-base-hit die and the charts of the steal, pickoff,
  error, double-play and tag-up rolls (how many dice, which totals give which result) are
  :mod:`dugout.envs.thats_baseball.charts`'s, turned into arrays over the total
  (:data:`CHART`, :data:`EXTRA_BASE_HIT`, :data:`STEAL_CAUGHT`, ...); the dice purposes are
  its :data:`~dugout.envs.thats_baseball.charts.PURPOSES`;
* where runners go: :data:`PLAYS` names each way runners move (a hit, a walk, a steal or a
  tag-up, an out on the bases, a pickoff error, a missed or a turned double play, an error)
  by the engine's own ``rules.bases_after_*`` function, and :func:`_tabulate` runs each on
  every arrangement of runners, so that a move here is one gather from a table the scalar
  code wrote;
* who may steal or tag up, and the tag-up order: :data:`CLEAR_AHEAD` and :data:`NEXT_TAG`
  tabulate ``rules.runners_free_to_advance`` and ``rules.next_tag_up``.

What stays here is the flow of the rules (which rule applies to which games, in the
engine's order), which ``tests/test_vector_thats_baseball.py`` checks against the scalar
engine decision by decision, and ``tests/test_thats_baseball_charts.py`` checks the tables
against the engine's rule functions rolled die by die.

What this engine leaves out: the box score, the play log and rendering (use the scalar
engine to look at one game), and scripted dice.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from ..envs.core.errors import IllegalActionError, OptionError, as_int, check_innings, check_pair
from ..envs.core.observation import MAX_COUNTED
from ..envs.core.scorebook import FLY_OUT, GROUND_OUT, HIT_BY_PITCH, STRIKEOUT, WALK
from ..envs.thats_baseball import charts, rules
from ..envs.thats_baseball.cards import AA_MIN, load_team
from ..envs.thats_baseball.env import OBS, encode_view
from ..envs.thats_baseball.view import ThatsBaseballView
from .dice import BatchedDice

__all__ = ["BatchedGames", "PURPOSES", "RULE_STEPS"]

PURPOSES = charts.PURPOSES

NAME = "BatchedGames"
N_ACTIONS = len(rules.ACTIONS)
_count = np.count_nonzero     # "any" for a bool array: the quickest test numpy has
PASS, ROLL = rules.PASS, rules.ROLL

# -- the decisions, by their index in rules.DECISION_KINDS --------------------------------
KIND = {k: i for i, k in enumerate(rules.DECISION_KINDS)}
STEAL_K, PICKOFF_K, ERROR_K = KIND["steal"], KIND["pickoff"], KIND["error_roll"]
DP_K, DP_RUNNER_K, TAG_K = KIND["double_play"], KIND["dp_runner"], KIND["tag_up"]

# -- the rule steps: where a game goes on (``GameState.step``), and two states of rest ----
RULE_STEPS = ("start_pa", "steal", "pickoff", "at_bat", "tag_up", "end_pa", "decide", "over")
START_PA, STEAL, PICKOFF, AT_BAT, TAG_UP, END_PA, DECIDE, OVER = range(len(RULE_STEPS))
#: The rule step a game is at while each kind of decision waits (the scalar engine's
#: ``step`` when it asked): a choice resumes the game there.
RESUME = np.array([STEAL, PICKOFF, END_PA, END_PA, END_PA, TAG_UP], dtype=np.int8)

# -- the result chart (1e) as an array over the total -------------------------------------
# result codes: 0 a walk or hit batsman, 1-4 a hit of that many bases, then the outs
WALKED, SINGLE_R, DOUBLE_R, TRIPLE_R, HOME_RUN_R, STRIKEOUT_R, FLY_OUT_R, GROUND_OUT_R, XBH_R = range(9)


def _result_code(result) -> int:
    if result is charts.XBH:
        return XBH_R
    if result is WALK or result is HIT_BY_PITCH:
        return WALKED
    if result.bases:
        return result.bases
    return {STRIKEOUT: STRIKEOUT_R, FLY_OUT: FLY_OUT_R, GROUND_OUT: GROUND_OUT_R}[result]


CHART = np.full(max(charts.RESULT_CHART) + 1, -1, dtype=np.int8)
for _total, _result in charts.RESULT_CHART.items():
    CHART[_total] = _result_code(_result)
#: 1h: the extra-base-hit die's total as the bases of the hit.
EXTRA_BASE_HIT = np.zeros(charts.SIDES * charts.EXTRA_BASE_HIT.dice + 1, dtype=np.int8)
for _total in charts.ways(charts.EXTRA_BASE_HIT.dice):
    EXTRA_BASE_HIT[_total] = charts.EXTRA_BASE_HIT.read(_total).bases


def _gives(chart: charts.DiceChart, result: str) -> np.ndarray:
    """Whether each total of ``chart``'s dice (the index) gives ``result``."""
    table = np.zeros(charts.SIDES * chart.dice + 1, dtype=bool)
    table[list(chart.totals(result))] = True
    return table


#: 1i, 1j, 1m, 1k, 1l: the results of the other rolls, as bool arrays over the total.
STEAL_CAUGHT = _gives(charts.STEAL, "caught")
PICKOFF_OUT = _gives(charts.PICKOFF, "picked_off")
PICKOFF_ERROR = _gives(charts.PICKOFF, "error")
ERROR_MADE = _gives(charts.ERROR, "error")
DOUBLE_PLAY_TURNED = _gives(charts.DOUBLE_PLAY, "turned")
TAG_UP_ADVANCED = _gives(charts.TAG_UP, "advanced")
#: Each chart's purpose and number of dice: the arguments of ``BatchedDice.roll``.
_ROLL = {c: (c.purpose, c.dice) for c in charts.CHARTS.values()}

# -- base running: every way runners move, tabulated from core.bases ------------------------
#: A game's bases as the rules move them: ``[first, second, third, -1, batter]``.
EMPTY_COL, BATTER_COL = 3, 4


def _plays() -> list[tuple[str, Any]]:
    plays = [("walk", lambda b, bat: rules.bases_after_walk(b, bat))]             # 1o
    plays += [(name, lambda b, bat, n=n: rules.bases_after_hit(b, n, bat))       # 1o
              for n, name in enumerate(("single", "double", "triple", "home_run"), 1)]
    plays += [("error", lambda b, bat: rules.bases_after_error(b, bat)),          # 1m
              ("missed_double_play", lambda b, bat: rules.bases_after_missed_double_play(b))]
    for k in range(3):
        plays += [
            (f"advance_{k}", lambda b, bat, k=k: rules.bases_after_advance(b, k)),   # 1i, 1l
            (f"out_{k}", lambda b, bat, k=k: rules.bases_after_out(b, k)),           # 1i, 1j
            (f"pickoff_error_{k}", lambda b, bat, k=k: rules.bases_after_pickoff_error(b, k)),
            (f"double_play_{k}", lambda b, bat, k=k: rules.bases_after_double_play(b, k)),  # 1k
        ]
    return plays


#: (name, function of (bases, batter)) for each way runners move; a play's code is its index.
PLAYS = _plays()
PLAY = {name: i for i, (name, _) in enumerate(PLAYS)}
#: The play of a batter's result code 0-4 (walk, single, double, triple, home run).
BATTER_PLAY = np.array([PLAY[n] for n in ("walk", "single", "double", "triple", "home_run")],
                       dtype=np.intp)
ADVANCE = np.array([PLAY[f"advance_{k}"] for k in range(3)], dtype=np.intp)
OUT_ON = np.array([PLAY[f"out_{k}"] for k in range(3)], dtype=np.intp)
PICKOFF_ERROR_ON = np.array([PLAY[f"pickoff_error_{k}"] for k in range(3)], dtype=np.intp)
DOUBLE_PLAY_ON = np.array([PLAY[f"double_play_{k}"] for k in range(3)], dtype=np.intp)


def _symbolic(occ: int) -> tuple:
    """The bases of a 3-bit code, each runner named by his base."""
    return tuple(i if occ >> i & 1 else None for i in range(3))


def _tabulate() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row ``play * 8 + occ`` (``occ``: bit i for a runner on base i): where each base's new
    runner comes from (a column of ``[first, second, third, -1, batter]``, and -1 for the
    fourth byte), the new ``occ`` and how many runners score, from ``core.bases`` run on
    symbolic runners."""
    source = np.tile(np.array([0, 1, 2, EMPTY_COL], dtype=np.intp), (len(PLAYS) * 8, 1))
    new_occ = np.tile(np.arange(8, dtype=np.int8), len(PLAYS))
    scored = np.zeros(len(PLAYS) * 8, dtype=np.int32)
    for p, (_, play) in enumerate(PLAYS):
        for occ in range(8):
            bases = _symbolic(occ)
            try:
                new, runs = play(bases, BATTER_COL)
            except ValueError:          # no runner to move: a play the engine never makes
                continue
            row = p * 8 + occ
            source[row, :3] = [EMPTY_COL if r is None else r for r in new]
            new_occ[row] = sum(1 << i for i in range(3) if new[i] is not None)
            scored[row] = len(runs)
    return source, new_occ, scored


MOVE_SOURCE, MOVE_OCC, MOVE_SCORED = _tabulate()

#: The runners of an ``occ`` code with the base ahead empty (home always is): who may
#: steal (1i) or tag up (1l), as a code (``rules.runners_free_to_advance``).
CLEAR_AHEAD = np.array([sum(1 << i for i in rules.runners_free_to_advance(_symbolic(o)))
                        for o in range(8)], dtype=np.int8)
#: Row ``occ * 4 + start + 1``: the next runner asked to tag up looking from base ``start``
#: (-1 .. 2) down, or -1 (``rules.next_tag_up``; 1l: third, then second, then first).
NEXT_TAG = np.array([rules.next_tag_up(_symbolic(o), start) for o in range(8)
                     for start in range(-1, 3)], dtype=np.int8)
NEXT_SLOT = np.array([(i + 1) % 9 for i in range(9)], dtype=np.int8)
#: The four bytes of empty bases seen as one int32.
EMPTY_BASES = np.full(4, -1, dtype=np.int8).view(np.int32)[0]


def _mask_table() -> np.ndarray:
    """The legal actions of each decision kind (row kind + 1; row 0: no decision) for each
    3-bit code of the runners it may name (steal: who may go; pickoff, dp_runner: who is on)."""
    table = np.zeros((len(rules.DECISION_KINDS) + 1, 8, N_ACTIONS), dtype=bool)
    for kind, k in KIND.items():
        for code in range(8):
            runners = [k_ + 1 for k_ in range(3) if code >> k_ & 1]
            legal = {"steal": [PASS] + runners, "pickoff": [PASS] + runners,
                     "dp_runner": runners}.get(kind, [PASS, ROLL])
            table[k + 1, code, legal] = True
    return table


MASK_TABLE = _mask_table()


# -- the observation, from tables encode_view writes ---------------------------------------
_O = OBS.offset


def _span(first: str, last: str) -> slice:
    """The observation's columns from piece ``first`` to piece ``last``, which must be adjacent."""
    names = [p[0] for p in OBS.pieces]
    covered = names[names.index(first):names.index(last) + 1]
    start, stop = _O[first], _O[last] + OBS.sizes[last]
    assert stop - start == sum(OBS.sizes[n] for n in covered), covered
    return slice(start, stop)


_SITUATION = _span("inning", "runners")
_DUE_UP = _span("due_up_batting", "due_up_fielding")
_PENDING = _span("decision", "pickoff_tried")
_SCORE = np.array([min(n, MAX_COUNTED) / 10.0 for n in range(MAX_COUNTED + 1)], dtype=np.float32)
_DIFF = np.array([max(-1.0, min(1.0, d / 10.0)) for d in range(-10, 11)], dtype=np.float32)


def _view(**fields) -> ThatsBaseballView:
    base = dict(seat=0, decision=None, subject=-1, legal=(), options=(), inning=1, half=0,
                innings=9, outs=0, bases=(False, False, False), score=(0, 0),
                lineups=((AA_MIN,) * 9, (AA_MIN,) * 9), order=(0, 0),
                tried_steal=(False, False, False), pickoff_tried=False, over=False)
    return ThatsBaseballView(**{**base, **fields})


def _bits(code: int) -> tuple[bool, bool, bool]:
    return (bool(code & 1), bool(code & 2), bool(code & 4))


class _Tables:
    """The team-free tables, written by ``encode_view`` once, when first needed."""

    @cached_property
    def situation(self) -> np.ndarray:
        """Row (((min(inning, 10) - 1) * 2 + half) * 2 + seat) * 4 + outs) * 8 + occ."""
        rows = [encode_view(_view(inning=inning, half=half, seat=seat, outs=outs,
                                  bases=_bits(occ)))[_SITUATION]
                for inning in range(1, 11) for half in (0, 1) for seat in (0, 1)
                for outs in range(4) for occ in range(8)]
        return np.array(rows, dtype=np.float32)

    @cached_property
    def pending(self) -> np.ndarray:
        """Row (((kind + 1) * 4 + subject + 1) * 8 + tried code) * 2 + pickoff_tried."""
        rows = [encode_view(_view(pending=None if kind < 0 else rules.DECISION_KINDS[kind],
                                  pending_subject=subject, tried_steal=_bits(tried),
                                  pickoff_tried=bool(pickoff)))[_PENDING]
                for kind in range(-1, len(rules.DECISION_KINDS)) for subject in range(-1, 3)
                for tried in range(8) for pickoff in (0, 1)]
        return np.array(rows, dtype=np.float32)


_TABLES = _Tables()


def _due_up_table(teams) -> np.ndarray:
    """Row (half * 9 + batting team's slot) * 9 + fielding team's slot: the due-up pieces."""
    lineups = (teams[0].aas, teams[1].aas)
    rows = []
    for half in (0, 1):
        for at_bat in range(9):
            for in_field in range(9):
                order = (at_bat, in_field) if half == 0 else (in_field, at_bat)
                rows.append(encode_view(_view(half=half, seat=0, lineups=lineups,
                                              order=order))[_DUE_UP])
    return np.array(rows, dtype=np.float32)


class BatchedGames:
    """``num_games`` games of That's Baseball between the same two teams, stepped at once.

    After every call (``reset``, ``step``) these arrays describe each game; they are the
    engine's own state, updated in place (copy what you keep):

    * ``kind`` (B,) int8: the pending decision's index in ``rules.DECISION_KINDS``, -1 when over;
    * ``actor`` (B,) int8: who decides, 0 away or 1 home; -1 when over;
    * ``subject`` (B,) int8: the base a tag-up decision is about, else -1;
    * ``mask`` (B, 5) bool: the legal actions (``rules.ACTIONS`` order), all False when over;
    * ``over``, ``truncated`` (B,) bool; ``winner`` (B,) int8: 0, 1, or -1 (playing, truncated);
    * ``runs`` (B, 2) int32; ``decisions`` (B,) int32: decisions taken in the current game;
    * the situation: ``inning``, ``half``, ``outs``, ``bases`` (B, 3) lineup slots or -1,
      ``occ`` (bit ``i``: a runner on base ``i``), ``order`` (B, 2), ``pa``, ``tried`` (a
      bit per lineup slot of the runners who tried to steal before this batter),
      ``pickoff_tried``, ``rule`` (:data:`RULE_STEPS`).

    A new batch holds no game: every game is over until ``reset`` starts it.
    """

    def __init__(self, num_games: int, teams=("sample", "reds"), innings: int = 9,
                 max_innings: int | None = None):
        n = as_int(num_games)
        if n is None or n < 1:
            raise OptionError(f"{NAME}: num_games must be a positive int, got {num_games!r}")
        check_pair(NAME, "teams", teams)
        self.innings, self.max_innings = check_innings(NAME, innings, max_innings)
        self.teams = (load_team(teams[0]), load_team(teams[1]))
        self.num_games = B = n
        #: adjusted averages (team, lineup slot)
        self.aa = np.array([t.aas for t in self.teams], dtype=np.int16)
        self._aa_flat = self.aa.reshape(-1)
        #: row (half * 9 + batting team's slot) * 9 + fielding team's slot: both due-up pieces
        self._due = _due_up_table(self.teams)
        self._innings_left = np.array(
            [max(0, self.innings - i) / 9.0 for i in range(self.innings + 2)], dtype=np.float32)
        self._rows = np.arange(B)
        self._off5 = 5 * self._rows[:, None]

        self.inning = np.ones(B, dtype=np.int16)
        self.half = np.zeros(B, dtype=np.int8)
        self.outs = np.zeros(B, dtype=np.int8)
        self._bases4 = np.full((B, 4), -1, dtype=np.int8)
        self.bases = self._bases4[:, :3]                       # a view
        self._packed = self._bases4.view(np.int32).reshape(B)  # a game's bases as one int32
        self._bases_flat = self._bases4.reshape(-1)
        self.occ = np.zeros(B, dtype=np.int8)
        self.runs = np.zeros((B, 2), dtype=np.int32)
        self.order = np.zeros((B, 2), dtype=np.int8)
        self._order_flat = self.order.reshape(-1)
        self._runs_flat = self.runs.reshape(-1)
        self.pa = np.zeros(B, dtype=np.int16)
        self.tried = np.zeros(B, dtype=np.int16)
        self.pickoff_tried = np.zeros(B, dtype=bool)
        self.tag_base = np.full(B, -1, dtype=np.int8)
        self.rule = np.full(B, OVER, dtype=np.int8)
        self.kind = np.full(B, -1, dtype=np.int8)
        self.actor = np.full(B, -1, dtype=np.int8)
        self.subject = np.full(B, -1, dtype=np.int8)
        self.runners = np.zeros(B, dtype=np.int8)   # 3-bit code of the runners a decision names
        self.mask = np.zeros((B, N_ACTIONS), dtype=bool)
        self.over = np.ones(B, dtype=bool)
        self.winner = np.full(B, -1, dtype=np.int8)
        self.truncated = np.zeros(B, dtype=bool)
        self.decisions = np.zeros(B, dtype=np.int32)
        self.dice = BatchedDice(B, PURPOSES)
        self._bind()

    def _bind(self) -> None:
        """The rule steps and the choices, in the order ``_play_on`` and ``step`` apply them."""
        self._rules = ((START_PA, self._start_plate_appearance), (STEAL, self._offer_steal),
                       (PICKOFF, self._offer_pickoff), (AT_BAT, self._roll_for_batter),
                       (TAG_UP, self._offer_tag_up), (END_PA, self._end_plate_appearance))
        self._choices = ((STEAL_K, self._choose_steal), (PICKOFF_K, self._choose_pickoff),
                         (ERROR_K, self._choose_error_roll), (DP_K, self._choose_double_play),
                         (DP_RUNNER_K, self._choose_dp_runner), (TAG_K, self._choose_tag_up))

    # -- the API -------------------------------------------------------------------------
    def reset(self, seeds, index=None) -> None:
        """Start new games seeded ``seeds`` (one int each) in every game, or in the games
        ``index`` names (int indices or a (B,) bool mask), and play each to its first decision."""
        idx = self._index(index)
        seeds = np.asarray(seeds) if not isinstance(seeds, np.ndarray) else seeds
        if seeds.shape != idx.shape:
            raise ValueError(f"{NAME}.reset: seeds must have shape {idx.shape} (one per game "
                             f"reset), got shape {seeds.shape}")
        self.dice.seed(idx, seeds)
        self.inning[idx] = 1
        for a in (self.half, self.outs, self.occ, self.runs, self.order, self.pa, self.tried,
                  self.pickoff_tried, self.truncated, self.decisions, self.over):
            a[idx] = 0
        for a in (self._bases4, self.tag_base, self.kind, self.actor, self.subject, self.winner):
            a[idx] = -1
        self.rule[idx] = START_PA
        self._play_on(idx)
        self._update_mask(idx)

    def step(self, actions, index=None) -> None:
        """Apply one action per game (``actions``: (B,) ints), then play every game on to
        its next decision or its end. Games that are over ignore their action; with ``index``
        (int indices or a (B,) bool mask) only those games act and the others keep waiting.
        An illegal action for a game that acts raises ``IllegalActionError`` (a
        ``ValueError``) naming the games, and changes nothing."""
        if index is None:
            idx = np.flatnonzero(~self.over)
        else:
            idx = self._index(index, "step")
            idx = idx[~self.over[idx]]
        a = self._check_actions(actions, idx)
        # only the games that act change: the rest of the batch is never touched (a step
        # of a few games costs what those games cost)
        self.decisions[idx] += 1
        kinds, subjects = self.kind[idx], self.subject[idx]
        self.rule[idx] = RESUME[kinds]                                   # the game resumes there
        for pending in (self.kind, self.actor, self.subject):
            pending[idx] = -1
        for k, choose in self._choices:
            sel = np.flatnonzero(kinds == k)
            if sel.size:
                choose(idx[sel], a[sel], subjects[sel])
        self._play_on(idx[self.rule[idx] < DECIDE])
        self._update_mask(idx)

    def observe(self, seat, index=None) -> np.ndarray:
        """(B, 56) float32, a new array: row ``i`` is ``encode_view`` of game ``i``'s view for
        ``seat`` (0 away, 1 home; a scalar or one per game). With ``index`` (int indices or a
        (B,) bool mask), the rows of those games only, ``seat`` a scalar or one per row.

        Most of the vector is read from tables ``encode_view`` wrote: one row per situation
        (inning, half, seat, outs, runners), per pending decision (kind, subject, who tried to
        steal, pickoff tried) and per place in both batting orders.
        """
        rows = self._rows if index is None else self._index(index, "observe")
        at = (lambda a: a) if index is None else (lambda a: a[rows])
        seat = self._seats(seat, len(rows))
        half = at(self.half).astype(np.intp)
        obs = np.empty((len(rows), OBS.size), dtype=np.float32)
        inning = at(self.inning)
        situation = (((np.minimum(inning, 10) - 1) * 2 + half) * 2 + seat) * 4 + at(self.outs)
        obs[:, _SITUATION] = np.take(_TABLES.situation, situation * 8 + at(self.occ), axis=0)
        own = self._runs_flat[2 * rows + seat]
        opp = self._runs_flat[2 * rows + 1 - seat]
        o = _O["score"]
        obs[:, o] = _SCORE[np.minimum(own, MAX_COUNTED)]
        obs[:, o + 1] = _SCORE[np.minimum(opp, MAX_COUNTED)]
        obs[:, _O["run_diff"]] = _DIFF[np.clip(own - opp, -10, 10) + 10]
        due = (half * 9 + self._batter(rows, half)) * 9 + self._batter(rows, 1 - half)
        obs[:, _DUE_UP] = np.take(self._due, due, axis=0)
        kind, subject = at(self.kind).astype(np.intp), at(self.subject).astype(np.intp)
        pending = (((kind + 1) * 4 + (subject + 1)) * 8 + self._tried_code(rows)) * 2
        obs[:, _PENDING] = np.take(_TABLES.pending, pending + at(self.pickoff_tried), axis=0)
        obs[:, _O["innings_left"]] = self._innings_left[np.minimum(inning, self.innings + 1)]
        return obs

    def clone(self) -> BatchedGames:
        """A copy of every game, sharing nothing mutable with this batch."""
        new = BatchedGames.__new__(BatchedGames)
        for name, value in self.__dict__.items():
            new.__dict__[name] = value.copy() if isinstance(value, np.ndarray) else value
        new.dice = self.dice.copy()
        new.bases = new._bases4[:, :3]                 # the views, of the new arrays
        new._packed = new._bases4.view(np.int32).reshape(-1)
        new._bases_flat = new._bases4.reshape(-1)
        new._order_flat = new.order.reshape(-1)
        new._runs_flat = new.runs.reshape(-1)
        new._bind()
        return new

    copy = clone

    # -- checking input ----------------------------------------------------------------
    def _index(self, index, method: str = "reset") -> np.ndarray:
        """Game indices from int indices or a (B,) bool mask."""
        B = self.num_games
        if index is None:
            return np.arange(B)
        index = np.asarray(index)
        if index.dtype == bool:
            if index.shape != (B,):
                raise ValueError(f"{NAME}.{method}: a bool index must have shape ({B},), got "
                                 f"{index.shape}")
            return np.flatnonzero(index)
        if index.ndim != 1 or (index.size and index.dtype.kind not in "iu"):
            raise ValueError(f"{NAME}.{method}: index must be a 1-D array of game indices or a "
                             f"({B},) bool mask, got {index.dtype} of shape {index.shape}")
        idx = index.astype(np.intp)
        bad = (idx < 0) | (idx >= B)
        if bad.any():
            raise ValueError(f"{NAME}.{method}: game indices must be in 0..{B - 1}, got "
                             f"{idx[bad][:10].tolist()}")
        # increasing indices (np.flatnonzero's) are distinct; anything else is checked
        if not (idx[1:] > idx[:-1]).all() and np.unique(idx).size != idx.size:
            raise ValueError(f"{NAME}.{method}: a game is listed twice in index {idx.tolist()[:20]}")
        return idx

    def _seats(self, seat, n: int) -> np.ndarray:
        s = np.asarray(seat)
        if s.dtype.kind not in "iu" or s.shape not in ((), (n,)):
            raise ValueError(f"{NAME}.observe: seat must be 0 (away) or 1 (home), as an int or "
                             f"an int array of shape ({n},); got dtype {s.dtype}, shape {s.shape}")
        bad = (s != 0) & (s != 1)
        if bad.any():
            raise ValueError(f"{NAME}.observe: seat must be 0 (away) or 1 (home); got "
                             f"{s.tolist() if s.ndim == 0 else s[bad][:10].tolist()}")
        return np.broadcast_to(s.astype(np.intp), (n,))

    def _check_actions(self, actions, idx: np.ndarray) -> np.ndarray:
        """The actions of the games ``idx`` (which act), as intp; an illegal one raises."""
        B = self.num_games
        a = np.asarray(actions)
        if a.shape != (B,):
            raise ValueError(f"{NAME}.step: actions must have shape ({B},), one per game; got "
                             f"shape {a.shape}")
        if a.dtype.kind not in "iu":
            raise ValueError(f"{NAME}.step: actions must be ints, got dtype {a.dtype}")
        mine = a[idx].astype(np.intp)
        inside = (mine >= 0) & (mine < N_ACTIONS)
        legal = self.mask.reshape(-1)[5 * idx + np.where(inside, mine, 0)] & inside
        bad = idx[~legal]
        if bad.size:
            parts = [f"game {i}: action {int(a[i])} at a {rules.DECISION_KINDS[self.kind[i]]!r} "
                     f"decision (legal: {', '.join(map(str, np.flatnonzero(self.mask[i])))})"
                     for i in bad[:10]]
            more = f" and {bad.size - 10} more" if bad.size > 10 else ""
            raise IllegalActionError(f"{NAME}.step: illegal action in {bad.size} game(s): "
                                     + "; ".join(parts) + more)
        return mine

    # -- playing on --------------------------------------------------------------------------
    def _play_on(self, act: np.ndarray) -> None:
        """Apply rules until every game in ``act`` waits on a decision or is over: each pass
        applies the rule steps in order to the games at them (``run`` in the scalar engine).
        Every game at a rule step is in ``act``: the others wait on a decision or are over."""
        rule = self.rule
        while act.size:
            for code, apply in self._rules:
                sel = act[rule[act] == code]
                if sel.size:
                    apply(sel)
            act = act[rule[act] < DECIDE]

    def _update_mask(self, idx: np.ndarray | None = None) -> None:
        """The legal actions of the games ``idx`` (all games if None) from their decisions."""
        if idx is None:
            row = (self.kind.astype(np.intp) + 1) * 8 + self.runners
            np.take(MASK_TABLE.reshape(-1, N_ACTIONS), row, axis=0, out=self.mask)
        else:
            row = (self.kind[idx].astype(np.intp) + 1) * 8 + self.runners[idx]
            self.mask[idx] = MASK_TABLE.reshape(-1, N_ACTIONS)[row]

    def _decide(self, idx: np.ndarray, kind: int, actor, subject=-1, runners=0) -> None:
        """A manager must choose: the games in ``idx`` wait for ``step``."""
        if not idx.size:
            return
        self.kind[idx] = kind
        self.actor[idx] = actor
        self.subject[idx] = subject
        self.runners[idx] = runners
        self.rule[idx] = DECIDE

    # -- small helpers -------------------------------------------------------------------
    def _batter(self, idx: np.ndarray, half: np.ndarray) -> np.ndarray:
        """The lineup slot at the plate (or due up) for team ``half`` of each game."""
        return self._order_flat[2 * idx + half]

    def _tried_code(self, idx: np.ndarray) -> np.ndarray:
        """3-bit code of the bases whose runner already tried to steal before this batter
        (``tried`` has a bit per lineup slot; ``b & 15`` shifts an empty base's -1 past them)."""
        b = self._packed[idx].view(np.int8).reshape(-1, 4)
        t = (self.tried[idx, None] >> (b & 15)) & 1
        return t[:, 0] | (t[:, 1] << 1) | (t[:, 2] << 2)

    def _move(self, idx: np.ndarray, play: np.ndarray, batter=None) -> np.ndarray:
        """Runners (and the batter) move by ``play`` (a code of :data:`PLAYS` per game), one
        gather from the table ``core.bases`` wrote; returns how many runners crossed the plate."""
        k = len(idx)
        if not k:
            return np.zeros(0, dtype=np.int32)
        row = play * 8 + self.occ[idx]
        ext = np.empty((k, 5), dtype=np.int8)            # [first, second, third, -1, batter]
        ext[:, :4] = self._packed[idx].view(np.int8).reshape(k, 4)
        ext[:, BATTER_COL] = -1 if batter is None else batter
        new = ext.reshape(-1)[MOVE_SOURCE[row] + self._off5[:k]]
        self._packed[idx] = new.view(np.int32).reshape(k)
        self.occ[idx] = MOVE_OCC[row]
        return MOVE_SCORED[row]

    def _score(self, idx: np.ndarray, n: np.ndarray, home_run=False) -> None:
        """Runners cross the plate for the batting side (``Scoreboard.score``): on a
        walk-off only the runs needed to win count, except on a home run."""
        scoring = n > 0
        if not _count(scoring):
            return
        idx, n = idx[scoring], n[scoring]
        h = self.half[idx]
        away, home = self._runs_flat[2 * idx], self._runs_flat[2 * idx + 1]
        walkoff = (h == 1) & (self.inning[idx] >= self.innings)
        if _count(walkoff):
            cap = walkoff if home_run is False else walkoff & ~home_run[scoring]
            n = np.where(cap, np.minimum(n, away - home + 1), n)
        self._runs_flat[2 * idx + h] += n
        # the walk-off ends the game at once
        self._finish(idx[walkoff & (home + n > away)], 1)

    def _finish(self, idx: np.ndarray, winner) -> None:
        if not idx.size:
            return
        self.over[idx] = True
        self.winner[idx] = winner
        self.rule[idx] = OVER

    def _out(self, idx: np.ndarray) -> np.ndarray:
        """An out; returns the games whose side is now retired (three outs)."""
        if not idx.size:
            return idx
        outs = self.outs[idx] + 1
        self.outs[idx] = outs
        return idx[outs == 3]

    # -- 1n: three outs retire the side; the scoreboard ends the game ---------------------
    def _retire_side(self, idx: np.ndarray) -> None:
        """1n: clear the bases; the next half inning starts with a new plate appearance."""
        if not idx.size:
            return
        self.outs[idx] = 0
        self._packed[idx] = EMPTY_BASES
        self.occ[idx] = 0
        self.pa[idx] = 0
        self.rule[idx] = START_PA
        self._after_half(idx)

    def _after_half(self, idx: np.ndarray) -> None:
        """``Scoreboard.after_half``: the home team does not bat when ahead after the top of
        the last inning; a game decided after a full last (or extra) inning ends; one still
        tied at ``max_innings`` is truncated; else the other side comes to bat."""
        top = self.half[idx] == 0
        inning = self.inning[idx]
        away, home = self._runs_flat[2 * idx], self._runs_flat[2 * idx + 1]
        last = inning >= self.innings
        ends = last & np.where(top, home > away, away != home)
        if _count(ends):
            self._finish(idx[ends], (home > away)[ends])
        rest = ~ends
        if self.max_innings is not None:
            cut = rest & ~top & (inning >= self.max_innings)
            if _count(cut):
                self._finish(idx[cut], -1)
                self.truncated[idx[cut]] = True
                rest &= ~cut
        nxt = idx[rest]
        self.inning[nxt] += ~top[rest]          # after the bottom, the next inning's top
        self.half[nxt] = top[rest]

    # -- 1g: before the batter ------------------------------------------------------------
    def _start_plate_appearance(self, idx: np.ndarray) -> None:
        """A new stream of dice: (half inning, plate appearance in it); the half inning's
        part of the key is hashed once, at its first plate appearance."""
        pa = self.pa[idx]
        first = idx[pa == 0]
        if first.size:
            self.dice.set_prefix(first, 2 * (self.inning[first] - 1) + self.half[first])
        self.dice.set_stream_after_prefix(idx, pa)
        self.tried[idx] = 0
        self.pickoff_tried[idx] = False
        self.rule[idx] = STEAL

    def _offer_steal(self, idx: np.ndarray) -> None:
        """1i: each runner may try once per batter, for an empty base ahead (or home)."""
        may = CLEAR_AHEAD[self.occ[idx]]
        has = may > 0
        if _count(has):
            may[has] &= ~self._tried_code(idx[has])
        ask = may > 0
        asked = idx[ask]
        self._decide(asked, STEAL_K, self.half[asked], runners=may[ask])
        self.rule[idx[~ask]] = PICKOFF

    def _choose_steal(self, idx: np.ndarray, a: np.ndarray, _subject) -> None:
        passed = a == PASS                           # after a steal attempt, ask again
        self.rule[idx[passed]] = PICKOFF
        self._attempt_steal(idx[~passed], a[~passed] - 1)

    def _attempt_steal(self, idx: np.ndarray, base: np.ndarray) -> None:
        """1i: one die; 1-3 caught stealing (an out), 4-6 the runner takes the next base."""
        if not idx.size:
            return
        runner = self._bases_flat[4 * idx + base]
        self.tried[idx] |= np.left_shift(1, runner, dtype=np.int16)
        caught = STEAL_CAUGHT[self.dice.roll(idx, *_ROLL[charts.STEAL])]
        c = idx[caught]
        self._move(c, OUT_ON[base[caught]])
        self._retire_side(self._out(c))
        safe = ~caught
        s = idx[safe]
        self._score(s, self._move(s, ADVANCE[base[safe]]))

    def _offer_pickoff(self, idx: np.ndarray) -> None:
        """1j: the fielding manager may throw at one runner, once between batters."""
        code = self.occ[idx]
        ask = (code > 0) & ~self.pickoff_tried[idx]
        asked = idx[ask]
        self._decide(asked, PICKOFF_K, 1 - self.half[asked], runners=code[ask])
        self.rule[idx[~ask]] = AT_BAT

    def _choose_pickoff(self, idx: np.ndarray, a: np.ndarray, _subject) -> None:
        self.rule[idx] = AT_BAT
        thrown = a != PASS
        self._attempt_pickoff(idx[thrown], a[thrown] - 1)

    def _attempt_pickoff(self, idx: np.ndarray, base: np.ndarray) -> None:
        """1j: two dice; 12 picked off, 3-11 safe, 2 a throwing error: the runner moves up."""
        if not idx.size:
            return
        self.pickoff_tried[idx] = True
        roll = self.dice.roll(idx, *_ROLL[charts.PICKOFF])
        out = PICKOFF_OUT[roll]
        p = idx[out]
        self._move(p, OUT_ON[base[out]])
        self._retire_side(self._out(p))
        error = PICKOFF_ERROR[roll]
        e = idx[error]
        self._score(e, self._move(e, PICKOFF_ERROR_ON[base[error]]))

    # -- 1e: the batter ---------------------------------------------------------------------
    def _roll_for_batter(self, idx: np.ndarray) -> None:
        """1e: two dice plus the batter's adjusted average, read on the result chart;
        1h: an extra-base hit rolls one more die."""
        h = self.half[idx]
        batter = self._batter(idx, h)
        result = CHART[self._aa_flat[9 * h + batter]
                       + self.dice.roll(idx, charts.AT_BAT_PURPOSE, dice=charts.AT_BAT_DICE)]
        xbh = result == XBH_R
        if _count(xbh):
            result[xbh] = EXTRA_BASE_HIT[self.dice.roll(idx[xbh], *_ROLL[charts.EXTRA_BASE_HIT])]
        self.rule[idx] = END_PA
        # 1o: on a hit runners advance as many bases as the batter; on a walk only forced ones
        reached = result <= HOME_RUN_R
        if _count(reached):
            r = idx[reached]
            res = result[reached]
            self._score(r, self._move(r, BATTER_PLAY[res], batter[reached]),
                        home_run=res == HOME_RUN_R)
        # strikeouts and fly outs; 1l: runners may tag up on a fly out that is not the third out
        self._out(idx[result == STRIKEOUT_R])
        fly = idx[result == FLY_OUT_R]
        if fly.size:
            self._out(fly)
            fly = fly[(self.outs[fly] < 3) & (self.occ[fly] > 0)]
            self.tag_base[fly] = 2
            self.rule[fly] = TAG_UP
        # a ground out: 1m the error roll first, then 1k
        g = idx[result == GROUND_OUT_R]
        self._decide(g, ERROR_K, self.half[g])

    # -- 1m: the error roll on a ground out ----------------------------------------------
    def _choose_error_roll(self, idx: np.ndarray, a: np.ndarray, _subject) -> None:
        """1m: two dice; on 12 the batter takes first and every runner advances one base
        (no RBI); else (or without a roll) the batter is out at first."""
        error = np.zeros(len(idx), dtype=bool)
        rolled = a == ROLL
        if _count(rolled):
            error[rolled] = ERROR_MADE[self.dice.roll(idx[rolled], *_ROLL[charts.ERROR])]
        if _count(error):
            e = idx[error]
            self._score(e, self._move(e, np.full(len(e), PLAY["error"]),
                                      self._batter(e, self.half[e])))
            idx = idx[~error]
        self._ground_out(idx)

    def _ground_out(self, idx: np.ndarray) -> None:
        """The batter is out at first; runners hold unless the fielding side goes for two (1k)."""
        self._out(idx)
        dp = idx[(self.outs[idx] < 3) & (self.occ[idx] & 1 > 0)]
        self._decide(dp, DP_K, 1 - self.half[dp])

    # -- 1k: the double play --------------------------------------------------------------
    def _choose_double_play(self, idx: np.ndarray, a: np.ndarray, _subject) -> None:
        """1k: one die; 1-3 no double play: the runner from first takes second, forcing those
        ahead (an RBI on a run forced home); 4-6 a second out, on the runner the fielding
        manager names when there are several."""
        rolled = idx[a == ROLL]
        if not rolled.size:
            return
        made = DOUBLE_PLAY_TURNED[self.dice.roll(rolled, *_ROLL[charts.DOUBLE_PLAY])]
        missed = rolled[~made]
        self._score(missed, self._move(missed, np.full(len(missed), PLAY["missed_double_play"])))
        turned = rolled[made]
        code = self.occ[turned]
        several = code > 1          # a runner on first and at least one more
        choose = turned[several]
        self._decide(choose, DP_RUNNER_K, 1 - self.half[choose], runners=code[several])
        one = turned[~several]
        self._turn_double_play(one, np.zeros(len(one), dtype=np.intp))

    def _choose_dp_runner(self, idx: np.ndarray, a: np.ndarray, _subject) -> None:
        self._turn_double_play(idx, a - 1)

    def _turn_double_play(self, idx: np.ndarray, base: np.ndarray) -> None:
        """1k, 4-6: a second out on the chosen runner; the other runners advance one base.
        A double play that makes the third out scores no run."""
        retired = self.outs[idx] == 2
        self._out(idx)
        n = self._move(idx, DOUBLE_PLAY_ON[base])
        n[retired] = 0
        self._score(idx, n)

    # -- 1l: tagging up on a fly out ------------------------------------------------------
    def _offer_tag_up(self, idx: np.ndarray) -> None:
        """1l: third, then second, then first; a runner needs the next base empty."""
        base = NEXT_TAG[self.occ[idx] * 4 + (self.tag_base[idx] + 1)]
        self.tag_base[idx] = base
        ask = base >= 0
        asked = idx[ask]
        self._decide(asked, TAG_K, self.half[asked], subject=base[ask])
        self.rule[idx[~ask]] = END_PA

    def _choose_tag_up(self, idx: np.ndarray, a: np.ndarray, subject: np.ndarray) -> None:
        self.tag_base[idx] = subject - 1
        rolled = a == ROLL
        self._tag_up(idx[rolled], subject[rolled])

    def _tag_up(self, idx: np.ndarray, base: np.ndarray) -> None:
        """1l: one die; 5-6 the runner advances a base (an RBI if he scores), 1-4 he stays."""
        if not idx.size:
            return
        go = TAG_UP_ADVANCED[self.dice.roll(idx, *_ROLL[charts.TAG_UP])]
        g = idx[go]
        self._score(g, self._move(g, ADVANCE[base[go]]))

    # -- after the batter -----------------------------------------------------------------
    def _end_plate_appearance(self, idx: np.ndarray) -> None:
        """1c: the next batter in the order comes up; 1n: three outs retire the side."""
        at = 2 * idx + self.half[idx]
        self._order_flat[at] = NEXT_SLOT[self._order_flat[at]]
        self.pa[idx] += 1
        self.rule[idx] = START_PA
        self._retire_side(idx[self.outs[idx] == 3])
