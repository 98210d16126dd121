"""How the ``pachisi`` command fails: its exit codes, :class:`CliError` for bad input, and
the one-line reports on stderr.

Shared by every part of the command (the entry point, the argument parser and the
subcommands), so it imports nothing of the package.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Final

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


class CliError(Exception):
    """A problem with what the user asked for, reported as one line and exit code 2."""


def complain(text: str) -> None:
    """One line on stderr, which may be closed too: then there is nobody to tell."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr)
        sys.stderr.flush()


def one_line(exc: BaseException) -> str:
    """The message of ``exc`` on one line; for a file's error, the file and the reason."""
    if isinstance(exc, OSError):
        if exc.filename is not None:
            return f"{exc.filename}: {exc.strerror or exc}"
        return exc.strerror or " ".join(str(exc).split())
    return " ".join(str(exc).split())
