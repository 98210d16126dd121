"""Rulesets (RULES.md C, D, E): the named rulesets, aliases, canonical strings and validation.

Expectations come from RULES.md: section E.1's switch table is transcribed below cell by cell
(as text, exactly as the table writes it) and converted to values by this file's own reader,
not by :mod:`pachisi.rules.ruleset`. Test names carry the rule IDs they check.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pachisi.rules.board import NUM_SQUARES, square_name
from pachisi.rules.choices import Teams
from pachisi.rules.ruleset import (
    ALIASES,
    NAMED,
    SWITCH_BY_KEY,
    SWITCHES,
    Ruleset,
    RulesetError,
    derive,
    describe,
    get_ruleset,
    parse_ruleset,
    parse_value,
    ruleset_string,
    validate,
)

# --------------------------------------------------------------------------- E.1, transcribed

E1_COLUMNS = ("classic", "wikipedia-full", "herklots-6", "herklots-7", "tylor-1879", "ludii")
NA = "—"
"""E.1: "not applicable": the key has no effect in this ruleset; nothing is checked."""

# key: one cell per column of E1_COLUMNS, as RULES.md E.1 writes it. Parenthesised remarks
# ("(c)", "(alt 35, D-08)", "(a pyada step 0→1)", ...) are left out; they carry no value.
E1_TABLE: dict[str, tuple[str, ...]] = {
    "cowries": ("6", "7", "6", "7", "6", "6"),
    "score_table": (
        "25,10,2,3,4,5,6",
        "7,10,2,3,4,25,30,14",
        "6,10,2,3,4,25,12",
        "6,10,2,3,4,25,30,12",
        "6,10,2,3,4,25,12",
        "25,10,2,3,4,5,6",
    ),
    "six_up_value": (NA, "30", NA, "30", NA, NA),
    "reroll_values": (
        "6,10,25",
        "7,10,25,30,14",
        "6,10,25,12",
        "6,10,25,30,12",
        "6,10,25,12",
        "6,10,25",
    ),
    "entry_values": ("6,10,25", "10,25,30", "none", "none", "10,25", "6,10,25"),
    "entry_mode": (
        "consume",
        "consume",
        "count_from_charkoni",
        "count_from_charkoni",
        "count_from_charkoni",
        "consume",
    ),
    "first_piece_free": ("travel", "travel", "off", "off", "off", "ludii_forced"),
    "seven_fourteen_needs_piece": (NA, "void", NA, NA, NA, NA),
    "grace_must_enter": ("false", "false", "false", "false", "false", "false"),
    "first_player": ("throw_off", "throw_off", "throw_off", "throw_off", "throw_off", "seat0"),
    "throw_usage": ("immediate", "collect", "collect", "collect", "immediate", "immediate"),
    "split_throw": ("none", "split", "none", "none", "none", "none"),
    "moves_compulsory": ("false", "false", "false", "false", "false", "false"),
    "unusable_throw": (
        "forfeit_throw",
        "forfeit_throw",
        "forfeit_throw",
        "forfeit_throw",
        "forfeit_throw",
        "forfeit_throw",
    ),
    "track": ("traditional", "traditional", "traditional", "traditional", "traditional", "ludii"),
    "castle_mode": ("block", "block", "block", "block", "block", "inert"),
    "stacking": ("all", "all", "all", "all", "all", "all"),
    "capture_scope": ("all", "all", "all", "all", "all", "top_one"),
    "stack_immune": ("false", "false", "false", "false", "true", "false"),
    "capture_bonus": ("true", "true", "true", "true", "true", "false"),
    "kill_before_home": ("false", "seat", "false", "false", "false", "false"),
    "recapture_annul": ("false", "true", "false", "false", "false", "false"),
    "last_square_exit": ("6,10,25", "10,25,30", "none", "none", "10,25", "ludii"),
    "triple_cancel": ("off", "group", "same", "same", "off", "off"),
    "big_values": (NA, "10,25,30", NA, NA, NA, NA),
    "triple_scope": (NA, "three", "three", "three", NA, NA),
    "pyada": ("off", "on", "on", "on", "off", "off"),
    "pyada_values": (NA, "10,25,30", "25", "25,30", NA, NA),
    "pyada_condition": (NA, "all_entered", "always", "always", NA, NA),
    "pyada_use": (NA, "free", "free", "free", NA, NA),
    "pyada_can_enter": (NA, "false", "true", "true", NA, NA),
    "players": ("4", "4", "4", "4", "4", "4"),
    "teams": ("pairs", "pairs", "pairs", "pairs", "pairs", "pairs"),
    "finished_seat": ("skip", "skip", "skip", "skip", "skip", "skip"),
    "extra_lap": ("false", "false", "false", "false", "false", "false"),
    "blockade": ("false", "false", "false", "false", "false", "false"),
    "deadlock": ("draw", "draw", "draw", "draw", "draw", "draw"),
    "p_mouth_up": ("0.5", "0.5", "0.5", "0.5", "0.5", "0.5"),  # E.1 row `P_MOUTH_UP`
}

_E1_BOOLS = {"on": True, "true": True, "off": False, "false": False}
_E1_SET_KEYS = {"reroll_values", "entry_values", "big_values", "pyada_values"}
_E1_BOOL_KEYS = {
    "grace_must_enter",
    "moves_compulsory",
    "stack_immune",
    "capture_bonus",
    "recapture_annul",
    "pyada",
    "pyada_can_enter",
    "extra_lap",
    "blockade",
}


def _e1_set(cell: str) -> frozenset[int]:
    return frozenset() if cell == "none" else frozenset(int(x) for x in cell.split(","))


def e1_value(key: str, cell: str) -> Any:
    """The value an E.1 cell stands for (independent of ruleset.py's own parser)."""
    if key in ("cowries", "six_up_value", "players"):
        return int(cell)
    if key == "score_table":
        return tuple(int(x) for x in cell.split(","))
    if key in _E1_SET_KEYS:
        return _e1_set(cell)
    if key in _E1_BOOL_KEYS:
        return _E1_BOOLS[cell]
    if key == "last_square_exit":
        return cell if cell == "ludii" else _e1_set(cell)
    if key == "p_mouth_up":
        return Fraction(cell)
    return cell


def test_e1_table_covers_every_switch() -> None:
    """E.1 has a row for every switch the code offers, and the code a switch for every row."""
    assert set(E1_TABLE) == set(SWITCH_BY_KEY)
    assert all(len(cells) == len(E1_COLUMNS) for cells in E1_TABLE.values())


def test_e1_every_ruleset_field_is_a_switch() -> None:
    """Every field of Ruleset (except its name) is one of E.1's switches."""
    fields = {f.name for f in dataclasses.fields(Ruleset)} - {"name"}
    assert fields == set(SWITCH_BY_KEY)
    assert len(SWITCHES) == len(SWITCH_BY_KEY), "a switch key is listed twice"


def test_e1_named_rulesets_are_exactly_the_six_columns() -> None:
    assert tuple(NAMED) == E1_COLUMNS
    for name, r in NAMED.items():
        assert r.name == name


E1_CELLS = [
    pytest.param(name, key, cells[i], id=f"{name}-{key}")
    for i, name in enumerate(E1_COLUMNS)
    for key, cells in E1_TABLE.items()
    if cells[i] != NA
]


@pytest.mark.parametrize(("name", "key", "cell"), E1_CELLS)
def test_e1_named_ruleset_matches_switch_table(name: str, key: str, cell: str) -> None:
    """E.1: every named ruleset has the switch value of its column, row by row."""
    r = get_ruleset(name)
    got = getattr(r, key)
    want = e1_value(key, cell)
    if isinstance(want, frozenset):
        got = frozenset(got) if not isinstance(got, str) else got
    assert got == want, f"{name}.{key}: {got!r} != E.1 {cell!r}"


@pytest.mark.parametrize("name", E1_COLUMNS)
def test_e1_named_ruleset_is_valid(name: str) -> None:
    validate(NAMED[name])


@pytest.mark.parametrize("name", E1_COLUMNS)
def test_r_throw_table_score_table_has_one_value_per_k(name: str) -> None:
    """R-THROW-TABLE: values for k = 0..n mouths up."""
    r = NAMED[name]
    assert len(r.score_table) == r.cowries + 1


def test_r_throw_table_classic_values() -> None:
    """R-THROW-TABLE: classic 6 cowries, 0→25, 1→10, k→k for k = 2..6."""
    r = get_ruleset("classic")
    assert r.cowries == 6
    assert r.score_table == (25, 10, 2, 3, 4, 5, 6)
    assert r.p_mouth_up == Fraction(1, 2)


def test_v_grace_set_7_wikipedia_full() -> None:
    """V-GRACE-SET-7: 0→7, 1→10, 2, 3, 4, 5→25, 6→30, 7→14; entry {10,25,30}; reroll adds 7, 14."""
    r = get_ruleset("wikipedia-full")
    assert r.score_table == (7, 10, 2, 3, 4, 25, 30, 14)
    assert r.entry_values == {10, 25, 30}
    assert r.reroll_values == {7, 10, 25, 30, 14}
    # V-GRACE-NO-ENTRY-7-14: 7 and 14 re-throw but never enter.
    assert not {7, 14} & r.entry_values
    # "play stops on 2, 3 or 4"
    stoppers = {v for v in r.score_table if v not in r.reroll_values}
    assert stoppers == {2, 3, 4}


# --------------------------------------------------------------------------- aliases


@pytest.mark.parametrize(("alias", "target"), sorted(ALIASES.items()))
def test_alias_resolves_to_its_named_ruleset(alias: str, target: str) -> None:
    assert target in NAMED
    assert get_ruleset(alias) == NAMED[target]
    assert parse_ruleset(alias) == NAMED[target]
    assert parse_ruleset(alias.upper()) == NAMED[target]
    assert str(parse_ruleset(alias)) == target
    assert parse_ruleset(f"{alias}+capture_bonus=false") == derive(
        NAMED[target], {"capture_bonus": False}
    )


def test_aliases_do_not_shadow_named_rulesets() -> None:
    assert not set(ALIASES) & set(NAMED)


def test_alias_examples_from_module_doc() -> None:
    assert str(parse_ruleset("tylor")) == "tylor-1879"
    assert parse_ruleset("default") == NAMED["classic"]


# --------------------------------------------------------------------------- canonical strings


@pytest.mark.parametrize("name", E1_COLUMNS)
def test_canonical_string_of_named_ruleset_is_its_name(name: str) -> None:
    r = NAMED[name]
    assert str(r) == name
    assert ruleset_string(r) == name
    assert parse_ruleset(str(r)) == r
    assert str(parse_ruleset(name)) == name


CANONICAL_EXAMPLES = [
    "classic+capture_bonus=false",
    "classic+cowries=7",
    "classic+cowries=7+six_up_value=35",
    "wikipedia-full+six_up_value=35",
    "herklots-7+six_up_value=35",
    "classic+entry_mode=count_from_charkoni",
    "classic+kill_before_home=team+recapture_annul=true",
    "classic+pyada=true+pyada_use=attached",
    "classic+stacking=castles_only",
    "classic+stacking=j8,j1",
    "classic+last_square_exit=none",
    "classic+triple_cancel=same",
    "classic+players=2",
    "classic+teams=individual",
    "classic+extra_lap=true+blockade=true",
    "classic+p_mouth_up=2/5",
    "wikipedia-full+throw_usage=immediate+pyada_use=attached",
    "tylor-1879+stack_immune=false",
    "ludii+capture_bonus=true",
]


@pytest.mark.parametrize("text", CANONICAL_EXAMPLES)
def test_canonical_string_round_trip_examples(text: str) -> None:
    r = parse_ruleset(text)
    assert str(r) == text
    assert parse_ruleset(str(r)) == r


def test_canonical_string_drops_switches_equal_to_the_base() -> None:
    r = parse_ruleset("classic+capture_bonus=true+cowries=6+pyada=false")
    assert r == NAMED["classic"]
    assert str(r) == "classic"


def test_canonical_string_orders_switches_as_the_table() -> None:
    r = parse_ruleset("classic+blockade=true+extra_lap=true+cowries=7")
    assert str(r) == "classic+cowries=7+extra_lap=true+blockade=true"


def test_p_mouth_up_decimal_text_is_exact() -> None:
    """R-THROW-TABLE: P_MOUTH_UP is a probability; 0.4 is read exactly as 2/5."""
    r = parse_ruleset("classic+p_mouth_up=0.4")
    assert r.p_mouth_up == Fraction(2, 5)
    assert str(r) == "classic+p_mouth_up=2/5"


_SQUARE_NAMES = [square_name(sq) for sq in range(NUM_SQUARES)]
_SET_TEXTS = [
    "none",
    "6,10,25",
    "10,25",
    "25",
    "25,30",
    "10,25,30",
    "10,25,35",
    "6,10,25,12",
    "6,10,25,30,12",
    "7,10,25,30,14",
    "12",
    "7,14",
]
_TABLE_TEXTS = [
    "25,10,2,3,4,5,6",
    "6,10,2,3,4,25,12",
    "10,25,2,3,4,5,6",
    "7,10,2,3,4,25,30,14",
    "6,10,2,3,4,25,30,12",
    "7,10,2,3,4,25,35,14",
]


def _p_text(p: Fraction) -> str:
    return str(p)


@st.composite
def switch_change(draw: st.DrawFn) -> tuple[str, str]:
    """One ``key=value`` change: a SWITCHES choice, or a plausible free-form value."""
    switch = draw(st.sampled_from(SWITCHES))
    key = switch.key
    if switch.choices:
        return key, draw(st.sampled_from(switch.choices))
    if key == "score_table":
        return key, draw(st.sampled_from(_TABLE_TEXTS))
    if key == "last_square_exit":
        return key, draw(st.sampled_from(["ludii", *_SET_TEXTS]))
    if key == "stacking":
        fixed = st.sampled_from(["all", "castles_only", "none"])
        squares = st.lists(st.sampled_from(_SQUARE_NAMES), min_size=1, max_size=4).map(",".join)
        return key, draw(st.one_of(fixed, squares))
    if key == "p_mouth_up":
        p = draw(
            st.fractions(min_value=Fraction(1, 20), max_value=Fraction(19, 20), max_denominator=20)
        )
        return key, _p_text(p)
    return key, draw(st.sampled_from(_SET_TEXTS))


@st.composite
def ruleset_text(draw: st.DrawFn) -> str:
    base = draw(st.sampled_from([*E1_COLUMNS, *sorted(ALIASES)]))
    changes = draw(
        st.lists(switch_change(), max_size=5, unique_by=lambda kv: kv[0]),
    )
    return "+".join([base, *(f"{k}={v}" for k, v in changes)])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset_text())
def test_canonical_string_round_trip_for_random_switch_changes(text: str) -> None:
    """``parse_ruleset(str(r)) == r`` and ``str(parse_ruleset(s)) == s`` for canonical ``s``."""
    try:
        r = parse_ruleset(text)
    except RulesetError:
        event("refused")
        return
    event("valid")
    s = str(r)
    again = parse_ruleset(s)
    assert again == r, f"{text!r} -> {s!r} parses to a different ruleset"
    assert str(again) == s
    assert s.split("+")[0] in NAMED
    # describe() shows every value in a text that reads back to the same value.
    for row in describe(r):
        assert parse_value(row["key"], row["value"]) == getattr(r, row["key"]), row


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdeilnoprstuy_+=,0123456789/.- ", max_size=40))
def test_parse_ruleset_only_ever_raises_ruleset_error(text: str) -> None:
    """Any string either parses to a valid ruleset or raises RulesetError (a ValueError)."""
    try:
        r = parse_ruleset(text)
    except RulesetError as exc:
        assert str(exc)
        return
    validate(r)
    assert parse_ruleset(str(r)) == r


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_parse_ruleset_any_text_only_raises_ruleset_error(text: str) -> None:
    for candidate in ("classic+" + text, text):
        try:
            r = parse_ruleset(candidate)
        except RulesetError:
            continue
        assert parse_ruleset(str(r)) == r


# --------------------------------------------------------------------------- D-08 and cowries


_SEVEN_SIX_UP_SETS = ("reroll_values", "entry_values", "big_values", "pyada_values")


@pytest.mark.parametrize(
    "text",
    [
        "wikipedia-full+six_up_value=35",
        "herklots-7+six_up_value=35",
        "classic+cowries=7+six_up_value=35",
        "classic+six_up_value=35+cowries=7",
        "wikipedia-full+throw_usage=immediate+six_up_value=35",
    ],
)
def test_d08_six_up_value_35_replaces_30_everywhere(text: str) -> None:
    """D-08 / V-GRACE-SET-7: with 35, 35 takes 30's place in score_table and every value set."""
    r = parse_ruleset(text)
    base = parse_ruleset(text.replace("+six_up_value=35", ""))
    assert r.six_up_value == 35
    assert base.six_up_value == 30
    assert r.score_table[6] == 35
    assert 30 not in r.score_table
    assert r.score_table[:6] + r.score_table[7:] == base.score_table[:6] + base.score_table[7:]
    for key in _SEVEN_SIX_UP_SETS:
        want = frozenset(35 if v == 30 else v for v in getattr(base, key))
        assert getattr(r, key) == want, key
    exits = r.last_square_exit
    assert isinstance(exits, frozenset)
    assert exits == frozenset(35 if v == 30 else v for v in base.last_square_exit)  # type: ignore[union-attr]
    # Nothing else changes.
    others = set(SWITCH_BY_KEY) - {"six_up_value", "score_table", "last_square_exit"}
    for key in others - set(_SEVEN_SIX_UP_SETS):
        assert getattr(r, key) == getattr(base, key), key


def test_d08_wikipedia_full_35_values() -> None:
    """D-08: wikipedia-full + 35: table 7,10,2,3,4,25,35,14; entry/exit {10,25,35}."""
    r = parse_ruleset("wikipedia-full+six_up_value=35")
    assert r.score_table == (7, 10, 2, 3, 4, 25, 35, 14)
    assert r.entry_values == {10, 25, 35}
    assert r.reroll_values == {7, 10, 25, 35, 14}
    assert r.last_square_exit == {10, 25, 35}
    assert r.big_values == {10, 25, 35}
    assert r.pyada_values == {10, 25, 35}


def test_d08_six_up_value_order_independent() -> None:
    a = parse_ruleset("classic+cowries=7+six_up_value=35")
    b = parse_ruleset("classic+six_up_value=35+cowries=7")
    assert a == b
    assert str(a) == str(b) == "classic+cowries=7+six_up_value=35"


def test_d08_six_up_value_back_to_30() -> None:
    r = parse_ruleset("wikipedia-full+six_up_value=35")
    back = derive(r, {"six_up_value": 30})
    assert dataclasses.replace(back, name="wikipedia-full") == NAMED["wikipedia-full"]


def test_v_grace_set_7_cowries_7_on_classic_switches_to_a_seven_cowrie_table() -> None:
    """V-GRACE-SET-7: classic + cowries=7 plays the seeds' seven-cowrie values (six up = 30)."""
    r = parse_ruleset("classic+cowries=7")
    assert r.cowries == 7
    assert r.score_table == (7, 10, 2, 3, 4, 25, 30, 14)
    assert r.six_up_value == 30
    assert r.entry_values == {10, 25, 30}
    assert r.reroll_values == {7, 10, 25, 30, 14}
    # V-TRIPLE-CANCEL: big_values default {10, 25, 30|35} with 7 cowries; pyada_values = big_values.
    assert r.big_values == {10, 25, 30}
    assert r.pyada_values == r.big_values
    # R-LAST-SQUARE-EXIT / D-18: on with the entry graces.
    assert r.last_square_exit == r.entry_values
    # The rest of classic stays.
    assert r.throw_usage == "immediate"
    assert r.triple_cancel == "off"
    assert r.pyada is False
    validate(r)


def test_d08_derive_cowries_7_with_six_up_value_35() -> None:
    """D-08: with six_up_value = 35, 35 takes 30's place, however the ruleset was built."""
    r = derive(parse_ruleset("classic"), {"six_up_value": 35, "cowries": 7})
    assert r.six_up_value == 35
    assert r.score_table == (7, 10, 2, 3, 4, 25, 35, 14)
    assert r.entry_values == {10, 25, 35}
    assert r.reroll_values == {7, 10, 25, 35, 14}
    assert r == parse_ruleset("classic+cowries=7+six_up_value=35")


def test_r_throw_table_cowries_6_on_seven_cowrie_ruleset_gets_a_six_cowrie_table() -> None:
    r = parse_ruleset("wikipedia-full+cowries=6")
    assert r.cowries == 6
    assert len(r.score_table) == 7
    assert set(r.entry_values) <= set(r.score_table)
    assert set(r.reroll_values) <= set(r.score_table)
    assert parse_ruleset(str(r)) == r


# E.1 "—": the key has no effect in the ruleset; a change that brings it into effect gets the
# default of section C.
SECTION_C_DEFAULTS = [
    ("classic+cowries=7", "six_up_value", 30),  # V-GRACE-SET-7 / D-08
    ("classic+cowries=7", "seven_fourteen_needs_piece", "void"),  # V-7-14-NEEDS-PIECE
    ("classic+triple_cancel=group", "big_values", {10, 25}),  # V-TRIPLE-CANCEL, 6 cowries
    ("classic+cowries=7+triple_cancel=group", "big_values", {10, 25, 30}),  # 7 cowries
    ("classic+cowries=7+six_up_value=35+triple_cancel=group", "big_values", {10, 25, 35}),
    ("herklots-6+triple_cancel=group", "big_values", {10, 25}),
    ("tylor-1879+triple_cancel=group", "big_values", {10, 25}),
    ("classic+triple_cancel=group", "triple_scope", "three"),
    ("classic+pyada=true", "pyada_values", {10, 25}),  # V-PYADA: default big_values
    ("classic+cowries=7+pyada=true", "pyada_values", {10, 25, 30}),
    ("tylor-1879+pyada=true", "pyada_values", {10, 25}),
    ("classic+pyada=true", "pyada_condition", "all_entered"),
    ("classic+pyada=true", "pyada_use", "free"),
    ("classic+pyada=true", "pyada_can_enter", False),
    ("classic+pyada=true+big_values=25", "pyada_values", {25}),  # V-PYADA: follows big_values
    ("classic+big_values=6,10,25+pyada=true", "pyada_values", {6, 10, 25}),
]


@pytest.mark.parametrize(
    ("text", "key", "want"),
    SECTION_C_DEFAULTS,
    ids=[f"{text}-{key}" for text, key, _ in SECTION_C_DEFAULTS],
)
def test_e1_dash_key_brought_into_effect_gets_its_section_c_default(
    text: str, key: str, want: Any
) -> None:
    got = getattr(parse_ruleset(text), key)
    if isinstance(want, set):
        got = set(got)
    assert got == want


# --------------------------------------------------------------------------- invalid combinations


def _refused(text: str) -> str:
    with pytest.raises(RulesetError) as info:
        parse_ruleset(text)
    return str(info.value)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        # V-RECAPTURE-ANNUL: only meaningful together with V-KILL-BEFORE-HOME.
        ("classic+recapture_annul=true", ("recapture_annul", "kill_before_home")),
        # V-PYADA: attached is immediate mode only.
        (
            "classic+pyada=true+pyada_use=attached+throw_usage=collect",
            ("pyada_use", "throw_usage"),
        ),
        ("wikipedia-full+pyada_use=attached", ("pyada_use", "throw_usage")),
        # R-LAST-SQUARE-EXIT: `ludii` used only with track = ludii.
        ("classic+last_square_exit=ludii", ("last_square_exit", "track")),
        # V-TWO-PLAYER with V-INDIVIDUAL.
        ("classic+players=2+teams=individual", ("players", "teams")),
        # R-THROW-TABLE: values for k = 0..n.
        ("classic+score_table=25,10,2,3,4,5", ("score_table", "cowries")),
        ("classic+score_table=25,10,2,3,4,5,6,7", ("score_table", "cowries")),
        ("wikipedia-full+score_table=25,10,2,3,4,5,6", ("score_table", "cowries")),
        # R-GRACE-ENTRY / R-GRACE-REPEAT / R-LAST-SQUARE-EXIT: values of the table.
        ("classic+entry_values=6,10,11", ("entry_values", "11")),
        ("classic+entry_values=30", ("entry_values", "30")),
        ("classic+reroll_values=7", ("reroll_values", "7")),
        ("classic+last_square_exit=30", ("last_square_exit", "30")),
        ("classic+score_table=7,10,2,3,4,5,12", ("entry_values", "reroll_values", "25")),
    ],
)
def test_invalid_combination_is_refused_naming_the_switches(
    text: str, names: tuple[str, ...]
) -> None:
    msg = _refused(text)
    for name in names:
        assert name in msg, f"{text!r}: message {msg!r} does not name {name!r}"


def test_invalid_combination_is_refused_by_derive_and_validate_too() -> None:
    with pytest.raises(RulesetError, match="recapture_annul"):
        derive(NAMED["classic"], {"recapture_annul": True})
    bad = dataclasses.replace(NAMED["classic"], players=2, teams=Teams.INDIVIDUAL)
    with pytest.raises(RulesetError, match="players"):
        validate(bad)


def test_ruleset_error_is_a_value_error() -> None:
    assert issubclass(RulesetError, ValueError)


def test_v_recapture_annul_with_kill_before_home_is_accepted() -> None:
    for kbh in ("seat", "team"):
        r = parse_ruleset(f"classic+kill_before_home={kbh}+recapture_annul=true")
        assert r.recapture_annul and r.kill_before_home == kbh


def test_v_pyada_attached_in_immediate_mode_is_accepted() -> None:
    r = parse_ruleset("classic+pyada=true+pyada_use=attached")
    assert r.pyada_use == "attached" and r.throw_usage == "immediate"


# --------------------------------------------------------------------------- malformed strings


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("bogus", ("unknown ruleset", "bogus")),
        ("bogus+cowries=7", ("unknown ruleset", "bogus")),
        ("classic+foo=1", ("unknown switch", "foo")),
        ("classic+pyada", ("pyada", "key=value")),
        ("classic+=3", ("key=value",)),
        ("classic+", ("key=value",)),
        ("classic+pyada=yes", ("pyada", "yes")),
        ("classic+cowries=8", ("cowries", "8")),
        ("classic+cowries=seven", ("cowries", "seven")),
        ("classic+castle_mode=wall", ("castle_mode", "wall")),
        ("classic+entry_values=6,x", ("entry_values", "6,x")),
        ("classic+entry_values=0", ("entry_values",)),
        ("classic+score_table=a,b", ("score_table",)),
        ("classic+stacking=zz99", ("stacking", "zz99")),
        ("classic+pyada=true+pyada=false", ("pyada", "twice")),
        ("classic+cowries=6+cowries=6", ("cowries", "twice")),
        ("", ("empty",)),
        ("   ", ("empty",)),
        ("classic+p_mouth_up=1", ("p_mouth_up", "1")),
        ("classic+p_mouth_up=0", ("p_mouth_up", "0")),
        ("classic+p_mouth_up=3/2", ("p_mouth_up", "3/2")),
        ("classic+p_mouth_up=-0.1", ("p_mouth_up",)),
        ("classic+p_mouth_up=1.5", ("p_mouth_up",)),
        ("classic+p_mouth_up=half", ("p_mouth_up", "half")),
        ("classic+p_mouth_up=1/0", ("p_mouth_up",)),
    ],
)
def test_malformed_string_raises_ruleset_error_with_clear_message(
    text: str, fragments: tuple[str, ...]
) -> None:
    msg = _refused(text)
    for fragment in fragments:
        assert fragment in msg, f"{text!r}: message {msg!r} lacks {fragment!r}"


def test_unknown_ruleset_message_lists_the_known_names() -> None:
    msg = _refused("bogus")
    for name in NAMED:
        assert name in msg


def test_unknown_switch_message_lists_the_known_switches() -> None:
    msg = _refused("classic+foo=1")
    for key in SWITCH_BY_KEY:
        assert key in msg


# --------------------------------------------------------------------------- describe()

# Which RULES.md items declare each key (C.1 .. C.9; sub-items such as V-TRIPLE-HIGH and
# V-GRACE-MUST-ENTER are defined inside the item that declares their key).
KEY_RULES: dict[str, set[str]] = {
    "cowries": {"R-THROW-TABLE", "V-GRACE-SET-7"},
    "score_table": {"R-THROW-TABLE"},
    "six_up_value": {"V-GRACE-SET-7", "D-08"},
    "reroll_values": {"R-GRACE-REPEAT"},
    "entry_values": {"R-GRACE-ENTRY"},
    "entry_mode": {"R-ENTRY-CONSUMES"},
    "first_piece_free": {"R-FIRST-PIECE-FREE"},
    "seven_fourteen_needs_piece": {"V-7-14-NEEDS-PIECE"},
    "grace_must_enter": {"V-GRACE-MUST-ENTER"},
    "first_player": {"V-FIRST-PLAYER-FIXED"},
    "throw_usage": {"V-COLLECT-THROWS"},
    "split_throw": {"V-SPLIT-THROW"},
    "moves_compulsory": {"V-MOVE-COMPULSORY"},
    "unusable_throw": {"R-UNUSABLE-THROW"},
    "track": {"R-TRACK"},
    "castle_mode": {"R-CASTLE-BLOCK"},
    "stacking": {"V-STACK-RESTRICTED"},
    "capture_scope": {"R-CAPTURE"},
    "stack_immune": {"V-STACK-IMMUNE"},
    "capture_bonus": {"V-CAPTURE-BONUS"},
    "kill_before_home": {"V-KILL-BEFORE-HOME"},
    "recapture_annul": {"V-RECAPTURE-ANNUL"},
    "last_square_exit": {"R-LAST-SQUARE-EXIT"},
    "triple_cancel": {"V-TRIPLE-CANCEL"},
    "big_values": {"V-TRIPLE-CANCEL", "V-TRIPLE-HIGH"},
    "triple_scope": {"V-TRIPLE-CANCEL"},
    "pyada": {"V-PYADA"},
    "pyada_values": {"V-PYADA"},
    "pyada_condition": {"V-PYADA"},
    "pyada_use": {"V-PYADA"},
    "pyada_can_enter": {"V-PYADA"},
    "players": {"V-TWO-PLAYER"},
    "teams": {"V-INDIVIDUAL"},
    "finished_seat": {"R-FINISHED-SEAT", "V-PARTNER-THROWS"},
    "extra_lap": {"V-EXTRA-LAP"},
    "blockade": {"V-BLOCKADE"},
    "deadlock": {"R-DEADLOCK"},
    "p_mouth_up": {"R-THROW-TABLE"},
}


@pytest.mark.parametrize("name", E1_COLUMNS)
def test_describe_covers_every_switch_with_its_rule_id(name: str) -> None:
    r = NAMED[name]
    rows = describe(r)
    assert [row["key"] for row in rows] == [s.key for s in SWITCHES]
    assert set(KEY_RULES) == set(SWITCH_BY_KEY)
    classic = NAMED["classic"]
    for row in rows:
        key = row["key"]
        assert re.fullmatch(r"[RV]-[A-Z0-9]+(-[A-Z0-9]+)*", row["rule"]), row
        assert row["rule"] in KEY_RULES[key], f"{key}: rule {row['rule']} not in RULES.md's"
        assert parse_value(key, row["value"]) == getattr(r, key), row
        assert parse_value(key, row["default"]) == getattr(classic, key), row
        assert row["help"].strip(), row


def test_describe_shows_changed_values() -> None:
    rows = {row["key"]: row for row in describe(parse_ruleset("classic+cowries=7"))}
    assert rows["cowries"]["value"] == "7"
    assert rows["cowries"]["default"] == "6"
    assert rows["score_table"]["value"] == "7,10,2,3,4,25,30,14"
    assert rows["entry_values"]["value"] == "10,25,30"
    rows = {row["key"]: row for row in describe(NAMED["herklots-6"])}
    assert rows["entry_values"]["value"] == "none"
    assert rows["last_square_exit"]["value"] == "none"
    rows = {row["key"]: row for row in describe(NAMED["ludii"])}
    assert rows["last_square_exit"]["value"] == "ludii"


def test_describe_notes_exactly_the_values_that_cannot_be_written_back() -> None:
    # Issue 47: a value that `pachisi rules` shows is either written back into the ruleset
    # string as it is (giving the same ruleset) or noted with the refusal's reason: an idle
    # switch (RULES.md E.1's "—"), or pyada_values that only follows big_values (V-PYADA).
    from tests.rules.random_rulesets import random_rulesets

    for r in [*NAMED.values(), *random_rulesets(47, 60)]:
        head, *parts = str(r).split("+")
        for row in describe(r):
            key = row["key"]
            rest = [part for part in parts if part.partition("=")[0] != key]
            text = "+".join([head, *rest, f"{key}={row['value']}"])
            try:
                again = parse_ruleset(text)
            except RulesetError as exc:
                assert row["note"], text
                assert str(exc).removeprefix("invalid ruleset: ") in row["note"], text
                continue
            assert again == r and not row["note"], text


def test_rulesets_are_equal_exactly_when_every_switch_is_equal() -> None:
    # Ruleset keeps its fields' tuple and hash for the compiled engine's caches, and
    # compares through them: the answer must stay the dataclass's, field by field.
    from tests.rules.random_rulesets import random_rulesets

    rulesets = [*NAMED.values(), *random_rulesets(23, 40)]
    for a in rulesets:
        again = parse_ruleset(str(a))
        assert again is not a and again == a and hash(again) == hash(a)
        assert (again != a) is False
        for b in rulesets:
            fields_equal = all(
                getattr(a, f.name) == getattr(b, f.name) for f in dataclasses.fields(Ruleset)
            )
            assert (a == b) is fields_equal
            assert (a != b) is not fields_equal
    changed = dataclasses.replace(NAMED["classic"], stack_immune=True)
    assert changed != NAMED["classic"]
    assert NAMED["classic"] != "classic" and NAMED["classic"] != object()
