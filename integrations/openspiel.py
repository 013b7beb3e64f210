"""dugout's games in OpenSpiel: every ruleset, and the Manager Challenge, as a Python pyspiel game.

    import pyspiel
    import dugout.integrations.openspiel            # registers the games
    game = pyspiel.load_game("dugout_showdown", {"level": "expert", "seed": 7})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()                                 # [1.0, -1.0]: away won

(``pip install 'dugout-baseball[openspiel]'`` installs OpenSpiel; without it, importing this
module raises an ``ImportError`` whose message is that one line.)

**Games.** Each registered ruleset ``<name>_v0`` is the pyspiel game ``dugout_<name>``
(:data:`GAME_NAMES`): ``dugout_thats_baseball``, ``dugout_grand_slam``, ``dugout_showdown``,
``dugout_bottom_ninth``, ``dugout_pokemon_baseball`` (two players: 0 is ``"away"``, 1 is
``"home"``) and ``dugout_manager_challenge`` (one player, the home manager). A game's
parameters are its env's options (the env checks them: an unknown one or a bad value raises
naming it), plus two of OpenSpiel's own:

* ``chance``: ``"sampled"`` (the engine's own keyed dice, :class:`~dugout.envs.core.dice.Dice`,
  roll inside the moves: no chance node) or ``"explicit"`` (every die the engine rolls is a
  chance node whose outcomes, ``chance_outcomes()``, are the faces of that die; see
  :class:`ChanceDice`). The default is each ruleset's (:data:`DEFAULT_CHANCE`, ``docs/openspiel.md``
  says why).
* ``seed`` (sampled chance): every initial state of the game object plays the env's
  ``reset(seed=seed)``, the same dice each time, as a game's parameters fix it;
  ``game.initial_state(seed=k)`` plays ``reset(seed=k)`` (an RL loop or an evaluation varies
  ``k``: ``new_initial_state()`` cannot take a seed, and pyspiel makes initial states of its own
  to clone and to measure tensors, so a game that moved to new dice at each one would not be
  reproducible). So OpenSpiel's own loops on a sampled game (its MCCFR, ``evaluate_bots``
  from ``new_initial_state()``) see one dice world, the seed's: vary ``initial_state(seed=k)``
  or use explicit chance.

A parameter's type follows the option's annotation: ``int``, ``float``, ``bool`` and ``str``
are parameters of that type; ``int | None`` and ``bool | None`` (``max_innings``,
``max_decisions``, ``dh``, ``point_cap``...) int parameters, ``-1`` (:data:`UNSET`) for None
(a bool: 0 or 1). Any other option, and one that takes values of more than one type
(``teams``, ``cards``, ``decks``, ``series``, ``condition``, Bottom of the 9th's ``draft``
and ``support``), is a string parameter, ``""`` for the env's default, read as JSON when it
parses (``"3"``, ``"true"``, ``'{"games": 3}'``), as words for a list (``"sample reds"``,
``"default null"``: pyspiel's game strings cannot hold a comma, so a value with one can be
given in a parameter dict but not in a game string), else as the plain string.
:func:`game_parameters` turns an options dict into parameters and :func:`load_game` does
both::

    game = load_game("bottom_ninth_v0", mode="game", teams="choose")

**States** are the env's states: legal actions are the pending decision's (the env's action
mask), ``apply_action`` is the env's ``step`` (an illegal action raises the raw env's
``IllegalActionError``), ``returns`` are the env's rewards (+1 / -1 at the end, 0 each for a
game cut off by ``max_innings`` or ``max_decisions``; the Manager Challenge's rewards are its
Manager Points, or +1 / -1 per game with ``reward="win"``, each step's in ``rewards()``). The
information state and the observation of a player are his manager's view
(``env.unwrapped.view(agent)``) encoded by the env's own encoder: ``information_state_tensor(p)``
and ``observation_tensor(p)`` are ``env.observe(agent)["observation"]``, and the strings name
the seat, his decision and legal actions and the tensor's non-zero entries. They hold exactly
what the seat may know: the view is Markov (what is on the table now), so the information
state is not a perfect-recall history. ``str(state)`` is the env's text (a spectator's) with a
digest of the whole saved state. ``clone()`` copies the engine state; serialization
(``state.serialize()``, ``pyspiel.serialize_game_and_state`` for explicit chance) writes the
engine's JSON save (``to_dict()``) and reads it back with ``from_dict()``.
``state.resample_from_infostate(player, sampler)`` draws a full state consistent with that
player's view with the ruleset's own determinization (``envs/<ruleset>/sample.py``), which
OpenSpiel's IS-MCTS and :class:`DeterminizedMCTSBot` use.

**Bots.** :class:`ManagerBot` is any dugout manager (``"heuristic"``, ``"random"``, ...) as a
``pyspiel.Bot``; :class:`ManagerRolloutEvaluator` an MCTS ``Evaluator`` whose rollouts play two
dugout managers; :class:`DeterminizedMCTSBot` runs OpenSpiel's ``MCTSBot`` on states redrawn
from the acting player's information state (a fresh world per simulation), so that the search
never reads a hidden card, a committed pitch or the dice to come.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import inspect
import json
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

_INSTALL_HINT = ("dugout.integrations.openspiel needs OpenSpiel: "
                 "pip install 'dugout-baseball[openspiel]'")
try:
    import pyspiel
    from open_spiel.python.algorithms import mcts as _mcts
except ImportError as _error:        # one line that says how to get it
    raise ImportError(_INSTALL_HINT) from _error

from ..envs import registry as _registry
from ..envs.core.aec import AGENTS
from ..envs.core.dice import Dice, ScriptedDice
from ..envs.core.errors import OptionError, show
from ..envs.core.series import SeriesGame
from ..envs.options import RESERVED_OPTIONS

__all__ = ["GAME_NAMES", "DEFAULT_CHANCE", "CHANCE_MODES", "load_game", "game_parameters",
           "register", "ChanceDice", "DugoutGame", "DugoutState", "ManagerBot",
           "ManagerRolloutEvaluator", "DeterminizedMCTSBot", "information_key", "UNSET"]

#: How chance is played: the engine's keyed dice inside the moves, or a chance node per die.
CHANCE_MODES = ("sampled", "explicit")

#: Each ruleset's chance mode when the ``chance`` parameter is left out (``docs/openspiel.md``
#: says why). A ruleset not named here samples.
DEFAULT_CHANCE = {
    # the only hidden thing is the dice: with a chance node per die the game is one of perfect
    # information (MCTS reads no secret); a plate appearance rolls two or three d6
    "thats_baseball_v0": "explicit",
    # a pitch rolls the Pitch die, Control and Swing d6 (and the run phase's): few dice per move,
    # which the exact solver enumerates too
    "bottom_ninth_v0": "explicit",
}

#: The most outcomes of one draw in explicit chance: a die has at most 20 faces (Showdown's
#: d20) and a shuffle draws ``randbelow(n)`` for n up to the number of cards shuffled.
_MAX_CHANCE_OUTCOMES = {"thats_baseball_v0": 6, "bottom_ninth_v0": 64, "pokemon_baseball_v0": 6,
                        "manager_challenge_v0": 64}
_DEFAULT_MAX_CHANCE_OUTCOMES = 128
#: A bound on the dice rolled per decision in explicit chance (``max_chance_nodes_in_history``
#: is this times ``max_decisions``): no rule caps them (Bottom of the 9th's run phase rolls
#: again until a side succeeds), so this is a bound no game measured comes near.
_DRAWS_PER_DECISION = 64


def _game_name(env_id: str) -> str:
    return "dugout_" + env_id.removesuffix("_v0")


#: The pyspiel short name of each built-in env id.
GAME_NAMES: dict[str, str] = {env_id: _game_name(env_id)
                              for env_id in _registry.env_ids("all")}


# -- parameters ---------------------------------------------------------------------------------
#: Options that take values of other types than their annotation says: text parameters (the
#: env takes True or "random" for Bottom of the 9th's ``draft``, True or "shared" for its
#: ``support``). Every other option's parameter type follows its annotation (:class:`_Option`).
_MORE_VALUES = {("bottom_ninth_v0", "draft"), ("bottom_ninth_v0", "support")}
#: Text options whose value may be a list given as words (``"default null"``): those whose
#: default is a tuple, and these.
_WORD_LISTS = {("showdown_v0", "decks")}
#: A parameter's "unset" value: None, for an option that may be None.
UNSET = -1
_TYPES_BY_NAME = {"int": int, "float": float, "bool": bool, "str": str}


@dataclass(frozen=True)
class _Option:
    """One env option as a parameter, by its annotation: ``kind`` is ``"plain"`` (annotated
    ``int``, ``float``, ``bool`` or ``str``: a parameter of that type), ``"int"`` (``int |
    None``: an int, -1 for None), ``"bool"`` (``bool | None``: an int, -1 None, 0 False, 1
    True) or ``"text"`` (any other annotation, ``Any`` or a tuple, or an option of
    :data:`_MORE_VALUES`: a string, "" for the env's default, read as JSON, words or the
    plain string: :func:`_read_option`); ``words``: a text option that takes a list as words."""
    name: str
    default: Any
    kind: str
    words: bool = False

    @property
    def parameter_default(self) -> Any:
        if self.kind in ("int", "bool"):
            return UNSET if self.default is None else int(self.default)
        return {"plain": self.default, "text": ""}[self.kind]


def _options(env_id: str) -> dict[str, _Option]:
    """The env's options (less the harness's own: render_mode, illegal_action, dice)."""
    cls = _registry.spec(env_id, kind=None).env_class
    out = {}
    for name, p in inspect.signature(cls.__init__).parameters.items():
        if name == "self" or p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) \
                or name in RESERVED_OPTIONS or name in ("render_mode", "render_agent"):
            continue
        annotation = str(p.annotation).replace(" ", "").replace("<class'", "").rstrip("'>")
        plain = _TYPES_BY_NAME.get(annotation)
        if (env_id, name) in _MORE_VALUES:
            kind = "text"
        elif plain is not None and type(p.default) is plain:
            kind = "plain"
        elif annotation in ("int|None", "Optional[int]"):
            kind = "int"
        elif annotation in ("bool|None", "Optional[bool]"):
            kind = "bool"
        else:
            kind = "text"
        words = kind == "text" and (isinstance(p.default, (tuple, list))
                                    or (env_id, name) in _WORD_LISTS)
        out[name] = _Option(name, p.default, kind, words)
    return out


def _specification(env_id: str) -> dict[str, Any]:
    """The parameters and their defaults (:class:`_Option`), and ``chance`` and ``seed``."""
    spec = {name: option.parameter_default for name, option in _options(env_id).items()}
    spec["chance"] = DEFAULT_CHANCE.get(env_id, "sampled")
    spec["seed"] = 0
    return spec


_LEAVE_OUT = object()


def _json(text: str) -> tuple[bool, Any]:
    """(True, the value) when ``text`` is JSON, else (False, None)."""
    try:
        return True, json.loads(text)
    except ValueError:
        return False, None


def _read_option(game: str, option: _Option, value: Any) -> Any:
    """A parameter's value as the env option (:class:`_Option`); ``_LEAVE_OUT`` for the env's
    default. A text parameter is JSON when it parses (``'{"games": 3}'``, ``"3"``,
    ``"true"``), words separated by spaces for a list option (``"sample reds"``, each word
    JSON when it parses: ``"default null"`` is ``["default", None]``; OpenSpiel's game
    strings cannot hold a comma), else the plain string (``"random"``)."""
    if option.kind == "plain":
        return value
    if option.kind in ("int", "bool"):
        if value == UNSET:
            return None
        if option.kind == "bool":
            if value not in (0, 1):
                raise OptionError(f"{game}: {option.name} must be -1 (None), 0 (False) or 1 "
                                  f"(True), got {show(value)}")
            return bool(value)
        return value
    if value == "":
        return _LEAVE_OUT
    parsed, read = _json(value)
    if parsed:
        return read
    if option.words and " " in value.strip():
        return [_json(word)[1] if _json(word)[0] else word for word in value.split()]
    return value


def _word(value: Any) -> str | None:
    """``value`` as one word of a words list, or None when it cannot be one."""
    if value is None or isinstance(value, (bool, int)):
        return json.dumps(value)
    if isinstance(value, str) and value and not set(value) & set(' ,"[]{}') \
            and not _json(value)[0]:
        return value
    return None


def _text(option: _Option, value: Any) -> str:
    """A text parameter's string for ``value`` (what :func:`_read_option` reads back)."""
    if isinstance(value, str):
        return json.dumps(value) if _json(value)[0] else value     # "3" stays a string
    if option.words and isinstance(value, (list, tuple)) and value:
        words = [_word(v) for v in value]
        if None not in words:
            return " ".join(words)
    return json.dumps(list(value) if isinstance(value, tuple) else value)


def _as_written(text: str) -> str:
    """A text parameter as the game's string writes it: a number or a bool (``"3"``) with a
    space before it (``series= 3``), which pyspiel reads back as the string it was, not as an
    int (JSON reads both the same)."""
    parsed, value = _json(text)
    return " " + text if parsed and isinstance(value, (bool, int, float)) \
        and not text.startswith(" ") else text


def game_parameters(env_id: str, **options: Any) -> dict[str, Any]:
    """The pyspiel parameters of ``env_id``'s game for these env options (and ``chance``,
    ``seed``): an option annotated ``int | None`` or ``bool | None`` goes as an int (-1 for
    None; a bool as 0 or 1), a text option (:class:`_Option`) as a string: a plain string
    as itself, a list of plain words, None, bools and ints as words separated by spaces
    where the option takes words, any other value as its JSON."""
    known = _options(env_id)
    out = {}
    for name, value in options.items():
        option = known.get(name)
        if option is None or option.kind == "plain":
            out[name] = value
        elif option.kind in ("int", "bool"):
            out[name] = UNSET if value is None else int(value) if isinstance(value, bool) else value
        else:
            out[name] = _text(option, value)
    return out


def load_game(env_id: str, **options: Any) -> "DugoutGame":
    """``pyspiel.load_game(GAME_NAMES[env_id], game_parameters(env_id, **options))``."""
    register(env_id)
    return pyspiel.load_game(_game_name(env_id), game_parameters(env_id, **options))


# -- explicit chance ---------------------------------------------------------------------------------
class _Draw(Exception):
    """The engine asked for a die the tape does not hold yet: a chance node."""

    def __init__(self, purpose: str, n: int, face: bool):
        super().__init__(purpose)
        self.purpose, self.n, self.face = purpose, n, face


class _Tape:
    """The outcomes chosen for the move being replayed, in the order the engine draws them."""

    def __init__(self):
        self.outcomes: list[int] = []
        self.position = 0
        self.free = False          # draw 0 without asking (a throwaway game)

    def load(self, outcomes: list[int]) -> None:
        self.outcomes, self.position = outcomes, 0

    def take(self, purpose: str, n: int, face: bool) -> int:
        if self.position >= len(self.outcomes):
            if self.free:
                return 0
            raise _Draw(purpose, n, face)
        outcome = self.outcomes[self.position]
        if not 0 <= outcome < n:        # (a replay draws exactly as the first play did)
            raise RuntimeError(f"explicit chance: outcome {outcome} for a {purpose!r} draw of {n}")
        self.position += 1
        return outcome


class ChanceDice(ScriptedDice):
    """The engine's dice with every draw a chance node.

    The engines ask their dice for ``roll(purpose, dice, sides)`` (the total of ``dice`` fair
    dice), ``randbelow(purpose, n)`` and ``shuffle(purpose, items)``. :class:`Dice` makes each
    die one uniform draw of ``sides`` faces and a shuffle a Fisher-Yates of ``randbelow`` draws;
    these dice do the same, but take each draw from a tape of chosen outcomes and stop the
    move (a chance node) when the tape runs out, so the outcomes OpenSpiel enumerates are the
    engine's own draws, asked by the engine's own rules. A move is replayed from its start
    with the outcomes chosen so far (engine states are plain data: the replay draws the same
    dice in the same order).

    As keyed dice do, a stream entered again (``set_stream`` with the same key) gives the
    same rolls again: each roll of the current stream is kept, ``calls`` (purpose, total),
    and the k-th roll of a purpose since ``set_stream`` is the stream's k-th of that purpose
    when there is one (the rules' checks of a loaded game re-run a rule this way). A
    :class:`~dugout.envs.core.dice.ScriptedDice` by type, so that an env takes it as its
    ``dice`` option and each new game (a series' next one too) plays a copy; it saves as
    scripted dice holding the stream's rolls from its start (:func:`chance_dice` reads them
    back)."""

    def __init__(self, tape: _Tape, stream: tuple = (), calls: tuple = ()):
        super().__init__([])
        self.tape = tape
        self.stream = tuple(stream)
        self.calls: list[tuple[str, int]] = [tuple(c) for c in calls]
        self.counts: dict[str, int] = {}
        for purpose, _ in self.calls:
            self.counts[purpose] = self.counts.get(purpose, 0) + 1

    def set_stream(self, *key: int) -> None:
        if tuple(key) != self.stream:
            self.stream, self.calls = tuple(key), []
        self.counts = {}

    def _again(self, purpose: str) -> int | None:
        """The stream's roll of ``purpose`` to repeat, if the stream made it already."""
        k = self.counts.get(purpose, 0)
        self.counts[purpose] = k + 1
        for p, total in self.calls:
            if p == purpose:
                if k == 0:
                    return total
                k -= 1
        return None

    def roll(self, purpose: str, dice: int = 1, sides: int = 6) -> int:
        total = self._again(purpose)
        if total is None:
            total = dice
            for _ in range(dice):
                total += self.tape.take(purpose, sides, True)
            self.calls.append((purpose, total))
        return total

    def randbelow(self, purpose: str, n: int) -> int:
        if n <= 0:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        value = self._again(purpose)
        if value is None:
            value = self.tape.take(purpose, n, False)
            self.calls.append((purpose, value))
        return value

    def shuffle(self, purpose: str, items):
        return Dice.shuffle(self, purpose, items)        # the engine's Fisher-Yates

    def clone(self) -> "ChanceDice":
        new = ChanceDice(self.tape, self.stream, self.calls)
        new.counts = dict(self.counts)
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"type": "scripted", "script": [list(c) for c in self.calls], "position": 0,
                "stream": list(self.stream), "then": None}


def chance_dice(saved: ScriptedDice, tape: _Tape) -> ChanceDice:
    """Chance dice on ``tape`` from the scripted dice a saved game loads with (its script is
    the stream's rolls: :meth:`ChanceDice.to_dict`)."""
    return ChanceDice(tape, saved.stream, [(p, t) for p, t in saved.script])


# -- the engine state a pyspiel state holds ------------------------------------------------------------
@dataclass
class _Core:
    """A settled position: the engine state (a game state, a :class:`SeriesGame`, or the
    Manager Challenge's campaign), the decisions made, whether the episode is over (and cut
    off by ``max_decisions``), the last move's rewards and the returns so far. A copy clones
    the engine state; a pickle (OpenSpiel's serialization) writes its JSON save."""
    game: Any
    count: int = 0
    over: bool = False
    cut: bool = False
    rewards: tuple[float, ...] = ()
    returns: tuple[float, ...] = ()

    def __deepcopy__(self, memo) -> "_Core":
        return _Core(self.game.clone(), self.count, self.over, self.cut, self.rewards, self.returns)

    def __reduce__(self):
        game, inner, carry = self.game, "", ""
        if isinstance(game, SeriesGame):       # its loader needs the game's class (and carry's)
            inner = _class_name(type(game.game))
            kept = game.series.carry
            if kept is not None and callable(getattr(kept, "to_dict", None)):
                carry = _class_name(type(kept))
        return (_core_from_save, (_class_name(type(game)),
                                  json.dumps(game.to_dict(), sort_keys=True), self.count,
                                  self.over, self.cut, self.rewards, self.returns, inner, carry))


def _class_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _class(name: str) -> type:
    module, _, qualname = name.partition(":")
    return getattr(importlib.import_module(module), qualname)


def _core_from_save(kind: str, text: str, count: int, over: bool, cut: bool, rewards: tuple,
                    returns: tuple, inner: str = "", carry: str = "") -> _Core:
    data = json.loads(text)
    if inner:            # a series: its game's class rebuilds the game, the carry's the carry
        game = SeriesGame.from_dict(data, _class(inner).from_dict,
                                    _class(carry) if carry else None)
    else:
        game = _class(kind).from_dict(data)
    return _Core(game, count, over, cut, tuple(rewards), tuple(returns))


def _dice_holders(game: Any) -> list[Any]:
    """The objects whose ``dice`` the engine rolls: the game, a series' game, a campaign and
    its game."""
    inner = getattr(game, "game", None)
    return [game] + ([inner] if inner is not None else [])


def _install_dice(game: Any, tape: _Tape) -> None:
    """Give ``game`` chance dice on ``tape`` (one object for a campaign and its game): its
    own are kept when they are chance dice on that tape, scripted dice (a loaded game's) are
    read back (:func:`chance_dice`), keyed dice (a state redrawn by ``sample_state``, whose
    seed was drawn anew) become chance dice in the same stream: every roll to come is a
    chance node."""
    dice = None
    for holder in _dice_holders(game):
        old = getattr(holder, "dice", None)
        if isinstance(old, ChanceDice) and old.tape is tape:
            dice = old if dice is None else dice
            holder.dice = dice
        elif isinstance(old, ScriptedDice):
            dice = chance_dice(old, tape) if dice is None else dice
            holder.dice = dice
        elif isinstance(old, Dice):      # keyed dice (a redrawn state's): the rolls to come
            dice = ChanceDice(tape, old.stream) if dice is None else dice   # are chance nodes
            holder.dice = dice


# -- the env every state of a game is played through ----------------------------------------------------
class _Driver:
    """One env of the ruleset, built with the game's options, through which every state of
    the game is played: a state's engine state is restored into it before each use."""

    players = 2

    def __init__(self, env_id: str, options: dict[str, Any], explicit: bool):
        self.env_id = env_id
        self.tape = _Tape() if explicit else None
        more = {"dice": ChanceDice(self.tape)} if explicit else {}
        self.env = _registry.make(env_id, raw=True, render_mode="ansi", **options, **more)
        self.loaded: _Core | None = None
        self.started = 0
        self._setup = None

    # the env's episode bound, for GameInfo
    @property
    def max_decisions(self) -> int:
        return self.env.max_decisions

    def new_core(self, seed: int | None) -> _Core:
        """The env's ``reset`` (seeded by ``seed`` or, None, from the last seeded reset's
        generator): a new game at its first decision."""
        env = self.env
        self.loaded = None
        if seed is None:
            env.reset()
        else:
            env.reset(seed=seed)
        return self._settle(_Core(None, returns=(0.0,) * self.players))

    def load(self, core: _Core) -> None:
        if self.loaded is core:
            return
        if self.tape is not None:
            if self.env.game is None:        # restore() checks the class of a new game's state
                self.tape.free = True
                try:
                    self.env.reset(seed=0)
                finally:
                    self.tape.free = False
            _install_dice(core.game, self.tape)
        self.env.restore(core.game)
        self.env.decision_count = core.count
        self.loaded = core

    def step(self, core: _Core, action: int) -> None:
        """Play ``action`` on ``core`` (in place)."""
        self.load(core)
        self.loaded = None
        self.env.step(action)
        self._settle(core)
        self.loaded = core

    def _settle(self, core: _Core) -> _Core:
        env = self.env
        core.game = env.game if env.series is None else SeriesGame(env.series, env.game)
        core.count = env.decision_count
        core.over = any(env.terminations.values()) or any(env.truncations.values())
        core.cut = env.truncated_by == "max_decisions"
        core.rewards = tuple(float(env.rewards[a]) for a in AGENTS)
        core.returns = tuple(r + x for r, x in zip(core.returns, core.rewards))
        return core

    def actor(self, core: _Core) -> int:
        return core.game.pending.actor if not isinstance(core.game, SeriesGame) \
            else core.game.game.pending.actor

    def legal(self, core: _Core) -> tuple[int, ...]:
        game = core.game.game if isinstance(core.game, SeriesGame) else core.game
        return tuple(sorted(game.pending.legal))

    def decision_kind(self, core: _Core) -> str:
        game = core.game.game if isinstance(core.game, SeriesGame) else core.game
        return game.pending.kind

    def observation(self, core: _Core, player: int) -> dict[str, np.ndarray]:
        self.load(core)
        obs = self.env.observe(AGENTS[player])
        if core.over:
            obs["action_mask"][:] = 0
        return obs

    def view(self, core: _Core, player: int):
        self.load(core)
        return self.env.view(AGENTS[player])

    def text(self, core: _Core) -> str:
        self.load(core)
        return self.env.render()

    def setup(self):
        if self._setup is None:
            self._setup = self.env.public_setup()
        return self._setup

    def sample(self, core: _Core, player: int, rng: random.Random) -> Any:
        """An engine state drawn from ``player``'s view (the ruleset's ``sample_state``)."""
        view = self.view(core, player)
        package = type(self.env).__module__.rpartition(".")[0]
        sample_state = importlib.import_module(".sample", package).sample_state
        game = sample_state(view, rng, self.setup())
        if isinstance(core.game, SeriesGame):
            series = core.game.series.clone()
            series.seed = rng.getrandbits(63)       # the next games' dice are not known either
            return SeriesGame(series, game)
        return game

    @property
    def obs_spec(self):
        return self.env.obs_spec

    @property
    def meanings(self) -> tuple[str, ...]:
        return tuple(self.env.ACTION_MEANINGS)

    def utility_bounds(self) -> tuple[float, float]:
        return -1.0, 1.0


class _ChallengeDriver(_Driver):
    """The Manager Challenge's Gymnasium env, one player."""

    players = 1

    def __init__(self, env_id: str, options: dict[str, Any], explicit: bool):
        from ..envs.bottom_ninth.challenge import ManagerChallengeEnv
        self.env_id = env_id
        self.tape = _Tape() if explicit else None
        more = {"dice": ChanceDice(self.tape)} if explicit else {}
        self.env = ManagerChallengeEnv(render_mode="ansi", illegal_action="raise", **options, **more)
        self.loaded = None
        self._setup = None

    @property
    def max_decisions(self) -> int:
        return self.env.max_decisions

    def new_core(self, seed: int | None) -> _Core:
        self.loaded = None
        self.env.reset(seed=seed)
        c = self.env.campaign
        return _Core(c, 0, c.over, False, (0.0,), (0.0,))

    def load(self, core: _Core) -> None:
        if self.loaded is core:
            return
        if self.tape is not None:
            _install_dice(core.game, self.tape)
        self.env.campaign = core.game
        self.env.decision_count = core.count
        self.loaded = core

    def step(self, core: _Core, action: int) -> None:
        self.load(core)
        self.loaded = None
        _, reward, terminated, truncated, _ = self.env.step(action)
        core.game = self.env.campaign
        core.count = self.env.decision_count
        core.over = bool(terminated or truncated)
        core.cut = bool(truncated)
        core.rewards = (float(reward),)
        core.returns = (core.returns[0] + float(reward),)
        self.loaded = core

    def actor(self, core: _Core) -> int:
        return 0

    def legal(self, core: _Core) -> tuple[int, ...]:
        return tuple(sorted(core.game.pending.legal))

    def decision_kind(self, core: _Core) -> str:
        return core.game.pending.kind

    def observation(self, core: _Core, player: int) -> dict[str, np.ndarray]:
        self.load(core)
        view = self.env.view()
        mask = np.zeros(len(self.meanings), dtype=np.int8)
        if not core.over:
            mask[list(self.legal(core))] = 1
        return {"observation": self.env.encode_view(view), "action_mask": mask}

    def view(self, core: _Core, player: int):
        self.load(core)
        return self.env.view()

    def text(self, core: _Core) -> str:
        self.load(core)
        return self.env.render_text()

    def sample(self, core: _Core, player: int, rng: random.Random) -> Any:
        from ..envs.bottom_ninth.challenge_sample import sample_state
        return sample_state(self.view(core, player), rng, self.setup())

    @property
    def obs_spec(self):
        return self.env.OBS

    def utility_bounds(self) -> tuple[float, float]:
        """Bounds on a campaign's return: 6 games of +-1 (``reward="win"``), or of the most
        Manager Points a game can earn (a run needed to tie, three more on the last play, at
        the Situation's points per run, its win points, the Effect's, the 5 for a win), plus
        the 12 of a 6-0 sweep."""
        from ..envs.bottom_ninth import solo
        if self.env.reward_kind == "win":
            return -float(solo.GAMES), float(solo.GAMES)
        s, level = self.env.soloset, self.env.level
        bonus = [sum(o.n for o in e.ops(True) if o.kind == "mp") for e in s.effects] or [0]
        best = max(abs(sit.mp_run) * (abs(sit.score[0] - sit.score[1]) + 4) + abs(sit.mp_win)
                   for sit in s.situations) + max(abs(b) for b in bonus) + solo.WIN_MP
        return -float(solo.GAMES * best), float(solo.GAMES * best + solo.SWEEP_MP)


# -- the game ------------------------------------------------------------------------------------------
class DugoutGame(pyspiel.Game):
    """A dugout ruleset as a pyspiel game (see the module docstring). ``env_id`` names it;
    ``options`` are the env options read from the parameters; ``chance`` the chance mode."""

    env_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        spec = _specification(self.env_id)
        full = {**spec, **params}
        chance, seed = full.pop("chance"), full.pop("seed")
        if chance not in CHANCE_MODES:
            raise OptionError(f"{_game_name(self.env_id)}: chance must be 'sampled' or "
                              f"'explicit', got {show(chance)}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise OptionError(f"{_game_name(self.env_id)}: seed must be a non-negative int, "
                              f"got {show(seed)}")
        known = _options(self.env_id)
        self.options = {}
        for name, value in params.items():
            if name in ("chance", "seed"):
                continue
            if name in known:
                value = _read_option(_game_name(self.env_id), known[name], value)
                if value is _LEAVE_OUT or value == known[name].default:
                    continue
            self.options[name] = value       # (an unknown one: the env names it)
        self.chance = chance
        self.seed = seed
        explicit = chance == "explicit"
        driver_class = _ChallengeDriver if self.env_id == "manager_challenge_v0" else _Driver
        self.driver = driver_class(self.env_id, self.options, explicit)
        low, high = self.driver.utility_bounds()
        players = self.driver.players
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.driver.meanings),
            max_chance_outcomes=(_MAX_CHANCE_OUTCOMES.get(self.env_id, _DEFAULT_MAX_CHANCE_OUTCOMES)
                                 if explicit else 0),
            num_players=players, min_utility=low, max_utility=high,
            utility_sum=0.0 if players == 2 else None,
            max_game_length=self.driver.max_decisions)
        # the parameters that differ from their defaults (what the game's string shows)
        given = {k: _as_written(v) if k in known and known[k].kind == "text" else v
                 for k, v in params.items() if k not in spec or v != spec[k]
                 or type(v) is not type(spec[k])}
        super().__init__(_game_type(self.env_id, chance), info, given)
        self._initial = None

    def new_initial_state(self, *args) -> "DugoutState":
        """A new game: with sampled chance the env's ``reset(seed=seed)``, the ``seed``
        parameter's (:meth:`initial_state` takes another). It is set up when first used
        (``clone()`` and pyspiel's own checks make initial states they overwrite or drop)."""
        return DugoutState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.driver.max_decisions * _DRAWS_PER_DECISION if self.chance == "explicit" else 0

    def make_py_observer(self, iig_obs_type=None, params=None) -> "DugoutObserver":
        """The observer of information states and observations: both are the env's observation
        of the player's seat (the view, encoded by the env's encoder)."""
        if params:
            raise ValueError(f"{_game_name(self.env_id)}: observation parameters are not "
                             f"supported, got {params}")
        return DugoutObserver(self.driver.obs_spec)

    def view_information_key(self, view) -> str:
        """The information state string of the seat whose manager's view this is
        (``state.information_state_string(view.seat)`` at the position it shows), from the
        view alone: the env's encoder of the view and the view's legal actions. This is how a
        policy learned in OpenSpiel (keyed by information state strings) is asked by a dugout
        manager, which is given views (:func:`information_key`)."""
        mask = np.zeros(len(self.driver.meanings), np.int8)
        mask[list(view.legal)] = 1
        observation = {"observation": self.driver.env.encode_view(view), "action_mask": mask}
        return information_key(getattr(view, "seat", 0), self.num_players(),
                               view.decision or "", observation)

    def initial_state(self, seed: int | None = None) -> "DugoutState":
        """A new game whose sampled dice are the env's ``reset(seed=seed)`` (None: the game's
        ``seed`` parameter); with explicit chance the seed changes nothing."""
        state = DugoutState(self)
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise OptionError(f"{_game_name(self.env_id)}: initial_state(seed=...) needs a "
                                  f"non-negative int, got {show(seed)}")
            state._seed = int(seed)
        return state


_TYPES: dict[tuple[str, str], Any] = {}


def _game_type(env_id: str, chance: str) -> Any:
    key = (env_id, chance)
    if key not in _TYPES:
        one = env_id in _registry.SINGLE_AGENT_IDS or _registry.spec(env_id, None).kind != "aec"
        perfect = chance == "explicit" and env_id == "thats_baseball_v0"
        title = _registry.spec(env_id, kind=None).title
        _TYPES[key] = pyspiel.GameType(
            short_name=_game_name(env_id),
            long_name=f"dugout: {title}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance == "explicit"
                         else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC),
            information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                         else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
            utility=(pyspiel.GameType.Utility.GENERAL_SUM if one
                     else pyspiel.GameType.Utility.ZERO_SUM),
            reward_model=(pyspiel.GameType.RewardModel.REWARDS if one
                          else pyspiel.GameType.RewardModel.TERMINAL),
            max_num_players=1 if one else 2, min_num_players=1 if one else 2,
            provides_information_state_string=True, provides_information_state_tensor=True,
            provides_observation_string=True, provides_observation_tensor=True,
            parameter_specification=_specification(env_id))
    return _TYPES[key]


class DugoutObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``) over
    the env's observation: ``dict`` names the env's observation pieces."""

    def __init__(self, spec):
        self.tensor = np.zeros(spec.size, np.float32)
        self.dict = {name: self.tensor[spec.slice(name)] for name, _, _ in spec.pieces}

    def set_from(self, state: "DugoutState", player: int) -> None:
        self.tensor[:] = state.observation(player)["observation"]

    def string_from(self, state: "DugoutState", player: int) -> str:
        return state.information_text(player)


def information_key(player: int, players: int, kind: str, observation: dict) -> str:
    """A seat's information state string: the seat, his decision's kind and legal actions (none
    at a chance node or when he is not to act), and the non-zero entries of his observation
    vector (``observation`` is ``{"observation", "action_mask"}``, the env's). A manager's
    view gives it too: :meth:`DugoutGame.view_information_key` (the encoded view and its legal
    actions), which is how a policy found in OpenSpiel is asked outside it."""
    legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
    seat = AGENTS[player] if players == 2 else "manager"
    vector = observation["observation"]
    entries = " ".join(f"{i}:{vector[i]}" for i in np.flatnonzero(vector))
    return f"{seat} decides {kind if legal else '-'} {legal} | {entries}"


class DugoutState(pyspiel.State):
    """A position of a dugout game (see the module docstring)."""

    def __init__(self, game: DugoutGame):
        super().__init__(game)
        self._core: _Core | None = None       # None until first used
        self._started = False
        self._seed: int | None = None         # the dice seed (None: the game's parameter)
        # explicit chance: the position before the move being drawn, the move ("reset" or
        # an action) and the outcomes chosen for its dice so far; _need: the draw asked next
        self._pre: _Core | None = None
        self._move: Any = None
        self._drawn: list[int] = []
        self._need: tuple[str, int, bool] | None = None

    # -- starting and playing -------------------------------------------------------------------
    @property
    def _driver(self) -> _Driver:
        return self.get_game().driver

    def _settled(self) -> None:
        """Start the game on first use (sampled chance: the next seed; explicit: the reset's
        dice are chance nodes)."""
        if self._started:
            return
        self._started = True
        game = self.get_game()
        if game.chance == "explicit":
            self._play("reset")
        else:
            self._core = game.driver.new_core(game.seed if self._seed is None else self._seed)

    def _play(self, move: Any) -> None:
        """Explicit chance: play ``move`` from ``self._pre`` with the outcomes drawn so far; the
        position it reaches, or the next chance node."""
        driver = self._driver
        driver.tape.load(self._drawn)
        try:
            if move == "reset":
                core = driver.new_core(0)
            else:
                core = copy.deepcopy(self._pre)
                _install_dice(core.game, driver.tape)
                driver.step(core, move)
        except _Draw as draw:
            driver.loaded = None
            self._move, self._need, self._core = move, (draw.purpose, draw.n, draw.face), None
            return
        finally:
            driver.tape.load([])
        self._core, self._pre, self._move, self._drawn, self._need = core, None, None, [], None

    def current_player(self) -> int:
        self._settled()
        if self._need is not None:
            return pyspiel.PlayerId.CHANCE
        if self._core.over:
            return pyspiel.PlayerId.TERMINAL
        return self._driver.actor(self._core)

    def is_terminal(self) -> bool:
        self._settled()
        return self._need is None and self._core.over

    def _legal_actions(self, player: int) -> list[int]:
        self._settled()
        if self._need is not None or self._core.over:
            return []
        return list(self._driver.legal(self._core))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        self._settled()
        if self._need is None:
            return []
        n = self._need[1]
        p = float(Fraction(1, n))
        return [(i, p) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        self._settled()
        action = int(action)
        if self._need is not None:
            n = self._need[1]
            if not 0 <= action < n:
                raise ValueError(f"{_game_name(self.get_game().env_id)}: chance outcome {action} "
                                 f"of a {self._need[0]!r} draw of {n} (0 to {n - 1})")
            self._drawn = self._drawn + [action]
            self._play(self._move)
        elif self.get_game().chance == "explicit":
            self._pre, self._drawn = self._core, []
            self._play(action)
        else:
            self._driver.step(self._core, action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._need is not None and not self._need[2]:
                return f"{self._need[0]}: {action} of 0-{self._need[1] - 1}"
            purpose = self._need[0] if self._need is not None else "die"
            return f"{purpose}: {action + 1}"
        meanings = self._driver.meanings
        return meanings[action] if 0 <= action < len(meanings) else f"action {action}"

    def returns(self) -> list[float]:
        self._settled()
        if self._core is None:
            return list(self._pre.returns) if self._pre is not None else \
                [0.0] * self.get_game().num_players()
        return list(self._core.returns)

    def rewards(self) -> list[float]:
        self._settled()
        if self._core is None:
            return [0.0] * self.get_game().num_players()
        return list(self._core.rewards)

    # -- what a seat sees -------------------------------------------------------------------------
    def _seen_core(self) -> _Core:
        """The position whose view a player has: at a chance node the one before the move."""
        self._settled()
        return self._core if self._core is not None else self._pre

    def observation(self, player: int) -> dict[str, np.ndarray]:
        """``env.observe(agent)`` of ``player``'s seat: ``{"observation", "action_mask"}``.
        At a chance node: the position before the move being drawn, with an empty mask."""
        core = self._seen_core()
        if core is None:       # the reset's own dice (a draft die): the game has not begun
            spec = self._driver.obs_spec
            return {"observation": np.zeros(spec.size, np.float32),
                    "action_mask": np.zeros(len(self._driver.meanings), np.int8)}
        obs = self._driver.observation(core, player)
        if self._need is not None or core.over or self._driver.actor(core) != player:
            obs["action_mask"] = np.zeros_like(obs["action_mask"])
        return obs

    def view(self, player: int):
        """``env.unwrapped.view(agent)`` of ``player``'s seat (at a chance node, of the
        position before the move being drawn)."""
        core = self._seen_core()
        if core is None:
            raise ValueError("the game is being set up (its first dice are being drawn): no view yet")
        return self._driver.view(core, player)

    def information_text(self, player: int) -> str:
        """The information state string (and observation string) of ``player``
        (:func:`information_key` of his observation)."""
        obs = self.observation(player)
        legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        kind = self._driver.decision_kind(self._seen_core()) if legal else ""
        return information_key(player, self.get_game().num_players(), kind, obs)

    def information_state_string(self, player: int | None = None) -> str:
        return self.information_text(self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self.information_text(self.current_player() if player is None else player)

    def __str__(self) -> str:
        core = self._seen_core()
        if core is None:
            text = "Setting up: the game's first dice are being drawn."
            digest = ""
        else:
            text = self._driver.text(core)
            digest = hashlib.sha256(json.dumps(core.game.to_dict(), sort_keys=True)
                                    .encode()).hexdigest()[:16]
        if self._need is not None:
            text += (f"\nChance: the {self._need[0]!r} draw of {self._need[1]} "
                     f"({len(self._drawn)} drawn for {self._move!r})")
        return f"{text}\n[state {digest}, {core.count if core else 0} decisions]"

    # -- determinization ------------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler) -> "DugoutState":
        """A state ``player_id`` cannot tell from this one: his view's game with what it hides
        (the other side's cards, a committed pitch, deck orders, the dice seed) drawn by the
        ruleset's ``sample_state`` from a generator seeded by ``probability_sampler()``."""
        core = self._seen_core()
        if self._need is not None or core is None:
            raise ValueError("resample_from_infostate at a chance node: resample at a decision")
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        game = self._driver.sample(core, player_id, rng)
        if self.get_game().chance == "explicit":
            _install_dice(game, self._driver.tape)
        new = self.clone()
        new._core = _Core(game, core.count, core.over, core.cut, core.rewards, core.returns)
        return new


# -- registration --------------------------------------------------------------------------------------
_REGISTERED: dict[str, type] = {}


def register(env_id: str) -> type:
    """Register ``env_id``'s game with pyspiel (the built-in ones are, on import); its class."""
    if env_id in _REGISTERED:
        return _REGISTERED[env_id]
    cls = type(f"DugoutGame_{env_id}", (DugoutGame,), {"env_id": env_id})
    if _game_name(env_id) not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(env_id, DEFAULT_CHANCE.get(env_id, "sampled")), cls)
    _REGISTERED[env_id] = cls
    return cls


for _env_id in GAME_NAMES:
    register(_env_id)


# -- bots ---------------------------------------------------------------------------------------------
def _manager_action(agent: Any, state: DugoutState, player: int) -> int:
    view = state.view(player) if getattr(agent, "needs_view", False) else None
    return int(agent.act(state.observation(player), view))


class _Bot(pyspiel.Bot):
    """The ``pyspiel.Bot`` methods every bot here shares: it plays ``player_id``, provides
    no policy and keeps nothing between moves (``restart_at`` and ``inform_action`` do
    nothing unless a bot says otherwise)."""

    def __init__(self, player_id: int):
        pyspiel.Bot.__init__(self)
        self._player_id = player_id

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return False


class ManagerBot(_Bot):
    """A dugout manager as a ``pyspiel.Bot``: ``manager`` is a name (``make_agent(env_id,
    manager, seed)``: ``"heuristic"``, ``"random"``, ``"solver"``...) or a manager object. It
    is asked with its seat's observation and view, as in the env, and reset with ``seed`` at
    each ``restart_at`` (each game of ``evaluate_bots``)."""

    def __init__(self, game: DugoutGame, player_id: int, manager: Any = "heuristic",
                 seed: int | None = 0):
        super().__init__(player_id)
        from ..agents.registry import make_agent
        self.agent = make_agent(game.env_id, manager, seed) if isinstance(manager, str) else manager
        self._seed = seed
        self._game = game

    def restart_at(self, state) -> None:
        reset = getattr(self.agent, "reset", None)
        if reset is not None:
            reset(self._seed)
        observe = getattr(self.agent, "observe_setup", None)
        if observe is not None:
            observe(self._game.driver.setup())

    def step(self, state) -> int:
        return _manager_action(self.agent, state, self._player_id)


class ManagerRolloutEvaluator(_mcts.Evaluator):
    """An MCTS evaluator whose rollouts play dugout managers (``name`` for both seats) to the
    end; chance is drawn from ``chance_outcomes()`` with ``random_state``. The prior is
    uniform."""

    def __init__(self, game: DugoutGame, name: str = "heuristic", n_rollouts: int = 1,
                 random_state: np.random.RandomState | None = None, seed: int = 0):
        from ..agents.registry import make_agent
        self.agents = [make_agent(game.env_id, name, seed + p) for p in range(game.num_players())]
        self.n_rollouts = n_rollouts
        self._random_state = random_state or np.random.RandomState(seed)

    def evaluate(self, state) -> np.ndarray:
        total = None
        for _ in range(self.n_rollouts):
            working = state.clone()
            while not working.is_terminal():
                if working.is_chance_node():
                    actions, probs = zip(*working.chance_outcomes())
                    working.apply_action(int(self._random_state.choice(actions, p=probs)))
                else:
                    p = working.current_player()
                    working.apply_action(_manager_action(self.agents[p], working, p))
            result = np.array(working.returns())
            total = result if total is None else total + result
        return total / self.n_rollouts

    def prior(self, state) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class DeterminizedMCTSBot(_Bot):
    """OpenSpiel's ``MCTSBot`` in worlds drawn from the acting player's information state
    (determinized MCTS, "perfect information Monte Carlo"): at each decision ``worlds``
    states are drawn by :meth:`DugoutState.resample_from_infostate` (the other side's hidden
    cards, a committed pitch and the dice to come drawn anew), the ``MCTSBot`` searches each
    with ``max_simulations // worlds`` simulations, and the action most visited over all the
    searches is played. The search never reads what its seat cannot see (a tree shared by
    the worlds would: the same actions lead to states with other legal actions). Like any
    determinized search it plays each world as if it were known (strategy fusion): at the
    duel's stare-down the batter finds no pitch to read and the pitcher assumes his pitch is
    read. ``**kwargs`` go to ``MCTSBot``."""

    def __init__(self, game: DugoutGame, player_id: int, uct_c: float, max_simulations: int,
                 evaluator: Any, worlds: int = 4, seed: int = 0, **kwargs: Any):
        super().__init__(player_id)
        if worlds < 1 or max_simulations < worlds:
            raise ValueError(f"DeterminizedMCTSBot: worlds must be 1 to max_simulations "
                             f"({max_simulations}), got {worlds}")
        self.worlds = worlds
        self._rng = np.random.RandomState(seed)
        self.mcts = _mcts.MCTSBot(game, uct_c, max_simulations // worlds, evaluator,
                                  random_state=np.random.RandomState(seed + 1), **kwargs)

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        visits = dict.fromkeys(legal, 0)
        for _ in range(self.worlds):
            world = state.resample_from_infostate(self._player_id, self._rng.random_sample)
            root = self.mcts.mcts_search(world)
            for child in root.children:
                visits[child.action] += child.explore_count
        return max(legal, key=lambda a: (visits[a], -a))
