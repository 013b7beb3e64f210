"""The command line: solve a duel, report its value, the first pitch's equilibrium, the
cost, and each manager's exploitability.

    python -m dugout.agents.solvers.bottom_ninth --away p01,p05 --home default

``--away`` names the pitchers (starter,substitute card ids) and ``--home`` the six batters
in batting order, or ``default`` for the env's default team. Other env options come with
``--env-option KEY=VALUE`` (``cards``, ``fatigue_rows``, ``pitch_faces``, ``out_rule``).
Other managers are made by name through :mod:`dugout.agents.registry`.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path
from typing import Any

from ....envs.bottom_ninth.cards import PITCH_LABELS
from ....envs.core.errors import DataError, OptionError
from ....envs.options import env_options_from_flags
from ...registry import agent_names, make_agent
from .evaluation import exploitability
from .model import Duel
from .policy import policy_table
from .solution import Solution, solve

__all__ = ["main"]

ENV = "bottom_ninth_v0"


def _teams(away: str, home: str, cards: Any) -> Any:
    if away == "default" and home == "default":
        return "default"
    from ....envs.bottom_ninth.cards import load_cards
    from ....envs.bottom_ninth.env import default_team
    cs = load_cards(cards)
    lineup, staff = default_team(cs)
    ids = [c.id for c in cs.cards]
    batters = [ids[i] for i in lineup] if home == "default" else [x.strip() for x in home.split(",")]
    pitchers = [ids[i] for i in staff] if away == "default" else [x.strip() for x in away.split(",")]
    return {"batters": batters, "pitchers": pitchers}


def main(argv: list[str] | None = None) -> Solution:
    """Solve a duel and report its value, cost, and each manager's exploitability."""
    parser = argparse.ArgumentParser(prog="python -m dugout.agents.solvers.bottom_ninth",
                                     description=main.__doc__)
    parser.add_argument("--away", default="default",
                        help="the pitching staff: STARTER,SUBSTITUTE card ids (default: the env's)")
    parser.add_argument("--home", default="default",
                        help="the lineup: six batter card ids in batting order (default: the env's)")
    parser.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE",
                        help="another option of bottom_ninth_v0 (cards, fatigue_rows, pitch_faces, "
                             "out_rule); repeatable")
    parser.add_argument("--agents", nargs="*", default=None,
                        help="managers whose exploitability to report (default: random and the "
                             "heuristic; none with an empty list; ppo:CHECKPOINT for a trained one)")
    parser.add_argument("--save", metavar="PATH", help="write the solution here (.npz)")
    parser.add_argument("--load", metavar="PATH", help="read a saved solution instead of solving")
    args = parser.parse_args(argv)
    try:
        options = env_options_from_flags(ENV, args.env_option)
        if "teams" in options:
            parser.error("give the teams with --away and --home, not --env-option teams=...")
        if "mode" in options and options["mode"] != "duel":
            parser.error("the solver covers the duel only (mode='duel')")
        options["teams"] = _teams(args.away, args.home, options.get("cards", "builtin"))
        duel = Duel.from_options(**options)
    except (OptionError, DataError, ValueError, OSError) as e:
        parser.error(str(e))
    if args.save:                          # before the solve, not after it
        folder = Path(args.save).resolve().parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            parser.error(f"--save {args.save}: cannot make its folder ({e})")
        if not os.access(folder, os.W_OK):
            parser.error(f"--save {args.save}: its folder {folder} is not writable")
    known = agent_names(ENV)
    names = args.agents if args.agents is not None else ["random", "heuristic"]
    for name in names:
        if name not in known and not name.startswith("ppo:"):
            parser.error(f"unknown agent {name!r}; known: {', '.join(known)}, ppo:CHECKPOINT")
    t0 = time.perf_counter()
    if args.load:
        try:
            solution = Solution.load(args.load, duel)
        except ValueError as e:
            parser.error(str(e))
    else:
        solution = solve(duel)
    seconds = time.perf_counter() - t0
    info = duel.describe()
    print(f"Bottom of the 9th duel: {', '.join(info['lineup'])} (home, batting) against "
          f"{' then '.join(info['staff'])} (away, pitching)")
    print(f"  cards {info['card_set']!r}, Pitch die {info['faces']}, {info['fatigue_rows']} fatigue "
          f"rows, out rule {info['out_rule']}")
    print(f"game value (the batting side's win probability, both optimal): {solution.game_value:.6f}")
    x, y = solution.mix_at()
    print("equilibrium at the first pitch (0-0, nobody on, no outs):")
    print(f"  {'':16} " + " ".join(f"{p:>14}" for p in PITCH_LABELS))
    print(f"  {'pitcher throws':16} " + " ".join(f"{q:14.4f}" for q in x))
    print(f"  {'batter guesses':16} " + " ".join(f"{q:14.4f}" for q in y))
    what = "loaded" if args.load else "solved"
    print(f"{what} in {seconds:.1f} s on one core ({solution.iterations} layer passes); "
          f"{solution.state_count:,} stare-down states")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: tables {solution.nbytes / 2**20:.1f} MiB, process peak {peak:.0f} MiB")
    if args.save:
        try:
            solution.save(args.save)
        except OSError as e:
            parser.error(f"--save {args.save}: {e}")
        print(f"saved to {args.save}")
    if names:
        print("\nexploitability (the batting side's win probability; stare-down, relief and pitching-"
              "change decisions asked of the manager, abilities played as the equilibrium does):")
        print(f"{'manager':24} {'P vs eq':>8} {'P vs BR':>8} {'B vs eq':>8} {'B vs BR':>8} "
              f"{'expl P':>8} {'expl B':>8} {'seconds':>8}")
        for name in names:
            t1 = time.perf_counter()
            agent = make_agent(ENV, name, 0)
            tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
            e = exploitability(solution, tables=tables)
            print(f"{name:24} {e.pitcher_vs_equilibrium:8.4f} {e.pitcher_vs_best:8.4f} "
                  f"{e.batter_vs_equilibrium:8.4f} {e.batter_vs_best:8.4f} {e.as_pitcher:8.4f} "
                  f"{e.as_batter:8.4f} {time.perf_counter() - t1:8.1f}", flush=True)
        print("(P: the manager pitches; B: it bats; eq: against the equilibrium manager; BR: "
              "against its best response; expl: what a best response gains over the game value)")
    return solution
