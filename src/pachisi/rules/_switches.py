"""The switches of a ruleset that the rules core's own helpers read.

Before :mod:`pachisi.rules.ruleset` accepts a ruleset, its checks
(:mod:`pachisi.rules.ruleset_checks`) ask :mod:`pachisi.rules._bounds`,
:mod:`pachisi.rules._entry` and :mod:`pachisi.rules._playable` whether it can be played, so
those helpers must not import the ruleset module back. They read a ruleset through
:class:`Switches` instead, which :class:`pachisi.rules.ruleset.Ruleset` satisfies as it is:
the helpers sit below the ruleset, and the import graph has no cycle.

Internal to :mod:`pachisi.rules`.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Protocol

from pachisi.rules.choices import (
    EntryMode,
    FirstPieceFree,
    LastSquareExit,
    PyadaCondition,
    PyadaUse,
    SevenFourteenNeedsPiece,
    SplitThrow,
    ThrowUsage,
    TripleCancel,
    TripleScope,
)

__all__ = ["Switches"]


class Switches(Hashable, Protocol):
    """A ruleset as its helpers read it: the switches they need, read-only.

    Hashable, because the throw bounds are cached per ruleset.
    """

    @property
    def cowries(self) -> int: ...
    @property
    def score_table(self) -> tuple[int, ...]: ...
    @property
    def p_mouth_up(self) -> Fraction: ...
    @property
    def reroll_values(self) -> frozenset[int]: ...
    @property
    def entry_values(self) -> frozenset[int]: ...
    @property
    def entry_mode(self) -> EntryMode: ...
    @property
    def first_piece_free(self) -> FirstPieceFree: ...
    @property
    def seven_fourteen_needs_piece(self) -> SevenFourteenNeedsPiece: ...
    @property
    def throw_usage(self) -> ThrowUsage: ...
    @property
    def split_throw(self) -> SplitThrow: ...
    @property
    def last_square_exit(self) -> LastSquareExit | frozenset[int]: ...
    @property
    def triple_cancel(self) -> TripleCancel: ...
    @property
    def big_values(self) -> frozenset[int]: ...
    @property
    def triple_scope(self) -> TripleScope: ...
    @property
    def pyada(self) -> bool: ...
    @property
    def pyada_values(self) -> frozenset[int]: ...
    @property
    def pyada_condition(self) -> PyadaCondition: ...
    @property
    def pyada_use(self) -> PyadaUse: ...
    @property
    def pyada_can_enter(self) -> bool: ...
    @property
    def extra_lap(self) -> bool: ...
    @property
    def ludii(self) -> bool:
        """Whether Ludii's own flow applies (``track = ludii``)."""
        ...

    def run_class(self, value: int) -> int:
        """The triple-cancel class of a throw value (V-TRIPLE-CANCEL)."""
        ...

    def advance_run(self, run: tuple[int, int], value: int) -> tuple[int, int]:
        """The run of equal-class throws after ``value`` (V-TRIPLE-CANCEL)."""
        ...
