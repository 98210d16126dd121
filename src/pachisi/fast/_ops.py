"""Compiled board operations and turn flow, done in place on a state row.

The port of :class:`pachisi.rules._builder.Builder`: moves, entries, captures with their
kill credits and capture records, the end of a turn, the win and the draw. Events go to
a caller-owned buffer ``ev[n, 8]`` of ``(kind, seat, piece, frm, to, value, pieces, k)``,
``pieces`` a bitmask; ``evn[0]`` counts the events written (those past the buffer's end
are dropped, so a zero-row buffer turns events off) and ``evn[1]`` the capture events.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pachisi.fast._jit import inline, kernel
from pachisi.fast._position import (
    HOME,
    LAST_SQUARE,
    landing,
    mover_of,
    occupancy_at,
    occupancy_fresh,
    relocate,
    seat_finished,
    team,
    top_piece,
)
from pachisi.fast.layout import (
    AGAIN,
    CAPTURED,
    DRAW,
    ENTERED,
    FLAGS,
    ITEMS_LEN,
    KILLS,
    LAPS,
    ORDER,
    ORDER_LEN,
    OVER_STAGE,
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
    THROW_K,
    THROW_STAGE,
    TURN,
    WINNER,
)
from pachisi.fast.params import (
    P_ANNUL,
    P_COLLECT,
    P_FOR_PARTNER,
    P_INDIVIDUAL,
    P_LUDII,
    P_TOP_ONE,
    SQUARES,
)

Row = npt.NDArray[np.int32]
Events = npt.NDArray[np.int32]

# Event kinds, as the names of pachisi.rules.state.Event.kind.
E_THROW_OFF, E_BEGINS, E_THROW, E_VOID, E_CANCEL, E_ENTER, E_MOVE, E_CAPTURE = range(8)
E_FINISH, E_DECLINE, E_PYADA, E_AGAIN, E_ANNUL, E_TURN, E_WIN, E_DRAW = range(8, 16)
EVENT_NAMES = (
    "throw_off",
    "begins",
    "throw",
    "void",
    "cancel",
    "enter",
    "move",
    "capture",
    "finish",
    "decline",
    "pyada",
    "again",
    "annul",
    "turn",
    "win",
    "draw",
)
HAS_PIECE = 1
NONE_WAITING = 2


@inline
def emit(
    ev: Events,
    evn: Row,
    kind: int,
    seat: int = -1,
    piece: int = -1,
    frm: int = -1,
    to: int = -1,
    value: int = 0,
    pieces: int = 0,
    k: int = -1,
) -> None:
    if kind == E_CAPTURE:
        evn[1] += 1
    n = evn[0]
    if n < ev.shape[0]:
        ev[n, 0] = kind
        ev[n, 1] = seat
        ev[n, 2] = piece
        ev[n, 3] = frm
        ev[n, 4] = to
        ev[n, 5] = value
        ev[n, 6] = pieces
        ev[n, 7] = k
        evn[0] = n + 1


# --------------------------------------------------------------------------- records, order


@kernel
def _drop_record(st: Row, r: int) -> None:
    last = st[REC_LEN] - 1
    for j in range(r, last):
        for f in range(REC_FIELDS):
            st[RECS + j * REC_FIELDS + f] = st[RECS + (j + 1) * REC_FIELDS + f]
    st[REC_LEN] = last


@kernel
def left_square(st: Row, params: Row, g: int) -> None:
    """A piece moved: it no longer stands where it captured (V-RECAPTURE-ANNUL)."""
    bit = 1 << g
    r = 0
    while r < st[REC_LEN]:
        base = RECS + r * REC_FIELDS
        if st[base + 1] == bit:
            _drop_record(st, r)
            continue
        st[base + 1] &= ~bit
        r += 1
    if params[P_TOP_ONE]:
        n = st[ORDER_LEN]
        for j in range(n):
            if st[ORDER + j] == g:
                for q in range(j, n - 1):
                    st[ORDER + q] = st[ORDER + q + 1]
                st[ORDER_LEN] = n - 1
                break


@inline
def _push_order(st: Row, g: int) -> None:
    st[ORDER + st[ORDER_LEN]] = g
    st[ORDER_LEN] += 1


# --------------------------------------------------------------------------- the board


@kernel
def capture(
    st: Row, params: Row, owner: int, gmask: int, captured: int, sq: int, ev: Events, evn: Row
) -> None:
    """Send captured pieces back; credit, record and annul kills (R-CAPTURE, C.6)."""
    victims = 0
    for c in range(16):
        if (captured >> c) & 1:
            victims |= 1 << (c >> 2)
    emit(ev, evn, E_CAPTURE, owner, -1, -1, sq, 0, captured)
    if params[P_ANNUL]:
        r = 0
        while r < st[REC_LEN]:
            base = RECS + r * REC_FIELDS
            if owner == st[SEAT] and (st[base + 3] >> owner) & 1 and st[base + 1] & captured:
                st[KILLS + st[base]] -= 1
                emit(ev, evn, E_ANNUL, st[base], -1, -1, st[base + 2])
                _drop_record(st, r)
                continue
            r += 1
    for c in range(16):
        if (captured >> c) & 1:
            left_square(st, params, c)
            st[POS + c] = 0
            st[LAPS] &= ~(1 << c)
    st[KILLS + owner] += 1
    if params[P_ANNUL]:
        base = RECS + st[REC_LEN] * REC_FIELDS
        st[base] = owner
        st[base + 1] = gmask
        st[base + 2] = sq
        st[base + 3] = victims
        st[base + 4] = st[TURN]
        st[REC_LEN] += 1
    st[CAPTURED] = 1


@kernel
def move(
    st: Row,
    params: Row,
    seat: int,
    gmask: int,
    t: int,
    lap: bool,
    occ_n: Row,
    occ: npt.NDArray[np.int32],
    ev: Events,
    evn: Row,
) -> bool:
    """Move ``seat``'s pieces of ``gmask`` (all on one progress) to ``t`` (84 = home),
    resolving the landing. True if it captured."""
    ludii = params[P_LUDII] == 1
    sq = SQUARES[seat, t] if t != HOME else -1
    # A scratch that holds the whole board is kept up to date (relocate) rather than
    # filled again; Ludii's moves never read it.
    fresh = not ludii and occupancy_fresh(st, params, occ_n)
    if not ludii and t != HOME and not fresh:
        occupancy_at(st, params, occ_n, occ, sq)
    top = top_piece(st, sq) if ludii and t != HOME else -1
    n_moving = 0
    frm = 0
    for i in range(4):
        g = 4 * seat + i
        if (gmask >> g) & 1:
            frm = st[POS + g]
            if st[REC_LEN] or params[P_TOP_ONE]:
                left_square(st, params, g)
            st[POS + g] = t
            if lap:
                st[LAPS] |= 1 << g
            emit(ev, evn, E_MOVE, seat, g, frm, t)
            if t == HOME:
                emit(ev, evn, E_FINISH, seat, g)
            n_moving += 1
    captured = 0
    if t != HOME:
        if ludii:
            # E.2 5a: the top piece of the destination goes back if it is the other team's.
            other = top >= 0 and team(params, top >> 2) != team(params, seat)
            captured = (1 << top) if other else 0
        else:
            captured = max(landing(params, occ_n, occ, seat, n_moving, sq), 0)
    if captured:
        capture(st, params, seat, gmask, captured, sq, ev, evn)
    if params[P_TOP_ONE] and t != HOME:
        for i in range(4):
            if (gmask >> (4 * seat + i)) & 1:
                _push_order(st, 4 * seat + i)
    # One call site, so that the update is inlined (home is the square -1).
    if fresh:
        relocate(st, params, occ_n, occ, seat, gmask, frm, captured, sq)
    return captured != 0


@kernel
def place(
    st: Row,
    params: Row,
    g: int,
    t: int,
    captures: bool,
    occ_n: Row,
    occ: npt.NDArray[np.int32],
    ev: Events,
    evn: Row,
) -> bool:
    """Bring a waiting piece out to ``t`` (R-GRACE-ENTRY, R-FIRST-PIECE-FREE)."""
    seat = g >> 2
    sq = SQUARES[seat, t]
    fresh = occupancy_fresh(st, params, occ_n)
    if captures and not fresh:
        occupancy_at(st, params, occ_n, occ, sq)
    st[POS + g] = t
    st[ENTERED] |= 1 << seat
    emit(ev, evn, E_ENTER, seat, g, 0, t)
    captured = 0
    if captures:
        captured = landing(params, occ_n, occ, seat, 1, sq)
        if captured < 0:
            captured = 0
        if captured:
            capture(st, params, seat, 1 << g, captured, sq, ev, evn)
    if params[P_TOP_ONE]:
        _push_order(st, g)
    if fresh:
        relocate(st, params, occ_n, occ, seat, 1 << g, 0, captured, sq)
    return captured != 0


# --------------------------------------------------------------------------- turn flow


@inline
def takes_turns(st: Row, params: Row, seat: int) -> bool:
    if params[P_LUDII] or params[P_FOR_PARTNER]:
        return True
    return not seat_finished(st, seat)


@kernel
def _close_windows(st: Row, seat: int) -> None:
    bit = 1 << seat
    r = 0
    while r < st[REC_LEN]:
        base = RECS + r * REC_FIELDS
        if st[base + 3] & bit and st[base + 4] < st[TURN]:
            st[base + 3] &= ~bit
        if st[base + 3] == 0:
            _drop_record(st, r)
            continue
        r += 1


@inline
def begin_phase(st: Row, params: Row) -> None:
    """A new throwing phase; in collect mode its flags (C.10b step 2)."""
    st[STAGE] = THROW_STAGE
    st[ITEMS_LEN] = 0
    st[RUN_KEY] = 0
    st[RUN_LEN] = 0
    st[CAPTURED] = 0
    st[PYADAS] = 0
    if params[P_COLLECT]:
        m = mover_of(st, params, st[SEAT])
        flags = 0
        none_waiting = True
        for i in range(4):
            p = st[POS + 4 * m + i]
            if 1 <= p <= LAST_SQUARE:
                flags |= HAS_PIECE
            if p == 0:
                none_waiting = False
        if none_waiting:
            flags |= NONE_WAITING
        st[FLAGS] = flags


@kernel
def end_turn(st: Row, params: Row, ev: Events, evn: Row) -> None:
    """Pass the turn on, skipping finished seats under ``skip`` (R-ORDER, R-FINISHED-SEAT)."""
    # Capture records are rare: most turns have no window to close.
    if st[REC_LEN]:
        _close_windows(st, st[SEAT])
    seat = st[SEAT]
    for _ in range(4):
        seat = (seat + 1) % 4
        if takes_turns(st, params, seat):
            break
        if st[REC_LEN]:
            _close_windows(st, seat)
    st[SEAT] = seat
    st[TURN] += 1
    fresh_turn(st, params)
    emit(ev, evn, E_TURN, seat)


@inline
def fresh_turn(st: Row, params: Row) -> None:
    """Nothing of a turn in progress: the seat to play is about to throw (as
    :meth:`pachisi.rules._builder.Builder.end_turn_fields` and ``begin_phase``)."""
    st[THROW_K] = -1
    st[AGAIN] = 0
    st[SPLIT_LEFT] = 0
    st[SPLIT_VALUE] = 0
    st[SPLIT_USED] = 0
    begin_phase(st, params)


@kernel
def _game_over(st: Row, winner: int) -> None:
    st[STAGE] = OVER_STAGE
    st[WINNER] = winner
    st[THROW_K] = -1
    st[AGAIN] = 0
    st[CAPTURED] = 0
    st[RUN_KEY] = 0
    st[RUN_LEN] = 0
    st[FLAGS] = 0
    st[ITEMS_LEN] = 0
    st[PYADAS] = 0
    st[SPLIT_LEFT] = 0
    st[SPLIT_VALUE] = 0
    st[SPLIT_USED] = 0


@inline
def check_win(st: Row, params: Row, ev: Events, evn: Row) -> bool:
    """R-TEAM-WIN / V-INDIVIDUAL-WIN: end the game the moment a side is home."""
    if params[P_INDIVIDUAL]:
        for s in range(4):
            if seat_finished(st, s):
                _game_over(st, s)
                emit(ev, evn, E_WIN, s)
                return True
        return False
    for t in range(2):
        if seat_finished(st, t) and seat_finished(st, t + 2):
            _game_over(st, t)
            emit(ev, evn, E_WIN, t)
            return True
    return False


@kernel
def draw(st: Row, ev: Events, evn: Row) -> None:
    """R-DEADLOCK: the game ends as a draw."""
    _game_over(st, DRAW)
    emit(ev, evn, E_DRAW)


@inline
def seat_done(st: Row, params: Row) -> bool:
    """C.9: under ``skip`` the turn's seat, once finished, ends its turn at once."""
    if params[P_LUDII] or params[P_FOR_PARTNER]:
        return False
    return seat_finished(st, st[SEAT])
