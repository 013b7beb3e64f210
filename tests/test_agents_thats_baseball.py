"""That's Baseball managers: the view, the rulebook heuristic, the always/never baselines."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dugout.agents import RandomAgent, ViewAgent, agent_names, choose, make_agent
from dugout.agents.thats_baseball import (YES_NO_KINDS, ThatsBaseballAlwaysNever,
                                          ThatsBaseballHeuristic, thats_baseball_tables)
from dugout.envs import thats_baseball_v0
from dugout.envs.thats_baseball import ThatsBaseballView, load_team, rules
from dugout.envs.thats_baseball.env import OBS
from dugout.agents.play import head_to_head, play_game, turns
from dugout.evaluate.tournament import play_pairs
from helpers import games as n_games, option_labels

ENV = "thats_baseball_v0"
SAMPLE, REDS = load_team("sample").aas, load_team("reds").aas
PASS, ROLL = rules.PASS, rules.ROLL


def situation(decision, legal, *, inning=1, half=0, outs=0, bases=(False, False, False),
              score=(0, 0), seat=None, subject=-1, order=(0, 0)) -> ThatsBaseballView:
    """A view for a set-up situation; the seat defaults to whoever makes ``decision``."""
    batting_kinds = ("steal", "error_roll", "tag_up")
    if seat is None:
        seat = half if decision in batting_kinds else 1 - half
    return ThatsBaseballView(
        seat=seat, decision=decision, subject=subject, legal=tuple(legal),
        options=tuple((a, "") for a in legal), inning=inning, half=half, innings=9, outs=outs,
        bases=tuple(bases), score=tuple(score), lineups=(SAMPLE, REDS), order=order,
        tried_steal=(False, False, False), pickoff_tried=False, over=False)


@pytest.fixture(scope="module")
def heuristic():
    return ThatsBaseballHeuristic()


# -- the view -------------------------------------------------------------------------
def test_view_agrees_with_the_observation_in_random_games():
    env = thats_baseball_v0.env()
    o = OBS.offset
    agent = RandomAgent(1)
    checked = 0
    for seed in range(30):
        env.reset(seed=seed)
        for name, obs, info in turns(env):
            v = env.unwrapped.view(name)
            other = env.unwrapped.view("home" if name == "away" else "away")
            x = obs["observation"]
            assert v.decision == info["decision"]["kind"] and other.decision is None
            assert v.legal == tuple(np.flatnonzero(obs["action_mask"])) and other.legal == ()
            assert dict(v.options) == option_labels(info["decision"])
            assert x[o["outs"] + v.outs] == 1.0
            assert tuple(bool(b) for b in x[o["runners"]:o["runners"] + 3]) == v.bases
            assert x[o["batting"]] == v.batting
            assert round(x[o["due_up_batting"]] * 8 + 24) == v.batter_aa
            assert x[o["run_diff"]] == pytest.approx(max(-1, min(1, v.run_diff / 10)))
            assert v.lineups == (SAMPLE, REDS)
            assert dataclasses.replace(other, seat=v.seat, decision=v.decision, legal=v.legal,
                                       options=v.options, subject=v.subject) == v
            checked += 1
            env.step(agent.act(obs))
    assert checked > 1000


def test_view_refuses_unknown_agents_and_before_reset():
    env = thats_baseball_v0.raw_env()
    with pytest.raises(RuntimeError, match="before reset"):
        env.view("away")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent 'pitcher'"):
        env.view("pitcher")


# -- the heuristic in set-up situations ---------------------------------------------------
def test_steals_home_with_two_outs_in_a_tied_ninth(heuristic):
    v = situation("steal", (PASS, 3), inning=9, half=1, outs=2, bases=(False, False, True))
    assert heuristic.act({}, v) == 3
    values = heuristic.option_values(v)
    assert values[3] > values[PASS]


def test_does_not_steal_second_with_nobody_out_in_the_first(heuristic):
    v = situation("steal", (PASS, 1), inning=1, half=0, outs=0, bases=(True, False, False))
    assert heuristic.act({}, v) == PASS


def test_steal_follows_the_break_even_rate(heuristic):
    """The decision is the rule of the docstring: run when 1/2 beats the break-even rate."""
    t = thats_baseball_tables((SAMPLE, REDS))
    for inning, half, outs, lead in [(1, 0, 0, 0), (9, 1, 2, 0), (7, 0, 1, -1), (9, 0, 2, 3),
                                     (3, 1, 1, 2), (10, 1, 0, 0)]:
        v = situation("steal", (PASS, 1), inning=inning, half=half, outs=outs,
                      bases=(True, False, False), score=(0, lead) if half else (lead, 0))
        hold = t.batting_win_expectancy(inning, half, outs, 1, lead)
        safe = t.batting_win_expectancy(inning, half, outs, 2, lead)
        out = t.batting_win_expectancy(inning, half, outs + 1, 0, lead)
        steal = 0.5 * (safe - out) > hold - out + 1e-12
        assert heuristic.act({}, v) == (1 if steal else PASS), (inning, half, outs, lead)


def test_free_rolls_are_always_taken(heuristic):
    assert heuristic.act({}, situation("error_roll", (PASS, ROLL), outs=2)) == ROLL
    v = situation("tag_up", (PASS, ROLL), outs=1, bases=(False, False, True), subject=2)
    assert heuristic.act({}, v) == ROLL
    assert heuristic.option_values(v)[ROLL] >= heuristic.option_values(v)[PASS]


def test_pickoff_throws_at_the_runner_worth_most(heuristic):
    v = situation("pickoff", (PASS, 1, 3), outs=1, bases=(True, False, True))
    values = heuristic.option_values(v)
    assert heuristic.act({}, v) == max(values, key=values.get) != PASS


def test_doubles_up_the_lead_runner(heuristic):
    v = situation("dp_runner", (1, 3), inning=5, half=0, outs=1, bases=(True, False, True))
    assert heuristic.act({}, v) == 3


def test_double_play_roll_is_priced(heuristic):
    """Bases loaded, one out after the batter: the out is worth the forced run."""
    v = situation("double_play", (PASS, ROLL), inning=5, half=0, outs=1, bases=(True, True, True))
    values = heuristic.option_values(v)
    assert heuristic.act({}, v) == max(values, key=values.get)


def test_view_agent_needs_the_right_view(heuristic):
    with pytest.raises(ValueError, match="needs the manager's view"):
        heuristic.act({"action_mask": np.ones(5, np.int8)})
    with pytest.raises(TypeError, match="ThatsBaseballView"):
        heuristic.act({}, object())
    with pytest.raises(ValueError, match="not to act"):
        heuristic.act({}, dataclasses.replace(situation("steal", (0, 1)), decision=None, legal=()))


def test_heuristic_reads_only_the_view():
    """Two games at the same situation but with different dice to come: same decision."""
    env_a, env_b = thats_baseball_v0.raw_env(), thats_baseball_v0.raw_env()
    agent = ThatsBaseballHeuristic()
    for seed in range(20):
        env_a.reset(seed=seed)
        state = env_a.game.clone()
        from dugout.envs.core.dice import Dice
        state.dice = Dice(seed + 1000)
        env_b.reset(seed=seed + 1000)
        env_b.restore(state)
        name = env_a.agent_selection
        assert env_a.unwrapped.view(name) == env_b.unwrapped.view(name)
        assert choose(env_a, agent) == choose(env_b, agent)


# -- baselines ------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", YES_NO_KINDS)
def test_always_and_never_differ_from_the_heuristic_only_at_their_decision(kind, heuristic):
    always, never = ThatsBaseballAlwaysNever(kind, True), ThatsBaseballAlwaysNever(kind, False)
    env = thats_baseball_v0.env()
    rnd = RandomAgent(0)
    seen = 0
    for seed in range(15):
        env.reset(seed=seed)
        for name, obs, _ in turns(env):
            v = env.unwrapped.view(name)
            if v.decision == kind:
                seen += 1
                assert never.act(obs, v) == PASS
                assert always.act(obs, v) != PASS
            else:
                assert always.act(obs, v) == never.act(obs, v) == heuristic.act(obs, v)
            env.step(rnd.act(obs))
    assert seen > 0


def test_unknown_baseline_kind():
    with pytest.raises(ValueError, match="dp_runner"):
        ThatsBaseballAlwaysNever("dp_runner", True)


def test_every_agent_plays_whole_games_without_an_illegal_action():
    env = thats_baseball_v0.env()
    names = agent_names(ENV)
    assert {"random", "heuristic", "always-steal", "never-steal", "search"} <= set(names)
    assert len(names) == 5 + 2 * len(YES_NO_KINDS)      # random, heuristic, solver, search, pretrained, baselines
    names = ["search:sims=2,batch=1" if n == "search" else n for n in names]   # a small budget
    games, per_pair = 0, n_games(40, 10)
    for i, a in enumerate(names):
        b = names[(i + 1) % len(names)]
        agents = {"away": make_agent(ENV, a, 1), "home": make_agent(ENV, b, 2)}
        for seed in range(per_pair):
            result = play_game(env, agents, seed)     # raises on an illegal action
            assert result.winner in ("away", "home")
            games += 1
    assert games == per_pair * len(names)


def test_registry_errors_name_the_choices():
    with pytest.raises(ValueError, match="unknown agent 'genius'.*heuristic"):
        make_agent(ENV, "genius")
    with pytest.raises(ValueError, match="unknown environment 'cricket_v0'"):
        make_agent("cricket_v0", "random")
    assert isinstance(make_agent(ENV, "heuristic"), ViewAgent)


def test_a_thread_asking_while_another_registers_waits_for_every_manager(monkeypatch):
    """The registry marks a ruleset loaded before its managers register (they call back into
    it); another thread asking for the managers meanwhile must wait for all of them, not see
    a half-filled list (the web app's sessions ask from several threads)."""
    import threading
    import time
    from dugout.agents import registry
    monkeypatch.setattr(registry, "_BUILT_IN_LOADED", set())
    monkeypatch.setattr(registry, "_REGISTRY", {})
    started = threading.Event()
    slow = registry._register_ruleset

    def slowly(env_id, record):
        started.set()
        time.sleep(0.3)
        slow(env_id, record)
    monkeypatch.setattr(registry, "_register_ruleset", slowly)
    loader = threading.Thread(target=agent_names, args=(ENV,))
    loader.start()
    assert started.wait(5)
    names = agent_names(ENV)                 # while the loader sleeps between random and the rest
    loader.join()
    assert "heuristic" in names and "search" in names, names


# -- strength, with statistics ------------------------------------------------------------
@pytest.mark.full
def test_heuristic_beats_random_and_always_steal_significantly():
    """300 seat-swapped pairs each; the 95% interval of the pair score must clear 1/2.

    Measured at 4,000 games: about 75% against random and 80% against always-steal,
    so these margins are many standard errors (about 2.5 points at 300 pairs) wide.
    """
    for other in ("random", "always-steal"):
        r = head_to_head(ENV, "heuristic", other, pairs=300, seed=10_000)
        assert r.low > 0.5, (other, r)
        assert len(r.pairs) == 300 and r.score == sum(p.score for p in r.pairs) / 300


def test_one_pair_player_for_objects_names_and_tournaments():
    """Training's in-memory head-to-head (agent objects), the same by name, and the
    tournament's worker function play the very same pairs, seeded by role."""
    by_name = head_to_head(ENV, "heuristic", "random", pairs=12, seed=5)
    by_object = head_to_head(ENV, make_agent(ENV, "heuristic"), make_agent(ENV, "random"),
                             pairs=12, seed=5)
    assert by_name.pairs == by_object.pairs == play_pairs(ENV, "heuristic", "random", range(5, 17))
    assert (by_name.a, by_object.a) == ("heuristic", "heuristic")
    with pytest.raises(ValueError, match="at least 2 pairs"):
        head_to_head(ENV, "heuristic", "random", pairs=1)
