"""The PettingZoo AEC base class every dugout ruleset builds on.

It does, once for all rulesets, what a two-manager baseball game needs from the AEC
API: it takes the acting manager from the engine's pending decision (a manager may
decide several times in a row), hands out observations with action masks, handles
illegal actions (raise in ``raw_env()``, lose the game in ``env()``), dead steps
after the game ends, and the +1 / -1 reward at the end (0 each for a game truncated
by ``max_innings`` or by ``max_decisions``).

**The bound on an episode** (``max_decisions``). Every ruleset takes a ``max_decisions``
option (its constructor passes it to this base class): the most decisions (steps
that apply an action) one episode may take, counted from ``reset()`` or ``restore()``. A
rulebook game can go on without end under a legal policy (a Showdown manager who walks
every batter intentionally; Grand Slam managers who hold back the one out card of a deck of
their own; extra innings, which no rulebook ends), while PettingZoo's classic envs all end
in a bounded number of steps, which clients such as Tianshou's collector rely on.
``max_decisions=None`` (the default) is the
ruleset's ``MAX_DECISIONS`` per game, times the number of games in a series;
otherwise a positive int (Python or numpy), anything else raising
:class:`~dugout.envs.core.errors.OptionError` naming the option. A game (or series) still
going after its ``max_decisions``-th decision is cut off exactly as ``max_innings`` cuts
one off: reward 0 each, ``truncations`` True for both agents, the infos' ``"winner"``
``""`` (the same keys as at every step), and then each agent's dead step.
``env.unwrapped.truncated_by`` says why an episode was truncated: ``"max_decisions"``,
``"max_innings"`` (the game was cut off by ``max_innings``) or ``"drawn_series"``; it is
None otherwise. After a cut-off every action mask is all zeros; the observation and the
view show the position where the game stopped (the engine state is left as it was:
``save()`` and ``box_score()`` give it). ``env.unwrapped.decision_count`` is the number of
decisions made in the episode so far.

A ruleset subclass provides the following; its env id (``metadata["name"]``),
``ACTION_MEANINGS``, ``OBS``, ``VIEW``, ``encode_view`` and ``MAX_DECISIONS`` are class
keywords (see :meth:`BaseballAECEnv.__init_subclass__`; class attributes do as well)::

    class GrandSlamEnv(BaseballAECEnv, name="grand_slam_v0", actions=rules.ACTIONS, obs=OBS,
                       view=GrandSlamView, encode_view=encode_view, max_decisions=2_000):

* ``name``: the env id, ``metadata["name"]`` (what ``from dugout.envs import <name>`` imports);
* ``ACTION_MEANINGS``: one label per action index;
* ``OBS``: an :class:`~dugout.envs.core.observation.ObservationSpec`;
* ``_new_game(seed)``: a fresh engine state whose ``pending`` is the first decision;
* ``_apply(action)``: the engine's step, run until the next decision or the end;
* ``VIEW``: the view class, and ``_view(seat)``: what that seat's manager may know, as
  a read-only structured object (a frozen dataclass); agents read it through
  :meth:`BaseballAECEnv.view`;
* ``encode_view(view)``: the observation vector, encoded from that view alone (so the
  observation can never hold more than the manager may know, and a learner, a solver
  or a test can encode a view without an env);
* ``_option_labels(decision)``: what each legal action means for this decision;
* ``_render_text()`` and ``_scene()`` (the picture of ``render_mode="rgb_array"``).

**Infos** have one schema for every ruleset, every agent and every step: the same keys,
string keys only, no ``None`` and values of fixed shapes, so that clients which batch
and store them (Tianshou's collector and replay buffers) can:

* ``"decision"``: ``{"kind": str, "labels": tuple[str, ...]}``, the kind of the agent's
  pending decision and a label for every action index (``""`` for an illegal one);
  ``kind`` is ``""`` and every label ``""`` when the agent has nothing to decide. The
  rich detail of a decision (its subject, the cards and runners at stake) is in
  ``env.view(agent)``;
* ``"score"``: ``{"away": int, "home": int}``, the runs so far;
* ``"winner"``: ``"away"`` or ``"home"`` once the game (or series) is won; ``""`` while
  it is played and for a game cut off by ``max_innings``;
* ``"illegal_action"``: ``""``, or under ``env()`` the reason the game ended on an
  illegal action (who played what at which decision, and the legal actions);
* in a series, ``"series"`` (see :mod:`dugout.envs.core.series`).

The box score, whose size varies, is ``env.unwrapped.box_score()``, not an info. Each
step gives every agent a fresh infos dict (a client may add keys to it); the nested
dicts are shared, so copy one before changing it.

Every env module's docstring opens with :func:`summary_table`, written from the class.

The engine state must expose ``pending`` (a :class:`Decision` or ``None``), ``over``,
``winner`` (0, 1 or ``None``), ``truncated`` and ``score`` (away, home).

A ruleset whose games carry state from one to the next opts in to series play
(``series=N``) with ``PLAYS_SERIES = True``, ``_new_game(seed, carry)`` and
``_carry_over(finished, series)``: see :mod:`dugout.envs.core.series`.
"""

from __future__ import annotations

import importlib
import secrets
import warnings
from typing import Any, Callable, ClassVar, Sequence

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .decisions import Decision, action_mask
from .dice import Dice, ScriptedDice
from .errors import (DataError, IllegalActionError, OptionError, UnknownAgentError,
                     check_max_decisions, show)
from .observation import ObservationSpec
from .series import Series, SeriesGame, check_series, with_series_pieces

__all__ = ["BaseballAECEnv", "AGENTS", "action_index", "summary_table", "FALLBACK_MAX_DECISIONS"]

AGENTS = ("away", "home")

#: ``max_decisions``'s default per game for a ruleset that sets no ``MAX_DECISIONS`` of its
#: own (a user's ruleset): generous, since nothing about its games is known.
FALLBACK_MAX_DECISIONS = 100_000


def action_index(action: Any) -> int | None:
    """The action as an int, or None when it is not an integer: Python and numpy integers,
    and one-element integer arrays (what SB3's ``predict`` returns) or tensors are
    actions; bools, floats, strings and None are not."""
    if action.__class__ is int:         # the common case, first
        return action
    if isinstance(action, (int, np.integer)):
        return None if isinstance(action, (bool, np.bool_)) else int(action)
    if isinstance(action, np.ndarray) or hasattr(action, "__array__"):
        try:
            value = np.asarray(action)
        except (TypeError, ValueError, RuntimeError):
            return None
        if value.size == 1 and value.dtype.kind in "iu":
            return int(value.reshape(()))
    return None


def summary_table(env_class: type, shape_note: str = "", mask_note: str = "") -> str:
    """The table that opens every env module's docstring (PettingZoo's summary): the import
    line, the spaces and the agents, written from ``env_class``'s ``metadata``,
    ``ACTION_MEANINGS`` and ``OBS``, so that it cannot drift from them. ``shape_note``
    follows the observation's dtype (sizes that options change), ``mask_note`` the mask's
    shape."""
    metadata, n = env_class.metadata, len(env_class.ACTION_MEANINGS)
    agents = ", ".join(f'"{agent}"' for agent in AGENTS)
    return "\n".join([
        f"| Import | `from dugout.envs import {metadata['name']}` |",
        "|---|---|",
        "| Actions | Discrete |",
        f"| Parallel API | {'Yes' if metadata['is_parallelizable'] else 'No'} |",
        "| Manual control | No |",
        f"| Agents | `agents = [{agents}]` |",
        "| Action shape | (1,) |",
        f"| Action values | Discrete({n}) |",
        f"| Observation shape | ({env_class.OBS.size},) float32{shape_note}, with an int8 action mask "
        f"of shape ({n},){mask_note} |",
        "| Observation values | bounded per element: the Range column of the observation table "
        "(the Box's low and high) |",
    ])


class BaseballAECEnv(AECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "dugout_base",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    ACTION_MEANINGS: ClassVar[tuple[str, ...]] = ()
    OBS: ClassVar[ObservationSpec]
    VIEW: ClassVar[type]
    #: True for a ruleset that plays series (implements ``_carry_over``; see core.series)
    PLAYS_SERIES: ClassVar[bool] = False
    #: ``max_decisions``'s default per game: each ruleset sets its own, about ten times the
    #: longest game measured under random and adversarial legal policies (the highest legal
    #: action always, the lowest always, the highest for one seat and the lowest for the
    #: other); its env docstring gives the figures
    MAX_DECISIONS: ClassVar[int] = FALLBACK_MAX_DECISIONS

    def __init_subclass__(cls, *, name: str | None = None, actions: Sequence[str] | None = None,
                          obs: ObservationSpec | None = None, view: type | None = None,
                          encode_view: Callable[[Any], np.ndarray] | None = None,
                          max_decisions: int | None = None, plays_series: bool | None = None,
                          **kwargs: Any):
        """A ruleset's class attributes, given as class keywords: ``name`` (the env id, into
        ``metadata["name"]``), ``actions`` (``ACTION_MEANINGS``), ``obs`` (``OBS``), ``view``
        (``VIEW``), ``encode_view`` (a plain function, made a static method),
        ``max_decisions`` (``MAX_DECISIONS``) and ``plays_series`` (``PLAYS_SERIES``). A
        keyword left out keeps what the class body or its base says."""
        super().__init_subclass__(**kwargs)
        if name is not None:
            cls.metadata = {**cls.metadata, "name": name}
        if encode_view is not None:
            cls.encode_view = staticmethod(encode_view)
        for attribute, value in (("ACTION_MEANINGS", actions), ("OBS", obs), ("VIEW", view),
                                 ("MAX_DECISIONS", max_decisions), ("PLAYS_SERIES", plays_series)):
            if value is not None:
                setattr(cls, attribute, value)

    def __init__(self, render_mode: str | None = None, illegal_action: str = "raise",
                 dice: ScriptedDice | None = None, series: Any = None,
                 max_decisions: Any = None):
        super().__init__()
        #: the ``max_decisions`` option as given (None: the default; see :attr:`max_decisions`)
        self.max_decisions_option = check_max_decisions(self.metadata["name"], max_decisions)
        if series is not None and not self.PLAYS_SERIES:
            raise OptionError(f"{self.metadata['name']}: this game does not play series (nothing "
                              f"carries from one game to the next); leave series=None")
        #: (length, best_of) of the series option, or None for a single game
        self.series_format = check_series(self.metadata["name"], series)
        #: the observation's pieces: the ruleset's OBS, then the series pieces in a series
        self.obs_spec = self.OBS if series is None else with_series_pieces(self.OBS)
        self.series_: Series | None = None
        if dice is not None and not isinstance(dice, ScriptedDice):
            raise OptionError(f"{self.metadata['name']}: dice must be a ScriptedDice (for "
                              f"replaying a rulebook example in a test) or None")
        self._scripted = dice
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(
                f"{self.metadata['name']}: render_mode must be one of "
                f"{self.metadata['render_modes']} or None, got {show(render_mode)}")
        if illegal_action not in ("raise", "lose"):
            raise OptionError(
                f"{self.metadata['name']}: illegal_action must be 'raise' or 'lose', "
                f"got {show(illegal_action)}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.possible_agents = list(AGENTS)
        n = len(self.ACTION_MEANINGS)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(self.obs_spec.low, self.obs_spec.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            })
            for a in self.possible_agents
        }
        self._info_cache: dict[Decision, dict[str, Any]] = {}
        #: the infos' decision of a manager with nothing to decide (schema: the module docstring)
        self._no_decision = {"kind": "", "labels": ("",) * n}
        self._score_info: tuple[tuple[int, int], dict[str, int]] | None = None
        # the generator of unseeded resets' seeds: the last seeded reset's seed until an
        # unseeded reset needs it (a generator costs more to make than a game's first decision)
        self._seeds: np.random.Generator | int | None = None
        self.state_ = None
        self.forfeited_by = None
        #: why the episode was truncated ("max_decisions", "max_innings", "drawn_series"), else None
        self.truncated_by: str | None = None
        #: the decisions made in this episode (since ``reset()`` or ``restore()``)
        self.decision_count = 0
        self._decision_limit = 0

    @property
    def max_decisions(self) -> int:
        """The most decisions an episode may take: the ``max_decisions`` option, or by
        default ``MAX_DECISIONS`` per game, times the games of a series."""
        if self.max_decisions_option is not None:
            return self.max_decisions_option
        games = 1 if self.series_format is None else self.series_format[0]
        return self.MAX_DECISIONS * games

    # -- spaces ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def get_action_meanings(self) -> list[str]:
        return list(self.ACTION_MEANINGS)

    # -- the game ---------------------------------------------------------------------
    @property
    def game(self):
        """The engine state (clone it before changing it from outside)."""
        return self.state_

    @property
    def series(self) -> Series | None:
        """The series record (None for a single game); clone it before changing it."""
        return self.series_

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if options:
            # PettingZoo's api_test passes a dummy dict here, so this warns rather than raises.
            warnings.warn(
                f"{self.metadata['name']}: reset() ignores options {sorted(options)}; rule "
                f"options go to the environment constructor", stacklevel=2)
        if seed is None:
            # Gymnasium's convention: after a seeded reset, unseeded ones draw their seeds
            # from a generator that reset seeded, so a client that seeds once reproduces a run
            if self._seeds is None:
                seed = secrets.randbits(63)
            else:
                if not isinstance(self._seeds, np.random.Generator):
                    self._seeds = np.random.default_rng(self._seeds)
                seed = int(self._seeds.integers(2**63))
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise OptionError(f"{self.metadata['name']}: reset(seed=...) needs a non-negative "
                              f"int, got {show(seed)}")
        else:
            self._seeds = int(seed)
        seed = int(seed)
        if self.series_format is None:
            self.state_ = self._new_game(seed)
        else:
            self.series_ = Series(*self.series_format, seed=seed)
            self.state_ = self._new_game(seed, None)
        self._start()

    def save(self):
        """A copy to ``restore()`` later: the engine state, or in a series a :class:`SeriesGame`."""
        if self.series_format is None:
            return self.state_.clone()
        return SeriesGame(self.series_.clone(), self.state_.clone())

    def restore(self, state) -> None:
        """Continue from an engine state (a ``clone()`` or ``from_dict()`` of one), or in a
        series from a :class:`SeriesGame` (``save()`` or ``SeriesGame.from_dict()``).

        Through ``env()``'s order-enforcing wrapper, call ``reset()`` once first, then
        ``env.unwrapped.restore(state)``. Anything else (None, another ruleset's state)
        raises :class:`~dugout.envs.core.errors.DataError` (a ``ValueError``) naming what
        was given and what this env restores, and leaves the env as it was.
        """
        name = self.metadata["name"]
        if self.series_format is None:
            if isinstance(state, SeriesGame):
                raise DataError(f"{name}: this env plays single games (series=None); restore "
                                f"a game state, not a SeriesGame")
            self._check_game_state(state, "restore() takes")
        else:
            if not isinstance(state, SeriesGame):
                raise DataError(f"{name}: this env plays a series; restore a SeriesGame "
                                f"(env.save() or SeriesGame.from_dict()), got {_kind(state)}")
            saved = (state.series.length, state.series.best_of)
            if saved != self.series_format:
                raise DataError(f"{name}: the saved series is {saved} (length, best_of) but this "
                                f"env plays {self.series_format}")
            self._check_game_state(state.game, "a SeriesGame's game is")
            self.series_, state = state.series, state.game
        self.state_ = state
        self._start()

    def _check_game_state(self, state: Any, what: str) -> None:
        """Refuse anything but an engine state of this ruleset (the class a new game has)."""
        expected = type(self.state_) if self.state_ is not None else self._state_class()
        if not isinstance(state, expected):
            raise DataError(f"{self.metadata['name']}: {what} a game state of this ruleset (class "
                            f"{_class_name(expected)}: env.save(), or a clone() or from_dict() "
                            f"of one), got {_kind(state)}")

    def _state_class(self) -> type:
        """The class of this ruleset's engine states (of a new game, made once)."""
        known = type(self).__dict__.get("_STATE_CLASS")
        if known is None:
            game = self._new_game(0) if self.series_format is None else self._new_game(0, None)
            known = type(game)
            type(self)._STATE_CLASS = known
        return known

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        #: the agent whose illegal action ended the game under ``env()``, else None
        self.forfeited_by = None
        self.truncated_by = None
        self.decision_count = 0
        self._decision_limit = self.max_decisions
        self._skip_agent_selection = None
        if self.series_format is not None:
            self._next_game()
        if self.state_.over:
            self.agent_selection = self.agents[0]
            self._finish()
        else:
            self._select()

    def _select(self) -> None:
        decision = self.state_.pending
        agent = AGENTS[decision.actor]
        self.agent_selection = agent
        info = self._info_cache.get(decision)
        if info is None:
            labels = self._option_labels(decision)
            info = {"kind": decision.kind,
                    "labels": tuple(labels[a] if a in labels else ""
                                    for a in range(len(self.ACTION_MEANINGS)))}
            self._info_cache[decision] = info
        self._set_infos(agent, info)

    def _set_infos(self, actor: str | None, decision: dict, winner: str = "",
                   illegal: str = "") -> None:
        """Every agent's infos (the schema in the module docstring): ``decision`` for
        ``actor``, the empty decision for the other agent."""
        score = tuple(self.state_.score)
        cached = self._score_info
        if cached is None or cached[0] != score:
            cached = self._score_info = (score, {"away": int(score[0]), "home": int(score[1])})
        series = self.series_.info() if self.series_format is not None else None
        for a in self.infos:
            info = {"decision": decision if a == actor else self._no_decision,
                    "score": cached[1], "winner": winner, "illegal_action": illegal}
            if series is not None:
                info["series"] = series
            self.infos[a] = info

    def _next_game(self) -> None:
        """In a series: record a finished game and start the next until the series is decided."""
        series = self.series_
        while self.state_.over and len(series.results) < series.game:
            series.record(self.state_)
            if series.over:
                return
            series.advance(self._carry_over(self.state_, series))
            self.state_ = self._new_game(series.game_seed, series.carry_copy())

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        try:
            seat = AGENTS.index(agent)
        except ValueError:
            raise self._unknown_agent("observe", agent) from None
        if self.state_ is None:
            raise RuntimeError(f"{self.metadata['name']}: observe() called before reset()")
        obs = self._encode(seat)
        if self.series_format is not None:
            obs = np.concatenate([obs, self.series_.encode(seat)])
        return {"observation": obs, "action_mask": self._mask(agent)}

    def _mask(self, agent: str) -> np.ndarray:
        """``agent``'s action mask: the pending decision's legal actions if he is to act."""
        state = self.state_
        decision = state.pending
        n = len(self.ACTION_MEANINGS)
        if decision is not None and AGENTS[decision.actor] == agent and not state.over \
                and self.truncated_by != "max_decisions":
            return action_mask(n, decision.legal)
        return np.zeros(n, dtype=np.int8)

    def public_setup(self) -> Any:
        """The game's public set-up: what every manager at the table knows and this env was
        built with (its teams, cards and options), nothing of the game being played. With a
        manager's :meth:`view` it is all a search needs to rebuild the game
        (``sample_state(view, rng, setup)``, each ruleset's ``sample.py``, whose
        ``public_setup(env)`` this calls). The game loops hand it to a manager that has an
        ``observe_setup`` method before each game (:func:`dugout.agents.play.play_game`)."""
        package = type(self).__module__.rpartition(".")[0]
        return importlib.import_module(".sample", package).public_setup(self)

    def view(self, agent: str):
        """What ``agent``'s manager may know now, as a read-only structured object.

        It holds the same information as ``observe(agent)`` (the public state, the
        manager's own private cards, the pending decision and its options), decoded:
        heuristic managers read it instead of the engine's state, so they can never
        see hidden cards or dice to come. Each ruleset documents its view class.
        """
        if self.state_ is None:
            raise RuntimeError(f"{self.metadata['name']}: view() called before reset()")
        if agent not in AGENTS:
            raise self._unknown_agent("view", agent)
        return self._view(AGENTS.index(agent))

    def _unknown_agent(self, method: str, agent: Any) -> UnknownAgentError:
        return UnknownAgentError(f"{self.metadata['name']}: {method}() of an unknown agent "
                                 f"{show(agent)}; the agents are {list(AGENTS)}")

    def action_mask(self) -> np.ndarray:
        """The acting agent's mask (sb3-contrib's name for it); ``observe(agent)["action_mask"]``
        without encoding the observation."""
        return self._mask(self.agent_selection)

    def step(self, action) -> None:
        agent = self.agent_selection
        if not self.agents:
            raise IllegalActionError(f"{self.metadata['name']}: step() after the game is over and "
                                     f"both managers have left it; call reset() for a new game")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self.state_.pending
        index = action_index(action)
        if index is None or index not in decision.legal:
            self._illegal(agent, decision, action)
            return
        self._cumulative_rewards[agent] = 0
        self._apply(index)
        self.decision_count += 1
        if self.series_format is not None:
            self._next_game()
        if self.state_.over:
            self._finish()
        elif self.decision_count >= self._decision_limit:
            self._finish(cut_off=True)
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: str, decision: Decision, action) -> None:
        labels = self._option_labels(decision)
        legal = ", ".join(f"{a} ({labels[a]})" for a in decision.legal)
        index = action_index(action)
        if index is None:
            reason = (f"{agent} played {action!r} ({type(action).__name__}) at a {decision.kind!r} "
                      f"decision: an action is an integer (a Python or numpy integer, or a "
                      f"one-element integer array or tensor); legal actions: {legal}")
        else:
            shown = index
            if 0 <= index < len(self.ACTION_MEANINGS):
                shown = f"{index} ({self.ACTION_MEANINGS[index]})"
            reason = (f"{agent} played illegal action {shown} at a {decision.kind!r} decision; "
                      f"legal actions: {legal}")
        if self.illegal_action == "raise":
            raise IllegalActionError(reason)
        # PettingZoo classic convention: the offender gets -1, the game ends.
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        self.rewards[agent] = -1
        self.terminations = {a: True for a in self.agents}
        self.forfeited_by = agent
        self._set_infos(None, self._no_decision, illegal=reason)
        self._accumulate_rewards()
        self.agent_selection = AGENTS[1 - AGENTS.index(agent)]

    def _finish(self, cut_off: bool = False) -> None:
        """The episode is over: the game (or series) has ended, or with ``cut_off`` the
        ``max_decisions`` bound cuts it off (a truncation, as ``max_innings`` makes)."""
        state = self.state_
        if cut_off:
            cut, winner = True, None
            self.truncated_by = "max_decisions"
        elif self.series_format is None:
            cut, winner = state.truncated, state.winner
        else:   # the series decides: its winner, or a drawn series (no winner) truncates
            cut, winner = False, self.series_.winner
        if cut or winner is None:
            if self.truncated_by is None:
                self.truncated_by = "max_innings" if self.series_format is None else "drawn_series"
            self.rewards = {a: 0 for a in self.agents}
            self.truncations = {a: True for a in self.agents}
        else:
            winner = AGENTS[winner]
            self.rewards = {a: (1 if a == winner else -1) for a in self.agents}
            self.terminations = {a: True for a in self.agents}
        self._set_infos(None, self._no_decision,
                        winner="" if cut or winner is None else winner)
        self._accumulate_rewards()
        # the manager who did not make the last move is asked first
        last = self.agent_selection
        self.agent_selection = AGENTS[1 - AGENTS.index(last)] if last in AGENTS else AGENTS[0]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.state_ is None:
            raise RuntimeError("render() called before reset()")
        if self.render_mode == "rgb_array":
            from .picture import draw      # matplotlib is imported only to draw
            return draw(self._scene())
        text = self._render_text()
        if self.series_format is not None:
            text = self.series_.describe() + "\n" + text
        if self.truncated_by == "max_decisions":
            text += (f"\nCut off after {self.decision_count} decisions (max_decisions="
                     f"{self._decision_limit}): no winner.")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def _dice(self, seed: int) -> Dice | ScriptedDice:
        """The dice of a new game: keyed by ``seed``, or a fresh copy of the scripted dice."""
        return self._scripted.clone() if self._scripted is not None else Dice(seed)

    def _encode(self, seat: int) -> np.ndarray:
        return self.encode_view(self._view(seat))

    # -- hooks ------------------------------------------------------------------------
    def _new_game(self, seed: int, carry: Any = None):
        """A fresh engine state; only a ruleset that plays series takes ``carry``."""
        raise NotImplementedError

    def _carry_over(self, finished, series: Series) -> Any:
        """What the next game of a series starts with, after ``finished`` (PLAYS_SERIES)."""
        raise NotImplementedError(f"{self.metadata['name']} sets PLAYS_SERIES but has no _carry_over")

    @staticmethod
    def encode_view(view) -> np.ndarray:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _option_labels(self, decision: Decision) -> dict[int, str]:
        raise NotImplementedError

    def _view(self, seat: int):
        raise NotImplementedError

    def _render_text(self) -> str:
        raise NotImplementedError

    def _scene(self):
        """The :class:`~dugout.envs.core.picture.Scene` that ``render_mode="rgb_array"`` draws."""
        raise NotImplementedError(f"{self.metadata['name']} draws no pictures (no _scene)")

    def box_score(self) -> dict[str, Any] | None:
        """The game's box score so far as JSON-friendly data (batting lines, the line score,
        pitching where the ruleset keeps it), or None for a ruleset that keeps none."""
        if self.state_ is None:
            raise RuntimeError(f"{self.metadata['name']}: box_score() called before reset()")
        box = getattr(self.state_, "box", None)
        return None if box is None else box.summary(self.state_.board)

    def _decision_text(self) -> str:
        """The pending decision for the rendered text: who decides, and every legal option."""
        d = self.state_.pending
        labels = self._option_labels(d)
        return (f"{AGENTS[d.actor]} to decide ({d.kind}): "
                + "; ".join(f"{a} = {labels[a]}" for a in d.legal))

    def _result_line(self, team_names) -> str:
        """The finished game in a sentence: the winner and the score, or the cut-off."""
        b = self.state_.board
        if b.truncated:
            return f"Game cut off after {b.inning} innings, tied {b.runs[0]}-{b.runs[1]}."
        return f"Final: {team_names[b.winner]} win {max(b.runs)}-{min(b.runs)}."


def _class_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _kind(value: Any) -> str:
    """What was given, for an error: None, or the value's class."""
    return "None" if value is None else f"an object of class {_class_name(type(value))}"
