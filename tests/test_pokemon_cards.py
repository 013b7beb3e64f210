"""Pokemon Baseball data: the original creature set, the built-in teams, and the loaders'
validation (every bad input is a DataError naming the source, the creature or entry, and
the field)."""

import copy
import json
import re
from itertools import permutations
from pathlib import Path

import pytest

from dugout.envs.core.errors import DataError
from dugout.envs.pokemon_baseball.cards import (
    ATTACK_RANGE, BUILTIN_TEAMS, HP_RANGE, LEVEL_RANGE, MAX_ROSTER, MIN_ROSTER, POSITIONS,
    RETREAT_RANGE, Creature, Team, creature_from_dict, load_creatures, load_team,
    team_from_dict)

DATA = Path(__file__).resolve().parent.parent / "envs" / "pokemon_baseball" / "data"
SET = load_creatures()
CREATURES = list(SET.values())
TEAMS = {name: load_team(name) for name in BUILTIN_TEAMS}


def between(low, high):
    return lambda v: low <= v <= high


def one_of(*values):
    return lambda v: v in values


# Column headings as printed in the rulebook, as predicates on the looked-up value.
HIT_HP = {"10-40": between(10, 40), "50": one_of(50), "60": one_of(60), "70": one_of(70),
          "80": one_of(80), "90": one_of(90), "100": one_of(100), ">110": lambda v: v >= 110}
HIT_LINER = {">50": lambda d: d >= 50, "40,30": one_of(40, 30), "20,10": one_of(20, 10),
             "0": one_of(0), "-10": one_of(-10), "-20": one_of(-20), "-30,-40": one_of(-30, -40),
             "<-50": lambda d: d <= -50}
STRIKEOUT_WALK = {">40": lambda d: d >= 40, "30": one_of(30), "20": one_of(20), "10": one_of(10),
                  "0": one_of(0), "-10,-20": one_of(-10, -20), "-30,-40": one_of(-30, -40),
                  "<-50": lambda d: d <= -50}
ERROR_LEVEL = {"1-10": between(1, 10), "11-15": between(11, 15), "16-20": between(16, 20),
               "21-25": between(21, 25), "26-30": between(26, 30), "31-35": between(31, 35),
               "36-40": between(36, 40), "41-50": between(41, 50), "51+": lambda v: v >= 51}
INJURY_LEVEL = {"1-10": between(1, 10), "11-20": between(11, 20), "21-30": between(21, 30),
                "31-40": between(31, 40), "41-50": between(41, 50), "51+": lambda v: v >= 51}
BUNT_FIRST = {"1-7": between(1, 7), "8-20": between(8, 20), "21-40": between(21, 40),
              "41+": lambda v: v >= 41}
BUNT_SECOND = {"1-15": between(1, 15), "16-30": between(16, 30), "31+": lambda v: v >= 31}
HIT_GROUNDER = {">81": lambda s: s >= 81, "61-80": between(61, 80), "51-60": between(51, 60),
                "41-50": between(41, 50), "31-40": between(31, 40), "21-30": between(21, 30),
                "0-20": between(0, 20), "<0": lambda s: s < 0}


def uncovered(columns, values):
    values = set(values)
    return [name for name, hit in columns.items() if not any(hit(v) for v in values)]


def pair_values(batters, pitchers, stat):
    return {getattr(b, stat) - getattr(p, stat) for b in batters for p in pitchers if b.id != p.id}


def grounder_values(batters, defense):
    """pitcher level + fielder level - batter level over distinct creatures."""
    sums = {p.level + f.level for p, f in permutations(defense, 2)}
    return {s - b.level for s in sums for b in batters}


def valid_team_dict(name="harbor"):
    data = load_team(name).to_dict()
    del data["creatures"]
    return data


def user_creature(cid="tumblecrab", **stats):
    out = {"id": cid, "name": cid.title(), "hp": 70, "level": 20, "attack": 50, "retreat": 2,
           "type": "stone"}
    out.update(stats)
    return out


# -- built-in teams -----------------------------------------------------------------------
def test_builtin_team_names_match_the_files():
    assert sorted(BUILTIN_TEAMS) == sorted(p.stem for p in (DATA / "teams").glob("*.json"))
    assert len(BUILTIN_TEAMS) >= 4


@pytest.mark.parametrize("name", BUILTIN_TEAMS)
def test_builtin_team_is_complete(name):
    team = TEAMS[name]
    assert isinstance(team, Team) and team.name.strip()
    assert len(team.roster) == MAX_ROSTER == 17
    assert len(set(team.ids)) == 17
    assert all(SET[c.id] == c for c in team.roster)
    assert len(team.lineup) == 9 and len(set(team.lineup)) == 9
    assert all(0 <= k < 17 for k in team.lineup)
    assert sorted(team.positions) == list(range(1, 10))
    assert len(team.rotation) == 5 and len(set(team.rotation)) == 5
    # the lineup's pitcher opens the rotation
    pitcher_slot = team.positions.index(POSITIONS.index("P") + 1)
    assert team.lineup[pitcher_slot] == team.rotation[0]
    assert team_from_dict(team.to_dict(), "x") == team
    assert team_from_dict(json.loads(json.dumps(team.to_dict())), "x", creatures={}) == team
    assert load_team(name) is team   # cached, and frozen
    with pytest.raises(AttributeError):
        team.name = "other"


def test_builtin_rosters_are_disjoint():
    seen = {}
    for name, team in TEAMS.items():
        for cid in team.ids:
            assert cid not in seen, f"{cid} is on {seen.get(cid)} and {name}"
            seen[cid] = name


def test_builtin_teams_are_balanced():
    def totals(team):
        return [sum(getattr(c, s) for c in team.roster) for s in ("hp", "level", "attack", "retreat")]
    rows = [totals(t) for t in TEAMS.values()]
    for column, slack in zip(zip(*rows), (0.03, 0.05, 0.03, 0.10)):
        assert max(column) <= min(column) * (1 + slack), column
    for team in TEAMS.values():   # every team has fast runners and slow, hard-to-run-on catchers
        retreats = {c.retreat for c in team.roster}
        assert retreats == set(range(5))
        catcher = team.roster[team.lineup[team.positions.index(2)]]
        assert catcher.retreat >= 3


# -- the creature set ---------------------------------------------------------------------
def test_creature_set_size_ids_names():
    assert len(CREATURES) >= 72
    ids = [c.id for c in CREATURES]
    names = [c.name for c in CREATURES]
    assert len(set(ids)) == len(ids)
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z0-9_-]+", c.id) for c in CREATURES)
    assert all(c.name.strip() == c.name and c.name for c in CREATURES)
    assert list(SET) == ids
    raw = json.loads((DATA / "creatures.json").read_text("utf-8"))["creatures"]
    assert [Creature(**r) for r in raw] == CREATURES
    assert all(c.type for c in CREATURES)


def test_every_stat_is_in_range():
    for c in CREATURES:
        assert HP_RANGE[0] <= c.hp <= HP_RANGE[1] and c.hp % 10 == 0, c
        assert LEVEL_RANGE[0] <= c.level <= LEVEL_RANGE[1], c
        assert ATTACK_RANGE[0] <= c.attack <= ATTACK_RANGE[1] and c.attack % 10 == 0, c
        assert RETREAT_RANGE[0] <= c.retreat <= RETREAT_RANGE[1], c
        for v in (c.hp, c.level, c.attack, c.retreat):
            assert type(v) is int


def test_single_stat_columns_are_all_used():
    hps = [c.hp for c in CREATURES]
    levels = [c.level for c in CREATURES]
    for name, hit in HIT_HP.items():
        assert sum(map(hit, hps)) >= 3, name
    assert {110, 120, 130} <= set(hps)
    assert {10, 20} <= set(hps)
    for chart in (ERROR_LEVEL, INJURY_LEVEL, BUNT_FIRST, BUNT_SECOND):
        assert uncovered(chart, levels) == []
        for name, hit in chart.items():
            assert sum(map(hit, levels)) >= 2, name
    assert sum(v < 8 for v in levels) >= 4 and sum(v > 60 for v in levels) >= 4
    assert {c.retreat for c in CREATURES} == set(range(5))   # steal rows
    assert {c.attack for c in CREATURES} == set(range(10, 121, 10))


def test_difference_and_sum_columns_are_all_used():
    assert uncovered(HIT_LINER, pair_values(CREATURES, CREATURES, "hp")) == []
    assert uncovered(STRIKEOUT_WALK, pair_values(CREATURES, CREATURES, "attack")) == []
    assert uncovered(HIT_GROUNDER, grounder_values(CREATURES, CREATURES)) == []
    # steal columns: catcher retreat 0-4 (second), catcher + pitcher retreat 0-8 (third)
    both = {c.retreat + p.retreat for c, p in permutations(CREATURES, 2)}
    assert both == set(range(9))


@pytest.mark.parametrize("batting,fielding", list(permutations(BUILTIN_TEAMS, 2)))
def test_every_column_occurs_between_builtin_teams(batting, fielding):
    bat, field = TEAMS[batting].roster, TEAMS[fielding].roster
    assert uncovered(HIT_HP, [c.hp for c in bat]) == []
    assert uncovered(HIT_LINER, pair_values(bat, field, "hp")) == []
    assert uncovered(STRIKEOUT_WALK, pair_values(bat, field, "attack")) == []
    assert uncovered(HIT_GROUNDER, grounder_values(bat, field)) == []
    for chart in (INJURY_LEVEL, BUNT_FIRST, BUNT_SECOND):
        assert uncovered(chart, [c.level for c in bat]) == []
    assert uncovered(ERROR_LEVEL, [c.level for c in field]) == []
    assert {c.retreat for c in bat} == set(range(5))
    assert {c.retreat + p.retreat for c, p in permutations(field, 2)} == set(range(9))


# -- creature validation ------------------------------------------------------------------
def creature_set_error(tmp_path, entry, match, extra=()):
    """The same bad creature given as a dict and as a file both fail naming the field."""
    data = {"creatures": [user_creature("okfish"), *extra, entry]}
    with pytest.raises(DataError, match=r"^dict: " + match):
        load_creatures(data)
    path = tmp_path / "creatures.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataError, match=re.escape(str(path)) + ": " + match):
        load_creatures(path)
    with pytest.raises(DataError, match=re.escape(str(path)) + ": " + match):
        load_creatures(str(path))


def test_creature_missing_field(tmp_path):
    entry = user_creature("emberpup")
    del entry["attack"]
    creature_set_error(tmp_path, entry, r"creature 'emberpup': missing field\(s\) 'attack'")
    entry = user_creature("emberpup")
    del entry["id"]
    creature_set_error(tmp_path, entry, r"creatures\[1\]: missing field\(s\) 'id'")


def test_creature_unknown_field(tmp_path):
    creature_set_error(tmp_path, user_creature("emberpup", speed=3),
                       r"creature 'emberpup': unknown field\(s\) \['speed'\]")


@pytest.mark.parametrize("field,value", [("hp", True), ("hp", 70.0), ("level", "20"),
                                         ("attack", None), ("retreat", False), ("level", [20])])
def test_creature_wrong_type(tmp_path, field, value):
    creature_set_error(tmp_path, user_creature("emberpup", **{field: value}),
                       rf"creature 'emberpup': field '{field}' must be (a multiple of 10|an int)")


@pytest.mark.parametrize("field,value,text", [
    ("hp", 35, "a multiple of 10 from 10 to 130, got 35"),
    ("hp", 0, "a multiple of 10 from 10 to 130, got 0"),
    ("hp", 140, "a multiple of 10 from 10 to 130, got 140"),
    ("level", 0, "an int from 1 to 80, got 0"),
    ("level", 81, "an int from 1 to 80, got 81"),
    ("attack", 125, "a multiple of 10 from 10 to 120, got 125"),
    ("attack", 130, "a multiple of 10 from 10 to 120, got 130"),
    ("retreat", 5, "an int from 0 to 4, got 5"),
    ("retreat", -1, "an int from 0 to 4, got -1")])
def test_creature_stat_out_of_range(tmp_path, field, value, text):
    creature_set_error(tmp_path, user_creature("emberpup", **{field: value}),
                       rf"creature 'emberpup': field '{field}' must be {re.escape(text)}$")


@pytest.mark.parametrize("field,value", [("id", "Ember Pup"), ("id", ""), ("id", 7),
                                         ("name", ""), ("name", "   "), ("name", 3),
                                         ("type", 5), ("type", "x" * 21)])
def test_creature_bad_text_field(tmp_path, field, value):
    entry = user_creature("emberpup", **{field: value})
    who = r"creatures\[1\]" if field == "id" else "creature 'emberpup'"
    creature_set_error(tmp_path, entry, rf"{who}: field '{field}' must be")


def test_creature_not_an_object(tmp_path):
    creature_set_error(tmp_path, ["emberpup", 70], r"creatures\[1\]: a creature must be an object")


def test_duplicate_creature_id(tmp_path):
    creature_set_error(tmp_path, user_creature("okfish", hp=90),
                       r"creature 'okfish': field 'id' is used twice")


def test_creature_set_shape():
    with pytest.raises(DataError, match=r"^dict: missing field\(s\) 'creatures'"):
        load_creatures({})
    with pytest.raises(DataError, match=r"^dict: unknown field\(s\) \['monsters'\]"):
        load_creatures({"creatures": [user_creature()], "monsters": []})
    with pytest.raises(DataError, match=r"^dict: field 'creatures' must be a list"):
        load_creatures({"creatures": {"a": 1}})
    with pytest.raises(DataError, match=r"^dict: field 'creatures' must list at least one"):
        load_creatures({"creatures": []})
    with pytest.raises(DataError, match=r"creatures must be None"):
        load_creatures(42)


def test_bad_creature_files(tmp_path):
    not_json = tmp_path / "broken.json"
    not_json.write_text('{"creatures": [')
    with pytest.raises(DataError, match=r"creature file .*broken\.json.*not valid JSON"):
        load_creatures(not_json)
    a_list = tmp_path / "list.json"
    a_list.write_text(json.dumps([user_creature()]))
    with pytest.raises(DataError, match=rf"^{re.escape(str(a_list))}: a creature set must be an object"):
        load_creatures(a_list)
    with pytest.raises(DataError, match=r"does not exist"):
        load_creatures(tmp_path / "missing.json")


def test_creature_from_dict_and_to_dict():
    c = creature_from_dict(user_creature("mudskip", type=""), "dict")
    assert c == Creature("mudskip", "Mudskip", 70, 20, 50, 2)
    assert c.to_dict() == {"id": "mudskip", "name": "Mudskip", "hp": 70, "level": 20,
                           "attack": 50, "retreat": 2}
    for creature in CREATURES[:10]:
        assert creature_from_dict(creature.to_dict()) == creature


# -- team validation ----------------------------------------------------------------------
def team_error(tmp_path, data, match):
    """The bad team fails as a dict and as a file, naming the source."""
    with pytest.raises(DataError, match=r"^dict: " + match):
        load_team(data)
    path = tmp_path / "team.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataError, match=r"^" + re.escape(str(path)) + ": " + match):
        load_team(str(path))


def test_team_missing_and_unknown_fields(tmp_path):
    data = valid_team_dict()
    del data["rotation"]
    team_error(tmp_path, data, r"missing field\(s\) 'rotation'")
    data = valid_team_dict()
    data["coach"] = "Professor"
    team_error(tmp_path, data, r"unknown field\(s\) \['coach'\]")
    data = valid_team_dict()
    data["lineup"][2]["order"] = 3
    team_error(tmp_path, data, r"lineup\[2\]: unknown field\(s\) \['order'\]")
    data = valid_team_dict()
    del data["lineup"][4]["position"]
    team_error(tmp_path, data, r"lineup\[4\]: missing field\(s\) 'position'")


@pytest.mark.parametrize("field,value,match", [
    ("name", "", r"field 'name' must be a non-empty string"),
    ("name", 7, r"field 'name' must be a non-empty string"),
    ("roster", "brinehorn", r"field 'roster' must be a list"),
    ("lineup", {"CF": "zapgecko"}, r"field 'lineup' must be a list"),
    ("rotation", "brinehorn", r"field 'rotation' must be a list"),
    ("creatures", {"x": 1}, r"field 'creatures' must be a list")])
def test_team_wrong_types(tmp_path, field, value, match):
    data = valid_team_dict()
    data[field] = value
    team_error(tmp_path, data, match)


def test_team_roster_entry_wrong_type(tmp_path):
    data = valid_team_dict()
    data["roster"][3] = 12
    team_error(tmp_path, data, r"roster\[3\]: must be a creature id \(a string\), got 12")
    data = valid_team_dict()
    data["lineup"][0] = "zapgecko"
    team_error(tmp_path, data, r"lineup\[0\]: a lineup entry must be an object")


@pytest.mark.parametrize("size", [MIN_ROSTER - 1, MAX_ROSTER + 1, 0])
def test_roster_size(tmp_path, size):
    data = valid_team_dict()
    ids = list(SET)
    data["roster"] = (data["roster"] + [i for i in ids if i not in data["roster"]])[:size]
    team_error(tmp_path, data, rf"field 'roster' must list 9 to 17 creatures .*got {size}$")


def test_roster_minimum_is_enough():
    data = valid_team_dict()
    lineup_ids = [e["creature"] for e in data["lineup"]]
    data["roster"] = lineup_ids
    data["rotation"] = [data["lineup"][8]["creature"]]
    team = load_team(data)
    assert len(team.roster) == MIN_ROSTER and team.rotation == (8,)
    assert team.lineup == tuple(range(9))


def test_same_creature_twice_on_roster(tmp_path):
    data = valid_team_dict()
    data["roster"][16] = data["roster"][3]
    team_error(tmp_path, data, r"field 'roster': creature\(s\) \['coilfin'\] listed twice "
                               r"\(used_twice='roster\+reentry': \"The same monster cannot be used "
                               r"twice\.\" read as no creature twice on a roster\)")


def test_unknown_creature_id(tmp_path):
    data = valid_team_dict()
    data["roster"][16] = "missingno"
    team_error(tmp_path, data, r"field 'roster': roster\[16\]: unknown creature 'missingno'")


def test_lineup_size(tmp_path):
    data = valid_team_dict()
    data["lineup"].pop()
    team_error(tmp_path, data, r"field 'lineup' must list 9 batters, one per position, got 8")
    data = valid_team_dict()
    data["lineup"].append({"creature": "kelpbear", "position": "P"})
    team_error(tmp_path, data, r"field 'lineup' must list 9 batters, one per position, got 10")


def test_lineup_creature_twice(tmp_path):
    data = valid_team_dict()
    data["lineup"][5]["creature"] = data["lineup"][1]["creature"]
    team_error(tmp_path, data, r"lineup\[5\] \('ripplecat'\): field 'creature': 'ripplecat' "
                               r"bats twice")


@pytest.mark.parametrize("value", ["kelpies", "emberfin", 3, None])
def test_lineup_creature_not_on_roster(tmp_path, value):
    data = valid_team_dict()   # 'emberfin' is a real creature, but on another team
    data["lineup"][0]["creature"] = value
    team_error(tmp_path, data, r"lineup\[0\]: field 'creature' must name a creature on the roster")


@pytest.mark.parametrize("value", ["cf", "DH", "OF", " CF", 8, None])
def test_lineup_bad_position(tmp_path, value):
    data = valid_team_dict()
    data["lineup"][0]["position"] = value
    team_error(tmp_path, data, r"lineup\[0\] \('zapgecko'\): field 'position' must be one of "
                               r"P, C, 1B, 2B, 3B, SS, LF, CF, RF")


def test_lineup_positions_once_each(tmp_path):
    data = valid_team_dict()
    data["lineup"][4]["position"] = "CF"   # RF -> CF: two CF, no RF
    team_error(tmp_path, data, r"field 'lineup': the positions must be P, C, 1B, 2B, 3B, SS, "
                               r"LF, CF, RF once each; twice or more: CF; missing: RF")


def test_rotation_errors(tmp_path):
    data = valid_team_dict()
    data["rotation"] = []
    team_error(tmp_path, data, r"field 'rotation' must name at least one starting pitcher")
    data = valid_team_dict()
    data["rotation"][2] = "emberfin"
    team_error(tmp_path, data, r"field 'rotation': rotation\[2\]: creature 'emberfin' is not "
                               r"on the roster")
    data = valid_team_dict()
    data["rotation"][3] = data["rotation"][0]
    team_error(tmp_path, data, r"field 'rotation': creature 'brinehorn' is listed twice")
    data = valid_team_dict()
    data["rotation"][1] = 5
    team_error(tmp_path, data, r"rotation\[1\]: must be a creature id")


def test_embedded_creature_errors(tmp_path):
    data = valid_team_dict()
    data["creatures"] = [user_creature("mudskip", retreat=7)]
    team_error(tmp_path, data, r"creature 'mudskip': field 'retreat' must be an int from 0 to 4")
    data["creatures"] = [user_creature("mudskip"), user_creature("mudskip")]
    team_error(tmp_path, data, r"creature 'mudskip': field 'id' is used twice")


def test_bad_team_sources(tmp_path):
    with pytest.raises(DataError, match=r"unknown team 'harbour': use one of \['harbor', "
                                        r"'summit', 'grove', 'ember'\]"):
        load_team("harbour")
    with pytest.raises(DataError, match=r"a team must be one of"):
        load_team(17)
    with pytest.raises(DataError, match=r"^dict: a team must be an object"):
        team_from_dict(["harbor"], "dict")
    a_list = tmp_path / "list.json"
    a_list.write_text(json.dumps([valid_team_dict()]))
    with pytest.raises(DataError, match=rf"^{re.escape(str(a_list))}: a team must be an object"):
        load_team(a_list)
    not_json = tmp_path / "broken.json"
    not_json.write_text("{'name': 'single quotes'}")
    with pytest.raises(DataError, match=r"team file .*broken\.json.*not valid JSON"):
        load_team(str(not_json))
    with pytest.raises(DataError, match=r"team file .*nowhere\.json.* does not exist"):
        load_team(str(tmp_path / "nowhere.json"))
    with pytest.raises(DataError, match=r"is a directory"):
        load_team(tmp_path)


def test_builtin_team_errors_name_the_team():
    bad = copy.deepcopy(SET)
    del bad["reefhog"]
    with pytest.raises(DataError, match=r"^built-in team 'harbor': field 'roster': "
                                        r"roster\[6\]: unknown creature 'reefhog'"):
        load_team("harbor", creatures=bad)
    bad["reefhog"] = SET["emberfin"]   # a creature set whose key and id disagree
    with pytest.raises(DataError, match=r"^built-in team 'harbor': field 'roster': "
                                        r"roster\[6\]: the creature set maps 'reefhog'"):
        load_team("harbor", creatures=bad)
    assert load_team("harbor", creatures=SET) == TEAMS["harbor"]


# -- user data ----------------------------------------------------------------------------
def test_user_creature_file_and_team(tmp_path):
    mine = [user_creature(f"pebble{i}", hp=10 * (i + 3), level=5 * i + 1, attack=10 * (i + 1),
                          retreat=i % 5) for i in range(10)]
    path = tmp_path / "my_creatures.json"
    path.write_text(json.dumps({"creatures": mine}))
    creatures = load_creatures(path)
    assert list(creatures) == [f"pebble{i}" for i in range(10)]
    assert creatures["pebble3"] == Creature("pebble3", "Pebble3", 60, 16, 40, 3, "stone")
    team_data = {"name": "Pebble Town", "roster": list(creatures),
                 "lineup": [{"creature": f"pebble{i}", "position": POSITIONS[i]} for i in range(9)],
                 "rotation": ["pebble0", "pebble9"]}
    for given in (creatures, path, str(path), {"creatures": mine}):
        team = load_team(team_data, creatures=given)
        assert team.ids == tuple(creatures) and team.rotation == (0, 9)
        assert team.positions == tuple(range(1, 10))
    with pytest.raises(DataError, match=r"unknown creature 'pebble0'"):
        load_team(team_data)   # not in the built-in set
    team_path = tmp_path / "pebble_town.json"
    team_path.write_text(json.dumps(team_data))
    assert load_team(team_path, creatures) == load_team(str(team_path), path)


def test_user_team_with_embedded_creatures(tmp_path):
    data = valid_team_dict("ember")
    mine = [user_creature("mudskip", hp=130, level=1, attack=120, retreat=0, type="tide"),
            user_creature("emberfin", name="Emberfin II", hp=10)]   # overrides the set
    data["creatures"] = mine
    data["roster"][-1] = "mudskip"   # the reliever slot
    team = load_team(data)
    assert team.roster[-1] == Creature("mudskip", "Mudskip", 130, 1, 120, 0, "tide")
    assert team.roster[0] == Creature("emberfin", "Emberfin II", 10, 20, 50, 2, "stone")
    assert team.roster[1] == SET["pyrelark"]
    assert load_creatures()["emberfin"].hp == 120   # the built-in set is untouched
    # fully self-contained: no creature set needed at all
    alone = team.to_dict()
    assert load_team(alone, creatures={}) == team
    path = tmp_path / "alone.json"
    path.write_text(json.dumps(alone))
    assert load_team(path, creatures={}) == team
    # unused embedded creatures are still validated, but need not be on the roster
    data["creatures"].append(user_creature("benchwarmer"))
    assert load_team(data) == team


def test_load_creatures_returns_a_copy():
    first = load_creatures()
    first.clear()
    assert len(load_creatures()) == len(CREATURES)
