"""The scripts of examples/ run, each on a small size, and print what docs/examples.md says
(issue 47, item 3). Each runs as a user would run it: a subprocess of this Python, from the
project's root, with the plots written to the test's own directory."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.e2e.server import Server

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
TESTED = {
    "play_game",
    "my_player",
    "gym_agents",
    "vector_env",
    "learning_agent",
    "explore_switches",
    "websocket_client",
    "maskable_ppo",
}
RATE = r"(\d\.\d\d)"


def run(name: str, *args: str, timeout: float = 100) -> str:
    """Run ``examples/NAME.py`` with ``args``; its standard output (it must exit 0)."""
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / f"{name}.py"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, f"{name} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


def assert_png(path: Path) -> None:
    """``path`` is a whole PNG image of a plot's size."""
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
    with Image.open(path) as image:
        assert image.format == "PNG"
        image.verify()  # the chunks and their checksums
    with Image.open(path) as image:
        image.load()  # the pixels decode
        width, height = image.size
    assert width >= 400 and height >= 200


def test_every_example_is_tested() -> None:
    assert {path.stem for path in EXAMPLES.glob("*.py")} == TESTED


def test_play_game_plays_a_whole_game_and_says_who_won() -> None:
    out = run("play_game", "--show", "3", "--board-every", "300")
    lines = out.splitlines()
    assert lines[0] == "ruleset classic"
    assert lines[1] == "start   0,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 o0 1 classic"
    assert sum(" legal: " in line for line in lines) == 3
    assert sum(re.match(r"  seat \d plays \S+: ", line) is not None for line in lines) == 3
    assert "after 300 throws and actions:" in lines
    assert any(line.startswith("Charkoni:") for line in lines)  # the board's waiting area
    assert re.search(r"^final position \S+ .*winner=0", out, re.MULTILINE)
    assert re.search(r"^\d+ throws and \d+ actions$", out, re.MULTILINE)
    assert lines[-1] == "outcome: team 0 (seats 0 and 2) wins"


def test_play_game_stops_at_its_step_cap() -> None:
    out = run("play_game", "--ruleset", "ludii", "--max-steps", "40", "--show", "0")
    assert "legal:" not in out
    assert out.splitlines()[-1] == "outcome: unfinished after 40 steps (--max-steps)"


def test_my_player_enters_a_tournament_and_prints_the_standings() -> None:
    out = run("my_player", "--games", "2", "--levels", "easy")
    assert out.splitlines()[0] == "2 games: lookahead, easy under classic"
    assert re.search(r"^player +games +wins +draws +win rate", out, re.MULTILINE)
    rows = re.findall(r"^(lookahead|easy) +2 +(\d) +(\d) ", out, re.MULTILINE)
    assert sorted(name for name, _, _ in rows) == ["easy", "lookahead"]
    assert sum(int(wins) + int(draws) for _, wins, draws in rows) <= 2
    assert re.search(r"^lookahead vs easy ", out, re.MULTILINE)
    assert re.search(r"^Elo +rating", out, re.MULTILINE)


def test_gym_agents_report_win_rates_in_both_environments() -> None:
    out = run("gym_agents", "--games", "2")
    found = re.findall(rf"^(\w+) +(random|greedy) agent vs random: win rate {RATE}", out, re.M)
    assert [(env, agent) for env, agent, _ in found] == [
        ("gymnasium", "random"),
        ("gymnasium", "greedy"),
        ("pettingzoo", "random"),
        ("pettingzoo", "greedy"),
    ]
    rates = {(env, agent): float(rate) for env, agent, rate in found}
    assert all(rate in (0.0, 0.5, 1.0) for rate in rates.values())  # 2 games each
    # Greedy beats random players nearly always (docs/tournament.md: 99 games in 100).
    assert rates["gymnasium", "greedy"] == rates["pettingzoo", "greedy"] == 1.0


def test_vector_env_prints_its_speed_and_the_games() -> None:
    out = run("vector_env", "--envs", "64", "--steps", "300")
    assert out.splitlines()[0] == "64 games of classic, 300 steps, 1 thread(s)"
    speeds = re.findall(
        r"^(?:env\.step alone|with the random choices): +([\d,]+) steps/s$", out, re.M
    )
    assert len(speeds) == 2 and all(int(s.replace(",", "")) > 0 for s in speeds)
    assert int(speeds[0].replace(",", "")) >= int(speeds[1].replace(",", ""))
    ended = re.search(r"^(\d+) games finished: team 0 won (\d+) \((\S+)\), lost (\d+)", out, re.M)
    assert ended is not None and int(ended.group(1)) > 0


def test_learning_agent_learns_to_beat_random_and_saves_its_curve(tmp_path: Path) -> None:
    curve = tmp_path / "curve.png"
    out = run("learning_agent", "--games", "300", "--eval-games", "100", "--out", str(curve))
    found = re.search(rf"^win rate before {RATE}, after {RATE}$", out, re.MULTILINE)
    assert found, out
    before, after = float(found.group(1)), float(found.group(2))
    # Untrained, the policy is uniform over the legal actions: the random player's even
    # chance. The seeds are fixed, so this is the same run every time (0.52, then 0.92).
    assert 0.35 <= before <= 0.65
    assert after >= before + 0.25
    assert f"learning curve saved to {curve}" in out
    assert_png(curve)


def test_explore_switches_measures_the_grid_and_plots_it(tmp_path: Path) -> None:
    plot = tmp_path / "switches.png"
    out = run("explore_switches", "--games", "40", "--out", str(plot))
    assert out.splitlines()[0].startswith("6 variants, 40 games each, ")
    rows = re.findall(
        r"^moves_compulsory=(\w+) +castle_mode=(\w+) +throws +(\d+) +captures +([\d.]+) +"
        r"comebacks +([\d.]+)%$",
        out,
        re.MULTILINE,
    )
    assert [(a, b) for a, b, *_ in rows] == [
        (first, second) for first in ("false", "true") for second in ("block", "coexist", "inert")
    ]
    throws = {(a, b): int(t) for a, b, t, *_ in rows}
    # Random players decline about half their throws; when moves are compulsory they
    # cannot, and a game takes far fewer throws.
    assert all(throws["true", c] < 0.8 * throws["false", c] for c in ("block", "coexist", "inert"))
    assert out.splitlines()[-1] == f"plot saved to {plot}"
    assert_png(plot)


def test_websocket_client_plays_a_game_against_a_real_server_to_its_end(tmp_path: Path) -> None:
    # The browser tests' server: `pachisi serve` on a free loopback port, over a new SQLite
    # file, computer seats playing at once; no limit on the client's message rate, which
    # would otherwise pace a game to 10 messages a second.
    server = Server(
        f"sqlite:///{tmp_path / 'games.db'}",
        tmp_path / "server.log",
        ("--commands-burst", "100000", "--commands-per-second", "100000"),
    )
    server.start()
    try:
        out = run(
            "websocket_client",
            "--url",
            server.url,
            "--computer",
            "random",
            # The historical ruleset with the shortest games: the test waits for the end.
            "--ruleset",
            "herklots-7",
            "--verbose",
            "3",
            timeout=100,
        )
    finally:
        server.stop()
    lines = out.splitlines()
    found = re.fullmatch(r"game (\S+): we are seat 0, against 3 x random", lines[0])
    assert found, out
    assert lines[1] == f"watch it in a browser: {server.url}/game/{found.group(1)}"
    assert sum("; we play " in line for line in lines) == 3
    assert re.search(r"^game over after \d+ moves, [\d.]+ s$", out, re.MULTILINE)
    assert re.search(r"^result: (team [01] \(seats \d and \d\) wins|.*draw.*) \(we ", out, re.M)
    assert re.search(r"^final position: \S+ .*winner=", out, re.MULTILINE)


def test_maskable_ppo_trains_on_the_environment_as_it_is() -> None:
    pytest.importorskip(
        "sb3_contrib",
        reason="sb3-contrib is not installed: the `train` extra (pip install -e '.[train]')",
    )
    out = run("maskable_ppo", "--steps", "256", "--eval-games", "2", timeout=110)
    assert re.search(r"^trained MaskablePPO for 256 steps in [\d.]+ s$", out, re.MULTILINE)
    rates = re.findall(rf"^  (random legal actions|MaskablePPO) +{RATE}$", out, re.MULTILINE)
    assert [name for name, _ in rates] == ["random legal actions", "MaskablePPO"]
    assert all(0.0 <= float(rate) <= 1.0 for _, rate in rates)
