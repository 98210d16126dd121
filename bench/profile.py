"""Random playouts of one ruleset for a while, to profile the compiled engine with ``perf``.

The kernels are plain C functions in ``pachisi/fast/_core*.so`` (Cython), whose symbols
``perf`` reads directly; the ones the C compiler inlined show under their callers.

    perf record -e cpu-clock -o perf.data .venv/bin/python bench/profile.py RULESET SECONDS
    perf report -i perf.data --no-children --sort symbol

A development tool. For call graphs (``perf record -g``), rebuild with frame pointers:
``CFLAGS=-fno-omit-frame-pointer .venv/bin/python setup.py build_ext --inplace``.
"""

from __future__ import annotations

import sys
import time

from pachisi.ai.playouts import playouts
from pachisi.rules import engine
from pachisi.rules.ruleset import get_ruleset


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    name, seconds = argv[0], float(argv[1])
    start = engine.new_game(get_ruleset(name))
    began = time.perf_counter()
    games = 0
    while time.perf_counter() - began < seconds:
        playouts(start, 256, seed=games)
        games += 256
    print(f"# {games / (time.perf_counter() - began):.0f} playouts/s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
