"""The strategy-card windows of an MLB Showdown at-bat (the expert game with decks):
Complete At-Bat Sequence 5, 7 and 9, and what the cards' effects do to the game.

"Take turns playing a strategy card or passing" (the defense first) "until both of you pass
back-to-back": :func:`open_window` opens a window (before the pitch, on the result, after
it) and names the step after it; ``card_window`` asks whose turn it is ("play_card"), and a
card that lets runners steal asks the catcher ("catcher_throw"). Which cards a manager may
play, the decks, hands and discards are ``cardplay.py``'s; the steps around the windows are
``rules.py``'s and ``expert.py``'s.
"""

from __future__ import annotations

from ..core.decisions import Decision
from . import cardplay
from .actions import CARD, PASS, THROW_LEAD, THROW_TRAIL, WINDOWS, YES, ask, choose_player
from .plays import charge_runs, log_play, roll_swing
from .state import GameState

__all__ = ["open_window", "card_window", "draw_cards", "choose_play_card",
           "choose_catcher_throw"]


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
    log_play(state, "card", team, -1, None, state.board.bases, (), name)
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
    """A card's out ended the half inning, or a card's run the game (a walk-off), before
    the pitch: the batter's at-bat never happened (he leads off next time). A game won
    there ends where it stands, its outs on the board, as a walk-off at the plate does."""
    cardplay.end_of_at_bat(state)
    state.window, state.window_turn, state.window_then = "", -1, ""
    state.window_passes = 0
    state.pending = None
    state.step = "over" if state.board.over else "end_half"


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
        elif do == "discard_own":
            cardplay.discard_at_random(state, team, e.n)
        elif do == "starter_out":
            force_starter_out(state)
        elif do == "squeeze":
            squeeze(state)
        elif do == "ip":
            ft = state.fielding_team
            state.ip_bonus[ft][state.pitcher[ft]] += e.by
        elif do == "no_double_play":
            ab.no_dp = True
        elif do == "hold_runners":
            ab.hold = True
        if state.board.outs == 3 or state.board.over or state.pending is not None:
            return                          # (a steal's throw is always a card's last effect)


def force_starter_out(state: GameState) -> None:
    """"You can't take your starter out of the game until after the 4th inning, unless he's
    given up 10 runs or a strategy card forces him out": the defense brings in a reliever or
    closer now (``pitching_change``, subject 2: no pass), then goes on with the window."""
    from .roster import bullpen
    ft = state.fielding_team
    ask(state, "pitching_change", ft, choose_player(tuple(bullpen(state, ft)), False), subject=2)


def squeeze(state: GameState) -> None:
    """The squeeze: the batter bunts with the runner on third ("Some strategy cards may allow
    you to bunt a runner in from third base"): no pitch and no swing, the bunt's roll on
    the pitcher's chart once the window closes (``expert.sacrifice_bunt``)."""
    state.ab.bunt = True
    state.window_then = "bunt"


def fielding_check(state: GameState, e, team: int) -> None:
    """"the defense rolls a die and adds the requested players' total Fielding to the roll.
    If the total is 21 or more, the check passes" (a card's bonus added)."""
    roll = state.dice.roll("check", sides=20)
    total = roll + cardplay.fielding_check_total(state, e.positions) + e.bonus
    passed = total >= 21
    log_play(state, "fielding_check", state.fielding_team, -1, roll, state.board.bases, (),
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
    log_play(state, "card_advance", -1, -1, None, before, tuple(counted))


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
    log_play(state, "card_out", r, before.index(r), None, before, ())


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
        if base == 2:                       # a steal of home (only a card allows it)
            if r == thrown and _thrown_out(state, r, base, before):
                if b.outs == 3:
                    return
                continue
            b.bases = (new[0], new[1], new[2])
            counted = b.score([r])
            charge_runs(state, counted)
            state.box.stolen_base(bt, state.box_line[bt][r])
            log_play(state, "steal", r, 3, None, before, tuple(counted), "card")
            continue
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
                log_play(state, "caught_stealing", r, base + 1, roll, before, (), f"{total}")
                if b.outs == 3:
                    return
                continue
        new[base + 1] = r
        b.bases = (new[0], new[1], new[2])
        state.box.stolen_base(bt, state.box_line[bt][r])
        log_play(state, "steal", r, base + 1, None, before, (), "card")


def _thrown_out(state: GameState, r: int, base: int, before) -> bool:
    """The catcher's throw at a runner stealing home (no +5: a card sets its bonus)."""
    b = state.board
    bt, ft = state.batting_team, state.fielding_team
    arm = state.card(ft, state.fielder_at(ft, "C")).fielding("C") or 0
    roll = state.dice.roll("catcher", sides=20)
    total = roll + arm + cardplay.bonus(state, "catcher_bonus")
    if total <= state.card(bt, r).speed:
        return False
    b.bases = tuple(None if x == r else x for x in before)
    state.responsible.pop(r, None)
    state.box.caught_stealing(bt, state.box_line[bt][r])
    card_out(state)
    log_play(state, "caught_stealing", r, base + 1, roll, before, (), f"{total}")
    return True


def draw_cards(state: GameState) -> None:
    """"When a team's turn at the plate is over, the defense first checks to see that it can
    field all the positions (and makes substitutions if it can't), then both managers draw a
    card, and then the first at-bat starts"."""
    for t in (0, 1):
        cardplay.draw(state, t, 1)
    state.step = "at_bat"

