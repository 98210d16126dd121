"""Between the reference engine and the compiled one: states, actions and events.

:func:`to_row` and :func:`to_state` convert a :class:`~pachisi.rules.state.State` to a
state row (:mod:`pachisi.fast.layout`) and back, exactly, so that anything the compiled
engine reaches can be written as a position string. :func:`action_id` and
:func:`action_of` map the reference :class:`~pachisi.rules.actions.Action` to the fixed
action space (:mod:`pachisi.fast.codes`) and back; :func:`events_of` turns the kernels'
event buffer into reference :class:`~pachisi.rules.state.Event` objects.

>>> from pachisi.rules import engine
>>> from pachisi.rules.ruleset import get_ruleset
>>> state, _ = engine.apply_chance(engine.new_game(get_ruleset("ludii")), 3)
>>> to_state(to_row(state), state.ruleset) == state
True
>>> [action_id(a, state.ruleset) for a in engine.legal_actions(state)]
[108]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pachisi.fast import codes as codec
from pachisi.fast.codes import EVENT_NAMES
from pachisi.fast.layout import (
    AGAIN,
    CAPTURED,
    ENTERED,
    FLAGS,
    ITEMS,
    ITEMS_LEN,
    KILLS,
    LAPS,
    MAX_ITEMS,
    MAX_RECORDS,
    ORDER,
    ORDER_LEN,
    OVERFLOW,
    POS,
    PYADAS,
    REC_FIELDS,
    REC_LEN,
    RECS,
    RUN_KEY,
    RUN_LEN,
    SEAT,
    SPLIT_LEFT,
    SPLIT_USED,
    SPLIT_VALUE,
    STAGE,
    STATE_SIZE,
    THROW_K,
    THROWOFF,
    TURN,
    WINNER,
)
from pachisi.fast.params import FastEngineError
from pachisi.rules._position import mover
from pachisi.rules.actions import DECLINE, Action, ActionKind
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import CaptureRecord, Event, Memo, Stage, State

__all__ = ["action_id", "action_of", "events_of", "to_row", "to_state"]

Row = npt.NDArray[np.int32]


def to_row(state: State) -> Row:
    """The state row of ``state``; :class:`FastEngineError` if it does not fit."""
    if len(state.items) > MAX_ITEMS:
        raise FastEngineError(f"{len(state.items)} collected throws; the row holds {MAX_ITEMS}")
    if len(state.records) > MAX_RECORDS:
        raise FastEngineError(f"{len(state.records)} capture records; the row holds {MAX_RECORDS}")
    row = np.zeros(STATE_SIZE, dtype=np.int32)
    row[POS : POS + 16] = state.pos
    row[STAGE] = int(state.stage)
    row[SEAT] = state.seat
    row[TURN] = state.turn
    row[ORDER : ORDER + len(state.order)] = state.order
    row[ORDER_LEN] = len(state.order)
    row[LAPS] = state.laps
    row[ENTERED] = state.entered
    row[KILLS : KILLS + 4] = state.kills
    row[REC_LEN] = len(state.records)
    for i, rec in enumerate(state.records):
        base = RECS + i * REC_FIELDS
        row[base : base + REC_FIELDS] = (
            rec.capturer,
            rec.pieces,
            rec.square,
            rec.victims,
            rec.turn,
        )
    row[THROW_K] = state.throw_k
    row[AGAIN] = state.again
    row[CAPTURED] = state.captured
    row[PYADAS] = state.pyadas
    row[RUN_KEY], row[RUN_LEN] = state.run
    row[SPLIT_LEFT] = state.split_left
    row[SPLIT_VALUE] = state.split_value
    row[SPLIT_USED] = state.split_used
    row[FLAGS] = state.phase_flags
    if state.throwoff:
        row[THROWOFF : THROWOFF + 4] = state.throwoff
    row[WINNER] = state.winner
    row[ITEMS_LEN] = len(state.items)
    row[ITEMS : ITEMS + len(state.items)] = state.items
    return row


def to_state(row: Row, ruleset: Ruleset) -> State:
    """The reference state of a state row; :class:`FastEngineError` if the game overflowed."""
    if row[OVERFLOW]:
        raise FastEngineError(
            f"a series of throws went past the {MAX_ITEMS} collected throws a row holds"
        )
    # One conversion to Python ints for the whole row, not one numpy scalar per field.
    r: list[int] = row.tolist()
    stage = Stage(r[STAGE])
    records = tuple(
        CaptureRecord(*r[RECS + i * REC_FIELDS : RECS + (i + 1) * REC_FIELDS])
        for i in range(r[REC_LEN])
    )
    return State(
        ruleset,
        tuple(r[POS : POS + 16]),
        stage,
        r[SEAT],
        r[TURN],
        tuple(r[ORDER : ORDER + r[ORDER_LEN]]),
        r[LAPS],
        r[ENTERED],
        (r[KILLS], r[KILLS + 1], r[KILLS + 2], r[KILLS + 3]),
        records,
        r[THROW_K],
        bool(r[AGAIN]),
        bool(r[CAPTURED]),
        r[PYADAS],
        tuple(r[ITEMS : ITEMS + r[ITEMS_LEN]]),
        (r[RUN_KEY], r[RUN_LEN]),
        r[SPLIT_LEFT],
        r[SPLIT_VALUE],
        r[SPLIT_USED],
        r[FLAGS],
        tuple(r[THROWOFF : THROWOFF + 4]) if stage is Stage.THROW_OFF else (),
        r[WINNER],
        Memo(),
    )


def _slot(ruleset: Ruleset, value: int) -> int:
    try:
        return ruleset.score_table.index(value)
    except ValueError:
        raise FastEngineError(f"{value} is not a throw value of {ruleset}") from None


def action_id(action: Action, ruleset: Ruleset) -> int:
    """The id of ``action`` in the fixed action space (:mod:`pachisi.fast.codes`)."""
    kind = action.kind
    if kind is ActionKind.DECLINE:
        return codec.DECLINE_ID
    piece = action.pieces[0]
    if action.pyada:
        if kind is ActionKind.ENTER:
            return codec.PYADA_ENTER_ID
        return codec.PYADA_MOVE_BASE + piece
    slot = _slot(ruleset, action.value)
    if kind is ActionKind.ENTER:
        return codec.ENTER_BASE + slot
    if kind is ActionKind.FREE:
        return codec.FREE_BASE + slot
    if kind is ActionKind.EXIT:
        return codec.EXIT_BASE + 8 * piece + slot
    if kind is ActionKind.LAP:
        return codec.LAP_BASE + 8 * piece + slot
    if action.part:
        if action.part > codec.PART_STEPS:
            raise FastEngineError(f"{action}: a split part of more than {codec.PART_STEPS}")
        return codec.PART_BASE + codec.PART_STEPS * (8 * piece + slot) + action.part - 1
    if len(action.pieces) > 1:
        return codec.GROUP_BASE + 8 * (3 * piece + len(action.pieces) - 2) + slot
    return codec.MOVE_BASE + 8 * piece + slot


def action_of(a: int, state: State) -> Action:
    """The reference action of id ``a`` in ``state`` (whose pieces a group or entry takes)."""
    if not 0 <= a < codec.NUM_ACTIONS:
        raise FastEngineError(f"action {a} is outside the action space 0..{codec.NUM_ACTIONS - 1}")
    kind, piece, slot, size, steps, pyada = codec.decode(a)
    if kind == codec.K_DECLINE:
        return DECLINE
    m = mover(state)
    table = state.ruleset.score_table
    if slot >= len(table):
        raise FastEngineError(f"action {a} names a throw this ruleset does not have")
    value = 0 if pyada else table[slot]
    if kind in (codec.K_ENTER, codec.K_FREE):
        waiting = [i for i in range(4) if state.pos[4 * m + i] == 0]
        piece = waiting[0] if waiting else 0
    pieces: tuple[int, ...] = (piece,)
    if size > 1:
        p = state.pos[4 * m + piece]
        pieces = tuple(j for j in range(piece, 4) if state.pos[4 * m + j] == p)[:size]
    return Action(ActionKind(kind), m, pieces, value, steps, pyada)


def events_of(ev: npt.NDArray[np.int32], count: int) -> list[Event]:
    """The first ``count`` events of an event buffer, as reference events."""
    out = []
    for kind, seat, piece, frm, to, value, pieces, k in ev[:count].tolist():
        members = tuple(g for g in range(16) if (pieces >> g) & 1)
        out.append(Event(EVENT_NAMES[kind], seat, piece, frm, to, value, members, k))
    return out
