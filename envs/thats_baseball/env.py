"""That's Baseball: two dice plus the batter's adjusted average, with every manager's choice.

{summary}

## Creation

```python
env = thats_baseball_v0.env(teams=("sample", "reds"), innings=9, max_innings=None,
                            max_decisions=None)
```

`teams` is a pair (away, home), each a built-in team name (`"sample"`, the rulebook's
sample team; `"reds"`, the Reds of its sample game), a path to a JSON file, a dict or a
list of nine batters (see `dugout.envs.thats_baseball.cards`; a file holds at most
1 MiB). `innings` is the scheduled length, 1 to 9 (so `innings_left` stays in [0, 1]);
extra innings are played until a winner unless `max_innings` (`innings` to 99) cuts
the game off (truncation, reward 0); both may be Python or numpy ints. `max_decisions`
bounds an episode (None: 2,000; or a positive int): a game still going after that many
decisions is cut off as `max_innings` cuts one off (truncation, reward 0, `"winner"` `""`;
`env.unwrapped.truncated_by` is `"max_decisions"`; see `dugout.envs.core.aec`). The
rulebook has no mercy rule and no end to extra innings; no game comes near the bound: the
longest of 5,000 random games took 197 decisions, the longest under adversarial legal
policies (always the highest legal action, always the lowest, the highest for one seat and
the lowest for the other) 223. `render_mode` is `"ansi"`, `"human"`, `"rgb_array"` (a
picture: core.picture) or None.
`env()` ends the game with -1 for a manager who plays an illegal action; `raw_env()`
raises `IllegalActionError` instead. An unknown option or a value out of its limits
raises `OptionError`, a bad team `DataError`.

## Agents

`"away"` bats in the top of each inning, `"home"` in the bottom. The manager whose
team is batting decides steals, the error roll and tag-ups; the fielding manager
decides pickoffs and the double play. A manager may decide several times in a row;
`agent_selection` always names the one who must act.

## Action Values

| Action | Meaning |
|---|---|
| 0 | pass: no steal, no pickoff, no roll, the runner holds |
| 1 | the runner on first: steal second, throw to first, or make him the double-play out |
| 2 | the runner on second: steal third, throw to second, or make him the double-play out |
| 3 | the runner on third: steal home, throw to third, or make him the double-play out |
| 4 | roll: for an error, for a double play, or for a tag-up |

The decisions (`infos[agent]["decision"]` names the kind and labels each legal option):

| Kind | Who | Legal actions |
|---|---|---|
| `steal` | batting | 0, or 1-3 for each runner who has not tried yet this batter and has the next base empty (home is always open) |
| `pickoff` | fielding | 0, or 1-3 for any runner; once between batters |
| `error_roll` | batting | 0 or 4, after every ground out |
| `double_play` | fielding | 0 or 4, after a ground out with a runner on first and fewer than three outs |
| `dp_runner` | fielding | 1-3 for each runner, after a successful double-play roll with several runners |
| `tag_up` | batting | 0 or 4 for the runner named by `subject`; third, then second, then first |

## Observation Space

`observe(agent)` returns `{"observation": float32 vector, "action_mask": int8 vector}`.
The vector is encoded from `env.unwrapped.view(agent)` alone (`encode_view(view)`, so a
solver or a test can encode a view without an env). The game has no hidden information:
both managers see the same facts, from their own side (`own` means the observing
manager's team), the pending decision included, whoever makes it. The mask is all zeros
for the manager who is not to act.

{table}

## Agent view

`env.unwrapped.view(agent)` returns a `ThatsBaseballView` (see
`dugout.envs.thats_baseball.view`): the same facts as the observation, decoded
(situation, both batting orders, the pending decision and its options). Heuristic
managers read it; `state()` (the global state) is the away manager's observation.

## Rewards

+1 to the winner and -1 to the loser when the game ends; 0 to both when a game is cut off
by `max_innings` or `max_decisions`. No reward before the end. Every step's `infos[agent]`
holds `"decision"`, `"score"` (`{"away": int, "home": int}`), `"winner"` (`""` until won)
and `"illegal_action"` (see `dugout.envs.core.aec`); `env.unwrapped.box_score()` gives the
box score.

## Version History

* v0: first release.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..core.aec import BaseballAECEnv, summary_table
from ..core.bases import BASE_NAMES
from ..core.decisions import Decision
from ..core.dice import ScriptedDice
from ..core.errors import check_innings, check_options, check_pair
from ..core.observation import SITUATION_PIECE, ObservationSpec, counted
from ..core.scorebook import describe_play, ordinal
from . import rules
from .cards import AA_MAX, AA_MIN, load_team
from .view import ThatsBaseballView, make_view

__all__ = ["ThatsBaseballEnv", "ThatsBaseballView", "OBS", "PIECES", "encode_view", "option_labels"]

#: the shared situation pieces, in That's Baseball's own order, then its own
PIECES = [SITUATION_PIECE[name] for name in ("inning", "half", "seat", "batting", "outs", "runners",
                                             "score", "run_diff")] + [
    ("due_up_batting", 9,
     "adjusted averages of the batting team's next nine batters, the one at the plate first, as (AA - 24) / 8"),
    ("due_up_fielding", 9,
     "adjusted averages of the fielding team's next nine batters (who bat in its next half inning), as (AA - 24) / 8"),
    ("decision", len(rules.DECISION_KINDS),
     "one-hot kind of the pending decision: " + ", ".join(rules.DECISION_KINDS)),
    ("subject", 3, "one-hot base of the runner a tag-up decision is about"),
    ("tried_steal", 3, "1 for a runner (by base) who already tried to steal before this batter"),
    ("pickoff_tried", 1, "1 once the fielding manager has tried a pickoff before this batter"),
    SITUATION_PIECE["innings_left"],
]
OBS = ObservationSpec(PIECES)

_O = OBS.offset
_KIND_INDEX = {k: i for i, k in enumerate(rules.DECISION_KINDS)}
_AA_SCALE = float(AA_MAX - AA_MIN)

OPTIONS = ("teams", "innings", "max_innings", "render_mode", "illegal_action", "dice",
           "max_decisions")


def encode_view(view: ThatsBaseballView) -> np.ndarray:
    """The observation vector of a view (the table in the module docstring)."""
    obs = np.zeros(OBS.size, dtype=np.float32)
    seat, half = view.seat, view.half
    obs[_O["inning"] + min(view.inning, 10) - 1] = 1.0
    obs[_O["half"] + half] = 1.0
    obs[_O["seat"] + seat] = 1.0
    obs[_O["batting"]] = seat == half
    if view.outs < 3:
        obs[_O["outs"] + view.outs] = 1.0
    r, t = _O["runners"], _O["tried_steal"]
    for i in range(3):
        if view.bases[i]:
            obs[r + i] = 1.0
        if view.tried_steal[i]:
            obs[t + i] = 1.0
    own, opp = view.score[seat], view.score[1 - seat]
    obs[_O["score"]] = counted(own) / 10.0
    obs[_O["score"] + 1] = counted(opp) / 10.0
    obs[_O["run_diff"]] = max(-1.0, min(1.0, (own - opp) / 10.0))
    o = _O["due_up_batting"]
    obs[o:o + 9] = _due_up(tuple(view.lineups[half]), view.order[half])
    o = _O["due_up_fielding"]
    obs[o:o + 9] = _due_up(tuple(view.lineups[1 - half]), view.order[1 - half])
    if view.pending is not None:
        obs[_O["decision"] + _KIND_INDEX[view.pending]] = 1.0
        if view.pending_subject >= 0:
            obs[_O["subject"] + view.pending_subject] = 1.0
    obs[_O["pickoff_tried"]] = view.pickoff_tried
    obs[_O["innings_left"]] = max(0, view.innings - view.inning) / 9.0
    return obs


@lru_cache(maxsize=256)
def _due_up(lineup: tuple[int, ...], at: int) -> np.ndarray:
    """A lineup's nine adjusted averages from slot ``at`` on, as (AA - 24) / 8 in float32."""
    aa = np.array(lineup[at:] + lineup[:at], dtype=np.float32)
    aa -= AA_MIN
    aa /= _AA_SCALE
    aa.flags.writeable = False
    return aa


class ThatsBaseballEnv(BaseballAECEnv, name="thats_baseball_v0", actions=rules.ACTIONS, obs=OBS,
                       view=ThatsBaseballView, encode_view=encode_view, max_decisions=2_000):
    def __init__(self, teams: tuple[Any, Any] = ("sample", "reds"), innings: int = 9,
                 max_innings: int | None = None, render_mode: str | None = None,
                 illegal_action: str = "raise", dice: ScriptedDice | None = None,
                 max_decisions: int | None = None, **unknown: Any):
        check_options("thats_baseball_v0", unknown, OPTIONS)
        super().__init__(render_mode=render_mode, illegal_action=illegal_action, dice=dice,
                         max_decisions=max_decisions)
        check_pair("thats_baseball_v0", "teams", teams)
        innings, max_innings = check_innings("thats_baseball_v0", innings, max_innings)
        self.teams = (load_team(teams[0]), load_team(teams[1]))
        self.innings = innings
        self.max_innings = max_innings
        self._labels: dict[Decision, dict[int, str]] = {}
        self._teams: tuple | None = None
        self._lineups: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())

    # -- engine hooks -------------------------------------------------------------------
    def _new_game(self, seed: int) -> rules.GameState:
        return rules.new_game(self.teams[0], self.teams[1], self._dice(seed), self.innings,
                              self.max_innings)

    def _apply(self, action: int) -> None:
        rules.apply_action(self.state_, action)

    def _option_labels(self, decision: Decision) -> dict[int, str]:
        return option_labels(decision)

    def _view(self, seat: int) -> ThatsBaseballView:
        # every observation is encoded from a view: keep its costly parts (the labels of a
        # decision, the lineups of the game's teams) from one call to the next
        s = self.state_
        if s.teams is not self._teams:
            self._teams, self._lineups = s.teams, (s.teams[0].aas, s.teams[1].aas)
        d = s.pending
        labels = None
        if d is not None:
            labels = self._labels.get(d)
            if labels is None:
                labels = self._labels[d] = option_labels(d)
        return make_view(s, seat, labels, self._lineups)

    def state(self) -> np.ndarray:
        """The global state: the away manager's view (the game has no hidden information)."""
        return self._encode(0)

    # -- text -----------------------------------------------------------------------------
    def _runner_names(self) -> list[list[str]]:
        return [[b.name.split()[-1] for b in t.batters] for t in self.teams]

    def _scene(self):
        """What ``render_mode="rgb_array"`` draws (see :mod:`.picture`)."""
        from .picture import scene
        return scene(self)

    def _render_text(self) -> str:
        s = self.state_
        b = s.board
        lines = [s.box.render_line_score(b), ""]
        names = self._runner_names()
        if b.over:
            lines.append(self._result_line([t.name for t in self.teams]))
        else:
            half = "Top" if b.half == 0 else "Bottom"
            runners = "bases empty" if not any(r is not None for r in b.bases) else "runners on " + ", ".join(
                f"{BASE_NAMES[i]} ({names[b.half][b.bases[i]]})" for i in range(3) if b.bases[i] is not None)
            batter = self.teams[b.half].batters[s.batter]
            lines.append(f"{half} of the {ordinal(b.inning)}, {b.outs} out, {runners}.")
            lines.append(f"At bat for the {self.teams[b.half].name}: {batter.name} (AA {batter.aa}).")
            if s.pending is not None:
                lines.append(self._decision_text())
        recent = s.log.plays[-5:]
        if recent:
            lines.append("")
            lines.append("Last plays:")
            lines.extend("  " + describe_play(p, names[p.half]) for p in recent)
        return "\n".join(lines)

    def scorecard(self) -> str:
        """Both batting cards, the line score and the play-by-play, like the rulebook's."""
        s = self.state_
        innings = max(9, s.board.innings)
        parts = [s.box.render_line_score(s.board), "",
                 s.box.render_scorecard(0, innings), "", s.box.render_scorecard(1, innings), "",
                 s.log.render([t.name for t in self.teams], self._runner_names())]
        return "\n".join(parts)


__doc__ = __doc__.replace("{summary}", summary_table(ThatsBaseballEnv)).replace("{table}", OBS.table())


def option_labels(decision: Decision) -> dict[int, str]:
    """What each action means at this decision."""
    kind = decision.kind
    labels: dict[int, str] = {}
    for a in decision.legal:
        base = a - 1
        if kind == "steal":
            labels[a] = "no steal" if a == rules.PASS else \
                f"runner on {BASE_NAMES[base]} steals {BASE_NAMES[base + 1]}"
        elif kind == "pickoff":
            labels[a] = "no pickoff" if a == rules.PASS else f"pickoff throw to {BASE_NAMES[base]}"
        elif kind == "error_roll":
            labels[a] = "no error roll" if a == rules.PASS else "roll for an error"
        elif kind == "double_play":
            labels[a] = "no double-play roll" if a == rules.PASS else "roll for a double play"
        elif kind == "dp_runner":
            labels[a] = f"the runner on {BASE_NAMES[base]} is out"
        elif kind == "tag_up":
            where = BASE_NAMES[decision.subject]
            labels[a] = f"runner on {where} holds" if a == rules.PASS else \
                f"runner on {where} rolls to tag up"
    return labels
