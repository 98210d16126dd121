"""Every game ends, at scale: seeded random games of many random switch combinations.

The larger run of tests/test_termination.py. The rulesets are drawn from ``SWITCHES`` by
the test tree's generator (``tests.rules.random_rulesets``), every named ruleset included;
each plays ``--games`` random games on the compiled engine (a game that outgrows its row
goes on in the reference engine) and ``--reference`` of them on the reference engine, all
under the step cap (50,000 throws and actions; no turn cap, which would cut off the slow but
finite games of rulesets whose only way in or home is a rare throw). Prints the command,
the counts of rulesets, games, steps, draws and games left unfinished, and every ruleset
with an unfinished game that is not ``deadlock=continue``; exits 1 if there is one.

    .venv/bin/python bench/termination.py [--rulesets N] [--games G] [--reference R]
        [--seed S]

Run from the repository root.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.rules.random_rulesets import random_rulesets  # noqa: E402

from pachisi.ai import make_player  # noqa: E402
from pachisi.arguments import INT32_MAX  # noqa: E402
from pachisi.rules.ruleset import NAMED  # noqa: E402
from pachisi.simulate import simulate  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", type=int, default=2000, help="random combinations")
    parser.add_argument("--games", type=int, default=50, help="games per ruleset, fast engine")
    parser.add_argument("--reference", type=int, default=2, help="games on the reference engine")
    parser.add_argument("--seed", type=int, default=1, help="seed of the ruleset generator")
    args = parser.parse_args()
    print("$ .venv/bin/python bench/termination.py " + " ".join(sys.argv[1:]), flush=True)
    bots = [make_player("random")] * 4
    rulesets = [*NAMED.values(), *random_rulesets(args.seed, args.rulesets)]
    began = time.perf_counter()
    games = steps = draws = unfinished = allowed = 0
    failures: list[str] = []
    for i, r in enumerate(rulesets):
        for engine_name, count in (("fast", args.games), ("reference", args.reference)):
            if not count:
                continue
            s = simulate(
                r, count, args.seed + i, bots, engine_name=engine_name, max_turns=INT32_MAX
            )
            games += s.games
            steps += s.throws + s.actions
            draws += s.draws
            if s.unfinished and r.deadlock == "continue":
                allowed += s.unfinished
            elif s.unfinished:
                unfinished += s.unfinished
                failures.append(f"{r} ({engine_name}): {s.unfinished} of {s.games} unfinished")
    seconds = time.perf_counter() - began
    print(
        f"rulesets {len(rulesets):,} ({len(NAMED)} named), games {games:,}, steps {steps:,}, "
        f"draws {draws:,}, unfinished {unfinished:,} "
        f"(and {allowed:,} under deadlock=continue, as allowed), {seconds:,.0f} s"
    )
    for line in failures:
        print("  " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
