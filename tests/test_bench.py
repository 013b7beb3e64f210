"""Smoke tests of the benchmark, ``python -m dugout.studies.bench``.

They check that a tiny run completes and reports sensible figures. Speed itself is never
asserted: it depends on the machine.
"""

from __future__ import annotations

import importlib
import json
import math
import random
import sys

import numpy as np
import pytest

from dugout.envs import bottom_ninth_v0, grand_slam_v0, pokemon_baseball_v0, showdown_v0
from dugout.envs import thats_baseball_v0
from dugout.studies import bench

RATES = ("decisions_per_s", "plate_appearances_per_s", "games_per_s")


def _classic_installed() -> bool:
    """Whether PettingZoo's classic envs import here (checked apart from the benchmark)."""
    try:
        importlib.import_module("pettingzoo.classic.tictactoe.tictactoe")
        importlib.import_module("pettingzoo.classic.rlcard_envs.texas_holdem")
    except ImportError:
        return False
    return True


def _positive(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0


DUGOUT = ("thats_baseball_v0", "thats_baseball_engine", "grand_slam_v0", "grand_slam_engine",
          "showdown_v0", "showdown_engine", "showdown_basic_v0", "showdown_basic_engine",
          "showdown_expert_v0", "showdown_expert_engine", "bottom_ninth_v0", "bottom_ninth_engine", "bottom_ninth_game_v0", "bottom_ninth_game_engine",
          "pokemon_baseball_v0", "pokemon_baseball_engine")
# each dugout AEC env, and the JSON key of its decisions/s ratios to the peers
AEC_RATIOS = {"thats_baseball_v0": "ratios", "grand_slam_v0": "grand_slam_ratios",
              "showdown_v0": "showdown_ratios", "showdown_basic_v0": "showdown_basic_ratios",
              "showdown_expert_v0": "showdown_expert_ratios",
              "bottom_ninth_v0": "bottom_ninth_ratios",
              "bottom_ninth_game_v0": "bottom_ninth_game_ratios",
              "pokemon_baseball_v0": "pokemon_baseball_ratios"}


def test_every_registered_env_id_is_timed_or_said_not_to_be():
    """The benchmark's coverage is read against the env registry: every env id is timed
    (its AEC measurements among the runs and the ratios) or named with the reason it is not."""
    from dugout.envs import env_ids
    assert bench.unaccounted() == []
    assert set(bench.BENCHED) | set(bench.NOT_BENCHED) == set(env_ids("all"))
    assert not set(bench.BENCHED) & set(bench.NOT_BENCHED)
    assert set(bench.BENCHED) == set(env_ids("aec"))
    keys = {key for key, _, _ in bench.dugout_runs()}
    ratio_keys = {key for key, _ in bench.RATIO_KEYS}
    for env_id, measured in bench.BENCHED.items():
        assert set(measured) <= keys and set(measured) <= ratio_keys, env_id
    assert {k for m in bench.BENCHED.values() for k in m} == ratio_keys


def test_an_env_id_registered_since_is_unaccounted_for():
    from dugout.envs import registry
    registry.register_env("my_ruleset_v0", "dugout.envs.thats_baseball_v0")
    try:
        assert bench.unaccounted() == ["my_ruleset_v0"]
    finally:
        registry._SPECS.pop("my_ruleset_v0")
    assert bench.unaccounted() == []


def _check_dugout_figures(results: dict) -> None:
    for key in DUGOUT:
        figures = results[key]
        assert figures["games"] == 3
        for name in ("decisions", "plate_appearances", "seconds") + RATES:
            assert _positive(figures[name]), (key, name, figures[name])
    # Same seeds, same picker: the AEC env and the engine play the very same games.
    aec, engine = results["thats_baseball_v0"], results["thats_baseball_engine"]
    assert aec["decisions"] == engine["decisions"]
    assert aec["plate_appearances"] == engine["plate_appearances"]
    # Nine innings a side, three outs an inning: at least 51 plate appearances a game.
    assert aec["plate_appearances"] >= 3 * 51
    gs, gs_engine = results["grand_slam_v0"], results["grand_slam_engine"]
    assert gs["decisions"] == gs_engine["decisions"]
    assert gs["plate_appearances"] == gs_engine["plate_appearances"]
    # a double play makes two outs, but the runner doubled up came to the plate too
    assert gs["plate_appearances"] >= 3 * 51
    for aec_key, engine_key in (("bottom_ninth_v0", "bottom_ninth_engine"),
                                ("bottom_ninth_game_v0", "bottom_ninth_game_engine")):
        b9, b9_engine = results[aec_key], results[engine_key]
        assert b9["decisions"] == b9_engine["decisions"], aec_key
        assert b9["plate_appearances"] == b9_engine["plate_appearances"], aec_key
    # the duel: at least three plate appearances (three outs or a run before)
    assert results["bottom_ninth_v0"]["plate_appearances"] >= 3
    for aec_key, engine_key in (("showdown_v0", "showdown_engine"),
                                ("showdown_basic_v0", "showdown_basic_engine"),
                                ("showdown_expert_v0", "showdown_expert_engine")):
        sd, sd_engine = results[aec_key], results[engine_key]
        assert sd["decisions"] == sd_engine["decisions"], aec_key
        assert sd["plate_appearances"] == sd_engine["plate_appearances"], aec_key
        assert sd["plate_appearances"] >= 3 * 51, aec_key
    pk, pk_engine = results["pokemon_baseball_v0"], results["pokemon_baseball_engine"]
    assert pk["decisions"] == pk_engine["decisions"]
    assert pk["plate_appearances"] == pk_engine["plate_appearances"]
    # two lineup cards a game (eight picks each at least) before any plate appearance
    assert pk["decisions"] >= 3 * 2 * 8 and pk["plate_appearances"] >= 3 * 51
    # the basic game's only decisions: each manager's starting pitcher
    assert results["showdown_basic_v0"]["decisions"] == 2 * 3
    # the advanced game asks for more (pinch hitters, icons, runners ...)
    assert results["showdown_v0"]["decisions"] > 2 * 3


def test_small_run_reports_all_figures(capsys, tmp_path):
    out_file = tmp_path / "bench.json"
    figures = bench.main(["--games", "3", "--seed", "7", "--json", str(out_file)])
    printed = capsys.readouterr().out

    for name in ("thats_baseball_v0", "grand_slam_v0", "showdown_v0", "showdown_basic_v0",
                 "showdown engine", "showdown_basic engine", "tictactoe_v3", "texas_holdem_v4"):
        assert name in printed
    _check_dugout_figures(figures["results"])
    assert figures["settings"]["showdown_teams"] == ["nya2004", "bos2004"]
    assert "games/s and PA/s are what count" in printed

    if _classic_installed():
        assert figures["comparison_missing"] is None
        for aec_key, json_key in AEC_RATIOS.items():
            assert set(figures[json_key]) == {"tictactoe_v3", "texas_holdem_v4"}, json_key
            for key, ratio in figures[json_key].items():
                assert _positive(ratio), (json_key, key)
                # the ratio is the dugout env's decision rate over the peer's, from the same run
                rate = figures["results"][aec_key]["decisions_per_s"]
                assert math.isclose(ratio, rate / figures["results"][key]["decisions_per_s"])
            assert f"{aec_key} decisions/s:" in printed
        for key, ratio in figures["ratios"].items():
            assert _positive(ratio), key
            peer = figures["results"][key]
            assert peer["plate_appearances"] is None
            for name in ("games", "decisions", "seconds", "decisions_per_s", "games_per_s"):
                assert _positive(peer[name]), (key, name)
            # with --games, each peer plays at least as many decisions as each dugout AEC run
            for aec_key in AEC_RATIOS:
                assert peer["decisions"] >= figures["results"][aec_key]["decisions"]
            assert f"x {key}" in printed
    else:
        assert "pip install -e .[bench]" in printed
        for json_key in AEC_RATIOS.values():
            assert figures[json_key] == {}

    # the batched engine: 20,000 decisions per game asked (at least one game finished)
    batched = figures["results"]["thats_baseball_batched"]
    assert batched["decisions"] >= 20_000 * 3 and batched["games"] >= 1
    assert batched["plate_appearances"] is None and _positive(batched["decisions_per_s"])
    assert "thats_baseball batched (B=4,096) decisions/s:" in printed
    rate = batched["decisions_per_s"]
    for key, ratio in figures["batched_ratios"].items():
        assert math.isclose(ratio, rate / figures["results"][key]["decisions_per_s"]), key
    assert "thats_baseball_engine" in figures["batched_ratios"]
    if _classic_installed():
        assert set(figures["batched_ratios"]) == {"thats_baseball_engine", "tictactoe_v3",
                                                  "texas_holdem_v4"}

    assert json.loads(out_file.read_text(encoding="utf-8")) == figures


def test_without_classic_envs_dugout_figures_still_print(capsys, monkeypatch):
    # A None entry in sys.modules makes an import of that module fail with ImportError;
    # the submodules an earlier test imported are blocked too.
    for name in [m for m in sys.modules if m.startswith("pettingzoo.classic.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "pettingzoo.classic", None)
    figures = bench.main(["--games", "3", "--rounds", "2"])
    printed = capsys.readouterr().out

    assert "pip install -e .[bench]" in printed
    assert "--rounds needs PettingZoo's tictactoe_v3" in printed
    assert figures["interleaved_ratios"] == {}
    for name in ("thats_baseball_v0", "grand_slam_v0", "showdown_v0", "showdown_basic_v0",
                 "tictactoe_v3", "texas_holdem_v4"):
        assert name in printed
    for json_key in AEC_RATIOS.values():
        assert figures[json_key] == {}
    assert set(figures["results"]) == set(DUGOUT) | {"thats_baseball_batched"}
    _check_dugout_figures(figures["results"])
    assert set(figures["batched_ratios"]) == {"thats_baseball_engine"}


def test_seconds_option_runs_by_time(capsys):
    figures = bench.main(["--seconds", "0.05"])
    capsys.readouterr()
    assert figures["settings"]["games"] is None
    for key, result in figures["results"].items():
        assert result["games"] >= 1, key
        assert _positive(result["decisions_per_s"]), key


def test_interleaved_rounds_alternate_with_tictactoe():
    """``--rounds``: each round times the env, then tictactoe_v3 for as many decisions."""
    if not _classic_installed():        # (CI installs them: scripts/test.sh, the bench extra)
        with pytest.raises(ImportError):
            bench.peer_aec("tictactoe_v3")
        return
    timed = []
    play = bench.showdown_aec("advanced")
    peer = bench.peer_aec("tictactoe_v3")

    def spy(name, inner):
        def wrapped(rng, seed):
            out = inner(rng, seed)
            timed.append((name, out[0]))
            return out
        return wrapped

    r = bench.interleaved("showdown_v0", "showdown_v0 (AEC)", spy("showdown", play),
                          spy("tictactoe", peer), 3, bench.Budget(games=1), seed=5)
    assert len(r["rounds"]) == 3 and all(_positive(x) for x in r["rounds"])
    assert r["min"] <= r["median"] <= r["max"] and r["median"] == sorted(r["rounds"])[1]
    # per round: a warm-up game and one timed game of the env, then tictactoe (a warm-up
    # game and whole games until at least as many decisions)
    names = [name for name, _ in timed]
    at = 0
    for _ in range(3):
        assert names[at:at + 2] == ["showdown", "showdown"]
        env_decisions = timed[at + 1][1]
        at += 2
        start = at
        while at < len(names) and names[at] == "tictactoe":
            at += 1
        assert sum(d for _, d in timed[start + 1:at]) >= env_decisions
    assert at == len(names)


def test_rounds_must_not_be_negative(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--rounds", "-1"])
    assert "--rounds: must be a whole number from 0 to 1000 (rounds), got '-1'" in \
        capsys.readouterr().err


def test_split_needs_rounds(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--split"])
    assert "--split needs --rounds" in capsys.readouterr().err


ENV_MAKERS = {
    "thats_baseball": lambda: thats_baseball_v0.env(teams=bench.TEAMS),
    "grand_slam": grand_slam_v0.env,
    "showdown": lambda: showdown_v0.env(teams=bench.SHOWDOWN_TEAMS),
    "showdown_expert": lambda: showdown_v0.env(level="expert", teams=bench.SHOWDOWN_TEAMS),
    "showdown_basic": lambda: showdown_v0.env(level="basic", teams=bench.SHOWDOWN_TEAMS),
    "showdown_cards": lambda: showdown_v0.env(level="expert", teams=bench.SHOWDOWN_TEAMS,
                                              decks="default"),
    "bottom_ninth_duel": lambda: bottom_ninth_v0.env(mode="duel"),
    "bottom_ninth_game": lambda: bottom_ninth_v0.env(mode="game"),
    "pokemon_baseball": lambda: pokemon_baseball_v0.env(teams=bench.POKEMON_TEAMS),
    "pokemon_series": lambda: pokemon_baseball_v0.env(teams=bench.POKEMON_TEAMS, series=3),
}


@pytest.mark.parametrize("name", sorted(ENV_MAKERS))
def test_blank_observations_keep_the_game_and_the_masks(name):
    """``--split``'s blank env: zeros for every observation of the ruleset's own (a series
    env's series pieces after them), within the observation space, and otherwise the very
    same game (masks, rewards, infos), decision by decision."""
    real, blank = ENV_MAKERS[name](), bench.without_observations(ENV_MAKERS[name]())
    own = blank.unwrapped.OBS.size
    rng = random.Random(3)
    steps = 0
    for seed in (11, 12):
        real.reset(seed=seed)
        blank.reset(seed=seed)
        for agent in real.agent_iter():
            assert blank.agent_selection == agent, name
            obs, reward, term, trunc, info = real.last()
            zobs, zreward, zterm, ztrunc, zinfo = blank.last()
            assert zobs["observation"].shape == obs["observation"].shape
            assert blank.observation_space(agent)["observation"].contains(zobs["observation"])
            assert not zobs["observation"][:own].any()
            assert np.array_equal(zobs["observation"][own:], obs["observation"][own:])
            assert obs["observation"].any()         # the real env's is not blank
            assert np.array_equal(zobs["action_mask"], obs["action_mask"])
            assert (zreward, zterm, ztrunc, zinfo) == (reward, term, trunc, info)
            action = None if term or trunc else bench.pick(rng, np.flatnonzero(obs["action_mask"]))
            real.step(action)
            blank.step(action)
            steps += 1
        assert not blank.agents
    # two games: each at least a decision per manager (the basic game's only ones, the
    # starting pitchers) and the two steps that retire the managers
    assert steps >= 8


def test_cost_split_times_the_same_games_three_ways_then_the_peer():
    """``--split``: per round the env, the blank env and the engine play the same games, then
    the peer (tictactoe_v3 in the benchmark; here Grand Slam's engine, which needs no extra
    install) for as many decisions; the three parts add up to the env's time."""
    calls = []

    def spy(name, inner):
        def wrapped(rng, seed):
            out = inner(rng, seed)
            calls.append((name, seed, out))
            return out
        return wrapped

    split = bench.cost_split(
        "showdown_v0", spy("env", bench.showdown_aec("advanced")),
        spy("blank", bench.showdown_aec("advanced", observations=False)),
        spy("engine", bench.showdown_engine("advanced")),
        spy("peer", bench.grand_slam_engine()), 2, bench.Budget(games=2), seed=4)
    assert set(split["median"]) == set(split["rounds"]) == set(bench.SPLIT_FIGURES)
    rounds = split["rounds"]
    for r in range(2):
        parts = rounds["engine"][r] + rounds["observation"][r] + rounds["aec"][r]
        assert math.isclose(parts, 1 / rounds["ratio"][r])
        assert math.isclose(rounds["engine"][r], 1 / rounds["engine_ratio"][r])
        assert all(_positive(rounds[key][r]) for key in ("ratio", "blank_ratio", "engine_ratio"))
    assert split["ratios"]["rounds"] == rounds["ratio"]
    assert split["ratios"]["min"] <= split["ratios"]["median"] <= split["ratios"]["max"]
    at = 0
    for r in range(2):
        three = calls[at:at + 9]        # a warm-up game and two timed games each way
        assert [name for name, _, _ in three] == ["env"] * 3 + ["blank"] * 3 + ["engine"] * 3
        # the same games: the same seeds, decisions and plate appearances each way
        env_games, blank_games, engine_games = ([c[1:] for c in three[i:i + 3]] for i in (0, 3, 6))
        assert env_games == blank_games == engine_games
        at += 9
        start = at
        while at < len(calls) and calls[at][0] == "peer":
            at += 1
        assert sum(out[0] for _, _, out in calls[start + 1:at]) >= sum(
            out[0] for _, _, out in three[1:3])
    assert at == len(calls)
    line = bench.format_split("showdown_v0", split)
    assert line.startswith("  showdown_v0: ") and "with blank observations" in line


def test_split_run_reports_every_aec_env(capsys, monkeypatch):
    if not _classic_installed():        # a stand-in peer, so the split runs here too
        monkeypatch.setattr(bench, "peer_aec", lambda name: bench.grand_slam_engine())
    figures = bench.main(["--games", "2", "--rounds", "1", "--split"])
    printed = capsys.readouterr().out
    assert list(figures["cost_split"]) == list(AEC_RATIOS)
    assert "Where a decision's time goes (--split)" in printed
    for key, split in figures["cost_split"].items():
        # the split's rounds are the --rounds comparison (not timed twice)
        assert figures["interleaved_ratios"][key] == split["ratios"]
        assert printed.count(f"  {key}: ") == 2
        for name in bench.SPLIT_FIGURES:
            only = split["rounds"][name]
            assert len(only) == 1 and split["median"][name] == only[0]
        assert all(_positive(split["median"][name]) for name in ("ratio", "blank_ratio",
                                                                 "engine_ratio", "engine"))


def test_markdown_writes_the_generated_block_and_keeps_the_prose(capsys, tmp_path):
    """``--markdown FILE``: a new file is the block under a title; a file holding the block has
    it replaced in place (the prose around it kept); one without it gets the block at its end;
    a half block is refused before any game, the file left as it was."""
    page = tmp_path / "docs" / "bench.md"
    figures = bench.main(["--games", "1", "--rounds", "1", "--markdown", str(page)])
    assert f"Markdown tables written to {page}" in capsys.readouterr().out
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Benchmarks\n\n" + bench.MARKDOWN_BEGIN + "\n")
    assert text.count(bench.MARKDOWN_BEGIN) == text.count(bench.MARKDOWN_END) == 1
    assert text.endswith(bench.MARKDOWN_END + "\n")
    assert "`dugout bench --games 1 --rounds 1 --markdown FILE`" in text
    for key in figures["results"]:                         # a row per measurement
        assert f"| `{bench._labels()[key]}` | " in text, key
    assert "alternating in 1 round in one process" in text
    for key in figures["interleaved_ratios"]:
        assert f"| `{key}` | " in text

    prose = page.with_name("prose.md")
    prose.write_text("# Page\n\nBefore.\n\n" + text.split("\n\n", 1)[1] + "\nAfter.\n",
                     encoding="utf-8")
    bench.write_markdown(prose, figures, "dugout bench --games 9", date="2000-01-02")
    again = prose.read_text(encoding="utf-8")
    assert again.startswith("# Page\n\nBefore.\n\n" + bench.MARKDOWN_BEGIN)
    assert again.endswith(bench.MARKDOWN_END + "\n\nAfter.\n")
    assert again.count(bench.MARKDOWN_BEGIN) == 1 and "--games 1 " not in again
    assert "`dugout bench --games 9 --markdown FILE` on 2000-01-02" in again

    plain = page.with_name("plain.md")
    plain.write_text("# Notes\n\nNo block yet.", encoding="utf-8")
    bench.write_markdown(plain, figures, "dugout bench --games 1")
    assert plain.read_text(encoding="utf-8").startswith(
        "# Notes\n\nNo block yet.\n\n" + bench.MARKDOWN_BEGIN + "\n")

    half = page.with_name("half.md")
    half.write_text("# Half\n\n" + bench.MARKDOWN_BEGIN + "\nold figures\n", encoding="utf-8")
    before = half.read_text(encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--games", "1", "--markdown", str(half)])
    err = capsys.readouterr()
    assert exit_.value.code == 2 and err.out == ""
    assert err.err.startswith("dugout bench: error: --markdown ") and "generated block" in err.err
    assert half.read_text(encoding="utf-8") == before
