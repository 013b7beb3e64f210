"""Where independent tasks (a tournament's chunks of seeds, the calibration's teams) are played:
in this process, in a pool of worker processes on this machine, or as tasks on a Ray cluster.

    from dugout.evaluate.backends import make_backend
    backend = make_backend("ray", address="10.0.0.5:6379")      # or "process", workers=2
    try:
        result = run_tournament(env_id, agents, games, backend=backend)
    finally:
        backend.close()

Every backend does one thing, :meth:`~Backend.run`: it takes a function importable by name (a
module-level function, so a worker imports it instead of unpickling code), a *lazy*
iterator of ``(key, args)`` tasks and ``accept(key, result)``. It keeps a bounded number
of tasks in flight, draws the next task only when a slot frees up (so the caller may stop
producing tasks, as a tournament does once an SPRT has decided a matchup), and calls
``accept`` in this process, one result at a time; results that finish together are
accepted in key order. Which worker played a task, and when, never reaches the caller:
the tournament puts the chunks back in seed order before any statistic, which is why
every backend gives the same numbers (:mod:`dugout.evaluate.tournament`).
:meth:`~Backend.map` is :meth:`~Backend.run` for a list of independent tasks (the
calibration's teams, the Manager Challenge's chunks of campaigns): the results in the
order of the tasks, whichever worker played them.

The backends
------------
* :class:`Inline` (``"process"`` with one worker): each task in turn, in this process.
* :class:`ProcessPool` (``"process"`` with ``workers`` > 1): a ``ProcessPoolExecutor`` of
  ``workers`` processes on this machine, at most ``2 * workers`` tasks in flight. The
  processes start with the first run and serve every later one until :meth:`~Backend.close`
  (so what a worker built, an env, a loaded network, a memoized table, serves every
  chunk of a long measurement), as Ray's workers do.
* :class:`RayCluster` (``"ray"``): every task is a Ray task (one CPU each) on the cluster
  at ``address``, or on a new Ray instance it starts on this machine when no address is
  given (with ``workers`` CPUs, default all; never a cluster already running here, nor
  the one ``RAY_ADDRESS`` names: that is ``address="auto"``). At most twice the cluster's
  CPUs (or ``2 * workers``) tasks are in flight, counted when the run starts. Ray is
  imported only here, and only when a :class:`RayCluster` connects (the ``ray`` extra:
  ``pip install 'dugout-baseball[ray]'``).

What happens when a Ray worker dies
-----------------------------------
A task whose worker process (or node) dies is submitted again by the driver, up to
``max_retries`` times (Ray's own retries are off, so the driver knows and says so): a
line is logged for each retry, and :attr:`RayCluster.retries` counts them. A result is
accepted only from the attempt that finished, so a chunk is never counted twice (the
tournament also refuses a second copy of a chunk it has already counted). A task that
raises an exception is a bug, not a failure of the cluster: its exception is raised here,
with the remote traceback. A worker that dies more than ``max_retries`` times on the same
task stops the run with a :class:`BackendError` naming the task.

What happens when this machine's raylet dies
--------------------------------------------
The raylet is the Ray process on the driver's own node, through which every task of this
process is scheduled. When it dies (killed, out of memory), Ray cannot run anything more
through it: every task in flight ends with Ray's ``LocalRayletDiedError``. The results
that had already arrived are accepted as usual (in key order) and count once; what
happens to the others depends on which Ray this backend is using:

* a local instance it started itself (no ``address``): it says so in one line (through
  ``log``, as for a lost worker), shuts Ray down in this process, starts a new local
  instance with the same settings, puts trained managers' checkpoints in its object
  store again (the references :meth:`RayCluster.ship` gave out are mapped to the new
  ones, so a caller's tasks need not change), and sends again every task whose result
  had not arrived. This happens at most ``max_restarts`` times in a run (default 2);
  :attr:`RayCluster.restarts` counts them.
* a cluster at ``address``: the same, but it reconnects once to the same address
  instead of starting anything.
* a connection this process had before the backend (``ray.init`` called by the
  caller): not the backend's to restart.

Where it cannot go on (the restarts used up, Ray that does not start again, a cluster
that does not answer again, a connection it did not make), nothing more is sent and the
run stops with a :class:`RayletDiedError` (a :class:`BackendError` and a
:class:`~dugout.envs.core.errors.DugoutError`): one line saying what happened and how many
of the tasks sent had finished (:attr:`RayletDiedError.finished`). A tournament has no
result for the games it did not play, so it stops there and writes no report. (A task
whose worker is seen dead in the same batch as the raylet died with it: after a restart
it is sent again without counting as a retry.)

Trained managers on other machines
----------------------------------
A tournament's agents are rebuilt in the workers from their names. A trained manager,
``ppo:PATH``, is a checkpoint folder on the driver's disk; ``checkpoints="ship"`` (the
default) reads its two safe files (``meta.json``, ``policy.pt``; never ``model.zip``) once,
puts them in Ray's object store, and each worker writes them into a folder of its own
(``<tmp>/dugout-checkpoints-<user id>/<sha256 of the files>``, or under the
``checkpoint_root`` given to :class:`RayCluster`) and loads them from there with the
same safe loader (:class:`dugout.agents.policy.PolicyAgent`). Workers that write the same
checkpoint at once never remove or move each other's folder: each writes a folder of its
own and renames it into place, and one that finds the place taken uses what is there
when it holds the very files (else the next free name, ``<sha256>.1``, ...).
``checkpoints="shared"`` sends the absolute path instead, for a folder every node sees at
the same path (NFS).
"""

from __future__ import annotations

import getpass
import hashlib
import multiprocessing
import os
import shutil
import socket
import sys
import tempfile
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, Iterator, Sequence

from ..agents.ref import AgentRef
from ..envs.core.errors import DugoutError
from ..integrations.ray_cluster import check_reachable, host_port

__all__ = ["BACKENDS", "CHECKPOINT_MODES", "BackendError", "RayletDiedError", "Backend", "Inline",
           "ProcessPool", "RayCluster", "make_backend", "check_backend", "CheckpointFiles",
           "start_method", "ray_installed", "INSTALL_HINT", "checkpoint_root"]

#: The backend names the command lines take (``--backend``).
BACKENDS = ("process", "ray")
#: How a Ray run gets trained managers' checkpoints to the workers.
CHECKPOINT_MODES = ("ship", "shared")
INSTALL_HINT = "pip install 'dugout-baseball[ray]'"

Task = tuple[Hashable, tuple]
Accept = Callable[[Any, Any], None]


class BackendError(DugoutError, ValueError):
    """A backend that cannot run: an unknown name, ``address`` without Ray, Ray missing, a
    cluster that cannot be reached, or a task whose worker kept dying. A
    :class:`~dugout.envs.core.errors.DugoutError` (the command lines print it as one line,
    also when the run itself meets it) and a ``ValueError``."""


class RayletDiedError(BackendError):
    """The Ray raylet of this machine died mid-run and the backend could not go on (the
    restarts used up, Ray that would not start or answer again, a connection it did not
    make), so the run stopped. ``finished`` of the ``sent`` tasks (each counted once,
    retries and restarts aside) had finished and their results been accepted; the others
    were lost."""

    def __init__(self, message: str, finished: int = 0, sent: int = 0):
        super().__init__(message)
        self.finished, self.sent = finished, sent


def ray_installed() -> bool:
    """Whether Ray can be imported here (without importing it)."""
    import importlib.util
    return importlib.util.find_spec("ray") is not None


def check_backend(backend: str, workers: int | None = None, address: str | None = None,
                  checkpoints: str = "ship") -> None:
    """Raise :class:`BackendError` naming what is wrong with a backend's settings, before
    anything is started: an unknown backend or checkpoint mode, ``workers`` below 1, an
    ``address`` for a backend other than Ray, or Ray not installed for ``"ray"``."""
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise BackendError(f"workers must be at least 1, got {workers}")
    if checkpoints not in CHECKPOINT_MODES:
        raise BackendError(f"unknown checkpoints mode {checkpoints!r}; known: "
                           f"{', '.join(CHECKPOINT_MODES)}")
    if backend != "ray":
        if address is not None:
            raise BackendError(f"an address ({address!r}) is the Ray cluster to run on: it needs "
                               f"the ray backend, not {backend!r}")
        return
    if not ray_installed():
        raise BackendError(f"the ray backend needs Ray, which is not installed here: {INSTALL_HINT}")


def make_backend(backend: str = "process", workers: int | None = None, address: str | None = None,
                 *, checkpoints: str = "ship", max_retries: int = 3, max_restarts: int = 2,
                 log: Callable[[str], None] | None = None) -> "Backend":
    """The backend named ``backend`` (:data:`BACKENDS`), checked (:func:`check_backend`).

    ``"process"``: :class:`Inline` for one worker (``workers`` None or 1), else a
    :class:`ProcessPool` of ``workers`` processes. ``"ray"``: a :class:`RayCluster` (not yet
    connected: it connects on its first :meth:`~RayCluster.run`), on the cluster at
    ``address`` or a local instance with ``workers`` CPUs."""
    check_backend(backend, workers, address, checkpoints)
    if backend == "ray":
        return RayCluster(address, workers, checkpoints=checkpoints, max_retries=max_retries,
                          max_restarts=max_restarts, log=log)
    return Inline() if (workers or 1) == 1 else ProcessPool(workers)


class Backend:
    """What every backend offers (see the module docstring)."""

    #: tasks played at once (for the record: a tournament's ``workers``)
    slots: int = 1

    def ship(self, names: Iterable[str]) -> dict[str, Any]:
        """What to send the workers for each agent name: the name itself, on this machine."""
        return {name: name for name in names}

    def run(self, fn: Callable, tasks: Iterator[Task], accept: Accept,
            describe: Callable[[Any], str] = str) -> None:
        raise NotImplementedError

    def map(self, fn: Callable, args: Sequence[tuple],
            progress: Callable[[Any, int], None] | None = None,
            describe: Callable[[int], str] | None = None) -> list:
        """``[fn(*a) for a in args]``, played on this backend: the results in the order of
        ``args`` whatever order they finish in, each counted once (a Ray task sent again
        after its worker died is not counted twice). ``progress(result, done)`` is called
        in this process as each result arrives (``done``: how many have). ``fn`` must be
        importable by name, as for :meth:`run`; ``describe(i)`` names task ``i`` in a
        backend's messages (default ``task i``)."""
        args = [tuple(a) for a in args]
        results: dict[int, Any] = {}

        def accept(i: int, result: Any) -> None:
            if i not in results:
                results[i] = result
                if progress is not None:
                    progress(result, len(results))

        self.run(fn, iter(list(enumerate(args))), accept,
                 describe or (lambda i: f"task {i}"))
        return [results[i] for i in range(len(args))]

    def close(self) -> None:
        """Release what the backend holds (a Ray connection); running again reopens it."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Inline(Backend):
    """Each task in turn, in this process."""

    def run(self, fn, tasks, accept, describe=str) -> None:
        for key, args in tasks:
            accept(key, fn(*args))


def start_method() -> str:
    """How worker processes start: ``fork`` (quick, and works from any script), unless
    this process has loaded torch (a trained manager, a training run before the
    tournament), whose thread pools do not survive a fork safely: then ``forkserver``,
    which starts workers from a clean process (the calling script then needs the usual
    ``if __name__ == "__main__":`` guard)."""
    return "forkserver" if "torch" in sys.modules else "fork"


class ProcessPool(Backend):
    """A pool of ``workers`` processes on this machine, at most ``2 * workers`` tasks in flight.

    The processes start with the first :meth:`run` and are kept for the next runs until
    :meth:`close` (a ``with`` block closes it), so each worker's envs, agents and their
    caches are built once, not at every run. The pool is started again when this process
    has loaded torch since (:func:`start_method` changes from ``fork``), and after a run
    that did not finish (a task that raised, a worker that died, an interrupt, SIGTERM under
    a ``dugout`` command): its workers are killed then, mid-task (their results would be
    dropped), and the next run starts fresh ones."""

    def __init__(self, workers: int):
        if workers < 1:
            raise BackendError(f"workers must be at least 1, got {workers}")
        self.slots = workers
        self._pool: ProcessPoolExecutor | None = None
        self._method: str | None = None

    def _executor(self) -> ProcessPoolExecutor:
        method = start_method()
        if self._pool is not None and method != self._method:
            self.close()                # forked before torch was loaded: start them cleanly
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.slots,
                                             mp_context=multiprocessing.get_context(method))
            self._method = method
        return self._pool

    def run(self, fn, tasks, accept, describe=str) -> None:
        pool = self._executor()
        running: dict[Future, Any] = {}

        def fill() -> None:
            while len(running) < 2 * self.slots:
                try:
                    key, args = next(tasks)
                except StopIteration:
                    return
                running[pool.submit(fn, *args)] = key
        try:
            fill()
            while running:
                finished_now, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in sorted(finished_now, key=lambda f: running[f]):
                    key = running.pop(future)
                    accept(key, future.result())
                fill()
        except BaseException:
            self._abandon()             # what was in flight is dropped; the next run starts afresh
            raise

    def _abandon(self) -> None:
        """Stop the workers now, in the middle of their tasks, whose results nobody will
        read (a run that raised, was interrupted or terminated): waiting for them could take
        as long as a task (minutes of search games), and a process stopped meanwhile would
        leave them running as orphans."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        kill_workers = getattr(pool, "kill_workers", None)      # Python 3.14 and later
        if kill_workers is not None:
            kill_workers()
        else:   # before 3.14 there is no public way: concurrent.futures keeps them in _processes
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.kill()
        pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker processes (after the tasks they are playing; queued ones are
        dropped); a later :meth:`run` starts new ones."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


# -- trained managers' checkpoints, shipped to other machines --------------------------------------
_SHIPPED_FILES = ("meta.json", "policy.pt")     # dugout.agents.policy.META, WEIGHTS: the safe ones
#: how many names (``<digest>``, ``<digest>.1``, ...) materialize tries past damaged folders
_MAX_COPIES = 100


def checkpoint_root() -> Path:
    """Where this machine's workers write shipped checkpoints by default:
    ``<tmp>/dugout-checkpoints-<user id>`` (the user's name where there are no user ids),
    one folder per user, so one user's workers never meet another's files."""
    try:
        user = str(os.getuid())
    except AttributeError:                      # no user ids (Windows)
        try:
            user = getpass.getuser()
        except Exception:                       # no user name either
            user = "user"
    user = "".join(c if c.isalnum() or c in "-_." else "_" for c in user)
    return Path(tempfile.gettempdir()) / f"dugout-checkpoints-{user}"


@dataclass(frozen=True)
class CheckpointFiles:
    """A trained manager's checkpoint as bytes: ``meta.json`` and ``policy.pt``, the only
    files :class:`dugout.agents.policy.PolicyAgent` reads (never ``model.zip``).

    ``name`` is the agent's name as given (``ppo:PATH``), for messages; ``root`` is the
    folder the worker writes them under (None: :func:`checkpoint_root` of its machine)."""
    name: str
    files: tuple[tuple[str, bytes], ...]
    root: str | None = None

    @classmethod
    def read(cls, name: str, root: str | os.PathLike | None = None) -> "CheckpointFiles":
        """The checkpoint of ``ppo:PATH`` (a folder, or a file in it, as ``make_agent`` takes)."""
        folder = Path(AgentRef.parse(name).path)   # ValueError: not a trained manager
        if folder.is_file():
            folder = folder.parent
        files = []
        for file in _SHIPPED_FILES:
            try:
                files.append((file, (folder / file).read_bytes()))
            except OSError as error:
                raise BackendError(f"{name}: cannot read {folder / file} to send it to the Ray "
                                   f"workers ({error.strerror or error})") from None
        return cls(name, tuple(files), None if root is None else str(root))

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for file, data in self.files:
            h.update(file.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
        return h.hexdigest()

    def materialize(self, root: str | os.PathLike | None = None) -> str:
        """Write the files into ``<root>/<digest>/`` unless a folder with these very files
        is there, and return the agent name that loads them: ``ppo:<that folder>``.
        ``root`` defaults to the one given to :meth:`read`, else :func:`checkpoint_root`.

        Safe for workers doing the same at once: the files are written to a staging folder
        of this call's own, which is renamed into place only where no folder is (a rename
        onto a folder with files fails). Nothing is ever deleted or moved but that staging
        folder, so a folder another worker put in place (and may be loading) stays as it
        is. One that does not hold these files (damaged by hand) is left alone too, and
        the next name is used: ``<digest>.1``, ``<digest>.2``, ..."""
        root = Path(root if root is not None else self.root or checkpoint_root())
        for copy in range(_MAX_COPIES):
            folder = root / (self.digest if copy == 0 else f"{self.digest}.{copy}")
            if self._holds(folder) or self._install(root, folder):
                return str(AgentRef("ppo", arg=str(folder)))
        raise BackendError(f"{self.name}: {_MAX_COPIES} folders under {root} are named for this "
                           f"checkpoint and none holds its files; remove them")

    def _install(self, root: Path, folder: Path) -> bool:
        """Put a folder with the files at ``folder`` unless one is there; True when
        ``folder`` then holds the files (this call's, or another worker's written meanwhile),
        False when it is taken by a folder that does not (damaged: left alone)."""
        root.mkdir(mode=0o700, parents=True, exist_ok=True)      # the user's own
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=root))
        try:
            for file, data in self.files:
                (staging / file).write_bytes(data)
            try:
                os.rename(staging, folder)          # fails when a folder with files is there
                return True
            except OSError:
                if not folder.exists():             # not a taken place: a real error
                    raise
            return self._holds(folder)              # another worker's, or a damaged one
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _holds(self, folder: Path) -> bool:
        try:
            return all((folder / file).read_bytes() == data for file, data in self.files)
        except OSError:
            return False


# -- Ray -----------------------------------------------------------------------------------------
def _ray():
    """Ray, imported on first use, or a :class:`BackendError` saying how to install it."""
    try:
        import ray
    except ImportError as error:
        raise BackendError(f"the ray backend needs Ray ({error}): {INSTALL_HINT}") from None
    return ray


def _host_port(address: str) -> tuple[str, int] | None:
    return host_port(address, BackendError)


def _check_reachable(address: str, timeout: float) -> None:
    check_reachable(address, timeout, BackendError)


def _retryable(ray) -> tuple[type, ...]:
    """The errors that mean a task's worker or node died, not that the task failed."""
    e = ray.exceptions
    return (e.WorkerCrashedError, e.NodeDiedError, e.ObjectLostError, e.OutOfMemoryError)


class RayCluster(Backend):
    """Tasks on a Ray cluster (see the module docstring).

    ``address``: the cluster's address (``HOST:PORT`` as ``ray start --head`` prints it,
    ``ray://HOST:PORT`` for Ray Client, or ``auto``: ``RAY_ADDRESS``, else the cluster
    started on this machine); None starts a new Ray instance on this machine with
    ``workers`` CPUs (default all) for the run, without a dashboard, whatever
    ``RAY_ADDRESS`` says and whatever cluster already runs here. If this process is already
    connected to Ray (``ray.init`` was called), that connection is used and left open.
    ``workers`` with an address caps the tasks played at once (default: the cluster's
    CPUs). ``max_retries``: how many times a task whose worker died is sent again.
    ``max_restarts``: how many times in a run the local instance it started is started
    again after this machine's raylet died (with an ``address``: one reconnection at most,
    none when 0). ``log``: where the connection line, the retries and the restarts are
    reported (default: stderr).
    ``checkpoint_root``: where the workers write shipped checkpoints (default
    :func:`checkpoint_root` on each worker's machine).
    """

    def __init__(self, address: str | None = None, workers: int | None = None, *,
                 checkpoints: str = "ship", max_retries: int = 3, max_restarts: int = 2,
                 log: Callable[[str], None] | None = None, connect_timeout: float = 10.0,
                 checkpoint_root: str | os.PathLike | None = None):
        if workers is not None and workers < 1:
            raise BackendError(f"workers must be at least 1, got {workers}")
        if checkpoints not in CHECKPOINT_MODES:
            raise BackendError(f"unknown checkpoints mode {checkpoints!r}; known: "
                               f"{', '.join(CHECKPOINT_MODES)}")
        if max_retries < 0:
            raise BackendError(f"max_retries must be at least 0, got {max_retries}")
        if max_restarts < 0:
            raise BackendError(f"max_restarts must be at least 0, got {max_restarts}")
        if address is not None:
            _host_port(address)                  # a malformed address is named at once
        self.address, self.workers, self.checkpoints = address, workers, checkpoints
        self.max_retries, self.connect_timeout = max_retries, connect_timeout
        self.max_restarts = max_restarts
        self.checkpoint_root = None if checkpoint_root is None else str(checkpoint_root)
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.slots = workers or 1
        self.retries = 0              # tasks sent again after their worker died
        self.tasks_sent = 0           # every submission, retries and restarts included
        self.restarts = 0             # Ray started again (or reconnected) after the raylet died
        self._ray_module = None
        self._owned = False           # whether close() disconnects (we connected)
        self._remote: dict[Callable, Any] = {}
        # shipped checkpoints: digest -> (files, their ref in the current Ray instance), and
        # the id of every ref ship() gave out -> digest (a ref from an instance since
        # restarted is swapped for the current one when a task is sent)
        self._shipped: dict[str, tuple[CheckpointFiles, Any]] = {}
        self._shipped_ids: dict[bytes, str] = {}

    # -- the connection ----------------------------------------------------------------------
    def connect(self, announce: bool = True):
        """Connect (once) and return the ``ray`` module; a :class:`BackendError` when Ray is
        missing or the cluster cannot be reached. ``announce``: log the connection's line."""
        if self._ray_module is not None:
            return self._ray_module
        ray = _ray()
        if ray.is_initialized():
            current = ray.get_runtime_context().gcs_address
            if self.address not in (None, "auto") and not _same_address(self.address, current):
                raise BackendError(f"this process is already connected to the Ray cluster at "
                                   f"{current}; it cannot also use {self.address}")
            where = f"the Ray cluster this process is connected to ({current})"
        elif self.address is not None:
            _check_reachable(self.address, self.connect_timeout)
            try:
                ray.init(address=self.address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise BackendError(f"cannot connect to the Ray cluster at {self.address}: "
                                   f"{_first_line(error)}") from None
            self._owned = True
            where = f"the Ray cluster at {self.address}"
        else:
            # address="local": a new instance here, never RAY_ADDRESS's cluster or one already
            # running on this machine (which ray.init() without an address would join)
            try:
                ray.init(address="local", num_cpus=self.workers, include_dashboard=False,
                         log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError, OSError) as error:
                raise BackendError(f"cannot start Ray on this machine: {_first_line(error)}"
                                   ) from None
            self._owned = True
            where = "a local Ray instance"
        self._ray_module = ray
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < 1:
            self.close()
            raise BackendError(f"{where} has no CPUs to run tasks on")
        nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
        self.slots = min(self.workers, cpus) if self.workers else cpus
        if announce:
            self.log(f"Ray: {where}, {cpus} CPU(s) on {nodes} node(s); {self.slots} task(s) at "
                     f"once, {2 * self.slots} in flight")
        return ray

    def close(self) -> None:
        """Disconnect if this backend connected (a local instance it started stops)."""
        if self._ray_module is not None and self._owned:
            self._ray_module.shutdown()
        self._ray_module, self._owned = None, False
        self._remote.clear()
        self._shipped.clear()
        self._shipped_ids.clear()

    # -- trained managers ------------------------------------------------------------------
    def ship(self, names: Iterable[str]) -> dict[str, Any]:
        """Each name as itself, except a trained manager's: its checkpoint files in the
        object store (``"ship"``) or its absolute path (``"shared"``). Ray resolves the
        object references passed as a task's arguments to :class:`CheckpointFiles`; one
        from a Ray instance since restarted (:meth:`run` after the raylet died) is sent as
        the same files' reference in the new instance."""
        ray = self.connect()
        out = {}
        for name in names:
            ref = AgentRef.parse(name)
            if not ref.is_checkpoint:
                out[name] = name
            elif self.checkpoints == "shared":
                out[name] = str(AgentRef(ref.kind, arg=os.path.abspath(ref.path)))
            else:                           # read now: a checkpoint rewritten since is sent anew
                files = CheckpointFiles.read(name, self.checkpoint_root)
                if files.digest not in self._shipped:
                    self._shipped[files.digest] = (files, ray.put(files))
                object_ref = self._shipped[files.digest][1]
                self._shipped_ids[object_ref.binary()] = files.digest
                out[name] = object_ref
        return out

    def _reship(self, ray) -> None:
        """Put every shipped checkpoint in the object store of a new Ray instance (the
        same bytes as read at :meth:`ship`: a run plays the checkpoint it started with)."""
        for digest, (files, _) in list(self._shipped.items()):
            object_ref = ray.put(files)
            self._shipped[digest] = (files, object_ref)
            self._shipped_ids[object_ref.binary()] = digest

    def _current(self, ray, args: tuple) -> tuple:
        """A task's arguments, with each reference :meth:`ship` gave out swapped for its
        files' reference in the current Ray instance (the same one unless Ray restarted)."""
        if not self._shipped_ids:
            return args
        out = []
        for arg in args:
            if isinstance(arg, ray.ObjectRef):
                digest = self._shipped_ids.get(arg.binary())
                if digest is not None and digest in self._shipped:
                    arg = self._shipped[digest][1]
            out.append(arg)
        return tuple(out)

    # -- running -----------------------------------------------------------------------------
    def run(self, fn, tasks, accept, describe=str) -> None:
        ray = self.connect()
        died = _retryable(ray)
        raylet_died = ray.exceptions.LocalRayletDiedError
        running: dict[Any, tuple[Any, tuple, int]] = {}      # ref -> (key, args, attempt)
        sent = finished = restarts = 0          # tasks drawn from `tasks`; results accepted
        dead = False                            # the raylet of the current connection died

        def submit(key, args, attempt: int) -> None:
            if fn not in self._remote:          # again after a restart: a new instance
                self._remote[fn] = ray.remote(num_cpus=1, max_retries=0)(fn)
            running[self._remote[fn].remote(*self._current(ray, args))] = (key, args, attempt)
            self.tasks_sent += 1

        def fill() -> None:
            nonlocal sent
            while len(running) < 2 * self.slots:
                try:
                    key, args = next(tasks)
                except StopIteration:
                    return
                sent += 1
                submit(key, args, 0)

        try:
            fill()
            while running:
                ready, rest = ray.wait(list(running), num_returns=1)
                if rest:                        # whatever else is done too, in key order
                    more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
                    ready += more
                again = []                      # tasks whose worker died, sent again below
                lost: Exception | None = None   # Ray's error: this machine's raylet died
                unfinished = []                 # tasks that went down with the raylet
                for ref in sorted(ready, key=lambda r: running[r][0]):
                    key, args, attempt = running.pop(ref)
                    try:
                        result = ray.get(ref)
                    except raylet_died as error:      # the rest of the batch still counts
                        lost = lost or error
                        unfinished.append((key, args, attempt))
                        continue
                    except died as error:
                        again.append((key, args, attempt, error))
                        continue
                    accept(key, result)
                    finished += 1
                if lost is not None:
                    # every task not finished goes down with the raylet, and is sent again
                    # once Ray runs again (a worker that died with it is no retry)
                    unfinished += [(key, args, attempt) for key, args, attempt, _ in again]
                    unfinished += running.values()
                    unfinished.sort(key=lambda task: task[0])
                    running.clear()             # references into the instance that died
                    dead = True
                    self._restart(lost, finished, sent, len(unfinished), restarts)
                    dead, restarts = False, restarts + 1
                    for key, args, attempt in unfinished:
                        submit(key, args, attempt)
                else:
                    for key, args, attempt, error in again:
                        self._retry(key, args, attempt, error, describe, submit)
                fill()
        finally:
            for ref in running:                 # stopped early (an error, Ctrl-C): cancel the rest
                try:
                    ray.cancel(ref, force=True)
                except Exception:
                    if not dead:                # with the raylet gone, nothing is left to cancel
                        raise

    def _restart(self, error: Exception, finished: int, sent: int, unfinished: int,
                 restarts: int) -> None:
        """After this machine's raylet died (``error``): one line, Ray shut down in this
        process, a new local instance started (or the cluster at ``address`` joined again)
        and the shipped checkpoints put in it. A :class:`RayletDiedError` where it cannot
        be: a connection this backend did not make, ``restarts`` (in this run) at the
        limit, or Ray that does not start or answer again."""
        if not self._owned:
            raise _raylet_died(error, finished, sent,
                               "Ray cannot run tasks from this process any more, and this "
                               "backend does not restart a connection it did not make (Ray "
                               "was initialized before the run)")
        cluster = self.address is not None
        limit = min(self.max_restarts, 1) if cluster else self.max_restarts
        if restarts >= limit:
            if limit == 0:
                why = "Ray cannot run tasks from this process any more (restarts are off)"
            elif cluster:
                why = f"this run had already reconnected once to the Ray cluster at {self.address}"
            else:
                why = (f"the local Ray instance had already been started again {restarts} "
                       f"time(s) in this run, the most allowed")
            raise _raylet_died(error, finished, sent, why)
        doing = (f"reconnecting once to the Ray cluster at {self.address}" if cluster else
                 f"starting a new local Ray instance (restart {restarts + 1} of {limit})")
        self.log(f"Ray: the raylet on this machine died ({type(error).__name__}); {doing} and "
                 f"sending the {unfinished} unfinished task(s) again; the {finished} finished "
                 f"count once")
        ray = self._ray_module
        try:
            ray.shutdown()
        except Exception:                       # what is left of the old instance is gone
            pass
        self._ray_module, self._owned = None, False
        self._remote.clear()
        try:
            self._reship(self.connect(announce=False))
        except Exception as failure:
            doing = (f"reconnecting to the Ray cluster at {self.address}" if cluster else
                     "starting a new local Ray instance")
            raise _raylet_died(error, finished, sent,
                               f"{doing} failed ({_first_line(failure)})") from failure
        self.restarts += 1

    def _retry(self, key, args, attempt: int, error: Exception, describe, submit) -> None:
        what = describe(key)
        if attempt >= self.max_retries:
            raise BackendError(f"a Ray worker died {attempt + 1} time(s) playing {what} "
                               f"({type(error).__name__}: {_first_line(error)}); the run is "
                               f"stopped") from error
        self.retries += 1
        self.log(f"Ray: the worker playing {what} died ({type(error).__name__}); sending it "
                 f"again (retry {attempt + 1} of {self.max_retries}); its results count once")
        submit(key, args, attempt + 1)


def _raylet_died(error: Exception, finished: int, sent: int, why: str) -> RayletDiedError:
    """The one line for a run stopped by the death of this machine's raylet (``why``: why
    it could not go on)."""
    return RayletDiedError(
        f"the Ray raylet on this machine died mid-run ({type(error).__name__}: "
        f"{_first_line(error)}); {why}, so the run stopped with {finished} of the {sent} "
        f"task(s) sent finished; the others were lost", finished, sent)


def _first_line(error: BaseException) -> str:
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    return lines[0][:300] if lines else type(error).__name__


def _same_address(given: str, current: str) -> bool:
    """Whether ``given`` (what the user typed) names the GCS at ``current`` (what Ray says,
    often with the node's IP for 127.0.0.1)."""
    target = _host_port(given)
    if target is None:
        return True
    host, port = target
    chost, _, cport = current.rpartition(":")
    if str(port) != cport:
        return False
    local = {"127.0.0.1", "localhost", "::1", socket.gethostname()}
    return host == chost or host in local
