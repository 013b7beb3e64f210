"""Playing managers against each other through the AEC API: one game loop and one pair player.

Every game is played with its own seed, which fixes the dice; each manager is reseeded
for every game too, so a game is reproducible on its own, whoever plays it and in which
process. Both floors above use this module: training evaluates a policy in memory with
agent objects (:func:`head_to_head`), and tournaments (:mod:`dugout.evaluate.tournament`)
build the agents from names in worker processes and call :func:`play_pairs`.

**Pairs.** A head-to-head result is made of *pairs*: each seed is played twice with the
seats swapped (A away and B home, then B away and A home). The dice are keyed by the
situation (:mod:`dugout.envs.core.dice`), so both games of a pair meet the same dice
wherever the managers' choices leave the game in the same place. Managers are seeded by
*role*: A draws its own random numbers from ``4 * seed`` and B from ``4 * seed + 1`` in
both games of the pair, whatever seat they sit in (seeding by seat would give a random
manager the same choices in the away seat of both games, so two identical stochastic
managers would play mirror-image games and split every pair).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

__all__ = ["GameResult", "PairRecord", "HeadToHead", "play_game", "play_pair", "play_pairs",
           "head_to_head", "turns", "tell_setup", "INDEPENDENT_OFFSET"]

SEATS = ("away", "home")
#: The independent design of a CRN check plays the seat-swapped game on seed + this offset.
INDEPENDENT_OFFSET = 1_000_000_007


def tell_setup(env, agents) -> None:
    """Hand the game's public set-up (``env.unwrapped.public_setup()``) to each of
    ``agents`` that asks for it (has an ``observe_setup`` method: the search manager), after
    the env's reset and before the game's first decision."""
    setup = None
    for agent in agents:
        observe = getattr(agent, "observe_setup", None)
        if observe is not None:
            setup = env.unwrapped.public_setup() if setup is None else setup
            observe(setup)


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


def play_game(env, agents: dict[str, Any], seed: int,
              agent_seeds: dict[str, int] | None = None) -> GameResult:
    """One game of ``env`` (a dugout AEC env) between ``agents`` (keyed "away", "home").

    Each agent is reset with its seed from ``agent_seeds`` (keyed by seat), by default
    ``2 * seed`` away and ``2 * seed + 1`` home.
    """
    env.reset(seed=seed)
    for i, name in enumerate(SEATS):
        agents[name].reset(seed=agent_seeds[name] if agent_seeds is not None else seed * 2 + i)
    tell_setup(env, agents.values())
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
    if final.get("illegal_action"):
        raise RuntimeError(f"game {seed}: {final['illegal_action']}")
    game = unwrapped.game
    return GameResult(seed=seed, score=tuple(game.score), winner=final.get("winner") or None,
                      rewards=rewards, decisions=decisions, innings=game.board.inning,
                      box_score=unwrapped.box_score() or {})


# -- pairs ----------------------------------------------------------------------------------------
def _won(winner: str, seat: str) -> float:
    return 1.0 if winner == seat else (0.5 if winner == "" else 0.0)


@dataclass(frozen=True)
class PairRecord:
    """One seed, played twice with the seats swapped.

    ``a_away`` is the game with A away and B home, ``a_home`` the game with the seats
    swapped; each is ``(away runs, home runs, winner)`` with winner "away", "home" or ""
    for a game cut off by ``max_innings``.
    """
    seed: int
    a_away: tuple[int, int, str]
    a_home: tuple[int, int, str]
    second_seed: int | None = None   # a CRN check's independent design: a_home's own seed

    @property
    def a_wins_away(self) -> float:
        """A's win in the game it played away (1, 0, or 1/2 for a truncated game)."""
        return _won(self.a_away[2], "away")

    @property
    def a_wins_home(self) -> float:
        return _won(self.a_home[2], "home")

    @property
    def a_wins(self) -> float:
        """A's wins in the pair, a truncated game counting 1/2."""
        return self.a_wins_away + self.a_wins_home

    @property
    def b_wins(self) -> float:
        return _won(self.a_away[2], "home") + _won(self.a_home[2], "away")

    @property
    def score(self) -> float:
        """A's pair score: its wins / 2 (0, 1/4, ..., 1)."""
        return self.a_wins / 2

    @property
    def run_diff(self) -> float:
        """A's run differential per game in this pair."""
        away, home = self.a_away, self.a_home
        return ((away[0] - away[1]) + (home[1] - home[0])) / 2

    @property
    def home_wins(self) -> float:
        return _won(self.a_away[2], "home") + _won(self.a_home[2], "home")


def _game(result: GameResult) -> tuple[int, int, str]:
    return (int(result.score[0]), int(result.score[1]), result.winner or "")


def play_pair(env, a, b, seed: int, independent: bool = False) -> PairRecord:
    """Seed ``seed`` twice, A away first, managers seeded by role (A ``4 * seed``, B
    ``4 * seed + 1``). With ``independent=True`` the seat-swapped game is played on seed
    ``seed + INDEPENDENT_OFFSET`` (the same design on dice of its own)."""
    role_a, role_b = 4 * seed, 4 * seed + 1
    g1 = play_game(env, {"away": a, "home": b}, seed, {"away": role_a, "home": role_b})
    s2 = seed + INDEPENDENT_OFFSET if independent else seed
    g2 = play_game(env, {"away": b, "home": a}, s2, {"away": role_b, "home": role_a})
    return PairRecord(int(seed), _game(g1), _game(g2), int(s2) if independent else None)


def play_pairs(env, a, b, seeds: Sequence[int], independent: bool = False) -> list[PairRecord]:
    """:func:`play_pair` for each seed, in order."""
    return [play_pair(env, a, b, s, independent) for s in seeds]


@dataclass(frozen=True)
class HeadToHead:
    """A's result against B over seat-swapped pairs: the mean pair score with its normal
    95% interval over pairs (``score +- 1.96 sd / sqrt(pairs)``; the tournament harness,
    :mod:`dugout.evaluate`, adds ratings, run differentials and tests)."""
    a: str
    b: str
    pairs: list[PairRecord] = field(repr=False)
    score: float
    low: float
    high: float


def _label(agent) -> str:
    return agent if isinstance(agent, str) else getattr(agent, "name", type(agent).__name__)


def head_to_head(env_id: str, a, b, pairs: int, seed: int = 0,
                 env_kwargs: dict[str, Any] | None = None) -> HeadToHead:
    """``pairs`` seat-swapped pairs (seeds ``seed, seed + 1, ...``) between ``a`` and ``b``,
    agent objects or names (:func:`dugout.agents.make_agent`), in this process."""
    from ..envs import make
    from .registry import make_agent
    if pairs < 2:
        raise ValueError(f"a head-to-head needs at least 2 pairs of games, got {pairs}")
    agent_a = make_agent(env_id, a) if isinstance(a, str) else a
    agent_b = make_agent(env_id, b) if isinstance(b, str) else b
    records = play_pairs(make(env_id, **(env_kwargs or {})), agent_a, agent_b,
                         range(seed, seed + pairs))
    scores = [p.score for p in records]
    mean = sum(scores) / pairs
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (pairs - 1))
    half = 1.959963984540054 * sd / math.sqrt(pairs)
    return HeadToHead(_label(a), _label(b), records, mean, max(0.0, mean - half), min(1.0, mean + half))
