"""Reading a game record: :func:`read_record`, a forgiving reader that reports every problem.

docs/notation.md section 2.4 describes its steps and messages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from pachisi.notation._start import illegal, start_from
from pachisi.notation.errors import RecordError, RecordProblem
from pachisi.notation.record import GameRecord, result_of
from pachisi.rules import engine
from pachisi.rules.actions import Action, IllegalActionError, InvalidActionError
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State

__all__ = ["read_record"]

_RESULT: Final = re.compile(r"team[01]|seat[0-3]|draw|\*")
_TAG_LINE: Final = re.compile(r'\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_THROW: Final = re.compile(r"t(\d{1,4})")
_TURN_NUMBER: Final = re.compile(r"\d+\.+")


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
    state = start_from(tags, where, problems)
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
            problems.append(RecordProblem(token.line, token.column, illegal(state, move, str(exc))))
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
