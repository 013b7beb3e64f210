"""The state of an MLB Showdown game: plain data, cloned and saved field by field.

A :class:`GameState` is the whole game: the scoreboard, the dice, the box score and play
log, both teams' cards, lineups, positions and pitchers, the icons and strategy cards left,
the at-bat in progress (an :class:`AtBat`) and the step the rules are at with the decision
waiting (``step``, ``pending``). The rules that change it are ``rules.py`` (the at-bat and
the game), ``windows.py`` (the strategy-card windows) and ``expert.py`` (the expert game's
steps); who is in the lineup and where he plays, ``roster.py``; the decks and hands,
``cardplay.py``. This module imports none of them: they all import the state from here.

What a loaded game must satisfy beyond its field types (that the rules could reach it) is
``checks.py``'s, which sits above the rules: it installs its check here
(:func:`check_loaded_games_with`) when imported, and importing the package
``dugout.envs.showdown`` (as importing any of its modules does) imports it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from ..core.bases import Bases
from ..core.decisions import Decision
from ..core.dice import DICE, Dice, ScriptedDice
from ..core.scoreboard import Scoreboard, ScoreboardGame
from ..core.scorebook import PLAY_LOG, BoxScore, PlayLog
from ..core.state import PlainState, SavedAs, codec
from .cards import HitterCard, PitcherCard, Team, fielding_at, team_from_dict, team_to_dict
from .strategy import CardSet, card_set_from_dict, card_set_to_dict

__all__ = ["LEVELS", "LINEUP_SETTINGS", "GameState", "AtBat", "Throw", "new_at_bat", "check_loaded_games_with"]

#: The game's levels: one engine with switches.
LEVELS = ("basic", "advanced", "expert")
#: Who sets the starting lineups: the team files, or the managers (``lineups="manager"``).
LINEUP_SETTINGS = ("file", "manager")


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
    # a series (series=N): per team and roster index, the games in a row each reliever or
    # closer pitched just before this one (empty lists in a single game)
    relief_streak: list[list[int]] = field(default_factory=lambda: [[], []])
    # who sets the starting lineups: "file" (the team files' batting orders) or "manager"
    # (each manager picks them before the game, lineup.py); with "manager", per team the
    # picks so far in the order they are asked: the players at C, 1B, ..., RF, the DH (with
    # one), then the batting order's nine, first to ninth (the starting pitcher among them
    # without a DH)
    lineup_setting: str = "file"
    lineup_picks: list[list[int]] = field(default_factory=lambda: [[], []])

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
        """A loaded game is one the rules could reach: the checks installed with
        :func:`check_loaded_games_with` (``checks.validate_game``)."""
        if not _LOAD_CHECKS:
            raise RuntimeError("no check of a loaded MLB Showdown game is installed: import "
                               "dugout.envs.showdown (its checks module installs it)")
        for check in _LOAD_CHECKS:
            check(self)

    def validate_carry(self, carry: object) -> None:
        """What a series carried into this game (a saved series is checked with it): the
        check installed with :func:`check_loaded_games_with` (``checks.validate_carry``)."""
        if not _CARRY_CHECKS:
            raise RuntimeError("no check of a series' carried state is installed: import "
                               "dugout.envs.showdown (its checks module installs it)")
        for check in _CARRY_CHECKS:
            check(self, carry)

    def fielding(self, team: int, positions: tuple[str, ...]) -> int:
        """Total Fielding of the players at these positions (rulebook, "Fielding and Arm")."""
        expert = self.level == "expert"
        total = 0
        for position in positions:
            total += fielding_at(self.card(team, self.fielder_at(team, position)), position,
                                 expert)
        return total


#: The checks every loaded game passes (``GameState.validate``): see check_loaded_games_with.
_LOAD_CHECKS: list[Callable[[GameState], None]] = []
#: The checks of a series' carried state (``GameState.validate_carry``).
_CARRY_CHECKS: list[Callable[[GameState, object], None]] = []


def check_loaded_games_with(check: Callable[[GameState], None],
                            carry: Callable[[GameState, object], None] | None = None) -> None:
    """Have ``GameState.from_dict`` run ``check(state)`` on every game it loads (after the
    field types are read), and ``GameState.validate_carry`` run ``carry(state, carried)``:
    a :class:`~dugout.envs.core.state.SaveError` either raises names what is wrong.
    ``checks.py`` installs :func:`~.checks.validate_game` and :func:`~.checks.validate_carry`
    this way, so the state needs no import of the rules it checks against; installing a
    check twice keeps one."""
    if check not in _LOAD_CHECKS:
        _LOAD_CHECKS.append(check)
    if carry is not None and carry not in _CARRY_CHECKS:
        _CARRY_CHECKS.append(carry)
