"""Nothing is lost: a closed tab reopened resumes its seat, and a server stopped and
started again in the middle of a game brings every page back to where the game was."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import connection_state, moves, offer, play_once, wait_for_moves
from tests.e2e.server import Server

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.stored,
]

PEOPLE_AND_COMPUTERS = [{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3


def _wait_for_state(page: Any, state: str, timeout_ms: float = 30_000) -> None:
    page.wait_for_function(
        f"() => document.getElementById('connection').dataset.state === '{state}'",
        timeout=timeout_ms,
    )


def test_a_closed_tab_reopened_resumes_its_seat(context: Any, server: Server) -> None:
    game = server.create_game(PEOPLE_AND_COMPUTERS, ruleset="classic")
    page = context.new_page()
    page.goto(server.url + game["links"][0]["url"])
    for _ in range(4):
        play_once(page)
    before = moves(page)
    page.close()
    # The link without its token: the page finds the seat's token in this browser.
    again = context.new_page()
    again.goto(f"{server.url}/game/{game['id']}")
    wait_for_moves(again, len(before))
    assert moves(again)[: len(before)] == before
    assert again.locator("#seats li[data-seat='0'] .you").count() == 1
    assert offer(again) in ("throw", "act")
    play_once(again)
    assert len(moves(again)) > len(before)


def test_a_server_restart_in_the_middle_of_a_game_loses_nothing(
    context: Any, own_server: Server
) -> None:
    game = own_server.create_game(PEOPLE_AND_COMPUTERS, ruleset="classic")
    page = context.new_page()
    page.goto(own_server.url + game["links"][0]["url"])
    for _ in range(6):
        play_once(page)
    before = moves(page)
    what = offer(page)
    own_server.stop()
    _wait_for_state(page, "closed")
    assert page.get_by_test_id("throw-button").is_disabled()
    own_server.start()
    # The page reconnects by itself (with back-off) and resyncs to the stored game.
    _wait_for_state(page, "open")
    wait_for_moves(page, len(before))
    assert moves(page)[: len(before)] == before
    assert offer(page) == what
    play_once(page)
    view = own_server.api("GET", f"/api/games/{game['id']}")
    assert view["moves"][: len(before)] == before
    assert view["version"] > len(before)
    assert connection_state(page) == "open"
