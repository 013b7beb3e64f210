"""The plate appearance as a graph: every node the engine can stop at, and its branches.

Inside a plate appearance the engine (``dugout.envs.thats_baseball.rules``) walks
through the nodes ``S`` (steal), ``P`` (pickoff), ``AB`` (the batter's roll), ``E``
(error roll), ``D`` (double-play roll), ``R`` (which runner is doubled up) and ``T``
(tag-up), each with its outs and its runners (a 3-bit mask); see the package's
docstring. :data:`GRAPH` holds every node reachable from the start of a plate
appearance, its program (who decides, and for each choice the chances of each next
node with the runs scored and whether the next batter comes up), and a run-free
topological order, checked acyclic when it is built.
"""

from __future__ import annotations

import numpy as np

from ....envs.core.bases import advance_all, advance_runner, force_advance, push_runner, remove_runner
from ....envs.thats_baseball import rules
from ....envs.thats_baseball.view import ThatsBaseballView
from .chart import OUTCOMES

__all__ = ["GRAPH", "N_DECISIONS", "PASS", "ROLL", "N_ACTIONS", "KIND_OF", "NODE_OF", "END",
           "steal_candidates", "decision_key"]

PASS, ROLL = rules.PASS, rules.ROLL
N_ACTIONS = len(rules.ACTIONS)
KIND_OF = {"S": "steal", "P": "pickoff", "E": "error_roll", "D": "double_play", "R": "dp_runner",
           "T": "tag_up"}
NODE_OF = {kind: code for code, kind in KIND_OF.items()}
END = -1                                   # target: the half inning is over


def _tuple(b: int) -> tuple:
    return tuple(i if b >> i & 1 else None for i in range(3))


def _mask(bases: tuple) -> int:
    return sum(1 << i for i in range(3) if bases[i] is not None)


def steal_candidates(b: int, f: int) -> tuple[int, ...]:
    """1i: bases whose runner may still steal: not tried yet, next base empty (home always is)."""
    return tuple(i for i in range(3)
                 if b >> i & 1 and not f >> i & 1 and (i == 2 or not b >> (i + 1) & 1))


def _steal(o: int, b: int, f: int, r: int = 0, shift: int = 0) -> tuple:
    if steal_candidates(b, f):
        return (("S", o, b, f), r, shift)
    return _pickoff(o, b, r, shift)


def _pickoff(o: int, b: int, r: int = 0, shift: int = 0) -> tuple:
    return (("P", o, b), r, shift) if b else (("AB", o, b), r, shift)


def _end_pa(o: int, b: int, r: int = 0) -> tuple:
    """The plate appearance is over: the next batter comes up, or the side is retired."""
    return (END, r, 1) if o == 3 else _steal(o, b, 0, r, 1)


def _after_ground_out(o2: int, b: int) -> tuple:
    """1k: a double-play roll with a runner on first and fewer than three outs."""
    if o2 < 3 and b & 1:
        return (("D", o2, b), 0, 0)
    return _end_pa(o2, b)


def _tag(o2: int, b: int, s: int, r: int = 0) -> tuple:
    """1l: the next runner (third, second, first) with the base ahead empty, or the end."""
    for base in range(s, -1, -1):
        if b >> base & 1 and (base == 2 or not b >> (base + 1) & 1):
            return (("T", o2, b, base), r, 0)
    return _end_pa(o2, b, r)


def _turn_double_play(o2: int, b: int, base: int) -> tuple:
    rest, scored = advance_all(remove_runner(_tuple(b), base), 1)
    if o2 + 1 == 3:
        return (END, 0, 1)                          # no run scores on the third out
    return _end_pa(o2 + 1, _mask(rest), len(scored))


def _program(key: tuple) -> tuple[str | None, list]:
    """(actor, branches): actor "bat"/"field" for a decision (one branch per legal action,
    ``(action, terms)``), None for the dice (one branch); a term is ``(prob, target)`` with
    prob a float or an outcome name (the batter's chance of it)."""
    code, o, b = key[0], key[1], key[2]
    t = _tuple(b)
    if code == "S":
        f = key[3]
        branches = [(PASS, [(1.0, _pickoff(o, b))])]
        for base in steal_candidates(b, f):
            bit = 1 << base
            caught = (END, 0, 0) if o + 1 == 3 else _steal(o + 1, b & ~bit, f & ~bit)
            if base < 2:
                safe = _steal(o, b & ~bit | bit << 1, f & ~bit | bit << 1)
            else:
                safe = _steal(o, b & ~bit, f & ~bit, r=1)
            branches.append((base + 1, [(0.5, caught), (0.5, safe)]))
        return "bat", branches
    if code == "P":
        branches = [(PASS, [(1.0, (("AB", o, b), 0, 0))])]
        for base in range(3):
            if b >> base & 1:
                out = (END, 0, 0) if o + 1 == 3 else (("AB", o + 1, b & ~(1 << base)), 0, 0)
                moved, scored = push_runner(remove_runner(t, base), base + 1, base)
                error = (("AB", o, _mask(moved)), len(scored), 0)
                branches.append((base + 1, [(1 / 36, out), (1 / 36, error),
                                            (34 / 36, (("AB", o, b), 0, 0))]))
        return "field", branches
    if code == "AB":
        terms = []
        for name in OUTCOMES:
            if name == "walk":
                new, scored = force_advance(t, 9)
                target = _end_pa(o, _mask(new), len(scored))
            elif name == "strikeout":
                target = _end_pa(o + 1, b)
            elif name == "fly_out":
                target = _tag(o + 1, b, 2) if o + 1 < 3 and b else _end_pa(o + 1, b)
            elif name == "ground_out":
                target = (("E", o, b), 0, 0)
            else:
                n = ("single", "double", "triple", "home_run").index(name) + 1
                new, scored = advance_all(t, n, 9)
                target = _end_pa(o, _mask(new), len(scored))
            terms.append((name, target))
        return None, [(None, terms)]
    if code == "E":
        on_error, scored = advance_all(t, 1, 9)
        return "bat", [(PASS, [(1.0, _after_ground_out(o + 1, b))]),
                       (ROLL, [(1 / 36, _end_pa(o, _mask(on_error), len(scored))),
                               (35 / 36, _after_ground_out(o + 1, b))])]
    if code == "D":
        missed, scored = push_runner(remove_runner(t, 0), 1, 0)
        turned = (("R", o, b), 0, 0) if bin(b).count("1") > 1 else _turn_double_play(o, b, 0)
        return "field", [(PASS, [(1.0, _end_pa(o, b))]),
                         (ROLL, [(0.5, _end_pa(o, _mask(missed), len(scored))), (0.5, turned)])]
    if code == "R":
        return "field", [(base + 1, [(1.0, _turn_double_play(o, b, base))])
                         for base in range(3) if b >> base & 1]
    if code == "T":
        s = key[3]
        moved, scored = advance_runner(t, s, 1)
        hold = _tag(o, b, s - 1)
        return "bat", [(PASS, [(1.0, hold)]),
                       (ROLL, [(4 / 6, hold), (2 / 6, _tag(o, _mask(moved), s - 1, len(scored)))])]
    raise AssertionError(key)


class _Graph:
    """Every node of a plate appearance, its program, and a run-free topological order."""

    def __init__(self) -> None:
        self.start_keys = [[_steal(o, b, 0)[0] for b in range(8)] for o in range(3)]
        programs: dict[tuple, tuple] = {}
        todo = [k for row in self.start_keys for k in row]
        while todo:
            key = todo.pop()
            if key in programs:
                continue
            programs[key] = _program(key)
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
