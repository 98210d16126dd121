"""The checks between the fields of a position string, against each other and the ruleset,
and the :class:`~pachisi.rules.state.State` they make, which must then keep every invariant
of the engine (:func:`pachisi.rules.invariants.check_state`)."""

from __future__ import annotations

from pachisi.notation._position_fields import Fields
from pachisi.notation._position_format import FRESH_THROWOFF, NUM_PIECES, piece_name
from pachisi.notation.errors import NotationError
from pachisi.rules.board import HOME, LAST_SQUARE, SQUARE_OF, square_name
from pachisi.rules.invariants import InvalidStateError, check_state
from pachisi.rules.state import DRAW, NO_WINNER, Memo, Stage, State


def build(f: Fields) -> State:
    """Check the fields against each other and the ruleset, make the state, and refuse it
    if no game can reach it."""
    _check_turn_fields(f)
    throwoff = _check_throwoff(f)
    _check_board_memory(f)
    state = _state(f, throwoff)
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


def _check_turn_fields(f: Fields) -> None:
    """The stage, pending throw and turn fields must fit each other and the ruleset."""
    r, stage = f.ruleset, f.stage
    collect = r.throw_usage == "collect"
    if stage is Stage.ACT and f.k < 0:
        raise NotationError("k", "stage a (act) needs the throw being used: k=<mouths up>")
    if f.k >= 0 and stage not in (Stage.ACT, Stage.PYADA):
        raise f.fail("k", "a pending throw exists only in stages a and p")
    if stage is Stage.SPEND and not collect:
        raise NotationError("side", "stage s (spend) needs throw_usage=collect")
    if stage in (Stage.ACT, Stage.PYADA) and collect:
        raise NotationError("side", "stages a and p need throw_usage=immediate")
    if stage is Stage.PYADA and not r.pyada:
        raise NotationError("side", "stage p (pyada) needs pyada=true")
    if f.items and not collect:
        raise f.fail("items", "collected throws exist only with throw_usage=collect")
    if f.flags and not collect:
        raise f.fail("flags", "phase flags exist only with throw_usage=collect")
    if f.pyadas and not r.pyada:
        raise f.fail("pyadas", "pyadas need pyada=true")
    if f.pyadas > 1 and not collect:
        raise f.fail("pyadas", f"{f.pyadas} pyadas, but a single throw earns at most 1")
    if f.run != (0, 0) and r.triple_cancel == "off":
        raise f.fail("run", "a triple-cancel run needs triple_cancel=group or same")
    if f.split != (0, 0, 0) and r.split_throw != "split":
        raise f.fail("split", "a split throw needs split_throw=split")
    if stage is Stage.OVER and f.winner == NO_WINNER:
        raise NotationError("winner", "stage x (over) needs winner=<team, seat or draw>")
    if stage is not Stage.OVER and f.winner != NO_WINNER:
        raise f.fail("winner", "a result exists only in stage x")
    if f.winner == DRAW and not r.draws_on_deadlock:
        raise f.fail(
            "winner", "a draw needs kill_before_home=seat or team with deadlock=draw (R-DEADLOCK)"
        )


def _check_throwoff(f: Fields) -> tuple[int, ...]:
    """The throw-off values: given or fresh in stage o, absent in every other stage."""
    if f.stage is not Stage.THROW_OFF:
        if f.throwoff is not None:
            raise f.fail("throwoff", "the throw-off exists only in stage o")
        return ()
    throwoff = FRESH_THROWOFF if f.throwoff is None else f.throwoff
    if throwoff[f.seat] != -1:
        raise f.fail("throwoff", f"seat {f.seat} is to throw, so its entry must be ?")
    return throwoff


def _check_board_memory(f: Fields) -> None:
    """Laps, stack order and capture records must name pieces where the board has them."""
    r, pos = f.ruleset, f.pos
    if f.laps and not r.extra_lap:
        raise f.fail("laps", "second laps need extra_lap=true")
    for g, col in f.laps:
        if pos[g] == 0:
            raise NotationError("laps", f"piece {piece_name(g)} is waiting, not on a lap", col)
    if r.tracks_stack_order:
        on_board = {g for g in range(NUM_PIECES) if 0 < pos[g] < HOME}
        for g, col in f.order or ():
            if g not in on_board:
                raise NotationError("order", f"piece {piece_name(g)} is not on the board", col)
        missing = sorted(on_board - {g for g, _ in f.order or ()})
        if missing:
            names = ", ".join(piece_name(g) for g in missing)
            raise f.fail("order", f"pieces on the board missing from the stack order: {names}")
    elif f.order is not None:
        raise f.fail("order", "a stack order is kept only with capture_scope=top_one")
    if f.records and not r.recapture_annul:
        raise f.fail("records", "capture records are kept only with recapture_annul=true")
    for rec, col in f.records:
        for g in range(NUM_PIECES):
            if rec.pieces >> g & 1 and not (
                0 < pos[g] <= LAST_SQUARE and SQUARE_OF[g >> 2][pos[g]] == rec.square
            ):
                where = square_name(rec.square)
                raise NotationError("records", f"piece {piece_name(g)} is not on {where}", col)
        if rec.turn > f.turn:
            raise NotationError("records", f"turn {rec.turn} is after the current turn", col)
