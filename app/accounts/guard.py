"""Request guards, applied to every HTTP request before any route (an ASGI middleware).

In order:

1. **Body size**: a body over ``TAPET_MAX_BODY`` bytes (64 KiB) gets 413, whether
   announced by ``Content-Length`` or streamed.
2. **Ids out of range**: a path segment that is a whole number beyond +-(2**31 - 1)
   names nothing the database can hold: 404 (instead of an overflow in the driver).
3. **Cross-site API writes**: a POST/PUT/PATCH/DELETE under ``/api/`` sent by another
   site's page without a bearer token gets 403 (app/web/csrf.py; the pages check
   their form tokens themselves).
4. **Rate limits** (429 with ``Retry-After``): log-in attempts and new sessions or
   registrations per client address, moves, new rooms and deal replays per user (per
   address without a session).

| bucket | requests | key |
|---|---|---|
| ``login`` | ``POST /api/login``, ``POST /login`` | client address |
| ``session`` | ``POST /api/session``, ``POST /session``, ``POST /api/accounts``, ``POST /register`` | client address |
| ``moves`` | ``POST /api/rooms/{id}/moves``, ``POST /rooms/{id}/moves`` | user id from the token, else address |
| ``rooms`` | ``POST /api/rooms``, ``POST /rooms`` (new rooms) | user id from the token, else address |
| ``replays`` | ``POST /api/rooms/{id}/deals/{n}/replay-mine`` and the page's (app/records/replay_mine.py) | user id from the token, else address |
| ``hints`` | ``POST /rooms/{id}/hint`` (the strong bot thinks for the asker, app/table/hints.py) | user id from the token, else address |

Refusals are ``{"detail": message}`` under ``/api/``, a short HTML message elsewhere
(an ``#flash`` fragment for htmx).
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.accounts.deps import visitor
from app.accounts.limits import RateLimiter, retry_after
from app.accounts.service import token_from_request, user_id_from_token
from app.core.db import INT32
from app.core.errors import ServiceError
from app.core.settings import Settings
from app.web import csrf
from app.web.templating import error_response, is_htmx

RULES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("login", re.compile(r"^/(api/)?login/?$"), "ip"),
    ("session", re.compile(r"^/(api/session|session|api/accounts|register)/?$"), "ip"),
    ("moves", re.compile(r"^/(api/)?rooms/[^/]+/moves/?$"), "user"),
    ("rooms", re.compile(r"^/(api/)?rooms/?$"), "user"),
    ("replays", re.compile(r"^/(api/)?rooms/[^/]+/deals/[^/]+/replay-mine/?$"), "user"),
    ("hints", re.compile(r"^/(api/)?rooms/[^/]+/hint/?$"), "user"),
)
#: Buckets whose token comes back when the request is refused as invalid (422): a room
#: form with a mistake creates nothing, so it should not use up the person's new rooms.
REFUNDED = frozenset({"rooms"})
MESSAGES = {
    "login": "too many log-in attempts",
    "session": "too many new sessions from your address",
    "moves": "too many moves at once",
    "rooms": "too many new rooms",
    "replays": "too many deal replays at once",
    "hints": "too many hints at once",
}


def _out_of_range(part: str) -> bool:
    digits = part[1:] if part.startswith(("-", "+")) else part
    return digits.isascii() and digits.isdigit() and (len(digits) > 10 or int(digits) > INT32)


def _refund_on_refusal(send: Send, limiter: RateLimiter, key: str) -> Send:
    """``send``, giving ``key`` its token back when the answer's status is 422."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start" and message.get("status") == 422:
            limiter.refund(key)
        await send(message)

    return sending


class GuardMiddleware:
    """The request guards of the module docstring, configured by ``settings``."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.max_body = settings.max_body
        self.limiters: dict[str, RateLimiter] = {}
        for name in ("login", "session", "moves", "rooms", "replays", "hints"):
            rate = settings.rate(name)
            if rate is not None:
                self.limiters[name] = RateLimiter(*rate)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        method, path = scope["method"].upper(), scope["path"]
        length = conn.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._refuse(scope, send, 413, self._too_large())
            return
        if any(_out_of_range(part) for part in path.split("/")):
            await self._refuse(
                scope,
                send,
                404,
                ServiceError("not found: that number is out of range", "id_out_of_range"),
            )
            return
        if path.startswith("/api/") and not csrf.api_request_allowed(conn, method):
            await self._refuse(scope, send, 403, "cross-site request refused: send a bearer token")
            return
        if method == "POST":
            for name, pattern, keyed in RULES:
                limiter = self.limiters.get(name)
                if limiter is None or not pattern.match(path):
                    continue
                key = self._key(conn, keyed)
                wait = limiter.hit(key)
                if wait <= 0 and name in REFUNDED:
                    send = _refund_on_refusal(send, limiter, key)
                if wait > 0:
                    seconds = retry_after(wait)
                    await self._refuse(
                        scope,
                        send,
                        429,
                        ServiceError(
                            f"{MESSAGES[name]}: try again in {seconds} s", f"rate_{name}", n=seconds
                        ),
                        [(b"retry-after", str(seconds).encode())],
                    )
                    return
        if length is None and method in csrf.UNSAFE_METHODS:
            # A streamed body (no Content-Length): read it here, at most max_body bytes.
            chunks, size, more = [], 0, True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client left before its body ended: nothing is done
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_body:
                    await self._refuse(scope, send, 413, self._too_large())
                    return
                chunks.append(chunk)
                more = message.get("more_body", False)
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                return await receive()

            await self.app(scope, replay, send)
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _key(conn: HTTPConnection, keyed: str) -> str:
        if keyed == "user":
            uid = user_id_from_token(token_from_request(conn))
            if uid is not None:
                return f"user:{uid}"
        client = conn.client.host if conn.client else "?"
        return f"ip:{client}"

    def _too_large(self) -> ServiceError:
        return ServiceError(
            f"the request body is larger than {self.max_body} bytes",
            "body_too_large",
            n=self.max_body,
        )

    @staticmethod
    async def _refuse(
        scope: Scope,
        send: Send,
        status: int,
        message: str | ServiceError,
        headers: list[tuple[bytes, bytes]] | None = None,
    ) -> None:
        extra = list(headers or [])
        if not scope["path"].startswith("/api/"):
            # a page: the error page with the site's layout (a flash fragment for htmx),
            # in the visitor's language and with the visitor signed in as on every page,
            # like every other refusal of the pages
            request = Request(scope)
            user = None if is_htmx(request) else await visitor(request)
            response = error_response(request, user, message, status)
            response.headers.update({k.decode(): v.decode() for k, v in extra})
            await response(scope, _no_body, send)
            return
        detail = message.message if isinstance(message, ServiceError) else message
        body = json.dumps({"detail": detail}).encode()
        kind = b"application/json"
        start: dict[str, Any] = {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                *extra,
            ],
        }
        await send(start)
        await send({"type": "http.response.body", "body": body})


async def _no_body() -> Message:
    """The ``receive`` of a refused request: its body is never read."""
    return {"type": "http.disconnect"}
