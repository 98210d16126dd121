"""A test's WebSocket client: reads the server's messages and plays as a person would."""

from __future__ import annotations

from typing import Any

from starlette.testclient import WebSocketTestSession

Message = dict[str, Any]


class Player:
    """One connection to a game: the last VIEW and version it saw, and ways to act."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        first = self.receive()
        assert first["type"] == "snapshot", first
        self.game: dict[str, Any] = first["game"]
        self.version: int = first["version"]

    def receive(self) -> Message:
        message: Message = self.ws.receive_json()
        if message["type"] in ("snapshot", "update"):
            self.game = message["game"]
            self.version = message["version"]
            assert self.game["version"] == self.version
        return message

    def due(self) -> bool:
        """Whether this connection's seat has a throw or an action to make."""
        turn = self.game["turn"]
        return bool(turn["you_throw"] or turn["you_act"])

    def wait_until_due(self, limit: int = 100_000) -> list[Message]:
        """Read updates until this connection is due or the game is over; returns them."""
        seen = []
        while not self.due() and self.game["result"] is None:
            message = self.receive()
            assert message["type"] != "error", message
            seen.append(message)
            assert len(seen) < limit
        return seen

    def send(self, **message: Any) -> Message:
        """Send a message and return the server's first answer to it."""
        self.ws.send_json(message)
        return self.receive()

    def move(self, choose: int = 0) -> Message:
        """Throw, or play legal action ``choose``, for the seat that is due."""
        turn = self.game["turn"]
        seat = turn["seat"]
        if turn["you_throw"]:
            return self.send(type="throw", seat=seat, version=self.version)
        action = self.game["legal"][choose % len(self.game["legal"])]["action"]
        return self.send(type="act", seat=seat, version=self.version, action=action)

    def state(self) -> tuple[int, str]:
        """The version and position the server holds now (asks for a snapshot)."""
        message = self.send(type="resync")
        assert message["type"] == "snapshot", message
        return self.version, self.game["position"]
