"""Text notations: a one-line position string and a PGN-like game record.

Both are pure (strings in, objects out) and round-trip exactly; docs/notation.md is the full
reference, with every field, its default and the rule it implements.

A **position string** holds a whole :class:`~pachisi.rules.state.State`, turn in progress
included: the 16 piece progresses (seat by seat, ``/`` between seats), the stage and seat,
the turn number, ``key=value`` fields for whatever is not at its default, and the canonical
ruleset string last.

>>> from pachisi.rules import engine
>>> from pachisi.rules.ruleset import get_ruleset
>>> start = engine.new_game(get_ruleset("classic"))
>>> write_position(start)
'0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 o0 1 classic'
>>> read_position(write_position(start)) == start
True

A **game record** has ``[Key "value"]`` tag lines, a blank line, then the movetext: throws
as ``t<k>`` (``k`` cowries mouth up), actions in their canonical text (``0a+4``, ``-``),
informative turn numbers (``12.``), ``{comments}``, and the result last.

>>> record = read_record('[Ruleset "ludii"]\\n[Result "*"]\\n\\n1. t3 0a*3 2. t2 *')
>>> record.moves
[3, Action.parse('0a*3'), 2]
>>> str(replay(record).state.pos[0])
'15'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from pachisi.game import Game
from pachisi.rules import engine
from pachisi.rules.actions import LETTERS, Action, IllegalActionError, InvalidActionError
from pachisi.rules.board import (
    HOME,
    LAST_SQUARE,
    NUM_SEATS,
    PIECES_PER_SEAT,
    SQUARE_OF,
    parse_square,
    square_name,
)
from pachisi.rules.ruleset import Ruleset, RulesetError, parse_ruleset
from pachisi.rules.state import CHANCE, DRAW, NO_WINNER, CaptureRecord, Memo, Stage, State

__all__ = [
    "GameRecord",
    "NotationError",
    "RecordError",
    "RecordProblem",
    "read_position",
    "read_record",
    "record_from_game",
    "replay",
    "write_position",
    "write_record",
]

NUM_PIECES: Final = NUM_SEATS * PIECES_PER_SEAT


class NotationError(ValueError):
    """A position string that cannot be read; names the field and, where known, the column.

    ``field`` is the name of the offending field (``pieces``, ``side``, ``turn``, a
    ``key=value`` key, or ``ruleset``); ``column`` is 1-based, or 0 when it is not known
    (for instance when a state cannot be written).
    """

    def __init__(self, field: str, message: str, column: int = 0) -> None:
        self.field = field
        self.column = column
        self.reason = message
        where = f" at column {column}" if column else ""
        super().__init__(f"{field}{where}: {message}")


# =========================================================================== position string

_STAGE_LETTER: Final = {
    Stage.THROW_OFF: "o",
    Stage.THROW: "t",
    Stage.ACT: "a",
    Stage.PYADA: "p",
    Stage.SPEND: "s",
    Stage.OVER: "x",
}
_STAGE_OF: Final = {letter: stage for stage, letter in _STAGE_LETTER.items()}

_KEYS: Final = (
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

_FRESH_THROWOFF: Final = (-1, -1, -1, -1)
_THROWOFF_TEXT: Final = {-1: "?", -2: "-"}
_RUN_MAX: Final = 3
_FLAGS_MAX: Final = 3
_MAX_DIGITS: Final = 9

_NUMBER: Final = re.compile(r"\d+")
_PIECE: Final = re.compile(r"([0-3])([a-d])")
_RECORD: Final = re.compile(r"([0-3])([a-d]+)@([a-s]\d{1,2})x([0-3]+)t(\d+)")
_RUN: Final = re.compile(r"(\d+)x(\d+)")
_SPLIT: Final = re.compile(r"(\d+)/(\d+)(?::([a-d]+))?")


# --------------------------------------------------------------------------- writing


def write_position(state: State) -> str:
    """The canonical one-line text of ``state``; :func:`read_position` gives it back.

    Raises :class:`NotationError` only for a state no transition can produce and the
    format cannot express: a bitmask with bits outside the pieces or seats it describes,
    or a capture record without pieces of the capturing seat.
    """
    fields = [
        "/".join(",".join(str(p) for p in state.seat_pieces(s)) for s in range(NUM_SEATS)),
        f"{_STAGE_LETTER[state.stage]}{state.seat}",
        str(state.turn),
    ]
    fields += [f"{key}={text}" for key, text in _optional_fields(state)]
    fields.append(str(state.ruleset))
    return " ".join(fields)


def _optional_fields(s: State) -> Iterator[tuple[str, str]]:
    """Each ``key=value`` field whose value is not the default, in canonical order."""
    if s.throw_k != -1:
        yield "k", str(s.throw_k)
    if s.again:
        yield "again", "true"
    if s.captured:
        yield "captured", "true"
    if s.pyadas:
        yield "pyadas", str(s.pyadas)
    if s.items:
        yield "items", ",".join(map(str, s.items))
    if s.run != (0, 0):
        yield "run", f"{s.run[0]}x{s.run[1]}"
    if s.split_left or s.split_value or s.split_used:
        used = _letters(s.split_used, "split")
        yield "split", f"{s.split_left}/{s.split_value}" + (f":{used}" if used else "")
    if s.phase_flags:
        yield "flags", str(s.phase_flags)
    # In the throw-off stage the default is "nobody has thrown yet", so a fresh game is short.
    default_throwoff = _FRESH_THROWOFF if s.stage is Stage.THROW_OFF else ()
    if s.throwoff != default_throwoff:
        yield "throwoff", ",".join(_THROWOFF_TEXT.get(v, str(v)) for v in s.throwoff)
    if s.winner != NO_WINNER:
        yield "winner", "draw" if s.winner == DRAW else str(s.winner)
    if s.entered:
        yield "entered", ",".join(str(seat) for seat in _members(s.entered, NUM_SEATS, "entered"))
    if any(s.kills):
        yield "kills", ",".join(map(str, s.kills))
    if s.laps:
        yield "laps", ",".join(_piece_name(g) for g in _members(s.laps, NUM_PIECES, "laps"))
    if s.order:
        yield "order", ",".join(_piece_name(g) for g in s.order)
    if s.records:
        yield "records", ",".join(_write_capture(rec) for rec in s.records)


def _members(mask: int, size: int, key: str) -> list[int]:
    """The set bits of ``mask``, which must all lie below ``size``."""
    if mask < 0 or mask >> size:
        raise NotationError(key, f"bitmask {mask} has bits outside 0..{size - 1}")
    return [i for i in range(size) if mask >> i & 1]


def _letters(mask: int, key: str) -> str:
    return "".join(LETTERS[i] for i in _members(mask, PIECES_PER_SEAT, key))


def _piece_name(g: int) -> str:
    if not 0 <= g < NUM_PIECES:
        raise NotationError("order", f"piece id {g} is not 0..{NUM_PIECES - 1}")
    return f"{g // PIECES_PER_SEAT}{LETTERS[g % PIECES_PER_SEAT]}"


def _write_capture(rec: CaptureRecord) -> str:
    """``<seat><letters>@<square>x<victim seats>t<turn>``, e.g. ``0ab@j8x13t12``."""
    shift = PIECES_PER_SEAT * rec.capturer
    if (
        not 0 <= rec.capturer < NUM_SEATS
        or not rec.pieces
        or (rec.pieces >> shift) << shift != rec.pieces
    ):
        raise NotationError("records", "a capture record needs pieces of the capturing seat")
    own = rec.pieces >> shift
    victims = "".join(str(s) for s in _members(rec.victims, NUM_SEATS, "records"))
    return (
        f"{rec.capturer}{_letters(own, 'records')}@{square_name(rec.square)}x{victims}t{rec.turn}"
    )


# --------------------------------------------------------------------------- reading


@lru_cache(maxsize=64)
def _ruleset(text: str) -> Ruleset:
    # Positions of one game share a ruleset string; parsing it once keeps reading cheap.
    return parse_ruleset(text)


@dataclass
class _Fields:
    """A position string as read so far, before the checks between fields.

    ``columns`` maps each ``key=value`` field given to the column of its value, which also
    tells which keys were given.
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


def read_position(text: str) -> State:
    """The state written as ``text`` (see :func:`write_position`), fully validated.

    Raises :class:`NotationError` naming the field and column of the first problem:
    malformed text, unknown or repeated keys, numbers out of range, or fields that
    contradict each other or the ruleset.
    """
    if not isinstance(text, str):
        raise NotationError("position", f"expected a string, got {type(text).__name__}")
    if any(c in text.strip() for c in "\r\n"):
        raise NotationError("position", "a position string is a single line")
    tokens = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
    if len(tokens) < 4:
        raise NotationError(
            "position",
            "expected at least 4 fields: pieces, side, turn, [key=value ...], ruleset; "
            f"got {len(tokens)}",
            len(text.rstrip()) + 1,
        )
    ruleset_text, ruleset_col = tokens[-1]
    if "=" in ruleset_text.split("+")[0]:
        raise NotationError(
            "ruleset",
            f"the last field must be the ruleset (e.g. classic), not {ruleset_text!r}",
            ruleset_col,
        )
    try:
        ruleset = _ruleset(ruleset_text)
    except RulesetError as exc:
        raise NotationError("ruleset", str(exc), ruleset_col) from None
    f = _Fields(ruleset)
    f.pos = _read_pieces(*tokens[0])
    f.stage, f.seat = _read_side(*tokens[1])
    f.turn = _read_int("turn", tokens[2][0], tokens[2][1], 1, None)
    for token, col in tokens[3:-1]:
        key, eq, value = token.partition("=")
        if not eq:
            raise NotationError(
                key, f"expected key=value (keys: {', '.join(_KEYS)}), got {token!r}", col
            )
        reader = _READERS.get(key)
        if reader is None:
            raise NotationError(key, f"unknown field; known: {', '.join(_KEYS)}", col)
        if key in f.columns:
            raise NotationError(key, "field given twice", col)
        f.columns[key] = col + len(key) + 1
        reader(f, value, col + len(key) + 1)
    return _build(f)


def _read_int(key: str, text: str, col: int, lo: int, hi: int | None) -> int:
    if not _NUMBER.fullmatch(text):
        raise NotationError(key, f"expected a number, got {text!r}", col)
    if len(text) > _MAX_DIGITS:
        # Also keeps int() clear of Python's limit on very long digit strings.
        raise NotationError(key, f"{text[:12]}... is out of range", col)
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


def _read_pieces(text: str, col: int) -> tuple[int, ...]:
    seats = _parts(text, "/", col)
    if len(seats) != NUM_SEATS:
        raise NotationError("pieces", f"expected 4 seats separated by '/', got {len(seats)}", col)
    pos: list[int] = []
    for seat, (group, gcol) in enumerate(seats):
        values = _parts(group, ",", gcol)
        if len(values) != PIECES_PER_SEAT:
            raise NotationError(
                "pieces", f"seat {seat} needs 4 progresses a,b,c,d, got {group!r}", gcol
            )
        pos += [_read_int("pieces", v, vcol, 0, HOME) for v, vcol in values]
    return tuple(pos)


def _read_side(text: str, col: int) -> tuple[Stage, int]:
    m = re.fullmatch(r"([a-z])(\d+)", text)
    if not m or m.group(1) not in _STAGE_OF:
        raise NotationError(
            "side",
            f"expected a stage letter ({', '.join(_STAGE_OF)}) and a seat 0..3, got {text!r}",
            col,
        )
    seat = _read_int("side", m.group(2), col + 1, 0, NUM_SEATS - 1)
    return _STAGE_OF[m.group(1)], seat


def _read_bool(key: str, text: str, col: int) -> bool:
    if text not in ("true", "false"):
        raise NotationError(key, f"expected true or false, got {text!r}", col)
    return text == "true"


def _read_throw_values(key: str, text: str, col: int, r: Ruleset) -> tuple[int, ...]:
    """Comma-separated throw values, each one the ruleset's score table can give."""
    values: list[int] = []
    for part, pcol in _parts(text, ",", col):
        v = _read_int(key, part, pcol, 1, None)
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
            raise NotationError(key, f"expected a piece like 0a or 3d, got {part!r}", pcol)
        g = PIECES_PER_SEAT * int(m.group(1)) + LETTERS.index(m.group(2))
        if g in seen:
            raise NotationError(key, f"piece {part} is listed twice", pcol)
        seen.add(g)
        out.append((g, pcol))
    return out


def _in_order(key: str, chars: str, what: str, col: int) -> None:
    if len(set(chars)) != len(chars) or list(chars) != sorted(chars):
        raise NotationError(key, f"{what} must be distinct and in order, got {chars!r}", col)


def _set_k(f: _Fields, text: str, col: int) -> None:
    n = f.ruleset.cowries
    f.k = _read_int("k", text, col, 0, None)
    if f.k > n:
        raise NotationError("k", f"{f.k} is out of range (0..{n}: {n} cowries)", col)


def _set_again(f: _Fields, text: str, col: int) -> None:
    f.again = _read_bool("again", text, col)


def _set_captured(f: _Fields, text: str, col: int) -> None:
    f.captured = _read_bool("captured", text, col)


def _set_pyadas(f: _Fields, text: str, col: int) -> None:
    f.pyadas = _read_int("pyadas", text, col, 0, None)


def _set_items(f: _Fields, text: str, col: int) -> None:
    f.items = _read_throw_values("items", text, col, f.ruleset)


def _set_run(f: _Fields, text: str, col: int) -> None:
    m = _RUN.fullmatch(text)
    if not m:
        raise NotationError("run", f"expected <class or value>x<length>, got {text!r}", col)
    key = _read_int("run", m.group(1), col, 1, None)
    length = _read_int("run", m.group(2), col + len(m.group(1)) + 1, 1, _RUN_MAX)
    f.run = (key, length)


def _set_split(f: _Fields, text: str, col: int) -> None:
    m = _SPLIT.fullmatch(text)
    if not m:
        raise NotationError("split", f"expected <left>/<value>[:<letters>], got {text!r}", col)
    left_text, value_text, letters = m.group(1), m.group(2), m.group(3) or ""
    left = _read_int("split", left_text, col, 0, None)
    value = _read_int("split", value_text, col + len(left_text) + 1, 0, None)
    if value:
        _read_throw_values("split", value_text, col + len(left_text) + 1, f.ruleset)
    if left > value:
        raise NotationError("split", f"{left} steps left of a throw of {value}", col)
    _in_order("split", letters, "piece letters", col + len(left_text + value_text) + 2)
    f.split = (left, value, sum(1 << LETTERS.index(c) for c in letters))


def _set_flags(f: _Fields, text: str, col: int) -> None:
    f.flags = _read_int("flags", text, col, 0, _FLAGS_MAX)


def _set_throwoff(f: _Fields, text: str, col: int) -> None:
    parts = _parts(text, ",", col)
    if len(parts) != NUM_SEATS:
        raise NotationError("throwoff", f"expected 4 entries, one per seat, got {len(parts)}", col)
    symbols = {text: value for value, text in _THROWOFF_TEXT.items()}
    f.throwoff = tuple(
        symbols[part]
        if part in symbols
        else _read_throw_values("throwoff", part, pcol, f.ruleset)[0]
        for part, pcol in parts
    )


def _set_winner(f: _Fields, text: str, col: int) -> None:
    if text == "draw":
        f.winner = DRAW
        return
    individual = f.ruleset.teams == "individual"
    f.winner = _read_int("winner", text, col, 0, NUM_SEATS - 1 if individual else 1)


def _set_entered(f: _Fields, text: str, col: int) -> None:
    for part, pcol in _parts(text, ",", col):
        seat = _read_int("entered", part, pcol, 0, NUM_SEATS - 1)
        if f.entered >> seat & 1:
            raise NotationError("entered", f"seat {seat} is listed twice", pcol)
        f.entered |= 1 << seat


def _set_kills(f: _Fields, text: str, col: int) -> None:
    parts = _parts(text, ",", col)
    if len(parts) != NUM_SEATS:
        raise NotationError("kills", f"expected 4 counts, one per seat, got {len(parts)}", col)
    a, b, c, d = (_read_int("kills", part, pcol, 0, None) for part, pcol in parts)
    f.kills = (a, b, c, d)


def _set_laps(f: _Fields, text: str, col: int) -> None:
    f.laps = _read_pieces_list("laps", text, col)


def _set_order(f: _Fields, text: str, col: int) -> None:
    f.order = _read_pieces_list("order", text, col)


def _set_records(f: _Fields, text: str, col: int) -> None:
    for part, pcol in _parts(text, ",", col):
        m = _RECORD.fullmatch(part)
        if not m:
            raise NotationError(
                "records",
                "expected <seat><pieces>@<square>x<victim seats>t<turn> like 0ab@j8x13t12, "
                f"got {part!r}",
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
        turn = _read_int("records", turn_text, m.start(5) + pcol, 1, None)
        pieces = sum(1 << (PIECES_PER_SEAT * capturer + LETTERS.index(c)) for c in letters)
        f.records.append((CaptureRecord(capturer, pieces, square, victims, turn), pcol))


_READERS: Final[dict[str, Callable[[_Fields, str, int], None]]] = {
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


def _build(f: _Fields) -> State:
    """Check the fields against each other and the ruleset, then make the state."""
    _check_turn_fields(f)
    throwoff = _check_throwoff(f)
    _check_board_memory(f)
    return State(
        f.ruleset,
        f.pos,
        f.stage,
        f.seat,
        f.turn,
        tuple(g for g, _ in f.order or ()),
        sum(1 << g for g, _ in f.laps),
        f.entered,
        f.kills,
        tuple(rec for rec, _ in f.records),
        f.k,
        f.again,
        f.captured,
        f.pyadas,
        f.items,
        f.run,
        *f.split,
        f.flags,
        throwoff,
        f.winner,
        Memo(),
    )


def _check_turn_fields(f: _Fields) -> None:
    """The stage, pending throw and turn fields must fit each other and the ruleset."""
    r, stage = f.ruleset, f.stage
    collect = r.throw_usage == "collect"
    if stage is Stage.ACT and f.k < 0:
        raise NotationError("k", "stage a (act) needs the throw being used: k=<mouths up>")
    if f.k >= 0 and stage not in (Stage.ACT, Stage.PYADA):
        raise f.fail("k", "a pending throw exists only in stages a and p")
    if stage is Stage.SPEND and not collect:
        raise NotationError("side", "stage s (spend) needs throw_usage=collect")
    if stage in (Stage.ACT, Stage.PYADA) and collect:
        raise NotationError("side", "stages a and p need throw_usage=immediate")
    if stage is Stage.PYADA and not r.pyada:
        raise NotationError("side", "stage p (pyada) needs pyada=true")
    if f.items and not collect:
        raise f.fail("items", "collected throws exist only with throw_usage=collect")
    if f.flags and not collect:
        raise f.fail("flags", "phase flags exist only with throw_usage=collect")
    if f.pyadas and not r.pyada:
        raise f.fail("pyadas", "pyadas need pyada=true")
    if f.pyadas > 1 and not collect:
        raise f.fail("pyadas", f"{f.pyadas} pyadas, but a single throw earns at most 1")
    if f.run != (0, 0) and r.triple_cancel == "off":
        raise f.fail("run", "a triple-cancel run needs triple_cancel=group or same")
    if f.split != (0, 0, 0) and r.split_throw != "split":
        raise f.fail("split", "a split throw needs split_throw=split")
    if stage is Stage.OVER and f.winner == NO_WINNER:
        raise NotationError("winner", "stage x (over) needs winner=<team, seat or draw>")
    if stage is not Stage.OVER and f.winner != NO_WINNER:
        raise f.fail("winner", "a result exists only in stage x")
    if f.winner == DRAW and not r.draws_on_deadlock:
        raise f.fail(
            "winner", "a draw needs kill_before_home=seat or team with deadlock=draw (R-DEADLOCK)"
        )


def _check_throwoff(f: _Fields) -> tuple[int, ...]:
    """The throw-off values: given or fresh in stage o, absent in every other stage."""
    if f.stage is not Stage.THROW_OFF:
        if f.throwoff is not None:
            raise f.fail("throwoff", "the throw-off exists only in stage o")
        return ()
    throwoff = _FRESH_THROWOFF if f.throwoff is None else f.throwoff
    if throwoff[f.seat] != -1:
        raise f.fail("throwoff", f"seat {f.seat} is to throw, so its entry must be ?")
    return throwoff


def _check_board_memory(f: _Fields) -> None:
    """Laps, stack order and capture records must name pieces where the board has them."""
    r, pos = f.ruleset, f.pos
    if f.laps and not r.extra_lap:
        raise f.fail("laps", "second laps need extra_lap=true")
    for g, col in f.laps:
        if pos[g] == 0:
            raise NotationError("laps", f"piece {_piece_name(g)} is waiting, not on a lap", col)
    if r.tracks_stack_order:
        on_board = {g for g in range(NUM_PIECES) if 0 < pos[g] < HOME}
        for g, col in f.order or ():
            if g not in on_board:
                raise NotationError("order", f"piece {_piece_name(g)} is not on the board", col)
        missing = sorted(on_board - {g for g, _ in f.order or ()})
        if missing:
            names = ", ".join(_piece_name(g) for g in missing)
            raise f.fail("order", f"pieces on the board missing from the stack order: {names}")
    elif f.order is not None:
        raise f.fail("order", "a stack order is kept only with capture_scope=top_one")
    if f.records and not r.recapture_annul:
        raise f.fail("records", "capture records are kept only with recapture_annul=true")
    for rec, col in f.records:
        for g in range(NUM_PIECES):
            if rec.pieces >> g & 1 and not (
                0 < pos[g] <= LAST_SQUARE and SQUARE_OF[g >> 2][pos[g]] == rec.square
            ):
                where = square_name(rec.square)
                raise NotationError("records", f"piece {_piece_name(g)} is not on {where}", col)
        if rec.turn > f.turn:
            raise NotationError("records", f"turn {rec.turn} is after the current turn", col)


# =========================================================================== game record

ROSTER: Final = ("Ruleset", "Seat0", "Seat1", "Seat2", "Seat3", "Seed", "Date", "Result")
"""The tags every record should carry, written first and in this order (``Start`` last)."""
UNFINISHED: Final = "*"
DRAWN: Final = "draw"
"""The ``Result`` of a game that ended as a draw (R-DEADLOCK)."""
_RESULT: Final = re.compile(r"team[01]|seat[0-3]|draw|\*")
_TAG_KEY: Final = re.compile(r"[A-Za-z0-9_]+")
_TAG_LINE: Final = re.compile(r'\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_THROW: Final = re.compile(r"t(\d{1,4})")
_TURN_NUMBER: Final = re.compile(r"\d+\.+")
_WIDTH: Final = 80
_SHOW_LEGAL: Final = 12


@dataclass
class GameRecord:
    """A game as a PGN-like record: tags, and every throw and action in order.

    ``moves`` holds an :class:`~pachisi.rules.actions.Action` for each choice of a seat
    and an ``int`` for each throw (the number of cowries mouth up). ``tags`` carries at
    least ``Ruleset`` (or ``Start``) and normally the roster of :data:`ROSTER`; ``Start``
    holds a position string when the game did not begin at ``new_game``.
    """

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[Action | int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RecordProblem:
    """One problem in a record's text: 1-based line and column (0 when not known)."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


class RecordError(ValueError):
    """A record that cannot be read or replayed; ``errors`` lists every problem found."""

    def __init__(self, errors: list[RecordProblem]) -> None:
        self.errors = errors
        count = f"{len(errors)} problem{'s' if len(errors) != 1 else ''} in game record"
        super().__init__(count + ":\n" + "\n".join(str(e) for e in errors))


def result_of(state: State) -> str:
    """The ``Result`` text of a state: ``team0``/``team1``, ``seat0``..``seat3``, ``draw``
    or ``*``."""
    outcome = engine.outcome(state)
    if outcome is None:
        return UNFINISHED
    if outcome.winner is None:
        return DRAWN
    return f"{'seat' if outcome.individual else 'team'}{outcome.winner}"


def _move_text(move: Action | int) -> str:
    return str(move) if isinstance(move, Action) else f"t{move}"


# --------------------------------------------------------------------------- writing


def write_record(record: GameRecord) -> str:
    """The record as text: tag lines, a blank line, and movetext wrapped at 80 columns.

    Turn numbers (``12.``) are written before the first move of each turn when the moves
    can be replayed; they are informative and :func:`read_record` skips them.
    """
    lines = [_tag_line(key, record.tags[key]) for key in _tag_order(record.tags)]
    tokens = _movetext_tokens(record)
    body: list[str] = []
    current = ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > _WIDTH:
            body.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    body.append(current)
    return "\n".join([*lines, "", *body]) + "\n"


def _tag_order(tags: dict[str, str]) -> list[str]:
    roster = [key for key in ROSTER if key in tags]
    rest = [key for key in tags if key not in ROSTER and key != "Start"]
    return roster + rest + (["Start"] if "Start" in tags else [])


def _tag_line(key: str, value: str) -> str:
    if not _TAG_KEY.fullmatch(key):
        raise RecordError([RecordProblem(0, 0, f"tag name {key!r} must be letters, digits, _")])
    if "\n" in value or "\r" in value:
        raise RecordError([RecordProblem(0, 0, f"tag {key}: the value must be one line")])
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{key} "{escaped}"]'


def _movetext_tokens(record: GameRecord) -> list[str]:
    """The movetext in unbreakable units: moves, a turn number joined to the turn's first
    move where the replay shows a new turn begins, and the result last."""
    try:
        state: State | None = _start_state(record.tags)
    except RecordError:
        state = None
    tokens: list[str] = []
    numbered = 0
    for move in record.moves:
        text = _move_text(move)
        if state is not None and state.stage is not Stage.THROW_OFF and state.turn != numbered:
            numbered = state.turn
            # One unit with its first move, so that wrapping never strands a turn number.
            text = f"{numbered}. {text}"
        tokens.append(text)
        if state is not None:
            try:
                state, _ = engine.apply(state, move)
            except IllegalActionError:
                state = None
    tokens.append(record.tags.get("Result", UNFINISHED))
    return tokens


# --------------------------------------------------------------------------- replaying


def _start_state(tags: dict[str, str]) -> State:
    """The state a record starts from: its ``Start`` tag, else ``new_game`` of ``Ruleset``."""
    problems: list[RecordProblem] = []
    state = _start_from(tags, None, problems)
    if state is None:
        raise RecordError(problems)
    return state


def _start_from(
    tags: dict[str, str],
    where: dict[str, tuple[int, int]] | None,
    problems: list[RecordProblem],
) -> State | None:
    """As :func:`_start_state`, adding problems instead of raising.

    ``where`` maps tag names to the line and column of their values; it is ``None`` for a
    record object, which has no text, and its problems then have line and column 0.
    """
    located = where is not None
    where = where or {}
    ruleset: Ruleset | None = None
    ok = True
    if "Ruleset" in tags:
        line, col = where.get("Ruleset", (0, 0))
        try:
            ruleset = parse_ruleset(tags["Ruleset"])
        except RulesetError as exc:
            problems.append(RecordProblem(line, col, f"Ruleset tag: {exc}"))
            ok = False
    start: State | None = None
    if "Start" in tags:
        line, col = where.get("Start", (0, 0))
        try:
            start = read_position(tags["Start"])
        except NotationError as exc:
            at = col + exc.column - 1 if col and exc.column else col
            problems.append(RecordProblem(line, at, f"Start tag: {exc}"))
            return None
        if ruleset is not None and start.ruleset != ruleset:
            line, col = where.get("Ruleset", (0, 0))
            problems.append(
                RecordProblem(
                    line,
                    col,
                    f"Ruleset tag {tags['Ruleset']!r} differs from the Start position's "
                    f"ruleset {str(start.ruleset)!r}",
                )
            )
            return None
        return start if ok else None
    if ruleset is None:
        if ok:
            line, col = (1, 1) if located else (0, 0)
            message = 'missing Ruleset tag, e.g. [Ruleset "classic"]'
            problems.append(RecordProblem(line, col, message))
        return None
    return engine.new_game(ruleset)


def _illegal(state: State, move: Action | int, reason: str) -> str:
    """Why ``move`` cannot be played in ``state``, with what could be played instead."""
    text = _move_text(move)
    if state.is_over:
        return f"{text}: the game is already over"
    if engine.current_player(state) == CHANCE:
        if isinstance(move, Action):
            return f"{text}: a throw (t0..t{state.ruleset.cowries}) is due, not an action"
        return f"{text}: {reason}"
    legal = [str(a) for a in engine.legal_actions(state)]
    shown = ", ".join(legal[:_SHOW_LEGAL]) + (", ..." if len(legal) > _SHOW_LEGAL else "")
    if not isinstance(move, Action):
        return f"{text}: seat {state.seat} must act, not throw (legal: {shown})"
    return f"{text} is not legal here (legal: {shown})"


def replay(record: GameRecord) -> Game:
    """The :class:`~pachisi.game.Game` after every move of ``record``, from its start.

    Raises :class:`RecordError` if the start tags are bad or a move is illegal; the
    problem's line and column are 0 (a record object has no text) and its message names
    the move by its 1-based number in ``moves``.
    """
    start = _start_state(record.tags)
    game = Game(start.ruleset, state=start)
    for number, move in enumerate(record.moves, 1):
        try:
            game.push(move)
        except IllegalActionError as exc:
            message = f"move {number}: {_illegal(game.state, move, str(exc))}"
            raise RecordError([RecordProblem(0, 0, message)]) from None
    return game


def record_from_game(game: Game, tags: dict[str, str]) -> GameRecord:
    """A record of ``game``: the caller's ``tags`` plus ``Ruleset``, ``Result`` and ``Start``.

    ``Start`` is set only when the game did not begin at ``new_game`` of its ruleset (and a
    stale ``Start`` in ``tags`` is dropped otherwise).
    """
    out = dict(tags)
    out["Ruleset"] = str(game.ruleset)
    out["Result"] = result_of(game.state)
    if game.start != engine.new_game(game.ruleset):
        out["Start"] = write_position(game.start)
    else:
        out.pop("Start", None)
    return GameRecord(out, list(game.moves))


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    line: int
    column: int


def read_record(text: str) -> GameRecord:
    """Read a record and replay it; :class:`RecordError` lists every problem found.

    Every bad tag line and unknown token is reported. The moves are replayed from
    ``Start`` (or ``new_game`` of ``Ruleset``) up to the first illegal move or unknown
    token, after which later moves cannot be checked; the result is checked against the
    replay when it reached the end.
    """
    problems: list[RecordProblem] = []
    # Only real line breaks count, so that line numbers match what an editor shows.
    lines = re.split(r"\r\n|\r|\n", text)
    tags: dict[str, str] = {}
    where: dict[str, tuple[int, int]] = {}
    index = 0
    while index < len(lines) and _is_header_line(lines[index]):
        if lines[index].strip():
            _read_tag(lines[index], index + 1, tags, where, problems)
        index += 1
    moves, tokens, result = _read_movetext(lines, index, problems)
    _check_result_syntax(tags, where, result, problems)
    state = _start_from(tags, where, problems)
    if state is not None:
        _check_throw_range(state.ruleset, moves, tokens, problems)
    for move, token in zip(moves, tokens, strict=True):
        if state is None:
            break
        if move is None:
            # A bad token: a move may be missing here, so later ones cannot be checked.
            state = None
            break
        try:
            state, _ = engine.apply(state, move)
        except IllegalActionError as exc:
            problems.append(
                RecordProblem(token.line, token.column, _illegal(state, move, str(exc)))
            )
            state = None
    if state is not None:
        _check_result(state, tags, where, result, problems)
    if problems:
        raise RecordError(sorted(problems, key=lambda p: (p.line, p.column)))
    return GameRecord(tags, [m for m in moves if m is not None])


def _is_header_line(line: str) -> bool:
    """Blank, or looks like a tag pair, even a broken one: ``[...`` or ``..."...]``."""
    stripped = line.strip()
    return (
        not stripped
        or stripped.startswith("[")
        or (stripped.endswith("]") and '"' in stripped and "{" not in stripped)
    )


def _check_result_syntax(
    tags: dict[str, str],
    where: dict[str, tuple[int, int]],
    result: _Token | None,
    problems: list[RecordProblem],
) -> None:
    """The Result tag must be a result; the result token must agree with it."""
    if "Result" in tags and not _RESULT.fullmatch(tags["Result"]):
        line, col = where["Result"]
        message = f"Result {tags['Result']!r} is not team0, team1, seat0..3, draw or *"
        problems.append(RecordProblem(line, col, message))
    if result is not None and "Result" in tags and result.text != tags["Result"]:
        message = f"result token {result.text} differs from the Result tag {tags['Result']}"
        problems.append(RecordProblem(result.line, result.column, message))


def _check_throw_range(
    ruleset: Ruleset,
    moves: list[Action | int | None],
    tokens: list[_Token],
    problems: list[RecordProblem],
) -> None:
    """A throw above the number of cowries is wrong wherever it stands; report every one.

    Such a throw becomes ``None`` (a bad token), so the replay stops there too.
    """
    n = ruleset.cowries
    for i, (move, token) in enumerate(zip(moves, tokens, strict=True)):
        if isinstance(move, int) and not isinstance(move, Action) and move > n:
            message = f"{token.text}: a throw of {n} cowries has t0..t{n} mouths up"
            problems.append(RecordProblem(token.line, token.column, message))
            moves[i] = None


def _check_result(
    state: State,
    tags: dict[str, str],
    where: dict[str, tuple[int, int]],
    result: _Token | None,
    problems: list[RecordProblem],
) -> None:
    """The claimed result (the tag, else the result token) must be the replayed one."""
    if "Result" in tags:
        claimed = tags["Result"]
        line, col = where["Result"]
    elif result is not None:
        claimed, line, col = result.text, result.line, result.column
    else:
        return
    actual = result_of(state)
    if claimed != actual:
        problems.append(
            RecordProblem(line, col, f"Result is {claimed} but the replayed game gives {actual}")
        )


def _read_tag(
    raw: str,
    line: int,
    tags: dict[str, str],
    where: dict[str, tuple[int, int]],
    problems: list[RecordProblem],
) -> None:
    """Read one tag line into ``tags`` (and where its value starts into ``where``)."""
    indent = len(raw) - len(raw.lstrip())
    stripped = raw.strip()
    m = _TAG_LINE.fullmatch(stripped)
    if not m:
        message = f'malformed tag line {stripped!r}; expected [Key "value"]'
        problems.append(RecordProblem(line, indent + 1 + _tag_fault(stripped), message))
        return
    key = m.group(1)
    value_col = indent + 1 + m.start(2)
    if key in tags:
        problems.append(RecordProblem(line, indent + 2, f"tag {key} is given twice"))
        return
    tags[key] = re.sub(r"\\(.)", r"\1", m.group(2))
    where[key] = (line, value_col)


def _tag_fault(text: str) -> int:
    """The 0-based offset in a bad tag line where it stops looking like ``[Key "value"]``."""
    m = re.match(r'\[([A-Za-z0-9_]*)(\s*)("(?:[^"\\]|\\.)*"?)?', text)
    if m is None:
        return 0
    if not m.group(1):
        return 1
    if not m.group(2) or m.group(3) is None:
        return m.end(1)
    if not m.group(3).endswith('"') or len(m.group(3)) < 2:
        return len(text)
    return m.end()


def _read_movetext(
    lines: list[str], first: int, problems: list[RecordProblem]
) -> tuple[list[Action | int | None], list[_Token], _Token | None]:
    """The moves (``None`` for an unknown token), their tokens, and the result token."""
    moves: list[Action | int | None] = []
    tokens: list[_Token] = []
    result: _Token | None = None
    for token in _tokenize(lines, first, problems):
        t = token.text
        if _TURN_NUMBER.fullmatch(t):
            continue
        if result is not None:
            problems.append(
                RecordProblem(token.line, token.column, f"{t!r} after the result {result.text}")
            )
            continue
        if _RESULT.fullmatch(t):
            result = token
            continue
        move: Action | int | None
        throw = _THROW.fullmatch(t)
        if throw:
            move = int(throw.group(1))
        else:
            try:
                move = Action.parse(t)
            except InvalidActionError:
                problems.append(
                    RecordProblem(
                        token.line,
                        token.column,
                        f"unknown token {t!r} (expected a throw like t3, an action like "
                        "0a+4 or -, a turn number like 12., or a result)",
                    )
                )
                move = None
        moves.append(move)
        tokens.append(token)
    return moves, tokens, result


def _tokenize(lines: list[str], first: int, problems: list[RecordProblem]) -> Iterator[_Token]:
    """Whitespace-separated tokens with their positions, skipping ``{...}`` and ``;`` comments."""
    opened: tuple[int, int] | None = None
    for index in range(first, len(lines)):
        line = lines[index]
        i = 0
        if opened is None and line.lstrip().startswith("["):
            column = len(line) - len(line.lstrip()) + 1
            problems.append(RecordProblem(index + 1, column, "tag line after the movetext"))
            continue
        while i < len(line):
            if opened is not None:
                close = line.find("}", i)
                if close < 0:
                    break
                opened = None
                i = close + 1
                continue
            c = line[i]
            if c.isspace():
                i += 1
            elif c == "{":
                opened = (index + 1, i + 1)
                i += 1
            elif c == ";":
                break
            elif c == "}":
                problems.append(RecordProblem(index + 1, i + 1, "'}' without a matching '{'"))
                i += 1
            else:
                start = i
                while i < len(line) and not line[i].isspace() and line[i] not in "{};":
                    i += 1
                yield _Token(line[start:i], index + 1, start + 1)
    if opened is not None:
        problems.append(RecordProblem(opened[0], opened[1], "comment '{' is never closed"))
