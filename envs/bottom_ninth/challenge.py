"""The Manager Challenge: Bottom of the 9th's solo campaign as a single-agent Gymnasium env.

| Import | `from dugout.envs import manager_challenge_v0` |
|---|---|
| Gymnasium id | `dugout/ManagerChallenge-v0` (registered by `import dugout.envs`) |
| Actions | Discrete({n_actions}) |
| Agents | one: the home manager (the batting side) |
| Observation | Box, shape ({obs_size},) float32, bounded per element (the Range column below) |
| Action mask | `env.action_masks()` (sb3-contrib's name) and `info["action_mask"]`, int8 |

## Creation

```python
import gymnasium, dugout.envs
env = gymnasium.make("dugout/ManagerChallenge-v0", level="standard", reward="mp")
# or: from dugout.envs import manager_challenge_v0; env = manager_challenge_v0.env(...)
```

Options: `level` is `"standard"`, `"veteran"` (the Effect cards' Advanced Effects count too),
`"manager_of_the_year"` (also: the discard pile is hidden, and a guess may not repeat the
last one) or `"hall_of_fame"` (also: no runner starts a game on base); each level keeps the
ones before it. `reward` is `"mp"` (the Manager Points each step earns: the episode's
return is the campaign's Manager Points) or `"win"` (+1 for each game won and -1 for each
game lost, at its end). `first_game` is `"home_opener"` (the rulebook's first solo game) or
`"random"` ("Advanced players may choose a random Situation instead"). `cards` is the
duel's card set (`"builtin"`, a path or a dict), `solo_cards` the Situation and Effect
cards and the Solo Pitch charts (`"builtin"`: `data/solo.json`, a path or a dict; see
`dugout.envs.bottom_ninth.solo_cards`); a bad set raises `DataError` naming the file, the
card and the field. `pitch_faces` and `out_rule` are the duel's. `render_mode` is `"ansi"`
(`render()` returns the text), `"human"` (prints it after every step), `"rgb_array"` (a
picture, `core.picture`: an `H x W x 3` uint8 array, so Gymnasium's `RecordVideo` can film a
campaign; it shows what the text shows, never the Pitcher deck's order) or None. An unknown
option or a bad value raises `OptionError`. `illegal_action`
is `"lose"` (the default, PettingZoo classic's convention, which Gymnasium's and SB3's
`check_env` rely on: an illegal action ends the campaign at once, the games not played
count as lost, the step's reward is -1 and `info["illegal_action"]` says why) or `"raise"`
(an `IllegalActionError` naming the decision and the legal actions).

`reset(seed=...)` takes None or an int from 0 to 2**32-1 (a Python or numpy integer); any
other seed raises `OptionError` naming it. As Gymnasium has it, a reset without a seed
goes on from the generator of the last seeded one.

`max_decisions` bounds the episode (None: 5,000; or a positive int, Python or numpy): a
campaign still going after that many decisions ends with `truncated=True` (the step's
reward is what it earned; the games not finished count for nothing; `info` keeps its keys),
and a further `step()` raises `IllegalActionError` until `reset()`;
`env.unwrapped.decision_count` counts the decisions since `reset()` or `restore()`. The
rulebook has no time limit, and no campaign comes near the bound: the longest of 5,000
random campaigns took 552 decisions, the longest under adversarial legal policies (always
the highest legal action, always the lowest) 407.

## The episode

One episode is a campaign of six games ("Win at least 4 of the 6 games ... and earn enough
Manager Points"). Each game is a bottom of the 9th set up by a Situation card (score, outs,
runners, lineup rule, bench, the pitcher drawn, extra innings, Manager Points) and an
Effect card, against the automated pitcher: the Pitcher deck (the other Situation and
Effect cards) gives each pitch and is the pitcher's fatigue; his abilities follow his Solo
Pitch chart. The manager decides everything on the batting side:

| Kind | Legal actions |
|---|---|
| `select_batter` | 30-93: a batter of the Situation's pool for the next lineup slot (six positions kept possible) |
| `select_bench` | 30-93: a pinch hitter, while the Situation's bench is not full |
| `pinch_hit` | 105 (pass) or a bench batter's card action: he bats for the batter due up |
| `guess` | 4-7 (Manager of the Year: not the last guess) |
| `mvp_or_fatigue` | 114 (use the MVP ability) or 115 (fatigue the pitcher 1), after an exact guess |
| `batter_ability` | 8 (done), 16-18 where a grant allows it |

The other actions are the duel's (see `bottom_ninth_v0`); the mask allows only legal ones.
What carries from game to game is the campaign's state, in the observation: the game
number, wins, losses, Manager Points, the Situations played (out of later decks) and the
pitcher pile (hidden: a face-down pile).

## Rewards and infos

`reward="mp"`: at the end of each game its Manager Points (the Situation's per run scored
and for a win, the Effect's for a win, 5 for a win), and 12 more at the end of a 6-0
campaign. `reward="win"`: +1 / -1 at each game's end. `terminated` is True after the sixth
game; `truncated` is True only for a campaign cut off by `max_decisions` (above). `info`
has the same keys at every step: `"decision"`
(`{{"kind": str, "labels": tuple}}`), `"action_mask"`, `"game"` (1-6, the game in progress or
the last), `"results"` (six ints: 1 won, 0 lost, -1 not played), `"wins"`, `"losses"`,
`"mp"`, `"illegal_action"` (`""` unless the campaign ended on one), `"game_result"` (`"win"` or `"loss"` at the step a game ends, else `""`), `"band"`
(at the campaign's end one of `fired`, `playoffs`, `true_victory`, `carried_off`, else
`""`) and `"score"` (`{{"away": int, "home": int}}`).

## Observation

`env.unwrapped.view()` is a `ChallengeView`: the duel's `BottomNinthView` of the home seat
plus the campaign's fields; the observation is encoded from it alone: the duel's pieces,
then the campaign's. The Pitcher deck's order is never in it; its composition is (it is the
public cards less the visible discard pile), except at Manager of the Year and above, where
the discard pile is hidden.

{table}

## Version History

* v0: first release.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..core.decisions import action_mask
from ..core.dice import Dice, ScriptedDice
from ..core.errors import IllegalActionError, OptionError, check_max_decisions, check_options, show
from ..core.observation import ObservationSpec
from ..core.picture import Scene, half_name
from ..core.scorebook import ordinal
from ..core.view import build_view
from . import rules, solo
from .cards import MAX_CARDS, PITCH_LABELS, load_cards
from .env import PIECES, _check_faces, describe_play, encode_view
from .solo_cards import MAX_SOLO_CARDS, load_solo
from .view import BottomNinthView, view_of

__all__ = ["ManagerChallengeEnv", "ChallengeView", "OBS", "encode_challenge", "challenge_view",
           "check_seed", "MAX_SEED"]

NAME = "manager_challenge_v0"
#: The largest seed ``reset(seed=...)`` takes (seeds are 0 to 2**32-1).
MAX_SEED = 2**32 - 1
_MAX_DECK = 2 * MAX_SOLO_CARDS
SOLO_PIECES = [
    ("solo_decision", len(rules.SOLO_DECISION_KINDS), "one-hot decision kind: "
     + ", ".join(rules.SOLO_DECISION_KINDS)),
    ("level", len(solo.LEVELS), "one-hot level: " + ", ".join(solo.LEVELS)),
    ("game_no", solo.GAMES, "one-hot game of the campaign in progress (1-6)"),
    ("record", 2, "wins, losses so far / 6"),
    ("mp", 1, "Manager Points so far / 100 (at most 1)"),
    ("needed", 1, "runs the home team needs to take the lead / 10 (at most 1)"),
    ("extra_left", 1, "extra innings the Situation still allows / 3"),
    ("situation", MAX_SOLO_CARDS, "one-hot Situation card of this game"),
    ("effect", MAX_SOLO_CARDS, "one-hot Effect card of this game"),
    ("played", MAX_SOLO_CARDS, "1 for each Situation played in an earlier game"),
    ("deck_size", 1, f"cards in the Pitcher deck / {_MAX_DECK}"),
    ("discard_size", 1, f"cards in the discard pile / {_MAX_DECK}"),
    ("deck_known", 1, "1 when the deck's composition is known (the discard pile is viewable)"),
    ("deck_pitches", 4, f"pitches HI, HA, LI, LA the deck's cards throw / {_MAX_DECK} (0 when hidden)"),
    ("discard_cards", _MAX_DECK, "1 for each card in the discard pile: Situations, then Effects "
     "(0 when hidden)"),
    ("revealed", _MAX_DECK, "one-hot deck card revealed this pitch"),
    ("depleted", 1, "1 when the deck ran out in this at-bat (the pitcher throws the anti-Ace)"),
    ("prev_guess", 4, "one-hot last guess (Manager of the Year may not repeat it)"),
    ("bench", MAX_CARDS, "1 for each pinch hitter on the bench"),
    ("pool", MAX_CARDS, "1 for each batter the lineup may still be picked from"),
]
OBS = ObservationSpec(list(PIECES) + SOLO_PIECES)
__doc__ = __doc__.format(n_actions=rules.N_SOLO_ACTIONS, obs_size=OBS.size,
                         table="{table}").replace("{table}", OBS.table())
_O = OBS.offset
_DUEL_SIZE = ObservationSpec(PIECES).size
_SOLO_KIND = {k: i for i, k in enumerate(rules.SOLO_DECISION_KINDS)}
_DUEL_KINDS = frozenset(rules.DECISION_KINDS)
OPTIONS = ("level", "reward", "first_game", "cards", "solo_cards", "pitch_faces", "out_rule",
           "render_mode", "illegal_action", "dice", "max_decisions")
#: ``max_decisions``'s default: the most decisions a campaign may take (see the docstring)
MAX_DECISIONS = 5_000


@dataclass(frozen=True)
class ChallengeView(BottomNinthView):
    """The home manager's knowledge of a Manager Challenge: the duel's view (see
    :class:`BottomNinthView`) and the campaign's:

    * ``level``: 0 standard, 1 Veteran, 2 Manager of the Year, 3 Hall of Fame.
    * ``game_no``: the game in progress (0-5); ``results``: 1/0 for each finished game;
      ``mp``: Manager Points so far; ``campaign_over``.
    * ``situation``, ``effect``: this game's cards (indices into ``solo``'s situations and
      effects); ``played``: the Situations of earlier games; ``solo``: the solo card set.
    * ``needed``: runs the home team needs to take the lead; ``extra_left``: extra innings left.
    * ``deck_size``, ``discard_size``; ``discard``: the discard pile, bottom first (deck card
      numbers: Situations, then Effects), empty when hidden; ``deck_pitches``: how many of the
      deck's cards throw HI, HA, LI, LA (all -1 when hidden); ``deck_known``.
    * ``revealed``: the deck card revealed this pitch (-1); ``depleted``: the deck ran out.
    * ``prev_guess``: the last guess (-1); ``bench``: pinch hitters; ``pool``: batters the
      lineup may still be picked from (during the set-up).
    """
    level: int = 0
    game_no: int = 0
    results: tuple[int, ...] = ()
    mp: int = 0
    campaign_over: bool = False
    situation: int = -1
    effect: int = -1
    played: tuple[int, ...] = ()
    solo: Any = None
    needed: int = 1
    extra_left: int = 0
    deck_size: int = 0
    discard_size: int = 0
    discard: tuple[int, ...] = ()
    deck_pitches: tuple[int, int, int, int] = (-1, -1, -1, -1)
    deck_known: bool = True
    revealed: int = -1
    depleted: bool = False
    prev_guess: int = -1
    bench: tuple[int, ...] = ()
    pool: tuple[int, ...] = ()


def challenge_view(campaign: solo.Campaign) -> ChallengeView:
    """What the manager may know of ``campaign`` (its game in progress, or the last)."""
    g = campaign.game
    base = view_of(g, 1)
    known = g.level < 2                     # Manager of the Year: "no longer viewable"
    pitches = [0, 0, 0, 0]
    if known:
        for c in g.deck:                    # the public cards less the visible discard pile
            pitches[solo.deck_pitch(g, c)] += 1
    b = g.board
    fields = dict(base.__dict__)
    if campaign.over:
        fields.update(decision=None, legal=(), labels=())
    fields.update(
        level=g.level, game_no=len(campaign.played) - 1, results=tuple(campaign.results),
        mp=campaign.mp, campaign_over=campaign.over, situation=g.situation, effect=g.effect,
        played=tuple(campaign.played[:-1]), solo=g.solo,
        needed=b.runs[0] - b.runs[1] + 1, extra_left=b.extra, deck_size=len(g.deck),
        discard_size=len(g.discard), discard=tuple(g.discard) if known else (),
        deck_pitches=tuple(pitches) if known else (-1, -1, -1, -1), deck_known=known,
        revealed=g.revealed, depleted=g.depleted, prev_guess=g.prev_guess, bench=tuple(g.bench),
        pool=tuple(i for i in g.pool if i not in g.lineup) if len(g.lineup) < rules.LINEUP_SIZE else ())
    return build_view(ChallengeView, fields)


def encode_challenge(view: ChallengeView) -> np.ndarray:
    """The observation vector of a view: the duel's pieces, then the campaign's."""
    duel_view = view
    if view.decision is not None and view.decision not in _DUEL_KINDS:
        duel_view = copy.copy(view)
        object.__setattr__(duel_view, "decision", None)
    obs = np.zeros(OBS.size, dtype=np.float32)
    obs[:_DUEL_SIZE] = encode_view(duel_view)

    def one(name: str, i: int) -> None:
        if i >= 0:
            obs[_O[name] + i] = 1.0

    if view.decision is not None:
        one("solo_decision", _SOLO_KIND[view.decision])
    one("level", view.level)
    one("game_no", view.game_no)
    obs[_O["record"]] = sum(view.results) / solo.GAMES
    obs[_O["record"] + 1] = (len(view.results) - sum(view.results)) / solo.GAMES
    obs[_O["mp"]] = min(view.mp, 100) / 100
    obs[_O["needed"]] = min(max(view.needed, 0), 10) / 10
    obs[_O["extra_left"]] = view.extra_left / 3
    one("situation", view.situation)
    one("effect", view.effect)
    for s in view.played:
        obs[_O["played"] + s] = 1.0
    obs[_O["deck_size"]] = view.deck_size / _MAX_DECK
    obs[_O["discard_size"]] = view.discard_size / _MAX_DECK
    if view.deck_known:
        obs[_O["deck_known"]] = 1.0
        obs[_O["deck_pitches"]:_O["deck_pitches"] + 4] = np.asarray(view.deck_pitches) / _MAX_DECK
        n_sit = len(view.solo.situations)
        for c in view.discard:
            obs[_O["discard_cards"] + _card_slot(c, n_sit)] = 1.0
    if view.revealed >= 0:
        obs[_O["revealed"] + _card_slot(view.revealed, len(view.solo.situations))] = 1.0
    obs[_O["depleted"]] = float(view.depleted)
    one("prev_guess", view.prev_guess)
    for c in view.bench:
        obs[_O["bench"] + c] = 1.0
    for c in view.pool:
        obs[_O["pool"] + c] = 1.0
    return obs


def check_seed(seed: Any) -> int | None:
    """``seed`` as a Python int (None stays None): an int from 0 to 2**32-1, a Python or numpy
    integer; anything else (a bool, a float, a string, a negative or larger int) raises
    ``OptionError`` naming the seed and the range, as the AEC envs' ``reset`` does, before
    Gymnasium's own check could raise its error."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) \
            or not 0 <= seed <= MAX_SEED:
        raise OptionError(f"{NAME}: reset(seed=...) needs None or an int from 0 to 2**32-1 "
                          f"({MAX_SEED}), got {show(seed)}")
    return int(seed)


def _card_slot(card: int, n_situations: int) -> int:
    """A deck card's place in the observation: Situations 0-23, Effects 24-47."""
    return card if card < n_situations else MAX_SOLO_CARDS + card - n_situations


class ManagerChallengeEnv(gymnasium.Env):
    """See the module docstring."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "name": NAME, "render_fps": 4}
    ACTION_MEANINGS = rules.SOLO_ACTIONS
    OBS = OBS
    VIEW = ChallengeView
    encode_view = staticmethod(encode_challenge)

    def __init__(self, level: str = "standard", reward: str = "mp", first_game: str = "home_opener",
                 cards: Any = "builtin", solo_cards: Any = "builtin", pitch_faces: Any = None,
                 out_rule: str = "lead_runner", render_mode: str | None = None,
                 illegal_action: str = "lose", dice: ScriptedDice | None = None,
                 max_decisions: int | None = None, **unknown: Any):
        check_options(NAME, unknown, OPTIONS)
        self.max_decisions = check_max_decisions(NAME, max_decisions) or MAX_DECISIONS
        self.decision_count = 0     # decisions made in the campaign (since reset or restore)
        if level not in solo.LEVELS:
            raise OptionError(f"{NAME}: level must be one of {', '.join(solo.LEVELS)}, got {show(level)}")
        if reward not in ("mp", "win"):
            raise OptionError(f"{NAME}: reward must be 'mp' (Manager Points) or 'win' (+1/-1 per "
                              f"game), got {show(reward)}")
        if first_game not in ("home_opener", "random"):
            raise OptionError(f"{NAME}: first_game must be 'home_opener' or 'random', got {show(first_game)}")
        if out_rule not in ("lead_runner", "batter"):
            raise OptionError(f"{NAME}: out_rule must be 'lead_runner' or 'batter', got {show(out_rule)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"{NAME}: render_mode must be 'ansi', 'human', 'rgb_array' or None, "
                              f"got {show(render_mode)}")
        if illegal_action not in ("lose", "raise"):
            raise OptionError(f"{NAME}: illegal_action must be 'lose' or 'raise', got {show(illegal_action)}")
        self.illegal_action = illegal_action
        if dice is not None and not isinstance(dice, (ScriptedDice, Dice)):
            raise OptionError(f"{NAME}: dice must be ScriptedDice (tests) or None, got {show(dice)}")
        self.level = solo.LEVELS.index(level)
        self.reward_kind = reward
        self.first_game = first_game
        self.cardset = load_cards(cards)
        self.soloset = load_solo(solo_cards)
        self.soloset.check_charts([p.id for p in self.cardset.pitchers])
        try:
            faces = _check_faces(pitch_faces)
        except OptionError as e:
            raise OptionError(str(e).replace("bottom_ninth_v0", NAME)) from None
        self.faces = tuple(f for f in ("B", "S", "C") for _ in range(faces.get(f, 0)))
        self.out_rule = out_rule
        self.render_mode = render_mode
        self._script = dice
        self.observation_space = spaces.Box(OBS.low, OBS.high, dtype=np.float32)
        self.action_space = spaces.Discrete(rules.N_SOLO_ACTIONS)
        self.campaign: solo.Campaign | None = None
        self._game_result = self._illegal = ""

    # -- the Gymnasium API ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=check_seed(seed))
        if options:
            raise OptionError(f"{NAME}: reset takes no options, got {show(options)}")
        if self._script is not None:
            dice = self._script.clone()
        else:
            dice = Dice(int(self.np_random.integers(1 << 62)))
        self.campaign = solo.new_campaign(dice, self.cardset, self.soloset, self.level, self.first_game,
                                          self.faces, self.out_rule)
        self._game_result = self._illegal = ""
        self.decision_count = 0
        return self._observe()

    def step(self, action: Any):
        from ..core.aec import action_index
        c = self._require()
        if c.over:
            raise IllegalActionError(f"{NAME}: the campaign is over; call reset()")
        if self.decision_count >= self.max_decisions:
            raise IllegalActionError(f"{NAME}: the campaign was cut off after max_decisions="
                                     f"{self.max_decisions} decisions; call reset()")
        a = action_index(action)
        legal = c.pending.legal
        if a is None or a not in legal:
            labels = rules.option_labels(c.game, c.pending)
            why = (f"action {show(action)} is not legal at a {c.pending.kind!r} decision; legal "
                   f"actions: " + ", ".join(f"{x} ({labels[x]})" for x in legal))
            if self.illegal_action == "raise":
                raise IllegalActionError(f"{NAME}: {why}")
            c.forfeit()
            self._illegal = why
            self._game_result = "loss"
            obs, info = self._observe()
            return obs, -1.0, True, False, info
        played = len(c.results)
        earned = c.apply(a)
        self.decision_count += 1
        self._game_result = ""
        reward = float(earned)
        if len(c.results) > played:
            self._game_result = "win" if c.results[-1] else "loss"
            if self.reward_kind == "win":
                reward = 1.0 if c.results[-1] else -1.0
        elif self.reward_kind == "win":
            reward = 0.0
        if self.render_mode == "human":
            print(self.render_text())
        obs, info = self._observe()
        return obs, reward, c.over, not c.over and self.decision_count >= self.max_decisions, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array (sb3-contrib's ``MaskablePPO`` asks for this)."""
        return self._mask().astype(bool)

    def view(self) -> ChallengeView:
        return challenge_view(self._require())

    def public_setup(self) -> dict[str, Any]:
        """The campaign's public set-up, what the search manager rebuilds campaigns with
        (``{"cards": CardSet, "first_game": ...}``; :func:`.challenge_sample.public_setup`):
        the env's options only, nothing of the campaign being played."""
        return {"cards": self.cardset, "first_game": self.first_game}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn(f"{NAME}: render() was called with render_mode=None")
            return None
        if self.render_mode == "rgb_array":
            from ..core.picture import draw      # matplotlib is imported only to draw
            return draw(self._scene())
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def get_action_meanings(self) -> list[str]:
        return list(rules.SOLO_ACTIONS)

    def save(self) -> solo.Campaign:
        """A copy of the campaign now (``.to_dict()`` makes it JSON); :meth:`restore` puts it back."""
        return self._require().clone()

    def restore(self, campaign: solo.Campaign) -> None:
        """Continue from a saved campaign (a :meth:`save`, or ``Campaign.from_dict`` of one)."""
        if not isinstance(campaign, solo.Campaign):
            raise TypeError(f"{NAME}: restore() takes a saved Campaign, got {type(campaign).__name__}")
        self.campaign = campaign.clone()
        self._game_result = self._illegal = ""
        self.decision_count = 0

    def scorecard(self) -> str:
        """The game in progress (or the last): line score, the home team's scorecard, the
        pitching lines and the play-by-play."""
        g = self._require().game
        return "\n".join([g.box.render_line_score(g.board), "",
                          g.box.render_scorecard(1, g.board.inning, label_header="POS"), "",
                          g.box.render_pitching(0), "",
                          g.log.render_by_half(rules.TEAM_NAMES, lambda i, p: describe_play(g, p))])

    # -- helpers ------------------------------------------------------------------------------------
    def _require(self) -> solo.Campaign:
        if self.campaign is None:
            raise RuntimeError(f"{NAME}: call reset() before using the environment")
        return self.campaign

    def _mask(self) -> np.ndarray:
        d = self._require().pending
        if d is None:
            return np.zeros(rules.N_SOLO_ACTIONS, dtype=np.int8)
        return action_mask(rules.N_SOLO_ACTIONS, d.legal)

    def _obs(self) -> np.ndarray:
        return encode_challenge(self.view())

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The observation and the infos, from one view (built once a step)."""
        view = self.view()
        return encode_challenge(view), self._info(view)

    def _info(self, view: ChallengeView | None = None) -> dict[str, Any]:
        c = self._require()
        d = c.pending
        view = self.view() if view is None else view
        labels = [""] * rules.N_SOLO_ACTIONS
        for a, text in zip(view.legal, view.labels):    # the view's labels of the legal actions
            labels[a] = text
        results = list(c.results) + [-1] * (solo.GAMES - len(c.results))
        return {"decision": {"kind": "" if d is None else d.kind, "labels": tuple(labels)},
                "action_mask": self._mask(), "game": len(c.played), "results": results,
                "wins": c.wins, "losses": len(c.results) - c.wins, "mp": c.mp,
                "illegal_action": self._illegal, "game_result": self._game_result, "band": c.band if c.over else "",
                "score": {"away": c.game.board.runs[0], "home": c.game.board.runs[1]}}

    def _scene(self) -> Scene:
        """What ``render_mode="rgb_array"`` draws: what :meth:`render_text` shows (the campaign,
        the line score, the runners, the at-bat, the pitcher and the deck's size, the
        decision and the last play), as a :class:`~dugout.envs.core.picture.Scene`."""
        c = self._require()
        g = c.game
        b = g.board
        lineup = [g.cards.card(i).name for i in g.lineup]
        names = lineup + ["?"] * (rules.LINEUP_SIZE - len(lineup))
        lines = g.box.lines[b.half]          # a runner is his box-score line (a pinch hitter's own)
        runners = tuple(None if r is None else (lines[r].name if r < len(lines) else "?")
                        for r in b.bases)
        sit = g.solo.situations[g.situation]
        eff = g.solo.effects[g.effect]
        record = ("Record " + " ".join("W" if r else "L" for r in c.results)
                  if c.results else "No game finished yet")
        at_bat = count = hand = ""
        to_act, options = "", ()
        if not b.over:
            if len(g.lineup) == rules.LINEUP_SIZE:
                at_bat = f"At bat: {names[g.order[1]]}"
                count = f"Count {g.balls}-{g.strikes}"
            if g.pitcher >= 0:
                p = g.cards.card(g.pitcher)
                hand = (f"Pitching: {p.name}, Ace {PITCH_LABELS[solo.ace_pitch(p)]}. Deck "
                        f"{len(g.deck)} cards, discard pile {len(g.discard)}")
        final = ""
        if b.over:
            final = "The home team wins." if b.winner == 1 else "The visitors win."
        if c.over:
            ended = "Forfeit: an illegal action ended the campaign. " if self._illegal else ""
            final = (f"{final} {ended}Campaign over: {c.wins} won, {len(c.results) - c.wins} "
                     f"lost, {c.mp} MP ({c.band}).").strip()
        elif g.pending is not None:
            to_act = f"home to decide: {g.pending.kind}"
            labels = rules.option_labels(g, g.pending)
            options = tuple(f"{a}: {labels[a]}" for a in g.pending.legal)
        last = g.last
        if g.log.plays:
            play = g.log.plays[-1]
            last = (f"{half_name(play.inning, play.half)}: {describe_play(g, play)}"
                    + (f" ({g.last})" if g.last else ""))
        return Scene(
            title=f"Manager Challenge ({solo.LEVELS[g.level]}): game {len(c.played)} of {solo.GAMES}",
            series=f"{record}; {c.mp} MP",
            teams=tuple(rules.TEAM_NAMES), innings=int(b.innings), inning=int(b.inning),
            half=int(b.half), outs=int(b.outs), runners=runners,
            line_score=(tuple(int(r) for r in b.line[0]), tuple(int(r) for r in b.line[1])),
            runs=(int(b.runs[0]), int(b.runs[1])),
            hits=(int(g.box.hits[0]), int(g.box.hits[1])),
            errors=(int(g.box.errors[0]), int(g.box.errors[1])),
            at_bat=at_bat, count=count, hand=hand,
            notes=(f"Situation: {sit.name}", f"Effect: {eff.name}"),
            to_act=to_act, options=options, last_play=last, final=final)

    def render_text(self) -> str:
        """The campaign, the game's line score and situation, the deck and the decision."""
        c = self._require()
        g = c.game
        b = g.board
        s = g.solo.situations[g.situation]
        e = g.solo.effects[g.effect]
        record = " ".join("W" if r else "L" for r in c.results) or "-"
        lines = [f"Manager Challenge ({solo.LEVELS[g.level]}): game {len(c.played)} of {solo.GAMES}, "
                 f"record {record}, {c.mp} MP" + (f", {c.band}" if c.over else ""),
                 f"Situation: {s.name}. Effect: {e.name} ("
                 + ("; ".join(o.describe() for o in e.ops(g.level >= 1)) or "no effect") + ").",
                 "", g.box.render_line_score(b), ""]
        if not b.over:
            names = [g.cards.card(i).name for i in g.lineup]
            on = [f"{('first', 'second', 'third')[k]}" for k in range(3) if b.bases[k] is not None]
            lines.append(f"Bottom of the {ordinal(b.inning)}, {b.outs} out, " +
                         ("runners on " + ", ".join(on) if on else "bases empty") + ".")
            if g.pitcher >= 0:
                p = g.cards.card(g.pitcher)
                lines.append(f"Pitching: {p.name}, Ace {PITCH_LABELS[solo.ace_pitch(p)]}. Deck "
                             f"{len(g.deck)} cards, discard pile {len(g.discard)}.")
            if len(g.lineup) == rules.LINEUP_SIZE:
                lines.append(f"At bat: {names[g.order[1]]}, count {g.balls}-{g.strikes}.")
            if g.pending is not None:
                labels = rules.option_labels(g, g.pending)
                lines.append(f"Decision {g.pending.kind}: " +
                             "; ".join(f"{a}: {labels[a]}" for a in g.pending.legal))
        else:
            lines.append("The home team wins." if b.winner == 1 else "The visitors win.")
        if g.last:
            lines += ["", f"Last pitch: {g.last}"]
        recent = g.log.plays[-3:]
        if recent:
            lines += ["", "Last plays:"] + ["  " + describe_play(g, p) for p in recent]
        return "\n".join(lines)
