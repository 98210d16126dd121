"""Random playouts per second for every named ruleset (issue: engine benchmark).

Each playout is a complete game from the start position: every throw drawn with a seeded
``random.Random``, every action chosen uniformly among the legal ones (declines included).
Single process, single core. Prints the command, then one line per ruleset.

    .venv/bin/python bench/playouts.py [--games N] [--seed S] [--repeat R] [--ruleset NAME]

The figure reported is the best of ``--repeat`` timed runs (fewest interruptions).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import NAMED, Ruleset, get_ruleset
from pachisi.rules.state import DRAW, Stage


def playout(ruleset: Ruleset, rng: random.Random) -> tuple[int, int, bool]:
    """Play one random game to the end; returns (throws, actions, drawn).

    Under kill-before-home a random game can reach a position no side can win any more;
    the engine then ends it as a draw (R-DEADLOCK).
    """
    state = engine.new_game(ruleset)
    n, p = ruleset.cowries, ruleset.p_mouth_up
    throws = actions = 0
    apply_chance, apply_action, legal = (
        engine.apply_chance,
        engine.apply_action,
        engine.legal_actions,
    )
    while True:
        stage = state.stage
        if stage is Stage.OVER:
            return throws, actions, state.winner == DRAW
        if stage is Stage.THROW or stage is Stage.THROW_OFF:
            state, _ = apply_chance(state, cowries.throw(rng, n, p))
            throws += 1
        else:
            options = legal(state)
            state, _ = apply_action(state, options[rng.randrange(len(options))])
            actions += 1


def measure(ruleset: Ruleset, games: int, seed: int) -> tuple[float, int, int, int]:
    """Time ``games`` playouts; returns (seconds, throws, actions, drawn games)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    throws = actions = draws = 0
    for _ in range(games):
        t, a, drawn = playout(ruleset, rng)
        throws += t
        actions += a
        draws += drawn
    return time.perf_counter() - start, throws, actions, draws


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ruleset", action="append", help="ruleset (default: all named)")
    args = parser.parse_args(argv)
    names = args.ruleset or list(NAMED)
    print("$ .venv/bin/python bench/playouts.py " + " ".join(sys.argv[1:]))
    print(f"# python {platform.python_version()}, {platform.machine()}, single core")
    print(
        f"{'ruleset':<16}{'playouts/s':>12}{'actions/s':>12}{'throws/s':>12}"
        f"{'actions/game':>14}{'throws/game':>13}{'draws':>8}"
    )
    for name in names:
        ruleset = get_ruleset(name)
        best = min(measure(ruleset, args.games, args.seed) for _ in range(args.repeat))
        seconds, throws, actions, draws = best
        print(
            f"{name:<16}{args.games / seconds:>12.1f}{actions / seconds:>12.0f}"
            f"{throws / seconds:>12.0f}{actions / args.games:>14.1f}{throws / args.games:>13.1f}"
            f"{draws:>8}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
