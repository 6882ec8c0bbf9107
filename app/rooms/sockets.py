"""The JSON socket of a room: ``WS /api/rooms/{id}/ws[?since=SEQ]``.

Authenticated by ``Authorization: Bearer`` or ``?token=`` (then that token alone,
valid or not, says who it is), else by the session cookie, which counts only when
the browser's ``Origin`` is this host (cross-site pages get a spectator's view):
``app.accounts.service.socket_token``, the one rule of both sockets.

Messages (JSON):

* a view: the same JSON as ``GET /api/rooms/{id}/view`` plus ``"type": "view"``;
  sent at connect and after every change of the room. Its ``seq`` says how far the
  table is: the view is always whole, so a client that missed events is up to date
  with the next view;
* only for a client that connects with ``?chat=1``: ``{"type": "chat", ...}``, the room's
  chat as this viewer receives it, at connect and whenever it changes (the registered
  socket feeds of app/core/hooks.py; docs/chat.md). Without it, a client gets views and
  moves only, as before the chat;
* only for a client that connects with ``?since=S`` (the seq of the last view it
  saw, e.g. before its connection dropped): ``{"type": "moves", "since": S, "seq": N,
  "moves": [...]}``, the public move log entries ``S..N-1`` (as ``GET
  .../moves?since=S``) it has not seen, sent just before each view that is ahead of
  the previous one: at connect, the moves it missed while away; then the moves of
  every change. Only when at most ``CATCHUP_MAX`` moves are missing; further behind,
  the view alone (the whole state) is the catch-up.

When the session the socket was opened with ends (log-out, a password change, a revoked
session, a deleted account; in any server process), the socket closes with code 4401.

A second socket of the same seat (another tab) is simply another viewer: it gets
the same views and replaces nothing. Views are built once per audience (each seat,
and all spectators) per room event in this process (app/rooms/fanout.py). Messages from the client are ignored (moves go
through ``POST .../moves``).
"""

from __future__ import annotations

import contextlib
from typing import Any

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.responses import JSONResponse

from app import realtime
from app.accounts.models import User
from app.accounts.service import socket_token, user_from_token, watch_session
from app.core.errors import Forbidden, NotFound, TooManyRequests
from app.core.hooks import HOOKS
from app.rooms import fanout, invites
from app.rooms.fanout import encode

router = APIRouter(tags=["rooms"])
CATCHUP_MAX = 64


def _since(websocket: WebSocket) -> int | None:
    raw = websocket.query_params.get("since", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


async def _admit(
    websocket: WebSocket, sessionmaker: Any, room_id: int, token: str | None
) -> tuple[bool, User | None, str | None]:
    """(True, the socket's user or None, the room's code) when it may watch ``room_id``;
    else the socket is closed (4404 no such room, 4403 a private table without its code)
    and (False, None, None).
    A function of its own so that the socket's long-lived frame keeps no database session
    (2,000 sockets kept 2,000 closed sessions for the collector to scan:
    app/core/collector.py)."""
    async with sessionmaker() as db:
        user = await user_from_token(token, db)
        try:
            code = await invites.require_access(db, room_id, user, invites.codes_of(websocket))
        except NotFound:
            await websocket.close(code=4404, reason="no such room")
            return False, None, None
        except (Forbidden, TooManyRequests):  # a private room, without its code
            # (docs/invitations.md), or after too many wrong codes
            await websocket.close(code=4403, reason="private table")
            return False, None, None
    return True, user, code


@router.websocket("/api/rooms/{room_id}/ws")
async def room_socket(websocket: WebSocket, room_id: int) -> None:
    """Push the caller's view of ``room_id`` at connect and on every room event, with the
    missed moves first when the client is a few moves behind (module docstring)."""
    sessionmaker = websocket.app.state.sessionmaker
    # a token sent by the client, else the cookie from this host only (a spectator else)
    token = socket_token(websocket)
    try:
        admitted, user, code = await _admit(websocket, sessionmaker, room_id, token)
    except PoolTimeout:  # every database connection busy past the pool's timeout
        await websocket.send_denial_response(
            JSONResponse(
                {"detail": "the server is busy; try again"},
                status_code=503,
                headers={"Retry-After": "1"},
            )
        )
        return
    if not admitted:
        return
    await websocket.accept()
    hub = realtime.current()
    seen: int | None = _since(websocket)
    wants_moves = seen is not None
    fed: dict[str, Any] = {}  # the socket feeds' state (app/core/hooks.py: the chat)
    feeds = websocket.query_params.get("chat") == "1"  # opted in: older clients get views only
    sees = invites.seer(user, invites.codes_of(websocket), code)  # asked at every push

    async def push() -> None:
        nonlocal seen
        entry = await fanout.views_of(hub).get(
            sessionmaker, room_id, user, sees
        )  # built once per audience
        seq = entry.view.get("seq", 0)
        if wants_moves and seen is not None and 0 < seq - seen <= CATCHUP_MAX:
            missed = [
                m
                for m in await fanout.views_of(hub).moves(sessionmaker, room_id, seen)
                if m["seq"] < seq
            ]
            if missed:
                await websocket.send_text(
                    encode({"type": "moves", "since": seen, "seq": seq, "moves": missed})
                )
        await websocket.send_text(entry.text)
        seen = seq
        if feeds:
            for text in await HOOKS.feed_socket(
                sessionmaker, room_id, user, entry.view, "json", fed
            ):
                await websocket.send_text(text)

    with hub.presence.watching(room_id, user.id if user else None):
        async with hub.listen(room_id) as events, anyio.create_task_group() as tg:

            async def receive() -> None:
                try:
                    while (await websocket.receive())["type"] != "websocket.disconnect":
                        pass
                except (WebSocketDisconnect, RuntimeError):
                    pass
                tg.cancel_scope.cancel()

            async def send() -> None:
                try:
                    await push()
                    async for _seq in events:
                        await push()
                except (WebSocketDisconnect, RuntimeError, OSError):
                    pass
                except Forbidden:  # closed to spectators since it was let in
                    with contextlib.suppress(RuntimeError, OSError):
                        await websocket.close(code=4403, reason="private table")
                tg.cancel_scope.cancel()

            async def session_end(uid: int) -> None:
                await watch_session(sessionmaker, uid, token)
                with contextlib.suppress(RuntimeError, OSError):
                    await websocket.close(code=4401, reason="session ended")
                tg.cancel_scope.cancel()

            tg.start_soon(receive)
            tg.start_soon(send)
            if user is not None:  # logged out, revoked, deleted: the socket closes
                tg.start_soon(session_end, user.id)
