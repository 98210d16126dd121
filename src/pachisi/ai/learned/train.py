"""Train the learned evaluation by self-play: the command that made the shipped weights.

``python -m pachisi.ai.learned.train --ruleset classic --games 40000 --seed 1`` plays that
many TD(lambda) self-play games on the compiled engine (``train_games`` and ``match_games``
of :mod:`pachisi.ai._compiled`, from ``src/pachisi/ai/kernels/selfplay.pxi``), then measures
the network against ``greedy`` in compiled games, and writes the weights with their
training record (command, seed, games, seconds, result) to ``--out`` (by default the
shipped file for that ruleset, :func:`pachisi.ai.learned.value.weights_path`). The same
arguments give the same weights: every game is seeded from ``(seed, game number)`` and the
updates run in one thread in a fixed order.

The network starts from ``greedy``'s own judgement (see :mod:`.features`), so its first
games are already sensible.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from pachisi.ai.learned.net import Net
from pachisi.ai.learned.value import WEIGHTS_DIR, weights_name
from pachisi.ai.native import players as compiled_players
from pachisi.progress import games_bar
from pachisi.rules import engine
from pachisi.rules.choices import Teams
from pachisi.rules.ruleset import Ruleset, RulesetError, parse_ruleset

__all__ = ["Match", "Trained", "Training", "match_greedy", "train"]

CHUNK = 250
"""Games per call into compiled code (the progress bar moves this often)."""
MAX_STEPS = 30_000
"""Throws and actions after which a training game is abandoned (and not learned from)."""
GREEDY_BOT: Final = compiled_players.BOTS["greedy"]
LEARNED_BOT: Final = compiled_players.BOTS["learned"]
"""The codes of the players of the seats in the compiled games."""


@dataclass(frozen=True)
class Training:
    """How to train: the budget, the seed and the learning parameters."""

    games: int
    seed: int
    hidden: int = 64
    alpha: float = 0.0005
    """Step size of the stochastic gradient steps, at first."""
    alpha_halflife: int = 0
    """Games after which the step size has halved (``alpha * h / (h + games)``); 0 keeps
    it constant."""
    lam: float = 0.7
    """TD(lambda)'s lambda: how far the targets look ahead towards the result."""
    eps: float = 0.0
    """Chance of a random action in self-play (the throws explore already)."""
    greedy_games: int = 0
    """Games played by ``greedy`` (learning its positions' values) before self-play."""
    against_greedy: bool = True
    """Mix in games against ``greedy``: of every three chunks of games, one has the network
    on the first team against ``greedy``, one on the second, one is pure self-play (under
    ``teams=individual``: the network on each seat in turn against three greedy seats,
    then self-play). Pure self-play drifted away from beating ``greedy``."""
    check_every: int = 0
    """Games between checks against ``greedy`` (0: none); the best network checked is kept."""
    check_games: int = 400
    average_from: int = 0
    """Games (after the ``greedy_games``) after which the network is averaged (0: never):
    from then on the weights checked and kept are the mean of the trained weights after
    each batch of games (Polyak averaging), while training goes on from the latest weights.
    Meant to smooth the wandering of a constant step size; on ``classic`` it did not help
    (docs/ai.md)."""


@dataclass(frozen=True)
class Trained:
    """What a training run did."""

    games: int
    abandoned: int
    """Games over the step limit, not learned from."""
    positions: int
    """Positions learned from."""
    checks: list[tuple[int, float]]
    """(games so far, win rate against greedy) at each check."""


@dataclass(frozen=True)
class Match:
    """The network against ``greedy``: games on each side of the same throws."""

    games: int
    wins: int
    draws: int
    unfinished: int

    @property
    def rate(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


def train(
    ruleset: Ruleset,
    net: Net,
    plan: Training,
    *,
    progress: bool = True,
    max_steps: int = MAX_STEPS,
) -> Trained:
    """Train ``net`` in place by ``plan``, ending with the best network checked, if any, or
    else the averaged one (``plan.average_from``)."""
    from pachisi.ai.compiled_bots import compiled
    from pachisi.fast.convert import to_row

    c = compiled(ruleset)
    start = to_row(engine.new_game(ruleset))
    stats = np.zeros(7, dtype=np.int64)
    total = plan.greedy_games + plan.games
    cycle = _cycle(ruleset, plan.against_greedy)
    best: tuple[float, Net] | None = None
    checks: list[tuple[int, float]] = []
    mean: Net | None = None
    averaged = 0
    with games_bar(total, show=progress) as advance:
        done = 0
        chunk = 0
        while done < total:
            size = min(CHUNK, total - done)
            if done < plan.greedy_games:
                size = min(size, plan.greedy_games - done)
                bots = np.full(4, GREEDY_BOT, dtype=np.int32)
            else:
                bots = cycle[chunk % len(cycle)]
                chunk += 1
            alpha = plan.alpha
            if plan.alpha_halflife:
                alpha *= plan.alpha_halflife / (plan.alpha_halflife + done)
            compiled_players.train_games(
                start, c.params, c.p_mouth_up, c.hit, c.weights, bots, net.weights(),
                plan.seed, done, size, plan.lam, alpha, plan.eps, max_steps, stats,
            )  # fmt: skip
            before = done
            done += size
            advance(done, total)
            if plan.average_from and done > plan.greedy_games + plan.average_from:
                averaged += 1
                mean = _running_mean(mean, net, averaged)
            judged = net if mean is None else mean
            if (
                plan.check_every
                and ruleset.teams != Teams.INDIVIDUAL
                and (done // plan.check_every > before // plan.check_every or done == total)
            ):
                # Checked on throws of their own (seed + 2), not the final match's.
                check = match_greedy(ruleset, judged, games=plan.check_games, seed=plan.seed + 2)
                rate = check.rate
                checks.append((done, round(rate, 4)))
                if best is None or rate > best[0]:
                    best = (rate, judged.copy())
    kept = best[1] if best is not None else mean
    if kept is not None:
        net.w1[:], net.b1[:], net.w2[:], net.b2[:], net.w3[:] = (
            kept.w1, kept.b1, kept.w2, kept.b2, kept.w3,
        )  # fmt: skip
    return Trained(int(stats[0]), int(stats[1]), int(stats[2]), checks)


def _running_mean(mean: Net | None, net: Net, count: int) -> Net:
    """The mean of ``count`` networks: ``mean`` of the first ``count - 1`` and ``net``."""
    if mean is None:
        return net.copy()
    for total, new in zip(mean.weights(), net.weights(), strict=True):
        total += (new - total) / count
    return mean


def _cycle(ruleset: Ruleset, against_greedy: bool) -> list[np.ndarray]:
    """The seats' players of each chunk of training games, in turn (see :class:`Training`)."""
    selfplay = [LEARNED_BOT] * 4
    if not against_greedy:
        plans = [selfplay]
    else:
        # One plan per side (R-TEAMS: a team, or a seat alone): the learned player on its
        # seats, greedy on the others.
        plans = [
            [
                LEARNED_BOT if engine.side_of(ruleset, seat) == side else GREEDY_BOT
                for seat in range(4)
            ]
            for side in range(engine.side_count(ruleset))
        ] + [selfplay]
    return [np.array(p, dtype=np.int32) for p in plans]


def match_greedy(
    ruleset: Ruleset, net: Net, *, games: int, seed: int, max_steps: int = MAX_STEPS
) -> Match:
    """Team games of the network against ``greedy``: ``games`` throw sequences, each played
    with the network on either team (so ``2 * games`` games in all)."""
    from pachisi.ai.compiled_bots import compiled
    from pachisi.fast.convert import to_row

    if ruleset.teams == Teams.INDIVIDUAL:
        raise ValueError("a match against greedy is played in team games")
    c = compiled(ruleset)
    start = to_row(engine.new_game(ruleset))
    winners = np.zeros(games, dtype=np.int32)
    wins = draws = unfinished = 0
    for team in (0, 1):
        bots = np.array(
            [
                LEARNED_BOT if engine.side_of(ruleset, seat) == team else GREEDY_BOT
                for seat in range(4)
            ],
            dtype=np.int32,
        )
        compiled_players.match_games(
            start, c.params, c.p_mouth_up, c.hit, c.weights, bots, net.weights(), seed, 0,
            games, max_steps, winners,
        )  # fmt: skip
        wins += int((winners == team).sum())
        draws += int((winners == -2).sum())
        unfinished += int((winners == -1).sum())
    return Match(2 * games, wins, draws, unfinished)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pachisi.ai.learned.train",
        description="Train the learned evaluation by TD(lambda) self-play on the compiled engine.",
    )
    parser.add_argument("--ruleset", default="classic", help="ruleset (NAME or NAME+key=value)")
    parser.add_argument("--games", type=int, default=40_000, help="self-play games")
    parser.add_argument("--greedy-games", type=int, default=0, help="greedy games first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=64, help="hidden units")
    parser.add_argument("--alpha", type=float, default=0.0005, help="step size")
    parser.add_argument(
        "--alpha-halflife", type=int, default=0, help="games until the step size halves"
    )
    parser.add_argument("--lam", type=float, default=0.7, help="TD lambda")
    parser.add_argument("--eps", type=float, default=0.0, help="exploration in self-play")
    parser.add_argument(
        "--self-play-only", action="store_true", help="no games against greedy in training"
    )
    parser.add_argument(
        "--check-every", type=int, default=0, help="games between checks (keeps the best)"
    )
    parser.add_argument("--check-games", type=int, default=400, help="games per check")
    parser.add_argument(
        "--average-from", type=int, default=0, help="games after which weights are averaged"
    )
    parser.add_argument("--match-games", type=int, default=1000, help="games against greedy")
    parser.add_argument("--out", type=Path, help="weights file (default: the shipped one)")
    args = parser.parse_args(argv)
    try:
        ruleset = parse_ruleset(args.ruleset)
    except (RulesetError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    problems = []
    if (
        min(args.games, args.greedy_games, args.match_games, args.check_every, args.average_from)
        < 0
        or min(args.alpha_halflife, args.check_games - 1) < 0
    ):
        problems.append("counts cannot be negative (--check-games at least 1)")
    if not 0 <= args.seed < 2**32:
        problems.append("the seed is 0..2**32-1")
    if not 1 <= args.hidden <= 1024:
        problems.append("--hidden is 1..1024")
    if not (0 < args.alpha < 1 and 0 <= args.lam <= 1 and 0 <= args.eps <= 1):
        problems.append("--alpha is in (0, 1), --lam and --eps in [0, 1]")
    if problems:
        print(f"error: {'; '.join(problems)}", file=sys.stderr)
        return 2
    out = args.out or WEIGHTS_DIR / f"{weights_name(ruleset)}.npz"
    plan = Training(
        args.games,
        args.seed,
        args.hidden,
        args.alpha,
        args.alpha_halflife,
        args.lam,
        args.eps,
        args.greedy_games,
        not args.self_play_only,
        args.check_every,
        args.check_games,
        args.average_from,
    )
    sides = engine.side_count(ruleset)
    net = Net.initial(sides, plan.hidden, plan.seed)
    began = time.perf_counter()
    counts = train(ruleset, net, plan, progress=sys.stderr.isatty())
    seconds = time.perf_counter() - began
    print(
        f"{ruleset.name}: {counts.games} games ({counts.abandoned} abandoned), "
        f"{counts.positions} positions in {seconds:.0f} s"
    )
    net.meta = {
        "ruleset": args.ruleset,
        "command": "python -m pachisi.ai.learned.train "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "training": plan.__dict__,
        "seconds": round(seconds, 1),
        **dataclasses.asdict(counts),
    }
    for done, rate in counts.checks:
        print(f"  check after {done} games: {rate:.1%} against greedy")
    if sides == 2 and args.match_games:
        m = match_greedy(ruleset, net, games=args.match_games, seed=args.seed + 1)
        print(f"against greedy: {m.wins} of {m.games} won ({m.rate:.1%}), {m.draws} drawn")
        net.meta["against_greedy"] = {"games": m.games, "wins": m.wins, "draws": m.draws}
    out.parent.mkdir(parents=True, exist_ok=True)
    net.save(out)
    print(f"weights written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
