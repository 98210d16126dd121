"""The invariants of where the turn stands: the stage and the turn fields, and a move to make.

One of the two groups of checks that :func:`pachisi.rules.invariants.check_state` runs
(the other, what is on the board, is :mod:`pachisi.rules.board_invariants`); each raises
:class:`~pachisi.rules.invalid_state.InvalidStateError` naming the field and the reason.
Rule IDs in brackets:

* **the throw-off** (:func:`check_throw_off`): before any piece moves, in seat order with
  ties thrown again [R-ORDER].
* **stage and turn** (:func:`check_stage`): a finished seat takes no turn under ``skip``
  [R-FINISHED-SEAT]; every seat has entered after Ludii's first phase [E.2]; the pending
  throw, re-throw, capture, pyada, collected throws, triple run, split and phase fields
  are what the stage's transition leaves [C.10a, C.10b; V-SPLIT-THROW, V-TRIPLE-CANCEL,
  V-7-14-NEEDS-PIECE, V-PYADA].
* **a move** (:func:`check_a_move_exists`): the position has a legal action, a chance
  outcome or an outcome.
"""

from __future__ import annotations

from pachisi.rules._builder import HAS_PIECE, NONE_WAITING
from pachisi.rules._legal import legal_actions
from pachisi.rules._position import mover_of
from pachisi.rules.board import LAST_SQUARE, NUM_SEATS
from pachisi.rules.choices import (
    FinishedSeat,
    FirstPieceFree,
    FirstPlayer,
    PyadaCondition,
    PyadaUse,
    SplitThrow,
    ThrowUsage,
    TripleCancel,
)
from pachisi.rules.invalid_state import check_cleared, fail, piece_name
from pachisi.rules.state import NO_WINNER, Stage, State

__all__ = ["check_a_move_exists", "check_stage", "check_throw_off"]


# --------------------------------------------------------------------------- stage and turn


def check_stage(s: State) -> None:
    """Any stage after the throw-off: the fields of the turn are what its transition leaves."""
    r = s.ruleset
    if s.throwoff:
        raise fail("throwoff", "the throw-off exists only in stage o")
    if s.stage is Stage.OVER:
        return
    collect = r.throw_usage == ThrowUsage.COLLECT
    if s.stage is Stage.SPEND and not collect:
        raise fail("side", "stage s (spend) needs throw_usage=collect")
    if s.stage in (Stage.ACT, Stage.PYADA) and collect:
        raise fail("side", "stages a and p need throw_usage=immediate")
    if s.stage is Stage.PYADA and not (r.pyada and r.pyada_use == PyadaUse.FREE):
        raise fail("side", "stage p (a pyada step) needs pyada=true with pyada_use=free")
    _check_seat(s)
    if s.pyadas and not r.pyada:
        raise fail("pyadas", "pyadas need pyada=true")
    if s.phase_flags and not collect:
        raise fail("flags", "phase flags exist only with throw_usage=collect")
    if not 0 <= s.phase_flags <= HAS_PIECE | NONE_WAITING:
        raise fail("flags", "phase flags are 0..3")
    if s.split_left or s.split_value or s.split_used:
        _check_split(s)
    _check_run(s)
    if s.stage is Stage.THROW:
        _check_throw_stage(s)
    elif s.stage is Stage.SPEND:
        _check_spend_stage(s)
    else:
        _check_pending_throw(s)


def check_throw_off(s: State) -> None:
    """R-ORDER: before play; seats throw in order; ties throw again."""
    r = s.ruleset
    if r.first_player != FirstPlayer.THROW_OFF:
        raise fail("side", "stage o (the throw-off) needs first_player=throw_off")
    if any(s.pos) or s.entered or any(s.kills) or s.records or s.laps or s.order:
        raise fail("pieces", "nothing moves before the throw-off has decided who begins")
    if s.turn != 1:
        raise fail("turn", "the throw-off comes before turn 1")
    if s.winner != NO_WINNER:
        raise fail("winner", "a result exists only in stage x")
    check_cleared(s._replace(throwoff=()), "the throw-off moves nothing")
    values = s.throwoff
    if len(values) != NUM_SEATS:
        raise fail("throwoff", "one entry per seat")
    playing = [seat for seat in range(NUM_SEATS) if values[seat] != -2]
    if len(playing) < 2:
        raise fail("throwoff", "a throw-off round has at least two seats throwing")
    if values[s.seat] != -1:
        raise fail("throwoff", f"seat {s.seat} is to throw, so its entry must be ?")
    for seat in playing:
        v = values[seat]
        if seat < s.seat and v < 0:
            raise fail("throwoff", f"seat {seat} throws before seat {s.seat} in this round")
        if seat > s.seat and v != -1:
            raise fail("throwoff", f"seat {seat} throws after seat {s.seat} in this round")
        if v >= 0 and v not in r.score_table:
            raise fail("throwoff", f"{v} is not a throw value of this ruleset")


def _check_seat(s: State) -> None:
    r = s.ruleset
    keeps_turns = r.ludii or r.finished_seat == FinishedSeat.THROW_FOR_PARTNER
    if not keeps_turns and s.seat_finished(s.seat):
        raise fail(
            "side",
            f"seat {s.seat} has all its pieces home and misses its turns (R-FINISHED-SEAT)",
        )
    if (
        r.first_piece_free == FirstPieceFree.LUDII_FORCED
        and s.turn > NUM_SEATS
        and s.entered != 0b1111
    ):
        # E.2 item 4: every seat's first throw brings a piece out, so once each seat has
        # had a turn, all have entered.
        raise fail(
            "entered",
            f"in turn {s.turn} every seat has entered: Ludii's first phase (E.2) is over",
        )


def _check_split(s: State) -> None:
    """V-SPLIT-THROW: a throw being shared out, part by part, by the mover's pieces."""
    r = s.ruleset
    if r.split_throw != SplitThrow.SPLIT:
        raise fail("split", "a split throw needs split_throw=split")
    if s.stage not in (Stage.ACT, Stage.SPEND):
        raise fail("split", "a throw is shared out only while it is being used")
    if not 0 < s.split_left < s.split_value or s.split_value not in r.score_table:
        raise fail("split", "a split has played at least one part of a throw of this ruleset")
    if s.stage is Stage.ACT:
        # The split is judged against the pending throw, so that throw must exist first.
        _check_throw_k(s)
        if s.split_value != r.score_table[s.throw_k]:
            raise fail("split", "the throw being shared out is the pending throw")
        if s.pyadas and r.pyada_use == PyadaUse.ATTACHED:
            raise fail("split", "a throw with an attached pyada is not split")
    m = mover_of(r, s.pos, s.seat)
    if not s.split_used or s.split_used >> 4:
        raise fail("split", "the pieces that took a part are named: a..d")
    for i in range(4):
        if s.split_used >> i & 1 and s.pos[4 * m + i] < 2:
            raise fail("split", f"piece {piece_name(4 * m + i)} has not moved, so took no part")


def _check_run(s: State) -> None:
    """V-TRIPLE-CANCEL: a run is a class (or value) with a length of 1..3."""
    r = s.ruleset
    key, length = s.run
    if (key, length) == (0, 0):
        return
    if r.triple_cancel == TripleCancel.OFF:
        raise fail("run", "a triple-cancel run needs triple_cancel=group or same")
    classes = {r.run_class(v) for v in r.score_table} - {0}
    if key not in classes or not 1 <= length <= 3:
        raise fail("run", f"{key}x{length} is not a run this ruleset's throws can make")
    if length == 3 and s.stage is not Stage.SPEND:
        # A third throw in a row cancels and ends the throwing at once (in immediate mode
        # the turn); only collected throws from before the run can still be spent.
        raise fail("run", "a run of three ends the throwing at once")


def _check_throw_stage(s: State) -> None:
    """A throw is due: nothing of the last throw is pending (C.10a step 2, C.10b step 2)."""
    r = s.ruleset
    for key, set_ in (
        ("k", s.throw_k != -1),
        ("again", s.again),
        ("captured", s.captured),
        ("pyadas", s.pyadas != 0),
        ("split", bool(s.split_value)),
    ):
        if set_:
            raise fail(key, "a throw is due, so nothing of the last one is pending")
    if r.throw_usage != ThrowUsage.COLLECT:
        if s.items:
            raise fail("items", "collected throws exist only with throw_usage=collect")
        return
    # Collect mode, throwing phase: nothing has moved since it began.
    m = mover_of(r, s.pos, s.seat)
    if s.phase_flags != _phase_flags(s, m):
        raise fail(
            "flags",
            f"the throwing phase began on this very board, so its flags are "
            f"{_phase_flags(s, m)} (C.10b)",
        )
    run = (0, 0)
    for v in s.items:
        _check_item(s, v)
        if v not in r.reroll_values:
            raise fail("items", f"{v} ends the throwing, so no throw follows it (C.10b)")
        if r.triple_cancel != TripleCancel.OFF:
            run = r.advance_run(run, v)
    if s.run != run:
        raise fail("run", "the run is that of the throws collected in this phase")


def _phase_flags(s: State, m: int) -> int:
    pieces = s.seat_pieces(m)
    flags = HAS_PIECE if any(1 <= p <= LAST_SQUARE for p in pieces) else 0
    return flags | (NONE_WAITING if 0 not in pieces else 0)


def _check_item(s: State, v: int) -> None:
    """V-7-14-NEEDS-PIECE: a 7 or 14 counts only with a piece on the board."""
    if v in (7, 14) and not s.phase_flags & HAS_PIECE:
        raise fail(
            "items",
            f"a {v} with no piece on the board when the throwing began is void "
            "(V-7-14-NEEDS-PIECE)",
        )


def _check_spend_stage(s: State) -> None:
    """C.10b step 4: spending the collected throws and pyadas."""
    r = s.ruleset
    if s.throw_k != -1:
        raise fail("k", "a pending throw exists only in stages a and p")
    if s.again:
        raise fail("again", "in collect mode a grace adds a throw to the phase instead")
    if not (s.items or s.pyadas or s.split_left):
        raise fail("items", "spending goes on only while something is left to spend")
    for v in s.items:
        _check_item(s, v)
    if sum(1 for v in s.items if v not in r.reroll_values) > 1:
        raise fail("items", "only the last throw of a phase may be one that stops it")
    if (
        s.pyadas
        and r.pyada_condition == PyadaCondition.ALL_ENTERED
        and not s.phase_flags & NONE_WAITING
    ):
        raise fail("pyadas", "pyadas are earned only with no piece waiting when the throwing began")
    m = mover_of(r, s.pos, s.seat)
    if m == s.seat and s.phase_flags & NONE_WAITING and 0 in s.seat_pieces(m):
        raise fail("flags", "no piece was waiting when the throwing began, and none returns")


def _check_throw_k(s: State) -> None:
    """C.10a: stages a and p hold the pending throw, a number of cowries mouth up."""
    cowries = s.ruleset.cowries
    if not 0 <= s.throw_k <= cowries:
        raise fail("k", f"stages a and p need the pending throw: k=0..{cowries}")


def _check_pending_throw(s: State) -> None:
    """C.10a: a throw being used (stage a) or its pyada step (stage p)."""
    r = s.ruleset
    _check_throw_k(s)
    if s.items:
        raise fail("items", "collected throws exist only with throw_usage=collect")
    v = r.score_table[s.throw_k]
    if s.again != (v in r.reroll_values):
        raise fail("again", f"a {v} {'gives' if v in r.reroll_values else 'gives no'} re-throw")
    m = mover_of(r, s.pos, s.seat)
    # The board is the one the throw met, unless parts of a split have moved pieces (and
    # maybe finished the seat, so that the partner moves on under throw_for_partner).
    unchanged = s.stage is Stage.ACT and not s.split_left
    if unchanged and s.captured:
        raise fail("captured", "nothing has been captured with a throw not yet used")
    if unchanged and v in (7, 14) and not s.on_board(m):
        raise fail("k", f"a {v} with no piece on the board is void (V-7-14-NEEDS-PIECE)")
    # V-PYADA: the pyada the throw earned, judged on the mover's pieces; exact unless the
    # mover may have changed since the throw.
    earned = (
        r.pyada
        and v in r.pyada_values
        and (r.pyada_condition == PyadaCondition.ALWAYS or 0 not in s.seat_pieces(m))
    )
    exact = unchanged or m == s.seat
    if s.stage is Stage.PYADA:
        if s.pyadas != 1 or v not in r.pyada_values or (exact and not earned):
            raise fail("pyadas", f"a pyada step needs a pyada earned by the {v} (V-PYADA)")
        if s.split_left:
            raise fail("split", "the pyada step comes after the throw is used in full")
    elif s.pyadas not in (0, 1) or (exact and s.pyadas != int(earned)):
        raise fail("pyadas", f"the {v} earns {int(earned)} pyada here (V-PYADA)")
    if r.triple_cancel != TripleCancel.OFF:
        key = r.run_class(v)
        if (key == 0 and s.run != (0, 0)) or (key and s.run[0] != key):
            raise fail("run", f"the run is that of the {v} just thrown")


# --------------------------------------------------------------------------- a move


def check_a_move_exists(s: State) -> None:
    """In stages a, p and s the seat has a legal action (a throw has its chance outcomes)."""
    if s.stage in (Stage.ACT, Stage.PYADA, Stage.SPEND) and not legal_actions(s):
        raise fail("side", f"seat {s.seat} has no legal action in this position")
