"""What the tests share: the env ids and option sets the contract suite runs, and the small
game-playing loops and checks every ruleset's tests use.

``tests/conftest.py`` puts this folder on ``sys.path``, so a test file says ``import helpers``
(or ``from helpers import ...``) whatever pytest's import mode.

* :func:`cases` (:data:`OPTION_SETS`): the ``(env_id, options)`` the contract suite runs;
* :func:`play_out` plays a seeded game through the AEC API (``agent_iter``/``last``/``step``)
  with :class:`~dugout.agents.RandomAgent` managers and returns what each agent saw at his
  dead step; :func:`final_steps` steps the dead steps of a finished game;
* :func:`step_random`, :func:`play_random` and :func:`play_to_random_decision` step an env
  with random legal actions taken from the engine's pending decision (faster: no
  observation is encoded);
* :func:`random_games` plays many seeded games of a registered env, checking the contract's
  invariants (:func:`check_invariants`, :func:`check_live_infos`, :func:`check_final`) and a
  ruleset's own (:class:`GameChecks`, from ``random_game_checks`` in its
  ``test_<ruleset>_invariants.py``: :func:`ruleset_checks`);
* :func:`play_engine` and :func:`finish` drive an engine state (``rules.new_game`` /
  ``rules.apply_action``) without an env;
* :func:`shared_mutables` and :func:`poke_everything` check that a clone shares nothing
  mutable with its original.
* :class:`EncoderComparison` and :func:`play_comparing` compare an env's fast observation
  encoder with its view's encoding through whole games.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import importlib.util
import inspect
import json
import os
import random
import types
from typing import Any, Callable, Iterable, Iterator

import numpy as np

import dugout.envs as envs
from dugout.envs.core.scoreboard import SuddenDeathScoreboard

#: The test tier (tests/conftest.py): "full" under ``pytest --full``, else "quick".
FULL = os.environ.get("DUGOUT_TEST_TIER") == "full"


def games(full: int, quick: int) -> int:
    """How many random games an invariant run plays: ``full`` in the full tier, ``quick``
    in the quick one. For runs that check invariants at every step, never for statistical
    tests (those keep their size and are marked ``full``)."""
    return full if FULL else quick

AGENTS = ("away", "home")

# -- what the contract suite runs ------------------------------------------------------------
#: Option sets each registered env id is run with by the contract suite (``{}`` when absent):
#: a ruleset whose levels are one engine with switches lists each level here.
OPTION_SETS: dict[str, tuple[dict[str, Any], ...]] = {
    "showdown_v0": ({"level": "basic"}, {"level": "advanced"}, {"level": "expert"},
                    {"level": "expert", "decks": "default"},
                    {"level": "expert", "dh": False, "decks": "default"},
                    {"level": "advanced", "teams": ("nya2004", "atl2004")},
                    {"level": "expert", "decks": ("default", None)},
                    {"level": "expert", "decks": "hooks"},
                    {"lineups": "manager"},
                    {"level": "expert", "lineups": "manager", "dh": False}),
    "bottom_ninth_v0": ({}, {"teams": "choose", "draft": True}, {"out_rule": "batter"},
                        {"mode": "game"},
                        {"mode": "game", "teams": "choose", "draft": True, "batters": 10,
                         "support": True},
                        {"mode": "game", "teams": "choose"},
                        {"extra_innings": True},
                        {"support": "shared"},
                        {"support": True, "teams": "choose", "draft": True},
                        {"teams": "choose", "draft": "random"},
                        {"condition": "random"}),
    "pokemon_baseball_v0": ({}, {"used_twice": "roster"},
                            {"bench": "reserves", "dh": True, "used_twice": "reentry+teams"}),
}
#: Env ids whose games ``max_innings`` cannot cut off (with the options that make them so):
#: Bottom of the 9th's duel is one sudden-death half inning (the pitcher wins at the third
#: out), so it has no tie to truncate and refuses ``max_innings``.
NO_CUT_OFF = {"bottom_ninth_v0": {"mode": "duel"}}
#: Options under which a game may end tied and truncate without ``max_innings``: Bottom of the
#: 9th's duel played into a tenth inning is cut off by its rulebook after the tenth.
ENDS_TIED = {"bottom_ninth_v0": {"extra_innings": True}}


def ends_tied(env_id: str, options: dict[str, Any]) -> bool:
    """Whether this case's games may truncate on a tie with no ``max_innings`` given."""
    return any(options.get(k) == v for k, v in ENDS_TIED.get(env_id, {}).items())


def cuts_off(env_id: str, options: dict[str, Any]) -> bool:
    """Whether ``max_innings`` can cut this case's games off (see :data:`NO_CUT_OFF`)."""
    if env_id not in NO_CUT_OFF:
        return True
    params = inspect.signature(envs.spec(env_id).env_class.__init__).parameters
    defaults = {k: p.default for k, p in params.items()}
    return any(options.get(k, defaults.get(k)) != v for k, v in NO_CUT_OFF[env_id].items())


def ties_won(env_id: str, options: dict[str, Any]) -> bool:
    """Whether a tied game can have a winner: exactly the games with no tie to cut off (in
    Bottom of the 9th's duel the pitcher wins 0-0 at the third out, a tie included:
    core.scoreboard.SuddenDeathScoreboard)."""
    return not cuts_off(env_id, options)

#: Options that cut a game off after one inning (every ruleset takes ``innings`` and
#: ``max_innings``, DESIGN contract 10): a tie then truncates.
CUT_OFF = {"innings": 1, "max_innings": 1}


def cases() -> list[tuple[str, dict[str, Any]]]:
    """``(env_id, options)`` for every registered env id and each of its option sets."""
    return [(env_id, dict(options)) for env_id in envs.ENV_IDS
            for options in OPTION_SETS.get(env_id, ({},))]


def case_id(env_id: str, options: dict[str, Any]) -> str:
    return "-".join([env_id, *(f"{v}" for v in options.values())])


def make(env_id: str, options: dict[str, Any], raw: bool = False, **more: Any):
    return envs.make(env_id, raw=raw, **{**options, **more})


# -- states -----------------------------------------------------------------------------------
def dumps(state) -> str:
    """A state's saved form as one comparable string."""
    return json.dumps(state.to_dict(), sort_keys=True)


def roundtrip(state):
    """``GameState.from_dict(json.loads(json.dumps(state.to_dict())))`` of the state's own class."""
    return type(state).from_dict(json.loads(json.dumps(state.to_dict())))


def game_over(env) -> bool:
    return env.unwrapped.game.pending is None


# -- loops through the env ----------------------------------------------------------------------
def step_random(env, rng: random.Random, limit: int | None = None,
                on_decision: Callable[[Any], None] | None = None) -> list[int]:
    """Step ``env`` (``env()`` or ``raw_env()``) with random legal actions until the game ends,
    or ``limit`` actions; calls ``on_decision(env)`` before each. Returns the actions."""
    actions: list[int] = []
    game = env.unwrapped
    while game.state_.pending is not None and (limit is None or len(actions) < limit):
        if on_decision is not None:
            on_decision(env)
        a = rng.choice(game.state_.pending.legal)
        actions.append(a)
        env.step(a)
    return actions


def play_random(env, seed: int, rng: random.Random | None = None,
                on_decision: Callable[[Any], None] | None = None) -> list[int]:
    """A seeded game with random legal actions, played to the end; returns the actions."""
    env.reset(seed=seed)
    return step_random(env, random.Random(seed) if rng is None else rng, on_decision=on_decision)


def play_to_random_decision(env, seed: int, rng: random.Random, most: int = 80) -> list[int] | None:
    """Reset with ``seed`` and play 0 to ``most - 1`` random decisions; the actions, or None
    when the game ended first."""
    env.reset(seed=seed)
    actions = step_random(env, rng, limit=rng.randrange(most))
    return None if game_over(env) else actions


def final_steps(env) -> dict[str, tuple]:
    """Step the dead steps of a finished game: ``agent -> (reward, term, trunc, info as JSON)``,
    in the order the agents were asked."""
    out = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, info = env.last()
        assert term or trunc, f"{agent} is live after the game ended"
        out[agent] = (reward, term, trunc, json.dumps(info, sort_keys=True))
        env.step(None)
    return out


def play_out(env, seed: int, agents: dict | None = None,
             on_live_step: Callable[..., None] | None = None):
    """Play a seeded game through the AEC API with random managers (or ``agents``); return
    ``(last live actor, final)``, ``final`` mapping each agent to what ``env.last()`` gave at his
    dead step: ``(reward, termination, truncation, info)``. ``on_live_step(env, agent, obs,
    info)`` is called at every live step."""
    from dugout.agents import RandomAgent
    if agents is None:
        agents = {a: RandomAgent(seed=1000 * seed + i) for i, a in enumerate(AGENTS)}
    env.reset(seed=seed)
    last_actor = None
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, term, trunc, info)
            env.step(None)
            continue
        assert not final, "a live step after an agent's dead step"
        if on_live_step is not None:
            on_live_step(env, agent, obs, info)
        last_actor = agent
        env.step(agents[agent].act(obs))
    return last_actor, final


# -- loops on the engine ---------------------------------------------------------------------
def play_engine(state, apply: Callable[[Any, int], None], choose: Callable[[Any], int],
                on_decision: Callable[[Any], None] | None = None, limit: int = 5000) -> list[int]:
    """Drive an engine state to the end: at each decision ``on_decision(state)``, then
    ``apply(state, choose(state))``. Returns the actions; fails on a game that never ends."""
    actions: list[int] = []
    while state.pending is not None:
        if on_decision is not None:
            on_decision(state)
        a = choose(state)
        actions.append(a)
        apply(state, a)
        assert len(actions) < limit, "a game that never ends"
    return actions


def finish(state, actions: Iterable[int], apply: Callable[[Any, int], None]):
    """Apply ``actions`` in order; the game must end exactly when they run out."""
    for a in actions:
        assert state.pending is not None, "the copy ended before the original"
        apply(state, a)
    assert state.pending is None and state.over, "the copy did not end with the original"
    return state


# -- the contract's invariants -------------------------------------------------------------------
def check_invariants(state) -> None:
    """What holds at every decision of every ruleset: the side at bat is not retired (outs
    0-2), no runner stands on two bases, and the line score adds up to the score. (The box
    score's batting lines may credit a run when the play is over, after the decisions it
    brings: :func:`check_final` compares them with the score at the end.)"""
    b = state.board
    assert state.pending is not None and not b.over
    assert 0 <= b.outs < 3, f"{b.outs} outs with a {state.pending.kind!r} decision pending"
    runners = [r for r in b.bases if r is not None]
    assert len(runners) == len(set(runners)), f"a runner on two bases: {b.bases}"
    runs, line = b.runs, b.line
    assert sum(line[0]) == runs[0] and sum(line[1]) == runs[1], f"line score {line} vs {runs}"
    assert tuple(state.score) == (runs[0], runs[1])


#: The keys of ``infos[agent]`` (DESIGN contract 6): at a live decision, the acting agent's
#: info holds ``decision`` only and the other agent's info is empty; at the end both hold the
#: final keys.
DECISION_KEYS = {"kind", "labels"}
INFO_KEYS = {"decision", "score", "winner", "illegal_action"}
_NO_REWARD = {"away": 0, "home": 0}
_LABELS_SEEN: dict[int, tuple] = {}    # id -> labels tuple already checked (kept alive)


def option_labels(decision: dict) -> dict[int, str]:
    """An infos ``decision`` entry's labels of the legal actions, by action index."""
    return {a: label for a, label in enumerate(decision["labels"]) if label}


def check_no_decision(info: dict, n: int) -> None:
    """The infos' decision entry of a manager with nothing to decide: same schema, empty."""
    assert info["decision"].keys() == DECISION_KEYS, sorted(info["decision"])
    assert info["decision"]["kind"] == "" and info["decision"]["labels"] == ("",) * n


def check_live_infos(env) -> None:
    """The infos of a live decision, one schema for every step: the acting
    agent's ``decision`` (its kind, and a label for every action index: distinct
    non-empty labels for exactly the legal actions, "" for the others), the other agent's
    decision entry empty; string keys only; no reward yet."""
    game = env.unwrapped
    d = game.state_.pending
    n = len(game.ACTION_MEANINGS)
    acting, other = AGENTS[d.actor], AGENTS[1 - d.actor]
    infos = game.infos
    assert game.agent_selection == acting
    assert game.rewards == _NO_REWARD and game._cumulative_rewards == _NO_REWARD
    series = {"series"} if game.series_format is not None else set()
    score = {"away": game.state_.score[0], "home": game.state_.score[1]}
    for agent in AGENTS:
        assert infos[agent].keys() == INFO_KEYS | series, sorted(infos[agent])
        assert infos[agent]["score"] == score
        assert infos[agent]["winner"] == "" and infos[agent]["illegal_action"] == ""
    assert infos["away"] is not infos["home"]
    check_no_decision(infos[other], n)
    decision = infos[acting]["decision"]
    assert decision.keys() == DECISION_KEYS, sorted(decision)
    assert decision["kind"] == d.kind and type(decision["kind"]) is str
    labels = decision["labels"]
    assert type(labels) is tuple and len(labels) == n
    if _LABELS_SEEN.get(id(labels)) is not labels:      # the env reuses a decision's info
        assert tuple(a for a in range(n) if labels[a]) == d.legal, (labels, d.legal)
        legal = [labels[a] for a in d.legal]
        assert len(set(legal)) == len(legal), f"labels must differ: {legal}"
        assert all(type(v) is str for v in labels), labels
        if len(_LABELS_SEEN) > 100_000:
            _LABELS_SEEN.clear()
        _LABELS_SEEN[id(labels)] = labels


def final_structure(info: dict, at: str = "") -> tuple:
    """The key tree of an info (every key's path, with its value's type and, for a sequence,
    its length), for comparing the infos of different steps and games."""
    out = []
    for key in sorted(info):
        value, path = info[key], f"{at}{key}"
        if isinstance(value, dict):
            out += final_structure(value, path + ".")
        else:
            size = len(value) if isinstance(value, (list, tuple)) else None
            out.append((path, type(value).__name__, size))
    return tuple(out)


def check_final(env) -> dict:
    """The end of a game: rewards +1/-1 to the winner/loser (0 each for a truncated game),
    infos with the score, winner and box score (whose runs are the score); returns the info."""
    game = env.unwrapped
    state = game.state_
    b = state.board
    assert state.pending is None and state.over
    assert 0 <= b.outs <= 3
    away, home = state.score
    assert list(b.runs) == [away, home] and [sum(x) for x in b.line] == [away, home]
    if getattr(state, "box", None) is not None:
        assert [sum(line.r for line in team) for team in state.box.lines] == [away, home], \
            f"the box score's runs differ from the score {state.score}"
    infos = game.infos
    assert infos["away"] == infos["home"], "both managers get the same final info"
    info = infos["away"]
    series = {"series"} if game.series_format is not None else set()
    assert set(info) == INFO_KEYS | series, sorted(info)
    check_no_decision(info, len(game.ACTION_MEANINGS))
    assert info["illegal_action"] == ""
    assert info["score"] == {"away": away, "home": home}
    box = game.box_score()
    assert all(isinstance(k, str) for k in box)
    assert box["runs"] == [away, home]
    assert [sum(x) for x in box["line_score"]] == [away, home]
    assert [sum(line["R"] for line in team) for team in box["batting"]] == [away, home]
    json.dumps(info)
    if game.series_format is not None:           # the episode is the series: its result decides
        winner = game.series_.winner
        if winner is None:                       # a drawn series (an even number of games)
            assert info["winner"] == "" and game.rewards == {"away": 0, "home": 0}
            assert all(game.truncations.values()) and not any(game.terminations.values())
        else:
            assert info["winner"] == AGENTS[winner]
            assert game.rewards == {AGENTS[winner]: 1, AGENTS[1 - winner]: -1}
            assert all(game.terminations.values()) and not any(game.truncations.values())
    elif state.truncated:
        assert away == home and state.winner is None and info["winner"] == ""
        assert all(game.truncations.values()) and not any(game.terminations.values())
        assert game.rewards == {"away": 0, "home": 0}
    else:
        assert state.winner in (0, 1) and info["winner"] == AGENTS[state.winner]
        winner, loser = AGENTS[state.winner], AGENTS[1 - state.winner]
        if isinstance(state.board, SuddenDeathScoreboard):       # a tie can be won
            assert state.score[state.winner] >= state.score[1 - state.winner]
        else:
            assert state.score[state.winner] > state.score[1 - state.winner]
        assert all(game.terminations.values()) and not any(game.truncations.values())
        assert game.rewards == {winner: 1, loser: -1}
    assert game._cumulative_rewards == game.rewards
    return info


@dataclasses.dataclass
class GameChecks:
    """What a ruleset adds to the contract's random games (:func:`random_games`).

    ``start(seed)`` gives the engine state to play and how to choose each action
    (``choose(state) -> action``), for runs over other teams or managing styles than the
    env's defaults; by default the env is reset with ``seed`` and the actions are uniform.
    ``decision(state)`` runs at every decision, ``final(state, info)`` at the end of every
    game (``info``: the final ``infos[agent]``), ``done()`` after the run (to check that the
    run saw what it had to).
    """
    start: Callable[[int], tuple[Any, Callable[[Any], int]]] | None = None
    decision: Callable[[Any], None] | None = None
    final: Callable[[Any, dict], None] | None = None
    done: Callable[[], None] | None = None


def ruleset_module(env_id: str) -> str:
    """The test module with a ruleset's own invariants: ``thats_baseball_v0`` ->
    ``test_thats_baseball_invariants``."""
    return f"test_{env_id.rsplit('_v', 1)[0]}_invariants"


def ruleset_checks(env_id: str, options: dict[str, Any], monkeypatch) -> GameChecks:
    """The ruleset's additions to the contract's random games: ``random_game_checks(options,
    monkeypatch)`` of its :func:`ruleset_module` in this folder, if it has one; else none."""
    name = ruleset_module(env_id)
    if importlib.util.find_spec(name) is None:
        return GameChecks()
    module = importlib.import_module(name)
    make_checks = getattr(module, "random_game_checks", None)
    return GameChecks() if make_checks is None else make_checks(options, monkeypatch)


def random_games(env_id: str, seeds: Iterable[int], options: dict[str, Any] | None = None,
                 checks: GameChecks | None = None) -> Iterator[Any]:
    """Play a game of ``env_id`` (its ``raw_env``) for each seed, with random legal actions,
    checking the contract's invariants and infos at every decision, and at the end the
    rewards, the final infos and who is asked first (the manager who did not make the last
    move), and the ruleset's own ``checks``; yields the env of each finished game (before its
    dead steps)."""
    checks = checks or GameChecks()
    env = envs.make(env_id, raw=True, **(options or {}))
    game = env.unwrapped
    for seed in seeds:
        if checks.start is None:
            env.reset(seed=seed)
            rng = random.Random(seed)
            choose = lambda state: rng.choice(state.pending.legal)    # noqa: E731
        else:
            state, choose = checks.start(seed)
            env.restore(state)
        n, last_mover = 0, None
        while game.state_.pending is not None:
            state = game.state_
            check_invariants(state)
            check_live_infos(env)
            if checks.decision is not None:
                checks.decision(state)
            last_mover = game.agent_selection
            env.step(choose(state))
            n += 1
            assert n < 5000, f"{env_id} seed {seed}: a game that never ends"
        info = check_final(env)
        if last_mover is not None:
            assert game.agent_selection != last_mover, \
                "at the end the manager who did not make the last move is asked first"
        if checks.final is not None:
            checks.final(game.state_, info)
        yield env


# -- clones share nothing mutable --------------------------------------------------------------
_ATOM_TYPES = frozenset({str, bytes, int, float, complex, bool, type(None), range})
_ATOMS = (str, bytes, int, float, complex, bool, type(None), np.generic, range, enum.Enum, type,
          types.BuiltinFunctionType)
_CODE = (types.FunctionType, types.MethodType, types.GeneratorType, types.CoroutineType)


def _frozen_dataclass(obj) -> bool:
    params = getattr(type(obj), "__dataclass_params__", None)
    return params is not None and params.frozen


def mutable_objects(obj, root: str = "state") -> dict[int, tuple[Any, Any]]:
    """Every mutable object reachable from ``obj``: lists, dicts, sets, arrays and objects with
    attributes, keyed by id, with the path that reaches it (:func:`path_text` spells it out).
    Tuples and frozensets are looked into; frozen dataclasses (the immutable team and card
    data, decisions) are shared by design and not walked. A function, method or generator in
    a game state fails (DESIGN contract 1: no closures or generators hold game flow)."""
    out: dict[int, tuple[Any, Any]] = {}
    atoms = _ATOM_TYPES
    stack: list[tuple[Any, Any]] = [(obj, (None, root))]
    while stack:
        obj, path = stack.pop()
        if isinstance(obj, _ATOMS) or _frozen_dataclass(obj):
            continue
        assert not isinstance(obj, _CODE), \
            f"{path_text(path)} is code ({type(obj).__name__}), not plain data"
        if isinstance(obj, (tuple, frozenset)):
            if not _deep_immutable(obj):
                stack.extend((x, (path, i)) for i, x in enumerate(obj) if type(x) not in atoms)
            continue
        if id(obj) in out:
            continue
        out[id(obj)] = (path, obj)
        if isinstance(obj, dict):
            stack.extend((v, (path, k)) for k, v in obj.items() if type(v) not in atoms)
        elif isinstance(obj, (list, set)):
            stack.extend((x, (path, i)) for i, x in enumerate(obj) if type(x) not in atoms)
        elif isinstance(obj, np.ndarray):
            if obj.dtype == object:
                stack.extend((x, (path, i)) for i, x in enumerate(obj.flat))
        else:
            stack.extend((v, (path, "." + n)) for n, v in _attributes(obj)
                         if type(v) not in atoms)
    return out


_IMMUTABLE: dict[int, Any] = {}      # id -> tuple found to hold only immutable data (kept alive)


def _deep_immutable(t) -> bool:
    """Whether a tuple (a play of the log, a base state) holds only atoms and such tuples;
    remembered by id, with the tuple kept alive so that the id is never reused."""
    if id(t) in _IMMUTABLE:
        return True
    for x in t:
        if type(x) in _ATOM_TYPES:
            continue
        if isinstance(x, (tuple, frozenset)) and _deep_immutable(x):
            continue
        return False
    if len(_IMMUTABLE) > 200_000:
        _IMMUTABLE.clear()
    _IMMUTABLE[id(t)] = t
    return True


def path_text(path) -> str:
    """``state.box.lines[0][3]`` from the chain :func:`mutable_objects` keeps."""
    parts = []
    while path[0] is not None:
        path, key = path
        parts.append(key if isinstance(key, str) and key.startswith(".") else f"[{key!r}]")
    parts.append(path[1])
    return "".join(reversed(parts))


def _attributes(obj) -> list[tuple[str, Any]]:
    names = list(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        slots = getattr(cls, "__slots__", ())
        names += [s for s in ((slots,) if isinstance(slots, str) else slots)
                  if s not in ("__dict__", "__weakref__") and hasattr(obj, s)]
    return [(n, getattr(obj, n)) for n in dict.fromkeys(names)]


def shared_mutables(state, clone) -> list[str]:
    """Paths (in ``state``) of the mutable objects ``state`` and ``clone`` both reach."""
    original = mutable_objects(state)
    return sorted(path_text(original[oid][0]) for oid in mutable_objects(clone, "clone")
                  if oid in original)


POKE = 4242


def poke_everything(state) -> int:
    """Change every mutable object reachable from ``state``: append to each list, add a key to
    each dict and an item to each set, bump each array, and change each attribute that holds
    a number, a flag or a string. Returns how many objects were changed."""
    found = mutable_objects(state)
    for _, obj in found.values():
        if isinstance(obj, list):
            obj.append(POKE)
        elif isinstance(obj, dict):
            obj["__poked__"] = POKE
        elif isinstance(obj, set):
            obj.add(POKE)
        elif isinstance(obj, np.ndarray):
            if obj.size and obj.flags.writeable and obj.dtype != object:
                obj.flat[0] = obj.flat[0] + 1
        else:
            for name, value in _attributes(obj):
                if isinstance(value, bool):
                    new: Any = not value
                elif isinstance(value, (int, float)):
                    new = value + 7
                elif isinstance(value, str):
                    new = value + "!"
                else:
                    continue
                try:
                    setattr(obj, name, new)
                except (AttributeError, TypeError):    # a read-only property
                    pass
    return len(found)


# -- an env's two observation encoders, compared ----------------------------------------------
class EncoderComparison:
    """Compares an env's fast observation encoder, ``fast(env, seat)``, with the encoding of
    the seat's view, ``slow(state, seat)`` (``encode_view(view_of(state, seat))``), byte for
    byte for both seats each time it is called on an env; notes the decision kinds met and
    the observation values ever set, for the coverage checks (:meth:`unset_pieces`)."""

    def __init__(self, fast: Callable[[Any, int], np.ndarray],
                 slow: Callable[[Any, int], np.ndarray]) -> None:
        self.fast, self.slow = fast, slow
        self.kinds: set[str] = set()
        self.set_values: np.ndarray | None = None

    def __call__(self, env) -> None:
        state = env.game
        if state.pending is not None:
            self.kinds.add(state.pending.kind)
        for seat in (0, 1):
            fast, slow = self.fast(env, seat), self.slow(state, seat)
            assert fast.dtype == slow.dtype and fast.shape == slow.shape
            if fast.tobytes() != slow.tobytes():
                spec = env.obs_spec
                differ = sorted({name for name, size, *_ in spec.pieces
                                 for i in np.flatnonzero(fast != slow)
                                 if spec.offset[name] <= i < spec.offset[name] + size})
                raise AssertionError(f"seat {seat} at step {state.step!r} (pending "
                                     f"{state.pending}): the values differ in {differ}")
            if self.set_values is None:
                self.set_values = np.zeros(fast.shape, dtype=bool)
            self.set_values |= slow != 0

    def unset_pieces(self, spec) -> set[str]:
        """The pieces of ``spec`` no compared observation ever set."""
        return {name for name, size, *_ in spec.pieces
                if not self.set_values[spec.offset[name]:spec.offset[name] + size].any()}


def play_comparing(env, rules, seed: int, choose: Callable[[Any, Any], int],
                   compare: EncoderComparison) -> None:
    """A seeded game of a raw env played through its engine's rules (``choose(state,
    decision)`` decides), the encoders compared before every rule, at every decision and at
    the end."""
    from dugout.envs.core.engine import play_out
    env.reset(seed=seed)

    def policy(state, decision):
        compare(env)
        return choose(state, decision)

    play_out(env.game, rules, policy, on_rule=lambda state: compare(env), check=True)
    compare(env)


class ObservationOnly:
    """A manager that decides from the observation vector alone, never reading the view (a
    search refuses it as its rollout manager: a rollout's world has no observation)."""
    needs_view = False

    def reset(self, seed=None):
        pass

    def act(self, observation, view=None):
        return 0
