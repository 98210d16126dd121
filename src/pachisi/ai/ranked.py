"""A legal action with what a player thinks of it: the answer of a hint."""

from __future__ import annotations

from dataclasses import dataclass

from pachisi.rules.actions import Action

__all__ = ["Ranked"]


@dataclass(frozen=True, slots=True)
class Ranked:
    """One legal action and the mover's side's expected score after it."""

    action: Action
    win: float
    """The expected score (0..1) of the side of the seat to act if it takes ``action``: the
    estimated chance that it wins, with a draw counting as an equal share for every side
    (1/2, or 1/4 under ``teams = individual``)."""
    effort: int = 0
    """How much of the search went into this action (visits, playouts or leaves)."""
