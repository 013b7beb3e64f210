"""Play games between managers through the AEC API.

Every game is played with its own seed and each manager is reseeded from it, so a batch
is reproducible game by game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

__all__ = ["GameResult", "play_game", "play_batch", "turns"]


def turns(env):
    """The live turns of ``env``'s current game: yields ``(agent, observation, info)`` each
    time a manager must act, and steps the finished managers' dead steps itself. The caller
    must ``env.step(action)`` after each turn::

        env.reset(seed=1)
        for agent, obs, info in turns(env):
            env.step(my_agent.act(obs, env.unwrapped.view(agent)))
    """
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield agent, obs, info


@dataclass
class GameResult:
    seed: int
    score: tuple[int, int]
    winner: str | None                 # "away", "home", or None for a truncated game
    rewards: dict[str, float]
    decisions: dict[str, int]
    innings: int
    box_score: dict[str, Any] = field(repr=False, default_factory=dict)


def play_game(env, agents: dict[str, Any], seed: int) -> GameResult:
    """One game of ``env`` (a dugout AEC env) between ``agents`` (keyed "away", "home")."""
    env.reset(seed=seed)
    for i, name in enumerate(("away", "home")):
        agents[name].reset(seed=seed * 2 + i)
    views = {name: getattr(a, "needs_view", False) for name, a in agents.items()}
    unwrapped = env.unwrapped
    decisions = {"away": 0, "home": 0}
    rewards: dict[str, float] = {}
    final: dict[str, Any] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            rewards[agent] = reward
            final = info
            env.step(None)
            continue
        decisions[agent] += 1
        env.step(agents[agent].act(obs, unwrapped.view(agent) if views[agent] else None))
    if "illegal_action" in final:
        raise RuntimeError(f"game {seed}: {final['illegal_action']['reason']}")
    game = unwrapped.game
    return GameResult(seed=seed, score=tuple(game.score), winner=final.get("winner"),
                      rewards=rewards, decisions=decisions, innings=game.board.inning,
                      box_score=final.get("box_score", {}))


def play_batch(env, agents: dict[str, Any], seeds: Sequence[int],
               progress: Callable[[int], None] | None = None) -> list[GameResult]:
    results = []
    for i, seed in enumerate(seeds):
        results.append(play_game(env, agents, seed))
        if progress is not None:
            progress(i + 1)
    return results
