"""The games the web app serves: one :class:`Session` per game, kept by a :class:`Sessions` store.

A session holds one env, the managers that play its programme seats server-side and the
seat the browser sees through (the *viewer*): the seat a person plays, or in a watched game
the seat whose side the spectator follows. What leaves a session is built by
:meth:`Session.payload` from what the env gives that seat and nothing else:

* the seat's view (``env.view(seat)``, a frozen dataclass, as plain JSON) and, when the
  seat is to act, its decision with the legal options labelled as the infos label them;
* the public picture: the env's :class:`~dugout.envs.core.picture.Scene` without the hands
  and the options of a decision (a hand is the view's business; the opponent's options can
  name his cards), the env's text render (Grand Slam's through the viewer's eyes,
  ``render_agent``), the box score and the rulebook scorecard with the play-by-play;
* the session's own record of the moves: who decided what kind of decision, and the label
  of the viewer's own choices only (an opponent's label may name a hidden choice, such as
  Bottom of the 9th's committed pitch).

Never the engine state, the seed, the opponent's hand, his committed stare-down choice or
the deck order: the twin tests (``tests/test_web_http.py``) play two games that differ only
in that hidden information and compare every payload.

The managers move server-side when a request finds them due (:meth:`Session.advance`): a
manager's move waits ``delay`` seconds after the move before it, so a page that polls sees
the opponent's moves one by one. Every action request names the decision it answers
(``decision``, the count of moves made so far), so a stale click changes nothing.

Each session has its own lock; two sessions never share an env or a manager.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import secrets
import threading
import time
from typing import Any, Callable, Mapping

import numpy as np

__all__ = ["ApiError", "Session", "Sessions", "Table", "plain", "RESERVED", "SOLO_SEAT",
           "rulesets", "HUMAN"]

#: The options the server sets itself (the harness's, and the viewer of a render).
RESERVED = ("render_mode", "illegal_action", "dice", "render_agent")
#: What a seat played by a person is called in a game's players.
HUMAN = "you"
#: The one seat of a single-agent env (the Manager Challenge).
SOLO_SEAT = "manager"
#: View fields left out of the JSON: the public set-up's card data (large, and the same for
#: the whole game); the page reads names from the picture.
_HEAVY = frozenset({"teams", "card_set", "cards"})
#: Scene fields that are not public: the hands, and the options of the pending decision.
_PRIVATE_SCENE = frozenset({"hand", "options"})
#: The agent registry loads a ruleset's managers on first use and is not safe to load from
#: two threads at once (a second thread can see the ruleset half registered): the server's
#: calls into it take turns.
_REGISTRY_LOCK = threading.RLock()


class ApiError(Exception):
    """A request the server refuses: an HTTP status and a message naming what was wrong."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def plain(value: Any, skip: frozenset = frozenset()) -> Any:
    """``value`` as JSON data: dataclasses as objects (less the fields named in ``skip``),
    tuples as lists, numpy scalars as numbers, enums by name, nan as None; anything else
    (a card object) is left out as None."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, np.generic):
        return plain(value.item())
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, enum.Enum):
        return value.name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.name not in skip}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return None


# -- the rulesets ---------------------------------------------------------------------------------
def rulesets() -> list[dict[str, Any]]:
    """Every ruleset the app plays: id, title, seats, options (name and default, as JSON)
    and the managers the registry knows for it (``search:...`` and ``ppo:PATH`` are typed)."""
    from ..agents import agent_names
    from ..envs import env_ids, spec
    with _REGISTRY_LOCK:
        return _rulesets(agent_names, env_ids, spec)


def _rulesets(agent_names, env_ids, spec) -> list[dict[str, Any]]:
    import inspect
    out = []
    for env_id in env_ids("all"):
        s = spec(env_id, kind=None)
        params = inspect.signature(s.env_class.__init__).parameters
        options = []
        for name, p in params.items():
            if name == "self" or name in RESERVED or p.kind not in (p.POSITIONAL_OR_KEYWORD,
                                                                    p.KEYWORD_ONLY):
                continue
            default = p.default if p.default is not inspect.Parameter.empty else None
            try:
                shown = json.dumps(plain(default) if not isinstance(default, str) else default)
            except (TypeError, ValueError):
                shown = "null"
            options.append({"name": name, "default": shown})
        out.append({"id": env_id, "title": s.title,
                    "seats": [SOLO_SEAT] if s.kind == "gymnasium" else ["away", "home"],
                    "solo": s.kind == "gymnasium", "options": options,
                    "managers": agent_names(env_id)})
    return out


def _known_env(env_id: Any) -> Any:
    from ..envs import env_ids, spec
    if not isinstance(env_id, str) or env_id not in env_ids("all"):
        raise ApiError(400, f"unknown ruleset {env_id!r}; known: {', '.join(env_ids('all'))}")
    return spec(env_id, kind=None)


# -- one env, two kinds ---------------------------------------------------------------------------
class Table:
    """One game's env behind one interface, whatever its kind: a two-manager AEC env (seats
    ``away`` and ``home``) or the single-agent Manager Challenge (one seat, ``manager``).
    Only the session reads it; nothing of it leaves the server but what
    :meth:`Session.payload` builds."""

    def __init__(self, env_id: str, options: dict[str, Any], viewer: str, render: str = "ansi"):
        from ..envs import make
        from ..envs.core.errors import DugoutError
        spec = _known_env(env_id)
        self.env_id, self.options, self.solo = env_id, dict(options), spec.kind == "gymnasium"
        self.seats = (SOLO_SEAT,) if self.solo else ("away", "home")
        if not isinstance(options, dict):
            raise ApiError(400, f"options must be a JSON object of option names and values, "
                                f"got {type(options).__name__}")
        for key in options:
            if key in RESERVED:
                raise ApiError(400, f"option {key!r}: the server sets it itself; it cannot be given")
        extra: dict[str, Any] = {"render_mode": render}
        if env_id == "grand_slam_v0":
            extra["render_agent"] = viewer
        try:
            if self.solo:
                self.env = make(env_id, illegal_action="raise", **options, **extra)
            else:
                from ..envs.options import check_env_options
                self.env = check_env_options(
                    env_id, options, "option",
                    build=lambda e, o: make(e, raw=True, **o, **extra))
        except (DugoutError, ValueError, TypeError) as error:
            raise ApiError(400, f"bad option for {env_id}: {error}") from None
        self.unwrapped = self.env.unwrapped
        self._obs = None
        self._info: dict[str, Any] = {}

    # -- the game
    def reset(self, seed: int) -> None:
        if self.solo:
            self._obs, self._info = self.env.reset(seed=seed)
        else:
            self.env.reset(seed=seed)

    def restore(self, state: Any) -> None:
        """Continue from a saved state (the env's ``save()``), already loaded."""
        self.unwrapped.restore(state)
        if self.solo:
            self._obs, self._info = self.unwrapped._observe()

    def save(self) -> Any:
        return self.unwrapped.save()

    @property
    def over(self) -> bool:
        if self.solo:
            return self.unwrapped.campaign.over
        return not self.env.agents or self.to_act() is None

    def to_act(self) -> str | None:
        """The seat to decide now, or None once the game is over."""
        if self.solo:
            return None if self.unwrapped.campaign.over else SOLO_SEAT
        u = self.unwrapped
        if u.state_ is None or u.state_.over or u.truncated_by is not None or \
                u.forfeited_by is not None or u.state_.pending is None:
            return None
        return ("away", "home")[u.state_.pending.actor]

    def view(self, seat: str) -> Any:
        return self.unwrapped.view() if self.solo else self.unwrapped.view(seat)

    def observation(self, seat: str) -> Any:
        return self._obs if self.solo else self.env.observe(seat)

    def decision(self, seat: str) -> tuple[str, tuple[str, ...], tuple[int, ...]]:
        """``seat``'s pending decision: its kind, every action's label and the legal actions."""
        if self.solo:
            info = self._info["decision"]
            legal = tuple(int(a) for a in np.flatnonzero(self.unwrapped.action_masks()))
            return info["kind"], tuple(info["labels"]), legal
        info = self.unwrapped.infos[seat]["decision"]
        return info["kind"], tuple(info["labels"]), tuple(self.unwrapped.state_.pending.legal)

    def step(self, action: int) -> None:
        if self.solo:
            self._obs, _, _, _, self._info = self.env.step(action)
        else:
            self.env.step(action)
            # the finished managers' dead steps: the game is over for both
            while self.env.agents and self.to_act() is None:
                self.env.step(None)

    @property
    def moves(self) -> int:
        return int(self.unwrapped.decision_count)

    # -- what is public
    def result(self) -> dict[str, Any]:
        """The score, and once over the winner ("away", "home"; "" for no winner) and the
        result line."""
        if self.solo:
            c = self.unwrapped.campaign
            info = self._info
            return {"score": [int(x) for x in c.game.board.runs], "over": bool(c.over),
                    "winner": "", "campaign": {"game": info.get("game"), "results": plain(info.get("results")),
                                               "wins": info.get("wins"), "losses": info.get("losses"),
                                               "mp": info.get("mp"), "band": info.get("band")}}
        u = self.unwrapped
        s = u.state_
        winner = ""
        if self.over and s.winner is not None and u.truncated_by is None:
            winner = ("away", "home")[s.winner]
        if u.series_format is not None:
            winner = "" if u.series_ is None or u.series_.winner is None else ("away", "home")[u.series_.winner]
        return {"score": [int(x) for x in s.score], "over": self.over, "winner": winner}

    def scene(self) -> dict[str, Any]:
        try:
            scene = self.unwrapped._scene()
        except IndexError:
            # the Manager Challenge's picture cannot name a runner past its lineup (a
            # Situation's runner): the board alone, runners unnamed
            scene = self._board_scene()
        return plain(scene, skip=_PRIVATE_SCENE)

    def _board_scene(self) -> Any:
        from ..envs.core.picture import Scene
        g = self.unwrapped.campaign.game
        b = g.board
        return Scene(title="Manager Challenge", innings=int(b.innings), inning=int(b.inning),
                     half=int(b.half), outs=int(b.outs),
                     runners=tuple(None if r is None else "runner" for r in b.bases),
                     line_score=(tuple(int(r) for r in b.line[0]), tuple(int(r) for r in b.line[1])),
                     runs=(int(b.runs[0]), int(b.runs[1])), count=f"Count {g.balls}-{g.strikes}")

    def text(self) -> str:
        return (self.unwrapped.render_text() if self.solo else self.env.render()) or ""

    def box_score(self) -> Any:
        if self.solo:
            g = self.unwrapped.campaign.game
            return plain(g.box.summary(g.board))
        return plain(self.unwrapped.box_score())

    def scorecard(self) -> str:
        return self.unwrapped.scorecard()


# -- one game -------------------------------------------------------------------------------------
@dataclasses.dataclass
class Move:
    """One decision as played: its number, the seat, the kind, the action and its label,
    and the deciding seat's view before it (kept server-side for the analysis)."""
    number: int
    seat: str
    kind: str
    action: int
    label: str
    legal: int
    view: Any = dataclasses.field(repr=False, default=None)
    labels: tuple[str, ...] = dataclasses.field(repr=False, default=())


def _pick_seed() -> int:
    return secrets.randbits(32)


class Session:
    """One game: its env, its players by seat (``you`` or a manager reference), the viewer
    seat, the managers' pace, and what the hints and the analysis search with."""

    def __init__(self, game_id: str, env_id: str, options: dict[str, Any], players: dict[str, str],
                 viewer: str, delay: float = 0.6, search: str = "search", seed: int | None = None):
        self.id = game_id
        self.lock = threading.Lock()
        self.table = Table(env_id, options, viewer)
        self.env_id, self.options = env_id, dict(options)
        seats = self.table.seats
        if set(players) != set(seats):
            raise ApiError(400, f"players must name every seat of {env_id} ({', '.join(seats)}), "
                                f"got {', '.join(sorted(players)) or 'none'}")
        if viewer not in seats:
            raise ApiError(400, f"seat must be one of {', '.join(seats)}, got {viewer!r}")
        if not isinstance(delay, (int, float)) or isinstance(delay, bool) or not 0 <= delay <= 60:
            raise ApiError(400, f"delay must be a number of seconds from 0 to 60, got {delay!r}")
        self.players, self.viewer, self.delay = dict(players), viewer, float(delay)
        self.humans = tuple(s for s in seats if players[s] == HUMAN)
        if self.humans and self.humans != (viewer,):
            raise ApiError(400, f"a person plays one seat, the one the page shows ({viewer}); got "
                                f"players {players}")
        self.mode = "play" if self.humans else "watch"
        self.search = _check_search(env_id, search, self.table)
        self.managers = _make_managers(env_id, {s: p for s, p in players.items() if p != HUMAN},
                                       self.table)
        self.seed = _pick_seed() if seed is None else int(seed)
        self.actions: list[int] = []
        self.history: list[Move] = []
        self.start_state: Any = None
        self._reset()
        self.next_move_at = time.monotonic() + self.delay
        self.analysis: dict[str, Any] | None = None
        self.loaded = False

    def _reset(self) -> None:
        from ..agents.play import tell_setup
        self.table.reset(self.seed)
        for i, (seat, agent) in enumerate(sorted(self.managers.items())):
            agent.reset(seed=(self.seed * 7 + 3 * i + 1) % 2**32)
        tell_setup(self.table.env, self.managers.values())
        self.start_state = self.table.save()

    def load(self, state: Any) -> None:
        """Continue from a saved ``state`` (what :meth:`saved` gave, loaded)."""
        self.table.restore(state)
        self.start_state = self.table.save()
        self.actions, self.history, self.loaded = [], [], True
        self.next_move_at = time.monotonic() + self.delay

    def saved(self) -> dict[str, Any]:
        """The game now as the env's JSON save (engine state: hidden information and dice
        included; the server keeps it, the browser never gets it before the game is over)."""
        return {"env": self.env_id, "options": plain(self.options),
                "state": self.table.save().to_dict()}

    # -- moves
    @property
    def number(self) -> int:
        """The decision counter: moves made in this session (loads start from 0)."""
        return len(self.actions)

    def _apply(self, seat: str, action: int) -> None:
        kind, labels, legal = self.table.decision(seat)
        self.history.append(Move(self.number, seat, kind, int(action), labels[action], len(legal),
                                 self.table.view(seat) if seat == self.viewer else None, labels))
        self.table.step(int(action))
        self.actions.append(int(action))

    def act(self, decision: Any, action: Any) -> None:
        """The person's ``action`` at decision number ``decision``: checked, then played."""
        for name, value in (("decision", decision), ("action", action)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ApiError(400, f"{name} must be a whole number, got {json.dumps(value)}")
        seat = self.table.to_act()
        if self.mode == "watch":
            raise ApiError(409, "this game is watched: both seats are played by managers")
        if decision != self.number:
            raise ApiError(409, f"stale decision: the action answers decision {decision}, but the "
                                f"game is at decision {self.number}; reload the game")
        if seat is None:
            raise ApiError(409, "the game is over: there is no decision to make")
        if seat != self.viewer:
            raise ApiError(409, f"it is not your turn: {seat} ({self.players[seat]}) is to decide")
        kind, labels, legal = self.table.decision(seat)
        if action not in legal:
            options = ", ".join(f"{a} ({labels[a]})" for a in legal)
            raise ApiError(422, f"illegal action {action} at this {kind!r} decision; legal: {options}")
        self._apply(seat, action)
        self.next_move_at = time.monotonic() + self.delay

    def advance(self, budget: float = 1.0) -> int:
        """Play the managers' moves that are due (each ``delay`` after the one before), for at
        most about ``budget`` seconds; the number played."""
        start, played = time.monotonic(), 0
        while True:
            seat = self.table.to_act()
            if seat is None or seat not in self.managers:
                return played
            now = time.monotonic()
            if now < self.next_move_at or (played and now - start > budget):
                return played
            agent = self.managers[seat]
            view = self.table.view(seat)
            action = agent.act(self.table.observation(seat),
                               view if getattr(agent, "needs_view", False) else None)
            self._apply(seat, int(action))
            played += 1
            self.next_move_at = time.monotonic() + self.delay

    # -- what the browser sees
    def payload(self) -> dict[str, Any]:
        """Everything the page shows, built from the viewer seat's view and the public picture
        (see the module docstring)."""
        t, seat = self.table, self.viewer
        to_act = t.to_act()
        decision = None
        if to_act == seat and seat in self.humans:
            kind, labels, legal = t.decision(seat)
            decision = {"kind": kind, "options": [{"action": a, "label": labels[a]} for a in legal]}
        moves = [{"number": m.number, "seat": m.seat, "kind": m.kind,
                  "label": m.label if m.seat == seat else ""} for m in self.history]
        result = t.result()
        return {
            "game": self.id, "env": self.env_id, "options": plain(self.options),
            "mode": self.mode, "seat": seat, "players": dict(self.players),
            "decision_number": self.number, "to_act": to_act or "",
            "your_turn": decision is not None, "decision": decision,
            "waiting": to_act is not None and to_act in self.managers,
            "over": bool(result.pop("over")), "result": result,
            "picture": t.scene(), "text": t.text(),
            "view": plain(t.view(seat), skip=_HEAVY),
            "box_score": t.box_score(), "scorecard": t.scorecard(), "moves": moves,
            "delay": self.delay, "search": self.search, "loaded": self.loaded,
            "analysed": self.analysis is not None,
        }

    # -- hints and the analysis
    def _searcher(self) -> Any:
        from ..agents import make_agent
        from ..agents.play import tell_setup
        with _REGISTRY_LOCK:
            agent = make_agent(self.env_id, self.search)
        tell_setup(self.table.env, [agent])
        return agent

    def hint(self, decision: Any) -> dict[str, Any]:
        """The search manager's chance of winning after each option of the person's pending
        decision, searched from the seat's view alone."""
        if not isinstance(decision, int) or isinstance(decision, bool):
            raise ApiError(400, f"decision must be a whole number, got {json.dumps(decision)}")
        if decision != self.number:
            raise ApiError(409, f"stale decision: the hint asks about decision {decision}, but the "
                                f"game is at decision {self.number}")
        if self.table.to_act() != self.viewer or self.viewer not in self.humans:
            raise ApiError(409, "there is no decision of yours to hint at now")
        view = self.table.view(self.viewer)
        _, labels, legal = self.table.decision(self.viewer)
        if len(legal) < 2:
            return {"decision_number": self.number, "search": self.search, "worlds": 0,
                    "options": [{"action": a, "label": labels[a], "win": None, "se": None}
                                for a in legal]}
        searcher = self._searcher()
        searcher.reset(secrets.randbits(32))
        ev = searcher.evaluate(view, race=False)
        best = ev.best().action
        return {"decision_number": self.number, "search": self.search, "worlds": int(ev.worlds),
                "best": int(best),
                "options": [{"action": a, "label": labels[a], "win": plain(ev.estimates[a].mean),
                             "se": plain(ev.estimates[a].se)} for a in legal]}

    def analyse(self) -> dict[str, Any]:
        """After the game: every decision of the viewer's seat with a choice, priced by the
        search from that seat's view then (:mod:`dugout.evaluate.analysis`'s records): the
        seat's chance of winning through the game and the costliest decisions."""
        if not self.table.over:
            raise ApiError(409, "the analysis comes after the game; it is still being played")
        if self.analysis is not None:
            return self.analysis
        from ..evaluate.analysis import decision_seed, evaluate_decision
        searcher = self._searcher()
        records = []
        for m in self.history:
            if m.seat != self.viewer or m.legal < 2 or m.view is None:
                continue
            records.append(evaluate_decision(searcher, m.view, m.labels, m.action,
                                             decision_seed(0, self.seed, m.number), m.number,
                                             m.seat, m.kind))
        result = self.table.result()
        winner = result.get("winner", "")
        end = None if self.table.solo else (0.5 if not winner else float(winner == self.viewer))
        curve = [[r.step, plain(r.win)] for r in records] + ([[self.number, end]] if end is not None else [])
        costly = sorted((r for r in records if r.cost > 0), key=lambda r: (-r.cost, r.step))[:10]
        self.analysis = {
            "seat": self.viewer, "search": self.search, "decisions": len(records),
            "curve": curve, "costliest": [r.to_dict() for r in costly],
            "records": [r.to_dict() for r in records]}
        return self.analysis

    # -- replay and pictures of a finished game
    def replay_table(self, step: int, render: str = "ansi") -> Table:
        """A fresh table with the game's first ``step`` moves replayed (from its start)."""
        t = Table(self.env_id, self.options, self.viewer, render)
        t.reset(self.seed)
        if self.loaded:
            t.restore(self.start_state)
        for action in self.actions[:step]:
            t.step(action)
        return t

    def replay(self, step: Any) -> dict[str, Any]:
        """The finished game after its first ``step`` moves, as the viewer saw it."""
        if not self.table.over:
            raise ApiError(409, "a game is replayed once it is over")
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= self.number:
            raise ApiError(400, f"step must be a whole number from 0 to {self.number}, got {step!r}")
        t = self.replay_table(step)
        move = self.history[step - 1] if step else None
        return {"game": self.id, "step": step, "steps": self.number, "picture": t.scene(),
                "text": t.text(), "box_score": t.box_score(),
                "move": None if move is None else {"number": move.number, "seat": move.seat,
                                                   "kind": move.kind,
                                                   "label": move.label if move.seat == self.viewer else ""}}

    def gif(self, fps: float = 2.0) -> bytes:
        """The finished game as an animated GIF (a frame per move, as the viewer saw it)."""
        import tempfile
        from pathlib import Path

        from ..envs.core.picture import write_gif
        if not self.table.over:
            raise ApiError(409, "a game's GIF is drawn once it is over")
        t = self.replay_table(0, render="rgb_array")
        frames = [t.unwrapped.render() if not t.solo else t.env.render()]
        for action in self.actions:
            t.step(action)
            frames.append(t.unwrapped.render() if not t.solo else t.env.render())
        with tempfile.TemporaryDirectory() as folder:
            path = write_gif(frames, Path(folder) / "game.gif", fps=fps)
            return Path(path).read_bytes()


def _check_search(env_id: str, search: Any, table: Table) -> str:
    from ..agents.ref import AgentRef
    if not isinstance(search, str):
        raise ApiError(400, f"search must be the search manager's reference, got {search!r}")
    try:
        ref = AgentRef.parse(search)
    except ValueError as error:
        raise ApiError(400, f"search {search!r}: {error}") from None
    if ref.kind != "search" and str(ref) != "search":
        raise ApiError(400, f"search {search!r}: hints and the analysis need the search manager, "
                            f"search or search:key=value,...")
    _check_refs(env_id, [str(ref)], table, "search")
    return str(ref)


def _check_refs(env_id: str, refs: list[str], table: Table, what: str) -> None:
    from ..agents.registry import check_agents
    from ..envs.core.errors import DugoutError
    try:
        with _REGISTRY_LOCK:
            check_agents(env_id, refs, None if table.solo else table.options)
    except (ValueError, DugoutError) as error:
        raise ApiError(400, f"{what}: {error}") from None


def _make_managers(env_id: str, refs: dict[str, Any], table: Table) -> dict[str, Any]:
    from ..agents import make_agent
    from ..agents.ref import AgentRef
    out = {}
    for seat, ref in refs.items():
        if not isinstance(ref, str):
            raise ApiError(400, f"manager for {seat} must be a manager's reference (random, "
                                f"heuristic, search, search:sims=4, ppo:PATH...), got {ref!r}")
        try:
            AgentRef.parse(ref)
        except ValueError as error:
            raise ApiError(400, f"manager for {seat}: {error}") from None
        _check_refs(env_id, [ref], table, f"manager for {seat}")
        with _REGISTRY_LOCK:
            out[seat] = make_agent(env_id, ref)
    return out


# -- the store ------------------------------------------------------------------------------------
class Sessions:
    """The server's games by id (random, unguessable ids), at most ``limit`` at once (the
    oldest goes first), and the games saved in this server's memory."""

    def __init__(self, limit: int = 64):
        self.limit = limit
        self._games: dict[str, Session] = {}
        self._saves: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def create(self, make: Callable[[str], Session]) -> Session:
        game_id = secrets.token_urlsafe(9)
        session = make(game_id)
        with self._lock:
            self._games[game_id] = session
            while len(self._games) > self.limit:
                self._games.pop(next(iter(self._games)))
        return session

    def get(self, game_id: str) -> Session:
        with self._lock:
            session = self._games.get(game_id)
        if session is None:
            raise ApiError(404, f"unknown game id {game_id!r} (the server keeps a game while it "
                                f"runs; start a new one)")
        return session

    def __len__(self) -> int:
        return len(self._games)

    def save(self, session: Session, name: str) -> dict[str, Any]:
        """Keep ``session``'s game now under ``name`` (server memory); its listing entry."""
        entry = {"id": secrets.token_urlsafe(6), "name": name, "env": session.env_id,
                 "seat": session.viewer, "players": dict(session.players),
                 "decision_number": session.number, "time": time.strftime("%H:%M:%S")}
        with self._lock:
            self._saves[entry["id"]] = {"entry": entry, "data": session.saved(),
                                        "delay": session.delay, "search": session.search}
        return entry

    def saves(self) -> list[dict[str, Any]]:
        with self._lock:
            return [s["entry"] for s in self._saves.values()]

    def saved(self, save_id: Any) -> dict[str, Any]:
        with self._lock:
            found = self._saves.get(save_id) if isinstance(save_id, str) else None
        if found is None:
            raise ApiError(404, f"unknown save {save_id!r}")
        return found
