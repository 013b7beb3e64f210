"""What one manager may know in Harry's Grand Slam Baseball: :class:`GrandSlamView`.

A manager sees the table (scoreboard, runners, the cards on the bases and behind home
plate, the discards, the size of the draw pile, every face-up PH/RP card) and his own
hand. He never sees the opponent's hand, the order of the draw pile or any face-down
card under a PH/RP card (not even his own: it is "drawn, but not viewed").

``view_of(state, seat)`` builds the view from the engine state; the env's observation
vector is encoded from the view alone, so it cannot hold more than the view does.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.view import LabelledView
from .cards import CARD_NAMES, N_HAND_TYPES, N_TYPES
from .rules import GameState, innings_to_shuffle, option_labels

__all__ = ["GrandSlamView", "view_of"]


@dataclass(frozen=True)
class GrandSlamView(LabelledView):
    """One manager's knowledge of the game, at a decision point or any other moment.

    Fields (``own`` is the viewing manager's team, ``opp`` the other; counts per card
    type are tuples indexed by the codes of ``cards.CARD_TYPES``):

    * ``seat``: 0 for the away (visiting) manager, 1 for the home manager.
    * ``batting``: True while the viewing manager's team is at bat.
    * ``decision``: the kind of the pending decision (``"batting_play"`` or
      ``"fielding_play"``) when this manager is to act, else None.
    * ``legal``: the legal actions when this manager is to act, else ``()``; actions 0-15
      play a hand card of that type, 16-19 play own PH/RP stack 1-4, oldest first.
    * ``labels``: one label per legal action, in the same order.
    * ``inning``: the inning being played (1, 2, ...; above ``innings`` in extra innings).
    * ``half``: 0 for the top (the away team bats), 1 for the bottom.
    * ``innings``: the scheduled number of innings.
    * ``outs``: outs in this half inning, 0-2.
    * ``runs``: (away, home) runs.
    * ``runners``: (first, second, third): True where a runner stands.
    * ``hand``: own hand, counts per hand card type (16 entries: codes 0-15; a hand never
      holds a PH/RP card).
    * ``own_stacks``: how many PH/RP stacks this manager has on the table (the face-down
      cards beneath them are unknown).
    * ``opp_hand_size``: cards in the opponent's hand (3 except while a deal is under way).
    * ``opp_stacks``: how many PH/RP stacks the opponent has on the table.
    * ``discards``: the discard pile, counts per card type (17 entries), i.e. the cards
      seen and put away since the last shuffle (or the last rebuild of the draw pile).
    * ``in_play``: the cards on the bases and behind home plate this half inning, counts
      per hand card type (16 entries).
    * ``deck_left``: cards left in the draw pile.
    * ``deck_size``: cards in the whole deck (55 for the Card Reference's deck).
    * ``card_counts``: copies of each card type in the whole deck (17 entries).
    * ``innings_to_shuffle``: innings still to finish before the next shuffle, this one
      included (1-3); the shuffle comes after every third inning.
    * ``over``: True once the game has ended.
    """
    innings: int
    outs: int
    runs: tuple[int, int]
    runners: tuple[bool, bool, bool]
    hand: tuple[int, ...]
    own_stacks: int
    opp_hand_size: int
    opp_stacks: int
    discards: tuple[int, ...]
    in_play: tuple[int, ...]
    deck_left: int
    deck_size: int
    card_counts: tuple[int, ...]
    innings_to_shuffle: int
    over: bool

    # -- conveniences -----------------------------------------------------------------
    @property
    def own_runs(self) -> int:
        return self.runs[self.seat]

    @property
    def opp_runs(self) -> int:
        return self.runs[1 - self.seat]

    @property
    def hand_cards(self) -> tuple[str, ...]:
        """Own hand as sorted card names, e.g. ``("single", "strike_out", "strike_out")``."""
        return tuple(CARD_NAMES[c] for c in range(N_HAND_TYPES) for _ in range(self.hand[c]))

    def unseen(self) -> tuple[int, ...]:
        """Counts per card type of the cards this manager cannot see: the draw pile, the
        opponent's hand and every face-down card (an upper bound, for card counting)."""
        out = list(self.card_counts)
        for c in range(N_TYPES):
            out[c] -= self.discards[c]
        for c in range(N_HAND_TYPES):
            out[c] -= self.hand[c] + self.in_play[c]
        out[N_TYPES - 1] -= self.own_stacks + self.opp_stacks     # the face-up PH/RP cards
        return tuple(out)


def view_of(state: GameState, seat: int) -> GrandSlamView:
    """What the manager in ``seat`` may know of ``state``."""
    b = state.board
    d = state.pending
    if d is not None and d.actor == seat and not b.over:
        decision = d.kind
        legal = d.legal
        labels = option_labels(d)
        label_list = tuple(labels[a] for a in legal)
    else:
        decision, legal, label_list = None, (), ()
    in_play = state.in_play()
    return GrandSlamView(
        seat=seat,
        batting=b.half == seat,
        decision=decision,
        legal=legal,
        labels=label_list,
        inning=b.inning,
        half=b.half,
        innings=b.innings,
        outs=b.outs,
        runs=(b.runs[0], b.runs[1]),
        runners=(b.bases[0] is not None, b.bases[1] is not None, b.bases[2] is not None),
        hand=tuple(state.hands[seat][:N_HAND_TYPES]),
        own_stacks=len(state.stacks[seat]),
        opp_hand_size=sum(state.hands[1 - seat]),
        opp_stacks=len(state.stacks[1 - seat]),
        discards=tuple(state.discards),
        in_play=tuple(in_play[:N_HAND_TYPES]),
        deck_left=len(state.deck),
        deck_size=sum(state.counts),
        card_counts=tuple(state.counts),
        innings_to_shuffle=innings_to_shuffle(b.inning),
        over=b.over,
    )
