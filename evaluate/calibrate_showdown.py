"""Do MLB Showdown's real-statistics cards score like the real teams? The 2004 calibration.

Run it with::

    python -m dugout.evaluate.calibrate_showdown                 # all 30 teams, +-0.1 R/9 each
    python -m dugout.evaluate.calibrate_showdown --workers 2 --json calibration.json
    python -m dugout.evaluate.calibrate_showdown --games 1000     # a fixed number per team
    python -m dugout.evaluate.calibrate_showdown --teams bos2004 sea2004
    python -m dugout.evaluate.calibrate_showdown --backend ray --address 10.0.0.5:6379

What is measured
----------------
The thirty 2004 team files (``<lahman code>2004``, generated from the Lahman database by
:mod:`dugout.envs.realstats`) carry each team's real season: ``stats`` = games, runs,
runs allowed. For every team X, the engine plays basic-level games (Basic Setup: the
pitch and the swing only; no fatigue, icons, substitutions, extra bases or double plays)
of X's batting order against *league-average pitching*, and the simulated runs per nine
innings are set beside X's actual runs per game.

One game of team X, all through the engine (:mod:`dugout.envs.showdown.rules`; nothing
of the rules is re-implemented here):

* **The pitcher.** Every pitcher of every *other* team in X's league (AL or NL) goes into
  one pool, weighted by his real batters faced (his card's ``fit["bf"]``). Each game
  draws one pitcher from the pool; his team is the opponent. So the pitchers X faces are
  the league's pitching minus X's own staff, in proportion to how many batters each
  pitcher really faced. A reliever drawn pitches the whole game like a starter (the
  basic game has no fatigue and no pitching changes): the pool is a weighting of
  pitchers by plate appearances, not a model of a pitching staff.
* **The game.** X is the away team, so it always bats its nine innings; the opponent is
  at home. X's league decides the rules: DH for AL teams, the pitcher bats for NL teams
  (the team file's ``no_dh`` batting order with its pitcher's spot). It starts with
  ``rules.new_game((X, opponent), Dice(seed), level="basic", dh=...)``, which stops at the
  basic game's one decision, each manager's starting pitcher (away first). X's manager
  takes one of X's four starters at random (a legal action). The drawn pitcher may be a
  reliever, which Basic Setup 3 would not allow, so the home side's choice is set on the
  state in place of the decision (``state.starter[1]``); the engine's own ``play_ball``
  then puts him on the mound, in the home batting order's pitcher spot under NL rules,
  and in the box score; ``rules.run`` plays the game. (X's starter matters only for the
  box score: a pitcher at bat "never has the advantage", so the swing is read on the
  chart of the pitcher on the mound.)
* **The figure.** X's runs in innings 1-9 (``state.board.line[0][:9]``): runs per nine
  innings, R/9. Extra innings are not counted. A real team bats about 8.9 innings a game
  (the home team skips the bottom of the ninth when it leads; extra innings add some), so
  the actual R/G are about 1% below the same team's runs per nine innings: a simulated
  R/9 1% above R/G is a match.

Games per team: by default, as many as it takes to know the team's R/9 to +-0.1 at 95%
(``--half-width``): a pilot of 500 games estimates the standard deviation s of runs per
game, the team then plays ``ceil((1.96 s / 0.1)^2)`` games, and more if the interval from
all its games is still wider. s grows with the offense (about 2.7 runs for the weakest
2004 lineups, 3.7 for the best), so a team plays about 2,800 to 5,300 games, some 120,000
in all (about three minutes on two cores). ``--games N`` fixes N
instead. Every game has its own seed, a hash of (``--seed``, team, game number), which
seeds both the dice and the draw of the pitcher, so the results depend only on the seed
and the number of games, never on ``--workers`` (each team is played by one worker) or
on ``--backend``: with ``--backend ray`` each team is a Ray task, on the cluster at
``--address`` or on a Ray instance started here with ``--workers`` CPUs (default all); the
teams come back in the order given, and a team whose worker died is played again and
counted once (:mod:`dugout.evaluate.backends`).

What is printed
---------------
One row per team: league, games played, actual R/G (``stats.runs / stats.games``),
simulated R/9 with its 95% interval (mean +- 1.96 sd / sqrt(games)), and the difference
simulated minus actual. Then, across the teams: the mean actual R/G against the mean
simulated R/9 (overall and per league), the mean difference (a bias of the whole card
scale), the mean absolute difference, and the Pearson correlation of simulated with
actual (does the card set rank the offenses as they really were?). With fewer than
three teams the correlation says nothing and is printed for completeness only.

What the figures mean and what they leave out: the simulated offense faces
league-average pitching in a neutral game, while the real team also faced interleague
opponents, played half its games in its own park, used pinch hitters, pinch runners and
steals, and (in the NL) hit for its pitcher late in games; the basic game has no
baserunning at all: runners move only as many bases as the batter on a hit and never on
an out (no sacrifice flies, no runner scoring from second on a single), which costs runs
even when the cards reproduce each batter's real rates of walks, hits and outs. So a
negative mean difference is what the basic rules themselves give; a bias that differs
between the leagues, or a low correlation, would point at the cards. A high correlation
says the differences between teams survive.
``main(argv)`` returns the figures as a dict (what ``--json`` writes).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import random
import sys
import time
from bisect import bisect_right
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Sequence

import numpy as np

from ..envs.core.dice import Dice
from ..envs.showdown import rules
from ..envs.showdown.cards import PitcherCard, Team, builtin_team_names, load_team
from .backends import BACKENDS, INSTALL_HINT, BackendError, make_backend, ray_installed
from .stats import Z95

__all__ = ["main", "season_teams", "load_season", "LeaguePool", "league_pool", "game_seeds",
           "setup_game", "away_runs", "simulate_team", "TeamResult", "summarize",
           "format_table"]

SEASON = 2004
INNINGS = 9
HALF_WIDTH = 0.1            # default target: 95% half-width of a team's R/9
PILOT = 500                 # games before the first estimate of the standard deviation
MIN_STEP = 100              # the least number of games added after an estimate
MAX_GAMES = 200_000         # a ceiling per team, in case a team's runs vary wildly


# -- the teams and the pitcher pools ------------------------------------------------------
def season_teams(season: int = SEASON) -> list[str]:
    """The built-in team names of one season (``<lahman code><season>``), sorted."""
    suffix = str(season)
    return [n for n in builtin_team_names() if n.endswith(suffix) and n[:-4].isalpha()]


_TEAMS: dict[str, Team] = {}


def load_season(season: int = SEASON) -> dict[str, Team]:
    """Every team of the season by name (loaded once per process)."""
    names = season_teams(season)
    missing = [n for n in names if n not in _TEAMS]
    for name in missing:
        _TEAMS[name] = load_team(name)
    return {n: _TEAMS[n] for n in names}


@dataclass(frozen=True)
class LeaguePool:
    """The pitchers a team faces: every other team's pitchers in its league, by batters faced.

    ``entries[i]`` is (team name, roster index, batters faced); ``draw`` picks an entry with
    probability proportional to its batters faced.
    """
    team: str
    league: str
    entries: tuple[tuple[str, int, int], ...]
    cum_weights: tuple[int, ...]

    def draw(self, rng: random.Random) -> tuple[str, int]:
        i = bisect_right(self.cum_weights, rng.random() * self.cum_weights[-1])
        opp, k, _bf = self.entries[min(i, len(self.entries) - 1)]
        return opp, k


def league_pool(name: str, teams: dict[str, Team]) -> LeaguePool:
    """The pooled pitching staff of ``name``'s league without ``name``'s own pitchers."""
    league = teams[name].league
    entries = []
    for other in sorted(teams):
        team = teams[other]
        if other == name or team.league != league:
            continue
        for k, card in enumerate(team.players):
            if isinstance(card, PitcherCard):
                bf = int((card.fit or {}).get("bf", 0))
                if bf > 0:
                    entries.append((other, k, bf))
    if not entries:
        raise ValueError(f"{name}: no other {league} pitcher with batters faced (fit['bf'])")
    return LeaguePool(name, league, tuple(entries),
                      tuple(accumulate(bf for _, _, bf in entries)))


# -- one game ----------------------------------------------------------------------------
def game_seeds(seed: int, team: str, game: int) -> tuple[int, int]:
    """(dice seed, draw seed) of a team's game: a hash of the run's seed, team and game."""
    digest = hashlib.blake2b(f"showdown-calibration/{seed}/{team}/{game}".encode(),
                             digest_size=16).digest()
    return (int.from_bytes(digest[:8], "little") >> 1,
            int.from_bytes(digest[8:], "little") >> 1)


def setup_game(away: Team, home: Team, pitcher: int, away_starter: int, dice_seed: int,
               dh: bool) -> rules.GameState:
    """A basic game of ``away`` at ``home`` with ``home``'s roster player ``pitcher`` as its
    starting pitcher (any pitcher: starter, reliever or closer); ``rules.run`` plays it.

    The state is returned with both starting pitchers chosen and nothing else done:
    ``play_ball`` (the starters on the mound, in the pitcher spots under NL rules, in the
    box score) is the engine's next step. ``away_starter`` is a roster index of one of
    ``away``'s four starters.
    """
    if not isinstance(home.players[pitcher], PitcherCard):
        raise ValueError(f"{home.name}: roster player {pitcher} is not a pitcher")
    state = rules.new_game((away, home), Dice(dice_seed), level="basic", dh=dh,
                           innings=INNINGS, play=True)
    _expect_starter_choice(state, 0)
    rules.apply_action(state, rules.PLAYER + away_starter)    # legal: one of his starters
    _expect_starter_choice(state, 1)
    # Basic Setup 3 lets the manager choose among his starters only; the drawn pitcher may
    # be a reliever, so set what the decision would (rules.choose_starting_pitcher) and
    # let the engine's play_ball put him on the mound.
    state.pending = None
    state.starter[1] = pitcher
    return state


def _expect_starter_choice(state: rules.GameState, seat: int) -> None:
    decision = state.pending
    if (decision is None or decision.kind != "starting_pitcher" or decision.actor != seat
            or state.step != "choose_starter"):
        raise RuntimeError(f"expected the basic game's starting_pitcher decision for seat "
                           f"{seat}, found {decision} at step {state.step!r}: has the engine's "
                           f"setup changed?")


def away_runs(state: rules.GameState) -> int:
    """The away team's runs in innings 1-9 of a finished game."""
    line = state.board.line[0]
    if state.pending is not None or len(line) < INNINGS:
        raise ValueError("the game is not over, or the away team batted fewer than nine innings")
    return sum(line[:INNINGS])


def play_game(name: str, game: int, seed: int, teams: dict[str, Team], pool: LeaguePool
              ) -> tuple[int, rules.GameState, tuple[str, int]]:
    """Team ``name``'s game number ``game``: (its runs in innings 1-9, the finished state,
    the drawn pitcher as (team, roster index))."""
    dice_seed, draw_seed = game_seeds(seed, name, game)
    rng = random.Random(draw_seed)
    opp, k = pool.draw(rng)
    away = teams[name]
    starters = [i for i, c in enumerate(away.players)
                if isinstance(c, PitcherCard) and c.role == "starter"]
    away_starter = starters[rng.randrange(len(starters))]
    state = setup_game(away, teams[opp], k, away_starter, dice_seed, dh=away.league == "AL")
    rules.run(state)
    return away_runs(state), state, (opp, k)


# -- one team ----------------------------------------------------------------------------
@dataclass
class TeamResult:
    team: str
    name: str
    league: str
    actual_games: int
    actual_runs: int
    games: int
    runs: list[int]                 # runs in innings 1-9, game by game

    @property
    def actual(self) -> float:
        """Actual runs per game of the real season."""
        return self.actual_runs / self.actual_games

    @property
    def mean(self) -> float:
        return float(np.mean(self.runs))

    @property
    def sd(self) -> float:
        return float(np.std(self.runs, ddof=1)) if self.games > 1 else math.nan

    @property
    def half_width(self) -> float:
        return Z95 * self.sd / math.sqrt(self.games) if self.games > 1 else math.inf

    @property
    def diff(self) -> float:
        return self.mean - self.actual

    def figures(self) -> dict[str, Any]:
        return {
            "team": self.team, "name": self.name, "league": self.league,
            "actual_games": self.actual_games, "actual_runs": self.actual_runs,
            "actual_runs_per_game": self.actual,
            "games": self.games, "simulated_runs_per_9": self.mean, "sd": self.sd,
            "half_width_95": self.half_width,
            "interval_95": [self.mean - self.half_width, self.mean + self.half_width],
            "difference": self.diff,
            # runs_histogram[r]: games in which the team scored r runs in innings 1-9
            "runs_histogram": [int(c) for c in np.bincount(self.runs)],
        }


def games_needed(sd: float, half_width: float) -> int:
    """Games for a 95% interval of +-half_width on a mean of values with this sd."""
    return math.ceil((Z95 * sd / half_width) ** 2)


def simulate_team(name: str, seed: int, games: int | None = None,
                  half_width: float = HALF_WIDTH, season: int = SEASON) -> TeamResult:
    """Team ``name`` against its league's pitching: ``games`` games, or (None) enough for
    a 95% interval of +-``half_width`` on its runs per nine innings."""
    teams = load_season(season)
    pool = league_pool(name, teams)
    runs: list[int] = []

    def play_to(n: int) -> None:
        for g in range(len(runs), n):
            runs.append(play_game(name, g, seed, teams, pool)[0])

    if games is not None:
        play_to(games)
    else:
        play_to(PILOT)
        while True:
            need = games_needed(float(np.std(runs, ddof=1)), half_width)
            if len(runs) >= need or len(runs) >= MAX_GAMES:
                break
            play_to(min(MAX_GAMES, max(need, len(runs) + MIN_STEP)))
    team = teams[name]
    stats = team.stats or {}
    if not stats.get("games"):
        raise ValueError(f"{name}: the team file has no season stats (games, runs)")
    return TeamResult(name, team.name, team.league, int(stats["games"]), int(stats["runs"]),
                      len(runs), runs)


def _simulate(task: tuple[str, int, int | None, float, int]) -> TeamResult:
    return simulate_team(*task)


# -- across teams ------------------------------------------------------------------------
def summarize(results: Sequence[TeamResult]) -> dict[str, Any]:
    """Means, errors and the correlation across teams."""
    actual = np.array([r.actual for r in results])
    simulated = np.array([r.mean for r in results])
    diff = simulated - actual
    if len(results) >= 2 and actual.std() > 0 and simulated.std() > 0:
        correlation: float | None = float(np.corrcoef(actual, simulated)[0, 1])
    else:
        correlation = None                # undefined: fewer than two teams, or no spread
    by_league = {}
    for league in ("AL", "NL"):
        chosen = [r for r in results if r.league == league]
        if chosen:
            by_league[league] = {
                "teams": len(chosen),
                "mean_actual": float(np.mean([r.actual for r in chosen])),
                "mean_simulated": float(np.mean([r.mean for r in chosen])),
            }
    return {
        "teams": len(results),
        "games": int(sum(r.games for r in results)),
        "mean_actual": float(actual.mean()),
        "mean_simulated": float(simulated.mean()),
        "mean_difference": float(diff.mean()),
        "mean_absolute_error": float(np.abs(diff).mean()),
        "rmse": float(np.sqrt(np.mean(diff ** 2))),
        "correlation": correlation,
        "by_league": by_league,
    }


COLUMNS = ("team", "lg", "games", "actual R/G", "sim R/9", "95% interval", "diff")


def format_table(results: Sequence[TeamResult]) -> str:
    rows = [COLUMNS]
    for r in results:
        rows.append((r.team, r.league, f"{r.games:,}", f"{r.actual:.2f}", f"{r.mean:.2f}",
                     f"{r.mean - r.half_width:.2f}-{r.mean + r.half_width:.2f}",
                     f"{r.diff:+.2f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [c.rjust(w) for c, w in zip(row[2:], widths[2:])]
        lines.append("  ".join(cells))
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_summary(summary: dict[str, Any]) -> str:
    s = summary
    lines = [f"mean over {s['teams']} teams: actual {s['mean_actual']:.2f} R/G, simulated "
             f"{s['mean_simulated']:.2f} R/9 (difference {s['mean_difference']:+.2f})"]
    for league, d in s["by_league"].items():
        lines.append(f"  {league} ({d['teams']} teams): actual {d['mean_actual']:.2f} R/G, "
                     f"simulated {d['mean_simulated']:.2f} R/9")
    lines.append(f"mean absolute difference {s['mean_absolute_error']:.3f} runs "
                 f"(root mean square {s['rmse']:.3f})")
    r = s["correlation"]
    note = "" if s["teams"] >= 3 else " (fewer than three teams: meaningless)"
    lines.append("Pearson correlation of simulated with actual across teams: "
                 + ("n/a" if r is None else f"{r:.3f}") + note)
    return "\n".join(lines)


# -- the run -----------------------------------------------------------------------------
def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m dugout.evaluate.calibrate_showdown",
        description="MLB Showdown calibration: each 2004 team's lineup against its league's "
                    "bf-weighted pitching under the basic rules; simulated runs per nine "
                    "innings against the real runs per game.")
    parser.add_argument("--games", type=int, metavar="N",
                        help="games per team (default: enough for a 95%% half-width of "
                             "--half-width runs, about 4,000)")
    parser.add_argument("--half-width", type=float, default=HALF_WIDTH, metavar="H",
                        help=f"without --games: the 95%% half-width to reach on each team's "
                             f"R/9 (default {HALF_WIDTH})")
    parser.add_argument("--workers", type=int, default=None, metavar="W",
                        help="worker processes, one team at a time each (default 1); with "
                             "--backend ray, the CPUs of the Ray instance started here (default "
                             "all), or with --address at most this many teams at once")
    parser.add_argument("--backend", choices=BACKENDS, default="process",
                        help=f"process: this machine (default); ray: each team is a Ray task "
                             f"(needs Ray: {INSTALL_HINT})")
    parser.add_argument("--address", metavar="ADDR",
                        help="with --backend ray: the cluster's address (HOST:PORT as `ray start "
                             "--head` prints it, ray://HOST:PORT or auto); default: Ray on this machine")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--teams", nargs="+", metavar="TEAM",
                        help=f"only these teams (default: all {SEASON} teams)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures to PATH as JSON")
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 2:
        parser.error("--games must be at least 2")
    if not args.half_width > 0:
        parser.error("--half-width must be positive")
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.address is not None and args.backend != "ray":
        parser.error(f"--address {args.address}: the address of a Ray cluster goes with "
                     f"--backend ray (this run's backend is {args.backend})")
    if args.backend == "ray" and not ray_installed():
        parser.error(f"--backend ray needs Ray, which is not installed here: {INSTALL_HINT}")
    if args.backend == "process":
        args.workers = args.workers or 1
    if args.seed < 0:
        parser.error("--seed must be non-negative")
    known = season_teams()
    if args.teams:
        unknown = [t for t in args.teams if t not in known]
        if unknown:
            parser.error(f"unknown team(s) {unknown}; the {SEASON} teams are {', '.join(known)}")
        args.teams = list(dict.fromkeys(args.teams))
    else:
        args.teams = known
    return args


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the calibration, print the table and the summary, and return the figures."""
    args = parse_args(argv)
    size = (f"{args.games:,} games per team" if args.games is not None
            else f"games per team for a 95% half-width of {args.half_width:g} runs")
    where = (f"{args.workers} worker(s)" if args.backend == "process" else
             f"on Ray ({args.address or 'a local instance'})")
    print(f"MLB Showdown {SEASON} calibration: each team's lineup (away, nine innings) against "
          f"its league's pitching weighted by batters faced, basic rules; {size}, "
          f"seed {args.seed}, {where}")
    print()
    start = time.perf_counter()
    tasks = [(name, args.seed, args.games, args.half_width, SEASON) for name in args.teams]
    results: list[TeamResult] = []
    if args.backend == "ray":
        try:
            results = _on_ray(tasks, args.workers, args.address)
        except BackendError as error:
            sys.exit(f"calibrate_showdown: error: {error}")
    elif args.workers == 1 or len(tasks) == 1:
        for task in tasks:
            results.append(_simulate(task))
            _progress(results[-1], len(results), len(tasks))
    else:
        with ProcessPoolExecutor(min(args.workers, len(tasks)), mp_context=_context()) as pool:
            for result in pool.map(_simulate, tasks):
                results.append(result)
                _progress(result, len(results), len(tasks))
    seconds = time.perf_counter() - start

    summary = summarize(results)
    print(format_table(results))
    print()
    print(format_summary(summary))
    print(f"{summary['games']:,} games in {seconds:.1f} s")
    print("(R/G: real runs per game, about 8.9 innings a game; R/9: simulated runs in "
          "innings 1-9)")

    settings = {"season": SEASON, "games": args.games, "half_width": args.half_width,
                "seed": args.seed, "workers": args.workers, "teams": args.teams,
                "level": "basic", "innings": INNINGS}
    if args.backend != "process":
        settings.update(backend=args.backend, address=args.address)
    figures = {
        "settings": settings,
        "teams": [r.figures() for r in results],
        "summary": summary,
        "seconds": seconds,
    }
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
            f.write("\n")
        print(f"Figures written to {args.json}")
    return figures


def _on_ray(tasks: list[tuple], workers: int | None, address: str | None) -> list[TeamResult]:
    """Each team a Ray task (:class:`dugout.evaluate.backends.RayCluster`); the results in
    the order of ``tasks``, each team counted once."""
    results: dict[int, TeamResult] = {}

    def accept(i: int, result: TeamResult) -> None:
        if i not in results:
            results[i] = result
            _progress(result, len(results), len(tasks))

    with make_backend("ray", workers, address) as backend:
        backend.run(_simulate, ((i, (task,)) for i, task in enumerate(tasks)), accept,
                    describe=lambda i: f"team {tasks[i][0]}")
    return [results[i] for i in range(len(tasks))]


def _progress(result: TeamResult, done: int, total: int) -> None:
    print(f"  [{done}/{total}] {result.team}: {result.games:,} games, {result.mean:.2f} R/9",
          file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
