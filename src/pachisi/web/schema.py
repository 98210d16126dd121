"""The web game's tables and the rows that go in and out of them (SQLAlchemy 2 Core);
:mod:`pachisi.web.storage` reads and writes them.

A game is stored as what is needed to rebuild it: its ruleset string, its seats, and every
move in order (``t<k>`` for a throw with ``k`` cowries mouth up, else the action's text).
Replaying the moves through the rules engine gives back the game exactly, so nothing else
about a game's state is stored. The Alembic migrations in ``migrations/`` make exactly
these tables (``tests/web/test_storage.py`` compares them).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

import sqlalchemy as sa

__all__ = [
    "ABANDONED",
    "ADVANCE",
    "CHANNEL",
    "GAME_STATUSES",
    "NOTIFY",
    "GameNews",
    "MoveRow",
    "NewGame",
    "SeatRow",
    "StoredGame",
    "VersionConflict",
    "games",
    "metadata",
    "moves",
    "seats",
]

GAME_STATUSES: Final = ("open", "active", "finished")
"""``open``: a seat waits for a player; ``active``: every seat is taken; ``finished``: over."""

ABANDONED: Final = "abandoned"
"""The ``result`` of a game that ended because nobody played it for too long."""

CHANNEL: Final = "pachisi_games"
"""The PostgreSQL ``NOTIFY`` channel on which servers tell each other that a game changed:
the payload is ``ID VERSION MOVE`` after a move (so that a server holding the game at the
version before can apply it without reading it back), ``ID seats`` after a claim or a new
invitation, ``ID ended`` when a game is abandoned."""

metadata: Final = sa.MetaData()

games: Final = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("ruleset", sa.Text(), nullable=False),
    sa.Column("players", sa.Integer(), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("result", sa.String(16), nullable=True),
    # ``public`` games are listed in the lobby and open to watch; ``private`` ones need a link.
    sa.Column("visibility", sa.String(8), nullable=False, server_default="public"),
    # The number of moves: a move is stored only on top of the version it was made at, which
    # serialises one game's commands across every server on the database.
    sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=True),
    # Whether a computer seat is to throw or act: the games a server takes a lease on.
    sa.Column("computer_due", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("creator", sa.String(64), nullable=True),
    sa.Column("owner_hash", sa.String(64), nullable=True),
    sa.Column("watch_hash", sa.String(64), nullable=True),
    sa.Column("lease_owner", sa.String(64), nullable=True),
    sa.Column("lease_until", sa.Float(), nullable=True),
    sa.Index("ix_games_status_created", "status", "created"),
    sa.Index("ix_games_creator_status", "creator", "status"),
    sa.Index("ix_games_status_updated", "status", "updated"),
    sa.Index("ix_games_due", "computer_due", "status"),
)
seats: Final = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("player", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("invite_hash", sa.String(64), nullable=True),
)
moves: Final = sa.Table(
    "moves",
    metadata,
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("version", sa.Integer(), primary_key=True),
    sa.Column("move", sa.String(40), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)


ADVANCE: Final = (
    games.update()
    .where(
        games.c.id == sa.bindparam("g_id"),
        games.c.version == sa.bindparam("g_before"),
        games.c.status != "finished",
    )
    .values(
        version=sa.bindparam("g_version"),
        updated=sa.bindparam("g_updated"),
        computer_due=sa.bindparam("g_due"),
        # A move that changes no status leaves status and result as they are.
        status=sa.func.coalesce(sa.bindparam("g_status", type_=sa.String()), games.c.status),
        result=sa.func.coalesce(sa.bindparam("g_result", type_=sa.String()), games.c.result),
    )
)
"""A move's update of its game: only on top of the version it was made at."""


NOTIFY: Final = sa.text(
    "SELECT pg_notify(:channel, payload) FROM unnest(CAST(:payloads AS text[])) AS payload"
)
"""Notify the other servers of changes (PostgreSQL only)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat as stored: ``kind`` is ``human``, ``computer`` or ``open``."""

    seat: int
    kind: str
    player: str | None = None
    token_hash: str | None = None
    invite_hash: str | None = None


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One committed move, with the game's status and result after it when they change, and
    whether a computer seat is due after it."""

    game_id: str
    version: int
    move: str
    created: dt.datetime
    status: str | None = None
    result: str | None = None
    computer_due: bool = False


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to store: who may see it and who made it, besides its ruleset and seats."""

    id: str
    ruleset: str
    players: int
    status: str
    seats: tuple[SeatRow, ...]
    visibility: str = "public"
    creator: str | None = None
    owner_hash: str | None = None
    watch_hash: str | None = None
    computer_due: bool = False


@dataclass(frozen=True, slots=True)
class GameNews:
    """What a game's stored row says beyond a known version: for a server catching up."""

    status: str
    result: str | None
    seats: tuple[SeatRow, ...]
    moves: tuple[str, ...]


class VersionConflict(Exception):
    """A move was made on top of a version that is not the game's stored version any more
    (another server stored that version first, or the game ended meanwhile)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: enough to rebuild it by replaying ``moves``."""

    id: str
    ruleset: str
    players: int
    created: dt.datetime
    status: str
    result: str | None
    seats: tuple[SeatRow, ...]
    moves: tuple[str, ...]
    visibility: str = "public"
    owner_hash: str | None = None
    watch_hash: str | None = None
