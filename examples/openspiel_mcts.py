"""OpenSpiel's MCTS against dugout's heuristic on Bottom of the 9th's duel.

    pip install 'dugout-baseball[openspiel]'
    python examples/openspiel_mcts.py

Importing ``dugout.integrations.openspiel`` registers every dugout ruleset as a pyspiel game
(``dugout_bottom_ninth``, ``dugout_showdown``, ...; ``docs/openspiel.md``). The duel's dice are
explicit chance nodes; the MCTS bot searches worlds drawn from its own seat's information
state, so it never sees the pitch the other manager committed or the dice to come.
"""

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

from dugout.integrations import openspiel as dos

game = pyspiel.load_game("dugout_bottom_ninth")          # the duel: away pitches, home bats
print(game, "-", game.get_type().chance_mode)

results = []
for k in range(4):
    mcts_seat = k % 2                                     # seats swapped every game
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(k))
    # or rollouts played by dugout's heuristic on both sides:
    # evaluator = dos.ManagerRolloutEvaluator(game, "heuristic", seed=k)
    bots = [None, None]
    bots[mcts_seat] = dos.DeterminizedMCTSBot(game, mcts_seat, uct_c=2.0, max_simulations=16,
                                              evaluator=evaluator, seed=k)
    bots[1 - mcts_seat] = dos.ManagerBot(game, 1 - mcts_seat, "heuristic", seed=k)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(k))
    results.append(returns[mcts_seat])
    print(f"game {k}: MCTS {'pitching' if mcts_seat == 0 else 'batting'}, "
          f"{'won' if returns[mcts_seat] > 0 else 'lost'}")
print(f"MCTS won {sum(r > 0 for r in results)} of {len(results)}")
