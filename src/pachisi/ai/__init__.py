"""Computer players. They rank what the rules engine says is legal and never apply a rule
themselves (see :mod:`pachisi.ai.bots`); :func:`make_player` makes one by name."""

from pachisi.ai.bots import Bot, GreedyBot, RandomBot, UnknownBotError, Weights
from pachisi.ai.budget import Budget
from pachisi.ai.players import PLAYER_NAMES, make_player
from pachisi.ai.ranked import Ranked

__all__ = [
    "PLAYER_NAMES",
    "Bot",
    "Budget",
    "GreedyBot",
    "RandomBot",
    "Ranked",
    "UnknownBotError",
    "Weights",
    "make_player",
]
