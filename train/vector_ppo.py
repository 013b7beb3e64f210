"""Masked PPO on batched That's Baseball games, CleanRL style: one readable file, from the
settings to the checkpoint. It trains the same network as :mod:`dugout.train.ppo` (SB3's
``MlpPolicy``: separate actor and critic MLPs) and writes the same checkpoint
(``meta.json`` + ``policy.pt``), so ``PolicyAgent.load`` plays the result in tournaments,
the solver's exact evaluation and the AEC env.

    dugout train vector --timesteps 20000000 --out runs/vector_tb
    dugout train vector --net-arch 128 128 --timesteps 20000000 --out runs/tb128
    dugout train vector --opponent heuristic --num-envs 4096 --num-steps 8 --timesteps 2000000

(``python -m dugout.train.vector_ppo`` is the same command.) Every flag is checked before
anything is trained, a bad one is one line naming it, exit status 2: each number against
its limit (``--help`` shows them), ``--teams`` and ``--innings`` by building the game,
``--opponent`` one the batched engine plays or a checkpoint that loads and fits That's
Baseball, ``--num-minibatches`` dividing the rollout, ``--out`` a folder that can be
written and holds no run.

Where :mod:`dugout.train.ppo` steps a handful of AEC envs one decision at a time, this
steps ``num_envs`` games at once in numpy (:class:`dugout.vector.ThatsBaseballVectorEnv`)
and the opponents' moves in one forward pass per opponent, so a rollout of ``num_envs x
num_steps`` decisions costs a fraction of the update that learns from it.

The batch is wide and short: 16,384 games, 2 decisions each, 32,768 timesteps an update
(the same as 4,096 x 8, the earlier default). A step of the vector env has a fixed cost
(numpy's cost per call, paid again in each of the rounds of ever fewer games the
opponents play until every game waits on the learner) on top of its cost per game:
``dugout bench train --env-cost --sizes 4096 16384 4096 16384`` timed 15.6-16.5
ms a step at 4,096 games and 30.6-30.8 ms at 16,384, 3.8-4.0 and 1.9 microseconds per
timestep. The wide batch trains 1.2-1.4x faster, the env's share of the trainer's time
falls from 30% to 19% (ten million timesteps, seeds 0 and 1: 30.7% and 29.7% against
18.6% and 19.0%), and the runs end as close to optimal (seed 0: 0.10 / 0.19 points as
away / home, against 0.09 / 0.19; seed 1: 0.06 / 0.15 both). The networks' Tanh layers
compute numpy's tanh (:mod:`dugout.train.tanh`: torch's CPU kernel is 14x slower here);
the checkpoint is the same.

Self-play (the default): each game's other manager is drawn at its start from random
(``p_random``), the rulebook heuristic (``p_heuristic``) or one of ``pool_size`` snapshots
of the learner (replaced oldest first every ``pool_every`` timesteps; sampled, not greedy).
The learner plays both seats (each game draws his seat). Every ``eval_every`` timesteps the
greedy policy plays ``eval_games`` batched games against random and the heuristic (seats
drawn at random); ``eval.csv`` and the checkpoint in ``model/`` follow.

Two ways to let the model help, both on by default: ``--shaping win-expectancy``
(potential-based shaping from the value tables; the best policy is unchanged) and a
teacher: updates also imitate a manager's choices at the learner's decisions, with a
weight falling linearly from ``teacher_coef`` to 0 at ``teacher_fraction`` of the run
(above 1 it never reaches 0: at the default 2 the run ends at half the starting weight).
The default teacher, ``--teacher solver``, is the exact solver's optimal manager (the game
of the two lineups, solved once, about ten seconds, then read from the cache), its choices
read straight off the solved tables for the whole batch; ``--teacher heuristic`` teaches
the rulebook heuristic (the earlier default, with ``--teacher-coef 1 --teacher-fraction
1``). The teacher never plays a move and the network plays from its observation alone.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..cli import args
from ..envs.thats_baseball.env import OBS
from ..envs.thats_baseball.rules import ACTIONS
from . import flags
from .curves import append_eval_row
from .ppo import SHAPING_HELP, SHAPINGS, TEACHERS, check_teacher, teacher_weight

__all__ = ["VectorSettings", "WinExpectancyShaping", "Teacher", "HeuristicTeacher", "train", "main", "actor_critic", "evaluate_vs",
           "draw_opponents"]

ENV_ID = "thats_baseball_v0"
N_ACTIONS = len(ACTIONS)
#: the opponents the batched engine plays (besides ppo:PATH, a trained manager)
OPPONENTS = ("self-play", "random", "heuristic", "solver")


# -- 1. settings ------------------------------------------------------------------------------
@dataclass
class VectorSettings:
    """A batched run's settings. Each field's ``metadata`` holds its help and its
    command-line type (:mod:`dugout.train.flags`, with its limit); the command line is made
    from them."""

    total_timesteps: int = field(default=10_000_000, metadata={
        "help": "learner decisions to train for, in whole rollouts of num_envs x num_steps (at least one)",
        "type": flags.TIMESTEPS, "flags": ("--timesteps", "--total-timesteps"), "metavar": "N"})
    num_envs: int = field(default=16384, metadata={"help": "games stepped at once", "type": flags.GAMES_AT_ONCE})
    num_steps: int = field(default=2, metadata={"help": "decisions per game between updates", "type": flags.STEPS})
    opponent: str = field(default="self-play", metadata={
        "help": f"self-play, or a fixed opponent: {', '.join(OPPONENTS[1:])} (the optimal manager), ppo:PATH",
        "type": args.agent_ref})
    teams: tuple[str, ...] = field(default=("sample", "reds"), metadata={
        "help": "away and home team: names or team files"})
    innings: int = field(default=9, metadata={"help": "scheduled innings", "type": args.innings})
    seed: int = field(default=0, metadata={"help": "seed of the run (games, network, sampling)", "type": flags.SEED})
    out: str = field(default="runs/thats_baseball_v0_vector", metadata={"help": "output folder", "type": args.out_dir})
    net_arch: tuple[int, ...] = field(default=(64, 64), metadata={
        "help": f"hidden layer sizes of actor and critic, 1 to {flags.MAX_LAYERS} of them", "type": flags.LAYER})
    learning_rate: float = field(default=3e-4, metadata={
        "help": "Adam learning rate (annealed to 0)", "type": flags.LEARNING_RATE})
    num_minibatches: int = field(default=4, metadata={
        "help": "minibatches per epoch (each of at least 2 decisions: num_envs x num_steps must "
                "divide into them)", "type": flags.count(1, 10**6, "minibatches")})
    update_epochs: int = field(default=4, metadata={"help": "passes over each rollout", "type": flags.EPOCHS})
    gamma: float = field(default=1.0, metadata={"help": "discount (the game's result is its only reward, "
                                                        "shaping aside)", "type": flags.GAMMA})
    gae_lambda: float = field(default=0.95, metadata={"help": "GAE lambda", "type": flags.GAE_LAMBDA})
    clip_coef: float = field(default=0.2, metadata={
        "help": "PPO clip range", "type": flags.real(0, 1, lo_open=True, what="a clip range")})
    ent_coef: float = field(default=0.003, metadata={"help": "entropy bonus", "type": flags.ENTROPY})
    vf_coef: float = field(default=0.5, metadata={
        "help": "value loss weight", "type": flags.real(0, 100, what="a weight")})
    max_grad_norm: float = field(default=0.5, metadata={
        "help": "gradient clipping", "type": flags.real(0, 10**6, lo_open=True, what="a gradient norm")})
    pool_every: int = field(default=500_000, metadata={
        "help": "timesteps between self-play snapshots", "type": flags.TIMESTEPS})
    pool_size: int = field(default=2, metadata={"help": "snapshots in the self-play league", "type": flags.POOL_SIZE})
    p_random: float = field(default=0.1, metadata={
        "help": "self-play: chance a game's opponent is random", "type": flags.SHARE})
    p_heuristic: float = field(default=0.3, metadata={
        "help": "self-play: chance it is the heuristic (with --p-random at most 1)", "type": flags.SHARE})
    eval_every: int = field(default=1_000_000, metadata={
        "help": "timesteps between evaluations and checkpoints", "type": flags.TIMESTEPS})
    eval_games: int = field(default=4096, metadata={"help": "games per evaluation and opponent", "type": flags.EVAL_GAMES})
    threads: int = field(default=1, metadata={
        "help": "torch threads (2 puts the update on two cores: 1.3x the timesteps/s on this "
                "project's 2-core machines)", "type": flags.THREADS})
    shaping: str = field(default="win-expectancy", metadata={"help": SHAPING_HELP, "choices": SHAPINGS})
    teacher: str = field(default="solver", metadata={
        "help": "none, heuristic or solver: updates also imitate the rulebook heuristic or the "
                "exact solver's optimal manager (a cross-entropy term whose weight falls "
                "linearly to 0 at teacher_fraction of the run)", "choices": TEACHERS})
    teacher_fraction: float = field(default=2.0, metadata={
        "help": flags.TEACHER_FRACTION_HELP, "type": flags.TEACHER_FRACTION})
    teacher_coef: float = field(default=5.0, metadata={
        "help": flags.TEACHER_COEF_HELP, "type": flags.TEACHER_COEF})

    def __post_init__(self) -> None:
        for name in ("total_timesteps", "num_envs", "num_steps", "num_minibatches", "update_epochs",
                     "pool_every", "pool_size", "eval_every", "eval_games", "innings", "threads"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if (self.num_envs * self.num_steps) % self.num_minibatches:
            raise ValueError(f"num_envs x num_steps ({self.num_envs * self.num_steps}) must divide "
                             f"into num_minibatches ({self.num_minibatches})")
        if not (0 <= self.p_random and 0 <= self.p_heuristic and self.p_random + self.p_heuristic <= 1):
            raise ValueError("p_random and p_heuristic must be non-negative and add up to at most 1")
        if self.opponent not in OPPONENTS and not self.opponent.startswith("ppo:"):
            raise ValueError(f"opponent must be {', '.join(OPPONENTS)} or ppo:PATH, "
                             f"got {self.opponent!r}")
        if self.shaping not in SHAPINGS:
            raise ValueError(f"shaping must be none or win-expectancy, got {self.shaping!r}")
        check_teacher(self.teacher, self.teacher_fraction, self.teacher_coef)
        if len(self.teams) != 2:
            raise ValueError(f"teams must be two team names (away, home), got {self.teams!r}")
        self.teams = tuple(self.teams)
        self.net_arch = tuple(int(n) for n in self.net_arch)
        if not self.net_arch or min(self.net_arch) < 1:
            raise ValueError(f"net_arch must be one or more positive layer sizes, got {self.net_arch}")
        if not 0.0 < self.gamma <= 1.0:
            raise ValueError(f"gamma must be in (0, 1], got {self.gamma!r}")


# -- 2. the network: SB3's MlpPolicy in plain torch ---------------------------------------------
def _mlp(sizes: list[int], out: int, gain: float):
    import torch.nn as nn
    from .tanh import Tanh          # nn.Tanh, its forward pass through numpy: 14x faster here
    layers, last = [], sizes[0]
    for size in sizes[1:]:
        linear = nn.Linear(last, size)
        nn.init.orthogonal_(linear.weight, np.sqrt(2))
        nn.init.zeros_(linear.bias)
        layers += [linear, Tanh()]
        last = size
    head = nn.Linear(last, out)
    nn.init.orthogonal_(head.weight, gain)
    nn.init.zeros_(head.bias)
    layers.append(head)
    return nn.Sequential(*layers)


def actor_critic(obs_size: int, n_actions: int, net_arch: tuple[int, ...]):
    """Separate actor (logits; :func:`dugout.agents.policy.build_actor`'s layout, so its
    state dict is a checkpoint's ``policy.pt``) and critic MLPs, orthogonal initialisation."""
    import torch.nn as nn

    class _ActorCritic(nn.Module):
        def __init__(self):
            super().__init__()
            self.actor = _mlp([obs_size, *net_arch], n_actions, 0.01)
            self.critic = _mlp([obs_size, *net_arch], 1, 1.0)

        def value(self, obs):
            return self.critic(obs).squeeze(-1)

        def log_probs(self, obs, masks):
            """Log-probabilities of every action, illegal ones at (about) -1e8."""
            import torch
            return torch.log_softmax(self.actor(obs).masked_fill(~masks, -1e8), dim=-1)

    return _ActorCritic()


# -- 3. the shaping ------------------------------------------------------------------------------
class WinExpectancyShaping:
    """Potential-based reward shaping (Ng, Harada and Russell, 1999), batched: after each
    step a game's reward also gets ``phi' - phi``, where ``phi = 2 W - 1`` is the learner's
    win expectancy ``W`` (:meth:`~dugout.vector.ThatsBaseballVectorEnv.win_expectancy`, on
    the reward's scale) at its decision points and ``phi' = 0`` once the game is over. A
    game's shaped rewards add up to its result less ``phi`` where the learner first decided:
    the best policy is unchanged (with a discount ``gamma`` below 1 the shaping is
    ``gamma phi' - phi``, as potential-based shaping must be), and each choice is told at
    once what it did to the team's chances (:class:`dugout.train.adapter.SingleAgentEnv`
    does the same for one game). The env must reset finished games in the same step (the
    next potential of a finished game is then that of the game started in its place)."""

    def __init__(self, envs, gamma: float = 1.0):
        from gymnasium.vector import AutoresetMode
        mode = envs.metadata.get("autoreset_mode")
        if mode != AutoresetMode.SAME_STEP:
            raise ValueError(f"win-expectancy shaping needs an env that resets finished games in "
                             f"the same step (autoreset_mode='same_step'), got {mode!r}")
        if not 0.0 < gamma <= 1.0:
            raise ValueError(f"gamma must be in (0, 1], got {gamma!r}")
        self.envs = envs
        self.gamma = gamma
        self.phi = None

    def reset(self) -> np.ndarray:
        """The potentials after ``envs.reset()``."""
        self.phi = 2.0 * self.envs.win_expectancy() - 1.0
        return self.phi

    def __call__(self, reward: np.ndarray, done: np.ndarray) -> np.ndarray:
        """The shaped rewards of the step that returned ``reward`` and ``done``."""
        new = 2.0 * self.envs.win_expectancy() - 1.0          # a finished game's successor
        shaped = reward + self.gamma * np.where(done, 0.0, new) - self.phi
        self.phi = new
        return shaped.astype(np.float32)


class Teacher:
    """A manager as a teacher: the rulebook heuristic (``--teacher heuristic``) or the exact
    solver's optimal manager (``--teacher solver``), its choice at each learner decision of
    the batch read as the vector env's opponent of that name reads it (the heuristic's
    table, the solved policy table), and the weight of the imitation term at a point of
    the run, ``coef`` falling linearly to 0 at ``fraction`` of it (above 1, never 0 in the
    run). Once the weight is 0 the objective is PPO's alone; the solver's choices are
    optimal play, so with the solver the imitation term and PPO's objective share their
    best policy. The teacher never plays a move."""

    def __init__(self, envs, coef: float, fraction: float, teacher: str = "heuristic"):
        from ..vector.env import make_opponent
        if teacher not in ("heuristic", "solver"):
            raise ValueError(f"the batched trainer's teacher is heuristic or solver, got {teacher!r}")
        self.envs = envs
        self.table = make_opponent(teacher, envs.games.teams, envs.innings)
        self.coef, self.fraction = coef, fraction

    def weight(self, progress: float) -> float:
        """The imitation term's weight when ``progress`` (0 to 1) of the run is done."""
        return teacher_weight(self.coef, self.fraction, progress)

    def actions(self) -> np.ndarray:
        """The teacher's choice in every game of the batch that waits on the learner (in
        training, with same-step autoreset, every game), -1 in a game that is over."""
        games = self.envs.games
        out = np.full(self.envs.num_envs, -1, dtype=np.int64)
        index = np.flatnonzero(~games.over)
        out[index] = self.table.act(games, index, self.envs.seat[index])
        return out


HeuristicTeacher = Teacher      # the name before the solver could teach


# -- 4. evaluation ------------------------------------------------------------------------------
def evaluate_vs(actor, opponent: str, games: int, s: VectorSettings, seed: int) -> tuple[float, float, float]:
    """The greedy ``actor``'s mean score (a win 1, a game cut off 1/2) in ``games`` batched
    games against ``opponent``, seats drawn at random, with its 95% interval
    (``mean +- 1.96 sd / sqrt(games)``)."""
    from ..vector import ThatsBaseballVectorEnv
    from ..vector.env import PolicyOpponent
    env = ThatsBaseballVectorEnv(games, teams=s.teams, innings=s.innings, opponent=opponent,
                                 autoreset_mode="disabled")     # each game played once
    learner = PolicyOpponent(actor, deterministic=True)
    env.reset(seed=seed)
    score = np.zeros(games)
    finished = np.zeros(games, dtype=bool)
    while not finished.all():
        live = np.flatnonzero(~finished)
        actions = np.zeros(games, dtype=np.int64)
        actions[live] = learner.act(env.games, live, env.seat[live])
        _, rewards, term, trunc, _ = env.step(actions)
        ended = term | trunc
        score[ended] = (rewards[ended] + 1) / 2
        finished |= ended
    mean = float(score.mean())
    half = 1.96 * float(score.std(ddof=1)) / np.sqrt(games) if games > 1 else 1.0
    return mean, max(0.0, mean - half), min(1.0, mean + half)


# -- 5. the run ---------------------------------------------------------------------------------
def _jsonable(s: VectorSettings) -> dict[str, Any]:
    d = {"env": ENV_ID, **dataclasses.asdict(s)}
    d["net_arch"], d["teams"] = list(s.net_arch), list(s.teams)
    return d


def draw_opponents(s: VectorSettings, model) -> tuple[list[Any], list[float] | None]:
    """The run's opponents and their weights: the one opponent ``s`` names (weights None), or
    under self-play random, the heuristic and a pool of ``s.pool_size`` snapshots of the
    model's actor, drawn with ``p_random``, ``p_heuristic`` and the rest shared."""
    if s.opponent != "self-play":
        return [s.opponent], None
    pool = [copy.deepcopy(model.actor).eval() for _ in range(s.pool_size)]
    from ..vector.env import PolicyOpponent
    league = [PolicyOpponent(a, deterministic=False, seed=s.seed + 17 + k, name=f"snapshot {k}")
              for k, a in enumerate(pool)]
    rest = (1.0 - s.p_random - s.p_heuristic) / s.pool_size
    return ["random", "heuristic", *league], [s.p_random, s.p_heuristic, *[rest] * s.pool_size]


def save(model, out: Path, s: VectorSettings, timesteps: int) -> Path:
    from .checkpoint import save_actor
    options = {"teams": list(s.teams), **({"innings": s.innings} if s.innings != 9 else {})}
    meta = {"env_id": ENV_ID, "env_options": options,
            "run": str(out), "settings": _jsonable(s), "trainer": "vector_ppo"}
    arch = {"obs_size": model.actor[0].in_features, "n_actions": model.actor[-1].out_features,
            "net_arch": list(s.net_arch), "activation": "Tanh"}
    save_actor(model.actor, arch, out / "checkpoints" / f"{timesteps:011d}", meta, timesteps)
    return save_actor(model.actor, arch, out / "model", meta, timesteps)


def train(s: VectorSettings, log=print) -> Path:
    """Train as ``s`` says; returns the output folder (``model/`` is the checkpoint)."""
    import torch
    from ..vector import ThatsBaseballVectorEnv

    out = Path(s.out)
    if (out / "model").exists():
        raise ValueError(f"{out} already holds a run; choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    (out / "settings.json").write_text(json.dumps(_jsonable(s), indent=2))
    torch.set_num_threads(s.threads)
    torch.manual_seed(s.seed)
    gen = torch.Generator().manual_seed(s.seed)
    rng = np.random.default_rng(s.seed)

    n, T = s.num_envs, s.num_steps
    model = actor_critic(OBS.size, N_ACTIONS, s.net_arch)
    optimizer = torch.optim.Adam(model.parameters(), lr=s.learning_rate, eps=1e-5, foreach=True)
    opponents, weights = draw_opponents(s, model)
    envs = ThatsBaseballVectorEnv(n, teams=s.teams, innings=s.innings, opponent=opponents,
                                  opponent_weights=weights, autoreset_mode="same_step", seed=s.seed)
    obs_size = envs.single_observation_space.shape[0]
    obs_buf = torch.zeros((T, n, obs_size))
    mask_buf = torch.zeros((T, n, N_ACTIONS), dtype=torch.bool)
    act_buf = torch.zeros((T, n), dtype=torch.long)
    logp_buf = torch.zeros((T, n))
    rew_buf = torch.zeros((T, n))
    done_buf = torch.zeros((T, n))
    val_buf = torch.zeros((T, n))

    shaping = WinExpectancyShaping(envs, s.gamma) if s.shaping == "win-expectancy" else None
    teacher = (Teacher(envs, s.teacher_coef, s.teacher_fraction, s.teacher)
               if s.teacher != "none" else None)
    teach_buf = torch.zeros((T, n), dtype=torch.long)
    obs, infos = envs.reset(seed=s.seed)
    if shaping is not None:
        shaping.reset()
    next_obs = torch.from_numpy(obs)
    next_mask = torch.from_numpy(infos["action_mask"])
    next_done = torch.zeros(n)
    updates = max(1, s.total_timesteps // (n * T))
    batch = n * T
    minibatch = batch // s.num_minibatches
    timesteps, next_eval, next_pool, pool_slot = 0, s.eval_every, s.pool_every, 0
    env_seconds = 0.0
    started = time.perf_counter()
    evals = []
    for update in range(updates):
        frac = 1.0 - update / updates
        optimizer.param_groups[0]["lr"] = frac * s.learning_rate
        teach = teacher.weight(update / updates) if teacher is not None else 0.0
        # -- the rollout
        for t in range(T):
            obs_buf[t], mask_buf[t], done_buf[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                logp_all = model.log_probs(next_obs, next_mask)
                # a sample of the masked softmax (Gumbel-max)
                gumbel = -torch.log(-torch.log(torch.rand(logp_all.shape, generator=gen)))
                action = (logp_all + gumbel).argmax(dim=-1)
                logp_buf[t] = logp_all.gather(1, action[:, None]).squeeze(1)
                val_buf[t] = model.value(next_obs)
            act_buf[t] = action
            if teach > 0:
                chosen = teacher.actions()
                if (chosen < 0).any():          # never with same-step autoreset
                    raise RuntimeError("a game of the batch has no teacher's choice")
                teach_buf[t] = torch.from_numpy(chosen)
            e0 = time.perf_counter()
            obs, reward, term, trunc, infos = envs.step(action.numpy())
            env_seconds += time.perf_counter() - e0
            if shaping is not None:
                reward = shaping(reward, term | trunc)
            rew_buf[t] = torch.from_numpy(reward)
            next_obs = torch.from_numpy(obs)
            next_mask = torch.from_numpy(infos["action_mask"])
            next_done = torch.from_numpy((term | trunc).astype(np.float32))
        timesteps += batch
        # -- advantages (GAE; a finished game's next state is the new game's first: cut there)
        with torch.no_grad():
            next_value = model.value(next_obs)
            adv = torch.zeros((T, n))
            last = torch.zeros(n)
            for t in reversed(range(T)):
                if t == T - 1:
                    nonterminal, values_next = 1.0 - next_done, next_value
                else:
                    nonterminal, values_next = 1.0 - done_buf[t + 1], val_buf[t + 1]
                delta = rew_buf[t] + s.gamma * values_next * nonterminal - val_buf[t]
                last = delta + s.gamma * s.gae_lambda * nonterminal * last
                adv[t] = last
            returns = adv + val_buf
        # -- the update
        b_obs, b_mask = obs_buf.reshape(batch, -1), mask_buf.reshape(batch, -1)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), returns.reshape(-1)
        b_teach = teach_buf.reshape(-1)
        for _epoch in range(s.update_epochs):
            order = torch.from_numpy(rng.permutation(batch))
            for start in range(0, batch, minibatch):
                mb = order[start:start + minibatch]
                obs_mb = b_obs.index_select(0, mb)          # (index_select: 3x faster than b_obs[mb])
                logp_all = model.log_probs(obs_mb, b_mask.index_select(0, mb))
                logp = logp_all.gather(1, b_act.index_select(0, mb)[:, None]).squeeze(1)
                ratio = (logp - b_logp.index_select(0, mb)).exp()
                a = b_adv.index_select(0, mb)
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - s.clip_coef, 1 + s.clip_coef)).mean()
                v_loss = 0.5 * ((model.value(obs_mb) - b_ret.index_select(0, mb)) ** 2).mean()
                entropy = -(logp_all.exp() * logp_all).sum(dim=-1).mean()
                loss = pg_loss - s.ent_coef * entropy + s.vf_coef * v_loss
                if teach > 0:           # imitation: the teacher's choice's log-probability
                    loss = loss - teach * logp_all.gather(1, b_teach.index_select(0, mb)[:, None]).mean()
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), s.max_grad_norm)
                optimizer.step()
        # -- the league, evaluations and checkpoints
        if s.opponent == "self-play" and timesteps >= next_pool:
            snapshot = envs.opponents[2 + pool_slot]
            snapshot.actor.load_state_dict(model.actor.state_dict())
            pool_slot = (pool_slot + 1) % s.pool_size
            next_pool += s.pool_every
        if timesteps >= next_eval or update == updates - 1:
            evals.append(_evaluate(model, s, out, timesteps, started, env_seconds, log))
            next_eval += s.eval_every
    seconds = time.perf_counter() - started
    eval_seconds = sum(e["eval_seconds"] for e in evals)
    learning = max(seconds - eval_seconds, 1e-9)
    summary = {"timesteps": timesteps, "wall_seconds": round(seconds, 1),
               "eval_seconds": round(eval_seconds, 1),
               "timesteps_per_second": round(timesteps / learning, 1),
               "env_share": round(env_seconds / learning, 3),
               "vs_random": evals[-1]["vs_random"], "vs_heuristic": evals[-1]["vs_heuristic"]}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    from .ppo import plot_learning_curve
    plot_learning_curve(out)
    log(f"trained {timesteps} timesteps in {seconds:.0f} s ({summary['timesteps_per_second']:.0f} "
        f"timesteps/s while learning, the env {100 * summary['env_share']:.0f}% of that); "
        f"checkpoint in {out / 'model'}")
    return out


def _evaluate(model, s: VectorSettings, out: Path, timesteps: int, started: float,
              env_seconds: float, log) -> dict[str, Any]:
    t0 = time.perf_counter()
    actor = copy.deepcopy(model.actor).eval()
    rates = {opp: evaluate_vs(actor, opp, s.eval_games, s, seed=10**9 + timesteps)
             for opp in ("random", "heuristic")}
    save(model, out, s, timesteps)
    seconds = time.perf_counter() - t0
    append_eval_row(out, ["timesteps", "wall_seconds", "vs_random", "vs_random_low", "vs_random_high",
                          "vs_heuristic", "vs_heuristic_low", "vs_heuristic_high"],
                    [timesteps, round(time.perf_counter() - started, 1),
                     *(round(x, 4) for x in rates["random"]), *(round(x, 4) for x in rates["heuristic"])])
    log(f"[{timesteps:>11} steps, {time.perf_counter() - started:.0f} s] vs random "
        f"{100 * rates['random'][0]:.1f}%, vs heuristic {100 * rates['heuristic'][0]:.1f}% "
        f"({100 * rates['heuristic'][1]:.1f}-{100 * rates['heuristic'][2]:.1f}%)")
    return {"eval_seconds": seconds, "vs_random": rates["random"][0], "vs_heuristic": rates["heuristic"][0]}


# -- 6. the command line: dugout train vector ---------------------------------------------------
PROG = "dugout train vector"


def configure(parser: args.Parser) -> None:
    """``dugout train vector``'s flags, one per field of :class:`VectorSettings`, each typed
    by its ``metadata``."""
    for f in dataclasses.fields(VectorSettings):
        names = f.metadata.get("flags", ("--" + f.name.replace("_", "-"),))
        kind = f.metadata.get("type")
        help_ = flags.help_for(f.metadata["help"], kind, f.default)
        if f.name == "teams":                         # free text: the check builds the env
            parser.add_argument(*names, dest=f.name, nargs=2, metavar=("AWAY", "HOME"),
                                default=f.default, help=help_)
        elif "choices" in f.metadata:
            parser.add_argument(*names, dest=f.name, choices=f.metadata["choices"],
                                default=f.default, help=help_)
        else:
            parser.add_argument(*names, dest=f.name, type=kind, default=f.default, help=help_,
                                metavar=f.metadata.get("metavar"),
                                nargs="+" if f.name == "net_arch" else None)


def check(ns: argparse.Namespace) -> None:
    """Every flag of ``dugout train vector``, checked before anything is trained: the teams
    and innings (the game built once with them), the opponent (one the batched engine plays,
    or a checkpoint that loads and fits That's Baseball), flags that must agree, and the
    output folder (no run in it). Sets ``ns.settings``; writes nothing."""
    from ..envs.options import check_env_options
    values = {f.name: getattr(ns, f.name) for f in dataclasses.fields(VectorSettings)}
    values["net_arch"] = flags.check_net_arch(values["net_arch"])
    options = {"teams": list(values["teams"]), "innings": values["innings"]}
    check_env_options(ENV_ID, options, "--teams")            # OptionError: one line, naming it
    batch = values["num_envs"] * values["num_steps"]
    if batch % values["num_minibatches"] or batch // values["num_minibatches"] < 2:
        raise args.UsageError("--num-minibatches", f"a rollout of --num-envs x --num-steps "
                                                   f"({batch:,}) must split into "
                                                   f"{values['num_minibatches']:,} equal minibatches "
                                                   f"of at least 2 decisions")
    if values["p_random"] + values["p_heuristic"] > 1:
        raise args.UsageError("--p-random", f"--p-random ({values['p_random']:g}) and --p-heuristic "
                                            f"({values['p_heuristic']:g}) add up to more than 1")
    values["opponent"] = flags.check_opponent(ENV_ID, values["opponent"], OPPONENTS, "--opponent",
                                              options)
    values["out"] = str(values["out"])
    settings = VectorSettings(**values)
    if (Path(settings.out) / "model").exists():
        raise args.UsageError("--out", f"{settings.out} already holds a run; choose another --out")
    ns.settings = settings


def run(ns: argparse.Namespace) -> Path:
    """Train as the checked flags say; the output folder."""
    return train(ns.settings, log=lambda text: print(text, file=sys.stderr, flush=True))


def parse(argv: list[str] | None = None) -> VectorSettings:
    """The checked :class:`VectorSettings` of ``argv`` (a bad flag: the one-line error and
    exit status 2)."""
    return args.parse(PROG, configure, check, sys.argv[1:] if argv is None else argv,
                      __doc__)[1].settings


def main(argv: list[str] | None = None) -> Path:
    """``python -m dugout.train.vector_ppo``: the same as ``dugout train vector``."""
    return args.invoke(PROG, configure, check, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
