"""The REST API against its own OpenAPI schema: schemathesis generates requests from
``/openapi.json`` (valid ones and invalid ones) and sends them in-process over ASGI to an
app on SQLite, checking that no answer is a server error and that every answer matches
what the schema declares for it.

The runs are deterministic (``derandomize``) and short: a few dozen examples per operation
and kind of request. Each operation is a test of its own, so that a bug found in one is
reported there alone. Two bugs it found are mended: 422 bodies are {"detail": text} as the
schema now declares, and the record is declared text/plain.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode, checks
from schemathesis.python import asgi

from pachisi.web.app import create_app
from pachisi.web.settings import Settings

EXAMPLES = 15
"""Examples per operation and kind of request (the whole module takes about 10 s here)."""

GAME_OPERATIONS = [
    "POST /api/games/{game_id}/seats/{seat}/claim",
    "POST /api/games/{game_id}/seats/{seat}/invite",
    "DELETE /api/games/{game_id}/seats/{seat}/invite",
    "GET /api/games/{game_id}",
    "GET /api/games/{game_id}/record",
    "GET /api/games/{game_id}/history",
    "POST /api/games/{game_id}/review",
]
OPERATIONS = ["GET /api/meta", "GET /api/board", "GET /api/health", "POST /api/games"]
OPERATIONS += ["GET /api/games", "GET /api/rules/{ruleset}"]
OPERATIONS += GAME_OPERATIONS
REVIEW_OPERATIONS = [
    "POST /api/reviews",
    "GET /api/reviews/{review_id}",
    "GET /api/reviews/{review_id}/export",
    "GET /api/reviews/{review_id}/history",
]
OPERATIONS += REVIEW_OPERATIONS
RECORD = "GET /api/games/{game_id}/record"

Check = Callable[[Any, Any, Any], bool | None]


@pytest.fixture
def api_schema(tmp_path: Path) -> Iterator[Any]:
    """The schema of an app over a fresh SQLite file, with ``/openapi.json`` switched on.

    Loading it starts the app's lifespan, which schemathesis keeps running between
    requests: it is stopped here (its pytest plugin would too, but may be switched off).
    """
    app = create_app(
        f"sqlite:///{tmp_path / 'games.db'}", rng=random.Random(1), settings=Settings(openapi=True)
    )
    loaded = schemathesis.openapi.from_asgi("/openapi.json", app)
    try:
        yield loaded
    finally:
        asgi.shutdown_lifespans()


@pytest.fixture
def game_id(api_schema: Any) -> str:
    """A game of the app's: one person's seat and three open ones."""
    with asgi.get_client(api_schema.app) as client:
        seats = [{"kind": "human"}] + [{"kind": "open"}] * 3
        response = client.post("/api/games", json={"seats": seats})
        assert response.status_code == 201, response.text
        created: str = response.json()["id"]
        return created


def _unless(skip: Callable[[Any, Any], bool], check: Check) -> Check:
    """``check``, except on the answers ``skip(response, case)`` picks."""

    def checked(ctx: Any, response: Any, case: Any) -> bool | None:
        return None if skip(response, case) else check(ctx, response, case)

    checked.__name__ = check.__name__
    return checked


def _only(pick: Callable[[Any, Any], bool], check: Check) -> Check:
    return _unless(lambda response, case: not pick(response, case), check)


def _is_422(response: Any, case: Any) -> bool:
    return bool(response.status_code == 422)


def _is_record(response: Any, case: Any) -> bool:
    return bool(case.operation.label == RECORD)


AS_DECLARED = [
    checks.not_a_server_error,
    _unless(_is_422, checks.response_schema_conformance),
    _unless(_is_record, checks.content_type_conformance),
]
"""What every answer must be: no 5xx, its body and content type as declared (but for the
two bugs marked below, which have tests of their own)."""


def _a_seat_of_four(case: Any) -> Any:
    """The case with its seat, if it has a whole number for one, among 0 to 4 (so that
    claims meet the person's seat, open ones, ones taken already, and one too many)."""
    seat = (case.path_parameters or {}).get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        case.path_parameters["seat"] = seat % 5
    return case


def _run(
    schema: Any,
    label: str,
    these: list[Check],
    path_parameters: dict[str, str] | None = None,
    tweak: Callable[[Any], Any] = lambda case: case,
) -> None:
    """Send ``label``'s generated requests, valid and invalid, and check each answer."""
    operation = schema.find_operation_by_label(label)
    assert operation is not None, label
    strategy = st.one_of(
        [operation.as_strategy(mode, path_parameters=path_parameters) for mode in GenerationMode]
    ).map(tweak)

    @given(case=strategy)
    @settings(
        max_examples=EXAMPLES * 2,
        derandomize=True,
        deadline=None,
        database=None,
        # The app is the test's, not the example's; filtering is schemathesis's business.
        suppress_health_check=list(HealthCheck),
    )
    def send(case: Any) -> None:
        case.call_and_validate(checks=these)

    send()


def test_every_operation_of_the_schema_is_tested(api_schema: Any) -> None:
    labels = {result.ok().label for result in api_schema.get_all_operations()}
    assert labels == set(OPERATIONS)


@pytest.mark.parametrize("label", OPERATIONS)
def test_answers_are_as_declared(api_schema: Any, label: str) -> None:
    _run(api_schema, label, AS_DECLARED)


@pytest.mark.parametrize("label", GAME_OPERATIONS)
def test_answers_about_a_game_are_as_declared(api_schema: Any, game_id: str, label: str) -> None:
    _run(api_schema, label, AS_DECLARED, {"game_id": game_id}, tweak=_a_seat_of_four)


@pytest.mark.parametrize(
    "label",
    [pytest.param(label) for label in ("POST /api/games", "GET /api/games", GAME_OPERATIONS[0])],
)
def test_validation_errors_are_as_declared(api_schema: Any, label: str) -> None:
    _run(api_schema, label, [_only(_is_422, checks.response_schema_conformance)])


def test_the_record_is_as_declared(api_schema: Any, game_id: str) -> None:
    _run(api_schema, RECORD, [checks.content_type_conformance], {"game_id": game_id})
