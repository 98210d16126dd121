"""The compiled engine's speed (issues 6 and 22): random playouts per second at batch sizes
1, 64 and 4096, the batch API's steps, the cost of one playouts call, and the ratio to the
reference engine measured in the same run. Single process, single core, except the
threads row of issue 22's targets.

    .venv/bin/python bench/fast.py [--seconds S] [--ruleset NAME ...] [--reference-games N]

Playouts are complete random games from the start position (every action uniform among the
legal ones, declines included), as bench/playouts.py plays them on the reference engine.
Each figure is the best of three timed rounds of about ``--seconds`` each (the reference
engine's: of three runs of ``--reference-games`` playouts).

Then the targets of issue 6, in this run's units. Ludii itself cannot run here, and this
machine's speed changes by up to a factor of two from session to session and even from
second to second, so Ludii's rate is estimated from the reference engine's ``ludii``
playouts: Ludii 1.3.13 ran 95 random playouts a second when the reference engine ran 104
on the same machine (:data:`LUDII_PER_REFERENCE`). ``ludii`` must reach 100 times Ludii's
playouts, and every other ruleset half of that target in actions a second (the target's
playouts times ``ludii``'s actions per playout), at batch 4096. For this verdict both
sides are measured in turns, ``--rounds`` times each (a round of the reference engine's
``ludii`` playouts, then a round of the compiled engine's), and each side's best round
counts: both at the machine's best, whichever moments that was.

Then the targets of issue 22, each measured in turns with its yardstick, ``--rounds`` rounds
and best round against best round: every ruleset's ratio to the reference engine at batch
4096 at least twice the numba engine's (:data:`NUMBA_RATIO`); ``ludii``'s actions/s at
least 40% of the C yardstick's decisions/s (bench/yardstick.py, ../shared/yardstick);
``simulate`` (the random bots, the fast engine) at least 80% of the batch playouts/s; and
two threads at least 1.7 times one.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

sys.path.insert(0, "bench")

import yardstick
from pachisi.ai import make_player
from pachisi.ai.compiled_bots import bot_actions
from pachisi.ai.playouts import playouts
from pachisi.fast import batch as fast_batch
from pachisi.rules import engine
from pachisi.rules.ruleset import NAMED, Ruleset, get_ruleset
from pachisi.simulate import simulate
from playouts import measure as reference_measure

BATCH_SIZES = (1, 64, 4096)
LUDII_PER_REFERENCE = 95 / 104
"""Ludii's random playouts per second over the reference engine's on ``ludii``, measured
side by side on one machine when the engine was first measured."""
TIMES_LUDII = 100

NUMBA_RATIO = {
    "classic": 178,
    "wikipedia-full": 566,
    "herklots-6": 100,
    "herklots-7": 110,
    "tylor-1879": 150,
    "ludii": 165,
}
"""The numba engine's ratio to the reference engine at batch 4096, the higher of issue 22's
table and the last numba run (commit c43c3aa); issue 22 asks for twice it. Those
figures predate R-FROZEN and C.10b's one-outcome rule: bench/against_numba.py measures the
numba engine's ratio on today's rules instead, in turns with ours."""
YARDSTICK_SHARE = 0.40
SIMULATE_SHARE = 0.80
THREADS_GAIN = 1.7


def best_rate(work: Callable[[int], tuple[int, int]], seconds: float) -> tuple[float, float]:
    """(games/s, actions/s): the best of three rounds of calling ``work(round)`` until each
    round has run ``seconds``; ``work`` returns (games, actions) it played."""
    best = (0.0, 0.0)
    for r in range(3):
        games = actions = calls = 0
        start = time.perf_counter()
        while True:
            g, a = work(r * 1_000_000 + calls)
            games += g
            actions += a
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        best = max(best, (games / elapsed, actions / elapsed))
    return best


def playout_rate(ruleset: Ruleset, size: int, seconds: float) -> tuple[float, float]:
    start = engine.new_game(ruleset)

    def work(call: int) -> tuple[int, int]:
        result = playouts(start, size, seed=call)
        return size, int(result.actions.sum())

    return best_rate(work, seconds)


def batch_step_rate(ruleset: Ruleset, size: int, seconds: float) -> float:
    """Actions per second through ``batch.step`` with the compiled random player choosing."""
    players: list[str | None] = ["random"] * 4

    def work(call: int) -> tuple[int, int]:
        b = fast_batch.init(ruleset, size, seed=call)
        actions = 0
        for _ in range(200):
            if b.terminated.all():
                break
            chosen = bot_actions(b, players)
            acting = chosen >= 0
            fast_batch.step(b, np.where(acting, chosen, 0))
            actions += int(acting.sum())
        return 0, actions

    return best_rate(work, seconds)[1]


def reference_rate(ruleset: Ruleset, games: int) -> float:
    """The reference engine's random playouts per second: the best of three timed runs of
    ``games`` playouts (the same seeds each time), as the compiled engine's figures are the
    best of three rounds."""
    return games / min(reference_measure(ruleset, games, 1)[0] for _ in range(3))


def interleaved(
    ruleset: Ruleset, ludii: Ruleset, games: int, seconds: float, rounds: int
) -> tuple[float, float, float]:
    """(reference ``ludii`` playouts/s, playouts/s, actions/s at the largest batch): each the
    best of ``rounds`` rounds, the two kinds taken in turns."""
    start = engine.new_game(ruleset)
    size = BATCH_SIZES[-1]
    best_reference = 0.0
    best = (0.0, 0.0)
    for r in range(rounds):
        best_reference = max(best_reference, games / reference_measure(ludii, games, 1)[0])
        played = acted = 0
        began = time.perf_counter()
        call = 0
        while True:
            result = playouts(start, size, seed=7_000_000 + r * 1000 + call)
            played += size
            acted += int(result.actions.sum())
            call += 1
            elapsed = time.perf_counter() - began
            if elapsed >= seconds:
                break
        best = max(best, (played / elapsed, acted / elapsed))
    return best_reference, best[0], best[1]


def call_cost(ruleset: Ruleset) -> tuple[float, float]:
    """Median microseconds of ``playouts(state, 0)`` (the fixed cost of a call) and of
    ``playouts(state, 1)`` from the start position."""
    start = engine.new_game(ruleset)
    out = []
    for n in (0, 1):
        times = []
        for call in range(200):
            t = time.perf_counter()
            playouts(start, n, seed=call)
            times.append(time.perf_counter() - t)
        out.append(statistics.median(times) * 1e6)
    return out[0], out[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--ruleset", action="append", help="ruleset (default: all named)")
    parser.add_argument("--reference-games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=6, help="turns of the verdict's rounds")
    args = parser.parse_args(argv)
    names = args.ruleset or list(NAMED)
    print("$ .venv/bin/python bench/fast.py " + " ".join(sys.argv[1:]))
    print(f"# python {platform.python_version()}, {platform.machine()}, single core")
    print(
        f"{'ruleset':<16}{'batch':>6}{'playouts/s':>12}{'actions/s':>12}"
        f"{'step act/s':>12}{'ref po/s':>10}{'ratio':>8}{'call us':>9}{'1 game us':>10}"
    )
    ludii = get_ruleset("ludii")
    _, _, ludii_actions, _ = reference_measure(ludii, args.reference_games, 1)
    per_playout = ludii_actions / args.reference_games
    verdicts = []
    for name in names:
        ruleset = get_ruleset(name)
        reference = reference_rate(ruleset, args.reference_games)
        overhead, one = call_cost(ruleset)
        for size in BATCH_SIZES:
            games, actions = playout_rate(ruleset, size, args.seconds)
            stepped = batch_step_rate(ruleset, size, args.seconds)
            print(
                f"{name:<16}{size:>6}{games:>12.0f}{actions:>12.0f}{stepped:>12.0f}"
                f"{reference:>10.1f}{games / reference:>8.0f}{overhead:>9.0f}{one:>10.0f}"
            )
        yardstick, games, actions = interleaved(
            ruleset, ludii, args.reference_games, args.seconds, args.rounds
        )
        verdicts.append(target_line(name, games, actions, yardstick, per_playout))
    print(
        f"# targets at batch {BATCH_SIZES[-1]}: Ludii ~ {LUDII_PER_REFERENCE:.3f} x the reference "
        f"engine's ludii playouts/s; ludii >= "
        f"{TIMES_LUDII} x Ludii playouts/s, the others >= half that many playouts/s times "
        f"{per_playout:.0f} actions (ludii's actions per playout) in actions/s; each side "
        f"the best of {args.rounds} rounds taken in turns"
    )
    print(f"{'ruleset':<16}{'ref ludii':>10}{'measured':>12}{'target':>12}{'share':>8}  met")
    for line in verdicts:
        print(line)
    compiled_targets(names, args)
    return 0


def compiled_rate(
    ruleset: Ruleset, seconds: float, seed: int, threads: int = 1
) -> tuple[float, float]:
    """Compiled random playouts and their actions per second at batch 4096 for about
    ``seconds``."""
    start = engine.new_game(ruleset)
    size = BATCH_SIZES[-1]
    played = acted = 0
    began = time.perf_counter()
    while True:
        acted += int(playouts(start, size, seed=seed + played, threads=threads).actions.sum())
        played += size
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return played / elapsed, acted / elapsed


def simulate_rate(ruleset: Ruleset, seconds: float, seed: int) -> float:
    """``simulate``'s games per second (random bots, the fast engine) for about ``seconds``."""
    bots = [make_player("random")] * 4
    played = 0
    began = time.perf_counter()
    while True:
        simulate(ruleset, 4096, seed + played, bots, engine_name="fast")
        played += 4096
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return played / elapsed


def best_in_turns(sides: list[Callable[[int], float]], rounds: int) -> list[float]:
    """Each side's best of ``rounds`` rounds, the sides taken in turns within each round."""
    best = [0.0] * len(sides)
    for r in range(rounds):
        for i, side in enumerate(sides):
            best[i] = max(best[i], side(r))
    return best


def compiled_targets(names: list[str], args: argparse.Namespace) -> None:
    """Issue 22's targets, each side against its yardstick in turns."""
    s, games, rounds = args.seconds, args.reference_games, args.rounds
    print(f"# issue 22 targets, each the best of {rounds} rounds taken in turns")
    print(f"{'target':<34}{'measured':>12}{'yardstick':>12}{'share':>8}{'wanted':>8}  met")

    def line(what: str, got: float, against: float, wanted: float) -> None:
        share = got / against
        verdict = "yes" if share >= wanted else "no"
        print(f"{what:<34}{got:>12.0f}{against:>12.1f}{share:>8.2f}{wanted:>8.2f}  {verdict}")

    for name in names:
        ruleset = get_ruleset(name)
        ref, fast = best_in_turns(
            [
                lambda r, rs=ruleset: games / reference_measure(rs, games, 1)[0],
                lambda r, rs=ruleset: compiled_rate(rs, s, 9_000_000 + r * 100_000)[0],
            ],
            rounds,
        )
        print(
            f"{name + ' ratio to reference':<34}{fast / ref:>12.0f}{ref:>12.1f}"
            f"{fast / ref / NUMBA_RATIO[name]:>8.2f}{2.0:>8.2f}  "
            f"{'yes' if fast / ref >= 2 * NUMBA_RATIO[name] else 'no'}"
        )
    ludii = get_ruleset("ludii")
    try:
        c_rate, actions = best_in_turns(
            [
                lambda r: yardstick.decisions_per_second(100_000, seed=1 + r),
                lambda r: compiled_rate(ludii, s, 8_000_000 + r * 100_000)[1],
            ],
            rounds,
        )
        line("ludii actions/s : C decisions/s", actions, c_rate, YARDSTICK_SHARE)
    except yardstick.YardstickMissing as missing:
        print(f"ludii against the C yardstick: not measured ({missing})")
    batch, simulated = best_in_turns(
        [
            lambda r: compiled_rate(ludii, s, 7_000_000 + r * 100_000)[0],
            lambda r: simulate_rate(ludii, s, 6_000_000 + r * 100_000),
        ],
        rounds,
    )
    line("ludii simulate : batch games/s", simulated, batch, SIMULATE_SHARE)
    one, two = best_in_turns(
        [
            lambda r: compiled_rate(ludii, s, 5_000_000 + r * 100_000)[0],
            lambda r: compiled_rate(ludii, s, 5_000_000 + r * 100_000, threads=2)[0],
        ],
        rounds,
    )
    line("ludii 2 threads : 1 thread games/s", two, one, THREADS_GAIN)


def target_line(
    name: str, games: float, actions: float, yardstick: float, per_playout: float
) -> str:
    """One row of the target table: the ruleset's figure against its target."""
    target_playouts = TIMES_LUDII * LUDII_PER_REFERENCE * yardstick
    if name == "ludii":
        got, want = games, target_playouts
    else:
        got, want = actions, target_playouts * per_playout / 2
    verdict = "yes" if got >= want else "no"
    return f"{name:<16}{yardstick:>10.1f}{got:>12.0f}{want:>12.0f}{got / want:>8.2f}  {verdict}"


if __name__ == "__main__":
    raise SystemExit(main())
