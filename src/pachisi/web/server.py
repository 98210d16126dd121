"""``pachisi serve``: the web game's app on uvicorn.

:func:`serve` opens (and migrates) the database and binds the listening socket before
uvicorn starts, so that a bad database URL or a port in use is one clear
:class:`ServeError` or :class:`~pachisi.web.storage.StorageError` instead of a server that
dies while starting. uvicorn handles Ctrl-C: it closes the connections, the app stops its
games (every committed move is already stored), and the interrupt then reaches the caller.
SIGINT and SIGTERM stop it within :data:`STOP_SECONDS` whatever the computer seats are doing:
their decisions run in worker processes, which are killed, and open connections get
:data:`GRACE_SECONDS` to close.
"""

from __future__ import annotations

import gc
import socket
import sys
from typing import Final, TextIO

import uvicorn

from pachisi.web.app import create_app
from pachisi.web.protocol import MAX_MESSAGE_BYTES
from pachisi.web.settings import Settings
from pachisi.web.storage import open_storage

__all__ = ["COMPUTER_DELAY", "GRACE_SECONDS", "STOP_SECONDS", "ServeError", "serve"]

COMPUTER_DELAY: Final = 0.0
"""Seconds a computer seat waits before each throw or action: none, as the game page shows
the computers' steps at the pace its player chose (docs/web-client.md, "options")."""
GRACE_SECONDS: Final = 2
"""How long open connections get to close when the server stops."""
STOP_SECONDS: Final = 5
"""The most a stop takes (the grace, then the games' and workers' own stop)."""


class ServeError(Exception):
    """The server cannot start: the address cannot be listened on."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    *,
    out: TextIO | None = None,
    computer_delay: float = COMPUTER_DELAY,
    settings: Settings | None = None,
    proxy_headers: bool = False,
) -> None:
    """Run the web game on ``host:port`` over ``database`` until interrupted.

    ``proxy_headers``: the server runs behind proxies (``settings.trusted_proxies``, by
    default this machine), whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` it believes:
    the client's address for the limits, and https for secure cookies.
    """
    settings = settings if settings is not None else Settings()
    trusted = [str(network) for network in settings.trusted_proxies] or ["127.0.0.1", "::1"]
    storage = open_storage(database)
    try:
        listener = _listen(host, port)
    except ServeError:
        storage.close()
        raise
    try:
        app = create_app(storage, computer_delay=computer_delay, settings=settings)
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
            proxy_headers=proxy_headers,
            forwarded_allow_ips=trusted if proxy_headers else None,
            timeout_graceful_shutdown=GRACE_SECONDS,
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
