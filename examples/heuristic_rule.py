"""Try a change to one rule of a heuristic: subclass it, override the rule, and play the
changed manager against the original in seat-swapped pairs on the same dice.

    python examples/heuristic_rule.py                         # pinch runners from the 7th inning
    python examples/heuristic_rule.py --inning 1 --lead 99    # pinch runners at any time
    python examples/heuristic_rule.py --pairs 2000 --speed 1

Pokemon Baseball's heuristic sends a pinch runner for a runner on first or second only from
the 8th inning, in a game within two runs, when a bench creature is at least two speed points
faster. The search's decision report finds points left at those decisions (docs/search.md);
this script measures a rule that pinch-runs from ``--inning`` on, within ``--lead`` runs,
``--speed`` points faster, against the heuristic as it is: A's score over ``--pairs`` pairs
(each seed twice, the seats swapped) with its 95% interval over pairs.
"""

from __future__ import annotations

import argparse
import time

from dugout.agents.play import head_to_head
from dugout.cli import args
from dugout.agents.pokemon_baseball import RUNNER, PokemonBaseballHeuristic


class PinchRunner(PokemonBaseballHeuristic):
    """The heuristic, with its pinch-running rule changed: from ``inning`` on, within
    ``lead`` runs, a runner on first or second is replaced by the fastest bench creature
    when that one is at least ``speed`` points faster (speed: lower is faster)."""

    name = "pinch-runner"

    def __init__(self, inning: int, lead: int, speed: int):
        super().__init__()
        self.inning, self.lead, self.speed = inning, lead, speed

    def _offense_scores(self, view):
        scores = super()._offense_scores(view)
        t = view.seat
        bench = view.available(t)
        if not bench or view.inning < self.inning or abs(view.lead) > self.lead:
            return scores
        fastest = min(view.stats[t][k][3] for k in bench)
        for i in (1, 2):
            k = view.runners[i]
            gain = view.stats[t][k][3] - fastest if k >= 0 else 0
            if RUNNER + i in view.legal and k != view.pitcher(t) and gain >= self.speed:
                scores[RUNNER + i] = max(scores[RUNNER + i], 0.01 * gain)
        return scores


def main(argv=None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=args.count(1, args.MAX_GAMES, "pairs"), default=500,
                        help="seat-swapped pairs (default 500)")
    parser.add_argument("--inning", type=args.integer(1, 99, "an inning"), default=7,
                        help="from this inning on (default 7)")
    parser.add_argument("--lead", type=args.integer(0, 99, "runs"), default=2,
                        help="within this many runs (default 2)")
    parser.add_argument("--speed", type=args.integer(1, 99, "speed points"), default=2,
                        help="this many points faster (default 2)")
    parser.add_argument("--seed", type=args.seed, default=0, help="the first pair's seed (default 0)")
    ns = parser.parse_args(argv)
    if ns.seed + ns.pairs - 1 > args.MAX_SEED:
        parser.error(f"--seed: the pairs play seeds {ns.seed} to {ns.seed + ns.pairs - 1}; the last "
                     f"must be at most {args.MAX_SEED}")
    start = time.perf_counter()
    result = head_to_head("pokemon_baseball_v0", PinchRunner(ns.inning, ns.lead, ns.speed),
                          PokemonBaseballHeuristic(), ns.pairs, seed=ns.seed)
    print(f"pinch runners from inning {ns.inning}, within {ns.lead} runs, {ns.speed} points "
          f"faster, against the heuristic: {100 * result.score:.1f}% ({100 * result.low:.1f}-"
          f"{100 * result.high:.1f}%) over {ns.pairs} pairs, {time.perf_counter() - start:.0f} s")
    return result.score


if __name__ == "__main__":
    main()
