"""Game states as plain data (core.state), and the scoreboard's game-end variants.

The generic ``clone()`` / ``to_dict()`` / ``from_dict()`` round-trip every kind of field a
state declares, the clone shares no mutable object with the original, and a dict that is
not a saved state is refused with an error naming what is wrong. The regulation scoreboard
keeps its rules (tests/test_core.py plays them too); the sudden-death variant ends the game
on the batting side's lead or the third out, and a saved scoreboard comes back as its variant.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import NamedTuple

import pytest

from dugout.envs.core import (AWAY, HOME, BoxScore, Decision, Dice, PlainState, SavedAs,
                              ScriptedDice, Scoreboard, SuddenDeathScoreboard, codec)
from dugout.envs.core.bases import Bases
from dugout.envs.core.dice import DICE
from dugout.envs.core.state import SaveError
from dugout.envs.core.scorebook import PLAY_LOG, SINGLE, Play, PlayLog
from dugout.envs.thats_baseball import rules as tb_rules
from dugout.envs.thats_baseball.cards import load_team


# -- a state with every kind of field ---------------------------------------------------------
class Mark(NamedTuple):
    inning: int
    code: str
    bases: Bases


@dataclass(frozen=True)
class Card:
    """An immutable object the state saves its own way (by name)."""
    name: str


CARDS = {"ace": Card("ace"), "joker": Card("joker")}


@dataclass
class Inner(PlainState):
    seen: tuple[str, ...] = ()
    counts: list[int] = field(default_factory=list)


@dataclass
class Everything(PlainState):
    SAVED_AS = SavedAs("ruleset", "everything", "test state")

    number: int
    board: Scoreboard
    dice: Dice | ScriptedDice = field(metadata=DICE)
    box: BoxScore
    log: PlayLog = field(metadata=PLAY_LOG)
    card: Card = field(metadata=codec(lambda c: c.name, CARDS.__getitem__))
    ratio: float = 0.5
    name: str = "x"
    flag: bool = False
    maybe: int | None = None
    bases: Bases = (None, None, None)
    plain: tuple = ()
    ints: tuple[int, ...] = ()
    items: list[int] = field(default_factory=list)
    grid: list[list[int]] = field(default_factory=list)
    deep: list[list[list[int]]] = field(default_factory=list)
    rows: list[tuple] = field(default_factory=list)
    by_name: dict[str, int] = field(default_factory=dict)
    by_number: dict[int, int] = field(default_factory=dict)
    per_team: list[dict[int, int]] = field(default_factory=list)
    icons: list[list[dict[str, int]]] = field(default_factory=list)
    mark: Mark | None = None
    pending: Decision | None = None
    inner: Inner = field(default_factory=Inner)


def everything() -> Everything:
    board = Scoreboard(innings=3)
    board.score([4, 5])
    board.bases = (1, None, 7)
    dice = Dice(11)
    dice.set_stream(2, 3)
    dice.roll("at_bat", dice=2)
    box = BoxScore(["A", "B"], [[("a", "1")], [("b", "2")]])
    box.plate_appearance(0, 0, 1, SINGLE, rbi=1)
    box.add_pitcher(1, "p")
    log = PlayLog()
    log.add(Play(1, 0, "pa", 0, -1, 30, (None, None, None), (0, None, None), (), "1B"))
    return Everything(
        number=3, board=board, dice=dice, box=box, log=log, card=CARDS["joker"], ratio=0.25,
        name="état", flag=True, maybe=7, bases=(None, 4, 2), plain=(1, "a", None),
        ints=(3, 1), items=[1, 2], grid=[[1], [2, 3]], deep=[[[1], []], [[2]]],
        rows=[(1, "P", None), ()], by_name={"K": 1, "V": 2}, by_number={3: 4, 10: 0},
        per_team=[{1: 2}, {}], icons=[[{"K": 1}, {}], [{"SB": 1}]],
        mark=Mark(2, "HR", (None, 1, None)), pending=Decision("steal", 0, (0, 2), 1),
        inner=Inner(("a",), [5]))


def roundtrip(state):
    return type(state).from_dict(json.loads(json.dumps(state.to_dict())))


def test_every_field_type_round_trips_through_json():
    state = everything()
    saved = state.to_dict()
    assert saved["ruleset"] == "everything"
    assert saved["by_number"] == [[3, 4], [10, 0]]          # int keys: [key, value] pairs
    assert saved["by_name"] == {"K": 1, "V": 2}
    assert saved["mark"] == [2, "HR", [None, 1, None]]      # a NamedTuple: its fields
    assert saved["card"] == "joker" and saved["log"] == state.log.to_list()
    assert saved["inner"] == {"seen": ["a"], "counts": [5]}
    again = roundtrip(state)
    assert again.to_dict() == saved
    assert again.card is CARDS["joker"] and again.mark == state.mark
    assert (again.bases, again.plain, again.ints, again.rows) == (
        state.bases, state.plain, state.ints, state.rows)          # tuples come back tuples
    assert again.by_number == {3: 4, 10: 0} and again.per_team == [{1: 2}, {}]
    assert again.log.plays == state.log.plays and again.pending == state.pending
    assert again.board == state.board and again.inner == state.inner


def test_defaults_fill_fields_a_save_lacks():
    saved = everything().to_dict()
    for name in ("inner", "items", "mark"):
        del saved[name]
    state = Everything.from_dict(saved)
    assert state.inner == Inner() and state.items == [] and state.mark is None


def mutable_objects(obj, out=None):
    """Ids of every mutable object reachable from ``obj`` (tuples and frozen things looked
    into or skipped; strings and numbers are immutable)."""
    out = {} if out is None else out
    if isinstance(obj, (str, int, float, bool, type(None), Card, Decision)):
        return out
    if isinstance(obj, tuple):
        for x in obj:
            mutable_objects(x, out)
        return out
    if id(obj) in out:
        return out
    out[id(obj)] = obj
    if isinstance(obj, dict):
        for x in obj.values():
            mutable_objects(x, out)
    elif isinstance(obj, list):
        for x in obj:
            mutable_objects(x, out)
    else:
        names = list(getattr(obj, "__dict__", {}))
        for cls in type(obj).__mro__:
            names += [s for s in getattr(cls, "__slots__", ()) if hasattr(obj, s)]
        for name in names:
            mutable_objects(getattr(obj, name), out)
    return out


def test_clone_shares_no_mutable_object_and_immutable_ones_are_shared():
    state = everything()
    clone = state.clone()
    assert type(clone) is Everything and clone.to_dict() == state.to_dict()
    assert not set(mutable_objects(state)) & set(mutable_objects(clone))
    assert clone.card is state.card and clone.pending is state.pending
    assert clone.mark is state.mark and clone.bases is state.bases


def test_changing_a_clone_leaves_the_original_alone():
    state = everything()
    before = json.dumps(state.to_dict(), sort_keys=True)
    c = state.clone()
    c.number += 1
    c.board.runs[0] += 1
    c.board.line[0].append(9)
    c.dice.roll("at_bat")
    c.box.lines[0][0].h += 1
    c.log.add(state.log.plays[0])
    c.items.append(3)
    c.grid[0].append(3)
    c.deep[0][0].append(3)
    c.rows.append(("x",))
    c.by_name["S"] = 1
    c.by_number[1] = 1
    c.per_team[0][9] = 9
    c.icons[0][0]["K"] = 0
    c.inner.counts.append(1)
    c.inner.seen += ("b",)
    assert json.dumps(state.to_dict(), sort_keys=True) == before


# -- a dict that is not a saved state --------------------------------------------------------------
def test_from_dict_says_what_is_wrong():
    saved = everything().to_dict()
    with pytest.raises(ValueError, match=r"not a saved test state \(ruleset 'showdown'\)"):
        Everything.from_dict({**saved, "ruleset": "showdown"})
    with pytest.raises(ValueError, match="not a saved test state"):
        Everything.from_dict({k: v for k, v in saved.items() if k != "ruleset"})
    with pytest.raises(ValueError, match="field 'number' is missing"):
        Everything.from_dict({k: v for k, v in saved.items() if k != "number"})
    with pytest.raises(ValueError, match=r"unknown field\(s\) \['colour'\]"):
        Everything.from_dict({**saved, "colour": 1})
    with pytest.raises(ValueError, match="^saved test state: card: .*'queen'"):
        Everything.from_dict({**saved, "card": "queen"})
    with pytest.raises(ValueError, match=r"^saved test state: mark: expected a list of 3"):
        Everything.from_dict({**saved, "mark": [1, "HR"]})
    with pytest.raises(ValueError, match=r"^saved test state: inner: unknown field\(s\) \['extra'\]"):
        Everything.from_dict({**saved, "inner": {"seen": [], "extra": 1}})
    with pytest.raises(ValueError, match="is an object, got a list"):
        Everything.from_dict([1, 2])


@pytest.mark.parametrize("field, value, message", [
    ("number", True, r"number: expected an int, got True"),
    ("number", 2.0, r"number: expected an int, got 2\.0"),
    ("ratio", float("nan"), r"ratio: expected a finite number, got nan"),
    ("ratio", "0.5", r"ratio: expected a finite number, got '0\.5'"),
    ("flag", 1, r"flag: expected true or false, got 1"),
    ("name", 3, r"name: expected a string, got 3"),
    ("maybe", "x", r"maybe: expected an int or null, got 'x'"),
    ("bases", [None, 1], r"bases: expected a list of 3, got 2 items"),
    ("bases", [None, 1, [2]], r"bases\[2\]: expected an int, a string or null, got a list of 1"),
    ("plain", [[1]], r"plain\[0\]: expected a number, a string, true, false or null"),
    ("ints", [1, "2"], r"ints\[1\]: expected an int, got '2'"),
    ("items", {"a": 1}, r"items: expected a list, got an object"),
    ("grid", [[1], ["x"]], r"grid\[1\]\[0\]: expected an int, got 'x'"),
    ("deep", [[[1, None]]], r"deep\[0\]\[0\]\[1\]: expected an int, got null"),
    ("rows", [[{}]], r"rows\[0\]\[0\]: expected a number, a string"),
    ("by_name", {"K": "1"}, r"by_name\['K'\]: expected an int, got '1'"),
    ("by_number", [["3", 4]], r"by_number\[0\]\[0\]: expected an int key, got '3'"),
    ("by_number", [[3, 1], [3, 2]], r"by_number\[1\]\[0\]: key 3 is saved twice"),
    ("by_number", [[3]], r"by_number\[0\]: expected a \[key, value\] pair"),
    ("per_team", [{"1": 2}], r"per_team\[0\]: expected a list of \[key, value\] pairs"),
    ("icons", [[{"K": True}]], r"icons\[0\]\[0\]\['K'\]: expected an int, got True"),
    ("mark", [2, "HR", [None, 1]], r"mark\[2\]: expected a list of 3, got 2 items"),
    ("inner", {"counts": [1.5]}, r"inner\.counts\[0\]: expected an int, got 1\.5"),
    ("pending", {"kind": "steal", "actor": 0, "legal": [0, 0], "subject": 1},
     r"pending\.legal: an action is listed twice"),
    ("pending", {"kind": "steal", "actor": 2, "legal": [0], "subject": 1},
     r"pending\.actor: expected 0 to 1, got 2"),
    ("pending", {"kind": "steal", "actor": 0, "legal": [0]}, r"pending: missing key"),
    ("dice", {"type": "keyed", "seed": -1, "stream": [], "draws": {}},
     r"dice\.seed: expected 0 to"),
    ("dice", {"type": "keyed", "seed": 1, "stream": [], "draws": {"at_bat": -2}},
     r"dice\.draws\['at_bat'\]: expected at least 0, got -2"),
    ("log", [[1, 2, "pa", 0, -1, None, [None] * 3, [None] * 3, [], "1B"]],
     r"log\[0\]: a play needs an inning from 1 and a half 0 or 1"),
    ("log", [[1, 0, "pa", 0, -1, None, [None] * 3, [None] * 3, []]],
     r"log\[0\]: expected a list of 10"),
])
def test_every_value_is_checked_against_its_declared_type(field, value, message):
    saved = everything().to_dict()
    saved[field] = value
    with pytest.raises(SaveError, match=r"^saved test state: " + message):
        Everything.from_dict(json.loads(json.dumps(saved)))


@pytest.mark.parametrize("change, message", [
    ({"outs": 4}, r"board\.outs: expected 0 to 3, got 4"),
    ({"inning": 0}, r"board\.inning: expected at least 1, got 0"),
    ({"half": 2}, r"board\.half: expected 0 to 1, got 2"),
    ({"runs": [4, -1]}, r"board\.runs\[1\]: expected at least 0, got -1"),
    ({"bases": [3, None, 3]}, r"board\.bases: a runner is on two bases"),
    ({"line": [[8], []]}, r"board\.line\[0\]: the line's runs add up to 8, the score says 2"),
    ({"line": [[2, 0], []]}, r"board\.line\[0\]: in the top of inning 1 the line has 1 column"),
    ({"winner": 0}, r"board\.winner: a game that is not over has no winner"),
    ({"innings": 12}, r"board\.innings: expected 1 to 9, got 12"),
    ({"variant": "cricket"}, r"board: unknown scoreboard variant 'cricket'"),
])
def test_a_scoreboard_is_checked_for_a_situation_a_game_can_be_in(change, message):
    saved = everything().to_dict()
    saved["board"].update(change)
    with pytest.raises(SaveError, match=r"^saved test state: " + message):
        Everything.from_dict(saved)


@dataclass
class Checked(PlainState):
    """A state whose validate() says what its types cannot."""
    low: int = 0
    high: int = 1

    def validate(self) -> None:
        if self.low > self.high:
            raise SaveError(f"low {self.low} is above high {self.high}", ("low",))


@dataclass
class HoldsChecked(PlainState):
    SAVED_AS = SavedAs("ruleset", "holder", "holder")
    inner: Checked = field(default_factory=Checked)
    rows: list[Checked] = field(default_factory=list)


def test_validate_hooks_run_on_load_at_every_depth_and_name_the_path():
    assert HoldsChecked.from_dict(HoldsChecked(rows=[Checked(1, 2)]).to_dict()).rows == [Checked(1, 2)]
    with pytest.raises(SaveError, match=r"^saved holder: inner\.low: low 3 is above high 1$"):
        HoldsChecked.from_dict({"ruleset": "holder", "inner": {"low": 3}})
    with pytest.raises(SaveError, match=r"^saved holder: rows\[1\]\.low: low 5 is above high 4$"):
        HoldsChecked.from_dict({"ruleset": "holder", "rows": [{}, {"low": 5, "high": 4}]})
    with pytest.raises(SaveError, match=r"^saved Checked: low: low 2 is above high 1$"):
        Checked.from_dict({"low": 2})
    bad = Checked(5, 1)                       # what a program builds is not checked, nor cloned
    assert bad.clone() == bad


def test_a_value_nested_too_deep_is_refused():
    saved = everything().to_dict()
    deep = 1
    for _ in range(100_000):
        deep = [deep]
    saved["grid"] = [deep]
    with pytest.raises(SaveError, match=r"grid\[0\]\[0\]: expected an int, got a list of 1"):
        Everything.from_dict(saved)


def test_a_field_without_a_codec_is_named():
    @dataclass
    class Odd(PlainState):
        where: set[int]

    with pytest.raises(TypeError, match=r"Odd\.where.*codec"):
        Odd({1}).clone()


def test_each_ruleset_refuses_another_rulesets_save():
    saved = tb_rules.new_game(load_team("sample"), load_team("reds"), Dice(0)).to_dict()
    from dugout.envs.grand_slam.rules import GameState as GrandSlam
    from dugout.envs.showdown.rules import GameState as Showdown
    with pytest.raises(ValueError, match="not a saved Grand Slam game .*'thats_baseball'"):
        GrandSlam.from_dict(saved)
    with pytest.raises(ValueError, match="not a saved MLB Showdown game .*'thats_baseball'"):
        Showdown.from_dict(saved)


# -- the scoreboard and its variants -------------------------------------------------------------
def retire(board):
    board.add_outs(3 - board.outs)
    board.end_half()


def test_regulation_scripted_game_ends_as_regulation_rules_say():
    b = Scoreboard(innings=2)
    b.score(["a"])                       # away 1-0 in the 1st
    retire(b)
    retire(b)
    retire(b)                            # top of the 2nd
    b.score(["x"])                       # home ties in the bottom of the 2nd: no walk-off yet
    assert not b.over and b.runs == [1, 1]
    retire(b)                            # tied after 2: extra innings
    assert (b.inning, b.half, b.over) == (3, 0, False)
    retire(b)
    assert b.score(["x", "y", "z"]) == ["x"] and b.over and b.winner == HOME   # walk-off
    assert b.line == [[1, 0, 0], [0, 1, 1]]


def test_scoreboard_saves_its_variant_and_comes_back_as_it():
    b = Scoreboard(innings=3)
    saved = b.to_dict()
    assert saved["variant"] == "regulation"
    assert type(Scoreboard.from_dict(saved)) is Scoreboard
    del saved["variant"]                  # saved before variants were named
    assert Scoreboard.from_dict(saved) == b
    s = SuddenDeathScoreboard(runs=[2, 1], outs=1, bases=(None, 3, None))
    again = Scoreboard.from_dict(json.loads(json.dumps(s.to_dict())))
    assert type(again) is SuddenDeathScoreboard and again == s
    assert type(s.clone()) is SuddenDeathScoreboard
    with pytest.raises(ValueError, match="unknown scoreboard variant 'bottom_ninth'.*regulation"):
        Scoreboard.from_dict({**s.to_dict(), "variant": "bottom_ninth"})


def test_sudden_death_home_wins_on_its_first_run():
    b = SuddenDeathScoreboard()
    assert (b.inning, b.half, b.runs, b.outs) == (9, 1, [0, 0], 0)
    assert b.line == [[0] * 9, [0] * 9]
    b.add_outs(2)
    assert b.score(["a", "b"]) == ["a"]          # only the winning run counts
    assert b.over and b.winner == HOME and b.runs == [0, 1] and b.line[1][-1] == 1


def test_sudden_death_a_home_run_scores_everyone():
    b = SuddenDeathScoreboard(bases=(1, 2, None))
    assert b.score([2, 1, 0], home_run=True) == [2, 1, 0]
    assert b.over and b.winner == HOME and b.runs == [0, 3]


def test_sudden_death_visitors_win_at_the_third_out_even_tied():
    b = SuddenDeathScoreboard(runs=[3, 1], outs=1)
    assert b.line == [[3] + [0] * 8, [1] + [0] * 8]      # the runs so far in the first column
    assert b.score(["a", "b"]) == ["a", "b"] and not b.over   # tied: not yet
    b.add_outs(2)
    b.end_half()
    assert b.over and b.winner == AWAY and not b.truncated and b.runs == [3, 3]


def test_sudden_death_in_a_top_half_and_a_bad_start():
    b = SuddenDeathScoreboard(inning=2, half=0, runs=[0, 1])
    assert b.line == [[0, 0], [1]]
    assert b.score(["a", "b", "c"]) == ["a", "b"]        # the visitors take the lead
    assert b.over and b.winner == AWAY
    top = SuddenDeathScoreboard(inning=4, half=0)
    retire(top)
    assert top.over and top.winner == HOME
    with pytest.raises(ValueError, match="already leads"):
        SuddenDeathScoreboard(runs=[0, 1])
    with pytest.raises(ValueError, match="before its first turn at bat"):
        SuddenDeathScoreboard(inning=1, half=0, runs=[0, 1])


def test_an_engine_plays_a_sudden_death_half_inning():
    """That's Baseball's engine on a sudden-death board: the game ends on the home team's
    first run or the third out, and a saved game keeps the variant."""
    away, home = load_team("sample"), load_team("reds")
    ends = set()
    for seed in range(30):
        box = BoxScore([away.name, home.name],
                       [[(b.name, str(b.aa)) for b in t.batters] for t in (away, home)])
        state = tb_rules.GameState(teams=(away, home), board=SuddenDeathScoreboard(),
                                   dice=Dice(seed), box=box, log=PlayLog(), order=[0, 0])
        tb_rules.run(state)
        rng = random.Random(seed)
        while state.pending is not None:
            if rng.random() < 0.3:
                state = roundtrip(state)
                assert type(state.board) is SuddenDeathScoreboard
            tb_rules.apply_action(state, rng.choice(state.pending.legal))
        b = state.board
        assert b.over and (b.inning, b.half) == (9, 1)
        if b.winner == HOME:      # one run wins it; a home run brings in every runner
            assert b.runs[0] == 0 and (b.runs[1] == 1 or state.log.plays[-1].detail == "HR")
        else:
            assert b.winner == AWAY and b.runs == [0, 0]
        assert all(p.half == 1 for p in state.log.plays)
        ends.add(b.winner)
    assert ends == {HOME, AWAY}


def test_pair_codec_round_trips_and_refuses_a_pair_of_three():
    """A saved (away, home) pair is a list of two; anything else is named, not half-read."""
    from dugout.envs.core.state import PlainState, pair_codec

    @dataclass
    class Two(PlainState):
        pair: tuple = field(metadata=pair_codec(lambda x: {"n": x}, lambda d, i: d["n"] + 10 * i))

    assert Two((1, 2)).to_dict() == {"pair": [{"n": 1}, {"n": 2}]}
    assert Two.from_dict({"pair": [{"n": 1}, {"n": 2}]}).pair == (1, 12)
    with pytest.raises(ValueError, match="pair is a list of two, got list of 3"):
        Two.from_dict({"pair": [{"n": 1}, {"n": 2}, {"n": 3}]})
