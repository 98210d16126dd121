"""The documentation's Python code blocks, as the docs' convention writes them.

A ```` ```python ```` block runs unless the line right before its fence is
``<!-- not run: REASON -->``; a line ``print(...)  # text`` states the line that print
writes. tests/docs/test_code_blocks.py runs every page's blocks by it, and
tests/env/test_docs_examples.py those of docs/rl.md with checks of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.*?)\s*-->\s*\Z", re.DOTALL)
PRINTED = re.compile(r"^\s*print\(.*\)\s+# (.*)$")


@dataclass(frozen=True)
class Block:
    """One ``python`` block of a page: its code, its first line, and why it is not run."""

    code: str
    line: int
    not_run: str | None


def blocks(text: str) -> Iterator[Block]:
    """The ``python`` blocks of a Markdown text, in order."""
    for found in FENCE.finditer(text):
        before = text[: found.start()].rstrip("\n")
        last = before.rsplit("\n", 1)[-1]
        mark = NOT_RUN.search(last)
        line = text.count("\n", 0, found.start()) + 2
        yield Block(found.group(1), line, mark.group(1) if mark else None)
