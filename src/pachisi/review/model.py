"""The values of a game review: the steps to judge (:class:`Task`), their judgement
(:class:`Verdict`), the grade thresholds, and the whole :class:`Review` with its JSON form.

Everything here is a plain value, picklable, so that tasks and verdicts can cross to worker
processes. docs/review.md describes the JSON schema (:data:`SCHEMA_VERSION`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "BEST",
    "BLUNDER",
    "CHANCE",
    "DECISION_GRADES",
    "FORCED",
    "GRADES",
    "INACCURACY",
    "MISTAKE",
    "SCHEMA_VERSION",
    "THRESHOLDS",
    "Review",
    "SeatSummary",
    "Task",
    "Thresholds",
    "Verdict",
    "grade_of",
]

BEST: Final = "best"
INACCURACY: Final = "inaccuracy"
MISTAKE: Final = "mistake"
BLUNDER: Final = "blunder"
FORCED: Final = "forced"
"""One legal action (the rules core lists one per resulting position, C.10b): nothing to judge."""
CHANCE: Final = "chance"
"""A throw of the cowries: nobody chose it."""
DECISION_GRADES: Final = (BEST, INACCURACY, MISTAKE, BLUNDER)
"""The grades of a judged decision, from the best to the worst."""
GRADES: Final = (*DECISION_GRADES, FORCED, CHANCE)
"""Every grade a step can get."""

SCHEMA_VERSION: Final = 1
"""The ``version`` of :meth:`Review.to_json`'s document."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The win chance lost (in percentage points of the mover's side's expected score,
    against the best action) from which a decision is an inaccuracy, a mistake, a blunder.

    A loss below ``inaccuracy`` is ``best``; a loss of at least ``blunder`` a blunder.
    """

    inaccuracy: float
    mistake: float
    blunder: float

    def __post_init__(self) -> None:
        values = (self.inaccuracy, self.mistake, self.blunder)
        if not all(isinstance(v, int | float) and math.isfinite(v) for v in values):
            raise ValueError(f"thresholds must be finite numbers, not {values}")
        if not 0 < self.inaccuracy < self.mistake < self.blunder <= 100:
            raise ValueError(
                "thresholds must rise from above 0 to at most 100 points: "
                f"inaccuracy {self.inaccuracy}, mistake {self.mistake}, blunder {self.blunder}"
            )

    def to_json(self) -> dict[str, float]:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder}


THRESHOLDS: Final = Thresholds(inaccuracy=1.0, mistake=2.5, blunder=5.0)
"""The thresholds reviews use: docs/review.md gives the measured loss distributions of the
ladder's levels they were chosen from."""


def grade_of(loss: float, thresholds: Thresholds = THRESHOLDS) -> str:
    """The grade of a decision that lost ``loss`` points of win chance against the best."""
    if not loss >= 0:
        raise ValueError(f"a loss must be a number of points at least 0, not {loss}")
    if loss < thresholds.inaccuracy:
        return BEST
    if loss < thresholds.mistake:
        return INACCURACY
    if loss < thresholds.blunder:
        return MISTAKE
    return BLUNDER


@dataclass(frozen=True, slots=True)
class Task:
    """One step of a game to judge: small, picklable, and enough on its own."""

    step: int
    """The step's 0-based index in the record's moves (throws and actions)."""
    position: str
    """The position before the step, as a position string."""
    move: str
    """The step as the movetext writes it: ``t3`` for a throw, ``0a+4`` or ``-`` for an
    action."""
    seat: int
    """The seat that throws or acts."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the review says of one step.

    ``best``, ``best_win``, ``played_win`` and ``loss`` are set for judged decisions (grades
    ``best`` .. ``blunder``) and ``None`` otherwise. The chances are those of each side
    (:attr:`Review.sides`), 0..1, summing to 1.
    """

    step: int
    seat: int
    position: str
    played: str
    grade: str
    best: str | None = None
    """The best action by the judge (the played one when it is best)."""
    best_win: float | None = None
    """The mover's side's expected score after the best action, 0..1."""
    played_win: float | None = None
    """The mover's side's expected score after the played action, 0..1."""
    loss: float | None = None
    """``best_win - played_win`` in percentage points, 0..100."""
    chances: tuple[float, ...] = ()
    """Each side's win chance after the step: the graph's value. :func:`judge` sets it for
    judged decisions only; :func:`~pachisi.review.judging.review` fills in the others."""
    before: tuple[float, ...] = ()
    """Each side's win chance in the position before a judged decision (its best action's
    value): what the steps leading to it are worth."""

    @property
    def judged(self) -> bool:
        """Whether the step was a decision with a real choice."""
        return self.grade in DECISION_GRADES


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's record in a review: how many steps of each grade, and its average loss."""

    seat: int
    name: str
    counts: Mapping[str, int]
    """Every grade of :data:`GRADES` with its count."""
    average_loss: float | None
    """The mean loss of the seat's judged decisions, in points; ``None`` without any."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "counts": {g: self.counts[g] for g in GRADES},
            "average_loss": self.average_loss,
        }


@dataclass(frozen=True)
class Review:
    """A reviewed game: who played, under which rules, how each step was judged, and the
    win chance of each side after every step."""

    ruleset: str
    """The canonical ruleset string."""
    seats: tuple[str, str, str, str]
    """The seats' players, from the record's ``Seat0`` .. ``Seat3`` tags (``""`` if none)."""
    sides: tuple[tuple[int, ...], ...]
    """The seats of each side: two teams, or four seats under ``teams = individual``."""
    result: str
    """The record's result (``team0``, ``seat2``, ``draw``, ``*``)."""
    level: str
    """Whose judgement: the level that ranked the actions."""
    seed: int
    thresholds: Thresholds
    steps: tuple[Verdict, ...]
    start: tuple[float, ...]
    """Each side's win chance at the start position (the graph's first point)."""

    @property
    def summary(self) -> tuple[SeatSummary, ...]:
        """Each seat's counts of every grade and average loss."""
        return tuple(_summary(seat, self.seats[seat], self.steps) for seat in range(4))

    def chances(self, side: int) -> list[float]:
        """Side ``side``'s win chance at the start and after every step."""
        return [self.start[side], *(v.chances[side] for v in self.steps)]

    def to_json(self) -> dict[str, Any]:
        """The review as a JSON-ready dict (docs/review.md, version :data:`SCHEMA_VERSION`)."""
        return {
            "version": SCHEMA_VERSION,
            "ruleset": self.ruleset,
            "seats": list(self.seats),
            "sides": [list(s) for s in self.sides],
            "result": self.result,
            "level": self.level,
            "seed": self.seed,
            "thresholds": self.thresholds.to_json(),
            "start": list(self.start),
            "steps": [_verdict_json(v) for v in self.steps],
            "summary": [s.to_json() for s in self.summary],
        }


def _summary(seat: int, name: str, steps: Sequence[Verdict]) -> SeatSummary:
    counts = dict.fromkeys(GRADES, 0)
    losses: list[float] = []
    for v in steps:
        if v.seat != seat:
            continue
        counts[v.grade] += 1
        if v.loss is not None:
            losses.append(v.loss)
    average = sum(losses) / len(losses) if losses else None
    return SeatSummary(seat, name, counts, average)


def _verdict_json(v: Verdict) -> dict[str, Any]:
    return {
        "step": v.step,
        "seat": v.seat,
        "position": v.position,
        "played": v.played,
        "grade": v.grade,
        "best": v.best,
        "best_win": v.best_win,
        "played_win": v.played_win,
        "loss": v.loss,
        "chances": list(v.chances),
        "before": list(v.before),
    }
