"""Ray RLlib recipe: every dugout env as an RLlib ``MultiAgentEnv``, and multi-agent PPO
with action masking on RLlib's new API stack (RLModule, Learner, ConnectorV2).

    pip install 'dugout-baseball[rllib]'       # ray[rllib] and torch; see scripts/test_rllib.sh

    from dugout.integrations.rllib import ppo_config

    config = ppo_config("thats_baseball_v0", policies="shared")
    config.env_runners(num_env_runners=0).training(train_batch_size_per_learner=2000)
    algo = config.build_algo()
    result = algo.train()
    print(result["env_runners"]["agent_episode_returns_mean"])   # {"away": .., "home": ..}

What is here:

* :class:`DugoutMultiAgentEnv` (``DugoutMultiAgentEnv({"env_id": "showdown_v0",
  "level": "advanced"})``): the AEC env made by ``dugout.envs.make(env_id, **options)``
  as a turn-based RLlib ``MultiAgentEnv``. ``reset()`` and ``step()`` return an
  observation only for the manager to act (one may act several times in a row); when
  the game ends, both managers get their last observation, their final reward (+1 / -1,
  0 each for a game cut off by ``max_innings``) and ``terminated`` (or ``truncated`` for a
  cut-off game), with ``"__all__"``. ``reset()`` skips a game that is over before any
  decision (possible in a one-inning game), drawing the next seed as an unseeded
  ``reset()`` of the dugout env does. An illegal action loses the game as in
  ``dugout.envs.make`` (option ``illegal_action="raise"`` raises instead). Each agent's
  observation space is RLlib's action-masking layout,
  ``Dict({"observations": Box(float32, (k,)), "action_mask": Box(0.0, 1.0, (n,), float32)})``;
  ``aec_env`` is the wrapped PettingZoo env (``aec_env.unwrapped.game`` is the engine state).
* :func:`register_envs`: registers every id of ``dugout.envs.env_ids()`` with
  ``ray.tune.registry.register_env`` as ``"dugout/<env_id>"`` (``"dugout/showdown_v0"``),
  so ``config.environment("dugout/showdown_v0", env_config={"level": "advanced"})`` works;
  the ``env_config`` dict holds the env's options.
* :class:`ActionMaskingTorchRLModule`: PPO's default torch RLModule that feeds
  ``"observations"`` to its networks and adds ``log(action_mask)`` (clamped to RLlib's
  ``FLOAT_MIN``) to the action logits, so a masked action is never sampled. It is written
  against RLlib's ``DefaultPPOTorchRLModule`` (the one in RLlib's examples folder is not a
  stable import).
* :func:`ppo_config`: a ``PPOConfig`` for multi-agent PPO with that module, where the two
  seats map to policies as ``policies`` says:

  - ``"shared"`` (the default): self-play, one module ``"shared"`` plays both seats and
    learns from both. Each manager's observation is encoded from his own view (the
    ruleset's ``VIEW``), so one network can play either seat;
  - ``"per_seat"``: two modules, ``"away"`` and ``"home"``, each learning its own seat
    against the other.
* :func:`league_ppo_config`: self-play against a *league* of past snapshots. Both seats
  are played by RLModules: ``"main"`` (the one trained) and ``"league_0"`` ...
  ``"league_<k-1>"`` (frozen copies of ``main`` from earlier in training, which
  :func:`snapshot_to_league` refreshes). Each game, :class:`LeagueMapping` puts ``main``
  in both seats (a ``self_play`` share of the games) or in one seat against a league
  slot, so ``main`` learns from both seats against itself and its past; the callback
  logs ``main``'s result against the league (``main_vs_league``, its mean return, +1 a
  win). ``python -m dugout.train --algo rllib`` (:mod:`dugout.train.rllib`) runs it.
* :func:`export_policy`: an action-masking PPO RLModule's acting policy written as a
  dugout checkpoint (``meta.json`` + ``policy.pt``, tensors only), which
  :class:`dugout.agents.policy.PolicyAgent` loads and tournaments play as ``ppo:PATH``:
  the module's actor (encoder MLP and pi head: ``Linear``/activation layers) is the very
  network ``PolicyAgent`` builds, so the exported agent plays the module's most likely
  legal action.

Nothing in dugout imports this module but :mod:`dugout.train.rllib`. It imports Ray only when something here is used
(the classes are built on first access), so ``import dugout.integrations.rllib`` works
without Ray, and using it without Ray raises an ``ImportError`` that says
``pip install 'dugout-baseball[rllib]'``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import dugout.envs as _envs

__all__ = [
    "DugoutMultiAgentEnv",
    "ActionMaskingTorchRLModule",
    "LeagueCallback",
    "LeagueMapping",
    "ENV_PREFIX",
    "POLICY_CHOICES",
    "MAIN",
    "rllib_env_name",
    "register_envs",
    "make_env",
    "policy_ids",
    "ppo_config",
    "league_ids",
    "league_ppo_config",
    "snapshot_to_league",
    "module_weights",
    "export_policy",
    "export_weights",
]

#: The prefix of the names :func:`register_envs` registers: ``"dugout/thats_baseball_v0"``.
ENV_PREFIX = "dugout/"
#: How the two seats map to RLlib policies (RLModules), see :func:`ppo_config`.
POLICY_CHOICES = ("shared", "per_seat")
#: The agents (seats) of every dugout env.
AGENTS = ("away", "home")
#: reset() skips games over before any decision; this many in a row is an error
_MAX_SKIPPED_GAMES = 1000

_INSTALL_HINT = ("dugout.integrations.rllib needs Ray RLlib and torch: "
                 "pip install 'dugout-baseball[rllib]'")


def _require_ray() -> None:
    """Import Ray RLlib and torch, or raise an ImportError saying how to install them."""
    try:
        import ray.rllib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as error:
        raise ImportError(f"{_INSTALL_HINT} ({error})") from error


def rllib_env_name(env_id: str) -> str:
    """The name :func:`register_envs` registers ``env_id`` under: ``"dugout/<env_id>"``."""
    return ENV_PREFIX + env_id


# -- the env ---------------------------------------------------------------------------

def _build_env_class() -> type:
    _require_ray()
    from gymnasium import spaces
    from ray.rllib.env.multi_agent_env import MultiAgentEnv

    class DugoutMultiAgentEnv(MultiAgentEnv):
        """A dugout env as a turn-based RLlib ``MultiAgentEnv`` (see the module docstring).

            env = DugoutMultiAgentEnv({"env_id": "thats_baseball_v0", "teams": ("sample", "reds")})
            obs, infos = env.reset(seed=1)      # {acting agent: {"observations", "action_mask"}}
            obs, rewards, terminateds, truncateds, infos = env.step({agent: action})

        At the end both agents get an observation, a reward and their flags (and
        ``"__all__"``), and ``infos[agent]`` holds ``score`` ({"away": runs, "home": runs})
        and ``winner`` ("away", "home", or "" when nobody won), as the dugout env's infos.
        """

        def __init__(self, config: dict[str, Any] | None = None):
            """``config``: ``{"env_id": <a dugout env id>, **options}``; the options go to
            ``dugout.envs.make`` (``teams``, ``level``, ``max_innings``, ...). RLlib passes
            its ``env_config`` here (an ``EnvContext``, a dict). ``"forced": "play"`` makes
            every single-option decision for its manager (the env still asks it, so
            neither manager sees anything else: MLB Showdown's card windows where a manager
            holding cards can only pass); ``"ask"`` (the default) hands them to RLlib."""
            super().__init__()
            options = dict(config or {})
            self.forced = options.pop("forced", "ask")
            if self.forced not in ("ask", "play"):
                raise ValueError(f"DugoutMultiAgentEnv: forced must be 'ask' or 'play', got "
                                 f"{self.forced!r}")
            #: single-option decisions made for the managers (``"forced": "play"``)
            self.forced_played = 0
            env_id = options.pop("env_id", None)
            if env_id is None:
                raise ValueError(f"DugoutMultiAgentEnv needs config['env_id'], one of "
                                 f"{', '.join(_envs.env_ids())}")
            self.env_id = env_id
            #: the wrapped PettingZoo AEC env, ``dugout.envs.make(env_id, **options)``
            self.aec_env = _envs.make(env_id, **options)
            self.agents = list(AGENTS)
            self.possible_agents = list(AGENTS)
            self.observation_spaces = {}
            self.action_spaces = {}
            for agent in AGENTS:
                inner = self.aec_env.observation_space(agent)
                action_space = self.aec_env.action_space(agent)
                self.action_spaces[agent] = action_space
                self.observation_spaces[agent] = spaces.Dict({
                    "observations": inner["observation"],
                    "action_mask": spaces.Box(0.0, 1.0, (int(action_space.n),), np.float32),
                })
            self._done = True

        def _obs(self, agent: str) -> dict[str, np.ndarray]:
            obs = self.aec_env.observe(agent)
            return {"observations": np.asarray(obs["observation"], dtype=np.float32),
                    "action_mask": np.asarray(obs["action_mask"], dtype=np.float32)}

        def reset(self, *, seed: int | None = None, options: dict | None = None):
            """A new game (``seed`` as in the dugout env); the first manager to act observes."""
            if options:
                raise ValueError(f"DugoutMultiAgentEnv.reset() takes no options (got "
                                 f"{sorted(options)}); the env's options go in env_config")
            self.aec_env.reset(seed=seed)
            # A game over before any decision (a short game can be: innings=1) gives RLlib
            # nothing to step; skip it as the dugout env's next unseeded reset would.
            for _ in range(_MAX_SKIPPED_GAMES):
                if not self._game_over():
                    break
                self.aec_env.reset()
            else:
                raise RuntimeError(f"DugoutMultiAgentEnv({self.env_id!r}): {_MAX_SKIPPED_GAMES} "
                                   f"games in a row ended before any manager's decision")
            self._done = False
            self._play_forced()
            agent = self.aec_env.agent_selection
            return {agent: self._obs(agent)}, {}

        def _play_forced(self) -> None:
            """With ``"forced": "play"``, make the acting manager's single-option decisions
            until one has a choice or the game ends."""
            while self.forced == "play" and not self._game_over():
                mask = self.aec_env.observe(self.aec_env.agent_selection)["action_mask"]
                if mask.sum() != 1:
                    return
                self.aec_env.step(int(np.flatnonzero(mask)[0]))
                self.forced_played += 1

        def step(self, action_dict: dict[str, Any]):
            """Play the acting manager's action (``action_dict`` holds it, and only it)."""
            if self._done:
                raise RuntimeError("DugoutMultiAgentEnv.step() after the game ended; call reset()")
            agent = self.aec_env.agent_selection
            if agent not in action_dict:
                raise KeyError(f"DugoutMultiAgentEnv.step(): it is {agent!r}'s turn, but the "
                               f"action dict has only {sorted(action_dict)}")
            others = set(action_dict) - {agent}
            if others:
                raise ValueError(f"DugoutMultiAgentEnv.step(): it is {agent!r}'s turn; no "
                                 f"action for {sorted(others)} expected")
            self.aec_env.step(action_dict[agent])
            self._play_forced()
            if self._game_over():
                return self._final()
            actor = self.aec_env.agent_selection
            rewards = {agent: float(self.aec_env.unwrapped.rewards[agent])}
            return ({actor: self._obs(actor)}, rewards, {"__all__": False},
                    {"__all__": False}, {})

        def _game_over(self) -> bool:
            raw = self.aec_env.unwrapped
            return all(raw.terminations[a] or raw.truncations[a] for a in AGENTS)

        def _final(self):
            """Both managers' last observations, final rewards and flags, and the result."""
            raw = self.aec_env.unwrapped
            self._done = True
            game = raw.game
            result = {"score": {"away": int(game.score[0]), "home": int(game.score[1])},
                      "winner": "" if game.winner is None else AGENTS[game.winner]}
            if not game.over:         # ended by an illegal action (illegal_action="lose")
                losers = [a for a in AGENTS if raw.rewards[a] < 0]
                result["illegal_action_by"] = losers[0] if losers else None
            obs = {a: self._obs(a) for a in AGENTS}
            rewards = {a: float(raw.rewards[a]) for a in AGENTS}
            terminateds = {a: bool(raw.terminations[a]) for a in AGENTS}
            truncateds = {a: bool(raw.truncations[a]) for a in AGENTS}
            terminateds["__all__"] = all(terminateds[a] for a in AGENTS)
            truncateds["__all__"] = all(truncateds[a] for a in AGENTS)
            infos = {a: dict(result) for a in AGENTS}
            return obs, rewards, terminateds, truncateds, infos

        def render(self):
            return self.aec_env.render()

        def close(self):
            self.aec_env.close()

    DugoutMultiAgentEnv.__module__ = __name__
    DugoutMultiAgentEnv.__qualname__ = "DugoutMultiAgentEnv"
    return DugoutMultiAgentEnv


# -- the RLModule ----------------------------------------------------------------------

def _build_module_class() -> type:
    _require_ray()
    import torch
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
    from ray.rllib.core.columns import Columns
    from ray.rllib.utils.torch_utils import FLOAT_MIN

    def _split(batch: dict) -> tuple[Any, dict]:
        """The action mask and a shallow copy of ``batch`` whose obs are the observations."""
        obs = batch[Columns.OBS]
        if isinstance(obs, dict):
            batch = dict(batch)
            batch[Columns.OBS] = obs["observations"]
            return obs["action_mask"], batch
        return batch["action_mask"], batch

    def _masked(outs: dict, mask) -> dict:
        logits = outs[Columns.ACTION_DIST_INPUTS]
        outs[Columns.ACTION_DIST_INPUTS] = logits + torch.clamp(
            torch.log(mask.to(logits.dtype)), min=FLOAT_MIN)
        return outs

    class ActionMaskingTorchRLModule(DefaultPPOTorchRLModule):
        """PPO's default torch RLModule with an action mask (see the module docstring).

        Its observation space is the env's ``Dict({"observations", "action_mask"})``; the
        networks (PPO's catalog: an MLP encoder, pi and value heads, configured by the
        spec's ``model_config``) see ``"observations"`` alone."""

        def __init__(self, *args, observation_space=None, **kwargs):
            if "observations" not in getattr(observation_space, "spaces", {}):
                raise ValueError(
                    "ActionMaskingTorchRLModule needs a Dict observation space with "
                    "'observations' and 'action_mask' (DugoutMultiAgentEnv's), got "
                    f"{observation_space}")
            self._space_with_mask = observation_space
            super().__init__(*args, observation_space=observation_space["observations"], **kwargs)

        def setup(self):
            super().setup()
            # the networks are built for "observations"; the module (and its checkpoints'
            # constructor arguments) keeps the env's space with the mask
            self.observation_space = self._space_with_mask

        def _forward(self, batch, **kwargs):
            mask, batch = _split(batch)
            return _masked(super()._forward(batch, **kwargs), mask)

        def _forward_train(self, batch, **kwargs):
            mask, batch = _split(batch)
            return _masked(super()._forward_train(batch, **kwargs), mask)

        def compute_values(self, batch, embeddings=None):
            if embeddings is None:
                _, batch = _split(batch)
            return super().compute_values(batch, embeddings)

    ActionMaskingTorchRLModule.__module__ = __name__
    ActionMaskingTorchRLModule.__qualname__ = "ActionMaskingTorchRLModule"
    return ActionMaskingTorchRLModule


def _build_league_callback_class() -> type:
    _require_ray()
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class LeagueCallback(RLlibCallback):
        """Logs ``main_vs_league``: ``main``'s return (+1 won, -1 lost, 0 cut off) in each
        game it played against a league slot (window of the last 200 games)."""

        def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
            seats = {agent: episode.module_for(agent) for agent in AGENTS}
            mains = [agent for agent, module in seats.items() if module == MAIN]
            if len(mains) != 1 or metrics_logger is None:
                return                      # main against itself: no news
            try:
                value = float(episode.agent_episodes[mains[0]].get_return())
            except KeyError:                # main did not step in this chunk of the game
                return
            metrics_logger.log_value("main_vs_league", value, reduce="mean", window=200)

    LeagueCallback.__module__ = __name__
    LeagueCallback.__qualname__ = "LeagueCallback"
    return LeagueCallback


_LAZY = {"DugoutMultiAgentEnv": _build_env_class,
         "ActionMaskingTorchRLModule": _build_module_class,
         "LeagueCallback": _build_league_callback_class}


def __getattr__(name: str):
    """Build the Ray-based classes on first access (so importing this module needs no Ray)."""
    build = _LAZY.get(name)
    if build is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    cls = build()
    globals()[name] = cls
    return cls


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


# -- registration and the PPO config ---------------------------------------------------

def make_env(env_id: str, **options: Any):
    """A :class:`DugoutMultiAgentEnv` of ``env_id`` with the env's ``options``."""
    return __getattr__("DugoutMultiAgentEnv")({"env_id": env_id, **options})


def _creator(env_id: str):
    def create(env_config=None):
        options = dict(env_config or {})
        if options.pop("env_id", env_id) != env_id:
            raise ValueError(f"{rllib_env_name(env_id)} makes {env_id}; its env_config "
                             f"names another env_id")
        return make_env(env_id, **options)
    create.__name__ = f"make_{env_id}"
    return create


def register_envs(env_ids=None) -> list[str]:
    """Register dugout envs with ``ray.tune.registry.register_env`` as ``"dugout/<env_id>"``:
    the ids given, or every one of ``dugout.envs.env_ids()``. Returns the names registered.
    The env's options come from RLlib's ``env_config`` dict."""
    _require_ray()
    from ray.tune.registry import register_env

    ids = _envs.env_ids() if env_ids is None else tuple(env_ids)
    names = []
    for env_id in ids:
        _envs.spec(env_id)          # an unknown id fails here, naming the known ones
        name = rllib_env_name(env_id)
        register_env(name, _creator(env_id))
        names.append(name)
    return names


def _shared_policy(agent_id, episode=None, **kwargs) -> str:
    return "shared"


def _seat_policy(agent_id, episode=None, **kwargs) -> str:
    return agent_id


def policy_ids(policies: str = "shared") -> tuple[str, ...]:
    """The RLModule ids of a ``policies`` choice: ``("shared",)`` or ``("away", "home")``."""
    if policies == "shared":
        return ("shared",)
    if policies == "per_seat":
        return AGENTS
    raise ValueError(f"policies must be one of {POLICY_CHOICES}, got {policies!r}")


def ppo_config(env_id: str = "thats_baseball_v0", *, policies: str = "shared",
               env_options: dict[str, Any] | None = None,
               model_config: dict[str, Any] | None = None, seed: int | None = None,
               **training: Any):
    """A ``PPOConfig`` (new API stack) for multi-agent PPO with action masking on ``env_id``.

    * ``policies``: ``"shared"`` (self-play: one module ``"shared"`` for both seats) or
      ``"per_seat"`` (modules ``"away"`` and ``"home"``), see the module docstring;
    * ``env_options``: the env's options (``dugout.envs.make``), RLlib's ``env_config``;
    * ``model_config``: the RLModule's ``model_config`` (RLlib's ``DefaultModelConfig``
      keys, e.g. ``{"fcnet_hiddens": [128, 128]}``);
    * ``seed``: ``config.debugging(seed=...)``, which seeds the env runners' resets too;
    * any other keyword goes to ``config.training(...)`` (``lr``, ``train_batch_size_per_learner``,
      ``minibatch_size``, ``num_epochs``, ...).

    The config registers the envs (:func:`register_envs`) and leaves the resources (env
    runners, learners) at RLlib's defaults: set them with ``config.env_runners(...)`` and
    ``config.learners(...)``, then ``config.build_algo()``.
    """
    _require_ray()
    _envs.spec(env_id)
    modules = policy_ids(policies)
    return _masked_ppo_config(env_id, modules,
                              _shared_policy if policies == "shared" else _seat_policy,
                              list(modules), env_options, model_config, seed, training)


def _masked_ppo_config(env_id: str, modules, mapping, to_train: list[str],
                       env_options: dict[str, Any] | None, model_config: dict[str, Any] | None,
                       seed: int | None, training: dict[str, Any], callbacks=None):
    """What :func:`ppo_config` and :func:`league_ppo_config` share: the registered env, one
    :class:`ActionMaskingTorchRLModule` per module id in ``modules``, seated by ``mapping``,
    ``to_train`` updated; ``training`` to ``config.training``, ``seed`` to ``debugging``."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    register_envs([env_id])
    module_class = __getattr__("ActionMaskingTorchRLModule")
    spec = {pid: RLModuleSpec(module_class=module_class, model_config=dict(model_config or {}))
            for pid in modules}
    config = (
        PPOConfig()
        .environment(rllib_env_name(env_id), env_config=dict(env_options or {}))
        .multi_agent(policies=set(modules), policy_mapping_fn=mapping, policies_to_train=to_train)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=spec))
    )
    if callbacks is not None:
        config = config.callbacks(callbacks)
    if training:
        config = config.training(**training)
    if seed is not None:
        config = config.debugging(seed=seed)
    return config


# -- self-play against a league of past snapshots ------------------------------------------------

#: The module a league run trains (it plays both seats).
MAIN = "main"


def league_ids(league_size: int) -> tuple[str, ...]:
    """The frozen league slots' module ids: ``("league_0", ..., "league_<k-1>")``."""
    if not isinstance(league_size, int) or league_size < 1:
        raise ValueError(f"league_size must be a positive integer, got {league_size!r}")
    return tuple(f"league_{i}" for i in range(league_size))


class LeagueMapping:
    """Which module plays each seat of a game (RLlib's ``policy_mapping_fn``).

    Decided per game from the episode's id (the same for both seats, in any process): a
    ``self_play`` share of the games puts ``main`` in both seats; the others put ``main``
    in one seat, each seat as often, against one of the ``league_size`` slots, each as
    often. A plain picklable object, so remote env runners use it as it is."""

    def __init__(self, league_size: int, self_play: float = 0.5):
        if not 0.0 <= self_play <= 1.0:
            raise ValueError(f"self_play must be a share of the games, from 0 to 1, got {self_play!r}")
        self.slots = league_ids(league_size)
        self.self_play = float(self_play)

    def seats(self, episode_id: str) -> dict[str, str]:
        """The module of each seat in the game with this episode id."""
        import zlib
        draw = zlib.crc32(str(episode_id).encode())
        if (draw % 10_000) / 10_000 < self.self_play:
            return {agent: MAIN for agent in AGENTS}
        draw //= 10_000
        main_seat = AGENTS[draw % 2]
        opponent = self.slots[(draw // 2) % len(self.slots)]
        return {agent: MAIN if agent == main_seat else opponent for agent in AGENTS}

    def __call__(self, agent_id, episode=None, **kwargs) -> str:
        episode_id = getattr(episode, "id_", None) if episode is not None else None
        return self.seats(episode_id if episode_id is not None else "")[agent_id]


def league_ppo_config(env_id: str = "thats_baseball_v0", *, league_size: int = 4,
                      self_play: float = 0.5, env_options: dict[str, Any] | None = None,
                      model_config: dict[str, Any] | None = None, seed: int | None = None,
                      **training: Any):
    """A ``PPOConfig`` for self-play against a league of past snapshots on ``env_id``: module
    ``main`` (trained, :class:`ActionMaskingTorchRLModule`) and ``league_size`` frozen
    slots of the same architecture, seated by :class:`LeagueMapping` (``self_play``: the
    share of games ``main`` plays itself), with :class:`LeagueCallback`'s metric. The slots
    start as whatever the modules are built with; call :func:`snapshot_to_league` after
    ``build_algo()`` to fill them with ``main`` (and then every few iterations).

    ``env_options``, ``model_config``, ``seed`` and the keywords for ``config.training``
    are as for :func:`ppo_config`; the resources are left to the caller.
    """
    _require_ray()
    _envs.spec(env_id)
    mapping = LeagueMapping(league_size, self_play)
    return _masked_ppo_config(env_id, (MAIN, *mapping.slots), mapping, [MAIN], env_options,
                              model_config, seed, training, __getattr__("LeagueCallback"))


def module_weights(algo, module_id: str = MAIN) -> dict[str, Any]:
    """The learner's weights of one module (what the next update starts from)."""
    return algo.learner_group.get_weights([module_id])[module_id]


def snapshot_to_league(algo, slots) -> None:
    """Copy ``main``'s current weights into the league slot(s) ``slots`` (a module id or
    several), on the learner and on every env runner."""
    slots = [slots] if isinstance(slots, str) else list(slots)
    weights = module_weights(algo, MAIN)
    algo.set_state({"learner_group": {"learner": {"rl_module": {slot: weights for slot in slots}}}})


# -- exporting a policy as a dugout checkpoint ---------------------------------------------------

def _actor_layers(module) -> tuple[list, str]:
    """The ``Linear`` layers of a PPO module's acting path (actor encoder, then pi head) and
    their one activation, or a ``ValueError`` naming what a dugout checkpoint cannot hold."""
    import torch.nn as nn
    from dugout.agents.policy import ACTIVATIONS

    encoder = getattr(module, "encoder", None)
    actor = getattr(encoder, "actor_encoder", None)          # separate actor and critic
    if actor is None:
        actor = getattr(encoder, "encoder", None)             # vf_share_layers: one encoder
    parts = [getattr(getattr(part, "net", None), "mlp", None)
             for part in (actor, getattr(module, "pi", None))]
    if any(not isinstance(part, nn.Sequential) for part in parts):
        raise ValueError(f"cannot export {type(module).__name__}: expected PPO's MLP encoder and "
                         f"pi head (RLlib's default catalog, fcnet_hiddens)")
    layers = [layer for part in parts for layer in part]
    linears, activations = layers[0::2], layers[1::2]
    kinds = {type(a).__name__ for a in activations}
    if (not all(isinstance(m, nn.Linear) and m.bias is not None for m in linears)
            or len(linears) != len(activations) + 1 or len(kinds) > 1
            or not kinds <= set(ACTIVATIONS)):
        found = ", ".join(type(m).__name__ for m in layers)
        raise ValueError(
            f"cannot export this module's actor as a dugout checkpoint: it must be Linear layers "
            f"with biases and one activation of {', '.join(ACTIVATIONS)} between them (set "
            f"head_fcnet_hiddens=[] or its activation to fcnet_activation); found {found}")
    return linears, (kinds.pop() if kinds else "Tanh")


def export_policy(module, folder, env_id: str, meta: dict[str, Any] | None = None):
    """Write ``module``'s acting policy (an :class:`ActionMaskingTorchRLModule`, or any PPO
    default torch module over a Dict observation with ``"observations"``) into ``folder``
    as a dugout checkpoint: ``policy.pt`` (the actor's tensors, as
    :func:`dugout.agents.policy.build_actor` names them) and ``meta.json`` (``env_id``,
    the sizes, ``net_arch``, ``activation``, and ``meta``), each written atomically,
    ``meta.json`` last. Returns the folder; ``PolicyAgent.load(folder)`` plays it."""
    import json
    from pathlib import Path

    import torch
    from dugout import __version__
    from dugout.train.checkpoint import atomic_write

    linears, activation = _actor_layers(module)
    space = getattr(module, "observation_space", None)
    inner = space["observations"] if "observations" in getattr(space, "spaces", {}) else space
    arch = {"obs_size": int(inner.shape[0]), "n_actions": int(module.action_space.n),
            "net_arch": [int(m.out_features) for m in linears[:-1]], "activation": activation}
    if linears[0].in_features != arch["obs_size"] or linears[-1].out_features != arch["n_actions"]:
        raise ValueError(f"the module's actor maps {linears[0].in_features} inputs to "
                         f"{linears[-1].out_features} actions, not {arch['obs_size']} to "
                         f"{arch['n_actions']}")
    weights = {}
    for i, layer in enumerate(linears):
        weights[f"{2 * i}.weight"] = layer.weight.detach().to("cpu", torch.float32).contiguous().clone()
        weights[f"{2 * i}.bias"] = layer.bias.detach().to("cpu", torch.float32).contiguous().clone()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    info = {**(meta or {}), "env_id": env_id, "dugout_version": __version__, **arch}
    atomic_write(folder / "policy.pt", lambda tmp: torch.save(weights, tmp))
    atomic_write(folder / "meta.json", lambda tmp: Path(tmp).write_text(json.dumps(info, indent=2)))
    return folder


def export_weights(weights: dict[str, Any], folder, env_id: str, *,
                   env_options: dict[str, Any] | None = None,
                   model_config: dict[str, Any] | None = None,
                   meta: dict[str, Any] | None = None):
    """:func:`export_policy` for a module's weights (``module_weights(algo)``): they are
    loaded, strictly, into an inference-only :class:`ActionMaskingTorchRLModule` built for
    ``env_id`` with ``env_options`` and ``model_config`` (the training run's), which is
    then exported."""
    _require_ray()
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    model_config = dict(model_config or {})
    # PPO's learners keep separate actor and critic encoders unless told to share one
    model_config.setdefault("vf_share_layers",
                            not any(str(k).startswith("encoder.actor_encoder.") for k in weights))
    env = make_env(env_id, **dict(env_options or {}))
    module = RLModuleSpec(module_class=__getattr__("ActionMaskingTorchRLModule"),
                          observation_space=env.get_observation_space(AGENTS[0]),
                          action_space=env.get_action_space(AGENTS[0]),
                          model_config=model_config, inference_only=True).build()
    module.set_state(weights)
    return export_policy(module, folder, env_id, meta)
