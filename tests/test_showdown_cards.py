"""MLB Showdown 2004 cards and team files (``dugout.envs.showdown.cards``).

Checked against the rulebook (``shared/rules/mlb-showdown-2004.txt``): "Player Positions",
"Speed", the Glossary's "Swing", and "Team Construction Rules" / "Building Your Own Team".
Team-rule tests start from the built-in ``bos2004`` file, break one rule, and check that
the error quotes that rule.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import pytest

from dugout.envs.core.errors import DataError
from dugout.envs.showdown import cards as sc
from dugout.envs.showdown.cards import (
    CARD_POSITIONS, FIELD_POSITIONS, HITTER_RESULTS, PITCHER_RESULTS, POINT_CAP, RESULTS,
    Chart, HitterCard, PitcherCard, builtin_team_names, card_from_dict, card_to_dict,
    load_cards, load_team, qualifies, speed_letter, team_from_dict, team_to_json,
    validate_team,
)

DATA = Path(sc.__file__).parent / "data"
OVER_CAP_TEAMS = ("nya1927", "cin1975", "chn2016")

# Rule phrases, as the rulebook words them ("Building Your Own Team").
RULE_25 = "exactly 25 players"
RULE_9_HITTERS = "at least 9 fielders and other hitters"
RULE_LINEUP = "starting lineup fills all the fielding positions"
RULE_4_STARTERS = "exactly 4 starters"
RULE_SAME_PLAYER = "same player on your team more than once"
RULE_DH_FULL_COST = "must be a full-cost player"
RULE_CAP = "total point value of 5,000 or less"
RULE_BACKUP_HITTERS = "Only fielders and other hitters may be designated as backup players"
RULE_BACKUP_FIELD = "can't take the field"
RULE_ROTATION = "Only starters can be in your rotation"


# ---------------------------------------------------------------------------- helpers

def hitter(**changes):
    """A valid hitter card dict in printed form (the module docstring's example)."""
    card = {"kind": "hitter", "name": "Manny Ramirez", "points": 520, "on_base": 11, "speed": 11,
            "positions": {"LF": 0}, "bats": "R", "icons": ["S"],
            "chart": {"SO": "1-2", "GB": "3-4", "FB": "5", "BB": "6-10", "1B": "11-14",
                      "1B+": "15", "2B": "16-17", "3B": "-", "HR": "18+"}}
    card.update(changes)
    return card


def pitcher(**changes):
    """A valid pitcher card dict in printed form."""
    card = {"kind": "pitcher", "name": "Curt Schilling", "points": 540, "control": 5, "ip": 7,
            "role": "starter", "throws": "R", "icons": ["20"],
            "chart": {"PU": "1-3", "SO": "4-9", "GB": "10-14", "FB": "15-17", "BB": "18",
                      "1B": "19+", "2B": "-", "HR": "-"}}
    card.update(changes)
    return card


def with_chart(card, **ranges):
    """``card`` with some chart ranges replaced (``None`` removes the result)."""
    card = copy.deepcopy(card)
    for key, text in ranges.items():
        key = {"B1": "1B", "B1p": "1B+", "B2": "2B", "B3": "3B"}.get(key, key)
        if text is None:
            card["chart"].pop(key, None)
        else:
            card["chart"][key] = text
    return card


def expand(text):
    """The rolls a printed range covers, read independently of the module."""
    text = str(text).strip()
    if text in ("-", ""):
        return []
    if text.endswith("+"):
        return list(range(int(text[:-1]), 21))
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(text)]


def roll_table(printed_chart):
    """roll -> result for rolls 1..20, from the card's printed ranges."""
    table = {}
    for result, text in printed_chart.items():
        for roll in expand(text):
            assert roll not in table
            table[roll] = result
    assert sorted(table) == list(range(1, 21))
    return table


def raises(fn, *fragments, exc=DataError):
    """Call ``fn``; it must raise ``exc`` whose message contains every fragment."""
    with pytest.raises(exc) as info:
        fn()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in error message: {message}"
    return message


def team_json(name):
    return json.loads((DATA / f"{name}.json").read_text("utf-8"))


@pytest.fixture
def bos():
    """A fresh copy of the built-in 2004 Red Sox team file, to break one rule at a time."""
    return team_json("bos2004")


def player(team, name):
    return next(p for p in team["players"] if p["name"] == name)


def lineup_entry(team, which, name):
    return next(e for e in team["lineups"][which] if e["player"] == name)


def full_cost_points(team):
    return sum(Fraction(p["points"]) for p in team["players"])


def roster_points(team):
    """Total as the rules count it: a backup costs one fifth of his points."""
    return sum(Fraction(p["points"], 5) if p.get("backup") else Fraction(p["points"])
               for p in team["players"])


def load(team, point_cap=POINT_CAP):
    return team_from_dict(team, "bos-test.json", point_cap=point_cap)


def team_error(team, *fragments, point_cap=POINT_CAP):
    """The team must fail to load, naming its source and every fragment."""
    return raises(lambda: load(team, point_cap), "bos-test.json", *fragments)


# ---------------------------------------------------------------------------- charts

class TestChartParsing:
    """Printed ranges ("1-2", "3", "-", "19+") become roll counts and back."""

    def test_hitter_chart_counts(self):
        chart = card_from_dict(hitter()).chart
        assert chart.as_dict() == {"SO": 2, "GB": 2, "FB": 1, "BB": 5, "1B": 4, "1B+": 1,
                                   "2B": 2, "HR": 3}
        assert chart.count("3B") == 0 and chart.count("PU") == 0
        assert sum(chart.counts) == 20

    def test_pitcher_chart_counts(self):
        chart = card_from_dict(pitcher()).chart
        assert chart.as_dict() == {"PU": 3, "SO": 6, "GB": 5, "FB": 3, "BB": 1, "1B": 2}
        for absent in ("2B", "HR", "1B+", "3B"):
            assert chart.count(absent) == 0

    def test_probabilities_are_counts_over_20(self):
        chart = card_from_dict(hitter()).chart
        probs = chart.probabilities()
        assert set(probs) == set(RESULTS)
        assert probs["BB"] == pytest.approx(5 / 20)
        assert sum(probs.values()) == pytest.approx(1.0)

    @pytest.mark.parametrize("make", [hitter, pitcher], ids=["hitter", "pitcher"])
    def test_every_roll_reads_its_printed_result(self, make):
        raw = make()
        chart = card_from_dict(raw).chart
        table = roll_table(raw["chart"])
        for roll in range(1, 21):
            assert chart.result(roll) == table[roll], roll

    @pytest.mark.parametrize("make", [hitter, pitcher], ids=["hitter", "pitcher"])
    def test_rolls_off_the_chart(self, make):
        """Glossary, "Swing": above 20 reads the top result, below 1 reads roll 1."""
        raw = make()
        chart = card_from_dict(raw).chart
        table = roll_table(raw["chart"])
        for roll in (21, 22, 25, 40):
            assert chart.result(roll) == table[20]
        for roll in (0, -1, -5):
            assert chart.result(roll) == table[1]

    def test_top_result_above_20_when_last_results_are_empty(self):
        """The pitcher's top printed result is 1B (2B and HR are "-"), so 23 reads 1B."""
        assert card_from_dict(pitcher()).chart.result(23) == "1B"

    @pytest.mark.parametrize("make, order", [(hitter, HITTER_RESULTS), (pitcher, PITCHER_RESULTS)],
                             ids=["hitter", "pitcher"])
    def test_ranges_round_trip(self, make, order):
        raw = make()
        chart = card_from_dict(raw).chart
        printed = chart.ranges(order)
        assert list(printed) == list(order)
        # "19+" is printed back as an explicit range; every roll keeps its result
        assert roll_table(printed) == roll_table(raw["chart"])
        again = card_from_dict(dict(raw, chart=printed)).chart
        assert again == chart
        assert again.ranges(order) == printed

    def test_ranges_print_single_rolls_and_dashes(self):
        printed = card_from_dict(hitter()).chart.ranges(HITTER_RESULTS)
        assert printed["FB"] == "5"
        assert printed["3B"] == "-"
        assert printed["HR"] == "18-20"

    def test_omitted_results_and_integer_ranges(self):
        """An omitted result reads as "-"; a bare integer is a single roll."""
        raw = with_chart(hitter(), B3=None, FB=5)
        assert card_from_dict(raw).chart == card_from_dict(hitter()).chart

    def test_plus_range_may_cover_just_20(self):
        raw = with_chart(hitter(), B2="16-19", HR="20+")
        assert card_from_dict(raw).chart.count("HR") == 1

    def test_builtin_cards_read_as_printed(self):
        """Every card of every built-in team reads each roll 1..20 as its chart prints it."""
        for name in builtin_team_names():
            for raw in team_json(name)["players"]:
                chart = card_from_dict(raw).chart
                table = roll_table(raw["chart"])
                assert [chart.result(r) for r in range(1, 21)] == [table[r] for r in range(1, 21)], \
                    (name, raw["name"])

    def test_chart_constructor_checks_counts(self):
        with pytest.raises(DataError):
            Chart((1,) * len(RESULTS))  # sums to 10
        with pytest.raises(DataError):
            Chart((20, 0))
        with pytest.raises(DataError):
            Chart((21, -1) + (0,) * (len(RESULTS) - 2))
        with pytest.raises(DataError, match="unknown result"):
            Chart.from_counts({"SO": 10, "XX": 10})


class TestChartErrors:
    """A bad chart raises DataError naming the source, the card and the chart field."""

    @pytest.mark.parametrize("raw, field", [
        (with_chart(hitter(), GB="4"), "GB"),                        # gap at roll 3
        (with_chart(hitter(), GB="2-4"), "GB"),                      # overlaps SO's roll 2
        (with_chart(hitter(), SO="2", GB="3-4"), "SO"),              # starts at 2
        (with_chart(hitter(), SO="18-20", HR="1-2"), "SO"),          # results out of order
        (with_chart(pitcher(), PU="1-2"), "SO"),                     # gap at roll 3
        (with_chart(pitcher(), SO="3-9"), "SO"),                     # overlaps PU's roll 3
        (with_chart(pitcher(), PU="-", SO="2-9"), "SO"),             # nothing on roll 1
        (with_chart(pitcher(), PU="15-17", FB="1-3"), "PU"),         # results out of order
    ], ids=["hitter-gap", "hitter-overlap", "hitter-start", "hitter-order",
            "pitcher-gap", "pitcher-overlap", "pitcher-start", "pitcher-order"])
    def test_gap_overlap_start_and_order(self, raw, field):
        raises(lambda: card_from_dict(raw, "cards.json: players[7]"),
               "cards.json: players[7]", raw["name"], f"chart {field!r}")

    @pytest.mark.parametrize("raw", [
        with_chart(hitter(), HR="18-19"),
        with_chart(hitter(), B2="16", HR="-"),
        with_chart(pitcher(), **{"1B": "19"}),
    ], ids=["hitter-to-19", "hitter-to-16", "pitcher-to-19"])
    def test_must_reach_20(self, raw):
        raises(lambda: card_from_dict(raw, "cards.json"), "cards.json", raw["name"], "chart",
               "1-20")

    def test_must_not_run_past_20(self):
        raw = with_chart(hitter(), HR="18-22")
        raises(lambda: card_from_dict(raw, "cards.json"), "cards.json", raw["name"], "chart")

    @pytest.mark.parametrize("raw, result", [
        (with_chart(pitcher(), B3="-"), "3B"),
        (with_chart(pitcher(), B1p="-"), "1B+"),
        (with_chart(hitter(), PU="-"), "PU"),
    ], ids=["3B-on-pitcher", "1B+-on-pitcher", "PU-on-hitter"])
    def test_result_not_on_this_kind_of_card(self, raw, result):
        raises(lambda: card_from_dict(raw, "cards.json"), "cards.json", raw["name"], "chart",
               repr(result))

    @pytest.mark.parametrize("raw, field", [
        (with_chart(hitter(), B2="16+", HR="18-20"), "2B"),
        (with_chart(hitter(), B1p="15+", B2="16-17"), "1B+"),
        (with_chart(pitcher(), BB="18+", B1="19-20"), "BB"),
    ], ids=["hitter-2B", "hitter-1B+", "pitcher-BB"])
    def test_plus_range_must_be_last(self, raw, field):
        raises(lambda: card_from_dict(raw, "cards.json"), "cards.json", raw["name"],
               f"chart {field!r}", "+")

    def test_plus_range_followed_by_spaced_dash(self):
        """" - " reads as "no rolls" everywhere else (ranges are stripped), so a "+"
        range followed only by such empty results is still the last one."""
        raw = with_chart(hitter(), B3="18+", HR=" - ")
        assert card_from_dict(raw).chart.count("3B") == 3

    @pytest.mark.parametrize("text", ["1 to 2", "one", "1--2", "1-2-3", "1-", "+3", "1,2", "1.5"])
    def test_bad_range_string(self, text):
        raw = with_chart(hitter(), SO=text)
        raises(lambda: card_from_dict(raw, "cards.json"), "cards.json", raw["name"], "chart 'SO'")

    @pytest.mark.parametrize("value", [[1, 2], {"from": 1}, 1.5, True])
    def test_range_not_a_string(self, value):
        raw = with_chart(hitter(), SO=value)
        raises(lambda: card_from_dict(raw, "cards.json"), "cards.json", raw["name"], "chart 'SO'")

    def test_backwards_range(self):
        raw = with_chart(hitter(), B2="16-15")
        raises(lambda: card_from_dict(raw, "cards.json"), raw["name"], "chart '2B'")

    def test_chart_not_an_object(self):
        raw = hitter(chart=["1-2", "3-4"])
        raises(lambda: card_from_dict(raw, "cards.json"), "cards.json", raw["name"], "'chart'")


# ---------------------------------------------------------------------------- card fields

HITTER_REQUIRED = ("points", "chart", "on_base", "speed", "positions", "bats")
PITCHER_REQUIRED = ("points", "chart", "control", "ip", "role", "throws")


class TestCardFields:
    """Each card field is checked; the message names the source, the card and the field."""

    @pytest.mark.parametrize("make, field",
                             [(hitter, f) for f in HITTER_REQUIRED]
                             + [(pitcher, f) for f in PITCHER_REQUIRED])
    def test_missing_field(self, make, field):
        raw = make()
        del raw[field]
        raises(lambda: card_from_dict(raw, "set.json: players[2]"), "set.json: players[2]",
               raw["name"], "missing", repr(field))

    @pytest.mark.parametrize("raw, field", [
        (hitter(nickname="Manny"), "nickname"),
        (hitter(control=3), "control"),
        (pitcher(speed=10), "speed"),
        (pitcher(positions={"P": 0}), "positions"),
    ])
    def test_unknown_field(self, raw, field):
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "unknown field",
               repr(field))

    @pytest.mark.parametrize("kind", ["batter", None, "Hitter", 1])
    def test_bad_kind(self, kind):
        raw = hitter(kind=kind)
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "'kind'")

    @pytest.mark.parametrize("name", ["", "   ", None, 7])
    def test_bad_name(self, name):
        raises(lambda: card_from_dict(hitter(name=name), "set.json"), "set.json", "'name'")

    @pytest.mark.parametrize("bats", ["B", "l", "", None, "LR"])
    def test_bats(self, bats):
        raw = hitter(bats=bats)
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "'bats'")

    @pytest.mark.parametrize("bats", ["L", "R", "S"])
    def test_bats_allowed(self, bats):
        assert card_from_dict(hitter(bats=bats)).bats == bats

    @pytest.mark.parametrize("throws", ["S", "B", "", None, "r"])
    def test_throws(self, throws):
        raw = pitcher(throws=throws)
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "'throws'")

    @pytest.mark.parametrize("role", ["setup", "Starter", "", None])
    def test_role(self, role):
        raw = pitcher(role=role)
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "'role'")

    @pytest.mark.parametrize("role", ["starter", "reliever", "closer"])
    def test_roles_allowed(self, role):
        assert card_from_dict(pitcher(role=role)).role == role

    @pytest.mark.parametrize("raw, icon", [
        (hitter(icons=["K"]), "K"), (hitter(icons=["20"]), "20"), (hitter(icons=["CY"]), "CY"),
        (pitcher(icons=["G"]), "G"), (pitcher(icons=["SB"]), "SB"), (pitcher(icons=["HR"]), "HR"),
    ])
    def test_icon_not_for_this_kind(self, raw, icon):
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "icon",
               repr(icon))

    @pytest.mark.parametrize("raw", [hitter(icons=["G", "S", "V", "HR", "SB", "R", "RY"]),
                                     pitcher(icons=["K", "20", "CY", "RP", "R", "RY"])],
                             ids=["hitter", "pitcher"])
    def test_all_icons_of_a_kind(self, raw):
        assert card_from_dict(raw).icons == tuple(raw["icons"])

    @pytest.mark.parametrize("raw", [hitter(icons=["S", "S"]), pitcher(icons=["K", "20", "K"])],
                             ids=["hitter", "pitcher"])
    def test_duplicate_icon(self, raw):
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "icon")

    def test_icons_not_a_list(self):
        raw = hitter(icons="S")
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "'icons'")

    @pytest.mark.parametrize("value", ["11", 11.0, 11.5, True, None])
    def test_non_integer_on_base(self, value):
        raw = hitter(on_base=value)
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "'on_base'")

    @pytest.mark.parametrize("field", ["points", "speed"])
    def test_non_integer_hitter_numbers(self, field):
        raw = hitter(**{field: "12"})
        raises(lambda: card_from_dict(raw, "set.json"), raw["name"], repr(field))

    @pytest.mark.parametrize("field", ["points", "control", "ip"])
    def test_non_integer_pitcher_numbers(self, field):
        raw = pitcher(**{field: 4.5})
        raises(lambda: card_from_dict(raw, "set.json"), raw["name"], repr(field))

    @pytest.mark.parametrize("pos", ["DH", "P", "CA", "ss", "UT"])
    def test_unknown_position(self, pos):
        raw = hitter(positions={"LF": 0, pos: 1})
        raises(lambda: card_from_dict(raw, "set.json"), "set.json", raw["name"], "position",
               repr(pos))

    def test_non_integer_fielding(self):
        raw = hitter(positions={"LF": "+1"})
        raises(lambda: card_from_dict(raw, "set.json"), raw["name"], "positions[LF]")

    def test_positions_not_an_object(self):
        raw = hitter(positions=["LF"])
        raises(lambda: card_from_dict(raw, "set.json"), raw["name"], "'positions'")

    def test_card_not_an_object(self):
        raises(lambda: card_from_dict(["hitter"], "set.json: players[4]"), "set.json: players[4]")

    def test_null_id_is_not_the_key_None(self):
        """``id`` defaults to the name; a JSON null id must not make every such card's key
        the string "None" (two different players would then be "the same player")."""
        raw = hitter(id=None)
        try:
            card = card_from_dict(raw)
        except DataError:
            return
        assert card.key == raw["name"]


class TestCardModel:
    """Round trips, Fielding lookups, qualifying and Speed letters."""

    @pytest.mark.parametrize("raw", [
        dict(hitter(), chart=card_from_dict(hitter()).chart.ranges(HITTER_RESULTS)),
        dict(pitcher(), chart=card_from_dict(pitcher()).chart.ranges(PITCHER_RESULTS)),
        dict(hitter(), id="ramirma02", team="BOS", year=2004, source="test", fit={"pa": 600},
             positions={"LF": 0, "OF": -1}, icons=[],
             chart=card_from_dict(hitter()).chart.ranges(HITTER_RESULTS)),
    ], ids=["hitter", "pitcher", "hitter-optional-fields"])
    def test_dict_round_trip(self, raw):
        assert card_to_dict(card_from_dict(raw)) == raw

    def test_printed_form_round_trip(self):
        """A card written with "19+" reads back to an equal card."""
        for raw in (hitter(), pitcher()):
            card = card_from_dict(raw)
            assert card_from_dict(card_to_dict(card)) == card

    def test_builtin_cards_round_trip(self):
        for name in builtin_team_names():
            for raw in team_json(name)["players"]:
                expected = {k: v for k, v in raw.items() if k != "backup"}
                assert card_to_dict(card_from_dict(raw)) == expected, (name, raw["name"])

    def test_name_is_stripped_and_key_defaults_to_name(self):
        card = card_from_dict(hitter(name="  Manny Ramirez "))
        assert card.name == "Manny Ramirez"
        assert card.key == "Manny Ramirez"
        assert card_from_dict(hitter(id="ramirma02")).key == "ramirma02"

    def test_kinds(self):
        assert isinstance(card_from_dict(hitter()), HitterCard)
        p = card_from_dict(pitcher())
        assert isinstance(p, PitcherCard)
        assert p.speed == 8 and speed_letter(p.speed) == "C"  # "All pitchers are Speed C"

    def test_fielding_plain_positions(self):
        card = card_from_dict(hitter(positions={"2B": 3, "SS": 4}))
        assert card.fielding("2B") == 3
        assert card.fielding("SS") == 4
        for pos in ("C", "1B", "3B", "LF", "CF", "RF"):
            assert card.fielding(pos) is None

    def test_fielding_if_covers_all_four_infield_spots(self):
        card = card_from_dict(hitter(positions={"IF": 1}))
        for pos in ("1B", "2B", "3B", "SS"):
            assert card.fielding(pos) == 1
        for pos in ("C", "LF", "CF", "RF"):
            assert card.fielding(pos) is None

    def test_fielding_of_covers_all_three_outfield_spots(self):
        card = card_from_dict(hitter(positions={"OF": 2}))
        for pos in ("LF", "CF", "RF"):
            assert card.fielding(pos) == 2
        for pos in ("C", "1B", "2B", "3B", "SS"):
            assert card.fielding(pos) is None

    def test_fielding_takes_the_better_listing(self):
        card = card_from_dict(hitter(positions={"OF": 0, "CF": 2, "C": 5}))
        assert card.fielding("CF") == 2
        assert card.fielding("LF") == 0
        assert card.fielding("C") == 5  # the catcher's Arm
        card = card_from_dict(hitter(positions={"SS": -1, "IF": 1}))
        assert card.fielding("SS") == 1

    def test_qualifies(self):
        """Player Positions: IF/OF expand; "-" ({}) qualifies nowhere; pitchers only at P;
        any hitter (not a pitcher) can be the DH."""
        infielder = card_from_dict(hitter(positions={"IF": 0}))
        nowhere = card_from_dict(hitter(positions={}))
        arm = card_from_dict(pitcher())
        assert [qualifies(infielder, p) for p in FIELD_POSITIONS] == \
            [p in ("1B", "2B", "3B", "SS") for p in FIELD_POSITIONS]
        assert not any(qualifies(nowhere, p) for p in FIELD_POSITIONS)
        assert not nowhere.is_position_player and infielder.is_position_player
        assert qualifies(nowhere, "DH") and qualifies(infielder, "DH")
        assert not qualifies(infielder, "P") and not qualifies(nowhere, "P")
        assert qualifies(arm, "P")
        assert not qualifies(arm, "DH")
        assert not any(qualifies(arm, p) for p in FIELD_POSITIONS)

    def test_card_positions_cover_field_positions(self):
        assert set(FIELD_POSITIONS) | {"IF", "OF"} == set(CARD_POSITIONS)

    @pytest.mark.parametrize("speed, letter", [
        (1, "C"), (10, "C"), (12, "C"), (13, "B"), (15, "B"), (17, "B"), (18, "A"), (20, "A"),
        (25, "A")])
    def test_speed_letter(self, speed, letter):
        assert speed_letter(speed) == letter
        assert card_from_dict(hitter(speed=speed)).speed_letter == letter


# ---------------------------------------------------------------------------- team rules

class TestTeamConstruction:
    """One broken "Building Your Own Team" rule at a time, starting from bos2004."""

    def test_baseline_is_legal(self, bos):
        team = load(bos)
        assert len(team.players) == 25
        assert team.total_points == roster_points(bos) <= POINT_CAP
        assert team.backups == {p.get("id", p["name"]) for p in bos["players"] if p.get("backup")}

    def test_24_players(self, bos):
        bench_arm = [p for p in bos["players"]
                     if p["kind"] == "pitcher" and p["name"] not in bos["rotation"]][-1]
        bos["players"].remove(bench_arm)
        team_error(bos, "24 players", RULE_25)

    def test_26_players(self, bos):
        extra = copy.deepcopy(player(bos, "Mike Timlin"))
        extra.update(name="Extra Arm", id="extraar01", points=1)
        bos["players"].append(extra)
        team_error(bos, "26 players", RULE_25)

    def test_fewer_than_9_hitters_fails_to_load(self, bos):
        """With 8 hitters no legal lineup exists, so loading fails (on some rule)."""
        hitters = [p for p in bos["players"] if p["kind"] == "hitter"]
        arm = player(bos, "Mike Timlin")
        for h in hitters[8:]:
            clone = copy.deepcopy(arm)
            clone.update(name=h["name"], id=h["id"])
            bos["players"][bos["players"].index(h)] = clone
        assert sum(p["kind"] == "hitter" for p in bos["players"]) == 8
        with pytest.raises(DataError):
            load(bos)

    def test_fewer_than_9_hitters_rule(self):
        """The roster rule itself, on a Team whose hitters beyond 8 became relievers."""
        team = load_team("bos2004")
        arm = next(p for p in team.pitchers if p.role == "reliever")
        players = []
        n_hitters = 0
        for i, card in enumerate(team.players):
            if isinstance(card, HitterCard):
                n_hitters += 1
                if n_hitters > 8:
                    card = dataclasses.replace(arm, name=f"Arm {i}", id=f"arm{i}")
            players.append(card)
        broken = dataclasses.replace(team, players=tuple(players), backups=frozenset())
        raises(lambda: validate_team(broken, "broken-team"), "broken-team", "8",
               RULE_9_HITTERS)
        raises(lambda: load_team(broken), RULE_9_HITTERS)

    def test_five_starters(self, bos):
        player(bos, "Keith Foulke")["role"] = "starter"
        team_error(bos, "5 starters", RULE_4_STARTERS)

    def test_three_starters(self, bos):
        player(bos, "Tim Wakefield")["role"] = "reliever"
        bos["rotation"].remove("Tim Wakefield")
        team_error(bos, "3 starters", RULE_4_STARTERS)

    def test_same_player_twice(self, bos):
        twin = copy.deepcopy(player(bos, "Keith Foulke"))
        bos["players"][bos["players"].index(player(bos, "Lenny DiNardo"))] = twin
        team_error(bos, "Keith Foulke", RULE_SAME_PLAYER)

    def test_same_id_under_another_name_is_the_same_player(self, bos):
        twin = copy.deepcopy(player(bos, "Johnny Damon"))
        twin["name"] = "J. Damon"
        bos["players"][bos["players"].index(player(bos, "Lenny DiNardo"))] = twin
        team_error(bos, RULE_SAME_PLAYER)

    def test_point_cap_boundary(self, bos):
        """Exactly 5,000 (or a fraction under) is legal; one point more is not."""
        ace = player(bos, "Pedro Martinez")
        assert not ace.get("backup")
        ace["points"] += int(POINT_CAP - roster_points(bos))  # floor: total in (4999, 5000]
        assert POINT_CAP - 1 < roster_points(bos) <= POINT_CAP
        assert load(bos).total_points == roster_points(bos)
        ace["points"] += 1
        assert roster_points(bos) > POINT_CAP
        team_error(bos, RULE_CAP)

    def test_backups_cost_one_fifth(self, bos):
        """A roster just over the cap at full cost is legal once bench hitters are backups."""
        lineup_names = {e["player"] for lu in bos["lineups"].values() for e in lu}
        bench = [p for p in bos["players"] if p["kind"] == "hitter" and p["name"] not in lineup_names]
        assert len(bench) >= 2
        for p in bos["players"]:
            p.pop("backup", None)
        # bring the full-cost total to exactly cap + 1 by trimming pitchers' points
        excess = full_cost_points(bos) - (POINT_CAP + 1)
        for p in sorted((p for p in bos["players"] if p["kind"] == "pitcher"),
                        key=lambda p: -p["points"]):
            cut = min(p["points"], excess)
            p["points"] -= int(cut)
            excess -= cut
        assert excess == 0 and full_cost_points(bos) == POINT_CAP + 1
        team_error(bos, RULE_CAP)
        for p in bench:
            p["backup"] = True
        team = load(bos)
        bench_points = sum(Fraction(p["points"]) for p in bench)
        assert team.total_points == POINT_CAP + 1 - Fraction(4, 5) * bench_points
        for p in bench:
            assert team.cost(team.card(p["name"])) == Fraction(p["points"], 5)

    def test_pitcher_marked_backup(self, bos):
        """A pitcher flagged backup in a team file: the error should name the rule."""
        player(bos, "Mike Timlin")["backup"] = True
        team_error(bos, "Mike Timlin", RULE_BACKUP_HITTERS)

    def test_pitcher_backup_rule_on_a_team(self):
        team = load_team("bos2004")
        arm = next(p for p in team.pitchers if p.role == "reliever")
        broken = dataclasses.replace(team, backups=team.backups | {arm.key})
        raises(lambda: validate_team(broken, "broken-team"), "broken-team", RULE_BACKUP_HITTERS)

    def test_backup_in_starting_lineup(self, bos):
        reese = player(bos, "Pokey Reese")
        reese["backup"] = True
        msg = team_error(bos, "backup", RULE_BACKUP_FIELD)
        assert reese["name"] in msg or reese["id"] in msg

    def test_designated_hitter_is_a_backup(self, bos):
        dh = player(bos, next(e["player"] for e in bos["lineups"]["dh"] if e["position"] == "DH"))
        dh["backup"] = True
        msg = team_error(bos, "designated hitter", RULE_DH_FULL_COST)
        assert dh["name"] in msg or dh["id"] in msg

    def test_backup_flag_must_be_boolean(self, bos):
        player(bos, "Kevin Youkilis")["backup"] = "yes"
        team_error(bos, "Kevin Youkilis", "'backup'")

    @pytest.mark.parametrize("which", ["dh", "no_dh"])
    def test_lineup_leaves_a_position_empty(self, bos, which):
        lineup_entry(bos, which, "Pokey Reese")["position"] = "2B"  # he qualifies there
        team_error(bos, f"lineups.{which}", RULE_LINEUP)

    def test_no_dh_lineup_without_the_pitcher(self, bos):
        bos["lineups"]["no_dh"][-1] = {"player": "David Ortiz", "position": "DH"}
        team_error(bos, "lineups.no_dh", RULE_LINEUP)

    def test_dh_lineup_with_the_pitcher_batting(self, bos):
        lu = bos["lineups"]["dh"]
        lu[[e["position"] for e in lu].index("DH")] = {"player": "P", "position": "P"}
        team_error(bos, "lineups.dh", RULE_LINEUP)

    def test_lineup_of_eight(self, bos):
        bos["lineups"]["dh"].pop()
        team_error(bos, "lineups.dh", "9 entries")

    def test_player_out_of_position(self, bos):
        lu = bos["lineups"]["dh"]
        catcher = next(e for e in lu if e["position"] == "C")
        center = next(e for e in lu if e["position"] == "CF")
        catcher["position"], center["position"] = "CF", "C"
        msg = team_error(bos, "lineups.dh", "does not qualify at")
        assert f"{center['player']} does not qualify at C" in msg

    def test_pitcher_as_designated_hitter(self, bos):
        entry = next(e for e in bos["lineups"]["dh"] if e["position"] == "DH")
        entry["player"] = "Curt Schilling"
        team_error(bos, "lineups.dh", "Curt Schilling", "does not qualify at DH")

    def test_lineup_names_a_player_not_on_the_team(self, bos):
        lineup_entry(bos, "no_dh", "Johnny Damon")["player"] = "Babe Ruth"
        team_error(bos, "lineups.no_dh", "'Babe Ruth'", "not on the team")

    def test_player_twice_in_batting_order(self, bos):
        entry = next(e for e in bos["lineups"]["dh"] if e["position"] == "DH")
        entry["player"] = "Johnny Damon"
        team_error(bos, "lineups.dh", "twice")

    def test_player_twice_in_batting_order_by_id_and_name(self, bos):
        """A card can be named by its id or its name; naming the same man both ways is
        still the same player batting twice."""
        damon = player(bos, "Johnny Damon")
        entry = next(e for e in bos["lineups"]["dh"] if e["position"] == "DH")
        entry["player"] = damon["id"]
        team_error(bos, "lineups.dh", "twice")

    def test_lineup_may_name_players_by_id(self, bos):
        damon = player(bos, "Johnny Damon")
        lineup_entry(bos, "dh", "Johnny Damon")["player"] = damon["id"]
        assert load(bos).lineups == load_team("bos2004").lineups

    @pytest.mark.parametrize("entry", [
        {"player": None, "position": "CF"},
        {"player": ["Johnny Damon"], "position": "CF"},
        {"player": "Johnny Damon", "position": None},
        {"player": "Johnny Damon", "position": ["CF"]},
    ], ids=["null-player", "list-player", "null-position", "list-position"])
    def test_malformed_lineup_entry(self, bos, entry):
        """A malformed entry is bad data: DataError, not a TypeError from inside."""
        bos["lineups"]["dh"][0] = entry
        team_error(bos, "lineups.dh")

    def test_lineups_need_both_orders(self, bos):
        del bos["lineups"]["no_dh"]
        team_error(bos, "'lineups'")

    def test_rotation_with_a_reliever(self, bos):
        bos["rotation"][-1] = "Keith Foulke"
        team_error(bos, "rotation", "Keith Foulke", RULE_ROTATION)

    def test_rotation_with_a_hitter(self, bos):
        bos["rotation"][0] = "Johnny Damon"
        team_error(bos, "rotation", RULE_ROTATION)

    @pytest.mark.parametrize("change", ["drop", "repeat", "extra"])
    def test_rotation_not_the_four_starters(self, bos, change):
        rot = bos["rotation"]
        if change == "drop":
            rot.pop()
        elif change == "repeat":
            rot[-1] = rot[0]
        else:
            rot.append(rot[0])
        team_error(bos, "rotation must list the team's 4 starters", RULE_ROTATION)

    def test_rotation_names_a_player_not_on_the_team(self, bos):
        bos["rotation"][0] = "Cy Young"
        team_error(bos, "rotation", "'Cy Young'", "not on the team")

    def test_unknown_top_level_field(self, bos):
        bos["manager"] = "Terry Francona"
        team_error(bos, "unknown field", "'manager'")

    @pytest.mark.parametrize("field", ["name", "players", "lineups", "rotation"])
    def test_missing_top_level_field(self, bos, field):
        del bos[field]
        team_error(bos, "missing field", repr(field))

    def test_bad_card_names_source_and_index(self, bos):
        i = bos["players"].index(player(bos, "Bill Mueller"))
        bos["players"][i]["bats"] = "X"
        team_error(bos, f"players[{i}]", "Bill Mueller", "'bats'")


class TestPointCapWaiver:
    """``point_cap=None`` waives the 5,000-point cap and nothing else."""

    @staticmethod
    def over_cap(team):
        player(team, "Pedro Martinez")["points"] += int(POINT_CAP - roster_points(team)) + 100
        assert roster_points(team) > POINT_CAP
        return team

    def test_waives_the_cap(self, bos):
        self.over_cap(bos)
        team_error(bos, RULE_CAP)
        team = load(bos, point_cap=None)
        assert team.total_points == roster_points(bos) > POINT_CAP

    def test_other_cap_values(self, bos):
        total = roster_points(bos)
        load(bos, point_cap=int(total) + 1)
        team_error(bos, "total point value", point_cap=int(total) - 1)

    def _roster_24(t):
        t["players"].remove(player(t, "Lenny DiNardo"))

    def _five_starters(t):
        player(t, "Keith Foulke")["role"] = "starter"

    def _twice(t):
        t["players"][t["players"].index(player(t, "Lenny DiNardo"))] = \
            copy.deepcopy(player(t, "Keith Foulke"))

    def _backup_starts(t):
        player(t, "Pokey Reese")["backup"] = True

    def _lineup_hole(t):
        lineup_entry(t, "dh", "Pokey Reese")["position"] = "2B"

    def _bad_rotation(t):
        t["rotation"][-1] = "Keith Foulke"

    @pytest.mark.parametrize("breakage, rule", [
        (_roster_24, RULE_25), (_five_starters, RULE_4_STARTERS), (_twice, RULE_SAME_PLAYER),
        (_backup_starts, RULE_BACKUP_FIELD), (_lineup_hole, RULE_LINEUP),
        (_bad_rotation, RULE_ROTATION),
    ], ids=["25-players", "4-starters", "same-player", "backup-starts", "lineup", "rotation"])
    def test_every_other_rule_still_applies(self, bos, breakage, rule):
        breakage(self.over_cap(bos))
        team_error(bos, rule, point_cap=None)


# ---------------------------------------------------------------------------- built-in teams

class TestBuiltinTeams:
    """Every team in data/ loads, and writes back to an equal team."""

    def test_names(self):
        names = builtin_team_names()
        assert names == sorted(p.stem for p in DATA.glob("*.json"))
        assert set(sc.BUILTIN_TEAMS) <= set(names)
        assert set(OVER_CAP_TEAMS) <= set(names)

    @pytest.mark.parametrize("name", builtin_team_names())
    def test_loads(self, name):
        raw = team_json(name)
        team = load_team(name, point_cap=None)
        assert team.total_points == roster_points(raw)
        assert len(team.players) == 25
        if team.total_points > POINT_CAP:
            raises(lambda: load_team(name), repr(name), RULE_CAP, "point_cap=None")
        else:
            assert load_team(name) == team
        assert team == team_from_dict(raw, point_cap=None)

    @pytest.mark.parametrize("name", OVER_CAP_TEAMS)
    def test_over_cap_teams_need_the_waiver(self, name):
        assert load_team(name, point_cap=None).total_points > POINT_CAP
        raises(lambda: load_team(name), RULE_CAP)

    @pytest.mark.parametrize("name", builtin_team_names())
    def test_json_round_trip(self, name):
        team = load_team(name, point_cap=None)
        again = team_from_dict(json.loads(team_to_json(team)), point_cap=None)
        assert again.players == team.players
        assert [c.fit for c in again.players] == [c.fit for c in team.players]
        assert again.lineups == team.lineups
        assert again.rotation == team.rotation
        assert again.backups == team.backups
        assert (again.name, again.league, again.dh, again.season, again.team_id, again.source) == \
            (team.name, team.league, team.dh, team.season, team.team_id, team.source)
        assert again == team

    def test_load_team_accepts_dict_path_and_team(self, tmp_path, bos):
        team = load_team("bos2004")
        path = tmp_path / "bos.json"
        path.write_text(json.dumps(bos), "utf-8")
        assert load_team(str(path)) == team
        assert load_team(path) == team
        assert load_team(bos) == team
        assert load_team(team) is team

    def test_load_team_checks_a_team_object(self):
        team = load_team("nya1927", point_cap=None)
        raises(lambda: load_team(team), RULE_CAP)
        assert load_team(team, point_cap=None) is team


class TestFiles:
    """Team and card files: missing, malformed, and bare card collections."""

    def test_missing_team_file(self, tmp_path):
        path = tmp_path / "nowhere" / "team.json"
        raises(lambda: load_team(str(path)), str(path))

    def test_unknown_team_name(self):
        raises(lambda: load_team("bos1912"), "'bos1912'")

    def test_invalid_json(self, tmp_path):
        path = tmp_path / "broken.json"
        path.write_text('{"name": "Broken", "players": [', "utf-8")
        raises(lambda: load_team(str(path)), str(path), "JSON")
        raises(lambda: load_cards(str(path)), str(path), "JSON")

    def test_not_utf8(self, tmp_path):
        """A Latin-1 file (an accented name) is bad data, reported with its path."""
        path = tmp_path / "latin1.json"
        path.write_bytes('{"name": "Nomar Garcíaparra"}'.encode("latin-1"))
        raises(lambda: load_team(str(path)), str(path))

    def test_team_file_errors_name_the_path(self, tmp_path, bos):
        bos["players"].pop()
        path = tmp_path / "short.json"
        path.write_text(json.dumps(bos), "utf-8")
        raises(lambda: load_team(str(path)), str(path), RULE_25)

    def test_team_not_an_object(self):
        raises(lambda: team_from_dict([], "list.json"), "list.json")
        raises(lambda: load_team(42), "int")

    def test_load_cards_from_a_list(self):
        cards = load_cards([hitter(), pitcher()])
        assert [type(c) for c in cards] == [HitterCard, PitcherCard]
        assert cards == (card_from_dict(hitter()), card_from_dict(pitcher()))

    def test_load_cards_from_a_team_file(self):
        raw = team_json("bos2004")
        cards = load_cards(str(DATA / "bos2004.json"))
        assert cards == load_team("bos2004").players
        assert len(cards) == len(raw["players"])

    def test_load_cards_error_names_the_index(self):
        raises(lambda: load_cards([hitter(), pitcher(role="ace")]), "players[1]",
               "Curt Schilling", "'role'")

    def test_load_cards_needs_a_list(self):
        raises(lambda: load_cards({"cards": []}), "list of cards")
        raises(lambda: load_cards("not a card"), "not a card")

    def test_load_cards_missing_file(self, tmp_path):
        path = tmp_path / "cards.json"
        raises(lambda: load_cards(str(path)), str(path))


def test_both_kinds_of_card_key_on_their_id_and_take_where_they_came_from_by_keyword():
    chart = Chart.from_counts({"SO": 20})
    hitter = HitterCard("Ann", 100, 9, 15, (("1B", 0),), "L", (), chart, id="h1", team="X")
    pitcher = PitcherCard("Bob", 200, 3, 6, "Starter", "R", (), chart, year=1999)
    assert (hitter.key, hitter.team, pitcher.key, pitcher.year) == ("h1", "X", "Bob", 1999)
    assert dataclasses.replace(hitter, fit={"seasons": 1}) == hitter      # the fit is not compared
    with pytest.raises(TypeError):
        HitterCard("Ann", 100, 9, 15, (), "L", (), chart, "h1")           # an id only by keyword
