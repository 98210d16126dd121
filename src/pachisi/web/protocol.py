"""The client's WebSocket messages, parsed and checked before anything else sees them.

A message is a JSON object of at most :data:`MAX_MESSAGE_BYTES` bytes with a ``type`` and
exactly the fields of that type, each of exactly its type (a seat is an integer 0..3, not
``true`` or ``"0"``). Anything else raises :class:`ProtocolError` with the code the client
is sent (docs/web.md): ``too_large`` or ``malformed``.

>>> parse_message('{"type": "throw", "seat": 0, "version": 3}')
Throw(seat=0, version=3)
>>> parse_message('{"type": "act", "seat": 0, "version": 3, "action": "0a+4", "x": 1}')
Traceback (most recent call last):
...
pachisi.web.protocol.ProtocolError: unknown field 'x' for type 'act'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "MAX_ACTION_LENGTH",
    "MAX_MESSAGE_BYTES",
    "MAX_VERSION",
    "Act",
    "Command",
    "HintRequest",
    "ProtocolError",
    "Resync",
    "Throw",
    "parse_message",
]

MAX_MESSAGE_BYTES: Final = 4096
"""The largest message a client may send; every real one is under 100 bytes."""
MAX_ACTION_LENGTH: Final = 32
"""The longest action text accepted (the longest real one, ``0abcd+999``, has 9)."""
MAX_VERSION: Final = 2**31 - 1
"""The largest version a client may name (a game never gets near it)."""


class ProtocolError(ValueError):
    """A message that is not one the protocol knows; ``code`` is the error code to send."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Throw:
    """Seat ``seat`` asks the server to throw for it, having seen ``version``."""

    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class Act:
    """Seat ``seat`` plays ``action`` (its text), having seen ``version``."""

    seat: int
    version: int
    action: str


@dataclass(frozen=True, slots=True)
class Resync:
    """The client wants a snapshot now."""


@dataclass(frozen=True, slots=True)
class HintRequest:
    """Seat ``seat`` asks which of its legal actions are best."""

    seat: int


Command = Throw | Act | Resync | HintRequest
"""Any message a client may send."""

_FIELDS: Final = {
    "throw": ("seat", "version"),
    "act": ("seat", "version", "action"),
    "resync": (),
    "hint": ("seat",),
}


def parse_message(data: str | bytes | None) -> Command:
    """The command in a text frame ``data``; :class:`ProtocolError` for anything else.

    ``bytes`` stands for a binary frame (refused: the protocol is JSON text), ``None`` for
    a frame with neither.
    """
    if not isinstance(data, str):
        if isinstance(data, bytes) and len(data) > MAX_MESSAGE_BYTES:
            raise ProtocolError("too_large", _too_large(len(data)))
        raise ProtocolError("malformed", "messages are JSON text frames, not binary ones")
    size = len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", _too_large(size))
    obj = _json_object(data)
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("malformed", f"'type' must be one of {', '.join(map(repr, _FIELDS))}")
    fields = _FIELDS[kind]
    for key in obj:
        if key != "type" and key not in fields:
            raise ProtocolError("malformed", f"unknown field {_shown(key)} for type {kind!r}")
    for key in fields:
        if key not in obj:
            raise ProtocolError("malformed", f"a {kind!r} message needs {key!r}")
    if kind == "resync":
        return Resync()
    seat = _integer(obj, "seat", 0, 3)
    if kind == "hint":
        return HintRequest(seat)
    version = _integer(obj, "version", 0, MAX_VERSION)
    if kind == "throw":
        return Throw(seat, version)
    action = obj["action"]
    if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION_LENGTH:
        raise ProtocolError(
            "malformed", f"'action' must be an action's text of 1..{MAX_ACTION_LENGTH} characters"
        )
    return Act(seat, version, action)


def _too_large(size: int) -> str:
    return f"a message of {size} bytes; the limit is {MAX_MESSAGE_BYTES}"


def _json_object(text: str) -> dict[str, Any]:
    try:
        obj = json.loads(text, object_pairs_hook=_no_repeats, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        # ValueError covers JSONDecodeError and the hooks' complaints.
        reason = str(exc) if isinstance(exc, ProtocolError) else "not valid JSON"
        raise ProtocolError("malformed", reason) from None
    if not isinstance(obj, dict):
        raise ProtocolError("malformed", "a message must be a JSON object")
    return obj


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise ProtocolError("malformed", "a field appears twice")
    return obj


def _no_constant(name: str) -> Any:
    raise ProtocolError("malformed", f"{name} is not a JSON number")


def _integer(obj: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = obj[key]
    # bool is an int in Python, but true is not a seat.
    if type(value) is not int or not lo <= value <= hi:
        raise ProtocolError("malformed", f"{key!r} must be an integer from {lo} to {hi}")
    return value


def _shown(key: str) -> str:
    return repr(key if len(key) <= 24 else key[:21] + "...")
