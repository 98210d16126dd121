"""Expectimax: a depth-limited search over the exact throw probabilities.

Decision nodes belong to the seat to act: a node of the searching seat's side takes the
best child for that side, any other node the worst (in a team game the partner plays for
us and both enemies against us; with ``teams = individual`` every other seat is assumed to
play against the searcher, the "paranoid" reduction to two sides). Chance nodes average
their children with the probabilities of :func:`pachisi.rules.engine.chance_outcomes`.
Leaves are scored by :func:`pachisi.ai.evaluation.win_chance` (or the ``evaluate`` the
player is given, such as the learned one), so every value is an
estimated chance of winning, between 0 and 1, and chance nodes are pruned with those
bounds by Ballard's Star1 (a child's window is what it would need to move the weighted sum
out of the parent's window, given the children already searched and the bounds 0 and 1
for the rest).

Depth counts decisions: depth 1 scores the positions the legal actions lead to, depth 2
adds every throw that can follow and the best reply to it, and so on. The first throw after
a decision costs no depth; each further throw in a row (graces, collect mode's throwing
phase) costs one, so that a series of throws, which has no fixed end, cannot outgrow the
search. A throw due when the depth is spent is not expanded: its position is scored as it
stands. The search deepens one level at a time while its budget lasts (a budget in
playouts counts the positions it visits, in every iteration) and keeps the deepest complete
answer.

>>> import random
>>> from pachisi.rules import engine
>>> from pachisi.rules.ruleset import get_ruleset
>>> state, _ = engine.apply_chance(engine.new_game(get_ruleset("ludii")), 3)
>>> str(ExpectimaxPlayer().choose(state, random.Random(1), Budget(playouts=300)))
'0a*3'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from pachisi.ai.budget import Budget, Deadline
from pachisi.ai.evaluation import side_of, win_chances
from pachisi.ai.ranked import Ranked
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.state import CHANCE, State

__all__ = ["ExpectimaxPlayer"]

MAX_DEPTH: Final = 8
"""The deepest iteration the search tries, whatever its budget."""
DEFAULT_BUDGET: Final = Budget(playouts=2000)
"""Leaves scored per decision when the caller gives no budget."""
_EPS: Final = 1e-12


Evaluate = Callable[[State, int], Sequence[float]]
"""A leaf evaluation: every side's chance of winning from a state, as the searching seat
(the second argument) sees it."""


def _hand_weighted(state: State, seat: int) -> Sequence[float]:
    """:func:`pachisi.ai.evaluation.win_chances`, which looks the same from every seat."""
    return win_chances(state)


class _OutOfBudget(Exception):
    """The budget ran out in the middle of an iteration."""


class _Search:
    """One decision's search: the side it plays for and the budget being spent."""

    def __init__(self, root: State, deadline: Deadline, evaluate: Evaluate) -> None:
        self.side = side_of(root, root.seat)
        self.seat = root.seat
        self.evaluate = evaluate
        self.deadline = deadline
        self.scores: dict[tuple[State, int], float] = {}

    def leaf(self, state: State, actor: int) -> float:
        """The evaluation of ``state`` for the searching side, as ``actor`` (the seat whose
        action led to it) sees it: a learned evaluation was trained on positions seen by
        the seat that had just moved."""
        key = (state, actor)
        known = self.scores.get(key)
        if known is not None:
            return known
        value = self.evaluate(state, actor)[self.side]
        self.scores[key] = value
        return value

    def value(
        self,
        state: State,
        depth: int,
        alpha: float,
        beta: float,
        actor: int,
        chained: bool = False,
    ) -> float:
        """The value of ``state`` for the searching side, exact if it lies in (alpha, beta);
        otherwise a bound on the far side of the window. ``actor``: the seat whose action
        led to ``state``; ``chained``: ``state`` was reached by a throw."""
        if self.deadline.exhausted():
            raise _OutOfBudget
        self.deadline.spend()
        if state.is_over:
            return self.leaf(state, actor)
        if engine.current_player(state) == CHANCE:
            if chained:
                depth -= 1
            if depth <= 0:
                return self.leaf(state, actor)
            return self._chance(state, depth, alpha, beta, actor)
        if depth <= 0:
            return self.leaf(state, actor)
        return self._decide(state, depth, alpha, beta)

    def children(self, state: State) -> list[tuple[Action, State]]:
        return [(a, engine.apply_action(state, a)[0]) for a in engine.legal_actions(state)]

    def _decide(self, state: State, depth: int, alpha: float, beta: float) -> float:
        ours = side_of(state, state.seat) == self.side
        kids = self.children(state)
        if depth >= 2 and len(kids) > 1:
            # Best-first by the static score, so that the window narrows early.
            kids.sort(key=lambda kid: self.leaf(kid[1], state.seat), reverse=ours)
        best = -1.0 if ours else 2.0
        for _, child in kids:
            v = self.value(child, depth - 1, alpha, beta, state.seat)
            if ours:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def _chance(self, state: State, depth: int, alpha: float, beta: float, actor: int) -> float:
        # Star1 with the value bounds 0 and 1.
        outcomes = [(k, float(p)) for k, p in engine.chance_outcomes(state)]
        done = 0.0  # sum of p * v over the searched outcomes
        left = 1.0  # probability of the outcomes not yet searched
        for k, p in outcomes:
            left -= p
            lo = (alpha - done - left * 1.0) / p
            hi = (beta - done - left * 0.0) / p
            child, _ = engine.apply_chance(state, k)
            v = self.value(child, depth, max(lo, 0.0), min(hi, 1.0), actor, chained=True)
            done += p * v
            if v >= hi:
                return done  # a lower bound, at least beta: the rest can only add
            if v <= lo:
                return done + left  # an upper bound, at most alpha: the rest all 1
        return done

    def root(self, state: State, depth: int) -> list[tuple[Action, float]]:
        """Exact values of every root action at ``depth``."""
        return [
            (a, self.value(child, depth - 1, 0.0, 1.0, state.seat))
            for a, child in self.children(state)
        ]


class ExpectimaxPlayer:
    """Chooses by :mod:`pachisi.ai.expectimax`'s search (see the module's description)."""

    def __init__(
        self,
        name: str = "expectimax",
        default_budget: Budget | None = None,
        max_depth: int = MAX_DEPTH,
        evaluate: Evaluate | None = None,
    ) -> None:
        self.name = name
        self.default_budget = default_budget or DEFAULT_BUDGET
        self.max_depth = max_depth
        self.evaluate: Evaluate = evaluate or _hand_weighted

    def rank(self, state: State, rng: random.Random, budget: Budget | None = None) -> list[Ranked]:
        """Every legal action with its value for the mover's side, best first."""
        actions = engine.legal_actions(state)
        if not actions:
            raise ValueError("no action to choose: a throw is due or the game is over")
        spend = (budget or Budget()).or_default(self.default_budget)
        deadline = Deadline(spend)
        search = _Search(state, deadline, self.evaluate)
        best: list[tuple[Action, float]] = []
        reached = 0
        for depth in range(1, self.max_depth + 1):
            try:
                best = search.root(state, depth)
            except _OutOfBudget:
                break
            reached = depth
            if len(actions) == 1:
                break
        if not best:
            # Not even depth 1 fitted the budget: score what it could, zero for the rest.
            best = [
                (a, search.scores.get((engine.apply_action(state, a)[0], state.seat), 0.0))
                for a in actions
            ]
        order = sorted(range(len(best)), key=lambda i: (-best[i][1], i))
        return [Ranked(best[i][0], best[i][1], reached) for i in order]

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        actions = engine.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        ranked = self.rank(state, rng, budget)
        top = [r.action for r in ranked if r.win >= ranked[0].win - _EPS]
        return top[0] if len(top) == 1 else rng.choice(top)
