"""A Monte Carlo tree search player that treats the cowrie throws as chance.

The tree (:mod:`pachisi.ai._mcts_tree`) has decision nodes for the seat to act and chance
nodes whose children are the throws' outcomes with their exact probabilities; leaves are
valued by games played on to the end in the compiled engine (:mod:`pachisi.ai._mcts_rollout`).
Values are kept per side (per team in pairs, per seat under ``teams = individual``), and
every decision node maximises its own mover's side, so partners cooperate and seats playing
alone play max-n. One unit of the :class:`~pachisi.ai.budget.Budget` is one iteration.

>>> import random
>>> from pachisi.rules import engine
>>> from pachisi.rules.ruleset import get_ruleset
>>> state, _ = engine.apply_chance(engine.new_game(get_ruleset("ludii")), 3)
>>> str(MctsPlayer().choose(state, random.Random(1)))
'0a*3'
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from pachisi.ai._mcts_rollout import ROLLOUT_PLAYERS, Evaluate, Rollouts
from pachisi.ai._mcts_tree import Node, Rollout, iterate
from pachisi.ai.budget import Budget, Deadline
from pachisi.ai.evaluation import side_of, win_chances
from pachisi.ai.ranked import Ranked
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.state import State

__all__ = ["DEFAULT_BUDGET", "MctsPlayer"]

DEFAULT_BUDGET: Final = Budget(playouts=1000)
"""What one decision may cost when the caller gives no budget (about 0.1 s in ``classic``)."""
DEFAULT_EXPLORATION: Final = 0.1
"""The UCT exploration constant. Values are chances of winning, but the actions of one
decision rarely differ by more than a few percent, so it is small."""


class _Evaluation:
    """A leaf valued by the evaluation alone."""

    def __init__(self, evaluate: Evaluate) -> None:
        self.evaluate = evaluate

    def __call__(self, state: State, rng: random.Random) -> list[float]:
        return self.evaluate(state)


class _EvaluationPriors:
    """PUCT priors: a softmax of the mover's win chance after each action."""

    def __init__(self, temperature: float, evaluate: Evaluate) -> None:
        self.temperature = temperature
        self.evaluate = evaluate

    def __call__(self, state: State, actions: Sequence[Action]) -> list[float]:
        side = side_of(state, state.seat)
        values = [self.evaluate(engine.apply_action(state, a)[0])[side] for a in actions]
        top = max(values)
        weights = [math.exp((v - top) / self.temperature) for v in values]
        total = sum(weights)
        return [w / total for w in weights]


class MctsPlayer:
    """Chooses by Monte Carlo tree search over decisions and throws.

    ``rollout`` names who plays the rollouts in the compiled engine (``greedy`` or
    ``random``), or ``none`` (the default, the strongest measured) to value a leaf by the
    evaluation (:func:`pachisi.ai.evaluation.win_chances`) alone. ``per_leaf`` is how many
    games value a new leaf, ``rollout_steps`` (``None``: to the end) after how many throws
    and actions a rollout stops to be valued by the evaluation, and ``rollout_weight`` the
    share of the rollouts in a leaf's value, the rest being the leaf's evaluation.
    ``evaluate`` replaces the evaluation (a function of a state giving every side's chance
    of winning). ``prior_temperature`` (``None``: plain UCT) turns on PUCT with priors from the
    evaluation after each action. A search limited by playouts alone is reproducible: the
    same state, generator state and budget give the same choice.
    """

    def __init__(
        self,
        name: str = "mcts",
        default_budget: Budget = DEFAULT_BUDGET,
        exploration: float = DEFAULT_EXPLORATION,
        rollout: str = "none",
        per_leaf: int = 1,
        rollout_steps: int | None = None,
        rollout_weight: float = 1.0,
        prior_temperature: float | None = None,
        evaluate: Evaluate = win_chances,
    ) -> None:
        if default_budget.playouts is None and default_budget.seconds is None:
            raise ValueError("the default budget must limit playouts or seconds")
        if rollout not in (*ROLLOUT_PLAYERS, "none"):
            known = ", ".join((*ROLLOUT_PLAYERS, "none"))
            raise ValueError(f"rollout is one of {known}, not {rollout!r}")
        if not exploration >= 0:
            raise ValueError(f"the exploration constant cannot be negative: {exploration}")
        self.name = name
        self.default_budget = default_budget
        self.exploration = exploration
        rollouts = Rollouts(
            "greedy" if rollout == "none" else rollout,
            per_leaf,
            rollout_steps,
            rollout_weight,
            evaluate,
        )
        self.leaf: Rollout = _Evaluation(evaluate) if rollout == "none" else rollouts
        if prior_temperature is not None and not prior_temperature > 0:
            raise ValueError(f"the prior temperature must be positive, not {prior_temperature}")
        self.priors = (
            None if prior_temperature is None else _EvaluationPriors(prior_temperature, evaluate)
        )

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        """The most visited action after the search; a single legal action at once."""
        actions = engine.legal_actions(state)
        if not actions:
            raise ValueError("no action to choose: a throw is due or the game is over")
        if len(actions) == 1:
            return actions[0]
        return self.rank(state, rng, budget)[0].action

    def rank(self, state: State, rng: random.Random, budget: Budget | None = None) -> list[Ranked]:
        """Every legal action with its estimated win chance and visits, most visited first."""
        root = self.search(state, rng, budget)
        ranked = [
            Ranked(action, child.mean(root.side), child.visits)
            for action, child in zip(root.actions, root.children, strict=False)
        ]
        fallback = root.mean(root.side)
        ranked += [Ranked(a, fallback, 0) for a in root.actions[len(root.children) :]]
        # Stable: equal visits and values keep the engine's order.
        ranked.sort(key=lambda r: (r.effort, r.win), reverse=True)
        return ranked

    def search(self, state: State, rng: random.Random, budget: Budget | None = None) -> Node:
        """The search tree grown from ``state`` within the budget."""
        root = Node(state)
        if root.mover < 0:
            raise ValueError("no action to choose: a throw is due or the game is over")
        deadline = Deadline((budget or self.default_budget).or_default(self.default_budget))
        while not deadline.exhausted():
            iterate(root, rng, self.leaf, self.exploration, self.priors)
            deadline.spend()
        return root
