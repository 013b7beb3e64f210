"""Drive the web app in a real headless browser: the browser test's tools, and the docs'
screenshots.

    python -m dugout.web.screenshots docs/img        # docs/img/play-<ruleset>.png, one a ruleset

It starts the app (uvicorn, in a thread, on a free port of 127.0.0.1), starts Debian's
chromium through its chromedriver (selenium), and for each ruleset fills the start page,
starts a game against the random manager and clicks legal options until the game ends.
Chromium runs headless with a fresh profile and its background connections off (the
machine may have no internet). ``scripts/setup_browser.sh`` installs chromium and its driver
where they are missing.
"""

from __future__ import annotations

import random
import socket
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

__all__ = ["CHROMIUM", "CHROMEDRIVER", "SHORT_GAMES", "serving", "chromium", "start_game",
           "play_game", "read_box_score", "main"]

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: One short game of each ruleset (the options the browser test and the screenshots use),
#: each with decisions for the home seat to click (MLB Showdown's game is two innings: in
#: the one-inning game from the browser test's seed, the home manager had none to make)
SHORT_GAMES: dict[str, dict[str, Any]] = {
    "thats_baseball_v0": {"innings": 1},
    "grand_slam_v0": {"innings": 1},
    "showdown_v0": {"innings": 2},
    "bottom_ninth_v0": {},
    "pokemon_baseball_v0": {"innings": 1},
    "manager_challenge_v0": {},
}
_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--disable-dev-shm-usage", "--window-size=1500,1100")


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread on a free port of 127.0.0.1; yields its URL."""
    import uvicorn
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web app's server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless chromium driven by selenium, with a fresh profile (removed afterwards)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    with tempfile.TemporaryDirectory(prefix="dugout-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in _FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        driver.set_page_load_timeout(60)
        try:
            yield driver
        finally:
            driver.quit()


def _wait(driver, test: Callable[[Any], Any], seconds: float = 60, what: str = "") -> Any:
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, seconds, poll_frequency=0.02).until(test, what)


def start_game(driver, base: str, env_id: str, options: dict[str, Any], opponent: str = "random",
               seat: str = "home", delay: float = 0.0) -> str:
    """Fill the start page (ruleset, options, seat, opponent, pace) and start the game by
    clicking; the game's id, once its page shows it."""
    import json

    from selenium.webdriver.common.by import By
    driver.get(f"{base}/?env={env_id}")
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-option]")
          and d.find_element(By.ID, "env").get_attribute("value") == env_id, what="the start page")
    for name, value in options.items():
        field = driver.find_element(By.CSS_SELECTOR, f'[data-option="{name}"]')
        field.clear()
        field.send_keys(json.dumps(value))
    solo = not driver.find_element(By.CSS_SELECTOR, 'input[value="watch"]').is_enabled()
    if not solo:
        driver.find_element(By.CSS_SELECTOR, f'#seat option[value="{seat}"]').click()
        box = driver.find_element(By.ID, "opponent")
        box.clear()
        box.send_keys(opponent)
    pace = driver.find_element(By.ID, "delay")
    pace.clear()
    pace.send_keys(str(delay))
    driver.find_element(By.ID, "start").click()
    _wait(driver, lambda d: "/game?id=" in d.current_url and
          d.find_element(By.TAG_NAME, "body").get_attribute("data-decision") is not None,
          what="the game page")
    return driver.current_url.split("id=", 1)[1]


def play_game(driver, rng: random.Random, most: int = 5000,
              pause_at: int | None = None, on_pause: Callable[[], None] | None = None) -> int:
    """Click a random legal option button whenever the page offers a decision, until the
    game ends (the page says so); the number of clicks. ``on_pause()`` runs once, when the
    page first offers a decision after ``pause_at`` clicks (a screenshot)."""
    from selenium.webdriver.common.by import By
    clicks = 0
    body = driver.find_element(By.TAG_NAME, "body")
    for _ in range(most):
        state = _wait(driver, lambda d: (body.get_attribute("data-over") == "true" and "over") or
                      (body.get_attribute("data-your-turn") == "true" and
                       d.find_elements(By.CSS_SELECTOR, "button.option") and "turn"),
                      what="a decision or the end of the game")
        if state == "over":
            return clicks
        if pause_at is not None and clicks >= pause_at and on_pause is not None:
            on_pause()
            on_pause = None
        number = body.get_attribute("data-decision")
        buttons = driver.find_elements(By.CSS_SELECTOR, "button.option")
        rng.choice(buttons).click()
        clicks += 1
        _wait(driver, lambda d: body.get_attribute("data-decision") != number or
              body.get_attribute("data-over") == "true", what="the page to take the click")
    raise RuntimeError(f"the game did not end within {most} clicks")


def read_box_score(driver) -> dict[str, Any]:
    """The box score the page shows: the line score's rows and each team's batting rows, as
    the texts of their cells."""
    script = """
      const rows = (t) => t ? [...t.querySelectorAll('tr')].map(r => [...r.cells].map(c => c.textContent)) : null;
      return {line: rows(document.getElementById('box-line')),
              batting: [...document.querySelectorAll('#box-score table.batting')].map(rows)};
    """
    return driver.execute_script(script)


def main(argv: list[str] | None = None) -> int:
    """Write ``play-<ruleset>.png`` into the folder given (default ``docs/img``): a game page
    of each ruleset, a few decisions into a game against the heuristic."""
    from .app import create_app
    folder = Path((argv if argv is not None else sys.argv[1:] or ["docs/img"])[0])
    folder.mkdir(parents=True, exist_ok=True)
    with serving(create_app()) as base, chromium() as driver:
        for env_id, options in SHORT_GAMES.items():
            name = env_id.removesuffix("_v0")
            options = {**options, "innings": 3} if "innings" in options else options
            start_game(driver, base, env_id, options, opponent="heuristic")
            path = folder / f"play-{name}.png"
            play_game(driver, random.Random(1), pause_at=6,
                      on_pause=lambda p=path: driver.save_screenshot(str(p)))
            if not path.exists():
                driver.save_screenshot(str(path))
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
