"""Reading a review's JSON document back (:func:`read_review`, the inverse of
:meth:`pachisi.review.model.Review.to_json`), checking every field: a bad document is a
``ValueError`` that names the field. It builds :class:`~pachisi.review.model.Review` values,
so it sits above the model, which does not import it."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final, TypeVar

from pachisi.notation import NotationError, read_position
from pachisi.review.model import (
    DECISION_GRADES,
    GRADES,
    SCHEMA_VERSION,
    Review,
    Thresholds,
    Verdict,
)

__all__ = ["read_review"]

T = TypeVar("T")

_TOP: Final = (
    "version",
    "ruleset",
    "seats",
    "sides",
    "result",
    "level",
    "seed",
    "thresholds",
    "start",
    "steps",
    "summary",
)
_STEP: Final = (
    "step",
    "seat",
    "position",
    "played",
    "grade",
    "best",
    "best_win",
    "played_win",
    "loss",
    "chances",
    "before",
)
_MAX_STEPS: Final = 1_000_000
"""More steps than any record the reader takes holds (pachisi.notation.MAX_RECORD_LENGTH)."""


def read_review(data: object) -> Review:
    """The :class:`Review` of ``data``; ``ValueError`` naming the first bad field."""
    top = _object(data, "the review", _TOP)
    version = top["version"]
    if type(version) is not int or version != SCHEMA_VERSION:
        raise ValueError(f"version: this reads version {SCHEMA_VERSION}, not {version!r}")
    seats = _list(top["seats"], "seats", _text)
    if len(seats) != 4:
        raise ValueError(f"seats: 4 names, not {len(seats)}")
    sides = _sides(top["sides"])
    thresholds = _thresholds(top["thresholds"])
    raw_steps = _list(top["steps"], "steps", lambda v, where: v)
    if len(raw_steps) > _MAX_STEPS:
        raise ValueError(f"steps: at most {_MAX_STEPS:,}, not {len(raw_steps):,}")
    steps = tuple(_step(v, f"steps[{i}]", i, len(sides)) for i, v in enumerate(raw_steps))
    review = Review(
        ruleset=_text(top["ruleset"], "ruleset"),
        seats=(seats[0], seats[1], seats[2], seats[3]),
        sides=sides,
        result=_text(top["result"], "result"),
        level=_text(top["level"], "level"),
        seed=_whole(top["seed"], "seed", 0, 2**64 - 1),
        thresholds=thresholds,
        steps=steps,
        start=_chances(top["start"], "start", len(sides)),
    )
    if top["summary"] != [s.to_json() for s in review.summary]:
        raise ValueError("summary: does not agree with the steps")
    return review


def _step(data: object, where: str, index: int, n: int) -> Verdict:
    d = _object(data, where, _STEP)
    step = _whole(d["step"], f"{where}.step", index, index)
    grade = d["grade"]
    if grade not in GRADES:
        raise ValueError(f"{where}.grade: one of {', '.join(GRADES)}, not {grade!r}")
    position = _text(d["position"], f"{where}.position")
    try:
        read_position(position)
    except NotationError as exc:
        raise ValueError(f"{where}.position: {exc}") from None
    judged = grade in DECISION_GRADES
    fields = ("best", "best_win", "played_win", "loss")
    if not judged and any(d[f] is not None for f in fields):
        raise ValueError(f"{where}: a {grade} step has no best, best_win, played_win or loss")
    if judged and any(d[f] is None for f in fields):
        raise ValueError(f"{where}: a judged step needs best, best_win, played_win and loss")
    before = _chances(d["before"], f"{where}.before", n, empty=not judged)
    if judged != bool(before):
        raise ValueError(f"{where}.before: set for judged steps only")
    return Verdict(
        step=step,
        seat=_whole(d["seat"], f"{where}.seat", 0, 3),
        position=position,
        played=_text(d["played"], f"{where}.played"),
        grade=grade,
        best=None if d["best"] is None else _text(d["best"], f"{where}.best"),
        best_win=_optional(d["best_win"], f"{where}.best_win", 1.0),
        played_win=_optional(d["played_win"], f"{where}.played_win", 1.0),
        loss=_optional(d["loss"], f"{where}.loss", 100.0),
        chances=_chances(d["chances"], f"{where}.chances", n),
        before=before,
    )


def _object(data: object, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: an object, not {type(data).__name__}")
    missing = [k for k in keys if k not in data]
    if missing:
        raise ValueError(f"{where}: missing {', '.join(missing)}")
    extra = sorted(str(k) for k in data if k not in keys)
    if extra:
        raise ValueError(f"{where}: unknown field {', '.join(extra)}")
    return data


def _list(data: object, where: str, item: Callable[[Any, str], T]) -> list[T]:
    if not isinstance(data, list):
        raise ValueError(f"{where}: a list, not {type(data).__name__}")
    return [item(v, f"{where}[{i}]") for i, v in enumerate(data)]


def _text(data: object, where: str) -> str:
    if not isinstance(data, str):
        raise ValueError(f"{where}: a string, not {type(data).__name__}")
    return data


def _whole(data: object, where: str, lo: int, hi: int) -> int:
    if type(data) is not int or not lo <= data <= hi:
        raise ValueError(f"{where}: a whole number from {lo} to {hi}, not {data!r}")
    return data


def _number(data: object, where: str, hi: float) -> float:
    # bool is an int to Python, but true is no number of points.
    if not isinstance(data, int | float) or isinstance(data, bool):
        raise ValueError(f"{where}: a number from 0 to {hi:g}, not {data!r}")
    if not (math.isfinite(data) and 0 <= data <= hi):
        raise ValueError(f"{where}: a number from 0 to {hi:g}, not {data!r}")
    return float(data)


def _optional(data: object, where: str, hi: float) -> float | None:
    return None if data is None else _number(data, where, hi)


def _chances(data: object, where: str, n: int, *, empty: bool = False) -> tuple[float, ...]:
    values = _list(data, where, lambda v, w: _number(v, w, 1.0))
    if empty and not values:
        return ()
    if len(values) != n:
        raise ValueError(f"{where}: one chance per side ({n}), not {len(values)}")
    if abs(sum(values) - 1) > 1e-6:
        raise ValueError(f"{where}: the chances must add up to 1, not {sum(values):g}")
    return tuple(values)


def _sides(data: object) -> tuple[tuple[int, ...], ...]:
    sides = _list(data, "sides", lambda v, w: _list(v, w, lambda s, ws: _whole(s, ws, 0, 3)))
    seats = sorted(s for side in sides for s in side)
    if len(sides) not in (2, 4) or seats != [0, 1, 2, 3]:
        raise ValueError(f"sides: two teams or four seats holding seats 0..3 once, not {sides}")
    return tuple(tuple(side) for side in sides)


def _thresholds(data: object) -> Thresholds:
    d = _object(data, "thresholds", ("inaccuracy", "mistake", "blunder"))
    values = [_number(d[k], f"thresholds.{k}", 100.0) for k in ("inaccuracy", "mistake", "blunder")]
    return Thresholds(*values)
