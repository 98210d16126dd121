"""Suite-wide set-up: compile the compiled engine's kernels on two cores before the tests.

After a fresh install numba compiles the kernels on their first use, which takes minutes
(docs/rl.md); left to the tests, that happens one kernel group after another on one core.
When the collected tests include any that use the compiled engine, two processes load or
compile the two groups side by side first (:func:`pachisi.fast.warm_up`, the playout loop;
:func:`pachisi.fast.warm_up_batch`, the self-play kernels and ``expert``'s search), and
write numba's on-disk cache that the tests then load. With a warm cache this costs the two
processes' start-up, a few seconds. A group that fails to compile is reported and left to
the tests, which then fail where it is used, with their own message.

The suite also gives Ctrl-C back its default meaning when it started with SIGINT ignored, as
a command started in the background of a shell without job control does (and passes on to
every process it starts): the tests of Ctrl-C send SIGINT to the suite and to the commands it
runs, and would otherwise test the shell's disposition instead of the game's handling.
"""

from __future__ import annotations

import importlib
import signal
import subprocess
import sys
import time

import pytest

USERS = (
    "tests/fast/",
    "tests/ai/",
    "tests/env/",
    "tests/tournament/",
    "tests/review/",
    "tests/test_bots.py",
    "tests/test_cli.py",
    "tests/test_exit_codes.py",
    "tests/test_termination.py",
)
"""Where the tests that run the compiled engine live (by pytest node id)."""

GROUPS = (
    "from pachisi.fast import warm_up; warm_up()",
    "from pachisi.fast import warm_up_batch; warm_up_batch()",
)
"""What each process compiles: their machine code barely overlaps."""


def pytest_configure(config: pytest.Config) -> None:
    # A caught signal is reset to its default in a child at exec, an ignored one is not.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_finish(session: pytest.Session) -> None:
    if session.config.option.collectonly or not any(
        item.nodeid.startswith(USERS) for item in session.items
    ):
        return
    # The stale-cache checks run here, once, before the processes share the cache.
    importlib.import_module("pachisi.fast._jit")

    began = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        for code in GROUPS
    ]
    failed = []
    for code, proc in zip(GROUPS, procs, strict=True):
        _, err = proc.communicate()
        if proc.returncode:
            failed.append(f"{code}\n{err.decode(errors='replace')}")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"compiled engine: kernels ready in {time.perf_counter() - began:.0f} s"
            + (f"; failed to compile, left to the tests:\n{''.join(failed)}" if failed else "")
        )
