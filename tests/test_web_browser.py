"""The web app through a real browser: the server (uvicorn, in a thread) and Debian's headless
chromium driven by selenium (``scripts/setup_browser.sh`` installs them; the test command
runs it).

For every ruleset (the Manager Challenge's six-game campaign in the full tier), a whole
short game is played from the start page: the ruleset and its options filled in, a seat
against the random manager, then a click on a random legal option button whenever the page
offers a decision, until the page says the game is over. Then:

* the box score the page shows (line score and batting lines) is the engine's;
* every payload the server sent the browser (recorded server-side as it was sent) names no
  hidden key nor the game's seed, and at the moment it was sent a twin of the game (other
  dice to come, other hidden cards or committed pitch: ``tests/test_web_http.py``) gave the
  same payload.
"""

from __future__ import annotations

import json
import random
import threading

import pytest

import helpers
from dugout.web import session as web_session
from dugout.web.app import create_app
from dugout.web.screenshots import (SHORT_GAMES, chromium, play_game, read_box_score, serving,
                                    start_game)
from test_web_http import check_twin, hidden_keys

SEED = 2_718_281_828
RULESETS = [e for e in SHORT_GAMES if e != "manager_challenge_v0" or helpers.FULL]


class Recorder:
    """Every payload the app sends, checked as it is sent (see the module docstring)."""

    def __init__(self):
        self.sent, self.problems, self.twins = 0, [], 0
        self.rng = random.Random(5)
        self.lock = threading.Lock()

    def __call__(self, session, path, payload) -> None:
        with self.lock, session.lock:
            self.sent += 1
            text = json.dumps(payload)
            if hidden_keys(payload):
                self.problems.append(f"{path}: hidden keys {hidden_keys(payload)}")
            if str(SEED) in text:
                self.problems.append(f"{path}: the seed")
            if path in ("state", "action", "create") and not session.table.over:
                try:
                    check_twin(session, self.rng)
                    self.twins += 1
                except AssertionError as error:
                    self.problems.append(f"{path} at decision {session.number}: {error}"[:300])


@pytest.fixture(scope="module")
def browser():
    recorder = Recorder()
    app = create_app(recorder=recorder)
    with serving(app) as base, chromium() as driver:
        yield base, driver, app, recorder


def _expected_box(box) -> dict:
    """The box score as the page lays it out: the cells' texts."""
    n = max(len(box["line_score"][0]), len(box["line_score"][1]), 1)
    line = [["", *map(str, range(1, n + 1)), "R", "H", "E"]]
    for t in (0, 1):
        runs = box["line_score"][t]
        line.append([box["teams"][t], *[str(runs[i]) if i < len(runs) else "" for i in range(n)],
                     str(box["runs"][t]), str(box["hits"][t]), str(box["errors"][t])])
    batting = []
    for lines in box.get("batting", []):
        if not lines:
            continue
        keys = [k for k in lines[0] if k != "name"]
        batting.append([["batter", *keys]] + [[b["name"], *[str(b[k]) for k in keys]] for b in lines])
    return {"line": line, "batting": batting}


@pytest.mark.parametrize("env_id", RULESETS)
def test_a_whole_game_in_the_browser(browser, env_id, monkeypatch):
    base, driver, app, recorder = browser
    monkeypatch.setattr(web_session, "_pick_seed", lambda: SEED)
    sent_before, twins_before = recorder.sent, recorder.twins
    game_id = start_game(driver, base, env_id, SHORT_GAMES[env_id], seat="home")
    clicks = play_game(driver, random.Random(env_id))
    session = app.state.sessions.get(game_id)
    assert session.table.over and session.seed == SEED
    assert clicks == sum(1 for m in session.history if m.seat == session.viewer)
    shown = read_box_score(driver)
    engine = json.loads(json.dumps(session.table.box_score()))
    assert shown == _expected_box(engine)
    assert recorder.sent > sent_before + clicks
    assert not recorder.problems, recorder.problems
    assert clicks > 0, "the home seat had no decision to click: a longer short game is needed"
    assert recorder.twins > twins_before          # this game's payloads, not an earlier game's
