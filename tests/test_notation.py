"""Tests for the position string and the game record (pachisi.notation)."""

from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pachisi.game import Game
from pachisi.notation import (
    GameRecord,
    NotationError,
    RecordError,
    RecordProblem,
    read_position,
    read_record,
    record_from_game,
    replay,
    write_position,
    write_record,
)
from pachisi.rules import engine
from pachisi.rules.actions import Action
from pachisi.rules.board import square_name, square_of
from pachisi.rules.ruleset import NAMED, parse_ruleset
from pachisi.rules.state import CHANCE, CaptureRecord, Stage, State

MAX_STEPS = 3000
"""A cap on random games: some rulesets can reach positions no side can ever finish from
(e.g. wikipedia-full, every piece left waiting on its last square with no kill credit)."""

VARIANTS = (
    # Stage p and per-seat winners are only reachable outside the named rulesets.
    "classic+pyada=true+pyada_can_enter=true+teams=individual",
    # Second laps and capture records in immediate mode.
    "classic+extra_lap=true+blockade=true+kill_before_home=team+recapture_annul=true",
    # Stack order together with split throws, triple runs and partner throws.
    "classic+capture_scope=top_one+finished_seat=throw_for_partner+split_throw=split"
    "+triple_cancel=group",
)
ALL_RULESETS = (*NAMED, *VARIANTS)
STATE_FIELDS = tuple(name for name in State._fields if name != "memo")
FRESH = "0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0"
SEATS = {"Seat0": "random", "Seat1": "greedy", "Seat2": "random", "Seat3": "human"}

# A failing seed is reported as it is: a smaller seed is not a simpler game, so shrinking
# would only replay whole games for minutes.
GAMES = settings(
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow],
)


def play(ruleset: str, seed: int) -> tuple[list[State], list[Action | int]]:
    """A seeded random game: every state it passes through and every move made."""
    r = parse_ruleset(ruleset)
    rng = random.Random(seed)
    s = engine.new_game(r)
    states, moves = [s], []
    while not s.is_over and len(moves) < MAX_STEPS:
        move: Action | int
        if engine.current_player(s) == CHANCE:
            move = rng.getrandbits(r.cowries).bit_count()
            s, _ = engine.apply_chance(s, move)
        else:
            move = rng.choice(engine.legal_actions(s))
            s, _ = engine.apply_action(s, move)
        states.append(s)
        moves.append(move)
    return states, moves


def game_of(ruleset: str, moves: list[Action | int], start: State | None = None) -> Game:
    game = Game(parse_ruleset(ruleset), state=start)
    for move in moves:
        game.push(move)
    return game


def assert_position_round_trips(state: State) -> None:
    text = write_position(state)
    back = read_position(text)
    # Field by field, so a failure names the field (and bools stay bools, ints ints).
    for name in STATE_FIELDS:
        got, want = getattr(back, name), getattr(state, name)
        assert (type(got), got) == (type(want), want), f"{name} in {text}"
    assert back == state
    assert write_position(back) == text


def problems_of(text: str) -> list[tuple[int, int]]:
    with pytest.raises(RecordError) as info:
        read_record(text)
    return [(p.line, p.column) for p in info.value.errors]


# =========================================================================== positions


def test_fresh_game_position_is_short() -> None:
    assert write_position(engine.new_game(NAMED["classic"])) == f"{FRESH} o0 1 classic"
    assert write_position(engine.new_game(NAMED["ludii"])) == f"{FRESH} t0 1 ludii"
    r = parse_ruleset("wikipedia")
    assert write_position(engine.new_game(r)) == f"{FRESH} o0 1 wikipedia-full"


@settings(GAMES, max_examples=12)
@given(ruleset=st.sampled_from(sorted(NAMED)), seed=st.integers(0, 2**32 - 1))
def test_position_round_trip_every_ruleset(ruleset: str, seed: int) -> None:
    states, _ = play(ruleset, seed)
    for state in states:
        assert_position_round_trips(state)


def test_position_round_trip_fixed_games_reach_every_field() -> None:
    """One fixed game per ruleset: round trips, and together they set every field and stage.

    This guards the random tests above: if the sample stopped reaching a field, its round
    trip would go untested without anyone noticing.
    """
    seen: set[str] = set()
    defaults = State._field_defaults
    for ruleset in ALL_RULESETS:
        states, _ = play(ruleset, 0)
        for state in states:
            assert_position_round_trips(state)
            seen.add(state.stage.name)
            seen.update(
                n for n in STATE_FIELDS if n in defaults and getattr(state, n) != defaults[n]
            )
    wanted = {name for name in STATE_FIELDS if name in defaults} | {s.name for s in Stage}
    assert wanted - seen == set()


def test_position_round_trip_variant_rulesets_from_random_seeds() -> None:
    rng = random.Random(2024)
    for ruleset in VARIANTS:
        states, _ = play(ruleset, rng.randrange(2**32))
        for state in states:
            assert_position_round_trips(state)


def test_position_writes_every_optional_field_in_canonical_form() -> None:
    text = (
        "83,60,0,0/0,0,0,0/0,0,0,0/0,0,0,0 a0 9 k=5 again=true captured=true pyadas=1 "
        "run=1x2 split=3/4:b entered=0 kills=1,0,0,0 laps=0a "
        "classic+split_throw=split+triple_cancel=group+pyada=true+extra_lap=true"
    )
    state = read_position(text)
    assert (state.throw_k, state.again, state.captured, state.pyadas) == (5, True, True, 1)
    assert (state.run, state.split_left, state.split_value, state.split_used) == ((1, 2), 3, 4, 2)
    assert (state.entered, state.kills, state.laps) == (1, (1, 0, 0, 0), 1)
    assert write_position(state) == text


def test_position_records_and_throwoff_fields() -> None:
    rules = "classic+kill_before_home=seat+recapture_annul=true"
    board = "16,16,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 7"
    square = square_of(0, 16)
    text = f"{board} entered=0 kills=1,0,0,0 records=0ab@{square_name(square)}x13t6 {rules}"
    state = read_position(text)
    assert state.records == (CaptureRecord(0, 0b11, square, 0b1010, 6),)
    assert write_position(state) == text
    throwoff = read_position(f"{FRESH} o2 1 throwoff=25,-,?,- classic")
    assert throwoff.throwoff == (25, -2, -1, -2)


def test_read_position_accepts_extra_whitespace_and_any_key_order() -> None:
    text = f"  {FRESH}   a1  4 entered=0,1   k=3 classic  "
    state = read_position(text)
    assert write_position(state) == f"{FRESH} a1 4 k=3 entered=0,1 classic"


BAD_POSITIONS = [
    # (text, field, column)
    ("", "position", 1),
    (f"{FRESH} t0 classic", "position", 43),
    ("0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 classic", "pieces", 1),
    ("0,0,0,85/0,0,0,0/0,0,0,0/0,0,0,0 t0 1 classic", "pieces", 7),
    ("0,0,0,0/0,x,0,0/0,0,0,0/0,0,0,0 t0 1 classic", "pieces", 11),
    ("0,0,0,0/0,0,0,0/0,0,0,0 t0 1 classic", "pieces", 1),
    (f"{FRESH} t4 1 classic", "side", 34),
    (f"{FRESH} q0 1 classic", "side", 33),
    (f"{FRESH} t0 0 classic", "turn", 36),
    (f"{FRESH} t0 1 clasic", "ruleset", 38),
    (f"{FRESH} t0 1 k=3", "ruleset", 38),
    (f"{FRESH} a0 1 k=7 classic", "k", 40),
    (f"{FRESH} a0 1 classic", "k", 0),
    (f"{FRESH} t0 1 k=3 classic", "k", 40),
    (f"{FRESH} t0 1 colour=red classic", "colour", 38),
    (f"{FRESH} t0 1 entered=0 entered=1 classic", "entered", 48),
    (f"{FRESH} t0 1 entered=0,4 classic", "entered", 48),
    (f"{FRESH} t0 1 kills=1,2,3 classic", "kills", 44),
    (f"{FRESH} t0 1 again=yes classic", "again", 44),
    (f"{FRESH} t0 1 items=3 classic", "items", 44),
    (f"{FRESH} s0 1 items=11 wikipedia-full", "items", 44),
    (f"{FRESH} t0 1 run=1x4 wikipedia-full", "run", 44),
    (f"{FRESH} s0 1 split=5/4 wikipedia-full", "split", 44),
    (f"{FRESH} o1 1 throwoff=4,4,?,? classic", "throwoff", 47),
    (f"{FRESH} t1 2 throwoff=4,?,?,? classic", "throwoff", 47),
    (f"{FRESH} x0 9 classic", "winner", 0),
    (f"{FRESH} x0 9 winner=2 classic", "winner", 45),
    (f"{FRESH} t0 9 laps=0a classic+extra_lap=true", "laps", 43),
    ("16,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 entered=0 order=0a,1a ludii", "order", 58),
    ("16,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 entered=0 ludii", "order", 0),
    ("16,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 order=0a classic", "order", 45),
    (
        "16,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 records=0b@j8x1t1 "
        "classic+kill_before_home=seat+recapture_annul=true",
        "records",
        47,
    ),
    (
        "1,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 records=0a@j8x1t3 "
        "classic+kill_before_home=seat+recapture_annul=true",
        "records",
        46,
    ),
    (
        "1,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 t1 2 records=0a@j8x0t1 "
        "classic+kill_before_home=seat+recapture_annul=true",
        "records",
        46,
    ),
    (f"{FRESH} t0 1 records=0a@j8x1t1 classic", "records", 46),
    (f"{FRESH} t0 {'9' * 5000} classic", "turn", 36),
]


@pytest.mark.parametrize(("text", "field", "column"), BAD_POSITIONS)
def test_read_position_rejects_bad_input(text: str, field: str, column: int) -> None:
    with pytest.raises(NotationError) as info:
        read_position(text)
    assert (info.value.field, info.value.column) == (field, column), str(info.value)
    assert str(info.value).startswith(field)
    assert isinstance(info.value, ValueError)


def test_write_position_refuses_a_state_it_cannot_express() -> None:
    state = engine.new_game(NAMED["classic"])._replace(laps=1 << 20)
    with pytest.raises(NotationError, match="laps"):
        write_position(state)


@functools.cache
def sample_positions() -> tuple[str, ...]:
    """Positions with many optional fields, from a few games, to mutate."""
    texts: list[str] = []
    for ruleset in ("ludii", "wikipedia-full", VARIANTS[1]):
        states, _ = play(ruleset, 1)
        texts += [write_position(s) for s in states[::7]]
    return tuple(texts)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    cut=st.integers(0, 200),
    junk=st.text(alphabet="0123456789,/=:x@?-+abcdefghijklmnopqrstuvwxyz ", max_size=6),
)
def test_read_position_mutated_text_is_rejected_cleanly_or_round_trips(
    seed: int, cut: int, junk: str
) -> None:
    texts = sample_positions()
    text = texts[seed % len(texts)]
    at = cut % (len(text) + 1)
    mutated = text[:at] + junk + text[at + len(junk) // 2 :]
    try:
        state = read_position(mutated)
    except NotationError:
        return
    assert read_position(write_position(state)) == state


# =========================================================================== records


@settings(GAMES, max_examples=10)
@given(ruleset=st.sampled_from(sorted(NAMED)), seed=st.integers(0, 2**32 - 1))
def test_record_round_trip_every_ruleset(ruleset: str, seed: int) -> None:
    states, moves = play(ruleset, seed)
    game = game_of(ruleset, moves)
    tags = {**SEATS, "Seed": str(seed), "Date": "2025-01-31", "Event": 'club "night"'}
    record = record_from_game(game, tags)
    text = write_record(record)
    back = read_record(text)
    assert back == record
    assert back.moves == moves
    assert replay(back).state == states[-1]
    assert write_record(back) == text


def test_record_round_trip_variant_rulesets() -> None:
    for ruleset in VARIANTS:
        states, moves = play(ruleset, 11)
        record = record_from_game(game_of(ruleset, moves), SEATS)
        back = read_record(write_record(record))
        assert back == record
        assert replay(back).state == states[-1]


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


def test_record_result_is_star_for_unfinished_and_seat_for_individual() -> None:
    _, moves = play("classic", 5)
    unfinished = record_from_game(game_of("classic", moves[:40]), {})
    assert unfinished.tags["Result"] == "*"
    assert write_record(unfinished).rstrip().endswith(" *")
    ruleset = VARIANTS[0]
    _, moves = play(ruleset, 0)
    assert re.fullmatch(r"seat[0-3]", record_from_game(game_of(ruleset, moves), {}).tags["Result"])


def test_write_record_layout() -> None:
    _, moves = play("classic", 8)
    record = record_from_game(game_of("classic", moves), {"Date": "2025-01-31", **SEATS})
    record.tags["Seed"] = "8"
    lines = write_record(record).split("\n")
    blank = lines.index("")
    assert [line.split()[0] for line in lines[:blank]] == [
        "[Ruleset",
        "[Seat0",
        "[Seat1",
        "[Seat2",
        "[Seat3",
        "[Seed",
        "[Date",
        "[Result",
    ]
    body = lines[blank + 1 :]
    assert body[-1] == ""
    assert all(len(line) <= 80 for line in body)
    assert all(not re.search(r"\d+\.$", line) for line in body), "a turn number ends a line"
    tokens = " ".join(body).split()
    assert tokens[-1] == record.tags["Result"]
    assert "1." in tokens and tokens.index("1.") == 4, "throw-off throws come before turn 1"


def test_read_record_skips_comments_turn_numbers_and_aliases() -> None:
    text = (
        '[Ruleset "ludii"]\n'
        '[Result "*"]\n'
        "\n"
        "1. t3 {first piece out,\n"
        "  a comment over two lines} 0a*3 ; a rest-of-line comment\n"
        "2... t2 {} 1a*2 3. t2 2a*2 4. t2 3a*2 5. t2 pass *\n"
    )
    record = read_record(text)
    frees = [Action.parse(f"{seat}a*{k}") for seat, k in ((0, 3), (1, 2), (2, 2), (3, 2))]
    assert record.moves == [
        3,
        frees[0],
        2,
        frees[1],
        2,
        frees[2],
        2,
        frees[3],
        2,
        Action.parse("-"),
    ]
    assert record.tags == {"Ruleset": "ludii", "Result": "*"}


def test_read_record_reports_every_bad_line() -> None:
    text = (
        '[Ruleset "classic"]\n'  # 1
        '[Seat0 "human]\n'  # 2: unterminated value
        '[Result "team3"]\n'  # 3: not a result
        'Seat1 "x"]\n'  # 4: missing '['
        "\n"
        "t4 t1 t5 t3 1. t3 1a*3 2. t4 foo\n"  # 6: unknown token at column 30
        "3. t3 0a+3 t9 zz }\n"  # 7: t9 out of range, zz unknown, stray brace
    )
    assert problems_of(text) == [(2, 15), (3, 10), (4, 1), (6, 30), (7, 12), (7, 15), (7, 18)]


def test_read_record_stops_replay_at_first_illegal_move_but_keeps_syntax_errors() -> None:
    text = (
        '[Ruleset "ludii"]\n'
        "\n"
        "1. t3 0a*3 2. t2 1a*3 3. t4 2a+9\n"  # 1a*3 is illegal: the throw was 2
        "4. t5 bogus 0a+77\n"  # replay has stopped: only the bad token is reported
    )
    with pytest.raises(RecordError) as info:
        read_record(text)
    errors = info.value.errors
    assert [(e.line, e.column) for e in errors] == [(3, 18), (4, 7)]
    assert "1a*3 is not legal here (legal: 1a*2)" in errors[0].message
    assert "unknown token 'bogus'" in errors[1].message


def test_read_record_explains_a_throw_or_action_out_of_turn() -> None:
    errors = problems_and_messages('[Ruleset "ludii"]\n\nt3 t4\n')
    assert errors == [(3, 4, "t4: seat 0 must act, not throw (legal: 0a*3)")]
    errors = problems_and_messages('[Ruleset "ludii"]\n\n0a*3\n')
    assert errors == [(3, 1, "0a*3: a throw (t0..t6) is due, not an action")]


def problems_and_messages(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(RecordError) as info:
        read_record(text)
    return [(p.line, p.column, p.message) for p in info.value.errors]


def test_read_record_checks_the_result() -> None:
    _, moves = play("classic", 4)
    record = record_from_game(game_of("classic", moves), {})
    winner = record.tags["Result"]
    loser = "team1" if winner == "team0" else "team0"
    text = write_record(record)
    line = text.split("\n").index(f'[Result "{winner}"]') + 1

    wrong_tag = text.replace(f'[Result "{winner}"]', f'[Result "{loser}"]')
    wrong_tag = wrong_tag.rstrip().removesuffix(winner) + loser + "\n"
    messages = problems_and_messages(wrong_tag)
    assert messages == [(line, 10, f"Result is {loser} but the replayed game gives {winner}")]

    wrong_token = text.rstrip().removesuffix(winner) + loser + "\n"
    [(_, _, message)] = problems_and_messages(wrong_token)
    assert message == f"result token {loser} differs from the Result tag {winner}"

    unfinished = read_record('[Ruleset "classic"]\n\nt3 t2 *\n')
    assert unfinished.moves == [3, 2]
    assert problems_of('[Ruleset "classic"]\n[Result "team0"]\n\nt3 t2 *\n') == [(2, 10), (4, 7)]
    assert problems_of('[Ruleset "classic"]\n\nt3 * t2\n') == [(3, 6)]


def test_read_record_tag_problems() -> None:
    assert problems_of("\nt3\n") == [(1, 1)]  # no Ruleset
    assert problems_of('[Ruleset "nope"]\n\nt3\n') == [(1, 11)]
    assert problems_of('[Ruleset "classic"]\n[Ruleset "ludii"]\n\nt3\n') == [(2, 2)]
    start = f'[Ruleset "classic"]\n[Start "{FRESH} t9 1 classic"]\n\nt3\n'
    [(line, column, message)] = problems_and_messages(start)
    assert (line, column) == (2, 9 + len(FRESH) + 2)
    assert message.startswith("Start tag: side at column")
    mismatch = f'[Ruleset "ludii"]\n[Start "{FRESH} t0 1 classic"]\n\nt3\n'
    [(line, column, message)] = problems_and_messages(mismatch)
    assert (line, column) == (1, 11) and "differs from the Start position" in message
    assert problems_of('[Ruleset "classic"]\n\nt3 {never closed\nt2\n') == [(3, 4)]
    assert problems_of('[Ruleset "classic"]\n\nt3\n[Late "tag"]\n') == [(4, 1)]


def test_start_tag_alone_gives_the_ruleset() -> None:
    start = f"{FRESH} t2 5 entered=0 ludii"
    record = read_record(f'[Start "{start}"]\n\nt2 2a*2 *\n')
    game = replay(record)
    assert game.start == read_position(start)
    assert game.state.pos[8] == 14


def test_tag_values_escape_quotes_and_backslashes() -> None:
    record = GameRecord({"Ruleset": "classic", "Event": 'a "b" \\ c', "Result": "*"}, [])
    text = write_record(record)
    assert '[Event "a \\"b\\" \\\\ c"]' in text
    assert read_record(text) == record


def test_write_record_refuses_tags_it_cannot_write() -> None:
    with pytest.raises(RecordError):
        write_record(GameRecord({"Ruleset": "classic", "Bad key": "x"}, []))
    with pytest.raises(RecordError):
        write_record(GameRecord({"Ruleset": "classic", "Note": "two\nlines"}, []))


def test_replay_raises_record_error_naming_the_move() -> None:
    record = GameRecord({"Ruleset": "ludii"}, [3, Action.parse("0a*4")])
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.errors == [
        RecordProblem(0, 0, "move 2: 0a*4 is not legal here (legal: 0a*3)")
    ]
    with pytest.raises(RecordError):
        replay(GameRecord({}, []))


def test_write_record_of_an_illegal_record_still_writes_every_move() -> None:
    record = GameRecord({"Ruleset": "ludii"}, [3, Action.parse("0a*4"), 2])
    assert write_record(record).split("\n")[2] == "1. t3 0a*4 t2 *"


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet='[]"{};.\n t0123456789abcdefgx+-*@#~/ Ruleset classic', max_size=80))
def test_read_record_on_any_text_returns_or_raises_record_error(text: str) -> None:
    try:
        record = read_record(text)
    except RecordError as exc:
        assert exc.errors and all(p.line >= 1 and p.column >= 1 for p in exc.errors)
        return
    assert read_record(write_record(record)) == record
