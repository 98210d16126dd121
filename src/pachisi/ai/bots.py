"""Computer players that pick one of the engine's legal actions.

A bot never works out a rule for itself: it asks :func:`pachisi.rules.engine.legal_actions`
what is allowed and, for :class:`GreedyBot`, lets :func:`~pachisi.rules.engine.apply_action`
say what each choice leads to. Randomness comes only from the generator the caller passes,
so a seeded game is reproducible.

>>> import random
>>> from pachisi.rules import engine
>>> from pachisi.rules.ruleset import get_ruleset
>>> state, _ = engine.apply_chance(engine.new_game(get_ruleset("ludii")), 3)
>>> str(GreedyBot().choose(state, random.Random(1)))
'0a*3'
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final, Protocol

from pachisi.ai.budget import Budget
from pachisi.rules import cowries, engine
from pachisi.rules.actions import Action
from pachisi.rules.board import HOME, IS_CASTLE, LAST_SQUARE, SQUARE_OF
from pachisi.rules.choices import CastleMode
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import Event, State

__all__ = [
    "Bot",
    "GreedyBot",
    "RandomBot",
    "UnknownBotError",
    "Weights",
    "add_piece_worth",
    "risk_map",
]


class Bot(Protocol):
    """Anything that can choose an action for the seat to act."""

    @property
    def name(self) -> str:
        """The name :func:`pachisi.ai.players.make_player` knows the player by."""
        ...

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        """One of ``engine.legal_actions(state)``; ``rng`` breaks ties or picks at random.

        ``budget`` limits a searching player's work for this decision (``None``: its own
        default); players that do not search ignore it. The same state, generator state
        and budget in playouts give the same choice.
        """
        ...


class UnknownBotError(ValueError):
    """A player name :func:`pachisi.ai.players.make_player` does not know."""


def _legal(state: State) -> tuple[Action, ...]:
    actions = engine.legal_actions(state)
    if not actions:
        raise ValueError("no action to choose: a throw is due or the game is over")
    return actions


class RandomBot:
    """Picks uniformly among all legal actions, declining included: a baseline opponent."""

    name: Final = "random"

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        return rng.choice(_legal(state))


@dataclass(frozen=True, slots=True)
class Weights:
    """How much :class:`GreedyBot` cares about each feature of a position (points)."""

    progress: float = 1.0
    """Per step of progress of a friendly piece (own or partner)."""
    enemy_progress: float = 1.0
    """Per step of progress of an enemy piece (subtracted)."""
    out: float = 8.0
    """Per friendly piece out of the Charkoni (on the board or home)."""
    home: float = 30.0
    """Per friendly piece home, on top of its progress."""
    capture: float = 40.0
    """Per enemy piece the action captures, on top of the progress the enemy loses."""
    castle: float = 2.0
    """Per friendly piece resting on a castle, where castles protect (not ``inert``)."""
    danger: float = 1.0
    """Times the expected loss of a friendly piece that enemies 2..25 steps behind could
    hit on their next throw (its progress plus ``out``, times the chance of a hit)."""


REACH: Final = range(2, 26)
"""Distances a throw can cover in one move, for the danger estimate: 2..25 steps."""
REACH_FLOOR: Final = 0.02
"""Hit chance assumed for a distance no single throw covers (reached by two throws)."""


class GreedyBot:
    """Looks one action ahead and takes the one whose result scores best for its team.

    The score (see :class:`Weights`) counts friendly progress, pieces out and home, captures
    and castle rests, minus enemy progress and a penalty for friendly pieces standing 2..25
    steps ahead of an enemy piece on a square where they can be captured. Equal scores are
    broken by the caller's generator.
    """

    name: Final = "greedy"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights if weights is not None else Weights()

    def choose(self, state: State, rng: random.Random, budget: Budget | None = None) -> Action:
        actions = _legal(state)
        if len(actions) == 1:
            return actions[0]
        best: list[Action] = []
        best_score = float("-inf")
        for action in actions:
            score = self.score(state, action)
            # A small tolerance so that float noise cannot split a genuine tie.
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif score >= best_score - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else rng.choice(best)

    def score(self, state: State, action: Action) -> float:
        """What taking ``action`` in ``state`` is worth to the side of the seat to act."""
        after, events = engine.apply_action(state, action)
        return self.evaluate(after, state.seat) + self._captures(events, state.seat, state)

    def evaluate(self, state: State, seat: int) -> float:
        """The score of ``state`` for the side of ``seat`` (higher is better)."""
        w = self.weights
        friends = _friends(state, seat)
        risk = risk_map(state, friends)
        castles_protect = state.ruleset.castle_mode != CastleMode.INERT
        score = 0.0
        for g, p in enumerate(state.pos):
            if p == 0:
                continue
            if g >> 2 not in friends:
                score -= w.enemy_progress * p
                continue
            score = add_piece_worth(score, w, g >> 2, p, castles_protect, risk)
        return score

    def _captures(self, events: list[Event], seat: int, state: State) -> float:
        friends = _friends(state, seat)
        taken = sum(len(e.pieces) for e in events if e.kind == "capture" and e.seat in friends)
        return self.weights.capture * taken


def add_piece_worth(
    total: float,
    w: Weights,
    seat: int,
    p: int,
    castles_protect: bool,
    risk: dict[int, float],
) -> float:
    """``total`` plus the worth of a friendly piece of ``seat`` at progress ``p`` (not 0).

    The one greedy evaluation of a piece: :meth:`GreedyBot.evaluate` and
    :func:`pachisi.ai.evaluation.strengths` both add their pieces with it, and the compiled
    greedy player repeats it operation for operation (so the order of the float additions
    must not change): progress and ``out``, then ``home`` for a piece home, ``castle`` for
    one resting on a castle that protects, or minus its expected loss to the ``risk`` map
    of :func:`risk_map`.
    """
    total += w.progress * p + w.out
    if p == HOME:
        return total + w.home
    square = SQUARE_OF[seat][p]
    if castles_protect and IS_CASTLE[square]:
        return total + w.castle
    return total - w.danger * (w.progress * p + w.out) * risk.get(square, 0.0)


def risk_map(state: State, friends: Collection[int]) -> dict[int, float]:
    """Square -> the chance that a piece of a seat outside ``friends`` hits it next throw.

    Only enemy pieces attack; most candidate actions leave them where they were, so the
    cached map is usually reused across one decision.
    """
    attackers = tuple(0 if g >> 2 in friends else p for g, p in enumerate(state.pos))
    return _hit_chances(state.ruleset, attackers)


def _friends(state: State, seat: int) -> frozenset[int]:
    """The seats on ``seat``'s side: itself and, playing in pairs, its partner."""
    r = state.ruleset
    return frozenset(engine.side_seats(r, engine.side_of(r, seat)))


@functools.lru_cache(maxsize=1024)
def _hit_chances(ruleset: Ruleset, attackers: tuple[int, ...]) -> dict[int, float]:
    """Square -> the chance that an attacker 2..25 steps behind lands on it next throw.

    ``attackers`` is the 16 progresses with non-attacking pieces set to 0. Attackers are
    treated as independent; only the ruleset's throw table is read, never a movement rule.
    """
    by_distance = _single_throw_chances(ruleset)
    miss: dict[int, float] = {}
    for g, p in enumerate(attackers):
        enemy = g >> 2
        if not 1 <= p <= LAST_SQUARE:
            continue
        row = SQUARE_OF[enemy]
        for d in REACH:
            t = p + d
            if t > LAST_SQUARE:
                break
            square = row[t]
            miss[square] = miss.get(square, 1.0) * (1.0 - by_distance.get(d, REACH_FLOOR))
    return {square: 1.0 - m for square, m in miss.items()}


@functools.lru_cache(maxsize=32)
def _single_throw_chances(ruleset: Ruleset) -> dict[int, float]:
    """Throw value -> its probability in one throw, under the ruleset's table."""
    chances: dict[int, float] = {}
    for k, pr in cowries.chance_outcomes(ruleset.cowries, ruleset.p_mouth_up):
        value = ruleset.score_table[k]
        chances[value] = chances.get(value, 0.0) + float(pr)
    return chances
