"""RULES.md section F scenarios SC-06..SC-50, one test each (SC-01..05 are in test_board.py).

Every expectation is written out from the text of RULES.md, not from what the engine does.
Scenario action names map to the engine's text forms: ``MOVE 0.a 5→9`` (throw 4) is ``0a+4``,
``ENTER 0.?`` (throw 25) is ``0a@25`` for the lowest waiting letter, ``FREE 0.? →3`` is ``0a*3``,
``FINISH 0.a`` is ``0a+v`` when ``p + v = 84`` and ``0a#v`` from the last square (R-LAST-SQUARE-
EXIT), ``DECLINE`` is ``-``. "legal = {…}" is compared as a complete set, and the listed actions
must be distinct outcomes (C.10a step 5).
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    assert_legal,
    end_states,
    gid,
    is_over,
    legal,
    p,
    play,
    position,
    seat_p,
    seat_positions,
    throw,
    throw_ev,
    throws_again,
    turn_passed,
    xy,
)

from pachisi.rules.board import SQUARE_OF, cell_of_coord
from pachisi.rules.engine import current_player, outcome
from pachisi.rules.state import CHANCE, Stage

# --------------------------------------------------------------------------- entering


def test_sc06_game_start_free_first_piece_travels():
    """SC-06: all C, entered[0]=false, throw 3: {FREE 0.? →3, DECLINE}; again: no."""
    s = throw(position("classic", entered=0b1110), 3)
    assert_legal(s, {"0a*3", "-"})
    after = play(s, "0a*3")
    assert p(after, "0.a") == 3
    assert xy(0, 3) == (9, 5)
    assert after.entered & 1, "after FREE, entered[0] = true"
    assert turn_passed(after, 0)


def test_sc07_game_start_entry_grace_enters_on_square1():
    """SC-07: all C, entered[0]=false, throw 25: {ENTER 0.?, DECLINE}; no FREE →25."""
    s = throw(position("classic", entered=0b1110), 25)
    assert_legal(s, {"0a@25", "-"})
    after = play(s, "0a@25")
    assert p(after, "0.a") == 1
    assert after.entered & 1
    assert throws_again(after, 0)
    assert throws_again(play(s, "-"), 0)


def test_sc08_non_grace_does_not_enter():
    """SC-08: a=5, rest C, throw 4: {MOVE 0.a 5→9, DECLINE}; again: no."""
    s = throw(position("classic", {"0.a": 5}), 4)
    assert xy(0, 5) == (9, 3)
    assert_legal(s, {"0a+4", "-"})
    after = play(s, "0a+4")
    assert p(after, "0.a") == 9
    assert turn_passed(after, 0)
    assert turn_passed(play(s, "-"), 0)


def test_sc09_grace_moves_or_enters():
    """SC-09: a=5, rest C, throw 6: {MOVE 0.a 5→11, ENTER 0.?, DECLINE}; again: yes."""
    s = throw(position("classic", {"0.a": 5}), 6)
    assert_legal(s, {"0a+6", "0b@6", "-"})
    for action in ("0a+6", "0b@6", "-"):
        assert throws_again(play(s, action), 0), action
    assert p(play(s, "0a+6"), "0.a") == 11
    assert p(play(s, "0b@6"), "0.b") == 1


def test_sc10_reentry_only_with_grace():
    """SC-10: all C, entered[0]=true. Throw 5: {DECLINE}, turn ends. Throw 10: {ENTER, DECLINE}."""
    start = position("classic")
    s = throw(start, 5)
    assert_legal(s, {"-"})
    assert turn_passed(play(s, "-"), 0)
    s = throw(start, 10)
    assert_legal(s, {"0a@10", "-"})
    assert throws_again(play(s, "0a@10"), 0)


def test_sc11_entry_uses_up_the_throw():
    """SC-11: a=30, b=C, rest H. 25 ENTER 0.b → p=1, again; then 3: {a 30→33, b 1→4, DECLINE}."""
    s = throw(position("classic", {"0.a": 30, "0.b": "C"}, rest={0: "H"}), 25)
    assert xy(0, 30) == (14, 10)
    after = play(s, "0b@25")
    assert p(after, "0.b") == 1
    assert throws_again(after, 0)
    s = throw(after, 3)
    assert_legal(s, {"0a+3", "0b+3", "-"})
    assert turn_passed(play(s, "0b+3"), 0)


@pytest.mark.parametrize(
    ("mode", "where", "cell"),
    [("consume_plus_move", 26, (18, 10)), ("count_from_charkoni", 25, (18, 9))],
)
def test_sc12_entry_modes(mode, where, cell):
    """SC-12: as SC-11 with +entry_mode: b ends on 26 (consume_plus_move) or 25 (count)."""
    start = position(f"classic+entry_mode={mode}", {"0.a": 30, "0.b": "C"}, rest={0: "H"})
    after = play(throw(start, 25), "0b@25")
    assert p(after, "0.b") == where
    assert xy(0, where) == cell


# --------------------------------------------------------------------------- moving, castles


def _sc13_position(rules: str = "classic"):
    return position(rules, {"0.a": 20, "1.a": 74})


def test_sc13_capture_sends_back_and_gives_bonus():
    """SC-13: 0.a=20, 1.a p1=74 (17,8). Throw 3: {MOVE 0.a 20→23 (captures), DECLINE}; again."""
    start = _sc13_position()
    assert xy(0, 20) == (14, 8)
    assert xy(1, 74) == (17, 8) == xy(0, 23)
    s = throw(start, 3)
    assert_legal(s, {"0a+3", "-"})
    after = play(s, "0a+3")
    assert p(after, "0.a") == 23
    assert p(after, "1.a") == 0
    assert throws_again(after, 0), "capture bonus (3 itself is not a grace)"
    # 1.a must use a grace to re-enter: entered[1] stays true, no free entry for seat 1.
    assert after.entered >> 1 & 1
    seat1 = play(throw(after, 2), "-")
    assert seat1.seat == 1
    assert_legal(throw(seat1, 3), {"-"})
    assert_legal(throw(seat1, 10), {"1a@10", "-"})


def test_sc15_no_capture_bonus():
    """SC-15: SC-13 with +capture_bonus=false: after the capture, again: no."""
    s = throw(_sc13_position("classic+capture_bonus=false"), 3)
    after = play(s, "0a+3")
    assert p(after, "1.a") == 0
    assert turn_passed(after, 0)


def _sc16_position():
    return position("classic", {"0.a": 18, "1.a": 72})


def test_sc16_enemy_castle_blocks_landing():
    """SC-16: 0.a=18, 1.a p1=72 (15,8) castle. Throw 3: {DECLINE}; unusable, turn ends."""
    assert xy(1, 72) == (15, 8) == xy(0, 21)
    s = throw(_sc16_position(), 3)
    assert_legal(s, {"-"})
    assert turn_passed(play(s, "-"), 0)


def test_sc17_passing_enemy_castle_allowed():
    """SC-17: same position, throw 5: {MOVE 0.a 18→23, DECLINE}."""
    s = throw(_sc16_position(), 5)
    assert_legal(s, {"0a+5", "-"})
    after = play(s, "0a+5")
    assert (p(after, "0.a"), p(after, "1.a")) == (23, 72)


def test_sc18_partner_castle_shared():
    """SC-18: 0.a=18, 2.a p2=55 (15,8). Throw 3: {MOVE 0.a 18→21, DECLINE}; nobody captured."""
    assert xy(2, 55) == (15, 8)
    s = throw(position("classic", {"0.a": 18, "2.a": 55}), 3)
    assert_legal(s, {"0a+3", "-"})
    after = play(s, "0a+3")
    assert (p(after, "0.a"), p(after, "2.a")) == (21, 55)


# --------------------------------------------------------------------------- finishing


@pytest.mark.parametrize(
    ("value", "expected"),
    [(4, {"0a+4", "-"}), (5, {"-"}), (3, {"0a+3", "-"}), (2, {"0a+2", "-"})],
)
def test_sc22_exact_finish(value, expected):
    """SC-22: a=80 (9,4), rest H: 4 finishes, 5 cannot, 3 → 83, 2 → 82."""
    assert xy(0, 80) == (9, 4)
    s = throw(position("classic", {"0.a": 80}, rest={0: "H"}), value)
    assert_legal(s, expected)
    if value == 4:
        assert p(play(s, "0a+4"), "0.a") == 84


def test_sc23_last_square_exit():
    """SC-23: a=83, rest H. 2..5: {DECLINE}; 6, 10, 25: {FINISH, DECLINE}; none: all {DECLINE}."""
    start = position("classic", {"0.a": 83}, rest={0: "H"})
    for v in (2, 3, 4, 5):
        assert_legal(throw(start, v), {"-"})
    for v in (6, 10, 25):
        s = throw(start, v)
        assert_legal(s, {f"0a#{v}", "-"})
        assert throws_again(play(s, "-"), 0)
        after = play(s, f"0a#{v}")
        assert p(after, "0.a") == 84
        assert turn_passed(after, 0), "seat 0 has finished: its turn ends (C.9)"
        assert not is_over(after)
    none = position("classic+last_square_exit=none", {"0.a": 83}, rest={0: "H"})
    for v in (2, 3, 4, 5, 6, 10, 25):
        assert_legal(throw(none, v), {"-"})


# --------------------------------------------------------------------------- kill before home


def test_sc26_kill_before_home():
    """SC-26: +kill_before_home=seat, a=80 rest H: 4 {DECLINE}, 3 {→83, DECLINE}; credit: 4 ok."""
    rules = "classic+kill_before_home=seat"
    start = position(rules, {"0.a": 80}, rest={0: "H"})
    assert_legal(throw(start, 4), {"-"})
    assert_legal(throw(start, 3), {"0a+3", "-"})
    credited = position(rules, {"0.a": 80}, rest={0: "H"}, kills=(1, 0, 0, 0))
    assert_legal(throw(credited, 4), {"0a+4", "-"})


SC27 = "classic+kill_before_home=seat+recapture_annul=true"


def _sc27_capture(extra=None):
    """Turn t: 0.a=20 throws 3 and captures 1.a (p1=74) on (17,8)."""
    pieces = {"0.a": 20, "1.a": 74, "1.b": 70}
    pieces.update(extra or {})
    start = position(SC27, pieces, turn=5)
    after = play(throw(start, 3), "0a+3")
    return start, after


def _decline_turn(state, value=2):
    """The seat to throw throws a non-grace ``value`` and declines it: its turn ends."""
    seat = state.seat
    after = play(throw(state, value), "-")
    assert turn_passed(after, seat)
    return after


def test_sc27_recapture_annuls_first_capture():
    """SC-27: seat 1's next turn 1.b (p1=70) throws 4 and recaptures 0.a on (17,8): annulled."""
    start, s = _sc27_capture()
    t = start.turn
    q = SQUARE_OF[0][23]
    assert xy(1, 70) == (13, 8)
    assert p(s, "1.a") == 0
    assert s.kills == (1, 0, 0, 0)
    assert len(s.records) == 1
    r1 = s.records[0]
    assert (r1.capturer, r1.pieces, r1.square, r1.victims, r1.turn) == (
        0,
        1 << gid("0.a"),
        q,
        1 << 1,
        t,
    )
    s = _decline_turn(s)  # seat 0's capture-bonus throw
    assert s.seat == 1
    s = play(throw(s, 4), "1b+4")
    assert p(s, "0.a") == 0 and p(s, "1.b") == 74
    assert s.kills[0] == 0
    assert s.kills[1] == 1
    assert len(s.records) == 1
    r2 = s.records[0]
    assert (r2.capturer, r2.pieces, r2.square, r2.victims, r2.turn) == (
        1,
        1 << gid("1.b"),
        q,
        1 << 0,
        t + 1,
    )


def test_sc27_control_later_turn_does_not_annul():
    """SC-27 control: 1.b's capture of 0.a on a later turn of seat 1 annuls nothing."""
    _, s = _sc27_capture()
    s = _decline_turn(s)  # seat 0 bonus
    for seat in (1, 2, 3, 0):
        assert s.seat == seat
        s = _decline_turn(s)
    assert s.seat == 1
    s = play(throw(s, 4), "1b+4")
    assert p(s, "0.a") == 0
    assert s.kills[0] == 1
    assert s.kills[1] == 1


def test_sc27_control_capturer_left_square_does_not_annul():
    """SC-27 control: 0.a left (17,8) first; 1.b then captures 0.b there: no annulment."""
    _, s = _sc27_capture({"0.b": 19})
    s = play(throw(s, 10), "0a+10")  # bonus throw: 0.a leaves Q (23 → 33), 10 is a grace
    assert p(s, "0.a") == 33
    s = play(throw(s, 4), "0b+4")  # 0.b lands on Q; 4 ends the turn
    assert p(s, "0.b") == 23
    assert s.seat == 1
    s = play(throw(s, 4), "1b+4")
    assert p(s, "0.b") == 0
    assert s.kills[0] == 1
    assert s.kills[1] == 1


def test_sc27_control_non_victim_does_not_annul():
    """SC-27 control: seat 3 (not the victim) captures 0.a on (17,8): no annulment."""
    q3 = seat_p(0, 23, 3)
    assert xy(3, q3) == (17, 8)
    _, s = _sc27_capture({"3.a": q3 - 4})
    s = _decline_turn(s)  # seat 0 bonus
    s = _decline_turn(s)  # seat 1
    s = _decline_turn(s)  # seat 2
    assert s.seat == 3
    s = play(throw(s, 4), "3a+4")
    assert p(s, "0.a") == 0
    assert s.kills[0] == 1
    assert s.kills[3] == 1


# --------------------------------------------------------------------------- collect mode

WIKI = "wikipedia-full"


def test_sc29_void_seven_without_piece():
    """SC-29: no piece on the board, entered[0]=false. Throw 7: void, no re-throw, no FREE."""
    start = position(WIKI, entered=0b1110)
    s, events = throw_ev(start, 7)
    assert "void" in [e.kind for e in events]
    assert turn_passed(s, 0)
    assert s.pos == start.pos
    assert not s.entered & 1


def test_sc30_seven_and_three_only_move_a():
    """SC-30: a=10, rest C. Throws 7, 3: end positions of a {10, 13, 17, 20}; no pyada."""
    s = throw(position(WIKI, {"0.a": 10}), 7)
    assert throws_again(s, 0)
    s = throw(s, 3)
    assert s.stage is Stage.SPEND
    assert sorted(s.items) == [3, 7]
    assert s.pyadas == 0
    ends = end_states(s)
    assert all(turn_passed(e, 0) for e in ends)
    assert seat_positions(ends, 0) == {(10, 0, 0, 0), (13, 0, 0, 0), (17, 0, 0, 0), (20, 0, 0, 0)}


def test_sc31_ten_and_three():
    """SC-31: a=10, rest C. Throws 10, 3: enter b and move it 1→4; enter and a 10→13; a→20→23.

    The scenario lists "among the legal spendings"; the complete set below also has the
    partial spendings (the seat may stop at any time, C.10b step 4) and, once b has entered,
    the 3 shared between a and b (V-SPLIT-THROW `split`, on in wikipedia-full).
    """
    s = throw(position(WIKI, {"0.a": 10}), 10, 3)
    assert s.stage is Stage.SPEND
    assert sorted(s.items) == [3, 10]
    assert s.pyadas == 0
    ends = seat_positions(end_states(s), 0)
    stated = {(10, 4, 0, 0), (13, 1, 0, 0), (23, 0, 0, 0)}
    assert stated <= ends
    assert ends == stated | {
        (10, 0, 0, 0),  # stop at once
        (10, 1, 0, 0),  # enter only
        (20, 0, 0, 0),  # 10 on a only
        (13, 0, 0, 0),  # 3 on a only
        (11, 3, 0, 0),  # enter, then 3 split 1 + 2
        (12, 2, 0, 0),  # enter, then 3 split 2 + 1
    }
    # Each landing is checked separately: after ENTER the 3 may move the new piece.
    after = play(s, "0b@10")
    assert "0b+3" in legal(after)


def test_sc32_triple_high_cancels_to_nothing():
    """SC-32: a=10, rest C. 25, 10, 30: the H run reaches 3, all cancelled, T = []; turn ends."""
    s = throw(position(WIKI, {"0.a": 10}), 25, 10)
    assert throws_again(s, 0)
    assert list(s.items) == [25, 10]
    s, events = throw_ev(s, 30)
    assert "cancel" in [e.kind for e in events]
    assert list(s.items) == []
    assert turn_passed(s, 0)


@pytest.mark.parametrize("value", [7, 14])
def test_sc34_triple_seven_fourteen(value):
    """SC-34: a=10, rest C. 7, 7, 7 (14, 14, 14): cancelled, turn ends; no piece: first 7 void."""
    s = throw(position(WIKI, {"0.a": 10}), value, value)
    assert throws_again(s, 0)
    s = throw(s, value)
    assert list(s.items) == []
    assert turn_passed(s, 0)
    empty = throw(position(WIKI), value)
    assert turn_passed(empty, 0)
    assert list(empty.items) == []


def test_sc35_interleaved_sevens_not_cancelled():
    """SC-35: a=10, rest C. 7, 14, 7, 3: nothing cancelled, T = [7, 14, 7, 3], total 31."""
    s = throw(position(WIKI, {"0.a": 10}), 7, 14, 7, 3)
    assert s.stage is Stage.SPEND and s.seat == 0
    assert list(s.items) == [7, 14, 7, 3]
    assert sum(s.items) == 31


B5 = (25, 25, 14, 10, 30, 7, 25, 30, 7, 10, 14, 25, 3)


def _throw_b5(start):
    s = start
    for v in B5[:-1]:
        s = throw(s, v)
        assert throws_again(s, 0), f"throwing must go on after {v}"
    return throw(s, B5[-1])


def test_sc36_worked_example_one_turn():
    """SC-36: B5's sequence is one legal turn: nothing cancelled, 225; no waiting piece: 233."""
    s = _throw_b5(position(WIKI, {"0.a": 10}))
    assert s.stage is Stage.SPEND
    assert list(s.items) == list(B5)
    assert sum(s.items) == 225
    assert s.pyadas == 0
    full = _throw_b5(position(WIKI, {"0.a": 10, "0.b": 20, "0.c": 30, "0.d": 40}))
    assert list(full.items) == list(B5)
    assert full.pyadas == 8
    assert sum(full.items) + full.pyadas == 233
    same = _throw_b5(position(WIKI + "+triple_cancel=same", {"0.a": 10}))
    assert list(same.items) == list(B5)


def test_sc37_herklots_same_mode():
    """SC-37: herklots-6: 25, 25, 25 cancelled; 25, 10, 25, 2 not; group mode cancels 25, 10, 25."""
    start = position("herklots-6", {"0.a": 10})
    s = throw(start, 25, 25)
    assert throws_again(s, 0)
    s = throw(s, 25)
    assert list(s.items) == []
    assert s.pyadas == 0
    assert turn_passed(s, 0)
    s = throw(start, 25, 10, 25, 2)
    assert s.stage is Stage.SPEND
    assert list(s.items) == [25, 10, 25, 2]
    group = throw(position("herklots-6+triple_cancel=group", {"0.a": 10}), 25, 10)
    assert throws_again(group, 0)
    group = throw(group, 25)
    assert list(group.items) == []
    assert turn_passed(group, 0)


def test_sc38_pyada_only_with_no_waiting_piece():
    """SC-38: a=20, b=30, c=40, d=C: 25, 25, 3 → 53, no pyada; d=50: {25, 25, 3, 1, 1} = 55."""
    s = throw(position(WIKI, {"0.a": 20, "0.b": 30, "0.c": 40}), 25, 25, 3)
    assert sorted(s.items) == [3, 25, 25]
    assert s.pyadas == 0
    assert sum(s.items) + s.pyadas == 53
    s = throw(position(WIKI, {"0.a": 20, "0.b": 30, "0.c": 40, "0.d": 50}), 25, 25, 3)
    assert sorted(s.items) == [3, 25, 25]
    assert s.pyadas == 2
    assert sum(s.items) + s.pyadas == 55


# --------------------------------------------------------------------------- teams, turns


def test_sc40_team_win():
    """SC-40: seat 0 all H; seat 2 a, b, d H, c=80. Seat 2 throws 4, FINISH 2.c: team wins."""
    start = position("classic", {"2.c": 80}, rest={0: "H", 2: "H"}, seat=2)
    s = throw(start, 4)
    assert "2c+4" in legal(s)
    after = play(s, "2c+4")
    assert is_over(after)
    result = outcome(after)
    assert result is not None
    assert set(result.seats) == {0, 2}


def test_sc41_finished_seat_skipped():
    """SC-41: seat 0 all H, seat 2 has pieces out: the turn order is 1, 2, 3, 1, 2, 3, …"""
    s = position("classic", {"2.a": 10}, rest={0: "H"}, seat=1)
    seats = []
    for _ in range(7):
        seats.append(s.seat)
        s = _decline_turn(s)
    assert seats == [1, 2, 3, 1, 2, 3, 1]


def test_sc42_declined_grace_throws_again():
    """SC-42: a=10, throw 10, DECLINE: again: yes."""
    s = throw(position("classic", {"0.a": 10}), 10)
    assert throws_again(play(s, "-"), 0)


def test_sc45_moves_compulsory():
    """SC-45: +moves_compulsory=true, a=10, rest C, throw 3: legal = {MOVE 0.a 10→13}."""
    s = throw(position("classic+moves_compulsory=true", {"0.a": 10}), 3)
    assert_legal(s, {"0a+3"})


# --------------------------------------------------------------------------- ludii


def test_sc47_ludii_first_phase_forced():
    """SC-47: first phase, seat 0. k=3: forced to p=15 (cell 74); k=0 (25): p=37 (cell 83)."""
    from pachisi.rules.engine import apply_chance, new_game
    from pachisi.rules.ruleset import get_ruleset

    start = new_game(get_ruleset("ludii"))
    assert start.seat == 0 and current_player(start) == CHANCE
    for k, target, cell, square in ((3, 15, 74, (10, 6)), (0, 37, 83, (10, 14))):
        s, _ = apply_chance(start, k)
        v = s.ruleset.score_table[k]
        assert_legal(s, {f"0a*{v}"})
        after = play(s, f"0a*{v}")
        assert p(after, "0.a") == target
        assert SQUARE_OF[0][target] == cell == cell_of_coord(*square)
        assert turn_passed(after, 0), "no re-throw in the first phase"


@pytest.mark.parametrize(
    ("start_p", "k", "finishes"),
    [
        (74, 1, False),
        (59, 0, False),
        (78, 6, True),
        (80, 4, True),
        (83, 0, True),
        (83, 1, True),
        (83, 6, True),
        (83, 2, False),
    ],
)
def test_sc48_ludii_finishing(start_p, k, finishes):
    """SC-48: ludii finishing: only p + k = 84 or (p = 83, k ∈ {0, 1, 6}) finishes."""
    from pachisi.rules.engine import apply_chance

    start = position("ludii", {"0.a": start_p}, rest={0: "H"})
    s, _ = apply_chance(start, k)
    own = {a for a in legal(s) if a.startswith("0a")}
    if finishes:
        assert len(own) == 1, own
        assert p(play(s, own.pop()), "0.a") == 84
    else:
        assert own == set()


def test_sc49_ludii_castles_do_nothing_top_one():
    """SC-49: ludii: 0.a 18 +3 lands on castle (15,8) and sends 1.a (p1=72) to the hand."""
    from pachisi.rules.engine import apply_chance

    s, _ = apply_chance(position("ludii", {"0.a": 18, "1.a": 72}), 3)
    assert "0a+3" in legal(s)
    after = play(s, "0a+3")
    assert (p(after, "0.a"), p(after, "1.a")) == (21, 0)
    # 1.a and 1.b both there: only the top one (last to arrive) goes back.
    for bottom, top in (("1.a", "1.b"), ("1.b", "1.a")):
        start = position("ludii", {"0.a": 18, "1.a": 72, "1.b": 72}, order=["0.a", bottom, top])
        s, _ = apply_chance(start, 3)
        after = play(s, "0a+3")
        assert p(after, top) == 0, f"{top} was on top"
        assert p(after, bottom) == 72
        assert p(after, "0.a") == 21
        order = list(after.order)
        assert order.index(gid(bottom)) < order.index(gid("0.a")), "0.a stands on top"


def test_sc50_ludii_grace_always_rethrows():
    """SC-50: piece in hand, k=6: options include entering to p=13 (cell 68); always again."""
    from pachisi.rules.engine import apply_chance

    s, _ = apply_chance(position("ludii", {"0.a": 30}), 6)
    actions = legal(s)
    assert "0b@6" in actions
    entered = play(s, "0b@6")
    assert p(entered, "0.b") == 13
    assert SQUARE_OF[0][13] == 68 == cell_of_coord(10, 4)
    assert "-" in actions
    for action in actions:
        assert throws_again(play(s, action), 0), action
