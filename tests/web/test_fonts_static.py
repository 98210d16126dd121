"""The shipped Devanagari web font: served as woff2, allowed by the page's CSP, licensed."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

FONTS = Path(__file__).parents[2] / "src" / "pachisi" / "web" / "static" / "fonts"


def test_font_is_served_as_woff2_and_allowed_by_csp(client: TestClient) -> None:
    for weight in (400, 700):
        response = client.get(
            f"/static/fonts/noto-sans-devanagari-devanagari-{weight}-normal.woff2"
        )
        assert response.status_code == 200
        assert response.headers["content-type"] == "font/woff2"
        assert response.content[:4] == b"wOF2"
    page = client.get("/")
    assert "font-src 'self'" in page.headers["content-security-policy"]


def test_font_ships_with_its_license() -> None:
    assert "SIL Open Font License" in (FONTS / "OFL.txt").read_text(encoding="utf-8")
