"""Bottom of the 9th card sets: the sample set the tests use (original, invented cards) and
the loader's validation (every error names the file, the card and the field)."""

from __future__ import annotations

import copy
import json

import pytest

from dugout.envs.bottom_ninth.cards import (MAX_CARDS, can_complete_lineup, load_cards,
                                            matching_size, pair_needs, parse_cards)
from dugout.envs.core import DataError


def _table(d=(), l=(), b=()):
    return {"direction": list(d), "location": list(l), "both": list(b)}


PLUS1_SWING = {"modify": "swing", "by": 1}
PM1_SWING = {"modify": "swing", "by": "+-1"}
REROLL_SWING = {"reroll": "swing"}
PM1_CONTROL = {"modify": "control", "by": "+-1"}
REROLL_CONTROL = {"reroll": "control"}

_POSITIONS = ["C", "1B", "2B", "3B", "SS", "LF", "CF", "RF", "IF", "OF", "UT", "1B", "LF", "SS"]


def sample_cards() -> dict:
    """An original sample set: 14 batters, 7 pitchers (enough for a draft)."""
    batters = []
    for i, pos in enumerate(_POSITIONS):
        traits = []
        if i % 4 == 1:
            traits.append({"trait": "speed", "by": 1})
        if i % 5 == 2:
            traits.append({"trait": "crush_on", "values": [5]})
        if i == 3:
            traits.append({"trait": "hit_by_pitch", "control": [1]})
        batters.append({
            "id": f"b{i:02d}", "name": f"Sample Batter {i}", "position": pos,
            "stare_down": _table([PLUS1_SWING], [REROLL_SWING],
                                 [{"choose": 2, "of": [REROLL_SWING, PM1_SWING]}]),
            "mvp": [{"choose": 1, "of": [PLUS1_SWING, {"modify": "swing", "by": -1}]}] if i % 2 else [PM1_SWING],
            "traits": traits})
    roles = ["starter", "either", "reliever", "either", "starter", "reliever", "either"]
    aces = [("inside", "high"), ("away", "low"), ("inside", "low"), ("away", "high"),
            ("inside", "high"), ("away", "low"), ("inside", "low")]
    pitchers = []
    for i, role in enumerate(roles):
        traits = [{"trait": "fielding", "by": 1}] if i % 3 == 0 else []
        if i == 1:
            traits.append({"trait": "stamina", "by": 1})
        if i == 4:
            traits.append({"trait": "tires", "by": 1})
        pitchers.append({
            "id": f"p{i}", "name": f"Sample Pitcher {i}", "role": role,
            "ace": {"direction": aces[i][0], "location": aces[i][1],
                    "ability": [{"choose": 2, "of": [REROLL_CONTROL, PM1_CONTROL]}]},
            "stare_down": _table([PM1_CONTROL], [{"face": "pitch", "to": "C", "from": ["S"]}],
                                 [{"choose": 2, "of": [REROLL_CONTROL, PM1_CONTROL, {"reroll": "pitch"}]}]),
            "traits": traits,
            "batting": _table([PLUS1_SWING], [], [])})
    return {"set": "sample", "version": 1, "batters": batters, "pitchers": pitchers}


def blank_cards() -> dict:
    """The sample set with every ability and trait removed."""
    data = sample_cards()
    for b in data["batters"]:
        b["stare_down"] = _table()
        b["mvp"] = []
        b["traits"] = []
    for p in data["pitchers"]:
        p["stare_down"] = _table()
        p["ace"]["ability"] = []
        p["traits"] = []
    return data


def write(tmp_path, data, name="cards.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_sample_and_blank_sets_load():
    for data in (sample_cards(), blank_cards()):
        cs = load_cards(data)
        assert len(cs.batters) == 14 and len(cs.pitchers) == 7
        assert len(cs.cards) == 21


def test_a_file_loads_and_a_saved_set_round_trips(tmp_path):
    cs = load_cards(write(tmp_path, sample_cards()))
    assert type(cs).from_dict(json.loads(json.dumps(cs.to_dict()))) == cs


@pytest.mark.parametrize("change, words", [
    (lambda d: d["batters"][2].update(position="P"), ["batters[2] ('b02').position", "'P'"]),
    (lambda d: d["batters"][0]["stare_down"]["direction"].append({"reroll": "control"}),
     ["batters[0] ('b00').stare_down.direction[1]", "only target swing"]),
    (lambda d: d["pitchers"][1]["stare_down"]["both"].append({"modify": "swing", "by": 1}),
     ["pitchers[1] ('p1').stare_down.both[1]", "only target pitch or control"]),
    (lambda d: d["pitchers"][0]["ace"].update(direction="middle"), ["pitchers[0] ('p0').ace.direction"]),
    (lambda d: d["pitchers"][0].update(role="closer"), ["pitchers[0] ('p0').role"]),
    (lambda d: d["batters"][1]["traits"].append({"trait": "speed", "by": 9}),
     ["batters[1] ('b01').traits", ".by", "from -1 to 3"]),
    (lambda d: d["batters"][1]["traits"].append({"trait": "fielding", "by": 1}),
     ["batters[1] ('b01').traits[1].trait"]),
    (lambda d: d["batters"][4]["mvp"].append({"modify": "swing", "by": 2}), ["batters[4] ('b04').mvp[1].by"]),
    (lambda d: d["batters"][4]["mvp"].append({"reroll": "swing", "if_natural": [7]}),
     ["batters[4] ('b04').mvp[1].if_natural"]),
    (lambda d: d["batters"][4]["mvp"].append({"choose": 2, "of": [{"choose": 1, "of": []}]}),
     ["batters[4] ('b04').mvp[1].of[0]", "another 'choose'"]),
    (lambda d: d["batters"][5].update(id="b00"), ["batters[5]", "used twice"]),
    (lambda d: d["batters"][5].update(hat="red"), ["batters[5] ('b05')", "unknown field", "'hat'"]),
    (lambda d: d["batters"][5].pop("mvp"), ["batters[5] ('b05')", "missing", "'mvp'"]),
    (lambda d: d.update(version=2), ["version"]),
    (lambda d: d.update(pitchers=[p for p in d["pitchers"] if p["role"] == "starter"]),
     ["pitchers", "substitute"]),
    (lambda d: d.update(batters=d["batters"][:5]), ["batters", "six batters"]),
    (lambda d: d["pitchers"][2]["stare_down"]["location"][0].update({"from": ["X"]}),
     ["pitchers[2] ('p2').stare_down.location[0].from"]),
])
def test_bad_card_files_name_the_file_the_card_and_the_field(tmp_path, change, words):
    data = sample_cards()
    change(data)
    path = write(tmp_path, data, "my_cards.json")
    with pytest.raises(DataError) as err:
        load_cards(path)
    msg = str(err.value)
    assert "my_cards.json" in msg
    for w in words:
        assert w in msg, (w, msg)
    with pytest.raises(DataError):
        load_cards(copy.deepcopy(data))


def test_too_many_cards_and_bad_sources(tmp_path):
    data = sample_cards()
    data["batters"] = [dict(b, id=f"x{i}") for i, b in enumerate(data["batters"] * 5)]
    with pytest.raises(DataError, match=f"at most {MAX_CARDS}"):
        load_cards(data)
    with pytest.raises(DataError, match="does not exist"):
        load_cards(tmp_path / "nope.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(DataError, match="bad.json"):
        load_cards(tmp_path / "bad.json")
    with pytest.raises(DataError, match="cards must be"):
        load_cards(3)


def test_matching_helpers():
    C, IF, OF, UT = (0,), (1, 2, 3, 4, 0), (5, 6, 7), tuple(range(8))
    assert matching_size([C, C]) == 1
    assert matching_size([IF] * 6) == 5
    assert matching_size([IF] * 5 + [OF]) == 6
    assert can_complete_lineup([C], [IF] * 4 + [OF])
    assert not can_complete_lineup([C, C], [UT] * 10)
    assert not can_complete_lineup([IF] * 5, [IF, C])
    cs = parse_cards(sample_cards(), "s")
    ps = list(cs.pitchers)
    assert pair_needs([], ps) == 2
    assert pair_needs([ps[0]], ps[1:]) == 1
    assert pair_needs([ps[0], ps[2]], []) == 0
    assert pair_needs([ps[2]], [ps[5]]) is None          # relievers cannot start


@pytest.mark.parametrize("side, grant, error", [
    ("fielding", [{"reroll": "swing"}], r"\.side: must be 'batting' or 'pitching', got 'fielding'"),
    ("batting", [], r"\.grant: must list at least one effect"),
    ("batting", [{"reroll": "control"}], r"\.grant"),          # the batting side rolls no Control
])
def test_a_support_card_and_a_solo_grant_check_their_side_and_grant_alike(side, grant, error):
    from dugout.envs.bottom_ninth.solo_cards import _op
    from dugout.envs.bottom_ninth.support import parse_support
    cards = [{"id": f"s{i}", "name": f"coach {i}", "side": "pitching",
              "grant": [{"reroll": "control"}]} for i in range(2)]
    cards[1].update(side=side, grant=grant)
    with pytest.raises(DataError, match=r"support\[1\]" + error):
        parse_support({"set": "coaches", "version": 1, "support": cards}, "test")
    with pytest.raises(DataError, match=r"^op" + error):
        _op({"grant": grant, "side": side}, "op")
    op = _op({"grant": [{"reroll": "swing"}], "side": "batting"}, "op")
    assert op.kind == "grant" and op.side == "batting" and len(op.grant) == 1
