"""MLB Showdown's starting lineups set by the managers (``lineups="manager"``).

Advanced Game Setup: "4. Now that you know who the home team is and where you are in your
rotations, both of you can change your starting lineups. 5. Tell your opponent what your
starting lineup is. Make sure your opponent's lineup fills all the positions in the field."
With the option each manager sets his lineup as a sequence of small decisions, after the
rotation has given both starters (the pitcher is the rotation's, as ever):

1. ``lineup_position``, subject C=0, 1B=1, ..., RF=7: who plays there, a full-cost hitter
   who qualifies (Player Positions: "OF" any outfield spot, "IF" any infield spot; the
   expert game: "anyone except a pitcher can play first base", out of position);
2. ``lineup_dh`` (AL rules): the designated hitter, a full-cost hitter not in the field;
3. ``batting_order``, subject the spot 0-8: who bats there, among the nine (the starting
   pitcher is one of them under NL rules).

The away manager sets his whole lineup first, then the home manager. Each pick is masked so
that the lineup can always be completed (:func:`position_choices`); a pick with one legal
option is made by the rules (it is no choice). Neither manager sees anything of the other's
lineup until both are set; then both are public (RULES.md, "The managers' lineups").

The rules here are small functions named after them; ``rules.new_game(...,
lineups="manager")`` starts such a game, and the engine's tables (``rules.RULES``,
``rules.CHOICES``) send the ``set_lineups`` step and the lineup decisions here.
"""

from __future__ import annotations

from typing import Any

from . import roster
from .actions import LINEUP_KINDS, PLAYER, ask, choose_player
from .cards import FIELD_POSITIONS, HitterCard, PitcherCard, Team
from .state import LINEUP_SETTINGS, GameState

__all__ = ["LINEUP_SETTINGS", "LINEUP_KINDS", "may_start", "qualifies_at",
           "picks_needed", "position_choices", "designated_hitter_choices",
           "batting_order_choices", "next_pick", "picks_complete", "setting_lineups",
           "starting_nine", "set_lineups_step", "choose_lineup_pick", "reveal_lineups",
           "check_picks", "option_labels"]

_SPOTS = 9


# ================================================================== who may start where

def may_start(team: Team, card: Any) -> bool:
    """A full-cost hitter: "Backup players can't take the field before the 7th inning" and
    "Your designated hitter must be a full-cost player"; pitchers only pitch."""
    return isinstance(card, HitterCard) and card.key not in team.backups


def qualifies_at(card: Any, position: str, expert: bool) -> bool:
    """Player Positions: "A player whose position is OF qualifies at all 3 outfield
    positions. A player whose position is IF qualifies at all 4 infield positions"; Playing
    First Base Out of Position: in the expert rules "you can have any of your fielders (or
    other hitters) play first base"."""
    if not isinstance(card, HitterCard):
        return False
    return card.fielding(position) is not None or (expert and position == "1B")


def _mask(card: Any, expert: bool) -> int:
    return sum(1 << i for i, pos in enumerate(FIELD_POSITIONS) if qualifies_at(card, pos, expert))


def picks_needed(state: GameState) -> int:
    """Eight positions, the DH under AL rules, nine batting spots."""
    return len(FIELD_POSITIONS) + int(state.dh) + _SPOTS


def _pool(state: GameState, t: int) -> list[int]:
    team = state.teams[t]
    return [k for k, c in enumerate(team.players) if may_start(team, c)]


def position_choices(state: GameState, t: int, picks: list[int]) -> tuple[int, ...]:
    """Who may play the next position (``FIELD_POSITIONS[len(picks)]``): a full-cost hitter
    not yet picked who qualifies there, and only if the positions after it can still be
    filled ("you have to be able to fill every position with a player who qualifies
    there") with a full-cost hitter left over for the DH under AL rules."""
    i = len(picks)
    expert = state.level == "expert"
    players = state.teams[t].players
    placed = tuple(1 << j for j in range(i))
    rest = [k for k in _pool(state, t) if k not in picks]
    if len(rest) < len(FIELD_POSITIONS) - i + int(state.dh):
        return ()
    masks = {k: _mask(players[k], expert) for k in rest}
    out = []
    for k in rest:
        if not masks[k] >> i & 1:
            continue
        others = tuple(masks[o] & ~((1 << (i + 1)) - 1) for o in rest if o != k)
        if roster._can_fill(tuple(sorted(placed + (1 << i,) + others))):
            out.append(k)
    return tuple(out)


def designated_hitter_choices(state: GameState, t: int, picks: list[int]) -> tuple[int, ...]:
    """Player Positions: "You can use any of your fielders or other hitters that aren't
    already in your lineup as your designated hitter ... Your designated hitter must be a
    full-cost player"."""
    return tuple(k for k in _pool(state, t) if k not in picks)


def starting_nine(state: GameState, t: int, picks: list[int]) -> list[int]:
    """The nine who bat: the eight fielders and the DH, or the starting pitcher ("The
    player you're using as your designated hitter goes into your batting lineup instead of
    your pitcher")."""
    n = len(FIELD_POSITIONS)
    return list(picks[:n]) + ([picks[n]] if state.dh else [state.starter[t]])


def batting_order_choices(state: GameState, t: int, picks: list[int]) -> tuple[int, ...]:
    """Basic Setup 5: "Place your batters in the Batting Order boxes marked "1" through "9"
    ... in any order": the next spot takes any of the nine not yet placed."""
    first = len(FIELD_POSITIONS) + int(state.dh)
    placed = picks[first:]
    return tuple(sorted(k for k in starting_nine(state, t, picks) if k not in placed))


def next_pick(state: GameState, t: int) -> tuple[str, int, tuple[int, ...]] | None:
    """Team ``t``'s next lineup decision (kind, subject, players it may pick), or None when
    its lineup is set."""
    picks = state.lineup_picks[t]
    n, i = len(FIELD_POSITIONS), len(picks)
    if i < n:
        return "lineup_position", i, position_choices(state, t, picks)
    if state.dh and i == n:
        return "lineup_dh", -1, designated_hitter_choices(state, t, picks)
    spot = i - n - int(state.dh)
    if spot < _SPOTS:
        return "batting_order", spot, batting_order_choices(state, t, picks)
    return None


def picks_complete(state: GameState, t: int) -> bool:
    return len(state.lineup_picks[t]) == picks_needed(state)


def setting_lineups(state: GameState) -> bool:
    """Whether the managers are still setting their lineups (nothing of them is public)."""
    return state.step == "set_lineups"


# ================================================================== the steps

def set_lineups_step(state: GameState) -> None:
    """Advanced Game Setup 4: the away manager sets his lineup, then the home manager; a
    pick with one legal option is made here. Once both are set, step 5 shows them."""
    for t in (0, 1):
        while True:
            pick = next_pick(state, t)
            if pick is None:
                break
            kind, subject, options = pick
            if not options:         # position_choices never leaves a lineup unfinishable
                raise RuntimeError(f"team {t} cannot complete its lineup at {kind} {subject}")
            if len(options) > 1:
                ask(state, kind, t, choose_player(options, False), subject)
                return
            state.lineup_picks[t].append(options[0])
    reveal_lineups(state)
    state.step = "choose_starter"       # the starters are known: play ball (rules.py)


def choose_lineup_pick(state: GameState, decision: Any, action: int) -> None:
    """A lineup pick: the player joins the team's picks."""
    state.lineup_picks[decision.actor].append(action - PLAYER)


def reveal_lineups(state: GameState) -> None:
    """Advanced Game Setup 5, "Tell your opponent what your starting lineup is": each
    team's lineup and positions as ``roster.set_lineups`` makes them from a team file (the
    pitcher's spot empty until the starters take the mound)."""
    n = len(FIELD_POSITIONS)
    for t in (0, 1):
        picks = state.lineup_picks[t]
        lineup, pos = [], []
        for slot, k in enumerate(picks[n + int(state.dh):]):
            if not state.dh and k == state.starter[t]:
                state.pitcher_slot[t] = slot
                lineup.append(-1)
                pos.append("P")
            else:
                lineup.append(k)
                pos.append("DH" if k not in picks[:n] else FIELD_POSITIONS[picks.index(k)])
        state.lineup[t], state.pos[t] = lineup, pos


# ================================================================== checks and words

def check_picks(state: GameState) -> None:
    """A loaded game's lineup picks (``checks.validate_game``): none with the team files'
    lineups; otherwise each pick one the rules offer after the ones before it, the home
    team's only once the away team's lineup is set, and both set once the game is under way.
    Raises ValueError naming the team and the pick."""
    if state.lineup_setting not in LINEUP_SETTINGS:
        raise ValueError(f"lineup_setting must be one of {LINEUP_SETTINGS}, got "
                         f"{state.lineup_setting!r}")
    if state.lineup_setting == "file":
        if state.lineup_picks != [[], []]:
            raise ValueError("a game with the team files' lineups has no lineup picks")
        if state.step == "set_lineups":
            raise ValueError("a game with the team files' lineups is never at 'set_lineups'")
        return
    if state.level == "basic":
        raise ValueError("lineups='manager' is for the advanced and expert games")
    for t in (0, 1):
        picks = state.lineup_picks[t]
        if len(picks) > picks_needed(state):
            raise ValueError(f"team {t} has {len(picks)} lineup picks, at most "
                             f"{picks_needed(state)}")
        if picks and t == 1 and not picks_complete(state, 0):
            raise ValueError("the home team picks its lineup once the away team's is set")
        for i in range(len(picks)):
            trial = picks[:i]
            kind, subject, options = _next_for(state, t, trial)
            if picks[i] not in options:
                raise ValueError(f"team {t}'s lineup pick {i} ({kind}, subject {subject}) is "
                                 f"player {picks[i]}, not one of {list(options)}")
    done = picks_complete(state, 0) and picks_complete(state, 1)
    if (state.step == "set_lineups") == done:
        raise ValueError("the lineups are being set (step 'set_lineups') until both are, and "
                         "only then")


def _next_for(state: GameState, t: int, picks: list[int]) -> tuple[str, int, tuple[int, ...]]:
    saved = state.lineup_picks[t]
    state.lineup_picks[t] = list(picks)
    try:
        pick = next_pick(state, t)
    finally:
        state.lineup_picks[t] = saved
    assert pick is not None
    return pick


def offered(state: GameState) -> tuple[int, tuple[int, ...], int] | None:
    """The (actor, legal actions, subject) of the lineup decision a game at 'set_lineups'
    waits on (``checks.py``'s question), or None if its lineups are set."""
    if not setting_lineups(state):
        return None
    t = 0 if not picks_complete(state, 0) else 1
    pick = next_pick(state, t)
    if pick is None:
        return None
    kind, subject, options = pick
    return t, choose_player(options, False), subject


def option_labels(state: GameState, decision: Any) -> dict[int, str]:
    """What each legal lineup pick means, in the rulebook's words."""
    t = decision.actor
    out = {}
    for a in decision.legal:
        card = state.card(t, a - PLAYER)
        if decision.kind == "lineup_position":
            position = FIELD_POSITIONS[decision.subject]
            value = card.fielding(position)
            field = (f"Arm {value:+d}" if position == "C" else f"Fielding {value:+d}") \
                if value is not None else f"Fielding {-1 if card.positions else -2:+d}, out of position"
            out[a] = f"{card.name} plays {position} ({field})"
        elif decision.kind == "lineup_dh":
            out[a] = f"{card.name} is the DH (On-Base {card.on_base}, Speed {card.speed})"
        elif isinstance(card, PitcherCard):
            out[a] = f"{card.name}, the pitcher, bats {decision.subject + 1}"
        else:
            out[a] = (f"{card.name} bats {decision.subject + 1} (On-Base {card.on_base}, "
                      f"Speed {card.speed})")
    return out
