"""The pages speak English, German, Czech, Hungarian and Hindi: chosen from the browser's
languages, switched on the page, and remembered."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "pachisi" / "web" / "static" / "i18n"


def _catalogue(lang: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
    return loaded


def _pattern(template: str, **known: str) -> re.Pattern[str]:
    """A catalogue text as a pattern: the placeholders given filled in, the others any text."""
    parts = re.split(r"\{(\w+)\}", template)
    pattern = "".join(
        re.escape(part) if i % 2 == 0 else re.escape(known[part]) if part in known else ".+?"
        for i, part in enumerate(parts)
    )
    return re.compile(pattern)


def test_every_catalogue_has_every_text_and_translates_it() -> None:
    english = _catalogue("en")
    for lang in ("de", "cs", "hu", "hi"):
        other = _catalogue(lang)
        assert set(other) == set(english), lang
        translated = [k for k in english if other[k] != english[k]]
        # Language names, notation examples and piece name patterns may stay the same.
        assert len(translated) > 0.8 * len(english), lang


def test_every_key_the_pages_use_is_in_the_catalogues() -> None:
    static = CATALOGUES.parent
    text = "\n".join(
        path.read_text("utf-8") for path in [*static.glob("*.html"), *static.glob("js/*.js")]
    )
    used = set(re.findall(r'\bt(?:Or)?\("([a-z_.]+[a-z0-9_-]*)"', text))
    used |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([a-z0-9_.-]+)"', text))
    assert len(used) > 100  # the patterns still find the pages' keys
    # Keys made from a value: every value the pages can meet.
    used |= {f"seat.{seat}" for seat in range(4)}
    used |= {f"seat.kind_{kind}" for kind in ("human", "computer", "open")}
    used |= {f"language.{lang}" for lang in ("en", "de", "cs", "hu", "hi")}
    used |= {f"turn.{stage}" for stage in ("act", "pyada", "spend")}
    states = ("connecting", "open", "closed", "limited", "refused", "unknown", "origin")
    used |= {f"connection.{state}" for state in states}
    codes = ("stale", "illegal", "malformed", "forbidden", "finished", "too_large")
    codes += ("unavailable", "rate_limited", "busy", "refused")
    # The page's own: a claim or a change of an invitation refused.
    codes += ("claim", "claim_invalid", "claim_taken", "not_owner", "invite")
    used |= {f"error.{code}" for code in codes}
    for lang in ("en", "de", "cs", "hu", "hi"):
        missing = used - set(_catalogue(lang))
        assert not missing, (lang, sorted(missing))


def test_every_translation_fills_the_same_placeholders() -> None:
    english = _catalogue("en")
    for lang in ("de", "cs", "hu", "hi"):
        other = _catalogue(lang)
        for key, text in english.items():
            wanted = set(re.findall(r"\{(\w+)\}", text))
            assert set(re.findall(r"\{(\w+)\}", other[key])) == wanted, (lang, key)


@pytest.mark.parametrize(
    ("locale", "lang"), [("de-DE", "de"), ("cs-CZ", "cs"), ("hu-HU", "hu"), ("hi-IN", "hi")]
)
@pytest.mark.usefixtures("sqlite_only")
def test_the_browsers_language_is_used(
    browser: Any, server: Server, locale: str, lang: str
) -> None:
    words = _catalogue(lang)
    made = browser.new_context(locale=locale)
    try:
        page = made.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#seat-specs li")
        assert page.locator("#create-heading").inner_text() == words["lobby.create"]
        assert page.get_by_test_id("create").inner_text() == words["lobby.start"]
        assert page.locator("html").get_attribute("lang") == lang
        page.get_by_test_id("create").click()
        page.get_by_test_id("play-now").click()
        page.wait_for_selector("#board .piece")
        assert page.get_by_test_id("throw-button").inner_text() == words["throw.button"]
        assert words["seat.0"] in page.locator("#seats").inner_text()
        # What happens is told in the language too: our throw-off throw, in its words.
        page.get_by_test_id("throw-button").click()
        page.wait_for_selector("#log li", state="attached")
        told = _pattern(words["event.throw_off"], seat=words["seat.0"])
        assert any(told.fullmatch(line) for line in page.locator("#log li").all_text_contents())
    finally:
        made.close()


@pytest.mark.usefixtures("sqlite_only")
def test_the_language_switch_is_remembered(context: Any, server: Server) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-specs li")
    assert page.locator("#create-heading").inner_text() == "New game"
    page.locator("#language").select_option("hu")
    page.wait_for_function(
        "(text) => document.getElementById('create-heading').textContent === text",
        arg=_catalogue("hu")["lobby.create"],
    )
    assert _catalogue("hu")["seat.0"] in page.locator("#seat-specs").inner_text()
    page.reload()
    page.wait_for_selector("#seat-specs li")
    assert page.locator("#create-heading").inner_text() == _catalogue("hu")["lobby.create"]
