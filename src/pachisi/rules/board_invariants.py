"""The invariants of what is on the board: pieces, board memory, capture records, result.

One of the two groups of checks that :func:`pachisi.rules.invariants.check_state` runs
(the other, where the turn stands, is :mod:`pachisi.rules.turn_invariants`); each raises
:class:`~pachisi.rules.invalid_state.InvalidStateError` naming the field and the reason.
Rule IDs in brackets:

* **pieces** (:func:`check_pieces`): progresses 0..84, none on p 1..12 under
  ``track=ludii`` [R-TRACK]; a seat with a piece out, or a kill credit, has entered
  [R-FIRST-PIECE-FREE, V-KILL-BEFORE-HOME]; enemies share a square only where the rules let
  them [R-CASTLE-BLOCK, R-CAPTURE]; friendly pieces only where stacking allows
  [V-STACK-RESTRICTED].
* **board memory** (:func:`check_board_memory`): second laps [V-EXTRA-LAP], the stack order
  [C.11] and the capture records with their windows [V-RECAPTURE-ANNUL].
* **result** (:func:`check_result`): a winner's side is home, a draw is one that R-DEADLOCK
  or R-FROZEN gives, and no side is home in a game going on [R-TEAM-WIN, V-INDIVIDUAL-WIN].
"""

from __future__ import annotations

from pachisi.rules._position import side_of, stacking_allows
from pachisi.rules.board import (
    HOME,
    IS_CASTLE,
    LAST_SQUARE,
    LOOP_START,
    LUDII_ENTRY_PROGRESS,
    NUM_SEATS,
    PRIVATE_SQUARES,
    SQUARE_OF,
    partner,
    square_name,
)
from pachisi.rules.choices import CaptureScope, CastleMode, FinishedSeat, Teams
from pachisi.rules.deadlock import every_side_blocked
from pachisi.rules.frozen import is_frozen
from pachisi.rules.invalid_state import check_cleared, fail, piece_name
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import DRAW, NO_WINNER, CaptureRecord, Stage, State

__all__ = ["MAX_KILLS", "check_board_memory", "check_pieces", "check_result"]

MAX_KILLS = 999_999_999
"""The most kill credits a seat may hold: the position string writes at most nine digits,
and every engine counts them in 32 bits."""
_PRIVATE = frozenset().union(*PRIVATE_SQUARES)


# --------------------------------------------------------------------------- pieces


def check_pieces(s: State) -> None:
    """Where the pieces stand, which seats have entered, the kill credits, who shares a square."""
    r, pos = s.ruleset, s.pos
    if len(pos) != 4 * NUM_SEATS or any(not 0 <= p <= HOME for p in pos):
        raise fail("pieces", "16 progresses, each 0 (waiting) .. 84 (home)")
    for g, p in enumerate(pos):
        if r.ludii and 0 < p < LUDII_ENTRY_PROGRESS:
            raise fail(
                "pieces",
                f"piece {piece_name(g)} on p{p}: track=ludii enters at p13 and never uses p1..p12",
            )
        if p and not s.entered >> (g >> 2) & 1:
            raise fail(
                "entered",
                f"piece {piece_name(g)} has left the Charkoni, so seat {g >> 2} has entered "
                "(R-FIRST-PIECE-FREE)",
            )
    for seat, credits in enumerate(s.kills):
        if not 0 <= credits <= MAX_KILLS:
            raise fail("kills", f"kill credits are 0..{MAX_KILLS:,} per seat")
        if credits and not s.entered >> seat & 1:
            raise fail(
                "kills",
                f"seat {seat} has {credits} kill credit{'s' if credits > 1 else ''} but has "
                "never brought a piece out: a credit is a capture by one of its own pieces "
                "(V-KILL-BEFORE-HOME)",
            )
    squares: dict[int, list[int]] = {}
    for g, p in enumerate(pos):
        if 0 < p < HOME:
            squares.setdefault(SQUARE_OF[g >> 2][p], []).append(g)
    for sq, here in squares.items():
        sides: dict[int, list[int]] = {}
        for g in here:
            sides.setdefault(side_of(r, g >> 2), []).append(g)
        if len(sides) > 1 and not _enemies_may_share(r, sq):
            a, b = (members[0] for members in list(sides.values())[:2])
            raise fail(
                "pieces",
                f"enemy pieces {piece_name(a)} and {piece_name(b)} share {_square(sq)}, which "
                f"castle_mode={r.castle_mode} with capture_scope={r.capture_scope} never "
                "allows (R-CASTLE-BLOCK, R-CAPTURE)",
            )
        for members in sides.values():
            if not stacking_allows(r, len(members), sq):
                names = " and ".join(piece_name(g) for g in members)
                raise fail(
                    "pieces",
                    f"friendly pieces {names} share {_square(sq)}, which stacking="
                    f"{'set' if isinstance(r.stacking, frozenset) else r.stacking} "
                    "does not allow (V-STACK-RESTRICTED)",
                )


def _square(sq: int) -> str:
    return f"{'castle ' if IS_CASTLE[sq] else 'square '}{square_name(sq)}"


def _enemies_may_share(r: Ruleset, sq: int) -> bool:
    """Whether pieces of two sides can stand together on ``sq``.

    A landing on enemies captures them all, except on a castle (blocked or shared by the
    castle mode), and except under ``top_one``, which takes only the top piece and leaves
    a mixed stack (so do Ludii's entries, E.2 5b, which are ``top_one`` too).
    """
    if IS_CASTLE[sq]:
        return r.castle_mode == CastleMode.COEXIST or (
            r.castle_mode == CastleMode.INERT and r.capture_scope == CaptureScope.TOP_ONE
        )
    return r.capture_scope == CaptureScope.TOP_ONE


# --------------------------------------------------------------------------- board memory


def check_board_memory(s: State) -> None:
    """What the board remembers: second laps, the stack order, the capture records."""
    r, pos = s.ruleset, s.pos
    if s.laps:
        if not r.extra_lap:
            raise fail("laps", "second laps need extra_lap=true", _lowest_bit(s.laps))
        if s.laps >> 16:
            raise fail("laps", "lap bits name pieces 0..15 only")
        for g in range(16):
            if s.laps >> g & 1 and pos[g] < LOOP_START:
                raise fail(
                    "laps",
                    f"piece {piece_name(g)} on p{pos[g]} cannot be on its second lap: a lap move "
                    "lands on p8 or beyond (V-EXTRA-LAP)",
                    g,
                )
    on_board = [g for g in range(16) if 0 < pos[g] < HOME]
    if r.tracks_stack_order:
        for g in s.order:
            if not 0 <= g < 16 or not 0 < pos[g] < HOME:
                raise fail("order", f"piece {piece_name(g)} is not on the board", g)
        if len(set(s.order)) != len(s.order):
            raise fail("order", "a piece is listed twice")
        missing = sorted(set(on_board) - set(s.order))
        if missing:
            names = ", ".join(piece_name(g) for g in missing)
            raise fail("order", f"pieces on the board missing from the stack order: {names}")
    elif s.order:
        raise fail("order", "a stack order is kept only with capture_scope=top_one")
    _check_records(s)


def _lowest_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _check_records(s: State) -> None:
    r, pos = s.ruleset, s.pos
    if s.records and not r.recapture_annul:
        raise fail("records", "capture records are kept only with recapture_annul=true", 0)
    per_seat = [0] * NUM_SEATS
    for i, rec in enumerate(s.records):
        a = rec.capturer
        if not 0 <= a < NUM_SEATS:
            raise fail("records", f"capturer {a} is not a seat", i)
        own = 0xF << (4 * a)
        if not rec.pieces or rec.pieces & ~own:
            raise fail("records", f"the capturing pieces must be seat {a}'s", i)
        enemies = sum(1 << v for v in range(NUM_SEATS) if side_of(r, v) != side_of(r, a))
        if not rec.victims or rec.victims & ~enemies:
            raise fail("records", f"the victims must be seats of the other side than {a}", i)
        if not 0 <= rec.square < len(IS_CASTLE) or rec.square in _PRIVATE:
            raise fail("records", "a capture happens on a square every seat can reach", i)
        for g in range(16):
            if rec.pieces >> g & 1 and not (
                0 < pos[g] <= LAST_SQUARE and SQUARE_OF[g >> 2][pos[g]] == rec.square
            ):
                raise fail(
                    "records", f"piece {piece_name(g)} is not on {square_name(rec.square)}", i
                )
        if rec.turn > s.turn:
            raise fail("records", f"turn {rec.turn} is after the current turn", i)
        if not _window_open(s, rec):
            raise fail(
                "records",
                f"the capture of turn {rec.turn} can no longer be annulled in turn {s.turn} "
                f"with seat {s.seat} to play: every victim has had its turn since "
                "(V-RECAPTURE-ANNUL)",
                i,
            )
        per_seat[a] += 1
    for seat, count in enumerate(per_seat):
        if s.kills[seat] < count:
            raise fail(
                "kills",
                f"seat {seat} has {count} capture records but only {s.kills[seat]} kill "
                "credits; each record stands for a credit",
            )


def _window_open(s: State, rec: CaptureRecord) -> bool:
    """Whether some victim of ``rec`` can still annul it (V-RECAPTURE-ANNUL).

    Turns pass seat by seat, so the seats to play since the capture follow the seat whose
    turn it was (the capturer, or its finished partner under ``throw_for_partner``): the
    current seat is at most three turns on, past only seats that have played (or were
    skipped as finished, which a victim, with a piece just sent back, is not), and a
    victim whose window is open is still to come.
    """
    r = s.ruleset
    passed = s.turn - rec.turn
    skips = not (r.ludii or r.finished_seat == FinishedSeat.THROW_FOR_PARTNER)
    turn_seats = [rec.capturer]
    if r.finished_seat == FinishedSeat.THROW_FOR_PARTNER and r.teams == Teams.PAIRS:
        turn_seats.append(partner(rec.capturer))
    for x in turn_seats:
        if passed == 0:
            if s.seat == x:
                return True
            continue
        ahead = (s.seat - x) % NUM_SEATS
        if not ahead:
            continue
        between = [(x + j) % NUM_SEATS for j in range(1, ahead)]
        # Each seat in between had a turn, unless it was skipped as finished.
        least = sum(1 for b in between if not s.seat_finished(b)) if skips else ahead - 1
        victims_ahead = all(
            (v - x) % NUM_SEATS >= ahead for v in range(NUM_SEATS) if rec.victims >> v & 1
        )
        if least + 1 <= passed <= ahead and victims_ahead:
            return True
    return False


# --------------------------------------------------------------------------- result


def _complete_sides(s: State) -> list[int]:
    """The sides with every piece home: teams 0/1, or seats under ``teams=individual``."""
    done = [seat for seat in range(NUM_SEATS) if s.seat_finished(seat)]
    if s.ruleset.teams == Teams.INDIVIDUAL:
        return done
    return [t for t in (0, 1) if t in done and t + 2 in done]


def check_result(s: State) -> None:
    """The result, or none, that the pieces give; once the game is over, no turn in progress."""
    r = s.ruleset
    complete = _complete_sides(s)
    side = "seat" if r.teams == Teams.INDIVIDUAL else "team"
    if s.stage is not Stage.OVER:
        if s.winner != NO_WINNER:
            raise fail("winner", "a result exists only in stage x")
        if complete:
            count = 4 if r.teams == Teams.INDIVIDUAL else 8
            rule = "V-INDIVIDUAL-WIN" if r.teams == Teams.INDIVIDUAL else "R-TEAM-WIN"
            raise fail(
                "pieces",
                f"{side} {complete[0]} has all {count} pieces home, so the game is over ({rule})",
            )
        if r.draws_on_deadlock and every_side_blocked(r, s.pos, s.kills):
            raise fail(
                "pieces",
                "no side can win any more, so the game has ended as a draw (R-DEADLOCK)",
            )
        if r.draws_when_frozen and is_frozen(s):
            raise fail(
                "pieces",
                "no piece can ever move again, so the game has ended as a draw (R-FROZEN)",
            )
        return
    if s.winner == DRAW:
        if not r.draws_when_frozen:
            raise fail("winner", "a draw needs deadlock=draw (R-DEADLOCK, R-FROZEN)")
        deadlocked = r.draws_on_deadlock and every_side_blocked(r, s.pos, s.kills)
        if complete or not (deadlocked or is_frozen(s)):
            raise fail(
                "winner",
                "a draw ends a game that no side can win any more (R-DEADLOCK) or in which "
                "no piece can ever move again (R-FROZEN)",
            )
    else:
        sides = range(NUM_SEATS) if r.teams == Teams.INDIVIDUAL else range(2)
        if s.winner not in sides:
            raise fail("winner", f"the winner is a {side}: {sides[0]}..{sides[-1]}")
        if complete != [s.winner]:
            raise fail(
                "winner",
                f"{side} {s.winner} wins only with all its pieces home, and the game ends "
                "as soon as a side is home",
            )
    check_cleared(s, "the game is over")
