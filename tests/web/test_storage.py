"""Storage: the migrations make the schema the tables describe, URLs, claims, and the
writer's group commits."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from pachisi.web.storage import (
    MoveRow,
    NewGame,
    SeatRow,
    StorageError,
    metadata,
    open_storage,
    url_for_engine,
)
from pachisi.web.writer import Writer


def test_the_migrations_make_exactly_the_tables_the_code_uses(database_url: str) -> None:
    storage = open_storage(database_url)
    try:
        with storage.engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), metadata)
        assert differences == []
        open_storage(database_url).close()  # a second start finds the schema up to date
    finally:
        storage.close()


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nonsense", "not a database URL"),
        ("mysql://u@h/db", "only sqlite"),
        ("sqlite://", "must be a file"),
        ("sqlite:///:memory:", "must be a file"),
        ("postgresql+psycopg2://u@h/db", "psycopg"),
        ("postgresql://nobody@127.0.0.1:1/none", "cannot open the database"),
    ],
)
def test_bad_database_urls_are_one_clear_error(url: str, words: str) -> None:
    with pytest.raises(StorageError, match=words) as raised:
        open_storage(url)
    assert "\n" not in str(raised.value)


def test_an_unwritable_sqlite_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="cannot open the database"):
        open_storage(f"sqlite:///{tmp_path / 'missing' / 'dir' / 'games.db'}")


def test_postgres_urls_go_through_psycopg() -> None:
    assert url_for_engine("postgres://u:p@h:5/db") == "postgresql+psycopg://u:p@h:5/db"
    assert url_for_engine("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"


def _seats() -> list[SeatRow]:
    return [SeatRow(0, "human", None, "ab" * 32), SeatRow(1, "open", None, None, "34" * 32)] + [
        SeatRow(seat, "computer", "greedy") for seat in (2, 3)
    ]


def test_a_seat_is_claimed_once(database_url: str) -> None:
    storage = open_storage(database_url)
    try:
        storage.create_game(NewGame("g1", "classic", 4, "open", tuple(_seats())))
        assert not storage.claim_seats("g1", [1], "cd" * 32, "active", "12" * 32)  # not its invite
        assert storage.claim_seats("g1", [1], "cd" * 32, "active", "34" * 32)
        assert not storage.claim_seats("g1", [1], "ef" * 32, "active", "34" * 32)
        assert not storage.claim_seats("g1", [1, 2], "ef" * 32, "active", "34" * 32)  # a computer
        stored = storage.load_game("g1")
        assert stored is not None and stored.status == "active"
        assert stored.seats[1] == SeatRow(1, "human", None, "cd" * 32)
        assert stored.seats[2].kind == "computer"
    finally:
        storage.close()


def test_the_writer_commits_waiting_moves_together(database_url: str) -> None:
    storage = open_storage(database_url)
    now = dt.datetime.now(dt.UTC)
    for n in range(20):
        storage.create_game(NewGame(f"g{n}", "classic", 4, "active", tuple(_seats())))

    async def write_all() -> tuple[int, list[bool]]:
        writer = Writer(storage)
        writer.start()
        first = [MoveRow(f"g{n}", 1, "t3", now) for n in range(20)]
        await asyncio.gather(*(writer.commit(row) for row in first))
        groups = writer.groups
        # Version 1 of g0 again: that one fails, alone; the move waiting with it commits.
        second = [MoveRow("g0", 1, "t4", now), MoveRow("g1", 2, "t5", now)]
        outcomes = await asyncio.gather(*(writer.commit(r) for r in second), return_exceptions=True)
        await writer.stop()
        return groups, [isinstance(outcome, Exception) for outcome in outcomes]

    try:
        groups, failed = asyncio.run(write_all())
        assert groups < 20  # committed in groups, not one transaction a move
        assert failed == [True, False]
        moves = [storage.load_game(f"g{n}").moves for n in range(20)]  # type: ignore[union-attr]
        assert moves == [("t3",), ("t3", "t5")] + [("t3",)] * 18
    finally:
        storage.close()
