"""The one writer of the database: every storage call runs on a single worker thread, and
moves are committed in groups.

A game's room hands its move to :meth:`Writer.commit` and waits; the writer takes every
move waiting at that moment, from every game, and commits them in one transaction, then
wakes each waiting room. So a move is on disk before its update goes out (the room sends
nothing until ``commit`` returns), and a busy server pays for one commit per group instead
of one per move. Nothing runs on the event loop but the queueing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from pachisi.web.schema import MoveRow
from pachisi.web.storage import Storage

__all__ = ["MAX_GROUP", "Writer"]

MAX_GROUP: Final = 500
"""The most moves one transaction commits."""

_T = TypeVar("_T")
_Waiting = tuple[MoveRow, "asyncio.Future[None]"]


class Writer:
    """Runs storage calls on one thread and commits moves in groups (see the module)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pachisi-db")
        self._queue: asyncio.Queue[_Waiting] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.groups = 0
        """How many transactions have committed moves (for the benchmark and tests)."""

    def start(self) -> None:
        """Start committing; call from the running event loop."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="pachisi-writer")

    async def stop(self) -> None:
        """Commit what is waiting, then stop, and let the thread go."""
        if self._task is not None:
            while not self._queue.empty():
                await asyncio.sleep(0.01)
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._thread.shutdown(wait=True)

    async def call(self, function: Callable[..., _T], *args: object) -> _T:
        """Run a storage call on the database thread and return its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, function, *args)

    async def commit(self, row: MoveRow) -> None:
        """Return once ``row`` is committed; raise the storage's error if it could not be."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((row, future))
        await future

    async def _run(self) -> None:
        while True:
            group = [await self._queue.get()]
            while len(group) < MAX_GROUP and not self._queue.empty():
                group.append(self._queue.get_nowait())
            await self._commit_group(group)

    async def _commit_group(self, group: list[_Waiting]) -> None:
        try:
            await self.call(self.storage.commit_moves, [row for row, _ in group])
        except Exception as exc:
            if len(group) == 1:
                _settle(group[0][1], exc)
                return
            # One bad move must not fail the others: commit each on its own.
            for waiting in group:
                await self._commit_group([waiting])
            return
        self.groups += 1
        for _, future in group:
            _settle(future, None)


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    if future.done():  # its room gave up waiting (the server is stopping)
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
