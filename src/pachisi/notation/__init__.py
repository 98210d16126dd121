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

Both readers take ASCII digits as numbers and spaces, tabs (and, in records, line breaks)
as separators, skip a byte-order mark at the start, and refuse a text over their size limit
(:data:`MAX_POSITION_LENGTH`, :data:`MAX_RECORD_LENGTH`) before reading it.

The modules: :mod:`~pachisi.notation.position` (position strings), :mod:`~.record` (the
record object), :mod:`~.writer` and :mod:`~.reader` (its text), :mod:`~.replay` (records and
games), :mod:`~.errors`.
"""

from pachisi.notation.errors import NotationError, RecordError, RecordProblem
from pachisi.notation.position import MAX_POSITION_LENGTH, read_position, write_position
from pachisi.notation.reader import (
    MAX_PROBLEMS,
    MAX_RECORD_LENGTH,
    read_game,
    read_game_file,
    read_record,
    read_record_file,
)
from pachisi.notation.record import DRAWN, ROSTER, UNFINISHED, GameRecord, result_of
from pachisi.notation.replay import record_from_game, replay
from pachisi.notation.writer import write_record

__all__ = [
    "DRAWN",
    "MAX_POSITION_LENGTH",
    "MAX_PROBLEMS",
    "MAX_RECORD_LENGTH",
    "ROSTER",
    "UNFINISHED",
    "GameRecord",
    "NotationError",
    "RecordError",
    "RecordProblem",
    "read_game",
    "read_game_file",
    "read_position",
    "read_record",
    "read_record_file",
    "record_from_game",
    "replay",
    "result_of",
    "write_position",
    "write_record",
]
