"""A ruleset as the compiled kernels read it: one ``int32`` vector, plus the board tables.

:func:`compile_ruleset` turns a validated :class:`~pachisi.rules.ruleset.Ruleset` into the
vector (every switch of RULES.md E.1 as a number at a fixed index, below). Sets of throw
values become bitmasks over ``k``, the number of cowries mouth up: bit ``k`` is set when
the table's value for ``k`` is in the set. A ruleset the compiled engine cannot play is
refused with :class:`FastEngineError`, which names the switch; nothing is ever played
differently.

>>> from pachisi.rules.ruleset import get_ruleset
>>> params, p = compile_ruleset(get_ruleset("classic"))
>>> int(params[P_COWRIES]), params[P_TABLE:P_TABLE + 7].tolist(), p
(6, [25, 10, 2, 3, 4, 5, 6], 0.5)
"""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

from pachisi.rules.board import (
    HOME,
    IS_CASTLE,
    LAST_SQUARE,
    NUM_SQUARES,
    PRIVATE_SQUARES,
    SQUARE_OF,
    cell_of_coord,
    coord,
    rotate,
)
from pachisi.rules.choices import (
    CaptureScope,
    CastleMode,
    EntryMode,
    FinishedSeat,
    FirstPieceFree,
    FirstPlayer,
    KillBeforeHome,
    PyadaCondition,
    PyadaUse,
    SevenFourteenNeedsPiece,
    SplitThrow,
    Stacking,
    Teams,
    ThrowUsage,
    TripleCancel,
    TripleScope,
    UnusableThrow,
)
from pachisi.rules.cowries import HALF
from pachisi.rules.ruleset import Ruleset

__all__ = ["MAX_PART", "FastEngineError", "compile_ruleset", "engine_params"]


class FastEngineError(ValueError):
    """A ruleset (or request) the compiled engine cannot serve; the message names why."""


MAX_PART: Final = 63
"""The longest part of a split throw the fixed action space holds (V-SPLIT-THROW)."""

P_COWRIES: Final = 0
P_TABLE: Final = 1  # 8 values, k = 0..7; -1 past the last cowrie
P_REROLL: Final = 9
P_ENTRY: Final = 10
P_LSE: Final = 11
P_LSE_LUDII: Final = 12
P_BIG: Final = 13
P_PYADA_VALUES: Final = 14
P_ENTRY_MODE: Final = 15  # 0 consume, 1 consume_plus_move, 2 count_from_charkoni
P_FIRST_FREE: Final = 16  # 0 travel, 1 square1, 2 off, 3 ludii_forced
P_714_RETHROW: Final = 17
P_GRACE_MUST_ENTER: Final = 18
P_SEAT0_BEGINS: Final = 19
P_COLLECT: Final = 20
P_SPLIT: Final = 21  # 0 none, 1 split, 2 group
P_COMPULSORY: Final = 22
P_FORFEIT_TURN: Final = 23
P_LUDII: Final = 24
P_CASTLE: Final = 25  # 0 block, 1 coexist, 2 inert
P_STACKING: Final = 26  # 0 all, 1 castles_only, 2 none, 3 a set of squares
P_TOP_ONE: Final = 27
P_STACK_IMMUNE: Final = 28
P_CAPTURE_BONUS: Final = 29
P_KBH: Final = 30  # 0 false, 1 seat, 2 team
P_ANNUL: Final = 31
P_TRIPLE: Final = 32  # 0 off, 1 group, 2 same
P_SCOPE_TURN: Final = 33
P_PYADA: Final = 34
P_PYADA_ALWAYS: Final = 35
P_PYADA_ATTACHED: Final = 36
P_PYADA_ENTER: Final = 37
P_TWO_PLAYERS: Final = 38
P_INDIVIDUAL: Final = 39
P_FOR_PARTNER: Final = 40
P_EXTRA_LAP: Final = 41
P_BLOCKADE: Final = 42
P_DRAWS: Final = 43
P_HALF: Final = 44
P_FROZEN: Final = 45
P_STACK_SET: Final = 46  # 96 flags: sharing allowed on the square
P_VALUE_SLOT: Final = P_STACK_SET + NUM_SQUARES  # VALUE_SLOTS entries: see below
VALUE_SLOTS: Final = 65
"""``params[P_VALUE_SLOT + v]`` is the slot of the throw value ``v`` (the lowest ``k``
that throws it), -1 for a value no throw has, for ``v`` below this; the kernels ask it at
every throw and every legal list, so a lookup replaces a search of the table."""
P_SMALLEST: Final = P_VALUE_SLOT + VALUE_SLOTS
"""``params[P_SMALLEST]`` is the lowest ``k`` whose throw is worth the least, where
R-FROZEN's cheap test starts trying values (it asks after every action)."""
FREE_STEPS: Final = 62
"""Throw values below this are in :data:`P_VALUES`'s mask."""
P_VALUES: Final = P_SMALLEST + 1
"""``params[P_VALUES]`` and ``params[P_VALUES + 1]``: the throw values below
:data:`FREE_STEPS` as a mask (bit ``v``), in two halves of 31 bits (the vector is
``int32``), so that R-FROZEN's cheap test asks a piece's moves by every value at once
(:data:`FREE_LANDINGS`). ``params[P_VALUES + 2]`` is 1 if a value of ``FREE_STEPS`` up to
the last square's progress exists, which the mask leaves out: the test then tries the
values one by one."""
PARAMS_SIZE: Final = P_VALUES + 3

SPECIALIZED: Final = ("classic", "ludii", "wikipedia-full")
"""Named rulesets the kernels are also compiled for with every parameter a constant
(``python -m pachisi.fast._gen`` writes their vectors into ``_constants.pxi``): the C
compiler folds each parameter test away and drops the code of the rules those rulesets do
not use. Any other parameter vector runs the general kernels; so does one of these
rulesets' whenever its vector is not exactly the one compiled in."""


_Choice = TypeVar("_Choice", bound=StrEnum)


def _number(choices: type[_Choice], choice: _Choice) -> int:
    """A switch's choice as the kernels number it: its place in the order of its enum in
    :mod:`pachisi.rules.choices` (tests/rules/test_switch_enums.py holds that order to the
    numbers the kernels compare against)."""
    return list(choices).index(choice)


def _mask(r: Ruleset, values: frozenset[int]) -> int:
    return sum(1 << k for k, v in enumerate(r.score_table) if v in values)


def compile_ruleset(r: Ruleset) -> tuple[npt.NDArray[np.int32], float]:
    """The parameter vector of ``r`` and its mouth-up probability as a float.

    The float is ``float(p_mouth_up)``, the very number the reference engine's throws
    compare against, so both engines throw alike from the same generator.
    """
    if r.split_throw == SplitThrow.SPLIT and max(r.score_table) > MAX_PART + 1:
        raise FastEngineError(
            f"split_throw=split with a throw of {max(r.score_table)}: the compiled engine's "
            f"action space holds split parts of at most {MAX_PART} steps"
        )
    p = np.zeros(PARAMS_SIZE, dtype=np.int32)
    p[P_COWRIES] = r.cowries
    p[P_TABLE : P_TABLE + 8] = -1
    p[P_TABLE : P_TABLE + r.cowries + 1] = r.score_table
    p[P_REROLL] = _mask(r, r.reroll_values)
    p[P_ENTRY] = _mask(r, r.entry_values)
    if isinstance(r.last_square_exit, frozenset):
        p[P_LSE] = _mask(r, r.last_square_exit)
    else:
        p[P_LSE_LUDII] = 1
    p[P_BIG] = _mask(r, r.big_values)
    p[P_PYADA_VALUES] = _mask(r, r.pyada_values)
    p[P_ENTRY_MODE] = _number(EntryMode, r.entry_mode)
    p[P_FIRST_FREE] = _number(FirstPieceFree, r.first_piece_free)
    p[P_SPLIT] = _number(SplitThrow, r.split_throw)
    p[P_CASTLE] = _number(CastleMode, r.castle_mode)
    p[P_KBH] = _number(KillBeforeHome, r.kill_before_home)
    p[P_TRIPLE] = _number(TripleCancel, r.triple_cancel)
    p[P_714_RETHROW] = r.seven_fourteen_needs_piece == SevenFourteenNeedsPiece.RETHROW_ONLY
    p[P_GRACE_MUST_ENTER] = r.grace_must_enter
    p[P_SEAT0_BEGINS] = r.first_player == FirstPlayer.SEAT0
    p[P_COLLECT] = r.throw_usage == ThrowUsage.COLLECT
    p[P_COMPULSORY] = r.moves_compulsory
    p[P_FORFEIT_TURN] = r.unusable_throw == UnusableThrow.FORFEIT_TURN
    p[P_LUDII] = r.ludii
    if isinstance(r.stacking, frozenset):
        p[P_STACKING] = 3
        for sq in r.stacking:
            p[P_STACK_SET + sq] = 1
    else:
        p[P_STACKING] = _number(Stacking, r.stacking)
    p[P_TOP_ONE] = r.capture_scope == CaptureScope.TOP_ONE
    p[P_STACK_IMMUNE] = r.stack_immune
    p[P_CAPTURE_BONUS] = r.capture_bonus
    p[P_ANNUL] = r.recapture_annul
    p[P_SCOPE_TURN] = r.triple_scope == TripleScope.TURN
    p[P_PYADA] = r.pyada
    p[P_PYADA_ALWAYS] = r.pyada_condition == PyadaCondition.ALWAYS
    p[P_PYADA_ATTACHED] = r.pyada_use == PyadaUse.ATTACHED
    p[P_PYADA_ENTER] = r.pyada_can_enter
    p[P_TWO_PLAYERS] = r.players == 2
    p[P_INDIVIDUAL] = r.teams == Teams.INDIVIDUAL
    p[P_FOR_PARTNER] = r.finished_seat == FinishedSeat.THROW_FOR_PARTNER
    p[P_EXTRA_LAP] = r.extra_lap
    p[P_BLOCKADE] = r.blockade
    p[P_DRAWS] = r.draws_on_deadlock
    p[P_FROZEN] = r.draws_when_frozen
    p[P_HALF] = r.p_mouth_up == HALF
    p[P_VALUE_SLOT : P_VALUE_SLOT + VALUE_SLOTS] = -1
    for k in range(r.cowries, -1, -1):
        if 0 <= r.score_table[k] < VALUE_SLOTS:
            p[P_VALUE_SLOT + r.score_table[k]] = k
    p[P_SMALLEST] = min(range(r.cowries + 1), key=lambda k: (r.score_table[k], k))
    values = sum(1 << v for v in set(r.score_table) if v < FREE_STEPS)
    p[P_VALUES] = values & 0x7FFFFFFF
    p[P_VALUES + 1] = values >> 31
    p[P_VALUES + 2] = any(FREE_STEPS <= v <= LAST_SQUARE for v in r.score_table)
    return p, float(r.p_mouth_up)


@functools.lru_cache(maxsize=64)
def engine_params(r: Ruleset) -> tuple[npt.NDArray[np.int32], float]:
    """:func:`compile_ruleset` of ``r``, cached: every batch call and every playout asks for
    it, and a ruleset compiles once. Callers pass the vector to the kernels and never
    change it."""
    return compile_ruleset(r)


def _square_table() -> npt.NDArray[np.int32]:
    table = np.full((4, HOME + 1), -1, dtype=np.int32)
    for seat in range(4):
        table[seat, :] = SQUARE_OF[seat]
    return table


SQUARES: Final = _square_table()
"""``SQUARES[seat, p]``: the square of progress ``p`` (1..83) of ``seat``, else -1."""


def _progress_table() -> npt.NDArray[np.int32]:
    table = np.full((4, NUM_SQUARES), -1, dtype=np.int32)
    for seat in range(4):
        for p in range(HOME - 1, 0, -1):
            table[seat, SQUARES[seat, p]] = p
    return table


PROGRESS_ON: Final = _progress_table()
"""``PROGRESS_ON[seat, square]``: the first progress at which ``seat``'s route passes the
square, else -1. A route passes its own column's squares twice, out and back: a first
progress ``t`` of 1..8 comes again as ``84 - t`` (8 and 76 are both the column's foot)."""


CASTLE_MARK: Final = 128
"""Added to a progress in :data:`MEETS` where the square is a castle (progresses are below
it)."""


def _meets_table() -> npt.NDArray[np.int32]:
    table = np.full((4, 4 * (HOME + 1)), -1, dtype=np.int32)
    for seat in range(4):
        for other in range(4):
            for p in range(1, HOME):
                sq = SQUARES[other, p]
                t = PROGRESS_ON[seat, sq]
                if t >= 0:
                    table[seat, (HOME + 1) * other + p] = t + (CASTLE_MARK if CASTLE[sq] else 0)
    return table


def _seat_progress_table() -> npt.NDArray[np.int32]:
    table = np.full((NUM_SQUARES, 8), -1, dtype=np.int32)
    for seat in range(4):
        for p in range(1, HOME):
            sq = SQUARES[seat, p]
            table[sq, seat if table[sq, seat] < 0 else 4 + seat] = p
    return table


SEAT_PROGRESS: Final = _seat_progress_table()
"""``SEAT_PROGRESS[square, s]`` and ``SEAT_PROGRESS[square, 4 + s]``: the progresses at
which seat ``s``'s route passes the square, first and again (-1: none), so that which of
the 16 pieces stand on a square is 16 comparisons of their progress, made side by side
(kernels/position.pxi, ``pieces_on``)."""
CASTLE: Final = np.array(IS_CASTLE, dtype=np.bool_)
"""``CASTLE[square]``: the square is one of the 12 castles."""
PRIVATE: Final = np.array(
    [any(sq in squares for squares in PRIVATE_SQUARES) for sq in range(NUM_SQUARES)],
    dtype=np.bool_,
)
"""``PRIVATE[square]``: only one seat's pieces ever stand there (R-PRIVATE-COLUMN)."""
MEETS: Final = _meets_table()
"""``MEETS[seat, 85 * other + p]``: where a piece of ``other`` on progress ``p`` stands on
``seat``'s route, in one lookup: the first progress at which the route passes its square
(:data:`PROGRESS_ON`), plus :data:`CASTLE_MARK` if it is a castle; -1 where ``p`` is not on
the board (0, home) or the route does not pass the square. The split sums look up every
enemy this way (kernels/splits.pxi)."""


def _free_landings() -> npt.NDArray[np.int64]:
    table = np.zeros((4, HOME + 1), dtype=np.int64)
    for seat in range(4):
        for p in range(1, LAST_SQUARE + 1):
            for d in range(1, min(FREE_STEPS, LAST_SQUARE - p + 1)):
                if not CASTLE[SQUARES[seat, p + d]]:
                    table[seat, p] |= 1 << d
    return table


FREE_LANDINGS: Final = _free_landings()
"""``FREE_LANDINGS[seat, p]``: the step counts ``d`` (bit ``d``, below :data:`FREE_STEPS`)
that take a piece of ``seat`` from progress ``p`` on the board to a square short of home
that is no castle, where R-FROZEN's cheap test finds a move that nothing on the board can
refuse under ``castle_mode=block`` (kernels/frozen.pxi)."""


def _turned() -> npt.NDArray[np.int32]:
    table = np.empty((4, NUM_SQUARES), dtype=np.int32)
    for seat in range(4):
        for sq in range(NUM_SQUARES):
            table[seat, sq] = cell_of_coord(*rotate(coord(sq), 4 - seat))
    return table


TURNED: Final = _turned()
"""``TURNED[seat, square]``: the square's number on the board turned so that ``seat`` sits
South (seat 0's own square 1 is every seat's turned square 1)."""
