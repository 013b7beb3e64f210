"""The Bottom of the 9th card-balance measurement, ``dugout cards``,
on a tiny size: its structure, its determinism for a seed, and its files (fast)."""

from __future__ import annotations

import json

import pytest

from dugout.envs.bottom_ninth.cards import BUILTIN_PATH, load_cards, matching_size
from dugout.studies import bottom_ninth_cards as bal

BATTERS = ["b01", "b18"]
PITCHERS = ["p01", "p12"]          # p12 is Relief-only in the built-in set
PAS = 4


def _numbers(results: dict) -> dict:
    return {k: v for k, v in results.items() if k != "elapsed_s"}


@pytest.fixture(scope="module")
def small():
    return bal.measure(pas=PAS, seed=7, batters=BATTERS, pitchers=PITCHERS)


def test_structure(small):
    assert small["pas"] == PAS and small["seed"] == 7
    assert small["plate_appearances"] == len(BATTERS) * len(PITCHERS) * PAS
    assert [(q["batter"], q["pitcher"]) for q in small["pairs"]] == \
        [(b, p) for b in BATTERS for p in PITCHERS]
    for q in small["pairs"]:
        assert q["n"] == PAS == sum(q["outcomes"].values())
        assert 0 <= q["runs"] <= q["reached"] <= PAS
        assert q["reached"] == sum(c for code, c in q["outcomes"].items() if code in bal.REACHED)
    for kind, ids, per in (("batters", BATTERS, len(PITCHERS)), ("pitchers", PITCHERS, len(BATTERS))):
        rows = small[kind]
        assert [r["id"] for r in rows] == ids
        for r in rows:
            assert r["n"] == per * PAS
            assert 0 <= r["reach_low"] <= r["reach"] <= r["reach_high"] <= 1
            assert 0 <= r["run_low"] <= r["run"] <= r["run_high"] <= 1
            assert r["value_low"] <= r["value"] <= r["value_high"]
            assert isinstance(r["outside"], bool) and isinstance(r["outlier"], bool)
        s = small["summary"][kind]
        assert s["spread"] == pytest.approx(max(r["reach"] for r in rows) - min(r["reach"] for r in rows))
        assert set(s["outliers"]) <= set(s["outside"]) <= set(ids)
    assert all(r["measured_as"] == "either" for r in small["pitchers"])
    assert [r["role"] for r in small["pitchers"]] == ["starter", "reliever"]   # the set's own
    json.dumps(small)                                   # results.json can hold it


def test_deterministic_for_a_seed(small):
    again = bal.measure(pas=PAS, seed=7, batters=BATTERS, pitchers=PITCHERS)
    assert _numbers(again) == _numbers(small)
    # a pair's plate appearances do not depend on which other cards are measured
    alone = bal.measure(pas=PAS, seed=7, batters=BATTERS[1:], pitchers=PITCHERS[1:])
    assert alone["pairs"] == small["pairs"][3:]


def test_lineups_and_roles():
    data = bal.all_either(json.loads(BUILTIN_PATH.read_text()))
    assert {p["role"] for p in data["pitchers"]} == {"either"}
    cs = load_cards(data)
    for b, card in enumerate(cs.batters):
        lineup = bal.lineup_for(cs, b)
        assert lineup[0] == card.id and len(set(lineup)) == 6
        by_id = {c.id: c for c in cs.batters}
        assert matching_size([by_id[i].eligible for i in lineup]) == 6
    assert bal.substitute_for(cs, 0) != cs.pitchers[0].id


def test_main_writes_files(tmp_path, capsys):
    out = tmp_path / "balance"
    bal.main(["--pas", "2", "--seed", "3", "--batters", "b02", "--pitchers", "p06", "--out", str(out),
              "--quiet"])
    printed = capsys.readouterr().out
    assert "| b02 |" in printed and "| p06 |" in printed
    results = json.loads((out / "results.json").read_text())
    assert results["pairs"][0]["n"] == 2
    assert "--pas 2 --seed 3" in (out / "report.md").read_text()
