"""The reviews' routes (docs/web.md, "Reviews"): a finished game's review, an uploaded
record's, their progress and result, the export, the board's steps and the review page.

Each route translates between HTTP and :class:`~pachisi.web.reviewing.ReviewJobs`; the
jobs run in the server's thinking pool behind the live games' decisions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response

from pachisi.notation import RecordError, read_record
from pachisi.web.api import Tokens, Watch, address_of, detail, service_of
from pachisi.web.history import DEFAULT_LIMIT, MAX_LIMIT
from pachisi.web.limits import TokenBucket
from pachisi.web.reviewing import ReviewJob, ReviewJobs, TooBusy

__all__ = ["MAX_UPLOAD_BYTES", "install_reviews", "reviews_of"]

MAX_UPLOAD_BYTES: Final = 200_000
"""The largest record file a review may be asked of (a classic game's is about 6 kB)."""

_STATUS: Final = {
    "type": "object",
    "required": ["id", "game", "state", "done", "total", "error"],
    "properties": {
        "id": {"type": "string"},
        "game": {"type": ["string", "null"]},
        "state": {"enum": ["queued", "running", "done", "failed"]},
        "done": {"type": "integer"},
        "total": {"type": "integer"},
        "error": {"type": ["string", "null"]},
        "review": {"type": "object"},
        "actions": {"type": "object"},
    },
}
_STATUS_RESPONSE: Final = {"content": {"application/json": {"schema": _STATUS}}}


def reviews_of(request: Request) -> ReviewJobs:
    """The app's review jobs."""
    reviews: ReviewJobs = request.app.state.reviews
    return reviews


def install_reviews(app: FastAPI, static_dir: Path) -> None:
    """Add the reviews' routes and page to ``app``."""
    settings = app.state.settings
    uploads = TokenBucket(settings.create_burst, settings.create_per_minute / 60)

    def submitted(make: Callable[[], ReviewJob]) -> Response | dict[str, Any]:
        try:
            job = make()
        except TooBusy as exc:
            return detail(429, str(exc), exc.retry_after)
        except ValueError as exc:
            return detail(400, str(exc))
        return job.status()

    @app.post(
        "/api/games/{game_id}/review",
        status_code=202,
        response_model=None,
        responses={202: _STATUS_RESPONSE, 409: {"description": "the game is not over"}},
    )
    async def review_game(
        game_id: str, request: Request, watch: Watch = None, token: Tokens = None
    ) -> dict[str, Any] | Response:
        """Review a finished game (or give its review under way or done): anyone who may
        watch the game may."""
        tokens = [*(token or []), *([watch] if watch else [])]
        service = service_of(request)
        room = await service.visible_room(game_id, tokens)
        if room is None:
            return detail(404, f"there is no game {game_id!r}")
        if not room.is_over:
            return detail(409, "the game is not over: only a finished game can be reviewed")
        reviews = reviews_of(request)
        known = reviews.known(game_id)
        if known is not None:
            return known.status()
        text = await service.record(room)
        record = read_record(text)
        return submitted(lambda: reviews.submit(record, address_of(request), game_id))

    @app.post(
        "/api/reviews",
        status_code=202,
        response_model=None,
        responses={202: _STATUS_RESPONSE, 413: {"description": "the record is too large"}},
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"text/plain": {"schema": {"type": "string"}}},
            }
        },
    )
    async def review_upload(request: Request) -> dict[str, Any] | Response:
        """Review an uploaded record file (its text as the body): the review's id is the
        only way to it."""
        address = address_of(request)
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > MAX_UPLOAD_BYTES:
            return detail(413, f"a record is at most {MAX_UPLOAD_BYTES:,} bytes")
        body = bytearray()
        async for part in request.stream():
            body += part
            if len(body) > MAX_UPLOAD_BYTES:
                return detail(413, f"a record is at most {MAX_UPLOAD_BYTES:,} bytes")
        wait = uploads.take(address)
        if wait > 0:
            return detail(429, "too many reviews asked from this address: wait a little", wait)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return detail(400, "the record is not UTF-8 text")
        try:
            record = read_record(text)
        except RecordError as exc:
            return detail(400, f"not a record that can be reviewed: {exc}")
        reviews = reviews_of(request)
        return submitted(lambda: reviews.submit(record, address))

    def job_of(request: Request, review_id: str) -> ReviewJob | Response:
        job = reviews_of(request).get(review_id)
        return job if job is not None else detail(404, f"there is no review {review_id!r}")

    @app.get("/api/reviews/{review_id}", response_model=None, responses={200: _STATUS_RESPONSE})
    async def get_review(review_id: str, request: Request) -> dict[str, Any] | Response:
        """A review's progress, and once done the review (``Review.to_json()``)."""
        job = job_of(request, review_id)
        return job.status() if isinstance(job, ReviewJob) else job

    @app.get(
        "/api/reviews/{review_id}/export",
        response_model=None,
        responses={
            200: {"content": {"application/json": {"schema": {"type": "object"}}}},
            409: {"description": "the review is not done"},
        },
    )
    async def export_review(review_id: str, request: Request) -> Response:
        """The review's JSON document as a download, as ``pachisi review --json`` prints it."""
        job = job_of(request, review_id)
        if not isinstance(job, ReviewJob):
            return job
        if job.review is None:
            return detail(409, f"the review is {job.state}, not done")
        name = f"pachisi-review-{job.game or job.id[:8]}.json"
        return Response(
            job.export(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/api/reviews/{review_id}/history", response_model=None)
    async def review_history(
        review_id: str,
        request: Request,
        start: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
    ) -> Response:
        """The reviewed game's steps for the board, as ``GET /api/games/{id}/history``."""
        job = job_of(request, review_id)
        if not isinstance(job, ReviewJob):
            return job
        service = service_of(request)
        moves = job.moves[: start + limit - 1]

        def page() -> str:
            history = service.histories.get(f"review:{job.id}", job.ruleset, moves)
            return history.page(start, limit, len(job.moves))

        text = await asyncio.to_thread(page)
        return Response(text, media_type="application/json")

    @app.get("/review/{review_id}", include_in_schema=False)
    async def review_page(review_id: str, request: Request) -> Response:
        if reviews_of(request).get(review_id) is None:
            return PlainTextResponse(f"there is no review {review_id!r}", status_code=404)
        path = static_dir / "review.html"
        if not path.is_file():
            return PlainTextResponse("the page review.html is missing", status_code=404)
        return FileResponse(path, media_type="text/html")
