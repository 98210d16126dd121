"""The Hindi page renders with the Devanagari font the server ships (D9: a machine with no
Devanagari font showed boxes). Every page names Hindi in its own script in the language
menu, so the font may load on any page; the Hindi page must render with it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.usefixtures("sqlite_only"),
]

_LOADED_JS = """async () => {
  await document.fonts.ready;
  return [...document.fonts].filter((f) => f.family.includes('Pachisi Devanagari'))
    .map((f) => f.status);
}"""


def _font_requests(page: Any) -> list[str]:
    names: list[str] = page.evaluate(
        "() => performance.getEntriesByType('resource').map((e) => e.name)"
        ".filter((n) => n.endsWith('.woff2'))"
    )
    return names


def test_the_hindi_page_loads_the_shipped_devanagari_font(context: Any, server: Server) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.locator("#language").select_option("hi")
    page.wait_for_function("() => document.documentElement.lang === 'hi'")
    assert "loaded" in page.evaluate(_LOADED_JS)
    assert page.evaluate("() => document.fonts.check('16px \"Pachisi Devanagari\"', 'पचीसी')")
    assert any("/static/fonts/" in name for name in _font_requests(page))
