"""When storage fails: a move that could not be stored changes nothing; a move stored
although its commit seemed to fail is taken, so the room never disagrees with storage."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from pachisi.web.storage import MoveRow
from tests.web.conftest import HUMAN, new_game
from tests.web.play import Player


def _hot_seat(client: TestClient) -> tuple[str, str]:
    made = new_game(client, HUMAN, HUMAN, HUMAN, HUMAN)
    tokens = "&".join(f"token={link['token']}" for link in made["links"])
    return made["id"], f"/ws/games/{made['id']}?{tokens}"


def test_a_move_that_cannot_be_stored_changes_nothing(client: TestClient) -> None:
    game, url = _hot_seat(client)
    writer: Any = client.app.state.service.writer  # type: ignore[attr-defined]

    async def unreachable(row: MoveRow) -> None:
        raise ConnectionError("the database went away")

    with client.websocket_connect(url) as ws:
        me = Player(ws)
        me.move()
        before = client.get(f"/api/games/{game}").json()
        real = writer.commit
        writer.commit = unreachable
        try:
            refused = me.move()
        finally:
            writer.commit = real
        assert refused["type"] == "error" and refused["code"] == "unavailable"
        assert client.get(f"/api/games/{game}").json() == before
        assert me.move()["type"] == "update"  # and play goes on once storage is back


def test_a_move_stored_despite_a_failed_commit_is_taken(client: TestClient) -> None:
    game, url = _hot_seat(client)
    writer: Any = client.app.state.service.writer  # type: ignore[attr-defined]
    real = writer.commit

    async def lost_reply(row: MoveRow) -> None:
        await real(row)
        raise ConnectionError("the connection dropped before the commit was confirmed")

    with client.websocket_connect(url) as ws:
        me = Player(ws)
        writer.commit = lost_reply
        try:
            answer = me.move()
        finally:
            writer.commit = real
        assert answer["type"] == "update" and answer["version"] == 1
        assert me.move()["version"] == 2
    assert client.get(f"/api/games/{game}").json()["version"] == 2
