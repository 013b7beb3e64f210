"""Every episode ends in a bounded number of decisions (``max_decisions``), under any legal
policy, and the errors of ``observe()`` and ``restore()`` name what was wrong.

* Adversarial legal policies (always the highest legal action, always the lowest, the
  highest for one seat and the lowest for the other) play every env id and option set of
  the contract suite (``helpers.cases()``), a series and the Manager Challenge: each game
  ends, terminated or truncated, within the env's documented bound.
* A game the bound cuts off is truncated as ``max_innings`` truncates one: reward 0 each,
  ``truncations`` True, the infos' keys of every step with ``"winner"`` ``""``; the dead
  steps follow, every mask is all zeros, and ``truncated_by`` says why.
* The hang it fixes: a Showdown expert fielding side that walks every batter intentionally
  used to play on forever (the score ran to thousands, the inning never ended).
* ``max_decisions`` is every env's option (the command lines' ``--env-option`` knows it)
  and a bad value is refused naming it.
* ``observe()`` of an agent not in the game and ``restore()`` of None or of another
  ruleset's state raise the project's errors, naming what was wrong.
"""

from __future__ import annotations

import json
import random
import sys

import numpy as np
import pytest

import dugout.envs as envs
from dugout.envs import manager_challenge_v0
from dugout.envs.core.aec import FALLBACK_MAX_DECISIONS

#: each ruleset's default bound per game, as its class declares it
DEFAULT_MAX_DECISIONS = {env_id: envs.spec(env_id).env_class.MAX_DECISIONS for env_id in envs.ENV_IDS}
from dugout.envs.core.errors import DataError, DugoutError, OptionError, UnknownAgentError
from dugout.envs.options import check_env_options, env_options_from_flags, option_names

from helpers import AGENTS, INFO_KEYS, case_id, cases, dumps, make

#: the contract suite's cases, and a series (an episode of several games)
CASES = cases() + [("pokemon_baseball_v0", {"series": 3})]
PARAMS = [pytest.param(env_id, options, id=case_id(env_id, options)) for env_id, options in CASES]
ENV_IDS = [pytest.param(env_id, id=env_id) for env_id in envs.ENV_IDS]


def _highest(legal, seat):
    return legal[-1]


def _lowest(legal, seat):
    return legal[0]


def _away_highest(legal, seat):
    return legal[-1] if seat == 0 else legal[0]


def _home_highest(legal, seat):
    return legal[-1] if seat == 1 else legal[0]


POLICIES = {"highest": _highest, "lowest": _lowest, "away_highest": _away_highest,
            "home_highest": _home_highest}


def play(env, seed: int, policy) -> tuple[int, dict]:
    """Play a seeded episode through the AEC API, ``policy(legal, seat)`` choosing from the
    acting agent's mask; returns the decisions made and what each agent's dead step gave
    (reward, termination, truncation, info, observation). Fails past the env's bound."""
    env.reset(seed=seed)
    game = env.unwrapped
    bound = game.max_decisions
    decisions, final = 0, {}
    for agent in env.agent_iter():
        _, reward, term, trunc, info = env.last(observe=False)
        if term or trunc:
            final[agent] = (reward, term, trunc, info, env.observe(agent))
            env.step(None)
            continue
        assert not final, "a live step after a dead step"
        legal = np.flatnonzero(game.action_mask()).tolist()
        env.step(policy(legal, AGENTS.index(agent)))
        decisions += 1
        assert decisions <= bound, f"{decisions} decisions, past the bound {bound}"
    assert decisions == game.decision_count
    return decisions, final


def check_cut_off(env, final: dict) -> None:
    """A game the bound cut off: reward 0 each, truncated, the infos' keys of every step."""
    game = env.unwrapped
    assert game.truncated_by == "max_decisions"
    assert game.decision_count == game.max_decisions
    assert set(final) == set(AGENTS)
    series = {"series"} if game.series_format is not None else set()
    n = len(game.ACTION_MEANINGS)
    score = {"away": int(game.game.score[0]), "home": int(game.game.score[1])}
    for agent, (reward, term, trunc, info, obs) in final.items():
        assert (reward, term, trunc) == (0, False, True)
        assert set(info) == INFO_KEYS | series
        assert info["winner"] == "" and info["illegal_action"] == ""
        assert info["decision"] == {"kind": "", "labels": ("",) * n}
        assert info["score"] == score
        assert not obs["action_mask"].any()
        json.dumps(info)


def check_ended(env, final: dict) -> None:
    """A game that ended by its rules: +1 / -1 to the winner and loser, terminated (or
    truncated, 0 each, by max_innings or a drawn series), the same final info for both."""
    game = env.unwrapped
    assert game.truncated_by != "max_decisions" and game.game.over
    (ra, ta, ca, ia, _), (rh, th, ch, ih, _) = final["away"], final["home"]
    assert ia == ih and ia["winner"] in ("away", "home", "")
    if ia["winner"]:
        assert ta and th and not ca and not ch and game.truncated_by is None
        assert {"away": ra, "home": rh}[ia["winner"]] == 1 and ra + rh == 0
    else:
        assert ca and ch and ra == rh == 0
        assert game.truncated_by in ("max_innings", "drawn_series")


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("env_id, options", PARAMS)
def test_adversarial_policies_end_within_the_bound(env_id, options, policy):
    env = make(env_id, options)
    default = DEFAULT_MAX_DECISIONS[env_id] * (options.get("series") or 1)
    assert env.unwrapped.max_decisions == default
    for seed in (0, 1):
        decisions, final = play(env, seed, POLICIES[policy])
        assert decisions <= default and set(final) == set(AGENTS)
        if env.unwrapped.truncated_by == "max_decisions":
            check_cut_off(env, final)
            break           # a policy the bound stops stops on every seed: once is enough
        check_ended(env, final)


@pytest.mark.parametrize("policy", ["highest", "lowest"])
def test_manager_challenge_ends_within_its_bound(policy):
    from dugout.envs.bottom_ninth import challenge
    env = manager_challenge_v0.env()
    assert env.max_decisions == challenge.MAX_DECISIONS
    for seed in (0, 1):
        env.reset(seed=seed)
        steps, done = 0, False
        while not done:
            legal = np.flatnonzero(env.action_masks()).tolist()
            _, _, term, trunc, _ = env.step(POLICIES[policy](legal, 1))
            steps += 1
            done = term or trunc
            assert steps <= env.max_decisions
        assert term and not trunc and steps == env.decision_count


def test_the_intentional_walk_forever_now_truncates():
    """The hang: the fielding manager calls for the intentional walk at every at-bat (what
    "the highest legal action" does), so no out is ever made; the episode went on past
    20,000 decisions at 19,978-0. Now it is cut off at the bound."""
    env = envs.make("showdown_v0", level="expert")
    env.reset(seed=7)
    game = env.unwrapped
    walks, final = 0, {}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            final[agent] = (reward, term, trunc)
            env.step(None)
            continue
        d = game.game.pending
        if d.kind == "intentional_walk":
            walks += 1
            env.step(1)
        else:
            env.step(d.legal[0])
        assert game.decision_count <= DEFAULT_MAX_DECISIONS["showdown_v0"]
    assert game.truncated_by == "max_decisions"
    assert game.decision_count == game.max_decisions == DEFAULT_MAX_DECISIONS["showdown_v0"]
    assert final == {"away": (0, False, True), "home": (0, False, True)}
    away, home = game.game.score
    assert away > 1000 and home == 0 and game.game.board.inning == 1 and walks > 1000
    assert not game.game.over, "the engine's game is left as it was: cut off, not ended"


# -- the cut-off, exactly ------------------------------------------------------------------------
@pytest.mark.parametrize("env_id, options", PARAMS)
def test_a_small_bound_cuts_the_game_off_as_max_innings_does(env_id, options):
    env = make(env_id, options, max_decisions=np.int64(9), render_mode="ansi")
    assert env.unwrapped.max_decisions == 9
    rng = random.Random(3)
    for seed in range(3):
        decisions, final = play(env, seed, lambda legal, seat: rng.choice(legal))
        if env.unwrapped.game.over:           # a game of 9 or fewer decisions (Showdown basic)
            assert decisions <= 9 and env.unwrapped.truncated_by in (None, "max_innings")
            continue
        assert decisions == 9
        check_cut_off(env, final)
        assert "Cut off after 9 decisions (max_decisions=9)" in env.unwrapped.render()
        env.unwrapped.box_score()                 # the game so far
    # the next episode counts from 0 again, and plays as without the bound until it
    env.reset(seed=0)
    assert env.unwrapped.decision_count == 0 and env.unwrapped.truncated_by is None


@pytest.mark.parametrize("env_id, options", PARAMS)
def test_a_game_that_ends_at_the_bound_ends_as_it_would(env_id, options):
    """The bound cuts off only a game still going: one whose last decision is the bound's
    ends normally (terminated or truncated by max_innings), exactly as without it."""
    env = make(env_id, options, raw=True)
    env.reset(seed=5)
    rng = random.Random(5)
    actions = []
    while env.game.pending is not None and not any(env.terminations.values()) \
            and not any(env.truncations.values()):
        actions.append(rng.choice(env.game.pending.legal))
        env.step(actions[-1])
    twin = make(env_id, options, raw=True, max_decisions=len(actions))
    twin.reset(seed=5)
    for a in actions:
        twin.step(a)
    assert dumps(twin.game) == dumps(env.game)
    assert (twin.rewards, twin.terminations, twin.truncations, twin.infos) == \
        (env.rewards, env.terminations, env.truncations, env.infos)
    assert twin.truncated_by == env.truncated_by != "max_decisions"


def test_a_series_is_bounded_as_one_episode():
    """In a series the bound counts the whole episode (by default the per-game bound times
    the games): a cut-off in its second game truncates the series, its infos keep the
    series entry."""
    env = envs.make("pokemon_baseball_v0", series=3, innings=1, max_innings=1,
                    max_decisions=120)
    rng = random.Random(0)
    decisions, final = play(env, 0, lambda legal, seat: rng.choice(legal))
    game = env.unwrapped
    assert decisions == 120 and game.series.game == 2, "cut off in the second game"
    check_cut_off(env, final)
    info = final["away"][3]["series"]
    assert info["over"] is False and info["game"] == 2
    assert envs.make("pokemon_baseball_v0", series=5).unwrapped.max_decisions == \
        5 * DEFAULT_MAX_DECISIONS["pokemon_baseball_v0"]
    assert envs.make("pokemon_baseball_v0", series={"games": 2}, max_decisions=50) \
        .unwrapped.max_decisions == 50


def test_the_bound_counts_from_restore():
    env = envs.make("thats_baseball_v0", raw=True, max_decisions=30)
    env.reset(seed=2)
    for _ in range(20):
        env.step(env.game.pending.legal[0])
    env.restore(env.save())
    assert env.decision_count == 0
    for _ in range(29):
        env.step(env.game.pending.legal[0])
    assert not any(env.truncations.values()) and env.truncated_by is None
    env.step(env.game.pending.legal[0])
    assert all(env.truncations.values()) and env.truncated_by == "max_decisions"


def test_a_users_subclass_gets_the_option():
    """A user's ruleset (a subclass passing its options on) takes the option, and its
    parent's bound; a ruleset that sets no bound of its own has FALLBACK_MAX_DECISIONS."""
    from dugout.envs.core.aec import BaseballAECEnv
    from dugout.envs.grand_slam.env import GrandSlamEnv

    class Mine(GrandSlamEnv):
        metadata = {**GrandSlamEnv.metadata, "name": "my_grand_slam_v0"}

        def __init__(self, **options):
            super().__init__(innings=1, **options)

    assert Mine().max_decisions == GrandSlamEnv.MAX_DECISIONS
    assert BaseballAECEnv.MAX_DECISIONS == FALLBACK_MAX_DECISIONS
    assert Mine(max_decisions=7).max_decisions == 7
    with pytest.raises(OptionError, match="max_decisions"):
        Mine(max_decisions=0)


# -- the option --------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [0, -1, 1.5, 10.0, "100", True, False, [100], np.float64(3)])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_bad_max_decisions_is_refused_naming_it(env_id, bad):
    with pytest.raises(OptionError, match="max_decisions must be None .* or an int of at "
                                          "least 1") as e:
        envs.make(env_id, max_decisions=bad)
    assert isinstance(e.value, DugoutError) and env_id in str(e.value)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "100", True])
def test_the_manager_challenge_refuses_a_bad_max_decisions(bad):
    with pytest.raises(OptionError, match="manager_challenge_v0: max_decisions must be"):
        manager_challenge_v0.env(max_decisions=bad)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_max_decisions_is_every_envs_option(env_id):
    assert "max_decisions" in option_names(env_id)
    assert env_options_from_flags(env_id, ["max_decisions=500"]) == {"max_decisions": 500}
    env = check_env_options(env_id, {"max_decisions": np.int32(500)})
    assert env.unwrapped.max_decisions == 500 and type(env.unwrapped.max_decisions) is int
    with pytest.raises(OptionError, match="max_decisions"):
        env_options_from_flags(env_id, ["max_decisions=lots"])


def test_the_manager_challenge_is_cut_off_at_its_bound():
    env = manager_challenge_v0.env(max_decisions=12)
    obs, info = env.reset(seed=0)
    keys = set(info)
    for step in range(1, 13):
        a = np.flatnonzero(env.action_masks())[0]
        obs, reward, term, trunc, info = env.step(a)
        assert set(info) == keys and not term
        assert trunc == (step == 12)
    from dugout.envs.core.errors import IllegalActionError
    with pytest.raises(IllegalActionError, match="max_decisions"):
        env.step(np.flatnonzero(env.action_masks())[0])
    env.reset(seed=0)
    assert env.decision_count == 0


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_docstring_documents_the_bound(env_id):
    doc = sys.modules[envs.spec(env_id).env_class.__module__].__doc__
    assert "`max_decisions`" in doc
    assert f"{DEFAULT_MAX_DECISIONS[env_id]:,}" in doc, "the default bound, as 10,000"


def test_the_manager_challenge_docstring_documents_the_bound():
    from dugout.envs.bottom_ninth import challenge
    assert "`max_decisions`" in challenge.__doc__
    assert f"{challenge.MAX_DECISIONS:,}" in challenge.__doc__


# -- errors naming what was wrong ----------------------------------------------------------------
@pytest.mark.parametrize("agent", ["umpire", None, 0, "Away"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_observe_of_an_agent_not_in_the_game(env_id, agent):
    for raw in (True, False):
        env = envs.make(env_id, raw=raw)
        env.reset(seed=0)
        with pytest.raises(UnknownAgentError, match=repr(agent)) as e:
            env.observe(agent)
        assert isinstance(e.value, ValueError) and isinstance(e.value, DugoutError)
        assert "away" in str(e.value) and "home" in str(e.value) and "observe" in str(e.value)
        with pytest.raises(UnknownAgentError, match=repr(agent)):
            env.unwrapped.view(agent)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_observe_before_reset_says_so(env_id):
    with pytest.raises(RuntimeError, match="before reset"):
        envs.make(env_id, raw=True).observe("away")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_restore_of_none_or_another_rulesets_state(env_id):
    other = "grand_slam_v0" if env_id != "grand_slam_v0" else "thats_baseball_v0"
    donor = envs.make(other, raw=True)
    donor.reset(seed=0)
    for series in (None, 3) if env_id == "pokemon_baseball_v0" else (None,):
        env = envs.make(env_id, raw=True, series=series) if series else envs.make(env_id, raw=True)
        with pytest.raises(DataError, match="None"):          # before any reset, too
            env.restore(None)
        env.reset(seed=1)
        before = dumps(env.game)
        for bad, named in ((None, "None"), (donor.game, type(donor.game).__module__), (42, "int")):
            with pytest.raises(DataError, match=named) as e:
                env.restore(bad)
            assert isinstance(e.value, ValueError) and "restore" in str(e.value)
            assert dumps(env.game) == before, "a refused restore leaves the env as it was"
        env.step(env.game.pending.legal[0])               # and it plays on
        env.restore(env.save())                           # a good one still restores


def test_the_manager_challenge_restore_of_none_names_it():
    env = manager_challenge_v0.env()
    env.reset(seed=0)
    with pytest.raises(TypeError, match="Campaign.*NoneType"):
        env.restore(None)
