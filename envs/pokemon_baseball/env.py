"""Pokemon Baseball (Rule 2.3E): dice charts over creatures' HP, level, attack and retreat,
with lineups, substitutions, steals, bunts, tag-ups, injuries and pitcher rest.

{summary}

## Creation

```python
env = pokemon_baseball_v0.env(teams=("harbor", "summit"), creatures=None, innings=9,
                              max_innings=None, dh=False, edge="ge", rest_by="innings",
                              bench="roster", used_twice="roster+reentry", series=None,
                              max_decisions=None)
```

`teams` is a pair (away, home), each a built-in team name ({teams}), a path to a
JSON file or a dict (see `dugout.envs.pokemon_baseball.cards`); `creatures` adds a
creature set (a path or a dict) to the built-in one that team files name their creatures
from (a creature of the same id replaces the built-in one). A team is its whole game roster: 9 to 17 creatures ("17 Pokemon can be on the
bench in one game"). `innings` (1-9) and `max_innings` (a cut-off; truncation, reward 0)
as in every dugout ruleset; `max_decisions` bounds an episode (None: 4,000 per game, times
the games of a series; or a positive int): a game or series still going after that many
decisions is cut off as `max_innings` cuts one off (truncation, reward 0, `"winner"` `""`;
`env.unwrapped.truncated_by` is `"max_decisions"`; see `dugout.envs.core.aec`). The
rulebook has no mercy rule and no end to extra innings; no game comes near the bound: the
longest of 5,000 random games took 199 decisions (of 5,000 best-of-3 series, 459), the
longest under adversarial legal policies (always the highest legal action, always the
lowest, the highest for one seat and the lowest for the other) 368 (a series, 932). `dh=True` adds a designated hitter; `edge` says how a stat
exactly on an open column heading reads (`"ge"`: "> 50" means 50 and more; `"gt"`:
strictly more; RULES.md). `rest_by` says how the rest rule counts "pitches 2 or more
innings": `"innings"`, innings in which he faced a batter, or `"outs"`, the outs he
recorded / 3 (the box score's innings pitched).

The roster rules (RULES.md, P-1 and P-2; a team that breaks them raises `DataError` naming
the option):

| Option | Values | Passage and reading |
|---|---|---|
| `bench` | `"roster"` (default), `"reserves"` | "17 Pokemon can be on the bench in one game.": the whole game roster (9 to 17 creatures), or 17 beside the starters (9 to 26; 27 with the DH). With `"reserves"` the actions name that many creatures: `Discrete(42)` (43 with the DH), creature k is action 16 + k, and each roster block has 26 (27) rows, so the observation is longer (`env.unwrapped.OBS`) |
| `used_twice` | readings joined by `+`, from `"roster"`, `"reentry"`, `"teams"`; default `"roster+reentry"` | "The same monster cannot be used twice.": no creature twice on a roster; no creature back in a game he has left; no creature on both teams. Without `"reentry"` a creature who left may come in again (not one resting or hurt in this game); the substitutions then never run out (random managers: a median of 1,852 decisions a game, the longest of 150 2,741; `max_decisions` cuts off a manager who substitutes forever) |

`series=N` (odd) plays a best-of-N series, `{"games": N}`
exactly N games, as one episode (`dugout.envs.core.series`), N at most 99
(`MAX_SERIES_GAMES`: best of 99, or exactly 99 games): pitcher rest and injuries
carry from game to game. `render_mode` is `"ansi"`, `"human"`, `"rgb_array"` (a picture:
core.picture, drawn by `dugout.envs.pokemon_baseball.picture`) or None. An unknown option
or a bad value raises `OptionError`, a bad team `DataError`.

## Agents

`"away"` bats in the top of each inning, `"home"` in the bottom. Before the first pitch
the away manager sets his lineup, then the home manager his (without seeing the away
lineup). The batting manager decides pinch hitters and runners, steals, bunts, tag-ups
and who replaces an injured batter; the fielding manager decides pitching changes and
defensive substitutions. `agent_selection` always names the manager who must act.

## Action Values

| Action | Meaning |
|---|---|
| 0 | pass: no substitution, no (more) steals, swing away, the runner holds |
| 1 | yes: bunt, tag up |
| 2-4 | the runner on first, second, third: he steals, or a pinch runner replaces him |
| 5 | a pinch hitter for the batter |
| 6-15 | the creature at position 1-9 (P, C, 1B, 2B, 3B, SS, LF, CF, RF) or the DH is replaced (6: a pitching change) |
| 16-32 | roster creature 0-16 (the team file's roster order; with `bench="reserves"` on to 41, or 42 with the DH) |

The decisions (`infos[agent]["decision"]` names the kind and labels each legal option;
`view(agent).subject` says what it is about):

| Kind | Who | Legal actions |
|---|---|---|
| `lineup` | each, before the game | 16-32: a rested creature not yet placed, for position `subject` (1 = the starting pitcher first, then C ... RF, 10 = DH) |
| `batting_order` | each, before the game | 16-32: a placed batter not yet in the order, for slot `subject` (the last is filled by itself) |
| `offense_sub` | batting, before each batter | 0, 5 (pinch hitter), 2-4 (pinch runner for that runner), while a bench creature may come in |
| `defense_sub` | fielding, before each batter | 0, or 6-14 (replace the creature at that position), while a bench creature may come in |
| `substitute` | the side that asked | 16-32: a bench creature who has not played and is not resting (without the `"reentry"` reading also one who left the game, unless hurt in it), for creature `subject` |
| `steal` | batting, repeated | 0, 2 (first to second, second open), 3 (second to third, third open); each runner once per batter |
| `bunt` | batting | 0 or 1, with a runner on first or second and third base empty |
| `tag_up` | batting | 0 or 1, the runner on third after an outfield fly out that is not the third out |
| `replace_injured` | the injured batter's side, before the next batter | 16-32: a bench creature for the injured creature `subject` (after a third out: before the first batter of the next half; with nobody left on the bench he stays in) |

## Observation Space

`observe(agent)` returns `{{"observation": float32 vector, "action_mask": int8 vector}}`,
encoded from `env.unwrapped.view(agent)` alone, from the observer's side (`own` is the
observing manager's team). Each roster block has 17 rows (26 or 27 with `bench="reserves"`)
of {per} features (rows beyond the roster's size are zero): present; HP / 130, level / 80, attack / 120, retreat / 4;
HP now / 130; one-hot position (P ... RF, DH); bats in (1 + slots until his turn) / 9,
0 if not in the batting order; one-hot bench / in the game / gone; resting games / 3;
injured games after this one / 3; innings pitched in this game (as `rest_by` counts
them) / 18 (at most 1); on
first, second, third; tried to steal during this plate appearance; the starting pitcher
of this game (who rests at least one game after it). The opponent's
positions and batting order are zero until both lineups are set. In a series three
more elements follow: the series pieces of `dugout.envs.core.series`.

{table}

## Agent view

`env.unwrapped.view(agent)` returns a `PokemonBaseballView` (see
`dugout.envs.pokemon_baseball.view`): the same facts, decoded. `state()` is the away
manager's observation.

## Rewards

+1 to the winner and -1 to the loser when the game (in a series: the series) ends; 0 to
both for a game cut off by `max_innings` or `max_decisions`, or a drawn series. Every step's infos hold
`"decision"`, `"score"`, `"winner"`, `"illegal_action"` (and `"series"` in a series; see
`dugout.envs.core.aec`); `env.unwrapped.box_score()` gives the box score with pitching.

## Series

What carries from one game to the next is each creature's `resting` count (the view and
the roster blocks show it): a creature who pitched 2+ innings sits out the next game, 4+
the next two, 6+ the next three; a starting pitcher always sits out the next game; an
injured batter sits out the rest of the game and one to three more. HP lost to an
injury returns for the next game. A team that cannot field its lineup from rested
creatures forfeits the game 9-0. `env.unwrapped.save()` / `restore()` continue a
series mid-game. A saved game restores only into an env made with its teams and options
(`innings`, `max_innings`, `dh`, `edge`, `rest_by`, `bench`, `used_twice`): another raises
`DataError` naming the option that differs.

## Version History

* v0: first release; the roster rules' options `bench` and `used_twice` (the defaults
  play as before).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..core.aec import BaseballAECEnv, summary_table
from ..core.bases import BASE_NAMES
from ..core.decisions import Decision
from ..core.dice import ScriptedDice
from ..core.errors import DataError, OptionError, check_innings, check_options, check_pair, show
from ..core.observation import SITUATION_PIECE, ObservationSpec, encode_situation, situation_pieces
from ..core.scorebook import ordinal
from ..core.series import with_series_pieces
from . import charts as ch
from . import rules
from .cards import (BUILTIN_TEAMS, POSITIONS, USED_TWICE_DEFAULT, check_bench, check_teams_apart,
                    check_used_twice, load_creatures, load_team, max_roster)
from .view import (PokemonBaseballView, bases_shown, decision_shown, fielder_shown, full_hp,
                   hp_now, make_view, option_pairs, places_shown, roster_stats)

__all__ = ["PokemonBaseballEnv", "OBS", "PIECES", "encode_view", "RosterBlocks", "option_labels",
           "pieces_for", "layout",
           "CREATURE_FEATURES"]

_POS_NAMES = POSITIONS + ("DH",)
ROSTER = rules.MAX_ROSTER
#: the features of one roster row, in order
CREATURE_FEATURES = (["present", "hp", "level", "attack", "retreat", "hp_now"]
                     + [f"at_{p}" for p in _POS_NAMES] + ["bats_in", "bench", "playing", "gone",
                                                          "resting", "injured", "innings_pitched"]
                     + ["on_first", "on_second", "on_third", "tried_steal", "starter"])
PER = len(CREATURE_FEATURES)
_F = {name: i for i, name in enumerate(CREATURE_FEATURES)}



def pieces_for(width: int = ROSTER) -> list:
    """The observation's pieces for rosters of ``width`` rows (17; more with
    ``bench="reserves"``: :func:`~.cards.max_roster`)."""
    return situation_pieces(rules.DECISION_KINDS) + [
        ("subject_position", 10, "one-hot position a lineup decision fills: P, C, 1B, 2B, 3B, SS, LF, CF, RF, DH"),
        ("subject_slot", 9, "one-hot batting slot a batting-order decision fills"),
        ("subject_creature", width, "one-hot own creature a substitute or replace-injured decision replaces"),
        ("fielder", 9, "one-hot position (P ... RF) the batter's ball went to in this plate appearance (a tag-up's outfielder)"),
        ("started", 1, "1 once both lineups are set and play has begun"),
        ("dh", 1, "1 if the designated-hitter rule is on"),
        SITUATION_PIECE["innings_left"],
        ("own_roster", width * PER, f"own roster, {width} rows of {PER} features (the module docstring)"),
        ("opp_roster", width * PER, f"opponent's roster, {width} rows of {PER} features"),
    ]


class _Layout:
    """Where the pieces lie for rosters of ``width`` rows: the spec, its offsets, the head
    (the pieces before the roster blocks) and the two blocks' slices."""

    __slots__ = ("width", "obs", "offset", "head", "own", "opp")

    def __init__(self, width: int) -> None:
        self.width = width
        self.obs = ObservationSpec(pieces_for(width))
        self.offset = o = self.obs.offset
        size = width * PER
        self.head = o["own_roster"]
        self.own = slice(o["own_roster"], o["own_roster"] + size)
        self.opp = slice(o["opp_roster"], o["opp_roster"] + size)


@lru_cache(maxsize=None)
def layout(width: int = ROSTER) -> _Layout:
    """The observation's layout for rosters of ``width`` rows (made once per width)."""
    return _Layout(width)


PIECES = pieces_for(ROSTER)
OBS = layout(ROSTER).obs

_O = OBS.offset
_KIND_INDEX = {k: i for i, k in enumerate(rules.DECISION_KINDS)}
OPTIONS = ("teams", "creatures", "innings", "max_innings", "dh", "edge", "rest_by", "bench",
           "used_twice", "series", "render_mode", "illegal_action", "dice", "max_decisions")

__doc__ = (__doc__.replace("{table}", OBS.table())
           .replace("{per}", str(PER)).replace("{teams}", ", ".join(f'`"{t}"`' for t in BUILTIN_TEAMS))
           .replace("{{", "{").replace("}}", "}"))


# -- encoding a view ------------------------------------------------------------------------
# encode_view(view) writes the head (_head) and the two roster blocks (RosterBlocks) from the
# view's fields; the env's observe() feeds the same two the same pieces read off the state
# (PokemonBaseballEnv._encode), keeping its roster blocks between decisions.
_HP_NOW, _INNINGS, _STARTER = _F["hp_now"], _F["innings_pitched"], _F["starter"]
_PLACES = slice(_F["at_P"], _F["bats_in"] + 1)
_STATUS = slice(_F["bench"], _F["innings_pitched"] + 1)
_ON_BASE = slice(_F["on_first"], _F["tried_steal"] + 1)


@lru_cache(maxsize=64)
def _static_block(stats: tuple, width: int) -> np.ndarray:
    """The roster block's columns that never change in a game (and HP now at full), read-only."""
    block = np.zeros((width, PER), dtype=np.float32)
    n = len(stats)
    if n:
        s = np.asarray(stats, dtype=np.float32)
        block[:n, _F["present"]] = 1.0
        block[:n, _F["hp"]] = block[:n, _HP_NOW] = s[:, 0] / 130.0
        block[:n, _F["level"]] = s[:, 1] / 80.0
        block[:n, _F["attack"]] = s[:, 2] / 120.0
        block[:n, _F["retreat"]] = s[:, 3] / 4.0
    block.flags.writeable = False
    return block


@lru_cache(maxsize=4096)
def _places(field: tuple, lineup: tuple, order: int, width: int) -> np.ndarray:
    """Each creature's one-hot position and when he bats, (width, 11), read-only."""
    cols = np.zeros((width, 11), dtype=np.float32)
    for p, k in enumerate(field):
        if k >= 0:
            cols[k, p] = 1.0
    for slot, k in enumerate(lineup):
        if k >= 0:
            cols[k, 10] = ((slot - order) % 9 + 1) / 9.0
    cols.flags.writeable = False
    return cols


@lru_cache(maxsize=4096)
def _status_columns(status: tuple, resting: tuple, injured: tuple, innings: tuple) -> np.ndarray:
    """bench / in the game / gone, resting, injured and innings pitched, one row per creature."""
    n = len(status)
    cols = np.zeros((n, 6), dtype=np.float32)
    cols[np.arange(n), np.asarray(status, dtype=np.intp)] = 1.0
    cols[:, 3] = np.minimum(np.asarray(resting, dtype=np.float32), 3) / 3.0
    cols[:, 4] = np.asarray(injured, dtype=np.float32) / 3.0
    cols[:, 5] = _innings_column(innings)
    cols.flags.writeable = False
    return cols


def _innings_column(innings) -> np.ndarray:
    """Innings pitched / 18 (at most 1), one value per creature."""
    return np.minimum(np.asarray(innings, dtype=np.float32), 18) / 18.0


@lru_cache(maxsize=4096)
def _head(seat: int, decision: str | None, subject: int, inning: int, half: int, outs: int,
          bases: tuple, score: tuple, started: bool, dh: bool, innings: int,
          fielder: int, width: int = ROSTER) -> np.ndarray:
    """Everything before the roster blocks, read-only (kept: a game's situations recur, and
    a numpy write per piece costs more than the look-up)."""
    lay = layout(width)
    offset = lay.offset
    obs = np.zeros(lay.head, dtype=np.float32)
    encode_situation(obs, offset, seat, None if decision is None else _KIND_INDEX[decision],
                     inning, half, outs, bases, score)
    if decision == "lineup":
        obs[offset["subject_position"] + subject - 1] = 1.0
    elif decision == "batting_order":
        obs[offset["subject_slot"] + subject] = 1.0
    elif decision in ("substitute", "replace_injured"):
        obs[offset["subject_creature"] + subject] = 1.0
    if fielder:
        obs[offset["fielder"] + fielder - 1] = 1.0
    obs[offset["started"]] = started
    obs[offset["dh"]] = dh
    obs[offset["innings_left"]] = max(0, innings - inning) / 9.0
    obs.flags.writeable = False
    return obs


class _TeamBlock:
    """One team's roster block (``block``, (17, PER); ``rows``, the same flattened) and the
    pieces it was written from, kept to tell what changed (a tuple kept as it is, a list
    copied: the pieces may be a view's tuples or the state's own lists)."""

    __slots__ = ("stats", "width", "hp", "field", "lineup", "order", "status", "resting",
                 "injured", "innings", "starter", "runners", "tried", "block", "rows")
    _KEPT = __slots__[:-1]        # what a copy (copy.deepcopy, pickle) holds: all but ``rows``

    def __init__(self, stats: tuple, width: int) -> None:
        self.stats, self.width = stats, width
        self.block = _static_block(stats, width).copy()
        self.rows = self.block.reshape(-1)
        self.hp = full_hp(stats)
        self.field = self.lineup = self.status = self.resting = self.injured = self.innings = None
        self.order = self.starter = None
        self.runners = self.tried = ()

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._KEPT}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in self._KEPT:
            setattr(self, name, state[name])
        self.rows = self.block.reshape(-1)


class RosterBlocks:
    """The two roster blocks of the observation, kept from one observation to the next: each
    column group is written again only where its pieces changed, and a block is made afresh
    for other stats (another game's rosters)."""

    __slots__ = ("_teams",)

    def __init__(self) -> None:
        self._teams: list[_TeamBlock | None] = [None, None]

    def __getstate__(self) -> dict[str, Any]:
        return {"teams": self._teams}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._teams = state["teams"]

    def rows(self, t: int, stats: tuple, hp, field, lineup, order: int, status, resting,
             injured, innings, starter: int, runners: tuple, tried: tuple,
             width: int = ROSTER) -> np.ndarray:
        """Team ``t``'s block of ``width`` rows for these pieces (the view's fields of that
        name; ``runners`` and ``tried`` are () for a team not batting or before play begins),
        flattened: the kept array, which the caller copies. A piece may be a tuple (a view's)
        or a list (the state's own, copied when kept)."""
        kept = self._teams[t]
        if kept is None or (kept.stats is not stats and kept.stats != stats) or kept.width != width:
            kept = self._teams[t] = _TeamBlock(stats, width)
        block = kept.block
        if hp != kept.hp:
            block[:len(hp), _HP_NOW] = np.asarray(hp, dtype=np.float32) / 130.0
            kept.hp = hp[:]
        if order != kept.order or field != kept.field or lineup != kept.lineup:
            block[:, _PLACES] = _places(tuple(field), tuple(lineup), order, width)
            kept.field, kept.lineup, kept.order = field[:], lineup[:], order
        if status != kept.status or resting != kept.resting or injured != kept.injured:
            block[:len(status), _STATUS] = _status_columns(tuple(status), tuple(resting),
                                                           tuple(injured), tuple(innings))
            kept.status, kept.resting, kept.injured = status[:], resting[:], injured[:]
            kept.innings = innings[:]
        elif innings != kept.innings:          # (only innings pitched: its column)
            block[:len(innings), _INNINGS] = _innings_column(innings)
            kept.innings = innings[:]
        if starter != kept.starter:
            block[:, _STARTER] = 0.0
            if starter >= 0:
                block[starter, _STARTER] = 1.0
            kept.starter = starter
        if runners != kept.runners or tried != kept.tried:
            block[:, _ON_BASE] = 0.0
            for i, k in enumerate(runners):
                if k >= 0:
                    block[k, _F["on_first"] + i] = 1.0
                    if tried[i]:
                        block[k, _F["tried_steal"]] = 1.0
            kept.runners, kept.tried = runners, tried
        return kept.rows


def encode_view(view: PokemonBaseballView, blocks: RosterBlocks | None = None) -> np.ndarray:
    """The observation vector of a view (the table in the module docstring). ``blocks`` keeps
    the roster blocks from the last view encoded with it (a run of views of one game costs
    less); by default they are made afresh."""
    blocks = RosterBlocks() if blocks is None else blocks
    seat, runners = view.seat, view.runners
    width = view.roster_width
    lay = layout(width)
    obs = np.empty(lay.obs.size, dtype=np.float32)
    obs[:lay.head] = _head(seat, view.decision, view.subject, view.inning, view.half, view.outs,
                           (runners[0] >= 0, runners[1] >= 0, runners[2] >= 0), view.score,
                           view.started, view.dh, view.innings, view.fielder, width)
    obs[lay.own] = _view_rows(view, seat, blocks, width)
    obs[lay.opp] = _view_rows(view, 1 - seat, blocks, width)
    return obs


def _view_rows(view: PokemonBaseballView, t: int, blocks: RosterBlocks, width: int) -> np.ndarray:
    on_base = t == view.half and view.started
    return blocks.rows(t, view.stats[t], view.hp[t], view.field[t], view.lineup[t],
                       view.order[t], view.status[t], view.resting[t], view.injured[t],
                       view.innings_pitched[t], view.starters[t],
                       view.runners if on_base else (), view.tried_steal if on_base else (), width)


def _saved_options(state: rules.GameState) -> dict[str, Any]:
    """The env options a game state records, by option name."""
    return {"teams": tuple(state.teams), "innings": state.board.innings,
            "max_innings": state.board.max_innings, "dh": state.dh, "edge": state.edge,
            "rest_by": state.rest_by, "bench": state.bench, "used_twice": state.used_twice}


def _names(teams) -> str:
    return " and ".join(repr(t.name) for t in teams)


class PokemonBaseballEnv(BaseballAECEnv, name="pokemon_baseball_v0", actions=rules.ACTIONS,
                         obs=OBS, view=PokemonBaseballView, encode_view=encode_view,
                         max_decisions=4_000, plays_series=True):
    def __init__(self, teams: tuple[Any, Any] = ("harbor", "summit"), creatures: Any = None,
                 innings: int = 9, max_innings: int | None = None, dh: bool = False,
                 edge: str = "ge", rest_by: str = "innings", bench: str = "roster",
                 used_twice: str = USED_TWICE_DEFAULT, series: Any = None,
                 render_mode: str | None = None,
                 illegal_action: str = "raise", dice: ScriptedDice | None = None,
                 max_decisions: int | None = None, **unknown: Any):
        name = "pokemon_baseball_v0"
        check_options(name, unknown, OPTIONS)
        try:
            bench, used_twice = check_bench(bench), check_used_twice(used_twice)
        except ValueError as e:
            raise OptionError(f"{name}: {e}") from None
        if not isinstance(dh, (bool, np.bool_)):
            raise OptionError(f"{name}: dh must be True or False, got {show(dh)}")
        self.bench, self.used_twice = bench, used_twice
        #: the creatures a roster may hold, whom the actions and the roster blocks name
        self.roster_width = max_roster(bench, bool(dh))
        self._layout = layout(self.roster_width)
        if self.roster_width != ROSTER:         # the spaces below are built from these
            self.ACTION_MEANINGS = rules.action_labels(self.roster_width)
            self.OBS = self._layout.obs
        super().__init__(render_mode=render_mode, illegal_action=illegal_action, dice=dice,
                         series=series, max_decisions=max_decisions)
        check_pair(name, "teams", teams)
        self.innings, self.max_innings = check_innings(name, innings, max_innings)
        if edge not in ch.EDGES:
            raise OptionError(f"{name}: edge must be one of {ch.EDGES}, got {show(edge)}")
        if rest_by not in rules.REST_BY:
            raise OptionError(f"{name}: rest_by must be one of {rules.REST_BY}, got {show(rest_by)}")
        self.dh, self.edge, self.rest_by = bool(dh), edge, rest_by
        # a user's creatures join the built-in set (one of the same id replaces it)
        pool = load_creatures() if creatures is None else {**load_creatures(),
                                                            **load_creatures(creatures)}
        rules_ = {"bench": bench, "dh": self.dh, "used_twice": used_twice}
        self.teams = (load_team(teams[0], pool, **rules_), load_team(teams[1], pool, **rules_))
        check_teams_apart(self.teams, used_twice)
        need = len(rules.lineup_positions_for(self.dh))
        for side, team in zip(("away", "home"), self.teams):
            if len(team.roster) < need:
                raise OptionError(f"{name}: the {side} team {team.name!r} has {len(team.roster)} "
                                  f"creatures; a game {'with' if self.dh else 'without'} the DH "
                                  f"needs {need}")
        self._labels: dict[Decision, dict[int, str]] = {}
        self._teams: tuple | None = None
        self._stats: tuple = ()
        self._full_hp: tuple = ()               # each roster's HP at full (view.full_hp)
        self._options: tuple = (None, ())      # a decision and its (action, label) pairs
        self._blocks = RosterBlocks()           # observe()'s roster blocks, kept (see _encode)

    # -- engine hooks -------------------------------------------------------------------
    def _new_game(self, seed: int, carry: Any = None) -> rules.GameState:
        resting = None if carry is None else carry["resting"]
        return rules.new_game(self.teams[0], self.teams[1], self._dice(seed), self.innings,
                              self.max_innings, dh=self.dh, edge=self.edge, resting=resting,
                              rest_by=self.rest_by, bench=self.bench, used_twice=self.used_twice)

    def _carry_over(self, finished: rules.GameState, series) -> dict[str, Any]:
        return {"resting": rules.games_to_rest(finished)}

    def _check_game_state(self, state: Any, what: str) -> None:
        """A state to restore is this ruleset's, played under this env's options: a game of
        other roster rules would be observed at another width than its view's, or show a
        view that ``public_setup(env)`` cannot rebuild. ``DataError`` naming the option."""
        super()._check_game_state(state, what)
        for option, saved in _saved_options(state).items():
            mine = self.teams if option == "teams" else getattr(self, option)
            if saved != mine:
                if option == "teams":
                    differ = (f"are {_names(saved)} but this env's are {_names(mine)}"
                              if _names(saved) != _names(mine) else
                              f"{_names(saved)} hold other creatures than this env's")
                else:
                    differ = f"is {saved!r} but this env's is {mine!r}"
                raise DataError(f"{self.metadata['name']}: the saved game's {option} {differ}; "
                                f"restore it into an env made with the options it was played "
                                f"under")

    def _apply(self, action: int) -> None:
        rules.apply_action(self.state_, action)

    def _option_labels(self, decision: Decision) -> dict[int, str]:
        self._sync_teams()
        labels = self._labels.get(decision)
        if labels is None:
            labels = self._labels[decision] = option_labels(self.state_, decision)
        return labels

    def _sync_teams(self) -> None:
        s = self.state_
        if s.teams is not self._teams:
            self._teams, self._stats = s.teams, roster_stats(s.teams)
            self._full_hp = (full_hp(self._stats[0]), full_hp(self._stats[1]))
            self._labels = {}
            self._options = (None, ())

    def _encode(self, seat: int) -> np.ndarray:
        """``encode_view(view(seat))`` without building the view: the same head and roster
        blocks, fed the same pieces, read off the state through the view module's own rules
        of what ``seat`` is shown (:func:`~.view.decision_shown`, :func:`~.view.places_shown`,
        :func:`~.view.bases_shown`, :func:`~.view.fielder_shown`); the roster blocks are kept
        between decisions and written again where they changed. Building the view costs more
        than encoding it; tests/test_pokemon_api.py checks the two agree piece by piece at
        every decision kind of random and heuristic games of every option set."""
        s = self.state_
        self._sync_teams()
        b = s.board
        d = decision_shown(s, seat)
        first, second, third = b.bases
        lay = self._layout
        obs = np.empty(lay.obs.size, dtype=np.float32)
        obs[:lay.head] = _head(seat, None if d is None else d.kind, -1 if d is None else d.subject,
                               b.inning, b.half, b.outs,
                               (first is not None, second is not None, third is not None),
                               (b.runs[0], b.runs[1]), s.started, s.dh, b.innings,
                               fielder_shown(s), lay.width)
        obs[lay.own] = self._rows(seat, seat)
        obs[lay.opp] = self._rows(seat, 1 - seat)
        return obs

    def _rows(self, seat: int, t: int) -> np.ndarray:
        """Team ``t``'s roster block as ``seat`` sees it, flattened (see :meth:`_encode`)."""
        s = self.state_
        field, lineup = places_shown(s, seat, t)
        runners, tried = bases_shown(s) if t == s.board.half and s.started else ((), ())
        stats, loss = self._stats[t], s.hp_loss[t]
        return self._blocks.rows(t, stats, hp_now(stats, loss) if any(loss) else self._full_hp[t],
                                 field, lineup, s.order[t], s.status[t], s.resting[t],
                                 s.injured[t], s.innings_pitched[t], s.starter[t], runners, tried,
                                 self._layout.width)

    def _view(self, seat: int) -> PokemonBaseballView:
        s = self.state_
        self._sync_teams()
        d = s.pending
        if d is not self._options[0]:         # the pending decision's options, made once
            self._options = (d, () if d is None else option_pairs(d.legal, self._option_labels(d)))
        return make_view(s, seat, stats=self._stats, games_left=self._games_left(),
                         options=self._options[1])

    def _games_left(self) -> int:
        """Games of the series still to come after this one, at most (0 for a single game)."""
        series = self.series_
        if series is None or series.over:
            return 0
        return series.length - series.game

    def state(self) -> np.ndarray:
        """The global state: the away manager's observation."""
        return self._encode(0)

    # -- text -----------------------------------------------------------------------------
    def _names(self) -> list[list[str]]:
        return [[c.name for c in t.roster] for t in self.state_.teams]

    def _scene(self):
        """What ``render_mode="rgb_array"`` draws (see :mod:`.picture`)."""
        from .picture import scene
        return scene(self, describe)

    def _render_text(self) -> str:
        s = self.state_
        b = s.board
        names = self._names()
        lines = [s.box.render_line_score(b), ""]
        need = "ten" if s.dh else "nine"
        if s.forfeited >= 0:
            lines.append(f"{s.teams[s.forfeited].name} cannot field {need} rested creatures "
                         f"and forfeit, {rules.FORFEIT_SCORE}-0.")
        elif b.over and not s.started:
            lines.append(f"No game: neither team can field {need} rested creatures.")
        elif b.over:
            lines.append(self._result_line([t.name for t in s.teams]))
        elif not s.started:
            lines.append("Top of the 1st, before the first pitch: the managers set their lineups.")
            if s.pending is not None:
                lines.append(self._decision_text())
        else:
            half = "Top" if b.half == 0 else "Bottom"
            runners = "bases empty" if b.bases == (None, None, None) else "runners on " + ", ".join(
                f"{BASE_NAMES[i]} ({names[b.half][r]})" for i, r in enumerate(b.bases) if r is not None)
            lines.append(f"{half} of the {ordinal(b.inning)}, {b.outs} out, {runners}.")
            k = s.batter_creature()
            c = s.teams[b.half].roster[k]
            p = s.pitcher(b.fielding)
            pc = s.teams[b.fielding].roster[p]
            lines.append(f"At bat: {c.name} (HP {s.hp(b.half, k)}, level {c.level}, attack "
                         f"{c.attack}, retreat {c.retreat}); pitching: {pc.name} (HP "
                         f"{s.hp(b.fielding, p)}, level {pc.level}, attack {pc.attack}).")
            if s.pending is not None:
                lines.append(self._decision_text())
        recent = s.log.plays[-5:]
        if recent:
            lines += ["", "Last plays:"] + ["  " + describe(p, names) for p in recent]
        return "\n".join(lines)

    def scorecard(self) -> str:
        """The line score, both batting cards with pitching, and the play-by-play."""
        s = self.state_
        names = self._names()
        innings = max(9, s.board.innings)
        parts = [s.box.render_line_score(s.board), ""]
        for t in (0, 1):
            parts += [s.box.render_scorecard(t, innings, label_header=""), "",
                      s.box.render_pitching(t), ""]
        parts.append(s.log.render_by_half([t.name for t in s.teams],
                                          lambda i, p: describe(p, names)))
        return "\n".join(parts)


__doc__ = __doc__.replace("{summary}", summary_table(
    PokemonBaseballEnv, f" (+{with_series_pieces(OBS).size - OBS.size} in a series)"))


_PLAY_WORDS = {
    "steal": "{name} stole {base}",
    "caught_stealing": "{name} was caught stealing {base}",
    "steal_error": "the catcher's error lets every runner move up",
    "tag_up": "{name} tagged up and scored",
    "tag_out": "{name} tagged up and was thrown out at home",
}


def describe(play, team_names) -> str:
    """One sentence for a play of the log; ``team_names`` are both rosters' names (away,
    home). A substitution names its own team in ``detail`` ("team:creature replaced")."""
    from ..core.scorebook import runner_movements
    if play.kind == "sub":
        team, old = (int(x) for x in play.detail.split(":"))
        names = team_names[team]
        return f"{names[play.actor]} comes in for {names[old]}."
    names = team_names[play.half]
    name = names[play.actor]
    if play.kind == "pa":
        where = f" to the {_POS_NAMES[play.base - 1]}" if play.base > 0 else ""
        text = f"{name} {rules.OUTCOMES[play.detail].verb}{where}"
    elif play.kind == "injury":
        kind, _, n = play.detail.partition("-")
        if kind == "none":
            return f"{name} is shaken up but stays in."
        if kind == "hp":
            return f"{name} is hurt: HP -{n} for the rest of the game."
        more = {"1": "the next game", "2": "the next two", "3": "the next three"}[n]
        return f"{name} is hurt: out for this game and {more}."
    else:
        base = BASE_NAMES[play.base] if play.base >= 0 else ""
        text = _PLAY_WORDS.get(play.kind, "{name}: " + play.kind).format(name=name, base=base)
    return ", ".join([text, *runner_movements(play, names)]) + "."


def option_labels(state: rules.GameState, decision: Decision) -> dict[int, str]:
    """What each legal action means at this decision. A label names creatures only where
    the decision itself says which (its subject and the actor's roster), so labels can be
    kept per decision; who is at bat or on base is in the view."""
    kind, t = decision.kind, decision.actor
    roster = state.teams[t].roster
    labels: dict[int, str] = {}
    for a in decision.legal:
        k = a - rules.CREATURE
        if kind == "lineup":
            labels[a] = (f"{roster[k].name} starts as pitcher" if decision.subject == 1
                         else f"{roster[k].name} plays {_POS_NAMES[decision.subject - 1]}")
        elif kind == "batting_order":
            labels[a] = f"{roster[k].name} bats {ordinal(decision.subject + 1)}"
        elif kind in ("substitute", "replace_injured"):
            labels[a] = f"{roster[k].name} in for {roster[decision.subject].name}"
        elif kind == "offense_sub":
            labels[a] = ("no change" if a == rules.PASS else "pinch hitter for the batter"
                         if a == rules.PINCH_HIT else
                         f"pinch runner for the runner on {BASE_NAMES[a - rules.RUNNER]}")
        elif kind == "defense_sub":
            p = a - rules.POSITION + 1
            labels[a] = ("no change" if a == rules.PASS else "pitching change" if p == 1
                         else f"replace the {_POS_NAMES[p - 1]}")
        elif kind == "steal":
            i = a - rules.RUNNER
            labels[a] = ("no steal" if a == rules.PASS
                         else f"the runner on {BASE_NAMES[i]} steals {BASE_NAMES[i + 1]}")
        elif kind == "bunt":
            labels[a] = "swing away" if a == rules.PASS else "bunt"
        elif kind == "tag_up":
            labels[a] = "the runner on third holds" if a == rules.PASS else \
                "the runner on third tags up"
    return labels
