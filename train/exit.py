"""Expert iteration (ExIt; Anthony, Tian and Barber 2017, AlphaZero's loop at this project's
scale): the search manager plays, its choices teach a network, and the next round's search
plays its rollouts with that network.

    dugout train exit --env grand_slam_v0 --rounds 3 --games 40 --sims 16 --out runs/exit_gs
    dugout train --algo exit --env grand_slam_v0 ...          # the same command
    python -m dugout.train --algo exit --env grand_slam_v0 ...

**A round** ``r`` (0, 1, ...):

1. *The expert plays.* The expert is the search manager (:mod:`dugout.agents.search`) with
   ``--sims`` worlds a decision; round 0's plays its rollouts with the rulebook heuristic,
   round r's with round r-1's network (``search:rollout=ppo:PATH``, the network reading the
   rollout's view: :class:`dugout.agents.policy.ViewPolicy`), or with the heuristic in every
   round (``--rollout heuristic``). It plays ``--games`` games against itself (both seats;
   ``--opponent heuristic``: against the heuristic, the seats alternating), on the process
   backend (``--workers``) or Ray (``--backend ray``).
2. *Its choices are recorded.* At each of the expert's decisions with more than one legal
   option: the seat's own observation vector and action mask (what the env shows that seat,
   nothing hidden), the search's choice, the rollout manager's own choice, each option's
   estimated value (:class:`dugout.agents.search.Evaluation`) and, at a simultaneous decision
   (Bottom of the 9th's stare-down), the equilibrium mix the search drew from. They are the
   round's ``data/round_RRR.npz``.
3. *A network learns them.* The actor of :func:`dugout.agents.policy.build_actor` (what
   ``dugout train`` trains; ``--net-arch``, Tanh) is trained by cross-entropy over the legal
   actions only (the illegal ones' logits are masked out) on the data of the last
   ``--replay`` rounds, starting from the previous round's weights, ``--epochs`` passes of
   Adam; the last ``--val-share`` of each round's games are held out for the validation
   accuracy (how often the network's most likely legal action is the search's choice). The
   target (``--target``) is the search's choice, one-hot (the default), or ``soft``: a
   softmax of the options' estimated values at ``--temperature`` (the mix itself at a
   simultaneous decision). The network is the round's checkpoint, ``checkpoints/round_RRR``
   (``meta.json`` + ``policy.pt``: ``PolicyAgent.load`` and ``ppo:PATH`` read it).
4. *It is measured.* The network alone (no search, its most likely legal action) plays the
   heuristic in a seat-swapped tournament of ``--eval-games`` games, the same seeds every
   round (:func:`dugout.evaluate.tournament.run_tournament`), and with
   ``--eval-search-games`` also the round's expert. One row of ``curve.csv`` a round, with
   95% intervals over pairs, drawn as ``learning_curve.png``.

**Why the one-hot choice by default.** The search keeps its rollout manager's choice unless
another option beats it by ``z`` standard errors of the paired difference; an option that
left the race early has an estimate from a handful of worlds. Its values differ by a point
or two of win chance, inside their noise, so a softmax of them teaches mostly noise at a
temperature that lets the differences show, and near-uniform targets at one that does not.
The choice is what the search stands behind. ``--target soft`` is there to measure.

**Behaviour cloning** (``--expert heuristic``). The rulebook heuristic plays instead of the
search, at both seats, and its choices are what the network learns (each option's value
is not recorded: ``--target soft``, ``--horizon`` and ``--eval-search-games`` are the
search's and refused; ``--sims`` and ``--rollout`` are not used). Every round is more of its
games, so one round of many games is the usual run. A network that plays as the heuristic
plays is the starting point where search games are too dear to teach one from scratch (MLB
Showdown's expert game: 35 seconds a search game, a fifth of a second a heuristic one), and
the rollout manager a later search can play with (``search:rollout=ppo:PATH``).

**Resumable.** Each round's data, checkpoint and curve row are written atomically (to a
temporary name, then renamed), in that order, into ``--out``; a round is complete once its
row is in ``curve.csv``. ``--resume`` continues from the last complete round (reusing the
data of a round cut off after its games) up to ``--rounds``; every setting but ``--rounds``,
``--workers`` and ``--backend`` must be the run's own (``settings.json``). Every seed is
derived from ``--seed`` and the round, and each round's training starts from the previous
round's saved weights, so a resumed run's rounds are those of an uninterrupted one. A
folder holding another run (this trainer's or another's) is refused without ``--resume``.

Output folder::

    settings.json               the run's settings
    data/round_RRR.npz          the expert's decisions of round RRR
    checkpoints/round_RRR/      the network of round RRR (meta.json + policy.pt)
    model/                      the latest round's network (the same files)
    curve.csv                   a row a round: the data, the validation accuracy, the network
                                against the heuristic (and the expert), with intervals
    learning_curve.png          the same, drawn (the plots extra)

The Manager Challenge (``manager_challenge_v0``) is refused: it is a single-agent game, so
there is no self-play and no tournament against the heuristic to score a round by (its
search itself takes ``rollout=ppo:PATH`` of a challenge checkpoint).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..cli import args
from ..envs.options import env_options_from_flags
from . import flags
from .checkpoint import atomic_write, save_actor
from .curves import new_figure, save_curve

__all__ = ["ExitSettings", "train", "main", "play_games", "record_decision", "targets",
           "train_network", "expert_ref", "game_seeds", "check_run_folder", "Trained"]

ALGO = "exit"
SETTINGS = "settings.json"
CURVE = "curve.csv"
SEATS = ("away", "home")
#: who plays the games and teaches: the search manager (expert iteration) or the heuristic
#: (behaviour cloning)
EXPERTS = ("search", "heuristic")
#: settings added after runs were written: the value an older ``settings.json`` means
_ADDED = {"expert": "search"}
#: the settings a ``--resume`` may change (where and how far it runs, not what it learns)
FREE_ON_RESUME = ("rounds", "workers", "backend", "out", "resume")
#: the seed of the evaluation tournaments' games (the same every round: common random numbers)
EVAL_SEED = 900_000_000
CURVE_HEADER = ["round", "expert", "games", "samples", "train_samples", "val_samples",
                "train_accuracy", "val_accuracy", "val_base_agreement", "eval_games", "vs_heuristic",
                "vs_heuristic_low", "vs_heuristic_high", "search_games", "vs_search", "vs_search_low",
                "vs_search_high", "data_seconds", "train_seconds", "eval_seconds"]


def _exit_env(text: str) -> str:
    from ..envs import SINGLE_AGENT_IDS
    if text in SINGLE_AGENT_IDS:
        raise argparse.ArgumentTypeError(
            f"{text} is a single-agent game: expert iteration here plays two-manager rulesets "
            f"(self-play, and a tournament against the heuristic to score each round); the "
            f"Manager Challenge has neither")
    return args.env_id(text)


#: ``--env``: a two-manager env (the Manager Challenge is refused, with the reason)
EXIT_ENV = args.ArgType("environment", _exit_env, bad=[*args.env_id.bad, "manager_challenge_v0"],
                        limit="a two-manager id of dugout.envs.ENV_IDS")
ROUNDS = args.count(1, 10_000, "rounds")
GAMES = args.count(1, 10**6, "the expert's games a round")
SIMS = args.count(1, 10**5, "worlds a decision")
HORIZON = args.integer(0, 1000, "half innings; 0 plays to the end")
REPLAY = args.count(1, 10_000, "rounds of data")
TEMPERATURE = args.real(0, 100, lo_open=True, what="a softmax temperature, in win probability")
VAL_SHARE = args.real(0, 0.5, lo_open=True, what="a share of each round's games")
EVAL_GAMES = args.count(4, args.MAX_GAMES, "seat-swapped games", even=True)
SEARCH_GAMES = args.integer(0, args.MAX_GAMES, "seat-swapped games; 0: none", even=True)


@dataclass
class ExitSettings:
    """A run's settings (each field's ``metadata``: its help and command-line type)."""

    env: str = field(default="grand_slam_v0", metadata={
        "help": "the ruleset to learn", "type": EXIT_ENV})
    rounds: int = field(default=3, metadata={"help": "rounds of play and learning", "type": ROUNDS})
    expert: str = field(default="search", metadata={
        "help": "who plays the games and whose choices the network learns: search (expert "
                "iteration) or heuristic (behaviour cloning of the rulebook heuristic: no search)",
        "choices": EXPERTS})
    games: int = field(default=40, metadata={
        "help": "the expert's games a round (each searched at both seats in self-play)", "type": GAMES})
    sims: int = field(default=16, metadata={"help": "the search's worlds a decision", "type": SIMS})
    horizon: int | None = field(default=None, metadata={
        "help": "half innings a rollout plays before the win-expectancy table scores it; 0 to the "
                "end (default: the ruleset's search default)", "type": HORIZON})
    rollout: str = field(default="network", metadata={
        "help": "who plays the search's rollouts after round 0: network (the previous round's) or "
                "heuristic (every round)", "choices": ("network", "heuristic")})
    opponent: str = field(default="self", metadata={
        "help": "the expert's opponent in its games: self (the expert at both seats, both "
                "recorded) or heuristic (seats alternate; the expert's side recorded)",
        "choices": ("self", "heuristic")})
    target: str = field(default="choice", metadata={
        "help": "what the network learns: choice (the search's, one-hot) or soft (a softmax of "
                "the options' estimated values at --temperature)", "choices": ("choice", "soft")})
    temperature: float | None = field(default=None, metadata={
        "help": "--target soft's temperature, in win probability (default 0.02)",
        "type": TEMPERATURE})
    replay: int = field(default=3, metadata={
        "help": "the network learns from the data of this many last rounds", "type": REPLAY})
    net_arch: tuple[int, ...] = field(default=(64, 64), metadata={
        "help": f"hidden layer sizes, 1 to {flags.MAX_LAYERS} of them", "type": flags.LAYER})
    epochs: int = field(default=20, metadata={"help": "passes over the data a round", "type": flags.EPOCHS})
    batch_size: int = field(default=256, metadata={"help": "minibatch size", "type": flags.BATCH})
    learning_rate: float = field(default=1e-3, metadata={
        "help": "Adam learning rate", "type": flags.LEARNING_RATE})
    val_share: float = field(default=0.1, metadata={
        "help": "share of each round's games held out for the validation accuracy", "type": VAL_SHARE})
    eval_games: int = field(default=100, metadata={
        "help": "games of the network against the heuristic after each round", "type": EVAL_GAMES})
    eval_search_games: int = field(default=0, metadata={
        "help": "games of the network against the round's expert after each round (0: none; "
                "else at least 4)", "type": SEARCH_GAMES})
    workers: int = field(default=1, metadata={"help": "worker processes (or Ray tasks at once)",
                                              "type": args.workers})
    backend: str = field(default="process", metadata={
        "help": "where the games are played: process (this machine) or ray", "choices": ("process", "ray")})
    seed: int = field(default=0, metadata={"help": "seed of the run (games, searches, network)",
                                           "type": flags.SEED})
    out: str = field(default="", metadata={"help": "output folder", "type": args.out_dir,
                                           "shown": "runs/exit_<env>"})
    env_options: dict = field(default_factory=dict, metadata={
        "help": "the env's options (--env-option KEY=VALUE, --teams AWAY HOME)"})
    resume: bool = field(default=False, metadata={
        "help": "continue the run in --out from its last complete round"})

    def __post_init__(self) -> None:
        from ..envs import ENV_IDS
        if self.env not in ENV_IDS:
            raise ValueError(f"expert iteration plays a two-manager env of {', '.join(ENV_IDS)}, "
                             f"not {self.env!r}")
        for name in ("rounds", "games", "sims", "replay", "epochs", "batch_size", "eval_games"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.eval_games < 4 or self.eval_games % 2:
            raise ValueError(f"eval_games must be an even number, at least 4, got {self.eval_games}")
        if self.eval_search_games and (self.eval_search_games < 4 or self.eval_search_games % 2):
            raise ValueError(f"eval_search_games must be 0 or an even number, at least 4, got "
                             f"{self.eval_search_games}")
        if self.target == "soft" and self.temperature is None:
            self.temperature = 0.02
        if self.target == "choice" and self.temperature is not None:
            raise ValueError("temperature is --target soft's; the search's choice has none")
        if self.expert not in EXPERTS:
            raise ValueError(f"expert must be one of {', '.join(EXPERTS)}, got {self.expert!r}")
        if self.expert == "heuristic":
            for name, unset, why in _SEARCH_ONLY:
                if getattr(self, name) != unset:
                    raise ValueError(f"{name} is the search's ({why}); --expert heuristic plays "
                                     f"no search")
        if not 0 < self.val_share <= 0.5:
            raise ValueError(f"val_share must be more than 0 and at most 0.5, got {self.val_share}")
        self.net_arch = tuple(int(n) for n in self.net_arch)
        if not self.net_arch or min(self.net_arch) < 1:
            raise ValueError(f"net_arch must be one or more positive layer sizes, got {self.net_arch}")
        self.env_options = dict(self.env_options)
        if not self.out:
            self.out = str(Path("runs") / f"exit_{self.env}")

    def jsonable(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["net_arch"] = list(self.net_arch)
        d["env_options"] = json.loads(json.dumps(self.env_options, default=str))
        return {"algo": ALGO, **d}


#: settings that only a search expert has (name, its unset value, what it is)
_SEARCH_ONLY = (("target", "choice", "--target soft learns the options' estimated values"),
                ("horizon", None, "its rollouts' length"),
                ("eval_search_games", 0, "the network against the round's search"))


# -- 1. the expert --------------------------------------------------------------------------------
def checkpoint_folder(out: Path, r: int) -> Path:
    return out / "checkpoints" / f"round_{r:03d}"


def data_file(out: Path, r: int) -> Path:
    return out / "data" / f"round_{r:03d}.npz"


def expert_ref(s: ExitSettings, r: int) -> str:
    """The manager that plays round ``r``: ``heuristic`` with ``--expert heuristic``, else
    the search manager (``search:sims=...``): round 0's and ``--rollout heuristic``'s roll
    out with the heuristic, a later round's with the previous round's network (its
    checkpoint's absolute path). Every kind of decision is searched, and a simultaneous one
    as its matrix game, whatever the ruleset's default budget says (every decision a
    target)."""
    from ..agents.registry import managers
    if s.expert == "heuristic":
        return "heuristic"
    parts = [f"sims={s.sims}"]
    if s.horizon is not None:
        parts.append(f"horizon={s.horizon}")
    if managers(s.env).search.simultaneous:
        parts.append("simultaneous=matrix")
    parts.append("kinds=all")
    if r > 0 and s.rollout == "network":
        parts.append(f"rollout=ppo:{checkpoint_folder(Path(s.out).resolve(), r - 1)}")
    return "search:" + ",".join(parts)


def game_seeds(seed: int, r: int, games: int) -> list[int]:
    """The seeds of round ``r``'s games: ``games`` consecutive ones from a start drawn from
    the run's seed and the round."""
    start = int(np.random.SeedSequence([seed, 7, r]).generate_state(1, np.uint32)[0]) // 2
    return [start + i for i in range(games)]


def record_decision(agent: Any, observation: dict[str, Any], view: Any,
                    action: int | None = None) -> dict[str, Any] | None:
    """What ``agent`` has just decided at ``view``, as a sample: the seat's own ``obs`` and
    ``mask`` (``observation``, what the env shows that seat) and its ``choice``. A search
    (an agent with a ``last`` evaluation) adds the rollout manager's own choice (``base``),
    each option's estimated value (``values``, NaN where none) and the equilibrium ``mix``
    of a simultaneous decision (NaN elsewhere); any other manager (``--expert heuristic``)
    has made ``action``, which is its ``choice`` and ``base``, with no values and no mix.
    None at a decision with one legal action or one the search did not evaluate (a view its
    sampler could not rebuild)."""
    if len(view.legal) < 2:
        return None
    mask = np.asarray(observation["action_mask"], dtype=np.int8)
    if not hasattr(agent, "last"):
        if action is None:
            raise ValueError("record_decision: a manager that is not a search needs the action "
                             "it made")
        nan = np.full(mask.size, np.nan, dtype=np.float32)
        return {"obs": np.asarray(observation["observation"], dtype=np.float32), "mask": mask,
                "choice": int(action), "base": int(action), "values": nan, "mix": nan.copy()}
    last = agent.last
    if last is None:
        return None
    values = np.full(mask.size, np.nan, dtype=np.float32)
    for action, estimate in last.estimates.items():
        values[action] = estimate.mean
    mix = np.full(mask.size, np.nan, dtype=np.float32)
    for action, q in last.mix.items():
        mix[action] = q
    return {"obs": np.asarray(observation["observation"], dtype=np.float32), "mask": mask,
            "choice": int(last.choice), "base": int(last.base), "values": values, "mix": mix}


def play_games(env_id: str, env_options: dict[str, Any], expert: str, opponent: str,
               seeds: Sequence[int]) -> dict[str, np.ndarray]:
    """The expert's games of ``seeds`` (in any process: a backend's task): the expert
    (``expert``, a search reference or ``heuristic``) at both seats (``opponent``
    ``"self"``) or at the away seat of an even seed and the home seat of an odd one against
    ``opponent`` (a manager's name). Each manager is reseeded for every game (``2 * seed``
    away, ``2 * seed + 1`` home). Returns the recorded samples (:func:`record_decision`) as
    arrays, with the ``game`` (its seed) and the ``seat`` (0 away, 1 home) of each."""
    import torch
    from ..agents import make_agent
    from ..agents.play import tell_setup, turns
    from ..envs import make
    torch.set_num_threads(1)
    env = make(env_id, **env_options)
    experts = {seat: make_agent(env_id, expert) for seat in SEATS}
    other = {seat: make_agent(env_id, opponent) for seat in SEATS} if opponent != "self" else None
    rows: list[dict[str, Any]] = []
    for seed in seeds:
        searched = set(SEATS) if other is None else {SEATS[seed % 2]}
        agents = {seat: experts[seat] if seat in searched else other[seat] for seat in SEATS}
        env.reset(seed=seed)
        for i, seat in enumerate(SEATS):
            agents[seat].reset(seed=2 * seed + i)
        tell_setup(env, agents.values())
        for seat, observation, _ in turns(env):
            view = env.unwrapped.view(seat)
            action = agents[seat].act(observation, view)
            if seat in searched:
                row = record_decision(agents[seat], observation, view, action)
                if row is not None:
                    rows.append({**row, "game": seed, "seat": SEATS.index(seat)})
            env.step(action)
    return _stack(rows, env)


def _stack(rows: list[dict[str, Any]], env) -> dict[str, np.ndarray]:
    from ..agents.policy import env_sizes
    obs_size, n = env_sizes(env)
    if not rows:
        return {"obs": np.zeros((0, obs_size), np.float32), "mask": np.zeros((0, n), np.int8),
                "choice": np.zeros(0, np.int64), "base": np.zeros(0, np.int64),
                "values": np.zeros((0, n), np.float32), "mix": np.zeros((0, n), np.float32),
                "game": np.zeros(0, np.int64), "seat": np.zeros(0, np.int8)}
    return {"obs": np.stack([r["obs"] for r in rows]), "mask": np.stack([r["mask"] for r in rows]),
            "choice": np.array([r["choice"] for r in rows], np.int64),
            "base": np.array([r["base"] for r in rows], np.int64),
            "values": np.stack([r["values"] for r in rows]), "mix": np.stack([r["mix"] for r in rows]),
            "game": np.array([r["game"] for r in rows], np.int64),
            "seat": np.array([r["seat"] for r in rows], np.int8)}


def _concat(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def collect(s: ExitSettings, r: int, backend) -> dict[str, np.ndarray]:
    """Round ``r``'s games on ``backend``, in chunks; the samples in seed order (whichever
    worker played them)."""
    seeds = game_seeds(s.seed, r, s.games)
    size = max(1, math.ceil(len(seeds) / (4 * max(1, backend.slots))))
    chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
    opponent = "self" if s.opponent == "self" else "heuristic"
    parts = backend.map(play_games, [(s.env, s.env_options, expert_ref(s, r), opponent, chunk)
                                     for chunk in chunks],
                        describe=lambda i: f"round {r}'s games {chunks[i][0]}-{chunks[i][-1]}")
    return _concat(parts)


def save_data(path: Path, data: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
    """``data`` (and ``meta`` as JSON) into ``path``, atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(meta)), **data)

    atomic_write(path, write)


def load_data(path: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    with np.load(path, allow_pickle=False) as z:
        data = {k: z[k] for k in z.files if k != "meta"}
        return data, json.loads(str(z["meta"]))


# -- 2. the network -----------------------------------------------------------------------------
def targets(data: dict[str, np.ndarray], target: str = "choice",
            temperature: float | None = None) -> np.ndarray:
    """The distributions the network learns, ``(N, n_actions)``, zero on every illegal
    action: the search's choice one-hot (``"choice"``), or (``"soft"``) a softmax of the
    options' estimated values at ``temperature`` over the legal options with an estimate
    (the recorded mix at a simultaneous decision)."""
    n, width = data["mask"].shape
    out = np.zeros((n, width), dtype=np.float32)
    if target == "choice":
        out[np.arange(n), data["choice"]] = 1.0
        return out
    if target != "soft":
        raise ValueError(f"target must be choice or soft, got {target!r}")
    legal = data["mask"].astype(bool)
    mixed = np.isfinite(data["mix"]).any(axis=1)
    values = np.where(legal & np.isfinite(data["values"]), data["values"], -np.inf).astype(np.float64)
    top = values.max(axis=1, keepdims=True)
    weights = np.exp((values - top) / float(temperature))
    soft = weights / weights.sum(axis=1, keepdims=True)
    out[:] = soft
    out[mixed] = np.nan_to_num(data["mix"][mixed], nan=0.0)
    out[~legal] = 0.0
    return out / out.sum(axis=1, keepdims=True)


@dataclass
class Trained:
    """A network trained by :func:`train_network` and how well it fits."""
    actor: Any
    train_accuracy: float
    val_accuracy: float
    losses: list[float]


def _accuracy(actor, obs: np.ndarray, masks: np.ndarray, labels: np.ndarray) -> float:
    import torch
    if len(obs) == 0:
        return float("nan")
    with torch.no_grad():
        logits = actor(torch.as_tensor(obs)).numpy()
    logits[~masks.astype(bool)] = -np.inf
    return float(np.mean(logits.argmax(axis=1) == labels))


def train_network(obs: np.ndarray, masks: np.ndarray, target: np.ndarray, labels: np.ndarray,
                  val: np.ndarray, *, net_arch: Sequence[int], epochs: int, batch_size: int,
                  learning_rate: float, seed: int, init: dict[str, Any] | None = None,
                  activation: str = "Tanh") -> Trained:
    """Train :func:`dugout.agents.policy.build_actor`'s network by cross-entropy to ``target``
    over the legal actions only (``masks``; an illegal action's logit is masked out), on the
    rows where ``val`` is False, ``epochs`` passes of Adam in shuffled minibatches; from
    ``init`` (a state dict) when given. The accuracies are how often the most likely legal
    action is ``labels``' on the training and the held-out (``val``) rows."""
    import torch
    from ..agents.policy import build_actor
    torch.manual_seed(seed)
    actor = build_actor(obs.shape[1], list(net_arch), activation, masks.shape[1])
    if init is not None:
        actor.load_state_dict(init)
    train_rows = np.flatnonzero(~val)
    x = torch.as_tensor(obs[train_rows], dtype=torch.float32)
    m = torch.as_tensor(masks[train_rows].astype(bool))
    y = torch.as_tensor(target[train_rows], dtype=torch.float32)
    optimizer = torch.optim.Adam(actor.parameters(), lr=learning_rate)
    generator = torch.Generator().manual_seed(seed)
    losses = []
    actor.train()
    for _ in range(epochs):
        order = torch.randperm(len(train_rows), generator=generator)
        total = 0.0
        for i in range(0, len(order), batch_size):
            idx = order[i:i + batch_size]
            logits = actor(x[idx]).masked_fill(~m[idx], -1e9)
            loss = -(y[idx] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(idx)
        losses.append(total / max(1, len(order)))
    actor.eval()
    return Trained(actor, _accuracy(actor, obs[~val], masks[~val], labels[~val]),
                   _accuracy(actor, obs[val], masks[val], labels[val]), losses)


def held_out(data: dict[str, np.ndarray], share: float) -> np.ndarray:
    """The rows of the last ``share`` of each round's games (at least one game when the round
    has two or more), by the order of their seeds."""
    val = np.zeros(len(data["game"]), dtype=bool)
    for r in np.unique(data["round"]):
        rows = data["round"] == r
        games = np.unique(data["game"][rows])
        k = max(1, int(round(share * len(games)))) if len(games) > 1 else 0
        val |= rows & np.isin(data["game"], games[len(games) - k:])
    return val


def learn(s: ExitSettings, out: Path, r: int) -> tuple[Trained, dict[str, Any]]:
    """Round ``r``'s network, trained on the data of the last ``replay`` rounds from round
    ``r - 1``'s saved weights."""
    import torch
    from ..agents.policy import WEIGHTS
    parts = []
    for k in range(max(0, r - s.replay + 1), r + 1):
        data, _ = load_data(data_file(out, k))
        data["round"] = np.full(len(data["game"]), k, np.int64)
        parts.append(data)
    data = _concat(parts)
    val = held_out(data, s.val_share)
    init = None
    if r > 0:
        init = torch.load(checkpoint_folder(out, r - 1) / WEIGHTS, map_location="cpu", weights_only=True)
    trained = train_network(data["obs"], data["mask"], targets(data, s.target, s.temperature),
                            data["choice"], val, net_arch=s.net_arch, epochs=s.epochs,
                            batch_size=s.batch_size, learning_rate=s.learning_rate,
                            seed=int(np.random.SeedSequence([s.seed, 11, r]).generate_state(1)[0]),
                            init=init)
    own = data["round"] == r
    base = float(np.mean(data["base"][own & val] == data["choice"][own & val])) if (own & val).any() \
        else float("nan")
    return trained, {"train_samples": int((~val).sum()), "val_samples": int(val.sum()),
                     "val_base_agreement": base}


# -- 3. the round's measure ----------------------------------------------------------------------
def measure(s: ExitSettings, out: Path, r: int, backend) -> dict[str, Any]:
    """The network of round ``r`` alone against the heuristic (and the round's expert)."""
    from ..evaluate.tournament import run_tournament
    network = f"ppo:{checkpoint_folder(out.resolve(), r)}"
    row: dict[str, Any] = {}
    for opponent, games, key in (("heuristic", s.eval_games, "vs_heuristic"),
                                 (expert_ref(s, r), s.eval_search_games, "vs_search")):
        if not games:
            row.update({key: "", f"{key}_low": "", f"{key}_high": ""})
            continue
        result = run_tournament(s.env, [network, opponent], games, seed=EVAL_SEED + s.seed,
                                env_kwargs=s.env_options, backend=backend)
        summary = result.matchups[0].summary()
        row.update({key: round(summary["a_score"], 4), f"{key}_low": round(summary["a_score_low"], 4),
                    f"{key}_high": round(summary["a_score_high"], 4)})
        row["eval_games" if key == "vs_heuristic" else "search_games"] = summary["games"]
    row.setdefault("search_games", 0)
    return row


def read_curve(out: Path) -> list[dict[str, str]]:
    path = out / CURVE
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_curve(out: Path, rows: list[dict[str, Any]]) -> None:
    def write(tmp: str) -> None:
        buffer = io.StringIO()
        w = csv.DictWriter(buffer, CURVE_HEADER)
        w.writeheader()
        for row in rows:
            w.writerow({k: row.get(k, "") for k in CURVE_HEADER})
        Path(tmp).write_text(buffer.getvalue())

    atomic_write(out / CURVE, write)


def plot_curve(out: Path, env: str) -> Path | None:
    """``learning_curve.png`` from ``curve.csv``: the network against the heuristic (and the
    expert) by round, with 95% intervals (needs matplotlib)."""
    rows = read_curve(out)
    figure = new_figure() if rows else None
    if figure is None:
        return None
    fig, ax = figure
    rounds = [int(r["round"]) for r in rows]
    for key, colour, label in (("vs_heuristic", "tab:blue", "network vs heuristic"),
                               ("vs_search", "tab:orange", "network vs the round's search")):
        kept = [(x, row) for x, row in zip(rounds, rows) if row.get(key)]
        if not kept:
            continue
        xs = [x for x, _ in kept]
        ax.plot(xs, [100 * float(row[key]) for _, row in kept], marker="o", color=colour, label=label)
        ax.fill_between(xs, [100 * float(row[f"{key}_low"]) for _, row in kept],
                        [100 * float(row[f"{key}_high"]) for _, row in kept], color=colour, alpha=0.2)
    ax.axhline(50, color="black", lw=0.8, ls="--")
    ax.set_ylim(0, 100)
    ax.set_xticks(rounds)
    return save_curve(fig, ax, out, xlabel="round", ylabel="score, % (95% interval over pairs)",
                      title=f"{env}: expert iteration, the network alone ({out.name})")


# -- 4. the run ----------------------------------------------------------------------------------
#: what in a folder marks a run (this trainer's or another's)
RUN_MARKS = (SETTINGS, CURVE, "data", "checkpoints", "model")


def check_run_folder(s: ExitSettings) -> Path:
    """The run's output folder, checked before any game: a new run's holds no run (of any
    trainer); ``--resume`` needs this trainer's run with the same settings (all but
    :data:`FREE_ON_RESUME`). A ``ValueError`` naming the flag; reads ``settings.json`` only."""
    out = Path(s.out)
    if not s.resume:
        held = [m for m in RUN_MARKS if (out / m).exists()]
        if held:
            raise ValueError(f"--out {out} already holds a run ({held[0]}); pass --resume to "
                             f"continue it or choose another --out")
        return out
    path = out / SETTINGS
    try:
        saved = json.loads(path.read_text())
    except (OSError, ValueError):
        saved = None
    if not isinstance(saved, dict) or saved.get("algo") != ALGO:
        raise ValueError(f"--resume: {out} holds no expert-iteration run (no {SETTINGS} written "
                         f"by dugout train exit)")
    now = s.jsonable()
    for key, value in now.items():
        was = saved.get(key, _ADDED.get(key))
        if key in FREE_ON_RESUME or was == value:
            continue
        flag = "--env-option/--teams" if key == "env_options" else "--" + key.replace("_", "-")
        raise ValueError(f"--resume: {out} holds a run with {flag} {_show(was)}; "
                         f"--resume it with the same (got {_show(value)})")
    return out


def _show(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(map(str, value))
    return "none" if value is None else json.dumps(value) if isinstance(value, dict) else str(value)


def complete_rounds(out: Path) -> list[dict[str, str]]:
    """The rows of the rounds done (0, 1, ... with their checkpoints), in order."""
    from ..agents.policy import META, WEIGHTS
    done = []
    for k, row in enumerate(read_curve(out)):
        folder = checkpoint_folder(out, k)
        if row.get("round") != str(k) or not (folder / META).is_file() or not (folder / WEIGHTS).is_file():
            break
        done.append(row)
    return done


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def train(s: ExitSettings, backend=None) -> Path:
    """Run the rounds ``s`` asks for (from the last complete one with ``resume``); the
    output folder. ``backend`` (a :class:`dugout.evaluate.backends.Backend`, left open) is
    made from ``s.backend`` and ``s.workers`` when not given."""
    import shutil
    import torch
    from ..evaluate.backends import make_backend
    out = check_run_folder(s)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / SETTINGS, lambda tmp: Path(tmp).write_text(json.dumps(s.jsonable(), indent=2)))
    torch.set_num_threads(1)
    owned = backend is None
    backend = make_backend(s.backend, s.workers) if owned else backend
    rows: list[dict[str, Any]] = list(complete_rounds(out)) if s.resume else []
    if len(rows) >= s.rounds:
        _say(f"{out}: {len(rows)} round(s) done already, --rounds {s.rounds}: nothing to do")
    try:
        for r in range(len(rows), s.rounds):
            t0 = time.perf_counter()
            path = data_file(out, r)
            expert = expert_ref(s, r)
            if path.is_file():                    # a round cut off after its games
                data, meta = load_data(path)
                if meta.get("expert") != expert or meta.get("games") != s.games:
                    raise ValueError(f"{path} holds the games of another expert: remove it")
                _say(f"[round {r}] the expert's games of the cut-off run: {len(data['game'])} decisions")
            else:
                data = collect(s, r, backend)
                save_data(path, data, {"env": s.env, "round": r, "expert": expert, "games": s.games,
                                       "seed": s.seed})
            t1 = time.perf_counter()
            trained, fit = learn(s, out, r)
            arch = {"obs_size": int(data["obs"].shape[1]), "n_actions": int(data["mask"].shape[1]),
                    "net_arch": list(s.net_arch), "activation": "Tanh"}
            meta = {"env_id": s.env, "env_options": s.jsonable()["env_options"], "run": str(out),
                    "algo": ALGO, "round": r, "expert": expert, "settings": s.jsonable()}
            folder = checkpoint_folder(out, r)
            save_actor(trained.actor, arch, folder, meta, fit["train_samples"])
            t2 = time.perf_counter()
            row = {"round": r, "expert": expert.replace(str(out.resolve()), "<out>"),
                   "games": s.games, "samples": int(len(data["game"])), **fit,
                   "train_accuracy": round(trained.train_accuracy, 4),
                   "val_accuracy": round(trained.val_accuracy, 4),
                   "val_base_agreement": round(fit["val_base_agreement"], 4),
                   **measure(s, out, r, backend)}
            t3 = time.perf_counter()
            row.update(data_seconds=round(t1 - t0, 1), train_seconds=round(t2 - t1, 1),
                       eval_seconds=round(t3 - t2, 1))
            rows.append(row)
            model = out / "model"
            model.mkdir(exist_ok=True)
            for name in ("policy.pt", "meta.json"):        # meta.json last, as save_actor does
                atomic_write(model / name, lambda tmp, n=name: shutil.copyfile(folder / n, tmp))
            write_curve(out, rows)
            base = ("" if s.expert == "heuristic" else f" (the rollout manager's own choice: "
                                                         f"{100 * fit['val_base_agreement']:.1f}%)")
            _say(f"[round {r}] {row['samples']} decisions, validation accuracy "
                 f"{100 * trained.val_accuracy:.1f}%{base}; the network alone vs heuristic "
                 f"{100 * row['vs_heuristic']:.1f}% ({100 * row['vs_heuristic_low']:.1f}-"
                 f"{100 * row['vs_heuristic_high']:.1f}%) in {row['eval_games']} games; "
                 f"{t3 - t0:.0f} s")
    finally:
        if owned:
            backend.close()
    plot_curve(out, s.env)
    return out


# -- 5. the command line: dugout train exit -------------------------------------------------------------
PROG = "dugout train exit"


def configure(parser: args.Parser) -> None:
    """``dugout train exit``'s flags, one per field of :class:`ExitSettings`."""
    for f in dataclasses.fields(ExitSettings):
        if f.name == "env_options":
            g = parser.add_argument_group("rules (the env's options)")
            g.add_argument("--teams", nargs=2, metavar=("AWAY", "HOME"),
                           help="the env's teams option: two team names or files")
            g.add_argument("--env-option", action="append", default=[], metavar="KEY=VALUE",
                           type=args.env_option, help="an env option, repeatable (e.g. innings=7)")
            continue
        name = "--" + f.name.replace("_", "-")
        default = f.default if f.default is not dataclasses.MISSING else None
        kind = f.metadata.get("type")
        help_ = flags.help_for(f.metadata["help"], kind, f.metadata.get("shown", default))
        default = None if default == "" else default      # argparse would type a text default
        if f.type in ("bool", bool):
            parser.add_argument(name, dest=f.name, action="store_true", help=help_)
        elif "choices" in f.metadata:
            parser.add_argument(name, dest=f.name, choices=f.metadata["choices"], default=default,
                                help=help_)
        else:
            parser.add_argument(name, dest=f.name, type=kind, default=default, help=help_,
                                nargs="+" if f.name == "net_arch" else None)


def check(ns: argparse.Namespace) -> None:
    """Every flag, checked before any game: the rules (the env built once with them), the
    expert (the search reference built once), flags that must agree, the backend and the
    output folder. Sets ``ns.settings``; writes nothing."""
    from ..agents import make_agent
    from ..evaluate.backends import BackendError, check_backend
    options = env_options_from_flags(ns.env, ns.env_option, ns.teams)     # OptionError names the flag
    values = {f.name: getattr(ns, f.name) for f in dataclasses.fields(ExitSettings)
              if f.name != "env_options"}
    values["net_arch"] = flags.check_net_arch(values["net_arch"])
    if values["target"] == "choice" and values["temperature"] is not None:
        raise args.UsageError("--temperature", "is --target soft's; the search's choice (--target "
                                               "choice) has no temperature")
    if values["expert"] == "heuristic":
        for name, unset, why in _SEARCH_ONLY:
            if values[name] != unset:
                flag = "--" + name.replace("_", "-")
                raise args.UsageError(flag, f"{flag} is the search's ({why}); --expert heuristic "
                                            f"plays no search")
    if values["eval_search_games"] and values["eval_search_games"] < 4:
        raise args.UsageError("--eval-search-games", f"must be 0 or at least 4 (two seat-swapped "
                                                     f"pairs), got {values['eval_search_games']}")
    try:
        check_backend(values["backend"], values["workers"])
    except BackendError as error:
        raise args.UsageError("--backend", str(error)) from None
    values["out"] = str(values["out"]) if values["out"] else ""
    settings = ExitSettings(env_options=options, **values)
    try:
        make_agent(settings.env, expert_ref(dataclasses.replace(settings, rollout="heuristic"), 0))
    except ValueError as error:
        flag = "--horizon" if "horizon" in str(error) else "--sims"
        raise args.UsageError(flag, str(error)) from None
    flags.check_out(settings.out)
    check_run_folder(settings)
    ns.settings = settings


def run(ns: argparse.Namespace) -> Path:
    """Run expert iteration as the checked flags say; the output folder."""
    return train(ns.settings)


def main(argv: list[str] | None = None) -> Path:
    """``python -m dugout.train --algo exit``: ``dugout train exit``."""
    return args.invoke(PROG, configure, check, run, sys.argv[1:] if argv is None else argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
