"""Pokemon Baseball's managers: the heuristic's prices against the engine, and its play.

* ``pa_value`` (the heuristic's price of a plate appearance, from the charts) equals the
  engine's own expectation, computed exactly by playing every sequence of dice through the
  engine with scripted dice;
* the heuristic beats random with significance, and its lineup card is legal and uses
  rested creatures only;
* every registered name plays.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest

from dugout.agents import agent_names, make_agent
from dugout.agents.pokemon_baseball import (LINEAR_WEIGHTS, YES_NO_KINDS, pa_value, plan_lineup,
                                            reference_action)
from dugout.envs import make
from dugout.envs.core.dice import Dice, DiceScriptError, ScriptedDice
from dugout.envs.pokemon_baseball import rules
from dugout.envs.pokemon_baseball.cards import load_team

ENV = "pokemon_baseball_v0"
DICE = {"pitcher": (1, 6), "batter": (2, 6), "chart": (1, 6), "error": (2, 6), "injury": (1, 6)}


def _faces(dice: int) -> dict[int, Fraction]:
    if dice == 1:
        return {t: Fraction(1, 6) for t in range(1, 7)}
    return {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}


def first_plate_appearance(away: str, home: str) -> rules.GameState:
    """The game at the home manager's first defensive-substitution offer (nobody on, nobody
    out, the away leadoff batter up), both lineup cards set by the heuristic's plan."""
    state = rules.new_game(load_team(away), load_team(home), Dice(0))
    while state.pending.kind != "defense_sub":
        rules.apply_action(state, reference_action(state, state.pending))
    return state


def engine_expectation(state: rules.GameState) -> float:
    """The exact expected linear-weights value of the plate appearance, by walking every
    sequence of dice the engine asks for."""
    total = Fraction(0)
    stack = [([], Fraction(1))]
    while stack:
        script, p = stack.pop()
        s = state.clone()
        s.dice = ScriptedDice(script)
        try:
            rules.apply_action(s, rules.PASS)
        except DiceScriptError as error:
            purpose = re.search(r"asked for a '(\w+)' roll after", str(error)).group(1)
            for face, q in _faces(DICE[purpose][0]).items():
                stack.append((script + [face], p * q))
            continue
        play = [x for x in s.log.plays if x.kind == "pa"][-1]
        code = play.detail
        value = {"1B": "single", "2B": "double", "3B": "triple", "HR": "homerun", "BB": "walk",
                 "E": "error1" if play.base <= 6 else "error2"}.get(code, "out")
        total += p * Fraction(LINEAR_WEIGHTS[value]).limit_denominator(1000)
    return float(total)


@pytest.mark.parametrize("away, home", [("harbor", "summit"), ("ember", "grove")])
def test_pa_value_is_the_engines_exact_expectation(away, home):
    state = first_plate_appearance(away, home)
    t, f = 0, 1
    batter = state.creature(t, state.batter_creature())
    pitcher = state.creature(f, state.pitcher(f))
    levels = tuple(state.creature(f, state.at(f, p)).level for p in range(1, 10))
    stats = lambda c: (c.hp, c.level, c.attack, c.retreat)      # noqa: E731
    assert pa_value(stats(batter), stats(pitcher), levels) == pytest.approx(
        engine_expectation(state), abs=1e-9)


def test_pa_value_reads_the_fielders_of_each_plate_appearance():
    """pa_value works a batter's and a pitcher's chart cells out once; the cells hit to a
    fielder read his level every time: the same batter and pitcher in front of other
    fielders is again the engine's exact expectation, and a different one."""
    import dataclasses
    state = first_plate_appearance("harbor", "summit")
    t, f = 0, 1
    stats = lambda c: (c.hp, c.level, c.attack, c.retreat)      # noqa: E731
    seen = []
    for shift in (0, -12, 25):
        s = state.clone()
        roster = list(s.teams[f].roster)
        for position in range(2, 10):
            k = s.at(f, position)
            level = max(1, roster[k].level + shift + 2 * position)
            roster[k] = dataclasses.replace(roster[k], level=level)
        s.teams = (s.teams[0], dataclasses.replace(s.teams[f], roster=tuple(roster)))
        batter, pitcher = s.creature(t, s.batter_creature()), s.creature(f, s.pitcher(f))
        levels = tuple(s.creature(f, s.at(f, p)).level for p in range(1, 10))
        value = pa_value(stats(batter), stats(pitcher), levels)
        assert value == pytest.approx(engine_expectation(s), abs=1e-9), shift
        seen.append(value)
    assert len(set(seen)) == 3


def test_pa_value_follows_the_charts_directions():
    """Higher HP and attack help the batter; a higher batter level hurts him (Hit/Grounder
    subtracts it); a pitcher with more HP and attack gives up less."""
    levels = (30,) * 9
    base, pitcher = (70, 30, 60, 2), (80, 30, 70, 2)
    v = pa_value(base, pitcher, levels)
    assert pa_value((110, 30, 60, 2), pitcher, levels) > v
    assert pa_value((70, 30, 100, 2), pitcher, levels) > v
    assert pa_value((70, 70, 60, 2), pitcher, levels) < v
    assert pa_value(base, (120, 30, 110, 2), levels) < v


def test_plan_lineup_uses_rested_creatures_once():
    team, other = load_team("harbor"), load_team("summit")
    stats = lambda t: tuple((c.hp, c.level, c.attack, c.retreat) for c in t.roster)   # noqa: E731
    resting = [0] * len(team.roster)
    resting[team.rotation[0]] = 2
    for dh in (False, True):
        positions, order = plan_lineup(stats(team), stats(other), tuple(resting), dh)
        assert len(positions) == 9 + dh and len(set(positions)) == len(positions)
        assert team.rotation[0] not in positions
        assert sorted(order) == sorted(k for k in positions if not (dh and k == positions[0]))


def test_registry_names_every_baseline():
    names = agent_names(ENV)
    assert {"random", "heuristic"} <= set(names)
    for kind in YES_NO_KINDS:
        assert f"always-{kind}" in names and f"never-{kind}" in names


def play_pairs(a: str, b: str, pairs: int, **options) -> tuple[int, int]:
    """Games won by ``a`` and played, in seat-swapped pairs (seeds 0 .. pairs-1)."""
    env = make(ENV, **options)
    wins = games = 0
    for seed in range(pairs):
        for a_seat in ("away", "home"):
            agents = {a_seat: make_agent(ENV, a, seed=seed),
                      ("home" if a_seat == "away" else "away"): make_agent(ENV, b, seed=seed)}
            env.reset(seed=seed)
            for name in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                agent = agents[name]
                env.step(agent.act(obs, env.unwrapped.view(name) if agent.needs_view else None))
            games += 1
            wins += env.unwrapped.game.winner == ("away", "home").index(a_seat)
    return wins, games


@pytest.mark.full
def test_heuristic_beats_random_with_significance():
    wins, games = play_pairs("heuristic", "random", 60)
    # one-sided binomial test against 50%: z above 4 (measured: about 96% wins)
    z = (wins - games / 2) / math.sqrt(games / 4)
    assert z > 4, (wins, games)


@pytest.mark.parametrize("name", ["always-steal", "never-steal", "always-bunt", "always-tag_up",
                                  "always-offense_sub", "always-defense_sub"])
def test_baselines_play_whole_series(name):
    """Each baseline plays a best-of-3 series to its end against the heuristic, in either
    seat: the series is decided, and only its winner is paid."""
    env = make(ENV, series=3)
    for seed, seat in ((0, "away"), (1, "home")):
        agents = {seat: make_agent(ENV, name, seed=seed),
                  ("home" if seat == "away" else "away"): make_agent(ENV, "heuristic")}
        env.reset(seed=seed)
        paid = {"away": 0, "home": 0}
        for agent_name in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            paid[agent_name] += reward
            if term or trunc:
                env.step(None)
                continue
            agent = agents[agent_name]
            env.step(agent.act(obs, env.unwrapped.view(agent_name) if agent.needs_view else None))
        series = env.unwrapped.series
        assert series.over and 2 <= len(series.results) <= 3 and max(series.wins) == 2
        winner = ("away", "home")[series.winner]
        assert paid == {winner: 1, ("home" if winner == "away" else "away"): -1}
