"""The value tables' cache file, damaged every way a file can be (property-based).

``value_tables`` caches the tables it samples in a JSON file keyed by their inputs. Whatever
is found at that path instead (random bytes, bytes that are not UTF-8, a truncated file, JSON
nested too deep, any JSON value that is not the tables, the tables with a field damaged), the
tables come back equal to freshly built ones and the file is rewritten; a directory at the
path is left alone, the tables are built in memory and a warning is given once.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dugout.agents import value_tables as vt
from dugout.agents.value_tables import ValueTables, value_tables

INPUTS = {"lineups": [[27] * 9, [29] * 9], "n": 7}
RUNS = 4


def sampler():
    """Small made-up run counts (every state sampled): cheap to solve."""
    counts = np.zeros((2, 3, 8, RUNS), dtype=np.int64)
    counts[0] = [50, 30, 15, 5]
    counts[1] = [40, 35, 20, 5]
    return counts


FRESH = ValueTables({"ruleset": "thats_baseball_v0", **INPUTS}, sampler(), innings=3)

#: Each example gets its own cache folder; the hypothesis runs are reproducible.
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def build(root, **kw):
    return value_tables("thats_baseball_v0", INPUTS, sampler, innings=3, directory=root, **kw)


def cache_path(root):
    build(root)
    (path,) = (root / "value_tables").glob("*.json")
    return path


def assert_fresh(tables):
    assert tables.inputs == FRESH.inputs and tables.innings == FRESH.innings
    np.testing.assert_array_equal(tables.counts, FRESH.counts)
    np.testing.assert_array_equal(tables.we, FRESH.we)


def check_rebuilt(root, path, content: bytes):
    """``content`` at the cache path: the tables are the fresh ones and the file is rewritten
    as them (unless the content was the tables already)."""
    path.write_bytes(content)
    with warnings.catch_warnings():
        warnings.simplefilter("error")               # no warning for a damaged file
        assert_fresh(build(root))
    assert_fresh(ValueTables.load(path))             # rewritten: it loads as the tables


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6),
                                                                         children, max_size=4),
    max_leaves=20)


@pytest.fixture(scope="module")
def saved_text(tmp_path_factory):
    """The cache file as ``value_tables`` writes it."""
    return cache_path(tmp_path_factory.mktemp("cache")).read_text()


@SETTINGS
@given(content=st.binary(max_size=300))
def test_random_bytes_are_rebuilt(tmp_path_factory, content):
    root = tmp_path_factory.mktemp("cache")
    check_rebuilt(root, cache_path(root), content)


@SETTINGS
@given(value=json_values)
def test_any_json_value_is_rebuilt(tmp_path_factory, value):
    root = tmp_path_factory.mktemp("cache")
    check_rebuilt(root, cache_path(root), json.dumps(value).encode())


@SETTINGS
@given(data=st.data())
def test_damaged_tables_are_rebuilt(tmp_path_factory, saved_text, data):
    """The right file with one field replaced, removed, or the file cut short."""
    root = tmp_path_factory.mktemp("cache")
    path = cache_path(root)
    saved = json.loads(saved_text)
    how = data.draw(st.sampled_from(["replace", "remove", "truncate", "count"]))
    if how == "truncate":
        content = saved_text[:data.draw(st.integers(0, len(saved_text)))].encode()
    else:
        key = data.draw(st.sampled_from(sorted(saved)))
        if how == "remove":
            del saved[key]
        elif how == "replace":
            saved[key] = data.draw(json_values)
        else:                                        # one count of the wrong kind
            team, outs, bases, runs = (data.draw(st.integers(0, n - 1)) for n in (2, 3, 8, RUNS))
            saved["counts"][team][outs][bases][runs] = data.draw(st.sampled_from(
                [-1, 1.5, True, None, "3", [1], 2 ** 70]))
        content = json.dumps(saved).encode()
    check_rebuilt(root, path, content)


@pytest.mark.parametrize("content", [
    b"[" * 100_000 + b"]" * 100_000,                 # nested past the JSON reader's depth
    b'{"a": ' * 50_000 + b"1" + b"}" * 50_000,
    b"\xff\xfe\x00not utf-8",
    b"",
    b"[1, 2, 3]",
    b"42",
    b'"tables"',
    b"null",
])
def test_named_damage_is_rebuilt(tmp_path, content):
    check_rebuilt(tmp_path, cache_path(tmp_path), content)


def test_a_directory_at_the_cache_path_is_left_alone_with_one_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(vt, "_WARNED", set())
    path = cache_path(tmp_path)
    path.unlink()
    path.mkdir()
    (path / "mine.txt").write_text("the user's")
    with pytest.warns(RuntimeWarning, match="is a directory"):
        assert_fresh(build(tmp_path))
    with warnings.catch_warnings():
        warnings.simplefilter("error")               # warned once
        assert_fresh(build(tmp_path))
    assert path.is_dir() and (path / "mine.txt").read_text() == "the user's"
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]   # no temporary file


def test_an_unwritable_cache_still_gives_the_tables(tmp_path):
    """A file where the cache's folder should be: nothing can be cached, nothing raises."""
    (tmp_path / "value_tables").write_text("a file, not a folder")
    assert_fresh(build(tmp_path))
