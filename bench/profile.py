"""Random playouts of one ruleset under ``perf``, with numba's compiled functions named.

``perf`` cannot see the names of code numba loaded from its cache, so this script writes a
``/tmp/perf-PID.map`` (perf's format for generated code) before it plays: for every kernel
of :mod:`pachisi.fast`, the symbols of its object code (``nm``) at the addresses where that
object was loaded. Linked-in copies of helpers get their own entries, so a helper that is
not inlined shows under its own name.

    perf record -e cpu-clock -o perf.data .venv/bin/python bench/profile.py RULESET SECONDS
    perf report -i perf.data --no-children --sort symbol

Needs ``perf`` and binutils' ``nm``. A development tool: it reads numba internals (the object
code kept in its cache files), which another numba version may arrange differently.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import subprocess
import sys
import tempfile
import time
from typing import Any

from numba.core import codegen
from numba.core.registry import CPUDispatcher

_load = codegen.CPUCodeLibrary._unserialize.__func__  # type: ignore[attr-defined]


def _keep_object(cls: Any, code: Any, state: Any) -> Any:
    """numba's own loader, which also keeps the object code it loads on the library."""
    library = _load(cls, code, state)
    if state[1] == "object":
        library.pachisi_object = state[2][0]
    return library


codegen.CPUCodeLibrary._unserialize = classmethod(_keep_object)  # type: ignore[assignment]

import pachisi.fast  # noqa: E402
from pachisi.fast import warm_up  # noqa: E402
from pachisi.fast.playouts import playouts  # noqa: E402
from pachisi.rules import engine  # noqa: E402
from pachisi.rules.ruleset import get_ruleset  # noqa: E402


def _symbols(obj: bytes) -> list[tuple[int, int, str, str]]:
    """(offset, size, name, kind) of every function symbol of an object file."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        out = subprocess.run(
            ["nm", "-S", "--defined-only", f.name], capture_output=True, text=True, check=True
        ).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            rows.append((int(parts[0], 16), int(parts[1], 16), parts[3], parts[2]))
    return rows


def _short(symbol: str) -> str:
    """``pachisi.fast._legal.value_uses`` from numba's mangled name."""
    name = re.sub(r"B\d+v\d+.*", "", symbol)
    name = re.sub(r"^_ZN\d+", "", name)
    return re.sub(r"\d+", ".", name)


def write_map() -> int:
    """Write perf's map of every loaded kernel; the number of functions named."""
    entries: dict[int, str] = {}
    for info in pkgutil.iter_modules(pachisi.fast.__path__):
        module = importlib.import_module(f"pachisi.fast.{info.name}")
        for kernel in vars(module).values():
            if not isinstance(kernel, CPUDispatcher):
                continue
            for result in kernel.overloads.values():
                library = result.library
                obj = getattr(library, "pachisi_object", None)
                if obj is None:
                    continue
                rows = _symbols(obj)
                # The exported symbols locate the object; the linked-in copies are local.
                base = None
                for offset, _, name, kind in rows:
                    if kind == "T":
                        base = library.get_pointer_to_function(name) - offset
                        break
                if base is None:
                    continue
                for offset, size, name, _ in rows:
                    entries[base + offset] = f"{base + offset:x} {size:x} {_short(name)}"
    with open(f"/tmp/perf-{os.getpid()}.map", "w", encoding="ascii") as f:
        f.write("".join(entries[a] + "\n" for a in sorted(entries)))
    return len(entries)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    name, seconds = argv[0], float(argv[1])
    warm_up()
    start = engine.new_game(get_ruleset(name))
    playouts(start, 4, seed=0)
    print(f"# {write_map()} compiled functions named", file=sys.stderr)
    began = time.perf_counter()
    games = 0
    while time.perf_counter() - began < seconds:
        playouts(start, 256, seed=games)
        games += 256
    print(f"# {games / (time.perf_counter() - began):.0f} playouts/s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
