"""Write your own computer player and enter it in a tournament against the built-in levels.

A player is any object with a ``name`` and a ``choose(state, rng, budget=None)`` method
that returns one of ``engine.legal_actions(state)`` (the :class:`pachisi.ai.Bot`
protocol). The one below looks one action ahead: it plays each legal action on a copy of
the state (states are immutable, so trying costs nothing but time) and keeps the one
after which its side is furthest ahead of the other side.

The tournament is the one ``pachisi tournament`` runs (docs/tournament.md), driven from
Python: ``make_schedule`` plans the games (every pair of entrants, each deal of throws
played in both seatings), a small ``play`` function below plays one game with our player
on its seats, and ``summarise`` counts the results and fits Elo ratings.

    .venv/bin/python examples/my_player.py                         # 40 games per pair
    .venv/bin/python examples/my_player.py --games 10 --levels easy,medium,hard
"""

from __future__ import annotations

import argparse
import random
import time

from pachisi.ai import Bot, Budget, make_player
from pachisi.ai.games import play_game
from pachisi.rules import board, engine
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import State
from pachisi.tournament import GameResult, GameSpec, make_schedule, summarise
from pachisi.tournament.schedule import choice_rng, player_name, throw_rng

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


def play(spec: GameSpec) -> GameResult:
    """Play one game of the tournament: our player where the spec seats it, the built-in
    player named by the entrant's label elsewhere. As ``pachisi.tournament.play`` does,
    each side chooses with its own generator and the deal's generator throws, so the
    same spec always gives the same game."""
    ruleset = parse_ruleset(spec.ruleset)
    seated: list[Bot] = []
    for seat, entrant in enumerate(spec.seats):
        name = player_name(entrant)  # "medium#2" -> "medium"
        player: Bot = LookaheadPlayer() if name == MINE else make_player(name)
        side = engine.side_of(ruleset, seat)
        seated.append(_OwnChoices(player, choice_rng(spec.seed, spec.deal, spec.rotation, side)))
    stats = play_game(
        ruleset,
        throw_rng(spec.seed, spec.deal),
        seated,
        max_turns=spec.max_turns,
        max_steps=spec.max_steps,
    )
    return GameResult(
        spec=spec,
        winning_seats=stats.winning_seats,
        drawn=stats.drawn,
        throws=stats.throws,
        actions=stats.actions,
        captures=stats.captures,
        turns=stats.turns,
    )


class _OwnChoices:
    """A player that chooses with its own generator (``play_game`` gives every seat the
    throws' generator), so one side's random draws never shift another's."""

    def __init__(self, player: Bot, rng: random.Random) -> None:
        self.player = player
        self.rng = rng
        self.name = player.name

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        return self.player.choose(state, self.rng, budget)


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
    # Any map of `play` over the specs will do: a process pool, a cluster; here, a loop.
    results = [play(spec) for spec in plan.specs]
    report = summarise(plan, results, seconds=time.perf_counter() - start)
    print(report.text())


if __name__ == "__main__":
    main()
