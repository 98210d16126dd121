"""Fixtures for the web game's tests: a database per test (SQLite, and PostgreSQL when
``PACHISI_TEST_DATABASE_URL`` names one), apps over it, and a client that plays."""

from __future__ import annotations

import os
import random
import secrets
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Final

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    # Starlette's test client warns that it will want httpx2 one day; httpx is what we have.
    warnings.filterwarnings("ignore", message=".*httpx2")
    from fastapi.testclient import TestClient

from pachisi.web.app import create_app
from pachisi.web.settings import Settings
from pachisi.web.storage import url_for_engine

POSTGRES_VARIABLE = "PACHISI_TEST_DATABASE_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database for one test: an SQLite file, or a new database on the PostgreSQL
    server of the environment (dropped afterwards), so that no test sees another's games."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    url = os.environ.get(POSTGRES_VARIABLE)
    if not url:
        pytest.skip(f"{POSTGRES_VARIABLE} is not set: no PostgreSQL to test against")
    with _scratch_database(url) as scratch:
        yield scratch


@contextmanager
def _scratch_database(url: str) -> Iterator[str]:
    server = sa.engine.make_url(url_for_engine(url))
    name = f"pachisi_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield server.set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


Serve = Callable[..., AbstractContextManager[TestClient]]


LENIENT: Final = Settings(
    allow_any_player=True,
    allow_computer_games=True,
    create_burst=100_000,
    max_unfinished_per_creator=1_000_000,
    commands_burst=100_000,
    commands_per_second=100_000,
    sockets_per_address=100_000,
)
"""Settings for the tests of other things than the limits: every player, no limit in
the way (every test client has the same address). The limits' tests pass their own."""


@pytest.fixture
def serve(database_url: str) -> Serve:
    """Start an app over the test's database (``rng`` seeds the throws, default 1; the
    settings :data:`LENIENT` unless ``settings`` is given)."""

    @contextmanager
    def start(**options: Any) -> Iterator[TestClient]:
        options.setdefault("rng", random.Random(1))
        options.setdefault("settings", LENIENT)
        with TestClient(create_app(database_url, **options)) as client:
            yield client

    return start


@pytest.fixture
def client(serve: Serve) -> Iterator[TestClient]:
    with serve() as started:
        yield started


def new_game(client: TestClient, *seats: dict[str, Any], **body: Any) -> dict[str, Any]:
    """Create a game with these seat specs; the response's JSON."""
    response = client.post("/api/games", json={"seats": list(seats), **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def claim(client: TestClient, made: dict[str, Any], seat: int, invite: str | None = None) -> Any:
    """Claim ``seat`` of the game ``made`` with its invitation (or ``invite``)."""
    if invite is None:
        invites = {i["seat"]: i["invite"] for i in made["invites"]}
        invite = invites.get(seat, "no-invitation")
    return client.post(f"/api/games/{made['id']}/seats/{seat}/claim", json={"invite": invite})


HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}


def computer(player: str = "random") -> dict[str, Any]:
    return {"kind": "computer", "player": player}
