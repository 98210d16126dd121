"""The commands people start most load no compiled module (issue 22, item 3).

``pachisi --help``, ``pachisi rules`` and importing :mod:`pachisi.play` need neither the
compiled engine nor the compiled players, so each runs here in a fresh interpreter under
``-X importtime``, whose report shows every module imported and, by its nesting, which
import pulled it in: a failure prints that chain, from the module at fault down to the
compiled one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src"
ENV = {**os.environ, "PYTHONPATH": str(SRC)}

COMPILED = ("pachisi.fast._core", "pachisi.ai._compiled")
"""The compiled modules none of them may load."""

CASES = {
    "pachisi --help": "from pachisi.__main__ import main; sys.argv = ['pachisi', '--help']; main()",
    "pachisi rules": "from pachisi.__main__ import main; sys.argv = ['pachisi', 'rules']; main()",
    "import pachisi.play": "import pachisi.play",
}


def imports(code: str) -> list[tuple[int, str]]:
    """The modules ``code`` imports in a fresh interpreter, as ``-X importtime`` lists them:
    (nesting depth, name), each module after the ones it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import sys\n{code}"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found: list[tuple[int, str]] = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or line.rstrip().endswith("| imported package"):
            continue
        name = line.rsplit("|", 1)[1]
        stripped = name.lstrip(" ")
        found.append(((len(name) - len(stripped)) // 2, stripped.strip()))
    return found


def chain(listed: list[tuple[int, str]], index: int) -> list[str]:
    """The imports that led to ``listed[index]``: the first module of each shallower depth
    after it (``-X importtime`` reports a module after everything it imported)."""
    depth, name = listed[index]
    path = [name]
    for later_depth, later in listed[index + 1 :]:
        if later_depth < depth:
            path.append(later)
            depth = later_depth
    return path[::-1]


def is_compiled(name: str) -> bool:
    return any(name == c or name.startswith(c + ".") for c in COMPILED)


def test_importtime_report_is_read() -> None:
    # The check below can fail only if the report is parsed: pachisi.play must be listed,
    # nested under nothing, and its own imports (pachisi.rules) under it.
    listed = imports("import pachisi.play")
    names = [name for _, name in listed]
    assert "pachisi.play" in names
    rules = names.index("pachisi.rules")
    assert chain(listed, rules)[0] in ("pachisi", "pachisi.play")


@pytest.mark.parametrize("case", CASES)
def test_loads_no_compiled_module(case: str) -> None:
    listed = imports(CASES[case])
    assert [name for _, name in listed if name == "pachisi.rules" or name == "pachisi"]
    faults: list[str] = []
    for i, (_, name) in enumerate(listed):
        if is_compiled(name):
            path = chain(listed, i)
            # Up to the first compiled module: the chain that matters, once.
            first = next(k for k, step in enumerate(path) if is_compiled(step))
            if (shown := " -> ".join(path[: first + 1])) not in faults:
                faults.append(shown)
    assert not faults, f"{case} imports compiled modules:\n" + "\n".join(faults[:5])
