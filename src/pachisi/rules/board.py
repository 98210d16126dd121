"""Board geometry (RULES.md A): the 96 squares, the Charkoni, routes, castles and loop indices.

Squares are identified by Ludii's cell number (0..95, RULES.md A.9), so that a square id is
stable, compact and directly comparable with Ludii. Coordinates are the 19x19 grid of A.1:
``x`` runs west to east, ``y`` south to north. In text a square is named like a chess square,
file ``a``..``s`` for ``x`` = 0..18 and rank ``1``..``19`` for ``y`` = 0..18, so seat 0's
square 1, (9,7), is ``j8``.

>>> square_of(0, 1), coord(square_of(0, 1)), square_name(square_of(0, 1))
(9, (9, 7), 'j8')
>>> is_castle(square_of(0, 25))
True
"""

from __future__ import annotations

from typing import Final

Seat = int
"""A seat, 0..3: South, East, North, West (R-SEATS)."""
Progress = int
"""Seat-relative progress on the route: 0 = waiting, 1..83 = on a square, 84 = home."""
SquareId = int
"""A square: its Ludii cell number, 0..95."""

NUM_SEATS: Final = 4
PIECES_PER_SEAT: Final = 4
NUM_SQUARES: Final = 96
WAITING: Final = 0
HOME: Final = 84
LAST_SQUARE: Final = 83
LOOP_START: Final = 8
LOOP_END: Final = 76
LOOP_LENGTH: Final = 68
RETURNING_FROM: Final = 76
CHARKONI_CELL: Final = 96
SEAT_NAMES: Final = ("South", "East", "North", "West")
DIAGONAL_STEPS: Final = ((16, 17), (33, 34), (50, 51), (67, 68))


def _seat0_coord(p: Progress) -> tuple[int, int]:
    """Seat 0's square for progress ``p`` in 1..83 (RULES.md A.3 table)."""
    if 1 <= p <= 8:
        return (9, 8 - p)
    if 9 <= p <= 16:
        return (10, p - 9)
    if 17 <= p <= 24:
        return (p - 6, 8)
    if p == 25:
        return (18, 9)
    if 26 <= p <= 33:
        return (44 - p, 10)
    if 34 <= p <= 41:
        return (10, p - 23)
    if p == 42:
        return (9, 18)
    if 43 <= p <= 50:
        return (8, 61 - p)
    if 51 <= p <= 58:
        return (58 - p, 10)
    if p == 59:
        return (0, 9)
    if 60 <= p <= 67:
        return (p - 60, 8)
    if 68 <= p <= 75:
        return (8, 75 - p)
    if p == 76:
        return (9, 0)
    if 77 <= p <= 83:
        return (9, p - 76)
    raise ValueError(f"progress {p} is not on a square (1..83)")


def rotate(xy: tuple[int, int], times: int = 1) -> tuple[int, int]:
    """Turn a grid cell 90 degrees counter-clockwise about the centre, ``times`` times (A.1)."""
    x, y = xy
    for _ in range(times % 4):
        x, y = 18 - y, x
    return (x, y)


def cell_of_coord(x: int, y: int) -> SquareId:
    """Ludii's cell number for the square at ``(x, y)`` (RULES.md A.9 formulas)."""
    if not (0 <= x <= 18 and 0 <= y <= 18):
        raise ValueError(f"({x}, {y}) is off the 19x19 grid")
    if y == 8 and (x <= 7 or x >= 11):
        return x
    if y == 7 and 8 <= x <= 10:
        return x
    if y == 9 and x <= 7:
        return 19 + x
    if y == 9 and x >= 11:
        return 16 + x
    if y == 10 and x <= 7:
        return 35 + x
    if y == 10 and x >= 11:
        return 32 + x
    if y == 11 and 8 <= x <= 10:
        return 51 + (x - 8)
    if 0 <= y <= 6 and 8 <= x <= 10:
        return 54 + 3 * y + (x - 8)
    if 12 <= y <= 18 and 8 <= x <= 10:
        return 75 + 3 * (y - 12) + (x - 8)
    raise ValueError(f"({x}, {y}) is not a square of the board")


def _build() -> tuple[
    tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]
]:
    squares: list[tuple[int, ...]] = []
    loops: list[tuple[int, ...]] = []
    coords: dict[int, tuple[int, int]] = {}
    for seat in range(NUM_SEATS):
        row = [-1] * (HOME + 1)
        loop = [-1] * (HOME + 1)
        for p in range(1, HOME):
            xy = rotate(_seat0_coord(p), seat)
            cell = cell_of_coord(*xy)
            row[p] = cell
            coords[cell] = xy
            if LOOP_START <= p <= LOOP_END:
                loop[p] = (p - LOOP_START + 17 * seat) % LOOP_LENGTH
        squares.append(tuple(row))
        loops.append(tuple(loop))
    # Squares no route visits: the inner middle-column squares of the other arms are still
    # squares of the board (each seat's private column), so every cell is covered here.
    for x in range(19):
        for y in range(19):
            on_bar = 8 <= x <= 10 or 8 <= y <= 10
            in_charkoni = 8 <= x <= 10 and 8 <= y <= 10
            if on_bar and not in_charkoni:
                coords.setdefault(cell_of_coord(x, y), (x, y))
    if sorted(coords) != list(range(NUM_SQUARES)):
        raise AssertionError("board numbering does not cover 0..95")
    return tuple(squares), tuple(coords[c] for c in range(NUM_SQUARES)), tuple(loops)


SQUARE_OF, COORDS, LOOP_INDEX = _build()
"""``SQUARE_OF[seat][p]``: square id for ``p`` in 1..83, else -1. ``COORDS[square]``: (x, y).
``LOOP_INDEX[seat][p]``: loop index L (A.8) for ``p`` in 8..76, else -1."""

CASTLES: Final = frozenset(
    cell_of_coord(*rotate(xy, seat))
    for seat in range(NUM_SEATS)
    for xy in ((9, 0), (8, 3), (10, 3))
)
"""The 12 castles (R-CASTLES, A.5)."""

IS_CASTLE: Final = tuple(sq in CASTLES for sq in range(NUM_SQUARES))

PRIVATE_SQUARES: Final = tuple(
    frozenset(SQUARE_OF[seat][p] for p in range(1, 8)) for seat in range(NUM_SEATS)
)
"""Each seat's 7 inner middle-column squares (R-PRIVATE-COLUMN)."""

LUDII_ENTRY_PROGRESS: Final = 13
"""``track = ludii`` enters at p = 13 and skips p 1..12 (R-TRACK, A.9)."""


def square_of(seat: Seat, p: Progress) -> SquareId:
    """The square where a piece of ``seat`` with progress ``p`` (1..83) stands."""
    if not 1 <= p <= LAST_SQUARE:
        raise ValueError(f"progress {p} is not on a square (1..83)")
    return SQUARE_OF[seat][p]


def coord(square: SquareId) -> tuple[int, int]:
    """The (x, y) grid cell of a square, for renderers."""
    return COORDS[square]


def is_castle(square: SquareId) -> bool:
    """Whether the square is one of the 12 castles (R-CASTLES)."""
    return IS_CASTLE[square]


def loop_index(seat: Seat, p: Progress) -> int:
    """Loop index L(s, p) = (p - 8 + 17 s) mod 68 for p in 8..76 (A.8); -1 elsewhere."""
    return LOOP_INDEX[seat][p]


def convert_progress(p: Progress, from_seat: Seat, to_seat: Seat) -> Progress:
    """Seat ``to_seat``'s progress on the loop square where ``from_seat`` has ``p`` (A.8).

    The result 8 also stands for 76.
    """
    if not LOOP_START <= p <= LOOP_END:
        raise ValueError(f"progress {p} is not on the outer loop (8..76)")
    return (p - LOOP_START + LOOP_LENGTH * 4 + 17 * (from_seat - to_seat)) % LOOP_LENGTH + 8


def square_name(square: SquareId) -> str:
    """The text name of a square: file a..s and rank 1..19, e.g. ``j8`` for (9, 7)."""
    x, y = COORDS[square]
    return f"{chr(ord('a') + x)}{y + 1}"


_BY_NAME: Final = {square_name(sq): sq for sq in range(NUM_SQUARES)}


def parse_square(name: str) -> SquareId:
    """The square named ``name`` (see :func:`square_name`); ``ValueError`` if there is none."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise ValueError(f"{name!r} is not a square of the board") from None


def partner(seat: Seat) -> Seat:
    """The seat opposite, partner under ``teams = pairs`` (R-TEAMS)."""
    return (seat + 2) % NUM_SEATS


def person_seats(players: int, seat: Seat) -> tuple[Seat, ...]:
    """The seats one person holds: a seat and its partner's under ``players = 2``
    (R-TWO-PLAYER), lower seat first, else the seat alone."""
    return tuple(sorted((seat, partner(seat)))) if players == 2 else (seat,)


def progress_of_square(seat: Seat, square: SquareId) -> tuple[Progress, ...]:
    """Every progress of ``seat`` that stands on ``square`` (empty if its route misses it)."""
    return tuple(p for p in range(1, HOME) if SQUARE_OF[seat][p] == square)
