"""``pachisi serve``: the web game's app on uvicorn.

:func:`serve` opens (and migrates) the database and binds the listening socket before
uvicorn starts, so that a bad database URL or a port in use is one clear
:class:`ServeError` or :class:`~pachisi.web.storage.StorageError` instead of a server that
dies while starting. uvicorn handles Ctrl-C: it closes the connections, the app stops its
games (every committed move is already stored), and the interrupt then reaches the caller.
"""

from __future__ import annotations

import gc
import socket
import sys
from typing import Final, TextIO

import uvicorn

from pachisi.web.app import create_app
from pachisi.web.protocol import MAX_MESSAGE_BYTES
from pachisi.web.storage import open_storage

__all__ = ["COMPUTER_DELAY", "ServeError", "serve"]

COMPUTER_DELAY: Final = 0.4
"""Seconds a computer seat waits before each throw or action, so that people can follow."""


class ServeError(Exception):
    """The server cannot start: the address cannot be listened on."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    *,
    out: TextIO | None = None,
    computer_delay: float = COMPUTER_DELAY,
) -> None:
    """Run the web game on ``host:port`` over ``database`` until interrupted."""
    storage = open_storage(database)
    try:
        listener = _listen(host, port)
    except ServeError:
        storage.close()
        raise
    try:
        app = create_app(storage, computer_delay=computer_delay)
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            lifespan="on",
            # Frames far over the protocol's limit are cut off by uvicorn itself; those
            # just over it get the protocol's own too_large error.
            ws_max_size=16 * MAX_MESSAGE_BYTES,
            # Compressing every update costs more CPU than it saves on loopback or LAN, and
            # a game's updates are small.
            ws_per_message_deflate=False,
        )
        shown_port = listener.getsockname()[1]
        shown_host = f"[{host}]" if ":" in host else host
        print(
            f"pachisi: serving on http://{shown_host}:{shown_port}/ (open it in a browser)",
            file=out or sys.stdout,
            flush=True,
        )
        # A full collection walks every object of every game in memory, which with
        # hundreds of games stalls all of them for tens of milliseconds: move what exists at
        # start-up out of the collector's sight and collect the old generations rarely (the
        # games' states are immutable tuples; reference counting frees almost everything).
        gc.freeze()
        gc.set_threshold(50_000, 50, 100)
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        listener.close()
        storage.close()


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (port 0: any free port)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ServeError(f"--host {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
    except OSError as exc:
        listener.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return listener
