"""The rules' one source: what the batched engine, the solver and the heuristic use, derived
from the engine alone and compared exactly.

Every roll is derived by running the engine's own rule functions (``rules.attempt_steal``,
``rules.CHOICES[...]``, ``rules.roll_for_batter``...) from states set up by
``rules.start_half_inning``, die face by die face (the dice asked for are the engine's, read
off its calls), and reading what happened on the board. Those exact chances and per-total
results are compared with the vector engine's tables (``dugout.vector.thats_baseball``), the
solver's chances (``chart.outcome_counts``, the graph's branches), the heuristic's odds and
the charts module. The solver's graph is also checked against the engine played with real
dice and random managers: every transition the engine makes is one of the graph's.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from dugout.agents import thats_baseball as heuristic
from dugout.agents.solvers.thats_baseball.chart import (OUTCOMES, ROLLS, outcome_counts,
                                                        outcome_probabilities)
from dugout.agents.solvers.thats_baseball.graph import END, GRAPH, KIND_OF, NODE_OF
from dugout.envs.core.dice import Dice
from dugout.envs.core.engine import play_out
from dugout.envs.core.scorebook import (FLY_OUT, GROUND_OUT, HIT_BY_PITCH, REACHED_ON_ERROR,
                                        WALK)
from dugout.envs.thats_baseball import charts, rules
from dugout.envs.thats_baseball.cards import AA_MAX, AA_MIN, lineup_team
from dugout.vector import thats_baseball as vector

TEAMS = (lineup_team("away", (30,) * 9), lineup_team("home", (30,) * 9))
_SOLVER_OUTCOME = {"BB": "walk", "HBP": "walk", "SO": "strikeout", "FO": "fly_out",
                   "GO": "ground_out", "1B": "single", "2B": "double", "3B": "triple",
                   "HR": "home_run"}


class FaceDice:
    """Dice handing out the given faces, as many as each roll asks for; a roll past them
    raises ``LookupError``. ``asked`` notes every roll the engine asked for."""

    def __init__(self, faces=()):
        self.faces, self.asked = list(faces), []

    def set_stream(self, *key):
        pass

    def roll(self, purpose, dice=1, sides=6):
        self.asked.append((purpose, dice, sides))
        if len(self.faces) < dice:
            raise LookupError(purpose)
        got, self.faces = self.faces[:dice], self.faces[dice:]
        return sum(got)

    def clone(self):
        return FaceDice(self.faces)


def situation(outs=0, code=0, aa=30):
    teams = (lineup_team("away", (aa,) * 9), TEAMS[1])
    return rules.start_half_inning(teams, FaceDice(), inning=1, half=0, outs=outs,
                                   runners=rules.runners_before(0, code), leadoff=0)


def roll_through_engine(setup, apply, read):
    """Every way the dice the engine asks for can fall (a roll at a time, the faces it asks
    for), applied by ``apply`` to a fresh ``setup()``: ``[(rolls, chance, read(state))]``,
    ``rolls`` the (purpose, dice, total) of each roll."""
    out = []

    def go(faces, rolls, chance):
        s = setup()
        s.dice = FaceDice(faces)
        try:
            apply(s)
        except LookupError:
            purpose, dice, sides = s.dice.asked[len(rolls)]
            for more in itertools.product(range(1, sides + 1), repeat=dice):
                go(faces + list(more), rolls + [(purpose, dice, sum(more))],
                   chance * Fraction(1, sides ** dice))
            return
        assert not s.dice.faces, "the engine left dice unrolled"
        out.append((rolls, chance, read(s)))

    go([], [], Fraction(1))
    return out


def chances(ways) -> dict:
    result = {}
    for _, chance, what in ways:
        result[what] = result.get(what, 0) + chance
    return result


def by_total(ways) -> dict:
    """The result of each total of the (one) roll; the roll's purpose and dice."""
    table, asked = {}, set()
    for rolls, _, what in ways:
        (purpose, dice, total), = rolls
        asked.add((purpose, dice))
        assert table.setdefault(total, what) == what, "one total, two results"
    (roll,) = asked
    return table, roll


def _choice(kind, action):
    def apply(s):
        d = s.pending
        assert d.kind == kind
        s.pending = None
        rules.CHOICES[kind](s, d, action)
    return apply


def _ground_out(code=1, outs=0):
    s = situation(outs=outs, code=code)
    rules.batter_result(s, GROUND_OUT)
    return s


def _double_play_offered():
    s = _ground_out()
    _choice("error_roll", rules.PASS)(s)
    return s


def _tag_up_offered():
    s = situation(code=4)
    rules.batter_result(s, FLY_OUT)
    rules.offer_tag_up(s)
    return s


#: Each roll of a manager's choice, from the engine: (setup, apply, read the result).
ROLLS_OF_CHOICES = {
    "steal": (lambda: situation(code=1), lambda s: rules.attempt_steal(s, 0),
              lambda s: "caught" if s.board.outs else "safe"),
    "pickoff": (lambda: situation(code=1), lambda s: rules.attempt_pickoff(s, 0),
                lambda s: "picked_off" if s.board.outs else "error" if s.board.bases[1] is not None
                else "safe"),
    "error": (_ground_out, _choice("error_roll", rules.ROLL),
              lambda s: "error" if s.outcome is REACHED_ON_ERROR else "no_error"),
    "double_play": (_double_play_offered, _choice("double_play", rules.ROLL),
                    lambda s: "turned" if s.board.outs == 2 else "missed"),
    "tag_up": (_tag_up_offered, _choice("tag_up", rules.ROLL),
               lambda s: "advanced" if s.board.runs[0] else "held"),
}


@pytest.fixture(scope="module")
def engine_rolls():
    return {purpose: roll_through_engine(*how) for purpose, how in ROLLS_OF_CHOICES.items()}


def test_each_roll_is_its_chart_and_the_vector_engines_tables(engine_rolls):
    vector_tables = {"steal": {"caught": vector.STEAL_CAUGHT},
                     "pickoff": {"picked_off": vector.PICKOFF_OUT, "error": vector.PICKOFF_ERROR},
                     "error": {"error": vector.ERROR_MADE},
                     "double_play": {"turned": vector.DOUBLE_PLAY_TURNED},
                     "tag_up": {"advanced": vector.TAG_UP_ADVANCED}}
    for purpose, ways in engine_rolls.items():
        table, (asked, dice) = by_total(ways)
        chart = charts.CHARTS[purpose]
        assert (asked, dice) == (chart.purpose, chart.dice) == vector._ROLL[chart]
        assert table == {t: chart.read(t) for t in charts.ways(dice)}
        for result, chance in chances(ways).items():
            assert chart.chance(result) == chance, (purpose, result)
        for result, array in vector_tables[purpose].items():
            assert array.tolist() == [table.get(t) == result for t in range(len(array))], purpose


def test_the_heuristics_odds_are_the_engines(engine_rolls):
    c = {purpose: chances(ways) for purpose, ways in engine_rolls.items()}
    assert heuristic.STEAL_SAFE == float(c["steal"]["safe"]) == 0.5
    assert heuristic.PICKOFF_OUT == float(c["pickoff"]["picked_off"]) == 1 / 36
    assert heuristic.PICKOFF_ERROR == float(c["pickoff"]["error"]) == 1 / 36
    assert heuristic.ERROR_ON_GROUNDER == float(c["error"]["error"]) == 1 / 36
    assert heuristic.DOUBLE_PLAY == float(c["double_play"]["turned"]) == 0.5
    assert heuristic.TAG_UP_SAFE == float(c["tag_up"]["advanced"]) == 2 / 6


def test_the_graphs_chances_are_the_engines_rolls(engine_rolls):
    roll_of = {"S": "steal", "P": "pickoff", "E": "error", "D": "double_play", "T": "tag_up"}
    c = {purpose: chances(ways) for purpose, ways in engine_rolls.items()}
    seen = set()
    for n in GRAPH.decisions:
        code = GRAPH.keys[n][0]
        for action, terms in GRAPH.branches[n]:
            if len(terms) == 1:
                assert terms[0][0] == 1.0
                continue
            purpose = roll_of[code]
            chart = charts.CHARTS[purpose]
            # one term per result, in the chart's order, with the engine's exact chance
            assert [p for p, *_ in terms] == [float(c[purpose][r]) for r, _ in chart.results]
            seen.add(code)
    assert seen == set(roll_of)


def test_the_batters_roll_is_the_solvers_and_the_vector_engines():
    for aa in range(AA_MIN, AA_MAX + 1):
        ways = roll_through_engine(lambda: situation(aa=aa), rules.roll_for_batter,
                                   lambda s: s.outcome)
        counts = np.zeros(len(OUTCOMES), dtype=np.int64)
        for rolls, chance, outcome in ways:
            counts[OUTCOMES.index(_SOLVER_OUTCOME[outcome.code])] += chance * ROLLS
            (purpose, dice, total), *xbh = rolls
            assert (purpose, dice) == (charts.AT_BAT_PURPOSE, charts.AT_BAT_DICE)
            code = vector.CHART[aa + total]
            if xbh:                                     # 1h: the extra-base-hit die
                (purpose, dice, die), = xbh
                assert (purpose, dice) == vector._ROLL[charts.EXTRA_BASE_HIT][:2]
                assert code == vector.XBH_R and vector.EXTRA_BASE_HIT[die] == outcome.bases
            else:
                assert code == vector._result_code(outcome)
        assert sum(chance for _, chance, _ in ways) == 1
        np.testing.assert_array_equal(outcome_counts(aa), counts)
        assert np.abs(outcome_probabilities(aa) - counts / ROLLS).max() < 1e-15


def test_a_hit_batsman_plays_as_a_walk_everywhere():
    """The solver folds HBP into "walk": the engine moves runners alike on both."""
    for outs, code in itertools.product(range(3), range(8)):
        after = []
        for outcome in (WALK, HIT_BY_PITCH):
            s = situation(outs, code)
            rules.batter_result(s, outcome)
            after.append((s.board.outs, s.board.bases, s.board.runs, s.rbi, s.step))
        assert after[0] == after[1]


def test_who_may_steal_or_tag_up_is_the_engines():
    for code in range(8):
        s = situation(code=code)
        want = sum(1 << i for i in rules.steal_candidates(s))
        assert vector.CLEAR_AHEAD[code] == want
        for start in range(-1, 3):
            s = situation(code=code)
            s.outcome, s.step, s.tag_base = FLY_OUT, "tag_up", start
            rules.offer_tag_up(s)
            asked = s.pending.subject if s.pending is not None else -1
            assert vector.NEXT_TAG[code * 4 + start + 1] == asked, (code, start)


class RecordingDice(Dice):
    """The game's dice, noting each roll's purpose and total."""

    def __init__(self, seed):
        super().__init__(seed)
        self.rolls = []

    def roll(self, purpose, dice=1, sides=6):
        total = super().roll(purpose, dice, sides)
        self.rolls.append((purpose, total))
        return total


def _node(s, half):
    """The graph's key of the engine state ``s`` stopped at (END once the half is over)."""
    b = s.board
    if b.half != half:
        return END
    mask = sum(1 << i for i in range(3) if b.bases[i] is not None)
    d = s.pending
    if d is None:
        assert s.step == "at_bat"
        return ("AB", b.outs, mask)
    code = NODE_OF[d.kind]
    if code == "S":
        return ("S", b.outs, mask, sum(1 << i for i in range(3)
                                       if b.bases[i] is not None and b.bases[i] in s.tried_steal))
    return ("T", b.outs, mask, d.subject) if code == "T" else (code, b.outs, mask)


def test_every_transition_of_engine_games_is_in_the_graph():
    """Half innings of the engine with real dice and random managers: each step from a
    node to the next is the graph's term for that action and what the dice gave (the
    outcome at the AB node, the chart's result of the roll after a choice), with its runs
    and whether the next batter came up."""
    rng = np.random.default_rng(5)
    lineups = (lineup_team("away", (24, 32, 28, 30, 26, 31, 27, 29, 25)), TEAMS[1])
    seen, steps = set(), 0
    for k in range(600):
        outs, code = int(rng.integers(3)), int(rng.integers(8))
        s = rules.start_half_inning(lineups, RecordingDice(k), inning=1 + k % 9, half=0, outs=outs,
                                    runners=rules.runners_before(k % 9, code), leadoff=k % 9)
        stop = lambda st: st.board.half != 0 or st.pending is not None or st.step == "at_bat"  # noqa: E731
        play_out(s, rules, None, stop=stop)
        key = _node(s, 0)
        while key != END:
            before_runs, before_order = s.board.runs[0], s.order[0]
            rolls_before = len(s.dice.rolls)
            n = GRAPH.index[key]
            if s.pending is None:
                action = None
                rules.roll_for_batter(s)
            else:
                action = int(rng.choice(s.pending.legal))
                assert s.pending.legal == tuple(a for a, _ in GRAPH.branches[n])
                d, s.pending = s.pending, None
                rules.CHOICES[d.kind](s, d, action)
            outcome = s.outcome
            play_out(s, rules, None, stop=stop)
            got = _node(s, 0)
            step = (END if got == END else GRAPH.index[got], s.board.runs[0] - before_runs,
                    int(s.order[0] != before_order))
            terms = dict(GRAPH.branches[n])[action]
            if action is None:        # the batter's roll: the term of the outcome he got
                name = _SOLVER_OUTCOME[outcome.code]
                assert (name, *step) in terms, (key, name, step)
            elif len(terms) == 1:
                assert step == tuple(terms[0][1:]), (key, action, step)
            else:                     # a roll: the term of the chart's result for its total
                (purpose, total), = s.dice.rolls[rolls_before:]
                chart = charts.CHARTS[purpose]
                at = [r for r, _ in chart.results].index(chart.read(total))
                assert step == tuple(terms[at][1:]), (key, action, purpose, total, step)
            seen.add((key[0], action))
            steps += 1
            key = got
    assert steps > 3000
    assert {code for code, _ in seen} == set(KIND_OF) | {"AB"}


def test_start_half_inning_sets_up_the_situation():
    s = rules.start_half_inning(TEAMS, Dice(3), inning=4, half=1, outs=2,
                                runners=rules.runners_before(5, 0b101), leadoff=5, fielding_next=7)
    b = s.board
    assert (b.inning, b.half, b.outs, b.bases, b.runs) == (4, 1, 2, (4, None, 2), [0, 0])
    assert s.order == [7, 5] and s.step == "start_pa" and s.pending is None and not b.over
    game = rules.start_half_inning(TEAMS, Dice(3), inning=9, half=1, leadoff=2, innings=9,
                                   score=(3, 2), runners=(None, None, 1))
    assert game.board.innings == 9 and game.board.runs == [3, 2]
    game.board.validate()               # a line score a game in its 9th inning can have
    rules.run(game)                     # on to its first decision
    assert game.pending is not None or game.board.over
    game.validate()


@pytest.mark.parametrize("kwargs, words", [
    (dict(inning=0), "inning must be an int of at least 1"),
    (dict(half=2), "half must be an int from 0 to 1"),
    (dict(outs=3), "outs must be an int from 0 to 2"),
    (dict(leadoff=9), "leadoff must be an int from 0 to 8"),
    (dict(runners=(1, 1, None)), "must be different batters"),
    (dict(runners=(0, None, None)), "must be different batters"),
    (dict(runners=(1, None)), "runners must be three lineup slots"),
    (dict(innings=0), "innings must be an int"),
    (dict(innings=9, score=(-1, 0)), "score must be an int"),
])
def test_start_half_inning_names_bad_input(kwargs, words):
    args = dict(inning=1, half=0) | kwargs
    with pytest.raises(ValueError, match=words):
        rules.start_half_inning(TEAMS, Dice(0), **args)


def test_a_chart_must_cover_its_dice_once():
    with pytest.raises(ValueError, match="exactly one result"):
        charts.DiceChart("steal", 1, (("caught", (1, 2, 3)), ("safe", (3, 4, 5, 6))))
    with pytest.raises(ValueError, match="exactly one result"):
        charts.DiceChart("steal", 1, (("caught", (1, 2)), ("safe", (4, 5, 6))))
    assert charts.PURPOSES == vector.PURPOSES == ("at_bat", "extra_base_hit", "steal", "pickoff",
                                                  "error", "double_play", "tag_up")
