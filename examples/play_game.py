"""Play one game of Pachisi through the Python API, printing what happens.

The game is a :class:`pachisi.Game`: throws are chance events that you make with a seeded
random generator (``game.throw(rng)``), and the seat to act picks one of
``game.legal_actions()`` and plays it with ``game.push(action)``. Here team 0 (seats 0
and 2) plays a simple rule of thumb written below, and team 1 (seats 1 and 3) plays at
random. The script prints the first decisions in words, the board every so often, and the
outcome.

    .venv/bin/python examples/play_game.py                  # a whole game of `classic`
    .venv/bin/python examples/play_game.py --ruleset ludii --seed 3 --max-steps 200
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from pachisi import CHANCE, Action, ActionKind, Game
from pachisi.describe import describe_played, situation
from pachisi.notation import write_position
from pachisi.play import board_contents
from pachisi.render import render_board
from pachisi.rules.state import State


def board(state: State) -> str:
    """The board as ``pachisi play`` draws it: pieces by label (``0a`` is seat 0's piece a)
    on their squares, the waiting and finished pieces listed below it."""
    stacks, waiting, home = board_contents(state)
    return render_board(stacks, charkoni=waiting + [f"{label}(home)" for label in home])


def rule_of_thumb(game: Game) -> Action:
    """Team 0's player: capture if it can, else bring a piece in, else move the piece
    that is furthest ahead (to take it home, out of danger); decline only when it must."""
    actions = game.legal_actions()
    moves = [a for a in actions if a.kind is not ActionKind.DECLINE]
    if not moves:
        return actions[0]
    for action in moves:
        # A trial push tells what an action would do; pop takes it back.
        events = game.push(action)
        game.pop()
        if any(event.kind == "capture" for event in events):
            return action
    entering = [a for a in moves if a.kind in (ActionKind.ENTER, ActionKind.FREE)]
    if entering:
        return entering[0]
    progress = game.state.pos  # each piece's progress along its own seat's path, 0..84
    mover = moves[0].seat
    return max(moves, key=lambda a: progress[4 * mover + a.pieces[0]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="classic", help="any ruleset string")
    parser.add_argument("--seed", type=int, default=1, help="seeds the throws and choices")
    parser.add_argument(
        "--max-steps",
        type=int,
        default=50_000,
        help="stop after this many throws and actions (default: play the game to its end)",
    )
    parser.add_argument("--show", type=int, default=6, help="decisions to describe in words")
    parser.add_argument("--board-every", type=int, default=250, help="draw the board every N steps")
    args = parser.parse_args()

    game = Game(args.ruleset)
    throws = random.Random(args.seed)  # the cowries: the same seed, the same throws
    choices = random.Random(args.seed + 1)  # the random team's choices
    players: dict[int, Callable[[Game], Action]] = {
        0: rule_of_thumb,
        1: lambda game: choices.choice(game.legal_actions()),
    }
    print(f"ruleset {game.ruleset}")
    print(f"start   {write_position(game.state)}")

    shown = 0
    while not game.is_over() and len(game.moves) < args.max_steps:
        if game.current_player() == CHANCE:
            game.throw(throws)  # or game.push(k): a throw with k cowries mouth up
        else:
            state, seat = game.state, game.current_player()
            action = players[seat % 2](game)  # team 0 is seats 0 and 2, team 1 seats 1 and 3
            if shown < args.show:
                legal = ", ".join(str(a) for a in game.legal_actions())
                print(f"{situation(state)} legal: {legal}")
            events = game.push(action)
            if shown < args.show:
                print(f"  seat {seat} plays {action}: {describe_played(state, action, events)}")
                shown += 1
        if len(game.moves) % args.board_every == 0:
            print(f"\nafter {len(game.moves)} throws and actions:")
            print(board(game.state))

    print(f"\nfinal position {write_position(game.state)}")
    print(board(game.state))
    throws_made = sum(1 for move in game.moves if isinstance(move, int))
    print(f"{throws_made} throws and {len(game.moves) - throws_made} actions")
    outcome = game.outcome()
    if outcome is None:
        print(f"outcome: unfinished after {len(game.moves)} steps (--max-steps)")
    else:
        print(f"outcome: {outcome}")


if __name__ == "__main__":
    main()
