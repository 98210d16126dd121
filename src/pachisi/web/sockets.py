"""The game WebSocket (docs/web.md, "WebSocket"): ``/ws/games/{id}``.

A connection is closed before it joins a game when its page's ``Origin`` is not the
server's own or one the operator allowed (a page elsewhere must not play with a visitor's
seat cookies), when its address holds too many connections already, or when the game is
private and it shows no link's token. Each connection may send a bounded number of
messages per second: those beyond it are answered ``rate_limited`` and dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Final

from fastapi import FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect

from pachisi.web.api import address_of, service_of, settings_of
from pachisi.web.limits import ConnectionCounter, TokenBucket, forwarded_scheme
from pachisi.web.room import Room, Subscriber
from pachisi.web.security import origin_allowed
from pachisi.web.service import GameService

__all__ = [
    "CLOSE_FORBIDDEN",
    "CLOSE_NO_GAME",
    "CLOSE_ORIGIN",
    "CLOSE_TOO_MANY",
    "CLOSE_TOO_SLOW",
    "install_sockets",
]

CLOSE_NO_GAME: Final = 4404
CLOSE_FORBIDDEN: Final = 4403
CLOSE_TOO_SLOW: Final = 4408
CLOSE_TOO_MANY: Final = 4429
"""The address holds the most connections allowed."""
CLOSE_ORIGIN: Final = 4401
"""The page that opened the connection is not from an allowed origin."""


def install_sockets(app: FastAPI) -> None:
    """Add the game WebSocket's route to ``app``."""
    settings = app.state.settings
    sockets = ConnectionCounter(settings.sockets_per_address)

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        peer = websocket.client.host if websocket.client is not None else None
        scheme = forwarded_scheme(
            peer,
            websocket.headers.get("x-forwarded-proto"),
            websocket.url.scheme,
            settings.trusted_proxies,
        )
        origin = websocket.headers.get("origin")
        if not origin_allowed(
            origin, websocket.headers.get("host"), scheme, settings.allowed_origins
        ):
            # Accepted only to be closed with a code the page can show (a handshake refused
            # outright reaches a browser as 1006, which it would take for a lost network);
            # nothing of the game is read or sent.
            await websocket.accept()
            await websocket.close(CLOSE_ORIGIN, "this page's origin may not open the game")
            return
        address = address_of(websocket)
        if not sockets.acquire(address):
            await websocket.accept()
            await websocket.send_text(
                json.dumps(
                    {
                        "type": "error",
                        "code": "rate_limited",
                        "message": "too many connections from this address",
                        "version": 0,
                        "retry_after": 10,
                    }
                )
            )
            await websocket.close(CLOSE_TOO_MANY, "too many connections from this address")
            return
        try:
            await _serve(websocket, game_id)
        finally:
            sockets.release(address)


async def _serve(websocket: WebSocket, game_id: str) -> None:
    await websocket.accept()
    service = service_of(websocket)
    tokens = websocket.query_params.getlist("token")
    watch = websocket.query_params.getlist("watch")
    # Cookies are ambient (an old game's cookie may linger): one that holds no seat is
    # ignored rather than refused.
    prefix = f"pachisi_{game_id}_"
    cookies = [value for name, value in websocket.cookies.items() if name.startswith(prefix)]
    room = await service.visible_room(game_id, [*tokens, *watch, *cookies])
    if room is None:
        await websocket.close(CLOSE_NO_GAME, "no such game")
        return
    held, strays = room.held_by(tokens)
    if strays:
        await websocket.send_text(
            room.error("forbidden", "a token in the link holds no seat of this game")
        )
        await websocket.close(CLOSE_FORBIDDEN, "unknown token")
        return
    cookie_held, _ = room.held_by(cookies)
    subscriber = Subscriber(held | cookie_held)
    room.subscribers.add(subscriber)
    subscriber.deliver(room.snapshot(subscriber.held))
    sender = asyncio.create_task(_send(websocket, subscriber))
    try:
        await _receive(websocket, service, room, subscriber)
    finally:
        room.subscribers.discard(subscriber)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender


async def _receive(
    websocket: WebSocket, service: GameService, room: Room, subscriber: Subscriber
) -> None:
    settings = settings_of(websocket)
    messages = TokenBucket(settings.commands_burst, settings.commands_per_second, max_keys=1)
    with contextlib.suppress(WebSocketDisconnect):
        while not subscriber.dropped:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            wait = messages.take("")
            if wait > 0:
                subscriber.deliver(
                    json.dumps(
                        {
                            "type": "error",
                            "code": "rate_limited",
                            "message": "too many messages: slow down",
                            "version": room.version,
                            "retry_after": round(wait, 3),
                        }
                    )
                )
                continue
            data = message.get("text")
            await service.handle(
                room, subscriber, data if data is not None else message.get("bytes")
            )


async def _send(websocket: WebSocket, subscriber: Subscriber) -> None:
    """Send the subscriber's messages in order; end a connection that fell too far behind."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            if subscriber.dropped:
                await websocket.close(CLOSE_TOO_SLOW, "too far behind: reconnect")
                return
            await websocket.send_text(await subscriber.outbox.get())
