"""Suite-wide set-up.

The suite gives Ctrl-C back its default meaning when it started with SIGINT ignored, as a
command started in the background of a shell without job control does (and passes on to
every process it starts): the tests of Ctrl-C send SIGINT to the suite and to the commands it
runs, and would otherwise test the shell's disposition instead of the game's handling.
"""

from __future__ import annotations

import signal

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # A caught signal is reset to its default in a child at exec, an ignored one is not.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
