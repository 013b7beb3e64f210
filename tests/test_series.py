"""The series layer of the AEC base class (dugout.envs.core.series), on a toy ruleset.

The toy game is two decisions long: the away manager, then the home manager, picks an
effort of 0, 1 or 2; each side scores one d6 + its effort - its tiredness (at least 0),
the higher score wins and equal scores end the game with no winner (like a game cut off
by ``max_innings``). Tiredness is what carries: each side starts a game as tired as the
effort it picked in the last one, and a side tired 2 may not pick 2.
"""

from __future__ import annotations

import json
import random
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from dugout.envs import thats_baseball_v0
from dugout.envs.core.aec import BaseballAECEnv
from dugout.envs.core.decisions import Decision, take_decision
from dugout.envs.core.dice import ScriptedDice, make_dice
from dugout.envs.core.entry import entry_points
from dugout.envs.core.errors import OptionError
from dugout.envs.core.observation import ObservationSpec
from dugout.envs.core.series import (MAX_SERIES_GAMES, SERIES_PIECES, Series, SeriesGame,
                                     game_seed, with_series_pieces)

AGENTS = ("away", "home")
ACTIONS = ("effort 0", "effort 1", "effort 2")


# -- the toy ruleset ---------------------------------------------------------------------------
@dataclass
class ToyGame:
    dice: Any
    tired: list[int]
    picks: list[Any] = field(default_factory=lambda: [None, None])
    pending: Decision | None = None
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    over: bool = False
    truncated: bool = False

    def clone(self) -> ToyGame:
        return ToyGame(self.dice.clone(), list(self.tired), list(self.picks), self.pending,
                       self.score, self.winner, self.over, self.truncated)

    def to_dict(self) -> dict[str, Any]:
        return {"dice": self.dice.to_dict(), "tired": list(self.tired), "picks": list(self.picks),
                "pending": None if self.pending is None else self.pending.to_dict(),
                "score": list(self.score), "winner": self.winner, "over": self.over,
                "truncated": self.truncated}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ToyGame:
        return cls(make_dice(d["dice"]), list(d["tired"]), list(d["picks"]),
                   None if d["pending"] is None else Decision.from_dict(d["pending"]),
                   tuple(d["score"]), d["winner"], d["over"], d["truncated"])


def legal_picks(tired: int) -> tuple[int, ...]:
    return (0, 1) if tired >= 2 else (0, 1, 2)


def new_toy(dice, tired=(0, 0)) -> ToyGame:
    return ToyGame(dice, list(tired), pending=Decision("pick", 0, legal_picks(tired[0])))


def apply_toy(state: ToyGame, action: int) -> None:
    seat = take_decision(state, action, ACTIONS).actor
    state.picks[seat] = action
    if seat == 0:
        state.pending = Decision("pick", 1, legal_picks(state.tired[1]))
        return
    runs = [max(0, state.dice.roll("effort") + state.picks[s] - state.tired[s]) for s in (0, 1)]
    state.score = (runs[0], runs[1])
    state.over = True
    if runs[0] == runs[1]:
        state.truncated = True
    else:
        state.winner = 0 if runs[0] > runs[1] else 1


@dataclass(frozen=True)
class ToyView:
    seat: int
    to_act: bool
    tired: tuple[int, int]        # own, opponent


TOY_OBS = ObservationSpec([
    ("seat", 2, "one-hot seat of the observing manager: away, home"),
    ("decision", 1, "1 if the observing manager must pick"),
    ("tired", 2, "tiredness carried from the last game: own, opponent, each / 2"),
])


def encode_toy(view: ToyView) -> np.ndarray:
    obs = TOY_OBS.zeros()
    obs[TOY_OBS.offset["seat"] + view.seat] = 1.0
    obs[TOY_OBS.offset["decision"]] = float(view.to_act)
    obs[TOY_OBS.slice("tired")] = np.array(view.tired, dtype=np.float32) / 2.0
    return obs


class ToyEnv(BaseballAECEnv):
    metadata = {**BaseballAECEnv.metadata, "name": "toy_series_v0"}
    ACTION_MEANINGS = ACTIONS
    OBS = TOY_OBS
    VIEW = ToyView
    PLAYS_SERIES = True
    encode_view = staticmethod(encode_toy)

    def __init__(self, series: Any = None, render_mode: str | None = None,
                 illegal_action: str = "raise", dice: ScriptedDice | None = None):
        super().__init__(render_mode=render_mode, illegal_action=illegal_action, dice=dice,
                         series=series)

    def _new_game(self, seed: int, carry: Any = None) -> ToyGame:
        return new_toy(self._dice(seed), (0, 0) if carry is None else carry["tired"])

    def _carry_over(self, finished: ToyGame, series: Series) -> dict[str, Any]:
        return {"tired": list(finished.picks)}

    def _apply(self, action: int) -> None:
        apply_toy(self.state_, action)

    def _view(self, seat: int) -> ToyView:
        s = self.state_
        return ToyView(seat, s.pending is not None and s.pending.actor == seat,
                       (s.tired[seat], s.tired[1 - seat]))

    def _option_labels(self, decision: Decision) -> dict[int, str]:
        return {a: ACTIONS[a] for a in decision.legal}

    def _render_text(self) -> str:
        s = self.state_
        return f"tired {s.tired}, picks {s.picks}, score {s.score}"


class SingleGameToyEnv(ToyEnv):
    """The same game from a ruleset that does not play series."""
    metadata = {**ToyEnv.metadata, "name": "toy_single_v0"}
    PLAYS_SERIES = False


raw_env, env = entry_points(ToyEnv)


# -- helpers ---------------------------------------------------------------------------------
def policy(seed: int):
    rng = random.Random(seed)

    def act(obs):
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))
    return act


def play(e, seed, act=None, actions=None, on_step=None):
    """Play one episode; return (steps, actions): each step is what ``last()`` gave."""
    act = act or policy(seed)
    if seed is not None:
        e.reset(seed=seed)
    steps, taken = [], []
    for agent in e.agent_iter():
        obs, rew, term, trunc, info = e.last()
        steps.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), rew,
                      term, trunc, json.dumps(info, sort_keys=True)))
        if on_step is not None:
            on_step(e, agent, obs, rew, term, trunc, info)
        if term or trunc:
            e.step(None)
            continue
        a = actions[len(taken)] if actions is not None else act(obs)
        taken.append(a)
        e.step(a)
    return steps, taken


def games_of(e):
    return e.unwrapped.series.results


# -- the default: one game, as before --------------------------------------------------------
def test_single_game_by_default():
    e = env()
    assert e.observation_space("away")["observation"].shape == (TOY_OBS.size,)
    assert e.unwrapped.obs_spec is TOY_OBS and e.unwrapped.series_format is None
    decisions = 0

    def check(e, agent, obs, rew, term, trunc, info):
        nonlocal decisions
        assert "series" not in info and obs["observation"].shape == (TOY_OBS.size,)
        decisions += not (term or trunc)

    for seed in range(40):
        decisions = 0
        steps, _ = play(e, seed, on_step=check)
        assert decisions == 2 and e.unwrapped.series is None
        final = {s[0]: s[3:6] for s in steps[-2:]}
        game = e.unwrapped.game
        if game.truncated:
            assert final == {"away": (0, False, True), "home": (0, False, True)}
        else:
            won = AGENTS[game.winner]
            assert final[won] == (1, True, False) and final[AGENTS[1 - game.winner]] == (-1, True, False)
    assert isinstance(e.unwrapped.save(), ToyGame)


def test_existing_rulesets_unchanged():
    e = thats_baseball_v0.raw_env()
    assert e.series_format is None and e.obs_spec is e.OBS
    assert e.observation_space("away")["observation"].shape == (e.OBS.size,)
    e.reset(seed=3)
    assert all("series" not in e.infos[a] for a in AGENTS) and e.series is None
    assert e.observe("away")["observation"].shape == (e.OBS.size,)


# -- options ----------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [0, -1, 2, 4, 3.0, "3", True, False, [3], {"best_of": 4},
                                 {"games": 0}, {"games": True}, {"rounds": 3},
                                 {"games": 2, "best_of": 3}, 101, 10**100 + 1,
                                 {"best_of": 101}, {"games": 100}, {"games": -10**5000}])
def test_bad_series_values_are_rejected(bad):
    with pytest.raises(OptionError, match="toy_series_v0.*series"):
        raw_env(series=bad)


@pytest.mark.parametrize("bad", [101, 10**100 + 1, np.int64(2**62 + 1), {"best_of": 101},
                                 {"games": 100}, {"best_of": 10**5000 + 1}])
def test_series_longer_than_the_limit_is_refused_naming_it(bad):
    assert MAX_SERIES_GAMES == 99
    with pytest.raises(OptionError, match=r"toy_series_v0: series may be at most 99 games "
                                          r"\(MAX_SERIES_GAMES: best of 99 or \{'games': 99\}\)"):
        raw_env(series=bad)


def test_good_series_values():
    assert raw_env(series=1).series_format == (1, True)
    assert raw_env(series=np.int64(7)).series_format == (7, True)
    assert raw_env(series={"best_of": 5}).series_format == (5, True)
    assert raw_env(series={"games": 6}).series_format == (6, False)
    assert raw_env(series=99).series_format == (99, True)              # MAX_SERIES_GAMES
    assert raw_env(series={"games": np.int64(99)}).series_format == (99, False)
    with pytest.raises(OptionError, match="odd.*'games': 4"):
        raw_env(series=4)


def test_a_ruleset_that_does_not_opt_in_rejects_series():
    with pytest.raises(OptionError, match="toy_single_v0.*does not play series"):
        SingleGameToyEnv(series=3)
    SingleGameToyEnv(series=None).reset(seed=0)
    with pytest.raises(OptionError, match="series"):
        thats_baseball_v0.env(series=3)


# -- how a series runs ---------------------------------------------------------------------------
def test_best_of_ends_as_soon_as_one_side_has_a_majority():
    lengths = set()
    for n in (1, 3, 5, 7):
        e = raw_env(series=n)
        for seed in range(25):
            play(e, seed)
            s = e.series
            wins = s.wins
            assert s.over and len(s.results) == s.game <= n
            # decided by the last game and not before, or all n games played
            before = [r["winner"] for r in s.results[:-1]]
            assert max(before.count("away"), before.count("home")) <= n // 2
            assert max(wins) == n // 2 + 1 or len(s.results) == n
            lengths.add((n, s.game))
    assert {(7, 4), (7, 5), (7, 6), (7, 7), (3, 2), (3, 3)} <= lengths


def test_fixed_number_of_games_is_played_out():
    e = raw_env(series={"games": 4})
    for seed in range(20):
        steps, _ = play(e, seed)
        s = e.series
        assert len(s.results) == s.game == 4
        away, home = s.wins
        final = {st[0]: st[3:6] for st in steps[-2:]}
        if away == home:
            assert final == {"away": (0, False, True), "home": (0, False, True)}
        else:
            w = 0 if away > home else 1
            assert final[AGENTS[w]] == (1, True, False)
            assert final[AGENTS[1 - w]] == (-1, True, False)


def test_rewards_only_when_the_series_is_decided():
    e = env(series=7)
    for seed in range(30):
        steps, _ = play(e, seed)
        live = [st for st in steps if not (st[4] or st[5])]
        assert all(st[3] == 0 for st in live)
        s = e.unwrapped.series
        final = {st[0]: st[3:6] for st in steps[-2:]}
        assert len(steps) == len(live) + 2 and s.over
        if s.winner is None:
            assert final == {"away": (0, False, True), "home": (0, False, True)}
        else:
            assert final[AGENTS[s.winner]] == (1, True, False)
            assert final[AGENTS[1 - s.winner]] == (-1, True, False)


def scripted_series():
    """Best of 3 on scripted dice (every game rolls 3 for both): efforts alone decide.

    Game 1: away 2, home 0 -> 5-3 away.  Game 2 (tired 2, 0): away 0, home 2 -> 1-5 home.
    Game 3 (tired 0, 2): away 2, home 1 -> 5-2 away. Away wins the series 2-1.
    """
    return raw_env(series=3, dice=ScriptedDice([("effort", 3), ("effort", 3)])), [2, 0, 0, 2, 2, 1]


def test_scripted_series_rewards_and_carry():
    e, actions = scripted_series()
    seen = []

    def check(e, agent, obs, rew, term, trunc, info):
        pieces = e.obs_spec.unpack(obs["observation"])
        seen.append((e.series.game, agent, tuple(pieces["tired"] * 2), tuple(pieces["series_game"] * 3),
                     tuple(pieces["series_wins"] * 3), tuple(obs["action_mask"]), rew))

    steps, _ = play(e, 0, actions=actions, on_step=check)
    assert [st[3] for st in steps[:6]] == [0] * 6
    assert {st[0]: st[3:6] for st in steps[6:]} == {"away": (1, True, False), "home": (-1, True, False)}
    assert e.series.results == [{"away": 5, "home": 3, "winner": "away"},
                                {"away": 1, "home": 5, "winner": "home"},
                                {"away": 5, "home": 2, "winner": "away"}]
    assert e.series.carry == {"tired": [0, 2]} and e.game.tired == [0, 2]
    # game 2: away sees himself tired 2, home 0, one game won and may not pick 2
    g2_away = next(x for x in seen if x[0] == 2 and x[1] == "away")
    assert g2_away[2] == (2.0, 0.0) and g2_away[4] == pytest.approx((1.0, 0.0))
    assert g2_away[3] == pytest.approx((2.0,)) and g2_away[5] == (1, 1, 0)
    g2_home = next(x for x in seen if x[0] == 2 and x[1] == "home")
    assert g2_home[2] == (0.0, 2.0) and g2_home[4] == pytest.approx((0.0, 1.0))
    g3_home = next(x for x in seen if x[0] == 3 and x[1] == "home")
    assert g3_home[2] == (2.0, 0.0) and g3_home[5] == (1, 1, 0)


def test_drawn_series_truncates_with_no_reward():
    # every game rolls 3 for both sides and both sides pick 0: every game is tied
    e = raw_env(series=3, dice=ScriptedDice([3, 3]))
    steps, _ = play(e, 0, actions=[0] * 6)
    assert e.series.results == [{"away": 3, "home": 3, "winner": None}] * 3
    assert e.series.over and e.series.winner is None
    assert {st[0]: st[3:6] for st in steps[-2:]} == {"away": (0, False, True), "home": (0, False, True)}
    # a tie counts as played: best of 3 after a tie, then one win each, is drawn too
    e = raw_env(series=3, dice=ScriptedDice([3, 3]))
    play(e, 0, actions=[0, 0, 0, 1, 1, 0])
    assert [r["winner"] for r in e.series.results] == [None, "home", "away"]
    assert e.series.winner is None and all(e.truncations.values())


def test_infos_carry_the_series_with_one_structure():
    e = env(series=5)
    shapes = set()

    def check(e, agent, obs, rew, term, trunc, info):
        s = info["series"]
        shapes.add(tuple((k, type(v).__name__) for k, v in sorted(s.items())))
        assert set(s["wins"]) == set(AGENTS) and all(type(w) is int for w in s["wins"].values())
        assert s["length"] == 5 and s["best_of"] is True
        assert s["over"] == (term or trunc)
        assert s["game"] == e.unwrapped.series.game
        assert "decision" in info if not (term or trunc) else "score" in info
        # the agent not to act has the series entry too
        assert all(e.unwrapped.infos[a]["series"] == s for a in e.agents)

    for seed in range(15):
        play(e, seed, on_step=check)
    assert len(shapes) == 1


def test_observation_spec_and_render():
    e = raw_env(series=3, render_mode="ansi")
    spec = e.obs_spec
    assert spec.size == TOY_OBS.size + 3
    assert [p[0] for p in spec.pieces] == [p[0] for p in TOY_OBS.pieces] + [p[0] for p in SERIES_PIECES]
    assert with_series_pieces(TOY_OBS).table() == spec.table()
    assert spec.table().startswith(TOY_OBS.table())
    assert e.observation_space("home")["observation"].shape == (spec.size,)
    e.reset(seed=0)
    assert e.observe("home")["observation"].shape == (spec.size,)
    assert e.render().startswith("Best-of-3 series, game 1: away 0, home 0.")


def test_illegal_action_ends_the_series():
    e = env(series=5)
    e.reset(seed=1)
    e.step(2)
    e.step(0)       # game 1 over, game 2 starts with away to pick, tired 2
    assert e.unwrapped.series.game == 2 and e.unwrapped.game.tired == [2, 0]
    e.step(2)       # not legal when tired 2
    assert e.rewards == {"away": -1, "home": 0} and all(e.terminations.values())
    assert "series" in e.infos["home"] and e.infos["away"]["illegal_action"].startswith("away played")
    assert e.unwrapped.forfeited_by == "away"
    with pytest.raises(Exception, match="illegal action 2"):
        raw = raw_env(series=5)
        raw.reset(seed=1)
        for a in (2, 0, 2):
            raw.step(a)


# -- seeds ---------------------------------------------------------------------------------------
def test_same_seed_same_series():
    a, b = env(series=7), env(series=7)
    for seed in range(10):
        assert play(a, seed) == play(b, seed)
        assert games_of(a) == games_of(b)


def test_game_seeds_follow_the_reset_seed_and_the_game_number():
    e = raw_env(series={"games": 5})
    rolls = []
    for seed in (0, 1, 12345, 2**62 + 7):
        e.reset(seed=seed)
        seeds = []
        while not e.series.over:
            assert e.game.dice.seed == game_seed(seed, e.series.game) == e.series.game_seed
            seeds.append(e.game.dice.seed)
            e.step(0)
            e.step(0)
        assert seeds[0] == seed and len(set(seeds)) == 5
        assert all(0 <= s < 2**63 for s in seeds)
        rolls.append([r["away"] for r in e.series.results])
    # game 1 deals the dice of a single game with the reset seed
    single = raw_env()
    single.reset(seed=12345)
    single.step(0)
    single.step(0)
    assert single.game.score[0] == rolls[2][0]
    assert any(len(set(r)) > 1 for r in rolls)


def test_unseeded_reset_still_plays_a_series():
    e = raw_env(series=3)
    e.reset()
    assert e.series.seed == e.game.dice.seed and e.series.game == 1


# -- saving ---------------------------------------------------------------------------------------
def test_save_and_restore_mid_series_continue_identically():
    checked = 0
    for seed in range(12):
        e = raw_env(series=7)
        steps, actions = play(e, seed)
        full = [dict(r) for r in games_of(e)]
        rng = random.Random(seed)
        for k in sorted(rng.sample(range(len(actions)), 4)):
            e.reset(seed=seed)
            for a in actions[:k]:
                e.step(a)
            saved = e.save()
            text = json.dumps(saved.to_dict())
            loaded = SeriesGame.from_dict(json.loads(text), ToyGame.from_dict)
            assert json.dumps(loaded.to_dict()) == text
            for copy in (saved.clone(), loaded):
                other = raw_env(series=7)
                other.restore(copy)
                rest, _ = play(other, None, actions=actions[k:])
                assert rest == steps[len(steps) - len(rest):]
                assert games_of(other) == full
                checked += 1
            # saving did not share anything with the env
            e.step(actions[k])
            assert json.dumps(saved.to_dict()) == text
    assert checked == 12 * 4 * 2


def test_restore_through_env_and_a_finished_series():
    e = env(series=3)
    steps, actions = play(e, 4)
    done = e.unwrapped.save()
    other = env(series=3)
    other.reset(seed=99)
    other.unwrapped.restore(done)
    assert other.rewards == {st[0]: st[3] for st in steps[-2:]}
    assert other.unwrapped.series.results == games_of(e)
    # restoring a game that ended but was not yet counted counts it and plays on
    mid = raw_env(series=3)
    mid.reset(seed=4)
    mid.step(actions[0])
    saved = mid.save()
    apply_toy(saved.game, actions[1])
    assert saved.game.over and len(saved.series.results) == 0
    again = raw_env(series=3)
    again.restore(saved)
    assert len(again.series.results) == 1 and again.series.game == 2
    assert again.series.results[0] == games_of(e)[0]


def test_restore_refuses_the_wrong_kind_of_save():
    series, single = raw_env(series=3), raw_env()
    series.reset(seed=0)
    single.reset(seed=0)
    with pytest.raises(ValueError, match="plays a series"):
        series.restore(single.save())
    with pytest.raises(ValueError, match="single games"):
        single.restore(series.save())
    with pytest.raises(ValueError, match="saved series"):
        raw_env(series=5).restore(series.save())


def test_series_record_round_trips_a_carry_object():
    @dataclass
    class Rest:
        days: list[int]

        def clone(self):
            return Rest(list(self.days))

        def to_dict(self):
            return {"days": list(self.days)}

        @classmethod
        def from_dict(cls, d):
            return cls(list(d["days"]))

    s = Series(5, seed=3, game=2, results=[{"away": 1, "home": 0, "winner": "away"}],
               carry=Rest([1, 2]))
    c = s.clone()
    c.carry.days.append(3)
    assert s.carry.days == [1, 2]
    back = Series.from_dict(json.loads(json.dumps(s.to_dict())), Rest)
    assert back == s and isinstance(back.carry, Rest)


# -- PettingZoo ------------------------------------------------------------------------------
def test_pettingzoo_api_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(series=5), num_cycles=200)
        api_test(env(series={"games": 3}), num_cycles=200)


def test_pettingzoo_seed_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env(series=5), num_cycles=200)
