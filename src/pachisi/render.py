"""Text rendering of the board for a terminal (``pachisi play``).

:func:`render_board` draws the 19x19 cross of RULES.md A.1 with north up, one 3-character
cell per grid cell, rank numbers 1..19 on the left and files a..s along the bottom, so
every square can be read off by name (file + rank, e.g. ``j8``, as in
:func:`pachisi.rules.board.square_name`). The output is pure ASCII; every line has the same
width (:data:`WIDTH`, 79 columns) so it fits an 80-column terminal and can sit beside
other panels.

Legend (appended below the board in short form)::

    .     an empty square
    X     an empty castle (an occupied castle shows its pieces)
    0a    one piece, shown by its label (seat digit + piece letter)
    0a3   a stack of 3 pieces with 0a on top; "+" instead of the digit means 10 or more
    [..]  highlighted squares, e.g. legal destinations; neighbours share brackets: [0a | . ]
    S=0   the arm of seat 0 (South), written beside the arm's outer end; likewise
          E=1 (East), N=2 (North), W=3 (West)
    (2)   inside the Charkoni: how many of the listed Charkoni pieces belong to the seat
          whose arm that side faces; "(+)" means 10 or more

Below the legend the ``charkoni`` labels are listed in the caller's order and wording.

With ``color=True`` pieces, counts and seat tags are coloured by seat (0 red, 1 green,
2 yellow, 3 blue) and highlight brackets are bold; the layout is unchanged, so the visible
width of every line stays :data:`WIDTH`.

>>> print(render_board({9: ["0a"], 55: ["1b", "0c"]}).splitlines()[11].rstrip())
 8 W=3                              .  0a   .
"""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Mapping, Sequence
from typing import Final

from pachisi.rules.board import COORDS, NUM_SQUARES, is_castle

SIZE: Final = 19
CELL: Final = 3
WIDTH: Final = 2 + SIZE * (CELL + 1) + 1
"""Width of every output line: rank label, 19 cells each after a separator, last separator."""

FILES: Final = "abcdefghijklmnopqrs"
SEAT_LETTERS: Final = "SENW"
# The traditional piece colours are red, green, yellow and black; blue stands in for black,
# which would vanish on a dark terminal.
_SEAT_COLOURS: Final = ("31", "32", "33", "34")
_BOLD: Final = "1"
_SQUARE_AT: Final = {cell: square for square, cell in enumerate(COORDS)}

# Off-board cells next to each arm's outer end, where the seat tag is written. Each is the
# previous one turned a quarter counter-clockwise, like the seats themselves.
_SEAT_TAG_CELLS: Final = {(11, 0): 0, (18, 11): 1, (7, 18): 2, (0, 7): 3}
# Charkoni cells that face each seat's arm, where that seat's Charkoni count is written.
_CHARKONI_COUNT_CELLS: Final = {(9, 8): 0, (10, 9): 1, (9, 10): 2, (8, 9): 3}

LEGEND: Final = (
    "Key: .  empty square    X  empty castle    0a  one piece (seat 0, piece a)",
    "     0a3  stack of 3, 0a on top (+ for 10 or more)    [..]  highlighted squares",
    "     S=0 E=1 N=2 W=3  the arms of seats 0 South, 1 East, 2 North, 3 West",
    "     (2)  Charkoni pieces listed below that belong to the seat on that side",
)


def render_board(
    stacks: Mapping[int, Sequence[str]],
    *,
    charkoni: Sequence[str] = (),
    highlight: Collection[int] = (),
    color: bool = False,
) -> str:
    """Draw the board as text: the cross, file and rank labels, the legend, Charkoni pieces.

    ``stacks`` maps a square id (0..95) to the labels of the pieces on it, bottom to top;
    labels are 1 or 2 printable ASCII characters, seat digit first (``"0a"``). ``charkoni``
    lists labels of waiting or finished pieces to show in and under the centre. Squares in
    ``highlight`` are bracketed. Raises ``ValueError`` for an unknown square or a bad label,
    ``TypeError`` if a bare string is given where a sequence of labels is expected.
    """
    board_labels = _check_stacks(stacks)
    marked = _check_highlight(highlight)
    centre = _check_charkoni(charkoni)
    counts = [sum(1 for label in centre if label[:1] == str(seat)) for seat in range(4)]

    def body(x: int, y: int) -> str:
        """The 3-character content of grid cell (x, y), coloured if asked."""
        text, seat = _cell_text(x, y, board_labels, counts)
        return _paint(text, _SEAT_COLOURS[seat], color) if seat is not None else text

    def is_marked(x: int, y: int) -> bool:
        """Whether grid cell (x, y) is a highlighted square (False off the grid)."""
        return 0 <= x < SIZE and _square_at(x, y) in marked

    lines: list[str] = []
    for y in range(SIZE - 1, -1, -1):
        parts = [f"{y + 1:>2}"]
        for x in range(SIZE + 1):
            parts.append(_separator(is_marked(x - 1, y), is_marked(x, y), color))
            if x < SIZE:
                parts.append(body(x, y))
        lines.append("".join(parts))
    lines.append("  " + "".join(f"  {f} " for f in FILES) + " ")
    lines.extend(LEGEND)
    listing = " ".join(centre) if centre else "none"
    lines.extend(textwrap.wrap("Charkoni: " + listing, WIDTH, subsequent_indent=" " * 10))
    # Pad by visible width: ANSI codes take bytes but no columns.
    return "\n".join(line + " " * (WIDTH - _visible_len(line)) for line in lines) + "\n"


def _check_stacks(stacks: Mapping[int, Sequence[str]]) -> dict[int, tuple[str, ...]]:
    """Validate ``stacks``; return the non-empty ones as tuples."""
    out: dict[int, tuple[str, ...]] = {}
    for square, labels in stacks.items():
        _check_square(square)
        # A bare string is a Sequence[str] too, but "0a" meant as one label would
        # silently become two pieces "0" and "a".
        if isinstance(labels, str):
            raise TypeError(f"square {square}: labels must be a sequence of str, not a str")
        for label in labels:
            if not (isinstance(label, str) and 1 <= len(label) <= 2 and _plain(label)):
                raise ValueError(
                    f"square {square}: piece label {label!r} must be 1 or 2 printable "
                    "ASCII characters without spaces"
                )
        if labels:
            out[square] = tuple(labels)
    return out


def _check_highlight(highlight: Collection[int]) -> frozenset[int]:
    """Validate the highlighted square ids; return them as a set."""
    marked = frozenset(highlight)
    for square in marked:
        _check_square(square)
    return marked


def _check_charkoni(charkoni: Sequence[str]) -> tuple[str, ...]:
    """Validate the Charkoni labels; return them as a tuple."""
    if isinstance(charkoni, str):
        raise TypeError("charkoni must be a sequence of labels, not a str")
    for label in charkoni:
        if not (isinstance(label, str) and label and _plain(label)):
            raise ValueError(f"Charkoni label {label!r} must be printable ASCII without spaces")
    return tuple(charkoni)


def _check_square(square: object) -> None:
    # bool is an int subclass; True as a square id is certainly a caller mistake.
    if isinstance(square, bool) or not isinstance(square, int):
        raise ValueError(f"{square!r} is not a square id (0..{NUM_SQUARES - 1})")
    if not 0 <= square < NUM_SQUARES:
        raise ValueError(f"{square} is not a square id (0..{NUM_SQUARES - 1})")


def _plain(label: str) -> bool:
    """Whether ``label`` is printable ASCII with no whitespace (keeps the grid aligned)."""
    return label.isascii() and label.isprintable() and not any(c.isspace() for c in label)


def _square_at(x: int, y: int) -> int | None:
    """The square id at (x, y), or None for the Charkoni and the empty corners."""
    return _SQUARE_AT.get((x, y))


def _cell_text(
    x: int, y: int, board: Mapping[int, tuple[str, ...]], counts: Sequence[int]
) -> tuple[str, int | None]:
    """The cell's 3 characters and the seat whose colour they take (None: uncoloured)."""
    square = _square_at(x, y)
    if square is not None:
        labels = board.get(square, ())
        if not labels:
            return (" X " if is_castle(square) else " . "), None
        top = labels[-1]
        height = len(labels)
        suffix = " " if height == 1 else (str(height) if height < 10 else "+")
        return top.ljust(2) + suffix, _seat_of(top)
    seat = _CHARKONI_COUNT_CELLS.get((x, y))
    if seat is not None:
        count = counts[seat]
        if not count:
            return "   ", None
        return (f"({count})" if count < 10 else "(+)"), seat
    seat = _SEAT_TAG_CELLS.get((x, y))
    if seat is not None:
        return f"{SEAT_LETTERS[seat]}={seat}", seat
    return "   ", None


def _seat_of(label: str) -> int | None:
    """The seat a label belongs to, read from its leading digit, if it has one."""
    first = label[:1]
    return int(first) if first in ("0", "1", "2", "3") else None


def _separator(left: bool, right: bool, color: bool) -> str:
    """The column between two cells: brackets around runs of highlighted squares."""
    if left and right:
        mark = "|"
    elif right:
        mark = "["
    elif left:
        mark = "]"
    else:
        return " "
    return _paint(mark, _BOLD, color)


def _paint(text: str, code: str, color: bool) -> str:
    """``text`` wrapped in the ANSI SGR ``code`` when ``color`` is on, else unchanged."""
    return f"\x1b[{code}m{text}\x1b[0m" if color else text


def _visible_len(line: str) -> int:
    """Length of ``line`` on screen, not counting ANSI colour sequences."""
    length = 0
    in_escape = False
    for char in line:
        if in_escape:
            in_escape = char != "m"
        elif char == "\x1b":
            in_escape = True
        else:
            length += 1
    return length
