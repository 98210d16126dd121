"""The compiled engine against the numba engine it replaced, on the same rules, in turns.

    .venv/bin/python bench/against_numba.py --numba-tree DIR [--prepare] [--ruleset NAME ...]
        [--seconds S] [--reference-games N] [--rounds R]

Issue 22 asks every named ruleset for twice the numba engine's ratio to the reference
engine. bench/fast.py takes those ratios from the last numba figures (``NUMBA_RATIO``,
commit c43c3aa), which predate R-FROZEN and C.10b's "one outcome, one action" (c2f5029):
both engines do more work per action since, most of all ``wikipedia-full``'s spending stage
with split throws. This benchmark measures the numba engine on today's rules instead: its
last commit (4545687, just before 3f44799 removed it) has both rules. ``--prepare`` makes
DIR a worktree of that commit with its own venv and numba (``git worktree add DIR
4545687``, ``python3.11 -m venv .venv``, ``.venv/bin/pip install -c constraints.txt -e .``);
the first round then compiles the numba engine (about 10 minutes and 3.7 GB here) and
caches it.

Each round runs one process per side, numba first: its reference engine's random playouts
(``--reference-games``, bench/playouts.py, the same seed on both sides) and its compiled
random playouts (``--seconds``, batches of 256 from the start). The ratio is compiled over
reference playouts/s in the same process, as bench/fast.py reports it; each side counts its
best round. ``same games`` says whether both sides played the same games: the same actions
in 100 seeded compiled playouts and in the round's reference playouts, so that the two
ratios are of the same rules. ``faster`` is our compiled playouts/s over numba's: the
reference engine changed too since 4545687, so the ratios' quotient (``share``, issue 22's
measure) and the compiled engines' own quotient both count. ``median`` is the median of
the rounds' own shares, each from two processes run one after the other: less moved by
one lucky round on either side than the best against the best.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

WORKER = """
import json, sys, time
sys.path.insert(0, "bench")
from playouts import measure
from pachisi.rules import engine
from pachisi.rules.ruleset import get_ruleset
try:
    from pachisi.ai.playouts import playouts
except ImportError:
    from pachisi.fast.playouts import playouts
name, seconds = sys.argv[1], float(sys.argv[2])
reference_games, seed = int(sys.argv[3]), int(sys.argv[4])
ruleset = get_ruleset(name)
start = engine.new_game(ruleset)
check = int(playouts(start, 100, seed=12345).actions.sum())
ref_seconds, _, ref_actions, _ = measure(ruleset, reference_games, seed)
games = calls = 0
began = time.perf_counter()
while time.perf_counter() - began < seconds:
    playouts(start, 256, seed=seed * 1000 + calls)
    games += 256
    calls += 1
compiled = games / (time.perf_counter() - began)
print(json.dumps({"compiled": compiled, "reference": reference_games / ref_seconds,
                  "check": check, "ref_actions": ref_actions}))
"""

NUMBA_COMMIT = "4545687"
"""The last commit with the numba engine: R-FROZEN and C.10b in both engines."""
RULESETS = ("classic", "wikipedia-full", "herklots-6", "herklots-7", "tylor-1879", "ludii")


def prepare(tree: Path, python: str) -> None:
    """Make ``tree`` a worktree of :data:`NUMBA_COMMIT` with numba in its own venv."""
    here = Path(__file__).resolve().parent.parent
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(tree), NUMBA_COMMIT], cwd=here, check=True
    )
    subprocess.run([python, "-m", "venv", ".venv"], cwd=tree, check=True)
    install = [".venv/bin/pip", "install", "-q", "-c", "constraints.txt", "-e", "."]
    subprocess.run(install, cwd=tree, check=True)


def side(python: Path, tree: Path, name: str, args: argparse.Namespace, seed: int) -> Any:
    """One round of one side: its figures as the worker prints them."""
    run = subprocess.run(
        [str(python), "-c", WORKER, name, str(args.seconds), str(args.reference_games), str(seed)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numba-tree", type=Path, required=True)
    parser.add_argument("--prepare", action="store_true", help="set up --numba-tree first")
    parser.add_argument("--python", default="python3.11", help="the interpreter --prepare uses")
    parser.add_argument("--ruleset", nargs="+", default=list(RULESETS))
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--reference-games", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.prepare:
        prepare(args.numba_tree.resolve(), args.python)
    numba_python = args.numba_tree / ".venv" / "bin" / "python"
    here = Path(__file__).resolve().parent.parent
    print(f"$ .venv/bin/python bench/against_numba.py {' '.join(sys.argv[1:])}")
    print(
        f"{'ruleset':<16}{'numba po/s':>11}{'its ref':>9}{'ratio':>7}"
        f"{'ours po/s':>11}{'our ref':>9}{'ratio':>7}{'faster':>8}{'share':>7}{'median':>8}"
        f"{'wanted':>7}"
        "  same games"
    )
    for name in args.ruleset:
        # Each side's best round, its compiled and its reference engine's apart.
        best = {"numba": [0.0, 0.0], "ours": [0.0, 0.0]}
        shares = []
        same = True
        for r in range(args.rounds):
            seed = 1 + r
            # The sides take turns at going first, so that a drift of the machine's speed
            # within a round favours neither.
            first, second = (numba_python, args.numba_tree), (Path(sys.executable), here)
            if r % 2:
                first, second = second, first
            a = side(*first, name, args, seed)
            b = side(*second, name, args, seed)
            numba, ours = (b, a) if r % 2 else (a, b)
            same &= numba["check"] == ours["check"] and numba["ref_actions"] == ours["ref_actions"]
            for key, got in (("numba", numba), ("ours", ours)):
                best[key][0] = max(best[key][0], got["compiled"])
                best[key][1] = max(best[key][1], got["reference"])
            shares.append(
                ours["compiled"] / ours["reference"] / (numba["compiled"] / numba["reference"])
            )
        (numba_po, numba_ref), (our_po, our_ref) = best["numba"], best["ours"]
        numba_ratio = numba_po / numba_ref
        our_ratio = our_po / our_ref
        share = our_ratio / numba_ratio
        print(
            f"{name:<16}{numba_po:>11.0f}{numba_ref:>9.1f}{numba_ratio:>7.0f}"
            f"{our_po:>11.0f}{our_ref:>9.1f}{our_ratio:>7.0f}{our_po / numba_po:>8.2f}"
            f"{share:>7.2f}{statistics.median(shares):>8.2f}{2.0:>7.2f}"
            f"  {'yes' if same else 'NO'}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
