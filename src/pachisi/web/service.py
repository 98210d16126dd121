"""The authoritative game service: creating games, taking seats, and every command.

For each game one :class:`~pachisi.web.room.Room` serialises this server's commands under
its lock. A command (a throw or an action, from a person or a computer seat) is checked
against the rules engine, its move is committed to storage through the
:class:`~pachisi.web.writer.Writer` on top of the version it was made at, and only then does
the room's state change and the update go out. A refused command raises :class:`Refused`
and changes nothing.

Several servers may share one PostgreSQL database (docs/deploy.md). The database then
serialises each game's commands: a move is stored only on top of the game's stored version
(:class:`~pachisi.web.storage.VersionConflict` otherwise), so two servers can never both
store version v+1. A server hears of the others' moves through ``LISTEN/NOTIFY``
(:mod:`pachisi.web.listener`) and catches its room up from the stored moves; computer seats
are played by the one server holding the game's lease (:mod:`pachisi.web.computers`).

Throws are made here and nowhere else, from the service's generator (by default
``secrets.SystemRandom()``, the operating system's cryptographic source; tests pass a
seeded one), through :func:`pachisi.rules.cowries.throw`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Final

from pachisi.notation import result_of
from pachisi.notation.record import move_text
from pachisi.rules import cowries, engine
from pachisi.rules.actions import Action, IllegalActionError, InvalidActionError
from pachisi.rules.board import person_seats
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import CHANCE, State
from pachisi.web.computers import ComputerSeats
from pachisi.web.history import HistoryCache
from pachisi.web.lobby import SeatSpec, game_url, plan_game
from pachisi.web.protocol import Act, Command, HintRequest, ProtocolError, Resync, Throw
from pachisi.web.protocol import parse_message as parse_command
from pachisi.web.records import rebuild, record_text
from pachisi.web.room import Access, Room, Seat, Subscriber, parse_move, status_of
from pachisi.web.schema import ABANDONED, GameNews, MoveRow, NewGame, SeatRow, VersionConflict
from pachisi.web.settings import Settings
from pachisi.web.tokens import holds, new_token, token_hash
from pachisi.web.writer import Writer

__all__ = ["Conflict", "Forbidden", "GameService", "Limited", "NotFound", "Refused"]

log: Final = logging.getLogger("pachisi.web")

FINISHED_ROOMS: Final = 128
"""How many finished games' rooms a server keeps (a bounded cache)."""
UNFINISHED_RETRY_SECONDS: Final = 600
"""The ``Retry-After`` of a creator over the unfinished-games limit: games take a while."""


class Refused(Exception):
    """A command refused with an error ``code`` (docs/web.md); nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class NotFound(LookupError):
    """No such game, or no such seat (or a private game the client may not see)."""


class Conflict(Exception):
    """The seat is not open (any more)."""


class Forbidden(Exception):
    """A secret that does not hold what it was shown for: an invitation, a creator's token."""


class Limited(Exception):
    """A request over one of the operator's limits; ``retry_after`` in seconds."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def creator_key(address: str) -> str:
    """The stored form of a creator's address: its hash, so the database holds no address."""
    return hashlib.sha256(f"pachisi creator {address}".encode()).hexdigest()


class GameService:
    """Every game this server holds: their rooms, the writer, the throwing generator, and
    the computer seats it plays."""

    def __init__(
        self,
        writer: Writer,
        *,
        rng: random.Random | None = None,
        computer_delay: float = 0.0,
        hint_level: str = "hard",
        settings: Settings | None = None,
    ) -> None:
        self.writer = writer
        self.storage = writer.storage
        self.settings = settings if settings is not None else Settings()
        self.rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        self.hint_level = hint_level
        self.rooms: dict[str, Room] = {}
        """The games in progress this server holds."""
        self._finished: OrderedDict[str, Room] = OrderedDict()
        """The last few finished games asked about: they never change, and a finished
        game's page, record or history is asked for again and again."""
        self._loading = asyncio.Lock()
        self.histories = HistoryCache()
        """Every step of the games whose history was asked for, each encoded once."""
        self.computers = ComputerSeats(self, computer_delay)

    # ----------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Start the writer, the computer seats' workers and this server's chores.

        No game is loaded now: a game is loaded when a client asks for it, or when its
        computer seat is due and this server takes its lease.
        """
        self.writer.start()
        await self.computers.start()

    async def stop(self) -> None:
        """Stop the computer seats and the chores (leases given up), then the writer."""
        await self.computers.stop()
        await self.writer.stop()

    # ----------------------------------------------------------------- games and seats

    async def room(self, game_id: str) -> Room | None:
        """The room of ``game_id``, loaded from storage on first use; None if there is none."""
        room = self.rooms.get(game_id) or self._finished.get(game_id)
        if room is not None:
            room.used = time.monotonic()
            if room.is_over:
                self._finished.move_to_end(game_id)
        if room is not None or not 0 < len(game_id) <= 16:
            return room
        async with self._loading:
            room = self.rooms.get(game_id) or self._finished.get(game_id)
            if room is not None:
                return room  # loaded while this call waited for the lock
            stored = await self.writer.call(self.storage.load_game, game_id)
            if stored is None:
                return None
            room = await asyncio.to_thread(rebuild, stored)
            if room.is_over:
                self._keep_finished(room)
                return room
            self.rooms[game_id] = room
        if self.storage.shared:
            # Another server's moves stored while this one read the game were notified
            # when no room here could hear them: read them now that the room listens.
            await self.catch_up(room)
        return room

    def _keep_finished(self, room: Room) -> None:
        self._finished[room.id] = room
        while len(self._finished) > FINISHED_ROOMS:
            self._finished.popitem(last=False)

    async def visible_room(self, game_id: str, tokens: Sequence[str]) -> Room | None:
        """The room, if a client presenting ``tokens`` may see it (else as if there were
        none: a private game's existence is not given away)."""
        room = await self.room(game_id)
        return room if room is not None and room.can_watch(tokens) else None

    async def create(
        self,
        ruleset_text: str,
        players: int | None,
        specs: Sequence[SeatSpec],
        *,
        visibility: str = "public",
        creator: str | None = None,
    ) -> dict[str, Any]:
        """Make a new game; the creator gets the tokens of its human seats, an invitation
        link for each open seat, and a token of its own (docs/web.md)."""
        settings = self.settings
        plan = await asyncio.to_thread(
            plan_game,
            ruleset_text,
            players,
            specs,
            any_player=settings.allow_any_player,
            computer_games=settings.allow_computer_games,
        )
        key = creator_key(creator) if creator is not None else None
        if key is not None:
            made = await self.writer.call(self.storage.unfinished_by, key)
            if made >= settings.max_unfinished_per_creator:
                raise Limited(
                    f"this address has {made} unfinished games, the most allowed here: finish "
                    "or abandon one first",
                    UNFINISHED_RETRY_SECONDS,
                )
        game_id = secrets.token_urlsafe(9)
        tokens: dict[int, str] = {}
        invites: dict[int, str] = {}
        rows = []
        for seat, spec in enumerate(plan.seats):
            first = person_seats(plan.players, seat)[0]
            if spec.kind == "human" and first not in tokens:
                tokens[first] = new_token()
            if spec.kind == "open" and first not in invites:
                invites[first] = new_token()
            hashed = token_hash(tokens[first]) if spec.kind == "human" else None
            invite = token_hash(invites[first]) if spec.kind == "open" else None
            rows.append(SeatRow(seat, spec.kind, spec.player, hashed, invite))
        owner = new_token()
        watch = new_token() if visibility == "private" else None
        access = Access(
            visibility, token_hash(owner), token_hash(watch) if watch is not None else None
        )
        seats = [Seat(row.kind, row.player, row.token_hash, row.invite_hash) for row in rows]
        ruleset = parse_ruleset(plan.ruleset_text)
        state = engine.new_game(ruleset)
        room = Room(game_id, ruleset, dt.datetime.now(dt.UTC), seats, state, [], access)
        game = NewGame(
            game_id,
            plan.ruleset_text,
            plan.players,
            status_of(state, seats),
            tuple(rows),
            visibility,
            key,
            access.owner_hash,
            access.watch_hash,
            room.computer_due(),
        )
        room.created = await self.writer.call(self.storage.create_game, game)
        self.rooms[game_id] = room
        await self.computers.claim(room)
        watch_query = f"?watch={watch}" if watch is not None else ""
        return {
            "id": game_id,
            "visibility": visibility,
            "owner_token": owner,
            "links": [
                {
                    "seat": seat,
                    "seats": list(person_seats(plan.players, seat)),
                    "token": token,
                    "url": game_url(game_id, [(seat, token)]),
                }
                for seat, token in tokens.items()
            ],
            "hotseat_url": game_url(game_id, list(tokens.items())) if len(tokens) > 1 else None,
            "invites": [self._invite(room, seat, invite) for seat, invite in invites.items()],
            "watch_url": f"/game/{game_id}{watch_query}",
            "watch_token": watch,
        }

    @staticmethod
    def _invite(room: Room, seat: int, invite: str) -> dict[str, Any]:
        return {
            "seat": seat,
            "seats": list(person_seats(room.players, seat)),
            "invite": invite,
            "url": f"/game/{room.id}?seat={seat}&invite={invite}",
        }

    async def claim(self, game_id: str, seat: int, invite: str) -> dict[str, Any]:
        """Take an open seat (with its partner's under ``players=2``) with its invitation,
        for a new token; :class:`Forbidden` unless ``invite`` is the seat's invitation."""
        room = await self.room(game_id)
        if room is None or not 0 <= seat <= 3:
            raise NotFound(f"game {game_id!r} has no seat {seat}")
        async with room.lock:
            await self._catch_up(room)
            if room.is_over:
                raise Conflict("the game is over")
            if room.seats[seat].kind != "open":
                raise Conflict(f"seat {seat} is not open (it is a {room.seats[seat].kind} seat)")
            invite_hash = room.seats[seat].invite_hash
            if not holds(invite_hash, invite) or invite_hash is None:
                raise Forbidden(f"this is not seat {seat}'s invitation (or it was revoked)")
            group = person_seats(room.players, seat)
            token = new_token()
            hashed = token_hash(token)
            seats = room.claimed(group, hashed)
            status = status_of(room.state, seats)
            if not await self.writer.call(
                self.storage.claim_seats, game_id, group, hashed, status, invite_hash
            ):
                raise Conflict(f"seat {seat} is not open any more")
            room.reseat(seats)
            room.broadcast_snapshot()
        return {
            "seat": seat,
            "seats": list(group),
            "token": token,
            "url": game_url(game_id, [(seat, token)]),
        }

    async def invite(self, game_id: str, seat: int, owner: str, renew: bool) -> dict[str, Any]:
        """Renew (a new link; the old one stops working) or revoke an open seat's
        invitation, for the game's creator; :class:`Forbidden` for anyone else."""
        room = await self.room(game_id)
        if room is None or not 0 <= seat <= 3:
            raise NotFound(f"game {game_id!r} has no seat {seat}")
        if not room.is_owner(owner):
            raise Forbidden("only the game's creator (with its token) can change invitations")
        async with room.lock:
            await self._catch_up(room)
            if room.is_over or room.seats[seat].kind != "open":
                raise Conflict(f"seat {seat} is not open")
            group = person_seats(room.players, seat)
            invite = new_token() if renew else None
            hashed = token_hash(invite) if invite is not None else None
            if not await self.writer.call(self.storage.set_invite, game_id, group, hashed):
                raise Conflict(f"seat {seat} is not open any more")
            chosen = set(group)
            room.reseat(
                [
                    Seat(s.kind, s.player, s.token_hash, hashed) if n in chosen else s
                    for n, s in enumerate(room.seats)
                ]
            )
        if invite is None:
            return {"seat": seat, "seats": list(group), "invite": None, "url": None}
        return self._invite(room, seat, invite)

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
            self.computers.hint(room, subscriber, command.seat)
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
            if room.is_over:
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
                move: Action | int = self.throw(state)
            else:
                if chance:
                    raise Refused("illegal", "a throw is due, not an action")
                try:
                    move = Action.parse(command.action)
                except InvalidActionError as exc:
                    raise Refused("illegal", str(exc)) from None
            await self.commit(room, move, seat)

    def throw(self, state: State) -> int:
        """A throw of the cowries for ``state``'s seat, from the service's generator."""
        r = state.ruleset
        return cowries.throw(self.rng, r.cowries, r.p_mouth_up)

    async def commit(self, room: Room, move: Action | int, by: int) -> None:
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
            room.computer_due(after),
        )
        try:
            await self.writer.commit(row)
        except VersionConflict:
            # Another server stored this version first (or ended the game): take what it
            # stored, and let the client try again on top of it.
            await self._catch_up(room)
            raise Refused(
                "stale", f"the game moved on to version {room.version} meanwhile; resync"
            ) from None
        except Exception as exc:
            if not await self._stored_anyway(row):
                log.error("game %s: move %d not stored: %s", room.id, row.version, exc)
                raise Refused("unavailable", "the move could not be stored; try again") from None
        room.advance(after, text, status)
        room.broadcast_update(by, text, events, before)
        self._after_move(room)

    def _after_move(self, room: Room) -> None:
        if room.is_over:
            # A finished game never changes again: the server holds only the games in
            # progress, and a few finished ones in a bounded cache.
            if self.rooms.pop(room.id, None) is not None:
                self._keep_finished(room)
            self.computers.let_go(room)
        else:
            self.computers.kick(room)

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

    # ----------------------------------------------------------------- other servers' news

    def heard(self, payload: str) -> None:
        """A ``NOTIFY`` from a server on the database (:data:`~pachisi.web.storage.CHANNEL`):
        catch up the game's room if this server holds it."""
        game_id, _, rest = payload.partition(" ")
        what, _, move = rest.partition(" ")
        room = self.rooms.get(game_id)
        if room is None or (what.isdigit() and int(what) <= room.version):
            return  # not held here, or this server made that move itself
        if what.isdigit() and int(what) == room.version + 1 and move and not room.lock.locked():
            # The common case: the next move, and no command of this server's in flight.
            # Notifications come in commit order, so applying it here keeps the order.
            try:
                self._apply_news(room, GameNews(room.status, None, _stored_seats(room), (move,)))
            except Exception:
                log.exception("game %s: a notified move does not apply; reading it", room.id)
            else:
                self._after_move(room)
                return
        self.computers.spawn(self.catch_up(room))

    def heard_everything(self) -> None:
        """Notifications may have been missed (the listening connection was lost): catch up
        every room this server holds."""
        for room in list(self.rooms.values()):
            self.computers.spawn(self.catch_up(room))

    async def catch_up(self, room: Room) -> None:
        """Bring the room up to the stored game: the moves other servers stored, new seats,
        and whether it was abandoned."""
        async with room.lock:
            await self._catch_up(room)
        self._after_move(room)

    async def _catch_up(self, room: Room) -> None:
        # The caller holds the room's lock.
        news = await self.writer.call(self.storage.news, room.id, room.version)
        if news is not None:
            self._apply_news(room, news)

    def _apply_news(self, room: Room, news: GameNews) -> None:
        seats = tuple(
            Seat(row.kind, row.player, row.token_hash, row.invite_hash) for row in news.seats
        )
        if seats != room.seats:
            room.reseat(seats)
            room.broadcast_snapshot()
        for text in news.moves:
            before = room.state
            after, events = engine.apply(before, parse_move(text))
            room.advance(after, text, status_of(after, room.seats))
            room.broadcast_update(before.seat, text, events, before)
        if news.result == ABANDONED and not room.is_over:
            room.abandon()
            room.broadcast_snapshot()

    # ----------------------------------------------------------------- records

    async def record(self, room: Room) -> str:
        """The game record's text (docs/notation.md), for export."""
        return await asyncio.to_thread(
            record_text,
            room.id,
            room.ruleset_text,
            room.created,
            room.seats,
            list(room.moves),
            room.abandoned,
        )

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

    async def abandon_idle(self) -> None:
        """End the games nobody played for the settings' ``abandon_days`` (records kept)."""
        ended = await self.writer.call(self.storage.abandon_idle, self.settings.abandon_days)
        for game_id in ended:
            log.info("game %s: abandoned after %g idle days", game_id, self.settings.abandon_days)
            room = self.rooms.get(game_id)
            if room is not None:
                await self.catch_up(room)


def _stored_seats(room: Room) -> tuple[SeatRow, ...]:
    """The room's seats as storage has them (a notified move changes no seat)."""
    return tuple(
        SeatRow(n, seat.kind, seat.player, seat.token_hash, seat.invite_hash)
        for n, seat in enumerate(room.seats)
    )


def _retrieve(task: asyncio.Task[None]) -> None:
    if not task.cancelled():
        task.exception()
