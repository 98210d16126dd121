"""The replay viewer steps forward and back through a finished game, from the positions the
server sends."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


COMPUTERS = [{"kind": "computer", "player": "random"}] * 4


def _finished(server: Server, game_ids: list[str]) -> list[Any]:
    """The views of the computers' games, once every one of them is over."""
    deadline = time.monotonic() + 60
    views = []
    for game_id in game_ids:
        while True:
            view = server.api("GET", f"/api/games/{game_id}")
            if view["result"]:
                views.append(view)
                break
            assert time.monotonic() < deadline, "the computers' games did not end"
            time.sleep(0.2)
    return views


SHORT = "herklots-7"
"""The historical ruleset with the shortest games (454 throws on average against classic's
756: ``pachisi rules herklots-7 --effects``), for the tests of a finished game's pages
whose checks take time in proportion to its moves (axe, a review)."""


def _finished_game(server: Server, ruleset: str = "classic") -> Any:
    return _finished(server, [server.create_game(COMPUTERS, ruleset=ruleset)["id"]])[0]


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
    page.get_by_test_id("forward").click()
    # Step 1 is the first throw-off throw: its cowries are drawn.
    assert page.locator("#throw .cowrie").count() == 6
    assert view["moves"][0] == f"t{page.locator('#throw .cowrie.up').count()}"
    for _ in range(2):
        page.get_by_test_id("forward").click()
    assert page.get_by_test_id("step").inner_text().startswith(f"Step 3 of {steps}")
    page.keyboard.press("ArrowLeft")
    assert page.get_by_test_id("step").inner_text().startswith(f"Step 2 of {steps}")
    assert page.locator("#moves li.current").inner_text() == view["moves"][1]
    page.keyboard.press("End")
    assert page.locator("#board .piece.home").count() >= 8
    # Stepping onto a move of several squares sets its man hopping along the route.
    long_move = next(
        i for i, move in enumerate(view["moves"]) if "+" in move and int(move.split("+")[1]) >= 4
    )
    page.get_by_test_id("slider").fill(str(long_move))
    # Pressed and counted in one go, so that a busy machine cannot let the hop end between.
    hops = page.evaluate(
        "() => { document.getElementById('forward').click();"
        " return document.getAnimations().length; }"
    )
    assert hops >= 1


@pytest.mark.usefixtures("sqlite_only")
def test_a_drawn_game_says_so_with_its_reason(context: Any, server: Server) -> None:
    # A third of random games under kill-before-home end in a draw (R-DEADLOCK): play a few.
    drawn = None
    for _ in range(4):
        games = [server.create_game(COMPUTERS, ruleset="wikipedia-full") for _ in range(4)]
        views = _finished(server, [game["id"] for game in games])
        drawn = next((view for view in views if view["result"]["draw"]), None)
        if drawn is not None:
            break
    assert drawn is not None, "sixteen random games and no draw"
    page = context.new_page()
    page.goto(f"{server.url}/game/{drawn['id']}")
    result = page.get_by_test_id("result")
    result.wait_for()
    assert "a draw" in result.inner_text()
    assert "No side can win any more" in result.inner_text()
    assert page.locator("#replay").is_visible()
    page.locator("#replay").click()
    page.wait_for_url(f"**/replay/{drawn['id']}")
    page.wait_for_selector("#moves li")
    assert "a draw" in page.get_by_test_id("result").inner_text()


@pytest.mark.usefixtures("sqlite_only")
def test_the_replay_says_a_throw_was_a_grace(context: Any, server: Server) -> None:
    # Under the Wikipedia rules a grace is thrown again at once (the throws are used
    # together): only the grace's own event can say it was one.
    view = _finished(server, [server.create_game(COMPUTERS, ruleset="wikipedia-full")["id"]])[0]
    history = server.api("GET", f"/api/games/{view['id']}/history?limit=200")
    steps = history["steps"]
    # A step that threw a grace and so throws again: no throw is in use, and the grace
    # is known only from the throw's event.
    graces = [
        step["version"]
        for step in steps
        if step["turn"]["throw"] is None
        and any(e["kind"] == "throw" and e["grace"] for e in step["events"])
    ]
    plain = [
        step["version"]
        for step in steps
        if step["turn"]["throw"] is None
        and any(e["kind"] == "throw" and not e["grace"] for e in step["events"])
    ]
    assert graces and plain
    page = context.new_page()
    page.goto(f"{server.url}/replay/{view['id']}")
    page.wait_for_selector("#moves li")
    page.get_by_test_id("slider").fill(str(graces[0]))
    assert page.locator("#throw").inner_text().endswith("a grace")
    page.get_by_test_id("slider").fill(str(plain[0]))
    assert "Last throw" in page.locator("#throw").inner_text()
    assert "grace" not in page.locator("#throw").inner_text()
