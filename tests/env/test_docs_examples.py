"""The code blocks of docs/rl.md run, and print what their comments say (issue 6, item 4)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
# `print(...)  # text`: the comment is exactly the line the print writes.
PRINTED = re.compile(r"^\s*print\(.*\)\s+# (.*)$")


def _blocks() -> list[str]:
    return BLOCK.findall(DOC.read_text(encoding="utf-8"))


def _run(code: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {"__name__": "rl_doc_example"})
    return out.getvalue().splitlines()


def test_the_page_has_its_examples() -> None:
    blocks = _blocks()
    assert len(blocks) == 4
    assert any("agent_iter" in b for b in blocks)
    assert any("pachisi/Pachisi-v0" in b for b in blocks)
    assert any("PachisiVectorEnv" in b and "lr=" in b for b in blocks)


@pytest.mark.parametrize("index", range(3), ids=["batch", "aec", "gymnasium"])
def test_example_prints_what_the_page_says(index: int) -> None:
    code = _blocks()[index]
    prints = [line for line in code.splitlines() if line.lstrip().startswith("print(")]
    lines = _run(code)
    assert len(lines) == len(prints)
    checked = 0
    for line, printed in zip(prints, lines, strict=True):
        expected = PRINTED.match(line)
        if expected:
            assert printed == expected.group(1), line
            checked += 1
    assert checked == len(prints)  # every print of these examples shows its output


def test_training_example_learns() -> None:
    code = _blocks()[3]
    (line,) = _run(code)
    found = re.fullmatch(r"win rate before (\d\.\d\d), after (\d\.\d\d)", line)
    assert found, line
    before, after = float(found.group(1)), float(found.group(2))
    # The untrained policy is uniform over the legal actions: about even with random play.
    assert 0.3 <= before <= 0.7
    assert after >= before + 0.25
