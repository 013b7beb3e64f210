"""The search manager of the Manager Challenge (``manager_challenge_v0``): rollouts of each
legal option in campaigns rebuilt from the manager's view, scored by the Manager Points the
game earns.

    from dugout.agents import make_agent
    agent = make_agent("manager_challenge_v0", "search")              # the default budget
    agent = make_agent("manager_challenge_v0", "search:sims=8,batch=4")
    agent.observe_setup(env.unwrapped.public_setup())                # after each reset

It is the two-manager search (:class:`dugout.agents.search.SearchAgent`, whose docstring
is the design) on the single-agent campaign: the same determinize, roll out, race and
choose, with common random numbers, on the same settings and the same checks. What differs:

* *Determinize.* A world is a full :class:`~dugout.envs.bottom_ninth.solo.Campaign` drawn
  by :func:`~dugout.envs.bottom_ninth.challenge_sample.sample_state` from the view
  (:class:`~dugout.envs.bottom_ninth.challenge.ChallengeView`) and the campaign's public
  set-up (its card set and first-game option, ``env.unwrapped.public_setup()``, handed over
  by :func:`dugout.agents.manager_challenge.play_campaign`): the Pitcher deck's order (and,
  from Manager of the Year, the discard pile), the pitcher pile and the dice drawn afresh.
  The set-up must be given (:meth:`observe_setup`): a search without it refuses to guess
  the card set.
* *Roll out.* Each option is played in the world's game in progress, then the game to its
  end by the ``rollout`` manager (the challenge's heuristic by default, or any registered
  challenge manager that reads the view or the mask: ``random``), deciding from the view of
  the rollout's campaign.
* *Score.* A rollout is worth the Manager Points the game in progress earns
  (:func:`~dugout.envs.bottom_ninth.challenge_sample.game_result`: its Situation's per run
  scored and, on a win, the Situation's, the Effect's and 5), counted from the game's
  start: what was earned before the decision is the same for every option, so only the
  differences the search compares matter. An :class:`~dugout.agents.search.Estimate`'s
  ``mean`` is thus the game's expected Manager Points after the option, not a win chance.

**Why the game's points, not the campaign's.** The campaign's score is the sum of its
games' points (and 12 for winning all six), and a decision of this game changes the later
games only through the pitchers relief draws from the pile and, while every game so far has
been won, the chance of the sweep's 12: both small, while rolling every option out through
the rest of the campaign would add up to five whole games of noise to every paired
difference. So the search maximises the expected points of the game in progress (its
result, the win's points, is in them; under ``reward="win"`` the env pays per game won,
which the points' win bonus tracks but does not equal).

**Settings** (``search:key=value,...``, :func:`dugout.agents.search.parse_options` over
:attr:`ChallengeSearchAgent.SETTINGS`): ``sims``, ``batch``, ``rollout`` and ``z`` as the
two-manager search has them; ``horizon`` must be 0 (every rollout plays the game to its end:
a Manager Challenge game is one bottom of the 9th and its extra innings, and there is no
Manager Points table to score a cut-off game by). A bad setting raises ``ValueError``
naming it, before any game.

**Seeding.** ``reset(seed)`` seeds the search's own generator (``play_campaign`` resets
the manager with the campaign's seed); each decision draws its worlds from it. The same
seed, view and set-up give the same decision, whatever the live campaign hides (the twin
test, ``tests/test_challenge_search.py``). A decision with one legal action draws nothing.
"""

from __future__ import annotations

import random
from typing import Any

from ..envs.bottom_ninth import challenge_sample
from ..envs.bottom_ninth.challenge import ChallengeView, challenge_view
from .search import SearchAgent, SearchSettings, SearchSpec

__all__ = ["ChallengeSearchAgent", "ENV_ID", "SPEC"]

ENV_ID = "manager_challenge_v0"

#: What the search needs of the challenge, as a ruleset's ``MANAGERS.search`` says it: the
#: determinization, the engine (``apply_action`` plays a solo game by its mode), the view a
#: rollout manager decides from (the campaign's), no win-expectancy table to cut a rollout
#: off by, no budget that follows the set-up, no simultaneous decision (the pitch is the
#: deck's top card, not a choice). Its default budget, 8 worlds in rounds of 4, overrules the
#: heuristic only beyond 3 standard errors: at 4 worlds and 2 errors (measured over 32
#: campaigns, seeds 0-31) the search lost 1.7 Manager Points a campaign to the heuristic on
#: the same seeds (-3.4 to -0.0): the best of a lineup's 12 to 20 options beats the
#: heuristic's by 2 errors over 4 worlds by chance alone.
SPEC = SearchSpec(sample="dugout.envs.bottom_ninth.challenge_sample",
                  rules="dugout.envs.bottom_ninth.rules",
                  view=lambda campaign, seat, root: challenge_view(campaign),
                  settings=SearchSettings(sims=8, batch=4, rollout="heuristic", horizon=0, z=3.0),
                  truncates=False, kinds=challenge_sample.MANAGER_KINDS)


class ChallengeSearchAgent(SearchAgent):
    """The Manager Challenge's search manager (see the module docstring). Made by the
    registry (``make_agent("manager_challenge_v0", "search:sims=8")``, which builds the
    rollout manager) or directly: ``ChallengeSearchAgent(rollout, settings, seed)``."""

    name = "search"
    needs_view = True
    VIEW = ChallengeView
    #: The default settings (:data:`SPEC`'s).
    SETTINGS = SPEC.settings

    def __init__(self, rollout: Any, settings: SearchSettings | None = None, seed: int | None = None):
        settings = self.SETTINGS if settings is None else settings
        if not isinstance(settings, SearchSettings):
            raise TypeError(f"search: settings must be SearchSettings, got {type(settings).__name__}")
        super().__init__(SPEC, rollout, settings, seed, given=frozenset(), env_id=ENV_ID)
        self.sample = challenge_sample
        self.rules = challenge_sample.SOLO_RULES

    def _world(self, view: ChallengeView, rng: random.Random):
        """A campaign consistent with ``view`` and the public set-up, its hidden parts drawn
        from ``rng`` (the set-up must have been given: it names the card set)."""
        if self.setup is None:
            raise ValueError("search: the campaign's public set-up is unknown; call "
                             "agent.observe_setup(env.unwrapped.public_setup()) after the env's "
                             "reset (dugout.agents.manager_challenge.play_campaign does)")
        return self.sample.sample_state(view, rng, self.setup)

    def _rollout(self, world, action: int, root: ChallengeView) -> float:
        """Play ``action`` in ``world``'s game in progress, then the game to its end by the
        rollout manager (deciding from the campaign's view, ``SPEC.view``); the Manager Points
        the game earns."""
        game, apply_action = world.game, self.rules.apply_action
        apply_action(game, action)
        decide = self._policy(root)
        while game.pending is not None:
            apply_action(game, decide(world, game.pending))
        return float(challenge_sample.game_result(world)[0])
