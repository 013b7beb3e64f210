"""The MLB Showdown 2004 engine: the basic and advanced games, one engine with switches.

An at-bat follows the rulebook's "Complete At-Bat Sequence", with the steps the basic
and advanced games use (the expert game's intentional walks, bunts and strategy-card
windows will slot in between, as named steps)::

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

The basic game's one decision is each manager's starting pitcher (Basic Setup 3); the
engine plays the rest through. Every rule is a small
function named after it; unclear passages and the reading taken are in RULES.md.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from ..core import scorebook as sb
from ..core.bases import advance_all, force_advance
from ..core.decisions import Decision, take_decision
from ..core.dice import Dice, ScriptedDice, chance_d20_beats, make_dice
from ..core.scoreboard import Scoreboard, ScoreboardGame
from ..core.scorebook import BoxScore, Outcome, Play, PlayLog
from .cards import (FIELD_POSITIONS, INFIELD, OUT_RESULTS, OUTFIELD, HitterCard, PitcherCard,
                    Team, best_assignment, team_from_dict, team_to_dict)

__all__ = ["GameState", "new_game", "apply_action", "option_labels", "ACTIONS", "N_ACTIONS",
           "DECISION_KINDS", "LEVELS", "PASS", "YES", "PLAYER", "SEND_LEAD", "SEND_BOTH",
           "THROW_LEAD", "THROW_TRAIL", "OUTCOMES", "fatigue", "effective_control",
           "pitcher_advantage_probability"]

LEVELS = ("basic", "advanced")
ROSTER = 25

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

# Box-score marks for Showdown's results beyond the core's.
POP_OUT = Outcome("PU", "popped out")
SINGLE_PLUS = Outcome("1B+", "singled (1B+)", bases=1)
FIELDERS_CHOICE = Outcome("FC", "reached on a fielder's choice")
OUTCOMES: dict[str, Outcome] = {**sb.OUTCOMES, "PU": POP_OUT, "1B+": SINGLE_PLUS,
                                "FC": FIELDERS_CHOICE}
#: The box-score outcome of a play, by the result carried out (FC, DP and SF are what a
#: GB or FB became).
CODE_OUTCOME = {"PU": POP_OUT, "SO": sb.STRIKEOUT, "GB": sb.GROUND_OUT, "FB": sb.FLY_OUT,
                "BB": sb.WALK, "1B": sb.SINGLE, "1B+": SINGLE_PLUS, "2B": sb.DOUBLE,
                "3B": sb.TRIPLE, "HR": sb.HOME_RUN, "FC": FIELDERS_CHOICE,
                "DP": sb.DOUBLE_PLAY, "SF": sb.SACRIFICE_FLY}
HIT_BASES = {"1B": 1, "1B+": 1, "2B": 2, "3B": 3, "HR": 4}


def rotation_spot(roll: int) -> int:
    """Advanced Game Setup 2: 1-5 first starters, 6-10 second, 11-15 third, 16-20 fourth."""
    return (roll - 1) // 5


# ================================================================== the state

@dataclass
class GameState(ScoreboardGame):
    """A game in progress; plain data (the teams are immutable, validated cards).

    Players are roster indices (0-24, the team file's order); a runner on base is his
    roster index on the batting team. ``lineup[t][slot]`` is who bats in that slot and
    ``pos[t][slot]`` where he plays ("DH", "P", a field position, or "PH" for a pinch
    hitter whose place in the field is settled when his team takes the field).
    """
    board: Scoreboard
    dice: Dice | ScriptedDice
    box: BoxScore
    log: PlayLog
    teams: tuple[Team, Team]
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
    ab: dict[str, Any] = field(default_factory=dict)
    log_extra: list[tuple] = field(default_factory=list)
    step: str = "setup"
    pending: Decision | None = None

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

    def fielding(self, team: int, positions: tuple[str, ...]) -> int:
        """Total Fielding of the players at these positions (rulebook, "Fielding and Arm")."""
        total = 0
        for position in positions:
            card = self.card(team, self.fielder_at(team, position))
            total += card.fielding(position) or 0
        return total

    # -- copying and saving -------------------------------------------------------------
    def clone(self) -> GameState:
        new = self._copy_shared()
        new.lineup = [list(x) for x in self.lineup]
        new.pos = [list(x) for x in self.pos]
        new.pitcher = list(self.pitcher)
        new.pitcher_slot = list(self.pitcher_slot)
        new.relief_ace_pitcher = list(self.relief_ace_pitcher)
        new.starter = list(self.starter)
        new.used = [list(x) for x in self.used]
        new.batted = [list(x) for x in self.batted]
        new.innings_pitched = [[list(i) for i in t] for t in self.innings_pitched]
        new.runs_charged = [list(x) for x in self.runs_charged]
        new.ip_bonus = [list(x) for x in self.ip_bonus]
        new.icons_left = [[dict(d) for d in t] for t in self.icons_left]
        new.twenty_inning = list(self.twenty_inning)
        new.relief_ace_inning = list(self.relief_ace_inning)
        new.responsible = dict(self.responsible)
        new.box_line = [dict(x) for x in self.box_line]
        new.pitch_line = [dict(x) for x in self.pitch_line]
        new.needs_positions = list(self.needs_positions)
        new.needs_pitcher = list(self.needs_pitcher)
        new.half_track = dict(self.half_track)
        new.ab = copy.deepcopy(self.ab)        # small, and may nest lists (a throw's record)
        new.log_extra = list(self.log_extra)
        return new

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": "showdown",
            "board": self.board.to_dict(), "dice": self.dice.to_dict(), "box": self.box.to_dict(),
            "log": self.log.to_list(),
            "log_extra": [list(x) for x in self.log_extra],
            "teams": [team_to_dict(t) for t in self.teams],
            "level": self.level, "dh": self.dh,
            "lineup": self.lineup, "pos": self.pos, "pitcher": self.pitcher,
            "pitcher_slot": self.pitcher_slot, "relief_ace_pitcher": self.relief_ace_pitcher,
            "starter": self.starter, "used": self.used, "batted": self.batted,
            "innings_pitched": self.innings_pitched, "runs_charged": self.runs_charged,
            "ip_bonus": self.ip_bonus, "icons_left": self.icons_left,
            "twenty_inning": self.twenty_inning, "relief_ace_inning": self.relief_ace_inning,
            "responsible": [[k, v] for k, v in self.responsible.items()],
            "box_line": [[[k, v] for k, v in d.items()] for d in self.box_line],
            "pitch_line": [[[k, v] for k, v in d.items()] for d in self.pitch_line],
            "order": self.order, "needs_positions": self.needs_positions,
            "needs_pitcher": self.needs_pitcher, "plus_runner": self.plus_runner,
            "pa_index": self.pa_index, "half_track": self.half_track, "ab": self.ab,
            "step": self.step,
            "pending": None if self.pending is None else self.pending.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        if d.get("ruleset") != "showdown":
            raise ValueError(f"not a saved MLB Showdown game (ruleset {d.get('ruleset')!r})")
        log = PlayLog.from_list(d["log"])
        teams = tuple(team_from_dict(t, "saved game", point_cap=None) for t in d["teams"])
        return cls(
            board=Scoreboard.from_dict(d["board"]), dice=make_dice(d["dice"]),
            box=BoxScore.from_dict(d["box"]), log=log, teams=teams, level=d["level"],
            dh=d["dh"], lineup=[list(x) for x in d["lineup"]], pos=[list(x) for x in d["pos"]],
            pitcher=list(d["pitcher"]), starter=list(d["starter"]),
            pitcher_slot=list(d["pitcher_slot"]), relief_ace_pitcher=list(d["relief_ace_pitcher"]),
            used=[list(x) for x in d["used"]], batted=[list(x) for x in d["batted"]],
            innings_pitched=[[list(i) for i in t] for t in d["innings_pitched"]],
            runs_charged=[list(x) for x in d["runs_charged"]],
            ip_bonus=[list(x) for x in d["ip_bonus"]],
            icons_left=[[dict(x) for x in t] for t in d["icons_left"]],
            twenty_inning=list(d["twenty_inning"]), relief_ace_inning=list(d["relief_ace_inning"]),
            responsible={int(k): int(v) for k, v in d["responsible"]},
            box_line=[{int(k): int(v) for k, v in t} for t in d["box_line"]],
            pitch_line=[{int(k): int(v) for k, v in t} for t in d["pitch_line"]],
            order=list(d["order"]), needs_positions=list(d["needs_positions"]),
            needs_pitcher=list(d["needs_pitcher"]), plus_runner=int(d["plus_runner"]),
            pa_index=int(d["pa_index"]), half_track=dict(d["half_track"]), ab=dict(d["ab"]),
            log_extra=[tuple(x) for x in d["log_extra"]], step=d["step"],
            pending=None if d["pending"] is None else Decision.from_dict(d["pending"]))


# ================================================================== setting up

ICON_USES = {"K": 1, "G": 1, "HR": 1, "V": 2, "SB": 1, "RP": 1, "S": 1}


def new_game(teams: tuple[Team, Team], dice: Dice | ScriptedDice, *, level: str = "advanced",
             dh: bool | None = None, starter: int | None = None, innings: int = 9,
             max_innings: int | None = None, play: bool = True) -> GameState:
    """A game at its first decision.

    ``dh=None`` plays with a DH in the basic game (Basic Setup 4) and by the home team's
    rules in the advanced game (Advanced Game Setup 3); ``starter`` (1-4)
    fixes the rotation spot, otherwise the home team rolls for it (Setup 2) or, in the
    basic game, each manager chooses. With ``play=False`` (and a ``starter``) the game
    stops right after setting up, before the first at-bat, so a test can arrange a
    rulebook situation on the board and then ``run`` it with scripted dice.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
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
        icons_left=[[{i: ICON_USES[i] for i in card.icons if i in ICON_USES}
                     for card in t.players] for t in teams],
        twenty_inning=[0, 0], relief_ace_inning=[0, 0], responsible={},
        box_line=[{}, {}], pitch_line=[{}, {}])
    state.ab["starter_spot"] = starter
    if starter is not None and (isinstance(starter, bool) or not isinstance(starter, int)
                                or starter not in (1, 2, 3, 4)):
        raise ValueError(f"starter must be a rotation spot 1-4, got {starter!r}")
    if play:
        run(state)
        return state
    if starter is None:
        raise ValueError("play=False needs a starter: choosing one is a decision")
    while state.step != "start_half":
        RULES[state.step](state)
    return state


def setup(state: GameState) -> None:
    """Basic Setup 3-5 / Advanced Game Setup 2-5: the starting pitchers and the lineups.

    Advanced: the home team rolls for the rotation spot (both teams' starters from it).
    Basic: each manager chooses his starter ("Choose 1 of them to be this game's starting
    pitcher"), away first. The ``starter`` option fixes the spot at either level.
    """
    spot = state.ab.pop("starter_spot", None)
    if spot is None and state.level != "basic":
        state.dice.set_stream(0, 0)
        spot = rotation_spot(state.dice.roll("rotation", sides=20)) + 1
    for t, team in enumerate(state.teams):
        keys = {c.key: k for k, c in enumerate(team.players)}
        if spot is not None:
            state.starter[t] = keys[team.rotation[spot - 1]]
        for player, position in team.lineups["dh" if state.dh else "no_dh"]:
            if player == "P":
                state.pitcher_slot[t] = len(state.lineup[t])
            state.lineup[t].append(-1 if player == "P" else keys[player])
            state.pos[t].append(position)
    state.step = "choose_starter"


def starters_of(state: GameState, team: int) -> list[int]:
    return [k for k, c in enumerate(state.teams[team].players)
            if isinstance(c, PitcherCard) and c.role == "starter"]


def choose_starter_step(state: GameState) -> None:
    for t in (0, 1):
        if state.starter[t] < 0:
            ask(state, "starting_pitcher", t, tuple(PLAYER + k for k in starters_of(state, t)))
            return
    state.step = "play_ball"


def choose_starting_pitcher(state: GameState, decision: Decision, action: int) -> None:
    state.starter[decision.actor] = action - PLAYER


def play_ball(state: GameState) -> None:
    """Basic Setup 6: starters on the mound, batting lines for everyone in the lineups."""
    for t in (0, 1):
        k = state.starter[t]
        state.pitcher[t] = k
        if state.pitcher_slot[t] >= 0:
            state.lineup[t][state.pitcher_slot[t]] = k
        for slot in state.lineup[t]:
            enter(state, t, slot)
        if state.dh:
            enter(state, t, k)
        state.pitch_line[t][k] = state.box.add_pitcher(t, state.card(t, k).name)
    state.half_track = {}
    state.step = "start_half"


def enter(state: GameState, team: int, k: int) -> None:
    """A player enters the game: he gets a batting line if he bats."""
    state.used[team][k] = True
    card = state.card(team, k)
    if k in state.lineup[team]:
        label = state.pos[team][state.lineup[team].index(k)]
        state.box_line[team][k] = state.box.add_line(team, card.name, label)


# ================================================================== the loop

def option_labels(state: GameState, decision: Decision) -> dict[int, str]:
    """What each legal action means at this decision, in the rulebook's words."""
    team = decision.actor
    out = {}
    for a in decision.legal:
        if PLAYER <= a < SEND_LEAD:
            card = state.card(team, a - PLAYER)
            if decision.kind == "pinch_hitter":
                out[a] = f"pinch hit {card.name} (On-Base {card.on_base}, Speed {card.speed})"
            elif decision.kind == "starting_pitcher":
                out[a] = f"start {card.name} (Control {card.control}, IP {card.ip})"
            else:
                out[a] = f"bring in {card.name} ({card.role}, Control {card.control}, IP {card.ip})"
        elif a == PASS:
            out[a] = {"pinch_hitter": "no pinch hitter", "pitching_change": "no pitching change",
                      "send_runners": "hold the runners", "double_play": "no double-play attempt"
                      }.get(decision.kind, "don't use it")
        elif a == YES:
            out[a] = {"double_play": "try for the double play",
                      "stolen_base": "steal (SB icon)"}.get(decision.kind, "use it")
        else:
            out[a] = ACTIONS[a]
    return out


def apply_action(state: GameState, action: int) -> None:
    """Apply the pending decision's choice, then play on to the next decision."""
    decision = take_decision(state, action, ACTIONS)
    CHOICES[decision.kind](state, decision, action)
    run(state)


def run(state: GameState) -> None:
    """Apply rules until a manager must decide or the game is over (a walk-off still
    finishes its play, so the box score counts it)."""
    while state.pending is None and state.step != "over":
        RULES[state.step](state)


def ask(state: GameState, kind: str, actor: int, legal: tuple[int, ...], subject: int = -1) -> None:
    state.pending = Decision(kind, actor, legal, subject)


# ================================================================== half innings

def start_half(state: GameState) -> None:
    """"When a team's turn at the plate is over, the defense first checks to see that it
    can field all the positions" (and brings in a pitcher if it hit for its own)."""
    t = state.fielding_team
    if state.needs_positions[t]:
        fill_positions(state, t)
        state.needs_positions[t] = False
    state.pa_index = 0
    state.ab = {}                       # no at-bat yet: nothing of the last one shows
    state.half_track = {"pitcher": -1, "batters": 0, "reached": 0, "multi_out": 0}
    state.step = "at_bat"
    if state.needs_pitcher[t]:
        legal = tuple(PLAYER + k for k in bullpen(state, t))
        ask(state, "pitching_change", t, legal, subject=1)


def at_bat(state: GameState) -> None:
    """A new at-bat: its dice come from its own stream (half inning, at-bat number)."""
    state.dice.set_stream(state.board.half_index, state.pa_index)
    state.ab = {"change": 0}
    state.step = "pinch_hitter" if state.level != "basic" else "pre_pitch"


def end_at_bat(state: GameState) -> None:
    b = state.board
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
    if (state.level != "basic" and "CY" in state.card(t, k).icons and track.get("pitcher") == k
            and track.get("batters") == 3 and not track.get("reached") and not track.get("multi_out")):
        state.ip_bonus[t][k] += 1
        _note(state, "cy_young", k)
    state.plus_runner = -1
    state.responsible = {}
    b.end_half()
    state.step = "over" if b.over else "start_half"


# ================================================================== substitutions

def can_remove_starter(state: GameState, team: int) -> bool:
    """"You can only remove your starter if ... It's after the 4th inning. He's given up 10
    or more runs." (the third condition, a strategy card, is the expert game's)."""
    k = state.pitcher[team]
    return k != state.starter[team] or state.board.inning > 4 or state.runs_charged[team][k] >= 10


_PARTS: dict[int, tuple[Team, tuple[int, ...], tuple[int, ...]]] = {}


def _roster_parts(team: Team) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(hitters, relievers and closers) of a team, as roster indices; teams are immutable,
    so this is worked out once per team object."""
    known = _PARTS.get(id(team))
    if known is None or known[0] is not team:
        hitters = tuple(k for k, c in enumerate(team.players) if isinstance(c, HitterCard))
        relief = tuple(k for k, c in enumerate(team.players)
                       if isinstance(c, PitcherCard) and c.role != "starter")
        if len(_PARTS) > 1024:
            _PARTS.clear()
        known = _PARTS[id(team)] = (team, hitters, relief)
    return known[1], known[2]


def bullpen(state: GameState, team: int) -> list[int]:
    """Relievers and closers who have not pitched ("you can't send in another starter")."""
    used = state.used[team]
    return [k for k in _roster_parts(state.teams[team])[1] if not used[k]]


def bench(state: GameState, team: int) -> list[int]:
    """Hitters who have not entered the game."""
    used = state.used[team]
    return [k for k in _roster_parts(state.teams[team])[0] if not used[k]]


@lru_cache(maxsize=4096)
def _qualifies_mask(card: HitterCard | PitcherCard) -> int:
    """Bit i set when the card may play FIELD_POSITIONS[i]."""
    if card.kind != "hitter":
        return 0
    return sum(1 << i for i, pos in enumerate(FIELD_POSITIONS) if card.fielding(pos) is not None)


@lru_cache(maxsize=65536)
def _can_fill(masks: tuple[int, ...]) -> bool:
    """Whether players with these qualification masks can fill all eight positions."""
    reachable = {0}
    for i in range(len(FIELD_POSITIONS)):
        reachable = {used | 1 << j for used in reachable for j, m in enumerate(masks)
                     if m >> i & 1 and not used >> j & 1}
        if not reachable:
            return False
    return True


def _field_assignment(state: GameState, team: int, players: list[int],
                      current: dict[int, str]) -> dict[int, str] | None:
    """Positions for eight players, keeping as many where they were as possible (exact)."""
    def score(k: int, position: str):
        card = state.card(team, k)
        fielding = card.fielding(position) if card.kind == "hitter" else None
        if fielding is None:
            return None
        return fielding + (100 if current.get(k) == position else 0)

    placed = best_assignment(players, FIELD_POSITIONS, score)
    return None if placed is None else {k: pos for pos, k in placed.items()}


def _fielders(state: GameState, team: int) -> tuple[list[int], dict[int, str]]:
    """The eight players who take the field (not the DH, not the pitcher's spot)."""
    players, current = [], {}
    for slot, position in enumerate(state.pos[team]):
        if position != "DH" and slot != state.pitcher_slot[team]:
            k = state.lineup[team][slot]
            players.append(k)
            current[k] = position
    return players, current


def fill_positions(state: GameState, team: int) -> None:
    """The team takes the field: every position filled by a player who qualifies."""
    players, current = _fielders(state, team)
    assignment = _field_assignment(state, team, players, current)
    if assignment is None:   # legal_pinch_hitters never lets this happen
        raise RuntimeError(f"team {team} cannot fill the field with {players}")
    for slot, k in enumerate(state.lineup[team]):
        if k in assignment:
            state.pos[team][slot] = assignment[k]


def _is_backup(state: GameState, team: int, k: int) -> bool:
    return state.card(team, k).key in state.teams[team].backups


def legal_pinch_hitters(state: GameState, team: int, again: bool) -> list[int]:
    """Bench hitters who may bat for the man due up (Substitutions; Team Construction)."""
    slot = state.order[team]
    k = state.lineup[team][slot]
    position = state.pos[team][slot]
    if again:
        if not state.ab["change"]:
            return []
    elif state.ab.get("ph_for") is not None:
        return []
    # "all players who start the game must bat at least once before a pinch hitter can
    # bat for them"; a pinch hitter is batted for again only in step 3
    if not state.batted[team][k] and not (again and state.ab.get("ph_for") == slot):
        return []
    is_pitcher = isinstance(state.card(team, k), PitcherCard)
    if is_pitcher:
        if not can_remove_starter(state, team) or not bullpen(state, team):
            return []
    # the inning in which this team next takes the field
    next_field = state.board.inning + (1 if state.board.half == 1 else 0)
    players, current = _fielders(state, team)
    # the others stand where they are (nobody else waiting for a position)
    settled = all(current[p] != "PH" for p in players if p != k)
    out = []
    for cand in bench(state, team):
        if _is_backup(state, team, cand) and not is_pitcher and next_field < 7:
            continue    # "Before the 7th inning, backup players can only pinch hit for pitchers"
        if position in ("DH", "P") or is_pitcher:
            out.append(cand)
            continue
        card = state.card(team, cand)
        if settled and position != "PH" and card.fielding(position) is not None:
            out.append(cand)
            continue
        trial = [cand if p == k else p for p in players]
        masks = tuple(sorted(_qualifies_mask(state.card(team, p)) for p in trial))
        if _can_fill(masks):
            out.append(cand)
    return out


def offer_pinch_hitter(state: GameState, again: bool) -> None:
    t = state.batting_team
    options = legal_pinch_hitters(state, t, again)
    state.step = "pre_pitch" if again else "pitching_change"
    if options:
        ask(state, "pinch_hitter", t, (PASS,) + tuple(PLAYER + k for k in options),
            subject=state.order[t])


def pinch_hitter_step(state: GameState) -> None:
    offer_pinch_hitter(state, again=False)


def pinch_hitter_again_step(state: GameState) -> None:
    offer_pinch_hitter(state, again=True)


def choose_pinch_hitter(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        return
    t = decision.actor
    slot = state.order[t]
    old = state.lineup[t][slot]
    new = action - PLAYER
    state.lineup[t][slot] = new
    if state.pos[t][slot] != "DH":
        state.pos[t][slot] = "PH"
        if slot == state.pitcher_slot[t]:
            state.needs_pitcher[t] = True     # "you must bring a new one in"
        else:
            state.needs_positions[t] = True
    enter(state, t, new)
    state.ab["ph_for"] = slot
    _note(state, "pinch_hitter", new, detail=str(old))


def pitching_change_step(state: GameState) -> None:
    t = state.fielding_team
    state.step = "pinch_hitter_again"
    if not can_remove_starter(state, t):
        return
    options = bullpen(state, t)
    if options:
        ask(state, "pitching_change", t, (PASS,) + tuple(PLAYER + k for k in options), subject=0)


def choose_pitching_change(state: GameState, decision: Decision, action: int) -> None:
    """The new pitcher takes the old one's spot in the batting order (or the spot of the
    pinch hitter who batted for him); the old one can't come back."""
    if action == PASS:
        return
    t = decision.actor
    new = action - PLAYER
    old = state.pitcher[t]
    state.pitcher[t] = new
    state.used[t][new] = True
    slot = state.pitcher_slot[t]
    if slot >= 0:
        state.lineup[t][slot] = new
        state.pos[t][slot] = "P"
        state.box_line[t][new] = state.box.add_line(t, state.card(t, new).name, "P")
    state.needs_pitcher[t] = False
    state.pitch_line[t][new] = state.box.add_pitcher(t, state.card(t, new).name)
    if decision.subject != 1:
        state.ab["change"] = 1
    _note(state, "pitching_change", new, detail=str(old))


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
    state.step = "relief_ace"


def fatigue(state: GameState, team: int, k: int) -> int:
    """"subtract 1 from every pitch he rolls for each extra inning in which he's pitched":
    the penalty on his next pitch, which is in the current inning: the innings he has
    pitched in, this one included, beyond IP (and Cy Young's bonus innings)."""
    if state.level == "basic":
        return 0
    card = state.card(team, k)
    pitched = state.innings_pitched[team][k]
    innings = len(pitched) + (0 if pitched and pitched[-1] == state.board.inning else 1)
    return max(0, innings - card.ip - state.ip_bonus[team][k])


def effective_control(state: GameState, team: int, k: int) -> int:
    """Control plus icon bonuses; fatigue comes off the total, not Control (kept apart)."""
    card = state.card(team, k)
    bonus = 0
    if state.relief_ace_inning[team] == state.board.inning and state.relief_ace_pitcher[team] == k:
        bonus += 3
    if state.ab.get("twenty"):
        bonus += 3
    return card.control + bonus


def relief_ace_step(state: GameState) -> None:
    """RP: "Once per game, a reliever or closer with the RP icon may add +3 to his Control
    for any 1 full inning after the 6th inning" (offered at the inning's first at-bat)."""
    t = state.fielding_team
    k = state.pitcher[t]
    state.step = "twenty_game"
    b = state.board
    if (state.level != "basic" and b.inning > 6 and state.pa_index == 0
            and state.card(t, k).role != "starter" and state.icons_left[t][k].get("RP", 0) > 0):
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
    t = state.fielding_team
    k = state.pitcher[t]
    state.step = "stolen_base"
    if (state.level != "basic" and "20" in state.card(t, k).icons
            and state.twenty_inning[t] != state.board.inning
            and not isinstance(state.card(state.batting_team, state.batter_index), PitcherCard)):
        ask(state, "twenty_game", t, (PASS, YES))


def choose_twenty_game(state: GameState, decision: Decision, action: int) -> None:
    if action == YES:
        state.twenty_inning[decision.actor] = state.board.inning
        state.ab["twenty"] = 1
        _note(state, "icon_20", state.pitcher[decision.actor])


def stolen_base_step(state: GameState) -> None:
    """SB: "Once per game, a player with the SB icon may steal a base (not home) without a
    throw. (You can steal a base only if it's open.)" Lead runner asked first."""
    b = state.board
    t = b.half
    state.step = "pitch"
    if state.level == "basic":
        return
    asked = state.ab.setdefault("sb_asked", [])
    for base in (1, 0):
        k = b.bases[base]
        if (k is not None and b.bases[base + 1] is None and k not in asked
                and state.icons_left[t][k].get("SB", 0) > 0):
            asked.append(k)
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
    b = state.board
    ft, bt = state.fielding_team, state.batting_team
    k = state.pitcher[ft]
    innings = state.innings_pitched[ft][k]
    if not innings or innings[-1] != b.inning:
        innings.append(b.inning)          # a pitcher who pitches in an inning is charged it
    if state.half_track.get("pitcher", -1) == -1:
        state.half_track["pitcher"] = k
    batter = state.card(bt, state.batter_index)
    if isinstance(batter, PitcherCard):
        state.ab["pitch"] = None
        state.ab["chart"] = "P"
    else:
        roll = state.dice.roll("pitch", sides=20)
        total = roll + effective_control(state, ft, k) - fatigue(state, ft, k)
        state.ab["pitch"] = total
        state.ab["chart"] = "P" if total > batter.on_base else "B"
    state.ab["outs_before"] = b.outs
    state.step = "swing"


def swing(state: GameState) -> None:
    """The Swing: d20 on the chart of whoever has the advantage."""
    roll = state.dice.roll("swing", sides=20)
    if state.ab["chart"] == "P":
        chart = state.card(state.fielding_team, state.pitcher[state.fielding_team]).chart
    else:
        chart = state.card(state.batting_team, state.batter_index).chart
    state.ab["swing"] = roll
    state.ab["result"] = chart.result(roll)
    state.ab["icons_asked"] = []
    state.step = "result_icons"


def result_icons(state: GameState) -> None:
    """Icons on a result, the defense first (At-Bat Sequence 7)."""
    state.step = "carry_out"
    if state.level == "basic":
        return
    result = state.ab["result"]
    asked = state.ab["icons_asked"]
    ft, bt = state.fielding_team, state.batting_team
    p = state.pitcher[ft]
    if "K" not in asked and result != "SO" and state.icons_left[ft][p].get("K", 0) > 0:
        asked.append("K")
        state.step = "result_icons"
        ask(state, "strikeout", ft, (PASS, YES))
        return
    k = state.batter_index
    left = state.icons_left[bt][k]
    for icon, kind, applies in (("V", "reroll_out", result in OUT_RESULTS),
                                ("S", "silver_slugger", result in ("1B", "1B+")),
                                ("HR", "home_run_icon", result in ("2B", "3B"))):
        if applies and icon not in asked and left.get(icon, 0) > 0:
            asked.append(icon)
            state.step = "result_icons"
            ask(state, kind, bt, (PASS, YES))
            return


def choose_strikeout(state: GameState, decision: Decision, action: int) -> None:
    """K: "Once per game ... may change any result to a strikeout (SO)"."""
    if action == YES:
        p = state.pitcher[decision.actor]
        state.icons_left[decision.actor][p]["K"] -= 1
        state.ab["result"] = "SO"
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
        state.ab["result"] = result
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
    result = state.ab["result"]
    state.ab["before"] = list(b.bases)
    state.ab["scored"] = []
    state.ab["outcome"] = result
    state.half_track["batters"] = state.half_track.get("batters", 0) + 1
    k = state.batter_index
    state.step = "finish_play"
    if result in HIT_BASES:
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
    state.ab["scored"] = state.ab["scored"] + list(counted)


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
    if state.ab["result"] == "1B+":
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
            state.ab["outcome"] = "FC"
        b.add_outs(1)
        if b.outs < 3:
            advance_on_ground_ball(state)
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
    state.ab["outcome"] = "FC"
    if action == YES:
        state.ab["throw_kind"] = "double_play"
        state.ab["glove"] = 0
        state.ab["glove_asked"] = []
        state.step = "gold_glove"
    else:
        finish_ground_ball(state, batter_out=False)


def finish_ground_ball(state: GameState, batter_out: bool) -> None:
    b = state.board
    k = state.batter_index
    if batter_out:
        b.add_outs(1)
        state.ab["outcome"] = "DP"
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
    if not runners:
        return
    state.ab["eligible"] = runners
    legal = (PASS, SEND_LEAD) + ((SEND_BOTH,) if len(runners) == 2 else ())
    state.step = "send_runners"
    ask(state, "send_runners", state.batting_team, legal)


def choose_send(state: GameState, decision: Decision, action: int) -> None:
    eligible = state.ab["eligible"]
    if action == PASS:
        state.step = "finish_play"
        return
    sent = eligible[:1] if action == SEND_LEAD else eligible[:2]
    state.ab["sent"] = sent
    if len(sent) == 1:
        state.ab["thrown"] = sent[0]
        start_throw(state)
    else:
        state.step = "throw_at"
        ask(state, "throw_at", state.fielding_team, (THROW_LEAD, THROW_TRAIL))


def choose_throw(state: GameState, decision: Decision, action: int) -> None:
    sent = state.ab["sent"]
    state.ab["thrown"] = sent[0] if action == THROW_LEAD else sent[1]
    start_throw(state)


def start_throw(state: GameState) -> None:
    state.ab["throw_kind"] = "extra_base"
    state.ab["glove"] = 0
    state.ab["glove_asked"] = []
    state.step = "gold_glove"


def gold_glove_step(state: GameState) -> None:
    """G: "Once per game, a player with the G icon may add +10 to his Fielding when on
    defense": offered to each fielder in the play (infield on a double play, outfield on
    a throw) before the roll."""
    t = state.fielding_team
    positions = INFIELD if state.ab["throw_kind"] == "double_play" else OUTFIELD
    asked = state.ab["glove_asked"]
    for i, position in enumerate(positions):
        k = state.fielder_at(t, position)
        if position not in asked and state.icons_left[t][k].get("G", 0) > 0:
            asked.append(position)
            ask(state, "gold_glove", t, (PASS, YES), subject=FIELD_POSITIONS.index(position))
            return
    state.step = "double_play_roll" if state.ab["throw_kind"] == "double_play" else "throw_roll"


def choose_gold_glove(state: GameState, decision: Decision, action: int) -> None:
    if action == YES:
        t = decision.actor
        k = state.fielder_at(t, FIELD_POSITIONS[decision.subject])
        state.icons_left[t][k]["G"] -= 1
        state.ab["glove"] += 10
        _note(state, "icon_G", k)


def double_play_roll(state: GameState) -> None:
    t = state.fielding_team
    roll = state.dice.roll("double_play", sides=20)
    total = roll + state.fielding(t, INFIELD) + state.ab["glove"]
    speed = state.card(state.batting_team, state.batter_index).speed
    state.ab["dp_total"] = total
    finish_ground_ball(state, batter_out=total > speed)


def throw_roll(state: GameState) -> None:
    """Extra Bases 2-4: the target is Speed, +5 going home, +5 with two outs before the
    swing; d20 + outfield Fielding must beat it (ties go to the runner)."""
    b = state.board
    t = state.fielding_team
    thrown = state.ab["thrown"]
    sent = state.ab["sent"]
    before = b.bases
    base = before.index(thrown) + 1              # the base he goes for (3 = home)
    target = throw_target(state.card(state.batting_team, thrown).speed, base == 3,
                          state.ab["outs_before"] == 2)
    roll = state.dice.roll("throw", sides=20)
    total = roll + state.fielding(t, OUTFIELD) + state.ab["glove"]
    out = total > target
    state.ab["throw"] = [thrown, base, roll, total, target, int(out),
                         list(before), len(state.ab["scored"])]
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
    bt, ft = state.batting_team, state.fielding_team
    k = state.batter_index
    p = state.pitcher[ft]
    result = state.ab["result"]
    code = state.ab["outcome"]
    scored = state.ab["scored"]
    if code == "FB" and scored:
        code = "SF"                        # a run scored on the tag-up
    outcome = CODE_OUTCOME[code]
    rbi = 0 if code == "DP" else len(scored)
    lines = state.box_line[bt]
    state.box.plate_appearance(bt, lines[k], b.inning, outcome, rbi)
    state.box.runs_scored(bt, [lines[r] for r in scored])
    state.batted[bt][k] = True
    pl = state.box.pitching[ft][state.pitch_line[ft][p]]
    pl.bf += 1
    if outcome.bases:
        pl.h += 1
        if outcome.bases == 4:
            pl.hr += 1
    elif outcome.walk:
        pl.bb += 1
    elif outcome.strikeout:
        pl.so += 1
    for r in scored:
        charged = state.responsible.pop(r, p)
        state.runs_charged[ft][charged] += 1
        state.box.pitching[ft][state.pitch_line[ft][charged]].r += 1
    pl.outs += max(0, b.outs - state.ab["outs_before"])
    before = tuple(state.ab["before"])
    throw = state.ab.get("throw")
    if throw is None:
        _log(state, "pa", k, -1, state.ab["swing"], before, tuple(scored), outcome.code)
    else:   # the at-bat as it stood before the throw, then the throw
        thrown, base, roll, total, target, out, at_throw, n_before = throw
        at_throw = tuple(at_throw)
        bb = b.bases
        b.bases = at_throw
        _log(state, "pa", k, -1, state.ab["swing"], before, tuple(scored[:n_before]), outcome.code)
        b.bases = bb
    state.log_extra[-1] = (state.ab["pitch"], state.ab["chart"], state.ab["swing"], result)
    if throw is not None:
        _log(state, "thrown_out" if out else "extra_base", thrown, base, roll, at_throw,
             tuple(scored[n_before:]), f"{total}>{target}" if out else f"{total}<={target}")
    state.step = "end_at_bat"


# ================================================================== logging

def _log(state: GameState, kind: str, actor: int, base: int, roll: int | None, before: tuple,
         scored: tuple, detail: str = "") -> None:
    b = state.board
    state.log.add(Play(b.inning, b.half, kind, actor, base, roll, before, b.bases, scored, detail))
    state.log_extra.append(())


def _note(state: GameState, kind: str, actor: int, detail: str = "") -> None:
    """A play that moves nobody: substitutions and icons."""
    b = state.board
    _log(state, kind, actor, -1, None, b.bases, (), detail)


RULES: dict[str, Callable[[GameState], None]] = {
    "setup": setup,
    "choose_starter": choose_starter_step,
    "play_ball": play_ball,
    "start_half": start_half,
    "at_bat": at_bat,
    "pinch_hitter": pinch_hitter_step,
    "pitching_change": pitching_change_step,
    "pinch_hitter_again": pinch_hitter_again_step,
    "pre_pitch": pre_pitch,
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
}
