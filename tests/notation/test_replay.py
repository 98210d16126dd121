"""Tests for replaying records into games (pachisi.notation.replay) and for the memory a
long record takes to read and replay (issue 5)."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest

from pachisi.game import Game
from pachisi.notation import (
    GameRecord,
    RecordError,
    RecordProblem,
    read_game,
    read_position,
    read_record,
    record_from_game,
    replay,
    write_position,
    write_record,
)
from pachisi.rules.actions import Action
from tests.notation.helpers import game_of, long_record, play


def test_record_from_game_fills_ruleset_result_and_start() -> None:
    states, moves = play("classic", 3)
    record = record_from_game(game_of("classic", moves), {"Start": "stale", "Seed": "3"})
    assert record.tags["Ruleset"] == "classic"
    assert record.tags["Result"] in ("team0", "team1")
    assert "Start" not in record.tags
    assert record.moves == moves

    middle = len(states) // 2
    game = game_of("classic", moves[middle:], start=states[middle])
    record = record_from_game(game, {})
    assert record.tags["Start"] == write_position(states[middle])
    back = read_record(write_record(record))
    assert back == record
    assert replay(back).state == states[-1]


def test_start_tag_alone_gives_the_ruleset() -> None:
    start = "15,0,0,0/14,0,0,0/0,0,0,0/0,0,0,0 t2 3 entered=0,1 order=0a,1a ludii"
    record = read_record(f'[Start "{start}"]\n\nt2 2a*2 *\n')
    game = replay(record)
    assert game.start == read_position(start)
    assert game.state.pos[8] == 14


def test_replay_raises_record_error_naming_the_move() -> None:
    record = GameRecord({"Ruleset": "ludii"}, [3, Action.parse("0a*4")])
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.errors == [
        RecordProblem(0, 0, "move 2: 0a*4 is not legal here (legal: 0a*3)")
    ]
    with pytest.raises(RecordError):
        replay(GameRecord({}, []))


# =========================================================================== records under load


def test_read_game_is_read_record_then_replay_in_one_pass() -> None:
    states, moves = play("wikipedia-full", 4)
    text = write_record(record_from_game(game_of("wikipedia-full", moves), {}))
    game = read_game(text)
    two_pass = replay(read_record(text))
    assert (game.start, game.state, game.moves) == (two_pass.start, two_pass.state, two_pass.moves)
    assert game.state == states[-1]
    for _ in range(len(moves) // 2):
        assert game.pop() == two_pass.pop()
        assert game.state == two_pass.state
    for text, problem in (
        ('[Ruleset "ludii"]\n\nt3 0a*4\n', (3, 4)),
        ('[Ruleset "nope"]\n\nt3\n', (1, 11)),
        ("\nt3\n", (1, 1)),
    ):
        with pytest.raises(RecordError) as info:
            read_game(text)
        assert [(p.line, p.column) for p in info.value.errors] == [problem]


def test_a_long_record_shares_one_object_per_distinct_action() -> None:
    record = read_record(long_record(5000))
    actions = [m for m in record.moves if isinstance(m, Action)]
    assert len({id(a) for a in actions}) == len(set(actions)) < len(actions) / 10


@pytest.mark.parametrize(
    "read",
    [lambda text: replay(read_record(text)), read_game],
    ids=["replay(read_record(text))", "read_game(text)"],
)
def test_reading_a_long_record_takes_memory_in_proportion_to_its_text(
    read: Callable[[str], Game],
) -> None:
    """Issue 5: a 5 MB record took 1.5 GB (290 times its text) to read and replay."""
    text = long_record(8000)
    tracemalloc.start()
    try:
        game = read(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(game.moves) >= 8000
    # About 25 times here, most of it the game's fixed window of recent states.
    assert peak < 60 * len(text), f"{peak / len(text):.0f} times the text"


def test_a_record_object_with_a_huge_throw_gives_a_record_error_not_a_crash() -> None:
    """Python will not write an int of 5,000 digits; the message must not try to."""
    record = GameRecord({"Ruleset": "classic"}, [10**5000])
    with pytest.raises(RecordError, match="move 1: t<a 16610-bit number>"):
        replay(record)
    assert "t<a 16610-bit number> *" in write_record(record)
    assert write_record(GameRecord({"Ruleset": "classic"}, [True])).endswith("\nt1 *\n")
