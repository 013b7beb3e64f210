"""The web app: a Starlette application, a JSON API over :mod:`dugout.web.session` and the
static pages of ``web/static`` (HTML, JavaScript and CSS served from here: no CDN, no build).

    from dugout.web.app import create_app
    app = create_app()                 # uvicorn.run(app, host="127.0.0.1", port=8000)

The API (every body is JSON; every error is ``{"error": MESSAGE}`` with a 4xx status that
says what kind of wrong it was, and changes nothing):

=======  ==================================  ==================================================
GET      ``/api/rulesets``                   the rulesets, their options, seats and managers
POST     ``/api/games``                      a new game: ``{"env", "options", "players":
                                             {"away": "you", "home": "heuristic"}, "seat",
                                             "delay", "search"}``; its state
GET      ``/api/games/ID``                   the game's state (the managers' due moves first)
POST     ``/api/games/ID/action``            ``{"decision": N, "action": A}``: play A at
                                             decision N (a stale N is refused, 409)
POST     ``/api/games/ID/hint``              ``{"decision": N}``: the search's chance of
                                             winning after each option
POST     ``/api/games/ID/analysis``          after the game: the seat's decisions priced
POST     ``/api/games/ID/save``              ``{"name"}``: keep the game now in server memory
GET      ``/api/saves``                      the saved games
POST     ``/api/saves``                      ``{"save", "name", "players", "seat"}``: keep a
                                             downloaded game's file (checked by loading it)
POST     ``/api/saves/SAVE/load``            ``{"players", "seat", "delay"}``: a new game
                                             from a save
GET      ``/api/games/ID/download``          the finished game's JSON save
GET      ``/api/games/ID/replay/STEP``       the finished game after STEP moves
GET      ``/api/games/ID/gif``               the finished game as an animated GIF
=======  ==================================  ==================================================

400: a malformed body, an unknown ruleset, option or manager; 404: an unknown game or save;
409: a stale decision, not your turn, a game over or not over yet; 422: an illegal action.

``create_app(recorder=f)`` calls ``f(session, path, payload)`` with every game payload the
API sends (the browser test records them to check what the browser was given).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .session import HUMAN, SOLO_SEAT, ApiError, Session, Sessions, rulesets

__all__ = ["create_app", "STATIC"]

#: The pages, scripts and styles the app serves.
STATIC = Path(__file__).parent / "static"

Recorder = Callable[[Session, str, dict], None]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, or a 400 naming what is wrong with it."""
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError) as error:
        raise ApiError(400, f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the body must be a JSON object, got {type(data).__name__}")
    return data


def _known_keys(data: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r}; the fields are {', '.join(allowed)}")


def create_app(sessions: Sessions | None = None, recorder: Recorder | None = None) -> Starlette:
    """The app, with its own store of games (or ``sessions``); ``recorder`` sees every game
    payload sent."""
    store = sessions if sessions is not None else Sessions()
    cached_rulesets: list = []

    def send(session: Session, path: str, payload: dict) -> JSONResponse:
        if recorder is not None:
            recorder(session, path, payload)
        return JSONResponse(payload)

    def api(handler):
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as error:
                return _error(error.status, error.message)
        return endpoint

    def locked(session: Session, work: Callable[[], Any]):
        from starlette.concurrency import run_in_threadpool

        def run():
            with session.lock:
                return work()
        return run_in_threadpool(run)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def game_page(request: Request) -> Response:
        return FileResponse(STATIC / "game.html")

    @api
    async def list_rulesets(request: Request) -> Response:
        if not cached_rulesets:
            cached_rulesets.extend(rulesets())
        return JSONResponse({"rulesets": cached_rulesets})

    def _new_session(data: dict[str, Any]) -> Session:
        env_id = data.get("env")
        players = data.get("players")
        if not isinstance(players, dict):
            raise ApiError(400, "players must be an object of seat to player ('you' or a "
                                "manager's reference), e.g. {\"away\": \"you\", \"home\": \"heuristic\"}")
        seat = data.get("seat")
        if seat is None:
            humans = [s for s, p in players.items() if p == HUMAN]
            seat = humans[0] if humans else ("manager" if "manager" in players else "away")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise ApiError(400, f"options must be a JSON object of option names and values, "
                                f"got {json.dumps(options)}")
        return lambda game_id: Session(game_id, env_id, options, players, seat,
                                       data.get("delay", 0.6), data.get("search", "search"))

    @api
    async def create_game(request: Request) -> Response:
        data = await _body(request)
        _known_keys(data, ("env", "options", "players", "seat", "delay", "search"))
        make = _new_session(data)
        from starlette.concurrency import run_in_threadpool
        session = await run_in_threadpool(store.create, make)
        return send(session, "create", await locked(session, lambda: (session.advance(), session.payload())[1]))

    @api
    async def get_game(request: Request) -> Response:
        session = store.get(request.path_params["game"])
        return send(session, "state", await locked(session, lambda: (session.advance(), session.payload())[1]))

    @api
    async def act(request: Request) -> Response:
        session = store.get(request.path_params["game"])
        data = await _body(request)
        _known_keys(data, ("decision", "action"))
        for key in ("decision", "action"):
            if key not in data:
                raise ApiError(400, f"the body needs {key!r} (the decision number shown and the "
                                    f"action chosen)")

        def work():
            session.act(data["decision"], data["action"])
            session.advance()
            return session.payload()
        return send(session, "action", await locked(session, work))

    @api
    async def hint(request: Request) -> Response:
        session = store.get(request.path_params["game"])
        data = await _body(request)
        _known_keys(data, ("decision",))
        if "decision" not in data:
            raise ApiError(400, "the body needs 'decision' (the decision number shown)")
        return send(session, "hint", await locked(session, lambda: session.hint(data["decision"])))

    @api
    async def analysis(request: Request) -> Response:
        session = store.get(request.path_params["game"])
        return send(session, "analysis", await locked(session, session.analyse))

    @api
    async def save(request: Request) -> Response:
        session = store.get(request.path_params["game"])
        data = await _body(request)
        _known_keys(data, ("name",))
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > 80:
            raise ApiError(400, "name must be a text of at most 80 characters")
        entry = await locked(session, lambda: store.save(session, name or f"game {session.id}"))
        return JSONResponse(entry)

    @api
    async def list_saves(request: Request) -> Response:
        return JSONResponse({"saves": store.saves()})

    def _loaded(spec: dict[str, Any], state_data: Any) -> Callable[[str], Session]:
        """A session of ``spec`` continuing from the saved engine state ``state_data``."""
        make = _new_session(spec)

        def build(game_id: str) -> Session:
            from ..envs.core.errors import DugoutError
            from ..evaluate.analysis import load_saved
            session = make(game_id)
            table = session.table
            try:
                if table.solo:
                    from ..envs.bottom_ninth.solo import Campaign
                    state = Campaign.from_dict(state_data)
                else:
                    state = load_saved(table.env, state_data)
                session.load(state)
            except (DugoutError, ValueError, TypeError, KeyError) as error:
                raise ApiError(400, f"the saved game does not load: {error}") from None
            return session
        return build

    @api
    async def upload(request: Request) -> Response:
        data = await _body(request)
        _known_keys(data, ("save", "name", "players", "seat"))
        saved = data.get("save")
        if not isinstance(saved, dict) or set(saved) != {"env", "options", "state"}:
            raise ApiError(400, "save must be a downloaded game's file: an object of env, "
                                "options and state")
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > 80:
            raise ApiError(400, "name must be a text of at most 80 characters")
        spec = {"env": saved["env"], "options": saved["options"], "players": data.get("players"),
                "seat": data.get("seat")}
        if spec["players"] is None:
            solo = any(r["id"] == saved["env"] and r["solo"] for r in rulesets())
            spec["players"] = {SOLO_SEAT: HUMAN} if solo else {"away": HUMAN, "home": "heuristic"}
        build = _loaded(spec, saved["state"])
        from starlette.concurrency import run_in_threadpool
        session = await run_in_threadpool(build, "upload")          # it loads, or a 400
        entry = await run_in_threadpool(lambda: store.save(session, name or "uploaded game"))
        return JSONResponse(entry)

    @api
    async def load(request: Request) -> Response:
        saved = store.saved(request.path_params["save"])
        data = await _body(request)
        _known_keys(data, ("players", "seat", "delay", "search"))
        entry = saved["entry"]
        spec = {"env": entry["env"], "options": saved["data"]["options"],
                "players": data.get("players", entry["players"]),
                "seat": data.get("seat", entry["seat"]),
                "delay": data.get("delay", saved["delay"]), "search": data.get("search", saved["search"])}
        build = _loaded(spec, saved["data"]["state"])
        from starlette.concurrency import run_in_threadpool
        session = await run_in_threadpool(store.create, build)
        return send(session, "load", await locked(session, lambda: (session.advance(), session.payload())[1]))

    @api
    async def download(request: Request) -> Response:
        session = store.get(request.path_params["game"])

        def work():
            if not session.table.over:
                raise ApiError(409, "a game is downloaded once it is over (its save holds the "
                                    "dice and the opponent's cards)")
            return session.saved()
        data = await locked(session, work)
        return Response(json.dumps(data), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="dugout-{session.env_id}-{session.id}.json"'})

    @api
    async def replay(request: Request) -> Response:
        session = store.get(request.path_params["game"])
        text = request.path_params["step"]
        try:
            step = int(text)
        except ValueError:
            raise ApiError(400, f"step must be a whole number, got {text!r}") from None
        return send(session, "replay", await locked(session, lambda: session.replay(step)))

    @api
    async def gif(request: Request) -> Response:
        session = store.get(request.path_params["game"])
        data = await locked(session, session.gif)
        return Response(data, media_type="image/gif", headers={
            "Content-Disposition": f'attachment; filename="dugout-{session.env_id}-{session.id}.gif"'})

    async def not_found(request: Request) -> Response:
        return _error(404, f"no such API path: {request.method} {request.url.path}")

    routes = [
        Route("/", index),
        Route("/game", game_page),
        Route("/api/rulesets", list_rulesets),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game}", get_game),
        Route("/api/games/{game}/action", act, methods=["POST"]),
        Route("/api/games/{game}/hint", hint, methods=["POST"]),
        Route("/api/games/{game}/analysis", analysis, methods=["POST"]),
        Route("/api/games/{game}/save", save, methods=["POST"]),
        Route("/api/games/{game}/download", download),
        Route("/api/games/{game}/replay/{step}", replay),
        Route("/api/games/{game}/gif", gif),
        Route("/api/saves", list_saves),
        Route("/api/saves", upload, methods=["POST"]),
        Route("/api/saves/{save}/load", load, methods=["POST"]),
        Route("/api/{rest:path}", not_found, methods=["GET", "POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.sessions = store
    return app
