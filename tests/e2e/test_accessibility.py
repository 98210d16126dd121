"""axe-core reports no serious or critical violation on the pages (issue 21, item 7)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.accessibility import assert_accessible
from tests.e2e.conftest import CHROMIUM
from tests.e2e.server import Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


def test_the_lobby_is_accessible(context: Any, server: Server) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_load_state("networkidle")
    assert_accessible(page, "the lobby")
