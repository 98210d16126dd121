"""Each switch's named choices are declared once, as an enum of :mod:`pachisi.rules.choices`
(issue 22, item 6.6): the switch table, the reader, its messages, the ``Ruleset`` field types
and the compiled parameter vector derive from it, and every text stays as it was."""

from __future__ import annotations

import dataclasses
import json
import pickle
import typing
from enum import StrEnum
from fractions import Fraction

import pytest
from tests.rules.random_rulesets import random_rulesets

from pachisi.rules import choices
from pachisi.rules.choices import (
    CastleMode,
    EntryMode,
    FirstPieceFree,
    KillBeforeHome,
    SplitThrow,
    Stacking,
    Teams,
    TripleCancel,
)
from pachisi.rules.ruleset import (
    NAMED,
    SWITCH_BY_KEY,
    SWITCHES,
    Ruleset,
    RulesetError,
    describe,
    format_value,
    parse_ruleset,
    parse_value,
)

NAMED_SWITCHES = [s for s in SWITCHES if s.enum is not None]
ENUMS = [getattr(choices, name) for name in choices.__all__]
HINTS = typing.get_type_hints(Ruleset)
RANDOM = list(random_rulesets(6_6, 150))
"""Random switch combinations (tests/rules/random_rulesets.py), the same on every run."""

KERNEL_NUMBERS: dict[type[StrEnum], tuple[str, ...]] = {
    EntryMode: ("consume", "consume_plus_move", "count_from_charkoni"),
    FirstPieceFree: ("travel", "square1", "off", "ludii_forced"),
    SplitThrow: ("none", "split", "group"),
    CastleMode: ("block", "coexist", "inert"),
    Stacking: ("all", "castles_only", "none"),
    KillBeforeHome: ("false", "seat", "team"),
    TripleCancel: ("off", "group", "same"),
}
"""The choices the compiled kernels number 0, 1, 2, ... (pachisi.fast.params), as the
kernels compare against them; ``stacking``'s set of squares is 3."""


# --------------------------------------------------------------------------- the declaration


def test_every_enum_belongs_to_exactly_one_switch() -> None:
    assert sorted(s.enum.__name__ for s in NAMED_SWITCHES if s.enum) == sorted(choices.__all__)


@pytest.mark.parametrize("switch", NAMED_SWITCHES, ids=lambda s: s.key)
def test_the_switch_choices_are_the_enum_members_in_order(switch: typing.Any) -> None:
    enum = switch.enum
    values = tuple(member.value for member in enum)
    if switch.key in ("stacking", "last_square_exit"):
        assert switch.choices == ()  # free-form: the enum names the values that are not sets
    else:
        assert switch.choices == values
    assert all(member.name == member.value.upper() for member in enum)


def test_every_switch_but_booleans_numbers_and_sets_has_an_enum() -> None:
    plain = (bool, int, Fraction, tuple[int, ...], frozenset[int])
    for switch in SWITCHES:
        assert (switch.enum is None) == (HINTS[switch.key] in plain), switch.key


@pytest.mark.parametrize("switch", NAMED_SWITCHES, ids=lambda s: s.key)
def test_the_ruleset_field_is_typed_with_the_enum(switch: typing.Any) -> None:
    hint = HINTS[switch.key]
    if switch.key in ("stacking", "last_square_exit"):
        assert typing.get_args(hint) == (switch.enum, frozenset[int])
    else:
        assert hint is switch.enum


@pytest.mark.parametrize("enum", list(KERNEL_NUMBERS), ids=lambda e: e.__name__)
def test_the_member_order_is_the_kernels_numbering(enum: type[StrEnum]) -> None:
    assert tuple(member.value for member in enum) == KERNEL_NUMBERS[enum]


# --------------------------------------------------------------------------- the reader


@pytest.mark.parametrize("name", list(NAMED))
def test_named_rulesets_hold_enum_members(name: str) -> None:
    for ruleset in (NAMED[name], parse_ruleset(name)):
        for switch in NAMED_SWITCHES:
            value = getattr(ruleset, switch.key)
            assert type(value) is switch.enum or type(value) is frozenset, (name, switch.key)


BASES = ("classic", "classic+pyada=true+triple_cancel=group", "wikipedia-full", "ludii")
"""Rulesets under which each choice is accepted by one at least (a switch may need another)."""


@pytest.mark.parametrize("switch", NAMED_SWITCHES, ids=lambda s: s.key)
def test_parse_ruleset_gives_enum_members(switch: typing.Any) -> None:
    for member in switch.enum:
        assert parse_value(switch.key, member.value) is member
        read = []
        for base in BASES:
            try:
                read.append(getattr(parse_ruleset(f"{base}+{switch.key}={member}"), switch.key))
            except RulesetError as exc:
                assert switch.key in str(exc)  # a combination refused, not an unknown choice
        assert read and all(value is member for value in read), (switch.key, member)


def test_a_set_stays_a_set_beside_the_named_choices() -> None:
    r = parse_ruleset("classic+stacking=j1,k4+last_square_exit=none")
    assert type(r.stacking) is frozenset and r.last_square_exit == frozenset()
    assert parse_ruleset("classic+stacking=none").stacking is Stacking.NONE


@pytest.mark.parametrize("switch", [s for s in NAMED_SWITCHES if s.choices], ids=lambda s: s.key)
def test_an_unknown_choice_names_the_switch_and_its_choices(switch: typing.Any) -> None:
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(f"classic+{switch.key}=bogus")
    assert str(caught.value) == f"{switch.key}: 'bogus' is not one of {', '.join(switch.choices)}"


def test_the_unknown_choice_message_is_todays() -> None:
    with pytest.raises(RulesetError, match=r"^teams: 'solo' is not one of pairs, individual$"):
        parse_ruleset("classic+teams=solo")
    with pytest.raises(RulesetError, match=r"^kill_before_home: 'TEAM' is not one of false, "):
        parse_ruleset("classic+kill_before_home=TEAM")


# --------------------------------------------------------------------------- texts and round trips


@pytest.mark.parametrize("ruleset", [*NAMED.values(), *RANDOM], ids=str)
def test_str_and_parse_round_trip(ruleset: Ruleset) -> None:
    text = str(ruleset)
    back = parse_ruleset(text)
    assert back == ruleset and hash(back) == hash(ruleset)
    assert str(back) == text and type(text) is str
    for switch in NAMED_SWITCHES:
        value = getattr(back, switch.key)
        assert type(value) in (switch.enum, frozenset), switch.key


@pytest.mark.parametrize("ruleset", [*NAMED.values(), *RANDOM[:20]], ids=str)
def test_texts_are_plain_strings_with_todays_spelling(ruleset: Ruleset) -> None:
    for switch in NAMED_SWITCHES:
        value = getattr(ruleset, switch.key)
        text = format_value(switch.key, value)
        assert type(text) is str
        if isinstance(value, StrEnum):
            assert text == value.value == str(value) == f"{value}"
            assert json.dumps(value) == json.dumps(value.value)
    rows = describe(ruleset)
    assert all(type(v) is str for row in rows for v in row.values())


def test_the_named_rulesets_strings_are_unchanged() -> None:
    assert [str(r) for r in NAMED.values()] == list(NAMED)
    assert str(parse_ruleset("classic+teams=individual+split_throw=group")) == (
        "classic+split_throw=group+teams=individual"
    )


def test_a_ruleset_stays_frozen_hashable_and_picklable() -> None:
    r = parse_ruleset("wikipedia-full+teams=individual+stacking=castles_only")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.teams = Teams.PAIRS  # type: ignore[misc]
    assert {r: 1}[parse_ruleset(str(r))] == 1
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.teams is Teams.INDIVIDUAL and str(back) == str(r)


def test_a_member_is_its_text_for_code_that_still_compares_strings() -> None:
    # The AI, simulation and tournament code compare with string literals until they are
    # converted; a member equals its text and hashes like it.
    r = parse_ruleset("classic+teams=individual")
    assert r.teams == "individual" and r.teams != "pairs"
    assert {"individual": 1}[r.teams] == 1
    unchecked = dataclasses.replace(NAMED["classic"], teams="individual")  # type: ignore[arg-type]
    assert unchecked == r and hash(unchecked) == hash(r)


def test_the_switch_table_serialises_as_before() -> None:
    assert SWITCH_BY_KEY["teams"].choices == ("pairs", "individual")
    assert all(type(c) is str for s in SWITCHES for c in s.choices)
    assert json.dumps(list(SWITCH_BY_KEY["split_throw"].choices)) == '["none", "split", "group"]'


def test_a_ruleset_keeps_its_hash_but_does_not_pickle_it() -> None:
    import pickle

    r = parse_ruleset("wikipedia-full+teams=individual")
    assert hash(r) == hash(parse_ruleset("wikipedia-full+teams=individual"))
    assert "_hash" in r.__dict__  # computed once, then kept
    back = pickle.loads(pickle.dumps(r))
    assert "_hash" not in back.__dict__  # this process computes its own
    assert back == r and hash(back) == hash(r)
