"""The web game's database: games, their seats and their moves (SQLAlchemy 2 Core).

A game is stored as what is needed to rebuild it: its ruleset string, its seats, and every
move in order (``t<k>`` for a throw with ``k`` cowries mouth up, else the action's text).
Replaying the moves through the rules engine gives back the game exactly, so nothing else
about a game's state is stored. The same code runs on SQLite (the default, a file in the
user's data directory) and on PostgreSQL (psycopg 3); Alembic migrations in
``migrations/`` create and upgrade the schema when the storage is opened.

Every method is synchronous and meant to run on one worker thread (see
:mod:`pachisi.web.writer`), never on the event loop.

>>> url_for_engine("postgresql://u@h/db")
'postgresql+psycopg://u@h/db'
>>> url_for_engine("sqlite:////tmp/x.db")
'sqlite:////tmp/x.db'
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection, Engine

__all__ = [
    "GAME_STATUSES",
    "MIGRATIONS",
    "MoveRow",
    "SeatRow",
    "Storage",
    "StorageError",
    "StoredGame",
    "default_database_url",
    "migrate",
    "open_storage",
    "url_for_engine",
]

MIGRATIONS: Final = Path(__file__).with_name("migrations")
"""Alembic's script directory, inside the package."""

GAME_STATUSES: Final = ("open", "active", "finished")
"""``open``: a seat waits for a player; ``active``: every seat is taken; ``finished``: over."""

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
    sa.Index("ix_games_status_created", "status", "created"),
)
seats: Final = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer(), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("player", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
)
moves: Final = sa.Table(
    "moves",
    metadata,
    sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("version", sa.Integer(), primary_key=True),
    sa.Column("move", sa.String(40), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)


class _SeatNotOpen(Exception):
    """A seat to claim was taken meanwhile."""


class StorageError(Exception):
    """The database cannot be opened or used: a bad URL, a server out of reach."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat as stored: ``kind`` is ``human``, ``computer`` or ``open``."""

    seat: int
    kind: str
    player: str | None = None
    token_hash: str | None = None


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One committed move, with the game's status and result after it when they change."""

    game_id: str
    version: int
    move: str
    created: dt.datetime
    status: str | None = None
    result: str | None = None


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


def default_database_url() -> str:
    """The SQLite file ``pachisi.db`` in the user's data directory (created if missing)."""
    import platformdirs

    directory = Path(platformdirs.user_data_dir("pachisi"))
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'pachisi.db'}"


def url_for_engine(url: str) -> str:
    """The SQLAlchemy URL for a user's database URL: PostgreSQL goes through psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _engine(url: str) -> Engine:
    try:
        parsed = sa.engine.make_url(url_for_engine(url))
    except sa.exc.ArgumentError:
        raise StorageError(
            f"--database {url!r} is not a database URL (sqlite:///PATH or postgresql://...)"
        ) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise StorageError("--database: an SQLite database must be a file (sqlite:///PATH)")
        # One writer thread uses the connection; the migration runs on the caller's thread.
        engine = sa.create_engine(parsed, connect_args={"check_same_thread": False})
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if backend == "postgresql":
        if parsed.get_driver_name() != "psycopg":
            raise StorageError("--database: PostgreSQL is used through psycopg (postgresql://...)")
        return sa.create_engine(parsed, pool_pre_ping=True)
    raise StorageError(
        f"--database {url!r}: only sqlite:///PATH and postgresql://... are supported"
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers go on while a commit is written; FULL makes a commit durable (the
    # WAL is synced at every commit), so "committed before its event" holds on disk.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def migrate(connection: Connection) -> None:
    """Upgrade the database behind ``connection`` to the newest schema (Alembic)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def open_storage(url: str | None = None) -> Storage:
    """Open (and migrate) the database at ``url``, default :func:`default_database_url`.

    Raises :class:`StorageError` with a one-line message when that fails.
    """
    engine = _engine(url or default_database_url())
    try:
        with engine.begin() as connection:
            migrate(connection)
    except sa.exc.SQLAlchemyError as exc:
        engine.dispose()
        reason = " ".join(str(exc.orig if isinstance(exc, sa.exc.DBAPIError) else exc).split())
        raise StorageError(f"--database: cannot open the database: {reason}") from None
    return Storage(engine)


class Storage:
    """The game tables behind one SQLAlchemy engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def close(self) -> None:
        """Release the engine's connections."""
        self.engine.dispose()

    def create_game(
        self, game_id: str, ruleset: str, players: int, status: str, seat_rows: Sequence[SeatRow]
    ) -> dt.datetime:
        """Store a new game with its four seats; returns its creation time."""
        created = dt.datetime.now(dt.UTC)
        with self.engine.begin() as conn:
            conn.execute(
                games.insert().values(
                    id=game_id, ruleset=ruleset, players=players, created=created, status=status
                )
            )
            conn.execute(
                seats.insert(),
                [
                    {
                        "game_id": game_id,
                        "seat": row.seat,
                        "kind": row.kind,
                        "player": row.player,
                        "token_hash": row.token_hash,
                    }
                    for row in seat_rows
                ],
            )
        return created

    def claim_seats(
        self, game_id: str, seat_numbers: Sequence[int], token_hash: str, status: str
    ) -> bool:
        """Give open seats to the holder of ``token_hash``; False (and no change) unless every
        one of them was still open."""
        try:
            with self.engine.begin() as conn:
                self._claim(conn, game_id, seat_numbers, token_hash, status)
        except _SeatNotOpen:
            return False
        return True

    def _claim(
        self,
        conn: Connection,
        game_id: str,
        seat_numbers: Sequence[int],
        token_hash: str,
        status: str,
    ) -> None:
        taken = conn.execute(
            seats.update()
            .where(
                seats.c.game_id == game_id,
                seats.c.seat.in_(list(seat_numbers)),
                seats.c.kind == "open",
            )
            .values(kind="human", token_hash=token_hash)
        ).rowcount
        if taken != len(seat_numbers):
            raise _SeatNotOpen  # the transaction is rolled back: no seat changes
        conn.execute(games.update().where(games.c.id == game_id).values(status=status))

    def commit_moves(self, rows: Sequence[MoveRow]) -> None:
        """Store moves (of any games) in one transaction, with their games' new status."""
        with self.engine.begin() as conn:
            conn.execute(
                moves.insert(),
                [
                    {
                        "game_id": r.game_id,
                        "version": r.version,
                        "move": r.move,
                        "created": r.created,
                    }
                    for r in rows
                ],
            )
            for r in rows:
                if r.status is not None:
                    conn.execute(
                        games.update()
                        .where(games.c.id == r.game_id)
                        .values(status=r.status, result=r.result)
                    )

    def stored_move(self, game_id: str, version: int) -> str | None:
        """The move that made ``version`` of the game, if it is stored."""
        with self.engine.connect() as conn:
            move: str | None = conn.execute(
                sa.select(moves.c.move).where(
                    moves.c.game_id == game_id, moves.c.version == version
                )
            ).scalar()
            return move

    def load_game(self, game_id: str) -> StoredGame | None:
        """The game with id ``game_id`` and its moves in order, or None."""
        with self.engine.connect() as conn:
            game = conn.execute(games.select().where(games.c.id == game_id)).first()
            if game is None:
                return None
            seat_rows = conn.execute(
                seats.select().where(seats.c.game_id == game_id).order_by(seats.c.seat)
            ).all()
            move_texts = conn.execute(
                sa.select(moves.c.move).where(moves.c.game_id == game_id).order_by(moves.c.version)
            ).scalars()
            return StoredGame(
                id=game.id,
                ruleset=game.ruleset,
                players=game.players,
                created=_utc(game.created),
                status=game.status,
                result=game.result,
                seats=tuple(
                    SeatRow(row.seat, row.kind, row.player, row.token_hash) for row in seat_rows
                ),
                moves=tuple(move_texts),
            )

    def unfinished_game_ids(self) -> list[str]:
        """The ids of every game not over yet, oldest first: the games to resume."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    sa.select(games.c.id)
                    .where(games.c.status != "finished")
                    .order_by(games.c.created)
                ).scalars()
            )

    def list_games(self, status: str, limit: int = 100) -> list[dict[str, Any]]:
        """The newest ``limit`` games with ``status``, newest first, for the lobby."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                games.select()
                .where(games.c.status == status)
                .order_by(games.c.created.desc())
                .limit(limit)
            ).all()
            ids = [row.id for row in rows]
            kinds: dict[str, list[str]] = {game_id: ["open"] * 4 for game_id in ids}
            if ids:
                for seat in conn.execute(seats.select().where(seats.c.game_id.in_(ids))):
                    kinds[seat.game_id][seat.seat] = seat.kind
        return [
            {
                "id": row.id,
                "ruleset": row.ruleset,
                "players": row.players,
                "seats": kinds[row.id],
                "open_seats": [s for s, kind in enumerate(kinds[row.id]) if kind == "open"],
                "created": _utc(row.created).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "status": row.status,
            }
            for row in rows
        ]


def _utc(moment: dt.datetime) -> dt.datetime:
    # SQLite hands back naive datetimes; every time stored here is UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)
