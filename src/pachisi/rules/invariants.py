"""Every invariant the engine keeps, checked: a state no game can reach is refused.

The transitions of :mod:`pachisi.rules.engine` only ever produce states that keep the
invariants below; a state built by hand or read from text may break them, and then the
engine could act on a position with no legal action, or one that no game reaches.
:func:`check_state` refuses such a state with :class:`InvalidStateError`, which names the
field (as the position string calls it, docs/notation.md) and the reason. The position
reader calls it for every position it reads.

What is checked, by group (rule IDs in brackets):

* **pieces**: progresses 0..84, none on p 1..12 under ``track=ludii`` [R-TRACK]; a seat with
  a piece out, or a kill credit (0..999,999,999), has entered [R-FIRST-PIECE-FREE,
  V-KILL-BEFORE-HOME]; enemies share a square only where the rules
  let them (a castle under ``coexist``, a mixed stack under ``top_one``) [R-CASTLE-BLOCK,
  R-CAPTURE]; friendly pieces share only where stacking allows [V-STACK-RESTRICTED].
* **board memory**: second laps only under ``extra_lap`` and on p >= 8 [V-EXTRA-LAP]; the
  stack order lists exactly the pieces on the board, only under ``top_one`` [C.11]; capture
  records only under ``recapture_annul``, each with its capturing pieces on its square,
  enemy victims, a turn within its window, and a standing kill credit [V-RECAPTURE-ANNUL].
  (A piece home under kill-before-home has had a credit, but RULES.md's own scenarios,
  SC-26 and SC-51, set up pieces home with none, so that is not required.)
* **result**: a finished game has a winner whose side is home, or a draw that R-DEADLOCK
  or R-FROZEN gives, and no turn in progress; a game going on has no side home [R-TEAM-WIN,
  V-INDIVIDUAL-WIN] and, under ``deadlock=draw``, a side that can still win [R-DEADLOCK]
  and a piece that can still move [R-FROZEN]; a draw is one of those two.
* **stage and turn**: the throw-off happens before any piece moves, in seat order with ties
  thrown again [R-ORDER]; a finished seat takes no turn under ``skip`` [R-FINISHED-SEAT];
  every seat has entered after Ludii's first phase [E.2]; the pending throw, re-throw,
  capture, pyada, collected throws, triple run, split and phase fields are what the
  stage's transition leaves [C.10a, C.10b].
* **a move**: the position has a legal action, a chance outcome or an outcome.

>>> from pachisi.rules.ruleset import get_ruleset
>>> from pachisi.rules.state import Stage, State
>>> check_state(State(get_ruleset("classic"), (0,) * 16, Stage.THROW_OFF, 0,
...                   throwoff=(-1, -1, -1, -1)))
>>> home = (84,) * 4 + (0,) * 4
>>> try:
...     check_state(State(get_ruleset("classic"), home * 2, Stage.THROW, 1, entered=0b0101))
... except InvalidStateError as exc:
...     print(exc.field, "-", exc.reason)
pieces - team 0 has all 8 pieces home, so the game is over (R-TEAM-WIN)
"""

from __future__ import annotations

from pachisi.rules._builder import HAS_PIECE, NONE_WAITING
from pachisi.rules._legal import legal_actions
from pachisi.rules._position import mover_of, stacking_allows, team
from pachisi.rules.board import (
    HOME,
    IS_CASTLE,
    LAST_SQUARE,
    LOOP_START,
    LUDII_ENTRY_PROGRESS,
    NUM_SEATS,
    PRIVATE_SQUARES,
    SQUARE_OF,
    square_name,
)
from pachisi.rules.choices import (
    CaptureScope,
    CastleMode,
    FinishedSeat,
    FirstPieceFree,
    FirstPlayer,
    PyadaCondition,
    PyadaUse,
    SplitThrow,
    Teams,
    ThrowUsage,
    TripleCancel,
)
from pachisi.rules.deadlock import every_side_blocked
from pachisi.rules.frozen import is_frozen
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import DRAW, NO_WINNER, CaptureRecord, Stage, State

__all__ = ["InvalidStateError", "check_state"]

_PLAYING = (Stage.THROW, Stage.ACT, Stage.PYADA, Stage.SPEND)
MAX_KILLS = 999_999_999
"""The most kill credits a seat may hold: the position string writes at most nine digits,
and every engine counts them in 32 bits."""
_PRIVATE = frozenset().union(*PRIVATE_SQUARES)


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


def check_state(state: State) -> None:
    """Raise :class:`InvalidStateError` unless ``state`` keeps every invariant."""
    if not 0 <= state.seat < NUM_SEATS:
        raise _fail("side", "the seat is 0..3")
    if state.turn < 1:
        raise _fail("turn", "turns count from 1")
    if state.stage is Stage.THROW_OFF:
        # Before the throw-off nothing has moved, which says more than any check of pieces.
        _check_throw_off(state)
    _check_pieces(state)
    _check_board_memory(state)
    if state.stage is not Stage.THROW_OFF:
        _check_result(state)
        _check_stage(state)
    _check_a_move_exists(state)


def _name(g: int) -> str:
    return f"{g >> 2}{'abcd'[g & 3]}"


def _fail(field: str, reason: str, item: int = -1) -> InvalidStateError:
    return InvalidStateError(field, reason, item)


# --------------------------------------------------------------------------- pieces


def _check_pieces(s: State) -> None:
    r, pos = s.ruleset, s.pos
    if len(pos) != 4 * NUM_SEATS or any(not 0 <= p <= HOME for p in pos):
        raise _fail("pieces", "16 progresses, each 0 (waiting) .. 84 (home)")
    for g, p in enumerate(pos):
        if r.ludii and 0 < p < LUDII_ENTRY_PROGRESS:
            raise _fail(
                "pieces",
                f"piece {_name(g)} on p{p}: track=ludii enters at p13 and never uses p1..p12",
            )
        if p and not s.entered >> (g >> 2) & 1:
            raise _fail(
                "entered",
                f"piece {_name(g)} has left the Charkoni, so seat {g >> 2} has entered "
                "(R-FIRST-PIECE-FREE)",
            )
    for seat, credits in enumerate(s.kills):
        if not 0 <= credits <= MAX_KILLS:
            raise _fail("kills", f"kill credits are 0..{MAX_KILLS:,} per seat")
        if credits and not s.entered >> seat & 1:
            raise _fail(
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
            sides.setdefault(team(r, g >> 2), []).append(g)
        if len(sides) > 1 and not _enemies_may_share(r, sq):
            a, b = (members[0] for members in list(sides.values())[:2])
            raise _fail(
                "pieces",
                f"enemy pieces {_name(a)} and {_name(b)} share {_square(sq)}, which "
                f"castle_mode={r.castle_mode} with capture_scope={r.capture_scope} never "
                "allows (R-CASTLE-BLOCK, R-CAPTURE)",
            )
        for members in sides.values():
            if not stacking_allows(r, len(members), sq):
                names = " and ".join(_name(g) for g in members)
                raise _fail(
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


def _check_board_memory(s: State) -> None:
    r, pos = s.ruleset, s.pos
    if s.laps:
        if not r.extra_lap:
            raise _fail("laps", "second laps need extra_lap=true", _lowest_bit(s.laps))
        if s.laps >> 16:
            raise _fail("laps", "lap bits name pieces 0..15 only")
        for g in range(16):
            if s.laps >> g & 1 and pos[g] < LOOP_START:
                raise _fail(
                    "laps",
                    f"piece {_name(g)} on p{pos[g]} cannot be on its second lap: a lap move "
                    "lands on p8 or beyond (V-EXTRA-LAP)",
                    g,
                )
    on_board = [g for g in range(16) if 0 < pos[g] < HOME]
    if r.tracks_stack_order:
        for g in s.order:
            if not 0 <= g < 16 or not 0 < pos[g] < HOME:
                raise _fail("order", f"piece {_name(g)} is not on the board", g)
        if len(set(s.order)) != len(s.order):
            raise _fail("order", "a piece is listed twice")
        missing = sorted(set(on_board) - set(s.order))
        if missing:
            names = ", ".join(_name(g) for g in missing)
            raise _fail("order", f"pieces on the board missing from the stack order: {names}")
    elif s.order:
        raise _fail("order", "a stack order is kept only with capture_scope=top_one")
    _check_records(s)


def _lowest_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _check_records(s: State) -> None:
    r, pos = s.ruleset, s.pos
    if s.records and not r.recapture_annul:
        raise _fail("records", "capture records are kept only with recapture_annul=true", 0)
    per_seat = [0] * NUM_SEATS
    for i, rec in enumerate(s.records):
        a = rec.capturer
        if not 0 <= a < NUM_SEATS:
            raise _fail("records", f"capturer {a} is not a seat", i)
        own = 0xF << (4 * a)
        if not rec.pieces or rec.pieces & ~own:
            raise _fail("records", f"the capturing pieces must be seat {a}'s", i)
        enemies = sum(1 << v for v in range(NUM_SEATS) if team(r, v) != team(r, a))
        if not rec.victims or rec.victims & ~enemies:
            raise _fail("records", f"the victims must be seats of the other side than {a}", i)
        if not 0 <= rec.square < len(IS_CASTLE) or rec.square in _PRIVATE:
            raise _fail("records", "a capture happens on a square every seat can reach", i)
        for g in range(16):
            if rec.pieces >> g & 1 and not (
                0 < pos[g] <= LAST_SQUARE and SQUARE_OF[g >> 2][pos[g]] == rec.square
            ):
                raise _fail("records", f"piece {_name(g)} is not on {square_name(rec.square)}", i)
        if rec.turn > s.turn:
            raise _fail("records", f"turn {rec.turn} is after the current turn", i)
        if not _window_open(s, rec):
            raise _fail(
                "records",
                f"the capture of turn {rec.turn} can no longer be annulled in turn {s.turn} "
                f"with seat {s.seat} to play: every victim has had its turn since "
                "(V-RECAPTURE-ANNUL)",
                i,
            )
        per_seat[a] += 1
    for seat, count in enumerate(per_seat):
        if s.kills[seat] < count:
            raise _fail(
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
        turn_seats.append((rec.capturer + 2) % NUM_SEATS)
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


def _check_result(s: State) -> None:
    r = s.ruleset
    complete = _complete_sides(s)
    side = "seat" if r.teams == Teams.INDIVIDUAL else "team"
    if s.stage is not Stage.OVER:
        if s.winner != NO_WINNER:
            raise _fail("winner", "a result exists only in stage x")
        if complete:
            count = 4 if r.teams == Teams.INDIVIDUAL else 8
            rule = "V-INDIVIDUAL-WIN" if r.teams == Teams.INDIVIDUAL else "R-TEAM-WIN"
            raise _fail(
                "pieces",
                f"{side} {complete[0]} has all {count} pieces home, so the game is over ({rule})",
            )
        if r.draws_on_deadlock and every_side_blocked(r, s.pos, s.kills):
            raise _fail(
                "pieces",
                "no side can win any more, so the game has ended as a draw (R-DEADLOCK)",
            )
        if r.draws_when_frozen and is_frozen(s):
            raise _fail(
                "pieces",
                "no piece can ever move again, so the game has ended as a draw (R-FROZEN)",
            )
        return
    if s.winner == DRAW:
        if not r.draws_when_frozen:
            raise _fail("winner", "a draw needs deadlock=draw (R-DEADLOCK, R-FROZEN)")
        deadlocked = r.draws_on_deadlock and every_side_blocked(r, s.pos, s.kills)
        if complete or not (deadlocked or is_frozen(s)):
            raise _fail(
                "winner",
                "a draw ends a game that no side can win any more (R-DEADLOCK) or in which "
                "no piece can ever move again (R-FROZEN)",
            )
    else:
        sides = range(NUM_SEATS) if r.teams == Teams.INDIVIDUAL else range(2)
        if s.winner not in sides:
            raise _fail("winner", f"the winner is a {side}: {sides[0]}..{sides[-1]}")
        if complete != [s.winner]:
            raise _fail(
                "winner",
                f"{side} {s.winner} wins only with all its pieces home, and the game ends "
                "as soon as a side is home",
            )
    _check_cleared(s, "the game is over")


def _check_cleared(s: State, why: str) -> None:
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
            raise _fail(key, f"no turn is in progress ({why})")


# --------------------------------------------------------------------------- stage and turn


def _check_stage(s: State) -> None:
    r = s.ruleset
    if s.throwoff:
        raise _fail("throwoff", "the throw-off exists only in stage o")
    if s.stage is Stage.OVER:
        return
    collect = r.throw_usage == ThrowUsage.COLLECT
    if s.stage is Stage.SPEND and not collect:
        raise _fail("side", "stage s (spend) needs throw_usage=collect")
    if s.stage in (Stage.ACT, Stage.PYADA) and collect:
        raise _fail("side", "stages a and p need throw_usage=immediate")
    if s.stage is Stage.PYADA and not (r.pyada and r.pyada_use == PyadaUse.FREE):
        raise _fail("side", "stage p (a pyada step) needs pyada=true with pyada_use=free")
    _check_seat(s)
    if s.pyadas and not r.pyada:
        raise _fail("pyadas", "pyadas need pyada=true")
    if s.phase_flags and not collect:
        raise _fail("flags", "phase flags exist only with throw_usage=collect")
    if not 0 <= s.phase_flags <= HAS_PIECE | NONE_WAITING:
        raise _fail("flags", "phase flags are 0..3")
    if s.split_left or s.split_value or s.split_used:
        _check_split(s)
    _check_run(s)
    if s.stage is Stage.THROW:
        _check_throw_stage(s)
    elif s.stage is Stage.SPEND:
        _check_spend_stage(s)
    else:
        _check_pending_throw(s)


def _check_throw_off(s: State) -> None:
    """R-ORDER: before play; seats throw in order; ties throw again."""
    r = s.ruleset
    if r.first_player != FirstPlayer.THROW_OFF:
        raise _fail("side", "stage o (the throw-off) needs first_player=throw_off")
    if any(s.pos) or s.entered or any(s.kills) or s.records or s.laps or s.order:
        raise _fail("pieces", "nothing moves before the throw-off has decided who begins")
    if s.turn != 1:
        raise _fail("turn", "the throw-off comes before turn 1")
    if s.winner != NO_WINNER:
        raise _fail("winner", "a result exists only in stage x")
    _check_cleared(s._replace(throwoff=()), "the throw-off moves nothing")
    values = s.throwoff
    if len(values) != NUM_SEATS:
        raise _fail("throwoff", "one entry per seat")
    playing = [seat for seat in range(NUM_SEATS) if values[seat] != -2]
    if len(playing) < 2:
        raise _fail("throwoff", "a throw-off round has at least two seats throwing")
    if values[s.seat] != -1:
        raise _fail("throwoff", f"seat {s.seat} is to throw, so its entry must be ?")
    for seat in playing:
        v = values[seat]
        if seat < s.seat and v < 0:
            raise _fail("throwoff", f"seat {seat} throws before seat {s.seat} in this round")
        if seat > s.seat and v != -1:
            raise _fail("throwoff", f"seat {seat} throws after seat {s.seat} in this round")
        if v >= 0 and v not in r.score_table:
            raise _fail("throwoff", f"{v} is not a throw value of this ruleset")


def _check_seat(s: State) -> None:
    r = s.ruleset
    keeps_turns = r.ludii or r.finished_seat == FinishedSeat.THROW_FOR_PARTNER
    if not keeps_turns and s.seat_finished(s.seat):
        raise _fail(
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
        raise _fail(
            "entered",
            f"in turn {s.turn} every seat has entered: Ludii's first phase (E.2) is over",
        )


def _check_split(s: State) -> None:
    """V-SPLIT-THROW: a throw being shared out, part by part, by the mover's pieces."""
    r = s.ruleset
    if r.split_throw != SplitThrow.SPLIT:
        raise _fail("split", "a split throw needs split_throw=split")
    if s.stage not in (Stage.ACT, Stage.SPEND):
        raise _fail("split", "a throw is shared out only while it is being used")
    if not 0 < s.split_left < s.split_value or s.split_value not in r.score_table:
        raise _fail("split", "a split has played at least one part of a throw of this ruleset")
    if s.stage is Stage.ACT:
        if s.split_value != r.score_table[s.throw_k]:
            raise _fail("split", "the throw being shared out is the pending throw")
        if s.pyadas and r.pyada_use == PyadaUse.ATTACHED:
            raise _fail("split", "a throw with an attached pyada is not split")
    m = mover_of(r, s.pos, s.seat)
    if not s.split_used or s.split_used >> 4:
        raise _fail("split", "the pieces that took a part are named: a..d")
    for i in range(4):
        if s.split_used >> i & 1 and s.pos[4 * m + i] < 2:
            raise _fail("split", f"piece {_name(4 * m + i)} has not moved, so took no part")


def _check_run(s: State) -> None:
    """V-TRIPLE-CANCEL: a run is a class (or value) with a length of 1..3."""
    r = s.ruleset
    key, length = s.run
    if (key, length) == (0, 0):
        return
    if r.triple_cancel == TripleCancel.OFF:
        raise _fail("run", "a triple-cancel run needs triple_cancel=group or same")
    classes = {r.run_class(v) for v in r.score_table} - {0}
    if key not in classes or not 1 <= length <= 3:
        raise _fail("run", f"{key}x{length} is not a run this ruleset's throws can make")
    if length == 3 and s.stage is not Stage.SPEND:
        # A third throw in a row cancels and ends the throwing at once (in immediate mode
        # the turn); only collected throws from before the run can still be spent.
        raise _fail("run", "a run of three ends the throwing at once")


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
            raise _fail(key, "a throw is due, so nothing of the last one is pending")
    if r.throw_usage != ThrowUsage.COLLECT:
        if s.items:
            raise _fail("items", "collected throws exist only with throw_usage=collect")
        return
    # Collect mode, throwing phase: nothing has moved since it began.
    m = mover_of(r, s.pos, s.seat)
    if s.phase_flags != _phase_flags(s, m):
        raise _fail(
            "flags",
            f"the throwing phase began on this very board, so its flags are "
            f"{_phase_flags(s, m)} (C.10b)",
        )
    run = (0, 0)
    for v in s.items:
        _check_item(s, v)
        if v not in r.reroll_values:
            raise _fail("items", f"{v} ends the throwing, so no throw follows it (C.10b)")
        if r.triple_cancel != TripleCancel.OFF:
            run = r.advance_run(run, v)
    if s.run != run:
        raise _fail("run", "the run is that of the throws collected in this phase")


def _phase_flags(s: State, m: int) -> int:
    pieces = s.seat_pieces(m)
    flags = HAS_PIECE if any(1 <= p <= LAST_SQUARE for p in pieces) else 0
    return flags | (NONE_WAITING if 0 not in pieces else 0)


def _check_item(s: State, v: int) -> None:
    """V-7-14-NEEDS-PIECE: a 7 or 14 counts only with a piece on the board."""
    if v in (7, 14) and not s.phase_flags & HAS_PIECE:
        raise _fail(
            "items",
            f"a {v} with no piece on the board when the throwing began is void "
            "(V-7-14-NEEDS-PIECE)",
        )


def _check_spend_stage(s: State) -> None:
    """C.10b step 4: spending the collected throws and pyadas."""
    r = s.ruleset
    if s.throw_k != -1:
        raise _fail("k", "a pending throw exists only in stages a and p")
    if s.again:
        raise _fail("again", "in collect mode a grace adds a throw to the phase instead")
    if not (s.items or s.pyadas or s.split_left):
        raise _fail("items", "spending goes on only while something is left to spend")
    for v in s.items:
        _check_item(s, v)
    if sum(1 for v in s.items if v not in r.reroll_values) > 1:
        raise _fail("items", "only the last throw of a phase may be one that stops it")
    if (
        s.pyadas
        and r.pyada_condition == PyadaCondition.ALL_ENTERED
        and not s.phase_flags & NONE_WAITING
    ):
        raise _fail(
            "pyadas", "pyadas are earned only with no piece waiting when the throwing began"
        )
    m = mover_of(r, s.pos, s.seat)
    if m == s.seat and s.phase_flags & NONE_WAITING and 0 in s.seat_pieces(m):
        raise _fail("flags", "no piece was waiting when the throwing began, and none returns")


def _check_pending_throw(s: State) -> None:
    """C.10a: a throw being used (stage a) or its pyada step (stage p)."""
    r = s.ruleset
    if not 0 <= s.throw_k <= r.cowries:
        raise _fail("k", f"stages a and p need the pending throw: k=0..{r.cowries}")
    if s.items:
        raise _fail("items", "collected throws exist only with throw_usage=collect")
    v = r.score_table[s.throw_k]
    if s.again != (v in r.reroll_values):
        raise _fail("again", f"a {v} {'gives' if v in r.reroll_values else 'gives no'} re-throw")
    m = mover_of(r, s.pos, s.seat)
    # The board is the one the throw met, unless parts of a split have moved pieces (and
    # maybe finished the seat, so that the partner moves on under throw_for_partner).
    unchanged = s.stage is Stage.ACT and not s.split_left
    if unchanged and s.captured:
        raise _fail("captured", "nothing has been captured with a throw not yet used")
    if unchanged and v in (7, 14) and not s.on_board(m):
        raise _fail("k", f"a {v} with no piece on the board is void (V-7-14-NEEDS-PIECE)")
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
            raise _fail("pyadas", f"a pyada step needs a pyada earned by the {v} (V-PYADA)")
        if s.split_left:
            raise _fail("split", "the pyada step comes after the throw is used in full")
    elif s.pyadas not in (0, 1) or (exact and s.pyadas != int(earned)):
        raise _fail("pyadas", f"the {v} earns {int(earned)} pyada here (V-PYADA)")
    if r.triple_cancel != TripleCancel.OFF:
        key = r.run_class(v)
        if (key == 0 and s.run != (0, 0)) or (key and s.run[0] != key):
            raise _fail("run", f"the run is that of the {v} just thrown")


# --------------------------------------------------------------------------- a move


def _check_a_move_exists(s: State) -> None:
    if s.stage in (Stage.ACT, Stage.PYADA, Stage.SPEND) and not legal_actions(s):
        raise _fail("side", f"seat {s.seat} has no legal action in this position")
