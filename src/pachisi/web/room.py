"""A game in memory: its state, its seats, its moves, and the clients watching it.

A :class:`Room` is the authoritative copy of one game while the server runs. Its lock
serialises every command (:mod:`pachisi.web.service` holds it while a command is checked,
committed and applied); its subscribers are the game's WebSocket clients, each with the
seats it holds and a queue of messages the connection sends in order.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from pachisi.rules.actions import Action
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import Event, State
from pachisi.web.tokens import holds
from pachisi.web.views import EncodedViews, SeatView, event_json, game_view

__all__ = [
    "MAX_OUTBOX",
    "Access",
    "Room",
    "Seat",
    "Subscriber",
    "parse_move",
    "status_of",
]

MAX_OUTBOX: Final = 1000
"""Messages a client may fall behind by before its connection is dropped (it can resync)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays a seat: ``kind`` is ``human``, ``computer`` (``player`` names it) or
    ``open``; a human seat has the hash of its token, an open one that of its invitation
    (None once revoked)."""

    kind: str
    player: str | None = None
    token_hash: str | None = None
    invite_hash: str | None = None


@dataclass(frozen=True, slots=True)
class Access:
    """Who may see a game: ``public`` games anyone, ``private`` ones the holder of a seat's
    token, of the spectator link's token or of the creator's token (hashes)."""

    visibility: str = "public"
    owner_hash: str | None = None
    watch_hash: str | None = None


class Subscriber:
    """One client of a room: the seats it holds and the messages waiting to go out."""

    def __init__(self, held: frozenset[int]) -> None:
        self.held = held
        self.outbox: asyncio.Queue[str] = asyncio.Queue()
        self.dropped = False
        """Set when the client fell :data:`MAX_OUTBOX` messages behind; its connection ends."""
        self.hinting = False
        """Whether a hint for this client is being worked out (one at a time)."""

    def deliver(self, text: str) -> None:
        """Queue a message; never waits, so one slow client cannot hold up a game."""
        if self.dropped:
            return
        if self.outbox.qsize() >= MAX_OUTBOX:
            self.dropped = True
        self.outbox.put_nowait(text)


def status_of(state: State, seats: Sequence[Seat], abandoned: bool = False) -> str:
    """``finished`` once over, ``open`` while a seat waits for a player, else ``active``."""
    if state.is_over or abandoned:
        return "finished"
    return "open" if any(seat.kind == "open" for seat in seats) else "active"


def parse_move(text: str) -> Action | int:
    """A stored move: ``t<k>`` for a throw of ``k`` mouths up, else an action's text.

    >>> parse_move("t3"), parse_move("0a+4")
    (3, Action.parse('0a+4'))
    """
    digits = text[1:]
    if text.startswith("t") and digits.isascii() and digits.isdigit():
        return int(digits)
    return Action.parse(text)


class Room:
    """One game while the server runs (see the module docstring)."""

    def __init__(
        self,
        game_id: str,
        ruleset: Ruleset,
        created: dt.datetime,
        seats: Sequence[Seat],
        state: State,
        moves: Iterable[str],
        access: Access | None = None,
        abandoned: bool = False,
    ) -> None:
        self.id = game_id
        self.ruleset = ruleset
        self.ruleset_text = str(ruleset)
        self.created = created
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.state = state
        self.moves: list[str] = list(moves)
        self._moves_json = json.dumps(self.moves)
        self.access = access if access is not None else Access()
        self.abandoned = abandoned
        """Whether the server ended the game because nobody played it (docs/web.md)."""
        self.status = status_of(state, self.seats, abandoned)
        self._views: EncodedViews | None = None
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.driver: asyncio.Task[None] | None = None
        """The task playing the computer seats, while one is due to play."""
        self.used = time.monotonic()
        """When a client last asked for the room (idle rooms leave memory)."""

    @property
    def version(self) -> int:
        """The number of committed moves, which every message carries."""
        return len(self.moves)

    @property
    def players(self) -> int:
        return self.ruleset.players

    def seat_views(self) -> list[SeatView]:
        return [SeatView(seat.kind, seat.player) for seat in self.seats]

    def held_by(self, tokens: Iterable[str]) -> tuple[frozenset[int], int]:
        """The human seats the ``tokens`` hold, and how many tokens hold none."""
        held: set[int] = set()
        strays = 0
        for token in tokens:
            seats = {n for n, seat in enumerate(self.seats) if holds(seat.token_hash, token)}
            held |= seats
            strays += not seats
        return frozenset(held), strays

    @property
    def is_over(self) -> bool:
        """Whether the game is over: won, drawn or abandoned."""
        return self.state.is_over or self.abandoned

    def computer_due(self, state: State | None = None) -> bool:
        """Whether a computer seat is to throw or act now (or in ``state``)."""
        state = self.state if state is None else state
        return (
            not state.is_over and not self.abandoned and self.seats[state.seat].kind == "computer"
        )

    def can_watch(self, tokens: Iterable[str]) -> bool:
        """Whether a client presenting ``tokens`` may see the game (see :class:`Access`)."""
        if self.access.visibility == "public":
            return True
        hashes = [self.access.watch_hash, self.access.owner_hash]
        hashes += [seat.token_hash for seat in self.seats]
        # Every hash is compared with every token, found or not: no early exit to time.
        found = False
        for token in tokens:
            for stored in hashes:
                found |= holds(stored, token)
        return found

    def is_owner(self, token: str) -> bool:
        """Whether ``token`` is the creator's (who renews and revokes invitations)."""
        return holds(self.access.owner_hash, token)

    def abandon(self) -> None:
        """End the game as abandoned (its moves stay as they are)."""
        self.abandoned = True
        self.status = status_of(self.state, self.seats, True)
        self._views = None

    def claimed(self, seat_numbers: Sequence[int], token_hash: str) -> tuple[Seat, ...]:
        """The seats after a person takes the open ``seat_numbers`` with a token."""
        chosen = set(seat_numbers)
        return tuple(
            replace(seat, kind="human", token_hash=token_hash, invite_hash=None)
            if n in chosen
            else seat
            for n, seat in enumerate(self.seats)
        )

    def advance(self, state: State, move: str, status: str) -> None:
        """Take a committed move: the new state, its move text, the game's status."""
        self.state = state
        self.moves.append(move)
        # The encoded list only grows: append to it instead of encoding it all again.
        entry = json.dumps(move)
        self._moves_json = (
            f"{self._moves_json[:-1]}, {entry}]" if len(self.moves) > 1 else f"[{entry}]"
        )
        self.status = status
        self._views = None

    def reseat(self, seats: Sequence[Seat]) -> None:
        """Take new seats (a claim, a new invitation) and the status they give."""
        self.seats = tuple(seats)
        self.status = status_of(self.state, self.seats, self.abandoned)
        self._views = None

    def _encoded(self) -> EncodedViews:
        if self._views is None:
            self._views = EncodedViews(
                self.id,
                self.version,
                self.status,
                self.state,
                self._moves_json,
                self.seat_views(),
                self.ruleset_text,
                self.abandoned,
            )
        return self._views

    def view(self, held: frozenset[int]) -> dict[str, Any]:
        """The game's VIEW for a client holding ``held``."""
        return game_view(
            self.id,
            self.version,
            self.status,
            self.state,
            self.moves,
            self.seat_views(),
            held,
            self.abandoned,
        )

    def snapshot(self, held: frozenset[int]) -> str:
        view = self._encoded().text(held)
        return f'{{"type": "snapshot", "version": {self.version}, "game": {view}}}'

    def error(self, code: str, message: str) -> str:
        return json.dumps(
            {"type": "error", "code": code, "message": message, "version": self.version}
        )

    def broadcast_snapshot(self) -> None:
        """Send every client a snapshot (the seats changed)."""
        self._broadcast(lambda held: self.snapshot(held))

    def broadcast_update(self, by: int, move: str, events: Sequence[Event], before: State) -> None:
        """Send every client the update of the move just committed."""
        head = json.dumps(
            {
                "type": "update",
                "version": self.version,
                "by": by,
                "move": move,
                "events": [event_json(event, before) for event in events],
            }
        )[:-1]
        views = self._encoded()
        self._broadcast(lambda held: f'{head}, "game": {views.text(held)}}}')

    def _broadcast(self, message: Callable[[frozenset[int]], str]) -> None:
        # Clients holding the same seats (most often none: spectators) get the same text.
        texts: dict[frozenset[int], str] = {}
        for subscriber in self.subscribers:
            text = texts.get(subscriber.held)
            if text is None:
                text = texts[subscriber.held] = message(subscriber.held)
            subscriber.deliver(text)
