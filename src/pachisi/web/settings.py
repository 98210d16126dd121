"""What an operator can set for ``pachisi serve``: the limits that make a server safe to put on
the internet, with their defaults (docs/web.md, "Public servers: limits and switches";
docs/deploy.md).

Every limit has a default that suits a public server, and a ``pachisi serve`` flag. The
values are checked here, so that a bad one is a clear error before anything starts.

>>> settings = Settings()
>>> settings.create_burst, settings.max_unfinished_per_creator, settings.allow_any_player
(5, 10, False)
>>> Settings(think_seconds=0)
Traceback (most recent call last):
...
ValueError: think_seconds must be between 0.1 and 600, not 0
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

__all__ = ["LEVEL_NAMES", "Network", "Settings", "parse_networks"]

LEVEL_NAMES: Final = ("easy", "medium", "hard", "expert")
"""The computer players a public server offers (``--any-player`` allows every player)."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(texts: Sequence[str]) -> tuple[Network, ...]:
    """Addresses or networks (``10.0.0.1``, ``10.0.0.0/8``, ``::1``); ValueError names a bad one.

    >>> [str(n) for n in parse_networks(["127.0.0.1", "10.0.0.0/8"])]
    ['127.0.0.1/32', '10.0.0.0/8']
    """
    networks = []
    for text in texts:
        try:
            networks.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{text!r} is not an IP address or network") from None
    return tuple(networks)


@dataclass(frozen=True, slots=True)
class Settings:
    """A server's limits and switches (see the module docstring); every field has a flag."""

    # Computer players (issue 20, D1).
    allow_any_player: bool = False
    """Whether a computer seat may name any player and budget, not only a level."""
    allow_computer_games: bool = False
    """Whether a game may have no human or open seat (it would run unattended)."""
    think_workers: int = 2
    """Worker processes that make the computer seats' decisions and the hints."""
    think_seconds: float = 10.0
    """The hard limit on one computer decision or hint, in seconds."""
    think_queue: int = 64
    """Decisions that may wait for a worker; beyond it, hints are refused as busy."""

    review_queue: int = 8
    """Game reviews this server holds waiting or running at once (each runs in turn)."""
    reviews_per_address: int = 2
    """Game reviews one client address may have waiting or running at once."""

    # Limits (D2).
    create_burst: int = 5
    """Games one client may create at once (a token bucket's size)."""
    create_per_minute: float = 2.0
    """Games one client may create per minute, once its burst is spent."""
    max_unfinished_per_creator: int = 10
    """Unfinished games one client may have created."""
    commands_burst: int = 40
    """Messages one WebSocket may send at once."""
    commands_per_second: float = 10.0
    """Messages one WebSocket may send per second, once its burst is spent."""
    sockets_per_address: int = 16
    """WebSocket connections one client address may hold at once."""
    abandon_days: float = 14.0
    """An unfinished game with no move for this many days ends as abandoned."""

    # Headers and origins (D8).
    trusted_proxies: tuple[Network, ...] = ()
    """Proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed."""
    allowed_origins: tuple[str, ...] = ()
    """Origins whose pages may open the WebSocket, besides the server's own."""
    openapi: bool = False
    """Whether ``/openapi.json`` is served."""

    instance: str = field(default="")
    """This server's name in the database's leases (default: a random one)."""

    def __post_init__(self) -> None:
        _between("think_workers", self.think_workers, 1, 64)
        _between("think_seconds", self.think_seconds, 0.1, 600)
        _between("think_queue", self.think_queue, 1, 100_000)
        _between("review_queue", self.review_queue, 1, 100_000)
        _between("reviews_per_address", self.reviews_per_address, 1, 100_000)
        _between("create_burst", self.create_burst, 1, 100_000)
        _between("create_per_minute", self.create_per_minute, 0.001, 100_000)
        _between("max_unfinished_per_creator", self.max_unfinished_per_creator, 1, 1_000_000)
        _between("commands_burst", self.commands_burst, 1, 100_000)
        _between("commands_per_second", self.commands_per_second, 0.01, 100_000)
        _between("sockets_per_address", self.sockets_per_address, 1, 100_000)
        _between("abandon_days", self.abandon_days, 0.0001, 100_000)
        for origin in self.allowed_origins:
            if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
                raise ValueError(
                    f"allowed origin {origin!r} is not scheme://host[:port], such as "
                    "https://pachisi.example.org"
                )


def _between(name: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low:g} and {high:g}, not {value:g}")
