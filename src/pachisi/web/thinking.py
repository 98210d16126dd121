"""Computer players' thinking in a bounded pool of worker processes, with a hard time limit.

The web service asks a :class:`ThinkingPool` for computer seats' decisions and for hints:
a thread cannot be stopped, so a player with a huge budget (``mcts:10000000``) on one held
the server's memory, its other games and its shutdown hostage; a process can be killed. A
request waits for one of ``workers`` processes (a decision however long the queue, a hint
while fewer than ``queue`` wait); past ``seconds`` of thinking its worker is replaced. The
event loop never blocks: replies are read once readable, and processes reaped by polling.
Workers are spawned, so they import the server's main module: its start must be under
``if __name__ == "__main__"``, as in pachisi's entry points.

Game reviews (:mod:`pachisi.review`) run here too, a chunk of steps per request
(:meth:`ThinkingPool.judge`), at a lower priority: a chunk takes a worker only when no
decision or hint waits for one, so a live game's computer waits at most for one chunk.

>>> ThinkingPool(workers=3).stats
{'workers': 3, 'busy': 0, 'waiting': 0, 'restarts': 0, 'timeouts': 0}
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import multiprocessing
import os
import pickle
import random
import signal
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from pachisi.ai.bots import Bot
    from pachisi.ai.ranked import Ranked
    from pachisi.review import Task, Verdict
    from pachisi.rules.actions import Action
    from pachisi.rules.state import State

__all__ = ["PoolBusy", "PoolClosed", "ThinkTimeout", "ThinkingPool"]

log: Final = logging.getLogger("pachisi.web")

# Spawned, not forked: the server has threads (the writer's, the thread pool's), and a fork
# copies a lock one of them may hold, to be waited on for ever in the child.
_CONTEXT: Final = multiprocessing.get_context("spawn")

BOOT_SECONDS: Final = 60.0  # to start and import the players: 0.3 s on a quiet machine
GRACE_SECONDS: Final = 0.2  # from SIGTERM to SIGKILL when the pool closes
WARMED_UP: Final = frozenset(("easy", "medium", "hard", "expert"))
"""The players whose first use in a worker is warmed up untimed (see :func:`_warm_up`)."""
WARM_UP_SECONDS: Final = 1800.0
"""The most a warm-up may take: on a fresh install it compiles the fast engine (minutes)."""
PLAYERS_KEPT: Final = 32  # players a worker keeps made; a client may name any number
REVIEW_LEVEL: Final = "expert"
"""The level whose engine a review's judgement searches with (warmed up like a decision's)."""


class ThinkTimeout(Exception):
    """The decision ran past the limit; its worker was killed and replaced."""


class PoolBusy(Exception):
    """Too many requests wait for a worker already (hints only: a decision always waits)."""


class PoolClosed(Exception):
    """The pool is closed or closing: the request was not, or will not be, answered."""


class _Died(Exception):
    """The worker's pipe closed or broke mid-request: it is dead, or cannot be trusted."""


def _work(conn: Connection, parent: int) -> None:
    """A worker's life: answer the server's requests one at a time until its pipe closes."""
    # Ctrl-C reaches the terminal's whole process group; what it means is the server's call.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with(parent)
    from pachisi.ai.hints import hint
    from pachisi.ai.players import make_player

    players: dict[str, Bot] = {}
    warmed: set[str] = set()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            kind, args = conn.recv()
        except (EOFError, OSError):
            return  # the server closed the pool, or died
        started: list[bool] = []
        try:
            if kind == "choose":
                name, state, seed = args
                player = players.pop(name, None)
                if player is None:
                    player = make_player(name)
                players[name] = player  # last in the dict: the one used most recently
                if len(players) > PLAYERS_KEPT:
                    del players[next(iter(players))]
                work: Callable[..., Any] = functools.partial(_decide, player, state)
                warm = work
            elif kind == "judge":
                tasks, seed = args
                name = REVIEW_LEVEL
                work = functools.partial(_judge, tasks)
                warm = functools.partial(_search_once, tasks)
            else:
                state, name, seed = args
                work = warm = functools.partial(hint, state, name)
            _warm_up(conn, warmed, started, name, warm)
            reply: tuple[str, Any] = ("ok", work(seed=seed))
        except Exception as exc:
            if not started:
                conn.send(("thinking", None))
            reply = ("error", _portable(exc))
        conn.send(reply)


def _decide(player: Bot, state: State, *, seed: int) -> Action:
    return player.choose(state, random.Random(seed))


def _judge(tasks: list[Task], *, seed: int) -> list[Verdict]:
    from pachisi.review import judge_all

    return judge_all(tasks, seed=seed)


def _search_once(tasks: list[Task], *, seed: int) -> None:
    """What loads the engine a review searches with: ``expert``'s hint in the first
    position of ``tasks`` where a seat acts (a throw's or a forced step's judging would
    search nothing, leaving the loading to the timed part)."""
    from pachisi.ai.hints import hint
    from pachisi.notation import read_position
    from pachisi.rules import engine

    for task in tasks:
        state = read_position(task.position)
        if engine.legal_actions(state):
            hint(state, REVIEW_LEVEL, seed=seed)
            return


def _warm_up(conn: Connection, warmed: set[str], started: list[bool], name: str, run: Any) -> None:
    """Before a level's first decision or hint in this worker, make one untimed: it loads
    (on a fresh install, compiles) the compiled engine the level searches with, which is
    no thinking of the request's. Only the levels, whose budgets are fixed, are warmed up;
    then the timed part begins (the ``thinking`` message starts the server's clock)."""
    if name in WARMED_UP and name not in warmed:
        conn.send(("warming", None))
        run(seed=0)
        warmed.add(name)
    conn.send(("thinking", None))
    started.append(True)


def _die_with(parent: int) -> None:
    """Have the kernel kill this worker when the server dies, even by SIGKILL mid-think
    (Linux; elsewhere it notices at its next request, by its pipe's end of file)."""
    # The signal comes when the thread that started the worker ends: the event loop's.
    if sys.platform == "linux":
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)  # the server died before the line above could take effect


def _portable(exc: Exception) -> Exception:
    """``exc`` with the worker's traceback as a note, to be raised again in the server; a
    RuntimeError naming it when it does not survive the trip through the pipe."""
    text = "".join(traceback.format_exception(exc))
    exc.add_note(f"in the thinking worker {os.getpid()}:\n{text}")
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}\n{text}")
    return exc


class _Slot:
    """One worker: its process, the server's end of its pipe, and the reply awaited."""

    def __init__(self, number: int) -> None:
        self.name = f"thinking-{number}"
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.reply: asyncio.Future[Any] | None = None
        self.busy = False
        self._watched: int | None = None

    def spawn(self) -> None:
        ours, theirs = _CONTEXT.Pipe()
        process = _CONTEXT.Process(
            target=_work, args=(theirs, os.getpid()), name=self.name, daemon=True
        )
        process.start()
        theirs.close()  # the worker holds the only other end: its death is our end of file
        self.process, self.conn = process, ours

    def expect(self) -> asyncio.Future[Any]:
        """The worker's next message, read once it has arrived, so never blocking the loop."""
        loop = asyncio.get_running_loop()
        reply = self.reply = loop.create_future()
        conn = self.conn
        assert conn is not None

        def readable() -> None:
            self.unwatch()
            if reply.done():
                return
            try:
                reply.set_result(conn.recv())
            except Exception as exc:  # EOF; or a garbled pipe, which is as good as dead
                reply.set_exception(_Died(repr(exc)))

        self._watched = conn.fileno()
        loop.add_reader(self._watched, readable)
        return reply

    def unwatch(self) -> None:
        # Before the pipe closes, and synchronously: a reader left on a closed descriptor
        # would fire, or clash with whatever reuses the number.
        if self._watched is not None:
            asyncio.get_running_loop().remove_reader(self._watched)
            self._watched = None

    def stop(self, kill: bool) -> BaseProcess | None:
        """Close the pipe and send the worker SIGKILL, or SIGTERM; the process, to be reaped."""
        self.unwatch()
        process, conn = self.process, self.conn
        self.process = self.conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            # Not os.kill(pid): these signal only a process not reaped yet, whose pid
            # cannot have been given to another.
            (process.kill if kill else process.terminate)()
        return process


async def _reap(processes: list[BaseProcess], seconds: float) -> list[BaseProcess]:
    """Wait up to ``seconds`` for ``processes`` to end, polling; the ones still alive."""
    end = time.monotonic() + seconds
    alive = [p for p in processes if p.is_alive()]  # is_alive() reaps, without waiting
    while alive and time.monotonic() < end:
        await asyncio.sleep(0.01)
        alive = [p for p in alive if p.is_alive()]
    return alive


class ThinkingPool:
    """Up to ``workers`` computer decisions or hints at a time, each in a worker process
    and for at most ``seconds``; at most ``queue`` requests wait before hints are refused."""

    def __init__(self, workers: int = 2, seconds: float = 10.0, queue: int = 64) -> None:
        if workers < 1 or not seconds > 0 or queue < 0:
            raise ValueError("a pool needs a worker, a positive time limit and a queue >= 0")
        self.workers, self.seconds, self.queue = workers, seconds, queue
        self._slots: list[_Slot] = []
        self._idle: list[_Slot] = []
        self._waiters: collections.deque[asyncio.Future[_Slot]] = collections.deque()
        self._later: collections.deque[asyncio.Future[_Slot]] = collections.deque()
        """Review chunks waiting: served only when no decision or hint waits."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._restarts = self._timeouts = 0

    @property
    def stats(self) -> dict[str, int]:
        """The workers, how many think, how many requests wait, the restarts and timeouts
        so far (a timeout is a restart too)."""
        return {
            "workers": self.workers,
            "busy": sum(slot.busy for slot in self._slots),
            "waiting": len(self._waiters),
            "restarts": self._restarts,
            "timeouts": self._timeouts,
        }

    async def start(self) -> None:
        """Start the workers and wait until each has imported the players (once: later
        calls return at once). A pool that cannot start them closes, and raises why."""
        if self._closed:
            raise PoolClosed("the thinking pool is closed")
        if not self._slots:
            self._slots = [_Slot(n) for n in range(self.workers)]
            try:
                await asyncio.gather(*(self._boot(slot) for slot in self._slots))
            except BaseException:
                await self.close()
                raise

    async def choose(self, player: str, state: State, seed: int) -> Action:
        """``make_player(player).choose(state, random.Random(seed))`` in a worker, however
        long the queue; :class:`ThinkTimeout` after ``seconds`` of thinking."""
        action: Action = await self._ask(("choose", (player, state, seed)), None, player)
        return action

    async def hint(self, state: State, level: str, seed: int) -> list[Ranked]:
        """``pachisi.ai.hints.hint(state, level, seed=seed)`` in a worker; :class:`PoolBusy`
        at once when ``queue`` requests (decisions count too) wait already."""
        request = ("hint", (state, level, seed))
        ranked: list[Ranked] = await self._ask(request, self.queue, f"the {level} hint")
        return ranked

    async def judge(self, tasks: Sequence[Task], seed: int) -> list[Verdict]:
        """``pachisi.review.judge(task, seed=seed)`` of each task in a worker, in order,
        under the pool's hard time limit for the lot. A chunk waits while any decision or hint waits
        (those go first), however many chunks wait: keep chunks short."""
        if not tasks:
            return []
        request = ("judge", (list(tasks), seed))
        what = f"a review's {len(tasks)} steps"
        verdicts: list[Verdict] = await self._ask(request, None, what, later=True)
        return verdicts

    async def close(self) -> None:
        """Kill every worker and fail every request, waiting or running, with
        :class:`PoolClosed`, within a second; closing again does nothing."""
        if self._closed:
            return
        self._closed = True
        for waiter in [*self._waiters, *self._later]:
            if not waiter.done():
                waiter.set_exception(PoolClosed("the thinking pool closed"))
        for task in self._tasks:
            task.cancel()
        processes = []
        for slot in self._slots:
            if slot.reply is not None and not slot.reply.done():
                slot.reply.set_exception(PoolClosed("the thinking pool closed"))
            processes.append(slot.stop(kill=False))
        self._waiters.clear()
        self._later.clear()
        self._idle.clear()
        alive = await _reap([p for p in processes if p is not None], GRACE_SECONDS)
        for process in alive:
            process.kill()
        if await _reap(alive, 0.6):
            log.error("thinking workers alive after SIGKILL: %s", [p.pid for p in alive])

    # ----------------------------------------------------------------- the workers

    async def _boot(self, slot: _Slot) -> None:
        """Start ``slot``'s worker and, once it is ready, give it a request."""
        slot.spawn()
        try:
            async with asyncio.timeout(BOOT_SECONDS):
                await slot.expect()
        except (TimeoutError, _Died) as exc:
            await _reap([p for p in [slot.stop(kill=True)] if p is not None], 0.5)
            raise RuntimeError(f"thinking worker {slot.name} did not start: {exc!r}") from None
        self._release(slot)

    def _replace(self, slot: _Slot) -> BaseProcess | None:
        """Kill ``slot``'s worker and start another in the background; the killed one."""
        slot.busy = False
        self._restarts += 1
        process = slot.stop(kill=True)
        task = asyncio.ensure_future(self._reboot(slot, process))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return process

    async def _reboot(self, slot: _Slot, old: BaseProcess | None) -> None:
        await _reap([old] if old else [], 1.0)  # leaves no zombie: is_alive() reaps
        while not self._closed:
            try:
                await self._boot(slot)
                return
            except Exception:
                # Whatever stops one worker starting (no memory, no processes left) may
                # pass; the slot's requests wait meanwhile, as they would for a busy worker.
                log.exception("thinking worker %s did not start; again in 1 s", slot.name)
                await asyncio.sleep(1.0)

    # ----------------------------------------------------------------- requests

    async def _acquire(self, limit: int | None, later: bool = False) -> _Slot:
        """A ready worker, waiting for one if need be (unless ``limit`` requests wait);
        ``later``: behind every decision and hint, however late they come."""
        await self.start()
        queue = self._later if later else self._waiters
        if self._idle and not self._waiters and not queue:
            slot = self._idle.pop()
            slot.busy = True
            return slot
        if limit is not None and len(self._waiters) >= limit:
            raise PoolBusy(f"{len(self._waiters)} requests wait for the computer already")
        waiter: asyncio.Future[_Slot] = asyncio.get_running_loop().create_future()
        queue.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._release(waiter.result())  # given a worker just as it was cancelled
            raise
        finally:
            with contextlib.suppress(ValueError):
                queue.remove(waiter)

    def _release(self, slot: _Slot) -> None:
        """Give a worker that is ready to the first request waiting (decisions and hints
        before review chunks), or keep it idle."""
        slot.busy = False
        for queue in (self._waiters, self._later):
            while queue and not self._closed:
                waiter = queue.popleft()
                if not waiter.done():
                    slot.busy = True
                    waiter.set_result(slot)
                    return
        if not self._closed:
            self._idle.append(slot)

    async def _ask(
        self, request: tuple[str, Any], limit: int | None, what: str, later: bool = False
    ) -> Any:
        slot = await self._acquire(limit, later)
        while slot.process is None or not slot.process.is_alive():
            self._replace(slot)  # it died idle (the out-of-memory killer?): no request's fault
            slot = await self._acquire(limit, later)
        pid = slot.process.pid
        try:
            assert slot.conn is not None
            try:
                slot.conn.send(request)  # small, into the socket's buffer: does not block
            except OSError as exc:
                raise _Died(repr(exc)) from None
            async with asyncio.timeout(WARM_UP_SECONDS):
                status, value = await slot.expect()
                if status == "warming":
                    status, value = await slot.expect()
            async with asyncio.timeout(self.seconds):
                status, value = await slot.expect()
        except TimeoutError:
            self._timeouts += 1
            self._replace(slot)
            raise ThinkTimeout(
                f"{what} took more than {self.seconds:g} s; pid {pid} killed"
            ) from None
        except _Died as exc:
            old = self._replace(slot)
            code = None if old is None or await _reap([old], 0.5) else old.exitcode
            raise RuntimeError(
                f"thinking worker {slot.name} (pid {pid}) died during {what}"
                f" (exit code {code}): {exc}"
            ) from None
        except BaseException:
            # Cancelled, or the pool closed. The worker's answer, if it still came, would
            # go to the next request: only a new worker is sure to start afresh.
            if not self._closed:
                self._replace(slot)
            raise
        self._release(slot)
        if status == "error":
            raise value
        return value
