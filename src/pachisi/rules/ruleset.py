"""Rulesets (RULES.md C, D, E): every variant switch as a validated, declarative option.

A ruleset is a frozen :class:`Ruleset`. Named rulesets live in a registry with aliases, and
every ruleset has a canonical string, the name of the closest named ruleset plus the switches
that differ, which parses back to an equal ruleset:

>>> r = parse_ruleset("classic+capture_bonus=false")
>>> r.capture_bonus, str(r)
(False, 'classic+capture_bonus=false')
>>> str(parse_ruleset("tylor"))
'tylor-1879'

This module holds the ruleset, the named rulesets, and the reading and writing of whole
ruleset strings. Modules below it hold the rest: :mod:`pachisi.rules.switch_text`
declares the switches and reads and writes one switch value as text,
:mod:`pachisi.rules.linked_switches` carries a change of one switch over to the values
that follow it, and :mod:`pachisi.rules.ruleset_checks` refuses a ruleset that cannot be
played. The names that callers have always imported from here still import from here.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from pachisi.rules.choices import (
    CaptureScope,
    CastleMode,
    Deadlock,
    EntryMode,
    FinishedSeat,
    FirstPieceFree,
    FirstPlayer,
    KillBeforeHome,
    LastSquareExit,
    PyadaCondition,
    PyadaUse,
    SevenFourteenNeedsPiece,
    SplitThrow,
    Stacking,
    Teams,
    ThrowUsage,
    Track,
    TripleCancel,
    TripleScope,
    UnusableThrow,
)
from pachisi.rules.cowries import CLASSIC_6, HALF, HERKLOTS_6, HERKLOTS_7, SEEDS_7
from pachisi.rules.linked_switches import apply_cowries, apply_six_up, linked_pyada_values
from pachisi.rules.ruleset_checks import check_ruleset, without_effect

# The switch table, the reading and writing of one switch value, and RulesetError live in
# switch_text, below this module, so that ruleset_checks can use them too; callers import
# them from here, as they always have.
from pachisi.rules.switch_text import (
    SWITCH_BY_KEY,
    SWITCHES,
    RulesetError,
    Switch,
    excerpt,
    format_value,
    parse_value,
)

__all__ = [
    "ALIASES",
    "DEFAULT_RULESET",
    "MAX_RULESET_LENGTH",
    "NAMED",
    "SWITCHES",
    "SWITCH_BY_KEY",
    "LastSquareExitValue",
    "Ruleset",
    "RulesetError",
    "StackingValue",
    "Switch",
    "ValueSet",
    "derive",
    "describe",
    "format_value",
    "get_ruleset",
    "parse_ruleset",
    "parse_value",
    "resolve_name",
    "ruleset_string",
    "validate",
]

ValueSet = frozenset[int]
StackingValue = Stacking | frozenset[int]
"""``all``, ``castles_only``, ``none``, or a set of square ids where sharing is allowed."""
LastSquareExitValue = LastSquareExit | frozenset[int]
"""A set of throw values (empty = ``none``), or ``ludii``."""


@dataclass(frozen=True)
class Ruleset:
    """Every switch of RULES.md E.1, with the ``classic`` value as the default.

    Build one with :func:`parse_ruleset` or :func:`get_ruleset` so that it is validated;
    ``name`` is the named ruleset it was derived from (used for the canonical string).
    """

    name: str = "classic"
    cowries: int = 6
    score_table: tuple[int, ...] = CLASSIC_6
    six_up_value: int = 30
    reroll_values: ValueSet = frozenset({6, 10, 25})
    entry_values: ValueSet = frozenset({6, 10, 25})
    entry_mode: EntryMode = EntryMode.CONSUME
    first_piece_free: FirstPieceFree = FirstPieceFree.TRAVEL
    seven_fourteen_needs_piece: SevenFourteenNeedsPiece = SevenFourteenNeedsPiece.VOID
    grace_must_enter: bool = False
    first_player: FirstPlayer = FirstPlayer.THROW_OFF
    throw_usage: ThrowUsage = ThrowUsage.IMMEDIATE
    split_throw: SplitThrow = SplitThrow.NONE
    moves_compulsory: bool = False
    unusable_throw: UnusableThrow = UnusableThrow.FORFEIT_THROW
    track: Track = Track.TRADITIONAL
    castle_mode: CastleMode = CastleMode.BLOCK
    stacking: StackingValue = Stacking.ALL
    capture_scope: CaptureScope = CaptureScope.ALL
    stack_immune: bool = False
    capture_bonus: bool = True
    kill_before_home: KillBeforeHome = KillBeforeHome.FALSE
    recapture_annul: bool = False
    last_square_exit: LastSquareExitValue = frozenset({6, 10, 25})
    triple_cancel: TripleCancel = TripleCancel.OFF
    big_values: ValueSet = frozenset({10, 25})
    triple_scope: TripleScope = TripleScope.THREE
    pyada: bool = False
    pyada_values: ValueSet = frozenset({10, 25})
    pyada_condition: PyadaCondition = PyadaCondition.ALL_ENTERED
    pyada_use: PyadaUse = PyadaUse.FREE
    pyada_can_enter: bool = False
    players: int = 4
    teams: Teams = Teams.PAIRS
    finished_seat: FinishedSeat = FinishedSeat.SKIP
    extra_lap: bool = False
    blockade: bool = False
    deadlock: Deadlock = Deadlock.DRAW
    p_mouth_up: Fraction = HALF

    def __str__(self) -> str:
        return self._text

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # Rulesets key the compiled engine's caches, which every batch and environment
        # step asks, and an equal ruleset read again from its string is another object:
        # the dataclass's comparison built and compared two tuples of every field each
        # time (a few microseconds). The fields' tuple and hash are kept, so unequal
        # rulesets mostly differ at the hash, and equal ones compare their kept tuples.
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Ruleset)
        return self._hash == other._hash and self._values == other._values

    @functools.cached_property
    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self))

    @functools.cached_property
    def _hash(self) -> int:
        # The hash of the fields, as the dataclass would compute it, once.
        return hash(self._values)

    def __getstate__(self) -> dict[str, object]:
        # A string's hash differs from process to process: a pickled ruleset (sent to a
        # worker) must not carry the hash it had here, nor the kept tuple of its fields,
        # which would send every field twice.
        state = dict(self.__dict__)
        state.pop("_hash", None)
        state.pop("_values", None)
        return state

    @functools.cached_property
    def _text(self) -> str:
        # Every position string names its ruleset, and a server writes one per move.
        return ruleset_string(self)

    @functools.cached_property
    def ludii(self) -> bool:
        """Whether Ludii's own flow applies (``track = ludii``, RULES.md E.2)."""
        return self.track == Track.LUDII

    @functools.cached_property
    def draws_on_deadlock(self) -> bool:
        """Whether a game that no side can win ends as a draw (R-DEADLOCK).

        Only kill-before-home can leave a seat blocked, so without it there is nothing to
        check.
        """
        return self.kill_before_home != KillBeforeHome.FALSE and self.deadlock == Deadlock.DRAW

    @functools.cached_property
    def distinct_values(self) -> tuple[int, ...]:
        """The throw values of the score table, each once, smallest first."""
        return tuple(sorted(set(self.score_table)))

    @functools.cached_property
    def draws_when_frozen(self) -> bool:
        """Whether a game in which no piece can ever move again ends as a draw (R-FROZEN,
        the same ``deadlock`` switch as R-DEADLOCK)."""
        return self.deadlock == Deadlock.DRAW

    def run_class(self, value: int) -> int:
        """The triple-cancel class of a throw value (V-TRIPLE-CANCEL); 0 = none.

        Under ``same`` every value is its own class; under ``group`` the classes are the
        big values (H), the 7s and the 14s, numbered 1, 2 and 3 (class numbers appear in
        position strings as ``run=<class>x<length>``).
        """
        if self.triple_cancel == TripleCancel.SAME:
            return value
        if value in self.big_values:
            return 1
        if value == 7:
            return 2
        if value == 14:
            return 3
        return 0

    def advance_run(self, run: tuple[int, int], value: int) -> tuple[int, int]:
        """The triple-cancel run ``(class, length)`` after a throw of ``value``
        (V-TRIPLE-CANCEL): a throw of another class breaks it, one outside every class
        resets it."""
        key = self.run_class(value)
        if key == 0:
            return (0, 0)
        return (key, run[1] + 1 if run[0] == key else 1)

    @functools.cached_property
    def tracks_stack_order(self) -> bool:
        """Whether the bottom-to-top order of pieces on a square matters (C.11)."""
        return self.capture_scope == CaptureScope.TOP_ONE


_CLASSIC = Ruleset()

NAMED: Final[dict[str, Ruleset]] = {
    "classic": _CLASSIC,
    "wikipedia-full": dataclasses.replace(
        _CLASSIC,
        name="wikipedia-full",
        cowries=7,
        score_table=SEEDS_7,
        reroll_values=frozenset({7, 10, 25, 30, 14}),
        entry_values=frozenset({10, 25, 30}),
        throw_usage=ThrowUsage.COLLECT,
        split_throw=SplitThrow.SPLIT,
        kill_before_home=KillBeforeHome.SEAT,
        recapture_annul=True,
        last_square_exit=frozenset({10, 25, 30}),
        triple_cancel=TripleCancel.GROUP,
        big_values=frozenset({10, 25, 30}),
        pyada=True,
        pyada_values=frozenset({10, 25, 30}),
    ),
    "herklots-6": dataclasses.replace(
        _CLASSIC,
        name="herklots-6",
        score_table=HERKLOTS_6,
        reroll_values=frozenset({6, 10, 25, 12}),
        entry_values=frozenset(),
        entry_mode=EntryMode.COUNT_FROM_CHARKONI,
        first_piece_free=FirstPieceFree.OFF,
        throw_usage=ThrowUsage.COLLECT,
        last_square_exit=frozenset(),
        triple_cancel=TripleCancel.SAME,
        pyada=True,
        pyada_values=frozenset({25}),
        pyada_condition=PyadaCondition.ALWAYS,
        pyada_can_enter=True,
    ),
    "herklots-7": dataclasses.replace(
        _CLASSIC,
        name="herklots-7",
        cowries=7,
        score_table=HERKLOTS_7,
        reroll_values=frozenset({6, 10, 25, 30, 12}),
        entry_values=frozenset(),
        entry_mode=EntryMode.COUNT_FROM_CHARKONI,
        first_piece_free=FirstPieceFree.OFF,
        throw_usage=ThrowUsage.COLLECT,
        last_square_exit=frozenset(),
        triple_cancel=TripleCancel.SAME,
        big_values=frozenset({10, 25, 30}),
        pyada=True,
        pyada_values=frozenset({25, 30}),
        pyada_condition=PyadaCondition.ALWAYS,
        pyada_can_enter=True,
    ),
    "tylor-1879": dataclasses.replace(
        _CLASSIC,
        name="tylor-1879",
        score_table=HERKLOTS_6,
        reroll_values=frozenset({6, 10, 25, 12}),
        entry_values=frozenset({10, 25}),
        entry_mode=EntryMode.COUNT_FROM_CHARKONI,
        first_piece_free=FirstPieceFree.OFF,
        stack_immune=True,
        last_square_exit=frozenset({10, 25}),
    ),
    "ludii": dataclasses.replace(
        _CLASSIC,
        name="ludii",
        first_piece_free=FirstPieceFree.LUDII_FORCED,
        first_player=FirstPlayer.SEAT0,
        track=Track.LUDII,
        castle_mode=CastleMode.INERT,
        capture_scope=CaptureScope.TOP_ONE,
        capture_bonus=False,
        last_square_exit=LastSquareExit.LUDII,
    ),
}
"""The six named rulesets of RULES.md E.1."""

ALIASES: Final[dict[str, str]] = {
    "default": "classic",
    "wikipedia": "wikipedia-full",
    "wiki": "wikipedia-full",
    "seeds": "wikipedia-full",
    "herklots": "herklots-6",
    "deccan-6": "herklots-6",
    "deccan-7": "herklots-7",
    "tylor": "tylor-1879",
    "bengal": "tylor-1879",
    "mitra": "tylor-1879",
}

DEFAULT_RULESET: Final = "classic"


_ORDER_FIRST: Final = ("cowries", "six_up_value")


def derive(base: Ruleset, changes: dict[str, Any]) -> Ruleset:
    """``base`` with the given switch values, validated.

    ``cowries`` and ``six_up_value`` are applied first because they bring their own tables
    and value sets (D-08); explicit values for those keys then override.
    """
    ruleset = base
    if "cowries" in changes:
        ruleset = apply_cowries(ruleset, changes["cowries"])
    if "six_up_value" in changes:
        ruleset = apply_six_up(ruleset, changes["six_up_value"])
    rest = {k: v for k, v in changes.items() if k not in _ORDER_FIRST}
    linked = "pyada_values" not in rest and ruleset.pyada_values == ruleset.big_values
    if "big_values" in rest and "pyada_values" not in rest:
        rest["pyada_values"] = linked_pyada_values(ruleset, rest["big_values"])
    ruleset = dataclasses.replace(ruleset, **rest)
    # The canonical string lists the switches that differ from the base: none of them may be
    # idle either, or a ruleset built in several steps would not read back from its string.
    given = set(changes) | set(_canonical_keys(ruleset))
    idle = [
        reason
        for switch in SWITCHES
        if switch.key in given and (reason := without_effect(ruleset, switch.key, linked))
    ]
    validate(ruleset, idle)
    return ruleset


def validate(r: Ruleset, problems: list[str] | None = None) -> None:
    """Refuse a switch combination that makes no sense, naming the switches involved.

    ``problems`` are reasons already found (by :func:`derive`) to report with the others.
    The checks are :func:`pachisi.rules.ruleset_checks.check_ruleset`'s; a ruleset with
    ``track=ludii`` is held to the named ``ludii`` ruleset.
    """
    check_ruleset(r, NAMED["ludii"], problems)


def resolve_name(name: str) -> str:
    """The registered name for ``name`` or one of its aliases."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in NAMED:
        known = ", ".join(list(NAMED) + sorted(ALIASES))
        raise RulesetError(f"unknown ruleset {excerpt(name)}; known: {known}")
    return key


def get_ruleset(name: str = DEFAULT_RULESET) -> Ruleset:
    """A named ruleset (or alias), without changes."""
    return NAMED[resolve_name(name)]


MAX_RULESET_LENGTH: Final = 2000
"""The longest ruleset string read; canonical strings of real rulesets are far shorter
(an explicit stacking set of all 96 squares takes about 400 characters)."""
_RULESET_TEXT: Final = re.compile(r"[A-Za-z0-9_+=,/.\-]+")


def parse_ruleset(text: str) -> Ruleset:
    """Read a ruleset string ``NAME(+key=value)*``; errors name the offending switch.

    The string is ASCII letters, digits and ``+ = , / . _ -``, at most
    :data:`MAX_RULESET_LENGTH` characters; spaces and tabs around it are ignored.
    """
    if not isinstance(text, str):
        raise RulesetError(f"a ruleset string is text, not {type(text).__name__}")
    if len(text) > MAX_RULESET_LENGTH:
        raise RulesetError(
            f"ruleset string of {len(text):,} characters (the limit is {MAX_RULESET_LENGTH:,})"
        )
    text = text.strip(" \t")
    if not text:
        raise RulesetError("empty ruleset string")
    if not _RULESET_TEXT.fullmatch(text):
        bad = next(c for c in text if not _RULESET_TEXT.fullmatch(c))
        raise RulesetError(
            f"{excerpt(text)}: {bad!r} cannot be part of a ruleset string "
            "(ASCII letters, digits and + = , / . _ - only)"
        )
    head, *parts = text.split("+")
    base = get_ruleset(head)
    changes: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise RulesetError(f"switch {excerpt(part)} must be written key=value")
        if key in changes:
            raise RulesetError(f"switch {key!r} is given twice")
        changes[key] = parse_value(key, value)
    return derive(base, changes)


def _canonical_keys(r: Ruleset) -> list[str]:
    base = NAMED[r.name]
    reference = base
    keys: list[str] = []
    for key in _ORDER_FIRST:
        if getattr(r, key) != getattr(reference, key):
            keys.append(key)
            reference = (
                apply_cowries(reference, r.cowries)
                if key == "cowries"
                else apply_six_up(reference, r.six_up_value)
            )
    if r.big_values != reference.big_values:
        reference = dataclasses.replace(
            reference, pyada_values=linked_pyada_values(reference, r.big_values)
        )
    for switch in SWITCHES:
        if switch.key in _ORDER_FIRST:
            continue
        if getattr(r, switch.key) != getattr(reference, switch.key):
            keys.append(switch.key)
    return keys


def ruleset_string(r: Ruleset) -> str:
    """The canonical string: the base name, then each differing switch in table order."""
    parts = [r.name]
    parts += [f"{key}={format_value(key, getattr(r, key))}" for key in _canonical_keys(r)]
    return "+".join(parts)


def describe(r: Ruleset) -> list[dict[str, str]]:
    """Every switch with its value, the classic default and the rule it implements."""
    return [
        {
            "key": s.key,
            "value": format_value(s.key, getattr(r, s.key)),
            "default": format_value(s.key, getattr(_CLASSIC, s.key)),
            "rule": s.rule,
            "help": s.help,
        }
        for s in SWITCHES
    ]
