"""CSRF protection for the HTML forms and the page socket.

Two checks, both cheap:

* the token: an HMAC of the visitor's session value (before they have one, of
  the random pre-session cookie ``tapet_pre`` that :class:`PreSessionMiddleware`
  gives every visitor) with the server secret, so a token is never the same for
  two visitors (no forced log-in with a token read from our own login page).
  Pages put it in every form as the hidden field ``csrf`` and htmx sends it as
  the ``X-CSRF-Token`` header;
* the origin: a browser sends ``Origin`` with every POST and WebSocket
  handshake; when present it must name this host.

The session cookie is also ``SameSite=Lax``, so a cross-site form never
carries it; these checks are the second lock (DESIGN.md "People").

The JSON API (``/api/...``) takes no form tokens: its state-changing requests
(POST, PUT, PATCH, DELETE) are refused when they come from another site's page
(``api_request_allowed``: a cross-site ``Origin`` or ``Sec-Fetch-Site``) unless
they carry ``Authorization: Bearer``, which a browser never adds by itself.
app/accounts/guard.py applies it to every request.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from app.core.settings import SESSION_COOKIE, get_settings

HEADER = "x-csrf-token"
FIELD = "csrf"
#: The random cookie a visitor without a session gets; their form tokens are tied to it.
PRE_COOKIE = "tapet_pre"


def csrf_token(conn: HTTPConnection) -> str:
    """The token the forms of this visitor's pages carry (hex, 64 characters): tied to their
    session cookie, else to their pre-session cookie."""
    session = conn.cookies.get(SESSION_COOKIE) or ""
    if session:
        return _token(b"csrf|" + session.encode())
    return _token(b"pre|" + conn.cookies.get(PRE_COOKIE, "").encode())


def browser_key(conn: HTTPConnection, key: str | None) -> str | None:
    """A form's one-time ``key`` tied to this browser: an HMAC (hex, 64 characters) of the
    key and the visitor's pre-session cookie, which every page visitor has (HttpOnly; it
    outlives their first session's start, so a double tap's second post, carrying the new
    session cookie, still ties to it). None without a key or without that cookie.

    A form's key makes at most one guest and signs that guest in again when the same form
    is sent twice (``accounts.guest_of_form``); tied to the browser, a key read off
    another visitor's page signs nobody in: only the browser that was shown it can."""
    pre = conn.cookies.get(PRE_COOKIE)
    if not key or not pre:
        return None
    return _token(b"form|" + str(pre).encode() + b"|" + key.encode())


def _token(value: bytes) -> str:
    key = get_settings().secret().encode()
    return hmac.new(key, value, hashlib.sha256).hexdigest()


def _cookie_names(header: str) -> set[str]:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # noqa: BLE001 - a malformed cookie header: as if none
        return set()
    return set(jar)


class PreSessionMiddleware:
    """Gives a page visitor with neither a session nor a pre-session cookie a random
    ``tapet_pre`` cookie (HttpOnly, SameSite=Lax, for the browser session), visible
    to this very request too, so that the forms it renders carry a token of their own.
    The JSON API, static files and sockets are left alone."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path.startswith(("/api/", "/static/")):
            await self.app(scope, receive, send)
            return
        headers = list(scope.get("headers") or [])
        cookie = b"; ".join(v for k, v in headers if k == b"cookie").decode("latin-1")
        names = _cookie_names(cookie) if cookie else set()
        if SESSION_COOKIE in names or PRE_COOKIE in names:
            await self.app(scope, receive, send)
            return
        value = secrets.token_urlsafe(18)
        joined = f"{cookie}; {PRE_COOKIE}={value}" if cookie else f"{PRE_COOKIE}={value}"
        headers = [(k, v) for k, v in headers if k != b"cookie"] + [
            (b"cookie", joined.encode("latin-1"))
        ]
        scope = {**scope, "headers": headers}
        secure = "; Secure" if get_settings().cookie_secure else ""
        set_cookie = f"{PRE_COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax{secure}".encode(
            "latin-1"
        )

        async def send_with_cookie(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [*(message.get("headers") or []), (b"set-cookie", set_cookie)],
                }
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def same_origin(conn: HTTPConnection) -> bool:
    """False when the request says it comes from another site (``Origin`` names another host)."""
    origin = conn.headers.get("origin")
    if not origin or origin == "null":
        return origin is None
    host = conn.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def api_request_allowed(conn: HTTPConnection, method: str) -> bool:
    """False for a state-changing API request a browser sent from another site's page
    (so it may ride on the cookie, or log the visitor in to someone else's account)."""
    if method.upper() not in UNSAFE_METHODS:
        return True
    if conn.headers.get("authorization", "").lower().startswith("bearer "):
        return True
    if conn.headers.get("sec-fetch-site", "").lower() == "cross-site":
        return False
    return same_origin(conn)


def check(conn: HTTPConnection, submitted: str | None) -> bool:
    """True when a form post is acceptable: same origin and the right token
    (``submitted`` from the form field, else the ``X-CSRF-Token`` header)."""
    if not same_origin(conn):
        return False
    given = submitted or conn.headers.get(HEADER) or ""
    if hmac.compare_digest(given, csrf_token(conn)):
        return True
    # A form of a page served before this visitor's session began, posted after it did:
    # a double tap on "Play now" whose first post made the session, the second then
    # carrying its cookie with the page's token. That token is as much this browser's
    # (its pre-session cookie, HttpOnly, which no other site reads or sets).
    pre = conn.cookies.get(PRE_COOKIE)
    return bool(pre) and hmac.compare_digest(given, _token(b"pre|" + str(pre).encode()))
