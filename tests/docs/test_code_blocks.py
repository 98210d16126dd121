"""Every Python code block of the documentation runs, and prints what it says it prints.

The pages are README.md and every page of the documentation site (``docs/**/*.md``). A page's
```` ```python ```` blocks run in order, in one namespace, from the repository's root, so a
later block may use what an earlier one made. A block is left out only when the line right
before its fence is ``<!-- not run: REASON -->``, and the reason must say something. A
line ``print(...)  # text`` states what that print writes: the line it prints must be
exactly ``text``.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

from tests.docs.blocks import PRINTED, Block, blocks

ROOT = Path(__file__).resolve().parents[2]
TESTED_ELSEWHERE = {
    "docs/rl.md": "tests/env/test_docs_examples.py, which also checks that the training learns",
}
"""Pages whose blocks another test runs, with more checks than this one: the test that does."""


def pages() -> list[Path]:
    """README.md and the documentation site's pages."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _pages_with_blocks() -> list[Path]:
    return [p for p in pages() if any(True for _ in blocks(p.read_text(encoding="utf-8")))]


def test_the_reader_finds_blocks_and_their_marks() -> None:
    text = (
        "Intro.\n\n```python\nprint(1)  # 1\n```\n\n<!-- not run: needs a server -->\n"
        "```python\nserve()\n```\n\n```sh\nls\n```\n"
    )
    found = list(blocks(text))
    assert [b.code for b in found] == ["print(1)  # 1\n", "serve()\n"]
    assert [b.not_run for b in found] == [None, "needs a server"]
    assert found[0].line == 4


@pytest.mark.parametrize("path", _pages_with_blocks(), ids=_name)
def test_every_block_runs_or_says_why_not(path: Path) -> None:
    name = _name(path)
    found = list(blocks(path.read_text(encoding="utf-8")))
    for block in found:
        if block.not_run is not None:
            assert block.not_run.strip(), f"{name}:{block.line}: 'not run' needs a reason"
    if name in TESTED_ELSEWHERE:
        pytest.skip(f"run by {TESTED_ELSEWHERE[name]}")
    namespace: dict[str, object] = {"__name__": f"docs_{path.stem.replace('-', '_')}"}
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        for block in found:
            if block.not_run is not None:
                continue
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                try:
                    exec(compile(block.code, f"{name}:{block.line}", "exec"), namespace)
                except Exception as exc:
                    raise AssertionError(f"{name}:{block.line}: the block raised {exc!r}") from exc
            _check_prints(name, block, out.getvalue().splitlines())
    finally:
        os.chdir(here)


def _check_prints(name: str, block: Block, printed: list[str]) -> None:
    """Each ``print(...)  # text`` line of a block that prints once per line matches."""
    prints = [line for line in block.code.splitlines() if line.lstrip().startswith("print(")]
    stated = [PRINTED.match(line) for line in prints]
    if not any(stated):
        return
    # A print inside a loop writes more than one line: then only the count is unknown, and
    # the block must state no output, which would be ambiguous.
    assert len(printed) == len(prints), (
        f"{name}:{block.line}: {len(prints)} prints wrote {len(printed)} lines; "
        "a block that states its output must print once per print line"
    )
    for source, wanted, got in zip(prints, stated, printed, strict=True):
        if wanted is not None:
            assert got == wanted.group(1), f"{name}:{block.line}: {source.strip()} printed {got!r}"
