"""What the invariant checks share: :class:`InvalidStateError`, which they raise, and the
one check both groups make, that no turn is in progress.

:func:`pachisi.rules.invariants.check_state` runs the checks of two modules, which import
this one and not each other: :mod:`pachisi.rules.board_invariants` (what is on the board)
and :mod:`pachisi.rules.turn_invariants` (where the turn stands). A game over and a
throw-off both have no turn in progress, and the first is checked with the board, the
second with the turn, so :func:`check_cleared` lives here, below both.
"""

from __future__ import annotations

from pachisi.rules.state import State

__all__ = ["InvalidStateError", "check_cleared", "fail", "piece_name"]


class InvalidStateError(ValueError):
    """A state that breaks an invariant the engine keeps.

    ``field`` is the position-string field at fault (``pieces``, ``side``, ``turn``, or a
    ``key=value`` key such as ``k``, ``split`` or ``records``); ``reason`` says why.
    ``item`` narrows it down where a field lists several things: the piece (global id)
    for ``laps`` and ``order``, the record's index for ``records``; otherwise -1.
    """

    def __init__(self, field: str, reason: str, item: int = -1) -> None:
        self.field = field
        self.reason = reason
        self.item = item
        super().__init__(f"{field}: {reason}")


def piece_name(g: int) -> str:
    """A piece by its global id, as the messages name it: its seat, then a..d (``0a``)."""
    return f"{g >> 2}{'abcd'[g & 3]}"


def fail(field: str, reason: str, item: int = -1) -> InvalidStateError:
    """The error for a broken invariant, returned so that each check raises it itself."""
    return InvalidStateError(field, reason, item)


def check_cleared(s: State, why: str) -> None:
    """No turn in progress: the fields a throw or an action leaves are at their defaults."""
    fields = (
        ("k", s.throw_k != -1),
        ("again", s.again),
        ("captured", s.captured),
        ("pyadas", s.pyadas != 0),
        ("items", bool(s.items)),
        ("run", s.run != (0, 0)),
        ("split", (s.split_left, s.split_value, s.split_used) != (0, 0, 0)),
        ("flags", s.phase_flags != 0),
        ("throwoff", bool(s.throwoff)),
    )
    for key, set_ in fields:
        if set_:
            raise fail(key, f"no turn is in progress ({why})")
