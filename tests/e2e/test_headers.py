"""The pages work under the server's Content-Security-Policy: Chromium reports no violation
of it on the lobby, a game being played, a private game with its creator's invitation
buttons, or a replay (pachisi.web.security)."""

from __future__ import annotations

from typing import Any

import pytest

from pachisi.web.security import CONTENT_SECURITY_POLICY
from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import play_once
from tests.e2e.server import Server
from tests.e2e.test_replay import SHORT, _finished_game

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.usefixtures("sqlite_only"),
]

# Installed before any of the page's own scripts run, so that nothing is missed.
_RECORDER_JS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "(inline)"} at `
    + `${event.sourceFile}:${event.lineNumber}: ${event.sample}`);
}, true);
"""


class Recorder:
    """A page whose CSP violations are recorded: the page's events and Chromium's console."""

    def __init__(self, context: Any) -> None:
        context.add_init_script(_RECORDER_JS)
        self.page = context.new_page()
        self.console: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", self._error)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.console.append(message.text)

    def _error(self, error: Any) -> None:
        text = str(error)
        if "Content Security Policy" in text or "EvalError" in text:
            self.console.append(text)

    def goto(self, url: str) -> None:
        """Open ``url``, checking that it came with the policy (else nothing is tested)."""
        response = self.page.goto(url)
        assert response is not None and response.ok, url
        assert response.headers.get("content-security-policy") == CONTENT_SECURITY_POLICY

    def violations(self) -> list[str]:
        """What was refused so far, each once (the events are queued tasks: let them run)."""
        self.page.wait_for_timeout(300)
        events: list[str] = self.page.evaluate("() => window.__cspViolations ?? ['no recorder']")
        return sorted(set(events + self.console))


def test_the_lobby_and_a_game_keep_to_the_policy(context: Any, server: Server) -> None:
    recorder = Recorder(context)
    page = recorder.page
    recorder.goto(server.url + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    page.wait_for_selector("#seat-specs li")
    page.get_by_test_id("ruleset").select_option("classic")
    for seat in (1, 2, 3):
        page.get_by_test_id(f"kind-{seat}").select_option("computer")
        page.get_by_test_id(f"player-{seat}").select_option("random")
    page.locator("#language").select_option("de")
    page.locator("#language").select_option("en")
    page.get_by_test_id("create").click()
    page.get_by_test_id("links").locator("li").first.wait_for()
    assert recorder.violations() == []
    page.get_by_test_id("play-now").click()
    page.wait_for_url("**/game/*")
    assert page.url.startswith(server.url + "/game/")
    # The game page, with its board, seats and cowries drawn and men moving.
    page.wait_for_selector("#board .piece")
    # The seats' colours reach the board through the CSSOM, not style attributes.
    colours = page.evaluate(
        "() => [...document.querySelectorAll('#board .piece, #board .charkoni-part')]"
        ".map((node) => getComputedStyle(node).getPropertyValue('--seat').trim())"
    )
    assert len(colours) == 20 and all(colours) and len(set(colours)) == 4
    for _ in range(8):
        play_once(page)
    assert page.locator("#throw .cowrie").count() > 0
    assert recorder.violations() == []
    # The recorder does see what the policy refuses (or the test above proves nothing).
    page.evaluate("() => document.body.setAttribute('style', 'color: red')")
    assert any("style-src" in violation for violation in recorder.violations())


def test_a_private_game_and_its_invitations_keep_to_the_policy(
    context: Any, server: Server
) -> None:
    recorder = Recorder(context)
    page = recorder.page
    recorder.goto(server.url + "/")
    page.wait_for_selector("#seat-specs li")
    page.get_by_test_id("kind-1").select_option("open")
    page.get_by_test_id("private").check()
    page.get_by_test_id("create").click()
    page.get_by_test_id("renew-1").click()
    page.get_by_test_id("invite-status-1").get_by_text("new link").wait_for()
    page.get_by_test_id("play-now").click()
    page.wait_for_selector("#board .piece")
    page.get_by_test_id("renew-1").click()
    page.get_by_test_id("new-invite").wait_for()
    assert recorder.violations() == []


def test_a_game_page_opened_by_its_link_keeps_to_the_policy(context: Any, server: Server) -> None:
    recorder = Recorder(context)
    game_id = server.create_game([{"kind": "human"}] + [{"kind": "open"}] * 3)["id"]
    recorder.goto(f"{server.url}/game/{game_id}")
    recorder.page.wait_for_selector("#board .piece")
    recorder.page.wait_for_selector("#seats li")
    assert recorder.violations() == []


def test_a_replay_keeps_to_the_policy(context: Any, server: Server) -> None:
    game_id = _finished_game(server, SHORT)["id"]
    recorder = Recorder(context)
    page = recorder.page
    recorder.goto(f"{server.url}/replay/{game_id}")
    page.wait_for_selector("#moves li")
    page.keyboard.press("Home")
    for _ in range(6):
        page.get_by_test_id("forward").click()
    page.get_by_test_id("back").click()
    page.get_by_test_id("play").click()
    page.wait_for_timeout(500)
    page.get_by_test_id("play").click()
    page.keyboard.press("End")
    assert page.locator("#board .piece").count() == 16
    assert recorder.violations() == []


def test_the_rules_page_keeps_to_the_policy(context: Any, server: Server) -> None:
    recorder = Recorder(context)
    page = recorder.page
    recorder.goto(server.url + "/rules?ruleset=wikipedia-full")
    page.wait_for_selector("body[data-ready=true]")
    # Three diagrams, their seats' colours set through the CSSOM as on the game page.
    assert page.locator(".guide-diagram .piece").count() == 8
    page.get_by_test_id("guide-ruleset").select_option("ludii")
    page.locator("#language").select_option("hi")
    page.wait_for_function("() => document.documentElement.lang === 'hi'")
    assert recorder.violations() == []
