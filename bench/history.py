"""The replay viewer's history endpoint on a long game (``GET /api/games/{id}/history``,
pachisi.web.history): what the first fetch of every page costs, a repeat fetch with and
without ``If-None-Match``, and a page after one new move, against the unpaged history the
endpoint served before (the whole game replayed and encoded on every request).

The app runs in-process (httpx over ASGI, its lifespan started by hand) on a fresh SQLite
file holding one game of random play on the reference engine: by default seed 11 of
``classic``, 1,124 moves (1,125 steps), stored finished; and its first 1,000 moves as a game
in progress with four human seats, so that nothing moves but the benchmark's own moves.

    .venv/bin/python bench/history.py [--seed 11] [--repeats 20]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from pachisi.game import Game
from pachisi.notation import result_of, write_position
from pachisi.notation.record import move_text
from pachisi.rules import engine
from pachisi.rules.ruleset import Ruleset, parse_ruleset
from pachisi.rules.state import CHANCE, State
from pachisi.web.app import create_app
from pachisi.web.history import HistoryCache
from pachisi.web.protocol import Act, Throw
from pachisi.web.room import parse_move
from pachisi.web.service import GameService
from pachisi.web.storage import MoveRow, NewGame, SeatRow, open_storage
from pachisi.web.tokens import new_token, token_hash
from pachisi.web.views import event_json, pieces_json, result_json, turn_json


def random_game(seed: int, ruleset: str) -> tuple[str, list[str]]:
    """The ruleset's text and the moves of a game of random play to its end."""
    game = Game(ruleset)
    rng = random.Random(seed)
    while not game.is_over():
        if game.legal_actions():
            game.push(rng.choice(game.legal_actions()))
        else:
            game.throw(rng)
    return str(game.ruleset), [move_text(move) for move in game.moves]


def store(url: str, game_id: str, ruleset: str, moves: Sequence[str], finished: bool) -> None:
    """Write a game straight to storage: four human seats, its moves, finished or not."""
    storage = open_storage(url)
    seats = [SeatRow(seat, "human", None, token_hash(new_token())) for seat in range(4)]
    storage.create_game(NewGame(game_id, ruleset, 4, "active", tuple(seats)))
    now = dt.datetime.now(dt.UTC)
    rows = [MoveRow(game_id, n, move, now) for n, move in enumerate(moves, 1)]
    if finished:
        state = engine.new_game(parse_ruleset(ruleset))
        for move in moves:
            state, _ = engine.apply(state, parse_move(move))
        rows[-1] = MoveRow(game_id, len(rows), rows[-1].move, now, "finished", result_of(state))
    storage.commit_moves(rows)
    storage.close()


@asynccontextmanager
async def started(url: str) -> AsyncIterator[tuple[httpx.AsyncClient, GameService]]:
    app = create_app(url, rng=random.Random(3))
    # The endpoint as it was: the whole history replayed, and FastAPI encoding the value.
    app.add_api_route("/old/{game_id}/history", _old_history(app), methods=["GET"])
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            yield client, app.state.service


def step_json(
    version: int, move: str | None, events: list[dict[str, Any]], state: State
) -> dict[str, Any]:
    """One step of a game: the move that led to ``state``, its events, and the state."""
    return {
        "version": version,
        "move": move,
        "events": events,
        "position": write_position(state),
        "pieces": pieces_json(state),
        "turn": turn_json(state, frozenset()),
        "result": result_json(state),
    }


def history(game_id: str, ruleset: Ruleset, moves: Sequence[str]) -> dict[str, Any]:
    """Every step of a game from its start, as one value: the old, unpaged history that
    the endpoint served before it was paged (the "before" figure)."""
    state = engine.new_game(ruleset)
    steps = [step_json(0, None, [], state)]
    for version, text in enumerate(moves, 1):
        before = state
        state, events = engine.apply(state, parse_move(text))
        steps.append(step_json(version, text, [event_json(e, before) for e in events], state))
    return {
        "id": game_id,
        "ruleset": str(ruleset),
        "version": len(moves),
        "moves": list(moves),
        "steps": steps,
    }


def _old_history(app: Any) -> Callable[..., Any]:
    async def old_history(game_id: str) -> dict[str, Any]:
        service: GameService = app.state.service
        room = await service.room(game_id)
        assert room is not None
        return await asyncio.to_thread(history, room.id, room.ruleset, list(room.moves))

    return old_history


Known = dict[int, tuple[str, int | None]]
"""The pages a client holds: their start, ETag and the next page's start."""


async def fetch_all(
    client: httpx.AsyncClient, game_id: str, known: Known | None = None
) -> list[tuple[int, int, float]]:
    """Every page, as the replay viewer fetches them: (status, bytes, seconds) of each.
    With ``known``, a client that keeps the pages it had: it sends each page's tag, takes a
    304 as the page it holds, and keeps the pages it is sent."""
    out = []
    start: int | None = 0
    while start is not None:
        headers = {"If-None-Match": known[start][0]} if known and start in known else {}
        began = time.perf_counter()
        response = await client.get(f"/api/games/{game_id}/history?start={start}", headers=headers)
        out.append((response.status_code, len(response.content), time.perf_counter() - began))
        if response.status_code == 304:
            assert known is not None
            start = known[start][1]
            continue
        following: int | None = response.json()["next"]
        if known is not None:
            known[start] = (response.headers["etag"], following)
        start = following
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f}"


Sample = list[tuple[int, int, float]]
"""One fetch of one or more pages: the status, bytes and seconds of each request."""
Row = tuple[str, str, str, str]
"""A line of the table: what was fetched, bytes per page, ms per page, ms in all."""


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11, help="the random game (default 11)")
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--repeats", type=int, default=20, help="samples of each warm figure")
    parser.add_argument("--pollers", type=int, default=16, help="clients polling at once")
    args = parser.parse_args(argv)

    ruleset, moves = random_game(args.seed, args.ruleset)
    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite:///{Path(scratch) / 'bench.db'}"
        store(url, "finished", ruleset, moves, finished=True)
        store(url, "playing", ruleset, moves[:PLAYING], finished=False)
        async with started(url) as (client, service):
            rows = await measure(client, service, args)
    command = " ".join(["bench/history.py", *(argv if argv is not None else sys.argv[1:])])
    print(f"$ .venv/bin/python {command}")
    print(
        f"finished game: {ruleset}, seed {args.seed}, {len(moves)} moves ({len(moves) + 1} "
        f"steps); game in progress: its first {PLAYING} moves, four human seats. In-process "
        "ASGI (httpx), SQLite; medians."
    )
    print(f"{'request':<44} {'bytes per page':>27} {'ms per page':>22} {'ms all':>8}")
    for name, sizes, each, total in rows:
        print(f"{name:<44} {sizes:>27} {each:>22} {total:>8}")


PLAYING = 1000
"""The moves of the game in progress when the benchmark starts."""


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


async def measure(
    client: httpx.AsyncClient, service: GameService, args: argparse.Namespace
) -> list[Row]:
    rows: list[Row] = []

    def row(name: str, samples: list[Sample], status: int) -> None:
        for sample in samples:
            assert all(code == status for code, _, _ in sample), (name, sample)
        pages = range(len(samples[0]))
        sizes = " / ".join(f"{size:,}" for _, size, _ in samples[0])
        each = " / ".join(_ms(statistics.median(sample[n][2] for sample in samples)) for n in pages)
        total = _ms(statistics.median(sum(s for _, _, s in sample) for sample in samples))
        rows.append((name, sizes, each, total))

    # Before: the whole history on every request, the room of a finished game loaded from
    # storage and replayed first, as every request did then too.
    for game_id in ("finished", "playing"):
        old = []
        for _ in range(max(3, args.repeats // 4)):
            began = time.perf_counter()
            response = await client.get(f"/old/{game_id}/history")
            seconds = time.perf_counter() - began
            old.append([(response.status_code, len(response.content), seconds)])
        row(f"before: whole history, {game_id}", old, 200)

    # The first fetch of every page, nothing cached (cache and kept rooms emptied each time).
    cold = []
    for _ in range(3):
        service.histories = HistoryCache()
        service._finished.clear()
        cold.append(await fetch_all(client, "finished"))
    row("first fetch, all pages (cold)", cold, 200)
    warm = [await fetch_all(client, "finished") for _ in range(args.repeats)]
    row("repeat, no If-None-Match", warm, 200)
    known: Known = {}
    await fetch_all(client, "finished", known)
    cached = [await fetch_all(client, "finished", known) for _ in range(args.repeats * 5)]
    row("repeat, If-None-Match: 304", cached, 304)

    # Many clients polling one game at once, each with its pages.
    async def poll() -> list[Sample]:
        return [await fetch_all(client, "finished", dict(known)) for _ in range(args.repeats)]

    began = time.perf_counter()
    polled = await asyncio.gather(*(poll() for _ in range(args.pollers)))
    wall = time.perf_counter() - began
    samples = [sample for one in polled for sample in one]
    row(f"{args.pollers} clients at once, If-None-Match: 304", samples, 304)
    requests = sum(len(sample) for sample in samples)
    rows.append((f"  = {requests / wall:,.0f} requests a second, one event loop", "", "", ""))

    # A game in progress: its pages, then one new move and the page it lands on, again.
    room = await service.room("playing")
    assert room is not None
    known = {}
    row("in progress: first fetch, all pages", [await fetch_all(client, "playing", known)], 200)
    grown = []
    for _ in range(args.repeats):
        if room.state.is_over:
            break
        await move(service, room)
        start = room.version // 500 * 500
        headers = {"If-None-Match": known[start][0]} if start in known else {}
        began = time.perf_counter()
        response = await client.get(f"/api/games/playing/history?start={start}", headers=headers)
        grown.append([(response.status_code, len(response.content), time.perf_counter() - began)])
        known[start] = (response.headers["etag"], response.json()["next"])
    row("in progress: a new move, its page again", grown, 200)
    kept = service.histories.get(room.id, room.ruleset, room.moves)
    held = sum(len(text) for text in kept._steps)
    rows.append((f"  the cache holds {held / len(kept):,.0f} bytes a step", "", "", ""))
    return rows


async def move(service: GameService, room: Any) -> None:
    """Play one move of the game in progress as its seat's person: a throw or an action."""
    state = room.state
    seat = state.seat
    if engine.current_player(state) == CHANCE:
        await service.play(room, frozenset(range(4)), Throw(seat, room.version))
    else:
        action = str(engine.legal_actions(state)[0])
        await service.play(room, frozenset(range(4)), Act(seat, room.version, action))


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
