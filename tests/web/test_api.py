"""The REST API: meta, board, creating games, claiming seats, listing, views, records."""

from __future__ import annotations

from fastapi.testclient import TestClient

from pachisi.notation import read_game
from pachisi.rules.board import CASTLES
from tests.web.conftest import HUMAN, OPEN, claim, computer, new_game


def test_meta_lists_rulesets_players_and_languages(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert "classic" in [r["name"] for r in meta["rulesets"]]
    assert {"easy", "medium", "hard", "expert", "random", "greedy"} <= set(meta["players"])
    assert meta["default_player"] == "medium"
    assert meta["languages"] == ["en", "de", "cs", "hu", "hi"]


def test_board_has_96_squares_12_castles_and_a_route_per_seat(client: TestClient) -> None:
    board = client.get("/api/board").json()
    assert board["grid"] == 19 and len(board["squares"]) == 96
    assert {s["id"] for s in board["squares"] if s["castle"]} == set(CASTLES)
    assert board["squares"][9] == {"id": 9, "x": 9, "y": 7, "castle": False, "name": "j8"}
    assert [len(board["routes"][str(seat)]) for seat in range(4)] == [83] * 4
    assert board["routes"]["0"][0] == 9  # seat 0's square 1 is j8
    assert [s["colour_name"] for s in board["seats"]] == ["red", "yellow", "green", "black"]


def test_create_gives_links_for_human_seats_and_invites_for_open_ones(client: TestClient) -> None:
    made = new_game(client, HUMAN, computer("medium"), OPEN, HUMAN)
    assert [link["seat"] for link in made["links"]] == [0, 3]
    assert made["links"][0]["url"] == f"/game/{made['id']}?seat=0&token={made['links'][0]['token']}"
    assert made["links"][0]["token"] != made["links"][1]["token"]
    assert [invite["seat"] for invite in made["invites"]] == [2]
    assert made["hotseat_url"].count("token=") == 2
    view = client.get(f"/api/games/{made['id']}").json()
    assert [s["kind"] for s in view["seats"]] == ["human", "computer", "open", "human"]
    assert view["seats"][1]["player"] == "medium"
    assert view["version"] == 0 and view["status"] == "open" and view["legal"] == []
    assert not any(s["you"] for s in view["seats"])


def test_two_player_game_gives_one_token_for_both_seats(client: TestClient) -> None:
    made = new_game(client, HUMAN, OPEN, players=2)
    assert made["links"] == [
        {
            "seat": 0,
            "seats": [0, 2],
            "token": made["links"][0]["token"],
            "url": made["links"][0]["url"],
        }
    ]
    assert made["invites"][0]["seats"] == [1, 3]
    claimed = claim(client, made, 1).json()
    assert claimed["seats"] == [1, 3]
    view = client.get(f"/api/games/{made['id']}").json()
    assert view["players"] == 2 and [s["kind"] for s in view["seats"]] == ["human"] * 4
    assert view["status"] == "active"


def _all_game_ids(client: TestClient) -> set[str]:
    return {
        game["id"]
        for status in ("open", "active", "finished")
        for game in client.get(f"/api/games?status={status}").json()
    }


def test_bad_requests_are_refused_with_a_message(client: TestClient) -> None:
    before = _all_game_ids(client)

    def refused(body: object, status: int, words: str) -> None:
        response = client.post("/api/games", json=body)
        assert response.status_code == status, response.text
        assert words in response.json()["detail"]

    four = [HUMAN, HUMAN, HUMAN, HUMAN]
    refused({"ruleset": "nonsense", "seats": four}, 400, "nonsense")
    refused({"ruleset": "classic+six_up_value=35", "seats": four}, 400, "six_up_value")
    # R-PLAYABLE-RULESET: no piece could ever enter.
    refused(
        {"ruleset": "herklots-6+pyada_condition=all_entered", "seats": four},
        400,
        "pyada_condition=all_entered",
    )
    refused({"seats": [HUMAN, computer("nobody"), HUMAN, HUMAN]}, 400, "unknown player")
    refused({"seats": [HUMAN, {"kind": "open", "player": "greedy"}, HUMAN, HUMAN]}, 400, "player")
    refused({"seats": [HUMAN, HUMAN]}, 400, "4 seat specs")
    refused({"players": 2, "seats": [HUMAN, OPEN, OPEN, HUMAN]}, 400, "players=2")
    refused({"seats": [{"kind": "robot"}, HUMAN, HUMAN, HUMAN]}, 422, "seats.0.kind")
    refused({"seats": four, "colour": "red"}, 422, "colour")
    refused({"seats": four, "players": 3}, 422, "players")
    refused({"seats": four, "players": True}, 422, "players")
    refused({"seats": "four"}, 422, "seats")
    response = client.post(
        "/api/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and "JSON" in response.json()["detail"]
    assert _all_game_ids(client) == before


def test_claim_takes_an_open_seat_once(client: TestClient) -> None:
    made = new_game(client, HUMAN, OPEN, computer(), computer())
    game = made["id"]
    claimed = claim(client, made, 1)
    assert claimed.status_code == 200
    token = claimed.json()["token"]
    assert claimed.json()["url"] == f"/game/{game}?seat=1&token={token}"
    assert token not in (link["token"] for link in made["links"])
    invite = made["invites"][0]["invite"]
    again = claim(client, made, 1)
    assert again.status_code == 409 and "not open" in again.json()["detail"]
    assert claim(client, made, 2, invite).status_code == 409  # a computer's
    assert claim(client, made, 4, invite).status_code == 404
    assert claim(client, {"id": "nothere"}, 1, invite).status_code == 404
    with client.websocket_connect(f"/ws/games/{game}?token={token}") as ws:
        snapshot = ws.receive_json()
        assert [s["you"] for s in snapshot["game"]["seats"]] == [False, True, False, False]


def test_lists_games_by_status(client: TestClient) -> None:
    made = new_game(client, HUMAN, OPEN, HUMAN, HUMAN)
    open_game = made["id"]
    active_game = new_game(client, HUMAN, HUMAN, HUMAN, HUMAN)["id"]
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert open_game in listed and active_game not in listed
    assert listed[open_game]["seats"] == ["human", "open", "human", "human"]
    assert listed[open_game]["open_seats"] == [1]
    assert listed[open_game]["created"].endswith("Z")
    active = [g["id"] for g in client.get("/api/games?status=active").json()]
    assert active_game in active and open_game not in active
    claim(client, made, 1)
    assert open_game in [g["id"] for g in client.get("/api/games?status=active").json()]
    assert client.get("/api/games?status=lost").status_code == 422


def test_record_and_history_of_a_new_game(client: TestClient) -> None:
    game = new_game(client, HUMAN, computer("greedy"), OPEN, HUMAN)["id"]
    response = client.get(f"/api/games/{game}/record")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert f'filename="pachisi-{game}.pgn"' in response.headers["content-disposition"]
    record = read_game(response.text)
    assert record.moves == () and str(record.ruleset) == "classic"
    assert '[Seat1 "greedy bot"]' in response.text and f'[Game "{game}"]' in response.text
    history = client.get(f"/api/games/{game}/history").json()
    assert history["version"] == 0 and len(history["steps"]) == 1
    assert history["steps"][0]["turn"]["stage"] == "throw_off"


def test_unknown_games_are_404(client: TestClient) -> None:
    for path in ("/api/games/nothere", "/api/games/nothere/record", "/api/games/nothere/history"):
        response = client.get(path)
        assert response.status_code == 404 and "nothere" in response.json()["detail"]
    assert client.get("/game/nothere").status_code == 404
    assert client.get("/replay/nothere").status_code == 404


def test_pages_are_served_from_static(client: TestClient) -> None:
    game = new_game(client, HUMAN, HUMAN, HUMAN, HUMAN)["id"]
    for path in ("/", f"/game/{game}", f"/replay/{game}"):
        response = client.get(path)
        assert response.status_code in (200, 404), path  # 404 only while a page is missing
        if response.status_code == 200:
            assert response.headers["content-type"].startswith("text/html")
