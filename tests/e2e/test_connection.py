"""The page's WebSocket client (static/js/connection.js) in the browser, against a stand-in
socket: versions in order, a gap or a stale error answered with a resync, reconnecting with
growing back-off, no retry once the server has refused the seat, the game or the page's
origin, and the server's pauses kept (too many messages, too many connections)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.usefixtures("sqlite_only"),
]

# A stand-in WebSocket that records what is sent and lets the test deliver messages, and a
# GameConnection over it whose handlers record what the page would be told.
_HARNESS = """async () => {
  class FakeSocket {
    static OPEN = 1;
    constructor(url) {
      this.url = url; this.readyState = 1; this.sent = []; this.listeners = {};
      window.sockets.push(this); window.opened.push(performance.now());
      setTimeout(() => this.fire("open", {}), 0);
    }
    addEventListener(kind, fn) { (this.listeners[kind] ||= []).push(fn); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.fire("close", { code: 1000 }); }
    fire(kind, event) { for (const fn of this.listeners[kind] || []) fn(event); }
    deliver(message) { this.fire("message", { data: JSON.stringify(message) }); }
  }
  window.sockets = []; window.opened = []; window.told = [];
  window.WebSocket = FakeSocket;
  const { GameConnection } = await import("/static/js/connection.js");
  const tell = (kind) => (x, y) =>
    window.told.push([kind, x && x.version !== undefined ? x.version : x, y]);
  window.connection = new GameConnection("g1", ["tok-a", "tok-b"], {
    onGame: tell("game"), onError: tell("error"), onHint: tell("hint"), onStatus: tell("status"),
  });
  window.connection.open();
  await new Promise((resolve) => setTimeout(resolve, 10));
}"""


@pytest.fixture()
def harness(context: Any, server: Server) -> Any:
    page = context.new_page()
    page.goto(server.url + "/static/index.html")
    page.evaluate(_HARNESS)
    return page


def _deliver(page: Any, message: dict[str, Any]) -> None:
    page.evaluate("(m) => window.sockets[window.sockets.length - 1].deliver(m)", message)


def _sent(page: Any) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = page.evaluate("() => window.sockets.at(-1).sent")
    return sent


def _told(page: Any) -> list[list[Any]]:
    told: list[list[Any]] = page.evaluate("() => window.told")
    return told


def test_every_token_is_in_the_address(harness: Any) -> None:
    url = harness.evaluate("() => window.sockets[0].url")
    assert url.endswith("/ws/games/g1?token=tok-a&token=tok-b")
    assert ["status", "open", None] in _told(harness)


def test_updates_in_order_are_applied_and_a_gap_asks_for_a_resync(harness: Any) -> None:
    _deliver(harness, {"type": "snapshot", "version": 5, "game": {"version": 5}})
    _deliver(harness, {"type": "update", "version": 6, "events": [], "game": {"version": 6}})
    assert [t[1] for t in _told(harness) if t[0] == "game"] == [5, 6]
    assert _sent(harness) == []
    # Version 8 after 6: the update for 7 was missed; 8 is not applied, a resync is asked for.
    _deliver(harness, {"type": "update", "version": 8, "events": [], "game": {"version": 8}})
    assert [t[1] for t in _told(harness) if t[0] == "game"] == [5, 6]
    assert _sent(harness) == [{"type": "resync"}]
    _deliver(harness, {"type": "snapshot", "version": 8, "game": {"version": 8}})
    assert [t[1] for t in _told(harness) if t[0] == "game"] == [5, 6, 8]
    # Commands carry the last version seen.
    harness.evaluate("() => window.connection.act(2, '2a+4')")
    harness.evaluate("() => window.connection.throwFor(3)")
    assert _sent(harness)[1:] == [
        {"type": "act", "seat": 2, "version": 8, "action": "2a+4"},
        {"type": "throw", "seat": 3, "version": 8},
    ]


def test_a_stale_error_resyncs_and_is_reported(harness: Any) -> None:
    _deliver(harness, {"type": "snapshot", "version": 3, "game": {"version": 3}})
    _deliver(harness, {"type": "error", "code": "stale", "message": "old", "version": 4})
    assert _sent(harness) == [{"type": "resync"}]
    assert any(t[0] == "error" and t[1] == 4 for t in _told(harness))
    _deliver(harness, {"type": "error", "code": "illegal", "message": "no", "version": 4})
    assert _sent(harness) == [{"type": "resync"}]


def test_a_dropped_socket_reconnects_with_growing_back_off(harness: Any) -> None:
    for _ in range(3):
        count = harness.evaluate("() => window.sockets.length")
        harness.evaluate("() => window.sockets.at(-1).fire('close', { code: 1006 })")
        harness.wait_for_function(f"() => window.sockets.length > {count}", timeout=10_000)
    opened = harness.evaluate("() => window.opened")
    gaps = [b - a for a, b in itertools.pairwise(opened)]
    # 0.25 s, 0.5 s, 1 s, each within the jitter of 75% to 125%.
    # Not sooner than the jitter allows; later only as much as a busy machine makes it.
    for gap, delay in zip(gaps, (250, 500, 1000), strict=True):
        assert 0.7 * delay <= gap <= 1.25 * delay + 400, gaps
    assert gaps[0] < gaps[2], gaps
    assert ["status", "closed", None] in _told(harness)


@pytest.mark.parametrize(
    ("code", "state"), [(4403, "refused"), (4404, "unknown"), (4401, "origin")]
)
def test_a_refused_seat_or_unknown_game_is_not_retried(harness: Any, code: int, state: str) -> None:
    harness.evaluate(f"() => window.sockets.at(-1).fire('close', {{ code: {code} }})")
    harness.wait_for_timeout(700)
    assert harness.evaluate("() => window.sockets.length") == 1
    assert _told(harness)[-1] == ["status", state, None]


def test_a_watch_token_is_in_the_address(harness: Any) -> None:
    url = harness.evaluate(
        """async () => {
             const { GameConnection } = await import("/static/js/connection.js");
             const watching = new GameConnection("g2", [], { onStatus() {} }, "w-1");
             return watching.url();
           }"""
    )
    assert url.endswith("/ws/games/g2?watch=w-1")


def test_rate_limited_holds_commands_and_resyncs_after_the_pause(harness: Any) -> None:
    _deliver(harness, {"type": "snapshot", "version": 3, "game": {"version": 3}})
    limited = {"type": "error", "code": "rate_limited", "message": "slow", "version": 3}
    _deliver(harness, {**limited, "retry_after": 0.6})
    assert any(t[0] == "error" and t[1] == 3 for t in _told(harness))
    # Nothing goes out during the pause: not a person's command, not a resync.
    assert harness.evaluate("() => window.connection.paused()")
    assert harness.evaluate("() => window.connection.throwFor(0)") is False
    _deliver(harness, {"type": "update", "version": 5, "events": [], "game": {"version": 5}})
    assert _sent(harness) == []
    # After it the resync that was put off goes out, and commands again.
    harness.wait_for_function("() => !window.connection.paused()", timeout=5_000)
    harness.wait_for_function("() => window.sockets.at(-1).sent.length === 1", timeout=5_000)
    assert _sent(harness) == [{"type": "resync"}]
    assert harness.evaluate("() => window.connection.throwFor(0)") is True


def test_too_many_connections_reconnects_after_the_servers_pause(harness: Any) -> None:
    limited = {"type": "error", "code": "rate_limited", "message": "many", "version": 0}
    _deliver(harness, {**limited, "retry_after": 1})
    harness.evaluate("() => window.sockets.at(-1).fire('close', { code: 4429 })")
    assert _told(harness)[-1] == ["status", "limited", None]
    # Not sooner, even when the page is looked at again.
    harness.evaluate("() => window.connection.retryNow()")
    harness.wait_for_timeout(700)
    assert harness.evaluate("() => window.sockets.length") == 1
    harness.wait_for_function("() => window.sockets.length === 2", timeout=5_000)
    opened = harness.evaluate("() => window.opened")
    assert opened[1] - opened[0] >= 950, opened


def test_the_game_page_waits_out_a_pause_and_says_why(context: Any, server: Server) -> None:
    game = server.create_game([{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3)
    routes: list[Any] = []

    def through(route: Any) -> None:
        route.connect_to_server()
        routes.append(route)

    page = context.new_page()
    page.route_web_socket("**/ws/games/**", through)
    page.goto(server.url + game["links"][0]["url"])
    throw = page.get_by_test_id("throw-button")
    page.wait_for_function("() => !document.getElementById('throw-button').disabled")
    limited = {"type": "error", "code": "rate_limited", "message": "slow down", "version": 0}
    routes[-1].send(json.dumps({**limited, "retry_after": 1}))
    error = page.get_by_test_id("error")
    error.wait_for()
    assert "the server asks for a pause of 1 s" in error.inner_text()
    assert throw.is_disabled()
    page.wait_for_function("() => !document.getElementById('throw-button').disabled")
    assert error.is_hidden()
    busy = {"type": "error", "code": "busy", "message": "no hint now", "version": 0}
    routes[-1].send(json.dumps(busy))
    error.wait_for()
    assert "the server is busy" in error.inner_text()
