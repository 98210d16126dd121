"""Tests for the game record's text (pachisi.notation.writer and .reader): round trips,
layout, the forgiving reader's problems, and the edge cases of issue 5."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pachisi.ai.games import DEFAULT_MAX_STEPS
from pachisi.notation import (
    MAX_PROBLEMS,
    MAX_RECORD_LENGTH,
    GameRecord,
    RecordError,
    read_game_file,
    read_record,
    read_record_file,
    record_from_game,
    replay,
    write_record,
)
from pachisi.rules.actions import Action
from pachisi.rules.ruleset import NAMED
from tests.notation.helpers import (
    FRESH,
    GAMES,
    SEATS,
    VARIANTS,
    game_of,
    play,
    problems_and_messages,
    problems_of,
    short_id,
)


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


def test_write_record_of_an_illegal_record_still_writes_every_move() -> None:
    record = GameRecord({"Ruleset": "ludii"}, [3, Action.parse("0a*4"), 2])
    assert write_record(record).split("\n")[2] == "1. t3 0a*4 t2 *"


# =========================================================================== issue 5 edge cases

HEAD = '[Ruleset "ludii"]\n\n'
"""A record head; under ludii, t3 then 0a*3 is the first turn."""


@pytest.mark.parametrize("digit", ["٣", "३", "３", "𝟛"])
def test_only_ascii_digits_are_numbers_in_records(digit: str) -> None:
    for movetext, column in ((f"t{digit}", 1), (f"t3 0a*{digit}", 4), (f"{digit}. t3", 1)):
        [(line, col, message)] = problems_and_messages(HEAD + movetext + "\n")
        assert (line, col) == (3, column) and "unknown token" in message, message


@pytest.mark.parametrize("blank", ["\u2028", "\u2029", "\x85", "\xa0", "\x0b", "\x0c", "\u3000"])
def test_only_spaces_tabs_and_line_breaks_separate_tokens(blank: str) -> None:
    [(line, col, message)] = problems_and_messages(f"{HEAD}t3{blank}0a*3\n")
    assert (line, col) == (3, 3)
    assert message.startswith(f"U+{ord(blank):04X}") and "not allowed" in message
    # Anywhere in the text: in a tag line, a comment, after the result.
    for text, where in (
        (f'[Ruleset{blank}"ludii"]\n\nt3\n', (1, 9)),
        (f"{HEAD}t3 {{a{blank}b}} 0a*3 *\n", (3, 6)),
        (f"{HEAD}t3 0a*3 * ;{blank}\n", (3, 12)),
    ):
        assert problems_of(text) == [where], text
    assert read_record(f"{HEAD}t3\t0a*3\r\nt2\r1a*2\n*\n").moves == [
        3,
        Action.parse("0a*3"),
        2,
        Action.parse("1a*2"),
    ]


def test_write_record_refuses_a_tag_value_the_reader_would_refuse() -> None:
    with pytest.raises(RecordError, match="U\\+2028"):
        write_record(GameRecord({"Ruleset": "classic", "Event": "a\u2028b"}, []))


def test_a_byte_order_mark_at_the_start_is_skipped_like_crlf() -> None:
    record = read_record("\ufeff" + '[Ruleset "ludii"]\r\n\r\nt3 0a*3 *\r\n')
    assert record == GameRecord({"Ruleset": "ludii"}, [3, Action.parse("0a*3")])
    # Columns count as an editor shows them, from after the mark.
    assert problems_of('\ufeff[Ruleset "nope"]\n\nt3\n') == [(1, 11)]
    assert problems_of(f"\ufeff{HEAD}t3 0a*4\n") == [(3, 4)]
    # Elsewhere it is no blank: a token holding one is unknown.
    assert problems_of(f"{HEAD}t3 \ufeff0a*3\n") == [(3, 4)]


@pytest.mark.parametrize(
    ("movetext", "message"),
    [
        ("t99999999999999999999", "a throw of 6 cowries has t0..t6 mouths up"),
        ("t" + "9" * 5000, "a throw of 6 cowries has t0..t6 mouths up"),
        ("t7", "a throw of 6 cowries has t0..t6 mouths up"),
        ("t3 0a+1000", "unknown token '0a+1000'"),
        ("t3 0a*" + "9" * 5000, "unknown token '0a*999999999999999999999'... (5,003 characters)"),
        ("9" * 5000 + ". t3 0a*4", "0a*4 is not legal here"),
        (
            "t3 0a*3 * " + "x" * 5000,
            "'xxxxxxxxxxxxxxxxxxxxxxxx'... (5,000 characters) after the result",
        ),
    ],
    ids=short_id,
)
def test_big_numbers_and_long_tokens_give_a_clean_short_error(movetext: str, message: str) -> None:
    """Never a crash on int(), never the whole token in the message."""
    with pytest.raises(RecordError) as info:
        read_record(HEAD + movetext + "\n")
    [problem] = info.value.errors
    assert message in problem.message
    assert len(problem.message) < 200


@pytest.mark.parametrize(
    "text",
    [
        '[Ruleset "' + "x" * 100_000 + '"]\n\nt3\n',
        '[Result "' + "x" * 100_000 + '"]\n[Ruleset "ludii"]\n\nt3 0a*3\n',
        '[Ruleset "ludii"]\n[' + "K" * 100_000 + ' "x"]\n[' + "K" * 100_000 + ' "y"]\n\n*\n',
        '[Ruleset "ludii"]\n[Event "' + "x" * 100_000 + "\n\n*\n",
        '[Start "' + FRESH + " t0 1 " + "y" * 100_000 + '"]\n\nt3\n',
        '[Ruleset "classic"]\n[Start "' + FRESH + " t0 1 ludii+" + "q" * 1900 + '=1"]\n\nt3\n',
        HEAD + "x" * 1_000_000 + "\n",
    ],
    ids=short_id,
)
def test_errors_quote_only_an_excerpt_of_a_huge_token_or_tag(text: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(text)
    assert len(str(info.value)) < 2000, str(info.value)[:2000]


def test_reading_stops_after_max_problems() -> None:
    with pytest.raises(RecordError) as info:
        read_record(HEAD + "} " * 100_000 + "\n")
    errors = info.value.errors
    assert len(errors) == MAX_PROBLEMS + 1
    assert errors[-1].message == f"stopped reading here after {MAX_PROBLEMS} problems"
    with pytest.raises(RecordError) as info:
        read_record("[bad\n" * 100_000)
    assert len(info.value.errors) == MAX_PROBLEMS + 1


def test_a_record_over_the_size_limit_is_refused_at_once() -> None:
    text = HEAD + "t3 " * (MAX_RECORD_LENGTH // 3)
    assert len(text) > MAX_RECORD_LENGTH
    with pytest.raises(RecordError) as info:
        read_record(text)
    [problem] = info.value.errors
    assert (problem.line, problem.column) == (0, 0)
    assert f"{len(text):,}" in problem.message and f"{MAX_RECORD_LENGTH:,}" in problem.message


def test_the_size_limit_is_far_above_the_longest_simulated_game() -> None:
    """A game at the default step cap, every step as long as a move and a turn number."""
    longest_step = len("0a+999/999 ") + len("99999. ")
    assert DEFAULT_MAX_STEPS * longest_step <= MAX_RECORD_LENGTH / 5


def test_write_record_refuses_a_record_it_could_not_read_back() -> None:
    record = GameRecord({"Ruleset": "ludii", "Event": "x" * MAX_RECORD_LENGTH}, [])
    with pytest.raises(RecordError, match="limit"):
        write_record(record)


def test_read_record_file_checks_size_and_utf8(tmp_path: Path) -> None:
    good = tmp_path / "good.pgn"
    good.write_bytes(b'\xef\xbb\xbf[Ruleset "ludii"]\r\n\r\nt3 0a*3 *\r\n')
    assert read_record_file(good) == GameRecord({"Ruleset": "ludii"}, [3, Action.parse("0a*3")])
    assert read_game_file(good).state == replay(read_record_file(good)).state

    bad = tmp_path / "bad.pgn"
    bad.write_bytes(b'[Ruleset "ludii"]\n\nt3 0a*3 {caf\xe9}\n')
    with pytest.raises(RecordError) as info:
        read_record_file(bad)
    [problem] = info.value.errors
    assert (problem.line, problem.column, problem.message) == (3, 13, "not UTF-8 text (byte 0xe9)")

    big = tmp_path / "big.pgn"
    with big.open("wb") as f:
        f.truncate(MAX_RECORD_LENGTH + 1)  # sparse: no time or disk spent writing it
    with pytest.raises(RecordError) as info:
        read_game_file(big)
    assert f"{MAX_RECORD_LENGTH + 1:,} bytes" in info.value.errors[0].message
    with pytest.raises(FileNotFoundError):
        read_record_file(tmp_path / "missing.pgn")
