"""Rulesets that cannot be played are refused (issue 5, items 2, 3, 4 and 8).

* every turn and the throw-off can end, within :data:`MAX_EXPECTED_THROWS` throws on average
  (R-ORDER, R-GRACE-REPEAT, V-TRIPLE-CANCEL, V-7-14-NEEDS-PIECE);
* a switch that RULES.md E.1 marks "not applicable" (``—``) in the resulting ruleset is
  refused when it is given explicitly;
* throw values are 1..999, numbers are ASCII digits, ruleset strings are short ASCII text;
* fuzzing: mutated ruleset strings are refused with RulesetError or round-trip.
"""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pachisi.rules import _bounds
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import (
    MAX_RULESET_LENGTH,
    NAMED,
    RulesetError,
    derive,
    get_ruleset,
    parse_ruleset,
)

LIMIT = _bounds.MAX_EXPECTED_THROWS


def refused(text: str, *words: str) -> str:
    with pytest.raises(RulesetError) as info:
        parse_ruleset(text)
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


# --------------------------------------------------------------------------- every turn ends


@pytest.mark.parametrize("name", list(NAMED))
def test_named_rulesets_throw_off_and_turns_are_short(name: str) -> None:
    r = get_ruleset(name)
    throwoff = _bounds.expected_throwoff_throws(r)
    series = _bounds.expected_series_throws(r)
    assert throwoff is not None and 4 < throwoff < 5
    assert series is not None and 1 < series < 1.5


def test_r_grace_repeat_classic_series_is_8_over_7_throws() -> None:
    """B.2: P(grace) = 1/8, so a series takes 1/(7/8) = 8/7 throws on average."""
    series = _bounds.expected_series_throws(get_ruleset("classic"))
    assert series == pytest.approx(8 / 7)


def test_r_order_throw_off_exact_for_a_two_value_table() -> None:
    """A fair coin per seat: the throw-off of 4 seats, by hand.

    With two values (each 1/2), m seats tie at the top with P(all equal) = 2/2^m, and
    otherwise j >= 1 seats throw the high value with P = C(m, j)/2^m. So E[1] = 0,
    E[2] = 2 / (1 - 1/2) = 4, E[3] = (3 + 3/8 E[2]) / (1 - 1/4) = 6, and
    E[4] = (4 + 6/16 E[2] + 4/16 E[3]) / (1 - 1/8) = (4 + 1.5 + 1.5) / (7/8) = 8.
    """
    r = parse_ruleset(
        "classic+cowries=7+score_table=2,2,2,2,9,9,9,9+reroll_values=none+entry_values=9"
        "+last_square_exit=9"
    )
    assert _bounds.expected_throwoff_throws(r) == pytest.approx(8.0)


def test_r_grace_repeat_every_throw_a_grace_is_refused_naming_the_switches() -> None:
    message = refused("classic+reroll_values=2,3,4,5,6,10,25", "forever", "reroll_values")
    assert "triple_cancel" in message


def test_v_triple_cancel_same_stops_every_turn() -> None:
    """Under `same`, three equal values in a row end the turn, so every-throw-a-grace ends."""
    r = parse_ruleset("classic+reroll_values=2,3,4,5,6,10,25+triple_cancel=same")
    series = _bounds.expected_series_throws(r)
    assert series is not None and 10 < series < LIMIT


def test_v_triple_cancel_group_stops_every_turn_but_too_slowly() -> None:
    """Under `group` only 10s and 25s form runs, so 2..6 go on and on: refused as too long."""
    refused("classic+reroll_values=2,3,4,5,6,10,25+triple_cancel=group", "on average", "100")


@pytest.mark.parametrize("p", ["1/1000000", "1/40", "999/1000"])
def test_r_throw_table_extreme_p_mouth_up_is_refused(p: str) -> None:
    refused(f"classic+p_mouth_up={p}", "p_mouth_up", f"limit is {LIMIT}")


def test_r_throw_table_p_mouth_up_one_in_a_million_names_the_throw_off_too() -> None:
    refused("classic+p_mouth_up=1/1000000", "throw-off", "turn")


@pytest.mark.parametrize("p", ["1/30", "1/10", "2/5", "9/10", "98/100"])
def test_r_throw_table_skewed_but_playable_p_mouth_up_is_accepted(p: str) -> None:
    r = parse_ruleset(f"classic+p_mouth_up={p}")
    for expected in (_bounds.expected_throwoff_throws(r), _bounds.expected_series_throws(r)):
        assert expected is not None and expected <= LIMIT


def test_r_order_a_throw_off_that_always_ties_is_refused_unless_seat0_begins() -> None:
    table = "classic+score_table=2,2,2,2,2,2,2+reroll_values=none+entry_values=2"
    table += "+last_square_exit=2"
    refused(table, "throw-off", "forever", "score_table")
    assert parse_ruleset(table + "+first_player=seat0").first_player == "seat0"


def test_v_7_14_needs_piece_void_ends_a_series_but_rethrow_only_does_not() -> None:
    """With no piece on the board a void 7 ends the series; under rethrow_only it goes on.

    A table where 7 is the only grace: with `void` a 7 either counts (a piece on the board,
    grace) or ends the series (no piece); with `rethrow_only` and no piece it never ends the
    series itself, so the series lasts longer: 1/(1 - P(7)) either way with a piece.
    """
    base = "classic+cowries=7+score_table=7,2,3,4,5,6,8,9+reroll_values=7+entry_values=8"
    base += "+last_square_exit=8"
    void = _bounds.expected_series_throws(parse_ruleset(base))
    rethrow = _bounds.expected_series_throws(
        parse_ruleset(base + "+seven_fourteen_needs_piece=rethrow_only")
    )
    assert void == pytest.approx(1 / (1 - 1 / 128))
    assert rethrow == pytest.approx(void)


def test_bounds_are_quick_even_for_long_probabilities() -> None:
    text = (
        "classic+cowries=7+score_table=1,2,3,4,5,6,7,8+reroll_values=1,2,3,4,5,6,7,8"
        "+entry_values=1+last_square_exit=1+triple_cancel=same"
        "+p_mouth_up=123456789012345678901234567891/987654321098765432109876543211"
    )
    start = time.perf_counter()
    parse_ruleset(text)
    # Generous: it takes a few milliseconds; exact fractions took over a second.
    assert time.perf_counter() - start < 0.5


def test_bounds_practically_forever_is_refused() -> None:
    r = derive(get_ruleset("classic"), {"first_player": "seat0"})
    assert _bounds.expected_series_throws(r) == pytest.approx(8 / 7)
    assert math.isinf(math.inf)  # the marker used for "possible, but beyond any float"
    refused("classic+p_mouth_up=1/1000000000000000000000000000", "p_mouth_up")


# --------------------------------------------------------------------------- "—" switches


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("classic+six_up_value=35", ("six_up_value", "cowries=7")),
        ("herklots-7+cowries=6+six_up_value=35", ("six_up_value", "cowries=7")),
        ("classic+triple_scope=turn", ("triple_scope", "triple_cancel")),
        ("classic+triple_scope=three", ("triple_scope", "triple_cancel")),
        ("wikipedia-full+triple_cancel=off+triple_scope=turn", ("triple_scope",)),
        ("classic+seven_fourteen_needs_piece=rethrow_only", ("seven_fourteen_needs_piece",)),
        ("herklots-6+seven_fourteen_needs_piece=void", ("seven_fourteen_needs_piece", "14")),
        ("classic+big_values=10", ("big_values", "triple_cancel=group")),
        ("herklots-6+big_values=25", ("big_values",)),
        ("classic+pyada_values=10", ("pyada_values", "pyada=true")),
        ("classic+pyada_condition=always", ("pyada_condition", "pyada=true")),
        ("classic+pyada_use=attached", ("pyada_use", "pyada=true")),
        ("wikipedia-full+pyada=false+pyada_use=free", ("pyada_use",)),
    ],
)
def test_e1_not_applicable_switch_given_explicitly_is_refused(
    text: str, words: tuple[str, ...]
) -> None:
    refused(text, *words)


@pytest.mark.parametrize(
    "text",
    [
        "classic+cowries=7+six_up_value=35",
        "classic+triple_cancel=same+triple_scope=turn",
        # RULES.md documents these as meaningful, with no effect in that mode:
        "classic+triple_cancel=group+triple_scope=turn",  # V-TRIPLE-CANCEL immediate mode
        "wikipedia-full+unusable_throw=forfeit_turn",  # R-UNUSABLE-THROW, collect mode
        "classic+deadlock=continue",  # R-DEADLOCK without kill-before-home
        "classic+triple_cancel=group+big_values=10",
        "classic+pyada=true+big_values=10",  # pyada_values follows big_values (V-PYADA)
        "wikipedia-full+seven_fourteen_needs_piece=rethrow_only",
        "wikipedia-full+pyada_use=free",
    ],
)
def test_applicable_switch_given_explicitly_is_accepted_and_round_trips(text: str) -> None:
    r = parse_ruleset(text)
    assert parse_ruleset(str(r)) == r


def test_e1_not_applicable_switch_brought_into_effect_by_another() -> None:
    """E.1: "if a +key=value change brings it into effect, its default from section C applies"."""
    r = parse_ruleset("classic+triple_cancel=group")
    assert r.triple_scope == "three"
    assert parse_ruleset("classic+triple_cancel=group+triple_scope=turn").triple_scope == "turn"


# --------------------------------------------------------------------------- text and numbers


def test_throw_values_up_to_999_round_trip_through_action_text() -> None:
    r = parse_ruleset(
        "classic+score_table=999,10,2,3,4,5,6+reroll_values=6,10+entry_values=6,10"
        "+last_square_exit=6,10"
    )
    assert 999 in r.score_table
    assert str(Action.parse("0a+999")) == "0a+999"


@pytest.mark.parametrize(
    "text",
    [
        "classic+score_table=1000,10,2,3,4,5,6",
        "classic+reroll_values=6,10,25,1000",
        "classic+score_table=0,10,2,3,4,5,6",
        "classic+last_square_exit=99999999999999999999999",
    ],
)
def test_throw_values_beyond_999_or_zero_are_refused(text: str) -> None:
    refused(text, "1..999")


@pytest.mark.parametrize(
    "text",
    [
        "classic+reroll_values=6,10,٢٥",  # Arabic-Indic digits
        "classic+p_mouth_up=١/٢",
        "classic+score_table=25,10,2,3,4,5,６",  # a fullwidth digit
        "classic+reroll_values=6,1_0,25",  # int() would take the underscore
        "classic+reroll_values=6, 10,25",  # and the space
        "classic\u2028+capture_bonus=false",  # U+2028 is not whitespace here
        "classic+capture_bonus=false\u00a0",
        "ｃlassic",
    ],
)
def test_only_ascii_text_and_digits_make_a_ruleset(text: str) -> None:
    refused(text)


def test_ascii_spaces_around_a_ruleset_are_ignored() -> None:
    assert parse_ruleset("  classic+capture_bonus=false\t") == parse_ruleset(
        "classic+capture_bonus=false"
    )


def test_an_overlong_ruleset_string_is_refused_at_once_with_a_short_message() -> None:
    text = "classic" + "+capture_bonus=false" * 100_000
    start = time.perf_counter()
    message = refused(text, f"{MAX_RULESET_LENGTH:,}")
    assert time.perf_counter() - start < 0.1
    assert len(message) < 200


def test_errors_quote_only_an_excerpt_of_a_long_value() -> None:
    message = refused("classic+reroll_values=" + "x" * 1000)
    assert len(message) < 200 and "..." in message
    message = refused("classic+" + "k" * 1000 + "=1")
    assert message.count("k") < 60


# --------------------------------------------------------------------------- fuzzing

_SEEDS = [
    *(str(r) for r in NAMED.values()),
    "classic+capture_bonus=false",
    "classic+kill_before_home=team+recapture_annul=true+deadlock=continue",
    "wikipedia-full+six_up_value=35+triple_scope=turn",
    "classic+stacking=j1,d9,j19,p11+p_mouth_up=2/5",
    "herklots-6+pyada_can_enter=false+entry_values=10,25",
    "classic+players=2+first_player=seat0+extra_lap=true",
]
_NOISE = "+=,/.-_0123456789azx \u2028\u00a0٣\ufeff" + "\x00"


@st.composite
def mutated_ruleset(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(_SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(("insert", "delete", "replace", "duplicate", "cut")))
        c = draw(st.sampled_from(_NOISE))
        if op == "insert":
            text = text[:i] + c + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        elif op == "replace":
            text = text[:i] + c + text[i + 1 :]
        elif op == "duplicate":
            text = text[:i] + text[i:] + text[i:]
        else:
            text = text[:i]
    return text


@settings(max_examples=400, deadline=None)
@given(mutated_ruleset())
def test_mutated_ruleset_strings_are_refused_cleanly_or_round_trip(text: str) -> None:
    """Item 8: never a crash or a hang, only RulesetError or a ruleset that round-trips."""
    start = time.perf_counter()
    try:
        r = parse_ruleset(text)
    except RulesetError as exc:
        assert str(exc) and len(str(exc)) < 2000
    else:
        assert parse_ruleset(str(r)) == r
        series = _bounds.expected_series_throws(r)
        assert series is not None and series <= LIMIT
    assert time.perf_counter() - start < 2.0


def test_a_switch_left_idle_by_a_later_change_is_refused_so_strings_round_trip() -> None:
    """A ruleset built in two steps must still read back from its canonical string."""
    r = parse_ruleset("classic+pyada=true+big_values=10")
    assert parse_ruleset(str(r)) == r
    with pytest.raises(RulesetError, match="big_values"):
        derive(r, {"pyada": False})


@pytest.mark.parametrize(
    "change",
    [
        "castle_mode=block",
        "capture_scope=all",
        "stacking=none",
        "stack_immune=true",
        "kill_before_home=seat",
        "moves_compulsory=true",
        "grace_must_enter=true",
        "cowries=7",
        "entry_values=10,25",
        "last_square_exit=6,10,25",
    ],
)
def test_r_track_ludii_refuses_switches_that_ludiis_flow_would_ignore(change: str) -> None:
    """E.2: Ludii's flow never consults these, so setting them under track=ludii means nothing."""
    refused(f"ludii+{change}", "track=ludii", change.split("=")[0])


@pytest.mark.parametrize(
    "change",
    [
        "first_player=throw_off",
        "capture_bonus=true",
        "unusable_throw=forfeit_turn",
        "p_mouth_up=2/5",
        "players=2",
    ],
)
def test_r_track_ludii_accepts_the_switches_its_flow_honours(change: str) -> None:
    r = parse_ruleset(f"ludii+{change}")
    assert r.ludii and parse_ruleset(str(r)) == r
