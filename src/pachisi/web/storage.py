"""The web game's database: games, their seats and their moves, in the tables of
:mod:`pachisi.web.schema` (SQLAlchemy 2 Core). The same code runs on SQLite (the default,
a file in the user's data directory) and on PostgreSQL (psycopg 3); Alembic migrations
in ``migrations/`` create and upgrade the schema when the storage is opened.

Every method is synchronous and meant to run on one worker thread (see
:mod:`pachisi.web.writer`), never on the event loop.

>>> url_for_engine("postgresql://u@h/db")
'postgresql+psycopg://u@h/db'
>>> url_for_engine("sqlite:////tmp/x.db")
'sqlite:////tmp/x.db'
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection, Engine

from pachisi.web.schema import (
    ABANDONED,
    ADVANCE,
    CHANNEL,
    GAME_STATUSES,
    NOTIFY,
    GameNews,
    MoveRow,
    NewGame,
    SeatRow,
    StoredGame,
    VersionConflict,
    games,
    metadata,
    moves,
    seats,
)

__all__ = [
    "ABANDONED",
    "CHANNEL",
    "GAME_STATUSES",
    "MIGRATIONS",
    "GameNews",
    "MoveRow",
    "NewGame",
    "SeatRow",
    "Storage",
    "StorageError",
    "StoredGame",
    "VersionConflict",
    "default_database_url",
    "metadata",
    "migrate",
    "open_storage",
    "url_for_engine",
]

MIGRATIONS: Final = Path(__file__).with_name("migrations")
"""Alembic's script directory, inside the package."""

MIGRATION_LOCK: Final = 0x7061636869736901
"""The PostgreSQL advisory lock that one server at a time holds while it migrates."""


class _SeatNotOpen(Exception):
    """A seat to claim was taken meanwhile."""


class StorageError(Exception):
    """The database cannot be opened or used: a bad URL, a server out of reach."""


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
            if engine.dialect.name == "postgresql":
                # Servers started together on one database would migrate it together and
                # collide: the first migrates, the others wait and find it up to date.
                connection.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
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
        self.shared = engine.dialect.name == "postgresql"
        """Whether several servers may share this database (PostgreSQL; SQLite is one
        process's): only then are changes announced with ``NOTIFY``."""

    def close(self) -> None:
        """Release the engine's connections."""
        self.engine.dispose()

    def libpq_url(self) -> str:
        """The database's URL for a plain psycopg connection (the ``LISTEN`` of a server)."""
        url = self.engine.url.set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    def _notify(self, conn: Connection, payloads: Sequence[str]) -> None:
        # Delivered when the transaction commits, and only then: a server that hears of a
        # move can read it.
        if self.shared and payloads:
            # One statement for the whole group: a statement costs more than its rows.
            conn.execute(NOTIFY, {"channel": CHANNEL, "payloads": list(payloads)})

    def _now(self) -> Any:
        # Leases compare times written by different machines: PostgreSQL's clock is the one
        # they share. SQLite is one process's, whose clock is the machine's.
        if self.shared:
            return sa.func.extract("epoch", sa.func.clock_timestamp())
        return sa.literal(time.time(), sa.Float())

    # ----------------------------------------------------------------- games and seats

    def create_game(self, game: NewGame) -> dt.datetime:
        """Store a new game with its four seats; returns its creation time."""
        created = dt.datetime.now(dt.UTC)
        with self.engine.begin() as conn:
            conn.execute(
                games.insert().values(
                    id=game.id,
                    ruleset=game.ruleset,
                    players=game.players,
                    created=created,
                    updated=created,
                    status=game.status,
                    visibility=game.visibility,
                    version=0,
                    computer_due=game.computer_due,
                    creator=game.creator,
                    owner_hash=game.owner_hash,
                    watch_hash=game.watch_hash,
                )
            )
            conn.execute(
                seats.insert(),
                [
                    {
                        "game_id": game.id,
                        "seat": row.seat,
                        "kind": row.kind,
                        "player": row.player,
                        "token_hash": row.token_hash,
                        "invite_hash": row.invite_hash,
                    }
                    for row in game.seats
                ],
            )
        return created

    def unfinished_by(self, creator: str) -> int:
        """How many games not over yet ``creator`` made (a limit of docs/web.md)."""
        with self.engine.connect() as conn:
            count: int = conn.execute(
                sa.select(sa.func.count())
                .select_from(games)
                .where(games.c.creator == creator, games.c.status != "finished")
            ).scalar_one()
            return count

    def claim_seats(
        self,
        game_id: str,
        seat_numbers: Sequence[int],
        token_hash: str,
        status: str,
        invite_hash: str,
    ) -> bool:
        """Give open seats whose invitation is ``invite_hash`` to the holder of
        ``token_hash``; False (and no change) unless every one of them still was."""
        try:
            with self.engine.begin() as conn:
                taken = conn.execute(
                    seats.update()
                    .where(
                        seats.c.game_id == game_id,
                        seats.c.seat.in_(list(seat_numbers)),
                        seats.c.kind == "open",
                        seats.c.invite_hash == invite_hash,
                    )
                    .values(kind="human", token_hash=token_hash, invite_hash=None)
                ).rowcount
                if taken != len(seat_numbers):
                    raise _SeatNotOpen  # the transaction is rolled back: no seat changes
                conn.execute(games.update().where(games.c.id == game_id).values(status=status))
                self._notify(conn, [f"{game_id} seats"])
        except _SeatNotOpen:
            return False
        return True

    def set_invite(
        self, game_id: str, seat_numbers: Sequence[int], invite_hash: str | None
    ) -> bool:
        """Give open seats a new invitation (None: revoke it); False unless all were open."""
        try:
            with self.engine.begin() as conn:
                changed = conn.execute(
                    seats.update()
                    .where(
                        seats.c.game_id == game_id,
                        seats.c.seat.in_(list(seat_numbers)),
                        seats.c.kind == "open",
                    )
                    .values(invite_hash=invite_hash)
                ).rowcount
                if changed != len(seat_numbers):
                    raise _SeatNotOpen
                self._notify(conn, [f"{game_id} seats"])
        except _SeatNotOpen:
            return False
        return True

    # ----------------------------------------------------------------- moves

    def commit_moves(self, rows: Sequence[MoveRow]) -> None:
        """Store moves (of any games) in one transaction, each on top of the version it was
        made at, with its game's new status; :class:`VersionConflict` (and nothing stored)
        when a game's stored version is not the one a move was made at."""
        with self.engine.begin() as conn:
            # The row lock each update takes makes a second server's update of the same
            # game wait, and then find the version moved on: never two moves v+1. One
            # statement for the whole group (a group holds a game's moves in order).
            changed = conn.execute(
                ADVANCE,
                [
                    {
                        "g_id": r.game_id,
                        "g_before": r.version - 1,
                        "g_version": r.version,
                        "g_updated": r.created,
                        "g_due": r.computer_due,
                        "g_status": r.status,
                        "g_result": r.result,
                    }
                    for r in rows
                ],
            ).rowcount
            if changed != len(rows):
                raise VersionConflict(
                    f"{len(rows) - changed} of {len(rows)} moves were made on a version that "
                    "is not current"
                )
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
            # The other servers hear of the moves from the trigger on ``moves`` (0002).

    def stored_move(self, game_id: str, version: int) -> str | None:
        """The move that made ``version`` of the game, if it is stored."""
        with self.engine.connect() as conn:
            move: str | None = conn.execute(
                sa.select(moves.c.move).where(
                    moves.c.game_id == game_id, moves.c.version == version
                )
            ).scalar()
            return move

    def set_computer_due(self, game_id: str, version: int, due: bool) -> None:
        """Correct a game's computer-due mark, if it is still at ``version``."""
        with self.engine.begin() as conn:
            conn.execute(
                games.update()
                .where(games.c.id == game_id, games.c.version == version)
                .values(computer_due=due)
            )

    # ----------------------------------------------------------------- reading

    def load_game(self, game_id: str) -> StoredGame | None:
        """The game with id ``game_id`` and its moves in order, or None."""
        with self.engine.connect() as conn:
            game = conn.execute(games.select().where(games.c.id == game_id)).first()
            if game is None:
                return None
            return StoredGame(
                id=game.id,
                ruleset=game.ruleset,
                players=game.players,
                created=_utc(game.created),
                status=game.status,
                result=game.result,
                seats=self._seats(conn, game_id),
                moves=self._moves(conn, game_id, 0),
                visibility=game.visibility,
                owner_hash=game.owner_hash,
                watch_hash=game.watch_hash,
            )

    def news(self, game_id: str, version: int) -> GameNews | None:
        """The game's status, seats and the moves after ``version``; None if it is gone."""
        with self.engine.connect() as conn:
            game = conn.execute(
                sa.select(games.c.status, games.c.result).where(games.c.id == game_id)
            ).first()
            if game is None:
                return None
            return GameNews(
                game.status,
                game.result,
                self._seats(conn, game_id),
                self._moves(conn, game_id, version),
            )

    @staticmethod
    def _seats(conn: Connection, game_id: str) -> tuple[SeatRow, ...]:
        rows = conn.execute(
            seats.select().where(seats.c.game_id == game_id).order_by(seats.c.seat)
        ).all()
        return tuple(
            SeatRow(row.seat, row.kind, row.player, row.token_hash, row.invite_hash) for row in rows
        )

    @staticmethod
    def _moves(conn: Connection, game_id: str, after: int) -> tuple[str, ...]:
        return tuple(
            conn.execute(
                sa.select(moves.c.move)
                .where(moves.c.game_id == game_id, moves.c.version > after)
                .order_by(moves.c.version)
            ).scalars()
        )

    def list_games(self, status: str, limit: int = 100) -> list[dict[str, Any]]:
        """The newest ``limit`` public games with ``status``, newest first, for the lobby."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                games.select()
                .where(games.c.status == status, games.c.visibility == "public")
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

    # ----------------------------------------------------------------- servers' chores

    def abandon_idle(self, days: float) -> list[str]:
        """End as abandoned every unfinished game with no move for ``days`` days (their
        records are kept); returns their ids."""
        cutoff = dt.datetime.now(dt.UTC) - dt.timedelta(days=days)
        with self.engine.begin() as conn:
            ids = list(
                conn.execute(
                    sa.select(games.c.id).where(
                        games.c.status != "finished", games.c.updated < cutoff
                    )
                ).scalars()
            )
            if ids:
                conn.execute(
                    games.update()
                    .where(games.c.id.in_(ids), games.c.status != "finished")
                    .values(status="finished", result=ABANDONED, computer_due=False)
                )
                self._notify(conn, [f"{game_id} ended" for game_id in ids])
        return ids

    def take_leases(self, owner: str, seconds: float, limit: int = 50) -> list[str]:
        """Lease to ``owner`` for ``seconds`` the games whose computer seat is due and that
        no server holds (or whose lease ran out); returns their ids."""
        with self.engine.begin() as conn:
            now = self._now()
            free = sa.or_(games.c.lease_owner.is_(None), games.c.lease_until < now)
            ids = list(
                conn.execute(
                    sa.select(games.c.id)
                    .where(games.c.computer_due, games.c.status != "finished", free)
                    .order_by(games.c.updated)
                    .limit(limit)
                ).scalars()
            )
            taken = []
            for game_id in ids:
                # Taken one by one, each only if still free: two servers racing for a game
                # cannot both win it.
                if conn.execute(
                    games.update()
                    .where(games.c.id == game_id, free)
                    .values(lease_owner=owner, lease_until=now + seconds)
                ).rowcount:
                    taken.append(game_id)
            return taken

    def take_lease(self, game_id: str, owner: str, seconds: float) -> bool:
        """Lease one game to ``owner`` if it is free or ``owner``'s already."""
        with self.engine.begin() as conn:
            now = self._now()
            return bool(
                conn.execute(
                    games.update()
                    .where(
                        games.c.id == game_id,
                        games.c.status != "finished",
                        sa.or_(
                            games.c.lease_owner.is_(None),
                            games.c.lease_owner == owner,
                            games.c.lease_until < now,
                        ),
                    )
                    .values(lease_owner=owner, lease_until=now + seconds)
                ).rowcount
            )

    def renew_leases(self, owner: str, game_ids: Sequence[str], seconds: float) -> dict[str, int]:
        """Extend ``owner``'s leases on ``game_ids``; returns those it still holds, each
        with its stored version."""
        if not game_ids:
            return {}
        with self.engine.begin() as conn:
            now = self._now()
            conn.execute(
                games.update()
                .where(
                    games.c.id.in_(list(game_ids)),
                    games.c.lease_owner == owner,
                    games.c.status != "finished",
                )
                .values(lease_until=now + seconds)
            )
            held = conn.execute(
                sa.select(games.c.id, games.c.version).where(
                    games.c.id.in_(list(game_ids)),
                    games.c.lease_owner == owner,
                    games.c.status != "finished",
                )
            )
            return {row.id: row.version for row in held}

    def release_leases(self, owner: str | None, game_ids: Sequence[str] | None = None) -> None:
        """Give up ``owner``'s leases (on ``game_ids``, or all), for another server to take;
        ``owner`` None: everybody's (a one-process database at start-up)."""
        with self.engine.begin() as conn:
            condition = games.c.lease_owner == owner if owner is not None else sa.true()
            if game_ids is not None:
                condition = sa.and_(condition, games.c.id.in_(list(game_ids)))
            conn.execute(games.update().where(condition).values(lease_owner=None, lease_until=None))


def _utc(moment: dt.datetime) -> dt.datetime:
    # SQLite hands back naive datetimes; every time stored here is UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)
