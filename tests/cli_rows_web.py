"""The bad-argument table's explicit rows for ``dugout play`` (what the shared types cannot
generate: an address this machine cannot listen on, a port another server holds)."""

from __future__ import annotations

import socket
from pathlib import Path

from cli_table import Row

#: Sockets the rows hold open while their command runs (a port in use).
_HELD: list[socket.socket] = []
#: The port the row finds in use: a fixed number, so that every test process collects the
#: same row (pytest-xdist's workers must agree on the test ids).
PORT_IN_USE = 47613


def _hold_a_port(tmp: Path) -> None:
    """A fixture: :data:`PORT_IN_USE` of 127.0.0.1 held by a listening socket (already held,
    by another test process or another program, it is in use all the same)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", PORT_IN_USE))
        sock.listen(1)
    except OSError:
        sock.close()
        return
    _HELD.append(sock)


ROWS: list[Row] = [
    Row("play", ("--host", "no-such-host.invalid"), "--host", "not an address of this machine"),
    Row("play", ("--host", "192.0.2.1"), "--host", "cannot listen on 192.0.2.1"),
    Row("play", ("--port", str(PORT_IN_USE)), "--port", "cannot listen on 127.0.0.1 port",
        _hold_a_port),
]
