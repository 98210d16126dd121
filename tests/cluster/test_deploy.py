"""deploy/: the compose file, the Dockerfile and nginx.conf fit together (docs/deploy.md).

Nothing here runs a container (CI has none); the files are read and compared: nginx's
upstream is the compose file's instances on the port the image serves on, the address
the instances trust is nginx's, and every flag the compose file passes is one that
``pachisi serve`` has.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.harness import DEPLOY_NGINX_CONF, serve_flags

DEPLOY = DEPLOY_NGINX_CONF.parent
INSTANCES = ("pachisi1", "pachisi2", "pachisi3")
PENDING_FLAGS = frozenset({"--instance", "--trusted-proxy"})
"""Flags of the multi-instance work that ``pachisi serve`` may not have yet (the instance's
name in the database's leases, and the proxy whose forwarded headers it believes)."""


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def _image_port() -> int:
    text = (DEPLOY / "Dockerfile").read_text()
    found = re.search(r"^ENTRYPOINT (\[.*\])$", text, re.M)
    assert found is not None
    entrypoint = json.loads(found.group(1))
    assert entrypoint[:4] == ["pachisi", "serve", "--host", "0.0.0.0"]
    return int(entrypoint[entrypoint.index("--port") + 1])


def test_the_image_is_built_from_the_repository_on_python_3_11() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", text, re.M)
    assert re.search(r"^RUN pip install \. ", text, re.M)
    assert re.search(r"^USER pachisi$", text, re.M)
    assert _image_port() == 8000


def test_compose_runs_postgres_three_instances_and_nginx(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"postgres", *INSTANCES, "nginx"}
    for name in INSTANCES:
        assert services[name]["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
        command = services[name]["command"]
        database = command[command.index("--database") + 1]
        assert database.startswith("postgresql://pachisi:") and "@postgres:5432/" in database
        assert command[command.index("--instance") + 1] == name
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in services["nginx"]["volumes"]


def test_nginx_sends_to_the_compose_instances_which_trust_it_alone(
    compose: dict[str, Any],
) -> None:
    upstream = re.search(r"upstream pachisi \{(.*?)\}", DEPLOY_NGINX_CONF.read_text(), re.S)
    assert upstream is not None
    servers = re.findall(r"^\s*server\s+(\S+)", upstream.group(1), re.M)
    assert servers == [f"{name}:{_image_port()}" for name in INSTANCES]
    services = compose["services"]
    nginx_address = services["nginx"]["networks"]["pachisi"]["ipv4_address"]
    for name in INSTANCES:
        command = services[name]["command"]
        assert command[command.index("--trusted-proxy") + 1] == nginx_address


def test_compose_passes_only_flags_that_pachisi_serve_has(compose: dict[str, Any]) -> None:
    used = {
        word
        for name in INSTANCES
        for word in compose["services"][name]["command"]
        if word.startswith("--")
    }
    unknown = used - serve_flags() - PENDING_FLAGS
    assert not unknown, f"deploy/compose.yaml passes flags pachisi serve lacks: {unknown}"


def test_the_instances_healthcheck_asks_the_port_they_serve_on(compose: dict[str, Any]) -> None:
    check = " ".join(compose["services"]["pachisi1"]["healthcheck"]["test"])
    assert f"http://127.0.0.1:{_image_port()}/api/meta" in check


def test_every_deploy_file_is_named_in_the_docs() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    for name in ("compose.yaml", "Dockerfile", "nginx.conf"):
        assert f"deploy/{name}" in docs
