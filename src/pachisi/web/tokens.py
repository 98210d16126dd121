"""Seat tokens: the secret that holds a human seat, with no accounts.

A token is made once, shown once (in the seat's link), and stored only as its SHA-256 hash,
so a copy of the database holds no usable token. A presented token is hashed and compared
in constant time.

>>> token = new_token()
>>> holds(token_hash(token), token), holds(token_hash(token), token + "x")
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

__all__ = ["MAX_TOKEN_LENGTH", "holds", "new_token", "token_hash"]

MAX_TOKEN_LENGTH: Final = 128
"""Longer texts are not tokens (ours have 32 characters) and are not even hashed."""


def new_token() -> str:
    """A fresh secret token: 24 random bytes, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """The stored form of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def holds(stored_hash: str | None, token: str) -> bool:
    """Whether ``token`` is the token whose hash is ``stored_hash`` (constant time)."""
    if stored_hash is None or not 0 < len(token) <= MAX_TOKEN_LENGTH:
        return False
    return hmac.compare_digest(stored_hash, token_hash(token))
