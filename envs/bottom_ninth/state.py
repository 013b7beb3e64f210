"""Bottom of the 9th's game state and its vocabulary: the action numbers, the decision kinds,
:class:`Grant`, :class:`GameState` and the check of a loaded game (:func:`validate_game`).

Every mode (the duel and the Longer Game of :mod:`.rules` and :mod:`.game`, the Manager
Challenge of :mod:`.solo`) plays this one state. The rule tables live with their rules; each
mode registers its tables in :data:`MODES` (``rules`` the duel's and the Longer Game's, ``solo``
the Manager Challenge's; the package imports both, so any import of this module has them),
and a loaded game is checked against its mode's tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..core import scorebook as sb
from ..core.decisions import Decision
from ..core.dice import DICE, Dice, ScriptedDice
from ..core.scoreboard import Scoreboard, ScoreboardGame, SuddenDeathScoreboard
from ..core.scorebook import PLAY_LOG, BoxScore, Outcome, PlayLog
from ..core.state import (SavedAs, SaveError, check_choice, check_index, check_int, check_len,
                          decode_as, saved_keys)
from .cards import FACES, MAX_CARDS, PITCH_LABELS, CardSet, Effect
from .solo_cards import SoloSet
from .support import MAX_SUPPORT, SupportSet

__all__ = ["GameState", "Grant", "validate_game", "clear_pitch", "MODES", "ACTIONS", "SOLO_ACTIONS",
           "DECISION_KINDS", "SOLO_DECISION_KINDS", "TEAM_NAMES", "GAME_TEAM_NAMES", "LINEUP_SIZE",
           "GAME_LINEUP", "ABILITY_ACTIONS", "PITCHER_ABILITIES", "BATTER_ABILITIES", "OUTCOMES",
           "DEFAULT_FACES"]

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
    # -- the duel's tenth inning (option ``extra_innings``): away's lineup is ``lineups[0]``,
    # home's pitchers ``staffs[1]``, the pitcher of the team at bat in ``mound`` (-1 for the
    # team in the field and before home pitches), his reset row in ``ceilings``; unused otherwise
    extra_innings: bool = False
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
    shared_support: bool = False     # one support card in play for both (support="shared")
    dealt: bool = False              # the draft's picks dealt at random (draft="random")
    condition: int = -1              # the duel's Condition Card (a built-in Effect card), -1 none
    #: the Longer Game's teams as they took the field (each team's eight batters in batting
    #: order, then its bench): what a series carries to its next game
    opening: list[list[list[int]]] = field(default_factory=list)
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
        if self.board.half == 0:          # the duel's tenth inning: away bats in the top
            return self.lineups[0][self.order[0]] if self.lineups[0] else -1
        return self.lineup[self.order[1]] if self.lineup else -1

    def seat_of(self, role: int) -> int:
        """The seat playing ``role`` now: 0 the pitcher's side (the fielding team), 1 the
        batter's (the batting team); in the duel always away and home."""
        return self.board.fielding if role == 0 else self.board.batting

    def runner_id(self) -> int:
        """The batter at the plate as a runner: his box-score line (the lineup slot in the
        duel, where the two agree: away's in the tenth inning too)."""
        t = self.board.half
        if self.mode in ("game", "solo"):
            return self.slot_lines[t][self.order[t]]
        return self.order[t]

    def validate(self) -> None:
        """A loaded game is one the rules could reach (see :func:`validate_game`)."""
        validate_game(self)

    def validate_carry(self, carry: Any) -> None:
        """A series' carry (the teams, ``rules.teams_of``) is this game's: the game it
        starts plays those teams (a :class:`SaveError` names the key that differs)."""
        if not isinstance(carry, dict):
            raise SaveError(f"the carry is a dict of the teams, got {type(carry).__name__}", ())
        mine = {"drafted": self.drafted, "draft_first": self.draft_first, "support": self.support,
                "staffs": self.staffs}
        if self.mode == "game":
            mine["opening"] = self.opening
        else:
            mine.update(lineup=self.lineup, staff=self.staff, away_lineup=self.lineups[0])
        if set(carry) != set(mine):
            raise SaveError(f"the carry's keys are {sorted(mine)}, got {sorted(map(str, carry))}", ())
        for key, value in mine.items():
            if carry[key] != value:
                raise SaveError(f"the series carries {carry[key]!r}, the game plays {value!r}", (key,))

    def rows_exhausted(self) -> tuple[bool, bool]:
        bottom = self.fatigue_rows - 1
        return self.fatigue[0] >= bottom, self.fatigue[1] >= bottom


def clear_pitch(state: GameState) -> None:
    """The pitch is over: no secret, no reveal, no tokens, no grants, no dice."""
    state.secret = state.thrown = state.guess = -1
    state.tokens = [-1, -1]
    state.grants = [[], []]
    state.face = state.face_natural = ""
    state.control = state.control_natural = state.swing = state.swing_natural = 0


#: Each mode's rule tables: mode -> (choices, rules, action labels), ``CHOICES[decision.kind]``
#: and ``RULES[state.step]`` as in every ruleset. :mod:`.rules` registers "duel" and "game"
#: (one pair of tables for both), :mod:`.solo` "solo" (small overrides of the duel's).
MODES: dict[str, tuple[dict[str, Callable[..., None]], dict[str, Callable[..., None]],
                       tuple[str, ...]]] = {}


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
    n_cards = len(cs.cards)
    check_choice(state.mode, ("duel", "game", "solo"), ("mode",))
    check_choice(state.out_rule, ("lead_runner", "batter"), ("out_rule",))
    check_choice(state.teams, ("default", "given", "choose"), ("teams",))
    check_int(state.fatigue_rows, ("fatigue_rows",), 3, 10)
    if not 1 <= len(state.faces) <= 12:
        raise SaveError(f"the Pitch die has 1 to 12 faces, got {len(state.faces)}", ("faces",))
    for i, f in enumerate(state.faces):
        check_choice(f, FACES, ("faces", i))
    game = state.mode == "game"
    rules_table = MODES[state.mode][1]
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
    if not isinstance(state.extra_innings, bool) or (state.extra_innings and state.mode != "duel"):
        raise SaveError("extra_innings is True or False, and only the duel's", ("extra_innings",))
    if state.mode == "duel":
        if isinstance(b, SuddenDeathScoreboard) == state.extra_innings or (
                state.extra_innings and b.max_innings != b.innings + 1):
            raise SaveError("the duel's board is sudden death, or with the tenth inning a "
                            "regulation board with max_innings = innings + 1", ("board",))
        if not state.extra_innings and (state.lineups[0] or state.staffs[1]):
            raise SaveError("a duel without the tenth inning has no away lineup or home "
                            "pitchers", ("lineups", 0))
    if state.use_support and state.supports is None:
        raise SaveError("support cards in use need the support set", ("supports",))
    if state.condition != -1:
        from .conditions import load_solo         # (the built-in solo set: conditions.py)
        check_index(state.condition, len(load_solo().effects), ("condition",), "the Effect cards")
        if state.mode != "duel":
            raise SaveError("a Condition Card is the duel's", ("condition",))
    if state.dealt and (not state.draft or state.draft_first not in (-1, 0)):
        raise SaveError("cards dealt at random are a draft whose first pick is away's",
                        ("dealt",))
    if state.shared_support and (not state.use_support or state.support[0] != state.support[1]
                                 or state.support[0] < 0):
        raise SaveError("a shared support card is one card, in play for both from the start",
                        ("support",))
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
        for t in (0, 1):
            check_index(state.order[t], LINEUP_SIZE, ("order", t), "the lineup")
        if state.mode == "solo":
            if len(state.slot_lines[1]) != LINEUP_SIZE:
                raise SaveError(f"a batting line for each of the {LINEUP_SIZE} slots",
                                ("slot_lines", 1))
        if state.extra_innings and (len(state.lineups[0]) != LINEUP_SIZE or len(state.staffs[1]) != 2):
            raise SaveError(f"with the tenth inning away bats {LINEUP_SIZE} and home has two "
                            f"pitchers", ("lineups", 0))
        runners = len(state.box.lines[b.batting])
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
    choices = MODES[state.mode][0]
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
