"""The C yardstick (../shared/yardstick/race.c): a plain C loop over simplified Pachisi, the
fastest a random playout can be on this machine. Compiled here with the machine's gcc, run
for a given number of games, and read back as decisions per second, for the same-run
ratios of bench/fast.py (issue 22: ``ludii`` must reach 40% of its decisions/s).

    .venv/bin/python bench/yardstick.py [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1].parent / "shared" / "yardstick" / "race.c"
"""Where the yardstick's source sits: beside the checkout, in the shared folder."""


class YardstickMissing(RuntimeError):
    """The yardstick cannot run here: no source beside the checkout, or no C compiler."""


@cache
def binary() -> Path:
    """The compiled yardstick, built once per process in a temporary folder."""
    if not SOURCE.is_file():
        raise YardstickMissing(f"no yardstick source at {SOURCE}")
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise YardstickMissing("no C compiler (gcc or cc) to build the yardstick")
    out = Path(tempfile.mkdtemp(prefix="pachisi-yardstick-")) / "race"
    subprocess.run(
        [compiler, "-O2", "-march=native", "-o", str(out), str(SOURCE)],
        check=True,
        capture_output=True,
    )
    return out


def decisions_per_second(games: int = 200_000, seed: int = 1) -> float:
    """One run of ``race cowrie``: its decisions per second."""
    done = subprocess.run(
        [str(binary()), "cowrie", str(games), str(seed)],
        check=True,
        capture_output=True,
        text=True,
    )
    found = re.search(r"decisions/s=([0-9.]+)", done.stdout)
    if found is None:
        raise YardstickMissing(f"unexpected yardstick output: {done.stdout!r}")
    return float(found.group(1))


def best(games: int = 200_000, rounds: int = 3) -> float:
    """The best of ``rounds`` runs (this machine is shared and noisy: the best is its speed)."""
    return max(decisions_per_second(games, seed=1 + r) for r in range(rounds))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    try:
        print(f"race cowrie: {best(args.games, args.rounds) / 1e6:.1f} M decisions/s")
    except YardstickMissing as missing:
        print(f"yardstick: {missing}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
