"""Managers for MLB Showdown: the rulebook heuristic, its always/never baselines, and the
value tables they use.

Showdown's odds are all on the cards: the pitch is d20 + Control against On-Base, the
swing a d20 on one chart, a throw d20 + Fielding against Speed. So every choice is a
lottery whose odds the manager can work out exactly from the cards on the table. The
heuristic prices each lottery with the win-expectancy table of the two teams
(:mod:`dugout.agents.value_tables`, sampled with the Showdown engine itself) and takes
the option worth the most to its team.
"""

from __future__ import annotations

import hashlib
import json
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from ..envs.core.bases import advance_all, force_advance
from ..envs.core.dice import Dice
from ..envs.core.dice import chance_d20_beats as _d20_beats
from ..envs.showdown import rules
from ..envs.core.assignment import best_assignment
from ..envs.showdown.cards import (FIELD_POSITIONS, RESULTS, HitterCard, PitcherCard, Team,
                                   batting_order, fielding_at, load_team, team_to_dict)
from ..envs.showdown.view import ShowdownView, view_of
from .search import SearchSpec
from .base import AlwaysNever, Managers, TablesHeuristic
from .value_tables import ValueTables, bases_index, play_half_inning, value_tables
from .value_tables import sample_run_counts as _sample_run_counts

__all__ = ["ShowdownHeuristic", "ShowdownAlwaysNever", "showdown_tables", "sample_run_counts",
           "reference_action", "result_probabilities", "YES_NO_KINDS", "win_expectancy", "MANAGERS"]

PASS, YES, PLAYER = rules.PASS, rules.YES, rules.PLAYER
#: Decisions with a "do nothing" option, for the always/never baselines. "Always" takes
#: the heuristic's favourite among the other options (which pinch hitter, which runners).
YES_NO_KINDS = ("pinch_hitter", "pitching_change", "relief_ace", "twenty_game", "stolen_base",
                "strikeout", "reroll_out", "silver_slugger", "home_run_icon", "double_play",
                "gold_glove", "send_runners", "intentional_walk", "sacrifice_bunt", "pinch_runner",
                "defensive_replacement", "play_card", "catcher_throw")


# ================================================================ odds from the cards

def chart_probabilities(chart, shift: int = 0) -> np.ndarray:
    """Each result's probability on a chart when the swing is read ``shift`` higher (a
    strategy card's swing bonus; "less than 1, look up what happens on a 1")."""
    if not shift:
        return np.array(chart.counts, dtype=float) / 20
    out = np.zeros(len(RESULTS))
    for roll in range(1, 21):
        out[RESULTS.index(chart.result(min(20, max(1, roll + shift))))] += 1 / 20
    return out


def result_probabilities(batter, pitcher: PitcherCard, control_bonus: int = 0,
                         fatigue: int = 0, swing: int = 0) -> Mapping[str, float]:
    """Each swing result's probability: the pitch decides whose chart, the swing the slot
    (``swing``: a card's bonus to the swing). Read-only and remembered: the same two cards
    and bonuses give the same mapping (the heuristic asks it at nearly every decision)."""
    key = (id(batter), id(pitcher), control_bonus, fatigue, swing)
    held = _PROBABILITIES.get(key)
    if held is None or held[0] is not batter or held[1] is not pitcher:
        if len(_PROBABILITIES) > 100_000:
            _PROBABILITIES.clear()
        held = _PROBABILITIES[key] = (batter, pitcher, MappingProxyType(
            _result_probabilities(batter, pitcher, control_bonus, fatigue, swing)))
    return held[2]


#: result_probabilities' mappings, by the cards' identities (the cards kept) and the bonuses
_PROBABILITIES: dict[tuple, tuple[Any, Any, Mapping[str, float]]] = {}


def _result_probabilities(batter, pitcher: PitcherCard, control_bonus: int, fatigue: int,
                          swing: int) -> dict[str, float]:
    p_chart = chart_probabilities(pitcher.chart, swing)
    if isinstance(batter, PitcherCard):
        probs = p_chart
    else:
        a = _d20_beats(pitcher.control + control_bonus - fatigue, batter.on_base)
        probs = a * p_chart + (1 - a) * chart_probabilities(batter.chart, swing)
    return dict(zip(RESULTS, probs))


def _flags(bases) -> tuple:
    """Occupied bases as runner ids the core base functions take (0, 1, 2 by base)."""
    return tuple(i if r is not None else None for i, r in enumerate(bases))


def outcomes_of(result: str, outs: int, bases, level: str, dp_out: float = 0.0
                ) -> list[tuple[float, int, tuple, int]]:
    """(probability, outs after, bases after, runs) for a result carried out with the
    runners held (no extra bases); ``dp_out`` is the chance a double-play roll gets the
    batter on a GB with a runner on first."""
    b = _flags(bases)
    if result in ("PU", "SO") or (result == "FB") or (result == "GB" and level == "basic"):
        return [(1.0, outs + 1, b, 0)]
    if result == "GB":
        if b[0] is None or outs == 2:
            first = None
            o = outs + 1
            if o == 3:
                return [(1.0, 3, b, 0)]
            rest = (first, None, b[1])
            return [(1.0, o, rest, int(b[2] is not None))]
        out: list[tuple[float, int, tuple, int]] = []
        # runner on first out; then the batter out (double play) or safe at first
        for p, batter_out in ((dp_out, True), (1 - dp_out, False)):
            if p <= 0:
                continue
            o = outs + 1 + int(batter_out)
            if o >= 3:
                out.append((p, 3, (None, None, None), 0))
            else:
                out.append((p, o, (None if batter_out else 9, None, b[1]), int(b[2] is not None)))
        return out
    if result == "BB":
        new, scored = force_advance(b, 9)
        return [(1.0, outs, new, len(scored))]
    n = {"1B": 1, "1B+": 1, "2B": 2, "3B": 3, "HR": 4}[result]
    new, scored = advance_all(b, n, 9 if n < 4 else None)
    return [(1.0, outs, new, len(scored) + (1 if n == 4 else 0))]


# ================================================================ value tables

def reference_action(state, decision) -> int:
    """The policy the value tables are sampled under: no substitutions, no icons, runners
    held (each is a choice the tables are meant to price), the double play always tried,
    the lead runner thrown at, and a forced pitching change to the first reliever listed."""
    if decision.kind == "double_play":
        return YES
    if decision.kind == "throw_at":
        return rules.THROW_LEAD
    if PASS in decision.legal:
        return PASS
    return decision.legal[0]


_TEAM_KEYS: dict[int, tuple[Team, str]] = {}


def _team_key(team: Team) -> str:
    """A digest of everything on the team's cards (teams are immutable: computed once)."""
    known = _TEAM_KEYS.get(id(team))
    if known is not None and known[0] is team:
        return known[1]
    text = json.dumps(team_to_dict(team), sort_keys=True, separators=(",", ":"))
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    _TEAM_KEYS[id(team)] = (team, key)
    return key


def sample_run_counts(teams: tuple[Team, Team], level: str = "advanced", half_innings: int = 20_000,
                      min_visits: int = 1_000, seed: int = 0, max_runs: int = 20) -> np.ndarray:
    """Run distributions (team, outs, bases, runs) for two teams' DH lineups, sampled
    through the engine under :func:`reference_action`
    (:func:`dugout.agents.value_tables.sample_run_counts`). The opposing pitcher is one of
    his team's four starters, in turn, fresh."""
    dice = Dice(seed)

    def bat_half_inning(team: int, k: int, outs: int, bases: int, counts: np.ndarray) -> None:
        state = rules.new_game(teams, dice, level=level, starter=k % 4 + 1, dh=True, play=False)
        leadoff = k % 9
        lineup = state.lineup[team]
        # a half inning that never ends the game, on its own dice stream (inning, at-bat);
        # the runners are the batters before the leadoff man, the nearest on first
        rules.start_half_inning(state, inning=k + 1, half=team, outs=outs, leadoff=leadoff,
                                runners=tuple(lineup[(leadoff + 8 - i) % 9] if bases >> i & 1
                                              else None for i in range(3)))
        play_half_inning(state, team, rules, "at_bat", reference_action, counts, max_runs)

    return _sample_run_counts(bat_half_inning, half_innings, min_visits, max_runs)


_TABLES: dict[tuple, ValueTables] = {}


def showdown_tables(teams: tuple[Team, Team], level: str = "advanced", innings: int = 9,
                    half_innings: int = 12_000, min_visits: int = 600, seed: int = 0,
                    use_cache: bool = True) -> ValueTables:
    """Value tables for two teams (away, home), sampled with the engine, cached on disk."""
    key = (_team_key(teams[0]), _team_key(teams[1]), level, innings, half_innings, min_visits, seed)
    if key in _TABLES:
        return _TABLES[key]
    inputs = {"teams": [key[0], key[1]], "names": [t.name for t in teams], "level": level,
              "half_innings": half_innings, "min_visits": min_visits, "seed": seed,
              "policy": "reference-v1", "engine": "showdown-1"}
    tables = value_tables("showdown_v0", inputs,
                          lambda: sample_run_counts(teams, level, half_innings, min_visits, seed),
                          innings=innings, use_cache=use_cache)
    _TABLES[key] = tables
    return tables


# ================================================================ the heuristic


class ShowdownHeuristic(TablesHeuristic):
    """The rulebook heuristic: every choice priced in win expectancy from the cards' odds.

    "WE" is the deciding team's chance to win, read off the two teams' value tables at
    the start of the next at-bat; "run value" is a card's expected runs per plate
    appearance against the man it faces (linear weights of the swing results'
    probabilities, which the pitch and the two charts give exactly).

    * **Starting pitcher** (basic game): the starter who allows the fewest runs per plate
      appearance to the opponent's lineup.
    * **Send runners** (batting): for hold, send the lead runner, send both, the chance
      each throw gets its man (d20 + outfield Fielding must beat Speed, +5 home, +5 with
      two outs) times the WE if he is out, plus the chance he is safe times the WE if he
      makes it; with two runners sent, the defense is assumed to throw at the one that
      hurts the offense most. Take the best.
    * **Throw at** (fielding): the runner whose throw leaves the offense the lowest WE.
    * **Double play**: always try (the roll can only help the defense).
    * **Icons** (K, V, S, HR, SB, G, 20, RP) are once-a-game (or once-an-inning) chips, so
      each is played when its WE gain now beats the price of waiting for a better moment:
      ``ICON_THRESHOLDS`` times the share of the scheduled innings still to come after
      this one (nothing is kept for later in the 9th). K and V compare the result with a strikeout or
      a fresh swing on the same chart; S and HR compare the hit with the bigger one; G
      compares the roll with and without +10; 20 and RP compare the plate appearance at
      +3 Control with it at the pitcher's own (RP counts the whole inning as three times
      one at-bat); SB compares the steal with no steal.
    * **Pinch hitter** (batting): the bench hitter with the best run value against this
      pitcher, when he beats the man due up by ``pinch_margin`` runs per plate appearance
      (half that from the 7th on); a pitcher due up is hit for from the 6th on, or
      earlier when trailing by 3 or more, if the bullpen has an arm to replace him.
    * **Pitching change** (fielding): the best reliever (fewest runs allowed per plate
      appearance to the next three batters) comes in when the pitcher on the mound
      allows ``change_margin`` runs per plate appearance more than he would, counting
      fatigue; a starter is not removed while fresh unless he is that much worse. Forced
      changes take the best reliever.

    The expert game (without strategy cards):

    * **Intentional walk** (fielding): the WE of the batter walked against the WE of
      pitching to him (each result's probability from the pitch and the charts, carried
      out with the runners held); walk him when that is better for the defense.
    * **Sacrifice bunt** (batting): the bunt's WE (a PU on the pitcher's chart leaves the
      runners, anything else moves them up, the batter out either way) against swinging
      away's.
    * **Pinch runner** (batting): from the 7th inning in a game within two runs, the
      fastest legal runner when he is ``runner_margin`` Speed faster than the man on base,
      the runs his bat gives away (run value against this pitcher, times the plate
      appearances left in the game for that spot, at most two) counted against him.
    * **Defensive replacement** (fielding): when the team must (it cannot field every
      position), the replacement and the player he replaces that leave the best field;
      from the 7th inning with a lead, a bench fielder ``glove_margin`` Fielding better at
      a position than the man playing it replaces him. The DH never takes the field
      unless he must.
    * **Batting spots** in a double switch: a pitcher takes the open spot that comes up
      last, anyone else the one that comes up first.
    * **Starting lineup** (``lineups="manager"``: ``lineup_position``, ``lineup_dh``,
      ``batting_order``): the nine who start are the ones with the most run value per plate
      appearance against the other team's starting pitcher, plus ``fielding_weight`` runs
      per point of Fielding at the position each plays (an exact assignment of the positions
      still open, and the DH, among the full-cost hitters not yet picked; the best fielder
      wins among hitters alike); the batting order is the rulebook's "Creating a Team
      Batting Order" (:func:`~dugout.envs.showdown.cards.batting_order`: the best Speed and
      On-Base first, speed second, the best pure hitter third, the most home runs fourth,
      then by run value), the pitcher last under NL rules ("have your pitcher bat last").
    * **Strategy cards** (``play_card``): each playable card is priced by the WE it gains
      its owner now, effect by effect: a pitch or swing bonus by the plate appearance's WE
      with and without it (the charts read at the shifted swing), a reroll by a fresh
      swing on the same chart against the result in hand, a result change by the two
      results' WE, a Fielding check by its chance times the gain of what follows, a steal
      by the catcher's chance against the runner's Speed, runners moved or put out by the
      WE of the bases after; draws, discards, IP and the small bonuses at fixed small
      values. It plays the best card whose gain beats ``card_threshold`` times the share
      of the game still to come after this inning (the price of keeping it for a better
      moment, as with the icons; a card is drawn every half inning, so the price is
      lower), else passes. ``catcher_throw``: the catcher throws at the runner whose out is
      worth most to the defense (throwing never hurts).
    """

    name = "heuristic"
    VIEW = ShowdownView
    #: Runs per plate appearance an outcome is worth, above an average one.
    RUN_VALUE = {"PU": -0.26, "SO": -0.28, "GB": -0.27, "FB": -0.25, "BB": 0.32, "1B": 0.47,
                 "1B+": 0.50, "2B": 0.77, "3B": 1.04, "HR": 1.40}

    #: The win expectancy an icon must gain before it is used (the price of waiting for a
    #: better moment), times the share of the scheduled innings still to come after this
    #: one: 8/9 of it in the 1st, nothing in the 9th and later. The 20 icon
    #: comes back every inning, and a Gold Glove's chances are rare: they are used whenever
    #: they help. So are V and SB: their chances come only with one player's at-bats or
    #: times on base, which may not come in a big moment again (in 2,000-game matchups a
    #: 0.015 threshold lost to rerolling every out, 49.4%, 48.9-49.9%, and to stealing at
    #: every chance, 49.7%, 49.4-50.0%).
    ICON_THRESHOLDS = {"strikeout": 0.06, "home_run_icon": 0.04, "silver_slugger": 0.02,
                       "reroll_out": 0.0, "stolen_base": 0.0, "relief_ace": 0.02,
                       "gold_glove": 0.0, "twenty_game": 0.0}
    #: the view :meth:`_result_we`'s prices are of, and the prices (one view at a time; an
    #: instance sets its own at its first price)
    _priced_view: ShowdownView | None = None
    _priced: dict[tuple, float] = {}

    def __init__(self, tables: ValueTables | None = None,
                 icon_thresholds: dict[str, float] | None = None,
                 pinch_margin: float = 0.03, change_margin: float = 0.03,
                 runner_margin: int = 5, glove_margin: int = 2, card_threshold: float = 0.01,
                 fielding_weight: float = 0.005, **table_options: Any):
        super().__init__(tables, **table_options)
        self.icon_thresholds = {**self.ICON_THRESHOLDS, **(icon_thresholds or {})}
        self.pinch_margin = pinch_margin
        self.change_margin = change_margin
        self.runner_margin = runner_margin
        self.glove_margin = glove_margin
        self.card_threshold = card_threshold
        self.fielding_weight = fielding_weight

    # -- values -----------------------------------------------------------------------
    def build_tables(self, view: ShowdownView, **table_options: Any) -> ValueTables:
        return showdown_tables(view.teams, view.level, view.innings, **table_options)

    def table_inputs(self, view) -> tuple:
        return (view.teams, view.level, view.innings)

    def _we(self, view: ShowdownView, outs: int, bases, runs: int = 0) -> float:
        """The batting team's WE at the start of the next at-bat in this half inning."""
        lead = view.runs[view.half] - view.runs[1 - view.half] + runs
        return self.tables(view).batting_win_expectancy(
            view.inning, view.half, min(outs, 3), bases_index(bases), lead)

    def _mine(self, view: ShowdownView, batting_we: float) -> float:
        return batting_we if view.batting else 1.0 - batting_we

    def run_value(self, batter, pitcher: PitcherCard, bonus: int = 0, fatigue: int = 0) -> float:
        probs = result_probabilities(batter, pitcher, bonus, fatigue)
        return sum(p * self.RUN_VALUE[r] for r, p in probs.items())

    def _result_we(self, view: ShowdownView, result: str, outs: int | None = None,
                   bases=None) -> float:
        """The batting team's WE after ``result``, runners held (remembered for the view in
        hand: a decision prices the same results again for each option)."""
        outs = view.outs if outs is None else outs
        bases = view.bases if bases is None else bases
        if view is not self._priced_view:
            self._priced_view, self._priced = view, {}
        key = (result, outs, tuple(bases))
        we = self._priced.get(key)
        if we is None:
            dp = 0.0
            if result == "GB" and view.level != "basic":
                dp = _d20_beats(view.infield, view.batter_card.speed)
            we = self._priced[key] = sum(p * self._we(view, o, b, r)
                                         for p, o, b, r in outcomes_of(result, outs, bases, view.level, dp))
        return we

    def _pa_we(self, view: ShowdownView, bonus: int) -> float:
        probs = result_probabilities(view.batter_card, view.pitcher_card,
                                     view.control_bonus + bonus, view.fatigue)
        return sum(p * self._result_we(view, r) for r, p in probs.items() if p > 0)

    def _threshold(self, view: ShowdownView) -> float:
        """The gain an icon must bring now: its kind's price of waiting, shrinking as the
        game runs out of innings to wait for (nothing is kept for later in the 9th)."""
        left = max(0, view.innings - view.inning) / view.innings
        return self.icon_thresholds[view.decision] * left

    # -- decisions --------------------------------------------------------------------
    def decide(self, view: ShowdownView) -> int:
        values = self.option_values(view)
        best = max(values.values())
        if PASS in values and values[PASS] >= best - 1e-12:
            return PASS                                # ties go to the quiet option
        return min(a for a, v in values.items() if v >= best - 1e-12)

    def option_values(self, view: ShowdownView) -> dict[int, float]:
        """A score per legal action for the deciding manager (higher is better)."""
        return getattr(self, "_value_" + view.decision)(view)

    def _value_starting_pitcher(self, view):
        opp = 1 - view.seat
        lineup = [view.card(opp, k) for k in view.lineups[opp] if k >= 0]
        return {a: -np.mean([self.run_value(b, view.card(view.seat, a - PLAYER)) for b in lineup])
                for a in view.legal}

    # -- the starting lineup (lineups="manager") ---------------------------------------
    def _lineup_run_value(self, view, k: int) -> float:
        """Hitter ``k``'s run value per plate appearance against the other starter."""
        return self.run_value(view.card(view.seat, k), view.card(1 - view.seat,
                                                                 view.starters[1 - view.seat]))

    def _lineup_field_plan(self, view) -> dict[str, int]:
        """The best assignment of the positions still open (and the DH) among the full-cost
        hitters not yet picked: position -> roster index."""
        t = view.seat
        team = view.teams[t]
        picks = view.lineup_picks[t]
        expert = view.level == "expert"
        pool = [k for k, c in enumerate(team.players)
                if isinstance(c, HitterCard) and c.key not in team.backups and k not in picks]
        value = {k: self._lineup_run_value(view, k) for k in pool}
        positions = list(FIELD_POSITIONS[len(picks):]) + (["DH"] if view.dh else [])

        def score(k, position):
            if position == "DH":
                return value[k]
            card = view.card(t, k)
            if card.fielding(position) is None and not (expert and position == "1B"):
                return None
            field = 0 if position == "C" else fielding_at(card, position, expert)
            return value[k] + self.fielding_weight * field

        # the assignment is exact over its players; the three best at each open position
        # are enough for it (a pool of 13 or more hitters would cost seconds a pick)
        keep = set()
        for position in positions:
            scored = [(score(k, position), k) for k in pool]
            keep.update(k for v, k in sorted(((v, k) for v, k in scored if v is not None),
                                             reverse=True)[:3])
        # (the three best at each position nearly always fill it; if not, the whole pool)
        return (best_assignment([k for k in pool if k in keep], positions, score)
                or best_assignment(pool, positions, score) or {})

    def _value_lineup_position(self, view):
        plan = self._lineup_field_plan(view)
        want = plan.get(FIELD_POSITIONS[view.subject])
        return {a: float(a - PLAYER == want) for a in view.legal}

    def _value_lineup_dh(self, view):
        return {a: self._lineup_run_value(view, a - PLAYER) for a in view.legal}

    def _value_batting_order(self, view):
        t = view.seat
        n = len(FIELD_POSITIONS)
        picks = view.lineup_picks[t]
        nine = list(picks[:n]) + ([picks[n]] if view.dh else [view.starters[t]])
        hitters = [k for k in nine if isinstance(view.card(t, k), HitterCard)]
        value = {k: self._lineup_run_value(view, k) for k in hitters}
        plan = batting_order(hitters, on_base=lambda k: view.card(t, k).on_base,
                             speed=lambda k: view.card(t, k).speed,
                             power=lambda k: view.card(t, k).chart.count("HR"),
                             value=lambda k: value[k])
        plan += [k for k in nine if k not in hitters]       # "have your pitcher bat last"
        left = [k for k in plan if PLAYER + k in view.legal]
        return {PLAYER + k: -float(i) for i, k in enumerate(left)}

    def _value_double_play(self, view):
        return {PASS: 0.0, YES: 1.0}

    def _icon(self, view, gain_for_me: float) -> dict[int, float]:
        """Use the icon when its gain beats the threshold of the moment."""
        return {PASS: 0.0, YES: gain_for_me - self._threshold(view)}

    def _value_strikeout(self, view):
        gain = self._result_we(view, view.result) - self._result_we(view, "SO")
        return self._icon(view, gain)                         # the defense's gain

    def _value_reroll_out(self, view):
        chart = (view.pitcher_card if view.chart == "P" else view.batter_card).chart
        fresh = sum(n / 20 * self._result_we(view, r) for r, n in zip(RESULTS, chart.counts) if n)
        return self._icon(view, fresh - self._result_we(view, view.result))

    def _value_silver_slugger(self, view):
        return self._icon(view, self._result_we(view, "2B") - self._result_we(view, view.result))

    def _value_home_run_icon(self, view):
        return self._icon(view, self._result_we(view, "HR") - self._result_we(view, view.result))

    def _value_stolen_base(self, view):
        bases = list(_flags(view.bases))
        base = view.subject
        bases[base], bases[base + 1] = None, base
        gain = self._we(view, view.outs, tuple(bases)) - self._we(view, view.outs, _flags(view.bases))
        return self._icon(view, gain)

    def _value_twenty_game(self, view):
        gain = self._pa_we(view, 0) - self._pa_we(view, 3)        # offense loses this much
        return self._icon(view, gain)

    def _value_relief_ace(self, view):
        gain = 3 * (self._pa_we(view, 0) - self._pa_we(view, 3))
        return self._icon(view, gain)

    def _value_gold_glove(self, view):
        if not view.sent:                  # the double-play roll: the runner from first is out
            speed = view.batter_card.speed
            gain_p = _d20_beats(view.infield + 10, speed) - _d20_beats(view.infield, speed)
            b = _flags(view.bases)
            run = int(b[2] is not None)
            safe = self._we(view, view.outs, (9, None, b[1]), run)
            out = (self._we(view, 3, (None, None, None)) if view.outs + 1 >= 3
                   else self._we(view, view.outs + 1, (None, None, b[1]), run))
            return self._icon(view, gain_p * (safe - out))
        thrown = view.thrown if view.thrown >= 0 else view.sent[0]
        gain = (self._send_we(view, view.sent, thrown)
                - self._send_we(view, view.sent, thrown, glove=10))
        return self._icon(view, gain)

    def _target(self, view, runner: int) -> int:
        return rules.throw_target(view.card(view.half, runner).speed,
                                  view.bases.index(runner) == 2, view.outs_before == 2)

    def _send_we(self, view, sent: tuple, thrown: int | None, glove: int = 0) -> float:
        """The batting team's WE when ``sent`` runners go and ``thrown`` is thrown at."""
        if not sent:
            return self._we(view, view.outs, _flags(view.bases))
        p_out = _d20_beats(view.outfield + glove, self._target(view, thrown))
        total = 0.0
        for out, p in ((True, p_out), (False, 1 - p_out)):
            if p <= 0:
                continue
            bases = list(_flags(view.bases))
            runs, outs = 0, view.outs
            for r in sent:
                base = view.bases.index(r)
                bases[base] = None
                if r == thrown and out:
                    outs += 1
                    continue
                if base == 2:
                    runs += 1
                else:
                    bases[base + 1] = base + 1
            total += p * self._we(view, outs, tuple(bases), runs)
        return total

    def _value_send_runners(self, view):
        eligible = view.eligible
        values = {PASS: self._we(view, view.outs, _flags(view.bases))}
        if rules.SEND_LEAD in view.legal:
            values[rules.SEND_LEAD] = self._send_we(view, eligible[:1], eligible[0])
        if rules.SEND_BOTH in view.legal:
            both = eligible[:2]
            values[rules.SEND_BOTH] = min(self._send_we(view, both, r) for r in both)
        return values

    def _value_throw_at(self, view):
        sent = view.sent
        lead = self._send_we(view, sent, sent[0])
        trail = self._send_we(view, sent, sent[1])
        return {rules.THROW_LEAD: -lead, rules.THROW_TRAIL: -trail}

    def _value_pinch_hitter(self, view):
        t = view.seat
        pitcher = view.pitcher_card
        due = view.batter_card
        values = {PASS: 0.0}
        candidates = [a for a in view.legal if a != PASS]
        if not candidates:
            return values
        late = view.inning >= 7
        margin = self.pinch_margin / 2 if late else self.pinch_margin
        if isinstance(due, PitcherCard):
            behind = view.runs[1 - t] - view.runs[t]
            if view.inning >= 6 or behind >= 3:
                margin = -1.0                                 # any hitter beats the pitcher
            else:
                margin = 1.0
        base = self.run_value(due, pitcher, view.control_bonus, view.fatigue)
        for a in candidates:
            gain = self.run_value(view.card(t, a - PLAYER), pitcher, view.control_bonus,
                                  view.fatigue) - base
            values[a] = gain - margin
        return values

    def _value_pitching_change(self, view):
        t = view.seat
        opp = 1 - t
        order = view.order[opp]
        nxt = [view.card(opp, view.lineups[opp][(order + i) % 9]) for i in range(3)]
        nxt = [c for c in nxt]
        current = None
        if view.pitcher >= 0 and view.decision == "pitching_change" and view.subject != 1:
            current = np.mean([self.run_value(b, view.pitcher_card, 0, view.fatigue) for b in nxt])
        values = {}
        for a in view.legal:
            if a == PASS:
                continue
            card = view.card(t, a - PLAYER)
            tired = int(rules.rested_out(view, t, a - PLAYER))
            values[a] = -np.mean([self.run_value(b, card, 0, tired) for b in nxt])
        if PASS in view.legal:
            values[PASS] = -(current if current is not None else 0.0) + self.change_margin
        return values


    # -- the expert game -----------------------------------------------------------------
    def _value_intentional_walk(self, view):
        b = _flags(view.bases)
        walked, runs = force_advance(b, 3)
        walked = tuple(i if r is not None else None for i, r in enumerate(walked))
        walk_we = self._we(view, view.outs, walked, len(runs))
        return {PASS: -self._pa_we(view, 0), YES: -walk_we}

    def _value_sacrifice_bunt(self, view):
        b = _flags(view.bases)
        pu = view.pitcher_card.chart.counts[RESULTS.index("PU")] / 20
        moved = (None, b[0], b[1])
        bunt = (pu * self._we(view, view.outs + 1, b)
                + (1 - pu) * self._we(view, view.outs + 1, tuple(
                    i if r is not None else None for i, r in enumerate(moved))))
        return {PASS: self._pa_we(view, 0), YES: bunt}

    def _value_pinch_runner(self, view):
        values = {PASS: 0.0}
        t = view.seat
        runner = view.card(t, view.bases[view.subject])
        close = abs(view.runs[0] - view.runs[1]) <= 2
        pitcher = view.pitcher_card
        # the runner's spot bats again at most this often before the game is over
        left = min(2.0, max(0, view.innings - view.inning + 1) * 4 / 9)
        for a in view.legal:
            if a == PASS:
                continue
            card = view.card(t, a - PLAYER)
            faster = card.speed - runner.speed
            if view.inning < 7 or not close or faster < self.runner_margin:
                values[a] = -1.0
                continue
            bat = self.run_value(card, pitcher) - self.run_value(runner, pitcher)
            values[a] = faster / 100 + min(0.0, bat) * left
        return values

    def _field_gain(self, view, new: int, old: int) -> float:
        """Fielding gained at ``old``'s position when ``new`` takes it."""
        t = view.seat
        slot = view.lineups[t].index(old)
        pos = view.positions[t][slot]
        if pos not in rules.FIELD_POSITIONS:          # still waiting for a position
            return 5.0
        return (_fielding(view.card(t, new), pos) - _fielding(view.card(t, old), pos))

    def _value_defensive_replacement(self, view):
        t = view.seat
        forced = PASS not in view.legal
        leading = view.runs[t] > view.runs[1 - t]
        values = {PASS: 0.0} if not forced else {}
        fielders = [k for k, pos in zip(view.lineups[t], view.positions[t])
                    if pos not in ("DH", "P")]
        for a in view.legal:
            if a == PASS:
                continue
            new = a - PLAYER
            if new in view.lineups[t]:                # the DH: only when he must
                values[a] = -10.0
                continue
            gain = max(self._field_gain(view, new, old) for old in fielders)
            if forced:
                values[a] = gain + view.card(t, new).on_base / 100
            else:
                values[a] = gain - self.glove_margin if view.inning >= 7 and leading else -1.0
        return values

    def _value_replaced_player(self, view):
        return {a: self._field_gain(view, view.subject, a - PLAYER) for a in view.legal}

    def _value_batting_slot(self, view):
        t = view.seat
        spots = dict(view.open_spots)
        pitcher = isinstance(view.card(t, view.subject), PitcherCard)
        values = {}
        for a in view.legal:
            wait = (spots[a - PLAYER] - view.order[t]) % 9      # at-bats until it comes up
            values[a] = wait if pitcher else -wait
        return values


    # -- strategy cards ------------------------------------------------------------------
    def _value_play_card(self, view):
        left = max(0, view.innings - view.inning) / view.innings
        values = {PASS: 0.0}
        for a in view.legal:
            if a != PASS:
                card = view.card_set.cards[a - rules.CARD]
                values[a] = self.card_gain(view, card) - self.card_threshold * left
        return values

    def _value_catcher_throw(self, view):
        values = {PASS: -self._steal_we(view, view.stealers, None)}
        for a in view.legal:
            if a != PASS:
                thrown = view.stealers[0] if a in (YES, rules.THROW_LEAD) else view.stealers[1]
                values[a] = -self._steal_we(view, view.stealers, thrown)
        return values

    def card_gain(self, view, card) -> float:
        """The WE a card gains its owner (the deciding manager) now."""
        from ..envs.showdown.cardplay import effects_of, icon_applies_view
        effects = effects_of(card, icon_applies_view(view, card))
        changes = [e for e in effects if e.do == "result"]
        batting_gain = 0.0
        self._card_catcher = 0      # a catcher's bonus earlier on the card (Steal of Home)
        for e in effects:           # of two result changes, the last one stands
            if e.do != "result" or e is changes[-1]:
                batting_gain += self._effect_gain(view, e)
            if e.do == "catcher_bonus":
                self._card_catcher += e.by
        self._card_catcher = 0
        if card.lasts == "game":    # in force on many more at-bats than this one
            batting_gain *= 3
        return batting_gain if view.batting else -batting_gain

    def _mods(self, view) -> dict[str, int]:
        """The pitch, swing and catcher's-throw bonuses already in force (cards played this
        at-bat and cards in play; their icon bonuses are not counted)."""
        mods = {"pitch": 0, "swing": 0, "catcher_bonus": 0}
        cards = view.card_set.cards
        for team, counts in enumerate(view.played):
            for i, n in enumerate(counts):
                if n:
                    for e in cards[i].effect * n:
                        self._add(mods, e, team, view.half)
        for team, counts in enumerate(view.in_play):
            for i, n in enumerate(counts):
                if not n or cards[i].color == ("defense" if team == view.half else "offense"):
                    continue            # a card in play for the game, its side not in force
                for e in cards[i].effect * n:
                    self._add(mods, e, team, view.half)
        return mods

    @staticmethod
    def _add(mods, e, team, half) -> None:
        if e.do in mods:
            mods[e.do] += e.by
        elif e.do == "edge":
            mods["swing" if team == half else "pitch"] += e.by

    def _pa_we_with(self, view, pitch: int, swing: int) -> float:
        """The batting team's WE of the plate appearance at these pitch and swing bonuses."""
        probs = result_probabilities(view.batter_card, view.pitcher_card,
                                     view.control_bonus + pitch, view.fatigue, swing)
        return sum(p * self._result_we(view, r) for r, p in probs.items() if p > 0)

    def _effect_gain(self, view, e) -> float:
        """The batting team's WE gained by one effect."""
        do = e.do
        bases = _flags(view.bases)
        here = self._we(view, view.outs, bases) if view.result is None else (
            self._result_we(view, view.result))
        # after a result, the batter on base is not a runner the card may move or put out
        runners = tuple(None if (view.window == "after_result" and r == view.batter) else r
                        for r in view.bases)
        if do in ("pitch", "swing", "edge"):
            mods = self._mods(view)
            extra = {"pitch": 0, "swing": 0}
            self._add(extra, e, view.seat, view.half)
            now = self._pa_we_with(view, mods["pitch"], mods["swing"])
            return self._pa_we_with(view, mods["pitch"] + extra["pitch"],
                                    mods["swing"] + extra["swing"]) - now
        if do == "reroll_swing":
            chart = (view.pitcher_card if view.chart == "P" else view.batter_card).chart
            probs = chart_probabilities(chart, self._mods(view)["swing"])
            fresh = sum(p * self._result_we(view, r) for r, p in zip(RESULTS, probs) if p > 0)
            return fresh - here
        if do == "result":
            return self._result_we(view, e.to) - here
        if do == "check":
            group = {"infield": ("1B", "2B", "3B", "SS"), "outfield": ("LF", "CF", "RF"),
                     "first": ("1B",)}[e.positions]
            fielding = view.fielding(group) + e.bonus
            p_pass = min(1.0, max(0.0, (fielding) / 20))     # d20 + F >= 21
            p = p_pass if e.on == "pass" else 1 - p_pass
            return p * sum(self._effect_gain(view, t) for t in e.then)
        if do == "advance":
            return (self._advance_we(view, e.runners, e.bases, runners)
                    - self._we(view, view.outs, bases))
        if do == "runner_out":
            lead = [i for i in (2, 1, 0) if runners[i] is not None]
            i = 0 if e.runners == "first" else (lead[0] if lead else None)
            if i is not None and runners[i] is None:
                return 0.0
            if i is None or bases[i] is None:
                return 0.0
            after = list(bases)
            after[i] = None
            return self._we(view, view.outs + 1, tuple(after)) - self._we(view, view.outs, bases)
        if do == "steal":
            from ..envs.showdown.cardplay import _stealers
            stealers = _stealers(view.bases, e.runners)
            if not stealers:
                return 0.0
            now = self._we(view, view.outs, bases)
            if not e.throw:
                return self._steal_we(view, stealers, None) - now
            return min(self._steal_we(view, stealers, r) for r in stealers) - now
        sign = 1.0 if view.batting else -1.0          # owner-relative effects, in batting WE
        if do in ("draw", "discard"):
            return sign * 0.004 * e.n
        if do == "discard_own":                        # the card it costs
            return -sign * 0.004 * e.n
        if do == "squeeze":
            return self._squeeze_we(view) - self._pa_we(view, self._mods(view)["pitch"])
        if do == "starter_out":
            return self._starter_out_gain(view)
        if do == "ip":                                 # the pitcher on the mound's
            return -0.004 * e.by
        if do in ("throw_bonus", "dp_bonus", "catcher_bonus"):
            return -0.002 * e.by if any(bases) else 0.0
        if do == "no_double_play":
            return 0.01 if bases[0] is not None and view.outs < 2 else 0.0
        if do == "hold_runners":
            return -0.01 if any(bases) else 0.0
        return 0.0

    def _advance_we(self, view, runners: str, n: int, on) -> float:
        """The batting team's WE after the runners ``on`` base (the batter excluded after a
        result) move up as the card says."""
        bases = list(_flags(view.bases))
        movers = [i for i in (2, 1, 0) if on[i] is not None]
        if runners == "third":
            movers = [2] if bases[2] is not None else []
        elif runners == "lead":
            movers = movers[:1]
        runs = 0
        for i in movers:
            bases[i] = None
            if i + n >= 3:
                runs += 1
            elif bases[i + n] is None:
                bases[i + n] = i + n
            else:
                bases[i] = i
        return self._we(view, view.outs, tuple(bases), runs)

    def _steal_we(self, view, stealers, thrown) -> float:
        """The batting team's WE after ``stealers`` go and the catcher throws at ``thrown``."""
        t = 1 - view.half
        arm = 0
        for slot, pos in enumerate(view.positions[t]):
            if pos == "C":
                arm = view.card(t, view.lineups[t][slot]).fielding("C") or 0
        total = 0.0
        outcomes = [(1.0, False)]
        if thrown is not None:
            base = view.bases.index(thrown)
            speed = view.card(view.half, thrown).speed
            bonus = self._mods(view)["catcher_bonus"] if view.card_set is not None else 0
            bonus += getattr(self, "_card_catcher", 0)
            p_out = _d20_beats(arm + (5 if base == 1 else 0) + bonus, speed)
            outcomes = [(p_out, True), (1 - p_out, False)]
        for p, out in outcomes:
            if p <= 0:
                continue
            bases = list(_flags(view.bases))
            runs = 0
            outs = view.outs
            for r in stealers:
                i = view.bases.index(r)
                bases[i] = None
                if r == thrown and out:
                    outs += 1
                elif i == 2:                # a steal of home (a card's)
                    runs += 1
                else:
                    bases[i + 1] = i + 1
            total += p * self._we(view, outs, tuple(bases), runs)
        return total

    def _squeeze_we(self, view) -> float:
        """The batting team's WE after a squeeze: on the pitcher's chart a PU is an out with
        the runners held, anything else an out with every runner up, the runner on third in."""
        pu = view.pitcher_card.chart.counts[RESULTS.index("PU")] / 20
        bases = _flags(view.bases)
        held = self._we(view, view.outs + 1, bases)
        moved = (None, None if bases[0] is None else 1, None if bases[1] is None else 2)
        runs = 1 if view.outs + 1 < 3 else 0
        return pu * held + (1 - pu) * self._we(view, view.outs + 1, moved, runs)

    def _starter_out_gain(self, view) -> float:
        """Forcing the starter out: the next batters' run value against the reliever the
        defense would bring in, less against the starter (tired as he is), in WE."""
        ft = 1 - view.half
        order = view.order[view.half]
        nxt = [view.card(view.half, view.lineups[view.half][(order + i) % 9]) for i in range(3)]
        now = np.mean([self.run_value(b, view.pitcher_card, 0, view.fatigue) for b in nxt])
        relief = [k for k, c in enumerate(view.teams[ft].players)
                  if isinstance(c, PitcherCard) and c.role != "starter" and not view.used[ft][k]]
        if not relief:
            return 0.0
        best = min(np.mean([self.run_value(b, view.card(ft, k), 0,
                                           int(rules.rested_out(view, ft, k))) for b in nxt])
                   for k in relief)
        return 0.1 * 3 * (best - now)               # about 0.1 WE a run, three batters


def _fielding(card, position: str) -> int:
    """Fielding at a position in the expert game (-10 where he may not play)."""
    if card.kind != "hitter":
        return -10
    if card.fielding(position) is None and position != "1B":
        return -10
    return fielding_at(card, position, True)


class ShowdownAlwaysNever(AlwaysNever, ShowdownHeuristic):
    """Baseline: always (or never) take one kind of option (``kind``, one of
    :data:`YES_NO_KINDS`); the heuristic decides the rest. "Never" passes (no pinch hitter,
    no pitching change, hold the runners, keep the icon); "always" takes the option the
    heuristic values most among the others (its favourite pinch hitter or reliever,
    sending the runners it would send first). A forced pitching change is made as the
    heuristic would (:class:`dugout.agents.base.AlwaysNever`)."""
    KINDS, RULESET, PASS = YES_NO_KINDS, "MLB Showdown", PASS


def win_expectancy(view: ShowdownView) -> float:
    """The viewing manager's chance of winning, read off the value tables at the start of
    the at-bat the view is in (a potential for reward shaping in training)."""
    t = showdown_tables(view.teams, view.level, view.innings)
    home = t.win_expectancy(view.inning, view.half, min(view.outs, 3), bases_index(view.bases),
                            view.runs[1] - view.runs[0])
    return home if view.seat == 1 else 1.0 - home


def _tables_for_teams(teams, innings: int) -> ValueTables:
    return showdown_tables(tuple(load_team(t, point_cap=None) for t in teams), innings=innings)


def _search_view(state, seat: int, root: ShowdownView) -> ShowdownView:
    """A rollout's view for the search manager."""
    return view_of(state, seat)


def _search_budget(setup: dict) -> dict | None:
    """The search's default for the expert game with strategy decks: it searches the card
    plays only (``kinds=play_card``) and leaves every other decision to the heuristic. Its
    decision report, priced again on fresh worlds, finds the card plays the one kind of
    decision where the search's picks gain on the heuristic's (4.3 points of winning chance
    a game, 0.4 to 8.3), while its picks lose at the intentional walks, bunts and pinch
    hitters; searching the cards alone costs about a fifth of searching every decision."""
    if setup.get("level") == "expert" and setup.get("decks") is not None:
        return {"kinds": "play_card"}
    return None


MANAGERS = Managers(
    heuristic=ShowdownHeuristic, always_never=ShowdownAlwaysNever, yes_no_kinds=YES_NO_KINDS,
    value_tables=_tables_for_teams, win_expectancy=win_expectancy,
    default_teams=("nya2004", "bos2004"),
    search=SearchSpec("dugout.envs.showdown.sample", "dugout.envs.showdown.rules", _search_view,
                      budget=_search_budget, kinds=rules.ALL_KINDS + rules.LINEUP_KINDS))
