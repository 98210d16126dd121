"""The compiled engine's instructions per action, counted by callgrind: a measure of its
speed that the machine's noise does not move (this machine's speed changes by up to a
factor of two from run to run, so a change of a few percent cannot be timed reliably).

    .venv/bin/python bench/instructions.py [--games N] [--ruleset NAME ...]

For each ruleset, ``--games`` random playouts from the start (:func:`pachisi.ai.playouts`,
seed 777, one thread) run under ``valgrind --tool=callgrind`` with only the compiled call
counted (``play_seeded``: the game loop, the generators' seeding and the legal lists, moves
and checks it calls), and the count is divided by the actions played. Two builds compare by
running this on each (a git worktree holds the other one's sources and extension); the same
seed plays the same games on both, as long as the rules engine is the same. Fewer
instructions is not the same as less time (cache misses and branch mispredictions count
too), so timed figures stay those of bench/fast.py. Needs valgrind (``apt-get install
valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pachisi.rules.ruleset import NAMED

SEED = 777
PLAY = f"""
import sys
from pachisi.ai.playouts import playouts
from pachisi.rules import engine
from pachisi.rules.ruleset import get_ruleset
result = playouts(engine.new_game(get_ruleset(sys.argv[1])), int(sys.argv[2]), seed={SEED})
print(int(result.actions.sum()))
"""
COUNTED = "__pyx_pw_7pachisi_4fast_5_core_*play_seeded*"


def count(ruleset: str, games: int) -> tuple[int, int]:
    """(instructions, actions) of ``games`` playouts of ``ruleset`` under callgrind."""
    with tempfile.TemporaryDirectory(prefix="pachisi-callgrind-") as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            f"--toggle-collect={COUNTED}", sys.executable, "-c", PLAY, ruleset, str(games),
        ]  # fmt: skip
        run = subprocess.run(
            command,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
        )
        actions = int(run.stdout.split()[-1])
        summary = re.search(r"^summary:\s+(\d+)", out.read_text(), re.MULTILINE)
        if summary is None:
            raise RuntimeError(f"no instruction count in callgrind's output for {ruleset}")
        return int(summary.group(1)), actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="playouts per ruleset")
    parser.add_argument("--ruleset", action="append", help="ruleset (default: all named)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games takes a positive number")
    if shutil.which("valgrind") is None:
        print("bench/instructions.py needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    print("$ .venv/bin/python bench/instructions.py " + " ".join(sys.argv[1:]))
    print(f"{'ruleset':<16}{'games':>7}{'actions':>10}{'instructions':>15}{'per action':>12}")
    for name in args.ruleset or NAMED:
        instructions, actions = count(name, args.games)
        print(
            f"{name:<16}{args.games:>7}{actions:>10}{instructions:>15}"
            f"{instructions / actions:>12.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
