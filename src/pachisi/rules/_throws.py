"""Throws: what a cowrie throw does to a state (C.10a steps 2-4, C.10b steps 2-3, R-ORDER).

Internal to :mod:`pachisi.rules`; :func:`pachisi.rules.engine.apply_chance` is the entry
point, and R-FROZEN's test (:mod:`pachisi.rules.frozen`) asks the same code what a single
throw would give a seat.
"""

from __future__ import annotations

from pachisi.rules._builder import HAS_PIECE, NONE_WAITING, Builder
from pachisi.rules._position import mover
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.choices import (
    PyadaCondition,
    SevenFourteenNeedsPiece,
    ThrowUsage,
    TripleCancel,
    TripleScope,
)
from pachisi.rules.state import Event, Memo, Stage, State

__all__ = ["end_throwing", "throw"]

_SEVEN_FOURTEEN = (7, 14)


def throw(state: State, k: int) -> tuple[State, list[Event]]:
    r = state.ruleset
    stage = state.stage
    if stage is not Stage.THROW and stage is not Stage.THROW_OFF:
        raise IllegalActionError("no throw is due in this position")
    if not isinstance(k, int) or not 0 <= k <= r.cowries:
        raise IllegalActionError(f"a throw of {r.cowries} cowries has 0..{r.cowries} mouths up")
    v = r.score_table[k]
    if stage is Stage.THROW_OFF:
        b = Builder(state)
        events: list[Event] = []
        _throw_off(b, k, v, events)
        return b.freeze(), events
    events = [Event("throw", state.seat, value=v, k=k)]
    if r.throw_usage == ThrowUsage.COLLECT:
        b = Builder(state)
        _collect_throw(b, state, v, events)
        return b.freeze(), events
    m = mover(state)
    if v in _SEVEN_FOURTEEN and not state.on_board(m):
        # V-7-14-NEEDS-PIECE: no value; void ends the turn, rethrow_only throws again.
        events.append(Event("void", state.seat, value=v))
        b = Builder(state)
        if r.seven_fourteen_needs_piece == SevenFourteenNeedsPiece.VOID:
            b.end_turn(events)
        return b.freeze(), events
    run = state.run
    if r.triple_cancel != TripleCancel.OFF:
        run = r.advance_run(run, v)
        if run[1] >= 3:
            events.append(Event("cancel", state.seat, value=v))
            b = Builder(state)
            b.end_turn(events)
            return b.freeze(), events
    pyadas = 0
    if r.pyada and v in r.pyada_values:
        pieces = state.seat_pieces(m)
        if r.pyada_condition == PyadaCondition.ALWAYS or all(p != 0 for p in pieces):
            pyadas = 1
    # The common case builds the next state directly: a throw changes only turn fields.
    new = State(
        r,
        state.pos,
        Stage.ACT,
        state.seat,
        state.turn,
        state.order,
        state.laps,
        state.entered,
        state.kills,
        state.records,
        k,
        v in r.reroll_values,
        False,
        pyadas,
        state.items,
        run,
        state.split_left,
        state.split_value,
        state.split_used,
        state.phase_flags,
        state.throwoff,
        state.winner,
        Memo(),
    )
    return new, events


def _throw_off(b: Builder, k: int, v: int, events: list[Event]) -> None:
    """R-ORDER: every seat throws; the highest value begins; ties throw again."""
    values = list(b.throwoff)
    values[b.seat] = v
    events.append(Event("throw_off", b.seat, value=v, k=k))
    pending = [s for s in range(4) if values[s] == -1]
    if pending:
        b.seat = pending[0]
        b.throwoff = tuple(values)
        return
    best = max(values)
    tied = [s for s in range(4) if values[s] == best]
    if len(tied) > 1:
        b.throwoff = tuple(-1 if s in tied else -2 for s in range(4))
        b.seat = tied[0]
        return
    b.throwoff = ()
    b.seat = tied[0]
    b.turn = 1
    events.append(Event("begins", tied[0]))
    b.begin_phase()


def _collect_throw(b: Builder, state: State, v: int, events: list[Event]) -> None:
    """One throw of a throwing phase in collect mode (C.10b step 2)."""
    r = b.r
    if v in _SEVEN_FOURTEEN and not state.phase_flags & HAS_PIECE:
        events.append(Event("void", state.seat, value=v))
        if r.seven_fourteen_needs_piece == SevenFourteenNeedsPiece.VOID:
            end_throwing(b, events)
        return
    b.items.append(v)
    if r.triple_cancel != TripleCancel.OFF:
        b.run = r.advance_run(b.run, v)
        if b.run[1] >= 3:
            events.append(Event("cancel", state.seat, value=v))
            b.items = [] if r.triple_scope == TripleScope.TURN else b.items[:-3]
            end_throwing(b, events)
            return
    if v not in r.reroll_values:
        end_throwing(b, events)


def end_throwing(b: Builder, events: list[Event]) -> None:
    """Close the throwing phase: count pyadas, then spend or pass the turn (C.10b 3-4)."""
    r = b.r
    b.pyadas = 0
    if r.pyada and (r.pyada_condition == PyadaCondition.ALWAYS or b.phase_flags & NONE_WAITING):
        b.pyadas = sum(1 for v in b.items if v in r.pyada_values)
        if b.pyadas:
            events.append(Event("pyada", b.seat, value=b.pyadas))
    if b.items or b.pyadas:
        b.stage = Stage.SPEND
        b.captured = False
    else:
        b.end_turn(events)
