"""Reading a game record: :func:`read_record`, a forgiving reader that reports every problem;
:func:`read_game`, the same and the replayed game in one pass; and their ``_file`` forms,
which refuse a file over the size limit before reading it.

docs/notation.md section 2.4 describes its steps and messages. The reader makes one pass
over the text: it reads the tags, then replays each move as soon as it has read it, so it
keeps nothing per move but the move itself (one shared object per distinct action).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import lru_cache
from itertools import chain
from typing import Final

from pachisi.game import Game
from pachisi.notation._start import illegal, start_from
from pachisi.notation._tags import is_header_line, read_tag
from pachisi.notation._text import BOM, ODD_SPACE, char_name, excerpt, short
from pachisi.notation.errors import RecordError, RecordProblem
from pachisi.notation.record import GameRecord, result_of
from pachisi.rules import engine
from pachisi.rules.actions import Action, IllegalActionError, InvalidActionError
from pachisi.rules.state import State

__all__ = [
    "MAX_PROBLEMS",
    "MAX_RECORD_LENGTH",
    "read_game",
    "read_game_file",
    "read_record",
    "read_record_file",
]

MAX_RECORD_LENGTH: Final = 5_000_000
"""The longest record read, in characters (and, for :func:`read_record_file`, in bytes).
A game capped at 50,000 steps, as simulations are, takes at most about 500,000 (a few
characters a move); a longer text is refused before it is read."""
MAX_PROBLEMS: Final = 100
"""After this many problems the reader stops and says so: a broken megabyte would
otherwise give a million messages."""

_MOST_COWRIES: Final = 7
_BREAK: Final = re.compile(r"\r\n|\r|\n")
_ITEM: Final = re.compile(r"[^ \t{};]+|[{};]")
_RESULT: Final = re.compile(r"team[01]|seat[0-3]|draw|\*")
_THROW: Final = re.compile(r"t([0-9]+)")
_TURN_NUMBER: Final = re.compile(r"[0-9]+\.+")
_UNKNOWN: Final = (
    "(expected a throw like t3, an action like 0a+4 or -, a turn number like 12., or a result)"
)


def read_record(text: str) -> GameRecord:
    """Read a record and replay it; :class:`RecordError` lists every problem found.

    Every bad tag line and unknown token is reported (up to :data:`MAX_PROBLEMS`). The
    moves are replayed from ``Start`` (or ``new_game`` of ``Ruleset``) up to the first
    illegal move or unknown token, after which later moves cannot be checked; the result
    is checked against the replay when it reached the end. A text longer than
    :data:`MAX_RECORD_LENGTH` is refused at once.
    """
    reader = _read(text, keep_game=False)
    return GameRecord(reader.tags, reader.moves)


def read_game(text: str) -> Game:
    """``replay(read_record(text))`` in one pass, so in half the time: the
    :class:`~pachisi.game.Game` after every move, with its whole move stack.

    The problems are those of :func:`read_record`, with their lines and columns.
    """
    reader = _read(text, keep_game=True)
    assert reader.game is not None  # a record without problems has a start
    return reader.game


def read_record_file(path: str | os.PathLike[str]) -> GameRecord:
    """:func:`read_record` of the UTF-8 file at ``path``; see :func:`read_game_file`."""
    return read_record(_read_file(path))


def read_game_file(path: str | os.PathLike[str]) -> Game:
    """:func:`read_game` of the UTF-8 file at ``path``, refused before it is read if it is
    larger than :data:`MAX_RECORD_LENGTH` bytes.

    Bytes that are not UTF-8 give a :class:`RecordError` at their line and column; a file
    that cannot be opened raises its ``OSError``.
    """
    return read_game(_read_file(path))


def _read(text: str, *, keep_game: bool) -> _Reader:
    if len(text) > MAX_RECORD_LENGTH:
        message = f"a record of {len(text):,} characters (the limit is {MAX_RECORD_LENGTH:,})"
        raise RecordError([RecordProblem(0, 0, message)])
    reader = _Reader(keep_game=keep_game)
    try:
        reader.read(text)
    except _TooMany as stop:
        message = f"stopped reading here after {MAX_PROBLEMS} problems"
        reader.problems.append(RecordProblem(stop.line, stop.column, message))
    if reader.problems:
        raise RecordError(sorted(reader.problems, key=lambda p: (p.line, p.column)))
    return reader


def _read_file(path: str | os.PathLike[str]) -> str:
    """The text of a record file, checked for size before it is read and for UTF-8."""
    data = b""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size <= MAX_RECORD_LENGTH:
            # A pipe or a growing file may hold more than its size said.
            data = f.read(MAX_RECORD_LENGTH + 1)
            size = len(data)
    if size > MAX_RECORD_LENGTH:
        message = f"a record file of {size:,} bytes (the limit is {MAX_RECORD_LENGTH:,})"
        raise RecordError([RecordProblem(0, 0, message)])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8")
        lines = _BREAK.split(before.removeprefix(BOM))
        message = f"not UTF-8 text (byte 0x{data[exc.start]:02x})"
        raise RecordError([RecordProblem(len(lines), len(lines[-1]) + 1, message)]) from None


@lru_cache(maxsize=4096)
def _action(text: str) -> Action:
    # One object per distinct action text: a long record repeats a few hundred actions,
    # and an Action takes about 150 bytes against a list slot's 8.
    return Action.parse(text)


class _TooMany(Exception):
    """Raised to stop reading once :data:`MAX_PROBLEMS` problems are found."""

    def __init__(self, line: int, column: int) -> None:
        super().__init__(line, column)
        self.line = line
        self.column = column


class _Reader:
    """One reading of one record: the problems, tags and moves found so far, and the replay.

    ``state`` is the replayed state, or ``None`` once the replay has stopped (no start, an
    illegal move, or a bad token after which a move may be missing).
    """

    def __init__(self, *, keep_game: bool) -> None:
        self.keep_game = keep_game
        self.game: Game | None = None
        self.problems: list[RecordProblem] = []
        self.tags: dict[str, str] = {}
        self.where: dict[str, tuple[int, int]] = {}
        self.moves: list[Action | int] = []
        self.state: State | None = None
        self.cowries: int | None = None
        self.result: tuple[str, int, int] | None = None
        self.opened: tuple[int, int] | None = None

    def add(self, line: int, column: int, message: str) -> None:
        self.problems.append(RecordProblem(line, column, message))
        if len(self.problems) >= MAX_PROBLEMS:
            raise _TooMany(line, column)

    def read(self, text: str) -> None:
        lines = self._lines(text)
        for number, line in lines:
            if not is_header_line(line):
                self._start()
                self._movetext(chain([(number, line)], lines))
                break
            if line.strip(" \t"):
                read_tag(line, number, self.tags, self.where, self.problems)
                if len(self.problems) >= MAX_PROBLEMS:
                    raise _TooMany(number, 1)
        else:
            self._start()
        if self.opened is not None:
            self.add(*self.opened, "comment '{' is never closed")
        if self.state is not None:
            self._check_result(self.state)

    def _lines(self, text: str) -> Iterator[tuple[int, str]]:
        """Each line with its number, odd blanks reported and made spaces; a byte-order
        mark at the start is skipped, so columns count as an editor shows them."""
        start = 1 if text.startswith(BOM) else 0
        number = 1
        # Only real line breaks count, so that line numbers match what an editor shows.
        for m in _BREAK.finditer(text, start):
            yield number, self._clean(number, text[start : m.start()])
            start = m.end()
            number += 1
        yield number, self._clean(number, text[start:])

    def _clean(self, number: int, line: str) -> str:
        if ODD_SPACE.search(line) is None:
            return line
        for m in ODD_SPACE.finditer(line):
            message = (
                f"{char_name(m.group())} is not allowed in a record "
                "(separate with spaces, tabs or line breaks)"
            )
            self.add(number, m.start() + 1, message)
        return ODD_SPACE.sub(" ", line)

    def _start(self) -> None:
        """Check the Result tag's syntax and find the start state, once the tags are read."""
        if "Result" in self.tags and not _RESULT.fullmatch(self.tags["Result"]):
            value = excerpt(self.tags["Result"])
            self.add(
                *self.where["Result"], f"Result {value} is not team0, team1, seat0..3, draw or *"
            )
        self.state = start_from(self.tags, self.where, self.problems)
        if self.state is not None:
            self.cowries = self.state.ruleset.cowries
            if self.keep_game:
                self.game = Game(self.state.ruleset, state=self.state)

    def _movetext(self, lines: Iterator[tuple[int, str]]) -> None:
        """Every token, with ``{...}`` and ``;`` comments skipped."""
        for number, line in lines:
            i = 0
            if self.opened is None and line.lstrip(" \t").startswith("["):
                column = len(line) - len(line.lstrip(" \t")) + 1
                self.add(number, column, "tag line after the movetext")
                continue
            while True:
                if self.opened is not None:
                    close = line.find("}", i)
                    if close < 0:
                        break
                    self.opened = None
                    i = close + 1
                m = _ITEM.search(line, i)
                if m is None:
                    break
                i = m.end()
                t = m.group()
                if t == "{":
                    self.opened = (number, m.start() + 1)
                elif t == ";":
                    break
                elif t == "}":
                    self.add(number, m.start() + 1, "'}' without a matching '{'")
                else:
                    self._token(t, number, m.start() + 1)

    def _token(self, t: str, line: int, column: int) -> None:
        if _TURN_NUMBER.fullmatch(t):
            return
        if self.result is not None:
            self.add(line, column, f"{excerpt(t)} after the result {self.result[0]}")
            return
        if _RESULT.fullmatch(t):
            self.result = (t, line, column)
            tag = self.tags.get("Result")
            if tag is not None and t != tag:
                message = f"result token {t} differs from the Result tag {short(tag)}"
                self.add(line, column, message)
            return
        move = self._move(t, line, column)
        if move is None:
            # A bad token: a move may be missing here, so later ones cannot be checked.
            self.state = None
            return
        if not self.problems and not self.keep_game:
            # A record with a problem is never returned, so its moves need not be kept.
            self.moves.append(move)
        if self.state is not None:
            try:
                if self.game is not None:
                    self.game.push(move)
                    self.state = self.game.state
                else:
                    self.state, _ = engine.apply(self.state, move)
            except IllegalActionError as exc:
                self.add(line, column, illegal(self.state, move, str(exc)))
                self.state = None

    def _move(self, t: str, line: int, column: int) -> Action | int | None:
        """The throw or action ``t`` is, or ``None`` (reported) if it is neither."""
        throw = _THROW.fullmatch(t)
        if throw:
            digits = throw.group(1)
            # Never int() a long digit string: Python refuses those past 4,300 digits.
            k = int(digits) if len(digits) <= 2 else _MOST_COWRIES + 1
            n = self.cowries
            if k > (_MOST_COWRIES if n is None else n):
                what = (
                    f"a throw of {n} cowries has t0..t{n} mouths up"
                    if n is not None
                    else f"no ruleset throws more than {_MOST_COWRIES} cowries"
                )
                self.add(line, column, f"{short(t)}: {what}")
                return None
            return k
        try:
            return _action(t)
        except InvalidActionError:
            self.add(line, column, f"unknown token {excerpt(t)} {_UNKNOWN}")
            return None

    def _check_result(self, state: State) -> None:
        """The claimed result (the tag, else the result token) must be the replayed one."""
        if "Result" in self.tags:
            claimed = self.tags["Result"]
            line, col = self.where["Result"]
        elif self.result is not None:
            claimed, line, col = self.result
        else:
            return
        actual = result_of(state)
        if claimed != actual:
            message = f"Result is {short(claimed)} but the replayed game gives {actual}"
            self.add(line, col, message)
