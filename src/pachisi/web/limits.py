"""The building blocks of the server's limits (docs/web.md, "Limits"): token buckets, the
client's address behind trusted proxies, and counts of open connections.

Everything here runs on the event loop's one thread, so nothing takes a lock. Memory stays
bounded whatever clients do: a bucket keeps at most ``max_keys`` clients, a counter only
the keys that hold a connection now.

>>> bucket = TokenBucket(capacity=2, per_second=0.5)
>>> bucket.take("10.0.0.1", now=0.0), bucket.take("10.0.0.1", now=0.0)
(0.0, 0.0)
>>> wait = bucket.take("10.0.0.1", now=0.0)
>>> wait, retry_after_header(wait)
(2.0, '2')
>>> bucket.take("10.0.0.1", now=2.0)
0.0
>>> proxies = (ipaddress.ip_network("10.0.0.0/8"),)
>>> client_address("10.0.0.2", ["203.0.113.7, 10.0.0.3"], proxies)
'203.0.113.7'
>>> client_address("198.51.100.1", ["203.0.113.7"], proxies)
'198.51.100.1'
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Final

from pachisi.web.settings import Network

__all__ = [
    "UNKNOWN_CLIENT",
    "ConnectionCounter",
    "TokenBucket",
    "client_address",
    "forwarded_scheme",
    "retry_after_header",
]

UNKNOWN_CLIENT: Final = "unknown"
"""The client address of a request whose peer the server does not know."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class TokenBucket:
    """A token bucket per key (a client's address, a connection): ``capacity`` tokens at
    most, refilled at ``per_second``; each :meth:`take` spends one.

    A key seen for the first time starts with a full bucket. Past ``max_keys`` keys, the
    buckets that have refilled completely are dropped first (a full bucket is the same as
    a new one, so forgetting it changes nothing), then the least recently used; a pruning
    leaves a tenth of ``max_keys`` free, so that a flood of new keys costs little per key.
    """

    __slots__ = ("_buckets", "_low_water", "capacity", "max_keys", "per_second")

    def __init__(self, capacity: int, per_second: float, max_keys: int = 100_000) -> None:
        if capacity < 1:
            raise ValueError(f"a bucket holds at least one token, not {capacity}")
        if not per_second > 0 or not math.isfinite(per_second):
            raise ValueError(f"a bucket refills at a positive finite rate, not {per_second}")
        if max_keys < 1:
            raise ValueError(f"a bucket keeps at least one key, not {max_keys}")
        self.capacity: Final = capacity
        self.per_second: Final = per_second
        self.max_keys: Final = max_keys
        self._low_water = max_keys - max_keys // 10
        # key -> (tokens, when they were counted); the least recently used first.
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def __contains__(self, key: object) -> bool:
        return key in self._buckets

    def _tokens(self, key: str, now: float) -> float:
        tokens, stamp = self._buckets.get(key, (float(self.capacity), now))
        return min(float(self.capacity), tokens + max(0.0, now - stamp) * self.per_second)

    def tokens(self, key: str, now: float | None = None) -> float:
        """The tokens ``key`` has now (a fraction while one refills), without taking one."""
        return self._tokens(key, time.monotonic() if now is None else now)

    def take(self, key: str, now: float | None = None) -> float:
        """Take a token for ``key``: 0.0 if there was one, else the seconds until there is
        one (the caller refuses the request, with that as its Retry-After)."""
        now = time.monotonic() if now is None else now
        tokens = self._tokens(key, now)
        new = key not in self._buckets
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.per_second
        self._buckets[key] = (tokens, now)
        self._buckets.move_to_end(key)
        if new and len(self._buckets) > self.max_keys:
            self._prune(now)
        return wait

    def _prune(self, now: float) -> None:
        # The key just added has spent a token, so it is never full, and it is the most
        # recently used: it survives (the low water mark is at least one key).
        full = [key for key in self._buckets if self._tokens(key, now) >= self.capacity]
        for key in full:
            del self._buckets[key]
        while len(self._buckets) > self._low_water:
            self._buckets.popitem(last=False)


def retry_after_header(seconds: float) -> str:
    """A Retry-After value for a wait of ``seconds``: whole seconds, rounded up, at least 1.

    >>> retry_after_header(0.2), retry_after_header(2.0), retry_after_header(2.01)
    ('1', '2', '3')
    """
    if not math.isfinite(seconds):
        raise ValueError(f"a wait of {seconds} seconds has no Retry-After")
    return str(max(1, math.ceil(seconds)))


# --------------------------------------------------------------------------- addresses


def _parse_address(text: str) -> Address | None:
    """An address from a peer or an X-Forwarded-For entry; None if it is not one.

    Besides a bare address, ``[v6]``, ``[v6]:port`` and ``v4:port`` are taken (some
    proxies add the port); an IPv4-mapped IPv6 address is its IPv4 address.
    """
    text = text.strip()
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or (end + 1 < len(text) and not _is_port(text[end + 1 :])):
            return None
        text = text[1:end]
    elif text.count(":") == 1:
        text, port = text.split(":")
        if not _is_port(":" + port):
            return None
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _is_port(text: str) -> bool:
    return text.startswith(":") and text[1:].isascii() and text[1:].isdigit() and len(text) <= 6


def _trusted(address: Address | None, trusted: Sequence[Network]) -> bool:
    return address is not None and any(address in network for network in trusted)


def _entries(forwarded_for: Sequence[str]) -> Iterator[str]:
    """The X-Forwarded-For entries, right to left (the nearest hop first), empty ones
    skipped (HTTP lists may hold empty elements)."""
    for value in reversed(forwarded_for):
        for entry in reversed(value.split(",")):
            if entry.strip():
                yield entry


def client_address(
    peer: str | None, forwarded_for: Sequence[str], trusted: Sequence[Network]
) -> str:
    """The client's address, the key for its limits.

    ``peer`` is the connection's remote address, ``forwarded_for`` the values of the
    request's X-Forwarded-For headers in the order they came, ``trusted`` the proxies whose
    word is taken. A peer that is not a trusted proxy is the client, whatever it forwards.
    Behind trusted proxies the entries are walked from the right, past the trusted ones: the
    first other address is the client. An entry that is no address (``unknown``, an
    obfuscated name, garbage) ends the walk at the last trusted hop, since nothing to its
    left can be believed. Addresses come normalised (``2001:db8::1``, IPv4-mapped IPv6 as
    IPv4); a peer that is no IP address (a Unix socket's) is kept as it is.

    >>> client_address(None, [], ())
    'unknown'
    >>> client_address("::ffff:192.0.2.1", [], ())
    '192.0.2.1'
    """
    if peer is None:
        return UNKNOWN_CLIENT
    address = _parse_address(peer)
    if address is None:
        return peer
    if not _trusted(address, trusted):
        return str(address)
    hop = address
    for entry in _entries(forwarded_for):
        forwarded = _parse_address(entry)
        if forwarded is None:
            break
        if not _trusted(forwarded, trusted):
            return str(forwarded)
        hop = forwarded
    return str(hop)


def forwarded_scheme(
    peer: str | None, forwarded_proto: str | None, scheme: str, trusted: Sequence[Network]
) -> str:
    """``"https"`` or ``"http"``: how the client reached us.

    ``scheme`` is the connection's own (``http``, ``https``, ``ws`` or ``wss``);
    ``forwarded_proto`` the X-Forwarded-Proto header, believed only from a trusted proxy.
    Of a list (proxies behind proxies), the last value counts: the one our proxy set.

    >>> trusted = (ipaddress.ip_network("127.0.0.1"),)
    >>> forwarded_scheme("127.0.0.1", "https", "http", trusted)
    'https'
    >>> forwarded_scheme("192.0.2.1", "https", "http", trusted)
    'http'
    """
    own = "https" if scheme.lower() in ("https", "wss") else "http"
    if forwarded_proto is None or peer is None:
        return own
    if not _trusted(_parse_address(peer), trusted):
        return own
    told = forwarded_proto.split(",")[-1].strip().lower()
    return told if told in ("http", "https") else own


# --------------------------------------------------------------------------- connections


class ConnectionCounter:
    """Open connections per key, at most ``limit`` each; a key at none is forgotten, so
    memory follows the connections open now."""

    __slots__ = ("_counts", "limit")

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a key may hold at least one connection, not {limit}")
        self.limit: Final = limit
        self._counts: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._counts)

    def count(self, key: str) -> int:
        """The connections ``key`` holds now."""
        return self._counts.get(key, 0)

    def acquire(self, key: str) -> bool:
        """Count one more connection for ``key``, unless it holds ``limit`` already."""
        held = self._counts.get(key, 0)
        if held >= self.limit:
            return False
        self._counts[key] = held + 1
        return True

    def release(self, key: str) -> None:
        """Count one connection of ``key`` fewer (one that :meth:`acquire` let in)."""
        held = self._counts.get(key, 0)
        if held <= 0:
            raise ValueError(f"{key!r} holds no connection to release")
        if held == 1:
            del self._counts[key]
        else:
            self._counts[key] = held - 1
