"""Reading each field of a position string on its own: numbers, pieces, the side, and every
``key=value`` field, into a :class:`Fields` that the checks in
:mod:`pachisi.notation._position_checks` then validate as a whole."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from pachisi.notation._position_format import STAGE_OF, THROWOFF_TEXT
from pachisi.notation._text import excerpt
from pachisi.notation.errors import NotationError
from pachisi.rules.actions import LETTERS
from pachisi.rules.board import HOME, NUM_SEATS, PIECES_PER_SEAT, parse_square
from pachisi.rules.choices import Teams
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import DRAW, NO_WINNER, CaptureRecord, Stage

_RUN_MAX: Final = 3
_FLAGS_MAX: Final = 3
_MAX_DIGITS: Final = 9

# Numbers are ASCII digits only: ``\d`` and ``int()`` would also take other scripts' digits.
_NUMBER: Final = re.compile(r"[0-9]+")
_PIECE: Final = re.compile(r"([0-3])([a-d])")
_RECORD: Final = re.compile(r"([0-3])([a-d]+)@([a-s][0-9]{1,2})x([0-3]+)t([0-9]+)")
_RUN: Final = re.compile(r"([0-9]+)x([0-9]+)")
_SPLIT: Final = re.compile(r"([0-9]+)/([0-9]+)(?::([a-d]+))?")
_SIDE: Final = re.compile(r"([a-z])([0-9]+)")


@dataclass
class Fields:
    """A position string as read so far, before the checks between fields.

    ``columns`` maps each ``key=value`` field given to the column of its value, which also
    tells which keys were given, and the fixed fields to the columns where they begin.
    """

    ruleset: Ruleset
    pos: tuple[int, ...] = ()
    stage: Stage = Stage.THROW
    seat: int = 0
    turn: int = 1
    k: int = -1
    again: bool = False
    captured: bool = False
    pyadas: int = 0
    items: tuple[int, ...] = ()
    run: tuple[int, int] = (0, 0)
    split: tuple[int, int, int] = (0, 0, 0)
    flags: int = 0
    throwoff: tuple[int, ...] | None = None
    winner: int = NO_WINNER
    entered: int = 0
    kills: tuple[int, int, int, int] = (0, 0, 0, 0)
    laps: list[tuple[int, int]] = field(default_factory=list)
    order: list[tuple[int, int]] | None = None
    records: list[tuple[CaptureRecord, int]] = field(default_factory=list)
    columns: dict[str, int] = field(default_factory=dict)

    def fail(self, key: str, message: str) -> NotationError:
        """An error about the field ``key``, at its column if it was given."""
        return NotationError(key, message, self.columns.get(key, 0))


def read_int(key: str, text: str, col: int, lo: int, hi: int | None) -> int:
    if not _NUMBER.fullmatch(text):
        raise NotationError(key, f"expected a number, got {excerpt(text)}", col)
    if len(text) > _MAX_DIGITS:
        # Also keeps int() clear of Python's limit on very long digit strings.
        raise NotationError(key, f"{excerpt(text)} is out of range", col)
    value = int(text)
    if value < lo or (hi is not None and value > hi):
        bound = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise NotationError(key, f"{value} is out of range ({bound})", col)
    return value


def _parts(text: str, sep: str, col: int) -> list[tuple[str, int]]:
    """``text`` split on ``sep``, each part with its own column."""
    out: list[tuple[str, int]] = []
    for part in text.split(sep):
        out.append((part, col))
        col += len(part) + len(sep)
    return out


def read_pieces(text: str, col: int) -> tuple[int, ...]:
    seats = _parts(text, "/", col)
    if len(seats) != NUM_SEATS:
        raise NotationError("pieces", f"expected 4 seats separated by '/', got {len(seats)}", col)
    pos: list[int] = []
    for seat, (group, gcol) in enumerate(seats):
        values = _parts(group, ",", gcol)
        if len(values) != PIECES_PER_SEAT:
            raise NotationError(
                "pieces", f"seat {seat} needs 4 progresses a,b,c,d, got {excerpt(group)}", gcol
            )
        pos += [read_int("pieces", v, vcol, 0, HOME) for v, vcol in values]
    return tuple(pos)


def read_side(text: str, col: int) -> tuple[Stage, int]:
    m = _SIDE.fullmatch(text)
    if not m or m.group(1) not in STAGE_OF:
        raise NotationError(
            "side",
            f"expected a stage letter ({', '.join(STAGE_OF)}) and a seat 0..3, got {excerpt(text)}",
            col,
        )
    seat = read_int("side", m.group(2), col + 1, 0, NUM_SEATS - 1)
    return STAGE_OF[m.group(1)], seat


def _read_bool(key: str, text: str, col: int) -> bool:
    if text not in ("true", "false"):
        raise NotationError(key, f"expected true or false, got {excerpt(text)}", col)
    return text == "true"


def _read_throw_values(key: str, text: str, col: int, r: Ruleset) -> tuple[int, ...]:
    """Comma-separated throw values, each one the ruleset's score table can give."""
    values: list[int] = []
    for part, pcol in _parts(text, ",", col):
        v = read_int(key, part, pcol, 1, None)
        if v not in r.score_table:
            known = ",".join(map(str, sorted(set(r.score_table))))
            raise NotationError(key, f"{v} is not a throw value of this ruleset ({known})", pcol)
        values.append(v)
    return tuple(values)


def _read_pieces_list(key: str, text: str, col: int) -> list[tuple[int, int]]:
    """Comma-separated piece names (``0a``), as global ids with their columns."""
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    for part, pcol in _parts(text, ",", col):
        m = _PIECE.fullmatch(part)
        if not m:
            raise NotationError(key, f"expected a piece like 0a or 3d, got {excerpt(part)}", pcol)
        g = PIECES_PER_SEAT * int(m.group(1)) + LETTERS.index(m.group(2))
        if g in seen:
            raise NotationError(key, f"piece {part} is listed twice", pcol)
        seen.add(g)
        out.append((g, pcol))
    return out


def _in_order(key: str, chars: str, what: str, col: int) -> None:
    if len(set(chars)) != len(chars) or list(chars) != sorted(chars):
        raise NotationError(key, f"{what} must be distinct and in order, got {excerpt(chars)}", col)


def _set_k(f: Fields, text: str, col: int) -> None:
    n = f.ruleset.cowries
    f.k = read_int("k", text, col, 0, None)
    if f.k > n:
        raise NotationError("k", f"{f.k} is out of range (0..{n}: {n} cowries)", col)


def _set_again(f: Fields, text: str, col: int) -> None:
    f.again = _read_bool("again", text, col)


def _set_captured(f: Fields, text: str, col: int) -> None:
    f.captured = _read_bool("captured", text, col)


def _set_pyadas(f: Fields, text: str, col: int) -> None:
    f.pyadas = read_int("pyadas", text, col, 0, None)


def _set_items(f: Fields, text: str, col: int) -> None:
    f.items = _read_throw_values("items", text, col, f.ruleset)


def _set_run(f: Fields, text: str, col: int) -> None:
    m = _RUN.fullmatch(text)
    if not m:
        raise NotationError("run", f"expected <class or value>x<length>, got {excerpt(text)}", col)
    key = read_int("run", m.group(1), col, 1, None)
    length = read_int("run", m.group(2), col + len(m.group(1)) + 1, 1, _RUN_MAX)
    f.run = (key, length)


def _set_split(f: Fields, text: str, col: int) -> None:
    m = _SPLIT.fullmatch(text)
    if not m:
        raise NotationError(
            "split", f"expected <left>/<value>[:<letters>], got {excerpt(text)}", col
        )
    left_text, value_text, letters = m.group(1), m.group(2), m.group(3) or ""
    left = read_int("split", left_text, col, 0, None)
    value = read_int("split", value_text, col + len(left_text) + 1, 0, None)
    if value:
        _read_throw_values("split", value_text, col + len(left_text) + 1, f.ruleset)
    if left > value:
        raise NotationError("split", f"{left} steps left of a throw of {value}", col)
    _in_order("split", letters, "piece letters", col + len(left_text + value_text) + 2)
    f.split = (left, value, sum(1 << LETTERS.index(c) for c in letters))


def _set_flags(f: Fields, text: str, col: int) -> None:
    f.flags = read_int("flags", text, col, 0, _FLAGS_MAX)


def _set_throwoff(f: Fields, text: str, col: int) -> None:
    parts = _parts(text, ",", col)
    if len(parts) != NUM_SEATS:
        raise NotationError("throwoff", f"expected 4 entries, one per seat, got {len(parts)}", col)
    symbols = {text: value for value, text in THROWOFF_TEXT.items()}
    f.throwoff = tuple(
        symbols[part]
        if part in symbols
        else _read_throw_values("throwoff", part, pcol, f.ruleset)[0]
        for part, pcol in parts
    )


def _set_winner(f: Fields, text: str, col: int) -> None:
    if text == "draw":
        f.winner = DRAW
        return
    individual = f.ruleset.teams == Teams.INDIVIDUAL
    f.winner = read_int("winner", text, col, 0, NUM_SEATS - 1 if individual else 1)


def _set_entered(f: Fields, text: str, col: int) -> None:
    for part, pcol in _parts(text, ",", col):
        seat = read_int("entered", part, pcol, 0, NUM_SEATS - 1)
        if f.entered >> seat & 1:
            raise NotationError("entered", f"seat {seat} is listed twice", pcol)
        f.entered |= 1 << seat


def _set_kills(f: Fields, text: str, col: int) -> None:
    parts = _parts(text, ",", col)
    if len(parts) != NUM_SEATS:
        raise NotationError("kills", f"expected 4 counts, one per seat, got {len(parts)}", col)
    a, b, c, d = (read_int("kills", part, pcol, 0, None) for part, pcol in parts)
    f.kills = (a, b, c, d)


def _set_laps(f: Fields, text: str, col: int) -> None:
    f.laps = _read_pieces_list("laps", text, col)


def _set_order(f: Fields, text: str, col: int) -> None:
    f.order = _read_pieces_list("order", text, col)


def _set_records(f: Fields, text: str, col: int) -> None:
    for part, pcol in _parts(text, ",", col):
        m = _RECORD.fullmatch(part)
        if not m:
            raise NotationError(
                "records",
                "expected <seat><pieces>@<square>x<victim seats>t<turn> like 0ab@j8x13t12, "
                f"got {excerpt(part)}",
                pcol,
            )
        seat_text, letters, sq_text, victims_text, turn_text = m.groups()
        capturer = int(seat_text)
        _in_order("records", letters, "piece letters", pcol + 1)
        _in_order("records", victims_text, "victim seats", m.start(4) + pcol)
        try:
            square = parse_square(sq_text)
        except ValueError as exc:
            raise NotationError("records", str(exc), m.start(3) + pcol) from None
        victims = sum(1 << int(c) for c in victims_text)
        if victims >> capturer & 1:
            raise NotationError("records", f"seat {capturer} cannot be its own victim", pcol)
        turn = read_int("records", turn_text, m.start(5) + pcol, 1, None)
        pieces = sum(1 << (PIECES_PER_SEAT * capturer + LETTERS.index(c)) for c in letters)
        f.records.append((CaptureRecord(capturer, pieces, square, victims, turn), pcol))


READERS: Final[dict[str, Callable[[Fields, str, int], None]]] = {
    "k": _set_k,
    "again": _set_again,
    "captured": _set_captured,
    "pyadas": _set_pyadas,
    "items": _set_items,
    "run": _set_run,
    "split": _set_split,
    "flags": _set_flags,
    "throwoff": _set_throwoff,
    "winner": _set_winner,
    "entered": _set_entered,
    "kills": _set_kills,
    "laps": _set_laps,
    "order": _set_order,
    "records": _set_records,
}
