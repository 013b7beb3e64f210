"""The web app's HTTP API (``dugout play``), through Starlette's TestClient.

* Every bad request (an illegal action, a stale decision, a malformed body, an unknown game
  id, an unknown manager, ruleset or option, not your turn...) gets a 4xx JSON error naming
  what was wrong, and changes nothing: the game's engine state, its decision counter and
  the next payload are the same afterwards.
* Two sessions are independent: games played side by side, and at the same time from two
  threads, each end as its own engine says.
* The twin test: at decisions of every ruleset, the game's engine state is swapped for a
  *twin* that shows the seat the same view but differs in what the seat may not see (the
  dice to come, i.e. the seed; the opponent's hand and the deck order in Grand Slam and
  Showdown's expert game; the pitch the pitcher committed in Bottom of the 9th; the Pitcher
  deck's order in the Manager Challenge). Every payload the server would send must be the
  same for both: nothing of the hidden information reaches the browser.

:func:`twin_state` and :func:`hidden_keys` are shared with ``tests/test_web_browser.py``.
"""

from __future__ import annotations

import json
import random
import threading

import numpy as np
import pytest
from starlette.testclient import TestClient

import helpers
from dugout.envs.core.dice import Dice
from dugout.web import session as web_session
from dugout.web.app import create_app

#: Keys that would carry the engine's hidden information; no payload has them.
FORBIDDEN_KEYS = frozenset({"state", "seed", "dice", "deck", "decks", "hands", "secret",
                            "stacks", "runner_cards", "pile", "drawn"})

#: One short game of every ruleset (and the Manager Challenge), with the opponent the tests use.
GAMES = [
    ("thats_baseball_v0", {"innings": 1}),
    ("grand_slam_v0", {"innings": 1}),
    ("showdown_v0", {"innings": 1}),
    ("showdown_v0", {"innings": 1, "level": "expert"}),
    ("bottom_ninth_v0", {}),
    ("pokemon_baseball_v0", {"innings": 1}),
    ("manager_challenge_v0", {}),
]


def _id(case) -> str:
    env_id, options = case
    return env_id + "".join(f"-{k}={v}" for k, v in options.items())


# -- the twins ------------------------------------------------------------------------------------
def hidden_keys(data, path: str = "") -> list[str]:
    """The paths of every key of ``data`` (a payload) named in :data:`FORBIDDEN_KEYS`."""
    found = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k in FORBIDDEN_KEYS:
                found.append(f"{path}/{k}")
            found += hidden_keys(v, f"{path}/{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found += hidden_keys(v, f"{path}/{i}")
    return found


def _swap_cards(env_id: str, state, twin, seat: int, table) -> None:
    """Give ``twin`` other hidden cards, drawn from a world consistent with ``seat``'s view."""
    import importlib
    if env_id not in ("grand_slam_v0", "showdown_v0"):
        return
    if env_id == "showdown_v0" and state.level != "expert":
        return
    sample = importlib.import_module(f"dugout.envs.{env_id.removesuffix('_v0')}.sample")
    view = table.unwrapped.view(("away", "home")[seat])
    world = sample.sample_state(view, random.Random(7), table.unwrapped.public_setup())
    other = 1 - seat
    twin.hands[other] = list(world.hands[other])
    if env_id == "grand_slam_v0":
        twin.deck = list(world.deck)
        twin.stacks = [list(s) for s in world.stacks]
    else:
        twin.decks = [list(d) for d in world.decks]


def twin_state(table, seat: str, rng: random.Random):
    """A twin of ``table``'s game for ``seat``: a copy with other dice to come and, where the
    ruleset hides them, other hidden cards or another committed pitch; the same view."""
    u = table.unwrapped
    if table.solo:
        twin = u.campaign.clone()
        twin.dice = Dice(rng.randrange(2**32))
        twin.game.dice = Dice(rng.randrange(2**32))
        rng.shuffle(twin.game.deck)
        return twin
    state = u.state_
    twin = state.clone()
    twin.dice = Dice(rng.randrange(2**32))
    index = ("away", "home").index(seat)
    _swap_cards(table.env_id, state, twin, index, table)
    if table.env_id == "bottom_ninth_v0" and state.secret >= 0 and state.pending is not None \
            and state.pending.actor == index:
        from dugout.envs.bottom_ninth import rules
        others = [p for p in rules.legal_pitches(twin) if p != state.secret]
        if others:
            twin.secret = rng.choice(others)
    return twin


def _install(table, state) -> None:
    if table.solo:
        table.unwrapped.campaign = state
    else:
        table.unwrapped.state_ = state


def _current(table):
    return table.unwrapped.campaign if table.solo else table.unwrapped.state_


def check_twin(session, rng: random.Random) -> bool:
    """The session's payload with its game and with a twin of it are the same (and the twin
    really differs); whether the twin differed."""
    table, seat = session.table, session.viewer
    live = _current(table)
    mine = session.payload()
    twin = twin_state(table, seat, rng)
    differs = helpers.dumps(twin) != helpers.dumps(live)
    _install(table, twin)
    try:
        assert table.view(seat) == session.table.view(seat)
        theirs = session.payload()
    finally:
        _install(table, live)
    assert json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True)
    return differs


# -- the client -----------------------------------------------------------------------------------
@pytest.fixture()
def app():
    return create_app()


@pytest.fixture()
def client(app):
    return TestClient(app)


def _players(env_id: str, me: str = "home", opponent: str = "random") -> dict[str, str]:
    if env_id == "manager_challenge_v0":
        return {"manager": "you"}
    return {me: "you", ("away" if me == "home" else "home"): opponent}


def new_game(client, env_id="thats_baseball_v0", options=None, players=None, delay=0, **more):
    body = {"env": env_id, "options": {"innings": 1} if options is None else options,
            "players": players or _players(env_id), "delay": delay, **more}
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def play(client, payload, rng, most=10_000) -> dict:
    """Play random legal options until the game ends; the last payload."""
    for _ in range(most):
        if payload["over"]:
            return payload
        if payload["your_turn"]:
            action = rng.choice(payload["decision"]["options"])["action"]
            response = client.post(f"/api/games/{payload['game']}/action",
                                   json={"decision": payload["decision_number"], "action": action})
            assert response.status_code == 200, response.text
            payload = response.json()
        else:
            payload = client.get(f"/api/games/{payload['game']}").json()
    raise AssertionError("the game did not end")


def _snapshot(app, game_id):
    session = app.state.sessions.get(game_id)
    return (session.number, helpers.dumps(_current(session.table)),
            json.dumps(session.payload(), sort_keys=True))


# -- bad requests ---------------------------------------------------------------------------------
def _bad_requests(game):
    gid, n = game["game"], game["decision_number"]
    legal = {o["action"] for o in game["decision"]["options"]}
    illegal = next(a for a in range(200) if a not in legal)
    action = f"/api/games/{gid}/action"
    return [
        ("illegal action", "POST", action, {"decision": n, "action": illegal}, 422, "illegal action"),
        ("negative action", "POST", action, {"decision": n, "action": -1}, 422, "illegal action"),
        ("stale decision", "POST", action, {"decision": n - 1, "action": min(legal)}, 409, "stale decision"),
        ("future decision", "POST", action, {"decision": n + 5, "action": min(legal)}, 409, "stale decision"),
        ("text action", "POST", action, {"decision": n, "action": "1"}, 400, "action must be a whole number"),
        ("bool action", "POST", action, {"decision": n, "action": True}, 400, "action must be a whole number"),
        ("float decision", "POST", action, {"decision": float(n), "action": min(legal)}, 400,
         "decision must be a whole number"),
        ("no decision", "POST", action, {"action": min(legal)}, 400, "needs 'decision'"),
        ("unknown field", "POST", action, {"decision": n, "action": min(legal), "cheat": 1}, 400,
         "unknown field 'cheat'"),
        ("malformed JSON", "POST", action, b'{"decision": ', 400, "not valid JSON"),
        ("not an object", "POST", action, b"[1, 2]", 400, "must be a JSON object"),
        ("unknown game", "POST", "/api/games/nope/action", {"decision": n, "action": min(legal)}, 404,
         "unknown game id 'nope'"),
        ("unknown game state", "GET", "/api/games/nope", None, 404, "unknown game id"),
        ("stale hint", "POST", f"/api/games/{gid}/hint", {"decision": n + 1}, 409, "stale decision"),
        ("analysis too soon", "POST", f"/api/games/{gid}/analysis", {}, 409, "after the game"),
        ("replay too soon", "GET", f"/api/games/{gid}/replay/0", None, 409, "once it is over"),
        ("download too soon", "GET", f"/api/games/{gid}/download", None, 409, "once it is over"),
        ("gif too soon", "GET", f"/api/games/{gid}/gif", None, 409, "once it is over"),
        ("unknown path", "GET", f"/api/games/{gid}/nothing/here", None, 404, "no such API path"),
    ]


def _send(client, method, path, body):
    if method == "GET":
        return client.get(path)
    if isinstance(body, bytes):
        return client.post(path, content=body, headers={"content-type": "application/json"})
    return client.post(path, json=body)


def test_every_bad_request_is_refused_by_name_and_changes_nothing(app, client):
    game = new_game(client, "grand_slam_v0", players={"away": "random", "home": "you"})
    while not game["your_turn"]:
        game = client.get(f"/api/games/{game['game']}").json()
    before = _snapshot(app, game["game"])
    for name, method, path, body, status, says in _bad_requests(game):
        response = _send(client, method, path, body)
        assert response.status_code == status, (name, response.text)
        assert says in response.json()["error"], (name, response.json())
        assert _snapshot(app, game["game"]) == before, name


def test_not_your_turn_and_a_watched_game_refuse_actions(app, client, monkeypatch):
    # the away manager is due only after a minute: the page's seat (home) must wait. The seed is
    # one whose first decision is away's: in about one game in 30 the top half offers away no
    # choice at all, and the first decision is home's
    monkeypatch.setattr(web_session, "_pick_seed", lambda: 0)
    game = new_game(client, players={"away": "heuristic", "home": "you"}, delay=60)
    assert game["to_act"] == "away" and not game["your_turn"] and game["decision"] is None
    before = _snapshot(app, game["game"])
    response = client.post(f"/api/games/{game['game']}/action",
                           json={"decision": game["decision_number"], "action": 0})
    assert response.status_code == 409 and "not your turn" in response.json()["error"]
    assert _snapshot(app, game["game"]) == before
    watched = new_game(client, players={"away": "random", "home": "heuristic"}, seat="away", delay=60)
    assert watched["mode"] == "watch"
    response = client.post(f"/api/games/{watched['game']}/action",
                           json={"decision": watched["decision_number"], "action": 0})
    assert response.status_code == 409 and "watched" in response.json()["error"]


@pytest.mark.parametrize("body, says", [
    ({"env": "nope_v0", "players": {"away": "you", "home": "random"}}, "unknown ruleset 'nope_v0'"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "nobody"}}, "unknown agent 'nobody'"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "search:sims=0"}}, "sims must be"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "ppo:/no/such/run"}}, "manager for home"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "random"}, "options": {"nope": 1}},
     "no option 'nope'"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "random"}, "options": {"innings": 0}},
     "innings"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "random"},
      "options": {"render_agent": "spectator"}}, "the server sets it itself"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "random"}, "options": [1]},
     "options must be a JSON object"),
    ({"env": "grand_slam_v0", "players": {"away": "you"}}, "players must name every seat"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "you"}}, "a person plays one seat"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "random"}, "seat": "home"},
     "a person plays one seat"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "random"}, "delay": -1}, "delay must be"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "random"}, "search": "heuristic"},
     "need the search manager"),
    ({"env": "grand_slam_v0", "players": "you"}, "players must be an object"),
    ({"env": "grand_slam_v0", "players": {"away": "you", "home": "random"}, "speed": 1},
     "unknown field 'speed'"),
], ids=lambda x: x if isinstance(x, str) else None)
def test_a_bad_new_game_is_refused_by_name_and_makes_no_game(app, client, body, says):
    response = client.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert says in response.json()["error"]
    assert len(app.state.sessions) == 0


# -- sessions -------------------------------------------------------------------------------------
def _engine_box(app, game_id):
    session = app.state.sessions.get(game_id)
    return json.loads(json.dumps(session.table.box_score()))


def test_two_sessions_side_by_side_are_independent(app, client):
    a = new_game(client, "thats_baseball_v0", players={"away": "you", "home": "random"})
    b = new_game(client, "grand_slam_v0", players={"away": "random", "home": "you"})
    assert a["game"] != b["game"]
    rng = random.Random(3)
    while not (a["over"] and b["over"]):
        for name in ("a", "b"):
            game = a if name == "a" else b
            if game["over"]:
                continue
            other = b if name == "a" else a
            other_before = _snapshot(app, other["game"])
            game = _one_step(client, game, rng)
            assert _snapshot(app, other["game"]) == other_before
            if name == "a":
                a = game
            else:
                b = game
    for game in (a, b):
        assert game["box_score"] == _engine_box(app, game["game"])


def _one_step(client, game, rng):
    if game["your_turn"]:
        action = rng.choice(game["decision"]["options"])["action"]
        response = client.post(f"/api/games/{game['game']}/action",
                               json={"decision": game["decision_number"], "action": action})
        assert response.status_code == 200, response.text
        return response.json()
    return client.get(f"/api/games/{game['game']}").json()


def test_two_sessions_played_at_the_same_time_end_as_their_engines_say(app):
    results, errors = {}, []

    def player(name, env_id, seed):
        try:
            client = TestClient(app)
            game = new_game(client, env_id, players={"away": "you", "home": "random"})
            results[name] = play(client, game, random.Random(seed))
        except BaseException as error:      # noqa: BLE001 (reported below)
            errors.append(error)

    threads = [threading.Thread(target=player, args=(n, e, s)) for n, e, s in
               (("one", "pokemon_baseball_v0", 1), ("two", "pokemon_baseball_v0", 2))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert results["one"]["game"] != results["two"]["game"]
    for game in results.values():
        assert game["over"]
        assert game["box_score"] == _engine_box(app, game["game"])
        session = app.state.sessions.get(game["game"])
        assert game["result"]["score"] == [int(x) for x in session.table.unwrapped.state_.score]


# -- what the browser may see ---------------------------------------------------------------------
@pytest.mark.parametrize("case", GAMES, ids=_id)
def test_twins_give_the_same_payloads(app, client, case, monkeypatch):
    """At every decision of the person's seat (and a sample of the opponent's moves), the
    payload is the same for the game and for its twin, and names no hidden key."""
    env_id, options = case
    seed = 3_141_592_653
    monkeypatch.setattr(web_session, "_pick_seed", lambda: seed)
    rng = random.Random(11)
    game = new_game(client, env_id, options, players=_players(env_id, "home"), delay=60)
    session = app.state.sessions.get(game["game"])
    differed = checked = 0
    while not session.table.over and checked < helpers.games(400, 12):
        with session.lock:
            differed += check_twin(session, rng)
            payload = session.payload()
        checked += 1
        assert not hidden_keys(payload), hidden_keys(payload)
        assert str(seed) not in json.dumps(payload)
        to_act = session.table.to_act()
        if to_act == session.viewer:
            choice = rng.choice(payload["decision"]["options"])["action"]
            session.act(payload["decision_number"], choice)
        else:
            session.next_move_at = 0
            session.advance(budget=0)
    assert checked and differed == checked


def test_a_watched_game_shows_the_chosen_seat_only(app, client):
    game = new_game(client, "grand_slam_v0", players={"away": "random", "home": "heuristic"},
                    seat="home")
    assert game["mode"] == "watch" and game["seat"] == "home"
    session = app.state.sessions.get(game["game"])
    rng = random.Random(5)
    while not game["over"]:
        with session.lock:
            if not session.table.over:
                assert check_twin(session, rng)
        game = client.get(f"/api/games/{game['game']}").json()
    assert game["box_score"] == _engine_box(app, game["game"])


def test_the_opponents_choices_are_not_labelled(app, client):
    game = new_game(client, "bottom_ninth_v0", {}, players={"away": "heuristic", "home": "you"})
    game = play(client, game, random.Random(2))
    theirs = [m for m in game["moves"] if m["seat"] == "away"]
    mine = [m for m in game["moves"] if m["seat"] == "home"]
    assert theirs and mine
    assert all(m["label"] == "" for m in theirs) and all(m["label"] for m in mine)


# -- hints, analysis, save and load, replay and GIF -----------------------------------------------
def test_a_hint_prices_every_legal_option_from_the_view(app, client):
    game = new_game(client, "grand_slam_v0", players={"away": "you", "home": "heuristic"},
                    search="search:sims=2,batch=1")
    while not game["over"] and len(game["decision"]["options"]) < 2:
        game = _one_step(client, game, random.Random(1))
    response = client.post(f"/api/games/{game['game']}/hint", json={"decision": game["decision_number"]})
    assert response.status_code == 200, response.text
    hint = response.json()
    assert [o["action"] for o in hint["options"]] == [o["action"] for o in game["decision"]["options"]]
    assert all(0 <= o["win"] <= 1 for o in hint["options"]) and hint["worlds"] == 2
    assert hint["best"] in {o["action"] for o in hint["options"]}


def test_after_the_game_analysis_replay_download_and_gif(app, client):
    game = new_game(client, "grand_slam_v0", players={"away": "you", "home": "random"},
                    search="search:sims=2,batch=1")
    game = play(client, game, random.Random(4))
    gid = game["game"]
    analysis = client.post(f"/api/games/{gid}/analysis", json={}).json()
    mine = [m for m in game["moves"] if m["seat"] == "away"]
    session = app.state.sessions.get(gid)
    assert analysis["decisions"] == sum(1 for m in session.history if m.seat == "away" and m.legal > 1)
    assert analysis["curve"][-1] == [game["decision_number"], 1.0 if game["result"]["winner"] == "away" else 0.0]
    assert all(r["cost"] >= 0 for r in analysis["records"]) and len(mine) >= analysis["decisions"]
    last = client.get(f"/api/games/{gid}/replay/{game['decision_number']}").json()
    assert last["picture"] == game["picture"] and last["box_score"] == game["box_score"]
    first = client.get(f"/api/games/{gid}/replay/0").json()
    assert first["picture"]["runs"] == [0, 0] and first["move"] is None
    bad = client.get(f"/api/games/{gid}/replay/{game['decision_number'] + 1}")
    assert bad.status_code == 400 and "step must be" in bad.json()["error"]
    saved = client.get(f"/api/games/{gid}/download")
    assert saved.status_code == 200 and saved.json()["env"] == "grand_slam_v0"
    gif = client.get(f"/api/games/{gid}/gif")
    assert gif.status_code == 200 and gif.content[:6] in (b"GIF89a", b"GIF87a")


def test_a_saved_game_loads_into_a_new_session_at_the_same_position(app, client):
    game = new_game(client, "grand_slam_v0", {"innings": 3},
                    players={"away": "you", "home": "random"})
    rng = random.Random(8)
    for _ in range(3):                  # three of my moves, and the opponent's between them
        game = _one_step(client, game, rng)
        while not game["your_turn"]:
            game = _one_step(client, game, rng)
    assert game["decision_number"] >= 3 and not game["over"]
    entry = client.post(f"/api/games/{game['game']}/save", json={"name": "mine"}).json()
    assert entry["name"] == "mine" and "state" not in json.dumps(client.get("/api/saves").json())
    loaded = client.post(f"/api/saves/{entry['id']}/load", json={}).json()
    assert loaded["game"] != game["game"] and loaded["decision_number"] == 0
    for key in ("picture", "view", "box_score", "scorecard", "decision"):
        assert loaded[key] == game[key], key
    assert client.post("/api/saves/nope/load", json={}).status_code == 404
    moved = _one_step(client, loaded, rng)
    assert moved["decision_number"] > 0 and moved["game"] == loaded["game"]


def test_the_rulesets_listing_offers_every_ruleset_its_options_and_managers(client):
    rulesets = {r["id"]: r for r in client.get("/api/rulesets").json()["rulesets"]}
    assert set(rulesets) >= {e for e, _ in GAMES}
    assert "heuristic" in rulesets["grand_slam_v0"]["managers"]
    assert "search" in rulesets["manager_challenge_v0"]["managers"]
    names = {o["name"] for o in rulesets["showdown_v0"]["options"]}
    assert {"level", "innings", "teams"} <= names and not names & set(web_session.RESERVED)
    assert rulesets["manager_challenge_v0"]["seats"] == ["manager"]


def test_the_pages_and_their_assets_are_served_locally(client):
    for path in ("/", "/game", "/static/app.js", "/static/game.js", "/static/style.css"):
        response = client.get(path)
        assert response.status_code == 200, path
        text = response.text.replace("http://www.w3.org/2000/svg", "")   # SVG's namespace name
        assert "http://" not in text and "https://" not in text, path


def test_a_downloaded_game_uploads_and_loads_again(app, client):
    """A finished game's file (its download) is kept again by POST /api/saves (checked by
    loading it) and loads at its end; a body that is not such a file, or a state that does
    not load, is a 400 and keeps nothing."""
    game = play(client, new_game(client, "thats_baseball_v0"), random.Random(6))
    file = client.get(f"/api/games/{game['game']}/download").json()
    before = client.get("/api/saves").json()["saves"]
    broken = json.loads(json.dumps(file))
    broken["state"]["board"]["outs"] = 7
    for body, says in (({"save": {"env": "thats_baseball_v0"}}, "save must be"),
                       ({"save": file, "name": 5}, "name must be"),
                       ({"save": file, "extra": 1}, "unknown field 'extra'"),
                       ({"save": {**file, "env": "cricket_v0"}}, "cricket_v0"),
                       ({"save": broken}, "does not load")):
        response = client.post("/api/saves", json=body)
        assert response.status_code == 400 and says in response.json()["error"], response.text
        assert client.get("/api/saves").json()["saves"] == before
    entry = client.post("/api/saves", json={"save": file, "name": "from disk"}).json()
    assert entry["name"] == "from disk" and entry["env"] == "thats_baseball_v0"
    assert client.get("/api/saves").json()["saves"] == before + [entry]
    loaded = client.post(f"/api/saves/{entry['id']}/load", json={}).json()
    assert loaded["over"] and loaded["box_score"] == game["box_score"]
    assert loaded["result"] == game["result"]
