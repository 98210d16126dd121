"""tasks() and review() of a short record, the JSON round trip and its refusals, and the
process pool giving what the in-process path gives."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from pachisi.notation import read_position, replay, write_position
from pachisi.review import (
    GRADES,
    SCHEMA_VERSION,
    THRESHOLDS,
    Review,
    process_pool,
    read_review,
    review,
    tasks,
)
from pachisi.rules import engine
from tests.review.games import NAMES, short_record

RECORD = short_record()


@pytest.fixture(scope="module")
def reviewed() -> Review:
    return review(RECORD)


def test_tasks_are_every_step_with_the_position_before_it() -> None:
    found = tasks(RECORD)
    assert [t.step for t in found] == list(range(len(RECORD.moves)))
    state = replay(RECORD).start
    for t, move in zip(found, RECORD.moves, strict=True):
        assert read_position(t.position) == state
        assert t.position == write_position(state)
        assert t.seat == state.seat
        assert t.move == (f"t{move}" if isinstance(move, int) else str(move))
        state = engine.apply(state, move)[0]


def test_review_judges_every_step_and_fills_the_graph(reviewed: Review) -> None:
    assert len(reviewed.steps) == len(RECORD.moves) == 60
    assert reviewed.seats == NAMES
    assert reviewed.sides == ((0, 2), (1, 3))
    assert reviewed.result == "*"
    assert reviewed.ruleset == "classic"
    grades = [v.grade for v in reviewed.steps]
    assert grades.count("chance") == sum(1 for m in RECORD.moves if isinstance(m, int))
    assert {"best", "forced"} <= set(grades)
    for v in reviewed.steps:
        assert len(v.chances) == 2 and sum(v.chances) == pytest.approx(1)
    # A throw's or forced step's graph value is that of the next judged position.
    for i, v in enumerate(reviewed.steps):
        ahead = next((w for w in reviewed.steps[i + 1 :] if w.judged), None)
        if not v.judged and ahead is not None:
            assert v.chances == ahead.before
    total = sum(sum(s.counts.values()) for s in reviewed.summary)
    assert total == len(reviewed.steps)
    assert [s.name for s in reviewed.summary] == list(NAMES)
    assert len(reviewed.chances(0)) == len(reviewed.steps) + 1


def test_progress_counts_up_to_the_steps() -> None:
    seen: list[tuple[int, int]] = []
    review(short_record(steps=12), progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 12) and seen[-1] == (12, 12)


def test_json_round_trip(reviewed: Review) -> None:
    data = reviewed.to_json()
    assert data["version"] == SCHEMA_VERSION
    assert data["thresholds"] == THRESHOLDS.to_json()
    assert set(data["summary"][0]["counts"]) == set(GRADES)
    assert read_review(json.loads(json.dumps(data))) == reviewed


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.pop(key) and None


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (_set(("version",), 2), "version"),
        (_set(("version",), True), "version"),
        (_drop("steps"), "missing steps"),
        (_set(("extra",), 1), "unknown field extra"),
        (_set(("seats",), ["a", "b"]), "4 names"),
        (_set(("sides",), [[0, 1], [1, 3]]), "sides"),
        (_set(("seed",), -1), "seed"),
        (_set(("thresholds", "mistake"), 1.0), "rise"),
        (_set(("steps", 3, "grade"), "brilliant"), "grade"),
        (_set(("steps", 3, "step"), 4), r"steps\[3\].step"),
        (_set(("steps", 3, "chances"), [0.9, 0.9]), "add up to 1"),
        (_set(("steps", 3, "chances"), [1.0]), "one chance per side"),
        (_set(("steps", 3, "position"), "junk"), r"steps\[3\].position"),
        (_set(("steps", 0, "loss"), float("nan")), "a chance step has no best"),
        (_set(("summary",), []), "summary"),
        (_set(("start",), "x"), "start: a list"),
    ],
)
def test_from_json_refuses_bad_input(
    reviewed: Review, change: Callable[[dict[str, Any]], None], words: str
) -> None:
    data = copy.deepcopy(reviewed.to_json())
    change(data)
    with pytest.raises(ValueError, match=words):
        read_review(data)
    with pytest.raises(ValueError, match="the review: an object"):
        read_review([])


def test_the_process_pool_gives_what_judging_here_gives(reviewed: Review) -> None:
    with process_pool(2) as run:
        assert review(RECORD, run=run) == reviewed


def test_individual_seats_are_four_sides() -> None:
    result = review(short_record(steps=30, ruleset="classic+teams=individual"))
    assert result.sides == ((0,), (1,), (2,), (3,))
    assert len(result.start) == 4
    for v in result.steps:
        assert len(v.chances) == 4 and sum(v.chances) == pytest.approx(1)
    judged = [v for v in result.steps if v.judged]
    assert judged, "the short game has a real decision"
    for v in judged:
        assert v.chances[v.seat] == pytest.approx(v.played_win)


def test_a_ruleset_without_a_network_is_judged_reproducibly() -> None:
    # expert searches with MCTS here: the review takes its playouts, not its clock.
    record = short_record(steps=24, ruleset="classic+capture_bonus=false")
    first = review(record, seed=5)
    assert any(v.judged for v in first.steps)
    assert review(record, seed=5) == first


def test_a_record_without_moves_has_only_a_start() -> None:
    result = review(short_record(steps=0))
    assert result.steps == ()
    assert result.start == pytest.approx((0.5, 0.5))
    assert read_review(result.to_json()) == result
