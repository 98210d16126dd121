"""Fuzz tests (issue 5, item 8): mutated position strings and records are either refused with
the library's own error or read as something consistent; never another exception, never a
hang, never an error message that quotes a whole huge token.

The texts start from real positions and records of every named ruleset and are mutated with
the characters that have broken readers before: other scripts' digits, Unicode blanks and
line separators, byte-order marks, huge numbers, the format's own punctuation, truncation
and changed line breaks.
"""

from __future__ import annotations

import contextlib
import functools
import signal
from collections.abc import Iterator
from types import FrameType

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pachisi.notation import (
    MAX_PROBLEMS,
    NotationError,
    RecordError,
    read_game,
    read_position,
    read_record,
    record_from_game,
    replay,
    write_position,
    write_record,
)
from pachisi.rules.ruleset import NAMED
from tests.notation.helpers import SEATS, VARIANTS, game_of, play

RULESETS = (*sorted(NAMED), *VARIANTS)
HUGE = "9" * 5000

COMMON = [
    # Digits that are not ASCII, and what int() forgives.
    "٣", "३", "３", "𝟛", "߃", "_", "½",
    # Blanks and line breaks, wanted and unwanted.
    " ", "\t", "\n", "\r\n", "\r", "\u2028", "\u2029", "\x85", "\xa0", "\x0b", "\x0c", "\ufeff",
    # Numbers, small, at the edges and huge.
    "0", "1", "3", "7", "84", "85", "999", "1000", "99999999999999999999", HUGE,
]  # fmt: skip
POSITION_BITS = [
    ",", "/", "=", ":", "x", "@", "?", "-", "+", "a", "t", "o", "s", "p",
    "k=", "again=true", "captured=true", "pyadas=", "items=", "run=", "split=", "flags=",
    "throwoff=", "winner=draw", "entered=", "kills=", "laps=0a", "order=", "records=",
    "classic", "ludii", "+pyada=true",
]  # fmt: skip
RECORD_BITS = [
    "{", "}", ";", "[", "]", '"', "\\", "t", "t3", "t9", "t" + HUGE, "0a*3", "0a+1000", "1a+4",
    "-", "*", "team0", "draw", "12.", "3...", '[Result "*"]', '[Start "', '[Ruleset "ludii"]',
    "\n\n", "{" + "x" * 3000,
]  # fmt: skip

FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@contextlib.contextmanager
def within(seconds: float) -> Iterator[None]:
    """Fail, rather than hang, if the body takes longer than ``seconds``."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@st.composite
def mutated(draw: st.DrawFn, sources: tuple[str, ...], bits: list[str]) -> str:
    """One of ``sources`` after one to four insertions, deletions, replacements, cuts or
    changes of line breaks."""
    text = draw(st.sampled_from(sources))
    piece = st.one_of(st.sampled_from(COMMON + bits), st.text(max_size=3))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "cut", "breaks", "bom"]))
        at = draw(st.integers(0, len(text)))
        if op == "insert":
            text = text[:at] + draw(piece) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        elif op == "replace":
            new = draw(piece)
            text = text[:at] + new + text[at + len(new) :]
        elif op == "cut":
            text = text[:at]
        elif op == "breaks":
            text = text.replace("\n", draw(st.sampled_from(["\r\n", "\r", "\u2028", "\n\n", ""])))
        else:
            text = "\ufeff" + text
    return text


# =========================================================================== positions


@functools.cache
def sample_positions() -> tuple[str, ...]:
    """Positions from one game of every named ruleset and variant, every field included."""
    texts: list[str] = []
    for ruleset in RULESETS:
        states, _ = play(ruleset, 1)
        step = max(1, len(states) // 25)
        texts += [write_position(s) for s in states[::step]]
    return tuple(texts)


@settings(FUZZ, max_examples=500)
@given(data=st.data())
def test_read_position_mutated_text_is_rejected_cleanly_or_round_trips(data: st.DataObject) -> None:
    text = data.draw(mutated(sample_positions(), POSITION_BITS))
    with within(5):
        try:
            state = read_position(text)
        except NotationError as exc:
            event("refused")
            assert 0 <= exc.column <= len(text) + 1, (exc.column, len(text))
            assert len(str(exc)) < 1000, str(exc)[:1000]
            return
        event("accepted")
        written = write_position(state)
        assert read_position(written) == state
        assert write_position(read_position(written)) == written


# =========================================================================== records


@functools.cache
def sample_records() -> tuple[str, ...]:
    """Records of the first moves of a game of every named ruleset and variant, some from a
    Start position, some with comments."""
    texts: list[str] = []
    for ruleset in RULESETS:
        states, moves = play(ruleset, 2)
        middle = len(moves) // 2
        texts.append(write_record(record_from_game(game_of(ruleset, moves[:40]), SEATS)))
        later = game_of(ruleset, moves[middle : middle + 30], start=states[middle])
        texts.append(write_record(record_from_game(later, {"Event": 'a "quoted" \\ tag'})))
    commented = texts[0].replace(" t", " {a comment\nover lines} t", 1).replace("\n", " ; x\n", 3)
    return (*texts, commented)


def assert_read_cleanly_or_consistent(text: str) -> None:
    """Refused with located, short problems, or a record whose replay is consistent."""
    with within(10):
        try:
            record = read_record(text)
        except RecordError as exc:
            event("refused")
            assert 1 <= len(exc.errors) <= MAX_PROBLEMS + 1
            for problem in exc.errors:
                assert problem.line >= 1 and problem.column >= 1, problem
                assert len(problem.message) < 1000, problem.message[:1000]
            return
        event("accepted")
        game = replay(record)
        assert read_game(text).state == game.state
        written = write_record(record)
        assert read_record(written) == record
        assert read_position(write_position(game.state)) == game.state


@settings(FUZZ, max_examples=250)
@given(data=st.data())
def test_read_record_mutated_text_is_rejected_cleanly_or_replays(data: st.DataObject) -> None:
    assert_read_cleanly_or_consistent(data.draw(mutated(sample_records(), RECORD_BITS)))


@settings(FUZZ, max_examples=150)
@given(
    text=st.text(
        alphabet=st.one_of(
            st.sampled_from('[]"{};.\n t0123456789abcdefgx+-*@#~/ Ruleset classic'),
            st.sampled_from(["\r", "\u2028", "\xa0", "\ufeff", "٣", "\x0b"]),
        ),
        max_size=80,
    )
)
def test_read_record_on_any_text_returns_or_raises_record_error(text: str) -> None:
    assert_read_cleanly_or_consistent(text)
