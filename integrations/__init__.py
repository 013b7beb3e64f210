"""Recipes for using dugout's environments from other RL libraries.

* :mod:`dugout.integrations.rllib`: Ray RLlib (``pip install 'dugout-baseball[rllib]'``): a
  ``MultiAgentEnv`` for every registered env, their registration with Tune, and a
  multi-agent PPO config with action masking.

Nothing here is imported by the rest of dugout, and importing this package imports no
RL library; each recipe imports its library when it is used.
"""

__all__: list[str] = []
