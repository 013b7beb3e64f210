"""Hostile and careless input to the data loaders and the size options.

The three loaders (That's Baseball ``load_team``, Grand Slam ``load_deck``, Showdown
``load_team``) and the shared reader (``dugout.envs.core.read_json_file``) must answer any
file or dict with the loaded data or with the project's documented errors only
(``DataError``, ``OptionError``), naming the file, and quickly; the size options
(``innings``, ``max_innings``, deck counts) have documented limits, and numpy integers are
accepted wherever Python ints are.
"""

from __future__ import annotations

import copy
import json
import os
import random
import time
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dugout.envs as envs
from dugout.envs.core import (MAX_DEPTH, MAX_FILE_BYTES, MAX_GAME_INNINGS, MAX_INNINGS, DataError,
                              OptionError, check_innings, check_plain_data, read_json_file)
from dugout.envs.grand_slam import cards as gc
from dugout.envs.showdown import cards as sc
from dugout.envs.thats_baseball import cards as tc

DOCUMENTED = (DataError, OptionError)
#: generous: a loader answers in milliseconds; this only catches a hang or a blow-up
SECONDS = 2.0
SETTINGS = settings(max_examples=int(os.environ.get("LOADER_EXAMPLES", 60)), deadline=timedelta(seconds=SECONDS),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

TB_TEAM = tc.load_team("sample").to_dict()
SD_TEAM = sc.team_to_dict(sc.load_team("bos2004"))
GS_DECK = dict(zip(gc.CARD_NAMES, gc.REFERENCE_COUNTS))

LOADERS: dict[str, tuple[Callable[[Any], Any], Any]] = {
    "thats_baseball": (tc.load_team, TB_TEAM),
    "grand_slam": (gc.load_deck, GS_DECK),
    "showdown": (sc.load_team, SD_TEAM),
}
ENV_IDS = ("thats_baseball_v0", "grand_slam_v0", "showdown_v0")
ENV_OPTIONS = {"thats_baseball_v0": {}, "grand_slam_v0": {}, "showdown_v0": {"level": "basic"}}


# ---------------------------------------------------------------------------- helpers

def answer(load: Callable[[Any], Any], spec: Any, name: str | None = None) -> Any:
    """Call ``load(spec)``; only a documented error may come out, naming ``name`` (a file),
    within :data:`SECONDS`. Returns the loaded value or the error."""
    start = time.perf_counter()
    try:
        out = load(spec)
    except DOCUMENTED as e:
        out = e
        if name is not None:
            assert name in str(e), f"the error does not name the file {name!r}: {e}"
    elapsed = time.perf_counter() - start
    assert elapsed < SECONDS, f"{load.__qualname__} took {elapsed:.1f} s"
    return out


_counter = iter(range(10**9))


def write(folder: Path, content: bytes | str, suffix: str = ".json") -> Path:
    path = folder / f"input{next(_counter)}{suffix}"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("loaders")


def paths_of(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indexes) into a plain-data value, the root included."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths_of(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths_of(v, prefix + (i,))
    return out


def replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(value)
    at = out
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = new
    return out


def deleted(value: Any, path: tuple) -> Any:
    out = copy.deepcopy(value)
    if not path:
        return out
    at = out
    for key in path[:-1]:
        at = at[key]
    del at[path[-1]]
    return out


def nested(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


# ---------------------------------------------------------------------------- strategies

HUGE_INTS = st.sampled_from([10**7, 10**9, 10**18, -10**18, 2**63, 10**400, -10**400])
SCALARS = (st.none() | st.booleans() | st.integers() | HUGE_INTS
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
           | st.sampled_from(["", "-", "1-20", "19+", ".301", "C", "OF", "starter", "hitter",
                              "pitcher", "P", "R", "L", "single", "1e999", "NaN"]))
JSON_VALUES = st.recursive(
    SCALARS,
    lambda kids: st.lists(kids, max_size=6) | st.dictionaries(st.text(max_size=8), kids, max_size=6),
    max_leaves=30)


def mutation_of(valid: Any):
    """A valid input with one value replaced by anything or one key removed."""
    paths = paths_of(valid)
    replace = st.tuples(st.sampled_from(paths), JSON_VALUES).map(lambda pv: replaced(valid, *pv))
    delete = st.sampled_from(paths).map(lambda p: deleted(valid, p))
    return replace | delete


# ---------------------------------------------------------------------------- properties

@pytest.mark.parametrize("which", sorted(LOADERS))
@SETTINGS
@given(data=st.data())
def test_any_json_file_gives_a_documented_error_naming_it(which, folder, data):
    load, valid = LOADERS[which]
    value = data.draw(JSON_VALUES | mutation_of(valid), label="value")
    path = write(folder, json.dumps(value))
    answer(load, str(path), str(path))
    answer(load, path, str(path))


@pytest.mark.parametrize("which", sorted(LOADERS))
@SETTINGS
@given(data=st.data())
def test_any_dict_or_list_gives_a_documented_error(which, data):
    load, valid = LOADERS[which]
    value = data.draw(JSON_VALUES.filter(lambda v: isinstance(v, (dict, list)))
                      | mutation_of(valid), label="value")
    answer(load, value)


@pytest.mark.parametrize("which", sorted(LOADERS))
@SETTINGS
@given(content=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_binary_and_text_files_give_a_documented_error_naming_them(which, folder, content):
    load, _ = LOADERS[which]
    path = write(folder, content)
    answer(load, str(path), str(path))


@pytest.mark.parametrize("which", sorted(LOADERS))
@SETTINGS
@given(data=st.data())
def test_broken_json_text_gives_a_documented_error_naming_the_file(which, folder, data):
    load, valid = LOADERS[which]
    text = json.dumps(valid)
    cut = data.draw(st.integers(0, len(text)), label="cut")
    junk = data.draw(st.sampled_from(["", "[", "]", "{", "}", ",", "\"", "\\", "\x00", "NaN",
                                      "Infinity", "1" * 5000, "[" * 5000, "\ufeff"]), label="junk")
    path = write(folder, text[:cut] + junk + text[cut:])
    answer(load, str(path), str(path))


@SETTINGS
@given(counts=st.lists(st.integers(-5, 10**9) | HUGE_INTS, min_size=len(gc.CARD_NAMES),
                       max_size=len(gc.CARD_NAMES)),
       numpy=st.booleans())
def test_any_deck_counts_give_a_deck_or_a_documented_error(counts, numpy):
    deck = {n: (np.int64(c) if numpy and -2**63 <= c < 2**63 else c)
            for n, c in zip(gc.CARD_NAMES, counts)}
    out = answer(gc.load_deck, deck)
    if not isinstance(out, Exception):
        assert all(type(n) is int for n in out)
        assert sum(out) <= gc.MAX_DECK_CARDS and max(out) <= gc.MAX_COPIES
        env = envs.make("grand_slam_v0", deck=deck)
        start = time.perf_counter()
        env.reset(seed=1)
        assert time.perf_counter() - start < SECONDS


# ---------------------------------------------------------------------------- the reproduced cases

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("which", sorted(LOADERS))
@pytest.mark.parametrize("text", [DEEP, '{"name": ' + DEEP + "}",
                                  json.dumps({"lineup": nested(MAX_DEPTH + 1)})])
def test_deeply_nested_file(which, text, tmp_path):
    path = write(tmp_path, text)
    with pytest.raises(DataError, match="nest") as e:
        LOADERS[which][0](str(path))
    assert str(path) in str(e.value)


def test_nesting_just_within_the_limit_is_read(tmp_path):
    path = write(tmp_path, json.dumps(nested(MAX_DEPTH - 1)))
    assert read_json_file(path, "test") == nested(MAX_DEPTH - 1)
    # brackets inside strings are not nesting
    path = write(tmp_path, json.dumps({"name": "[" * 1000 + "\\\"{"}))
    assert read_json_file(path, "test") == {"name": "[" * 1000 + "\\\"{"}


@pytest.mark.parametrize("which", ["thats_baseball", "showdown"])
def test_deeply_nested_and_self_containing_dicts(which):
    load, valid = LOADERS[which]
    deep = nested(10**5)
    bad = dict(valid, name=deep) if which == "thats_baseball" else dict(valid, notes=deep)
    with pytest.raises(DataError, match="nest"):
        load(bad)
    loop: dict = dict(copy.deepcopy(valid))
    loop["notes" if which == "showdown" else "pitchers"] = [loop]
    with pytest.raises(DataError, match="nest"):
        load(loop)
    with pytest.raises(DataError, match="MAX_NODES"):
        load(dict(valid, notes=[0] * 300_000) if which == "showdown"
             else dict(valid, pitchers=[0] * 300_000))


def test_showdown_card_collections_and_cards_are_checked_too():
    card = copy.deepcopy(SD_TEAM["players"][0])
    card["fit"] = nested(10**5)
    with pytest.raises(DataError, match="nest"):
        sc.card_from_dict(card)
    with pytest.raises(DataError, match="nest"):
        sc.load_cards([card])


@pytest.mark.parametrize("which", sorted(LOADERS))
@pytest.mark.parametrize("name", ["teams", "teams.json"])
def test_a_directory(which, name, tmp_path):
    path = tmp_path / name
    path.mkdir()
    with pytest.raises(DataError, match="directory") as e:
        LOADERS[which][0](str(path))
    assert str(path) in str(e.value)


@pytest.mark.parametrize("which", sorted(LOADERS))
def test_not_utf8(which, tmp_path):
    path = write(tmp_path, b'{"name": "Se\xf1ores"}')   # Latin-1
    with pytest.raises(DataError, match="UTF-8") as e:
        LOADERS[which][0](str(path))
    assert str(path) in str(e.value)


@pytest.mark.parametrize("which", sorted(LOADERS))
def test_missing_file_and_too_large_file(which, tmp_path):
    load, valid = LOADERS[which]
    missing = tmp_path / "missing.json"
    with pytest.raises(DataError, match="does not exist") as e:
        load(str(missing))
    assert str(missing) in str(e.value)
    big = write(tmp_path, json.dumps(valid) + " " * MAX_FILE_BYTES)
    with pytest.raises(DataError, match="MAX_FILE_BYTES") as e:
        load(str(big))
    assert str(big) in str(e.value)


@pytest.mark.parametrize("which", sorted(LOADERS))
def test_a_valid_file_still_loads(which, tmp_path):
    load, valid = LOADERS[which]
    path = write(tmp_path, "\ufeff" + json.dumps(valid))   # a byte-order mark is fine
    assert load(str(path)) == load(valid)


@pytest.mark.parametrize("text", ['{"single": NaN}', '{"single": Infinity}',
                                 '{"single": ' + "9" * 5000 + "}"])
def test_non_standard_numbers(text, tmp_path):
    path = write(tmp_path, text)
    with pytest.raises(DataError, match="not valid JSON") as e:
        gc.load_deck(str(path))
    assert str(path) in str(e.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_is_refused_without_blocking(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    with pytest.raises(DataError, match="not a regular file"):
        read_json_file(path, "team")


@pytest.mark.parametrize("count", [10**7, 10**9, gc.MAX_COPIES + 1])
def test_huge_deck_counts_are_refused(count, tmp_path):
    deck = dict(GS_DECK, strike_out=count)
    start = time.perf_counter()
    with pytest.raises(DataError, match="MAX_COPIES"):
        gc.load_deck(deck)
    path = write(tmp_path, json.dumps(deck))
    with pytest.raises(DataError, match="MAX_COPIES") as e:
        gc.load_deck(str(path))
    assert str(path) in str(e.value) and "strike_out" in str(e.value)
    with pytest.raises(DataError, match="MAX_COPIES"):
        envs.make("grand_slam_v0", deck=deck)
    assert time.perf_counter() - start < SECONDS


def test_deck_size_limit():
    deck = {name: gc.MAX_COPIES for name in gc.CARD_NAMES if name != "pinch_hitter"}
    with pytest.raises(DataError, match="MAX_DECK_CARDS"):
        gc.load_deck(deck)
    deck = dict(GS_DECK, strike_out=gc.MAX_COPIES, ground_out=gc.MAX_COPIES)
    assert sum(gc.load_deck(deck)) <= gc.MAX_DECK_CARDS


def test_numpy_deck_counts_are_python_ints():
    deck = {name: np.int64(n) for name, n in GS_DECK.items()}
    counts = gc.load_deck(deck)
    assert counts == gc.REFERENCE_COUNTS and all(type(n) is int for n in counts)


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("innings, max_innings, limit", [
    (10**6, None, f"1 to {MAX_INNINGS}"), (MAX_INNINGS + 1, None, "MAX_INNINGS"), (0, None, "MAX_INNINGS"),
    (9, 10**6, "MAX_GAME_INNINGS"), (9, MAX_GAME_INNINGS + 1, f"to {MAX_GAME_INNINGS}"),
    (9, 8, "MAX_GAME_INNINGS"), (9.0, None, "MAX_INNINGS"), (True, None, "MAX_INNINGS"),
    (np.float64(9), None, "MAX_INNINGS"), (9, np.bool_(True), "MAX_GAME_INNINGS"),
])
def test_innings_limits(env_id, innings, max_innings, limit):
    start = time.perf_counter()
    with pytest.raises(OptionError, match=limit):
        envs.make(env_id, innings=innings, max_innings=max_innings, **ENV_OPTIONS[env_id])
    assert time.perf_counter() - start < SECONDS


def test_check_innings_returns_python_ints():
    assert check_innings("x", np.int64(9), np.int32(12)) == (9, 12)
    assert check_innings("x", np.uint8(3), None) == (3, None)
    assert all(type(v) is int for v in check_innings("x", np.int16(7), np.int64(99)))


def _game(env, seed: int) -> tuple[list[bytes], dict]:
    """Observations and actions of a seeded game with seeded random legal actions."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    seen: list[bytes] = []
    game = env.unwrapped
    while game.state_.pending is not None:
        agent = env.agent_selection
        seen.append(env.observe(agent)["observation"].tobytes())
        action = rng.choice(game.state_.pending.legal)
        seen.append(bytes([action]))
        env.step(action)
    return seen, env.infos[env.agents[0]]["score"] if env.agents else {}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_numpy_innings_play_the_same_game_as_python_ints(env_id):
    options = ENV_OPTIONS[env_id]
    plain = envs.make(env_id, innings=9, max_innings=12, **options)
    numpy = envs.make(env_id, innings=np.int64(9), max_innings=np.int32(12), **options)
    assert type(numpy.unwrapped.innings) is int and type(numpy.unwrapped.max_innings) is int
    for seed in (0, 1):
        assert _game(numpy, seed) == _game(plain, seed)
    # and the state saves as JSON (a numpy int would not)
    json.dumps(numpy.unwrapped.state_.to_dict())


def test_showdown_numpy_starter_and_point_cap():
    plain = envs.make("showdown_v0", level="basic", starter=2, point_cap=5000)
    numpy = envs.make("showdown_v0", level="basic", starter=np.int64(2), point_cap=np.int64(5000))
    assert type(numpy.unwrapped.starter) is int
    assert _game(numpy, 3) == _game(plain, 3)
    for bad in (5, 0, np.int64(7), 2.0, True):
        with pytest.raises(OptionError, match="starter must be 1-4"):
            envs.make("showdown_v0", starter=bad)
    for bad in (-1, 5000.0, "5000", np.float64(5000)):
        with pytest.raises(OptionError, match="point_cap"):
            envs.make("showdown_v0", point_cap=bad)
    assert sc.load_team("bos2004", point_cap=np.int64(5000)).name


def test_plain_data_check_walks_without_recursion():
    check_plain_data(nested(MAX_DEPTH), "ok")
    with pytest.raises(DataError, match="MAX_DEPTH"):
        check_plain_data(nested(10**6), "deep")


def test_values_too_long_to_print_and_odd_keys_are_named_safely():
    """An int over Python's 4,300-digit printing limit, and keys of mixed types, in a dict."""
    huge = 10**5000
    team = copy.deepcopy(TB_TEAM)
    team["lineup"][0]["average"] = huge
    with pytest.raises(DataError, match="lineup\\[0\\].*'average'.*bits"):
        tc.load_team(team)
    with pytest.raises(DataError, match="unknown field"):
        tc.load_team(dict(TB_TEAM, **{"zz": 1}) | {huge: 1, 3: 2, (1,): 0})
    with pytest.raises(DataError, match="'single'.*MAX_COPIES"):
        gc.load_deck({"single": huge})
    with pytest.raises(DataError, match="unknown card name"):
        gc.load_deck({huge: 1, "x": 2, None: 3})
    card = copy.deepcopy(SD_TEAM)
    card["players"][0]["points"] = huge
    with pytest.raises(DataError, match="players\\[0\\].*'points'"):
        sc.load_team(card)
    card = copy.deepcopy(SD_TEAM)
    card["players"][0]["chart"][huge] = "1-20"
    with pytest.raises(DataError, match="players\\[0\\].*chart"):
        sc.load_team(card)


# ---------------------------------------------------------------------------- paths as str or os.PathLike

class _PathLike:
    """An ``os.PathLike`` that is not a ``pathlib.Path`` (what ``os.fspath`` accepts)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __fspath__(self) -> str:
        return str(self.path)


def _copy_of(source: Path, folder: Path, name: str) -> Path:
    target = folder / name
    target.write_bytes(source.read_bytes())
    return target


DATA = Path(envs.__file__).parent


def _file_options(folder: Path) -> list[tuple[str, dict[str, Any], str, Path]]:
    """(env id, other options, the file option, a good file) for every option that takes a
    file path."""
    sd, b9 = DATA / "showdown" / "data", DATA / "bottom_ninth" / "data"
    pk = DATA / "pokemon_baseball" / "data"
    gs_deck = folder / "deck.json"
    gs_deck.write_text(json.dumps(GS_DECK), encoding="utf-8")
    return [
        ("showdown_v0", {"level": "expert"}, "decks",
         _copy_of(sd / "strategy" / "decks" / "default.json", folder, "deck_sd.json")),
        ("showdown_v0", {"level": "expert", "decks": "default"}, "card_set",
         _copy_of(sd / "strategy" / "cards.json", folder, "card_set.json")),
        ("showdown_v0", {}, "teams", _copy_of(sd / "bos2004.json", folder, "team_sd.json")),
        ("thats_baseball_v0", {}, "teams",
         _copy_of(DATA / "thats_baseball" / "data" / "sample.json", folder, "team_tb.json")),
        ("grand_slam_v0", {}, "deck", gs_deck),
        ("bottom_ninth_v0", {}, "cards", _copy_of(b9 / "cards.json", folder, "cards_b9.json")),
        ("pokemon_baseball_v0", {}, "teams", _copy_of(pk / "teams" / "harbor.json", folder, "team_pk.json")),
        ("pokemon_baseball_v0", {}, "creatures", _copy_of(pk / "creatures.json", folder, "creatures.json")),
        ("manager_challenge_v0", {}, "cards", _copy_of(b9 / "cards.json", folder, "cards_mc.json")),
        ("manager_challenge_v0", {}, "solo_cards", _copy_of(b9 / "solo.json", folder, "solo.json")),
    ]


def _build(env_id: str, options: dict[str, Any], option: str, value: Any):
    if option == "teams":
        value = (value, value)
    if env_id == "manager_challenge_v0":
        from dugout.envs import manager_challenge_v0
        return manager_challenge_v0.env(**options, **{option: value})
    return envs.make(env_id, raw=True, **options, **{option: value})


def _loaded(env, option: str) -> Any:
    """What the env loaded from the file option, as comparable data."""
    game = env
    if option == "decks":
        return game.decks
    if option == "card_set":
        return game.card_set
    if option == "teams":
        return [t.to_dict() if hasattr(t, "to_dict") else repr(t) for t in game.teams]
    if option == "deck":
        return game.deck if hasattr(game, "deck") else game.counts
    if option == "cards":
        return repr(game.cardset if hasattr(game, "cardset") else game.cards)
    if option == "solo_cards":
        return repr(game.soloset)
    game.reset(seed=0)
    return dumps_state(game)


def dumps_state(env) -> str:
    return json.dumps(env.game.to_dict(), sort_keys=True)


@pytest.mark.parametrize("case", range(10))
def test_every_file_option_takes_a_str_or_any_path_like(case, tmp_path):
    """Wherever an option is a file path, a ``str``, a ``pathlib.Path`` and any other
    ``os.PathLike`` load the same thing, and a bad file is a DataError naming it."""
    env_id, options, option, path = _file_options(tmp_path)[case]
    loaded = [_loaded(_build(env_id, options, option, p), option)
              for p in (str(path), path, _PathLike(path))]
    assert loaded[0] == loaded[1] == loaded[2]
    broken = write(tmp_path, "{not json")
    for given in (broken, _PathLike(broken)):
        with pytest.raises(DataError, match=broken.name):
            _build(env_id, options, option, given)
    missing = tmp_path / "missing.json"
    with pytest.raises(DataError, match="missing.json"):
        _build(env_id, options, option, missing)


def test_showdown_decks_and_card_set_as_paths_play_the_same_game(tmp_path):
    """The Showdown expert game with strategy cards from Path objects plays exactly the game
    of the same files named by str, and of the built-in names."""
    sd = DATA / "showdown" / "data" / "strategy"
    deck = _copy_of(sd / "decks" / "default.json", tmp_path, "deck.json")
    cards = _copy_of(sd / "cards.json", tmp_path, "cards.json")
    games = []
    for decks, card_set in (("default", None), (str(deck), str(cards)), (deck, cards),
                            ((deck, str(deck)), cards)):
        env = envs.make("showdown_v0", raw=True, level="expert", decks=decks, card_set=card_set)
        env.reset(seed=3)
        rng = random.Random(3)
        for _ in range(150):
            if env.game.pending is None:
                break
            env.step(rng.choice(env.game.pending.legal))
        games.append(json.dumps(env.game.to_dict(), sort_keys=True, default=str))
    assert games[0] == games[1] == games[2] == games[3]
