"""``dugout play``: the local web app, to play any ruleset against any manager in a browser,
watch two managers play, and analyse a game afterwards.

    dugout play                         serve on 127.0.0.1, a free port, and open the browser
    dugout play --port 8000 --no-browser

The server binds to 127.0.0.1 by default (this machine only) and says where it listens. It
needs the ``web`` extra (``pip install 'dugout-baseball[web]'``: Starlette and uvicorn).
``--host 0.0.0.0`` serves other machines too: anyone who reaches the port can start games
and play them (there are no accounts), so do so only on a network you trust.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
import threading
from typing import Any

from ..cli import args

__all__ = ["configure", "check", "run", "host", "serve"]

INSTALL_HINT = "pip install 'dugout-baseball[web]'"


def _host(text: str) -> str:
    value = text.strip()
    rule = "a host name or IP address to listen on (e.g. 127.0.0.1, localhost, 0.0.0.0)"
    if not value or any(c.isspace() for c in value) or "/" in value or \
            (value.count(":") == 1 and not value.startswith("[")):
        raise argparse.ArgumentTypeError(f"must be {rule}, got {text!r}")
    try:
        ipaddress.ip_address(value.strip("[]"))
        return value.strip("[]")
    except ValueError:
        pass
    labels = value.rstrip(".").split(".")
    if not all(label and len(label) <= 63 and label.replace("-", "").isalnum()
               and not label.startswith("-") for label in labels):
        raise argparse.ArgumentTypeError(f"must be {rule}, got {text!r}")
    return value


#: The address to listen on: an IP address or a host name (no scheme, no port).
host = args.ArgType("host", _host, bad=["", "http://127.0.0.1", "127.0.0.1:8000", "a b", "bad_host!"],
                    limit="a host name or IP address")


def configure(parser: args.Parser) -> None:
    """``dugout play``'s flags."""
    parser.add_argument("--host", type=host, default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only; "
                             "0.0.0.0 serves every network this machine is on)")
    parser.add_argument("--port", type=args.integer(0, 65535, "a TCP port; 0 for a free one"),
                        default=0, help="the port to listen on (default 0: a free port)")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open the browser; print the address only")


def check(ns: argparse.Namespace) -> None:
    """Starlette and uvicorn are installed, and the address can be listened on (bound for a
    moment and let go), before the server starts."""
    import importlib.util
    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise args.UsageError("--host", f"dugout play needs {' and '.join(missing)}, not installed "
                                        f"here: {INSTALL_HINT}")
    try:
        infos = socket.getaddrinfo(ns.host, ns.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise args.UsageError("--host", f"--host {ns.host}: not an address of this machine "
                                        f"({error})") from None
    family, _, _, _, address = infos[0]
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind(address)
    except OSError as error:
        flag = "--port" if error.errno in (98, 48, 10048, 13) and ns.port else "--host"
        raise args.UsageError(flag, f"{flag} {ns.host if flag == '--host' else ns.port}: cannot "
                                    f"listen on {ns.host} port {ns.port}: {error.strerror or error}") from None
    ns.family = family


def _listen(host_name: str, port: int, family: int) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host_name, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(host_name: str, port: int) -> str:
    """The address a browser opens for a server listening on ``host_name``, ``port``."""
    shown = "127.0.0.1" if host_name in ("0.0.0.0", "") else ("[::1]" if host_name == "::" else host_name)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _loopback(host_name: str) -> bool:
    try:
        return ipaddress.ip_address(host_name).is_loopback
    except ValueError:
        return host_name == "localhost"


def serve(host_name: str = "127.0.0.1", port: int = 0, open_browser: bool = False,
          family: int = socket.AF_INET, app: Any = None, log=print, ready=None) -> None:
    """Serve the web app (``app``, default :func:`dugout.web.app.create_app`'s) on
    ``host_name``:``port`` (0: a free port) until interrupted; ``ready(url)`` is called once
    it listens."""
    import uvicorn

    from .app import create_app
    sock = _listen(host_name, port, family)
    port = sock.getsockname()[1]
    url = url_of(host_name, port)
    where = ("this machine only" if _loopback(host_name) else
             "every network this machine is on: anyone who reaches it can play")
    log(f"dugout play: listening on {host_name} port {port} ({where}); open {url}")
    config = uvicorn.Config(app or create_app(), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)

    def started() -> None:
        import time
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if ready is not None:
            ready(url)
        if open_browser:
            import webbrowser
            webbrowser.open(url)

    threading.Thread(target=started, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


def run(ns: argparse.Namespace) -> None:
    """Serve until Ctrl-C."""
    try:
        serve(ns.host, ns.port, not ns.no_browser, getattr(ns, "family", socket.AF_INET),
              log=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        print("dugout play: stopped", file=sys.stderr)
