"""The "How to play" page, /rules: it renders in every language, its switch table lists every
entry of the rules core's SWITCHES with its rule ID and value, its throw table shows the rules
core's exact chances, and it reads on a phone."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from pachisi.rules.cowries import chance_outcomes
from pachisi.rules.ruleset import SWITCHES, format_value, parse_ruleset
from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.usefixtures("sqlite_only"),
]

STATIC = Path(__file__).resolve().parents[2] / "src" / "pachisi" / "web" / "static"
LOCALES = {"en": "en-GB", "de": "de-DE", "cs": "cs-CZ", "hu": "hu-HU", "hi": "hi-IN"}


def _catalogue(lang: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return loaded


def _open(page: Any, server: Server, ruleset: str | None = None) -> None:
    query = f"?ruleset={quote(ruleset, safe='')}" if ruleset is not None else ""
    page.goto(f"{server.url}/rules{query}")
    page.wait_for_selector("body[data-ready=true]")


def _rows(page: Any) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = page.eval_on_selector_all(
        "[data-testid=switch-table] tbody tr",
        """rows => rows.map((row) => ({
            key: row.dataset.key,
            rule: row.cells[0].textContent,
            switch: row.cells[1].textContent,
            value: row.cells[2].textContent,
            does: row.cells[3].textContent,
        }))""",
    )
    return rows


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_page_renders_in_each_language(browser: Any, server: Server, lang: str) -> None:
    words = _catalogue(lang)
    made = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 800})
    try:
        page = made.new_page()
        _open(page, server)
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("h1").inner_text() == words["rules.title"]
        assert page.title() == words["rules.title"]
        headings = page.locator("main h2").all_inner_texts()
        for key in ("board", "throws", "enter", "home", "switches"):
            assert words[f"rules.{key}.heading"] in headings, key
        rows = {row["key"]: row for row in _rows(page)}
        assert rows["capture_bonus"]["does"] == words["rules.value.capture_bonus.true"]
        assert rows["cowries"]["does"] == words["rules.value.cowries.6"]
        # No text is left as a bare key, and every diagram is drawn.
        assert "rules." not in page.locator("main").inner_text()
        assert page.locator(".guide-diagram .square").count() == 3 * 96
        assert page.locator(".guide-name").count() == 96
    finally:
        made.close()


@pytest.mark.parametrize(
    "ruleset",
    ["classic", "wikipedia-full", "herklots-6", "ludii", "tylor-1879+capture_bonus=false"],
)
def test_the_switch_table_lists_every_switch_with_its_rule_and_value(
    context: Any, server: Server, ruleset: str
) -> None:
    page = context.new_page()
    _open(page, server, ruleset)
    chosen = parse_ruleset(ruleset)
    rows = _rows(page)
    assert [(row["key"], row["rule"]) for row in rows] == [(s.key, s.rule) for s in SWITCHES]
    assert [row["switch"] for row in rows] == [s.key for s in SWITCHES]
    assert [row["value"] for row in rows] == [
        format_value(s.key, getattr(chosen, s.key)) for s in SWITCHES
    ]
    english = _catalogue("en")
    classic = parse_ruleset("classic")
    for row, switch in zip(rows, SWITCHES, strict=True):
        assert row["does"] and "rules." not in row["does"], row
        default = format_value(switch.key, getattr(classic, switch.key))
        marked = english["rules.switches.classic"].format(value=default)
        assert (marked in row["does"]) == (row["value"] != default), row
    assert (
        page.get_by_test_id("guide-showing")
        .inner_text()
        .startswith(english["rules.showing"].split("{")[0])
    )
    assert str(chosen) in page.get_by_test_id("guide-showing").inner_text()


@pytest.mark.parametrize("ruleset", ["classic", "wikipedia-full", "classic+p_mouth_up=1/3"])
def test_the_chances_shown_are_the_rules_cores(context: Any, server: Server, ruleset: str) -> None:
    page = context.new_page()
    _open(page, server, ruleset)
    chosen = parse_ruleset(ruleset)
    cells = page.eval_on_selector_all(
        "[data-testid=throw-table] tbody tr",
        "rows => rows.map((row) => [...row.cells].map((cell) => cell.textContent))",
    )
    shown = [(int(k), int(value), Fraction(chance.split(" ")[0])) for k, value, chance, *_ in cells]
    assert shown == [
        (k, chosen.score_table[k], chance)
        for k, chance in chance_outcomes(chosen.cowries, chosen.p_mouth_up)
    ]
    yes = _catalogue("en")["rules.yes"]
    graces = [int(row[1]) for row in cells if row[3] == yes]
    assert graces == [
        chosen.score_table[k]
        for k in range(len(cells))
        if chosen.score_table[k] in chosen.reroll_values
    ]


def test_the_ruleset_can_be_chosen_on_the_page(context: Any, server: Server) -> None:
    page = context.new_page()
    _open(page, server)
    page.get_by_test_id("guide-ruleset").select_option("herklots-6")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=switch-table] tr[data-key=triple_cancel] code')"
        "?.closest('tr').cells[2].textContent === 'same'"
    )
    assert page.url.endswith("/rules?ruleset=herklots-6")
    # Herklots brings no man out with a throw of its own: the page says so.
    assert _catalogue("en")["rules.enter.no_values"] in page.locator("#guide-enter").inner_text()


def test_an_unknown_ruleset_is_refused_in_words(context: Any, server: Server) -> None:
    page = context.new_page()
    _open(page, server, "chess")
    error = page.get_by_test_id("guide-error")
    assert error.is_visible()
    assert "unknown ruleset 'chess'" in error.inner_text()
    assert not page.locator("#guide-body").is_visible()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_the_page_reads_on_a_phone(browser: Any, server: Server, width: int, height: int) -> None:
    made = browser.new_context(locale="en-GB", viewport={"width": width, "height": height})
    try:
        page = made.new_page()
        _open(page, server, "wikipedia-full")
        # Nothing wider than the screen: no sideways scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        diagram = page.locator("#guide-board-diagram").bounding_box()
        assert diagram is not None and diagram["width"] >= width - 40
        assert page.locator(".rules-link").bounding_box()["height"] >= 44
    finally:
        made.close()


def test_every_page_header_links_to_the_rules(context: Any, server: Server) -> None:
    for name in ("index.html", "game.html", "replay.html", "rules.html"):
        html = (STATIC / name).read_text("utf-8")
        header = html.split('<header class="top">')[1].split("</header>")[0]
        assert 'href="/rules"' in header and 'data-i18n="rules.link"' in header, name
    page = context.new_page()
    page.goto(server.url + "/")
    page.get_by_role("link", name=_catalogue("en")["rules.link"]).click()
    page.wait_for_selector("body[data-ready=true]")
    assert page.url == server.url + "/rules"


@pytest.mark.parametrize(("ruleset", "key"), [("classic", "castle"), ("ludii", "castle_not")])
def test_the_castle_25_from_home_is_told_as_the_engine_has_it(
    context: Any, server: Server, ruleset: str, key: str
) -> None:
    page = context.new_page()
    _open(page, server, ruleset)
    told = _catalogue("en")[f"rules.home.{key}"].format(castle="a10", distance=25)
    assert page.locator("#guide-home-castle").inner_text() == told


def test_the_lobbys_link_opens_the_rules_chosen_in_its_form(context: Any, server: Server) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#ruleset option", state="attached")
    page.get_by_test_id("ruleset").select_option("herklots-6")
    page.locator("#switches").fill("+capture_bonus=false")
    page.get_by_role("link", name=_catalogue("en")["rules.link"]).click()
    page.wait_for_selector("body[data-ready=true]")
    shown = page.get_by_test_id("guide-showing").inner_text()
    assert "herklots-6+capture_bonus=false" in shown
    row = page.locator("[data-testid=switch-table] tr[data-key=capture_bonus]")
    assert row.locator("td").nth(2).inner_text() == "false"


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740), (844, 390)])
def test_the_game_pages_header_keeps_to_one_line_on_a_phone(
    browser: Any, server: Server, width: int, height: int
) -> None:
    # The link must not cost the board a line of the screen (issue 21, item 3).
    game = server.create_game([{"kind": "human"}] + [{"kind": "open"}] * 3)
    made = browser.new_context(
        locale="en-GB", viewport={"width": width, "height": height}, has_touch=True
    )
    try:
        page = made.new_page()
        page.goto(server.url + game["links"][0]["url"])
        page.wait_for_selector("#board .piece")
        link = page.locator(".top .rules-link")
        assert (
            link.inner_text()
            == _catalogue("en")["rules.link_short" if width < 640 else "rules.link"]
        )
        assert link.bounding_box()["height"] >= 44
        middles = page.eval_on_selector_all(
            ".top > *",
            "nodes => nodes.map((node) => { const box = node.getBoundingClientRect();"
            " return box.top + box.height / 2; })",
        )
        assert max(middles) - min(middles) < 4, middles  # one row
    finally:
        made.close()


def test_the_game_and_replay_pages_link_to_the_games_own_rules(
    context: Any, server: Server
) -> None:
    ruleset = "tylor-1879+capture_bonus=false"
    game = server.create_game([{"kind": "human"}] + [{"kind": "open"}] * 3, ruleset=ruleset)
    page = context.new_page()
    page.goto(server.url + game["links"][0]["url"])
    page.wait_for_selector("#board .piece")
    page.get_by_role("link", name=_catalogue("en")["rules.link"]).click()
    page.wait_for_selector("body[data-ready=true]")
    assert ruleset in page.get_by_test_id("guide-showing").inner_text()
    page.goto(f"{server.url}/replay/{game['id']}")
    page.wait_for_selector("#board .piece")
    link = page.get_by_role("link", name=_catalogue("en")["rules.link"])
    assert "ruleset=tylor-1879%2Bcapture_bonus%3Dfalse" in (link.get_attribute("href") or "")


def test_the_switch_table_shows_each_switchs_measured_effect(context: Any, server: Server) -> None:
    # Issue 23: pachisi explore's shipped results, the same lines `pachisi rules NAME
    # --effects` prints (src/pachisi/explore/effects.py decides what moved).
    from pachisi.explore.effects import flip_changes

    page = context.new_page()
    _open(page, server, "classic")
    effect = page.locator("[data-testid=switch-table] tr[data-key=extra_lap] td").nth(4)
    [flip] = [f for f in flip_changes("classic") if f["switch"] == "extra_lap"]
    throws = next(c for c in flip["changes"] if c["figure"] == "throws")
    shown = effect.inner_text()
    assert shown.startswith("true: ") and f"throws {round(throws['base'])} → " in shown
    assert f"→ {round(throws['flip'])}" in shown
    unmoved = page.locator("[data-testid=switch-table] tr[data-key=capture_scope] td").nth(4)
    assert unmoved.inner_text() == "top_one: " + _catalogue("en")["rules.effects.none"]
    _open(page, server, "ludii")
    cell = page.locator("[data-testid=switch-table] tr[data-key=cowries] td").nth(4)
    assert cell.inner_text() == _catalogue("en")["rules.effects.unmeasured"]
