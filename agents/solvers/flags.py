"""What the solvers' command lines check alike: the managers of ``--agents``, before a solve.

A solve takes seconds to minutes, and each manager's gap or exploitability is measured
after it; so every manager is checked first (:func:`check_managers`): a name the env's
registry knows, or a trained manager's checkpoint (``ppo:PATH``) that loads, was trained
on the env and takes the observations and actions of the env the solver plays.

The tournament makes the same checks (``dugout.evaluate.tournament.check_agents``); the
solvers stand on a lower floor than the tournament and cannot import it, so the size
check is repeated here on top of :func:`dugout.agents.make_agent`, which does the rest.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...cli import args
from ...envs import make
from ...envs.core.errors import DugoutError
from ...envs.options import describe_options
from ..ref import AgentRef
from ..registry import agent_names, make_agent

__all__ = ["check_managers"]


def _sizes(env_id: str, env_kwargs: dict[str, Any]) -> tuple[int, int]:
    """The observation length and the number of actions of ``env_id`` built with ``env_kwargs``."""
    env = make(env_id, **env_kwargs)
    seat = env.possible_agents[0]
    return int(env.observation_space(seat)["observation"].shape[0]), int(env.action_space(seat).n)


def check_managers(env_id: str, refs: Sequence[AgentRef | str], env_kwargs: dict[str, Any],
                   flag: str = "--agents") -> dict[str, Any]:
    """Check each manager of ``refs`` for ``env_id`` built with ``env_kwargs``, before any
    work: a :class:`~dugout.cli.args.UsageError` naming ``flag`` and the manager for an
    unknown name, a checkpoint that does not load or was made for another env, or one whose
    observation or action sizes are not the env's. The trained managers, loaded, by their
    text (``ppo:PATH``), so that the run does not load them again."""
    known = agent_names(env_id)
    loaded: dict[str, Any] = {}
    sizes: tuple[int, int] | None = None
    for ref in refs:
        ref = AgentRef.parse(ref)
        text = str(ref)
        if not ref.is_checkpoint:
            if ref.name not in known:
                raise args.UsageError(flag, f"unknown agent {text!r} for {env_id}; known: "
                                            f"{', '.join(known)}, or ppo:PATH (a trained "
                                            f"manager's checkpoint folder)")
            continue
        if text in loaded:
            continue
        try:
            agent = make_agent(env_id, ref, 0)       # missing, damaged, or for another env
        except (ValueError, OSError, ImportError, DugoutError) as error:
            raise args.UsageError(flag, f"{text}: {error}") from None
        meta = getattr(agent, "meta", None)
        if isinstance(meta, dict) and "obs_size" in meta:
            sizes = sizes or _sizes(env_id, env_kwargs)
            if (meta["obs_size"], meta.get("n_actions")) != sizes:
                trained = meta.get("env_options") or {}
                raise args.UsageError(flag, f"{text} was trained with observations of size "
                                            f"{meta['obs_size']} and {meta.get('n_actions')} "
                                            f"actions ({describe_options(trained)}); {env_id} "
                                            f"here has observations of size {sizes[0]} and "
                                            f"{sizes[1]} actions")
        loaded[text] = agent
    return loaded
