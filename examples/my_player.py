"""Write your own computer player and enter it in a tournament against the built-in levels.

A player is any object with a ``name`` and a ``choose(state, rng, budget=None)`` method
that returns one of ``engine.legal_actions(state)`` (the :class:`pachisi.ai.Bot`
protocol). The one below looks one action ahead: it plays each legal action on a copy of
the state (states are immutable, so trying costs nothing but time) and keeps the one
after which its side is furthest ahead of the other side.

The tournament is the one ``pachisi tournament`` runs (docs/tournament.md), driven from
Python: ``make_schedule`` plans the games (every pair of entrants, each deal of throws
played in both seatings), ``run_games`` plays them with the players a small ``make``
function below gives for each entrant's name, and ``summarise`` counts the results and fits
Elo ratings.

    .venv/bin/python examples/my_player.py                         # 40 games per pair
    .venv/bin/python examples/my_player.py --games 10 --levels easy,medium,hard
"""

from __future__ import annotations

import argparse
import random
import time

from pachisi.ai import Bot, Budget, make_player
from pachisi.rules import board, engine
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import State
from pachisi.tournament import make_schedule, run_games, summarise

MINE = "lookahead"
"""The name our player is entered under."""


class LookaheadPlayer:
    """One action ahead: the action after which our side's position is worth the most.

    A position's worth (:meth:`worth`) is our pieces' progress (0 waiting .. 84 home),
    with a bonus for each piece out of the waiting area, home, or resting on a castle,
    and a penalty for a piece that an enemy piece a few steps behind could hit; less
    the enemies' progress. A capture sends enemy pieces back to 0, so it shows as a
    large gain. Ties go to the first action in the engine's order.
    """

    name = MINE

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        actions = engine.legal_actions(state)
        if not actions:
            raise ValueError("no action to choose: a throw is due or the game is over")
        side = engine.side_of(state.ruleset, state.seat)
        return max(actions, key=lambda a: self.worth(engine.apply_action(state, a)[0], side))

    @staticmethod
    def worth(state: State, side: int) -> float:
        """What ``state`` is worth to ``side`` (higher is better)."""
        rules = state.ruleset
        # Where every enemy piece on the outer loop stands, as a loop index 0..67.
        enemies = [
            board.loop_index(piece // 4, p)
            for piece, p in enumerate(state.pos)
            if engine.side_of(rules, piece // 4) != side and board.LOOP_START <= p <= board.LOOP_END
        ]
        total = 0.0
        for piece, p in enumerate(state.pos):
            seat = piece // 4
            if engine.side_of(rules, seat) != side:
                total -= p
                continue
            if p == 0:
                continue  # still waiting
            total += p + 10  # progress, and a bonus for being out
            if p == board.HOME:
                total += 40
            elif board.is_castle(board.square_of(seat, p)):
                total += 5  # castles protect (under most rulesets)
            elif board.LOOP_START <= p <= board.LOOP_END:
                here = board.loop_index(seat, p)
                if any(0 < (here - there) % board.LOOP_LENGTH <= 12 for there in enemies):
                    total -= 0.3 * (p + 10)  # an enemy just behind may hit it next throw
        return total


def make(name: str) -> Bot:
    """The player for an entrant's name: ours for :data:`MINE`, a built-in one otherwise.
    The tournament calls it for each side of each game (``medium#2`` asks for ``medium``)."""
    return LookaheadPlayer() if name == MINE else make_player(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per pair of players")
    parser.add_argument(
        "--levels", default="easy,medium", help="built-in players to meet, split by commas"
    )
    parser.add_argument("--ruleset", default="classic", help="any ruleset string")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    players = [MINE, *args.levels.split(",")]
    plan = make_schedule(players, parse_ruleset(args.ruleset), games=args.games, seed=args.seed)
    print(f"{len(plan.specs)} games: {', '.join(plan.players)} under {plan.ruleset}")
    start = time.perf_counter()
    # With --workers-style pools too: `make` is a module-level function, so it pickles.
    results = run_games(plan.specs, make=make)
    report = summarise(plan, results, seconds=time.perf_counter() - start)
    print(report.text())


if __name__ == "__main__":
    main()
