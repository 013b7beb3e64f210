"""The MLB Showdown expert game's own steps: Expert Substitutions (pinch runners,
defensive replacements, the double switch) and Expert Managerial Options (the intentional
walk, the sacrifice bunt), in the Complete At-Bat Sequence's order.

Who may come in and where he plays is ``roster.py``'s (RULES.md, "The expert game"); the
strategy cards' windows are ``windows.py``'s; ``rules.py`` runs the at-bat these steps sit in.
"""

from __future__ import annotations

from ..core.decisions import Decision
from . import roster
from .actions import PASS, PLAYER, YES, ask, choose_player
from .plays import face_batter, note_play, score_runs, walk
from .roster import take_the_field
from .state import GameState
from .windows import open_window

__all__ = ["pinch_runner_step", "choose_pinch_runner", "defensive_replacement_step",
           "choose_defensive_replacement", "choose_replaced_player", "batting_slot_step",
           "choose_batting_slot", "intentional_walk_step", "choose_intentional_walk",
           "sacrifice_bunt_step", "choose_sacrifice_bunt", "before_pitch_step", "bunt_roll",
           "intentional_walk", "sacrifice_bunt"]


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
    note_play(state, "pinch_runner", new, detail=str(old))


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
    note_play(state, "defensive_replacement" if slot >= 0 else "dh_to_field", new, detail=str(old))
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
            score_runs(state, [third] if third is not None else [])
        state.ab.outcome = "SH"
    else:
        state.ab.outcome = "PU"
    b.add_outs(1)

