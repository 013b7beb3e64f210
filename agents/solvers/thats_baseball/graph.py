"""The plate appearance as a graph: every node the engine can stop at, and its branches.

Inside a plate appearance the engine (``dugout.envs.thats_baseball.rules``) walks
through the nodes ``S`` (steal), ``P`` (pickoff), ``AB`` (the batter's roll), ``E``
(error roll), ``D`` (double-play roll), ``R`` (which runner is doubled up) and ``T``
(tag-up), each with its outs and its runners (a 3-bit mask); see the package's
docstring. :data:`GRAPH` holds every node reachable from the start of a plate
appearance, its program (who decides, and for each choice the chances of each next
node with the runs scored and whether the next batter comes up), and a run-free
topological order, checked acyclic when it is built.

The graph is generated, not transcribed: nothing here restates a rule. Each node is an
engine state (a half inning set up by ``rules.start_half_inning`` and played on by the
engine's own rules), and each branch is the engine applying the choice (``rules.CHOICES``)
and playing on to its next stop: every total of the roll it asks for, read on its chart
(:data:`dugout.envs.thats_baseball.charts.CHARTS`), the totals of one result checked to lead
to the same node, the result's chance the chart's exact count of the dice's ways. The
batter's roll is the engine's ``rules.batter_result`` of each outcome, its chance per
batter from :mod:`.chart`. A chart's results are summed in its order.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ....envs.core.engine import play_out
from ....envs.core.scorebook import (DOUBLE, FLY_OUT, GROUND_OUT, HOME_RUN, SINGLE, STRIKEOUT,
                                     TRIPLE, WALK, BoxScore)
from ....envs.thats_baseball import rules
from ....envs.thats_baseball.cards import lineup_team
from ....envs.thats_baseball.charts import CHARTS, SIDES, ways
from ....envs.thats_baseball.view import ThatsBaseballView
from .chart import OUTCOMES

__all__ = ["GRAPH", "N_DECISIONS", "PASS", "ROLL", "N_ACTIONS", "KIND_OF", "NODE_OF", "END",
           "decision_key"]

PASS, ROLL = rules.PASS, rules.ROLL
N_ACTIONS = len(rules.ACTIONS)
KIND_OF = {"S": "steal", "P": "pickoff", "E": "error_roll", "D": "double_play", "R": "dp_runner",
           "T": "tag_up"}
NODE_OF = {kind: code for code, kind in KIND_OF.items()}
END = -1                                   # target: the half inning is over

#: The engine's outcome standing for each of the solver's outcomes (a hit batsman plays
#: as a walk: tests/test_thats_baseball_charts.py checks it).
OUTCOME = {"walk": WALK, "strikeout": STRIKEOUT, "fly_out": FLY_OUT, "ground_out": GROUND_OUT,
           "single": SINGLE, "double": DOUBLE, "triple": TRIPLE, "home_run": HOME_RUN}
assert tuple(OUTCOME) == OUTCOMES

# -- running the engine from a node --------------------------------------------------------
#: Nine batters alike: the graph never rolls for a batter (it applies each outcome).
_TEAMS = (lineup_team("probe", (30,) * 9),) * 2


_WAYS = {n: ways(n) for n in {c.dice for c in CHARTS.values()}}


class _Unscripted(Exception):
    """The engine asked for a roll the probe was not given: ``purpose`` with ``dice`` dice."""

    def __init__(self, purpose: str, dice: int, sides: int):
        super().__init__(purpose, dice, sides)
        self.purpose, self.dice, self.sides = purpose, dice, sides


class _ProbeDice:
    """Dice handing out the given totals, then raising :class:`_Unscripted`."""

    def __init__(self, totals: tuple[int, ...] = ()):
        self.totals = list(totals)

    def set_stream(self, *key: int) -> None:
        pass

    def roll(self, purpose: str, dice: int = 1, sides: int = SIDES) -> int:
        if not self.totals:
            raise _Unscripted(purpose, dice, sides)
        return self.totals.pop(0)

    def clone(self) -> "_ProbeDice":
        return _ProbeDice(tuple(self.totals))


class _KeepNothingBox(BoxScore):
    """A box score that records nothing: the graph reads none of it, and copying a real
    one would be most of the cost of building the graph."""

    def __init__(self) -> None:
        super().__init__(["away", "home"], [[(b.name, "") for b in t.batters] for t in _TEAMS])

    def plate_appearance(self, *args: Any, **kwargs: Any) -> None:
        pass

    def runs_scored(self, *args: Any) -> None:
        pass

    def stolen_base(self, *args: Any) -> None:
        pass

    def caught_stealing(self, *args: Any) -> None:
        pass

    def error(self, *args: Any) -> None:
        pass

    def clone(self) -> "_KeepNothingBox":
        return self


def _stopped(state: Any, half: int) -> bool:
    """A node: a decision, the batter's roll, or the end of the half inning."""
    return state.board.half != half or state.pending is not None or state.step == "at_bat"


def _play_on(state: Any) -> None:
    half = state.board.half
    play_out(state, rules, None, stop=lambda s: _stopped(s, half))


def _key(state: Any, half: int) -> tuple | int:
    """The node ``state`` has stopped at (:data:`END` once the side is retired)."""
    b = state.board
    if b.half != half:
        return END
    bases = b.bases
    mask = sum(1 << i for i in range(3) if bases[i] is not None)
    d = state.pending
    if d is None:
        return ("AB", b.outs, mask)
    code = NODE_OF[d.kind]
    if code == "S":
        tried = sum(1 << i for i in range(3) if bases[i] is not None and bases[i] in state.tried_steal)
        return ("S", b.outs, mask, tried)
    if code == "T":
        return ("T", b.outs, mask, d.subject)
    return (code, b.outs, mask)


def _follow(state: Any, act, totals: tuple[int, ...]) -> tuple[Any, tuple | _Unscripted]:
    """Apply ``act`` to a copy of ``state`` with the dice ``totals`` and play on to the next
    node: ``(copy, (target, runs, next batter up))``, or ``(copy, _Unscripted)`` when the
    engine asks for another roll."""
    half = state.board.half
    s = state.clone()
    s.dice = _ProbeDice(totals)
    try:
        act(s)
        _play_on(s)
    except _Unscripted as roll:
        return s, roll
    return s, (_key(s, half), s.board.runs[half] - state.board.runs[half],
               int(s.order[half] != state.order[half]))


def _terms(state: Any, act, found: dict) -> list:
    """The chances of each next node after ``act``: one term, or one per result of the roll
    it asks for, in its chart's order. New nodes go into ``found`` (key: a state there)."""
    def record(s, step) -> tuple:
        if step[0] != END and step[0] not in found:
            found[step[0]] = s
        return step

    s, step = _follow(state, act, ())
    if not isinstance(step, _Unscripted):
        return [(1.0, record(s, step))]
    chart = CHARTS[step.purpose]
    if (step.dice, step.sides) != (chart.dice, SIDES):
        raise AssertionError(f"the engine rolls {step.dice}d{step.sides} for {step.purpose!r}, "
                             f"its chart says {chart.dice}d{SIDES}")
    terms = []
    for result, totals in chart.results:
        steps = {}
        for t in totals:
            s, step = _follow(state, act, (t,))
            if isinstance(step, _Unscripted):
                raise AssertionError(f"a choice rolls twice ({step.purpose!r} after "
                                     f"{chart.purpose!r}); the graph takes one roll a branch")
            steps.setdefault(step, s)
        if len(steps) != 1:
            raise AssertionError(f"the {chart.purpose!r} totals {totals} ({result!r}) lead to "
                                 f"different nodes: {list(steps)}")
        (step, s), = steps.items()
        chance = Fraction(sum(_WAYS[chart.dice][t] for t in totals), SIDES ** chart.dice)
        terms.append((float(chance), record(s, step)))
    return terms


def _choose(decision, action: int):
    def act(s):
        s.pending = None
        rules.CHOICES[decision.kind](s, decision, action)
    return act


def _program(state: Any, found: dict) -> tuple[str | None, list]:
    """(actor, branches) of the node ``state`` is at: actor "bat"/"field" for a decision
    (one branch per legal action, ``(action, terms)``), None for the batter's roll (one
    branch); a term is ``(prob, (target, runs, next batter up))`` with prob a float or, at
    the roll, an outcome name (the batter's chance of it)."""
    d = state.pending
    if d is None:
        terms = []
        for name in OUTCOMES:
            (_, step), = _terms(state, lambda s, o=OUTCOME[name]: rules.batter_result(s, o), found)
            terms.append((name, step))
        return None, [(None, terms)]
    actor = "bat" if d.actor == state.board.batting else "field"
    return actor, [(a, _terms(state, _choose(d, a), found)) for a in d.legal]


def _start_state(outs: int, bases: int) -> Any:
    """The engine at the first node of a half inning's plate appearance: ``outs``, runners
    on the bases of the 3-bit ``bases``."""
    state = rules.start_half_inning(_TEAMS, _ProbeDice(), inning=1, half=0, outs=outs,
                                    runners=rules.runners_before(0, bases), leadoff=0,
                                    box=_KeepNothingBox())
    _play_on(state)
    return state


class _Graph:
    """Every node of a plate appearance, its program, and a run-free topological order."""

    def __init__(self) -> None:
        starts = [[_start_state(o, b) for b in range(8)] for o in range(3)]
        self.start_keys = [[_key(s, 0) for s in row] for row in starts]
        found = {k: s for row, keys in zip(starts, self.start_keys) for s, k in zip(row, keys)}
        programs: dict[tuple, tuple] = {}
        todo = [k for row in self.start_keys for k in row]
        while todo:
            key = todo.pop()
            if key in programs:
                continue
            programs[key] = _program(found[key], found)
            for _, terms in programs[key][1]:
                todo.extend(target for _, (target, _, _) in terms if target != END)
        self.keys = sorted(programs, key=lambda k: (k[0], k[1:]))
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.order = self._topological_order(programs)
        self.actor: list[str | None] = []
        self.branches: list[list] = []
        for key in self.keys:
            actor, branches = programs[key]
            self.actor.append(actor)
            self.branches.append([(a, [(p, self.index[t] if t != END else END, r, s)
                                       for p, (t, r, s) in terms]) for a, terms in branches])
        self.decisions = [i for i, a in enumerate(self.actor) if a is not None]
        self.decision_index = {self.keys[n]: j for j, n in enumerate(self.decisions)}
        self.decision_index_by_node = {n: j for j, n in enumerate(self.decisions)}
        self.legal = [tuple(a for a, _ in self.branches[n]) for n in self.decisions]
        self.start = np.array([[self.index[k] for k in row] for row in self.start_keys])

    @staticmethod
    def _topological_order(programs: dict) -> list[int]:
        """Nodes so that every run-free successor comes first; a cycle would be a bug."""
        keys = sorted(programs, key=lambda k: (k[0], k[1:]))
        index = {k: i for i, k in enumerate(keys)}
        deps = {index[k]: {index[t] for _, terms in programs[k][1] for _, (t, r, _) in terms
                           if t != END and r == 0} for k in keys}
        order, state = [], {}

        def visit(n: int) -> None:
            stack = [(n, iter(sorted(deps[n])))]
            state[n] = 1
            while stack:
                node, it = stack[-1]
                for m in it:
                    if state.get(m) == 1:
                        raise AssertionError(f"run-free cycle through {keys[m]}")
                    if m not in state:
                        state[m] = 1
                        stack.append((m, iter(sorted(deps[m]))))
                        break
                else:
                    state[node] = 2
                    order.append(node)
                    stack.pop()

        for n in range(len(keys)):
            if n not in state:
                visit(n)
        return order


GRAPH = _Graph()
N_DECISIONS = len(GRAPH.decisions)


def decision_key(view: ThatsBaseballView) -> tuple:
    """The graph key of the decision node a view is at."""
    b = sum(1 << i for i in range(3) if view.bases[i])
    code = NODE_OF[view.decision]
    if code == "S":
        return ("S", view.outs, b, sum(1 << i for i in range(3) if view.tried_steal[i] and view.bases[i]))
    if code == "T":
        return ("T", view.outs, b, view.subject)
    return (code, view.outs, b)
