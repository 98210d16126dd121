"""Only real decisions cost a click: the game page's options (remembered per browser), its
auto-play of choices that are none, auto-throw, and the computers shown at a pace."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.decisions import play_decisions
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

FAST_WAITING_SECONDS = 90
"""The most a person may wait for the computers over a whole game at the pace "fast"."""


@pytest.fixture()
def own_options(browser: Any) -> Iterator[Any]:
    """A fresh browser profile with the game page's own default options."""
    made = browser.new_context(
        locale="en-GB", viewport={"width": 1100, "height": 900}, game_options=None
    )
    yield made
    made.close()


def _lobby_game(page: Any, server: Server, ruleset: str | None = None, player: str = "") -> None:
    """A game made in the lobby with its defaults (one person, three computers), or with
    the ruleset and computer player given."""
    page.goto(server.url + "/")
    if ruleset:
        page.get_by_test_id("ruleset").select_option(ruleset)
    for seat in (1, 2, 3):
        assert page.get_by_test_id(f"kind-{seat}").input_value() == "computer"
        if player:
            page.get_by_test_id(f"player-{seat}").select_option(player)
    page.get_by_test_id("create").click()
    page.get_by_test_id("play-now").click()
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#board .piece")


def _kept(page: Any) -> Any:
    return json.loads(page.evaluate("() => localStorage.getItem('pachisi_options') || 'null'"))


@pytest.mark.usefixtures("sqlite_only")
def test_the_options_are_kept_by_the_browser(own_options: Any, server: Server) -> None:
    page = own_options.new_page()
    _lobby_game(page, server, player="random")
    options = page.get_by_test_id("options")
    assert options.get_attribute("open") is None  # collapsed: the board and choices come first
    page.locator("#options summary").click()
    assert not page.get_by_test_id("option-auto-throw").is_checked()
    assert page.get_by_test_id("option-auto-single").is_checked()
    assert page.get_by_test_id("option-auto-same").is_checked()
    assert page.get_by_test_id("option-pace").input_value() == "fast"
    assert _kept(page) is None  # nothing chosen, nothing kept
    page.get_by_test_id("option-auto-single").uncheck()
    page.get_by_test_id("option-pace").select_option("normal")
    assert _kept(page) == {
        "autoThrow": False,
        "autoSingle": False,
        "autoSame": True,
        "pace": "normal",
    }
    page.reload()
    page.wait_for_selector("#board .piece")
    assert not page.get_by_test_id("option-auto-single").is_checked()
    assert page.get_by_test_id("option-pace").input_value() == "normal"
    # A malformed entry counts as none: the defaults again, and the page works.
    page.evaluate("() => localStorage.setItem('pachisi_options', '{\"pace\": \"warp\", ')")
    page.reload()
    page.wait_for_selector("#board .piece")
    assert page.get_by_test_id("option-pace").input_value() == "fast"
    assert page.get_by_test_id("option-auto-single").is_checked()


def test_with_the_defaults_only_throws_and_real_choices_are_clicked(
    own_options: Any, server: Server
) -> None:
    # Turns of the game of the full test below, until the page has played a few choices
    # that are none itself: the ruleset with the most of them (a man alone to move, or only
    # a pass), and random computers, so that they come soon.
    page = own_options.new_page()
    _lobby_game(page, server, ruleset="wikipedia-full", player="random")
    clicks = throws = choices = auto = games = 0
    game_clicks = game_auto = 0  # in the game on the page
    while auto < 2:
        assert clicks < 400, "no choice that is none in 400 clicks"
        played = play_decisions(page, seconds=60, max_clicks=20)
        clicks, throws = clicks + played.clicks, throws + played.throws
        choices, auto = choices + played.choices, auto + played.auto
        game_clicks, game_auto = game_clicks + played.clicks, game_auto + played.auto
        if played.over and auto < 2:
            # The throws are the server's own (not seeded): a game can end before the page
            # met two choices that are none. The count goes on in a new game.
            assert played.moves > game_clicks + game_auto
            games += 1
            assert games < 3, "three games ended with fewer than two choices that are none"
            _lobby_game(page, server, ruleset="wikipedia-full", player="random")
            game_clicks = game_auto = 0
    assert auto >= 2
    assert clicks == throws + choices and throws and choices
    assert played.moves > game_clicks + game_auto  # the computers' moves came in too


def test_auto_throw_throws_for_the_player(browser: Any, server: Server) -> None:
    options = {"autoThrow": True, "autoSingle": True, "autoSame": True, "pace": "instant"}
    made = browser.new_context(locale="en-GB", game_options=options)
    try:
        page = made.new_page()
        _lobby_game(page, server, player="random")
        played = play_decisions(page, seconds=30, max_clicks=5, click_throws=False)
        # Every click was a real choice: the page threw every throw itself.
        assert played.clicks == played.choices == 5 and played.throws == 0, played
    finally:
        made.close()


@pytest.mark.slow
@pytest.mark.usefixtures("sqlite_only")
def test_a_whole_game_costs_only_its_decisions(own_options: Any, server: Server) -> None:
    # The lobby's defaults: one person against three `medium` computers, the classic rules.
    page = own_options.new_page()
    _lobby_game(page, server)
    played = play_decisions(page, seconds=900)
    print(f"\n{played}")
    assert played.over
    assert played.clicks == played.throws + played.choices
    assert played.auto > 0
    assert played.waiting_seconds <= FAST_WAITING_SECONDS, played


@pytest.mark.usefixtures("sqlite_only")
def test_a_spectators_page_never_plays(browser: Any, context: Any, server: Server) -> None:
    game = server.create_game(
        [{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3, ruleset="classic"
    )
    player = context.new_page()
    player.goto(server.url + game["links"][0]["url"])
    player.wait_for_selector("#board .piece")
    options = {"autoThrow": True, "autoSingle": True, "autoSame": True, "pace": "instant"}
    made = browser.new_context(locale="en-GB", game_options=options)
    try:
        watcher = made.new_page()
        watcher.goto(f"{server.url}/game/{game['id']}")
        watcher.wait_for_selector("#board .piece")
        # The game waits for the person's throw (the throw-off's first): the spectator's
        # page, told to throw for its player, has no player to throw for.
        player.wait_for_function("() => !document.getElementById('throw-button').disabled")
        version = server.api("GET", f"/api/games/{game['id']}")["version"]
        watcher.wait_for_timeout(1500)
        assert server.api("GET", f"/api/games/{game['id']}")["version"] == version
        assert watcher.get_by_test_id("throw-button").is_disabled()
        # Nothing was tried either: the server would have refused it, and the page said so.
        assert watcher.get_by_test_id("error").is_hidden()
    finally:
        made.close()
