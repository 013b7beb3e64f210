"""A full MLB Showdown game drawn from one manager's view (determinization for search).

:func:`sample_state` builds a :class:`~.state.GameState` that ``rules.apply_action`` and
``core.engine.play_out`` play on, whose ``view_of(sample, view.seat)`` equals ``view``. It
reads only the view, an ``rng`` and the game's public set-up (:func:`public_setup`); it
never touches the live game.

**Copied from the view** (all of it is on the table, Showdown's cards being face up): the
level, the DH rule and whether each team still has its DH, the scheduled innings, both
teams' cards, the inning, half, outs, score and bases, both lineups and positions, who is on
the mound for each team and each team's starter, the batting spot each team's pitcher
bats in (which a pinch hitter for him holds until a new pitcher comes in), the batting
order's next slot, who has
entered the game, the icons left, the 20 icon used this inning, the current pitcher's
innings pitched in, runs charged and Cy Young bonus (his fatigue follows), this at-bat's
pitch, chart, swing, result, outs before the swing, runners who may try for an extra base,
sent and thrown at, the intentional walk and bunt, the defensive replacement coming in,
the double switch's open batting spots, in a series the relievers' games in a row pitched
(their rest), and with strategy cards the observing manager's
hand, the hand and deck sizes, both discard piles ("always face up"), the cards in play
and played this at-bat, the card window and the runners a card sends.

**Drawn** (hidden by the rulebook): with strategy decks, the opponent's hand ("held in your
hand so that your opponent can't see them") and both decks' order ("shuffle your deck"):
the cards of each team's deck given (``setup``) not seen face up (own hand, discards, in
play, played) are shuffled uniformly; the opponent's hand is the first ``hand size`` of his
and his deck the rest, in that shuffled order, and the observing manager's deck is his
unseen cards in a uniformly shuffled order. The dice are a fresh ``Dice`` seeded from
``rng`` (the rolls to come are no one's to know).

**Public but not in the view**, rebuilt by a documented rule (a manager at the table knows
them from the game so far; a view that carried them would make the sample exact):

* a pitching change a card forces (the starter out): asked while the card window before the
  pitch is open, the starter on the mound and a card with that effect played this at-bat;
* the opponent's (or one's own) pending decision when the view holds none for this seat:
  the first decision of the At-Bat Sequence that the rules ask the other manager at a step
  consistent with the view (the window's turn, the extra-base throw, the result icons, the
  substitutions before the pitch, in that order of preference);
* the step's bookkeeping inside the at-bat (which icons, runners and Gold Gloves were already
  offered, whether the defense changed pitchers this at-bat, a card window's passes, what a
  double switch will do next): what the rule that asks the view's decision needs, else its
  first state; card bonuses in force this at-bat are worked out from the played cards;
* the batting team's pitcher's innings pitched in (a starter: every inning his team has
  fielded; a reliever: its last one), runs charged (a starter still in: every run his team
  has allowed; a reliever: none) and Cy Young bonus (none);
* which innings the current pitcher pitched in (the last ones, this inning counted when
  his fatigue says so or when he has faced a batter in it: outs, runners or a pitch);
* who has batted (a team's first ``n`` batting slots, ``n`` the fewest plate appearances
  that leave its order where the view has it, at least three a half inning it has
  completed at bat and, in the half under way, one for each out and each runner, the
  at-bat under way aside; a batter offered a pinch hitter has batted, and so has the
  batter due up when no other decision of the other manager fits the view);
* the plate appearances this half (the outs and runners on base), the 1B+ runner's steal
  to come (none), the runners' charged pitcher (the one on the mound), the Cy Young
  count of the half (none: no 1-2-3 inning is granted for it), the RP icon's inning (this
  inning for the pitcher on the mound when his Control bonus is +3 and his RP is spent
  and the 20 icon was not used this inning), the line score (each team's runs in its
  first column) and the box score (a batting line for each player who entered and a
  pitching line for each pitcher, the team's runs on its leadoff man's line), an empty
  play log.

**The managers' lineups** (``lineups="manager"``): while they are set, the observing
manager's own picks are copied from the view; the other manager's are drawn: when the home
manager picks, the away manager's whole lineup (set but not yet shown) is drawn pick by pick,
each pick uniformly among the legal ones (so not uniformly among whole lineups); when the
other manager is still picking (the view holds no decision), he is at his first pick. Once
both are set, both teams' picks are in the view and copied (they decide who started, which
the pinch-hitter rule reads).

**Set-up** (``setup``, from :func:`public_setup`): the env's public options, a dict with
``level``, ``teams`` (away, home :class:`~.cards.Team`), ``innings``, ``max_innings``,
``decks`` (the two :class:`~.strategy.Deck` given, or None) and ``card_set`` (or None); the
view already holds the level, teams, innings and card set, so only ``max_innings`` and the
decks are needed from it (``setup=None``: no cut-off and, with a card set, the built-in
``default`` deck for both).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..core.dice import Dice
from ..core.scorebook import BoxScore, PlayLog
from . import cardplay, lineup, roster, rules, windows
from .actions import ALL_KINDS, EXPERT_KINDS, LINEUP_KINDS, PLAYER, ask, choose_player
from .cards import PitcherCard
from .state import GameState, new_at_bat
from .strategy import load_card_set, load_deck
from .view import ShowdownView, view_of

__all__ = ["public_setup", "kinds_never_asked", "sample_state", "NoDecisionFits"]

#: the effects a played card leaves in force for the at-bat (cardplay.add_mod's)
_MOD_EFFECTS = ("pitch", "swing", "edge", "throw_bonus", "dp_bonus", "catcher_bonus")


def public_setup(env: Any) -> dict[str, Any]:
    """The public set-up of a ``showdown_v0`` env (its options, as every manager at the table
    knows them): level, teams, innings, max_innings, decks and card set."""
    game = env.unwrapped
    return {"level": game.level, "teams": game.teams, "innings": game.innings,
            "max_innings": game.max_innings, "decks": game.decks, "card_set": game.card_set,
            "lineups": game.lineups}


#: The icons' decisions, the advanced game's alone (the basic game has no icons, and the
#: expert game's are off: "DO NOT USE THESE SPECIAL ABILITIES").
ICON_KINDS = ("relief_ace", "twenty_game", "stolen_base", "strikeout", "reroll_out",
              "silver_slugger", "home_run_icon", "gold_glove")
#: The strategy cards' decisions (the expert game with decks).
CARD_KINDS = ("play_card", "catcher_throw")


def kinds_never_asked(setup: dict[str, Any]) -> dict[str, str]:
    """The decision kinds no game of the public set-up ``setup`` (:func:`public_setup`) asks
    a manager, each with the rule that says so: the basic game asks only for the starting
    pitcher, which the advanced and expert games roll for; the icons are the advanced
    game's; the expert game's own decisions, and with decks the cards', are the expert
    game's; the lineup picks are asked only with ``lineups="manager"``."""
    level = setup.get("level", "advanced")
    never: dict[str, str] = {}
    if level == "basic":
        never.update((k, "the basic game asks only for the starting pitcher")
                     for k in ALL_KINDS if k != "starting_pitcher")
    else:
        never["starting_pitcher"] = f"the {level} game rolls for the rotation spot"
        if level == "expert":
            never.update((k, "the expert game's icons are off") for k in ICON_KINDS)
            if setup.get("card_set") is None and setup.get("decks") is None:
                never.update((k, "no strategy decks are in play") for k in CARD_KINDS)
        else:
            never.update((k, "it is the expert game's") for k in EXPERT_KINDS)
    if setup.get("lineups", "file") != "manager":
        never.update((k, "the lineups are the team files', lineups='manager' asks them")
                     for k in LINEUP_KINDS)
    return never


def sample_state(view: ShowdownView, rng: random.Random,
                 setup: dict[str, Any] | None = None) -> GameState:
    """A full game consistent with ``view``: its hidden parts (the opponent's strategy
    cards, both decks' order, the dice) drawn from ``rng`` (see the module docstring).
    Raises ValueError for a view of a finished game or one the rules cannot reach."""
    if not isinstance(view, ShowdownView):
        raise TypeError(f"sample_state needs a ShowdownView, got {type(view).__name__}")
    setup = dict(setup or {})
    decks = setup.get("decks")
    if view.card_set is not None and decks is None:     # the built-in deck of that set
        name = "hooks" if view.card_set.names == load_card_set("hooks").names else "default"
        decks = (load_deck(name, view.card_set),) * 2
    if view.card_set is None:
        decks = None
    dice = Dice(rng.getrandbits(63))
    if view.pitcher < 0 and view.lineup_setting == "manager":
        state = _setting_lineups(view, dice, setup, decks, rng)
    elif view.pitcher < 0:
        state = _before_play(view, dice, setup, decks)
    else:
        state = _in_play(view, dice, setup, decks, rng)
    if view_of(state, view.seat) != view:
        raise ValueError("no game the rules reach matches this view")
    return state


# ================================================================== before the first pitch

def _before_play(view: ShowdownView, dice: Dice, setup: dict, decks) -> GameState:
    """Basic Setup 3: the only decisions are the starters; the game so far is its set-up."""
    state = rules.new_game(view.teams, dice, level=view.level, dh=view.dh, innings=view.innings,
                           max_innings=setup.get("max_innings"), decks=decks,
                           card_set=view.card_set if decks else None)
    for t in (0, 1):
        if view.starters[t] >= 0 and state.pending is not None:
            rules.apply_action(state, view.starters[t] + PLAYER)
    return state


def _setting_lineups(view: ShowdownView, dice: Dice, setup: dict, decks,
                     rng: random.Random) -> GameState:
    """Advanced Game Setup 4: own lineup picks from the view, the other manager's drawn (the
    module docstring)."""
    state = rules.new_game(view.teams, dice, lineups="manager", level=view.level, dh=view.dh,
                            starter=1, innings=view.innings,
                            max_innings=setup.get("max_innings"), decks=decks,
                            card_set=view.card_set if decks else None,
                            relief_streak=[list(s) for s in view.relief_streak])
    me, other = view.seat, 1 - view.seat
    state.starter = list(view.starters)
    state.pending = None
    state.lineup_picks = [[], []]
    state.lineup_picks[me] = list(view.lineup_picks[me])
    if other == 0 and view.decision is not None:    # the away lineup is set, not yet shown
        while (pick := lineup.next_pick(state, 0)) is not None:
            state.lineup_picks[0].append(rng.choice(pick[2]))
    state.step = "set_lineups"
    rules.run(state)
    return state


# ================================================================== a game under way

def _in_play(view: ShowdownView, dice: Dice, setup: dict, decks, rng: random.Random) -> GameState:
    if view.decision is None and view.legal:
        raise ValueError("a view with legal actions names its decision")
    state = rules.new_game(view.teams, dice, level=view.level, dh=view.dh, starter=1,
                           innings=view.innings, max_innings=setup.get("max_innings"),
                           play=False, decks=decks, card_set=view.card_set if decks else None,
                           relief_streak=[list(s) for s in view.relief_streak])
    _copy_board(state, view)
    _copy_rosters(state, view)
    state.lineup_setting = view.lineup_setting
    state.lineup_picks = [list(view.lineup_picks[0]), list(view.lineup_picks[1])]
    _rebuild_pitchers(state, view)
    _rebuild_batted(state, view)
    _rebuild_books(state, view)
    _copy_at_bat(state, view)
    if decks is not None:
        _draw_cards(state, view, rng)
    try:
        _ask_the_decision(state, view)
    except NoDecisionFits:
        if view.decision is not None or state.batted[view.half][view.batter]:
            raise
        # the other manager may be offered a pinch hitter only for a batter who has batted
        _rebuild_batted(state, view, batter_batted=True)
        _ask_the_decision(state, view)
    return state


def _copy_board(state: GameState, view: ShowdownView) -> None:
    b = state.board
    b.inning, b.half, b.outs, b.bases = view.inning, view.half, view.outs, tuple(view.bases)
    b.runs = [view.runs[0], view.runs[1]]
    line = [[0] * view.inning, [0] * (view.inning - 1 + view.half)]
    for t in (0, 1):
        if line[t]:
            line[t][0] = view.runs[t]
    b.line = line
    runners = sum(r is not None for r in view.bases)
    state.pa_index = view.outs + runners


def _copy_rosters(state: GameState, view: ShowdownView) -> None:
    for t in (0, 1):
        state.lineup[t] = list(view.lineups[t])
        state.pos[t] = list(view.positions[t])
        state.pitcher[t] = view.pitchers[t]
        state.starter[t] = view.starters[t]
        state.used[t] = list(view.used[t])
        state.order[t] = view.order[t]
        state.icons_left[t] = [dict(d) for d in view.icons_left[t]]
        state.twenty_inning[t] = view.inning if view.twenty_used[t] else 0
        pos = state.pos[t]
        slot = state.pitcher_slot[t] = view.pitcher_slots[t]
        if slot >= 0 and pos[slot] != "P":      # the team hit or ran for its pitcher
            state.needs_pitcher[t] = True
        state.needs_positions[t] = any(p == "PH" for i, p in enumerate(pos) if i != slot)


def _rebuild_pitchers(state: GameState, view: ShowdownView) -> None:
    """The pitcher on the mound from the view; the batting team's as the module says."""
    b = state.board
    ft, bt = 1 - b.half, b.half
    p = view.pitcher
    faced = view.outs > 0 or any(r is not None for r in view.bases) or view.pitch is not None \
        or view.chart is not None
    n = view.innings_pitched
    card = state.card(ft, p)
    for included in (faced, not faced):
        innings = list(range(b.inning - n + 1, b.inning + 1)) if included else \
            list(range(b.inning - n, b.inning))
        if innings and innings[0] < 1:
            continue
        state.innings_pitched[ft][p] = innings
        state.runs_charged[ft][p] = view.runs_charged
        state.ip_bonus[ft][p] = view.ip_bonus
        if view.level == "basic" or rules.fatigue(state, ft, p) == view.fatigue:
            break
    q = view.pitchers[bt]
    fielded = list(range(1, b.inning + (1 if bt == 1 else 0)))
    if q == view.starters[bt]:
        state.innings_pitched[bt][q] = fielded
        state.runs_charged[bt][q] = view.runs[ft]
    else:
        state.innings_pitched[bt][q] = fielded[-1:]
    if view.control_bonus:
        rp_spent = "RP" in card.icons and view.icons_left[ft][p].get("RP", 1) == 0
        relief = view.control_bonus == 6 or (rp_spent and not view.twenty_used[ft])
        if relief:
            state.relief_ace_inning[ft], state.relief_ace_pitcher[ft] = b.inning, p


def _rebuild_batted(state: GameState, view: ShowdownView, batter_batted: bool = False) -> None:
    """The fewest plate appearances that leave each order where it is (``batter_batted``:
    the batter due up has batted, whatever that takes)."""
    b = state.board
    runners = sum(r is not None for r in view.bases)
    # this half's plate appearances: each out and each runner is a different one, but the
    # at-bat under way (whose order has not moved on) may be among them
    under_way = view.result is not None or view.ibb or view.bunt
    this_half = max(0, view.outs + runners - under_way)
    for t in (0, 1):
        halves_done = b.inning if t == 0 and b.half == 1 else b.inning - 1
        least = 3 * halves_done + (this_half if t == b.half else 0)
        n = view.order[t]
        while n < least:
            n += 9
        batted = [False] * rules.ROSTER
        for slot, k in enumerate(state.lineup[t]):
            if k >= 0 and (n >= 9 or slot < n):
                batted[k] = True
        state.batted[t] = batted
    if view.decision == "pinch_hitter" or batter_batted:
        state.batted[b.half][view.batter] = True


def _rebuild_books(state: GameState, view: ShowdownView) -> None:
    """A box score with a line for everyone who entered; no play log."""
    state.box = box = BoxScore([t.name for t in state.teams], [[], []])
    state.log, state.log_extra = PlayLog(), []
    for t in (0, 1):
        state.box_line[t], state.pitch_line[t] = {}, {}
        labels = {k: pos for k, pos in zip(state.lineup[t], state.pos[t]) if k >= 0}
        for k, card in enumerate(state.teams[t].players):
            if not state.used[t][k]:
                continue
            if k in labels or not isinstance(card, PitcherCard):
                state.box_line[t][k] = box.add_line(t, card.name, labels.get(k, ""))
            if isinstance(card, PitcherCard):
                state.pitch_line[t][k] = box.add_pitcher(t, card.name)
        if view.runs[t]:
            box.lines[t][state.box_line[t][state.lineup[t][0]]].r = view.runs[t]
    ft = 1 - state.board.half
    state.responsible = {r: state.pitcher[ft] for r in view.bases if r is not None}
    state.half_track = {"pitcher": -1, "batters": 0, "reached": 0, "multi_out": 0}
    state.plus_runner = -1


def _copy_at_bat(state: GameState, view: ShowdownView) -> None:
    state.ab = ab = new_at_bat()
    ab.pitch, ab.chart, ab.swing, ab.result = view.pitch, view.chart, view.swing, view.result
    if view.pitch is not None or view.chart is not None or view.result is not None:
        ab.outs_before = view.outs_before
    ab.eligible, ab.sent, ab.thrown = tuple(view.eligible), tuple(view.sent), view.thrown
    ab.ibb, ab.bunt, ab.incoming = view.ibb, view.bunt, view.incoming
    ab.stealers = tuple(view.stealers)
    ft = 1 - state.board.half
    if view.open_spots:
        ab.sub_old = tuple(old for old, _ in view.open_spots)
        ab.sub_slots = tuple(slot for _, slot in view.open_spots)
        ab.sub_players = tuple(state.lineup[ft][slot] for slot in ab.sub_slots)
    if view.control_bonus and state.relief_ace_inning[ft] != state.board.inning:
        ab.twenty = True
    elif view.control_bonus == 6:
        ab.twenty = True


# ================================================================== strategy cards

def _draw_cards(state: GameState, view: ShowdownView, rng: random.Random) -> None:
    """Own hand and the face-up piles from the view; the unseen cards shuffled (uniform):
    the opponent's hand, then his deck; one's own deck."""
    me, opp = view.seat, 1 - view.seat

    def spread(copies) -> list[int]:
        return [i for i, n in enumerate(copies) for _ in range(n)]

    for t in (0, 1):
        state.discards[t] = spread(view.discards[t])
        state.in_play[t] = spread(view.in_play[t])
        state.played[t] = spread(view.played[t])
    state.hands[me] = spread(view.hand)
    for t in (me, opp):
        unseen = [state.card_set.index(name) for name in state.decks_given[t]]
        seen = state.discards[t] + state.in_play[t] + state.played[t] \
            + (state.hands[me] if t == me else [])
        for c in seen:
            unseen.remove(c)
        rng.shuffle(unseen)
        if t == opp:
            state.hands[opp] = sorted(unseen[:view.hand_sizes[opp]])
            unseen = unseen[view.hand_sizes[opp]:]
        if len(unseen) != view.deck_sizes[t]:
            raise ValueError(f"team {t}'s deck holds {view.deck_sizes[t]} cards, "
                             f"{len(unseen)} are unseen")
        state.decks[t] = unseen
    _card_mods(state)


def _card_mods(state: GameState) -> None:
    """The bonuses and flags the cards played this at-bat leave in force."""
    cs = state.card_set
    ab = state.ab
    for t in (0, 1):
        for i in state.played[t]:
            card = cs.cards[i]
            for e in cardplay.effects_of(card, cardplay.icon_applies(state, t, card)):
                if e.do in _MOD_EFFECTS:
                    cardplay.add_mod(state, t, e)
                elif e.do == "no_double_play":
                    ab.no_dp = True
                elif e.do == "hold_runners":
                    ab.hold = True


# ================================================================== the decision waiting

class NoDecisionFits(ValueError):
    """No step of the rules asks the view's decision here (or, for a view that holds none,
    any decision of the other manager): the one refusal :func:`sample_state` answers by
    rebuilding the game another way; any other error is a bug, and raised as it is."""


def _ask_the_decision(state: GameState, view: ShowdownView) -> None:
    """Put the game at the step that asks the view's decision (or, when the view holds none,
    the first decision the rules could be asking the other manager here); else
    :class:`NoDecisionFits`."""
    seat = view.seat
    for kind, prepare in _candidates(state, view):
        if view.decision is not None and kind != view.decision:
            continue
        trial = state.clone()
        trial.pending = None
        try:
            if not prepare(trial):
                continue
        except RuntimeError:            # a field the team cannot fill: not this step
            continue
        d = trial.pending
        if d is None or d.kind != kind:
            continue
        if view.decision is None:
            ok = d.actor != seat
        else:
            ok = d.actor == seat and d.legal == view.legal and d.subject == view.subject
        if ok:
            _take(state, trial)
            return
    raise NoDecisionFits(f"no step of the rules asks {view.decision or 'the other manager'} here")


def _take(state: GameState, trial: GameState) -> None:
    for name in ("step", "pending", "ab", "pa_index", "window", "window_turn", "window_passes",
                 "window_then", "batted", "needs_pitcher"):
        setattr(state, name, getattr(trial, name))


def _run_rule(step: str, times: int = 4, **ab: Any) -> Callable[[GameState], bool]:
    """Set the step (and at-bat fields), then run its rule until it asks (a rule that offers
    several things in turn, the result icons or the steals, is run again after each)."""
    def prepare(state: GameState) -> bool:
        for key, value in ab.items():
            setattr(state.ab, key, value)
        state.step = step
        for _ in range(times):
            rules.RULES[state.step](state)
            if state.pending is not None:
                return True
            if state.step != step:
                return False
        return False
    return prepare


def _run_rule_until(step: str, kind: str, subject_of: Callable[[GameState], int] | None,
                    **ab: Any) -> Callable[[GameState], bool]:
    """As :func:`_run_rule`, passing over offers of the same kind with another subject."""
    def prepare(state: GameState) -> bool:
        for key, value in ab.items():
            setattr(state.ab, key, value)
        state.step = step
        for _ in range(6):
            rules.RULES[state.step](state)
            d = state.pending
            if d is None:
                if state.step != step:
                    return False
                continue
            if d.kind == kind and (subject_of is None or d.subject == subject_of(state)):
                return True
            state.pending = None
            if state.step != step:
                return False
        return False
    return prepare


def _ask_directly(kind: str, actor_of: Callable[[GameState], int], step: str,
                  legal_of: Callable[[GameState], tuple], subject: int = -1,
                  **ab: Any) -> Callable[[GameState], bool]:
    """For the decisions asked in the middle of a rule (a GB's double play, the runners
    sent, the throw, a forced pitching change, the catcher's throw): the step and the
    question as that rule leaves them."""
    def prepare(state: GameState) -> bool:
        for key, value in ab.items():
            setattr(state.ab, key, value)
        legal = legal_of(state)
        if not legal:
            return False
        state.step = step
        ask(state, kind, actor_of(state), legal, subject)
        return True
    return prepare


def _carried(state: GameState) -> None:
    ab = state.ab
    ab.before = ab.before or state.board.bases
    ab.outcome = ab.outcome or ab.result


def _candidates(state: GameState, view: ShowdownView) -> list[tuple[str, Callable]]:
    b = state.board
    bt, ft = b.half, 1 - b.half
    expert = view.level == "expert"
    subject = view.subject
    occupied = tuple(base for base in (2, 1, 0) if b.bases[base] is not None)
    out: list[tuple[str, Callable]] = []
    pre_pitch = view.result is None and view.pitch is None and view.chart is None

    if view.window:
        then = ("carry_out" if view.ibb else "bunt" if view.bunt else "pitch") \
            if view.window == "before_pitch" else \
            "carry_out" if view.window == "on_result" else "end_at_bat"

        def window(turn: int) -> Callable[[GameState], bool]:
            def prepare(s: GameState) -> bool:
                if view.window != "before_pitch" and view.result is not None:
                    if view.window == "after_result":
                        _carried(s)
                s.window, s.window_turn, s.window_passes, s.window_then = view.window, turn, 0, then
                s.step = "card_window"
                rules.RULES["card_window"](s)
                return True
            return prepare
        if view.stealers:              # a card of the offense's sent them: the defense's turn next
            def catcher(s: GameState) -> bool:
                s.window, s.window_turn, s.window_passes, s.window_then = view.window, ft, 0, then
                s.step = "card_window"
                ask(s, "catcher_throw", ft, (0, 1) if len(view.stealers) == 1 else (0, 29, 30))
                return True
            out.append(("catcher_throw", catcher))
        if view.window == "before_pitch" and view.pitcher == view.starters[ft]:
            def starter_out(s: GameState) -> bool:     # a card forces the starter out
                cards = s.card_set.cards
                if not any(e.do == "starter_out" for i in s.played[bt] for e in cards[i].effect):
                    return False
                s.window, s.window_turn, s.window_passes, s.window_then = view.window, ft, 0, then
                s.step = "card_window"
                windows.force_starter_out(s)
                return True
            out.append(("pitching_change", starter_out))
        for turn in (view.seat if view.decision else 1 - view.seat, ft, bt):
            out.append(("play_card", window(turn)))
        return out

    first = not (view.outs or occupied) and pre_pitch
    #: the step after a substitution: the first at-bat of the half (the team takes the field)
    #: or step 3 after a pitching change
    sub_thens = (("draw_cards" if view.card_set is not None else "at_bat", "pinch_hitter_again")
                 if first else ("pinch_hitter_again",))
    if view.incoming >= 0:
        for sub_then in sub_thens:
            out.append(("replaced_player", _ask_directly(
                "replaced_player", lambda s: 1 - s.board.half, "replaced_player",
                lambda s: choose_player(roster.replaced_options(s, 1 - s.board.half,
                                                                view.incoming), False),
                view.incoming, sub_then=sub_then)))
        return out
    if view.result is not None:
        out += _result_candidates(state, view)
        return out
    if not pre_pitch:
        return out
    if view.pitchers[ft] >= 0 and state.needs_pitcher[ft] and not expert:
        out.append(("pitching_change", _ask_directly(
            "pitching_change", lambda s: 1 - s.board.half, "at_bat",
            lambda s: choose_player(tuple(roster.bullpen(s, 1 - s.board.half)), False), 1,
            sub_then="")))
        return out
    if expert:
        for sub_then in sub_thens:
            if state.needs_pitcher[ft]:
                out.append(("pitching_change", _forced_change(sub_then)))
            out.append(("defensive_replacement", _run_rule("defensive_replacement", 1,
                                                           sub_then=sub_then)))
        for sub_then in sub_thens if view.open_spots else ():     # the double switch
            out.append(("batting_slot", _run_rule("batting_slot", 1, sub_then=sub_then)))
        pr = tuple(base for base in occupied if base > subject) if view.decision == "pinch_runner" \
            else ()
        out.append(("pinch_runner", _run_rule("pinch_runner", 1, pr_asked=pr)))
        out.append(("pinch_hitter", _run_rule("pinch_hitter", 1, pr_asked=occupied)))
        out.append(("pitching_change", _run_rule("pitching_change", 1, pr_asked=occupied)))
        out.append(("pinch_hitter", _run_rule("pinch_hitter_again", 1, pr_asked=occupied,
                                              change=True)))
        out.append(("intentional_walk", _run_rule("intentional_walk", 1, pr_asked=occupied)))
        out.append(("sacrifice_bunt", _run_rule("sacrifice_bunt", 1, pr_asked=occupied)))
        return out
    if view.level == "basic":
        return out
    out.append(("pinch_hitter", _run_rule("pinch_hitter", 1)))
    out.append(("pitching_change", _run_rule("pitching_change", 1)))
    out.append(("pinch_hitter", _run_rule("pinch_hitter_again", 1, change=True)))
    out.append(("relief_ace", _pa_first(_run_rule("relief_ace", 1))))
    out.append(("twenty_game", _run_rule("twenty_game", 1)))
    out.append(("stolen_base", _run_rule_until(
        "stolen_base", "stolen_base",
        (lambda s: subject) if view.decision == "stolen_base" else None)))
    return out


def _pa_first(prepare: Callable[[GameState], bool]) -> Callable[[GameState], bool]:
    """The RP icon is offered at an inning's first at-bat."""
    def wrapped(state: GameState) -> bool:
        state.pa_index = 0
        return prepare(state)
    return wrapped


def _forced_change(sub_then: str) -> Callable[[GameState], bool]:
    """The pitcher a team that hit for its own must bring in as it takes the field."""
    def prepare(state: GameState) -> bool:
        t = 1 - state.board.half
        state.pa_index = 0
        state.ab.sub_then = sub_then
        state.step = "defensive_replacement"
        ask(state, "pitching_change", t, choose_player(tuple(roster.bullpen(state, t)), False),
            subject=1)
        return True
    return prepare


def _result_candidates(state: GameState, view: ShowdownView) -> list:
    """After the swing: the icons on the result, the double play, the Gold Gloves, the
    runners sent and the throw."""
    out: list = []
    subject = view.subject
    if view.sent and len(view.sent) == 2 and view.thrown < 0:
        out.append(("throw_at", _ask_directly(
            "throw_at", lambda s: 1 - s.board.half, "throw_at", lambda s: (29, 30),
            before=state.board.bases, outcome=view.result)))
    if view.eligible and not view.sent:
        out.append(("send_runners", _ask_directly(
            "send_runners", lambda s: s.board.half, "send_runners",
            lambda s: (0, 27) + ((28,) if len(view.eligible) == 2 else ()),
            before=state.board.bases, outcome=view.result)))
    if view.level == "advanced":
        kind = "double_play" if view.result == "GB" and not view.sent else "extra_base"
        out.append(("gold_glove", _run_rule_until(
            "gold_glove", "gold_glove", (lambda s: subject) if view.decision == "gold_glove"
            else None, throw_kind=kind, before=state.board.bases,
            outcome="FC" if kind == "double_play" else view.result)))
    if view.result == "GB" and not view.sent:
        out.append(("double_play", _ask_directly(
            "double_play", lambda s: 1 - s.board.half, "double_play", lambda s: (0, 1),
            before=state.board.bases, outcome="GB")))
    if view.level == "advanced":
        for kind in ("strikeout", "reroll_out", "silver_slugger", "home_run_icon"):
            out.append((kind, _run_rule_until("result_icons", kind, None, icons_asked=())))
    return out
