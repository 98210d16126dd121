"""What makes the server's answers safe in a browser (docs/web.md, "Headers and origins"):
the security headers of every HTTP response, and the Origin check of the WebSocket's
handshake.

The pages load only the server's own scripts, styles and images, may not be framed, and
send no Referer: a game's links carry the secret tokens of its seats, which must not leak
to whatever a page links to. HSTS is sent only to a client that came over HTTPS (directly,
or through a trusted proxy that says so), since over plain HTTP it means nothing and on a
server without TLS it would lock browsers out.

>>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", ())
True
>>> origin_allowed("https://evil.example", "pachisi.example.org", "wss", ())
False
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pachisi.web.limits import forwarded_scheme
from pachisi.web.settings import Network

__all__ = ["CONTENT_SECURITY_POLICY", "HEADERS", "HSTS", "SecurityHeaders", "origin_allowed"]

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Only the server's own files; no inline script or style, no plugins, no framing."""

HEADERS: Final = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
)
"""The headers every HTTP response carries (names in lower case, as ASGI has them)."""

HSTS: Final = ("strict-transport-security", "max-age=31536000")
"""Sent only over HTTPS: browsers then use HTTPS alone for a year."""

_ENCODED: Final = tuple(
    (name.encode("latin-1"), value.encode("latin-1")) for name, value in HEADERS
)
_ENCODED_HSTS: Final = (HSTS[0].encode("latin-1"), HSTS[1].encode("latin-1"))
_DEFAULT_PORTS: Final = {"http": "80", "https": "443"}


class SecurityHeaders:
    """ASGI middleware: adds :data:`HEADERS` (and :data:`HSTS` over HTTPS) to every HTTP
    response, leaving WebSockets and lifespan alone; a header the app set itself is kept,
    never doubled.

    ``trusted`` are the proxies whose X-Forwarded-Proto is believed
    (:func:`~pachisi.web.limits.forwarded_scheme`).
    """

    def __init__(self, app: ASGIApp, trusted: Sequence[Network] = ()) -> None:
        self.app = app
        self.trusted = tuple(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(_ENCODED)
        if self._https(scope):
            extra.append(_ENCODED_HSTS)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {bytes(name).lower() for name, _ in headers}
                headers.extend(header for header in extra if header[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _https(self, scope: Scope) -> bool:
        client = scope.get("client")
        peer = str(client[0]) if client else None
        protos = [
            bytes(value).decode("latin-1")
            for name, value in scope.get("headers", ())
            if bytes(name).lower() == b"x-forwarded-proto"
        ]
        proto = ",".join(protos) if protos else None
        scheme = str(scope.get("scheme", "http"))
        return forwarded_scheme(peer, proto, scheme, self.trusted) == "https"


def _origin(text: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port or a trailing slash;
    None if ``text`` is not an HTTP(S) origin."""
    text = text.strip().lower().removesuffix("/")
    scheme, separator, host = text.partition("://")
    if not separator or scheme not in _DEFAULT_PORTS or not host:
        return None
    if any(char in host for char in "/?#@\\ ") or not host.isascii():
        return None
    if host.endswith(":" + _DEFAULT_PORTS[scheme]) and not host.endswith("]"):
        host = host[: -len(_DEFAULT_PORTS[scheme]) - 1]
    if not host or host.endswith(":"):
        return None
    return f"{scheme}://{host}"


def origin_allowed(
    origin: str | None, host: str | None, scheme: str, allowed: Sequence[str]
) -> bool:
    """Whether a WebSocket handshake with this Origin header may go on.

    No Origin means no browser (a script, a bot), whose requests carry no victim's
    cookies: it may. A browser's page may if it is the server's own (``host`` the Host
    header, ``scheme`` how the client reached us: ``ws``/``wss`` or ``http``/``https``, see
    :func:`~pachisi.web.limits.forwarded_scheme`) or one of ``allowed``; compared in lower
    case, default ports and a trailing slash ignored. ``null`` (a sandboxed frame, a file)
    may not.

    >>> origin_allowed(None, "pachisi.example.org", "wss", ())
    True
    >>> origin_allowed("https://pachisi.example.org:443", "Pachisi.example.org", "wss", ())
    True
    >>> origin_allowed("null", "pachisi.example.org", "wss", ())
    False
    """
    if origin is None:
        return True
    told = _origin(origin)
    if told is None:
        return False
    own_scheme = "https" if scheme.lower() in ("https", "wss") else "http"
    if host is not None and told == _origin(f"{own_scheme}://{host}"):
        return True
    return any(told == _origin(item) for item in allowed)
