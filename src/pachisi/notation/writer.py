"""Writing a game record: :func:`write_record`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from pachisi.notation._start import start_state
from pachisi.notation._tags import tag_line
from pachisi.notation.errors import RecordError, RecordProblem
from pachisi.notation.reader import MAX_RECORD_LENGTH
from pachisi.notation.record import ROSTER, UNFINISHED, GameRecord, move_text
from pachisi.rules import engine
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.state import Stage, State

__all__ = ["write_record"]

_WIDTH: Final = 80


def write_record(record: GameRecord) -> str:
    """The record as text: tag lines, a blank line, and movetext wrapped at 80 columns.

    Turn numbers (``12.``) are written before the first move of each turn when the moves
    can be replayed; they are informative and :func:`read_record` skips them. Raises
    :class:`RecordError` for a tag that could not be read back, or a text longer than
    :data:`~pachisi.notation.reader.MAX_RECORD_LENGTH`.
    """
    lines = [tag_line(key, record.tags[key]) for key in _tag_order(record.tags)]
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
    text = "\n".join([*lines, "", *body]) + "\n"
    if len(text) > MAX_RECORD_LENGTH:
        # It could not be read back: the round trip is the format's promise.
        message = f"a record of {len(text):,} characters (the limit is {MAX_RECORD_LENGTH:,})"
        raise RecordError([RecordProblem(0, 0, message)])
    return text


def _tag_order(tags: dict[str, str]) -> list[str]:
    roster = [key for key in ROSTER if key in tags]
    rest = [key for key in tags if key not in ROSTER and key != "Start"]
    return roster + rest + (["Start"] if "Start" in tags else [])


def _movetext_tokens(record: GameRecord) -> Iterator[str]:
    """The movetext in unbreakable units: moves, a turn number joined to the turn's first
    move where the replay shows a new turn begins, and the result last."""
    try:
        state: State | None = start_state(record.tags)
    except RecordError:
        state = None
    numbered = 0
    for move in record.moves:
        text = move_text(move)
        if state is not None and state.stage is not Stage.THROW_OFF and state.turn != numbered:
            numbered = state.turn
            # One unit with its first move, so that wrapping never strands a turn number.
            text = f"{numbered}. {text}"
        yield text
        if state is not None:
            try:
                state, _ = engine.apply(state, move)
            except IllegalActionError:
                state = None
    yield record.tags.get("Result", UNFINISHED)
