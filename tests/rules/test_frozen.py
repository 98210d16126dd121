"""R-FROZEN: a position in which no piece can ever move again ends as a draw (RULES.md C.9,
SC-53), and C.10b's "one outcome, one action"."""

from __future__ import annotations

import random

import pytest

from pachisi.game import Game
from pachisi.notation import read_position, read_record, record_from_game, write_position
from pachisi.notation import write_record as write_game_record
from pachisi.rules import _legal, cowries, engine, frozen
from pachisi.rules.actions import Action, ActionKind
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import CHANCE, DRAW, Stage, State

R = "wikipedia-full+stacking=none"
SC53 = "84,84,84,84/84,84,84,84/81,82,0,0/83,82,0,0 s2 100 items=2 entered=0,1,2,3 kills=4,1,0,0 "
FROZEN_BOARD = "84,84,84,84/84,84,84,84/83,82,0,0/83,82,0,0"


def _sc53(rules: str = R, pieces: str = "", kills: str = "4,1,0,0") -> State:
    text = SC53.replace("kills=4,1,0,0", f"kills={kills}")
    if pieces:
        text = pieces + text[text.index(" ") :]
    return read_position(text + rules)


def _after(state: State, text: str) -> tuple[State, list[str]]:
    after, events = engine.apply_action(state, Action.parse(text))
    return after, [e.kind for e in events]


# --------------------------------------------------------------------------- SC-53


def test_sc_53_r_frozen_legal_set() -> None:
    assert [str(a) for a in engine.legal_actions(_sc53())] == ["2a+2", "2b+1/2", "-"]


def test_sc_53_r_frozen_the_move_that_freezes_the_board_ends_the_game_as_a_draw() -> None:
    after, kinds = _after(_sc53(), "2a+2")
    assert after.is_over and after.winner == DRAW
    assert kinds[-1] == "draw" and kinds.count("draw") == 1
    result = engine.outcome(after)
    assert result is not None and result.is_draw and result.seats == ()
    assert engine.legal_actions(after) == () and engine.chance_outcomes(after) == []
    # Not R-DEADLOCK: seat 3 still has waiting pieces that could capture.
    assert not engine.no_side_can_win(after)
    assert engine.is_frozen(after)


def test_sc_53_r_frozen_a_split_part_ends_the_game_before_the_second_part() -> None:
    after, kinds = _after(_sc53(), "2b+1/2")
    assert after.is_over and after.winner == DRAW and kinds[-1] == "draw"
    assert after.pos[8:12] == (81, 83, 0, 0)
    assert after.split_left == 0 and after.items == ()


def test_sc_53_r_frozen_after_decline_the_game_goes_on() -> None:
    after, kinds = _after(_sc53(), "-")
    assert not after.is_over and "draw" not in kinds
    # Square 1 is free: a grace can enter 2.c.
    assert not frozen.seat_stuck(after, 2)


def test_sc_53_r_frozen_continue_plays_on() -> None:
    state = _sc53(R + "+deadlock=continue")
    for text in ("2a+2", "2b+1/2"):
        after, kinds = _after(state, text)
        assert not after.is_over and "draw" not in kinds
        # The test still says so: it is the switch that differs.
        assert engine.is_frozen(after)


def test_sc_53_control_with_a_kill_credit_seat_2_can_finish_so_nothing_ends() -> None:
    # With a credit, 2.a on 83 can leave by a last-square exit (10, 25, 30).
    state = _sc53(kills="4,1,1,0")
    for text in ("2a+2", "2b+1/2"):
        after, kinds = _after(state, text)
        assert not after.is_over and "draw" not in kinds


def test_sc_53_control_with_stacking_square_1_can_always_be_entered() -> None:
    after, kinds = _after(_sc53("wikipedia-full"), "2a+2")
    assert not after.is_over and "draw" not in kinds


def test_sc_53_control_seat_3_able_to_move_keeps_the_game_going() -> None:
    state = _sc53(pieces="84,84,84,84/84,84,84,84/81,82,0,0/80,82,0,0")
    for text in ("2a+2", "2b+1/2"):
        after, kinds = _after(state, text)
        assert not after.is_over and "draw" not in kinds
        assert frozen.seat_stuck(after, 2) and not frozen.seat_stuck(after, 3)


def test_sc_53_control_a_pyada_that_could_move_2a_keeps_the_split_going() -> None:
    # With pyada_condition=always a 10, 25 or 30 earns a pyada, and 2.a on 81 could take it.
    state = _sc53(R + "+pyada_condition=always")
    after, kinds = _after(state, "2b+1/2")
    assert not after.is_over and "draw" not in kinds
    assert after.split_left == 1
    after, kinds = _after(state, "2a+2")
    assert after.is_over and kinds[-1] == "draw"


# --------------------------------------------------------------------------- the test


def test_r_frozen_reader_refuses_a_frozen_game_going_on() -> None:
    text = f"{FROZEN_BOARD} t3 84761 flags=1 entered=0,1,2,3 kills=4,1,0,0 {R}"
    with pytest.raises(ValueError, match="R-FROZEN"):
        read_position(text)
    # The same board is a valid finished, drawn game, and no other result is.
    drawn = f"{FROZEN_BOARD} x3 84761 winner=draw entered=0,1,2,3 kills=4,1,0,0 {R}"
    assert read_position(drawn).winner == DRAW
    assert read_position(text + "+deadlock=continue").stage is Stage.THROW


def test_r_frozen_reader_refuses_a_draw_on_a_board_that_can_still_move() -> None:
    with pytest.raises(ValueError, match="R-FROZEN"):
        read_position(
            "84,84,84,84/84,84,84,84/80,82,0,0/83,82,0,0 x3 84761 winner=draw "
            f"entered=0,1,2,3 kills=4,1,0,0 {R}"
        )


def test_r_frozen_draw_round_trips_through_position_and_record() -> None:
    start = _sc53()
    game = Game(start.ruleset, state=start)
    game.push(Action.parse("2a+2"))
    text = write_position(game.state)
    assert "winner=draw" in text and read_position(text) == game.state
    record = record_from_game(game, {})
    assert record.tags["Result"] == "draw"
    again = read_record(write_game_record(record))
    assert again.tags["Result"] == "draw"


def test_r_frozen_a_record_claiming_a_frozen_draw_that_did_not_happen_is_refused() -> None:
    start = write_position(_sc53())
    text = f'[Ruleset "{R}"]\n[Start "{start}"]\n[Result "draw"]\n\n-'
    with pytest.raises(ValueError, match="draw"):
        read_record(text)


def test_r_frozen_is_checked_after_a_throw_too() -> None:
    # A state built by hand (the reader would refuse it), with a throw due: the throw
    # itself ends the game.
    r = parse_ruleset(R)
    pos = (84,) * 8 + (83, 82, 0, 0, 83, 82, 0, 0)
    state = State(r, pos, Stage.THROW, 3, 9, entered=0b1111, kills=(4, 1, 0, 0), phase_flags=1)
    after, events = engine.apply_chance(state, 2)
    assert after.is_over and after.winner == DRAW and events[-1].kind == "draw"


def test_r_frozen_not_during_the_throw_off() -> None:
    state = engine.new_game(parse_ruleset(R))
    assert state.stage is Stage.THROW_OFF and not engine.is_frozen(state)


def test_r_frozen_a_finished_seat_is_not_asked_under_skip() -> None:
    # Seats 0 and 1 are home and take no turns; only seats 2 and 3 count.
    state = read_position(f"{FROZEN_BOARD} x3 9 winner=draw entered=0,1,2,3 kills=4,1,0,0 {R}")
    assert frozen.seat_stuck(state, 2) and frozen.seat_stuck(state, 3)
    assert engine.is_frozen(state)


def test_r_frozen_the_pyada_a_throw_would_earn_counts() -> None:
    # Immediate mode with a free pyada earned by every 10 and 25 (condition always):
    # seat 2's only move is one step for 2.b, which only the pyada gives.
    rules = "classic+stacking=none+kill_before_home=seat+pyada=true+pyada_condition=always"
    board = "84,84,84,84/84,84,84,84/83,81,0,0/83,82,0,0"
    state = read_position(f"{board} t2 9 entered=0,1,2,3 kills=4,1,0,0 {rules}")
    assert not frozen.seat_stuck(state, 2) and frozen.seat_stuck(state, 3)
    without = rules.replace("+pyada=true+pyada_condition=always", "")
    with pytest.raises(ValueError, match="R-FROZEN"):
        read_position(f"{board} t2 9 entered=0,1,2,3 kills=4,1,0,0 {without}")


def test_r_frozen_needs_no_kill_before_home() -> None:
    # Nothing but stacking: square 1 barred by each seat's own piece on p = 83, every other
    # piece waiting, no way off p = 83 (no exit values, no 1): no piece can ever move.
    rules = "classic+stacking=none+last_square_exit=none"
    board = "84,84,84,84/84,84,84,84/83,0,0,0/83,0,0,0"
    with pytest.raises(ValueError, match="R-FROZEN"):
        read_position(f"{board} t2 9 entered=0,1,2,3 {rules}")
    drawn = read_position(f"{board} x2 9 winner=draw entered=0,1,2,3 {rules}")
    assert engine.outcome(drawn) is not None


def _random_states(rules: str, games: int, seed: int) -> list[State]:
    """Every state of some seeded random games (with draws switched off, so that frozen
    positions are reached and played on)."""
    r = parse_ruleset(rules)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = engine.new_game(r)
        for _ in range(3000):
            if state.is_over:
                break
            out.append(state)
            if engine.current_player(state) == CHANCE:
                state = engine.apply_chance(state, cowries.throw(rng, r.cowries, r.p_mouth_up))[0]
            else:
                actions = engine.legal_actions(state)
                state = engine.apply_action(state, rng.choice(actions))[0]
    return out


@pytest.mark.parametrize(
    "rules",
    [
        "wikipedia-full+stacking=none+deadlock=continue",
        "classic+stacking=none+kill_before_home=seat+deadlock=continue",
        "herklots-6+stacking=castles_only+deadlock=continue",
    ],
)
def test_r_frozen_the_quick_test_agrees_with_the_exact_one(rules: str) -> None:
    """The cheap proof that a seat can move never says so of a stuck seat."""
    for state in _random_states(rules, 3, 7)[::7]:
        if state.stage is Stage.THROW_OFF:
            continue
        for seat in range(4):
            assert frozen.seat_stuck(state, seat) == frozen._stuck(state, seat), (
                write_position(state),
                seat,
            )


def test_r_frozen_a_frozen_board_never_changes_again() -> None:
    """The test is exact: once it holds, no throw sequence ever gives a legal move."""
    rules = "wikipedia-full+stacking=none+deadlock=continue"
    states = [s for s in _random_states(rules, 4, 3) if engine.is_frozen(s)]
    assert states, "the random games reach frozen positions"
    rng = random.Random(1)
    r = states[0].ruleset
    for start in states[:: max(1, len(states) // 5)]:
        state = start
        for _ in range(400):
            if engine.current_player(state) == CHANCE:
                state = engine.apply_chance(state, cowries.throw(rng, r.cowries, r.p_mouth_up))[0]
            else:
                actions = engine.legal_actions(state)
                assert all(a.kind is ActionKind.DECLINE for a in actions)
                state = engine.apply_action(state, actions[0])[0]
            assert state.pos == start.pos


# --------------------------------------------------------------------------- C.10b


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        (
            "0,0,0,0/0,0,0,0/84,84,84,83/0,0,0,0 s2 254 pyadas=1 items=25 flags=3 "
            "entered=0,1,2,3 kills=1,0,1,1 wikipedia-full",
            "2d#25",
            "2d+p",
        ),
        (
            "84,84,84,83/0,0,0,0/0,0,0,0/0,0,0,0 s0 190 items=10,25 flags=3 "
            "entered=0,1,2,3 kills=1,2,0,0 wikipedia-full",
            "0d#25",
            "0d#10",
        ),
    ],
)
def test_c10b_one_outcome_one_action(text: str, kept: str, dropped: str) -> None:
    state = read_position(text)
    listed = [str(a) for a in engine.legal_actions(state)]
    assert listed == [kept, "-"]
    # Both are legal uses; they finish the seat's last piece, so the leftovers lapse and
    # the resulting states are equal: the first in the canonical order is offered.
    raw = [str(a) for a in _legal.legal_actions(state)]
    assert raw.index(kept) < raw.index(dropped)
    after_kept = engine._apply(state, Action.parse(kept))[0]
    after_dropped = engine._apply(state, Action.parse(dropped))[0]
    assert after_kept == after_dropped
    with pytest.raises(ValueError, match="not legal"):
        engine.apply_action(state, Action.parse(dropped))


def test_c10b_actions_that_leave_items_apart_are_both_offered() -> None:
    # Not the seat's last piece: after either exit the turn goes on with different items.
    state = read_position(
        "84,84,83,83/0,0,0,0/0,0,0,0/0,0,0,0 s0 190 items=10,25 flags=3 "
        "entered=0,1,2,3 kills=1,2,0,0 wikipedia-full"
    )
    assert [str(a) for a in engine.legal_actions(state)] == ["0c#25", "0c#10", "-"]


@pytest.mark.parametrize("rules", ["wikipedia-full", "herklots-7", "wikipedia-full+stacking=none"])
def test_c10b_no_two_offered_actions_have_the_same_resulting_state(rules: str) -> None:
    for state in _random_states(rules + "+deadlock=continue", 3, 11):
        if state.stage is not Stage.SPEND:
            continue
        offered = engine.legal_actions(state)
        results = [engine._apply(state, a)[0] for a in offered]
        assert len(set(results)) == len(results), write_position(state)
        dropped = set(_legal.legal_actions(state)) - set(offered)
        for a in dropped:
            assert engine._apply(state, a)[0] in results
