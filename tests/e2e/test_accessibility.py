"""axe-core reports no serious or critical violation on the pages (issue 21, item 7)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.accessibility import assert_accessible
from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server
from tests.e2e.test_replay import SHORT, _finished_game

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


def test_the_lobby_is_accessible(context: Any, server: Server) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_load_state("networkidle")
    assert_accessible(page, "the lobby")


def test_the_replay_is_accessible_at_the_end_and_at_the_start(context: Any, server: Server) -> None:
    view = _finished_game(server, SHORT)
    page = context.new_page()
    page.goto(f"{server.url}/replay/{view['id']}")
    page.wait_for_selector("#moves li")
    assert_accessible(page, "the replay at the end of a finished game")
    page.keyboard.press("Home")
    assert page.get_by_test_id("step").inner_text().startswith("Step 0 of")
    assert_accessible(page, "the replay at the start")


@pytest.mark.parametrize("ruleset", ["classic", "wikipedia-full"])
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
@pytest.mark.usefixtures("sqlite_only")
def test_the_rules_page_is_accessible(
    browser: Any, server: Server, ruleset: str, width: int, height: int
) -> None:
    made = browser.new_context(locale="en-GB", viewport={"width": width, "height": height})
    try:
        page = made.new_page()
        page.goto(f"{server.url}/rules?ruleset={ruleset}")
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator("[data-testid=switch-table] tbody tr").count() > 30
        assert_accessible(page, f"the rules page of {ruleset} at {width}x{height}")
    finally:
        made.close()
