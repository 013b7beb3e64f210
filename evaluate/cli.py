"""``python -m dugout.evaluate``: tournaments, replays and the common-random-numbers check.

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

``tournament`` plays a round robin of seat-swapped pairs (:mod:`dugout.evaluate.tournament`),
prints a row per matchup as it finishes under a progress bar with games per second, then
the ratings and matchup tables; ``--out`` writes the report folder
(:mod:`dugout.evaluate.report`). ``--games`` is per matchup (half as many pairs); with
``--sprt`` it is the most a matchup may play. ``replay`` prints the box score and
play-by-play of one game (the first agent away). ``crn`` measures how much pairing on the
same dice narrows the interval (:func:`dugout.evaluate.tournament.crn_check`);
``replay --gif FILE`` also draws the game, a frame after the reset and after every
step, into an animated GIF (``--fps`` frames a second, default 2).

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
from ..envs import make
from ..envs.core.errors import DugoutError
from ..envs.options import describe_options
from . import report
from .backends import (BACKENDS, CHECKPOINT_MODES, INSTALL_HINT, Backend, RayCluster, make_backend,
                       ray_installed)
from .stats import SPRT
from .tournament import (MatchupResult, TournamentResult, check_agents, check_env_options, crn_check,
                         env_options_from_flags, labels_for, run_tournament)

__all__ = ["main", "tournament", "Console"]


class Console:
    """The console while a tournament runs: a progress bar with games per second (tqdm when
    it is installed, a plain line now and then when not) and a row per finished matchup."""

    def __init__(self, total_games: int, label: str, enabled: bool = True):
        self.total, self.enabled, self.label = total_games, enabled, label
        self.done = 0
        self.start = time.perf_counter()
        self.last_print = 0.0
        self.bar = None
        if enabled:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total_games, desc=label, unit="games", file=sys.stderr,
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
            print(f"{self.label}: {games_done:,}/{self.total:,} games, {rate:.0f} games/s",
                  file=sys.stderr, flush=True)
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
               address: str | None = None, chunk: int = 25,
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
            result = run_tournament(env_id, agents, games, seed=seed, sprt=sprt,
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
        path = write_gif(played.frames, gif, fps=fps)
        text += f"\n{len(played.frames)} frames drawn into {path}\n"
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m dugout.evaluate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="{tournament,replay,crn}")

    t = sub.add_parser("tournament", help="round robin of seat-swapped pairs, with a report")
    t.add_argument("--env", default="thats_baseball_v0", help="environment id (default thats_baseball_v0)")
    t.add_argument("--agents", nargs="+", required=True,
                   help="agent names (python -c 'from dugout.agents import agent_names; "
                        "print(agent_names(\"thats_baseball_v0\"))') or ppo:CHECKPOINT_FOLDER")
    t.add_argument("--games", type=int, default=1000,
                   help="games per matchup, even (default 1000); with --sprt, the most per matchup")
    t.add_argument("--seed", type=int, default=0, help="seed of the first pair (default 0)")
    _where_flags(t, chunk=True)
    t.add_argument("--out", metavar="DIR", help="write the report folder there")
    t.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples for rating intervals")
    t.add_argument("--crn-check", type=int, default=0, metavar="GAMES",
                   help="also measure the interval narrowing from common random numbers on the "
                        "first two agents, over GAMES games per design")
    t.add_argument("--learning-curve", metavar="PNG", help="a training run's learning_curve.png for the report")
    t.add_argument("--quiet", action="store_true",
                   help="print nothing but errors and, on stderr, the ray backend's lines (the "
                        "connection, a worker that died)")
    _rules_flags(t)
    s = t.add_argument_group("sequential test (--sprt)")
    s.add_argument("--sprt", action="store_true",
                   help="stop each matchup as soon as one agent is shown better by the margin "
                        "(or neither is)")
    s.add_argument("--elo0", type=float, help="H0: the better agent is this many Elo better (default 0)")
    s.add_argument("--elo1", type=float, help="H1: ... this many Elo better (default 30)")
    s.add_argument("--p0", type=float, help="H0 as a win probability instead of --elo0 (e.g. 0.5)")
    s.add_argument("--p1", type=float, help="H1 as a win probability instead of --elo1 (e.g. 0.55)")
    s.add_argument("--alpha", type=float, default=0.05, help="false-positive rate of each test (default 0.05)")
    s.add_argument("--beta", type=float, default=0.05, help="false-negative rate (default 0.05)")

    r = sub.add_parser("replay", help="the box score and play-by-play of one game")
    r.add_argument("--env", default="thats_baseball_v0", help="environment id")
    r.add_argument("--seed", type=int, required=True, help="the game's seed")
    r.add_argument("--agents", nargs=2, required=True, metavar=("AWAY", "HOME"), help="the two managers")
    _rules_flags(r)
    r.add_argument("--gif", metavar="FILE", help="also draw the game into this animated GIF "
                   "(a frame after the reset and after every step)")
    r.add_argument("--fps", type=float, default=2.0, help="frames a second of --gif (default 2)")

    c = sub.add_parser("crn", help="interval narrowing from common random numbers")
    c.add_argument("--env", default="thats_baseball_v0", help="environment id")
    c.add_argument("--agents", nargs=2, required=True, metavar=("A", "B"))
    c.add_argument("--games", type=int, default=4000, help="games per design, even (default 4000)")
    c.add_argument("--seed", type=int, default=0)
    _where_flags(c)
    _rules_flags(c)
    return parser


def _where_flags(parser: argparse.ArgumentParser, chunk: bool = False) -> None:
    """``--workers``, ``--backend``, ``--address``, ``--checkpoints`` (and ``--chunk``): where
    the games are played. The results are the same whatever they say."""
    g = parser.add_argument_group("where the games are played (the results are the same)")
    g.add_argument("--workers", type=int, default=None,
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
        g.add_argument("--chunk", type=int, default=25,
                       help="seed pairs per task (default 25, 50 games); larger chunks spread "
                            "the per-task overhead of a cluster over more games")


def _rules_flags(parser: argparse.ArgumentParser) -> None:
    """``--teams`` and ``--env-option``: the env's options, the rules the games are played under."""
    g = parser.add_argument_group("rules (the env's options)")
    g.add_argument("--teams", nargs=2, metavar=("AWAY", "HOME"),
                   help="the env's teams option: two team names or files (That's Baseball, Showdown)")
    g.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an env option, repeatable (e.g. level=basic, innings=7, dh=true); VALUE "
                        "is read as JSON when it parses, else as a plain string")


def sprt_from_args(args: argparse.Namespace) -> SPRT | None:
    if not args.sprt:
        if any(getattr(args, k) is not None for k in ("elo0", "elo1", "p0", "p1")):
            raise ValueError("--elo0/--elo1/--p0/--p1 set the margin of --sprt; add --sprt")
        return None
    if args.p0 is not None or args.p1 is not None:
        if args.elo0 is not None or args.elo1 is not None:
            raise ValueError("give the SPRT margin as --elo0/--elo1 or as --p0/--p1, not both")
        if args.p0 is None or args.p1 is None:
            raise ValueError("--p0 and --p1 go together")
        return SPRT(args.p0, args.p1, args.alpha, args.beta)
    return SPRT.from_elo(0.0 if args.elo0 is None else args.elo0,
                         30.0 if args.elo1 is None else args.elo1, args.alpha, args.beta)


def _check_out(out: str) -> None:
    """The report folder must be a folder that can be made: checked before any game is played."""
    path = Path(out)
    for part in [path, *path.parents]:
        if part.exists():
            if not part.is_dir():
                raise ValueError(f"--out {out}: {part} is a file, not a folder")
            break
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"--out {out}: cannot make the folder ({error.strerror})") from None


def check_args(args: argparse.Namespace) -> None:
    """Every numeric flag and path, and the rules (``--env-option``, ``--teams``: the env is
    built once with them and sets ``args.env_kwargs``), checked before any game is played;
    a ``ValueError`` naming the flag."""
    def need(ok: bool, flag: str, what: str) -> None:
        if not ok:
            raise ValueError(f"{flag} must be {what}, got {getattr(args, flag[2:].replace('-', '_'))}")

    need(args.seed >= 0, "--seed", "a non-negative integer")
    if args.command in ("tournament", "crn"):
        need(args.games >= 4 and args.games % 2 == 0, "--games",
             "an even number, at least 4 (two seat-swapped games a pair)")
        _check_where(args, need)
    if args.command == "replay" and args.gif is not None:
        _check_gif(args.env, args.gif, args.fps)
    if args.command == "tournament":
        _check_tournament(args, need)
    # the rules: the env is built once with them (the env's own checks)
    args.env_kwargs = env_options_from_flags(args.env, args.env_option, args.teams)
    if args.command == "tournament" and args.out is not None:
        _check_out(args.out)                  # last: it makes the folder


def _check_where(args: argparse.Namespace, need) -> None:
    """``--workers``, ``--chunk``, and ``--address``/``--checkpoints`` only with ``--backend
    ray``, which needs Ray installed (the cluster itself is reached before the first game)."""
    need(args.workers is None or args.workers >= 1, "--workers", "at least 1")
    need(getattr(args, "chunk", 1) >= 1, "--chunk", "at least 1 (seed pairs per task)")
    if args.backend != "ray":
        if args.address is not None:
            raise ValueError(f"--address {args.address}: the address of a Ray cluster goes with "
                             f"--backend ray (this run's backend is {args.backend})")
        if args.checkpoints != "ship":
            raise ValueError(f"--checkpoints {args.checkpoints}: how checkpoints reach Ray "
                             f"workers; it goes with --backend ray")
    elif not ray_installed():
        raise ValueError(f"--backend ray needs Ray, which is not installed here: {INSTALL_HINT}")


def _check_tournament(args: argparse.Namespace, need) -> None:
    need(args.bootstrap >= 1, "--bootstrap", "at least 1 (resamples for the rating intervals)")
    need(args.crn_check >= 0 and args.crn_check % 2 == 0, "--crn-check",
         "0 (none) or an even number of games")
    for flag in ("--alpha", "--beta", "--p0", "--p1"):
        value = getattr(args, flag[2:])
        need(value is None or 0 < value < 1, flag, "a probability strictly between 0 and 1")
    if args.learning_curve is not None and not Path(args.learning_curve).is_file():
        raise ValueError(f"--learning-curve {args.learning_curve}: no such file")


def _check_gif(env_id: str, gif: str, fps: float) -> None:
    """``replay --gif``: the env must draw pictures and the file's folder must exist."""
    import importlib.util
    from ..envs import spec
    if not 0 < fps <= 50:
        raise ValueError(f"--fps must be more than 0 and at most 50 frames a second (a GIF's "
                         f"shortest frame is 20 ms), got {fps}")
    try:
        modes = spec(env_id).env_class.metadata.get("render_modes", [])
    except DugoutError:
        return                               # an unknown env: said by the next check
    if "rgb_array" not in modes:
        raise ValueError(f"--gif: {env_id} cannot draw pictures (render modes {', '.join(modes)}; "
                         f"no 'rgb_array')")
    try:
        from ..envs.core import picture   # noqa: F401  (write_gif)
    except ImportError as error:
        raise ValueError(f"--gif: cannot write a GIF here ({error})") from None
    missing = [name for name in ("matplotlib", "PIL") if importlib.util.find_spec(name) is None]
    if missing:
        raise ValueError(f"--gif: drawing needs matplotlib and Pillow ({', '.join(missing)} missing: "
                         f"pip install dugout[plots])")
    path = Path(gif)
    if path.is_dir():
        raise ValueError(f"--gif {gif}: is a folder; give a file name such as game.gif")
    if not path.parent.is_dir():
        raise ValueError(f"--gif {gif}: no folder {path.parent}")


def main(argv: Sequence[str] | None = None) -> Any:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        check_args(args)
        env_kwargs = args.env_kwargs
        if args.command == "tournament":
            return tournament(args.env, args.agents, args.games, args.seed, args.workers,
                              sprt_from_args(args), args.out, args.crn_check, args.bootstrap,
                              args.learning_curve, args.quiet, env_kwargs=env_kwargs,
                              backend=args.backend, address=args.address, chunk=args.chunk,
                              checkpoints=args.checkpoints)
        if args.command == "replay":
            text = replay(args.env, args.seed, *args.agents, env_kwargs=env_kwargs, gif=args.gif,
                          fps=args.fps)
            print(text)
            return text
        with make_backend(args.backend, args.workers, args.address,
                          checkpoints=args.checkpoints) as backend:
            result = crn_check(args.env, args.agents[0], args.agents[1], args.games, args.seed,
                               env_kwargs=env_kwargs, backend=backend)
        print(report.crn_table(result))
        return result
    except (ValueError, DugoutError) as error:   # bad flags, TournamentError, CheckpointError, options
        parser.error(str(error))
