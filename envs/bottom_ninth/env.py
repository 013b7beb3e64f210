"""Bottom of the 9th: the pitcher's manager against the batter's, a secret stare-down every pitch.

{summary}

## Creation

```python
env = bottom_ninth_v0.env(mode="duel", teams="default", draft=False, cards="builtin",
                          fatigue_rows=4, pitch_faces={"B": 3, "S": 2, "C": 1},
                          out_rule="lead_runner", innings=None, max_innings=None,
                          batters=8, pitchers=4, support=False, max_decisions=None,
                          extra_innings=False)
```

`mode="duel"` is the base game: the
bottom of the `innings`-th (1-9, default None: the 9th), tied, nobody out, bases empty.
`mode="game"` is the Longer Game: both teams bat and pitch for `innings` innings (1-9,
default None: 3, the rulebook's recommendation), away batting in the top; extra innings
until decided, or a tie after `max_innings` is cut off (0 each). Each team has a lineup of
8 batters of different positions with its pitcher batting 9th, a bench of `batters - 8`
pinch hitters (`batters` 8-10, default 8) and `pitchers` pitchers (2-4, default 4: the
starter, then the bullpen); `support=True` gives each team one support card
(`data/support.json`), in either mode (the duel: assigned by side with given teams, else
picked or drafted); `support="shared"` puts one card, drawn by a die, in play for both
(each manager may use it once). `teams` is `"default"` (presets from the card set) or `"choose"`
(decisions; `draft=True` drafts first, `draft="random"` deals the draft's picks at random).
See RULES.md. In the duel home wins at
the first run (a bases-loaded walk included), away at the third out; there is no tie, so
the duel cannot be cut off and `max_innings` must stay None, unless `extra_innings=True`
(Extra Innings: "you may opt to play out the tenth inning"): then a tie at the third out
goes on to the next inning, away batting in the top against home's pitcher (each team has
six batters and two pitchers: `teams="default"`, or `teams="choose"` with `draft=True`),
and a tie after it is cut off (truncated, 0 each). Its `teams` is `"default"` (the
first legal team of the card set, in its order: six batters of different positions for
home, a starter and a substitute for away), a dict `{"batters": [six card ids in batting
order], "pitchers": [starter id, substitute id]}`, or `"choose"` (home picks the lineup,
away the two pitchers, as decisions). `draft=True` (with `teams="choose"`) drafts the
teams first (Player Draft). `cards` is `"builtin"` (`data/cards.json`), a path to a JSON
card file or a dict (see `dugout.envs.bottom_ninth.cards`; at most {max_cards} cards; a bad set
raises `DataError` naming the file, the card and the field). `fatigue_rows` (3-10) is
the Fatigue Track's length, `pitch_faces` the Pitch die's faces (counts of B, S, C, 1-12
faces in all; the default is a third-party reading), `out_rule` who is out when the
pitcher wins the Run! phase: `"lead_runner"` (Base-path Variant and FAQ) or `"batter"`.
`condition` (the duel: None, `"random"` or a built-in solo Effect card id such as
`"e05"`) plays a Condition Card ("The Condition Cards from the solo game may also be used
in a two-player game"): its traits on every card of their side, its once-a-game ability
for whoever plays that side, its runners, outs, deficit and fatigue at the start.
`series` (None, `N` odd: best of N, or `{"games": N}`) plays a series as one episode
(`dugout.envs.core.series`): the teams set up in its first game (given, chosen, drafted or
dealt; the Longer Game's as they took the field) carry to every later game, nothing else;
the observation then ends with the series pieces. `max_decisions` bounds an episode
(None: 20,000 a game; or a positive int): a game still going
after that many decisions is cut off as `max_innings` cuts one off (truncation, reward 0,
`"winner"` `""`; `env.unwrapped.truncated_by` is `"max_decisions"`; see
`dugout.envs.core.aec`). The rulebook has no mercy rule, and the Longer Game's extra
innings have no end; no game comes near the bound: the longest of 5,000 random duels took
127 decisions (with the draft), of 5,000 random Longer Games of 3 innings 1,502 and of
1,000 of 9 innings 1,924; under adversarial legal policies (always the highest legal
action, always the lowest, the highest for one seat and the lowest for the other) the
longest took 123, 1,562 and 1,645. `render_mode` is `"ansi"`, `"human"`, `"rgb_array"` or
None. `env()` ends the game with -1 for a manager who plays an illegal action; `raw_env()`
raises `IllegalActionError`. An unknown option or a bad value raises `OptionError`.

## Agents

`"away"` is the pitcher's manager (the Visiting Team), `"home"` the batter's. Every
pitch: away commits a pitch in secret, home guesses, both see the reveal; then away
uses his abilities one at a time after the Pitch and Control roll, home his after the
Swing roll. Between batters away splits the relief and may change pitchers. A manager
may decide several times in a row; `agent_selection` names the one who must act. A
decision with one legal option (a pitch forced by fatigue, a relief split with one
effect) is made by the engine.

## Action Values

| Action | Meaning |
|---|---|
| 0-3 | throw High & Inside, High & Away, Low & Inside, Low & Away (`pitch`) |
| 4-7 | guess High & Inside, High & Away, Low & Inside, Low & Away (`guess`) |
| 8 | done: use no more abilities on this roll |
| 9 | reroll the Pitch die (a new natural value) |
| 10 | reroll the Control die |
| 11 | Control die +1 |
| 12 | Control die -1 |
| 13 | turn the Pitch die to B (Ball) |
| 14 | turn the Pitch die to S (Strike) |
| 15 | turn the Pitch die to C (Corner) |
| 16 | reroll the Swing die |
| 17 | Swing die +1 |
| 18 | Swing die -1 |
| 19-25 | relief: 0-6 points to the direction token, the rest to the location token |
| 26 | keep the pitcher |
| 27 | bring in the substitute pitcher |
| 28 | draft: pick first |
| 29 | draft: pick second |
| 30-93 | the card with index 0-63 (batters first, then pitchers, in the set's order) |
| 94-102 | lineup slot 1-9 (`pinch_slot`, `double_switch_slot`; the longer game) |
| 103 | a fatigue point to the direction token (`fatigue_split`) |
| 104 | a fatigue point to the location token (`fatigue_split`) |
| 105 | pass: no substitution (`pinch_hit`, `double_switch`) |
| 106-113 | the support card with index 0-7 (`draft_pick`, `select_support`) |

The decisions (`infos[agent]["decision"]` names the kind and labels each legal option):

| Kind | Who | Legal actions |
|---|---|---|
| `draft_order` | the die winner | 28, 29 |
| `draft_pick` | alternating | a card still in the pool (pitchers until each team has 3, then batters until 6) that leaves both teams a legal team |
| `select_batter` | home | a batter for the next lineup slot that keeps six positions possible |
| `select_pitcher` | away | the starter (not a reliever), then the substitute (not a starter) |
| `pitch` | away | 0-3 except pitches using an exhausted component |
| `guess` | home | 4-7 |
| `pitcher_ability` | away | 8, and 9-15 where a grant allows it and it changes something |
| `batter_ability` | home | 8, and 16-18 likewise |
| `relief` | away | 19-25: splits that waste no relief (asked when two differ) |
| `pitching_change` | away | 26, 27 (between batters, while the substitute may come in); the longer game: the fielding team, 26 (keep) or a bullpen pitcher's card action, between batters and (from the 2nd inning) at the start of its fielding half |
| `select_support` | each team (`teams="choose"` without a draft, `support=True`) | 106-113: a support card the other team does not hold |
| `fatigue_split` | the fielding team (game) | 103, 104: where an inning-start fatigue point goes (both tokens above the bottom) |
| `pinch_hit` | the batting team (game), before each of its at-bats while it has a bench | 105, or a bench batter's card action with a legal slot |
| `pinch_slot` | the team substituting | 94-102: a slot (not the pitcher's, not a runner's) the substitute may take keeping one player per position |
| `double_switch` | the fielding team (game), after a pitching change, with a bench | 105, or a bench batter's card action |
| `double_switch_slot` | the fielding team | 94-102: the slot the new pitcher bats in (the replaced batter's or the pitcher's) |

In the longer game (`mode="game"`) the roles follow the half inning: the fielding team's
manager makes the pitcher's decisions (`pitch`, `pitcher_ability`, `relief`,
`pitching_change`, `fatigue_split`, `double_switch`), the batting team's the batter's
(`guess`, `batter_ability`, `pinch_hit`); the selections and the draft are both teams'.

## Observation Space

`observe(agent)` returns `{"observation": float32 vector, "action_mask": int8 vector}`,
encoded from `env.unwrapped.view(agent)` (a `BottomNinthView`, whose docstring describes
every field). Everything is public except the committed pitch, which only the pitcher
sees until the reveal. Card indices are the set's (batters, then pitchers). The mask is
all zeros for the manager who is not to act.

{table}

## Rewards

+1 to the winner and -1 to the loser when the game ends; 0 to both when a game is cut
off by `max_innings` or `max_decisions`. Every step's `infos[agent]` holds `"decision"`,
`"score"`, `"winner"` and `"illegal_action"` (see `dugout.envs.core.aec`);
`env.unwrapped.box_score()` gives the box score and `env.unwrapped.scorecard()` the
scorecard and play-by-play.

## Version History

* v0: first release: the two-player duel and the Longer Game (`mode="game"`), with the
  Player Draft and support characters. Options added since, each off by default:
  `extra_innings` (the duel's tenth inning), `support` in the duel and
  `support="shared"`, `draft="random"` (random card allocation), `series`, `condition`
  (a solo Effect card as the duel's Condition Card).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.aec import BaseballAECEnv, summary_table
from ..core.bases import BASE_NAMES
from ..core.decisions import Decision
from ..core.dice import ScriptedDice
from ..core.errors import DataError, OptionError, check_innings, check_options, show
from ..core.observation import MAX_COUNTED, ObservationSpec, counted, encode_situation, situation_pieces
from ..core.scorebook import Play, ordinal, runner_movements
from . import rules
from .cards import (FACES, FIELD_POSITIONS, MAX_CARDS, PITCH_LABELS, PITCHES, CardSet, ace_pitch,
                    load_cards, matching_size)
from .game import bullpen, joint_feasible
from .conditions import load_solo, playable
from .support import MAX_SUPPORT, load_support
from .view import BottomNinthView, held_cards, relief_ready, usable_now, view_of

__all__ = ["BottomNinthEnv", "OBS", "PIECES", "encode_view", "encode_state", "default_team",
           "describe_play"]

MAX_GRANT_USES = 12
PIECES = situation_pieces(rules.DECISION_KINDS) + [
    ("balls", 4, "one-hot balls: 0-3"),
    ("strikes", 3, "one-hot strikes: 0-2"),
    ("fatigue", 2, "rows of the direction and location fatigue tokens / (fatigue_rows - 1) (0 = top)"),
    ("exhausted", 2, "1 where the direction / location token is at the bottom row"),
    ("reliever", 1, "1 when the pitcher is a reliever (relief stops at row 1)"),
    ("track", 1, "fatigue_rows / 10"),
    ("ace", 4, "one-hot Ace Pitch of the pitcher on the mound: HI, HA, LI, LA"),
    ("committed", 4, "one-hot pitch this manager committed, not yet revealed (the pitcher only)"),
    ("thrown", 4, "one-hot revealed pitch of this pitch"),
    ("guess", 4, "one-hot revealed guess of this pitch"),
    ("tokens", 4, "direction token to away, to home; location token to away, to home"),
    ("abilities", len(rules.ABILITY_ACTIONS), "1 where ability action 9-18 may be used now"),
    ("grant_uses", 2, f"uses left of the pitcher's, the batter's grants / {MAX_GRANT_USES}"),
    ("face", 3, "one-hot Pitch die shown: B, S, C"),
    ("face_natural", 3, "one-hot Pitch die as rolled: B, S, C"),
    ("dice", 4, "Control shown, Control natural, Swing shown, Swing natural, each / 6"),
    ("pitcher_card", MAX_CARDS, "one-hot card index of the pitcher on the mound"),
    ("batter_card", MAX_CARDS, "one-hot card index of the batter at the plate"),
    ("batter_slot", 6, "one-hot lineup slot of the batter"),
    ("pa", 1, "plate appearances so far this half inning / 8 (at most 1)"),
    ("substitute", 1, "1 while away's substitute may still come in"),
    ("own_cards", MAX_CARDS, "1 for each card on the observing manager's team"),
    ("opp_cards", MAX_CARDS, "1 for each card on the opponent's team"),
    # -- the longer game (all 0 in the duel) --
    ("game", 1, "1 in the longer game (mode 'game')"),
    ("scheduled", 1, "scheduled innings / 9 (the longer game)"),
    ("extra_innings", 1, "1 past the scheduled innings (the duel with extra_innings: in the tenth)"),
    ("own_lineup", MAX_CARDS, "1 for each card in the observing team's batting lineup"),
    ("opp_lineup", MAX_CARDS, "1 for each card in the opponent's batting lineup"),
    ("own_bench", MAX_CARDS, "1 for each bench batter (pinch hitter) of the observing team"),
    ("opp_bench", MAX_CARDS, "1 for each bench batter of the opponent"),
    ("own_bullpen", MAX_CARDS, "1 for each pitcher the observing team may still bring in"),
    ("opp_bullpen", MAX_CARDS, "1 for each pitcher the opponent may still bring in"),
    ("own_mound", MAX_CARDS, "one-hot card index of the observing team's current pitcher"),
    ("opp_mound", MAX_CARDS, "one-hot card index of the opponent's current pitcher"),
    ("game_slot", 9, "one-hot lineup slot (1-9) of the batter at the plate"),
    ("own_pitcher_slot", 9, "one-hot slot the observing team's pitcher bats in"),
    ("opp_pitcher_slot", 9, "one-hot slot the opponent's pitcher bats in"),
    ("orders", 2, "slot due up next of the observing team, of the opponent, / 8"),
    ("runs_allowed", 2, f"runs allowed by the observing team's pitcher, the opponent's (at most "
                        f"{MAX_COUNTED}), / 10", (0.0, MAX_COUNTED / 10)),
    ("relievers_used", 2, "relievers used by the observing team, the opponent, / 3 (at most 1)"),
    ("ceilings", 2, "reset row of the observing team's pitcher, the opponent's (0 top, 1 row 1)"),
    ("support", 2, "1 while the observing team's, the opponent's support card is unused"),
    ("own_support", MAX_SUPPORT, "one-hot support card of the observing team"),
    ("opp_support", MAX_SUPPORT, "one-hot support card of the opponent"),
    ("fatigue_left", 1, "inning-start fatigue points still to place / 10 (at most "
                        f"{MAX_COUNTED})", (0.0, MAX_COUNTED / 10)),
    ("sub_card", MAX_CARDS, "one-hot substitute chosen and awaiting his slot"),
    ("sub_slot", 9, "one-hot slot chosen in a double switch"),
]
OBS = ObservationSpec(PIECES)
__doc__ = __doc__.replace("{max_cards}", str(MAX_CARDS)).replace("{table}", OBS.table())

_O = OBS.offset
_KIND_INDEX = {k: i for i, k in enumerate(rules.DECISION_KINDS)}
OPTIONS = ("mode", "teams", "draft", "cards", "fatigue_rows", "pitch_faces", "out_rule",
           "innings", "max_innings", "batters", "pitchers", "support", "render_mode",
           "illegal_action", "dice", "max_decisions", "extra_innings", "series", "condition")
NAME = "bottom_ninth_v0"


def _one_hot(obs: np.ndarray, name: str, index: int) -> None:
    if index >= 0:
        obs[_O[name] + index] = 1.0


def encode_view(view: BottomNinthView) -> np.ndarray:
    """The observation vector of a view (the table in the module docstring)."""
    obs = np.zeros(OBS.size, dtype=np.float32)
    encode_situation(obs, _O, view.seat, None if view.decision is None else _KIND_INDEX[view.decision],
                     view.inning, view.half, view.outs, view.runners, view.runs)
    _one_hot(obs, "balls", view.balls)
    _one_hot(obs, "strikes", view.strikes)
    bottom = view.fatigue_rows - 1
    for i in (0, 1):
        obs[_O["fatigue"] + i] = view.fatigue[i] / bottom
        obs[_O["exhausted"] + i] = float(view.fatigue[i] >= bottom)
    obs[_O["reliever"]] = float(view.ceiling > 0)
    obs[_O["track"]] = view.fatigue_rows / 10.0
    for name in ("ace", "committed", "thrown", "guess"):
        _one_hot(obs, name, getattr(view, name))
    for i, holder in enumerate(view.tokens):
        if holder >= 0:
            obs[_O["tokens"] + 2 * i + holder] = 1.0
    for i, usable in enumerate(view.abilities):
        obs[_O["abilities"] + i] = float(usable)
    for i in (0, 1):
        obs[_O["grant_uses"] + i] = min(view.grant_uses[i], MAX_GRANT_USES) / MAX_GRANT_USES
    if view.face:
        _one_hot(obs, "face", FACES.index(view.face))
        _one_hot(obs, "face_natural", FACES.index(view.face_natural))
    for i, v in enumerate((view.control, view.control_natural, view.swing, view.swing_natural)):
        obs[_O["dice"] + i] = v / 6.0
    _one_hot(obs, "pitcher_card", view.pitcher_card)
    _one_hot(obs, "batter_card", view.batter_card)
    if view.mode != "game":
        _one_hot(obs, "batter_slot", view.batter_slot)
    obs[_O["pa"]] = min(view.pa, 8) / 8.0
    obs[_O["substitute"]] = float(view.substitute)
    for name, cards in (("own_cards", view.own_cards), ("opp_cards", view.opp_cards)):
        for c in cards:
            obs[_O[name] + c] = 1.0
    if view.mode == "game":
        _encode_game(obs, view)
    else:
        if view.extra_innings:
            obs[_O["extra_innings"]] = float(view.inning > view.innings)
        if view.support_names:
            _encode_duel_support(obs, view.seat, view.support, view.support_used)
    return obs


def _encode_duel_support(obs: np.ndarray, seat: int, support, used) -> None:
    """The duel's support cards (option ``support``): each side's card and whether it is
    still unused, the observing manager's first."""
    for i, t in enumerate((seat, 1 - seat)):
        _one_hot(obs, ("own_support", "opp_support")[i], support[t])
        obs[_O["support"] + i] = float(support[t] >= 0 and not used[t])


def _encode_game(obs: np.ndarray, view: BottomNinthView) -> None:
    me, opp = view.seat, 1 - view.seat
    obs[_O["game"]] = 1.0
    obs[_O["scheduled"]] = view.innings / 9.0
    obs[_O["extra_innings"]] = float(view.inning > view.innings)
    for side, t in (("own", me), ("opp", opp)):
        for piece, cards in (("lineup", view.lineups[t]), ("bench", view.benches[t]),
                             ("bullpen", view.bullpens[t])):
            for c in cards:
                obs[_O[f"{side}_{piece}"] + c] = 1.0
        _one_hot(obs, f"{side}_mound", view.mound[t])
        _one_hot(obs, f"{side}_pitcher_slot", view.pitcher_slots[t])
        _one_hot(obs, f"{side}_support", view.support[t])
    if view.pitcher_card >= 0:
        _one_hot(obs, "game_slot", view.batter_slot)
    for i, t in enumerate((me, opp)):
        _encode_team_counts(obs, i, view.orders[t], view.runs_allowed[t], view.relievers_used[t],
                            view.ceilings[t], view.support[t], view.support_used[t])
    obs[_O["fatigue_left"]] = counted(view.fatigue_left) / 10.0
    _one_hot(obs, "sub_card", view.sub_card)
    _one_hot(obs, "sub_slot", view.sub_slot)


def _encode_team_counts(obs: np.ndarray, i: int, order: int, allowed: int, relievers: int,
                        ceiling: int, support: int, support_used: bool) -> None:
    """A team's counts in the longer game (``i``: 0 the observing team, 1 the opponent): the
    slot due up, runs its pitcher allowed, relievers used, his reset row, an unused support
    card."""
    obs[_O["orders"] + i] = order / 8.0
    obs[_O["runs_allowed"] + i] = counted(allowed) / 10.0
    obs[_O["relievers_used"] + i] = min(relievers, 3) / 3.0
    obs[_O["ceilings"] + i] = float(ceiling)
    obs[_O["support"] + i] = float(support >= 0 and not support_used)


# -- the observation read off the state (BottomNinthEnv._encode) -----------------------------
# encode_view(view_of(state, seat)) without building the view (its labels, grants and tuples);
# tests/test_bottom_ninth_observation.py checks the two agree byte for byte in every option set.
(_BALLS, _STRIKES, _FATIGUE, _EXHAUSTED, _RELIEVER, _TRACK, _ACE, _COMMITTED, _THROWN, _GUESS,
 _TOKENS, _ABILITIES, _GRANT_USES, _FACE, _FACE_NATURAL, _DICE, _PITCHER_CARD, _BATTER_CARD,
 _BATTER_SLOT, _PA, _SUBSTITUTE, _OWN_CARDS, _OPP_CARDS) = (_O[name] for name in (
    "balls", "strikes", "fatigue", "exhausted", "reliever", "track", "ace", "committed", "thrown",
    "guess", "tokens", "abilities", "grant_uses", "face", "face_natural", "dice", "pitcher_card",
    "batter_card", "batter_slot", "pa", "substitute", "own_cards", "opp_cards"))
_FACE_INDEX = {face: i for i, face in enumerate(FACES)}


def encode_state(state: rules.GameState, seat: int) -> np.ndarray:
    """``encode_view(view_of(state, seat))``, read off the state (the env's ``observe``)."""
    s = state
    b, d = s.board, s.pending
    obs = np.zeros(OBS.size, dtype=np.float32)
    mine = d is not None and d.actor == seat and not b.over
    encode_situation(obs, _O, seat, _KIND_INDEX[d.kind] if mine else None, b.inning, b.half,
                     b.outs, b.bases, b.runs)
    playing = s.pitcher >= 0
    _encode_pitch_state(obs, s, seat, playing)
    game = s.mode == "game"
    slot = s.order[b.batting]
    if playing:
        obs[_PITCHER_CARD + s.pitcher] = 1.0
        batter = s.batter_card
        if batter >= 0:
            obs[_BATTER_CARD + batter] = 1.0
        if game:
            obs[_O["game_slot"] + slot] = 1.0
    if not game:
        obs[_BATTER_SLOT + slot] = 1.0
    obs[_PA] = min(s.pa, 8) / 8.0
    if game:        # (relief_ready with each bullpen worked out once)
        pens = (bullpen(s, 0), bullpen(s, 1)) if playing else ((), ())
        obs[_SUBSTITUTE] = float(bool(pens[b.fielding]))
    else:
        obs[_SUBSTITUTE] = float(relief_ready(s))
    for piece, t in ((_OWN_CARDS, seat), (_OPP_CARDS, 1 - seat)):
        for cards in held_cards(s, t):      # (a card may be in two lists: the same 1)
            for c in cards:
                obs[piece + c] = 1.0
    if game:
        _encode_game_state(obs, s, seat, playing, pens)
    else:
        if s.extra_innings:
            obs[_O["extra_innings"]] = float(b.inning > b.innings)
        if s.use_support and s.mode == "duel":
            _encode_duel_support(obs, seat, s.support, s.support_used)
    return obs


def _encode_pitch_state(obs: np.ndarray, s: rules.GameState, seat: int, playing: bool) -> None:
    """The pitch in progress: the count, the Fatigue Track, the Ace Pitch, the secret pitch
    (its pitcher's manager only), the reveal, the tokens, the abilities and grants, the dice."""
    b = s.board
    obs[_BALLS + s.balls] = 1.0
    obs[_STRIKES + s.strikes] = 1.0
    bottom = s.fatigue_rows - 1
    for i in (0, 1):
        row = s.fatigue[i]
        obs[_FATIGUE + i] = row / bottom
        obs[_EXHAUSTED + i] = float(row >= bottom)
    obs[_RELIEVER] = float(s.ceiling > 0)
    obs[_TRACK] = s.fatigue_rows / 10.0
    if playing:
        obs[_ACE + ace_pitch(s.cards.card(s.pitcher))] = 1.0
    if seat == b.fielding and s.secret >= 0:            # the pitcher's own secret
        obs[_COMMITTED + s.secret] = 1.0
    if s.thrown >= 0:
        obs[_THROWN + s.thrown] = 1.0
    if s.guess >= 0:
        obs[_GUESS + s.guess] = 1.0
    for i, role in enumerate(s.tokens):
        if role >= 0:
            obs[_TOKENS + 2 * i + s.seat_of(role)] = 1.0
    usable = usable_now(s)
    if usable:
        for i, a in enumerate(rules.ABILITY_ACTIONS):
            if a in usable:
                obs[_ABILITIES + i] = 1.0
    for i in (0, 1):
        uses = sum(g.left for g in s.grants[i])
        obs[_GRANT_USES + i] = min(uses, MAX_GRANT_USES) / MAX_GRANT_USES
    if s.face:
        obs[_FACE + _FACE_INDEX[s.face]] = 1.0
        obs[_FACE_NATURAL + _FACE_INDEX[s.face_natural]] = 1.0
    obs[_DICE] = s.control / 6.0
    obs[_DICE + 1] = s.control_natural / 6.0
    obs[_DICE + 2] = s.swing / 6.0
    obs[_DICE + 3] = s.swing_natural / 6.0


#: per side ("own", "opp"): the offsets of its lineup, bench, bullpen, mound, pitcher's slot
#: and support card pieces
_SIDE_PIECES = {side: tuple(_O[f"{side}_{piece}"] for piece in (
    "lineup", "bench", "bullpen", "mound", "pitcher_slot", "support")) for side in ("own", "opp")}


def _encode_game_state(obs: np.ndarray, s: rules.GameState, seat: int, playing: bool,
                       pens: tuple) -> None:
    """The longer game's pieces (``_encode_game`` of a view), read off the state (``pens``:
    each team's bullpen)."""
    b = s.board
    obs[_O["game"]] = 1.0
    obs[_O["scheduled"]] = b.innings / 9.0
    obs[_O["extra_innings"]] = float(b.inning > b.innings)
    for side, t in (("own", seat), ("opp", 1 - seat)):
        lineup, bench, pen, mound, pslot, support = _SIDE_PIECES[side]
        for c in s.lineups[t]:
            obs[lineup + c] = 1.0
        for c in s.benches[t]:
            obs[bench + c] = 1.0
        if playing:
            for c in pens[t]:
                obs[pen + c] = 1.0
            if s.mound[t] >= 0:
                obs[mound + s.mound[t]] = 1.0
            if s.pslot[t] >= 0:
                obs[pslot + s.pslot[t]] = 1.0
        if s.support[t] >= 0:
            obs[support + s.support[t]] = 1.0
    for i, t in enumerate((seat, 1 - seat)):
        _encode_team_counts(obs, i, s.order[t], s.allowed[t], s.relievers[t], s.ceilings[t],
                            s.support[t], s.support_used[t])
    obs[_O["fatigue_left"]] = counted(s.fatigue_left) / 10.0
    if s.sub_card >= 0:
        obs[_O["sub_card"] + s.sub_card] = 1.0
    if s.sub_slot >= 0:
        obs[_O["sub_slot"] + s.sub_slot] = 1.0


# -- options -------------------------------------------------------------------------------
def default_team(cards: CardSet, exclude: set[int] = frozenset()) -> tuple[list[int], list[int]]:
    """The first legal team in the set's order: batters added in order while six positions
    stay possible, the first pitcher able to start with a substitute behind him, and the
    first other pitcher able to relieve. ``exclude``: card indices taken (the tenth
    inning's second team is the first legal one from the cards the first left)."""
    lineup: list[int] = []
    for i, b in enumerate(cards.batters):
        if i not in exclude and len(lineup) < rules.LINEUP_SIZE and \
                matching_size([cards.batters[j].eligible for j in lineup] + [b.eligible]) == len(lineup) + 1:
            lineup.append(i)
    n_b = len(cards.batters)
    ps = cards.pitchers
    for s, p in enumerate(ps):
        if p.can_start and n_b + s not in exclude:
            subs = [r for r, q in enumerate(ps) if r != s and q.can_relieve and n_b + r not in exclude]
            if subs and (not exclude or len(lineup) == rules.LINEUP_SIZE):
                return lineup, [n_b + s, n_b + subs[0]]
    if exclude:
        raise OptionError(f"{NAME}: extra_innings=True needs a second team (six batters of "
                          f"different positions, a starter and a substitute) from the cards the "
                          f"first leaves; {cards.name!r} has none")
    raise DataError("the card set has no starter with a substitute")   # parse_cards prevents it


def given_team(cards: CardSet, teams: dict) -> tuple[list[int], list[int]]:
    """``teams={"batters": [ids], "pitchers": [starter, substitute]}`` checked against the set."""
    if set(teams) != {"batters", "pitchers"}:
        raise OptionError(f"{NAME}: teams as a dict needs exactly the keys 'batters' and 'pitchers', "
                          f"got {show(sorted(map(str, teams)))}")
    ids = {c.id: i for i, c in enumerate(cards.cards)}
    bats, pits = teams["batters"], teams["pitchers"]
    if not isinstance(bats, (list, tuple)) or len(bats) != rules.LINEUP_SIZE:
        raise OptionError(f"{NAME}: teams['batters'] must list {rules.LINEUP_SIZE} batter ids, got {show(bats)}")
    if not isinstance(pits, (list, tuple)) or len(pits) != 2:
        raise OptionError(f"{NAME}: teams['pitchers'] must be [starter id, substitute id], got {show(pits)}")
    lineup, staff = [], []
    for what, given, out, batter in (("batters", bats, lineup, True), ("pitchers", pits, staff, False)):
        for cid in given:
            if not isinstance(cid, str) or cid not in ids or cards.is_batter(ids[cid]) != batter:
                raise OptionError(f"{NAME}: teams['{what}']: {show(cid)} is not a "
                                  f"{what[:-1]} card id of the set {cards.name!r}")
            if ids[cid] in out:
                raise OptionError(f"{NAME}: teams['{what}']: {cid!r} is listed twice")
            out.append(ids[cid])
    if matching_size([cards.card(i).eligible for i in lineup]) < rules.LINEUP_SIZE:
        raise OptionError(f"{NAME}: teams['batters'] cannot play six different positions")
    if not cards.card(staff[0]).can_start:
        raise OptionError(f"{NAME}: teams['pitchers']: {pits[0]!r} is a Relief Pitcher and cannot start")
    if not cards.card(staff[1]).can_relieve:
        raise OptionError(f"{NAME}: teams['pitchers']: {pits[1]!r} is a Starting Pitcher and cannot relieve")
    return lineup, staff


def _check_faces(faces: Any) -> dict[str, int]:
    if faces is None:
        return dict(rules.DEFAULT_FACES)
    if not isinstance(faces, dict) or not set(faces) <= set(FACES) or any(
            isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0 for v in faces.values()) \
            or not 1 <= sum(int(v) for v in faces.values()) <= 12:
        raise OptionError(f"{NAME}: pitch_faces must be a dict of face counts over 'B', 'S', 'C' "
                          f"(whole numbers, 1 to 12 faces in all), got {show(faces)}")
    return {f: int(faces.get(f, 0)) for f in FACES}


class BottomNinthEnv(BaseballAECEnv, name=NAME, actions=rules.ACTIONS, obs=OBS,
                     view=BottomNinthView, encode_view=encode_view, max_decisions=20_000,
                     plays_series=True):
    def __init__(self, mode: str = "duel", teams: Any = "default", draft: bool = False,
                 cards: Any = "builtin", fatigue_rows: int = 4, pitch_faces: Any = None,
                 out_rule: str = "lead_runner", innings: int | None = None,
                 max_innings: int | None = None, batters: int = 8, pitchers: int = 4,
                 support: bool = False, render_mode: str | None = None, illegal_action: str = "raise",
                 dice: ScriptedDice | None = None, max_decisions: int | None = None,
                 extra_innings: bool = False, series: Any = None, condition: Any = None,
                 **unknown: Any):
        check_options(NAME, unknown, OPTIONS)
        super().__init__(render_mode=render_mode, illegal_action=illegal_action, dice=dice,
                         max_decisions=max_decisions, series=series)
        # draft="random": "Pitcher and Batter Cards may be allocated randomly": the draft's
        # picks dealt by the dice (a draft in every other respect)
        self.dealt = isinstance(draft, str) and draft == "random"
        draft = True if self.dealt else draft
        if mode not in ("duel", "game"):
            raise OptionError(f"{NAME}: mode must be 'duel' (the base game) or 'game' (the "
                              f"Longer Game), got {show(mode)}")
        self.mode = mode
        default_innings = 9 if mode == "duel" else 3
        innings, max_innings = check_innings(NAME, default_innings if innings is None else innings,
                                             max_innings)
        for name, value, low, high in (("batters", batters, 8, 10), ("pitchers", pitchers, 2, 4)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
                raise OptionError(f"{NAME}: {name} must be an int from {low} to {high}, got {show(value)}")
        if not isinstance(support, bool) and support != "shared":
            raise OptionError(f"{NAME}: support must be True, False or 'shared', got {show(support)}")
        if mode == "duel" and (batters != 8 or pitchers != 4):
            raise OptionError(f"{NAME}: batters and pitchers are options of mode='game' "
                              f"(the duel's teams are six batters and two pitchers)")
        if not isinstance(extra_innings, bool):
            raise OptionError(f"{NAME}: extra_innings must be True or False, got {show(extra_innings)}")
        if extra_innings and mode != "duel":
            raise OptionError(f"{NAME}: extra_innings is an option of the duel (the Longer Game "
                              f"plays extra innings until decided, or to max_innings)")
        self.extra_innings = extra_innings
        self.away_lineup: list[int] | None = None
        self.home_staff: list[int] | None = None
        self.max_innings = max_innings
        self.n_batters, self.n_pitchers, self.support = int(batters), int(pitchers), support
        self.supports = load_support() if support else None
        if mode == "game":
            self._check_game(teams, draft, cards, fatigue_rows)
        elif max_innings is not None:
            raise OptionError(f"{NAME}: max_innings must be None: the duel is one sudden-death half "
                              f"inning with no tie to cut off, got {show(max_innings)}")
        rows = fatigue_rows
        if isinstance(rows, bool) or not isinstance(rows, (int, np.integer)) or not 3 <= rows <= 10:
            raise OptionError(f"{NAME}: fatigue_rows must be an int from 3 to 10 (a reliever starts "
                              f"at row 1, above the bottom), got {show(fatigue_rows)}")
        if out_rule not in ("lead_runner", "batter"):
            raise OptionError(f"{NAME}: out_rule must be 'lead_runner' or 'batter', got {show(out_rule)}")
        if not isinstance(draft, bool):
            raise OptionError(f"{NAME}: draft must be True, False or 'random', got {show(draft)}")
        self.cardset = load_cards(cards)
        self.conditions = self._check_condition(condition, mode, support)
        self.innings = innings
        self.fatigue_rows = int(rows)
        self.pitch_faces = _check_faces(pitch_faces)
        self.out_rule = out_rule
        self.draft = draft
        self.lineup: list[int] | None = None
        self.staff: list[int] | None = None
        self.teams = teams if mode == "game" else None
        if mode == "game":
            return
        if isinstance(teams, dict):
            self.lineup, self.staff = given_team(self.cardset, teams)
        elif teams == "default":
            self.lineup, self.staff = default_team(self.cardset)
        elif teams != "choose":
            raise OptionError(f"{NAME}: teams must be 'default', 'choose' or a dict of 'batters' "
                              f"and 'pitchers', got {show(teams)}")
        if extra_innings:
            # "Decide this beforehand, so that you and your opponent pre-assign or draft a
            # team of Batters and Pitchers to use": the presets, or the draft
            if isinstance(teams, dict) or (teams == "choose" and not self.draft):
                raise OptionError(f"{NAME}: extra_innings=True needs both teams of Batters and "
                                  f"Pitchers pre-assigned or drafted: teams='default', or "
                                  f"teams='choose' with draft=True, got teams={show(teams)}, "
                                  f"draft={show(draft)}")
            if teams == "default":
                self.away_lineup, self.home_staff = default_team(
                    self.cardset, exclude=set(self.lineup) | set(self.staff))
        if draft:
            if teams != "choose":
                raise OptionError(f"{NAME}: draft=True (or 'random') needs teams='choose' (the draft picks "
                                  f"the teams)")
            cs = self.cardset
            if len(cs.pitchers) < 2 * rules.DRAFT_PITCHERS or len(cs.batters) < 2 * rules.DRAFT_BATTERS:
                raise OptionError(f"{NAME}: draft=True needs a card set of at least "
                                  f"{2 * rules.DRAFT_PITCHERS} pitchers and {2 * rules.DRAFT_BATTERS} "
                                  f"batters; {cs.name!r} has {len(cs.pitchers)} and {len(cs.batters)}")

    def _check_condition(self, condition: Any, mode: str, support: Any) -> tuple[int, ...]:
        """The Condition Card option: None, "random" (one drawn each game among those the
        card set can play) or a built-in Effect card's id; the indices it draws from."""
        if condition is None:
            return ()
        solo = load_solo()
        ids = [e.id for e in solo.effects]
        if mode != "duel":
            raise OptionError(f"{NAME}: condition is an option of the duel (mode='duel')")
        if support:
            raise OptionError(f"{NAME}: condition and support cannot be combined (a Condition "
                              f"Card's once-a-game ability is played as the support card)")
        ok = playable(self.cardset, solo)
        if condition == "random":
            return ok
        if not isinstance(condition, str) or condition not in ids:
            raise OptionError(f"{NAME}: condition must be None, 'random' or an Effect card id of "
                              f"the built-in solo set ({', '.join(ids)}), got {show(condition)}")
        if ids.index(condition) not in ok:
            raise OptionError(f"{NAME}: condition {condition!r} cannot be played with the card set "
                              f"{self.cardset.name!r} (its traits would take a card past the "
                              f"vocabulary's bounds)")
        return (ids.index(condition),)

    def _check_game(self, teams: Any, draft: Any, cards: Any, fatigue_rows: Any) -> None:
        """The longer game's teams: "default" (presets) or "choose" (decisions, a draft with
        ``draft=True``); the set must hold two disjoint teams."""
        if teams not in ("default", "choose"):
            raise OptionError(f"{NAME}: in mode='game' teams must be 'default' or 'choose', got {show(teams)}")
        if not isinstance(draft, bool):
            raise OptionError(f"{NAME}: draft must be True, False or 'random', got {show(draft)}")
        if draft and teams != "choose":
            raise OptionError(f"{NAME}: draft=True (or 'random') needs teams='choose' (the draft picks "
                                  f"the teams)")
        cs = load_cards(cards)
        if len(cs.batters) < 2 * self.n_batters or len(cs.pitchers) < 2 * self.n_pitchers or \
                not joint_feasible([([], [], 0)] * 2, [b.eligible for b in cs.batters],
                                         len(FIELD_POSITIONS), self.n_batters) or \
                not joint_feasible([([], [], 0)] * 2, [
                    tuple(k for k in range(self.n_pitchers) if (k == 0 and p.can_start)
                          or (k > 0 and p.can_relieve)) for p in cs.pitchers], self.n_pitchers,
                    self.n_pitchers):
            raise OptionError(f"{NAME}: mode='game' needs a card set with two disjoint teams of "
                              f"{self.n_batters} batters (eight positions each) and {self.n_pitchers} "
                              f"pitchers (a starter, relief-capable others); {cs.name!r} has "
                              f"{len(cs.batters)} batters and {len(cs.pitchers)} pitchers")

    # -- engine hooks -------------------------------------------------------------------
    def _new_game(self, seed: int, carry: Any = None) -> rules.GameState:
        """A game; in a series (``carry``: :func:`rules.teams_of` of the last game) one with
        the series' teams, set up once in its first game."""
        if self.mode == "game":
            return rules.new_game(self._dice(seed), self.cardset, draft=self.draft, mode="game",
                                  teams=self.teams, innings=self.innings,
                                  max_innings=self.max_innings, fatigue_rows=self.fatigue_rows,
                                  faces=self.pitch_faces, out_rule=self.out_rule,
                                  batters=self.n_batters, pitchers=self.n_pitchers,
                                  support=self.support, supports=self.supports,
                                  dealt=self.dealt, carry=carry)
        lineup, staff, away_lineup, home_staff = self.lineup, self.staff, self.away_lineup, self.home_staff
        dice = self._dice(seed)
        condition = -1
        if self.conditions:                       # drawn by a die ("random"), or the one named
            dice.set_stream(0, 0, 0)
            condition = self.conditions[dice.randbelow("condition", len(self.conditions))] \
                if len(self.conditions) > 1 else self.conditions[0]
        if carry is not None:
            lineup, staff, away_lineup = carry["lineup"], carry["staff"], carry["away_lineup"]
            home_staff = carry["staffs"][1]
        state = rules.new_game(dice, self.cardset, lineup=lineup, staff=staff,
                               draft=self.draft, inning=self.innings, fatigue_rows=self.fatigue_rows,
                               faces=self.pitch_faces, out_rule=self.out_rule,
                               extra_innings=self.extra_innings, away_lineup=away_lineup,
                               home_staff=home_staff, support=self.support,
                               supports=self.supports, dealt=self.dealt, carry=carry,
                               condition=condition)
        if carry is not None and self.lineup is None:
            state.teams = "choose"                # chosen (or drafted) in the series' first game
        return state

    def _carry_over(self, finished: rules.GameState, series) -> dict[str, Any]:
        """What the next game of a series starts with: the teams ("Pitcher and Batter Cards
        may be allocated randomly if you are going to play ... a series of several games":
        a series keeps the teams it set up), nothing else (RULES.md)."""
        return rules.teams_of(finished)

    def _apply(self, action: int) -> None:
        rules.apply_action(self.state_, action)

    def _view(self, seat: int) -> BottomNinthView:
        return view_of(self.state_, seat)

    def _encode(self, seat: int) -> np.ndarray:
        return encode_state(self.state_, seat)

    def _option_labels(self, decision: Decision) -> dict[int, str]:
        return rules.option_labels(self.state_, decision)

    # -- text -----------------------------------------------------------------------------
    def _scene(self):
        """What ``render_mode="rgb_array"`` draws (see :mod:`.picture`)."""
        from .picture import scene
        return scene(self, describe_play, team_names)

    def _names(self) -> list[str]:
        s = self.state_
        if s.mode == "game":
            return [line.name for line in s.box.lines[s.board.batting]]
        return [s.cards.card(i).name for i in s.lineup] + ["?"] * (rules.LINEUP_SIZE - len(s.lineup))

    def _render_text(self) -> str:
        s = self.state_
        b = s.board
        cs = s.cards
        lines = [s.box.render_line_score(b), ""]
        teams = team_names(s)
        if b.over:
            lines.append(self._result_line(teams))
        else:
            names = self._names()
            runners = ("bases empty" if not any(r is not None for r in b.bases) else "runners on "
                       + ", ".join(f"{BASE_NAMES[i]} ({names[b.bases[i]]})" for i in range(3)
                                   if b.bases[i] is not None))
            half = "Top" if b.half == 0 else "Bottom"
            batting = f" ({teams[b.batting]} batting)" if s.mode == "game" else ""
            lines.append(f"{half} of the {ordinal(b.inning)}{batting}, {b.outs} out, {runners}.")
            if s.pitcher >= 0:
                p = cs.card(s.pitcher)
                lines.append(f"Pitching: {p.name} ({p.role}), Ace {PITCH_LABELS[ace_pitch(p)]}; fatigue "
                             f"direction row {s.fatigue[0]}, location row {s.fatigue[1]} of "
                             f"{s.fatigue_rows} (bottom = exhausted){'; a reliever' if s.ceiling else ''}.")
                bat = cs.card(s.batter_card)
                pos = bat.position if cs.is_batter(s.batter_card) else "P"
                lines.append(f"At bat: {bat.name} ({pos}), count {s.balls}-{s.strikes}.")
                if s.thrown >= 0:
                    holders = ["pitcher" if t == 0 else "batter" for t in s.tokens]   # roles
                    lines.append(f"Threw {PITCHES[s.thrown]}, guessed {PITCHES[s.guess]}: direction token "
                                 f"to the {holders[0]}, location token to the {holders[1]}.")
                if s.face:
                    dice = f"Pitch {s.face} (rolled {s.face_natural}), Control {s.control} (rolled {s.control_natural})"
                    if s.swing:
                        dice += f", Swing {s.swing} (rolled {s.swing_natural})"
                    lines.append(dice + ".")
                    for seat, who in ((0, "Pitcher"), (1, "Batter")):
                        if s.grants[seat]:
                            lines.append(f"{who} grants: " + "; ".join(
                                f"{g.effect.describe()} x{g.left} ({g.source})" for g in s.grants[seat]))
            else:
                lines.append("Setting up the teams.")
            if s.pending is not None:
                lines.append(self._decision_text())
        if s.last:
            lines += ["", f"Last pitch: {s.last}"]
        recent = s.log.plays[-5:]
        if recent:
            lines += ["", "Last plays:"]
            lines.extend("  " + describe_play(s, p) for p in recent)
        return "\n".join(lines)

    def play_by_play(self) -> str:
        s = self.state_
        return s.log.render_by_half(team_names(s), lambda i, p: describe_play(s, p))

    def scorecard(self) -> str:
        s = self.state_
        if s.mode == "game":
            n = max(s.board.innings, s.board.inning)
            return "\n".join([s.box.render_line_score(s.board), "",
                              s.box.render_scorecard(0, n, label_header="POS"), "",
                              s.box.render_scorecard(1, n, label_header="POS"), "",
                              s.box.render_pitching(0), "", s.box.render_pitching(1), "",
                              self.play_by_play()])
        return "\n".join([s.box.render_line_score(s.board), "",
                          s.box.render_scorecard(1, s.board.innings, label_header="POS"), "",
                          s.box.render_pitching(0), "", self.play_by_play()])


__doc__ = __doc__.replace("{summary}", summary_table(BottomNinthEnv))


def team_names(state: rules.GameState) -> tuple[str, str]:
    return rules.GAME_TEAM_NAMES if state.mode == "game" else rules.TEAM_NAMES


def describe_play(state: rules.GameState, play: Play) -> str:
    """One sentence for a play of the log."""
    cs = state.cards
    if state.mode in ("game", "solo"):
        names = [line.name for line in state.box.lines[play.half]]
    else:
        names = [cs.card(i).name for i in state.lineup]
    if play.kind == "pitching_change":
        return f"Pitching change: {cs.card(play.actor).name} comes in."
    if play.kind == "substitution":
        team = int(play.detail)
        return f"Substitution ({rules.GAME_TEAM_NAMES[team]}): {state.box.lines[team][play.actor].name} bats in slot {play.base + 1}."
    text = f"{names[play.actor]} {rules.OUTCOMES[play.detail].verb}"
    return ", ".join([text, *runner_movements(play, names)]) + "."
