"""is_deadlocked: analysis of positions no side can ever win (R-NO-LIMIT, V-KILL-BEFORE-HOME)."""

from __future__ import annotations

from pachisi.rules import engine
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import Stage, State

KBH = parse_ruleset("classic+kill_before_home=seat")


def _state(pos: list[int], kills: tuple[int, int, int, int] = (0, 0, 0, 0)) -> State:
    return State(KBH, tuple(pos), Stage.THROW, 1, entered=0b1111, kills=kills)


def test_v_kill_before_home_all_sides_stuck_in_home_columns_is_deadlocked() -> None:
    # Seat 0 home; seats 1-3 all on their last square with no kill credit: nobody can
    # ever capture again, so nobody can ever make the final step.
    state = _state([84] * 4 + [83] * 12)
    assert engine.is_deadlocked(state)


def test_r_no_limit_not_deadlocked_when_a_credit_exists() -> None:
    state = _state([84] * 4 + [83] * 12, kills=(0, 1, 0, 1))
    assert not engine.is_deadlocked(state)


def test_r_no_limit_not_deadlocked_while_a_piece_can_still_capture() -> None:
    pos = [84] * 4 + [83] * 12
    pos[8] = 0  # seat 2 has a waiting piece that can re-enter and go round
    assert not engine.is_deadlocked(_state(pos))
    pos[8] = 75  # or a piece still on the loop before its home column
    assert not engine.is_deadlocked(_state(pos))
    pos[8] = 76  # from the column's end square every move is private
    assert engine.is_deadlocked(_state(pos))


def test_r_no_limit_one_stuck_side_is_not_a_deadlock() -> None:
    pos = [10] * 4 + [83] * 4 + [10] * 4 + [83] * 4
    # Team 1 (seats 1 and 3) is stuck, but team 0 can still capture and win.
    assert not engine.is_deadlocked(_state(pos))
    # A team is blocked as soon as one of its seats is stuck (under kill_before_home=seat
    # nobody else's capture can give that seat its credit).
    pos[:4] = [80] * 4
    assert engine.is_deadlocked(_state(pos))


def test_kill_before_home_off_is_never_deadlocked() -> None:
    state = State(parse_ruleset("classic"), (83,) * 16, Stage.THROW, 0, entered=0b1111)
    assert not engine.is_deadlocked(state)
