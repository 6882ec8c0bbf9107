"""Security headers on every HTTP response (an ASGI middleware, outermost in app/main.py).

| header | value | why |
|---|---|---|
| ``X-Frame-Options`` | ``DENY`` | no page of ours inside another site's frame (clickjacking a move or a form) |
| ``X-Content-Type-Options`` | ``nosniff`` | a browser takes our JSON and static files for what we say they are |
| ``Referrer-Policy`` | ``same-origin`` | room and tournament addresses do not leak to other sites |
| ``Content-Security-Policy`` | ``PAGE_CSP`` (below) | scripts only from our own ``/static`` (vendored htmx and its ws extension, ``tapet.js``, ``replay.js``, ``print.js``): no inline script, no ``eval``; the page socket to this host only; ``frame-ancestors 'none'`` |

Styles allow ``'unsafe-inline'``: the table sets CSS variables in ``style`` attributes
(``--n``, the number of cards), the record pages carry one ``<style>`` block and htmx
adds its indicator style; a style cannot run code, and every template escapes its input.
The API documentation has an inline start-up script, so it gets ``DOCS_CSP`` instead;
``/docs`` and ``/redoc`` load Swagger UI and ReDoc from our own ``/docs-assets`` (the
fastapi-offline package), so they work without internet and need no CDN. A response
that already has one of these headers keeps its own.
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

DOCS_PATHS = ("/docs", "/redoc")  # /docs-assets too (a prefix)


def page_csp(host: str | None) -> str:
    """The pages' policy; ``host`` (the request's ``Host``) names the WebSocket origins
    (``'self'`` covers ``ws:``/``wss:`` in CSP 3 browsers, the explicit ones the rest)."""
    sockets = f" ws://{host} wss://{host}" if host and _plain_host(host) else ""
    return (
        "default-src 'self'; "
        "script-src 'self'; "
        "style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; "
        "font-src 'self'; "
        f"connect-src 'self'{sockets}; "
        "object-src 'none'; "
        "base-uri 'self'; "
        "form-action 'self'; "
        "frame-ancestors 'none'"
    )


DOCS_CSP = (
    "default-src 'self'; "
    "script-src 'self' 'unsafe-inline'; "
    "style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)


def _plain_host(host: str) -> bool:
    """A ``Host`` value safe to echo in the policy: letters, digits, ``.-:[]`` only."""
    return len(host) <= 255 and all(c.isalnum() or c in ".-:[]" for c in host)


class SecurityHeadersMiddleware:
    """Adds the module's headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        host = Headers(scope=scope).get("host")
        csp = DOCS_CSP if path.startswith(DOCS_PATHS) else page_csp(host)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in (
                    ("X-Frame-Options", "DENY"),
                    ("X-Content-Type-Options", "nosniff"),
                    ("Referrer-Policy", "same-origin"),
                    ("Content-Security-Policy", csp),
                ):
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
