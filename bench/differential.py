"""Differential check of the compiled engine against the reference, on many seeded games.

For every named ruleset, games with seeds S, S+1, ..., S+N-1 are played in both engines at
once by the harness of the differential tests (``tests.fast.differential.play_both``): at
every step both engines must list the same legal actions in the same order, and after the
same throw or action reach the same state with the same events. The script imports that
harness rather than copying it, so the benchmark compares exactly what the tests compare.
Prints the command, then one line per ruleset (games, steps compared, games with a
mismatch, seconds), and the first mismatch of each ruleset that has one; exits 1 if any.

    .venv/bin/python bench/differential.py [--games N] [--seed S] [--ruleset NAME]...
        [--combos] [--workers K]

Run from the repository root. With ``--workers K`` the seeds of each ruleset are cut into K
ranges played in K processes ("spawn" start method); the seconds are the wall time of the
ruleset. ``--combos`` checks issue 22's 20 switch combinations (:data:`SWITCH_COMBOS`), after
the rulesets given (none by default).
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

# The harness lives in the test tree, which is not installed: import it from the repository
# root (also in the worker processes, which import this module again).
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fast.differential import play_both  # noqa: E402

from pachisi.rules.ruleset import NAMED, parse_ruleset  # noqa: E402

CHUNK = 250
"""Seeds per task: small tasks keep the workers busy to the end, and a worker whose parent
was killed stops after its task rather than playing thousands of games for nobody."""

SWITCH_COMBOS = (
    "wikipedia-full+stacking=none",
    "classic+stacking=none+kill_before_home=seat",
    "classic+cowries=7",
    "classic+entry_mode=count_from_charkoni+first_piece_free=square1",
    "classic+throw_usage=collect+triple_cancel=same",
    "classic+split_throw=split+kill_before_home=team",
    "classic+split_throw=group+castle_mode=coexist",
    "classic+moves_compulsory=true+unusable_throw=forfeit_turn",
    "classic+capture_scope=top_one+stack_immune=true",
    "classic+capture_bonus=false+kill_before_home=seat+recapture_annul=true",
    "classic+pyada=true+pyada_use=attached+pyada_can_enter=true",
    "classic+players=2",
    "classic+teams=individual+kill_before_home=seat",
    "classic+finished_seat=throw_for_partner+extra_lap=true",
    "classic+blockade=true",
    "classic+stacking=castles_only",
    "herklots-7+kill_before_home=team",
    "tylor-1879+grace_must_enter=true",
    "classic+first_player=seat0+triple_cancel=group+triple_scope=turn",
    "wikipedia-full+castle_mode=inert+blockade=true",
)
"""Issue 22's 20 switch combinations beside the named rulesets (``--combos``): castles,
stacking, captures, splits, collecting, pyadas, teams, laps, blockades, entry and
first-player rules away from their defaults, ``stacking=none`` with R-FROZEN first."""

MAX_STEPS = 60_000
"""play_both's cap on throws and actions; random games take 400 to 1,600 steps."""


@dataclass
class Tally:
    """What one range of seeds (or a whole ruleset) found."""

    games: int = 0
    steps: int = 0
    mismatches: int = 0
    unfinished: int = 0
    first: tuple[int, int, str] | None = None
    """(seed, step, difference) of the lowest seed with a mismatch."""

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.steps += other.steps
        self.mismatches += other.mismatches
        self.unfinished += other.unfinished
        if other.first is not None and (self.first is None or other.first < self.first):
            self.first = other.first


def check_seeds(rules: str, start: int, stop: int, max_steps: int = MAX_STEPS) -> Tally:
    """Play the games of seeds ``start .. stop - 1`` in both engines."""
    tally = Tally()
    for seed in range(start, stop):
        try:
            problem, steps = play_both(rules, seed, max_steps)
        except Exception as exc:  # a kernel or conversion failing is a mismatch too
            problem, steps = f"{type(exc).__name__}: {exc}", -1
        tally.games += 1
        tally.steps += max(steps, 0)
        if problem:
            tally.mismatches += 1
            if tally.first is None:
                tally.first = (seed, steps, problem)
        elif steps >= max_steps:
            tally.unfinished += 1
    return tally


def _ranges(start: int, games: int, parts: int) -> list[tuple[int, int]]:
    """``games`` seeds from ``start`` cut into at most ``parts`` contiguous ranges."""
    parts = max(1, min(parts, games))
    bounds = [start + games * i // parts for i in range(parts + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(parts) if bounds[i] < bounds[i + 1]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per ruleset")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--ruleset", action="append", help="ruleset (default: all named)")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument(
        "--combos", action="store_true", help="the 20 switch combinations (SWITCH_COMBOS)"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers take a positive number")
    names = [
        *(args.ruleset or ([] if args.combos else NAMED)),
        *(SWITCH_COMBOS if args.combos else ()),
    ]
    for name in names:
        try:
            parse_ruleset(name)
        except ValueError as exc:
            parser.error(f"--ruleset {name}: {exc}")
    print("$ .venv/bin/python bench/differential.py " + " ".join(sys.argv[1:]), flush=True)

    print(
        f"# python {platform.python_version()}, {platform.machine()}, {args.workers} worker(s)",
        flush=True,
    )
    width = max(16, *(len(n) + 2 for n in names))
    print(
        f"{'ruleset':<{width}}{'games':>8}{'steps':>12}{'mismatches':>12}{'seconds':>10}",
        flush=True,
    )

    firsts: list[tuple[str, tuple[int, int, str]]] = []
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.workers, mp_context=context) as pool:
        for name in names:
            begin = time.perf_counter()
            total = Tally()
            parts = max(args.workers, -(-args.games // CHUNK))
            ranges = _ranges(args.seed, args.games, parts)
            futures = [pool.submit(check_seeds, name, lo, hi) for lo, hi in ranges]
            for future in futures:
                total.add(future.result())
            seconds = time.perf_counter() - begin
            note = (
                f"  ({total.unfinished} stopped at {MAX_STEPS} steps)" if total.unfinished else ""
            )
            print(
                f"{name:<{width}}{total.games:>8}{total.steps:>12}{total.mismatches:>12}"
                f"{seconds:>10.1f}{note}",
                flush=True,
            )
            if total.first is not None:
                firsts.append((name, total.first))

    for name, (seed, step, problem) in firsts:
        where = f"step {step}" if step >= 0 else "an exception"
        print(f"\nfirst mismatch of {name}: seed {seed}, {where}\n{problem}")
    return 1 if firsts else 0


if __name__ == "__main__":
    raise SystemExit(main())
