"""``dugout solve thats_baseball``: solve a game, report its value and cost and every
manager's gap to the optimal manager.

    dugout solve thats_baseball --away sample --home reds
    dugout solve thats_baseball --innings 3 --agents heuristic ppo:runs/thats_baseball_v0_vector/model
    dugout solve thats_baseball --agents heuristic search:sims=16,horizon=2 --reach-games 100
    python -m dugout.agents.solvers.thats_baseball --away sample --home reds   (the same)

``--away``/``--home`` are team names or JSON files; ``--innings`` is 1 to 9 and ``--bound``
(the largest score difference solved exactly) 1 to 100: the tables grow with both (9
innings, bound 20: about 70 MiB). Other managers are made by name through
:mod:`dugout.agents.registry`; a trained manager's gap, with ``--agents ppo:PATH``. The
teams, the managers (a name the registry knows, or a checkpoint that loads, was trained on
thats_baseball_v0 and takes its observations) and the ``--save`` path are checked before
the solve; a bad one is one line naming the flag, exit status 2.

A search manager (``search``, ``search:sims=16,...``) is asked only at the decision states
of its seat that ``--reach-games`` games of the heuristic against the optimal manager meet,
and plays as the heuristic elsewhere (:mod:`.reached`); a note under the table says how many
states were asked and what share of the seat's decisions in as many further games fell
elsewhere.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Sequence

from ....cli import args
from ....envs.core.errors import DugoutError
from ....envs.thats_baseball.cards import load_team
from ...ref import AgentRef
from ...registry import agent_names, make_agent
from ..asking import searches
from ..flags import check_managers
from ..report import report_memory_and_save
from .chart import MAX_BOUND
from .evaluation import Gap, gap_to_optimal
from .policy import policy_table
from .reached import reached_states, reached_table
from .solution import DEFAULT_BOUND, Solution, solve

__all__ = ["main", "configure", "check", "run"]

ENV = "thats_baseball_v0"


def _baselines(names: Sequence[str]) -> list[tuple[str, tuple[str, ...] | None]]:
    """(agent, kinds to ask) for each agent: an always/never baseline is asked only at its
    own decision, the heuristic's table filling the rest (it plays as the heuristic there)."""
    out = []
    for name in names:
        kind = name.split("-", 1)[1] if name.startswith(("always-", "never-")) else None
        out.append((name, (kind,) if kind else None))
    return out


def _gap_row(solution: Solution, name: str, agent: Any, kinds, heuristic_tables,
             reach_games: int = 100, notes: list | None = None) -> Gap:
    if searches(agent):
        if heuristic_tables is None:
            heuristic = make_agent(ENV, "heuristic")
            heuristic_tables = tuple(policy_table(heuristic, solution, seat) for seat in (0, 1))
        tables = []
        for seat in (0, 1):
            reached = reached_states(solution, seat, reach_games, reach_games)
            tables.append(reached_table(agent, solution, heuristic_tables[seat], reached))
            if notes is not None:
                notes.append(f"{name} as {('away', 'home')[seat]}: asked at the {reached.count:,} "
                             f"states met in {reach_games} games of the heuristic against the optimal "
                             f"manager, the heuristic elsewhere; {reached.holdout_missed:.1%} of its "
                             f"decisions in {reached.holdout} further games fell elsewhere")
        tables = tuple(tables)
    elif kinds is not None and heuristic_tables is not None:
        tables = tuple(policy_table(agent, solution, seat, kinds, heuristic_tables[seat])
                       for seat in (0, 1))
    else:
        tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
    gap = gap_to_optimal(solution, tables=tables)
    gap.name = name
    return gap


def _trained_elsewhere(agent, away: str, home: str, innings: int) -> str | None:
    """What differs between the game a checkpoint was trained on (its ``meta.json``'s env
    options) and the one solved here, or None: its gap is still measured, on this game."""
    options = (getattr(agent, "meta", None) or {}).get("env_options") or {}
    teams, trained_innings = options.get("teams"), options.get("innings", 9)
    if (teams is None or list(teams) == [away, home]) and trained_innings == innings:
        return None
    where = f"{teams[0]} at {teams[1]}" if teams is not None else "the env's default teams"
    return (f"trained on {where}, {trained_innings} innings; its gap is measured on {away} at "
            f"{home}, {innings} innings")


def configure(parser: args.Parser) -> None:
    """``dugout solve thats_baseball``'s flags."""
    parser.add_argument("--away", default="sample",
                        help="away team: a built-in name or a JSON file (default sample)")
    parser.add_argument("--home", default="reds",
                        help="home team: a built-in name or a JSON file (default reds)")
    parser.add_argument("--innings", type=args.innings, default=9,
                        help=f"scheduled innings, 1 to {args.MAX_INNINGS} (default 9)")
    parser.add_argument("--bound", type=args.integer(1, MAX_BOUND, "the score bound"),
                        default=DEFAULT_BOUND,
                        help=f"largest score difference solved exactly, 1 to {MAX_BOUND} "
                             f"(default {DEFAULT_BOUND})")
    parser.add_argument("--agents", nargs="*", default=None, type=args.agent_ref,
                        help="managers whose gap to report, by name or ppo:PATH (default: random, "
                             "every always/never baseline and the heuristic; none with an empty list)")
    parser.add_argument("--reach-games", type=args.count(1, 100_000, "games"), default=100,
                        help="a search manager is asked at the states met in this many games of "
                             "the heuristic against the optimal manager, the heuristic elsewhere "
                             "(default 100)")
    parser.add_argument("--save", metavar="PATH", type=args.out_file,
                        help="write the solved tables here (.npz)")


def _lineup(team: str, flag: str) -> tuple[int, ...]:
    try:
        return load_team(team).aas
    except (ValueError, OSError, DugoutError) as error:
        raise args.UsageError(flag, f"{flag} {team}: {error}") from None


def _pretrained_plays(options: dict) -> bool:
    """Whether a shipped pretrained manager was trained on a game of these options (read
    from the folders' meta, without torch)."""
    from ...pretrained import entries_for, options_differ
    return any(not options_differ(ENV, e.options, options, e.covered) for e in entries_for(ENV))


def check(ns: argparse.Namespace) -> None:
    """The teams, the managers and the output path, before the solve: ``ns.lineups``,
    ``ns.agents`` (their texts), ``ns.loaded`` (the trained managers) and ``ns.notes``."""
    ns.lineups = (_lineup(ns.away, "--away"), _lineup(ns.home, "--home"))
    options = {"teams": [ns.away, ns.home], "innings": ns.innings}
    if ns.agents is None:             # every manager that plays this game (the pretrained
        ns.agents = [AgentRef.parse(n) for n in agent_names(ENV)     # one: if trained on it)
                     if n != "solver" and (n != "pretrained" or _pretrained_plays(options))]
    ns.loaded = check_managers(ENV, ns.agents, options)
    ns.agents = [str(ref) for ref in ns.agents]
    ns.notes = [f"note: {name}: {note}" for name, agent in ns.loaded.items()
                if (note := _trained_elsewhere(agent, ns.away, ns.home, ns.innings))]


def run(ns: argparse.Namespace) -> Solution:
    """Solve the game and report its value, cost, and every manager's gap to optimal."""
    for note in ns.notes:
        print(note, file=sys.stderr)
    names, lineups = ns.agents, ns.lineups
    solution = solve(*lineups, innings=ns.innings, bound=ns.bound)
    print(f"{ns.away} (away) at {ns.home} (home), {ns.innings} innings")
    print(f"  lineups: away {list(lineups[0])}, home {list(lineups[1])}")
    print(f"game value (home win probability, both optimal): {solution.game_value:.6f}")
    print(f"tied extra inning, leadoff men up: {solution.extra_tie[0, 0]:.6f} "
          f"({solution.iterations} fixed-point iterations)")
    print(f"solve time: {solution.seconds:.1f} s on one core")
    print(f"states: {solution.state_count:,} solved, {solution.decision_state_count:,} decision states "
          f"(score difference within +-{solution.bound})")
    report_memory_and_save(solution, ns.save)
    if names:
        print("\ngap to optimal (win probability given away against the optimal manager):")
        print(f"{'manager':22} {'as away':>9} {'as home':>9} {'gap away':>9} {'gap home':>9} "
              f"{'mean gap':>9} {'seconds':>8}")
        heuristic_tables, notes = None, []
        order = sorted(names, key=lambda n: n != "heuristic")
        for name, kinds in _baselines(order):
            t0 = time.perf_counter()
            agent = ns.loaded[name] if name in ns.loaded else make_agent(ENV, name, 0)
            if name == "heuristic":
                heuristic_tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
                gap = gap_to_optimal(solution, tables=heuristic_tables)
                gap.name = name
            else:
                gap = _gap_row(solution, name, agent, kinds, heuristic_tables,
                               getattr(ns, "reach_games", 100), notes)
            print(f"{name:22} {gap.away:9.5f} {gap.home:9.5f} {gap.gap_away:9.5f} "
                  f"{gap.gap_home:9.5f} {gap.gap:9.5f} {time.perf_counter() - t0:8.1f}", flush=True)
        for note in notes:
            print(f"  {note}")
    return solution


def main(argv: Sequence[str] | None = None) -> Solution:
    """``python -m dugout.agents.solvers.thats_baseball``: the same as ``dugout solve
    thats_baseball``."""
    return args.invoke("dugout solve thats_baseball", configure, check, run, argv, __doc__)
