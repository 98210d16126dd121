"""Tag lines, ``[Key "value"]``, both ways: written by the record writer, read (with the
column where a broken one goes wrong) by the record reader."""

from __future__ import annotations

import re
from typing import Final

from pachisi.notation._text import ODD_SPACE, char_name, excerpt, short
from pachisi.notation.errors import RecordError, RecordProblem

_KEY: Final = re.compile(r"[A-Za-z0-9_]+")
_LINE: Final = re.compile(r'\[([A-Za-z0-9_]+)[ \t]+"((?:[^"\\]|\\.)*)"[ \t]*\]')
_PREFIX: Final = re.compile(r'\[([A-Za-z0-9_]*)([ \t]*)("(?:[^"\\]|\\.)*"?)?')
_ESCAPED: Final = re.compile(r"\\(.)")


def tag_line(key: str, value: str) -> str:
    """``[key "value"]`` with ``"`` and ``\\`` escaped; :class:`RecordError` if the reader
    could not read it back."""
    if not _KEY.fullmatch(key):
        message = f"tag name {excerpt(key)} must be letters, digits, _"
        raise RecordError([RecordProblem(0, 0, message)])
    if "\n" in value or "\r" in value:
        raise RecordError([RecordProblem(0, 0, f"tag {key}: the value must be one line")])
    odd = ODD_SPACE.search(value)
    if odd:
        message = f"tag {key}: {char_name(odd.group())} is not allowed in a record"
        raise RecordError([RecordProblem(0, 0, message)])
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{key} "{escaped}"]'


def is_header_line(line: str) -> bool:
    """Blank, or looks like a tag pair, even a broken one: ``[...`` or ``..."...]``."""
    stripped = line.strip(" \t")
    return (
        not stripped
        or stripped.startswith("[")
        or (stripped.endswith("]") and '"' in stripped and "{" not in stripped)
    )


def read_tag(
    raw: str,
    line: int,
    tags: dict[str, str],
    where: dict[str, tuple[int, int]],
    problems: list[RecordProblem],
) -> None:
    """Read one tag line into ``tags`` (and where its value starts into ``where``)."""
    stripped = raw.lstrip(" \t")
    indent = len(raw) - len(stripped)
    stripped = stripped.rstrip(" \t")
    m = _LINE.fullmatch(stripped)
    if not m:
        message = f'malformed tag line {excerpt(stripped)}; expected [Key "value"]'
        problems.append(RecordProblem(line, indent + 1 + _fault(stripped), message))
        return
    key = m.group(1)
    if key in tags:
        problems.append(RecordProblem(line, indent + 2, f"tag {short(key)} is given twice"))
        return
    tags[key] = _ESCAPED.sub(r"\1", m.group(2))
    where[key] = (line, indent + 1 + m.start(2))


def _fault(text: str) -> int:
    """The 0-based offset in a bad tag line where it stops looking like ``[Key "value"]``."""
    m = _PREFIX.match(text)
    if m is None:
        return 0
    if not m.group(1):
        return 1
    if not m.group(2) or m.group(3) is None:
        return m.end(1)
    if not m.group(3).endswith('"') or len(m.group(3)) < 2:
        return len(text)
    return m.end()
