"""The rules page's facts, ``GET /api/rules/{ruleset}``: every one as the rules core has it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from urllib.parse import quote

from fastapi.testclient import TestClient

from pachisi.rules.board import CASTLES, square_name
from pachisi.rules.cowries import chance_outcomes
from pachisi.rules.ruleset import SWITCHES, format_value, parse_ruleset
from pachisi.web.guide import guide_json


def test_the_classic_guide_has_the_throws_the_board_and_every_switch(client: TestClient) -> None:
    response = client.get("/api/rules/classic")
    assert response.status_code == 200, response.text
    guide = response.json()
    assert guide["ruleset"] == "classic" and guide["base"] == "classic"
    assert guide["cowries"] == 6 and guide["p_mouth_up"] == "1/2"
    assert [(t["k"], t["value"], t["chance"]) for t in guide["throws"]] == [
        (0, 25, "1/64"),
        (1, 10, "3/32"),
        (2, 2, "15/64"),
        (3, 3, "5/16"),
        (4, 4, "15/64"),
        (5, 5, "3/32"),
        (6, 6, "1/64"),
    ]
    assert sum(Fraction(t["chance"]) for t in guide["throws"]) == 1
    assert [t["value"] for t in guide["throws"] if t["grace"]] == [25, 10, 6]
    assert guide["entry_values"] == [6, 10, 25] and guide["reroll_values"] == [6, 10, 25]
    assert guide["exit_values"] == [6, 10, 25]
    board = guide["board"]
    assert board["squares"] == 96 and board["steps"] == 84
    assert sorted(board["castles"]) == sorted(square_name(sq) for sq in CASTLES)
    assert board["castles"][:4] == ["j1", "k4", "p9", "s10"]  # as South's men meet them
    assert board["first_square"] == "j8"  # South's square 1, (9, 7)
    assert board["castle_25"] == "a10" and board["castle_25"] in board["castles"]
    # From a10 round West's arm, up South's outer column and home up its middle column.
    assert board["castle_25_finishes"] is True
    assert len(board["home_path"]) == 24 and board["home_path"][0] == "a9"
    assert board["home_path"][-8:] == ["j1", "j2", "j3", "j4", "j5", "j6", "j7", "j8"]
    assert [(s["key"], s["rule"]) for s in guide["switches"]] == [(s.key, s.rule) for s in SWITCHES]
    assert all(s["value"] == s["default"] == s["base"] for s in guide["switches"])


def test_a_named_ruleset_gives_its_own_values_and_chances(client: TestClient) -> None:
    guide = client.get("/api/rules/wikipedia").json()  # an alias
    ruleset = parse_ruleset("wikipedia-full")
    assert guide["ruleset"] == "wikipedia-full" and guide["cowries"] == 7
    assert [(t["value"], Fraction(t["chance"])) for t in guide["throws"]] == [
        (ruleset.score_table[k], chance) for k, chance in chance_outcomes(7, Fraction(1, 2))
    ]
    switches = {s["key"]: s for s in guide["switches"]}
    assert switches["throw_usage"]["value"] == "collect"
    assert switches["throw_usage"]["default"] == "immediate"
    assert switches["kill_before_home"] == {
        "key": "kill_before_home",
        "rule": "V-KILL-BEFORE-HOME",
        "value": "seat",
        "default": "false",
        "base": "seat",
        "choices": ["false", "seat", "team"],
        "help": "kill to go home",
        "writable": True,
        "note": "",
    }
    # A switch that another one turns off shows the value it would have, marked as one
    # that the ruleset string cannot state (issue 47).
    assert switches["six_up_value"]["writable"] is True  # 7 cowries: 30 or 35
    idle = next(s for s in client.get("/api/rules/classic").json()["switches"] if not s["writable"])
    assert idle["key"] == "six_up_value" and "cowries=7" in idle["note"]


def test_a_ruleset_string_with_switches_is_read_as_the_lobby_reads_it(client: TestClient) -> None:
    text = "tylor-1879+capture_bonus=false+p_mouth_up=1/3"
    response = client.get("/api/rules/" + quote(text, safe=""))
    assert response.status_code == 200, response.text
    guide = response.json()
    assert guide == guide_json(parse_ruleset(text))
    assert guide["ruleset"] == text and guide["base"] == "tylor-1879"
    switches = {s["key"]: s for s in guide["switches"]}
    assert switches["capture_bonus"]["value"] == "false"
    assert switches["capture_bonus"]["base"] == switches["capture_bonus"]["default"] == "true"
    assert switches["stack_immune"]["value"] == "true"  # tylor's own
    assert guide["p_mouth_up"] == "1/3"
    assert guide["throws"][0]["chance"] == "64/729"  # (2/3) ** 6
    assert [t["value"] for t in guide["throws"] if t["enters"]] == [10, 25]


def test_every_switch_value_is_written_as_ruleset_strings_write_it() -> None:
    ruleset = parse_ruleset("herklots-6")
    for row, switch in zip(guide_json(ruleset)["switches"], SWITCHES, strict=True):
        assert row["value"] == format_value(switch.key, getattr(ruleset, switch.key))
    assert guide_json(ruleset)["entry_values"] == []
    assert guide_json(parse_ruleset("ludii"))["exit_values"] == "ludii"


def test_whether_a_25_goes_home_from_the_castle_is_the_engines_answer() -> None:
    # S11's castle: a 25 takes a man home from it, but not in Ludii's flow (E.2, SC-48).
    for name in ("classic", "wikipedia-full", "herklots-6", "tylor-1879"):
        assert guide_json(parse_ruleset(name))["board"]["castle_25_finishes"] is True, name
    assert guide_json(parse_ruleset("ludii"))["board"]["castle_25_finishes"] is False


def test_an_unknown_or_bad_ruleset_is_refused_with_a_message(client: TestClient) -> None:
    for text, words in [
        ("chess", "unknown ruleset 'chess'"),
        ("classic+capture_bonus=perhaps", "capture_bonus"),
        ("classic+no_such_switch=1", "no_such_switch"),
        ("classic+cowries=7+score_table=1,2", "score_table"),
    ]:
        response = client.get("/api/rules/" + quote(text, safe=""))
        assert response.status_code == 400, text
        assert words in response.json()["detail"], (text, response.json())
    assert client.get("/api/rules/").status_code == 400


CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "pachisi" / "web" / "static" / "i18n"
SPECIAL_VALUES = {
    "stacking": ("all", "castles_only", "none"),
    "last_square_exit": ("none", "ludii"),
    "reroll_values": ("none",),
    "entry_values": ("none",),
}
"""Free-form switches' values that the rules page tells in words of their own."""


def test_every_switch_value_the_rules_page_can_show_has_a_text_in_every_language() -> None:
    for lang in ("en", "de", "cs", "hu", "hi"):
        words = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
        for switch in SWITCHES:
            if switch.choices:
                wanted = [f"rules.value.{switch.key}.{choice}" for choice in switch.choices]
            else:
                general = f"rules.value.{switch.key}"
                assert "{value}" in words.get(general, ""), (lang, general)
                wanted = [f"{general}.{v}" for v in SPECIAL_VALUES.get(switch.key, ())]
            missing = [key for key in wanted if not words.get(key)]
            assert not missing, (lang, missing)
