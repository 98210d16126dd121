"""The WebSocket protocol: full games, versions, stale and forbidden commands, spectators,
reconnecting, hot-seat, hints."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pachisi.notation import read_game, write_position
from pachisi.web.storage import url_for_engine
from tests.web.conftest import HUMAN, OPEN, claim, computer, new_game
from tests.web.play import Player


def _socket(client: TestClient, game: str, *tokens: str) -> str:
    query = "&".join(f"token={token}" for token in tokens)
    return f"/ws/games/{game}?{query}" if query else f"/ws/games/{game}"


def test_a_game_against_the_computer_is_played_to_the_end(client: TestClient) -> None:
    made = new_game(client, HUMAN, computer("greedy"), computer("random"), computer("easy"))
    token = made["links"][0]["token"]
    with client.websocket_connect(_socket(client, made["id"], token)) as ws:
        me = Player(ws)
        assert me.game["seats"][0]["you"] and not me.game["seats"][1]["you"]
        versions = [me.version]
        moves = 0
        while me.game["result"] is None:
            versions += [m["version"] for m in me.wait_until_due()]
            if me.game["result"] is not None:
                break
            answer = me.move(choose=moves)
            assert answer["type"] == "update" and answer["by"] == 0, answer
            versions.append(answer["version"])
            moves += 1
        assert moves > 10
        assert versions == list(range(versions[0], versions[-1] + 1))  # no gap, no repeat
        final = me.game
    assert final["status"] == "finished" and final["turn"]["stage"] == "over"
    assert made["id"] not in client.app.state.service.rooms  # type: ignore[attr-defined]
    assert len(final["moves"]) == final["version"]
    record = read_game(client.get(f"/api/games/{made['id']}/record").text)
    assert write_position(record.state) == final["position"]
    assert record.outcome() is not None
    assert [g["id"] for g in client.get("/api/games?status=finished").json()].count(made["id"]) == 1
    # The history's last page, of the last step alone (tests/web/test_history.py pages it all).
    last = {"start": final["version"]}
    history = client.get(f"/api/games/{made['id']}/history", params=last).json()
    assert history["version"] == final["version"] and history["next"] is None
    assert [step["version"] for step in history["steps"]] == [final["version"]]
    assert history["steps"][-1]["position"] == final["position"]
    assert history["steps"][-1]["result"] == final["result"]


def test_updates_carry_events_with_squares(client: TestClient) -> None:
    made = new_game(client, HUMAN, HUMAN, HUMAN, HUMAN)
    tokens = [link["token"] for link in made["links"]]
    with client.websocket_connect(_socket(client, made["id"], *tokens)) as ws:
        me = Player(ws)  # hot-seat: one connection holds all four seats
        assert all(seat["you"] for seat in me.game["seats"])
        entered = None
        while entered is None:
            answer = me.move()
            assert answer["type"] == "update", answer
            assert answer["move"] == answer["game"]["moves"][-1]
            kinds = [e["kind"] for e in answer["events"]]
            if "enter" in kinds or "move" in kinds:
                entered = next(e for e in answer["events"] if e["kind"] in ("enter", "move"))
        assert entered["square_to"] is not None
        piece = me.game["pieces"][entered["piece"]]
        assert piece["square"] == entered["square_to"] and piece["where"] == "board"


def test_stale_and_out_of_turn_commands_change_nothing(client: TestClient) -> None:
    made = new_game(client, HUMAN, HUMAN, OPEN, OPEN)
    first, second = (link["token"] for link in made["links"])
    with (
        client.websocket_connect(_socket(client, made["id"], first)) as ws0,
        client.websocket_connect(_socket(client, made["id"], second)) as ws1,
    ):
        south, east = Player(ws0), Player(ws1)
        assert south.game["turn"]["stage"] == "throw_off" and south.game["turn"]["seat"] == 0
        before = south.state()
        stale = south.send(type="throw", seat=0, version=before[0] + 1)
        assert stale["type"] == "error" and stale["code"] == "stale"
        early = east.send(type="throw", seat=1, version=east.version)
        assert early["code"] == "illegal" and "seat 0's turn" in early["message"]
        other = east.send(type="throw", seat=0, version=east.version)
        assert other["code"] == "forbidden"
        wrong = south.send(type="act", seat=0, version=south.version, action="-")
        assert wrong["code"] == "illegal" and "throw is due" in wrong["message"]
        assert south.state() == before
        thrown = south.send(type="throw", seat=0, version=south.version)
        assert thrown["type"] == "update" and thrown["version"] == before[0] + 1
        seen = east.receive()
        assert seen["type"] == "update" and seen["version"] == thrown["version"]
        again = south.send(type="throw", seat=0, version=before[0])
        assert again["code"] == "stale"


def test_spectators_see_every_move_and_cannot_act(client: TestClient) -> None:
    made = new_game(client, HUMAN, computer("random"), computer("random"), computer("random"))
    token = made["links"][0]["token"]
    with (
        client.websocket_connect(_socket(client, made["id"])) as watching,
        client.websocket_connect(_socket(client, made["id"], token)) as playing,
    ):
        spectator, me = Player(watching), Player(playing)
        assert not any(seat["you"] for seat in spectator.game["seats"])
        for _ in range(6):
            me.wait_until_due()
            me.move()
        refused = spectator.send(type="throw", seat=0, version=me.version)
        while refused["type"] == "update":
            refused = spectator.receive()
        assert refused["code"] in ("forbidden", "stale")
        spectator.ws.send_json({"type": "resync"})
        while True:
            message = spectator.receive()
            if message["type"] == "snapshot":
                break
        assert spectator.version >= 6 and spectator.game["legal"] == []
        assert (
            spectator.game["moves"][: len(me.game["moves"])]
            == me.game["moves"][: len(spectator.game["moves"])]
        )


def test_reconnecting_resumes_the_seat(client: TestClient) -> None:
    made = new_game(client, HUMAN, HUMAN, OPEN, OPEN)
    token = made["links"][0]["token"]
    with client.websocket_connect(_socket(client, made["id"], token)) as ws:
        me = Player(ws)
        me.move()
        version, position = me.version, me.game["position"]
    with client.websocket_connect(_socket(client, made["id"], token)) as ws:
        again = Player(ws)
        assert (again.version, again.game["position"]) == (version, position)
        assert again.game["seats"][0]["you"]
    # A page that keeps its token in the cookie resumes without the token in the URL.
    client.cookies.set(f"pachisi_{made['id']}_0", token)
    try:
        with client.websocket_connect(_socket(client, made["id"])) as ws:
            assert Player(ws).game["seats"][0]["you"]
        client.cookies.set(f"pachisi_{made['id']}_1", "not-a-token")
        with client.websocket_connect(_socket(client, made["id"])) as ws:
            assert [s["you"] for s in Player(ws).game["seats"]] == [True, False, False, False]
    finally:
        client.cookies.clear()


def test_unknown_tokens_and_games_close_the_socket(client: TestClient) -> None:
    made = new_game(client, HUMAN, OPEN, OPEN, OPEN)
    with client.websocket_connect(_socket(client, made["id"], "forged")) as ws:
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "forbidden"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect("/ws/games/nothere") as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_a_claimed_seat_shows_in_every_client(client: TestClient) -> None:
    made = new_game(client, HUMAN, OPEN, HUMAN, HUMAN)
    with client.websocket_connect(_socket(client, made["id"])) as ws:
        spectator = Player(ws)
        assert spectator.game["seats"][1]["kind"] == "open"
        claim(client, made, 1)
        message = spectator.receive()
        assert message["type"] == "snapshot" and message["version"] == spectator.version
        assert message["game"]["seats"][1]["kind"] == "human"
        assert message["game"]["status"] == "active"


def test_a_hint_ranks_the_legal_actions(client: TestClient) -> None:
    made = new_game(client, HUMAN, HUMAN, HUMAN, HUMAN)
    tokens = [link["token"] for link in made["links"]]
    with client.websocket_connect(_socket(client, made["id"], *tokens)) as ws:
        me = Player(ws)
        early = me.send(type="hint", seat=me.game["turn"]["seat"])
        assert early["code"] == "illegal"  # a throw is due: nothing to rank
        while not me.game["turn"]["you_act"]:
            me.move()
        seat = me.game["turn"]["seat"]
        answer = me.send(type="hint", seat=seat)
        assert answer["type"] == "hint" and answer["seat"] == seat
        legal = {entry["action"] for entry in me.game["legal"]}
        assert {entry["action"] for entry in answer["ranking"]} == legal
        wins = [entry["win"] for entry in answer["ranking"]]
        assert wins == sorted(wins, reverse=True) and all(0 <= w <= 1 for w in wins)
        assert me.send(type="hint", seat=(seat + 1) % 4)["code"] == "illegal"


def test_every_update_is_in_the_database_when_it_arrives(
    client: TestClient, database_url: str
) -> None:
    made = new_game(client, HUMAN, computer("random"), HUMAN, computer("random"))
    tokens = [made["links"][0]["token"], made["links"][1]["token"]]
    reader = sa.create_engine(url_for_engine(database_url))
    try:
        with client.websocket_connect(_socket(client, made["id"], *tokens)) as ws:
            me = Player(ws)
            checked = 0
            while checked < 40:
                me.wait_until_due()
                answer = me.move()
                for message in [answer, *me.wait_until_due()]:
                    assert message["type"] == "update", message
                    with reader.connect() as conn:
                        stored = conn.execute(
                            sa.text("SELECT move FROM moves WHERE game_id = :g AND version = :v"),
                            {"g": made["id"], "v": message["version"]},
                        ).scalar()
                    assert stored == message["move"]
                    checked += 1
    finally:
        reader.dispose()
