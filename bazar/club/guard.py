"""What a browser may ask of the club, whoever's page it is on.

A browser sends ``Origin`` with every POST and every websocket handshake, and the visitor's
cookie with both: a page on another site could otherwise act for its visitor (join, leave,
upload) or open a table's socket and read his hand. Such a request is refused before any of
it is read, and such a socket is closed before it is served anything. The API takes only
``application/json`` bodies: the kinds a cross-site form or fetch may send without the
club's leave (``text/plain``, form encodings, none named) are refused; a POST without a body
needs none. Every response carries the
headers that keep the page from being framed, sniffed, or given scripts from elsewhere.

>>> same_origin("http://club.example:8000", "http", "club.example:8000")
True
>>> same_origin("https://club.example", "wss", "club.example:443")
True
>>> same_origin("http://evil.example", "http", "club.example")
False
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ServerError

__all__ = ["HEADERS", "Guard", "refusal", "same_origin"]

#: sent with every response: the page loads its scripts, styles and socket from the club
#: only, and no other site may frame it (clickjacking) or learn its invitation links
HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}
#: the methods that change nothing, which any page may use
SAFE = ("GET", "HEAD", "OPTIONS")
_PORTS = {"http": 80, "https": 443}
_WEB = {"ws": "http", "wss": "https"}


def refusal(error: ServerError) -> JSONResponse:
    """The JSON answer of a refusal: ``error`` is the English, ``code`` and ``params`` let the
    page say it its way."""
    said = error.to_json()
    said["error"] = said.pop("message")
    # a refusal until a time passes (a throttle, a quota) says when, as HTTP does
    retry = error.params.get("retry_after")
    headers = None if retry is None else {"Retry-After": str(retry)}
    return JSONResponse(said, status_code=error.status, headers=headers)


def _site(url: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(url)
        scheme = _WEB.get(parts.scheme.lower(), parts.scheme.lower())
        return scheme, (parts.hostname or ""), parts.port or _PORTS.get(scheme, 0)
    except ValueError:
        return None


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether ``origin`` is the club's own as a request to ``scheme`` (http, ws...) with
    the ``Host`` header ``host`` sees it."""
    own = _site(f"{scheme}://{host}")
    return own is not None and own[1] != "" and _site(origin) == own


class Guard:
    """ASGI middleware: refuses requests and sockets from other sites' pages and bodies that
    are not JSON, and adds :data:`HEADERS` to every response. ``allowed`` names, comma-separated,
    other origins whose pages may act on the club (a front end served elsewhere)."""

    def __init__(self, app: ASGIApp, allowed: str = "") -> None:
        self.app = app
        sites = (_site(origin.strip()) for origin in allowed.split(","))
        self.allowed = {site for site in sites if site is not None and site[1]}

    def is_allowed(self, scope: Scope) -> bool:
        """Whether the request's page may act on the club: one without an Origin is no
        browser's (or a same-origin GET), else the origin must be the club's or allowed."""
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is None:
            return True
        if same_origin(origin, scope["scheme"], headers.get("host", "")):
            return True
        return _site(origin) in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not self.is_allowed(scope):
                # closed in the handshake: the server answers 403 and the socket never opens
                await receive()
                await send({"type": "websocket.close", "code": 1008})
                return
        elif scope["type"] == "http":
            send = _with_headers(send)
            if scope["method"] not in SAFE:
                error = self._refused(scope)
                if error is not None:
                    await refusal(error)(scope, receive, send)
                    return
        await self.app(scope, receive, send)

    def _refused(self, scope: Scope) -> ServerError | None:
        headers = Headers(scope=scope)
        if not self.is_allowed(scope):
            return ServerError("origin", 403, origin=headers.get("origin", "")[:100])
        kind = headers.get("content-type")
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        if (kind is not None or has_body) and _media(kind) != "application/json":
            return ServerError("json_only", 415)
        return None


def _media(content_type: str | None) -> str:
    return (content_type or "").split(";")[0].strip().lower()


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers: list[Any] = list(message.get("headers", []))
            present = {name.lower() for name, _ in headers}
            headers += [
                (name.encode(), value.encode())
                for name, value in HEADERS.items()
                if name.encode() not in present
            ]
            message = {**message, "headers": headers}
        await send(message)

    return sending
