"""A ``pachisi`` web server in a subprocess, for the browser tests: start, stop, restart.

The server is the package's own app on uvicorn, on a free loopback port and a database of
the test's choosing. ``pachisi serve`` is used when it offers ``--computer-delay`` (the tests
want computer seats to play at once); otherwise the app factory is run on uvicorn directly,
which is what ``serve`` does too.
"""

from __future__ import annotations

import functools
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import httpx

STARTUP_SECONDS = 60.0
_LAUNCHER = """
import sys, uvicorn
from pachisi.web.app import create_app
uvicorn.run(create_app(sys.argv[1], computer_delay=0.0), host="127.0.0.1",
            port=int(sys.argv[2]), log_level="warning")
"""


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@functools.cache
def _serve_has_delay_option() -> bool:
    """Whether ``pachisi serve`` takes ``--computer-delay`` (asked once per session)."""
    helped = subprocess.run(
        [sys.executable, "-m", "pachisi.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return helped.returncode == 0 and "--computer-delay" in helped.stdout


class Server:
    """One server process on a fixed port, so that a restart comes back at the same address
    (the pages reconnect to it on their own)."""

    def __init__(
        self,
        database_url: str,
        log_path: Path,
        extra_args: tuple[str, ...] = (),
        *,
        permissive: bool = True,
    ) -> None:
        self.database_url = database_url
        self.extra_args = extra_args
        self.permissive = permissive
        """Whether computer seats may be any player (the quick ``random`` of most tests) and
        games may be of computers alone; otherwise the server offers what a public one does."""
        self.log_path = log_path
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._log: TextIO | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        if _serve_has_delay_option():
            return [
                sys.executable,
                "-m",
                "pachisi.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--database",
                self.database_url,
                "--computer-delay",
                "0",
                # One browser makes every game of the suite: no limit may get in its way.
                "--create-burst",
                "100000",
                "--max-unfinished",
                "1000000",
                "--sockets-per-address",
                "100000",
                *(("--any-player", "--allow-computer-games") if self.permissive else ()),
                *self.extra_args,
            ]
        return [sys.executable, "-c", _LAUNCHER, self.database_url, str(self.port)]

    def start(self) -> None:
        """Start the server and wait until it answers."""
        self._log = self.log_path.open("a")
        self.process = subprocess.Popen(self.command(), stdout=self._log, stderr=self._log)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/meta", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log_path.read_text()[-2000:]}")

    def stop(self) -> None:
        """Stop the server (SIGTERM, as a service manager would) and wait for it to exit."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def api(self, method: str, path: str, **kwargs: Any) -> Any:
        """Call the REST API; the answer's JSON (a failure raises)."""
        response = httpx.request(method, f"{self.url}{path}", timeout=30, **kwargs)
        response.raise_for_status()
        return response.json()

    def create_game(self, seats: list[dict[str, str]], **spec: Any) -> Any:
        """Create a game through the API, as the lobby does; the creation's answer."""
        return self.api("POST", "/api/games", json={"seats": seats, **spec})
