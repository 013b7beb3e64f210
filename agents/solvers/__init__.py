"""Exact solvers: the optimal manager and exact policy evaluation, per ruleset.

* :mod:`dugout.agents.solvers.thats_baseball`: That's Baseball, solved by backward
  induction over every state of the game (``python -m dugout.agents.solvers.thats_baseball``;
  its check against simulation: ``python -m dugout.agents.solvers.thats_baseball.check``).
* :mod:`dugout.agents.solvers.bottom_ninth`: Bottom of the 9th's duel, a zero-sum
  stochastic game with a simultaneous stare-down at every pitch, solved by Shapley's value
  iteration (``python -m dugout.agents.solvers.bottom_ninth``; its check against
  simulation: ``python -m dugout.agents.solvers.bottom_ninth.check``).
"""
