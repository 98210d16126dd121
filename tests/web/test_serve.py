"""``pachisi serve`` as a user runs it: the address line, a page, bad input, Ctrl-C."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

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


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--think-seconds", "0"], "between"),
        (["--think-workers", "1.5"], "whole number"),
        (["--create-burst", "lots"], "not a whole number"),
        (["--trusted-proxy", "not-an-address"], "not an IP address"),
        (["--allowed-origin", "evil.example.com"], "scheme://host"),
        (["--abandon-days", "-1"], "not a number"),
        (["--review-queue", "0"], "between"),
    ],
)
def test_bad_operator_flags_are_one_clear_error(
    flags: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *flags]) == 2
    assert words in capsys.readouterr().err


def test_the_operator_flags_make_the_settings() -> None:
    from pachisi.cli.parser import build_parser
    from pachisi.web.options import settings_from
    from pachisi.web.settings import Settings, parse_networks

    assert settings_from(build_parser().parse_args(["serve"])) == Settings()
    args = build_parser().parse_args(
        [
            "serve",
            *["--any-player", "--allow-computer-games", "--think-workers", "3"],
            *["--think-seconds", "2.5", "--create-burst", "7", "--max-unfinished", "3"],
            *["--proxy-headers", "--allowed-origin", "https://friends.example.org"],
            *["--openapi", "--instance", "node-a", "--abandon-days", "1"],
            *["--review-queue", "3", "--reviews-per-address", "1"],
        ]
    )
    settings = settings_from(args)
    assert settings.allow_any_player and settings.allow_computer_games and settings.openapi
    assert (settings.think_workers, settings.think_seconds) == (3, 2.5)
    assert (settings.create_burst, settings.max_unfinished_per_creator) == (7, 3)
    assert settings.trusted_proxies == parse_networks(["127.0.0.1", "::1"])
    assert settings.allowed_origins == ("https://friends.example.org",)
    assert (settings.instance, settings.abandon_days) == ("node-a", 1.0)
    assert (settings.review_queue, settings.reviews_per_address) == (3, 1)
