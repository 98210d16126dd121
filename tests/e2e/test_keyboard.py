"""Keyboard-only play and what a screen reader is given: T or Space throws, Tab and the
arrow keys reach the choices, Enter plays one, H asks for a hint; pieces and squares are
labelled, and throws and moves are announced."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import click_centre, moves, offer, wait_for_moves
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


def _focused(page: Any) -> str:
    described: str = page.evaluate(
        "() => `${document.activeElement.tagName}.${document.activeElement.className}`"
    )
    return described


def test_a_few_moves_by_keyboard_alone(context: Any, server: Server) -> None:
    game = server.create_game(
        [{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3, ruleset="classic"
    )
    page = context.new_page()
    page.goto(server.url + game["links"][0]["url"])
    page.wait_for_selector("#board .piece")
    throws = acts = 0
    keys = ["t", "Space"]
    while acts < 3:
        assert throws < 200
        what = offer(page)
        count = len(moves(page))
        if what == "throw":
            page.keyboard.press(keys[throws % 2])
            throws += 1
        elif what == "act":
            if acts == 0:
                # Tab through the page until a choice has the focus.
                for _ in range(30):
                    if _focused(page).startswith("BUTTON.action"):
                        break
                    page.keyboard.press("Tab")
            else:
                page.keyboard.press("ArrowDown")
            assert _focused(page).startswith("BUTTON.action")
            if acts == 1:
                page.keyboard.press("h")
                page.wait_for_selector("#hints li")
            page.keyboard.press("ArrowDown")
            page.keyboard.press("ArrowUp")
            page.keyboard.press("Enter")
            acts += 1
        else:
            pytest.fail("the game ended before three moves")
        wait_for_moves(page, count + 1)
    announced = page.get_by_test_id("announce").inner_text()
    assert announced.strip()
    assert page.locator("#log li", has_text="throws").count() >= 1


@pytest.mark.usefixtures("sqlite_only")
def test_squares_and_pieces_are_labelled(context: Any, server: Server) -> None:
    game = server.create_game([{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3)
    page = context.new_page()
    page.goto(server.url + game["links"][0]["url"])
    page.wait_for_selector("#board .piece")
    assert page.locator("#board .square[aria-label='square j8']").count() == 1
    assert page.locator("#board .square[aria-label='square j1, a castle']").count() == 1
    label = page.locator("#board .piece[data-piece='0']").get_attribute("aria-label")
    assert label.startswith("South a")
    assert page.locator("#board").get_attribute("aria-label") == "The Pachisi board"


def test_a_man_is_moved_by_clicking_it_and_its_square(context: Any, server: Server) -> None:
    game = server.create_game(
        [{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3, ruleset="classic"
    )
    page = context.new_page()
    page.goto(server.url + game["links"][0]["url"])
    page.wait_for_selector("#board .piece")
    for _ in range(300):
        what = offer(page)
        if what == "act" and page.locator("#board .piece.movable").count():
            break
        count = len(moves(page))
        if what == "throw":
            page.get_by_test_id("throw-button").click()
        else:
            page.locator("#actions button.action").last.click()  # decline: keep looking
        wait_for_moves(page, count + 1)
    count = len(moves(page))
    # A click chooses the man and lights up where it can go; a click there plays the move.
    page.locator("#board .piece.movable").first.click()
    assert page.locator("#board .piece.selected").count() >= 1
    targets = page.locator("#board .square.target, #board .charkoni-part.target")
    assert targets.count() >= 1
    click_centre(targets.first)
    wait_for_moves(page, count + 1)
    assert moves(page)[count][0] == "0"


def test_focus_follows_the_play_after_enter_d6(context: Any, server: Server) -> None:
    """D6: Enter on "Throw the cowries" or on a choice never drops the focus to <body>: it
    waits on the turn's heading and goes on to the throw button or the first choice,
    whichever is offered next (docs/web-client.md)."""
    game = server.create_game(
        [{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3, ruleset="classic"
    )
    page = context.new_page()
    page.goto(server.url + game["links"][0]["url"])
    page.wait_for_selector("#board .piece")
    assert offer(page) == "throw"
    page.get_by_test_id("throw-button").focus()
    throws = acts = 0
    while throws < 4 or acts < 2:
        assert throws + acts < 200
        what = offer(page)
        if what == "over":
            break
        count = len(moves(page))
        expected = "BUTTON.primary" if what == "throw" else "BUTTON.action"
        # The focus is already where the play is: no Tab is pressed in this test.
        page.wait_for_function(
            "(tag) => `${document.activeElement.tagName}.${document.activeElement.className}`"
            ".startsWith(tag)",
            arg=expected,
            timeout=5_000,
        )
        page.keyboard.press("Enter")
        if what == "throw":
            throws += 1
        else:
            acts += 1
        wait_for_moves(page, count + 1)
        assert not _focused(page).startswith("BODY")
    assert throws >= 1 and acts >= 1
