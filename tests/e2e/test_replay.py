"""The replay viewer steps forward and back through a finished game, from the positions the
server sends."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


def _finished_game(server: Server) -> Any:
    game = server.create_game([{"kind": "computer", "player": "random"}] * 4, ruleset="classic")
    deadline = time.monotonic() + 60
    while True:
        view = server.api("GET", f"/api/games/{game['id']}")
        if view["result"]:
            return view
        assert time.monotonic() < deadline, "the computers' game did not end"
        time.sleep(0.2)


def test_the_replay_steps_through_a_finished_game(context: Any, server: Server) -> None:
    view = _finished_game(server)
    page = context.new_page()
    page.goto(f"{server.url}/replay/{view['id']}")
    page.wait_for_selector("#moves li")
    steps = view["version"]
    assert page.locator("#moves li").count() == steps
    # It opens at the end, with the result.
    assert page.get_by_test_id("step").inner_text().startswith(f"Step {steps} of {steps}")
    assert "Game over" in page.get_by_test_id("result").inner_text()
    assert page.get_by_test_id("forward").is_disabled()
    page.keyboard.press("Home")
    assert page.get_by_test_id("step").inner_text().startswith(f"Step 0 of {steps}")
    assert page.locator("#board .piece.waiting").count() == 16
    for _ in range(3):
        page.get_by_test_id("forward").click()
    assert page.get_by_test_id("step").inner_text().startswith(f"Step 3 of {steps}")
    page.keyboard.press("ArrowLeft")
    assert page.get_by_test_id("step").inner_text().startswith(f"Step 2 of {steps}")
    assert page.locator("#moves li.current").inner_text() == view["moves"][1]
    page.keyboard.press("End")
    assert page.locator("#board .piece.home").count() >= 8
