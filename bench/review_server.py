"""How long the web server takes to review a long game: a ~1,100-step classic game's
record uploaded to ``POST /api/reviews`` of an app on a fresh SQLite file, its progress
polled until done (docs/review-web.md).

The record is a seeded game of ``greedy`` against itself (seed 1: 1,102 steps), or
``--record FILE``. The app runs in this process (Starlette's test client over ASGI) with
``--workers`` thinking workers; the first review includes starting them and loading the
compiled engine in each, so it is timed apart from the ``--runs`` after it.

    .venv/bin/python bench/review_server.py [--workers 2] [--runs 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
import warnings
from pathlib import Path

from pachisi.ai.players import make_player
from pachisi.game import Game
from pachisi.notation import read_record_file, record_from_game, write_record
from pachisi.rules.state import CHANCE

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from fastapi.testclient import TestClient

from pachisi.web.app import create_app
from pachisi.web.settings import Settings


def greedy_record(seed: int) -> str:
    """A classic game of ``greedy`` in every seat, throws and choices drawn from ``seed``."""
    rng = random.Random(seed)
    game = Game("classic")
    bot = make_player("greedy")
    while not game.is_over():
        if game.current_player() == CHANCE:
            outcomes = game.chance_outcomes()
            throws = [k for k, _ in outcomes]
            game.push(rng.choices(throws, [float(p) for _, p in outcomes])[0])
        else:
            game.push(bot.choose(game.state, rng))
    tags = {f"Seat{seat}": "greedy bot" for seat in range(4)}
    return write_record(record_from_game(game, tags))


def review_once(client: TestClient, text: str) -> tuple[float, float, dict[str, object]]:
    """Upload ``text`` and wait for its review: seconds to the first step judged, to done,
    and the last status."""
    begun = time.perf_counter()
    answer = client.post("/api/reviews", content=text, headers={"content-type": "text/plain"})
    answer.raise_for_status()
    review_id = answer.json()["id"]
    first = 0.0
    while True:
        status = client.get(f"/api/reviews/{review_id}").json()
        if not first and status["done"]:
            first = time.perf_counter() - begun
        if status["state"] in ("done", "failed"):
            return first, time.perf_counter() - begun, status
        time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=2, help="reviews timed after the first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", type=Path, help="a record file instead of the seeded game")
    args = parser.parse_args()
    text = args.record.read_text() if args.record else greedy_record(args.seed)
    steps = len(read_record_file(args.record).moves) if args.record else None
    settings = Settings(think_workers=args.workers, create_burst=100, reviews_per_address=100)
    with tempfile.TemporaryDirectory() as scratch:
        app = create_app(f"sqlite:///{Path(scratch) / 'games.db'}", settings=settings)
        with TestClient(app) as client:
            for run in range(1 + args.runs):
                first, took, status = review_once(client, text)
                if status["state"] != "done":
                    raise SystemExit(f"the review failed: {status['error']}")
                steps = int(str(status["total"]))
                label = "first (workers start)" if run == 0 else f"run {run}"
                print(
                    f"{label:22} {steps} steps, {args.workers} workers: {took:.1f} s "
                    f"({first:.1f} s to the first chunk, {steps / took:.0f} steps/s)"
                )


if __name__ == "__main__":
    main()
