"""The same seeds give the same games as when ``tests/data/fingerprints.json`` was written:
observations of both seats, masks, infos, rewards and box scores of seeded games of every env
id and option set, with random and with heuristic managers (``tests/fingerprints.py`` says what
is hashed and how to rewrite the file when a change is meant to change games)."""

from __future__ import annotations

import pytest

import fingerprints
from helpers import case_id, games

EXPECTED = fingerprints.load()
N = {"random": games(fingerprints.RANDOM_GAMES, 3),
     "heuristic": games(fingerprints.HEURISTIC_GAMES, 2)}
CASES = [pytest.param(env_id, options, kind, id=f"{case_id(env_id, options)}-{kind}")
         for env_id, options in fingerprints.all_cases() for kind in N]


def test_every_case_has_fingerprints():
    assert set(EXPECTED) == {fingerprints.case_key(e, o) for e, o in fingerprints.all_cases()}
    for kinds in EXPECTED.values():
        assert {k: len(v) for k, v in kinds.items()} == {
            "random": fingerprints.RANDOM_GAMES, "heuristic": fingerprints.HEURISTIC_GAMES}


@pytest.mark.parametrize("env_id, options, kind", CASES)
def test_seeded_games_are_unchanged(env_id, options, kind):
    expected = EXPECTED[fingerprints.case_key(env_id, options)][kind][:N[kind]]
    got = [fingerprints.fingerprint(env_id, options, kind, seed) for seed in range(N[kind])]
    changed = [seed for seed, (a, b) in enumerate(zip(got, expected)) if a != b]
    assert not changed, (f"seeds {changed} play differently from tests/data/fingerprints.json "
                         "(python tests/fingerprints.py --write if that is meant)")
