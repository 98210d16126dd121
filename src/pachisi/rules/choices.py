"""The named choices of the ruleset switches (RULES.md C, E.1), each declared once.

Every switch with a fixed set of named choices has an enum here; the switch table
(:data:`pachisi.rules.ruleset.SWITCHES`), the ruleset reader, its error messages and the
:class:`~pachisi.rules.ruleset.Ruleset` field types all derive from it, so a new choice is
added in one place. A member's value is the choice as ruleset strings write it, and the
members are in the order the switch lists its choices: the compiled engine numbers a choice
by its place in that order (:func:`pachisi.fast.params.compile_ruleset`).

They are :class:`~enum.StrEnum`\\ s: a member is the very text it stands for, so it prints,
formats and serialises (JSON, notation, records) exactly as that text, and compares equal to
it:

>>> Teams.INDIVIDUAL == "individual", str(Teams.INDIVIDUAL), f"teams={Teams.PAIRS}"
(True, 'individual', 'teams=pairs')
>>> [str(choice) for choice in SplitThrow]
['none', 'split', 'group']

Switches whose values are booleans, numbers or sets have no enum. Two switches mix named
choices with sets (``stacking`` and ``last_square_exit``); their enums hold the named ones.

This module imports nothing of the rules core, so that every part of it can use the enums.
"""

from __future__ import annotations

from enum import StrEnum, unique

__all__ = [
    "CaptureScope",
    "CastleMode",
    "Deadlock",
    "EntryMode",
    "FinishedSeat",
    "FirstPieceFree",
    "FirstPlayer",
    "KillBeforeHome",
    "LastSquareExit",
    "PyadaCondition",
    "PyadaUse",
    "SevenFourteenNeedsPiece",
    "SplitThrow",
    "Stacking",
    "Teams",
    "ThrowUsage",
    "Track",
    "TripleCancel",
    "TripleScope",
    "UnusableThrow",
]


@unique
class EntryMode(StrEnum):
    """``entry_mode`` (R-ENTRY-CONSUMES): where an entered piece lands."""

    CONSUME = "consume"
    CONSUME_PLUS_MOVE = "consume_plus_move"
    COUNT_FROM_CHARKONI = "count_from_charkoni"


@unique
class FirstPieceFree(StrEnum):
    """``first_piece_free`` (R-FIRST-PIECE-FREE): the first piece leaves on any throw."""

    TRAVEL = "travel"
    SQUARE1 = "square1"
    OFF = "off"
    LUDII_FORCED = "ludii_forced"


@unique
class SevenFourteenNeedsPiece(StrEnum):
    """``seven_fourteen_needs_piece`` (V-7-14-NEEDS-PIECE): a 7 or 14 with no piece out."""

    VOID = "void"
    RETHROW_ONLY = "rethrow_only"


@unique
class FirstPlayer(StrEnum):
    """``first_player`` (V-FIRST-PLAYER-FIXED): who begins."""

    THROW_OFF = "throw_off"
    SEAT0 = "seat0"


@unique
class ThrowUsage(StrEnum):
    """``throw_usage`` (V-COLLECT-THROWS): use each throw at once, or collect a series."""

    IMMEDIATE = "immediate"
    COLLECT = "collect"


@unique
class SplitThrow(StrEnum):
    """``split_throw`` (V-SPLIT-THROW): one throw, many pieces."""

    NONE = "none"
    SPLIT = "split"
    GROUP = "group"


@unique
class UnusableThrow(StrEnum):
    """``unusable_throw`` (R-UNUSABLE-THROW): what an unusable throw costs."""

    FORFEIT_THROW = "forfeit_throw"
    FORFEIT_TURN = "forfeit_turn"


@unique
class Track(StrEnum):
    """``track`` (R-TRACK): the route; ``ludii`` is Ludii's own flow (RULES.md E.2)."""

    TRADITIONAL = "traditional"
    LUDII = "ludii"


@unique
class CastleMode(StrEnum):
    """``castle_mode`` (R-CASTLE-BLOCK): what a castle does."""

    BLOCK = "block"
    COEXIST = "coexist"
    INERT = "inert"


@unique
class Stacking(StrEnum):
    """``stacking`` (V-STACK-RESTRICTED): the named choices; the switch also takes a set of
    squares where sharing is allowed."""

    ALL = "all"
    CASTLES_ONLY = "castles_only"
    NONE = "none"


@unique
class CaptureScope(StrEnum):
    """``capture_scope`` (R-CAPTURE): which enemy pieces a capture takes."""

    ALL = "all"
    TOP_ONE = "top_one"


@unique
class KillBeforeHome(StrEnum):
    """``kill_before_home`` (V-KILL-BEFORE-HOME): who must have captured before going home;
    ``false`` is nobody."""

    FALSE = "false"
    SEAT = "seat"
    TEAM = "team"


@unique
class LastSquareExit(StrEnum):
    """``last_square_exit`` (R-LAST-SQUARE-EXIT): the named choice; the switch otherwise
    takes a set of throw values (``none``, the empty set, among them)."""

    LUDII = "ludii"


@unique
class TripleCancel(StrEnum):
    """``triple_cancel`` (V-TRIPLE-CANCEL): three in a row cancel."""

    OFF = "off"
    GROUP = "group"
    SAME = "same"


@unique
class TripleScope(StrEnum):
    """``triple_scope`` (V-TRIPLE-CANCEL): what a triple cancels."""

    THREE = "three"
    TURN = "turn"


@unique
class PyadaCondition(StrEnum):
    """``pyada_condition`` (V-PYADA): when a pyada is earned."""

    ALL_ENTERED = "all_entered"
    ALWAYS = "always"


@unique
class PyadaUse(StrEnum):
    """``pyada_use`` (V-PYADA): a separate step, or added to the move."""

    FREE = "free"
    ATTACHED = "attached"


@unique
class Teams(StrEnum):
    """``teams`` (V-INDIVIDUAL): partnerships or every seat alone."""

    PAIRS = "pairs"
    INDIVIDUAL = "individual"


@unique
class FinishedSeat(StrEnum):
    """``finished_seat`` (R-FINISHED-SEAT): the turns of a seat with all pieces home."""

    SKIP = "skip"
    THROW_FOR_PARTNER = "throw_for_partner"


@unique
class Deadlock(StrEnum):
    """``deadlock`` (R-DEADLOCK): whether a game no side can win any more is a draw."""

    DRAW = "draw"
    CONTINUE = "continue"
