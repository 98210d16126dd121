"""Short game records for the review tests, played by ``medium`` (no search: quick)."""

from __future__ import annotations

import random

from pachisi.ai.levels import make_level
from pachisi.game import Game
from pachisi.notation import GameRecord, record_from_game

NAMES = ("Asha", "medium", "Bela", "medium")


def short_record(steps: int = 60, seed: int = 1, ruleset: str = "classic") -> GameRecord:
    """The first ``steps`` throws and actions of a seeded game, with the seats named."""
    game = Game(ruleset)
    bot = make_level("medium")
    throws, choices = random.Random(seed), random.Random(seed + 1)
    while not game.is_over() and len(game.moves) < steps:
        if game.legal_actions():
            game.push(bot.choose(game.state, choices))
        else:
            game.throw(throws)
    return record_from_game(game, {f"Seat{i}": name for i, name in enumerate(NAMES)})
