"""The ``pachisi`` command: look up rulesets, list legal moves, simulate, hold tournaments,
replay and play.

Every subcommand is a thin layer over the library: the rules come from
:mod:`pachisi.rules`, positions and records from :mod:`pachisi.notation`, computer players
from :mod:`pachisi.ai`. Every command exits with the same code for the same kind of
failure (:data:`EXIT_CODES`), and never with a traceback: a mistake in what the user gave
(an argument, ruleset string, position, record, bot name, file or save path) is one line
on stderr and exit code 2.
The words for pieces, actions and events live in :mod:`pachisi.describe`, the terminal
game in :mod:`pachisi.play`; this module holds the argument parser and the subcommands.
The console script enters through :mod:`pachisi.__main__`, which also turns a Ctrl-C
while this module is still loading into exit code 130.

    pachisi rules [NAME] [--json]
    pachisi moves POSITION [POSITION ...] [--json]
    pachisi hint POSITION [POSITION ...] [--level L] [--seed S] [--json]
    pachisi simulate --ruleset R --games N --seed S [--players 2|4] [--bots B]
                     [--engine fast|reference] [--workers K] [--threads T]
                     [--max-turns T] [--max-steps N] [--json]
    pachisi tournament --players A,B[,C,D] --ruleset R --games N --seed S [--workers K]
                       [--ray [ADDRESS]] [--max-steps N] [--json] [--csv FILE]
                       [--plot FILE.png]
    pachisi replay FILE
    pachisi review RECORD [--json] [--workers N] [--seed S]
    pachisi play [--ruleset R] [--seat S] [--seed N] [--bots B] [--save FILE]
                 [--max-steps N] [--color]
    pachisi serve [--host H] [--port P] [--database URL] [--computer-delay SECONDS]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, Final, NoReturn

from pachisi import interrupted
from pachisi.ai.bots import Bot, UnknownBotError
from pachisi.ai.evaluation import sides
from pachisi.ai.games import DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS
from pachisi.ai.hints import DEFAULT_LEVEL, hint
from pachisi.ai.players import PLAYER_NAMES, make_player
from pachisi.arguments import MAX_THREADS
from pachisi.describe import DESCRIPTIONS, describe_action, situation
from pachisi.explore.command import add_parser as add_explore_parser
from pachisi.explore.errors import ExploreError
from pachisi.notation import (
    NotationError,
    RecordError,
    read_game_file,
    read_position,
    write_position,
)
from pachisi.play import MAX_STEPS, run_play
from pachisi.progress import games_bar
from pachisi.rules import engine
from pachisi.rules.board import SEAT_NAMES
from pachisi.rules.ruleset import (
    ALIASES,
    NAMED,
    RulesetError,
    derive,
    describe,
    parse_ruleset,
    resolve_name,
)
from pachisi.rules.state import CHANCE, State
from pachisi.savefile import SavePathError, check_save_path, save_text
from pachisi.simulate import (
    ENGINES,
    Summary,
    fast_plays,
    simulate,
    wilson_interval,
)
from pachisi.web.options import add_serve_arguments, settings_from

__all__ = [
    "EXIT_CODES",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "CliError",
    "main",
]

EXIT_OK: Final = 0
"""Success, including a reader that closed our output early (``pachisi rules | head``)."""
EXIT_INTERNAL: Final = 1
"""An unexpected internal error: a bug in pachisi, reported in one line."""
EXIT_USAGE: Final = 2
"""Bad input of any kind: arguments, ruleset, position, record, bot, file, save path."""
EXIT_INTERRUPTED: Final = 130
"""Interrupted by Ctrl-C (128 + SIGINT, as shells report it)."""
EXIT_CODES: Final = {
    EXIT_OK: "success",
    EXIT_INTERNAL: "internal error (a bug)",
    EXIT_USAGE: "bad input",
    EXIT_INTERRUPTED: "interrupted",
}
"""Every exit code of the ``pachisi`` command and what it means."""

DEBUG_VARIABLE: Final = "PACHISI_DEBUG"
"""Set (to anything but empty or 0) to print the traceback of an internal error."""

MAX_GAMES: Final = 1_000_000
"""The most games one ``simulate`` run plays (some hours at the measured speeds)."""
MAX_SEED: Final = 2**64 - 1
"""The largest seed the commands accept."""
MAX_WORKERS: Final = 256
"""The most worker processes ``simulate --workers`` starts."""
_LOCAL_RAY: Final = "local"
"""``tournament --ray`` without an address: a Ray started for the run on this machine."""
MAX_CAP: Final = 10**9
"""The largest ``--max-turns`` or ``--max-steps`` of ``simulate``."""
MAX_PLAY_STEPS: Final = 200_000
"""The largest ``--max-steps`` of ``play``: its record must stay well inside the size a game
record may have (``pachisi.notation.MAX_RECORD_LENGTH``, at 2 to 20 characters a step)."""


class CliError(Exception):
    """A problem with what the user asked for, reported as one line and exit code 2."""


_USER_ERRORS: Final = (
    CliError,
    RulesetError,
    NotationError,
    RecordError,
    UnknownBotError,
    SavePathError,
    ExploreError,
    OSError,
)
"""What bad input raises; anything else that escapes a command is a bug."""


# --------------------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> int:
    """Run the ``pachisi`` command with ``argv`` (default: the process arguments).

    Returns the exit code (:data:`EXIT_CODES`); no exception escapes.
    """
    try:
        return _settle_stdout(_run(argv))
    except KeyboardInterrupt:
        # A second Ctrl-C while the first was being reported.
        return EXIT_INTERRUPTED


def _run(argv: list[str] | None) -> int:
    with contextlib.suppress(AttributeError, ValueError):
        # Whatever the terminal's encoding, text we print must not end the command.
        if isinstance(sys.stdout, io.TextIOWrapper):
            sys.stdout.reconfigure(errors="backslashreplace")
    try:
        args = _parser().parse_args(argv)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except SystemExit as exc:
        # argparse has printed its message (or the help); tests call main() for a code.
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (e.g. `pachisi rules | head`): stop quietly, like Unix tools.
        return EXIT_OK
    except _USER_ERRORS as exc:
        _complain(f"pachisi: error: {_one_line(exc)}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        _complain("\npachisi: interrupted")
        return EXIT_INTERRUPTED
    except Exception as exc:
        if interrupted(exc):  # a Ctrl-C while a command loaded its modules
            _complain("\npachisi: interrupted")
            return EXIT_INTERRUPTED
        if os.environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
            with contextlib.suppress(OSError, ValueError):
                traceback.print_exc(file=sys.stderr)
        _complain(f"pachisi: internal error: {type(exc).__name__}: {_one_line(exc)}")
        _complain(
            "pachisi: this is a bug; please report it with the command that caused it "
            f"({DEBUG_VARIABLE}=1 shows the traceback)"
        )
        return EXIT_INTERNAL


def _settle_stdout(code: int) -> int:
    """Flush stdout before exit, where a closed pipe can still be answered quietly.

    Python flushes stdout again at exit and would complain there about a reader that has
    gone; pointing the descriptor at the null device lets that last flush succeed.
    """
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _stdout_to_devnull()
    except (OSError, ValueError) as exc:
        _stdout_to_devnull()
        if code == EXIT_OK:
            _complain(f"pachisi: error: cannot write the output: {_one_line(exc)}")
            return EXIT_USAGE
    return code


def _stdout_to_devnull() -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()


def _complain(text: str) -> None:
    """One line on stderr, which may be closed too: then there is nobody to tell."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr)
        sys.stderr.flush()


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        if exc.filename is not None:
            return f"{exc.filename}: {exc.strerror or exc}"
        return exc.strerror or " ".join(str(exc).split())
    return " ".join(str(exc).split())


# --------------------------------------------------------------------------- arguments

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


class _Parser(argparse.ArgumentParser):
    """argparse with its errors in one line, like every other mistake the user can make."""

    def error(self, message: str) -> NoReturn:
        _complain(f"{self.prog}: error: {message} (usage: {self.prog} --help)")
        raise SystemExit(EXIT_USAGE)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="pachisi",
        description="Pachisi, India's cross-and-circle race game: rules, moves, simulation, play.",
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
    p.set_defaults(run=_cmd_rules)

    p = sub.add_parser("moves", help="list the legal actions (or throws) in a position")
    p.add_argument("position", nargs="+", metavar="POSITION", help=_POSITION_HELP)
    p.add_argument(
        "--json",
        action="store_true",
        help="print JSON (a list of one object per position when several are given)",
    )
    p.set_defaults(run=_cmd_moves)

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
    p.set_defaults(run=_cmd_hint)

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
    p.set_defaults(run=_cmd_simulate)

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
        const=_LOCAL_RAY,
        default=None,
        metavar="ADDRESS",
        help="play the games on Ray, with the same results: on the cluster whose head is at "
        "ADDRESS (host:port, or auto), or on a Ray started here for the run when ADDRESS is "
        f"left out (or {_LOCAL_RAY}). Needs pip install 'pachisi[ray]'",
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
    p.set_defaults(run=_cmd_tournament)

    p = sub.add_parser("replay", help="read a game record and show where it ends")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=_cmd_replay)

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
    p.set_defaults(run=_cmd_review)

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
    p.set_defaults(run=_cmd_play)

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
    p.set_defaults(run=_cmd_serve)
    return parser


# --------------------------------------------------------------------------- rules


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.effects:
        return _effects(args.name, args.json)
    if args.name is None:
        return _list_rulesets(args.json)
    ruleset = parse_ruleset(args.name)
    rows = describe(ruleset)
    if args.json:
        data = {"ruleset": str(ruleset), "name": ruleset.name, "switches": rows}
        print(json.dumps(data, indent=2))
        return 0
    print(f"Ruleset {ruleset.name}; canonical string: {ruleset}")
    headers = {"key": "switch", "value": "value", "default": "default", "rule": "rule"}
    widths = {k: max(len(h), *(len(row[k]) for row in rows)) for k, h in headers.items()}
    line = "  ".join(h.ljust(widths[k]) for k, h in headers.items())
    print(f"  {line}")
    for row in rows:
        mark = "*" if row["value"] != row["default"] else " "
        cells = "  ".join(row[k].ljust(widths[k]) for k in headers)
        print(f"{mark} {cells}  {row['help']}".rstrip())
    print("* differs from the default (classic)")
    return 0


def _effects(name: str | None, as_json: bool) -> int:
    from pachisi.explore.effects import effects_text, ruleset_effects

    if name is None or "+" in name:
        raise CliError("--effects needs a named ruleset (pachisi rules lists them)")
    named = resolve_name(name)  # an unknown name is refused here, with the known ones
    if as_json:
        print(json.dumps(ruleset_effects(named), indent=2))
    else:
        print(effects_text(named))
    return 0


def _list_rulesets(as_json: bool) -> int:
    aliases: dict[str, list[str]] = {name: [] for name in NAMED}
    for alias, name in ALIASES.items():
        aliases[name].append(alias)
    entries = [
        {
            "name": name,
            "aliases": sorted(aliases[name]),
            "description": DESCRIPTIONS.get(name, ""),
            "canonical": str(ruleset),
        }
        for name, ruleset in NAMED.items()
    ]
    if as_json:
        print(json.dumps({"rulesets": entries}, indent=2))
        return 0
    width = max(len(name) for name in NAMED)
    print("Named rulesets (change a switch with NAME+key=value; see `pachisi rules NAME`):")
    for entry in entries:
        print(f"  {str(entry['name']).ljust(width)}  {entry['description']}")
        if entry["aliases"]:
            print(f"  {' ' * width}  aliases: {', '.join(entry['aliases'])}")
    return 0


# --------------------------------------------------------------------------- moves


_POSITION_HELP: Final = (
    "a position string, quoted or as its words; several positions are each handled in turn"
)

_PIECES: Final = re.compile(r"[0-9]+(?:,[0-9]+)*(?:/[0-9]+(?:,[0-9]+)*)+")
"""A word that can only be the first field of a position string, the pieces."""


def _read_positions(words: list[str]) -> list[State]:
    """The positions ``moves`` and ``hint`` were given, all read before any is handled.

    A single position may be one argument or its words unquoted: all the arguments read as
    one position first, as they always have. Failing that, each argument holding a blank is
    a position of its own, and a run of arguments without one holds the words of one
    position, or of several, each beginning at its pieces field (``0,0,0,0/...``). With
    several, the error for one that cannot be read names it by its number.
    """
    whole = " ".join(words)
    try:
        return [read_position(whole)]
    except NotationError:
        texts = _split_positions(words)
        if len(texts) == 1:
            raise
    states = []
    for number, text in enumerate(texts, start=1):
        try:
            states.append(read_position(text))
        except NotationError as exc:
            raise CliError(f"position {number} of {len(texts)}: {_one_line(exc)}") from None
    return states


def _split_positions(words: list[str]) -> list[str]:
    """The position strings in ``words`` (see :func:`_read_positions`)."""
    groups: list[list[str]] = []
    in_words = False  # whether the last group is a run of words that may go on
    for word in words:
        if any(c.isspace() for c in word):
            groups.append([word])
            in_words = False
        elif in_words and not _PIECES.fullmatch(word):
            groups[-1].append(word)
        else:
            groups.append([word])
            in_words = True
    return [" ".join(group) for group in groups]


def _heading(number: int, count: int, state: State) -> None:
    """The line that begins the output for one of several positions."""
    if number > 1:
        print()
    print(f"Position {number} of {count}: {write_position(state)}")


def _cmd_moves(args: argparse.Namespace) -> int:
    states = _read_positions(args.position)
    found = [_moves_data(state) for state in states]
    if args.json:
        print(json.dumps(found[0] if len(found) == 1 else found, indent=2))
        return 0
    for number, (state, data) in enumerate(zip(states, found, strict=True), start=1):
        if len(states) > 1:
            _heading(number, len(states), state)
        _print_moves(state, data)
    return 0


def _print_moves(state: State, data: dict[str, Any]) -> None:
    print(situation(state))
    if data["outcomes"]:
        print("   k  value  probability")
        for o in data["outcomes"]:
            print(f"  {o['k']:>2}  {o['value']:>5}  {o['probability']}")
    for a in data["actions"]:
        print(f"  {a['index']:>2}. {a['action']:<8} {a['description']}")


def _moves_data(state: State) -> dict[str, Any]:
    player = engine.current_player(state)
    result = engine.outcome(state)
    data: dict[str, Any] = {
        "position": write_position(state),
        "ruleset": str(state.ruleset),
        "to_move": "chance" if player == CHANCE else ("over" if result else "seat"),
        "seat": None if result else state.seat,
        "actions": [],
        "outcomes": [],
        "outcome": str(result) if result else None,
    }
    if player == CHANCE:
        table = state.ruleset.score_table
        data["outcomes"] = [
            {"k": k, "value": table[k], "probability": str(pr)}
            for k, pr in engine.chance_outcomes(state)
        ]
    else:
        data["actions"] = [
            {"index": i, "action": str(a), "description": describe_action(state, a)}
            for i, a in enumerate(engine.legal_actions(state), start=1)
        ]
    return data


def _cmd_hint(args: argparse.Namespace) -> int:
    states = _read_positions(args.position)
    make_player(args.level)  # an unknown level is bad input (UnknownBotError), not a bug
    for number, state in enumerate(states, start=1):
        if not engine.legal_actions(state):
            which = f"position {number} of {len(states)}: " if len(states) > 1 else ""
            raise CliError(
                f"{which}no seat is to act in this position (a throw is due or the game is over)"
            )
    if args.json:
        found = [_hint_data(state, args.level, args.seed) for state in states]
        print(json.dumps(found[0] if len(found) == 1 else found, indent=2))
        return 0
    for number, state in enumerate(states, start=1):
        if len(states) > 1:
            _heading(number, len(states), state)
        # Each hint is printed as it is found: a search takes up to a second or two.
        _print_hint(state, _hint_data(state, args.level, args.seed))
    return 0


def _hint_data(state: State, level: str, seed: int) -> dict[str, Any]:
    ranked = hint(state, level, seed=seed)
    return {
        "position": write_position(state),
        "level": level,
        "seed": seed,
        "seat": state.seat,
        "actions": [
            {
                "action": str(r.action),
                "description": describe_action(state, r.action),
                "win": round(r.win, 4),
                "effort": r.effort,
            }
            for r in ranked
        ],
    }


def _print_hint(state: State, data: dict[str, Any]) -> None:
    print(situation(state))
    # Not "the chance to win": a draw counts as an equal share for every side.
    n = sides(state)
    who = f"seat {state.seat}'s side" if n == 2 else f"seat {state.seat}"
    print(
        f"hint by {data['level']}: expected score of {who} after each action "
        f"(a win counts 1, a draw 1/{n})"
    )
    for i, a in enumerate(data["actions"], start=1):
        print(f"  {i:>2}. {a['action']:<8} {100 * a['win']:5.1f}%  {a['description']}")


# --------------------------------------------------------------------------- simulate


def _bot_names(text: str) -> list[str]:
    """Seat-by-seat bot names from ``--bots``: one for all, one per team, or one per seat."""
    names = [n.strip().lower() for n in text.split(",")]
    if len(names) in (1, 2):
        names = (names * 4)[:4]
    if len(names) != 4:
        raise CliError(f"--bots takes 1, 2 (per team) or 4 (per seat) names, not {text!r}")
    for name in names:
        make_player(name)  # raises UnknownBotError with the list of names
    return names


def _cmd_simulate(args: argparse.Namespace) -> int:
    ruleset = parse_ruleset(args.ruleset)
    if args.players == 2 and ruleset.players != 2:
        ruleset = derive(ruleset, {"players": 2})
    bots: list[Bot] = [make_player(name) for name in _bot_names(args.bots)]
    chosen = args.engine
    if args.engine is None:
        args.engine = "fast" if fast_plays(bots) else "reference"
    elif args.engine == "fast" and not fast_plays(bots):
        raise CliError("--engine fast plays only the random and greedy bots; use the reference")
    if args.engine == "fast":
        from pachisi.fast.params import FastEngineError, engine_params

        try:
            # What simulate plays the games with; where the extension was not built,
            # importing it raises CompiledEngineMissing, an ImportError.
            import pachisi.ai.playouts  # noqa: F401

            engine_params(ruleset)
        except ImportError as exc:
            # CompiledEngineMissing: this installation has no compiled engine.
            if chosen == "fast":
                raise CliError(f"--engine fast: {exc}") from None
            print(f"pachisi: {exc}; playing with the reference engine", file=sys.stderr)
            args.engine = "reference"
        except FastEngineError as exc:
            if chosen == "fast":
                raise CliError(f"--engine fast cannot play this ruleset: {exc}") from None
            print(
                f"pachisi: the compiled engine cannot play this ruleset ({exc}); "
                "playing it with the reference engine",
                file=sys.stderr,
            )
            args.engine = "reference"
    if args.threads > 1 and args.engine != "fast":
        raise CliError(
            "--threads spreads the compiled engine's games; the reference engine uses --workers"
        )
    with games_bar(args.games, show=sys.stderr.isatty()) as bar:
        summary = simulate(
            ruleset,
            args.games,
            args.seed,
            bots,
            progress=bar,
            max_turns=args.max_turns,
            max_steps=args.max_steps,
            engine_name=args.engine,
            workers=args.workers,
            threads=args.threads,
        )
    if args.json:
        print(json.dumps(summary.as_dict()))
    else:
        print(_summary_text(summary))
    return 0


def _summary_text(s: Summary) -> str:
    lines = [
        f"ruleset  {s.ruleset}",
        f"bots     {', '.join(s.bots)} (seats 0..3)",
        f"seed     {s.seed}",
        f"games    {s.games}",
        f"draws    {_rate(s.draws, s.games)}  (no side could win any more, R-DEADLOCK, "
        "or no piece could move, R-FROZEN)",
        f"time     {s.seconds:.2f} s ({s.games_per_second:.1f} games/s)",
        f"mean     {s.mean_throws:.1f} throws, {s.mean_actions:.1f} actions, "
        f"{s.mean_captures:.2f} captures per game",
        "wins     (share of games, 95% Wilson interval)",
    ]
    rows = [(f"seat {seat} ({SEAT_NAMES[seat]})", w) for seat, w in enumerate(s.wins_by_seat)]
    if s.wins_by_team is not None:
        rows += [
            (f"team {team} (seats {team}+{team + 2})", w) for team, w in enumerate(s.wins_by_team)
        ]
    width = max(len(label) for label, _ in rows)
    lines += [f"  {label.ljust(width)} {_rate(wins, s.games)}" for label, wins in rows]
    if s.unfinished:
        lines.append(
            f"unfinished {s.unfinished} (abandoned after {s.max_turns} turns or "
            f"{s.max_steps} steps with no result)"
        )
    return "\n".join(lines)


def _rate(wins: int, games: int) -> str:
    lo, hi = wilson_interval(wins, games)
    share = wins / games if games else 0.0
    return f"{wins:>6}  {share:6.1%}  [{lo:.1%}, {hi:.1%}]"


# --------------------------------------------------------------------------- tournament


def _cmd_tournament(args: argparse.Namespace) -> int:
    # Imported here: the tournament's statistics load numpy, which other commands skip.
    from pachisi.tournament import TournamentError, games_csv, make_schedule, run_games, summarise
    from pachisi.tournament.plot import PLOT_FORMATS, save_ladder
    from pachisi.tournament.ray_backend import (
        RayError,
        parse_address,
        require_ray,
        run_games_on_ray,
    )

    ruleset = parse_ruleset(args.ruleset)
    names = [n.strip().lower() for n in args.players.split(",")]
    for name in names:
        make_player(name)  # raises UnknownBotError with the list of names
    try:
        plan = make_schedule(
            names,
            ruleset,
            args.games,
            args.seed,
            max_steps=args.max_steps,
            max_games=MAX_GAMES,
        )
    except TournamentError as exc:
        raise CliError(str(exc)) from None
    if args.plot is not None and not args.plot.lower().endswith(PLOT_FORMATS):
        raise CliError(f"--plot {args.plot!r}: the file must end in {', '.join(PLOT_FORMATS)}")
    outputs = [path for path in (args.csv, args.plot) if path is not None]
    for path in outputs:
        check_save_path(path)
    if len({os.path.realpath(path) for path in outputs}) < len(outputs):
        raise CliError("--csv and --plot name the same file")
    address = None if args.ray in (None, _LOCAL_RAY) else args.ray
    if address is not None and args.workers is not None:
        raise CliError(
            f"--workers sets the CPUs of a local Ray; the cluster at {address} has its own "
            "(leave out --workers, or give --ray without an address)"
        )
    if args.ray is not None:
        try:
            require_ray()
            if address is not None:
                parse_address(address)
        except RayError as exc:
            raise CliError(f"--ray: {exc}") from None
    if plan.rounded_up:
        seatings = "both seatings" if plan.rotations == 2 else f"all {plan.rotations} seatings"
        _complain(
            f"pachisi: {plan.games_requested} games rounded up to {plan.games_per_pairing}, so "
            f"that every throw sequence is played in {seatings}"
        )
    start = time.perf_counter()
    with games_bar(len(plan.specs), show=sys.stderr.isatty()) as bar:
        if args.ray is None:
            results = run_games(plan.specs, workers=args.workers or 1, progress=bar)
        else:
            try:
                results = run_games_on_ray(
                    plan.specs, address=address, num_cpus=args.workers, progress=bar
                )
            except RayError as exc:
                raise CliError(f"--ray: {exc}") from None
    report = summarise(plan, results, seconds=time.perf_counter() - start)
    print(json.dumps(report.as_dict()) if args.json else report.text())
    if args.csv is not None:
        save_text(args.csv, games_csv(results))
    if args.plot is not None:
        save_ladder(report, args.plot)
    return 0


# --------------------------------------------------------------------------- replay


def _cmd_replay(args: argparse.Namespace) -> int:
    try:
        # One pass: the size limit first, then every move replayed as it is read.
        game = read_game_file(args.file)
    except RecordError as exc:
        for problem in exc.errors:
            print(
                f"{args.file}:{problem.line}:{problem.column}: {problem.message}", file=sys.stderr
            )
        if not exc.errors:
            print(f"{args.file}: {_one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    print(write_position(game.state))
    result = game.outcome()
    print(f"Game over: {result}." if result else f"Not over. {situation(game.state)}")
    return 0


# --------------------------------------------------------------------------- review


def _cmd_review(args: argparse.Namespace) -> int:
    # Imported here, as the search it runs is: the other commands need neither.
    from pachisi.notation import read_record_file
    from pachisi.review import process_pool, review
    from pachisi.review.terminal import PipeConsole, print_review, steps_bar

    record = read_record_file(args.file)
    with (
        process_pool(args.workers, seed=args.seed) as run,
        steps_bar(show=not args.json and sys.stderr.isatty()) as bar,
    ):
        result = review(record, seed=args.seed, run=run, progress=bar)
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
    else:
        print_review(result, PipeConsole())
    return 0


# --------------------------------------------------------------------------- play


def _cmd_play(args: argparse.Namespace) -> int:
    ruleset = parse_ruleset(args.ruleset)
    return run_play(
        ruleset,
        seat=args.seat,
        seed=args.seed,
        bot=args.bots,
        save=args.save,
        color=args.color,
        inp=sys.stdin,
        out=sys.stdout,
        err=sys.stderr,
        max_steps=args.max_steps,
    )


# --------------------------------------------------------------------------- serve


def _cmd_serve(args: argparse.Namespace) -> int:
    # Imported here: the web server's packages (FastAPI, SQLAlchemy, uvicorn) take a while
    # to load, and no other command needs them.
    from pachisi.web.server import COMPUTER_DELAY, ServeError, serve
    from pachisi.web.storage import StorageError

    delay = COMPUTER_DELAY if args.computer_delay is None else args.computer_delay
    try:
        serve(
            args.host,
            args.port,
            args.database,
            computer_delay=delay,
            settings=settings_from(args),
            proxy_headers=args.proxy_headers,
        )
    except (ServeError, StorageError) as exc:
        raise CliError(str(exc)) from None
    return 0


_SECONDS: Final = re.compile(r"[0-9]{1,2}(\.[0-9]{1,3})?")


def _serve_seconds(text: str) -> float:
    """An argparse type for ``serve --computer-delay``: 0..10 seconds, ASCII digits."""
    if not _SECONDS.fullmatch(text) or float(text) > 10:
        shown = text if len(text) <= 24 else text[:21] + "..."
        raise argparse.ArgumentTypeError(f"{shown!r} is not a number of seconds from 0 to 10")
    return float(text)


if __name__ == "__main__":
    sys.exit(main())
