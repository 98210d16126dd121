"""The limits' building blocks (pachisi.web.limits): token buckets and their Retry-After,
bounded memory, the client's address behind proxies, and connection counts."""

from __future__ import annotations

import ipaddress
import time

import pytest

from pachisi.web.limits import (
    ConnectionCounter,
    TokenBucket,
    client_address,
    forwarded_scheme,
    retry_after_header,
)
from pachisi.web.settings import parse_networks

PROXIES = parse_networks(["10.0.0.0/8", "2001:db8:ffff::/48"])

# --------------------------------------------------------------------------- buckets


def test_a_new_key_has_a_full_bucket_then_waits_for_the_refill() -> None:
    bucket = TokenBucket(capacity=3, per_second=0.5)
    assert [bucket.take("a", now=100.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    # Empty: the next token comes in 1 / 0.5 seconds.
    assert bucket.take("a", now=100.0) == pytest.approx(2.0)
    assert bucket.take("a", now=101.0) == pytest.approx(1.0)
    assert bucket.take("a", now=101.5) == pytest.approx(0.5)
    assert bucket.take("a", now=102.0) == 0.0
    assert bucket.take("a", now=102.0) == pytest.approx(2.0)


def test_a_refused_take_spends_nothing() -> None:
    bucket = TokenBucket(capacity=1, per_second=1.0)
    assert bucket.take("a", now=0.0) == 0.0
    for now in (0.1, 0.2, 0.3):
        assert bucket.take("a", now=now) == pytest.approx(1.0 - now)
    assert bucket.take("a", now=1.0) == 0.0


def test_the_refill_stops_at_the_capacity() -> None:
    bucket = TokenBucket(capacity=2, per_second=10.0)
    bucket.take("a", now=0.0)
    assert bucket.tokens("a", now=1000.0) == 2.0
    assert [bucket.take("a", now=1000.0) for _ in range(2)] == [0.0, 0.0]
    assert bucket.take("a", now=1000.0) == pytest.approx(0.1)


def test_keys_have_buckets_of_their_own() -> None:
    bucket = TokenBucket(capacity=1, per_second=1 / 60)
    assert bucket.take("a", now=0.0) == 0.0
    assert bucket.take("a", now=0.0) == pytest.approx(60.0)
    assert bucket.take("b", now=0.0) == 0.0


def test_the_clock_is_monotonic_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([50.0, 50.0, 51.0])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    bucket = TokenBucket(capacity=1, per_second=1.0)
    assert bucket.take("a") == 0.0
    assert bucket.take("a") == pytest.approx(1.0)
    assert bucket.take("a") == 0.0


@pytest.mark.parametrize(
    ("seconds", "header"),
    [(0.0, "1"), (0.001, "1"), (0.999, "1"), (1.0, "1"), (1.0001, "2"), (30.0, "30"), (59.5, "60")],
)
def test_retry_after_is_whole_seconds_rounded_up(seconds: float, header: str) -> None:
    assert retry_after_header(seconds) == header


def test_retry_after_refuses_an_endless_wait() -> None:
    with pytest.raises(ValueError, match="no Retry-After"):
        retry_after_header(float("inf"))


@pytest.mark.parametrize(
    ("capacity", "per_second", "max_keys"),
    [(0, 1.0, 10), (1, 0.0, 10), (1, -1.0, 10), (1, float("nan"), 10), (1, 1.0, 0)],
)
def test_a_bucket_of_no_use_is_refused(capacity: int, per_second: float, max_keys: int) -> None:
    with pytest.raises(ValueError):
        TokenBucket(capacity, per_second, max_keys)


def test_past_max_keys_the_full_buckets_go_first() -> None:
    bucket = TokenBucket(capacity=2, per_second=1.0, max_keys=3)
    bucket.take("old-busy", now=0.0)
    bucket.take("old-busy", now=0.0)  # empty, and the least recently used
    bucket.take("idle", now=0.0)  # full again by t=1
    bucket.take("busy", now=1.0)
    bucket.take("busy", now=1.0)
    bucket.take("new", now=1.0)
    assert len(bucket) == 3
    assert "idle" not in bucket
    assert all(key in bucket for key in ("old-busy", "busy", "new"))
    # What the dropped key had changes nothing: it comes back with a full bucket.
    assert bucket.tokens("idle", now=1.0) == 2.0
    # The kept ones keep their state: old-busy has refilled one token by t=1, not two.
    assert bucket.tokens("old-busy", now=1.0) == pytest.approx(1.0)


def test_past_max_keys_without_full_buckets_the_least_recently_used_go() -> None:
    bucket = TokenBucket(capacity=5, per_second=0.001, max_keys=3)
    for key in ("a", "b", "c"):
        bucket.take(key, now=0.0)
    bucket.take("a", now=1.0)  # a is used again: b is now the least recently used
    bucket.take("d", now=2.0)
    assert sorted(key for key in "abcd" if key in bucket) == ["a", "c", "d"]
    # A refused take counts as a use too.
    tight = TokenBucket(capacity=1, per_second=0.001, max_keys=2)
    tight.take("x", now=0.0)
    tight.take("y", now=0.0)
    assert tight.take("x", now=1.0) > 0
    tight.take("z", now=2.0)
    assert sorted(key for key in "xyz" if key in tight) == ["x", "z"]


def test_a_flood_of_keys_keeps_memory_bounded() -> None:
    bucket = TokenBucket(capacity=3, per_second=0.001, max_keys=1000)
    for i in range(20_000):
        assert bucket.take(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}", now=float(i)) == 0.0
        assert len(bucket) <= 1000
    assert len(bucket) >= 900
    assert "10.0.78.31" in bucket  # the last one is kept


def test_a_pruning_leaves_a_tenth_free() -> None:
    # So that in a flood of new keys not every one of them scans all the others.
    bucket = TokenBucket(capacity=3, per_second=0.001, max_keys=1000)
    for i in range(1000):
        bucket.take(str(i), now=0.0)
    assert len(bucket) == 1000
    bucket.take("one more", now=0.0)
    assert len(bucket) == 900
    assert "one more" in bucket and "100" not in bucket and "101" in bucket


# --------------------------------------------------------------------------- addresses


def test_no_peer_is_unknown() -> None:
    assert client_address(None, ["203.0.113.7"], PROXIES) == "unknown"


@pytest.mark.parametrize(
    ("peer", "expected"),
    [
        ("192.0.2.1", "192.0.2.1"),
        ("2001:DB8:0:0::1", "2001:db8::1"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("::FFFF:c000:0201", "192.0.2.1"),
        ("testclient", "testclient"),  # not an IP address (a Unix socket's peer): as it is
    ],
)
def test_a_direct_peer_is_the_client_normalised(peer: str, expected: str) -> None:
    assert client_address(peer, [], ()) == expected
    assert client_address(peer, [], PROXIES) == expected


def test_an_untrusted_peer_cannot_forward() -> None:
    assert client_address("192.0.2.1", ["203.0.113.7"], PROXIES) == "192.0.2.1"
    assert client_address("192.0.2.1", ["203.0.113.7"], ()) == "192.0.2.1"


def test_a_trusted_proxy_names_the_client() -> None:
    assert client_address("10.0.0.1", ["203.0.113.7"], PROXIES) == "203.0.113.7"


def test_a_trusted_proxy_with_nothing_to_forward_is_the_client() -> None:
    assert client_address("10.0.0.1", [], PROXIES) == "10.0.0.1"
    assert client_address("10.0.0.1", [""], PROXIES) == "10.0.0.1"
    assert client_address("10.0.0.1", [" , "], PROXIES) == "10.0.0.1"


def test_the_walk_goes_right_to_left_past_trusted_proxies() -> None:
    # The client forged the first entry; our proxies 10.1.1.1 and 10.2.2.2 added the rest.
    chain = ["1.1.1.1, 203.0.113.7, 10.1.1.1", "10.2.2.2"]
    assert client_address("10.0.0.1", chain, PROXIES) == "203.0.113.7"
    # In one header or several, the same list.
    assert client_address("10.0.0.1", [", ".join(chain)], PROXIES) == "203.0.113.7"
    assert (
        client_address("10.0.0.1", ["1.1.1.1", "203.0.113.7", "10.1.1.1, 10.2.2.2"], PROXIES)
        == "203.0.113.7"
    )


def test_the_order_of_several_headers_counts() -> None:
    assert client_address("10.0.0.1", ["198.51.100.1", "203.0.113.7"], PROXIES) == "203.0.113.7"
    assert client_address("10.0.0.1", ["203.0.113.7", "198.51.100.1"], PROXIES) == "198.51.100.1"


def test_a_chain_of_trusted_proxies_only_ends_at_the_farthest() -> None:
    assert client_address("10.0.0.1", ["10.3.3.3, 10.2.2.2"], PROXIES) == "10.3.3.3"


@pytest.mark.parametrize(
    ("chain", "expected"),
    [
        (["203.0.113.7, unknown, 10.2.2.2"], "10.2.2.2"),
        (["203.0.113.7, garbage"], "10.0.0.1"),
        (["203.0.113.7, _hidden"], "10.0.0.1"),
        (["203.0.113.7, 999.1.1.1, 10.2.2.2"], "10.2.2.2"),
        (["203.0.113.7, 10.0.0.0/8"], "10.0.0.1"),
        (["203.0.113.7, 1.2.3.4:port"], "10.0.0.1"),
        (["203.0.113.7, [::1"], "10.0.0.1"),
    ],
)
def test_a_malformed_entry_stops_the_walk_at_the_last_trusted_hop(
    chain: list[str], expected: str
) -> None:
    assert client_address("10.0.0.1", chain, PROXIES) == expected


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("2001:DB8::7", "2001:db8::7"),
        ("[2001:db8::7]", "2001:db8::7"),
        ("[2001:db8::7]:4711", "2001:db8::7"),
        ("203.0.113.7:4711", "203.0.113.7"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        (" 203.0.113.7 ", "203.0.113.7"),
    ],
)
def test_forwarded_entries_are_normalised(entry: str, expected: str) -> None:
    assert client_address("10.0.0.1", [entry], PROXIES) == expected


def test_ipv6_proxies_and_clients() -> None:
    assert client_address("2001:db8:ffff::1", ["2001:db8:1::5"], PROXIES) == "2001:db8:1::5"
    assert client_address("2001:db8:ffff::1", ["2001:db8:1::5, 2001:db8:ffff::2"], PROXIES) == (
        "2001:db8:1::5"
    )
    # An IPv4-mapped peer is its IPv4 address, so an IPv4 proxy network holds it.
    assert client_address("::ffff:10.0.0.1", ["203.0.113.7"], PROXIES) == "203.0.113.7"
    # A forwarded IPv4-mapped address of a proxy is that proxy.
    assert client_address("10.0.0.1", ["203.0.113.7, ::ffff:10.9.9.9"], PROXIES) == "203.0.113.7"
    assert client_address("2001:db8::1", ["203.0.113.7"], PROXIES) == "2001:db8::1"


def test_a_trusted_single_address() -> None:
    trusted = (ipaddress.ip_network("127.0.0.1"),)
    assert client_address("127.0.0.1", ["203.0.113.7"], trusted) == "203.0.113.7"
    assert client_address("127.0.0.2", ["203.0.113.7"], trusted) == "127.0.0.2"


@pytest.mark.parametrize(
    ("peer", "proto", "scheme", "expected"),
    [
        ("10.0.0.1", "https", "http", "https"),
        ("10.0.0.1", "HTTPS", "http", "https"),
        ("10.0.0.1", "http", "https", "http"),
        ("10.0.0.1", "http, https", "http", "https"),  # the last value: our proxy's
        ("10.0.0.1", "https, http", "http", "http"),
        ("10.0.0.1", "gopher", "http", "http"),
        ("10.0.0.1", None, "https", "https"),
        ("10.0.0.1", None, "wss", "https"),
        ("10.0.0.1", None, "ws", "http"),
        ("192.0.2.1", "https", "http", "http"),  # not a trusted proxy
        ("192.0.2.1", "http", "https", "https"),
        (None, "https", "http", "http"),
        ("testclient", "https", "http", "http"),
        ("::ffff:10.0.0.1", "https", "ws", "https"),
    ],
)
def test_forwarded_proto_counts_only_from_a_trusted_proxy(
    peer: str | None, proto: str | None, scheme: str, expected: str
) -> None:
    assert forwarded_scheme(peer, proto, scheme, PROXIES) == expected


# --------------------------------------------------------------------------- connections


def test_connections_are_counted_per_key_up_to_the_limit() -> None:
    counter = ConnectionCounter(2)
    assert counter.acquire("a") and counter.acquire("a")
    assert not counter.acquire("a")
    assert counter.acquire("b")
    assert counter.count("a") == 2 and counter.count("b") == 1
    counter.release("a")
    assert counter.count("a") == 1
    assert counter.acquire("a")
    assert not counter.acquire("a")


def test_a_key_with_no_connection_is_forgotten() -> None:
    counter = ConnectionCounter(3)
    for i in range(1000):
        assert counter.acquire(str(i))
        counter.release(str(i))
    assert len(counter) == 0
    counter.acquire("a")
    counter.acquire("a")
    counter.release("a")
    assert len(counter) == 1
    counter.release("a")
    assert len(counter) == 0 and counter.count("a") == 0


def test_a_release_without_an_acquire_is_an_error() -> None:
    counter = ConnectionCounter(1)
    with pytest.raises(ValueError, match="no connection"):
        counter.release("a")
    assert counter.acquire("a")
    counter.release("a")
    with pytest.raises(ValueError):
        counter.release("a")
    assert len(counter) == 0


def test_a_limit_of_no_connection_is_refused() -> None:
    with pytest.raises(ValueError):
        ConnectionCounter(0)
