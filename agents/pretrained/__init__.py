"""The trained managers dugout ships: ``make_agent(env_id, "pretrained")``.

Each folder here is one safe checkpoint (``meta.json`` + ``policy.pt``, loaded by
:meth:`dugout.agents.policy.PolicyAgent.load` with torch only, never a pickle) with its model
card (``MODEL_CARD.md``) and the measurements the card is written from
(``measurements.json``); ``dugout pretrained`` (:mod:`dugout.studies.pretrained`) trains,
measures and writes them. ``meta.json``'s ``pretrained`` record holds the env's options the
manager was trained on and the options it covers whatever their value (the game's cut-offs,
``max_innings`` and ``max_decisions``).

**It plays only the game it learned.** A pretrained manager asked to play under other
options (MLB Showdown's advanced manager in the expert game, That's Baseball's in a 7-inning
game) refuses with a ``PretrainedOptionsError`` naming the option and what it was trained
on, wherever the options show:

* :meth:`PretrainedAgent.check_options` (tournaments and the command lines call it through
  :func:`dugout.agents.registry.check_agents`, before any game);
* :meth:`PretrainedAgent.observe_setup`, the game's public set-up every game loop of dugout
  hands a manager after each reset (:func:`dugout.agents.play.tell_setup`);
* the observation's size, checked at every decision (:class:`PolicyAgent`).

**It plays as its checkpoint says** (``meta.json``'s ``play``, :mod:`dugout.agents.policy`):
most shipped managers play their network's most likely legal action (``"greedy"``, or no
``play``); Bottom of the 9th's, distilled from the duel's mixed equilibrium, samples its
network's distribution (``"sample"``) with its own generator, seeded by ``seed`` and
``reset(seed)``. ``deterministic`` overrides the mode for every entry.

An env with several pretrained managers (MLB Showdown: the advanced game, and the expert
game with decks; Bottom of the 9th: the duel, and the Longer Game) plays the one trained on the game's options: ``observe_setup`` and
``check_options`` pick it; before either, the one trained on the env's defaults plays.

Importing this module needs neither torch nor sb3-contrib (the registry lists
``pretrained`` without them); making one needs torch (the ``train`` extra, or torch alone),
and says so when it is missing.
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import importlib.util
import inspect
import json
from contextlib import ExitStack
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ..policy import META, CheckpointError, PolicyAgent

__all__ = ["PretrainedAgent", "PretrainedOptionsError", "entries", "entries_for", "options_differ",
           "COVERED", "NOT_RULES"]

#: Options a pretrained manager plays under whatever their value (a game's cut-offs).
COVERED = ("max_innings", "max_decisions")
#: Options that say how the env is driven, not the game (rendering, what an illegal action
#: does, scripted dice): never compared.
NOT_RULES = ("render_mode", "illegal_action", "dice")
_FILES = ExitStack()          # keeps as_file()'s extracted copies (a zipped install) alive


class PretrainedOptionsError(CheckpointError):
    """A pretrained manager asked to play a game of options it was not trained on."""


@dataclasses.dataclass(frozen=True)
class Entry:
    """A shipped manager: its folder's ``name``, ``env_id``, the env options it was trained
    on and the options it covers whatever their value."""
    name: str
    env_id: str
    options: dict
    covered: tuple[str, ...]


def _root():
    return importlib.resources.files(__name__)


@lru_cache(maxsize=None)
def entries() -> tuple[Entry, ...]:
    """Every shipped manager, read from the folders' ``meta.json`` (no torch): those trained
    on an env's defaults first, then by name."""
    found = []
    for folder in _root().iterdir():
        meta_file = folder / META
        if not folder.is_dir() or not meta_file.is_file():
            continue
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        record = meta.get("pretrained") or {}
        found.append(Entry(folder.name, meta["env_id"], dict(record.get("env_options", {})),
                           tuple(record.get("covered_options", COVERED))))
    return tuple(sorted(found, key=lambda e: (bool(e.options), e.name)))


def entries_for(env_id: str) -> list[Entry]:
    """The shipped managers of ``env_id`` (the one trained on its defaults first)."""
    return [e for e in entries() if e.env_id == env_id]


def _folder(entry: Entry) -> Path:
    return Path(_FILES.enter_context(importlib.resources.as_file(_root() / entry.name)))


# -- options --------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _defaults(env_id: str) -> dict[str, Any]:
    from ...envs.registry import spec
    params = inspect.signature(spec(env_id, kind=None).env_class.__init__).parameters
    return {n: p.default for n, p in params.items() if p.default is not inspect.Parameter.empty}


def _plain(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _shown(value: Any) -> str:
    name = getattr(value, "name", None)
    if isinstance(name, str):
        return repr(name)
    if isinstance(value, (tuple, list)) and value and all(isinstance(getattr(v, "name", None), str)
                                                          for v in value):
        return "[" + ", ".join(repr(v.name) for v in value) + "]"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _parts(setup: Any) -> dict[str, Any]:
    """A public set-up's parts by name (a dict, or a dataclass's fields)."""
    if isinstance(setup, Mapping):
        return dict(setup)
    if dataclasses.is_dataclass(setup):
        return {f.name: getattr(setup, f.name) for f in dataclasses.fields(setup)}
    return dict(vars(setup))


def _rules_key(value: Any) -> Any:
    """What the rules read of a set-up's part: its ``rules_key()`` where it has one (That's
    Baseball's teams: their lineups' averages, whatever they are named), else itself; a tuple
    of parts, each's."""
    if callable(getattr(value, "rules_key", None)):
        return value.rules_key()
    if isinstance(value, tuple):
        return tuple(_rules_key(v) for v in value)
    return value


def _equal(a: Any, b: Any) -> bool:
    a, b = _rules_key(a), _rules_key(b)
    try:
        return bool(a == b)
    except (ValueError, TypeError):          # arrays and the like
        return repr(a) == repr(b)


@lru_cache(maxsize=None)
def _setup_of(env_id: str, options_json: str) -> dict[str, Any]:
    from ...envs import make
    env = make(env_id, **json.loads(options_json))
    env.reset(seed=0)
    return _parts(env.unwrapped.public_setup())


def _setup_differs(setup: dict[str, Any], trained: dict[str, Any], covered) -> str | None:
    """The first part of the set-up ``setup`` that differs from ``trained``'s, or None."""
    for key in sorted(set(setup) | set(trained)):
        if key in covered:
            continue
        if key not in setup or key not in trained or not _equal(setup[key], trained[key]):
            return key
    return None


def options_differ(env_id: str, trained: Mapping[str, Any], given: Mapping[str, Any],
                   covered=COVERED) -> str:
    """What differs between the options a manager was trained on (``trained``) and a game's
    (``given``), the env's defaults filling in an option not given, as a sentence naming each
    option that differs; "" when none does (or only ``covered`` ones). Options written
    differently that make the same game (the default teams named) are the same."""
    defaults = _defaults(env_id)
    found = []
    for key in sorted(set(trained) | set(given)):
        if key in covered or key in NOT_RULES:
            continue
        want, got = trained.get(key, defaults.get(key)), given.get(key, defaults.get(key))
        if _plain(want) == _plain(got):
            continue
        try:
            a = _setup_of(env_id, _plain(dict(trained)))
            b = _setup_of(env_id, _plain(dict(given)))
        except Exception:                    # noqa: BLE001 (a game that does not build differs)
            a = b = None
        if a is not None and key in a and key in b and _equal(a[key], b[key]) \
                and _setup_differs(b, a, covered) is None:
            continue
        where = "" if key in trained else " (the default)"
        found.append(f"{key}={_shown(got)}, but it was trained with {key}={_shown(want)}{where}")
    return "; ".join(found)


# -- the manager -----------------------------------------------------------------------------------
class PretrainedAgent(PolicyAgent):
    """A shipped manager of ``env_id``: a :class:`PolicyAgent` that refuses games of options
    it was not trained on (:meth:`check_options`, :meth:`observe_setup`), and, where the env
    has several, plays the one trained on the game's options, in that entry's ``play`` mode
    (greedy or sampling) unless ``deterministic`` is given."""

    def __init__(self, env_id: str, seed: int | None = None, deterministic: bool | None = None):
        self.env_id = env_id
        self.choices = entries_for(env_id)
        if not self.choices:
            raise ValueError(f"no pretrained manager ships for {env_id}; those that do: "
                             f"{', '.join(sorted({e.env_id for e in entries()}))}")
        if importlib.util.find_spec("torch") is None:
            raise CheckpointError("the pretrained manager needs torch, which is not installed: "
                                  "pip install 'dugout-baseball[train]' (or torch alone)")
        self._loaded: dict[str, PolicyAgent] = {}
        first = self._load(self.choices[0])
        self._mode_given = deterministic is not None
        super().__init__(first.actor, first.meta,
                         first.deterministic if deterministic is None else bool(deterministic),
                         seed, name="pretrained")
        self.entry = self.choices[0]

    def _load(self, entry: Entry) -> PolicyAgent:
        if entry.name not in self._loaded:
            self._loaded[entry.name] = PolicyAgent.load(_folder(entry), env_id=self.env_id)
        return self._loaded[entry.name]

    def _use(self, entry: Entry) -> None:
        if entry is not self.entry:
            agent = self._load(entry)
            self.actor, self.meta, self.entry = agent.actor, agent.meta, entry
            if not self._mode_given:
                self.deterministic = agent.deterministic

    def _trained(self, entry: Entry) -> str:
        from ...envs.options import describe_options
        return f"{entry.name}: {describe_options(entry.options)}"

    def _refuse(self, why: str) -> None:
        others = "; ".join(self._trained(e) for e in self.choices)
        raise PretrainedOptionsError(
            f"pretrained {self.env_id} manager: the game has {why}. It plays only the options it "
            f"was trained on (covering {', '.join(self.entry.covered)} whatever their value): "
            f"{others}. Train one for these options (dugout train) and play it as ppo:PATH")

    def check_options(self, options: Mapping[str, Any] | None) -> None:
        """Pick the manager trained on the env options ``options``, or raise a
        :class:`PretrainedOptionsError` naming the option that none was trained on."""
        options = dict(options or {})
        reasons = []
        for entry in self.choices:
            why = options_differ(self.env_id, entry.options, options, entry.covered)
            if not why:
                self._use(entry)
                return
            reasons.append(why)
        self._refuse(reasons[0])

    def observe_setup(self, setup: Any) -> None:
        """The game's public set-up, after each reset (:func:`dugout.agents.play.tell_setup`):
        pick the manager trained on it, or raise a :class:`PretrainedOptionsError` naming the
        part that differs from what it was trained on."""
        parts = _parts(setup)
        first = None
        for entry in self.choices:
            trained = _setup_of(self.env_id, _plain(entry.options))
            key = _setup_differs(parts, trained, entry.covered)
            if key is None:
                self._use(entry)
                return
            if first is None:
                first = (key, trained)
        key, trained = first
        self._refuse(f"{key}={_shown(parts.get(key))}, but it was trained with "
                     f"{key}={_shown(trained.get(key))}")
