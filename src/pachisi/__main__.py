"""The ``pachisi`` command as the console script and ``python -m pachisi`` start it.

:func:`pachisi.cli.main` turns Ctrl-C into exit code 130 and one line, but only once it
runs, and loading the command's modules before that takes a few tenths of a second (more
from a cold disk): a Ctrl-C then ended in a ``KeyboardInterrupt`` traceback. :func:`main`
loads them inside a handler of its own. This module and the package's ``__init__`` import
nothing that the interpreter has not loaded already, so that all that is left uncovered is
the interpreter's own start-up and finding the package, a few milliseconds before any of
the package's code runs.
"""

import sys

from pachisi import interrupted

EXIT_INTERRUPTED = 130
"""``pachisi.cli.EXIT_INTERRUPTED``, repeated: it is needed when that module did not load."""


def main() -> int:
    """Run the ``pachisi`` command with the process arguments; its exit code."""
    code = EXIT_INTERRUPTED
    try:
        try:
            from pachisi.cli import main as run

            code = run()
        except (KeyboardInterrupt, RuntimeError) as exc:
            # While the modules loaded, or in the instant before run() set its handler:
            # the same words as pachisi.cli's. Nothing was played, so nothing is saved.
            if not interrupted(exc):
                raise
            _complain("\npachisi: interrupted")
        _quiet_exit()
    except KeyboardInterrupt:
        # A second Ctrl-C while the first was being reported.
        pass
    return code


def _complain(text: str) -> None:
    """One line on stderr, which may be closed: then there is nobody to tell."""
    # Not contextlib.suppress: this module imports only what the interpreter has loaded.
    try:  # noqa: SIM105
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _quiet_exit() -> None:
    """Let a Ctrl-C while the interpreter exits stop the process by the signal (which shells
    report as 130), not print a traceback from an exit handler: the command's work is done."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.SIG_DFL)


if __name__ == "__main__":
    sys.exit(main())
