"""A ``dugout`` command sent SIGTERM (a scheduler's time limit, ``timeout``, ``kill``) stops
what it started: its process pool's workers end with it instead of running on as orphans.

Each test runs its own Python process (a script written here), so the signals it sends
never reach pytest's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from dugout.cli import args as cli_args

#: A command whose run plays slow tasks on a pool of two workers; each task notes its
#: worker's pid in a file named for it, then sleeps far longer than the test waits.
_POOL_COMMAND = """
import os, sys, time
from pathlib import Path
from dugout.cli import args
from dugout.evaluate.backends import ProcessPool

OUT = Path(sys.argv[1])

def task(i):
    (OUT / f"worker-{os.getpid()}").write_text(str(i))
    time.sleep(120)
    return i

def run(ns):
    with ProcessPool(2) as pool:
        pool.map(task, [(i,) for i in range(6)])

if __name__ == "__main__":
    args.invoke("dugout slow", lambda parser: None, None, run, [])
"""


def _script(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(text))
    return path


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def _wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.1)


def test_a_terminated_command_stops_its_pool_workers(tmp_path):
    """SIGTERM to the command: it exits at once with status 143 and one line saying so, and
    both workers, mid-task, end with it (before, the command died at once and its workers
    played on, then waited for work forever, children of no one)."""
    script = _script(tmp_path, _POOL_COMMAND)
    process = subprocess.Popen([sys.executable, str(script), str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers: list[int] = []
    try:
        def started() -> bool:
            workers[:] = [int(p.name.split("-")[1]) for p in tmp_path.glob("worker-*")]
            return len(workers) == 2
        _wait_for(started, 120, "both workers to start a task")
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
        assert process.returncode == cli_args.TERMINATED_STATUS == 143, (process.returncode, err)
        assert err.strip() == ("dugout slow: terminated (SIGTERM): the work in progress was "
                               "stopped"), err
        _wait_for(lambda: not any(_alive(pid) for pid in workers), 20,
                  f"workers {workers} to end")
    finally:
        process.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_inside_terminate_as_exit_sigterm_raises_here_and_kills_a_forked_child(tmp_path):
    """In the process that entered it, SIGTERM raises Terminated (a SystemExit of status 143)
    where the main thread is, so its ``finally`` runs; the handler before is back after. A
    child forked inside (a pool's worker) is killed by SIGTERM as by default: were it to
    raise there, a pool's worker would report the exception and take the next task."""
    script = _script(tmp_path, """
        import os, signal, sys, time
        from dugout.cli.args import Terminated, terminate_as_exit

        before = signal.getsignal(signal.SIGTERM)
        with terminate_as_exit():
            child = os.fork()
            if child == 0:
                try:
                    time.sleep(60)
                finally:
                    os._exit(7)                 # reached only if SIGTERM raised in the child
            time.sleep(0.5)
            os.kill(child, signal.SIGTERM)
            _, status = os.waitpid(child, 0)
            print("child", os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM,
                  os.WIFEXITED(status) and os.WEXITSTATUS(status))
        print("restored", signal.getsignal(signal.SIGTERM) is before)
        cleaned = []
        try:
            with terminate_as_exit():
                try:
                    os.kill(os.getpid(), signal.SIGTERM)
                    time.sleep(60)
                finally:
                    cleaned.append("finally")
        except Terminated as stop:
            print("raised", stop.code, isinstance(stop, SystemExit), cleaned)
        print("restored", signal.getsignal(signal.SIGTERM) is before)
    """)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["child True False", "restored True",
                                        "raised 143 True ['finally']", "restored True"]


def test_a_command_run_outside_the_main_thread_takes_no_signal_handler():
    """Python takes signal handlers only in the main thread: a command invoked from another
    (a notebook's worker thread, a server) runs as before, and SIGTERM keeps its handler."""
    before = signal.getsignal(signal.SIGTERM)
    seen: list = []

    def command() -> None:
        seen.append(cli_args.invoke("dugout thread", lambda parser: None, None,
                                    lambda ns: signal.getsignal(signal.SIGTERM), []))
    thread = threading.Thread(target=command)
    thread.start()
    thread.join(60)
    assert seen == [before]


def test_a_command_in_the_main_thread_holds_the_handler_only_while_it_runs():
    before = signal.getsignal(signal.SIGTERM)
    during = cli_args.invoke("dugout main", lambda parser: None, None,
                             lambda ns: signal.getsignal(signal.SIGTERM), [])
    assert during is not before and callable(during)
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("error", [ValueError("a task failed"), KeyboardInterrupt()])
def test_a_run_that_stops_kills_its_workers_mid_task(tmp_path, error):
    """A run that ends early (a task raised, Ctrl-C in this process) kills the workers in the
    middle of their tasks instead of waiting for results nobody reads (a task can be minutes
    of search games)."""
    from dugout.evaluate.backends import ProcessPool
    pool = ProcessPool(2)
    started = time.monotonic()

    def accept(key, result):
        raise error
    with pytest.raises(type(error)):
        pool.run(_call, _one_quick_then_long_tasks(), accept)
    assert time.monotonic() - started < 30
    assert pool._pool is None


def _call(fn, *args):
    return fn(*args)


def _one_quick_then_long_tasks():
    """A task that ends at once (its result is where the run stops), then four of a minute."""
    yield 0, (time.sleep, 0)
    for i in range(1, 5):
        yield i, (time.sleep, 60)


def test_a_stopped_run_kills_through_the_public_method_where_python_has_one(monkeypatch):
    """Python 3.14's ``ProcessPoolExecutor.kill_workers`` is used where it exists; before,
    the workers are found where ``concurrent.futures`` keeps them."""
    from concurrent.futures import ProcessPoolExecutor
    from dugout.evaluate import backends
    killed = []

    class Executor(ProcessPoolExecutor):
        def kill_workers(self):
            killed.append(len(self._processes))
            for process in list(self._processes.values()):
                process.kill()
    monkeypatch.setattr(backends, "ProcessPoolExecutor", Executor)
    pool = backends.ProcessPool(2)
    started = time.monotonic()

    def accept(key, result):
        raise ValueError("a task failed")
    with pytest.raises(ValueError):
        pool.run(_call, _one_quick_then_long_tasks(), accept)
    assert killed == [2]
    assert time.monotonic() - started < 30
