"""A Ray cluster's address, checked before Ray is asked to join it: what the tournaments'
ray backend (:mod:`dugout.evaluate.backends`) and RLlib training (:mod:`dugout.train.rllib`)
both do first. It imports no Ray.

``ray.init`` waits minutes for a head node that is not there; a TCP connection to the
address says so in seconds.
"""

from __future__ import annotations

import os
import socket

__all__ = ["host_port", "check_reachable"]


def host_port(address: str, error: type[Exception] = ValueError,
              what: str = "address") -> tuple[str, int] | None:
    """(host, port) of ``HOST:PORT`` or ``ray://HOST:PORT``; None for ``auto`` and ``local``
    (Ray finds those itself); ``error`` (named ``what``) for anything else."""
    if address in ("auto", "local"):
        return None
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")                      # [::1]:6379
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise error(f"{what} {address!r}: expected HOST:PORT (what `ray start --head` prints, "
                    f"e.g. 10.0.0.5:6379), ray://HOST:PORT or auto")
    return host, int(port)


def check_reachable(address: str, timeout: float = 10.0, error: type[Exception] = ValueError,
                    what: str = "address") -> None:
    """A TCP connection to the cluster's address, or ``error`` saying nobody answers there.
    ``auto`` follows ``RAY_ADDRESS`` when it is set (as ``ray.init`` does), so that is checked."""
    shown = address
    if address == "auto" and os.environ.get("RAY_ADDRESS", "").strip():
        shown = os.environ["RAY_ADDRESS"].strip()
        try:
            target = host_port(shown, error, what)
        except error:                            # not HOST:PORT: Ray reads it itself
            return
        shown = f"{shown} (RAY_ADDRESS, which --address auto follows)"
    else:
        target = host_port(address, error, what)
    if target is None:
        return
    try:
        socket.create_connection(target, timeout=timeout).close()
    except OSError as e:
        reason = e.strerror or type(e).__name__
        if isinstance(e, socket.timeout):
            reason = f"no answer in {timeout:g} s"
        raise error(f"no Ray cluster answers at {shown} ({reason}): start one with "
                    f"`ray start --head` and give the address it prints, or check the "
                    f"address and the firewall") from None
