"""Tests for the position string (pachisi.notation.position): round trips, bad input, and
the edge cases of issue 5 (ASCII digits, separators, byte-order mark, size, excerpts)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pachisi.notation import MAX_POSITION_LENGTH, NotationError, read_position, write_position
from pachisi.rules import engine
from pachisi.rules.board import square_name, square_of
from pachisi.rules.ruleset import MAX_RULESET_LENGTH, NAMED, parse_ruleset
from pachisi.rules.state import CaptureRecord, Stage, State
from tests.notation.helpers import (
    FRESH,
    GAMES,
    STATE_FIELDS,
    VARIANTS,
    assert_position_round_trips,
    play,
    short_id,
)

ALL_RULESETS = (*NAMED, *VARIANTS)


def test_fresh_game_position_is_short() -> None:
    assert write_position(engine.new_game(NAMED["classic"])) == f"{FRESH} o0 1 classic"
    assert write_position(engine.new_game(NAMED["ludii"])) == f"{FRESH} t0 1 ludii"
    r = parse_ruleset("wikipedia")
    assert write_position(engine.new_game(r)) == f"{FRESH} o0 1 wikipedia-full"


@settings(GAMES, max_examples=12)
@given(ruleset=st.sampled_from(sorted(NAMED)), seed=st.integers(0, 2**32 - 1))
def test_position_round_trip_every_ruleset(ruleset: str, seed: int) -> None:
    states, _ = play(ruleset, seed)
    for state in states:
        assert_position_round_trips(state)


def test_position_round_trip_fixed_games_reach_every_field() -> None:
    """One fixed game per ruleset: round trips, and together they set every field and stage.

    This guards the random tests above: if the sample stopped reaching a field, its round
    trip would go untested without anyone noticing.
    """
    seen: set[str] = set()
    defaults = State._field_defaults
    for ruleset in ALL_RULESETS:
        states, _ = play(ruleset, 0)
        for state in states:
            assert_position_round_trips(state)
            seen.add(state.stage.name)
            seen.update(
                n for n in STATE_FIELDS if n in defaults and getattr(state, n) != defaults[n]
            )
    wanted = {name for name in STATE_FIELDS if name in defaults} | {s.name for s in Stage}
    assert wanted - seen == set()


def test_position_round_trip_variant_rulesets_from_random_seeds() -> None:
    rng = random.Random(2024)
    for ruleset in VARIANTS:
        states, _ = play(ruleset, rng.randrange(2**32))
        for state in states:
            assert_position_round_trips(state)


def test_position_writes_every_optional_field_in_canonical_form() -> None:
    """The writer's order and formats, on a state built by hand (so not a reachable one:
    no game has every field set at once, and the reader refuses what no game reaches)."""
    ruleset = parse_ruleset(
        "classic+split_throw=split+triple_cancel=group+pyada=true+extra_lap=true"
    )
    state = State(
        ruleset,
        (83, 60, 0, 0) + (0,) * 12,
        Stage.ACT,
        0,
        9,
        laps=0b1,
        entered=0b1,
        kills=(1, 0, 0, 0),
        throw_k=5,
        again=True,
        captured=True,
        pyadas=1,
        run=(1, 2),
        split_left=3,
        split_value=4,
        split_used=0b10,
    )
    text = (
        "83,60,0,0/0,0,0,0/0,0,0,0/0,0,0,0 a0 9 k=5 again=true captured=true pyadas=1 "
        "run=1x2 split=3/4:b entered=0 kills=1,0,0,0 laps=0a "
        "classic+split_throw=split+triple_cancel=group+pyada=true+extra_lap=true"
    )
    assert write_position(state) == text
    with pytest.raises(NotationError, match="split"):
        read_position(text)  # the split 4 is not the pending throw 5 (k=5)


def test_position_records_and_throwoff_fields() -> None:
    rules = "classic+kill_before_home=seat+recapture_annul=true"
    board = "16,16,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 7"
    square = square_of(0, 16)
    text = f"{board} entered=0 kills=1,0,0,0 records=0ab@{square_name(square)}x13t6 {rules}"
    state = read_position(text)
    assert state.records == (CaptureRecord(0, 0b11, square, 0b1010, 6),)
    assert write_position(state) == text
    throwoff = read_position(f"{FRESH} o2 1 throwoff=25,-,?,- classic")
    assert throwoff.throwoff == (25, -2, -1, -2)


def test_read_position_accepts_extra_whitespace_and_any_key_order() -> None:
    text = f"  {FRESH}   a1  4 entered=0,1   k=3 classic  "
    state = read_position(text)
    assert write_position(state) == f"{FRESH} a1 4 k=3 entered=0,1 classic"


BAD_POSITIONS = [
    # (text, field, column)
    ("", "position", 1),
    (f"{FRESH} t0 classic", "position", 43),
    ("0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 classic", "pieces", 1),
    ("0,0,0,85/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 classic", "pieces", 7),
    ("0,0,0,0/0,x,0,0/0,0,0,0/0,0,0,0 t0 1 classic", "pieces", 11),
    ("0,0,0,0/0,0,0,0/0,0,0,0 t0 1 classic", "pieces", 1),
    (f"{FRESH} t4 1 classic", "side", 34),
    (f"{FRESH} q0 1 classic", "side", 33),
    (f"{FRESH} t0 0 classic", "turn", 36),
    (f"{FRESH} t0 1 clasic", "ruleset", 38),
    (f"{FRESH} t0 1 k=3", "ruleset", 38),
    (f"{FRESH} a0 1 k=7 classic", "k", 40),
    (f"{FRESH} a0 1 classic", "k", 0),
    (f"{FRESH} t0 1 k=3 classic", "k", 40),
    (f"{FRESH} t0 1 colour=red classic", "colour", 38),
    (f"{FRESH} t0 1 entered=0 entered=1 classic", "entered", 48),
    (f"{FRESH} t0 1 entered=0,4 classic", "entered", 48),
    (f"{FRESH} t0 1 kills=1,2,3 classic", "kills", 44),
    (f"{FRESH} t0 1 again=yes classic", "again", 44),
    (f"{FRESH} t0 1 items=3 classic", "items", 44),
    (f"{FRESH} s0 1 items=11 wikipedia-full", "items", 44),
    (f"{FRESH} t0 1 run=1x4 wikipedia-full", "run", 44),
    (f"{FRESH} s0 1 split=5/4 wikipedia-full", "split", 44),
    (f"{FRESH} o1 1 throwoff=4,4,?,? classic", "throwoff", 47),
    (f"{FRESH} t1 2 throwoff=4,?,?,? classic", "throwoff", 47),
    (f"{FRESH} x0 9 classic", "winner", 0),
    (f"{FRESH} x0 9 winner=2 classic", "winner", 45),
    (f"{FRESH} t0 9 laps=0a classic+extra_lap=true", "laps", 43),
    ("16,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 entered=0 order=0a,1a ludii", "order", 58),
    ("16,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 entered=0 ludii", "order", 0),
    ("16,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 entered=0 order=0a classic", "order", 55),
    (
        "16,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 entered=0 records=0b@j8x1t1 "
        "classic+kill_before_home=seat+recapture_annul=true",
        "records",
        57,
    ),
    (
        "1,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 entered=0 records=0a@j8x1t3 "
        "classic+kill_before_home=seat+recapture_annul=true",
        "records",
        56,
    ),
    (
        "1,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 records=0a@j8x0t1 "
        "classic+kill_before_home=seat+recapture_annul=true",
        "records",
        46,
    ),
    (f"{FRESH} t0 1 records=0a@j8x1t1 classic", "records", 46),
    (f"{FRESH} t0 {'9' * 5000} classic", "turn", 36),
]


@pytest.mark.parametrize(("text", "field", "column"), BAD_POSITIONS)
def test_read_position_rejects_bad_input(text: str, field: str, column: int) -> None:
    with pytest.raises(NotationError) as info:
        read_position(text)
    assert (info.value.field, info.value.column) == (field, column), str(info.value)
    assert str(info.value).startswith(field)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "field", "column"),
    [
        # Issue 5's examples: no legal action; pieces out of a seat not entered; enemies in
        # a blocking castle; a throw-off after pieces moved; an impossible second lap.
        (f"{FRESH} s0 5 split=2/4 wikipedia-full", "split", 44),
        ("13,13,13,13/0,0,0,0/0,0,0,0/0,0,0,0 a0 5 k=2 order=0a,0b,0c,0d ludii", "entered", 0),
        ("8,0,0,0/59,0,0,0/0,0,0,0/0,0,0,0 t0 10 entered=0,1 classic", "pieces", 1),
        ("84,84,84,84/0,0,0,0/84,84,84,84/0,0,0,0 o0 25 classic", "pieces", 1),
        (
            "5,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 3 entered=0 laps=0a classic+extra_lap=true",
            "laps",
            53,
        ),
    ],
)
def test_read_position_refuses_a_position_no_game_reaches(
    text: str, field: str, column: int
) -> None:
    """The rules core's invariants (pachisi.rules.invariants) are checked on every read."""
    with pytest.raises(NotationError) as info:
        read_position(text)
    assert (info.value.field, info.value.column) == (field, column), str(info.value)


def test_write_position_refuses_a_state_it_cannot_express() -> None:
    state = engine.new_game(NAMED["classic"])._replace(laps=1 << 20)
    with pytest.raises(NotationError, match="laps"):
        write_position(state)


# =========================================================================== issue 5 edge cases

UNICODE_DIGITS = ["٣", "۳", "३", "৩", "３", "𝟛", "߃"]
"""Three in Arabic-Indic, Persian, Devanagari, Bengali, full-width, mathematical and N'Ko
digits: Python's ``\\d`` and ``int()`` take every one of them."""


@pytest.mark.parametrize("digit", UNICODE_DIGITS)
@pytest.mark.parametrize(
    ("template", "field", "column"),
    [
        (f"{FRESH} t{{}} 1 classic", "side", 33),
        (f"{FRESH} t0 {{}} classic", "turn", 36),
        (f"{FRESH} a0 1 k={{}} classic", "k", 40),
        ("{}" + FRESH[1:] + " t0 1 classic", "pieces", 1),
        (f"{FRESH} t0 1 kills={{}},0,0,0 classic+kill_before_home=seat", "kills", 44),
        (f"{FRESH} s0 1 items=1{{}} wikipedia-full", "items", 44),
        (f"{FRESH} t0 1 run={{}}x1 wikipedia-full", "run", 42),
    ],
)
def test_only_ascii_digits_are_numbers(template: str, field: str, column: int, digit: str) -> None:
    with pytest.raises(NotationError) as info:
        read_position(template.format(digit))
    assert (info.value.field, info.value.column) == (field, column), str(info.value)


@pytest.mark.parametrize("text", ["1_0", "+1", "-1", "0x1", "1e3", "1.0", "½"])
def test_numbers_have_no_sign_separator_fraction_or_exponent(text: str) -> None:
    with pytest.raises(NotationError) as info:
        read_position(f"{FRESH} t0 {text} classic")
    assert (info.value.field, info.value.column) == ("turn", 36)


ODD_BLANKS = ["\u2028", "\u2029", "\x85", "\xa0", "\x0b", "\x0c", "\u3000", "\x1c"]


@pytest.mark.parametrize("blank", ODD_BLANKS)
@pytest.mark.parametrize("where", [35, 37, len(FRESH) + 13])
def test_only_spaces_and_tabs_separate_fields(blank: str, where: int) -> None:
    text = f"{FRESH} t0 1 classic"
    odd = text[: where - 1] + blank + text[where:]  # in place of a space, or at the end
    with pytest.raises(NotationError) as info:
        read_position(odd)
    assert (info.value.field, info.value.column) == ("position", where)
    assert f"U+{ord(blank):04X}" in str(info.value)


def test_tabs_separate_fields_and_a_line_break_may_end_the_string() -> None:
    state = read_position(f"\t{FRESH}\tt0 \t1\tclassic\r\n")
    assert write_position(state) == f"{FRESH} t0 1 classic"
    with pytest.raises(NotationError, match="single line"):
        read_position(f"{FRESH} t0\n1 classic")


def test_a_byte_order_mark_at_the_start_is_skipped_and_columns_follow_it() -> None:
    assert read_position(f"\ufeff{FRESH} t0 1 classic") == read_position(f"{FRESH} t0 1 classic")
    with pytest.raises(NotationError) as info:
        read_position(f"\ufeff{FRESH} t9 1 classic")
    assert (info.value.field, info.value.column) == ("side", 34)
    with pytest.raises(NotationError) as info:
        read_position(f"{FRESH} t0 1 \ufeffclassic")  # only at the start
    assert info.value.field == "ruleset"


def test_a_position_over_the_size_limit_is_refused_at_once() -> None:
    text = f"{FRESH} t0 1 " + "x" * MAX_POSITION_LENGTH + " classic"
    with pytest.raises(NotationError) as info:
        read_position(text)
    assert info.value.field == "position"
    assert f"{len(text):,}" in str(info.value) and f"{MAX_POSITION_LENGTH:,}" in str(info.value)


def test_the_size_limit_is_far_above_the_longest_position() -> None:
    """Every optional field at its longest, 100 collected throws and the longest ruleset
    string read: the limit leaves room to spare."""
    fields = [
        "84,84,84,84/84,84,84,84/84,84,84,84/84,84,84,84",
        "t3",
        "9" * 9,
        "k=7 again=true captured=true pyadas=999999999",
        "items=" + ",".join(["999"] * 100),
        "run=999x3 split=999/999:abcd flags=3 throwoff=999,999,999,999 winner=draw",
        "entered=0,1,2,3 kills=" + ",".join(["999999999"] * 4),
        "laps=" + ",".join(f"{s}{c}" for s in range(4) for c in "abcd"),
        "order=" + ",".join(f"{s}{c}" for s in range(4) for c in "abcd"),
        "records=" + ",".join(["0abcd@s19x123t999999999"] * 16),
        "x" * MAX_RULESET_LENGTH,
    ]
    assert len(" ".join(fields)) < MAX_POSITION_LENGTH / 2


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (f"{FRESH} t{'9' * 5000} 1 classic", "side"),
        (f"{FRESH} t0 {'9' * 5000} classic", "turn"),
        (f"{FRESH} a0 1 k={'9' * 5000} classic", "k"),
        (f"{FRESH} t0 1 kills={'9' * 5000},0,0,0 classic+kill_before_home=seat", "kills"),
        (f"{FRESH} t0 99999999999999999999 classic", "turn"),
        (f"{FRESH} t0 1 {'k' * 5000}=1 classic", "k" * 24),
        (f"{FRESH} t0 1 again={'y' * 5000} classic", "again"),
        (f"{FRESH} t0 1 {'z' * 5000} classic", "z" * 24),
        (f"{FRESH} t0 1 order={'0a,' * 1000}0a classic", "order"),
        (f"{FRESH.replace('0/', '9' * 3000 + '/', 1)} t0 1 classic", "pieces"),
        (f"{FRESH} t0 1 classic+{'q' * 1900}=1", "ruleset"),
    ],
    ids=short_id,
)
def test_errors_quote_only_an_excerpt_of_a_huge_field(text: str, field: str) -> None:
    with pytest.raises(NotationError) as info:
        read_position(text)
    assert info.value.field.strip("'").startswith(field[:24]), str(info.value)
    # The ruleset's messages list the known names and switches, hence the generous bound.
    assert len(str(info.value)) < 1000, str(info.value)[:1000]
