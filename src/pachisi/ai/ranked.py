"""A legal action with what a player thinks of it: the answer of a hint."""

from __future__ import annotations

from dataclasses import dataclass

from pachisi.rules.actions import Action

__all__ = ["Ranked"]


@dataclass(frozen=True, slots=True)
class Ranked:
    """One legal action and the estimated chance that the mover's side wins after it."""

    action: Action
    win: float
    """Estimated probability (0..1) that the side of the seat to act wins the game if it
    takes ``action`` (a draw counts as half)."""
    effort: int = 0
    """How much of the search went into this action (visits, playouts or leaves)."""
