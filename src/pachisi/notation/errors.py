"""The errors of the two notations: :class:`NotationError` for position strings,
:class:`RecordError` (a list of :class:`RecordProblem`) for game records.

Both are ``ValueError``\\ s, so a caller that does not care which notation failed can catch
that alone.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NotationError", "RecordError", "RecordProblem"]


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
