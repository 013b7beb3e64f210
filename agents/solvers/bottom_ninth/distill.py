"""The duel's exact equilibrium as supervised data: what ``dugout train distill`` fits a
network to (the contract every solved game's ``distill`` module keeps: :data:`ENV_ID`,
:data:`PLAY`, :func:`dataset`, :func:`describe`).

The duel (``bottom_ninth_v0`` at its default options: the default teams, one half inning)
is solved exactly (:mod:`.solution`); its equilibrium is **mixed** at every stare-down (the
pitch thrown against the pitch guessed is a matrix game), so the network must learn the
mix and play it by sampling (:data:`PLAY` is ``"sample"``): a greedy network would throw
the pitch it likes best every time, and a batter who knows it guesses it.

Rows
----
**Every decision the exact evaluator asks** (:data:`.evaluation.ASKED_KINDS`), both seats,
walked as :func:`.policy.policy_table` walks them (it is called, with a manager that
records what it is asked): every stare-down state's pitch (the pitcher's manager; not
where one pitch is legal, which the engine commits itself) and guess (the batter's), every
clean-up state's relief split and every pitching-change offer. Each row's observation is
``encode_view(view)`` of the view the evaluator shows, which is the env's own observation
at that decision in play (``observe`` is ``encode_view(view_of(state, seat))``), what
:class:`~dugout.agents.policy.PolicyAgent` feeds the network. The target is the
distribution :class:`.agent.EquilibriumAgent` plays there (its ``probabilities``): the
solution's mix at a stare-down (renormalized over the legal pitches), the first best
choice, one-hot, at a relief or pitching-change decision. Where several equilibria exist
this is the one the solver found and the ``solver`` manager plays.

**The decisions it does not ask** (the pitcher's and the batter's ability decisions; a
set-up decision does not occur at the default options): in exact evaluation they are
played by the equilibrium, in a real game by the network, and there are far too many
(every roll of the dice at every state) to walk. They are collected from :data:`GAMES`
seeded games of the ``solver`` manager against a mix of opponents (:data:`OPPONENTS`: the
equilibrium itself, the rulebook heuristic, random, taking turns, the solver in each seat
in turn), each decision the solver makes there with the env's observation, its mask and
the equilibrium's choice (one-hot, the optimal one by the solved values). A decision met
twice (the same observation) is one row.

Weights
-------
Exploitability is about the stakes: a mistake costs at most the spread of what the
choices are worth. A row's weight is that spread, in the batting side's win probability:

* a stare-down: the largest less the smallest entry of its payoff matrix (the values of
  what follows each legal pitch against each guess, with the solved values behind them):
  a state where nothing is at stake weighs 0;
* a relief, pitching-change or ability decision: the best legal action's solved value
  less the worst's;

then every weight is divided by the mean, so they average 1.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ....envs.bottom_ninth import rules
from ....envs.bottom_ninth.env import encode_view
from ....envs.core.decisions import action_mask
from .agent import EquilibriumAgent
from .evaluation import ASKED_KINDS
from .induction import layer_matrices
from .model import Duel
from .policy import policy_table, where_of
from .solution import Solution, cached_solution

__all__ = ["ENV_ID", "PLAY", "GAMES", "OPPONENTS", "dataset", "describe", "rows", "asked_rows",
           "game_rows", "stare_down_matrices", "stakes", "WHERE_KINDS"]

ENV_ID = "bottom_ninth_v0"
#: The equilibrium is mixed: the network plays its distribution by sampling.
PLAY = "sample"
#: Seeded games whose unasked decisions (abilities) are rows.
GAMES = 3000
#: The solver's opponents in those games, in turn.
OPPONENTS = ("solver", "heuristic", "random")
#: The first game's seed (game ``g`` of ``dataset(seed=s)`` is seeded ``GAME_SEED + s * 1_000_000 + g``).
GAME_SEED = 70_000


# -- the stakes -----------------------------------------------------------------------------------
def stare_down_matrices(solution: Solution) -> np.ndarray:
    """Every stare-down state's payoff matrix (``n_states x 4 pitches x 4 guesses``, the
    batting side's win probability after each pair, the solved values behind it; NaN rows
    at illegal pitches and at states that cannot occur)."""
    d = solution.duel
    out = np.full((d.n_states, 4, 4), np.nan)
    for layer in d.layers:
        m = layer_matrices(d, layer, solution.values)
        m[~layer.legal.astype(bool)] = np.nan
        out[layer.states] = m
    return out


def stakes(values: Mapping[int, float] | np.ndarray) -> float:
    """The spread of what the choices are worth (0 when nothing is at stake)."""
    v = np.asarray(list(values.values()) if isinstance(values, Mapping) else values, dtype=float)
    v = v[np.isfinite(v)]
    return float(v.max() - v.min()) if v.size else 0.0


def _row_stakes(solution: Solution, view, matrices: np.ndarray | None) -> float:
    kind = view.decision
    if kind in ("pitch", "guess"):
        _, i = where_of(solution, view)
        return stakes(matrices[i])
    if kind in ("relief", "pitching_change"):
        return stakes(solution.cleanup_values(view))
    if kind in ("pitcher_ability", "batter_ability"):
        return stakes(solution.ability_values(view))
    raise ValueError(f"no stakes for a {kind!r} decision")


def _target(agent: EquilibriumAgent, view) -> np.ndarray:
    target = np.zeros(rules.N_ACTIONS, dtype=np.float64)
    for a, q in agent.probabilities(view).items():
        target[a] = q
    return target


# -- the decisions the evaluator asks -------------------------------------------------------------
class _Recorder:
    """A manager that answers the evaluator as the equilibrium does and keeps what it saw."""

    needs_view = True

    def __init__(self, solution: Solution):
        self.name = "equilibrium (recorded)"
        self.agent = EquilibriumAgent(solution)
        self.views: list = []

    def action_probabilities(self, observation: Any, view) -> dict[int, float]:
        self.views.append(view)
        return self.agent.probabilities(view)


#: :func:`asked_rows`' ``where`` codes: where :func:`.policy.where_of` files a decision.
WHERE_KINDS = ("stare", "relief", "change")


def asked_rows(solution: Solution, progress: bool = False,
               where: bool = False) -> dict[str, np.ndarray]:
    """Rows for every decision :func:`.policy.policy_table` asks, both seats (obs, mask,
    target, stakes as ``weight`` before normalizing, seat), in its order; with ``where``,
    also ``where`` (int64 [N, 2]: the :data:`WHERE_KINDS` code and the index of
    :func:`.policy.where_of`)."""
    matrices = stare_down_matrices(solution)
    parts = []
    for seat in (0, 1):
        recorder = _Recorder(solution)
        policy_table(recorder, solution, seat)
        if progress:
            print(f"asked decisions, seat {seat}: {len(recorder.views):,}", flush=True)
        part = _rows(solution, recorder.agent, recorder.views, matrices, seat,
                     [encode_view(v) for v in recorder.views])
        if where:
            found = [where_of(solution, v) for v in recorder.views]
            part["where"] = np.array([(WHERE_KINDS.index(k), i) for k, i in found],
                                     np.int64).reshape(-1, 2)
        parts.append(part)
    return _concat(parts)


def _rows(solution, agent, views, matrices, seat, obs) -> dict[str, np.ndarray]:
    n = len(views)
    return {"obs": np.asarray(obs, dtype=np.float32).reshape(n, -1),
            "mask": np.stack([action_mask(rules.N_ACTIONS, v.legal) for v in views]).astype(bool)
            if n else np.zeros((0, rules.N_ACTIONS), bool),
            "target": np.stack([_target(agent, v) for v in views]).astype(np.float32)
            if n else np.zeros((0, rules.N_ACTIONS), np.float32),
            "weight": np.array([_row_stakes(solution, v, matrices) for v in views], np.float64),
            "seat": np.full(n, seat, np.int8)}


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


# -- the decisions it does not ask, from games -----------------------------------------------------
def _opponent(name: str, solution: Solution, seed: int):
    if name == "solver":
        return EquilibriumAgent(solution, seed=seed)
    from ...registry import make_agent
    return make_agent(ENV_ID, name, seed=seed)


def game_rows(solution: Solution, games: int = GAMES, seed: int = 0, progress: bool = False,
              options: Mapping[str, Any] | None = None) -> dict[str, np.ndarray]:
    """Rows for the solver's unasked decisions (abilities) in ``games`` seeded games of
    ``bottom_ninth_v0(**options)`` (the solution's duel; the defaults when not given)
    against :data:`OPPONENTS` in turn, the solver away in the first turn of three games,
    home in the next, and so on; each observation (the env's) once, its stakes as
    ``weight``."""
    from ....envs import make
    from ...play import tell_setup
    options = dict(options or {})
    _check_duel(solution, options)
    env = make(ENV_ID, **options)
    unwrapped = env.unwrapped
    seen: dict[bytes, int] = {}
    obs, masks, targets, weights, seats = [], [], [], [], []
    for g in range(games):
        game_seed = GAME_SEED + seed * 1_000_000 + g
        who = OPPONENTS[g % len(OPPONENTS)]
        solver_seat = (g // len(OPPONENTS)) % 2
        solver = EquilibriumAgent(solution, seed=2 * game_seed)
        other = _opponent(who, solution, 2 * game_seed + 1)
        agents = [None, None]
        agents[solver_seat], agents[1 - solver_seat] = solver, other
        recorded = {solver_seat} | ({1 - solver_seat} if who == "solver" else set())
        env.reset(seed=game_seed)
        for k, agent in enumerate(agents):       # as the game loops do (a factory may not seed)
            agent.reset(2 * game_seed + (k != solver_seat))
        tell_setup(env, agents)
        for name in env.agent_iter():
            o, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = env.possible_agents.index(name)
            view = unwrapped.view(name)
            if seat in recorded and view.decision not in ASKED_KINDS:
                key = o["observation"].tobytes()
                if key not in seen:
                    seen[key] = len(obs)
                    obs.append(o["observation"].copy())
                    masks.append(np.asarray(o["action_mask"], bool).copy())
                    targets.append(_target(agents[seat], view))
                    weights.append(_row_stakes(solution, view, None))
                    seats.append(seat)
            env.step(agents[seat].act(o, view))
        if progress and (g + 1) % 500 == 0:
            print(f"games {g + 1:,}/{games:,}: {len(obs):,} unasked decisions", flush=True)
    n = len(obs)
    return {"obs": np.asarray(obs, np.float32).reshape(n, -1),
            "mask": np.asarray(masks, bool).reshape(n, rules.N_ACTIONS),
            "target": np.asarray(targets, np.float32).reshape(n, rules.N_ACTIONS),
            "weight": np.asarray(weights, np.float64), "seat": np.asarray(seats, np.int8)}


def _check_duel(solution: Solution, options: Mapping[str, Any]) -> None:
    if Duel.from_options(**options).key != solution.duel.key:
        raise ValueError(f"the solution is for another duel than bottom_ninth_v0 with options "
                         f"{dict(options)}: {solution.duel.describe()}")


def rows(solution: Solution, *, options: Mapping[str, Any] | None = None, games: int = GAMES,
         seed: int = 0, progress: bool = False, where: bool = False) -> dict[str, np.ndarray]:
    """:func:`dataset` for any solved duel (``options``: its env options): the asked rows,
    then the games' rows, weights divided by their mean; with ``where``, each row's
    :func:`asked_rows` ``where`` (``(-1, -1)`` for a game's row)."""
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise ValueError(f"games must be a whole number >= 0, got {games!r}")
    _check_duel(solution, dict(options or {}))
    parts = [asked_rows(solution, progress, where)]
    if games:
        parts.append(game_rows(solution, games, seed, progress, options))
        if where:
            parts[-1]["where"] = np.full((len(parts[-1]["seat"]), 2), -1, np.int64)
    data = _concat(parts)
    mean = float(data["weight"].mean()) if len(data["weight"]) else 0.0
    if mean <= 0:
        raise RuntimeError("nothing is at stake anywhere in the data: no weights to normalize")
    data["weight"] = (data["weight"] / mean).astype(np.float32)
    return data


# -- the contract ---------------------------------------------------------------------------------
def dataset(*, seed: int = 0, progress: bool = False, games: int = GAMES,
            solution: Solution | None = None) -> dict[str, np.ndarray]:
    """The exact solver's policy as supervised data for the duel at the default options:
    ``obs`` float32 [N, 1001] (the deciding seat's observation vector, as PolicyAgent feeds
    the network), ``mask`` bool [N, 114], ``target`` float32 [N, 114] (the equilibrium's
    distribution over the legal actions), ``weight`` float32 [N] (the stakes, mean 1),
    ``seat`` int8 [N] (0 the pitcher's manager, 1 the batter's). The asked decisions come
    first (seat 0's, then seat 1's), then the games' (``games`` of them, seeded by ``seed``).
    ``solution``: the default duel's, solved or read from the cache when not given."""
    if solution is None:
        solution = cached_solution(Duel.from_options())
    return rows(solution, games=games, seed=seed, progress=progress)


def describe() -> dict[str, Any]:
    """What :func:`dataset` holds, for the model card (JSON-able)."""
    return {
        "env_id": ENV_ID, "env_options": {}, "play": PLAY,
        "solver": "exact equilibrium of the duel (Shapley value iteration, "
                  "dugout.agents.solvers.bottom_ninth)",
        "rows": {
            "asked": "every stare-down (pitch and guess), relief and pitching-change decision of "
                     "both seats, walked as the exact evaluator (policy_table) walks them; target "
                     "the equilibrium manager's distribution (the solved mix at a stare-down, the "
                     "best choice at a relief or pitching change)",
            "games": f"the solver's ability decisions in {GAMES} seeded games against "
                     f"{', '.join(OPPONENTS)} in turn (each seat in turn), each observation once; "
                     f"target the equilibrium's choice",
        },
        "weights": "the stakes: a stare-down's payoff-matrix spread (largest less smallest entry "
                   "over legal pitches and all guesses), else the best legal action's solved value "
                   "less the worst's; divided by their mean (mean 1)",
        "games": GAMES, "opponents": list(OPPONENTS),
    }
