"""Every way a ruleset string can be refused, as the template of its message, in one place.

A ruleset string ``NAME+key=value+...`` is refused with a :class:`RulesetError` whose message
is one of these templates filled in: the reading of the string and of each switch value
(:func:`pachisi.rules.ruleset.parse_ruleset`, :func:`pachisi.rules.switch_text.parse_value`),
a switch set where it has no effect or a combination that makes no sense
(:mod:`pachisi.rules.ruleset_checks`), throwing that need not end (R-ORDER, R-GRACE-REPEAT)
and a game that could never start or be won (R-PLAYABLE-RULESET, :mod:`pachisi.rules._playable`).
The checks of a whole ruleset report every problem they find together, after
:data:`INVALID`'s ``invalid ruleset:``.

docs/rules-notes.md lists every refusal with an example that triggers it, and
``tests/rules/test_refusals_documented.py`` holds that list to the templates here: a new
refusal needs a new row there.

>>> GIVEN_TWICE(key="pyada")
"switch 'pyada' is given twice"

This module imports nothing of the package, so that every module that refuses can use it.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Final

__all__ = ["Problem", "Refusal", "refusals"]


@dataclass(frozen=True)
class Refusal:
    """One kind of refusal: a message template, filled in with :meth:`str.format` fields.

    A field named ``key`` holds a switch's key as it is (``pyada_use``); any other field
    holds text that varies (values, quoted excerpts, lists).
    """

    template: str
    from_python_only: bool = False
    """True if no ruleset string can trigger it, only a call from Python: ``parse_ruleset``
    given something other than text, or ``validate`` given a ruleset built with
    :func:`dataclasses.replace` (a string's value reader refuses such a value first)."""

    def __call__(self, **fields: object) -> str:
        return self.template.format(**fields)

    def pattern(self) -> re.Pattern[str]:
        """A regular expression that every message of this kind matches as a whole."""
        parts = []
        for literal, field, _, conversion in string.Formatter().parse(self.template):
            parts.append(re.escape(literal))
            if field == "key":
                key = r"[a-z0-9_]+"
                parts.append(f"'{key}'" if conversion == "r" else key)
            elif field is not None:
                parts.append(r".+?")
        return re.compile("".join(parts), re.DOTALL)


class Problem(Refusal):
    """A problem that the checks of a whole ruleset find: they report every one they find
    together, after :data:`INVALID`'s ``invalid ruleset:``."""


# --------------------------------------------------------------------------- reading the text

NOT_TEXT: Final = Refusal("a ruleset string is text, not {type}", from_python_only=True)
TOO_LONG: Final = Refusal("ruleset string of {length} characters (the limit is {limit})")
EMPTY: Final = Refusal("empty ruleset string")
BAD_CHARACTER: Final = Refusal(
    "{text}: {char} cannot be part of a ruleset string (ASCII letters, digits and + = , / . _ - "
    "only)"
)
UNKNOWN_RULESET: Final = Refusal("unknown ruleset {name}; known: {known}")
NOT_KEY_VALUE: Final = Refusal("switch {part} must be written key=value")
GIVEN_TWICE: Final = Refusal("switch {key!r} is given twice")

# --------------------------------------------------------------------------- one switch value

UNKNOWN_SWITCH: Final = Refusal("unknown switch {name}; known switches: {known}")
NOT_A_CHOICE: Final = Refusal("{key}: {text} is not one of {choices}")
NOT_NUMBERS: Final = Refusal("{key}: {text} is not a comma-separated list of numbers")
THROW_VALUE_RANGE: Final = Refusal("{key}: throw values must be 1..{limit}, got {text}")
NOT_A_SQUARE: Final = Refusal("stacking: {name} is not a square of the board")
NOT_A_PROBABILITY: Final = Refusal(
    "p_mouth_up: {text} is not a number like 1/2 or 0.45 (ASCII digits, at most 30 to a part)"
)
DIVIDES_BY_ZERO: Final = Refusal("p_mouth_up: {text} divides by zero")
NOT_BETWEEN_0_AND_1: Final = Refusal("p_mouth_up: {text} must lie strictly between 0 and 1")

# --------------------------------------------------------------------------- the whole ruleset

INVALID: Final = Refusal("invalid ruleset: {problems}")
"""What the checks of a whole ruleset raise: every problem below that they found, joined
with ``; ``."""
PROBLEM_SEPARATOR: Final = "; "

# A switch set explicitly where another switch turns its rule off (RULES.md E.1's "—").
IDLE_SIX_UP_VALUE: Final = Problem(
    "six_up_value is the value of 6 mouths up with 7 cowries; it needs cowries=7"
)
IDLE_SEVEN_FOURTEEN: Final = Problem("seven_fourteen_needs_piece needs a 7 or a 14 in score_table")
IDLE_TRIPLE_SCOPE: Final = Problem("triple_scope needs triple_cancel=group or same")
IDLE_BIG_VALUES: Final = Problem(
    "big_values needs triple_cancel=group (or pyada=true, whose values follow it)"
)
IDLE_PYADA_SWITCH: Final = Problem("{key} needs pyada=true")

# Switch values that contradict each other.
TABLE_LENGTH: Final = Problem(
    "score_table has {count} values but cowries={cowries} needs {needed} "
    "(k = 0..{cowries} mouths up)"
)
VALUES_NOT_THROWN: Final = Problem("{key} names {values}, which no throw in score_table has")
EXIT_NOT_THROWN: Final = Problem("last_square_exit names {values}, not in score_table")
TABLE_VALUE_RANGE: Final = Problem("score_table values must be 1..{limit}", from_python_only=True)
LUDII_EXIT: Final = Problem("last_square_exit=ludii needs track=ludii")
LUDII_FIRST_PIECE: Final = Problem("first_piece_free=ludii_forced needs track=ludii")
LUDII_FLOW: Final = Problem("track=ludii reproduces Ludii's flow, which has no {key}={value}")
ANNUL_WITHOUT_KILL: Final = Problem(
    "recapture_annul=true is only meaningful with kill_before_home=seat or team"
)
ATTACHED_IN_COLLECT: Final = Problem("pyada_use=attached is valid only with throw_usage=immediate")
PYADA_ENTRY_WITHOUT_PYADA: Final = Problem("pyada_can_enter=true needs pyada=true")
TWO_PLAYERS_ALONE: Final = Problem(
    "players=2 (two people with two seats each) cannot be played with teams=individual"
)
BLOCKADE_WITHOUT_STACKING: Final = Problem(
    "blockade=true needs two friendly pieces on one square, which stacking=none never "
    "allows (V-BLOCKADE, V-STACK-RESTRICTED)"
)
BLOCKADE_ON_PRIVATE_SQUARES: Final = Problem(
    "blockade=true needs two friendly pieces on a loop square, and the stacking set "
    "allows sharing only on private squares, where no blockade forms (V-BLOCKADE)"
)
PYADA_NEVER_EARNED: Final = Problem(
    "pyada=true with pyada_values={values}: no throw in score_table can earn a pyada (V-PYADA)"
)
NO_ENTRY_GRACE: Final = Problem(
    "grace_must_enter=true needs entry_values: with entry_values=none there is no entry "
    "grace that must enter (V-GRACE-MUST-ENTER)"
)

# Throwing that need not end (R-ORDER, R-GRACE-REPEAT).
LONG_THROW_OFF: Final = Problem(
    "the throw-off would take {throws} (the limit is {limit}): score_table={table} with "
    "p_mouth_up={p} gives tie after tie"
)
ENDLESS_SERIES: Final = Problem(
    "a turn could go on forever: every throw gives another throw "
    "(reroll_values={values}, score_table={table}) and triple_cancel={triple_cancel} does "
    "not stop it"
)
ENDLESS_VOID_SERIES: Final = Problem(
    "a turn could go on forever: while a seat has no piece on the board, every throw gives "
    "another throw (reroll_values={values}, and a 7 or 14 is void and thrown again under "
    "seven_fourteen_needs_piece=rethrow_only) and triple_cancel={triple_cancel} does not "
    "stop it"
)
LONG_SERIES: Final = Problem(
    "a turn would take {throws} (the limit is {limit}): reroll_values={values} with "
    "p_mouth_up={p} gives another throw too often"
)

# A game that could never start or be won (R-PLAYABLE-RULESET).
NEVER_ENTERS: Final = Problem("no piece can ever enter the board (R-PLAYABLE-RULESET): {reasons}")
NEVER_HOME: Final = Problem(
    "no piece can ever reach home, so no side can ever win (R-PLAYABLE-RULESET): no series "
    "of steps by score_table={table} from where pieces enter ends exactly on p84, and "
    "last_square_exit={exits} gives no way off p83"
)


def refusals() -> dict[str, Refusal]:
    """Every refusal of this module, by its name here."""
    return {name: value for name, value in globals().items() if isinstance(value, Refusal)}
