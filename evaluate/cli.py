"""``python -m dugout.evaluate``: tournaments, replays, the common-random-numbers check and
the analysis of games with the search manager.

    python -m dugout.evaluate tournament --env thats_baseball_v0 \\
        --agents random heuristic solver ppo:runs/thats_baseball_v0/model --games 2000 --workers 2 \\
        --out reports/mine
    python -m dugout.evaluate tournament --agents heuristic never-steal --games 20000 --sprt --elo0 0 --elo1 20
    python -m dugout.evaluate tournament --env showdown_v0 --env-option level=basic \\
        --teams nya1927 cin1975 --env-option point_cap=null --agents random heuristic --games 400
    python -m dugout.evaluate replay --env thats_baseball_v0 --seed 7 --agents random heuristic
    python -m dugout.evaluate replay --env thats_baseball_v0 --teams sample my_team.json \\
        --seed 7 --agents heuristic random --gif game.gif --fps 2
    python -m dugout.evaluate crn --agents heuristic random --games 4000 --workers 2
    python -m dugout.evaluate crn --env grand_slam_v0 --env-option innings=7 --agents heuristic random
    python -m dugout.evaluate tournament --agents random heuristic never-steal --games 40000 \\
        --backend ray --address 10.0.0.5:6379
    python -m dugout.evaluate analyze --env grand_slam_v0 --seed 7 --agents heuristic random \\
        --search search:sims=64 --plot win.png --json game.json
    python -m dugout.evaluate analyze --env grand_slam_v0 --agents heuristic random --report 20 \\
        --workers 2
    python -m dugout.evaluate analyze --env manager_challenge_v0 --agents heuristic --report 20

``tournament`` plays a round robin of seat-swapped pairs (:mod:`dugout.evaluate.tournament`),
prints a row per matchup as it finishes under a progress bar with games per second, then
the ratings and matchup tables; ``--out`` writes the report folder
(:mod:`dugout.evaluate.report`). ``--games`` is per matchup (half as many pairs); with
``--sprt`` it is the most a matchup may play. ``replay`` prints the box score and
play-by-play of one game (the first agent away). ``crn`` measures how much pairing on the
same dice narrows the interval (:func:`dugout.evaluate.tournament.crn_check`);
``replay --gif FILE`` also draws the game, a frame after the reset and after every
step, into an animated GIF (``--fps`` frames a second, default 2). ``analyze`` replays one
game (the same game ``replay`` shows) and prices every option of every decision with the
search manager: the costliest decisions, the move list with each seat's chance of winning,
``--plot`` its curve, ``--json`` the records; ``--saved FILE`` analyses a saved game's
pending decision instead; ``--report GAMES`` analyses every decision of the first manager
over seat-swapped games against the second, by decision kind, and ``--held-out`` prices
each choice again on fresh worlds, free of the winner's curse
(:mod:`dugout.evaluate.analysis`). With ``--env manager_challenge_v0`` it analyses one
manager's campaign (``--agents`` names one; ``--seed`` is the campaign's, as ``dugout
challenge`` plays it), every option priced in the Manager Points of the game in progress,
and ``--report N`` covers N campaigns (:mod:`dugout.evaluate.challenge_analysis`).

The rules: every subcommand takes the env's options. ``--env-option KEY=VALUE`` (repeat
it) sets one; VALUE is read as JSON when it parses as JSON (``innings=7``, ``dh=true``,
``max_innings=null``, ``teams='["sample", "reds"]'``; quote a string of digits as
JSON, ``'"2004"'``) and as a plain string otherwise (``level=basic``). ``--teams AWAY
HOME`` is the ``teams`` option (team names or files; not with ``--env-option teams=``,
and an error for a ruleset without teams, Grand Slam). The env checks them itself,
once, before any game; ``render_mode``, ``illegal_action`` and ``dice`` are the
harness's own and refused. The report and results.json record the options
(``env_options``). A trained manager (``ppo:PATH``) must take the observations and
actions of the env so built.

Where the games are played (``tournament`` and ``crn``): ``--workers N`` processes on this
machine (``--backend process``, the default; one, in this process, unless ``--workers`` is
given), or ``--backend ray``: each chunk of ``--chunk`` seeds is a Ray task, on the cluster
at ``--address`` (``HOST:PORT`` as ``ray start --head`` prints it, ``ray://HOST:PORT``, or
``auto``) or on a Ray instance started here with ``--workers`` CPUs (default all); with an
address, ``--workers`` caps the tasks played at once. Trained managers' checkpoints go to
the workers through Ray's object store (``--checkpoints ship``) or by a path every node
sees (``--checkpoints shared``). The numbers are the same on every backend; a chunk whose
Ray worker died is played again and counted once (:mod:`dugout.evaluate.backends`).

Bad input (an unknown env or agent, a missing checkpoint or one for another env, too
few games, a bad option, ``--address`` without ``--backend ray``, Ray not installed, a
cluster that does not answer) stops with a one-line error naming the flag and exit
status 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from ..agents import make_agent
from ..agents.play import play_game
from ..cli import args
from ..envs import make
from ..envs.core.errors import DugoutError
from ..envs.options import describe_options
from . import report
from .backends import (BACKENDS, CHECKPOINT_MODES, INSTALL_HINT, Backend, RayCluster, make_backend,
                       ray_installed)
from .stats import SPRT
from .tournament import (MatchupResult, TournamentResult, check_agents, check_env_options, crn_check,
                         env_options_from_flags, labels_for)
from .tournament import run_tournament as play_round_robin

__all__ = ["main", "tournament", "Console", "analyze"]


class Console:
    """The console while a tournament runs: a progress bar with games per second (tqdm when
    it is installed, a plain line now and then when not) and a row per finished matchup."""

    def __init__(self, total_games: int, label: str, enabled: bool = True, unit: str = "games"):
        self.total, self.enabled, self.label, self.unit = total_games, enabled, label, unit
        self.done = 0
        self.start = time.perf_counter()
        self.last_print = 0.0
        self.bar = None
        if enabled:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total_games, desc=label, unit=unit, file=sys.stderr,
                                dynamic_ncols=True, smoothing=0.1,
                                mininterval=0.2 if sys.stderr.isatty() else 10.0)
            except ImportError:
                pass

    def write(self, line: str) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.write(line, file=sys.stdout)
        else:
            print(line, flush=True)

    def __call__(self, games_done: int, finished: MatchupResult | None) -> None:
        if self.bar is not None:
            self.bar.update(games_done - self.done)
        elif self.enabled and time.perf_counter() - self.last_print > 5:
            self.last_print = time.perf_counter()
            rate = games_done / max(time.perf_counter() - self.start, 1e-9)
            print(f"{self.label}: {games_done:,}/{self.total:,} {self.unit}, "
                  f"{rate:.{0 if rate >= 10 else 2}f} {self.unit}/s", file=sys.stderr, flush=True)
        self.done = games_done
        if finished is not None:
            s = finished.summary()
            self.write(f"  {s['a']:>18} vs {s['b']:<18} {s['games']:>7,} games  A score "
                       f"{100 * s['a_score']:5.1f}% ({100 * s['a_score_low']:.1f}-"
                       f"{100 * s['a_score_high']:.1f}%)  run diff {s['a_run_diff']:+.2f}  "
                       f"{s['verdict']}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def tournament(env_id: str, agents: Sequence[str], games: int, seed: int = 0,
               workers: int | None = None, sprt: SPRT | None = None,
               out: str | Path | None = None, crn_games: int = 0,
               bootstrap: int = 1000, learning_curve: str | Path | None = None,
               quiet: bool = False, title: str | None = None,
               crn_agents: tuple[str, str] | None = None,
               env_kwargs: dict[str, Any] | None = None, backend: str | Backend = "process",
               address: str | None = None, chunk: int | None = None,
               checkpoints: str = "ship") -> TournamentResult:
    """Run a tournament with the console display, print its tables, write its report.

    ``crn_games`` > 0 adds :func:`crn_check` on that many games of ``crn_agents`` (default:
    the first two agents). ``env_kwargs`` are the env's options (the rules), recorded in
    the report. ``backend``, ``address``, ``workers``, ``chunk`` and ``checkpoints`` say
    where the games are played (:mod:`dugout.evaluate.backends`); a Ray connection made
    here serves the tournament and the CRN check, and is closed at the end. The backend's
    lines (the Ray connection, a worker that died) go above the progress bar, or to stderr
    with ``quiet``.
    """
    k = len(agents)
    total = games * k * (k - 1) // 2
    consoles: list[Console] = []                # the backend's lines go above the progress bar

    def log(line: str) -> None:
        if quiet or not consoles:
            print(line, file=sys.stderr, flush=True)
        else:
            consoles[-1].write(line)

    owned = not isinstance(backend, Backend)
    if owned:
        backend = make_backend(backend, workers, address, checkpoints=checkpoints, log=log)
    if not quiet:
        rules = f" ({describe_options(env_kwargs)})" if env_kwargs else ""
        print(f"\n== {title or 'Tournament'}: {', '.join(labels_for(agents))} on {env_id}{rules}, "
              f"{games:,} games a matchup{' at most (SPRT)' if sprt else ''}, {_where(backend)}")
    console = Console(total, env_id, enabled=not quiet)
    consoles.append(console)
    try:
        try:
            result = play_round_robin(env_id, agents, games, seed=seed, sprt=sprt,
                                    env_kwargs=env_kwargs, progress=console, bootstrap=bootstrap,
                                    backend=backend, chunk=chunk)
        finally:
            console.close()
        d = result.to_dict()
        extra: dict[str, Any] = {}
        if crn_games:
            a, b = crn_agents or (agents[0], agents[1])
            extra["crn"] = crn_check(env_id, a, b, crn_games, seed=seed, env_kwargs=env_kwargs,
                                     backend=backend)
            extra["crn"]["a"], extra["crn"]["b"] = labels_for([a, b])
    finally:
        if owned:
            backend.close()
    if not quiet:
        print(f"\n{result.games:,} games in {result.seconds:.1f} s "
              f"({result.games / max(result.seconds, 1e-9):.0f} games/s)\n")
        print(report.ratings_table(d) + "\n")
        print(report.matchup_table(d) + "\n")
        print(report.home_line(d))
        if report.sprt_line(d):
            print(report.sprt_line(d))
        if extra.get("crn"):
            print("\nCommon random numbers: " + report.crn_table(extra["crn"]))
    if out is not None:
        folder = report.write_report(result, out, extra, learning_curve, title)
        if not quiet:
            print(f"\nreport written to {folder}/ (summary.md, results.json, CSVs, PNGs)")
    return result


def _where(backend: Backend) -> str:
    """Where a run plays, for its header line."""
    if isinstance(backend, RayCluster):
        return f"on Ray ({backend.address or 'a local instance'})"
    return f"{backend.slots} worker(s)"


class _Filming:
    """The env, drawing a frame (``env.render()``, an RGB array) after the reset and after
    every step of the game played through it."""

    def __init__(self, env):
        self.env, self.frames = env, []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def _shoot(self) -> None:
        frame = self.env.render()
        if frame is not None:
            self.frames.append(frame)

    def reset(self, *args: Any, **kwargs: Any) -> Any:
        out = self.env.reset(*args, **kwargs)
        self._shoot()
        return out

    def step(self, action: Any) -> None:
        self.env.step(action)
        self._shoot()


def replay(env_id: str, seed: int, away: str, home: str, env_kwargs: dict[str, Any] | None = None,
           gif: str | Path | None = None, fps: float = 2.0) -> str:
    """One game, ``away`` against ``home`` on ``seed`` under the env options ``env_kwargs``:
    its box score and play-by-play. With ``gif``, the game is also drawn into that animated
    GIF (``render_mode="rgb_array"``: a frame after the reset and after every step, ``fps``
    frames a second)."""
    env_kwargs = dict(env_kwargs or {})
    check_env_options(env_id, env_kwargs)
    check_agents(env_id, [away, home], env_kwargs)
    env = make(env_id, **env_kwargs, **({"render_mode": "rgb_array"} if gif is not None else {}))
    played = _Filming(env) if gif is not None else env
    result = play_game(played, {"away": make_agent(env_id, away), "home": make_agent(env_id, home)}, seed)
    winner = {"away": away, "home": home}.get(result.winner, "nobody (cut off)")
    rules = f" ({describe_options(env_kwargs)})" if env_kwargs else ""
    head = (f"{env_id}{rules}, seed {seed}: {away} (away) at {home} (home); final {result.score[0]}-"
            f"{result.score[1]} after {result.innings} innings, won by {winner}\n")
    text = head + "\n" + env.unwrapped.scorecard()
    if gif is not None:
        from ..envs.core.picture import write_gif
        Path(gif).parent.mkdir(parents=True, exist_ok=True)
        path = write_gif(played.frames, gif, fps=fps)
        text += f"\n{len(played.frames)} frames drawn into {path}\n"
    return text


# -- the subcommands: dugout tournament / replay / crn --------------------------------------------
def configure_tournament(t: args.Parser) -> None:
    """``dugout tournament``'s flags."""
    t.add_argument("--env", type=args.env_id, default="thats_baseball_v0",
                   help="environment id (default thats_baseball_v0)")
    t.add_argument("--agents", nargs="+", required=True, type=args.agent_ref,
                   help="agent names (python -c 'from dugout.agents import agent_names; "
                        "print(agent_names(\"thats_baseball_v0\"))') or ppo:CHECKPOINT_FOLDER")
    t.add_argument("--games", type=args.count(4, args.MAX_GAMES, "games a matchup", even=True),
                   default=1000, help="games per matchup, even (default 1000); with --sprt, the "
                                      "most per matchup")
    t.add_argument("--seed", type=args.seed, default=0, help="seed of the first pair (default 0)")
    _where_flags(t, chunk=True)
    t.add_argument("--out", metavar="DIR", type=args.out_dir, help="write the report folder there")
    t.add_argument("--bootstrap", type=args.count(1, args.MAX_RESAMPLES, "resamples"), default=1000,
                   help="bootstrap resamples for rating intervals")
    t.add_argument("--crn-check", type=args.count(0, args.MAX_GAMES, "games a design", even=True),
                   default=0, metavar="GAMES",
                   help="also measure the interval narrowing from common random numbers on the "
                        "first two agents, over GAMES games per design")
    t.add_argument("--learning-curve", metavar="PNG", type=args.in_file,
                   help="a training run's learning_curve.png for the report")
    t.add_argument("--quiet", action="store_true",
                   help="print nothing but errors and, on stderr, the ray backend's lines (the "
                        "connection, a worker that died)")
    _rules_flags(t)
    s = t.add_argument_group("sequential test (--sprt)")
    s.add_argument("--sprt", action="store_true",
                   help="stop each matchup as soon as one agent is shown better by the margin "
                        "(or neither is)")
    elo = args.real(-2000, 2000, what="Elo")
    s.add_argument("--elo0", type=elo, help="H0: the better agent is this many Elo better (default 0)")
    s.add_argument("--elo1", type=elo, help="H1: ... this many Elo better (default 30)")
    s.add_argument("--p0", type=args.probability, help="H0 as a win probability instead of --elo0 (e.g. 0.5)")
    s.add_argument("--p1", type=args.probability, help="H1 as a win probability instead of --elo1 (e.g. 0.55)")
    s.add_argument("--alpha", type=args.probability, default=0.05,
                   help="false-positive rate of each test (default 0.05)")
    s.add_argument("--beta", type=args.probability, default=0.05,
                   help="false-negative rate (default 0.05)")


def configure_replay(r: args.Parser) -> None:
    """``dugout replay``'s flags."""
    r.add_argument("--env", type=args.env_id, default="thats_baseball_v0", help="environment id")
    r.add_argument("--seed", type=args.seed, required=True, help="the game's seed")
    r.add_argument("--agents", nargs=2, required=True, type=args.agent_ref, metavar=("AWAY", "HOME"),
                   help="the two managers")
    _rules_flags(r)
    r.add_argument("--gif", metavar="FILE", type=args.out_file,
                   help="also draw the game into this animated GIF (a frame after the reset and "
                        "after every step)")
    r.add_argument("--fps", type=args.real(0, 50, lo_open=True, what="frames a second; a GIF's "
                                           "shortest frame is 20 ms"),
                   default=2.0, help="frames a second of --gif (default 2)")


def configure_crn(c: args.Parser) -> None:
    """``dugout crn``'s flags."""
    c.add_argument("--env", type=args.env_id, default="thats_baseball_v0", help="environment id")
    c.add_argument("--agents", nargs=2, required=True, type=args.agent_ref, metavar=("A", "B"))
    c.add_argument("--games", type=args.count(4, args.MAX_GAMES, "games a design", even=True),
                   default=4000, help="games per design, even (default 4000)")
    c.add_argument("--seed", type=args.seed, default=0)
    _where_flags(c)
    _rules_flags(c)


def _where_flags(parser: args.Parser, chunk: bool = False) -> None:
    """``--workers``, ``--backend``, ``--address``, ``--checkpoints`` (and ``--chunk``): where
    the games are played. The results are the same whatever they say."""
    g = parser.add_argument_group("where the games are played (the results are the same)")
    g.add_argument("--workers", type=args.workers, default=None,
                   help="worker processes (default 1); with --backend ray, the CPUs of the Ray "
                        "instance started here, or with --address at most this many tasks at once "
                        "(default: all the cluster's CPUs)")
    g.add_argument("--backend", choices=BACKENDS, default="process",
                   help="process: this machine (default); ray: each chunk of seeds is a Ray task "
                        f"(needs Ray: {INSTALL_HINT})")
    g.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: the cluster's address, HOST:PORT as `ray start --head` "
                        "prints it, ray://HOST:PORT or auto (default: start Ray on this machine)")
    g.add_argument("--checkpoints", choices=CHECKPOINT_MODES, default="ship",
                   help="with --backend ray: send trained managers' checkpoints through Ray's "
                        "object store (ship, default) or load them by a path every node sees (shared)")
    if chunk:
        g.add_argument("--chunk", type=args.count(1, 10**6, "seed pairs a task"), default=None,
                       help="seed pairs per task (default 25, 50 games, or fewer where a "
                            "matchup is too short to give each worker one); larger chunks "
                            "spread the per-task overhead of a cluster over more games")


def _rules_flags(parser: args.Parser) -> None:
    """``--teams`` and ``--env-option``: the env's options, the rules the games are played under."""
    g = parser.add_argument_group("rules (the env's options)")
    g.add_argument("--teams", nargs=2, metavar=("AWAY", "HOME"),
                   help="the env's teams option: two team names or files (That's Baseball, Showdown)")
    g.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE",
                   type=args.env_option,
                   help="an env option, repeatable (e.g. level=basic, innings=7, dh=true); VALUE "
                        "is read as JSON when it parses, else as a plain string")


def sprt_from_args(ns: argparse.Namespace) -> SPRT | None:
    if not ns.sprt:
        if any(getattr(ns, k) is not None for k in ("elo0", "elo1", "p0", "p1")):
            raise args.UsageError("--sprt", "--elo0/--elo1/--p0/--p1 set the margin of --sprt; "
                                             "add --sprt")
        return None
    if ns.p0 is not None or ns.p1 is not None:
        if ns.elo0 is not None or ns.elo1 is not None:
            raise args.UsageError("--p0", "give the SPRT margin as --elo0/--elo1 or as --p0/--p1, "
                                          "not both")
        if ns.p0 is None or ns.p1 is None:
            raise args.UsageError("--p0", "--p0 and --p1 go together")
        return SPRT(ns.p0, ns.p1, ns.alpha, ns.beta)
    return SPRT.from_elo(0.0 if ns.elo0 is None else ns.elo0,
                         30.0 if ns.elo1 is None else ns.elo1, ns.alpha, ns.beta)


def _check_rules_and_agents(ns: argparse.Namespace) -> None:
    """The rules (``--env-option``, ``--teams``: the env is built once with them and sets
    ``ns.env_kwargs``) and the agents (known to the env; a checkpoint loads and fits it)."""
    ns.env_kwargs = env_options_from_flags(ns.env, ns.env_option, ns.teams)
    ns.agents = [str(a) for a in ns.agents]
    try:
        check_agents(ns.env, ns.agents, ns.env_kwargs)
    except (ValueError, DugoutError) as error:
        raise args.UsageError("--agents", str(error)) from None


def check_tournament(ns: argparse.Namespace) -> None:
    """Every flag of ``dugout tournament``, checked before any game is played."""
    if len(ns.agents) < 2:
        raise args.UsageError("--agents", "a tournament needs at least two managers, got "
                                          f"{len(ns.agents)}")
    _check_where(ns)
    ns.sprt_test = sprt_from_args(ns)
    _check_rules_and_agents(ns)


def check_replay(ns: argparse.Namespace) -> None:
    if ns.gif is not None:
        _check_gif(ns.env)
    _check_rules_and_agents(ns)


def check_crn(ns: argparse.Namespace) -> None:
    _check_where(ns)
    _check_rules_and_agents(ns)


def _check_where(ns: argparse.Namespace) -> None:
    """``--address``/``--checkpoints`` only with ``--backend ray``, which needs Ray installed
    (the cluster itself is reached before the first game)."""
    if ns.backend != "ray":
        if ns.address is not None:
            raise args.UsageError("--address", f"--address {ns.address}: the address of a Ray cluster goes "
                                               f"with --backend ray (this run's backend is {ns.backend})")
        if ns.checkpoints != "ship":
            raise args.UsageError("--checkpoints", f"--checkpoints {ns.checkpoints}: how checkpoints reach Ray "
                                                   f"workers; it goes with --backend ray")
    elif not ray_installed():
        raise args.UsageError("--backend", f"--backend ray needs Ray, which is not installed here: {INSTALL_HINT}")


def _check_gif(env_id: str) -> None:
    """``replay --gif``: the env must draw pictures and matplotlib and Pillow be there."""
    import importlib.util
    from ..envs import spec
    modes = spec(env_id).env_class.metadata.get("render_modes", [])
    if "rgb_array" not in modes:
        raise args.UsageError("--gif", f"{env_id} cannot draw pictures (render modes "
                                       f"{', '.join(modes)}; no 'rgb_array')")
    missing = [name for name in ("matplotlib", "PIL") if importlib.util.find_spec(name) is None]
    if missing:
        raise args.UsageError("--gif", f"drawing needs matplotlib and Pillow ({', '.join(missing)} "
                                       f"missing: pip install dugout-baseball[plots])")


def run_tournament(ns: argparse.Namespace) -> TournamentResult:
    return tournament(ns.env, ns.agents, ns.games, ns.seed, ns.workers, ns.sprt_test, ns.out,
                      ns.crn_check, ns.bootstrap, ns.learning_curve, ns.quiet,
                      env_kwargs=ns.env_kwargs, backend=ns.backend, address=ns.address,
                      chunk=ns.chunk, checkpoints=ns.checkpoints)


def run_replay(ns: argparse.Namespace) -> str:
    text = replay(ns.env, ns.seed, *ns.agents, env_kwargs=ns.env_kwargs, gif=ns.gif, fps=ns.fps)
    print(text)
    return text


def run_crn(ns: argparse.Namespace) -> dict[str, Any]:
    with make_backend(ns.backend, ns.workers, ns.address, checkpoints=ns.checkpoints) as backend:
        result = crn_check(ns.env, ns.agents[0], ns.agents[1], ns.games, ns.seed,
                           env_kwargs=ns.env_kwargs, backend=backend)
    print(report.crn_table(result))
    return result


# -- dugout analyze -----------------------------------------------------------------------------
def configure_analyze(a: args.Parser) -> None:
    """``dugout analyze``'s flags."""
    from .analysis import DEFAULT_SEARCH
    a.add_argument("--env", type=args.env_or_challenge, default="thats_baseball_v0",
                   help=f"environment id, or {args.CHALLENGE_ID} for a campaign in Manager Points "
                        f"(default thats_baseball_v0)")
    a.add_argument("--agents", nargs="+", type=args.agent_ref, metavar="MANAGER", default=None,
                   help="the two managers who play the game, AWAY HOME (default heuristic "
                        "heuristic); with --report, the manager analysed and his opponent. The "
                        f"{args.CHALLENGE_ID} has one manager (default heuristic)")
    a.add_argument("--seed", type=args.seed, default=0,
                   help="the game's seed (with --report, the first pair's), as replay and "
                        "tournament take it; the campaign's seed (with --report, the first "
                        "campaign's), as dugout challenge takes it (default 0)")
    a.add_argument("--search", type=args.agent_ref, default=DEFAULT_SEARCH,
                   help=f"the search manager that prices every option: search or "
                        f"search:key=value,... (sims, batch, rollout, horizon, z; default "
                        f"{DEFAULT_SEARCH}, the ruleset's budget)")
    a.add_argument("--search-seed", type=args.seed, default=0,
                   help="the search's seed (each decision's search is seeded from it, the game's "
                        "seed and the decision's index; default 0)")
    a.add_argument("--seat", choices=("away", "home", "both"), default="both",
                   help="whose decisions to analyse (default both)")
    a.add_argument("--top", type=args.count(1, 1000, "decisions listed"), default=10,
                   help="how many of the costliest decisions to list (default 10)")
    a.add_argument("--saved", metavar="FILE", type=args.in_file,
                   help="analyse the pending decision of this saved game instead (JSON of "
                        "env.unwrapped.save().to_dict(), played under the same --env and options)")
    a.add_argument("--plot", metavar="FILE", type=args.out_file,
                   help="draw both seats' chance of winning through the game into FILE (PNG, or "
                        "the format of its suffix; needs matplotlib)")
    a.add_argument("--json", metavar="FILE", type=args.out_file,
                   help="write the analysis (every record, or the report) as JSON")
    a.add_argument("--report", metavar="GAMES", type=args.count(1, args.MAX_GAMES, "games or campaigns"),
                   help="instead of one game: every decision of the first manager over GAMES "
                        "seat-swapped games against the second (an even number), by decision "
                        "kind; in the Manager Challenge, over GAMES campaigns")
    a.add_argument("--workers", type=args.workers, default=None,
                   help="with --report: worker processes (default 1; the report is the same)")
    a.add_argument("--held-out", action="store_true",
                   help="with --report: price every choice again on fresh worlds, an estimate "
                        "of the cost free of the winner's curse (twice the search)")
    _rules_flags(a)


def check_analyze(ns: argparse.Namespace) -> None:
    """Every flag of ``dugout analyze``, checked before any game is played: the flags that go
    together, the plot's format, the rules and managers, the search, the saved game."""
    if ns.report is not None:
        for flag, given in (("--seat", ns.seat != "both"), ("--plot", ns.plot is not None),
                            ("--saved", ns.saved is not None)):
            if given:
                raise args.UsageError(flag, f"{flag} goes with one game's analysis; --report "
                                            f"analyses every decision of the first manager")
    elif ns.workers is not None:
        raise args.UsageError("--workers", "--workers plays the games of --report; one game is "
                                           "analysed in this process")
    elif ns.held_out:
        raise args.UsageError("--held-out", "--held-out prices the choices of --report's games "
                                            "again; give --report GAMES")
    if ns.saved is not None and ns.plot is not None:
        raise args.UsageError("--plot", "--plot draws a game's course; a saved position is one "
                                        "decision (--saved)")
    if ns.plot is not None:
        args.check_plot_file(Path(ns.plot))
    if ns.env == args.CHALLENGE_ID:
        _check_campaign_analysis(ns)
    else:
        _check_game_analysis(ns)
    search = ns.search
    if search.kind != "search" and str(search) != "search":
        raise args.UsageError("--search", f"--search {search}: the analysis needs the search "
                                          f"manager, search or search:key=value,...")
    ns.search = str(search)
    try:
        if ns.env == args.CHALLENGE_ID:
            from ..agents.registry import check_agents as check_challenge_agents
            check_challenge_agents(ns.env, [ns.search], ns.env_kwargs)
        else:
            check_agents(ns.env, [ns.search], ns.env_kwargs)
    except (ValueError, DugoutError) as error:
        raise args.UsageError("--search", str(error)) from None
    if ns.saved is not None:
        ns.saved_state = _check_saved_campaign(ns) if ns.env == args.CHALLENGE_ID else _check_saved(ns)


def _check_game_analysis(ns: argparse.Namespace) -> None:
    """A two-manager game's: two managers, an even ``--report``, the rules and managers."""
    if ns.agents is None:
        ns.agents = ["heuristic", "heuristic"]
    if len(ns.agents) != 2:
        raise args.UsageError("--agents", f"a game of {ns.env} has two managers, AWAY HOME; got "
                                          f"{len(ns.agents)}")
    if ns.report is not None and (ns.report < 2 or ns.report % 2):
        raise args.UsageError("--report", f"--report plays seat-swapped pairs: an even number of "
                                          f"games, at least 2, got {ns.report}")
    _check_rules_and_agents(ns)


def _check_campaign_analysis(ns: argparse.Namespace) -> None:
    """The Manager Challenge's: one manager at home (no ``--seat``, no ``--teams``), the
    last campaign's seed, the env built once with ``--env-option``, the manager."""
    from .manager_challenge import _checked_agent
    if ns.agents is None:
        ns.agents = ["heuristic"]
    if len(ns.agents) != 1:
        raise args.UsageError("--agents", f"the {args.CHALLENGE_ID} has one manager; got "
                                          f"{len(ns.agents)}")
    if ns.seat != "both":
        raise args.UsageError("--seat", f"the {args.CHALLENGE_ID}'s manager is always at home; "
                                        f"--seat chooses a seat of a two-manager game")
    if ns.teams is not None:
        raise args.UsageError("--teams", f"the {args.CHALLENGE_ID} has no teams option (its card "
                                         f"set is an --env-option)")
    last = ns.seed + (ns.report or 1) - 1
    if last > args.MAX_SEED:
        raise args.UsageError("--seed", f"the campaigns play seeds {ns.seed} to {last}; the last "
                                        f"must be at most {args.MAX_SEED}: lower --seed or --report")
    ns.env_kwargs = args.env_options(ns.env_option)
    try:
        make(ns.env, **ns.env_kwargs)
    except (DugoutError, ValueError, TypeError) as error:
        raise args.UsageError("--env-option", str(error)) from None
    ns.agents = [_checked_agent(ns.agents[0], ns.env_kwargs)]


def _check_saved_campaign(ns: argparse.Namespace) -> Any:
    """``--saved`` in the Manager Challenge: a saved campaign that loads, waiting on a
    decision with more than one legal action; the loaded campaign."""
    from .challenge_analysis import pending_campaign
    try:
        return pending_campaign(ns.env_kwargs, ns.saved).unwrapped.save()
    except (ValueError, DugoutError) as error:
        raise args.UsageError("--saved", f"--saved {ns.saved}: {error}") from None


def _check_saved(ns: argparse.Namespace) -> Any:
    """``--saved``: a save of this env's games, loaded, whose game waits on a decision with
    more than one legal action; the loaded state."""
    from .analysis import load_saved
    env = make(ns.env, **ns.env_kwargs)
    env.reset(seed=0)
    try:
        state = load_saved(env, ns.saved)
        env.unwrapped.restore(state)
    except (ValueError, DugoutError) as error:
        raise args.UsageError("--saved", f"--saved {ns.saved}: {error}") from None
    pending = env.unwrapped.state_.pending
    if pending is None or env.unwrapped.state_.over:
        raise args.UsageError("--saved", f"--saved {ns.saved}: the game is over; there is no "
                                         f"decision to analyse")
    if len(pending.legal) < 2:
        raise args.UsageError("--saved", f"--saved {ns.saved}: the pending {pending.kind!r} "
                                         f"decision has one legal action; nothing to analyse")
    return state


def analyze(ns: argparse.Namespace) -> Any:
    """``dugout analyze``'s work, its flags checked: print the analysis, write ``--plot`` and
    ``--json``; the analysis (a ``GameAnalysis``, a ``DecisionRecord`` or a
    ``DecisionReport``)."""
    from . import analysis
    if ns.env == args.CHALLENGE_ID:
        result = _analyze_campaign(ns)
    elif ns.report is not None:
        result = _with_progress(ns, "games", lambda progress: analysis.decision_report(
            ns.env, ns.env_kwargs, ns.agents[0], ns.agents[1], ns.report, ns.seed, ns.search,
            ns.search_seed, workers=ns.workers, progress=progress, held_out=ns.held_out))
        print(analysis.report_text(result))
    elif ns.saved is not None:
        env = make(ns.env, **ns.env_kwargs)
        env.reset(seed=0)
        env.unwrapped.restore(ns.saved_state)
        result = analysis.analyse_position(env, ns.search, ns.search_seed, game_seed=0, step=0)
        print(analysis.position_text(result))
    else:
        seats = ("away", "home") if ns.seat == "both" else (ns.seat,)
        result = analysis.analyse_game(ns.env, ns.env_kwargs,
                                       {"away": ns.agents[0], "home": ns.agents[1]}, ns.seed,
                                       ns.search, seats, ns.search_seed)
        print(analysis.game_text(result, ns.top))
        if ns.plot is not None:
            print(f"plot written to {analysis.plot_win_probability(result, ns.plot)}")
    if ns.json is not None:
        print(f"analysis written to {args.write_json(ns.json, result.to_dict())}")
    return result


def _with_progress(ns: argparse.Namespace, unit: str, report: Any) -> Any:
    """``report(progress)`` (a decision report over ``--report`` games or campaigns) under a
    progress bar counting ``unit``."""
    console = Console(ns.report, f"analyze {ns.env}", unit=unit)
    try:
        return report(lambda done: console(done, None))
    finally:
        console.close()


def _analyze_campaign(ns: argparse.Namespace) -> Any:
    """The Manager Challenge's analysis: a report over ``--report`` campaigns, a saved
    campaign's pending decision, or one campaign (and its ``--plot``)."""
    from . import analysis, challenge_analysis as ca
    manager = ns.agents[0]
    if ns.report is not None:
        result = _with_progress(ns, "campaigns", lambda progress: ca.campaign_report(
            ns.env_kwargs, manager, ns.report, ns.seed, ns.search, ns.search_seed,
            workers=ns.workers, progress=progress, held_out=ns.held_out))
        print(analysis.report_text(result))
    elif ns.saved is not None:
        result = ca.analyse_saved_campaign(ns.env_kwargs, ns.saved_state, ns.search, ns.search_seed)
        print(analysis.position_text(result, unit="mp"))
    else:
        result = ca.analyse_campaign(ns.env_kwargs, manager, ns.seed, ns.search, ns.search_seed)
        print(ca.campaign_text(result, ns.top))
        if ns.plot is not None:
            print(f"plot written to {ca.plot_expected_points(result, ns.plot)}")
    return result


def run_analyze(ns: argparse.Namespace) -> Any:
    return analyze(ns)


SUBCOMMANDS = {"tournament": (configure_tournament, check_tournament, run_tournament),
               "replay": (configure_replay, check_replay, run_replay),
               "crn": (configure_crn, check_crn, run_crn),
               "analyze": (configure_analyze, check_analyze, run_analyze)}


def main(argv: Sequence[str] | None = None) -> Any:
    """``python -m dugout.evaluate {tournament,replay,crn,analyze} ...``: the same as
    ``dugout tournament ...`` (and replay, crn, analyze)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in SUBCOMMANDS:
        sys.stderr.write("dugout: error: python -m dugout.evaluate takes tournament, replay, crn "
                         f"or analyze first, got {argv[0] if argv else 'nothing'!r}\n")
        raise SystemExit(2)
    configure, check, run = SUBCOMMANDS[argv[0]]
    return args.invoke(f"dugout {argv[0]}", configure, check, run, argv[1:], __doc__)
