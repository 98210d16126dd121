"""Online play in the browser: two people in two browsers, a spectator, an invitation, the
lobby's list of open games (to watch), hot-seat play, and seats that only their tokens can
act for."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import (
    connection_state,
    moves,
    offer,
    play_once,
    play_pages,
    seats_held,
    wait_for_moves,
)
from tests.e2e.server import Server

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.stored,
]

HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}
RANDOM = {"kind": "computer", "player": "random"}


def test_two_browsers_play_one_game_and_a_spectator_sees_every_move(
    browser: Any, server: Server
) -> None:
    game = server.create_game([HUMAN, OPEN, RANDOM, RANDOM], ruleset="classic")
    contexts = [browser.new_context(locale="en-GB") for _ in range(3)]
    try:
        first, second, watcher = (c.new_page() for c in contexts)
        first.goto(server.url + game["links"][0]["url"])
        second.goto(server.url + game["invites"][0]["url"])  # the invite claims seat 1
        watcher.goto(server.url + game["watch_url"])
        for page in (first, second, watcher):
            page.wait_for_selector("#board .piece")
        second.wait_for_function("() => document.querySelector('#seats li[data-seat=\"1\"] .you')")
        assert seats_held(first) == ["0"]
        assert seats_held(second) == ["1"]
        assert seats_held(watcher) == []
        play_pages([first, second], acts_each=2)
        # The spectator sees the same moves, and has nothing to press.
        count = len(moves(first))
        wait_for_moves(watcher, count)
        assert moves(watcher)[:count] == moves(first)[:count]
        assert watcher.get_by_test_id("throw-button").is_disabled()
        assert watcher.locator("#actions button.action").count() == 0
        assert watcher.get_by_test_id("announce").inner_text().strip()
    finally:
        for made in contexts:
            made.close()


def test_a_friend_joins_by_the_lobbys_invitation_and_the_list_only_watches(
    browser: Any, server: Server
) -> None:
    host, friend = (browser.new_context(locale="en-GB") for _ in range(2))
    try:
        page = host.new_page()
        page.goto(server.url + "/")
        page.get_by_test_id("kind-1").select_option("open")
        for seat in (2, 3):
            page.get_by_test_id(f"player-{seat}").select_option("random")
        page.get_by_test_id("create").click()
        invite = page.get_by_test_id("invite-link-1")
        assert "/game/" in invite.inner_text() and "invite=" in invite.inner_text()
        assert page.get_by_test_id("seat-link-0").is_visible()
        game_id = invite.get_attribute("href").split("/game/")[1].split("?")[0]
        joiner = friend.new_page()
        # The public game is listed, to watch: only the invitation takes its open seat.
        joiner.goto(server.url + "/")
        entry = joiner.locator("#open-games li", has=joiner.locator(f"a[href='/game/{game_id}']"))
        entry.wait_for()
        assert "open: East" in entry.inner_text()
        assert entry.get_by_role("button").count() == 0
        joiner.goto(server.url + invite.get_attribute("href"))
        joiner.wait_for_function("() => document.querySelector('#seats li[data-seat=\"1\"] .you')")
        assert seats_held(joiner) == ["1"]
        assert "token=" not in joiner.url and "invite=" not in joiner.url
        # Taken now: the list no longer shows it as open.
        joiner.goto(server.url + "/")
        joiner.wait_for_selector("#active-games li")
        assert joiner.locator(f"#open-games a[href='/game/{game_id}']").count() == 0
    finally:
        host.close()
        friend.close()


def test_hot_seat_one_page_plays_for_every_seat_it_holds(context: Any, server: Server) -> None:
    game = server.create_game([HUMAN, HUMAN, RANDOM, RANDOM], ruleset="classic")
    assert game["hotseat_url"]
    page = context.new_page()
    page.goto(server.url + game["hotseat_url"])
    page.wait_for_selector("#board .piece")
    assert seats_held(page) == ["0", "1"]
    seen: set[str] = set()
    for _ in range(60):
        if offer(page) == "over":
            break
        seen.add(page.locator("#seats li.to-move").get_attribute("data-seat"))
        play_once(page)
        if {"0", "1"} <= seen:
            break
    assert {"0", "1"} <= seen


def test_another_seats_token_cannot_act(browser: Any, server: Server) -> None:
    game = server.create_game([HUMAN, HUMAN, RANDOM, RANDOM], ruleset="classic")
    mine, theirs = game["links"][0], game["links"][1]
    made = browser.new_context(locale="en-GB")
    try:
        page = made.new_page()
        page.goto(server.url + mine["url"])
        page.wait_for_selector("#board .piece")
        before = server.api("GET", f"/api/games/{game['id']}")
        # A hand-made command for seat 1 on this page's token for seat 0 is refused.
        answer = page.evaluate(
            """([id, token, version]) => new Promise((resolve) => {
                 const ws = new WebSocket(`ws://${location.host}/ws/games/${id}?token=${token}`);
                 ws.onopen = () => ws.send(JSON.stringify({type: "throw", seat: 1, version}));
                 ws.onmessage = (m) => {
                   const message = JSON.parse(m.data);
                   if (message.type === "error") { ws.close(); resolve(message); }
                 };
               })""",
            [game["id"], mine["token"], before["version"]],
        )
        assert answer["code"] == "forbidden"
        after = server.api("GET", f"/api/games/{game['id']}")
        assert (after["version"], after["position"]) == (before["version"], before["position"])
        # A made-up token is no seat at all: the page says so, and watches instead.
        stranger = browser.new_context(locale="en-GB")
        try:
            look = stranger.new_page()
            look.goto(f"{server.url}/game/{game['id']}?seat=1&token=not-{theirs['token']}")
            look.get_by_test_id("error").wait_for()
            assert "holds no seat" in look.get_by_test_id("error").inner_text()
            look.wait_for_function(
                "() => document.getElementById('connection').dataset.state === 'open'"
            )
            look.wait_for_selector("#seats li")
            assert seats_held(look) == []
            assert look.get_by_test_id("throw-button").is_disabled()
            assert connection_state(look) == "open"
        finally:
            stranger.close()
    finally:
        made.close()


def test_two_people_with_two_seats_each(context: Any, server: Server) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    # The lobby draws its seats once the server's offer has come: wait for it, then for the
    # redraw that the choice causes, rather than counting a list that may not be drawn yet.
    page.wait_for_selector("#seat-specs li")
    page.get_by_label("Two people, two seats each").check()
    page.wait_for_function("() => document.querySelectorAll('#seat-specs li').length === 2")
    assert page.locator("#seat-specs li").count() == 2
    assert "South + North" in page.locator("#seat-specs").inner_text()
    page.get_by_test_id("player-1").select_option("random")
    page.get_by_test_id("create").click()
    page.get_by_test_id("play-now").click()
    page.wait_for_selector("#board .piece")
    assert seats_held(page) == ["0", "2"]
    view = server.api("GET", f"/api/games/{page.url.rstrip('/').split('/')[-1]}")
    assert view["players"] == 2
    assert [s["kind"] for s in view["seats"]] == ["human", "computer", "human", "computer"]
    play_once(page)


@pytest.mark.usefixtures("sqlite_only")
def test_a_bad_ruleset_is_refused_with_the_reason(context: Any, server: Server) -> None:
    before = len(server.api("GET", "/api/games?status=open")) + len(
        server.api("GET", "/api/games?status=active")
    )
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-specs li")
    page.locator("#switches").fill("six_up_value=35")
    page.get_by_test_id("create").click()
    error = page.locator("#create-error")
    error.wait_for()
    assert "could not be made" in error.inner_text()
    assert "six_up_value" in error.inner_text()
    assert page.locator("#created").is_hidden()
    after = len(server.api("GET", "/api/games?status=open")) + len(
        server.api("GET", "/api/games?status=active")
    )
    assert after == before
