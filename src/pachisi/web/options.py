"""``pachisi serve``'s operator flags: one per field of
:class:`~pachisi.web.settings.Settings`, with its default in the help.

Kept apart from :mod:`pachisi.cli` and light to import (no web framework), so that
``pachisi --help`` stays quick.
"""

from __future__ import annotations

import argparse
import re
from typing import Final

from pachisi.web.settings import Settings, parse_networks

__all__ = ["add_serve_arguments", "settings_from"]

_NUMBER: Final = re.compile(r"[0-9]{1,9}(\.[0-9]{1,6})?")
_DEFAULTS: Final = Settings()


def _number(low: float, high: float, integer: bool = False) -> argparse._ActionType:
    def parse(text: str) -> float:
        if not _NUMBER.fullmatch(text) or (integer and "." in text):
            kind = "a whole number" if integer else "a number"
            raise argparse.ArgumentTypeError(f"{text[:24]!r} is not {kind}")
        value = float(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not between {low:g} and {high:g}")
        return int(value) if integer else value

    return parse


def _networks(text: str) -> str:
    try:
        parse_networks([text])
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _origin(text: str) -> str:
    try:
        Settings(allowed_origins=(text,))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    """Add the operator's flags to ``pachisi serve``'s parser."""
    d = _DEFAULTS
    g = p.add_argument_group("computer players")
    g.add_argument(
        "--any-player",
        action="store_true",
        help="let a computer seat be any player with any budget, not only a level",
    )
    g.add_argument(
        "--allow-computer-games",
        action="store_true",
        help="let a game have computer seats only (it runs unattended)",
    )
    g.add_argument(
        "--think-workers",
        type=_number(1, 64, integer=True),
        default=d.think_workers,
        metavar="N",
        help=f"worker processes for computer decisions and hints (default: {d.think_workers})",
    )
    g.add_argument(
        "--think-seconds",
        type=_number(0.1, 600),
        default=d.think_seconds,
        metavar="S",
        help=f"hard limit on one decision or hint (default: {d.think_seconds:g})",
    )
    g.add_argument(
        "--think-queue",
        type=_number(1, 100_000, integer=True),
        default=d.think_queue,
        metavar="N",
        help=f"requests that may wait for a worker before hints are refused as busy "
        f"(default: {d.think_queue})",
    )
    g.add_argument(
        "--review-queue",
        type=_number(1, 100_000, integer=True),
        default=d.review_queue,
        metavar="N",
        help=f"game reviews waiting or running at once, each in turn (default: {d.review_queue})",
    )
    g.add_argument(
        "--reviews-per-address",
        type=_number(1, 100_000, integer=True),
        default=d.reviews_per_address,
        metavar="N",
        help=f"game reviews one address may have waiting or running (default: "
        f"{d.reviews_per_address})",
    )
    g = p.add_argument_group("limits")
    g.add_argument(
        "--create-burst",
        type=_number(1, 100_000, integer=True),
        default=d.create_burst,
        metavar="N",
        help=f"games one address may create at once (default: {d.create_burst})",
    )
    g.add_argument(
        "--create-per-minute",
        type=_number(0.001, 100_000),
        default=d.create_per_minute,
        metavar="R",
        help=f"games one address may create per minute after that (default: "
        f"{d.create_per_minute:g})",
    )
    g.add_argument(
        "--max-unfinished",
        type=_number(1, 1_000_000, integer=True),
        default=d.max_unfinished_per_creator,
        metavar="N",
        help=f"unfinished games one address may have created (default: "
        f"{d.max_unfinished_per_creator})",
    )
    g.add_argument(
        "--commands-per-second",
        type=_number(0.01, 100_000),
        default=d.commands_per_second,
        metavar="R",
        help=f"messages one connection may send per second (default: {d.commands_per_second:g})",
    )
    g.add_argument(
        "--commands-burst",
        type=_number(1, 100_000, integer=True),
        default=d.commands_burst,
        metavar="N",
        help=f"messages one connection may send at once (default: {d.commands_burst})",
    )
    g.add_argument(
        "--sockets-per-address",
        type=_number(1, 100_000, integer=True),
        default=d.sockets_per_address,
        metavar="N",
        help=f"WebSocket connections one address may hold (default: {d.sockets_per_address})",
    )
    g.add_argument(
        "--abandon-days",
        type=_number(0.0001, 100_000),
        default=d.abandon_days,
        metavar="D",
        help=f"end an unfinished game with no move for D days as abandoned (default: "
        f"{d.abandon_days:g})",
    )
    g = p.add_argument_group("proxies, origins and several servers")
    g.add_argument(
        "--proxy-headers",
        action="store_true",
        help="behind a proxy: believe its X-Forwarded-For and X-Forwarded-Proto",
    )
    g.add_argument(
        "--trusted-proxy",
        type=_networks,
        action="append",
        default=[],
        metavar="NET",
        help="an address or network of a proxy to believe (repeat; default with "
        "--proxy-headers: this machine)",
    )
    g.add_argument(
        "--allowed-origin",
        type=_origin,
        action="append",
        default=[],
        metavar="URL",
        help="another origin (https://host) whose pages may open the game's WebSocket",
    )
    g.add_argument("--openapi", action="store_true", help="serve the API's schema at /openapi.json")
    g.add_argument(
        "--instance",
        default="",
        metavar="NAME",
        help="this server's name in the database's leases (default: a random one)",
    )


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings the parsed flags give."""
    trusted = list(args.trusted_proxy)
    if args.proxy_headers and not trusted:
        trusted = ["127.0.0.1", "::1"]
    return Settings(
        allow_any_player=args.any_player,
        allow_computer_games=args.allow_computer_games,
        think_workers=args.think_workers,
        think_seconds=args.think_seconds,
        think_queue=args.think_queue,
        review_queue=args.review_queue,
        reviews_per_address=args.reviews_per_address,
        create_burst=args.create_burst,
        create_per_minute=args.create_per_minute,
        max_unfinished_per_creator=args.max_unfinished,
        commands_per_second=args.commands_per_second,
        commands_burst=args.commands_burst,
        sockets_per_address=args.sockets_per_address,
        abandon_days=args.abandon_days,
        trusted_proxies=parse_networks(trusted),
        allowed_origins=tuple(args.allowed_origin),
        openapi=args.openapi,
        instance=args.instance[:64],
    )
