# The compiled engine's C types and scratch structures, shared by every part of the engine
# and by the compiled players (pachisi/ai/_compiled.pyx includes the engine's parts too, so
# that each extension is one C file the compiler can inline across).
#
# Arrays are raw pointers into memory the caller owns: numpy arrays the Python side
# allocated (through the Python face, api.pxi) or C memory the kernels allocated themselves.
# Nothing in the kernels is reference-counted, and none of them holds the GIL.

from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memcpy, memset
from libc.math cimport INFINITY

ctypedef int32_t i32
ctypedef int64_t i64
ctypedef uint32_t u32
ctypedef uint64_t u64

include "../_constants.pxi"

cdef enum:
    # The length of a split-search level's metadata row: the occupancy counts, the event
    # counts of its moves (evn: count, captures, and a capacity of 0: events off) and the
    # search's own bookkeeping (splits.pxi).
    META_SIZE = OCC_N_SIZE + 8
    # An actions buffer's length: more than any legal list (pachisi.fast.codes).
    MAX_LIST = 4096
    # The most actions one list holds: half a buffer, which holds them and as many keys
    # (actions.pxi).
    MAX_DISTINCT = MAX_LIST >> 1
    # The greedy player's event buffer (rows) for one trial move.
    TRIAL_EVENTS = 64

# The split search's scratch, one level per search depth (splits.pxi, new_pool).
cdef struct Pool:
    i32 rows[SPLIT_DEPTH][STATE_SIZE]
    i32 meta[SPLIT_DEPTH][META_SIZE]
    i32 occ[SPLIT_DEPTH][OCC_SQUARES * OCC_DEPTH]

# What a spending stage's list takes where, noted as the list is made (legal.pxi), for
# C.10b's one-outcome pass (actions.pxi): two actions can have one outcome only if they
# take the same pieces to the same place, so a list in which no landing is listed twice
# needs no pass at all, and this tells it without decoding the list.
cdef struct Landed:
    # Per piece of the mover (a..d), bit s: some listed action moves that piece alone s
    # steps (a move, a split's part, an exit, a pyada's step; a lap lands where nothing
    # else can, and is not noted).
    u64 once[4]
    # Bit s: two listed actions do.
    u64 twice[4]
    # How many entries are listed (each puts the lowest waiting piece on the board), and
    # whether one value listed two (a free entry and a grace's, which spend the same item).
    i64 entries
    bint entries_alike
    # Whether an action whose landing is not noted (a group move) was listed, or the list
    # was not noted at all: then nothing can be said.
    bint untracked

# The buffers one game's loop works in, allocated once for the whole game (playout.pxi,
# new_work): occupancy counts and lists, legal actions, the split pool, and the greedy
# player's trial row, its event buffer and counts, and its best actions.
cdef struct Work:
    i32 occ_n[OCC_N_SIZE]
    i32 occ[OCC_SQUARES * OCC_DEPTH]
    i32 acts[MAX_LIST]
    Pool* pool
    i32 trial[STATE_SIZE]
    i32 ev[TRIAL_EVENTS * EVENT_FIELDS]
    i32 evn[3]
    i32 best[MAX_LIST]

# Bit intrinsics the hot loops use (one instruction each where the machine has one).
cdef extern from *:
    """
    static inline int64_t pachisi_popcount(uint64_t x) {
        x = x - ((x >> 1) & 0x5555555555555555ull);
        x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
        return (int64_t)((x * 0x0101010101010101ull) >> 56);
    }
    static inline int64_t pachisi_reverse32(int64_t x) {
        uint32_t v = (uint32_t)x;
        v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
        v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
        v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
        v = __builtin_bswap32(v);
        return (int64_t)v;
    }
    """
    # The number of set bits of x, in a few arithmetic instructions: __builtin_popcountll
    # is a call into libgcc unless the build targets CPUs with POPCNT, which a portable
    # wheel must not assume.
    i64 popcount "pachisi_popcount"(u64 x) nogil
    # The index of the lowest set bit of x (x must not be 0).
    i64 lowest_bit "__builtin_ctzll"(u64 x) nogil
    # The number of zero bits above the highest set bit of x (x must not be 0).
    i64 leading_zeros "__builtin_clzll"(u64 x) nogil
    # The low 32 bits of x in reverse order (bit j becomes bit 31 - j; higher bits dropped).
    i64 reverse32 "pachisi_reverse32"(i64 x) nogil
