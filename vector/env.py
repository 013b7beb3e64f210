"""A Gymnasium ``VectorEnv`` over batched That's Baseball games: one seat learns, the other
manager is played inside the batch.

    from dugout.vector import ThatsBaseballVectorEnv

    envs = ThatsBaseballVectorEnv(4096, opponent="heuristic", seed=0)
    obs, infos = envs.reset(seed=0)                 # (4096, 56) float32, as the AEC env's
    masks = envs.action_masks()                     # (4096, 5) bool: sb3-contrib's name
    obs, rewards, terminated, truncated, infos = envs.step(actions)

Every sub-env is a whole game of :class:`~dugout.vector.thats_baseball.BatchedGames`
seen by one manager, the *learner*: each step is one of his decisions. After his action
the opponent's decisions are played inside the batch (all games at once per opponent)
until the learner must decide again or the game ends; the reward is +1 for a win and -1
for a loss, at the step that ends the game, and 0 for both when ``max_innings`` cuts a
tied game off (``truncated``).

* ``seat``: 0 (away), 1 (home), or ``"both"`` (the default): each new game draws the
  learner's seat at random (the env's seeded generator), so one policy learns both.
* ``opponent``: ``"random"`` (uniform over the legal actions), ``"heuristic"`` (the
  rulebook heuristic of :mod:`dugout.agents.thats_baseball`, its decisions read off a
  table filled as new situations come up), ``"solver"`` (the optimal manager of the
  exact solver, :mod:`dugout.agents.solvers.thats_baseball`, read straight off the solved
  policy table), a trained policy (``"ppo:PATH"``, a
  :class:`~dugout.agents.policy.PolicyAgent`, or a torch module from observations to
  logits: one batched forward pass per opponent step), or an :class:`Opponent`; a list
  of them with ``opponent_weights`` draws one per game at each reset (a self-play league).
* Observations are exactly what ``thats_baseball_v0``'s ``observe(agent)["observation"]``
  gives the learner, so a policy trained here plays in the AEC env, tournaments and the
  solver's evaluation unchanged. The legal actions are ``action_masks()`` and
  ``infos["action_mask"]``.
* Autoreset follows Gymnasium's conventions (``metadata["autoreset_mode"]``): with
  ``"next_step"`` (the default) a finished game's last observation is returned with its
  reward, and the next ``step`` starts a new game there, ignoring that game's action;
  with ``"same_step"`` the new game starts at once, its first observation is returned and
  the finished game's is in ``infos["final_obs"]``, its infos in ``infos["final_info"]``
  (``infos["_final_obs"]``, ``infos["_final_info"]`` mark which; the new game's opening
  moves by the opponent are played in the same rounds as the other games' moves, which
  saves rounds of small batches); with ``"disabled"`` a
  finished game waits (its actions ignored, reward 0) until
  ``reset(options={"reset_mask": mask})`` starts the games ``mask`` marks.
* Game seeds: ``reset(seed=s)`` numbers the games ``s, s + 1, ...`` in the order they
  start (the constructor's ``seed`` does, for a ``reset()`` without one), so a run is
  reproducible; ``infos["seed"]`` is each game's seed and ``infos["seat"]`` the learner's
  seat. A game that ends before the learner's first decision (a one-inning game can) is
  not an episode: the next seed is played in its place (``games_skipped`` counts them).
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from ..envs.thats_baseball import rules
from ..envs.thats_baseball.env import OBS
from .thats_baseball import BatchedGames, _bits

__all__ = ["ThatsBaseballVectorEnv", "Opponent", "RandomOpponent", "HeuristicOpponent",
           "SolverOpponent", "PolicyOpponent", "make_opponent"]

N_ACTIONS = len(rules.ACTIONS)


# -- opponents ---------------------------------------------------------------------------------
class Opponent:
    """Plays the non-learning seat: ``act(games, index, seats)`` returns one legal action
    for each game in ``index`` (an int array), where the manager in ``seats`` is to act."""

    name = "opponent"

    def act(self, games: BatchedGames, index: np.ndarray, seats: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def seed(self, seed: int | None) -> None:
        """Reseed any randomness (called by the env's ``reset(seed=...)``)."""


def uniform_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of a (N, n) bool mask."""
    keys = rng.random(masks.shape)
    keys[~masks] = -1.0
    return keys.argmax(axis=1)


class RandomOpponent(Opponent):
    """A uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, games, index, seats):
        return uniform_legal(self.rng, games.mask[index])


def _lineups(teams: Sequence[Any]) -> tuple:
    """Both lineups' AA ratings, from team names or Team objects."""
    from ..envs.thats_baseball.cards import load_team
    return tuple(load_team(t).aas if not hasattr(t, "aas") else t.aas for t in teams)


class HeuristicOpponent(Opponent):
    """The rulebook heuristic (:class:`dugout.agents.thats_baseball.ThatsBaseballHeuristic`)
    as a table lookup: its decision depends only on the decision (kind, subject, legal
    actions), the inning, half, outs, runners and the batting team's lead, so each such
    situation is asked of the heuristic once, through a view built from the batch, and
    read from the table ever after."""

    name = "heuristic"

    def __init__(self, teams: Sequence[Any], innings: int):
        from ..agents.thats_baseball import ThatsBaseballHeuristic
        self.heuristic = ThatsBaseballHeuristic()
        self.lineups = _lineups(teams)
        self.innings = innings
        #: the table: situation keys (sorted) and the heuristic's action in each
        self._keys = np.zeros(0, dtype=np.int64)
        self._actions = np.zeros(0, dtype=np.int64)

    @staticmethod
    def situation_keys(games: BatchedGames, index: np.ndarray) -> np.ndarray:
        """One int64 per game: everything the heuristic's decision depends on."""
        mask = games.mask[index].astype(np.int64) @ (1 << np.arange(N_ACTIONS, dtype=np.int64))
        bases = (games.bases[index] >= 0).astype(np.int64) @ np.array([1, 2, 4], dtype=np.int64)
        half = games.half[index].astype(np.int64)
        runs = games.runs[index].astype(np.int64)
        lead = np.where(half == 1, runs[:, 1] - runs[:, 0], runs[:, 0] - runs[:, 1])
        key = games.kind[index].astype(np.int64)
        key = key * 4 + (games.subject[index].astype(np.int64) + 1)
        key = key * 32 + mask
        key = key * 128 + np.minimum(games.inning[index].astype(np.int64), 127)
        key = key * 2 + half
        key = key * 4 + games.outs[index].astype(np.int64)
        key = key * 8 + bases
        key = key * 512 + np.clip(lead, -255, 255) + 256
        return key

    def _view(self, games: BatchedGames, i: int):
        """The acting manager's view of game ``i`` (what the table's key says about it)."""
        from ..envs.thats_baseball.view import ThatsBaseballView
        seat = int(games.actor[i])
        kind = rules.DECISION_KINDS[int(games.kind[i])]
        legal = tuple(int(a) for a in np.flatnonzero(games.mask[i]))
        bases = tuple(bool(r >= 0) for r in games.bases[i])
        return ThatsBaseballView(
            seat=seat, decision=kind, subject=int(games.subject[i]), legal=legal,
            options=tuple((a, rules.ACTIONS[a]) for a in legal),
            inning=int(games.inning[i]), half=int(games.half[i]), innings=self.innings,
            outs=int(games.outs[i]), bases=bases,
            score=(int(games.runs[i, 0]), int(games.runs[i, 1])), lineups=self.lineups,
            order=(int(games.order[i, 0]), int(games.order[i, 1])),
            tried_steal=(False, False, False), pickoff_tried=False, over=False)

    def _decide(self, games: BatchedGames, i: int) -> int:
        return self.heuristic.decide(self._view(games, i))

    def act(self, games, index, seats):
        keys = self.situation_keys(games, index)
        # the table as two sorted arrays: one binary search per game, the heuristic asked
        # only about situations not met before
        at = np.searchsorted(self._keys, keys)
        known = at < len(self._keys)
        known[known] = self._keys[at[known]] == keys[known]
        if not known.all():
            new, first = np.unique(keys[~known], return_index=True)
            rows = index[np.flatnonzero(~known)[first]]
            answers = [self._decide(games, int(i)) for i in rows]
            merged = np.concatenate([self._keys, new])
            order = np.argsort(merged, kind="stable")
            self._keys = merged[order]
            self._actions = np.concatenate([self._actions, np.asarray(answers, dtype=np.int64)])[order]
            at = np.searchsorted(self._keys, keys)
        return self._actions[at]


class SolverOpponent(Opponent):
    """The optimal manager (:class:`dugout.agents.solvers.thats_baseball.SolverAgent`, the
    exact solution of the two lineups' game, solved or read from the cache when made),
    read straight off the solved policy table for all the games at once: the decision node
    from (kind, subject, outs, runners, the runners who already tried to steal), then the
    table at (inning, half, lead, node, both places in the batting order). A lead beyond
    the solution's bound is read at the bound and a node the table leaves open is played
    as the agent plays it (pass where legal, else the first legal action), so every choice
    is the agent's own."""

    name = "solver"

    def __init__(self, teams: Sequence[Any], innings: int):
        from ..agents.solvers.thats_baseball.graph import GRAPH, PASS, decision_key
        from ..agents.solvers.thats_baseball.solution import cached_solution
        self.solution = cached_solution(_lineups(teams), innings)
        self.pass_action = PASS
        # the node of every (kind, subject, outs, runners, tried code), -1 where none, and
        # the legal actions the solver's model gives each node, as mask bits
        kinds = len(rules.DECISION_KINDS)
        self._node = np.full((kinds, 4, 3, 8, 8), -1, dtype=np.int64)
        for k, subject, outs, occ, tried in itertools.product(range(kinds), range(-1, 3), range(3),
                                                              range(8), range(8)):
            probe = _Probe(rules.DECISION_KINDS[k], subject, outs, _bits(occ), _bits(tried))
            j = GRAPH.decision_index.get(decision_key(probe))
            if j is not None:
                self._node[k, subject + 1, outs, occ, tried] = j
        self._legal_bits = np.array([sum(1 << a for a in legal) for legal in GRAPH.legal], dtype=np.int64)

    def act(self, games, index, seats):
        sol = self.solution
        kind, subject = games.kind[index].astype(np.intp), games.subject[index].astype(np.intp) + 1
        outs, occ = games.outs[index].astype(np.intp), games.occ[index].astype(np.intp)
        j = self._node[kind, subject, np.minimum(outs, 2), occ, games._tried_code(index)]
        mask = games.mask[index]
        bits = mask.astype(np.int64) @ (1 << np.arange(N_ACTIONS, dtype=np.int64))
        bad = (j < 0) | (outs > 2) | (self._legal_bits[np.maximum(j, 0)] != bits)
        if bad.any():
            i = int(index[np.flatnonzero(bad)[0]])
            raise RuntimeError(f"the solver's model has no {rules.DECISION_KINDS[games.kind[i]]!r} "
                               f"decision with legal actions {np.flatnonzero(games.mask[i]).tolist()} "
                               f"(game {i}): engine and solver disagree")
        half = games.half[index].astype(np.intp)
        runs = games.runs[index].astype(np.intp)
        lead = np.clip(runs[:, 1] - runs[:, 0], -sol.bound, sol.bound) + sol.bound
        layer = np.minimum(games.inning[index].astype(np.intp), sol.innings + 1) - 1
        order = games.order[index].astype(np.intp)
        rows = np.arange(len(index))
        action = sol.policy[layer, half, lead, j, order[rows, half], order[rows, 1 - half]].astype(np.int64)
        open_ = action < 0                     # no choice in the table: as the agent plays it
        if open_.any():
            action[open_] = np.where(mask[open_, self.pass_action], self.pass_action,
                                     mask[open_].argmax(axis=1))
        return action


@dataclasses.dataclass(frozen=True)
class _Probe:
    """What the solver's ``decision_key`` reads off a view."""
    decision: str
    subject: int
    outs: int
    bases: tuple
    tried_steal: tuple


class PolicyOpponent(Opponent):
    """A trained policy: a torch module from (N, 56) observations to (N, 5) logits, played
    greedily (``deterministic=True``) or by sampling, illegal actions masked out. One
    batched forward pass per opponent step."""

    def __init__(self, actor, deterministic: bool = True, seed: int | None = None,
                 name: str = "policy"):
        self.actor = actor
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.name = name

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, games, index, seats):
        import torch
        obs = games.observe(seats, index)
        masks = games.mask[index]
        with torch.no_grad():
            logits = self.actor(torch.from_numpy(obs)).numpy()
        logits = np.where(masks, logits.astype(np.float64), -np.inf)
        if not self.deterministic:          # a sample of the masked softmax (Gumbel-max)
            logits += -np.log(-np.log(self.rng.random(logits.shape)))
        return logits.argmax(axis=1)


def make_opponent(spec: Any, teams: Sequence[Any], innings: int) -> Opponent:
    """An :class:`Opponent` from a name (``"random"``, ``"heuristic"``, ``"solver"``, ``"ppo:PATH"``), a
    :class:`~dugout.agents.policy.PolicyAgent`, a torch module, or an Opponent."""
    if isinstance(spec, Opponent):
        return spec
    if spec == "random":
        return RandomOpponent()
    if spec == "heuristic":
        return HeuristicOpponent(teams, innings)
    if spec == "solver":
        return SolverOpponent(teams, innings)
    if isinstance(spec, str) and spec.startswith("ppo:"):
        from ..agents.policy import PolicyAgent
        agent = PolicyAgent.load(spec[4:], env_id="thats_baseball_v0")
        return PolicyOpponent(agent.actor, name=spec)
    if hasattr(spec, "actor") and hasattr(spec, "meta"):          # a PolicyAgent
        return PolicyOpponent(spec.actor, deterministic=getattr(spec, "deterministic", True),
                              name=getattr(spec, "name", "policy"))
    try:
        import torch.nn as nn
    except ImportError:                   # pragma: no cover - torch is in the train extra
        nn = None
    if nn is not None and isinstance(spec, nn.Module):
        return PolicyOpponent(spec)
    raise ValueError(f"unknown opponent {spec!r}: use 'random', 'heuristic', 'solver', 'ppo:PATH', a "
                     f"PolicyAgent, a torch module (observations -> logits) or an Opponent")


# -- the vector env ----------------------------------------------------------------------------
_AUTORESET = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
              "disabled": AutoresetMode.DISABLED}


class ThatsBaseballVectorEnv(VectorEnv):
    """``num_envs`` That's Baseball games for one learning manager (see the module docstring)."""

    def __init__(self, num_envs: int, teams: Sequence[Any] = ("sample", "reds"), innings: int = 9,
                 max_innings: int | None = None, seat: int | str = "both",
                 opponent: Any = "random", opponent_weights: Sequence[float] | None = None,
                 autoreset_mode: str | AutoresetMode = "next_step", seed: int | None = None):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if seat not in (0, 1, "both"):
            raise ValueError(f"seat must be 0 (away), 1 (home) or 'both', got {seat!r}")
        mode = _AUTORESET.get(autoreset_mode) if isinstance(autoreset_mode, str) else autoreset_mode
        if mode not in _AUTORESET.values():
            raise ValueError(f"autoreset_mode must be 'next_step', 'same_step' or 'disabled', got "
                             f"{autoreset_mode!r}")
        self.num_envs = int(num_envs)
        self.games = BatchedGames(self.num_envs, teams=teams, innings=innings, max_innings=max_innings)
        self.teams, self.innings, self.max_innings = teams, innings, max_innings
        specs = list(opponent) if isinstance(opponent, (list, tuple)) else [opponent]
        if not specs:
            raise ValueError("opponent: give at least one")
        self.opponents = [make_opponent(s, teams, innings) for s in specs]
        if opponent_weights is None:
            weights = np.full(len(specs), 1.0 / len(specs))
        else:
            weights = np.asarray(opponent_weights, dtype=float)
            if weights.shape != (len(specs),) or (weights < 0).any() or weights.sum() <= 0:
                raise ValueError(f"opponent_weights must be {len(specs)} non-negative numbers "
                                 f"with a positive sum, got {opponent_weights!r}")
            weights = weights / weights.sum()
        self.opponent_weights = weights
        self.seat_rule = seat
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.render_mode = None
        self.single_observation_space = spaces.Box(OBS.low, OBS.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = spaces.Box(np.tile(OBS.low, (self.num_envs, 1)),
                                            np.tile(OBS.high, (self.num_envs, 1)), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, N_ACTIONS))
        self.seat = np.zeros(self.num_envs, dtype=np.int8)
        self.opponent_index = np.zeros(self.num_envs, dtype=np.int8)
        self.game_seed = np.zeros(self.num_envs, dtype=np.int64)
        self._next_seed = 0
        self._rng = np.random.default_rng(seed)
        self._seed_opponents(seed)
        self._to_reset = np.zeros(self.num_envs, dtype=bool)
        self._started = False
        #: games finished (episodes), and games that ended before the learner's first
        #: decision (not episodes: another game was started in their place)
        self.games_finished = self.games_skipped = 0
        self._tables = None

    def _seed_opponents(self, seed: int | None) -> None:
        for i, o in enumerate(self.opponents):
            o.seed(None if seed is None else seed * 1_000 + i + 1)

    # -- the Gymnasium API ----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        mask = None if options is None else options.get("reset_mask")
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape != (self.num_envs,) or mask.dtype != bool:
                raise ValueError(f"options['reset_mask'] must be a ({self.num_envs},) bool array, "
                                 f"got {mask.dtype} of shape {mask.shape}")
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._next_seed = int(seed)
            self._seed_opponents(seed)
        elif not self._started:
            self._next_seed = int(self._rng.integers(0, 2**62))
        if mask is not None and not self._started:
            raise ValueError("the first reset() starts every game: no reset_mask")
        self._started = True
        index = np.arange(self.num_envs) if mask is None else np.flatnonzero(mask)
        self._start(index)
        self._to_reset[index] = False
        return self._observe(), self._infos()

    def step(self, actions):
        if not self._started:
            raise RuntimeError("step() before reset()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} integers (one per game), got "
                             f"an array of shape {actions.shape} and dtype {actions.dtype}")
        mode = self.metadata["autoreset_mode"]
        if mode == AutoresetMode.SAME_STEP:
            return self._step_same(actions)
        games = self.games
        # next-step autoreset: a game that ended at the last step starts again, its action
        # ignored; with autoreset disabled it waits for reset(options={"reset_mask": ...})
        restart = np.flatnonzero(self._to_reset & (mode == AutoresetMode.NEXT_STEP))
        live = ~self._to_reset
        games.step(actions, np.flatnonzero(live))
        self._play_opponents()
        done = live & games.over
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        self._results(np.flatnonzero(done), rewards)
        truncated = done & games.truncated
        terminated = done & ~games.truncated
        if len(restart):
            self._start(restart)
        obs, infos = self._observe(), self._infos()
        self._to_reset |= done
        self._to_reset[restart] = False
        return obs, rewards, terminated, truncated, infos

    def _step_same(self, actions):
        """A step with same-step autoreset, in one pass: a game that ends (after the
        learner's move or an opponent's) is restarted at once, and the new game's opening
        moves by the opponent are played in the rounds the other games still need, so the
        opponents' rounds of a step are as few as its longest game needs."""
        games, n = self.games, self.num_envs
        games.step(actions, np.arange(n))
        rewards = np.zeros(n, dtype=np.float32)
        done = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        fresh = np.zeros(n, dtype=bool)         # restarted in this step: not the learner's yet
        final_obs = final_masks = None
        seat, seed = self.seat.copy(), self.game_seed.copy()
        while True:
            over = np.flatnonzero(games.over)
            if len(over):
                ended = over[~fresh[over]]      # the learner's games: episodes end
                if len(ended):
                    if final_obs is None:
                        final_obs = np.empty(n, dtype=object)
                        final_masks = np.zeros((n, N_ACTIONS), dtype=bool)
                    last = games.observe(self.seat[ended], ended)
                    for row, i in enumerate(ended):
                        final_obs[i] = last[row]
                    final_masks[ended] = self.action_masks()[ended]
                    self._results(ended, rewards)
                    truncated[ended] = games.truncated[ended]
                    done[ended] = True
                # a new game over before the learner's first decision is not an episode
                self.games_skipped += int(fresh[over].sum())
                self._new_games(over)
                fresh[over] = True
            if not self._play_opponents(rounds=1):
                break
        obs, infos = self._observe(), self._infos()
        if done.any():
            infos["final_obs"], infos["_final_obs"] = final_obs, done.copy()
            infos["final_info"] = {"action_mask": final_masks, "seat": seat, "seed": seed}
            infos["_final_info"] = done.copy()
        return obs, rewards, done & ~truncated, truncated, infos

    def _results(self, ended: np.ndarray, rewards: np.ndarray) -> None:
        """The learner's rewards in the games ``ended``, which are over: +1 for a win, -1
        for a loss, 0 for a game cut off."""
        winner = self.games.winner[ended]
        rewards[ended] = np.where(winner == self.seat[ended], 1.0, np.where(winner >= 0, -1.0, 0.0))
        self.games_finished += len(ended)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions, (num_envs, 5) bool; all False only where a game is
        over and waits for its reset (never with same-step autoreset)."""
        return self.games.mask & (self.games.actor == self.seat)[:, None]

    def win_expectancy(self) -> np.ndarray:
        """The learner's chance of winning in each game from where it stands, (num_envs,)
        float64, read off the two lineups' value tables as
        :func:`dugout.agents.thats_baseball.win_expectancy` reads it off the learner's view
        (NaN where a game is over): the potential of the trainers' win-expectancy shaping."""
        if self._tables is None:
            from ..agents.thats_baseball import thats_baseball_tables
            self._tables = thats_baseball_tables(tuple(t.aas for t in self.games.teams), self.innings)
        g = self.games
        home = self._tables.win_expectancies(g.inning, g.half, np.minimum(g.outs, 3), g.occ,
                                             g.runs[:, 1].astype(np.intp) - g.runs[:, 0])
        return np.where(g.over, np.nan, np.where(self.seat == 1, home, 1.0 - home))

    def close(self, **kwargs) -> None:
        pass

    # -- inside -------------------------------------------------------------------------------
    def _start(self, index: np.ndarray) -> None:
        """New games at ``index``, played to the learner's first decision."""
        self._new_games(index)
        self._play_opponents()
        # a game over before the learner's first decision (a one-inning game can end so)
        # is not an episode: the next seed is played in its place
        skipped = index[self.games.over[index]]
        if len(skipped):
            self.games_skipped += len(skipped)
            self._start(skipped)

    def _new_games(self, index: np.ndarray) -> None:
        """New games at ``index``: seeds, the learner's seat and opponent."""
        n = len(index)
        seeds = np.arange(self._next_seed, self._next_seed + n, dtype=np.int64)
        self._next_seed += n
        self.game_seed[index] = seeds
        if self.seat_rule == "both":
            self.seat[index] = self._rng.integers(0, 2, n)
        else:
            self.seat[index] = self.seat_rule
        if len(self.opponents) > 1:
            self.opponent_index[index] = self._rng.choice(len(self.opponents), n, p=self.opponent_weights)
        self.games.reset(seeds, index)

    def _play_opponents(self, rounds: int | None = None) -> bool:
        """Play the opponents' decisions, one round (a decision in every game that waits
        on its opponent) at a time, until each game waits on the learner or is over, or
        ``rounds`` rounds are played; True if a round was played."""
        games = self.games
        actions = np.zeros(self.num_envs, dtype=np.int64)
        played = 0
        while rounds is None or played < rounds:
            theirs = ~games.over & (games.actor != self.seat)
            if not theirs.any():
                break
            for k, opponent in enumerate(self.opponents):
                index = np.flatnonzero(theirs & (self.opponent_index == k)) if len(self.opponents) > 1 \
                    else np.flatnonzero(theirs)
                if len(index):
                    actions[index] = opponent.act(games, index, games.actor[index])
            games.step(actions, np.flatnonzero(theirs))
            played += 1
        return played > 0

    def _observe(self) -> np.ndarray:
        return self.games.observe(self.seat)

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat.copy(),
                "seed": self.game_seed.copy()}

    def set_opponent(self, k: int, opponent: Any) -> None:
        """Replace opponent ``k`` (a self-play league's newest snapshot, say)."""
        self.opponents[k] = make_opponent(opponent, self.teams, self.innings)



