"""The code blocks of docs/rl.md run, and print what their comments say (issue 6, item 4)."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import gymnasium
import pytest

from tests.docs.blocks import PRINTED, Block, blocks

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def _all_blocks() -> list[Block]:
    """Every python block of the page."""
    return list(blocks(DOC.read_text(encoding="utf-8")))


def _blocks() -> list[str]:
    """The blocks that run: all but those marked as not run."""
    return [block.code for block in _all_blocks() if block.not_run is None]


def _run(code: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {"__name__": "rl_doc_example"})
    return out.getvalue().splitlines()


def test_the_page_has_its_examples() -> None:
    blocks = _blocks()
    assert len(blocks) == 5
    assert any("agent_iter" in b for b in blocks)
    assert any("pachisi/Pachisi-v0" in b for b in blocks)
    assert "action_masks()" in blocks[3]
    assert any("PachisiVectorEnv" in b and "lr=" in b for b in blocks)
    # The one block not run needs the `train` extra, and says so.
    (skipped,) = [block for block in _all_blocks() if block.not_run is not None]
    assert "train extra" in (skipped.not_run or "") and "MaskablePPO" in skipped.code


@pytest.mark.parametrize("index", range(4), ids=["batch", "aec", "gymnasium", "action-masks"])
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
    code = _blocks()[4]
    (line,) = _run(code)
    found = re.fullmatch(r"win rate before (\d\.\d\d), after (\d\.\d\d)", line)
    assert found, line
    before, after = float(found.group(1)), float(found.group(2))
    # The untrained policy is uniform over the legal actions: about even with random play.
    assert 0.3 <= before <= 0.7
    assert after >= before + 0.25


def _check_env_output(code: str) -> str:
    """What ``check_env`` prints (to standard error) in a new Python, as on the page."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout == ""
    return done.stderr


def test_the_page_says_exactly_what_check_env_prints() -> None:
    """Each case of section 7's `check_env` commands prints what the page shows: nothing
    for the unwrapped environment, one warning of Gymnasium's for the other two. The page
    shows the path of a checkout at /work/main, and the yellow colour codes are not shown."""
    text = DOC.read_text(encoding="utf-8")
    cases = re.findall(
        r"```sh\n\$ \.venv/bin/python -c '(.*?check_env\(.*?)'\n(.*?)```", text, re.S
    )
    assert len(cases) == 3
    site = Path(gymnasium.__file__).parent.parent
    for code, shown in cases:
        printed = _check_env_output(code).replace("\x1b[33m", "").replace("\x1b[0m", "")
        expected = "" if shown == "$\n" else shown
        assert printed == expected.replace(
            "/work/main/.venv/lib/python3.11/site-packages", str(site)
        )
    assert cases[0][1] == "$\n" and ".unwrapped" in cases[0][0]
