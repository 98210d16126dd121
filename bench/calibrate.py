"""Fit :data:`pachisi.ai.evaluation.SCALE`: how many points of strength make the odds e to 1.

Plays greedy-vs-greedy games, takes every position where a seat acts, and finds the scale
that maximises the likelihood of the games' results under the logistic model of
:func:`pachisi.ai.evaluation.win_chances` (a one-parameter search, golden section).

    .venv/bin/python bench/calibrate.py [--ruleset NAME] [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from pachisi.ai.bots import GreedyBot
from pachisi.ai.evaluation import strengths
from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import get_ruleset
from pachisi.rules.state import CHANCE


def samples(ruleset_name: str, games: int, seed: int) -> list[tuple[float, int]]:
    """(team 0's strength minus team 1's, 1 if team 0 won) at every decision of every game."""
    ruleset = get_ruleset(ruleset_name)
    bot = GreedyBot()
    out: list[tuple[float, int]] = []
    for g in range(games):
        rng = random.Random(f"calibrate:{seed}:{g}")
        state = engine.new_game(ruleset)
        seen: list[float] = []
        while not state.is_over and state.turn < 5000:
            if engine.current_player(state) == CHANCE:
                k = cowries.throw(rng, ruleset.cowries, ruleset.p_mouth_up)
                state, _ = engine.apply_chance(state, k)
                continue
            s = strengths(state)
            seen.append(s[0] - s[1])
            state, _ = engine.apply_action(state, bot.choose(state, rng))
        result = engine.outcome(state)
        if result is None or result.winner is None:
            continue
        out.extend((d, 1 if result.winner == 0 else 0) for d in seen)
    return out


def log_likelihood(data: list[tuple[float, int]], scale: float) -> float:
    total = 0.0
    for d, y in data:
        z = d / scale
        # log(sigmoid(z)) and log(1 - sigmoid(z)), stable for large |z|.
        total += -math.log1p(math.exp(-z)) if z > -30 else z
        if not y:
            total -= z
    return total


def fit(data: list[tuple[float, int]]) -> float:
    lo, hi = 1.0, 1000.0
    phi = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a = hi - phi * (hi - lo)
        b = lo + phi * (hi - lo)
        if log_likelihood(data, a) > log_likelihood(data, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("$ .venv/bin/python bench/calibrate.py " + " ".join(sys.argv[1:]))
    data = samples(args.ruleset, args.games, args.seed)
    scale = fit(data)
    n = len(data)
    print(f"{args.ruleset}: {n} positions from {args.games} games; best scale {scale:.1f} points")
    print(f"mean log-likelihood {log_likelihood(data, scale) / n:.4f} (coin: {-math.log(2):.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
