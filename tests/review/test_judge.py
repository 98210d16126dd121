"""judge() on hand-made positions: grades follow the win chance lost and the thresholds."""

from __future__ import annotations

import pytest

from pachisi.notation import read_position
from pachisi.review import (
    DECISION_GRADES,
    THRESHOLDS,
    Task,
    Thresholds,
    grade_of,
    judge,
)
from pachisi.rules import engine
from pachisi.rules.actions import Action

RISK = "20,56,0,0/38,0,0,0/0,0,0,0/0,0,0,0 a0 30 k=2 entered=0,1 classic"
"""South throws a 2. 0.b on p56 is one square ahead of East's man (no throw is worth 1);
moving it to p58 puts it three ahead, in reach of a 3. Moving 0.a is safe."""
ONLY = "8,5,0,0/21,0,0,0/8,0,0,0/9,0,0,0 a1 14 k=4 entered=0,1,2,3 classic"
"""East throws a 4 and can only decline it."""


def task(position: str, move: str, step: int = 7) -> Task:
    return Task(step, position, move, read_position(position).seat)


def test_walking_into_a_capture_is_graded_worse_than_the_best() -> None:
    # The premise: after 0b+2 East's throw of 3 (k=3) can hit the man.
    after = engine.apply_action(read_position(RISK), Action.parse("0b+2"))[0]
    hit = engine.apply_chance(after, 3)[0]
    assert any(
        e.kind == "capture"
        for a in engine.legal_actions(hit)
        for e in engine.apply_action(hit, a)[1]
    )
    safe = judge(task(RISK, "0a+2"))
    risky = judge(task(RISK, "0b+2"))
    assert safe.grade == "best" and safe.best == "0a+2" and safe.loss == 0
    assert risky.best == "0a+2"
    assert risky.best_win == safe.best_win
    assert risky.played_win is not None and risky.best_win is not None
    assert risky.loss == pytest.approx(100 * (risky.best_win - risky.played_win))
    assert risky.loss > THRESHOLDS.inaccuracy
    assert DECISION_GRADES.index(risky.grade) > DECISION_GRADES.index(safe.grade)
    assert risky.grade == grade_of(risky.loss)
    # Each side's chance after the step: South's side has what the played action is worth.
    assert risky.chances[0] == pytest.approx(risky.played_win)
    assert sum(risky.chances) == pytest.approx(1)
    assert risky.before[0] == pytest.approx(risky.best_win)


def test_grades_follow_the_thresholds() -> None:
    loss = judge(task(RISK, "0b+2")).loss
    assert loss is not None
    strict = Thresholds(inaccuracy=loss / 4, mistake=loss / 2, blunder=loss * 0.9)
    lenient = Thresholds(inaccuracy=loss + 1, mistake=loss + 2, blunder=loss + 3)
    assert judge(task(RISK, "0b+2"), thresholds=strict).grade == "blunder"
    assert judge(task(RISK, "0b+2"), thresholds=lenient).grade == "best"
    t = THRESHOLDS
    assert [grade_of(x) for x in (0, t.inaccuracy - 0.01, t.inaccuracy, t.mistake, t.blunder)] == [
        "best",
        "best",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    with pytest.raises(ValueError, match="rise"):
        Thresholds(5, 3, 10)


def test_one_legal_action_is_forced_and_not_searched() -> None:
    v = judge(task(ONLY, "-"))
    assert v.grade == "forced"
    assert (v.best, v.loss, v.chances, v.before) == (None, None, (), ())


def test_a_throw_is_chance() -> None:
    start = "0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 ludii"
    v = judge(task(start, "t3", step=0))
    assert (v.grade, v.played, v.loss) == ("chance", "t3", None)


@pytest.mark.parametrize(
    ("position", "move", "words"),
    [
        (RISK, "0c+2", "not legal"),
        (RISK, "zz", "not an action"),
        ("0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 ludii", "0a*3", "a throw is due"),
        ("nonsense", "-", "expected at least 4 fields"),
    ],
)
def test_a_bad_task_is_refused(position: str, move: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        judge(Task(3, position, move, 0))
