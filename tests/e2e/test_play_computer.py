"""A person against the computer, in the browser: a whole game to its result, the board,
the cowries, the move list, the export, the screenshot for the README, a phone's screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import moves, offer, play_once, play_until_over, wait_for_moves
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


def _start_from_lobby(page: Any, server: Server, ruleset: str = "classic") -> None:
    page.goto(server.url + "/")
    page.get_by_test_id("ruleset").select_option(ruleset)
    for seat in (1, 2, 3):
        page.get_by_test_id(f"kind-{seat}").select_option("computer")
        page.get_by_test_id(f"player-{seat}").select_option("random")
    page.get_by_test_id("create").click()
    page.get_by_test_id("play-now").click()
    page.wait_for_url("**/game/*")


def test_a_game_against_the_computer_is_played_to_its_end(context: Any, server: Server) -> None:
    page = context.new_page()
    # Bengal rules: the shortest of the named rulesets (about 900 throws and moves).
    _start_from_lobby(page, server, "tylor-1879")
    # The seat's token has left the address bar and is kept by the page.
    assert "token=" not in page.url
    page.wait_for_selector("#board .piece")
    assert page.locator("#board .square").count() == 96
    assert page.locator("#board .square.castle").count() == 12
    assert page.locator("#board .piece").count() == 16
    for _ in range(20):
        play_once(page)
    clicks = play_until_over(page, seconds=60)
    assert clicks > 10
    result = page.get_by_test_id("result")
    assert result.is_visible()
    assert "Game over" in result.inner_text()
    # The result is said once: the heading only says the game is finished.
    assert page.get_by_test_id("turn").inner_text() == "Finished"
    assert page.get_by_test_id("throw-button").is_disabled()
    # The page's move list is the game's record, which the export link downloads.
    game_id = page.url.rstrip("/").split("/")[-1]
    record = httpx.get(f"{server.url}/api/games/{game_id}/record", timeout=10).text
    shown = moves(page)
    assert shown and all(move in record for move in shown[-5:])
    with page.expect_download() as download:
        page.locator("#export").click()
    assert download.value.suggested_filename.endswith(".pgn")
    # Every piece of the winning side is home.
    assert page.locator("#board .piece.home").count() >= 8


def test_a_game_in_progress_is_drawn_with_the_cowries(
    context: Any, server: Server, tmp_path: Path
) -> None:
    page = context.new_page()
    _start_from_lobby(page, server)
    # Play until our seat has a throw to use, then look at the cowries and the choices.
    for _ in range(200):
        if offer(page) == "act":
            break
        play_once(page)
    shells = page.locator("#throw .cowrie")
    assert shells.count() == 6
    mouths_up = page.locator("#throw .cowrie.up").count()
    assert f"({mouths_up} of 6 mouths up)" in page.get_by_test_id("throw").inner_text()
    assert page.locator("#board .piece.movable").count() >= 1
    assert page.locator("#actions button.action").count() >= 1
    # A hint ranks the choices.
    page.get_by_role("button", name="Hint").click()
    page.wait_for_selector("#hints li")
    assert "% to win" in page.locator("#hints li").first.inner_text()
    for _ in range(30):
        play_once(page)
    # (The README's picture is tests/e2e/test_screenshots.py's, of a reproducible game.)
    target = tmp_path / "screenshot.png"
    # A moment worth a picture: our man to move, chosen, its squares marked, nothing in flight.
    for _ in range(200):
        if offer(page) == "act" and page.locator("#board .piece.movable").count():
            break
        play_once(page)
    page.locator("#board .piece.movable[tabindex='0']").first.click()
    assert page.locator("#board .square.target, #board .charkoni-part.target").count() >= 1
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.screenshot(path=str(target))
    assert target.stat().st_size > 10_000


@pytest.mark.usefixtures("sqlite_only")
def test_the_page_fits_a_phone_screen(browser: Any, server: Server) -> None:
    phone = browser.new_context(
        locale="en-GB", viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    try:
        page = phone.new_page()
        _start_from_lobby(page, server)
        page.wait_for_selector("#board .piece")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360
        board = page.locator("#board").bounding_box()
        assert board is not None and 330 <= board["width"] <= 360
        what = offer(page)
        count = len(moves(page))
        if what == "throw":
            page.get_by_test_id("throw-button").tap()
        else:
            page.locator("#actions button.action").first.tap()
        wait_for_moves(page, count + 1)
    finally:
        phone.close()
