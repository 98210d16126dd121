"""``pachisi serve`` as a user runs it: the address line, a page, bad input, Ctrl-C."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from pachisi.cli import main


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_serve_prints_the_address_serves_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pachisi.cli",
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{tmp_path / 'games.db'}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line == f"pachisi: serving on http://127.0.0.1:{port}/ (open it in a browser)\n"
        deadline = time.monotonic() + 30
        while True:
            try:
                meta = httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert meta.status_code == 200 and "classic" in meta.text
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 130
    finally:
        process.kill()
        process.wait()


def test_a_bad_database_is_one_line_and_exit_2(capsys: object) -> None:
    assert main(["serve", "--database", "mysql://u@h/db"]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert err.count("\n") == 1 and "only sqlite" in err


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path, capsys: object) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--port", str(port), "--database", f"sqlite:///{tmp_path / 'g.db'}"])
    assert code == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err


def test_bad_arguments_are_exit_2() -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--computer-delay", "-1"]) == 2
