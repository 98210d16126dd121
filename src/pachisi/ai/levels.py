"""Playing strengths for people: ``easy``, ``medium``, ``hard`` and ``expert``.

A level is a player with a budget per decision. ``easy`` is :class:`SoftGreedyBot`, which
weighs the actions as ``greedy`` does but does not always take the best; ``medium`` is
``greedy``; ``hard`` and ``expert`` search (see :data:`LEVELS` for which player and budget,
and ``docs/ai.md`` for how they fare against each other and how long a decision takes).
Budgets are in playouts with a time limit as well (see :data:`LEVELS`).

>>> import random
>>> from pachisi.rules import engine
>>> from pachisi.rules.ruleset import get_ruleset
>>> state, _ = engine.apply_chance(engine.new_game(get_ruleset("ludii")), 3)
>>> str(make_level("easy").choose(state, random.Random(1)))
'0a*3'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from pachisi.ai.bots import Bot, GreedyBot
from pachisi.ai.budget import Budget
from pachisi.ai.expectimax import ExpectimaxPlayer
from pachisi.ai.mcts import MctsPlayer
from pachisi.ai.ranked import Ranked
from pachisi.rules import engine
from pachisi.rules.actions import Action, ActionKind
from pachisi.rules.state import State

__all__ = ["LEVELS", "Level", "SoftGreedyBot", "make_level"]


class SoftGreedyBot:
    """Greedy's judgement with a beginner's slips.

    Every legal action gets greedy's score; the choice is drawn with probabilities
    proportional to ``exp((score - best) / temperature)``, so a clearly worse action is rare
    and a near tie is a coin toss. Declining is only chosen when nothing else is legal or
    when greedy itself would decline: a beginner does not throw a move away.
    """

    def __init__(self, name: str = "soft-greedy", temperature: float = 12.0) -> None:
        if not temperature > 0:
            raise ValueError(f"the temperature must be positive, not {temperature}")
        self.name = name
        self.temperature = temperature
        self._greedy = GreedyBot()

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        actions = engine.legal_actions(state)
        if not actions:
            raise ValueError("no action to choose: a throw is due or the game is over")
        if len(actions) == 1:
            return actions[0]
        scores = [self._greedy.score(state, a) for a in actions]
        best = max(scores)
        moves = [
            (a, s)
            for a, s in zip(actions, scores, strict=True)
            if a.kind is not ActionKind.DECLINE or s >= best
        ]
        weights = [math.exp((s - best) / self.temperature) for _, s in moves]
        return rng.choices([a for a, _ in moves], weights)[0]


class ByTraining:
    """Plays with the learned network where one was trained for the game's ruleset
    (:func:`pachisi.ai.learned.value.trained_for`) and with the hand-weighted search
    elsewhere: a network judges rules it never saw (a blockade, kill-before-home added to
    ``classic``) worse than the search does."""

    def __init__(
        self, name: str, learned: tuple[Bot, Budget | None], hand: tuple[Bot, Budget | None]
    ) -> None:
        self.name = name
        self.learned = learned
        self.hand = hand

    def pick(self, state: State) -> tuple[Bot, Budget | None]:
        """The player (and its budget) for ``state``'s ruleset."""
        from pachisi.ai.learned.value import trained_for

        return self.learned if trained_for(state.ruleset) else self.hand

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        player, own = self.pick(state)
        return player.choose(state, rng, budget or own)

    def rank(self, state: State, rng: random.Random, budget: Budget | None = None) -> list[Ranked]:
        player, own = self.pick(state)
        rank = getattr(player, "rank", None)
        if rank is None:
            raise ValueError(f"{self.name!r} ranks nothing in this ruleset")
        result: list[Ranked] = rank(state, rng, budget or own)
        return result


@dataclass(frozen=True)
class Level:
    """A player and its budget per decision, under a name for people."""

    name: str
    player: Bot
    budget: Budget | None

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        return self.player.choose(state, rng, budget or self.budget)

    def rank(self, state: State, rng: random.Random, budget: Budget | None = None) -> list[Ranked]:
        """The player's ranking of the legal actions, where it searches (hints)."""
        rank = getattr(self.player, "rank", None)
        if rank is None:
            raise ValueError(f"level {self.name!r} does not search, so it ranks nothing")
        result: list[Ranked] = rank(state, rng, budget or self.budget)
        return result


EXPERT_DEPTH: Final = 3
"""``expert``'s search depth with the learned evaluation: its action, every throw after it,
the best reply to each, every throw after that and the best answer (about 900 positions
and 4 ms in compiled code on ``classic``, median; depth 4 takes some 16,000 positions and
0.07 s: ``bench/search_depth.py``)."""
EXPERT_BUDGET: Final = Budget(playouts=20_000, seconds=1.2)
"""``expert``'s budget with the learned evaluation: enough positions for depth 3 in every
position measured in the named rulesets (at most about 4,300), and the clock as a bound
on a slow machine."""


def _learned() -> Bot:
    from pachisi.ai.learned.player import LearnedPlayer

    return LearnedPlayer()


def _compiled_search() -> Bot:
    from pachisi.ai.compiled_expectimax import CompiledExpectimaxPlayer

    return CompiledExpectimaxPlayer("expert", max_depth=EXPERT_DEPTH)


LEVELS: Final[dict[str, Callable[[], Level]]] = {
    "easy": lambda: Level("easy", SoftGreedyBot(), None),
    "medium": lambda: Level("medium", GreedyBot(), None),
    "hard": lambda: Level(
        "hard",
        ByTraining(
            "hard",
            learned=(_learned(), None),
            hand=(ExpectimaxPlayer(), Budget(playouts=4_000, seconds=0.25)),
        ),
        None,
    ),
    "expert": lambda: Level(
        "expert",
        ByTraining(
            "expert",
            learned=(_compiled_search(), EXPERT_BUDGET),
            hand=(MctsPlayer(), Budget(playouts=1_000, seconds=1.2)),
        ),
        None,
    ),
}
"""The levels by name, easiest first. The searching levels stop at their playouts or at
their seconds, whichever comes first: on a quiet machine like this one the playouts come
first (the same seed gives the same game), and the clock keeps a decision within the
promised time (``hard`` 0.3 s, ``expert`` 1.5 s) on a busy or slower one."""


def make_level(name: str) -> Level:
    """A new level by name (``easy``, ``medium``, ``hard``, ``expert``)."""
    factory = LEVELS.get(name)
    if factory is None:
        raise ValueError(f"unknown level {name!r}; choose one of: {', '.join(LEVELS)}")
    return factory()
