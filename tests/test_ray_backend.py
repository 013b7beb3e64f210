"""The ray backend (:mod:`dugout.evaluate.backends`): tournaments, CRN checks and the Showdown
calibration as Ray tasks give the very numbers of ``--workers 1``; a worker killed mid-run
has its chunk played again and counted once; the death of this machine's raylet restarts
the local Ray instance (or reconnects once to the cluster) and the run ends with the
numbers of an undisturbed one, a trained manager's checkpoint shipped again; a raylet that
keeps dying, a worker that keeps dying, a cluster that does not answer and an address that
is not one stop with a clear error; trained managers' checkpoints reach the workers through
the object store; and nothing imports Ray unless the ray backend is used.

These tests need Ray, so they run in .venv-rllib beside the RLlib recipe's
(``scripts/test_rllib.sh``, marker ``ray``); the main run deselects them. Ray is started
by the tests on this machine with two CPUs and no dashboard.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dugout.studies import calibrate_showdown as cal
from dugout.evaluate import cli
from dugout.envs.core.errors import DugoutError
from dugout.evaluate.backends import BackendError, CheckpointFiles, RayCluster, RayletDiedError
from dugout.evaluate.stats import SPRT
from dugout.evaluate.tournament import crn_check, run_tournament

pytestmark = pytest.mark.ray

TB = "thats_baseball_v0"
ROOT = Path(__file__).resolve().parents[1]
AGENTS = ["random", "heuristic", "never-steal"]


@pytest.fixture(scope="module")
def ray_session():
    """A Ray instance on this machine for the module: two CPUs, no dashboard."""
    import ray
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def _without_timing(d):
    d = dict(d)
    for key in ("seconds", "games_per_second", "workers"):
        d.pop(key)
    return d


def _lines():
    lines: list[str] = []
    return lines, lines.append


# -- the same numbers as --workers 1 -----------------------------------------------------------
def test_ray_tournament_is_identical_to_one_worker(ray_session):
    lines, log = _lines()
    one = run_tournament(TB, AGENTS, games=40, seed=3, workers=1, chunk=4, bootstrap=100)
    backend = RayCluster(log=log)
    on_ray = run_tournament(TB, AGENTS, games=40, seed=3, chunk=4, bootstrap=100, backend=backend)
    assert _without_timing(one.to_dict()) == _without_timing(on_ray.to_dict())
    assert [m.pairs for m in one.matchups] == [m.pairs for m in on_ray.matchups]
    assert backend.tasks_sent == 3 * 5 and backend.retries == 0     # 20 pairs a matchup, 4 a chunk
    assert on_ray.workers == 2 and "2 CPU(s) on 1 node(s)" in lines[0]


def test_a_search_tournament_on_ray_is_identical_to_one_worker(ray_session):
    """The search manager is built from its reference in each Ray worker, gets the set-up
    from the worker's game loop, and draws its worlds from its own seed: the same games."""
    agents = ["search:sims=2,batch=1,horizon=1", "heuristic"]
    one = run_tournament("grand_slam_v0", agents, games=8, seed=4, workers=1, chunk=2, bootstrap=20)
    on_ray = run_tournament("grand_slam_v0", agents, games=8, seed=4, chunk=2, bootstrap=20,
                            backend=RayCluster(log=lambda line: None))
    assert [m.pairs for m in one.matchups] == [m.pairs for m in on_ray.matchups]


def test_ray_sprt_stops_at_the_same_pair(ray_session):
    sprt = SPRT.from_elo(0, 100, min_pairs=5)
    one = run_tournament(TB, ["heuristic", "random"], games=400, seed=1, chunk=3, sprt=sprt,
                         bootstrap=50)
    on_ray = run_tournament(TB, ["heuristic", "random"], games=400, seed=1, chunk=3, sprt=sprt,
                            bootstrap=50, backend=RayCluster(log=lambda line: None))
    assert one.matchups[0].sprt == on_ray.matchups[0].sprt
    assert one.matchups[0].pairs == on_ray.matchups[0].pairs
    assert one.matchups[0].sprt.decision == "A better" and one.matchups[0].n_pairs < 200


def test_ray_crn_check_is_identical(ray_session):
    one = crn_check(TB, "heuristic", "never-steal", games=60, seed=2)
    on_ray = crn_check(TB, "heuristic", "never-steal", games=60, seed=2,
                       backend=RayCluster(log=lambda line: None))
    assert one == on_ray


def test_command_line_ray_writes_the_report_of_workers_1(ray_session, tmp_path, capsys):
    argv = ["tournament", "--agents", "random", "heuristic", "--games", "24", "--seed", "5",
            "--bootstrap", "30", "--crn-check", "8"]
    cli.main(argv + ["--out", str(tmp_path / "one")])
    cli.main(argv + ["--backend", "ray", "--chunk", "5", "--out", str(tmp_path / "ray")])
    out = capsys.readouterr().out
    assert "on Ray (a local instance)" in out and "Ray: the Ray cluster this process" in out
    one, on_ray = (json.loads((tmp_path / d / "results.json").read_text()) for d in ("one", "ray"))
    assert _without_timing(one) == _without_timing(on_ray)
    assert (tmp_path / "one" / "pairs.csv").read_text() == (tmp_path / "ray" / "pairs.csv").read_text()
    crn = cli.main(["crn", "--agents", "heuristic", "random", "--games", "8", "--backend", "ray"])
    assert crn == cli.main(["crn", "--agents", "heuristic", "random", "--games", "8"])


def test_a_driver_in_another_process_joins_the_cluster_by_its_address(ray_session, tmp_path):
    """What a user on a cluster does: `--address HOST:PORT` from a fresh process."""
    argv = ["tournament", "--agents", "random", "heuristic", "--games", "12", "--bootstrap", "20",
            "--quiet"]
    done = subprocess.run([sys.executable, "-m", "dugout.evaluate", *argv, "--backend", "ray",
                           "--address", ray_session, "--out", str(tmp_path / "ray")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    cli.main(argv + ["--out", str(tmp_path / "one")])
    one, on_ray = (json.loads((tmp_path / d / "results.json").read_text()) for d in ("one", "ray"))
    assert _without_timing(one) == _without_timing(on_ray)


def test_calibration_on_ray_is_identical(ray_session, capsys):
    small = ["--teams", "bos2004", "sln2004", "--games", "20", "--seed", "3"]
    one = cal.main(small)
    on_ray = cal.main(small + ["--backend", "ray"])
    capsys.readouterr()
    assert one["teams"] == on_ray["teams"] and one["summary"] == on_ray["summary"]
    assert on_ray["settings"]["backend"] == "ray"


# -- workers that die ----------------------------------------------------------------------------
def _ppid(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def _busy_workers() -> list[int]:
    """This session's Ray workers now playing a chunk: Ray titles a worker running a task
    ``ray::<function>``; the raylet that started them is a child of this process."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            busy = (proc / "cmdline").read_bytes().startswith(b"ray::play_chunk")
            if busy and _ppid(_ppid(int(proc.name))) == os.getpid():
                found.append(int(proc.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def test_a_worker_killed_mid_run_changes_nothing(ray_session):
    """SIGKILL a worker while it plays a chunk: the chunk is played again, counted once,
    and the results are those of --workers 1."""
    lines, log = _lines()
    backend = RayCluster(log=log)
    killed: list[int] = []

    def progress(games_done, finished):
        if backend.retries == 0 and len(killed) < 5:      # until a kill has cost a chunk
            for pid in _busy_workers()[:1]:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

    agents = ["heuristic", "random"]
    on_ray = run_tournament(TB, agents, games=160, seed=7, chunk=5, bootstrap=50, backend=backend,
                            progress=progress)
    one = run_tournament(TB, agents, games=160, seed=7, workers=1, chunk=5, bootstrap=50)
    assert killed and backend.retries >= 1
    assert backend.tasks_sent == 16 + backend.retries                # 80 pairs in chunks of 5
    assert any("died (WorkerCrashedError)" in line and "count once" in line for line in lines), lines
    assert on_ray.games == 160 and [p.seed for p in on_ray.matchups[0].pairs] == list(range(7, 87))
    assert _without_timing(one.to_dict()) == _without_timing(on_ray.to_dict())


def _die(code: int) -> None:
    os._exit(code)


def _fail(message: str) -> None:
    raise ValueError(message)


def test_a_worker_that_keeps_dying_stops_the_run_naming_the_task(ray_session):
    import ray.cloudpickle
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])    # workers cannot import tests
    lines, log = _lines()
    backend = RayCluster(log=log, max_retries=1)
    accepted = []
    with pytest.raises(BackendError, match=r"died 2 time\(s\) playing chunk seven"):
        backend.run(_die, iter([(7, (3,))]), lambda key, result: accepted.append(key),
                    describe=lambda key: "chunk seven")
    assert not accepted and backend.retries == 1 and "retry 1 of 1" in lines[-1]
    # an exception in the task is a bug, raised here and never retried
    failing = RayCluster(log=log)
    with pytest.raises(ValueError, match="no such manager"):
        failing.run(_fail, iter([(0, ("no such manager",))]), lambda key, result: None)
    assert failing.retries == 0


# -- this machine's raylet dies ---------------------------------------------------------------------
# A run in a process of its own: the command line, on a Ray instance the backend starts (or
# joins at --address), so that it is the backend's to restart (in this process the module's
# Ray was initialized by the fixture). The first argument says how the raylet dies:
#   "kill": SIGKILL the raylet of the instance as soon as the first result is accepted (once);
#   "fail": [first, last]: ray.get number first..last (last null: every one from first on)
#       raises Ray's LocalRayletDiedError, what it does once the raylet is gone;
#   "move": [folder, to]: the checkpoint folder is moved away once it has been shipped (the
#       workers can then only play the files sent, also after a restart);
#   "no_reconnect": every ray.init after the first fails (a cluster that does not answer).
# At the end the backend's counts are printed to stderr ("counts: {...}").
_RAYLET_DIES = """
import json, os, signal, sys, time
from pathlib import Path
import ray
from dugout.evaluate import cli
from dugout.evaluate.backends import RayCluster

how = json.loads(sys.argv[1])

def raylet() -> int:
    # the raylet of the instance this process started: a child of it
    for proc in Path("/proc").iterdir():
        try:
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            name = (proc / "cmdline").read_bytes().split(b"\\0")[0]
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and name.endswith(b"/raylet"):
            return int(proc.name)
    raise SystemExit("no raylet among this process's children")

run, ship, close, killed = RayCluster.run, RayCluster.ship, RayCluster.close, []

def run_and_kill(self, fn, tasks, accept, describe=str):
    def accept_then_kill(key, result):
        accept(key, result)
        if not killed:
            killed.append(raylet())
            os.kill(killed[0], signal.SIGKILL)
            print(f"killed the raylet after {key}", file=sys.stderr, flush=True)
            # nothing more is sent until Ray has marked the node dead: the chunks in flight
            # end meanwhile, so the worker leased to play them goes back to the dead raylet
            # and no chunk sent later can be played (else a run this short might end on it
            # before anything notices the raylet is gone)
            start = time.monotonic()
            while any(node["Alive"] for node in ray.nodes()) and time.monotonic() < start + 60:
                time.sleep(0.1)
            print(f"the node marked dead after {time.monotonic() - start:.1f} s",
                  file=sys.stderr, flush=True)
    return run(self, fn, tasks, accept_then_kill, describe)

def ship_and_move(self, names):
    sent = ship(self, names)
    os.rename(*how["move"])
    return sent

def close_and_count(self):
    print("counts: " + json.dumps({"tasks_sent": self.tasks_sent, "retries": self.retries,
                                   "restarts": getattr(self, "restarts", None)}),
          file=sys.stderr, flush=True)
    close(self)

if how.get("kill"):
    RayCluster.run = run_and_kill
if how.get("move"):
    RayCluster.ship = ship_and_move
RayCluster.close = close_and_count
if how.get("fail"):
    real_get, gets, (first, last) = ray.get, [], how["fail"]

    def get(ref, *args, **kwargs):
        gets.append(1)
        if first <= len(gets) and (last is None or len(gets) <= last):
            raise ray.exceptions.LocalRayletDiedError()
        return real_get(ref, *args, **kwargs)
    ray.get = get
if how.get("no_reconnect"):
    real_init = ray.init

    def init(*args, **kwargs):
        if how.setdefault("inits", 0):
            raise ConnectionError("nobody answers (the test's)")
        how["inits"] += 1
        return real_init(*args, **kwargs)
    ray.init = init
cli.main(sys.argv[2:])
"""


def _raylet_dies(how: dict, *argv: str, env: dict | None = None):
    """The command line in a process of its own, its raylet dying as ``how`` says."""
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", **(env or {})}
    env.pop("RAY_ADDRESS", None)
    done = subprocess.run([sys.executable, "-c", _RAYLET_DIES, json.dumps(how), *argv],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    counts = [json.loads(line.split("counts: ", 1)[1]) for line in done.stderr.splitlines()
              if line.startswith("counts: ")]
    return done, counts


def _restart_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("Ray: the raylet on this ")]


def _same_report(one: Path, other: Path) -> None:
    a, b = (json.loads((d / "results.json").read_text()) for d in (one, other))
    assert _without_timing(a) == _without_timing(b)
    assert (one / "pairs.csv").read_text() == (other / "pairs.csv").read_text()


_SMALL = ["--games", "40", "--chunk", "2", "--bootstrap", "10", "--quiet"]


def test_the_raylet_killed_mid_run_restarts_ray_and_changes_nothing(tmp_path):
    """SIGKILL this machine's raylet mid-run: the backend says so in one line, starts a new
    local Ray instance, sends again the chunks whose results had not arrived, and the
    tournament ends as an undisturbed run does (the same report, every chunk counted once).
    Ray's health check is made quicker than its default (15 s) so the death is seen sooner."""
    argv = ["tournament", "--agents", "random", "heuristic", *_SMALL]
    done, counts = _raylet_dies(
        {"kill": True}, *argv, "--backend", "ray", "--workers", "1",
        "--out", str(tmp_path / "ray"),
        env={"RAY_health_check_period_ms": "1000", "RAY_health_check_failure_threshold": "3"})
    assert "killed the raylet after (0, " in done.stderr, (done.stdout, done.stderr)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = _restart_lines(done.stderr)
    assert len(lines) == 1, done.stderr
    assert "died (LocalRayletDiedError); starting a new local Ray instance (restart 1 of 2)" \
        in lines[0] and "count once" in lines[0], lines
    unfinished = int(lines[0].split("sending the ")[1].split(" unfinished")[0])
    assert 1 <= unfinished <= 2                          # one CPU: two chunks in flight
    assert counts == [{"tasks_sent": 10 + unfinished, "retries": 0, "restarts": 1}]
    cli.main(argv + ["--out", str(tmp_path / "one")])
    _same_report(tmp_path / "one", tmp_path / "ray")


def test_a_dead_raylet_restarts_ray_and_ships_the_checkpoints_again(tmp_path):
    """The same death at the backend's boundary: the fourth ``ray.get`` raises Ray's
    LocalRayletDiedError. The three results before count, the backend starts a new local
    instance, and the records are those of an undisturbed run. A trained manager's
    checkpoint, shipped through the object store, is put in the new instance's store from
    the files read at the start (its folder is gone by then): the chunks sent after the
    restart play it as before."""
    folder = _checkpoint(tmp_path / "ckpt")
    argv = ["tournament", "--agents", "heuristic", f"ppo:{folder}", *_SMALL]
    cli.main(argv + ["--out", str(tmp_path / "one")])
    done, counts = _raylet_dies(
        {"fail": [4, 4], "move": [str(folder), str(tmp_path / "moved")]}, *argv,
        "--backend", "ray", "--workers", "1", "--checkpoints", "ship",
        "--out", str(tmp_path / "ray"))
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = _restart_lines(done.stderr)
    assert len(lines) == 1 and "(restart 1 of 2)" in lines[0], done.stderr
    assert "the 3 finished count once" in lines[0], lines
    assert not folder.exists()
    _same_report(tmp_path / "one", tmp_path / "ray")
    unfinished = int(lines[0].split("sending the ")[1].split(" unfinished")[0])
    assert counts == [{"tasks_sent": 10 + unfinished, "retries": 0, "restarts": 1}]


def test_a_raylet_that_dies_past_the_limit_stops_the_run_with_what_finished(tmp_path):
    """From the fourth ``ray.get`` on every one raises Ray's LocalRayletDiedError: Ray is
    started again twice (the limit), and the third death stops the run with one line (exit
    status 2, no traceback, no report) saying how many chunks had finished."""
    done, counts = _raylet_dies(
        {"fail": [4, None]}, "tournament", "--agents", "random", "heuristic", *_SMALL,
        "--backend", "ray", "--workers", "1", "--out", str(tmp_path / "report"))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = _restart_lines(done.stderr)
    assert len(lines) == 2, done.stderr
    assert "(restart 1 of 2)" in lines[0] and "(restart 2 of 2)" in lines[1], lines
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("dugout tournament: error: the Ray raylet on this machine died "
                           "mid-run (LocalRayletDiedError"), line
    assert "had already been started again 2 time(s) in this run, the most allowed" in line, line
    finished, sent = (int(n) for n in line.split("stopped with ")[1].split(" task(s)")[0]
                      .split(" of the "))
    assert finished == 3 and 3 < sent <= 5, line          # one CPU: two chunks in flight
    assert counts[0]["restarts"] == 2 and counts[0]["retries"] == 0
    assert not (tmp_path / "report" / "results.json").exists()


def test_a_dead_raylet_on_a_cluster_reconnects_once(ray_session, tmp_path):
    """With --address the backend starts nothing: it reconnects once to the same cluster
    and sends the unfinished chunks again (the same report as an undisturbed run); where
    the cluster does not answer again, the run stops with the one line."""
    argv = ["tournament", "--agents", "random", "heuristic", *_SMALL]
    cli.main(argv + ["--out", str(tmp_path / "one")])
    on = ["--backend", "ray", "--address", ray_session, "--workers", "1"]
    done, counts = _raylet_dies({"fail": [4, 4]}, *argv, *on, "--out", str(tmp_path / "ray"))
    assert done.returncode == 0, (done.stdout, done.stderr)
    lines = _restart_lines(done.stderr)
    assert len(lines) == 1 and f"reconnecting once to the Ray cluster at {ray_session}" in \
        lines[0], done.stderr
    _same_report(tmp_path / "one", tmp_path / "ray")
    assert counts[0]["restarts"] == 1 and counts[0]["retries"] == 0

    done, _ = _raylet_dies({"fail": [4, 4], "no_reconnect": True}, *argv, *on,
                           "--out", str(tmp_path / "lost"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert f"reconnecting to the Ray cluster at {ray_session} failed (" in line, line
    assert "so the run stopped with 3 of the" in line, line
    assert not (tmp_path / "lost" / "results.json").exists()


def test_a_dead_raylet_of_a_connection_the_backend_did_not_make_stops_the_run(
        ray_session, monkeypatch, tmp_path, capsys):
    """In a process that initialized Ray itself (here the module's), the connection is not
    the backend's to shut down and start again: from the fourth ``ray.get`` on, every one
    raising Ray's LocalRayletDiedError, the three results before count, nothing is retried
    or sent again, and the error is a DugoutError the command line prints as one line (exit
    status 2) without a report."""
    import ray
    real_get = ray.get
    gets: list[int] = []

    def get(ref, *args, **kwargs):
        gets.append(1)
        if len(gets) > 3:
            raise ray.exceptions.LocalRayletDiedError()
        return real_get(ref, *args, **kwargs)

    monkeypatch.setattr(ray, "get", get)
    lines, log = _lines()
    backend = RayCluster(log=log)
    progress: list[int] = []
    with pytest.raises(RayletDiedError) as error:
        run_tournament(TB, ["heuristic", "random"], games=80, seed=7, chunk=2, bootstrap=20,
                       backend=backend, progress=lambda games, finished: progress.append(games))
    assert isinstance(error.value, DugoutError) and isinstance(error.value, BackendError)
    assert progress == [4, 8, 12]                       # three chunks of two pairs, counted
    assert error.value.finished == 3 and error.value.sent == backend.tasks_sent
    assert 3 < error.value.sent <= 3 + 2 * backend.slots
    message = str(error.value)
    assert "\n" not in message and f"stopped with 3 of the {error.value.sent} task(s)" in message
    assert "does not restart a connection it did not make" in message, message
    assert backend.retries == 0 and backend.restarts == 0
    assert lines == [lines[0]] and lines[0].startswith("Ray: the Ray cluster this process"), lines
    assert ray.is_initialized()                         # the caller's connection is left as it is

    # the command line: one line, exit status 2, no report
    gets.clear()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["tournament", "--agents", "random", "heuristic", "--games", "80", "--chunk",
                  "2", "--bootstrap", "10", "--quiet", "--backend", "ray",
                  "--out", str(tmp_path / "report")])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "the Ray raylet on this machine died mid-run (LocalRayletDiedError" in err[-1], err
    assert "stopped with 3 of the" in err[-1]
    assert not (tmp_path / "report" / "results.json").exists()


# -- bad input -----------------------------------------------------------------------------------
def _cli_error(*argv: str, env: dict | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "dugout.evaluate", *argv], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done.stderr.strip().splitlines()[-1]


def test_an_unreachable_cluster_is_a_one_line_error():
    line = _cli_error("tournament", "--agents", "random", "heuristic", "--games", "4",
                      "--backend", "ray", "--address", "127.0.0.1:1")
    assert "no Ray cluster answers at 127.0.0.1:1" in line and "ray start --head" in line


def test_without_an_address_ray_starts_here_whatever_ray_address_says(ray_session, tmp_path):
    """`--backend ray` without --address starts a new local instance (as the README says):
    not RAY_ADDRESS's cluster (here one nobody answers at, where ray.init() would wait
    minutes) nor the cluster already running on this machine (the tests', which
    --workers 1 could not join). --quiet sends the backend's lines to stderr."""
    env = {**os.environ, "RAY_ADDRESS": "127.0.0.1:1", "RAY_USAGE_STATS_ENABLED": "0"}
    done = subprocess.run([sys.executable, "-m", "dugout.evaluate", "tournament", "--agents",
                           "random", "heuristic", "--games", "8", "--bootstrap", "20", "--quiet",
                           "--backend", "ray", "--workers", "1", "--out", str(tmp_path / "ray")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    assert "Ray: a local Ray instance, 1 CPU(s) on 1 node(s)" in done.stderr, done.stderr
    assert done.stdout == ""
    # --address auto follows RAY_ADDRESS, as Ray does: checked first, a quick clear error
    line = _cli_error("tournament", "--agents", "random", "heuristic", "--games", "4",
                      "--backend", "ray", "--address", "auto", env=env)
    assert "no Ray cluster answers at 127.0.0.1:1 (RAY_ADDRESS" in line, line


def test_quiet_sends_the_backends_lines_to_stderr(ray_session, capsys):
    argv = ["tournament", "--agents", "random", "heuristic", "--games", "4", "--bootstrap", "10",
            "--backend", "ray"]
    cli.main(argv + ["--quiet"])
    out, err = capsys.readouterr()
    assert out == "" and "Ray: the Ray cluster this process is connected to" in err
    cli.main(argv)
    out, err = capsys.readouterr()
    assert "Ray: the Ray cluster this process is connected to" in out
    assert "Ray: the Ray cluster" not in err


def test_a_malformed_address_is_named(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["tournament", "--agents", "random", "heuristic", "--games", "4",
                  "--backend", "ray", "--address", "headnode"])
    assert exit_info.value.code == 2
    assert "address 'headnode': expected HOST:PORT" in capsys.readouterr().err


def test_another_cluster_than_the_one_connected_is_refused(ray_session):
    with pytest.raises(BackendError, match="already connected to the Ray cluster"):
        RayCluster("10.255.255.1:6379").connect()


# -- trained managers' checkpoints ----------------------------------------------------------------
def _checkpoint(folder: Path) -> Path:
    import torch
    from dugout.agents.policy import build_actor
    from dugout.envs.thats_baseball.env import OBS
    torch.manual_seed(0)
    folder.mkdir()
    actor = build_actor(OBS.size, [16], "Tanh", 5)
    torch.save(actor.state_dict(), folder / "policy.pt")
    (folder / "meta.json").write_text(json.dumps({
        "env_id": TB, "obs_size": OBS.size, "n_actions": 5, "net_arch": [16], "activation": "Tanh"}))
    (folder / "model.zip").write_bytes(b"never read, never shipped")
    return folder


def test_checkpoint_files_are_the_two_safe_files_written_once(tmp_path):
    folder = _checkpoint(tmp_path / "ckpt")
    files = CheckpointFiles.read(f"ppo:{folder}")
    assert [name for name, _ in files.files] == ["meta.json", "policy.pt"]
    name = files.materialize(tmp_path / "cache")
    local = Path(name[4:])
    assert local == tmp_path / "cache" / files.digest and sorted(os.listdir(local)) == [
        "meta.json", "policy.pt"]
    assert (local / "policy.pt").read_bytes() == (folder / "policy.pt").read_bytes()
    inode = local.stat().st_ino
    assert files.materialize(tmp_path / "cache") == name and local.stat().st_ino == inode
    # a damaged copy is left alone (never removed: a worker may hold it) and the files
    # go to the next name
    (local / "policy.pt").write_bytes(b"tampered")
    again = Path(files.materialize(tmp_path / "cache")[4:])
    assert again == tmp_path / "cache" / f"{files.digest}.1"
    assert (again / "policy.pt").read_bytes() == (folder / "policy.pt").read_bytes()
    assert (local / "policy.pt").read_bytes() == b"tampered"
    assert files.materialize(tmp_path / "cache") == f"ppo:{again}"
    assert sorted(os.listdir(tmp_path / "cache")) == [files.digest, f"{files.digest}.1"]
    with pytest.raises(BackendError, match="cannot read"):
        CheckpointFiles.read(f"ppo:{tmp_path / 'nowhere'}")


def test_two_workers_materialising_one_checkpoint_keep_each_others_folder(tmp_path, monkeypatch):
    """The race, in a forced order: worker B finds no folder; worker A then writes the whole
    folder and starts loading it; B goes on. B must use A's folder as it is (same inode,
    files never removed or replaced under A), not remove it to put its own copy there."""
    files = CheckpointFiles.read(f"ppo:{_checkpoint(tmp_path / 'ckpt')}")
    root = tmp_path / "cache"
    folder = root / files.digest
    holds = CheckpointFiles._holds
    seen: dict[str, int] = {}

    def b_checks_then_a_runs(self, where):
        result = holds(self, where)
        if not seen:                         # B's first look: nothing there yet
            assert not result
            monkeypatch.setattr(CheckpointFiles, "_holds", holds)
            a = files.materialize(root)      # worker A, from start to end
            assert a == f"ppo:{folder}"
            seen["folder"] = folder.stat().st_ino
            seen["policy"] = (folder / "policy.pt").stat().st_ino
            seen["open"] = os.open(folder / "policy.pt", os.O_RDONLY)     # A loading it
        return result

    monkeypatch.setattr(CheckpointFiles, "_holds", b_checks_then_a_runs)
    b = files.materialize(root)
    try:
        assert seen, "the forced order did not happen"
        assert b == f"ppo:{folder}"
        assert folder.stat().st_ino == seen["folder"]
        assert (folder / "policy.pt").stat().st_ino == seen["policy"]
        assert os.fstat(seen["open"]).st_nlink == 1          # A's open file is still linked
        assert sorted(os.listdir(root)) == [files.digest]    # B's staging folder is gone
    finally:
        os.close(seen["open"])


def test_shipped_checkpoints_go_to_a_folder_of_the_users_own():
    from dugout.evaluate.backends import checkpoint_root
    import tempfile
    root = checkpoint_root()
    assert root.parent == Path(tempfile.gettempdir())
    assert root.name == f"dugout-checkpoints-{os.getuid()}"


@pytest.mark.parametrize("mode", ["ship", "shared"])
def test_a_trained_manager_plays_on_ray_as_in_one_process(ray_session, tmp_path, mode):
    folder = _checkpoint(tmp_path / "ckpt")
    agents = ["random", f"ppo:{folder}"]
    digest = CheckpointFiles.read(agents[1]).digest
    one = run_tournament(TB, agents, games=12, seed=0, workers=1, bootstrap=20)
    root = tmp_path / "shipped"                  # this test's own: nothing there before it
    backend = RayCluster(checkpoints=mode, log=lambda line: None, checkpoint_root=root)
    if mode == "ship":
        # once the agents are checked and their files read for the object store, the
        # original folder goes away: the workers can only play the copy they were sent
        ship = backend.ship

        def ship_then_move(names):
            sent = ship(names)
            folder.rename(tmp_path / "moved")
            return sent
        backend.ship = ship_then_move
    on_ray = run_tournament(TB, agents, games=12, seed=0, bootstrap=20, chunk=2, backend=backend)
    assert _without_timing(one.to_dict()) == _without_timing(on_ray.to_dict())
    if mode == "ship":                       # a worker wrote the files it was sent, and used them
        assert not folder.exists()
        assert sorted(os.listdir(root)) == [digest]
        assert sorted(os.listdir(root / digest)) == ["meta.json", "policy.pt"]
    else:
        assert not root.exists()


def test_a_shared_checkpoint_rewritten_between_runs_is_played_anew(ray_session, tmp_path):
    """--checkpoints shared on a RayCluster kept across runs: the workers live on, and a
    checkpoint rewritten at the same path must be loaded again, not played from memory."""
    import torch
    folder = _checkpoint(tmp_path / "ckpt")
    other = tmp_path / "other"
    other.mkdir()
    torch.manual_seed(5)
    weights = {k: torch.randn_like(v) * 3 for k, v in torch.load(folder / "policy.pt").items()}
    torch.save(weights, other / "policy.pt")
    (other / "meta.json").write_bytes((folder / "meta.json").read_bytes())
    name = f"ppo:{folder}"
    backend = RayCluster(checkpoints="shared", log=lambda line: None)
    kw = dict(games=40, seed=1, bootstrap=20, chunk=2)
    try:
        before = run_tournament(TB, ["heuristic", name], backend=backend, **kw)
        for file in ("policy.pt", "meta.json"):
            (folder / file).write_bytes((other / file).read_bytes())
        after = run_tournament(TB, ["heuristic", name], backend=backend, **kw)
    finally:
        backend.close()
    expected = run_tournament(TB, ["heuristic", f"ppo:{other}"], workers=1, **kw)
    assert [m.pairs for m in before.matchups] != [m.pairs for m in expected.matchups]
    assert [m.pairs for m in after.matchups] == [m.pairs for m in expected.matchups]


# -- the scaling measurement ---------------------------------------------------------------------
def test_the_scaling_measurement_runs_and_projects(ray_session, capsys):
    """A tiny run of `dugout bench scaling` (on the test's Ray instance) and the
    projection's arithmetic."""
    from dugout.studies import bench_scaling as scaling
    f = scaling.measure(TB, ["random", "heuristic"], games=8, chunk=2, cpus=2, overhead_games=4,
                        empty=5)
    capsys.readouterr()
    assert f["identical_results"] and f["games"] == 8 and f["chunks"] == 2
    assert all(v > 0 for v in f["games_per_second"].values())
    assert f["overhead"]["chunks"] == 2 and f["overhead"]["empty_tasks_per_second"] > 0
    figures = {"seconds_per_game_inline": 0.01, "chunk": 25,
               "overhead": {"seconds_per_chunk": 0.02, "empty_tasks_per_second": 1000.0},
               "seconds": {"ray_startup": 5.0}}
    rows = scaling.projection(figures, games=1_000_000, cores=2, machines=(1, 10, 1000))
    # 1M games x 10 ms + 20,000 chunks x 20 ms = 10,400 core-seconds
    assert rows[0]["wall_seconds"] == pytest.approx(5 + 10_400 / 2)
    assert rows[1]["wall_seconds"] == pytest.approx(5 + 10_400 / 20)
    assert rows[2]["wall_seconds"] == pytest.approx(5 + 20.0)      # the driver's 1,000 tasks/s
    assert rows[0]["overhead_share"] == pytest.approx(400 / 10_400)


# -- Ray is imported only by the ray backend ------------------------------------------------------
def test_nothing_imports_ray_unless_the_ray_backend_is_used():
    code = ("import sys\n"
            "from dugout.evaluate import cli, backends, tournament\n"
            "from dugout.studies import calibrate_showdown\n"
            "import dugout.integrations.rllib, dugout.train.rllib\n"
            "cli.main(['tournament', '--agents', 'random', 'heuristic', '--games', '4', '--quiet'])\n"
            "assert 'ray' not in sys.modules, sorted(m for m in sys.modules if m.startswith('ray'))\n"
            "backends.make_backend('ray')\n"
            "assert 'ray' not in sys.modules\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_expert_iteration_on_ray_is_identical_to_one_worker(ray_session, tmp_path):
    """Expert iteration's rounds on Ray (round 1's search rolls out with round 0's network,
    read from the run folder): the same data, weights and curve as on one process."""
    import dataclasses
    import numpy as np
    import torch
    from dugout.train import exit as exit_
    base = exit_.ExitSettings(env="grand_slam_v0", rounds=2, games=4, sims=2, net_arch=(8,),
                              epochs=2, batch_size=64, eval_games=4, seed=3,
                              out=str(tmp_path / "one"))
    one = exit_.train(base)
    on_ray = exit_.train(dataclasses.replace(base, backend="ray", out=str(tmp_path / "ray")))
    for r in range(2):
        a, _ = exit_.load_data(exit_.data_file(one, r))
        b, _ = exit_.load_data(exit_.data_file(on_ray, r))
        assert all(np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f") for k in a)
        wa = torch.load(exit_.checkpoint_folder(one, r) / "policy.pt", weights_only=True)
        wb = torch.load(exit_.checkpoint_folder(on_ray, r) / "policy.pt", weights_only=True)
        assert all(torch.equal(wa[k], wb[k]) for k in wa)
    keep = ("vs_heuristic", "val_accuracy", "samples")
    assert [{k: row[k] for k in keep} for row in exit_.read_curve(one)] == \
        [{k: row[k] for k in keep} for row in exit_.read_curve(on_ray)]
