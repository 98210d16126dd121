"""Judging a game: :func:`tasks` cuts a record into steps, :func:`judge` weighs one step
with ``expert``'s search, :func:`review` judges them all and draws the win-chance graph.

A decision is judged by :func:`pachisi.ai.hints.hint`, which ranks every legal action by
the mover's side's expected score (a win 1, a draw an equal share). The loss of the played
action is the best action's score minus its own, in percentage points, and its grade
follows :data:`~pachisi.review.model.THRESHOLDS`. Throws and forced steps are not searched:
their graph value is the value of the next judged position (docs/review.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from pachisi.ai.budget import Budget
from pachisi.ai.evaluation import side_of, sides, win_chances
from pachisi.ai.hints import hint
from pachisi.ai.levels import make_level
from pachisi.ai.ranked import Ranked
from pachisi.notation import GameRecord, read_position, replay, write_position
from pachisi.notation.record import move_text, result_of
from pachisi.review.model import (
    CHANCE,
    FORCED,
    THRESHOLDS,
    Review,
    Task,
    Thresholds,
    Verdict,
    grade_of,
)
from pachisi.rules import engine
from pachisi.rules.actions import Action, InvalidActionError
from pachisi.rules.state import CHANCE as CHANCE_NODE
from pachisi.rules.state import State

__all__ = ["CHUNK", "LEVEL", "REVIEW_BUDGET", "budget_for", "judge", "judge_all", "review", "tasks"]

LEVEL: Final = "expert"
"""The level whose judgement a review gives."""
REVIEW_BUDGET: Final = Budget(playouts=20_000)
"""``expert``'s budget of positions with the learned evaluation, without its clock, so that
a review does not depend on how busy the machine is: the same record and seed give the same
review. Depth 3 needs at most about 4,300 positions on the named rulesets
(pachisi.ai.levels.EXPERT_BUDGET). Where ``expert`` falls back on its hand-weighted search,
a review takes that search's own playouts, again without the clock (:func:`budget_for`)."""
CHUNK: Final = 48
"""How many tasks :func:`review` hands to ``run`` at a time: small enough for a steady
progress bar, large enough that sending them costs little beside judging them."""

Run = Callable[[list[Task]], Sequence[Verdict]]
Progress = Callable[[int, int], None]


def tasks(record: GameRecord) -> list[Task]:
    """Every step of ``record`` (throws and actions), in order, with the position before it.

    Raises :class:`~pachisi.notation.RecordError` when the record does not replay.
    """
    state = replay(record).start
    out: list[Task] = []
    for index, move in enumerate(record.moves):
        seat = state.seat
        out.append(Task(index, write_position(state), move_text(move), seat))
        state = engine.apply(state, move)[0]
    return out


def judge(
    task: Task, *, seed: int = 0, thresholds: Thresholds = THRESHOLDS, level: str = LEVEL
) -> Verdict:
    """The verdict on one step: pure, no I/O; the same task and seed give the same verdict.

    Raises ``ValueError`` when the task's position or move is not valid or not legal there.
    """
    state = read_position(task.position)
    base = Verdict(task.step, task.seat, task.position, task.move, CHANCE)
    if engine.current_player(state) == CHANCE_NODE:
        if not task.move.startswith("t"):
            raise ValueError(f"step {task.step}: a throw is due, not the action {task.move!r}")
        return base
    played = _played(state, task)
    actions = engine.legal_actions(state)
    # The rules core lists one action per resulting position (C.10b): one action is no choice.
    if len(actions) == 1:
        return replace(base, grade=FORCED)
    ranked = hint(state, level, seed=seed, budget=budget_for(state, level))
    best = ranked[0]
    mine = _find(ranked, played)
    loss = max(0.0, best.win - mine.win) * 100
    side = side_of(state, state.seat)
    return replace(
        base,
        grade=grade_of(loss, thresholds),
        best=str(best.action),
        best_win=best.win,
        played_win=mine.win,
        loss=loss,
        chances=_spread(engine.apply_action(state, played)[0], side, mine.win),
        before=_spread(engine.apply_action(state, best.action)[0], side, best.win),
    )


def judge_all(
    chunk: Sequence[Task], *, seed: int = 0, thresholds: Thresholds = THRESHOLDS
) -> list[Verdict]:
    """:func:`judge` of every task of ``chunk``: what a worker process runs for ``run``."""
    return [judge(t, seed=seed, thresholds=thresholds) for t in chunk]


def review(
    record: GameRecord,
    *,
    seed: int = 0,
    run: Run | None = None,
    progress: Progress | None = None,
    thresholds: Thresholds = THRESHOLDS,
) -> Review:
    """Judge every step of ``record`` and draw the win-chance graph.

    ``run`` takes a list of tasks (at most :data:`CHUNK`) and returns their verdicts as
    ``judge_all(tasks, seed=seed, thresholds=thresholds)`` does, in order; without it the
    tasks are judged here. ``progress(done, total)`` is called after each chunk. Raises
    :class:`~pachisi.notation.RecordError` when the record does not replay.
    """
    game = replay(record)
    todo = tasks(record)
    verdicts: list[Verdict] = []
    total = len(todo)
    if progress is not None:
        progress(0, total)
    for first in range(0, total, CHUNK):
        chunk = todo[first : first + CHUNK]
        got = run(chunk) if run is not None else judge_all(chunk, seed=seed, thresholds=thresholds)
        if [v.step for v in got] != [t.step for t in chunk]:
            raise ValueError("run returned verdicts that do not match its tasks")
        verdicts.extend(got)
        if progress is not None:
            progress(len(verdicts), total)
    end = _final_chances(game.state)
    steps = _fill_graph(verdicts, end)
    start = steps[0].before if steps and steps[0].before else _after_start(steps, end)
    names = tuple(record.tags.get(f"Seat{s}", "") for s in range(4))
    n = sides(game.start)
    return Review(
        ruleset=str(game.start.ruleset),
        seats=(names[0], names[1], names[2], names[3]),
        sides=tuple(tuple(s for s in range(4) if side_of(game.start, s) == i) for i in range(n)),
        result=result_of(game.state),
        level=LEVEL,
        seed=seed,
        thresholds=thresholds,
        steps=tuple(steps),
        start=start,
    )


def budget_for(state: State, level: str = LEVEL) -> Budget:
    """What a review lets ``level`` spend on a decision of ``state``: its own playouts for
    this ruleset (:data:`REVIEW_BUDGET` for ``expert``'s compiled search) and no clock."""
    player = make_level(level).player
    pick = getattr(player, "pick", None)
    own = pick(state)[1] if pick is not None else None
    if own is None or own.playouts is None:
        return REVIEW_BUDGET
    return Budget(playouts=own.playouts)


# --------------------------------------------------------------------------- helpers


def _played(state: State, task: Task) -> Action:
    try:
        action = Action.parse(task.move)
    except InvalidActionError as exc:
        raise ValueError(f"step {task.step}: {exc}") from None
    if action not in engine.legal_actions(state):
        raise ValueError(f"step {task.step}: {task.move} is not legal in {task.position}")
    return action


def _find(ranked: Sequence[Ranked], played: Action) -> Ranked:
    """The played action's entry in the judge's ranking of every legal action."""
    for r in ranked:
        if r.action == played:
            return r
    raise ValueError(f"the judge did not rank the played action {played}")


def _spread(after: State, side: int, win: float) -> tuple[float, ...]:
    """Every side's chance from the mover's side's expected score ``win`` after a step.

    With two sides the other gets the rest. With four, the search values only the mover's
    side, so the rest is shared among the others as the static evaluation of the position
    shares it between them.
    """
    n = sides(after)
    if n == 2:
        return (win, 1 - win) if side == 0 else (1 - win, win)
    static = win_chances(after)
    rest = sum(c for i, c in enumerate(static) if i != side)
    return tuple(
        win if i == side else (1 - win) * (static[i] / rest if rest > 0 else 1 / (n - 1))
        for i in range(n)
    )


def _final_chances(state: State) -> tuple[float, ...]:
    """Each side's value of the game's last position: its result when it is over (1 to the
    winner, an equal share each for a draw), else its static evaluation (a record that
    stops before the end)."""
    return tuple(win_chances(state))


def _fill_graph(verdicts: list[Verdict], end: tuple[float, ...]) -> list[Verdict]:
    """Give every step without chances of its own (throws, forced steps) those of the next
    judged position, or the end's when no decision follows."""
    filled: list[Verdict] = []
    ahead = end
    for v in reversed(verdicts):
        if v.chances:
            filled.append(v)
            ahead = v.before
        else:
            filled.append(replace(v, chances=ahead))
    filled.reverse()
    return filled


def _after_start(steps: Sequence[Verdict], end: tuple[float, ...]) -> tuple[float, ...]:
    """The start's value when the first step is not a judged decision: the first step's."""
    return steps[0].chances if steps else end
