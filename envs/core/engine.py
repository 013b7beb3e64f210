"""Driving an engine from outside the env: set up a situation, play it on under a policy.

Every ruleset's rules module is a table of rules: ``RULES[state.step](state)`` applies the
automatic rule the state is at, ``CHOICES[decision.kind](state, decision, action)`` applies a
manager's choice, and ``state.pending`` is the decision waiting (``None`` between rules). The
env, the value tables, the heuristics' own look-aheads and the search managers all play an
engine this way; this module is the one loop they share, so nothing outside a ruleset writes
``state.pending`` or calls its tables itself.

    from dugout.envs.core.engine import play_out
    from dugout.envs.showdown import rules

    play_out(state, rules, policy)                              # to the end of the game
    play_out(state, rules, policy, stop=lambda s: s.board.half != team)   # to the half's end

Every rules module's own ``apply_action(state, action)`` (a manager's checked choice, then play
on) and ``run(state)`` (rules until a decision or the end) are built from :func:`apply_choice`
and :func:`run_rules`; what each ruleset adds (a walk-off still scored, an injury still rolled,
the tables of a mode) stands in its own ``run``.

A *policy* is ``policy(state, decision) -> action``: one signature for every ruleset (the
``reference_action`` each value table is sampled under is one). A situation (an inning, a half,
the outs and the runners) is set on a game's scoreboard by :func:`set_situation`; each ruleset's
``start_half_inning`` (where it has one) sets the rest of its state (the batting order, the
step its at-bat starts at) and returns a state ready for :func:`play_out`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from .decisions import Decision, take_decision

__all__ = ["Policy", "play_out", "set_situation", "NEVER_ENDS", "legal_actions", "apply_choice",
           "run_rules"]

#: ``policy(state, decision) -> action``: how outside code decides an engine's decisions.
Policy = Callable[[Any, Decision], int]

#: Scheduled innings of a game that never ends by innings (a half inning played on its own).
NEVER_ENDS = 1 << 30


def legal_actions(state: Any) -> tuple[int, ...]:
    """The actions the pending decision allows; ``()`` when none is pending (the game is over)."""
    return () if state.pending is None else state.pending.legal


def apply_choice(state: Any, action: int, labels: tuple[str, ...], choices: dict) -> None:
    """A manager's choice: check ``action`` against ``state.pending`` and clear it
    (:func:`~.decisions.take_decision`, whose error labels the legal actions from ``labels``),
    then apply it by ``choices[decision.kind]``. The caller plays on (its ``run``)."""
    decision = take_decision(state, action, labels)
    choices[decision.kind](state, decision, action)


def run_rules(state: Any, rules: dict) -> None:
    """Apply the automatic rules, ``rules[state.step]``, until a decision is pending or the
    game is over."""
    while state.pending is None and not state.board.over:
        rules[state.step](state)


def play_out(state: Any, rules: ModuleType, policy: Policy, *,
             stop: Callable[[Any], bool] | None = None,
             on_rule: Callable[[Any], None] | None = None,
             check: bool = False) -> None:
    """Play ``state`` on through ``rules`` (a ruleset's rules module, its ``RULES`` and
    ``CHOICES``) until the game is over or ``stop(state)`` is true (asked before every rule and
    every decision), each decision decided by ``policy(state, decision)``. A game that ends
    here ends as the engine's ``apply_action`` ends it: the rules module's ``run`` finishes
    what a walk-off leaves (its last play, its plate appearance in the books).

    ``on_rule(state)`` is called before each automatic rule is applied (``state.step`` names
    it): the value tables count a plate appearance when its first rule comes up. The policy's
    action is trusted (no legality check: the engines' own callers pick from
    ``decision.legal``) unless ``check`` is true, when an action outside ``decision.legal``
    raises ``ValueError`` naming the decision.
    """
    run_rules, choices = rules.RULES, rules.CHOICES
    board = state.board
    was_over = board.over
    while not board.over and (stop is None or not stop(state)):
        decision = state.pending
        if decision is None:
            if on_rule is not None:
                on_rule(state)
            run_rules[state.step](state)
            continue
        action = policy(state, decision)
        if check and action not in decision.legal:
            raise ValueError(f"policy chose {action!r} at a {decision.kind!r} decision; legal: "
                             f"{list(decision.legal)}")
        state.pending = None
        choices[decision.kind](state, decision, action)
    if board.over and not was_over:
        rules.run(state)        # the engine's own end: a walk-off's last play and its books


def set_situation(board: Any, *, inning: int, half: int, outs: int, bases: tuple) -> None:
    """Put a scoreboard at the start of a situation of a half inning that never ends the game:
    ``inning`` (which also keys the dice streams of most rulesets), ``half`` (0 top, 1 bottom),
    ``outs`` and ``bases`` (three runner ids or ``None``), no runs yet and a line score of one
    column a side (the half's runs are added to its last column)."""
    board.innings = NEVER_ENDS
    board.inning, board.half, board.outs, board.over = inning, half, outs, False
    board.runs = [0, 0]
    board.line = [[0], [0]]
    board.bases = tuple(bases)
