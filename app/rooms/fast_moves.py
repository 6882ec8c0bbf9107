"""``POST /api/rooms/{id}/moves`` without FastAPI's request machinery: the hot path of a
move (issue 16 §3; docs/server.md "Live rooms").

The JSON API's move is the one request every player makes every few seconds. Through
FastAPI it paid for the dependency machinery (three dependencies solved per request),
the body's validation into a model and back, and two wrappers around the endpoint:
about a quarter of a move request's samples in a sampling profile (py-spy) of a server
under ``tapet load``. With this route and the collector's settings
(app/core/collector.py) a move costs 2.9 ms of server CPU instead of 5.9
(docs/benchmarks.md, "Live rooms, afternoon of 3 December").
``MoveRoute`` is a plain Starlette route placed before the site's routers
(``install``): it reads the body, validates it with the same ``MoveIn`` model, finds
the mover as ``moving_user`` does and calls the same ``service.play_move``; the
answer is the same bytes. The middlewares (security headers, rate limits, body
limit, presence) run as for any request, and a ``ServiceError`` reaches the app's
handler as from any route, so refusals are unchanged.

Anything unusual is left to the FastAPI route, which stays the documented one
(``/docs``): a body that is not ``application/json`` or that ``MoveIn`` refuses
(the app's 422 for FastAPI's validation errors, one sentence in ``detail``), a room id
past the 32-bit range (the guard middleware answers 404 before any route), nobody
signed in. The request is then dispatched again with
this route stepping aside (``FALLBACK`` in the scope) and the body replayed.
"""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route
from starlette.types import Message, Receive, Scope, Send

from app.accounts.service import mover_from_request
from app.rooms import service
from app.rooms.api import INT32, MoveIn

PATH = "/api/rooms/{room_id:int}/moves"
#: Set in the scope of a request this route hands to the FastAPI route.
FALLBACK = "tapet.move_fallback"


async def _body(receive: Receive) -> bytes | None:
    """The whole body, or None when the client went away before sending all of it (a
    request cut short is never played, as Starlette's ``ClientDisconnect`` refuses it)."""
    chunks, more = [], True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        more = message.get("more_body", False)
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


class MoveRoute(Route):
    """The route of a move (module docstring). Steps aside for a request it handed on."""

    def __init__(self) -> None:
        super().__init__(PATH, endpoint=self._move, methods=["POST"], include_in_schema=False)
        self.app = self._move  # an ASGI app as it is: no request/response wrapper

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        """Starlette's match, but none for a request this route handed on."""
        if scope.get(FALLBACK):
            return Match.NONE, {}
        return super().matches(scope)

    async def _move(self, scope: Scope, receive: Receive, send: Send) -> None:
        room_id = scope["path_params"]["room_id"]
        body = await _body(receive)
        if body is None:
            return  # nobody left to answer
        move = _parsed(scope, body) if room_id <= INT32 else None
        answer: Response | None = None
        if move is not None:
            request = Request(scope)
            async with scope["app"].state.sessionmaker() as db:
                user = await mover_from_request(request, db)
                if user is not None:  # else: the FastAPI route's 401
                    entry = await service.play_move(db, room_id, user, move.seq, move.action)
                    answer = Response(entry.body, media_type="application/json")
        if answer is None:
            scope[FALLBACK] = True
            await scope["router"](scope, _replay(body, receive), send)
            return
        await answer(scope, receive, send)


def _parsed(scope: Scope, body: bytes) -> MoveIn | None:
    """The move of a JSON body, validated as FastAPI does (the JSON parsed, then the
    model in Python mode); None for anything else."""
    kind = dict(scope["headers"]).get(b"content-type", b"").split(b";")[0].strip().lower()
    if kind != b"application/json":
        return None
    try:
        return MoveIn.model_validate(orjson.loads(body))
    except (orjson.JSONDecodeError, ValidationError):
        return None


def install(routes: list[Any]) -> None:
    """Put the move's route first in ``routes`` (the app's router's list): the explicit
    extension point, called once by app/main.py."""
    routes.insert(0, MoveRoute())
