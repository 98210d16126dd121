"""The style sheet's blocks close where they should.

A brace lost in a merge is no syntax error to a browser: everything after it silently nests
inside the block left open (a ``@media`` for narrow screens, say), and rules meant for every
screen apply to some only. This walks ``pachisi.css`` outside its comments and strings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SHEETS = sorted((Path(__file__).parents[2] / "src" / "pachisi" / "web" / "static").rglob("*.css"))
_SKIPPED = re.compile(r"/\*.*?\*/|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'", re.S)


def nesting_faults(text: str) -> list[str]:
    """Where a sheet's braces go wrong: a ``}`` with nothing open, an at-rule or a rule
    opened inside a rule, a ``@media`` inside another block, or blocks left open at the end."""
    faults: list[str] = []
    # Comments and strings go, newlines kept, so that line numbers stay right.
    plain = _SKIPPED.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    open_blocks: list[tuple[str, int]] = []
    line = 1
    start = 0
    for index, char in enumerate(plain):
        if char == "\n":
            line += 1
        elif char == "{":
            head = plain[start:index].strip()
            if open_blocks and not open_blocks[-1][0].startswith("@"):
                faults.append(
                    f"line {line}: {head!r} opened inside the rule {open_blocks[-1][0]!r}"
                )
            if head.startswith("@media") and open_blocks:
                faults.append(f"line {line}: {head!r} inside {open_blocks[-1][0]!r}")
            open_blocks.append((head, line))
            start = index + 1
        elif char == "}":
            if not open_blocks:
                faults.append(f"line {line}: a '}}' with no block open")
            else:
                open_blocks.pop()
            start = index + 1
        elif char == ";" and open_blocks and open_blocks[-1][0].startswith("@"):
            start = index + 1
    faults.extend(f"line {at}: {head!r} is never closed" for head, at in open_blocks)
    return faults


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda path: path.name)
def test_every_block_closes_where_it_should(sheet: Path) -> None:
    assert nesting_faults(sheet.read_text(encoding="utf-8")) == []


def test_a_lost_brace_is_found() -> None:
    sound = "@media (max-width: 40rem) {\n  .a { color: red; }\n}\n.b { color: blue; }\n"
    assert nesting_faults(sound) == []
    lost = sound.replace("}\n.b", "\n.b", 1) + "@media (pointer: coarse) { .c { top: 0; } }\n"
    faults = nesting_faults(lost)
    assert any("inside '@media (max-width: 40rem)'" in fault for fault in faults)
    assert any("never closed" in fault for fault in faults)
    assert nesting_faults(".a { color: red; }}") == ["line 1: a '}' with no block open"]
    # Braces in comments and strings are no blocks.
    assert nesting_faults('/* { */ .a::before { content: "}"; }') == []
