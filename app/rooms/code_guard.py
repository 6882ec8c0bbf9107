"""A limit on wrong invitation codes: a private room's code is its secret (app/rooms/invites.py),
so trying codes by the thousand must not pay.

``CodeGuardMiddleware`` counts, per client address, the requests that show a code (the
``tapet_codes`` cookie, the ``X-Tapet-Code`` header, ``?code=``, or a code in the path of
``/api/invitations/{code}`` or ``/join/{code}``) and are answered 403 or 404: a code that
opens nothing. Once ``TAPET_RATE_CODE_FAILURES`` (``30/60``: 30 a minute) are used up, such
requests get 429 with ``Retry-After`` before any route runs, until a token is back. A
request that shows no code is never counted nor refused here. With the cookie's codes
capped at :data:`app.rooms.invites.COOKIE_KEEP` (:func:`app.rooms.invites.codes_of`), a
request tries at most 22 codes. Sockets are not counted (they are not HTTP requests).
"""

from __future__ import annotations

import re

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.accounts.guard import GuardMiddleware
from app.accounts.limits import RateLimiter, retry_after
from app.core.errors import ServiceError
from app.core.settings import Settings
from app.rooms.invites import codes_of

#: Paths whose last part is a code.
CODE_PATHS = re.compile(r"^/(api/invitations|join)/[^/]+/?")
#: Answers that mean "this code opens nothing here".
FAILED = frozenset({403, 404})


class CodeGuardMiddleware:
    """The limit of the module docstring, configured by ``settings``
    (``settings.rate("code_failures")``; None: off)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        rate = settings.rate("code_failures")
        self.limiter = RateLimiter(*rate) if rate is not None else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limiter = self.limiter
        if scope["type"] != "http" or limiter is None:
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        if not (CODE_PATHS.match(scope["path"]) or codes_of(conn)):
            await self.app(scope, receive, send)
            return
        key = f"ip:{conn.client.host if conn.client else '?'}"
        if (wait := limiter.wait(key)) > 0:
            seconds = retry_after(wait)
            error = ServiceError(
                f"too many wrong invitation codes: try again in {seconds} s",
                "rate_code_failures",
                n=seconds,
            )
            await GuardMiddleware._refuse(  # noqa: SLF001 - the guard's one way to refuse
                scope, send, 429, error, [(b"retry-after", str(seconds).encode())]
            )
            return

        async def counting(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in FAILED:
                limiter.hit(key)
            await send(message)

        await self.app(scope, receive, counting)
