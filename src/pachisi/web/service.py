"""The authoritative game service: creating games, taking seats, and every command.

For each game one :class:`~pachisi.web.room.Room` serialises its commands under its lock.
A command (a throw or an action, from a person or a computer seat) is checked against the
rules engine, its move is committed to storage through the :class:`~pachisi.web.writer.Writer`,
and only then does the room's state change and the update go out. A refused command raises
:class:`Refused` and changes nothing.

Throws are made here and nowhere else, from the service's generator (by default
``secrets.SystemRandom()``, the operating system's cryptographic source; tests pass a
seeded one), through :func:`pachisi.rules.cowries.throw`. Computer seats choose in a worker
thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Final

from pachisi.ai.hints import hint
from pachisi.describe import describe_action
from pachisi.notation import result_of
from pachisi.notation.record import move_text
from pachisi.rules import cowries, engine
from pachisi.rules.actions import Action, IllegalActionError, InvalidActionError
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import CHANCE, State
from pachisi.web.history import HistoryCache
from pachisi.web.lobby import SeatSpec, game_url, plan_game
from pachisi.web.protocol import Act, Command, HintRequest, ProtocolError, Resync, Throw
from pachisi.web.protocol import parse_message as parse_command
from pachisi.web.records import rebuild, record_text
from pachisi.web.room import Room, Seat, Subscriber, person_seats, status_of
from pachisi.web.storage import MoveRow, SeatRow
from pachisi.web.tokens import new_token, token_hash
from pachisi.web.writer import Writer

__all__ = ["Conflict", "GameService", "NotFound", "Refused"]

log: Final = logging.getLogger("pachisi.web")

_RETRY_SECONDS: Final = 1.0
"""How long a computer seat waits before trying again when its move could not be stored."""
_FINISHED_ROOMS: Final = 128
"""How many finished games' rooms :meth:`GameService.history_room` keeps."""


class Refused(Exception):
    """A command refused with an error ``code`` (docs/web.md); nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class NotFound(LookupError):
    """No such game, or no such seat."""


class Conflict(Exception):
    """The seat is not open (any more)."""


class GameService:
    """Every game of one server: their rooms, the writer, and the throwing generator."""

    def __init__(
        self,
        writer: Writer,
        *,
        rng: random.Random | None = None,
        computer_delay: float = 0.0,
        hint_level: str = "hard",
    ) -> None:
        self.writer = writer
        self.storage = writer.storage
        self.rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        self.computer_delay = computer_delay
        self.hint_level = hint_level
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.histories = HistoryCache()
        """Every step of the games whose history was asked for, each encoded once."""
        self._finished: OrderedDict[str, Room] = OrderedDict()

    # ----------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Start the writer and resume every game in progress, computer seats included."""
        self.writer.start()
        for game_id in await self.writer.call(self.storage.unfinished_game_ids):
            room = await self.room(game_id)
            if room is not None:
                self._kick(room)

    async def stop(self) -> None:
        """Stop the computer seats and background work, then the writer."""
        tasks = [room.driver for room in self.rooms.values() if room.driver is not None]
        tasks += self._tasks
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.writer.stop()

    # ----------------------------------------------------------------- games and seats

    async def room(self, game_id: str) -> Room | None:
        """The room of ``game_id``, loaded from storage on first use; None if there is none."""
        room = self.rooms.get(game_id)
        if room is not None or not 0 < len(game_id) <= 16:
            return room
        async with self._loading:
            room = self.rooms.get(game_id)
            if room is None:
                stored = await self.writer.call(self.storage.load_game, game_id)
                if stored is None:
                    return None
                room = await asyncio.to_thread(rebuild, stored)
                if not room.state.is_over:
                    self.rooms[game_id] = room
        return room

    async def create(
        self, ruleset_text: str, players: int | None, specs: Sequence[SeatSpec]
    ) -> dict[str, Any]:
        """Make a new game; the creator gets the tokens of its human seats (docs/web.md)."""
        plan = await asyncio.to_thread(plan_game, ruleset_text, players, specs)
        game_id = secrets.token_urlsafe(9)
        tokens: dict[int, str] = {}
        rows = []
        for seat, spec in enumerate(plan.seats):
            first = person_seats(plan.players, seat)[0]
            if spec.kind == "human" and first not in tokens:
                tokens[first] = new_token()
            hashed = token_hash(tokens[first]) if spec.kind == "human" else None
            rows.append(SeatRow(seat, spec.kind, spec.player, hashed))
        seats = [Seat(row.kind, row.player, row.token_hash) for row in rows]
        ruleset = parse_ruleset(plan.ruleset_text)
        state = engine.new_game(ruleset)
        status = status_of(state, seats)
        created = await self.writer.call(
            self.storage.create_game, game_id, plan.ruleset_text, plan.players, status, rows
        )
        room = Room(game_id, ruleset, created, seats, state, [])
        self.rooms[game_id] = room
        self._kick(room)
        links = [
            {
                "seat": seat,
                "seats": list(person_seats(plan.players, seat)),
                "token": token,
                "url": game_url(game_id, [(seat, token)]),
            }
            for seat, token in tokens.items()
        ]
        invites = [
            {
                "seat": seat,
                "seats": list(person_seats(plan.players, seat)),
                "url": f"/game/{game_id}?seat={seat}&claim=1",
            }
            for seat, spec in enumerate(plan.seats)
            if spec.kind == "open" and person_seats(plan.players, seat)[0] == seat
        ]
        hotseat = game_url(game_id, list(tokens.items())) if len(tokens) > 1 else None
        return {
            "id": game_id,
            "links": links,
            "hotseat_url": hotseat,
            "invites": invites,
            "watch_url": f"/game/{game_id}",
        }

    async def claim(self, game_id: str, seat: int) -> dict[str, Any]:
        """Take an open seat (with its partner's under ``players=2``) for a new token."""
        room = await self.room(game_id)
        if room is None or not 0 <= seat <= 3:
            raise NotFound(f"game {game_id!r} has no seat {seat}")
        async with room.lock:
            if room.state.is_over:
                raise Conflict("the game is over")
            if room.seats[seat].kind != "open":
                raise Conflict(f"seat {seat} is not open (it is a {room.seats[seat].kind} seat)")
            group = person_seats(room.players, seat)
            token = new_token()
            hashed = token_hash(token)
            seats = room.claimed(group, hashed)
            status = status_of(room.state, seats)
            if not await self.writer.call(self.storage.claim_seats, game_id, group, hashed, status):
                raise Conflict(f"seat {seat} is not open any more")
            room.reseat(seats, status)
            room.broadcast_snapshot()
        return {
            "seat": seat,
            "seats": list(group),
            "token": token,
            "url": game_url(game_id, [(seat, token)]),
        }

    # ----------------------------------------------------------------- messages

    async def handle(self, room: Room, subscriber: Subscriber, data: str | bytes | None) -> None:
        """Answer one client message: a snapshot, a hint, an error, or a command's update."""
        try:
            command = parse_command(data)
        except ProtocolError as exc:
            subscriber.deliver(room.error(exc.code, str(exc)))
            return
        if isinstance(command, Resync):
            subscriber.deliver(room.snapshot(subscriber.held))
            return
        if isinstance(command, HintRequest):
            if subscriber.hinting:
                subscriber.deliver(room.error("illegal", "a hint is being worked out already"))
                return
            subscriber.hinting = True
            self._spawn(self._hint(room, subscriber, command.seat))
            return
        task = asyncio.create_task(self.play(room, subscriber.held, command))
        # Retrieved here too: if the client's handler is cancelled, nobody else awaits it.
        task.add_done_callback(_retrieve)
        try:
            # Shielded: a client that goes away mid-command must not cut it in half.
            await asyncio.shield(task)
        except Refused as exc:
            subscriber.deliver(room.error(exc.code, str(exc)))

    async def play(self, room: Room, held: frozenset[int], command: Command) -> None:
        """Carry out a person's throw or action, or raise :class:`Refused`."""
        if not isinstance(command, Throw | Act):
            raise Refused("malformed", "only throws and actions are commands")
        async with room.lock:
            state = room.state
            seat = command.seat
            if state.is_over:
                raise Refused("finished", "the game is over")
            if seat not in held:
                raise Refused("forbidden", f"this connection holds no token for seat {seat}")
            if command.version != room.version:
                raise Refused(
                    "stale",
                    f"version {command.version} is not the game's version {room.version}; resync",
                )
            if state.seat != seat:
                raise Refused("illegal", f"it is seat {state.seat}'s turn, not seat {seat}'s")
            chance = engine.current_player(state) == CHANCE
            if isinstance(command, Throw):
                if not chance:
                    raise Refused("illegal", "no throw is due: the seat is to act on its throw")
                move: Action | int = self._throw(state)
            else:
                if chance:
                    raise Refused("illegal", "a throw is due, not an action")
                try:
                    move = Action.parse(command.action)
                except InvalidActionError as exc:
                    raise Refused("illegal", str(exc)) from None
            await self._commit(room, move, seat)

    def _throw(self, state: State) -> int:
        r = state.ruleset
        return cowries.throw(self.rng, r.cowries, r.p_mouth_up)

    async def _commit(self, room: Room, move: Action | int, by: int) -> None:
        """Apply ``move`` to the room's game once it is stored (the caller holds the lock)."""
        before = room.state
        try:
            after, events = engine.apply(before, move)
        except IllegalActionError as exc:
            raise Refused("illegal", str(exc)) from None
        text = move_text(move)
        status = status_of(after, room.seats)
        changed = status != room.status
        row = MoveRow(
            room.id,
            room.version + 1,
            text,
            dt.datetime.now(dt.UTC),
            status if changed else None,
            result_of(after) if after.is_over else None,
        )
        try:
            await self.writer.commit(row)
        except Exception as exc:
            if not await self._stored_anyway(row):
                log.error("game %s: move %d not stored: %s", room.id, row.version, exc)
                raise Refused("unavailable", "the move could not be stored; try again") from None
        room.advance(after, text, status)
        room.broadcast_update(by, text, events, before)
        if after.is_over:
            # A finished game never changes again: its clients keep their room, and anyone
            # else gets it from storage, so the server holds only the games in progress.
            self.rooms.pop(room.id, None)
        else:
            self._kick(room)

    async def _stored_anyway(self, row: MoveRow) -> bool:
        """Whether a move whose commit failed is in storage all the same.

        A connection lost while the database confirmed a commit leaves it unknown whether
        the move is stored; reading it back settles that, so that the room and the
        database never disagree (the next move would otherwise collide with it).
        """
        try:
            stored = await self.writer.call(self.storage.stored_move, row.game_id, row.version)
        except Exception:
            return False
        return stored == row.move

    # ----------------------------------------------------------------- computer seats

    def _kick(self, room: Room) -> None:
        """Start playing the computer seats if one is due and nothing plays them yet."""
        if room.computer_due() and (room.driver is None or room.driver.done()):
            room.driver = asyncio.create_task(self._drive(room), name=f"computer {room.id}")

    async def _drive(self, room: Room) -> None:
        """Play every computer seat's throws and actions while one is due."""
        while room.computer_due():
            if self.computer_delay:
                await asyncio.sleep(self.computer_delay)
            state, version = room.state, room.version
            seat = state.seat
            move: Action | int | None = None
            if engine.current_player(state) != CHANCE:
                seed = self.rng.getrandbits(64)
                try:
                    move = await asyncio.to_thread(
                        room.bots[seat].choose, state, random.Random(seed)
                    )
                except Exception:
                    # A bug in a player: the game waits (and says why in the log) rather
                    # than the server guessing a move for it.
                    log.exception("game %s: computer seat %d cannot choose", room.id, seat)
                    return
            try:
                async with room.lock:
                    if room.version != version:
                        continue  # cannot happen (nobody else acts for this seat); be sure
                    await self._commit(room, self._throw(state) if move is None else move, seat)
            except Refused as exc:
                log.warning("game %s: computer seat %d: %s", room.id, seat, exc)
                await asyncio.sleep(_RETRY_SECONDS)

    # ----------------------------------------------------------------- hints and records

    async def _hint(self, room: Room, subscriber: Subscriber, seat: int) -> None:
        try:
            await self._rank(room, subscriber, seat)
        finally:
            subscriber.hinting = False

    async def _rank(self, room: Room, subscriber: Subscriber, seat: int) -> None:
        state, version = room.state, room.version
        if state.is_over:
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
        level = self.hint_level
        ranked = await asyncio.to_thread(hint, state, level, seed=self.rng.getrandbits(32))
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

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def record(self, room: Room) -> str:
        """The game record's text (docs/notation.md), for export."""
        return await asyncio.to_thread(
            record_text, room.id, room.ruleset_text, room.created, room.seats, list(room.moves)
        )

    async def history_room(self, game_id: str) -> Room | None:
        """The room of ``game_id`` for its history: as :meth:`room`, but the rooms of the
        last few finished games asked about are kept (a finished game never changes), so
        that a repeat request for one costs neither a load from storage nor a replay."""
        room = self._finished.get(game_id)
        if room is not None:
            self._finished.move_to_end(game_id)
            return room
        room = await self.room(game_id)
        if room is not None and room.state.is_over:
            self._finished[game_id] = room
            while len(self._finished) > _FINISHED_ROOMS:
                self._finished.popitem(last=False)
        return room

    async def history(self, room: Room, start: int, limit: int) -> tuple[int, str]:
        """The page ``start``/``limit`` of the game's steps as JSON text (docs/web.md), and
        the version it is of: the room's now. Only moves no request has seen before are
        replayed, and only as far as the page goes (:class:`~pachisi.web.history.HistoryCache`).
        """
        version = room.version
        moves = room.moves[: min(version, start + limit - 1)]

        def page() -> str:
            return self.histories.get(room.id, room.ruleset, moves).page(start, limit, version)

        return version, await asyncio.to_thread(page)


def _retrieve(task: asyncio.Task[None]) -> None:
    if not task.cancelled():
        task.exception()
