"""An exact solver for That's Baseball: the optimal manager and exact policy evaluation.

That's Baseball has perfect information and dice as its only chance, so the home team's
chance of winning under optimal play is a number we can compute, from every state, by
backward induction (Zermelo; for the stochastic game, Shapley 1953 "Stochastic games",
PNAS 39: value iteration on a zero-sum game with chance nodes). Each manager maximises
his own team's chance of winning: the home manager maximises the home win
probability, the away manager minimises it, and dice nodes take its expectation.

    python -m dugout.agents.solvers.thats_baseball --away sample --home reds

State space
-----------
A state is (inning, half, score difference ``d`` = home runs - away runs, each team's
place in its batting order, outs, and where the engine is inside the plate appearance).
Inside a plate appearance the engine (``dugout.envs.thats_baseball.rules``) walks
through these nodes, each with its outs and its runners (a 3-bit mask):

========  ========  ==========================================================
node      who       what it is
========  ========  ==========================================================
``S``     batting   steal decision; carries which runners already tried to
                    steal before this batter (a runner tries at most once)
``P``     fielding  pickoff decision (one throw per batter)
``AB``    dice      the batter's roll: adjusted average + 2d6 on the chart, and
                    the extra-base-hit die
``E``     batting   error roll after a ground out (outs before the out)
``D``     fielding  double-play roll (outs after the batter's out)
``R``     fielding  which runner is doubled up (``dp_runner``)
``T``     batting   tag-up of the runner on third, then second, then first
========  ========  ==========================================================

A node with no choice is skipped exactly as the engine skips it (no steal candidate
goes straight to the pickoff, empty bases straight to the roll). The ``S`` nodes' steal
flags are only those the engine can reach (a runner who stole second or third in this
plate appearance); ``pickoff_tried`` needs no node of its own, since the pickoff is
offered exactly once per batter. Rules followed exactly as RULES.md reads them: a
caught stealing or pickoff for the third out ends the half with the batter still due
up; a double play that is the third out scores nobody; tag-ups third to first, each
only to an empty base; the home team does not bat when ahead after the top of the last
inning; in the bottom of the last inning or later the game ends when the home team
leads (the walk-off cap on runs changes the score, never the winner).

The value of a node is an array over (batting team's batter, fielding team's next
batter), 9 x 9: the fielding team's place only matters at the end of the half, but
vectorising over it costs nothing. Within a half inning the score difference only
moves one way (the batting team scores), and with the runs left out every transition
that keeps the outs strictly moves runners forward. So the half is solved for one
``d`` at a time, from the most runs scored back to the fewest, and within one ``d``
in topological order of the run-free transitions (checked when the graph is built).

Extra innings
-------------
Inning ``innings`` and every extra inning have the same rules (walk-off, no bottom
half when the home team leads), and an extra inning always starts tied. Its value
``X[away batter, home batter]`` is therefore the fixed point of one inning whose tied
end is worth ``X`` again: ``X = T(X)``. ``T`` is a contraction with modulus the chance
of a tied inning, so value iteration from ``X = 1/2`` converges geometrically; it
stops when no entry moves by more than ``tol`` (1e-13). Layers ``0 .. innings-1`` are
the scheduled innings and layer ``innings`` stands for every extra inning (agents are
asked with ``inning = innings + 1`` there and assumed to play every extra inning
alike; the solver's own policy is stationary there exactly).

The score bound
---------------
Differences ``|d| <= bound`` (default 20) are solved exactly. A state whose difference
leaves the bound is scored as won by the team ahead (an absorbing approximation, which
keeps the graph acyclic). It can only matter after a team has led by more than
``bound`` runs and then lost; :func:`bound_effect` measures it by solving with two
bounds. Sample at reds, 9 innings, bound 20 against 30: the game value moves by
3.5e-8, start values with ``|d| <= 10`` by at most 5.1e-5, with ``|d| <= 15`` by
5.4e-4, and at the bound itself by 2.6e-3 (bound 10 would move the game value 4.4e-4).

Policy evaluation
-----------------
Any manager following the agent protocol is turned into a policy table by asking it
at every decision state of its seat (:func:`policy_table`): a view
(:class:`~dugout.envs.thats_baseball.view.ThatsBaseballView`) is built for the state
and, if the agent has ``action_probabilities(observation, view)`` (a mapping or sequence
over the five actions; the agent protocol's optional method), that distribution is used,
all of a decision node's states in one call when the agent has
``action_probabilities_batch(observations, masks)`` (a trained policy); an agent whose
``deterministic`` attribute is true is tabled by its most likely action; otherwise
``act(observation, view)`` is taken as deterministic (a
:class:`~dugout.agents.RandomAgent` is known to be uniform). The same
backward pass with the table in place of max/min gives the agent's exact win
probability against the solver's optimal policy, against any other table, or against a
best response (:func:`evaluate`). Two readings make the table finite: the view's score
is given as ``(max(0, -d), max(0, d))`` (the game depends on the difference only), and
after the steal phase ``tried_steal`` and ``pickoff_tried`` are shown as False (they no
longer affect the game). An agent that reads the total runs or those flags is
evaluated as if the game had those values there.

"Gap to optimal" (:func:`gap_to_optimal`) is, for each seat, the optimal manager's win
probability in that seat against the optimal manager minus the agent's win probability
in that seat against the optimal manager; it is never negative, since the optimal
policy guarantees the game value against anybody.

Modules
-------
========================  ===============================================================
``chart``                 the batter's roll (each outcome's chance per adjusted average,
                          from the engine's charts),
                          the checks on lineups, innings (1 to 9) and bound (1 to 100)
``graph``                 the plate appearance as a graph (:data:`GRAPH`), generated by
                          running the engine's rules from each node, a die total at a time
``induction``             backward induction: a half inning, the whole game, the
                          extra-inning fixed point, and the choosers at decision nodes
``solution``              :class:`Solution`, :func:`solve`, :func:`cached_solution`
``storage``               the file format, the rules version, the cache paths
``policy``                other managers as policy tables (:func:`policy_table`)
``evaluation``            :func:`evaluate`, :func:`gap_to_optimal`, :func:`bound_effect`,
                          :func:`expected_runs`
``reached``               a search manager's table, asked at the states games reach
                          (the heuristic elsewhere): asking it everywhere takes days
``agent``                 :class:`SolverAgent`, the optimal manager
``situation``             a situation set up in the engine, played out (:func:`play_out`)
``cli``, ``__main__``     ``dugout solve thats_baseball`` (``python -m
                          dugout.agents.solvers.thats_baseball``, ``cli.main``)
``check``                 ``dugout verify thats_baseball`` (``python -m ...thats_baseball.check``,
                          :func:`~.check.verify`): the solved values against 100,000
                          simulated games per state
========================  ===============================================================

Observations for agents that read the vector are the env's own,
:func:`dugout.envs.thats_baseball.env.encode_view` of the view. Only ``cli`` imports
the agent registry (to make other managers by name); the package's own namespace holds
no command line.
"""

from __future__ import annotations

from .agent import SolverAgent
from .chart import outcome_probabilities
from .evaluation import REFERENCE_RULE, Gap, bound_effect, evaluate, expected_runs, gap_to_optimal
from .graph import GRAPH
from .policy import PolicyTable, policy_table
from .situation import play_out, situation
from .solution import DEFAULT_BOUND, Solution, cached_solution, solve
from .storage import RULES_VERSION

__all__ = ["Solution", "PolicyTable", "SolverAgent", "Gap", "GRAPH", "solve", "cached_solution",
           "policy_table", "evaluate", "gap_to_optimal", "bound_effect", "expected_runs",
           "outcome_probabilities", "situation", "play_out", "RULES_VERSION", "DEFAULT_BOUND",
           "REFERENCE_RULE"]
