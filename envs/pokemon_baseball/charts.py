"""Pokemon Baseball's charts (Rule 2.3E), as data copied from the rulebook, and the column
each chart reads for a given stat.

Every chart is a dict from the die roll (the row) to a tuple of cells, one per printed
column, left to right, exactly as the rulebook prints them. Cell values are the short
result codes below; the batting chart's cells are ``(result, fielder)`` with the
fielder's number (1 = pitcher ... 9 = right field) or 0 where the rulebook prints none.

Columns between printed headings (RULES.md, "Chart columns"): the stats are whole
numbers (HP and attack multiples of 10 in the shipped data, any int in a user's); a
value is floored to a multiple of 10 before a chart headed in tens is read. The gaps the
headings leave (">50" then "40, 30"; ">81" then "61-80"; "100" then ">110") are
closed by ``edge``: with ``"ge"`` (the default) a value exactly on an open heading's
number belongs to that outer column (">50" reads as 50 and more), with ``"gt"`` it
belongs to the next column inward (50 reads as "40, 30").
"""

from __future__ import annotations

__all__ = [
    "EDGES", "BATTING", "ERROR", "INJURY", "HIT_LINER", "HIT_GROUNDER", "HIT", "STRIKEOUT_WALK",
    "BUNT", "STEAL", "hit_column", "hit_liner_column", "strikeout_walk_column",
    "hit_grounder_column", "error_column", "injury_column", "bunt_column", "steal_column",
    "steal_needs", "check_edge", "COLUMN_HEADINGS",
]

EDGES = ("ge", "gt")

# -- result codes --------------------------------------------------------------------------
HOMERUN_DOUBLE = "homerun_double"     # "Homerun Double": the Homerun / Double special rule
ERR = "error"                         # roll two dice on the error chart
HIT_LINER_ = "hit_liner"
HIT_GROUNDER_ = "hit_grounder"
HIT_ = "hit"                          # roll one die on the hit chart
K_OR_BB = "strikeout_walk"            # roll one die on the strikeout/walk chart
SINGLE, DOUBLE, TRIPLE, HOMERUN = "single", "double", "triple", "homerun"
WALK, STRIKEOUT = "walk", "strikeout"
SAC_FLY, FLY_OUT, GROUND_OUT = "sacrifice_fly", "fly_out", "ground_out"
OUT = "out"
WILD_PITCH_WALK = "wild_pitch_walk"
INJURY_OUT = "out_injury"             # error chart row 12: "Ground Out/Fly Out + Batter Injury"
SUCCESS, SUCCESS_ERROR, DOUBLE_PLAY = "success", "success_error", "double_play"

# -- the batting rule chart: batter's two dice (row) x pitcher's die (column 1-6) ---------------
_ = None
BATTING: dict[int, tuple[tuple[str, int], ...]] = {
    2: ((HOMERUN_DOUBLE, 8), (ERR, 2), (HIT_LINER_, 5), (K_OR_BB, 0), (ERR, 6), (TRIPLE, 8)),
    3: ((HIT_LINER_, 6), (SAC_FLY, 9), (K_OR_BB, 0), (ERR, 7), (FLY_OUT, 5), (K_OR_BB, 0)),
    4: ((DOUBLE, 9), (K_OR_BB, 0), (SINGLE, 7), (GROUND_OUT, 3), (HIT_LINER_, 4), (WALK, 0)),
    5: ((SAC_FLY, 8), (ERR, 6), (K_OR_BB, 0), (HIT_LINER_, 9), (ERR, 2), (HOMERUN_DOUBLE, 8)),
    6: ((K_OR_BB, 0), (HIT_GROUNDER_, 4), (FLY_OUT, 7), (SINGLE, 7), (FLY_OUT, 8), (HIT_, 8)),
    7: ((HIT_LINER_, 8), (K_OR_BB, 0), (ERR, 1), (ERR, 6), (ERR, 4), (SINGLE, 8)),
    8: ((ERR, 5), (ERR, 8), (FLY_OUT, 9), (K_OR_BB, 0), (SINGLE, 9), (HIT_GROUNDER_, 6)),
    9: ((HIT_GROUNDER_, 5), (ERR, 4), (ERR, 3), (HIT_, 9), (K_OR_BB, 0), (HIT_LINER_, 7)),
    10: ((GROUND_OUT, 4), (HIT_, 7), (HIT_GROUNDER_, 3), (GROUND_OUT, 6), (ERR, 1), (STRIKEOUT, 0)),
    11: ((K_OR_BB, 0), (GROUND_OUT, 5), (FLY_OUT, 3), (ERR, 9), (SINGLE, 9), (SAC_FLY, 7)),
    12: ((HIT_GROUNDER_, 6), (HIT_LINER_, 3), (K_OR_BB, 0), (HIT_GROUNDER_, 4), (K_OR_BB, 0),
         (HOMERUN, 0)),
}

# -- the error rule chart: two dice x fielder's level ------------------------------------------
E, O = ERR, OUT
ERROR: dict[int, tuple[str, ...]] = {
    2: (E, E, E, E, E, E, E, E, E),
    3: (O, E, E, E, E, E, E, E, E),
    4: (O, O, O, E, E, E, E, E, E),
    5: (O, O, O, O, E, E, E, E, E),
    6: (O, O, O, O, O, O, E, E, E),
    7: (O, O, O, O, O, O, O, O, HIT_),
    8: (O, O, O, O, O, O, O, O, O),
    9: (O, O, O, O, O, O, O, O, O),
    10: (O, O, O, O, O, O, O, O, O),
    11: (O, O, E, E, O, E, O, E, O),
    12: (INJURY_OUT,) * 9,
}

# -- the injury rule chart: one die x batter's level; ("games", n) or ("hp", n) or None ------
G1, G2, G3 = ("games", 1), ("games", 2), ("games", 3)
H50, H30, H10 = ("hp", 50), ("hp", 30), ("hp", 10)
INJURY: dict[int, tuple[tuple[str, int] | None, ...]] = {
    1: (G1, H50, H30, H10, _, _),
    2: (G1, G1, H50, H30, H10, _),
    3: (G1, G1, G1, H50, H30, H10),
    4: (G2, G1, G1, G1, H50, H30),
    5: (G2, G2, G1, G1, G1, H50),
    6: (G3, G2, G2, G1, G1, G1),
}

# -- the one-die charts ----------------------------------------------------------------------
S, D, T, HR, SF = SINGLE, DOUBLE, TRIPLE, HOMERUN, SAC_FLY
HIT_LINER: dict[int, tuple[str, ...]] = {      # batter's HP - pitcher's HP
    1: (S, SF, O, O, O, O, O, O),
    2: (S, S, S, O, O, O, O, O),
    3: (S, S, S, S, O, O, O, O),
    4: (D, S, S, S, S, O, O, O),
    5: (D, D, S, S, S, S, O, O),
    6: (HR, D, S, S, S, S, S, O),
}
HIT_GROUNDER: dict[int, tuple[str, ...]] = {   # pitcher's level + fielder's level - batter's level
    1: (S, S, O, O, O, O, O, O),
    2: (S, S, S, O, O, O, O, O),
    3: (D, S, S, S, O, O, O, O),
    4: (D, S, S, S, S, O, O, O),
    5: (T, S, S, S, S, S, O, O),
    6: (T, S, S, S, S, S, S, O),
}
HIT: dict[int, tuple[str, ...]] = {            # batter's HP
    1: (S, S, S, S, S, S, D, D),
    2: (S, S, S, S, S, D, D, HR),
    3: (S, S, S, S, D, D, D, HR),
    4: (S, S, S, D, D, D, HR, HR),
    5: (S, S, D, D, D, HR, HR, HR),
    6: (S, D, D, T, HR, HR, HR, HR),
}
K, W, WP = STRIKEOUT, WALK, WILD_PITCH_WALK
STRIKEOUT_WALK: dict[int, tuple[str, ...]] = {  # batter's attack - pitcher's attack
    1: (W, K, K, K, K, K, K, K),
    2: (W, W, W, K, K, K, K, K),
    3: (W, W, W, W, K, K, K, K),
    4: (W, W, W, W, W, K, K, K),
    5: (WP, WP, W, W, W, W, K, K),
    6: (WP, WP, W, W, W, W, W, K),
}

# -- the bunt rule chart: two dice x batter's level, under "Runner on First" (4 columns)
# then "Runner on Second" (3 columns) ------------------------------------------------------
SU, SE, DP, FO = SUCCESS, SUCCESS_ERROR, DOUBLE_PLAY, FLY_OUT
BUNT: dict[int, tuple[str, ...]] = {
    2: (S, S, W, W, S, W, W),
    3: (S, SE, SE, SE, SE, SE, SE),
    4: (SU, SU, SU, SU, SU, SU, SU),
    5: (SU, SU, SU, SU, SU, SU, SU),
    6: (SU, SU, SU, SU, SU, SU, O),
    7: (SU, SU, SU, O, SU, SU, O),
    8: (SU, SU, O, O, SU, O, O),
    9: (SU, O, O, O, O, O, O),
    10: (S, O, K, K, O, K, K),
    11: (O, S, FO, DP, W, FO, DP),
    12: (O, DP, DP, DP, FO, DP, DP),
}

# -- the steal rule chart: the lowest safe two-dice total, by the runner's retreat (row 0-4)
# and the column (second base: the catcher's retreat; third: catcher's + pitcher's, 0-8) ----
STEAL: dict[int, tuple[int, ...]] = {
    0: (2, 2, 3, 4, 5, 6, 7, 8, 9),
    1: (3, 4, 5, 6, 7, 8, 9, 10, 11),
    2: (5, 6, 7, 8, 9, 10, 11, 12, 12),
    3: (7, 8, 9, 10, 11, 12, 12, 12, 12),
    4: (9, 10, 11, 12, 12, 12, 12, 12, 12),
}

#: The printed column headings of each chart, for labels and for the tests.
COLUMN_HEADINGS = {
    "error": ("1-10", "11-15", "16-20", "21-25", "26-30", "31-35", "36-40", "41-50", "51+"),
    "injury": ("1-10", "11-20", "21-30", "31-40", "41-50", "51+"),
    "hit_liner": ("> 50", "40, 30", "20, 10", "0", "-10", "-20", "-30, -40", "< -50"),
    "hit_grounder": ("> 81", "61-80", "51-60", "41-50", "31-40", "21-30", "0-20", "< 0"),
    "hit": ("10-40", "50", "60", "70", "80", "90", "100", "> 110"),
    "strikeout_walk": ("> 40", "30", "20", "10", "0", "-10, -20", "-30, -40", "< -50"),
    "bunt": ("first 1-7", "first 8-20", "first 21-40", "first 41+",
             "second 1-15", "second 16-30", "second 31+"),
    "steal": tuple(str(c) for c in range(9)),
}


def check_edge(edge: str) -> str:
    if edge not in EDGES:
        raise ValueError(f"edge must be one of {EDGES}, got {edge!r}")
    return edge


def _tens(value: int) -> int:
    """A value floored to a multiple of 10 (-15 -> -20, 35 -> 30)."""
    return value // 10 * 10


def hit_column(hp: int, edge: str = "ge") -> int:
    """Hit chart, by the batter's HP: 10-40 (and below), 50, ..., 100, > 110."""
    v = _tens(hp)
    if v > 110 or (v == 110 and edge == "ge"):
        return 7
    if v <= 40:
        return 0
    return min(v, 100) // 10 - 4


def hit_liner_column(diff: int, edge: str = "ge") -> int:
    """Hit/Liner chart, by the batter's HP - the pitcher's HP."""
    v = _tens(diff)
    if v > 50 or (v == 50 and edge == "ge"):
        return 0
    if v < -50 or (v == -50 and edge == "ge"):
        return 7
    return {50: 1, 40: 1, 30: 1, 20: 2, 10: 2, 0: 3, -10: 4, -20: 5, -30: 6, -40: 6, -50: 6}[v]


def strikeout_walk_column(diff: int, edge: str = "ge") -> int:
    """Strikeout/Walk chart, by the batter's attack - the pitcher's attack."""
    v = _tens(diff)
    if v > 40 or (v == 40 and edge == "ge"):
        return 0
    if v < -50 or (v == -50 and edge == "ge"):
        return 7
    return {40: 1, 30: 1, 20: 2, 10: 3, 0: 4, -10: 5, -20: 5, -30: 6, -40: 6, -50: 6}[v]


def hit_grounder_column(value: int, edge: str = "ge") -> int:
    """Hit/Grounder chart, by the pitcher's level + the fielder's level - the batter's level."""
    if value > 81 or (value == 81 and edge == "ge"):
        return 0
    if value >= 61:
        return 1
    if value < 0:
        return 7
    if value <= 20:
        return 6
    return 2 + (60 - value) // 10 if value <= 60 else 1


def error_column(level: int) -> int:
    """Error chart, by the fielder's level: 1-10, 11-15, ..., 36-40, 41-50, 51+."""
    if level <= 10:
        return 0
    if level <= 40:
        return (level - 11) // 5 + 1
    return 7 if level <= 50 else 8


def injury_column(level: int) -> int:
    """Injury chart, by the batter's level: 1-10, 11-20, ..., 41-50, 51+."""
    if level <= 10:
        return 0
    return min((level - 1) // 10, 5)


def bunt_column(level: int, lead: int) -> int:
    """Bunt chart, by the batter's level under the lead runner's base (0: first, 1: second)."""
    if lead == 0:
        return 0 if level <= 7 else 1 if level <= 20 else 2 if level <= 40 else 3
    return 4 if level <= 15 else 5 if level <= 30 else 6


def steal_column(catcher_retreat: int, pitcher_retreat: int, target: int) -> int:
    """Steal chart column: second base (target 1) reads the catcher's retreat, third base
    (target 2) the catcher's plus the pitcher's (0-8)."""
    return catcher_retreat if target == 1 else catcher_retreat + pitcher_retreat


def steal_needs(runner_retreat: int, column: int) -> int:
    """The lowest two-dice total that steals the base (every range runs up to 12)."""
    return STEAL[runner_retreat][column]
