"""Hostile messages change nothing: malformed JSON, wrong types, huge and binary frames,
another seat's token, stale versions, and commands for a finished game (property tests)."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import hypothesis.strategies as st
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from starlette.testclient import WebSocketTestSession

from pachisi.game import Game
from pachisi.notation import result_of
from pachisi.notation.record import move_text
from pachisi.web.protocol import MAX_MESSAGE_BYTES, ProtocolError, Throw, parse_message
from pachisi.web.storage import MoveRow, NewGame, SeatRow, open_storage
from pachisi.web.tokens import new_token, token_hash
from tests.web.conftest import HUMAN, new_game

CODES = {"malformed", "too_large", "stale", "forbidden", "illegal", "finished"}

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=12),
)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
_keys = st.sampled_from(["type", "seat", "version", "action", "token", "k", ""])


@st.composite
def _near_commands(draw: st.DrawFn) -> str:
    """Messages shaped like commands, with wrong, missing or extra fields."""
    fields: dict[str, Any] = {
        "type": draw(st.sampled_from(["throw", "act", "hint", "resync", "THROW", "move"]) | _json),
        "seat": draw(st.integers(-2, 5) | _scalars),
        "version": draw(st.integers(-2, 12) | _scalars),
        "action": draw(st.sampled_from(["0a+4", "-", "0a*2", "9z+1", ""]) | _scalars),
    }
    for key in draw(st.sets(st.sampled_from(sorted(fields)))):
        del fields[key]
    fields.update(draw(st.dictionaries(_keys | st.text(max_size=6), _json, max_size=2)))
    return json.dumps(fields)


_hostile_text = st.one_of(
    _near_commands(),
    _json.map(json.dumps),
    st.text(max_size=64),
    st.sampled_from(
        ['{"type": "throw", "seat": 0, "version": NaN}', '{"type": "act"', "[]", "", "null"]
    ),
    st.integers(MAX_MESSAGE_BYTES - 40, 4 * MAX_MESSAGE_BYTES).map(
        lambda n: '{"type": "resync", "pad": "' + "x" * n + '"}'
    ),
    st.just("[" * 3000 + "]" * 3000),
)
_hostile = st.one_of(
    _hostile_text.map(lambda text: ("text", text)),
    st.binary(max_size=64).map(lambda data: ("bytes", data)),
    st.just(("bytes", b"\x00" * (2 * MAX_MESSAGE_BYTES))),
)


def _send(ws: WebSocketTestSession, frame: tuple[str, Any]) -> dict[str, Any]:
    kind, data = frame
    if kind == "text":
        ws.send_text(data)
    else:
        ws.send_bytes(data)
    reply: dict[str, Any] = ws.receive_json()
    return reply


def _valid_throw(text: str, seat: int, version: int) -> bool:
    try:
        command = parse_message(text)
    except ProtocolError:
        return False
    return isinstance(command, Throw) and (command.seat, command.version) == (seat, version)


def _held_state(client: TestClient, game: str) -> tuple[int, str, list[str]]:
    view = client.get(f"/api/games/{game}").json()
    return view["version"], view["position"], view["moves"]


def test_hostile_messages_change_nothing(client: TestClient) -> None:
    made = new_game(client, HUMAN, HUMAN, HUMAN, HUMAN)
    game = made["id"]
    south, east = made["links"][0]["token"], made["links"][1]["token"]
    with (
        client.websocket_connect(f"/ws/games/{game}?token={south}") as holder,
        client.websocket_connect(f"/ws/games/{game}?token={east}") as intruder,
    ):
        holder.receive_json()
        intruder.receive_json()
        before = _held_state(client, game)
        assert before[0] == 0  # seat 0 is to throw (the throw-off)

        @settings(
            max_examples=250,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(frame=_hostile, by_intruder=st.booleans())
        def check(frame: tuple[str, Any], by_intruder: bool) -> None:
            kind, data = frame
            if not by_intruder:
                # The holder's one good command, a throw for seat 0 now, is not hostile.
                assume(kind != "text" or not _valid_throw(data, 0, 0))
            reply = _send(intruder if by_intruder else holder, frame)
            if reply["type"] == "error":
                assert reply["code"] in CODES and reply["message"], reply
            else:
                assert reply["type"] in ("snapshot", "hint"), reply
            assert reply["version"] == 0
            assert _held_state(client, game) == before

        check()
        # Every command the other seat's token could make for seat 0 is refused.
        for message in (
            {"type": "throw", "seat": 0, "version": 0},
            {"type": "act", "seat": 0, "version": 0, "action": "-"},
            {"type": "hint", "seat": 0},
        ):
            reply = _send(intruder, ("text", json.dumps(message)))
            assert reply["code"] == "forbidden", reply
        assert _held_state(client, game) == before
        # And the holder can still play: nothing was left half done.
        reply = _send(holder, ("text", json.dumps({"type": "throw", "seat": 0, "version": 0})))
        assert reply["type"] == "update" and reply["version"] == 1


def _store_finished_game(url: str, ruleset: str = "classic", seed: int = 3) -> tuple[str, str]:
    """A finished game written straight to storage; returns its id and seat 0's token."""
    game = Game(ruleset)
    rng = random.Random(seed)
    while not game.is_over():
        if game.legal_actions():
            game.push(rng.choice(game.legal_actions()))
        else:
            game.throw(rng)
    storage = open_storage(url)
    token = new_token()
    game_id = "finished" + new_token()[:8]
    seats = [SeatRow(0, "human", None, token_hash(token))] + [
        SeatRow(seat, "computer", "random") for seat in (1, 2, 3)
    ]
    storage.create_game(NewGame(game_id, str(game.ruleset), 4, "active", tuple(seats)))
    now = dt.datetime.now(dt.UTC)
    rows = [MoveRow(game_id, n, move_text(move), now) for n, move in enumerate(game.moves, 1)]
    last = MoveRow(game_id, len(rows), rows[-1].move, now, "finished", result_of(game.state))
    storage.commit_moves([*rows[:-1], last])
    storage.close()
    return game_id, token


def test_commands_for_a_finished_game_are_refused(database_url: str, serve: Any) -> None:
    game_id, token = _store_finished_game(database_url)
    with serve() as client:
        before = _held_state(client, game_id)
        assert client.get(f"/api/games/{game_id}").json()["status"] == "finished"
        with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
            snapshot = ws.receive_json()
            assert snapshot["game"]["result"] is not None and snapshot["version"] == before[0]
            for message in (
                {"type": "throw", "seat": 0, "version": before[0]},
                {"type": "act", "seat": 0, "version": before[0], "action": "-"},
                {"type": "throw", "seat": 1, "version": before[0]},
                {"type": "hint", "seat": 0},
            ):
                reply = _send(ws, ("text", json.dumps(message)))
                assert reply["code"] == "finished", reply
        assert _held_state(client, game_id) == before


def test_a_game_no_side_can_win_ends_as_a_draw_and_says_so(database_url: str, serve: Any) -> None:
    # Seed 0 of random play under wikipedia-full (kill before home) ends in R-DEADLOCK.
    game_id, _ = _store_finished_game(database_url, "wikipedia-full", seed=0)
    with serve() as client:
        view = client.get(f"/api/games/{game_id}").json()
        assert view["status"] == "finished" and view["turn"]["stage"] == "over"
        assert view["result"]["draw"] and view["result"]["winner"] is None
        assert view["result"]["text"] == "draw: no side can win any more"
        assert view["result"]["record"] == "draw"
        last = {"start": view["version"]}
        history = client.get(f"/api/games/{game_id}/history", params=last).json()
        assert history["steps"][-1]["events"][-1]["kind"] == "draw"
        assert '[Result "draw"]' in client.get(f"/api/games/{game_id}/record").text
