"""Shared test set-up: value tables are cached in a per-session folder, never in the user's home."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _value_table_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("DUGOUT_CACHE", str(tmp_path_factory.mktemp("dugout-cache")))
    yield
    mp.undo()
