"""The search manager: rollouts of each legal option in games rebuilt from its own view.

    from dugout.agents import make_agent
    agent = make_agent("showdown_v0", "search")                 # the default budget
    agent = make_agent("showdown_v0", "search:sims=64,rollout=heuristic")

**What it does at a decision** (Bertsekas' rollout; Tesauro and Galperin's rollout
improvement of a backgammon player, with the races of Maron and Moore's Hoeffding races):

1. *Determinize.* It draws a *world*: a full game consistent with its view, built by the
   ruleset's ``sample_state(view, rng, setup)`` (``envs/<ruleset>/sample.py``), with the
   opponent's hidden cards, the deck order, the opponent's committed secret choice and all
   future dice drawn afresh from the search's own random numbers. It never reads the live
   game: it is given the view (what its seat may know) and the game's public set-up
   (:meth:`SearchAgent.observe_setup`), nothing else.
2. *Roll out.* In each world it plays every option still in the race to the end of the game
   (or ``horizon`` half innings on, scored by the ruleset's win-expectancy table), both
   sides played by the ``rollout`` manager (the heuristic by default). All options meet the
   same world, the same hidden cards and the same dice (common random numbers): the dice
   are keyed by the situation, so two options that leave the game in the same place meet
   the same rolls, and the difference between two options is measured with far less noise
   than their values.
3. *Race.* Worlds come in rounds of ``batch``; after each round an option whose paired
   difference to the leader is below ``-z`` standard errors leaves the race, until one
   option is left or ``sims`` worlds have been played.
4. *Choose.* It plays the rollout manager's own choice unless another option beats it by
   more than ``z`` standard errors of the paired difference; then the best option. A
   search that finds nothing keeps the rollout manager's play (it can only improve on it
   where the evidence says so), which is why it never needs a large budget to do no harm.

A decision with one legal action costs nothing (no world is drawn).
``SearchAgent.evaluate(view, race=False)`` evaluates every option with the full budget (no
race), for the analysis (:mod:`dugout.evaluate.analysis`).

**Simultaneous decisions** (a ruleset's ``SearchSpec.simultaneous``). A decision that is one
side of a simultaneous choice the engine asks in turn (Bottom of the 9th's stare-down: the
pitcher commits a pitch in secret, then the batter guesses, seeing nothing of it) is a matrix
game, and a pure answer to it is exploitable: the best reply to a pure pitch reads it. There
the search estimates the payoff matrix, its own options by the other side's choices (the
ruleset's :class:`Simultaneous` enumerates them from the view and plays a pair of choices in a
world), every cell in the same worlds (common random numbers, the rollout manager reseeded
alike in every cell of a world), and draws its action from the **equilibrium mix** of that
estimated zero-sum game (:func:`dugout.agents.matrix_game.solve_games`) with its own
generator. No race and no fallback to the rollout manager's choice there: the mix is the
answer. :meth:`SearchAgent.action_probabilities` (a search of such a ruleset only) gives the
mix to an exact evaluator. With ``simultaneous=rollout`` the search spends nothing there and
plays the rollout manager's own mix (the heuristic's equilibrium of its priced game): a
matrix game estimated from a few worlds a cell is noisy enough to be read, and it costs a
rollout per cell.

**Options** (``search:key=value,...``, checked by :func:`parse_options`; each has a default):

* ``sims``: at most this many worlds per decision (a positive int);
* ``batch``: worlds per round of the race (positive, at most ``sims``; when only ``sims``
  is given, the default or ``sims`` if smaller);
* ``rollout``: the manager that plays both sides in the rollouts (a registered name that
  decides from the view, e.g. ``heuristic``, ``random``, ``never-steal``, or ``ppo:PATH``, a
  trained manager's checkpoint for the env, which then decides from the view encoded as its
  observation: :class:`dugout.agents.policy.ViewPolicy`; ``dugout train exit`` trains such
  rollout managers);
* ``horizon``: 0 to play each rollout to the end of the game, or a number of half innings
  after which it is scored by the ruleset's win expectancy
  (:attr:`dugout.agents.base.Managers.win_expectancy`) from the state reached;
* ``z``: the margin, in standard errors of a paired difference, for leaving the race and
  for overriding the rollout manager;
* ``simultaneous``: at a simultaneous decision, ``matrix`` to play the estimated matrix
  game's equilibrium mix, or ``rollout`` to play the rollout manager's choice unsearched.
* ``kinds``: the decision kinds to search, joined by ``+`` (``play_card+pitching_change``;
  names from the ruleset's :attr:`SearchSpec.kinds`), or ``all``; a decision of any other
  kind is played as the rollout manager plays it, with no world drawn. A kind the game's
  options never ask (the card plays of a Showdown game without decks) is refused when the
  search is told the set-up.

**Seeding.** ``reset(seed)`` seeds the search's own generator; each decision draws its worlds
from it. The same seed, view and set-up give the same decision, whatever the live game hides
(the twin tests, ``tests/test_search.py``). ``seed`` holds the seed of the last ``reset``
(or of the making).
"""

from __future__ import annotations

import importlib
import math
import random
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Mapping

import numpy as np

from .base import ViewAgent
from .matrix_game import solve_games

__all__ = ["SearchAgent", "SearchSettings", "SearchSpec", "Simultaneous", "UnsampledView", "Estimate", "Evaluation",
           "parse_options", "DEFAULTS", "SIMULTANEOUS"]


#: How a search plays a simultaneous decision: the estimated matrix game's equilibrium mix, or
#: the rollout manager's own choice, unsearched.
SIMULTANEOUS = ("matrix", "rollout")

#: ``kinds``' value for searching every decision kind.
ALL = "all"


@dataclass(frozen=True)
class SearchSettings:
    """The search's budget and settings (see the module docstring)."""
    sims: int = 16
    batch: int = 8
    rollout: str = "heuristic"
    horizon: int = 2
    z: float = 2.0
    simultaneous: str = "matrix"
    kinds: str = ALL

    @property
    def searched(self) -> frozenset[str] | None:
        """The decision kinds ``kinds`` names, or None for every kind (``all``)."""
        return None if self.kinds == ALL else frozenset(self.kinds.split("+"))

    def __post_init__(self):
        for name in ("sims", "batch"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"search: {name} must be a positive integer, got {value!r}")
        if self.batch > self.sims:
            raise ValueError(f"search: batch ({self.batch}) must be at most sims ({self.sims})")
        if not isinstance(self.horizon, int) or isinstance(self.horizon, bool) or self.horizon < 0:
            raise ValueError(f"search: horizon must be 0 (whole game) or a number of half innings, "
                             f"got {self.horizon!r}")
        if not isinstance(self.z, (int, float)) or not math.isfinite(self.z) or self.z < 0:
            raise ValueError(f"search: z must be a finite number >= 0, got {self.z!r}")
        if self.simultaneous not in SIMULTANEOUS:
            raise ValueError(f"search: simultaneous must be one of {', '.join(SIMULTANEOUS)}, got "
                             f"{self.simultaneous!r}")
        if not isinstance(self.rollout, str) or not self.rollout or self.rollout.startswith("search"):
            raise ValueError(f"search: rollout must name another registered manager, got "
                             f"{self.rollout!r}")
        names = self.kinds.split("+") if isinstance(self.kinds, str) else None
        if names is None or not all(names) or len(set(names)) != len(names) or (
                ALL in names and self.kinds != ALL):
            raise ValueError(f"search: kinds must be {ALL} or decision kinds joined by '+' (each "
                             f"once, e.g. play_card+pitching_change), got {self.kinds!r}")


class UnsampledView(ValueError):
    """A view the ruleset's ``sample_state`` could not rebuild a game from. The search then
    plays the rollout manager's choice and counts it (``SearchAgent.unsampled``)."""


@dataclass(frozen=True)
class Simultaneous:
    """One side of a simultaneous choice that the engine asks as two decisions in turn, the
    second mover seeing nothing of the first (a ruleset's ``SearchSpec.simultaneous``, by
    decision kind):

    * ``others(view)``: the other side's choices, as its actions (what the first mover may
      have committed, or what the second mover may answer), the same in every world of
      ``view``;
    * ``play(state, own, other)``: play this manager's action ``own`` and the other side's
      ``other`` in ``state`` (a world at this decision), leaving the rules to run on to the
      next decision; a choice the world does not allow is a ``ValueError``.
    """
    others: Callable[[Any], tuple[int, ...]]
    play: Callable[[Any, int, int], None]


@dataclass(frozen=True)
class SearchSpec:
    """What the search needs of one ruleset (its agents module's ``MANAGERS.search``):

    * ``sample``: the module path of its determinization (``sample_state(view, rng, setup)``
      and ``public_setup(env)``; where the options decide which decisions come up, also
      ``kinds_never_asked(setup)``: the kinds no game of that set-up asks, each with the
      rule or option that says so, so that a ``kinds`` setting naming one is refused when
      the search is told the set-up instead of leaving those decisions to the rollout
      manager in silence);
    * ``rules``: the module path of its engine (``apply_action(state, action)``; a state's
      ``pending`` is None once the game is over);
    * ``view(state, seat, root)``: the view of a rollout's state for ``seat`` that the
      rollout manager decides from (``root`` is the searching manager's own view, for what a
      view copies from the env: a Pokemon series' games left, the roster statistics);
    * ``settings``: the ruleset's default settings (:class:`SearchSettings`);
    * ``truncates``: whether the ruleset's ``win_expectancy(view)`` is a game's chance of
      winning at any situation, so a rollout may stop at a horizon (the Manager Challenge
      has none: its rollouts play to the end, ``horizon`` 0);
    * ``budget(setup)``: the settings the ruleset's default takes for a game of this public
      set-up (a dict, e.g. a smaller ``sims`` for a game whose rollouts are long), or None:
      a search applies them when it is told the set-up, to every setting its reference did
      not give;
    * ``simultaneous``: the decision kinds that are one side of a simultaneous choice, each
      with its :class:`Simultaneous` (a mapping; None for none): the search plays the
      estimated matrix game's equilibrium mix there (see the module docstring);
    * ``kinds``: the ruleset's decision kinds, the names the ``kinds`` setting may give.
    """
    sample: str
    rules: str
    view: Any
    settings: SearchSettings = SearchSettings()
    truncates: bool = True
    budget: Any = None
    simultaneous: Mapping[str, Simultaneous] | None = None
    kinds: tuple[str, ...] = ()


#: The settings a ``search`` reference may set, with their types.
_TYPES = {f.name: f.type for f in fields(SearchSettings)}
_PARSE = {"int": int, "float": float, "str": str}

#: The default settings (a ruleset's ``SearchSpec.settings`` may change them).
DEFAULTS = SearchSettings()


def parse_options(options: Mapping[str, str] | tuple, base: SearchSettings = DEFAULTS) -> SearchSettings:
    """The settings of a ``search:key=value,...`` reference: ``options`` (key to text) over
    ``base``; a ``ValueError`` names an unknown key or a value of the wrong type or range.
    A ``sims`` given without ``batch`` takes rounds of at most ``sims`` worlds."""
    values: dict[str, Any] = {}
    for key, text in dict(options).items():
        if key not in _TYPES:
            raise ValueError(f"search: unknown option {key!r}; options: {', '.join(_TYPES)}")
        kind = _PARSE[_TYPES[key]]
        try:
            values[key] = kind(text)
        except ValueError:
            raise ValueError(f"search: {key} must be {'an integer' if kind is int else 'a number'}, "
                             f"got {text!r}") from None
    if "batch" not in values and "sims" in values:
        values["batch"] = min(base.batch, values["sims"])     # a round is never more than the budget
    return replace(base, **values)


@dataclass(frozen=True)
class Estimate:
    """One option's value: ``mean`` (the searching manager's estimated chance of winning
    after it, a tie counting 1/2), its standard error ``se`` and the ``worlds`` it met."""
    action: int
    mean: float
    se: float
    worlds: int


@dataclass(frozen=True)
class Evaluation:
    """A decision searched: each option's :class:`Estimate` (by action), the rollout
    manager's own choice (``base``) and the search's (``choice``).

    At a simultaneous decision also the estimated game: ``others`` (the other side's
    choices), ``matrix`` (the mean value of each own option, by row in ``legal`` order,
    against each of ``others``, by column), ``mix`` (the equilibrium mix the choice was
    drawn from, by action) and ``value`` (the estimated game's value); an option's estimate
    is then its value against the other side's equilibrium mix, world by world."""
    estimates: dict[int, Estimate]
    base: int
    choice: int
    worlds: int = 0
    rollouts: int = 0
    values: dict[int, list[float]] = field(default_factory=dict, repr=False)
    others: tuple[int, ...] = ()
    matrix: np.ndarray | None = field(default=None, repr=False)
    mix: dict[int, float] = field(default_factory=dict)
    value: float = float("nan")

    def best(self) -> Estimate:
        """The option with the highest estimate."""
        return max(self.estimates.values(), key=lambda e: (e.mean, -e.action))


class SearchAgent(ViewAgent):
    """The search manager of one env id (see the module docstring). Made by the registry
    (``make_agent(env_id, "search:sims=64")``, which builds the rollout manager and reads
    the ruleset's :class:`SearchSpec` and win expectancy) or directly: ``SearchAgent(spec,
    rollout, settings, seed, env_id=..., win_expectancy=...)``."""

    name = "search"
    needs_view = True

    def __init__(self, spec: SearchSpec, rollout: Any, settings: SearchSettings | None = None,
                 seed: int | None = None, given: frozenset[str] | None = None, *, env_id: str = "",
                 win_expectancy: Any = None):
        self.env_id = env_id
        self.spec = spec
        self.settings = settings if settings is not None else spec.settings
        #: the settings a reference gave (the rest follow the ruleset's budget for the game)
        self.given = frozenset(given) if given is not None else (
            frozenset(_TYPES) if settings is not None else frozenset())
        self._settings = self.settings
        if self.settings.horizon and not spec.truncates:
            raise ValueError(f"search: {env_id or 'this env'} has no win-expectancy table for a "
                             f"whole game to score a cut-off rollout; its horizon must be 0 (to "
                             f"the end)")
        _check_kinds(self.settings, spec, env_id)
        self.sample = importlib.import_module(spec.sample)
        self.rules = importlib.import_module(spec.rules)
        self.win_expectancy = win_expectancy
        rollout = _reading_the_view(rollout, env_id)
        if not getattr(rollout, "needs_view", False) and not _acts_on_mask(rollout):
            raise ValueError(f"search: the rollout manager {self.settings.rollout!r} decides from the "
                             f"observation vector; a rollout needs one that reads the view")
        self.rollout = rollout
        self.VIEW = getattr(rollout, "VIEW", None)
        self.setup: Any = None
        #: the seed of the last ``reset`` (or the one it was made with)
        self.seed = seed
        self._rng = random.Random(seed)
        self.last: Evaluation | None = None
        #: decisions whose view the ruleset's sample_state could not rebuild (played by the
        #: rollout manager)
        self.unsampled = 0
        if spec.simultaneous:
            # only a search that mixes says how it plays: an evaluator takes a manager with
            # action_probabilities for a mixed one (That's Baseball's asks pure ones only)
            self.action_probabilities = self._action_probabilities

    # -- the agent protocol -------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Seed the search's own random numbers (and the rollout manager's)."""
        self.seed = seed
        self._rng = random.Random(seed)
        self.rollout.reset(seed)

    def observe_setup(self, setup: Any) -> None:
        """The game's public set-up (the ruleset's ``public_setup(env)``: its teams and
        options, nothing of the game being played), given by the game loops before a game.
        The settings the reference did not give take the ruleset's budget for such a game
        (``SearchSpec.budget``)."""
        self.setup = setup
        hook = getattr(self.rollout, "observe_setup", None)    # (a pretrained rollout manager
        if hook is not None:                                   # picks its network, or refuses)
            hook(setup)
        budget = self.spec.budget(setup) if self.spec.budget is not None else None
        if budget:
            values = {k: v for k, v in budget.items() if k not in self.given}
            if "batch" not in self.given:
                values["batch"] = min(values.get("batch", self._settings.batch),
                                      values.get("sims", self._settings.sims))
            self.settings = replace(self._settings, **values)
        else:
            self.settings = self._settings
        _check_kinds(self.settings, self.spec, self.env_id, setup)

    def decide(self, view: Any) -> int:
        if len(view.legal) == 1:
            self.last = None
            return view.legal[0]
        if self._unsearched(view):
            self.last = None
            return self._base(view, tuple(view.legal))
        try:
            self.last = self.evaluate(view)
        except UnsampledView:
            # a view the ruleset's sample_state cannot rebuild (a gap of the sampler, which
            # its own tests look for): the rollout manager decides, and it is counted
            self.unsampled += 1
            self.last = None
            return self._base(view, tuple(view.legal))
        return self.last.choice

    def _base(self, view: Any, legal: tuple[int, ...]) -> int:
        """The rollout manager's own choice at ``view``."""
        if isinstance(self.rollout, ViewAgent):
            return int(self.rollout.decide(view))
        return int(self.rollout.act({"action_mask": _mask(legal)}, view))

    def _action_probabilities(self, observation: Any, view: Any) -> dict[int, float]:
        """How the search plays ``view``'s decision (its ``action_probabilities``, offered by
        a search of a ruleset with simultaneous decisions): the estimated equilibrium mix
        at a simultaneous decision, the one action it plays anywhere else. Draws from the
        search's generator as :meth:`decide` does."""
        if view is None:
            raise ValueError(f"{self.name}: action_probabilities() needs the manager's view")
        if len(view.legal) > 1 and self._unsearched(view):
            self.last = None
            probabilities = getattr(self.rollout, "action_probabilities", None)
            if probabilities is not None:
                return dict(probabilities(observation, view))
        elif len(view.legal) > 1 and self._simultaneous(view) is not None:
            self.last = self.evaluate(view)
            return dict(self.last.mix)
        return {self.act(observation, view): 1.0}

    # -- the search ---------------------------------------------------------------------------
    def evaluate(self, view: Any, *, race: bool = True, sims: int | None = None) -> Evaluation:
        """Search ``view``'s decision: each option's estimate and the choice (see the module
        docstring). ``race=False`` plays every option in every world (the analysis); ``sims``
        overrides the budget. A simultaneous decision is searched as its matrix game (every
        option against every choice of the other side in every world, no race)."""
        s = self.settings
        sims = s.sims if sims is None else sims
        legal = tuple(view.legal)
        base = self._base(view, legal)
        seed = self._rng.getrandbits(63)
        game = self._simultaneous(view)
        if game is not None:
            return self._matrix_game(view, game, base, seed, sims)
        alive = list(legal)
        values: dict[int, list[float]] = {a: [] for a in legal}
        worlds = rollouts = 0
        while worlds < sims and (len(alive) > 1 or not race):
            for _ in range(min(s.batch, sims - worlds)):
                world = self._world(view, random.Random(seed + worlds))
                for a in alive:
                    values[a].append(self._rollout(world.clone(), a, view))
                    rollouts += 1
                worlds += 1
            if race:
                alive = self._race(alive, values, worlds)
        choice = self._choose(legal, alive, values, base)
        estimates = {a: _estimate(a, values[a]) for a in legal if values[a]}
        return Evaluation(estimates, base, choice, worlds, rollouts, values)

    # -- a simultaneous decision: the matrix game ----------------------------------------------
    def _simultaneous(self, view: Any) -> Simultaneous | None:
        """The ruleset's :class:`Simultaneous` for ``view``'s decision kind, or None."""
        table = self.spec.simultaneous
        return table.get(view.decision) if table else None

    def _unsearched(self, view: Any) -> bool:
        """Whether ``view``'s decision is left to the rollout manager: a kind ``kinds`` does
        not name, or a simultaneous one with ``simultaneous=rollout``."""
        searched = self.settings.searched
        if searched is not None and view.decision not in searched:
            return True
        return self.settings.simultaneous == "rollout" and self._simultaneous(view) is not None

    def _matrix_game(self, view: Any, game: Simultaneous, base: int, seed: int,
                     sims: int) -> Evaluation:
        """Estimate the payoff matrix of the simultaneous choice (own options by the other
        side's, each cell the mean over the same ``sims`` worlds) and draw the choice from
        its equilibrium mix with the search's generator."""
        legal, others = tuple(view.legal), tuple(game.others(view))
        if not others:
            raise ValueError(f"search: no choice of the other side at a {view.decision!r} decision")
        cells = np.empty((sims, len(legal), len(others)))
        for w in range(sims):
            world = self._world(view, random.Random(seed + w))
            for i, own in enumerate(legal):
                for j, other in enumerate(others):
                    state = world.clone()
                    start = state.board.half_index
                    self.rollout.reset(seed + w)     # the rollout manager's own draws alike in every cell
                    game.play(state, own, other)
                    cells[w, i, j] = self._play_out(state, view, start)
        matrix = cells.mean(axis=0)
        # solve_games: the row player minimises, so the other side takes the rows
        value, other_mix, own_mix = solve_games(matrix.T[None], np.ones((1, len(others)), dtype=bool))
        mix = _clean(dict(zip(legal, own_mix[0])))
        choice = _draw(mix, self._rng)
        values = {a: [float(v) for v in cells[:, i, :] @ other_mix[0]] for i, a in enumerate(legal)}
        estimates = {a: _estimate(a, values[a]) for a in legal}
        return Evaluation(estimates, base, choice, sims, sims * len(legal) * len(others), values,
                          others, matrix, mix, float(value[0]))

    def _world(self, view: Any, rng: random.Random) -> Any:
        """A game consistent with ``view`` and the public set-up, its hidden parts drawn
        from ``rng``."""
        try:
            return self.sample.sample_state(view, rng, self.setup)
        except UnsampledView:
            raise
        except ValueError as error:
            if self.setup is not None or "public_setup" not in str(error):
                raise UnsampledView(f"search: {error}") from None
            if self.setup is None and "public_setup" in str(error):
                raise ValueError("search: the game's public set-up is unknown; call "
                                 "agent.observe_setup(env.unwrapped.public_setup()) after the "
                                 "env's reset (dugout's game loops do: "
                                 "dugout.agents.play.tell_setup)") from None
            raise

    def _race(self, alive: list[int], values: dict[int, list[float]], worlds: int) -> list[int]:
        """The options still in the race: those whose paired difference to the leader (over
        the ``worlds`` all of them met) is not below ``-z`` standard errors."""
        leader = max(alive, key=lambda a: sum(values[a][:worlds]))
        return [a for a in alive if a == leader or not _beats(values[leader], values[a], worlds, self.settings.z)]

    def _choose(self, legal, alive, values, base: int) -> int:
        """The rollout manager's choice unless an option beats it by ``z`` standard errors of
        the paired difference; then the best option still in the race."""
        best = max(alive, key=lambda a: (np.mean(values[a]), -a))
        if best == base:
            return base
        n = min(len(values[best]), len(values[base]))
        return best if base not in alive or _beats(values[best], values[base], n, self.settings.z) else base

    def _rollout(self, state: Any, action: int, root: Any) -> float:
        """Play ``action`` in ``state``, then both sides by the rollout manager, to the end
        (or the horizon); the searching manager's result (1 win, 1/2 tie, 0 loss) or its win
        expectancy at the horizon."""
        start = state.board.half_index
        self.rules.apply_action(state, action)
        return self._play_out(state, root, start)

    def _play_out(self, state: Any, root: Any, start: int) -> float:
        """Both sides played by the rollout manager from ``state`` to the end (or to the
        horizon, ``horizon`` half innings after half inning ``start``, the decision's, the
        same point for every option): the searching manager's result or its win
        expectancy at the horizon."""
        rules, seat, view_of = self.rules, root.seat, self.spec.view
        horizon = self.settings.horizon
        stop_at = start + horizon if horizon else None
        decide = self._policy(root)
        while state.pending is not None:
            if stop_at is not None and state.board.half_index >= stop_at and not state.board.over:
                return self.win_expectancy(view_of(state, seat, root))
            rules.apply_action(state, decide(state, state.pending))
        winner = state.board.winner
        return 0.5 if winner is None else float(winner == seat)

    def _policy(self, root: Any):
        rollout, view_of = self.rollout, self.spec.view
        if isinstance(rollout, ViewAgent):
            def decide(state, decision):
                if len(decision.legal) == 1:
                    return decision.legal[0]
                return rollout.decide(view_of(state, decision.actor, root))
        else:
            def decide(state, decision):
                if len(decision.legal) == 1:
                    return decision.legal[0]
                return int(rollout.act({"action_mask": _mask(decision.legal)}, view_of(state, decision.actor, root)))
        return decide


def _check_kinds(settings: SearchSettings, spec: SearchSpec, env_id: str, setup: Any = None) -> None:
    """A ``ValueError`` naming each of ``settings.kinds`` that is not one of the ruleset's
    decision kinds (``spec.kinds``), or, told the game's public ``setup``, each that no game
    of that set-up asks (the sample module's ``kinds_never_asked``), with the reason."""
    searched = settings.searched
    if searched is None:
        return
    unknown = sorted(searched - set(spec.kinds))
    if unknown:
        raise ValueError(f"search: kinds: {', '.join(map(repr, unknown))} "
                         f"{'is not a decision kind' if len(unknown) == 1 else 'are not decision kinds'} "
                         f"of {env_id or 'this env'}; its kinds: {', '.join(spec.kinds) or 'none listed'}")
    never_asked = (None if setup is None else
                   getattr(importlib.import_module(spec.sample), "kinds_never_asked", None))
    if never_asked is None:
        return
    never = never_asked(setup)
    unasked = sorted(searched & set(never))
    if unasked:
        asked = [k for k in spec.kinds if k not in never]
        raise ValueError(f"search: kinds names decisions this {env_id or 'game'} game never asks: "
                         + ", ".join(f"{k!r} ({never[k]})" for k in unasked)
                         + f"; the kinds it asks: {', '.join(asked)}")


def _reading_the_view(agent: Any, env_id: str) -> Any:
    """A trained manager (``rollout=ppo:PATH``, a :class:`~dugout.agents.policy.PolicyAgent`)
    as one that reads the view (:class:`~dugout.agents.policy.ViewPolicy`: the view encoded as
    its env's observation); any other manager as it is."""
    from .policy import PolicyAgent, ViewPolicy
    if isinstance(agent, PolicyAgent):
        return ViewPolicy(agent, env_id or None)
    return agent


def _acts_on_mask(agent: Any) -> bool:
    from .random_agent import RandomAgent
    return isinstance(agent, RandomAgent)


def _mask(legal: tuple[int, ...]) -> np.ndarray:
    mask = np.zeros(max(legal) + 1, dtype=np.int8)
    mask[list(legal)] = 1
    return mask


def _beats(a: list[float], b: list[float], n: int, z: float) -> bool:
    """Whether ``a`` beats ``b`` over their first ``n`` paired values by more than ``z``
    standard errors of the mean difference (a difference with no spread beats when it is
    positive)."""
    d = np.asarray(a[:n]) - np.asarray(b[:n])
    mean = d.mean()
    if n < 2:
        return False
    se = d.std(ddof=1) / math.sqrt(n)
    return mean > z * se if se > 0 else mean > 0


def _clean(mix: Mapping[int, float]) -> dict[int, float]:
    """A solver's mix with its rounding dust (below 1e-12) set to 0, summing to 1."""
    kept = {a: (float(q) if q > 1e-12 else 0.0) for a, q in mix.items()}
    total = sum(kept.values())
    return {a: q / total for a, q in kept.items()}


def _draw(mix: Mapping[int, float], rng: random.Random) -> int:
    """An action drawn from ``mix`` (action to probability, in its order) with ``rng``."""
    u = rng.random() * sum(mix.values())
    total = 0.0
    for action, q in mix.items():
        total += q
        if u < total:
            return action
    return max(mix, key=lambda a: (mix[a], -a))       # rounding at the top end


def _estimate(action: int, values: list[float]) -> Estimate:
    n = len(values)
    mean = float(np.mean(values))
    se = float(np.std(values, ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    return Estimate(action, mean, se, n)
