"""MLB Showdown team and deck building (``dugout.envs.showdown.build``).

The rulebook's "Building Your Own Team": "Your team has exactly 25 players", "at least 9
fielders and other hitters", "Your starting lineup fills all the fielding positions",
"exactly 4 starters", nobody twice, "a full-cost player as a designated hitter", "a total
point value of 5,000 or less" (backups at one fifth). "Strategy Cards" 1: "a deck of 60
strategy cards ... you don't have more than 4 cards with the same name in your deck".
Every built team and deck here is checked by the loaders (``team_from_dict``,
``load_deck``), played through the env, and its sense measured in a seat-swapped tournament.
"""

from __future__ import annotations

import importlib
import json
import random
from collections import Counter

import pytest

from cli_rows_showdown_build import ALL_ROWS
from dugout.cli.main import Command
from dugout.envs import make
from dugout.envs.core.errors import DataError, OptionError
from dugout.envs.showdown import build
from dugout.envs.showdown.build import build_deck, build_team, team_cost
from dugout.envs.showdown.cards import (FIELD_POSITIONS, POINT_CAP, card_to_dict, load_team,
                                        team_from_dict)
from dugout.envs.showdown.strategy import DECK_SIZE, MAX_COPIES, load_card_set, load_deck
from helpers import games

SEEDS = range(games(24, 6))


def _random_game(env, seed: int) -> tuple[int, int]:
    """A whole game with random legal choices; the final score."""
    env.reset(seed=seed)
    game, rng = env.unwrapped, random.Random(seed)
    while game.state_.pending is not None:
        env.step(rng.choice(game.state_.pending.legal))
    return tuple(game.state_.board.runs)


# ================================================================ the env takes them

def test_a_built_team_and_deck_play_a_whole_expert_game_with_cards():
    team, deck = build_team(2004, seed=3), build_deck(seed=3)
    env = make("showdown_v0", raw=True, level="expert", teams=(team, "bos2004"),
               decks=(deck, "default"))
    assert env.unwrapped.teams[0].name == team["name"] and env.unwrapped.decks is not None
    runs = _random_game(env, 0)
    assert runs[0] != runs[1]                       # a game played to a winner
    assert env.unwrapped.state_.pending is None


def test_two_built_teams_play_the_advanced_game_and_a_file_round_trips(tmp_path):
    a, b = build_team(2004, seed=1), build_team(2004, strategy="random", seed=2, dh=False)
    path = tmp_path / "team.json"
    path.write_text(json.dumps(a), encoding="utf-8")
    env = make("showdown_v0", raw=True, teams=(str(path), b))
    assert env.unwrapped.teams[0] == load_team(a) and not env.unwrapped.teams[1].dh
    _random_game(env, 1)
    assert env.unwrapped.state_.pending is None


# ================================================================ always legal

def _shape(team: dict) -> Counter:
    """The roster's parts; relievers and closers are one bullpen (a closer may fill a
    reliever's place), and the closer's place is counted apart."""
    parts = Counter("backup" if p.get("backup") else p.get("role", "hitter") for p in team["players"])
    parts["bullpen"] = parts.pop("reliever", 0) + parts.pop("closer", 0)
    return parts


@pytest.mark.parametrize("strategy", build.TEAM_STRATEGIES)
def test_every_seed_builds_a_legal_team_of_a_real_shape(strategy):
    """The loader's checks (all of "Building Your Own Team") pass, and the roster has the
    shape asked: 9 full-cost starting hitters, 4 backups, 4 starters, a closer, 7 relievers."""
    for seed in SEEDS:
        data = build_team(2004, seed=seed, strategy=strategy)
        team = team_from_dict(data, f"seed {seed}", point_cap=POINT_CAP)
        assert len(team.players) == 25 and team.total_points <= POINT_CAP
        assert _shape(data) == {"hitter": 9, "backup": 4, "starter": 4, "bullpen": 8}
        assert any(p.get("role") == "closer" for p in data["players"])
        for lineup in team.lineups.values():
            spots = {pos: team.card(p) for p, pos in lineup if p != "P"}
            assert all(spots[pos].fielding(pos) is not None for pos in FIELD_POSITIONS)
        assert len({c.name for c in team.players}) == 25


def test_the_cap_is_the_one_asked_and_other_shapes_hold():
    tight = build_team(2004, points=3000, seed=1)
    assert team_cost(tight) <= 3000
    team_from_dict(tight, point_cap=3000)
    wide = build_team(2004, hitters=15, closers=2, backups=False, seed=2)
    assert _shape(wide) == {"hitter": 15, "starter": 4, "bullpen": 6}
    assert sum(p.get("role") == "closer" for p in wide["players"]) >= 2
    # the 1927 Yankees' 25 cards: their own shape fits only a cap above what they cost
    with pytest.raises(DataError, match="fits under 5,000 points: the cheapest of this shape costs 5,097.2"):
        build_team(1927, hitters=15)
    ruth = build_team(1927, hitters=15, points=5200)
    assert {p["name"] for p in ruth["players"]} == {c.name for c in load_team("nya1927", None).players}


def test_every_seed_builds_a_legal_deck():
    card_set = load_card_set()
    for strategy in build.DECK_STRATEGIES:
        for seed in SEEDS:
            data = build_deck(seed=seed, strategy=strategy)
            deck = load_deck(data, card_set)
            assert len(deck.cards()) == DECK_SIZE == sum(data["cards"].values())
            assert max(data["cards"].values()) <= MAX_COPIES


def test_deck_colours_follow_the_strategy():
    card_set = load_card_set()

    def colours(deck: dict) -> Counter:
        out: Counter = Counter()
        for n, k in deck["cards"].items():
            out[card_set.card(n).color] += k
        return out
    assert colours(build_deck()) == {"offense": 24, "defense": 24, "utility": 12}
    assert colours(build_deck(strategy="offense")) == {"offense": 36, "defense": 12, "utility": 12}
    assert colours(build_deck(strategy="defense"))["defense"] == 36


# ================================================================ sensible

def test_a_built_team_spends_on_the_lineup_and_rotation():
    """The starting nine and the rotation hold most of the points, the bench is backups, the
    rotation runs from the highest point value down ("tournament style")."""
    data = build_team(2004)
    team = load_team(data)
    lineup = {p for p, pos in team.lineups["dh"]}
    rotation = [team.card(k) for k in team.rotation]
    core = sum(team.card(k).points for k in lineup) + sum(c.points for c in rotation)
    assert core >= 0.8 * float(team.total_points)
    assert [c.points for c in rotation] == sorted((c.points for c in rotation), reverse=True)
    bench = [c for c in team.hitters if c.key not in lineup]
    assert bench and all(c.key in team.backups for c in bench)
    assert team.lineups["no_dh"][-1] == ("P", "P")


def test_a_built_team_beats_a_random_legal_roster_seat_swapped():
    """Heuristic managers on both sides, each pairing played from both seats. Measured over
    10 pairs (20 games) against another random roster the built team won 16; here it must win
    65% (a coin does that in 16 games 11% of the time, in 60 games 1%)."""
    from dugout.agents import make_agent
    from dugout.agents.play import play_game
    built, other = build_team(2004), build_team(2004, strategy="random", seed=11)
    pairs = games(30, 8)
    wins = 0
    for seed in range(pairs):
        for seat, teams in (("away", (built, other)), ("home", (other, built))):
            env = make("showdown_v0", teams=teams)
            agents = {s: make_agent("showdown_v0", "heuristic") for s in ("away", "home")}
            wins += play_game(env, agents, seed).winner == seat
    assert wins >= -(-13 * 2 * pairs // 20), wins


# ================================================================ refused

def _cards_of(teams: str, keep=lambda c: True) -> list[dict]:
    """The cards of the built-in teams named (``"bos2004 nya2004"``) that ``keep`` keeps."""
    return [card_to_dict(c) for t in teams.split() for c in load_team(t, None).players if keep(c)]


@pytest.mark.parametrize("call, error, says", [
    (lambda: build_team(1999), OptionError, "no built-in cards for season 1999; the seasons are 1927"),
    (lambda: build_team("2004"), DataError, "card file '2004' does not exist"),
    (lambda: build_team(2004, points=200), DataError, "no legal roster from the built-in 2004 cards fits under 200"),
    (lambda: build_team(2004, points=-1), OptionError, "points must be a non-negative whole number"),
    (lambda: build_team(2004, strategy="greedy"), OptionError, "unknown strategy 'greedy'"),
    (lambda: build_team(2004, seed=-3), OptionError, "seed must be None or a whole number"),
    (lambda: build_team(2004, hitters=8), OptionError, "at least 9 fielders and other hitters"),
    (lambda: build_team(2004, hitters=13, closers=9), OptionError, "closers must be a whole number from 0 to 8"),
    (lambda: build_team(_cards_of("bos2004", lambda c: getattr(c, "role", "") != "starter")),
     DataError, "hold 0 starters; the team needs 4"),
    (lambda: build_team(_cards_of("bos2004 nya2004",
                                  lambda c: c.kind == "pitcher" or c.fielding("C") is None)),
     DataError, "nobody in the cards given qualifies at C"),
    (lambda: build_team(_cards_of("bos2004 nya2004",
                                  lambda c: c.kind == "pitcher" or c.fielding("SS") is None)),
     DataError, "qualifies at SS"),
    (lambda: build_team(_cards_of("bos2004", lambda c: c.kind == "pitcher")), DataError,
     "hold 0 hitters; the team needs 13"),
    (lambda: build_deck({"name": "tiny", "cards": json.loads(json.dumps(
        __import__("dugout.envs.showdown.strategy", fromlist=["x"]).card_set_to_dict(load_card_set())["cards"][:14]))}),
     DataError, "has 14 cards; at most 4 of a name, a deck of 60 needs at least 15"),
    (lambda: build_deck(strategy="aggro"), OptionError, "unknown strategy 'aggro'"),
    (lambda: build_deck(cards="no_such.json"), DataError, "no_such.json"),
])
def test_impossible_requests_are_refused_naming_what_was_wrong(call, error, says):
    with pytest.raises(error) as caught:
        call()
    assert says in str(caught.value), str(caught.value)


def test_a_set_with_fifteen_names_makes_exactly_four_of_each():
    from dugout.envs.showdown.strategy import card_set_to_dict
    raw = card_set_to_dict(load_card_set())
    raw["cards"] = raw["cards"][:15]
    deck = build_deck(raw)
    assert set(deck["cards"].values()) == {MAX_COPIES} and len(deck["cards"]) == 15


# ================================================================ determinism

def test_one_seed_one_team_and_deck_and_seeds_give_variety():
    assert build_team(2004, seed=5) == build_team(2004, seed=5)
    assert build_team(2004) == build_team(2004)
    assert build_deck(seed=5) == build_deck(seed=5)
    assert build_team(2004, strategy="random", seed=5) == build_team(2004, strategy="random", seed=5)
    names = {tuple(sorted(p["name"] for p in build_team(2004, seed=s)["players"])) for s in range(3)}
    assert len(names) == 3
    decks = {json.dumps(build_deck(seed=s)["cards"], sort_keys=True) for s in range(3)}
    assert len(decks) == 3


# ================================================================ the command line

_COMMANDS = {
    "showdown build-team": Command("showdown build-team", "dugout.envs.showdown.__main__",
                                   "", "team", ()),
    "showdown build-deck": Command("showdown build-deck", "dugout.envs.showdown.__main__",
                                   "", "deck", ()),
}


def _invoke(name: str, argv: list[str]):
    from dugout.cli.args import invoke
    command = _COMMANDS[name]
    module = importlib.import_module(command.module)
    return invoke(f"dugout {name}", command.function("configure"), command.function("check"),
                  command.function("run"), argv, module.__doc__)


@pytest.mark.parametrize("row", ALL_ROWS, ids=lambda r: r.id())
def test_each_bad_argument_is_one_line_naming_the_flag(row, tmp_path, monkeypatch, capsys):
    """The rows of ``cli_rows_showdown_build``, run as ``tests/test_cli.py`` runs them: exit
    2, one line naming the flag, no work started, no file left."""
    fixtures, work = tmp_path / "fixtures", tmp_path / "work"
    fixtures.mkdir()
    work.mkdir()
    if row.setup is not None:
        row.setup(fixtures)
    command = _COMMANDS[row.command]
    module = importlib.import_module(command.module)
    monkeypatch.setattr(module, f"run_{command.key}", lambda ns: pytest.fail("work started"))
    monkeypatch.chdir(work)
    argv = [*command.example, *(a.replace("{tmp}", str(fixtures)) for a in row.argv)]
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        _invoke(row.command, argv)
    lines = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and len(lines) == 1, lines
    assert lines[0].startswith(f"dugout {row.command}: error: ")
    assert row.flag in lines[0] and row.says in lines[0], lines[0]
    assert not list(work.iterdir())


def test_the_commands_write_files_the_env_loads(tmp_path, capsys):
    team_path, deck_path = tmp_path / "t" / "team.json", tmp_path / "deck.json"
    _invoke("showdown build-team", ["--season", "2004", "--seed", "3", "--out", str(team_path)])
    _invoke("showdown build-deck", ["--seed", "3", "--strategy", "defense", "--out", str(deck_path)])
    assert json.loads(team_path.read_text()) == build_team(2004, seed=3)
    assert json.loads(deck_path.read_text()) == build_deck(seed=3, strategy="defense")
    env = make("showdown_v0", raw=True, level="expert", teams=(str(team_path), "nya2004"),
               decks=str(deck_path))
    assert env.unwrapped.decks[0].name == "built defense 3"
    capsys.readouterr()
    printed = _invoke("showdown build-team", ["--cards", str(team_path), "--nl"])
    assert json.loads(capsys.readouterr().out) == printed and printed["dh"] is False
