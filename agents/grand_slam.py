"""Managers for Harry's Grand Slam Baseball: the rulebook heuristic, its always/never
baselines, and the value tables they use.

In Harry's game every turn is the same decision: which of your three cards (or which
of your face-down Pinch Hitter/Relief Pitcher stacks) to play. A card does the same
thing whoever plays it, so the card you play as the batting manager is a card you will
not have when you field, and the other way round. The heuristic prices each card by
what it does to the win expectancy now, and charges for the card's worth if kept.

Everything here reads the manager's :class:`~dugout.envs.grand_slam.GrandSlamView`
only: his own hand, the table and the discards, never the other hand, the draw pile or
a face-down card.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..envs.core.dice import Dice
from ..envs.core.engine import play_out
from ..envs.grand_slam import rules
from ..envs.grand_slam.cards import (DOUBLE, HOME_RUN, N_HAND_TYPES, ON_BASE_CARDS,
                                     REFERENCE_COUNTS, TRIPLE)
from ..envs.grand_slam.view import GrandSlamView, view_of
from .search import SearchSettings, SearchSpec
from .base import AlwaysNever, Managers, TablesHeuristic
from .value_tables import MLB_RE24_2010_2015, ValueTables, bases_index, value_tables

__all__ = ["GrandSlamHeuristic", "GrandSlamAlwaysNever", "grand_slam_tables", "card_effect", "win_expectancy",
           "sample_run_counts", "reference_action", "YES_NO_KINDS", "card_run_values", "MANAGERS"]

STACK = rules.STACK_ACTION
#: The yes/no choice inside every Grand Slam decision: play a PH/RP stack or a hand card.
YES_NO_KINDS = ("pinch_hitter",)


# -- what a card does, from the engine's own card rules -------------------------------------
def _effect(outs: int, bases: int, card: int) -> tuple[int, int, int]:
    """:func:`rules.effect_of_card` with the bases as a :func:`bases_index`."""
    after_outs, after, runs = rules.effect_of_card(
        card, outs=outs, bases=(bool(bases & 1), bool(bases & 2), bool(bases & 4)))
    return after_outs, bases_index(after), runs


#: EFFECT[outs, bases, card] = (outs after, bases after, runs scored), for every hand card.
EFFECT = np.array([[[_effect(o, b, c) for c in range(N_HAND_TYPES)] for b in range(8)]
                   for o in range(3)], dtype=np.int64)


def card_effect(outs: int, bases: int, card: int) -> tuple[int, int, int]:
    """(outs, bases index, runs) after ``card`` is played with ``outs`` and ``bases``."""
    o, b, r = EFFECT[outs, bases, card]
    return int(o), int(b), int(r)


# -- the reference policy and the run distributions --------------------------------------
def _re_change(re: np.ndarray, outs: int, bases: int, card: int) -> float:
    o, b, r = EFFECT[outs, bases, card]
    return r + (re[o, b] if o < 3 else 0.0) - re[outs, bases]


def reference_action(state_or_view, decision) -> int:
    """The policy the value tables are sampled under: each manager plays the hand card that
    moves MLB's 2010-2015 run expectancy most his way (ties to the lowest card code) and
    never plays a PH/RP stack unless it is all he has."""
    board = state_or_view.board
    outs, bases = board.outs, bases_index(board.bases)
    cards = [a for a in decision.legal if a < STACK]
    if not cards:
        return decision.legal[0]
    sign = 1.0 if decision.kind == "batting_play" else -1.0
    return max(cards, key=lambda c: (sign * _re_change(MLB_RE24_2010_2015, outs, bases, c), -c))


def sample_run_counts(games: int = 6_000, seed: int = 0, innings: int = 9,
                      counts: tuple[int, ...] = REFERENCE_COUNTS, max_runs: int = 20
                      ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Run distributions (team, outs, bases, runs) from whole games through the engine.

    Every turn is a visit: the base-out state when the batting manager is to play (the
    main counts) or the fielding manager (the ``"field"`` phase), and the runs scored
    from then to the end of the half inning. Half innings in which a walk-off could end
    the game (the bottom of the last inning and later) are left out, all of them, so
    the runs a walk-off cuts off do not bias the sample. Both teams play from the same
    deck under the same policy, so their visits are pooled (both rows hold the sum).
    """
    shape = (3, 8, max_runs + 1)
    bat, field = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    for g in range(games):
        state = rules.new_game(Dice(seed * 1_000_003 + g), innings=innings, counts=counts)
        board = state.board
        visits: list[tuple[np.ndarray, int, int, int]] = []

        def on_rule(state) -> None:
            step = state.step
            if step == "bat" or step == "field":          # a turn begins
                visits.append((bat if step == "bat" else field, board.outs,
                               bases_index(board.bases), board.runs[board.half]))
            elif step == "end_half":
                if not (board.half == 1 and board.inning >= innings):
                    total = board.runs[board.half]
                    for table, o, b, before in visits:
                        table[o, b, min(total - before, max_runs)] += 1
                visits.clear()

        play_out(state, rules, reference_action, on_rule=on_rule)
    return np.stack([bat, bat]), {"field": np.stack([field, field])}


@lru_cache(maxsize=8)
def grand_slam_tables(innings: int = 9, counts: tuple[int, ...] = REFERENCE_COUNTS,
                      games: int = 6_000, seed: int = 0, use_cache: bool = True) -> ValueTables:
    """Value tables for a card set, cached on disk (both teams draw from the same deck)."""
    inputs = {"counts": list(counts), "games": games, "seed": seed, "policy": "mlb-re24-greedy-v1",
              "engine": "grand_slam-1"}
    return value_tables("grand_slam_v0", inputs,
                        lambda: sample_run_counts(games, seed, innings, tuple(counts)),
                        innings=innings, use_cache=use_cache)


def card_run_values(tables: ValueTables) -> np.ndarray:
    """Each hand card's mean run value for the batting team: runs scored plus the change in
    run expectancy, averaged over the batting turns' base-out states as they occur."""
    weights = tables.counts[0].sum(axis=-1).astype(float)
    weights /= weights.sum()
    re = tables.re[0]
    values = np.zeros(N_HAND_TYPES)
    for c in range(N_HAND_TYPES):
        for o in range(3):
            for b in range(8):
                values[c] += weights[o, b] * _re_change(re, o, b, c)
    return values


# -- the rulebook heuristic -------------------------------------------------------------
class GrandSlamHeuristic(TablesHeuristic):
    """The rulebook heuristic: play the card worth most now; among equals, give up the one
    worth least kept; hold the PH/RP stacks for a bad hand at a big moment.

    A manager's reasoning:

    * **What a card does now.** Every card's effect in this situation is known from the
      Card Reference (outs, runners, runs), and the win-expectancy table prices the
      result: for the batting manager at the moment the fielding manager plays next, for
      the fielding manager at the next batting turn. The batting manager plays the card
      that leaves his team the best chance, the fielding manager the card that leaves
      the batters the worst: a hit before a walk with a runner on second, the sacrifice
      fly with a runner on third and one out, the Double Play card with a runner on.
    * **What a card is worth kept.** A card does the same thing whoever plays it, so a
      hit in the fielding manager's hand is a hit he will have when he bats, and an out
      in the batting manager's hand is an out he will have when he fields. When two
      cards do the same now, the one with the smaller mean run value (either sign, from
      the table) goes: with nobody on, the batting manager who must make an out gives up
      a Strike Out and keeps his Double Play card, and a Walk goes before a Single.
      (Charging every card its kept value against its value now was measured too, and
      lost to this rule: a card's worth kept is mostly the same card played later.)
    * **Save the big hit for runners.** With the bases empty the batting manager does not
      spend a Double, a Triple or a Home Run when a card in his hand (a Single, a Walk, a
      Hit by Pitch, an Error) puts the batter on first: he plays that card and keeps the
      big hit for a moment when it drives runners in; with no such card he plays his
      smallest extra-base hit, a Double before a Triple before a Home Run
      (``save_hits``). With a runner on first alone he keeps the Home Run when another
      on-base card is in his hand (``save_home_run``). A hit that wins the game now is
      always hit. The search manager found each of these, its decision report pricing
      the plain rule's bigger hit 2 to 10 points of winning chance below the smaller play
      at such moments; with them the heuristic beats itself without them 63.6%
      (62.5-64.7%) over 2,000 seat-swapped pairs (``save_hits=False,
      save_home_run=False``), and without the Home Run's rule alone 52.9% (52.3-53.6%)
      (see the search's docs).
    * **Runner cards** move runners only: worth a base to each runner for the batting
      side, free to either side with the bases empty.
    * **Pinch Hitter / Relief Pitcher stacks.** The card under a stack is unknown: it is
      priced as the average of the cards this manager has not seen (the draw pile, the
      other hand and the face-down cards, from the card counts), and a stack kept is an
      option on a bad hand later, so playing one is charged ``stack_weight`` (0.25) times
      the win expectancy one run is worth at this moment. So a stack is played when the
      hand is bad and the moment matters: a batting manager holding only outs with the
      tying run in scoring position in the ninth, not in a quiet first inning. The
      weight was chosen by matchups (0.25 beat 0 and 1 at 2,000 games each).
    """

    name = "heuristic"
    VIEW = GrandSlamView

    def __init__(self, stack_weight: float = 0.25, tie: float = 1e-9,
                 tables: ValueTables | None = None, save_hits: bool = True,
                 save_home_run: bool = True, **table_options: Any):
        self.stack_weight = float(stack_weight)
        self.tie = float(tie)
        self.save_hits = bool(save_hits)
        self.save_home_run = bool(save_home_run)
        super().__init__(tables, **table_options)
        self._run_values: dict[int, np.ndarray] = {}

    def build_tables(self, view: GrandSlamView, **table_options: Any) -> ValueTables:
        return grand_slam_tables(view.innings, tuple(view.card_counts), **table_options)

    def table_inputs(self, view) -> tuple:
        return (view.innings, view.card_counts)

    def _values(self, tables: ValueTables) -> np.ndarray:
        key = id(tables)
        if key not in self._run_values:
            self._run_values[key] = card_run_values(tables)
        return self._run_values[key]

    # -- valuing ---------------------------------------------------------------------------
    def _after(self, view: GrandSlamView, tables: ValueTables) -> np.ndarray:
        """The batting team's win expectancy once each hand card type is played now."""
        lead = view.runs[view.half] - view.runs[1 - view.half]
        effect = EFFECT[view.outs, bases_index(view.runners)]
        phase = "field" if view.decision == "batting_play" else None
        return tables.batting_win_expectancies(view.inning, view.half, effect[:, 0], effect[:, 1],
                                               lead + effect[:, 2], phase)

    def _leverage(self, view: GrandSlamView, tables: ValueTables) -> float:
        lead = view.runs[view.half] - view.runs[1 - view.half]
        phase = "field" if view.decision == "fielding_play" else None
        b = bases_index(view.runners)
        up = tables.batting_win_expectancy(view.inning, view.half, view.outs, b, lead + 1, phase)
        down = tables.batting_win_expectancy(view.inning, view.half, view.outs, b, lead, phase)
        return max(up - down, 1e-3)

    def stack_distribution(self, view: GrandSlamView) -> np.ndarray:
        """Chances of each hand card type being the play under one of this manager's stacks."""
        unseen = np.array(view.unseen()[:N_HAND_TYPES], dtype=float).clip(min=0)
        total = unseen.sum()
        return unseen / total if total else np.full(N_HAND_TYPES, 1.0 / N_HAND_TYPES)

    def option_values(self, view: GrandSlamView) -> dict[int, float]:
        """Each legal action's win expectancy for the deciding manager (a stack: the mean
        over the card beneath, less the charge for giving up the stack)."""
        tables = self.tables(view)
        now = self._after(view, tables)
        values: dict[int, float] = {}
        stack_value = None
        for a in view.legal:
            if a < STACK:
                values[a] = float(now[a] if view.batting else 1.0 - now[a])
            else:
                if stack_value is None:
                    p = self.stack_distribution(view)
                    mean = float(p @ now)
                    stack_value = (mean if view.batting else 1.0 - mean) \
                        - self.stack_weight * self._leverage(view, tables)
                values[a] = stack_value
        return values

    def keep_value(self, view: GrandSlamView, action: int) -> float:
        """What a hand card is worth kept, in runs: its mean run value, either sign (a hit
        for our batters, an out for our fielders)."""
        if action >= STACK:
            return float("inf")
        return float(abs(self._values(self.tables(view))[action]))

    def saved_hit(self, view: GrandSlamView, values: dict[int, float], best: int) -> int | None:
        """The batting manager's hit saved for runners instead of ``best`` (None: ``best``
        stands). Never a hit that wins the game now. With the bases empty (``save_hits``) an
        extra-base hit waits when a card in his hand puts the batter on first (the one worth
        most now), and without one his smallest extra-base hit goes (a Double before a Triple
        before a Home Run); with a runner on first alone (``save_home_run``) the Home Run
        waits when another on-base card is in his hand (the one worth most now)."""
        if not (view.batting and view.decision == "batting_play" and best < STACK
                and values[best] < 1.0 - self.tie):
            return None
        runners = tuple(view.runners)
        if self.save_hits and runners == (False, False, False):
            return self._bases_empty_hit(view, values, best)
        if self.save_home_run and runners == (True, False, False) and best == HOME_RUN:
            others = [a for a in view.legal if a in ON_BASE_CARDS and a != HOME_RUN]
            return max(others, key=lambda a: (values[a], -a)) if others else None
        return None

    def _bases_empty_hit(self, view: GrandSlamView, values: dict[int, float], best: int) -> int | None:
        outs_after, bases_after, runs = EFFECT[view.outs, 0, best]
        if outs_after != view.outs or (bases_after <= 1 and runs == 0):
            return None                                  # not an extra-base hit
        first = [a for a in view.legal if a < STACK and tuple(EFFECT[view.outs, 0, a]) == (view.outs, 1, 0)]
        if first:
            return max(first, key=lambda a: (values[a], -a))
        smaller = [a for a in (DOUBLE, TRIPLE) if a in view.legal and a < best]
        return smaller[0] if smaller else None

    def choose(self, view: GrandSlamView, values: dict[int, float], options) -> int:
        """The play among ``options`` worth most now (``values``); among plays worth the
        same, the card worth least kept; then the big hit saved for runners."""
        best = max(values[a] for a in options)
        near = [a for a in options if values[a] >= best - self.tie]
        choice = min(near, key=lambda a: (self.keep_value(view, a), a))
        saved = self.saved_hit(view, values, choice)
        return choice if saved is None else saved

    def decide(self, view: GrandSlamView) -> int:
        return self.choose(view, self.option_values(view), view.legal)


class GrandSlamAlwaysNever(AlwaysNever, GrandSlamHeuristic):
    """Baseline: always (or never) play a PH/RP stack when one is on the table; the heuristic
    chooses among the hand cards (and, for "always", plays the oldest stack). A play is a
    card, not a yes/no choice with a pass, so only the set-up is the shared one."""
    KINDS, RULESET = YES_NO_KINDS, "Harry's Grand Slam"

    def decide(self, view: GrandSlamView) -> int:
        stacks = [a for a in view.legal if a >= STACK]
        if stacks and self.always:
            return stacks[0]
        cards = [a for a in view.legal if a < STACK]
        if not cards:
            return stacks[0]
        return self.choose(view, self.option_values(view), cards)


def win_expectancy(view: GrandSlamView) -> float:
    """The viewing manager's chance of winning from his view, read off the value tables
    (at the batting turn, or the fielding turn when the fielding manager is to play).
    Used as a potential for reward shaping in training (:mod:`dugout.train.adapter`)."""
    if view.over:
        raise ValueError("win_expectancy of a finished game: read the result instead")
    t = grand_slam_tables(view.innings, tuple(view.card_counts))
    fielding_turn = view.decision == "fielding_play" or (view.decision is None and not view.batting)
    home = t.win_expectancy(view.inning, view.half, view.outs, bases_index(view.runners),
                            view.runs[1] - view.runs[0], "field" if fielding_turn else None)
    return home if view.seat == 1 else 1.0 - home


def _search_view(state, seat: int, root: GrandSlamView) -> GrandSlamView:
    """A rollout's view for the search manager."""
    return view_of(state, seat)


MANAGERS = Managers(
    heuristic=GrandSlamHeuristic, always_never=GrandSlamAlwaysNever, yes_no_kinds=YES_NO_KINDS,
    value_tables=lambda teams, innings: grand_slam_tables(innings), win_expectancy=win_expectancy,
    # 64 worlds a decision: the budget at which the decision report finds the heuristic's
    # choices beyond noise; at 16 the search overruled at a fraction of them (docs/search.md)
    search=SearchSpec("dugout.envs.grand_slam.sample", "dugout.envs.grand_slam.rules", _search_view,
                      SearchSettings(sims=64), kinds=rules.DECISION_KINDS))
