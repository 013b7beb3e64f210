"""Round-robin tournaments between managers, on seat-swapped pairs of games.

    from dugout.evaluate.tournament import run_tournament
    result = run_tournament("thats_baseball_v0", ["random", "heuristic", "solver"], games=2000,
                            workers=2)
    result.matchups[0].score          # the first manager's mean pair score against the second

Design
------
* **The pair is the unit.** Every matchup (A, B) plays each seed twice: A away and B home,
  then B away and A home. The dice are keyed by the situation (``dugout.envs.core.dice``),
  so both games of a pair meet the same dice wherever the managers' choices leave the game
  in the same place (common random numbers). A's *pair score* is its wins in the pair / 2
  (a game cut off by ``max_innings`` counts 1/2); pairs are independent, games are not, so
  every interval on a head-to-head result is computed over pairs (:mod:`.stats`).
* **Seeds.** Matchup pairs use seeds ``seed, seed + 1, ...``; every matchup uses the same
  seeds. A game's seed fixes the dice and reseeds both managers by role
  (:func:`dugout.agents.play.play_pair`),
  so a pair's result depends only on its seed and the two managers, never on which worker
  played it or in what order. Results are therefore identical for any number of workers.
* **Work.** Pairs are played in chunks of ``chunk`` seeds (by default 25, fewer where a
  matchup is too short to give every worker a chunk: :func:`default_chunk`) by a backend
  (:mod:`.backends`): inline (``workers=1``), by a pool of worker processes on this
  machine, at most ``2 * workers`` chunks in flight, or as Ray tasks on a cluster
  (``backend="ray"``, ``address=...``), where the workers rebuild the agents from their
  names and trained managers' checkpoints are shipped through Ray's object store. Results
  are put back in seed order before anything is computed from them, and a chunk counts
  once, whichever copy of it arrives first (a Ray chunk whose worker died is played
  again), so the numbers are the same on every backend and any number of workers.
* **SPRT.** With a :class:`.stats.SPRT`, each matchup is tested after every pair in seed
  order, on the contiguous prefix of pairs played so far, and stops at the first pair
  where the test decides; pairs played beyond that point (in flight when it decided) are
  dropped, so the stopping point too is the same for any number of workers. ``games``
  is then the most a matchup may play.
* **Home advantage** is reported apart from the managers' strength: each matchup's games
  won by the home team, and over the whole tournament.

:func:`crn_check` measures what pairing on the same dice is worth: the same matchup on the
same number of games, once with both games of a pair on one seed and once with the second
game on a seed of its own (independent dice), and the ratio of the two interval widths.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ..agents.play import PairRecord
from ..agents.play import play_pairs as _play_pairs
from ..agents.ref import AgentRef
from ..agents.policy import CheckpointError
from ..agents.registry import make_agent
from ..agents.registry import check_agents as _check_agents
from ..envs import ENV_IDS, make
from ..envs import options as _options
from ..envs.core.errors import OptionError
from ..envs.options import jsonable_options
from . import stats
from .backends import Backend, BackendError, CheckpointFiles, make_backend
from .stats import SPRT, SPRTResult

__all__ = ["PairRecord", "MatchupResult", "TournamentResult", "run_tournament", "crn_check",
           "check_agents", "play_pairs", "play_chunk", "default_chunk", "CHUNK", "TournamentError",
           "env_options_from_flags", "check_env_options"]

class TournamentError(ValueError):
    """Bad input to a tournament: unknown env or agent, too few games, bad options."""


# -- playing pairs (in any process) -------------------------------------------------------------
_ENVS: dict[tuple[str, str], Any] = {}
#: (env, name, role) -> (what the checkpoint held when it was loaded, the agent)
_AGENTS: dict[tuple[str, str, str], tuple[str | None, Any]] = {}


def _env(env_id: str, env_kwargs: dict[str, Any] | None):
    key = (env_id, repr(sorted((env_kwargs or {}).items())))
    if key not in _ENVS:
        _ENVS[key] = make(env_id, **(env_kwargs or {}))
    return _ENVS[key]


def _checkpoint_content(name: str) -> str | None:
    """What a trained manager's checkpoint (``ppo:PATH``) holds now: a hash of its
    ``meta.json`` and ``policy.pt`` (None when they cannot be read: loading it says why)."""
    folder = Path(AgentRef.parse(name).path)
    if folder.is_file():
        folder = folder.parent
    h = hashlib.sha256()
    try:
        for file in ("meta.json", "policy.pt"):           # what PolicyAgent loads
            data = (folder / file).read_bytes()
            h.update(file.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    except OSError:
        return None
    return h.hexdigest()


def _agent(env_id: str, name: str, role: str):
    """One agent object per (env, name, role) and process; each game reseeds it. A trained
    manager is kept only while its checkpoint holds what it was loaded from: one rewritten
    in place (a worker process that outlives a run: Ray's, or this process between runs)
    is loaded again."""
    key = (env_id, name, role)
    trained = AgentRef.parse(name).is_checkpoint
    content = _checkpoint_content(name) if trained else None
    cached = _AGENTS.get(key)
    if cached is None or cached[0] != content or (content is None and trained):
        if _plays_a_network(name):
            import torch
            torch.set_num_threads(1)      # small networks; two workers must not fight for cores
        _AGENTS[key] = (content, make_agent(env_id, name))
    return _AGENTS[key][1]


def _plays_a_network(name: str) -> bool:
    """Whether the manager ``name`` decides with a torch network: a trained one (``ppo:PATH``),
    a shipped one (``pretrained``) or a search whose rollouts a trained one plays."""
    ref = AgentRef.parse(name)
    return (ref.is_checkpoint or ref.name == "pretrained"
            or ref.settings.get("rollout", "").startswith("ppo:"))


def play_pairs(env_id: str, a: str, b: str, seeds: Sequence[int],
               env_kwargs: dict[str, Any] | None = None,
               independent: bool = False) -> list[PairRecord]:
    """:func:`dugout.agents.play.play_pairs` for managers given by name, in any process (the
    env and the agents are built once per process and reseeded for every game)."""
    return _play_pairs(_env(env_id, env_kwargs), _agent(env_id, a, "a"), _agent(env_id, b, "b"),
                       seeds, independent)


def play_chunk(env_id: str, a: "str | CheckpointFiles", b: "str | CheckpointFiles",
               seeds: Sequence[int], env_kwargs: dict[str, Any] | None = None,
               independent: bool = False) -> list[PairRecord]:
    """One chunk of a tournament, in whatever process or machine a backend runs it:
    :func:`play_pairs`, with a trained manager that arrived as its checkpoint's files (a
    Ray worker on another machine, :class:`.backends.CheckpointFiles`) first written to a
    local folder and loaded from there by the same safe loader."""
    if isinstance(a, CheckpointFiles):
        a = a.materialize()
    if isinstance(b, CheckpointFiles):
        b = b.materialize()
    return play_pairs(env_id, a, b, seeds, env_kwargs, independent)


# -- the env's options (the rules a tournament is played under) -----------------------------------
# Read and checked by dugout.envs.options (the same for training); bad ones are a TournamentError.
def check_env_options(env_id: str, options: dict[str, Any] | None, flag: str = "env_kwargs"):
    """Build ``env_id`` with ``options`` (once a process: the env the games then use) and
    return it; raise :class:`TournamentError` (a ``ValueError``) naming ``flag`` for an
    unknown env, a reserved or unknown option, or a value the env's own check refuses
    (:func:`dugout.envs.options.check_env_options`)."""
    try:
        return _options.check_env_options(env_id, options, flag, build=_env)
    except OptionError as error:
        raise TournamentError(str(error)) from None


def env_options_from_flags(env_id: str, options: Sequence[str] | None = None,
                           teams: Sequence[str] | None = None) -> dict[str, Any]:
    """The env options of ``--env-option KEY=VALUE`` (repeatable) and ``--teams AWAY HOME``
    (:func:`dugout.envs.options.env_options_from_flags`); a :class:`TournamentError` naming
    the flag."""
    try:
        return _options.env_options_from_flags(env_id, options, teams)
    except OptionError as error:
        raise TournamentError(str(error)) from None


# -- checking the input --------------------------------------------------------------------------
def check_agents(env_id: str, names: Sequence[str], env_kwargs: dict[str, Any] | None = None) -> None:
    """Raise :class:`TournamentError` (or the checkpoint's ``CheckpointError``, also a
    ``ValueError``) naming the first env or agent that cannot play. A trained manager
    (``ppo:PATH``) must take the observations and actions of the env built with
    ``env_kwargs`` (:func:`dugout.agents.registry.check_agents`)."""
    if env_id not in ENV_IDS:
        raise TournamentError(f"unknown environment {env_id!r}; known: {', '.join(ENV_IDS)}")
    for name in names:
        if not isinstance(name, str):
            raise TournamentError(f"agents are given by name, got {name!r}")
    try:
        _check_agents(env_id, names, env_kwargs)
    except CheckpointError:
        raise
    except ValueError as error:
        raise TournamentError(str(error)) from None


def labels_for(names: Sequence[str]) -> list[str]:
    """Display labels: the names, a checkpoint shortened to ``ppo:<its run folder>``, and
    ``#2``, ``#3`` after repeats (``random``, ``random#2``)."""
    def short(name: str) -> str:
        ref = AgentRef.parse(name)
        if not ref.is_checkpoint:
            return name
        parts = [p for p in ref.path.replace("\\", "/").split("/") if p and p not in (".", "model")]
        return "ppo:" + (parts[-1] if parts else ref.path)

    shorts = [short(n) for n in names]
    # two different checkpoints in folders of the same name: keep their full names
    full = {s for s in shorts if len({n for n, t in zip(names, shorts) if t == s}) > 1}
    out, seen = [], {}
    for name, label in zip(names, shorts):
        label = name if label in full else label
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    return out


# -- results -------------------------------------------------------------------------------------
@dataclass
class MatchupResult:
    a: str                    # labels
    b: str
    pairs: list[PairRecord] = field(repr=False)
    sprt: SPRTResult | None = None

    @property
    def n_pairs(self) -> int:
        return len(self.pairs)

    @property
    def games(self) -> int:
        return 2 * len(self.pairs)

    def scores(self) -> np.ndarray:
        return np.array([p.score for p in self.pairs])

    def summary(self) -> dict[str, Any]:
        """Every figure of the matchup, as plain numbers (what the report writes)."""
        n = len(self.pairs)
        score, low, high = stats.mean_interval(self.scores())
        if low == high and score in (0.0, 1.0):
            # a clean sweep has no spread to estimate: the normal interval collapses to a
            # point, so give the Wilson interval for n pairs all won (or all lost) instead
            low, high = stats.wilson_interval(score * n, n)
        diff, dlow, dhigh = stats.mean_interval([p.run_diff for p in self.pairs])
        home, hlow, hhigh = stats.mean_interval([p.home_wins / 2 for p in self.pairs])
        a_wins = sum(p.a_wins for p in self.pairs)
        b_wins = sum(p.b_wins for p in self.pairs)
        away_wins = sum(p.a_wins_away for p in self.pairs)
        home_wins = sum(p.a_wins_home for p in self.pairs)
        out = {
            "a": self.a, "b": self.b, "pairs": n, "games": 2 * n,
            "a_wins": a_wins, "b_wins": b_wins,
            "truncated": sum((p.a_away[2] == "") + (p.a_home[2] == "") for p in self.pairs),
            "a_score": score, "a_score_low": max(0.0, low), "a_score_high": min(1.0, high),
            "a_elo": stats.score_to_elo(score),
            "a_run_diff": diff, "a_run_diff_low": dlow, "a_run_diff_high": dhigh,
            "a_away_win_rate": away_wins / n,
            "a_away_wilson": list(stats.wilson_interval(away_wins, n)),
            "a_home_win_rate": home_wins / n,
            "a_home_wilson": list(stats.wilson_interval(home_wins, n)),
            "home_win_rate": home, "home_win_rate_low": hlow, "home_win_rate_high": hhigh,
            "verdict": self.verdict(low, high),
        }
        if self.sprt is not None:
            out["sprt"] = asdict(self.sprt)
        return out

    def verdict(self, low: float, high: float) -> str:
        if self.sprt is not None and self.sprt.decision != "continue":
            return {"A better": f"{self.a} better (SPRT)", "B better": f"{self.b} better (SPRT)"}.get(
                self.sprt.decision, "neither better by the margin (SPRT)")
        if all(p.score == 0.5 and p.a_away[2] != "" for p in self.pairs) and low == high:
            return "every pair split"
        if low > 0.5:
            return f"{self.a} better"
        if high < 0.5:
            return f"{self.b} better"
        return "no significant difference"


@dataclass
class TournamentResult:
    env: str
    agents: list[str]                 # names as given (ppo:PATH, ...)
    labels: list[str]                 # display labels, same order
    seed: int
    games_per_matchup: int            # the most each matchup could play
    workers: int
    matchups: list[MatchupResult]
    seconds: float
    sprt: SPRT | None = None
    bootstrap: int = 1000
    env_options: dict[str, Any] = field(default_factory=dict)     # the env's options (the rules)
    _ratings: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    @property
    def games(self) -> int:
        return sum(m.games for m in self.matchups)

    def anchor(self) -> int | None:
        """Ratings are 0 for the first random manager if there is one, else mean 0."""
        return self.agents.index("random") if "random" in self.agents else None

    def ratings(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Bradley-Terry ratings (Elo scale) with 95% bootstrap intervals over pairs."""
        if self._ratings is None:
            index = {label: i for i, label in enumerate(self.labels)}
            data = [(index[m.a], index[m.b], np.array([p.a_wins for p in m.pairs]),
                     np.array([p.b_wins for p in m.pairs])) for m in self.matchups if m.pairs]
            self._ratings = stats.bootstrap_ratings(data, len(self.labels), samples=self.bootstrap,
                                                    seed=self.seed, anchor=self.anchor())
        return self._ratings

    def score_matrix(self) -> np.ndarray:
        """``m[i, j]``: manager i's mean pair score against j (NaN on the diagonal)."""
        k = len(self.labels)
        m = np.full((k, k), np.nan)
        index = {label: i for i, label in enumerate(self.labels)}
        for r in self.matchups:
            if r.pairs:
                s = float(r.scores().mean())
                m[index[r.a], index[r.b]], m[index[r.b], index[r.a]] = s, 1 - s
        return m

    def home_advantage(self) -> dict[str, float]:
        """The home team's share of wins over every game, with its interval over pairs."""
        values = [p.home_wins / 2 for m in self.matchups for p in m.pairs]
        rate, low, high = stats.mean_interval(values)
        return {"home_win_rate": rate, "low": low, "high": high, "games": 2 * len(values)}

    def to_dict(self) -> dict[str, Any]:
        ratings, low, high = self.ratings()
        return {
            "env": self.env, "env_options": jsonable_options(self.env_options),
            "agents": self.agents, "labels": self.labels, "seed": self.seed,
            "games_per_matchup": self.games_per_matchup, "games": self.games,
            "workers": self.workers, "seconds": self.seconds,
            "games_per_second": self.games / max(self.seconds, 1e-9),
            "sprt": asdict(self.sprt) if self.sprt else None,
            "matchups": [m.summary() for m in self.matchups],
            "ratings": [{"agent": label, "elo": float(r), "low": float(lo), "high": float(hi)}
                        for label, r, lo, hi in zip(self.labels, ratings, low, high)],
            "rating_anchor": self.labels[self.anchor()] if self.anchor() is not None else "mean",
            "home_advantage": self.home_advantage(),
        }


# -- running ---------------------------------------------------------------------------------------
Progress = Callable[[int, "MatchupResult | None"], None]


def _backend(backend: "str | Backend", workers: int | None, address: str | None
             ) -> tuple[Backend, bool]:
    """The backend to play on and whether this call owns it (and so closes it): a name
    (``"process"``, ``"ray"``) is built here with ``workers`` and ``address``; a
    :class:`.backends.Backend` object is the caller's, used as it is (``workers`` or
    ``address`` beside it is a :class:`TournamentError`: they would be ignored)."""
    if isinstance(backend, Backend):
        given = [f"{flag}={value!r}" for flag, value in (("workers", workers), ("address", address))
                 if value is not None]
        if given:
            raise TournamentError(f"{' and '.join(given)}: where the games are played is the "
                                  f"backend object's own setting; give it to make_backend() "
                                  f"(or RayCluster()), not with a backend object")
        return backend, False
    if workers is not None and workers < 1:
        raise TournamentError(f"workers must be at least 1, got {workers}")
    try:
        return make_backend(backend, workers, address), True
    except BackendError as error:
        raise TournamentError(str(error)) from None


#: seed pairs a task at most, when a tournament's caller names no chunk
CHUNK = 25


def default_chunk(pairs: int, workers: int) -> int:
    """Seed pairs a task when none is named: :data:`CHUNK`, or fewer where a matchup of
    ``pairs`` pairs would leave some of the ``workers`` without a task (16 pairs on two
    workers are two tasks of 8, not one of 16). The figures are the same for any chunk:
    only how the work is shared changes. A Ray cluster not yet connected counts the
    workers it was given (one when none), so its chunks stay at :data:`CHUNK`."""
    return max(1, min(CHUNK, math.ceil(pairs / max(workers, 1))))


def run_tournament(env_id: str, agents: Sequence[str], games: int, seed: int = 0,
                   workers: int | None = None, sprt: SPRT | None = None,
                   env_kwargs: dict[str, Any] | None = None, chunk: int | None = None,
                   progress: Progress | None = None, bootstrap: int = 1000,
                   backend: "str | Backend" = "process", address: str | None = None
                   ) -> TournamentResult:
    """A round robin: every pair of ``agents`` (names) plays ``games`` games (``games / 2``
    seat-swapped pairs; with ``sprt``, at most that many).

    ``env_kwargs`` are the env's options (the rules every game is played under), checked
    by building the env once before any game (:func:`check_env_options`); the result
    records them (``env_options``).

    Where the games are played: ``backend="process"`` (the default) plays them in this
    process (``workers`` None or 1) or in a pool of ``workers`` processes;
    ``backend="ray"`` sends each chunk of ``chunk`` seeds as a Ray task, to the cluster at
    ``address`` or to a Ray instance started here with ``workers`` CPUs (see
    :mod:`.backends`); a :class:`.backends.Backend` object is used as it is (and left open;
    ``workers`` and ``address`` are then its own settings, and refused here).
    The results are the same on every backend.

    ``chunk`` is the seed pairs a task (None: :func:`default_chunk` of the backend's workers).

    ``progress(games_done, finished_matchup)`` is called after every chunk of pairs, with
    the matchup that just finished, if any.
    """
    if games < 4 or games % 2:
        raise TournamentError(f"games per matchup must be an even number, at least 4 (two "
                              f"seat-swapped pairs), got {games}")
    if chunk is not None and chunk < 1:
        raise TournamentError(f"chunk must be at least 1, got {chunk}")
    if len(agents) < 2:
        raise TournamentError(f"a tournament needs at least two agents, got {list(agents)}")
    player, owned = _backend(backend, workers, address)
    if chunk is None:
        chunk = default_chunk(games // 2, player.slots)
    try:
        env_kwargs = dict(env_kwargs or {})
        check_env_options(env_id, env_kwargs)
        check_agents(env_id, agents, env_kwargs)
        labels = labels_for(agents)
        pairs = games // 2
        plan = [(i, j) for i in range(len(agents)) for j in range(i + 1, len(agents))]
        start = time.perf_counter()
        runner = _Runner(env_id, [(agents[i], agents[j]) for i, j in plan], pairs, seed, player,
                         chunk, sprt, env_kwargs)
        results = []

        def finished(m: int) -> None:
            i, j = plan[m]
            results.append(MatchupResult(labels[i], labels[j], runner.records(m),
                                         runner.decisions[m]))
            return results[-1]

        runner.run(progress, finished)
    finally:
        if owned:
            player.close()
    order = {plan[m]: m for m in range(len(plan))}
    index = {label: k for k, label in enumerate(labels)}
    results.sort(key=lambda r: order[(index[r.a], index[r.b])])
    return TournamentResult(env_id, list(agents), labels, seed, games, player.slots, results,
                            time.perf_counter() - start, sprt, bootstrap, env_kwargs)


class _Runner:
    """Plays the chunks of every matchup on a backend and puts them back in seed order."""

    def __init__(self, env_id, matchups, pairs, seed, backend: Backend, chunk, sprt, env_kwargs,
                 independent: bool = False):
        self.env_id, self.matchups, self.pairs, self.seed = env_id, matchups, pairs, seed
        self.backend, self.chunk, self.sprt, self.env_kwargs = backend, chunk, sprt, env_kwargs
        self.independent = independent
        n = len(matchups)
        self.chunks: list[dict[int, list[PairRecord]]] = [{} for _ in range(n)]
        self.prefix: list[list[PairRecord]] = [[] for _ in range(n)]
        self.counted: list[set[int]] = [set() for _ in range(n)]
        self.done = [False] * n
        self.decisions: list[SPRTResult | None] = [None] * n
        self.games_done = 0

    def tasks(self) -> Iterator[tuple[int, int, list[int]]]:
        """(matchup, chunk number, seeds), matchup by matchup, skipping decided matchups."""
        for m in range(len(self.matchups)):
            for k, first in enumerate(range(0, self.pairs, self.chunk)):
                if self.done[m]:
                    break
                seeds = list(range(self.seed + first, self.seed + min(first + self.chunk, self.pairs)))
                yield m, k, seeds

    def records(self, m: int) -> list[PairRecord]:
        return self.prefix[m]

    def describe(self, key: tuple[int, int]) -> str:
        """A chunk, for messages: its seeds and its matchup."""
        m, k = key
        first = self.seed + k * self.chunk
        last = self.seed + min((k + 1) * self.chunk, self.pairs) - 1
        a, b = self.matchups[m]
        return f"seeds {first}-{last} of {a} vs {b}"

    def _accept(self, m: int, k: int, records: list[PairRecord]) -> bool:
        """Store a chunk; extend the matchup's in-order prefix; True once the matchup is done.
        A chunk counts once: a second copy of one already counted is ignored."""
        if self.done[m] or k in self.counted[m]:
            return False                        # played while the SPRT was deciding, or a copy
        self.counted[m].add(k)
        self.chunks[m][k] = records
        self.games_done += 2 * len(records)
        nxt = len(self.prefix[m]) // self.chunk
        while nxt in self.chunks[m] and len(self.prefix[m]) == nxt * self.chunk:
            self.prefix[m].extend(self.chunks[m].pop(nxt))
            nxt += 1
        if self.sprt is not None:
            decision = self.sprt.run([p.score for p in self.prefix[m]])
            self.decisions[m] = decision
            if decision.decision != "continue":
                self.prefix[m] = self.prefix[m][:decision.pairs]
                self.done[m] = True
                return True
        if len(self.prefix[m]) >= self.pairs:
            self.done[m] = True
            return True
        return False

    def run(self, progress, finished) -> None:
        def accept(key, records):
            m, k = key
            done = self._accept(m, k, records)
            result = finished(m) if done else None
            if progress is not None:
                progress(self.games_done, result)

        # what the workers get for each agent: its name, or a trained manager's checkpoint
        sent = self.backend.ship(sorted({name for pair in self.matchups for name in pair}))
        tasks = (((m, k), (self.env_id, sent[self.matchups[m][0]], sent[self.matchups[m][1]],
                           seeds, self.env_kwargs, self.independent))
                 for m, k, seeds in self.tasks())
        self.backend.run(play_chunk, tasks, accept, self.describe)


# -- common random numbers ---------------------------------------------------------------------------
def crn_check(env_id: str, a: str, b: str, games: int, seed: int = 0, workers: int | None = None,
              env_kwargs: dict[str, Any] | None = None, backend: "str | Backend" = "process",
              address: str | None = None) -> dict[str, Any]:
    """How much pairing on the same seed narrows the interval on A's score against B.

    Plays the matchup twice on ``games`` games each: *paired* (both games of a pair on one
    seed: common random numbers) and *independent* (the seat-swapped game on a seed of
    its own). Both designs are seat-balanced and give unbiased estimates of the same
    score; the returned dict has each one's mean, 95% interval half-width and pair-score
    variance, the ``width_ratio`` (paired / independent half-width) and the
    ``games_factor``: how many times more games the independent design needs to match
    the paired design's interval ((independent / paired half-width) squared).

    ``workers``, ``backend`` and ``address`` say where the games are played, as for
    :func:`run_tournament`; the figures are the same on every backend.
    """
    if games < 4 or games % 2:
        raise TournamentError(f"games must be an even number, at least 4, got {games}")
    player, owned = _backend(backend, workers, address)
    try:
        return _crn_check(env_id, a, b, games, seed, env_kwargs, player)
    finally:
        if owned:
            player.close()


def _crn_check(env_id, a, b, games, seed, env_kwargs, player: Backend) -> dict[str, Any]:
    env_kwargs = dict(env_kwargs or {})
    check_env_options(env_id, env_kwargs)
    check_agents(env_id, [a, b], env_kwargs)
    out: dict[str, Any] = {"env": env_id, "env_options": jsonable_options(env_kwargs), "a": a, "b": b,
                           "games": games, "seed": seed}
    for design, independent in (("paired", False), ("independent", True)):
        runner = _Runner(env_id, [(a, b)], games // 2, seed, player,
                         default_chunk(games // 2, player.slots), None, env_kwargs,
                         independent=independent)
        runner.run(None, lambda m: None)
        scores = np.array([p.score for p in runner.records(0)])
        mean, low, high = stats.mean_interval(scores)
        out[design] = {"a_score": mean, "low": max(0.0, low), "high": min(1.0, high),
                       "half_width": (high - low) / 2,          # of the interval before clipping
                       "pair_variance": float(scores.var(ddof=1))}
    # the ratio uses the unclipped half-widths: z * sd / sqrt(n)
    p, i = (stats.Z95 * math.sqrt(out[d]["pair_variance"] / (games // 2))
            for d in ("paired", "independent"))
    out["width_ratio"] = p / i if i > 0 else math.nan
    out["games_factor"] = (i / p) ** 2 if p > 0 else math.inf
    return out
