"""The search tree of :mod:`pachisi.ai.mcts`: decision and chance nodes, one iteration.

Every node holds the state it stands for, its visits and, per side (team or seat, see
:func:`~pachisi.ai.evaluation.side_of`), the sum of the rewards backed up through it.

* A decision node's children are its legal actions, expanded one per iteration in the
  order of ``priors`` (best first); once all are, UCT picks the child with the best mean
  for the node's *own* mover's side plus an exploration bonus, so each seat maximises its
  side's value and consecutive decisions of one seat need no special case.
* A chance node has a slot for every throw ``k``, with its exact probability. The descent
  does not draw a throw at random: it takes the throw whose count lags furthest behind its
  probability's share (``p * (n + 1) - count``), so the counts follow the probabilities
  within one and a node's mean is a stratified estimate of its expectation, with no
  sampling noise from the choice of throws. A throw's child is made when the throw is first
  taken; throws that lead to the same state share one child.
* A state where the seat to act has a single legal action is never a node: the action is
  applied at once (:func:`advance`), so forced moves cost no iterations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from pachisi.ai._mcts_rollout import terminal_reward
from pachisi.ai.evaluation import side_of, sides
from pachisi.rules import cowries, engine
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import CHANCE, TERMINAL, State

__all__ = ["Node", "Rollout", "advance", "iterate"]

Rollout = Callable[[State, random.Random], list[float]]
"""Values a leaf: the reward per side of games played on from it."""
Priors = Callable[[State, Sequence[Action]], list[float]]
"""A probability for each legal action of a decision (PUCT), in the actions' order."""


def advance(state: State) -> State:
    """``state`` with every forced action (the only legal one) applied."""
    while engine.current_player(state) >= 0:
        actions = engine.legal_actions(state)
        if len(actions) != 1:
            break
        state, _ = engine.apply_action(state, actions[0])
    return state


class Node:
    """One state of the tree with its statistics."""

    __slots__ = (
        "actions",
        "children",
        "counts",
        "mover",
        "priors",
        "probs",
        "side",
        "slots",
        "state",
        "totals",
    )

    def __init__(self, state: State) -> None:
        self.state = state
        self.mover = engine.current_player(state)
        """The seat to act, or ``CHANCE`` / ``TERMINAL``."""
        self.side = side_of(state, self.mover) if self.mover >= 0 else -1
        self.totals = [0.0] * (sides(state) + 1)
        """Reward sums per side; the last entry counts the visits."""
        self.actions: tuple[Action, ...] = engine.legal_actions(state) if self.mover >= 0 else ()
        self.children: list[Node] = []
        """Decision nodes: one per action expanded, in ``actions`` order; chance nodes: the
        distinct states the throws taken so far led to."""
        self.probs: tuple[float, ...] = ()
        """Chance nodes: the probability of each throw ``k`` (0..cowries)."""
        self.counts: list[int] = []
        """Chance nodes: how often the descent took each throw."""
        self.slots: list[Node | None] = []
        """Chance nodes: the child each throw leads to, once it was taken."""
        self.priors: list[float] = []
        """Decision nodes under PUCT: the prior of each action, in ``actions`` order."""

    @property
    def visits(self) -> int:
        return int(self.totals[-1])

    def mean(self, side: int) -> float:
        """The mean reward of ``side`` through this node (0.5 before any visit)."""
        n = self.totals[-1]
        return self.totals[side] / n if n else 0.5

    def set_priors(self, priors: list[float]) -> None:
        """Reorder the actions best prior first, so that they are expanded in that order."""
        order = sorted(range(len(self.actions)), key=lambda i: -priors[i])
        self.actions = tuple(self.actions[i] for i in order)
        self.priors = [priors[i] for i in order]


_THROWS: dict[int, tuple[Ruleset, tuple[float, ...]]] = {}


def _throws(ruleset: Ruleset) -> tuple[float, ...]:
    """The probability of each ``k`` (mouths up) in a throw under ``ruleset``.

    Cached by the ruleset's identity: a search's states share one ruleset object, and
    hashing a ruleset (or its fractional probability) at every chance node costs more.
    """
    cached = _THROWS.get(id(ruleset))
    if cached is None or cached[0] is not ruleset:
        probs = tuple(
            float(p) for _, p in cowries.chance_outcomes(ruleset.cowries, ruleset.p_mouth_up)
        )
        if len(_THROWS) >= 64:
            _THROWS.clear()
        cached = _THROWS[id(ruleset)] = (ruleset, probs)
    return cached[1]


def _pick_chance(node: Node) -> Node:
    if not node.probs:
        node.probs = _throws(node.state.ruleset)
        node.counts = [0] * len(node.probs)
        node.slots = [None] * len(node.probs)
    counts = node.counts
    n = sum(counts) + 1
    best = 0
    best_lag = -math.inf
    for k, p in enumerate(node.probs):
        lag = p * n - counts[k]
        if lag > best_lag:
            best, best_lag = k, lag
    counts[best] += 1
    child = node.slots[best]
    if child is None:
        child = node.slots[best] = _child_after_throw(node, best)
    return child


def _child_after_throw(node: Node, k: int) -> Node:
    after, _ = engine.apply_chance(node.state, k)
    after = advance(after)
    # Compared without the ruleset, which every state here shares and is slow to compare.
    key = after[1:]
    for child in node.children:
        if child.state[1:] == key:
            return child
    node.children.append(Node(after))
    return node.children[-1]


def _pick_action(node: Node, exploration: float) -> Node:
    side = node.side
    best = node.children[0]
    best_score = -math.inf
    if node.priors:
        # PUCT: the prior shares out the exploration.
        scale = exploration * math.sqrt(node.totals[-1])
        for child, prior in zip(node.children, node.priors, strict=False):
            t = child.totals
            score = t[side] / t[-1] + scale * prior / (1.0 + t[-1])
            if score > best_score:
                best, best_score = child, score
        return best
    log_n = math.log(node.totals[-1])
    for child in node.children:
        t = child.totals
        score = t[side] / t[-1] + exploration * math.sqrt(log_n / t[-1])
        if score > best_score:
            best, best_score = child, score
    return best


def iterate(
    root: Node,
    rng: random.Random,
    rollout: Rollout,
    exploration: float,
    priors: Priors | None = None,
) -> None:
    """One iteration: descend, add one node, value it by a rollout, back the value up."""
    node = root
    path = [root]
    while True:
        if node.mover == TERMINAL:
            reward = terminal_reward(node.state)
            break
        if node.mover == CHANCE:
            node = _pick_chance(node)
            path.append(node)
            if not node.totals[-1]:
                reward = rollout(node.state, rng)
                break
            continue
        if node is not root and not node.totals[-1]:
            # A decision node reached for the first time (a throw led here): value it.
            reward = rollout(node.state, rng)
            break
        if len(node.children) < len(node.actions):
            if priors is not None and not node.children and not node.priors:
                node.set_priors(priors(node.state, node.actions))
            after, _ = engine.apply_action(node.state, node.actions[len(node.children)])
            node.children.append(Node(advance(after)))
            node = node.children[-1]
            path.append(node)
            reward = rollout(node.state, rng)
            break
        node = _pick_action(node, exploration)
        path.append(node)
    reward.append(1.0)
    for visited in path:
        t = visited.totals
        for j, r in enumerate(reward):
            t[j] += r
