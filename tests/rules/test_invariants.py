"""pachisi.rules.invariants: every invariant the engine keeps, and the states that break one.

Each test builds a state that no game can reach and checks that it is refused naming the
right field; the positive side (every state a game reaches passes) is checked at every step
of the random games in test_properties.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pachisi.rules import cowries, engine
from pachisi.rules.invariants import InvalidStateError, check_state
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import DRAW, CaptureRecord, Memo, Stage, State

ALL = 0b1111


def make(rules: str, pos: list[int] | tuple[int, ...], stage: Stage = Stage.THROW, **kw: object):
    """A state with the given board; every seat has entered unless ``entered`` is given."""
    fields: dict[str, object] = {"entered": ALL, "turn": 9}
    fields.update(kw)
    seat = int(fields.pop("seat", 0))  # type: ignore[call-overload]
    return State(parse_ruleset(rules), tuple(pos), stage, seat, **fields)  # type: ignore[arg-type]


def refused(state: State, field: str, *words: str) -> None:
    with pytest.raises(InvalidStateError) as info:
        check_state(state)
    assert info.value.field == field, str(info.value)
    for word in words:
        assert word in info.value.reason, str(info.value)


def seats(*groups: tuple[int, int, int, int]) -> list[int]:
    return [p for group in groups for p in group]


W = (0, 0, 0, 0)
H = (84, 84, 84, 84)


def test_reachable_states_pass() -> None:
    r = parse_ruleset("classic")
    state = engine.new_game(r)
    check_state(state)
    state, _ = engine.apply_chance(state, 3)
    check_state(state)


# --------------------------------------------------------------------------- the list


def test_split_with_nothing_left_to_move_is_refused() -> None:
    """Issue 5: `0,0,0,0/... s0 5 split=2/4 wikipedia-full` has no legal action."""
    refused(
        make("wikipedia-full", [0] * 16, Stage.SPEND, split_left=2, split_value=4, entered=0),
        "split",
    )


def test_r_first_piece_free_pieces_out_means_the_seat_has_entered() -> None:
    """Issue 5: `13,13,13,13/... a0 5 k=2 order=0a,0b,0c,0d ludii`: seat 0 not entered."""
    state = make(
        "ludii",
        seats((13, 13, 13, 13), W, W, W),
        Stage.ACT,
        throw_k=2,
        turn=5,
        order=(0, 1, 2, 3),
        entered=0,
    )
    refused(state, "entered", "seat 0")


def test_r_castle_block_enemies_never_share_a_blocking_castle() -> None:
    """Issue 5: `8,0,0,0/59,0,0,0/... t0 10 entered=0,1 classic`: (9,0) held by both."""
    refused(make("classic", seats((8, 0, 0, 0), (59, 0, 0, 0), W, W)), "pieces", "castle j1")


def test_r_castle_block_coexist_lets_enemies_share_a_castle() -> None:
    check_state(make("classic+castle_mode=coexist", seats((8, 0, 0, 0), (59, 0, 0, 0), W, W)))


def test_r_capture_enemies_never_share_a_plain_square_under_capture_all() -> None:
    # Seat 0's p=23 is seat 1's p=74 (SC-13): a landing there captures.
    refused(make("classic", seats((23, 0, 0, 0), (74, 0, 0, 0), W, W)), "pieces", "enemy")
    check_state(
        make(
            "classic+capture_scope=top_one",
            seats((23, 0, 0, 0), (74, 0, 0, 0), W, W),
            order=(4, 0),
        )
    )


def test_r_order_the_throw_off_comes_before_anything_moves() -> None:
    """Issue 5: `84,84,84,84/0,0,0,0/84,84,84,84/0,0,0,0 o0 25 classic`."""
    state = make(
        "classic",
        seats(H, W, H, W),
        Stage.THROW_OFF,
        turn=25,
        entered=0b0101,
        throwoff=(-1, -1, -1, -1),
    )
    refused(state, "pieces", "throw-off")
    # Said first, before what the moved pieces break (here: seats 0 and 2 have not entered).
    refused(state._replace(entered=0), "pieces", "throw-off")
    fresh = make("classic", [0] * 16, Stage.THROW_OFF, turn=25, entered=0, throwoff=(-1,) * 4)
    refused(fresh, "turn")


def test_r_team_win_a_team_home_ends_the_game() -> None:
    refused(make("classic", seats(H, (5, 0, 0, 0), H, W)), "pieces", "team 0", "R-TEAM-WIN")


def test_v_individual_win_a_seat_home_ends_the_game() -> None:
    refused(make("classic+teams=individual", seats(H, (5, 0, 0, 0), W, W)), "pieces", "seat 0")


def test_r_team_win_a_winner_has_its_pieces_home() -> None:
    refused(make("classic", seats(H, W, (83, 84, 84, 84), W), Stage.OVER, winner=0), "winner")
    check_state(make("classic", seats(H, W, H, W), Stage.OVER, winner=0))
    refused(make("classic", seats(H, W, H, W), Stage.OVER, winner=1), "winner")
    refused(make("classic", seats(H, W, H, W), Stage.OVER, winner=3), "winner", "team")


def test_v_stack_restricted_none_no_stacks() -> None:
    refused(make("classic+stacking=none", seats((20, 20, 0, 0), W, W, W)), "pieces", "stacking")
    # Partners count together, and p=1 and p=83 are one square.
    refused(make("classic+stacking=none", seats((1, 83, 0, 0), W, W, W)), "pieces")
    check_state(make("classic", seats((20, 20, 0, 0), W, W, W)))


def test_v_stack_restricted_castles_only() -> None:
    rules = "classic+stacking=castles_only"
    check_state(make(rules, seats((12, 12, 0, 0), W, W, W)))
    refused(make(rules, seats((13, 13, 0, 0), W, W, W)), "pieces")


def test_r_track_ludii_never_uses_p1_to_p12() -> None:
    state = make("ludii", seats((5, 0, 0, 0), W, W, W), turn=9, order=(0,))
    refused(state, "pieces", "p13")


# --------------------------------------------------------------------------- board memory


def test_v_extra_lap_only_with_the_switch_and_from_p8() -> None:
    refused(make("classic", seats((20, 0, 0, 0), W, W, W), laps=1), "laps", "extra_lap")
    refused(make("classic+extra_lap=true", seats((5, 0, 0, 0), W, W, W), laps=1), "laps", "p8")
    check_state(make("classic+extra_lap=true", seats((8, 0, 0, 0), W, W, W), laps=1))


def test_c11_stack_order_lists_exactly_the_pieces_on_the_board() -> None:
    rules = "classic+capture_scope=top_one"
    refused(make(rules, seats((20, 0, 0, 0), W, W, W)), "order", "missing")
    refused(make(rules, seats((20, 0, 0, 0), W, W, W), order=(0, 1)), "order")
    refused(make("classic", seats((20, 0, 0, 0), W, W, W), order=(0,)), "order")


def _annul_rules() -> str:
    return "classic+kill_before_home=seat+recapture_annul=true"


def test_v_recapture_annul_records_need_their_capturing_piece_on_the_square() -> None:
    sq = 17  # seat 0's p=23, (17,8): Ludii cell 17
    rec = CaptureRecord(0, 1, sq, 0b0010, 9)
    pos = seats((23, 0, 0, 0), W, W, W)
    check_state(make(_annul_rules(), pos, kills=(1, 0, 0, 0), records=(rec,)))
    refused(
        make(_annul_rules(), seats((24, 0, 0, 0), W, W, W), kills=(1, 0, 0, 0), records=(rec,)),
        "records",
    )
    refused(make("classic", pos, kills=(1, 0, 0, 0), records=(rec,)), "records", "recapture_annul")


def test_v_recapture_annul_a_record_stands_for_a_credit() -> None:
    rec = CaptureRecord(0, 1, 17, 0b0010, 9)
    refused(make(_annul_rules(), seats((23, 0, 0, 0), W, W, W), records=(rec,)), "kills")


def test_v_recapture_annul_victims_are_enemies() -> None:
    rec = CaptureRecord(0, 1, 17, 0b0100, 9)  # seat 2 is seat 0's partner
    pos = seats((23, 0, 0, 0), W, W, W)
    refused(make(_annul_rules(), pos, kills=(1, 0, 0, 0), records=(rec,)), "records", "victims")


def test_v_recapture_annul_a_window_stays_open_until_the_victims_turn_ends() -> None:
    """Seat 0 captured seat 1's piece in turn 9; turns go 0, 1, 2, 3, ..."""
    pos = seats((23, 0, 0, 0), W, W, W)

    def at(turn: int, seat: int, victims: int = 0b0010) -> State:
        rec = CaptureRecord(0, 1, 17, victims, 9)
        return make(_annul_rules(), pos, kills=(1, 0, 0, 0), records=(rec,), turn=turn, seat=seat)

    check_state(at(9, 0))  # the capture's own turn
    check_state(at(10, 1))  # seat 1's next turn: it may still annul
    refused(at(11, 2), "records", "had its turn")  # seat 1's turn is over
    # Seats 1 and 3 both victims: seat 1's window closes after turn 10, seat 3's after 12.
    check_state(at(10, 1, victims=0b1010))
    refused(at(11, 2, victims=0b1010), "records")  # seat 1 would have been dropped
    check_state(at(11, 2, victims=0b1000))
    check_state(at(12, 3, victims=0b1000))
    refused(at(13, 0, victims=0b1000), "records", "had its turn")
    refused(at(10, 3, victims=0b1000), "records")  # seat 3 cannot play one turn after 0
    refused(at(9, 2), "records")  # in the capture's turn the capturer is to play
    refused(at(10, 1)._replace(records=(CaptureRecord(0, 1, 17, 0b0010, 11),)), "records", "after")


def test_v_recapture_annul_throw_for_partner_the_turn_was_the_partners() -> None:
    """Under throw_for_partner a finished seat's turn moves its partner's pieces, so the
    capture's turn may be the capturer's partner's."""
    rules = _annul_rules() + "+finished_seat=throw_for_partner"
    pos = seats(H, W, (23, 0, 0, 0), W)
    rec = CaptureRecord(2, 1 << 8, _square_of(2, 23), 0b0010, 9)
    check_state(make(rules, pos, kills=(0, 0, 1, 0), records=(rec,), turn=9, seat=0))
    check_state(make(rules, pos, kills=(0, 0, 1, 0), records=(rec,), turn=10, seat=1))


def _square_of(seat: int, p: int) -> int:
    from pachisi.rules.board import square_of

    return square_of(seat, p)


def test_r_order_no_result_during_the_throw_off() -> None:
    state = make(
        "classic",
        [0] * 16,
        Stage.THROW_OFF,
        seat=1,
        turn=1,
        entered=0,
        throwoff=(4, -1, -2, -2),
        winner=1,
    )
    refused(state, "winner")


def test_v_kill_before_home_scenario_positions_with_pieces_home_and_no_credit_are_accepted() -> (
    None
):
    """SC-26 and SC-51 set up pieces home with no kill credit ("rest H"); no game reaches
    that without an annulment, but RULES.md's own scenarios need it, so it is accepted."""
    rules = "classic+kill_before_home=seat"
    check_state(make(rules, seats((80, 84, 84, 84), W, W, W)))  # SC-26
    check_state(make(rules, seats((80, 84, 84, 84), (74, 84, 84, 84), (0, 84, 84, 84), H)))


# --------------------------------------------------------------------------- result


def test_r_deadlock_a_blocked_game_is_not_going_on() -> None:
    rules = "classic+kill_before_home=seat"
    pos = seats((80, 84, 84, 84), (77, 84, 84, 84), (0, 84, 84, 84), H)
    refused(make(rules, pos, kills=(0, 0, 0, 0)), "pieces", "R-DEADLOCK")
    check_state(make(rules + "+deadlock=continue", pos))
    check_state(make(rules, pos, Stage.OVER, winner=DRAW))


def test_r_deadlock_a_draw_only_where_no_side_can_win() -> None:
    rules = "classic+kill_before_home=seat"
    refused(make(rules, seats((20, 0, 0, 0), W, W, W), Stage.OVER, winner=DRAW), "winner")
    refused(make("classic", seats((20, 0, 0, 0), W, W, W), Stage.OVER, winner=DRAW), "winner")


def test_a_finished_game_has_no_turn_in_progress() -> None:
    over = make("classic", seats(H, W, H, W), Stage.OVER, winner=0, throw_k=3)
    refused(over, "k", "over")
    refused(make("classic", seats(H, W, H, W), Stage.OVER, winner=0, again=True), "again")


# --------------------------------------------------------------------------- stage and turn


def test_r_order_throw_off_rounds() -> None:
    def throw_off(values: tuple[int, ...], seat: int) -> State:
        return make(
            "classic", [0] * 16, Stage.THROW_OFF, seat=seat, turn=1, entered=0, throwoff=values
        )

    check_state(throw_off((5, 3, -1, -1), 2))
    check_state(throw_off((-1, -2, -1, -2), 0))  # seats 0 and 2 tied: they throw again
    refused(throw_off((5, -1, 3, -1), 1), "throwoff", "after")
    refused(throw_off((-1, 3, -1, -1), 0), "throwoff")
    refused(throw_off((-1, -2, -2, -2), 0), "throwoff", "two")
    refused(throw_off((5, 7, -1, -1), 2), "throwoff", "throw value")
    seat0 = make("ludii", [0] * 16, Stage.THROW_OFF, turn=1, entered=0, throwoff=(-1,) * 4)
    refused(seat0, "side", "first_player")


def test_r_finished_seat_skip_a_finished_seat_takes_no_turn() -> None:
    pos = seats(H, (20, 0, 0, 0), (30, 0, 0, 0), W)
    refused(make("classic", pos, seat=0), "side", "R-FINISHED-SEAT")
    check_state(make("classic+finished_seat=throw_for_partner", pos, seat=0))


def test_e2_ludii_every_seat_has_entered_after_the_first_phase() -> None:
    check_state(make("ludii", [0] * 16, Stage.THROW, turn=1, entered=0))
    check_state(make("ludii", [0] * 16, Stage.THROW, turn=5, entered=ALL))
    refused(make("ludii", [0] * 16, Stage.THROW, turn=12, entered=0b0111), "entered", "first phase")


def test_c10a_a_throw_due_has_nothing_pending() -> None:
    pos = seats((20, 0, 0, 0), W, W, W)
    refused(make("classic", pos, again=True), "again")
    refused(make("classic", pos, captured=True), "captured")
    refused(make("classic+pyada=true", pos, pyadas=1), "pyadas")


def test_c10a_pending_throw_fields_follow_the_throw() -> None:
    pos = seats((20, 0, 0, 0), W, W, W)
    check_state(make("classic", pos, Stage.ACT, throw_k=0, again=True))  # a 25, a grace
    refused(make("classic", pos, Stage.ACT, throw_k=0), "again", "re-throw")
    refused(make("classic", pos, Stage.ACT, throw_k=3, again=True), "again")
    refused(make("classic", pos, Stage.ACT, throw_k=3, captured=True), "captured")
    refused(make("classic", pos, Stage.ACT), "k")


def test_v_pyada_pending_pyadas_follow_the_throw() -> None:
    rules = "classic+pyada=true"
    all_out = seats((20, 30, 40, 50), W, W, W)
    check_state(make(rules, all_out, Stage.ACT, throw_k=0, again=True, pyadas=1))
    refused(make(rules, all_out, Stage.ACT, throw_k=0, again=True), "pyadas", "earns 1")
    some_waiting = seats((20, 0, 0, 0), W, W, W)
    refused(make(rules, some_waiting, Stage.ACT, throw_k=0, again=True, pyadas=1), "pyadas")
    check_state(make(rules, all_out, Stage.PYADA, throw_k=0, again=True, pyadas=1))
    refused(make(rules, all_out, Stage.PYADA, throw_k=3, pyadas=1), "pyadas")


@pytest.mark.parametrize("k", [-1, 7, 9])
def test_v_split_throw_mid_split_a_pending_throw_out_of_range_is_named(k: int) -> None:
    """A split in stage a is judged against the pending throw: a k that no throw of six
    cowries shows is refused as such (it once raised IndexError, not InvalidStateError)."""
    pos = seats((5, 0, 0, 0), (6, 0, 0, 0), (5, 0, 0, 0), (5, 3, 0, 0))
    state = make(
        "classic+split_throw=split",
        pos,
        Stage.ACT,
        throw_k=k,
        split_left=1,
        split_value=3,
        split_used=2,
        seat=3,
    )
    refused(state, "k", "k=0..6")
    check_state(state._replace(throw_k=3))  # the position as a game reached it


def test_v_pyada_pyadas_need_the_switch_even_mid_split() -> None:
    """Mid-split the mover may have changed, so the pyada count is not derived: the switch
    still has to be on (a split part of seat 2, whose partner 0 finished, under partner
    throws)."""
    rules = "wikipedia-full+throw_usage=immediate+pyada=false+finished_seat=throw_for_partner"
    pos = seats(H, W, (23, 30, 0, 0), W)
    state = make(
        rules,
        pos,
        Stage.ACT,
        throw_k=1,
        again=True,
        split_left=6,
        split_value=10,
        split_used=1,
        pyadas=1,
        seat=0,
    )
    refused(state, "pyadas", "pyada=true")


def test_v_7_14_needs_piece_a_pending_7_means_a_piece_on_the_board() -> None:
    refused(
        make(
            "wikipedia-full+throw_usage=immediate",
            seats(W, W, W, W),
            Stage.ACT,
            throw_k=0,
            again=True,
            run=(2, 1),
        ),
        "k",
        "void",
    )


def test_v_triple_cancel_run_matches_the_pending_throw() -> None:
    rules = "classic+triple_cancel=group"
    pos = seats((20, 0, 0, 0), W, W, W)
    check_state(make(rules, pos, Stage.ACT, throw_k=0, again=True, run=(1, 2)))
    refused(make(rules, pos, Stage.ACT, throw_k=0, again=True), "run")
    refused(make(rules, pos, Stage.ACT, throw_k=3, run=(1, 1)), "run")
    refused(make(rules, pos, Stage.ACT, throw_k=0, again=True, run=(1, 3)), "run", "three")
    refused(make(rules, pos, run=(2, 1)), "run")  # no 7 in the classic table


def test_c10b_throwing_phase_collects_only_graces_on_an_unchanged_board() -> None:
    rules = "wikipedia-full"
    pos = seats((20, 0, 0, 0), W, W, W)
    check_state(make(rules, pos, items=(10, 7), run=(2, 1), phase_flags=1))
    refused(make(rules, pos, items=(3, 10), phase_flags=1, run=(1, 1)), "items", "ends")
    refused(make(rules, pos, items=(10,), phase_flags=1), "run")
    refused(make(rules, pos, items=(10,), run=(1, 1), phase_flags=3), "flags")
    no_piece = seats(W, (20, 0, 0, 0), W, W)
    refused(make(rules, no_piece, items=(7,), run=(2, 1)), "items", "void")


def test_c10b_spending_phase() -> None:
    rules = "wikipedia-full"
    pos = seats((20, 0, 0, 0), W, W, W)
    check_state(make(rules, pos, Stage.SPEND, items=(10, 3), phase_flags=1))
    refused(make(rules, pos, Stage.SPEND, phase_flags=1), "items", "left to spend")
    refused(make(rules, pos, Stage.SPEND, items=(3, 2), phase_flags=1), "items", "last throw")
    refused(make(rules, pos, Stage.SPEND, items=(3,), pyadas=1, phase_flags=1), "pyadas")


def test_v_split_throw_a_split_in_progress() -> None:
    rules = "wikipedia-full"
    pos = seats((23, 30, 0, 0), W, W, W)
    ok = make(rules, pos, Stage.SPEND, split_left=2, split_value=4, split_used=1, phase_flags=1)
    check_state(ok)
    refused(ok._replace(split_used=0), "split")
    refused(ok._replace(split_left=4), "split")
    refused(
        make("classic", pos, Stage.ACT, throw_k=4, split_left=2, split_value=4, split_used=1),
        "split",
        "split_throw",
    )


def test_every_accepted_position_has_a_move() -> None:
    """The last check: a seat to act has a legal action (here a split that cannot end)."""
    rules = "wikipedia-full"
    # 0.a has taken its part; 0.b on p=83 cannot take the 2 steps left, nor can anyone.
    state = make(
        rules,
        seats((23, 83, 0, 0), W, W, W),
        Stage.SPEND,
        split_left=2,
        split_value=4,
        split_used=1,
        phase_flags=1,
    )
    refused(state, "side", "no legal action")


# --------------------------------------------------------------------------- fuzzing

_FUZZ_RULESETS = [
    "classic",
    "wikipedia-full",
    "herklots-6",
    "tylor-1879",
    "ludii",
    "classic+kill_before_home=team+recapture_annul=true",
    "classic+capture_scope=top_one+castle_mode=inert+stack_immune=true",
    "classic+extra_lap=true+finished_seat=throw_for_partner+blockade=true",
    "classic+stacking=castles_only+teams=individual",
    "wikipedia-full+throw_usage=immediate+pyada_use=attached",
]
_FIELDS = (
    "pos", "pos", "pos", "stage", "seat", "turn", "entered", "kills", "throw_k", "again",
    "captured", "pyadas", "items", "run", "split", "phase_flags", "laps", "order", "winner",
    "records",
)  # fmt: skip


def _reachable(rules: str, rng: random.Random, steps: int) -> State:
    r = parse_ruleset(rules)
    s = engine.new_game(r)
    for _ in range(steps):
        if s.is_over:
            break
        if engine.current_player(s) == engine.CHANCE:
            s, _ = engine.apply_chance(s, cowries.throw(rng, r.cowries, r.p_mouth_up))
        else:
            actions = engine.legal_actions(s)
            s, _ = engine.apply_action(s, actions[rng.randrange(len(actions))])
    return s


def _mutate(s: State, rng: random.Random) -> State:
    """Change one to three fields of ``s`` to values near the ones the engine uses."""
    r = s.ruleset
    f = s._asdict()
    f["memo"] = Memo()
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(_FIELDS)
        if key == "pos":
            pos = list(f["pos"])
            g = rng.randrange(16)
            pos[g] = rng.choice([0, 84, 83, 76, 75, 1, 8, rng.randrange(85)])
            f["pos"] = tuple(pos)
            if r.tracks_stack_order:
                order = [x for x in f["order"] if 0 < pos[x] < 84]
                if 0 < pos[g] < 84 and g not in order:
                    order.append(g)
                f["order"] = tuple(order)
        elif key == "stage":
            f["stage"] = rng.choice(list(Stage))
        elif key == "turn":
            f["turn"] = rng.choice([1, 2, 4, 5, f["turn"] + 1, max(1, f["turn"] - 3)])
        elif key in ("seat", "entered", "throw_k", "pyadas", "phase_flags"):
            f[key] = rng.choice([-1, 0, 1, 2, 3, 4, 7, 15])
        elif key in ("again", "captured"):
            f[key] = not f[key]
        elif key == "kills":
            f["kills"] = tuple(rng.choice([0, 0, 1, 2]) for _ in range(4))
        elif key == "items":
            f["items"] = tuple(rng.choice(r.score_table) for _ in range(rng.randrange(4)))
        elif key == "run":
            f["run"] = rng.choice([(0, 0), (1, 1), (1, 2), (2, 1), (3, 2), (25, 1), (1, 3)])
        elif key == "split":
            v = rng.choice(r.score_table)
            f["split_value"], f["split_left"] = v, rng.randrange(v + 1)
            f["split_used"] = rng.randrange(16)
        elif key == "laps":
            f["laps"] = 1 << rng.randrange(16)
        elif key == "order":
            order = list(f["order"])
            rng.shuffle(order)
            f["order"] = tuple(order)
        elif key == "winner":
            f["winner"] = rng.choice([-1, -2, 0, 1, 3])
        else:
            g = rng.randrange(16)
            turn = max(1, f["turn"] - rng.randrange(4))
            victims = rng.randrange(1, 16)
            f["records"] = (CaptureRecord(g >> 2, 1 << g, rng.randrange(96), victims, turn),)
    return State(**f)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(_FUZZ_RULESETS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 500),
)
def test_every_accepted_state_has_a_move_and_only_accepted_successors(
    rules: str, seed: int, steps: int
) -> None:
    """Issue 5 item 3: a state that check_state accepts has a legal action, a chance
    outcome or an outcome; and every throw or action from it leads to a state that
    check_state accepts again (so no accepted position leads the engine astray)."""
    rng = random.Random(seed)
    state = _mutate(_reachable(rules, rng, steps), rng)
    try:
        check_state(state)
    except InvalidStateError as exc:
        assert exc.field and exc.reason
        return
    if state.is_over:
        assert engine.outcome(state) is not None
        return
    if engine.current_player(state) == engine.CHANCE:
        moves: list[object] = [k for k, _ in engine.chance_outcomes(state)]
    else:
        moves = list(engine.legal_actions(state))
    assert moves
    for move in moves:
        after, _ = engine.apply(state, move)  # type: ignore[arg-type]
        check_state(after)


def test_a_kill_credit_needs_a_seat_that_has_entered() -> None:
    """A credit is a capture by one of the seat's own pieces (V-KILL-BEFORE-HOME)."""
    from pachisi.notation import read_position

    with pytest.raises(ValueError, match="never brought a piece out"):
        read_position("0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 kills=1,0,0,0 classic")
    assert read_position("0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 entered=0 kills=1,0,0,0 classic")
    r = parse_ruleset("classic")
    with pytest.raises(InvalidStateError, match=r"0\.\.999,999,999"):
        check_state(State(r, (0,) * 16, Stage.THROW, 0, entered=1, kills=(2**31, 0, 0, 0)))
