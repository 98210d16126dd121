"""``pachisi serve`` with computers thinking as long as they may (issue 20, D1): it answers
meanwhile, stays small, stops within 5 s on SIGINT or SIGTERM, loses nothing, and after a
restart answers at once although those games resume."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from pachisi.web.server import STOP_SECONDS
from tests.e2e.server import free_port

SLOW = {"kind": "computer", "player": "mcts:10000000"}


def _start(database: Path, port: int) -> subprocess.Popen[str]:
    # The server's log goes to a file: a pipe nobody reads would stop the server once full.
    log = database.with_suffix(".log").open("a")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pachisi.cli",
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{database}",
            "--computer-delay",
            "0",
            "--any-player",
            "--allow-computer-games",
            "--think-seconds",
            "600",  # every think goes on for as long as the test runs
            "--create-burst",
            "100",
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
        text=True,
    )
    log.close()
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, database.with_suffix(".log").read_text()
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=2)
            return process
        except httpx.TransportError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _stored_moves(database: Path) -> int:
    with sqlite3.connect(database) as conn:
        count: int = conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
        return count


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_endless_thinkers_freeze_nothing_and_the_server_stops_in_time(
    tmp_path: Path, stop: signal.Signals
) -> None:
    database, port = tmp_path / "games.db", free_port()
    url = f"http://127.0.0.1:{port}"
    process = _start(database, port)
    try:
        for _ in range(7):
            made = httpx.post(f"{url}/api/games", json={"seats": [SLOW] * 4}, timeout=10)
            assert made.status_code == 201, made.text
        time.sleep(2)  # the throw-offs are made, the workers think
        started = time.monotonic()
        created = httpx.post(f"{url}/api/games", json={"seats": [{"kind": "human"}] * 4})
        assert created.status_code == 201 and time.monotonic() - started < 2.0
        assert _rss_mb(process.pid) < 600  # the thinking is in the workers, not here
        stored = _stored_moves(database)
        process.send_signal(stop)
        stopping = time.monotonic()
        process.wait(timeout=STOP_SECONDS + 5)
        print(f"{stop.name}: stopped in {time.monotonic() - stopping:.2f} s")
        assert time.monotonic() - stopping <= STOP_SECONDS
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert _stored_moves(database) >= stored  # every committed move is still there
    # After a restart those games resume their thinking, and the server answers at once.
    process = _start(database, port)
    try:
        time.sleep(1)  # the resumed games reach their thinking
        started = time.monotonic()
        created = httpx.post(f"{url}/api/games", json={"seats": [{"kind": "human"}] * 4})
        assert created.status_code == 201 and time.monotonic() - started < 2.0
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=STOP_SECONDS + 5)
