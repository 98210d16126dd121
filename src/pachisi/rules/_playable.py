"""R-PLAYABLE-RULESET: refuse a ruleset under which a game could never start or be won.

Two proofs, each from the switches alone, run when a ruleset is read
(:func:`pachisi.rules.ruleset.validate`):

* **No piece can ever enter.** At the start every piece waits and nothing is on the
  board, so only an entry can be used. The throws a seat can hold then are worked out
  exactly (a 7 or 14 is void, V-7-14-NEEDS-PIECE; in collect mode only the throws that a
  series can keep past every triple cancellation count, C.10b step 2); if none of them,
  nor a pyada they earn, can bring a piece out (R-GRACE-ENTRY, R-FIRST-PIECE-FREE,
  V-PYADA's entry), no piece ever enters and nothing ever moves.
* **No piece can ever reach home.** The progresses a piece could ever stand on are
  over-approximated: every way in, every step any throw, part of a split throw, pyada or
  second lap could give, ignoring everything that can forbid a landing. If even that never
  ends exactly on p = 84 (R-EXACT-FINISH) and no last-square exit leaves p = 83, no side can
  ever win.

Internal to :mod:`pachisi.rules`; it needs only the ruleset's switches.
"""

from __future__ import annotations

from pachisi.rules import refusals
from pachisi.rules._entry import entry_progress, free_progress
from pachisi.rules._switches import Switches
from pachisi.rules.board import HOME, LAST_SQUARE
from pachisi.rules.choices import (
    FirstPieceFree,
    PyadaCondition,
    PyadaUse,
    SevenFourteenNeedsPiece,
    SplitThrow,
    ThrowUsage,
    TripleCancel,
    TripleScope,
)

__all__ = ["unplayable"]

_SEVEN_FOURTEEN = frozenset({7, 14})
"""Void while a seat has no piece on the board, as at the start (V-7-14-NEEDS-PIECE)."""

_LAP = 68
"""A second lap takes a piece 68 steps back (V-EXTRA-LAP)."""


def unplayable(r: Switches) -> list[str]:
    """Why no game under ``r`` could start or be won (empty if it can): R-PLAYABLE-RULESET."""
    if r.ludii:
        # Ludii's flow fixes the table and every way in (E.2); its games start and end.
        return []
    problems = []
    entry = _never_enters(r)
    if entry:
        problems.append(entry)
    elif not _home_reachable(r):
        problems.append(refusals.NEVER_HOME(table=_values(r.score_table), exits=_exit_text(r)))
    return problems


def _values(values: tuple[int, ...] | frozenset[int]) -> str:
    items = list(values) if isinstance(values, tuple) else sorted(values)
    return ",".join(str(v) for v in items) if items else "none"


def _exit_text(r: Switches) -> str:
    exits = r.last_square_exit
    return exits if isinstance(exits, str) else _values(exits)


# --------------------------------------------------------------------------- entering


def _kept_at_start(r: Switches) -> frozenset[int]:
    """The throw values a seat can hold, to use, in a turn at the start of the game."""
    usable = frozenset(r.score_table) - _SEVEN_FOURTEEN
    if r.throw_usage != ThrowUsage.COLLECT:
        # Immediate mode: any throw can be a turn's first, which no triple cancels.
        return usable
    stoppers = usable - r.reroll_values
    void_ends = bool(frozenset(r.score_table) & _SEVEN_FOURTEEN) and (
        r.seven_fourteen_needs_piece == SevenFourteenNeedsPiece.VOID
    )
    kept = set(stoppers)  # a series of one stopping throw
    for v in usable & r.reroll_values:
        # A grace followed by a stopping throw (or a void 7/14 that ends the series) keeps
        # the grace: two throws never make a run of three.
        if stoppers or void_ends or _outlives_a_cancellation(r, v, usable):
            kept.add(v)
    return frozenset(kept)


def _outlives_a_cancellation(r: Switches, v: int, usable: frozenset[int]) -> bool:
    """Whether ``v`` can stay in a series that every throw prolongs, so that only a triple
    cancellation ends it (V-TRIPLE-CANCEL).

    Under ``triple_scope=turn`` a cancellation takes every throw. Under ``three`` it takes
    the run of three that ends the series, so ``v`` stays if three throws can follow it
    without joining its run: some other value ``z`` breaks it (``v, z, z, z`` when ``z`` is
    in another class, ``v, z, v, v, v`` when ``z`` is in none).
    """
    if r.triple_cancel == TripleCancel.OFF or r.triple_scope == TripleScope.TURN:
        return False
    own = r.run_class(v)
    return own == 0 or any(r.run_class(z) != own for z in usable)


def _never_enters(r: Switches) -> str | None:
    """Why no piece can ever enter the board, or None if one can (R-PLAYABLE-RULESET)."""
    kept = _kept_at_start(r)
    attached = r.pyada and r.pyada_use == PyadaUse.ATTACHED
    pyada_at_start = r.pyada and r.pyada_condition == PyadaCondition.ALWAYS
    for v in kept:
        if v in r.entry_values and entry_progress(r, v) <= LAST_SQUARE:
            return None
        bonus = 1 if attached and pyada_at_start and v in r.pyada_values else 0
        target = free_progress(r, v, bonus)
        if target is not None and target <= LAST_SQUARE:
            return None
    pyada_entry = r.pyada and r.pyada_can_enter and not attached
    if pyada_entry and pyada_at_start and kept & r.pyada_values:
        return None
    return refusals.NEVER_ENTERS(reasons="; ".join(_entry_reasons(r, kept)))


def _entry_reasons(r: Switches, kept: frozenset[int]) -> list[str]:
    """What stops each way in, naming the switches."""
    if r.throw_usage == ThrowUsage.COLLECT and not kept:
        # Nothing is ever spent, whatever the ways in.
        return [
            "in collect mode every series of throws is cancelled before anything can be "
            f"spent (reroll_values={_values(r.reroll_values)}, "
            f"triple_cancel={r.triple_cancel}, big_values={_values(r.big_values)}, "
            f"triple_scope={r.triple_scope})"
        ]
    reasons = []
    if not r.entry_values:
        reasons.append("entry_values=none")
    else:
        graces = sorted(r.entry_values)
        void = [v for v in graces if v in _SEVEN_FOURTEEN]
        far = [v for v in graces if v in kept and entry_progress(r, v) > LAST_SQUARE]
        lost = [v for v in graces if v not in kept and v not in _SEVEN_FOURTEEN]
        if void:
            reasons.append(
                f"entry_values={_values(r.entry_values)}: a 7 or 14 is void while no piece "
                "is on the board (V-7-14-NEEDS-PIECE)"
            )
        if far:
            reasons.append(
                f"entry_mode={r.entry_mode} puts a piece entering with "
                f"{_values(tuple(far))} beyond the last square"
            )
        if lost and r.throw_usage == ThrowUsage.COLLECT and kept:
            reasons.append(f"no series of throws keeps {_values(tuple(lost))}")
    if r.first_piece_free == FirstPieceFree.OFF:
        reasons.append("first_piece_free=off")
    else:
        reasons.append(
            f"first_piece_free={r.first_piece_free} takes no throw that can be kept to a square"
        )
    if not r.pyada:
        reasons.append("pyada=false (no pyada entry)")
    elif not r.pyada_can_enter:
        reasons.append("pyada_can_enter=false")
    elif r.pyada_use == PyadaUse.ATTACHED:
        reasons.append("pyada_use=attached (a pyada then only lengthens a move)")
    elif r.pyada_condition == PyadaCondition.ALL_ENTERED:
        reasons.append(
            "the only other way in, a pyada entry, needs a pyada, which "
            "pyada_condition=all_entered earns only once every piece has entered"
        )
    else:
        reasons.append(
            f"no throw in pyada_values={_values(r.pyada_values)} can be kept to earn a pyada"
        )
    return reasons


# --------------------------------------------------------------------------- going home


def _home_reachable(r: Switches) -> bool:
    """Whether some series of entries and steps could ever take a piece home.

    An over-approximation of where a piece can stand: it ignores every landing rule and
    V-7-14-NEEDS-PIECE after the start, so a False is a proof.
    """
    values = set(r.score_table)
    starts = {entry_progress(r, v) for v in r.entry_values}
    if r.first_piece_free != FirstPieceFree.OFF:
        bonuses = (0, 1) if r.pyada and r.pyada_use == PyadaUse.ATTACHED else (0,)
        starts |= {t for v in values for b in bonuses if (t := free_progress(r, v, b)) is not None}
    if r.pyada and r.pyada_can_enter:
        starts.add(1)
    steps = set(values)
    if r.pyada:
        if r.pyada_use == PyadaUse.ATTACHED:
            steps |= {v + 1 for v in r.pyada_values}
        else:
            steps.add(1)
    if r.split_throw == SplitThrow.SPLIT:
        # A part of a split may be any 1..v-1 steps, the rest going to another piece.
        steps |= set(range(1, max(values)))
    exits = r.last_square_exit
    seen = {t for t in starts if 1 <= t <= LAST_SQUARE}
    todo = list(seen)
    while todo:
        p = todo.pop()
        nexts = {p + s for s in steps if p + s <= HOME}
        if r.extra_lap:
            nexts |= {p + s - _LAP for s in steps if p <= 75 < p + s <= LAST_SQUARE + _LAP}
        if p == LAST_SQUARE and isinstance(exits, frozenset) and exits & values:
            nexts.add(HOME)
        if HOME in nexts:
            return True
        for t in nexts - seen:
            seen.add(t)
            todo.append(t)
    return False
