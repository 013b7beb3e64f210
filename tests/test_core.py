"""envs/core: dice, scoreboard, observation spec, decisions, the views' shared pieces."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from dugout.envs.core import (Decision, Dice, DiceScriptError, ObservationSpec, Scoreboard,
                              ScriptedDice, action_mask, make_dice)
from dugout.envs.core.observation import MAX_COUNTED, encode_situation, situation_pieces
from dugout.envs.core.view import HalfInningView, LabelledView, build_view


# -- dice ---------------------------------------------------------------------------------
def test_dice_depend_only_on_seed_stream_purpose_and_count():
    a, b = Dice(11), Dice(11)
    a.set_stream(3, 2)
    b.set_stream(3, 2)
    b.roll("steal")                       # another purpose does not disturb the at-bat roll
    assert [a.roll("at_bat", 2) for _ in range(5)] == [b.roll("at_bat", 2) for _ in range(5)]
    c = Dice(11)
    c.set_stream(3, 3)
    d = Dice(12)
    d.set_stream(3, 2)
    first = Dice(11)
    first.set_stream(3, 2)
    seq = [first.roll("at_bat", 2) for _ in range(20)]
    assert seq != [c.roll("at_bat", 2) for _ in range(20)]
    assert seq != [d.roll("at_bat", 2) for _ in range(20)]


def test_d6_is_uniform_chi_square():
    dice = Dice(2024)
    counts = np.zeros(6)
    n = 0
    for pa in range(2000):
        dice.set_stream(pa % 37, pa)
        for _ in range(30):
            counts[dice.roll("x") - 1] += 1
            n += 1
    expected = n / 6
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    # 5 degrees of freedom: P(chi2 > 20.5) = 0.001
    assert chi2 < 20.5, counts


def test_two_dice_have_the_triangular_distribution():
    dice = Dice(5)
    rolls = []
    for pa in range(6000):
        dice.set_stream(0, pa)
        rolls.append(dice.roll("at_bat", dice=2))
    rolls = np.array(rolls)
    n = len(rolls)
    for total, ways in ((2, 1), (7, 6), (12, 1)):
        p = ways / 36
        sd = math.sqrt(p * (1 - p) / n)
        assert abs((rolls == total).mean() - p) < 4 * sd, total
    assert rolls.min() == 2 and rolls.max() == 12


def test_shuffle_is_a_permutation_and_uniform_on_three_items():
    dice = Dice(9)
    counts: dict[tuple, int] = {}
    for i in range(6000):
        dice.set_stream(i)
        perm = tuple(dice.shuffle("deck", "abc"))
        assert sorted(perm) == ["a", "b", "c"]
        counts[perm] = counts.get(perm, 0) + 1
    assert len(counts) == 6
    sd = math.sqrt(6000 * (1 / 6) * (5 / 6))
    assert all(abs(c - 1000) < 4 * sd for c in counts.values())


def test_dice_round_trip_and_clone():
    dice = Dice(77)
    dice.set_stream(4, 1)
    dice.roll("at_bat", 2)
    saved = make_dice(json.loads(json.dumps(dice.to_dict())))
    twin = dice.clone()
    assert [saved.roll("at_bat", 2) for _ in range(5)] == [dice.roll("at_bat", 2) for _ in range(5)]
    assert twin.roll("at_bat", 2) != -1 and twin._draws != dice._draws


def test_other_purposes_do_not_shift_a_stream_and_copies_continue_it():
    ref = Dice(5)
    ref.set_stream(3, 0)
    at_bat = [ref.roll("at_bat", dice=2) for _ in range(3)]
    xbh = ref.roll("extra_base_hit")

    other = Dice(5)
    other.set_stream(0, 0)
    for _ in range(10):
        other.roll("at_bat", dice=2)
    other.set_stream(3, 0)
    other.roll("steal")               # other purposes do not shift the at-bat rolls
    other.roll("pickoff", dice=2)
    other.roll("steal")
    assert [other.roll("at_bat", dice=2) for _ in range(3)] == at_bat
    assert other.roll("extra_base_hit") == xbh

    # re-entering a stream starts it over
    other.set_stream(3, 0)
    assert other.roll("at_bat", dice=2) == at_bat[0]

    # a copy continues where the original is
    mid = Dice(5)
    mid.set_stream(3, 0)
    mid.roll("at_bat", dice=2)
    for copy in (mid.clone(), Dice.from_dict(json.loads(json.dumps(mid.to_dict())))):
        assert [copy.roll("at_bat", dice=2) for _ in range(2)] == at_bat[1:]
    assert [mid.roll("at_bat", dice=2) for _ in range(2)] == at_bat[1:]


def test_dice_streams_and_seeds_differ():
    def seq(seed, *stream):
        d = Dice(seed)
        d.set_stream(*stream)
        return [d.roll("at_bat", dice=2) for _ in range(40)]

    base = seq(5, 3, 0)
    assert seq(5, 3, 1) != base
    assert seq(5, 4, 0) != base
    assert seq(6, 3, 0) != base
    assert seq(5, 0, 3) != base


def test_dice_are_fair():
    """Each face of a die comes up 1/6 of the time (fixed seed; 5-sigma tolerance)."""
    d = Dice(2024)
    n = 0
    counts = [0] * 7
    for half in range(200):
        d.set_stream(half, 0)
        for _ in range(300):
            counts[d.roll("steal")] += 1
            n += 1
    assert counts[0] == 0
    p = 1 / 6
    sigma = (n * p * (1 - p)) ** 0.5
    for face in range(1, 7):
        assert abs(counts[face] - n * p) < 5 * sigma, counts
    two = [0] * 13
    m = 0
    for half in range(100):
        d.set_stream(half, 1)
        for _ in range(360):
            two[d.roll("at_bat", dice=2)] += 1
            m += 1
    assert two[0] == two[1] == 0
    for total in range(2, 13):
        q = (6 - abs(total - 7)) / 36
        assert abs(two[total] - m * q) < 5 * (m * q * (1 - q)) ** 0.5, two


def test_scripted_dice_survive_a_round_trip():
    script = [("at_bat", 5), 3, ("steal", 6), 2]
    dice = ScriptedDice(script)
    assert dice.roll("at_bat", dice=2) == 5
    copy = make_dice(json.loads(json.dumps(dice.to_dict())))
    clone = dice.clone()
    for d in (dice, copy, clone):
        assert d.remaining == 3
        assert d.roll("extra_base_hit") == 3 and d.roll("steal") == 6 and d.roll("tag_up") == 2
    assert copy.remaining == 0 and dice.remaining == 0 and clone.remaining == 0


@pytest.mark.parametrize("seed, err", [(-1, ValueError), (1.5, TypeError), ("1", TypeError),
                                       (True, TypeError)])
def test_dice_reject_bad_seeds(seed, err):
    with pytest.raises(err, match="seed"):
        Dice(seed)


def test_scripted_dice_check_purpose_range_and_length():
    d = ScriptedDice([("at_bat", 7), 3])
    assert d.roll("at_bat", 2) == 7 and d.roll("steal") == 3 and d.remaining == 0
    with pytest.raises(DiceScriptError, match="ran out"):
        d.roll("steal")
    with pytest.raises(DiceScriptError, match="outside 1..6"):
        ScriptedDice([9]).roll("steal")
    with pytest.raises(DiceScriptError, match="is for 'steal'"):
        ScriptedDice([("steal", 3)]).roll("pickoff", 2)
    with pytest.raises(DiceScriptError, match="must be an int"):
        ScriptedDice(["6"])
    then = ScriptedDice([4], then=Dice(1))
    assert then.roll("steal") == 4 and 1 <= then.roll("steal") <= 6
    again = make_dice(json.loads(json.dumps(then.to_dict())))
    assert again.roll("steal") == then.roll("steal")


# -- scoreboard -------------------------------------------------------------------------------
def _retire(board):
    board.add_outs(3 - board.outs)
    board.end_half()


def test_extra_innings_then_winner_at_end_of_inning():
    b = Scoreboard(innings=2)
    for _ in range(4):
        _retire(b)
    assert not b.over and b.inning == 3 and b.half == 0      # tied: extra innings
    b.score(["r"])                                             # away scores in the 3rd
    _retire(b)
    assert not b.over                                          # home bats in the bottom
    _retire(b)
    assert b.over and b.winner == 0 and b.line == [[0, 0, 1], [0, 0, 0]]


def test_home_does_not_bat_when_ahead():
    b = Scoreboard(innings=1)
    _retire(b)
    b.half = 1
    b2 = Scoreboard(innings=2)
    _retire(b2)
    b2.score(["r"])
    _retire(b2)
    _retire(b2)                                                # top of the 2nd: home leads
    assert b2.over and b2.winner == 1 and b2.line == [[0, 0], [1]]


def test_walk_off_counts_only_the_needed_runs_except_on_a_home_run():
    b = Scoreboard(innings=1)
    b.score(["a"])
    _retire(b)                                                  # away leads 1-0
    assert b.score(["x", "y", "z"]) == ["x", "y"]               # tie and lead: two runs count
    assert b.over and b.winner == 1 and b.runs == [1, 2]
    hr = Scoreboard(innings=1)
    _retire(hr)
    assert hr.score(["x", "y", "z", "w"], home_run=True) == ["x", "y", "z", "w"]
    assert hr.runs == [0, 4]


def test_max_innings_truncates_a_tie():
    b = Scoreboard(innings=2, max_innings=3)
    for _ in range(6):
        _retire(b)
    assert b.over and b.truncated and b.winner is None and b.inning == 3


def test_scoreboard_rejects_bad_settings_and_a_fourth_out():
    with pytest.raises(ValueError, match="max_innings"):
        Scoreboard(innings=9, max_innings=8)
    with pytest.raises(ValueError, match="innings"):
        Scoreboard(innings=0)
    b = Scoreboard()
    b.add_outs(2)
    with pytest.raises(ValueError, match="cannot record 2 outs"):
        b.add_outs(2)


def test_scoreboard_round_trip():
    b = Scoreboard(innings=3)
    b.score([1, 2])
    b.add_outs(1)
    b.bases = (4, None, 5)
    again = Scoreboard.from_dict(json.loads(json.dumps(b.to_dict())))
    assert again == b
    c = b.clone()
    c.runs[0] += 1
    c.line[0][0] += 1
    assert b.runs == [2, 0] and b.line[0] == [2]


# -- the views' shared pieces -----------------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class _SeatHalf(HalfInningView):
    """A view with only the fields the mixin reads: ``seat`` and ``half``."""
    seat: int
    half: int


@pytest.mark.parametrize("half", [0, 1])
@pytest.mark.parametrize("seat", [0, 1])
def test_half_inning_view_reads_who_bats_as_the_scoreboard_does(seat, half):
    board = Scoreboard()
    if half:
        board.next_half()
    view = _SeatHalf(seat, half)
    assert (view.batting_team, view.batting_seat, view.fielding_team) == \
        (board.batting, board.batting, board.fielding) == (half, half, 1 - half)
    assert view.batting is (seat == half)
    assert not hasattr(view, "__dict__")          # the mixin adds no slot and no __dict__


def test_labelled_view_fields_open_a_frozen_subclass_in_order():
    @dataclasses.dataclass(frozen=True)
    class Toy(LabelledView):
        outs: int
        note: str = ""

    toy = Toy(1, True, "play", (0, 2), ("a", "b"), 3, 1, outs=2)
    assert [f.name for f in dataclasses.fields(Toy)] == [
        "seat", "batting", "decision", "legal", "labels", "inning", "half", "outs", "note"]
    assert (toy.seat, toy.legal, toy.half, toy.outs, toy.note) == (1, (0, 2), 1, 2, "")
    with pytest.raises(dataclasses.FrozenInstanceError):
        toy.seat = 0


def test_build_view_equals_the_generated_init_and_is_as_strict():
    @dataclasses.dataclass(frozen=True)
    class Toy(LabelledView):
        outs: int
        note: str = ""
        seen: list = dataclasses.field(default_factory=list)

    values = dict(seat=1, batting=True, decision="play", legal=(0, 2), labels=("a", "b"),
                  inning=3, half=1, outs=2)
    toy = build_view(Toy, values)
    assert toy == Toy(**values)
    assert (toy.note, toy.seen) == ("", [])                          # the defaults
    assert build_view(Toy, values).seen is not toy.seen              # a fresh default each
    assert dataclasses.replace(toy, outs=0).outs == 0 and repr(toy) == repr(Toy(**values))
    with pytest.raises(dataclasses.FrozenInstanceError):
        toy.outs = 0
    with pytest.raises(TypeError, match="unknown field.*ouuts.*missing field.*outs"):
        build_view(Toy, {**{k: v for k, v in values.items() if k != "outs"}, "ouuts": 2})
    with pytest.raises(TypeError, match="missing field.*seat"):
        build_view(Toy, {k: v for k, v in values.items() if k != "seat"})
    with pytest.raises(TypeError, match="slots"):
        build_view(_SeatHalf, dict(seat=0, half=1))


def test_the_views_built_without_init_equal_those_built_with_it():
    from dugout.envs import make
    from dugout.envs.bottom_ninth.challenge import ChallengeView
    from dugout.envs.bottom_ninth.view import BottomNinthView
    from dugout.envs.showdown.view import ShowdownView
    from dugout.agents import make_agent
    from dugout.agents.play import turns
    cases = [("showdown_v0", {"level": "expert", "decks": "default"}, ShowdownView),
             ("bottom_ninth_v0", {"mode": "game"}, BottomNinthView),
             ("bottom_ninth_v0", {}, BottomNinthView)]
    for env_id, options, cls in cases:
        env = make(env_id, **options)
        env.reset(seed=3)
        heuristic = make_agent(env_id, "heuristic")
        for n, (seat, observation, _) in enumerate(turns(env)):
            view = env.unwrapped.view(seat)
            assert type(view) is cls and view == cls(**view.__dict__), (env_id, n)
            env.step(heuristic.act(observation, view))
    challenge = make("manager_challenge_v0")
    challenge.reset(seed=3)
    view = challenge.unwrapped.view()
    assert type(view) is ChallengeView and view == ChallengeView(**view.__dict__)


# -- observation spec and masks ---------------------------------------------------------
def test_observation_spec_offsets_table_and_errors():
    spec = ObservationSpec([("a", 2, "first"), ("b", 1, "second")])
    assert spec.size == 3 and spec.slice("b") == slice(2, 3)
    assert "| 0-1 | `a` | [0, 1] | first |" in spec.table()
    assert "| 2 | `b` | [0, 1] | second |" in spec.table()
    assert spec.low.tolist() == [0, 0, 0] and spec.high.tolist() == [1, 1, 1]
    assert set(spec.unpack(np.arange(3, dtype=np.float32))) == {"a", "b"}
    with pytest.raises(ValueError, match="listed twice"):
        ObservationSpec([("a", 1, ""), ("a", 1, "")])
    with pytest.raises(ValueError, match="shape"):
        spec.unpack(np.zeros(4, np.float32))


def test_observation_spec_bounds_per_piece_and_per_element():
    spec = ObservationSpec([("a", 2, "first", (-1, 2.5)), ("b", 2, "second", [(0, 1), (0, 9.9)]),
                            ("c", 1, "third")])
    assert spec.low.tolist() == [-1, -1, 0, 0, 0]
    assert spec.high.tolist() == pytest.approx([2.5, 2.5, 1, 9.9, 1])
    assert spec.low.dtype == spec.high.dtype == np.float32
    assert "| 0-1 | `a` | [-1, 2.5] | first |" in spec.table()
    assert "| 2-3 | `b` | [0, 1], [0, 9.9] | second |" in spec.table()
    assert spec.pieces[0] == ("a", 2, "first")
    more = ObservationSpec(list(spec.declared) + [("d", 1, "fourth", (0, 3))])
    assert more.high.tolist()[:5] == spec.high.tolist() and more.high[-1] == 3
    for bad, words in ((("a", 2, "x", [(0, 1)]), "2 elements but 1 bounds"),
                       (("a", 1, "x", (1, 0)), "low <= high"),
                       (("a", 1, "x", (0, np.inf)), "finite"),
                       (("a", 1), r"\(name, size, meaning\[, bounds\]\)")):
        with pytest.raises(ValueError, match=words):
            ObservationSpec([bad])


def test_counts_saturate_in_the_situation_pieces():
    spec = ObservationSpec(situation_pieces(("k",)))
    obs = spec.zeros()
    encode_situation(obs, spec.offset, 0, None, 1, 0, 0, (None,) * 3, (150, 3))
    assert obs[spec.slice("score")].tolist() == pytest.approx([MAX_COUNTED / 10, 0.3])
    assert obs[spec.offset["run_diff"]] == 1.0
    assert (spec.low <= obs).all() and (obs <= spec.high).all()


def test_action_mask_is_a_fresh_int8_array():
    m = action_mask(5, (0, 4))
    assert m.dtype == np.int8 and m.tolist() == [1, 0, 0, 0, 1]
    m[1] = 1
    assert action_mask(5, (0, 4)).tolist() == [1, 0, 0, 0, 1]
    d = Decision("steal", 0, (0, 2), -1)
    assert Decision.from_dict(json.loads(json.dumps(d.to_dict()))) == d


def test_chance_d20_beats_counts_the_faces():
    from dugout.envs.core.dice import chance_d20_beats
    for bonus in range(-25, 26, 3):
        for target in range(-5, 46, 2):
            faces = sum(1 for d in range(1, 21) if d + bonus > target)
            assert chance_d20_beats(bonus, target) == faces / 20


def test_an_error_shows_any_value_even_an_int_too_long_to_print():
    """Errors name the value given; one Python cannot print (an int over its digit limit,
    alone or inside a container) is described instead of raising while the error is made."""
    from dugout.envs.core.errors import OptionError, check_innings, show
    huge = 10**5000 + 1
    assert show(huge) == f"an int of {huge.bit_length():,} bits"
    assert show({"best_of": huge}) == "a dict holding an int too long to print"
    assert show([1, 2]) == "[1, 2]" and show("x" * 100).endswith("...")
    with pytest.raises(OptionError, match="an int of"):
        check_innings("thats_baseball_v0", huge, None)


def test_a_registered_scoreboard_variant_loads_as_its_class():
    """A ruleset's scoreboard (the Manager Challenge's) is restored by core's loader once it
    registers; a name taken by another class, or a class that is not a saved variant, is
    refused."""
    from dataclasses import dataclass

    from dugout.envs.core.scoreboard import VARIANTS, SuddenDeathScoreboard, register_scoreboard
    from dugout.envs.core.state import SavedAs
    from dugout.envs.bottom_ninth.solo import ChallengeScoreboard

    assert VARIANTS["challenge"] is ChallengeScoreboard
    board = ChallengeScoreboard(innings=9, inning=9, half=1, runs=[2, 1], extra=1)
    again = Scoreboard.from_dict(json.loads(json.dumps(board.to_dict())))
    assert type(again) is ChallengeScoreboard and again == board
    assert register_scoreboard(ChallengeScoreboard) is ChallengeScoreboard    # again: no change

    @dataclass
    class Impostor(SuddenDeathScoreboard):
        SAVED_AS = SavedAs("variant", "challenge", "another scoreboard")

    with pytest.raises(ValueError, match="ChallengeScoreboard"):
        register_scoreboard(Impostor)
    with pytest.raises(ValueError, match="not a Scoreboard"):
        register_scoreboard(dict)
    assert VARIANTS["challenge"] is ChallengeScoreboard


def _toy_engine():
    """A two-rule engine: "pitch" asks the home seat (swing or take), the choice scores one run
    on a swing, and "end" ends the game."""
    from types import SimpleNamespace

    def pitch(state):
        state.pending = Decision("swing", 1, (0, 1))

    def choose_swing(state, decision, action):
        state.board.runs[1] += action
        state.step = "end"

    def end(state):
        state.board.over = True

    state = SimpleNamespace(board=Scoreboard(innings=1), step="pitch", pending=None)
    return state, {"pitch": pitch, "end": end}, {"swing": choose_swing}


def test_engine_applies_a_checked_choice_and_runs_rules_to_a_decision_or_the_end():
    from dugout.envs.core.engine import apply_choice, legal_actions, run_rules
    from dugout.envs.core.errors import IllegalActionError
    state, rules, choices = _toy_engine()
    run_rules(state, rules)
    assert state.pending == Decision("swing", 1, (0, 1)) and legal_actions(state) == (0, 1)
    with pytest.raises(IllegalActionError, match=r"action 2 .* 'swing' .* 0 \(take\), 1 \(swing\)"):
        apply_choice(state, 2, ("take", "swing"), choices)
    assert state.pending is not None                    # a refused action leaves the decision
    apply_choice(state, 1, ("take", "swing"), choices)
    assert state.pending is None and state.board.runs[1] == 1 and state.step == "end"
    run_rules(state, rules)
    assert state.board.over and legal_actions(state) == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        apply_choice(state, 0, ("take", "swing"), choices)


@pytest.mark.parametrize("code, charged", [
    ("1B", {"bf": 1, "h": 1}), ("HR", {"bf": 1, "h": 1, "hr": 1}), ("BB", {"bf": 1, "bb": 1}),
    ("SO", {"bf": 1, "so": 1}), ("HBP", {"bf": 1}), ("GO", {"bf": 1})])
def test_a_batter_faced_charges_the_pitchers_line(code, charged):
    from dugout.envs.core.scorebook import OUTCOMES, PitchingLine
    line = PitchingLine("P")
    line.batter_faced(OUTCOMES[code])
    assert {c: getattr(line, c) for c in line.COUNTERS if getattr(line, c)} == charged
    assert all(type(getattr(line, c)) is int for c in line.COUNTERS)
