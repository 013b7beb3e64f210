"""The trainers' flags: each setting's type and limit, declared once, and the checks that
need the env.

``dugout train``, ``dugout train vector``, ``dugout train challenge``, ``dugout train
rllib`` and ``dugout bench train`` read a learning rate, a discount, a layer size or a
number of timesteps with the same types (made by :mod:`dugout.cli.args`), so each is
refused the same way everywhere, before any training step, as one line naming the flag.
:func:`help_for` writes a flag's help with its limit and default; the checks here are the
ones a type cannot make: an opponent the env knows, or a checkpoint that loads and fits
the env; the output folder of a run; the network's depth.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..cli import args

__all__ = ["count", "real", "limit_of", "help_for", "check_opponent", "check_out", "check_net_arch",
           "check_rollout", "TIMESTEPS", "SEED", "ENVS", "GAMES_AT_ONCE", "STEPS", "BATCH",
           "EPOCHS", "LAYER", "MAX_LAYERS", "LEARNING_RATE", "GAMMA", "GAE_LAMBDA", "ENTROPY",
           "SHARE", "TEACHER_COEF", "TEACHER_COEF_HELP", "TEACHER_FRACTION", "TEACHER_FRACTION_HELP",
           "POOL_SIZE", "EVAL_PAIRS", "EVAL_GAMES", "THREADS", "MAX_ENVS", "MAX_GAMES_AT_ONCE"]

#: A count and a finite number with their limits (kept on the type: ``ArgType.limit``).
count, real = args.count, args.real


#: The most games one trainer steps side by side in a process (SB3's ``n_envs``).
MAX_ENVS = 1024
#: The most games the batched engine steps at once (``num_envs``, ``eval_games``, sizes).
MAX_GAMES_AT_ONCE = 2**20
#: The most hidden layers of a network.
MAX_LAYERS = 16

TIMESTEPS = count(1, args.MAX_TIMESTEPS, "timesteps")
SEED = args.seed
ENVS = count(1, MAX_ENVS, "games side by side")
GAMES_AT_ONCE = count(1, MAX_GAMES_AT_ONCE, "games at once")
STEPS = count(1, 10**6, "decisions a game between updates")
BATCH = count(2, 10**8, "decisions a minibatch; PPO normalises advantages over it")
EPOCHS = count(1, 1000, "passes over a rollout")
LAYER = count(1, args.MAX_LAYER, "units in a hidden layer")
LEARNING_RATE = real(0, 1, lo_open=True, what="a learning rate")
GAMMA = real(0, 1, lo_open=True, what="a discount")
GAE_LAMBDA = real(0, 1, what="GAE lambda")
ENTROPY = real(0, 1, what="an entropy coefficient")
SHARE = real(0, 1, what="a share of the games")
TEACHER_COEF = real(0, 1000, what="the teacher's weight")
TEACHER_COEF_HELP = "the teacher term's starting weight"
TEACHER_FRACTION = real(0, 1000, lo_open=True, what="a share of the run")
TEACHER_FRACTION_HELP = ("share of the run after which the teacher's weight is 0 (1: at the end; "
                         "above 1 it never reaches 0: 2 ends the run at half the starting weight)")
POOL_SIZE = count(1, 1000, "snapshots")
EVAL_PAIRS = count(2, 10**6, "seat-swapped pairs; an interval needs two")
EVAL_GAMES = count(1, MAX_GAMES_AT_ONCE, "games")
THREADS = count(1, args.MAX_WORKERS, "torch threads")


def limit_of(kind: Any) -> str | None:
    """The limit of a shared type (:attr:`dugout.cli.args.ArgType.limit`), as the help shows it."""
    return getattr(kind, "limit", None) or None


def _shown(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return " ".join(map(str, value))
    return "none" if value is None or value == "" else str(value)


def help_for(text: str, kind: Any = None, default: Any = None,
             by_ruleset: dict[str, Any] | None = None) -> str:
    """``text (LIMIT; default DEFAULT)``. ``by_ruleset`` (ruleset: default, the default
    env first) shows the first ruleset's default and the rulesets whose own differs."""
    parts = []
    limit = limit_of(kind)
    if limit:
        parts.append(limit)
    if by_ruleset:
        common = _shown(next(iter(by_ruleset.values())))
        others = [f"{env} {_shown(v)}" for env, v in by_ruleset.items() if _shown(v) != common]
        parts.append(f"default {common}" + (f"; {', '.join(others)}" if others else ""))
    elif default is not None and default != "":
        parts.append(f"default {_shown(default)}")
    return f"{text} ({'; '.join(parts)})" if parts else text


# -- the checks a type cannot make ----------------------------------------------------------------
def check_opponent(env_id: str, ref: Any, names: Iterable[str], flag: str = "--opponent",
                   env_options: dict[str, Any] | None = None) -> str:
    """An opponent (an :class:`~dugout.agents.ref.AgentRef` or its text): one of ``names``,
    or ``ppo:PATH``, a checkpoint that loads (``meta.json`` and tensors only, never a
    pickle) for ``env_id`` and takes the observations and actions of ``env_id`` built
    with ``env_options``. Its text; an :class:`~dugout.cli.args.UsageError` naming
    ``flag`` otherwise."""
    from ..agents.ref import AgentRef
    try:
        ref = AgentRef.parse(ref)
    except ValueError as error:
        raise args.UsageError(flag, str(error)) from None
    names = list(names)
    if not ref.is_checkpoint:
        if ref.name not in names:
            raise args.UsageError(flag, f"unknown opponent {ref.name!r} for {env_id}; known: "
                                        f"{', '.join(names)}, or ppo:PATH for a trained manager")
        return str(ref)
    from ..agents.policy import CheckpointError, PolicyAgent, check_fits
    from ..envs.options import check_env_options
    try:
        agent = PolicyAgent.load(ref.path, env_id=env_id)       # meta.json and tensors only
        env = check_env_options(env_id, env_options or {}, "--env-option")
        check_fits(agent, str(ref), env_id, env, env_options)
    except CheckpointError as error:
        raise args.UsageError(flag, str(error)) from None
    return str(ref)


def check_out(path: str | Path, flag: str = "--out") -> Path:
    """A run's output folder (given, or the default one): a folder that exists and can be
    written in, or one that can be made. Nothing is made."""
    try:
        return args.check_out_dir(str(path))
    except argparse.ArgumentTypeError as error:
        raise args.UsageError(flag, str(error)) from None


def check_net_arch(layers: Sequence[int], flag: str = "--net-arch") -> tuple[int, ...]:
    """Hidden layer sizes (each typed by :data:`LAYER`): one to :data:`MAX_LAYERS` of them."""
    layers = tuple(int(n) for n in layers)
    if not 1 <= len(layers) <= MAX_LAYERS:
        raise args.UsageError(flag, f"must be 1 to {MAX_LAYERS} hidden layer sizes, got "
                                    f"{len(layers)}")
    return layers


def check_rollout(n_steps: int, n_envs: int) -> None:
    """SB3's PPO normalises the advantages over a rollout: it needs two decisions or more."""
    if n_steps * n_envs < 2:
        raise args.UsageError("--n-steps", f"a rollout (--n-steps x --n-envs, {n_steps} x "
                                           f"{n_envs}) needs at least 2 decisions")
