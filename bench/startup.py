"""How long pachisi takes to start (issue 22, item 3), each case in a fresh process.

- ``simulate``: ``pachisi simulate --games 100 --engine fast``, the whole command;
- ``env.step``: from process start to the end of the first ``env.step`` of the Gymnasium
  environment (``pachisi.env.PachisiEnv``);
- ``expert``: from process start to the end of ``expert``'s first decision on a new
  classic game (``pachisi.ai.make_player("expert")``);
- ``--help``, ``rules classic``, ``play``: the command (``play`` answers ``quit`` at its
  first prompt), with the compiled modules it imported.

"From process start" is the parent's monotonic clock just before the child is started
(Linux's CLOCK_MONOTONIC is one clock for all processes), so it includes the interpreter's
own start-up. Each case runs ``--repeat`` times; the table shows the median, the fastest
and the slowest. The compiled core is built ahead of time (setup.py), so the first run
after an install costs what every run costs: there is no cache to fill.

    .venv/bin/python bench/startup.py [--repeat N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

COMPILED = ("pachisi.fast._core", "pachisi.ai._compiled")
"""The compiled modules whose loading the commands are checked for."""

# Runs the console script's entry point (pyproject's [project.scripts]) with ARGV and,
# however it ends, writes the COMPILED modules it imported to REPORT. Its stdin is the
# parent's pipe.
COMMAND = """\
import atexit, json, sys
argv, report, compiled = json.loads(sys.argv[1])

def dump():
    found = sorted(
        name for name in compiled
        if any(m == name or m.startswith(name + ".") for m in sys.modules)
    )
    with open(report, "w") as f:
        json.dump(found, f)

atexit.register(dump)
sys.argv = ["pachisi", *argv]
from pachisi.__main__ import main
sys.exit(main())
"""

ENV_STEP = """\
import time
import numpy as np
from pachisi.env import PachisiEnv
env = PachisiEnv("classic")
obs, info = env.reset(seed=0)
env.step(int(np.flatnonzero(obs["action_mask"])[0]))
print(time.monotonic())
"""

EXPERT = """\
import random, time
from pachisi.ai import make_player
from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import get_ruleset
from pachisi.rules.state import CHANCE
ruleset = get_ruleset("classic")
rng = random.Random(0)
state = engine.new_game(ruleset)
while engine.current_player(state) == CHANCE or len(engine.legal_actions(state)) < 2:
    if engine.current_player(state) == CHANCE:
        k = cowries.throw(rng, ruleset.cowries, ruleset.p_mouth_up)
        state, _ = engine.apply_chance(state, k)
    else:
        state, _ = engine.apply_action(state, engine.legal_actions(state)[0])
player = make_player("expert")
start = time.monotonic()
player.choose(state, rng)
print(time.monotonic(), time.monotonic() - start)
"""


def run(args: list[str], env: dict[str, str], stdin: str = "") -> tuple[float, str]:
    """Runs a child to the end: (seconds from its start, its standard output)."""
    start = time.monotonic()
    done = subprocess.run(
        args, input=stdin, capture_output=True, text=True, env=env, cwd=ROOT, check=False
    )
    seconds = time.monotonic() - start
    if done.returncode != 0:
        raise SystemExit(f"bench/startup.py: {' '.join(args)} failed:\n{done.stderr}")
    return seconds, done.stdout


def until_printed(script: str, env: dict[str, str]) -> tuple[float, list[float]]:
    """Runs a script that prints the monotonic clock when it is done (and more figures):
    the seconds from its start to then, and the other figures."""
    start = time.monotonic()
    _, out = run([sys.executable, "-c", script], env)
    stamp, *rest = (float(x) for x in out.split())
    return stamp - start, rest


def command(argv: list[str], env: dict[str, str], stdin: str = "") -> tuple[float, list[str]]:
    """``pachisi ARGV`` as the console script runs it: seconds and compiled modules loaded."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "modules.json"
        payload = json.dumps([argv, str(report), list(COMPILED)])
        seconds, _ = run([sys.executable, "-c", COMMAND, payload], env, stdin)
        modules: list[str] = json.loads(report.read_text())
    return seconds, modules


def measure(repeat: int, env: dict[str, str]) -> list[dict[str, Any]]:
    """Every case, ``repeat`` times each, in fresh processes."""
    rows: list[dict[str, Any]] = []

    def add(case: str, seconds: list[float], **more: Any) -> None:
        rows.append(
            {
                "case": case,
                "median_s": statistics.median(seconds),
                "min_s": min(seconds),
                "max_s": max(seconds),
                "runs": len(seconds),
                **more,
            }
        )

    simulate = [str(BIN / "pachisi"), "simulate", "--games", "100", "--engine", "fast"]
    add("pachisi simulate --games 100", [run(simulate, env)[0] for _ in range(repeat)])
    add("first env.step", [until_printed(ENV_STEP, env)[0] for _ in range(repeat)])
    expert = [until_printed(EXPERT, env) for _ in range(repeat)]
    add(
        "expert's first decision",
        [total for total, _ in expert],
        decision_s=statistics.median(rest[0] for _, rest in expert),
    )
    with tempfile.TemporaryDirectory() as tmp:
        save = str(Path(tmp) / "game.pgn")
        commands = {
            "pachisi --help": (["--help"], ""),
            "pachisi rules classic": (["rules", "classic"], ""),
            "pachisi play (prompt, quit)": (
                ["play", "--seed", "3", "--save", save],
                "quit\n",
            ),
        }
        for case, (argv, stdin) in commands.items():
            runs = [command(argv, env, stdin) for _ in range(repeat)]
            add(case, [s for s, _ in runs], compiled=sorted({m for _, ms in runs for m in ms}))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each case (default 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    rows = measure(args.repeat, env)
    command_line = "$ .venv/bin/python bench/startup.py " + " ".join(sys.argv[1:])
    if args.json:
        python = sys.version.split()[0]
        report = {"command": command_line.removeprefix("$ "), "python": python, "cases": rows}
        print(json.dumps(report, indent=2))
        return 0
    table = Table(title=f"start-up, each run in a fresh process ({args.repeat} runs)")
    for column in ("case", "median s", "fastest s", "slowest s", "compiled modules imported"):
        table.add_column(column, justify="right" if " s" in column else "left")
    for row in rows:
        extra = row.get("compiled")
        modules = "" if extra is None else (", ".join(extra) or "none")
        if "decision_s" in row:
            modules = f"(the decision itself: {row['decision_s']:.2f} s)"
        table.add_row(
            row["case"],
            f"{row['median_s']:.2f}",
            f"{row['min_s']:.2f}",
            f"{row['max_s']:.2f}",
            modules,
        )
    console = Console(width=110)
    console.print(command_line)
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
