"""The command line: solve a game, report its value and cost and every manager's gap.

    python -m dugout.agents.solvers.thats_baseball --away sample --home reds

Other managers are made by name through :mod:`dugout.agents.registry`; a trained manager's
gap, with ``--agents ppo:runs/thats_baseball_v0_vector/model``.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from typing import Sequence

from ...registry import agent_names, make_agent
from .chart import check_game, lineups_of
from .evaluation import Gap, gap_to_optimal
from .policy import policy_table
from .solution import DEFAULT_BOUND, Solution, solve

__all__ = ["main"]


def _baselines(names: Sequence[str]) -> list[tuple[str, tuple[str, ...] | None]]:
    """(agent, kinds to ask) for each agent: an always/never baseline is asked only at its
    own decision, the heuristic's table filling the rest (it plays as the heuristic there)."""
    out = []
    for name in names:
        kind = name.split("-", 1)[1] if name.startswith(("always-", "never-")) else None
        out.append((name, (kind,) if kind else None))
    return out


def _gap_row(solution: Solution, name: str, kinds, heuristic_tables) -> Gap:
    agent = make_agent("thats_baseball_v0", name, 0)
    if kinds is not None and heuristic_tables is not None:
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


def main(argv: list[str] | None = None) -> Solution:
    """Solve a game and report its value, cost, and every manager's gap to optimal."""
    parser = argparse.ArgumentParser(prog="python -m dugout.agents.solvers.thats_baseball",
                                     description=main.__doc__)
    parser.add_argument("--away", default="sample", help="away team: a built-in name or a JSON file")
    parser.add_argument("--home", default="reds", help="home team: a built-in name or a JSON file")
    parser.add_argument("--innings", type=int, default=9)
    parser.add_argument("--bound", type=int, default=DEFAULT_BOUND,
                        help="largest score difference solved exactly")
    parser.add_argument("--agents", nargs="*", default=None,
                        help="managers whose gap to report, by name or ppo:PATH (default: random, "
                             "every always/never baseline and the heuristic; none with an empty list)")
    parser.add_argument("--save", metavar="PATH", help="write the solved tables here (.npz)")
    args = parser.parse_args(argv)
    try:
        lineups = lineups_of(args.away, args.home)
        check_game(args.innings, args.bound)
    except (ValueError, OSError) as e:
        parser.error(str(e))
    known = agent_names("thats_baseball_v0")
    names = args.agents if args.agents is not None else [n for n in known if n not in ("solver",)]
    for name in names:
        if name not in known and not name.startswith("ppo:"):
            parser.error(f"unknown agent {name!r}; known: {', '.join(known)}, or ppo:PATH (a "
                         f"trained manager's checkpoint folder)")
        if name.startswith("ppo:"):                 # a bad checkpoint is named before the solve
            try:
                agent = make_agent("thats_baseball_v0", name, 0)
            except (ValueError, OSError) as e:
                parser.error(f"{name}: {e}")
            note = _trained_elsewhere(agent, args.away, args.home, args.innings)
            if note:
                print(f"note: {name}: {note}", file=sys.stderr)
    solution = solve(*lineups, innings=args.innings, bound=args.bound)
    print(f"{args.away} (away) at {args.home} (home), {args.innings} innings")
    print(f"  lineups: away {list(lineups[0])}, home {list(lineups[1])}")
    print(f"game value (home win probability, both optimal): {solution.game_value:.6f}")
    print(f"tied extra inning, leadoff men up: {solution.extra_tie[0, 0]:.6f} "
          f"({solution.iterations} fixed-point iterations)")
    print(f"solve time: {solution.seconds:.1f} s on one core")
    print(f"states: {solution.state_count:,} solved, {solution.decision_state_count:,} decision states "
          f"(score difference within +-{solution.bound})")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: tables {solution.nbytes / 2**20:.1f} MiB, process peak {peak:.0f} MiB")
    if args.save:
        solution.save(args.save)
        print(f"saved to {args.save}")
    if names:
        print("\ngap to optimal (win probability given away against the optimal manager):")
        print(f"{'manager':22} {'as away':>9} {'as home':>9} {'gap away':>9} {'gap home':>9} "
              f"{'mean gap':>9} {'seconds':>8}")
        heuristic_tables = None
        order = sorted(names, key=lambda n: n != "heuristic")
        for name, kinds in _baselines(order):
            t0 = time.perf_counter()
            if name == "heuristic":
                agent = make_agent("thats_baseball_v0", name, 0)
                heuristic_tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
                gap = gap_to_optimal(solution, tables=heuristic_tables)
                gap.name = name
            else:
                gap = _gap_row(solution, name, kinds, heuristic_tables)
            print(f"{name:22} {gap.away:9.5f} {gap.home:9.5f} {gap.gap_away:9.5f} "
                  f"{gap.gap_home:9.5f} {gap.gap:9.5f} {time.perf_counter() - t0:8.1f}", flush=True)
    return solution
