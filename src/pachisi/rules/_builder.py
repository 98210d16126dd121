"""A mutable working copy of a state, used to build the next state in one pass.

The :class:`Builder` carries out what a transition does to the board and the turn: moves,
entries, captures and their kill credits and records, the end of a turn, the win. Internal
to :mod:`pachisi.rules`; the public transitions are in :mod:`pachisi.rules.engine`.
"""

from __future__ import annotations

from pachisi.rules._position import landing, ludii_capture, mover_of, occupancy_of, takes_turns
from pachisi.rules.board import (
    HOME,
    LAST_SQUARE,
    SQUARE_OF,
)
from pachisi.rules.choices import FinishedSeat, Teams, ThrowUsage
from pachisi.rules.state import (
    DRAW,
    CaptureRecord,
    Event,
    Memo,
    Stage,
    State,
)

HAS_PIECE, NONE_WAITING = 1, 2
"""``State.phase_flags`` bits (collect mode, C.10b)."""


class Builder:
    """A mutable working copy of a state, for building the next state in one pass."""

    __slots__ = (
        "again",
        "captured",
        "entered",
        "homed",
        "items",
        "keep_order",
        "kills",
        "laps",
        "order",
        "phase_flags",
        "pos",
        "pyadas",
        "r",
        "records",
        "run",
        "seat",
        "split_left",
        "split_used",
        "split_value",
        "stage",
        "throw_k",
        "throwoff",
        "turn",
        "winner",
    )

    def __init__(self, state: State) -> None:
        self.homed = False
        self.r = state.ruleset
        self.pos = list(state.pos)
        self.stage = state.stage
        self.seat = state.seat
        self.turn = state.turn
        self.order = list(state.order)
        self.laps = state.laps
        self.entered = state.entered
        self.kills = list(state.kills)
        self.records = list(state.records)
        self.throw_k = state.throw_k
        self.again = state.again
        self.captured = state.captured
        self.pyadas = state.pyadas
        self.items = list(state.items)
        self.run = state.run
        self.split_left = state.split_left
        self.split_value = state.split_value
        self.split_used = state.split_used
        self.phase_flags = state.phase_flags
        self.throwoff = state.throwoff
        self.winner = state.winner
        self.keep_order = self.r.tracks_stack_order

    def freeze(self) -> State:
        return State(
            self.r,
            tuple(self.pos),
            self.stage,
            self.seat,
            self.turn,
            tuple(self.order),
            self.laps,
            self.entered,
            (self.kills[0], self.kills[1], self.kills[2], self.kills[3]),
            tuple(self.records),
            self.throw_k,
            self.again,
            self.captured,
            self.pyadas,
            tuple(self.items),
            self.run,
            self.split_left,
            self.split_value,
            self.split_used,
            self.phase_flags,
            self.throwoff,
            self.winner,
            Memo(),
        )

    def occupancy(self) -> dict[int, list[int]]:
        return occupancy_of(self.pos, self.order if self.keep_order else None)

    def _left_square(self, g: int) -> None:
        """A piece moved: it no longer stands where it captured (V-RECAPTURE-ANNUL)."""
        if self.records:
            bit = 1 << g
            self.records = [
                rec if not rec.pieces & bit else without_pieces(rec, bit)
                for rec in self.records
                if rec.pieces != bit
            ]
        if self.keep_order and g in self.order:
            self.order.remove(g)

    def move(self, gids: tuple[int, ...], t: int, lap: int, events: list[Event]) -> bool:
        """Move pieces to progress ``t`` (84 = home), resolving the landing. True if it captured."""
        seat = gids[0] >> 2
        occ = self.occupancy()
        for g in gids:
            frm = self.pos[g]
            self._left_square(g)
            self.pos[g] = t
            if lap:
                self.laps |= 1 << g
            events.append(Event("move", seat, g, frm, t))
            if t == HOME:
                self.homed = True
                events.append(Event("finish", seat, g))
        if t == HOME:
            return False
        sq = SQUARE_OF[seat][t]
        if self.r.ludii:
            captured = ludii_capture(self.r, occ, seat, sq)
        else:
            captured = landing(self.r, occ, seat, len(gids), sq) or ()
        if captured:
            self.capture(gids, captured, sq, events)
        if self.keep_order:
            self.order.extend(gids)
        return bool(captured)

    def place(self, g: int, t: int, events: list[Event], captures: bool) -> bool:
        """Bring a waiting piece out to ``t`` (R-GRACE-ENTRY, R-FIRST-PIECE-FREE)."""
        seat = g >> 2
        occ = self.occupancy() if captures else {}
        self.pos[g] = t
        self.entered |= 1 << seat
        events.append(Event("enter", seat, g, 0, t))
        captured: tuple[int, ...] = ()
        if captures:
            sq = SQUARE_OF[seat][t]
            captured = landing(self.r, occ, seat, 1, sq) or ()
            if captured:
                self.capture((g,), captured, sq, events)
        if self.keep_order:
            self.order.append(g)
        return bool(captured)

    def capture(
        self, gids: tuple[int, ...], captured: tuple[int, ...], sq: int, events: list[Event]
    ) -> None:
        """Send captured pieces back; credit, record and annul kills (R-CAPTURE, C.6)."""
        owner = gids[0] >> 2
        cmask = 0
        victims = 0
        for c in captured:
            cmask |= 1 << c
            victims |= 1 << (c >> 2)
        events.append(Event("capture", owner, -1, -1, sq, 0, captured))
        if self.r.recapture_annul:
            kept: list[CaptureRecord] = []
            for rec in self.records:
                if owner == self.seat and rec.victims >> owner & 1 and rec.pieces & cmask:
                    self.kills[rec.capturer] -= 1
                    events.append(Event("annul", rec.capturer, -1, -1, rec.square))
                else:
                    kept.append(rec)
            self.records = kept
        for c in captured:
            self._left_square(c)
            self.pos[c] = 0
            self.laps &= ~(1 << c)
        self.kills[owner] += 1
        if self.r.recapture_annul:
            gmask = 0
            for g in gids:
                gmask |= 1 << g
            self.records.append(CaptureRecord(owner, gmask, sq, victims, self.turn))
        self.captured = True

    # ----------------------------------------------------------------- turn flow

    def end_turn(self, events: list[Event]) -> None:
        """Pass the turn on (R-ORDER), skipping finished seats under ``skip`` (R-FINISHED-SEAT)."""
        self._close_windows(self.seat)
        seat = self.seat
        for _ in range(4):
            seat = (seat + 1) % 4
            if takes_turns(self.r, self.pos, seat):
                break
            self._close_windows(seat)
        self.seat = seat
        self.turn += 1
        self.end_turn_fields()
        self.begin_phase()
        events.append(Event("turn", seat))

    def _close_windows(self, seat: int) -> None:
        if not self.records:
            return
        bit = 1 << seat
        kept = []
        for rec in self.records:
            if rec.victims & bit and rec.turn < self.turn:
                rec = CaptureRecord(
                    rec.capturer, rec.pieces, rec.square, rec.victims & ~bit, rec.turn
                )
            if rec.victims:
                kept.append(rec)
        self.records = kept

    def end_turn_fields(self) -> None:
        self.stage = Stage.THROW
        self.throw_k = -1
        self.again = False
        self.captured = False
        self.pyadas = 0
        self.items = []
        self.run = (0, 0)
        self.split_left = self.split_value = self.split_used = 0

    def check_win(self, events: list[Event]) -> bool:
        """R-TEAM-WIN / V-INDIVIDUAL-WIN: end the game the moment a side is home."""
        if not self.homed:
            return False
        pos = self.pos
        if self.r.teams == Teams.INDIVIDUAL:
            for s in range(4):
                if all(p == HOME for p in pos[4 * s : 4 * s + 4]):
                    return self._win(s, events)
            return False
        for team in (0, 1):
            if all(pos[g] == HOME for g in range(16) if (g >> 2) & 1 == team):
                return self._win(team, events)
        return False

    def _win(self, winner: int, events: list[Event]) -> bool:
        self._game_over(winner)
        events.append(Event("win", winner))
        return True

    def draw(self, events: list[Event]) -> None:
        """R-DEADLOCK: end the game as a draw; pending throws, items and pyadas are dropped."""
        self._game_over(DRAW)
        events.append(Event("draw"))

    def _game_over(self, winner: int) -> None:
        self.stage = Stage.OVER
        self.winner = winner
        # Turn fields mean nothing once the game is over: clear them so that two games
        # ending on the same board end in equal states.
        self.throw_k = -1
        self.again = self.captured = False
        self.run = (0, 0)
        self.phase_flags = 0
        self.items = []
        self.pyadas = 0
        self.split_left = self.split_value = self.split_used = 0

    def seat_done(self) -> bool:
        """C.9: the turn's seat has finished and its turn ends at once under ``skip``."""
        if self.r.ludii or self.r.finished_seat != FinishedSeat.SKIP:
            return False
        return all(p == HOME for p in self.pos[4 * self.seat : 4 * self.seat + 4])

    def mover(self) -> int:
        return mover_of(self.r, self.pos, self.seat)

    def begin_phase(self) -> None:
        """Collect mode: a new throwing phase with fresh counts (C.10b step 2)."""
        self.stage = Stage.THROW
        self.items = []
        self.run = (0, 0)
        self.captured = False
        self.pyadas = 0
        if self.r.throw_usage == ThrowUsage.COLLECT:
            pieces = self.pos[4 * self.mover() : 4 * self.mover() + 4]
            flags = 0
            if any(1 <= p <= LAST_SQUARE for p in pieces):
                flags |= HAS_PIECE
            if all(p != 0 for p in pieces):
                flags |= NONE_WAITING
            self.phase_flags = flags


def without_pieces(rec: CaptureRecord, bit: int) -> CaptureRecord:
    return CaptureRecord(rec.capturer, rec.pieces & ~bit, rec.square, rec.victims, rec.turn)
