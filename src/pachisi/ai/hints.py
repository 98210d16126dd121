"""Hints: the legal actions of a position ranked by a player, with the mover's side's
expected score after each: a win counts 1 and a draw an equal share for every side (1/2,
or 1/4 under ``teams = individual``), so a drawing action scores 50%, not a 50% chance
to win.

Searching levels (``hard``, ``expert``) and players (``expectimax``, ``mcts``) rank with
their search; the others (``easy``, ``medium``, ``greedy``, ``random``) have none, and their
hint is the static evaluation (:func:`pachisi.ai.evaluation.win_chances`) of the position
each action leads to. The search is seeded, so the same position, level and seed give the
same hint.

>>> from pachisi.notation import read_position
>>> state = read_position("0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 ludii")
>>> hint(state)
Traceback (most recent call last):
...
ValueError: no action to rank: a throw is due or the game is over
"""

from __future__ import annotations

import random

from pachisi.ai.budget import Budget
from pachisi.ai.evaluation import side_of, win_chances
from pachisi.ai.players import make_player
from pachisi.ai.ranked import Ranked
from pachisi.rules import engine
from pachisi.rules.state import State

__all__ = ["DEFAULT_LEVEL", "hint"]

DEFAULT_LEVEL = "hard"
"""The level whose judgement a hint gives when none is named."""


def hint(
    state: State, level: str = DEFAULT_LEVEL, *, seed: int = 0, budget: Budget | None = None
) -> list[Ranked]:
    """Every legal action of ``state``, best first by ``level`` (a level or player name).

    ``budget`` overrides the level's own. Raises ``ValueError`` when no seat is to act, and
    :class:`pachisi.ai.bots.UnknownBotError` for an unknown level.
    """
    player = make_player(level)
    actions = engine.legal_actions(state)
    if not actions:
        raise ValueError("no action to rank: a throw is due or the game is over")
    # A level wraps its player; only a player with a search has a ranking of its own.
    searcher = getattr(player, "player", player)
    if hasattr(searcher, "rank"):
        ranked: list[Ranked] = player.rank(state, random.Random(seed), budget)  # type: ignore[attr-defined]
        return ranked
    side = side_of(state, state.seat)
    scored = [Ranked(a, win_chances(engine.apply_action(state, a)[0])[side], 1) for a in actions]
    return sorted(scored, key=lambda r: -r.win)
