"""The variant switches of RULES.md E.1 as text: which switches there are, which text each
one takes, and how a value is read from that text and written back.

:data:`SWITCHES` declares every switch once, with the rule ID it implements and its allowed
choices; :func:`parse_value` reads one switch value (``cowries=7`` gives ``7``) and
:func:`format_value` writes its canonical text, so that a ruleset string reads back to an
equal ruleset:

>>> sorted(parse_value("reroll_values", "25,6,10"))
[6, 10, 25]
>>> format_value("reroll_values", frozenset({25, 6, 10}))
'6,10,25'

:mod:`pachisi.rules.ruleset` builds rulesets on top of this module and
:mod:`pachisi.rules.ruleset_checks` names values in its messages with it, so it imports
neither of them. The names that callers import from :mod:`pachisi.rules.ruleset`
(:class:`RulesetError`, :class:`Switch`, :data:`SWITCHES`, :data:`SWITCH_BY_KEY`,
:func:`parse_value`, :func:`format_value`) are re-exported there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, Final

from pachisi.rules import refusals
from pachisi.rules.board import parse_square, square_name
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
from pachisi.rules.cowries import HALF

__all__ = [
    "MAX_THROW_VALUE",
    "SWITCHES",
    "SWITCH_BY_KEY",
    "RulesetError",
    "Switch",
    "excerpt",
    "format_set",
    "format_value",
    "parse_value",
]


class RulesetError(ValueError):
    """A ruleset string or switch combination that cannot be played; names the switches."""


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
# Read from the declarations above, so that a switch's kind is declared once: a switch
# whose choices are false and true holds a bool, one whose choices are numbers an int.
_BOOL_KEYS: Final = frozenset(s.key for s in SWITCHES if set(s.choices) == {"false", "true"})
_INT_KEYS: Final = frozenset(
    s.key for s in SWITCHES if s.choices and all(c.isdigit() for c in s.choices)
)


def format_set(values: Iterable[int]) -> str:
    """The canonical text of a set of throw values: smallest first, or ``none``."""
    items = sorted(values)
    return ",".join(str(v) for v in items) if items else "none"


def format_value(key: str, value: Any) -> str:
    """The canonical text of one switch value."""
    if key in _BOOL_KEYS:
        return "true" if value else "false"
    if key in _VALUE_SET_KEYS:
        return format_set(value)
    if key == "score_table":
        return ",".join(str(v) for v in value)
    if key == "last_square_exit":
        return str(value) if isinstance(value, str) else format_set(value)
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
_EXCERPT: Final = 24

_DIGITS: Final = re.compile(r"[0-9]+")
_FRACTION: Final = re.compile(r"[0-9]{1,30}(?:/[0-9]{1,30}|\.[0-9]{0,30})?|\.[0-9]{1,30}")


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
        raise RulesetError(refusals.NOT_NUMBERS(key=key, text=excerpt(text)))
    if any(len(part) > len(str(MAX_THROW_VALUE)) or int(part) < 1 for part in parts):
        raise RulesetError(
            refusals.THROW_VALUE_RANGE(key=key, limit=MAX_THROW_VALUE, text=excerpt(text))
        )
    return tuple(int(part) for part in parts)


def parse_value(key: str, text: str) -> Any:
    """Read one switch value from text; :class:`RulesetError` names the key if it is bad."""
    switch = SWITCH_BY_KEY.get(key)
    if switch is None:
        raise RulesetError(
            refusals.UNKNOWN_SWITCH(name=excerpt(key), known=", ".join(SWITCH_BY_KEY))
        )
    if switch.choices and text not in switch.choices:
        raise RulesetError(
            refusals.NOT_A_CHOICE(key=key, text=excerpt(text), choices=", ".join(switch.choices))
        )
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
        squares = set()
        for name in text.split(","):
            try:
                squares.add(parse_square(name))
            except ValueError:
                raise RulesetError(refusals.NOT_A_SQUARE(name=excerpt(name))) from None
        return frozenset(squares)
    if key == "p_mouth_up":
        if not _FRACTION.fullmatch(text):
            raise RulesetError(refusals.NOT_A_PROBABILITY(text=excerpt(text)))
        try:
            p = Fraction(text)
        except ZeroDivisionError:
            raise RulesetError(refusals.DIVIDES_BY_ZERO(text=text)) from None
        if not 0 < p < 1:
            raise RulesetError(refusals.NOT_BETWEEN_0_AND_1(text=text))
        return HALF if p == HALF else p
    raise AssertionError(f"switch {key} has no reader")
