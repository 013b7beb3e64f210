"""The Harry's Grand Slam Baseball engine: two managers, hands of three cards.

Each turn of a half inning (PLAYING THE GAME, steps 1-3)::

    --batting manager plays a hand card or one of his PH/RP stacks -> "batting_play"
      and draws back to three                                         (automatic)
    --fielding manager does the same                                -> "fielding_play"
    --until the third out; the THIRD AND SIXTH INNING SHUFFLE          (automatic)

A manager must play even when every card helps the other side. A manager whose only
legal play is one card type (and who has no PH/RP stack) has no choice: the engine
plays that card for him. Every card's effect is a small function named after the card
(Card Reference); the deck is shuffled with the seeded dice, keyed by the shuffle.

It is a plain state machine, as in That's Baseball: ``GameState.step`` names the next
rule to apply and ``run`` applies rules until a manager must decide or the game is over.
Every reading of an unclear passage is in RULES.md beside this file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..core import scorebook as sb
from ..core.bases import advance_all, force_advance, occupied, runner_count
from ..core.decisions import Decision
from ..core.dice import DICE, Dice, ScriptedDice
from ..core.engine import apply_choice, legal_actions, run_rules, set_situation
from ..core.scoreboard import Scoreboard, ScoreboardGame
from ..core.scorebook import PLAY_LOG, BoxScore, Outcome, PlayLog, check_plays, log_play
from ..core.errors import DataError
from ..core.state import (SavedAs, SaveError, check_choice, check_index, check_indexes,
                          check_int, check_ints, check_len)
from .cards import (BALK, CARD_NAMES, CARD_TYPES, DOUBLE, DOUBLE_PLAY, ERROR, FLY_OUT,
                    GROUND_OUT, HIT_BY_PITCH, HOME_RUN, MAX_STACKS, N_HAND_TYPES, N_TYPES,
                    PASSED_BALL, PINCH_HITTER, REFERENCE_COUNTS, SACRIFICE_BUNT, SINGLE,
                    STOLEN_BASE, STRIKE_OUT, TRIPLE, WALK, WILD_PITCH, check_counts,
                    deck_from_counts)

__all__ = [
    "GameState", "new_game", "apply_action", "legal_actions", "option_labels", "ACTIONS",
    "DECISION_KINDS", "HAND_SIZE", "STACK_ACTION", "N_ACTIONS", "OUTCOMES", "TEAM_NAMES",
    "BATTER_NAMES", "shuffle_after", "innings_to_shuffle", "effect_of_card",
]

HAND_SIZE = 3
TEAM_NAMES = ("Visitors", "Home")
BATTER_NAMES = tuple(f"Batter {i}" for i in range(1, 10))

# -- actions: one Discrete space for every decision --------------------------------------
# 0-15: play a card of that type from the hand; 16-19: play own PH/RP stack 1-4 (oldest first)
STACK_ACTION = N_HAND_TYPES
N_ACTIONS = N_HAND_TYPES + MAX_STACKS
ACTIONS = tuple(f"play {CARD_TYPES[c].label}" for c in range(N_HAND_TYPES)) + tuple(
    f"play PH/RP stack {i + 1}" for i in range(MAX_STACKS))

DECISION_KINDS = ("batting_play", "fielding_play")

# Marks for plays the core scorebook has no outcome for (official scoring: a sacrifice
# bunt that moves runners is no at-bat; a bunt out that moves nobody is one).
SACRIFICE_HIT = Outcome("SH", "laid down a sacrifice bunt", at_bat=False)
BUNT_OUT = Outcome("BO", "bunted out")
OUTCOMES: dict[str, Outcome] = {**sb.OUTCOMES, "SH": SACRIFICE_HIT, "BO": BUNT_OUT}


def shuffle_after(inning: int) -> bool:
    """THE THIRD AND SIXTH INNING SHUFFLE, and WINNING THE GAME: "Cards are shuffled after
    the ninth inning and every three innings after that": after every third inning."""
    return inning % 3 == 0


def innings_to_shuffle(inning: int) -> int:
    """Innings still to finish before the next shuffle, this one included (1-3)."""
    return 3 - (inning - 1) % 3


@dataclass
class GameState(ScoreboardGame):
    """Everything about a game in progress; plain data, cloned and saved as such.

    Cards are type codes (``cards.CARD_TYPES``). Hands and the discard pile are counts
    per type; ``deck`` is the draw pile, top card first; ``stacks[seat]`` holds the
    face-down card under each of that manager's PH/RP cards, oldest stack first (the
    face-up card of a stack is always a PH/RP card). A runner on base is his lineup
    slot; ``runner_cards[slot]`` is the card that put him there (the card moves with
    him), and ``outs_pile`` the cards behind home plate this half inning.
    """

    SAVED_AS = SavedAs("ruleset", "grand_slam", "Grand Slam game")

    board: Scoreboard
    dice: Dice | ScriptedDice = field(metadata=DICE)
    box: BoxScore
    log: PlayLog = field(metadata=PLAY_LOG)
    counts: tuple[int, ...]                   # the card set: copies per type
    deck: list[int]
    hands: list[list[int]]
    stacks: list[list[int]]
    discards: list[int]
    runner_cards: list[int | None] = field(default_factory=lambda: [None] * 9)
    outs_pile: list[int] = field(default_factory=list)
    played_by: list[int] = field(default_factory=list)   # seat behind each play of the log
    order: list[int] = field(default_factory=lambda: [0, 0])
    stretch: int = 0                 # scheduled shuffles made (0: the opening deal)
    refills: int = 0                 # draw piles rebuilt from the discards in this stretch
    step: str = "deal"
    pending: Decision | None = None

    def in_play(self) -> list[int]:
        """Counts per type of the cards on the bases and behind home plate."""
        out = [0] * N_TYPES
        for c in self.runner_cards:
            if c is not None:
                out[c] += 1
        for c in self.outs_pile:
            out[c] += 1
        return out

    def validate(self) -> None:
        """A loaded game is one the rules could reach (see :func:`validate_game`)."""
        validate_game(self)

    def card_census(self) -> list[int]:
        """Counts per type of every card wherever it is (must equal ``counts``)."""
        out = self.in_play()
        for c in self.deck:
            out[c] += 1
        for seat in (0, 1):
            for c in range(N_TYPES):
                out[c] += self.hands[seat][c]
            for c in self.stacks[seat]:
                out[c] += 1
            out[PINCH_HITTER] += len(self.stacks[seat])
        for c in range(N_TYPES):
            out[c] += self.discards[c]
        return out


def new_game(dice: Dice | ScriptedDice, innings: int = 9, max_innings: int | None = None,
             counts: tuple[int, ...] = REFERENCE_COUNTS, deck: list[int] | None = None) -> GameState:
    """A game at its first decision (SETTING UP: shuffle, deal three to each manager).

    ``deck`` (top card first) replaces the fresh box order the opening shuffle starts
    from; with :class:`ScriptedDice` shuffles keep their order, so a test stacks the deck
    this way. Its cards must be exactly ``counts``.
    """
    counts = check_counts(tuple(counts), "deck")
    if deck is None:
        deck = deck_from_counts(counts)
    else:
        given = [0] * N_TYPES
        for c in deck:
            given[c] += 1
        if tuple(given) != counts:
            raise ValueError(f"the stacked deck's cards {given} are not the card set {list(counts)}")
    board = Scoreboard(innings=innings, max_innings=max_innings)
    names = [(n, str(i + 1)) for i, n in enumerate(BATTER_NAMES)]
    box = BoxScore(list(TEAM_NAMES), [names, names])
    state = GameState(board=board, dice=dice, box=box, log=PlayLog(), counts=counts,
                      deck=list(deck), hands=[[0] * N_TYPES, [0] * N_TYPES], stacks=[[], []],
                      discards=[0] * N_TYPES)
    run(state)
    return state


def option_labels(decision: Decision) -> dict[int, str]:
    """What each legal action means (the labels show only what the actor may know)."""
    return {a: ACTIONS[a] for a in decision.legal}


def apply_action(state: GameState, action: int) -> None:
    """Apply the pending decision's choice, then play on to the next decision."""
    apply_choice(state, action, ACTIONS, CHOICES)
    run_rules(state, RULES)


def run(state: GameState) -> None:
    """Apply rules until a manager must decide or the game is over."""
    run_rules(state, RULES)


# -- checking a loaded game ------------------------------------------------------------------
def validate_game(state: GameState) -> None:
    """Check a loaded game (``GameState.from_dict``) for what its types cannot say: a
    :class:`~dugout.envs.core.state.SaveError` names the field. The card set passes the
    whole-deck checks; every card is a card type and the cards in the deck, the hands, the
    PH/RP stacks, on the bases, behind home plate and in the discards are exactly the set
    (a hand holds counts per type and never a PH/RP card); a runner is a lineup slot with his
    card under him; and the pending decision is the one the turn offers: the manager's hand
    cards and stacks, two or more of them (a game not over always waits on one)."""
    b = state.board
    try:
        check_counts(state.counts, "the card set")
    except DataError as e:
        raise SaveError(str(e), ("counts",)) from None
    for key, size in (("hands", 2), ("stacks", 2), ("order", 2), ("runner_cards", 9)):
        check_len(getattr(state, key), size, (key,))
    check_len(state.discards, N_TYPES, ("discards",))
    for seat in (0, 1):
        check_len(state.hands[seat], N_TYPES, ("hands", seat))
        check_index(state.order[seat], 9, ("order", seat), "the lineup")
        check_len(state.box.lines[seat], 9, ("box", "lines", seat))
        check_ints(state.hands[seat], ("hands", seat), 0)
        check_int(state.hands[seat][PINCH_HITTER], ("hands", seat, PINCH_HITTER), 0, 0)
        check_indexes(state.stacks[seat], N_TYPES, ("stacks", seat), "the card types")
    check_ints(state.discards, ("discards",), 0)
    for key in ("deck", "outs_pile"):
        check_indexes(getattr(state, key), N_TYPES, (key,), "the card types")
    check_indexes(state.runner_cards, N_TYPES, ("runner_cards",), "the card types", nulls=True)
    census = state.card_census()
    if census != list(state.counts):
        raise SaveError(f"the cards in the game {census} are not the card set "
                        f"{list(state.counts)}", ("counts",))
    check_int(state.stretch, ("stretch",), 0)
    check_int(state.refills, ("refills",), 0)
    check_choice(state.step, RULES, ("step",))
    if len(state.played_by) != len(state.log.plays):
        raise SaveError(f"one seat for each play of the log ({len(state.log.plays)}), got "
                        f"{len(state.played_by)}", ("played_by",))
    check_ints(state.played_by, ("played_by",), 0, 1)
    check_plays(state.log, 9, OUTCOMES, actor_none=-1)
    rolls = [play.roll for play in state.log.plays]
    if rolls and not (set(map(type, rolls)) == {int} and 0 <= min(rolls) and max(rolls) < N_TYPES):
        for i, r in enumerate(rolls):
            check_index(r, N_TYPES, ("log", i, 5), "the card types")
    if b.over:
        if state.pending is not None:
            raise SaveError("a game that is over has no pending decision", ("pending",))
        return
    on_base = {r for r in b.bases if r is not None}
    for i, r in enumerate(b.bases):
        if r is not None:
            check_index(r, 9, ("board", "bases", i), "the batting team's lineup")
    with_cards = {slot for slot, c in enumerate(state.runner_cards) if c is not None}
    if with_cards != on_base:
        raise SaveError(f"the runners on base {sorted(on_base)} each have a card under them and "
                        f"no one else, got cards under {sorted(with_cards)}", ("runner_cards",))
    d = state.pending
    if d is None:
        raise SaveError("a game that is not over waits on a decision", ("pending",))
    check_choice(d.kind, CHOICES, ("pending", "kind"))
    seat = b.batting if d.kind == "batting_play" else b.fielding
    step = "bat" if d.kind == "batting_play" else "field"
    if d.actor != seat or state.step != step:
        raise SaveError(f"a {d.kind!r} decision is seat {seat}'s at step {step!r}, got seat "
                        f"{d.actor} at step {state.step!r}", ("pending", "actor"))
    if b.outs > 2:
        raise SaveError("a card is played only with fewer than three outs", ("board", "outs"))
    if d.subject != -1:
        raise SaveError(f"a {d.kind!r} decision has no subject (-1), got {d.subject}",
                        ("pending", "subject"))
    for s in (0, 1):
        if sum(state.hands[s]) != HAND_SIZE:
            raise SaveError(f"during a half inning each hand holds {HAND_SIZE} cards, got "
                            f"{sum(state.hands[s])}", ("hands", s))
    offer = tuple(c for c in range(N_HAND_TYPES) if state.hands[seat][c]) + tuple(
        STACK_ACTION + i for i in range(len(state.stacks[seat])))
    if len(offer) < 2 or d.legal != offer:
        raise SaveError(f"the turn offers {list(offer)} (a choice of two or more), got "
                        f"{list(d.legal)}", ("pending", "legal"))


# -- the deck ------------------------------------------------------------------------------
def shuffle_into_deck(state: GameState, cards: list[int]) -> None:
    """Shuffle ``cards`` (in code order, so a shuffle depends only on which cards) into the
    draw pile; the dice stream is (scheduled shuffles so far, rebuilds in this stretch)."""
    state.dice.set_stream(state.stretch, state.refills)
    state.deck = state.dice.shuffle("deck", cards)


def refill_deck(state: GameState) -> None:
    """The draw pile ran out between shuffles: the discards are shuffled into a new one
    (RULES.md, "When the draw pile runs out")."""
    if not any(state.discards):
        raise RuntimeError("no cards left to draw: the draw pile and the discards are empty "
                           "(cards.check_counts should make this impossible)")
    state.refills += 1
    cards = deck_from_counts(state.discards)
    state.discards = [0] * N_TYPES
    shuffle_into_deck(state, cards)


def take_top(state: GameState) -> int:
    if not state.deck:
        refill_deck(state)
    return state.deck.pop(0)


def draw_card(state: GameState, seat: int) -> None:
    """One card into ``seat``'s hand. Drawing a Pinch Hitter/Relief Pitcher card: it goes
    face up on the table, the next card face down under it, and another card is drawn."""
    while True:
        card = take_top(state)
        if card != PINCH_HITTER:
            state.hands[seat][card] += 1
            return
        state.stacks[seat].append(take_top(state))


def draw_to_three(state: GameState, seat: int) -> None:
    """'draws a new card to bring his or her hand up to three' (none after a PH/RP play)."""
    hand = state.hands[seat]
    while sum(hand) < HAND_SIZE:
        draw_card(state, seat)


def deal(state: GameState) -> None:
    """SETTING UP 5: shuffle the cards and deal three to each manager.

    Cards are dealt one at a time, the Visiting Team manager first. A PH/RP card dealt is
    put on the table at once with a face-down card under it, and its place is dealt again.
    """
    shuffle_into_deck(state, state.deck)
    for _ in range(HAND_SIZE):
        for seat in (0, 1):
            draw_card(state, seat)
    state.step = "bat"


def gather_cards(state: GameState) -> None:
    """THE THIRD AND SIXTH INNING SHUFFLE: the deck, the discards and both hands are
    collected (the PH/RP stacks stay on the table), then shuffled and dealt again."""
    cards = list(state.discards)
    for c in state.deck:
        cards[c] += 1
    for seat in (0, 1):
        for c in range(N_TYPES):
            cards[c] += state.hands[seat][c]
        state.hands[seat] = [0] * N_TYPES
    state.discards = [0] * N_TYPES
    state.deck = deck_from_counts(cards)
    state.stretch += 1
    state.refills = 0
    state.step = "deal"


# -- whose turn --------------------------------------------------------------------------
def offer_play(state: GameState, seat: int, kind: str) -> None:
    """Steps 1 and 2: the manager plays a hand card or one of his PH/RP stacks."""
    hand = state.hands[seat]
    legal = tuple(c for c in range(N_HAND_TYPES) if hand[c]) + tuple(
        STACK_ACTION + i for i in range(len(state.stacks[seat])))
    if not legal:
        raise RuntimeError(f"seat {seat} has no card to play")
    if len(legal) == 1:                   # no choice: the engine plays the only card
        play(state, seat, legal[0])
    else:
        state.pending = Decision(kind, seat, legal)


def batting_turn(state: GameState) -> None:
    offer_play(state, state.board.batting, "batting_play")


def fielding_turn(state: GameState) -> None:
    offer_play(state, state.board.fielding, "fielding_play")


def choose_play(state: GameState, decision: Decision, action: int) -> None:
    play(state, decision.actor, action)


def play(state: GameState, seat: int, action: int) -> None:
    """Play the chosen card, draw back to three, then the other manager's turn (or the
    end of the half inning after the third out)."""
    if action >= STACK_ACTION:
        play_stack(state, seat, action - STACK_ACTION)
    else:
        state.hands[seat][action] -= 1
        play_card(state, seat, action)
    if state.board.over:                  # a walk-off ends the game at once
        return
    draw_to_three(state, seat)
    b = state.board
    if b.outs == 3:
        state.step = "end_half"
    else:
        state.step = "field" if seat == b.batting else "bat"


def play_stack(state: GameState, seat: int, index: int) -> None:
    """Playing a Pinch Hitter/Relief Pitcher card: the top card comes off and the card
    beneath is flipped and must be played. If it is another PH/RP card, the manager draws
    a card and that card is the play (a PH/RP card drawn so makes a new stack; draw again)."""
    beneath = state.stacks[seat].pop(index)
    state.discards[PINCH_HITTER] += 1
    kind = "pinch_hitter" if seat == state.board.batting else "relief_pitcher"
    _log(state, seat, kind, -1, beneath, state.board.bases)
    if beneath == PINCH_HITTER:
        state.discards[PINCH_HITTER] += 1
        card = take_top(state)
        while card == PINCH_HITTER:
            state.stacks[seat].append(take_top(state))
            card = take_top(state)
    else:
        card = beneath
    play_card(state, seat, card)


def play_card(state: GameState, seat: int, card: int) -> None:
    CARD_RULES[card](state, seat, card)


# -- small helpers --------------------------------------------------------------------------
def _log(state: GameState, seat: int, kind: str, actor: int, card: int, before: tuple,
         scored: tuple | list = (), detail: str = "") -> None:
    log_play(state, kind, actor, -1, card, before, scored, detail)
    state.played_by.append(seat)


def _discard(state: GameState, card: int) -> None:
    state.discards[card] += 1


def score_runs(state: GameState, scored: list, home_run: bool = False) -> list:
    """Runners cross the plate: their cards are discarded and the runs recorded (in a
    walk-off only the runs needed count, unless on a home run: Scoreboard.score)."""
    for r in scored:
        _discard(state, state.runner_cards[r])
        state.runner_cards[r] = None
    return state.board.score(scored, home_run=home_run)


def plate_appearance(state: GameState, seat: int, card: int, outcome: Outcome, before: tuple,
                     counted: list, rbi: bool) -> None:
    """Score the batter's card in the box score and the play log; the next batter is up."""
    b = state.board
    slot = state.batter
    state.box.plate_appearance(b.half, slot, b.inning, outcome, len(counted) if rbi else 0)
    state.box.runs_scored(b.half, counted)
    _log(state, seat, "pa", slot, card, before, counted, outcome.code)
    state.order[b.half] = (slot + 1) % 9


def batter_reaches(state: GameState, seat: int, card: int, outcome: Outcome, bases: int) -> None:
    """A hit or an error: the card goes on the batter's base, every runner moves as far."""
    b = state.board
    before = b.bases
    slot = state.batter
    state.runner_cards[slot] = card
    b.bases, scored = advance_all(before, bases, slot)
    if outcome is sb.REACHED_ON_ERROR:
        state.box.error(b.fielding)
    # a home run card is discarded after the score is recorded, like every scoring runner's
    counted = score_runs(state, scored, home_run=bases == 4)
    plate_appearance(state, seat, card, outcome, before, counted,
                     rbi=outcome is not sb.REACHED_ON_ERROR)


def batter_out(state: GameState, seat: int, card: int, outcome: Outcome) -> None:
    """An out card goes behind home plate; no runner moves."""
    before = state.board.bases
    state.outs_pile.append(card)
    state.board.add_outs(1)
    plate_appearance(state, seat, card, outcome, before, [], rbi=False)


# -- ON-BASE CARDS ----------------------------------------------------------------------------
def single(state: GameState, seat: int, card: int) -> None:
    """SINGLE: the batter to first, every runner up one base."""
    batter_reaches(state, seat, card, sb.SINGLE, 1)


def double(state: GameState, seat: int, card: int) -> None:
    """DOUBLE: the batter to second, first to third, second and third score."""
    batter_reaches(state, seat, card, sb.DOUBLE, 2)


def triple(state: GameState, seat: int, card: int) -> None:
    """TRIPLE: the batter to third, all runners score."""
    batter_reaches(state, seat, card, sb.TRIPLE, 3)


def home_run(state: GameState, seat: int, card: int) -> None:
    """HOME RUN: everyone scores; the card is discarded after the score is recorded."""
    batter_reaches(state, seat, card, sb.HOME_RUN, 4)


def error(state: GameState, seat: int, card: int) -> None:
    """ERROR: the batter to first, every runner up one base (an E for the fielders)."""
    batter_reaches(state, seat, card, sb.REACHED_ON_ERROR, 1)


def walk(state: GameState, seat: int, card: int) -> None:
    """WALK / HIT BY PITCH: the batter to first; only forced runners advance."""
    b = state.board
    before = b.bases
    slot = state.batter
    state.runner_cards[slot] = card
    b.bases, scored = force_advance(before, slot)
    counted = score_runs(state, scored)
    outcome = sb.HIT_BY_PITCH if card == HIT_BY_PITCH else sb.WALK
    plate_appearance(state, seat, card, outcome, before, counted, rbi=True)


# -- OUT CARDS ----------------------------------------------------------------------------------
def ground_out(state: GameState, seat: int, card: int) -> None:
    """GROUND OUT: the batter is out; no runners advance or score."""
    batter_out(state, seat, card, sb.GROUND_OUT)


def strike_out(state: GameState, seat: int, card: int) -> None:
    """STRIKE OUT: the batter is out; no runners advance or score."""
    batter_out(state, seat, card, sb.STRIKEOUT)


def fly_out(state: GameState, seat: int, card: int) -> None:
    """FLY OUT: the batter is out; with a runner on third and less than two outs when the
    card is played, the runner on third scores (a sacrifice fly)."""
    b = state.board
    if b.bases[2] is None or b.outs >= 2:
        batter_out(state, seat, card, sb.FLY_OUT)
        return
    before = b.bases
    state.outs_pile.append(card)
    b.add_outs(1)
    b.bases = (before[0], before[1], None)
    counted = score_runs(state, [before[2]])
    plate_appearance(state, seat, card, sb.SACRIFICE_FLY, before, counted, rbi=True)


def sacrifice_bunt(state: GameState, seat: int, card: int) -> None:
    """SACRIFICE BUNT: the batter is out; with less than two outs all runners advance one
    base. With two outs no runner moves and the inning is over."""
    b = state.board
    if b.outs >= 2 or not runner_count(b.bases):
        batter_out(state, seat, card, BUNT_OUT)
        return
    before = b.bases
    state.outs_pile.append(card)
    b.add_outs(1)
    b.bases, scored = advance_all(before, 1)
    counted = score_runs(state, scored)
    plate_appearance(state, seat, card, SACRIFICE_HIT, before, counted, rbi=True)


def double_play(state: GameState, seat: int, card: int) -> None:
    """DOUBLE PLAY, every case of the Card Reference.

    No outs: one runner -> he and the batter are out; first and one other -> the runner on
    first and the batter are out, the other runner advances one base; second and third ->
    the runner on second and the batter are out, the runner on third scores; bases loaded
    -> the runner on first and the batter are out, the other two advance one base.
    One out and at least one runner, or two outs -> three outs. No runners -> only the
    batter is out. A runner put out goes behind home plate with the card.
    """
    b = state.board
    before = b.bases
    occ = occupied(before)
    if not occ:                                   # only the batter is out
        batter_out(state, seat, card, sb.GROUND_OUT)
        return
    if b.outs == 2:                               # the batter is the third out
        batter_out(state, seat, card, sb.GROUND_OUT)
        return
    state.outs_pile.append(card)
    if b.outs == 1:                               # three outs; the inning is over
        out_base = 0 if before[0] is not None else occ[0]
        _runner_out(state, before[out_base])
        b.add_outs(2)
        plate_appearance(state, seat, card, sb.DOUBLE_PLAY, before, [], rbi=False)
        return
    # no outs
    if len(occ) == 1:
        out_base = occ[0]
    elif before[0] is not None:                   # first and one other, or bases loaded
        out_base = 0
    else:                                         # second and third
        out_base = 1
    _runner_out(state, before[out_base])
    b.add_outs(2)
    rest = list(before)
    rest[out_base] = None
    b.bases, scored = advance_all((rest[0], rest[1], rest[2]), 1)
    counted = score_runs(state, scored)
    plate_appearance(state, seat, card, sb.DOUBLE_PLAY, before, counted, rbi=False)


def _runner_out(state: GameState, runner: int) -> None:
    """'the card for that runner is moved behind home plate where it counts as an out'."""
    state.outs_pile.append(state.runner_cards[runner])
    state.runner_cards[runner] = None
    b = state.board
    b.bases = tuple(None if r == runner else r for r in b.bases)


# -- RUNNER CARDS ---------------------------------------------------------------------------------
def runner_card(state: GameState, seat: int, card: int) -> None:
    """WILD PITCH, PASSED BALL, STOLEN BASE, PITCHER BALK: each runner advances one base;
    the card is discarded (with nobody on base it is simply discarded)."""
    b = state.board
    before = b.bases
    _discard(state, card)
    counted: list = []
    if runner_count(before):
        b.bases, scored = advance_all(before, 1)
        counted = score_runs(state, scored)
        state.box.runs_scored(b.half, counted)
    _log(state, seat, CARD_NAMES[card], -1, card, before, counted)


# -- what a card does, from outside -------------------------------------------------------
def effect_of_card(card: int, *, outs: int, bases: tuple) -> tuple[int, tuple[bool, bool, bool], int]:
    """What hand card ``card`` does when it is played with ``outs`` (0-2) and runners on
    ``bases`` (first, second, third: occupied or not): the outs after (3 ends the half
    inning), the bases occupied after and the runs scored. A card does the same whoever
    plays it, and nothing else of the game changes what it does to the bases (Card
    Reference); the card's own rule (:data:`CARD_RULES`) plays it on a scratch game at that
    situation (:func:`~dugout.envs.core.engine.set_situation`, the top of the 1st), so the
    answer is the engine's. Bad input raises ``ValueError``."""
    if isinstance(card, bool) or card not in CARD_RULES:
        raise ValueError(f"effect_of_card: card must be a hand card type 0-{N_HAND_TYPES - 1}, "
                         f"got {card!r}")
    if outs not in (0, 1, 2) or isinstance(outs, bool):
        raise ValueError(f"effect_of_card: outs must be 0, 1 or 2, got {outs!r}")
    if len(bases) != 3:
        raise ValueError(f"effect_of_card: bases must be three flags (first, second, third), "
                         f"got {bases!r}")
    names = [(n, str(i + 1)) for i, n in enumerate(BATTER_NAMES)]
    state = GameState(board=Scoreboard(innings=1), dice=Dice(0),
                      box=BoxScore(list(TEAM_NAMES), [names, names]), log=PlayLog(),
                      counts=REFERENCE_COUNTS, deck=[], hands=[[0] * N_TYPES, [0] * N_TYPES],
                      stacks=[[], []], discards=[0] * N_TYPES)
    runners = []
    for base, on in enumerate(bases):            # the batter is slot 0, runners slots 6-8
        runners.append(6 + base if on else None)
        if on:
            state.runner_cards[6 + base] = SINGLE
    set_situation(state.board, inning=1, half=0, outs=outs, bases=tuple(runners))
    CARD_RULES[card](state, 0, card)
    b = state.board
    return b.outs, (b.bases[0] is not None, b.bases[1] is not None, b.bases[2] is not None), b.runs[0]


# -- the end of a half inning --------------------------------------------------------------
def end_half_inning(state: GameState) -> None:
    """Step 3: outs and the base runner cards on the table are discarded; PH/RP stacks stay.
    After every third inning the cards are shuffled and dealt again."""
    for c in state.outs_pile:
        _discard(state, c)
    state.outs_pile = []
    for slot, c in enumerate(state.runner_cards):
        if c is not None:
            _discard(state, c)
            state.runner_cards[slot] = None
    b = state.board
    finished = b.inning
    bottom = b.half == 1
    b.end_half()
    if b.over:
        return
    if bottom and shuffle_after(finished):
        state.step = "shuffle"
    else:
        state.step = "bat"


CARD_RULES: dict[int, Callable[[GameState, int, int], None]] = {
    SINGLE: single, DOUBLE: double, TRIPLE: triple, HOME_RUN: home_run, WALK: walk,
    HIT_BY_PITCH: walk, ERROR: error, GROUND_OUT: ground_out, STRIKE_OUT: strike_out,
    FLY_OUT: fly_out, SACRIFICE_BUNT: sacrifice_bunt, DOUBLE_PLAY: double_play,
    WILD_PITCH: runner_card, PASSED_BALL: runner_card, STOLEN_BASE: runner_card,
    BALK: runner_card,
}

RULES: dict[str, Callable[[GameState], None]] = {
    "deal": deal,
    "shuffle": gather_cards,
    "bat": batting_turn,
    "field": fielding_turn,
    "end_half": end_half_inning,
}

CHOICES: dict[str, Callable[[GameState, Decision, int], None]] = {
    "batting_play": choose_play,
    "fielding_play": choose_play,
}
