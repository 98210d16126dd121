"""The game page's look, compared with stored screenshots at 1280x800 and at 390x844.

The game is made reproducible: a server of its own whose throws and computer seeds come from a
seeded generator (``create_app(rng=...)``), one game, our seat playing the first choice the
page lists. So the same position, with the same man selected and its destinations lit, comes
back on every run, and its picture is compared with the one stored in
``tests/e2e/screenshots/`` within a tolerance (antialiasing and font hinting differ a little
between machines; a changed layout, colour or missing piece does not pass).

``PACHISI_UPDATE_SCREENSHOT=1`` stores new pictures instead (after a deliberate change of the
look), and renews the README's ``docs/screenshot.png`` from the desktop one.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import moves, offer, wait_for_moves
from tests.e2e.server import Server

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.usefixtures("sqlite_only"),
]
Image = pytest.importorskip("PIL.Image")
ImageChops = pytest.importorskip("PIL.ImageChops")

STORED = Path(__file__).resolve().parent / "screenshots"
README_SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshot.png"
SEED = 2112
"""The seed of the server's throws: a game where our man has a choice early on."""
OUR_MOVES = 3
"""How many of our choices are played before the picture (the position it shows)."""
CHANNEL_SLACK = 48
"""A pixel differs when one of its channels is off by more than this (of 255)."""
MAX_DIFFERING = 0.01
"""The share of differing pixels a picture may have and still match the stored one."""

_LAUNCHER = """
import random, sys, uvicorn
from pachisi.web.app import create_app
from pachisi.web.settings import Settings
settings = Settings(allow_any_player=True, allow_computer_games=True)
app = create_app(sys.argv[1], rng=random.Random(int(sys.argv[3])), settings=settings)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


class SeededServer(Server):
    """A server whose throws (and computer seats' seeds) come from ``random.Random(SEED)``."""

    def command(self) -> list[str]:
        return [sys.executable, "-c", _LAUNCHER, self.database_url, str(self.port), str(SEED)]


@pytest.fixture()
def seeded(tmp_path: Path) -> Iterator[Server]:
    running = SeededServer(f"sqlite:///{tmp_path / 'seeded.db'}", tmp_path / "server.log")
    running.start()
    yield running
    running.stop()


def differing_share(taken: Any, stored: Any) -> float:
    """The share of pixels of ``taken`` that differ from ``stored`` beyond the slack (1.0
    when the sizes differ)."""
    if taken.size != stored.size:
        return 1.0
    difference = ImageChops.difference(taken.convert("RGB"), stored.convert("RGB"))
    # A pixel's largest channel difference, then a mask of those beyond the slack.
    channels = difference.split()
    largest = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    beyond = largest.point(lambda value: 255 if value > CHANNEL_SLACK else 0)
    histogram = beyond.histogram()
    pixels = taken.size[0] * taken.size[1]
    return float(histogram[255]) / pixels


def _position_with_a_selected_man(page: Any, server: Server) -> None:
    """Play the seeded game to our ``OUR_MOVES``-th choice and select a man on the board."""
    game = server.create_game(
        [{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3, ruleset="classic"
    )
    page.goto(server.url + game["links"][0]["url"])
    page.wait_for_selector("#board .piece")
    played = 0
    for _ in range(400):
        what = offer(page)
        assert what != "over", "the seeded game ended before the picture"
        count = len(moves(page))
        if what == "throw":
            page.get_by_test_id("throw-button").click()
        elif page.locator("#board .piece.movable").count() and played == OUR_MOVES:
            break
        else:
            page.locator("#actions button.action").first.click()
            played += 1
        wait_for_moves(page, count + 1)
    page.locator("#board .piece.movable").first.click()
    assert page.locator("#board .square.target, #board .charkoni-part.target").count() >= 1
    # The click may have scrolled the man into view: every run takes the page from its top.
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => document.getAnimations().length === 0")


@pytest.mark.parametrize(
    ("name", "viewport", "touch"),
    [
        ("desktop", {"width": 1280, "height": 800}, False),
        ("phone", {"width": 390, "height": 844}, True),
    ],
)
def test_the_game_page_looks_as_stored(
    browser: Any, seeded: Server, tmp_path: Path, name: str, viewport: dict[str, int], touch: bool
) -> None:
    made = browser.new_context(
        locale="en-GB", viewport=viewport, has_touch=touch, is_mobile=touch, device_scale_factor=1
    )
    try:
        page = made.new_page()
        _position_with_a_selected_man(page, seeded)
        # The connection's dot and the invitation links vary between runs; nothing else does.
        shot = page.screenshot(mask=[page.locator("#connection"), page.locator("#links")])
        # The README's picture is shown to people, so it is taken without the mask.
        readme = page.screenshot() if name == "desktop" else None
    finally:
        made.close()
    taken = Image.open(io.BytesIO(shot))
    stored_path = STORED / f"game-{name}.png"
    if os.environ.get("PACHISI_UPDATE_SCREENSHOT") == "1":
        STORED.mkdir(exist_ok=True)
        taken.save(stored_path)
        if readme is not None:
            README_SHOT.write_bytes(readme)
        pytest.skip(f"stored a new {stored_path.name}: compare it by eye, then commit it")
    assert stored_path.exists(), f"no {stored_path.name}: PACHISI_UPDATE_SCREENSHOT=1 stores it"
    share = differing_share(taken, Image.open(stored_path))
    if share > MAX_DIFFERING:
        taken.save(tmp_path / stored_path.name)
    assert share <= MAX_DIFFERING, (
        f"{share:.1%} of the pixels differ from {stored_path.name} "
        f"(this run's picture: {tmp_path / stored_path.name})"
    )


def test_the_readme_picture_shows_no_mask() -> None:
    """Playwright paints a masked element magenta (#FF00FF); no part of the page is."""
    picture = Image.open(README_SHOT).convert("RGB")
    colours = picture.getcolors(maxcolors=picture.width * picture.height) or []
    magenta = sum(count for count, colour in colours if colour == (255, 0, 255))
    assert magenta == 0, f"{magenta} magenta pixels in {README_SHOT.name}: a mask"


def test_the_comparison_sees_a_moved_man_but_not_antialiasing() -> None:
    board = Image.new("RGB", (200, 200), (240, 230, 200))
    for x in range(40, 60):
        for y in range(40, 60):
            board.putpixel((x, y), (200, 30, 30))
    # Antialiasing: every pixel a little off, well within the slack.
    softened = board.point(lambda value: max(0, value - 10))
    assert differing_share(softened, board) == 0.0
    moved = board.copy()
    for x in range(40, 60):
        for y in range(40, 60):
            moved.putpixel((x, y), (240, 230, 200))
            moved.putpixel((x + 100, y + 100), (200, 30, 30))
    assert differing_share(moved, board) > MAX_DIFFERING
    assert differing_share(board.resize((100, 100)), board) == 1.0
