"""The ASGI app: pages, the REST API and the game WebSockets (docs/web.md).

:func:`create_app` builds a FastAPI app over a database; the app opens the storage, starts
the :class:`~pachisi.web.service.GameService` and resumes the games in progress when it
starts (its lifespan), and stops them when it stops. Routes only translate between HTTP or
WebSocket and the service: they hold no game logic.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

from pachisi.ai.hints import DEFAULT_LEVEL
from pachisi.web.api import ErrorBody, detail, install_api, service_of
from pachisi.web.guide import install_guide
from pachisi.web.reviewing import ReviewJobs
from pachisi.web.reviews import install_reviews
from pachisi.web.security import SecurityHeaders
from pachisi.web.service import GameService
from pachisi.web.settings import Settings
from pachisi.web.sockets import install_sockets
from pachisi.web.storage import Storage, open_storage
from pachisi.web.writer import Writer

__all__ = ["LANGUAGES", "STATIC", "create_app"]

STATIC: Final = Path(__file__).with_name("static")
"""The browser client's files, served as they are."""
LANGUAGES: Final = ("en", "de", "cs", "hu", "hi")
REFUSALS: Final = (
    (400, "a request that cannot be carried out as asked"),
    (404, "no such game or review (or a private game asked for without its link)"),
    (422, "a request of the wrong shape"),
    (429, "over one of the server's limits: see Retry-After"),
)
"""The refusals every route may answer, for the schema."""
"""The client's languages: English, German, Czech, Hungarian, Hindi."""


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
            Writer(storage),
            rng=rng,
            computer_delay=computer_delay,
            hint_level=hint_level,
            settings=settings,
        )
        await service.start()
        app.state.service = service
        app.state.reviews = ReviewJobs(
            service.computers.pool,
            queue=settings.review_queue,
            per_address=settings.reviews_per_address,
        )
        try:
            yield
        finally:
            await app.state.reviews.stop()
            await service.stop()
            if not isinstance(database, Storage):
                storage.close()

    app = FastAPI(
        title="pachisi",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if settings.openapi else None,
        # Every refusal is {"detail": text}, a 422 too (see _validation_error).
        responses={status: {"model": ErrorBody, "description": what} for status, what in REFUSALS},
    )
    app.state.settings = settings
    app.add_middleware(SecurityHeaders, trusted=settings.trusted_proxies)
    app.add_exception_handler(RequestValidationError, _validation_error)
    _pages(app, static_dir)
    install_api(app, hint_level, LANGUAGES)
    install_guide(app)
    install_sockets(app)
    install_reviews(app, static_dir)
    return app


async def _validation_error(request: Request, exc: Exception) -> Response:
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    first = errors[0] if errors else {}
    if first.get("type") == "json_invalid":
        return detail(400, "the body is not valid JSON")
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = first.get("msg", "a body of the wrong shape")
    return detail(422, f"{where}: {message}" if where else str(message))


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

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> Response:
        # The page reads its ruleset (?ruleset=...) and asks /api/rules for it.
        return page("rules.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str, request: Request) -> Response:
        if await service_of(request).room(game_id) is None:
            return PlainTextResponse(f"there is no game {game_id!r}", status_code=404)
        return page("game.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str, request: Request) -> Response:
        if await service_of(request).room(game_id) is None:
            return PlainTextResponse(f"there is no game {game_id!r}", status_code=404)
        return page("replay.html")

    app.mount("/static", StaticFiles(directory=static_dir, check_dir=False), name="static")
