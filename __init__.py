"""dugout: reinforcement-learning environments for tabletop baseball games.

Sub-packages: ``dugout.envs`` (the games), ``dugout.agents`` (managers),
``dugout.train`` (learning managers) and ``dugout.evaluate`` (comparing them).
"""

__version__ = "0.1.0"
