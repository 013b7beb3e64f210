"""An exact solver for Bottom of the 9th's duel: minimax play and exact exploitability.

    python -m dugout.agents.solvers.bottom_ninth --away p01,p05 --home default

The duel (one half inning: the batter needs one run, the pitcher three outs) is a finite
zero-sum stochastic game with a simultaneous move at every pitch: the stare-down is a
4 x 4 matrix game (the pitch thrown against the pitch guessed) whose payoffs are the
values of what follows. Shapley's value iteration (Shapley 1953, "Stochastic games", PNAS
39) solves it: at each stare-down state the matrix game is solved exactly, dice take
expectations, and the sequential decisions (abilities, relief, the pitching change) take
their side's best; a state that can repeat (a foul with two strikes) is iterated to its
fixed point. Values are the batting side's (home's) win probability.

State space
-----------
Generated from the engine's own rules for the two teams (six batters, a starter and a
substitute), the card set, the Pitch die's faces, the fatigue track's rows and the out rule:

* **Stare-down states** ``(pit, slot, outs, bases, balls, strikes, direction row,
  location row)``: ``pit`` 0 while the starter pitches, 1 once the substitute is in (his
  rows never above 1). That is all the engine's state that matters: the duel is 0-0 until
  it ends, the plate appearance and pitch numbers only key the dice, a removed pitcher
  never returns. The default teams (4 rows) have 43,200 such states; rows ``R`` give
  ``1,728 * (R^2 + (R-1)^2)``.
* **Inside a pitch** (:mod:`.pitch`): from the reveal of ``(pitch, guess)`` the grants,
  the dice, each side's ability decisions one at a time and the swing table form a graph
  that depends only on the batter's and the pitcher's cards; it is built by running the
  engine's ability rules on a probe (which grant pays, natural rolls, what a reroll can
  roll), once per pair of cards, and evaluated for many situations at once from the value
  of each result (ball, hit by pitch, strike, foul, run phase, crushed) in each.
* **Clean-up states** ``(pit, slot, outs, bases, rows)``: the relief split (the engine's
  splits and effects), then the pitching change, then the next batter's first pitch.

The state space is bounded by the rules themselves, with no cut-off: every plate
appearance that does not end the game adds an out or a runner, and within one the count
and the rows only move forward, except the two-strike foul (a self-loop). States are solved
in layers of equal ``(outs + runners, balls + strikes, rows)``, latest first (:mod:`.model`);
a looping layer is solved by the secant method on ``T(v) - v`` until no value moves by
more than 1e-13 (``T`` is a contraction whose modulus is the chance of that foul).

Solve time and memory for the default teams (4 rows): about 35 s on one core, 3.8 MiB of
tables and a process peak of about 215 MiB; ``python -m dugout.agents.solvers.bottom_ninth``
prints both.

What it does not cover
----------------------
* **The longer game** (``mode="game"``): its state adds the score, the inning, both
  teams' lineup places, benches and four pitchers each with their runs allowed, pinch
  hitters and double switches: many orders of magnitude more states, and its pitch graphs
  differ for every batter (a pitcher at bat too) against every pitcher. Not solved; the
  agent refuses it.
* **The set-up** (``teams="choose"`` and the draft): choosing six of twenty batters in order
  and two of twelve pitchers would mean a solve per candidate team (tens of millions of
  them). The solver takes the teams as given; :class:`EquilibriumAgent` makes set-up
  decisions with the rulebook heuristic and then plays the duel it finds solved.

Exact evaluation
----------------
:func:`exploitability` gives a manager's value against the equilibrium manager and against
its own best response in each seat, from the same backward pass with the manager's
decisions in place of max/min. The manager is asked (:func:`policy_table`) at every
stare-down, relief and pitching-change decision of its seat, ``action_probabilities`` when it
has one (the heuristic's and the equilibrium manager's mixed stare-down), a trained policy
in batches; at ability decisions it is taken to play as the equilibrium manager does
(:mod:`.evaluation` says why).

Modules
-------
========================  ===============================================================
``pitch``                 one pitch after the stare-down as a graph (:class:`PitchGraph`)
``model``                 :class:`Duel`: teams and options, states, layers, clean-ups
``induction``             the backward pass for optimal, solved or tabled play
``solution``              :class:`Solution`, :func:`solve`, :func:`cached_solution`, files
``policy``                managers as policy tables (:func:`policy_table`)
``evaluation``            :func:`evaluate`, :func:`exploitability`
``reached``               a search manager's table, asked at the decisions duels reach
                          (the heuristic elsewhere): asking it everywhere takes hours
``agent``                 :class:`EquilibriumAgent` (``make_agent("bottom_ninth_v0", "solver")``)
``situation``             a stare-down set up in the engine and played out
``cli``, ``__main__``     ``dugout solve bottom_ninth`` (``python -m dugout.agents.solvers.bottom_ninth``)
``check``                 ``dugout verify bottom_ninth`` (``python -m ...bottom_ninth.check``,
                          :func:`~.check.verify`): solved values against 100,000 simulated
                          games per state
========================  ===============================================================
"""

# the stare-down's matrix games (batched, by vertex enumeration): one solver for this and the
# heuristic, :mod:`dugout.agents.matrix_game`; named here too, where the solver's users find them
from ...matrix_game import game_value, solve_games
from .agent import EquilibriumAgent
from .evaluation import ASKED_KINDS, AsEvaluated, Exploitability, evaluate, exploitability
from .model import Duel
from .pitch import PitchGraph
from .policy import PolicyTable, policy_table
from .situation import play_out, start_state
from .solution import RULES_VERSION, Solution, cached_solution, solve

__all__ = ["Duel", "Solution", "solve", "cached_solution", "EquilibriumAgent", "PolicyTable",
           "policy_table", "evaluate", "exploitability", "Exploitability", "solve_games",
           "game_value", "start_state", "play_out", "PitchGraph", "AsEvaluated", "ASKED_KINDS",
           "RULES_VERSION"]
