"""Where a piece lands when it leaves the Charkoni (R-ENTRY-CONSUMES, R-FIRST-PIECE-FREE,
R-TRACK): one place for the fact, asked by the legal moves, the transitions and the
ruleset's own playability check (R-PLAYABLE-RULESET).

Internal to :mod:`pachisi.rules`. It needs only the ruleset's switches, so the ruleset
module can ask it too.
"""

from __future__ import annotations

from pachisi.rules._switches import Switches
from pachisi.rules.board import LUDII_ENTRY_PROGRESS
from pachisi.rules.choices import EntryMode, FirstPieceFree

__all__ = ["entry_progress", "free_progress"]


def entry_progress(r: Switches, v: int) -> int:
    """Where an entry grace of value ``v`` puts a piece (R-ENTRY-CONSUMES, R-TRACK)."""
    if r.ludii:
        return LUDII_ENTRY_PROGRESS
    mode = r.entry_mode
    if mode == EntryMode.CONSUME:
        return 1
    if mode == EntryMode.CONSUME_PLUS_MOVE:
        return 1 + v
    return v


def free_progress(r: Switches, v: int, bonus: int = 0) -> int | None:
    """Where the first piece's entry without a grace puts it with the throw ``v``
    (R-FIRST-PIECE-FREE; ``bonus`` is an attached pyada's step), or None if that throw
    gives no such entry: ``off``, or an entry grace, which enters as ``ENTER`` instead
    (under ``travel`` a grace never travels, S4; under ``square1`` it is the same outcome).
    The landing itself is checked by the caller.
    """
    mode = r.first_piece_free
    if mode == FirstPieceFree.LUDII_FORCED:
        return LUDII_ENTRY_PROGRESS - 1 + v
    if mode == FirstPieceFree.OFF or v in r.entry_values:
        return None
    if mode == FirstPieceFree.SQUARE1:
        return 1
    return v + bonus
