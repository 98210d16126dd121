"""How a server hears of the other servers' changes: PostgreSQL's ``LISTEN``.

A server that stores a move, a claim or an abandonment sends a ``NOTIFY`` on
:data:`~pachisi.web.storage.CHANNEL` in the same transaction, so it reaches every listening
server once it is committed. Notifications are only hints: a server that hears one reads
what changed from the tables. A listening connection that is lost is opened again, and then
every game is caught up, since notifications sent meanwhile are gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Final

import psycopg

from pachisi.web.schema import CHANNEL

__all__ = ["Listener"]

log: Final = logging.getLogger("pachisi.web")

RECONNECT_SECONDS: Final = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Pauses between attempts to open the listening connection again, the last repeated."""


class Listener:
    """One ``LISTEN`` connection, calling ``heard(payload)`` for each notification and
    ``missed()`` after it had to reconnect."""

    def __init__(self, url: str, heard: Callable[[str], None], missed: Callable[[], None]) -> None:
        self._url = url
        self._heard = heard
        self._missed = missed
        self._task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        """Set once the server listens (cleared while it reconnects)."""

    async def start(self) -> None:
        """Listen, and return once listening (or after a first failed attempt)."""
        self._task = asyncio.create_task(self._run(), name="pachisi-listener")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), timeout=5.0)

    async def stop(self) -> None:
        """Stop listening."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        failures = 0
        connected_before = False
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self._url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    failures = 0
                    self.ready.set()
                    if connected_before:
                        self._missed()
                    connected_before = True
                    while True:
                        # In rounds of a second, each closed before the next: a generator
                        # left suspended when the task is cancelled would hold the
                        # connection's lock, and closing the connection would wait on it.
                        notifies = conn.notifies(timeout=1.0)
                        try:
                            async for notify in notifies:
                                self._heard(notify.payload)
                        finally:
                            await notifies.aclose()
            except (psycopg.Error, OSError) as exc:
                self.ready.clear()
                pause = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
                failures += 1
                log.warning("listening for other servers' moves: %s; again in %g s", exc, pause)
                await asyncio.sleep(pause)
