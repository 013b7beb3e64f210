"""Pokemon Baseball's dice, counted: simulated plate appearances against the charts' exact odds.

The batting chart's top-level results (the pitcher's die x the batter's two dice) have exact
probabilities, (1/6) * P(2d6 = row) per cell. Ten thousand plate appearances of seeded games
through the engine must show each result kind within 4.5 standard errors of its exact
frequency (binomial; with 15 kinds the chance of a false alarm is below 1e-4), and the
column and row dice must be fair.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from dugout.envs.core.dice import Dice
from dugout.envs.pokemon_baseball import charts as ch
from dugout.envs.pokemon_baseball import rules
from dugout.envs.pokemon_baseball.cards import load_team

TEAMS = (load_team("harbor"), load_team("summit"))
Z = 4.5


def exact_kinds() -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for row, cells in ch.BATTING.items():
        p_row = Fraction(6 - abs(row - 7), 36)
        for result, _ in cells:
            out[result] = out.get(result, Fraction(0)) + p_row / 6
    return out


def play_quietly(seed: int) -> rules.GameState:
    """One game: the first legal pick for every lineup decision, then pass everything
    (no substitutions, steals or bunts; runners hold on flies)."""
    state = rules.new_game(TEAMS[0], TEAMS[1], Dice(seed))
    while state.pending is not None:
        d = state.pending
        rules.apply_action(state, rules.PASS if rules.PASS in d.legal else d.legal[0])
    return state


#: What each kind of batting-chart cell may come to, as the engine scores it: a plain
#: result is final; a sub-chart's cell is one of that chart's results (an error chart's
#: out is a ground out or double play in the infield, a fly out or sacrifice fly in the
#: outfield; its "Hit" rolls the Hit chart). A sacrifice fly with nobody on third is a fly out.
CODES = {
    ch.SINGLE: {"1B"}, ch.DOUBLE: {"2B"}, ch.TRIPLE: {"3B"}, ch.HOMERUN: {"HR"},
    ch.WALK: {"BB"}, ch.STRIKEOUT: {"SO"}, ch.GROUND_OUT: {"GO"},
    ch.FLY_OUT: {"FO", "SF"}, ch.SAC_FLY: {"FO", "SF"},
    ch.HOMERUN_DOUBLE: {"HR", "2B"}, ch.HIT_: {"1B", "2B", "3B", "HR"},
    ch.HIT_LINER_: {"1B", "2B", "HR", "LO", "FO", "SF"},
    ch.HIT_GROUNDER_: {"1B", "2B", "3B", "GO", "DP"}, ch.K_OR_BB: {"SO", "BB"},
    ch.ERR: {"E", "GO", "DP", "FO", "SF", "1B", "2B", "3B", "HR"},
}


def collect(n_pa: int):
    """Top-level cells and what the engine scored for each, over ``n_pa`` plate appearances."""
    kinds, columns, rows, scored = Counter(), Counter(), Counter(), Counter()
    seed = 0
    while sum(kinds.values()) < n_pa:
        state = play_quietly(seed)
        seed += 1
        for play in state.log.plays:
            if play.kind != "pa":
                continue
            row, column = divmod(play.roll, 10)
            kind = ch.BATTING[row][column - 1][0]
            kinds[kind] += 1
            columns[column] += 1
            rows[row] += 1
            scored[kind, play.detail] += 1
    return kinds, columns, rows, scored


def within(count: int, n: int, p: float) -> bool:
    return abs(count - n * p) <= Z * math.sqrt(n * p * (1 - p))


def test_batting_chart_results_match_the_exact_odds():
    kinds, columns, rows, scored = collect(10_000)
    # every plate appearance came to a result its cell allows ...
    wrong = {key: n for key, n in scored.items() if key[1] not in CODES[key[0]]}
    assert not wrong, f"results a cell cannot give: {wrong}"
    # ... and a cell's results are the ones its chart gives, in the chart's proportions:
    # the Homerun/Double cell is a homerun for most batters (10 x die + HP > pitcher's HP),
    # the strikeout/walk cell both
    for kind, codes in ((ch.HOMERUN_DOUBLE, {"HR", "2B"}), (ch.K_OR_BB, {"SO", "BB"})):
        assert {code for (k, code) in scored if k == kind} == codes, kind
    n = sum(kinds.values())
    exact = exact_kinds()
    assert set(kinds) <= set(exact)
    assert sum(exact.values()) == 1
    for kind, p in exact.items():
        assert within(kinds[kind], n, float(p)), (kind, kinds[kind], n * float(p))
    for c in range(1, 7):
        assert within(columns[c], n, 1 / 6), ("pitcher's die", c, columns[c])
    for r in range(2, 13):
        assert within(rows[r], n, (6 - abs(r - 7)) / 36), ("batter's dice", r, rows[r])


def test_exact_odds_of_the_chart_by_hand():
    """A few kinds counted from the printed chart by hand: "Strikeout Walk" fills 12 cells,
    one sixth of all plate appearances."""
    exact = exact_kinds()
    # Strikeout Walk cells: rows 2 (col 4), 3 (3, 6), 4 (2), 5 (3), 6 (1), 7 (2), 8 (4),
    # 9 (5), 11 (1), 12 (3, 5): 36ths of each row's 2d6 chance, / 6 for the column
    by_hand = sum(Fraction(6 - abs(r - 7), 36) / 6 for r in (2, 3, 3, 4, 5, 6, 7, 8, 9, 11, 12, 12))
    assert exact[ch.K_OR_BB] == by_hand == Fraction(1, 6)
    assert exact[ch.WALK] == Fraction(3, 36) / 6 and exact[ch.HOMERUN] == Fraction(1, 36) / 6
