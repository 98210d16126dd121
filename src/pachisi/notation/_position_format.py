"""The vocabulary of the position string, shared by its writer and its reader: stage
letters, the optional keys in canonical order, throw-off symbols and piece names."""

from __future__ import annotations

from typing import Final

from pachisi.notation.errors import NotationError
from pachisi.rules.actions import LETTERS
from pachisi.rules.board import NUM_SEATS, PIECES_PER_SEAT
from pachisi.rules.state import Stage

NUM_PIECES: Final = NUM_SEATS * PIECES_PER_SEAT

STAGE_LETTER: Final = {
    Stage.THROW_OFF: "o",
    Stage.THROW: "t",
    Stage.ACT: "a",
    Stage.PYADA: "p",
    Stage.SPEND: "s",
    Stage.OVER: "x",
}
STAGE_OF: Final = {letter: stage for stage, letter in STAGE_LETTER.items()}

KEYS: Final = (
    "k",
    "again",
    "captured",
    "pyadas",
    "items",
    "run",
    "split",
    "flags",
    "throwoff",
    "winner",
    "entered",
    "kills",
    "laps",
    "order",
    "records",
)
"""The optional fields in the order the writer puts them: the turn in progress first, then
what the board remembers across turns."""

FRESH_THROWOFF: Final = (-1, -1, -1, -1)
THROWOFF_TEXT: Final = {-1: "?", -2: "-"}


def piece_name(g: int) -> str:
    """``0a`` .. ``3d`` for the global piece id ``g``."""
    if not 0 <= g < NUM_PIECES:
        raise NotationError("order", f"piece id {g} is not 0..{NUM_PIECES - 1}")
    return f"{g // PIECES_PER_SEAT}{LETTERS[g % PIECES_PER_SEAT]}"
