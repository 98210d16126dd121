"""Game reviews on the server: jobs judged in the thinking pool, one at a time, and kept
once done (docs/web.md, "Reviews"; the review itself is :mod:`pachisi.review`'s).

A :class:`ReviewJobs` takes a game record and gives back a :class:`ReviewJob` at once, with
an unguessable id: the only way to its progress and its review. Jobs run one after another
(the first queued first); a job cuts its record into :func:`pachisi.review.tasks`, sends
them in short chunks to every free worker of the :class:`~pachisi.web.thinking.ThinkingPool`
(which serves live games' decisions and hints before any chunk), then assembles the
:class:`~pachisi.review.Review` with :func:`pachisi.review.review` from the verdicts. A
finished game's review is kept by game, so that asking again costs nothing; the finished
jobs kept are bounded, the oldest forgotten first, and so are the jobs waiting, in all and
per client address.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pachisi.notation import GameRecord, read_position
from pachisi.notation.record import move_text
from pachisi.review import Review, Task, Verdict, review, tasks
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import Ruleset, parse_ruleset
from pachisi.web.room import parse_move
from pachisi.web.thinking import ThinkingPool
from pachisi.web.views import legal_json

__all__ = [
    "DECISIONS_PER_CHUNK",
    "KEPT_REVIEWS",
    "MAX_REVIEW_STEPS",
    "SEED",
    "ReviewJob",
    "ReviewJobs",
    "TooBusy",
]

log: Final = logging.getLogger("pachisi.web")

SEED: Final = 0
"""The judge's seed: ``pachisi review`` uses the same by default, so that a review exported
from the web equals the terminal's of the same record."""
DECISIONS_PER_CHUNK: Final = 16
"""The decisions (steps where a seat acts) a chunk holds, with the throws between them,
which cost nothing. Judging takes about 4 ms a decision here, 0.05 s at most once the
engine is loaded (a 1,102-step classic game: 2.2 s in one process), so a chunk keeps a
worker well under a tenth of a second: a live game's computer waits at most about that
long for a worker that a review holds."""
KEPT_REVIEWS: Final = 64
"""Finished (done or failed) jobs kept in memory: about 0.5 MB each for a long game."""
MAX_REVIEW_STEPS: Final = 5000
"""The longest record reviewed, in steps (a classic game takes about 1,100): a review
costs the pool about a tenth of a second per decision."""

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


class TooBusy(Exception):
    """Too many reviews wait already, from this address or in all."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False)
class ReviewJob:
    """One review: its record, its progress, and once done its review's JSON."""

    id: str
    record: GameRecord
    ruleset: Ruleset
    moves: tuple[str, ...]
    """The record's moves as the web stores them (``t3``, ``0a+4``), for the board's steps."""
    address: str
    game: str | None = None
    """The game reviewed, or None for an uploaded record (private: only its id finds it)."""
    state: str = QUEUED
    done: int = 0
    total: int = 0
    error: str | None = None
    review: dict[str, Any] | None = None
    """:meth:`pachisi.review.Review.to_json` once done."""
    actions: dict[str, dict[str, Any]] = field(default_factory=dict)
    """For each judged step (by its index, as text), the played and the best action as the
    board draws them (:func:`pachisi.web.views.legal_json`'s entries)."""
    finished: float = 0.0

    @property
    def active(self) -> bool:
        """Whether the job waits or runs."""
        return self.state in (QUEUED, RUNNING)

    def status(self) -> dict[str, Any]:
        """The job as ``GET /api/reviews/{id}`` answers (docs/web.md)."""
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "error": self.error,
        }
        if self.state == DONE:
            out["review"] = self.review
            out["actions"] = self.actions
        return out

    def export(self) -> str:
        """The review's JSON document, as ``pachisi review --json`` prints it."""
        return json.dumps(self.review, indent=2)


class ReviewJobs:
    """This server's reviews (see the module docstring): at most ``queue`` active jobs,
    ``per_address`` of them from one client address."""

    def __init__(self, pool: ThinkingPool, *, queue: int = 8, per_address: int = 2) -> None:
        if queue < 1 or per_address < 1:
            raise ValueError("reviews need room for at least one job in all and per address")
        self.pool = pool
        self.queue, self.per_address = queue, per_address
        self.jobs: OrderedDict[str, ReviewJob] = OrderedDict()
        """Every job known: the active ones, then the finished ones, oldest first."""
        self._by_game: dict[str, ReviewJob] = {}
        self._waiting: asyncio.Queue[ReviewJob] = asyncio.Queue()
        self._runner: asyncio.Task[None] | None = None

    def get(self, job_id: str) -> ReviewJob | None:
        """The job of ``job_id``, or None."""
        return self.jobs.get(job_id)

    def known(self, game: str) -> ReviewJob | None:
        """The review of ``game`` under way or done (not a failed one), or None."""
        job = self._by_game.get(game)
        return job if job is not None and job.state != FAILED else None

    def submit(self, record: GameRecord, address: str, game: str | None = None) -> ReviewJob:
        """The job reviewing ``record``: a game's existing one unless it failed, else a new
        job queued. :class:`TooBusy` when ``address`` or everyone has too many waiting;
        ``ValueError`` for a record that cannot be reviewed here."""
        known = self.known(game) if game is not None else None
        if known is not None:
            return known
        active = [job for job in self.jobs.values() if job.active]
        if sum(job.address == address for job in active) >= self.per_address:
            raise TooBusy(
                f"{self.per_address} reviews from this address are under way already: "
                "wait for one to finish",
                30.0,
            )
        if len(active) >= self.queue:
            raise TooBusy(f"{len(active)} reviews are under way already: try again later", 60.0)
        ruleset, moves = _for_the_board(record)
        job = ReviewJob(secrets.token_urlsafe(18), record, ruleset, moves, address, game)
        self.jobs[job.id] = job
        if game is not None:
            self._by_game[game] = job
        self._waiting.put_nowait(job)
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run_all(), name="pachisi-reviews")
        return job

    async def stop(self) -> None:
        """Stop the job running and drop those waiting (their state: failed)."""
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
        for job in list(self.jobs.values()):
            if job.active:
                self._finish(job, FAILED, "the server stopped")

    # ----------------------------------------------------------------- running

    async def _run_all(self) -> None:
        while not self._waiting.empty():
            job = self._waiting.get_nowait()
            try:
                await self._run(job)
            except asyncio.CancelledError:
                self._finish(job, FAILED, "the server stopped")
                raise
            except Exception as exc:
                log.warning("review %s failed: %s", job.id, exc)
                self._finish(job, FAILED, str(exc) or type(exc).__name__)

    async def _run(self, job: ReviewJob) -> None:
        job.state = RUNNING
        todo = await asyncio.to_thread(tasks, job.record)
        job.total = len(todo)
        verdicts: dict[int, Verdict] = {}

        async def judge(chunk: list[Task]) -> None:
            for verdict in await self.pool.judge(chunk, SEED):
                verdicts[verdict.step] = verdict
            job.done += len(chunk)

        # Every chunk asks at once: the pool hands them out in order to the workers that
        # no decision or hint wants, so the review uses all the free ones.
        running = [asyncio.ensure_future(judge(chunk)) for chunk in chunks(todo)]
        try:
            await asyncio.gather(*running)
        finally:
            for task in running:
                task.cancel()

        def assemble() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
            done = review(job.record, seed=SEED, run=lambda ts: [verdicts[t.step] for t in ts])
            return done.to_json(), drawn_actions(done)

        job.review, job.actions = await asyncio.to_thread(assemble)
        self._finish(job, DONE)

    def _finish(self, job: ReviewJob, state: str, error: str | None = None) -> None:
        job.state, job.error, job.finished = state, error, time.monotonic()
        self.jobs.move_to_end(job.id)
        finished = [j for j in self.jobs.values() if not j.active]
        for old in finished[: max(0, len(finished) - KEPT_REVIEWS)]:
            del self.jobs[old.id]
            if old.game is not None and self._by_game.get(old.game) is old:
                del self._by_game[old.game]


def chunks(todo: Sequence[Task]) -> list[list[Task]]:
    """``todo`` cut into chunks of :data:`DECISIONS_PER_CHUNK` decisions each (a throw,
    whose move is ``t<k>``, goes with the decisions around it).

    >>> steps = [Task(n, "", m, 0) for n, m in enumerate(["t1", "a", "b", "t2", "c"])]
    >>> [len(c) for c in chunks(steps)]
    [5]
    >>> steps = [Task(n, "", "t1" if n % 2 else "0a+1", 0) for n in range(70)]
    >>> [len(c) for c in chunks(steps)]
    [32, 32, 6]
    """
    out: list[list[Task]] = []
    chunk: list[Task] = []
    decisions = 0
    for task in todo:
        if decisions == DECISIONS_PER_CHUNK and not task.move.startswith("t"):
            out.append(chunk)
            chunk, decisions = [], 0
        chunk.append(task)
        decisions += not task.move.startswith("t")
    if chunk:
        out.append(chunk)
    return out


def drawn_actions(done: Review) -> dict[str, dict[str, Any]]:
    """The played and the best action of each judged step, as the board draws them."""
    out: dict[str, dict[str, Any]] = {}
    for verdict in done.steps:
        if not verdict.judged or verdict.best is None:
            continue
        state = read_position(verdict.position)
        legal = {entry["action"]: entry for entry in legal_json(state)}
        played, best = _entry(legal, verdict.played), _entry(legal, verdict.best)
        out[str(verdict.step)] = {"played": played, "best": best}
    return out


def _entry(legal: dict[str, dict[str, Any]], text: str) -> dict[str, Any] | None:
    """The legal action ``text``'s entry (read as an action, so any spelling of it finds it:
    the judge only names legal actions, and the rules core lists one per outcome, C.10b)."""
    return legal.get(str(Action.parse(text)))


def _for_the_board(record: GameRecord) -> tuple[Ruleset, tuple[str, ...]]:
    """The record's ruleset and moves as the web stores them, for the board's steps;
    ``ValueError`` for a record the page cannot show."""
    if len(record.moves) > MAX_REVIEW_STEPS:
        raise ValueError(
            f"a record of {len(record.moves):,} steps is too long to review here (the limit "
            f"is {MAX_REVIEW_STEPS:,}): use pachisi review"
        )
    if "Start" in record.tags or "Ruleset" not in record.tags:
        raise ValueError(
            "a record that starts from a set-up position is reviewed by pachisi review"
        )
    moves = tuple(move_text(m) for m in record.moves)
    for text in moves:
        parse_move(text)  # the board's steps are replayed from these
    return parse_ruleset(record.tags["Ruleset"]), moves
