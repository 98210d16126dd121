"""The :class:`~pachisi.rules.state.State` the fields of a position string make, which must
keep every invariant of the engine (:func:`pachisi.rules.invariants.check_state`): the
rules core decides what a position may be, the reader only where to point at a problem."""

from __future__ import annotations

from pachisi.notation._position_fields import Fields
from pachisi.notation._position_format import FRESH_THROWOFF
from pachisi.notation.errors import NotationError
from pachisi.rules.invariants import InvalidStateError, check_state
from pachisi.rules.state import Memo, Stage, State


def build(f: Fields) -> State:
    """Make the state and refuse it, at the column of the field at fault, if no game can
    reach it."""
    state = _state(f, _throwoff(f))
    try:
        check_state(state)
    except InvalidStateError as exc:
        raise NotationError(exc.field, exc.reason, _column(f, exc)) from None
    return state


def _column(f: Fields, exc: InvalidStateError) -> int:
    """Where the field an invariant names stands, at the very item when it names one."""
    if exc.item >= 0:
        if exc.field == "records" and exc.item < len(f.records):
            return f.records[exc.item][1]
        listed = {"laps": f.laps, "order": f.order or []}.get(exc.field, [])
        for g, col in listed:
            if g == exc.item:
                return col
    return f.columns.get(exc.field, 0)


def _state(f: Fields, throwoff: tuple[int, ...]) -> State:
    return State(
        f.ruleset,
        f.pos,
        f.stage,
        f.seat,
        f.turn,
        tuple(g for g, _ in f.order or ()),
        sum(1 << g for g, _ in f.laps),
        f.entered,
        f.kills,
        tuple(rec for rec, _ in f.records),
        f.k,
        f.again,
        f.captured,
        f.pyadas,
        f.items,
        f.run,
        *f.split,
        f.flags,
        throwoff,
        f.winner,
        Memo(),
    )


def _throwoff(f: Fields) -> tuple[int, ...]:
    """The throw-off values: in stage o, nobody has thrown yet unless the field says so."""
    if f.throwoff is not None:
        return f.throwoff
    return FRESH_THROWOFF if f.stage is Stage.THROW_OFF else ()
