"""Batched engines: many games stepped at once in numpy, for training and evaluation at scale.

The scalar engines (``dugout.envs.<ruleset>.rules``) play one game in plain Python: clear,
cloneable, and about 100,000 decisions a second. A learner wants millions. The engines here
keep the state of B games as a structure of arrays (one row per game) and apply each rule
to every game at that rule with masked numpy operations, so a step of the whole batch costs
a few hundred numpy calls whatever B is.

* :class:`BatchedGames` (:mod:`dugout.vector.thats_baseball`): That's Baseball. Game ``i``
  of a batch is *exactly* the scalar game with the same seed and actions: the same decisions
  (kind, actor, subject, legal actions), the same observation vectors bit for bit
  (``thats_baseball.env.encode_view``), the same score, winner and truncation.
  ``tests/test_vector_thats_baseball.py`` checks that over thousands of games.
* :mod:`dugout.vector.dice`: the keyed SplitMix64 dice of :mod:`dugout.envs.core.dice` over
  ``uint64`` arrays, so that each game of a batch draws the numbers ``Dice(seed)`` draws.
* its benchmark, decisions per second under random play, is the lab's
  (:mod:`dugout.studies.bench_vector`, ``dugout bench vector``).

The engines use numpy and the scalar rulesets (whose observation layout lives in the AEC
env module, so PettingZoo is loaded too), never torch. The Gymnasium ``VectorEnv`` over them
is :mod:`dugout.vector.env`, loaded when ``ThatsBaseballVectorEnv`` is first asked for.
"""

from .thats_baseball import BatchedGames

__all__ = ["BatchedGames", "ThatsBaseballVectorEnv"]


def __getattr__(name: str):
    # the VectorEnv needs Gymnasium: import it only when it is asked for
    if name == "ThatsBaseballVectorEnv":
        from .env import ThatsBaseballVectorEnv
        return ThatsBaseballVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
