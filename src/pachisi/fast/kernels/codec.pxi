# The engine's part that was pachisi.fast._codec (numba), in Cython.
#
# The fixed action space: every action of every ruleset as an integer, and back.
#
# Throw values are named by their *slot*, the lowest ``k`` (cowries mouth up) that throws
# the value, so 8 slots cover every table. Pieces are the mover's indices 0..3 (a..d).
#
# ==================  ==========================  ========================================
# ids                 action                      text (reference notation)
# ==================  ==========================  ========================================
# 0                   decline / stop              ``-``
# 1 + 8 i + s         move piece i by value s     ``0a+4``
# 33 + 8 i + s        second-lap move             ``0a~25``
# 65 + 8 i + s        finish from the last square ``0a#10``
# 97 + s              enter (lowest waiting)      ``0b@25``
# 105 + s             first piece out, no grace   ``0a*3``
# 113 + i             pyada step of piece i       ``0a+p``
# 117                 pyada entry                 ``0b@p``
# 118 + 8 (3 i + n-2) + s   group of n pieces from i  ``0ab+4`` (the first n on i's square)
# 214 + 63 (8 i + s) + (d-1)  split part of d steps     ``0a+3/10``
# ==================  ==========================  ========================================
#
# :data:`NUM_ACTIONS` = 2230. A group is named by its lowest piece and its size: the pieces
# are the first ``n`` of the mover's pieces on that piece's progress, in letter order, as
# the reference engine chooses them.


cdef inline i64 move_id(i64 piece, i64 slot) noexcept nogil:
    return MOVE_BASE + 8 * piece + slot


cdef inline i64 lap_id(i64 piece, i64 slot) noexcept nogil:
    return LAP_BASE + 8 * piece + slot


cdef inline i64 exit_id(i64 piece, i64 slot) noexcept nogil:
    return EXIT_BASE + 8 * piece + slot


cdef inline i64 group_id(i64 piece, i64 size, i64 slot) noexcept nogil:
    return GROUP_BASE + 8 * (3 * piece + size - 2) + slot


cdef inline i64 part_id(i64 piece, i64 slot, i64 steps) noexcept nogil:
    return PART_BASE + PART_STEPS * (8 * piece + slot) + steps - 1


cdef inline (i64, i64, i64, i64, i64, bint) decode(i64 a) noexcept nogil:
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
    # The ids are not negative here: unsigned division is the plain machine division
    # (Python's floor division, which the kernels' signed arithmetic follows, adds sign
    # fix-ups), and split parts are decoded for every action of a spending stage's lists.
    cdef u64 u
    cdef u64 r
    if a < PART_BASE:
        u = <u64>(a - GROUP_BASE)
        r = u >> 3
        return K_MOVE, <i64>(r // 3), <i64>(u & 7), <i64>(r % 3) + 2, 0, False
    u = <u64>(a - PART_BASE)
    r = u // PART_STEPS
    return K_MOVE, <i64>(r >> 3), <i64>(r & 7), 1, <i64>(u % PART_STEPS) + 1, False


cdef inline (i64, i64, i64, i64, i64, bint) decode_listed(i64 a) noexcept nogil:
    """:func:`decode` by one lookup in the table that :func:`pachisi.fast.codes.pack_decoded`
    writes, for the spending stage's one-outcome pass, which decodes every action of lists
    of split parts (a part's id takes a division and a dozen branches to decode). ``a``
    must be an id of the action space. Elsewhere the arithmetic is cheaper: most actions
    decoded there are plain moves, two instructions away."""
    d = DECODED[a]
    return (
        d & 7,
        ((d >> DECODED_PIECE_SHIFT) & 7) - 1,
        ((d >> DECODED_SLOT_SHIFT) & 15) - 1,
        (d >> DECODED_SIZE_SHIFT) & 7,
        (d >> DECODED_STEPS_SHIFT) & 63,
        <bint>((d >> DECODED_PYADA_SHIFT) & 1),
    )
