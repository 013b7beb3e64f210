"""One pitch after the stare-down, as a graph built by the engine's own rules.

Once the pitch ``p`` and the guess ``g`` are revealed, the rest of the pitch is a small
game of its own: the Pitch and Control dice, the pitcher's abilities one at a time (he
minimises), the Swing die, the batter's abilities (he maximises), then the swing table.
Which grants each side holds follows from the two cards and ``(p, g)`` alone, so for one
batter card and one pitcher card the whole pitch is one graph with sixteen roots, the same
for every count, base state and fatigue. What does depend on the situation is what each
result of the pitch is worth; the graph's leaves are those results:

======  ===================================================================
class   the swing table's result
======  ===================================================================
BALL    a Ball (no hit batsman)
HBP     a Ball that hits the batter (a ``hit_by_pitch`` trait)
STRIKE  a Strike
FOUL    a Foul
RUN     Contact: the Run! phase
CRUSH   Contact against a Strike with a natural crushing Swing: Crushed
======  ===================================================================

so the graph is evaluated for many situations at once from their leaf values
``W[situation, p, class]`` (the thrown pitch also sets the fatigue that follows).

The graph is generated, not transcribed: :class:`_Probe` carries the few fields of a
:class:`~dugout.envs.bottom_ninth.rules.GameState` the ability rules read, and the engine's
own ``award_tokens``, ``grant_abilities``, ``usable_abilities``, ``use_ability``,
``hit_by_pitch``, ``crushed`` and ``swing_result`` say which grants are won, which
abilities are legal, which grant pays, what a reroll can roll and what the dice mean.
A decision with no usable ability is no node (the engine moves on without asking).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ....envs.bottom_ninth import rules

__all__ = ["PitchGraph", "CLASSES", "BALL", "HBP", "STRIKE", "FOUL", "RUN", "CRUSH",
           "pitcher_key", "batter_key", "probe_for_view"]

CLASSES = ("ball", "hit by pitch", "strike", "foul", "run phase", "crushed")
BALL, HBP, STRIKE, FOUL, RUN, CRUSH = range(6)
LEAF, CHANCE, MIN, MAX = range(4)


class _Fixed:
    """Dice that roll one given number: a reroll's outcomes, enumerated."""

    def __init__(self, value: int):
        self.value = value

    def roll(self, purpose: str, dice: int = 1, sides: int = 6) -> int:
        return self.value


class _Probe:
    """The fields of a game state that the reveal, the abilities and the swing table read."""
    use_support = False

    def __init__(self, cards, pitcher: int, batter: int, faces: tuple[str, ...]):
        self.cards, self.pitcher, self.batter_card, self.faces = cards, pitcher, batter, faces
        self.grants: list[list] = [[], []]
        self.face = self.face_natural = ""
        self.control = self.control_natural = self.swing = self.swing_natural = 0
        self.thrown = self.guess = -1
        self.tokens = [-1, -1]
        self.dice: Any = None

    def copy(self) -> "_Probe":
        p = object.__new__(_Probe)
        p.__dict__.update(self.__dict__)
        p.grants = [list(self.grants[0]), list(self.grants[1])]
        return p


def pitcher_key(p: int, face: str, face_natural: str, control: int, control_natural: int,
                grants: tuple) -> tuple:
    """A pitcher's ability decision: the thrown pitch, the Pitch and Control dice as shown
    and as rolled, and both sides' grants left."""
    return ("P", p, face, face_natural, control, control_natural, tuple(grants[0]), tuple(grants[1]))


def batter_key(p: int, face: str, control: int, hbp: bool, swing: int, swing_natural: int,
               grants: tuple) -> tuple:
    """A batter's ability decision: what the swing table will read (the Pitch face, the
    Control die, whether a Ball would hit him), the Swing die shown and rolled, his grants."""
    return ("B", p, face, control, bool(hbp), swing, swing_natural, tuple(grants))


def probe_for_view(view, cards) -> _Probe:
    """A probe holding a view's dice, for the engine's natural-roll checks."""
    pr = _Probe(cards, view.pitcher_card, view.batter_card, ())
    pr.face, pr.face_natural = view.face, view.face_natural
    pr.control, pr.control_natural = view.control, view.control_natural
    pr.swing, pr.swing_natural = view.swing, view.swing_natural
    return pr


@dataclass
class _Level:
    kind: int
    nodes: np.ndarray                 # node ids
    children: np.ndarray              # (nodes, width) node ids, padded with the first child
    weights: np.ndarray | None = None  # chance nodes: (nodes, width), 0 on padding


@dataclass
class PitchGraph:
    """The pitch after the stare-down for one batter card and one pitcher card.

    ``roots[p, g]`` is the node of the reveal of pitch ``p`` against guess ``g``;
    ``decisions`` maps a decision key (:func:`pitcher_key`, :func:`batter_key`) to its node,
    and ``actions[node]`` names the action each child of a decision node stands for
    (``rules.DONE`` or an ability action)."""
    batter: int
    pitcher: int
    kinds: list[int] = field(default_factory=list)
    children: list[tuple[int, ...]] = field(default_factory=list)
    weights: list[tuple[float, ...]] = field(default_factory=list)
    leaf_of: list[int] = field(default_factory=list)     # leaf: p * 6 + class
    actions: dict[int, tuple[int, ...]] = field(default_factory=dict)
    decisions: dict[tuple, int] = field(default_factory=dict)
    roots: np.ndarray = field(default_factory=lambda: np.zeros((4, 4), dtype=np.int64))
    levels: list[_Level] = field(default_factory=list)
    leaves: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    choice_nodes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    choice_position: dict[int, int] = field(default_factory=dict)   # node -> its place there

    @property
    def size(self) -> int:
        return len(self.kinds)

    def seat_of(self, node: int) -> int:
        """0 for a pitcher's decision node, 1 for a batter's."""
        return 0 if self.kinds[node] == MIN else 1

    # -- evaluation ------------------------------------------------------------------------
    def evaluate(self, w: np.ndarray, follow: dict[int, np.ndarray] | None = None,
                 record: bool = False):
        """Node values for leaf values ``w`` (situations x 4 pitches x 6 classes): an array
        (nodes x situations). Decision nodes take the best child for their side (the first
        of equals) unless ``follow[level index]`` gives the child to take (nodes x
        situations). With ``record``, also returns each decision level's chosen child
        index, ``{level index: (nodes x situations)}``."""
        n = w.shape[0]
        v = np.empty((self.size, n))
        v[self.leaves] = w.reshape(n, 24)[:, [self.leaf_of[i] for i in self.leaves]].T
        chosen = {}
        for li, lv in enumerate(self.levels):
            kids = v[lv.children]                      # (nodes, width, n)
            if lv.kind == CHANCE:
                v[lv.nodes] = np.einsum("kw,kwn->kn", lv.weights, kids)
                continue
            if follow is not None and li in follow:
                pick = follow[li]
            elif record:
                pick = kids.argmin(axis=1) if lv.kind == MIN else kids.argmax(axis=1)
            else:
                v[lv.nodes] = kids.min(axis=1) if lv.kind == MIN else kids.max(axis=1)
                continue
            if record:
                chosen[li] = pick
            v[lv.nodes] = np.take_along_axis(kids, pick[:, None, :], axis=1)[:, 0, :]
        return (v, chosen) if record else v

    def level_of(self) -> dict[int, tuple[int, int]]:
        """node -> (level index, row in the level), for decision nodes."""
        out = {}
        for li, lv in enumerate(self.levels):
            if lv.kind in (MIN, MAX):
                for row, node in enumerate(lv.nodes):
                    out[int(node)] = (li, row)
        return out


def build(cards, batter: int, pitcher: int, faces: tuple[str, ...]) -> PitchGraph:
    """The pitch graph of ``batter`` against ``pitcher`` with the Pitch die ``faces``."""
    g = PitchGraph(batter, pitcher)
    memo: dict[tuple, int] = {}

    def add(kind: int, children=(), weights=(), leaf=-1) -> int:
        g.kinds.append(kind)
        g.children.append(tuple(children))
        g.weights.append(tuple(weights))
        g.leaf_of.append(leaf)
        return len(g.kinds) - 1

    def leaf(p: int, cls: int) -> int:
        key = ("L", p, cls)
        if key not in memo:
            memo[key] = add(LEAF, leaf=p * 6 + cls)
        return memo[key]

    def result(pr: _Probe, p: int, hbp: bool) -> int:
        r = rules.swing_result(pr.face, pr.swing, pr.control)
        if r == "ball":
            return leaf(p, HBP if hbp else BALL)
        if r == "strike":
            return leaf(p, STRIKE)
        if r == "foul":
            return leaf(p, FOUL)
        return leaf(p, CRUSH if rules.crushed(pr) else RUN)

    def rerolls(pr: _Probe, seat: int, action: int, then) -> tuple[list[int], list[float]]:
        kind, die, _ = rules.ABILITY_EFFECT[action]
        values = [None]
        if kind == "reroll":
            values = list(range(1, (len(pr.faces) if die == "pitch" else 6) + 1))
        kids = []
        for value in values:
            c = pr.copy()
            c.dice = _Fixed(value)
            rules.use_ability(c, seat, action)
            kids.append(then(c))
        return kids, [1.0 / len(values)] * len(values)

    def decision(kind: int, key: tuple, legal: tuple, done: int, pr: _Probe, seat: int, then) -> int:
        kids, acts = [done], [rules.DONE]
        for a in legal:
            sub, w = rerolls(pr, seat, a, then)
            kids.append(sub[0] if len(sub) == 1 else add(CHANCE, sub, w))
            acts.append(a)
        node = add(kind, kids)
        g.actions[node] = tuple(acts)
        g.decisions[key] = node
        return node

    def batter_node(pr: _Probe, p: int, hbp: bool) -> int:
        key = batter_key(p, pr.face, pr.control, hbp, pr.swing, pr.swing_natural, pr.grants[1])
        if key in memo:
            return memo[key]
        legal = rules.usable_abilities(pr, 1)
        done = result(pr, p, hbp)
        memo[key] = node = done if not legal else decision(
            MAX, key, legal, done, pr, 1, lambda c: batter_node(c, p, hbp))
        return node

    def swing_node(pr: _Probe, p: int) -> int:
        hbp = rules.hit_by_pitch(pr)
        key = ("S", p, pr.face, pr.control, hbp, tuple(pr.grants[1]))
        if key in memo:
            return memo[key]
        kids = []
        for s in range(1, 7):
            c = pr.copy()
            c.swing = c.swing_natural = s
            kids.append(batter_node(c, p, hbp))
        memo[key] = node = add(CHANCE, kids, [1 / 6] * 6)
        return node

    def pitcher_node(pr: _Probe, p: int) -> int:
        key = pitcher_key(p, pr.face, pr.face_natural, pr.control, pr.control_natural, pr.grants)
        if key in memo:
            return memo[key]
        legal = rules.usable_abilities(pr, 0)
        done = swing_node(pr, p)
        memo[key] = node = done if not legal else decision(
            MIN, key, legal, done, pr, 0, lambda c: pitcher_node(c, p))
        return node

    n_faces = len(faces)
    for p in range(4):
        for guess in range(4):
            pr = _Probe(cards, pitcher, batter, faces)
            pr.thrown, pr.guess = p, guess
            rules.award_tokens(pr)
            rules.grant_abilities(pr)
            kids, w = [], []
            for r in range(n_faces):
                for control in range(1, 7):
                    c = pr.copy()
                    c.face = c.face_natural = faces[r]
                    c.control = c.control_natural = control
                    kids.append(pitcher_node(c, p))
                    w.append(1.0 / (6 * n_faces))
            g.roots[p, guess] = add(CHANCE, kids, w)
    _compile(g)
    return g


def _compile(g: PitchGraph) -> None:
    """Order the nodes into levels (a node after all its children), each level one kind."""
    height = [0] * g.size
    for node in range(g.size):            # children are always created before their parent
        if g.kinds[node] != LEAF:
            height[node] = 1 + max(height[c] for c in g.children[node])
    g.leaves = np.array([i for i in range(g.size) if g.kinds[i] == LEAF], dtype=np.int64)
    levels = []
    for h in range(1, max(height) + 1):
        for kind in (CHANCE, MIN, MAX):
            nodes = [i for i in range(g.size) if height[i] == h and g.kinds[i] == kind]
            if not nodes:
                continue
            width = max(len(g.children[i]) for i in nodes)
            kids = np.array([list(g.children[i]) + [g.children[i][0]] * (width - len(g.children[i]))
                             for i in nodes], dtype=np.int64)
            weights = None
            if kind == CHANCE:
                weights = np.array([list(g.weights[i]) + [0.0] * (width - len(g.weights[i]))
                                    for i in nodes])
            levels.append(_Level(kind, np.array(nodes, dtype=np.int64), kids, weights))
    g.levels = levels
    kids = sorted({c for node in g.actions for c in g.children[node]})
    g.choice_nodes = np.array(kids, dtype=np.int64)
    g.choice_position = {c: k for k, c in enumerate(kids)}
