"""The compiled engine's numbers that Python code reads too: the fixed action space, the
event kinds, the observation layout and the occupancy scratch layout.

They are plain Python constants, so that :mod:`pachisi.fast.convert`, the environments and
the tests read them without the compiled module. The compiled sources see the same values
through ``_constants.pxi``, which :mod:`pachisi.fast._gen` writes from this module,
:mod:`pachisi.fast.layout` and :mod:`pachisi.fast.params` (a test checks it is current).

The action space: throw values are named by their *slot*, the lowest ``k`` (cowries mouth
up) that throws the value, so 8 slots cover every table. Pieces are the mover's indices
0..3 (a..d).

==================  ==========================  ========================================
ids                 action                      text (reference notation)
==================  ==========================  ========================================
0                   decline / stop              ``-``
1 + 8 i + s         move piece i by value s     ``0a+4``
33 + 8 i + s        second-lap move             ``0a~25``
65 + 8 i + s        finish from the last square ``0a#10``
97 + s              enter (lowest waiting)      ``0b@25``
105 + s             first piece out, no grace   ``0a*3``
113 + i             pyada step of piece i       ``0a+p``
117                 pyada entry                 ``0b@p``
118 + 8 (3 i + n-2) + s   group of n pieces from i  ``0ab+4`` (the first n on i's square)
214 + 63 (8 i + s) + (d-1)  split part of d steps     ``0a+3/10``
==================  ==========================  ========================================

:data:`NUM_ACTIONS` = 2230. A group is named by its lowest piece and its size: the pieces
are the first ``n`` of the mover's pieces on that piece's progress, in letter order, as
the reference engine chooses them.
"""

from __future__ import annotations

from typing import Final

# --------------------------------------------------------------------------- action space
DECLINE_ID: Final = 0
MOVE_BASE: Final = 1
LAP_BASE: Final = 33
EXIT_BASE: Final = 65
ENTER_BASE: Final = 97
FREE_BASE: Final = 105
PYADA_MOVE_BASE: Final = 113
PYADA_ENTER_ID: Final = 117
GROUP_BASE: Final = 118
PART_BASE: Final = 214
PART_STEPS: Final = 63
NUM_ACTIONS: Final = PART_BASE + 4 * 8 * PART_STEPS

# Decoded kinds, as pachisi.rules.actions.ActionKind.
K_DECLINE: Final = 0
K_MOVE: Final = 1
K_ENTER: Final = 2
K_FREE: Final = 3
K_EXIT: Final = 4
K_LAP: Final = 5

MAX_LEGAL: Final = 4096
"""The length of a legal-action list buffer."""

# --------------------------------------------------------------------------- events
# Event kinds, as the names of pachisi.rules.state.Event.kind. An event is a row of 8
# int32: (kind, seat, piece, frm, to, value, pieces, k), ``pieces`` a bitmask.
E_THROW_OFF: Final = 0
E_BEGINS: Final = 1
E_THROW: Final = 2
E_VOID: Final = 3
E_CANCEL: Final = 4
E_ENTER: Final = 5
E_MOVE: Final = 6
E_CAPTURE: Final = 7
E_FINISH: Final = 8
E_DECLINE: Final = 9
E_PYADA: Final = 10
E_AGAIN: Final = 11
E_ANNUL: Final = 12
E_TURN: Final = 13
E_WIN: Final = 14
E_DRAW: Final = 15
EVENT_FIELDS: Final = 8
EVENT_NAMES: Final = (
    "throw_off",
    "begins",
    "throw",
    "void",
    "cancel",
    "enter",
    "move",
    "capture",
    "finish",
    "decline",
    "pyada",
    "again",
    "annul",
    "turn",
    "win",
    "draw",
)
HAS_PIECE: Final = 1
NONE_WAITING: Final = 2

# --------------------------------------------------------------------------- board
HOME: Final = 84
LAST_SQUARE: Final = 83
OCC_SQUARES: Final = 96
"""Rows of an occupancy list ``occ[square, i]``."""
OCC_DEPTH: Final = 16
"""Columns of an occupancy list: the most pieces one square can hold."""

# --------------------------------------------------------------------------- occupancy scratch
USED_SQUARES: Final = 96
"""``occ_n[USED_SQUARES]`` squares hold pieces, listed from ``occ_n[USED_SQUARES + 1]`` on."""
SPLIT_CACHE: Final = USED_SQUARES + 1 + 16
"""``occ_n[SPLIT_CACHE]`` is the longest rest of a split throw whose answers for this
occupancy's position are cached in the slots after it, 0 for none; a new fill clears it."""
SPLIT_CACHE_SIZE: Final = 1 + 12 + 8
MEMO: Final = SPLIT_CACHE + SPLIT_CACHE_SIZE
"""``occ_n[MEMO]`` is 1 + ``top_one`` while ``occ_n``/``occ`` hold the whole occupancy of
a position whose pieces (and, under ``top_one``, stack order) are kept after it, 0 while
they do not."""
OCC_N_SIZE: Final = MEMO + 34
"""The length of an ``occ_n`` scratch array: 96 counts, then how many squares the last
fill used and which, so that the next fill clears only those (it starts as all zeros),
then the split cache, then the position the occupancy belongs to."""

LUDII_ENTRY: Final = 13
SPLIT_DEPTH: Final = 6
"""Levels of the split search's scratch pool: each level moves one more piece (4 at most)."""

# --------------------------------------------------------------------------- observations
O_PIECES: Final = 0
O_PROGRESS: Final = 16
O_BOARD: Final = O_PROGRESS + 4 * 85
O_THROW_K: Final = O_BOARD + 4 * 96
O_THROW: Final = O_THROW_K + 9
O_STAGE: Final = O_THROW + 2
O_TURN: Final = O_STAGE + 6
O_SEATS: Final = O_TURN + 16
OBS_SIZE: Final = O_SEATS + 13

CHANCE_PLAYER: Final = -1
TERMINAL_PLAYER: Final = -4


# The ids of the actions that carry a piece and a throw slot, and back (the kernels
# have the same functions in kernels/codec.pxi).


def move_id(piece: int, slot: int) -> int:
    return MOVE_BASE + 8 * piece + slot


def lap_id(piece: int, slot: int) -> int:
    return LAP_BASE + 8 * piece + slot


def exit_id(piece: int, slot: int) -> int:
    return EXIT_BASE + 8 * piece + slot


def group_id(piece: int, size: int, slot: int) -> int:
    return GROUP_BASE + 8 * (3 * piece + size - 2) + slot


def part_id(piece: int, slot: int, steps: int) -> int:
    return PART_BASE + PART_STEPS * (8 * piece + slot) + steps - 1


# An action decoded, packed in one int32 (:func:`pack_decoded`): the kernels' table for
# the one-outcome pass of a spending stage, which decodes every action it lists.
DECODED_PIECE_SHIFT: Final = 3
DECODED_SLOT_SHIFT: Final = 6
DECODED_SIZE_SHIFT: Final = 10
DECODED_STEPS_SHIFT: Final = 13
DECODED_PYADA_SHIFT: Final = 19


def pack_decoded(a: int) -> int:
    """:func:`decode` of ``a`` packed in one number: the kind in bits 0-2, then the piece
    and the slot each plus one (so that -1 packs as 0), the size, the steps and the pyada
    flag, from the ``DECODED_*_SHIFT`` bits on."""
    kind, piece, slot, size, steps, pyada = decode(a)
    return (
        kind
        | (piece + 1) << DECODED_PIECE_SHIFT
        | (slot + 1) << DECODED_SLOT_SHIFT
        | size << DECODED_SIZE_SHIFT
        | steps << DECODED_STEPS_SHIFT
        | int(pyada) << DECODED_PYADA_SHIFT
    )


def decode(a: int) -> tuple[int, int, int, int, int, bool]:
    """``(kind, piece, slot, size, steps, pyada)`` of action ``a``.

    ``size`` is the number of pieces (1 but for groups), ``steps`` the part of a split
    (0 otherwise), ``slot`` -1 for a pyada or a decline.
    """
    if a == DECLINE_ID:
        return K_DECLINE, -1, -1, 0, 0, False
    if a < LAP_BASE:
        b = a - MOVE_BASE
        return K_MOVE, b >> 3, b & 7, 1, 0, False
    if a < EXIT_BASE:
        b = a - LAP_BASE
        return K_LAP, b >> 3, b & 7, 1, 0, False
    if a < ENTER_BASE:
        b = a - EXIT_BASE
        return K_EXIT, b >> 3, b & 7, 1, 0, False
    if a < FREE_BASE:
        return K_ENTER, -1, a - ENTER_BASE, 1, 0, False
    if a < PYADA_MOVE_BASE:
        return K_FREE, -1, a - FREE_BASE, 1, 0, False
    if a < PYADA_ENTER_ID:
        return K_MOVE, a - PYADA_MOVE_BASE, -1, 1, 0, True
    if a == PYADA_ENTER_ID:
        return K_ENTER, -1, -1, 1, 0, True
    if a < PART_BASE:
        b = a - GROUP_BASE
        rest = b >> 3
        return K_MOVE, rest // 3, b & 7, rest % 3 + 2, 0, False
    b = a - PART_BASE
    rest = b // PART_STEPS
    return K_MOVE, rest >> 3, rest & 7, 1, b % PART_STEPS + 1, False
