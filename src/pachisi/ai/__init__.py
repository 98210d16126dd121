"""Computer players. They rank what the rules engine says is legal and never apply a rule
themselves (see :mod:`pachisi.ai.bots`)."""

from pachisi.ai.bots import (
    BOT_NAMES,
    Bot,
    GreedyBot,
    RandomBot,
    UnknownBotError,
    Weights,
    make_bot,
)

__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "UnknownBotError", "Weights", "make_bot"]
