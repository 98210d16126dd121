"""R-FROZEN: a position in which no piece can ever move again ends as a draw.

Some switch combinations reach positions where every throw only forfeits: under
``stacking=none`` a piece on p = 83 stands on square 1 and bars every entry, while the
pieces on the board need a kill credit nobody can earn. RULES.md C.9 fixes the test, and
it is exact:

* a seat is **stuck** when, for every value ``v`` of the score table, that seat, about to
  use ``v`` as its only throw (immediate mode) or its only item (collect mode), would have
  no legal action but ``DECLINE`` (or stop); the pyada such a throw would earn now is held
  too, and split throws count as the legal-move rules allow them;
* the position is **frozen** when every seat that still takes turns (R-FINISHED-SEAT) is
  stuck.

If a seat has a legal action for some ``v``, it can throw ``v`` and use it; if none has,
no piece ever moves again, so nothing the test reads can change. A throw changes nothing
the test reads either. The single throw is asked of the engine itself: :func:`throw`
makes it (so a void 7 or 14 and the pyada it earns are the engine's), and the legal
actions are the engine's.

>>> from pachisi.notation import read_position
>>> sc53 = ("84,84,84,84/84,84,84,84/81,82,0,0/83,82,0,0 s2 100 items=2 "
...         "entered=0,1,2,3 kills=4,1,0,0 wikipedia-full+stacking=none")
>>> s = read_position(sc53)
>>> is_frozen(s), seat_stuck(s, 2), seat_stuck(s, 3)
(False, False, True)
"""

from __future__ import annotations

from pachisi.rules._builder import Builder
from pachisi.rules._entry import entry_progress
from pachisi.rules._legal import (
    entry_target,
    legal_actions,
    ludii_uses,
    move_legal,
    pyada_uses,
    waiting,
)
from pachisi.rules._position import mover, mover_of, occupancy, takes_turns
from pachisi.rules._throws import end_throwing, throw
from pachisi.rules.actions import ActionKind
from pachisi.rules.board import LAST_SQUARE, NUM_SEATS
from pachisi.rules.choices import PyadaUse, ThrowUsage
from pachisi.rules.state import NO_WINNER, Stage, State

__all__ = ["is_frozen", "seat_stuck"]


def is_frozen(state: State) -> bool:
    """Whether no seat that still takes turns can ever use a throw again (R-FROZEN).

    False during the throw-off (nothing has entered yet, and the test does not apply)
    and once the game is over only if the board itself is not frozen: the reader asks
    it of drawn games too.
    """
    if state.stage is Stage.THROW_OFF:
        return False
    memo = state.memo
    if memo is not None and memo.frozen is not None:
        return memo.frozen
    r = state.ruleset
    occ = occupancy(state)
    turns = ((state.seat + j) % NUM_SEATS for j in range(NUM_SEATS))
    seats = [seat for seat in turns if takes_turns(r, state.pos, seat)]
    # A cheap proof that a seat can move settles almost every position at once.
    frozen = not any(_can_use_something(state, occ, seat) for seat in seats) and all(
        _stuck(state, seat) for seat in seats
    )
    if memo is not None:
        memo.frozen = frozen
    return frozen


def seat_stuck(state: State, seat: int) -> bool:
    """Whether ``seat`` would have no legal use for any single throw value (R-FROZEN's
    "stuck"), judged on the board, kill credits and flags of ``state``."""
    if _can_use_something(state, occupancy(state), seat):
        return False
    return _stuck(state, seat)


def _can_use_something(state: State, occ: dict[int, list[int]], seat: int) -> bool:
    """A sufficient test that ``seat`` is not stuck: one of its pieces on the board can
    make an ordinary move by some value, or a waiting piece can enter with one.

    Both are exactly what the legal actions of such a throw would list (R-MOVE, R-GRACE-
    ENTRY, and Ludii's moves, E.2 item 5); whatever this cannot decide goes to
    :func:`_stuck`. It leaves out moves under an attached pyada (which add one step) and
    entries with a 7 or 14 (void with no piece on the board).
    """
    r = state.ruleset
    m = mover_of(r, state.pos, seat)
    values = r.distinct_values
    if r.ludii:
        # Ludii's moves need no occupancy and no landing check (E.2 item 5).
        if not state.entered >> m & 1:
            return False
        probe = state if state.throw_k < 0 else state._replace(throw_k=-1)
        return any(ludii_uses(probe, m, v) for v in values)
    if not (r.pyada and r.pyada_use == PyadaUse.ATTACHED):
        for i in range(4):
            g = 4 * m + i
            if 1 <= state.pos[g] <= LAST_SQUARE and any(
                move_legal(state, occ, m, (g,), v) for v in values
            ):
                return True
    if waiting(state, m) >= 0:
        for v in values:
            if (
                v in r.entry_values
                and v not in (7, 14)
                and entry_target(state, occ, m, entry_progress(r, v)) is not None
            ):
                return True
    return False


def _stuck(state: State, seat: int) -> bool:
    """The exact test: ``seat`` throws each value once, as the first throw of a turn."""
    r = state.ruleset
    fresh = _turn_of(state, seat)
    for k in sorted({r.score_table.index(v) for v in r.distinct_values}):
        used = _single_throw(fresh, k)
        if used is None:
            continue
        if any(a.kind is not ActionKind.DECLINE for a in legal_actions(used)):
            return False
        # Immediate mode, free pyada: after the throw (declined) comes its pyada step.
        if (
            used.stage is Stage.ACT
            and used.pyadas
            and r.pyada_use == PyadaUse.FREE
            and pyada_uses(used, occupancy(used), mover(used))
        ):
            return False
    return True


def _turn_of(state: State, seat: int) -> State:
    """``seat`` about to make the first throw of a turn on this board."""
    b = Builder(state)
    b.seat = seat
    b.winner = NO_WINNER
    b.end_turn_fields()
    b.begin_phase()
    return b.freeze()


def _single_throw(fresh: State, k: int) -> State | None:
    """The state in which the seat of ``fresh`` uses a throw of ``k`` mouths up as its
    only throw or only collected item, or None if the throw is void (V-7-14-NEEDS-PIECE)."""
    used, _ = throw(fresh, k)
    if fresh.ruleset.throw_usage == ThrowUsage.COLLECT:
        if used.stage is Stage.THROW and used.seat == fresh.seat and used.items:
            # A grace would throw on; the test takes it as the phase's only throw.
            b = Builder(used)
            end_throwing(b, [])
            used = b.freeze()
        return used if used.stage is Stage.SPEND and used.items else None
    return used if used.stage is Stage.ACT else None
