"""dugout in OpenSpiel: OpenSpiel's MCTS against dugout's heuristic, and OpenSpiel's CFR and
dugout's equilibrium solver on the Bottom of the 9th duel with blank cards.

    python -m dugout.studies.openspiel_interop                     # the defaults: a few minutes
    python -m dugout.studies.openspiel_interop --games 100 --simulations 32 --cfr-iterations 20000

**1. MCTS against the heuristic** (``pyspiel`` game ``dugout_bottom_ninth``: the duel, the
built-in cards, explicit chance). OpenSpiel's ``MCTSBot`` (UCT constant 2, ``--simulations`` a
decision split over 4 worlds drawn from its seat's information state:
:class:`~dugout.integrations.openspiel.DeterminizedMCTSBot`), once with OpenSpiel's random
rollouts (``RandomRolloutEvaluator``) and once with rollouts where both sides play dugout's
heuristic (:class:`~dugout.integrations.openspiel.ManagerRolloutEvaluator`), against dugout's
heuristic as an OpenSpiel bot (:class:`~dugout.integrations.openspiel.ManagerBot`), through
OpenSpiel's ``evaluate_bots``; ``--games`` duels a match, seats swapped every game (game ``k``:
MCTS pitches when ``k`` is even; chance drawn by ``evaluate_bots`` with ``RandomState(seed +
k)``). The score is MCTS's share of games won, with a 95% Wilson interval, beside the
heuristic's own share in the same seats and games (the baseline: the duel favours the
pitching side, so a share is read against it).

**2. Equilibrium agreement** (the duel with blank cards: six batters and two pitchers with
nothing on their cards but the Aces, 3 fatigue rows; what ``dugout solve bottom_ninth``
solves for such cards). dugout's solver gives the game value (the batting side's chance of
winning with both sides optimal). OpenSpiel's outcome-sampling MCCFR runs
``--cfr-iterations`` iterations on the OpenSpiel game; its average policy, asked at every
decision of each seat (``policy_table``: each information state looked up by
:func:`~dugout.integrations.openspiel.information_key`), is evaluated by dugout's exact
evaluator: its exploitability (what a best response gains over the game value) must be 0
(with blank cards nothing is at stake in a stare-down, so no play is exploitable: the
check is that the two tools agree on that, and that the policy crosses from one to the other
whole). Then ``--value-games`` duels of dugout's equilibrium manager on both sides, played
through the OpenSpiel game by ``evaluate_bots``: the batting side's win rate must hold the
solver's value in its 99.9% normal interval.

OpenSpiel's exact tree tools (``exploitability``, CFR over the full tree) cannot run on the
duel: a foul with two strikes leaves the count as it was, so the duel's tree is infinite
(its state graph is finite: that is what the solver works on). ``docs/openspiel.md`` has the
results.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
import time
from typing import Any, Sequence

import numpy as np

from ..cli import args

__all__ = ["main", "configure", "run", "blank_cards", "mcts_matches", "agreement",
           "OpenSpielPolicyAgent"]

ENV = "bottom_ninth_v0"
_POSITIONS = ("C", "1B", "2B", "3B", "SS", "LF")
_EMPTY = {"direction": [], "location": [], "both": []}
Z95, Z999 = 1.959964, 3.290527


def blank_cards() -> dict:
    """Six batters (C, 1B, 2B, 3B, SS, LF) and two pitchers (a starter, a reliever) with
    nothing on their cards but the Aces: no ability, no trait."""
    batters = [{"id": f"bb{i}", "name": f"Blank batter {i}", "position": pos,
                "stare_down": copy.deepcopy(_EMPTY), "mvp": []} for i, pos in enumerate(_POSITIONS)]
    pitchers = [{"id": "bs", "name": "Blank starter", "role": "starter",
                 "ace": {"direction": "away", "location": "low", "ability": []},
                 "stare_down": copy.deepcopy(_EMPTY)},
                {"id": "br", "name": "Blank reliever", "role": "reliever",
                 "ace": {"direction": "inside", "location": "high", "ability": []},
                 "stare_down": copy.deepcopy(_EMPTY)}]
    return {"set": "blank", "version": 1, "batters": batters, "pitchers": pitchers}


#: The blank duel's options (the solver's and the OpenSpiel game's).
BLANK_DUEL = {"cards": blank_cards(), "teams": "default", "fatigue_rows": 3}


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``wins / n``."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


# -- 1. MCTS against the heuristic ------------------------------------------------------------------
def mcts_matches(games: int, simulations: int, seed: int, out=sys.stdout) -> dict[str, dict]:
    """OpenSpiel's MCTS (random rollouts; heuristic rollouts) against dugout's heuristic on
    the duel, ``games`` games a match, seats swapped every game."""
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from ..integrations import openspiel as dos
    game = dos.load_game(ENV)
    results = {}
    for label in ("random rollouts", "heuristic rollouts", "baseline"):
        t0 = time.perf_counter()
        won = 0.0
        for k in range(games):
            mcts_seat = 0 if k % 2 == 0 else 1
            rs = np.random.RandomState(seed + k)
            if label != "heuristic rollouts":
                evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 7919 * k))
            else:
                evaluator = dos.ManagerRolloutEvaluator(game, "heuristic", seed=seed + 7919 * k)
            bots = [None, None]
            if label == "baseline":          # the heuristic in MCTS's seats: what it would score
                bots[mcts_seat] = dos.ManagerBot(game, mcts_seat, "heuristic", seed + 104729 * k)
            else:
                bots[mcts_seat] = dos.DeterminizedMCTSBot(game, mcts_seat, 2.0, simulations,
                                                          evaluator, seed=seed + 104729 * k)
            bots[1 - mcts_seat] = dos.ManagerBot(game, 1 - mcts_seat, "heuristic", seed + k)
            returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rs)
            won += returns[mcts_seat] > 0
        lo, hi = wilson(won, games)
        results[label] = {"games": games, "simulations": simulations, "mcts_wins": won,
                          "mcts_score": won / games, "interval": (lo, hi),
                          "seconds": time.perf_counter() - t0}
        who = ("the heuristic in MCTS's seats (baseline)" if label == "baseline" else
               f"MCTS ({label}, {simulations} simulations)")
        print(f"  {who} vs heuristic: won {won:.0f} of "
              f"{games} ({won / games:.1%}, 95% interval {lo:.1%} to {hi:.1%}), "
              f"{time.perf_counter() - t0:.0f} s", file=out, flush=True)
    return results


# -- 2. equilibrium agreement --------------------------------------------------------------------------
class OpenSpielPolicyAgent:
    """An OpenSpiel policy of information state strings (MCCFR's ``AveragePolicy`` table) as a
    dugout manager: it is asked with its seat's observation and view, and looks the
    information state up by :func:`~dugout.integrations.openspiel.information_key` (uniform
    where the policy has none)."""

    name = "openspiel-policy"
    needs_view = True

    def __init__(self, infostates: dict, players: int = 2, seed: int = 0):
        self.infostates = infostates
        self.players = players
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def action_probabilities(self, observation: dict, view: Any = None) -> dict[int, float]:
        from open_spiel.python.algorithms.mccfr import AVG_POLICY_INDEX
        from ..integrations.openspiel import information_key
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        key = information_key(view.seat, self.players, view.decision or "", observation)
        found = self.infostates.get(key)
        if found is None or found[AVG_POLICY_INDEX].sum() <= 0:
            return {a: 1.0 / len(legal) for a in legal}
        mix = found[AVG_POLICY_INDEX] / found[AVG_POLICY_INDEX].sum()
        return {a: float(p) for a, p in zip(legal, mix)}

    def act(self, observation: dict, view: Any = None) -> int:
        probs = self.action_probabilities(observation, view)
        actions = list(probs)
        return int(actions[self._rng.choice(len(actions), p=np.array(list(probs.values())))])


def agreement(cfr_iterations: int, value_games: int, seed: int, out=sys.stdout) -> dict[str, Any]:
    """dugout's solver and OpenSpiel on the blank duel (the module docstring)."""
    from open_spiel.python.algorithms import evaluate_bots, outcome_sampling_mccfr
    from ..agents.solvers.bottom_ninth import (Duel, EquilibriumAgent, cached_solution,
                                               exploitability, policy_table)
    from ..integrations import openspiel as dos
    t0 = time.perf_counter()
    solution = cached_solution(Duel.from_options(**BLANK_DUEL))
    value = float(solution.game_value)
    print(f"  dugout's solver: game value (the batting side's win probability) {value:.6f}, "
          f"{time.perf_counter() - t0:.0f} s", file=out, flush=True)
    game = dos.load_game(ENV, **BLANK_DUEL)

    t0 = time.perf_counter()
    np.random.seed(seed)                     # outcome-sampling MCCFR draws with np.random
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(cfr_iterations):
        solver.iteration()
    infostates = solver._infostates          # the average policy's table (mccfr.AveragePolicy's)
    agent = OpenSpielPolicyAgent(infostates, seed=seed)
    tables = (policy_table(agent, solution, 0), policy_table(agent, solution, 1))
    e = exploitability(solution, tables=tables)
    worst = max(e.as_pitcher, e.as_batter)
    print(f"  OpenSpiel's outcome-sampling MCCFR, {cfr_iterations} iterations ({len(infostates)} "
          f"information states met): exploitability by dugout's exact evaluator {worst:.2e} "
          f"(pitching {e.as_pitcher:.2e}, batting {e.as_batter:.2e}), "
          f"{time.perf_counter() - t0:.0f} s", file=out, flush=True)

    t0 = time.perf_counter()
    home_wins = 0
    for k in range(value_games):
        bots = [dos.ManagerBot(game, p, EquilibriumAgent(solution), seed + 2 * k + p)
                for p in (0, 1)]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                              np.random.RandomState(seed + k))
        home_wins += returns[1] > 0
    rate = home_wins / value_games
    half = Z999 * math.sqrt(value * (1 - value) / value_games)
    inside = abs(rate - value) <= half
    print(f"  dugout's equilibrium manager on both sides, {value_games} duels through OpenSpiel: "
          f"batting side won {rate:.4f} (solver {value:.4f}, 99.9% interval +-{half:.4f}: "
          f"{'inside' if inside else 'OUTSIDE'}), {time.perf_counter() - t0:.0f} s",
          file=out, flush=True)
    return {"solver": value, "exploitability": worst, "cfr_iterations": cfr_iterations,
            "infostates": len(infostates), "simulated": rate, "value_games": value_games,
            "halfwidth": half, "inside": inside}


# -- the command line ---------------------------------------------------------------------------------
def configure(parser: args.Parser) -> None:
    """The study's flags."""
    parser.add_argument("--games", type=args.count(1, 100_000, "games"), default=20,
                        help="duels a MCTS match (default 20)")
    parser.add_argument("--simulations", type=args.count(4, 100_000, "simulations"), default=16,
                        help="MCTS simulations a decision, split over 4 worlds (default 16)")
    parser.add_argument("--cfr-iterations", type=args.count(1, 10_000_000, "iterations"),
                        default=2000, help="outcome-sampling MCCFR iterations (default 2000)")
    parser.add_argument("--value-games", type=args.count(1, 10_000_000, "games"), default=2000,
                        help="duels of the equilibrium manager through OpenSpiel (default 2000)")
    parser.add_argument("--seed", type=args.integer(0, 2**31 - 1, "a seed"), default=0,
                        help="the first seed (default 0)")


def run(ns: argparse.Namespace, out=sys.stdout) -> dict[str, Any]:
    print(f"OpenSpiel interop (seed {ns.seed})", file=out)
    print("1. OpenSpiel's MCTS against dugout's heuristic, Bottom of the 9th duel "
          "(dugout_bottom_ninth, explicit chance):", file=out, flush=True)
    matches = mcts_matches(ns.games, ns.simulations, ns.seed, out)
    print("2. Equilibrium agreement, the duel with blank cards (3 fatigue rows):", file=out,
          flush=True)
    agreed = agreement(ns.cfr_iterations, ns.value_games, ns.seed, out)
    return {"matches": matches, "agreement": agreed}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """``python -m dugout.studies.openspiel_interop [flags]``: print the results and return them."""
    return args.invoke("python -m dugout.studies.openspiel_interop", configure, None, run, argv,
                       __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
