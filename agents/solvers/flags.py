"""What the solvers' command lines check alike: the managers of ``--agents``, before a solve.

A solve takes seconds to minutes, and each manager's gap or exploitability is measured
after it; so every manager is checked first (:func:`check_managers`, on
:func:`dugout.agents.registry.check_agents`, the check tournaments make too): a name the
env's registry knows, or a trained manager's checkpoint (``ppo:PATH``) that loads, was
trained on the env and takes the observations and actions of the env the solver plays.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...cli import args
from ...envs.core.errors import DugoutError
from ..ref import AgentRef
from ..registry import check_agents

__all__ = ["check_managers", "add_games"]


def add_games(parser: args.Parser) -> None:
    """``--games``: how many games a solver's check simulates from each state."""
    parser.add_argument("--games", type=args.count(100, args.MAX_GAMES, "games a state"),
                        default=100_000,
                        help=f"games simulated from each state, 100 to {args.MAX_GAMES:,} "
                             f"(default 100,000)")


def check_managers(env_id: str, refs: Sequence[AgentRef | str], env_kwargs: dict[str, Any],
                   flag: str = "--agents") -> dict[str, Any]:
    """Check each manager of ``refs`` for ``env_id`` built with ``env_kwargs``, before any
    work: a :class:`~dugout.cli.args.UsageError` naming ``flag`` and the manager for an
    unknown name, a checkpoint that does not load or was made for another env, or one whose
    observation or action sizes are not the env's. The trained managers, loaded, by their
    text (``ppo:PATH``), so that the run does not load them again."""
    try:
        return check_agents(env_id, refs, env_kwargs)
    except (ValueError, OSError, ImportError, DugoutError) as error:
        raise args.UsageError(flag, str(error)) from None
