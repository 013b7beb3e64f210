"""MLB Showdown's actions and decisions: one Discrete action space for every decision,
the decision kinds, and how the rules ask a manager (:func:`ask`).

Every module of the engine (``rules.py``, ``windows.py``, ``expert.py``) asks through
here, so the same question is always the same :class:`~dugout.envs.core.decisions.Decision`
object.
"""

from __future__ import annotations

from functools import lru_cache

from ..core.decisions import Decision
from .roster import ROSTER
from .state import GameState
from .strategy import CardSet

__all__ = ["PASS", "YES", "PLAYER", "SEND_LEAD", "SEND_BOTH", "THROW_LEAD", "THROW_TRAIL",
           "N_ACTIONS", "ACTIONS", "DECISION_KINDS", "EXPERT_KINDS", "ALL_KINDS", "WINDOWS",
           "CARD", "LINEUP_KINDS", "action_labels", "ask", "choose_player"]

# -- actions: one Discrete space for every decision ----------------------------------------
PASS, YES = 0, 1
PLAYER = 2                    # PLAYER + k: roster player k (a pinch hitter or a new pitcher)
SEND_LEAD = PLAYER + ROSTER   # 27
SEND_BOTH = SEND_LEAD + 1
THROW_LEAD = SEND_BOTH + 1
THROW_TRAIL = THROW_LEAD + 1
N_ACTIONS = THROW_TRAIL + 1
ACTIONS = (("no / pass / hold", "yes / use it")
           + tuple(f"roster player {k}" for k in range(ROSTER))
           + ("send the lead runner", "send both runners",
              "throw at the lead runner", "throw at the trailing runner"))

DECISION_KINDS = ("starting_pitcher", "pinch_hitter", "pitching_change", "relief_ace", "twenty_game", "stolen_base",
                  "strikeout", "reroll_out", "silver_slugger", "home_run_icon", "double_play",
                  "gold_glove", "send_runners", "throw_at")
#: The expert game's own decisions (its icons are off: "DO NOT USE THESE SPECIAL ABILITIES").
EXPERT_KINDS = ("pinch_runner", "defensive_replacement", "replaced_player", "batting_slot",
                "intentional_walk", "sacrifice_bunt", "play_card", "catcher_throw")
#: The managers' own starting lineups (``lineups="manager"``, Advanced Game Setup 4-5; see
#: ``lineup.py``): who plays a field position (subject: its index, C=0 ... RF=7), who is the
#: DH, who bats in a spot of the order (subject: the spot, 0-8). Kept out of the two tuples
#: above, whose one-hots the observations of the games without the option are made of.
LINEUP_KINDS = ("lineup_position", "lineup_dh", "batting_order")
#: the card windows, as ``play_card``'s subject
WINDOWS = ("before_pitch", "on_result", "after_result")
#: CARD + i: play card i of the card set (the expert game with decks; the env's action
#: space grows by the card set's size)
CARD = N_ACTIONS
ALL_KINDS = DECISION_KINDS + EXPERT_KINDS


def action_labels(card_set: CardSet | None) -> tuple[str, ...]:
    """Every action's meaning: :data:`ACTIONS`, then one "play" action per card of the set
    (the same tuple for the same set: it is read at every action applied)."""
    if card_set is None:
        return ACTIONS
    held = _LABELS.get(id(card_set))
    if held is None or held[0] is not card_set:
        if len(_LABELS) > 64:
            _LABELS.clear()
        held = _LABELS[id(card_set)] = (card_set, ACTIONS + tuple(f"play {name}" for name in card_set.names))
    return held[1]


#: action_labels' tuples, by the card set's identity (the set kept, so its id stays its own)
_LABELS: dict[int, tuple[CardSet, tuple[str, ...]]] = {}


def ask(state: GameState, kind: str, actor: int, legal: tuple[int, ...], subject: int = -1) -> None:
    """Manager ``actor`` must decide: ``state.pending``. Decisions are immutable values, so
    the same question is asked with the same object each time (the env's per-decision
    infos are looked up by it)."""
    key = (kind, actor, legal, subject)
    decision = _DECISIONS.get(key)
    if decision is None:
        if len(_DECISIONS) > 4096:
            _DECISIONS.clear()
        decision = _DECISIONS[key] = Decision(kind, actor, legal, subject)
    state.pending = decision


_DECISIONS: dict[tuple, Decision] = {}


@lru_cache(maxsize=4096)
def choose_player(players: tuple[int, ...], may_pass: bool) -> tuple[int, ...]:
    """The legal actions of a choice among roster ``players``: PLAYER + k for each, after
    PASS when the manager may choose nobody."""
    return ((PASS,) if may_pass else ()) + tuple(PLAYER + k for k in players)

