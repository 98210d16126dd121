"""The cluster harness itself: nginx runs deploy/nginx.conf, answers for the instances,
spreads requests over them, carries the WebSocket, and skips an instance that died.

The tests share one cluster (the module's fixture) and run in order; the last one kills
instances and restarts them, leaving the cluster as it found it.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.cluster.harness import (
    DEPLOY_NGINX_CONF,
    HARNESS_HTTP,
    Cluster,
    harness_config,
    nginx_command,
)

_ADDRESS_LINE = re.compile(r"\s*(server\s+\S+:\d+\b|listen\b)")


def _without_addresses(text: str) -> list[str]:
    return [line for line in text.splitlines() if not _ADDRESS_LINE.match(line)]


def _new_game(base: str) -> dict[str, Any]:
    body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    response = httpx.post(f"{base}/api/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def test_the_harness_runs_deploy_config_with_other_addresses_only() -> None:
    deployed = DEPLOY_NGINX_CONF.read_text()
    ours = harness_config(deployed, ["127.0.0.1:1", "127.0.0.1:2"], "127.0.0.1:3")
    added = HARNESS_HTTP.splitlines()
    ours_lines = _without_addresses(ours)
    start = ours_lines.index(added[0])
    assert ours_lines[start : start + len(added)] == added
    del ours_lines[start : start + len(added)]
    assert ours_lines == _without_addresses(deployed)
    assert "        server 127.0.0.1:2 max_fails=1 fail_timeout=5s;" in ours.splitlines()
    assert "        listen 127.0.0.1:3;" in ours.splitlines()


def test_deploy_config_passes_nginx_check(nginx: Path, tmp_path: Path) -> None:
    for sub in ("logs", "temp"):
        (tmp_path / sub).mkdir()
    config = tmp_path / "nginx.conf"
    config.write_text(
        harness_config(DEPLOY_NGINX_CONF.read_text(), ["127.0.0.1:9"], "127.0.0.1:8080")
    )
    checked = subprocess.run(
        [*nginx_command(tmp_path, config), "-t"], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr


def test_lobby_and_meta_answer_through_nginx(cluster: Cluster) -> None:
    lobby = httpx.get(f"{cluster.url}/", timeout=10)
    assert lobby.status_code == 200
    assert lobby.headers["content-type"].startswith("text/html")
    meta = httpx.get(f"{cluster.url}/api/meta", timeout=10)
    assert meta.status_code == 200
    assert "classic" in [ruleset["name"] for ruleset in meta.json()["rulesets"]]


def test_requests_go_round_robin_over_every_instance(cluster: Cluster) -> None:
    for url in cluster.instance_urls:
        assert httpx.get(f"{url}/api/meta", timeout=10).status_code == 200
    with httpx.Client(base_url=cluster.url, timeout=10) as client:
        answered = [cluster.instance_of(client.get("/api/meta")) for _ in range(6)]
    assert sorted(answered) == [0, 0, 1, 1, 2, 2]
    assert len(set(answered[:3])) == 3


def test_a_game_made_through_nginx_is_in_the_shared_database(cluster: Cluster) -> None:
    made = _new_game(cluster.url)
    for url in cluster.instance_urls:
        response = httpx.get(f"{url}/api/games/{made['id']}", timeout=10)
        assert response.status_code == 200, (url, response.text)


def test_websocket_through_nginx_gets_the_snapshot_from_every_instance(
    cluster: Cluster,
) -> None:
    made = _new_game(cluster.url)
    ws_url = cluster.url.replace("http://", "ws://")
    token = made["links"][0]["token"]
    served = set()
    for _ in range(3):
        with connect(f"{ws_url}/ws/games/{made['id']}?token={token}", open_timeout=10) as ws:
            message = json.loads(ws.recv(timeout=10))
            assert ws.response is not None
            served.add(cluster.instance_of_header(ws.response.headers))
        assert message["type"] == "snapshot"
        assert message["version"] == 0
    assert served == {0, 1, 2}


def test_a_killed_instance_is_skipped_and_a_restarted_one_comes_back(cluster: Cluster) -> None:
    old_pids = cluster.pids
    try:
        cluster.kill9(0)
        cluster.kill9(1)
        assert cluster.pids[:2] == [None, None]
        with pytest.raises(httpx.TransportError):
            httpx.get(f"{cluster.instance_urls[0]}/api/meta", timeout=2)
        with httpx.Client(base_url=cluster.url, timeout=10) as client:
            for _ in range(6):
                response = client.get("/api/meta")
                assert response.status_code == 200
                assert cluster.instance_of(response) == 2
            made = client.post("/api/games", json={"seats": [{"kind": "human"}] * 4})
            assert made.status_code == 201 and cluster.instance_of(made) == 2
        cluster.restart(0)
        cluster.restart(1)
        assert cluster.pids[0] not in (None, old_pids[0])
        for url in cluster.instance_urls:
            assert httpx.get(f"{url}/api/meta", timeout=10).status_code == 200
        # nginx tries an instance again once fail_timeout (5 s) has passed since it failed.
        deadline = time.monotonic() + 15
        answered: set[int] = set()
        with httpx.Client(base_url=cluster.url, timeout=10) as client:
            while answered != {0, 1, 2}:
                assert time.monotonic() < deadline, f"only instances {answered} answer again"
                response = client.get(f"/api/games/{made.json()['id']}")
                assert response.status_code == 200
                answered.add(cluster.instance_of(response))
                time.sleep(0.1)
    finally:
        for i, pid in enumerate(cluster.pids):
            if pid is None:
                cluster.restart(i)
