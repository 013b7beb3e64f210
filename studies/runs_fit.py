"""The runs fit's search: each team's boost, found in the calibration's advanced games.

The default fit, the *rates fit* (:mod:`dugout.envs.realstats.fit`), makes every card reproduce its player's real
per-plate-appearance rates. Played through the rules, those rates score fewer runs than the
real teams did: in the 2004 calibration at the advanced level, with heuristic managers on
both sides, the thirty teams score 0.7 runs a game too few on average. The runs fit changes
one number per team, its *boost*: every hitter's on-base rates (walks, singles, doubles,
triples, homers) times ``1 + boost``, his outs scaled to match
(:func:`dugout.envs.realstats.fit.raise_on_base`), before his card is fitted exactly as the rates fit fits it.
Everything else (pitchers, Speed, Fielding, icons, points) is the rates fit's. The boost is
found by simulation, in the calibration benchmark's own games
(:mod:`dugout.studies.calibrate_showdown`): the team plays every other team of its league
in turn, at the advanced level, heuristic managers on both sides; its simulated runs per
nine innings must equal its real runs per game.

The search (:func:`fit_boosts`) fits a straight line per team: start at boost 0 (the rates
fit) and play ``games`` games per team; then, after every iteration, draw each team's line
of runs against boost through its mean boost and mean runs over all its iterations, with
one slope for all teams (runs a game per unit of boost, fitted by least squares over every
team's iterations; before the second iteration it is :data:`PRIOR_SLOPE`), and take the
boost where the line meets the team's real runs per game (:func:`next_boost`). After one
iteration that is Newton's step; later, every iteration's games count, so the noise of
the last one's is not all that is left. A team's runs depend on its own hitters and the
other staffs, which the fit does not change; the opponents' hitters, boosted too, bat in
the same games and touch the team's runs only through the managers' choices (the
inning's score, the value tables). Every iteration plays the same seeds, so the games
differ between iterations only where the cards do. A boost held at the edge of
:data:`BOOST_RANGE`, or a measured slope held to a third or three times the prior, is
reported in the fit's ``warnings``: such a fit has not converged.

``dugout runs-fit --season 2004 --workers 2 --write`` (or ``python -m
dugout.studies.runs_fit ...``) fits the thirty 2004 teams and stores the boosts in
:mod:`dugout.envs.realstats`'s ``data/runs_fit.json`` (``--teams BOS`` fits one team
against its league); :mod:`dugout.envs.realstats.runs_fit` reads them and ``dugout
realstats --fit runs`` makes the cards. The season, the teams and the files written are
checked before the first game. METHOD.md,
"The runs fit", has the method and the figures.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..cli import args
from ..envs.realstats.lahman import FIRST_SEASON, LahmanData, default_data
from ..envs.realstats.runs_fit import league_ids, league_teams, store_path, stored_boosts, team_name
from . import calibrate_showdown as cal

__all__ = ["PRIOR_SLOPE", "BOOST_RANGE", "RunsFit", "fit_boosts", "common_slope", "next_boost",
           "check_settings", "write_store", "configure", "check", "run", "main"]

#: Runs a game per unit of boost before any is measured (about 10 for the 2004 teams).
PRIOR_SLOPE = 10.0
#: A boost is held within this range (the measured slope is held to a third..3x the prior).
BOOST_RANGE = (-0.5, 0.5)
LEVEL = "advanced"
GAMES = 1000
ITERATIONS = 3
SEED = 1                 # the calibration's default seed is 0: the fit is checked on fresh games



@dataclass
class RunsFit:
    """The result of :func:`fit_boosts`: the boosts and every iteration's figures."""

    season: int
    level: str
    games: int
    seed: int
    boosts: dict[str, float]                       # team code -> the fitted boost
    actual: dict[str, float]                       # team code -> real runs per game
    iterations: list[dict[str, dict[str, float]]] = field(default_factory=list)
    slopes: list[float] = field(default_factory=list)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)   # held boosts or slopes: not converged

    def to_dict(self) -> dict[str, Any]:
        return {"season": self.season, "level": self.level, "games": self.games,
                "seed": self.seed, "slopes": [round(s, 4) for s in self.slopes],
                "seconds": round(self.seconds, 1), "warnings": list(self.warnings),
                "teams": {t: {"boost": round(self.boosts[t], 4),
                              "actual": round(self.actual[t], 4),
                              "iterations": [{k: round(v, 4) for k, v in it[t].items()}
                                             for it in self.iterations]}
                          for t in sorted(self.boosts)}}


def _means(iterations: Sequence[dict[str, dict[str, float]]], team: str) -> tuple[float, float]:
    """A team's mean boost and mean simulated runs over the iterations."""
    n = len(iterations)
    return (sum(it[team]["boost"] for it in iterations) / n,
            sum(it[team]["simulated"] for it in iterations) / n)


def common_slope(iterations: Sequence[dict[str, dict[str, float]]]) -> float | None:
    """Runs a game per unit of boost: least squares over every team's iterations, one line
    per team (its own intercept), one slope for all; None while no team has two boosts."""
    num = den = 0.0
    for team in iterations[0]:
        mb, ms = _means(iterations, team)
        num += sum((it[team]["boost"] - mb) * (it[team]["simulated"] - ms) for it in iterations)
        den += sum((it[team]["boost"] - mb) ** 2 for it in iterations)
    return num / den if den > 0 else None


def next_boost(iterations: Sequence[dict[str, dict[str, float]]], team: str, actual: float,
               slope: float) -> float:
    """Where the team's line (the common ``slope`` through its mean boost and mean runs over
    every iteration) meets its real runs. After one iteration this is Newton's step; after
    more, every iteration's games count, not only the last one's."""
    mb, ms = _means(iterations, team)
    return mb + (actual - ms) / slope


def _held(x: float, low: float, high: float) -> float:
    return min(max(x, low), high)


def check_settings(games: int, iterations: int, workers: int = 1) -> str | None:
    """What is wrong with a fit's settings, or None."""
    if games < 2:
        return f"games must be at least 2, got {games}"
    if iterations < 1:
        return f"iterations must be at least 1, got {iterations}"
    if workers < 1:
        return f"workers must be at least 1, got {workers}"
    return None


def fit_boosts(season: int, team_ids: Sequence[str], *, data: LahmanData | None = None,
               games: int = GAMES, iterations: int = ITERATIONS, seed: int = SEED,
               workers: int = 1, level: str = LEVEL,
               progress: Callable[[str], None] | None = None) -> RunsFit:
    """Fit the boosts of ``team_ids`` (Lahman codes of one season): ``iterations`` rounds of
    ``games`` calibration games per team, each followed by a Newton step (module docstring).
    The other teams of their leagues keep their stored boosts (0 where none is stored)."""
    problem = check_settings(games, iterations, workers)
    if problem:
        raise ValueError(problem)
    if level not in cal.MANAGED_LEVELS:
        raise ValueError(f"level must be one of {', '.join(cal.MANAGED_LEVELS)}, got {level!r}")
    data = data or default_data()
    team_ids = sorted({t.upper() for t in team_ids})
    if not team_ids:
        raise ValueError("no team to fit")
    say = progress or (lambda line: None)
    boosts = {**stored_boosts(season), **{t: 0.0 for t in team_ids}}
    actual = {}
    start = time.perf_counter()
    fit = RunsFit(season, level, games, seed, {}, actual)
    loaded: dict[str, Any] = {}                     # the seasons read once, for every iteration
    for k in range(iterations):
        teams = league_teams(data, season, team_ids, boosts, loaded)
        tasks = [(team_name(t, season), seed, games, cal.HALF_WIDTH, season, level, teams)
                 for t in team_ids]
        results = cal.play_teams(tasks, "process", workers)
        round_ = {}
        for t, r in zip(team_ids, results):
            actual[t] = r.actual
            round_[t] = {"boost": boosts[t], "simulated": r.mean, "half_width": r.half_width}
        fit.iterations.append(round_)
        measured = common_slope(fit.iterations)
        slope = PRIOR_SLOPE if measured is None else _held(measured, PRIOR_SLOPE / 3,
                                                           PRIOR_SLOPE * 3)
        if measured is not None and slope != measured:
            fit.warnings.append(f"iteration {k + 1}: the measured slope {measured:.2f} was held "
                                f"to {slope:.2f}")
        fit.slopes.append(slope)
        for t in team_ids:
            wanted = next_boost(fit.iterations, t, actual[t], slope)
            boosts[t] = _held(wanted, *BOOST_RANGE)
            if boosts[t] != wanted:
                fit.warnings.append(f"iteration {k + 1}: {t}'s boost {wanted:+.4f} was held to "
                                    f"{boosts[t]:+.4f} (BOOST_RANGE)")
        mad = sum(abs(actual[t] - round_[t]["simulated"]) for t in team_ids) / len(team_ids)
        say(f"iteration {k + 1}/{iterations}: mean |simulated - real| {mad:.3f} runs, slope "
            f"{slope:.2f} runs per unit of boost, {time.perf_counter() - start:.0f} s")
    fit.boosts = {t: boosts[t] for t in team_ids}
    fit.seconds = time.perf_counter() - start
    return fit


def write_store(fit: RunsFit, path: Path | None = None) -> Path:
    """Put ``fit``'s boosts into the stored file (other seasons and teams are kept)."""
    path = path or store_path()
    store = json.loads(path.read_text("utf-8")) if path.exists() else {}
    store["about"] = ("The runs fit's boosts (dugout.envs.realstats.runs_fit): every hitter's "
                      "on-base rates times 1 + boost. Written by python -m "
                      "dugout.studies.runs_fit --write.")
    season = store.setdefault("seasons", {}).setdefault(str(fit.season), {})
    for t, b in fit.boosts.items():
        last = fit.iterations[-1][t]
        season[t] = {"boost": round(b, 4), "actual": round(fit.actual[t], 4),
                     "level": fit.level, "games": fit.games, "iterations": len(fit.iterations),
                     "seed": fit.seed, "last_simulated": round(last["simulated"], 4),
                     "last_boost": round(last["boost"], 4)}
    store["seasons"][str(fit.season)] = dict(sorted(season.items()))
    path.write_text(json.dumps(store, indent=1) + "\n", encoding="utf-8")
    return path


#: The latest season ``--season`` takes: this year (the database's own last season is
#: checked against the data in ``check``).
LAST_SEASON = datetime.date.today().year
#: The most iterations of ``--iterations``.
MAX_ITERATIONS = 100
LEAGUES = {"AL", "NL"}


def configure(parser: args.Parser) -> None:
    """``dugout runs-fit``'s flags."""
    parser.add_argument("--season", required=True,
                        type=args.integer(FIRST_SEASON, LAST_SEASON, "a season"),
                        help=f"the season, from {FIRST_SEASON} to {LAST_SEASON} (one the Lahman "
                             f"database holds, with American or National League teams)")
    parser.add_argument("--teams", nargs="+", metavar="CODE",
                        help="Lahman team codes of the season's American or National League "
                             "(default: every team of the season)")
    parser.add_argument("--games", type=args.count(2, cal.MAX_GAMES, "games a team"),
                        default=GAMES, help=f"games per team and iteration, from 2 to "
                                            f"{cal.MAX_GAMES:,} (default {GAMES})")
    parser.add_argument("--iterations", type=args.count(1, MAX_ITERATIONS, "iterations"),
                        default=ITERATIONS,
                        help=f"Newton steps, from 1 to {MAX_ITERATIONS} (default {ITERATIONS})")
    parser.add_argument("--seed", type=args.seed, default=SEED,
                        help=f"from 0 to {args.MAX_SEED} (default {SEED})")
    parser.add_argument("--workers", type=args.workers, default=1,
                        help=f"worker processes, from 1 to {args.MAX_WORKERS} (default 1)")
    parser.add_argument("--json", metavar="PATH", type=args.out_file,
                        help="write every iteration's figures here")
    parser.add_argument("--write", action="store_true",
                        help="store the boosts in the package's data/runs_fit.json")


def check(ns: argparse.Namespace) -> None:
    """The Lahman database (the realstats extra), the season and its teams, and the store
    ``--write`` writes, before any game. Sets ``ns.data`` and ``ns.teams`` (the codes fitted)."""
    try:
        ns.data = default_data()
    except ImportError as error:
        raise args.UsageError("--season", f"the runs fit reads the Lahman database, which needs "
                                          f"the realstats extra ({error})") from None
    known = league_ids(ns.data, ns.season, LEAGUES)
    if not known:
        raise args.UsageError("--season", f"season {ns.season}: no team in the Lahman database's "
                                          f"American or National League")
    if ns.teams:
        unknown = [t for t in ns.teams if t.upper() not in known]
        if unknown:
            raise args.UsageError("--teams", f"unknown team {unknown[0]!r} in {ns.season}; that "
                                             f"season's teams are {', '.join(known)}")
    else:
        ns.teams = known
    if ns.write:
        try:
            args.check_out_file(str(store_path()))
        except argparse.ArgumentTypeError as error:
            raise args.UsageError("--write", str(error)) from None


def run(ns: argparse.Namespace) -> int:
    """Fit, print the boosts and any warning, write ``--json`` and (``--write``) the store."""
    fit = fit_boosts(ns.season, ns.teams, data=ns.data, games=ns.games,
                     iterations=ns.iterations, seed=ns.seed, workers=ns.workers,
                     progress=lambda line: print(line, file=sys.stderr, flush=True))
    print(f"{'team':<5} {'real R/G':>8} {'boost':>8}")
    for t in sorted(fit.boosts):
        print(f"{t:<5} {fit.actual[t]:>8.2f} {fit.boosts[t]:>+8.4f}")
    mean = sum(fit.boosts.values()) / len(fit.boosts)
    print(f"mean boost {mean:+.4f} ({len(fit.boosts)} teams, {fit.seconds:.0f} s)")
    for line in fit.warnings:
        print(f"warning: {line}", file=sys.stderr)
    if ns.json:
        Path(ns.json).parent.mkdir(parents=True, exist_ok=True)
        Path(ns.json).write_text(json.dumps(fit.to_dict(), indent=1) + "\n", encoding="utf-8")
    if ns.write:
        print(f"stored in {write_store(fit)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dugout.studies.runs_fit``: the same as ``dugout runs-fit``; 0 when done
    (a bad flag, or a team the fit cannot make, is one line and exit status 2)."""
    return args.invoke("dugout runs-fit", configure, check, run, argv, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
