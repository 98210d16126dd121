"""The characters both notations share: what separates, what is refused, and how a long bad
input is quoted in an error message."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

BOM: Final = "\ufeff"
"""The byte-order mark some editors put at the start of a UTF-8 file; skipped there."""

ODD_SPACE: Final = re.compile(r"[^\S \t\r\n]")
"""Whitespace that is neither a separator nor a line break in either notation: U+2028,
U+2029, U+0085, U+00A0, vertical tab, form feed and the like. Python's ``str.split()``
and ``\\s`` take them as blanks and some editors as line breaks, so a text holding one
would not mean the same to every reader: it is refused."""

_EXCERPT: Final = 24
_NAMES: Final = {"\x0b": "VERTICAL TAB", "\x0c": "FORM FEED", "\x85": "NEXT LINE"}


def excerpt(text: str) -> str:
    """``text`` quoted for an error message, cut short if it is long (a bad token may be a
    whole megabyte)."""
    if len(text) <= _EXCERPT:
        return repr(text)
    return repr(text[:_EXCERPT]) + f"... ({len(text):,} characters)"


def short(text: str) -> str:
    """``text`` as it is if it is short, else an :func:`excerpt` of it."""
    return text if len(text) <= _EXCERPT else excerpt(text)


def char_name(c: str) -> str:
    """``U+2028 (LINE SEPARATOR)``: a character named so that an invisible one can be found."""
    name = _NAMES.get(c) or unicodedata.name(c, "")
    return f"U+{ord(c):04X}" + (f" ({name})" if name else "")
