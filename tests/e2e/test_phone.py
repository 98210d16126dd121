"""The game on a phone's touch screen, portrait and landscape: during play the board and the
throw button, or the board and the choices, are both inside the screen without scrolling;
the men that can move and their destinations take taps of at least 44 px; there is no
keyboard help."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.accessibility import assert_accessible
from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import moves, offer, wait_for_moves
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

SIZES = {
    "portrait-390x844": (390, 844),
    "portrait-360x740": (360, 740),
    "landscape-844x390": (844, 390),
    "landscape-740x360": (740, 360),
}
TAP_PX = 44
_ACTIONS_JS = (
    "() => [...document.querySelectorAll('#actions button.action')].map((b) => b.dataset.action)"
)


# CI plays on the two smallest screens, where fitting is hardest; PACHISI_SLOW=1 on all four.
_SAMPLED = {"portrait-360x740", "landscape-740x360"}


@pytest.fixture(
    params=[
        pytest.param(size, id=size, marks=() if size in _SAMPLED else pytest.mark.slow)
        for size in SIZES
    ]
)
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[tuple[Any, tuple[int, int]]]:
    """A phone's browser profile: a touch screen of one of the four sizes."""
    width, height = SIZES[request.param]
    made = browser.new_context(
        locale="en-GB",
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
    )
    yield made, (width, height)
    made.close()


def _inside(page: Any, selector: str, size: tuple[int, int]) -> None:
    """Assert that the element of ``selector`` is wholly inside the screen as it stands."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    width, height = size
    assert box["x"] >= -0.5 and box["y"] >= -0.5, (selector, box)
    assert box["x"] + box["width"] <= width + 0.5, (selector, box, size)
    assert box["y"] + box["height"] <= height + 0.5, (selector, box, size)


def _tap_sizes(page: Any, selector: str) -> list[tuple[float, float]]:
    sizes: list[tuple[float, float]] = page.evaluate(
        "(s) => [...document.querySelectorAll(s)].map((n) => {"
        " const b = n.getBoundingClientRect(); return [b.width, b.height]; })",
        selector,
    )
    return sizes


def _tap_middle(page: Any, locator: Any) -> None:
    box = locator.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_the_board_and_the_play_fit_on_a_phone(
    phone: tuple[Any, tuple[int, int]], server: Server
) -> None:
    context, size = phone
    game = server.create_game(
        [{"kind": "human"}] + [{"kind": "computer", "player": "random"}] * 3, ruleset="classic"
    )
    page = context.new_page()
    page.goto(server.url + game["links"][0]["url"])
    page.wait_for_selector("#board .piece")
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches")
    # No keyboard help on a touch screen.
    assert not page.locator("#actions-help").is_visible()
    assert page.get_by_test_id("throw-button").get_attribute("aria-keyshortcuts") is None
    seen_throw = seen_choices = False
    for _ in range(300):
        what = offer(page)
        assert what != "over", "the game ended before a man could move on the board"
        _inside(page, "#board", size)
        if what == "throw":
            _inside(page, "#throw-button", size)
            seen_throw = True
        else:
            _inside(page, "#actions", size)
            seen_choices = True
            actions = page.evaluate(_ACTIONS_JS)
            if any(re.match(r"^0[a-d]\+", a) for a in actions):
                break
        count = len(moves(page))
        if what == "throw":
            page.get_by_test_id("throw-button").tap()
        else:
            enter = next((i for i, a in enumerate(actions) if "@" in a), len(actions) - 1)
            page.locator("#actions button.action").nth(enter).tap()
        wait_for_moves(page, count + 1)
    else:
        pytest.fail("no man could move on the board in 300 offers")
    assert seen_throw and seen_choices
    for width, height in _tap_sizes(page, "#actions button.action, #throw-button, #hint-button"):
        assert height >= TAP_PX, (width, height)
    # A man that can move takes a tap of 44 px; chosen, so do its destinations.
    men = _tap_sizes(page, "#board .piece.movable .hit")
    assert men and all(min(w, h) >= TAP_PX for w, h in men), men
    # Tapped where a person taps, at the man's middle: the tap areas of men that stand close
    # overlap, and the tap goes to the nearest man (here the one on the board, by the men
    # waiting to enter when it has just entered).
    man = page.locator("#board .piece.movable[tabindex='0']").last
    chosen = man.get_attribute("data-piece")
    _tap_middle(page, man.locator(".man-body"))
    assert page.locator(f"#board .piece.selected[data-piece='{chosen}']").count() == 1
    spots = _tap_sizes(page, "#board .hits .hit")
    assert spots and all(min(w, h) >= TAP_PX for w, h in spots), spots
    _inside(page, "#board", size)
    _inside(page, "#actions", size)
    assert_accessible(page, f"the game page on a {size[0]}x{size[1]} phone, a man chosen")
    count = len(moves(page))
    _tap_middle(page, page.locator("#board .hits .hit").first)
    wait_for_moves(page, count + 1)
    assert moves(page)[count].startswith("0")
