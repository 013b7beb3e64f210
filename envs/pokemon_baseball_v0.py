"""Pokemon Baseball, PettingZoo-style entry point: ``env()`` and ``raw_env()``.

The full documentation (agents, actions, observation table, rewards, series) is the
docstring of :mod:`dugout.envs.pokemon_baseball.env`, which this module shows as its own.
"""

from __future__ import annotations

from .core.entry import entry_points
from .pokemon_baseball.env import PokemonBaseballEnv
from .pokemon_baseball.env import __doc__ as _env_doc
from .pokemon_baseball.view import PokemonBaseballView

__doc__ = _env_doc
__all__ = ["env", "raw_env", "PokemonBaseballEnv", "PokemonBaseballView"]

raw_env, env = entry_points(PokemonBaseballEnv)
