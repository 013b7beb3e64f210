"""The Manager Challenge (the rulebook's solo mode): the duel's engine, its pitcher played
by the Pitcher deck and the Solo Pitch chart, over a six-game campaign.

One game (mode ``"solo"`` of :class:`~.rules.GameState`) is the duel's half inning with
these rules in place of the pitcher's manager (each a small function below, every reading
in RULES.md, "The Manager Challenge")::

    set-up:     the Situation's score, outs and runners; the pitcher drawn from the pile;
                the Effect card's ops; the Pitcher deck (the other Situation and Effect
                cards), shuffled                                           (automatic)
                the lineup ("select_batter"), the bench ("select_bench")  -> decisions
    each batter: a pinch hitter for the batter due up, if the Situation gave a bench -> "pinch_hit"
    each pitch: the guess (Manager of the Year: not the last one)      -> "guess"
                the top card of the deck is the pitch (deck out: the anti-Ace), then
                discarded; tokens and grants as in the duel, no Ace fatigue   (automatic)
                the Pitch and Control dice; the automaton's abilities      (automatic)
                on an exact guess: the MVP or fatigue the pitcher 1        -> "mvp_or_fatigue"
                the Swing die and the batter's abilities                   -> "batter_ability"
    clean up:   relief (cards from the bottom of the discard pile back to the deck), or a
                new pitcher if the deck ran out, or the extra inning's reshuffle (automatic)

The duel's rule tables are used as they are, with the overrides registered under
``state.MODES["solo"]``. :class:`Campaign` strings six games together: the Situation
(first the Home Opener), the Effect, the pitcher pile that carries from game to game, the
wins and the Manager Points, and the result band.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dice import DICE, Dice, ScriptedDice
from ..core.errors import IllegalActionError
from ..core.scoreboard import SuddenDeathScoreboard, register_scoreboard
from ..core.scorebook import BoxScore, Play, PlayLog
from ..core.state import PlainState, SavedAs, SaveError, check_choice, check_index, check_int
from . import rules
from .cards import CardSet, ace_pitch, can_complete_lineup, matching_size, with_traits
from .rules import (CARD, CHOICES, CONTROL_DOWN, CONTROL_UP, FACE_B, FACE_C, FACE_S,
                    FATIGUE_PITCHER, GUESS, LINEUP_SIZE, MVP, PASS, REROLL_CONTROL, REROLL_PITCH,
                    RULES, SOLO_ACTIONS, TEAM_NAMES, Decision, GameState, _grant_allows,
                    award_tokens, grant_abilities, roll_pitch, usable_abilities,
                    use_ability)
from .solo_cards import SoloSet
from .state import MODES, clear_pitch
from .support import parse_support

__all__ = ["Campaign", "ChallengeScoreboard", "new_campaign", "new_solo_game", "LEVELS", "BANDS", "band", "GAMES",
           "automaton_action", "deck_pitch", "WIN_MP", "SWEEP_MP"]

LEVELS = ("standard", "veteran", "manager_of_the_year", "hall_of_fame")
#: the result bands, worst first (rulebook, "Winning")
BANDS = ("fired", "playoffs", "true_victory", "carried_off")
GAMES = 6
WIN_MP, SWEEP_MP = 5, 12           # "Add 5 MP for a win, or 12 MP for winning all 6"
_VETERAN, _MOTY, _HOF = 1, 2, 3


def band(wins: int, mp: int) -> str:
    """"3 or fewer wins: You're fired ... 4 wins & <25 MP: The team has made the playoffs, at
    the expense of your career ... 4+ wins & 25-40 MP: ... (true victory) ... 5+ wins & 40+
    MP: You are carried off the field". The printed bands overlap at 40 MP and leave 4 wins
    with more than 40 MP and 5+ wins under 25 MP unnamed (RULES.md): under 25 MP is the
    playoffs band, 5+ wins with 40+ MP carried off, every other 25+ a true victory."""
    if wins <= 3:
        return "fired"
    if mp < 25:
        return "playoffs"
    if wins >= 5 and mp >= 40:
        return "carried_off"
    return "true_victory"


# -- the scoreboard ------------------------------------------------------------------------------
@register_scoreboard
@dataclass
class ChallengeScoreboard(SuddenDeathScoreboard):
    """Bottom of the 9th's Manager Challenge: a sudden-death half inning from a Situation's
    score, outs and runners, in which the batting (home) side wins the moment it leads and
    loses at the third out, unless the game is tied and the Situation allows extra innings
    ("Some scenarios allow for extra innings"): then the batting side bats again in the
    next inning, from nobody out and the bases empty, while ``extra`` innings are left.
    The visitors' half of an extra inning is not played (the solo manager only bats): the
    line score shows a 0 for them. Registered with core's scoreboards
    (:func:`~dugout.envs.core.scoreboard.register_scoreboard`), so a saved game's board
    loads as this class."""

    SAVED_AS = SavedAs("variant", "challenge", "Manager Challenge scoreboard")

    extra: int = 0

    def validate(self) -> None:
        super().validate()
        check_int(self.extra, ("extra",), 0)

    def after_half(self) -> None:
        if self.runs[0] == self.runs[1] and self.extra > 0:
            self.extra -= 1
            self.inning += 1
            self.line[0].append(0)
            self.line[1].append(0)
            return
        self.finish(self.fielding)


# -- the Pitcher deck ---------------------------------------------------------------------------
def deck_pitch(state: GameState, card: int) -> int:
    """The pitch a deck card throws: a Situation's printed pitch, an Effect's Stare Down result
    (a pitch, the pitcher's Ace, or the pitch opposite it on both components)."""
    solo = state.solo
    if solo.is_situation(card):
        return solo.card(card).pitch
    what = solo.card(card).pitch
    ace = ace_pitch(state.cards.card(state.pitcher))
    if what == "ace":
        return ace
    if what == "anti_ace":
        return 3 - ace
    return ("HI", "HA", "LI", "LA").index(what)


def fatigue_pitcher(state: GameState, n: int) -> None:
    """""Fatigue" results in discarding from the top of the deck" (nothing when it is empty)."""
    for _ in range(n):
        if state.deck:
            state.discard.append(state.deck.pop(0))
    note_depleted(state)


def note_depleted(state: GameState) -> None:
    """"If the Pitcher deck is ever depleted": the moment its last card leaves it (revealed
    or discarded), the at-bat is finished against the anti-Ace and then the pitcher goes."""
    if not state.deck:
        state.depleted = True


def shuffle_deck(state: GameState) -> None:
    state.deck = state.dice.shuffle("deck", state.deck)


def give_relief(state: GameState, n: int) -> None:
    """""Relief" returns a card from the bottom of the discard pile to the deck, and the deck
    is shuffled."""
    back, state.discard = state.discard[:n], state.discard[n:]
    state.deck += back
    if back:
        shuffle_deck(state)


def relief_points(state: GameState) -> int:
    """"Between At-Bats, the Pitcher gains Relief as normal" (one per empty base); "Any
    Pitcher with an Ability that mentions Fatigue or Relief receives 1 extra Relief between
    At-Bats in lieu of using the Abilities" (a ``stamina`` or ``tires`` trait); and the
    Effect card's stamina."""
    empty = sum(r is None for r in state.board.bases)
    card = state.cards.card(state.pitcher)
    mentions = any(t.kind in ("stamina", "tires") for t in card.traits)
    return empty + int(mentions) + state.stamina


def draw_pitcher(state: GameState, rule: str) -> int:
    """"draw a Pitcher from the top of the pile as dictated by the scenario": the top card, or
    the first who may start (``starter``) or relieve (``reliever``); the top card when none
    may. A drawn pitcher leaves the pile; an empty pile is the pitchers not in this game yet
    reshuffled (every pitcher but the one on the mound if all have been in)."""
    cs = state.cards
    if not state.pile:
        pitchers = range(len(cs.batters), len(cs.cards))
        others = [i for i in pitchers if i != state.pitcher and i not in state.removed] or \
            [i for i in pitchers if i != state.pitcher]
        state.pile = state.dice.shuffle("pile", others)
    ok = {"top": lambda c: True, "starter": lambda c: c.can_start,
          "reliever": lambda c: c.can_relieve}[rule]
    pick = next((i for i in state.pile if ok(cs.card(i))), state.pile[0])
    state.pile.remove(pick)
    return pick


def bring_in(state: GameState, pitcher: int) -> None:
    b = state.board
    if state.pitcher >= 0:
        state.removed.append(state.pitcher)
        state.log.add(Play(b.inning, b.half, "pitching_change", pitcher, -1, None, b.bases, b.bases, (), ""))
    state.pitcher = pitcher
    state.staff = [pitcher]
    state.box.add_pitcher(0, state.cards.card(pitcher).name)


# -- set-up ---------------------------------------------------------------------------------------
def _game_cards(cards: CardSet, ops) -> CardSet:
    """The cards of this game: the Effect card's game-long traits written onto every card of
    its side (stamina is relief, kept apart)."""
    traits = [o for o in ops if o.kind == "trait" and o.trait_data()["trait"] != "stamina"]
    return with_traits(cards, traits, "the Effect card's traits")


def _effect_grants(state: GameState, ops) -> None:
    """The Effect card's once-a-game abilities, played as the longer game's support cards
    (each pays only when no grant of the pitch allows the action, then is spent)."""
    grants = [o for o in ops if o.kind == "grant"]
    if not grants:
        return
    data = {"set": "effect card", "version": 1,
            "support": [{"id": f"effect-{o.side}", "name": f"Effect card ({o.side})", "side": o.side,
                         "grant": [e.to_dict() for e in o.grant]} for o in grants]}
    state.supports = parse_support(data, "the Effect card's grants", least=1)
    state.use_support = True
    state.support = [-1, -1]
    for k, o in enumerate(grants):
        state.support[1 if o.side == "batting" else 0] = k


def new_solo_game(dice: Dice | ScriptedDice, cards: CardSet, solo: SoloSet, situation: int,
                  effect: int, played: list[int], pile: list[int], level: int = 0,
                  faces: tuple[str, ...] = ("B", "B", "B", "S", "S", "C"),
                  out_rule: str = "lead_runner") -> GameState:
    """A Manager Challenge game at its first decision. ``played`` are the Situations of
    earlier games (out of the deck), ``pile`` the pitcher pile (top first)."""
    s = solo.situations[situation]
    e = solo.effects[effect]
    ops = e.ops(level >= _VETERAN)
    away = s.score[0] + sum(o.n for o in ops if o.kind == "deficit")
    outs = min(2, s.outs + sum(o.n for o in ops if o.kind == "out"))
    board = ChallengeScoreboard(innings=9, inning=9, half=1, runs=[away, s.score[1]], outs=outs,
                                extra=s.extra_innings)
    box = BoxScore(list(TEAM_NAMES), [[], [(f"Batter {i + 1}", "") for i in range(LINEUP_SIZE)]])
    state = GameState(board=board, dice=dice, box=box, log=PlayLog(), cards=_game_cards(cards, ops),
                      faces=faces, out_rule=out_rule, teams="choose", mode="solo", solo=solo,
                      level=level, situation=situation, effect=effect, pile=list(pile))
    state.slot_lines = [[], list(range(LINEUP_SIZE))]
    state.solo_inning = board.inning
    state.stamina = sum(o.trait_data()["by"] for o in ops if o.kind == "trait"
                        and o.trait_data()["trait"] == "stamina")
    _effect_grants(state, ops)
    dice.set_stream(0)
    bring_in(state, draw_pitcher(state, s.pitcher))
    # "Shuffle the remaining Situation and Effect cards to form the Pitcher deck"
    n = len(solo.situations)
    state.deck = [c for c in range(n) if c != situation and c not in played] + \
        [n + k for k in range(len(solo.effects)) if k != effect]
    shuffle_deck(state)
    fatigue_pitcher(state, sum(o.n for o in ops if o.kind == "fatigue"))
    _lineup_pool(state, s)
    state.step = "solo_lineup"
    rules.run(state)
    return state


def _lineup_pool(state: GameState, s) -> None:
    """The Situation's lineup rule: ``choose`` from every batter; ``pick_from`` from ``pool``
    batters drawn at random (more drawn, one at a time, until six positions can be filled);
    ``random``: the first legal lineup of the shuffled batters, in that order."""
    cs = state.cards
    batters = list(range(len(cs.batters)))
    if s.lineup_rule == "choose":
        state.pool = batters
        return
    order = state.dice.shuffle("lineup", batters)
    if s.lineup_rule == "pick_from":
        k = s.pool
        while k < len(order) and matching_size([cs.card(i).eligible for i in order[:k]]) < LINEUP_SIZE:
            k += 1
        state.pool = sorted(order[:k])
        return
    for i in order:
        chosen = [cs.card(j).eligible for j in state.lineup]
        rest = [cs.card(j).eligible for j in order if j != i and j not in state.lineup]
        if len(state.lineup) < LINEUP_SIZE and can_complete_lineup(chosen + [cs.card(i).eligible], rest):
            state.lineup.append(i)
    state.pool = [i for i in order if i not in state.lineup]


def offer_lineup(state: GameState) -> None:
    """"Refer to this card for instructions on selecting a hitting lineup": one batter per
    slot from the pool, masked so six positions stay possible (the duel's rule)."""
    if len(state.lineup) == LINEUP_SIZE:
        state.step = "solo_bench"
        return
    state.pending = Decision("select_batter", 1, rules.lineup_picks(state, state.pool))


def offer_bench(state: GameState) -> None:
    """The Situation's bench: that many pinch hitters named from the batters left (drawn at
    random under the ``random`` lineup rule)."""
    s = state.solo.situations[state.situation]
    left = [i for i in state.pool if i not in state.lineup and i not in state.bench]
    if len(state.bench) >= s.bench or not left:
        state.step = "solo_play_ball"
        return
    if s.lineup_rule == "random":
        state.bench.append(left[0])
        return
    state.pending = Decision("select_bench", 1, tuple(sorted(CARD + i for i in left)))


def choose_bench(state: GameState, decision: Decision, action: int) -> None:
    state.bench.append(action - CARD)


def play_ball(state: GameState) -> None:
    """The Situation's runners ("the score, number of runners, and number of outs") and the
    Effect card's (none at Hall of Fame: "There are never any runners placed on base to start
    a game"): the batters before the one due up, counting back from the lineup's end."""
    cs = state.cards
    for slot, i in enumerate(state.lineup):
        line = state.box.lines[1][slot]
        line.name, line.label = cs.card(i).name, cs.card(i).position
    s = state.solo.situations[state.situation]
    ops = state.solo.effects[state.effect].ops(state.level >= _VETERAN)
    bases = set() if state.level >= _HOF else set(s.runners) | {o.n for o in ops if o.kind == "runner"}
    slot = LINEUP_SIZE - 1
    on = [None, None, None]
    for base in sorted(bases):              # the runner on first batted last
        on[base - 1] = slot
        slot -= 1
    state.board.bases = (on[0], on[1], on[2])
    state.step = "new_batter"


# -- each batter, each pitch ----------------------------------------------------------------------
def new_batter(state: GameState) -> None:
    """A new batter (the count 0-0); a pinch hitter may bat for him (Situations with a bench:
    the Longer Game's Pinch Hitters, the new lineup keeping six positions)."""
    state.balls = state.strikes = 0
    state.pitch_no = 0
    state.box.pitching[0][-1].bf += 1
    state.step = "stare_down"
    legal = tuple(sorted(CARD + c for c in state.bench if _pinch_ok(state, c)))
    if legal:
        state.pending = Decision("pinch_hit", 1, legal + (PASS,))


def _pinch_ok(state: GameState, card: int) -> bool:
    cs = state.cards
    slot = state.order[1]
    lineup = [card if k == slot else c for k, c in enumerate(state.lineup)]
    return matching_size([cs.card(c).eligible for c in lineup]) == LINEUP_SIZE


def choose_pinch_hit(state: GameState, decision: Decision, action: int) -> None:
    """The pinch hitter bats for the batter due up, who leaves the game."""
    if action == PASS:
        return
    card = action - CARD
    b = state.board
    slot = state.order[1]
    state.bench.remove(card)
    state.lineup[slot] = card
    c = state.cards.card(card)
    state.slot_lines[1][slot] = state.box.add_line(1, c.name, c.position)
    state.log.add(Play(b.inning, b.half, "substitution", state.slot_lines[1][slot], slot, None,
                       b.bases, b.bases, (), "1"))


def stare_down(state: GameState) -> None:
    """"Set your tokens and then reveal the top card of the deck": the guess comes first."""
    clear_pitch(state)
    state.revealed = -1
    state.pitch_no += 1
    state.dice.set_stream(state.board.half_index, state.pa, state.pitch_no)
    state.step = "guess"


def offer_guess(state: GameState) -> None:
    """Manager of the Year: "you may not guess the same Direction and Location on consecutive
    Stare-Downs"."""
    legal = tuple(GUESS + p for p in range(4) if not (state.level >= _MOTY and p == state.prev_guess))
    state.pending = Decision("guess", 1, legal)


def choose_guess(state: GameState, decision: Decision, action: int) -> None:
    state.guess = state.prev_guess = action - GUESS
    reveal(state)


def reveal(state: GameState) -> None:
    """The top card is the pitch, then discarded ("If the Pitcher deck is ever depleted,
    finish the at-bat ... with the Pitcher selecting tokens opposite of the Ace pitch"); the
    tokens and grants as in the duel. "The Pitcher deck completely replaces the Fatigue
    process": no Ace fatigue."""
    if state.deck:
        top = state.deck.pop(0)
        state.discard.append(top)
        state.revealed = top
        state.thrown = deck_pitch(state, top)
        note_depleted(state)
    else:
        state.depleted = True
        state.thrown = 3 - ace_pitch(state.cards.card(state.pitcher))
    award_tokens(state)
    grant_abilities(state)
    roll_pitch(state)
    state.step = "pitcher_ability"


# -- the automated pitcher ---------------------------------------------------------------------------
#: what each chart letter tries, in order (an action the grants do not allow falls back)
_CHART_TRIES = {"K": (), "+": (CONTROL_UP, REROLL_CONTROL), "-": (CONTROL_DOWN, REROLL_CONTROL),
                "R": (REROLL_CONTROL,), "P": (REROLL_PITCH,), "B": (FACE_B, REROLL_PITCH),
                "S": (FACE_S, REROLL_PITCH), "C": (FACE_C, REROLL_PITCH)}


def _chart_letter(state: GameState) -> str:
    chart = state.solo.chart(state.cards.card(state.pitcher).id)
    return chart[state.face][state.control - 1]


def _ace_allows(state: GameState, action: int) -> bool:
    return any(g.source == "ace" and _grant_allows(state, g, action) for g in state.grants[0])


def automaton_action(state: GameState, modified: bool, ace_used: bool) -> tuple[int, bool | None] | None:
    """The automated pitcher's next ability and who pays (``prefer_ace``), or None when he is
    done (RULES.md, "The automated pitcher"):

    1. "If a natural 1 is rolled with 3 balls in the count and the Pitcher has an available
       reroll, the Pitcher must reroll the Pitch die": the Pitch die's face 1 (a Ball with
       the default faces), as rolled and not turned;
    2. the Solo Pitch chart's letter for the face and Control shown, paid by a grant other
       than the Ace when one allows it ("modified ... without doing so");
    3. "If the Ace Pitch was thrown and not canceled, always activate its effect unless the
       pitch can be modified into a natural result that avoids it": when no other ability
       has modified the pitch and the Ace has not been used, one Ace ability anyway (one that
       lands on a kept result, else a reroll, else the first)."""
    usable = usable_abilities(state, 0)
    if not usable:
        return None
    if state.balls == 3 and state.pitch_roll == 1 and state.face == state.face_natural \
            and REROLL_PITCH in usable:
        return REROLL_PITCH, False
    for a in _CHART_TRIES[_chart_letter(state)]:
        if a in usable:
            return a, False
    if modified or ace_used:
        return None
    ace = [a for a in usable if _ace_allows(state, a)]
    if not ace:
        return None
    keeps = [a for a in ace if a not in (REROLL_PITCH, REROLL_CONTROL) and _keeps_after(state, a)]
    rerolls = [a for a in ace if a in (REROLL_CONTROL, REROLL_PITCH)]
    return (keeps or rerolls or ace)[0], True


def _keeps_after(state: GameState, action: int) -> bool:
    chart = state.solo.chart(state.cards.card(state.pitcher).id)
    kind, die, what = rules.ABILITY_EFFECT[action]
    face, control = state.face, state.control
    if kind == "modify":
        control += what
    elif kind == "face":
        face = what
    return chart[face][control - 1] == "K"


def automaton(state: GameState) -> None:
    """2. The Pitch, solo: "use any abilities accessible to the Pitcher to modify the roll ...
    Use the Solo Pitch reference chart printed on the card to determine how the Pitcher will
    modify the roll" (no decision: :func:`automaton_action`, one use at a time)."""
    modified = ace_used = False
    while True:
        choice = automaton_action(state, modified, ace_used)
        if choice is None:
            break
        action, prefer_ace = choice
        grant = use_ability(state, 0, action, prefer_ace)
        if grant.source == "ace":
            ace_used = True
        else:
            modified = True
    state.step = "mvp_or_fatigue"


def offer_mvp_or_fatigue(state: GameState) -> None:
    """"If you correctly guess both Direction and Location, you may choose to Fatigue the
    Pitcher 1 instead of using your MVP Ability. This must be selected before the Swing
    phase": asked after the pitcher's dice and abilities, before the Swing roll."""
    state.step = "swing"
    if state.thrown == state.guess:
        state.pending = Decision("mvp_or_fatigue", 1, (MVP, FATIGUE_PITCHER))


def choose_mvp_or_fatigue(state: GameState, decision: Decision, action: int) -> None:
    if action == FATIGUE_PITCHER:
        state.grants[1] = [g for g in state.grants[1] if g.source != "mvp"]
        fatigue_pitcher(state, 1)


# -- clean up -----------------------------------------------------------------------------------------
def clean_up(state: GameState) -> None:
    """Between at-bats: a new pitcher when the deck ran out during the at-bat ("Following the
    at-bat, select another Pitcher randomly (or as dictated by the scenario) ... Shuffle the
    Pitcher discard pile to form the new deck, and then immediately Fatigue the Pitcher 3",
    the first card of the pile who may relieve);
    at an extra inning's start "shuffle the Pitcher discard pile into the deck and fatigue
    the Pitcher 1 for each run they have allowed in the game"; else relief."""
    b = state.board
    state.step = "new_batter"
    state.revealed = -1
    changed = state.depleted
    new_inning = b.inning != state.solo_inning
    if new_inning:
        state.solo_inning = b.inning
        state.pa = 0
    if changed:
        # a relief pitcher ("select another Pitcher randomly"): one who may relieve; his fresh
        # deck is this clean-up's relief and an extra inning's reshuffle (he allowed no run)
        state.depleted = False
        bring_in(state, draw_pitcher(state, "reliever"))
        state.deck, state.discard = state.discard, []
        shuffle_deck(state)
        fatigue_pitcher(state, 3)
    elif new_inning:
        state.deck, state.discard = state.deck + state.discard, []
        shuffle_deck(state)
        fatigue_pitcher(state, state.box.pitching[0][-1].r)
    else:
        give_relief(state, relief_points(state))


MODES["solo"] = (
    {**CHOICES, "select_bench": choose_bench, "guess": choose_guess,
     "pinch_hit": choose_pinch_hit, "mvp_or_fatigue": choose_mvp_or_fatigue},
    {**RULES, "solo_lineup": offer_lineup, "solo_bench": offer_bench, "solo_play_ball": play_ball,
     "new_batter": new_batter, "stare_down": stare_down, "guess": offer_guess,
     "pitcher_ability": automaton, "mvp_or_fatigue": offer_mvp_or_fatigue,
     "clean_up": clean_up},
    SOLO_ACTIONS)


# -- the campaign ---------------------------------------------------------------------------------------
@dataclass
class Campaign(PlainState):
    """Six games: "Win at least 4 of the 6 games ... and earn enough Manager Points".

    ``played`` are the Situations drawn so far (the game in progress's last), ``drawn`` the
    Effect cards; ``results`` 1/0 per finished game, ``points`` its Manager Points (the
    Situation's and the Effect's, and 5 for a win); ``pile`` the pitcher pile, top first,
    carried from game to game; ``game`` the game in progress (or the last, once over)."""

    SAVED_AS = SavedAs("ruleset", "manager_challenge", "Manager Challenge campaign")

    cards: CardSet
    solo: SoloSet
    dice: Dice | ScriptedDice = field(metadata=DICE)
    level: int = 0
    first: str = "home_opener"
    faces: tuple[str, ...] = ("B", "B", "B", "S", "S", "C")
    out_rule: str = "lead_runner"
    played: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    results: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)
    game: GameState | None = None
    over: bool = False

    def clone(self) -> "Campaign":
        return _relink(super().clone())

    @classmethod
    def from_dict(cls, data) -> "Campaign":
        """Rebuild a saved campaign, checked (:meth:`validate`; the game in progress is
        checked as a game)."""
        return _relink(super().from_dict(data))

    def validate(self) -> None:
        """What the field types cannot say: the options are ones a campaign is made with
        (the level, the first game, the Pitch die's faces, the out rule); the Situations
        played are distinct and one more than the games finished while the campaign goes
        on, the last the game in progress's (its Effect too); each finished game is a win
        (1) or a loss (0) with its Manager Points; the pile holds pitchers of the card set."""
        check_int(self.level, ("level",), 0, len(LEVELS) - 1)
        check_choice(self.first, ("home_opener", "random"), ("first",))
        check_choice(self.out_rule, ("lead_runner", "batter"), ("out_rule",))
        if not 1 <= len(self.faces) <= 12:
            raise SaveError(f"the Pitch die has 1 to 12 faces, got {len(self.faces)}", ("faces",))
        for i, f in enumerate(self.faces):
            check_choice(f, ("B", "S", "C"), ("faces", i))
        solo, cs = self.solo, self.cards
        for key, size, what in (("played", len(solo.situations), "the Situations"),
                                ("drawn", len(solo.effects), "the Effect cards")):
            values = getattr(self, key)
            for i, k in enumerate(values):
                check_index(k, size, (key, i), what)
            if len(values) > GAMES:
                raise SaveError(f"a campaign has {GAMES} games, got {len(values)}", (key,))
        if len(set(self.played)) != len(self.played):
            raise SaveError("each Situation is played once", ("played",))
        for i, r in enumerate(self.results):
            check_int(r, ("results", i), 0, 1)
        for i, mp in enumerate(self.points):
            check_int(mp, ("points", i))
        if len(self.points) != len(self.results) or len(self.results) > GAMES:
            raise SaveError(f"one result and its Manager Points per finished game (at most "
                            f"{GAMES})", ("points",))
        for i, k in enumerate(self.pile):
            check_index(k, len(cs.cards), ("pile", i), "the card set")
            if cs.is_batter(k):
                raise SaveError(f"card {k} in the pitcher pile is a batter", ("pile", i))
        if self.over:
            if len(self.results) != GAMES:
                raise SaveError(f"a campaign over has {GAMES} results", ("results",))
            return
        g = self.game
        if g is None or g.mode != "solo" or g.board.over:
            raise SaveError("a campaign that goes on has a Manager Challenge game in progress",
                            ("game",))
        if len(self.results) == GAMES or len(self.played) != len(self.results) + 1 or \
                len(self.drawn) != len(self.played) or \
                (g.situation, g.effect) != (self.played[-1], self.drawn[-1]):
            raise SaveError(f"the game in progress is game {len(self.results) + 1}, on the last "
                            f"Situation and Effect drawn", ("played",))

    @property
    def wins(self) -> int:
        return sum(self.results)

    @property
    def mp(self) -> int:
        return sum(self.points) + (SWEEP_MP if len(self.results) == GAMES and self.wins == GAMES else 0)

    @property
    def band(self) -> str:
        return band(self.wins, self.mp)

    @property
    def pending(self) -> Decision | None:
        return None if self.over else self.game.pending

    def start_game(self) -> None:
        """"Shuffle the Situation cards and draw one ... (if this is your first solo game,
        select Home Opener)"; later games draw from the Situations not yet played. "Shuffle
        the Effect cards and draw one." Each game has its own dice."""
        k = len(self.results)
        self.dice.set_stream(0, k)
        solo = self.solo
        open_ = [i for i in range(len(solo.situations)) if i not in self.played]
        if k == 0 and self.first == "home_opener":
            situation = next(i for i, s in enumerate(solo.situations) if s.home_opener)
        else:
            situation = open_[self.dice.randbelow("situation", len(open_))]
        effect = self.dice.randbelow("effect", len(solo.effects))
        if not self.pile and k == 0:
            cs = self.cards
            self.pile = self.dice.shuffle("pile", list(range(len(cs.batters), len(cs.cards))))
        dice = self.dice if self.dice.scripted else Dice(self.dice.randbelow("game", 1 << 62))
        self.game = new_solo_game(dice, self.cards, solo, situation, effect, self.played, self.pile,
                                  self.level, self.faces, self.out_rule)
        self.played.append(situation)
        self.drawn.append(effect)

    def game_points(self, game: GameState) -> int:
        """The game's Manager Points: the Situation's per run scored and for a win, the
        Effect's for a win, and "5 MP for a win"."""
        s = self.solo.situations[game.situation]
        runs = game.board.runs[1] - s.score[1]
        won = game.board.winner == 1
        bonus = sum(o.n for o in self.solo.effects[game.effect].ops(game.level >= _VETERAN) if o.kind == "mp")
        return s.mp_run * runs + (s.mp_win + bonus + WIN_MP if won else 0)

    def apply(self, action: int) -> int:
        """Play ``action`` in the game in progress; when it ends, record it and start the next
        (or end the campaign). Returns the Manager Points this action earned."""
        if self.over:
            raise IllegalActionError("the campaign is over: there is no decision to make")
        rules.apply_action(self.game, action)
        if not self.game.board.over:
            return 0
        return self.finish_game()

    def forfeit(self) -> None:
        """The campaign ends at once (an illegal action under ``illegal_action="lose"``): the
        game in progress and the games not played are lost, with no Manager Points."""
        while len(self.results) < GAMES:
            self.results.append(0)
            self.points.append(0)
        self.over = True

    def finish_game(self) -> int:
        game = self.game
        earned = self.game_points(game)
        self.results.append(int(game.board.winner == 1))
        self.points.append(earned)
        self.pile = list(game.pile)
        if len(self.results) == GAMES:
            self.over = True
            if self.wins == GAMES:
                earned += SWEEP_MP
        else:
            self.start_game()
            if self.game.board.over:             # (a game can't end before a decision; guard)
                earned += self.finish_game()
        return earned


def _relink(c: Campaign) -> Campaign:
    """Scripted dice (tests) are one script for the campaign and its games: a copy keeps them
    one object (seeded dice are the game's own, apart from the campaign's)."""
    if c.dice.scripted and c.game is not None:
        c.dice = c.game.dice
    return c


def new_campaign(dice: Dice | ScriptedDice, cards: CardSet, solo: SoloSet, level: int = 0,
                 first: str = "home_opener", faces: tuple[str, ...] = ("B", "B", "B", "S", "S", "C"),
                 out_rule: str = "lead_runner") -> Campaign:
    """A campaign at its first decision (a chart for a pitcher the cards lack is a DataError)."""
    solo.check_charts([p.id for p in cards.pitchers])
    c = Campaign(cards=cards, solo=solo, dice=dice, level=level, first=first, faces=faces,
                 out_rule=out_rule)
    c.start_game()
    return c
