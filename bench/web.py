"""The web game under load: many concurrent games on loopback, each with its WebSocket
clients (issue 8: 500 games, at least 1,000 commands a second, p99 below 50 ms, on SQLite).

``pachisi serve`` runs in a subprocess on a fresh SQLite file. Each game is a two-person
game (``players=2``) with two clients, one per person, each holding its two seats; a client
that is due throws or plays a random legal action from its view, after a pause of about
``--think`` seconds, as a person would (without one, every client would wait in the queue
all the time and the latency would only measure the queue: with N games always waiting it
is N divided by the throughput). A finished game is replaced by a new one. The latency of a
command is the time from sending it to receiving its update.

"Committed before its event" is checked twice: on receiving its update, the client looks
up every ``--check-every``-th command in the database (a separate SQLite connection, which
sees committed transactions only), and at the end every update any client received is
compared with the stored moves.

    .venv/bin/python bench/web.py [--games 500] [--seconds 30] [--think 0.4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets


@dataclass
class Tally:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    sent_times: list[float] = field(default_factory=list)
    received: dict[tuple[str, int], str] = field(default_factory=dict)
    checked: int = 0
    uncommitted: list[tuple[str, int]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _committed(db: sqlite3.Connection, game: str, version: int, move: str) -> bool:
    row = db.execute(
        "SELECT move FROM moves WHERE game_id = ? AND version = ?", (game, version)
    ).fetchone()
    return row is not None and row[0] == move


class Bench:
    """The clients of every game, and what they measure."""

    def __init__(
        self, base: str, database: Path, args: argparse.Namespace, server_pid: int
    ) -> None:
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.args = args
        self.tally = Tally()
        self.db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, check_same_thread=False)
        self.stop_at = 0.0
        self.started = 0.0
        self.sent = 0
        self.connected = asyncio.Barrier(1)
        self.server_pid = server_pid
        self.server_cpu_at_start = 0.0
        self.client_cpu_at_start = 0.0

    async def run(self) -> None:
        limits = httpx.Limits(max_connections=16)
        async with httpx.AsyncClient(base_url=self.base, timeout=120, limits=limits) as http:
            games = await asyncio.gather(*(self._create(http) for _ in range(self.args.games)))
            print(f"{len(games)} games created, connecting their clients ...", flush=True)
            # Every client connects first; the clock starts once all are connected.
            self.stop_at = float("inf")
            self.connected = asyncio.Barrier(2 * len(games) + 1)
            players = asyncio.gather(
                *(self._play_games(http, made, n) for n, made in enumerate(games))
            )
            await self.connected.wait()
            print(
                f"{2 * len(games)} clients connected; playing for {self.args.seconds} s ...",
                flush=True,
            )
            self.started = time.perf_counter()
            self.stop_at = self.started + self.args.seconds
            self.server_cpu_at_start = _cpu_seconds(self.server_pid)
            self.client_cpu_at_start = time.process_time()
            await players

    async def _create(self, http: httpx.AsyncClient) -> dict[str, Any]:
        body = {"ruleset": "classic", "players": 2, "seats": [{"kind": "human"}] * 2}
        response = await http.post("/api/games", json=body)
        response.raise_for_status()
        made: dict[str, Any] = response.json()
        return made

    async def _play_games(self, http: httpx.AsyncClient, made: dict[str, Any], n: int) -> None:
        rng = random.Random(n)
        first = True
        while time.perf_counter() < self.stop_at:
            clients = [self._client(made, link["token"], rng, first) for link in made["links"]]
            first = False
            finished = await asyncio.gather(*clients)
            if not any(finished):
                return
            self.tally.games_finished += 1
            made = await self._create(http)

    async def _client(
        self, made: dict[str, Any], token: str, rng: random.Random, first: bool
    ) -> bool:
        """Play one person's seats until the game ends (True) or time is up (False)."""
        game = made["id"]
        url = f"{self.ws_base}/ws/games/{game}?token={token}"
        async with websockets.connect(url, max_size=2**22, compression=None) as ws:
            sent_at: float | None = None
            expected = -1
            snapshot = await ws.recv()
            if first:
                await self.connected.wait()
                # Spread the games' first commands over the first think time.
                await asyncio.sleep(rng.random() * self.args.think)
            pending: list[str | bytes] = [snapshot]
            while True:
                if pending:
                    raw = pending.pop()
                else:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), self._patience())
                    except TimeoutError:
                        # Time is up and the other client of the game stopped first, so
                        # no update will come any more.
                        if time.perf_counter() >= self.stop_at:
                            return False
                        raise
                message = json.loads(raw)
                kind = message["type"]
                if kind == "error":
                    self.tally.errors.append(f"{message['code']}: {message['message']}")
                    await ws.send(json.dumps({"type": "resync"}))
                    sent_at = None
                    continue
                view = message["game"]
                version = message["version"]
                if kind == "update":
                    self.tally.received[(game, version)] = message["move"]
                    if sent_at is not None and version == expected:
                        self.tally.latencies.append(time.perf_counter() - sent_at)
                        self.tally.sent_times.append(sent_at - self.started)
                        self.sent_done(game, version, message["move"])
                        sent_at = None
                if view["result"] is not None:
                    return True
                if time.perf_counter() >= self.stop_at:
                    return False
                turn = view["turn"]
                if sent_at is not None or not (turn["you_throw"] or turn["you_act"]):
                    continue
                await asyncio.sleep(self.args.think * (0.5 + rng.random()))
                command: dict[str, Any] = {"seat": turn["seat"], "version": version}
                if turn["you_throw"]:
                    command["type"] = "throw"
                else:
                    command["type"] = "act"
                    command["action"] = rng.choice(view["legal"])["action"]
                expected = version + 1
                sent_at = time.perf_counter()
                self.sent += 1
                await ws.send(json.dumps(command))

    def _patience(self) -> float | None:
        """How long a client waits for a message: past the end, not forever."""
        if self.stop_at == float("inf"):
            return None
        return max(0.0, self.stop_at - time.perf_counter()) + 5.0

    def sent_done(self, game: str, version: int, move: str) -> None:
        if len(self.tally.latencies) % self.args.check_every:
            return
        self.tally.checked += 1
        if not _committed(self.db, game, version, move):
            self.tally.uncommitted.append((game, version))


def _start_server(port: int, database: Path, profile: str | None) -> subprocess.Popen[str]:
    profiler = ["-m", "cProfile", "-o", profile] if profile else []
    command = [
        sys.executable,
        *profiler,
        "-m",
        "pachisi.cli",
        "serve",
        "--port",
        str(port),
        "--database",
        f"sqlite:///{database}",
        "--computer-delay",
        "0",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if "serving on" not in line:
        process.kill()
        raise SystemExit(f"bench/web.py: the server did not start: {line!r}")
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=5).raise_for_status()
            return process
        except httpx.TransportError:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit("bench/web.py: the server does not answer") from None
            time.sleep(0.1)


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _final_check(database: Path, received: dict[tuple[str, int], str]) -> int:
    """How many received updates do not match a stored move (should be none)."""
    db = sqlite3.connect(database)
    stored = {(g, v): m for g, v, m in db.execute("SELECT game_id, version, move FROM moves")}
    db.close()
    return sum(1 for key, move in received.items() if stored.get(key) != move)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.4, help="mean pause before a command")
    parser.add_argument("--check-every", type=int, default=20)
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile")
    parser.add_argument("--windows", type=int, default=0, help="also report N time slices")
    args = parser.parse_args(argv)
    print("$ .venv/bin/python bench/web.py " + " ".join(sys.argv[1:]), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "bench.db"
        port = _free_port()
        server = _start_server(port, database, args.profile)
        try:
            bench = Bench(f"http://127.0.0.1:{port}", database, args, server.pid)
            started = time.perf_counter()
            asyncio.run(bench.run())
            elapsed = time.perf_counter() - started
            server_cpu = _cpu_seconds(server.pid) - bench.server_cpu_at_start
            client_cpu = time.process_time() - bench.client_cpu_at_start
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=60)
        tally = bench.tally
        mismatched = _final_check(database, tally.received)
    done = len(tally.latencies)
    play_seconds = args.seconds
    print(
        f"games       {args.games} concurrent, 2 WebSocket clients each "
        f"({tally.games_finished} finished and replaced)"
    )
    print(
        f"commands    {done} answered in {play_seconds:.0f} s: "
        f"{done / play_seconds:,.0f} commands/s"
    )
    if done:
        ms = [1000 * t for t in tally.latencies]
        print(
            f"latency     p50 {statistics.median(ms):.1f} ms, p99 {_percentile(ms, 0.99):.1f} ms, "
            f"max {max(ms):.1f} ms (command sent to its update received)"
        )
    print(
        f"committed   {tally.checked} updates looked up on arrival, "
        f"{len(tally.uncommitted)} not yet in the database; "
        f"{len(tally.received)} updates compared at the end, {mismatched} not stored"
    )
    print(
        f"errors      {len(tally.errors)}"
        + (f" (first: {tally.errors[0]})" if tally.errors else "")
    )
    if done:
        print(
            f"cpu         server {1000 * server_cpu / done:.2f} ms, clients "
            f"{1000 * client_cpu / done:.2f} ms per command (2 cores; others' load shows here)"
        )
    if args.windows and done:
        width = args.seconds / args.windows
        for w in range(args.windows):
            inside = [
                1000 * lat
                for lat, at in zip(tally.latencies, tally.sent_times, strict=True)
                if w * width <= at < (w + 1) * width
            ]
            if inside:
                p50, p99 = statistics.median(inside), _percentile(inside, 0.99)
                print(
                    f"  {w * width:5.1f} s  {len(inside) / width:6.0f}/s  "
                    f"p50 {p50:6.1f} ms  p99 {p99:6.1f} ms"
                )
    print(f"wall time   {elapsed:.1f} s")
    return 0 if not tally.uncommitted and not mismatched else 1


if __name__ == "__main__":
    sys.exit(main())
