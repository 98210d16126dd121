# The compiled engine's C interface, for the compiled players (pachisi.ai._compiled) to
# cimport: the shared scratch types and the entry points they call. Everything else in
# _core.pyx is private to it. Arrays are raw pointers into memory the caller owns (numpy
# arrays the Python side allocated, or C arrays); nothing here is reference-counted.

from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

ctypedef int32_t i32

include "_constants.pxi"

# An event buffer: ``cap`` rows of EVENT_FIELDS int32 at ``rows`` (cap 0: events off).
# The count of events written and of capture events live in a caller's ``evn[2]``.
cdef struct Events:
    i32* rows
    Py_ssize_t cap

# The split search's scratch: one level per row (SPLIT_DEPTH levels).
cdef struct Pool:
    i32 rows[SPLIT_DEPTH][STATE_SIZE]
    i32 meta[SPLIT_DEPTH][OCC_N_SIZE + 7]
    i32 occ[SPLIT_DEPTH][OCC_SQUARES * OCC_DEPTH]

# The engine's entry points (defined in kernels/*.pxi) that the players call.
# (Each porter adds the declarations of the functions the players need here.)
