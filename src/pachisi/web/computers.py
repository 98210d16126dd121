"""The computer seats a server plays, the hints it gives, and its chores on the database.

A game's computer seats are played by exactly one server at a time: the one holding the
game's lease in the database (``games.lease_owner`` until ``lease_until``). Each server
renews its leases every :data:`CHORE_SECONDS` and takes the leases of due games that no
server holds, or whose holder stopped renewing them, so a server that dies has its games
taken over within :data:`LEASE_SECONDS` plus a chore's interval. The store of moves stays
the one judge of what happened: a lease only says who should play, and a move made on top
of an old version is refused whoever makes it.

Decisions and hints run in the :class:`~pachisi.web.thinking.ThinkingPool`'s worker
processes, each under the operator's hard time limit: a long think never stalls the event
loop, another game, or the server's shutdown. When the pool is busy, computer moves wait for
a worker; people's commands never do, and hints are refused as busy.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Coroutine
from typing import Any, Final, Protocol

from pachisi.ai.players import make_player
from pachisi.describe import describe_action
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.state import CHANCE, State
from pachisi.web.listener import Listener
from pachisi.web.room import Room, Subscriber
from pachisi.web.settings import Settings
from pachisi.web.storage import Storage
from pachisi.web.thinking import PoolBusy, PoolClosed, ThinkingPool, ThinkTimeout
from pachisi.web.writer import Writer

__all__ = ["CHORE_SECONDS", "FALLBACK_PLAYER", "LEASE_SECONDS", "ComputerSeats"]

log: Final = logging.getLogger("pachisi.web")

LEASE_SECONDS: Final = 3.0
"""How long a lease lasts unless renewed."""
CHORE_SECONDS: Final = 1.0
"""How often a server renews its leases and looks for games to take over."""
IDLE_ROOM_SECONDS: Final = 120.0
"""How long a room nobody watches and this server does not play stays in memory."""
ABANDON_CHECK_SECONDS: Final = 3600.0
"""How often a server looks for games to end as abandoned."""
RETRY_SECONDS: Final = 1.0
"""How long a computer seat waits before trying again when its move could not be stored."""
FALLBACK_PLAYER: Final = "easy"
"""Who decides, in the server itself, for a computer seat whose decision ran out of time."""


class _Service(Protocol):
    """What the computer seats need of :class:`~pachisi.web.service.GameService`."""

    writer: Writer
    storage: Storage
    settings: Settings
    rng: random.Random
    hint_level: str
    rooms: dict[str, Room]

    async def room(self, game_id: str) -> Room | None: ...
    async def commit(self, room: Room, move: Action | int, by: int) -> None: ...
    def throw(self, state: State) -> int: ...
    async def catch_up(self, room: Room) -> None: ...
    def heard(self, payload: str) -> None: ...
    def heard_everything(self) -> None: ...
    async def abandon_idle(self) -> None: ...


class ComputerSeats:
    """This server's computer seats, hints and chores (see the module docstring)."""

    def __init__(self, service: _Service, computer_delay: float = 0.0) -> None:
        settings = service.settings
        self.service = service
        self.computer_delay = computer_delay
        self.owner = settings.instance or f"pachisi-{secrets.token_hex(6)}"
        """This server's name in the leases."""
        self.pool = ThinkingPool(
            settings.think_workers, settings.think_seconds, settings.think_queue
        )
        self.leased: set[str] = set()
        """The games whose lease this server holds."""
        self._fallback = make_player(FALLBACK_PLAYER)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._chores: asyncio.Task[None] | None = None
        self._listener: Listener | None = None

    # ----------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Start the worker processes, the listener (on PostgreSQL) and the chores."""
        service = self.service
        if not service.storage.shared:
            # SQLite is one process's database: any lease in it is a stopped server's.
            await service.writer.call(service.storage.release_leases, None)
        if service.storage.shared:
            self._listener = Listener(
                service.storage.libpq_url(), service.heard, service.heard_everything
            )
            await self._listener.start()
        self._chores = asyncio.create_task(self._run_chores(), name="pachisi-chores")

    async def stop(self) -> None:
        """Stop playing (see :meth:`halt`) and give up the leases."""
        await self.halt()
        if self.leased:
            # Another server may take them over at once rather than when they run out.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    self.service.writer.call(self.service.storage.release_leases, self.owner),
                    timeout=1.0,
                )
            self.leased.clear()

    async def halt(self) -> None:
        """Stop the chores, the drivers and hints, the workers and the listener, keeping
        the leases (they run out): what a server that dies leaves behind."""
        await self.pool.close()
        tasks = [room.driver for room in self.service.rooms.values() if room.driver is not None]
        tasks += list(self._tasks)
        if self._chores is not None:
            tasks.append(self._chores)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._listener is not None:
            await self._listener.stop()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run background work that the server's stop cancels."""
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)

    # ----------------------------------------------------------------- leases

    async def claim(self, room: Room) -> None:
        """Take the lease of a new game with a computer seat, and play it if one is due."""
        if any(seat.kind == "computer" for seat in room.seats):
            await self._take(room)

    async def _take(self, room: Room) -> None:
        storage = self.service.storage
        if await self.service.writer.call(storage.take_lease, room.id, self.owner, LEASE_SECONDS):
            self.leased.add(room.id)
            self.kick(room)

    def kick(self, room: Room) -> None:
        """Play the room's computer seat if one is due: at once if this server holds the
        lease, else once it wins the lease (another server may hold it and play)."""
        if not room.computer_due():
            return
        if room.id not in self.leased:
            self.spawn(self._take(room))
        elif room.driver is None or room.driver.done():
            room.driver = asyncio.create_task(self._drive(room), name=f"computer {room.id}")

    def let_go(self, room: Room) -> None:
        """Give up a finished game's lease."""
        if room.id in self.leased:
            self.leased.discard(room.id)
            storage = self.service.storage
            self.spawn(self.service.writer.call(storage.release_leases, self.owner, [room.id]))

    async def _run_chores(self) -> None:
        last_abandon = last_evict = 0.0
        while True:
            now = time.monotonic()
            try:
                await self._lease_round()
                if now - last_evict >= IDLE_ROOM_SECONDS / 4:
                    self._evict_idle(now)
                    last_evict = now
                if now - last_abandon >= ABANDON_CHECK_SECONDS:
                    last_abandon = now
                    await self.service.abandon_idle()
            except asyncio.CancelledError:
                raise
            except Exception:
                # The database may be out of reach for a while: try again next round.
                log.exception("the server's chores failed; trying again")
            await asyncio.sleep(CHORE_SECONDS)

    async def _lease_round(self) -> None:
        service = self.service
        storage, writer = service.storage, service.writer
        asked = sorted(self.leased)
        held = await writer.call(storage.renew_leases, self.owner, asked, LEASE_SECONDS)
        for game_id in asked:
            room = service.rooms.get(game_id)
            if game_id not in held:
                # Another server took it (this one was too slow to renew): stop playing it.
                # (Only the games asked about: one leased meanwhile is held all right.)
                self.leased.discard(game_id)
                if room is not None and room.driver is not None:
                    room.driver.cancel()
            elif room is not None and held[game_id] > room.version:
                # A notification of another server's move was missed (or is late): the
                # computer seat may be due, and nothing else would tell this server so.
                self.spawn(service.catch_up(room))
        for game_id in await writer.call(storage.take_leases, self.owner, LEASE_SECONDS):
            self.leased.add(game_id)
            room = await service.room(game_id)
            if room is None or room.is_over:
                self.leased.discard(game_id)
                continue
            await service.catch_up(room)
            if not room.computer_due():
                # The stored mark was wrong (a game from before the mark existed): mend it
                # and let the lease go, so that no server takes it again and again.
                await writer.call(storage.set_computer_due, room.id, room.version, False)
                self.let_go(room)
                continue
            self.kick(room)

    def _evict_idle(self, now: float) -> None:
        rooms = self.service.rooms
        for game_id, room in list(rooms.items()):
            idle = now - room.used > IDLE_ROOM_SECONDS
            if (
                idle
                and not room.subscribers
                and game_id not in self.leased
                and not room.lock.locked()
            ):
                del rooms[game_id]

    # ----------------------------------------------------------------- playing

    async def _drive(self, room: Room) -> None:
        """Play every computer seat's throws and actions while one is due and this server
        holds the lease."""
        service = self.service
        while room.computer_due() and room.id in self.leased:
            if self.computer_delay:
                await asyncio.sleep(self.computer_delay)
            state, version = room.state, room.version
            seat = state.seat
            move: Action | int | None = None
            if engine.current_player(state) != CHANCE:
                try:
                    move = await self._decide(room, state, seat)
                except PoolClosed:
                    return
                except Exception:
                    # A bug in a player: the game waits (and says why in the log) rather
                    # than the server guessing a move for it.
                    log.exception("game %s: computer seat %d cannot choose", room.id, seat)
                    return
            try:
                async with room.lock:
                    if room.version != version or room.id not in self.leased:
                        continue  # another server's move came in meanwhile: decide again
                    throw = service.throw(state) if move is None else move
                    await service.commit(room, throw, seat)
            except Exception as exc:
                log.warning("game %s: computer seat %d: %s", room.id, seat, exc)
                await asyncio.sleep(RETRY_SECONDS)

    async def _decide(self, room: Room, state: State, seat: int) -> Action:
        player = room.seats[seat].player or FALLBACK_PLAYER
        seed = self.service.rng.getrandbits(64)
        try:
            return await self.pool.choose(player, state, seed)
        except ThinkTimeout:
            log.warning(
                "game %s: seat %d's %s ran past %g s: %s decides instead",
                room.id,
                seat,
                player,
                self.pool.seconds,
                FALLBACK_PLAYER,
            )
            return self._fallback.choose(state, random.Random(seed))

    # ----------------------------------------------------------------- hints

    def hint(self, room: Room, subscriber: Subscriber, seat: int) -> None:
        """Work out a hint for ``subscriber`` in a worker (one at a time per client)."""
        if subscriber.hinting:
            subscriber.deliver(room.error("illegal", "a hint is being worked out already"))
            return
        subscriber.hinting = True
        self.spawn(self._hint(room, subscriber, seat))

    async def _hint(self, room: Room, subscriber: Subscriber, seat: int) -> None:
        try:
            await self._rank(room, subscriber, seat)
        finally:
            subscriber.hinting = False

    async def _rank(self, room: Room, subscriber: Subscriber, seat: int) -> None:
        state, version = room.state, room.version
        if room.is_over:
            subscriber.deliver(room.error("finished", "the game is over"))
            return
        if seat not in subscriber.held:
            subscriber.deliver(
                room.error("forbidden", f"this connection holds no token for seat {seat}")
            )
            return
        if state.seat != seat or not engine.legal_actions(state):
            subscriber.deliver(room.error("illegal", f"seat {seat} has no action to choose now"))
            return
        level = self.service.hint_level
        try:
            ranked = await self.pool.hint(state, level, self.service.rng.getrandbits(32))
        except (PoolBusy, ThinkTimeout) as exc:
            subscriber.deliver(room.error("busy", f"no hint now: {exc}; try again later"))
            return
        ranking = [
            {
                "action": str(r.action),
                "text": describe_action(state, r.action),
                "win": round(r.win, 4),
            }
            for r in ranked
        ]
        subscriber.deliver(
            json.dumps(
                {
                    "type": "hint",
                    "version": version,
                    "seat": seat,
                    "level": level,
                    "ranking": ranking,
                }
            )
        )


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background work failed", exc_info=task.exception())
