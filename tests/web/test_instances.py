"""Several servers on one PostgreSQL (issue 20): each game's commands serialised by the
database, updates through LISTEN/NOTIFY, computer seats played by the one server holding
the game's lease, and taken over when it dies.

Two apps run in this process on one scratch database; tests/cluster runs real servers
behind nginx."""

from __future__ import annotations

import contextlib
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pachisi.web.app import create_app
from pachisi.web.computers import CHORE_SECONDS, LEASE_SECONDS
from tests.cluster.harness import stored_moves
from tests.web.conftest import HUMAN, LENIENT, OPEN, POSTGRES_VARIABLE, claim, computer, new_game
from tests.web.conftest import _scratch_database as scratch_database
from tests.web.play import Player

pytestmark = pytest.mark.skipif(
    not os.environ.get(POSTGRES_VARIABLE), reason=f"{POSTGRES_VARIABLE} is not set"
)


@pytest.fixture
def database() -> Iterator[str]:
    with scratch_database(os.environ[POSTGRES_VARIABLE]) as url:
        yield url


@contextlib.contextmanager
def two_servers(database: str, **options: Any) -> Iterator[tuple[TestClient, TestClient]]:
    options.setdefault("settings", LENIENT)
    a = create_app(database, rng=random.Random(1), **options)
    b = create_app(database, rng=random.Random(2), **options)
    with TestClient(a) as first, TestClient(b) as second:
        yield first, second


def _tokens(made: dict[str, Any], *seats: int) -> str:
    links = {link["seat"]: link["token"] for link in made["links"]}
    return "&".join(f"token={links[seat]}" for seat in seats)


def _wait(condition: Any, seconds: float) -> float:
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < seconds, "the condition did not come true in time"
        time.sleep(0.05)
    return time.monotonic() - started


def test_moves_through_either_server_reach_the_clients_of_both(database: str) -> None:
    with two_servers(database) as (a, b):
        made = new_game(a, HUMAN, HUMAN, HUMAN, HUMAN)
        game = made["id"]
        with (
            a.websocket_connect(f"/ws/games/{game}?{_tokens(made, 0, 1, 2, 3)}") as on_a,
            b.websocket_connect(f"/ws/games/{game}?{_tokens(made, 0, 1, 2, 3)}") as on_b,
            b.websocket_connect(f"/ws/games/{game}") as watching_b,
        ):
            players = [Player(on_a), Player(on_b)]
            watcher = Player(watching_b)
            seen: list[int] = []
            for turn in range(30):
                me, other = players[turn % 2], players[1 - turn % 2]
                answer = me.move(choose=turn)
                assert answer["type"] == "update", answer
                update = other.receive()  # through the database's NOTIFY when on the other
                assert update["type"] == "update" and update["version"] == answer["version"]
                assert update["move"] == answer["move"]
                seen.append(watcher.receive()["version"])
            assert seen == list(range(1, 31))
        assert [v for v, _ in stored_moves(database, game)] == list(range(1, 31))


def _resync(player: Player) -> list[dict[str, Any]]:
    """Ask for a snapshot and read up to it: the messages that came before it."""
    player.ws.send_json({"type": "resync"})
    before = []
    while (message := player.receive())["type"] != "snapshot":
        before.append(message)
    return before


def test_one_version_is_stored_once_whichever_server_asks(database: str) -> None:
    with two_servers(database) as (a, b):
        made = new_game(a, HUMAN, HUMAN, HUMAN, HUMAN)
        game = made["id"]
        query = _tokens(made, 0, 1, 2, 3)
        with (
            a.websocket_connect(f"/ws/games/{game}?{query}") as on_a,
            b.websocket_connect(f"/ws/games/{game}?{query}") as on_b,
        ):
            first, second = Player(on_a), Player(on_b)
            stale = 0
            for _ in range(15):
                assert first.game["turn"]["you_throw"] and first.version == second.version
                seat, version = first.game["turn"]["seat"], first.version
                # Both servers get a throw for the same version before either answers.
                on_a.send_json({"type": "throw", "seat": seat, "version": version})
                on_b.send_json({"type": "throw", "seat": seat, "version": version})
                _wait(lambda v=version: len(stored_moves(database, game)) > v, 5.0)  # type: ignore[misc]
                time.sleep(0.2)
                assert len(stored_moves(database, game)) == version + 1  # one throw, never two
                for player in (first, second):
                    errors = [m for m in _resync(player) if m["type"] == "error"]
                    assert all(e["code"] == "stale" for e in errors), errors
                    stale += len(errors)
                assert first.version == second.version == version + 1
                # Act on the throw, whatever it was, so that the next throw is due.
                while not first.game["turn"]["you_throw"]:
                    first.move()
                    _resync(first)
                # b hears of a's moves a moment later, through the database.
                _wait(lambda: (_resync(second), second.version)[1] == first.version, 5.0)
            assert stale == 15  # each time, the second throw was refused
        stored = stored_moves(database, game)
        assert [v for v, _ in stored] == list(range(1, len(stored) + 1))


def test_a_claim_through_one_server_shows_on_the_other(database: str) -> None:
    with two_servers(database) as (a, b):
        made = new_game(a, HUMAN, OPEN, HUMAN, HUMAN)
        with b.websocket_connect(f"/ws/games/{made['id']}") as ws:
            watcher = Player(ws)
            assert watcher.game["seats"][1]["kind"] == "open"
            assert claim(a, made, 1).status_code == 200
            snapshot = watcher.receive()
            assert snapshot["type"] == "snapshot"
            assert snapshot["game"]["seats"][1]["kind"] == "human"
        # The invitation was used: neither server takes it again.
        assert claim(b, made, 1).status_code == 409


def test_a_dead_servers_computer_seats_are_taken_over(database: str) -> None:
    with two_servers(database, computer_delay=0.0) as (a, b):
        made = new_game(a, computer("random"), HUMAN, HUMAN, HUMAN)
        game = made["id"]
        service_a = a.app.state.service  # type: ignore[attr-defined]
        service_b = b.app.state.service  # type: ignore[attr-defined]
        assert game in service_a.computers.leased
        with b.websocket_connect(f"/ws/games/{game}?{_tokens(made, 1, 2, 3)}") as ws:
            me = Player(ws)
            by_a = 0
            while by_a < 3:  # the people play through b; a plays the computer seat
                by_a += sum(m.get("by") == 0 for m in me.wait_until_due())
                me.move()
            assert game not in service_b.computers.leased
            # a dies: it neither renews its leases nor plays any more.
            a.portal.call(service_a.computers.halt)  # type: ignore[attr-defined]
            while me.due():  # the people play up to the computer seat's turn
                me.move()
            assert me.game["turn"]["seat"] == 0
            taken = _wait(lambda: game in service_b.computers.leased, 10.0)
            # a's lease runs out, and b's next round of chores takes it.
            assert taken <= LEASE_SECONDS + 2 * CHORE_SECONDS + 1.0
            by_b = 0
            while by_b < 3 and me.game["result"] is None:
                by_b += sum(m.get("by") == 0 for m in me.wait_until_due())
                if me.game["result"] is None:
                    me.move()
            assert by_b >= 1  # b plays seat 0 now
    stored = stored_moves(database, game)
    assert [v for v, _ in stored] == list(range(1, len(stored) + 1))


def test_moves_stored_while_a_server_reads_the_game_reach_its_room(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A notification that comes while a server loads the game finds no room to catch up:
    the room reads what was stored meanwhile once it is in place."""
    with two_servers(database) as (a, b):
        made = new_game(a, HUMAN, HUMAN, HUMAN, HUMAN)
        game = made["id"]
        service_a = a.app.state.service  # type: ignore[attr-defined]
        service_b = b.app.state.service  # type: ignore[attr-defined]

        async def throw_on_a() -> None:
            room = await service_a.room(game)
            async with room.lock:
                await service_a.commit(room, service_a.throw(room.state), room.state.seat)

        load_game = service_b.storage.load_game

        def load_then_move(game_id: str) -> Any:
            stored = load_game(game_id)  # version 0 ...
            a.portal.call(throw_on_a)  # ... and a stores version 1, notifying b,
            time.sleep(0.5)  # which hears of it before it holds the game's room
            return stored

        monkeypatch.setattr(service_b.storage, "load_game", load_then_move)
        with b.websocket_connect(f"/ws/games/{game}") as ws:
            watcher = Player(ws)
            assert watcher.version == 1 == len(stored_moves(database, game))
            assert service_b.rooms[game].state == service_a.rooms[game].state


def test_a_lease_holder_that_misses_a_notification_still_plays(database: str) -> None:
    """The chores compare the games a server plays with the stored versions: a computer
    seat is played even when its server did not hear that the people had moved."""
    with two_servers(database, computer_delay=0.0) as (a, b):
        made = new_game(a, computer("random"), HUMAN, HUMAN, HUMAN)
        game = made["id"]
        service_a = a.app.state.service  # type: ignore[attr-defined]
        assert game in service_a.computers.leased
        with b.websocket_connect(f"/ws/games/{game}?{_tokens(made, 1, 2, 3)}") as ws:
            me = Player(ws)
            me.wait_until_due()
            # a hears nothing more from the database (its listening connection is gone) ...
            a.portal.call(service_a.computers._listener.stop)  # type: ignore[attr-defined]
            while me.due():  # ... while the people play up to the computer seat's turn
                me.move()
            assert me.game["turn"]["seat"] == 0 and me.game["result"] is None
            version = me.version
            # a's next round of chores reads the people's moves, and its seat plays.
            _wait(lambda: len(stored_moves(database, game)) > version, 2 * CHORE_SECONDS + 3.0)
            assert game in service_a.computers.leased
