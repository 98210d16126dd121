"""Stopping and starting the server loses nothing: games resume where they were, computer
seats included, and a seeded generator makes games reproducible."""

from __future__ import annotations

import random
import secrets
import time
from pathlib import Path

from fastapi.testclient import TestClient

from pachisi.web.app import create_app
from tests.web.conftest import HUMAN, LENIENT, OPEN, Serve, computer, new_game
from tests.web.play import Player


def test_a_new_server_on_the_same_database_resumes_the_game(serve: Serve) -> None:
    with serve() as client:
        made = new_game(client, HUMAN, HUMAN, OPEN, OPEN)
        token = made["links"][0]["token"]
        with client.websocket_connect(f"/ws/games/{made['id']}?token={token}") as ws:
            me = Player(ws)
            for _ in range(1):  # seat 0's throw-off; seat 1 is next
                me.move()
            before = client.get(f"/api/games/{made['id']}").json()
    with serve() as client:
        after = client.get(f"/api/games/{made['id']}").json()
        assert (after["version"], after["position"], after["moves"]) == (
            before["version"],
            before["position"],
            before["moves"],
        )
        with client.websocket_connect(f"/ws/games/{made['id']}?token={token}") as ws:
            assert Player(ws).game["seats"][0]["you"]  # the token still holds the seat
        assert made["id"] in [g["id"] for g in client.get("/api/games").json()]


def test_computer_seats_resume_after_a_restart(serve: Serve) -> None:
    # The first server stops while its computer seat waits to throw.
    with serve(computer_delay=60.0) as client:
        made = new_game(client, HUMAN, computer("random"), HUMAN, computer("greedy"))
        tokens = [made["links"][0]["token"], made["links"][1]["token"]]
        game = made["id"]
        query = "&".join(f"token={t}" for t in tokens)
        with client.websocket_connect(f"/ws/games/{game}?{query}") as ws:
            me = Player(ws)
            me.move()  # seat 0's throw-off; seat 1, a computer, is due
            assert me.game["turn"]["seat"] == 1
            stopped_at = me.version
    with (
        serve(computer_delay=0.0) as client,
        client.websocket_connect(f"/ws/games/{game}?{query}") as ws,
    ):
        me = Player(ws)
        me.wait_until_due()
        assert me.version > stopped_at
        assert me.game["seats"][me.game["turn"]["seat"]]["kind"] == "human"
        assert me.game["moves"][0] == client.get(f"/api/games/{game}").json()["moves"][0]


def _computer_moves(database: Path, seed: int, count: int = 150) -> list[str]:
    """The first ``count`` moves of four computer seats playing with throws seeded so."""
    app = create_app(f"sqlite:///{database}", rng=random.Random(seed), settings=LENIENT)
    with TestClient(app) as client:
        made = new_game(client, *[computer("random")] * 4)
        deadline = time.monotonic() + 60
        while True:
            view = client.get(f"/api/games/{made['id']}").json()
            if view["version"] >= count or view["result"] is not None:
                moves: list[str] = view["moves"][:count]
                return moves
            assert time.monotonic() < deadline, "the computer seats stopped playing"
            time.sleep(0.05)


def test_a_seeded_generator_makes_a_game_reproducible(tmp_path: Path) -> None:
    # A database each: a server resumes the unfinished games it finds, which would play on
    # with the same generator.
    first = _computer_moves(tmp_path / "1.db", 7)
    assert len(first) == 150
    assert _computer_moves(tmp_path / "2.db", 7) == first
    assert _computer_moves(tmp_path / "3.db", 8) != first


def test_throws_come_from_the_systems_secure_generator(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", settings=LENIENT)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        assert isinstance(service.rng, secrets.SystemRandom)
