"""Fixtures for the browser tests: a real ``pachisi serve`` in a subprocess, and Chromium.

Each database the suite runs on is a parameter of :func:`database_url`: a fresh SQLite file,
and the PostgreSQL of ``PACHISI_TEST_DATABASE_URL`` when that is set (``.ci/run`` sets it).
The browser is Debian's ``chromium`` driven by Playwright; without it the tests skip.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.harness import scratch_database
from tests.e2e.server import Server

CHROMIUM = shutil.which("chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
MANUAL_OPTIONS = {"autoThrow": False, "autoSingle": False, "autoSame": False, "pace": "instant"}
"""The game page's options of most tests: the test clicks every throw and choice itself and
waits for no pace (the page's own defaults auto-play and pace the computers: the tests of
the options open their contexts with ``game_options=None``)."""
_DATABASES = ["sqlite"] + (["postgresql"] if os.environ.get("PACHISI_TEST_DATABASE_URL") else [])


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long browser test, run only with PACHISI_SLOW=1")
    config.addinivalue_line(
        "markers",
        "stored: a browser test of what the server keeps (a restart, a second browser, an "
        "invitation), run on PostgreSQL as well as SQLite without PACHISI_SLOW=1 too",
    )


_HERE = Path(__file__).parent


def _on_postgresql(item: pytest.Item) -> bool:
    """Whether this is a browser test's PostgreSQL case (pytest hands this conftest's hook
    every test of the session, tests/web's cases on PostgreSQL included)."""
    callspec = getattr(item, "callspec", None)
    return (
        callspec is not None
        and callspec.params.get("database_url") == "postgresql"
        and item.path.is_relative_to(_HERE)
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # CI's sample (keeping .ci/run near 12 minutes on 2 cores): every browser test runs on
    # SQLite, and on PostgreSQL only those marked `stored`. The server reaches both databases
    # through the same storage layer, which tests/web and tests/cluster run on both in full;
    # PACHISI_SLOW=1 runs every browser test on both.
    if os.environ.get("PACHISI_SLOW") == "1":
        return
    slow = pytest.mark.skip(reason="a slow browser test: set PACHISI_SLOW=1 to run it")
    sampled = pytest.mark.skip(
        reason="on PostgreSQL, CI runs only the browser tests marked `stored`: "
        "set PACHISI_SLOW=1 to run every one"
    )
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(slow)
        elif _on_postgresql(item) and "stored" not in item.keywords:
            item.add_marker(sampled)


@pytest.fixture(scope="session", params=_DATABASES)
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A database for one run of the suite: a new SQLite file, or a new database on the
    test PostgreSQL (dropped afterwards), so that the suite's processes (``pytest -n 2``)
    never see each other's games."""
    if request.param == "postgresql":
        with scratch_database(os.environ["PACHISI_TEST_DATABASE_URL"]) as url:
            yield url
        return
    yield f"sqlite:///{tmp_path_factory.mktemp('e2e-db') / 'pachisi.db'}"


@pytest.fixture()
def sqlite_only(database_url: str) -> None:
    """For a test of the pages alone, which no database changes: run it once, on SQLite."""
    if not database_url.startswith("sqlite"):
        pytest.skip("a test of the page alone: it runs on SQLite only")


@pytest.fixture(scope="session")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the tests that do not stop it, computer seats playing without pause."""
    pytest.importorskip("pachisi.web.app", reason="the web server is not in this tree yet")
    running = Server(database_url, tmp_path_factory.mktemp("e2e-log") / "server.log")
    running.start()
    yield running
    running.stop()


@pytest.fixture()
def own_server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own, for a test that stops and restarts it: on SQLite with a
    file of its own, so that it never plays the session server's games; on PostgreSQL in
    the session's database (a server has no other), where the session server's
    games are all waiting for people by the time this runs."""
    pytest.importorskip("pachisi.web.app", reason="the web server is not in this tree yet")
    if database_url.startswith("sqlite"):
        database_url = f"sqlite:///{tmp_path / 'own.db'}"
    running = Server(database_url, tmp_path / "server.log")
    running.start()
    yield running
    running.stop()


def _options_script(options: dict[str, Any]) -> str:
    # Kept as the page keeps them, unless the test's page changed them since; a page without
    # storage (about:blank) refuses, which is no matter.
    text = json.dumps(json.dumps(options))
    return (
        "try { if (localStorage.getItem('pachisi_options') === null) "
        f"localStorage.setItem('pachisi_options', {text}); }} catch (e) {{}}"
    )


class OptionsBrowser:
    """The browser, whose new contexts' pages start with the game page's options a test
    chooses: :data:`MANUAL_OPTIONS` unless it passes ``game_options`` (None: the page's
    defaults). Everything else is Playwright's browser itself."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(
        self, *args: Any, game_options: dict[str, Any] | None = MANUAL_OPTIONS, **kwargs: Any
    ) -> Any:
        made = self._browser.new_context(*args, **kwargs)
        if game_options is not None:
            made.add_init_script(script=_options_script(game_options))
        return made

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright (sync API), shared by the tests of one module.

    Not by the whole session: Playwright's sync API keeps an asyncio event loop running in
    the main thread while it is open, and tests collected after these ones (tests/web)
    call ``asyncio.run``, which refuses to start inside a running loop.
    """
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (scripts/setup dev installs it)")
    playwright_sync = pytest.importorskip("playwright.sync_api")
    with playwright_sync.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield OptionsBrowser(launched)
        launched.close()


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (no cookies, no storage) in English, phone-sized or not."""
    made = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 900})
    yield made
    made.close()
