"""Determinization for Bottom of the 9th, the duel and the Longer Game: :func:`sample_state`
builds a full engine state from one manager's view, drawing what the view does not show from
``rng``.

A search manager plays copies of the game built from its own view, never from the live game.
Nearly everything is on the table (RULES.md; :mod:`.view`), so most of the state is copied;
the rest is drawn.

**The duel** (``mode="duel"``).

*Copied from the view*: the card set, the Pitch die's faces, ``fatigue_rows``, ``out_rule``,
the inning, the outs, the runs, which bases are taken, the count, the Fatigue Track and its
ceiling, the lineup and the order, the two pitchers and those removed, the drafted cards
(``own_cards``/``opp_cards``), the revealed pitch, the guess, the tokens, the grants, the dice
shown and as rolled, ``pa``, ``last``, and the pending decision when this manager is to act.

*Drawn* (each from the distribution named, with ``rng``):

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

*Not in the view and not drawn* (they change no rule's outcome): which batter stands on
which base (the view shows only that a base is taken: the runners are the batters before
the one at the plate, the lead runner the earliest), the box score's lines so far (fresh
lines: names, no statistics), the play log (empty), the line score (the home run, if any,
in the 9th) and the pitch number within the at-bat (balls + strikes, it keys only the dice,
which are fresh anyway).

**The Longer Game** (``mode="game"``; RULES.md, "The Longer Game").

*Copied from the view*: what the duel copies (the fielding team's pitcher's Fatigue Track,
the tokens turned from seats back to roles), and each team's lineup (nine slots), its
pitcher's slot, its place in the order, its bench and bullpen, the pitcher on its mound, his
runs allowed and reset row, its relievers used, its support card and whether it is spent,
the fatigue points still to place and a substitution in progress; the pitchers removed
(each team's told apart by its cards); the inning, half, outs and score (a finished game's
winner, or its cut-off tie, from the score).

*Drawn*, besides the duel's (the committed pitch, now whichever team bats; the dice; the
Pitch die's face number; which decision the other manager is making: at a half inning's
start his pitching change, double switch or fatigue point, between batters his relief,
pitching change, double switch or pinch hitter, or the next pitch; the draft's first pick
once it no longer shows):

* which batter stands on which base: public at the table, not in the view, and read by the
  pinch-hit rules (a runner may not be replaced): uniform among the ways the bases taken
  could hold batters of this half before the one due (the last eight at most), the earliest
  the lead runner (runners never pass), among those whose view is this one (the manager's
  own pinch mask rules some out) and whose decision has a legal action (the other
  manager's pinch hitter needs a slot no runner holds);
* during the set-up, each team's staff order, which the view does not show until play
  begins (it shows the team's cards in index order): without a draft, uniform among the
  orders whose first may start and whose others may relieve (the selection's mask, which
  checks each pick's own role); with a draft, whether a team that has
  set its lineup has named its starter yet, and whom, uniform among the choices the view
  allows (a drafted pitcher who may start).

*Rebuilt by rule, not drawn*: once play has begun each staff is its first removed pitcher
(else the one on the mound), then the bullpen in the view's order, then the pitchers who
can no longer come in; the drafted cards are the team's cards (pitchers, then batters, each
in index order: the pick order shows nowhere but in the order of a bench or bullpen, which
is copied once shown). *Not in the view and not drawn* (no rule reads them): the box score's
statistics (fresh lines: one per lineup slot, a pitching line for each pitcher who has
pitched; runs allowed are the view's ``runs_allowed``), the play log and the line score's
columns (each team's runs in its first inning's column).

``setup`` is the game's public set-up, what both managers know and the env was built with.
The duel: ``{"mode": "duel", "teams": "given" | "choose", "draft": bool}`` (``teams`` is
"given" for the env's "default" or dict teams, "choose" otherwise). The Longer Game:
``{"mode": "game", "teams": "default" | "choose", "draft": bool, "max_innings": int | None,
"batters": 8-10, "pitchers": 2-4, "support": bool}`` (the built-in support cards when
``support``). :func:`public_setup` builds either from an env's public options.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from ..core.dice import Dice
from ..core.engine import run_rules
from ..core.sample import check_sample_args, scoreboard_from_view
from ..core.scoreboard import Scoreboard, SuddenDeathScoreboard
from ..core.scorebook import BoxScore, PlayLog
from .conditions import condition_ops, condition_supports, load_solo
from .rules import (DRAFT_BATTERS, DRAFT_PITCHERS, GAME_LINEUP, GAME_TEAM_NAMES, LINEUP_SIZE, MODES,
                    TEAM_NAMES, GameState, add_deficit_line, legal_pitches)
from .support import load_support
from .view import BottomNinthView, view_of

__all__ = ["sample_state", "public_setup", "kinds_never_asked", "runner_slots"]

#: A seed for the fresh dice: 63 bits of ``rng``.
_SEED_BITS = 63
#: How many dice seeds to try for a die the view shows the outcome of (the draft order).
_DIE_TRIES = 200


def public_setup(env: Any) -> dict[str, Any]:
    """The public set-up of a Bottom of the 9th env (``bottom_ninth_v0.raw_env`` or its
    unwrapped env): the duel's mode, whether the teams are given or chosen, and the draft
    option; the Longer Game's teams option, the draft, ``max_innings``, the team sizes and
    the support option. Reads only the env's public options, never its game."""
    env = getattr(env, "unwrapped", env)
    if env.mode == "game":
        return {"mode": "game", "teams": env.teams, "draft": bool(env.draft),
                "max_innings": env.max_innings, "batters": env.n_batters,
                "pitchers": env.n_pitchers, "support": env.support if env.support == "shared" else bool(env.support),
                "dealt": bool(getattr(env, "dealt", False))}
    return {"mode": "duel", "teams": "given" if env.lineup is not None else "choose",
            "draft": bool(env.draft), "extra_innings": bool(getattr(env, "extra_innings", False)),
            "support": getattr(env, "support", False), "dealt": bool(getattr(env, "dealt", False))}


#: The Longer Game's own decisions: its inning-start fatigue and its substitutions.
GAME_KINDS = ("fatigue_split", "pinch_hit", "pinch_slot", "double_switch", "double_switch_slot")
#: The Longer Game's batters who field a position ("8 Batter lineup"): its bench is the rest.
_FIELDERS = 8
#: The substitutions from the bench (its ``batters - 8`` pinch hitters).
BENCH_KINDS = ("pinch_hit", "pinch_slot", "double_switch", "double_switch_slot")


def kinds_never_asked(setup: dict[str, Any]) -> dict[str, str]:
    """The decision kinds no game of the public set-up ``setup`` (:func:`public_setup`) asks
    a manager, each with the option that says so: the Longer Game's own decisions in the
    duel, its bench's without a bench, the draft's without a manager's draft, the teams'
    picks when the teams are given, the support card's pick unless each team picks its own
    (``support=True``, teams chosen, no draft: a draft drafts the cards)."""
    game = setup.get("mode", "duel") == "game"
    never: dict[str, str] = {}
    if not game:
        never.update((k, "it is the Longer Game's, mode='game'") for k in GAME_KINDS)
    elif setup.get("batters", _FIELDERS) <= _FIELDERS:
        never.update((k, f"no team has a bench, batters={setup.get('batters', _FIELDERS)}")
                     for k in BENCH_KINDS)
    if not setup.get("draft"):
        never.update((k, "there is no draft, draft=True asks it") for k in ("draft_order", "draft_pick"))
    elif setup.get("dealt"):
        never.update((k, "the draft's picks are dealt at random, draft='random'")
                     for k in ("draft_order", "draft_pick"))
    if setup.get("teams") in ("given", "default"):
        never.update((k, "the teams are given, teams='choose' asks them")
                     for k in ("select_batter", "select_pitcher"))
    support = setup.get("support", False)
    if not support:
        never["select_support"] = "no support cards are in play, support=True"
    elif support == "shared":
        never["select_support"] = "the shared support card is drawn by a die"
    elif setup.get("draft"):
        never["select_support"] = "the support cards are drafted"
    elif setup.get("teams") in ("given", "default"):
        never["select_support"] = "the support cards are assigned with the given teams"
    return never


def sample_state(view: BottomNinthView, rng: random.Random, setup: dict[str, Any] | None = None) -> GameState:
    """A full state of the duel or the Longer Game consistent with ``view``
    (``view_of(sample, view.seat) == view``), what the view does not show drawn from ``rng``
    (the module docstring says how). ``setup`` is :func:`public_setup`'s dict; None reads the
    mode's defaults (the duel: given teams, no draft; the Longer Game: preset teams, no
    draft, no ``max_innings``, 8 batters and 4 pitchers a team, no support cards)."""
    check_sample_args(view, BottomNinthView, rng)
    setup = _check_setup(view, setup)
    if view.mode == "game":
        candidates = _game_candidates(view, rng, setup)
    else:
        candidates = _candidates(_table(view, setup), view, rng)
    if not candidates:
        raise ValueError(f"no {view.mode} state of these rules shows this view (a view of "
                         f"another set-up, or one changed by hand?)")
    return candidates[rng.randrange(len(candidates))] if len(candidates) > 1 else candidates[0]


def _check_setup(view: BottomNinthView, setup: dict[str, Any] | None) -> dict[str, Any]:
    if view.mode == "game":
        return _check_game_setup(setup)
    setup = {"mode": "duel", "teams": "given", "draft": False, "extra_innings": False,
             "support": False, "dealt": False, **(setup or {})}
    if setup["mode"] != "duel" or setup["teams"] not in ("given", "choose") or \
            not isinstance(setup["draft"], bool) or (setup["draft"] and setup["teams"] != "choose") \
            or not isinstance(setup["extra_innings"], bool) or setup["support"] not in (False, True, "shared") or \
            not isinstance(setup["dealt"], bool) or (setup["dealt"] and not setup["draft"]) or \
            (setup["extra_innings"] and setup["teams"] == "choose" and not setup["draft"]):
        raise ValueError(f"setup must be public_setup's dict for a duel, got {setup!r}")
    return setup


def _check_game_setup(setup: dict[str, Any] | None) -> dict[str, Any]:
    setup = {"mode": "game", "teams": "default", "draft": False, "max_innings": None,
             "batters": 8, "pitchers": 4, "support": False, "dealt": False, **(setup or {})}
    ok = (setup["mode"] == "game" and setup["teams"] in ("default", "choose")
          and isinstance(setup["draft"], bool) and setup["support"] in (False, True, "shared")
          and isinstance(setup["dealt"], bool) and (not setup["dealt"] or setup["draft"])
          and (not setup["draft"] or setup["teams"] == "choose")
          and (setup["max_innings"] is None or isinstance(setup["max_innings"], int))
          and setup["batters"] in range(8, 11) and setup["pitchers"] in range(2, 5))
    if not ok:
        raise ValueError(f"setup must be public_setup's dict for a Longer Game, got {setup!r}")
    return setup


# -- what the table shows -----------------------------------------------------------------
def runner_slots(view: Any) -> tuple:
    """The runners' batting lines (the duel's lineup slots) of a duel's or a Manager
    Challenge game's view (its ``runners`` and ``batter_slot``): the batters before the one
    at the plate, the most recent on the lowest base taken (not shown by the view; no rule
    reads a runner's identity in the duel)."""
    bases: list[int | None] = [None, None, None]
    back = 1
    for base in range(3):
        if view.runners[base]:
            bases[base] = (view.batter_slot - back) % LINEUP_SIZE
            back += 1
    return tuple(bases)


def _board(view: BottomNinthView, setup: dict[str, Any]) -> Scoreboard:
    if setup["extra_innings"]:
        # the duel's tenth inning: a regulation board from the bottom of ``innings``
        board = scoreboard_from_view(inning=view.inning, half=view.half, outs=view.outs,
                                     score=view.runs, over=view.over, innings=view.innings,
                                     max_innings=view.innings + 1)
        board.line[0] = [0] * view.innings + board.line[0][view.innings:]
        board.line[0][-1 if view.inning > view.innings else 0] = view.runs[0]
        board.line[1] = [0] * (view.innings - 1) + [view.runs[1]] + [0] * (len(board.line[1]) - view.innings)
        board.bases = runner_slots(view)
        return board
    inning = view.innings
    runs = list(view.runs)
    winner = None
    if view.over:
        winner = 1 if runs[1] > runs[0] else 0
    line = [[0] * inning, [0] * (inning - 1) + [runs[1]]]
    line[0][0] = runs[0]
    return SuddenDeathScoreboard(innings=inning, inning=inning, half=1, outs=view.outs,
                                 bases=runner_slots(view), runs=runs, line=line,
                                 over=view.over, winner=winner)


def _box(view: BottomNinthView, lineup: list[int], pitchers: list[int],
         away_lineup: list[int] | None = None, home_pitchers: list[int] = ()) -> BoxScore:
    """Fresh box-score lines (the view holds no statistics): the batters' names once the
    lineup is set, a pitching line for each pitcher who has taken the mound (with the tenth
    inning, ``away_lineup`` and home's pitchers too)."""
    cs = view.cards

    def names(cards: list[int]) -> list[tuple[str, str]]:
        if len(cards) == LINEUP_SIZE and view.pitcher_card >= 0:
            return [(cs.card(i).name, cs.card(i).position) for i in cards]
        return [(f"Batter {i + 1}", "") for i in range(LINEUP_SIZE)]
    box = BoxScore(list(TEAM_NAMES), [[] if away_lineup is None else names(away_lineup), names(lineup)])
    deficit = sum(o.n for o in condition_ops(load_solo(), view.condition)
                  if o.kind == "deficit") if view.condition >= 0 else 0
    if deficit:
        add_deficit_line(box, deficit)
    for p in pitchers:
        box.add_pitcher(0, cs.card(p).name)
    for p in home_pitchers:
        box.add_pitcher(1, cs.card(p).name)
    return box


def _table(view: BottomNinthView, setup: dict[str, Any]) -> GameState:
    """The state with everything the view shows, no decision pending and dice unset."""
    seat = view.seat
    lineup, staff = list(view.lineups[1]), list(view.staff)
    playing = view.pitcher_card >= 0
    extra = setup["extra_innings"]
    away_lineup, home_staff = list(view.lineups[0]), list(view.home_staff)
    # each team's pitchers who have taken the mound, in order (the removed ones first)
    pitchers = [c for c in list(view.removed) + [view.mound[0]] if c >= 0 and c not in home_staff] \
        if extra else list(view.removed) + ([view.pitcher_card] if playing else [])
    home_pitchers = [c for c in list(view.removed) + [view.mound[1]] if c >= 0 and c in home_staff]
    drafted: list[list[int]] = [[], []]
    if setup["draft"]:
        drafted[seat], drafted[1 - seat] = list(view.own_cards), list(view.opp_cards)
    faces = tuple(f for f, n in view.pitch_faces for _ in range(n))
    state = GameState(
        board=_board(view, setup), dice=Dice(0),
        box=_box(view, lineup, pitchers, away_lineup if extra else None, home_pitchers), log=PlayLog(),
        cards=view.cards, faces=faces, fatigue_rows=view.fatigue_rows, out_rule=view.out_rule,
        teams=setup["teams"], draft=setup["draft"], order=list(view.orders), lineup=lineup,
        staff=staff, drafted=drafted, pitcher=view.pitcher_card if playing else -1,
        removed=list(view.removed), fatigue=list(view.fatigue), ceiling=view.ceiling, pa=view.pa,
        balls=view.balls, strikes=view.strikes, thrown=view.thrown, guess=view.guess,
        tokens=[-1 if s < 0 else int(s != 1 - view.half) for s in view.tokens],   # seats to roles
        grants=[list(view.grants[0]), list(view.grants[1])],
        face=view.face, face_natural=view.face_natural, control=view.control,
        control_natural=view.control_natural, swing=view.swing, swing_natural=view.swing_natural,
        last=view.last, extra_innings=extra, dealt=setup["dealt"], condition=view.condition)
    grants = condition_supports(condition_ops(load_solo(), view.condition)) if view.condition >= 0 else None
    if grants is not None:                   # the Condition Card's ability: a shared card
        state.supports, state.use_support, state.shared_support = grants, True, True
        state.support, state.support_used = list(view.support), list(view.support_used)
    if setup["support"]:
        state.supports, state.use_support = load_support(), True
        state.shared_support = setup["support"] == "shared"
        state.support, state.support_used = list(view.support), list(view.support_used)
    if extra:
        state.lineups[0], state.staffs[1] = away_lineup, home_staff
        state.ceilings = list(view.ceilings)
        # the pitcher off the mound (the one on it is ``pitcher``)
        state.mound = [view.mound[t] if playing and t != state.board.fielding else -1 for t in (0, 1)]
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
        supports_left = base.use_support and min(base.support) < 0
        if base.draft and (picks < 2 * (DRAFT_PITCHERS + DRAFT_BATTERS) or supports_left):
            return [("draft_pick", -1)] + ([("setup", -1)] if picks == 0 else [])
        batters_set = len(base.lineup) == LINEUP_SIZE and (
            not base.extra_innings or len(base.lineups[0]) == LINEUP_SIZE)
        return [("select_pitcher" if batters_set else "select_batter", -1)]
    if view.thrown >= 0:                                       # a revealed pitch
        return [("batter_ability" if view.swing else "pitcher_ability", -1)]
    starts = [("stare_down", -1)]
    if not view.batting:                                       # the pitcher's manager
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
    way: a step that would roll one is not a start); False when they ask none, or ask a
    decision with no legal action (a world the game could not have reached: in the Longer
    Game, runners drawn on the slots the other manager's pinch hitter must take)."""
    rules = MODES[trial.mode][1]
    if trial.step == "setup":
        rules["setup"](trial)
    else:
        run_rules(trial, rules)
    return trial.pending is not None and bool(trial.pending.legal) and not trial.board.over


def _draft_first(state: GameState, view: BottomNinthView, rng: random.Random) -> int:
    """Who picked first in the draft: the team with more picks, else the team to pick next
    (this manager when he is asked, else the other), else (the draft over with equal picks,
    the first pick no longer shown) a fair coin; -1 without a draft."""
    if not state.draft:
        return -1
    if state.dealt:                          # dealt at random: away first, no die
        return 0
    a, b = len(state.drafted[0]), len(state.drafted[1])
    if a != b:
        return 0 if a > b else 1
    if state.use_support and not state.shared_support:
        s0, s1 = state.support[0] >= 0, state.support[1] >= 0
        if s0 != s1:                       # the first picker drafts his support card first
            return 0 if s0 else 1
        if not s0:
            return view.seat if view.decision == "draft_pick" else 1 - view.seat
    if a + b < 2 * (DRAFT_PITCHERS + DRAFT_BATTERS):
        return view.seat if view.decision == "draft_pick" else 1 - view.seat
    return rng.randrange(2)



# ================================================================== the Longer Game
def _game_candidates(view: BottomNinthView, rng: random.Random,
                     setup: dict[str, Any]) -> list[GameState]:
    """Every Longer Game state the view allows, one per decision the rules could be asking,
    each with its hidden parts drawn; the runners' batting lines (public, not in the view)
    are drawn among those the view allows (a pinch decision's mask shows who may not be
    replaced), the staffs likewise during the set-up."""
    seat = view.seat
    dice_seed = rng.getrandbits(_SEED_BITS)
    runner_choices = _runner_choices(view)
    rng.shuffle(runner_choices)
    staff_draws = _game_staffs(view, rng, setup)
    for runners in runner_choices:
        for staffs in staff_draws:
            base = _game_table(view, setup, runners, staffs)
            if base.face_natural:
                same = [i + 1 for i, f in enumerate(base.faces) if f == base.face_natural]
                base.pitch_roll = same[rng.randrange(len(same))]
            if view.over:
                base.step = "clean_up"
                base.dice = Dice(dice_seed, (base.board.half_index, base.pa, base.pitch_no))
                base.draft_first = _game_draft_first(base, view, rng, asking=False)
                if view_of(base, seat) == view:
                    return [base]
                continue
            out, seen = [], set()
            for step, secret, changed in _game_starts(base, view, rng):
                trial = base.clone()
                trial.dice = Dice(dice_seed, (trial.board.half_index, trial.pa, trial.pitch_no))
                trial.secret, trial.step, trial.changed = secret, step, changed
                trial.draft_first = -1 if step == "setup" else \
                    _game_draft_first(trial, view, rng, asking=step == "game_draft")
                if step == "setup" and not _draw_draft_die(trial, view, rng):
                    continue
                if _ask(trial) and view_of(trial, seat) == view:
                    key = (trial.step, trial.pending)
                    if key not in seen:
                        seen.add(key)
                        out.append(trial)
            if out:
                return out
    return []


def _runner_choices(view: BottomNinthView) -> list[tuple]:
    """Every way the batting team's batters could stand on the bases the view shows taken:
    distinct lineup slots among the batters who came up this half before the one due (the
    last eight at most), the one who batted earliest the lead runner (runners never pass)."""
    k = sum(view.runners)
    if not k or view.pitcher_card < 0:
        return [(None, None, None)]
    t = view.half
    due = view.orders[t]
    window = [(due - j) % GAME_LINEUP for j in range(1, min(max(view.pa, k), GAME_LINEUP - 1) + 1)]
    taken = [b for b in range(3) if view.runners[b]]
    out = []
    for chosen in itertools.combinations(range(len(window)), k):
        bases: list[int | None] = [None, None, None]
        for base, j in zip(taken, chosen):           # most recent (smallest j) on the lowest base
            bases[base] = window[j]
        out.append(tuple(bases))
    return out


def _game_staffs(view: BottomNinthView, rng: random.Random, setup: dict[str, Any]) -> list[list[list[int]]]:
    """The staffs to try, each a pair of staffs (the starter first), in a random order.

    Once play has begun, one: each team's first pitcher removed (else the one on the mound),
    then its bullpen in the view's order, then the rest (removed relievers, the reliever on
    the mound, starting-only pitchers: none of them can come in again, so their order shows
    nowhere). During the set-up the view shows no staff: without a draft, one, each team's
    pitchers in an order whose first may start and whose others may relieve, uniform among
    those (the selection's mask checks a pick's own role: "A Pitcher with the designation
    of Relief Pitcher can only be used to replace a Pitcher (can not start a game)", and a
    Starting Pitcher "may not be used for relief"; a team with no such order is not one
    the set-up makes, and gives no staff); with a draft, every way each team that has set
    its lineup may have chosen its starter among its pitchers who may start, or not yet (the
    candidates' views decide which)."""
    cs = view.cards
    options: list[list[list[list[int]]]] = [[], []]
    for t in (0, 1):
        team = view.own_cards if t == view.seat else view.opp_cards
        pitchers = [c for c in team if not cs.is_batter(c)]
        if view.pitcher_card >= 0:
            removed = [c for c in view.removed if c in pitchers]
            starter = removed[0] if removed else view.mound[t]
            pen = list(view.bullpens[t])
            options[t] = [[starter] + pen + [c for c in pitchers if c != starter and c not in pen]]
        elif setup["draft"]:
            options[t] = [[]]
            if len(view.lineups[t]) == 8:
                options[t] += [[s] + [c for c in pitchers if c != s] for s in pitchers
                               if cs.card(s).can_start]
        else:
            orders = [list(p) for p in itertools.permutations(pitchers)
                      if not p or (cs.card(p[0]).can_start
                                   and all(cs.card(c).can_relieve for c in p[1:]))]
            options[t] = [orders[rng.randrange(len(orders))]] if orders else []
    pairs = [[a, b] for a in options[0] for b in options[1]]
    rng.shuffle(pairs)
    return pairs


def _game_box(view: BottomNinthView, staffs: list[list[int]]) -> BoxScore:
    """Fresh box-score lines once play has begun (the view holds no statistics): one batting
    line per lineup slot (the pitcher's labelled P), a pitching line for each pitcher who
    has taken the mound, the team's removed ones first."""
    cs = view.cards
    box = BoxScore(list(GAME_TEAM_NAMES), [[], []])
    if view.pitcher_card < 0:
        return box
    for t in (0, 1):
        for c in view.lineups[t]:
            box.add_line(t, cs.card(c).name, cs.card(c).position if cs.is_batter(c) else "P")
        for p in [c for c in view.removed if c in staffs[t]] + [view.mound[t]]:
            box.add_pitcher(t, cs.card(p).name)
    return box


def _game_table(view: BottomNinthView, setup: dict[str, Any], runners: tuple,
                staffs: list[list[int]]) -> GameState:
    """The Longer Game with everything the view shows, the runners and staffs given, no
    decision pending and dice unset."""
    cs = view.cards
    playing = view.pitcher_card >= 0
    board = scoreboard_from_view(inning=view.inning, half=view.half, outs=view.outs,
                                 score=view.runs, over=view.over, innings=view.innings,
                                 max_innings=setup["max_innings"])
    board.bases = runners
    drafted: list[list[int]] = [[], []]
    if setup["draft"]:
        for t in (0, 1):
            team = view.own_cards if t == view.seat else view.opp_cards
            drafted[t] = [c for c in team if not cs.is_batter(c)] + [c for c in team if cs.is_batter(c)]
    faces = tuple(f for f, n in view.pitch_faces for _ in range(n))
    fielding = board.fielding
    pair = lambda f: [f(0), f(1)]                                           # noqa: E731
    state = GameState(
        board=board, dice=Dice(0), box=_game_box(view, staffs), log=PlayLog(), cards=cs,
        faces=faces, fatigue_rows=view.fatigue_rows, out_rule=view.out_rule,
        teams=setup["teams"], draft=setup["draft"], mode="game",
        supports=load_support() if setup["support"] else None, n_batters=setup["batters"],
        n_pitchers=setup["pitchers"], use_support=bool(setup["support"]),
        shared_support=setup["support"] == "shared", dealt=setup["dealt"],
        order=list(view.orders), drafted=drafted,
        lineups=pair(lambda t: list(view.lineups[t])),
        pslot=pair(lambda t: view.pitcher_slots[t] if playing else 8),
        benches=pair(lambda t: list(view.benches[t])), staffs=staffs,
        mound=list(view.mound), ceilings=list(view.ceilings), relievers=list(view.relievers_used),
        allowed=list(view.runs_allowed),
        slot_lines=pair(lambda t: list(range(GAME_LINEUP)) if playing else []),
        support=list(view.support), support_used=list(view.support_used),
        fatigue_left=view.fatigue_left, sub_card=view.sub_card, sub_slot=view.sub_slot,
        pitcher=view.pitcher_card if playing else -1, removed=list(view.removed),
        fatigue=list(view.fatigue), ceiling=view.ceiling, pa=view.pa, balls=view.balls,
        strikes=view.strikes, thrown=view.thrown, guess=view.guess,
        tokens=[-1 if s < 0 else int(s != fielding) for s in view.tokens],
        grants=[list(view.grants[0]), list(view.grants[1])],
        face=view.face, face_natural=view.face_natural, control=view.control,
        control_natural=view.control_natural, swing=view.swing, swing_natural=view.swing_natural,
        last=view.last)
    state.pitch_no = view.balls + view.strikes + (1 if view.face_natural else 0)
    return state


def _game_starts(base: GameState, view: BottomNinthView,
                 rng: random.Random) -> list[tuple[str, int, bool]]:
    """The steps the Longer Game could be asking at: (step, committed pitch, a pitching
    change just made)."""
    if view.pitcher_card < 0:                                  # the set-up
        if not base.draft:
            return [("game_select", -1, False)]
        picks = len(base.drafted[0]) + len(base.drafted[1])
        cards_left = picks < 2 * (base.n_pitchers + base.n_batters)
        supports_left = base.use_support and min(base.support) < 0
        if cards_left or supports_left:
            return [("game_draft", -1, False)] + ([("setup", -1, False)] if picks == 0 else [])
        return [("game_select", -1, False)]
    if view.thrown >= 0:                                       # a revealed pitch
        return [("batter_ability" if view.swing else "pitcher_ability", -1, False)]
    if view.committed >= 0:                                    # this manager pitches: guess
        return [("guess", view.committed, False)]
    starts = [("stare_down", -1, False)]
    if view.batting:
        legal = legal_pitches(base)
        starts.append(("guess", legal[rng.randrange(len(legal))], False))
    if view.balls or view.strikes:
        return starts
    b = view.half
    if view.sub_card >= 0:                                     # a substitution in progress
        if view.sub_card in view.benches[b]:
            starts = [("pinch_slot", -1, False)]
        elif view.pa == 0:
            starts = [("ds_where_start" if view.sub_slot >= 0 else "ds_slot_start", -1, False)]
        else:
            starts = [("ds_where" if view.sub_slot >= 0 else "ds_slot", -1, False)]
        return starts
    starts.append(("pinch", -1, False))
    if view.pa == 0:                                           # a half inning's start
        starts += [("half_start", -1, False), ("start_switch", -1, True),
                   ("fatigue_point", -1, False)]
    else:                                                      # between batters
        starts += [("clean_up", -1, False), ("change", -1, False), ("switch", -1, True)]
    return starts


def _game_draft_first(state: GameState, view: BottomNinthView, rng: random.Random,
                      asking: bool) -> int:
    """Who picked first in the Longer Game's draft: the team with more cards picked, else
    the team with a support card while the other has none, else (a pick ``asking`` now) the
    team to pick next (this manager when he is asked, else the other), else a fair coin (the
    draft die's winner chose, and it no longer shows); -1 without a draft."""
    if not state.draft:
        return -1
    if state.dealt:                          # dealt at random: away first, no die
        return 0
    a, b = len(state.drafted[0]), len(state.drafted[1])
    if a != b:
        return 0 if a > b else 1
    s0, s1 = state.support[0] >= 0, state.support[1] >= 0
    if s0 != s1:
        return 0 if s0 else 1
    if asking:
        return view.seat if view.decision == "draft_pick" else 1 - view.seat
    return rng.randrange(2)
