"""The ``pachisi`` command's arguments: every subcommand with its options, and the function
that runs it.

Numbers are read by :func:`_integer` (ASCII digits, within the bounds in
:mod:`pachisi.cli.limits`), and a mistake in the arguments is one line and exit code 2, like
every other bad input.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Final, NoReturn

from pachisi import __version__
from pachisi.ai.games import DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS
from pachisi.ai.hints import DEFAULT_LEVEL
from pachisi.ai.players import PLAYER_NAMES
from pachisi.arguments import MAX_THREADS
from pachisi.cli.errors import EXIT_USAGE, complain
from pachisi.cli.games import (
    LOCAL_RAY,
    play_command,
    replay_command,
    review_command,
    serve_command,
    simulate_command,
    tournament_command,
)
from pachisi.cli.limits import MAX_CAP, MAX_GAMES, MAX_PLAY_STEPS, MAX_SEED, MAX_WORKERS
from pachisi.cli.queries import hint_command, moves_command, rules_command
from pachisi.explore.command import add_parser as add_explore_parser
from pachisi.play import MAX_STEPS
from pachisi.simulate import ENGINES
from pachisi.web.options import add_serve_arguments

_INTEGER: Final = re.compile(r"-?[0-9]+")
"""A number as the commands take it: ASCII digits only, unlike ``int()``, which also
takes other scripts' digits (``١``), ``_`` separators and surrounding blanks."""


def _integer(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type for a whole number from ``lo`` to ``hi``, in ASCII digits."""

    def parse(text: str) -> int:
        shown = text if len(text) <= 24 else text[:21] + "..."
        if not _INTEGER.fullmatch(text):
            raise argparse.ArgumentTypeError(f"{shown!r} is not a whole number (digits 0-9)")
        digits = text.lstrip("-").lstrip("0") or "0"
        # Compare lengths first: int() of thousands of digits is slow or refused.
        if len(digits) > len(str(hi)) or not lo <= int(text) <= hi:
            raise argparse.ArgumentTypeError(f"{shown} is not from {lo} to {hi}")
        return int(text)

    return parse


_SECONDS: Final = re.compile(r"[0-9]{1,2}(\.[0-9]{1,3})?")


def _serve_seconds(text: str) -> float:
    """An argparse type for ``serve --computer-delay``: 0..10 seconds, ASCII digits."""
    if not _SECONDS.fullmatch(text) or float(text) > 10:
        shown = text if len(text) <= 24 else text[:21] + "..."
        raise argparse.ArgumentTypeError(f"{shown!r} is not a number of seconds from 0 to 10")
    return float(text)


class _Parser(argparse.ArgumentParser):
    """argparse with its errors in one line, like every other mistake the user can make."""

    def error(self, message: str) -> NoReturn:
        complain(f"{self.prog}: error: {message} (usage: {self.prog} --help)")
        raise SystemExit(EXIT_USAGE)


_POSITION_HELP: Final = (
    "a position string, quoted or as its words; several positions are each handled in turn"
)


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``pachisi`` command; each subcommand's ``run`` default is the
    function that runs it with the parsed arguments."""
    parser = _Parser(
        prog="pachisi",
        description="Pachisi, India's cross-and-circle race game: rules, moves, simulation, play.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}", help="print the version"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rules", help="list the named rulesets, or show one ruleset's switches")
    p.add_argument("name", nargs="?", metavar="NAME", help="a ruleset, e.g. classic+pyada=true")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--effects",
        action="store_true",
        help="with a named ruleset: its measured figures and what each switch flipped alone "
        "changes (pachisi explore's shipped results, docs/variants.md)",
    )
    p.set_defaults(run=rules_command)

    p = sub.add_parser("moves", help="list the legal actions (or throws) in a position")
    p.add_argument("position", nargs="+", metavar="POSITION", help=_POSITION_HELP)
    p.add_argument(
        "--json",
        action="store_true",
        help="print JSON (a list of one object per position when several are given)",
    )
    p.set_defaults(run=moves_command)

    p = sub.add_parser(
        "hint",
        help="rank the legal actions of a position by the mover's expected score after each "
        "(a win counts 1, a draw 1/2, or 1/4 under teams=individual)",
    )
    p.add_argument("position", nargs="+", metavar="POSITION", help=_POSITION_HELP)
    p.add_argument(
        "--level",
        default=DEFAULT_LEVEL,
        metavar="L",
        help=f"whose judgement: {', '.join(PLAYER_NAMES)} (default: {DEFAULT_LEVEL})",
    )
    p.add_argument(
        "--seed", type=_integer(0, MAX_SEED), default=0, metavar="S", help="the search's seed"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help='print JSON (an action\'s "win" is its expected score, 0..1; a list of one object '
        "per position when several are given)",
    )
    p.set_defaults(run=hint_command)

    p = sub.add_parser("simulate", help="play many games between bots and sum up")
    p.add_argument("--ruleset", default="classic", metavar="R", help="default: classic")
    p.add_argument(
        "--games",
        type=_integer(0, MAX_GAMES),
        default=100,
        metavar="N",
        help=f"0..{MAX_GAMES} (default: 100)",
    )
    p.add_argument(
        "--seed", type=_integer(0, MAX_SEED), default=0, metavar="S", help="0..2**64-1 (default: 0)"
    )
    p.add_argument("--players", type=_integer(2, 4), choices=(2, 4), default=4, help="2: players=2")
    p.add_argument(
        "--bots",
        default="random",
        metavar="BOTS",
        help=f"one of {', '.join(PLAYER_NAMES)} for every seat; or two names split by a comma "
        "(seats 0+2, then 1+3), or four (seats 0..3)",
    )
    p.add_argument(
        "--max-turns",
        type=_integer(1, MAX_CAP),
        default=DEFAULT_MAX_TURNS,
        metavar="T",
        help=f"abandon a game after T turns (default: {DEFAULT_MAX_TURNS})",
    )
    p.add_argument(
        "--max-steps",
        type=_integer(1, MAX_CAP),
        default=DEFAULT_MAX_STEPS,
        metavar="N",
        help=f"abandon a game after N throws and actions (default: {DEFAULT_MAX_STEPS})",
    )
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default=None,
        help="fast (compiled) or reference (the rules engine): the same games. Default: fast "
        "when every bot is random or greedy, else reference (the compiled engine plays no "
        "other bot)",
    )
    p.add_argument(
        "--workers",
        type=_integer(1, MAX_WORKERS),
        default=1,
        metavar="K",
        help=f"spread the games over K processes, 1..{MAX_WORKERS} (default: 1)",
    )
    p.add_argument(
        "--threads",
        type=_integer(1, MAX_THREADS),
        default=1,
        metavar="T",
        help=f"spread the fast engine's games over T threads of each process, "
        f"1..{MAX_THREADS} (default: 1); the same games",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=simulate_command)

    add_explore_parser(sub, _integer, MAX_GAMES, MAX_SEED, MAX_WORKERS)

    p = sub.add_parser(
        "tournament", help="play computer players against each other: win rates and Elo"
    )
    p.add_argument(
        "--players",
        required=True,
        metavar="A,B[,C,D]",
        help=f"2 to 4 players split by commas, from {', '.join(PLAYER_NAMES)} (a name may "
        "repeat: a player against itself)",
    )
    p.add_argument("--ruleset", default="classic", metavar="R", help="default: classic")
    p.add_argument(
        "--games",
        type=_integer(1, MAX_GAMES),
        default=100,
        metavar="N",
        help=f"games per pair (all four seated under teams=individual), 1..{MAX_GAMES}, "
        "rounded up to whole seat rotations (default: 100)",
    )
    p.add_argument(
        "--seed", type=_integer(0, MAX_SEED), default=0, metavar="S", help="0..2**64-1 (default: 0)"
    )
    p.add_argument(
        "--workers",
        type=_integer(1, MAX_WORKERS),
        default=None,
        metavar="K",
        help=f"spread the games over K processes, 1..{MAX_WORKERS} (default: 1); with --ray "
        "and no ADDRESS, the CPUs of the local Ray (default: all)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        default=None,
        metavar="ADDRESS",
        help="play the games on Ray, with the same results: on the cluster whose head is at "
        "ADDRESS (host:port, or auto), or on a Ray started here for the run when ADDRESS is "
        f"left out (or {LOCAL_RAY}). Needs pip install 'pachisi[ray]'",
    )
    p.add_argument(
        "--max-steps",
        type=_integer(1, MAX_CAP),
        default=DEFAULT_MAX_STEPS,
        metavar="N",
        help=f"abandon a game after N throws and actions (default: {DEFAULT_MAX_STEPS})",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--csv", default=None, metavar="FILE", help="write one row per game to FILE")
    p.add_argument(
        "--plot", default=None, metavar="FILE.png", help="draw the Elo ladder (.png, .svg, .pdf)"
    )
    p.set_defaults(run=tournament_command)

    p = sub.add_parser("replay", help="read a game record and show where it ends")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=replay_command)

    p = sub.add_parser("review", help="judge every decision of a game record with expert")
    p.add_argument("file", metavar="RECORD")
    p.add_argument("--json", action="store_true", help="print the review as one JSON object")
    p.add_argument(
        "--workers",
        type=_integer(1, MAX_WORKERS),
        default=2,
        metavar="N",
        help="worker processes judging the decisions (default: 2)",
    )
    p.add_argument("--seed", type=_integer(0, MAX_SEED), default=0, metavar="S", help="default: 0")
    p.set_defaults(run=review_command)

    p = sub.add_parser("play", help="play a game in the terminal against bots")
    p.add_argument("--ruleset", default="classic", metavar="R", help="default: classic")
    p.add_argument("--seat", type=_integer(0, 3), default=0, metavar="S", help="0..3")
    p.add_argument(
        "--seed",
        type=_integer(0, MAX_SEED),
        default=None,
        metavar="N",
        help="seed for the throws, 0..2**64-1 (default: a fresh one)",
    )
    p.add_argument(
        "--bots",
        default="greedy",
        metavar="BOT",
        help=f"{' or '.join(PLAYER_NAMES)} (default: greedy)",
    )
    p.add_argument("--save", default=None, metavar="FILE", help="where to save the record")
    p.add_argument(
        "--max-steps",
        type=_integer(1, MAX_PLAY_STEPS),
        default=MAX_STEPS,
        metavar="N",
        help=f"stop a game that has not ended after N throws and actions (default: {MAX_STEPS})",
    )
    p.add_argument("--color", action="store_true", help="colour the board")
    p.set_defaults(run=play_command)

    p = sub.add_parser("serve", help="run the web game: play in the browser")
    p.add_argument("--host", default="127.0.0.1", metavar="H", help="default: 127.0.0.1")
    p.add_argument(
        "--port",
        type=_integer(0, 65535),
        default=8000,
        metavar="P",
        help="0..65535, 0 for any free port (default: 8000)",
    )
    p.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="sqlite:///PATH or postgresql://USER:PASSWORD@HOST:PORT/NAME (default: "
        "pachisi.db in the user's data directory)",
    )
    p.add_argument(
        "--computer-delay",
        type=_serve_seconds,
        default=None,
        metavar="SECONDS",
        help="pause before each computer seat's throw or action, 0..10 (default: 0; the "
        "game page paces what it shows)",
    )
    add_serve_arguments(p)
    p.set_defaults(run=serve_command)
    return parser
