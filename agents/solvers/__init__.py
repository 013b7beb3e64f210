"""Exact solvers: the optimal manager and exact policy evaluation, per ruleset.

* :mod:`dugout.agents.solvers.thats_baseball`: That's Baseball, solved by backward
  induction over every state of the game (``python -m dugout.agents.solvers.thats_baseball``;
  its check against simulation: ``python -m dugout.agents.solvers.thats_baseball.check``).
"""
