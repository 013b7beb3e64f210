"""PettingZoo's own tools on every dugout env: its API and seed tests, its wrappers, and the
turn-based parallel conversion.

    .venv/bin/python examples/pettingzoo_tools.py                  # every registered env
    .venv/bin/python examples/pettingzoo_tools.py --env showdown_v0 --benchmark

* ``api_test`` and ``seed_test`` (``pettingzoo.test``) on ``env()``, and ``api_test`` again on
  the wrapper chain PettingZoo's classic games use: ``raw_env()`` inside
  ``TerminateIllegalWrapper`` (an illegal action ends the game, -1 to the offender),
  ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``;
* ``MultiEpisodeEnv`` (several games as one episode, e.g. for evaluation);
* ``aec_to_parallel`` refuses the envs (``is_parallelizable`` is False: a manager may decide
  several times in a row), but ``turn_based_aec_to_parallel`` works, and PettingZoo's
  ``parallel_api_test`` passes on it;
* ``performance_benchmark`` (``--benchmark``, 5 seconds an env).

Not applicable: ``max_cycles_test`` (needs a ``parallel_env`` module function and a
``max_cycles`` option), ``bombardment_test`` (in PettingZoo 1.27 it keeps ``env.step()``'s
``None`` as the next observation, so it fails for any env with dict observations),
``ClipOutOfBoundsWrapper`` (Box actions), ``CaptureStdoutWrapper`` (the envs render text with
``render_mode="ansi"`` themselves) and ``render_test`` (run by ``tests/test_picture.py``).
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import warnings

import numpy as np
from pettingzoo.test import api_test, parallel_api_test, performance_benchmark, seed_test
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel
from pettingzoo.utils.wrappers import (AssertOutOfBoundsWrapper, MultiEpisodeEnv,
                                       OrderEnforcingWrapper, TerminateIllegalWrapper)

import dugout.envs


def quiet(fn):
    """PettingZoo's tests hand ``reset()`` an ``options`` dict; the envs warn that they ignore it."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r".*reset\(\) ignores options.*")
            warnings.filterwarnings("ignore", message=r".*illegal move.*")
            return fn(*args, **kwargs)
    return run


def classic_chain(env_id: str, **options):
    """``raw_env()`` in the wrappers PettingZoo's classic games put around theirs."""
    raw = dugout.envs.make(env_id, raw=True, **options)
    return OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw, illegal_reward=-1)))


@quiet
def run_api_tests(env_id: str, num_cycles: int = 300, **options) -> None:
    api_test(dugout.envs.make(env_id, **options), num_cycles=num_cycles)
    seed_test(functools.partial(dugout.envs.make, env_id, **options), num_cycles=num_cycles)
    api_test(classic_chain(env_id, **options), num_cycles=num_cycles)


@quiet
def illegal_move_through_the_chain(env_id: str, seed: int = 0, legal_moves: int = 5, **options):
    """A few legal moves, then an illegal one through ``classic_chain``: the rewards after it."""
    env = classic_chain(env_id, **options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(legal_moves):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    offender = env.agent_selection
    mask = env.observe(offender)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    return offender, dict(env.rewards), dict(env.terminations)


@quiet
def multi_episode(env_id: str, episodes: int = 3, seed: int = 0, **options) -> list[dict]:
    """Play ``episodes`` games as one ``MultiEpisodeEnv`` episode; the score of each game."""
    env = MultiEpisodeEnv(dugout.envs.make(env_id, **options), num_episodes=episodes)
    env.reset(seed=seed)
    rng = random.Random(seed)
    scores = []
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            if "score" in info and (not scores or scores[-1][1] is not env.unwrapped.state_):
                scores.append((dict(info["score"]), env.unwrapped.state_))
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return [s for s, _ in scores]


@quiet
def parallel_view(env_id: str, num_cycles: int = 300, **options) -> None:
    """``aec_to_parallel`` refuses; ``turn_based_aec_to_parallel`` passes ``parallel_api_test``."""
    try:
        aec_to_parallel(dugout.envs.make(env_id, **options))
    except AssertionError:
        pass
    else:
        raise AssertionError(f"{env_id}: aec_to_parallel accepted an env that is not parallelizable")
    parallel_api_test(turn_based_aec_to_parallel(dugout.envs.make(env_id, **options)),
                      num_cycles=num_cycles)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", choices=dugout.envs.ENV_IDS,
                        help="an env id (repeatable); default: every registered env")
    parser.add_argument("--benchmark", action="store_true", help="PettingZoo's performance_benchmark too")
    args = parser.parse_args(argv)
    for env_id in args.env or dugout.envs.ENV_IDS:
        run_api_tests(env_id)
        print(f"{env_id}: api_test (env() and the classic wrapper chain) and seed_test passed")
        offender, rewards, _ = illegal_move_through_the_chain(env_id)
        print(f"{env_id}: TerminateIllegalWrapper: {offender} played an illegal action, rewards {rewards}")
        print(f"{env_id}: MultiEpisodeEnv: scores of 3 games in one episode: {multi_episode(env_id)}")
        parallel_view(env_id)
        print(f"{env_id}: aec_to_parallel refused; turn_based_aec_to_parallel passed parallel_api_test")
        if args.benchmark:
            performance_benchmark(dugout.envs.make(env_id))
    return 0


if __name__ == "__main__":
    sys.exit(main())
