"""A trained manager: the policy of a checkpoint, as an agent.

A checkpoint is a folder (written by :func:`dugout.train.checkpoint.save_checkpoint`)::

    meta.json   the env id, the observation and action space sizes, the actor's
                architecture (``net_arch``, ``activation``), the timesteps trained, the
                settings and the dugout version that made it
    policy.pt   the acting policy's weights, tensors only (``torch.save`` of a dict of
                tensors, read back with ``torch.load(weights_only=True)``)
    model.zip   sb3-contrib's MaskablePPO save, for ``--resume`` of one's own run only
                (absent from self-play pool snapshots)

    agent = PolicyAgent.load("runs/thats_baseball/model")            # a checkpoint folder
    agent = PolicyAgent.load("runs/thats_baseball/model", env_id="thats_baseball_v0")

**Loading is safe by construction**: :meth:`PolicyAgent.load` reads only ``meta.json``
(plain JSON, every field checked) and ``policy.pt`` (tensors only: ``torch.load`` with
``weights_only=True`` refuses any other pickled object), and rebuilds the actor network
in plain torch from the architecture in ``meta.json``. It never opens ``model.zip``,
whose cloudpickled entries would run code, so a checkpoint from a stranger can be
loaded. Every problem with a checkpoint is a :class:`CheckpointError` naming the file
(and the field).

``load`` refuses, with a clear error, a checkpoint made for another env (when ``env_id``
is given) and a missing or damaged one; ``act`` refuses an observation of another size.

**How it plays** (``meta.json``'s optional ``play``): ``"greedy"`` (or no ``play``) plays the
most likely legal action, as trained managers always have; ``"sample"`` draws from the
policy's distribution over the legal actions with the manager's own generator (seeded by
``seed`` and ``reset(seed)``; nothing of the game's dice reaches it), for a network taught a
mixed strategy (``dugout train distill`` of an equilibrium that mixes, Bottom of the 9th's
stare-down). :meth:`PolicyAgent.load` plays the checkpoint's mode unless ``deterministic``
is given; exact evaluators value a sampling manager by its probabilities
(``action_probabilities_batch``), not by one draw. Any other ``play`` is refused by name.

**A trained manager that reads the view** (:class:`ViewPolicy`): the same network, fed
the observation its ruleset encodes from the manager's view (the env class's
``encode_view``: ``env.observe(seat)["observation"]`` is ``encode_view(env.view(seat))``)
and masked by the view's legal actions. It is what a search plays its rollouts with when
its ``rollout`` is a checkpoint (``search:rollout=ppo:PATH``): a search's rollouts have a
view and no observation. It makes the same choice as :class:`PolicyAgent` at the same
decision.
Importing this module needs neither torch nor sb3-contrib; loading a checkpoint needs
torch (not sb3-contrib).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from ..envs.core.datafile import read_json_file
from ..envs.core.errors import DataError

__all__ = ["PolicyAgent", "read_meta", "CheckpointError", "META", "WEIGHTS", "MODEL", "PLAY_MODES",
           "plays_greedily",
           "ACTIVATIONS", "build_actor", "actor_from_model", "env_sizes", "check_fits", "ViewPolicy"]

META = "meta.json"
WEIGHTS = "policy.pt"
MODEL = "model.zip"          # SB3's save: only `--resume` reads it, never PolicyAgent
#: A checkpoint's ``play`` modes: the most likely legal action, or a draw from the policy.
PLAY_MODES = ("greedy", "sample")
ACTIVATIONS = ("Tanh", "ReLU", "ELU", "LeakyReLU", "SiLU", "GELU", "Sigmoid")


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: missing, damaged, or made for another env."""


def env_sizes(env: Any) -> tuple[int, int]:
    """The observation length and the number of actions a manager of ``env`` sees: a
    two-manager AEC env's (its first seat's) or a single-agent Gymnasium env's."""
    if callable(getattr(env, "observation_space", None)):           # AEC: spaces per agent
        seat = env.possible_agents[0]
        space, actions = env.observation_space(seat), env.action_space(seat)
    else:
        space, actions = env.observation_space, env.action_space
    if isinstance(getattr(space, "spaces", None), Mapping) and "observation" in space.spaces:
        space = space.spaces["observation"]
    return int(space.shape[0]), int(actions.n)


def check_fits(agent: Any, name: str, env_id: str, env: Any,
               options: Mapping[str, Any] | None = None) -> None:
    """A trained manager ``agent`` (named ``name``) against the env it would play, ``env``
    (``env_id`` built with ``options``): a :class:`CheckpointError` when its observation
    or action sizes are not the env's. A manager that records no sizes passes."""
    meta = getattr(agent, "meta", None)
    if not isinstance(meta, Mapping) or "obs_size" not in meta:
        return
    obs, actions = env_sizes(env)
    if (meta["obs_size"], meta.get("n_actions")) != (obs, actions):
        from ..envs.options import describe_options
        trained = meta.get("env_options", (meta.get("settings") or {}).get("env_options")) or {}
        raise CheckpointError(
            f"{name} was trained with observations of size {meta['obs_size']} and "
            f"{meta.get('n_actions')} actions ({describe_options(trained)}); {env_id} with "
            f"{describe_options(dict(options or {}))} has observations of size {obs} and "
            f"{actions} actions")


def _folder(path: str | os.PathLike) -> Path:
    path = Path(path)
    return path.parent if path.name in (MODEL, META, WEIGHTS) else path


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _read_json(folder: Path, path: str | os.PathLike) -> dict[str, Any]:
    file = folder / META
    if not file.is_file():
        raise CheckpointError(f"no checkpoint at {str(path)!r}: expected a folder with {META} "
                              f"and {WEIGHTS} (as `dugout train` writes)")
    try:
        meta = read_json_file(file, f"checkpoint {META}")
    except DataError as e:               # too large, not UTF-8, not JSON, nested too deep
        raise CheckpointError(str(e)) from None
    if not isinstance(meta, dict):
        raise CheckpointError(f"{file}: must hold a JSON object, not {type(meta).__name__} "
                              f"{_short(meta)}")
    return meta


def _check_fields(meta: dict[str, Any], file: Path, env_id: str | None, path, policy: bool) -> None:
    def field(key: str) -> Any:
        if key not in meta:
            raise CheckpointError(f"{file}: missing field {key!r}")
        return meta[key]

    found = field("env_id")
    if not isinstance(found, str) or not found:
        raise CheckpointError(f"{file}: field 'env_id' must be a non-empty string, got {_short(found)}")
    if env_id is not None and found != env_id:
        raise CheckpointError(f"{str(path)!r} was trained on {found}, not {env_id}")
    for key in ("obs_size", "n_actions"):
        if not _positive_int(field(key)):
            raise CheckpointError(f"{file}: field {key!r} must be a positive integer, "
                                  f"got {_short(meta[key])}")
    if "play" in meta and (not isinstance(meta["play"], str) or meta["play"] not in PLAY_MODES):
        raise CheckpointError(f"{file}: field 'play' must be one of {', '.join(map(repr, PLAY_MODES))} "
                              f"(how the manager plays: the most likely action, or a draw from "
                              f"the policy), got {_short(meta['play'])}")
    if not policy:
        return
    arch = field("net_arch")
    if not isinstance(arch, list) or not all(_positive_int(n) for n in arch):
        raise CheckpointError(f"{file}: field 'net_arch' must be a list of positive integers "
                              f"(the actor's hidden layer sizes), got {_short(arch)}")
    activation = field("activation")
    if not isinstance(activation, str) or activation not in ACTIVATIONS:
        raise CheckpointError(f"{file}: field 'activation' must be one of {', '.join(ACTIVATIONS)}, "
                              f"got {_short(activation)}")


def read_meta(path: str | os.PathLike, env_id: str | None = None, *,
              policy: bool = True) -> dict[str, Any]:
    """The checkpoint's ``meta.json``, checked: a JSON object with ``env_id`` (``env_id``
    when given), positive ``obs_size`` and ``n_actions``, ``play`` one of :data:`PLAY_MODES`
    where present and, with ``policy``, the actor's ``net_arch`` and ``activation``. Any
    problem is a :class:`CheckpointError`."""
    folder = _folder(path)
    meta = _read_json(folder, path)
    _check_fields(meta, folder / META, env_id, path, policy)
    return meta


def plays_greedily(meta: Mapping[str, Any]) -> bool:
    """Whether a checkpoint of (checked) ``meta`` plays its most likely action by default:
    ``play`` absent or ``"greedy"``; ``"sample"`` draws from the policy."""
    return meta.get("play", "greedy") == "greedy"


# -- the actor network ---------------------------------------------------------------------------
def _layer_shapes(meta: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """The tensors of :func:`build_actor`'s network and their shapes, from ``meta`` alone."""
    shapes, last = {}, meta["obs_size"]
    sizes = [*meta["net_arch"], meta["n_actions"]]
    for i, size in enumerate(sizes):
        shapes[f"{2 * i}.weight"] = (size, last)
        shapes[f"{2 * i}.bias"] = (size,)
        last = size
    return shapes


def build_actor(obs_size: int, net_arch: list[int], activation: str, n_actions: int):
    """The acting half of SB3's ``MlpPolicy`` in plain torch: the observation (flat, as SB3's
    ``FlattenExtractor`` leaves it) through ``Linear``/activation layers of ``net_arch`` sizes
    (``mlp_extractor.policy_net``) and a last ``Linear`` to the action logits (``action_net``)."""
    import torch.nn as nn
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}, got {activation!r}")
    layers, last = [], obs_size
    for size in net_arch:
        layers += [nn.Linear(last, size), getattr(nn, activation)()]
        last = size
    layers.append(nn.Linear(last, n_actions))
    return nn.Sequential(*layers).eval()


def actor_from_model(model) -> tuple[Any, dict[str, Any]]:
    """A copy of an SB3 (Maskable)PPO ``MlpPolicy``'s actor as :func:`build_actor`'s network,
    and its architecture (``obs_size``, ``n_actions``, ``net_arch``, ``activation``)."""
    import torch
    import torch.nn as nn
    policy = model.policy
    if type(policy.pi_features_extractor).__name__ != "FlattenExtractor":
        raise ValueError("only SB3's MlpPolicy (a FlattenExtractor) can be exported, not "
                         f"{type(policy.pi_features_extractor).__name__}")
    if len(model.observation_space.shape) != 1 or not hasattr(model.action_space, "n"):
        raise ValueError("only flat Box observations and Discrete actions can be exported")
    modules = list(policy.mlp_extractor.policy_net)
    linears, activations = modules[0::2], modules[1::2]
    if (len(linears) != len(activations) or not all(isinstance(m, nn.Linear) for m in linears)
            or len({type(m).__name__ for m in activations}) > 1):
        raise ValueError(f"the policy net is not Linear/activation pairs: {policy.mlp_extractor.policy_net}")
    activation = type(activations[0]).__name__ if activations else "Tanh"
    arch = {"obs_size": int(model.observation_space.shape[0]), "n_actions": int(model.action_space.n),
            "net_arch": [int(m.out_features) for m in linears], "activation": activation}
    actor = build_actor(arch["obs_size"], arch["net_arch"], activation, arch["n_actions"])
    state = {f"{2 * i}.{k}": v for i, m in enumerate(linears) for k, v in m.state_dict().items()}
    state.update({f"{2 * len(linears)}.{k}": v for k, v in policy.action_net.state_dict().items()})
    with torch.no_grad():
        actor.load_state_dict({k: v.detach().to("cpu", torch.float32).clone() for k, v in state.items()})
    return actor, arch


def _check_weights_file(file: Path) -> None:
    if not file.is_file():
        raise CheckpointError(
            f"{file}: missing. A checkpoint needs the policy's weights as tensors; one made by an "
            f"older dugout has only {MODEL} (SB3's pickle, unsafe unless you made it): if it is "
            f"yours, dugout.train.checkpoint.upgrade_checkpoint() writes {WEIGHTS} from it")


def _load_weights(file: Path, meta: Mapping[str, Any]):
    import torch
    _check_weights_file(file)
    try:
        with warnings.catch_warnings():     # torch warns about pickle protocols it then refuses
            warnings.simplefilter("ignore")
            state = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as e:                  # a pickled object (refused), a damaged file, ...
        reason = (str(e).strip().splitlines() or [""])[0][:200]
        raise CheckpointError(f"{file}: not a tensors-only weights file ({type(e).__name__}: "
                              f"{reason})") from None
    if not isinstance(state, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                              for k, v in state.items()):
        raise CheckpointError(f"{file}: must hold a dict of named tensors, not {type(state).__name__}")
    shapes = _layer_shapes(meta)
    for key in sorted(shapes.keys() - state.keys()):
        raise CheckpointError(f"{file}: no tensor {key!r} (net_arch {meta['net_arch']} in {META})")
    for key in sorted(state.keys() - shapes.keys()):
        raise CheckpointError(f"{file}: unexpected tensor {key!r} for net_arch {meta['net_arch']} "
                              f"in {META}")
    for key, shape in shapes.items():
        if tuple(state[key].shape) != shape:
            raise CheckpointError(
                f"{file}: tensor {key!r} has shape {tuple(state[key].shape)}, but {META} (obs_size "
                f"{meta['obs_size']}, net_arch {meta['net_arch']}, n_actions {meta['n_actions']}) "
                f"needs {shape}")
        if not state[key].is_floating_point():
            raise CheckpointError(f"{file}: tensor {key!r} is {state[key].dtype}, not floating point")
    actor = build_actor(meta["obs_size"], meta["net_arch"], meta["activation"], meta["n_actions"])
    with torch.no_grad():
        actor.load_state_dict({k: v.to(torch.float32) for k, v in state.items()})
    return actor


class PolicyAgent:
    """A trained manager: the policy of a checkpoint, masks honoured.

    ``actor`` is a torch module from ``(N, obs_size)`` float32 observations to ``(N,
    n_actions)`` logits (:func:`build_actor`'s network); :meth:`load` reads one from a
    checkpoint, :meth:`from_model` copies an in-memory SB3 model's.
    ``deterministic=True`` (the default) plays the most likely legal action;
    ``False`` samples from the policy with the agent's own generator, seeded by ``seed``
    and by ``reset(seed)`` (:meth:`load` takes the checkpoint's ``play`` mode when
    ``deterministic`` is not given).
    """

    needs_view = False

    def __init__(self, actor, meta: dict[str, Any], deterministic: bool = True,
                 seed: int | None = None, name: str | None = None):
        import torch.nn as nn
        if not isinstance(actor, nn.Module):
            raise TypeError(f"PolicyAgent needs a torch module (the actor), not {type(actor).__name__}"
                            "; for an SB3 model use PolicyAgent.from_model(model, meta)")
        self.actor = actor.eval()
        self.meta = meta
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.name = name or f"ppo:{meta.get('run', 'policy')}"

    @classmethod
    def load(cls, path: str | os.PathLike, env_id: str | None = None,
             deterministic: bool | None = None, seed: int | None = None) -> PolicyAgent:
        """The manager in checkpoint folder ``path`` (safe for any folder: reads only
        ``meta.json`` and the tensors of ``policy.pt``, never ``model.zip``). It plays as
        the checkpoint's ``play`` says (greedily when absent) unless ``deterministic`` is
        given: ``True`` the most likely legal action, ``False`` a draw from the policy."""
        folder = _folder(path)
        meta = read_meta(path, env_id, policy=False)
        _check_weights_file(folder / WEIGHTS)          # before the fields an old checkpoint lacks
        _check_fields(meta, folder / META, env_id, path, policy=True)
        actor = _load_weights(folder / WEIGHTS, meta)
        if deterministic is None:
            deterministic = plays_greedily(meta)
        return cls(actor, meta, bool(deterministic), seed, name=f"ppo:{folder}")

    @classmethod
    def from_model(cls, model, meta: Mapping[str, Any] | None = None, deterministic: bool = True,
                   seed: int | None = None, name: str | None = None) -> PolicyAgent:
        """The policy of an in-memory SB3 MaskablePPO model (a copy of its weights now);
        ``meta`` adds ``env_id`` and the like, the architecture comes from the model."""
        actor, arch = actor_from_model(model)
        return cls(actor, {**(meta or {}), **arch}, deterministic, seed, name)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def _check(self, obs: np.ndarray, mask: np.ndarray) -> None:
        if obs.shape[-1] != self.meta["obs_size"] or mask.shape[-1] != self.meta["n_actions"]:
            raise CheckpointError(
                f"{self.name} was trained on {self.meta.get('env_id')} with observations of size "
                f"{self.meta['obs_size']} and {self.meta['n_actions']} actions; got an observation "
                f"of size {obs.shape[-1]} and {mask.shape[-1]} actions")

    def policy_probabilities_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The policy's distributions for a batch: ``(N, obs)`` observations, ``(N, n)`` masks."""
        import torch
        obs = np.atleast_2d(np.asarray(observations, dtype=np.float32))
        masks = np.atleast_2d(np.asarray(masks)).astype(bool)
        self._check(obs, masks)
        logits = np.empty(masks.shape, dtype=np.float64)
        with torch.no_grad():          # the policy's logits (what its masked Categorical samples)
            for i in range(0, obs.shape[0], 65_536):
                logits[i:i + 65_536] = self.actor(torch.as_tensor(obs[i:i + 65_536])).numpy()
        logits[~masks] = -np.inf
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        return probs / probs.sum(axis=1, keepdims=True)

    def action_probabilities_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """How this agent plays a batch of decisions: one-hot on the policy's most likely legal
        action when deterministic, the policy's distribution otherwise (exact evaluators use it)."""
        probs = self.policy_probabilities_batch(observations, masks)
        if not self.deterministic:
            return probs
        onehot = np.zeros_like(probs)
        onehot[np.arange(len(probs)), probs.argmax(axis=1)] = 1.0
        return onehot

    def action_probabilities(self, observation: Mapping[str, Any], view: Any = None) -> np.ndarray:
        """How this agent plays one decision (see :meth:`action_probabilities_batch`)."""
        return self.action_probabilities_batch(observation["observation"][None, :],
                                               np.asarray(observation["action_mask"])[None, :])[0]

    def act(self, observation: Mapping[str, Any], view: Any = None) -> int:
        probs = self.action_probabilities(observation)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(self.rng.choice(probs.size, p=probs))


# -- the same policy, reading the view ---------------------------------------------------------------
#: The activations :class:`ViewPolicy` applies in numpy (others run the torch module)
_NUMPY_ACTIVATIONS = {
    "Tanh": np.tanh,
    "ReLU": lambda x: np.maximum(x, 0),
    "Sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "LeakyReLU": lambda x: np.where(x >= 0, x, np.float32(0.01) * x),
    "ELU": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))),
    "SiLU": lambda x: x / (1 + np.exp(-x)),
}


class ViewPolicy:
    """A trained manager (a :class:`PolicyAgent`) that decides from the view: the view is
    encoded into the observation its env would give (``encode_view`` of the env class of
    ``env_id``, the checkpoint's by default) and the network's most likely action among the
    view's legal ones is played (``decide(view)``, ``act(observation, view)``; the
    observation is not read). A search's rollouts play such a manager
    (``search:rollout=ppo:PATH``); its choice is :class:`PolicyAgent`'s at the same decision.

    A sampling manager (the wrapped policy's ``deterministic`` false: a checkpoint whose
    ``play`` is ``"sample"``) samples here too: a network taught a mixed strategy played
    greedily in the rollouts would be another, exploitable, manager. It draws with a
    generator of its own, seeded by ``seed`` and by ``reset(seed)`` (a search reseeds its
    rollout manager in every cell), as :class:`PolicyAgent` draws, so the same seed and
    the same decisions give the same choices as that manager's.

    The layers run in numpy (float32, as torch does; a decision costs a few microseconds
    where a torch call costs tens), except for an activation numpy lacks (``GELU``), which
    runs the torch module. A view that encodes to another size than the network takes is a
    :class:`CheckpointError` naming both."""

    needs_view = True

    def __init__(self, policy: PolicyAgent, env_id: str | None = None, seed: int | None = None):
        from ..envs.registry import spec
        if not isinstance(policy, PolicyAgent):
            raise TypeError(f"ViewPolicy wraps a PolicyAgent, not {type(policy).__name__}")
        self.policy = policy
        self.meta = policy.meta
        self.env_id = env_id or policy.meta.get("env_id")
        trained = policy.meta.get("env_id")
        if trained and self.env_id != trained:
            raise CheckpointError(f"{policy.name} was trained on {trained}, not {self.env_id}")
        env_class = spec(self.env_id, kind=None).env_class
        self.encode = env_class.encode_view
        self.VIEW = getattr(env_class, "VIEW", None)
        self.name = f"view:{policy.name}"
        self.n_actions = int(policy.meta["n_actions"])
        self._layers = self._numpy_layers(policy.actor)
        self.rng = np.random.default_rng(seed)

    @property
    def deterministic(self) -> bool:
        """Whether it plays the most likely legal action (else it samples): the wrapped
        policy's mode."""
        return self.policy.deterministic

    @classmethod
    def load(cls, path: str | os.PathLike, env_id: str | None = None) -> ViewPolicy:
        """The manager of checkpoint ``path`` (:meth:`PolicyAgent.load`: safe for any folder),
        reading the view; refuses a checkpoint made for another env than ``env_id``."""
        return cls(PolicyAgent.load(path, env_id=env_id), env_id)

    @staticmethod
    def _numpy_layers(actor) -> list[tuple[np.ndarray, np.ndarray, Any]] | None:
        """The actor's ``(weight.T, bias, activation)`` layers as float32 arrays (the last
        layer's activation None), or None for an activation numpy does not have here."""
        import torch.nn as nn
        modules = list(actor)
        layers = []
        for i, module in enumerate(modules):
            if isinstance(module, nn.Linear):
                following = modules[i + 1] if i + 1 < len(modules) else None
                act = None
                if following is not None:
                    act = _NUMPY_ACTIVATIONS.get(type(following).__name__)
                    if act is None:
                        return None
                layers.append((module.weight.detach().numpy().astype(np.float32).T.copy(),
                               module.bias.detach().numpy().astype(np.float32).copy(), act))
        return layers

    def reset(self, seed: int | None = None) -> None:
        self.policy.reset(seed)
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def observe_setup(self, setup: Any) -> None:
        """The game's public set-up, passed to the wrapped manager if it reads one (a
        pretrained manager picks its network by the game's options, or refuses them); a
        network it picked anew is the one played from then on."""
        hook = getattr(self.policy, "observe_setup", None)
        if hook is None:
            return
        actor = self.policy.actor
        hook(setup)
        if self.policy.actor is not actor:
            self.meta = self.policy.meta
            self.n_actions = int(self.meta["n_actions"])
            self._layers = self._numpy_layers(self.policy.actor)

    def check_options(self, options: Any) -> None:
        """The wrapped manager's check of a game's options, where it has one (a pretrained
        manager refuses options it was not trained on)."""
        check = getattr(self.policy, "check_options", None)
        if check is not None:
            check(options)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The network's logits for one observation vector (no mask)."""
        x = np.asarray(observation, dtype=np.float32)
        if x.shape[-1] != self.meta["obs_size"]:
            raise CheckpointError(
                f"{self.policy.name} was trained on {self.meta.get('env_id')} with observations of "
                f"size {self.meta['obs_size']}; this game's view encodes to {x.shape[-1]} (another "
                f"set of env options?)")
        if self._layers is None:
            import torch
            with torch.no_grad():
                return self.policy.actor(torch.as_tensor(x[None, :])).numpy()[0]
        for weight, bias, act in self._layers:
            x = x @ weight + bias
            if act is not None:
                x = act(x)
        return x

    def probabilities(self, view: Any) -> np.ndarray:
        """The policy's distribution over all the actions at ``view``'s decision (zero on
        the illegal ones)."""
        legal = list(view.legal)
        logits = self.logits(self.encode(view)).astype(np.float64)
        probs = np.zeros(self.n_actions)
        z = logits[legal] - logits[legal].max()
        probs[legal] = np.exp(z) / np.exp(z).sum()
        return probs

    def decide(self, view: Any) -> int:
        """The network's most likely legal action at ``view``'s decision, or a draw from its
        distribution over the legal actions for a sampling manager."""
        legal = list(view.legal)
        if not self.deterministic:        # (a draw even when one action is legal, as PolicyAgent's)
            probs = self.probabilities(view)
            return int(self.rng.choice(probs.size, p=probs))
        if len(legal) == 1:
            return int(legal[0])
        logits = self.logits(self.encode(view))
        return int(legal[int(np.argmax(logits[legal]))])

    def act(self, observation: Mapping[str, Any] | None, view: Any = None) -> int:
        if view is None:
            raise ValueError(f"{self.name}: act() needs the manager's view (env.unwrapped.view(agent))")
        return self.decide(view)
