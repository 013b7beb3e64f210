"""Distilling an exact solver: a network learns the solver's policy at every state.

    dugout train distill --env thats_baseball_v0 --out runs/distill_thats_baseball
    dugout train distill --env thats_baseball_v0 --epochs 4 --sample 200000 --out runs/quick

A solved game's dataset module (``dugout.agents.solvers.<game>.distill``: ``ENV_ID``,
``PLAY``, ``dataset()`` and ``describe()``; That's Baseball's has every decision state of the
exact gap evaluator) gives each state's observation (exactly what the env shows the deciding
seat), its legal actions, the solver's distribution over them (``target``) and what a mistake
there costs (``weight``, mean about 1). The actor of :func:`dugout.agents.policy.build_actor`
(``--net-arch``, ``--activation``) is fitted by weighted cross-entropy to the target over the
legal actions only (an illegal action's logit is masked out): ``--epochs`` passes of Adam over
the rows in shuffled minibatches of ``--batch-size``, the learning rate falling from
``--learning-rate`` to 0 along a cosine. Rows that weigh 0 (every action worth the same)
teach nothing and are left out. A random ``--val-share`` of the states is held out (with
their rows of raised scores, where the dataset has them).

It reports, on the training and the held-out rows: the accuracy (the network's most likely
legal action is one the solver plays), the weighted accuracy, and the mean cost of its choice
(the best value minus the value of the action it plays, in win probability, where the dataset
has each action's ``cost``); with the states' ``reach`` (how often optimal play meets them),
each seat's sum of reach x cost over every row: a first-order estimate of the exact gap to
optimal (That's Baseball's ``gap_to_optimal`` measures it exactly).

The checkpoint folder ``--out`` (which must not exist or be empty) holds ``meta.json`` +
``policy.pt`` (``PolicyAgent.load`` and ``ppo:PATH`` read it; ``dugout pretrained
--checkpoint`` ships it) and ``fit.json`` (the figures above, the loss by epoch). Its meta
carries ``"trainer": "distill"``, the settings, the dataset's ``describe()`` and ``"play"``,
how the manager plays the network (``greedy``: the most likely legal action; ``sample``:
sampling the policy). Every seed comes from ``--seed``: the same command gives the same
network on the same machine and torch.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..cli import args
from . import flags

__all__ = ["DistillSettings", "distill_envs", "dataset_module", "fit", "evaluate_fit", "train",
           "configure", "check", "run", "main", "ALGO"]

ALGO = "distill"
FIT = "fit.json"
#: the solved games whose solver has a dataset module, by env id: agents/solvers/<game>/distill.py
GAMES = {"thats_baseball_v0": "thats_baseball", "bottom_ninth_v0": "bottom_ninth"}

VAL_SHARE = args.real(0, 0.5, what="a share of the rows")
SAMPLE = args.count(100, 10**9, "rows")


def dataset_module(env_id: str):
    """The dataset module of ``env_id``'s solver (``dugout.agents.solvers.<game>.distill``), or
    None where the solver has none (yet)."""
    game = GAMES.get(env_id)
    if game is None:
        return None
    name = f"dugout.agents.solvers.{game}.distill"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


def distill_envs() -> list[str]:
    """The env ids that have distillation data (a solver with a dataset module)."""
    return [env for env in GAMES if dataset_module(env) is not None]


@dataclass
class DistillSettings:
    """A fit's settings (each field's ``metadata``: its help and command-line type)."""

    env: str = field(default="thats_baseball_v0", metadata={
        "help": f"environment whose exact solver teaches ({', '.join(GAMES)}: those with "
                f"agents/solvers/<game>/distill.py)", "type": args.env_id})
    net_arch: tuple[int, ...] = field(default=(128, 128), metadata={
        "help": f"hidden layer sizes, 1 to {flags.MAX_LAYERS} of them", "type": flags.LAYER})
    activation: str = field(default="Tanh", metadata={
        "help": "the hidden layers' activation", "choices": ("Tanh", "ReLU", "ELU", "SiLU")})
    epochs: int = field(default=6, metadata={"help": "passes over the rows", "type": flags.EPOCHS})
    batch_size: int = field(default=1024, metadata={"help": "rows a minibatch", "type": flags.BATCH})
    learning_rate: float = field(default=3e-3, metadata={
        "help": "Adam's first learning rate (it falls to 0 along a cosine)",
        "type": flags.LEARNING_RATE})
    val_share: float = field(default=0.02, metadata={
        "help": "share of the rows held out (0: none)", "type": VAL_SHARE})
    sample: int | None = field(default=None, metadata={
        "help": "learn from this many rows drawn at random instead of every one (a quick run)",
        "type": SAMPLE, "shown": "every row"})
    seed: int = field(default=0, metadata={"help": "seed of the split, the order and the network",
                                           "type": flags.SEED})
    threads: int = field(default=1, metadata={"help": "torch threads", "type": flags.THREADS})
    out: str = field(default="", metadata={"help": "the checkpoint folder (new, or empty)",
                                           "type": args.out_dir, "shown": "runs/distill_<env>"})

    def __post_init__(self) -> None:
        self.net_arch = tuple(int(n) for n in self.net_arch)
        if not self.net_arch or min(self.net_arch) < 1:
            raise ValueError(f"net_arch must be one or more positive layer sizes, got {self.net_arch}")
        for name in ("epochs", "batch_size", "threads"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not 0 <= self.val_share <= 0.5:
            raise ValueError(f"val_share must be 0 to 0.5, got {self.val_share}")
        if not self.out:
            self.out = str(Path("runs") / f"distill_{self.env.removesuffix('_v0')}")

    def jsonable(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["net_arch"] = list(self.net_arch)
        return {"algo": ALGO, **d}


# -- the fit -------------------------------------------------------------------------------------
def _split(data: dict[str, np.ndarray], share: float, seed: int) -> np.ndarray:
    """A random ``share`` of the states held out (a boolean mask over the rows): a state's
    rows with raised scores (``raised`` above 0, after its own row) go with it."""
    raised = data.get("raised")
    state = (np.cumsum(raised == 0) - 1 if raised is not None
             else np.arange(len(data["mask"])))
    n = int(state[-1]) + 1 if len(state) else 0
    held = np.zeros(n, bool)
    k = int(round(share * n))
    if k:
        held[np.random.default_rng([seed, 1]).choice(n, size=k, replace=False)] = True
    return held[state]


def fit(data: dict[str, np.ndarray], s: DistillSettings, say=None):
    """Fit the actor to ``data`` (the dataset module's arrays) as ``s`` says; the actor, the
    held-out mask over the rows, and the mean loss of each epoch."""
    import torch
    from ..agents.policy import build_actor
    torch.manual_seed(s.seed)
    torch.set_num_threads(s.threads)
    n, width = data["mask"].shape
    val = _split(data, s.val_share, s.seed)
    rows = np.flatnonzero(~val & (data["weight"] > 0))
    actor = build_actor(data["obs"].shape[1], list(s.net_arch), s.activation, width)
    x = torch.as_tensor(data["obs"][rows], dtype=torch.float32)
    m = torch.as_tensor(data["mask"][rows].astype(bool))
    y = torch.as_tensor(data["target"][rows], dtype=torch.float32)
    w = torch.as_tensor(data["weight"][rows], dtype=torch.float32)
    w = w / w.mean()
    optimizer = torch.optim.Adam(actor.parameters(), lr=s.learning_rate)
    steps = s.epochs * math.ceil(len(rows) / s.batch_size)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda k: 0.5 * (1 + math.cos(math.pi * min(k, steps) / steps)))
    generator = torch.Generator().manual_seed(s.seed)
    losses = []
    actor.train()
    for epoch in range(s.epochs):
        t0 = time.perf_counter()
        order = torch.randperm(len(rows), generator=generator)
        total = 0.0
        for i in range(0, len(order), s.batch_size):
            idx = order[i:i + s.batch_size]
            logits = actor(x[idx]).masked_fill(~m[idx], -1e9)
            loss = -(w[idx] * (y[idx] * torch.log_softmax(logits, dim=1)).sum(dim=1)).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            total += float(loss.detach()) * len(idx)
        losses.append(total / max(1, len(order)))
        if say:
            say(f"epoch {epoch + 1}/{s.epochs}: weighted cross-entropy {losses[-1]:.5f} "
                f"({time.perf_counter() - t0:.0f} s)")
    actor.eval()
    return actor, val, losses


def _choices(actor, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The network's most likely legal action at each row."""
    import torch
    out = np.empty(len(obs), np.int64)
    with torch.no_grad():
        for i in range(0, len(obs), 65_536):
            logits = actor(torch.as_tensor(obs[i:i + 65_536])).numpy()
            logits[~mask[i:i + 65_536].astype(bool)] = -np.inf
            out[i:i + 65_536] = logits.argmax(axis=1)
    return out


def evaluate_fit(actor, data: dict[str, np.ndarray], val: np.ndarray) -> dict[str, Any]:
    """How well ``actor`` plays the rows: on the training and the held-out rows, the accuracy
    (its choice is one the solver plays: target above 0), the weighted accuracy and (with the
    rows' ``cost``) the mean cost of its choice; with ``reach``, each seat's sum of reach x
    cost over every row (a first-order estimate of the exact gap)."""
    choice = _choices(actor, data["obs"], data["mask"])
    rows = np.arange(len(choice))
    right = data["target"][rows, choice] > 0
    weight = data["weight"].astype(np.float64)
    cost = data["cost"][rows, choice].astype(np.float64) if "cost" in data else None
    out: dict[str, Any] = {"rows": int(len(choice)), "train_rows": int((~val).sum()),
                           "val_rows": int(val.sum()),
                           "weightless_rows": int((weight == 0).sum())}
    for name, part in (("train", ~val), ("val", val)):
        if not part.any():
            continue
        out[f"{name}_accuracy"] = round(float(right[part].mean()), 6)
        if weight[part].sum() > 0:
            out[f"{name}_weighted_accuracy"] = round(float((weight * right)[part].sum()
                                                           / weight[part].sum()), 6)
        if cost is not None:
            out[f"{name}_mean_cost"] = float(cost[part].mean())
            out[f"{name}_weighted_cost"] = float((weight * cost)[part].sum() / weight[part].sum())
    own = data["raised"] == 0 if "raised" in data else np.ones(len(choice), bool)
    if "raised" in data and (~own).any():
        out["raised_accuracy"] = round(float(right[~own].mean()), 6)
    if cost is not None and "reach" in data:
        for seat in (0, 1):
            here = (data["seat"] == seat) & own
            out[f"reach_cost_seat{seat}"] = float((data["reach"][here] * cost[here]).sum())
    return out


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def train(s: DistillSettings, data: dict[str, np.ndarray] | None = None, say=_say) -> Path:
    """Build the dataset (or take ``data``), fit the network, write the checkpoint folder
    ``s.out``; the folder."""
    from .checkpoint import atomic_write, save_actor
    module = dataset_module(s.env)
    if module is None:
        raise ValueError(_no_data(s.env))
    out = check_out_folder(s.out)
    t0 = time.perf_counter()
    if data is None:
        say(f"building {s.env}'s dataset from its exact solver")
        kwargs = {"sample": s.sample} if s.sample is not None else {}
        data = module.dataset(seed=s.seed, progress=False, **kwargs)
    t1 = time.perf_counter()
    say(f"{len(data['obs']):,} rows ({time.perf_counter() - t0:.0f} s); fitting "
        f"{list(s.net_arch)} {s.activation}, {s.epochs} epochs")
    actor, val, losses = fit(data, s, say)
    t2 = time.perf_counter()
    figures = evaluate_fit(actor, data, val)
    figures.update(losses=[round(x, 6) for x in losses], data_seconds=round(t1 - t0, 1),
                   fit_seconds=round(t2 - t1, 1))
    n, width = data["mask"].shape
    arch = {"obs_size": int(data["obs"].shape[1]), "n_actions": int(width),
            "net_arch": list(s.net_arch), "activation": s.activation}
    meta = {"env_id": s.env, "env_options": {}, "run": str(out), "algo": ALGO, "trainer": ALGO,
            "settings": s.jsonable(), "dataset": module.describe(), "play": module.PLAY,
            "fit": {k: v for k, v in figures.items() if k != "losses"}}
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / FIT, lambda tmp: Path(tmp).write_text(json.dumps(figures, indent=2)))
    save_actor(actor, arch, out, meta, figures["train_rows"] * s.epochs)
    say(_summary(figures, out))
    return out


def _summary(f: dict[str, Any], out: Path) -> str:
    parts = [f"{f['rows']:,} rows ({f['val_rows']:,} held out, {f['weightless_rows']:,} weigh 0)"]
    for name in ("train", "val"):
        if f"{name}_accuracy" in f:
            text = f"{name} accuracy {100 * f[f'{name}_accuracy']:.2f}%"
            if f"{name}_weighted_accuracy" in f:
                text += f" (weighted {100 * f[f'{name}_weighted_accuracy']:.2f}%)"
            if f"{name}_mean_cost" in f:
                text += f", mean cost of its choice {f[f'{name}_mean_cost']:.3g}"
            parts.append(text)
    if "raised_accuracy" in f:
        parts.append(f"accuracy at raised scores {100 * f['raised_accuracy']:.2f}%")
    if "reach_cost_seat0" in f:
        parts.append(f"reach x cost (a first-order gap estimate): away {f['reach_cost_seat0']:.3g}, "
                     f"home {f['reach_cost_seat1']:.3g}")
    return "; ".join(parts) + f"; written to {out}"


def _no_data(env: str) -> str:
    have = distill_envs()
    solver = GAMES.get(env)
    where = (f"agents/solvers/{solver}/distill.py does not exist yet" if solver
             else "no exact solver of it has a dataset module (agents/solvers/<game>/distill.py)")
    return (f"{env} has no distillation data: {where}; the envs that have: "
            f"{', '.join(have) if have else 'none'}")


def check_out_folder(path: str | Path) -> Path:
    """The checkpoint folder: new, or an empty folder (a ``ValueError`` otherwise)."""
    out = Path(path)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ValueError(f"--out {out} already holds files; choose another --out (a new or "
                         f"empty folder)")
    return out


# -- the command line: dugout train distill -------------------------------------------------------
PROG = "dugout train distill"


def configure(parser: args.Parser) -> None:
    """``dugout train distill``'s flags, one per field of :class:`DistillSettings`."""
    for f in dataclasses.fields(DistillSettings):
        name = "--" + f.name.replace("_", "-")
        default = f.default
        kind = f.metadata.get("type")
        help_ = flags.help_for(f.metadata["help"], kind, f.metadata.get("shown", default))
        default = None if default == "" else default
        if "choices" in f.metadata:
            parser.add_argument(name, dest=f.name, choices=f.metadata["choices"], default=default,
                                help=help_)
        else:
            parser.add_argument(name, dest=f.name, type=kind, default=default, help=help_,
                                nargs="+" if f.name == "net_arch" else None)


def check(ns: argparse.Namespace) -> None:
    """Every flag, checked before anything is built: an env with distillation data, the
    network's depth, ``--sample`` where the dataset takes it, the output folder. Sets
    ``ns.settings``; writes nothing."""
    import inspect
    values = {f.name: getattr(ns, f.name) for f in dataclasses.fields(DistillSettings)}
    module = dataset_module(values["env"])
    if module is None:
        raise args.UsageError("--env", _no_data(values["env"]))
    values["net_arch"] = flags.check_net_arch(values["net_arch"])
    if values["sample"] is not None and "sample" not in inspect.signature(module.dataset).parameters:
        raise args.UsageError("--sample", f"{values['env']}'s dataset has every row and cannot "
                                          f"draw a sample")
    values["out"] = str(values["out"]) if values["out"] else ""
    settings = DistillSettings(**values)
    flags.check_out(settings.out)
    try:
        check_out_folder(settings.out)
    except ValueError as error:
        raise args.UsageError("--out", str(error)) from None
    ns.settings = settings


def run(ns: argparse.Namespace) -> Path:
    """Fit the network as the checked flags say; the checkpoint folder."""
    return train(ns.settings)


def main(argv: list[str] | None = None) -> Path:
    """``python -m dugout.train.distill``: ``dugout train distill``."""
    return args.invoke(PROG, configure, check, run, sys.argv[1:] if argv is None else argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
