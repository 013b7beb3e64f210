"""Every cell of Pokemon Baseball's charts (``envs/pokemon_baseball/charts.py``) checked
against the rulebook's own text, and the column each chart reads checked against the
printed column headings.

How it works, for a newcomer:

1. The rulebook (Rule 2.3E) prints each chart twice: once as wrapped text (a cell's words
   can break over lines) and once as tab-separated lines. Both renderings are copied
   below VERBATIM, so the test needs nothing outside the repository (the tab characters
   inside the ``*_TAB`` strings are real tabs).
2. ``parse_tab`` splits a ``*_TAB`` rendering on tabs into its heading line(s) and its
   rows; ``RESULT_WORDS`` / ``INJURY_WORDS`` / ``steal_low`` turn the rulebook's words
   into the code's result codes. Every printed cell is then compared with the code's cell.
3. The wrapped rendering is compared word for word with the tab rendering, so a slip in
   copying one of them shows up; for the batting chart the fielder numbers are also read
   from the wrapped rendering in reading order.
4. Column functions: ``expected_column`` reads the printed headings ("11-15", "> 50",
   "40, 30", "51+", ...) and decides the column on its own (it shares no code with
   ``charts``), using the rulebook-gap rule of the spec (B.5 P-8): values are floored to
   a multiple of 10 on charts headed in tens; a value exactly on an open heading's number
   (">50" at 50) belongs to that column with ``edge="ge"`` and to its inward neighbour
   with ``edge="gt"``; HP below 10 reads the hit chart's 10-40 column.
5. The batting chart's result distribution is enumerated exactly (pitcher's die x
   batter's two dice) and compared with the one the printed text gives.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import pytest

from dugout.envs.pokemon_baseball import charts

# =========================================================================================
# The rulebook's text (pokemon-baseball.txt, Rule 2.3E), copied verbatim: for each chart
# the wrapped rendering (``*_WRAPPED``) and the tab-separated one (``*_TAB``), from the
# chart's title line to its last row (the notes under each chart are left out).
# =========================================================================================

BATTING_WRAPPED = r"""
Batting Rule Chart

1 2 3 4 5 6

2 Homerun
Double (8) Error (2) Hit
Liner (5) Strikeout
Walk Error (6) Triple (8)

3 Hit
Liner (6) Sacrifice Fly (9) Strikeout
Walk Error (7) Fly Out (5) Strikeout
Walk

4 Double (9) Strikeout
Walk Single (7) Ground Out (3) Hit
Liner (4) Walk

5 Sacrifice Fly (8) Error (6) Strikeout
Walk Hit
Liner (9) Error (2) Homerun
Double (8)

6 Strikeout
Walk Hit
Grounder (4) Fly Out (7) Single (7) Fly Out (8) Hit (8)

7 Hit
Liner (8) Strikeout
Walk Error (1) Error (6) Error (4) Single (8)

8 Error (5) Error (8) Fly Out (9) Strikeout
Walk Single (9) Hit
Grounder (6)

9 Hit
Grounder (5) Error (4) Error (3) Hit (9) Strikeout
Walk Hit
Liner (7)

10 Ground Out (4) Hit (7) Hit
Grounder (3) Ground Out (6) Error (1) Strikeout

11 Strikeout
Walk Ground Out (5) Fly Out (3) Error (9) Single (9) Sacrifice Fly (7)

12 Hit
Grounder (6) Hit
Liner (3) Strikeout
Walk Hit
Grounder (4) Strikeout
Walk Homerun
"""

BATTING_TAB = r"""
	Batting Rule Chart
	1	2	3	4	5	6
2	Homerun Double (8)	Error (2)	Hit Liner (5)	Strikeout Walk	Error (6)	Triple (8)
3	Hit Liner (6)	Sacrifice Fly (9)	Strikeout Walk	Error (7)	Fly Out (5)	Strikeout Walk
4	Double (9)	Strikeout Walk	Single (7)	Ground Out (3)	Hit Liner (4)	Walk
5	Sacrifice Fly (8)	Error (6)	Strikeout Walk	Hit Liner (9)	Error (2)	Homerun Double (8)
6	Strikeout Walk	Hit Grounder (4)	Fly Out (7)	Single (7)	Fly Out (8)	Hit (8)
7	Hit Liner (8)	Strikeout Walk	Error (1)	Error (6)	Error (4)	Single (8)
8	Error (5)	Error (8)	Fly Out (9)	Strikeout Walk	Single (9)	Hit Grounder (6)
9	Hit Grounder (5)	Error (4)	Error (3)	Hit (9)	Strikeout Walk	Hit Liner (7)
10	Ground Out (4)	Hit (7)	Hit Grounder (3)	Ground Out (6)	Error (1)	Strikeout
11	Strikeout Walk	Ground Out (5)	Fly Out (3)	Error (9)	Single (9)	Sacrifice Fly (7)
12	Hit Grounder (6)	Hit Liner (3)	Strikeout Walk	Hit Grounder (4)	Strikeout Walk	Homerun
"""

ERROR_WRAPPED = r"""
Error Rule Chart
Fielder's level

1-10 11-15 16-20 21-25 26-30 31-35 36-40 41-50 51+

2 Error

3 Out Error Error Error Error Error Error Error Error

4 Out Out Out Error Error Error Error Error Error

5 Out Out Out Out Error Error Error Error Error

6 Out Out Out Out Out Out Error Error Error

7 Out Out Out Out Out Out Out Out Hit

8 Out Out Out Out Out Out Out Out Out

9 Out Out Out Out Out Out Out Out Out

10 Out Out Out Out Out Out Out Out Out

11 Out Out Error Error Out Error Out Error Out

12 Ground Out/Fly Out + Batter Injury
"""

ERROR_TAB = r"""
	Error Rule Chart Fielder's level
	1-10	11-15	16-20	21-25	26-30	31-35	36-40	41-50	51+
2	Error
3	Out	Error	Error	Error	Error	Error	Error	Error	Error
4	Out	Out	Out	Error	Error	Error	Error	Error	Error
5	Out	Out	Out	Out	Error	Error	Error	Error	Error
6	Out	Out	Out	Out	Out	Out	Error	Error	Error
7	Out	Out	Out	Out	Out	Out	Out	Out	Hit
8	Out	Out	Out	Out	Out	Out	Out	Out	Out
9	Out	Out	Out	Out	Out	Out	Out	Out	Out
10	Out	Out	Out	Out	Out	Out	Out	Out	Out
11	Out	Out	Error	Error	Out	Error	Out	Error	Out
12	Ground Out/Fly Out + Batter Injury
"""

INJURY_WRAPPED = r"""
Injury Rule Chart
Batter's level

1-10 11-20 21-30 31-40 41-50 51+

1 One Game HP -50 HP -30 HP -10 No Injury No Injury

2 One Game One Game HP -50 HP -30 HP -10 No Injury

3 One Game One Game One Game HP -50 HP -30 HP -10

4 Two Games One Game One Game One Game HP -50 HP -30

5 Two Games Two Games One Game One Game One Game HP -50

6 Three Games Two Games Two Games One Game One Game One Game
"""

INJURY_TAB = r"""
	Injury Rule Chart Batter's level
	1-10	11-20	21-30	31-40	41-50	51+
1	One Game	HP -50	HP -30	HP -10	No Injury	No Injury
2	One Game	One Game	HP -50	HP -30	HP -10	No Injury
3	One Game	One Game	One Game	HP -50	HP -30	HP -10
4	Two Games	One Game	One Game	One Game	HP -50	HP -30
5	Two Games	Two Games	One Game	One Game	One Game	HP -50
6	Three Games	Two Games	Two Games	One Game	One Game	One Game
"""

HIT_LINER_WRAPPED = r"""
Hit/Liner Rule Chart
Batter's HP - Pitcher's HP

> 50 40, 30 20, 10 0 -10 -20 -30, -40 < -50

1 Single Sacrifice Fly Out Out Out Out Out Out

2 Single Single Single Out Out Out Out Out

3 Single Single Single Single Out Out Out Out

4 Double Single Single Single Single Out Out Out

5 Double Double Single Single Single Single Out Out

6 Homerun Double Single Single Single Single Single Out
"""

HIT_LINER_TAB = r"""
	Hit/Liner Rule Chart Batter's HP - Pitcher's HP
	> 50	40, 30	20, 10	0	-10	-20	-30, -40	< -50
1	Single	Sacrifice Fly	Out	Out	Out	Out	Out	Out
2	Single	Single	Single	Out	Out	Out	Out	Out
3	Single	Single	Single	Single	Out	Out	Out	Out
4	Double	Single	Single	Single	Single	Out	Out	Out
5	Double	Double	Single	Single	Single	Single	Out	Out
6	Homerun	Double	Single	Single	Single	Single	Single	Out
"""

HIT_GROUNDER_WRAPPED = r"""
Hit/Grounder Rule Chart
Pitcher's level + Fielder's level - Batter's level

> 81 61-80 51-60 41-50 31-40 21-30 0-20 < 0

1 Single Single Out Out Out Out Out Out

2 Single Single Single Out Out Out Out Out

3 Double Single Single Single Out Out Out Out

4 Double Single Single Single Single Out Out Out

5 Triple Single Single Single Single Single Out Out

6 Triple Single Single Single Single Single Single Out
"""

HIT_GROUNDER_TAB = r"""
	Hit/Grounder Rule Chart Pitcher's level + Fielder's level - Batter's level
	> 81	61-80	51-60	41-50	31-40	21-30	0-20	< 0
1	Single	Single	Out	Out	Out	Out	Out	Out
2	Single	Single	Single	Out	Out	Out	Out	Out
3	Double	Single	Single	Single	Out	Out	Out	Out
4	Double	Single	Single	Single	Single	Out	Out	Out
5	Triple	Single	Single	Single	Single	Single	Out	Out
6	Triple	Single	Single	Single	Single	Single	Single	Out
"""

HIT_WRAPPED = r"""
Hit Rule Chart
Batter's HP

10-40 50 60 70 80 90 100 > 110

1 Single Single Single Single Single Single Double Double

2 Single Single Single Single Single Double Double Homerun

3 Single Single Single Single Double Double Double Homerun

4 Single Single Single Double Double Double Homerun Homerun

5 Single Single Double Double Double Homerun Homerun Homerun

6 Single Double Double Triple Homerun Homerun Homerun Homerun
"""

HIT_TAB = r"""
	Hit Rule Chart Batter's HP
	10-40	50	60	70	80	90	100	> 110
1	Single	Single	Single	Single	Single	Single	Double	Double
2	Single	Single	Single	Single	Single	Double	Double	Homerun
3	Single	Single	Single	Single	Double	Double	Double	Homerun
4	Single	Single	Single	Double	Double	Double	Homerun	Homerun
5	Single	Single	Double	Double	Double	Homerun	Homerun	Homerun
6	Single	Double	Double	Triple	Homerun	Homerun	Homerun	Homerun
"""

STRIKEOUT_WALK_WRAPPED = r"""
Strikeout/Walk Rule Chart
Batter's attack - Pitcher's attack

> 40 30 20 10 0 -10, -20 -30, -40 < -50

1 Walk Strikeout Strikeout Strikeout Strikeout Strikeout Strikeout Strikeout

2 Walk Walk Walk Strikeout Strikeout Strikeout Strikeout Strikeout

3 Walk Walk Walk Walk Strikeout Strikeout Strikeout Strikeout

4 Walk Walk Walk Walk Walk Strikeout Strikeout Strikeout

5 Wild Pitch
Walk Wild Pitch
Walk Walk Walk Walk Walk Strikeout Strikeout

6 Wild Pitch
Walk Wild Pitch
Walk Walk Walk Walk Walk Walk Strikeout
"""

STRIKEOUT_WALK_TAB = r"""
	Strikeout/Walk Rule Chart Batter's attack - Pitcher's attack
	> 40	30	20	10	0	-10, -20	-30, -40	< -50
1	Walk	Strikeout	Strikeout	Strikeout	Strikeout	Strikeout	Strikeout	Strikeout
2	Walk	Walk	Walk	Strikeout	Strikeout	Strikeout	Strikeout	Strikeout
3	Walk	Walk	Walk	Walk	Strikeout	Strikeout	Strikeout	Strikeout
4	Walk	Walk	Walk	Walk	Walk	Strikeout	Strikeout	Strikeout
5	Wild Pitch Walk	Wild Pitch Walk	Walk	Walk	Walk	Walk	Strikeout	Strikeout
6	Wild Pitch Walk	Wild Pitch Walk	Walk	Walk	Walk	Walk	Walk	Strikeout
"""

BUNT_WRAPPED = r"""
Bunt Rule Chart
Batter's level

Runner on First Runner on Second

1-7 8-20 21-40 41+ 1-15 16-30 31+

2 Single Single Walk Walk Single Walk Walk

3 Single Success
Error Success
Error Success
Error Success
Error Success
Error Success
Error

4 Success Success Success Success Success Success Success

5 Success Success Success Success Success Success Success

6 Success Success Success Success Success Success Out

7 Success Success Success Out Success Success Out

8 Success Success Out Out Success Out Out

9 Success Out Out Out Out Out Out

10 Single Out Strikeout Strikeout Out Strikeout Strikeout

11 Out Single Fly Out Double Play Walk Fly Out Double Play

12 Out Double Play Double Play Double Play Fly Out Double Play Double Play
"""

BUNT_TAB = r"""
	Bunt Rule Chart Batter's level
	Runner on First		Runner on Second
	1-7	8-20	21-40	41+	1-15	16-30	31+
2	Single	Single	Walk	Walk	Single	Walk	Walk
3	Single	Success Error	Success Error	Success Error	Success Error	Success Error	Success Error
4	Success	Success	Success	Success	Success	Success	Success
5	Success	Success	Success	Success	Success	Success	Success
6	Success	Success	Success	Success	Success	Success	Out
7	Success	Success	Success	Out	Success	Success	Out
8	Success	Success	Out	Out	Success	Out	Out
9	Success	Out	Out	Out	Out	Out	Out
10	Single	Out	Strikeout	Strikeout	Out	Strikeout	Strikeout
11	Out	Single	Fly Out	Double Play	Walk	Fly Out	Double Play
12	Out	Double Play	Double Play	Double Play	Fly Out	Double Play	Double Play
"""

STEAL_WRAPPED = r"""
Steal Rule Chart
Second Base = Catcher's retreat
Third Base = Catcher's retreat + Pitcher's retreat

0 1 2 3 4 5 6 7 8

0 2-12 2-12 3-12 4-12 5-12 6-12 7-12 8-12 9-12

1 3-12 4-12 5-12 6-12 7-12 8-12 9-12 10-12 11-12

2 5-12 6-12 7-12 8-12 9-12 10-12 11-12 12 12

3 7-12 8-12 9-12 10-12 11-12 12 12 12 12

4 9-12 10-12 11-12 12 12 12 12 12 12
"""

STEAL_TAB = r"""
	Steal Rule Chart Second Base = Catcher's retreat Third Base = Catcher's retreat + Pitcher's retreat
	0	1	2	3	4	5	6	7	8
0	2-12	2-12	3-12	4-12	5-12	6-12	7-12	8-12	9-12
1	3-12	4-12	5-12	6-12	7-12	8-12	9-12	10-12	11-12
2	5-12	6-12	7-12	8-12	9-12	10-12	11-12	12	12
3	7-12	8-12	9-12	10-12	11-12	12	12	12	12
4	9-12	10-12	11-12	12	12	12	12	12	12
"""

# =========================================================================================
# Parsing the tab renderings
# =========================================================================================


@dataclass
class Printed:
    """One chart as the rulebook prints it: heading lines and rows of cell words."""
    title: str
    heading_lines: list[list[str]]      # each line's fields after the leading tab
    rows: dict[int, list[str]]          # die roll -> the printed cells, left to right

    @property
    def headings(self) -> list[str]:
        return self.heading_lines[-1]   # the line right above the rows


def parse_tab(text: str) -> Printed:
    lines = text.strip("\n").split("\n")
    title = lines[0].strip("\t")
    heading_lines, rows = [], {}
    for line in lines[1:]:
        fields = line.split("\t")
        if fields[0] == "":                      # a heading line starts with a tab
            assert not rows, f"heading line after the rows: {line!r}"
            heading_lines.append(fields[1:])
        else:                                    # a row starts with its die roll
            rows[int(fields[0])] = fields[1:]
    return Printed(title, heading_lines, rows)


TEXTS = {  # chart name -> (wrapped rendering, tab rendering)
    "batting": (BATTING_WRAPPED, BATTING_TAB),
    "error": (ERROR_WRAPPED, ERROR_TAB),
    "injury": (INJURY_WRAPPED, INJURY_TAB),
    "hit_liner": (HIT_LINER_WRAPPED, HIT_LINER_TAB),
    "hit_grounder": (HIT_GROUNDER_WRAPPED, HIT_GROUNDER_TAB),
    "hit": (HIT_WRAPPED, HIT_TAB),
    "strikeout_walk": (STRIKEOUT_WALK_WRAPPED, STRIKEOUT_WALK_TAB),
    "bunt": (BUNT_WRAPPED, BUNT_TAB),
    "steal": (STEAL_WRAPPED, STEAL_TAB),
}
PRINTED = {name: parse_tab(tab) for name, (_, tab) in TEXTS.items()}

CODE = {
    "batting": charts.BATTING, "error": charts.ERROR, "injury": charts.INJURY,
    "hit_liner": charts.HIT_LINER, "hit_grounder": charts.HIT_GROUNDER, "hit": charts.HIT,
    "strikeout_walk": charts.STRIKEOUT_WALK, "bunt": charts.BUNT, "steal": charts.STEAL,
}

# What the code's dicts must look like: the rows (die rolls) and the number of columns.
SHAPES = {
    "batting": (range(2, 13), 6),        # batter's two dice x pitcher's die
    "error": (range(2, 13), 9),
    "injury": (range(1, 7), 6),
    "hit_liner": (range(1, 7), 8),
    "hit_grounder": (range(1, 7), 8),
    "hit": (range(1, 7), 8),
    "strikeout_walk": (range(1, 7), 8),
    "bunt": (range(2, 13), 7),
    "steal": (range(0, 5), 9),           # runner's retreat x column 0-8
}

# =========================================================================================
# The rulebook's words -> the code's result codes
# =========================================================================================

RESULT_WORDS = {
    "Single": charts.SINGLE,
    "Double": charts.DOUBLE,
    "Triple": charts.TRIPLE,
    "Homerun": charts.HOMERUN,
    "Walk": charts.WALK,
    "Strikeout": charts.STRIKEOUT,
    "Out": charts.OUT,
    "Sacrifice Fly": charts.SAC_FLY,
    "Fly Out": charts.FLY_OUT,
    "Ground Out": charts.GROUND_OUT,
    "Wild Pitch Walk": charts.WILD_PITCH_WALK,
    "Success": charts.SUCCESS,
    "Success Error": charts.SUCCESS_ERROR,
    "Double Play": charts.DOUBLE_PLAY,
    # results that send the batter to another chart
    "Error": charts.ERR,
    "Hit": charts.HIT_,
    "Hit Liner": charts.HIT_LINER_,
    "Hit Grounder": charts.HIT_GROUNDER_,
    "Strikeout Walk": charts.K_OR_BB,
    "Homerun Double": charts.HOMERUN_DOUBLE,
    # error chart, row 12
    "Ground Out/Fly Out + Batter Injury": charts.INJURY_OUT,
}

INJURY_WORDS = {
    "One Game": ("games", 1),
    "Two Games": ("games", 2),
    "Three Games": ("games", 3),
    "HP -50": ("hp", 50),
    "HP -30": ("hp", 30),
    "HP -10": ("hp", 10),
    "No Injury": None,
}


def batting_cell(word: str) -> tuple[str, int]:
    """"Hit Liner (5)" -> (HIT_LINER_, 5); "Walk" -> (WALK, 0): the fielder in brackets."""
    m = re.fullmatch(r"(.+?)(?: \((\d)\))?", word)
    return RESULT_WORDS[m.group(1)], int(m.group(2) or 0)


def steal_low(word: str) -> int:
    """"5-12" -> 5 and "12" -> 12: the lowest safe total (every range ends at 12)."""
    low, _, high = word.partition("-")
    assert (high or low) == "12", f"steal range {word!r} does not end at 12"
    return int(low)


TRANSLATE = {
    "batting": batting_cell,
    "injury": INJURY_WORDS.__getitem__,
    "steal": steal_low,
}

# Rows printed as a single cell that spans the whole row.
SPANNING_ROWS = {("error", 2), ("error", 12)}


def expected_row(chart: str, row: int) -> list:
    """The printed row, one code per column (a spanning cell repeated in every column)."""
    printed = PRINTED[chart]
    words = printed.rows[row]
    if (chart, row) in SPANNING_ROWS:
        assert len(words) == 1, words
        words = words * len(printed.headings)
    translate = TRANSLATE.get(chart, RESULT_WORDS.__getitem__)
    return [translate(w) for w in words]


CHART_ROWS = [(chart, row) for chart, p in PRINTED.items() for row in p.rows]

# =========================================================================================
# The two renderings agree, and the charts have the printed shape
# =========================================================================================


@pytest.mark.parametrize("chart", list(TEXTS))
def test_wrapped_and_tab_renderings_have_the_same_words(chart):
    wrapped, tab = TEXTS[chart]
    assert wrapped.split() == tab.split()


def test_batting_fielders_in_reading_order_match_in_both_renderings():
    # The wrapped rendering: the title, the headings, then one paragraph per row, which
    # starts with the row's number; its fielders are the "(n)" in reading order.
    title, headings, *paragraphs = BATTING_WRAPPED.strip("\n").split("\n\n")
    assert title == "Batting Rule Chart" and headings.split() == PRINTED["batting"].headings
    wrapped = {int(p.split()[0]): [int(n) for n in re.findall(r"\((\d)\)", p)]
               for p in paragraphs}
    tab = {row: [f for _, f in map(batting_cell, words) if f]
           for row, words in PRINTED["batting"].rows.items()}
    code = {row: [f for _, f in cells if f] for row, cells in charts.BATTING.items()}
    assert list(wrapped) == list(range(2, 13))
    assert wrapped == tab == code


@pytest.mark.parametrize("chart", list(PRINTED))
def test_rows_and_column_counts(chart):
    rows, n_columns = SHAPES[chart]
    printed = PRINTED[chart]
    assert list(printed.rows) == list(rows)
    assert list(CODE[chart]) == list(rows)
    assert len(printed.headings) == n_columns
    for row in rows:
        if (chart, row) not in SPANNING_ROWS:
            assert len(printed.rows[row]) == n_columns, (chart, row)
        assert len(CODE[chart][row]) == n_columns, (chart, row)


def test_only_error_rows_2_and_12_span_the_row():
    assert {(c, r) for c, r in CHART_ROWS if len(PRINTED[c].rows[r]) == 1} == SPANNING_ROWS


def test_every_printed_word_is_in_a_word_table():
    for chart, row in CHART_ROWS:
        expected_row(chart, row)  # raises KeyError on an unknown word


# =========================================================================================
# Every cell
# =========================================================================================


@pytest.mark.parametrize("chart,row", CHART_ROWS, ids=[f"{c}-{r}" for c, r in CHART_ROWS])
def test_every_cell_matches_the_rulebook(chart, row):
    printed = PRINTED[chart]
    words = printed.rows[row] * (len(printed.headings) if (chart, row) in SPANNING_ROWS else 1)
    expected = expected_row(chart, row)
    actual = CODE[chart][row]
    mismatches = [f"column {col} ({printed.headings[col]!r}): rulebook {words[col]!r} -> "
                  f"{expected[col]!r}, code {actual[col]!r}"
                  for col in range(len(expected)) if expected[col] != actual[col]]
    assert not mismatches, f"{chart} chart, row {row}:\n" + "\n".join(mismatches)


@pytest.mark.parametrize("retreat", list(PRINTED["steal"].rows))
def test_steal_needs_reads_the_printed_lower_bound(retreat):
    for column, word in enumerate(PRINTED["steal"].rows[retreat]):
        assert charts.steal_needs(retreat, column) == steal_low(word), (retreat, column, word)


# =========================================================================================
# Column headings
# =========================================================================================


def bunt_groups() -> list[tuple[str, list[str]]]:
    """The bunt chart's two groups: the second starts where the levels restart at 1."""
    names = [n.split()[-1].lower() for n in PRINTED["bunt"].heading_lines[0] if n]
    headings = PRINTED["bunt"].headings
    split = next(i for i, h in enumerate(headings) if i > 0 and h.startswith("1-"))
    assert names == ["first", "second"]
    return [(names[0], headings[:split]), (names[1], headings[split:])]


def test_column_headings_match_the_printed_headings():
    expected = {chart: tuple(PRINTED[chart].headings)
                for chart in ("error", "injury", "hit_liner", "hit_grounder", "hit",
                              "strikeout_walk", "steal")}
    expected["bunt"] = tuple(f"{name} {h}" for name, group in bunt_groups() for h in group)
    assert charts.COLUMN_HEADINGS == expected
    assert PRINTED["batting"].headings == [str(d) for d in range(1, 7)]   # the pitcher's die


def test_titles_name_the_stat_each_chart_reads():
    assert {c: p.title for c, p in PRINTED.items()} == {
        "batting": "Batting Rule Chart",
        "error": "Error Rule Chart Fielder's level",
        "injury": "Injury Rule Chart Batter's level",
        "hit_liner": "Hit/Liner Rule Chart Batter's HP - Pitcher's HP",
        "hit_grounder": "Hit/Grounder Rule Chart Pitcher's level + Fielder's level - "
                        "Batter's level",
        "hit": "Hit Rule Chart Batter's HP",
        "strikeout_walk": "Strikeout/Walk Rule Chart Batter's attack - Pitcher's attack",
        "bunt": "Bunt Rule Chart Batter's level",
        "steal": "Steal Rule Chart Second Base = Catcher's retreat Third Base = Catcher's "
                 "retreat + Pitcher's retreat",
    }


# =========================================================================================
# Column functions, from the printed headings
# =========================================================================================


@dataclass
class Heading:
    """A printed column heading: a closed set of values, or open above / below a bound."""
    values: range | set[int] | None = None   # closed: "11-15", "51+", "40, 30", "0"
    above: int | None = None                 # "> 50": more than 50 (50 itself: the edge)
    below: int | None = None                 # "< -50"


def parse_heading(text: str) -> Heading:
    if m := re.fullmatch(r"> (-?\d+)", text):
        return Heading(above=int(m.group(1)))
    if m := re.fullmatch(r"< (-?\d+)", text):
        return Heading(below=int(m.group(1)))
    if m := re.fullmatch(r"(\d+)\+", text):
        return Heading(values=range(int(m.group(1)), 10**6))
    if m := re.fullmatch(r"(-?\d+)-(\d+)", text):
        return Heading(values=range(int(m.group(1)), int(m.group(2)) + 1))
    return Heading(values={int(v) for v in text.split(", ")})


def expected_column(headings: list[str], value: int, edge: str, tens: bool,
                    floor: int | None = None) -> int:
    """The column whose printed heading holds ``value`` (spec B.5 P-8).

    ``tens``: the chart is headed in multiples of 10, so the value is floored to one first
    (a closed heading like "10-40" then means the multiples 10, 20, 30, 40). ``floor``:
    values below it read the first column (HP below 10 on the hit chart)."""
    parsed = [parse_heading(h) for h in headings]
    v = value // 10 * 10 if tens else value
    if floor is not None and v < floor:
        return 0
    closed = [c for c, h in enumerate(parsed) if h.values is not None and v in h.values]
    assert len(closed) <= 1, (headings, value)
    if closed:
        return closed[0]
    last = len(parsed) - 1
    for c, h in enumerate(parsed):
        bound = h.above if h.above is not None else h.below
        if bound is None:
            continue
        if (h.above is not None and v > bound) or (h.below is not None and v < bound):
            return c
        if v == bound:                     # on an open heading's own number: the gap
            inward = c + 1 if c == 0 else c - 1
            assert c in (0, last)
            return c if edge == "ge" else inward
    raise AssertionError(f"no printed heading holds {value} ({headings})")


def boundary_values(headings: list[str]) -> list[int]:
    """Each number printed in the headings, one either side, and 5 above (a value that is
    not a multiple of 10), plus far values beyond both ends."""
    # a "-" right after a digit is a range's dash ("61-80"), anywhere else a minus ("-30")
    numbers = {int(n) for h in headings for n in re.findall(r"(?<!\d)-?\d+", h)}
    out = {n + d for n in numbers for d in (-1, 0, 1, 5)}
    return sorted(out | {min(out) - 100, max(out) + 100})


# chart -> (column function, floored to tens?, values below this read column 0 (P-8))
EDGE_CHARTS = {
    "hit": (charts.hit_column, True, 10),
    "hit_liner": (charts.hit_liner_column, True, None),
    "strikeout_walk": (charts.strikeout_walk_column, True, None),
    "hit_grounder": (charts.hit_grounder_column, False, None),
}
EDGE_CASES = [(chart, edge, value) for chart in EDGE_CHARTS for edge in charts.EDGES
              for value in boundary_values(PRINTED[chart].headings)]


@pytest.mark.parametrize("chart,edge,value", EDGE_CASES,
                         ids=[f"{c}-{e}-{v}" for c, e, v in EDGE_CASES])
def test_edge_column_at_every_printed_boundary(chart, edge, value):
    function, tens, floor = EDGE_CHARTS[chart]
    expected = expected_column(PRINTED[chart].headings, value, edge, tens, floor)
    assert function(value, edge) == expected


@pytest.mark.parametrize("chart", list(EDGE_CHARTS))
def test_edge_column_sweep_and_default_edge(chart):
    function, tens, floor = EDGE_CHARTS[chart]
    headings = PRINTED[chart].headings
    for value in range(-200, 301):
        for edge in charts.EDGES:
            assert function(value, edge) == expected_column(headings, value, edge, tens, floor), \
                (chart, value, edge)
        assert function(value) == function(value, "ge")


# The same boundaries written out by hand: (value, column with "ge", column with "gt").
HAND_CASES = {
    "hit": [(-10, 0, 0), (0, 0, 0), (5, 0, 0), (9, 0, 0), (10, 0, 0), (40, 0, 0), (45, 0, 0),
            (50, 1, 1), (60, 2, 2), (70, 3, 3), (80, 4, 4), (90, 5, 5), (100, 6, 6),
            (105, 6, 6), (110, 7, 6), (115, 7, 6), (120, 7, 7), (250, 7, 7)],
    "hit_liner": [(60, 0, 0), (55, 0, 1), (50, 0, 1), (40, 1, 1), (35, 1, 1), (30, 1, 1),
                  (20, 2, 2), (10, 2, 2), (0, 3, 3), (-10, 4, 4), (-15, 5, 5), (-20, 5, 5),
                  (-30, 6, 6), (-40, 6, 6), (-45, 7, 6), (-50, 7, 6), (-60, 7, 7)],
    "strikeout_walk": [(50, 0, 0), (40, 0, 1), (30, 1, 1), (20, 2, 2), (10, 3, 3), (0, 4, 4),
                       (-10, 5, 5), (-20, 5, 5), (-30, 6, 6), (-40, 6, 6), (-50, 7, 6),
                       (-60, 7, 7)],
    "hit_grounder": [(200, 0, 0), (82, 0, 0), (81, 0, 1), (80, 1, 1), (61, 1, 1), (60, 2, 2),
                     (51, 2, 2), (50, 3, 3), (41, 3, 3), (40, 4, 4), (31, 4, 4), (30, 5, 5),
                     (21, 5, 5), (20, 6, 6), (0, 6, 6), (-1, 7, 7), (-50, 7, 7)],
}
HAND = [(chart, *case) for chart, cases in HAND_CASES.items() for case in cases]


@pytest.mark.parametrize("chart,value,ge,gt", HAND, ids=[f"{c}-{v}" for c, v, _, _ in HAND])
def test_edge_column_hand_written_cases(chart, value, ge, gt):
    function = EDGE_CHARTS[chart][0]
    assert (function(value, "ge"), function(value, "gt"), function(value)) == (ge, gt, ge)


def level_cases(headings: list[str], column_offset: int = 0) -> list[tuple[int, int]]:
    """(level, column) at both printed ends of each heading; "51+" -> 51, 80 and 99."""
    cases = []
    for c, text in enumerate(headings):
        if m := re.fullmatch(r"(\d+)-(\d+)", text):
            ends = [int(m.group(1)), int(m.group(2))]
        else:
            low = int(re.fullmatch(r"(\d+)\+", text).group(1))
            ends = [low, 80, 99]
        cases += [(level, c + column_offset) for level in ends]
    return cases


@pytest.mark.parametrize("level,column", level_cases(PRINTED["error"].headings))
def test_error_column(level, column):
    assert charts.error_column(level) == column


@pytest.mark.parametrize("level,column", level_cases(PRINTED["injury"].headings))
def test_injury_column(level, column):
    assert charts.injury_column(level) == column


def test_level_columns_cover_every_level():
    for chart, function in (("error", charts.error_column), ("injury", charts.injury_column)):
        parsed = [parse_heading(h).values for h in PRINTED[chart].headings]
        for level in range(1, 120):
            assert function(level) == [level in v for v in parsed].index(True), (chart, level)


BUNT_CASES = [(lead, level, column) for lead, (_, group) in enumerate(bunt_groups())
              for level, column in level_cases(group, 0 if lead == 0 else 4)]


@pytest.mark.parametrize("lead,level,column", BUNT_CASES)
def test_bunt_column(lead, level, column):
    assert charts.bunt_column(level, lead) == column


def test_bunt_hand_written_cases():
    lead0 = [(1, 0), (7, 0), (8, 1), (20, 1), (21, 2), (40, 2), (41, 3), (99, 3)]
    lead1 = [(1, 4), (15, 4), (16, 5), (30, 5), (31, 6), (99, 6)]
    assert [charts.bunt_column(lv, 0) for lv, _ in lead0] == [c for _, c in lead0]
    assert [charts.bunt_column(lv, 1) for lv, _ in lead1] == [c for _, c in lead1]


@pytest.mark.parametrize("target", [1, 2])
def test_steal_column(target):
    # "Second Base = Catcher's retreat / Third Base = Catcher's retreat + Pitcher's retreat"
    for catcher, pitcher in product(range(5), range(5)):
        expected = catcher if target == 1 else catcher + pitcher
        assert charts.steal_column(catcher, pitcher, target) == expected
        assert 0 <= expected <= 8 and str(expected) in PRINTED["steal"].headings


def test_error_and_injury_hand_written_cases():
    assert [charts.error_column(v) for v in (1, 10, 11, 15, 16, 20, 21, 25, 26, 30, 31, 35,
                                             36, 40, 41, 50, 51, 80)] == \
        [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]
    assert [charts.injury_column(v) for v in (1, 10, 11, 20, 21, 30, 31, 40, 41, 50, 51, 99)] \
        == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


@pytest.mark.parametrize("edge", ["ge", "gt"])
def test_check_edge_accepts_the_two_edges(edge):
    assert charts.check_edge(edge) == edge
    assert edge in charts.EDGES


def test_check_edge_rejects_anything_else():
    with pytest.raises(ValueError):
        charts.check_edge("x")


# =========================================================================================
# Probabilities of the batting chart, exactly (pitcher's die x batter's two dice)
# =========================================================================================

TWO_DICE = Counter(a + b for a, b in product(range(1, 7), repeat=2))


def p_two_dice(total: int) -> Fraction:
    return Fraction(TWO_DICE[total], 36)


def batting_distribution_by_enumeration() -> Counter:
    dist = Counter()
    for pitcher, a, b in product(range(1, 7), repeat=3):
        result, _ = charts.BATTING[a + b][pitcher - 1]
        dist[result] += Fraction(1, 216)
    return dist


def test_batting_distribution_matches_the_printed_cells():
    from_text = Counter()
    for row, words in PRINTED["batting"].rows.items():
        for word in words:
            from_text[batting_cell(word)[0]] += Fraction(1, 6) * p_two_dice(row)
    assert batting_distribution_by_enumeration() == from_text


def test_batting_probabilities():
    dist = batting_distribution_by_enumeration()
    assert sum(dist.values()) == 1
    # "Strikeout Walk" cells: the sum of (1/6) * P(2d6 = row) over them.
    cells = [row for row, words in PRINTED["batting"].rows.items()
             for word in words if word == "Strikeout Walk"]
    assert dist[charts.K_OR_BB] == sum(Fraction(1, 6) * p_two_dice(r) for r in cells)
    assert dist[charts.K_OR_BB] == Fraction(36, 216)          # worked out by hand
    # The only top-level "Walk" is row 4, pitcher's 6.
    assert dist[charts.WALK] == Fraction(1, 6) * p_two_dice(4) == Fraction(3, 216)
    assert dist[charts.STRIKEOUT] == Fraction(1, 6) * p_two_dice(10) == Fraction(3, 216)
