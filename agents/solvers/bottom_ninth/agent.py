"""The equilibrium manager: :class:`EquilibriumAgent` plays the solved duel from its view."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ....envs.bottom_ninth import rules
from ....envs.bottom_ninth.view import BottomNinthView
from ...base import ViewAgent
from .model import CONDITION_REFUSED, EXTRA_INNINGS_REFUSED, SUPPORT_REFUSED, Duel
from .solution import Solution, cached_solution

__all__ = ["EquilibriumAgent", "SETUP_KINDS"]

#: Decisions before the first pitch (teams chosen or drafted): not solved, played by the
#: rulebook heuristic.
SETUP_KINDS = ("draft_order", "draft_pick", "select_batter", "select_pitcher")


class EquilibriumAgent(ViewAgent):
    """Minimax play of the duel, either seat, from the view alone.

    At the stare-down it draws from the equilibrium mix with its own generator (seeded
    by ``reset(seed)``); at every other decision it takes the optimal choice (the first
    of equally good ones, in the order of the legal actions). It reads the pitch it
    committed from nowhere: the batter's view does not show it, and the mix it draws
    from is the state's, not the pitch's.

    Without a ``solution`` it solves (or loads from the cache, ``$DUGOUT_CACHE``) the duel
    the view shows at its first decision, and again for another duel; a given
    ``solution`` is kept and a view of another duel is refused. Set-up decisions (teams
    chosen or drafted) are not part of the solved game: the rulebook heuristic makes
    them. The longer game is not solved: a view of it raises ``ValueError``.
    """

    name = "solver"
    VIEW = BottomNinthView

    def __init__(self, solution: Solution | None = None, seed: int | None = None):
        if solution is not None and not isinstance(solution, Solution):
            raise TypeError(f"solution must be a Solution, got {type(solution).__name__}")
        self.solution = solution
        self.fixed = solution is not None
        self.rng = np.random.default_rng(seed)
        self._setup = None
        self._seen: tuple | None = None

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        if self._setup is not None:
            self._setup.reset(seed)

    def check_options(self, options: Any) -> None:
        """Refuse, before any game, env options whose game is not the solved duel (the
        Longer Game, extra innings, support or Condition Cards): a ``ValueError`` naming the
        option, as a view of that game would at its first decision."""
        options = dict(options or {})
        if options.get("mode", "duel") != "duel":
            raise ValueError(f"{self.name}: the equilibrium manager plays the duel (mode='duel'); "
                             f"the longer game (mode={options['mode']!r}) is not solved")
        if options.get("extra_innings"):
            raise ValueError(f"{self.name}: {EXTRA_INNINGS_REFUSED}")
        if options.get("support"):
            raise ValueError(f"{self.name}: {SUPPORT_REFUSED}")
        if options.get("condition") is not None:
            raise ValueError(f"{self.name}: {CONDITION_REFUSED}")

    def solution_for(self, view: BottomNinthView) -> Solution:
        if view.mode != "duel":
            raise ValueError(f"{self.name}: the equilibrium manager plays the duel (mode='duel'); "
                             f"the longer game is not solved")
        if view.extra_innings:
            raise ValueError(f"{self.name}: {EXTRA_INNINGS_REFUSED}")
        if view.support_names:
            raise ValueError(f"{self.name}: {SUPPORT_REFUSED}")
        if view.condition >= 0:
            raise ValueError(f"{self.name}: {CONDITION_REFUSED}")
        seen = (view.cards, view.lineups[1], view.staff, view.pitch_faces, view.fatigue_rows,
                view.out_rule)
        if self.solution is not None and seen == self._seen:
            return self.solution                  # the duel checked at the last decision
        if self.fixed:
            self.solution.check_view(view)
        else:
            duel = Duel.from_view(view)
            if self.solution is None or self.solution.duel.key != duel.key:
                self.solution = cached_solution(duel)
        self._seen = seen
        return self.solution

    # -- the decisions -----------------------------------------------------------------------
    def probabilities(self, view: BottomNinthView) -> dict[int, float]:
        """This manager's distribution over the legal actions at the view's decision."""
        if view.decision in SETUP_KINDS:
            return {self._setup_agent().decide(view): 1.0}
        s = self.solution_for(view)
        kind = view.decision
        if kind in ("pitch", "guess"):
            i = s.duel.index(*s.view_state(view))
            mix, base = (s.x[i], rules.THROW) if kind == "pitch" else (s.y[i], rules.GUESS)
            probs = {a: float(mix[a - base]) for a in view.legal}
            total = sum(probs.values())
            if total <= 0:
                raise RuntimeError(f"{self.name}: the equilibrium mix {mix.tolist()} puts nothing on "
                                   f"the legal {kind} actions {view.legal}: engine and solver disagree")
            return {a: q / total for a, q in probs.items()}
        if kind in ("pitcher_ability", "batter_ability"):
            values = s.ability_values(view)
        elif kind in ("relief", "pitching_change"):
            values = s.cleanup_values(view)
        else:
            raise ValueError(f"{self.name}: no solved decision {kind!r}")
        order = [a for a in values if a in view.legal] if kind.endswith("ability") else list(view.legal)
        pick = min if kind in ("pitcher_ability", "relief", "pitching_change") else max
        best = pick(order, key=lambda a: values[a])          # the first of equals
        return {best: 1.0}

    def decide(self, view: BottomNinthView) -> int:
        probs = self.probabilities(view)
        if len(probs) == 1:
            return next(iter(probs))
        actions = list(probs)
        return int(actions[self.rng.choice(len(actions), p=np.array([probs[a] for a in actions]))])

    def action_probabilities(self, observation: Mapping[str, Any], view: BottomNinthView
                             ) -> dict[int, float]:
        """The distribution :meth:`decide` draws from (for exact evaluation)."""
        return self.probabilities(view)

    def _setup_agent(self):
        if self._setup is None:
            from ...bottom_ninth import BottomNinthHeuristic
            self._setup = BottomNinthHeuristic()
        return self._setup
