"""The web game under load: many concurrent games on loopback, each with its WebSocket
clients (issue 8: 500 games, at least 1,000 commands a second, p99 below 50 ms, on SQLite).

``pachisi serve`` runs in a subprocess on a fresh SQLite file. With ``--instances N`` (or
``--database`` naming a PostgreSQL server), N ``pachisi serve`` processes run instead on a
fresh database on PostgreSQL (the server of ``--database URL``, else of
``$PACHISI_TEST_DATABASE_URL``; the database is dropped afterwards), with nginx in front of
them (tests/cluster/harness.py, running deploy/nginx.conf), and every client goes through
nginx, which spreads the requests and the WebSockets over the instances. Each game is a
two-person
game (``players=2``) with two clients, one per person, each holding its two seats; a client
that is due throws or plays a random legal action from its view, after a pause of about
``--think`` seconds, as a person would (without one, every client would wait in the queue
all the time and the latency would only measure the queue: with N games always waiting it
is N divided by the throughput). A finished game is replaced by a new one. The latency of a
command is the time from sending it to receiving its update.

"Committed before its event" is checked twice: on receiving its update, the client looks
up every ``--check-every``-th command in the database (a separate connection, which sees
committed transactions only), and at the end every update any client received is compared
with the stored moves.

    .venv/bin/python bench/web.py [--games 500] [--seconds 30] [--think 0.4]
    .venv/bin/python bench/web.py --instances 3 [--database postgresql://...]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
import websockets

from pachisi.web.storage import url_for_engine

ROOT = Path(__file__).resolve().parents[1]
DATABASE_VARIABLE = "PACHISI_TEST_DATABASE_URL"
# Limits a public server puts on one client address, raised for a benchmark whose clients
# all come from 127.0.0.1; each is passed only to a server whose --help lists it.
BENCH_LIMITS = {
    "--create-burst": "100000",
    "--create-per-minute": "100000",
    "--max-unfinished": "1000000",
    "--sockets-per-address": "100000",
    "--commands-burst": "100000",
    "--commands-per-second": "100000",
}


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


class Moves:
    """A reader of the stored moves, on a connection of its own that sees only committed
    transactions (each query its own: no snapshot held open), SQLite or PostgreSQL."""

    def __init__(self, url: str) -> None:
        engine_url = url_for_engine(url)
        if engine_url.startswith("sqlite:///"):
            # Read-only, so that the reader cannot take the writer's lock.
            engine_url = f"sqlite:///file:{engine_url[len('sqlite:///') :]}?mode=ro&uri=true"
        self.engine = sa.create_engine(engine_url, isolation_level="AUTOCOMMIT")
        self.conn = self.engine.connect()

    def committed(self, game: str, version: int, move: str) -> bool:
        """Whether ``move`` is stored as ``game``'s move ``version``."""
        row = self.conn.execute(
            sa.text("SELECT move FROM moves WHERE game_id = :game AND version = :version"),
            {"game": game, "version": version},
        ).first()
        return row is not None and row[0] == move

    def every(self) -> dict[tuple[str, int], str]:
        """Every stored move by game and version."""
        rows = self.conn.execute(sa.text("SELECT game_id, version, move FROM moves"))
        return {(game, version): move for game, version, move in rows}

    def close(self) -> None:
        self.conn.close()
        self.engine.dispose()


@dataclass
class Servers:
    """The servers under test: where clients connect, the games' database, and the process
    groups whose CPU time is the servers' and the proxy's."""

    base: str
    database: str
    server_groups: list[int]
    proxy_groups: list[int] = field(default_factory=list)
    what: str = "1 server on SQLite"


class Bench:
    """The clients of every game, and what they measure."""

    def __init__(self, servers: Servers, moves: Moves, args: argparse.Namespace) -> None:
        self.base = servers.base
        self.ws_base = servers.base.replace("http://", "ws://")
        self.args = args
        self.tally = Tally()
        self.moves = moves
        self.stop_at = 0.0
        self.started = 0.0
        self.sent = 0
        self.connected = asyncio.Barrier(1)
        self.servers = servers
        self.server_cpu_at_start = 0.0
        self.proxy_cpu_at_start = 0.0
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
            self.server_cpu_at_start = _cpu_seconds(self.servers.server_groups)
            self.proxy_cpu_at_start = _cpu_seconds(self.servers.proxy_groups)
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
        if not self.moves.committed(game, version, move):
            self.tally.uncommitted.append((game, version))


def _start_server(
    port: int, database: Path, profile: str | None, extra: Sequence[str]
) -> subprocess.Popen[str]:
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
        *extra,
    ]
    # A process group of its own, like the harness's servers, so that the CPU of whatever
    # it starts counts as the server's.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
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


def _cpu_seconds(groups: Sequence[int]) -> float:
    """The CPU time (user and system) the live processes of these process groups have used
    so far, from /proc (nginx's workers, say, are in their master's group)."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[2]) in groups:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _final_check(moves: Moves, received: dict[tuple[str, int], str]) -> int:
    """How many received updates do not match a stored move (should be none)."""
    stored = moves.every()
    return sum(1 for key, move in received.items() if stored.get(key) != move)


def _harness() -> Any:
    """tests/cluster/harness.py (the benchmark runs as a script, with bench/ on its path
    rather than the repository)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.cluster import harness

    return harness


def _bench_flags(args: argparse.Namespace) -> list[str]:
    """The flags every server gets besides its address and database."""
    known = _harness().serve_flags()
    raised = [
        word for flag, value in BENCH_LIMITS.items() if flag in known for word in (flag, value)
    ]
    return [*raised, *args.serve_arg]


@contextlib.contextmanager
def _sqlite_server(args: argparse.Namespace) -> Iterator[Servers]:
    """One ``pachisi serve`` on a fresh SQLite file (the benchmark of issue 8)."""
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "bench.db"
        port = _free_port()
        server = _start_server(port, database, args.profile, _bench_flags(args))
        try:
            yield Servers(f"http://127.0.0.1:{port}", f"sqlite:///{database}", [server.pid])
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=60)


def _servers(n: int) -> str:
    return "1 server" if n == 1 else f"{n} servers"


@contextlib.contextmanager
def _cluster(args: argparse.Namespace) -> Iterator[Servers]:
    """``--instances`` servers on a fresh PostgreSQL database, behind nginx."""
    url = args.database or os.environ.get(DATABASE_VARIABLE)
    if not url or not url.startswith(("postgresql://", "postgres://")):
        raise SystemExit(
            f"bench/web.py: --instances needs a PostgreSQL server: --database "
            f"postgresql://... or {DATABASE_VARIABLE}"
        )
    harness = _harness()
    if not harness.NGINX.exists():
        raise SystemExit(f"bench/web.py: --instances needs nginx at {harness.NGINX}")
    extra = ["--computer-delay", "0", *_bench_flags(args)]
    with (
        harness.scratch_database(url) as database,
        harness.Cluster(database, args.instances, extra_args=extra) as cluster,
    ):
        print(
            f"{_servers(args.instances)} at {', '.join(cluster.instance_urls)}; nginx at "
            f"{cluster.url}",
            flush=True,
        )
        yield Servers(
            cluster.url,
            database,
            [pid for pid in cluster.pids if pid is not None],
            [cluster.nginx_pid],
            f"{_servers(args.instances)} on PostgreSQL behind nginx",
        )


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
    parser.add_argument(
        "--instances",
        type=int,
        default=1,
        metavar="N",
        help="N servers on PostgreSQL behind nginx (default: 1 server on SQLite)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help=f"the PostgreSQL server to run on (default with --instances: ${DATABASE_VARIABLE});"
        " a fresh database is made on it and dropped afterwards",
    )
    parser.add_argument(
        "--serve-arg",
        action="append",
        default=[],
        metavar="WORD",
        help="a word to add to every `pachisi serve` command (repeat it, one per word)",
    )
    args = parser.parse_args(argv)
    if args.instances < 1:
        parser.error("--instances must be at least 1")
    on_postgres = args.instances > 1 or args.database is not None
    if args.profile and on_postgres:
        parser.error("--profile profiles the one server on SQLite, not --instances")
    # The command as run, less a database password (the output is pasted into docs).
    shown = [re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", word) for word in sys.argv[1:]]
    print("$ .venv/bin/python bench/web.py " + " ".join(shown), flush=True)
    with _cluster(args) if on_postgres else _sqlite_server(args) as servers:
        moves = Moves(servers.database)
        try:
            bench = Bench(servers, moves, args)
            started = time.perf_counter()
            asyncio.run(bench.run())
            elapsed = time.perf_counter() - started
            server_cpu = _cpu_seconds(servers.server_groups) - bench.server_cpu_at_start
            proxy_cpu = _cpu_seconds(servers.proxy_groups) - bench.proxy_cpu_at_start
            client_cpu = time.process_time() - bench.client_cpu_at_start
            tally = bench.tally
            mismatched = _final_check(moves, tally.received)
        finally:
            moves.close()
    done = len(tally.latencies)
    print(f"servers     {servers.what}")
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
        proxy = f", nginx {1000 * proxy_cpu / done:.2f} ms" if servers.proxy_groups else ""
        print(
            f"cpu         server {1000 * server_cpu / done:.2f} ms{proxy}, clients "
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
