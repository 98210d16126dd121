"""Actions: small value objects for what a seat can do with a throw, with a canonical text form.

The text form of an action names the seat and piece letters, then an operator and the throw
value it uses:

========  ==========================================================  ==============
text      meaning                                                     rule
========  ==========================================================  ==============
``-``     decline the throw (or stop spending, in collect mode)       R-DECLINE
``0a+4``  move piece 0.a by the throw 4 (a move to 84 finishes)      R-MOVE
``0ab+4`` move 0.a and 0.b together by 4                              V-SPLIT-THROW
``0a+3/10`` move 0.a by 3, a part of the throw 10                     V-SPLIT-THROW
``0a+p``  move 0.a one step with a pyada                              V-PYADA
``0b@25`` enter 0.b with the grace 25 (``0b@p``: with a pyada)        R-GRACE-ENTRY
``0a*3``  first piece leaves the Charkoni with the throw 3            R-FIRST-PIECE-FREE
``0a#10`` finish 0.a from the last square with the throw 10           R-LAST-SQUARE-EXIT
``0a~25`` move 0.a by 25 into a second lap                            V-EXTRA-LAP
========  ==========================================================  ==============

>>> Action.parse("0ab+4")
Action.parse('0ab+4')
>>> str(Action.parse("2c@25")), Action.parse("2c@25").kind.name
('2c@25', 'ENTER')
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Final, NamedTuple


class ActionKind(IntEnum):
    """What an action does."""

    DECLINE = 0
    MOVE = 1
    ENTER = 2
    FREE = 3
    EXIT = 4
    LAP = 5


class InvalidActionError(ValueError):
    """The text is not an action at all (a syntax error)."""


class IllegalActionError(ValueError):
    """The action is well formed but not legal in this position."""


LETTERS: Final = "abcd"
_OPS: Final = {"+": ActionKind.MOVE, "@": ActionKind.ENTER, "*": ActionKind.FREE}
_OPS.update({"#": ActionKind.EXIT, "~": ActionKind.LAP})
_OP_OF: Final = {kind: op for op, kind in _OPS.items()}
_PATTERN: Final = re.compile(
    r"^([0-3])([a-d]{1,4})([+@*#~])(p|[1-9][0-9]{0,2}(?:/[1-9][0-9]{0,2})?)$"
)


class Action(NamedTuple):
    """One choice of a seat: ``kind``, whose pieces, and which throw value it uses.

    ``pieces`` are piece indices 0..3 within ``seat`` (``a``..``d``). ``value`` is the throw
    it uses (0 for a pyada or a decline). ``part`` is non-zero only for a split part: the
    number of steps taken from ``value``.
    """

    kind: ActionKind
    seat: int = -1
    pieces: tuple[int, ...] = ()
    value: int = 0
    part: int = 0
    pyada: bool = False

    def __str__(self) -> str:
        if self.kind is ActionKind.DECLINE:
            return "-"
        letters = "".join(LETTERS[i] for i in self.pieces)
        if self.pyada:
            amount = "p"
        elif self.part:
            amount = f"{self.part}/{self.value}"
        else:
            amount = str(self.value)
        return f"{self.seat}{letters}{_OP_OF[self.kind]}{amount}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @property
    def global_pieces(self) -> tuple[int, ...]:
        """The pieces as global ids ``4 * seat + index`` (0..15)."""
        return tuple(4 * self.seat + i for i in self.pieces)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the canonical text form; :class:`InvalidActionError` if it is malformed."""
        t = text.strip()
        if t in ("-", "decline", "pass", "stop"):
            return DECLINE
        m = _PATTERN.match(t)
        if not m:
            raise InvalidActionError(
                f"{text!r} is not an action (examples: 0a+4, 0ab+4, 0a+3/10, 0a+p, 0b@25, "
                "0a*3, 0a#10, 0a~25, -)"
            )
        seat_text, letters, op, amount = m.groups()
        if len(set(letters)) != len(letters) or list(letters) != sorted(letters):
            raise InvalidActionError(f"{text!r}: piece letters must be distinct and in order")
        kind = _OPS[op]
        if len(letters) > 1 and kind is not ActionKind.MOVE:
            raise InvalidActionError(f"{text!r}: only a move can take several pieces")
        pieces = tuple(LETTERS.index(c) for c in letters)
        if amount == "p":
            if kind not in (ActionKind.MOVE, ActionKind.ENTER) or len(pieces) > 1:
                raise InvalidActionError(f"{text!r}: a pyada moves or enters one piece")
            return cls(kind, int(seat_text), pieces, 0, 0, True)
        part = 0
        if "/" in amount:
            part_text, value_text = amount.split("/")
            part, value = int(part_text), int(value_text)
            if kind is not ActionKind.MOVE or len(pieces) > 1 or not 0 < part <= value:
                raise InvalidActionError(f"{text!r}: a split part moves one piece 1..value steps")
        else:
            value = int(amount)
        return cls(kind, int(seat_text), pieces, value, part, False)


DECLINE: Final = Action(ActionKind.DECLINE)
"""Decline the throw (R-DECLINE), or stop spending collected throws (C.10b)."""
