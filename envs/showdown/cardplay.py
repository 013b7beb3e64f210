"""Strategy cards in play: decks, hands and discards, the card windows of the at-bat, and
what each effect does to the game (the expert game with decks; ``strategy.py`` has the
cards as data).

"Strategy Cards" 1-4: each manager's 60-card deck is shuffled before the game (on a dice
stream of its own, so common random numbers survive a card game), both draw 3 before the
first inning and 1 "whenever either team comes to the plate each inning" (after the
defense's substitutions: "you have to decide who to put on the mound before drawing your
card"); a played card goes to the discard pile at the end of the at-bat, or stays in play
until the half inning ends if it says so. "If your deck ever runs out, you don't get to
draw any more cards."

Complete At-Bat Sequence 5, 7 and 9: in each window the managers "take turns playing a
strategy card or passing", the defense first, "until both of you pass back-to-back". A
manager may play a card of his colour (offense at the plate, defense in the field,
utility always) whose timing is the window's and whose conditions hold, and not one whose
name he has already played this at-bat ("You can't play 2 strategy cards with the same
name in the same at-bat"). A manager with no such card passes without being asked. The
engine's steps and decisions are in ``windows.py`` (the card windows) and ``rules.py``; this
module is what they call.
"""

from __future__ import annotations

from .cards import INFIELD, OUTFIELD, PitcherCard, speed_letter
from .state import GameState
from .strategy import Effect, StrategyCard

__all__ = ["DECK_STREAM", "shuffle_decks", "draw", "playable", "window_options", "play",
           "end_of_at_bat", "end_of_half", "pitch_bonus", "swing_bonus", "bonus", "chart_roll"]

#: the dice stream of the deck shuffles: (DECK_STREAM, team), apart from every at-bat's
DECK_STREAM = 1 << 20
#: effects that act on a pitch or a swing: nothing to act on after an intentional walk or
#: a bunt ("there's no pitch and no swing")
_NEEDS_SWING = {"pitch", "swing", "edge", "no_double_play", "dp_bonus", "throw_bonus",
                "squeeze"}


# ================================================================== decks and hands

def shuffle_decks(state: GameState) -> None:
    """"Before the game starts, shuffle your deck"; then "draw the top 3 cards"."""
    cs = state.card_set
    for t in (0, 1):
        state.dice.set_stream(DECK_STREAM, t)
        cards = [cs.index(name) for name in state.decks_given[t]]
        state.decks[t] = state.dice.shuffle("deck", cards)
    for t in (0, 1):
        draw(state, t, 3)


def draw(state: GameState, team: int, n: int) -> None:
    """Draw ``n`` from the top of the deck ("If you can't draw that many cards, draw all
    that are left")."""
    deck = state.decks[team]
    for _ in range(min(n, len(deck))):
        state.hands[team].append(deck.pop())


def discard_at_random(state: GameState, team: int, n: int) -> None:
    hand = state.hands[team]
    for _ in range(min(n, len(hand))):
        i = state.dice.randbelow("discard", len(hand))
        state.discards[team].append(hand.pop(i))


def end_of_at_bat(state: GameState) -> None:
    """"Strategy cards are discarded at the end of each at-bat, unless the card text tells
    you to leave them in play"."""
    cs = state.card_set
    for t in (0, 1):
        for i in state.played[t]:
            if cs.cards[i].lasts != "at_bat":
                state.in_play[t].append(i)
            else:
                state.discards[t].append(i)
        state.played[t] = []


def end_of_half(state: GameState) -> None:
    """Cards in play for the half inning are discarded; a card in play for the game stays."""
    cs = state.card_set
    for t in (0, 1):
        stay = [i for i in state.in_play[t] if cs.cards[i].lasts == "game"]
        state.discards[t].extend(i for i in state.in_play[t] if cs.cards[i].lasts != "game")
        state.in_play[t] = stay


# ================================================================== who may play what

def _owner_lead(state: GameState, team: int) -> int:
    return state.board.runs[team] - state.board.runs[1 - team]


def _bats(batter, pitcher: PitcherCard) -> str:
    """"A switch-hitter bats lefty against right-handed pitchers ... pitchers bat the same
    way they throw"."""
    hand = batter.throws if isinstance(batter, PitcherCard) else batter.bats
    if hand == "S":
        return "L" if pitcher.throws == "R" else "R"
    return hand


def _lead_runner(state: GameState) -> int | None:
    for r in reversed(state.board.bases):
        if r is not None:
            return r
    return None


def runners_on(state: GameState) -> tuple:
    """The bases as cards see them: "A runner is any player who was safely on base before
    the result of the current at-bat" (after a result, the batter is not one yet)."""
    b = state.board
    if state.window != "after_result":
        return b.bases
    k = state.batter_index
    return tuple(None if r == k else r for r in b.bases)


def _runners_hold(tokens, bases) -> bool:
    first, second, third = (r is not None for r in bases)
    test = {"none": not (first or second or third), "any": first or second or third,
            "first": first, "second": second, "third": third, "scoring": second or third,
            "second_open": not second, "third_open": not third}
    return all(test[t] for t in tokens)


def _condition(state: GameState, team: int, key: str, value) -> bool:
    b = state.board
    ab = state.ab
    bt, ft = b.half, 1 - b.half
    if key == "results":
        return ab.result in value
    if key == "outs":
        return b.outs in value
    if key == "runners":
        return _runners_hold(value, runners_on(state))
    if key == "inning_from":
        return b.inning >= value
    if key == "chart":
        return ab.chart == value
    batter = state.card(bt, state.batter_index)
    pitcher = state.card(ft, state.pitcher[ft])
    if key == "matchup":
        same = _bats(batter, pitcher) == pitcher.throws
        return same == (value == "same")
    if key == "batter_speed":
        return speed_letter(batter.speed) in value
    if key == "runner_speed":
        r = _lead_runner(state)
        return r is not None and speed_letter(state.card(bt, r).speed) in value
    if key == "pitcher_role":
        return pitcher.role in value
    if key == "score":
        lead = _owner_lead(state, team)
        return {"ahead": lead > 0, "behind": lead < 0, "tied": lead == 0,
                "close": abs(lead) <= 1}[value]
    if key == "home":
        return (team == 1) == value
    if key == "innings":
        return b.inning in value
    if key == "natural_20":                  # the swing's die, before any card's bonus
        return (ab.swing == 20) == value
    if key == "runs_allowed":
        return state.runs_charged[ft][state.pitcher[ft]] >= value
    raise KeyError(key)


def playable(state: GameState, team: int, card: StrategyCard, window: str) -> bool:
    """Colour, timing, the same-name rule and every condition (see the module docstring)."""
    batting = team == state.board.half
    if card.color == ("defense" if batting else "offense") or card.timing != window:
        return False
    ab = state.ab
    if (ab.ibb or ab.bunt) and (card.condition("results") or card.condition("chart")
                                or any(e.do in _NEEDS_SWING for e in card.effect)):
        return False
    if not all(_condition(state, team, k, v) for k, v in card.requires):
        return False
    return _does_something(state, team, card)


def _does_something(state: GameState, team: int, card: StrategyCard) -> bool:
    """A steal needs an open base ahead; a result change must change the result; a pitch
    bonus needs a pitch ("When a pitcher bats, he never has the advantage, so there is no
    pitch")."""
    b = state.board
    pitcher_bats = isinstance(state.card(b.half, state.batter_index), PitcherCard)
    for e in card.effect:
        if pitcher_bats and (e.do == "pitch" or (e.do == "edge" and team != b.half)):
            return False
        if e.do == "steal" and not _stealers(b.bases, e.runners):
            return False
        if e.do == "result" and state.ab.result == e.to and not card.icon:
            return False
        if e.do == "discard_own" and len(state.hands[team]) - 1 < e.n:
            return False                    # (the cost: other cards he holds)
        if e.do == "starter_out" and not _starter_out_possible(state):
            return False
    return True


def _starter_out_possible(state: GameState) -> bool:
    """"A strategy card forces him out": the starter is on the mound and a reliever or
    closer who has not pitched can come in."""
    from .roster import bullpen
    ft = state.fielding_team
    return state.pitcher[ft] == state.starter[ft] and bool(bullpen(state, ft))


def window_options(state: GameState, team: int, window: str) -> tuple[int, ...]:
    """The card names (indices in the card set) ``team`` may play now, once each."""
    cs = state.card_set
    played = state.played[team]
    out = set()
    for i in state.hands[team]:
        if i not in out and i not in played and playable(state, team, cs.cards[i], window):
            out.add(i)
    return tuple(sorted(out))


# ================================================================== playing a card

def icon_applies(state: GameState, team: int, card: StrategyCard) -> bool:
    """"If you have a strategy card that matches a player with the correct icon"."""
    if not card.icon:
        return False
    b = state.board
    bt, ft = b.half, 1 - b.half
    who = card.icon_player
    if who == "own":
        who = "batter" if team == bt else "pitcher"
    if who == "pitcher":
        k, t = state.pitcher[ft], ft
    elif who == "batter":
        k, t = state.batter_index, bt
    elif who == "lead_runner":
        k, t = _lead_runner(state), bt
    else:                                   # the catcher
        k, t = state.fielder_at(ft, "C"), ft
    return k is not None and card.icon in state.card(t, k).icons


def icon_applies_view(view, card: StrategyCard) -> bool:
    """:func:`icon_applies` for a manager's view (the deciding manager owns the card)."""
    if not card.icon:
        return False
    bt, ft = view.half, 1 - view.half
    who = card.icon_player
    if who == "own":
        who = "batter" if view.seat == bt else "pitcher"
    if who == "pitcher":
        k, t = view.pitcher, ft
    elif who == "batter":
        k, t = view.batter, bt
    elif who == "lead_runner":
        runners = [r for r in reversed(view.bases) if r is not None]
        k, t = (runners[0] if runners else None), bt
    else:
        k = next((view.lineups[ft][s] for s, p in enumerate(view.positions[ft]) if p == "C"), None)
        t = ft
    return k is not None and k >= 0 and card.icon in view.card(t, k).icons


def play(state: GameState, team: int, index: int, effects) -> None:
    """``team`` plays card ``index`` from its hand: it goes on the table ("put it on the
    table and do everything it says to do") and its effects are carried out by
    ``effects(state, team, effect_list)`` (the engine's, which may ask decisions)."""
    hand = state.hands[team]
    hand.remove(index)
    state.played[team].append(index)
    card = state.card_set.cards[index]
    effects(state, team, effects_of(card, icon_applies(state, team, card)))


def effects_of(card: StrategyCard, icon: bool) -> tuple[Effect, ...]:
    """What a card does: its effects, then its icon bonus when it applies ("an extra bonus
    in addition to the normal bonus"); a steal the catcher may throw at stays last (the
    catcher decides with every bonus in force)."""
    if not icon:
        return card.effect
    own = card.effect
    if own[-1].do == "steal" and own[-1].throw:
        return own[:-1] + card.icon_effect + own[-1:]
    return own + card.icon_effect


def _stealers(bases, runners: str) -> tuple[int, ...]:
    """The runners a steal card sends, lead runner first: "You can steal a base only if
    it's open, and you can't try to steal home"."""
    out = []
    if runners == "home":                   # "A runner can't steal home without strategy cards"
        return () if bases[2] is None else (bases[2],)
    for base in (2, 1, 0):
        r = bases[base]
        if r is None:
            continue
        if base < 2 and (bases[base + 1] is None or (runners == "all" and bases[base + 1] in out)):
            out.append(r)
        if runners == "lead":
            break
    return tuple(out)


def stealers(state: GameState, runners: str) -> tuple[int, ...]:
    return _stealers(state.board.bases, runners)


# ================================================================== modifiers in force

def bonus(state: GameState, what: str) -> int:
    """The sum of ``what`` over the effects in force this at-bat: the cards played in it
    and those staying in play this half inning (pitch, swing, edge, throw_bonus, dp_bonus,
    catcher_bonus)."""
    if state.card_set is None:
        return 0
    ab = state.ab
    total = ab.card_mods.get(what, 0) if ab.card_mods else 0
    b = state.board
    for t in (0, 1):
        for i in state.in_play[t]:
            card = state.card_set.cards[i]
            if card.color == ("defense" if t == b.half else "offense"):
                continue                    # (a card in play for the game, its side at bat)
            effects = card.effect + (card.icon_effect if icon_applies(state, t, card) else ())
            for e in effects:                # (an icon bonus holds while its player does)
                total += _mod(e, what, t, b.half)
    return total


def _mod(e: Effect, what: str, team: int, half: int) -> int:
    if e.do == what:
        return e.by
    if e.do == "edge":                       # the owner's own roll
        if what == "swing" and team == half:
            return e.by
        if what == "pitch" and team != half:
            return e.by
    return 0


def add_mod(state: GameState, team: int, e: Effect) -> None:
    mods = dict(state.ab.card_mods or {})
    for what in ("pitch", "swing", "throw_bonus", "dp_bonus", "catcher_bonus"):
        v = _mod(e, what, team, state.board.half)
        if v:
            mods[what] = mods.get(what, 0) + v
    state.ab.card_mods = mods


def pitch_bonus(state: GameState) -> int:
    return bonus(state, "pitch")


def swing_bonus(state: GameState) -> int:
    return bonus(state, "swing")


def chart_roll(roll: int, shift: int) -> int:
    """The swing read on the chart: "If strategy cards make the swing less than 1, look up
    what happens on a 1" (and above 20, the top of the chart)."""
    return min(20, max(1, roll + shift))


def fielding_check_total(state: GameState, group: str) -> int:
    """The requested players' total Fielding for a Fielding check."""
    ft = state.fielding_team
    positions = {"infield": INFIELD, "outfield": OUTFIELD, "first": ("1B",)}[group]
    return state.fielding(ft, positions)
