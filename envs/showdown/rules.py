"""The MLB Showdown 2004 engine: the basic, advanced and expert games, one engine with
switches.

An at-bat follows the rulebook's "Complete At-Bat Sequence". The basic and advanced
games' steps are these; the expert game (below the table) adds its own::

    start of a half inning: positions filled, a pitcher brought in if one must be
    1. pinch hitter?                       (offense)  -> "pinch_hitter"       advanced
    2. pitching change?                    (defense)  -> "pitching_change"    advanced
       and if so, another pinch hitter?    (offense)  -> "pinch_hitter"
    before the pitch: the 1B+ runner's steal of second (automatic); RP and 20 icons
       (defense), SB icon steals (offense)              -> "relief_ace", "twenty_game",
                                                           "stolen_base"      advanced
    6. the pitch (d20 + Control - fatigue against On-Base) and the swing (d20 on the
       chart of whoever has the advantage)                                    automatic
    7. icons on the result: K (defense), then V, S, HR (offense)
                                                        -> "strikeout", "reroll_out",
                                                           "silver_slugger",
                                                           "home_run_icon"    advanced
    8. carry out the result: the double-play attempt on a GB with a runner on first
       (defense, Gold Glove), runners sent for extra bases on 1B, 2B and FB (offense),
       the runner to throw at (defense, Gold Glove)     -> "double_play", "gold_glove",
                                                           "send_runners", "throw_at"

The expert game turns the icons off and adds, in the sequence's order: pinch runners
before the pinch hitter ("pinch_runner"), defensive replacements and the double switch when
a team takes the field or changes pitchers ("defensive_replacement", "replaced_player",
"batting_slot"), the intentional walk and the sacrifice bunt after the substitutions
("intentional_walk", "sacrifice_bunt"), and, with strategy decks, the three card windows
(before the pitch, on the result, after it: "play_card", with "catcher_throw" on a card
steal); decks, hands and who may play what are ``cardplay.py``'s.

The basic game's one decision is each manager's starting pitcher (Basic Setup 3); the
engine plays the rest through. Every rule is a small function named after it. Who is in
the lineup, where he plays and who may still come in is ``roster.py``'s; the at-bat in
progress is an :class:`AtBat`. Unclear passages and the reading taken are in RULES.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, NamedTuple

from ..core import scorebook as sb
from ..core.bases import EMPTY_BASES, Bases, advance_all, force_advance
from ..core.decisions import Decision, take_decision
from ..core.dice import DICE, Dice, ScriptedDice, chance_d20_beats
from ..core.scoreboard import Scoreboard, ScoreboardGame
from ..core.scorebook import PLAY_LOG, BoxScore, Outcome, Play, PlayLog
from ..core.state import (PlainState, SavedAs, SaveError, check_choice, check_index, check_int,
                          check_len, codec)
from .cards import (FIELD_POSITIONS, INFIELD, OUT_RESULTS, OUTFIELD, RESULTS, HitterCard,
                    PitcherCard, Team, team_from_dict, team_to_dict)
from . import cardplay, roster
from .strategy import CardSet, Deck, card_set_from_dict, card_set_to_dict
from .roster import (ROSTER, bullpen, can_remove_starter, change_pitcher, pinch_hit,
                     pinch_hitter_options, rotation_spot, set_lineups, starters_of,
                     starters_take_the_mound, take_the_field)

__all__ = ["GameState", "AtBat", "Throw", "new_game", "apply_action", "option_labels", "ACTIONS", "N_ACTIONS",
           "DECISION_KINDS", "EXPERT_KINDS", "ALL_KINDS", "LEVELS", "PASS", "YES", "PLAYER", "SEND_LEAD", "SEND_BOTH",
           "THROW_LEAD", "THROW_TRAIL", "OUTCOMES", "fatigue", "effective_control",
           "pitcher_advantage_probability"]

LEVELS = ("basic", "advanced", "expert")

# -- actions: one Discrete space for every decision ----------------------------------------
PASS, YES = 0, 1
PLAYER = 2                    # PLAYER + k: roster player k (a pinch hitter or a new pitcher)
SEND_LEAD = PLAYER + ROSTER   # 27
SEND_BOTH = SEND_LEAD + 1
THROW_LEAD = SEND_BOTH + 1
THROW_TRAIL = THROW_LEAD + 1
N_ACTIONS = THROW_TRAIL + 1
ACTIONS = (("no / pass / hold", "yes / use it")
           + tuple(f"roster player {k}" for k in range(ROSTER))
           + ("send the lead runner", "send both runners",
              "throw at the lead runner", "throw at the trailing runner"))

DECISION_KINDS = ("starting_pitcher", "pinch_hitter", "pitching_change", "relief_ace", "twenty_game", "stolen_base",
                  "strikeout", "reroll_out", "silver_slugger", "home_run_icon", "double_play",
                  "gold_glove", "send_runners", "throw_at")
#: The expert game's own decisions (its icons are off: "DO NOT USE THESE SPECIAL ABILITIES").
EXPERT_KINDS = ("pinch_runner", "defensive_replacement", "replaced_player", "batting_slot",
                "intentional_walk", "sacrifice_bunt", "play_card", "catcher_throw")
#: the card windows, as ``play_card``'s subject
WINDOWS = ("before_pitch", "on_result", "after_result")
#: CARD + i: play card i of the card set (the expert game with decks; the env's action
#: space grows by the card set's size)
CARD = N_ACTIONS
ALL_KINDS = DECISION_KINDS + EXPERT_KINDS

# Box-score marks for Showdown's results beyond the core's.
POP_OUT = Outcome("PU", "popped out")
SINGLE_PLUS = Outcome("1B+", "singled (1B+)", bases=1)
FIELDERS_CHOICE = Outcome("FC", "reached on a fielder's choice")
# Expert Managerial Options: "Intentional walks and sacrifice bunts are not results"
INTENTIONAL_WALK = Outcome("IBB", "was intentionally walked", at_bat=False, walk=True)
SACRIFICE_BUNT = Outcome("SH", "laid down a sacrifice bunt", at_bat=False)
OUTCOMES: dict[str, Outcome] = {**sb.OUTCOMES, "PU": POP_OUT, "1B+": SINGLE_PLUS,
                                "FC": FIELDERS_CHOICE, "IBB": INTENTIONAL_WALK,
                                "SH": SACRIFICE_BUNT}
#: The box-score outcome of a play, by the result carried out (FC, DP and SF are what a
#: GB or FB became).
CODE_OUTCOME = {"PU": POP_OUT, "SO": sb.STRIKEOUT, "GB": sb.GROUND_OUT, "FB": sb.FLY_OUT,
                "BB": sb.WALK, "1B": sb.SINGLE, "1B+": SINGLE_PLUS, "2B": sb.DOUBLE,
                "3B": sb.TRIPLE, "HR": sb.HOME_RUN, "FC": FIELDERS_CHOICE,
                "DP": sb.DOUBLE_PLAY, "SF": sb.SACRIFICE_FLY, "IBB": INTENTIONAL_WALK,
                "SH": SACRIFICE_BUNT}
HIT_BASES = {"1B": 1, "1B+": 1, "2B": 2, "3B": 3, "HR": 4}


# ================================================================== the state

class Throw(NamedTuple):
    """An outfield throw at a runner trying for an extra base (Extra Bases 2-4)."""
    runner: int              # the runner thrown at
    base: int                # the base he went for (3 = home)
    roll: int                # the d20
    total: int               # roll + outfield Fielding + Gold Gloves
    target: int              # what the total had to beat (throw_target)
    out: bool                # he was thrown out
    bases: Bases             # the bases as the throw was made
    scored_before: int       # runs of the at-bat scored before the throw


@dataclass
class AtBat(PlainState):
    """The at-bat in progress, as its steps go (a fresh one each at-bat, an empty one
    between half innings): nothing of the last at-bat shows."""
    change: bool = False                # step 2 brought in a pitcher: step 3 may pinch hit
    ph_for: int | None = None           # the lineup slot a pinch hitter batted for
    twenty: bool = False                # the 20 icon's +3 Control is on this pitch
    sb_asked: tuple[int, ...] = ()      # runners already offered an SB-icon steal
    pitch: int | None = None            # the pitch total (None: a pitcher bats, or no pitch yet)
    chart: str | None = None            # whose chart the swing is read on: "P" or "B"
    outs_before: int | None = None      # outs when the pitch was made
    swing: int | None = None            # the swing's d20
    result: str | None = None           # the chart's result, as the icons leave it
    icons_asked: tuple[str, ...] = ()   # result icons already offered ("K", "V", "S", "HR")
    before: Bases | None = None         # the bases before the result was carried out
    scored: tuple[int, ...] = ()        # runners who scored on the play, in order
    outcome: str | None = None          # the result as carried out (a GB may become FC or DP)
    throw_kind: str | None = None       # the roll Gold Gloves may join: "double_play", "extra_base"
    glove: int = 0                      # Fielding the Gold Glove icons add to that roll
    glove_asked: tuple[str, ...] = ()   # positions already offered their G icon
    eligible: tuple[int, ...] = ()      # runners who may try for an extra base, lead first
    sent: tuple[int, ...] = ()          # the runners sent
    thrown: int = -1                    # the runner the defense throws at
    throw: Throw | None = None          # the throw, once made
    # the expert game
    pr_asked: tuple[int, ...] = ()      # bases whose runner was offered a pinch runner
    ibb: bool = False                   # the defense called for an intentional walk
    bunt: bool = False                  # the offense called for a sacrifice bunt
    incoming: int = -1                  # a defensive replacement waiting for whom he replaces
    sub_players: tuple[int, ...] = ()   # the substitution's new players with batting spots,
    sub_old: tuple[int, ...] = ()       # the players whose spots they took,
    sub_slots: tuple[int, ...] = ()     # and those spots (the double switch may reorder them)
    slots_placed: int = 0               # new players whose spot the manager has chosen
    sub_then: str = ""                  # the step after the substitution
    # strategy cards
    card_mods: dict[str, int] = field(default_factory=dict)   # pitch, swing, ... bonuses
    no_dp: bool = False                 # no double play on this at-bat
    hold: bool = False                  # no extra-base tries on this play
    stealers: tuple[int, ...] = ()      # runners a card sends, waiting for the catcher


_NO_AT_BAT = AtBat().__dict__             # every field at its default


def new_at_bat() -> AtBat:
    """``AtBat()``, copied from the defaults: the same object, built at a fraction of the
    cost of the dataclass's ``__init__`` (an at-bat starts about 80 times a game)."""
    ab = object.__new__(AtBat)
    values = _NO_AT_BAT.copy()
    values["card_mods"] = {}            # its one mutable default
    ab.__dict__ = values
    return ab


def _save_teams(teams: tuple[Team, Team]) -> list[dict[str, Any]]:
    return [team_to_dict(t) for t in teams]


def _load_teams(saved: list[dict[str, Any]]) -> tuple[Team, Team]:
    away, home = (team_from_dict(t, "saved game", point_cap=None) for t in saved)
    return away, home


def _save_card_set(card_set: CardSet | None) -> Any:
    return None if card_set is None else card_set_to_dict(card_set)


def _load_card_set(saved: Any) -> CardSet | None:
    return None if saved is None else card_set_from_dict(saved, "saved game's card set")


@dataclass
class GameState(ScoreboardGame):
    """A game in progress; plain data (the teams are immutable, validated cards).

    Players are roster indices (0-24, the team file's order); a runner on base is his
    roster index on the batting team. ``lineup[t][slot]`` is who bats in that slot and
    ``pos[t][slot]`` where he plays ("DH", "P", a field position, or "PH" for a pinch
    hitter whose place in the field is settled when his team takes the field). ``ab`` is
    the at-bat in progress. Cloned and saved field by field
    (:class:`~dugout.envs.core.state.PlainState`).
    """

    SAVED_AS = SavedAs("ruleset", "showdown", "MLB Showdown game")

    board: Scoreboard
    dice: Dice | ScriptedDice = field(metadata=DICE)
    box: BoxScore
    log: PlayLog = field(metadata=PLAY_LOG)
    teams: tuple[Team, Team] = field(metadata=codec(_save_teams, _load_teams))
    level: str
    dh: bool
    lineup: list[list[int]]
    pos: list[list[str]]
    pitcher: list[int]
    starter: list[int]
    used: list[list[bool]]              # entered the game (nobody comes back)
    batted: list[list[bool]]
    innings_pitched: list[list[list[int]]]   # innings each pitcher has pitched in
    runs_charged: list[list[int]]
    ip_bonus: list[list[int]]           # Cy Young: +1 IP per 1-2-3 inning
    icons_left: list[list[dict[str, int]]]
    twenty_inning: list[int]            # the inning the 20 icon was last used (per team)
    relief_ace_inning: list[int]        # the inning an RP icon is in force (per team)
    responsible: dict[int, int]         # runner -> the pitcher who let him on
    box_line: list[dict[int, int]]      # roster index -> batting line
    pitch_line: list[dict[int, int]]    # roster index -> pitching line
    pitcher_slot: list[int] = field(default_factory=lambda: [-1, -1])   # -1 with a DH
    relief_ace_pitcher: list[int] = field(default_factory=lambda: [-1, -1])
    order: list[int] = field(default_factory=lambda: [0, 0])
    needs_positions: list[bool] = field(default_factory=lambda: [False, False])
    needs_pitcher: list[bool] = field(default_factory=lambda: [False, False])
    plus_runner: int = -1               # the batter who got a 1B+ (steals second next)
    pa_index: int = 0
    half_track: dict[str, int] = field(default_factory=dict)
    ab: AtBat = field(default_factory=AtBat)
    log_extra: list[tuple] = field(default_factory=list)
    step: str = "choose_starter"
    pending: Decision | None = None
    # strategy cards (the expert game with decks): card-set indices; a deck's top is its end
    card_set: CardSet | None = field(default=None, metadata=codec(_save_card_set, _load_card_set))
    decks_given: list[list[str]] = field(default_factory=lambda: [[], []])
    decks: list[list[int]] = field(default_factory=lambda: [[], []])
    hands: list[list[int]] = field(default_factory=lambda: [[], []])
    discards: list[list[int]] = field(default_factory=lambda: [[], []])
    in_play: list[list[int]] = field(default_factory=lambda: [[], []])
    played: list[list[int]] = field(default_factory=lambda: [[], []])   # this at-bat
    window: str = ""                    # the card window open ("" if none)
    window_turn: int = -1               # who plays or passes next in it
    window_passes: int = 0              # passes in a row
    window_then: str = ""               # the step after it

    @property
    def cards_on(self) -> bool:
        return self.card_set is not None

    # -- who is who -------------------------------------------------------------------
    def card(self, team: int, k: int) -> HitterCard | PitcherCard:
        return self.teams[team].players[k]

    @property
    def batting_team(self) -> int:
        return self.board.half

    @property
    def fielding_team(self) -> int:
        return 1 - self.board.half

    @property
    def batter_index(self) -> int:
        t = self.board.half
        return self.lineup[t][self.order[t]]

    def fielder_at(self, team: int, position: str) -> int:
        for slot, p in enumerate(self.pos[team]):
            if p == position:
                return self.lineup[team][slot]
        raise KeyError(position)

    def validate(self) -> None:
        """A loaded game is one the rules could reach (see :func:`validate_game`)."""
        validate_game(self)

    def fielding(self, team: int, positions: tuple[str, ...]) -> int:
        """Total Fielding of the players at these positions (rulebook, "Fielding and Arm")."""
        expert = self.level == "expert"
        total = 0
        for position in positions:
            total += roster.fielding_at(self.card(team, self.fielder_at(team, position)),
                                        position, expert)
        return total


# ================================================================== checking a loaded game
# What ``GameState.from_dict`` checks beyond the field types (see validate_game).

#: Where a player may stand in a lineup: a field position, the DH, the pitcher's spot, or a
#: pinch hitter (or runner) whose place is settled when his team takes the field.
_LINEUP_POSITIONS = FIELD_POSITIONS + ("DH", "P", "PH")
#: The steps of a substitution while a team takes the field (its positions are settled at
#: the end of it).
_SUB_STEPS = ("defensive_replacement", "replaced_player", "batting_slot")
#: The steps before the first at-bat.
_SETUP_STEPS = ("choose_starter", "play_ball")
#: The steps of an at-bat after the pitch (the chart known), after the swing (the result
#: known) and after the result was carried out (the play's outcome known).
_PITCHED_STEPS = ("swing",)
_SWUNG_STEPS = ("result_icons", "carry_out", "double_play", "send_runners", "throw_at",
                "gold_glove", "double_play_roll", "throw_roll", "finish_play")
_PLAY_KINDS = frozenset({
    "pa", "steal", "caught_stealing", "card", "fielding_check", "card_advance", "card_out",
    "thrown_out", "extra_base", "pinch_hitter", "pinch_runner", "defensive_replacement",
    "dh_to_field", "pitching_change", "cy_young", "icon_K", "icon_V", "icon_S", "icon_HR",
    "icon_20", "icon_RP", "icon_G"})
_SUBSTITUTION_KINDS = frozenset({"pinch_hitter", "pinch_runner", "defensive_replacement",
                                 "dh_to_field", "pitching_change"})
#: The steps a game waits at for a decision of that name (no rule runs there).
_WAITING_STEPS = ("double_play", "replaced_player", "send_runners", "throw_at")
_CARD_MODS = ("pitch", "swing", "throw_bonus", "dp_bonus", "catcher_bonus")
_TRACK_KEYS = ("pitcher", "batters", "reached", "multi_out")


def validate_game(state: GameState) -> None:
    """Check a loaded game (``GameState.from_dict``) for what its types cannot say: a
    :class:`~dugout.envs.core.state.SaveError` names the field.

    Players are roster indices of 25-player teams; each team's per-player records have an
    entry per player; a lineup holds nine different players at nine spots (a field position,
    DH, P or PH), the pitcher in the pitcher's spot (or a pinch hitter batting for him), and
    everyone who entered a batting line (a pitcher a pitching line); the fielding team has
    every position filled, and a pinch hitter's team can still fill its field; the at-bat
    holds what its step needs (the chart after the pitch, the result after the swing, the
    outcome once carried out); strategy cards are conserved; and the pending decision is the
    one the rules offer at this step, with these legal actions (a game not over always waits
    on one)."""
    b = state.board
    check_choice(state.level, LEVELS, ("level",))
    check_choice(state.step, list(RULES) + list(_WAITING_STEPS) + ["over"], ("step",))
    n = [len(t.players) for t in state.teams]
    for t in (0, 1):
        if n[t] != ROSTER:
            raise SaveError(f"a team has {ROSTER} players, got {n[t]}", ("teams", t))
    for key in ("lineup", "pos", "pitcher", "starter", "used", "batted", "innings_pitched",
                "runs_charged", "ip_bonus", "icons_left", "twenty_inning", "relief_ace_inning",
                "box_line", "pitch_line", "pitcher_slot", "relief_ace_pitcher", "order",
                "needs_positions", "needs_pitcher", "decks_given", "decks", "hands", "discards",
                "in_play", "played"):
        check_len(getattr(state, key), 2, (key,))
    for t in (0, 1):
        _validate_team(state, t)
    for i, r in enumerate(b.bases):
        if r is not None:
            check_index(r, ROSTER, ("board", "bases", i), "the batting team's roster")
    for r, p in state.responsible.items():
        check_index(r, ROSTER, ("responsible",), "the roster")
        if p not in state.pitch_line[1 - b.half]:
            raise SaveError(f"runner {r} is charged to pitcher {p}, who has no pitching line",
                            ("responsible",))
    check_index(state.plus_runner, ROSTER, ("plus_runner",), "the roster", none=-1)
    check_int(state.pa_index, ("pa_index",), 0)
    for key, v in state.half_track.items():
        check_choice(key, _TRACK_KEYS, ("half_track",))
        check_int(v, ("half_track", f"[{key!r}]"), -1)
    if len(state.log_extra) != len(state.log.plays):
        raise SaveError(f"one entry per play of the log ({len(state.log.plays)}), got "
                        f"{len(state.log_extra)}", ("log_extra",))
    _validate_log(state)
    _validate_cards(state)
    _validate_at_bat(state)
    if state.step == "over" or b.over:
        if not (state.step == "over" and b.over) or state.pending is not None:
            raise SaveError("a game that is over is at step 'over' with no pending decision",
                            ("step",))
        return
    d = state.pending
    if d is None:
        raise SaveError("a game that is not over waits on a decision", ("pending",))
    setup = state.step in _SETUP_STEPS
    if b.outs == 3:
        raise SaveError("the third out ends the half inning before anyone decides",
                        ("board", "outs"))
    for t in (0, 1):
        if setup != (state.pitcher[t] < 0):
            raise SaveError("the pitchers take the mound when play begins, not before",
                            ("pitcher", t))
        if setup:
            continue
        if t == 1 - b.half and state.step not in _SUB_STEPS and \
                sorted(p for p in state.pos[t] if p in FIELD_POSITIONS) != sorted(FIELD_POSITIONS):
            raise SaveError(f"the fielding team has every position filled once it takes the "
                            f"field, got {state.pos[t]}", ("pos", t))
        _validate_field(state, t)
    if setup and (b.inning, b.half, b.outs, b.bases) != (1, 0, 0, EMPTY_BASES):
        raise SaveError("before the first pitch the board is at the top of the 1st, empty",
                        ("board",))
    offer = _offered(state, d)
    if offer is None:
        raise SaveError(f"a {d.kind!r} decision is not asked at step {state.step!r} here",
                        ("pending", "kind"))
    actor, legal, subject = offer
    if (d.actor, d.legal, d.subject) != (actor, legal, subject) or not legal:
        raise SaveError(f"the {d.kind!r} decision here is team {actor}'s among {list(legal)} "
                        f"(subject {subject}), got team {d.actor}'s among {list(d.legal)} "
                        f"(subject {d.subject})", ("pending",))


def _validate_team(state: GameState, t: int) -> None:
    """One team's records: entries per player, the lineup and its spots, the pitchers."""
    team = state.teams[t]
    for key in ("used", "batted", "innings_pitched", "runs_charged", "ip_bonus", "icons_left"):
        check_len(getattr(state, key)[t], ROSTER, (key, t))
    for k in range(ROSTER):
        check_int(state.runs_charged[t][k], ("runs_charged", t, k), 0)
        check_int(state.ip_bonus[t][k], ("ip_bonus", t, k), 0)
        innings = state.innings_pitched[t][k]
        for i, inning in enumerate(innings):
            check_int(inning, ("innings_pitched", t, k, i), 1, state.board.inning)
            if i and inning <= innings[i - 1]:
                raise SaveError("the innings a pitcher pitched in, each once, in order",
                                ("innings_pitched", t, k))
        for icon, left in state.icons_left[t][k].items():
            check_choice(icon, ICON_USES, ("icons_left", t, k))
            check_int(left, ("icons_left", t, k, f"[{icon!r}]"), 0, ICON_USES[icon])
    for key in ("twenty_inning", "relief_ace_inning"):
        check_int(getattr(state, key)[t], (key, t), 0)
    check_index(state.relief_ace_pitcher[t], ROSTER, ("relief_ace_pitcher", t), "the roster",
                none=-1)
    check_index(state.order[t], 9, ("order", t), "the batting order")
    lineup, pos = state.lineup[t], state.pos[t]
    check_len(lineup, 9, ("lineup", t))
    check_len(pos, 9, ("pos", t))
    slot = check_index(state.pitcher_slot[t], 9, ("pitcher_slot", t), "the lineup", none=-1)
    for i, k in enumerate(lineup):
        check_index(k, ROSTER, ("lineup", t, i), "the roster", none=-1 if i == slot else None)
        check_choice(pos[i], _LINEUP_POSITIONS, ("pos", t, i))
    placed = [k for k in lineup if k >= 0]
    if len(set(placed)) != len(placed):
        raise SaveError(f"a player bats in two spots: {lineup}", ("lineup", t))
    taken = [p for p in pos if p in FIELD_POSITIONS + ("DH",)]
    if len(set(taken)) != len(taken):
        raise SaveError(f"a position is taken twice: {pos}", ("pos", t))
    if slot >= 0 and pos[slot] not in ("P", "PH"):
        raise SaveError(f"the pitcher's spot holds the pitcher or a pinch hitter, got "
                        f"{pos[slot]!r}", ("pos", t, slot))
    if any(p == "P" for i, p in enumerate(pos) if i != slot) or (slot < 0 and "DH" not in pos):
        raise SaveError("the pitcher bats only in the pitcher's spot; without one the team has "
                        "a DH", ("pos", t))
    for k, line in state.box_line[t].items():
        check_index(k, ROSTER, ("box_line", t), "the roster")
        check_index(line, len(state.box.lines[t]), ("box_line", t, f"[{k}]"), "the batting lines")
    for k, line in state.pitch_line[t].items():
        check_index(k, ROSTER, ("pitch_line", t), "the roster")
        check_index(line, len(state.box.pitching[t]), ("pitch_line", t, f"[{k}]"),
                    "the pitching lines")
    starter = check_index(state.starter[t], ROSTER, ("starter", t), "the roster", none=-1)
    if starter >= 0 and not (isinstance(team.players[starter], PitcherCard)
                             and team.players[starter].role == "starter"):
        raise SaveError(f"player {starter} is not a starting pitcher", ("starter", t))
    p = check_index(state.pitcher[t], ROSTER, ("pitcher", t), "the roster", none=-1)
    if p < 0:
        return
    if not isinstance(team.players[p], PitcherCard) or starter < 0:
        raise SaveError(f"player {p} is not a pitcher (or no starter)", ("pitcher", t))
    if p not in state.pitch_line[t] or not state.used[t][p]:
        raise SaveError(f"the pitcher {p} has entered, with a pitching line", ("pitch_line", t))
    for k in placed:
        if k not in state.box_line[t] or not state.used[t][k]:
            raise SaveError(f"player {k} in the lineup has entered, with a batting line",
                            ("box_line", t))
    if slot >= 0 and lineup[slot] != p and not (pos[slot] == "PH" and state.needs_pitcher[t]):
        raise SaveError(f"the pitcher's spot holds the pitcher {p} or a pinch hitter for him, "
                        f"got {lineup[slot]}", ("lineup", t, slot))
    if slot < 0 and p in lineup:
        raise SaveError(f"with a DH the pitcher {p} does not bat", ("lineup", t))
    if "PH" in pos and not (state.needs_positions[t] or state.needs_pitcher[t]):
        raise SaveError("a team with a pinch hitter settles his place when it takes the field",
                        ("needs_positions", t))
    if state.needs_pitcher[t] and not bullpen(state, t):
        raise SaveError("a team that needs a pitcher has one in the bullpen", ("needs_pitcher", t))


def _validate_field(state: GameState, t: int) -> None:
    """A team with pinch hitters waiting for a place can fill its field when it next takes
    it (the expert game: with defensive replacements from the bench)."""
    if not state.needs_positions[t] or (t == 1 - state.board.half
                                        and state.step not in _SUB_STEPS):
        return
    if state.level == "expert":
        ok = roster.field_reachable(state, t, roster.fielders_of(state, t), roster.bench(state, t),
                                    roster._next_field_inning(state, t))
    else:
        trial = state.clone()
        try:
            roster.fill_positions(trial, t)
            ok = True
        except RuntimeError:
            ok = False
    if not ok:
        raise SaveError(f"team {t} cannot fill its field with {roster.fielders_of(state, t)}",
                        ("lineup", t))


def _validate_log(state: GameState) -> None:
    """The log as the play-by-play reads it: a known kind, players of the rosters (a card
    play names a team, a substitution the player replaced), bases, and each plate
    appearance's pitch, chart, swing and result."""
    for i, p in enumerate(state.log.plays):
        where = ("log", i)
        check_choice(p.kind, _PLAY_KINDS, where + (2,))
        check_index(p.actor, 2 if p.kind == "card" else ROSTER, where + (3,), "the roster",
                    none=-1 if p.kind in ("card_advance", "fielding_check") else None)
        check_int(p.base, where + (4,), -1, 3)
        for column, group in ((6, p.before), (7, p.after), (8, p.scored)):
            for j, r in enumerate(group):
                if r is not None:
                    check_index(r, ROSTER, where + (column, j), "the roster")
        if p.kind in _SUBSTITUTION_KINDS and not (p.detail.isdigit() and int(p.detail) < ROSTER):
            raise SaveError(f"a substitution names the player replaced, got {p.detail!r}",
                            where + (9,))
        if p.kind in ("steal", "caught_stealing", "thrown_out", "extra_base") and p.base < 0:
            raise SaveError("a steal or a throw names its base", where + (4,))
        if p.kind == "pa":
            check_choice(p.detail, OUTCOMES, where + (9,))
            if len(state.log_extra[i]) != 4:
                raise SaveError("a plate appearance's pitch, chart, swing and result",
                                ("log_extra", i))


def _validate_cards(state: GameState) -> None:
    """Strategy cards: indices of the card set, and every card of the decks given somewhere
    (deck, hand, in play, played this at-bat or discarded) once the decks are shuffled."""
    cs = state.card_set
    piles = ("decks", "hands", "discards", "in_play", "played")
    if cs is None:
        for key in piles + ("decks_given",):
            for t in (0, 1):
                if getattr(state, key)[t]:
                    raise SaveError("a game without strategy cards has none", (key, t))
        if state.window or state.window_then or state.window_turn != -1:
            raise SaveError("a game without strategy cards opens no card window", ("window",))
        return
    if state.level != "expert":
        raise SaveError("strategy cards are the expert game's", ("card_set",))
    names = cs.names
    for t in (0, 1):
        for i, name in enumerate(state.decks_given[t]):
            check_choice(name, names, ("decks_given", t, i))
        for key in piles:
            for i, c in enumerate(getattr(state, key)[t]):
                check_index(c, len(names), (key, t, i), "the card set")
        held = sorted(c for key in piles for c in getattr(state, key)[t])
        given = sorted(names.index(name) for name in state.decks_given[t])
        if held != given and (held or state.step not in _SETUP_STEPS):
            raise SaveError(f"team {t}'s strategy cards are the deck it was given", ("decks", t))
    if state.window:
        check_choice(state.window, WINDOWS, ("window",))
        check_int(state.window_turn, ("window_turn",), 0, 1)
        check_int(state.window_passes, ("window_passes",), 0, 1)
        check_choice(state.window_then, RULES, ("window_then",))
    elif state.window_then or state.window_turn != -1 or state.window_passes:
        raise SaveError("no card window is open", ("window",))


def _validate_at_bat(state: GameState) -> None:
    """The at-bat in progress holds what its step needs."""
    ab = state.ab
    path = ("ab",)
    for key in ("sb_asked", "scored", "eligible", "sent", "stealers", "sub_players", "sub_old"):
        for i, k in enumerate(getattr(ab, key)):
            check_index(k, ROSTER, path + (key, i), "the roster")
    check_index(ab.thrown, ROSTER, path + ("thrown",), "the roster", none=-1)
    check_index(ab.incoming, ROSTER, path + ("incoming",), "the roster", none=-1)
    if ab.ph_for is not None:
        check_index(ab.ph_for, 9, path + ("ph_for",), "the batting order")
    for i, base in enumerate(ab.pr_asked):
        check_int(base, path + ("pr_asked", i), 0, 2)
    for i, s in enumerate(ab.sub_slots):
        check_index(s, 9, path + ("sub_slots", i), "the batting order")
    if not (len(ab.sub_players) == len(ab.sub_old) == len(ab.sub_slots)) or \
            len(set(ab.sub_slots)) != len(ab.sub_slots):
        raise SaveError("a substitution's new players, old players and spots go together",
                        path + ("sub_slots",))
    check_int(ab.slots_placed, path + ("slots_placed",), 0, len(ab.sub_players))
    if ab.sub_then:
        check_choice(ab.sub_then, RULES, path + ("sub_then",))
    check_int(ab.glove, path + ("glove",), 0)
    for i, position in enumerate(ab.glove_asked):
        check_choice(position, FIELD_POSITIONS, path + ("glove_asked", i))
    for i, icon in enumerate(ab.icons_asked):
        check_choice(icon, ("K", "V", "S", "HR"), path + ("icons_asked", i))
    for key, v in ab.card_mods.items():
        check_choice(key, _CARD_MODS, path + ("card_mods",))
    if ab.chart is not None:
        check_choice(ab.chart, ("P", "B"), path + ("chart",))
    if ab.outs_before is not None:
        check_int(ab.outs_before, path + ("outs_before",), 0, 2)
    if ab.swing is not None:
        check_int(ab.swing, path + ("swing",), 1, 20)
    if ab.result is not None:
        check_choice(ab.result, RESULTS, path + ("result",))
    if ab.outcome is not None:
        check_choice(ab.outcome, CODE_OUTCOME, path + ("outcome",))
    if ab.throw_kind is not None:
        check_choice(ab.throw_kind, ("double_play", "extra_base"), path + ("throw_kind",))
    if ab.before is not None:
        for i, r in enumerate(ab.before):
            if r is not None:
                check_index(r, ROSTER, path + ("before", i), "the roster")
    if ab.throw is not None:
        throw = ab.throw
        if not (0 <= throw.runner < ROSTER and 1 <= throw.base <= 3
                and 0 <= throw.scored_before <= len(ab.scored)
                and all(r is None or 0 <= r < ROSTER for r in throw.bases)):
            raise SaveError("a throw at a runner of the roster, to a base", path + ("throw",))
    step = state.step
    window = state.window if step == "card_window" else ""
    pitched = step in _PITCHED_STEPS or step in _SWUNG_STEPS or window in ("on_result",
                                                                          "after_result") \
        or (step == "end_at_bat" and not state.board.over)
    if pitched and (ab.outs_before is None or (ab.chart is None and not ab.ibb)):
        raise SaveError(f"at step {step!r} the pitch has been made (outs_before, chart)",
                        path + ("chart",))
    swung = step in _SWUNG_STEPS or window in ("on_result", "after_result")
    if swung and ab.result is None and not ab.ibb:
        raise SaveError(f"at step {step!r} the swing's result is known", path + ("result",))
    carried = step in ("double_play", "send_runners", "throw_at", "gold_glove",
                       "double_play_roll", "throw_roll", "finish_play") or \
        window == "after_result"
    if carried and (ab.outcome is None or ab.before is None):
        raise SaveError(f"at step {step!r} the result has been carried out", path + ("outcome",))
    if step in ("gold_glove", "double_play_roll", "throw_roll") and ab.throw_kind is None:
        raise SaveError(f"at step {step!r} a throw is being made", path + ("throw_kind",))
    if step == "throw_roll" or (step == "gold_glove" and ab.throw_kind == "extra_base"):
        _validate_sent(state, 0 < len(ab.sent) <= 2 and ab.thrown in ab.sent)
    if step == "finish_play" and ab.throw is not None and not ab.throw.scored_before <= len(ab.scored):
        raise SaveError("the runs before the throw are among those scored", path + ("throw",))


def _validate_sent(state: GameState, ok: bool) -> None:
    """The runners sent for an extra base are on second or third, lead runner first."""
    b = state.board
    eligible = [r for r in (b.bases[2], b.bases[1]) if r is not None]
    if not ok or list(state.ab.sent) != eligible[:len(state.ab.sent)]:
        raise SaveError(f"the runners sent are the lead runners on third and second "
                        f"{eligible}, got {list(state.ab.sent)}", ("ab", "sent"))


def _offered(state: GameState, d: Decision) -> tuple[int, tuple[int, ...], int] | None:
    """The (actor, legal actions, subject) of the ``d.kind`` decision the rules ask at this
    step, or None when they ask none of that kind here."""
    b = state.board
    ab = state.ab
    bt, ft = b.half, 1 - b.half
    step, kind = state.step, d.kind
    level = state.level
    if kind == "starting_pitcher":
        t = 0 if state.starter[0] < 0 else 1
        if step != "choose_starter" or state.starter[t] >= 0:
            return None
        return t, choose_player(tuple(starters_of(state, t)), False), -1
    if step in _SETUP_STEPS:
        return None
    if b.outs > 2 and kind != "play_card":
        return None
    yes = (PASS, YES)
    if kind == "pinch_hitter":
        if level == "basic" or not (step == "pitching_change" or (step == "pre_pitch" and ab.change)):
            return None
        options = pinch_hitter_options(state, bt, replaces_pinch_hitter=ab.ph_for is not None)
        return bt, (choose_player(options, True) if options else ()), state.order[bt]
    if kind == "pitching_change":
        if d.subject == 1:
            want = "defensive_replacement" if level == "expert" else "at_bat"
            if step != want or not state.needs_pitcher[ft] or state.pa_index:
                return None
            return ft, choose_player(tuple(bullpen(state, ft)), False), 1
        if step != "pinch_hitter_again" or level == "basic" or not can_remove_starter(state, ft):
            return None
        return ft, choose_player(tuple(bullpen(state, ft)), True), 0
    if kind == "relief_ace":
        k = state.pitcher[ft]
        ok = (step == "twenty_game" and b.inning > 6 and state.pa_index == 0 and level != "basic"
              and state.card(ft, k).role != "starter" and state.icons_left[ft][k].get("RP", 0) > 0)
        return (ft, yes, -1) if ok else None
    if kind == "twenty_game":
        ok = (step == "stolen_base" and level == "advanced"
              and "20" in state.card(ft, state.pitcher[ft]).icons
              and state.twenty_inning[ft] != b.inning
              and not isinstance(state.card(bt, state.batter_index), PitcherCard))
        return (ft, yes, -1) if ok else None
    if kind == "stolen_base":
        base = d.subject
        if step != "stolen_base" or level == "basic" or base not in (0, 1):
            return None
        k = b.bases[base]
        ok = (k is not None and b.bases[base + 1] is None and k in ab.sb_asked
              and state.icons_left[bt][k].get("SB", 0) > 0)
        return (bt, yes, base) if ok else None
    if kind in ("strikeout", "reroll_out", "silver_slugger", "home_run_icon"):
        if step != "result_icons" or level != "advanced" or ab.result is None:
            return None
        if kind == "strikeout":
            ok = ("K" in ab.icons_asked and ab.result != "SO"
                  and state.icons_left[ft][state.pitcher[ft]].get("K", 0) > 0)
            return (ft, yes, -1) if ok else None
        icon, want = BATTER_ICONS.get(ab.result, (None, None))
        ok = (want == kind and icon in ab.icons_asked
              and state.icons_left[bt][state.batter_index].get(icon, 0) > 0)
        return (bt, yes, -1) if ok else None
    if kind == "double_play":
        ok = (step == "double_play" and level != "basic" and b.bases[0] is not None
              and b.outs < 2 and ab.result == "GB" and not (ab.ibb or ab.bunt or ab.no_dp))
        return (ft, yes, -1) if ok else None
    if kind == "gold_glove":
        if step != "gold_glove" or level != "advanced" or not 0 <= d.subject < len(FIELD_POSITIONS):
            return None
        position = FIELD_POSITIONS[d.subject]
        group = INFIELD if ab.throw_kind == "double_play" else OUTFIELD
        if position not in group or position not in ab.glove_asked or position not in state.pos[ft]:
            return None
        k = state.fielder_at(ft, position)
        return (ft, yes, d.subject) if state.icons_left[ft][k].get("G", 0) > 0 else None
    if kind == "send_runners":
        eligible = list(ab.eligible)
        on = [r for r in (b.bases[2], b.bases[1]) if r is not None]
        ok = (step == "send_runners" and level != "basic" and not ab.hold
              and 1 <= len(eligible) <= 2 and all(r in on for r in eligible)
              and eligible == [r for r in on if r in eligible])
        return (bt, (PASS, SEND_LEAD) + ((SEND_BOTH,) if len(eligible) == 2 else ()), -1) \
            if ok else None
    if kind == "throw_at":
        if step != "throw_at" or len(ab.sent) != 2 or list(ab.sent) != list(ab.eligible):
            return None
        _validate_sent(state, True)
        return ft, (THROW_LEAD, THROW_TRAIL), -1
    if level != "expert":
        return None
    if kind == "pinch_runner":
        base = d.subject
        if step != "pinch_runner" or base not in (0, 1, 2) or base not in ab.pr_asked:
            return None
        r = b.bases[base]
        options = () if r is None else roster.pinch_runner_options(state, bt, r)
        return bt, (choose_player(options, True) if options else ()), base
    if kind == "defensive_replacement":
        if step != "defensive_replacement":
            return None
        options = roster.replacement_options(state, ft)
        dh = next((k for k, p in zip(state.lineup[ft], state.pos[ft]) if p == "DH"), -1)
        return ft, (choose_player(options, roster.can_field(state, ft)) if options else ()), dh
    if kind == "replaced_player":
        new = ab.incoming
        if step != "replaced_player" or new < 0:
            return None
        return ft, choose_player(roster.replaced_options(state, ft, new), False), new
    if kind == "batting_slot":
        i = ab.slots_placed
        if step != "batting_slot" or len(ab.sub_players) - i < 2:
            return None
        return ft, choose_player(tuple(sorted(ab.sub_old[i:])), False), ab.sub_players[i]
    if kind == "intentional_walk":
        return (ft, yes, -1) if step == "sacrifice_bunt" else None
    if kind == "sacrifice_bunt":
        return (bt, yes, -1) if step == "before_pitch" and b.bases[2] is None else None
    if not state.cards_on or step != "card_window" or not state.window:
        return None
    if kind == "play_card":
        team = state.window_turn
        if not state.hands[team]:
            return None
        options = cardplay.window_options(state, team, state.window)
        return team, (PASS,) + tuple(CARD + i for i in options), WINDOWS.index(state.window)
    if kind == "catcher_throw":
        stealers = ab.stealers
        on = [r for r in b.bases if r is not None]
        if not 1 <= len(stealers) <= 2 or not all(r in on for r in stealers):
            return None
        for r in stealers:
            if b.bases.index(r) == 2:
                return None
        return ft, ((PASS, YES) if len(stealers) == 1 else (PASS, THROW_LEAD, THROW_TRAIL)), -1
    return None


# ================================================================== setting up

ICON_USES = {"K": 1, "G": 1, "HR": 1, "V": 2, "SB": 1, "RP": 1, "S": 1}


_ICONS: dict[int, tuple[Team, tuple[dict[str, int], ...]]] = {}


def starting_icons(team: Team) -> list[dict[str, int]]:
    """Each player's icon uses at the start of a game (fresh dicts; the uses are read off
    the cards once per team object, teams being immutable)."""
    known = _ICONS.get(id(team))
    if known is None or known[0] is not team:
        uses = tuple({i: ICON_USES[i] for i in card.icons if i in ICON_USES}
                     for card in team.players)
        if len(_ICONS) > 1024:
            _ICONS.clear()
        known = _ICONS[id(team)] = (team, uses)
    return [left.copy() for left in known[1]]


def new_game(teams: tuple[Team, Team], dice: Dice | ScriptedDice, *, level: str = "advanced",
             dh: bool | None = None, starter: int | None = None, innings: int = 9,
             max_innings: int | None = None, play: bool = True,
             decks: tuple[Deck, Deck] | None = None, card_set: CardSet | None = None) -> GameState:
    """A game at its first decision.

    ``level`` is "basic", "advanced" or "expert" (the advanced rules without the icons'
    special abilities, with expert innings pitched, first base open to every hitter,
    intentional walks, sacrifice bunts, pinch runners, defensive replacements and double
    switches; with ``decks`` (two :class:`~.strategy.Deck` of ``card_set``'s cards) the
    strategy cards too: "Strategy cards are used only if you and your opponent both have
    strategy decks"). ``dh=None`` plays with a DH in the basic game (Basic Setup 4) and by the home team's
    rules in the advanced game (Advanced Game Setup 3); ``starter`` (1-4)
    fixes the rotation spot, otherwise the home team rolls for it (Setup 2) or, in the
    basic game, each manager chooses. With ``play=False`` (and a ``starter``) the game
    stops right after setting up, before the first at-bat, so a test can arrange a
    rulebook situation on the board and then ``run`` it with scripted dice.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    if (decks is None) != (card_set is None) or (decks is not None and level != "expert"):
        raise ValueError("strategy cards need level='expert', two decks and their card set")
    if starter is not None and (isinstance(starter, bool) or not isinstance(starter, int)
                                or starter not in (1, 2, 3, 4)):
        raise ValueError(f"starter must be a rotation spot 1-4, got {starter!r}")
    if not play and starter is None:
        raise ValueError("play=False needs a starter: choosing one is a decision")
    # Basic Setup 4 always has a DH; the advanced game plays by the home team's rules
    use_dh = (True if level == "basic" else teams[1].dh) if dh is None else dh
    board = Scoreboard(innings=innings, max_innings=max_innings)
    box = BoxScore([t.name for t in teams], [[], []])
    state = GameState(
        board=board, dice=dice, box=box, log=PlayLog(), teams=teams, level=level, dh=use_dh,
        lineup=[[], []], pos=[[], []], pitcher=[-1, -1], starter=[-1, -1],
        used=[[False] * ROSTER for _ in range(2)], batted=[[False] * ROSTER for _ in range(2)],
        innings_pitched=[[[] for _ in range(ROSTER)] for _ in range(2)],
        runs_charged=[[0] * ROSTER for _ in range(2)], ip_bonus=[[0] * ROSTER for _ in range(2)],
        icons_left=[starting_icons(t) if level != "expert" else [{} for _ in t.players]
                    for t in teams],
        twenty_inning=[0, 0], relief_ace_inning=[0, 0], responsible={},
        box_line=[{}, {}], pitch_line=[{}, {}])
    if decks is not None:
        state.card_set = card_set
        state.decks_given = [decks[0].cards(), decks[1].cards()]
    setup(state, starter)
    if play:
        run(state)
        return state
    while state.step != "start_half":
        RULES[state.step](state)
    return state


def setup(state: GameState, spot: int | None) -> None:
    """Basic Setup 3-5 / Advanced Game Setup 2-5: the starting pitchers and the lineups.

    Advanced: the home team rolls for the rotation spot (both teams' starters from it).
    Basic: each manager chooses his starter ("Choose 1 of them to be this game's starting
    pitcher"), away first. The ``starter`` option fixes the ``spot`` at either level.
    """
    if spot is None and state.level != "basic":
        state.dice.set_stream(0, 0)
        spot = rotation_spot(state.dice.roll("rotation", sides=20)) + 1
    set_lineups(state, spot)


def choose_starter_step(state: GameState) -> None:
    for t in (0, 1):
        if state.starter[t] < 0:
            ask(state, "starting_pitcher", t, choose_player(tuple(starters_of(state, t)), False))
            return
    state.step = "play_ball"


def choose_starting_pitcher(state: GameState, decision: Decision, action: int) -> None:
    state.starter[decision.actor] = action - PLAYER


def play_ball(state: GameState) -> None:
    """Basic Setup 6: starters on the mound, batting lines for everyone in the lineups."""
    starters_take_the_mound(state)
    state.half_track = {}
    if state.cards_on:
        cardplay.shuffle_decks(state)
    state.step = "start_half"


# ================================================================== the loop

def option_labels(state: GameState, decision: Decision) -> dict[int, str]:
    """What each legal action means at this decision, in the rulebook's words."""
    team = decision.actor
    out = {}
    for a in decision.legal:
        if a >= CARD:
            card = state.card_set.cards[a - CARD]
            out[a] = f"play {card.name}: {card.text}"
        elif decision.kind == "catcher_throw" and a != PASS:
            out[a] = {YES: "throw at the runner", THROW_LEAD: "throw at the lead runner",
                      THROW_TRAIL: "throw at the trailing runner"}[a]
        elif PLAYER <= a < SEND_LEAD:
            card = state.card(team, a - PLAYER)
            if decision.kind == "pinch_hitter":
                out[a] = f"pinch hit {card.name} (On-Base {card.on_base}, Speed {card.speed})"
            elif decision.kind == "pinch_runner":
                out[a] = f"pinch run {card.name} (Speed {card.speed})"
            elif decision.kind == "defensive_replacement":
                out[a] = (f"{card.name}, the DH, takes the field (the DH is lost)"
                          if a - PLAYER == decision.subject else f"bring in {card.name} to field")
            elif decision.kind == "replaced_player":
                out[a] = f"{card.name} makes way"
            elif decision.kind == "batting_slot":
                out[a] = f"bats in {card.name}'s spot"
            elif decision.kind == "starting_pitcher":
                out[a] = f"start {card.name} (Control {card.control}, IP {card.ip})"
            else:
                out[a] = f"bring in {card.name} ({card.role}, Control {card.control}, IP {card.ip})"
        elif a == PASS:
            out[a] = {"pinch_hitter": "no pinch hitter", "pitching_change": "no pitching change",
                      "send_runners": "hold the runners", "double_play": "no double-play attempt",
                      "pinch_runner": "no pinch runner",
                      "defensive_replacement": "no (more) defensive replacements",
                      "intentional_walk": "pitch to him", "sacrifice_bunt": "swing away",
                      "play_card": "pass", "catcher_throw": "let them run"
                      }.get(decision.kind, "don't use it")
        elif a == YES:
            out[a] = {"double_play": "try for the double play",
                      "stolen_base": "steal (SB icon)",
                      "intentional_walk": "walk him intentionally",
                      "sacrifice_bunt": "sacrifice bunt"}.get(decision.kind, "use it")
        else:
            out[a] = ACTIONS[a]
    return out


def action_labels(card_set: CardSet | None) -> tuple[str, ...]:
    """Every action's meaning: :data:`ACTIONS`, then one "play" action per card of the set."""
    if card_set is None:
        return ACTIONS
    return ACTIONS + tuple(f"play {name}" for name in card_set.names)


def apply_action(state: GameState, action: int) -> None:
    """Apply the pending decision's choice, then play on to the next decision."""
    decision = take_decision(state, action, action_labels(state.card_set))
    CHOICES[decision.kind](state, decision, action)
    run(state)


def run(state: GameState) -> None:
    """Apply rules until a manager must decide or the game is over (a walk-off still
    finishes its play, so the box score counts it)."""
    rules = RULES
    while state.pending is None:
        step = state.step
        if step == "over":
            return
        rules[step](state)


def ask(state: GameState, kind: str, actor: int, legal: tuple[int, ...], subject: int = -1) -> None:
    """Manager ``actor`` must decide: ``state.pending``. Decisions are immutable values, so
    the same question is asked with the same object each time (the env's per-decision
    infos are looked up by it)."""
    key = (kind, actor, legal, subject)
    decision = _DECISIONS.get(key)
    if decision is None:
        if len(_DECISIONS) > 4096:
            _DECISIONS.clear()
        decision = _DECISIONS[key] = Decision(kind, actor, legal, subject)
    state.pending = decision


_DECISIONS: dict[tuple, Decision] = {}


@lru_cache(maxsize=4096)
def choose_player(players: tuple[int, ...], may_pass: bool) -> tuple[int, ...]:
    """The legal actions of a choice among roster ``players``: PLAYER + k for each, after
    PASS when the manager may choose nobody."""
    return ((PASS,) if may_pass else ()) + tuple(PLAYER + k for k in players)


# ================================================================== half innings

def start_half(state: GameState) -> None:
    """"When a team's turn at the plate is over, the defense first checks to see that it
    can field all the positions" (and brings in a pitcher if it hit for its own)."""
    t = state.fielding_team
    state.pa_index = 0
    state.ab = new_at_bat()             # no at-bat yet: nothing of the last one shows
    state.half_track = {"pitcher": -1, "batters": 0, "reached": 0, "multi_out": 0}
    if state.level == "expert":         # defensive replacements "whenever your team takes the field"
        state.ab.sub_then = "draw_cards" if state.cards_on else "at_bat"
        state.step = "defensive_replacement"
    else:
        take_the_field(state, t)
        state.step = "at_bat"
    if state.needs_pitcher[t]:
        ask(state, "pitching_change", t, choose_player(tuple(bullpen(state, t)), False),
            subject=1)


def at_bat(state: GameState) -> None:
    """A new at-bat: its dice come from its own stream (half inning, at-bat number)."""
    state.dice.set_stream(state.board.half_index, state.pa_index)
    state.ab = new_at_bat()
    state.step = ("pre_pitch" if state.level == "basic" else
                  "pinch_runner" if state.level == "expert" else "pinch_hitter")


def draw_cards(state: GameState) -> None:
    """"When a team's turn at the plate is over, the defense first checks to see that it can
    field all the positions (and makes substitutions if it can't), then both managers draw a
    card, and then the first at-bat starts"."""
    for t in (0, 1):
        cardplay.draw(state, t, 1)
    state.step = "at_bat"


def end_at_bat(state: GameState) -> None:
    b = state.board
    if state.cards_on:
        cardplay.end_of_at_bat(state)
    t = b.half
    state.order[t] = (state.order[t] + 1) % 9
    state.pa_index += 1
    state.step = "over" if b.over else "end_half" if b.outs == 3 else "at_bat"


def end_half(state: GameState) -> None:
    """Three outs: Cy Young's 1-2-3 inning, then the next half (or the end of the game)."""
    b = state.board
    t = state.fielding_team
    track = state.half_track
    k = state.pitcher[t]
    if (state.level == "advanced" and "CY" in state.card(t, k).icons and track.get("pitcher") == k
            and track.get("batters") == 3 and not track.get("reached") and not track.get("multi_out")):
        state.ip_bonus[t][k] += 1
        _note(state, "cy_young", k)
    state.plus_runner = -1
    state.responsible = {}
    if state.cards_on:
        cardplay.end_of_half(state)
    b.end_half()
    state.step = "over" if b.over else "start_half"


# ================================================================== substitutions
# At-Bat Sequence 1-3; who may come in, and where he goes, is roster.py's.

def offer_pinch_hitter(state: GameState, again: bool) -> None:
    """Step 1, and step 3: "If the defense does bring in a pitcher, the offense may send in
    another pinch hitter, even if one was already sent up in step 1"."""
    ab = state.ab
    if again:
        state.step = "pre_pitch"
        if not ab.change:
            return
    else:
        state.step = "pitching_change"
    t = state.board.half
    options = pinch_hitter_options(state, t, replaces_pinch_hitter=ab.ph_for is not None)
    if options:
        ask(state, "pinch_hitter", t, choose_player(options, True), subject=state.order[t])


def pinch_hitter_step(state: GameState) -> None:
    offer_pinch_hitter(state, again=False)


def pinch_hitter_again_step(state: GameState) -> None:
    offer_pinch_hitter(state, again=True)


def choose_pinch_hitter(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        return
    t = decision.actor
    new = action - PLAYER
    old = pinch_hit(state, t, new)
    state.ab.ph_for = state.order[t]
    _note(state, "pinch_hitter", new, detail=str(old))


def pitching_change_step(state: GameState) -> None:
    """Step 2: the defense may bring in a pitcher; step 3 (another pinch hitter) follows only
    when it could have."""
    t = 1 - state.board.half
    state.step = "pre_pitch"
    if not can_remove_starter(state, t):
        return
    options = bullpen(state, t)
    if options:
        state.step = "pinch_hitter_again"
        ask(state, "pitching_change", t, choose_player(tuple(options), True), subject=0)


def choose_pitching_change(state: GameState, decision: Decision, action: int) -> None:
    """Step 2, or the pitcher a team must bring in when it takes the field (subject 1)."""
    if action == PASS:
        return
    new = action - PLAYER
    t = decision.actor
    slot = state.pitcher_slot[t]
    old_in_slot = state.lineup[t][slot] if slot >= 0 else -1
    old = change_pitcher(state, t, new)
    charge_inning(state, t, new)        # "it counts as 1 full inning against his IP"
    if decision.subject != 1:
        state.ab.change = True
    _note(state, "pitching_change", new, detail=str(old))
    if state.level == "expert":
        # "You can also combine 2 or more defensive replacements and pitching changes into
        # a single substitution" (Expert Substitutions)
        ab = state.ab
        if slot >= 0:
            ab.sub_players += (new,)
            ab.sub_old += (old_in_slot,)
            ab.sub_slots += (slot,)
        if decision.subject != 1:
            ab.sub_then = state.step
            state.step = "defensive_replacement"


# ================================================================== before the pitch

def pre_pitch(state: GameState) -> None:
    """The 1B+ steal happens "Immediately before the next pitch"."""
    b = state.board
    k = state.plus_runner
    state.plus_runner = -1
    if k >= 0 and b.bases[0] == k and b.bases[1] is None:
        before = b.bases
        b.bases = (None, k, b.bases[2])
        state.box.stolen_base(b.half, state.box_line[b.half][k])
        _log(state, "steal", k, 1, None, before, (), "1B+")
    state.step = "intentional_walk" if state.level == "expert" else "relief_ace"


# ================================================================== strategy cards
# The card windows (At-Bat Sequence 5, 7 and 9) and what the effects do; decks, hands and
# who may play what are cardplay.py's.

def open_window(state: GameState, window: str, then: str) -> None:
    """"Take turns playing a strategy card or passing" (the defense first) until both pass
    back-to-back; then ``then``. Without decks there is no window."""
    if not state.cards_on:
        state.step = then
        return
    state.window = window
    state.window_turn = state.fielding_team
    state.window_passes = 0
    state.window_then = then
    state.step = "card_window"


def card_window(state: GameState) -> None:
    """A manager holding cards is asked even when none may be played now (he can only
    pass): whether he is asked must not tell his opponent what his hand holds. An empty
    hand (its size is public) passes unasked."""
    team = state.window_turn
    if state.hands[team]:
        options = cardplay.window_options(state, team, state.window)
        ask(state, "play_card", team, (PASS,) + tuple(CARD + i for i in options),
            subject=WINDOWS.index(state.window))
        return
    pass_turn(state)


def pass_turn(state: GameState) -> None:
    state.window_passes += 1
    if state.window_passes >= 2:
        close_window(state)
    else:
        state.window_turn = 1 - state.window_turn


def choose_play_card(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        pass_turn(state)
        return
    team = decision.actor
    state.window_passes = 0
    state.window_turn = 1 - team
    name = state.card_set.cards[action - CARD].name
    _log(state, "card", team, -1, None, state.board.bases, (), name)
    cardplay.play(state, team, action - CARD, card_effects)
    after_card_play(state)


def after_card_play(state: GameState) -> None:
    """A card's out may end the half inning, a card's run the game: the window closes."""
    b = state.board
    if state.pending is not None or (b.outs < 3 and not b.over):
        return
    if state.window == "before_pitch":
        retired_before_the_pitch(state)
    else:
        close_window(state)


def close_window(state: GameState) -> None:
    state.step = state.window_then
    state.window, state.window_turn, state.window_then = "", -1, ""
    state.window_passes = 0


def retired_before_the_pitch(state: GameState) -> None:
    """A card's out ended the half inning before the pitch: the batter's at-bat never
    happened (he leads off next time)."""
    cardplay.end_of_at_bat(state)
    state.window, state.window_turn, state.window_then = "", -1, ""
    state.window_passes = 0
    state.pending = None
    state.step = "end_half"


def card_effects(state: GameState, team: int, effects) -> None:
    """Carry out a card's effects in order ("do everything it says to do")."""
    ab = state.ab
    for e in effects:
        do = e.do
        if do in ("pitch", "swing", "edge", "throw_bonus", "dp_bonus", "catcher_bonus"):
            cardplay.add_mod(state, team, e)
        elif do == "reroll_swing":
            roll_swing(state)
        elif do == "result":
            ab.result = e.to
        elif do == "check":
            fielding_check(state, e, team)
        elif do == "advance":
            card_advance(state, e.runners, e.bases)
        elif do == "runner_out":
            card_runner_out(state, e.runners)
        elif do == "steal":
            card_steal(state, e.runners, e.throw)
        elif do == "draw":
            cardplay.draw(state, team, e.n)
        elif do == "discard":
            cardplay.discard_at_random(state, 1 - team, e.n)
        elif do == "ip":
            ft = state.fielding_team
            state.ip_bonus[ft][state.pitcher[ft]] += e.by
        elif do == "no_double_play":
            ab.no_dp = True
        elif do == "hold_runners":
            ab.hold = True
        if state.board.outs == 3 or state.board.over or state.pending is not None:
            return                          # (a steal's throw is always a card's last effect)


def fielding_check(state: GameState, e, team: int) -> None:
    """"the defense rolls a die and adds the requested players' total Fielding to the roll.
    If the total is 21 or more, the check passes" (a card's bonus added)."""
    roll = state.dice.roll("check", sides=20)
    total = roll + cardplay.fielding_check_total(state, e.positions) + e.bonus
    passed = total >= 21
    _log(state, "fielding_check", state.fielding_team, -1, roll, state.board.bases, (),
         f"{total} {'passes' if passed else 'fails'}")
    if passed == (e.on == "pass"):
        card_effects(state, team, e.then)


def _runners_lead_first(bases) -> list[int]:
    return [r for r in (bases[2], bases[1], bases[0]) if r is not None]


def card_advance(state: GameState, runners: str, n: int) -> None:
    """Runners move up ``n`` bases with no throw (lead runner first; a runner blocked by
    one who stays, stays)."""
    b = state.board
    before = b.bases
    movers = _runners_lead_first(cardplay.runners_on(state))       # never the batter
    if runners == "third":
        movers = [before[2]] if before[2] is not None else []
    elif runners == "lead":
        movers = movers[:1]
    new = list(before)
    scored = []
    for r in movers:
        base = new.index(r)
        new[base] = None
        target = base + n
        if target >= 3:
            scored.append(r)
        elif new[target] is None:
            new[target] = r
        else:
            new[base] = r
    b.bases = (new[0], new[1], new[2])
    counted = b.score(scored)
    charge_runs(state, counted)
    _log(state, "card_advance", -1, -1, None, before, tuple(counted))


def charge_runs(state: GameState, scored) -> None:
    """Runs scored (on a play or off a card): the runners' batting lines, and each run
    charged "to the player who was pitching when that batter reached base"."""
    if not scored:
        return
    bt = state.board.half
    ft = 1 - bt
    p = state.pitcher[ft]
    state.box.runs_scored(bt, [state.box_line[bt][r] for r in scored])
    for r in scored:
        charged = state.responsible.pop(r, p)
        state.runs_charged[ft][charged] += 1
        state.box.pitching[ft][state.pitch_line[ft][charged]].r += 1


def card_runner_out(state: GameState, runners: str) -> None:
    b = state.board
    before = b.bases
    on = cardplay.runners_on(state)                                  # never the batter
    if runners == "first":
        r = on[0]
    else:
        lead = _runners_lead_first(on)
        r = lead[0] if lead else None
    if r is None:
        return
    new = [None if x == r else x for x in before]
    b.bases = (new[0], new[1], new[2])
    state.responsible.pop(r, None)
    card_out(state)
    _log(state, "card_out", r, before.index(r), None, before, ())


def card_out(state: GameState) -> None:
    """An out a card makes outside the result: on the board and on the pitcher's line."""
    ft = state.fielding_team
    state.board.add_outs(1)
    state.box.pitching[ft][state.pitch_line[ft][state.pitcher[ft]]].outs += 1


def card_steal(state: GameState, runners: str, throw: bool) -> None:
    """"If a strategy card lets a runner try to steal, the catcher can try to throw him out
    ... Some strategy cards don't allow this throw. If a card lets 2 runners try to steal,
    the catcher's manager chooses who to try to throw out" (``catcher_throw``)."""
    stealers = cardplay.stealers(state, runners)
    if not stealers:
        return
    state.ab.stealers = stealers
    if not throw:
        steal_bases(state, thrown=-1)
        return
    legal = (PASS, YES) if len(stealers) == 1 else (PASS, THROW_LEAD, THROW_TRAIL)
    ask(state, "catcher_throw", state.fielding_team, legal)     # then back to the window


def choose_catcher_throw(state: GameState, decision: Decision, action: int) -> None:
    stealers = state.ab.stealers
    thrown = (-1 if action == PASS else stealers[0] if action in (YES, THROW_LEAD)
              else stealers[1])
    steal_bases(state, thrown)
    after_card_play(state)


def steal_bases(state: GameState, thrown: int) -> None:
    """The stealers move up, lead runner first; the catcher's throw at ``thrown``: "rolls a
    die, adds the catcher's Arm bonus, and adds +5 if the runner is trying to steal third.
    If the total beats the runner's Speed, the runner is out"."""
    b = state.board
    bt, ft = state.batting_team, state.fielding_team
    stealers = state.ab.stealers
    state.ab.stealers = ()
    for r in stealers:
        before = b.bases
        base = before.index(r)
        new = list(before)
        new[base] = None
        if r == thrown:
            arm = state.card(ft, state.fielder_at(ft, "C")).fielding("C") or 0
            roll = state.dice.roll("catcher", sides=20)
            total = (roll + arm + (5 if base + 1 == 2 else 0)
                     + cardplay.bonus(state, "catcher_bonus"))
            if total > state.card(bt, r).speed:
                b.bases = (new[0], new[1], new[2])
                state.responsible.pop(r, None)
                state.box.caught_stealing(bt, state.box_line[bt][r])
                card_out(state)
                _log(state, "caught_stealing", r, base + 1, roll, before, (), f"{total}")
                if b.outs == 3:
                    return
                continue
        new[base + 1] = r
        b.bases = (new[0], new[1], new[2])
        state.box.stolen_base(bt, state.box_line[bt][r])
        _log(state, "steal", r, base + 1, None, before, (), "card")


def roll_swing(state: GameState) -> None:
    """The swing on the chart the pitch chose, read with the cards' swing bonus."""
    roll = state.dice.roll("swing", sides=20)
    ab = state.ab
    bt = state.board.half
    if ab.chart == "P":
        chart = state.card(1 - bt, state.pitcher[1 - bt]).chart
    else:
        chart = state.card(bt, state.batter_index).chart
    ab.swing = roll
    ab.result = chart.result(cardplay.chart_roll(roll, cardplay.swing_bonus(state))
                             if state.cards_on else roll)


def fatigue(state: GameState, team: int, k: int) -> int:
    """"subtract 1 from every pitch he rolls for each extra inning in which he's pitched":
    the penalty on his next pitch, which is in the current inning: the innings he has
    pitched in, this one included, beyond IP (and Cy Young's bonus innings)."""
    if state.level == "basic":
        return 0
    pitched = state.innings_pitched[team][k]
    innings = len(pitched) + (0 if pitched and pitched[-1] == state.board.inning else 1)
    ip = state.card(team, k).ip + state.ip_bonus[team][k]
    if state.level == "expert":
        # Expert Innings Pitched: "for every 3 runs charged to a pitcher, his IP goes down
        # by 1"; below 0 it "doesn't do anything" (RULES.md)
        ip = max(0, ip - state.runs_charged[team][k] // 3)
    return max(0, innings - ip)


def effective_control(state: GameState, team: int, k: int) -> int:
    """Control plus icon bonuses; fatigue comes off the total, not Control (kept apart)."""
    control = state.card(team, k).control
    if state.relief_ace_inning[team] == state.board.inning and state.relief_ace_pitcher[team] == k:
        control += 3
    if state.ab.twenty:
        control += 3
    return control


def relief_ace_step(state: GameState) -> None:
    """RP: "Once per game, a reliever or closer with the RP icon may add +3 to his Control
    for any 1 full inning after the 6th inning" (offered at the inning's first at-bat)."""
    state.step = "twenty_game"
    b = state.board
    if b.inning > 6 and state.pa_index == 0 and state.level != "basic":
        t = 1 - b.half
        k = state.pitcher[t]
        if state.card(t, k).role != "starter" and state.icons_left[t][k].get("RP", 0) > 0:
            ask(state, "relief_ace", t, (PASS, YES))


def choose_relief_ace(state: GameState, decision: Decision, action: int) -> None:
    if action == YES:
        t = decision.actor
        k = state.pitcher[t]
        state.icons_left[t][k]["RP"] -= 1
        state.relief_ace_inning[t] = state.board.inning
        state.relief_ace_pitcher[t] = k
        _note(state, "icon_RP", k)


def twenty_game_step(state: GameState) -> None:
    """20: "One pitch per inning, a pitcher with the 20 icon may add +3 to his Control"."""
    b = state.board
    bt = b.half
    t = 1 - bt
    state.step = "stolen_base"
    if (state.level == "advanced" and "20" in state.card(t, state.pitcher[t]).icons
            and state.twenty_inning[t] != b.inning
            and not isinstance(state.card(bt, state.batter_index), PitcherCard)):
        ask(state, "twenty_game", t, (PASS, YES))


def choose_twenty_game(state: GameState, decision: Decision, action: int) -> None:
    if action == YES:
        state.twenty_inning[decision.actor] = state.board.inning
        state.ab.twenty = True
        _note(state, "icon_20", state.pitcher[decision.actor])


def stolen_base_step(state: GameState) -> None:
    """SB: "Once per game, a player with the SB icon may steal a base (not home) without a
    throw. (You can steal a base only if it's open.)" Lead runner asked first."""
    b = state.board
    t = b.half
    state.step = "pitch"
    if state.level == "basic":
        return
    for base in (1, 0):
        k = b.bases[base]
        if (k is not None and b.bases[base + 1] is None and k not in state.ab.sb_asked
                and state.icons_left[t][k].get("SB", 0) > 0):
            state.ab.sb_asked += (k,)
            state.step = "stolen_base"
            ask(state, "stolen_base", t, (PASS, YES), subject=base)
            return


def choose_stolen_base(state: GameState, decision: Decision, action: int) -> None:
    if action != YES:
        return
    b = state.board
    t = decision.actor
    base = decision.subject
    k = b.bases[base]
    state.icons_left[t][k]["SB"] -= 1
    before = b.bases
    new = list(before)
    new[base], new[base + 1] = None, k
    b.bases = (new[0], new[1], new[2])
    state.box.stolen_base(t, state.box_line[t][k])
    _log(state, "steal", k, base + 1, None, before, (), "SB")


# ================================================================== the pitch and the swing

def pitcher_advantage_probability(control: int, fatigue_: int, on_base: int) -> float:
    """P(d20 + Control - fatigue > On-Base)."""
    return chance_d20_beats(control - fatigue_, on_base)


def throw_target(speed: int, going_home: bool, two_outs_before: bool) -> int:
    """Extra Bases 2: the runner's Speed, +5 going home, +5 with two outs before the swing."""
    return speed + (5 if going_home else 0) + (5 if two_outs_before else 0)


def pitch(state: GameState) -> None:
    """The Pitch: d20 + Control (- fatigue) against On-Base; higher is the pitcher's
    advantage, a tie or lower the batter's. A pitcher batting never has the advantage
    ("so there is no pitch")."""
    bt = state.board.half
    ft = 1 - bt
    ab = state.ab
    k = face_batter(state)
    batter = state.card(bt, state.batter_index)
    if isinstance(batter, PitcherCard):
        ab.pitch = None
        ab.chart = "P"
    else:
        roll = state.dice.roll("pitch", sides=20)
        total = roll + effective_control(state, ft, k) - fatigue(state, ft, k)
        if state.cards_on:
            total += cardplay.pitch_bonus(state)
        ab.pitch = total
        ab.chart = "P" if total > batter.on_base else "B"
    state.step = "swing"


def charge_inning(state: GameState, team: int, k: int) -> None:
    """The inning now counts against pitcher ``k``'s IP (once)."""
    innings = state.innings_pitched[team][k]
    if not innings or innings[-1] != state.board.inning:
        innings.append(state.board.inning)


def face_batter(state: GameState) -> int:
    """The pitcher faces the batter (a pitch, an intentional walk or a bunt): he is charged
    the inning; returns him."""
    b = state.board
    ft = 1 - b.half
    k = state.pitcher[ft]
    charge_inning(state, ft, k)           # a pitcher who pitches in an inning is charged it
    track = state.half_track
    if track.get("pitcher", -1) == -1:
        track["pitcher"] = k
    state.ab.outs_before = b.outs
    return k


def swing(state: GameState) -> None:
    """The Swing: d20 on the chart of whoever has the advantage."""
    roll_swing(state)
    state.ab.icons_asked = ()
    state.step = "result_icons"


def result_icons(state: GameState) -> None:
    """Icons on a result, the defense first (At-Bat Sequence 7); the expert game's cards
    "on" a result."""
    state.step = "carry_out"
    if state.level == "basic":
        return
    if state.cards_on:
        open_window(state, "on_result", "carry_out")
        return
    ab = state.ab
    result = ab.result
    bt = state.board.half
    ft = 1 - bt
    p = state.pitcher[ft]
    if "K" not in ab.icons_asked and result != "SO" and state.icons_left[ft][p].get("K", 0) > 0:
        ab.icons_asked += ("K",)
        state.step = "result_icons"
        ask(state, "strikeout", ft, (PASS, YES))
        return
    batter_icon = BATTER_ICONS.get(result)
    if batter_icon is not None:
        icon, kind = batter_icon
        if (icon not in ab.icons_asked
                and state.icons_left[bt][state.lineup[bt][state.order[bt]]].get(icon, 0) > 0):
            ab.icons_asked += (icon,)
            state.step = "result_icons"
            ask(state, kind, bt, (PASS, YES))


#: The batter's icon a result may use, and its decision: V rerolls an out, S makes a single
#: a double, HR makes a double or a triple a home run.
BATTER_ICONS = {**{r: ("V", "reroll_out") for r in OUT_RESULTS},
                "1B": ("S", "silver_slugger"), "1B+": ("S", "silver_slugger"),
                "2B": ("HR", "home_run_icon"), "3B": ("HR", "home_run_icon")}


def choose_strikeout(state: GameState, decision: Decision, action: int) -> None:
    """K: "Once per game ... may change any result to a strikeout (SO)"."""
    if action == YES:
        p = state.pitcher[decision.actor]
        state.icons_left[decision.actor][p]["K"] -= 1
        state.ab.result = "SO"
        _note(state, "icon_K", p)


def choose_reroll(state: GameState, decision: Decision, action: int) -> None:
    """V: "Twice per game, a player with the V icon may reroll any out result"."""
    if action == YES:
        k = state.batter_index
        state.icons_left[decision.actor][k]["V"] -= 1
        _note(state, "icon_V", k)
        state.step = "swing"


def _upgrade(state: GameState, decision: Decision, action: int, icon: str, result: str) -> None:
    if action == YES:
        k = state.batter_index
        state.icons_left[decision.actor][k][icon] -= 1
        state.ab.result = result
        _note(state, f"icon_{icon}", k)


def choose_silver_slugger(state: GameState, decision: Decision, action: int) -> None:
    """S: "Once per game ... may change any single (1B) or single+ (1B+) result to a double"."""
    _upgrade(state, decision, action, "S", "2B")


def choose_home_run_icon(state: GameState, decision: Decision, action: int) -> None:
    """HR: "Once per game ... may change any double (2B) or triple (3B) result to a home run"."""
    _upgrade(state, decision, action, "HR", "HR")


# ================================================================== carrying out the result

def carry_out(state: GameState) -> None:
    """Swing Result Chart: every result; the advanced game's double plays and extra bases."""
    b = state.board
    ab = state.ab
    result = ab.result
    ab.before = b.bases
    ab.scored = ()
    ab.outcome = result
    track = state.half_track
    track["batters"] = track.get("batters", 0) + 1
    k = state.lineup[b.half][state.order[b.half]]
    state.step = "finish_play"
    if ab.ibb:
        face_batter(state)
        intentional_walk(state, k)
    elif ab.bunt:
        sacrifice_bunt(state)
    elif result in HIT_BASES:
        hit(state, k, HIT_BASES[result])
    elif result == "BB":
        walk(state, k)
    elif result == "GB":
        ground_ball(state)
    elif result == "FB":
        fly_ball(state)
    else:                              # PU, SO: "he's out. Runners stay where they are."
        out_at_plate(state)


def _score(state: GameState, runners: list[int], home_run: bool = False) -> None:
    counted = state.board.score(list(runners), home_run=home_run)
    state.ab.scored += tuple(counted)


def out_at_plate(state: GameState) -> None:
    state.board.add_outs(1)


def walk(state: GameState, k: int) -> None:
    """BB: the batter to first; only forced runners move."""
    b = state.board
    b.bases, scored = force_advance(b.bases, k)
    state.half_track["reached"] = 1
    state.responsible[k] = state.pitcher[state.fielding_team]
    _score(state, scored)


def hit(state: GameState, k: int, bases: int) -> None:
    """1B, 1B+, 2B, 3B, HR: every runner advances as many bases as the batter."""
    b = state.board
    before = b.bases
    b.bases, scored = advance_all(before, bases, k)
    state.half_track["reached"] = 1
    state.responsible[k] = state.pitcher[state.fielding_team]
    _score(state, scored, home_run=bases == 4)
    if b.over:
        return
    if state.ab.result == "1B+":
        state.plus_runner = k
    if state.level != "basic" and bases in (1, 2):
        # "if a runner advances to second or third on a hit ... you may have one or more of
        # those runners try for an extra base"
        runners = [r for r in (b.bases[2], b.bases[1]) if r is not None and r != k
                   and r in before]
        offer_extra_bases(state, runners)


def fly_ball(state: GameState) -> None:
    """FB: the batter is out. Advanced: if not the third out, the runners on third and
    second (if third is open, or its runner goes too) may tag up for an extra base."""
    b = state.board
    b.add_outs(1)
    if state.level == "basic" or b.outs == 3:
        return
    runners = [r for r in (b.bases[2], b.bases[1]) if r is not None]
    offer_extra_bases(state, runners)


def ground_ball(state: GameState) -> None:
    """GB. Basic: an out, nobody moves. Advanced: runners on second and third advance; with
    a runner on first the runner is out and the defense may try to turn two."""
    b = state.board
    if state.level == "basic":
        b.add_outs(1)
        return
    if b.bases[0] is None or b.outs == 2:
        # first base empty, or the force at second is the third out
        lead_out = b.bases[0] is not None
        if lead_out:
            b.bases = (None, b.bases[1], b.bases[2])
            state.ab.outcome = "FC"
        b.add_outs(1)
        if b.outs < 3:
            advance_on_ground_ball(state)
        return
    if state.ab.no_dp:                  # a card: "no double play can be turned"
        choose_double_play(state, None, PASS)
        return
    state.step = "double_play"
    ask(state, "double_play", state.fielding_team, (PASS, YES))


def advance_on_ground_ball(state: GameState) -> None:
    """"Runners on second and third always advance on a ground ball, but don't score if the
    ground ball leads to the third out." (not an extra-base attempt: no throw)."""
    b = state.board
    first, second, third = b.bases
    scored = [third] if third is not None else []
    b.bases = (first, None, second)
    _score(state, scored)


def choose_double_play(state: GameState, decision: Decision, action: int) -> None:
    """"The runner who was on first is always out, and the defense rolls to see if the
    infield can then throw the batter out": d20 + infield Fielding beats the batter's Speed."""
    b = state.board
    b.bases = (None, b.bases[1], b.bases[2])
    b.add_outs(1)
    state.ab.outcome = "FC"
    if action == YES:
        state.ab.throw_kind = "double_play"
        state.step = "gold_glove"
    else:
        finish_ground_ball(state, batter_out=False)


def finish_ground_ball(state: GameState, batter_out: bool) -> None:
    b = state.board
    k = state.batter_index
    if batter_out:
        b.add_outs(1)
        state.ab.outcome = "DP"
        state.half_track["multi_out"] = 1
    else:
        b.bases = (k, b.bases[1], b.bases[2])
        state.responsible[k] = state.pitcher[state.fielding_team]
        state.half_track["reached"] = 1
    if b.outs < 3:
        advance_on_ground_ball(state)
    state.step = "finish_play"


# ---------------------------------------------------------------- extra bases

def offer_extra_bases(state: GameState, runners: list[int]) -> None:
    """Runners who may try for an extra base, lead runner first; the batting manager sends."""
    if not runners or state.ab.hold:
        return
    state.ab.eligible = tuple(runners)
    legal = (PASS, SEND_LEAD) + ((SEND_BOTH,) if len(runners) == 2 else ())
    state.step = "send_runners"
    ask(state, "send_runners", state.batting_team, legal)


def choose_send(state: GameState, decision: Decision, action: int) -> None:
    eligible = state.ab.eligible
    if action == PASS:
        state.step = "finish_play"
        return
    sent = eligible[:1] if action == SEND_LEAD else eligible[:2]
    state.ab.sent = sent
    if len(sent) == 1:
        state.ab.thrown = sent[0]
        start_throw(state)
    else:
        state.step = "throw_at"
        ask(state, "throw_at", state.fielding_team, (THROW_LEAD, THROW_TRAIL))


def choose_throw(state: GameState, decision: Decision, action: int) -> None:
    sent = state.ab.sent
    state.ab.thrown = sent[0] if action == THROW_LEAD else sent[1]
    start_throw(state)


def start_throw(state: GameState) -> None:
    state.ab.throw_kind = "extra_base"
    state.step = "gold_glove"


def gold_glove_step(state: GameState) -> None:
    """G: "Once per game, a player with the G icon may add +10 to his Fielding when on
    defense": offered to each fielder in the play (infield on a double play, outfield on
    a throw) before the roll."""
    t = state.fielding_team
    ab = state.ab
    positions = INFIELD if ab.throw_kind == "double_play" else OUTFIELD
    for i, position in enumerate(positions):
        k = state.fielder_at(t, position)
        if position not in ab.glove_asked and state.icons_left[t][k].get("G", 0) > 0:
            ab.glove_asked += (position,)
            ask(state, "gold_glove", t, (PASS, YES), subject=FIELD_POSITIONS.index(position))
            return
    state.step = "double_play_roll" if ab.throw_kind == "double_play" else "throw_roll"


def choose_gold_glove(state: GameState, decision: Decision, action: int) -> None:
    if action == YES:
        t = decision.actor
        k = state.fielder_at(t, FIELD_POSITIONS[decision.subject])
        state.icons_left[t][k]["G"] -= 1
        state.ab.glove += 10
        _note(state, "icon_G", k)


def double_play_roll(state: GameState) -> None:
    t = state.fielding_team
    roll = state.dice.roll("double_play", sides=20)
    total = roll + state.fielding(t, INFIELD) + state.ab.glove
    if state.cards_on:
        total += cardplay.bonus(state, "dp_bonus")
    speed = state.card(state.batting_team, state.batter_index).speed
    finish_ground_ball(state, batter_out=total > speed)


def throw_roll(state: GameState) -> None:
    """Extra Bases 2-4: the target is Speed, +5 going home, +5 with two outs before the
    swing; d20 + outfield Fielding must beat it (ties go to the runner)."""
    b = state.board
    t = state.fielding_team
    ab = state.ab
    thrown = ab.thrown
    sent = ab.sent
    before = b.bases
    base = before.index(thrown) + 1              # the base he goes for (3 = home)
    target = throw_target(state.card(state.batting_team, thrown).speed, base == 3,
                          ab.outs_before == 2)
    roll = state.dice.roll("throw", sides=20)
    total = roll + state.fielding(t, OUTFIELD) + ab.glove
    if state.cards_on:
        total += cardplay.bonus(state, "throw_bonus")
    out = total > target
    ab.throw = Throw(thrown, base, roll, total, target, out, before, len(ab.scored))
    bases = list(before)
    scored = []
    for r in sent:                      # lead runner first
        base = before.index(r)
        bases[base] = None
        if r == thrown and out:
            continue
        if base == 2:
            scored.append(r)
        else:
            bases[base + 1] = r
    b.bases = (bases[0], bases[1], bases[2])
    if out:
        b.add_outs(1)
    # "If the outfield throws out a runner who was trying for third, and there was also a
    # runner trying for home, the out won't stop the run from scoring"
    if scored:
        _score(state, scored)
    state.step = "finish_play"


def finish_play(state: GameState) -> None:
    """Score the at-bat: box score (batting and pitching lines) and play-by-play."""
    b = state.board
    bt = b.half
    ft = 1 - bt
    k = state.lineup[bt][state.order[bt]]
    p = state.pitcher[ft]
    ab = state.ab
    code = ab.outcome
    scored = ab.scored
    if code == "FB" and scored:
        code = "SF"                        # a run scored on the tag-up
    outcome = CODE_OUTCOME[code]
    rbi = 0 if code == "DP" else len(scored)
    lines = state.box_line[bt]
    box = state.box
    box.plate_appearance(bt, lines[k], b.inning, outcome, rbi)
    state.batted[bt][k] = True
    pl = box.pitching[ft][state.pitch_line[ft][p]]
    pl.bf += 1
    if outcome.bases:
        pl.h += 1
        if outcome.bases == 4:
            pl.hr += 1
    elif outcome.walk:
        pl.bb += 1
    elif outcome.strikeout:
        pl.so += 1
    charge_runs(state, scored)
    pl.outs += max(0, b.outs - ab.outs_before)
    throw = ab.throw
    extra = (("IBB", None, None, None) if ab.ibb else ("bunt", "P", ab.swing, ab.result) if ab.bunt
             else (ab.pitch, ab.chart, ab.swing, ab.result))
    if throw is None:
        _log(state, "pa", k, -1, ab.swing, ab.before, scored, outcome.code, extra)
    else:   # the at-bat as it stood before the throw, then the throw
        after = b.bases
        b.bases = throw.bases
        _log(state, "pa", k, -1, ab.swing, ab.before, scored[:throw.scored_before], outcome.code,
             extra)
        b.bases = after
    if throw is not None:
        total, target = throw.total, throw.target
        _log(state, "thrown_out" if throw.out else "extra_base", throw.runner, throw.base,
             throw.roll, throw.bases, scored[throw.scored_before:],
             f"{total}>{target}" if throw.out else f"{total}<={target}")
    state.step = "end_at_bat"
    if state.cards_on and not b.over and b.outs < 3 and not (ab.ibb or ab.bunt):
        open_window(state, "after_result", "end_at_bat")    # (walks and bunts are not results)


# ================================================================== the expert game
# Expert Substitutions (pinch runners, defensive replacements, the double switch) and
# Expert Managerial Options (the intentional walk, the sacrifice bunt); who may come in is
# roster.py's (RULES.md, "The expert game"); the strategy cards are below.

def pinch_runner_step(state: GameState) -> None:
    """"Pinch runners have to enter the game before the next batter comes to the plate":
    each runner in turn, the lead runner first (subject: his base)."""
    b = state.board
    t = b.half
    ab = state.ab
    state.step = "pinch_hitter"
    for base in (2, 1, 0):
        r = b.bases[base]
        if r is None or base in ab.pr_asked:
            continue
        ab.pr_asked += (base,)
        options = roster.pinch_runner_options(state, t, r)
        if options:
            state.step = "pinch_runner"
            ask(state, "pinch_runner", t, choose_player(options, True), subject=base)
            return


def choose_pinch_runner(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        return
    new = action - PLAYER
    old = roster.pinch_run(state, decision.actor, decision.subject, new)
    _note(state, "pinch_runner", new, detail=str(old))


def defensive_replacement_step(state: GameState) -> None:
    """"You can send in defensive replacements whenever your team takes the field or makes
    a pitching change", one at a time until the manager passes; a team that cannot field
    every position must ("you have to make more substitutions until all the positions
    are filled")."""
    t = state.fielding_team
    options = roster.replacement_options(state, t)
    if options:                         # subject: the DH (who may take the field), or -1
        dh = next((k for k, p in zip(state.lineup[t], state.pos[t]) if p == "DH"), -1)
        ask(state, "defensive_replacement", t,
            choose_player(options, roster.can_field(state, t)), subject=dh)
        return
    state.step = "batting_slot"


def choose_defensive_replacement(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        state.step = "batting_slot"
        return
    new = action - PLAYER
    state.ab.incoming = new
    state.step = "replaced_player"
    ask(state, "replaced_player", decision.actor,
        choose_player(roster.replaced_options(state, decision.actor, new), False), subject=new)


def choose_replaced_player(state: GameState, decision: Decision, action: int) -> None:
    """The fielder who makes way for the replacement (subject: the replacement)."""
    t = decision.actor
    ab = state.ab
    new, old = ab.incoming, action - PLAYER
    slot = roster.replace_fielder(state, t, new, old)
    if old in ab.sub_players:           # he came in earlier in this substitution: his spot
        i = ab.sub_players.index(old)   # is still the one he took from an old player
        players = list(ab.sub_players)
        if slot >= 0:
            players[i] = new
            ab.sub_players = tuple(players)
        else:                           # the DH took his place: the pitcher bats there
            del players[i]
            ab.sub_players = tuple(players)
            ab.sub_old = ab.sub_old[:i] + ab.sub_old[i + 1:]
            ab.sub_slots = ab.sub_slots[:i] + ab.sub_slots[i + 1:]
    elif slot >= 0:
        ab.sub_players += (new,)
        ab.sub_old += (old,)
        ab.sub_slots += (slot,)
    ab.incoming = -1
    _note(state, "defensive_replacement" if slot >= 0 else "dh_to_field", new, detail=str(old))
    state.step = "defensive_replacement"


def batting_slot_step(state: GameState) -> None:
    """The double switch: "the new players can take the old players' batting spots in any
    order". Each new player but the last chooses among the spots still open (as the player
    who left it: subject, the new player); then the team takes its positions."""
    ab = state.ab
    t = state.fielding_team
    i = ab.slots_placed
    if len(ab.sub_players) - i >= 2:
        ask(state, "batting_slot", t, choose_player(tuple(sorted(ab.sub_old[i:])), False),
            subject=ab.sub_players[i])
        return
    state.needs_positions[t] = True
    take_the_field(state, t)
    then = ab.sub_then
    ab.sub_players = ab.sub_old = ab.sub_slots = ()
    ab.slots_placed = 0
    ab.sub_then = ""
    state.step = then


def choose_batting_slot(state: GameState, decision: Decision, action: int) -> None:
    t = decision.actor
    ab = state.ab
    i = ab.slots_placed
    j = ab.sub_old.index(action - PLAYER)
    old, slots = list(ab.sub_old), list(ab.sub_slots)
    lineup, pos = state.lineup[t], state.pos[t]
    a, b = slots[i], slots[j]
    lineup[a], lineup[b] = lineup[b], lineup[a]
    pos[a], pos[b] = pos[b], pos[a]
    old[i], old[j] = old[j], old[i]
    slots[i], slots[j] = slots[j], slots[i]
    ab.sub_old, ab.sub_slots = tuple(old), tuple(slots)
    if state.pitcher_slot[t] >= 0:
        state.pitcher_slot[t] = lineup.index(state.pitcher[t])
    ab.slots_placed = i + 1


def intentional_walk_step(state: GameState) -> None:
    """At-Bat Sequence 3: "the defense decides whether to intentionally walk the batter"
    (always legal: the rulebook sets no condition)."""
    state.step = "sacrifice_bunt"
    ask(state, "intentional_walk", state.fielding_team, (PASS, YES))


def choose_intentional_walk(state: GameState, decision: Decision, action: int) -> None:
    if action == YES:
        state.ab.ibb = True
        state.step = "before_pitch"         # "there's no pitch and no swing"


def sacrifice_bunt_step(state: GameState) -> None:
    """At-Bat Sequence 4: "You can't sacrifice bunt if you have a runner on third or if the
    batter was intentionally walked" (otherwise legal, even with the bases empty)."""
    state.step = "before_pitch"
    if state.board.bases[2] is None:
        ask(state, "sacrifice_bunt", state.batting_team, (PASS, YES))


def choose_sacrifice_bunt(state: GameState, decision: Decision, action: int) -> None:
    if action == YES:
        state.ab.bunt = True


def before_pitch_step(state: GameState) -> None:
    """At-Bat Sequence 5, then 6 (the pitch and the swing), or 8 at once after an
    intentional walk; a bunt rolls on the pitcher's chart."""
    ab = state.ab
    then = "carry_out" if ab.ibb else "bunt" if ab.bunt else "pitch"
    open_window(state, "before_pitch", then)


def bunt_roll(state: GameState) -> None:
    """"roll for the swing on the pitcher's chart" (no pitch; not a result)."""
    face_batter(state)
    ab = state.ab
    roll = state.dice.roll("swing", sides=20)
    ft = state.fielding_team
    ab.chart = "P"
    ab.swing = roll
    ab.result = state.card(ft, state.pitcher[ft]).chart.result(roll)
    state.step = "carry_out"


def intentional_walk(state: GameState, k: int) -> None:
    """"the batter simply walks ... otherwise it works the same way" as a walk."""
    walk(state, k)
    state.ab.outcome = "IBB"


def sacrifice_bunt(state: GameState) -> None:
    """"If the result is a pop-up out (PU), the batter is out and the runners don't advance.
    On any other result, the batter is out and all runners advance 1 base." A runner a card
    stole to third after the bunt was called scores ("Some strategy cards may allow you to
    bunt a runner in from third base"), unless the batter's out is the third."""
    b = state.board
    if state.ab.result != "PU":
        if b.outs < 2:                  # (the third out ends the inning where it stands)
            first, second, third = b.bases
            b.bases = (None, first, second)
            _score(state, [third] if third is not None else [])
        state.ab.outcome = "SH"
    else:
        state.ab.outcome = "PU"
    b.add_outs(1)


# ================================================================== logging

def _log(state: GameState, kind: str, actor: int, base: int, roll: int | None, before: tuple,
         scored: tuple, detail: str = "", extra: tuple = ()) -> None:
    """A play for the log, and what the play-by-play says of it beyond the Play
    (``log_extra``: a plate appearance's pitch, chart, swing and result)."""
    b = state.board
    state.log.add(Play(b.inning, b.half, kind, actor, base, roll, before, b.bases, scored, detail))
    state.log_extra.append(extra)


def _note(state: GameState, kind: str, actor: int, detail: str = "") -> None:
    """A play that moves nobody: substitutions and icons."""
    b = state.board
    _log(state, kind, actor, -1, None, b.bases, (), detail)


RULES: dict[str, Callable[[GameState], None]] = {
    "choose_starter": choose_starter_step,
    "play_ball": play_ball,
    "start_half": start_half,
    "at_bat": at_bat,
    "pinch_runner": pinch_runner_step,
    "pinch_hitter": pinch_hitter_step,
    "pitching_change": pitching_change_step,
    "defensive_replacement": defensive_replacement_step,
    "batting_slot": batting_slot_step,
    "pinch_hitter_again": pinch_hitter_again_step,
    "pre_pitch": pre_pitch,
    "intentional_walk": intentional_walk_step,
    "sacrifice_bunt": sacrifice_bunt_step,
    "before_pitch": before_pitch_step,
    "card_window": card_window,
    "draw_cards": draw_cards,
    "bunt": bunt_roll,
    "relief_ace": relief_ace_step,
    "twenty_game": twenty_game_step,
    "stolen_base": stolen_base_step,
    "pitch": pitch,
    "swing": swing,
    "result_icons": result_icons,
    "carry_out": carry_out,
    "gold_glove": gold_glove_step,
    "double_play_roll": double_play_roll,
    "throw_roll": throw_roll,
    "finish_play": finish_play,
    "end_at_bat": end_at_bat,
    "end_half": end_half,
}

CHOICES: dict[str, Callable[[GameState, Decision, int], None]] = {
    "starting_pitcher": choose_starting_pitcher,
    "pinch_hitter": choose_pinch_hitter,
    "pitching_change": choose_pitching_change,
    "relief_ace": choose_relief_ace,
    "twenty_game": choose_twenty_game,
    "stolen_base": choose_stolen_base,
    "strikeout": choose_strikeout,
    "reroll_out": choose_reroll,
    "silver_slugger": choose_silver_slugger,
    "home_run_icon": choose_home_run_icon,
    "double_play": choose_double_play,
    "gold_glove": choose_gold_glove,
    "send_runners": choose_send,
    "throw_at": choose_throw,
    "pinch_runner": choose_pinch_runner,
    "defensive_replacement": choose_defensive_replacement,
    "replaced_player": choose_replaced_player,
    "batting_slot": choose_batting_slot,
    "intentional_walk": choose_intentional_walk,
    "sacrifice_bunt": choose_sacrifice_bunt,
    "play_card": choose_play_card,
    "catcher_throw": choose_catcher_throw,
}
