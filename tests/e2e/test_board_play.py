"""Playing on the board with the pointer: a man that can move is chosen with a click, its
destinations light up, a click on one plays it; a stack answers a click on any of its men, a
destination that several choices reach leaves the list to choose among them; the last move
is marked; the file and rank labels come and go with their switch, remembered."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.accessibility import assert_accessible
from tests.e2e.conftest import CHROMIUM
from tests.e2e.driver import click_centre, moves, offer, wait_for_moves
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

_ACTIONS_JS = (
    "() => [...document.querySelectorAll('#actions button.action')].map((b) => b.dataset.action)"
)
_LIT_JS = """() => [...document.querySelectorAll('#board .square.target')]
  .map((g) => g.getAttribute('aria-label').replace(/^square /, '').replace(/, a castle$/, ''))"""
_UNDIMMED_JS = """() => [...document.querySelectorAll('#actions button.action:not(.dimmed)')]
  .map((b) => b.textContent)"""


def _open_game(context: Any, server: Server, ruleset: str = "classic", humans: int = 1) -> Any:
    """A game of ``ruleset`` whose first ``humans`` seats this page holds (one link for
    them all), the rest random computers."""
    game = server.create_game(
        [{"kind": "human"}] * humans + [{"kind": "computer", "player": "random"}] * (4 - humans),
        ruleset=ruleset,
    )
    page = context.new_page()
    page.goto(server.url + (game["hotseat_url"] if humans > 1 else game["links"][0]["url"]))
    page.wait_for_selector("#board .piece")
    return page


def _play_until(
    page: Any, wanted: Callable[[list[str]], bool], choose: Callable[[list[str]], int]
) -> list[str]:
    """Throw and choose (by the list) until our choices satisfy ``wanted``; those choices."""
    for _ in range(600):
        what = offer(page)
        if what == "over":
            pytest.fail("the game ended before the case came up")
        if what == "act":
            actions = page.evaluate(_ACTIONS_JS)
            if wanted(actions):
                return actions
        count = len(moves(page))
        if what == "throw":
            page.get_by_test_id("throw-button").click()
        else:
            page.locator("#actions button.action").nth(choose(actions)).click()
        wait_for_moves(page, count + 1)
    pytest.fail("the case did not come up in 600 offers")


def _enter_or_wait(actions: list[str]) -> int:
    # Enter whenever we can and move nothing else, so that the men entered stand together.
    for index, action in enumerate(actions):
        if "@" in action:
            return index
    return len(actions) - 1


def _has_board_move(actions: list[str]) -> bool:
    return any(re.match(r"^0[a-d]\+", a) for a in actions)


def test_a_man_is_chosen_and_moved_on_the_board(context: Any, server: Server) -> None:
    # The page holds the next seat too (R-ORDER: the turn passes to seat 1), so that no
    # computer's move follows ours before the board is looked at: the mark is our move's.
    page = _open_game(context, server, humans=2)
    _play_until(page, _has_board_move, _enter_or_wait)
    # Nothing is lit before a man is chosen; the men that can move are marked.
    assert page.locator("#board .square.target").count() == 0
    man = page.locator("#board .piece.movable[tabindex='0']").first
    man.click()
    assert page.locator("#board .piece.selected").count() >= 1
    lit = page.evaluate(_LIT_JS)
    home = page.locator("#board .charkoni-part.target").count()
    assert lit or home
    # The list keeps every choice, the other men's dimmed; each lit square is a choice's.
    undimmed = page.evaluate(_UNDIMMED_JS)
    assert undimmed and page.locator("#actions button.action").count() >= len(undimmed)
    for name in lit:
        assert any(f" {name}" in text for text in undimmed), (name, undimmed)
    assert_accessible(page, "the game page with a man chosen")
    # Escape, and a click away from the board, forget the man.
    page.keyboard.press("Escape")
    assert page.locator("#board .piece.selected").count() == 0
    man.click()
    page.get_by_test_id("turn").click()
    assert page.locator("#board .piece.selected").count() == 0
    assert page.locator("#board .square.target").count() == 0
    # Chosen again, a click on a lit destination plays the move there.
    man.click()
    count = len(moves(page))
    target = page.locator("#board .square.target" if lit else "#board .charkoni-part.target")
    destination = target.first.get_attribute("aria-label")
    click_centre(target.first)
    wait_for_moves(page, count + 1)
    played = moves(page)[count]
    assert played.startswith("0"), played
    # The move is marked where it went (a square: a move home marks only where it left).
    marked = page.locator("#board .square.last-to")
    if lit:
        assert [marked.nth(i).get_attribute("aria-label") for i in range(marked.count())] == [
            destination
        ]
    # A page opened in the middle of the game marks the last move too, from the history.
    offer(page)
    page.reload()
    page.wait_for_selector("#board .piece")
    page.wait_for_selector("#board .square.last-to, #board .square.last-from", timeout=5_000)


def _stacked(actions: list[str]) -> bool:
    # The whole stack and one man of it, with the same throw: both go to one square.
    return any(re.match(r"^0[a-d]{2,}\+", a) for a in actions)


def test_a_stack_answers_a_click_on_any_of_its_men_and_the_list_settles_a_shared_square(
    context: Any, server: Server
) -> None:
    page = _open_game(context, server, "classic+split_throw=group")
    actions = _play_until(page, _stacked, _enter_or_wait)
    group = next(a for a in actions if re.match(r"^0[a-d]{2,}\+", a))
    letters = re.match(r"^0([a-d]+)\+", group).group(1)
    # The man drawn on top of the stack (the highest letter) is the one a pointer finds.
    top = "abcd".index(letters[-1])
    page.locator(f"#board .piece[data-piece='{top}']").click()
    for letter in letters:
        assert (
            page.locator(f"#board .piece.selected[data-piece='{'abcd'.index(letter)}']").count()
            == 1
        )
    # Its square is lit; both the whole stack's move and the one man's go there.
    count = len(moves(page))
    single = f"0{letters[0]}+{group.split('+')[1]}"
    assert single in actions
    # The square both reach: the lit square named in the stack's choice.
    text = page.locator(f"#actions button.action[data-action='{group}']").inner_text()
    lit = page.evaluate(_LIT_JS)
    shared = next(name for name in lit if f" {name}" in text)
    click_centre(
        page.locator(
            f"#board .square.target[aria-label='square {shared}'],"
            f" #board .square.target[aria-label='square {shared}, a castle']"
        )
    )
    # Nothing is played: the list offers just the two, the focus on the first of them.
    assert len(moves(page)) == count
    undimmed = page.locator("#actions button.action:not(.dimmed)")
    assert sorted(undimmed.evaluate_all("(bs) => bs.map((b) => b.dataset.action)")) == sorted(
        [group, single]
    )
    assert page.evaluate("() => document.activeElement.classList.contains('action')")
    assert "choose one in the list" in page.get_by_test_id("announce").inner_text()
    page.locator(f"#actions button.action[data-action='{group}']").click()
    wait_for_moves(page, count + 1)
    assert moves(page)[count] == group


# Draws the board module's Board in a new SVG of the page: man 0 (South's) on square `mine`,
# man 1 home, man 4 (East's) on square `theirs`, the rest waiting; man 0 can move, and is
# chosen when `chosen`, with `theirs` and South's home lit. Every handler call is kept in
# `window.boardCalls`; the centres of man 4's and man 1's bodies are returned, for a real
# pointer to click.
_OVERLAY_JS = """async ([mine, theirs, chosen]) => {
  const { Board } = await import('/static/js/board.js');
  const geometry = await (await fetch('/api/board')).json();
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('width', '760');
  svg.setAttribute('height', '760');
  document.body.replaceChildren(svg);
  window.boardCalls = [];
  const keep = (name) => (...args) => window.boardCalls.push([name, ...args]);
  const board = new Board(svg, geometry, {
    onPiece: keep('piece'), onSquare: keep('square'), onNothing: keep('nothing'),
  });
  const pieces = [...Array(16).keys()].map((id) => {
    const square = id === 0 ? mine : id === 4 ? theirs : null;
    const where = id === 1 ? 'home' : square === null ? 'waiting' : 'board';
    return { id, seat: id >> 2, letter: 'abcd'[id & 3],
      progress: where === 'home' ? 84 : where === 'board' ? 10 : 0, square, where, lap: false };
  });
  board.update({ pieces, legal: [] }, [], {
    pieces: new Set([0]), targets: new Set(chosen ? [theirs] : []), home: chosen ? 0 : null,
    selected: new Set(chosen ? [0] : []), preview: null,
  });
  const centre = (id) => {
    const box = svg.querySelector(`.piece[data-piece="${id}"] .man-body`).getBoundingClientRect();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  return [centre(4), centre(1)];
}"""


@pytest.mark.usefixtures("sqlite_only")
@pytest.mark.parametrize("chosen", [True, False], ids=["a-man-chosen", "none-chosen"])
def test_a_man_on_a_lit_destination_answers_for_his_square(
    context: Any, server: Server, chosen: bool
) -> None:
    # A man standing on the chosen man's destination (one to capture) covers the square, and
    # a man home covers the Charkoni: a mouse click on him plays there, as a tap does on a
    # touch screen. With no man chosen he is only a man.
    page = context.new_page()
    page.goto(f"{server.url}/replay/none")
    page.wait_for_load_state("domcontentloaded")
    squares = page.evaluate("async () => (await (await fetch('/api/board')).json()).squares")
    mine, theirs = squares[0]["id"], squares[20]["id"]
    on_square, at_home = page.evaluate(_OVERLAY_JS, [mine, theirs, chosen])
    page.mouse.click(*on_square)
    page.mouse.click(*at_home)
    calls = page.evaluate("() => window.boardCalls")
    home = page.evaluate("async () => (await import('/static/js/picking.js')).HOME")
    if chosen:
        assert calls == [["square", theirs], ["square", home]]
    else:
        assert calls == [["piece", 4], ["piece", 1]]


@pytest.mark.usefixtures("sqlite_only")
def test_the_file_and_rank_labels_come_and_go_and_are_remembered(
    context: Any, server: Server
) -> None:
    page = _open_game(context, server)
    labels = page.locator("#board .labels")
    assert labels.get_attribute("hidden") is not None
    toggle = page.get_by_test_id("labels-toggle")
    toggle.check()
    assert labels.get_attribute("hidden") is None
    files = page.locator("#board .label.file").all_text_contents()
    ranks = page.locator("#board .label.rank").all_text_contents()
    assert sorted(files) == [chr(ord("a") + i) for i in range(19)]
    assert sorted(ranks, key=int) == [str(i) for i in range(1, 20)]
    # Each file's label stands under its squares, as the move list names them: j8 is above j.
    j = page.locator("#board .label.file", has_text=re.compile("^j$")).bounding_box()
    j8 = page.locator("#board .square[aria-label='square j8']").bounding_box()
    assert abs((j["x"] + j["width"] / 2) - (j8["x"] + j8["width"] / 2)) < 2
    assert j["y"] > j8["y"]
    page.reload()
    page.wait_for_selector("#board .piece")
    assert page.get_by_test_id("labels-toggle").is_checked()
    assert page.locator("#board .labels").get_attribute("hidden") is None
    page.get_by_test_id("labels-toggle").uncheck()
    assert page.locator("#board .labels").get_attribute("hidden") is not None
