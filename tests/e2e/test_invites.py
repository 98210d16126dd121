"""Invitations and private games in the browser: a private game made in the lobby, its open
seat taken by its invitation link and played, its watch link the only way for anyone else to
see it; the creator renewing and revoking invitations, from the lobby and from the game page;
and a lobby that offers only what its server allows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import connection_state, moves, play_pages, seats_held, wait_for_moves
from tests.e2e.server import Server

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.stored,
]

YOU_JS = '(seat) => document.querySelector(`#seats li[data-seat="${seat}"] .you`)'
STATE_JS = "(state) => document.getElementById('connection').dataset.state === state"


def _contexts(browser: Any, count: int) -> list[Any]:
    return [browser.new_context(locale="en-GB") for _ in range(count)]


def _game_id(link: str) -> str:
    return link.split("/game/")[1].split("?")[0]


def _create_in_lobby(page: Any, server: Server, kinds: list[str], private: bool) -> None:
    """Make a game in the lobby: seat 0 the creator's, the others ``kinds`` (open or a
    random computer)."""
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-specs li")
    for seat, kind in enumerate(kinds, start=1):
        page.get_by_test_id(f"kind-{seat}").select_option(kind)
        if kind == "computer":
            page.get_by_test_id(f"player-{seat}").select_option("random")
    if private:
        page.get_by_test_id("private").check()
    page.get_by_test_id("create").click()
    page.get_by_test_id("watch-link").wait_for()


def _claim_refused(page: Any, link: str) -> str:
    """Open an invitation link that no longer works: the page's message (it holds nothing)."""
    page.goto(link)
    error = page.get_by_test_id("error")
    error.wait_for()
    return str(error.inner_text())


def test_a_private_game_is_played_by_invitation_and_seen_only_by_its_links(
    browser: Any, server: Server
) -> None:
    creator, friend, stranger = _contexts(browser, 3)
    try:
        host = creator.new_page()
        _create_in_lobby(host, server, ["open", "computer", "computer"], private=True)
        invite = host.get_by_test_id("invite-link-1").get_attribute("href")
        watch = host.get_by_test_id("watch-link").get_attribute("href")
        game_id = _game_id(invite)
        assert "invite=" in invite and "watch=" in watch
        # The creator keeps its own token in storage, never in a cookie.
        assert host.evaluate(f"() => localStorage.getItem('pachisi_{game_id}_owner')")
        assert not any("owner" in cookie["name"] for cookie in creator.cookies())
        host.get_by_test_id("play-now").click()
        host.wait_for_selector("#board .piece")
        # The friend's invitation takes seat 1; the secret leaves the address bar.
        guest = friend.new_page()
        guest.goto(server.url + invite)
        guest.wait_for_function(YOU_JS, arg="1")
        assert seats_held(guest) == ["1"]
        assert "invite=" not in guest.url and "seat=" not in guest.url
        host.wait_for_function("() => !document.querySelector('[data-testid=renew-1]')")
        play_pages([host, guest], acts_each=1)
        count = len(moves(host))
        # Without the watch link the game does not exist for a stranger, page or API.
        look = stranger.new_page()
        look.goto(f"{server.url}/game/{game_id}")
        look.wait_for_function(STATE_JS, arg="unknown")
        assert "no such game" in look.get_by_test_id("turn").inner_text()
        assert look.locator("#board .piece").count() == 0
        assert httpx.get(f"{server.url}/api/games/{game_id}", timeout=10).status_code == 404
        # With it, the stranger watches (the token kept, and gone from the address bar).
        look.goto(server.url + watch)
        wait_for_moves(look, count)
        assert moves(look)[:count] == moves(host)[:count]
        assert seats_held(look) == []
        assert "watch=" not in look.url
        assert look.get_by_test_id("throw-button").is_disabled()
        look.goto(f"{server.url}/game/{game_id}")
        look.wait_for_selector("#board .piece")
        assert connection_state(look) == "open"
        assert "watch=" in look.locator("#export").get_attribute("href")
        # Its replay too, for the watcher (the kept watch token) and the guest (the seat's).
        for page in (look, guest):
            page.goto(f"{server.url}/replay/{game_id}")
            wait_for_moves(page, count)
            assert page.locator("#error").is_hidden()
        assert "token=" in guest.locator("#export").get_attribute("href")
        # The lobby lists it nowhere.
        look.goto(server.url + "/")
        look.wait_for_selector("#active-games li")
        assert look.locator(f"a[href*='{game_id}']").count() == 0
        listed = [
            game["id"]
            for status in ("open", "active")
            for game in server.api("GET", f"/api/games?status={status}")
        ]
        assert game_id not in listed
    finally:
        for made in (creator, friend, stranger):
            made.close()


def test_the_creator_renews_and_revokes_invitations(browser: Any, server: Server) -> None:
    creator, friend, other = _contexts(browser, 3)
    creator.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    try:
        host = creator.new_page()
        _create_in_lobby(host, server, ["open", "open", "open"], private=False)
        old = host.get_by_test_id("invite-link-1").get_attribute("href")
        west = host.get_by_test_id("invite-link-3").get_attribute("href")
        # A new link in the lobby: the old one stops working, with a message that says so.
        host.get_by_test_id("renew-1").click()
        host.wait_for_function(
            "(old) => document.querySelector('[data-testid=invite-link-1]').getAttribute('href')"
            " !== old",
            arg=old,
        )
        assert "new link" in host.get_by_test_id("invite-status-1").inner_text().lower()
        new = host.get_by_test_id("invite-link-1").get_attribute("href")
        guest = friend.new_page()
        message = _claim_refused(guest, server.url + old)
        assert "invitation link does not work" in message
        assert seats_held(guest) == []
        guest.goto(server.url + new)
        guest.wait_for_function(YOU_JS, arg="1")
        # Revoked in the lobby: the link is gone, and opening it says why.
        revoked = host.get_by_test_id("invite-link-2").get_attribute("href")
        host.get_by_test_id("revoke-2").click()
        host.get_by_text("Revoked: the link for North no longer works.").wait_for()
        assert host.get_by_test_id("invite-link-2").is_hidden()
        third = other.new_page()
        assert "invitation link does not work" in _claim_refused(third, server.url + revoked)
        # On the game page, the creator copies a new invitation for North: it works.
        host.get_by_test_id("play-now").click()
        host.get_by_test_id("renew-2").click()
        link = host.get_by_test_id("invite-link-2")
        link.wait_for()
        assert host.evaluate("() => navigator.clipboard.readText()") == link.inner_text()
        assert "invite=" in link.inner_text()
        third.goto(link.inner_text())
        third.wait_for_function(YOU_JS, arg="2")
        host.wait_for_function("() => !document.querySelector('[data-testid=renew-2]')")
        # And revokes West's: its link from the lobby no longer takes the seat.
        host.get_by_test_id("revoke-3").click()
        said = host.get_by_test_id("new-invite")
        said.get_by_text("The invitation for West is revoked").wait_for()
        assert "invitation link does not work" in _claim_refused(guest, server.url + west)
        view = server.api("GET", f"/api/games/{_game_id(new)}")
        assert [seat["kind"] for seat in view["seats"]] == ["human", "human", "human", "open"]
        # Someone else's page (no creator's token) has no such buttons.
        assert guest.locator("[data-testid^=renew-], [data-testid^=revoke-]").count() == 0
    finally:
        for made in (creator, friend, other):
            made.close()


@pytest.fixture()
def strict_server(tmp_path: Path) -> Iterator[Server]:
    """A server with a public server's defaults: levels only, no game of computers alone."""
    database = f"sqlite:///{tmp_path / 'strict.db'}"
    running = Server(database, tmp_path / "server.log", permissive=False)
    running.start()
    yield running
    running.stop()


@pytest.mark.usefixtures("sqlite_only")
def test_the_lobby_offers_only_what_the_server_allows(context: Any, strict_server: Server) -> None:
    meta = strict_server.api("GET", "/api/meta")
    assert meta["computer_games"] is False
    page = context.new_page()
    page.goto(strict_server.url + "/")
    page.wait_for_selector("#seat-specs li")
    offered = (
        page.get_by_test_id("player-1")
        .locator("option")
        .evaluate_all("(options) => options.map((o) => o.value)")
    )
    assert offered == meta["players"] == ["easy", "medium", "hard", "expert"]
    note = page.get_by_test_id("seats-note")
    assert note.is_hidden()
    page.get_by_test_id("kind-0").select_option("computer")
    note.wait_for()
    assert "no game of computers alone" in note.inner_text()
    page.get_by_test_id("create").click()
    page.wait_for_timeout(300)
    assert page.locator("#created").is_hidden()
    assert strict_server.api("GET", "/api/games?status=active") == []
    # A person in a seat again: the note goes.
    page.get_by_test_id("kind-0").select_option("human")
    assert note.is_hidden()
