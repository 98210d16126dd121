"""How long the computer players take per decision (issue 7: ``hard`` at most 0.3 s and
``expert`` at most 1.5 s, median on this machine).

Positions are every decision with more than one legal action in greedy-vs-greedy games,
sampled every ``--every`` decisions; each level decides each of them once.

    .venv/bin/python bench/ai_latency.py [--ruleset NAME ...] [--level L ...] [--positions N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from pachisi.ai.bots import GreedyBot
from pachisi.ai.levels import LEVELS
from pachisi.ai.players import make_player
from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import CHANCE, State


def positions(ruleset_name: str, count: int, every: int, seed: int) -> list[State]:
    """Decisions with a real choice from greedy games, every ``every``-th one."""
    ruleset = parse_ruleset(ruleset_name)
    bot = GreedyBot()
    found: list[State] = []
    game = 0
    while len(found) < count:
        rng = random.Random(f"latency:{seed}:{game}")
        state = engine.new_game(ruleset)
        step = 0
        while not state.is_over and len(found) < count:
            if engine.current_player(state) == CHANCE:
                k = cowries.throw(rng, ruleset.cowries, ruleset.p_mouth_up)
                state, _ = engine.apply_chance(state, k)
                continue
            if len(engine.legal_actions(state)) > 1:
                step += 1
                if step % every == 0:
                    found.append(state)
            state, _ = engine.apply_action(state, bot.choose(state, rng))
        game += 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="default: classic, wikipedia-full")
    parser.add_argument("--level", action="append", help="default: every level")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--every", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("$ .venv/bin/python bench/ai_latency.py " + " ".join(sys.argv[1:]))
    print(f"{'ruleset':<16}{'level':<8}{'median s':>10}{'p90 s':>8}{'max s':>8}{'positions':>11}")
    for name in args.ruleset or ["classic", "wikipedia-full"]:
        states = positions(name, args.positions, args.every, args.seed)
        for level in args.level or list(LEVELS):
            player = make_player(level)
            rng = random.Random(args.seed)
            times = []
            for state in states:
                start = time.perf_counter()
                player.choose(state, rng)
                times.append(time.perf_counter() - start)
            times.sort()
            p90 = times[int(0.9 * (len(times) - 1))]
            print(
                f"{name:<16}{level:<8}{statistics.median(times):>10.3f}{p90:>8.3f}"
                f"{times[-1]:>8.3f}{len(times):>11}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
