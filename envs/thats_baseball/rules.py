"""The That's Baseball engine: two dice plus the batter's adjusted average.

The engine rolls every die and makes every forced play itself, and stops only where
the rulebook's scenario gives a manager a choice::

    --Player A, stolen base (optional)                       -> "steal"
    --Player B, pickoff play (optional)                      -> "pickoff"
    --Player A rolls for batter                               (automatic)
    --if a roll of 29, 38, or 43, Player A rolls for XBH      (automatic)
    --if a ground out, Player A rolls for error (optional)   -> "error_roll"
    --if a ground out, Player B rolls for double play        -> "double_play", "dp_runner"
    --if a fly out, Player A rolls for baserunner to advance -> "tag_up"

It is a plain state machine: ``GameState.step`` names the next rule to apply, and
``run`` applies rules until a manager must decide or the game is over. Section letters
in comments (``# 1i``) are the rulebook's. Every reading of an unclear passage is in
RULES.md beside this file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..core.bases import (advance_all, advance_runner, force_advance, occupied,
                          push_runner, remove_runner, runner_count)
from ..core.decisions import Decision, take_decision
from ..core.dice import DICE, Dice, ScriptedDice
from ..core.scoreboard import Scoreboard, ScoreboardGame
from ..core.scorebook import (DOUBLE, DOUBLE_PLAY, FLY_OUT, GROUND_OUT, HIT_BY_PITCH, HOME_RUN,
                              OUTCOMES, PLAY_LOG, REACHED_ON_ERROR, SACRIFICE_FLY, SINGLE,
                              STRIKEOUT, TRIPLE, WALK, BoxScore, Outcome, Play, PlayLog,
                              check_plays, outcome_codec)
from ..core.state import (SavedAs, SaveError, check_choice, check_index, check_int, check_len,
                          pair_codec)
from .cards import Team, team_from_dict

__all__ = [
    "GameState", "new_game", "apply_action", "legal_actions", "RESULT_CHART", "ACTIONS",
    "PASS", "RUNNER_ON_FIRST", "RUNNER_ON_SECOND", "RUNNER_ON_THIRD", "ROLL", "DECISION_KINDS",
]

# -- actions: one Discrete space for every decision --------------------------------------
PASS = 0                  # no steal / no pickoff / no roll / the runner holds
RUNNER_ON_FIRST = 1       # steal with, throw to, or double up the runner on first
RUNNER_ON_SECOND = 2
RUNNER_ON_THIRD = 3
ROLL = 4                  # roll for an error / a double play / a tag-up
ACTIONS = ("pass", "runner on first", "runner on second", "runner on third", "roll")

DECISION_KINDS = ("steal", "pickoff", "error_roll", "double_play", "dp_runner", "tag_up")

XBH = "XBH"
#: The result chart: the batter's adjusted average plus two dice.
RESULT_CHART: dict[int, Outcome | str] = {
    26: HIT_BY_PITCH, 27: STRIKEOUT, 28: FLY_OUT, 29: XBH, 30: SINGLE, 31: WALK, 32: SINGLE,
    33: GROUND_OUT, 34: STRIKEOUT, 35: FLY_OUT, 36: GROUND_OUT, 37: SINGLE, 38: XBH,
    39: STRIKEOUT, 40: WALK, 41: FLY_OUT, 42: HIT_BY_PITCH, 43: XBH, 44: HOME_RUN,
}
#: 1h: one die decides the extra-base hit.
EXTRA_BASE_HIT = {1: DOUBLE, 2: DOUBLE, 3: DOUBLE, 4: DOUBLE, 5: TRIPLE, 6: HOME_RUN}


def _runner_action(base: int) -> int:
    return base + 1


@dataclass
class GameState(ScoreboardGame):
    """Everything about a game in progress; plain data, cloned and saved as such
    (:class:`~dugout.envs.core.state.PlainState`)."""

    SAVED_AS = SavedAs("ruleset", "thats_baseball", "That's Baseball game")

    teams: tuple[Team, Team] = field(metadata=pair_codec(
        Team.to_dict, lambda saved, i: team_from_dict(saved, f"saved team {i}")))
    board: Scoreboard
    dice: Dice | ScriptedDice = field(metadata=DICE)
    box: BoxScore
    log: PlayLog = field(metadata=PLAY_LOG)
    order: list[int]                 # each team's current (or next) batter, 0..8
    pa: int = 0                      # plate appearances begun in this half inning
    step: str = "start_pa"           # the next rule to apply
    pending: Decision | None = None
    tried_steal: tuple[int, ...] = ()  # runners (lineup slots) who tried to steal this batter
    pickoff_tried: bool = False
    #: the batter's result, once known, until it is scored (saved as its scorecard code)
    outcome: Outcome | None = field(default=None, metadata=outcome_codec(OUTCOMES))
    rbi: int = 0                     # runs batted in by the batter during this plate appearance
    pa_roll: int = 0                 # adjusted average + two dice for this batter
    tag_base: int = 2                # next runner to consider for a tag-up (3rd, 2nd, 1st)

    def batter_aa(self) -> int:
        """The adjusted average of the batter at the plate."""
        return self.teams[self.board.half].batters[self.order[self.board.half]].aa

    def validate(self) -> None:
        """A loaded game is one the rules could reach (see :func:`validate_game`)."""
        validate_game(self)


def new_game(away: Team, home: Team, dice: Dice | ScriptedDice, innings: int = 9,
             max_innings: int | None = None) -> GameState:
    """A game at its first decision (or over, if no manager ever had a choice)."""
    board = Scoreboard(innings=innings, max_innings=max_innings)
    box = BoxScore([away.name, home.name],
                   [[(b.name, str(b.aa)) for b in t.batters] for t in (away, home)])
    state = GameState(teams=(away, home), board=board, dice=dice, box=box, log=PlayLog(),
                      order=[0, 0])
    run(state)
    return state


def legal_actions(state: GameState) -> tuple[int, ...]:
    return () if state.pending is None else state.pending.legal


def apply_action(state: GameState, action: int) -> None:
    """Apply the pending decision's choice, then play on to the next decision."""
    decision = take_decision(state, action, ACTIONS)
    CHOICES[decision.kind](state, decision, action)
    run(state)


def run(state: GameState) -> None:
    """Apply rules until a manager must decide or the game is over."""
    while state.pending is None:
        if state.board.over:
            if state.outcome is not None:       # a walk-off: score the plate appearance
                record_plate_appearance(state)
            return
        RULES[state.step](state)


# -- checking a loaded game ------------------------------------------------------------------
#: The steps at which the batter's result is known (it is scored at "end_pa").
_RESULT_STEPS = ("tag_up", "end_pa")
#: Who decides each kind: the batting side (1) or the fielding side (0), and the step it is
#: asked at.
_DECIDES = {"steal": (1, "steal"), "pickoff": (0, "pickoff"), "error_roll": (1, "end_pa"),
            "double_play": (0, "end_pa"), "dp_runner": (0, "end_pa"), "tag_up": (1, "tag_up")}


def validate_game(state: GameState) -> None:
    """Check a loaded game (``GameState.from_dict``) for what its types cannot say: a
    :class:`~dugout.envs.core.state.SaveError` names the field. Each team's batting order,
    runners and box score lines are lineup slots (rule 1c: nine batters); the next rule is
    one of :data:`RULES`; the batter's result is known exactly from the roll on (1e) until
    it is scored; and the pending decision is the one the rules offer in this situation,
    with these legal actions (a game not over always waits on one)."""
    b = state.board
    check_len(state.order, 2, ("order",))
    for team in (0, 1):
        check_index(state.order[team], 9, ("order", team), "the lineup")
        check_len(state.box.lines[team], 9, ("box", "lines", team))
    for i, r in enumerate(b.bases):
        if r is not None:
            check_index(r, 9, ("board", "bases", i), "the batting team's lineup")
    for i, r in enumerate(state.tried_steal):
        check_index(r, 9, ("tried_steal", i), "the batting team's lineup")
    check_plays(state.log, 9, OUTCOMES)
    for i, play in enumerate(state.log.plays):
        check_int(play.base, ("log", i, 4), -1, 3)
    check_int(state.pa, ("pa",), 0)
    check_int(state.rbi, ("rbi",), 0)
    check_int(state.pa_roll, ("pa_roll",), 0)
    check_int(state.tag_base, ("tag_base",), -1, 2)
    check_choice(state.step, RULES, ("step",))
    if b.over:                  # (its last plate appearance scored, at whatever step)
        if state.pending is not None or state.outcome is not None:
            raise SaveError("a game that is over has no pending decision or batter's result",
                            ("pending" if state.pending is not None else "outcome",))
        return
    if (state.outcome is not None) != (state.step in _RESULT_STEPS):
        raise SaveError(f"the batter's result is known at steps {list(_RESULT_STEPS)} and only "
                        f"there; step {state.step!r} has {state.outcome and state.outcome.code!r}",
                        ("outcome",))
    if b.outs == 3 and state.step != "end_pa":
        raise SaveError(f"three outs are made only during a plate appearance, not at step "
                        f"{state.step!r}", ("board", "outs"))
    d = state.pending
    if d is None:
        raise SaveError("a game that is not over waits on a decision", ("pending",))
    check_choice(d.kind, _DECIDES, ("pending", "kind"))
    side, step = _DECIDES[d.kind]
    if d.actor != (b.batting if side else b.fielding):
        raise SaveError(f"a {d.kind!r} decision is the {('fielding', 'batting')[side]} side's "
                        f"({(b.fielding, b.batting)[side]}), got {d.actor}", ("pending", "actor"))
    if state.step != step:
        raise SaveError(f"a {d.kind!r} decision is made at step {step!r}, got {state.step!r}",
                        ("step",))
    if d.kind != "tag_up" and d.subject != -1:
        raise SaveError(f"a {d.kind!r} decision has no subject (-1), got {d.subject}",
                        ("pending", "subject"))
    if d.kind == "steal":
        offer = (PASS,) + tuple(_runner_action(i) for i in steal_candidates(state))
    elif d.kind == "pickoff":
        runners = occupied(b.bases)
        offer = (PASS,) + tuple(_runner_action(i) for i in runners) if (
            runners and not state.pickoff_tried) else ()
    elif d.kind == "dp_runner":
        offer = tuple(_runner_action(i) for i in occupied(b.bases))
        if len(offer) < 2 or b.outs > 2 or state.outcome is not GROUND_OUT:
            offer = ()
    elif d.kind == "tag_up":
        base = d.subject
        ok = (0 <= base <= 2 and base == state.tag_base and b.bases[base] is not None
              and (base == 2 or b.bases[base + 1] is None) and b.outs < 3
              and state.outcome in (FLY_OUT, SACRIFICE_FLY))
        offer = (PASS, ROLL) if ok else ()
    else:                       # error_roll, double_play: on a ground out
        ok = state.outcome is GROUND_OUT and b.outs < 3 and (
            d.kind == "error_roll" or b.bases[0] is not None)
        offer = (PASS, ROLL) if ok else ()
    if d.legal != offer:
        raise SaveError(f"a {d.kind!r} decision here offers {list(offer) or 'nothing'}, got "
                        f"{list(d.legal)}", ("pending", "legal"))


# -- small helpers --------------------------------------------------------------------------
def _log(state: GameState, kind: str, actor: int, base: int, roll: int | None,
         before: tuple, scored: tuple | list = (), detail: str = "") -> None:
    b = state.board
    state.log.add(Play(b.inning, b.half, kind, actor, base, roll, before, b.bases,
                       tuple(scored), detail))


def score_runs(state: GameState, runners: list, rbi: bool, home_run: bool = False) -> list:
    """Runners cross the plate; credit runs (and RBIs to the batter when earned)."""
    if not runners:
        return runners
    counted = state.board.score(runners, home_run=home_run)
    state.box.runs_scored(state.board.half, counted)
    if rbi:
        state.rbi += len(counted)
    return counted


def record_outs(state: GameState, n: int = 1) -> bool:
    """Record outs; True when the side is retired (1n)."""
    return state.board.add_outs(n)


def retire_side(state: GameState) -> None:
    """1n: three outs end the half inning; the next one starts with a new plate appearance."""
    state.board.end_half()
    state.pa = 0
    state.step = "start_pa"


def _decide(state: GameState, kind: str, actor: int, legal: tuple[int, ...],
            subject: int = -1) -> None:
    state.pending = Decision(kind, actor, legal, subject)


# -- 1g: before the batter ------------------------------------------------------------------
def start_plate_appearance(state: GameState) -> None:
    state.dice.set_stream(state.board.half_index, state.pa)
    state.tried_steal = ()
    state.pickoff_tried = False
    state.step = "steal"


def steal_candidates(state: GameState) -> tuple[int, ...]:
    """1i: each runner may try once per batter, for an empty base ahead (or home)."""
    bases = state.board.bases
    return tuple(i for i in range(3)
                 if bases[i] is not None and bases[i] not in state.tried_steal
                 and (i == 2 or bases[i + 1] is None))


def offer_steal(state: GameState) -> None:
    candidates = steal_candidates(state)
    if candidates:
        _decide(state, "steal", state.board.batting, (PASS,) + tuple(_runner_action(i) for i in candidates))
    else:
        state.step = "pickoff"


def choose_steal(state: GameState, decision: Decision, action: int) -> None:
    if action == PASS:
        state.step = "pickoff"
        return
    attempt_steal(state, action - 1)


def attempt_steal(state: GameState, base: int) -> None:
    """1i: one die; 1-3 caught stealing (an out), 4-6 the runner takes the next base."""
    b = state.board
    team = b.batting
    runner = b.bases[base]
    state.tried_steal += (runner,)
    before = b.bases
    roll = state.dice.roll("steal")
    if roll <= 3:
        b.bases = remove_runner(before, base)
        state.box.caught_stealing(team, runner)
        _log(state, "caught_stealing", runner, base + 1, roll, before)
        if record_outs(state):
            retire_side(state)
        return
    b.bases, scored = advance_runner(before, base, 1)
    state.box.stolen_base(team, runner)
    _log(state, "steal", runner, base + 1, roll, before, scored)
    score_runs(state, scored, rbi=False)


def offer_pickoff(state: GameState) -> None:
    """1j: the fielding manager may throw at one runner, once between batters."""
    runners = occupied(state.board.bases)
    if runners and not state.pickoff_tried:
        _decide(state, "pickoff", state.board.fielding, (PASS,) + tuple(_runner_action(i) for i in runners))
    else:
        state.step = "at_bat"


def choose_pickoff(state: GameState, decision: Decision, action: int) -> None:
    state.step = "at_bat"
    if action != PASS:
        attempt_pickoff(state, action - 1)


def attempt_pickoff(state: GameState, base: int) -> None:
    """1j: two dice; 12 picked off, 3-11 safe, 2 a throwing error: the runner moves up."""
    b = state.board
    state.pickoff_tried = True
    runner = b.bases[base]
    before = b.bases
    roll = state.dice.roll("pickoff", dice=2)
    if roll == 12:
        b.bases = remove_runner(before, base)
        _log(state, "picked_off", runner, base, roll, before)
        if record_outs(state):
            retire_side(state)
    elif roll == 2:
        state.box.error(b.fielding)
        b.bases, scored = push_runner(remove_runner(before, base), base + 1, runner)
        _log(state, "pickoff_error", runner, base + 1, roll, before, scored)
        score_runs(state, scored, rbi=False)
    else:
        _log(state, "pickoff_safe", runner, base, roll, before)


# -- 1e: the batter --------------------------------------------------------------------------
def roll_for_batter(state: GameState) -> None:
    """1e: two dice plus the batter's adjusted average, read on the result chart."""
    b = state.board
    total = state.batter_aa() + state.dice.roll("at_bat", dice=2)
    result = RESULT_CHART[total]
    if result is XBH:                                   # 1h
        result = EXTRA_BASE_HIT[state.dice.roll("extra_base_hit")]
    state.pa_roll = total
    state.outcome = result
    state.rbi = 0
    state.step = "end_pa"
    if result.bases:
        batter_hits(state, result)
    elif result is WALK or result is HIT_BY_PITCH:
        batter_walks(state, result)
    elif result is STRIKEOUT:
        batter_out(state, result)
    elif result is FLY_OUT:
        batter_out(state, result)
        if b.outs < 3 and runner_count(b.bases):
            state.tag_base = 2
            state.step = "tag_up"
    else:                                               # ground out: 1m first, then 1k
        _decide(state, "error_roll", b.batting, (PASS, ROLL))


def _log_batter(state: GameState, before: tuple, scored: list | tuple = ()) -> None:
    _log(state, "pa", state.batter, -1, state.pa_roll, before, scored, state.outcome.code)


def batter_hits(state: GameState, outcome: Outcome) -> None:
    """1o: runners advance as many bases as the batter."""
    b = state.board
    before = b.bases
    b.bases, scored = advance_all(before, outcome.bases, state.batter)
    counted = score_runs(state, scored, rbi=True, home_run=outcome.bases == 4)
    _log_batter(state, before, counted)


def batter_walks(state: GameState, outcome: Outcome) -> None:
    """1o: on a walk or hit batsman only forced runners move."""
    b = state.board
    before = b.bases
    b.bases, scored = force_advance(before, state.batter)
    counted = score_runs(state, scored, rbi=True)
    _log_batter(state, before, counted)


def batter_out(state: GameState, outcome: Outcome) -> None:
    before = state.board.bases
    record_outs(state)
    _log_batter(state, before)


# -- 1m: the error roll on a ground out ------------------------------------------------
def choose_error_roll(state: GameState, decision: Decision, action: int) -> None:
    if action == ROLL and state.dice.roll("error", dice=2) == 12:
        reached_on_error(state)
    else:
        ground_out(state)


def reached_on_error(state: GameState) -> None:
    """1m: on 12 the batter takes first and every runner advances one base (no RBI)."""
    b = state.board
    state.box.error(b.fielding)
    state.outcome = REACHED_ON_ERROR
    before = b.bases
    b.bases, scored = advance_all(before, 1, state.batter)
    counted = score_runs(state, scored, rbi=False)
    _log_batter(state, before, counted)


def ground_out(state: GameState) -> None:
    """The batter is out at first; runners hold unless the fielding side goes for two (1k)."""
    b = state.board
    record_outs(state)
    if b.outs < 3 and b.bases[0] is not None:
        _decide(state, "double_play", b.fielding, (PASS, ROLL))
    else:
        _log_batter(state, b.bases)


# -- 1k: the double play ------------------------------------------------------------------
def choose_double_play(state: GameState, decision: Decision, action: int) -> None:
    b = state.board
    if action == PASS:
        _log_batter(state, b.bases)
        return
    if state.dice.roll("double_play") <= 3:
        double_play_missed(state)
    elif runner_count(b.bases) > 1:
        _decide(state, "dp_runner", b.fielding, tuple(_runner_action(i) for i in occupied(b.bases)))
    else:
        turn_double_play(state, 0)


def double_play_missed(state: GameState) -> None:
    """1k, 1-3: no double play; the runner from first takes second, forcing those ahead."""
    b = state.board
    before = b.bases
    b.bases, scored = push_runner(remove_runner(before, 0), 1, before[0])
    counted = score_runs(state, scored, rbi=True)
    _log_batter(state, before, counted)


def choose_dp_runner(state: GameState, decision: Decision, action: int) -> None:
    turn_double_play(state, action - 1)


def turn_double_play(state: GameState, base: int) -> None:
    """1k, 4-6: a second out on the chosen runner; the other runners advance one base.

    A double play that makes the third out scores no run (a force play ends the inning).
    """
    b = state.board
    state.outcome = DOUBLE_PLAY
    before = b.bases
    retired = record_outs(state)
    b.bases, scored = advance_all(remove_runner(before, base), 1)
    counted = [] if retired else score_runs(state, scored, rbi=False)
    _log_batter(state, before, counted)


# -- 1l: tagging up on a fly out ----------------------------------------------------------
def offer_tag_up(state: GameState) -> None:
    """1l: third, then second, then first; a runner needs the next base empty."""
    b = state.board
    while state.tag_base >= 0:
        base = state.tag_base
        if b.bases[base] is not None and (base == 2 or b.bases[base + 1] is None):
            _decide(state, "tag_up", b.batting, (PASS, ROLL), subject=base)
            return
        state.tag_base -= 1
    state.step = "end_pa"


def choose_tag_up(state: GameState, decision: Decision, action: int) -> None:
    base = decision.subject
    state.tag_base = base - 1
    if action == ROLL:
        tag_up(state, base)


def tag_up(state: GameState, base: int) -> None:
    """1l: one die; 5-6 the runner advances a base, 1-4 he stays (he is not out)."""
    b = state.board
    runner = b.bases[base]
    before = b.bases
    roll = state.dice.roll("tag_up")
    if roll <= 4:
        _log(state, "tag_held", runner, base, roll, before)
        return
    b.bases, scored = advance_runner(before, base, 1)
    counted = score_runs(state, scored, rbi=True)
    if counted:
        state.outcome = SACRIFICE_FLY
    _log(state, "tag_up", runner, base + 1, roll, before, counted)


# -- after the batter -----------------------------------------------------------------------
def record_plate_appearance(state: GameState) -> None:
    b = state.board
    state.box.plate_appearance(b.half, state.batter, b.inning, state.outcome, state.rbi)
    state.outcome = None
    state.rbi = 0


def end_plate_appearance(state: GameState) -> None:
    """Score the plate appearance; 1c: the next batter in the order comes up."""
    b = state.board
    record_plate_appearance(state)
    state.order[b.half] = (state.order[b.half] + 1) % 9
    state.pa += 1
    state.step = "start_pa"
    if b.outs == 3:
        retire_side(state)


RULES: dict[str, Callable[[GameState], None]] = {
    "start_pa": start_plate_appearance,
    "steal": offer_steal,
    "pickoff": offer_pickoff,
    "at_bat": roll_for_batter,
    "tag_up": offer_tag_up,
    "end_pa": end_plate_appearance,
}

CHOICES: dict[str, Callable[[GameState, Decision, int], None]] = {
    "steal": choose_steal,
    "pickoff": choose_pickoff,
    "error_roll": choose_error_roll,
    "double_play": choose_double_play,
    "dp_runner": choose_dp_runner,
    "tag_up": choose_tag_up,
}
