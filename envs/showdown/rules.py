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
engine plays the rest through. Every rule is a small function named after it; ``RULES``
(the automatic rules, by step) and ``CHOICES`` (the managers' choices, by decision kind)
are the engine's tables, which :func:`run` and
:func:`~dugout.envs.core.engine.play_out` play.

This module is the basic and advanced at-bat and the game's flow. The rest of the engine:

* ``state.py``: the :class:`~.state.GameState` (the at-bat in progress is an
  :class:`~.state.AtBat`); ``checks.py``: what a loaded game must satisfy;
* ``actions.py``: the action space, the decision kinds and :func:`~.actions.ask`;
  ``plays.py``: what a play does to the board and the books (runs, the walk, the log);
* ``expert.py``: the expert game's steps; ``windows.py``: the strategy-card windows;
* ``roster.py``: who is in the lineup, where he plays and who may still come in;
  ``cardplay.py``: decks, hands and which card may be played.

Unclear passages and the reading taken are in RULES.md.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core import scorebook as sb
from ..core.bases import advance_all
from ..core.decisions import Decision
from ..core.dice import Dice, ScriptedDice, chance_d20_beats
from ..core.engine import apply_choice, set_situation
from ..core.scoreboard import Scoreboard
from ..core.scorebook import BoxScore, Outcome, PlayLog
from . import cardplay, expert, windows
from .actions import (ACTIONS, ALL_KINDS, CARD, DECISION_KINDS, EXPERT_KINDS, N_ACTIONS, PASS,
                      PLAYER, SEND_BOTH, SEND_LEAD, THROW_LEAD, THROW_TRAIL, WINDOWS, YES,
                      LINEUP_KINDS, action_labels, ask, choose_player)
from .cards import FIELD_POSITIONS, INFIELD, OUT_RESULTS, OUTFIELD, PitcherCard, Team
from .plays import (charge_inning, charge_runs, face_batter, log_play, note_play, roll_swing,
                    score_runs, walk)
from .roster import (ROSTER, bullpen, can_remove_starter, change_pitcher, pinch_hit,
                     pinch_hitter_options, rotation_spot, set_lineups, starters_of,
                     starters_take_the_mound, take_the_field)
from .state import LEVELS, LINEUP_SETTINGS, GameState, Throw, new_at_bat
from .strategy import CardSet, Deck

__all__ = ["GameState", "new_game", "start_half_inning", "apply_action", "run", "option_labels",
           "action_labels", "RULES", "CHOICES", "ACTIONS", "N_ACTIONS", "DECISION_KINDS",
           "EXPERT_KINDS", "ALL_KINDS", "WINDOWS", "LEVELS", "PASS", "YES", "PLAYER", "CARD",
           "SEND_LEAD", "SEND_BOTH", "THROW_LEAD", "THROW_TRAIL", "OUTCOMES", "ICON_USES",
           "fatigue", "effective_control", "pitcher_advantage_probability", "throw_target"]

# Box-score marks for Showdown's results beyond the core's.
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
             decks: tuple[Deck, Deck] | None = None, card_set: CardSet | None = None,
             rotation: tuple[int, int] | None = None,
             relief_streak: list[list[int]] | None = None, lineups: str = "file") -> GameState:
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

    A game of a series (:func:`series_carry` makes what the last game leaves) takes each
    team's rotation spot (``rotation``, 1-4 per team, in place of ``starter`` or the roll)
    and ``relief_streak``: per team and roster index, the games in a row each reliever or
    closer pitched just before this one (two or more: his IP starts at 0 in the expert game).

    ``lineups`` is "file" (each team file's lineup, the default) or "manager" (the advanced
    and expert games: each manager sets his lineup as decisions before the first pitch,
    Advanced Game Setup 4-5, :mod:`.lineup`; the game waits on the away manager's first pick).
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    if lineups not in LINEUP_SETTINGS:
        raise ValueError(f"lineups must be one of {LINEUP_SETTINGS}, got {lineups!r}")
    if lineups == "manager" and level == "basic":
        raise ValueError("lineups='manager' is for the advanced and expert games (the basic "
                         "game's lineups come from the team files)")
    if lineups == "manager" and not play:
        raise ValueError("play=False sets a game up with the team files' lineups")
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
        box_line=[{}, {}], pitch_line=[{}, {}], lineup_setting=lineups)
    if decks is not None:
        state.card_set = card_set
        state.decks_given = [decks[0].cards(), decks[1].cards()]
    if relief_streak is not None:
        state.relief_streak = [list(relief_streak[0]), list(relief_streak[1])]
    if rotation is not None:
        set_lineups(state, None, rotation)
    else:
        setup(state, starter)
    if lineups == "manager":
        managers_set_lineups(state)
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


def managers_set_lineups(state: GameState) -> None:
    """Advanced Game Setup 4, "both of you can change your starting lineups": the team files'
    lineups give way to the managers' picks (the starters stay the rotation's)."""
    state.lineup, state.pos, state.pitcher_slot = [[], []], [[], []], [-1, -1]
    state.lineup_picks = [[], []]
    state.step = "set_lineups"


def set_lineups_step(state: GameState) -> None:
    """The managers' lineup picks, away first, then both lineups shown (:mod:`.lineup`)."""
    from . import lineup
    lineup.set_lineups_step(state)


def choose_lineup_pick(state: GameState, decision: Decision, action: int) -> None:
    from . import lineup
    lineup.choose_lineup_pick(state, decision, action)


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


def apply_action(state: GameState, action: int) -> None:
    """Apply the pending decision's choice, then play on to the next decision."""
    apply_choice(state, action, action_labels(state.card_set), CHOICES)
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


# ================================================================== half innings

def start_half_inning(state: GameState, *, inning: int, half: int, outs: int = 0,
                      runners: tuple[int | None, int | None, int | None] = (None, None, None),
                      leadoff: int = 0) -> GameState:
    """Put a game at the start of a half inning in a given situation, to be played on with
    :func:`~dugout.envs.core.engine.play_out` (the value tables sample half innings so).

    ``state`` is a game set up and not yet played (``new_game(..., play=False)``: lineups
    made, starters chosen); it is changed and returned. The scoreboard goes to ``inning``
    (which also keys the half's dice streams), ``half`` (0 top, 1 bottom) with ``outs``
    (0-2) and ``runners`` on first, second and third (players in the batting team's lineup,
    by roster index, or None), no runs yet, in a game that never ends by innings
    (:func:`~dugout.envs.core.engine.set_situation`); the batting team's slot ``leadoff``
    (0-8) bats first. The half starts at its first rule (the defense takes the field), so
    ``play_out`` plays it from its first at-bat.
    """
    if state.step != "start_half" or state.pending is not None or state.pitcher[0] < 0:
        raise ValueError("start_half_inning needs a game set up and not yet played "
                         "(new_game(..., play=False))")
    if half not in (0, 1) or isinstance(half, bool):
        raise ValueError(f"half must be 0 (top) or 1 (bottom), got {half!r}")
    for name, value, low, high in (("inning", inning, 1, None), ("outs", outs, 0, 2),
                                   ("leadoff", leadoff, 0, 8)):
        if (isinstance(value, bool) or not isinstance(value, int) or value < low
                or (high is not None and value > high)):
            raise ValueError(f"{name} must be an int from {low}"
                             f"{'' if high is None else f' to {high}'}, got {value!r}")
    lineup = state.lineup[half]
    runners = tuple(runners)
    on = [r for r in runners if r is not None]
    if (len(runners) != 3 or len(set(on)) != len(on)
            or any(r not in lineup or r == lineup[leadoff] for r in on)):
        raise ValueError(f"runners are three (first, second, third), each None or a different "
                         f"player of the batting lineup {lineup} other than the leadoff "
                         f"batter, got {runners!r}")
    set_situation(state.board, inning=inning, half=half, outs=outs, bases=runners)
    state.order[half] = leadoff
    return state


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
        note_play(state, "cy_young", k)
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
    note_play(state, "pinch_hitter", new, detail=str(old))


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
    note_play(state, "pitching_change", new, detail=str(old))
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
        log_play(state, "steal", k, 1, None, before, (), "1B+")
    state.step = "intentional_walk" if state.level == "expert" else "relief_ace"


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
        if rested_out(state, team, k):
            ip = state.ip_bonus[team][k]            # "his IP starts at 0 the next game"
        # Expert Innings Pitched: "for every 3 runs charged to a pitcher, his IP goes down
        # by 1"; below 0 it "doesn't do anything" (RULES.md)
        ip = max(0, ip - state.runs_charged[team][k] // 3)
    return max(0, innings - ip)


def rested_out(game: Any, team: int, k: int) -> bool:
    """Expert Innings Pitched, in a series: "If a reliever or closer pitches 2 games in a
    row, his IP starts at 0 the next game" (a starter's streak is never counted; the
    advanced game has no such rule). ``game``: a :class:`GameState` or a manager's
    ``ShowdownView`` of one (the heuristic reads it off the view): its ``level`` and
    ``relief_streak``."""
    streak = game.relief_streak[team]
    return game.level == "expert" and bool(streak) and streak[k] >= 2


# ================================================================== a series

def series_carry(state: GameState) -> dict:
    """What a finished game leaves the next game of a series (plain data):

    * ``rotation``: each team's next rotation spot, 1-4: "your starters take turns
      pitching ... If your fourth pitcher starts a game, your first pitcher will start the
      next game" (the spot after the one this game's starter holds);
    * ``relief_streak``: per team and roster index, the games in a row each reliever or
      closer has now pitched (0 for one who sat this game out: "One game of rest is all a
      reliever or closer needs to get back to his full IP"; always 0 for the others).
    """
    rotation, streaks = [], []
    for t, team in enumerate(state.teams):
        spot = team.rotation.index(state.card(t, state.starter[t]).key) + 1
        rotation.append(spot % 4 + 1)
        before = state.relief_streak[t] or [0] * ROSTER
        streaks.append([before[k] + 1 if state.used[t][k] and _reliever(card) else 0
                        for k, card in enumerate(team.players)])
    return {"rotation": rotation, "relief_streak": streaks}


def _reliever(card) -> bool:
    return isinstance(card, PitcherCard) and card.role != "starter"


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
        note_play(state, "icon_RP", k)


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
        note_play(state, "icon_20", state.pitcher[decision.actor])


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
    log_play(state, "steal", k, base + 1, None, before, (), "SB")


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
        windows.open_window(state, "on_result", "carry_out")
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
        note_play(state, "icon_K", p)


def choose_reroll(state: GameState, decision: Decision, action: int) -> None:
    """V: "Twice per game, a player with the V icon may reroll any out result"."""
    if action == YES:
        k = state.batter_index
        state.icons_left[decision.actor][k]["V"] -= 1
        note_play(state, "icon_V", k)
        state.step = "swing"


def _upgrade(state: GameState, decision: Decision, action: int, icon: str, result: str) -> None:
    if action == YES:
        k = state.batter_index
        state.icons_left[decision.actor][k][icon] -= 1
        state.ab.result = result
        note_play(state, f"icon_{icon}", k)


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
        expert.intentional_walk(state, k)
    elif ab.bunt:
        expert.sacrifice_bunt(state)
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


def out_at_plate(state: GameState) -> None:
    state.board.add_outs(1)


def hit(state: GameState, k: int, bases: int) -> None:
    """1B, 1B+, 2B, 3B, HR: every runner advances as many bases as the batter."""
    b = state.board
    before = b.bases
    b.bases, scored = advance_all(before, bases, k)
    state.half_track["reached"] = 1
    state.responsible[k] = state.pitcher[state.fielding_team]
    score_runs(state, scored, home_run=bases == 4)
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
    score_runs(state, scored)


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
        note_play(state, "icon_G", k)


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
        score_runs(state, scored)
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
    pl.batter_faced(outcome)
    charge_runs(state, scored)
    pl.outs += max(0, b.outs - ab.outs_before)
    throw = ab.throw
    extra = (("IBB", None, None, None) if ab.ibb else ("bunt", "P", ab.swing, ab.result) if ab.bunt
             else (ab.pitch, ab.chart, ab.swing, ab.result))
    if throw is None:
        log_play(state, "pa", k, -1, ab.swing, ab.before, scored, outcome.code, extra)
    else:   # the at-bat as it stood before the throw, then the throw
        after = b.bases
        b.bases = throw.bases
        log_play(state, "pa", k, -1, ab.swing, ab.before, scored[:throw.scored_before], outcome.code,
             extra)
        b.bases = after
    if throw is not None:
        total, target = throw.total, throw.target
        log_play(state, "thrown_out" if throw.out else "extra_base", throw.runner, throw.base,
             throw.roll, throw.bases, scored[throw.scored_before:],
             f"{total}>{target}" if throw.out else f"{total}<={target}")
    state.step = "end_at_bat"
    if state.cards_on and not b.over and b.outs < 3 and not (ab.ibb or ab.bunt):
        windows.open_window(state, "after_result", "end_at_bat")    # (walks and bunts are not results)


# ================================================================== the tables
# Every step in the At-Bat Sequence's order: the expert game's (expert.py) and the card
# windows' (windows.py) among them.

RULES: dict[str, Callable[[GameState], None]] = {
    "set_lineups": set_lineups_step,
    "choose_starter": choose_starter_step,
    "play_ball": play_ball,
    "start_half": start_half,
    "at_bat": at_bat,
    "pinch_runner": expert.pinch_runner_step,
    "pinch_hitter": pinch_hitter_step,
    "pitching_change": pitching_change_step,
    "defensive_replacement": expert.defensive_replacement_step,
    "batting_slot": expert.batting_slot_step,
    "pinch_hitter_again": pinch_hitter_again_step,
    "pre_pitch": pre_pitch,
    "intentional_walk": expert.intentional_walk_step,
    "sacrifice_bunt": expert.sacrifice_bunt_step,
    "before_pitch": expert.before_pitch_step,
    "card_window": windows.card_window,
    "draw_cards": windows.draw_cards,
    "bunt": expert.bunt_roll,
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
    "pinch_runner": expert.choose_pinch_runner,
    "defensive_replacement": expert.choose_defensive_replacement,
    "replaced_player": expert.choose_replaced_player,
    "batting_slot": expert.choose_batting_slot,
    "intentional_walk": expert.choose_intentional_walk,
    "sacrifice_bunt": expert.choose_sacrifice_bunt,
    "play_card": windows.choose_play_card,
    "catcher_throw": windows.choose_catcher_throw,
    **{kind: choose_lineup_pick for kind in LINEUP_KINDS},
}

