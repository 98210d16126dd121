"""Without the compiled extension (a platform with no C compiler: issue 22, item 2),
``pachisi`` still imports, the reference engine plays, and the compiled features say what
is missing and what to do. Each case runs in a fresh interpreter in which importing
``pachisi.fast._core`` fails, as it does where the build skipped the extension."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).parents[2] / "src"
ENV = {**os.environ, "PYTHONPATH": str(SRC)}

# A None entry in sys.modules makes `import pachisi.fast._core` raise ImportError.
PRELUDE = (
    "import sys; sys.modules['pachisi.fast._core'] = sys.modules['pachisi.ai._compiled'] = None\n"
)


def run(code: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter without the extensions, ``argv`` its arguments."""
    return subprocess.run(
        [sys.executable, "-c", PRELUDE + code, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
        check=False,
    )


def test_the_compiled_engine_explains_that_it_is_not_built() -> None:
    done = run("import pachisi.fast.batch")
    assert done.returncode != 0
    assert "CompiledEngineMissing" in done.stderr
    assert "not built in this installation" in done.stderr
    assert "C compiler" in done.stderr and "docs/install.md" in done.stderr


def test_the_compiled_players_explain_it_too() -> None:
    code = (
        "from pachisi.ai import make_player\n"
        "from pachisi.game import Game\n"
        "import random\n"
        "game, rng = Game('classic'), random.Random(3)\n"
        "while game.current_player() < 0:\n"
        "    game.throw(rng)\n"
        "make_player('expert').choose(game.state, random.Random(1))\n"
    )
    done = run(code)
    assert done.returncode != 0
    assert "CompiledEngineMissing" in done.stderr
    assert "pachisi.ai._compiled" in done.stderr and "not built" in done.stderr


def test_pachisi_and_the_reference_engine_work_without_it() -> None:
    code = (
        "import random, pachisi\n"
        "from pachisi.game import Game\n"
        "from pachisi.simulate import simulate\n"
        "from pachisi.ai import make_player\n"
        "from pachisi.rules.ruleset import get_ruleset\n"
        "s = simulate(get_ruleset('classic'), 2, 1, [make_player('greedy')] * 4)\n"
        "print(s.games, sys.modules.get('pachisi.fast._core', 'absent'))\n"
    )
    done = run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "None"]


def test_simulate_falls_back_to_the_reference_engine_or_refuses_an_explicit_fast() -> None:
    cli = "from pachisi.cli import main; sys.exit(main(sys.argv[1:]))"
    argv = ["simulate", "--games", "2", "--seed", "1", "--json"]
    done = run(cli, *argv)
    assert done.returncode == 0, done.stderr
    assert "not built" in done.stderr and "playing with the reference engine" in done.stderr
    assert '"games": 2' in done.stdout
    done = run(cli, *argv, "--engine", "fast")
    assert done.returncode == 2
    assert "--engine fast" in done.stderr and "not built" in done.stderr
