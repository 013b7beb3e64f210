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

The Longer Game (mode "game": the draft, lineups, innings, relief, pinch hitting) is
:mod:`.game`; the state, the action numbers and the check of a loaded game are
:mod:`.state`. This module plays a plate appearance for both and assembles the one pair of
rule tables, ``RULES`` and ``CHOICES``, that plays both (a step both have goes by the mode):
importing it is enough to have every rule. The Manager Challenge (:mod:`.solo`) registers
its own overrides of them.
"""


from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..core import scorebook as sb
from ..core.bases import advance_all, force_advance, occupied
from ..core.decisions import Decision
from ..core.dice import Dice, ScriptedDice
from ..core.engine import apply_choice, run_rules
from ..core.scoreboard import Scoreboard, SuddenDeathScoreboard
from ..core.scorebook import BoxScore, Outcome, Play, PlayLog
from .cards import FACES, PITCHES, CardSet, Effect, ace_pitch, can_complete_lineup, pair_needs
from .game import (change_game_pitcher, choose_double_switch, choose_ds_where, choose_fatigue_point,
                   draw_shared_support, offer_or_deal, offer_support_pick,
                   choose_game_draft_pick, choose_game_select, choose_pinch_hit, choose_select_support,
                   choose_sub_slot, game_setup, grant_support, half_start, inning_fatigue, long_game,
                   offer_ds_where, offer_fatigue_point, offer_game_change, offer_game_draft,
                   offer_game_select, offer_pinch_hit, offer_start_switch, offer_sub_slot, offer_switch,
                   play_ball_game, roll_for_draft_order)
# the vocabulary (the action numbers, the decision kinds, the names) and the state are
# state.py's: imported here for these rules, and as this public module's names for its users
from .state import (ABILITY_ACTIONS, ABILITY_EFFECT, ACTIONS, BATTER_ABILITIES, BRING_IN, CARD,
                    CAUGHT_AT_WALL, CONTROL_DOWN, CONTROL_UP, DECISION_KINDS, DEFAULT_FACES, DONE,
                    DRAFT_BATTERS, DRAFT_PITCHERS, FACE_B, FACE_C, FACE_S, FATIGUE_DIR, FATIGUE_LOC,
                    FATIGUE_PITCHER, FIELDERS_CHOICE, GAME_LINEUP, GAME_TEAM_NAMES, GUESS, KEEP,
                    LINEUP_SIZE, MAX_RELIEF, MODES, MVP, N_ACTIONS, N_SOLO_ACTIONS, OUTCOMES, PASS,
                    PICK_FIRST, PICK_SECOND, PITCHER_ABILITIES, RELIEF, REROLL_CONTROL, REROLL_PITCH,
                    REROLL_SWING, SLOT, SOLO_ACTIONS, SOLO_DECISION_KINDS, SUPPORT, SWING_DOWN,
                    SWING_UP, TEAM_NAMES, THROW, GameState, Grant, clear_pitch)
from .conditions import condition_cards, condition_ops, condition_supports, load_solo
from .support import SupportSet

__all__ = ["GameState", "Grant", "new_game", "apply_action", "run", "set_at_bat", "option_labels", "RULES",
           "CHOICES", "ACTIONS", "SOLO_ACTIONS", "DECISION_KINDS", "SOLO_DECISION_KINDS",
           "TEAM_NAMES", "GAME_TEAM_NAMES", "LINEUP_SIZE", "GAME_LINEUP", "DRAFT_PITCHERS",
           "DRAFT_BATTERS", "ABILITY_ACTIONS", "ABILITY_EFFECT", "PITCHER_ABILITIES",
           "BATTER_ABILITIES", "usable_abilities", "OUTCOMES", "FIELDERS_CHOICE", "CAUGHT_AT_WALL",
           "DEFAULT_FACES", "THROW", "GUESS", "DONE", "REROLL_PITCH", "REROLL_CONTROL", "CONTROL_UP",
           "CONTROL_DOWN", "FACE_B", "FACE_S", "FACE_C", "REROLL_SWING", "SWING_UP", "SWING_DOWN",
           "RELIEF", "MAX_RELIEF", "KEEP", "BRING_IN", "PICK_FIRST", "PICK_SECOND", "CARD", "SLOT",
           "FATIGUE_DIR", "FATIGUE_LOC", "PASS", "SUPPORT", "N_ACTIONS", "MVP", "FATIGUE_PITCHER",
           "N_SOLO_ACTIONS"]



def new_game(dice: Dice | ScriptedDice, cards: CardSet, *, lineup: list[int] | None = None,
             staff: list[int] | None = None, draft: bool = False, inning: int = 9,
             fatigue_rows: int = 4, faces: dict[str, int] | None = None,
             out_rule: str = "lead_runner", mode: str = "duel", teams: str = "",
             innings: int = 3, max_innings: int | None = None, batters: int = 8,
             pitchers: int = 4, support: bool | str = False,
             supports: SupportSet | None = None, extra_innings: bool = False,
             away_lineup: list[int] | None = None,
             home_staff: list[int] | None = None, dealt: bool = False,
             carry: dict | None = None, condition: int = -1) -> GameState:
    """A game at its first decision. ``lineup`` (six batter indices) and ``staff`` (starter,
    substitute) given: the duel starts at once; None: home and away choose them (draft=True:
    after a draft). ``extra_innings`` (the duel): a tie at the third out goes on to the next
    inning, for which away bats ``away_lineup`` and home pitches ``home_staff`` (given with
    the teams; chosen after them with a draft). ``support`` (both modes): True, one support
    card each (given teams: the first pitching card for away and the first batting card for
    home in the duel; else picked or drafted); "shared", one card for both, drawn."""
    counts = DEFAULT_FACES if faces is None else faces
    face_list = tuple(f for f in FACES for _ in range(counts.get(f, 0)))
    if mode == "solo":
        raise ValueError("a Manager Challenge game starts with solo.new_solo_game")
    if mode == "game":
        state = long_game(dice, cards, face_list, draft=draft, teams=teams or "default",
                          fatigue_rows=fatigue_rows, out_rule=out_rule, innings=innings,
                          max_innings=max_innings, batters=batters, pitchers=pitchers,
                          support=support, supports=supports)
        state.dealt = dealt
        if carry is not None:
            take_teams(state, carry)
        run(state)
        return state
    blank = [(f"Batter {i + 1}", "") for i in range(LINEUP_SIZE)]
    ops = condition_ops(load_solo(), condition) if condition >= 0 else ()
    if ops:
        cards = condition_cards(cards, ops)
    deficit = sum(o.n for o in ops if o.kind == "deficit")
    if extra_innings:
        board = tenth_inning_board(inning, deficit)
        box = BoxScore(list(TEAM_NAMES), [list(blank), list(blank)])
    else:
        board = SuddenDeathScoreboard(innings=inning, inning=inning, half=1, runs=[deficit, 0])
        box = BoxScore(list(TEAM_NAMES), [[], blank])
    board.outs = min(2, sum(o.n for o in ops if o.kind == "out"))
    if deficit:
        add_deficit_line(box, deficit)
    teams = "given" if lineup is not None else "choose"
    state = GameState(board=board, dice=dice, box=box, log=PlayLog(), cards=cards,
                      faces=face_list, fatigue_rows=fatigue_rows, out_rule=out_rule,
                      teams=teams, draft=draft,
                      lineup=list(lineup or []), staff=list(staff or []),
                      extra_innings=extra_innings)
    state.dealt = dealt
    state.condition = condition
    condition_grants = condition_supports(ops)
    if condition_grants is not None:          # played as a shared support card
        support, supports = "shared", condition_grants
    if extra_innings:
        state.lineups[0] = list(away_lineup or [])
        state.staffs[1] = list(home_staff or [])
    if support:
        state.supports, state.use_support = supports, True
        if condition_grants is not None:
            state.use_support = state.shared_support = True
            state.support = [0, 0]
        elif support == "shared":
            draw_shared_support(state)
        elif lineup is not None:
            state.support = default_supports(supports)
    if carry is not None:
        take_teams(state, carry)
    run(state)
    return state


def add_deficit_line(box: BoxScore, runs: int) -> None:
    """The visitors' runs of a Condition Card's deficit, on a batting line of their own
    (after any lineup's lines), so the box score adds up to the score."""
    line = box.lines[0][box.add_line(0, "Earlier innings (Condition Card)", "")]
    line.r = runs


def tenth_inning_board(inning: int, deficit: int = 0) -> Scoreboard:
    """Extra Innings in the duel ("you may opt to play out the tenth inning"): the bottom of
    ``inning``, tied; a tie at its third out goes on to the next inning, away batting in the
    top and home in the bottom (a walk-off ends it), and a tie after that inning is cut off
    (the rulebook plays one more inning, RULES.md)."""
    return Scoreboard(innings=inning, max_innings=inning + 1, inning=inning, half=1,
                      runs=[deficit, 0], line=[[deficit] + [0] * (inning - 1), [0] * inning])


def teams_of(state: GameState) -> dict:
    """A game's teams as plain data (what a series carries from game to game): the duel's
    lineup and pitchers (the tenth inning's other halves too), the Longer Game's teams as
    they took the field (``opening``) and staffs; the draft's picks and first picker; the
    support cards."""
    out = {"drafted": [list(x) for x in state.drafted], "draft_first": state.draft_first,
           "support": list(state.support), "staffs": [list(x) for x in state.staffs]}
    if state.mode == "game":
        out["opening"] = [[list(x) for x in team] for team in state.opening]
    else:
        out.update(lineup=list(state.lineup), staff=list(state.staff),
                   away_lineup=list(state.lineups[0]))
    return out


def take_teams(state: GameState, carry: dict) -> None:
    """A new game of a series with the teams of :func:`teams_of` (no set-up decisions): the
    draft and the choices stay as they were made (the same drafted cards, the same picks),
    and the game starts at Play Ball."""
    state.drafted = [list(x) for x in carry["drafted"]]
    state.draft_first = carry["draft_first"]
    state.support = list(carry["support"])
    state.staffs = [list(x) for x in carry["staffs"]]
    if state.mode == "game":
        state.lineups = [list(team[0]) for team in carry["opening"]]
        state.benches = [list(team[1]) for team in carry["opening"]]
        state.step = "play_ball"
    else:
        state.lineups[0] = list(carry["away_lineup"])


def default_supports(supports: SupportSet) -> list[int]:
    """The duel's assigned support cards with given teams ("you may assign ... support
    characters that may only be used by the player that controls them"): away, who pitches,
    the set's first pitching card, home the first batting card (either the first card when
    the set has none of that side)."""
    def first(side: str) -> int:
        return next((k for k, c in enumerate(supports.cards) if c.side == side), 0)
    away, home = first("pitching"), first("batting")
    return [away, home if home != away else (away + 1) % len(supports.cards)]


def apply_action(state: GameState, action: int) -> None:
    """Apply the pending decision's choice, then play on to the next decision."""
    choices, rules, labels = MODES[state.mode]
    apply_choice(state, action, labels, choices)
    run_rules(state, rules)


def run(state: GameState) -> None:
    """Apply the mode's rules until a manager must decide or the game is over."""
    run_rules(state, MODES[state.mode][1])


def set_at_bat(state: GameState, *, slot: int, outs: int, bases: tuple, balls: int, strikes: int,
               pitcher: int, removed: list[int], fatigue: tuple[int, int], ceiling: int, pa: int,
               step: str = "stare_down") -> None:
    """Put a duel at a situation of its half inning, for outside code that plays one on (the
    solver's tables and checks): ``outs`` and ``bases`` (the runners' batting lines, or
    None) on the board, the batter in lineup ``slot`` at a count of ``balls``-``strikes``
    (as many pitches of the at-bat behind him), ``pitcher`` on the mound (``removed`` the
    pitchers taken out) with his Fatigue Tokens on rows ``fatigue`` and relief reaching
    row ``ceiling``, ``pa`` plate appearances this half inning; no pitch in progress, no
    last pitch and no decision pending. The game waits at ``step`` (a rule of ``RULES``):
    :func:`run` or :func:`~dugout.envs.core.engine.play_out` plays it on."""
    if state.mode != "duel":
        raise ValueError(f"set_at_bat sets a duel's situation, not a {state.mode!r} game's")
    if step not in RULES:
        raise ValueError(f"unknown step {step!r} (the rules: {', '.join(RULES)})")
    b = state.board
    b.outs, b.bases = outs, tuple(bases)
    state.balls, state.strikes = balls, strikes
    state.order[1] = slot
    state.pitcher, state.removed = pitcher, list(removed)
    state.ceiling, state.fatigue = ceiling, list(fatigue)
    state.pa, state.pitch_no = pa, balls + strikes
    state.last = ""
    clear_pitch(state)
    state.pending = None
    state.step = step


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
        roll_for_draft_order(state)
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
        if offer_support_pick(state, choose_draft_pick):
            return
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
    offer_or_deal(state, Decision("draft_pick", seat, tuple(legal)), choose_draft_pick)


def choose_draft_pick(state: GameState, decision: Decision, action: int) -> None:
    if action >= SUPPORT:
        state.support[decision.actor] = action - SUPPORT
    else:
        state.drafted[decision.actor].append(action - CARD)


def offer_select_batter(state: GameState) -> None:
    """Setup, Batter: "select 6 Batter Cards ... of different field positions ... and set the
    lineup in the order": one pick per lineup slot, masked to keep a legal lineup possible.
    With the tenth inning and a draft, away then sets its lineup from its drafted batters."""
    cs = state.cards
    if len(state.lineup) < LINEUP_SIZE:
        pool = state.drafted[1] if state.draft else list(range(len(cs.batters)))
        state.pending = Decision("select_batter", 1, lineup_picks(state, pool))
    elif state.extra_innings and len(state.lineups[0]) < LINEUP_SIZE:
        state.pending = Decision("select_batter", 0,
                                 lineup_picks(state, state.drafted[0], state.lineups[0]))
    else:
        state.step = "select_pitcher"


def lineup_picks(state: GameState, pool: list[int], lineup: list[int] | None = None) -> tuple[int, ...]:
    """The card actions of the batters in ``pool`` who may take the next slot of ``lineup``
    (home's by default): not in it yet, and six different positions still possible with the
    rest of the pool."""
    cs = state.cards
    lineup = state.lineup if lineup is None else lineup
    pool = sorted(i for i in pool if cs.is_batter(i) and i not in lineup)
    chosen = [cs.card(i).eligible for i in lineup]
    return tuple(CARD + i for i in pool if can_complete_lineup(
        chosen + [cs.card(i).eligible], [cs.card(j).eligible for j in pool if j != i]))


def choose_select_batter(state: GameState, decision: Decision, action: int) -> None:
    (state.lineup if decision.actor == 1 else state.lineups[0]).append(action - CARD)


def offer_select_pitcher(state: GameState) -> None:
    """Setup, Pitcher: a starter (not a Relief Pitcher), then a substitute (not a Starting
    Pitcher). With the tenth inning and a draft, home then picks its two from its draft."""
    cs = state.cards
    if len(state.staff) < 2:
        seat, staff = 0, state.staff
    elif state.extra_innings and len(state.staffs[1]) < 2:
        seat, staff = 1, state.staffs[1]
    elif state.use_support and min(state.support) < 0:
        # support characters "assign[ed]" at set-up: away picks, then home, each a card the
        # other does not hold
        seat = 0 if state.support[0] < 0 else 1
        free = [k for k in range(len(state.supports.cards)) if k not in state.support]
        state.pending = Decision("select_support", seat, tuple(SUPPORT + k for k in free))
        return
    else:
        state.step = "play_ball"
        return
    n_b = len(cs.batters)
    pool = state.drafted[seat] if state.draft else list(range(n_b, len(cs.cards)))
    pool = sorted(i for i in pool if not cs.is_batter(i) and i not in staff)
    if not staff:
        legal = tuple(CARD + i for i in pool if cs.card(i).can_start and any(
            cs.card(j).can_relieve for j in pool if j != i))
    else:
        legal = tuple(CARD + i for i in pool if cs.card(i).can_relieve)
    state.pending = Decision("select_pitcher", seat, legal)


def choose_select_pitcher(state: GameState, decision: Decision, action: int) -> None:
    (state.staff if decision.actor == 0 else state.staffs[1]).append(action - CARD)


def play_ball(state: GameState) -> None:
    """Setup: the starter takes the mound, his Fatigue Tokens "at the top of the Fatigue
    Track"; the lineup goes on the scorecard."""
    cs = state.cards
    for team, lineup in ((1, state.lineup), (0, state.lineups[0] if state.extra_innings else [])):
        for slot, i in enumerate(lineup):
            line = state.box.lines[team][slot]
            line.name, line.label = cs.card(i).name, cs.card(i).position
    state.pitcher = state.staff[0]
    state.box.add_pitcher(0, cs.card(state.pitcher).name)
    state.fatigue = [0, 0]
    state.ceiling = 0
    if state.condition >= 0:
        condition_at_first_pitch(state)
    state.step = "new_batter"


def condition_at_first_pitch(state: GameState) -> None:
    """The Condition Card's runners ("a runner on that base": the batters before the first
    one up, the latest on the lowest base) and the starter's fatigue (n rows in all, the
    direction token first, alternately, never past the bottom)."""
    ops = condition_ops(load_solo(), state.condition)
    bases: list = [None, None, None]
    back = 1
    for base in sorted({o.n - 1 for o in ops if o.kind == "runner"}):
        bases[base] = (state.order[1] - back) % LINEUP_SIZE
        back += 1
    state.board.bases = tuple(bases)
    bottom = state.fatigue_rows - 1
    for i in range(sum(o.n for o in ops if o.kind == "fatigue")):
        order = (i % 2, 1 - i % 2)
        token = next((t for t in order if state.fatigue[t] < bottom), None)
        if token is None:
            break
        state.fatigue[token] += 1


# -- a plate appearance ----------------------------------------------------------------------------
def new_batter(state: GameState) -> None:
    """"Prior to the first Pitch, if there is a new Batter ... place a Runner Meeple there":
    the count is 0-0."""
    state.balls = state.strikes = 0
    state.pitch_no = 0
    state.box.pitching[state.board.fielding][-1].bf += 1
    state.step = "stare_down"


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
    clear_pitch(state)
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


def offer_abilities(state: GameState, side: int, kind: str, then: str) -> None:
    """A side's turn to use Abilities: its usable ones, or DONE to go on to step ``then``
    (straight there when it has none)."""
    legal = usable_abilities(state, side)
    if not legal:
        state.step = then
        return
    state.pending = Decision(kind, state.seat_of(side), (DONE,) + legal)


def use_ability_or_go_on(state: GameState, side: int, action: int, then: str) -> None:
    """The side uses the Ability ``action`` (and is asked again), or is DONE: step ``then``."""
    if action == DONE:
        state.step = then
    else:
        use_ability(state, side, action)


def offer_pitcher_ability(state: GameState) -> None:
    """2. The Pitch: "then uses any Abilities ... from their Trait and Stare-Down results"."""
    offer_abilities(state, 0, "pitcher_ability", then="swing")


def choose_pitcher_ability(state: GameState, decision: Decision, action: int) -> None:
    use_ability_or_go_on(state, 0, action, then="swing")


def roll_swing(state: GameState) -> None:
    """3. The Swing: "The Batter now rolls the Swing die"."""
    state.swing = state.swing_natural = state.dice.roll("swing")
    state.step = "batter_ability"


def offer_batter_ability(state: GameState) -> None:
    """3. The Swing: then the Batter uses any Abilities."""
    offer_abilities(state, 1, "batter_ability", then="resolve")


def choose_batter_ability(state: GameState, decision: Decision, action: int) -> None:
    use_ability_or_go_on(state, 1, action, then="resolve")


# -- the swing table -----------------------------------------------------------------------------------
def swing_result(face: str, swing: int, control: int) -> str:
    """3. The Swing's table: ball / strike / foul / contact."""
    if face == "B":
        return "strike" if swing > control else "ball"
    if face == "S":
        return "strike" if swing < control else "foul" if swing == control else "contact"
    return "contact" if swing == control else "strike"


def hit_by_pitch(state: GameState) -> bool:
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
        if hit_by_pitch(state):
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
        state.order[team] = (slot + 1) % LINEUP_SIZE
        state.step = "clean_up"
        if b.outs == 3:
            # the third out: the pitcher wins (SuddenDeathScoreboard), or with the tenth
            # inning a tie goes on to it (the board's next half)
            b.end_half()
            if state.extra_innings and not b.over:
                state.step = "next_half"
    if not b.over:
        # the pitch is over with the at-bat: decisions between batters see no stale dice,
        # tokens or grants (``last`` keeps it in words); a finished game keeps its last pitch
        clear_pitch(state)


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
    """The fielding team's bench pitcher who may come in, or -1 (never a removed one, never a
    starter-only; home's in the top of the tenth inning)."""
    staff = state.staff if state.board.fielding == 0 else state.staffs[1]
    for i in staff[1:]:
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
        state.pending = Decision("pitching_change", state.seat_of(0), (KEEP, BRING_IN))


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
    state.box.add_pitcher(b.fielding, state.cards.card(new).name)
    state.log.add(Play(b.inning, b.half, "pitching_change", new, -1, None, b.bases, b.bases, (), ""))


def next_half(state: GameState) -> None:
    """Extra Innings in the duel ("If recording three Outs just isn't enough, you may opt to
    play out the tenth inning"): the other team takes the field. Its pitcher (home's
    starter in the top, away's pitcher of the ninth in the bottom) starts with his tokens
    at his reset row (the Longer Game's "At the start of each Inning, reset the Fatigue
    Track, then Fatigue the Pitcher 1 for each Run they have allowed": neither has allowed
    one), the top of the track for a starter, row 1 for a substitute."""
    b = state.board
    t = b.fielding
    state.mound[b.batting] = state.pitcher            # the pitcher leaving the field
    state.ceilings[b.batting] = state.ceiling
    if state.mound[t] < 0:                             # home's starter takes the mound
        state.pitcher = state.staffs[1][0]
        state.ceilings[t] = 0
        state.box.add_pitcher(t, state.cards.card(state.pitcher).name)
    else:                                              # away's pitcher comes back out
        state.pitcher = state.mound[t]
    state.mound[t] = -1                                # (``mound``: the pitchers off it)
    state.ceiling = state.ceilings[t]
    state.fatigue = [state.ceiling, state.ceiling]
    state.pa = 0
    clear_pitch(state)
    state.step = "new_batter"


# ================================================================== the rule tables
# One pair of tables plays the duel and the Longer Game (mode "game", :mod:`.game`): a step or a
# decision both modes have goes by the mode.
def _play_ball(state: GameState) -> None:
    (play_ball_game if state.mode == "game" else play_ball)(state)


def _choose_draft_pick(state: GameState, decision: Decision, action: int) -> None:
    (choose_game_draft_pick if state.mode == "game" else choose_draft_pick)(state, decision, action)


def _choose_select_batter(state: GameState, decision: Decision, action: int) -> None:
    (choose_game_select if state.mode == "game" else choose_select_batter)(state, decision, action)


def _choose_select_pitcher(state: GameState, decision: Decision, action: int) -> None:
    (choose_game_select if state.mode == "game" else choose_select_pitcher)(state, decision, action)


RULES: dict[str, Callable[[GameState], None]] = {
    "setup": setup,
    "draft_pick": offer_draft_pick,
    "select_batter": offer_select_batter,
    "select_pitcher": offer_select_pitcher,
    "play_ball": _play_ball,
    "new_batter": new_batter,
    "stare_down": stare_down,
    "guess": offer_guess,
    "pitcher_ability": offer_pitcher_ability,
    "swing": roll_swing,
    "batter_ability": offer_batter_ability,
    "resolve": resolve,
    "clean_up": clean_up,
    "change": offer_pitching_change,
    "next_half": next_half,
    # -- the Longer Game's own steps
    "game_draft": offer_game_draft,
    "game_select": offer_game_select,
    "half_start": half_start,
    "start_switch": offer_start_switch,
    "switch": offer_switch,
    "inning_fatigue": inning_fatigue,
    "fatigue_point": offer_fatigue_point,
    "pinch": offer_pinch_hit,
    "pinch_slot": offer_sub_slot,
    "ds_slot": offer_sub_slot,
    "ds_slot_start": offer_sub_slot,
    "ds_where": offer_ds_where,
    "ds_where_start": offer_ds_where,
}

CHOICES: dict[str, Callable[[GameState, Decision, int], None]] = {
    "draft_order": choose_draft_order,
    "draft_pick": _choose_draft_pick,
    "select_batter": _choose_select_batter,
    "select_pitcher": _choose_select_pitcher,
    "pitch": choose_pitch,
    "guess": choose_guess,
    "pitcher_ability": choose_pitcher_ability,
    "batter_ability": choose_batter_ability,
    "relief": choose_relief,
    "pitching_change": choose_pitching_change,
    # -- the Longer Game's own decisions
    "select_support": choose_select_support,
    "fatigue_split": choose_fatigue_point,
    "pinch_hit": choose_pinch_hit,
    "pinch_slot": choose_sub_slot,
    "double_switch": choose_double_switch,
    "double_switch_slot": choose_ds_where,
}

MODES["duel"] = MODES["game"] = (CHOICES, RULES, ACTIONS)
