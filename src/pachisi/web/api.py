"""The REST API (docs/web.md, "REST API"): meta data, games, seats and invitations,
records and histories, each route a translation between HTTP and the
:class:`~pachisi.web.service.GameService`.

Limits answer ``429`` with ``Retry-After``; bad requests ``400``/``422``; a game that does
not exist, or a private game asked for without its link, ``404``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from pachisi.ai.players import PLAYER_NAMES
from pachisi.describe import DESCRIPTIONS
from pachisi.rules.ruleset import NAMED
from pachisi.web.history import DEFAULT_LIMIT, MAX_LIMIT, etag, etag_matches
from pachisi.web.limits import TokenBucket, client_address, retry_after_header
from pachisi.web.lobby import DEFAULT_PLAYER, BadRequest, SeatSpec
from pachisi.web.room import Room
from pachisi.web.service import Conflict, Forbidden, GameService, Limited, NotFound
from pachisi.web.settings import LEVEL_NAMES, Settings
from pachisi.web.views import board_json

__all__ = ["ErrorBody", "address_of", "detail", "install_api", "service_of", "settings_of"]


Watch = Annotated[str | None, Query(max_length=128)]
"""A private game's spectator token, from its watch link."""
Tokens = Annotated[list[str] | None, Query(max_length=4)]
"""Seat tokens, which also let their holders see a private game."""


class ErrorBody(BaseModel):
    """Every refusal's body: what was wrong, in words."""

    detail: str


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
    visibility: Literal["public", "private"] = "public"


class ClaimBody(BaseModel):
    """A request to take an open seat: the secret of its invitation link."""

    model_config = ConfigDict(extra="forbid", strict=True)
    invite: str = Field(min_length=1, max_length=128)


def service_of(request: Request | WebSocket) -> GameService:
    """The app's game service."""
    service: GameService = request.app.state.service
    return service


def settings_of(request: Request | WebSocket) -> Settings:
    """The app's operator settings."""
    settings: Settings = request.app.state.settings
    return settings


def address_of(request: Request | WebSocket) -> str:
    """The client's address: the peer's, or what trusted proxies say it is."""
    peer = request.client.host if request.client is not None else None
    forwarded = request.headers.getlist("x-forwarded-for")
    return client_address(peer, forwarded, settings_of(request).trusted_proxies)


def detail(status: int, message: str, retry_after: float | None = None) -> JSONResponse:
    """An error response: ``{"detail": message}``, with ``Retry-After`` if given."""
    headers = {"Retry-After": retry_after_header(retry_after)} if retry_after is not None else None
    return JSONResponse({"detail": message}, status_code=status, headers=headers)


def _bearer(authorization: str | None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def install_api(app: FastAPI, hint_level: str, languages: Sequence[str]) -> None:
    """Add the REST API's routes to ``app``."""
    settings: Settings = app.state.settings
    players = PLAYER_NAMES if settings.allow_any_player else LEVEL_NAMES
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
        "players": list(players),
        "levels": [name for name in LEVEL_NAMES if name in PLAYER_NAMES],
        "default_player": DEFAULT_PLAYER,
        "hint_level": hint_level,
        "languages": list(languages),
        "computer_games": settings.allow_computer_games,
    }
    board = board_json()
    creations = TokenBucket(settings.create_burst, settings.create_per_minute / 60)

    @app.get("/api/meta")
    async def get_meta() -> dict[str, Any]:
        return meta

    @app.get("/api/board")
    async def get_board() -> dict[str, Any]:
        return board

    @app.get("/api/health")
    async def get_health(request: Request) -> dict[str, Any]:
        """This server's name and load, for a load balancer's checks."""
        service = service_of(request)
        return {
            "ok": True,
            "instance": service.computers.owner,
            "rooms": len(service.rooms),
            "leases": len(service.computers.leased),
            "sockets": sum(len(room.subscribers) for room in service.rooms.values()),
        }

    @app.post("/api/games", status_code=201, response_model=None)
    async def create_game(body: GameBody, request: Request) -> dict[str, Any] | Response:
        address = address_of(request)
        wait = creations.take(address)
        if wait > 0:
            return detail(429, "too many new games from this address: wait a little", wait)
        specs = [SeatSpec(seat.kind, seat.player) for seat in body.seats]
        try:
            return await service_of(request).create(
                body.ruleset, body.players, specs, visibility=body.visibility, creator=address
            )
        except BadRequest as exc:
            return detail(400, str(exc))
        except Limited as exc:
            return detail(429, str(exc), exc.retry_after)

    @app.post("/api/games/{game_id}/seats/{seat}/claim", response_model=None)
    async def claim_seat(
        game_id: str, seat: int, body: ClaimBody, request: Request
    ) -> dict[str, Any] | Response:
        try:
            return await service_of(request).claim(game_id, seat, body.invite)
        except NotFound as exc:
            return detail(404, str(exc))
        except Forbidden as exc:
            return detail(403, str(exc))
        except Conflict as exc:
            return detail(409, str(exc))

    async def change_invite(
        game_id: str, seat: int, request: Request, authorization: str | None, renew: bool
    ) -> dict[str, Any] | Response:
        try:
            return await service_of(request).invite(
                game_id, seat, _bearer(authorization), renew=renew
            )
        except NotFound as exc:
            return detail(404, str(exc))
        except Forbidden as exc:
            return detail(403, str(exc))
        except Conflict as exc:
            return detail(409, str(exc))

    @app.post("/api/games/{game_id}/seats/{seat}/invite", response_model=None)
    async def renew_invite(
        game_id: str,
        seat: int,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any] | Response:
        """A new invitation link for an open seat (the old one stops working)."""
        return await change_invite(game_id, seat, request, authorization, renew=True)

    @app.delete("/api/games/{game_id}/seats/{seat}/invite", response_model=None)
    async def revoke_invite(
        game_id: str,
        seat: int,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any] | Response:
        """No invitation link for an open seat any more."""
        return await change_invite(game_id, seat, request, authorization, renew=False)

    @app.get("/api/games")
    async def list_games(
        request: Request,
        status: Annotated[Literal["open", "active", "finished"], Query()] = "open",
    ) -> list[dict[str, Any]]:
        service = service_of(request)
        return await service.writer.call(service.storage.list_games, status)

    async def visible(
        game_id: str, request: Request, watch: str | None, token: list[str] | None
    ) -> Room | Response:
        tokens = [*(token or []), *([watch] if watch else [])]
        room = await service_of(request).visible_room(game_id, tokens)
        return room if room is not None else detail(404, f"there is no game {game_id!r}")

    @app.get("/api/games/{game_id}", response_model=None)
    async def get_game(
        game_id: str, request: Request, watch: Watch = None, token: Tokens = None
    ) -> dict[str, Any] | Response:
        room = await visible(game_id, request, watch, token)
        return room.view(frozenset()) if isinstance(room, Room) else room

    @app.get(
        "/api/games/{game_id}/record",
        response_model=None,
        responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}},
    )
    async def get_record(
        game_id: str, request: Request, watch: Watch = None, token: Tokens = None
    ) -> Response:
        room = await visible(game_id, request, watch, token)
        if not isinstance(room, Room):
            return room
        text = await service_of(request).record(room)
        return PlainTextResponse(
            text,
            headers={"Content-Disposition": f'attachment; filename="pachisi-{game_id}.pgn"'},
        )

    @app.get("/api/games/{game_id}/history", response_model=None)
    async def get_history(
        game_id: str,
        request: Request,
        watch: Watch = None,
        token: Tokens = None,
        start: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
    ) -> Response:
        room = await visible(game_id, request, watch, token)
        if not isinstance(room, Room):
            return room
        # Decided from the room's version alone: no replay, no cache, no encoding.
        tag = etag(room.id, room.version, start, limit)
        if etag_matches(request.headers.get("if-none-match"), tag):
            return Response(status_code=304, headers=_history_headers(tag))
        version, text = await service_of(request).history(room, start, limit)
        return Response(
            text,
            media_type="application/json",
            headers=_history_headers(etag(room.id, version, start, limit)),
        )


def _history_headers(tag: str) -> dict[str, str]:
    # no-cache: a client may keep a page, but asks each time whether it is still current.
    return {"ETag": tag, "Cache-Control": "no-cache"}
