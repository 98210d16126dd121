"""The fixed action space: every action of every ruleset as an integer, and back.

Throw values are named by their *slot*, the lowest ``k`` (cowries mouth up) that throws
the value, so 8 slots cover every table. Pieces are the mover's indices 0..3 (a..d).

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

from pachisi.fast._jit import inline

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


@inline
def move_id(piece: int, slot: int) -> int:
    return MOVE_BASE + 8 * piece + slot


@inline
def lap_id(piece: int, slot: int) -> int:
    return LAP_BASE + 8 * piece + slot


@inline
def exit_id(piece: int, slot: int) -> int:
    return EXIT_BASE + 8 * piece + slot


@inline
def group_id(piece: int, size: int, slot: int) -> int:
    return GROUP_BASE + 8 * (3 * piece + size - 2) + slot


@inline
def part_id(piece: int, slot: int, steps: int) -> int:
    return PART_BASE + PART_STEPS * (8 * piece + slot) + steps - 1


@inline
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
