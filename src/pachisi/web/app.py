"""The ASGI app: pages, the REST API and the game WebSockets (docs/web.md).

:func:`create_app` builds a FastAPI app over a database; the app opens the storage, starts
the :class:`~pachisi.web.service.GameService` and resumes the games in progress when it
starts (its lifespan), and stops them when it stops. Routes only translate between HTTP or
WebSocket and the service: they hold no game logic.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketDisconnect

from pachisi.ai.hints import DEFAULT_LEVEL
from pachisi.ai.players import PLAYER_NAMES
from pachisi.describe import DESCRIPTIONS
from pachisi.rules.ruleset import NAMED
from pachisi.web.lobby import DEFAULT_PLAYER, BadRequest, SeatSpec
from pachisi.web.room import Room, Subscriber
from pachisi.web.security import SecurityHeaders
from pachisi.web.service import Conflict, GameService, NotFound
from pachisi.web.settings import Settings
from pachisi.web.storage import Storage, open_storage
from pachisi.web.views import board_json
from pachisi.web.writer import Writer

__all__ = ["LANGUAGES", "STATIC", "create_app"]

STATIC: Final = Path(__file__).with_name("static")
"""The browser client's files, served as they are."""
LANGUAGES: Final = ("en", "de", "cs", "hu", "hi")
"""The client's languages: English, German, Czech, Hungarian, Hindi."""
LEVELS: Final = ("easy", "medium", "hard", "expert")
CLOSE_NO_GAME: Final = 4404
CLOSE_FORBIDDEN: Final = 4403
CLOSE_TOO_SLOW: Final = 4408


class SeatBody(BaseModel):
    """One seat of a new game, as the lobby sends it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["human", "computer", "open"]
    player: str | None = Field(default=None, max_length=64)


class GameBody(BaseModel):
    """A request for a new game."""

    model_config = ConfigDict(extra="forbid", strict=True)
    ruleset: str = Field(default="classic", min_length=1, max_length=2000)
    players: Literal[2, 4] | None = None
    seats: list[SeatBody] = Field(min_length=2, max_length=4)


def create_app(
    database: str | Storage | None = None,
    *,
    rng: random.Random | None = None,
    computer_delay: float = 0.0,
    hint_level: str = DEFAULT_LEVEL,
    static_dir: Path = STATIC,
    settings: Settings | None = None,
) -> FastAPI:
    """The web game's app over ``database`` (a URL, an open :class:`Storage`, or None for
    the SQLite file in the user's data directory).

    ``rng`` makes the throws (default ``secrets.SystemRandom()``; a seeded generator makes
    games reproducible in tests); ``computer_delay`` is the pause, in seconds, before each
    computer seat's command; ``hint_level`` whose judgement hints give; ``settings`` the
    operator's limits and switches (default :class:`~pachisi.web.settings.Settings`).
    """
    settings = settings if settings is not None else Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = database if isinstance(database, Storage) else open_storage(database)
        service = GameService(
            Writer(storage), rng=rng, computer_delay=computer_delay, hint_level=hint_level
        )
        await service.start()
        app.state.service = service
        try:
            yield
        finally:
            await service.stop()
            if not isinstance(database, Storage):
                storage.close()

    app = FastAPI(
        title="pachisi",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if settings.openapi else None,
    )
    app.state.settings = settings
    app.add_middleware(SecurityHeaders, trusted=settings.trusted_proxies)
    app.add_exception_handler(RequestValidationError, _validation_error)
    _pages(app, static_dir)
    _api(app, hint_level)
    _sockets(app)
    return app


def _service(request: Request | WebSocket) -> GameService:
    service: GameService = request.app.state.service
    return service


def _detail(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


async def _validation_error(request: Request, exc: Exception) -> Response:
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    first = errors[0] if errors else {}
    if first.get("type") == "json_invalid":
        return _detail(400, "the body is not valid JSON")
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = first.get("msg", "a body of the wrong shape")
    return _detail(422, f"{where}: {message}" if where else str(message))


# --------------------------------------------------------------------------- pages


def _pages(app: FastAPI, static_dir: Path) -> None:
    def page(name: str) -> Response:
        path = static_dir / name
        if not path.is_file():
            return PlainTextResponse(f"the page {name} is missing", status_code=404)
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby() -> Response:
        return page("index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str, request: Request) -> Response:
        if await _service(request).room(game_id) is None:
            return PlainTextResponse(f"there is no game {game_id!r}", status_code=404)
        return page("game.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str, request: Request) -> Response:
        if await _service(request).room(game_id) is None:
            return PlainTextResponse(f"there is no game {game_id!r}", status_code=404)
        return page("replay.html")

    app.mount("/static", StaticFiles(directory=static_dir, check_dir=False), name="static")


# --------------------------------------------------------------------------- REST


def _api(app: FastAPI, hint_level: str) -> None:
    meta = {
        "rulesets": [
            {
                "name": name,
                "description": DESCRIPTIONS.get(name, ""),
                "canonical": str(ruleset),
                "players": ruleset.players,
                "teams": ruleset.teams,
            }
            for name, ruleset in NAMED.items()
        ],
        "players": list(PLAYER_NAMES),
        "levels": [name for name in LEVELS if name in PLAYER_NAMES],
        "default_player": DEFAULT_PLAYER,
        "hint_level": hint_level,
        "languages": list(LANGUAGES),
    }
    board = board_json()

    @app.get("/api/meta")
    async def get_meta() -> dict[str, Any]:
        return meta

    @app.get("/api/board")
    async def get_board() -> dict[str, Any]:
        return board

    @app.post("/api/games", status_code=201, response_model=None)
    async def create_game(body: GameBody, request: Request) -> dict[str, Any] | Response:
        specs = [SeatSpec(seat.kind, seat.player) for seat in body.seats]
        try:
            return await _service(request).create(body.ruleset, body.players, specs)
        except BadRequest as exc:
            return _detail(400, str(exc))

    @app.post("/api/games/{game_id}/seats/{seat}/claim", response_model=None)
    async def claim_seat(game_id: str, seat: int, request: Request) -> dict[str, Any] | Response:
        try:
            return await _service(request).claim(game_id, seat)
        except NotFound as exc:
            return _detail(404, str(exc))
        except Conflict as exc:
            return _detail(409, str(exc))

    @app.get("/api/games")
    async def list_games(
        request: Request,
        status: Annotated[Literal["open", "active", "finished"], Query()] = "open",
    ) -> list[dict[str, Any]]:
        service = _service(request)
        return await service.writer.call(service.storage.list_games, status)

    async def room_or_404(game_id: str, request: Request) -> Room | Response:
        room = await _service(request).room(game_id)
        return room if room is not None else _detail(404, f"there is no game {game_id!r}")

    @app.get("/api/games/{game_id}", response_model=None)
    async def get_game(game_id: str, request: Request) -> dict[str, Any] | Response:
        room = await room_or_404(game_id, request)
        return room.view(frozenset()) if isinstance(room, Room) else room

    @app.get("/api/games/{game_id}/record", response_model=None)
    async def get_record(game_id: str, request: Request) -> Response:
        room = await room_or_404(game_id, request)
        if not isinstance(room, Room):
            return room
        text = await _service(request).record(room)
        return PlainTextResponse(
            text,
            headers={"Content-Disposition": f'attachment; filename="pachisi-{game_id}.pgn"'},
        )

    @app.get("/api/games/{game_id}/history", response_model=None)
    async def get_history(game_id: str, request: Request) -> dict[str, Any] | Response:
        room = await room_or_404(game_id, request)
        if not isinstance(room, Room):
            return room
        return await _service(request).history(room)


# --------------------------------------------------------------------------- WebSocket


def _sockets(app: FastAPI) -> None:
    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        service = _service(websocket)
        room = await service.room(game_id)
        if room is None:
            await websocket.close(CLOSE_NO_GAME, "no such game")
            return
        held, strays = room.held_by(websocket.query_params.getlist("token"))
        if strays:
            await websocket.send_text(
                room.error("forbidden", "a token in the link holds no seat of this game")
            )
            await websocket.close(CLOSE_FORBIDDEN, "unknown token")
            return
        # Cookies are ambient (an old game's cookie may linger): one that holds no seat is
        # ignored rather than refused.
        prefix = f"pachisi_{game_id}_"
        cookie_held, _ = room.held_by(
            value for name, value in websocket.cookies.items() if name.startswith(prefix)
        )
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
    with contextlib.suppress(WebSocketDisconnect):
        while not subscriber.dropped:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
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
