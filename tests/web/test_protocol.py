"""Client messages: exactly the fields of their type, each of exactly its type."""

from __future__ import annotations

import pytest

from pachisi.web.protocol import (
    MAX_MESSAGE_BYTES,
    Act,
    HintRequest,
    ProtocolError,
    Resync,
    Throw,
    parse_message,
)


def test_the_four_commands() -> None:
    assert parse_message('{"type": "throw", "seat": 3, "version": 0}') == Throw(3, 0)
    assert parse_message('{"action": "0a+4", "seat": 0, "type": "act", "version": 9}') == Act(
        0, 9, "0a+4"
    )
    assert parse_message('{"type": "resync"}') == Resync()
    assert parse_message('{"type": "hint", "seat": 1}') == HintRequest(1)


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        ('{"type": "throw", "seat": true, "version": 0}', "malformed", "seat"),
        ('{"type": "throw", "seat": "0", "version": 0}', "malformed", "seat"),
        ('{"type": "throw", "seat": 0.0, "version": 0}', "malformed", "seat"),
        ('{"type": "throw", "seat": 4, "version": 0}', "malformed", "seat"),
        ('{"type": "throw", "seat": 0, "version": -1}', "malformed", "version"),
        ('{"type": "throw", "seat": 0, "version": 1e3}', "malformed", "version"),
        ('{"type": "throw", "seat": 0, "version": NaN}', "malformed", "NaN"),
        ('{"type": "throw", "seat": 0}', "malformed", "needs 'version'"),
        ('{"type": "throw", "seat": 0, "version": 0, "k": 3}', "malformed", "unknown field 'k'"),
        ('{"type": "throw", "type": "throw", "seat": 0, "version": 0}', "malformed", "twice"),
        ('{"type": "act", "seat": 0, "version": 0, "action": 4}', "malformed", "action"),
        ('{"type": "act", "seat": 0, "version": 0, "action": ""}', "malformed", "action"),
        (
            '{"type": "act", "seat": 0, "version": 0, "action": "' + "a" * 33 + '"}',
            "malformed",
            "action",
        ),
        ('{"type": "dance"}', "malformed", "type"),
        ('{"seat": 0}', "malformed", "type"),
        ("[1, 2]", "malformed", "object"),
        ("throw", "malformed", "JSON"),
        ("", "malformed", "JSON"),
        ("[" * 5000, "too_large", "bytes"),
        ("[" * 4000 + "]" * 4000 + "", "too_large", "bytes"),
        ("[" * 2000 + "]" * 2000, "malformed", "JSON|object"),
        (b'{"type": "resync"}', "malformed", "binary"),
        (b"x" * (MAX_MESSAGE_BYTES + 1), "too_large", "limit"),
        (None, "malformed", "text frames"),
    ],
    ids=lambda value: repr(value)[:30] if isinstance(value, str | bytes) else None,
)
def test_anything_else_is_refused_with_its_code(
    data: str | bytes | None, code: str, words: str
) -> None:
    with pytest.raises(ProtocolError, match=words) as raised:
        parse_message(data)
    assert raised.value.code == code


def test_the_size_limit_counts_bytes_not_characters() -> None:
    text = '{"type": "resync", "x": "' + "é" * 2100 + '"}'  # under 4096 characters
    with pytest.raises(ProtocolError) as raised:
        parse_message(text)
    assert raised.value.code == "too_large"
