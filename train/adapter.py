"""A single-agent Gymnasium view of a two-manager dugout game, for learners such as SB3.

The learner holds one seat; an opponent agent plays the other seat *inside*
``step()``, so every observation and reward the learner sees is its own. (PettingZoo's
SB3 tutorial once trained each agent on the reward of whichever agent moved last; here
the reward is read for the learner's seat at the end of the game, whoever made the
last move, and a test checks it.)

    env = SingleAgentEnv("thats_baseball_v0", opponent="heuristic", seat="alternate", seed=0)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(env.action_masks().argmax())

* ``observation_space`` is the AEC env's observation vector (a ``Box``); the legal
  actions come from :meth:`action_masks`, the name sb3-contrib's MaskablePPO looks for.
* ``seat``: ``"alternate"`` (away, home, away, ... by episode), ``"away"`` or ``"home"``.
* ``opponent``: an agent name of :func:`dugout.agents.make_agent`, an agent, or a
  callable ``opponent(rng) -> agent`` called at every reset (self-play pools use this).
* The reward is +1 / -1 when the learner's team wins / loses, 0 for a game cut off by
  ``max_innings`` (``truncated``) and 0 before the end.
* Episode ``k`` of an adapter seeded ``s`` is game seed ``s * 1_000_003 + k``: a run
  is reproducible, and ``reset(seed=...)`` reseeds the sequence.
* ``shaping="win-expectancy"`` adds potential-based shaping (Ng, Harada and Russell,
  1999): after each learner step the reward also gets ``2 * (W' - W)``, where ``W`` is
  the learner's win expectancy from the ruleset's value tables at its decision points
  (read from its view) and ``W' = 1/2`` at the end of the game, so the shaped return of
  a game is its result plus a constant of the first position. With no discounting this
  leaves the best policy unchanged and tells the learner at once what each choice did.
* ``forced="play"`` plays the learner's single-option decisions for it: the env still asks
  them (so the opponent sees exactly what it sees with ``forced="ask"``, the default), but
  the learner is shown only decisions with a choice. In MLB Showdown's expert game with
  decks about half the learner's decisions are a card window where he can only pass (a
  manager holding cards is asked even then, so that being asked tells nothing of his
  hand); the other rulesets ask none. :attr:`forced_played` counts them. The trainers
  (``dugout train``) play them by default (``--forced ask`` shows them).
* ``teacher="heuristic"`` (an agent name, or an agent) gives :meth:`teacher_action`: what that agent
  would choose at the learner's decision now, from the learner's own observation and
  view. It plays nothing; a trainer may ask it to teach (``dugout.train.ppo --teacher``).
"""

from __future__ import annotations

from typing import Any, Callable

import gymnasium as gym
import numpy as np

from ..agents import make_agent
from ..agents.play import tell_setup
from ..agents.registry import managers
from ..envs import make

__all__ = ["SingleAgentEnv"]

SEATS = ("away", "home")
#: what the adapter does with the learner's single-option decisions: show them, or play them
FORCED = ("ask", "play")


class SingleAgentEnv(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, env_id: str, opponent: Any = "random", seat: str = "alternate",
                 seed: int = 0, env_kwargs: dict[str, Any] | None = None, shaping: str = "none",
                 teacher: Any = None, forced: str = "ask"):
        if seat not in ("alternate",) + SEATS:
            raise ValueError(f"seat must be 'alternate', 'away' or 'home', got {seat!r}")
        if shaping not in ("none", "win-expectancy"):
            raise ValueError(f"shaping must be 'none' or 'win-expectancy', got {shaping!r}")
        if forced not in FORCED:
            raise ValueError(f"forced must be 'ask' or 'play', got {forced!r}")
        self.forced = forced
        #: the learner's single-option decisions played for him (``forced="play"``)
        self.forced_played = 0
        self._potential = None
        if shaping == "win-expectancy":
            self._potential = managers(env_id).win_expectancy
        self.env_id = env_id
        if teacher is None or hasattr(teacher, "act"):
            self._teacher = teacher
        elif isinstance(teacher, str):
            self._teacher = make_agent(env_id, teacher, seed)
        else:
            raise TypeError(f"teacher must be an agent name or an agent, got {teacher!r}")
        self.aec = make(env_id, **(env_kwargs or {}))
        self.raw = self.aec.unwrapped
        self.seat_mode = seat
        if isinstance(opponent, str):
            name = opponent
            self._opponent_factory: Callable[[np.random.Generator], Any] = \
                lambda rng: make_agent(env_id, name, int(rng.integers(2**31)))
        elif callable(opponent) and not hasattr(opponent, "act"):
            self._opponent_factory = opponent
        elif hasattr(opponent, "act"):
            self._opponent_factory = lambda rng: opponent
        else:
            raise TypeError(f"opponent must be an agent name, an agent or a callable, got {opponent!r}")
        space = self.raw.observation_space("away")["observation"]
        self.observation_space = gym.spaces.Box(space.low, space.high, dtype=np.float32)
        self.action_space = gym.spaces.Discrete(self.raw.action_space("away").n)
        self._base_seed = int(seed)
        self._episode = 0
        self._rng = np.random.default_rng(seed)
        self.learner = "away"
        self.opponent = None
        self._mask = np.zeros(self.action_space.n, dtype=bool)

    # -- the game loop -----------------------------------------------------------------
    def _play_opponent(self) -> dict[str, Any] | None:
        """Let the opponent act until it is the learner's turn; the final info if the game ends."""
        aec = self.aec
        while True:
            agent = aec.agent_selection
            obs, _, term, trunc, info = aec.last()
            if term or trunc:
                return info
            if agent == self.learner:
                if self.forced == "play" and obs["action_mask"].sum() == 1:
                    aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
                    self.forced_played += 1
                    continue
                self._obs = obs
                return None
            view = self.raw.view(agent) if getattr(self.opponent, "needs_view", False) else None
            aec.step(self.opponent.act(obs, view))

    def _phi(self) -> float:
        """The shaping potential at the learner's decision point, on the reward's scale."""
        return 2.0 * self._potential(self.raw.view(self.learner)) - 1.0

    def _shaped(self, reward: float, end: bool) -> float:
        if self._potential is None:
            return reward
        phi = 0.0 if end else self._phi()
        reward += phi - self._last_phi
        self._last_phi = phi
        return reward

    def _result(self, info: dict[str, Any]):
        reward = self._shaped(float(self.aec.rewards[self.learner]), end=True)
        truncated = bool(self.aec.truncations[self.learner])
        terminated = not truncated
        obs = self.aec.observe(self.learner)["observation"]
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        return obs, reward, terminated, truncated, {**info, "learner": self.learner}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._base_seed, self._episode = int(seed), 0
            self._rng = np.random.default_rng(seed)
        for _ in range(1000):             # a game the learner never gets to decide is skipped
            game_seed = self._base_seed * 1_000_003 + self._episode
            self.learner = (SEATS[self._episode % 2] if self.seat_mode == "alternate"
                            else self.seat_mode)
            self._episode += 1
            self.opponent = self._opponent_factory(self._rng)
            self.opponent.reset(game_seed)
            if self._teacher is not None:
                self._teacher.reset(game_seed)
            self.aec.reset(seed=game_seed)
            tell_setup(self.aec, (self.opponent, self._teacher))
            if self._play_opponent() is None:
                break
        else:
            raise RuntimeError(f"{self.env_id}: the {self.seat_mode} learner had no decision to make "
                               f"in 1,000 games in a row")
        self._mask = self._obs["action_mask"].astype(bool)
        if self._potential is not None:
            self._last_phi = self._phi()
        return self._obs["observation"], {"learner": self.learner, "game_seed": game_seed}

    def step(self, action):
        if not self._mask.any():
            raise RuntimeError("step() called after the game ended; call reset()")
        self.aec.step(int(action))
        final = self._play_opponent()
        if final is not None:
            return self._result(final)
        self._mask = self._obs["action_mask"].astype(bool)
        return self._obs["observation"], self._shaped(0.0, end=False), False, False, {}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (all False once the game is over)."""
        return self._mask.copy()

    def teacher_action(self) -> int:
        """The teacher's choice at the learner's decision now, from the learner's own
        observation (and view); -1 once the game is over."""
        if self._teacher is None:
            raise RuntimeError("this adapter has no teacher: SingleAgentEnv(..., teacher='heuristic')")
        if not self._mask.any():
            return -1
        view = self.raw.view(self.learner) if getattr(self._teacher, "needs_view", False) else None
        return int(self._teacher.act(self._obs, view))
