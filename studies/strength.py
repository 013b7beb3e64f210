"""How much stronger than the heuristic is the search manager? Seat-swapped tournaments on
every ruleset, written as the search docs' table (``dugout standings --strength`` takes its
rows into the README's benchmark table).

    dugout strength                                       # search against heuristic, 200 games a ruleset
    dugout strength --games 4000 --workers 16             # the claim's size, on a bigger machine
    dugout strength --agents search:sims=32 heuristic --cases grand_slam --games 400
    dugout strength --games 400 --workers 2 --markdown docs/search.md

(``python -m dugout.studies.strength`` is the same.) For each case (each ruleset; MLB Showdown's
advanced and expert-with-decks games; Bottom of the 9th's duel and Longer Game) it plays a
tournament of ``--games`` games between the two ``--agents`` (the first is A), every seed
twice with the seats swapped, on the evaluation backends (``--workers``, ``--backend``), and
prints A's score with its 95% interval over pairs, the verdict (better only when the whole
interval is on one side of 50%), A's run differential and the seconds the tournament took.
The Manager Challenge, a solo campaign, has no seats: each manager plays ``--games``
campaigns from the same seeds (``--seed``, ``--seed + 1``, ...), and A's score is its Manager
Points a campaign minus B's with a 95% interval over campaigns (better only when the
interval leaves 0).

``--markdown FILE...`` writes the rows into each file's block between its generated-block
markers (or a new block at its end), keeping the rows of the cases this run did not play, so
cheap rulesets can be measured with many games and dear ones with fewer, each row naming
the command that made it: the README's figures are written by this command, never by hand.
Each case's row is written as soon as its tournament ends, so a run stopped part way keeps
the rows of the cases it finished.

``--pairs FOLDER`` keeps every pair as its chunk finishes (eight pairs a worker; in the
Manager Challenge, each seed's two campaigns) in ``FOLDER/CASE.jsonl`` (:class:`PairStore`):
the same command run again with the same folder plays only the seeds the file does not
hold, so a measurement of thousands of slow games can stop and go on, on another day or
machine, or grow (a larger ``--games`` plays only the new seeds); each chunk kept prints a
line (to stderr) of how many of the run's seeds the file holds and how long the rest would
take at that chunk's pace. The row is the same as one uninterrupted run's (each pair is
seeded on its own); its seconds are those each pair took when it was played. A file that
holds another measurement (other managers or options) is refused, never mixed in; so is one
whose first kept seed plays differently when played again before the run (the code changed
since it was kept).

``--stop-after MINUTES`` (with ``--pairs``) ends such a run on the clock: once MINUTES have
passed, no chunk starts (those in play end and are kept), and a case left unfinished writes
no row but prints a line saying how many of its seeds are kept and which ``--games`` would
write the row of those kept from ``--seed`` on; a later case plays nothing either, and
writes its row only if its file holds every seed already. The same command run again goes
on. (SIGTERM stops a run too, at once, losing the chunk in play.)

Runs may share a ``--pairs`` folder at once, in several processes or on machines whose
shared disk honours file locks: each chunk is appended under a lock on the file after
reading what the others kept, and each run reads the file again before each chunk, so no
seed is played by one run after another kept it, nor kept twice. To split a measurement,
give each run its own seeds (``--seed 0 --games 2000`` and ``--seed 1000 --games 2000``:
seeds 0-999 and 1000-1999); ``--seed 0 --games 4000`` then reads them all and writes the
row of 4,000 games.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Sequence

from ..cli import args
from ._generated import GeneratedBlock

try:
    import fcntl
except ImportError:         # not a POSIX system: no lock (one run a pairs file at a time)
    fcntl = None

__all__ = ["CASES", "measure", "measure_challenge", "PairStore", "configure", "check", "run", "main", "markdown_block",
           "add_play_flags", "add_output_flags", "add_stop_flag", "check_stop_after",
           "stop_deadline", "report_stopped", "check_challenge_seeds"]

#: The tournaments: label -> (env id, env options).
CASES = {
    "thats_baseball": ("thats_baseball_v0", {}),
    "grand_slam": ("grand_slam_v0", {}),
    "showdown": ("showdown_v0", {}),
    "showdown_expert_decks": ("showdown_v0", {"level": "expert", "decks": "default"}),
    "bottom_ninth_duel": ("bottom_ninth_v0", {}),
    "bottom_ninth_game": ("bottom_ninth_v0", {"mode": "game"}),
    "pokemon_baseball": ("pokemon_baseball_v0", {}),
    "manager_challenge": ("manager_challenge_v0", {}),
}
#: How each case reads in the table.
TITLES = {
    "thats_baseball": "That's Baseball", "grand_slam": "Grand Slam",
    "showdown": "MLB Showdown (advanced)", "showdown_expert_decks": "MLB Showdown (expert, decks)",
    "bottom_ninth_duel": "Bottom of the 9th (duel)", "bottom_ninth_game": "Bottom of the 9th (Longer Game)",
    "pokemon_baseball": "Pokemon Baseball",
    "manager_challenge": "Bottom of the 9th (Manager Challenge)",
}
#: The solo case: no seats, so no tournament; both managers play the same campaigns.
CHALLENGE = "manager_challenge_v0"
MARKDOWN_BEGIN = "<!-- generated by dugout strength -->"
MARKDOWN_END = "<!-- end of dugout strength's block -->"
BLOCK = GeneratedBlock(MARKDOWN_BEGIN, MARKDOWN_END, "# Strength")
#: The clock ``--stop-after``'s deadline is read on (seconds; a test may put another in).
_clock = time.monotonic


def measure(env_id: str, options: dict[str, Any], agents: Sequence[str], games: int, seed: int = 0,
            workers: int | None = None, backend: str = "process",
            store: "PairStore | None" = None,
            deadline: float | None = None) -> dict[str, Any] | None:
    """One tournament of ``agents`` (A, B) on ``env_id`` with ``options``: A's figures
    (:meth:`dugout.evaluate.tournament.MatchupResult.summary`) and the seconds it took; the
    Manager Challenge's campaigns instead (:func:`measure_challenge`). With ``store`` (a
    :class:`PairStore`), the pairs it holds are not played again, the others are played in
    chunks and kept there as each chunk ends, and the figures are those of the pairs of
    ``seed, ..., seed + games / 2 - 1``, wherever they were played (``seconds`` the time
    each took when it was played). With ``deadline`` too (a time of :data:`_clock`:
    :func:`stop_deadline`), no chunk starts once it has passed, and a measurement stopped so
    before its last chunk returns None (the chunks it played are kept)."""
    from ..agents.play import PairRecord
    from ..evaluate.tournament import MatchupResult, labels_for, run_tournament
    if env_id == CHALLENGE:
        return measure_challenge(options, agents, games, seed, workers, backend, store, deadline)
    if store is None:
        start = time.perf_counter()
        result = run_tournament(env_id, list(agents), games, seed=seed, workers=workers,
                                env_kwargs=options, backend=backend, bootstrap=0)
        summary = result.matchups[0].summary()
        summary["seconds"] = time.perf_counter() - start
        return summary
    seeds = range(seed, seed + games // 2)

    def play(pool, first: int, count: int) -> list[list]:
        # the chunk's pairs shared among the pool's workers (a task each: default_chunk)
        result = run_tournament(env_id, list(agents), 2 * max(count, 2), seed=first,
                                env_kwargs=options, backend=pool, bootstrap=0)
        return [[p.seed, list(p.a_away), list(p.a_home)] for p in result.matchups[0].pairs]

    if not _play_missing(store, seeds, workers, backend, deadline, play):
        return None
    pairs = [PairRecord(s, tuple(store.records[s][1]), tuple(store.records[s][2])) for s in seeds]
    a, b = labels_for([str(x) for x in agents])
    summary = MatchupResult(a, b, pairs).summary()
    summary["seconds"] = store.seconds(seeds)
    return summary


def measure_challenge(options: dict[str, Any], agents: Sequence[str], campaigns: int, seed: int = 0,
                      workers: int | None = None, backend: str = "process",
                      store: "PairStore | None" = None,
                      deadline: float | None = None) -> dict[str, Any] | None:
    """The Manager Challenge: ``campaigns`` campaigns of each of ``agents`` (A, B) from the
    same seeds (:func:`dugout.evaluate.manager_challenge.play_campaigns`); A's Manager Points a
    campaign minus B's with its 95% interval over campaigns, each one's mean, the verdict
    and the seconds both took. With ``store`` (and ``deadline``), as :func:`measure`: a
    seed's two campaigns are kept once played."""
    from ..evaluate.manager_challenge import paired_difference, paired_verdict, play_campaigns
    seeds = range(seed, seed + campaigns)
    if store is None:
        start = time.perf_counter()
        a, b = (play_campaigns(str(name), campaigns, seed, options, workers or 1, backend=backend)
                for name in agents)
        seconds = time.perf_counter() - start
    else:
        def play(pool, first: int, count: int) -> list[list]:
            a, b = (play_campaigns(str(name), count, first, options, backend=pool)
                    for name in agents)
            return [[first + k, x, y] for k, (x, y) in enumerate(zip(a, b))]

        if not _play_missing(store, seeds, workers, backend, deadline, play):
            return None
        a, b = [store.records[s][1] for s in seeds], [store.records[s][2] for s in seeds]
        seconds = store.seconds(seeds)
    d = paired_difference(a, b)
    verdict = ("every campaign the same" if all(x["mp"] == y["mp"] for x, y in zip(a, b))
               else paired_verdict(d, str(agents[0]), str(agents[1])))
    return {"a": str(agents[0]), "b": str(agents[1]), "games": campaigns, "a_mp_diff": d["mp"],
            "a_mp_diff_low": d["mp_low"], "a_mp_diff_high": d["mp_high"],
            "a_mp": sum(r["mp"] for r in a) / campaigns, "b_mp": sum(r["mp"] for r in b) / campaigns,
            "verdict": verdict, "seconds": seconds}


class PairStore:
    """A case's finished pairs (the Manager Challenge: each seed's two campaigns), kept in
    ``FOLDER/CASE.jsonl`` (``--pairs FOLDER``) so a long measurement can stop and go on:
    another run with the same folder plays only the seeds the file does not hold.

    The first line names what was measured (the case, its env and options, A and B); a
    file that names something else is refused, never mixed in. Each later line is one
    chunk as it finished: ``{"seconds": wall seconds, "records": [[seed, ...], ...]}`` (a
    pair's two games ``[away runs, home runs, winner]``, A away then home; or A's and B's
    campaign results). :meth:`load` reads and checks it; a damaged line raises
    ``ValueError`` naming the file and the line. Several stores (runs, processes) may share
    the file at once: :meth:`add` appends under an exclusive lock on it (``flock``; none
    where the system has no ``fcntl``) after reading the lines the others appended, and
    keeps only the seeds none of them holds."""

    FORMAT = 1

    def __init__(self, folder: str | Path, case: str, env_id: str, options: dict[str, Any],
                 agents: Sequence[str]):
        self.path = Path(folder) / f"{case}.jsonl"
        self.header = {"format": self.FORMAT, "case": case, "env": env_id, "options": options,
                       "a": str(agents[0]), "b": str(agents[1])}
        self.records: dict[int, list] = {}
        self._seconds: dict[int, float] = {}
        #: how many of the file's lines are read into ``records``
        self._lines = 0
        #: told ``(fresh, seconds)`` after each chunk kept (``dugout strength`` prints a line)
        #: told ``(fresh, played, seconds)`` as each chunk is kept: the pairs it kept, the
        #: pairs it played (more when another run kept some meanwhile), the seconds it took
        self.on_add: Callable[[int, int, float], None] | None = None

    def load(self) -> "PairStore":
        """Read the file (none yet: nothing played); ``ValueError`` for one that is damaged
        or holds another measurement."""
        self.records, self._seconds, self._lines = {}, {}, 0
        return self.refresh()

    def refresh(self) -> "PairStore":
        """Read the lines appended to the file since it was last read (by another run sharing
        it), as :meth:`load` reads them."""
        if self.path.exists():
            with _locked(self.path, "r", exclusive=False) as f:
                self._read(f.read())
        return self

    def _read(self, text: str) -> None:
        """Take the lines of the file's ``text`` past those read already."""
        lines = text.splitlines()
        for n, line in enumerate(lines[self._lines:], self._lines + 1):
            try:
                data = json.loads(line)
            except ValueError:
                raise ValueError(f"{self.path}, line {n}: not a JSON line (a run stopped while "
                                 f"writing it? remove that line to play its pairs again)") from None
            if n == 1:
                if data != json.loads(json.dumps(self.header)):
                    raise ValueError(f"{self.path} holds another measurement ({_what(data)}), not "
                                     f"this one ({_what(self.header)}): give another --pairs folder")
                continue
            self._chunk(data, n)
        self._lines = max(self._lines, len(lines))

    def _chunk(self, data: Any, n: int) -> None:
        records = data.get("records") if isinstance(data, dict) else None
        seconds = data.get("seconds") if isinstance(data, dict) else None
        if (not isinstance(records, list) or not records or isinstance(seconds, bool)
                or not isinstance(seconds, (int, float)) or seconds < 0
                or not all(self._valid(r) for r in records)):
            what = ("[seed, A's campaign, B's campaign]" if self.header["env"] == CHALLENGE
                    else "[seed, [away runs, home runs, winner], [away runs, home runs, winner]]")
            raise ValueError(f"{self.path}, line {n}: not a chunk of records "
                             f'{{"seconds": s, "records": [{what}, ...]}}')
        for seed, *_ in records:
            if seed in self.records:
                raise ValueError(f"{self.path}, line {n}: seed {seed} is there twice")
        for r in records:
            self.records[r[0]] = r
            self._seconds[r[0]] = seconds / len(records)

    def _valid(self, record: Any) -> bool:
        """Whether ``record`` is a seed's: a pair's two games, or two campaigns' results."""
        if not (isinstance(record, list) and len(record) == 3 and type(record[0]) is int):
            return False
        if self.header["env"] == CHALLENGE:
            return all(isinstance(c, dict) and type(c.get("mp")) in (int, float)
                       for c in record[1:])
        return all(isinstance(g, list) and len(g) == 3 and type(g[0]) is int and type(g[1]) is int
                   and g[2] in ("away", "home", "") for g in record[1:])

    def check_replay(self, seeds: range) -> None:
        """Play the first held seed of ``seeds`` again (one pair, or one campaign of each
        manager) and compare it with the kept record: ``ValueError`` if it differs, for the
        file was then played by other code (a manager, a rule or the dice changed since), and
        its pairs must not be mixed with new ones."""
        held = [s for s in seeds if s in self.records]
        if not held:
            return
        seed, env_id, options = held[0], self.header["env"], self.header["options"]
        a, b = self.header["a"], self.header["b"]
        if env_id == CHALLENGE:
            from ..evaluate.manager_challenge import play_campaigns
            again = [seed, *(play_campaigns(name, 1, seed, options)[0] for name in (a, b))]
        else:
            from ..agents import make_agent
            from ..agents.play import play_pair
            from ..envs import make
            pair = play_pair(make(env_id, **options), make_agent(env_id, a), make_agent(env_id, b),
                             seed)
            again = [seed, list(pair.a_away), list(pair.a_home)]
        if json.loads(json.dumps(again)) != self.records[seed]:
            raise ValueError(f"{self.path}: seed {seed} plays differently now than when it was kept "
                             f"(the code changed since): give another --pairs folder, or remove "
                             f"the file to play every seed again")

    def pending(self, seeds: range, workers: int | None):
        """The runs of :meth:`missing` to play, one at a time, the file read again before
        each (:meth:`refresh`): the seeds another run sharing the file kept meanwhile are
        left out."""
        for first, count in self.missing(seeds, workers):
            self.refresh()
            yield from self.missing(range(first, first + count), workers)

    def missing(self, seeds: range, workers: int | None) -> list[tuple[int, int]]:
        """The seeds of ``seeds`` not held, as ``(first, count)`` runs of consecutive seeds,
        each at most a chunk: eight a worker, so a run stopped loses little."""
        chunk = 8 * (workers or 1)
        runs: list[tuple[int, int]] = []
        for s in seeds:
            if s in self.records:
                continue
            if runs and runs[-1][0] + runs[-1][1] == s and runs[-1][1] < chunk:
                runs[-1] = (runs[-1][0], runs[-1][1] + 1)
            else:
                runs.append((s, 1))
        return runs

    def add(self, records: list[list], seconds: float) -> None:
        """Keep a chunk's records (those of seeds not held yet, by this store or by another
        run sharing the file) and the seconds it took, appended to the file as one line."""
        if not any(r[0] not in self.records for r in records):
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with _locked(self.path, "a+", exclusive=True) as f:
            f.seek(0)
            text = f.read()
            self._read(text)                # what the others kept since (the header checked)
            fresh = [r for r in records if r[0] not in self.records]
            if not fresh:
                return
            if not text:
                f.write(json.dumps(self.header) + "\n")
                self._lines = 1
            line = json.dumps({"seconds": round(seconds * len(fresh) / len(records), 3),
                               "records": fresh})
            f.write(line + "\n")
            f.flush()
            self._lines += 1
        for r in fresh:
            self.records[r[0]] = r
            self._seconds[r[0]] = seconds / len(records)
        if self.on_add is not None:
            self.on_add(len(fresh), len(records), seconds)

    def seconds(self, seeds: range) -> float:
        """The wall seconds the pairs of ``seeds`` took to play, each its chunk's share."""
        return sum(self._seconds[s] for s in seeds)


def _play_missing(store: "PairStore", seeds: range, workers: int | None, backend: str,
                  deadline: float | None, play: Callable[[Any, int, int], list[list]]) -> bool:
    """Play the seeds of ``seeds`` that ``store`` does not hold, chunk by chunk on one pool
    of ``backend``, keeping each chunk as it ends (``play(pool, first, count)`` gives its
    records); False when ``deadline`` passed with seeds still to play (no chunk, and no
    pool, started after it)."""
    from ..evaluate.backends import make_backend
    if not store.missing(seeds, workers):
        return True
    if past_deadline(deadline):
        return False
    with make_backend(backend, workers) as pool:       # one pool for every chunk
        for first, count in store.pending(seeds, workers):
            if past_deadline(deadline):
                return False
            start = time.perf_counter()
            store.add(play(pool, first, count), time.perf_counter() - start)
    return True


def past_deadline(deadline: float | None) -> bool:
    """Whether ``deadline`` (a time of :data:`_clock`, or None: none) has passed."""
    return deadline is not None and _clock() >= deadline


@contextmanager
def _locked(path: Path, mode: str, exclusive: bool):
    """``path`` opened in ``mode``, locked (shared or exclusive) until it is closed."""
    with open(path, mode, encoding="utf-8") as f:
        if fcntl is not None:
            fcntl.flock(f, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield f


def _progress_line(store: PairStore, title: str, seeds: range,
                   unit: str) -> Callable[[int, int, float], None]:
    """What a long ``--pairs`` run prints (to stderr) as each chunk is kept: how many of the
    run's seeds the file holds now, what the last chunk took, and how long the seeds left
    would take at that chunk's pace (its seconds over the seeds it played, those another
    run kept meanwhile included: they took this run's time too)."""
    def line(fresh: int, played: int, seconds: float) -> None:
        held = sum(1 for s in seeds if s in store.records)
        left = len(seeds) - held
        pace = (f"; {left:,} left, about {_duration(left * seconds / played)} at that pace"
                if left and played else "")
        print(f"{title}: {held:,} of {len(seeds):,} {unit} kept in {store.path} ({fresh} more in "
              f"{seconds:.0f} s{pace})", file=sys.stderr, flush=True)
    return line


def _duration(seconds: float) -> str:
    """``seconds`` as a person reads a wait: ``40 s``, ``12 min``, ``3.4 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def report_stopped(store: PairStore, title: str, seed: int, games: int, minutes: float) -> None:
    """Say (on stderr) that ``--stop-after MINUTES`` stopped the measurement of ``games``
    games (the Manager Challenge's campaigns) from ``seed`` kept in ``store``: how many of its
    seeds are kept, that it wrote no row, and the ``--games`` that writes the row of the
    seeds kept from the first on, where there are enough of them."""
    solo = store.header["env"] == CHALLENGE
    seeds = range(seed, seed + (games if solo else games // 2))
    held = sum(1 for s in seeds if s in store.records)
    first = next((k for k, s in enumerate(seeds) if s not in store.records), len(seeds))
    size = first if solo else 2 * first
    hint = (f"; --games {size} writes the row of the {first:,} from seed {seed} on, all kept"
            if size >= 4 else "")
    print(f"{title}: stopped after {minutes:g} minutes (--stop-after) with {held:,} of "
          f"{len(seeds):,} {'campaign seeds' if solo else 'pairs'} kept in {store.path}, no row "
          f"written: the same command goes on{hint}", file=sys.stderr, flush=True)


def _what(header: Any) -> str:
    if not isinstance(header, dict):
        return "no header"
    return (f"{header.get('case')}: {header.get('a')} against {header.get('b')}, options "
            f"{json.dumps(header.get('options'))}")


def add_play_flags(parser: args.Parser) -> None:
    """``--seed``, ``--workers``, ``--backend``: from which seed and where a measurement's
    games are played (``dugout strength``'s and ``dugout standings``')."""
    parser.add_argument("--seed", type=args.seed, default=0,
                        help=f"the first pair's seed, from 0 to {args.MAX_SEED} (default 0)")
    parser.add_argument("--workers", type=args.workers, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--backend", choices=("process", "ray"), default="process",
                        help="where the games are played (default process)")


def add_output_flags(parser: args.Parser) -> None:
    """``--json`` and ``--markdown``: where a measurement's figures and table are written."""
    parser.add_argument("--json", metavar="PATH", type=args.out_file,
                        help="also write the figures to PATH as JSON")
    parser.add_argument("--markdown", metavar="FILE", type=args.out_file, nargs="+",
                        help="also write the table into each FILE (its generated block replaced, "
                             "or added at its end)")


def add_stop_flag(parser: args.Parser) -> None:
    """``--stop-after MINUTES``: a long measurement kept with ``--pairs`` ends on the clock."""
    parser.add_argument("--stop-after", metavar="MINUTES", type=args.real(0.0, lo_open=True,
                                                                         what="minutes"),
                        help="with --pairs: start no chunk of games once MINUTES have passed "
                             "(those in play end and are kept); a measurement left unfinished "
                             "writes no row, and the same command run again goes on")


def check_stop_after(ns: argparse.Namespace) -> None:
    """``--stop-after`` needs ``--pairs``: without a file, a run that stops keeps nothing."""
    if ns.stop_after is not None and ns.pairs is None:
        raise args.UsageError("--stop-after", "--stop-after: needs --pairs FOLDER (a run stopped "
                                              "without it keeps no game to go on from)")


def stop_deadline(ns: argparse.Namespace) -> float | None:
    """The :data:`_clock` time ``--stop-after`` minutes from now (None without the flag)."""
    return None if ns.stop_after is None else _clock() + 60.0 * ns.stop_after


def check_challenge_seeds(cases: Sequence[str], seed: int, games: int) -> None:
    """The Manager Challenge plays seeds ``seed`` to ``seed + games - 1``: a usage error
    naming ``--seed`` when the last is past the largest seed."""
    last = seed + games - 1
    if "manager_challenge" in cases and last > args.MAX_SEED:
        raise args.UsageError("--seed", f"the Manager Challenge plays seeds {seed} to {last}; the "
                                        f"last must be at most {args.MAX_SEED}: lower --seed or --games")


def configure(parser: args.Parser) -> None:
    """``dugout strength``'s flags."""
    parser.add_argument("--agents", type=args.agent_ref, nargs=2, default=["search", "heuristic"],
                        metavar=("A", "B"), help="the two managers, A first (default: search "
                                                 "heuristic)")
    parser.add_argument("--games", type=args.count(4, args.MAX_GAMES, "games a ruleset", even=True),
                        default=200, metavar="N",
                        help="games a ruleset, an even number (seat-swapped pairs) from 4 "
                             "(default 200); the Manager Challenge's campaigns a manager")
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES),
                        metavar="CASE", help=f"which rulesets (default all): {', '.join(CASES)}")
    add_play_flags(parser)
    parser.add_argument("--pairs", metavar="FOLDER", type=args.out_dir,
                        help="keep every finished pair (the Manager Challenge: each seed's two "
                             "campaigns) in FOLDER/CASE.jsonl, and play only the seeds not there "
                             "yet: run again with the same FOLDER to go on with a measurement "
                             "that stopped, or to add games to it")
    add_stop_flag(parser)
    add_output_flags(parser)


def check(ns: argparse.Namespace) -> None:
    """Both managers must be known to every chosen ruleset (a search's settings checked);
    a ``--markdown`` file that exists must hold the block whole, or not at all."""
    from ..agents.registry import check_agents
    if str(ns.agents[0]) == str(ns.agents[1]):
        raise args.UsageError("--agents", f"--agents: {ns.agents[0]} is given twice")
    for label in ns.cases:
        env_id, options = CASES[label]
        try:
            check_agents(env_id, ns.agents, options)
        except ValueError as error:
            raise args.UsageError("--agents", f"--agents: {label}: {error}") from None
    check_challenge_seeds(ns.cases, ns.seed, ns.games)
    check_stop_after(ns)
    BLOCK.check_flag(ns.markdown)
    ns.stores = {}
    for label in ns.cases if ns.pairs is not None else ():
        env_id, options = CASES[label]
        store = PairStore(ns.pairs, label, env_id, options, ns.agents)
        count = ns.games if env_id == CHALLENGE else ns.games // 2
        try:
            ns.stores[label] = store.load()
            store.check_replay(range(ns.seed, ns.seed + count))
        except (ValueError, OSError) as error:
            raise args.UsageError("--pairs", f"--pairs: {error}") from None
        store.on_add = _progress_line(store, TITLES[label], range(ns.seed, ns.seed + count),
                                      "campaign seeds" if env_id == CHALLENGE else "pairs")


_KEPT = ("a", "b", "games", "a_score", "a_score_low", "a_score_high", "verdict", "a_run_diff", "seconds")
_KEPT_CHALLENGE = ("a", "b", "games", "a_mp_diff", "a_mp_diff_low", "a_mp_diff_high", "a_mp", "b_mp",
                   "verdict", "seconds")


def _row(label: str, s: dict[str, Any], run: int | None = None) -> str:
    if "a_mp_diff" in s:                        # the Manager Challenge: campaigns, Manager Points
        games = f"{s['games']:,} campaigns"
        score = (f"{s['a_mp_diff']:+.2f} MP ({s['a_mp_diff_low']:+.2f} to {s['a_mp_diff_high']:+.2f}); "
                 f"{s['a_mp']:.2f} against {s['b_mp']:.2f}")
        diff = "-"
    else:
        games = f"{s['games']:,}"
        score = (f"{100 * s['a_score']:.1f}% ({100 * s['a_score_low']:.1f}-"
                 f"{100 * s['a_score_high']:.1f}%)")
        diff = f"{s['a_run_diff']:+.2f}"
    return (f"| {label} | `{s['a']}` | `{s['b']}` | {games} | {score} | {s['verdict']} | {diff} | "
            f"{s['seconds'] / s['games']:.1f} |" + (f" {run} |" if run is not None else ""))


def markdown_block(rows: dict[str, dict[str, Any]]) -> str:
    """The block ``--markdown`` writes, markers included: a row per case of ``rows`` (each
    the figures of :func:`measure` with the ``command`` and ``date`` of its run), in
    :data:`CASES`' order, the runs' commands numbered below, and the rows as JSON in a
    comment, so a later run of some cases replaces only their rows."""
    ordered = {label: rows[label] for label in CASES if label in rows}
    commands: list[str] = []
    for r in ordered.values():
        if r["command"] not in commands:
            commands.append(r["command"])
    lines = [MARKDOWN_BEGIN,
             "*Generated by `dugout strength` (the runs below); every seed played twice with the "
             "seats swapped; the interval is 95% over pairs. The Manager Challenge has no seats: "
             "both managers play the same campaigns, and A's score is its Manager Points a "
             "campaign minus B's (95% over campaigns), then both means. Do not edit by hand: "
             "run the command again.*", "",
             "| ruleset | A | B | games | A score (95% interval) | verdict | A run diff/game | "
             "wall seconds/game (campaign) | run |",
             "|---|---|---|---:|---|---|---:|---:|---:|"]
    lines += [_row(TITLES[label], r, commands.index(r["command"]) + 1) for label, r in ordered.items()]
    lines += [""] + [f"{i}. `{c}` ({next(r['date'] for r in ordered.values() if r['command'] == c)})"
                     for i, c in enumerate(commands, 1)]
    lines += ["", f"<!-- rows: {json.dumps(ordered, sort_keys=True)} -->", MARKDOWN_END]
    return "\n".join(lines)


def _saved_rows(block: str) -> dict[str, dict[str, Any]]:
    """The rows a block holds (its JSON comment), those of known cases; {} for none."""
    match = re.search(r"<!-- rows: (.*) -->", block)
    if match is None:
        return {}
    try:
        rows = json.loads(match.group(1))
    except ValueError:
        return {}
    return {k: v for k, v in rows.items() if k in CASES and isinstance(v, dict)} \
        if isinstance(rows, dict) else {}


def _write(path: Path, new: dict[str, dict[str, Any]]) -> None:
    """Put the rows ``new`` into ``path``'s block, keeping its other cases' rows."""
    BLOCK.write(path, markdown_block({**_saved_rows(BLOCK.current(path)), **new}))


def run(ns: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Play each case's tournament, print its row, write the JSON and markdown asked for."""
    agents = [str(a) for a in ns.agents]
    command = (f"dugout strength --agents {' '.join(agents)} --games {ns.games}"
               + (f" --cases {' '.join(ns.cases)}" if ns.cases != list(CASES) else "")
               + (f" --seed {ns.seed}" if ns.seed else ""))
    date = datetime.date.today().isoformat()
    deadline = stop_deadline(ns)
    figures: dict[str, dict[str, Any]] = {}
    for label in ns.cases:
        env_id, options = CASES[label]
        store = getattr(ns, "stores", {}).get(label)
        summary = measure(env_id, options, agents, ns.games, ns.seed, ns.workers, ns.backend,
                          store, deadline)
        if summary is None:                     # --stop-after: its chunks kept, no row
            report_stopped(store, TITLES[label], ns.seed, ns.games, ns.stop_after)
            continue
        kept = _KEPT_CHALLENGE if env_id == CHALLENGE else _KEPT
        figures[label] = {**{k: summary[k] for k in kept}, "command": command, "date": date}
        print(_row(TITLES[label], figures[label]), flush=True)
        for path in ns.markdown or ():          # each case as it ends: a run stopped keeps its rows
            _write(Path(path), {label: figures[label]})
    if ns.json is not None:
        args.write_json(ns.json, {"agents": agents, "games": ns.games, "figures": figures})
    return figures


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """``python -m dugout.studies.strength``: the same as ``dugout strength``."""
    return args.invoke("dugout strength", configure, check, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
