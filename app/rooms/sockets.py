"""The JSON socket of a room: ``WS /api/rooms/{id}/ws``.

Authenticated by the session cookie, ``Authorization: Bearer`` or ``?token=``;
without a session the socket is a spectator's. A cookie counts only when the
browser's ``Origin`` is this host (cross-site pages get a spectator's view). It sends the caller's whole view
(the same JSON as ``GET /api/rooms/{id}/view``) at connect and after every change
of the room. Messages from the client are ignored (moves go through ``POST .../moves``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app import realtime
from app.accounts.service import user_from_request
from app.errors import NotFound

from . import service

router = APIRouter(tags=["rooms"])


def _same_origin(websocket: WebSocket) -> bool:
    """True unless a browser says the page that opened the socket is from another host."""
    origin = websocket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == websocket.headers.get("host")


def _explicit_token(websocket: WebSocket) -> bool:
    """True when the client sent its token itself (bearer header or ``?token=``), not a cookie."""
    return "authorization" in websocket.headers or "token" in websocket.query_params


@router.websocket("/api/rooms/{room_id}/ws")
async def room_socket(websocket: WebSocket, room_id: int) -> None:
    """Push the caller's view of ``room_id`` at connect and on every room event."""
    sessionmaker = websocket.app.state.sessionmaker
    async with sessionmaker() as db:
        user = await user_from_request(websocket, db)
        if user is not None and not _same_origin(websocket) and not _explicit_token(websocket):
            user = None  # another site's page rides on our cookie: it gets a spectator's view
        try:
            await service.room_info(db, room_id)
        except NotFound:
            await websocket.close(code=4404, reason="no such room")
            return
    await websocket.accept()
    hub = realtime.current()

    async def push() -> None:
        async with sessionmaker() as db:
            view = await service.get_view(db, room_id, user)
        await websocket.send_json(view)

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
                tg.cancel_scope.cancel()

            tg.start_soon(receive)
            tg.start_soon(send)
