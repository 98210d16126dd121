"""Fixtures for the web game's tests: a database per test (SQLite, and PostgreSQL when
``PACHISI_TEST_DATABASE_URL`` names one), apps over it, and a client that plays."""

from __future__ import annotations

import os
import random
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    # Starlette's test client warns that it will want httpx2 one day; httpx is what we have.
    warnings.filterwarnings("ignore", message=".*httpx2")
    from fastapi.testclient import TestClient

from pachisi.web.app import create_app

POSTGRES_VARIABLE = "PACHISI_TEST_DATABASE_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database for one test: a fresh SQLite file, or the PostgreSQL of the environment."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url = os.environ.get(POSTGRES_VARIABLE)
    if not url:
        pytest.skip(f"{POSTGRES_VARIABLE} is not set: no PostgreSQL to test against")
    return url


Serve = Callable[..., AbstractContextManager[TestClient]]


@pytest.fixture
def serve(database_url: str) -> Serve:
    """Start an app over the test's database (``rng`` seeds the throws, default 1)."""

    @contextmanager
    def start(**options: Any) -> Iterator[TestClient]:
        options.setdefault("rng", random.Random(1))
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


HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}


def computer(player: str = "random") -> dict[str, Any]:
    return {"kind": "computer", "player": player}
