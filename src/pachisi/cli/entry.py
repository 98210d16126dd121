"""The ``pachisi`` command's entry point: :func:`main` parses the arguments, runs the
subcommand, and turns whatever happens into an exit code
(:data:`~pachisi.cli.errors.EXIT_CODES`) with at most a line or two on stderr, never a
traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import traceback
from collections.abc import Callable
from typing import Final

from pachisi import interrupted
from pachisi.ai.bots import UnknownBotError
from pachisi.cli.errors import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    complain,
    one_line,
)
from pachisi.cli.parser import build_parser
from pachisi.explore.errors import ExploreError
from pachisi.notation import NotationError, RecordError
from pachisi.rules.ruleset import RulesetError
from pachisi.savefile import SavePathError

DEBUG_VARIABLE: Final = "PACHISI_DEBUG"
"""Set (to anything but empty or 0) to print the traceback of an internal error."""

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


def main(argv: list[str] | None = None) -> int:
    """Run the ``pachisi`` command with ``argv`` (default: the process arguments).

    Returns the exit code (:data:`~pachisi.cli.errors.EXIT_CODES`); no exception escapes.
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
        args = build_parser().parse_args(argv)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except SystemExit as exc:
        # argparse has printed its message (or the help); tests call main() for a code.
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (e.g. `pachisi rules | head`): stop quietly, like Unix tools.
        return EXIT_OK
    except _USER_ERRORS as exc:
        complain(f"pachisi: error: {one_line(exc)}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        complain("\npachisi: interrupted")
        return EXIT_INTERRUPTED
    except Exception as exc:
        if interrupted(exc):  # a Ctrl-C while a command loaded its modules
            complain("\npachisi: interrupted")
            return EXIT_INTERRUPTED
        if os.environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
            with contextlib.suppress(OSError, ValueError):
                traceback.print_exc(file=sys.stderr)
        complain(f"pachisi: internal error: {type(exc).__name__}: {one_line(exc)}")
        complain(
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
            complain(f"pachisi: error: cannot write the output: {one_line(exc)}")
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
