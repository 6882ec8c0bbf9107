"""CSRF protection for the HTML forms and the page socket.

Two checks, both cheap:

* the token: an HMAC of the visitor's session value (or of nothing, before
  they have one) with the server secret. Pages put it in every form as the
  hidden field ``csrf`` and htmx sends it as the ``X-CSRF-Token`` header;
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
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from app.settings import get_settings

from .service import SESSION_COOKIE

HEADER = "x-csrf-token"
FIELD = "csrf"


def csrf_token(conn: HTTPConnection) -> str:
    """The token the forms of this visitor's pages carry (tied to their session cookie)."""
    session = conn.cookies.get(SESSION_COOKIE, "")
    key = get_settings().secret().encode()
    return hmac.new(key, b"csrf|" + session.encode(), hashlib.sha256).hexdigest()


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
    return hmac.compare_digest(given, csrf_token(conn))
