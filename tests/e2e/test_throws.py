"""The game page's throws: a grace stays a grace once the next throw is due, from the
throw's own event (docs/web.md, EVENT)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import offer, play_once
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


@pytest.mark.usefixtures("sqlite_only")
def test_a_grace_thrown_is_said_while_the_next_throw_is_due(context: Any, server: Server) -> None:
    # Under the Wikipedia rules a grace is thrown again at once (the throws are used
    # together): only the grace's own event can say it was one.
    game = server.create_game(
        [{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3,
        ruleset="wikipedia-full",
    )
    page = context.new_page()
    page.goto(server.url + game["links"][0]["url"])
    page.wait_for_selector("#board .piece")
    checked = {True: 0, False: 0}
    for _ in range(600):
        if checked[True] and checked[False]:
            break
        what = play_once(page) if offer(page) != "throw" else "throw"
        assert what != "over", checked
        if what != "throw":
            continue
        # Our throw is due: the server waits for us, and the page shows the last throw.
        version = server.api("GET", f"/api/games/{game['id']}")["version"]
        start = max(0, version - 30)
        steps = server.api("GET", f"/api/games/{game['id']}/history?start={start}&limit=31")
        throws = [e for s in steps["steps"] for e in s["events"] if e["kind"] == "throw"]
        if throws:
            grace = throws[-1]["grace"]
            shown = page.get_by_test_id("throw").inner_text()
            assert "Last throw" in shown
            assert shown.endswith("a grace") == grace, (shown, throws[-1])
            checked[grace] += 1
        play_once(page)
    assert checked[True] and checked[False], checked
