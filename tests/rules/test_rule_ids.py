"""One or more tests per RULES.md rule/variant ID (section C), named after the ID.

Expectations are derived from the text of RULES.md (sections B, C, D, E), not from the engine.
Positions follow the notation of section F: unmentioned pieces are waiting, ``entered`` is true
and kill credits are 0 unless stated. See scenario_helpers for the action text forms.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest
from scenario_helpers import (
    assert_legal,
    end_states,
    gid,
    is_over,
    legal,
    p,
    play,
    play_ev,
    position,
    seat_p,
    seat_positions,
    throw,
    throw_ev,
    throws_again,
    turn_passed,
    xy,
)

from pachisi.rules import cowries
from pachisi.rules.actions import Action, IllegalActionError
from pachisi.rules.board import COORDS, SQUARE_OF
from pachisi.rules.engine import (
    apply_action,
    apply_chance,
    chance_outcomes,
    current_player,
    legal_actions,
    new_game,
    outcome,
)
from pachisi.rules.ruleset import get_ruleset, parse_ruleset
from pachisi.rules.state import CHANCE, Stage

CASTLE_P = {8, 12, 21, 25, 29, 38, 42, 46, 55, 59, 63, 72, 76}
"""Seat 0's castles by progress (A.5)."""
WIKI = "wikipedia-full"
H0 = {0: "H"}
"""Seat 0's unmentioned pieces home (no waiting piece to enter)."""


def decline_turn(state, value=2):
    """The seat to throw throws a non-grace ``value`` and declines (stops): its turn ends."""
    seat = state.seat
    after = play(throw(state, value), "-")
    assert turn_passed(after, seat)
    return after


# =========================================================================== C.1 setup, sides


def test_r_object_a_piece_goes_from_charkoni_round_and_home():
    """R-OBJECT: a piece leaves the Charkoni, goes round its route and gets back home (84)."""
    s = position("classic", {"0.a": "C", "2.a": 10}, rest={0: "H"})
    s = play(throw(s, 25), "0a@25")
    assert p(s, "0.a") == 1
    for v, expect in ((25, 26), (25, 51), (25, 76), (6, 82)):
        s = play(throw(s, v), f"0a+{v}")
        assert p(s, "0.a") == expect
        assert throws_again(s, 0)
    s = play(throw(s, 2), "0a+2")
    assert s.pos[0:4] == (84, 84, 84, 84)
    assert not is_over(s)


def test_r_start_charkoni_all_pieces_waiting_none_entered():
    """R-START-CHARKONI: at the start all 16 pieces wait (p = 0), entered[s] = false."""
    for name in ("classic", "ludii", WIKI):
        s = new_game(get_ruleset(name))
        assert s.pos == (0,) * 16
        assert s.entered == 0


def test_r_teams_partners_never_capture():
    """R-TEAMS: 0+2 and 1+3 are partners: landing on a partner shares the square."""
    s = throw(position("classic", {"0.a": 20, "2.a": seat_p(0, 23, 2)}), 3)
    after = play(s, "0a+3")
    assert (p(after, "0.a"), p(after, "2.a")) == (23, seat_p(0, 23, 2))
    assert turn_passed(after, 0), "no capture, no bonus"
    # seat 1 lands on its partner seat 3 on a non-castle square
    q1 = seat_p(0, 23, 1)
    s = throw(position("classic", {"1.a": q1 - 3, "3.a": seat_p(0, 23, 3)}, seat=1), 3)
    after = play(s, "1a+3")
    assert (p(after, "1.a"), p(after, "3.a")) == (q1, seat_p(0, 23, 3))
    # ... while an enemy there is captured
    s = throw(position("classic", {"0.a": 20, "1.a": q1}), 3)
    assert p(play(s, "0a+3"), "1.a") == 0


def test_r_seats_turns_pass_counter_clockwise():
    """R-SEATS: turns pass from seat s to s+1 mod 4; seat 1's square 1 is (11,9)."""
    s = position("classic", seat=2)
    seats = []
    for _ in range(5):
        seats.append(s.seat)
        s = decline_turn(s)
    assert seats == [2, 3, 0, 1, 2]
    s = play(throw(position("classic", seat=1), 25), "1a@25")
    assert COORDS[SQUARE_OF[1][p(s, "1.a")]] == (11, 9)


def test_v_two_player_seats_order_teams_and_credits():
    """V-TWO-PLAYER: players=2: seats still play 0,1,2,3; a person's seats are friendly."""
    rules = "classic+players=2"
    s = position(rules, seat=0)
    seats = []
    for _ in range(4):
        seats.append(s.seat)
        s = decline_turn(s)
    assert seats == [0, 1, 2, 3]
    # seats 0 and 2 belong to one person: no capture between them
    s = play(throw(position(rules, {"0.a": 20, "2.a": seat_p(0, 23, 2)}), 3), "0a+3")
    assert p(s, "2.a") == seat_p(0, 23, 2)
    # the person wins when both its seats are home
    s = play(throw(position(rules, {"2.a": 80}, rest={0: "H", 2: "H"}, seat=2), 4), "2a+4")
    assert is_over(s)
    assert set(outcome(s).seats) == {0, 2}
    # kill_before_home=seat stays per seat: seat 0's credit does not let seat 2 finish
    s = position(rules + "+kill_before_home=seat", {"2.a": 80}, seat=2, kills=(1, 0, 0, 0))
    assert_legal(throw(s, 4), {"-"})
    s = position(rules + "+kill_before_home=team", {"2.a": 80}, seat=2, kills=(1, 0, 0, 0))
    assert_legal(throw(s, 4), {"2a+4", "-"})


def test_v_individual_every_other_seat_is_an_enemy():
    """V-INDIVIDUAL: teams=individual: seat 2 is an opponent; kill_before_home=team acts as seat."""
    rules = "classic+teams=individual"
    q2 = seat_p(0, 23, 2)
    s = play(throw(position(rules, {"0.a": 20, "2.a": q2}), 3), "0a+3")
    assert p(s, "2.a") == 0, "seat 2 is no partner: captured"
    assert throws_again(s, 0)
    # seat 2 on a castle now blocks seat 0
    s = throw(position(rules, {"0.a": 18, "2.a": seat_p(0, 21, 2)}), 3)
    assert_legal(s, {"-"})
    s = position(rules + "+kill_before_home=team", {"0.a": 80}, kills=(0, 0, 1, 0))
    assert_legal(throw(s, 4), {"-"})
    pairs = position("classic+kill_before_home=team", {"0.a": 80}, kills=(0, 0, 1, 0))
    assert_legal(throw(pairs, 4), {"0a+4", "-"})


def test_v_individual_win_first_seat_home_ends_game():
    """V-INDIVIDUAL-WIN: with teams=individual the first seat with 4 pieces home wins at once."""
    s = position("classic+teams=individual", {"0.a": 80}, rest={0: "H"})
    after = play(throw(s, 4), "0a+4")
    assert is_over(after)
    result = outcome(after)
    assert result.individual
    assert result.winner == 0
    assert tuple(result.seats) == (0,)


# =========================================================================== C.2 order


def test_r_order_throw_off_ties_rethrow():
    """R-ORDER: everyone throws once; the highest value begins; only tied seats throw again."""
    s = new_game(get_ruleset("classic"))
    assert s.stage is Stage.THROW_OFF
    thrown = []
    # 25 is k = 0 (fewest mouths up), 6 is k = 6: the value decides, not k
    for v in (25, 25, 6, 2):
        thrown.append(s.seat)
        s = throw(s, v)
    assert thrown == [0, 1, 2, 3]
    assert s.stage is Stage.THROW_OFF
    rethrow = []
    for v in (4, 10):
        rethrow.append(s.seat)
        s = throw(s, v)
    assert rethrow == [0, 1], "only the tied seats throw again"
    assert s.stage is Stage.THROW and s.seat == 1, "seat 1 begins with a new throw"
    assert s.pos == (0,) * 16 and s.entered == 0
    assert current_player(s) == CHANCE


def test_r_order_plain_values_no_graces_no_void():
    """R-ORDER: the throw-off uses plain table values: a 14 counts (no 7/14 rule, no grace)."""
    s = new_game(get_ruleset(WIKI))
    for v in (14, 7, 2, 3):
        s = throw(s, v)
    assert s.stage is Stage.THROW and s.seat == 0
    assert s.pos == (0,) * 16
    assert list(s.items) == []
    # 25 (k=0) beats 6 (k=6) even though 6 has more mouths up
    s = new_game(get_ruleset("classic"))
    for v in (6, 2, 25, 3):
        s = throw(s, v)
    assert s.seat == 2 and s.stage is Stage.THROW


def test_v_first_player_fixed_seat0():
    """V-FIRST-PLAYER-FIXED: first_player=seat0: no throw-off, seat 0 throws first."""
    s = new_game(parse_ruleset("classic+first_player=seat0"))
    assert s.stage is Stage.THROW and s.seat == 0
    assert new_game(get_ruleset("classic")).stage is Stage.THROW_OFF


# =========================================================================== C.3 throws


def test_r_throw_table_exact_probabilities():
    """R-THROW-TABLE / B.2: binomial P(k), P(grace) = 1/8, E[value] = 271/64, per turn 271/56."""
    s = position("classic")
    probs = dict(chance_outcomes(s))
    assert probs == {k: Fraction(comb(6, k), 64) for k in range(7)}
    table = s.ruleset.score_table
    assert table == (25, 10, 2, 3, 4, 5, 6)
    grace = sum(pr for k, pr in probs.items() if table[k] in s.ruleset.reroll_values)
    assert grace == Fraction(1, 8)
    mean = sum(pr * table[k] for k, pr in probs.items())
    assert mean == Fraction(271, 64)
    assert mean / (1 - grace) == Fraction(271, 56)


def test_r_throw_table_other_tables_and_bias():
    """R-THROW-TABLE / B.2: 7 cowries 37/128 re-throw; E values; herklots; p = 0.4 bias."""
    for name, rethrow, mean in (
        (WIKI, Fraction(37, 128), Fraction(1113, 128)),
        (WIKI + "+six_up_value=35", Fraction(37, 128), Fraction(287, 32)),
        ("herklots-6", Fraction(7, 32), Fraction(189, 32)),
        ("herklots-7", Fraction(37, 128), Fraction(555, 64)),
    ):
        s = position(name)
        probs = dict(chance_outcomes(s))
        n = s.ruleset.cowries
        assert probs == {k: Fraction(comb(n, k), 2**n) for k in range(n + 1)}
        table = s.ruleset.score_table
        assert sum(pr for k, pr in probs.items() if table[k] in s.ruleset.reroll_values) == (
            rethrow
        )
        assert sum(pr * table[k] for k, pr in probs.items()) == mean
    biased = dict(chance_outcomes(position("classic+p_mouth_up=2/5")))
    expected = (0.0467, 0.1866, 0.3110, 0.2765, 0.1382, 0.0369, 0.0041)
    assert [round(float(biased[k]), 4) for k in range(7)] == list(expected)
    assert round(float(biased[0] + biased[1] + biased[6]), 4) == 0.2374


def test_r_throw_table_cowrie_by_cowrie_draws():
    """R-THROW-TABLE: a throw is n independent draws, one per cowrie; k = mouths up."""
    rng = random.Random(1234)
    draws = cowries.throw_cowries(rng, 6, Fraction(1, 2))
    assert len(draws) == 6 and set(draws) <= {0, 1}
    n = 64000
    counts = [0] * 7
    for _ in range(n):
        counts[cowries.throw(rng, 6, Fraction(1, 2))] += 1
    for k in range(7):
        mean = n * comb(6, k) / 64
        sd = (mean * (1 - comb(6, k) / 64)) ** 0.5
        assert abs(counts[k] - mean) < 6 * sd, (k, counts[k], mean)


def test_r_grace_repeat_any_number_of_graces():
    """R-GRACE-REPEAT: graces (6, 10, 25) give another throw any number of times."""
    s = position("classic", {"0.a": 10})
    for v in (25, 10, 6, 25, 25, 10, 6, 6, 10, 25):
        s = play(throw(s, v), "-")
        assert throws_again(s, 0)
    s = play(throw(s, 6), "0a+6")
    assert throws_again(s, 0)
    s = play(throw(s, 3), "-")
    assert turn_passed(s, 0)


def test_r_grace_entry_only_entry_values_enter():
    """R-GRACE-ENTRY: a throw in entry_values {6, 10, 25} may bring one waiting piece out."""
    start = position("classic", {"0.a": 10})
    for v in (6, 10, 25):
        assert f"0b@{v}" in legal(throw(start, v))
    for v in (2, 3, 4, 5):
        assert_legal(throw(start, v), {f"0a+{v}", "-"})


def test_v_grace_set_7_values():
    """V-GRACE-SET-7: 7 cowries: 7,10,2,3,4,25,30,14; 10/25/30 enter; 2,3,4 stop; 35 variant."""
    r = parse_ruleset("classic+cowries=7")
    assert r.score_table == (7, 10, 2, 3, 4, 25, 30, 14)
    start = position(r, {"0.a": 10, "0.b": "C"}, rest={0: "H"})
    for v in (7, 10, 25, 30, 14):
        s = throw(start, v)
        assert throws_again(play(s, "-"), 0), v
        assert (f"0b@{v}" in legal(s)) == (v in (10, 25, 30)), v
    for v in (2, 3, 4):
        s = throw(start, v)
        assert f"0b@{v}" not in legal(s)
        assert turn_passed(play(s, "-"), 0), v
    r35 = parse_ruleset("classic+cowries=7+six_up_value=35")
    assert r35.score_table == (7, 10, 2, 3, 4, 25, 35, 14)
    s = throw(position(r35, {"0.a": 10, "0.b": "C"}, rest={0: "H"}), 35)
    assert_legal(s, {"0a+35", "0b@35", "-"})
    assert throws_again(play(s, "-"), 0)


def test_v_grace_no_entry_7_14():
    """V-GRACE-NO-ENTRY-7-14: 7 and 14 re-throw and move but never bring a piece out."""
    start = position("classic+cowries=7", {"0.a": 10})
    for v in (7, 14):
        s = throw(start, v)
        assert_legal(s, {f"0a+{v}", "-"})
        assert throws_again(play(s, f"0a+{v}"), 0)
    s = throw(start, 10)
    assert_legal(s, {"0a+10", "0b@10", "-"})


def test_v_7_14_needs_piece_void_immediate():
    """V-7-14-NEEDS-PIECE (void): no piece on the board: 7/14 void, no re-throw, turn ends."""
    for v in (7, 14):
        start = position("classic+cowries=7", entered=0b1110)
        s, events = throw_ev(start, v)
        assert "void" in [e.kind for e in events]
        assert turn_passed(s, 0)
        assert s.pos == start.pos
        # a piece home does not count as on the board
        s = throw(position("classic+cowries=7", rest={0: "H"}, seat=0), v)
        assert turn_passed(s, 0)


def test_v_7_14_needs_piece_rethrow_only():
    """V-7-14-NEEDS-PIECE (rethrow_only): no value, but the extra throw is kept."""
    s = throw(position("classic+cowries=7+seven_fourteen_needs_piece=rethrow_only"), 14)
    assert throws_again(s, 0)
    assert_legal(throw(s, 3), {"-"})
    # collect mode: the void throw is not added to T, throwing continues
    s = position(WIKI + "+seven_fourteen_needs_piece=rethrow_only", entered=0b1110)
    s = throw(s, 7)
    assert throws_again(s, 0)
    assert list(s.items) == []
    s = throw(s, 3)
    assert list(s.items) == [3]
    assert "0a*3" in legal(s) and "0a*7" not in legal(s)


def test_v_7_14_needs_piece_collect_uses_own_board_at_phase_start():
    """V-7-14-NEEDS-PIECE (collect): "on the board" is the seat's own board at phase start.

    Seat 3 (a piece on the board) ends its turn; seat 0 (no piece on the board) throws 7:
    the throw is void and seat 0's throwing ends (C.10b step 2).
    """
    s = position(WIKI, {"3.a": 10}, seat=3)
    s = decline_turn(s)
    assert s.seat == 0
    s, events = throw_ev(s, 7)
    assert "void" in [e.kind for e in events]
    assert turn_passed(s, 0)


# =========================================================================== C.3 collect


def test_v_collect_throws_then_spend_in_any_order():
    """V-COLLECT-THROWS: throws are collected while graces come; spent afterwards, any order."""
    start = position(WIKI, {"0.a": 10})
    s = throw(start, 10)
    assert throws_again(s, 0) and s.pos == start.pos
    s = throw(s, 25)
    assert throws_again(s, 0) and s.pos == start.pos
    s = throw(s, 2)
    assert s.stage is Stage.SPEND
    assert list(s.items) == [10, 25, 2]
    s = play(s, "0a+2", "0a+25", "0a+10")
    assert p(s, "0.a") == 47
    assert turn_passed(s, 0)
    # classic table in collect mode: 5 is a stopping throw too
    s = throw(position("classic+throw_usage=collect", {"0.a": 10}), 6)
    assert throws_again(s, 0)
    s = throw(s, 5)
    assert s.stage is Stage.SPEND and list(s.items) == [6, 5]


# =========================================================================== C.4 entering


def test_r_entry_square1_only_stacking_forbids():
    """R-ENTRY-SQUARE1: entry goes to p = 1 = (9,7); only the stacking limit can forbid it."""
    s = play(throw(position("classic", {"0.a": 1}), 6), "0b@6")
    assert (p(s, "0.a"), p(s, "0.b")) == (1, 1)
    assert xy(0, 1) == (9, 7)
    for where in (1, 83):  # p = 1 and p = 83 are one square
        s = throw(position("classic+stacking=none", {"0.a": where}), 6)
        assert not any("@" in a for a in legal(s)), where


def test_r_entry_consumes_modes():
    """R-ENTRY-CONSUMES: consume → 1, consume_plus_move → 1 + v, count → v; landings checked."""
    for mode, where in (("consume", 1), ("consume_plus_move", 11), ("count_from_charkoni", 10)):
        s = play(throw(position(f"classic+entry_mode={mode}"), 10), "0a@10")
        assert p(s, "0.a") == where, mode
    # count_from_charkoni 10 lands on an enemy at p=10 and captures it
    rules = "classic+entry_mode=count_from_charkoni"
    s = play(throw(position(rules, {"1.a": seat_p(0, 10, 1)}), 10), "0a@10")
    assert (p(s, "0.a"), p(s, "1.a")) == (10, 0)
    # consume_plus_move 10 → 11 captures too
    s = throw(position("classic+entry_mode=consume_plus_move", {"1.a": seat_p(0, 11, 1)}), 10)
    s = play(s, "0a@10")
    assert (p(s, "0.a"), p(s, "1.a")) == (11, 0)
    # count_from_charkoni 25 would land on the castle (18,9) held by an enemy: no ENTER
    s = throw(position(rules, {"1.a": seat_p(0, 25, 1)}), 25)
    assert_legal(s, {"-"})


def test_r_one_entry_per_grace():
    """R-ONE-ENTRY-PER-GRACE: one grace brings out at most one piece."""
    s = throw(position("classic"), 25)
    assert_legal(s, {"0a@25", "-"})
    s = play(s, "0a@25")
    assert s.pos[0:4] == (1, 0, 0, 0)
    assert_legal(throw(s, 3), {"0a+3", "-"})


def test_r_first_piece_free_variants():
    """R-FIRST-PIECE-FREE: travel (entry values never travel), square1, off; graces re-throw."""
    fresh = dict(entered=0b1110)
    s = throw(position("classic", **fresh), 5)
    assert_legal(s, {"0a*5", "-"})
    assert p(play(s, "0a*5"), "0.a") == 5
    assert_legal(throw(position("classic", **fresh), 6), {"0a@6", "-"})
    # 6 a grace outside entry_values: it travels and its re-throw still applies
    s = throw(position("classic+entry_values=10,25", **fresh), 6)
    assert_legal(s, {"0a*6", "-"})
    after = play(s, "0a*6")
    assert p(after, "0.a") == 6 and throws_again(after, 0)
    # square1: the piece is put on p = 1, whatever the throw
    s = throw(position("classic+first_piece_free=square1", **fresh), 3)
    assert_legal(s, {"0a*3", "-"})
    after = play(s, "0a*3")
    assert p(after, "0.a") == 1 and after.entered & 1
    s = throw(position("classic+first_piece_free=square1", **fresh), 25)
    actions = legal(s) - {"-"}
    assert len(actions) == 1, "FREE and ENTER have one outcome, listed once"
    assert p(play(s, actions.pop()), "0.a") == 1
    # off: only graces bring a piece out
    assert_legal(throw(position("classic+first_piece_free=off", **fresh), 3), {"-"})
    assert_legal(throw(position("classic+first_piece_free=off", **fresh), 25), {"0a@25", "-"})


def test_r_reentry_grace_needed_after_first_entry():
    """R-REENTRY-GRACE: a captured piece re-enters only with an entry grace."""
    start = position("classic", {"0.a": 30})
    for v in (2, 3, 4, 5):
        assert_legal(throw(start, v), {f"0a+{v}", "-"})
    for v in (6, 10, 25):
        assert f"0b@{v}" in legal(throw(start, v))


def test_r_big_throws_move_instead_of_entering():
    """R-BIG-THROWS-MOVE: 10 and 25 may always move a piece instead of entering one."""
    start = position("classic", {"0.a": 10})
    for v in (10, 25):
        s = throw(start, v)
        assert_legal(s, {f"0a+{v}", f"0b@{v}", "-"})
        assert p(play(s, f"0a+{v}"), "0.a") == 10 + v


def test_v_grace_must_enter():
    """V-GRACE-MUST-ENTER: while pieces wait and an entry is legal, a grace must enter."""
    rules = "classic+grace_must_enter=true"
    start = position(rules, {"0.a": 10})
    for v in (6, 10, 25):
        assert_legal(throw(start, v), {f"0b@{v}", "-"})
    assert_legal(throw(start, 3), {"0a+3", "-"})
    # no FINISH from the last square either
    s = throw(position(rules, {"0.a": 83, "0.b": "C"}, rest={0: "H"}), 25)
    assert_legal(s, {"0b@25", "-"})
    # no waiting piece: the grace moves
    s = throw(position(rules, {"0.a": 10}, rest={0: "H"}), 25)
    assert_legal(s, {"0a+25", "-"})
    # entry not legal (stacking=none, square 1 taken): moves are allowed again
    s = throw(position(rules + "+stacking=none", {"0.a": 1}), 25)
    assert_legal(s, {"0a+25", "-"})


def test_r_track_ludii():
    """R-TRACK: traditional entries go to p = 1; ludii's to p = 13, (10,4) for seat 0."""
    s = play(throw(position("classic", {"0.a": 30}), 25), "0b@25")
    assert p(s, "0.b") == 1
    s, _ = apply_chance(position("ludii", {"0.a": 30}), 0)
    s = play(s, "0b@25")
    assert p(s, "0.b") == 13
    assert xy(0, 13) == (10, 4)


# =========================================================================== C.5 moving


def test_r_move_conditions():
    """R-MOVE: only pieces on 1..83 move; t ≤ 84; an illegal action is refused."""
    start = position("classic", {"0.a": 82})
    assert_legal(throw(start, 2), {"0a+2", "-"})
    assert_legal(throw(start, 3), {"-"})
    s = throw(start, 3)
    with pytest.raises(IllegalActionError):
        apply_action(s, Action.parse("0b+3"))
    with pytest.raises(IllegalActionError):
        apply_action(s, Action.parse("0a+3"))


def test_r_exact_finish():
    """R-EXACT-FINISH: home only with p + k = 84."""
    assert_legal(throw(position("classic", {"0.a": 59}, rest={0: "H"}), 25), {"0a+25", "-"})
    assert_legal(throw(position("classic", {"0.a": 60}, rest={0: "H"}), 25), {"-"})
    assert_legal(throw(position("classic", {"0.a": 74}, rest={0: "H"}), 10), {"0a+10", "-"})
    assert_legal(throw(position("classic", {"0.a": 75}, rest={0: "H"}), 10), {"-"})


def test_r_path_route_squares_and_diagonal_steps():
    """R-PATH: the route of A.3; each diagonal corner move is one ordinary step."""
    table = {
        1: (9, 7),
        8: (9, 0),
        9: (10, 0),
        16: (10, 7),
        17: (11, 8),
        25: (18, 9),
        26: (18, 10),
        33: (11, 10),
        34: (10, 11),
        42: (9, 18),
        43: (8, 18),
        50: (8, 11),
        51: (7, 10),
        59: (0, 9),
        60: (0, 8),
        67: (7, 8),
        68: (8, 7),
        75: (8, 0),
        76: (9, 0),
        77: (9, 1),
        83: (9, 7),
    }
    for progress, cell in table.items():
        assert xy(0, progress) == cell, progress
    # 14 + 3 crosses the corner 16→17 and captures the enemy on (11,8)
    s = play(throw(position("classic", {"0.a": 14, "1.a": seat_p(0, 17, 1)}), 3), "0a+3")
    assert p(s, "1.a") == 0 and xy(0, p(s, "0.a")) == (11, 8)


def test_r_board_96_squares_and_charkoni():
    """R-BOARD: 96 squares on the two 3x19 bars minus the 3x3 Charkoni, which is no square."""
    assert len(COORDS) == 96
    cells = set(COORDS)
    assert len(cells) == 96
    for x, y in cells:
        assert 8 <= x <= 10 or 8 <= y <= 10
        assert not (8 <= x <= 10 and 8 <= y <= 10)
    on_routes = {SQUARE_OF[s][q] for s in range(4) for q in range(1, 84)}
    assert len(on_routes) == 96


def test_r_private_column_no_other_seat_reaches_it():
    """R-PRIVATE-COLUMN: only seat 0 ever stands on (9,1)..(9,7); loop squares are shared."""
    private = {(9, y) for y in range(1, 8)}
    for seat in (1, 2, 3):
        cells = {xy(seat, q) for q in range(1, 84)}
        assert not cells & private
    assert {xy(0, q) for q in (*range(1, 8), *range(77, 84))} == private
    for q in range(8, 77):
        assert xy(0, q) in {xy(1, q1) for q1 in range(8, 77)}


def test_r_no_blocking_pieces_can_be_passed():
    """R-NO-BLOCKING: enemy pieces, on castles or in pairs, never stop a piece passing."""
    pieces = {"0.a": 18, "1.a": 72, "1.b": seat_p(0, 22, 1), "1.c": seat_p(0, 22, 1)}
    s = throw(position("classic", pieces), 5)
    assert_legal(s, {"0a+5", "-"})


def test_v_blockade_single_piece_cannot_pass():
    """V-BLOCKADE: two friendly pieces on a loop square: no single piece passes or lands."""
    rules = "classic+blockade=true"
    enemy = {"0.a": 20, "1.a": seat_p(0, 22, 1), "1.b": seat_p(0, 22, 1)}
    for v in (2, 3, 4):
        assert_legal(throw(position(rules, enemy), v), {"-"})
    # without the variant: passing is free and landing captures both
    assert_legal(throw(position("classic", enemy), 3), {"0a+3", "-"})
    s = play(throw(position("classic", enemy), 2), "0a+2")
    assert (p(s, "1.a"), p(s, "1.b")) == (0, 0)


def test_v_blockade_own_and_partner_block_too_friendly_may_join():
    """V-BLOCKADE: any seat's single piece is stopped, friendly single pieces may join."""
    rules = "classic+blockade=true"
    own = position(rules, {"0.a": 20, "0.b": 22, "0.c": 22})
    assert_legal(throw(own, 3), {"0b+3", "-"})
    assert_legal(throw(own, 2), {"0a+2", "0b+2", "-"})
    q2 = seat_p(0, 22, 2)
    partner = position(rules, {"0.a": 20, "2.a": q2, "2.b": q2})
    assert_legal(throw(partner, 3), {"-"})
    assert_legal(throw(partner, 2), {"0a+2", "-"})


def test_v_blockade_private_squares_never_block():
    """V-BLOCKADE: private squares (p 1..7, 77..83) never hold a blockade."""
    s = throw(position("classic+blockade=true", {"0.a": 3, "0.b": 5, "0.c": 5}), 4)
    assert_legal(s, {"0a+4", "0b+4", "-"})


def test_v_blockade_group_captures_but_never_on_castle():
    """V-BLOCKADE: only two or more landing together capture it, never on a castle."""
    rules = "classic+blockade=true+split_throw=group"
    q = seat_p(0, 22, 1)
    s = throw(position(rules, {"0.a": 20, "0.b": 20, "1.a": q, "1.b": q}), 2)
    assert_legal(s, {"0ab+2", "-"})
    after = play(s, "0ab+2")
    assert (p(after, "1.a"), p(after, "1.b")) == (0, 0)
    c = seat_p(0, 21, 1)
    inert = rules + "+castle_mode=inert"
    s = throw(position(inert, {"0.a": 19, "0.b": 19, "1.a": c, "1.b": c}), 2)
    assert_legal(s, {"-"})


def test_r_any_number_all_four_pieces_on_board():
    """R-ANY-NUMBER: a seat may have all its pieces on the board at once."""
    s = throw(position("classic", {"0.a": 10, "0.b": 20, "0.c": 30}), 6)
    assert "0d@6" in legal(s)
    s = play(s, "0d@6")
    assert all(1 <= q <= 83 for q in s.pos[0:4])


def test_r_one_piece_per_throw():
    """R-ONE-PIECE-PER-THROW: one throw moves exactly one piece by exactly its value."""
    s = throw(position("classic", {"0.a": 10, "0.b": 20}), 4)
    assert_legal(s, {"0a+4", "0b+4", "-"})
    s = throw(position("classic", {"0.a": 10, "0.b": 10}), 4)
    assert_legal(s, {"0a+4", "-"})
    after = play(s, "0a+4")
    assert sorted(after.pos[0:2]) == [10, 14]


def test_v_split_throw_split_parts_sum_exactly():
    """V-SPLIT-THROW split: parts k_i ≥ 1, one per piece, Σ k_i = v exactly, all or nothing."""
    rules = "classic+split_throw=split"
    s = throw(position(rules, {"0.a": 10, "0.b": 20}), 5)
    parts = {f"0{x}+{k}/5" for x in "ab" for k in range(1, 5)}
    assert_legal(s, {"0a+5", "0b+5", "-"} | parts)
    mid = play(s, "0a+2/5")
    assert legal(mid) == {"0b+3/5"}, "the rest must go to the other piece, no decline"
    done = play(mid, "0b+3/5")
    assert (p(done, "0.a"), p(done, "0.b")) == (12, 23)
    assert turn_passed(done, 0)
    ends = seat_positions(end_states(s), 0)
    assert ends == {
        (10, 20, 0, 0),
        (15, 20, 0, 0),
        (10, 25, 0, 0),
        (11, 24, 0, 0),
        (12, 23, 0, 0),
        (13, 22, 0, 0),
        (14, 21, 0, 0),
    }


def test_v_split_throw_split_parts_checked_and_may_finish():
    """V-SPLIT-THROW split: every part is an ordinary landing; a part may finish."""
    rules = "classic+split_throw=split"
    s = throw(position(rules, {"0.a": 18, "0.b": 30, "1.a": 72}), 5)
    actions = legal(s)
    assert "0a+3/5" not in actions, "18 + 3 lands on the enemy castle"
    assert "0b+2/5" not in actions, "it could only be completed by 0.a + 3"
    assert {"0a+1/5", "0a+2/5", "0a+4/5", "0b+1/5", "0b+3/5", "0b+4/5"} <= actions
    s = throw(position(rules, {"0.a": 82, "0.b": 20}), 5)
    assert_legal(s, {"0b+5", "0a+1/5", "0a+2/5", "0b+3/5", "0b+4/5", "-"})
    after = play(s, "0a+2/5", "0b+3/5")
    assert (p(after, "0.a"), p(after, "0.b")) == (84, 23)


def test_v_split_throw_group_same_progress_pieces():
    """V-SPLIT-THROW group: two or more pieces with the same p move together by the full v."""
    rules = "classic+split_throw=group"
    s = throw(position(rules, {"0.a": 10, "0.b": 10, "0.c": 10}), 4)
    assert_legal(s, {"0a+4", "0ab+4", "0abc+4", "-"})
    after = play(s, "0ab+4")
    assert sorted(after.pos[0:3]) == [10, 14, 14]
    # same square but not the same p: no group
    assert xy(0, 5) == xy(0, 79)
    s = throw(position(rules, {"0.a": 5, "0.b": 79}), 2)
    assert_legal(s, {"0a+2", "0b+2", "-"})


def test_r_decline_always_allowed():
    """R-DECLINE: every throw may be declined; a declined grace still gives its throw."""
    start = position("classic", {"0.a": 10})
    for v in (2, 3, 4, 5, 6, 10, 25):
        s = throw(start, v)
        assert "-" in legal(s)
        after = play(s, "-")
        assert after.pos == start.pos
        assert throws_again(after, 0) == (v in (6, 10, 25))


def test_v_move_compulsory():
    """V-MOVE-COMPULSORY: no DECLINE while any use exists; kept when none exists."""
    rules = "classic+moves_compulsory=true"
    assert_legal(throw(position(rules, {"0.a": 10}), 25), {"0a+25", "0b@25"})
    assert_legal(throw(position(rules, {"0.a": 80}, rest={0: "H"}), 5), {"-"})
    # the pyada step too (C.10a 7b)
    s = throw(position(rules + "+pyada=true", {"0.a": 10}, rest={0: "H"}), 25)
    s = play(s, "0a+25")
    assert s.stage is Stage.PYADA
    assert_legal(s, {"0a+p"})


def test_r_unusable_throw_forfeit_throw_keeps_rethrow():
    """R-UNUSABLE-THROW (forfeit_throw): a forced decline; a grace still re-throws."""
    s = throw(position("classic", {"0.a": 80}, rest={0: "H"}), 25)
    assert_legal(s, {"-"})
    assert throws_again(play(s, "-"), 0)


def test_r_unusable_throw_forfeit_turn():
    """R-UNUSABLE-THROW (forfeit_turn): an unusable throw ends the turn, re-throw lost."""
    rules = "classic+unusable_throw=forfeit_turn"
    s = throw(position(rules, {"0.a": 80}, rest={0: "H"}), 25)
    assert_legal(s, {"-"})
    assert turn_passed(play(s, "-"), 0)
    # a usable grace declined by choice keeps its re-throw
    s = throw(position(rules, {"0.a": 10}), 25)
    assert throws_again(play(s, "-"), 0)
    # with a free pyada the throw is unusable only if the pyada step is unusable too
    s = throw(position(rules + "+pyada=true", {"0.a": 80}, rest={0: "H"}), 25)
    assert_legal(s, {"-"})
    s = play(s, "-")
    assert s.stage is Stage.PYADA
    assert_legal(s, {"0a+p", "-"})
    s = play(s, "0a+p")
    assert p(s, "0.a") == 81
    assert throws_again(s, 0)


def test_r_unusable_throw_no_effect_in_collect_mode():
    """R-UNUSABLE-THROW: forfeit_turn applies in immediate mode only; collect just skips."""
    rules = WIKI + "+unusable_throw=forfeit_turn"
    s = throw(position(rules, {"0.a": 80, "0.b": 20}, rest={0: "H"}), 30, 3)
    assert list(s.items) == [30, 3]
    s = play(s, "0a+3")
    assert s.stage is Stage.SPEND
    assert "0b+30" in legal(s)


# =========================================================================== C.6 squares


def test_r_stack_friendly_pieces_share():
    """R-STACK: any number of friendly pieces (own and partner's) may share a square."""
    q2 = seat_p(0, 20, 2)
    s = throw(position("classic", {"0.a": 20, "0.b": 20, "0.c": 17, "2.a": q2}), 3)
    assert "0c+3" in legal(s)
    after = play(s, "0c+3")
    assert after.pos[0:3] == (20, 20, 20) and p(after, "2.a") == q2


def test_v_stack_restricted_none_one_friendly_piece_per_square():
    """V-STACK-RESTRICTED none: at most one friendly piece per square, entries included."""
    rules = "classic+stacking=none"
    assert_legal(throw(position(rules, {"0.a": 20, "0.b": 17}), 3), {"0a+3", "-"})
    q2 = seat_p(0, 20, 2)
    assert_legal(throw(position(rules, {"0.b": 17, "2.a": q2}), 3), {"-"})
    for where in (1, 83):
        s = throw(position(rules, {"0.a": where}), 10)
        assert not any("@" in a for a in legal(s))


def test_v_stack_restricted_castles_only_and_explicit_squares():
    """V-STACK-RESTRICTED castles_only / explicit squares: sharing only where allowed."""
    rules = "classic+stacking=castles_only"
    assert "0b+3" in legal(throw(position(rules, {"0.a": 21, "0.b": 18}), 3))
    assert "0b+3" not in legal(throw(position(rules, {"0.a": 20, "0.b": 17}), 3))
    assert xy(0, 21) == (15, 8)  # named p9
    rules = "classic+stacking=p9"
    assert "0b+3" in legal(throw(position(rules, {"0.a": 21, "0.b": 18}), 3))
    assert "0b+3" not in legal(throw(position(rules, {"0.a": 23, "0.b": 20}), 3))


def test_r_castle_block():
    """R-CASTLE-BLOCK (block): no landing on a castle with an enemy; friendly castle is fine."""
    assert_legal(throw(position("classic", {"0.a": 18, "1.a": 72}), 3), {"-"})
    assert_legal(throw(position("classic", {"0.a": 18, "0.b": 21}), 3), {"0a+3", "0b+3", "-"})


def test_r_castle_coexist():
    """R-CASTLE-BLOCK coexist / R-CASTLE-SAFE: enemies share a castle, nobody is captured."""
    s = throw(position("classic+castle_mode=coexist", {"0.a": 18, "1.a": 72}), 3)
    assert_legal(s, {"0a+3", "-"})
    after = play(s, "0a+3")
    assert (p(after, "0.a"), p(after, "1.a")) == (21, 72)
    assert turn_passed(after, 0)


def test_r_castle_inert():
    """R-CASTLE-BLOCK inert / R-CASTLE-SAFE: castles are ordinary squares: capture there."""
    s = throw(position("classic+castle_mode=inert", {"0.a": 18, "1.a": 72}), 3)
    assert_legal(s, {"0a+3", "-"})
    after = play(s, "0a+3")
    assert (p(after, "0.a"), p(after, "1.a")) == (21, 0)
    assert throws_again(after, 0)


def test_r_castles_every_castle_blocks_every_other_loop_square_captures():
    """R-CASTLES / R-CASTLE-SAFE: the 12 castles of A.5 (p 8, 12, 21, … 76 for seat 0)."""
    for target in range(8, 77):
        start = position("classic", {"0.a": target - 2, "1.a": seat_p(0, target, 1)})
        s = throw(start, 2)
        if target in CASTLE_P:
            assert_legal(s, {"-"})
        else:
            assert legal(s) == {"0a+2", "-"}, target
            assert p(play(s, "0a+2"), "1.a") == 0, target


def test_r_capture_all_enemy_pieces_of_both_seats():
    """R-CAPTURE (all): a landing captures every enemy piece there, of both enemy seats."""
    pieces = {
        "0.a": 20,
        "1.a": seat_p(0, 23, 1),
        "1.b": seat_p(0, 23, 1),
        "3.a": seat_p(0, 23, 3),
    }
    after = play(throw(position("classic", pieces), 3), "0a+3")
    assert (p(after, "1.a"), p(after, "1.b"), p(after, "3.a")) == (0, 0, 0)
    assert p(after, "0.a") == 23


def test_r_capture_top_one():
    """R-CAPTURE (top_one): only the top enemy piece goes back; the mover goes on top."""
    q = seat_p(0, 23, 1)
    for bottom, top in (("1.a", "1.b"), ("1.b", "1.a")):
        start = position(
            "classic+capture_scope=top_one",
            {"0.a": 20, "1.a": q, "1.b": q},
            order=["0.a", bottom, top],
        )
        after = play(throw(start, 3), "0a+3")
        assert p(after, top) == 0
        assert p(after, bottom) == q
        order = list(after.order)
        assert order.index(gid(bottom)) < order.index(gid("0.a"))


def test_v_stack_immune_two_enemies_cannot_be_landed_on():
    """V-STACK-IMMUNE: only a lone enemy piece is captured; a pair (any seats) stops a landing."""
    rules = "classic+stack_immune=true"
    q1, q3 = seat_p(0, 22, 1), seat_p(0, 22, 3)
    assert_legal(throw(position(rules, {"0.a": 20, "1.a": q1, "1.b": q1}), 2), {"-"})
    assert_legal(throw(position(rules, {"0.a": 20, "1.a": q1, "3.a": q3}), 2), {"-"})
    s = throw(position(rules, {"0.a": 20, "1.a": q1}), 2)
    assert_legal(s, {"0a+2", "-"})
    assert p(play(s, "0a+2"), "1.a") == 0
    # castle_mode=inert: on castles too
    c = seat_p(0, 21, 1)
    inert = rules + "+castle_mode=inert"
    assert_legal(throw(position(inert, {"0.a": 19, "1.a": c, "1.b": c}), 2), {"-"})
    assert p(play(throw(position(inert, {"0.a": 19, "1.a": c}), 2), "0a+2"), "1.a") == 0
    # a group is not a single piece
    grp = rules + "+split_throw=group"
    s = throw(position(grp, {"0.a": 20, "0.b": 20, "1.a": q1, "1.b": q1}), 2)
    assert_legal(s, {"0ab+2", "-"})
    assert parse_ruleset("tylor-1879").stack_immune


def test_v_blockade_v_stack_immune_and_coexisting_castles_still_capture_a_lone_piece():
    """V-BLOCKADE with V-STACK-IMMUNE and R-CASTLE-BLOCK coexist (accepted since issue 47): a
    lone enemy piece off the castles is captured (R-CAPTURE), a pair neither passed nor
    landed on by one piece, a castle shared (R-CASTLE-SAFE), a stack taken by a group only."""
    rules = "tylor-1879+blockade=true+castle_mode=coexist"
    q1 = seat_p(0, 22, 1)
    s = throw(position(rules, {"0.a": 20, "1.a": q1}), 2)
    assert_legal(s, {"0a+2", "-"})
    assert p(play(s, "0a+2"), "1.a") == 0
    pair = {"0.a": 20, "1.a": q1, "1.b": q1}
    for v in (2, 3):
        assert_legal(throw(position(rules, pair), v), {"-"})
    castle = throw(position(rules, {"0.a": 18, "1.a": 72}), 3)
    after = play(castle, "0a+3")
    assert (p(after, "0.a"), p(after, "1.a")) == (21, 72)
    grp = rules + "+split_throw=group"
    s = throw(position(grp, {"0.a": 20, "0.b": 20, "1.a": q1, "1.b": q1}), 2)
    assert_legal(s, {"0ab+2", "-"})
    after = play(s, "0ab+2")
    assert (p(after, "1.a"), p(after, "1.b")) == (0, 0)


def test_v_capture_bonus_once_per_throw():
    """V-CAPTURE-BONUS: a capturing grace still gives only one extra throw."""
    s = play(throw(position("classic", {"0.a": 13, "1.a": seat_p(0, 23, 1)}), 10), "0a+10")
    assert p(s, "1.a") == 0
    assert throws_again(s, 0)
    assert turn_passed(play(throw(s, 2), "-"), 0)


def test_v_capture_bonus_collect_one_cycle_per_spending_phase():
    """V-CAPTURE-BONUS (collect): two captures in one spending phase earn one bonus cycle."""
    pieces = {"0.a": 20, "0.b": 30, "1.a": seat_p(0, 23, 1), "1.b": seat_p(0, 40, 1)}
    s = throw(position(WIKI, pieces), 10, 3)
    s = play(s, "0a+3")
    assert p(s, "1.a") == 0 and s.stage is Stage.SPEND
    s = play(s, "0b+10")
    assert p(s, "1.b") == 0
    assert throws_again(s, 0)
    assert list(s.items) == []
    s = throw(s, 2)
    assert list(s.items) == [2]
    assert turn_passed(play(s, "-"), 0)


def test_v_capture_bonus_pyada_capture_counts():
    """V-CAPTURE-BONUS with C.10a 7b: a capture by the pyada step gives the extra throw."""
    rules = "classic+pyada=true+pyada_values=4"
    q = seat_p(0, 23, 1)
    s = play(throw(position(rules, {"0.a": 10, "0.b": 22, "1.a": q}, rest={0: "H"}), 4), "-")
    assert s.stage is Stage.PYADA
    s = play(s, "0b+p")
    assert p(s, "1.a") == 0
    assert throws_again(s, 0)
    s = play(throw(position(rules, {"0.a": 10, "0.b": 22}, rest={0: "H"}), 4), "-", "0b+p")
    assert turn_passed(s, 0)


def test_v_kill_before_home_credits():
    """V-KILL-BEFORE-HOME: the final step needs a credit (seat or team); a capture earns one."""
    seat = "classic+kill_before_home=seat"
    team = "classic+kill_before_home=team"
    partner_credit = (0, 0, 1, 0)
    assert_legal(throw(position(seat, {"0.a": 80}, kills=partner_credit), 4), {"-"})
    assert_legal(throw(position(team, {"0.a": 80}, kills=partner_credit), 4), {"0a+4", "-"})
    # the last-square exit is a final step too
    home = {0: "H"}
    assert_legal(throw(position(seat, {"0.a": 83}, rest=home), 6), {"-"})
    credited = position(seat, {"0.a": 83}, rest=home, kills=(1, 0, 0, 0))
    assert_legal(throw(credited, 6), {"0a#6", "-"})
    # a capture by the seat's piece gives it the credit
    s = position(seat, {"0.a": 20, "0.b": 80, "1.a": seat_p(0, 23, 1)})
    s = play(throw(s, 3), "0a+3")
    assert s.kills == (1, 0, 0, 0)
    assert "0b+4" in legal(throw(s, 4))


RA = "classic+kill_before_home=seat+recapture_annul=true"


def test_v_recapture_annul_repeats_back_and_forth():
    """V-RECAPTURE-ANNUL: "unless it repeats": A's recapture in A's next turn annuls B's."""
    q1 = seat_p(0, 23, 1)
    s = position(RA, {"0.a": 20, "0.b": 19, "1.a": q1, "1.b": q1 - 4})
    s = play(throw(s, 3), "0a+3")
    assert s.kills == (1, 0, 0, 0)
    s = decline_turn(s)  # seat 0 bonus
    s = play(throw(s, 4), "1b+4")  # seat 1 recaptures 0.a on Q: R1 annulled
    assert s.kills == (0, 1, 0, 0)
    s = decline_turn(s)  # seat 1 bonus
    s = decline_turn(s)  # seat 2
    s = decline_turn(s)  # seat 3
    assert s.seat == 0
    s = play(throw(s, 4), "0b+4")  # seat 0 recaptures 1.b on Q: R2 annulled
    assert p(s, "1.b") == 0
    assert s.kills == (1, 0, 0, 0)


def test_v_recapture_annul_each_victim_seat_has_a_window():
    """V-RECAPTURE-ANNUL: one landing, one credit, one record; victim seat 3 may annul it."""
    pieces = {
        "0.a": 20,
        "1.a": seat_p(0, 23, 1),
        "3.a": seat_p(0, 23, 3),
        "3.b": seat_p(0, 23, 3) - 4,
    }
    s = play(throw(position(RA, pieces), 3), "0a+3")
    assert (p(s, "1.a"), p(s, "3.a")) == (0, 0)
    assert s.kills == (1, 0, 0, 0)
    assert len(s.records) == 1
    s = decline_turn(s)  # seat 0 bonus
    s = decline_turn(s)  # seat 1 lets its window pass
    s = decline_turn(s)  # seat 2
    s = play(throw(s, 4), "3b+4")
    assert p(s, "0.a") == 0
    assert s.kills == (0, 0, 0, 1)


def test_v_recapture_annul_home_pieces_stay_home():
    """V-RECAPTURE-ANNUL: an annulment only takes the credit back; finished pieces stay."""
    q1 = seat_p(0, 23, 1)
    s = position(RA, {"0.a": 20, "0.b": 80, "1.a": q1, "1.b": q1 - 4})
    s = play(throw(s, 3), "0a+3")
    s = play(throw(s, 4), "0b+4")  # bonus throw: 0.b goes home on the credit
    assert p(s, "0.b") == 84
    assert s.seat == 1
    s = play(throw(s, 4), "1b+4")
    assert s.kills[0] == 0
    assert p(s, "0.b") == 84


def test_v_recapture_annul_two_player_own_other_seat_cannot_annul():
    """V-RECAPTURE-ANNUL with players=2: the victim person's other seat cannot annul."""
    rules = RA.replace("classic", "classic+players=2")
    q3 = seat_p(0, 23, 3)
    s = position(rules, {"0.a": 20, "1.a": seat_p(0, 23, 1), "3.a": q3 - 4})
    s = play(throw(s, 3), "0a+3")
    for _ in range(3):  # seat 0 bonus, seats 1, 2
        s = decline_turn(s)
    s = play(throw(s, 4), "3a+4")
    assert p(s, "0.a") == 0
    assert s.kills == (1, 0, 0, 1)


# =========================================================================== C.7 finishing


def test_r_home_column_turns_in_at_76():
    """R-HOME-COLUMN: after p = 75 a piece turns into its own middle column."""
    s = play(throw(position("classic", {"0.a": 72}), 5), "0a+5")
    assert p(s, "0.a") == 77 and xy(0, 77) == (9, 1)
    s = play(throw(position("classic", {"0.a": 70}), 10), "0a+10")
    assert p(s, "0.a") == 80 and xy(0, 80) == (9, 4)


def test_r_returning_flag_tells_pieces_on_one_square_apart():
    """R-RETURNING-FLAG: p ≥ 76 is returning: a=80 and b=4 share (9,4) but move differently."""
    assert xy(0, 80) == xy(0, 4)
    s = throw(position("classic", {"0.a": 80, "0.b": 4}), 4)
    assert_legal(s, {"0a+4", "0b+4", "-"})
    assert p(play(s, "0a+4"), "0.a") == 84
    assert p(play(s, "0b+4"), "0.b") == 8


def test_r_last_square_exit_values():
    """R-LAST-SQUARE-EXIT: from p = 83 a throw in the set finishes; its value is used up."""
    rules = "classic+last_square_exit=10"
    start = position(rules, {"0.a": 83, "0.b": 10}, rest={0: "H"})
    assert_legal(throw(start, 6), {"0b+6", "-"})
    assert_legal(throw(start, 25), {"0b+25", "-"})
    s = throw(start, 10)
    assert_legal(s, {"0a#10", "0b+10", "-"})
    after = play(s, "0a#10")
    assert (p(after, "0.a"), p(after, "0.b")) == (84, 10)
    assert throws_again(after, 0)


def test_r_25_parking_castle_25_from_home():
    """R-25-PARKING: p = 59 (0,9) is a castle 25 from home: safe there, finishes with 25."""
    assert xy(0, 59) == (0, 9)
    assert_legal(throw(position("classic", {"0.a": 59}, rest={0: "H"}), 25), {"0a+25", "-"})
    q1 = seat_p(0, 59, 1)
    s = throw(position("classic", {"0.a": 59, "1.a": q1 - 3}, seat=1), 3)
    assert_legal(s, {"-"})


def test_v_extra_lap_overshoot_and_landing():
    """V-EXTRA-LAP: from p ≤ 75 to t ≥ 76 the piece may go on to t − 68, once per piece."""
    rules = "classic+extra_lap=true"
    s = throw(position(rules, {"0.a": 70}, rest=H0), 10)
    assert_legal(s, {"0a+10", "0a~10", "-"})
    after = play(s, "0a~10")
    assert p(after, "0.a") == 12
    assert after.laps >> gid("0.a") & 1
    s = throw(position(rules, {"0.a": 70}, rest=H0), 25)
    assert_legal(s, {"0a~25", "-"})
    assert p(play(s, "0a~25"), "0.a") == 27
    s = throw(position(rules, {"0.a": 66}, rest=H0), 10)
    assert_legal(s, {"0a+10", "0a~10", "-"})
    assert p(play(s, "0a~10"), "0.a") == 8
    # once per piece
    s = position(rules, {"0.a": 70}, rest=H0, laps=["0.a"])
    assert_legal(throw(s, 25), {"-"})
    assert_legal(throw(s, 10), {"0a+10", "-"})
    # not from the home column
    assert_legal(throw(position(rules, {"0.a": 76}, rest=H0), 6), {"0a+6", "-"})


def test_v_extra_lap_landing_checked_and_counter_reset_on_capture():
    """V-EXTRA-LAP: the lap landing is checked (castle, capture); capture resets the counter."""
    rules = "classic+extra_lap=true"
    s = throw(position(rules, {"0.a": 70, "1.a": seat_p(0, 12, 1)}, rest=H0), 10)
    assert_legal(s, {"0a+10", "-"})
    s = throw(position(rules, {"0.a": 69, "1.a": seat_p(0, 11, 1)}, rest=H0), 10)
    after = play(s, "0a~10")
    assert (p(after, "0.a"), p(after, "1.a")) == (11, 0)
    q1 = seat_p(0, 20, 1)
    s = position(rules, {"0.a": 20, "1.a": q1 - 3}, laps=["0.a"], seat=1)
    after = play(throw(s, 3), "1a+3")
    assert p(after, "0.a") == 0
    assert not after.laps >> gid("0.a") & 1


# =========================================================================== C.8 skilled


def test_v_triple_7():
    """V-TRIPLE-7: immediate mode: the third 7 in a row is void and the turn ends."""
    rules = "classic+cowries=7+triple_cancel=group"
    s = position(rules, {"0.a": 10}, rest={0: "H"})
    s = play(throw(s, 7), "-")
    s = play(throw(s, 7), "-")
    assert throws_again(s, 0)
    s, events = throw_ev(s, 7)
    assert "cancel" in [e.kind for e in events]
    assert turn_passed(s, 0)


def test_v_triple_14():
    """V-TRIPLE-14: immediate mode: the third 14 in a row is void and the turn ends."""
    rules = "classic+cowries=7+triple_cancel=group"
    s = position(rules, {"0.a": 10}, rest={0: "H"})
    s = play(throw(s, 14), "-")
    s = play(throw(s, 14), "-")
    s, events = throw_ev(s, 14)
    assert "cancel" in [e.kind for e in events]
    assert turn_passed(s, 0)
    # 7, 14, 14, 7: no run reaches 3
    s = position(rules, {"0.a": 10}, rest={0: "H"})
    for v in (14, 7, 14):
        s = play(throw(s, v), "-")
    assert s.stage is Stage.THROW and s.seat == 0
    assert throw(s, 14).stage is Stage.ACT


def test_v_triple_high():
    """V-TRIPLE-HIGH: three H throws in a row (any mix of big_values) cancel."""
    s = position("classic+triple_cancel=group", {"0.a": 10})
    s = play(throw(s, 10), "-")
    s = play(throw(s, 25), "-")
    s, events = throw_ev(s, 10)
    assert "cancel" in [e.kind for e in events]
    assert turn_passed(s, 0)
    s = position("classic+cowries=7+triple_cancel=group", {"0.a": 10})
    s = play(throw(s, 10), "-")
    s = play(throw(s, 30), "-")
    assert turn_passed(throw(s, 25), 0)
    # 6 is not in big_values {10, 25}: 10, 6, 25 → no run of 3
    s = position("classic+triple_cancel=group", {"0.a": 10})
    for v in (10, 6, 25):
        s = play(throw(s, v), "-")
    assert throw(s, 10).stage is Stage.ACT


def test_v_triple_cancel_capture_does_not_reset_runs_immediate():
    """V-TRIPLE-CANCEL: in immediate mode a capture does not reset runs (group mode)."""
    rules = "classic+triple_cancel=group"
    s = position(rules, {"0.a": 13, "1.a": seat_p(0, 23, 1)})
    s = play(throw(s, 10), "0a+10")
    assert throws_again(s, 0)
    s = play(throw(s, 25), "-")
    assert turn_passed(throw(s, 10), 0)
    # a non-grace capturing throw resets the runs (group mode)
    s = position(rules, {"0.a": 20, "1.a": seat_p(0, 23, 1)})
    s = play(throw(s, 10), "-")
    s = play(throw(s, 25), "-")
    s = play(throw(s, 3), "0a+3")
    assert throws_again(s, 0)
    assert throw(s, 10).stage is Stage.ACT


def test_v_triple_cancel_same_mode_capturing_non_grace_keeps_own_run():
    """V-TRIPLE-CANCEL same: a non-grace capturing throw does not reset its own value's run."""
    rules = "classic+triple_cancel=same"
    pieces = {"0.a": 20, "1.a": seat_p(0, 23, 1), "1.b": seat_p(0, 26, 1)}
    s = play(throw(position(rules, pieces), 3), "0a+3")
    assert throws_again(s, 0)
    s = play(throw(s, 3), "0a+3")
    assert p(s, "1.b") == 0 and throws_again(s, 0)
    assert turn_passed(throw(s, 3), 0)
    # group mode: 3 is in no class, the same throws are fine
    s = play(throw(position("classic+triple_cancel=group", pieces), 3), "0a+3")
    s = play(throw(s, 3), "0a+3")
    assert throw(s, 3).stage is Stage.ACT


def test_v_triple_cancel_scope_three_and_turn():
    """V-TRIPLE-CANCEL scope: `three` keeps earlier throws, `turn` cancels the whole turn."""
    s = throw(position(WIKI, {"0.a": 10}), 7, 10, 25, 30)
    assert s.stage is Stage.SPEND and list(s.items) == [7]
    s = throw(position(WIKI + "+triple_scope=turn", {"0.a": 10}), 7, 10, 25, 30)
    assert list(s.items) == []
    assert turn_passed(s, 0)


def test_r_triple_interleave_other_class_breaks_run():
    """R-TRIPLE-INTERLEAVE: 25, 25, 14, 10, 30 is not cancelled; 25, 25, 10 is."""
    s = throw(position(WIKI, {"0.a": 10}), 25, 25, 14, 10, 30, 7, 25, 30, 7)
    assert throws_again(s, 0)
    assert list(s.items) == [25, 25, 14, 10, 30, 7, 25, 30, 7]
    s = throw(position(WIKI, {"0.a": 10}), 25, 25, 10)
    assert list(s.items) == [] and turn_passed(s, 0)


def test_v_skilled_bundle():
    """V-SKILLED: wikipedia-full's bundle: 7 cowries, collect, triple cancel, pyada."""
    r = get_ruleset(WIKI)
    assert (r.cowries, r.throw_usage, r.triple_cancel, r.pyada) == (7, "collect", "group", True)
    assert r.big_values == r.pyada_values == frozenset({10, 25, 30})
    # cancelled throws give no pyada even with every piece on the board
    full = {"0.a": 10, "0.b": 20, "0.c": 30, "0.d": 40}
    s = throw(position(WIKI, full), 7, 10, 25, 30)
    assert list(s.items) == [7]
    assert s.pyadas == 0
    s = throw(position(WIKI, full), 10, 25, 3)
    assert list(s.items) == [10, 25, 3] and s.pyadas == 2


def test_v_pyada_free_step_immediate():
    """V-PYADA (free): with no waiting piece a big throw earns a 1-step move for any piece."""
    rules = "classic+pyada=true"
    start = position(rules, {"0.a": 10, "0.b": 20, "0.c": 30}, rest={0: "H"})
    s = play(throw(start, 25), "0a+25")
    assert s.stage is Stage.PYADA
    assert_legal(s, {"0a+p", "0b+p", "0c+p", "-"})
    after = play(s, "0b+p")
    assert p(after, "0.b") == 21
    assert throws_again(after, 0)
    assert throws_again(play(s, "-"), 0)
    # after declining the throw itself the pyada may still be used (7b)
    s = play(throw(start, 10), "-")
    assert s.stage is Stage.PYADA
    # a waiting piece (never entered or captured): no pyada
    s = play(throw(position(rules, {"0.a": 10, "0.b": 20, "0.c": 30}), 25), "0a+25")
    assert throws_again(s, 0)
    # a pyada can finish a piece on p = 83
    s = play(throw(position(rules, {"0.a": 83, "0.b": 20}, rest={0: "H"}), 10), "0b+10")
    assert_legal(s, {"0a+p", "0b+p", "-"})
    assert p(play(s, "0a+p"), "0.a") == 84


def test_v_pyada_can_enter_and_condition_always():
    """V-PYADA: pyada_condition=always earns it with pieces waiting; pyada_can_enter enters."""
    rules = "classic+pyada=true+pyada_condition=always+pyada_can_enter=true"
    s = play(throw(position(rules, {"0.a": 10}), 25), "-")
    assert s.stage is Stage.PYADA
    assert_legal(s, {"0a+p", "0b@p", "-"})
    assert p(play(s, "0b@p"), "0.b") == 1


def test_v_pyada_collect_finished_pieces_are_not_waiting():
    """V-PYADA (collect): finished pieces do not count as waiting."""
    s = throw(position(WIKI, {"0.a": 10}, rest={0: "H"}), 25, 3)
    assert s.pyadas == 1


def test_v_pyada_collect_condition_uses_own_pieces():
    """V-PYADA (collect): the condition is the throwing seat's own pieces at phase start.

    Seat 3 (no waiting piece) ends its turn; seat 0 (pieces waiting) throws 25, 3: no pyada.
    """
    s = position(WIKI, {"3.a": 10, "3.b": 20, "3.c": 30, "3.d": 40, "0.a": 10}, seat=3)
    s = decline_turn(s)
    assert s.seat == 0
    s = throw(s, 25, 3)
    assert s.pyadas == 0


def test_v_pyada_attached_adds_one_to_the_move():
    """V-PYADA attached: every MOVE with the throw is by v + 1; ENTER/exit lose the pyada."""
    rules = "classic+pyada=true+pyada_use=attached"
    assert_legal(throw(position(rules, {"0.a": 59}, rest={0: "H"}), 25), {"-"})
    s = throw(position(rules, {"0.a": 10}, rest={0: "H"}), 10)
    assert_legal(s, {"0a+10", "-"})
    after = play(s, "0a+10")
    assert p(after, "0.a") == 21
    assert throws_again(after, 0)
    s = throw(position(rules, {"0.a": 83, "0.b": 10}, rest={0: "H"}), 10)
    assert_legal(s, {"0a#10", "0b+10", "-"})
    after = play(s, "0a#10")
    assert (p(after, "0.a"), p(after, "0.b")) == (84, 10)
    assert throws_again(after, 0)
    always = rules + "+pyada_condition=always"
    s = throw(position(always, {"0.a": 10}), 25)
    assert p(play(s, "0a+25"), "0.a") == 36
    after = play(s, "0b@25")
    assert p(after, "0.b") == 1
    assert throws_again(after, 0)


# =========================================================================== C.9 winning


def test_r_team_win_needs_all_eight_and_ends_at_once():
    """R-TEAM-WIN: the team wins when all 8 pieces are home; pending throws are dropped."""
    s = position("classic", {"2.c": 78, "2.d": 10}, rest={0: "H", 2: "H"}, seat=2)
    after = play(throw(s, 6), "2c+6")
    assert not is_over(after)
    s = position("classic", {"2.c": 78}, rest={0: "H", 2: "H"}, seat=2)
    after = play(throw(s, 6), "2c+6")  # a grace, but the game is over
    assert is_over(after)
    assert legal_actions(after) == ()
    assert set(outcome(after).seats) == {0, 2}
    # the other team
    s = position("classic", {"3.a": 80}, rest={1: "H", 3: "H"}, seat=3)
    after = play(throw(s, 4), "3a+4")
    assert is_over(after) and set(outcome(after).seats) == {1, 3}


def test_r_finished_seat_skip():
    """R-FINISHED-SEAT (skip): finishing ends the turn at once; the seat misses its turns."""
    s = position("classic", {"0.a": 78, "2.a": 10}, rest={0: "H"})
    after = play(throw(s, 6), "0a+6")
    assert after.pos[0:4] == (84,) * 4
    assert turn_passed(after, 0), "the grace's re-throw lapses"
    seats = []
    s = after
    for _ in range(4):
        seats.append(s.seat)
        s = decline_turn(s)
    assert seats == [1, 2, 3, 1]


def test_r_finished_seat_skip_collect_items_lapse():
    """R-FINISHED-SEAT (skip, collect): finishing mid-spend ends the turn; items lapse."""
    s = throw(position(WIKI, {"0.a": 80}, rest={0: "H"}, kills=(1, 0, 0, 0)), 10, 4)
    assert list(s.items) == [10, 4]
    after = play(s, "0a+4")
    assert turn_passed(after, 0)
    assert list(after.items) == []


def test_v_partner_throws_for_finished_seat():
    """V-PARTNER-THROWS: a finished seat throws and its partner spends the throws."""
    rules = "classic+finished_seat=throw_for_partner"
    s = throw(position(rules, {"2.a": 10}, rest={0: "H"}), 3)
    assert_legal(s, {"2a+3", "-"})
    after = play(s, "2a+3")
    assert p(after, "2.a") == 13 and after.seat == 1
    # the finished seat keeps its turns
    s = decline_turn(position(rules, {"2.a": 10}, rest={0: "H"}, seat=3))
    assert s.seat == 0
    # entered/FREE is the partner's
    s = throw(position(rules, rest={0: "H"}, entered=0b1011), 3)
    assert_legal(s, {"2a*3", "-"})
    # a capture is credited to the partner, who owns the capturing piece
    kb = rules + "+kill_before_home=seat"
    q2 = seat_p(0, 23, 2)
    s = position(kb, {"2.a": q2 - 3, "1.a": seat_p(0, 23, 1)}, rest={0: "H"})
    after = play(throw(s, 3), "2a+3")
    assert p(after, "1.a") == 0
    assert after.kills == (0, 0, 1, 0)


def test_v_partner_throws_turn_goes_on_after_finishing():
    """V-PARTNER-THROWS: a seat finishing mid-turn goes on, playing for its partner."""
    rules = "classic+finished_seat=throw_for_partner"
    s = position(rules, {"0.a": 78, "2.a": 10}, rest={0: "H"})
    s = play(throw(s, 6), "0a+6")
    assert throws_again(s, 0)
    assert_legal(throw(s, 3), {"2a+3", "-"})


def test_r_no_limit_no_draw_decline_always_allowed():
    """R-NO-LIMIT: no draw and no turn limit; declining is always allowed."""
    s = position("classic", {"0.a": 10, "1.a": 10, "2.a": 10, "3.a": 10})
    for _ in range(400):
        s = throw(s, 3)
        assert "-" in legal(s)
        s = play(s, "-")
        assert not is_over(s)
    assert current_player(s) == CHANCE


def test_r_decline_events():
    """R-DECLINE: declining is recorded as a decline and changes no piece."""
    s = throw(position("classic", {"0.a": 10}), 4)
    after, events = play_ev(s, "-")
    assert "decline" in [e.kind for e in events]
    assert after.pos == s.pos


# =========================================================================== further edge cases


def test_r_first_piece_free_travel_landing_rules_apply():
    """R-FIRST-PIECE-FREE (travel): the landing on p = v is checked like a move's landing.

    tylor-1879 with +first_piece_free=travel: 12 is a grace outside entry_values {10, 25}, so
    it travels to p = 12, the castle (10,3).
    """
    rules = "tylor-1879+first_piece_free=travel"
    fresh = dict(entered=0b1110)
    s = throw(position(rules, **fresh), 12)
    assert_legal(s, {"0a*12", "-"})
    after = play(s, "0a*12")
    assert p(after, "0.a") == 12 and throws_again(after, 0)
    s = throw(position(rules, {"1.a": seat_p(0, 12, 1)}, **fresh), 12)
    assert_legal(s, {"-"})
    # a capture on the travel landing (classic with entry_values=25: 10 travels)
    s = throw(position("classic+entry_values=25", {"1.a": seat_p(0, 10, 1)}, **fresh), 10)
    after = play(s, "0a*10")
    assert (p(after, "0.a"), p(after, "1.a")) == (10, 0)


def test_v_7_14_needs_piece_partner_throws_uses_partner_board():
    """V-7-14-NEEDS-PIECE with V-PARTNER-THROWS: the 7/14 check uses the partner's pieces."""
    rules = "classic+cowries=7+finished_seat=throw_for_partner"
    s = throw(position(rules, {"2.a": 10}, rest={0: "H"}), 7)
    assert_legal(s, {"2a+7", "-"})
    s = throw(position(rules, rest={0: "H"}), 7)
    assert turn_passed(s, 0)


def test_r_finished_seat_ludii_keeps_throwing():
    """R-FINISHED-SEAT / E.2 item 6 (ludii): a finished seat still throws and can only pass."""
    s, _ = apply_chance(position("ludii", {"0.a": 78, "2.a": 30}, rest={0: "H"}), 6)
    after = play(s, "0a+6")
    assert after.pos[0:4] == (84,) * 4
    assert throws_again(after, 0), "a grace still gives another throw"
    s, _ = apply_chance(after, 3)
    assert_legal(s, {"-"})
    s = play(s, "-")
    for seat in (1, 2, 3):
        assert s.seat == seat
        s, _ = apply_chance(s, 3)
        s = play(s, "-")
    assert s.seat == 0, "the finished seat keeps its turns"


def test_r_track_ludii_entry_never_captures():
    """R-TRACK / E.2 5b: a ludii grace entry to p = 13 captures nothing; the stack is mixed."""
    q1 = seat_p(0, 13, 1)
    s, _ = apply_chance(position("ludii", {"0.a": 30, "1.a": q1}), 6)
    after = play(s, "0b@6")
    assert (p(after, "0.b"), p(after, "1.a")) == (13, q1)


def test_v_blockade_enemy_partners_form_one():
    """V-BLOCKADE: partners' pieces (seats 1 and 3) on one loop square form a blockade."""
    pieces = {"0.a": 20, "1.a": seat_p(0, 22, 1), "3.a": seat_p(0, 22, 3)}
    assert_legal(throw(position("classic+blockade=true", pieces), 3), {"-"})


def test_v_triple_cancel_void_throws_do_not_break_runs():
    """V-TRIPLE-CANCEL with V-7-14-NEEDS-PIECE: a void 7 changes no run count (C.10b step 2)."""
    rules = WIKI + "+seven_fourteen_needs_piece=rethrow_only"
    s = throw(position(rules), 10, 7, 25, 7)
    assert list(s.items) == [10, 25]
    s = throw(s, 30)
    assert list(s.items) == []
    assert turn_passed(s, 0)


def test_v_triple_cancel_immediate_scope_has_no_effect():
    """V-TRIPLE-CANCEL: immediate mode: only the third throw is void, earlier moves stand."""
    for scope in ("three", "turn"):
        s = position(f"classic+triple_cancel=group+triple_scope={scope}", {"0.a": 10})
        s = play(throw(s, 10), "0a+10")
        s = play(throw(s, 25), "0a+25")
        s = throw(s, 10)
        assert turn_passed(s, 0)
        assert p(s, "0.a") == 45


def test_v_pyada_attached_free_travel_goes_to_v_plus_one():
    """V-PYADA attached: FREE travel goes to p = v + 1."""
    rules = "classic+pyada=true+pyada_use=attached+pyada_condition=always+pyada_values=3"
    s = throw(position(rules, entered=0b1110), 3)
    assert_legal(s, {"0a*3", "-"})
    assert p(play(s, "0a*3"), "0.a") == 4
    s = throw(position(rules, {"0.a": 10}), 3)
    assert p(play(s, "0a+3"), "0.a") == 14


def test_v_pyada_herklots_pyada_is_the_only_entry():
    """V-PYADA (herklots-6): no entry values; the pyada of a 25 enters a piece on p = 1."""
    s = throw(position("herklots-6", entered=0b1110), 25, 2)
    assert list(s.items) == [25, 2]
    assert s.pyadas == 1
    assert_legal(s, {"0a@p", "-"})
    s = play(s, "0a@p")
    assert p(s, "0.a") == 1
    assert {"0a+25", "0a+2"} <= legal(s)
    s = play(s, "0a+25", "0a+2")
    assert p(s, "0.a") == 28


def test_v_recapture_annul_collect_mode():
    """V-RECAPTURE-ANNUL in wikipedia-full (collect): the victim's next turn annuls."""
    q1 = seat_p(0, 23, 1)
    s = position(WIKI, {"0.a": 20, "1.a": q1, "1.b": q1 - 4})
    s = play(throw(s, 3), "0a+3")
    assert s.kills == (1, 0, 0, 0)
    assert throws_again(s, 0), "one bonus cycle"
    s = play(throw(s, 2), "-")
    assert s.seat == 1
    s = play(throw(s, 4), "1b+4")
    assert p(s, "0.a") == 0
    assert s.kills == (0, 1, 0, 0)


def test_v_move_compulsory_collect_must_keep_spending():
    """V-MOVE-COMPULSORY (collect): the seat must go on while any item has a legal use."""
    s = throw(position(WIKI + "+moves_compulsory=true", {"0.a": 10}), 10, 3)
    assert "-" not in legal(s)
    s = play(s, "0a+3", "0a+10")
    assert turn_passed(s, 0)


def test_v_grace_must_enter_no_split_moves_either():
    """V-GRACE-MUST-ENTER + V-SPLIT-THROW: split parts are MOVEs with v (C.10a step 5)."""
    rules = "classic+split_throw=split+grace_must_enter=true"
    s = throw(position(rules, {"0.a": 10, "0.b": 20}), 10)
    assert_legal(s, {"0c@10", "-"})


def test_r_capture_top_one_legal_set_lists_distinct_outcomes():
    """R-CAPTURE top_one with C.10a step 5: equal multisets of p are one outcome, listed once."""
    s = throw(position("classic+capture_scope=top_one", {"0.a": 10, "0.b": 10}), 4)
    assert_legal(s, {"0a+4", "-"})


E1 = {
    # key: classic, wikipedia-full, herklots-6, herklots-7, tylor-1879, ludii (RULES.md E.1)
    "cowries": (6, 7, 6, 7, 6, 6),
    "score_table": (
        (25, 10, 2, 3, 4, 5, 6),
        (7, 10, 2, 3, 4, 25, 30, 14),
        (6, 10, 2, 3, 4, 25, 12),
        (6, 10, 2, 3, 4, 25, 30, 12),
        (6, 10, 2, 3, 4, 25, 12),
        (25, 10, 2, 3, 4, 5, 6),
    ),
    "reroll_values": (
        {6, 10, 25},
        {7, 10, 25, 30, 14},
        {6, 10, 25, 12},
        {6, 10, 25, 30, 12},
        {6, 10, 25, 12},
        {6, 10, 25},
    ),
    "entry_values": ({6, 10, 25}, {10, 25, 30}, set(), set(), {10, 25}, {6, 10, 25}),
    "entry_mode": (
        "consume",
        "consume",
        "count_from_charkoni",
        "count_from_charkoni",
        "count_from_charkoni",
        "consume",
    ),
    "first_piece_free": ("travel", "travel", "off", "off", "off", "ludii_forced"),
    "first_player": ("throw_off",) * 5 + ("seat0",),
    "throw_usage": ("immediate", "collect", "collect", "collect", "immediate", "immediate"),
    "split_throw": ("none", "split", "none", "none", "none", "none"),
    "castle_mode": ("block",) * 5 + ("inert",),
    "capture_scope": ("all",) * 5 + ("top_one",),
    "stack_immune": (False, False, False, False, True, False),
    "capture_bonus": (True,) * 5 + (False,),
    "kill_before_home": ("false", "seat", "false", "false", "false", "false"),
    "recapture_annul": (False, True, False, False, False, False),
    "triple_cancel": ("off", "group", "same", "same", "off", "off"),
    "pyada": (False, True, True, True, False, False),
    "grace_must_enter": (False,) * 6,
    "moves_compulsory": (False,) * 6,
    "extra_lap": (False,) * 6,
    "blockade": (False,) * 6,
    "players": (4,) * 6,
    "teams": ("pairs",) * 6,
    "finished_seat": ("skip",) * 6,
    "unusable_throw": ("forfeit_throw",) * 6,
    "stacking": ("all",) * 6,
    "track": ("traditional",) * 5 + ("ludii",),
}


@pytest.mark.parametrize(
    ("index", "name"),
    list(enumerate(["classic", WIKI, "herklots-6", "herklots-7", "tylor-1879", "ludii"])),
)
def test_e1_named_rulesets_match_switch_table(index, name):
    """E.1: the named rulesets (V-SKILLED is wikipedia-full's bundle) have E.1's switches."""
    r = get_ruleset(name)
    for key, values in E1.items():
        got = getattr(r, key)
        want = values[index]
        if isinstance(want, set):
            got = set(got)
        assert got == want, (name, key)
    exits = {
        "classic": {6, 10, 25},
        WIKI: {10, 25, 30},
        "herklots-6": set(),
        "herklots-7": set(),
        "tylor-1879": {10, 25},
    }
    if name == "ludii":
        assert r.last_square_exit == "ludii"
    else:
        assert set(r.last_square_exit) == exits[name]
    pyada_values = {WIKI: {10, 25, 30}, "herklots-6": {25}, "herklots-7": {25, 30}}
    if name in pyada_values:
        assert set(r.pyada_values) == pyada_values[name]
        assert r.pyada_condition == ("all_entered" if name == WIKI else "always")
        assert r.pyada_can_enter == (name != WIKI)
        assert r.pyada_use == "free"
        assert r.triple_scope == "three"
    if name == WIKI:
        assert (r.six_up_value, r.seven_fourteen_needs_piece) == (30, "void")
        assert set(r.big_values) == {10, 25, 30}


def test_v_7_14_needs_piece_collect_void_ends_phase_keeps_items():
    """V-7-14-NEEDS-PIECE (collect, void): a void 7 ends the throwing phase; T is spent."""
    s = throw(position(WIKI, entered=0b1110), 10)
    assert throws_again(s, 0)
    s, events = throw_ev(s, 7)
    assert "void" in [e.kind for e in events]
    assert s.stage is Stage.SPEND
    assert list(s.items) == [10]
    assert_legal(s, {"0a@10", "-"})


def test_v_grace_set_7_six_up_35_replaces_30_everywhere():
    """V-GRACE-SET-7 / D-08: with six_up_value=35, 35 takes 30's place in every value set."""
    r = parse_ruleset(WIKI + "+six_up_value=35")
    assert r.score_table == (7, 10, 2, 3, 4, 25, 35, 14)
    for values in (r.entry_values, r.big_values, r.pyada_values, r.last_square_exit):
        assert set(values) == {10, 25, 35}
    assert set(r.reroll_values) == {7, 10, 25, 35, 14}


def test_v_7_14_needs_piece_collect_from_new_game():
    """V-7-14-NEEDS-PIECE (collect) from a fresh wikipedia-full game (C.10b step 2).

    Seat 0 wins the throw-off, brings its first piece out with a 3 (FREE to p = 3); the other
    seats decline. In seat 0's next turn a piece is on the board at the phase start, so a 7
    counts: it is collected and seat 0 throws again.
    """
    s = new_game(get_ruleset(WIKI))
    s = throw(s, 30, 2, 2, 2)
    assert s.seat == 0 and s.stage is Stage.THROW
    s = play(throw(s, 3), "0a*3")
    for seat in (1, 2, 3):
        assert s.seat == seat
        s = play(throw(s, 2), "-")
    assert s.seat == 0 and p(s, "0.a") == 3
    s, events = throw_ev(s, 7)
    assert "void" not in [e.kind for e in events]
    assert throws_again(s, 0)
    assert list(s.items) == [7]
