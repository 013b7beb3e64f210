"""Managers for That's Baseball: the rulebook heuristic, its always/never baselines, and
the value tables they use.

Every decision in That's Baseball trades one situation for a lottery over a few
others whose odds the rulebook prints (a steal is safe on 4-6 of one die; a pickoff
retires the runner on a 12 of two dice and throws the ball away on a 2; ...). The
heuristic prices each lottery with the win-expectancy table of the two lineups
(:mod:`dugout.agents.value_tables`) and takes the option worth the most to its team.

What it reads from the engine: the odds from the charts
(:mod:`dugout.envs.thats_baseball.charts`), where the runners go on each play from the
engine's ``bases_after_*`` functions, and the value tables are sampled by playing the
engine's own rules from :func:`~dugout.envs.thats_baseball.rules.start_half_inning`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..envs.core.dice import Dice
from ..envs.core.scorebook import BoxScore
from ..envs.thats_baseball import charts, rules
from ..envs.thats_baseball.cards import lineup_team, load_team
from ..envs.thats_baseball.view import ThatsBaseballView, make_view
from .search import SearchSettings, SearchSpec
from .base import AlwaysNever, Managers, TablesHeuristic
from .value_tables import ValueTables, bases_index, play_half_inning, value_tables
from .value_tables import sample_run_counts as _sample_run_counts

__all__ = ["ThatsBaseballHeuristic", "ThatsBaseballAlwaysNever", "thats_baseball_tables", "win_expectancy",
           "sample_run_counts", "reference_action", "YES_NO_KINDS", "MANAGERS"]

PASS, ROLL = rules.PASS, rules.ROLL
#: The decisions that are a yes/no choice, for the always/never baselines.
YES_NO_KINDS = ("steal", "pickoff", "error_roll", "double_play", "tag_up")

# The rulebook's odds, read off the engine's charts (dugout.envs.thats_baseball.charts).
STEAL_SAFE = float(charts.STEAL.chance("safe"))                 # 1i: 4-6 on one die
PICKOFF_OUT = float(charts.PICKOFF.chance("picked_off"))        # 1j: 12 on two dice
PICKOFF_ERROR = float(charts.PICKOFF.chance("error"))           # 1j: 2 on two dice
ERROR_ON_GROUNDER = float(charts.ERROR.chance("error"))         # 1m: 12 on two dice
DOUBLE_PLAY = float(charts.DOUBLE_PLAY.chance("turned"))        # 1k: 4-6 on one die
TAG_UP_SAFE = float(charts.TAG_UP.chance("advanced"))           # 1l: 5-6 on one die


# -- the reference policy and the run distributions -----------------------------------
def reference_action(state, decision) -> int:
    """The policy the value tables are sampled under: no steals and no pickoffs (each
    is a gamble the tables are meant to price), every free roll taken (error, tag-up),
    the double play always tried, and the lead runner doubled off."""
    kind = decision.kind
    if kind in ("steal", "pickoff"):
        return PASS
    if kind == "dp_runner":
        return max(decision.legal)
    return ROLL


def sample_run_counts(lineups, half_innings: int = 20_000, min_visits: int = 1_000,
                      seed: int = 0, max_runs: int = 20) -> np.ndarray:
    """Run distributions (team, outs, bases, runs) for two lineups of adjusted averages,
    sampled through the engine's own rules under :func:`reference_action`
    (:func:`dugout.agents.value_tables.sample_run_counts`)."""
    teams = tuple(lineup_team(f"team {t}", lineups[t]) for t in (0, 1))
    dice = Dice(seed)
    box = [None]

    def bat_half_inning(team: int, k: int, outs: int, bases: int, counts: np.ndarray) -> None:
        if k % 512 == 0 or box[0] is None:          # a fresh box score now and then: memory only
            box[0] = BoxScore(["away", "home"], [[(b.name, "") for b in t.batters] for t in teams])
        leadoff = k % 9
        state = rules.start_half_inning(      # a half inning that never ends the game
            teams, dice, inning=k + 1, half=team, outs=outs,
            runners=rules.runners_before(leadoff, bases), leadoff=leadoff,
            fielding_next=leadoff, box=box[0])
        play_half_inning(state, team, rules, "start_pa", reference_action, counts, max_runs)

    return _sample_run_counts(bat_half_inning, half_innings, min_visits, max_runs)


@lru_cache(maxsize=32)
def thats_baseball_tables(lineups: tuple[tuple[int, ...], tuple[int, ...]], innings: int = 9,
                          half_innings: int = 30_000, min_visits: int = 1_500, seed: int = 0,
                          use_cache: bool = True) -> ValueTables:
    """Value tables for two lineups of adjusted averages (away, home), cached on disk."""
    lineups = tuple(tuple(int(a) for a in lineup) for lineup in lineups)
    inputs = {"lineups": [list(x) for x in lineups], "half_innings": half_innings,
              "min_visits": min_visits, "seed": seed, "policy": "reference-v1",
              "engine": "thats_baseball-1"}
    return value_tables("thats_baseball_v0", inputs,
                        lambda: sample_run_counts(lineups, half_innings, min_visits, seed),
                        innings=innings, use_cache=use_cache)


# -- the rulebook heuristic -----------------------------------------------------------
def _ids(bases) -> tuple:
    """Occupied flags as a bases tuple the core's runner functions accept."""
    return tuple(i if occupied else None for i, occupied in enumerate(bases))


class ThatsBaseballHeuristic(TablesHeuristic):
    """The rulebook heuristic: each choice priced in win expectancy.

    A manager's reasoning, decision by decision (odds from the rulebook, values from
    the two lineups' win-expectancy table; "WE" = the deciding team's chance to win):

    * **Steal** (batting): a steal is safe half the time (4-6). Run only when that beats
      the break-even rate of this state, ``(WE(hold) - WE(out)) / (WE(safe) - WE(out))``.
      With a 50% runner that is rare: stealing home with two outs (the run is worth
      more than the inning that is nearly over), or a runner who matters only if he
      scores late in a close game. When several runners could go, the one whose
      attempt gains the most goes; a runner is never sent when standing still is better.
    * **Pickoff** (fielding): a throw retires the runner on a 12 and throws the ball away
      on a 2. Throw at the runner whose out gains more than his extra base costs
      (almost always: an out is worth more than a base), else hold the ball.
    * **Error roll** (batting): always roll. A 12 puts the batter on; anything else is the
      ground out that happens anyway: a free chance.
    * **Double-play roll** (fielding): 4-6 gets a second out (the other runners move up
      a base), 1-3 moves the runner from first to second, forcing runners ahead.
      Roll when the gamble gains win expectancy: usually with fewer runs at stake
      ahead of the runner than the out is worth.
    * **Which runner to double up** (fielding): the one whose out leaves the batting
      team the lowest win expectancy (usually the lead runner, who is closest to scoring).
    * **Tag-up** (batting): always roll; the runner holds on 1-4 and is never out.
    """

    name = "heuristic"
    VIEW = ThatsBaseballView

    def build_tables(self, view: ThatsBaseballView, **table_options: Any) -> ValueTables:
        return thats_baseball_tables(view.lineups, view.innings, **table_options)

    def table_inputs(self, view) -> tuple:
        return (view.lineups, view.innings)

    # -- valuing situations ------------------------------------------------------------
    def _batting_we(self, view: ThatsBaseballView, outs: int, bases, runs: int = 0) -> float:
        """The batting team's WE in this half inning with ``outs``, ``bases`` and ``runs`` more."""
        return self.tables(view).batting_win_expectancy(
            view.inning, view.half, outs, bases_index(bases), view.lead + runs)

    def option_values(self, view: ThatsBaseballView) -> dict[int, float]:
        """Each legal action's win expectancy for the deciding manager's team."""
        values = getattr(self, "_value_" + view.decision)(view)
        if not view.batting:
            values = {a: 1.0 - v for a, v in values.items()}
        return values

    # Every _value_<kind> returns the batting team's WE after each legal action.
    def _value_steal(self, view: ThatsBaseballView) -> dict[int, float]:
        o, bases = view.outs, _ids(view.bases)
        values = {PASS: self._batting_we(view, o, bases)}
        for a in view.legal:
            if a == PASS:
                continue
            base = a - 1
            safe, scored = rules.bases_after_advance(bases, base)
            out, _ = rules.bases_after_out(bases, base)
            values[a] = (STEAL_SAFE * self._batting_we(view, o, safe, len(scored))
                         + (1 - STEAL_SAFE) * self._batting_we(view, o + 1, out))
        return values

    def _value_pickoff(self, view: ThatsBaseballView) -> dict[int, float]:
        o, bases = view.outs, _ids(view.bases)
        hold = self._batting_we(view, o, bases)
        values = {PASS: hold}
        for a in view.legal:
            if a == PASS:
                continue
            base = a - 1
            picked = self._batting_we(view, o + 1, rules.bases_after_out(bases, base)[0])
            error, scored = rules.bases_after_pickoff_error(bases, base)
            thrown_away = self._batting_we(view, o, error, len(scored))
            values[a] = (PICKOFF_OUT * picked + PICKOFF_ERROR * thrown_away
                         + (1 - PICKOFF_OUT - PICKOFF_ERROR) * hold)
        return values

    def _value_error_roll(self, view: ThatsBaseballView) -> dict[int, float]:
        o, bases = view.outs, _ids(view.bases)
        ground_out = self._batting_we(view, o + 1, bases)    # runners hold (double play aside)
        on_error, scored = rules.bases_after_error(bases, 9)
        error = self._batting_we(view, o, on_error, len(scored))
        return {PASS: ground_out, ROLL: ERROR_ON_GROUNDER * error + (1 - ERROR_ON_GROUNDER) * ground_out}

    def _double_up(self, view: ThatsBaseballView, base: int) -> float:
        o, bases = view.outs, _ids(view.bases)              # the batter's out is already made
        rest, scored = rules.bases_after_double_play(bases, base)
        if o + 1 >= 3:
            return self._batting_we(view, 3, rest)             # no run scores on the third out
        return self._batting_we(view, o + 1, rest, len(scored))

    def _value_double_play(self, view: ThatsBaseballView) -> dict[int, float]:
        o, bases = view.outs, _ids(view.bases)
        missed, scored = rules.bases_after_missed_double_play(bases)
        best_dp = min(self._double_up(view, b) for b in range(3) if bases[b] is not None)
        return {PASS: self._batting_we(view, o, bases),
                ROLL: DOUBLE_PLAY * best_dp
                + (1 - DOUBLE_PLAY) * self._batting_we(view, o, missed, len(scored))}

    def _value_dp_runner(self, view: ThatsBaseballView) -> dict[int, float]:
        return {a: self._double_up(view, a - 1) for a in view.legal}

    def _value_tag_up(self, view: ThatsBaseballView) -> dict[int, float]:
        o, bases = view.outs, _ids(view.bases)
        moved, scored = rules.bases_after_advance(bases, view.subject)
        hold = self._batting_we(view, o, bases)
        return {PASS: hold,
                ROLL: TAG_UP_SAFE * self._batting_we(view, o, moved, len(scored)) + (1 - TAG_UP_SAFE) * hold}

    # -- deciding ------------------------------------------------------------------------
    def decide(self, view: ThatsBaseballView) -> int:
        if view.decision in ("error_roll", "tag_up"):
            return ROLL                                         # free rolls
        values = self.option_values(view)
        best = max(values.values())
        # ties go to the quiet option (pass), then the lowest action
        return PASS if values.get(PASS, -1.0) >= best - 1e-12 else min(
            a for a, v in values.items() if v >= best - 1e-12)


class ThatsBaseballAlwaysNever(AlwaysNever, ThatsBaseballHeuristic):
    """Baseline: always (or never) take one yes/no option (``kind``, one of
    :data:`YES_NO_KINDS`); the heuristic decides the rest. "Always" takes the option the
    heuristic values most among the non-pass options (which runner steals, which is
    thrown at); "never" passes (:class:`dugout.agents.base.AlwaysNever`)."""
    KINDS, RULESET, PASS = YES_NO_KINDS, "That's Baseball", PASS


def win_expectancy(view: ThatsBaseballView) -> float:
    """The viewing manager's chance of winning from his view, read off the value tables
    (at the start of the plate appearance the view is in). Used as a potential for reward
    shaping in training (:mod:`dugout.train.adapter`)."""
    if view.over:
        raise ValueError("win_expectancy of a finished game: read the result instead")
    t = thats_baseball_tables(view.lineups, view.innings)
    home = t.win_expectancy(view.inning, view.half, min(view.outs, 3), bases_index(view.bases),
                            view.score[1] - view.score[0])
    return home if view.seat == 1 else 1.0 - home


def _tables_for_teams(teams, innings: int) -> ValueTables:
    return thats_baseball_tables(tuple(load_team(t).aas for t in teams), innings)


def _search_view(state, seat: int, root: ThatsBaseballView) -> ThatsBaseballView:
    """A rollout's view for the search manager (no option labels: the heuristic reads none).

    The search's default here plays its rollouts to the end of the game (a game of rollouts
    costs milliseconds, and the table's win expectancy is the reference policy's, not the
    heuristic's) and overrules the heuristic only beyond 3 standard errors: the heuristic is
    within a tenth of a point of optimal (the exact solver), so nearly every apparent gain is
    noise, and each false one costs."""
    return make_view(state, seat)


MANAGERS = Managers(
    heuristic=ThatsBaseballHeuristic, always_never=ThatsBaseballAlwaysNever,
    yes_no_kinds=YES_NO_KINDS, value_tables=_tables_for_teams, win_expectancy=win_expectancy,
    default_teams=("sample", "sample"),
    extra={"solver": "dugout.agents.solvers.thats_baseball:SolverAgent"},
    search=SearchSpec("dugout.envs.thats_baseball.sample", "dugout.envs.thats_baseball.rules", _search_view,
                      SearchSettings(sims=16, batch=8, horizon=0, z=3.0), kinds=rules.DECISION_KINDS))
