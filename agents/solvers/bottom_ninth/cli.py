"""``dugout solve bottom_ninth``: solve a duel, report its value, the first pitch's
equilibrium, the cost, and each manager's exploitability.

    dugout solve bottom_ninth --away p01,p05 --home default
    dugout solve bottom_ninth --agents heuristic ppo:runs/bottom_ninth_v0/model
    dugout solve bottom_ninth --agents heuristic search:sims=16 --reach-games 2000
    python -m dugout.agents.solvers.bottom_ninth --away p01,p05 --home default   (the same)

``--away`` names the pitchers (starter,substitute card ids) and ``--home`` the six batters
in batting order, or ``default`` for the env's default team. Other env options come with
``--env-option KEY=VALUE`` (``cards``, ``fatigue_rows``, ``pitch_faces``, ``out_rule``).
Other managers are made by name through :mod:`dugout.agents.registry`; a trained one with
``ppo:PATH``. Everything is checked before the solve: the options and teams (the env is
built with them), each manager (a name the registry knows, or a checkpoint that loads, was
trained on bottom_ninth_v0 and takes this duel's observations and actions), ``--load``'s
solution (it must be of this duel) and ``--save``'s path; a bad one is one line naming the
flag, exit status 2.

A search manager (``search``, ``search:sims=16,...``) is asked only at the decisions of its
seat that ``--reach-games`` duels of the heuristic against the equilibrium manager meet, and
plays as the heuristic elsewhere (:mod:`.reached`); a note under the table says how many
decisions were asked and what share of the seat's decisions in as many further duels fell
elsewhere.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Sequence

from ....cli import args
from ....envs.bottom_ninth.cards import PITCH_LABELS
from ....envs.core.errors import DugoutError
from ....envs.options import env_options_from_flags
from ...ref import AgentRef
from ...registry import make_agent
from ..asking import searches
from ..flags import check_managers
from ..report import report_memory_and_save
from .evaluation import exploitability
from .model import Duel
from .policy import policy_table
from .reached import reached_states, reached_table
from .solution import Solution, solve

__all__ = ["main", "configure", "check", "run"]

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


def configure(parser: args.Parser) -> None:
    """``dugout solve bottom_ninth``'s flags."""
    parser.add_argument("--away", default="default",
                        help="the pitching staff: STARTER,SUBSTITUTE card ids (default: the env's)")
    parser.add_argument("--home", default="default",
                        help="the lineup: six batter card ids in batting order (default: the env's)")
    parser.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE",
                        type=args.env_option,
                        help="another option of bottom_ninth_v0 (cards, fatigue_rows, pitch_faces, "
                             "out_rule); repeatable")
    parser.add_argument("--agents", nargs="*", default=None, type=args.agent_ref,
                        help="managers whose exploitability to report (default: random and the "
                             "heuristic; none with an empty list; ppo:CHECKPOINT for a trained one)")
    parser.add_argument("--reach-games", type=args.count(1, 1_000_000, "games"), default=2000,
                        help="a search manager is asked at the decisions met in this many duels of "
                             "the heuristic against the equilibrium manager, the heuristic elsewhere "
                             "(default 2000)")
    parser.add_argument("--save", metavar="PATH", type=args.out_file,
                        help="write the solution here (.npz)")
    parser.add_argument("--load", metavar="PATH", type=args.in_file,
                        help="read a saved solution of this duel instead of solving")


def _build(options: dict[str, Any], flag: str, label: str = "") -> Duel:
    """The duel of the env built with ``options``; an error names ``flag`` (and ``label``,
    what was given)."""
    try:
        return Duel.from_options(**options)
    except (ValueError, TypeError, OSError, DugoutError) as error:
        raise args.UsageError(flag, f"{flag}{' ' + label if label else ''}: {error}") from None


def check(ns: argparse.Namespace) -> None:
    """Every flag before the solve: the options and each side's cards build the env
    (``ns.options``, ``ns.duel``), each manager can be measured on it (``ns.agents``,
    ``ns.loaded``), and ``--load``'s solution is of this duel (``ns.solution``)."""
    try:
        options = env_options_from_flags(ENV, ns.env_option)
    except DugoutError as error:
        raise args.UsageError("--env-option", str(error)) from None
    if "teams" in options:
        raise args.UsageError("--env-option", "give the teams with --away and --home, not "
                                              "--env-option teams=...")
    if options.get("mode", "duel") != "duel":
        raise args.UsageError("--env-option", f"mode={options['mode']}: the solver covers the duel "
                                              f"only (mode=duel)")
    cards = options.get("cards", "builtin")
    _build({**options, "teams": "default"}, "--env-option")
    # each side against the other's default, so that an error names the flag that caused it
    if ns.away != "default":
        _build({**options, "teams": _teams(ns.away, "default", cards)}, "--away", ns.away)
    if ns.home != "default":
        _build({**options, "teams": _teams("default", ns.home, cards)}, "--home", ns.home)
    options["teams"] = _teams(ns.away, ns.home, cards)
    ns.options, ns.duel = options, _build(options, "--away/--home")
    refs = ns.agents if ns.agents is not None else [AgentRef.parse("random"),
                                                     AgentRef.parse("heuristic")]
    ns.loaded = check_managers(ENV, refs, options)
    ns.agents = [str(ref) for ref in refs]
    ns.solution, ns.load_seconds = None, 0.0
    if ns.load is not None:
        t0 = time.perf_counter()
        try:
            ns.solution = Solution.load(ns.load, ns.duel)
        except (ValueError, OSError) as error:
            raise args.UsageError("--load", f"--load {ns.load}: {error}") from None
        ns.load_seconds = time.perf_counter() - t0


def run(ns: argparse.Namespace) -> Solution:
    """Solve the duel (or take ``--load``'s) and report its value, cost, and each manager's
    exploitability."""
    duel, names = ns.duel, ns.agents
    t0 = time.perf_counter()
    solution = ns.solution if ns.solution is not None else solve(duel)
    seconds = time.perf_counter() - t0 if ns.solution is None else ns.load_seconds
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
    what = "loaded" if ns.load is not None else "solved"
    print(f"{what} in {seconds:.1f} s on one core ({solution.iterations} layer passes); "
          f"{solution.state_count:,} stare-down states")
    report_memory_and_save(solution, ns.save)
    if names:
        print("\nexploitability (the batting side's win probability; stare-down, relief and pitching-"
              "change decisions asked of the manager, abilities played as the equilibrium does):")
        print(f"{'manager':24} {'P vs eq':>8} {'P vs BR':>8} {'B vs eq':>8} {'B vs BR':>8} "
              f"{'expl P':>8} {'expl B':>8} {'seconds':>8}")
        notes = []
        for name in names:
            t1 = time.perf_counter()
            agent = ns.loaded[name] if name in ns.loaded else make_agent(ENV, name, 0)
            if searches(agent):
                tables = _search_tables(agent, solution, name, getattr(ns, "reach_games", 2000), notes)
            else:
                tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
            e = exploitability(solution, tables=tables)
            print(f"{name:24} {e.pitcher_vs_equilibrium:8.4f} {e.pitcher_vs_best:8.4f} "
                  f"{e.batter_vs_equilibrium:8.4f} {e.batter_vs_best:8.4f} {e.as_pitcher:8.4f} "
                  f"{e.as_batter:8.4f} {time.perf_counter() - t1:8.1f}", flush=True)
        for note in notes:
            print(f"  {note}")
        print("(P: the manager pitches; B: it bats; eq: against the equilibrium manager; BR: "
              "against its best response; expl: what a best response gains over the game value)")
    return solution


def _search_tables(agent: Any, solution: Solution, name: str, games: int, notes: list) -> tuple:
    """A search manager's two tables: asked where ``games`` duels of the heuristic against
    the equilibrium manager go, the heuristic's play elsewhere (:mod:`.reached`)."""
    heuristic = make_agent(ENV, "heuristic")
    tables = []
    for seat in (0, 1):
        reached = reached_states(solution, seat, games, games)
        tables.append(reached_table(agent, solution, policy_table(heuristic, solution, seat), reached))
        notes.append(f"{name} {('pitching', 'batting')[seat]}: asked at the {reached.count:,} decisions "
                     f"met in {games} duels of the heuristic against the equilibrium manager, the "
                     f"heuristic elsewhere; {reached.holdout_missed:.1%} of its decisions in "
                     f"{reached.holdout} further duels fell elsewhere")
    return tuple(tables)


def main(argv: Sequence[str] | None = None) -> Solution:
    """``python -m dugout.agents.solvers.bottom_ninth``: the same as ``dugout solve
    bottom_ninth``."""
    return args.invoke("dugout solve bottom_ninth", configure, check, run, argv, __doc__)
