"""The Bottom of the 9th engine (mode "duel", the base game): one half inning, sudden death.

Away is the pitcher's manager, home the batter's. Home wins at the first run, away at the
third out. Each pitch (rulebook, Phases)::

    stare-down: away commits a pitch (secret)          -> "pitch"
                home guesses                            -> "guess"; then the reveal:
                tokens, Ace fatigue, grants             (automatic)
    the pitch:  Pitch + Control dice                    (chance)
                pitcher abilities, one at a time        -> "pitcher_ability" (until done)
    the swing:  Swing die                               (chance)
                batter abilities, one at a time         -> "batter_ability" (until done)
    the table:  ball / strike / foul / contact; Crushed; the Run! phase   (automatic)
    clean up (between batters): relief split            -> "relief"
                                pitching change         -> "pitching_change"

Set-up decisions come first when ``teams="choose"`` (``select_batter``, ``select_pitcher``)
and with ``draft=True`` (``draft_order``, ``draft_pick``, then the selections).

A plain state machine as in the other rulesets: ``state.step`` names the next rule and
``run`` applies rules until a manager must decide or the game is over. Every die is keyed
by (half inning, at-bat, pitch number, purpose) and never by a choice. Each rule below is a
small function named after what it applies, with its rulebook section; every reading of an
unclear passage is in RULES.md beside this file.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..core import scorebook as sb
from ..core.bases import advance_all, force_advance, occupied
from ..core.decisions import Decision, take_decision
from ..core.dice import DICE, Dice, ScriptedDice
from ..core.scoreboard import Scoreboard, ScoreboardGame, SuddenDeathScoreboard
from ..core.scorebook import PLAY_LOG, BoxScore, Outcome, Play, PlayLog
from ..core.state import (SavedAs, SaveError, check_choice, check_index, check_int, check_len,
                          decode_as, saved_keys)
from .cards import (FACES, FIELD_POSITIONS, MAX_CARDS, PITCH_LABELS, PITCHES, CardSet, Effect,
                    ace_pitch, can_complete_lineup, matching_size, pair_needs)
from .solo_cards import SoloSet
from .support import MAX_SUPPORT, SupportSet

__all__ = ["GameState", "Grant", "new_game", "apply_action", "option_labels", "ACTIONS",
           "DECISION_KINDS", "TEAM_NAMES", "LINEUP_SIZE", "ABILITY_ACTIONS", "PITCHER_ABILITIES",
           "BATTER_ABILITIES", "usable_abilities", "OUTCOMES", "DEFAULT_FACES"]

TEAM_NAMES = ("Pitching", "Batting")
LINEUP_SIZE = 6
DRAFT_PITCHERS, DRAFT_BATTERS = 3, 6
DEFAULT_FACES = {"B": 3, "S": 2, "C": 1}

# -- actions: one Discrete space for every decision ------------------------------------------
THROW = 0                      # 0-3: throw HI, HA, LI, LA
GUESS = 4                      # 4-7: guess HI, HA, LI, LA
DONE = 8
REROLL_PITCH, REROLL_CONTROL, CONTROL_UP, CONTROL_DOWN = 9, 10, 11, 12
FACE_B, FACE_S, FACE_C = 13, 14, 15
REROLL_SWING, SWING_UP, SWING_DOWN = 16, 17, 18
RELIEF = 19                    # 19-25: k relief points to the direction token, the rest to location
MAX_RELIEF = 6                 # 3 empty bases + a stamina trait of at most 3
KEEP, BRING_IN = 26, 27
PICK_FIRST, PICK_SECOND = 28, 29
CARD = 30                      # 30-93: the card with index 0-63
SLOT = CARD + MAX_CARDS        # 94-102: lineup slot 1-9 (game mode)
FATIGUE_DIR, FATIGUE_LOC = SLOT + 9, SLOT + 10       # 103, 104: a fatigue point to that token
PASS = SLOT + 11               # 105: no substitution
SUPPORT = PASS + 1             # 106-113: the support card with index 0-7
N_ACTIONS = SUPPORT + MAX_SUPPORT
# the Manager Challenge (mode "solo") adds two actions after the duel's
MVP, FATIGUE_PITCHER = N_ACTIONS, N_ACTIONS + 1     # 114, 115: mvp_or_fatigue
N_SOLO_ACTIONS = N_ACTIONS + 2
GAME_TEAM_NAMES = ("Away", "Home")
GAME_LINEUP = 9                # 8 batters + the pitcher (game mode)

PITCHER_ABILITIES = (REROLL_PITCH, REROLL_CONTROL, CONTROL_UP, CONTROL_DOWN, FACE_B, FACE_S, FACE_C)
BATTER_ABILITIES = (REROLL_SWING, SWING_UP, SWING_DOWN)
ABILITY_ACTIONS = PITCHER_ABILITIES + BATTER_ABILITIES
#: what each ability action does: (effect kind, die, +1/-1 or the face)
ABILITY_EFFECT: dict[int, tuple[str, str, Any]] = {
    REROLL_PITCH: ("reroll", "pitch", None), REROLL_CONTROL: ("reroll", "control", None),
    CONTROL_UP: ("modify", "control", 1), CONTROL_DOWN: ("modify", "control", -1),
    FACE_B: ("face", "pitch", "B"), FACE_S: ("face", "pitch", "S"), FACE_C: ("face", "pitch", "C"),
    REROLL_SWING: ("reroll", "swing", None), SWING_UP: ("modify", "swing", 1),
    SWING_DOWN: ("modify", "swing", -1),
}

ACTIONS = (
    tuple(f"throw {label}" for label in PITCH_LABELS)
    + tuple(f"guess {label}" for label in PITCH_LABELS)
    + ("done (no more abilities)", "reroll the Pitch die", "reroll the Control die",
       "Control die +1", "Control die -1", "turn the Pitch die to B (Ball)",
       "turn the Pitch die to S (Strike)", "turn the Pitch die to C (Corner)",
       "reroll the Swing die", "Swing die +1", "Swing die -1")
    + tuple(f"relief: {k} to the direction token, the rest to location" for k in range(MAX_RELIEF + 1))
    + ("keep the pitcher", "bring in the substitute pitcher", "draft: pick first", "draft: pick second")
    + tuple(f"card {i}" for i in range(MAX_CARDS))
    + tuple(f"lineup slot {i + 1}" for i in range(9))
    + ("fatigue point to the direction token", "fatigue point to the location token",
       "pass (no substitution)")
    + tuple(f"support card {i}" for i in range(MAX_SUPPORT)))
assert len(ACTIONS) == N_ACTIONS
SOLO_ACTIONS = ACTIONS + ("use the MVP ability", "fatigue the pitcher 1 instead of the MVP ability")

DECISION_KINDS = ("draft_order", "draft_pick", "select_batter", "select_pitcher", "pitch",
                  "guess", "pitcher_ability", "batter_ability", "relief", "pitching_change",
                  "select_support", "fatigue_split", "pinch_hit", "pinch_slot", "double_switch",
                  "double_switch_slot")
#: the Manager Challenge's decisions: the duel's and two of its own
SOLO_DECISION_KINDS = DECISION_KINDS + ("mvp_or_fatigue", "select_bench")

FIELDERS_CHOICE = Outcome("FC", "reached on a fielder's choice")
CAUGHT_AT_WALL = Outcome("FO", "was robbed of a home run at the wall")
OUTCOMES: dict[str, Outcome] = {**sb.OUTCOMES, "FC": FIELDERS_CHOICE}


@dataclass(frozen=True)
class Grant:
    """An ability won this pitch: ``effect`` usable ``left`` more times (a choose-n grant n
    times, any other once); ``source`` is direction / location / both / ace / mvp."""
    source: str
    effect: Effect
    left: int

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "effect": self.effect.to_dict(), "left": self.left}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Grant":
        saved_keys(d, (), ("source", "effect", "left"))
        return cls(decode_as(str, d["source"], ("source",)), Effect.from_dict(d["effect"]),
                   check_int(d["left"], ("left",)))


@dataclass
class GameState(ScoreboardGame):
    """A game in progress, plain data. Cards are indices into ``cards.cards`` (batters,
    then pitchers). ``lineup`` is home's batting order, ``staff`` away's pitchers (starter,
    substitute), ``pitcher`` the one on the mound; ``fatigue`` the rows (0 = top) of the
    direction and location tokens, ``ceiling`` the highest row relief reaches (1 for a
    reliever). ``secret`` is the committed pitch before the reveal (shown to away only);
    ``thrown``/``guess`` the revealed pitch and guess; ``tokens`` who holds the direction
    and location tokens (seat, or -1 before the reveal)."""

    SAVED_AS = SavedAs("ruleset", "bottom_ninth", "Bottom of the 9th game")

    board: Scoreboard
    dice: Dice | ScriptedDice = field(metadata=DICE)
    box: BoxScore
    log: PlayLog = field(metadata=PLAY_LOG)
    cards: CardSet
    faces: tuple[str, ...]
    fatigue_rows: int = 4
    out_rule: str = "lead_runner"
    teams: str = "default"           # default / given / choose
    draft: bool = False
    mode: str = "duel"
    order: list[int] = field(default_factory=lambda: [0, 0])
    lineup: list[int] = field(default_factory=list)
    staff: list[int] = field(default_factory=list)
    drafted: list[list[int]] = field(default_factory=lambda: [[], []])
    draft_first: int = -1
    pitcher: int = -1
    removed: list[int] = field(default_factory=list)
    fatigue: list[int] = field(default_factory=lambda: [0, 0])
    ceiling: int = 0
    pa: int = 0                      # plate appearances started this half inning
    pitch_no: int = 0                # pitches of this at-bat
    balls: int = 0
    strikes: int = 0
    secret: int = -1
    thrown: int = -1
    guess: int = -1
    tokens: list[int] = field(default_factory=lambda: [-1, -1])
    grants: list[list[Grant]] = field(default_factory=lambda: [[], []])
    face: str = ""                   # the Pitch die as it shows now ("" before the roll)
    face_natural: str = ""
    pitch_roll: int = 0              # the Pitch die's face number as rolled (1 = its first face)
    control: int = 0
    control_natural: int = 0
    swing: int = 0
    swing_natural: int = 0
    last: str = ""                   # the last pitch's result, in words
    step: str = "setup"
    pending: Decision | None = None
    # -- the longer game (mode "game"); unused by the duel -----------------------------------
    supports: SupportSet | None = None
    n_batters: int = 8               # batters per team: 8 in the lineup + a bench of 0-2
    n_pitchers: int = 4
    use_support: bool = False
    lineups: list[list[int]] = field(default_factory=lambda: [[], []])   # 9 slots, the pitcher's too
    pslot: list[int] = field(default_factory=lambda: [8, 8])             # the pitcher's batting slot
    benches: list[list[int]] = field(default_factory=lambda: [[], []])
    staffs: list[list[int]] = field(default_factory=lambda: [[], []])    # starter, then the bullpen
    mound: list[int] = field(default_factory=lambda: [-1, -1])           # each team's pitcher
    ceilings: list[int] = field(default_factory=lambda: [0, 0])          # his reset / ceiling row
    relievers: list[int] = field(default_factory=lambda: [0, 0])         # relievers used
    allowed: list[int] = field(default_factory=lambda: [0, 0])           # runs the pitcher allowed
    slot_lines: list[list[int]] = field(default_factory=lambda: [[], []])  # box line of each slot
    support: list[int] = field(default_factory=lambda: [-1, -1])         # support card per team
    support_used: list[bool] = field(default_factory=lambda: [False, False])
    fatigue_left: int = 0            # fatigue points still to place (fatigue_split)
    sub_card: int = -1               # the substitute chosen, awaiting his slot
    sub_slot: int = -1               # the slot chosen in a double switch
    changed: bool = False            # a pitching change this break (a double switch may follow)
    # -- the Manager Challenge (mode "solo"); unused otherwise: see solo.py --------------------
    solo: SoloSet | None = None
    level: int = 0                   # 0 standard, 1 Veteran, 2 Manager of the Year, 3 Hall of Fame
    situation: int = -1              # the game's Situation and Effect cards (solo-set indices)
    effect: int = -1
    deck: list[int] = field(default_factory=list)       # the Pitcher deck, top first
    discard: list[int] = field(default_factory=list)    # its discard pile, bottom first
    revealed: int = -1               # the deck card revealed this pitch (-1: none, or the deck was out)
    depleted: bool = False           # the deck ran out during this at-bat
    pile: list[int] = field(default_factory=list)       # the campaign's pitcher pile, top first
    pool: list[int] = field(default_factory=list)       # batters the lineup is picked from
    bench: list[int] = field(default_factory=list)      # pinch hitters (solo)
    prev_guess: int = -1             # the last stare-down's guess (Manager of the Year)
    stamina: int = 0                 # extra relief from the Effect card
    solo_inning: int = 0             # the inning the clean-up last saw (extra innings)

    @property
    def batter_card(self) -> int:
        if self.mode == "game":
            t = self.board.half
            return self.lineups[t][self.order[t]] if self.lineups[t] else -1
        return self.lineup[self.order[1]] if self.lineup else -1

    def seat_of(self, role: int) -> int:
        """The seat playing ``role`` now: 0 the pitcher's side (the fielding team), 1 the
        batter's (the batting team); in the duel always away and home."""
        return self.board.fielding if role == 0 else self.board.batting

    def runner_id(self) -> int:
        """The batter at the plate as a runner: his box-score line (the lineup slot in the
        duel, where the two agree)."""
        t = self.board.half
        if self.mode in ("game", "solo"):
            return self.slot_lines[t][self.order[t]]
        return self.order[1]

    def validate(self) -> None:
        """A loaded game is one the rules could reach (see :func:`validate_game`)."""
        validate_game(self)

    def rows_exhausted(self) -> tuple[bool, bool]:
        bottom = self.fatigue_rows - 1
        return self.fatigue[0] >= bottom, self.fatigue[1] >= bottom


# ================================================================== checking a loaded game
#: Where a grant comes from (``Grant.source``).
GRANT_SOURCES = ("direction", "location", "both", "ace", "mvp", "support")
#: The steps of a pitch once it is revealed (the pitch, the guess, the tokens and the dice
#: known), and once the Swing die is rolled.
_REVEALED_STEPS = ("pitcher_ability", "swing", "batter_ability", "resolve", "mvp_or_fatigue")
_SWUNG_STEPS = ("batter_ability", "resolve")
#: The step a pending decision of a kind was asked by, for the step the game waits at (the
#: asking rule moved the game on first), by mode; a kind not listed is asked by the step it
#: waits at.
_ASKED_BY = {
    ("duel", "relief", "change"): "clean_up", ("game", "relief", "change"): "clean_up",
    ("duel", "pitching_change", "new_batter"): "change",
    ("game", "pitching_change", "switch"): "change",
    ("game", "pitching_change", "start_switch"): "half_start",
    ("game", "double_switch", "pinch"): "switch",
    ("game", "double_switch", "inning_fatigue"): "start_switch",
    ("game", "pinch_hit", "new_batter"): "pinch",
    ("solo", "pinch_hit", "stare_down"): "new_batter",
    ("solo", "mvp_or_fatigue", "swing"): "mvp_or_fatigue",
}


def validate_game(state: GameState) -> None:
    """Check a loaded game (``GameState.from_dict``) for what its types cannot say: a
    :class:`~dugout.envs.core.state.SaveError` names the field.

    Cards are indices of the card set (batters where a batter goes, pitchers where a
    pitcher does), support and solo cards indices of theirs; the options are ones a game is
    made with; the teams and lineups have their sizes once play has begun; the runners are
    batting lines of the box score; a pitch once revealed has its pitch, guess, tokens and
    dice, each within its die; and the pending decision is the one the rules ask in this
    situation: the asking rule, run again on a copy, asks exactly it (a game not over always
    waits on one)."""
    b = state.board
    cs = state.cards
    n_cards, n_bat = len(cs.cards), len(cs.batters)
    check_choice(state.mode, ("duel", "game", "solo"), ("mode",))
    check_choice(state.out_rule, ("lead_runner", "batter"), ("out_rule",))
    check_choice(state.teams, ("default", "given", "choose"), ("teams",))
    check_int(state.fatigue_rows, ("fatigue_rows",), 3, 10)
    if not 1 <= len(state.faces) <= 12:
        raise SaveError(f"the Pitch die has 1 to 12 faces, got {len(state.faces)}", ("faces",))
    for i, f in enumerate(state.faces):
        check_choice(f, FACES, ("faces", i))
    game = state.mode == "game"
    rules_table = MODES[state.mode][1] if state.mode in MODES else RULES
    check_choice(state.step, rules_table, ("step",))
    bottom = state.fatigue_rows - 1

    def cards(key, batter=None, none=None, path=None):
        values = getattr(state, key) if path is None else path[1]
        where = (key,) if path is None else path[0]
        for i, c in enumerate(values):
            check_index(c, n_cards, where + (i,), "the card set", none=none)
            if c != none and batter is not None and cs.is_batter(c) != batter:
                raise SaveError(f"card {c} is not a {'batter' if batter else 'pitcher'}",
                                where + (i,))
        if len(set(values)) != len(values):
            raise SaveError(f"a card is listed twice: {list(values)}", where)

    cards("lineup", batter=True)
    cards("staff", batter=False)
    cards("removed", batter=False)
    check_len(state.drafted, 2, ("drafted",))
    for t in (0, 1):
        cards("drafted", path=(("drafted", t), state.drafted[t]))
    check_int(state.draft_first, ("draft_first",), -1, 1)
    check_index(state.pitcher, n_cards, ("pitcher",), "the card set", none=-1)
    if state.pitcher >= 0 and cs.is_batter(state.pitcher):
        raise SaveError(f"card {state.pitcher} on the mound is a batter", ("pitcher",))
    for key, size in (("order", 2), ("fatigue", 2), ("tokens", 2), ("grants", 2),
                      ("lineups", 2), ("pslot", 2), ("benches", 2), ("staffs", 2), ("mound", 2),
                      ("ceilings", 2), ("relievers", 2), ("allowed", 2), ("slot_lines", 2),
                      ("support", 2), ("support_used", 2)):
        check_len(getattr(state, key), size, (key,))
    for i in (0, 1):
        check_int(state.fatigue[i], ("fatigue", i), 0, bottom)
        check_int(state.tokens[i], ("tokens", i), -1, 1)
        check_int(state.ceilings[i], ("ceilings", i), 0, bottom)
        check_int(state.relievers[i], ("relievers", i), 0)
        check_int(state.allowed[i], ("allowed", i), 0)
        check_index(state.pslot[i], GAME_LINEUP, ("pslot", i), "the lineup")
        check_index(state.mound[i], n_cards, ("mound", i), "the card set", none=-1)
        for g, grant in enumerate(state.grants[i]):
            check_choice(grant.source, GRANT_SOURCES, ("grants", i, g, "source"))
            check_int(grant.left, ("grants", i, g, "left"), 1)
        cards("lineups", path=(("lineups", i), state.lineups[i]))
        cards("benches", batter=True, path=(("benches", i), state.benches[i]))
        cards("staffs", batter=False, path=(("staffs", i), state.staffs[i]))
        for s, line in enumerate(state.slot_lines[i]):
            check_index(line, len(state.box.lines[i]), ("slot_lines", i, s), "the batting lines")
        n_support = 0 if state.supports is None else len(state.supports.cards)
        check_index(state.support[i], n_support, ("support", i), "the support cards", none=-1)
    check_int(state.ceiling, ("ceiling",), 0, bottom)
    for key in ("pa", "pitch_no", "fatigue_left", "stamina", "level"):
        check_int(getattr(state, key), (key,), 0, 3 if key == "level" else None)
    check_int(state.balls, ("balls",), 0, 3)
    check_int(state.strikes, ("strikes",), 0, 2)
    for key in ("secret", "thrown", "guess", "prev_guess"):
        check_int(getattr(state, key), (key,), -1, 3)
    check_int(state.pitch_roll, ("pitch_roll",), 0, len(state.faces))
    for key in ("control", "control_natural", "swing", "swing_natural"):
        check_int(getattr(state, key), (key,), 0, 6)
    for key in ("face", "face_natural"):
        if getattr(state, key):
            check_choice(getattr(state, key), FACES, (key,))
    check_index(state.sub_card, n_cards, ("sub_card",), "the card set", none=-1)
    check_index(state.sub_slot, GAME_LINEUP, ("sub_slot",), "the lineup", none=-1)
    if game:
        check_int(state.n_batters, ("n_batters",), 8, 10)
        check_int(state.n_pitchers, ("n_pitchers",), 2, 4)
    if state.use_support and state.supports is None:
        raise SaveError("support cards in use need the support set", ("supports",))
    _validate_draft(state)
    _validate_solo(state)
    _validate_log(state)
    if b.over:
        if state.pending is not None:
            raise SaveError("a game that is over has no pending decision", ("pending",))
        return
    d = state.pending
    if d is None:
        raise SaveError("a game that is not over waits on a decision", ("pending",))
    if _started(state):
        _validate_teams(state)
    elif b.bases != (None, None, None):
        raise SaveError("nobody is on base before the first batter", ("board", "bases"))
    if state.step in _REVEALED_STEPS:
        if not (0 <= state.thrown <= 3 and 0 <= state.guess <= 3 and min(state.tokens) >= 0
                and state.face and state.face_natural and state.pitch_roll >= 1
                and state.control >= 1 and state.control_natural >= 1):
            raise SaveError(f"at step {state.step!r} the pitch is revealed: the pitch, the guess, "
                            f"the tokens and the Pitch and Control dice", ("thrown",))
        if state.step in _SWUNG_STEPS and (state.swing < 1 or state.swing_natural < 1):
            raise SaveError(f"at step {state.step!r} the Swing die is rolled", ("swing",))
    if state.step == "guess" and state.mode != "solo" and not 0 <= state.secret <= 3:
        raise SaveError("the pitcher has committed his pitch before the guess", ("secret",))
    if state.step in ("pinch_slot", "ds_slot", "ds_slot_start", "ds_where", "ds_where_start") \
            and (state.sub_card < 0 or not cs.is_batter(state.sub_card)):
        raise SaveError("a substitution in progress has its batter", ("sub_card",))
    if state.step in ("ds_where", "ds_where_start") and state.sub_slot < 0:
        raise SaveError("a double switch in progress has its slot", ("sub_slot",))
    _validate_pending(state, d, rules_table)


def _validate_draft(state: GameState) -> None:
    """Player Draft: picks alternate from the die winner's choice, pitchers first, until each
    team holds its pitchers and batters (none without a draft, no card drafted twice)."""
    drafted = state.drafted
    if not state.draft:
        if drafted[0] or drafted[1] or state.draft_first != -1:
            raise SaveError("a game without a draft has no draft picks", ("drafted",))
        return
    if state.mode == "game":
        pitchers, batters = state.n_pitchers, state.n_batters
    else:
        pitchers, batters = DRAFT_PITCHERS, DRAFT_BATTERS
    if set(drafted[0]) & set(drafted[1]):
        raise SaveError("a card is drafted by both teams", ("drafted",))
    if state.draft_first < 0:
        if drafted[0] or drafted[1] or state.step != "setup":
            raise SaveError("the draft begins once the die winner has chosen who picks first",
                            ("draft_first",))
        return
    first = state.draft_first
    during = state.step in ("draft_pick", "game_draft")
    for t in (0, 1):
        picks = drafted[t]
        ahead = len(drafted[t]) - len(drafted[1 - t])
        if not (ahead in (0, 1) if t == first else ahead in (0, -1)) or \
                len(picks) > pitchers + batters or (not during and len(picks) != pitchers + batters):
            raise SaveError(f"team {t} has {len(picks)} draft picks: the teams pick in turn "
                            f"(team {first} first) until each has {pitchers + batters}", ("drafted", t))
        kinds = [state.cards.is_batter(c) for c in picks]
        if kinds != [False] * min(len(picks), pitchers) + [True] * max(0, len(picks) - pitchers):
            raise SaveError(f"team {t} drafts {pitchers} pitchers, then {batters} batters",
                            ("drafted", t))


def _started(state: GameState) -> bool:
    """Whether the game is past its set-up (the batters are up)."""
    setup = ("setup", "draft_pick", "select_batter", "select_pitcher", "play_ball", "game_draft",
             "game_select", "solo_lineup", "solo_bench", "solo_play_ball")
    return state.step not in setup


def _validate_teams(state: GameState) -> None:
    """Once play has begun: full lineups and a pitcher on the mound for each side that
    pitches, and the runners batting lines of the side at bat."""
    b = state.board
    cs = state.cards
    if state.pitcher < 0:
        raise SaveError("once play has begun a pitcher is on the mound", ("pitcher",))
    if state.mode == "game":
        for t in (0, 1):
            lineup = state.lineups[t]
            if len(lineup) != GAME_LINEUP or len(state.slot_lines[t]) != GAME_LINEUP or \
                    len(set(lineup)) != GAME_LINEUP or state.mound[t] < 0 or \
                    lineup[state.pslot[t]] != state.mound[t] or \
                    any(not cs.is_batter(c) for s, c in enumerate(lineup) if s != state.pslot[t]):
                raise SaveError(f"team {t} bats nine: eight batters and its pitcher (the one on "
                                f"the mound) in the pitcher's slot", ("lineups", t))
            check_index(state.order[t], GAME_LINEUP, ("order", t), "the lineup")
        if state.pitcher != state.mound[b.fielding] and state.step not in ("half_start",):
            raise SaveError("the pitcher is the fielding team's", ("pitcher",))
        runners = len(state.box.lines[b.batting])
    else:
        if len(state.lineup) != LINEUP_SIZE:
            raise SaveError(f"the lineup has {LINEUP_SIZE} batters", ("lineup",))
        check_index(state.order[1], LINEUP_SIZE, ("order", 1), "the lineup")
        if state.mode == "solo":
            if len(state.slot_lines[1]) != LINEUP_SIZE:
                raise SaveError(f"a batting line for each of the {LINEUP_SIZE} slots",
                                ("slot_lines", 1))
        runners = len(state.box.lines[1])
        if runners < LINEUP_SIZE or not state.box.pitching[0]:
            raise SaveError("the batters' and the pitcher's lines", ("box",))
    if not state.box.pitching[b.fielding]:
        raise SaveError("the pitcher has a pitching line", ("box", "pitching"))
    for i, r in enumerate(b.bases):
        if r is not None:
            check_index(r, runners, ("board", "bases", i), "the batting lines")


def _validate_solo(state: GameState) -> None:
    """The Manager Challenge's cards: the Situation and Effect, the Pitcher deck, the pile."""
    if state.mode != "solo":
        return
    solo = state.solo
    if solo is None:
        raise SaveError("a Manager Challenge game has its solo cards", ("solo",))
    n_cards = len(state.cards.cards)
    n_solo = len(solo.situations) + len(solo.effects)
    check_index(state.situation, len(solo.situations), ("situation",), "the Situations")
    check_index(state.effect, len(solo.effects), ("effect",), "the Effect cards")
    check_index(state.revealed, n_solo, ("revealed",), "the solo cards", none=-1)
    seen = list(state.deck) + list(state.discard)
    for key in ("deck", "discard"):
        for i, c in enumerate(getattr(state, key)):
            check_index(c, n_solo, (key, i), "the solo cards")
    if len(set(seen)) != len(seen):
        raise SaveError("a solo card is in the deck or the discards twice", ("deck",))
    for key, batter in (("pile", False), ("pool", True), ("bench", True)):
        values = getattr(state, key)
        for i, c in enumerate(values):
            check_index(c, n_cards, (key, i), "the card set")
            if state.cards.is_batter(c) != batter:
                raise SaveError(f"card {c} is not a {'batter' if batter else 'pitcher'}", (key, i))
        if len(set(values)) != len(values):
            raise SaveError(f"a card is listed twice: {values}", (key,))
    check_int(state.solo_inning, ("solo_inning",), 1)


def _validate_log(state: GameState) -> None:
    """The log as the play-by-play reads it: a plate appearance's batter is a batting line
    and its pitcher a card; a pitching change's pitcher a card; a substitution's line and
    slot (its detail the team)."""
    n_cards = len(state.cards.cards)
    for i, p in enumerate(state.log.plays):
        where = ("log", i)
        check_choice(p.kind, ("pa", "pitching_change", "substitution"), where + (2,))
        if p.kind == "pa":
            check_index(p.actor, len(state.box.lines[p.half]), where + (3,), "the batting lines")
            check_index(p.roll, n_cards, where + (5,), "the card set")
            check_choice(p.detail, OUTCOMES, where + (9,))
            for column, group in ((6, p.before), (7, p.after), (8, p.scored)):
                for j, r in enumerate(group):
                    if r is not None:
                        check_index(r, len(state.box.lines[p.half]), where + (column, j),
                                    "the batting lines")
        elif p.kind == "pitching_change":
            check_index(p.actor, n_cards, where + (3,), "the card set")
        else:
            team = check_choice(p.detail, ("0", "1"), where + (9,))
            check_index(p.actor, len(state.box.lines[int(team)]), where + (3,), "the batting lines")
            check_index(p.base, GAME_LINEUP, where + (4,), "the lineup")


def _validate_pending(state: GameState, d: Decision, rules_table: dict) -> None:
    """The pending decision is the one the asking rule asks, run again on a copy."""
    choices = MODES[state.mode][0] if state.mode in MODES else CHOICES
    check_choice(d.kind, choices, ("pending", "kind"))
    asked_by = _ASKED_BY.get((state.mode, d.kind, state.step), state.step)
    trial = state.clone()
    trial.pending = None
    trial.step = asked_by
    if d.kind == "double_switch":
        if state.changed:
            raise SaveError("a double switch is asked once the pitching change is made",
                            ("changed",))
        trial.changed = True
    rules_table[asked_by](trial)
    if trial.pending != d or trial.step != state.step:
        asked = trial.pending
        raise SaveError(
            f"at step {asked_by!r} the rules ask " + (
                "nothing" if asked is None else
                f"{asked.kind!r} of seat {asked.actor} among {list(asked.legal)} (subject "
                f"{asked.subject})") + f", got {d.kind!r} of seat {d.actor} among "
            f"{list(d.legal)} (subject {d.subject})", ("pending",))


def new_game(dice: Dice | ScriptedDice, cards: CardSet, *, lineup: list[int] | None = None,
             staff: list[int] | None = None, draft: bool = False, inning: int = 9,
             fatigue_rows: int = 4, faces: dict[str, int] | None = None,
             out_rule: str = "lead_runner", mode: str = "duel", teams: str = "",
             innings: int = 3, max_innings: int | None = None, batters: int = 8,
             pitchers: int = 4, support: bool = False,
             supports: SupportSet | None = None) -> GameState:
    """A game at its first decision. ``lineup`` (six batter indices) and ``staff`` (starter,
    substitute) given: the duel starts at once; None: home and away choose them (draft=True:
    after a draft)."""
    counts = DEFAULT_FACES if faces is None else faces
    face_list = tuple(f for f in FACES for _ in range(counts.get(f, 0)))
    if mode == "solo":
        raise ValueError("a Manager Challenge game starts with solo.new_solo_game")
    if mode == "game":
        return new_long_game(dice, cards, face_list, draft=draft, teams=teams or "default",
                             fatigue_rows=fatigue_rows, out_rule=out_rule, innings=innings,
                             max_innings=max_innings, batters=batters, pitchers=pitchers,
                             support=support, supports=supports)
    board = SuddenDeathScoreboard(innings=inning, inning=inning, half=1)
    box = BoxScore(list(TEAM_NAMES), [[], [(f"Batter {i + 1}", "") for i in range(LINEUP_SIZE)]])
    teams = "given" if lineup is not None else "choose"
    state = GameState(board=board, dice=dice, box=box, log=PlayLog(), cards=cards,
                      faces=face_list, fatigue_rows=fatigue_rows, out_rule=out_rule,
                      teams=teams, draft=draft,
                      lineup=list(lineup or []), staff=list(staff or []))
    run(state)
    return state


def apply_action(state: GameState, action: int) -> None:
    """Apply the pending decision's choice, then play on to the next decision."""
    if state.mode in MODES:
        choices, _, labels = MODES[state.mode]
        decision = take_decision(state, action, labels)
        choices[decision.kind](state, decision, action)
    else:
        decision = take_decision(state, action, ACTIONS)
        CHOICES[decision.kind](state, decision, action)
    run(state)


def run(state: GameState) -> None:
    """Apply rules until a manager must decide or the game is over."""
    rules = MODES[state.mode][1] if state.mode in MODES else RULES
    while state.pending is None and not state.board.over:
        rules[state.step](state)


def option_labels(state: GameState, decision: Decision) -> dict[int, str]:
    """What each legal action means (only what the actor may know)."""
    cards = state.cards.cards
    out = {}
    for a in decision.legal:
        if SUPPORT <= a < N_ACTIONS and state.supports is not None:
            c = state.supports.cards[a - SUPPORT]
            out[a] = f"support: {c.name} ({c.side}: " + "; ".join(e.describe() for e in c.grant) + ")"
        elif SLOT <= a < SLOT + 9:
            # labels depend on the decision alone (the env caches them by decision)
            what = "the new pitcher bats in" if decision.kind == "double_switch_slot" else \
                "the substitute replaces the batter in"
            out[a] = f"{what} lineup slot {a - SLOT + 1}"
        elif CARD <= a < SLOT:
            c = cards[a - CARD]
            what = c.position if state.cards.is_batter(a - CARD) else c.role
            out[a] = f"{c.name} ({what}, card {a - CARD})"
        else:
            out[a] = SOLO_ACTIONS[a]
    return out


# -- Setup ---------------------------------------------------------------------------------------
def setup(state: GameState) -> None:
    """Setup: the teams are given, chosen, or drafted (Player Draft: "Players roll a single
    die. The winner may decide ...")."""
    if state.mode == "game":
        game_setup(state)
    elif state.teams == "given":
        state.step = "play_ball"
    elif state.draft:
        state.dice.set_stream(0, 0, 0)
        winner = state.dice.randbelow("draft", 2)
        state.pending = Decision("draft_order", winner, (PICK_FIRST, PICK_SECOND))
    else:
        state.step = "select_batter"


def choose_draft_order(state: GameState, decision: Decision, action: int) -> None:
    """The die winner picks first or second (fixed seats: the home-team half of the choice
    is the seat itself, RULES.md)."""
    state.draft_first = decision.actor if action == PICK_FIRST else 1 - decision.actor
    state.step = "game_draft" if state.mode == "game" else "draft_pick"


def _draft_feasible(state: GameState, seat: int, drafted: list[int], pool: list[int]) -> bool:
    cs = state.cards
    bats = [i for i in drafted if cs.is_batter(i)]
    pits = [i for i in drafted if not cs.is_batter(i)]
    pool_b = [i for i in pool if cs.is_batter(i)]
    pool_p = [i for i in pool if not cs.is_batter(i)]
    need = pair_needs([cs.card(i) for i in pits], [cs.card(i) for i in pool_p])
    if need is None or need > DRAFT_PITCHERS - len(pits):
        return False
    return can_complete_lineup([cs.card(i).eligible for i in bats],
                               [cs.card(i).eligible for i in pool_b], DRAFT_BATTERS)


def offer_draft_pick(state: GameState) -> None:
    """Player Draft: "Beginning with the Pitchers, select players until each team has an
    equal number before moving on to the Batters": alternate picks, 3 pitchers each, then
    6 batters each; a pick must leave both teams able to field a legal team."""
    cs = state.cards
    picks = len(state.drafted[0]) + len(state.drafted[1])
    if picks == 2 * (DRAFT_PITCHERS + DRAFT_BATTERS):
        state.step = "select_batter"
        return
    seat = state.draft_first if picks % 2 == 0 else 1 - state.draft_first
    taken = set(state.drafted[0]) | set(state.drafted[1])
    pitchers_phase = picks < 2 * DRAFT_PITCHERS
    pool = [i for i in range(len(cs.cards)) if i not in taken]
    legal = []
    for i in pool:
        if cs.is_batter(i) == pitchers_phase:
            continue
        rest = [j for j in pool if j != i]
        mine = state.drafted[seat] + [i]
        if _draft_feasible(state, seat, mine, rest) and \
                _draft_feasible(state, 1 - seat, state.drafted[1 - seat], rest):
            legal.append(CARD + i)
    if not legal:
        raise RuntimeError("no legal draft pick: the card set is too small for a draft")
    state.pending = Decision("draft_pick", seat, tuple(legal))


def choose_draft_pick(state: GameState, decision: Decision, action: int) -> None:
    state.drafted[decision.actor].append(action - CARD)


def offer_select_batter(state: GameState) -> None:
    """Setup, Batter: "select 6 Batter Cards ... of different field positions ... and set the
    lineup in the order": one pick per lineup slot, masked to keep a legal lineup possible."""
    if len(state.lineup) == LINEUP_SIZE:
        state.step = "select_pitcher"
        return
    cs = state.cards
    pool = state.drafted[1] if state.draft else list(range(len(cs.batters)))
    state.pending = Decision("select_batter", 1, lineup_picks(state, pool))


def lineup_picks(state: GameState, pool: list[int]) -> tuple[int, ...]:
    """The card actions of the batters in ``pool`` who may take the next lineup slot: not in
    the lineup yet, and six different positions still possible with the rest of the pool."""
    cs = state.cards
    pool = sorted(i for i in pool if cs.is_batter(i) and i not in state.lineup)
    chosen = [cs.card(i).eligible for i in state.lineup]
    return tuple(CARD + i for i in pool if can_complete_lineup(
        chosen + [cs.card(i).eligible], [cs.card(j).eligible for j in pool if j != i]))


def choose_select_batter(state: GameState, decision: Decision, action: int) -> None:
    state.lineup.append(action - CARD)


def offer_select_pitcher(state: GameState) -> None:
    """Setup, Pitcher: a starter (not a Relief Pitcher), then a substitute (not a Starting
    Pitcher)."""
    if len(state.staff) == 2:
        state.step = "play_ball"
        return
    cs = state.cards
    n_b = len(cs.batters)
    pool = state.drafted[0] if state.draft else list(range(n_b, len(cs.cards)))
    pool = sorted(i for i in pool if not cs.is_batter(i) and i not in state.staff)
    if not state.staff:
        legal = tuple(CARD + i for i in pool if cs.card(i).can_start and any(
            cs.card(j).can_relieve for j in pool if j != i))
    else:
        legal = tuple(CARD + i for i in pool if cs.card(i).can_relieve)
    state.pending = Decision("select_pitcher", 0, legal)


def choose_select_pitcher(state: GameState, decision: Decision, action: int) -> None:
    state.staff.append(action - CARD)


def play_ball(state: GameState) -> None:
    """Setup: the starter takes the mound, his Fatigue Tokens "at the top of the Fatigue
    Track"; the lineup goes on the scorecard."""
    cs = state.cards
    for slot, i in enumerate(state.lineup):
        line = state.box.lines[1][slot]
        line.name, line.label = cs.card(i).name, cs.card(i).position
    state.pitcher = state.staff[0]
    state.box.add_pitcher(0, cs.card(state.pitcher).name)
    state.fatigue = [0, 0]
    state.ceiling = 0
    state.step = "new_batter"


# -- a plate appearance ----------------------------------------------------------------------------
def new_batter(state: GameState) -> None:
    """"Prior to the first Pitch, if there is a new Batter ... place a Runner Meeple there":
    the count is 0-0."""
    state.balls = state.strikes = 0
    state.pitch_no = 0
    state.box.pitching[state.board.fielding][-1].bf += 1
    state.step = "stare_down"


def _clear_pitch(state: GameState) -> None:
    state.secret = state.thrown = state.guess = -1
    state.tokens = [-1, -1]
    state.grants = [[], []]
    state.face = state.face_natural = ""
    state.control = state.control_natural = state.swing = state.swing_natural = 0


def legal_pitches(state: GameState) -> tuple[int, ...]:
    """Stare-Down: "If a Fatigue Token reaches the bottom of the Fatigue Track, the Pitcher
    can no longer choose that Direction or Location"."""
    card = state.cards.card(state.pitcher)
    dir_out, loc_out = state.rows_exhausted()
    return tuple(p for p in range(4)
                 if not (dir_out and p % 2 == card.ace_direction)
                 and not (loc_out and p // 2 == card.ace_location))


def stare_down(state: GameState) -> None:
    """1. Stare-Down: the pitcher commits first (a forced pitch is committed for him)."""
    _clear_pitch(state)
    state.pitch_no += 1
    state.dice.set_stream(state.board.half_index, state.pa, state.pitch_no)
    legal = legal_pitches(state)
    if len(legal) == 1:
        state.secret = legal[0]
        state.step = "guess"
        return
    state.pending = Decision("pitch", state.seat_of(0), tuple(THROW + p for p in legal))


def choose_pitch(state: GameState, decision: Decision, action: int) -> None:
    state.secret = action - THROW
    state.step = "guess"


def offer_guess(state: GameState) -> None:
    state.pending = Decision("guess", state.seat_of(1), tuple(GUESS + p for p in range(4)))


def choose_guess(state: GameState, decision: Decision, action: int) -> None:
    state.guess = action - GUESS
    reveal(state)


def reveal(state: GameState) -> None:
    """Stare-Down: "then reveal them simultaneously": tokens per component, the Ace's
    fatigue, the grants (token tables, Ace, MVP); then the Pitch and Control dice."""
    state.thrown, state.secret = state.secret, -1
    award_tokens(state)
    fatigue_ace(state)
    grant_abilities(state)
    roll_pitch(state)
    state.step = "pitcher_ability"


def award_tokens(state: GameState) -> None:
    """"awarded to the Batter for correct guesses, and to the Pitcher for incorrect guesses":
    token 0 is the direction, token 1 the location."""
    t, g = state.thrown, state.guess
    state.tokens = [1 if t % 2 == g % 2 else 0, 1 if t // 2 == g // 2 else 0]


def fatigue_ace(state: GameState) -> None:
    """"Whenever a Pitcher throws any part of their Ace Pitch, they Fatigue the token(s)":
    one row down per matching component, guessed or not (a ``tires`` trait adds rows)."""
    card = state.cards.card(state.pitcher)
    extra = state.cards.trait_by(state.pitcher, "tires")
    bottom = state.fatigue_rows - 1
    if state.thrown % 2 == card.ace_direction:
        state.fatigue[0] = min(bottom, state.fatigue[0] + 1 + extra)
    if state.thrown // 2 == card.ace_location:
        state.fatigue[1] = min(bottom, state.fatigue[1] + 1 + extra)


def grant_abilities(state: GameState) -> None:
    """The token tables ("If you obtain both tokens ... refer to the (red + white) portion"),
    the Ace ("automatically activates, unless canceled by the Batting Player accurately
    guessing its Direction AND Location") and the MVP ("once when the Batter guesses the
    Pitch Tokens exactly")."""
    cs = state.cards
    pitcher = cs.card(state.pitcher)
    batter = cs.card(state.batter_card)
    # "While batting, a Pitcher has no trait or MVP, and may only gain the Abilities from
    # the Stare Down tokens": a batting pitcher uses his card's ``batting`` table
    pitcher_bats = not cs.is_batter(state.batter_card)
    batting_table = batter.batting if pitcher_bats else batter.stare_down
    for seat, table in ((0, pitcher.stare_down), (1, batting_table)):
        d, loc = state.tokens[0] == seat, state.tokens[1] == seat
        source = "both" if d and loc else "direction" if d else "location"
        for e in table.for_tokens(d, loc):
            state.grants[seat].append(Grant(source, e, e.n))
    exact = state.thrown == state.guess
    if state.thrown == ace_pitch(pitcher) and not exact:
        for e in pitcher.ace_ability:
            state.grants[0].append(Grant("ace", e, e.n))
    if exact and not pitcher_bats:
        for e in batter.mvp:
            state.grants[1].append(Grant("mvp", e, e.n))
    if state.use_support:
        grant_support(state)


def _roll_face(state: GameState) -> None:
    r = state.dice.roll("pitch", sides=len(state.faces))
    state.pitch_roll = r
    state.face = state.face_natural = state.faces[r - 1]


def roll_pitch(state: GameState) -> None:
    """2. The Pitch: "rolls the Pitch and Control dice"."""
    _roll_face(state)
    state.control = state.control_natural = state.dice.roll("control")


# -- abilities ---------------------------------------------------------------------------------------
def _die(state: GameState, die: str):
    if die == "pitch":
        return state.face, state.face_natural
    if die == "control":
        return state.control, state.control_natural
    return state.swing, state.swing_natural


def natural_holds(state: GameState, die: str, values: tuple) -> bool:
    """Natural Rolls: "that number must be rolled naturally ... You may use a modifier to avoid
    the Ability, but you cannot use a +1/-1 modifier to gain" one: the natural value is listed
    and the die still shows it."""
    shown, natural = _die(state, die)
    return natural in values and shown == natural


def _primitive_allows(state: GameState, e: Effect, action: int) -> bool:
    kind, die, what = ABILITY_EFFECT[action]
    if e.kind != kind or e.die != die:
        return False
    if kind == "modify" and e.by not in (0, what):
        return False
    if kind == "face" and e.to != what:
        return False
    return not e.if_natural or natural_holds(state, die, e.if_natural)


def effect_allows(state: GameState, e: Effect, action: int) -> bool:
    if e.kind == "choose":
        return any(_primitive_allows(state, o, action) for o in e.options)
    return _primitive_allows(state, e, action)


def changes_something(state: GameState, action: int) -> bool:
    """"Players cannot modify a die to be greater than 6, nor less than 1"; a face change to
    the face shown (or from a face the card does not name) changes nothing."""
    kind, die, what = ABILITY_EFFECT[action]
    if kind == "reroll":                     # a Pitch die of one kind of face rolls the same
        return die != "pitch" or len(set(state.faces)) > 1
    if kind == "modify":
        value = _die(state, die)[0]
        return 1 <= value + what <= 6
    return state.face != what


def _face_from_ok(state: GameState, e: Effect, action: int) -> bool:
    kind = ABILITY_EFFECT[action][0]
    if kind != "face":
        return True
    options = e.options if e.kind == "choose" else (e,)
    return any(_primitive_allows(state, o, action) and (not o.from_faces or state.face in o.from_faces)
               for o in options)


def _grant_allows(state: GameState, g: Grant, action: int) -> bool:
    return g.left > 0 and effect_allows(state, g.effect, action) and _face_from_ok(state, g.effect, action)


def usable_abilities(state: GameState, seat: int) -> tuple[int, ...]:
    """The ability actions ``seat`` may use now: granted, unspent, and changing something."""
    actions = PITCHER_ABILITIES if seat == 0 else BATTER_ABILITIES
    return tuple(a for a in actions if changes_something(state, a)
                 and any(_grant_allows(state, g, a) for g in state.grants[seat]))


def _flexibility(e: Effect) -> tuple[int, int, bool]:
    """How much a grant could do: a single-purpose grant before a choose-n grant, then the
    fewest actions it could ever allow, then a natural-roll grant before an unconditional
    one (RULES.md, "Which grant pays")."""
    options = e.options if e.kind == "choose" else (e,)
    n = 0
    for a, (kind, die, what) in ABILITY_EFFECT.items():
        for o in options:
            if o.kind == kind and o.die == die and (kind != "modify" or o.by in (0, what)) \
                    and (kind != "face" or o.to == what):
                n += 1
                break
    return (e.kind == "choose", n, not all(o.if_natural for o in options))


def spend_grant(state: GameState, seat: int, action: int, prefer_ace: bool | None = None) -> Grant:
    """The grant that pays for ``action``: a once-a-game support card only when no grant of
    this pitch allows it, else the least flexible one that allows it. ``prefer_ace`` (the
    solo automaton): True pays with the Ace when it allows the action, False with anything
    but the Ace when something else does."""
    grants = state.grants[seat]
    best = min((i for i, g in enumerate(grants) if _grant_allows(state, g, action)),
               key=lambda i: (prefer_ace is not None and (grants[i].source == "ace") != prefer_ace,
                              grants[i].source == "support", _flexibility(grants[i].effect), i))
    g = grants[best]
    if g.source == "support":
        state.support_used[state.seat_of(seat)] = True
    if g.left > 1:
        grants[best] = replace(g, left=g.left - 1)
    else:
        del grants[best]
    return g


def use_ability(state: GameState, seat: int, action: int, prefer_ace: bool | None = None) -> Grant:
    """One ability, used after the roll it modifies (FAQ: "chosen one at a time"); a reroll
    gives a new natural value, a modifier changes the value only. Returns the grant that paid."""
    grant = spend_grant(state, seat, action, prefer_ace)
    kind, die, what = ABILITY_EFFECT[action]
    if kind == "reroll":
        if die == "pitch":
            _roll_face(state)
        elif die == "control":
            state.control = state.control_natural = state.dice.roll("control")
        else:
            state.swing = state.swing_natural = state.dice.roll("swing")
    elif kind == "modify":
        if die == "control":
            state.control += what
        else:
            state.swing += what
    else:
        state.face = what
    return grant


def offer_pitcher_ability(state: GameState) -> None:
    """2. The Pitch: "then uses any Abilities ... from their Trait and Stare-Down results"."""
    legal = usable_abilities(state, 0)
    if not legal:
        state.step = "swing"
        return
    state.pending = Decision("pitcher_ability", state.seat_of(0), (DONE,) + legal)


def choose_pitcher_ability(state: GameState, decision: Decision, action: int) -> None:
    if action == DONE:
        state.step = "swing"
    else:
        use_ability(state, 0, action)


def roll_swing(state: GameState) -> None:
    """3. The Swing: "The Batter now rolls the Swing die"."""
    state.swing = state.swing_natural = state.dice.roll("swing")
    state.step = "batter_ability"


def offer_batter_ability(state: GameState) -> None:
    legal = usable_abilities(state, 1)
    if not legal:
        state.step = "resolve"
        return
    state.pending = Decision("batter_ability", state.seat_of(1), (DONE,) + legal)


def choose_batter_ability(state: GameState, decision: Decision, action: int) -> None:
    if action == DONE:
        state.step = "resolve"
    else:
        use_ability(state, 1, action)


# -- the swing table -----------------------------------------------------------------------------------
def swing_result(face: str, swing: int, control: int) -> str:
    """3. The Swing's table: ball / strike / foul / contact."""
    if face == "B":
        return "strike" if swing > control else "ball"
    if face == "S":
        return "strike" if swing < control else "foul" if swing == control else "contact"
    return "contact" if swing == control else "strike"


def _hit_by_pitch(state: GameState) -> bool:
    """Glossary, Hit By Pitch: a ``hit_by_pitch`` trait (either card) turns a Ball whose
    Control die shows a listed natural value into first base."""
    cs = state.cards
    holders = (state.pitcher, state.batter_card) if cs.is_batter(state.batter_card) else (state.pitcher,)
    values = tuple(v for i in holders for t in cs.trait(i, "hit_by_pitch") for v in t.values)
    return bool(values) and natural_holds(state, "control", values)


def crushed(state: GameState) -> bool:
    """Crushed: "Contact against a Strike with a Natural 6 (or with any Batter traits)"."""
    if state.face != "S":
        return False
    values = (6,) + tuple(v for t in state.cards.trait(state.batter_card, "crush_on") for v in t.values)
    return natural_holds(state, "swing", values)


def resolve(state: GameState) -> None:
    result = swing_result(state.face, state.swing, state.control)
    state.last = (f"{PITCHES[state.thrown]} (guess {PITCHES[state.guess]}): {state.face} "
                  f"{state.control} vs swing {state.swing}: {result}")
    state.step = "stare_down"
    if result == "ball":
        if _hit_by_pitch(state):
            state.last += ", hit by the pitch"
            walk(state, sb.HIT_BY_PITCH)
            return
        state.balls += 1
        if state.balls == 4:
            walk(state, sb.WALK)
    elif result == "strike":
        state.strikes += 1
        if state.strikes == 3:
            batter_out(state, sb.STRIKEOUT)
    elif result == "foul":
        # "Give the Batter a Strike, unless it would result in a Strikeout"
        if state.strikes < 2:
            state.strikes += 1
    elif crushed(state):
        crush(state)
    else:
        run_phase(state)


# -- the end of a plate appearance ----------------------------------------------------------------------
def _end_pa(state: GameState, outcome: Outcome, before: tuple, counted: list) -> None:
    b = state.board
    team = b.half
    slot = state.order[team]
    runner = state.runner_id()
    state.box.plate_appearance(team, runner, b.inning, outcome, len(counted))
    state.box.runs_scored(team, counted)
    line = state.box.pitching[b.fielding][-1]
    line.r += len(counted)
    line.h += outcome.bases > 0
    line.hr += outcome.bases == 4
    line.bb += outcome.walk
    line.so += outcome.strikeout
    state.log.add(Play(b.inning, b.half, "pa", runner, -1, state.pitcher, before, b.bases,
                       tuple(counted), outcome.code))
    state.pa += 1
    state.balls = state.strikes = 0               # the count goes with the batter
    if state.mode == "game":
        state.allowed[b.fielding] += len(counted)
        state.order[team] = (slot + 1) % GAME_LINEUP
        state.step = "clean_up"
        if b.outs == 3:
            b.end_half()              # Scoreboard: the next half, or the end of the game
            state.step = "half_start"
    else:
        if b.outs == 3:
            b.end_half()              # the third out: the pitcher wins (SuddenDeathScoreboard)
        state.order[1] = (slot + 1) % LINEUP_SIZE
        state.step = "clean_up"
    if not b.over:
        # the pitch is over with the at-bat: decisions between batters see no stale dice,
        # tokens or grants (``last`` keeps it in words); a finished game keeps its last pitch
        _clear_pitch(state)


def _score(state: GameState, scored: list, home_run: bool = False) -> list:
    return state.board.score(scored, home_run=home_run)


def walk(state: GameState, outcome: Outcome) -> None:
    """"Walked (advance the Meeple to First Base for free, no Run Phase)": forced runners move."""
    b = state.board
    before = b.bases
    b.bases, scored = force_advance(before, state.runner_id())
    _end_pa(state, outcome, before, _score(state, scored))


def batter_out(state: GameState, outcome: Outcome) -> None:
    """The batter is out; no runner moves."""
    b = state.board
    before = b.bases
    state.box.pitching[b.fielding][-1].outs += 1
    b.add_outs(1)
    _end_pa(state, outcome, before, [])


def batter_reaches(state: GameState, outcome: Outcome, bases: int) -> None:
    """The batter to base ``bases`` and every runner as far (4: a home run, all score)."""
    b = state.board
    before = b.bases
    b.bases, scored = advance_all(before, bases, state.runner_id())
    _end_pa(state, outcome, before, _score(state, scored, home_run=bases == 4))


def crush(state: GameState) -> None:
    """Crushed / Home Run!: "1-4 is an automatic single, 5 is a double, 6 is a Home Run";
    on a Home Run "the Pitcher rolls the Control die once ... a natural 6 ... The Batter is
    out! No base runners advance"."""
    r = state.dice.roll("crush")
    if r <= 4:
        state.last += f", crushed ({r}): a single"
        batter_reaches(state, sb.SINGLE, 1)
    elif r == 5:
        state.last += f", crushed ({r}): a double"
        batter_reaches(state, sb.DOUBLE, 2)
    else:
        catch = state.dice.roll("catch")
        if catch == 6:
            state.last += ", crushed (6) but caught at the wall (natural 6)"
            batter_out(state, CAUGHT_AT_WALL)
        else:
            state.last += f", crushed (6): a home run (fielding check {catch})"
            batter_reaches(state, sb.HOME_RUN, 4)


def run_phase(state: GameState) -> None:
    """4. Run!, as the Base-path Variant: rounds of Swing + Speed against Control + Fielding
    (each 1..6); "A 5 or 6 is a success ... If both players roll a success, the higher number
    wins; any ties go to the runner. Repeat this until the Run phase is resolved"."""
    cs = state.cards
    speed = cs.trait_by(state.batter_card, "speed")
    fielding = cs.trait_by(state.pitcher, "fielding")
    while True:
        runner = min(6, max(1, state.dice.roll("run_swing") + speed))
        fielder = min(6, max(1, state.dice.roll("run_control") + fielding))
        if runner >= 5 or fielder >= 5:
            break
    if runner >= fielder:
        state.last += f", run phase {runner} vs {fielder}: safe"
        batter_reaches(state, sb.SINGLE, 1)
    else:
        state.last += f", run phase {runner} vs {fielder}: out"
        thrown_out(state)


def thrown_out(state: GameState) -> None:
    """The pitcher wins the Run! phase. ``out_rule="lead_runner"`` (Base-path Variant and the
    FAQ: "the lead runner would be thrown out, and the batter reaches first safely"; with the
    bases empty the batter is out) or ``"batter"`` (Run!: "the Batter ... is Out and removed,
    other base runners remain")."""
    b = state.board
    runners = occupied(b.bases)
    if state.out_rule == "batter" or not runners:
        batter_out(state, sb.GROUND_OUT)
        return
    before = b.bases
    lead = runners[-1]
    rest = list(before)
    rest[lead] = None
    state.box.pitching[b.fielding][-1].outs += 1
    b.add_outs(1)
    if b.outs == 3:
        b.bases = (rest[0], rest[1], rest[2])
        _end_pa(state, FIELDERS_CHOICE, before, [])
        return
    b.bases, scored = advance_all((rest[0], rest[1], rest[2]), 1, state.runner_id())
    _end_pa(state, FIELDERS_CHOICE, before, _score(state, scored))


# -- 5. Clean Up ----------------------------------------------------------------------------------------
def relief_points(state: GameState) -> int:
    """"counts the number of empty bases ... then moves a Fatigue Token UP the Fatigue Track
    that number" (a ``stamina`` trait adds points)."""
    empty = sum(r is None for r in state.board.bases)
    return empty + state.cards.trait_by(state.pitcher, "stamina")


def relief_effect(state: GameState, k: int, to_direction: int) -> tuple[int, int]:
    c = state.ceiling
    return (max(c, state.fatigue[0] - to_direction), max(c, state.fatigue[1] - (k - to_direction)))


def relief_splits(state: GameState) -> tuple[int, ...]:
    """The splits "in any combination" (points to the direction token, the rest to location)
    that waste no relief on a token at its ceiling; when there is more relief than room, the
    splits that lift both tokens to their ceilings (the excess is lost)."""
    k = relief_points(state)
    room = (state.fatigue[0] - state.ceiling, state.fatigue[1] - state.ceiling)
    fits = tuple(d for d in range(k + 1) if d <= room[0] and k - d <= room[1])
    return fits or tuple(d for d in range(k + 1) if d >= room[0] and k - d >= room[1])


def clean_up(state: GameState) -> None:
    """5. Clean Up, only between Batters: relief, then a possible pitching change."""
    k = relief_points(state)
    splits = relief_splits(state) if k else ()
    effects = {relief_effect(state, k, d) for d in splits}
    state.step = "change"
    if len(effects) > 1:
        state.pending = Decision("relief", state.seat_of(0), tuple(RELIEF + d for d in splits))
    elif splits:
        apply_relief(state, splits[0])


def apply_relief(state: GameState, to_direction: int) -> None:
    k = relief_points(state)
    state.fatigue = list(relief_effect(state, k, to_direction))


def choose_relief(state: GameState, decision: Decision, action: int) -> None:
    apply_relief(state, action - RELIEF)


def substitute(state: GameState) -> int:
    """The bench pitcher who may come in, or -1 (never a removed one, never a starter-only)."""
    for i in state.staff[1:]:
        if i != state.pitcher and i not in state.removed and state.cards.card(i).can_relieve:
            return i
    return -1


def offer_pitching_change(state: GameState) -> None:
    """Relief Pitchers: "The Pitching Player can change their Pitcher between At-Bats"."""
    if state.mode == "game":
        offer_game_change(state, "switch")
        return
    state.step = "new_batter"
    if substitute(state) >= 0:
        state.pending = Decision("pitching_change", 0, (KEEP, BRING_IN))


def choose_pitching_change(state: GameState, decision: Decision, action: int) -> None:
    if state.mode == "game":
        if action != KEEP:
            change_game_pitcher(state, action - CARD)
        return
    if action == BRING_IN:
        change_pitcher(state, substitute(state))


def change_pitcher(state: GameState, new: int) -> None:
    """"removes the current Pitcher from the game ... sets the new Pitcher's Fatigue Tokens
    both to 1. This is the highest level of relief a relieving Pitcher can take"."""
    b = state.board
    state.removed.append(state.pitcher)
    state.pitcher = new
    state.fatigue = [1, 1]
    state.ceiling = 1
    state.box.add_pitcher(0, state.cards.card(new).name)
    state.log.add(Play(b.inning, b.half, "pitching_change", new, -1, None, b.bases, b.bases, (), ""))


#: Modes played by their own rule tables: mode -> (choices, rules, action labels); the
#: Manager Challenge registers "solo" (:mod:`.solo`) as small overrides of the duel's tables
#: (the package imports it, so any import of this module has it).
MODES: dict[str, tuple[dict, dict, tuple[str, ...]]] = {}

RULES: dict[str, Callable[[GameState], None]] = {
    "setup": setup,
    "draft_pick": offer_draft_pick,
    "select_batter": offer_select_batter,
    "select_pitcher": offer_select_pitcher,
    "play_ball": play_ball,
    "new_batter": new_batter,
    "stare_down": stare_down,
    "guess": offer_guess,
    "pitcher_ability": offer_pitcher_ability,
    "swing": roll_swing,
    "batter_ability": offer_batter_ability,
    "resolve": resolve,
    "clean_up": clean_up,
    "change": offer_pitching_change,
}

CHOICES: dict[str, Callable[[GameState, Decision, int], None]] = {
    "draft_order": choose_draft_order,
    "draft_pick": choose_draft_pick,
    "select_batter": choose_select_batter,
    "select_pitcher": choose_select_pitcher,
    "pitch": choose_pitch,
    "guess": choose_guess,
    "pitcher_ability": choose_pitcher_ability,
    "batter_ability": choose_batter_ability,
    "relief": choose_relief,
    "pitching_change": choose_pitching_change,
}


# ==================================================================================================
# The Longer Game (mode "game"): both teams bat and pitch, ``innings`` innings (RULES.md)
# ==================================================================================================
def new_long_game(dice: Dice | ScriptedDice, cards: CardSet, faces: tuple[str, ...], *,
                  draft: bool, teams: str, fatigue_rows: int, out_rule: str, innings: int,
                  max_innings: int | None, batters: int, pitchers: int, support: bool,
                  supports: SupportSet | None) -> GameState:
    """A longer game at its first decision: ``teams`` "default" (presets, no decisions) or
    "choose" (both managers pick; ``draft`` first)."""
    board = Scoreboard(innings=innings, max_innings=max_innings)
    box = BoxScore(list(GAME_TEAM_NAMES), [[], []])
    state = GameState(board=board, dice=dice, box=box, log=PlayLog(), cards=cards, faces=faces,
                      fatigue_rows=fatigue_rows, out_rule=out_rule, teams=teams, draft=draft,
                      mode="game", supports=supports if support else None, n_batters=batters,
                      n_pitchers=pitchers, use_support=support)
    if teams == "default":
        preset_teams(state)
    run(state)
    return state


def preset_teams(state: GameState) -> None:
    """The longer game's presets (``teams="default"``): the first legal pick at every choice
    of the "choose" set-up (each pick checks that both teams can still be completed), and
    with support cards the first two. No die is rolled and nothing but the card set, the
    support cards and the team sizes decides them, so they are worked out once for each
    and copied into every new game."""
    key = (id(state.cards), id(state.supports), state.n_batters, state.n_pitchers,
           state.use_support, state.draft)
    known = _PRESETS.get(key)
    if known is None or known[0] is not state.cards or known[1] is not state.supports:
        state.step = "game_select"
        while state.step != "play_ball":
            RULES[state.step](state)
            if state.pending is not None:
                d, state.pending = state.pending, None
                CHOICES[d.kind](state, d, d.legal[0])
        if len(_PRESETS) >= 64:       # (a few card sets a process: never more than 64 kept)
            _PRESETS.clear()
        _PRESETS[key] = (state.cards, state.supports, tuple(tuple(x) for x in state.lineups),
                         tuple(tuple(x) for x in state.benches),
                         tuple(tuple(x) for x in state.staffs))
    else:
        state.lineups = [list(x) for x in known[2]]
        state.benches = [list(x) for x in known[3]]
        state.staffs = [list(x) for x in known[4]]
        state.step = "play_ball"
    if state.use_support:
        state.support = [0, 1]


#: preset_teams' teams, by (card set, support set, batters, pitchers, support, draft): the
#: card set and the support set themselves, then the lineups, benches and staffs
_PRESETS: dict[tuple, tuple] = {}


def _augment(eligible: list[tuple[int, ...]], owner: list[int], i: int, seen: list[bool]) -> bool:
    for p in eligible[i]:
        if not seen[p]:
            seen[p] = True
            if owner[p] < 0 or _augment(eligible, owner, owner[p], seen):
                owner[p] = i
                return True
    return False


def joint_feasible(teams: list[tuple[list, list, int]], pool: list[tuple[int, ...]],
                   kinds: int, total: int) -> bool:
    """Whether both teams can complete their cards from one shared pool, each card to one
    team: ``teams[t]`` = (cards that must take a slot, cards that may, cards held), each card
    its eligible slot kinds (0..kinds-1, one slot of each kind per team), ``total`` the cards
    each team ends with. A bipartite matching (augmenting paths): a team's own cards first
    (they keep their slots), the pool last; the pool cards a team needs must fit its picks."""
    eligible: list[tuple[int, ...]] = []
    order: list[tuple[int, bool]] = []
    for t, (must, may, _) in enumerate(teams):
        for e in must:
            eligible.append(tuple(t * kinds + k for k in e))
            order.append((t, True))
        for e in may:
            eligible.append(tuple(t * kinds + k for k in e))
            order.append((t, False))
    n_own = len(eligible)
    for e in pool:
        eligible.append(tuple(t * kinds + k for t in (0, 1) for k in e))
    owner = [-1] * (2 * kinds)
    for i in range(len(eligible)):
        ok = _augment(eligible, owner, i, [False] * (2 * kinds))
        if not ok and i < n_own and order[i][1]:
            return False
    if min(owner) < 0:
        return False
    need = [total - teams[t][2] for t in (0, 1)]
    if min(need) < 0 or len(pool) < sum(need):
        return False
    for t in (0, 1):
        if sum(owner[t * kinds + k] >= n_own for k in range(kinds)) > need[t]:
            return False
    return True


_BATTER_KINDS = len(FIELD_POSITIONS)


def _pitcher_kinds(card) -> tuple[int, ...]:
    return tuple(k for k, ok in ((0, card.can_start), (1, card.can_relieve)) if ok)


def game_setup(state: GameState) -> None:
    """Set-up of the longer game: a draft (Player Draft) or both managers' picks."""
    if state.draft:
        state.dice.set_stream(0, 0, 0)
        winner = state.dice.randbelow("draft", 2)
        state.pending = Decision("draft_order", winner, (PICK_FIRST, PICK_SECOND))
    else:
        state.step = "game_select"


def _pool(state: GameState, batters: bool) -> list[int]:
    cs = state.cards
    taken = set(state.drafted[0]) | set(state.drafted[1])
    for t in (0, 1):
        taken |= set(state.lineups[t]) | set(state.benches[t]) | set(state.staffs[t])
    return [i for i in range(len(cs.cards)) if cs.is_batter(i) == batters and i not in taken]


def _draft_ok(state: GameState, seat: int, pick: int, batters: bool) -> bool:
    cs = state.cards
    held = [[i for i in state.drafted[t] if cs.is_batter(i) == batters] for t in (0, 1)]
    held[seat] = held[seat] + [pick]
    pool = [i for i in _pool(state, batters) if i != pick]
    if batters:
        elig = lambda i: cs.card(i).eligible                       # noqa: E731
        return joint_feasible([([], [elig(i) for i in held[t]], len(held[t])) for t in (0, 1)],
                              [elig(i) for i in pool], _BATTER_KINDS, state.n_batters)
    elig = lambda i: _pitcher_kinds(cs.card(i))                     # noqa: E731
    return joint_feasible([([], [elig(i) for i in held[t]], len(held[t])) for t in (0, 1)],
                          [elig(i) for i in pool], 2, state.n_pitchers)


def offer_game_draft(state: GameState) -> None:
    """Player Draft: "Beginning with the Pitchers, select players until each team has an
    equal number before moving on to the Batters. Optionally, draft an equal number of
    support cards last": alternate picks, ``pitchers`` each, then ``batters`` each, then one
    support card each; a pick must leave both teams, together, able to complete a legal team."""
    picks = len(state.drafted[0]) + len(state.drafted[1])
    n_p, n_b = 2 * state.n_pitchers, 2 * state.n_batters
    seat = state.draft_first if picks % 2 == 0 else 1 - state.draft_first
    if picks < n_p + n_b:
        batters = picks >= n_p
        legal = tuple(sorted(CARD + i for i in _pool(state, batters) if _draft_ok(state, seat, i, batters)))
        if not legal:
            raise RuntimeError("no legal draft pick: the card set is too small for a draft")
        state.pending = Decision("draft_pick", seat, legal)
        return
    if state.use_support and min(state.support) < 0:
        seat = state.draft_first if state.support[state.draft_first] < 0 else 1 - state.draft_first
        free = [k for k in range(len(state.supports.cards)) if k not in state.support]
        state.pending = Decision("draft_pick", seat, tuple(SUPPORT + k for k in free))
        return
    state.step = "game_select"


def choose_game_draft_pick(state: GameState, decision: Decision, action: int) -> None:
    if action >= SUPPORT:
        state.support[decision.actor] = action - SUPPORT
    else:
        state.drafted[decision.actor].append(action - CARD)


def _select_seat(state: GameState) -> tuple[int, str]:
    """Who picks what next in the selections: away's team, then home's; the lineup (8 in
    batting order), the bench, the starter, the bullpen, the support card."""
    for t in (0, 1):
        if len(state.lineups[t]) < 8:
            return t, "lineup"
        if state.draft:
            if not state.staffs[t]:
                return t, "starter"
            continue
        if len(state.benches[t]) < state.n_batters - 8:
            return t, "bench"
        if len(state.staffs[t]) < state.n_pitchers:
            return t, "pitcher"
        if state.use_support and state.support[t] < 0:
            return t, "support"
    return -1, ""


def _choose_ok(state: GameState, t: int, pick: int, what: str) -> bool:
    """A pick (no draft) that leaves both teams a legal team from the cards left."""
    cs = state.cards
    if what in ("lineup", "bench"):
        elig = lambda i: cs.card(i).eligible                        # noqa: E731
        teams = []
        for u in (0, 1):
            line = state.lineups[u] + ([pick] if u == t and what == "lineup" else [])
            bench = state.benches[u] + ([pick] if u == t and what == "bench" else [])
            teams.append(([elig(i) for i in line], [], len(line) + len(bench)))
        pool = [elig(i) for i in _pool(state, True) if i != pick]
        return joint_feasible(teams, pool, _BATTER_KINDS, state.n_batters)
    kinds = state.n_pitchers
    teams = []
    for u in (0, 1):
        staff = state.staffs[u] + ([pick] if u == t else [])
        # slot 0 the starter, slots 1.. the bullpen (relief-capable)
        must = [(0,) if j == 0 else tuple(range(1, kinds)) for j in range(len(staff))]
        teams.append((must, [], len(staff)))
    pool = [tuple(k for k in range(kinds) if (k == 0 and cs.card(i).can_start)
                  or (k > 0 and cs.card(i).can_relieve)) for i in _pool(state, False) if i != pick]
    return joint_feasible(teams, pool, kinds, state.n_pitchers)


def offer_game_select(state: GameState) -> None:
    """Each team's lineup ("8 Batter lineup (Pitcher being your 9th batter)", one per field
    position, in batting order), bench, starter (not a Relief Pitcher) and bullpen (not
    Starting Pitchers), from its draft or (no draft) from the cards the other team left."""
    cs = state.cards
    t, what = _select_seat(state)
    if t < 0:
        state.step = "play_ball"
        return
    if state.draft:
        mine = state.drafted[t]
        if what == "lineup":
            pool = [i for i in mine if cs.is_batter(i) and i not in state.lineups[t]]
            chosen = [cs.card(i).eligible for i in state.lineups[t]]
            legal = tuple(CARD + i for i in pool if can_complete_lineup(
                chosen + [cs.card(i).eligible], [cs.card(j).eligible for j in pool if j != i], 8))
            state.pending = Decision("select_batter", t, tuple(sorted(legal)))
        else:
            legal = tuple(sorted(CARD + i for i in mine if not cs.is_batter(i) and cs.card(i).can_start))
            state.pending = Decision("select_pitcher", t, legal)
        return
    if what == "support":
        free = [k for k in range(len(state.supports.cards)) if k not in state.support]
        state.pending = Decision("select_support", t, tuple(SUPPORT + k for k in free))
        return
    batters = what in ("lineup", "bench")
    legal = tuple(CARD + i for i in _pool(state, batters) if _choose_ok(state, t, i, what))
    state.pending = Decision("select_batter" if batters else "select_pitcher", t, legal)


def choose_game_select(state: GameState, decision: Decision, action: int) -> None:
    t, what = _select_seat(state)
    cs = state.cards
    i = action - CARD
    if what == "lineup":
        state.lineups[t].append(i)
        if state.draft and len(state.lineups[t]) == 8:
            state.benches[t] = [j for j in state.drafted[t] if cs.is_batter(j) and j not in state.lineups[t]]
    elif what == "bench":
        state.benches[t].append(i)
    elif what == "starter":
        state.staffs[t] = [i] + [j for j in state.drafted[t] if not cs.is_batter(j) and j != i]
    else:
        state.staffs[t].append(i)


def choose_select_support(state: GameState, decision: Decision, action: int) -> None:
    state.support[decision.actor] = action - SUPPORT


def play_ball_game(state: GameState) -> None:
    """Both starters take the mound in turn; each lineup's 9th batter is its pitcher ("If a
    batting lineup is 9 players, the Pitcher must be included as a Batter")."""
    cs = state.cards
    for t in (0, 1):
        state.lineups[t] = state.lineups[t][:8] + [state.staffs[t][0]]
        state.pslot[t] = 8
        state.mound[t] = state.staffs[t][0]
        state.slot_lines[t] = []
        for i in state.lineups[t]:
            label = cs.card(i).position if cs.is_batter(i) else "P"
            state.slot_lines[t].append(state.box.add_line(t, cs.card(i).name, label))
        state.box.add_pitcher(t, cs.card(state.mound[t]).name)
    state.step = "half_start"


# -- each half inning ------------------------------------------------------------------------------
def half_start(state: GameState) -> None:
    """A new half inning: the fielding team's pitcher takes the mound; between innings its
    manager may change pitchers (and double switch), then the inning's fatigue."""
    t = state.board.fielding
    state.pa = 0
    state.pitcher = state.mound[t]
    # what the table shows now is this pitcher's: his reset row, and the points his runs
    # allowed will add (inning_fatigue applies them to whoever pitches the half)
    state.ceiling = state.ceilings[t]
    state.fatigue = [state.ceiling, state.ceiling]
    state.fatigue_left = state.allowed[t]
    state.changed = False
    _clear_pitch(state)
    if state.board.inning > 1:
        offer_game_change(state, "start_switch")
    else:
        state.step = "start_switch"


def bullpen(state: GameState, t: int) -> list[int]:
    """Team ``t``'s pitchers who may come in: never one removed, never a Starting Pitcher."""
    cs = state.cards
    return [i for i in state.staffs[t][1:] if i != state.mound[t] and i not in state.removed
            and cs.card(i).can_relieve]


def offer_game_change(state: GameState, then: str) -> None:
    """"The Pitching Player can change their Pitcher between At-Bats" (and between innings):
    keep (26) or a bullpen pitcher (his card action)."""
    state.step = then
    t = state.board.fielding
    pen = bullpen(state, t)
    if pen:
        state.pending = Decision("pitching_change", t, (KEEP,) + tuple(sorted(CARD + i for i in pen)))


def change_game_pitcher(state: GameState, new: int) -> None:
    """Longer Game, Relief Pitchers: "The first Pitch Reliever ignores the Relief Pitcher rules
    of the standard game. Each consecutive Pitcher follows the rule"; "In any game lasting
    longer than 3 Innings, the first and second Reliever used by each team starts at the
    top". The new pitcher takes the old one's batting slot."""
    b = state.board
    t = b.fielding
    cs = state.cards
    state.removed.append(state.mound[t])
    state.mound[t] = state.pitcher = new
    state.relievers[t] += 1
    long_game = b.innings > 3 or b.inning > 3
    top = state.relievers[t] == 1 or (state.relievers[t] == 2 and long_game)
    row = 0 if top else 1
    state.fatigue = [row, row]
    state.ceiling = state.ceilings[t] = row
    state.allowed[t] = 0
    state.changed = True
    state.box.add_pitcher(t, cs.card(new).name)
    s = state.pslot[t]
    state.lineups[t][s] = new
    state.slot_lines[t][s] = state.box.add_line(t, cs.card(new).name, "P")
    state.log.add(Play(b.inning, b.half, "pitching_change", new, -1, None, b.bases, b.bases, (), ""))


def _fielders(state: GameState, t: int, slot: int, card: int) -> bool:
    """The lineup with ``card`` in ``slot`` keeps "the 1-player per position rule": the eight
    who are not the pitcher match eight field positions."""
    cs = state.cards
    elig = [cs.card(card if j == slot else c).eligible for j, c in enumerate(state.lineups[t])
            if j != state.pslot[t]]
    return matching_size(elig) == 8


def sub_slots(state: GameState, t: int, card: int) -> tuple[int, ...]:
    """The lineup slots ``card`` may take: not the pitcher's, not a runner's (who is on
    base), and the one-per-position rule kept."""
    on_base = {r for r in state.board.bases if r is not None} if t == state.board.batting else set()
    return tuple(s for s in range(GAME_LINEUP) if s != state.pslot[t]
                 and state.slot_lines[t][s] not in on_base and _fielders(state, t, s, card))


def offer_double_switch(state: GameState, then: str) -> None:
    """Double Switch: "During any appropriate Pinch-Hit or Relief Pitcher situation, a Batter
    and Pitcher may be substituted simultaneously": after a pitching change, pass or a bench
    batter (then his slot, then where the new pitcher bats)."""
    state.step = then
    t = state.board.fielding
    if not state.changed:
        return
    state.changed = False
    legal = tuple(CARD + c for c in state.benches[t] if sub_slots(state, t, c))
    if legal:
        state.pending = Decision("double_switch", t, tuple(sorted(legal)) + (PASS,))


def choose_double_switch(state: GameState, decision: Decision, action: int) -> None:
    if action != PASS:
        state.sub_card = action - CARD
        state.sub_slot = -1
        state.step = ("ds_slot_start" if state.step == "inning_fatigue" else "ds_slot")


def offer_sub_slot(state: GameState) -> None:
    """The slot the substitute takes (``pinch_slot``)."""
    t = decision_team(state)
    state.pending = Decision("pinch_slot", t, tuple(SLOT + s for s in sub_slots(state, t, state.sub_card)))


def decision_team(state: GameState) -> int:
    return state.board.batting if state.step == "pinch_slot" else state.board.fielding


def choose_sub_slot(state: GameState, decision: Decision, action: int) -> None:
    slot = action - SLOT
    if state.step == "pinch_slot":
        substitute_batter(state, decision.actor, slot, state.sub_card)
        state.sub_card = -1
        state.step = "new_batter"
        return
    state.sub_slot = slot
    state.step = "ds_where_start" if state.step == "ds_slot_start" else "ds_where"


def offer_ds_where(state: GameState) -> None:
    """"The new players may be placed in either substitute position of the hitting lineup":
    the new pitcher bats in the replaced batter's slot or in the pitcher's."""
    t = state.board.fielding
    state.pending = Decision("double_switch_slot", t,
                             tuple(sorted((SLOT + state.sub_slot, SLOT + state.pslot[t]))))


def choose_ds_where(state: GameState, decision: Decision, action: int) -> None:
    t = decision.actor
    slot, pitcher_slot = state.sub_slot, action - SLOT
    card = state.sub_card
    old_pslot = state.pslot[t]
    if pitcher_slot == slot:          # the pitcher moves to the batter's slot, the batter bats his
        state.lineups[t][slot] = state.lineups[t][old_pslot]
        state.slot_lines[t][slot] = state.slot_lines[t][old_pslot]
        state.pslot[t] = slot
        substitute_batter(state, t, old_pslot, card)
    else:
        substitute_batter(state, t, slot, card)
    state.sub_card = state.sub_slot = -1
    state.step = "inning_fatigue" if state.step == "ds_where_start" else "pinch"


def substitute_batter(state: GameState, t: int, slot: int, card: int) -> None:
    """"replace a Batter in your lineup with one of your substitutes, removing the original
    player from the game"."""
    cs = state.cards
    b = state.board
    state.benches[t].remove(card)
    state.lineups[t][slot] = card
    state.slot_lines[t][slot] = state.box.add_line(t, cs.card(card).name, cs.card(card).position)
    state.log.add(Play(b.inning, b.half, "substitution", state.slot_lines[t][slot], slot, None,
                       b.bases, b.bases, (), str(t)))


def inning_fatigue(state: GameState) -> None:
    """Longer Game, Fatigue: "At the start of each Inning, reset the Fatigue Track, then
    Fatigue the Pitcher 1 for each Run they have allowed in the game": the tokens go to the
    pitcher's reset row (the top, or row 1 for a reliever who follows the rule), then one
    point per run he allowed, each on a token of his manager's choice."""
    t = state.board.fielding
    state.ceiling = state.ceilings[t]
    state.fatigue = [state.ceiling, state.ceiling]
    state.fatigue_left = state.allowed[t]
    state.step = "fatigue_point"


def offer_fatigue_point(state: GameState) -> None:
    bottom = state.fatigue_rows - 1
    while state.fatigue_left > 0:
        room = [state.fatigue[i] < bottom for i in (0, 1)]
        if all(room):
            state.pending = Decision("fatigue_split", state.board.fielding, (FATIGUE_DIR, FATIGUE_LOC))
            return
        if not any(room):
            state.fatigue_left = 0          # both exhausted: the point is lost
            break
        state.fatigue[room.index(True)] += 1
        state.fatigue_left -= 1
    state.step = "pinch"


def choose_fatigue_point(state: GameState, decision: Decision, action: int) -> None:
    state.fatigue[action - FATIGUE_DIR] += 1
    state.fatigue_left -= 1


def offer_pinch_hit(state: GameState) -> None:
    """Pinch Hitters: "Between innings or between At-Bats, you may replace a Batter in your
    lineup with one of your substitutes ... the new lineup can not violate the 1-player per
    position rule": before each of its at-bats the batting team may pass or name a bench
    batter (then the slot, any but the pitcher's)."""
    state.step = "new_batter"
    t = state.board.batting
    if not state.benches[t]:
        return
    legal = tuple(CARD + c for c in state.benches[t] if sub_slots(state, t, c))
    if legal:
        state.pending = Decision("pinch_hit", t, tuple(sorted(legal)) + (PASS,))


def choose_pinch_hit(state: GameState, decision: Decision, action: int) -> None:
    if action != PASS:
        state.sub_card = action - CARD
        state.step = "pinch_slot"


def grant_support(state: GameState) -> None:
    """Support Characters, "used by the player that controls them": an unused support card's
    grant for its owner's side while that side may use it (once per game, RULES.md)."""
    for role in (0, 1):
        team = state.seat_of(role)
        k = state.support[team]
        if k < 0 or state.support_used[team]:
            continue
        card = state.supports.cards[k]
        if card.role == role:
            for e in card.grant:
                state.grants[role].append(Grant("support", e, e.n))


RULES.update({
    "game_draft": offer_game_draft,
    "game_select": offer_game_select,
    "play_ball": lambda state: (play_ball_game if state.mode == "game" else play_ball)(state),
    "half_start": half_start,
    "start_switch": lambda state: offer_double_switch(state, "inning_fatigue"),
    "switch": lambda state: offer_double_switch(state, "pinch"),
    "inning_fatigue": inning_fatigue,
    "fatigue_point": offer_fatigue_point,
    "pinch": offer_pinch_hit,
    "pinch_slot": offer_sub_slot,
    "ds_slot": offer_sub_slot,
    "ds_slot_start": offer_sub_slot,
    "ds_where": offer_ds_where,
    "ds_where_start": offer_ds_where,
})


def _draft_pick(state: GameState, decision: Decision, action: int) -> None:
    (choose_game_draft_pick if state.mode == "game" else choose_draft_pick)(state, decision, action)


def _select(duel):
    def choose(state: GameState, decision: Decision, action: int) -> None:
        (choose_game_select if state.mode == "game" else duel)(state, decision, action)
    return choose


CHOICES.update({
    "draft_pick": _draft_pick,
    "select_batter": _select(choose_select_batter),
    "select_pitcher": _select(choose_select_pitcher),
    "select_support": choose_select_support,
    "fatigue_split": choose_fatigue_point,
    "pinch_hit": choose_pinch_hit,
    "pinch_slot": choose_sub_slot,
    "double_switch": choose_double_switch,
    "double_switch_slot": choose_ds_where,
})
