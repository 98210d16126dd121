"""Two people in two browsers play one game to the end through nginx, each connected to a
different one of three ``pachisi serve`` instances on one PostgreSQL, while a third browser
watches (issue 20): every move reaches every page, whichever instance took it."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.cluster.harness import DATABASE_VARIABLE, NGINX, Cluster, scratch_database
from tests.cluster.test_failover import FLAGS
from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import _AUTOPLAY_JS, moves, play_until_over
from tests.e2e.test_replay import SHORT

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    url = os.environ.get(DATABASE_VARIABLE)
    if not url:
        pytest.skip(f"{DATABASE_VARIABLE} is not set: no PostgreSQL for the instances to share")
    if not NGINX.exists():
        pytest.skip(f"{NGINX} is not installed (scripts/setup dev installs it as root)")
    directory = tmp_path_factory.mktemp("e2e-cluster")
    with (
        scratch_database(url) as database,
        Cluster(database, 3, extra_args=FLAGS, directory=directory) as started,
    ):
        yield started


def _sockets(cluster: Cluster) -> list[int]:
    return [
        httpx.get(f"{url}/api/health", timeout=5).json()["sockets"] for url in cluster.instance_urls
    ]


def test_two_browsers_on_two_instances_play_a_game_to_the_end(
    browser: Any, cluster: Cluster
) -> None:
    easy = {"kind": "computer", "player": "easy"}
    made = httpx.post(
        f"{cluster.url}/api/games",
        json={"seats": [{"kind": "human"}, {"kind": "human"}, easy, easy], "ruleset": SHORT},
        timeout=30,
    ).json()
    urls = [cluster.url + made["links"][0]["url"], cluster.url + made["links"][1]["url"]]
    urls.append(cluster.url + made["watch_url"])
    contexts = [browser.new_context(locale="en-GB") for _ in range(3)]
    try:
        pages = [context.new_page() for context in contexts]
        for page, url in zip(pages, urls, strict=True):
            page.goto(url)
            page.wait_for_selector("#board .piece")
        # nginx hands out instances in turn, page loads and API calls included: reload until
        # the three pages' connections are on three instances, so the players' differ.
        for attempt in range(20):
            if _sockets(cluster) == [1, 1, 1]:
                break
            pages[attempt % 3].reload()
            pages[attempt % 3].wait_for_selector("#board .piece")
            time.sleep(0.3)
        assert _sockets(cluster) == [1, 1, 1]
        first, second, watcher = pages
        second.evaluate(f"() => {{ window.autoplay = ({_AUTOPLAY_JS})(180000); }}")
        clicks = play_until_over(first, seconds=180)
        second.wait_for_selector("[data-testid=result]:not([hidden])", timeout=20_000)
        watcher.wait_for_selector("[data-testid=result]:not([hidden])", timeout=20_000)
        assert clicks > 20
        played = moves(first)
        assert moves(second) == played and moves(watcher) == played
        view = httpx.get(f"{cluster.url}/api/games/{made['id']}", timeout=10).json()
        assert view["status"] == "finished" and view["result"] is not None and played
    finally:
        for context in contexts:
            context.close()
