"""Move-by-move analysis of a game with the search manager, as a chess engine analyses one.

    from dugout.evaluate.analysis import analyse_game, decision_report
    game = analyse_game("grand_slam_v0", {}, {"away": "heuristic", "home": "random"}, seed=7,
                        search="search:sims=64")
    print(game_text(game))                 # the costliest decisions first, then the move list
    report = decision_report("grand_slam_v0", {}, "heuristic", "random", games=20, seed=0)
    print(report_text(report))             # where the manager loses most, by decision kind

**One game** (:func:`analyse_game`). The given managers play the game, seeded exactly as
:func:`dugout.agents.play.play_game` seeds them (so it is the very game a tournament or
``dugout replay`` shows with the same seeds). At every decision of an analysed seat with
more than one legal action, a search manager (:class:`~dugout.agents.search.SearchAgent`)
evaluates every option with its full budget (``race=False``): it rebuilds games from that
seat's view and the public set-up alone (never the live game), plays each option in each
of the same worlds and reports, for each option, the deciding manager's estimated chance
of winning after it (a tie counting 1/2) with its standard error. The search is seeded
afresh at each decision (:func:`decision_seed`: the search seed, the game's seed and the
decision's index), so a record does not depend on the decisions analysed before it, and a
position analysed on its own gets the same numbers.

A :class:`DecisionRecord` holds the situation (inning, half, outs, score, from the view),
the seat and the decision's kind, every legal option with its label (the infos' labels),
mean and standard error, the choice made and the best option, and:

* ``cost``: the best option's mean minus the chosen option's (0 when the choice is the
  best): the chance of winning the choice gave away, by the search's estimate;
* ``cost_se``: the standard error of that difference, paired over the worlds both options
  met (:attr:`Evaluation.values <dugout.agents.search.Evaluation>`), far smaller than
  either option's own standard error;
* ``beyond_noise``: whether the cost is more than :data:`NOISE_Z` (2) paired standard
  errors, i.e. the choice was shown worse than the best, not merely estimated so;
* ``win``: the deciding seat's chance of winning after its choice (the chosen option's
  mean); the other seat's is ``1 - win``;
* ``held_out`` and ``held_out_se`` (when asked for, else None): the cost priced again on
  fresh worlds. The best option is the one whose estimate came out highest, so ``cost``,
  read off the same worlds, is biased upwards (the winner's curse: with many options
  within noise of each other, some come out ahead by luck, and a report adds those lucky
  margins over hundreds of decisions). The held-out cost is the best-named option's mean
  minus the choice's over a second, independent set of worlds (:func:`held_out_seed`):
  an unbiased estimate of what following the search's pick instead would have gained,
  which may come out below 0. It is 0 where the choice was the best.

The estimates are those of the search's rollout manager playing on (the heuristic by
default): a cost says "the best option was worth this much more, if both sides then play
as the rollout manager", not what perfect play would give. ``horizon=H`` ends each rollout
H half innings on, scored by the ruleset's win-expectancy table, for a faster, rougher
estimate.

**A saved position** (:func:`analyse_saved`, :func:`analyse_position`). A saved game
(``env.unwrapped.save()``, or its JSON, ``save().to_dict()``) holds the position and its
dice, but not the moves that led there nor those to come, so what can be analysed is the
saved position's pending decision: one record. A game's record of the actions played is
what :func:`analyse_game` replays.

**Where a manager loses most** (:func:`decision_report`). Over ``games`` seat-swapped
games (each seed twice, the manager away then home, the managers seeded by role as
:func:`dugout.agents.play.play_pair` seeds them), every decision of the manager is
analysed; for each decision kind, the mean cost per decision with its 95% interval (over
decisions), how often the choice was beyond noise worse than the best, and the cost per
game with its 95% interval (over games), ranked by cost per game; with ``held_out``, the
held-out cost per game too, by kind and in all (twice the search), of every choice and of the
choices beyond noise alone: those the search would overrule, whose held-out cost is what
overruling them gains (every choice's adds the noise of picking the best-named option where
none is shown better, which can come out below 0). The games are played on
a :mod:`backend <dugout.evaluate.backends>` (``workers`` processes); each game is seeded
on its own, so the report is the same for any number of workers.

**Output.** :func:`game_text` (a table of the costliest decisions, then the move list),
:func:`report_text`, the records as JSON (``to_dict``), and :func:`plot_win_probability`,
both seats' chance of winning through the game (matplotlib, the ``plots`` extra). The
command line is ``dugout analyze`` (:mod:`dugout.evaluate.cli`).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from ..agents import make_agent
from ..agents.play import SEATS, tell_setup
from ..cli.args import PLOT_HINT
from ..envs import make

__all__ = ["Option", "DecisionRecord", "Move", "GameAnalysis", "KindCost", "DecisionReport",
           "analyse_game", "analyse_position", "analyse_saved", "load_saved", "decision_report",
           "evaluate_decision", "held_out_seed", "choice_to_price", "kind_costs", "play_tasks",
           "load_plt", "save_plot",
           "decision_seed", "game_text", "position_text", "report_text", "plot_win_probability", "PlotError",
           "NOISE_Z", "DEFAULT_SEARCH"]

#: A choice is "beyond noise" worse than the best when its cost exceeds this many standard
#: errors of the paired difference.
NOISE_Z = 2.0
#: The search an analysis uses unless told otherwise: the ruleset's default budget, each
#: rollout played to the end of the game (a result, not a win-expectancy table's estimate).
DEFAULT_SEARCH = "search"
_Z95 = 1.959963984540054
#: Mixed into a decision's seed for its held-out worlds.
_HELD_OUT_KEY = 0x68656C64


# -- the records ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Option:
    """One legal option of a decision: its action, label, and the deciding manager's
    estimated chance of winning after it (``mean``, a tie 1/2) with its standard error."""
    action: int
    label: str
    mean: float
    se: float


@dataclass(frozen=True)
class DecisionRecord:
    """One analysed decision (see the module docstring). ``step`` is the number of decisions
    the game had made before it (the env's ``decision_count``); ``half`` is 0 for the top of
    an inning, 1 for the bottom; ``score`` is (away, home)."""
    step: int
    seat: str
    kind: str
    inning: int
    half: int
    outs: int
    score: tuple[int, int]
    options: tuple[Option, ...]
    chosen: int
    best: int
    cost: float
    cost_se: float
    beyond_noise: bool
    worlds: int
    held_out: float | None = None
    held_out_se: float | None = None

    @property
    def win(self) -> float:
        """The deciding seat's estimated chance of winning after its choice."""
        return self.option(self.chosen).mean

    def option(self, action: int) -> Option:
        """The option of ``action``."""
        for option in self.options:
            if option.action == action:
                return option
        raise KeyError(f"action {action} is not one of this decision's options")

    def situation(self) -> str:
        """``T3 1 out, 2-1``: the half inning, the outs and the score (away-home)."""
        return _situation_text(self)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["score"] = list(self.score)
        d["options"] = [asdict(o) for o in self.options]
        d["win"] = self.win
        return _finite(d)


@dataclass(frozen=True)
class Move:
    """A decision with more than one legal action, as played: who, what kind, the situation,
    the action and its label, and its :class:`DecisionRecord` when it was analysed."""
    step: int
    seat: str
    kind: str
    inning: int
    half: int
    outs: int
    score: tuple[int, int]
    action: int
    label: str
    record: DecisionRecord | None = None

    def situation(self) -> str:
        """``B7 2 outs, 3-4``: the half inning, the outs and the score (away-home)."""
        return _situation_text(self)

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in ("step", "seat", "kind", "inning", "half", "outs",
                                            "action", "label")}
        d["score"] = list(self.score)
        d["analysed"] = self.record is not None
        return d


class Records:
    """An analysis read as the sequence of its ``records`` (iterate, index or ``len()``)."""
    records: list[DecisionRecord]

    def __iter__(self) -> Iterator[DecisionRecord]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, i):
        return self.records[i]


@dataclass
class GameAnalysis(Records):
    """One game analysed: a sequence of its :class:`DecisionRecord` (iterate, index or
    ``len()`` it), with the game (its seed, managers, final score and winner), every
    decision with a choice (``moves``) and both seats' chance of winning through the game
    (:meth:`win_curve`)."""
    env_id: str
    env_kwargs: dict[str, Any]
    agents: dict[str, str]
    seed: int
    search: str
    search_seed: int
    seats: tuple[str, ...]
    records: list[DecisionRecord]
    moves: list[Move]
    score: tuple[int, int]
    winner: str | None            # "away", "home", or None for a game cut off
    decisions: int                # every decision the game made, forced ones included
    innings: int
    box_score: dict[str, Any] = field(default_factory=dict, repr=False)

    def win_curve(self) -> list[tuple[int, float, float]]:
        """``(step, away, home)``: both seats' chance of winning after each analysed decision
        (the chosen option's estimate for the deciding seat, one minus it for the other), and
        at the end 1 and 0 (1/2 each for a game cut off with no winner)."""
        curve = []
        for r in self.records:
            p = r.win
            curve.append((r.step, p, 1 - p) if r.seat == "away" else (r.step, 1 - p, p))
        end = 0.5 if self.winner is None else float(self.winner == "away")
        curve.append((self.decisions, end, 1 - end))
        return curve

    def costliest(self, n: int = 10) -> list[DecisionRecord]:
        """The ``n`` analysed decisions with the highest cost (ties in game order)."""
        return sorted(self.records, key=lambda r: (-r.cost, r.step))[:n]

    def to_dict(self) -> dict[str, Any]:
        return _finite({
            "env": self.env_id, "env_options": self.env_kwargs, "agents": dict(self.agents),
            "seed": self.seed, "search": self.search, "search_seed": self.search_seed,
            "seats": list(self.seats), "score": list(self.score), "winner": self.winner or "",
            "decisions": self.decisions, "innings": self.innings,
            "records": [r.to_dict() for r in self.records],
            "moves": [m.to_dict() for m in self.moves],
            "win_curve": [list(p) for p in self.win_curve()]})


# -- one decision ---------------------------------------------------------------------------------
def decision_seed(search_seed: int, game_seed: int, step: int) -> int:
    """The search's seed at decision ``step`` of the game played on ``game_seed``: a fresh
    stream for each decision, so a record depends only on its own position."""
    state = np.random.SeedSequence([int(search_seed), int(game_seed), int(step)]).generate_state(2)
    return int(state[0]) << 32 | int(state[1])


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a - b`` over the worlds both met and its standard error (nan for fewer
    than two worlds)."""
    n = min(len(a), len(b))
    d = np.asarray(a[:n], dtype=float) - np.asarray(b[:n], dtype=float)
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return float(d.mean()), se


def _beyond(cost: float, se: float) -> bool:
    """Whether a cost is more than :data:`NOISE_Z` paired standard errors (with no spread
    over at least two worlds: whether it is positive)."""
    if math.isnan(se):
        return False
    return cost > NOISE_Z * se if se > 0 else cost > 1e-12


def _situation_text(r: Any) -> str:
    return (f"{'TB'[r.half]}{r.inning} {r.outs} out{'' if r.outs == 1 else 's'}, "
            f"{r.score[0]}-{r.score[1]}")


def _situation(view: Any) -> tuple[int, int, int, tuple[int, int]]:
    """Inning, half, outs and score (away, home) of a ruleset's view."""
    score = getattr(view, "score", None)
    if score is None:
        score = view.runs
    return int(view.inning), int(view.half), int(view.outs), (int(score[0]), int(score[1]))


def held_out_seed(seed: int) -> int:
    """The seed of a decision's held-out worlds: a stream apart from ``seed``'s."""
    state = np.random.SeedSequence([int(seed), _HELD_OUT_KEY]).generate_state(2)
    return int(state[0]) << 32 | int(state[1])


def evaluate_decision(searcher: Any, view: Any, labels: Sequence[str], chosen: int, seed: int,
                      step: int, seat: str, kind: str, held_out: bool = False) -> DecisionRecord:
    """Search ``view``'s decision with ``searcher`` (a search manager told the game's public
    set-up), every option in every world (no race), reset to ``seed``, and record it with the
    choice ``chosen``, the decision's ``step``, ``seat`` and ``kind``; reads the view, its
    ``labels`` and the searcher's public set-up, nothing else. ``held_out``: price the choice
    against the best again on fresh worlds (:func:`held_out_seed`), an estimate free of the
    winner's curse (see the module docstring)."""
    searcher.reset(seed)
    ev = searcher.evaluate(view, race=False)
    options = tuple(Option(a, labels[a] if a < len(labels) else str(a), ev.estimates[a].mean,
                           ev.estimates[a].se) for a in sorted(view.legal))
    best = ev.best().action
    if ev.estimates[chosen].mean >= ev.estimates[best].mean:
        best, cost, se = chosen, 0.0, 0.0          # the choice is (one of) the best
    else:
        cost, se = _paired(ev.values[best], ev.values[chosen])
        cost = max(cost, 0.0)          # the best has the highest mean: only rounding is below 0
    fresh, fresh_se = None, None
    if held_out:
        fresh, fresh_se = 0.0, 0.0
        if best != chosen:
            searcher.reset(held_out_seed(seed))
            again = searcher.evaluate(view, race=False)
            fresh, fresh_se = _paired(again.values[best], again.values[chosen])
    inning, half, outs, score = _situation(view)
    return DecisionRecord(step, seat, kind, inning, half, outs, score, options, int(chosen),
                          int(best), cost, se, _beyond(cost, se), ev.worlds, fresh, fresh_se)


def _searcher(env_id: str, search: str, env) -> Any:
    """The search manager of ``search`` (a ``search`` or ``search:...`` reference), told the
    game's public set-up."""
    from ..agents.ref import AgentRef
    from ..agents.search import SearchAgent
    ref = AgentRef.parse(search)
    if ref.kind != "search" and str(ref) != "search":
        raise ValueError(f"the analysis needs the search manager (search or search:key=value,...), "
                         f"got {search!r}")
    agent = make_agent(env_id, str(ref))
    if not isinstance(agent, SearchAgent):
        raise ValueError(f"{search!r} did not make a search manager for {env_id}")
    tell_setup(env, [agent])
    return agent


def _check_seats(seats: Sequence[str]) -> tuple[str, ...]:
    seats = tuple(seats)
    if not seats or any(s not in SEATS for s in seats) or len(set(seats)) != len(seats):
        raise ValueError(f"seats must be some of {SEATS}, each once, got {seats!r}")
    return seats


# -- one game -----------------------------------------------------------------------------------
def analyse_game(env_id: str, env_kwargs: Mapping[str, Any] | None, agents: Mapping[str, Any],
                 seed: int, search: str = DEFAULT_SEARCH, seats: Sequence[str] = SEATS,
                 search_seed: int = 0, agent_seeds: Mapping[str, int] | None = None,
                 progress: Callable[[DecisionRecord], None] | None = None,
                 held_out: bool = False) -> GameAnalysis:
    """Replay the game ``agents`` (``{"away": ref, "home": ref}``, references or agent
    objects) play on ``seed`` under ``env_kwargs``, seeded as
    :func:`~dugout.agents.play.play_game` seeds them (``agent_seeds`` by seat, default
    ``2 * seed`` away and ``2 * seed + 1`` home), and analyse every decision of ``seats``
    with more than one legal action with the search ``search`` (see the module docstring;
    ``held_out``: each cost priced again on fresh worlds). ``progress(record)`` is called
    after each analysed decision."""
    seats = _check_seats(seats)
    if set(agents) != set(SEATS):
        raise ValueError(f"agents must be keyed 'away' and 'home', got {sorted(agents)}")
    env_kwargs = dict(env_kwargs or {})
    env = make(env_id, **env_kwargs)
    players = {s: make_agent(env_id, a) if isinstance(a, str) else a for s, a in agents.items()}
    names = {s: a if isinstance(a, str) else getattr(a, "name", type(a).__name__)
             for s, a in agents.items()}
    # -- as play_game: reset, seed the managers, hand over the public set-up
    env.reset(seed=seed)
    for i, name in enumerate(SEATS):
        players[name].reset(seed=agent_seeds[name] if agent_seeds is not None else seed * 2 + i)
    tell_setup(env, players.values())
    searcher = _searcher(env_id, search, env)
    views = {name: getattr(a, "needs_view", False) for name, a in players.items()}
    unwrapped = env.unwrapped
    records: list[DecisionRecord] = []
    moves: list[Move] = []
    final: dict[str, Any] = {}
    decisions = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            final = info
            env.step(None)
            continue
        view = unwrapped.view(agent)
        action = players[agent].act(obs, view if views[agent] else None)
        if len(view.legal) > 1:
            step = unwrapped.decision_count
            labels = info["decision"]["labels"]
            record = None
            if agent in seats:
                record = evaluate_decision(searcher, view, labels, int(action),
                                   decision_seed(search_seed, seed, step), step, agent,
                                   info["decision"]["kind"], held_out)
                records.append(record)
                if progress is not None:
                    progress(record)
            inning, half, outs, score = _situation(view)
            moves.append(Move(step, agent, info["decision"]["kind"], inning, half, outs, score,
                              int(action), labels[int(action)], record))
        decisions += 1
        env.step(action)
    if final.get("illegal_action"):
        raise RuntimeError(f"game {seed}: {final['illegal_action']}")
    game = unwrapped.game
    return GameAnalysis(env_id, env_kwargs, names, int(seed), str(search), int(search_seed),
                        seats, records, moves, tuple(int(x) for x in game.score),
                        final.get("winner") or None, decisions, int(game.board.inning),
                        unwrapped.box_score() or {})


# -- a saved position ---------------------------------------------------------------------------
def analyse_position(env, search: str = DEFAULT_SEARCH, search_seed: int = 0, game_seed: int = 0,
                     step: int | None = None, chosen: int | None = None) -> DecisionRecord:
    """Analyse the pending decision of ``env`` (a dugout AEC env whose game waits on a
    decision with more than one legal action): every option's estimate from the deciding
    manager's view and the env's public set-up. ``chosen`` is the action to price (default:
    the search's best, cost 0); the search is seeded with :func:`decision_seed`
    (``search_seed``, ``game_seed``, ``step``; ``step`` defaults to the env's
    ``decision_count``)."""
    unwrapped = env.unwrapped
    state = unwrapped.state_
    if state is None or state.pending is None or state.over:
        raise ValueError("the game is over: there is no decision to analyse")
    agent = SEATS[state.pending.actor]
    view = unwrapped.view(agent)
    if len(view.legal) < 2:
        raise ValueError(f"{agent}'s pending {state.pending.kind!r} decision has one legal action: "
                         f"nothing to analyse")
    info = unwrapped.infos[agent]["decision"]
    searcher = _searcher(unwrapped.metadata["name"], search, env)
    step = unwrapped.decision_count if step is None else step
    seed = decision_seed(search_seed, game_seed, step)
    chosen = choice_to_price(searcher, view, seed, chosen)
    return evaluate_decision(searcher, view, info["labels"], chosen, seed, step, agent, info["kind"])


def choice_to_price(searcher: Any, view: Any, seed: int, chosen: int | None) -> int:
    """The action a position's analysis prices: ``chosen``, which must be legal in ``view``
    (``ValueError`` if not), or with none the search's best (seeded ``seed``: cost 0)."""
    if chosen is None:
        searcher.reset(seed)
        return searcher.evaluate(view, race=False).best().action
    if chosen not in view.legal:
        raise ValueError(f"action {chosen} is not legal at this decision; legal: {list(view.legal)}")
    return int(chosen)


def load_saved(env, saved: Any) -> Any:
    """The engine state (or a series' ``SeriesGame``) of ``saved`` for ``env``: a state as
    ``env.unwrapped.save()`` gives it, its ``to_dict()`` data, or a path to that data as a
    JSON file (read by :func:`~dugout.envs.core.datafile.read_json_file`). A file that is
    not JSON raises a ``DataError``, a save that does not load the ruleset's ``SaveError``
    (both ``ValueError``) naming the damaged value."""
    from ..envs.core.datafile import read_json_file
    from ..envs.core.series import SeriesGame
    unwrapped = env.unwrapped
    if isinstance(saved, (str, Path)):
        saved = read_json_file(saved, "a saved game")
        if not isinstance(saved, dict):
            raise ValueError(f"a saved game is a JSON object (env.unwrapped.save().to_dict()), "
                             f"got {type(saved).__name__}")
    if not isinstance(saved, dict):
        return saved
    cls = unwrapped._state_class()
    if unwrapped.series_format is not None:
        return SeriesGame.from_dict(saved, cls.from_dict)
    return cls.from_dict(saved)


def analyse_saved(env_id: str, env_kwargs: Mapping[str, Any] | None, saved: Any,
                  search: str = DEFAULT_SEARCH, search_seed: int = 0) -> DecisionRecord:
    """Analyse a saved game's pending decision (``saved``: see :func:`load_saved`), in an
    env of ``env_id`` built with ``env_kwargs`` (the options the game was played under:
    the search's public set-up comes from them). One record: a save holds no moves to
    replay (see the module docstring)."""
    env = make(env_id, **dict(env_kwargs or {}))
    env.reset(seed=0)
    env.unwrapped.restore(load_saved(env, saved))
    return analyse_position(env, search, search_seed, game_seed=0, step=0)


# -- many games: where a manager loses most -----------------------------------------------------
@dataclass(frozen=True)
class KindCost:
    """The manager's cost at one kind of decision over a report's games."""
    kind: str
    decisions: int
    mean_cost: float              # per decision
    low: float                    # its 95% interval, over decisions
    high: float
    beyond_noise: int             # decisions whose choice was beyond noise worse than the best
    per_game: float               # cost per game
    per_game_low: float           # its 95% interval, over games
    per_game_high: float
    held_out: float | None = None           # the held-out cost per game (None: not priced)
    held_out_low: float | None = None       # its 95% interval, over games
    held_out_high: float | None = None
    held_out_beyond: float | None = None    # the same of the choices beyond noise alone
    held_out_beyond_low: float | None = None
    held_out_beyond_high: float | None = None

    @property
    def beyond_rate(self) -> float:
        return self.beyond_noise / self.decisions if self.decisions else 0.0


@dataclass
class DecisionReport:
    """Where ``manager`` loses most against ``opponent`` (see :func:`decision_report`):
    ``kinds`` ranked by cost per game, and the totals."""
    env_id: str
    env_kwargs: dict[str, Any]
    manager: str
    opponent: str
    games: int
    seed: int
    search: str
    search_seed: int
    kinds: list[KindCost]
    decisions: int
    per_game: float
    per_game_low: float
    per_game_high: float
    beyond_noise: int
    wins: float                   # the manager's wins, a game cut off counting 1/2
    held_out: float | None = None           # the held-out cost per game (None: not priced)
    held_out_low: float | None = None       # its 95% interval, over games
    held_out_high: float | None = None
    held_out_beyond: float | None = None    # the same of the choices beyond noise alone
    held_out_beyond_low: float | None = None
    held_out_beyond_high: float | None = None
    #: "win": costs in chance of winning (a two-manager game); "mp": in the Manager Points of
    #: the game in progress, a "game" of the report being a Manager Challenge campaign
    unit: str = "win"
    mp: float | None = None                 # the Manager Challenge: Manager Points a campaign

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k, kind in zip(d["kinds"], self.kinds):
            k["beyond_rate"] = kind.beyond_rate
        return _finite(d)


def _report_game(env_id: str, env_kwargs: dict[str, Any], away: str, home: str, seed: int,
                 agent_seeds: dict[str, int], search: str, seat: str, search_seed: int,
                 held_out: bool = False) -> tuple[list[tuple[str, float, bool, float]], str]:
    """One game of a report (a backend's task): the analysed seat's decisions as (kind,
    cost, beyond noise, held-out cost: 0 when not priced), and the winner ("" for a game
    cut off)."""
    game = analyse_game(env_id, env_kwargs, {"away": away, "home": home}, seed, search, (seat,),
                        search_seed, agent_seeds, held_out=held_out)
    return ([(r.kind, r.cost, r.beyond_noise, r.held_out or 0.0) for r in game.records],
            game.winner or "")


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and normal 95% interval (the mean twice for fewer than two values)."""
    n = len(values)
    mean = float(np.mean(values)) if n else 0.0
    if n < 2:
        return mean, mean, mean
    half = _Z95 * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def decision_report(env_id: str, env_kwargs: Mapping[str, Any] | None, manager: str, opponent: str,
                    games: int, seed: int = 0, search: str = DEFAULT_SEARCH, search_seed: int = 0,
                    workers: int | None = None, backend: Any = None,
                    progress: Callable[[int], None] | None = None,
                    held_out: bool = False) -> DecisionReport:
    """``manager``'s decisions over ``games`` games against ``opponent`` (even: seeds
    ``seed, seed + 1, ...`` each played twice, the manager away then home, seeded by role
    as :func:`~dugout.agents.play.play_pair` seeds them), each analysed by ``search``:
    the cost by decision kind, ranked by cost per game (see the module docstring). The
    games are played on ``backend`` (a :class:`~dugout.evaluate.backends.Backend`), or on
    ``workers`` processes; ``progress(games_done)`` as each game is analysed. ``held_out``
    prices each choice again on fresh worlds, at twice the cost: the report's ``held_out``
    figures (see the module docstring)."""
    if not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"a decision report plays seat-swapped pairs: games must be an even "
                         f"number, at least 2, got {games!r}")
    env_kwargs = dict(env_kwargs or {})
    tasks = []
    for s in range(seed, seed + games // 2):
        role_m, role_o = 4 * s, 4 * s + 1
        tasks.append((env_id, env_kwargs, manager, opponent, s,
                      {"away": role_m, "home": role_o}, search, "away", search_seed, held_out))
        tasks.append((env_id, env_kwargs, opponent, manager, s,
                      {"away": role_o, "home": role_m}, search, "home", search_seed, held_out))
    results = play_tasks(_report_game, tasks, lambda i: f"game {i} (seed {tasks[i][4]})",
                         backend, workers, progress)
    kinds, totals = kind_costs([decisions for decisions, _ in results], held_out)
    wins = 0.0
    for i, (_, winner) in enumerate(results):
        seat = tasks[i][7]
        wins += 0.5 if winner == "" else float(winner == seat)
    return DecisionReport(env_id, env_kwargs, str(manager), str(opponent), games, int(seed),
                          str(search), int(search_seed), kinds, *totals[:5], wins, *totals[5:])


def play_tasks(task: Callable, tasks: list, describe: Callable[[int], str], backend: Any = None,
               workers: int | None = None, progress: Callable[[int], None] | None = None) -> list:
    """``task(*t)`` for each of ``tasks`` on ``backend`` (or on ``workers`` processes, a
    pool opened and closed here), in order; ``progress(done)`` as each ends."""
    from .backends import make_backend
    owned = backend is None
    if owned:
        backend = make_backend("process", workers)
    try:
        return backend.map(task, tasks, None if progress is None else (lambda _, done: progress(done)),
                           describe)
    finally:
        if owned:
            backend.close()


def kind_costs(games: Sequence[Sequence[tuple[str, float, bool, float]]], held_out: bool = False
               ) -> tuple[list[KindCost], tuple]:
    """The costs of ``games`` (each a list of its analysed decisions as (kind, cost, beyond
    noise, held-out cost)), by decision kind (ranked by cost per game) and in all: the
    kinds, and the totals ``(decisions, per_game, per_game_low, per_game_high,
    beyond_noise, held_out, held_out_low, held_out_high, held_out_beyond,
    held_out_beyond_low, held_out_beyond_high)`` (the held-out figures, of every choice and
    of the choices beyond noise alone, None unless ``held_out``); a report over games or
    over the Manager Challenge's campaigns."""
    by_kind: dict[str, list[list[tuple[float, bool, float]]]] = {}
    for g, decisions in enumerate(games):
        for kind, cost, beyond, fresh in decisions:
            by_kind.setdefault(kind, [[] for _ in games])[g].append((cost, beyond, fresh))
    kinds = []
    for kind, per_game in by_kind.items():
        costs = [c for game in per_game for c, _, _ in game]
        mean, low, high = _interval(costs)
        pg, pg_low, pg_high = _interval([sum(c for c, _, _ in game) for game in per_game])
        kinds.append(KindCost(kind, len(costs), mean, max(low, 0.0), high,
                              sum(b for game in per_game for _, b, _ in game), pg, max(pg_low, 0.0),
                              pg_high, *_held_out_per_game(per_game, held_out)))
    kinds.sort(key=lambda k: (-k.per_game, k.kind))
    total, total_low, total_high = _interval([sum(c for _, c, _, _ in d) for d in games])
    return kinds, (sum(len(d) for d in games), total, max(total_low, 0.0), total_high,
                   sum(k.beyond_noise for k in kinds),
                   *_held_out_per_game([[d[1:] for d in game] for game in games], held_out))


def _held_out_per_game(games: Sequence[Sequence[tuple[float, bool, float]]], held_out: bool
                       ) -> tuple:
    """The held-out cost per game of ``games`` (each its decisions' (cost, beyond noise,
    held-out cost)), with its 95% interval over games, of every choice and then of the
    choices beyond noise alone: six Nones unless ``held_out``. The choices beyond noise are
    those the search would overrule (its pick shown better on the search's worlds); priced
    on fresh worlds they say what overruling them gains, free of the noise of the rest."""
    if not held_out:
        return (None,) * 6
    return (*_interval([sum(f for _, _, f in game) for game in games]),
            *_interval([sum(f for _, b, f in game if b) for game in games]))


# -- text ---------------------------------------------------------------------------------------
def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    from .report import text_table
    return text_table(header, rows)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _amount(x: float, unit: str = "win") -> str:
    """A cost or an estimate: a chance of winning as a percentage, Manager Points (``unit``
    "mp") with two decimals."""
    return f"{x:.2f}" if unit == "mp" else _pct(x)


def _mark(record: DecisionRecord | None) -> str:
    """``??`` for a choice beyond noise worse than the best, ``?`` for one estimated worse
    within noise, nothing for the best."""
    if record is None or record.cost <= 0:
        return ""
    return "??" if record.beyond_noise else "?"


def game_text(game: GameAnalysis, top: int = 10) -> str:
    """One analysed game as text: a header line, the ``top`` costliest decisions (every
    option's estimate, the choice and the best), then the move list (each choice with the
    chooser's chance of winning after it and its cost, ``??`` beyond noise, ``?`` within)."""
    winner = {"away": game.agents["away"], "home": game.agents["home"]}.get(game.winner,
                                                                           "nobody (cut off)")
    lines = [f"{game.env_id}, seed {game.seed}: {game.agents['away']} (away) at "
             f"{game.agents['home']} (home); final {game.score[0]}-{game.score[1]} after "
             f"{game.innings} innings, won by {winner}",
             f"{len(game.records)} decisions analysed ({', '.join(game.seats)}) by {game.search}, "
             f"search seed {game.search_seed}; cost = the best option's chance of winning minus "
             f"the choice's; ?? = beyond {NOISE_Z:g} paired standard errors", ""]
    costly = [r for r in game.costliest(top) if r.cost > 0]
    lines.append(f"The costliest decisions ({sum(r.cost > 0 for r in game.records)} of "
                 f"{len(game.records)} cost anything):")
    if costly:
        rows = []
        for r in costly:
            rows.append((str(r.step), r.situation(), r.seat, r.kind, r.option(r.chosen).label,
                         _pct(r.win), r.option(r.best).label, _pct(r.option(r.best).mean),
                         f"{_pct(r.cost)} +- {_pct(r.cost_se) if not math.isnan(r.cost_se) else '-'}",
                         _mark(r)))
        lines.append(_table(("step", "situation", "seat", "decision", "played", "win", "best",
                             "best win", "cost +- se", ""), rows))
        for r in costly[:3]:
            lines.append(f"  step {r.step}: " + "; ".join(
                f"{o.label} {_pct(o.mean)}" for o in sorted(r.options, key=lambda o: -o.mean)))
    lines += ["", "Moves:"]
    rows = []
    for m in game.moves:
        r = m.record
        rows.append((str(m.step), m.situation(),
                     m.seat, m.kind, m.label, _pct(r.win) if r else "", _pct(r.cost) if r else "",
                     _mark(r)))
    lines.append(_table(("step", "situation", "seat", "decision", "played", "win", "cost", ""), rows))
    return "\n".join(lines) + "\n"


def position_text(record: DecisionRecord, seat_name: str = "", unit: str = "win") -> str:
    """One analysed position (a saved game's pending decision) as text: the situation, who
    decides, and every option's estimate with its standard error, best first: the chance of
    winning, or (``unit`` "mp", the Manager Challenge) the game's expected Manager Points."""
    who = f"{record.seat}{f' ({seat_name})' if seat_name else ''}"
    rows = [(o.label, _amount(o.mean, unit), _amount(o.se, unit) if not math.isnan(o.se) else "-",
             _amount(record.option(record.best).mean - o.mean, unit),
             "best" if o.action == record.best else "")
            for o in sorted(record.options, key=lambda o: (-o.mean, o.action))]
    value = "game MP" if unit == "mp" else "win"
    return (f"{record.situation()}: {who} to decide ({record.kind}), {record.worlds} worlds an "
            f"option\n" + _table(("option", value, "se", "behind the best", ""), rows) + "\n")


def report_text(report: DecisionReport) -> str:
    """A decision report as text: a header, then a row per decision kind, costliest per game
    (per campaign in the Manager Challenge) first."""
    unit = report.unit

    def a(x: float) -> str:
        return _amount(x, unit)

    if unit == "mp":
        per, given = "campaign", "Manager Points of their games"
        lines = [f"{report.env_id}: where {report.manager} loses most, {report.games} campaigns "
                 f"from seed {report.seed} ({report.mp:.2f} Manager Points a campaign, "
                 f"{report.wins:g} of {6 * report.games} games won); {report.decisions} decisions "
                 f"analysed by {report.search}"]
    else:
        per, given = "game", "points of winning chance"
        lines = [f"{report.env_id}: where {report.manager} loses most against {report.opponent}, "
                 f"{report.games} seat-swapped games from seed {report.seed} ({report.wins:g} of "
                 f"{report.games} games won); {report.decisions} decisions analysed by {report.search}"]
    scale = 1 if unit == "mp" else 100
    fmt = ".2f" if unit == "mp" else ".1f"
    lines += [f"the choices gave away {scale * report.per_game:{fmt}} {given} a {per} "
              f"(95% interval {scale * report.per_game_low:{fmt}}-{scale * report.per_game_high:{fmt}}); "
              f"{report.beyond_noise} choices beyond noise worse than the best", ""]
    held = report.held_out is not None
    if held:
        lines[-1:-1] = [f"priced again on fresh worlds (held out, no winner's curse): "
                        f"{scale * report.held_out:{fmt}} {'Manager Points' if unit == 'mp' else 'points'} "
                        f"a {per} (95% interval {scale * report.held_out_low:{fmt}} to "
                        f"{scale * report.held_out_high:{fmt}}); the {report.beyond_noise} choices "
                        f"beyond noise alone, those the search would overrule: "
                        f"{scale * report.held_out_beyond:{fmt}} "
                        f"({scale * report.held_out_beyond_low:{fmt}} to "
                        f"{scale * report.held_out_beyond_high:{fmt}})"]
    rows = [(k.kind, str(k.decisions), a(k.mean_cost), f"{a(k.low)}-{a(k.high)}",
             f"{k.beyond_noise} ({_pct(k.beyond_rate)})", a(k.per_game),
             f"{a(k.per_game_low)}-{a(k.per_game_high)}")
            + ((a(k.held_out), f"{a(k.held_out_low)} to {a(k.held_out_high)}",
                a(k.held_out_beyond), f"{a(k.held_out_beyond_low)} to {a(k.held_out_beyond_high)}")
               if held else ()) for k in report.kinds]
    lines.append(_table(("decision", "decisions", "mean cost", "95% interval", "beyond noise",
                         f"cost/{per}", "95% interval")
                        + ((f"held out/{per}", "95% interval", f"beyond noise, held out/{per}",
                            "95% interval") if held else ()), rows))
    return "\n".join(lines) + "\n"


# -- the plot -----------------------------------------------------------------------------------
class PlotError(ImportError):
    """Drawing needs matplotlib, which is not installed."""


def load_plt(what: str) -> Any:
    """matplotlib's ``Figure`` (the Agg backend), or :class:`PlotError` in one line saying
    that ``what`` needs matplotlib and how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise PlotError(f"{what} needs matplotlib, which is not installed here: "
                        f"{PLOT_HINT}") from None
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    return Figure


def plot_win_probability(game: GameAnalysis, path: str | Path) -> Path:
    """Both seats' chance of winning through ``game`` (after each analysed decision, then
    the result), with the choices beyond noise worse than the best marked; written to
    ``path`` (PNG, or the format of its suffix). Raises :class:`PlotError` in one line
    when matplotlib is missing."""
    Figure = load_plt("the win-probability plot")
    curve = game.win_curve()
    steps = [c[0] for c in curve]
    fig = Figure(figsize=(9, 4), dpi=120)
    ax = fig.add_subplot()
    for i, seat in enumerate(SEATS):
        ax.plot(steps, [c[1 + i] * 100 for c in curve], drawstyle="steps-post",
                label=f"{seat}: {game.agents[seat]}")
    blunders = [r for r in game.records if r.beyond_noise]
    if blunders:
        ax.scatter([r.step for r in blunders], [r.win * 100 for r in blunders], marker="v",
                   color="tab:red", zorder=3, label=f"beyond noise worse than the best ({len(blunders)})")
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_ylim(-2, 102)
    ax.set_xlabel("decisions made")
    ax.set_ylabel("chance of winning, %")
    ax.set_title(f"{game.env_id}, seed {game.seed}: final {game.score[0]}-{game.score[1]} "
                 f"(estimates of {game.search})", fontsize=10)
    return save_plot(fig, ax, path)


def save_plot(fig: Any, ax: Any, path: str | Path) -> Path:
    """Finish a figure of one plot (its legend and grid) and write it to ``path``, its folder
    made; the path."""
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    return path


def _finite(x: Any) -> Any:
    """JSON-ready: nan and infinities as None, tuples as lists."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x
