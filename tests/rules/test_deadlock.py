"""R-DEADLOCK: a game that no side can win any more ends as a draw (RULES.md C.9, SC-51)."""

from __future__ import annotations

import pytest

from pachisi.game import Game
from pachisi.notation import read_position, read_record, record_from_game, write_position
from pachisi.notation import write_record as write_game_record
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import parse_ruleset
from pachisi.rules.state import DRAW, Stage, State

KBH = parse_ruleset("classic+kill_before_home=seat")
NO_KILLS = (0, 0, 0, 0)


def _state(pos: list[int], kills: tuple[int, int, int, int] = NO_KILLS, rules: str = "") -> State:
    r = parse_ruleset(rules) if rules else KBH
    return State(r, tuple(pos), Stage.THROW, 1, entered=0b1111, kills=kills)


SC51 = "80,84,84,84/74,84,84,84/0,84,84,84/84,84,84,84 t1 40 entered=0,1,2,3 "


def test_sc_51_r_deadlock_the_move_that_blocks_every_side_ends_the_game_as_a_draw() -> None:
    state = read_position(SC51 + "classic+kill_before_home=seat")
    state, _ = engine.apply_chance(state, 3)
    assert [str(a) for a in engine.legal_actions(state)] == ["1a+3", "-"]
    after, events = engine.apply_action(state, Action.parse("1a+3"))
    # Team 0 is blocked (seat 0 has no capturer), and so is team 1 (seat 1 has none left;
    # seat 3 has finished): a draw, at once.
    assert after.is_over and after.winner == DRAW
    assert events[-1].kind == "draw"
    result = engine.outcome(after)
    assert result is not None and result.is_draw and result.winner is None
    assert result.seats == ()
    assert engine.current_player(after) == engine.TERMINAL
    assert engine.legal_actions(after) == () and engine.chance_outcomes(after) == []


def test_sc_51_after_decline_the_game_goes_on() -> None:
    state, _ = engine.apply_chance(read_position(SC51 + "classic+kill_before_home=seat"), 3)
    after, events = engine.apply_action(state, Action.parse("-"))
    # 1.a could still capture 2.a once 2.a enters.
    assert not after.is_over
    assert all(e.kind != "draw" for e in events)


def test_sc_51_r_deadlock_continue_plays_on() -> None:
    state = read_position(SC51 + "classic+kill_before_home=seat+deadlock=continue")
    state, _ = engine.apply_chance(state, 3)
    after, events = engine.apply_action(state, Action.parse("1a+3"))
    assert not after.is_over
    assert all(e.kind != "draw" for e in events)
    # The test still says so: it is the switch, not the analysis, that differs.
    assert engine.no_side_can_win(after)


def test_r_deadlock_drawn_game_round_trips_through_position_and_record() -> None:
    start = read_position(SC51 + "classic+kill_before_home=seat")
    game = Game(start.ruleset, state=start)
    game.push(3)
    game.push(Action.parse("1a+3"))
    text = write_position(game.state)
    assert "x2" in text and "winner=draw" in text
    assert read_position(text) == game.state
    record = record_from_game(game, {})
    assert record.tags["Result"] == "draw"
    written = write_game_record(record)
    assert written.rstrip().endswith("draw")
    again = read_record(written)
    assert again.tags["Result"] == "draw"


def test_r_deadlock_a_record_claiming_a_draw_that_did_not_happen_is_refused() -> None:
    start = SC51 + "classic+kill_before_home=seat"
    text = f'[Ruleset "classic+kill_before_home=seat"]\n[Start "{start}"]\n[Result "draw"]\n\nt3 -'
    with pytest.raises(ValueError, match="draw"):
        read_record(text)


def test_r_deadlock_draw_position_refused_where_no_draw_can_happen() -> None:
    with pytest.raises(ValueError, match="winner"):
        read_position(
            "84,84,84,84/0,0,0,0/84,84,84,84/0,0,0,0 x0 9 winner=draw entered=0,2 classic"
        )


# --------------------------------------------------------------------------- "blocked"


def test_r_deadlock_all_sides_stuck_in_home_columns_is_blocked() -> None:
    # Seat 0 home; seats 1-3 all on their last square with no kill credit.
    state = _state([84] * 4 + [83] * 12)
    assert [engine.is_blocked(state, s) for s in range(4)] == [False, True, True, True]
    assert engine.no_side_can_win(state)


def test_r_deadlock_a_kill_credit_unblocks_a_seat() -> None:
    state = _state([84] * 4 + [83] * 12, kills=(0, 1, 0, 1))
    assert not engine.is_blocked(state, 1) and not engine.no_side_can_win(state)


def test_r_deadlock_a_capturer_with_a_possible_victim_unblocks_a_seat() -> None:
    pos = [84] * 4 + [83] * 12
    pos[8] = 0  # seat 2 has a waiting piece (a capturer), and seat 1's... all on 83
    assert engine.is_blocked(_state(pos), 2), "a capturer but no possible victim"
    pos[4] = 75  # seat 1's a on p = 75: a possible victim for seat 2
    assert not engine.is_blocked(_state(pos), 2)
    pos[8] = 75  # a piece before p = 76 is a capturer too
    assert not engine.is_blocked(_state(pos), 2)
    pos[8] = 76  # from the column's end every move is private: no capturer any more
    assert engine.is_blocked(_state(pos), 2)


def test_r_deadlock_p76_is_a_possible_victim_only_under_inert_castles() -> None:
    pos = [0, 84, 84, 84] + [76, 84, 84, 84] + [84] * 8
    assert engine.is_blocked(_state(pos), 0)
    inert = "classic+kill_before_home=seat+castle_mode=inert"
    assert not engine.is_blocked(_state(pos, rules=inert), 0)


def test_r_deadlock_one_blocked_seat_blocks_its_team() -> None:
    pos = [10] * 4 + [83] * 4 + [10] * 4 + [30, 83, 83, 83]
    # Team 1 is blocked through seat 1, but team 0 can still capture 3.a and win.
    assert engine.is_blocked(_state(pos), 1) and not engine.is_blocked(_state(pos), 3)
    assert not engine.no_side_can_win(_state(pos))
    # A team is blocked as soon as one of its seats is: it needs all 8 pieces home.
    pos[:4] = [80] * 4
    assert engine.no_side_can_win(_state(pos))


def test_r_deadlock_kill_before_home_team_pools_credits_and_capturers() -> None:
    team = "classic+kill_before_home=team"
    pos = [80] * 4 + [83] * 4 + [10] * 4 + [20] * 4
    # Seat 0 has no capturer of its own, but its partner's pieces count under `team`.
    assert engine.is_blocked(_state(pos), 0)
    assert not engine.is_blocked(_state(pos, rules=team), 0)
    # And the partner's credit counts too.
    pos[8:12] = [83] * 4
    assert engine.is_blocked(_state(pos, rules=team), 0)
    assert not engine.is_blocked(_state(pos, kills=(0, 0, 1, 0), rules=team), 0)


def test_r_deadlock_individual_play_every_seat_is_a_side() -> None:
    rules = "classic+teams=individual+kill_before_home=seat"
    pos = [80] * 4 + [83] * 4 + [10] * 4 + [20] * 4
    state = _state(pos, rules=rules)
    assert engine.is_blocked(state, 0) and engine.is_blocked(state, 1)
    assert not engine.no_side_can_win(state)  # seats 2 and 3 can still capture each other
    pos[8:12] = [83] * 4
    pos[12:16] = [83] * 4
    assert engine.no_side_can_win(_state(pos, rules=rules))


def test_r_deadlock_a_finished_seat_is_never_blocked() -> None:
    state = _state([84] * 4 + [83] * 12)
    assert not engine.is_blocked(state, 0)


def test_r_deadlock_without_kill_before_home_no_seat_is_blocked() -> None:
    state = State(parse_ruleset("classic"), (83,) * 16, Stage.THROW, 0, entered=0b1111)
    assert not any(engine.is_blocked(state, s) for s in range(4))
    assert not engine.no_side_can_win(state)


def test_r_deadlock_is_checked_after_a_throw_too() -> None:
    # A position built by hand (the reader refuses it) that is already drawn: the next
    # throw ends it, because the rule is checked after every throw and every action.
    state = _state([84] * 4 + [83] * 12)
    after, events = engine.apply_chance(state, 3)
    assert after.winner == DRAW and events[-1].kind == "draw"
