"""``examples/heuristic_rule.py``: a heuristic with one rule changed, measured against the
original. With the original rule's settings it is the heuristic, pair for pair; with a looser
rule it sends pinch runners the heuristic does not; its command line prints A's score."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from dugout.agents.play import play_pair
from dugout.agents.pokemon_baseball import RUNNER, PokemonBaseballHeuristic
from dugout.envs import make

PATH = Path(__file__).resolve().parent.parent / "examples" / "heuristic_rule.py"


def _example():
    spec = importlib.util.spec_from_file_location("dugout_example_heuristic_rule", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Counting(PokemonBaseballHeuristic):
    """A manager that plays as ``agent`` and counts its pinch runners."""

    def __init__(self, agent):
        super().__init__()
        self.agent, self.runners = agent, 0

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, obs, view=None):
        action = self.agent.act(obs, view)
        self.runners += view.decision == "offense_sub" and action in (RUNNER + 1, RUNNER + 2)
        return action


def test_the_original_rule_is_the_heuristic_and_a_looser_one_runs_more():
    ex = _example()
    env = make("pokemon_baseball_v0")
    same = Counting(ex.PinchRunner(inning=8, lead=2, speed=2))
    loose = Counting(ex.PinchRunner(inning=1, lead=99, speed=1))
    base = Counting(PokemonBaseballHeuristic())
    for seed in range(6):
        assert play_pair(env, same, PokemonBaseballHeuristic(), seed) == \
            play_pair(env, base, PokemonBaseballHeuristic(), seed)
        play_pair(env, loose, PokemonBaseballHeuristic(), seed)
    assert same.runners == base.runners
    assert loose.runners > base.runners + 5


def test_the_command_prints_the_score_and_refuses_bad_flags(capsys):
    ex = _example()
    score = ex.main(["--pairs", "4", "--inning", "8", "--speed", "2"])
    assert score == 0.5                      # the heuristic's own rule: every pair split
    assert "against the heuristic: 50.0% (50.0-50.0%) over 4 pairs" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        ex.main(["--pairs", "0"])
    assert "--pairs" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ex.main(["--seed", "-1"])
    assert "--seed" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ex.main(["--seed", "4294967295", "--pairs", "2"])
    assert "--seed: the pairs play seeds 4294967295 to 4294967296" in capsys.readouterr().err
