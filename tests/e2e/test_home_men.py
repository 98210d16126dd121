"""D5: no man in the Charkoni hides another. The men waiting to enter and the men home are
drawn inside their own seat's triangle, each where no other man is, at the start of a game,
with any mix of waiting and home men, and in a finished game's replay."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server
from tests.e2e.test_replay import COMPUTERS, _finished

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

# Draws the board module's Board in a new SVG of the page, for a view whose 16 men are all
# waiting (progress 0) or home (84) as `places` says; the men's drawn boxes.
_DRAW_JS = """async (places) => {
  const { Board } = await import('/static/js/board.js');
  const geometry = await (await fetch('/api/board')).json();
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('width', '760');
  svg.setAttribute('height', '760');
  document.body.prepend(svg);
  const board = new Board(svg, geometry, {});
  const pieces = places.map((where, id) => ({
    id, seat: id >> 2, letter: 'abcd'[id & 3], progress: where === 'home' ? 84 : 0,
    square: null, where, lap: false,
  }));
  const none = { pieces: new Set(), targets: new Set(), selected: null, preview: null };
  board.update({ pieces, legal: [] }, [], none);
  const boxes = [...svg.querySelectorAll('.piece')].map((node) => {
    const box = node.querySelector('.man-body').getBoundingClientRect();
    return { id: Number(node.dataset.piece), x: box.x, y: box.y, w: box.width, h: box.height };
  });
  svg.remove();
  return boxes;
}"""


_BOXES_JS = """() => [...document.querySelectorAll('#board .piece.home, #board .piece.waiting')]
  .map((node) => {
    const box = node.querySelector('.man-body').getBoundingClientRect();
    return { id: Number(node.dataset.piece), x: box.x, y: box.y, w: box.width, h: box.height };
  })"""


def _overlaps(boxes: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """The pairs of men whose drawn bodies overlap."""
    return [
        (a["id"], b["id"])
        for a, b in combinations(boxes, 2)
        if a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    ]


@pytest.mark.usefixtures("sqlite_only")
@pytest.mark.parametrize(
    "places",
    [
        ["home"] * 16,
        ["waiting"] * 16,
        # Every seat with two men home and two waiting, in turn.
        ["home", "home", "waiting", "waiting"] * 4,
        ["waiting", "waiting", "home", "home"] * 4,
        ["home", "waiting"] * 8,
    ],
    ids=["all-home", "all-waiting", "home-first", "waiting-first", "mixed"],
)
def test_no_man_in_the_charkoni_hides_another(
    context: Any, server: Server, places: list[str]
) -> None:
    page = context.new_page()
    page.goto(f"{server.url}/replay/none")
    page.wait_for_load_state("domcontentloaded")
    boxes = page.evaluate(_DRAW_JS, places)
    assert len(boxes) == 16
    assert all(box["w"] > 5 and box["h"] > 5 for box in boxes), boxes
    assert _overlaps(boxes) == []


def test_every_man_home_is_seen_in_a_finished_games_replay(context: Any, server: Server) -> None:
    view = _finished(server, [server.create_game(COMPUTERS, ruleset="classic")["id"]])[0]
    page = context.new_page()
    page.goto(f"{server.url}/replay/{view['id']}")
    page.wait_for_selector("#moves li")
    assert page.locator("#board .piece.home").count() >= 8
    # No man home under another, nor under a man waiting to enter.
    boxes = page.evaluate(_BOXES_JS)
    assert len(boxes) >= 8
    assert _overlaps(boxes) == []
