"""Determinization for Bottom of the 9th's duel: :func:`sample_state` builds a full engine
state from one manager's view, drawing what the view does not show from ``rng``.

A search manager plays copies of the game built from its own view, never from the live game.
Nearly everything in the duel is on the table (RULES.md; :mod:`.view`), so most of the state
is copied; the rest is drawn.

**Copied from the view**: the card set, the Pitch die's faces, ``fatigue_rows``, ``out_rule``,
the inning, the outs, the runs, which bases are taken, the count, the Fatigue Track and its
ceiling, the lineup and the order, the two pitchers and those removed, the drafted cards
(``own_cards``/``opp_cards``), the revealed pitch, the guess, the tokens, the grants, the dice
shown and as rolled, ``pa``, ``last``, and the pending decision when this manager is to act.

**Drawn** (each from the distribution named, with ``rng``):

* the committed pitch, when the batter is to guess (rulebook, Stare-Down: "secretly select
  ... then reveal them simultaneously"): uniform over the pitches the Fatigue Track leaves
  the pitcher (the committing manager's choice is his; the sample knows no better);
* the dice: a fresh :class:`~dugout.envs.core.dice.Dice` seeded from ``rng`` (never the live
  game's seed), on the stream the engine would be on; while the draft order is pending the
  seed is drawn again until the draft die gives the die winner the view shows (the die
  conditioned on what is seen);
* the Pitch die's face number as rolled (``pitch_roll``): uniform over the faces that show
  the natural face in the view;
* which decision the other manager is making when the view cannot tell (the view shows
  another manager's pending decision as None): uniform over the decisions the rules could
  be asking at this view (e.g. the pitcher's relief split, his pitching change or his next
  pitch, between batters);
* the draft's first pick, once the draft is over with equal picks: a fair coin (the draft
  die's winner chose, and it no longer shows).

**Not in the view and not drawn** (they change no rule's outcome): which batter stands on
which base (the view shows only that a base is taken: the runners are the batters before
the one at the plate, the lead runner the earliest), the box score's lines so far (fresh
lines: names, no statistics), the play log (empty), the line score (the home run, if any,
in the 9th) and the pitch number within the at-bat (balls + strikes, it keys only the dice,
which are fresh anyway).

``setup`` is the game's public set-up, what both managers know and the env was built with:
``{"mode": "duel", "teams": "given" | "choose", "draft": bool}`` (the duel's ``teams`` is
"given" for the env's "default" or dict teams, "choose" otherwise). :func:`public_setup`
builds it from an env's public options. The Longer Game (``mode="game"``) is not sampled
yet: :func:`sample_state` refuses it.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.dice import Dice
from ..core.engine import run_rules
from ..core.scoreboard import SuddenDeathScoreboard
from ..core.scorebook import BoxScore, PlayLog
from .rules import DRAFT_BATTERS, DRAFT_PITCHERS, LINEUP_SIZE, MODES, TEAM_NAMES, GameState, legal_pitches
from .view import BottomNinthView, view_of

__all__ = ["sample_state", "public_setup"]

#: A seed for the fresh dice: 63 bits of ``rng``.
_SEED_BITS = 63
#: How many dice seeds to try for a die the view shows the outcome of (the draft order).
_DIE_TRIES = 200


def public_setup(env: Any) -> dict[str, Any]:
    """The public set-up of a Bottom of the 9th env (``bottom_ninth_v0.raw_env`` or its
    unwrapped env): its mode, whether the teams are given or chosen, and the draft option.
    Reads only the env's public options, never its game."""
    env = getattr(env, "unwrapped", env)
    if env.mode != "duel":
        raise NotImplementedError("sample_state samples the duel; the Longer Game is not sampled yet")
    return {"mode": "duel", "teams": "given" if env.lineup is not None else "choose",
            "draft": bool(env.draft)}


def sample_state(view: BottomNinthView, rng: random.Random, setup: dict[str, Any] | None = None) -> GameState:
    """A full duel state consistent with ``view`` (``view_of(sample, view.seat) == view``),
    what the view does not show drawn from ``rng`` (the module docstring says how). ``setup``
    is :func:`public_setup`'s dict; None reads the duel's defaults (given teams, no draft)."""
    if not isinstance(view, BottomNinthView):
        raise TypeError(f"sample_state needs a BottomNinthView, got {type(view).__name__}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"sample_state needs a random.Random, got {type(rng).__name__}")
    setup = _check_setup(view, setup)
    base = _table(view, setup)
    candidates = _candidates(base, view, rng)
    if not candidates:
        raise ValueError("no duel state of these rules shows this view (a view of another "
                         "set-up, or one changed by hand?)")
    return candidates[rng.randrange(len(candidates))] if len(candidates) > 1 else candidates[0]


def _check_setup(view: BottomNinthView, setup: dict[str, Any] | None) -> dict[str, Any]:
    if view.mode != "duel":
        raise NotImplementedError("sample_state samples the duel; the Longer Game is not sampled yet")
    setup = {"mode": "duel", "teams": "given", "draft": False, **(setup or {})}
    if setup["mode"] != "duel" or setup["teams"] not in ("given", "choose") or \
            not isinstance(setup["draft"], bool) or (setup["draft"] and setup["teams"] != "choose"):
        raise ValueError(f"setup must be public_setup's dict for a duel, got {setup!r}")
    return setup


# -- what the table shows -----------------------------------------------------------------
def _runner_slots(view: BottomNinthView) -> tuple:
    """The runners' batting lines (the duel's lineup slots): the batters before the one at
    the plate, the most recent on the lowest base taken (not shown by the view; no rule
    reads a runner's identity in the duel)."""
    bases: list[int | None] = [None, None, None]
    back = 1
    for base in range(3):
        if view.runners[base]:
            bases[base] = (view.batter_slot - back) % LINEUP_SIZE
            back += 1
    return tuple(bases)


def _board(view: BottomNinthView) -> SuddenDeathScoreboard:
    inning = view.innings
    runs = list(view.runs)
    winner = None
    if view.over:
        winner = 1 if runs[1] > runs[0] else 0
    line = [[0] * inning, [0] * (inning - 1) + [runs[1]]]
    line[0][0] = runs[0]
    return SuddenDeathScoreboard(innings=inning, inning=inning, half=1, outs=view.outs,
                                 bases=_runner_slots(view), runs=runs, line=line,
                                 over=view.over, winner=winner)


def _box(view: BottomNinthView, lineup: list[int], pitchers: list[int]) -> BoxScore:
    """Fresh box-score lines (the view holds no statistics): the batters' names once the
    lineup is set, a pitching line for each pitcher who has taken the mound."""
    cs = view.cards
    if len(lineup) == LINEUP_SIZE and view.pitcher_card >= 0:
        names = [(cs.card(i).name, cs.card(i).position) for i in lineup]
    else:
        names = [(f"Batter {i + 1}", "") for i in range(LINEUP_SIZE)]
    box = BoxScore(list(TEAM_NAMES), [[], names])
    for p in pitchers:
        box.add_pitcher(0, cs.card(p).name)
    return box


def _table(view: BottomNinthView, setup: dict[str, Any]) -> GameState:
    """The state with everything the view shows, no decision pending and dice unset."""
    seat = view.seat
    lineup, staff = list(view.lineups[1]), list(view.staff)
    playing = view.pitcher_card >= 0
    pitchers = list(view.removed) + ([view.pitcher_card] if playing else [])
    drafted: list[list[int]] = [[], []]
    if setup["draft"]:
        drafted[seat], drafted[1 - seat] = list(view.own_cards), list(view.opp_cards)
    faces = tuple(f for f, n in view.pitch_faces for _ in range(n))
    state = GameState(
        board=_board(view), dice=Dice(0), box=_box(view, lineup, pitchers), log=PlayLog(),
        cards=view.cards, faces=faces, fatigue_rows=view.fatigue_rows, out_rule=view.out_rule,
        teams=setup["teams"], draft=setup["draft"], order=list(view.orders), lineup=lineup,
        staff=staff, drafted=drafted, pitcher=view.pitcher_card if playing else -1,
        removed=list(view.removed), fatigue=list(view.fatigue), ceiling=view.ceiling, pa=view.pa,
        balls=view.balls, strikes=view.strikes, thrown=view.thrown, guess=view.guess,
        tokens=list(view.tokens), grants=[list(view.grants[0]), list(view.grants[1])],
        face=view.face, face_natural=view.face_natural, control=view.control,
        control_natural=view.control_natural, swing=view.swing, swing_natural=view.swing_natural,
        last=view.last)
    state.pitch_no = view.balls + view.strikes
    if view.face_natural:
        state.pitch_no += 1                          # the pitch in progress
    return state


# -- what the rules could be asking ------------------------------------------------------------
def _candidates(base: GameState, view: BottomNinthView, rng: random.Random) -> list[GameState]:
    """Every state the view allows, one per decision the rules could be asking, each with
    its hidden parts drawn."""
    seat = view.seat
    dice_seed = rng.getrandbits(_SEED_BITS)
    if base.face_natural:
        same = [i + 1 for i, f in enumerate(base.faces) if f == base.face_natural]
        base.pitch_roll = same[rng.randrange(len(same))]
    if view.over:
        base.step = "clean_up"
        base.dice = Dice(dice_seed, (base.board.half_index, base.pa, base.pitch_no))
        base.draft_first = _draft_first(base, view, rng)
        return [base] if view_of(base, seat) == view else []
    out, seen = [], set()
    for step, secret in _starts(base, view, rng):
        trial = base.clone()
        trial.dice = Dice(dice_seed, (trial.board.half_index, trial.pa, trial.pitch_no))
        trial.secret = secret
        trial.step = step
        trial.draft_first = -1 if step == "setup" else _draft_first(trial, view, rng)
        if step == "setup" and not _draw_draft_die(trial, view, rng):
            continue
        if _ask(trial) and view_of(trial, seat) == view:
            key = (trial.step, trial.pending)
            if key not in seen:
                seen.add(key)
                out.append(trial)
    return out


def _starts(base: GameState, view: BottomNinthView, rng: random.Random) -> list[tuple[str, int]]:
    """The steps the game could be asking at (with the committed pitch, where one is)."""
    committed = view.committed
    if view.pitcher_card < 0:                                  # the set-up
        picks = len(base.drafted[0]) + len(base.drafted[1])
        if base.draft and picks < 2 * (DRAFT_PITCHERS + DRAFT_BATTERS):
            return [("draft_pick", -1)] + ([("setup", -1)] if picks == 0 else [])
        return [("select_batter" if len(base.lineup) < LINEUP_SIZE else "select_pitcher", -1)]
    if view.thrown >= 0:                                       # a revealed pitch
        return [("batter_ability" if view.swing else "pitcher_ability", -1)]
    starts = [("stare_down", -1)]
    if view.seat == 0:
        if committed >= 0:
            starts = [("guess", committed)]
    else:
        legal = legal_pitches(base)
        starts.append(("guess", legal[rng.randrange(len(legal))]))
    if base.pa > 0 and view.balls == view.strikes == 0 and committed < 0:
        starts += [("clean_up", -1), ("change", -1)]          # between batters
    return starts


def _draw_draft_die(trial: GameState, view: BottomNinthView, rng: random.Random) -> bool:
    """The draft order's die, conditioned on the winner the view shows (the die winner is
    this manager when he is asked, else the other)."""
    winner = view.seat if view.decision == "draft_order" else 1 - view.seat
    for _ in range(_DIE_TRIES):
        dice = Dice(rng.getrandbits(_SEED_BITS))
        probe = dice.clone()
        probe.set_stream(0, 0, 0)
        if probe.randbelow("draft", 2) == winner:
            trial.dice = dice
            return True
    return False


def _ask(trial: GameState) -> bool:
    """Run the rules from ``trial.step`` to the decision they ask (no die is rolled on the
    way: a step that would roll one is not a start); False when they ask none."""
    rules = MODES[trial.mode][1]
    if trial.step == "setup":
        rules["setup"](trial)
    else:
        run_rules(trial, rules)
    return trial.pending is not None and not trial.board.over


def _draft_first(state: GameState, view: BottomNinthView, rng: random.Random) -> int:
    """Who picked first in the draft: the team with more picks, else the team to pick next
    (this manager when he is asked, else the other), else (the draft over with equal picks,
    the first pick no longer shown) a fair coin; -1 without a draft."""
    if not state.draft:
        return -1
    a, b = len(state.drafted[0]), len(state.drafted[1])
    if a != b:
        return 0 if a > b else 1
    if a + b < 2 * (DRAFT_PITCHERS + DRAFT_BATTERS):
        return view.seat if view.decision == "draft_pick" else 1 - view.seat
    return rng.randrange(2)
