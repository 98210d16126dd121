"""Rulesets (RULES.md C, D, E): every variant switch as a validated, declarative option.

A ruleset is a frozen :class:`Ruleset`. Named rulesets live in a registry with aliases, and
every ruleset has a canonical string, the name of the closest named ruleset plus the switches
that differ, which parses back to an equal ruleset:

>>> r = parse_ruleset("classic+capture_bonus=false")
>>> r.capture_bonus, str(r)
(False, 'classic+capture_bonus=false')
>>> str(parse_ruleset("tylor"))
'tylor-1879'
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, Final

from pachisi.rules import _bounds
from pachisi.rules._playable import unplayable
from pachisi.rules.board import PRIVATE_SQUARES, parse_square, square_name
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


class RulesetError(ValueError):
    """A ruleset string or switch combination that cannot be played; names the switches."""


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


@dataclass(frozen=True)
class Switch:
    """One variant switch: its key, the rule ID it implements, and how its text is read.

    A switch with named choices is declared with :meth:`named`, from its enum in
    :mod:`pachisi.rules.choices`, so that its choices are listed only there.
    """

    key: str
    rule: str
    choices: tuple[str, ...]
    """The allowed values, or empty for free-form values (sets, tables, numbers)."""
    help: str
    enum: type[StrEnum] | None = None
    """The enum of the named choices (:mod:`pachisi.rules.choices`), whose members the
    ruleset holds; for a switch that also takes a set (``stacking``, ``last_square_exit``)
    these are the choices beside the sets. None for booleans, numbers and sets."""

    @classmethod
    def named(
        cls, key: str, rule: str, enum: type[StrEnum], help: str, *, or_set: bool = False
    ) -> Switch:
        """A switch whose choices are the members of ``enum``, in its order; with
        ``or_set`` the switch also takes a set, so its values are free-form and the enum
        names the ones that are not sets."""
        choices = () if or_set else tuple(member.value for member in enum)
        return cls(key, rule, choices, help, enum)


SWITCHES: Final[tuple[Switch, ...]] = (
    Switch("cowries", "R-THROW-TABLE", ("6", "7"), "number of cowrie shells thrown"),
    Switch("score_table", "R-THROW-TABLE", (), "throw value for k = 0..n mouths up"),
    Switch("six_up_value", "V-GRACE-SET-7", ("30", "35"), "7 cowries: value of 6 mouths up"),
    Switch("reroll_values", "R-GRACE-REPEAT", (), "values that give another throw"),
    Switch("entry_values", "R-GRACE-ENTRY", (), "values that may bring a piece out"),
    Switch.named("entry_mode", "R-ENTRY-CONSUMES", EntryMode, "where an entered piece lands"),
    Switch.named(
        "first_piece_free",
        "R-FIRST-PIECE-FREE",
        FirstPieceFree,
        "the first piece leaves the Charkoni on any throw",
    ),
    Switch.named(
        "seven_fourteen_needs_piece",
        "V-7-14-NEEDS-PIECE",
        SevenFourteenNeedsPiece,
        "a 7 or 14 with no piece on the board",
    ),
    Switch("grace_must_enter", "V-GRACE-MUST-ENTER", ("false", "true"), "entry graces must enter"),
    Switch.named("first_player", "V-FIRST-PLAYER-FIXED", FirstPlayer, "who begins"),
    Switch.named("throw_usage", "V-COLLECT-THROWS", ThrowUsage, "use or collect throws"),
    Switch.named("split_throw", "V-SPLIT-THROW", SplitThrow, "one throw, many pieces"),
    Switch("moves_compulsory", "V-MOVE-COMPULSORY", ("false", "true"), "no declining"),
    Switch.named(
        "unusable_throw", "R-UNUSABLE-THROW", UnusableThrow, "what an unusable throw costs"
    ),
    Switch.named("track", "R-TRACK", Track, "the route"),
    Switch.named("castle_mode", "R-CASTLE-BLOCK", CastleMode, "castles"),
    Switch.named(
        "stacking",
        "V-STACK-RESTRICTED",
        Stacking,
        "all, castles_only, none, or squares where sharing is allowed",
        or_set=True,
    ),
    Switch.named("capture_scope", "R-CAPTURE", CaptureScope, "which enemy pieces a capture takes"),
    Switch("stack_immune", "V-STACK-IMMUNE", ("false", "true"), "only a lone piece is captured"),
    Switch("capture_bonus", "V-CAPTURE-BONUS", ("true", "false"), "capture gives a throw"),
    Switch.named("kill_before_home", "V-KILL-BEFORE-HOME", KillBeforeHome, "kill to go home"),
    Switch("recapture_annul", "V-RECAPTURE-ANNUL", ("false", "true"), "recapture voids a kill"),
    Switch.named(
        "last_square_exit",
        "R-LAST-SQUARE-EXIT",
        LastSquareExit,
        "values that finish from the last square, none, or ludii",
        or_set=True,
    ),
    Switch.named("triple_cancel", "V-TRIPLE-CANCEL", TripleCancel, "three in a row cancel"),
    Switch("big_values", "V-TRIPLE-HIGH", (), "the high class of triple cancellation"),
    Switch.named("triple_scope", "V-TRIPLE-CANCEL", TripleScope, "what a triple cancels"),
    Switch("pyada", "V-PYADA", ("false", "true"), "extra step for big throws"),
    Switch("pyada_values", "V-PYADA", (), "values that earn a pyada"),
    Switch.named("pyada_condition", "V-PYADA", PyadaCondition, "when a pyada is earned"),
    Switch.named("pyada_use", "V-PYADA", PyadaUse, "a separate step or added to the move"),
    Switch("pyada_can_enter", "V-PYADA", ("false", "true"), "a pyada may enter a piece"),
    Switch("players", "V-TWO-PLAYER", ("4", "2"), "people playing"),
    Switch.named("teams", "V-INDIVIDUAL", Teams, "partnerships or every seat alone"),
    Switch.named(
        "finished_seat", "R-FINISHED-SEAT", FinishedSeat, "turns of a seat with all pieces home"
    ),
    Switch("extra_lap", "V-EXTRA-LAP", ("false", "true"), "a second lap to help the partner"),
    Switch("blockade", "V-BLOCKADE", ("false", "true"), "two friendly pieces block passing"),
    Switch.named(
        "deadlock", "R-DEADLOCK", Deadlock, "a game no side can win any more ends as a draw"
    ),
    Switch("p_mouth_up", "R-THROW-TABLE", (), "chance that a cowrie lands mouth up"),
)
SWITCH_BY_KEY: Final = {s.key: s for s in SWITCHES}

_VALUE_SET_KEYS: Final = frozenset({"reroll_values", "entry_values", "big_values", "pyada_values"})
_BOOL_KEYS: Final = frozenset(
    {
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
)
_INT_KEYS: Final = frozenset({"cowries", "six_up_value", "players"})
_PRIVATE_SQUARES: Final = frozenset().union(*PRIVATE_SQUARES)

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


def _format_set(values: Iterable[int]) -> str:
    items = sorted(values)
    return ",".join(str(v) for v in items) if items else "none"


def format_value(key: str, value: Any) -> str:
    """The canonical text of one switch value."""
    if key in _BOOL_KEYS:
        return "true" if value else "false"
    if key in _VALUE_SET_KEYS:
        return _format_set(value)
    if key == "score_table":
        return ",".join(str(v) for v in value)
    if key == "last_square_exit":
        return str(value) if isinstance(value, str) else _format_set(value)
    if key == "stacking":
        if isinstance(value, str):
            return str(value)
        return ",".join(square_name(sq) for sq in sorted(value))
    if key == "p_mouth_up":
        return str(value)
    return str(value)


MAX_THROW_VALUE: Final = 999
"""The largest throw value a score table may hold: the text form of an action (``0a+4``)
writes a value with at most three digits, so a larger one could not round-trip."""
MAX_RULESET_LENGTH: Final = 2000
"""The longest ruleset string read; canonical strings of real rulesets are far shorter
(an explicit stacking set of all 96 squares takes about 400 characters)."""
_EXCERPT: Final = 24

_DIGITS: Final = re.compile(r"[0-9]+")
_FRACTION: Final = re.compile(r"[0-9]{1,30}(?:/[0-9]{1,30}|\.[0-9]{0,30})?|\.[0-9]{1,30}")
_RULESET_TEXT: Final = re.compile(r"[A-Za-z0-9_+=,/.\-]+")


def excerpt(text: str) -> str:
    """``text`` quoted for an error message, cut short if it is long."""
    if len(text) <= _EXCERPT:
        return repr(text)
    return repr(text[:_EXCERPT]) + "..."


def _parse_int_list(key: str, text: str) -> tuple[int, ...]:
    if text.lower() == "none":
        return ()
    parts = text.split(",")
    # Only ASCII digits: int() would also take other scripts' digits, "_" and spaces.
    if not all(_DIGITS.fullmatch(part) for part in parts):
        raise RulesetError(f"{key}: {excerpt(text)} is not a comma-separated list of numbers")
    if any(len(part) > len(str(MAX_THROW_VALUE)) or int(part) < 1 for part in parts):
        raise RulesetError(f"{key}: throw values must be 1..{MAX_THROW_VALUE}, got {excerpt(text)}")
    return tuple(int(part) for part in parts)


def parse_value(key: str, text: str) -> Any:
    """Read one switch value from text; :class:`RulesetError` names the key if it is bad."""
    switch = SWITCH_BY_KEY.get(key)
    if switch is None:
        raise RulesetError(
            f"unknown switch {excerpt(key)}; known switches: {', '.join(SWITCH_BY_KEY)}"
        )
    if switch.choices and text not in switch.choices:
        raise RulesetError(f"{key}: {excerpt(text)} is not one of {', '.join(switch.choices)}")
    if switch.enum is not None and text in list(switch.enum):
        return switch.enum(text)  # a member: the ruleset holds typed choices
    if key in _BOOL_KEYS:
        return text == "true"
    if key in _INT_KEYS:
        return int(text)
    if key in _VALUE_SET_KEYS:
        return frozenset(_parse_int_list(key, text))
    if key == "score_table":
        return _parse_int_list(key, text)
    if key == "last_square_exit":
        return frozenset(_parse_int_list(key, text))
    if key == "stacking":
        try:
            return frozenset(parse_square(name) for name in text.split(","))
        except ValueError as exc:
            raise RulesetError(f"stacking: {exc}") from None
    if key == "p_mouth_up":
        if not _FRACTION.fullmatch(text):
            raise RulesetError(
                f"p_mouth_up: {excerpt(text)} is not a number like 1/2 or 0.45 "
                "(ASCII digits, at most 30 to a part)"
            )
        try:
            p = Fraction(text)
        except ZeroDivisionError:
            raise RulesetError(f"p_mouth_up: {text} divides by zero") from None
        if not 0 < p < 1:
            raise RulesetError(f"p_mouth_up: {text} must lie strictly between 0 and 1")
        return HALF if p == HALF else p
    raise AssertionError(f"switch {key} has no reader")


def _apply_six_up(ruleset: Ruleset, value: int) -> Ruleset:
    """D-08: with 35, 35 takes 30's place in the score table and in every value set."""
    if ruleset.cowries != 7 or value == ruleset.six_up_value:
        return dataclasses.replace(ruleset, six_up_value=value)
    old = ruleset.six_up_value

    def swap(values: ValueSet) -> ValueSet:
        return frozenset(value if v == old else v for v in values)

    table = list(ruleset.score_table)
    if table[6] == old:
        table[6] = value
    exit_values = ruleset.last_square_exit
    return dataclasses.replace(
        ruleset,
        six_up_value=value,
        score_table=tuple(table),
        reroll_values=swap(ruleset.reroll_values),
        entry_values=swap(ruleset.entry_values),
        big_values=swap(ruleset.big_values),
        pyada_values=swap(ruleset.pyada_values),
        last_square_exit=exit_values if isinstance(exit_values, str) else swap(exit_values),
    )


def _apply_cowries(ruleset: Ruleset, cowries: int) -> Ruleset:
    """Switching the number of cowries also switches to that count's default table."""
    if cowries == ruleset.cowries:
        return ruleset
    if cowries == 7:
        return dataclasses.replace(
            ruleset,
            cowries=7,
            score_table=SEEDS_7,
            reroll_values=frozenset({7, 10, 25, 30, 14}),
            entry_values=frozenset({10, 25, 30}),
            last_square_exit=frozenset({10, 25, 30}),
            big_values=frozenset({10, 25, 30}),
            pyada_values=frozenset({10, 25, 30}),
            six_up_value=30,
        )
    return dataclasses.replace(
        ruleset,
        cowries=6,
        score_table=CLASSIC_6,
        reroll_values=frozenset({6, 10, 25}),
        entry_values=frozenset({6, 10, 25}),
        last_square_exit=frozenset({6, 10, 25}),
        big_values=frozenset({10, 25}),
        pyada_values=frozenset({10, 25}),
        six_up_value=30,
    )


_ORDER_FIRST: Final = ("cowries", "six_up_value")


def derive(base: Ruleset, changes: dict[str, Any]) -> Ruleset:
    """``base`` with the given switch values, validated.

    ``cowries`` and ``six_up_value`` are applied first because they bring their own tables
    and value sets (D-08); explicit values for those keys then override.
    """
    ruleset = base
    if "cowries" in changes:
        ruleset = _apply_cowries(ruleset, changes["cowries"])
    if "six_up_value" in changes:
        ruleset = _apply_six_up(ruleset, changes["six_up_value"])
    rest = {k: v for k, v in changes.items() if k not in _ORDER_FIRST}
    linked = "pyada_values" not in rest and ruleset.pyada_values == ruleset.big_values
    if "big_values" in rest and "pyada_values" not in rest:
        rest["pyada_values"] = _linked_pyada_values(ruleset, rest["big_values"])
    ruleset = dataclasses.replace(ruleset, **rest)
    # The canonical string lists the switches that differ from the base: none of them may be
    # idle either, or a ruleset built in several steps would not read back from its string.
    given = set(changes) | set(_canonical_keys(ruleset))
    idle = [
        reason
        for switch in SWITCHES
        if switch.key in given and (reason := _without_effect(ruleset, switch.key, linked))
    ]
    validate(ruleset, idle)
    return ruleset


def _without_effect(r: Ruleset, key: str, pyada_follows: bool) -> str | None:
    """Why the switch ``key``, set explicitly, has no effect in ``r`` (None if it has one).

    ``pyada_follows`` says whether ``pyada_values`` follows ``big_values`` (V-PYADA), as it
    does unless the ruleset set it apart.

    These are the cells that RULES.md E.1 marks "not applicable" (``—``): another switch
    turns the key's rule off, so setting it means nothing and is refused. A switch whose
    rule is on but that RULES.md says does nothing in some mode (``triple_scope`` in
    immediate mode, ``unusable_throw`` in collect mode, ``deadlock`` without
    kill-before-home) keeps its documented meaning and is accepted.
    """
    if key == "six_up_value" and r.cowries != 7:
        return "six_up_value is the value of 6 mouths up with 7 cowries; it needs cowries=7"
    if key == "seven_fourteen_needs_piece" and not {7, 14} & set(r.score_table):
        return "seven_fourteen_needs_piece needs a 7 or a 14 in score_table"
    if key == "triple_scope" and r.triple_cancel == TripleCancel.OFF:
        return "triple_scope needs triple_cancel=group or same"
    feeds_pyada = r.pyada and pyada_follows
    if key == "big_values" and r.triple_cancel != TripleCancel.GROUP and not feeds_pyada:
        return "big_values needs triple_cancel=group (or pyada=true, whose values follow it)"
    if key in ("pyada_values", "pyada_condition", "pyada_use") and not r.pyada:
        return f"{key} needs pyada=true"
    return None


def _linked_pyada_values(ruleset: Ruleset, big_values: ValueSet) -> ValueSet:
    """V-PYADA: ``pyada_values`` defaults to ``big_values``, so it follows a change of
    ``big_values`` unless the ruleset had already set it apart."""
    if ruleset.pyada_values == ruleset.big_values:
        return big_values
    return ruleset.pyada_values


_LUDII_FREE: Final = frozenset(
    {
        "track",
        "first_player",
        "capture_bonus",
        "unusable_throw",
        "p_mouth_up",
        "players",
        "deadlock",
    }
)
"""The switches that Ludii's own flow (track=ludii) lets a ruleset change."""


def validate(r: Ruleset, problems: list[str] | None = None) -> None:
    """Refuse a switch combination that makes no sense, naming the switches involved.

    ``problems`` are reasons already found (by :func:`derive`) to report with the others.
    """
    problems = list(problems or ())

    def check(bad: bool, msg: str) -> None:
        if bad:
            problems.append(msg)

    check(
        len(r.score_table) != r.cowries + 1,
        f"score_table has {len(r.score_table)} values but cowries={r.cowries} needs "
        f"{r.cowries + 1} (k = 0..{r.cowries} mouths up)",
    )
    table = set(r.score_table)
    for key in ("reroll_values", "entry_values"):
        extra = getattr(r, key) - table
        check(bool(extra), f"{key} names {_format_set(extra)}, which no throw in score_table has")
    if isinstance(r.last_square_exit, frozenset):
        extra = r.last_square_exit - table
        check(bool(extra), f"last_square_exit names {_format_set(extra)}, not in score_table")
    check(
        r.last_square_exit == LastSquareExit.LUDII and not r.ludii,
        "last_square_exit=ludii needs track=ludii",
    )
    check(
        r.first_piece_free == FirstPieceFree.LUDII_FORCED and not r.ludii,
        "first_piece_free=ludii_forced needs track=ludii",
    )
    if r.ludii:
        # Ludii's flow (RULES.md E.2) consults only these switches; any other value would
        # be silently ignored, so it is refused.
        ludii = NAMED["ludii"]
        for switch in SWITCHES:
            key = switch.key
            got = getattr(r, key)
            if key not in _LUDII_FREE and got != getattr(ludii, key):
                check(
                    True,
                    f"track=ludii reproduces Ludii's flow, which has no "
                    f"{key}={format_value(key, got)}",
                )
    check(
        r.recapture_annul and r.kill_before_home == KillBeforeHome.FALSE,
        "recapture_annul=true is only meaningful with kill_before_home=seat or team",
    )
    check(
        r.pyada_use == PyadaUse.ATTACHED and r.throw_usage == ThrowUsage.COLLECT,
        "pyada_use=attached is valid only with throw_usage=immediate",
    )
    check(
        r.pyada_can_enter and not r.pyada,
        "pyada_can_enter=true needs pyada=true",
    )
    check(
        r.players == 2 and r.teams == Teams.INDIVIDUAL,
        "players=2 (two people with two seats each) cannot be played with teams=individual",
    )
    check(
        r.blockade and r.stacking == Stacking.NONE,
        "blockade=true needs two friendly pieces on one square, which stacking=none never "
        "allows (V-BLOCKADE, V-STACK-RESTRICTED)",
    )
    check(
        r.blockade and isinstance(r.stacking, frozenset) and r.stacking <= _PRIVATE_SQUARES,
        "blockade=true needs two friendly pieces on a loop square, and the stacking set "
        "allows sharing only on private squares, where no blockade forms (V-BLOCKADE)",
    )
    check(
        r.pyada and not r.pyada_values & table,
        f"pyada=true with pyada_values={_format_set(r.pyada_values)}: no throw in "
        f"score_table can earn a pyada (V-PYADA)",
    )
    check(
        r.blockade and r.castle_mode == CastleMode.COEXIST and r.stack_immune,
        "blockade=true with stack_immune=true and castle_mode=coexist leaves no capture rule",
    )
    check(
        any(not 1 <= v <= MAX_THROW_VALUE for v in r.score_table),
        f"score_table values must be 1..{MAX_THROW_VALUE}",
    )
    check(
        r.grace_must_enter and not r.entry_values,
        "grace_must_enter=true needs entry_values (no throw can enter a piece)",
    )
    if not problems:
        problems += _endless_throwing(r)
    if not problems:
        problems += unplayable(r)
    if problems:
        raise RulesetError("invalid ruleset: " + "; ".join(problems))


def _endless_throwing(r: Ruleset) -> list[str]:
    """Refuse a throw-off or a series of throws that can go on forever, or is expected to
    take more than ``MAX_EXPECTED_THROWS`` throws (R-ORDER, R-GRACE-REPEAT)."""
    limit = _bounds.MAX_EXPECTED_THROWS
    problems: list[str] = []
    if r.first_player == FirstPlayer.THROW_OFF:
        e = _bounds.expected_throwoff_throws(r)
        if e is None or e > limit:
            problems.append(
                f"the throw-off would take {_throws(e)} (the limit is {limit}): "
                f"score_table={format_value('score_table', r.score_table)} with "
                f"p_mouth_up={r.p_mouth_up} gives tie after tie"
            )
    e = _bounds.expected_series_throws(r)
    if e is None:
        problems.append(
            "a turn could go on forever: every throw gives another throw "
            f"(reroll_values={format_value('reroll_values', r.reroll_values)}, "
            f"score_table={format_value('score_table', r.score_table)}) and "
            f"triple_cancel={r.triple_cancel} does not stop it"
        )
    elif e > limit:
        problems.append(
            f"a turn would take {_throws(e)} (the limit is {limit}): "
            f"reroll_values={format_value('reroll_values', r.reroll_values)} with "
            f"p_mouth_up={r.p_mouth_up} gives another throw too often"
        )
    return problems


def _throws(expected: float | None) -> str:
    if expected is None:
        return "forever"
    if expected == math.inf:
        return "practically forever"
    return f"{expected:,.0f} throws on average"


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
                _apply_cowries(reference, r.cowries)
                if key == "cowries"
                else _apply_six_up(reference, r.six_up_value)
            )
    if r.big_values != reference.big_values:
        reference = dataclasses.replace(
            reference, pyada_values=_linked_pyada_values(reference, r.big_values)
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
