"""The game review in the browser: a finished game reviewed from its replay page (progress,
the graph, the grades, the better action on the board, the export), and a record file
uploaded on the replay page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from tests.e2e.accessibility import assert_accessible
from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server
from tests.e2e.test_headers import Recorder
from tests.e2e.test_replay import SHORT, _finished_game

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

REVIEW_SECONDS = 120_000  # ms: the first review also starts the workers' engine
JUDGED = ("best", "inaccuracy", "mistake", "blunder")


def _review_from_the_replay(page: Any, server: Server, game_id: str) -> str:
    page.goto(f"{server.url}/replay/{game_id}")
    page.get_by_test_id("review-button").click()
    page.wait_for_url("**/review/*")
    return str(page.url.rsplit("/", 1)[1])


def test_a_finished_game_is_reviewed_from_its_replay(context: Any, server: Server) -> None:
    view = _finished_game(server, SHORT)
    page = context.new_page()
    # The game page offers the review once the game is over.
    page.goto(f"{server.url}/game/{view['id']}")
    page.get_by_test_id("review-button").click()
    page.wait_for_url("**/review/*")
    from_the_game = page.url.rsplit("/", 1)[1]
    # The replay page's "Review" finds the same review (a game is reviewed once).
    review_id = _review_from_the_replay(page, server, view["id"])
    assert review_id == from_the_game
    # The progress bar shows until the review is done (if the review is not done already).
    progress = page.get_by_test_id("review-progress")
    assert progress.is_visible() or page.locator("#done-area").is_visible()
    page.wait_for_selector("#done-area:not([hidden])", timeout=REVIEW_SECONDS)
    assert page.get_by_test_id("review-progress").is_hidden()
    status = server.api("GET", f"/api/reviews/{review_id}")
    review = status["review"]
    assert status["state"] == "done" and len(review["steps"]) == view["version"]
    # The graph: one line per side (two teams), its title and its table alternative.
    graph = page.get_by_test_id("review-graph")
    assert graph.locator("polyline.review-line").count() == 2
    assert graph.locator("title").text_content() == "Each side's win chance over the moves"
    # The header's "How to play" opens the reviewed game's own rules.
    ruleset = review["ruleset"]
    expected = "/rules" if ruleset == "classic" else "/rules?" + urlencode({"ruleset": ruleset})
    assert page.locator("#rules-link").get_attribute("href") == expected
    judged = [s for s in review["steps"] if s["grade"] in JUDGED]
    assert page.locator("#chances-body tr").count() == len(judged)
    # Random players blunder: the page opens on the first mistake or blunder, with the
    # played and the better action drawn on the board.
    worst = [s for s in judged if s["grade"] in ("mistake", "blunder")]
    assert worst, "random play made no mistake"
    first = worst[0]
    heading = page.get_by_test_id("review-step").inner_text()
    assert heading.startswith(f"Step {first['step'] + 1} of")
    detail = page.get_by_test_id("review-detail").inner_text()
    assert first["grade"] in detail and "Better:" in detail
    # A mistake that moved a man when another move was better: both are drawn on the board.
    drawn = status["actions"]
    moved = [
        s
        for s in worst
        if all(drawn[str(s["step"])][k]["to"] is not None for k in drawn[str(s["step"])])
    ]
    assert moved, "no mistake moved a man"
    page.locator(f"#decisions li[data-step='{moved[0]['step']}'] button").click()
    assert page.locator("#board .review-marks .review-ring.played").count() >= 1
    assert page.locator("#board .review-marks .review-ring.best").count() >= 1
    page.locator(f"#decisions li[data-step='{first['step']}'] button").click()
    # The decisions listed are the mistakes and blunders; the next jump goes to the second.
    assert page.locator("#decisions li").count() == len(worst)
    if len(worst) > 1:
        page.get_by_test_id("next-mistake").click()
        heading = page.get_by_test_id("review-step").inner_text()
        assert heading.startswith(f"Step {worst[1]['step'] + 1} of")
    assert_accessible(page, "the review page of a finished game")
    page.get_by_test_id("review-filter").select_option("all")
    assert page.locator("#decisions li").count() == len(judged)
    # The export link downloads exactly the review's JSON.
    href = page.get_by_test_id("review-export").get_attribute("href")
    assert json.loads(httpx.get(f"{server.url}{href}", timeout=30).text) == review
    # Asking again from the game page gives the same review, done already.
    again = server.api("POST", f"/api/games/{view['id']}/review")
    assert again["id"] == review_id and again["state"] == "done"


def test_a_record_file_uploaded_on_the_replay_page_is_reviewed(
    context: Any, server: Server, tmp_path: Path
) -> None:
    view = _finished_game(server, SHORT)
    record = httpx.get(f"{server.url}/api/games/{view['id']}/record", timeout=30).text
    path = tmp_path / "game.pgn"
    path.write_text(record)
    page = context.new_page()
    page.goto(f"{server.url}/replay/{view['id']}")
    page.get_by_test_id("review-upload").set_input_files(str(path))
    page.wait_for_url("**/review/*")
    page.wait_for_selector("#done-area:not([hidden])", timeout=REVIEW_SECONDS)
    review_id = page.url.rsplit("/", 1)[1]
    status = server.api("GET", f"/api/reviews/{review_id}")
    assert status["game"] is None and len(status["review"]["steps"]) == view["version"]
    assert page.locator("#summary-body tr").count() == 4
    # A bad file: the replay page says why, and stays.
    path.write_text('[Ruleset "classic"]\n\n1. t3 9z+4 *\n')
    page.goto(f"{server.url}/replay/{view['id']}")
    page.get_by_test_id("review-upload").set_input_files(str(path))
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert "not a record that can be reviewed" in error.inner_text()
    assert "/replay/" in page.url


def test_the_review_page_keeps_to_the_policy(context: Any, server: Server) -> None:
    view = _finished_game(server, SHORT)
    review_id = server.api("POST", f"/api/games/{view['id']}/review")["id"]
    recorder = Recorder(context)
    page = recorder.page
    recorder.goto(f"{server.url}/review/{review_id}")
    page.wait_for_selector("#done-area:not([hidden])", timeout=REVIEW_SECONDS)
    page.get_by_test_id("next-mistake").click()
    page.get_by_test_id("review-filter").select_option("all")
    page.locator("#decisions li button").last.click()
    page.get_by_test_id("review-graph").click()
    page.locator("#language").select_option("hi")
    page.locator("html[lang='hi']").wait_for(state="attached")
    page.get_by_test_id("review-step").get_by_text("कदम").wait_for()
    assert page.locator("#board .piece").count() == 16
    assert recorder.violations() == []
