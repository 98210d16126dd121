"""The ``cluster`` fixture: three ``pachisi serve`` instances over a fresh database on the
PostgreSQL server that ``PACHISI_TEST_DATABASE_URL`` names (.ci/run starts one), behind
Debian's nginx (tests/cluster/harness.py). Without either, the tests that use it skip."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.harness import DATABASE_VARIABLE, NGINX, Cluster, scratch_database


@pytest.fixture(scope="session")
def nginx() -> Path:
    """Debian's nginx binary; skips the test when it is not installed."""
    if not NGINX.exists():
        pytest.skip(f"{NGINX} is not installed: no nginx (scripts/setup dev installs it as root)")
    return NGINX


@pytest.fixture(scope="module")
def cluster(nginx: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three instances and nginx, shared by a module's tests (they take seconds to start);
    the logs stay in pytest's temporary directory."""
    url = os.environ.get(DATABASE_VARIABLE)
    if not url:
        pytest.skip(f"{DATABASE_VARIABLE} is not set: no PostgreSQL for the instances to share")
    directory = tmp_path_factory.mktemp("cluster")
    with scratch_database(url) as database, Cluster(database, 3, directory=directory) as started:
        yield started
