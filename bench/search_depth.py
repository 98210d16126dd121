"""What each level of ``expert``'s compiled search costs: positions visited and seconds per
search, by depth, and the reference search's seconds for the same searches.

Positions are decisions with a real choice from greedy games (as in ``ai_latency.py``); each
is searched once per depth with no budget limit.

    .venv/bin/python bench/search_depth.py [--ruleset NAME ...] [--depth D ...]
        [--positions N] [--reference]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from ai_latency import positions
from pachisi.ai.budget import Budget
from pachisi.ai.compiled_expectimax import CompiledExpectimaxPlayer
from pachisi.ai.expectimax import ExpectimaxPlayer
from pachisi.ai.learned.value import LearnedEvaluation
from pachisi.rules.state import State

UNLIMITED = Budget(playouts=10**12)


def _search(player: CompiledExpectimaxPlayer, state: State) -> tuple[int, float]:
    """The positions one search visits, every level counted, and its seconds."""
    start = time.perf_counter()
    player.rank(state, random.Random(0), UNLIMITED)
    return player.visited, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="default: classic")
    parser.add_argument("--depth", action="append", type=int, help="default: 2, 3 and 4")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--every", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", action="store_true", help="time the reference search too")
    args = parser.parse_args(argv)
    print("$ .venv/bin/python bench/search_depth.py " + " ".join(sys.argv[1:]))
    head = f"{'ruleset':<26}{'depth':>5}{'positions':>11}{'max':>8}{'median s':>10}{'max s':>8}"
    print(head + (f"{'reference median s':>20}" if args.reference else ""))
    for name in args.ruleset or ["classic"]:
        states = positions(name, args.positions, args.every, args.seed)
        for depth in args.depth or [2, 3, 4]:
            compiled = CompiledExpectimaxPlayer(max_depth=depth)
            runs = [_search(compiled, state) for state in states]
            counts = [n for n, _ in runs]
            times = [t for _, t in runs]
            line = (
                f"{name:<26}{depth:>5}{statistics.median(counts):>11.0f}{max(counts):>8}"
                f"{statistics.median(times):>10.4f}{max(times):>8.4f}"
            )
            if args.reference:
                reference = ExpectimaxPlayer(evaluate=LearnedEvaluation(), max_depth=depth)
                slow = []
                for state in states:
                    start = time.perf_counter()
                    reference.rank(state, random.Random(0), UNLIMITED)
                    slow.append(time.perf_counter() - start)
                line += f"{statistics.median(slow):>20.4f}"
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
