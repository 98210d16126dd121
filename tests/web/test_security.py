"""The security headers of every HTTP answer, HSTS only over HTTPS, and the WebSocket's
Origin rules (pachisi.web.security)."""

from __future__ import annotations

import asyncio
import random
import warnings
from collections.abc import Callable, Iterator, MutableMapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from pachisi.web.app import create_app
from pachisi.web.security import (
    CONTENT_SECURITY_POLICY,
    HEADERS,
    HSTS,
    SecurityHeaders,
    origin_allowed,
)
from pachisi.web.settings import Settings, parse_networks
from tests.web.conftest import HUMAN, OPEN, new_game

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from fastapi.testclient import TestClient

EXPECTED = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}
PROXY = "10.0.0.1"

Client = Callable[..., AbstractContextManager[TestClient]]


@pytest.fixture
def app_client(tmp_path: Path) -> Client:
    """A client of an app over a fresh SQLite file that trusts the proxies in 10.0.0.0/8;
    ``peer`` the address it connects from, ``https`` whether it connects over HTTPS."""

    @contextmanager
    def start(peer: str = "testclient", https: bool = False) -> Iterator[TestClient]:
        settings = Settings(trusted_proxies=parse_networks(["10.0.0.0/8"]))
        app = create_app(
            f"sqlite:///{tmp_path / 'games.db'}", rng=random.Random(1), settings=settings
        )
        base_url = "https://pachisi.test" if https else "http://pachisi.test"
        with TestClient(app, base_url=base_url, client=(peer, 4711)) as client:
            yield client

    return start


def assert_secured(response: Any) -> None:
    for name, value in EXPECTED.items():
        assert response.headers.get_list(name) == [value], (name, response.url)


def test_the_module_states_the_policy_it_was_asked_for() -> None:
    assert dict(HEADERS) == EXPECTED
    assert EXPECTED["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert HSTS == ("strict-transport-security", "max-age=31536000")


# --------------------------------------------------------------------------- the app


def test_every_kind_of_answer_carries_the_headers(app_client: Client) -> None:
    with app_client() as client:
        game = new_game(client, HUMAN, OPEN, OPEN, OPEN)
        game_id = game["id"]
        answers = {
            "lobby": client.get("/"),
            "game page": client.get(f"/game/{game_id}"),
            "replay page": client.get(f"/replay/{game_id}"),
            "api meta": client.get("/api/meta"),
            "api game": client.get(f"/api/games/{game_id}"),
            "api list": client.get("/api/games?status=open"),
            "record": client.get(f"/api/games/{game_id}/record"),
            "stylesheet": client.get("/static/css/pachisi.css"),
            "script": client.get("/static/js/board.js"),
            "catalogue": client.get("/static/i18n/en.json"),
            "head": client.head("/static/css/pachisi.css"),
        }
        errors = {
            "unknown path": client.get("/no/such/page"),
            "unknown game page": client.get("/game/nope"),
            "unknown game": client.get("/api/games/nope"),
            "unknown static file": client.get("/static/js/nope.js"),
            "wrong method": client.delete("/api/meta"),
            "bad body": client.post("/api/games", json={"seats": "two"}),
            "not json": client.post(
                "/api/games", content=b"{", headers={"content-type": "application/json"}
            ),
        }
    for name, response in answers.items():
        assert response.status_code == 200, name
        assert_secured(response)
    assert answers["api meta"].headers["content-type"] == "application/json"
    assert answers["stylesheet"].headers["content-type"].startswith("text/css")
    assert [response.status_code for response in errors.values()] == [
        404, 404, 404, 404, 405, 422, 400
    ]  # fmt: skip
    for response in errors.values():
        assert_secured(response)


def test_the_game_creation_carries_the_headers(app_client: Client) -> None:
    with app_client() as client:
        response = client.post("/api/games", json={"seats": [HUMAN, OPEN, OPEN, OPEN]})
    assert response.status_code == 201
    assert_secured(response)


def test_no_hsts_over_plain_http(app_client: Client) -> None:
    with app_client() as client:
        response = client.get("/")
    assert "strict-transport-security" not in response.headers
    assert_secured(response)


def test_hsts_over_https(app_client: Client) -> None:
    with app_client(https=True) as client:
        for path in ("/", "/api/meta", "/static/css/pachisi.css", "/nope"):
            response = client.get(path)
            assert response.headers.get_list("strict-transport-security") == ["max-age=31536000"]
            assert_secured(response)


def test_hsts_when_a_trusted_proxy_says_https(app_client: Client) -> None:
    with app_client(peer=PROXY) as client:
        told = client.get("/api/meta", headers={"x-forwarded-proto": "https"})
        plain = client.get("/api/meta")
        said_http = client.get("/api/meta", headers={"x-forwarded-proto": "http"})
    assert told.headers.get("strict-transport-security") == "max-age=31536000"
    assert "strict-transport-security" not in plain.headers
    assert "strict-transport-security" not in said_http.headers


def test_no_hsts_when_an_untrusted_peer_says_https(app_client: Client) -> None:
    for peer in ("192.0.2.1", "testclient"):
        with app_client(peer=peer) as client:
            response = client.get("/", headers={"x-forwarded-proto": "https"})
        assert "strict-transport-security" not in response.headers, peer
        assert_secured(response)


def test_the_websocket_still_works_behind_the_middleware(app_client: Client) -> None:
    with app_client() as client:
        game_id = new_game(client, HUMAN, OPEN, OPEN, OPEN)["id"]
        with client.websocket_connect(f"/ws/games/{game_id}") as socket:
            assert socket.receive_json()["type"] == "snapshot"


# --------------------------------------------------------------------------- the middleware


def _run(app: Any, scope: dict[str, Any]) -> list[dict[str, Any]]:
    """Run ``app`` on one ``scope``; the messages it sent."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def _http_scope(**extra: Any) -> dict[str, Any]:
    return {
        "type": "http",
        "method": "GET",
        "path": "/",
        "scheme": "http",
        "headers": [],
        "client": ("192.0.2.1", 4711),
        **extra,
    }


def test_headers_the_app_set_itself_are_not_doubled() -> None:
    async def framed(scope: Any, receive: Any, send: Any) -> None:
        headers = [(b"X-Frame-Options", b"SAMEORIGIN"), (b"content-type", b"text/plain")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"hi"})

    start, body = _run(SecurityHeaders(framed), _http_scope())
    names = [name.lower() for name, _ in start["headers"]]
    assert names.count(b"x-frame-options") == 1
    assert (b"X-Frame-Options", b"SAMEORIGIN") in start["headers"]
    for name, value in EXPECTED.items():
        if name != "x-frame-options":
            assert (name.encode(), value.encode()) in start["headers"]
    assert len(names) == len(set(names)) == 1 + len(EXPECTED)
    assert body == {"type": "http.response.body", "body": b"hi"}


def test_the_middleware_reads_forwarded_proto_from_the_scope() -> None:
    async def empty(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 204})
        await send({"type": "http.response.body", "body": b""})

    proxy = parse_networks(["192.0.2.0/24"])
    forwarded = _http_scope(headers=[(b"X-Forwarded-Proto", b"https")])
    [start, _] = _run(SecurityHeaders(empty, trusted=proxy), forwarded)
    assert (b"strict-transport-security", b"max-age=31536000") in start["headers"]
    [start, _] = _run(SecurityHeaders(empty), forwarded)
    assert not any(name == b"strict-transport-security" for name, _ in start["headers"])
    [start, _] = _run(SecurityHeaders(empty), _http_scope(scheme="https", client=None))
    assert (b"strict-transport-security", b"max-age=31536000") in start["headers"]


def test_websockets_and_lifespan_pass_untouched() -> None:
    seen: list[tuple[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append((scope["type"], send))
        await send({"type": "websocket.accept", "headers": []})

    sent: list[MutableMapping[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {}

    middleware = SecurityHeaders(app)
    for kind in ("websocket", "lifespan"):
        asyncio.run(middleware({"type": kind, "scheme": "wss", "headers": []}, receive, send))
    assert seen == [("websocket", send), ("lifespan", send)]
    assert sent == [{"type": "websocket.accept", "headers": []}] * 2


# --------------------------------------------------------------------------- origins

ALLOWED = ("https://friends.example", "http://LOCALHOST:3000/")


@pytest.mark.parametrize(
    ("origin", "host", "scheme"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws"),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "http"),
        ("https://pachisi.example.org", "pachisi.example.org", "wss"),
        ("https://pachisi.example.org", "pachisi.example.org", "https"),
        ("HTTPS://Pachisi.Example.Org", "pachisi.example.org", "wss"),
        ("https://pachisi.example.org/", "pachisi.example.org", "wss"),
        ("https://pachisi.example.org", "pachisi.example.org:443", "wss"),
        ("https://pachisi.example.org:443", "pachisi.example.org", "wss"),
        ("http://pachisi.example.org", "pachisi.example.org:80", "ws"),
        ("http://[::1]:8000", "[::1]:8000", "ws"),
        ("http://[::1]", "[::1]:80", "ws"),
    ],
)
def test_the_servers_own_origin_is_allowed(origin: str, host: str, scheme: str) -> None:
    assert origin_allowed(origin, host, scheme, ())


@pytest.mark.parametrize(
    ("origin", "host", "scheme"),
    [
        ("http://127.0.0.1:8001", "127.0.0.1:8000", "ws"),  # another port
        ("http://localhost:8000", "127.0.0.1:8000", "ws"),  # another name
        ("https://pachisi.example.org", "pachisi.example.org", "ws"),  # another scheme
        ("http://pachisi.example.org", "pachisi.example.org", "wss"),
        ("https://pachisi.example.org:8443", "pachisi.example.org", "wss"),
        ("https://pachisi.example.org.evil.example", "pachisi.example.org", "wss"),
        ("https://evil.example", "pachisi.example.org", "wss"),
        ("https://pachisi.example.org", None, "wss"),  # no Host: no own origin
        ("null", "pachisi.example.org", "wss"),
        ("NULL", "pachisi.example.org", "wss"),
        ("", "pachisi.example.org", "wss"),
        ("pachisi.example.org", "pachisi.example.org", "wss"),
        ("file://", "pachisi.example.org", "wss"),
        ("https://pachisi.example.org/game", "pachisi.example.org", "wss"),
        ("https://user@pachisi.example.org", "pachisi.example.org", "wss"),
        ("https://", "", "wss"),
    ],
)
def test_another_origin_is_refused(origin: str, host: str | None, scheme: str) -> None:
    assert not origin_allowed(origin, host, scheme, ALLOWED)


def test_no_origin_is_not_a_browser_and_is_allowed() -> None:
    assert origin_allowed(None, "pachisi.example.org", "wss", ())
    assert origin_allowed(None, None, "ws", ())


@pytest.mark.parametrize(
    "origin",
    [
        "https://friends.example",
        "https://FRIENDS.example/",
        "https://friends.example:443",
        "http://localhost:3000",
    ],
)
def test_an_allowed_origin_is_allowed(origin: str) -> None:
    assert not origin_allowed(origin, "pachisi.example.org", "wss", ())
    assert origin_allowed(origin, "pachisi.example.org", "wss", ALLOWED)


@pytest.mark.parametrize(
    "origin",
    ["http://friends.example", "https://friends.example:8443", "http://localhost:3001", "null"],
)
def test_the_allow_list_is_exact(origin: str) -> None:
    assert not origin_allowed(origin, "pachisi.example.org", "wss", ALLOWED)
