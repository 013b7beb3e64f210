"""Exact solvers: the optimal manager and exact policy evaluation, per ruleset.

* :mod:`dugout.agents.solvers.thats_baseball`: That's Baseball, solved by backward
  induction over every state of the game (``dugout solve thats_baseball``; its check
  against simulation: ``dugout verify thats_baseball``).
* :mod:`dugout.agents.solvers.bottom_ninth`: Bottom of the 9th's duel, a zero-sum
  stochastic game with a simultaneous stare-down at every pitch, solved by Shapley's value
  iteration (``dugout solve bottom_ninth``; its check against simulation: ``dugout verify
  bottom_ninth``).

Each command line's ``python -m`` module (``...thats_baseball``, ``...thats_baseball.check``,
``...bottom_ninth``, ``...bottom_ninth.check``) is an alias of its ``dugout`` subcommand.
:mod:`.flags` holds what both solvers' command lines check alike (the managers of
``--agents``, before a solve); :mod:`.report` what they print alike (a solve's memory and
saved file, a check's row); :mod:`.files` the solved tables on disk.
"""
