"""Harry's Grand Slam Baseball: two managers, hands of three play cards, hidden hands.

{summary}

## Creation

```python
env = grand_slam_v0.env(innings=9, max_innings=None, deck="reference", max_decisions=None)
```

`innings` is the scheduled length, 1 to 9; extra innings are played until a winner
unless `max_innings` (`innings` to 99) cuts the game off (truncation, reward 0); both
may be Python or numpy ints (`dugout.envs.core.check_innings`). `max_decisions` bounds an
episode (None: 2,000; or a positive int): a game still going after that many decisions is
cut off as `max_innings` cuts one off (truncation, reward 0, `"winner"` `""`;
`env.unwrapped.truncated_by` is `"max_decisions"`; see `dugout.envs.core.aec`). The
rulebook has no mercy rule and no end to extra innings, and a deck of one's own with a
single out card lets the managers keep an inning going forever; with the reference deck no
game comes near the bound: the longest of 5,000 random games took 147 decisions, the
longest under adversarial legal policies (always the highest legal action, always the
lowest, the highest for one seat and the lowest for the other) 115. `deck` is the card set:
`"reference"` (the Card Reference's 55 cards), a dict of counts per card name
(`{"single": 6, ..., "pinch_hitter": 4}`, names missing count 0) or a path to a JSON
file (at most 1 MiB) holding one; a card type has at most 99 copies, `pinch_hitter` at
most 4, and the deck at most 999 cards; see `dugout.envs.grand_slam.cards`.
`render_mode` is `"ansi"`, `"human"`, `"rgb_array"` (a picture: core.picture) or None.
`render_agent` says whose eyes a render sees through (see Rendering below): None (the
default) for the manager to act, `"away"` or `"home"` for that manager at every step, or
`"spectator"` for both hands.
`env()` ends the game with -1 for a manager who plays an illegal action; `raw_env()`
raises `IllegalActionError` instead. An unknown option raises `OptionError`, a bad deck
`DataError`.

## Agents

`"away"` (the Visiting Team) bats in the top of each inning, `"home"` in the bottom.
Each turn the batting manager plays a card first, then the fielding manager; each draws
back to three after playing. The third out ends the half inning at once, even on the
batting manager's card. A manager whose hand holds a single card type and who has no
PH/RP stack has no choice, and the engine plays that card for him, so a manager may
decide several times in a row; `agent_selection` always names the one who must act.

## Action Values

| Action | Meaning |
|---|---|
| 0 | play a Single from the hand |
| 1 | play a Double from the hand |
| 2 | play a Triple from the hand |
| 3 | play a Home Run from the hand |
| 4 | play a Walk from the hand |
| 5 | play a Hit by Pitch from the hand |
| 6 | play an Error from the hand |
| 7 | play a Ground Out from the hand |
| 8 | play a Strike Out from the hand |
| 9 | play a Fly Out from the hand |
| 10 | play a Sacrifice Bunt from the hand |
| 11 | play a Double Play from the hand |
| 12 | play a Wild Pitch from the hand |
| 13 | play a Passed Ball from the hand |
| 14 | play a Stolen Base from the hand |
| 15 | play a Pitcher Balk from the hand |
| 16 | play own PH/RP stack 1 (the oldest): flip its face-down card, which is the play |
| 17 | play own PH/RP stack 2 |
| 18 | play own PH/RP stack 3 |
| 19 | play own PH/RP stack 4 |

The decisions (`infos[agent]["decision"]` names the kind and labels each legal option):

| Kind | Who | Legal actions |
|---|---|---|
| `batting_play` | batting | 0-15 for each card type in hand, 16-19 for each own PH/RP stack |
| `fielding_play` | fielding | the same, for the fielding manager |

## Observation Space

`observe(agent)` returns `{"observation": float32 vector, "action_mask": int8 vector}`.
The vector is encoded from `env.unwrapped.view(agent)` (a `GrandSlamView`, whose
docstring describes every field) and holds only what that manager may know: never the
opponent's hand, the order of the draw pile or a face-down card. `own` means the
observing manager's team. Counts per card type are in card-code order (the action
table's order, then PH/RP last); the discards and the cards in play are divided by that
type's copies in the deck. The mask is all zeros for the manager who is not to act.

{table}

## Rewards

+1 to the winner and -1 to the loser when the game ends; 0 to both when a game is cut off
by `max_innings` or `max_decisions`. No reward before the end. Every step's `infos[agent]`
holds `"decision"`, `"score"` (`{"away": int, "home": int}`), `"winner"` (`""` until won)
and `"illegal_action"` (see `dugout.envs.core.aec`); `env.unwrapped.box_score()` gives the
box score.

## Rendering

A render shows what its viewer may know, like an observation: the line score, the
runners with the cards that put them on base, the inning and outs, the batter, the size
of each hand, each manager's PH/RP stacks, the draw pile and discards, the last plays,
and the hand of the viewer alone. The viewer is `render_agent`:

| `render_agent` | Whose hand is shown | The pending decision's options |
|---|---|---|
| None (default) | the manager to act (nobody's once the game is over) | shown |
| `"away"` / `"home"` | that manager's, at every step | shown when that manager is to act |
| `"spectator"` | both hands | shown |

The other hand is shown by its size only (`home hand: 3 cards, hidden`), and the options
of a decision the viewer does not make are left out (they would name the cards in the
other hand). So two games that differ only in what the viewer cannot see (the other
hand, the draw pile's order, the face-down cards) render the same text and picture.
`render_mode="human"` prints after every step, for the manager to act by default: a
person who plays one seat against a program passes `render_agent="away"` (or `"home"`),
a hot-seat game between two people keeps the default, and a spectator sees both hands
only by asking for them with `render_agent="spectator"`. `env.unwrapped.render_agent`
may be changed between steps.

## Version History

* v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.aec import AGENTS, BaseballAECEnv, summary_table
from ..core.bases import BASE_NAMES
from ..core.decisions import Decision
from ..core.dice import ScriptedDice
from ..core.errors import OptionError, check_innings, check_options, show
from ..core.observation import SITUATION_PIECE, ObservationSpec, encode_situation, situation_pieces
from ..core.scorebook import Play, ordinal, runner_movements
from . import rules
from .cards import CARD_TYPES, MAX_STACKS, N_HAND_TYPES, N_TYPES, PINCH_HITTER, load_deck
from .view import GrandSlamView, view_of

__all__ = ["GrandSlamEnv", "OBS", "PIECES", "RENDER_AGENTS", "encode_view", "describe_play",
           "option_labels", "hand_line"]

PIECES = situation_pieces(rules.DECISION_KINDS) + [
    ("hand", N_HAND_TYPES, "own hand: cards of each type (codes 0-15) / 3"),
    ("own_stacks", 1, f"own PH/RP stacks on the table / {MAX_STACKS}"),
    ("opp_hand_size", 1, "cards in the opponent's hand / 3"),
    ("opp_stacks", 1, f"the opponent's PH/RP stacks on the table / {MAX_STACKS}"),
    ("discards", N_TYPES,
     "the discard pile since the last shuffle: cards of each type (codes 0-16) / copies in the deck"),
    ("in_play", N_HAND_TYPES,
     "cards on the bases and behind home plate: cards of each type (codes 0-15) / copies in the deck"),
    ("deck_left", 1, "cards left in the draw pile / cards in the deck"),
    ("innings_to_shuffle", 1, "innings to finish before the next shuffle, this one included, / 3"),
    SITUATION_PIECE["innings_left"],
]
OBS = ObservationSpec(PIECES)

_O = OBS.offset
_KIND_INDEX = {k: i for i, k in enumerate(rules.DECISION_KINDS)}

OPTIONS = ("innings", "max_innings", "deck", "render_mode", "render_agent", "illegal_action", "dice",
           "max_decisions")
#: The viewers a render may be made for, besides None (the manager to act): see the docstring.
RENDER_AGENTS = ("away", "home", "spectator")


def encode_view(view: GrandSlamView) -> np.ndarray:
    """The observation vector of a view (the table in the module docstring)."""
    obs = np.zeros(OBS.size, dtype=np.float32)
    encode_situation(obs, _O, view.seat, None if view.decision is None else _KIND_INDEX[view.decision],
                     view.inning, view.half, view.outs, view.runners, view.runs)
    o = _O["hand"]
    for c, n in enumerate(view.hand):
        if n:
            obs[o + c] = n / rules.HAND_SIZE
    counts = view.card_counts
    for name, values in (("discards", view.discards), ("in_play", view.in_play)):
        o = _O[name]
        for c, n in enumerate(values):
            if n:
                obs[o + c] = n / counts[c]
    obs[_O["own_stacks"]] = view.own_stacks / MAX_STACKS
    obs[_O["opp_hand_size"]] = view.opp_hand_size / rules.HAND_SIZE
    obs[_O["opp_stacks"]] = view.opp_stacks / MAX_STACKS
    obs[_O["deck_left"]] = view.deck_left / view.deck_size
    obs[_O["innings_to_shuffle"]] = view.innings_to_shuffle / 3.0
    obs[_O["innings_left"]] = max(0, view.innings - view.inning) / 9.0
    return obs


class GrandSlamEnv(BaseballAECEnv, name="grand_slam_v0", actions=rules.ACTIONS, obs=OBS,
                   view=GrandSlamView, encode_view=encode_view, max_decisions=2_000):
    def __init__(self, innings: int = 9, max_innings: int | None = None, deck: Any = "reference",
                 render_mode: str | None = None, illegal_action: str = "raise",
                 dice: ScriptedDice | None = None, render_agent: str | None = None,
                 max_decisions: int | None = None, **unknown: Any):
        check_options("grand_slam_v0", unknown, OPTIONS)
        super().__init__(render_mode=render_mode, illegal_action=illegal_action, dice=dice,
                         max_decisions=max_decisions)
        self.render_agent = render_agent
        innings, max_innings = check_innings("grand_slam_v0", innings, max_innings)
        self.innings = innings
        self.max_innings = max_innings
        self.counts = load_deck(deck)

    # -- engine hooks -------------------------------------------------------------------
    def _new_game(self, seed: int) -> rules.GameState:
        return rules.new_game(self._dice(seed), self.innings, self.max_innings, self.counts)

    def _apply(self, action: int) -> None:
        rules.apply_action(self.state_, action)

    def _view(self, seat: int) -> GrandSlamView:
        return view_of(self.state_, seat)

    def _option_labels(self, decision: Decision) -> dict[int, str]:
        return option_labels(decision)

    # -- what a render shows -----------------------------------------------------------------
    @property
    def render_agent(self) -> str | None:
        """Whose eyes a render sees through: None (the manager to act), ``"away"``,
        ``"home"`` or ``"spectator"`` (both hands); see the module docstring."""
        return self._render_agent

    @render_agent.setter
    def render_agent(self, value: str | None) -> None:
        if value is not None and not (isinstance(value, str) and value in RENDER_AGENTS):
            raise OptionError(f"grand_slam_v0: render_agent must be one of "
                              f"{', '.join(map(repr, RENDER_AGENTS))} or None (the manager to "
                              f"act), got {show(value)}")
        self._render_agent = value

    def render_seats(self) -> tuple[int, ...]:
        """The seats whose hands a render shows now (0 away, 1 home): the ``render_agent``'s,
        both for the spectator, or by default the manager to act (none once the game is over)."""
        viewer = self._render_agent
        if viewer == "spectator":
            return (0, 1)
        if viewer is not None:
            return (AGENTS.index(viewer),)
        s = self.state_
        if s is None or s.pending is None or s.board.over:
            return ()
        return (s.pending.actor,)

    def _shows_options(self, seats: tuple[int, ...]) -> bool:
        """Whether a render for ``seats`` may list the pending decision's options (they name
        the cards in the hand of the manager who decides)."""
        d = self.state_.pending
        return d is not None and d.actor in seats

    # -- text -----------------------------------------------------------------------------
    def _scene(self):
        """What ``render_mode="rgb_array"`` draws (see :mod:`.picture`)."""
        from .picture import scene
        return scene(self, describe_play, hand_line)

    def _render_text(self) -> str:
        s = self.state_
        b = s.board
        lines = [s.box.render_line_score(b), ""]
        if b.over:
            lines.append(self._result_line(rules.TEAM_NAMES))
        else:
            half = "Top" if b.half == 0 else "Bottom"
            runners = "bases empty" if not any(r is not None for r in b.bases) else "runners on " + ", ".join(
                f"{BASE_NAMES[i]} ({rules.BATTER_NAMES[b.bases[i]]}, {CARD_TYPES[s.runner_cards[b.bases[i]]].label})"
                for i in range(3) if b.bases[i] is not None)
            lines.append(f"{half} of the {ordinal(b.inning)}, {b.outs} out, {runners}.")
            lines.append(f"At bat for the {rules.TEAM_NAMES[b.half]}: {rules.BATTER_NAMES[s.batter]}.")
            seats = self.render_seats()
            lines.extend(hand_line(s, seat, seat in seats) for seat in (0, 1))
            lines.append(f"Draw pile: {len(s.deck)} cards; discards: {sum(s.discards)}; "
                         f"shuffle after the {ordinal(b.inning + rules.innings_to_shuffle(b.inning) - 1)}.")
            if s.pending is not None:
                if self._shows_options(seats):
                    lines.append(self._decision_text())
                else:
                    lines.append(f"{AGENTS[s.pending.actor]} to decide ({s.pending.kind}).")
        recent = s.log.plays[-5:]
        if recent:
            lines.append("")
            lines.append("Last plays:")
            first = len(s.log.plays) - len(recent)
            lines.extend("  " + describe_play(p, s.played_by[first + i])
                         for i, p in enumerate(recent))
        return "\n".join(lines)

    def play_by_play(self, last: int | None = None) -> str:
        """The play log by half inning, naming the card each play came from and who played it."""
        s = self.state_
        return s.log.render_by_half(rules.TEAM_NAMES, lambda i, p: describe_play(p, s.played_by[i]),
                                    last)

    def scorecard(self) -> str:
        """Both batting cards, the line score and the play-by-play, like That's Baseball's."""
        s = self.state_
        innings = max(9, s.board.innings)
        return "\n".join([s.box.render_line_score(s.board), "",
                          s.box.render_scorecard(0, innings, label_header="#"), "",
                          s.box.render_scorecard(1, innings, label_header="#"), "",
                          self.play_by_play()])


__doc__ = __doc__.replace("{summary}", summary_table(GrandSlamEnv)).replace("{table}", OBS.table())


def hand_line(state: rules.GameState, seat: int, shown: bool) -> str:
    """One manager's hand for a render: its cards when ``shown``, else only how many, and
    his PH/RP stacks (face up; the cards beneath are face down either way)."""
    hand = state.hands[seat]
    if shown:
        cards = ", ".join(CARD_TYPES[c].label for c in range(N_HAND_TYPES)
                          for _ in range(hand[c])) or "no cards"
    else:
        n = sum(hand)
        cards = f"{n} card{'' if n == 1 else 's'}, hidden"
    return f"{AGENTS[seat]} hand: {cards}; PH/RP stacks: {len(state.stacks[seat])}"


def option_labels(decision: Decision) -> dict[int, str]:
    """What each action means at this decision."""
    return rules.option_labels(decision)


_SUBSTITUTION = {"pinch_hitter": "sent up a pinch hitter", "relief_pitcher": "brought in a relief pitcher"}


def describe_play(play: Play, seat: int) -> str:
    """One sentence for a play: the card, who played it, what happened to every runner."""
    who = rules.TEAM_NAMES[seat]
    names = rules.BATTER_NAMES
    card = CARD_TYPES[play.roll].label
    if play.kind == "pa":
        text = f"{names[play.actor]} {rules.OUTCOMES[play.detail].verb} ({card}, played by {who})"
        words = runner_movements(play, names)
    elif play.kind in _SUBSTITUTION:
        beneath = ("another PH/RP card: a card is drawn for the play" if play.roll == PINCH_HITTER
                   else f"the card beneath is a {card}")
        return f"{who} {_SUBSTITUTION[play.kind]}: {beneath}."
    else:                                              # a runner card
        text = f"{card} (played by {who})"
        words = runner_movements(play, names) or ["nobody on base"]
    return ", ".join([text, *words]) + "."

