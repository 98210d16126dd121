"""The one-line position string: :func:`write_position` and :func:`read_position`.

docs/notation.md section 1 is the reference: every field, its default and its rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Final

from pachisi.notation._position_checks import build
from pachisi.notation._position_fields import READERS, Fields, read_int, read_pieces, read_side
from pachisi.notation._position_format import (
    FRESH_THROWOFF,
    KEYS,
    NUM_PIECES,
    STAGE_LETTER,
    THROWOFF_TEXT,
    piece_name,
)
from pachisi.notation._text import BOM, ODD_SPACE, char_name, excerpt, short
from pachisi.notation.errors import NotationError
from pachisi.rules.actions import LETTERS
from pachisi.rules.board import NUM_SEATS, PIECES_PER_SEAT, square_name
from pachisi.rules.ruleset import Ruleset, RulesetError, parse_ruleset
from pachisi.rules.state import DRAW, NO_WINNER, CaptureRecord, Stage, State

__all__ = ["MAX_POSITION_LENGTH", "read_position", "write_position"]

MAX_POSITION_LENGTH: Final = 10_000
"""The longest position string read, in characters. The longest real one is about 3,200:
every optional field at its longest, with a 2,000-character ruleset string
(:data:`~pachisi.rules.ruleset.MAX_RULESET_LENGTH`) and 100 collected throws."""

_BLANKS: Final = " \t\r\n"
"""What may stand around the fields: spaces and tabs, and line breaks at either end."""
_FIELD: Final = re.compile(r"[^ \t\r\n]+")


def write_position(state: State) -> str:
    """The canonical one-line text of ``state``; :func:`read_position` gives it back.

    Raises :class:`NotationError` only for a state no transition can produce and the
    format cannot express: a bitmask with bits outside the pieces or seats it describes,
    or a capture record without pieces of the capturing seat.
    """
    fields = [
        "/".join(",".join(str(p) for p in state.seat_pieces(s)) for s in range(NUM_SEATS)),
        f"{STAGE_LETTER[state.stage]}{state.seat}",
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
    default_throwoff = FRESH_THROWOFF if s.stage is Stage.THROW_OFF else ()
    if s.throwoff != default_throwoff:
        yield "throwoff", ",".join(THROWOFF_TEXT.get(v, str(v)) for v in s.throwoff)
    if s.winner != NO_WINNER:
        yield "winner", "draw" if s.winner == DRAW else str(s.winner)
    if s.entered:
        yield "entered", ",".join(str(seat) for seat in _members(s.entered, NUM_SEATS, "entered"))
    if any(s.kills):
        yield "kills", ",".join(map(str, s.kills))
    if s.laps:
        yield "laps", ",".join(piece_name(g) for g in _members(s.laps, NUM_PIECES, "laps"))
    if s.order:
        yield "order", ",".join(piece_name(g) for g in s.order)
    if s.records:
        yield "records", ",".join(_write_capture(rec) for rec in s.records)


def _members(mask: int, size: int, key: str) -> list[int]:
    """The set bits of ``mask``, which must all lie below ``size``."""
    if mask < 0 or mask >> size:
        raise NotationError(key, f"bitmask {mask} has bits outside 0..{size - 1}")
    return [i for i in range(size) if mask >> i & 1]


def _letters(mask: int, key: str) -> str:
    return "".join(LETTERS[i] for i in _members(mask, PIECES_PER_SEAT, key))


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


def read_position(text: str) -> State:
    """The state written as ``text`` (see :func:`write_position`), fully validated.

    Raises :class:`NotationError` naming the field and column of the first problem:
    malformed text, unknown or repeated keys, numbers out of range (numbers are ASCII
    digits), or fields that contradict each other or the ruleset. Fields are separated by
    spaces or tabs; other blanks, such as U+2028 or U+00A0, are refused. A byte-order mark
    at the start is skipped, and a text longer than :data:`MAX_POSITION_LENGTH` is refused
    at once.
    """
    if not isinstance(text, str):
        raise NotationError("position", f"expected a string, got {type(text).__name__}")
    if len(text) > MAX_POSITION_LENGTH:
        message = f"{len(text):,} characters (the limit is {MAX_POSITION_LENGTH:,})"
        raise NotationError("position", message)
    # Columns count from after a byte-order mark, as an editor shows them.
    text = text.removeprefix(BOM)
    odd = ODD_SPACE.search(text)
    if odd:
        message = f"{char_name(odd.group())} is not a field separator (use spaces)"
        raise NotationError("position", message, odd.start() + 1)
    if any(c in text.strip(_BLANKS) for c in "\r\n"):
        raise NotationError("position", "a position string is a single line")
    tokens = [(m.group(), m.start() + 1) for m in _FIELD.finditer(text)]
    if len(tokens) < 4:
        raise NotationError(
            "position",
            "expected at least 4 fields: pieces, side, turn, [key=value ...], ruleset; "
            f"got {len(tokens)}",
            len(text.rstrip(_BLANKS)) + 1,
        )
    ruleset_text, ruleset_col = tokens[-1]
    if "=" in ruleset_text.split("+")[0]:
        raise NotationError(
            "ruleset",
            f"the last field must be the ruleset (e.g. classic), not {excerpt(ruleset_text)}",
            ruleset_col,
        )
    try:
        ruleset = _ruleset(ruleset_text)
    except RulesetError as exc:
        raise NotationError("ruleset", str(exc), ruleset_col) from None
    f = Fields(ruleset)
    f.columns.update(
        {"pieces": tokens[0][1], "side": tokens[1][1], "turn": tokens[2][1], "ruleset": ruleset_col}
    )
    f.pos = read_pieces(*tokens[0])
    f.stage, f.seat = read_side(*tokens[1])
    f.turn = read_int("turn", tokens[2][0], tokens[2][1], 1, None)
    for token, col in tokens[3:-1]:
        key, eq, value = token.partition("=")
        if not eq:
            raise NotationError(
                short(key),
                f"expected key=value (keys: {', '.join(KEYS)}), got {excerpt(token)}",
                col,
            )
        reader = READERS.get(key)
        if reader is None:
            raise NotationError(short(key), f"unknown field; known: {', '.join(KEYS)}", col)
        if key in f.columns:
            raise NotationError(key, "field given twice", col)
        f.columns[key] = col + len(key) + 1
        reader(f, value, col + len(key) + 1)
    return build(f)
