"""The bad-argument table's explicit rows for ``dugout play`` (what the shared types cannot
generate: an address this machine cannot listen on, a port another server holds)."""

from __future__ import annotations

import socket
from pathlib import Path

from cli_table import Row

#: Sockets the rows hold open while their command runs (a port in use).
_HELD: list[socket.socket] = []
PORT_IN_USE = []


def _hold_a_port(tmp: Path) -> None:
    """A fixture: a port of 127.0.0.1 held by a listening socket (its number in
    ``{tmp}/port``, read back by the row through :data:`PORT_IN_USE`)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", PORT_IN_USE[0]))
    sock.listen(1)
    _HELD.append(sock)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT_IN_USE.append(_free_port())

ROWS: list[Row] = [
    Row("play", ("--host", "no-such-host.invalid"), "--host", "not an address of this machine"),
    Row("play", ("--host", "192.0.2.1"), "--host", "cannot listen on 192.0.2.1"),
    Row("play", ("--port", str(PORT_IN_USE[0])), "--port", f"cannot listen on 127.0.0.1 port",
        _hold_a_port),
]
