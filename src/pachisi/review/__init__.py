"""Game review: every decision of a recorded game judged by ``expert``, with each side's
win chance after every step for a graph.

:func:`tasks` cuts a record into small picklable :class:`Task` values, :func:`judge` weighs
one (pure, so it runs in any worker process), :func:`review` judges them all, in-process or
through a ``run`` callable, into a :class:`Review` with a versioned JSON form. Grades follow
:data:`THRESHOLDS`; docs/review.md explains the win chance, the thresholds and the schema.
"""

from pachisi.review.judging import CHUNK, LEVEL, REVIEW_BUDGET, judge, judge_all, review, tasks
from pachisi.review.model import (
    BEST,
    BLUNDER,
    CHANCE,
    DECISION_GRADES,
    FORCED,
    GRADES,
    INACCURACY,
    MISTAKE,
    SCHEMA_VERSION,
    THRESHOLDS,
    Review,
    SeatSummary,
    Task,
    Thresholds,
    Verdict,
    grade_of,
)
from pachisi.review.pool import process_pool
from pachisi.review.reading import read_review

__all__ = [
    "BEST",
    "BLUNDER",
    "CHANCE",
    "CHUNK",
    "DECISION_GRADES",
    "FORCED",
    "GRADES",
    "INACCURACY",
    "LEVEL",
    "MISTAKE",
    "REVIEW_BUDGET",
    "SCHEMA_VERSION",
    "THRESHOLDS",
    "Review",
    "SeatSummary",
    "Task",
    "Thresholds",
    "Verdict",
    "grade_of",
    "judge",
    "judge_all",
    "process_pool",
    "read_review",
    "review",
    "tasks",
]
