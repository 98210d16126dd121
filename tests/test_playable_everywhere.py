"""R-PLAYABLE-RULESET where a ruleset is read: the command line, the environments and game
records refuse an unplayable ruleset with a message naming the switches (the web lobby's
refusal is in tests/web/test_api.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pachisi.notation import read_position, read_record
from pachisi.rules.ruleset import RulesetError

UNPLAYABLE = "herklots-6+pyada_condition=all_entered"
WORDS = "pyada_condition=all_entered"


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--ruleset", UNPLAYABLE, "--games", "1"],
        ["play", "--ruleset", UNPLAYABLE],
        ["rules", UNPLAYABLE],
        ["moves", f"0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 o0 1 {UNPLAYABLE}"],
    ],
)
def test_the_command_line_refuses_it(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pachisi", *command],
        capture_output=True,
        text=True,
        input="quit\n",
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert WORDS in done.stderr and "Traceback" not in done.stderr


def test_records_and_positions_refuse_it() -> None:
    with pytest.raises(ValueError, match=WORDS):
        read_record(f'[Ruleset "{UNPLAYABLE}"]\n\n*')
    with pytest.raises(ValueError, match=WORDS):
        read_position(f"0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 o0 1 {UNPLAYABLE}")


def test_the_environments_refuse_it() -> None:
    pytest.importorskip("gymnasium")
    from pachisi.env import PachisiAECEnv, PachisiEnv, PachisiVectorEnv

    for make in (
        lambda: PachisiEnv(ruleset=UNPLAYABLE),
        lambda: PachisiAECEnv(ruleset=UNPLAYABLE),
        lambda: PachisiVectorEnv(2, ruleset=UNPLAYABLE),
    ):
        with pytest.raises(RulesetError, match=WORDS):
            make()
