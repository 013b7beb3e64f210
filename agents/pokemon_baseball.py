"""Managers for Pokemon Baseball: the rulebook heuristic, its always/never baselines, and
the value tables they use.

Two prices drive every choice:

* **What a plate appearance is worth** (:func:`pa_value`): the batting chart, its
  sub-charts and the error chart enumerated exactly for a batter, a pitcher and the
  fielders' levels, and each result weighed by its linear-weights run value. It ranks
  creatures for the lineup, the batting order, pinch hitters and the mound. Read
  literally (RULES.md, P-9), the charts reward a *low* level on both sides of the ball:
  the Hit/Grounder chart adds the pitcher's and the fielder's levels and subtracts the
  batter's, and the error chart makes errors likelier for high-level fielders. A high
  HP and attack help a batter and a pitcher alike; a low retreat makes a runner, a high
  retreat a catcher or an outfielder.
* **Win expectancy** (:mod:`dugout.agents.value_tables`): run distributions sampled
  through the engine for the two rosters, and the chance of winning from every inning,
  score, outs and bases. Steals, bunts and tag-ups are lotteries whose odds the charts
  print; the heuristic takes the one worth the most to its team.

Everything reads the manager's :class:`~dugout.envs.pokemon_baseball.view.PokemonBaseballView`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..envs.core.bases import advance_all, advance_runner, force_advance, remove_runner
from ..envs.core.dice import Dice
from ..envs.core.engine import play_out
from ..envs.pokemon_baseball import charts as ch
from ..envs.pokemon_baseball import rules
from ..envs.pokemon_baseball.cards import load_creatures, load_team
from ..envs.pokemon_baseball.rules import rest_for_innings
from ..envs.pokemon_baseball.view import PokemonBaseballView, Stats, make_view
from ..envs.core.assignment import best_assignment
from .search import SearchSpec
from .base import AlwaysNever, Managers, TablesHeuristic
from .value_tables import (ValueTables, bases_index, play_half_inning, sample_run_counts,
                           value_tables)

__all__ = ["PokemonBaseballHeuristic", "PokemonBaseballAlwaysNever", "pokemon_tables",
           "pa_value", "pitching_value", "plan_lineup", "win_expectancy", "YES_NO_KINDS",
           "MANAGERS", "LINEAR_WEIGHTS"]

PASS, YES, RUNNER, PINCH_HIT, POSITION, CREATURE = (rules.PASS, rules.YES, rules.RUNNER,
                                                     rules.PINCH_HIT, rules.POSITION, rules.CREATURE)
#: The decisions that are a yes/no choice, for the always/never baselines.
YES_NO_KINDS = ("steal", "bunt", "tag_up", "offense_sub", "defense_sub")

#: Run values of plate-appearance results (linear weights, after Tango, Lichtman and
#: Dolphin, *The Book*, ch. 1): above an average plate appearance.
LINEAR_WEIGHTS = {"single": 0.47, "double": 0.77, "triple": 1.04, "homerun": 1.40, "walk": 0.32,
                  "error1": 0.50, "error2": 0.80, "out": -0.27, "double_play": -0.60}
#: The level assumed for a fielder nobody knows yet (before the lineups are shown).
AVERAGE_LEVEL = 30
#: Plate appearances per half inning, measured: 4.58 in 60 heuristic-vs-heuristic games of
#: the built-in teams (the charts give many hits and errors).
PA_PER_INNING = 4.6


def _p2d6(total: int) -> float:
    return (6 - abs(total - 7)) / 36


P2D6 = {t: _p2d6(t) for t in range(2, 13)}
_HIT_WEIGHTS = {ch.SINGLE: LINEAR_WEIGHTS["single"], ch.DOUBLE: LINEAR_WEIGHTS["double"],
                ch.TRIPLE: LINEAR_WEIGHTS["triple"], ch.HOMERUN: LINEAR_WEIGHTS["homerun"]}


# -- what a plate appearance is worth --------------------------------------------------------
@lru_cache(maxsize=65536)
def pa_value(batter: Stats, pitcher: Stats, fielders: tuple[int, ...], edge: str = "ge") -> float:
    """Expected linear-weights runs of one plate appearance (bases empty, nobody out), by
    exact enumeration of the charts. ``fielders`` are the levels of the creatures at
    positions 1-9 (the pitcher's own level first)."""
    lv_b, lv_p = batter[1], pitcher[1]
    total = 0.0
    for p, v, reads, f in _pa_cells(batter, pitcher, edge):
        if reads == _GROUNDER:
            v = _grounder_value(lv_p + fielders[f - 1] - lv_b, edge)
        elif reads == _ERROR:           # v holds the Hit chart's value, where an error cell may send
            v = _error_value(fielders[f - 1], f <= 6, v)
        total += p * v
    return total


#: What a batting chart cell reads besides the batter and the pitcher: nothing, the
#: Hit/Grounder chart with its fielder's level, or the error chart with it.
_FIXED, _GROUNDER, _ERROR = 0, 1, 2


@lru_cache(maxsize=4096)
def _pa_cells(batter: Stats, pitcher: Stats, edge: str) -> tuple[tuple[float, float, int, int], ...]:
    """The batting chart's cells in the order :func:`pa_value` adds them, for a batter and
    a pitcher: ``(chance, value, reads, fielder)``, the value already worked out where the
    cell reads no fielder (the fielders' levels change with every substitution; these do not)."""
    hp_b, lv_b, atk_b, _ = batter
    hp_p, lv_p, atk_p, _ = pitcher
    w = LINEAR_WEIGHTS
    hits = _HIT_WEIGHTS
    hit_chart = sum(hits[ch.HIT[d][ch.hit_column(hp_b, edge)]] for d in range(1, 7)) / 6
    cells = []
    for column in range(6):
        for row in range(2, 13):
            result, f = ch.BATTING[row][column]
            p = P2D6[row] / 6
            reads = _FIXED
            if result in hits:
                v = hits[result]
            elif result == ch.WALK:
                v = w["walk"]
            elif result in (ch.STRIKEOUT, ch.FLY_OUT, ch.SAC_FLY, ch.GROUND_OUT):
                v = w["out"]
            elif result == ch.HOMERUN_DOUBLE:
                v = sum(w["homerun"] if 10 * d + hp_b > hp_p else w["double"] for d in range(1, 7)) / 6
            elif result == ch.HIT_:
                v = hit_chart
            elif result == ch.HIT_LINER_:
                col = ch.hit_liner_column(hp_b - hp_p, edge)
                v = sum(w["out"] if ch.HIT_LINER[d][col] in (ch.OUT, ch.SAC_FLY)
                        else hits[ch.HIT_LINER[d][col]] for d in range(1, 7)) / 6
            elif result == ch.HIT_GROUNDER_:
                v, reads = 0.0, _GROUNDER
            elif result == ch.K_OR_BB:
                col = ch.strikeout_walk_column(atk_b - atk_p, edge)
                v = sum(w["out"] if ch.STRIKEOUT_WALK[d][col] == ch.STRIKEOUT else w["walk"]
                        for d in range(1, 7)) / 6
            else:                                   # the error chart
                v, reads = hit_chart, _ERROR
            cells.append((p, v, reads, f))
    return tuple(cells)


@lru_cache(maxsize=1024)
def _grounder_value(value: int, edge: str) -> float:
    """A Hit/Grounder cell's value, by the pitcher's + the fielder's - the batter's level."""
    w, col = LINEAR_WEIGHTS, ch.hit_grounder_column(value, edge)
    return sum(w["out"] if ch.HIT_GROUNDER[d][col] == ch.OUT
               else _HIT_WEIGHTS[ch.HIT_GROUNDER[d][col]] for d in range(1, 7)) / 6


@lru_cache(maxsize=4096)
def _error_value(level: int, infield: bool, hit_chart: float) -> float:
    """An error-chart cell's value, by the fielder's level (an error is one base in the
    infield, positions 1-6, two beyond); a Hit cell there is worth ``hit_chart``."""
    w, col = LINEAR_WEIGHTS, ch.error_column(level)
    v = 0.0
    for r in range(2, 13):
        e = ch.ERROR[r][col]
        v += P2D6[r] * (w["error1" if infield else "error2"] if e == ch.ERR
                        else hit_chart if e == ch.HIT_ else w["out"])
    return v


@lru_cache(maxsize=65536)
def pitching_value(pitcher: Stats, batters: tuple[Stats, ...], fielders: tuple[int, ...],
                   edge: str = "ge") -> float:
    """Runs per plate appearance a pitcher saves against ``batters`` (their mean
    :func:`pa_value`, negated: higher is better; remembered, as :func:`pa_value` is: the
    heuristic weighs every fresh arm against the same lineup before each batter)."""
    return -sum(pa_value(b, pitcher, fielders, edge) for b in batters) / len(batters)


def _mean_stats(stats: tuple[Stats, ...]) -> Stats:
    a = np.asarray(stats, dtype=float).mean(axis=0)
    return (int(round(a[0] / 10)) * 10, int(round(a[1])), int(round(a[2] / 10)) * 10, int(round(a[3])))


def fielding_value(level: int, position: int, pitcher: Stats, batter: Stats,
                   edge: str = "ge") -> float:
    """Runs per opposing plate appearance a fielder of ``level`` at ``position`` saves,
    against a fielder of :data:`AVERAGE_LEVEL` there (the error chart and the Hit/Grounder
    chart read the fielder's level in the cells hit to him)."""
    average = (AVERAGE_LEVEL,) * 9
    here = tuple(level if p == position else AVERAGE_LEVEL for p in range(1, 10))
    return pa_value(batter, pitcher, average, edge) - pa_value(batter, pitcher, here, edge)


#: Tie-breaking worth of a retreat point at catcher (steals) and in the outfield (tag-ups).
ARM = 1e-3


@lru_cache(maxsize=4096)
def plan_lineup(own: tuple[Stats, ...], opponent: tuple[Stats, ...], resting: tuple[int, ...],
                dh: bool, edge: str = "ge") -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The heuristic's lineup card: the creature at each position (P ... RF, then the DH)
    and the batting order, from the rested creatures of ``own``.

    A creature's worth at a position is a ninth of his plate appearance's value against
    the opponent's average creature (he bats one time in nine) plus the runs his level
    saves there on every opposing plate appearance (:func:`fielding_value`); a retreat
    point at catcher or in the outfield breaks ties. The pitcher is the rested creature
    who saves the most runs against the opponent's best nine, his own bat counted too
    without the DH; the eight fielders are the best assignment to the eight positions
    (exact, over the twelve best candidates); the DH is the best bat left; the order is
    by batting value."""
    rested = [k for k, r in enumerate(resting) if r == 0]
    levels = (AVERAGE_LEVEL,) * 9
    ref_own, ref_opp = _mean_stats(own), _mean_stats(opponent)
    them = tuple(sorted(opponent, key=lambda s: pa_value(s, ref_own, levels, edge),
                        reverse=True)[:9])
    bat = {k: pa_value(own[k], ref_opp, levels, edge) for k in rested}
    pitcher = max(rested, key=lambda k: (pitching_value(own[k], them, (own[k][1],) + levels[1:], edge)
                                         + (0.0 if dh else bat[k] / 9), -k))

    def worth(k: int, position: int) -> float:
        arm = ARM * own[k][3] if position in (2, 7, 8, 9) else 0.0
        return bat[k] / 9 + fielding_value(own[k][1], position, own[pitcher], ref_opp, edge) + arm

    others = [k for k in rested if k != pitcher]
    candidates = sorted(others, key=lambda k: (-max(worth(k, p) for p in range(2, 10)), k))[:12]
    at = best_assignment(candidates, tuple(range(2, 10)), worth)
    positions = (pitcher,) + tuple(at[p] for p in range(2, 10))
    if dh:
        positions += (max((k for k in others if k not in positions), key=lambda k: (bat[k], -k)),)
    batters = [k for k in positions if not (dh and k == pitcher)]
    order = tuple(sorted(batters, key=lambda k: (-bat[k], k)))
    return positions, order


# -- value tables ---------------------------------------------------------------------------
def _reference_team(stats: tuple[Stats, ...], opponent: tuple[Stats, ...], dh: bool, edge: str):
    return plan_lineup(stats, opponent, (0,) * len(stats), dh, edge)


def _tag_up_chance(runner_retreat: int, outfielder_retreat: int) -> float:
    return max(0, 6 - runner_retreat - outfielder_retreat) / 6


def reference_action(state: rules.GameState, decision) -> int:
    """The policy the value tables are sampled under: the heuristic's lineup card, no
    substitutions, steals or bunts, and a tag-up whenever it is likelier safe than not."""
    kind = decision.kind
    if kind in ("lineup", "batting_order"):
        t = decision.actor
        stats = tuple((c.hp, c.level, c.attack, c.retreat) for c in state.teams[t].roster)
        opp = tuple((c.hp, c.level, c.attack, c.retreat) for c in state.teams[1 - t].roster)
        positions, order = plan_lineup(stats, opp, tuple(state.resting[t]), state.dh, state.edge)
        k = positions[decision.subject - 1] if kind == "lineup" else order[decision.subject]
        return CREATURE + k
    if kind == "tag_up":
        b = state.board
        runner = state.creature(b.batting, b.bases[2]).retreat
        fielder = state.creature(b.fielding, state.at(b.fielding, state.fielder)).retreat
        return YES if _tag_up_chance(runner, fielder) > 0.5 else PASS
    if kind in ("substitute", "replace_injured"):
        return decision.legal[0]
    return PASS


def _teams_from_stats(stats) -> tuple:
    from ..envs.pokemon_baseball.cards import Creature, Team
    teams = []
    for t, roster in enumerate(stats):
        creatures = tuple(Creature(f"c{t}_{k}", f"#{k}", *s) for k, s in enumerate(roster))
        lineup = tuple(range(9))
        teams.append(Team(f"team {t}", creatures, lineup, tuple(range(1, 10)), (0,)))
    return tuple(teams)


def sample_counts(stats, innings: int, dh: bool, edge: str, half_innings: int = 3_000,
                  min_visits: int = 300, seed: int = 0, max_runs: int = 20,
                  bench: str = "roster") -> np.ndarray:
    """Run distributions (team, outs, bases, runs) for two rosters, sampled through the
    engine's own rules under :func:`reference_action` (each half inning its own dice).
    ``bench`` is the game's P-1 reading, which lets rosters beyond 17 be played; it changes
    nothing sampled (the reference makes no substitution), so the tables' inputs omit it."""
    teams = _teams_from_stats(stats)
    template = rules.new_game(teams[0], teams[1], Dice(seed), innings=1, dh=dh, edge=edge,
                              bench=bench)
    # both lineup cards, by the reference
    play_out(template, rules, reference_action, stop=lambda state: state.started)

    def bat_half_inning(team: int, k: int, outs: int, bases: int, counts: np.ndarray) -> None:
        lead = k % 9
        order = template.lineup[team]
        state = rules.start_half_inning(
            template.clone(), inning=k + 1, half=team, outs=outs, leadoff=lead,
            bases=tuple(order[(lead + 8 - i) % 9] if bases >> i & 1 else None for i in range(3)))
        play_half_inning(state, team, rules, "at_bat", reference_action, counts, max_runs)

    return sample_run_counts(bat_half_inning, half_innings, min_visits, max_runs)


def pokemon_tables(stats, innings: int = 9, dh: bool = False, edge: str = "ge",
                   bench: str = "roster", **options: Any) -> ValueTables:
    """The value tables for two rosters' stats under the game's ``bench`` reading (cached on
    disk by their inputs)."""
    stats = tuple(tuple(tuple(int(x) for x in s) for s in roster) for roster in stats)
    return _tables(stats, int(innings), bool(dh), edge, bench, tuple(sorted(options.items())))


@lru_cache(maxsize=64)
def _tables(stats, innings: int, dh: bool, edge: str, bench: str, options: tuple) -> ValueTables:
    opts = dict(options)
    inputs = {"stats": [[list(s) for s in r] for r in stats], "dh": dh, "edge": edge,
              "half_innings": opts.get("half_innings", 3_000),
              "min_visits": opts.get("min_visits", 300), "seed": opts.get("seed", 0)}
    return value_tables("pokemon_baseball", inputs,
                        lambda: sample_counts(stats, innings, dh, edge, inputs["half_innings"],
                                              inputs["min_visits"], inputs["seed"],
                                              bench=bench),
                        innings=innings, use_cache=opts.get("use_cache", True))


def _tables_for_teams(teams, innings: int) -> ValueTables:
    pool = load_creatures()
    names = teams or ("harbor", "summit")
    return pokemon_tables(tuple(tuple((c.hp, c.level, c.attack, c.retreat) for c in load_team(t, pool).roster)
                                for t in names), innings)


def win_expectancy(view: PokemonBaseballView) -> float:
    """The viewing manager's chance of winning this game, read off the value tables (before
    the first pitch: the chance from the top of the first)."""
    if view.over:
        raise ValueError("win_expectancy of a finished game: read the result instead")
    t = pokemon_tables(view.stats, view.innings, view.dh, view.edge, view.bench)
    home = t.win_expectancy(view.inning, view.half, min(view.outs, 3), _bases(view),
                            view.score[1] - view.score[0])
    return home if view.seat == 1 else 1.0 - home


def _fresh(view: PokemonBaseballView, team: int, candidates, only: bool = False) -> tuple:
    """The ``candidates`` who have not been in this game (with re-entry allowed, RULES.md
    P-2, a pitching change brings only them: a pitcher taken out is not brought back, nor
    anyone who has left, which also keeps two changes from undoing each other); all of them
    when none is fresh, unless ``only``."""
    fresh = tuple(k for k in candidates if view.status[team][k] == rules.BENCH)
    return fresh if fresh or only else tuple(candidates)


def _bases(view: PokemonBaseballView) -> tuple:
    return tuple(None if r < 0 else r for r in view.runners) if view.started else (None,) * 3


# -- the heuristic ---------------------------------------------------------------------------
class PokemonBaseballHeuristic(TablesHeuristic):
    """The rulebook heuristic.

    * **Lineup and batting order**: :func:`plan_lineup` from the rested creatures.
    * **Steal, bunt, tag-up**: the chart's odds for these creatures, each outcome priced by
      the batting team's win expectancy; the best option wins, ties to passing.
    * **Pinch hitter**: from the 7th inning on, the bench creature whose plate appearance
      against this pitcher is worth the most, when it beats the batter's by 0.05 runs (for
      the pitcher too: the pinch hitter takes the mound, and the next pitching-change offer
      weighs him against the bench).
    * **Pinch runner**: from the 8th inning on in a game within two runs, the fastest bench
      creature (lowest retreat) for a runner on second or third, other than the pitcher,
      whose retreat is 2 or more higher.
    * **Pitching change**, at the start of an inning: when the runs the best bench pitcher
      saves over the innings left, plus (in a series with games to come) the games of rest
      the pitcher is spared by leaving now, each priced at what he saves over the team's
      next-best pitcher in a game, come out positive.
    * **Substitute, replace an injured creature**: by why the creature leaves: the fastest
      runner for a runner, the best bat for the batter, the best pitcher for the mound, the
      best bat and glove for that position otherwise.
    """

    name = "heuristic"
    VIEW = PokemonBaseballView

    def build_tables(self, view: PokemonBaseballView, **table_options: Any) -> ValueTables:
        return pokemon_tables(view.stats, view.innings, view.dh, view.edge, view.bench,
                              **table_options)

    def table_inputs(self, view) -> tuple:
        return (view.stats, view.innings, view.dh, view.edge, view.bench)

    # -- valuing situations ------------------------------------------------------------
    def _batting_we(self, view: PokemonBaseballView, outs: int, bases, runs: int = 0) -> float:
        return self.tables(view).batting_win_expectancy(
            view.inning, view.half, min(outs, 3), bases_index(bases), view.lead + runs)

    def option_values(self, view: PokemonBaseballView) -> dict[int, float]:
        """Each legal action's value for the deciding manager (win expectancy for steals,
        bunts and tag-ups; a score for the other kinds). A pitching change's substitute is
        scored among the fresh arms only (:func:`_fresh`)."""
        kind = view.decision
        if kind in ("steal", "bunt", "tag_up"):
            values = getattr(self, "_value_" + kind)(view)
            return values if view.batting else {a: 1.0 - v for a, v in values.items()}
        return self._scores(view)

    def _levels(self, view: PokemonBaseballView, team: int) -> tuple[int, ...]:
        return tuple(view.stats[team][k][1] if k >= 0 else AVERAGE_LEVEL for k in view.field[team][:9])

    def _value_steal(self, view: PokemonBaseballView) -> dict[int, float]:
        o, bases = view.outs, _bases(view)
        t, f = view.half, 1 - view.half
        catcher = view.stats[f][view.at(f, 2)]
        pitcher = view.stats[f][view.pitcher(f)]
        p_error = sum(P2D6[r] for r in range(2, 13) if ch.ERROR[r][ch.error_column(catcher[1])] == ch.ERR)
        values = {PASS: self._batting_we(view, o, bases)}
        for a in view.legal:
            if a == PASS:
                continue
            base = a - RUNNER
            need = ch.steal_needs(view.stats[t][view.runners[base]][3],
                                  ch.steal_column(catcher[3], pitcher[3], base + 1))
            p_safe = sum(P2D6[r] for r in range(need, 13))
            safe, scored = advance_runner(bases, base, 1)
            extra, more = advance_all(safe, 1)
            v_safe = self._batting_we(view, o, safe, len(scored))
            v_extra = self._batting_we(view, o, extra, len(scored) + len(more))
            v_out = self._batting_we(view, o + 1, remove_runner(bases, base))
            p12 = P2D6[12]
            values[a] = ((p_safe - p12) * v_safe + p12 * (p_error * v_extra + (1 - p_error) * v_safe)
                         + (1 - p_safe) * v_out)
        return values

    def _value_bunt(self, view: PokemonBaseballView) -> dict[int, float]:
        o, bases = view.outs, _bases(view)
        t, f = view.half, 1 - view.half
        batter = view.batter
        level = view.stats[t][batter][1]
        lead = 1 if bases[1] is not None else 0
        col = ch.bunt_column(level, lead)
        pitcher_level = view.stats[f][view.pitcher(f)][1]
        p_error = sum(P2D6[r] for r in range(2, 13)
                      if ch.ERROR[r][ch.error_column(pitcher_level)] == ch.ERR)
        two_out = 1 if o == 2 else 0

        def we(outs, new, runs=0):
            return self._batting_we(view, outs, new, runs)

        def sac():
            if o + 1 >= 3:
                return we(3, bases)
            moved, scored = advance_all(bases, 1)
            return we(o + 1, moved, len(scored))

        total = 0.0
        for r in range(2, 13):
            result = ch.BUNT[r][col]
            if result == ch.SINGLE:
                moved, scored = advance_all(bases, 1 + two_out)
                v = we(o, (batter, moved[1], moved[2]), len(scored))
            elif result == ch.WALK:
                moved, scored = force_advance(bases, batter)
                v = we(o, moved, len(scored))
            elif result == ch.SUCCESS:
                v = sac()
            elif result == ch.SUCCESS_ERROR:
                moved, scored = advance_all(bases, 1, batter)
                v = p_error * we(o, moved, len(scored)) + (1 - p_error) * sac()
            elif result == ch.OUT:
                v = we(3, bases) if o + 1 >= 3 else we(o + 1, force_advance(remove_runner(bases, lead), batter)[0])
            elif result == ch.DOUBLE_PLAY:
                left = remove_runner(bases, lead)
                v = we(3, bases) if o + 2 >= 3 else we(o + 2, (None, left[0], None))
            else:                                   # strikeout, fly out
                v = we(o + 1, bases)
            total += P2D6[r] * v
        return {PASS: we(o, bases), YES: total}

    def _value_tag_up(self, view: PokemonBaseballView) -> dict[int, float]:
        o, bases = view.outs, _bases(view)
        t, f = view.half, 1 - view.half
        arm = view.stats[f][view.at(f, view.fielder)][3]
        p = _tag_up_chance(view.stats[t][bases[2]][3], arm)
        others, _ = advance_all((bases[0], bases[1], None), 1) if bases[0] is not None or bases[1] is not None \
            else ((None, None, None), [])
        return {PASS: self._batting_we(view, o, bases),
                YES: p * self._batting_we(view, o, others, 1) + (1 - p) * self._batting_we(view, o + 1, others)}

    # -- substitutions -------------------------------------------------------------------
    def _bat_value(self, view, k: int) -> float:
        t, f = view.half, 1 - view.half
        return pa_value(view.stats[t][k], view.stats[f][view.pitcher(f)], self._levels(view, f), view.edge)

    def _pitch_value(self, view, team: int, k: int) -> float:
        """Runs a batter ``k`` would save on the mound against the opponent's lineup, behind
        this team's fielders (his own level at pitcher: the Error (1) cells read it)."""
        opp = 1 - team
        batters = tuple(view.stats[opp][j] for j in view.lineup[opp] if j >= 0) or view.stats[opp]
        levels = (view.stats[team][k][1],) + self._levels(view, team)[1:]
        return pitching_value(view.stats[team][k], batters, levels, view.edge)

    def _rest_game_value(self, view, team: int, k: int) -> float:
        """Runs a game of rest for pitcher ``k`` costs: what he saves over the best other
        pitcher who may start the next game, over a game's plate appearances."""
        others = [j for j, r in enumerate(view.resting[team]) if j != k and r <= 1]
        if not others:
            return 0.0
        next_best = max(self._pitch_value(view, team, j) for j in others)
        return max(0.0, self._pitch_value(view, team, k) - next_best) * PA_PER_INNING * view.innings

    def _scores(self, view: PokemonBaseballView) -> dict[int, float]:
        """Scores of the substitution kinds: the action with the highest score is played."""
        kind, seat = view.decision, view.seat
        if kind in ("lineup", "batting_order"):
            positions, order = plan_lineup(view.stats[seat], view.stats[1 - seat],
                                           view.resting[seat], view.dh, view.edge)
            want = positions[view.subject - 1] if kind == "lineup" else order[view.subject]
            if CREATURE + want in view.legal:
                return {a: float(a == CREATURE + want) for a in view.legal}
            return {a: -(a - CREATURE) for a in view.legal}     # (never: the plan is legal)
        if kind == "offense_sub":
            return self._offense_scores(view)
        if kind == "defense_sub":
            return self._defense_scores(view)
        # substitute, replace_injured: why the creature leaves decides who comes in
        old = view.subject
        if seat == view.half and old in view.runners and old != view.batter:
            return {a: -view.stats[seat][a - CREATURE][3] for a in view.legal}     # pinch runner
        if seat == view.half and old == view.batter:
            return {a: self._bat_value(view, a - CREATURE) for a in view.legal}    # pinch hitter
        if old == view.pitcher(seat):       # only the fresh arms are scored (see _fresh)
            return {CREATURE + k: self._pitch_value(view, seat, k)
                    for k in _fresh(view, seat, [a - CREATURE for a in view.legal])}
        position = view.field[seat].index(old) + 1 if old in view.field[seat] else 0
        ref, pitcher = _mean_stats(view.stats[1 - seat]), view.stats[seat][view.pitcher(seat)]

        def worth(k: int) -> float:
            c = view.stats[seat][k]
            glove = fielding_value(c[1], position, pitcher, ref, view.edge) if 2 <= position <= 9 else 0.0
            return pa_value(c, ref, (AVERAGE_LEVEL,) * 9, view.edge) / 9 + glove
        return {a: worth(a - CREATURE) for a in view.legal}

    def _offense_scores(self, view: PokemonBaseballView) -> dict[int, float]:
        t = view.seat
        scores = {a: 0.0 for a in view.legal}
        bench = view.available(t)
        if not bench:
            return scores
        if PINCH_HIT in view.legal and view.inning >= 7:
            gain = max(self._bat_value(view, k) for k in bench) - self._bat_value(view, view.batter)
            scores[PINCH_HIT] = gain if gain >= 0.05 else -1.0
        fastest = min(view.stats[t][k][3] for k in bench)
        if view.inning >= 8 and abs(view.lead) <= 2:
            for i in (1, 2):
                k = view.runners[i]
                if (k >= 0 and RUNNER + i in view.legal and k != view.pitcher(t)
                        and view.stats[t][k][3] - fastest >= 2):
                    scores[RUNNER + i] = 0.01 * (view.stats[t][k][3] - fastest)
        return {a: (s if a == PASS or s > 0 else -1.0) for a, s in scores.items()}

    def _defense_scores(self, view: PokemonBaseballView) -> dict[int, float]:
        t = view.seat
        scores = {a: -1.0 for a in view.legal}
        scores[PASS] = 0.0
        change = POSITION          # the pitcher
        bench = _fresh(view, t, view.available(t), only=True)
        if change not in view.legal or not bench or view.outs or any(r >= 0 for r in view.runners):
            return scores
        now = view.pitcher(t)
        best = max(bench, key=lambda k: (self._pitch_value(view, t, k), -k))
        innings_left = max(view.innings - view.inning + 1, 1)
        # the runs the change saves (or costs) over the innings left in this game ...
        value = ((self._pitch_value(view, t, best) - self._pitch_value(view, t, now))
                 * PA_PER_INNING * innings_left)
        if view.games_left > 0:
            # ... and the games of rest he is spared by leaving now rather than finishing
            starter = view.starters[t] == now
            pitched = view.innings_pitched[t][now]
            spared = min(rest_for_innings(pitched + innings_left, starter)
                         - rest_for_innings(pitched, starter), view.games_left)
            value += spared * self._rest_game_value(view, t, now)
        if value > 0:
            scores[change] = value
        return scores

    # -- deciding ------------------------------------------------------------------------
    def decide(self, view: PokemonBaseballView) -> int:
        values = self.option_values(view)
        best = max(values.values())
        if values.get(PASS, -np.inf) >= best - 1e-12:
            return PASS
        return min(a for a, v in values.items() if v >= best - 1e-12)


class PokemonBaseballAlwaysNever(AlwaysNever, PokemonBaseballHeuristic):
    """Baseline: always (or never) take one yes/no option (``kind``, one of
    :data:`YES_NO_KINDS`); the heuristic decides the rest. "Always" takes the option the
    heuristic values most among the non-pass ones (:class:`dugout.agents.base.AlwaysNever`)."""
    KINDS, RULESET, PASS = YES_NO_KINDS, "Pokemon Baseball", PASS


def _search_view(state, seat: int, root: PokemonBaseballView) -> PokemonBaseballView:
    """A rollout's view for the search manager: the roster statistics and the series' games
    left copied from the searching manager's own view (no option labels: the heuristic reads
    none)."""
    return make_view(state, seat, stats=root.stats, games_left=root.games_left)


MANAGERS = Managers(
    heuristic=PokemonBaseballHeuristic, always_never=PokemonBaseballAlwaysNever,
    yes_no_kinds=YES_NO_KINDS, value_tables=_tables_for_teams, win_expectancy=win_expectancy,
    default_teams=("harbor", "summit"),
    search=SearchSpec("dugout.envs.pokemon_baseball.sample", "dugout.envs.pokemon_baseball.rules", _search_view,
                      kinds=rules.DECISION_KINDS))
