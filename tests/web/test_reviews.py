"""Game reviews on the server (:mod:`pachisi.web.reviewing`, :mod:`pachisi.web.reviews`):
the jobs' progress, order, limits and cache with a stand-in pool that the test steps by
hand, then the API on a real server and its thinking pool."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pachisi.notation import GameRecord, read_record
from pachisi.review import Task, Verdict, judge_all, review
from pachisi.web import reviewing
from pachisi.web.reviewing import ReviewJobs, TooBusy
from pachisi.web.reviews import MAX_UPLOAD_BYTES
from pachisi.web.settings import Settings
from tests.web.conftest import HUMAN, Serve, computer, new_game
from tests.web.test_history import random_moves, store_finished_game

SHORT = 80
"""Steps of the short records most tests review: the judging is real, so keep it short."""


def short_record(seed: int = 3, steps: int = SHORT) -> GameRecord:
    """The first ``steps`` moves of a game of random play, as a record."""
    moves = " ".join(random_moves(seed, limit=steps))
    return read_record(f'[Ruleset "classic"]\n\n{moves} *\n')


def record_text(seed: int = 3, steps: int = SHORT) -> str:
    moves = " ".join(random_moves(seed, limit=steps))
    return f'[Ruleset "classic"]\n[Seat0 "human"]\n\n{moves} *\n'


class SteppedPool:
    """A stand-in for the thinking pool: judges in this process, but each chunk only when
    the test lets it (:meth:`release`), and records the chunks asked for."""

    def __init__(self) -> None:
        self.asked: list[list[Task]] = []
        self.gate = asyncio.Semaphore(0)
        self.fail: Exception | None = None

    async def judge(self, tasks: Sequence[Task], seed: int) -> list[Verdict]:
        self.asked.append(list(tasks))
        await self.gate.acquire()
        if self.fail is not None:
            raise self.fail
        return judge_all(tasks, seed=seed)

    def release(self, chunks: int = 1) -> None:
        for _ in range(chunks):
            self.gate.release()


async def until(check: Any, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def test_a_job_shows_its_progress_chunk_by_chunk_and_ends_with_the_review(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reviewing, "DECISIONS_PER_CHUNK", 8)
    record = short_record()

    async def main() -> None:
        pool = SteppedPool()
        jobs = ReviewJobs(pool, queue=4, per_address=2)  # type: ignore[arg-type]
        job = jobs.submit(record, "10.0.0.1")
        assert job.status()["state"] == "queued" and len(job.id) >= 24
        await until(lambda: job.total > 0)
        chunks = reviewing.chunks(reviewing.tasks(record))
        assert len(chunks) >= 3 and job.total == SHORT
        await until(lambda: len(pool.asked) == len(chunks))  # every chunk asks at once
        seen = []
        for _ in chunks[:-1]:
            pool.release()
            await until(lambda: job.done > (seen[-1] if seen else 0))
            seen.append(job.done)
            assert job.status()["state"] == "running" and "review" not in job.status()
        assert seen == [sum(len(c) for c in chunks[: n + 1]) for n in range(len(chunks) - 1)]
        pool.release()
        await until(lambda: job.state == "done")
        assert job.done == job.total == SHORT
        assert job.review == review(record, seed=reviewing.SEED).to_json()
        assert json.loads(job.export()) == job.review
        for step, drawn in job.actions.items():
            verdict = job.review["steps"][int(step)]
            assert drawn["played"] is not None  # the played action or one of its outcome
            assert drawn["best"]["action"] == verdict["best"]
        await jobs.stop()

    asyncio.run(main())


def test_jobs_run_one_at_a_time_within_their_limits_and_a_game_is_reviewed_once() -> None:
    record = short_record(steps=12)

    async def main() -> None:
        pool = SteppedPool()
        jobs = ReviewJobs(pool, queue=3, per_address=2)  # type: ignore[arg-type]
        first = jobs.submit(record, "a", game="g1")
        assert jobs.submit(record, "b", game="g1") is first  # the same game: the same job
        second = jobs.submit(record, "a")
        with pytest.raises(TooBusy, match="2 reviews from this address"):
            jobs.submit(record, "a")
        third = jobs.submit(record, "b")
        with pytest.raises(TooBusy, match="3 reviews are under way"):
            jobs.submit(record, "c")
        await until(lambda: first.state == "running")
        await asyncio.sleep(0.05)
        assert second.state == third.state == "queued"  # one job at a time
        pool.release(100)
        await until(lambda: third.state == "done")
        assert [first.state, second.state] == ["done", "done"]
        # Done, the game's review is still the one; the limits count only waiting jobs.
        assert jobs.submit(record, "a", game="g1") is first
        jobs.submit(record, "a")
        await jobs.stop()

    asyncio.run(main())


def test_a_failed_job_says_why_and_a_game_can_be_reviewed_again() -> None:
    record = short_record(steps=12)

    async def main() -> None:
        pool = SteppedPool()
        jobs = ReviewJobs(pool, queue=3, per_address=2)  # type: ignore[arg-type]
        pool.fail = RuntimeError("a review's 6 steps took more than 10 s")
        job = jobs.submit(record, "a", game="g1")
        pool.release(10)
        await until(lambda: job.state == "failed")
        assert job.status()["error"] == "a review's 6 steps took more than 10 s"
        assert "review" not in job.status()
        pool.fail = None
        again = jobs.submit(record, "a", game="g1")
        assert again is not job and again.state == "queued"
        await jobs.stop()
        assert again.state == "failed" and again.error == "the server stopped"

    asyncio.run(main())


def test_the_finished_jobs_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviewing, "KEPT_REVIEWS", 2)
    record = short_record(steps=6)

    async def main() -> None:
        pool = SteppedPool()
        pool.release(1000)
        jobs = ReviewJobs(pool, queue=10, per_address=10)  # type: ignore[arg-type]
        made = [jobs.submit(record, "a", game=f"g{n}") for n in range(4)]
        await until(lambda: all(job.state == "done" for job in made))
        assert [jobs.get(job.id) for job in made] == [None, None, made[2], made[3]]
        assert jobs.known("g0") is None and jobs.known("g3") is made[3]
        await jobs.stop()

    asyncio.run(main())


def test_a_record_the_page_cannot_show_is_refused_at_once() -> None:
    async def main() -> None:
        jobs = ReviewJobs(SteppedPool())  # type: ignore[arg-type]
        started = short_record(steps=4)
        tags = {**started.tags, "Start": "x"}
        with pytest.raises(ValueError, match="set-up position"):
            jobs.submit(GameRecord(tags, started.moves), "a")
        assert not jobs.jobs

    asyncio.run(main())


# --------------------------------------------------------------------------- the API


def wait_done(client: TestClient, review_id: str, seconds: float = 240.0) -> dict[str, Any]:
    """The review's status once done (or failed); the progress seen on the way is checked."""
    end = time.monotonic() + seconds
    done = 0
    while True:
        answer = client.get(f"/api/reviews/{review_id}")
        assert answer.status_code == 200, answer.text
        status: dict[str, Any] = answer.json()
        assert status["done"] >= done and status["done"] <= max(status["total"], 0)
        done = status["done"]
        if status["state"] in ("done", "failed"):
            return status
        assert time.monotonic() < end, "the review did not finish"
        time.sleep(0.1)


def test_a_finished_game_is_reviewed_once_and_exported(database_url: str, serve: Serve) -> None:
    # herklots-7, the named ruleset with the shortest games: the review is of every step,
    # done twice (by the server, and here to compare).
    game_id, moves = store_finished_game(database_url, ruleset="herklots-7")
    with serve() as client:
        started = client.post(f"/api/games/{game_id}/review")
        assert started.status_code == 202, started.text
        review_id = started.json()["id"]
        assert started.json()["game"] == game_id
        status = wait_done(client, review_id)
        assert status["state"] == "done", status["error"]
        assert status["done"] == status["total"] == len(moves)
        record = read_record(client.get(f"/api/games/{game_id}/record").text)
        assert status["review"] == review(record, seed=reviewing.SEED).to_json()
        # Asked again: the same review, done at once.
        again = client.post(f"/api/games/{game_id}/review")
        assert again.json()["id"] == review_id and again.json()["state"] == "done"
        exported = client.get(f"/api/reviews/{review_id}/export")
        assert exported.status_code == 200
        assert "attachment" in exported.headers["content-disposition"]
        assert json.loads(exported.text) == status["review"]
        # The board's steps are the game's history.
        history = client.get(f"/api/reviews/{review_id}/history", params={"limit": 5}).json()
        assert history["moves"] == moves[:4] and history["next"] == 5
        assert client.get("/api/reviews/nosuchreview").status_code == 404
        assert client.get(f"/review/{review_id}").status_code == 200
        assert client.get("/review/nosuchreview").status_code == 404


def test_an_unfinished_or_hidden_game_is_not_reviewed(serve: Serve) -> None:
    with serve() as client:
        made = new_game(client, HUMAN, computer(), computer(), computer())
        refused = client.post(f"/api/games/{made['id']}/review")
        assert refused.status_code == 409 and "not over" in refused.json()["detail"]
        private = new_game(client, HUMAN, computer(), HUMAN, computer(), visibility="private")
        assert client.post(f"/api/games/{private['id']}/review").status_code == 404
        assert client.post("/api/games/nosuchgame/review").status_code == 404


def test_an_uploaded_record_is_reviewed_under_a_private_id(serve: Serve) -> None:
    with serve() as client:
        text = record_text()
        started = client.post("/api/reviews", content=text, headers={"content-type": "text/plain"})
        assert started.status_code == 202, started.text
        review_id = started.json()["id"]
        assert started.json()["game"] is None and len(review_id) >= 24
        status = wait_done(client, review_id)
        assert status["state"] == "done", status["error"]
        assert status["review"] == review(read_record(text), seed=reviewing.SEED).to_json()
        assert status["review"]["seats"][0] == "human"
        # Nothing lists it: only its id finds it, and a guess of another id finds nothing.
        assert review_id not in client.get("/api/games?status=finished").text
        # The guess differs from the real id in its last character, whatever that is.
        guess = review_id[:-1] + ("y" if review_id.endswith("x") else "x")
        assert client.get(f"/api/reviews/{guess}").status_code == 404


def test_bad_or_too_big_uploads_are_refused_clearly(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviewing, "MAX_REVIEW_STEPS", SHORT - 1)
    with serve() as client:
        plain = {"content-type": "text/plain"}
        bad = client.post(
            "/api/reviews", content='[Ruleset "classic"]\n\nt3 9z+4 *\n', headers=plain
        )
        assert bad.status_code == 400
        assert bad.json()["detail"].startswith("not a record that can be reviewed")
        binary = client.post("/api/reviews", content=b"\xff\xfe\x00", headers=plain)
        assert binary.status_code == 400 and "UTF-8" in binary.json()["detail"]
        big = client.post("/api/reviews", content="x" * (MAX_UPLOAD_BYTES + 1), headers=plain)
        assert big.status_code == 413 and f"{MAX_UPLOAD_BYTES:,}" in big.json()["detail"]
        long = client.post("/api/reviews", content=record_text(), headers=plain)
        assert long.status_code == 400 and "too long to review" in long.json()["detail"]


def test_uploads_are_rate_limited_like_new_games(serve: Serve) -> None:
    settings = Settings(create_burst=2, create_per_minute=1.0, reviews_per_address=5)
    with serve(settings=settings) as client:
        text = record_text(steps=10)
        plain = {"content-type": "text/plain"}
        for _ in range(2):
            assert client.post("/api/reviews", content=text, headers=plain).status_code == 202
        limited = client.post("/api/reviews", content=text, headers=plain)
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1


def test_a_server_stops_at_once_whatever_its_review_is_doing(serve: Serve) -> None:
    with serve() as client:
        text = record_text(steps=1400)  # nearly a whole game of random play
        started = client.post("/api/reviews", content=text, headers={"content-type": "text/plain"})
        review_id = started.json()["id"]
        end = time.monotonic() + 60
        while client.get(f"/api/reviews/{review_id}").json()["state"] != "running":
            assert time.monotonic() < end
            time.sleep(0.02)
        jobs: ReviewJobs = client.app.state.reviews  # type: ignore[attr-defined]
        begun = time.monotonic()
    took = time.monotonic() - begun
    assert took < 5.0, f"the server took {took:.1f} s to stop"
    job = jobs.get(review_id)
    assert job is not None and (job.state, job.error) == ("failed", "the server stopped")
