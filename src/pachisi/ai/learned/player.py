"""The ``learned`` player: one action ahead, judged by the self-trained network.

For each legal action it asks the rules engine for the position the action leads to and
rates that position with the learned evaluation (:mod:`.value`) from its own seat, as in
training (:mod:`.train`), then takes the best for its side; the generator breaks ties.
"""

from __future__ import annotations

import random

from pachisi.ai.budget import Budget
from pachisi.ai.learned.value import LearnedEvaluation
from pachisi.ai.ranked import Ranked
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.state import State

__all__ = ["LearnedPlayer"]


class LearnedPlayer:
    """Chooses the action whose result the learned network rates best for its side."""

    name = "learned"

    def __init__(self) -> None:
        self.evaluate = LearnedEvaluation()

    def rank(self, state: State, rng: random.Random, budget: Budget | None = None) -> list[Ranked]:
        """Every legal action with the network's chance that the mover's side wins after
        it, best first (ties in the engine's order)."""
        del rng, budget  # one action ahead: nothing to draw, nothing to budget
        actions = engine.legal_actions(state)
        if not actions:
            raise ValueError("no action to choose: a throw is due or the game is over")
        seat = state.seat
        side = engine.side_of(state.ruleset, seat)
        ranked = []
        for action in actions:
            after, _ = engine.apply_action(state, action)
            ranked.append(Ranked(action, self.evaluate(after, seat)[side], 1))
        ranked.sort(key=lambda r: -r.win)
        return ranked

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        actions = engine.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        ranked = self.rank(state, rng, budget)
        top = ranked[0].win
        best = [r.action for r in ranked if r.win >= top - 1e-12]
        return best[0] if len(best) == 1 else rng.choice(best)
