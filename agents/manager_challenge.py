"""Managers for the Manager Challenge (Bottom of the 9th's solo campaign), and the loop that
plays campaigns with any manager.

**The heuristic** (:class:`ChallengeHeuristic`) reads only the manager's view
(:class:`~dugout.envs.bottom_ninth.challenge.ChallengeView`):

* **Guess.** The pitch is the Pitcher deck's top card, so its odds are the deck's
  composition (public while the discard pile is: the cards not yet played less the discard
  pile; at Manager of the Year the composition of every card that may be in the deck; a
  deck that ran out throws the anti-Ace for certain). The guess is the best response to
  those odds in the duel heuristic's priced stare-down (what each (pitch, guess) pair awards
  both sides: token tables, the MVP on an exact guess, the pitcher's Ace when he throws it
  and the guess misses), among the legal guesses.
* **MVP or fatigue.** The MVP ability's value at this count against a card off the deck:
  the card is worth more the closer the deck is to running out (a spent deck throws the
  anti-Ace, which the manager then guesses exactly, and brings a tired new pitcher).
* **Abilities** are the duel heuristic's, each use priced by the win chance after it, on
  this game's table (:func:`need_table`): the chance of taking the lead before the third out
  from the runs needed, outs, runners and count, a tie worth the extra innings the Situation
  still allows.
* **Lineup, bench, pinch hitters**: the cards with the most ability value; a pinch hitter
  bats when he has more than the batter due up.

:class:`ChallengeRandom` plays uniformly among the legal actions; ``search`` is the search
manager (:class:`~dugout.agents.challenge_search.ChallengeSearchAgent`: rollouts of each
option under the heuristic in campaigns rebuilt from the view, ``search:key=value,...``).
:func:`play_campaign` plays one campaign with any manager (``act(observation, view)``, the
agent protocol; a manager that asks for the campaign's public set-up, ``observe_setup``, is
handed it after the reset) and :func:`play_campaigns` many, seeded campaign by campaign.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..envs.bottom_ninth import rules
from ..envs.bottom_ninth.rules import swing_result
from ..envs.bottom_ninth.challenge import ChallengeView
from ..envs.bottom_ninth.solo_cards import EFFECT_PITCHES
from .bottom_ninth import (BottomNinthHeuristic, _chain, _grants_value, _Pitch, card_power, outcomes_runs,
                           situation, stare_down_matrix)
from .challenge_search import ChallengeSearchAgent
from .play import tell_setup
from .random_agent import RandomAgent

__all__ = ["ChallengeHeuristic", "ChallengeRandom", "play_campaign", "play_campaigns",
           "CampaignResult", "MANAGERS", "need_table", "MAX_NEED"]

#: what a card off the deck is worth (win chance), and more as the deck runs low
CARD_VALUE, LOW_DECK = 0.004, 4


#: the most runs the table tells apart (more needed are priced as this many)
MAX_NEED = 8
@lru_cache(maxsize=1024)
def need_table(faces: tuple, out_rule: str, safe: float, crush: tuple, extra: int) -> np.ndarray:
    """``T[need - 1, outs, bases, balls, strikes]``: the home team's chance of winning the
    Manager Challenge game (blank cards but for the run phase's ``safe`` and the Crushed
    values ``crush``) when it needs ``need`` runs to take the lead; a tie at the third out is
    worth the next inning's chance while ``extra`` innings are left (0 without)."""
    tie = 0.0 if extra == 0 else float(need_table(faces, out_rule, safe, crush, extra - 1)[0, 0, 0, 0, 0])
    inv, moves = _chain(faces, out_rule, safe, crush)
    table = np.zeros((MAX_NEED, 3, 8, 4, 3))
    for need in range(1, MAX_NEED + 1):
        b = np.zeros(inv.shape[0])
        for i, wp, o, bs, bl, st, runs in moves:
            left = need - runs
            if left <= 0:
                b[i] += wp
            elif o >= 3:
                b[i] += wp * (tie if left == 1 else 0.0)
            else:
                b[i] += wp * table[left - 1, o, bs, bl, st]
        table[need - 1] = (inv @ b).reshape(3, 8, 4, 3)
    return table


class _NeedPitch(_Pitch):
    """The duel heuristic's price of one pitch's dice, on :func:`need_table`."""

    def __init__(self, key: tuple, need: int, extra: int):
        super().__init__(key)
        self.need = min(max(need, 1), MAX_NEED)
        self.full = need_table(self.faces, self.out_rule, self.safe, self.crush, extra)
        # a tie at the third out: the next inning, with one extra inning fewer left
        self.tie = 0.0 if extra == 0 else float(
            need_table(self.faces, self.out_rule, self.safe, self.crush, extra - 1)[0, 0, 0, 0, 0])

    def value(self, face: str, control: int, swing: int, swing_natural: int) -> float:
        key = (face, control, swing, swing_natural)
        v = self._values.get(key)
        if v is None:
            result = swing_result(face, swing, control)
            crushed = (result == "contact" and face == "S" and swing == swing_natural
                       and swing_natural in self.crush)
            v = 0.0
            for p, o, bs, bl, st, runs in outcomes_runs(self.outs, self.bases, self.balls, self.strikes,
                                                        result, crushed, self.safe, self.out_rule):
                left = self.need - runs
                if left <= 0:
                    v += p
                elif o >= 3:
                    v += p * (self.tie if left == 1 else 0.0)
                else:
                    v += p * float(self.full[min(left, MAX_NEED) - 1, o, bs, bl, st])
            self._values[key] = v
        return v


@lru_cache(maxsize=4096)
def _need_pitch(key: tuple, need: int, extra: int) -> _NeedPitch:
    return _NeedPitch(key, need, extra)


class ChallengeHeuristic(BottomNinthHeuristic):
    """The rulebook heuristic for the Manager Challenge (see the module docstring)."""

    name = "heuristic"
    VIEW = ChallengeView

    def decide(self, view: ChallengeView) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        kind = view.decision
        if kind == "guess":
            return self.guess(view)
        if kind == "mvp_or_fatigue":
            return self.mvp_or_fatigue(view)
        if kind in ("select_batter", "select_bench"):
            return self.pick_card(view)
        if kind == "pinch_hit":
            return self.pinch_hit(view)
        return super().decide(view)

    def action_probabilities(self, observation: Any, view: ChallengeView) -> dict[int, float]:
        return {self.decide(view): 1.0}

    def pitch(self, view: ChallengeView) -> _NeedPitch:
        """This game's price of the pitch's dice: the runs needed and the extra innings left."""
        return _need_pitch(situation(view, self.cards(view)), view.needed, view.extra_left)

    # -- the guess -----------------------------------------------------------------------
    def pitch_odds(self, view: ChallengeView) -> np.ndarray:
        """The chance of each pitch (HI, HA, LI, LA) from the deck, as the manager may know it."""
        ace = view.ace
        if view.deck_size == 0:
            q = np.zeros(4)
            q[3 - ace] = 1.0
            return q
        if view.deck_known:
            q = np.asarray(view.deck_pitches, dtype=float)
        else:                                   # every card that may be in the deck
            q = np.zeros(4)
            solo = view.solo
            out = set(view.played) | {view.situation}
            for i, s in enumerate(solo.situations):
                if i not in out:
                    q[s.pitch] += 1
            for k, e in enumerate(solo.effects):
                if k != view.effect:
                    q[_effect_pitch(e.pitch, ace)] += 1
        return q / q.sum() if q.sum() > 0 else np.full(4, 0.25)

    def guess(self, view: ChallengeView) -> int:
        q = self.pitch_odds(view)
        m = stare_down_matrix(view, self.cards(view))
        value = q @ m + 1e-3 * q            # near-ties: the likelier pitch
        return max(view.legal, key=lambda a: (value[a - rules.GUESS], -a))

    # -- MVP or fatigue --------------------------------------------------------------------
    def mvp_or_fatigue(self, view: ChallengeView) -> int:
        cards = self.cards(view)
        mvp = cards.card(view.batter_card).mvp if cards.is_batter(view.batter_card) else ()
        mvp_value = _grants_value(mvp, situation(view, cards), False)
        card_value = CARD_VALUE * (4.0 if view.deck_size <= LOW_DECK else 1.0)
        return rules.FATIGUE_PITCHER if card_value > mvp_value else rules.MVP

    # -- the lineup and pinch hitters -------------------------------------------------------
    def pick_card(self, view: ChallengeView) -> int:
        cards = self.cards(view)
        return max(view.legal, key=lambda a: (card_power(cards, a - rules.CARD), -a))

    def pinch_hit(self, view: ChallengeView) -> int:
        cards = self.cards(view)
        due = view.lineups[1][view.batter_slot]
        best = max((a for a in view.legal if a != rules.PASS),
                   key=lambda a: (card_power(cards, a - rules.CARD), -a), default=rules.PASS)
        if best != rules.PASS and card_power(cards, best - rules.CARD) > card_power(cards, due) + 0.01:
            return best
        return rules.PASS


def _effect_pitch(what: str, ace: int) -> int:
    if what == "ace":
        return ace
    if what == "anti_ace":
        return 3 - ace
    return EFFECT_PITCHES.index(what)


class ChallengeRandom(RandomAgent):
    """Uniformly random legal actions (the same as :class:`RandomAgent`)."""


# -- playing campaigns --------------------------------------------------------------------------
class CampaignResult(dict):
    """One campaign: ``wins``, ``mp``, ``band``, ``results`` (1/0 per game), ``decisions``."""


def play_campaign(env, agent, seed: int) -> CampaignResult:
    """Play one campaign of ``env`` (a ManagerChallengeEnv) with ``agent`` from ``seed``: the
    env reset, the agent reset with ``seed`` and handed the campaign's public set-up if it
    asks for it (``observe_setup``: the search manager), then every decision."""
    obs, info = env.reset(seed=seed)
    agent.reset(seed)
    tell_setup(env, [agent])
    needs_view = getattr(agent, "needs_view", False)
    total, n = 0.0, 0
    while True:
        view = env.unwrapped.view() if needs_view else None
        action = agent.act({"observation": obs, "action_mask": info["action_mask"]}, view)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        n += 1
        if terminated or truncated:
            break
    return CampaignResult(wins=info["wins"], mp=info["mp"], band=info["band"],
                          results=list(info["results"]), decisions=n, reward=total,
                          illegal=info["illegal_action"])


def play_campaigns(make_env, make_agent, seeds) -> list[CampaignResult]:
    """Campaigns for each seed, each with a fresh agent reset to that seed."""
    env = make_env()
    agent = make_agent()
    return [play_campaign(env, agent, s) for s in seeds]


MANAGERS = {"heuristic": ChallengeHeuristic, "random": ChallengeRandom, "search": ChallengeSearchAgent}
