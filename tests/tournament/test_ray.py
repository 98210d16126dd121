"""Tournaments on Ray (``pachisi tournament --ray``, :mod:`pachisi.tournament.ray_backend`).

Against a stand-in for the ``ray`` module: the results come back in the order of the games
whatever order they finish in, a few games per CPU are in flight, only a Ray started here is
stopped, and a failure leaves no game running. Against real Ray: a cluster whose head is at
``PACHISI_TEST_RAY_ADDRESS`` (``.ci/run`` starts one on loopback) and a local Ray that
``--ray`` starts and stops give the same JSON as a run here; and bad input (no Ray
installed, ``--workers`` with a cluster, an address that is none, a head out of reach) is
one line and exit 2 before any game.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pachisi.cli import main
from pachisi.rules.ruleset import get_ruleset
from pachisi.tournament import ray_backend
from pachisi.tournament import run as run_module
from pachisi.tournament.ray_backend import RayError, run_games_on_ray
from pachisi.tournament.run import GameResult, run_games
from pachisi.tournament.schedule import make_schedule

ADDRESS = os.environ.get("PACHISI_TEST_RAY_ADDRESS", "")
"""A running Ray cluster's head, host:port; .ci/run starts one and sets this."""
ARGV = (
    "tournament",
    "--players",
    "random,greedy",
    "--ruleset",
    "classic",
    "--games",
    "4",
    "--seed",
    "3",
    "--json",
)
PACHISI = [sys.executable, "-m", "pachisi.cli"]
CLASSIC = get_ruleset("classic")


# --------------------------------------------------------------------------- a stand-in


class FakeRay(types.ModuleType):
    """Enough of ``ray`` for the backend: tasks run when submitted and are handed back by
    ``wait`` last first, so games finish in the reverse of the order they were sent."""

    def __init__(self, *, connected: bool = False, cpus: int = 2) -> None:
        super().__init__("ray")
        self.connected = connected
        self.cpus = cpus
        self.calls: list[tuple[str, Any]] = []
        self.outcomes: dict[object, Callable[[], GameResult]] = {}
        self.in_flight = 0
        self.most_in_flight = 0
        self.cancelled = 0

    def is_initialized(self) -> bool:
        return self.connected

    def init(self, address: str | None = None, **options: Any) -> None:
        self.calls.append(("init", {"address": address, **options}))
        self.calls.append(("usage stats", os.environ.get("RAY_USAGE_STATS_ENABLED")))
        self.connected = True

    def shutdown(self, **options: Any) -> None:
        self.calls.append(("shutdown", options))
        self.connected = False

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": float(self.cpus), "memory": 1e9}

    def remote(self, **options: Any) -> Callable[[Callable[..., GameResult]], Any]:
        assert options == {"num_cpus": 1}
        fake = self

        def wrap(function: Callable[..., GameResult]) -> Any:
            class Task:
                @staticmethod
                def remote(*args: Any) -> object:
                    ref = object()
                    fake.outcomes[ref] = lambda: function(*args)
                    fake.in_flight += 1
                    fake.most_in_flight = max(fake.most_in_flight, fake.in_flight)
                    return ref

            return Task

        return wrap

    def wait(self, refs: list[object], *, num_returns: int) -> tuple[list[object], list[object]]:
        assert num_returns == 1
        return [refs[-1]], refs[:-1]

    def get(self, ref: object) -> GameResult:
        self.in_flight -= 1
        return self.outcomes.pop(ref)()

    def cancel(self, ref: object) -> None:
        self.cancelled += 1


@pytest.fixture
def fake_ray(monkeypatch: pytest.MonkeyPatch) -> FakeRay:
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.delenv("RAY_USAGE_STATS_ENABLED", raising=False)
    return fake


@pytest.fixture
def listening() -> Iterator[str]:
    """An address on loopback that accepts connections (and is no Ray)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield f"127.0.0.1:{server.getsockname()[1]}"


@pytest.fixture
def refusing() -> Iterator[str]:
    """An address on loopback that refuses connections: bound, not listening."""
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        yield f"127.0.0.1:{bound.getsockname()[1]}"


def test_results_come_in_the_order_of_the_games_whatever_order_they_finish_in(
    fake_ray: FakeRay,
) -> None:
    plan = make_schedule(["greedy", "random", "random"], CLASSIC, games=6, seed=8)
    calls: list[tuple[int, int]] = []
    got = run_games_on_ray(plan.specs, progress=lambda done, total: calls.append((done, total)))
    assert got == run_games(plan.specs)
    total = len(plan.specs)
    assert calls == [(done, total) for done in range(1, total + 1)]
    assert fake_ray.most_in_flight == 4 * fake_ray.cpus < total
    assert fake_ray.in_flight == 0


def test_a_local_ray_is_started_quietly_for_the_run_and_stopped(fake_ray: FakeRay) -> None:
    plan = make_schedule(["greedy", "random"], CLASSIC, games=2, seed=1)
    run_games_on_ray(plan.specs, num_cpus=3)
    assert fake_ray.calls == [
        (
            "init",
            {
                "address": "local",
                "num_cpus": 3,
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.ERROR,
            },
        ),
        ("usage stats", "0"),
        ("shutdown", {"wait_for_processes": True}),
    ]
    assert "RAY_USAGE_STATS_ENABLED" not in os.environ


def test_a_users_choice_of_usage_statistics_is_kept(
    fake_ray: FakeRay, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "1")
    run_games_on_ray(make_schedule(["greedy", "random"], CLASSIC, games=2, seed=1).specs)
    assert ("usage stats", "1") in fake_ray.calls
    assert os.environ["RAY_USAGE_STATS_ENABLED"] == "1"


def test_a_cluster_is_connected_to_and_only_left(fake_ray: FakeRay, listening: str) -> None:
    run_games_on_ray(
        make_schedule(["greedy", "random"], CLASSIC, games=2, seed=1).specs, address=listening
    )
    init, usage, shutdown = fake_ray.calls
    assert init == (
        "init",
        {"address": listening, "log_to_driver": False, "logging_level": logging.ERROR},
    )
    assert usage == ("usage stats", None)
    assert shutdown == ("shutdown", {"wait_for_processes": False})


def test_a_ray_already_connected_is_used_and_left_connected() -> None:
    fake = FakeRay(connected=True)
    plan = make_schedule(["greedy", "random"], CLASSIC, games=2, seed=1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "ray", fake)
        assert run_games_on_ray(plan.specs) == run_games(plan.specs)
    assert fake.calls == [] and fake.connected


def test_a_failing_game_cancels_the_others_and_stops_the_ray(
    fake_ray: FakeRay, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(spec: object) -> GameResult:
        raise RuntimeError("a bug in a player")

    monkeypatch.setattr(ray_backend, "play", broken)
    plan = make_schedule(["greedy", "random", "random"], CLASSIC, games=4, seed=1)
    with pytest.raises(RuntimeError, match="a bug in a player"):
        run_games_on_ray(plan.specs)
    assert fake_ray.cancelled == 4 * fake_ray.cpus - 1
    assert fake_ray.calls[-1] == ("shutdown", {"wait_for_processes": True})


def test_a_cluster_with_another_token_is_explained(fake_ray: FakeRay, listening: str) -> None:
    def refuse(address: str | None = None, **options: Any) -> None:
        try:
            raise RuntimeError("Failed to connect to GCS: InvalidAuthToken: missing")
        except RuntimeError as exc:
            raise ConnectionError(f"Failed to connect to Ray cluster at {address}") from exc

    fake_ray.init = refuse  # type: ignore[method-assign]
    with pytest.raises(RayError, match=r"authentication token.*RAY_AUTH_MODE=token"):
        run_games_on_ray([], address=listening)


def test_a_head_out_of_reach_is_not_waited_for(fake_ray: FakeRay, refusing: str) -> None:
    with pytest.raises(RayError, match=f"cannot reach the Ray cluster at {refusing}"):
        run_games_on_ray([], address=refusing)
    assert [name for name, _ in fake_ray.calls] == ["shutdown"]


def test_a_start_cut_short_still_stops_what_it_started(fake_ray: FakeRay) -> None:
    def interrupted(address: str | None = None, **options: Any) -> None:
        raise KeyboardInterrupt

    fake_ray.init = interrupted  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        run_games_on_ray([])
    assert fake_ray.calls == [("shutdown", {"wait_for_processes": True})]


def test_a_cluster_has_its_own_cpus() -> None:
    with pytest.raises(ValueError, match="num_cpus"):
        run_games_on_ray([], address="127.0.0.1:6379", num_cpus=2)


@pytest.mark.parametrize("address", ["", "localhost", "host:port", "host:70000", "a b:1"])
def test_what_is_not_an_address(address: str) -> None:
    with pytest.raises(RayError, match="is not a Ray address"):
        ray_backend.parse_address(address)


def test_neither_import_pachisi_nor_the_help_loads_ray() -> None:
    code = (
        "import sys, pachisi, pachisi.tournament; from pachisi.cli import main; "
        "code = main(['tournament', '--help']); print(code, 'ray' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.splitlines()[-1] == "0 False"


# --------------------------------------------------------------------------- the command


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_exit_2(code: int, out: str, err: str, words: str) -> None:
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert words in lines[0]


@pytest.fixture
def no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(run_module, "play", refuse)
    monkeypatch.setattr(ray_backend, "play", refuse)


@pytest.mark.usefixtures("no_game")
def test_without_ray_installed_the_command_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    for ray in (("--ray",), ("--ray", "127.0.0.1:6379")):
        assert_one_line_exit_2(
            *run(capsys, *ARGV, *ray), "--ray: Ray is not installed: pip install 'pachisi[ray]'"
        )


@pytest.mark.usefixtures("no_game")
@pytest.mark.parametrize(
    ("ray", "words"),
    [
        (("--ray", "127.0.0.1:6379", "--workers", "2"), "--workers sets the CPUs of a local Ray"),
        (("--ray=",), "--ray: '' is not a Ray address"),
        (("--ray", "localhost"), "--ray: 'localhost' is not a Ray address"),
    ],
)
def test_bad_ray_options_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], ray: tuple[str, ...], words: str
) -> None:
    assert_one_line_exit_2(*run(capsys, *ARGV, *ray), words)


# --------------------------------------------------------------------------- real Ray


def pachisi(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PACHISI, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
        check=False,
    )


def without_timing(out: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(out)
    data.pop("seconds")
    return data


@pytest.fixture(scope="module")
def here() -> dict[str, Any]:
    """The tournament's JSON, played in this process."""
    proc = pachisi(*ARGV)
    assert proc.returncode == 0, proc.stderr
    return without_timing(proc.stdout)


def test_a_head_out_of_reach_is_one_line_and_exit_2(refusing: str) -> None:
    pytest.importorskip("ray")
    proc = pachisi(*ARGV, "--ray", refusing)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == (
        f"pachisi: error: --ray: cannot reach the Ray cluster at {refusing}: Connection refused"
    )


def test_a_cluster_gives_the_same_results_as_here(here: dict[str, Any]) -> None:
    if not ADDRESS:
        if os.environ.get("CI"):
            pytest.fail("CI must run this: .ci/run starts a Ray and sets PACHISI_TEST_RAY_ADDRESS")
        pytest.skip("no Ray cluster: set PACHISI_TEST_RAY_ADDRESS=host:port (.ci/run does)")
    proc = pachisi(*ARGV, "--ray", ADDRESS)
    assert proc.returncode == 0, proc.stderr
    assert without_timing(proc.stdout) == here
    assert proc.stderr == ""


def _ray_processes() -> set[int]:
    """The Ray daemons running on this machine (each Ray has one raylet, one GCS)."""
    if not Path("/proc").is_dir():
        pytest.skip("no /proc to list the processes in")
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            name = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if name in ("raylet", "gcs_server"):
            found.add(int(entry.name))
    return found


def test_a_local_ray_is_started_for_the_run_and_gives_the_same_results(
    here: dict[str, Any],
) -> None:
    pytest.importorskip("ray")
    before = _ray_processes()
    # RAY_ADDRESS points nowhere: the local Ray must not look for a cluster.
    proc = pachisi(*ARGV, "--ray", "--workers", "2", RAY_ADDRESS="127.0.0.1:1")
    assert proc.returncode == 0, proc.stderr
    assert without_timing(proc.stdout) == here
    assert proc.stderr == ""
    assert _ray_processes() <= before
