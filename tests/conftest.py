"""Shared test set-up: value tables are cached in one folder a test run, never in the user's home;
``tests/`` is put on ``sys.path`` so test files can ``import helpers`` (the loops and checks they
share) under pytest's ``--import-mode=importlib``.

Two tiers. By default (``scripts/test.sh``) the random-game runs play their quick sizes
(:func:`helpers.games`) and the tests marked ``full`` (statistical tests whose sample sizes
make their power) are deselected; ``--full`` (``scripts/test.sh --full``, which CI runs)
plays every run at its full size and runs the ``full`` tests too. Nothing is resized in a
statistical test: it runs at its own size, in the full tier.
"""

import os
import sys
from pathlib import Path

import pytest

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true",
                     help="the full tier: random-game runs at full size and the statistical "
                          "tests (marked full); the default is the quick tier")


def pytest_configure(config):
    # before any test module is imported (in xdist's workers too): helpers.games reads it
    os.environ["DUGOUT_TEST_TIER"] = "full" if config.getoption("--full") else "quick"


def pytest_collection_modifyitems(config, items):
    if config.getoption("--full"):
        return
    kept, full = [], []
    for item in items:
        (full if item.get_closest_marker("full") else kept).append(item)
    if full:
        config.hook.pytest_deselected(items=full)
        items[:] = kept


def pytest_report_header(config):
    return ("tier: full (every run at full size, statistical tests included)"
            if config.getoption("--full") else
            "tier: quick (random-game runs at quick sizes; the statistical tests, marked "
            "full, run with --full)")


@pytest.fixture(autouse=True, scope="session")
def _value_table_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    # one cache for the whole run: under pytest-xdist the workers share it (their temporary
    # folders sit side by side), so a table is sampled once a run, not once a worker; a
    # table is written whole (to a temporary file, then renamed), so workers never read half
    base = tmp_path_factory.getbasetemp()
    cache = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "dugout-cache"
    cache.mkdir(exist_ok=True)
    mp.setenv("DUGOUT_CACHE", str(cache))
    yield
    mp.undo()


def _hide_differently(state, viewer, rng):
    """A copy of a Grand Slam ``state`` that differs only in what ``viewer`` cannot see: the
    opponent's hand (swapped with cards of the draw pile), the draw pile's order and the
    face-down cards under every PH/RP card (swapped with cards of the draw pile)."""
    from dugout.envs.grand_slam.cards import N_HAND_TYPES, PINCH_HITTER
    other = state.clone()
    hand = other.hands[1 - viewer]
    for _ in range(3):
        held = [c for c in range(N_HAND_TYPES) if hand[c]]
        card = rng.choice(held)
        swap = [i for i, c in enumerate(other.deck) if c != card and c != PINCH_HITTER]
        i = rng.choice(swap)
        hand[card] -= 1
        hand[other.deck[i]] += 1
        other.deck[i] = card
    for seat in (0, 1):
        for k, beneath in enumerate(other.stacks[seat]):
            swap = [i for i, c in enumerate(other.deck) if c != beneath]
            i = rng.choice(swap)
            other.stacks[seat][k], other.deck[i] = other.deck[i], beneath
    rng.shuffle(other.deck)
    return other


def _hidden_variants(seeds, rng):
    """For each seed, a Grand Slam game played at random to a decision, and a copy that
    differs only in what the acting manager cannot see: yields ``(a_env, b_env, state,
    other)`` with ``a_env`` at ``state`` and ``b_env`` restored to ``other``."""
    from dugout.envs import grand_slam_v0
    a_env, b_env = grand_slam_v0.raw_env(), grand_slam_v0.raw_env()
    for seed in seeds:
        a_env.reset(seed=seed)
        for _ in range(rng.randrange(0, 60)):
            if a_env.game.pending is None:
                break
            a_env.step(rng.choice(a_env.game.pending.legal))
        if a_env.game.pending is None:
            continue
        state = a_env.game.clone()
        other = _hide_differently(state, state.pending.actor, rng)
        b_env.restore(other)
        yield a_env, b_env, state, other


@pytest.fixture
def hidden_variants():
    return _hidden_variants
