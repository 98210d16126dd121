"""How long a game review takes (issue 21: a 1,100-step game in at most 60 s on this
2-core machine).

Plays a seeded classic game between the ladder's levels (South ``easy``, East ``medium``,
North ``hard``, West ``expert``), taking the first game from ``--seed`` on whose length is
within 50 steps of ``--steps``, or reads ``--record FILE``; then reviews it with
``--workers`` processes, as ``pachisi review`` does (their start-up counted), and prints the
steps, the decisions judged, the seconds and the steps per second.

With ``--losses N`` it measures what the grade thresholds are chosen from instead: N seeded
games of the four ``--levels`` (default the ladder's), turned one seat on from game to game,
each reviewed, and for each level the distribution of the win chance its judged decisions
lost (docs/review.md).

    .venv/bin/python bench/review.py [--workers 2] [--seed 1] [--steps 1100] [--record FILE]
    .venv/bin/python bench/review.py --losses 12 [--levels A,B,C,D] [--workers 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from pachisi.ai.players import make_player
from pachisi.game import Game
from pachisi.notation import GameRecord, read_record_file, record_from_game
from pachisi.review import THRESHOLDS, process_pool, review

LADDER = ("easy", "medium", "hard", "expert")
QUANTILES = (50, 75, 90, 95, 99)


def play(seed: int, seats: tuple[str, ...] = LADDER) -> GameRecord:
    """One seeded classic game between the levels named seat by seat, as a record."""
    game = Game("classic")
    bots = [make_player(name) for name in seats]
    throws, choices = random.Random(f"review:{seed}:throws"), random.Random(f"review:{seed}")
    while not game.is_over():
        if game.legal_actions():
            game.push(bots[game.state.seat].choose(game.state, choices))
        else:
            game.throw(throws)
    return record_from_game(game, {f"Seat{i}": name for i, name in enumerate(seats)})


def game_of_length(steps: int, seed: int) -> tuple[GameRecord, int]:
    """The first game from ``seed`` on within 50 steps of ``steps``, and its seed."""
    for tried in range(seed, seed + 200):
        record = play(tried)
        if abs(len(record.moves) - steps) <= 50:
            return record, tried
    raise SystemExit(f"no game of about {steps} steps in 200 seeds from {seed}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=1100)
    parser.add_argument("--record", default=None, metavar="FILE")
    parser.add_argument("--losses", type=int, default=0, metavar="GAMES")
    parser.add_argument("--levels", default=",".join(LADDER), metavar="A,B,C,D")
    args = parser.parse_args(argv)
    print("$ .venv/bin/python bench/review.py " + " ".join(sys.argv[1:]))
    if args.losses:
        return losses(args.losses, args.seed, args.workers, tuple(args.levels.split(",")))
    if args.record is not None:
        record = read_record_file(args.record)
        print(f"record     {args.record}")
    else:
        record, seed = game_of_length(args.steps, args.seed)
        print(f"record     a classic game of {', '.join(LADDER)}, game seed {seed}")
    start = time.perf_counter()
    marks: list[float] = []
    with process_pool(args.workers) as run:
        result = review(record, run=run, progress=lambda d, t: marks.append(time.perf_counter()))
        judged_at = time.perf_counter()
    seconds = time.perf_counter() - start
    judged = sum(1 for v in result.steps if v.judged)
    forced = sum(1 for v in result.steps if v.grade == "forced")
    print(f"steps      {len(result.steps):,} ({judged} decisions judged, {forced} forced)")
    print(f"seconds    {seconds:.1f} with {args.workers} workers (their start-up included)")
    print(f"speed      {len(result.steps) / seconds:,.0f} steps/s")
    if len(marks) > 1:
        print(
            f"of which   {marks[1] - start:.1f} s to the first chunk "
            "(starting the judges: processes, search, network), "
            f"{seconds - (judged_at - start):.1f} s stopping the workers"
        )
    return 0


def losses(games: int, seed: int, workers: int, levels: tuple[str, ...]) -> int:
    """Each of four levels' losses over ``games`` reviewed games, as percentiles and the
    share of its decisions at or above each threshold."""
    if len(levels) != 4:
        raise SystemExit(f"--levels takes four names, not {levels}")
    found: dict[str, list[float]] = {name: [] for name in levels}
    with process_pool(workers) as run:
        for g in range(games):
            seats = levels[g % 4 :] + levels[: g % 4]
            result = review(play(seed + g, seats), run=run)
            for v in result.steps:
                if v.loss is not None:
                    found[seats[v.seat]].append(v.loss)
            print(f"game {g + 1}/{games}: {len(result.steps)} steps", file=sys.stderr)
    t = THRESHOLDS
    print(f"losses of the judged decisions of {games} classic games, in points of win chance")
    print(
        f"{'level':<8} {'judged':>6} {'mean':>5} "
        + " ".join(f"{'p' + str(q):>5}" for q in QUANTILES)
        + f"  >={t.inaccuracy:g}  >={t.mistake:g}  >={t.blunder:g}"
    )
    for name, values in found.items():
        values.sort()
        n = len(values)
        cut = [values[min(n - 1, int(q / 100 * n))] for q in QUANTILES]
        share = [sum(1 for v in values if v >= x) / n for x in (t.inaccuracy, t.mistake, t.blunder)]
        print(
            f"{name:<8} {n:>6} {sum(values) / n:>5.2f} "
            + " ".join(f"{c:>5.2f}" for c in cut)
            + "  "
            + "  ".join(f"{100 * s:4.1f}%" for s in share)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
