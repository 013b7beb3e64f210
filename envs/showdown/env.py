"""MLB Showdown (2004 rules), basic, advanced and expert games: two managers, real players' cards.

{summary}

## Creation

```python
env = showdown_v0.env(level="advanced", teams=("nya2004", "bos2004"), dh=None,
                      starter=None, innings=9, max_innings=None, point_cap=5000, decks=None,
                      card_set=None, max_decisions=None, lineups="file")
```

`level` is `"basic"` (the pitch and the swing only; each manager's one decision is his
starting pitcher, then the game plays itself) or `"advanced"` (positions, Fielding and Speed, double plays,
extra bases, fatigue, substitutions, special-ability icons) or `"expert"`: the advanced
rules without the icons' special abilities, plus expert innings pitched (IP down one per 3
runs charged), first base open to every hitter (Fielding -1, or -2 for a player with no
position), the intentional walk, the sacrifice bunt, pinch runners, defensive replacements,
the DH taking the field and the double switch. `decks` gives the expert game its strategy
cards: a deck for both managers or an (away, home) pair, each a built-in deck name
(`"default"`, `"small_ball"`, `"power_pitching"`), a JSON path, a dict or a `Deck` of
`card_set`'s cards (None: dugout's own 44-card set, or the built-in set the decks name:
`decks="hooks"` plays the 44 and the hook cards; see `dugout.envs.showdown.strategy`). `decks=None` plays without cards, the
rulebook's game when a manager has no deck ("Strategy cards are used only if you and your
opponent both have strategy decks"), and so does a pair with one deck and None (each
deck is still checked). A bad deck or card file raises `DataError` naming the
file, the card and the field. `teams` is (away, home): built-in team names (`bos2004`, `nya2004`, any of the
thirty 2004 teams as `<lahman code><year>`, `nya1927`, `cin1975`, `chn2016`, `lan2024`),
paths to team JSON files, dicts or `Team` objects (see `dugout.envs.showdown.cards`);
every Team Construction Rule is checked on load and `point_cap=None` waives the point
cap for historical teams. `series=N` (odd: best of N) or `{"games": N}` plays a series as
one episode (`dugout.envs.core.series`; advanced and expert levels): the rotation goes on
from game to game ("If your fourth pitcher starts a game, your first pitcher will start
the next game"), and in the expert game a reliever or closer who pitched in each of the
last two games starts at IP 0; the observation then ends with `relief_rest` (each roster
player's games in a row pitched in relief, own team first) and the core's series pieces,
and `env.unwrapped.series_box_scores()` gives each game's box score and the series'.
`dh=None` uses a designated hitter in the basic game (Basic
Setup 4) and plays by the home team's rules (its file's `dh`) in the advanced game;
`True`/`False` forces AL/NL rules. `starter` (1-4) picks the rotation spot; by default
the home team rolls for it (Advanced Game Setup 2). `innings` is the scheduled length,
1 to 9; extra innings are played until a winner unless `max_innings` (`innings` to 99)
cuts the game off (truncation, reward 0). `max_decisions` bounds an episode (None: 10,000;
or a positive int): a game still going after that many decisions is cut off as
`max_innings` cuts one off (truncation, reward 0, `"winner"` `""`;
`env.unwrapped.truncated_by` is `"max_decisions"`; see `dugout.envs.core.aec`). The
rulebook has no mercy rule, and in the expert game a defense that calls the intentional
walk at every at-bat never gets an out: the game would never end (RULES.md). No game
played otherwise comes near the bound: the longest of 5,000 random games took 2 decisions
(basic), 83 (advanced), 347 (expert) and 1,058 (expert with decks); under adversarial
legal policies (always the highest legal action, always the lowest, the highest for one
seat and the lowest for the other) at most 2, 171, 409 and 983, except in the expert game,
where a defense playing the highest action walks every batter: those three policies are
cut off at the bound. `starter`, `innings`, `max_innings`, `max_decisions` and `point_cap`
(a non-negative int or None) may be Python or numpy ints. A team file holds at most 1 MiB.
`lineups="manager"` (advanced and expert games; default `"file"`, the team files' batting
orders) has each manager set his starting lineup before the game (Advanced Game Setup 4-5):
who plays each position, the DH under AL rules and the batting order 1-9, as the
`lineup_position`, `lineup_dh` and `batting_order` decisions (below), the away manager
first, neither seeing the other's lineup until both are set (`dugout.envs.showdown.lineup`).
`render_mode` is `"ansi"`, `"human"`, `"rgb_array"` (a picture: core.picture) or None.
`env()` ends the game with -1 for a manager who plays an illegal action; `raw_env()`
raises `IllegalActionError` instead. An unknown option raises `OptionError`, a bad team
`DataError`.

## Agents

`"away"` bats in the top of each inning, `"home"` in the bottom. The engine rolls the
dice and carries out forced plays; a manager is asked only where the rulebook gives him a
choice, so a manager may decide several times in a row and `agent_selection` always
names the one who must act. In the basic game each manager chooses his starting pitcher
(away first, Basic Setup 3) and is never asked again; in the advanced game the home team
rolls for the rotation spot instead.

## Action Values

| Action | Meaning |
|---|---|
| 0 | no / pass: no pinch hitter, no pitching change, don't use the icon, hold the runners, no double-play attempt |
| 1 | yes: use the icon, steal with the SB runner, try for the double play |
| 2-26 | roster player 0-24 of the acting team (the team file's order): the starting pitcher, the pinch hitter, the new pitcher; expert: the pinch runner, the defensive replacement, the player who makes way, the player whose batting spot a new player takes |
| 27 | send the lead runner for an extra base |
| 28 | send both runners |
| 29 | throw at the lead runner |
| 30 | throw at the trailing runner |
| 31- | with strategy decks: play card 31 + i, the card set's card i (`env.unwrapped.card_set.names`) |

The decisions (`infos[agent]["decision"]` names the kind and labels each legal option;
`env.view(agent).subject` says what it is about):

| Kind | Who | When | Legal actions |
|---|---|---|---|
| `starting_pitcher` | each, away first | basic game only, before the first pitch (unless `starter` is given) | 2-26 for each of his four starters |
| `pinch_hitter` | batting | start of an at-bat, and again after a pitching change (subject: batting slot) | 0, 2-26 for each bench hitter who may bat for him |
| `pitching_change` | fielding | start of an at-bat (subject 0), or forced when his team hit for its pitcher (subject 1, no 0), or forced by a card that sends the starter out, in the card window before the pitch (subject 2, no 0) | 0, 2-26 for each reliever and closer who has not pitched |
| `relief_ace` | fielding | first at-bat of an inning after the 6th, RP icon unused | 0, 1 |
| `twenty_game` | fielding | before a pitch, 20 icon unused this inning | 0, 1 |
| `stolen_base` | batting | before the pitch, a runner with an unused SB icon and the next base open (subject: his base, 0 first, 1 second) | 0, 1 |
| `strikeout` | fielding | after the swing, K icon unused, result not SO | 0, 1 |
| `reroll_out` | batting | after an out result, V icon uses left | 0, 1 |
| `silver_slugger` | batting | after a 1B or 1B+, S icon unused | 0, 1 |
| `home_run_icon` | batting | after a 2B or 3B, HR icon unused | 0, 1 |
| `double_play` | fielding | GB with a runner on first and fewer than two outs | 0, 1 |
| `gold_glove` | fielding | before a double-play or extra-base roll, for each fielder in the play with an unused G icon (subject: position index, C=0 ... RF=7) | 0, 1 |
| `send_runners` | batting | after a 1B, 2B or FB that leaves runners who may try for an extra base | 0, 27, and 28 with two such runners |
| `throw_at` | fielding | two runners sent | 29, 30 |

The expert game has no icon decisions (`relief_ace`, `twenty_game`, `stolen_base`,
`strikeout`, `reroll_out`, `silver_slugger`, `home_run_icon`, `gold_glove`) and adds, in the
Complete At-Bat Sequence's order:

| Kind | Who | When | Legal actions |
|---|---|---|---|
| `pinch_runner` | batting | start of an at-bat, each runner in turn, lead runner first (subject: his base, 0 first) | 0, 2-26 for each bench hitter (backups too) after whom a legal field can still be made |
| `defensive_replacement` | fielding | when the team takes the field, and after a pitching change; again after each one (subject: the DH's roster index, -1 without a DH) | 0 (absent while the team cannot field every position), 2-26 for each bench hitter allowed to field and for the DH |
| `replaced_player` | fielding | after a defensive replacement (subject: the player coming in) | 2-26 for each fielder he may replace |
| `batting_slot` | fielding | a substitution brought in two or more players with batting spots (the double switch): each but the last (subject: the new player) | 2-26 for each player who left a spot still open: bat in his spot |
| `intentional_walk` | fielding | every at-bat, after the substitutions | 0, 1 |
| `sacrifice_bunt` | batting | after the defense did not walk him, no runner on third | 0, 1 |
| `play_card` | each in turn, the defense first | with decks, in the card windows: before the pitch (subject 0), on the result (1), after it (2), until both pass in a row; a manager holding cards is asked even when he can only pass (being asked tells nothing of his hand), and only an empty hand (its size is public) passes unasked | 0 (pass), 31 + i for each card in his hand of his colour whose timing and conditions hold and whose name he has not played this at-bat |
| `catcher_throw` | fielding | a card sends runners to steal and lets the catcher throw | 0 (no throw), 1 (one runner), or 29 / 30 (the lead or trailing runner) |

With `lineups="manager"` the game opens with these, before the first pitch (a pick with one
legal option is made by the rules):

| Kind | Who | When | Legal actions |
|---|---|---|---|
| `lineup_position` | away, then home | for C, 1B, 2B, 3B, SS, LF, CF, RF in turn (subject: position index, C=0 ... RF=7) | 2-26 for each full-cost hitter not yet picked who qualifies there (expert: anyone but a pitcher at 1B) and leaves the rest of the lineup fillable |
| `lineup_dh` | away, then home | AL rules, after the positions | 2-26 for each full-cost hitter not in the field |
| `batting_order` | away, then home | for spots 1-9 in turn (subject: the spot, 0-8) | 2-26 for each of the nine (the starting pitcher among them under NL rules) not yet placed |

## Observation Space

`observe(agent)` returns `{"observation": float32 vector, "action_mask": int8 vector}`.
The vector is encoded from `env.unwrapped.view(agent)` (a `ShowdownView`, whose
docstring describes every field); nothing in Showdown's basic, advanced and expert games
(without strategy cards) is hidden. `own` means the observing manager's team. Charts are counts per result in the
order PU, SO, GB, FB, BB, 1B, 1B+, 2B, 3B, HR, divided by 20. The mask is all zeros for
the manager who is not to act.

{table}

The expert game's observation has these 67 more, after the 256 above (the `level` one-hot is
all 0 and `pitcher_icons` and the icon uses are 0, its icons having no special abilities):

{expert_table}

With strategy decks, 7 x cards + 9 more follow (cards: the card set's size, 44 for the
built-in set; each per-card piece lists the set's cards in action order). The opponent's
hand and both decks' order never appear: only their sizes.

{card_table}

With `lineups="manager"` {lineup_more} more follow the level's pieces (and the cards'), before a
series' pieces; all 0 once both lineups are set, and nothing in them is the other manager's:

{lineup_table}

In a series (`series=N`) the observation ends with {series_more} more, after the level's pieces
(and the cards'): `relief_rest` (what one game leaves the next beside the rotation, whose
starter the pitcher pieces show), then the core's series pieces (`dugout.envs.core.series`).
The indices below are the advanced game's; they start {expert_more} later in the expert game and
7 x cards + 9 later with strategy decks. A series' observation is {series_sizes}.

{series_table}

## Rewards

+1 to the winner and -1 to the loser when the game ends; 0 to both when a game is cut off
by `max_innings` or `max_decisions`. No reward before the end. Every step's `infos[agent]`
holds `"decision"`, `"score"` (`{"away": int, "home": int}`), `"winner"` (`""` until won)
and `"illegal_action"` (see `dugout.envs.core.aec`); `env.unwrapped.box_score()` gives the
box score (batting and pitching lines).

## Version History

* v0: first release: basic and advanced games; the expert game (`level="expert"`), with
  strategy cards when both managers have decks (`decks`); series (`series`), and a deck
  on one side only plays without cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.aec import BaseballAECEnv, summary_table
from ..core.bases import BASE_NAMES
from ..core.decisions import Decision
from ..core.dice import ScriptedDice
from ..core.errors import (DataError, OptionError, as_int, check_innings, check_options, check_pair,
                           show)
from ..core.observation import MAX_COUNTED, ObservationSpec, counted, encode_situation, situation_pieces
from ..core.scorebook import Play, ordinal, runner_movements
from ..core.series import SERIES_PIECES, SeriesGame
from . import lineup, roster, rules
from .actions import LINEUP_KINDS
from .cards import (FIELD_POSITIONS, INFIELD, OUTFIELD, RESULTS, HitterCard, PitcherCard, POINT_CAP,
                    RATING_LIMITS, check_point_cap, fielding_at, load_team)
from .strategy import deck_card_set, load_card_set, load_deck
from .state import GameState
from .view import ShowdownView, _card_fields, view_of

__all__ = ["ShowdownEnv", "OBS", "OBS_EXPERT", "PIECES", "EXPERT_PIECES", "encode_view",
           "describe_play"]

_CHART = "counts per result (PU SO GB FB BB 1B 1B+ 2B 3B HR) / 20"
# The bounds follow the card file limits (cards.RATING_LIMITS) and the innings limit (a game
# lasts at most MAX_COUNTED innings); runs charged saturate at MAX_COUNTED.
_ON_BASE = tuple(v / 20 for v in RATING_LIMITS["on_base"])
_SPEED = (0.0, RATING_LIMITS["speed"][1] / 25)
_CONTROL = tuple(v / 10 for v in RATING_LIMITS["control"])
_FIELDING = RATING_LIMITS["fielding"]
_ROSTER = [(0, 1), (0, 1), (min(0.0, _ON_BASE[0], _CONTROL[0]), max(_ON_BASE[1], _CONTROL[1]))] \
    * rules.ROSTER
PIECES = situation_pieces(rules.DECISION_KINDS) + [
    ("level", 2, "one-hot level: basic, advanced"),
    ("dh", 1, "1 if the designated hitter is used"),
    ("runner_speed", 3, "Speed of the runner on first, second, third / 25 (0 if empty)", _SPEED),
    ("batter", 3, "batter's On-Base / 20, Speed / 25, 1 if a pitcher bats",
     [(min(0.0, _ON_BASE[0]), _ON_BASE[1]), _SPEED, (0, 1)]),
    ("batter_chart", 10, "batter's chart: " + _CHART),
    ("batter_icons", 4, "batter's icon uses left: V / 2, S, HR, and 1 if he has SB left"),
    ("pitcher", 7, "pitcher's Control / 10, Control bonus in force / 6, fatigue / 5, innings "
                   f"pitched in / 9, IP (with Cy Young bonus) / 9, runs charged (at most {MAX_COUNTED}) "
                   "/ 10, 1 if the starter",
     [(min(0.0, _CONTROL[0]), _CONTROL[1]), (0, 1), (0, MAX_COUNTED / 5), (0, MAX_COUNTED / 9),
      (0, (RATING_LIMITS["ip"][1] + MAX_COUNTED) / 9), (0, MAX_COUNTED / 10), (0, 1)]),
    ("pitcher_chart", 10, "pitcher's chart: " + _CHART),
    ("pitcher_icons", 4, "pitcher's icons available: K, 20 this inning, RP, 1 if he has CY"),
    ("advantage", 1, "probability the pitcher has the advantage on this pitch"),
    ("defense", 4, "fielding team's infield Fielding / 20, outfield Fielding / 10, catcher's "
                   "Arm / 10, Gold Gloves left on the field / 4",
     [(min(0.0, len(INFIELD) * _FIELDING[0] / 20), len(INFIELD) * _FIELDING[1] / 20),
      (min(0.0, len(OUTFIELD) * _FIELDING[0] / 10), len(OUTFIELD) * _FIELDING[1] / 10),
      (min(0.0, _FIELDING[0] / 10), _FIELDING[1] / 10), (0, len(FIELD_POSITIONS) / 4)]),
    ("can_remove", 2, "1 if own, the opponent's pitcher may be taken out (starter rules)"),
    ("own_roster", 3 * rules.ROSTER, "own roster players 0-24, three each: 1 if in the game now, "
     "1 if he may still come in, On-Base / 20 for hitters or Control / 10 for pitchers", _ROSTER),
    ("opp_roster", 3 * rules.ROSTER, "the opponent's roster, the same three each", _ROSTER),
    ("result", 10, "one-hot swing result this at-bat (PU ... HR), all 0 before the swing"),
    ("chart_read", 2, "one-hot whose chart the swing reads: pitcher's, batter's"),
    ("two_outs_before", 1, "1 if there were two outs when the swing was rolled"),
    ("extra_base", 4, "runners who may try (or were sent) for an extra base, lead then trailing: "
                      "Speed / 25, 1 if going home", [_SPEED, (0, 1), _SPEED, (0, 1)]),
]
OBS = ObservationSpec(PIECES)
_EXPERT_FIELDING = (min(-2, _FIELDING[0]) / 5, _FIELDING[1] / 5)
#: The expert game's observation: the advanced game's pieces (its level one-hot all 0, its
#: icon pieces all 0: "DO NOT USE THESE SPECIAL ABILITIES"), then these.
EXPERT_PIECES = [
    ("expert", 1, "1: the expert game"),
    ("expert_decision", len(rules.EXPERT_KINDS), "one-hot kind of the observing manager's pending "
     "expert decision: " + ", ".join(rules.EXPERT_KINDS) + " (all 0 otherwise)"),
    ("dh_in_use", 2, "1 if own, the opponent's team still has its designated hitter"),
    ("ip_lost", 1, f"IP the pitcher has lost to runs charged (one per 3, at most {MAX_COUNTED // 3}) / 9",
     (0, MAX_COUNTED // 3 / 9)),
    ("walk_or_bunt", 2, "1 if this at-bat is an intentional walk, a sacrifice bunt"),
    ("runner_subject", 3, "one-hot base (first, second, third) of the runner a pinch runner "
                          "would run for"),
    ("incoming", rules.ROSTER, "one-hot own roster player: the defensive replacement coming in "
                               "(replaced_player) or the new player choosing a batting spot"),
    ("own_fielding", rules.ROSTER, "own roster players in the field: Fielding (Arm for the "
                                   "catcher) at the position he plays / 5, 0 for the others",
     [_EXPERT_FIELDING] * rules.ROSTER),
]
OBS_EXPERT = ObservationSpec(PIECES + EXPERT_PIECES)


def card_pieces(k: int) -> list:
    """The strategy cards' pieces for a card set of ``k`` cards (after EXPERT_PIECES)."""
    return [
        ("hand", k, "own hand: copies of each card of the set / 4"),
        ("own_discards", k, "own discard pile (face up): copies of each card / 4"),
        ("opp_discards", k, "the opponent's discard pile: copies of each card / 4"),
        ("own_in_play", k, "own cards staying in play: copies of each card / 4"),
        ("opp_in_play", k, "the opponent's cards staying in play: copies of each card / 4"),
        ("own_played", k, "own cards played this at-bat: copies of each card / 4"),
        ("opp_played", k, "the opponent's cards played this at-bat: copies of each card / 4"),
        ("card_counts", 4, "own hand size, the opponent's hand size, own deck size, the "
                           "opponent's deck size, each / 60"),
        ("window", len(rules.WINDOWS), "one-hot card window open: before the pitch, on a result, "
                                       "after a result (all 0 when none)"),
        ("stealers", 2, "Speed / 25 of the runners a card sends to steal, lead then trailing, "
                        "while the catcher decides", [_SPEED, _SPEED]),
    ]


_CARD_SPECS: dict[int, ObservationSpec] = {}


#: With ``lineups="manager"``, after the level's pieces (and the cards'): the observing
#: manager's lineup picks while the lineups are set (lineup.py); all 0 once they are.
LINEUP_PIECES = [
    ("lineup_decision", len(LINEUP_KINDS), "one-hot kind of the observing manager's pending "
     "lineup decision: " + ", ".join(LINEUP_KINDS) + " (all 0 otherwise)"),
    ("lineup_position", len(FIELD_POSITIONS) + 1, "one-hot position being filled: C ... RF, DH"),
    ("lineup_spot", 9, "one-hot batting spot being filled: 1st ... 9th"),
    ("lineup_fielding", rules.ROSTER, "own roster players: Fielding (Arm at C; expert: -1 or "
     "-2 out of position at 1B) at the position being filled / 5, 0 for the others",
     [_EXPERT_FIELDING] * rules.ROSTER),
    ("lineup_picked", rules.ROSTER, "own roster players picked: position C=1 ... RF=8, DH=9, "
     "/ 9 (0 if not picked)"),
    ("lineup_spots", rules.ROSTER, "own roster players placed in the batting order: spot "
     "1-9 / 9 (0 if not yet)"),
    ("lineup_speed", rules.ROSTER, "own roster players' Speed / 25 (pitchers 0)", [_SPEED] * rules.ROSTER),
    ("lineup_power", rules.ROSTER, "own roster players' chart: 2B, 3B and HR counts / 20 "
     "(pitchers 0)"),
]
_LINEUP_SIZE = sum(piece[1] for piece in LINEUP_PIECES)


def with_lineups(spec: ObservationSpec) -> ObservationSpec:
    """``spec`` with :data:`LINEUP_PIECES` appended: the managers set the lineups."""
    return ObservationSpec(list(spec.declared) + LINEUP_PIECES)


def _lineup_piece(view: ShowdownView) -> np.ndarray:
    """The :data:`LINEUP_PIECES` of a view (all 0 once both lineups are set)."""
    out = np.zeros(_LINEUP_SIZE, dtype=np.float32)
    if view.pitcher >= 0 or view.lineups[0]:
        return out
    o = _LO
    seat = view.seat
    team = view.teams[seat]
    expert = view.level == "expert"
    picks = view.lineup_picks[seat]
    kind = view.decision if view.decision in LINEUP_KINDS else None
    if kind is not None:
        out[o["lineup_decision"] + LINEUP_KINDS.index(kind)] = 1.0
    n = len(FIELD_POSITIONS)
    position = None
    if kind == "lineup_position":
        position = FIELD_POSITIONS[view.subject]
        out[o["lineup_position"] + view.subject] = 1.0
    elif kind == "lineup_dh":
        out[o["lineup_position"] + n] = 1.0
    elif kind == "batting_order":
        out[o["lineup_spot"] + view.subject] = 1.0
    first = n + int(view.dh)
    for k, card in enumerate(team.players):
        if not isinstance(card, HitterCard):
            continue
        out[o["lineup_speed"] + k] = card.speed / 25.0
        counts = dict(zip(RESULTS, card.chart.counts))
        out[o["lineup_power"] + k] = (counts["2B"] + counts["3B"] + counts["HR"]) / 20.0
        if position is not None and (card.fielding(position) is not None
                                     or (expert and position == "1B")):
            out[o["lineup_fielding"] + k] = fielding_at(card, position, expert) / 5.0
    for i, k in enumerate(picks):
        if i < first:
            out[o["lineup_picked"] + k] = (i + 1) / 9.0
        else:
            out[o["lineup_spots"] + k] = (i - first + 1) / 9.0
    return out


#: In a series (``series=N``), after the level's pieces and before the core's series pieces:
#: what one game leaves the next beside the rotation (whose starter the pitcher pieces show).
REST_PIECES = [
    ("relief_rest", 2 * rules.ROSTER, "own, then the opponent's roster players 0-24: games in "
     "a row he pitched in relief just before this game, at most 2, / 2 (at 2 a reliever's "
     "or closer's IP starts at 0 in the expert game)"),
]


def with_rest(spec: ObservationSpec) -> ObservationSpec:
    """``spec`` with :data:`REST_PIECES` appended: a game of a series."""
    return ObservationSpec(list(spec.declared) + REST_PIECES)


def _rest_piece(streaks, seat: int) -> np.ndarray:
    out = np.zeros(2 * rules.ROSTER, dtype=np.float32)
    for i, t in enumerate((seat, 1 - seat)):
        for k, n in enumerate(streaks[t]):
            if n:
                out[i * rules.ROSTER + k] = min(n, 2) / 2.0
    return out


def obs_with_cards(k: int) -> ObservationSpec:
    """The expert game's observation with a card set of ``k`` cards."""
    if k not in _CARD_SPECS:
        _CARD_SPECS[k] = ObservationSpec(PIECES + EXPERT_PIECES + card_pieces(k))
    return _CARD_SPECS[k]
_LO = ObservationSpec(LINEUP_PIECES).offset
_lineup_rows = ObservationSpec(PIECES + LINEUP_PIECES).table().splitlines()
__doc__ = __doc__.replace("{lineup_more}", str(_LINEUP_SIZE)).replace(
    "{lineup_table}", "\n".join(_lineup_rows[:2] + _lineup_rows[-len(LINEUP_PIECES):]))
_expert_rows = OBS_EXPERT.table().splitlines()
_BUILT_IN_CARDS = len(load_card_set().cards)       # the docstring's card table: the built-in set
_card_rows = ObservationSpec(PIECES + EXPERT_PIECES + card_pieces(_BUILT_IN_CARDS)).table().splitlines()
_series_rows = ObservationSpec(PIECES + REST_PIECES + SERIES_PIECES).table().splitlines()
_SERIES_MORE = sum(piece[1] for piece in REST_PIECES + SERIES_PIECES)
__doc__ = __doc__.replace("{series_more}", str(_SERIES_MORE)).replace(
    "{expert_more}", str(OBS_EXPERT.size - OBS.size)).replace(
    "{series_sizes}", f"({OBS.size + _SERIES_MORE},) in the advanced game, "
    f"({OBS_EXPERT.size + _SERIES_MORE},) in the expert game, and with strategy decks "
    f"{OBS_EXPERT.size + sum(piece[1] for piece in card_pieces(0)) + _SERIES_MORE} + 7 x cards "
    f"({obs_with_cards(_BUILT_IN_CARDS).size + _SERIES_MORE} for the built-in set)").replace(
    "{series_table}", "\n".join(_series_rows[:2] + _series_rows[
        -len(REST_PIECES + SERIES_PIECES):]))
__doc__ = __doc__.replace("{table}", OBS.table()).replace(
    "{expert_table}", "\n".join(_expert_rows[:2] + _expert_rows[-len(EXPERT_PIECES):])).replace(
    "{card_table}", "\n".join(_card_rows[:2] + _card_rows[-len(card_pieces(_BUILT_IN_CARDS)):]))

_O = OBS.offset
(_LEVEL, _DH, _RUNNER_SPEED, _BATTER, _BATTER_ICONS, _PITCHER, _PITCHER_CHART, _PITCHER_ICONS,
 _ADVANTAGE, _DEFENSE, _CAN_REMOVE, _OWN, _OPP, _RESULT, _CHART_READ, _TWO_OUTS, _EXTRA_BASE) = (
    _O[name] for name in ("level", "dh", "runner_speed", "batter", "batter_icons", "pitcher",
                          "pitcher_chart", "pitcher_icons", "advantage", "defense", "can_remove",
                          "own_roster", "opp_roster", "result", "chart_read", "two_outs_before",
                          "extra_base"))
assert _O["batter_chart"] == _BATTER + 3     # _TeamCache.batter_rows fill both at once
#: the levels of the ``level`` one-hot (the expert game has its own piece, EXPERT_PIECES)
OBS_LEVELS = ("basic", "advanced")
_LEVEL_INDEX = {level: i for i, level in enumerate(OBS_LEVELS)}
_KIND_INDEX = {k: i for i, k in enumerate(rules.DECISION_KINDS)}
_RESULT_INDEX = {r: i for i, r in enumerate(RESULTS)}

#: the options
OPTIONS = ("level", "teams", "dh", "starter", "innings", "max_innings", "point_cap",
           "render_mode", "illegal_action", "dice", "decks", "card_set", "max_decisions",
           "series", "lineups")


def _chart_into(obs: np.ndarray, at: int, card) -> None:
    for i, n in enumerate(card.chart.counts):
        if n:
            obs[at + i] = n / 20.0


_RATINGS: dict[int, tuple[Any, np.ndarray]] = {}


def _ratings(team) -> np.ndarray:
    """On-Base / 20 (hitters) or Control / 10 (pitchers) per roster player, once per team."""
    known = _RATINGS.get(id(team))
    if known is None or known[0] is not team:
        values = np.array([c.on_base / 20.0 if isinstance(c, HitterCard) else c.control / 10.0
                           for c in team.players], dtype=np.float32)
        if len(_RATINGS) > 1024:
            _RATINGS.clear()
        known = _RATINGS[id(team)] = (team, values)
    return known[1]


def _encode_pitcher(obs: np.ndarray, view: ShowdownView, pitcher: PitcherCard, ft: int) -> None:
    o = _O["pitcher"]
    obs[o] = pitcher.control / 10.0
    obs[o + 1] = view.control_bonus / 6.0
    obs[o + 2] = view.fatigue / 5.0
    obs[o + 3] = view.innings_pitched / 9.0
    obs[o + 4] = (pitcher.ip + view.ip_bonus) / 9.0
    obs[o + 5] = counted(view.runs_charged) / 10.0
    obs[o + 6] = float(view.pitcher == view.starters[ft])
    _chart_into(obs, _O["pitcher_chart"], pitcher)
    pleft = view.icons_left[ft][view.pitcher]
    o = _O["pitcher_icons"]
    obs[o] = pleft.get("K", 0)
    icons = view.level != "expert"
    obs[o + 1] = float(icons and "20" in pitcher.icons and not view.twenty_used[ft])
    obs[o + 2] = pleft.get("RP", 0)
    obs[o + 3] = float(icons and "CY" in pitcher.icons)
    obs[_O["advantage"]] = view.pitcher_advantage()


def encode_view(view: ShowdownView) -> np.ndarray:
    """The observation vector of a view (the table in the module docstring)."""
    n_cards = len(view.card_names)
    spec = obs_with_cards(n_cards) if n_cards else OBS_EXPERT if view.level == "expert" else OBS
    obs = np.zeros(spec.size, dtype=np.float32)
    seat = view.seat
    encode_situation(obs, _O, seat, _KIND_INDEX.get(view.decision),
                     view.inning, view.half, view.outs, view.bases, view.runs)
    expert = view.level == "expert"
    if not expert:
        obs[_O["level"] + OBS_LEVELS.index(view.level)] = 1.0
    obs[_O["dh"]] = float(view.dh)
    speeds = view.runner_speeds
    for i in range(3):
        if view.bases[i] is not None:
            obs[_O["runner_speed"] + i] = speeds[i] / 25.0
    bt, ft = view.half, 1 - view.half
    batter = view.batter_card if view.batter >= 0 else None
    o = _O["batter"]
    if batter is None:
        pass
    elif isinstance(batter, PitcherCard):
        obs[o + 1] = batter.speed / 25.0
        obs[o + 2] = 1.0
    else:
        obs[o] = batter.on_base / 20.0
        obs[o + 1] = batter.speed / 25.0
        _chart_into(obs, _O["batter_chart"], batter)
    left = view.icons_left[bt][view.batter] if view.batter >= 0 else {}
    o = _O["batter_icons"]
    obs[o] = left.get("V", 0) / 2.0
    obs[o + 1] = left.get("S", 0)
    obs[o + 2] = left.get("HR", 0)
    obs[o + 3] = left.get("SB", 0)
    pitcher = view.pitcher_card
    if pitcher is not None:
        _encode_pitcher(obs, view, pitcher, ft)
    o = _O["defense"]

    obs[o] = view.infield / 20.0
    obs[o + 1] = view.outfield / 10.0
    gloves = 0
    for slot, pos in enumerate(view.positions[ft]):
        k = view.lineups[ft][slot]
        if pos == "C" and k >= 0:
            obs[o + 2] = (view.card(ft, k).fielding("C") or 0) / 10.0
        if pos in FIELD_POSITIONS and k >= 0:
            gloves += view.icons_left[ft][k].get("G", 0)
    obs[o + 3] = gloves / 4.0
    obs[_O["can_remove"]] = float(view.can_remove_starter[seat])
    obs[_O["can_remove"] + 1] = float(view.can_remove_starter[1 - seat])
    for name, team in (("own_roster", seat), ("opp_roster", 1 - seat)):
        o = _O[name]
        obs[o + 2:o + 3 * rules.ROSTER:3] = _ratings(view.teams[team])
        for k in view.lineups[team]:
            if k >= 0:
                obs[o + 3 * k] = 1.0
        if view.pitchers[team] >= 0:
            obs[o + 3 * view.pitchers[team]] = 1.0
        for k in view.bench[team]:
            obs[o + 3 * k + 1] = 1.0
        for k in view.bullpen[team]:
            obs[o + 3 * k + 1] = 1.0
    if view.result is not None:
        obs[_O["result"] + _RESULT_INDEX[view.result]] = 1.0
    if view.chart is not None:
        obs[_O["chart_read"] + (0 if view.chart == "P" else 1)] = 1.0
    obs[_O["two_outs_before"]] = float(view.outs_before == 2)
    runners = view.sent or view.eligible
    o = _O["extra_base"]
    for i, r in enumerate(runners[:2]):
        if r in view.bases:
            obs[o + 2 * i] = view.card(bt, r).speed / 25.0
            obs[o + 2 * i + 1] = float(view.bases.index(r) == 2)
    if expert:
        _encode_expert(obs, seat, view.decision, view.subject, view.dh_in_use, view.ip_lost,
                       view.ibb, view.bunt, view.positions[seat], view.lineups[seat],
                       view.teams[seat].players)
    if n_cards:
        _encode_cards(obs, spec.offset, seat, {name: getattr(view, name) for name in _CARD_FIELDS},
                      view.teams[view.half].players)
    if view.lineup_setting == "manager":
        obs = np.concatenate([obs, _lineup_piece(view)])
    if view.relief_streak[0]:           # a game of a series
        obs = np.concatenate([obs, _rest_piece(view.relief_streak, seat)])
    return obs


#: the strategy-card fields of a view that the card pieces are encoded from (view.py's
#: ``_card_fields`` reads the same off a game)
_CARD_FIELDS = ("card_names", "hand", "discards", "in_play", "played", "hand_sizes", "deck_sizes",
                "window", "stealers")


def _encode_cards(obs: np.ndarray, o: dict, seat: int, cards: dict, batters) -> None:
    """The strategy cards' pieces (card_pieces) from the cards a manager sees (``_CARD_FIELDS``
    by name); ``batters``: the batting team's cards (the stealers' Speed)."""
    k = len(cards["card_names"])
    discards, in_play, played = cards["discards"], cards["in_play"], cards["played"]
    for name, values in (("hand", cards["hand"]), ("own_discards", discards[seat]),
                         ("opp_discards", discards[1 - seat]),
                         ("own_in_play", in_play[seat]), ("opp_in_play", in_play[1 - seat]),
                         ("own_played", played[seat]), ("opp_played", played[1 - seat])):
        obs[o[name]:o[name] + k] = np.asarray(values, dtype=np.float32) / 4.0
    c = o["card_counts"]
    hand_sizes, deck_sizes = cards["hand_sizes"], cards["deck_sizes"]
    obs[c] = hand_sizes[seat] / 60.0
    obs[c + 1] = hand_sizes[1 - seat] / 60.0
    obs[c + 2] = deck_sizes[seat] / 60.0
    obs[c + 3] = deck_sizes[1 - seat] / 60.0
    if cards["window"]:
        obs[o["window"] + rules.WINDOWS.index(cards["window"])] = 1.0
    for i, r in enumerate(cards["stealers"][:2]):
        obs[o["stealers"] + i] = batters[r].speed / 25.0


_EXPERT_INDEX = {k: i for i, k in enumerate(rules.EXPERT_KINDS)}
_XO = OBS_EXPERT.offset


def _encode_expert(obs: np.ndarray, seat: int, decision: str | None, subject: int,
                   dh_in_use: tuple[bool, bool], ip_lost: int, ibb: bool, bunt: bool,
                   positions, lineup, players) -> None:
    """The expert game's pieces (EXPERT_PIECES): ``decision`` and ``subject`` are the
    observing manager's pending decision (None, -1 if none); ``positions``, ``lineup`` and
    ``players`` are his team's."""
    obs[_XO["expert"]] = 1.0
    kind = _EXPERT_INDEX.get(decision)
    if kind is not None:
        obs[_XO["expert_decision"] + kind] = 1.0
    obs[_XO["dh_in_use"]] = float(dh_in_use[seat])
    obs[_XO["dh_in_use"] + 1] = float(dh_in_use[1 - seat])
    obs[_XO["ip_lost"]] = min(ip_lost, MAX_COUNTED // 3) / 9.0
    obs[_XO["walk_or_bunt"]] = float(ibb)
    obs[_XO["walk_or_bunt"] + 1] = float(bunt)
    if decision == "pinch_runner":
        obs[_XO["runner_subject"] + subject] = 1.0
    if decision in ("replaced_player", "batting_slot"):
        obs[_XO["incoming"] + subject] = 1.0
    o = _XO["own_fielding"]
    for slot, pos in enumerate(positions):
        k = lineup[slot]
        if pos in FIELD_POSITIONS and k >= 0:
            obs[o + k] = fielding_at(players[k], pos, True) / 5.0


# -- the observation read off the state (ShowdownEnv._encode) ----------------------------------
# encode_view(view_of(state, seat)) without building the view: what changes only with a
# team's lineup, positions or substitutions (the roster blocks, the defense) is kept between
# decisions; tests/test_showdown_observation.py checks the two agree byte for byte.
_ROSTER_SIZE = 3 * rules.ROSTER


class _TeamCache:
    """One team's static rows (each player as a batter, each chart) and its last roster
    block and defense, with what they were made from."""

    __slots__ = ("team", "expert", "batter_rows", "charts", "ratings", "substitutes", "gloves",
                 "last_block", "last_defense")

    def __init__(self, team, expert: bool) -> None:
        self.team = team
        #: the expert game's Fielding (first base open to every hitter, fielding_at)
        self.expert = expert
        self.batter_rows = []
        self.charts = []
        for card in team.players:
            row = np.zeros(13, dtype=np.float32)
            if isinstance(card, PitcherCard):
                row[1] = card.speed / 25.0
                row[2] = 1.0
            else:
                row[0] = card.on_base / 20.0
                row[1] = card.speed / 25.0
                _chart_into(row, 3, card)
            self.batter_rows.append(row)
            chart = np.zeros(10, dtype=np.float32)
            _chart_into(chart, 0, card)
            self.charts.append(chart)
        #: the roster block with only the ratings filled in (every third value)
        self.ratings = np.zeros(_ROSTER_SIZE, dtype=np.float32)
        self.ratings[2::3] = _ratings(team)
        hitters, relief = roster._roster_parts(team)
        #: who may come into a game (hitters, relievers and closers) until he has entered it
        self.substitutes = hitters + relief
        #: the players whose cards have a Gold Glove icon
        self.gloves = frozenset(k for k, card in enumerate(team.players) if "G" in card.icons)
        # the last answer of block() and fielders() with what it was made from (copies): asked
        # again and again between substitutions, and quick to work out again after one
        self.last_block: tuple | None = None
        self.last_defense: tuple | None = None

    def block(self, lineup: list[int], pitcher: int, used: list[bool]) -> np.ndarray:
        """The roster block: in the game now, may still come in, rating (three per player)."""
        last = self.last_block
        if last is not None and pitcher == last[1] and lineup == last[0] and used == last[2]:
            return last[3]
        block = self.ratings.copy()
        for k in lineup:
            if k >= 0:
                block[3 * k] = 1.0
        if pitcher >= 0:
            block[3 * pitcher] = 1.0
        for k in self.substitutes:
            if not used[k]:
                block[3 * k + 1] = 1.0
        self.last_block = (list(lineup), pitcher, list(used), block)
        return block

    def fielders(self, lineup: list[int], positions: list[str]) -> tuple:
        """(infield / 20, outfield / 10, catcher's Arm / 10, the players in the field with a
        Gold Glove icon on their cards)."""
        last = self.last_defense
        if last is not None and lineup == last[0] and positions == last[1]:
            return last[2]
        players = self.team.players
        infield = outfield = 0
        arm = 0.0
        fielders = []
        for slot, pos in enumerate(positions):
            k = lineup[slot]
            if pos in INFIELD:
                infield += fielding_at(players[k], pos, self.expert)
            elif pos in OUTFIELD:
                outfield += fielding_at(players[k], pos, self.expert)
            if pos == "C" and k >= 0:
                arm = (players[k].fielding("C") or 0) / 10.0
            if pos in FIELD_POSITIONS and k >= 0 and k in self.gloves:
                fielders.append(k)
        known = (infield / 20.0, outfield / 10.0, arm, tuple(fielders))
        self.last_defense = (list(lineup), list(positions), known)
        return known


class ShowdownEnv(BaseballAECEnv, name="showdown_v0", actions=rules.ACTIONS, obs=OBS,
                  view=ShowdownView, encode_view=encode_view, max_decisions=10_000,
                  plays_series=True):
    def __init__(self, level: str = "advanced", teams: Any = ("nya2004", "bos2004"),
                 dh: bool | None = None, starter: int | None = None, innings: int = 9,
                 max_innings: int | None = None, point_cap: int | None = POINT_CAP,
                 render_mode: str | None = None, illegal_action: str = "raise",
                 dice: ScriptedDice | None = None, decks: Any = None, card_set: Any = None,
                 max_decisions: int | None = None, series: Any = None, lineups: str = "file",
                 **unknown: Any):
        check_options("showdown_v0", unknown, OPTIONS)
        if level not in rules.LEVELS:
            raise OptionError(f"showdown_v0: level must be one of {list(rules.LEVELS)}, got {show(level)}")
        if not isinstance(lineups, str) or lineups not in lineup.LINEUP_SETTINGS:
            raise OptionError(f"showdown_v0: lineups must be one of {list(lineup.LINEUP_SETTINGS)} "
                              f"(the team files' or the managers'), got {show(lineups)}")
        if lineups == "manager" and level == "basic":
            raise OptionError("showdown_v0: lineups='manager' is for the advanced and expert games "
                              "(the basic game's lineups come from the team files); got level='basic'")
        self.card_set, self.decks = None, None
        if decks is not None:
            if level != "expert":
                raise OptionError(f"showdown_v0: strategy decks are the expert game's; use "
                                  f"level='expert' (got level={show(level)})")
            pair = decks if isinstance(decks, (tuple, list)) else (decks, decks)
            if len(pair) != 2:
                raise OptionError(f"showdown_v0: decks must be one deck for both managers or an "
                                  f"(away, home) pair, got {len(pair)}")
            if card_set is None:        # the built-in set the decks name (default: the 44)
                named = {deck_card_set(d) for d in pair if d is not None}
                card_set = "hooks" if "hooks" in named else None
            card_set_ = load_card_set(card_set)
            # "Strategy cards are used only if you and your opponent both have strategy
            # decks": with one deck (the other None) the game is played without cards
            loaded = tuple(None if d is None else load_deck(d, card_set_) for d in pair)
            if None not in loaded:
                self.card_set, self.decks = card_set_, loaded
                self.ACTION_MEANINGS = rules.action_labels(self.card_set)
                self.OBS = obs_with_cards(len(self.card_set.cards))
        elif card_set is not None:
            raise OptionError("showdown_v0: card_set needs decks (the cards are played only when "
                              "both managers have a deck)")
        if level == "expert" and self.decks is None:
            self.OBS = OBS_EXPERT           # the spaces below are built from it
        if lineups == "manager":
            self.OBS = with_lineups(self.OBS)
        if series is not None:
            if level == "basic":
                raise OptionError("showdown_v0: series is played at the advanced and expert "
                                  "levels (the rotation and reliever rest are their rules; the "
                                  "basic game's managers choose each game's starter); got "
                                  "level='basic'")
            self.OBS = with_rest(self.OBS)
        super().__init__(render_mode=render_mode, illegal_action=illegal_action, dice=dice,
                         max_decisions=max_decisions, series=series)
        innings, max_innings = check_innings("showdown_v0", innings, max_innings)
        if dh is not None and not isinstance(dh, bool):
            raise OptionError(f"showdown_v0: dh must be True, False or None (the home team's "
                              f"rules), got {show(dh)}")
        if starter is not None:
            spot = as_int(starter)
            if spot is None or spot not in (1, 2, 3, 4):
                raise OptionError(f"showdown_v0: starter must be 1-4 (the rotation spot) or None "
                                  f"(the home team rolls), got {show(starter)}")
            starter = spot
        point_cap = check_point_cap("showdown_v0", point_cap)
        check_pair("showdown_v0", "teams", teams)
        loaded = tuple(load_team(t, point_cap=point_cap) for t in teams)   # a team may play itself
        self.level = level
        self.lineups = lineups
        self.teams = loaded
        self.dh = dh
        self.starter = starter
        self.innings = innings
        self.max_innings = max_innings
        self._caches: tuple[_TeamCache, _TeamCache] | None = None
        # per seat: (own block, opponent's block, DH rule, card set, level, an observation
        # holding only the blocks, the level and the DH): what _encode starts from while none of
        # them changes (neither team substitutes)
        self._blanks: list[tuple | None] = [None, None]

    # -- engine hooks -------------------------------------------------------------------
    def _new_game(self, seed: int, carry: Any = None) -> GameState:
        series = {}
        if self.series_format is not None:      # a series: game 1 rested, then the carry
            series = {"relief_streak": [[0] * rules.ROSTER, [0] * rules.ROSTER]}
            if carry is not None:
                series = {"relief_streak": carry["relief_streak"],
                          "rotation": tuple(carry["rotation"])}
        return rules.new_game(self.teams, self._dice(seed), lineups=self.lineups,
                               level=self.level, dh=self.dh,
                              starter=self.starter, innings=self.innings,
                              max_innings=self.max_innings, decks=self.decks,
                              card_set=self.card_set, **series)

    def _carry_over(self, finished: GameState, series) -> dict[str, Any]:
        """The next game's rotation spots and relief streaks (``rules.series_carry``), and
        the box scores of the games played so far."""
        before = [] if series.carry is None else series.carry["box_scores"]
        return {**rules.series_carry(finished),
                "box_scores": before + [finished.box.summary(finished.board)]}

    def series_box_scores(self) -> dict[str, Any] | None:
        """In a series (None otherwise): ``{"games": [each game's box score, the one under
        way last], "totals": the series' batting and pitching lines}``: each player's
        counts summed over the games (by team and name, in order of first appearance;
        innings pitched as outs recorded, ``"outs"``), and the runs and hits per team."""
        if self.series_ is None:
            return None
        games = list(self.series_.carry["box_scores"]) if self.series_.carry else []
        games.append(self.box_score())
        return {"games": games, "totals": series_totals(games)}

    def restore(self, state) -> None:
        """As :meth:`BaseballAECEnv.restore`, and a game played under other options than
        this env's is refused (:meth:`_check_game_state`): a ``DataError`` names the option.
        In a series the saved record and its game must agree too: game 1 starts with no
        reliever's games in a row, a later game carries the box score of each game before it."""
        if (isinstance(state, SeriesGame) and isinstance(state.game, GameState)
                and (state.series.length, state.series.best_of) == self.series_format):
            self._check_series_record(state)
        super().restore(state)

    def _check_game_state(self, state: Any, what: str) -> None:
        """A game of this ruleset (the base class's check), played under this env's options:
        the level, the DH rule (when ``dh`` is given), strategy cards or none (and their card
        set), the innings, and a series' game or a single game (what the observation's layout
        follows). The teams are the game's own, as ever."""
        super()._check_game_state(state, what)
        name = "showdown_v0: the restored game"
        if state.level != self.level:
            raise DataError(f"{name} is played at level={state.level!r}, this env's level is "
                            f"{self.level!r}")
        # dh=None defers to the teams, and a restored game brings its own (and may have been
        # set up with either rule, as rules.new_game allows): only a DH rule given is compared
        if self.dh is not None and state.dh != self.dh:
            raise DataError(f"{name} is played with dh={state.dh}, this env's dh is {self.dh}")
        if (state.card_set is None) != (self.card_set is None):
            raise DataError(f"{name} is played {'without' if state.card_set is None else 'with'} "
                            f"strategy cards, this env {'with' if self.card_set else 'without'} "
                            f"(its decks={'None' if self.card_set is None else 'a pair'})")
        if state.card_set is not None and state.card_set.names != self.card_set.names:
            raise DataError(f"{name}'s strategy cards are another card set "
                            f"({len(state.card_set.names)} cards) than this env's card_set "
                            f"({len(self.card_set.names)} cards)")
        if state.lineup_setting != self.lineups:
            raise DataError(f"{name} is played with lineups={state.lineup_setting!r}, this env's "
                            f"lineups is {self.lineups!r}")
        board = state.board
        for option in ("innings", "max_innings"):
            if getattr(board, option) != getattr(self, option):
                raise DataError(f"{name} is played with {option}={getattr(board, option)}, this "
                                f"env's {option} is {getattr(self, option)}")
        in_series = bool(state.relief_streak[0] or state.relief_streak[1])
        if in_series != (self.series_format is not None):
            raise DataError(f"{name} is {'a game of a series' if in_series else 'a single game'} "
                            f"(its relief_streak), this env's series is "
                            f"{show(self.series_format and self.series_format[0])}")

    def _check_series_record(self, saved: SeriesGame) -> None:
        """A saved series' record agrees with its game: game 1 starts with every reliever's
        streak at 0 ("his IP starts at 0" needs two games pitched before), a later game
        carries one box score per game played before it (and the carry's checks,
        ``checks.validate_carry``)."""
        series, game = saved.series, saved.game
        if series.carry is None:
            if any(any(row) for row in game.relief_streak):
                raise DataError("showdown_v0: the restored series is at game 1, whose relief_"
                                "streak is all 0 (nobody has pitched in the series yet)")
            return
        game.validate_carry(series.carry)
        played = series.game - 1
        boxes = len(series.carry["box_scores"])
        if boxes != played:
            raise DataError(f"showdown_v0: the restored series is at game {series.game}: its "
                            f"carry holds {played} box score(s), one a game played, got {boxes}")

    def _apply(self, action: int) -> None:
        rules.apply_action(self.state_, action)

    def _view(self, seat: int) -> ShowdownView:
        return view_of(self.state_, seat)

    def _team_caches(self) -> tuple[_TeamCache, _TeamCache]:
        teams = self.state_.teams
        expert = self.state_.level == "expert"
        caches = self._caches
        if (caches is None or caches[0].team is not teams[0] or caches[1].team is not teams[1]
                or caches[0].expert != expert):
            caches = self._caches = (_TeamCache(teams[0], expert), _TeamCache(teams[1], expert))
            self._blanks = [None, None]
        return caches

    def _encode(self, seat: int) -> np.ndarray:
        """``encode_view(view(seat))``, read off the state without building the view (the
        table in the module docstring), at every level (tests/test_showdown_observation.py
        checks the two agree byte for byte, before every rule and at every decision)."""
        s = self.state_
        if s.step == "set_lineups":     # the managers set their lineups: no game on the board yet
            return encode_view(view_of(s, seat))
        expert = s.level == "expert"
        caches = self._team_caches()
        b, d, ab = s.board, s.pending, s.ab
        bases = b.bases
        bt = b.half
        ft = 1 - bt
        own = caches[seat].block(s.lineup[seat], s.pitcher[seat], s.used[seat])
        opp = caches[1 - seat].block(s.lineup[1 - seat], s.pitcher[1 - seat], s.used[1 - seat])
        blank = self._blanks[seat]
        if (blank is None or blank[0] is not own or blank[1] is not opp or blank[2] != s.dh
                or blank[3] is not s.card_set or blank[4] != s.level):
            n_cards = 0 if s.card_set is None else len(s.card_set.cards)
            size = (obs_with_cards(n_cards) if n_cards else OBS_EXPERT if expert else OBS).size
            blank = np.zeros(size, dtype=np.float32)
            if not expert:
                blank[_LEVEL + _LEVEL_INDEX[s.level]] = 1.0
            blank[_DH] = float(s.dh)
            blank[_OWN:_OWN + _ROSTER_SIZE] = own
            blank[_OPP:_OPP + _ROSTER_SIZE] = opp
            blank = self._blanks[seat] = (own, opp, s.dh, s.card_set, s.level, blank)
        obs = blank[5].copy()
        mine = d is not None and d.actor == seat and not b.over
        encode_situation(obs, _O, seat, _KIND_INDEX.get(d.kind) if mine else None,
                         b.inning, bt, b.outs, bases, b.runs)
        players = s.teams[bt].players
        for i in range(3):
            r = bases[i]
            if r is not None:
                obs[_RUNNER_SPEED + i] = players[r].speed / 25.0
        k = s.lineup[bt][s.order[bt]]
        if k >= 0:      # (-1: the pitcher's spot before the starters take the mound)
            obs[_BATTER:_BATTER + 13] = caches[bt].batter_rows[k]
            left = s.icons_left[bt][k]
            if left:
                obs[_BATTER_ICONS] = left.get("V", 0) / 2.0
                obs[_BATTER_ICONS + 1] = left.get("S", 0)
                obs[_BATTER_ICONS + 2] = left.get("HR", 0)
                obs[_BATTER_ICONS + 3] = left.get("SB", 0)
        p = s.pitcher[ft]
        if p >= 0:      # the pitcher's piece (_encode_pitcher for a view); the game is on
            batter = players[k]
            pitcher = caches[ft].team.players[p]
            control = rules.effective_control(s, ft, p)
            fatigue = rules.fatigue(s, ft, p)
            obs[_PITCHER] = pitcher.control / 10.0
            obs[_PITCHER + 1] = (control - pitcher.control) / 6.0
            obs[_PITCHER + 2] = fatigue / 5.0
            obs[_PITCHER + 3] = len(s.innings_pitched[ft][p]) / 9.0
            obs[_PITCHER + 4] = (pitcher.ip + s.ip_bonus[ft][p]) / 9.0
            obs[_PITCHER + 5] = counted(s.runs_charged[ft][p]) / 10.0
            obs[_PITCHER + 6] = float(p == s.starter[ft])
            obs[_PITCHER_CHART:_PITCHER_CHART + 10] = caches[ft].charts[p]
            left = s.icons_left[ft][p]
            obs[_PITCHER_ICONS] = left.get("K", 0)
            if not expert:      # "DO NOT USE THESE SPECIAL ABILITIES" (its icons_left are empty)
                obs[_PITCHER_ICONS + 1] = float("20" in pitcher.icons
                                                and s.twenty_inning[ft] != b.inning)
                obs[_PITCHER_ICONS + 3] = float("CY" in pitcher.icons)
            obs[_PITCHER_ICONS + 2] = left.get("RP", 0)
            if isinstance(batter, PitcherCard):
                obs[_ADVANTAGE] = 1.0
            else:
                obs[_ADVANTAGE] = rules.pitcher_advantage_probability(control, fatigue,
                                                                      batter.on_base)
        defense = caches[ft].fielders(s.lineup[ft], s.pos[ft])
        obs[_DEFENSE] = defense[0]
        obs[_DEFENSE + 1] = defense[1]
        obs[_DEFENSE + 2] = defense[2]
        icons = s.icons_left[ft]
        gloves = 0
        for f in defense[3]:            # the fielders with a G icon on their cards
            gloves += icons[f].get("G", 0)
        obs[_DEFENSE + 3] = gloves / 4.0
        obs[_CAN_REMOVE] = float(roster.can_remove_starter(s, seat))
        obs[_CAN_REMOVE + 1] = float(roster.can_remove_starter(s, 1 - seat))
        if ab.result is not None:
            obs[_RESULT + _RESULT_INDEX[ab.result]] = 1.0
        if ab.chart is not None:
            obs[_CHART_READ + (0 if ab.chart == "P" else 1)] = 1.0
        obs[_TWO_OUTS] = float((b.outs if ab.outs_before is None else ab.outs_before) == 2)
        runners = ab.sent or ab.eligible
        for i, r in enumerate(runners[:2]):
            if r in bases:
                obs[_EXTRA_BASE + 2 * i] = players[r].speed / 25.0
                obs[_EXTRA_BASE + 2 * i + 1] = float(bases.index(r) == 2)
        if expert:
            _encode_expert(obs, seat, d.kind if mine else None, d.subject if mine else -1,
                           (s.pitcher_slot[0] < 0, s.pitcher_slot[1] < 0),
                           s.runs_charged[ft][p] // 3 if p >= 0 else 0, ab.ibb, ab.bunt,
                           s.pos[seat], s.lineup[seat], s.teams[seat].players)
            if s.card_set is not None:
                _encode_cards(obs, obs_with_cards(len(s.card_set.cards)).offset, seat,
                              _card_fields(s, seat), players)
        if s.lineup_setting == "manager":       # LINEUP_PIECES: all 0 once the lineups are set
            obs = np.concatenate([obs, np.zeros(_LINEUP_SIZE, dtype=np.float32)])
        if self.series_format is not None:      # a game of a series (REST_PIECES)
            obs = np.concatenate([obs, _rest_piece(s.relief_streak, seat)])
        return obs

    def _option_labels(self, decision: Decision) -> dict[int, str]:
        if decision.kind in LINEUP_KINDS:
            return lineup.option_labels(self.state_, decision)
        return rules.option_labels(self.state_, decision)

    # -- text -----------------------------------------------------------------------------
    def _scene(self):
        """What ``render_mode="rgb_array"`` draws (see :mod:`.picture`)."""
        from .picture import scene
        return scene(self, describe_play)

    def _render_text(self) -> str:
        s = self.state_
        b = s.board
        lines = [s.box.render_line_score(b), ""]
        if b.over:
            lines.append(self._result_line([t.name for t in s.teams]))
        elif s.step == "set_lineups":
            lines.append("The managers are setting their starting lineups (each is shown once "
                         "both are set).")
            if s.pending is not None:
                lines.append(self._decision_text())
        else:
            bt, ft = b.half, 1 - b.half
            half = "Top" if b.half == 0 else "Bottom"
            runners = [f"{BASE_NAMES[i]} ({s.card(bt, r).name}, Speed {s.card(bt, r).speed})"
                       for i, r in enumerate(b.bases) if r is not None]
            lines.append(f"{half} of the {ordinal(b.inning)}, {b.outs} out, "
                         + ("bases empty" if not runners else "runners on " + ", ".join(runners)) + ".")
            batter = s.card(bt, s.batter_index)
            p = s.pitcher[ft]
            ob = "a pitcher batting" if isinstance(batter, PitcherCard) else f"On-Base {batter.on_base}"
            if p < 0:                           # no pitcher yet: the starters are being chosen
                lines.append(f"{batter.name} ({ob}) leads off; {s.teams[ft].name} have not "
                             f"named their starting pitcher yet.")
            else:
                pitcher = s.card(ft, p)
                lines.append(f"{batter.name} ({ob}) faces {pitcher.name} (Control "
                             f"{pitcher.control}, IP {pitcher.ip}, fatigue -{rules.fatigue(s, ft, p)}).")
            if s.pending is not None:
                lines.append(self._decision_text())
        lines.append("")
        lines.append(self.play_by_play(last=6))
        return "\n".join(lines)

    def play_by_play(self, last: int | None = None) -> str:
        """The play log by half inning, in the rulebook's terms (pitch, chart, swing, result)."""
        s = self.state_
        return s.log.render_by_half([t.name for t in s.teams],
                                    lambda i, p: describe_play(s, p, s.log_extra[i]), last)

    def scorecard(self) -> str:
        """Line score, both batting cards, both pitching lines and the play-by-play."""
        s = self.state_
        innings = max(9, s.board.innings)
        return "\n".join([s.box.render_line_score(s.board), "",
                          s.box.render_scorecard(0, innings, label_header="Pos"), "",
                          s.box.render_pitching(0), "",
                          s.box.render_scorecard(1, innings, label_header="Pos"), "",
                          s.box.render_pitching(1), "", self.play_by_play()])


def series_totals(games: list[dict[str, Any]]) -> dict[str, Any]:
    """A series' box score: the games' batting and pitching lines summed per team and
    player name (see :meth:`ShowdownEnv.series_box_scores`)."""
    batting: list[dict[str, dict]] = [{}, {}]
    pitching: list[dict[str, dict]] = [{}, {}]
    runs, hits = [0, 0], [0, 0]
    for g in games:
        for t in (0, 1):
            runs[t] += g["runs"][t]
            hits[t] += g["hits"][t]
            for line in g["batting"][t]:
                row = batting[t].setdefault(line["name"], {"name": line["name"], "G": 0})
                row["G"] += 1
                for key, value in line.items():
                    if key != "name":
                        row[key] = row.get(key, 0) + value
            for line in g.get("pitching", [[], []])[t]:
                row = pitching[t].setdefault(line["name"], {"name": line["name"], "G": 0,
                                                            "outs": 0})
                row["G"] += 1
                whole, _, thirds = line["IP"].partition(".")
                row["outs"] += 3 * int(whole) + int(thirds or 0)
                for key, value in line.items():
                    if key not in ("name", "IP"):
                        row[key] = row.get(key, 0) + value
    return {"teams": list(games[0]["teams"]) if games else [], "games": len(games),
            "runs": runs, "hits": hits,
            "batting": [list(b.values()) for b in batting],
            "pitching": [list(p.values()) for p in pitching]}


def _other_sizes() -> str:
    """The summary table's note on the observation sizes besides OBS's: the expert game's,
    and with strategy decks (a piece per card, and the built-in set's size)."""
    fixed = OBS_EXPERT.size + sum(piece[1] for piece in card_pieces(0))
    per_card = OBS_EXPERT.size + sum(piece[1] for piece in card_pieces(1)) - fixed
    return (f" (basic, advanced), ({OBS_EXPERT.size},) (expert) or {fixed} + {per_card} x cards with "
            f"strategy decks ({fixed + per_card * _BUILT_IN_CARDS} for the built-in set); "
            f"{_SERIES_MORE} more in a series")


__doc__ = __doc__.replace("{summary}", summary_table(
    ShowdownEnv, _other_sizes(), f" ({len(rules.ACTIONS)} + cards with decks)"))


_ICON_TEXT = {
    "icon_K": "{name} used his K icon: the result became a strikeout",
    "icon_V": "{name} used his V icon to reroll an out",
    "icon_S": "{name} used his S icon: the single became a double",
    "icon_HR": "{name} used his HR icon: the hit became a home run",
    "icon_20": "{name} used his 20 icon: +3 Control on this pitch",
    "icon_RP": "{name} used his RP icon: +3 Control this inning",
    "icon_G": "{name} used his Gold Glove: +10 Fielding on this play",
    "cy_young": "{name} went 1-2-3: +1 IP (Cy Young)",
}


def describe_play(state: GameState, play: Play, extra: tuple) -> str:
    """One sentence for a play, in the rulebook's terms."""
    bt, ft = play.half, 1 - play.half
    names = [c.name for c in state.teams[bt].players]

    def name(team, k):
        return state.teams[team].players[k].name

    if play.kind == "pa" and extra[0] == "IBB":
        return ", ".join([f"{names[play.actor]} was intentionally walked",
                          *runner_movements(play, names)]) + "."
    if play.kind == "pa" and extra[0] == "bunt":
        verb = "popped up the bunt" if play.detail == "PU" else "sacrificed"
        text = f"{names[play.actor]} {verb} (bunt: swing {extra[2]} on the pitcher's chart: {extra[3]})"
        return ", ".join([text, *runner_movements(play, names)]) + "."
    if play.kind == "pa":
        pitch, chart, swing, result = extra
        how = ("a pitcher bats: no pitch" if pitch is None else f"pitch {pitch}")
        chart_text = "pitcher's chart" if chart == "P" else "batter's chart"
        text = (f"{names[play.actor]} {rules.OUTCOMES[play.detail].verb} "
                f"({how}, {chart_text}, swing {swing}: {result})")
        words = runner_movements(play, names)
        return ", ".join([text, *words]) + "."
    if play.kind == "steal":
        how = {"1B+": "on his 1B+", "card": "on a strategy card"}.get(play.detail, "with his SB icon")
        return f"{names[play.actor]} stole {BASE_NAMES[play.base]} {how}."
    if play.kind == "caught_stealing":
        return (f"{names[play.actor]} was thrown out stealing {BASE_NAMES[play.base]} "
                f"(catcher's throw {play.detail}).")
    if play.kind == "card":                 # actor: the team that played it
        return f"{state.teams[play.actor].name} played {play.detail}."
    if play.kind == "fielding_check":
        return f"Fielding check: {play.detail} (roll {play.roll})."
    if play.kind == "card_advance":
        return ", ".join(["The runners moved up", *runner_movements(play, names)]) + "."
    if play.kind == "card_out":
        return f"{names[play.actor]} was put out on a strategy card."
    if play.kind in ("thrown_out", "extra_base"):
        where = BASE_NAMES[play.base]
        verb = "was thrown out trying for" if play.kind == "thrown_out" else "took"
        target = "home" if play.base == 3 else where
        text = f"{names[play.actor]} {verb} {target} (throw {play.detail})"
        return ", ".join([text, *runner_movements(play, names)]) + "."
    if play.kind == "pinch_hitter":
        return f"{name(bt, play.actor)} pinch hit for {name(bt, int(play.detail))}."
    if play.kind == "pinch_runner":
        return f"{name(bt, play.actor)} ran for {name(bt, int(play.detail))}."
    if play.kind == "defensive_replacement":    # the fielding team's
        return f"{name(ft, play.actor)} came in to field for {name(ft, int(play.detail))}."
    if play.kind == "dh_to_field":
        return (f"{name(ft, play.actor)}, the DH, took the field for {name(ft, int(play.detail))}; "
                f"the pitcher bats in his place, the DH is lost.")
    if play.kind == "pitching_change":      # always the fielding team's
        return f"{name(ft, play.actor)} came in to pitch for {name(ft, int(play.detail))}."
    team = ft if play.kind in ("icon_K", "icon_20", "icon_RP", "icon_G", "cy_young") else bt
    return _ICON_TEXT[play.kind].format(name=name(team, play.actor)) + "."
